/* acl/nnforeach.c - the aclnnForeach* operators (acl/nnops.def, the FOREACH_* signature classes): one
 * element-wise operation applied to every member of a tensor list.
 *
 *   aclnnForeachXxxGetWorkspaceSize  1. device set?  2. NULL arguments (161001)  3. the lists: live,
 *                                    not empty, the same length (161002)  4. per member i: x[i]'s
 *                                    dtype that of x[0] and one the library operator takes, out[i]
 *                                    (and x2[i]) of x[i]'s shape and dtype (161002, naming the
 *                                    member)  5. one library call per member, planned now (nncall.c),
 *                                    chained behind the first member's executor
 *   aclnnForeachXxx                  every member's kernel queued on the stream, in list order
 *
 * The in-place forms write x[i] (x1[i]); ZeroInplace is the library's fill --value 0 (x * 0 would keep
 * NaN and inf); RoundOffNumber picks the library operator from roundMode (fe_round_op); Norm runs the
 * library's lp_norm, NonFiniteCheckAndUnscale its nonfinite_check and then muls, per member (two
 * launches each), as does RoundOffNumber's mode 7 (trunc, then x - trunc(x)).
 *
 * Each member is one launch of the library operator (one profile row per member, OP Type the CANN
 * kernel's, e.g. ForeachAddScalar).  CANN runs the whole list in one kernel launch, its blocks sharing
 * the members' elements, so a list of many small tensors pays one launch and keeps every core busy,
 * where dvsim pays a launch per member and runs a small member on few cores.  Not built here because
 * the layers below do not carry a list: a library operator takes at most DV_OP_MAX_ARGS (8) tensor
 * arguments (dv/ops.h), a launch at most DV_ACL_MAX_KARGS (16), and a kernel reads device memory only
 * through its arguments (each staged from its view), never through addresses it loads.  A list kernel
 * needs (1) a tensor-list argument kind in the library's plan (dv_op_plan_t: n members, each a view),
 * (2) the launch staging every member of it (acl/launch.c), (3) the executor binding a list to it
 * (acl/nncall.c), and (4) kernels that map a block to (member, element range) from a prefix sum of the
 * members' lengths in the tiling.  The workspace is the sum of the members' (each member's part in list
 * order).
 *
 * The V1 forms take their scalar (or alpha, roundMode, invScale) as a one-element device aclTensor:
 * dvsim reads its value when the first phase runs (CANN's kernel reads it when it runs: a value written
 * between the two phases, or by work still queued on a stream, is not seen). */
#include "nn.h"

#include "aclnnop/aclnn_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the table (acl/nnops.def) */

typedef struct fe_row {
    const char *api, *gws, *libop, *optype;
    double factor;
} fe_row_t;

enum {
#define DV_ACLNN(api, header, sig, libop, optype, factor, params, ws_q, stream_q, doc) FE_ROW_##api,
#include "nnops.def"
    FE_ROWS
};

static const fe_row_t fe_rows[FE_ROWS] = {
#define DV_ACLNN(api, header, sig, libop, optype, factor, params, ws_q, stream_q, doc) \
    [FE_ROW_##api] = {"aclnn" #api, "aclnn" #api "GetWorkspaceSize", #libop, optype, factor},
#include "nnops.def"
};

/* What a class takes besides x (or x1) and out. */
enum {
    FE_X2 = 1,      /* a second tensor list x2 */
    FE_ALPHA = 2,   /* an aclScalar alpha scaling x2 (the library's --alpha) */
    FE_SCALAR = 4,  /* one aclScalar for every member (the library's --scalar, times the row's factor) */
    FE_SCALARS = 8, /* an aclScalarList, one per member */
    FE_COPY = 16,   /* out = x: the library's muls with --scalar 1 */
    FE_TENSOR = 32, /* the scalar (FE_SCALAR, FE_ROUND) or alpha (FE_ALPHA) is a one-element device aclTensor */
    FE_INPLACE = 64, /* no out list: the result goes into x (x1) */
    FE_ZERO = 128,  /* x[i] = 0: the library's fill --value 0, x[i] its output */
    FE_ROUND = 256, /* a roundMode (aclScalar, or FE_TENSOR) picks the library operator (fe_round_op) */
    FE_NORM = 512,  /* out[i] = the scalar-norm of x[i], one element (the library's lp_norm --p) */
    FE_GRADS = 1024 /* the list is NonFiniteCheckAndUnscale's scaledGrads (its name in messages) */
};

/* The library's lp_norm --p of CANN's p (1, 2, +inf as 0); 161002 for the orders dvsim does not compute. */
static int fe_norm_p(const char *gws, double p, int *lp)
{
    if (p == 1 || p == 2 || p == INFINITY) {
        *lp = p == INFINITY ? 0 : (int)p;
        return ACLNN_SUCCESS;
    }
    return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: scalar (the order p) %g is not supported: dvsim computes the "
                       "1-, 2- and inf-norm", gws, p);
}

/* CANN's roundMode (its kernel's cast modes) and what dvsim runs for each: one library operator, or for 7
 * (the fraction) trunc then x - trunc(x) into out; a value that is no mode is CANN's CAST_NONE, which on a
 * float keeps it (out = x, the library's muls by 1).  4 (half away from zero) and 6 (to odd) have no
 * library operator. */
enum { FE_R_OP, FE_R_COPY, FE_R_FRAC };
static const struct {
    int mode, kind;
    const char *libop;
} fe_round_modes[] = {
    {1, FE_R_OP, "round"}, {2, FE_R_OP, "floor"}, {3, FE_R_OP, "ceil"}, {5, FE_R_OP, "trunc"}, {7, FE_R_FRAC, "trunc"},
};

/* What roundMode v runs (*kind, *libop); 161002 for a mode dvsim has no operator for. */
static int fe_round_op(const char *gws, double v, int *kind, const char **libop)
{
    if (v != floor(v) || !isfinite(v))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: roundMode %g is not an integer", gws, v);
    if (v == 4 || v == 6)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: roundMode %g is not supported: dvsim has no operator that "
                           "rounds %s", gws, v, v == 4 ? "half away from zero" : "to odd");
    *kind = FE_R_COPY;
    *libop = "muls";
    for (size_t i = 0; i < sizeof fe_round_modes / sizeof fe_round_modes[0]; i++)
        if (v == fe_round_modes[i].mode) {
            *kind = fe_round_modes[i].kind;
            *libop = fe_round_modes[i].libop;
        }
    return ACLNN_SUCCESS;
}

/* An aclScalar argument: live, or 161001 (NULL) / 161002 (not a scalar). */
static int fe_scalar(const char *gws, const aclScalar *s, const char *what)
{
    if (!s)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", gws, what);
    if (!dv_acl_handle_is(s, DV_ACL_MAGIC_SCALAR))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is not a live aclScalar", gws, what);
    return ACLNN_SUCCESS;
}

/* The n values of a device tensor given for scalars (the V1 forms: n 1; the Addcmul / Addcdiv lists: one per
 * member), in v[0 .. n-1], its elements in row-major order. */
static int fe_tensor_values(const char *gws, const aclTensor *t, const char *what, uint64_t n, double *v)
{
    int rc;
    const struct aclTensor *st = dv_acl_tensor_get(t, gws, what, &rc);
    if (!st)
        return rc;
    if (dv_acl_tensor_elems(st) != n)
        return n == 1 ? dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %llu elements; it must hold one value", gws,
                                    what, (unsigned long long)dv_acl_tensor_elems(st))
                      : dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %llu elements; it must hold one value per "
                                    "member (%llu)", gws, what, (unsigned long long)dv_acl_tensor_elems(st),
                                    (unsigned long long)n);
    if (st->dtype != ACL_FLOAT && st->dtype != ACL_FLOAT16 && st->dtype != ACL_INT32 && st->dtype != ACL_INT8)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s; dvsim reads a scalar tensor of ACL_FLOAT, "
                           "ACL_FLOAT16, ACL_INT32 or ACL_INT8", gws, what, dv_nn_dtype_name(st->dtype));
    for (uint64_t k = 0; k < n; k++) {
        const uint8_t *h;
        if ((rc = dv_nn_tensor_element(gws, st, what, k, &h)))
            return rc;
        if (st->dtype == ACL_FLOAT) {
            float f;
            memcpy(&f, h, 4);
            v[k] = f;
        } else if (st->dtype == ACL_INT32) {
            int32_t i;
            memcpy(&i, h, 4);
            v[k] = i;
        } else if (st->dtype == ACL_INT8) {
            v[k] = (int8_t)h[0];
        } else {
            aclFloat16 x;
            memcpy(&x, h, 2);
            v[k] = aclFloat16ToFloat(x);
        }
    }
    return ACLNN_SUCCESS;
}

/* The value of a one-element device tensor given for a scalar (the V1 forms), in *v. */
static int fe_tensor_scalar(const char *gws, const aclTensor *t, const char *what, double *v)
{
    return fe_tensor_values(gws, t, what, 1, v);
}

/* A list's length must be x's. */
static int fe_len(const char *gws, uint64_t n, const char *xw, uint64_t m, const char *what)
{
    if (m == n)
        return ACLNN_SUCCESS;
    return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %llu members but %s has %llu: the lists must have the "
                       "same length", gws, what, (unsigned long long)m, xw, (unsigned long long)n);
}

/* Member i: checks and the executor of its library call. */
static int fe_member(int row, unsigned has, const char *libop, uint64_t i, const aclTensor *x, const aclTensor *x2,
                     double scalar, double alpha, const aclTensor *out, const aclTensor *x0, aclOpExecutor **e)
{
    const fe_row_t *r = &fe_rows[row];
    const char *xw = (has & FE_GRADS) ? "scaledGrads" : (has & FE_X2) ? "x1" : "x";
    const char *ow = (has & (FE_INPLACE | FE_ZERO)) ? xw : "out";
    char wx[48], wx2[32], wo[48], w0[48];
    snprintf(wx, sizeof wx, "%s[%llu]", xw, (unsigned long long)i);
    snprintf(wx2, sizeof wx2, "x2[%llu]", (unsigned long long)i);
    snprintf(wo, sizeof wo, "%s[%llu]", ow, (unsigned long long)i);
    snprintf(w0, sizeof w0, "%s[0]", xw);
    dv_nn_call_t call, *c = &call;
    uint64_t ws;
    int rc;
    dv_nn_call_init(c, r->api, r->gws, libop, r->optype);
    if ((i > 0 && (rc = dv_nn_check_same_dtype(c, x0, w0, x, wx))) || (rc = dv_nn_check_dtype(c, x, wx, "dtype")) ||
        (rc = dv_nn_check_plain(c, x, wx)))
        return rc;
    if (has & FE_NORM) {
        /* an empty member's norm is 0: the library's fill of out[i] */
        const uint64_t n = dv_acl_tensor_elems(x);
        if ((rc = dv_nn_check_plain(c, out, wo)) || (rc = dv_nn_check_same_dtype(c, x, wx, out, wo)))
            return rc;
        if (dv_acl_tensor_elems(out) != 1)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %llu elements; the norm of %s is one value",
                               r->gws, wo, (unsigned long long)dv_acl_tensor_elems(out), wx);
        if (n == 0)
            dv_nn_call_init(c, r->api, r->gws, "fill", r->optype);
        dv_nn_call_param(c, "shape", "%llu", (unsigned long long)(n ? n : 1));
        dv_nn_call_param(c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(x->dtype)->dv));
        if (n == 0) {
            dv_nn_call_param(c, "value", "0");
        } else {
            dv_nn_call_param(c, "p", "%d", (int)scalar);
            dv_nn_call_tensor(c, x, xw, "x", true);
        }
        dv_nn_call_tensor(c, out, ow, "y", false);
        return dv_nn_exec_build(c, &ws, e);
    }
    if (has & FE_ZERO) {
        uint64_t n = dv_acl_tensor_elems(x);
        c->empty = n == 0;
        dv_nn_call_param(c, "shape", "%llu", (unsigned long long)(n ? n : 1));
        dv_nn_call_param(c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(x->dtype)->dv));
        dv_nn_call_param(c, "value", "0");
        dv_nn_call_tensor(c, x, xw, "y", false);
        return dv_nn_exec_build(c, &ws, e);
    }
    if ((rc = dv_nn_check_plain(c, out, wo)) ||
        (rc = dv_nn_check_same_shape(c, x, wx, out, wo, "")) || (rc = dv_nn_check_same_dtype(c, x, wx, out, wo)))
        return rc;
    if ((has & FE_X2) && ((rc = dv_nn_check_plain(c, x2, wx2)) ||
                          (rc = dv_nn_check_same_shape(c, x, wx, x2, wx2, "")) ||
                          (rc = dv_nn_check_same_dtype(c, x, wx, x2, wx2))))
        return rc;
    uint64_t n = dv_acl_tensor_elems(x);
    c->empty = n == 0;
    dv_nn_call_param(c, "shape", "%llu", (unsigned long long)n);
    dv_nn_call_param(c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(x->dtype)->dv));
    if (has & (FE_SCALAR | FE_SCALARS | FE_COPY))
        dv_nn_call_param(c, "scalar", "%.17g", scalar);
    if ((has & FE_ALPHA) && (rc = dv_nn_float_param(c, "alpha", alpha, 1.0, "alpha")))
        return rc;
    /* the executor keeps `what` for its second-phase messages: the list's name (static) */
    dv_nn_call_tensor(c, x, xw, "x", true);
    if (has & FE_X2)
        dv_nn_call_tensor(c, x2, "x2", "y", true);
    dv_nn_call_tensor(c, out, ow, (has & FE_X2) ? "z" : "y", false);
    return dv_nn_exec_build(c, &ws, e);
}

static int foreach(int row, unsigned has, const aclTensorList *x, const aclTensorList *x2, const aclScalar *s,
                   const aclScalarList *sl, const aclScalar *alpha, const aclTensor *ts, const aclTensorList *out,
                   uint64_t *workspaceSize, aclOpExecutor **executor)
{
    const fe_row_t *r = &fe_rows[row];
    const char *gws = r->gws, *xw = (has & FE_X2) ? "x1" : "x";
    dv_nn_call_t start;
    int rc;
    dv_nn_call_init(&start, r->api, gws, r->libop, r->optype);
    if ((rc = dv_nn_call_start(&start, workspaceSize, executor)))
        return rc;
    const struct aclTensorList *lx = dv_acl_tensor_list_get(x, gws, xw, &rc), *lx2 = NULL, *lo;
    if (!lx)
        return rc;
    if ((has & FE_X2) && !(lx2 = dv_acl_tensor_list_get(x2, gws, "x2", &rc)))
        return rc;
    double sv = 0, av = 1;
    const char *sw = (has & FE_ROUND) ? "roundMode" : "scalar";
    int lp = 0;
    if (has & FE_TENSOR) {
        if ((rc = fe_tensor_scalar(gws, ts, (has & FE_ALPHA) ? "alpha" : sw, (has & FE_ALPHA) ? &av : &sv)))
            return rc;
    } else {
        if ((has & (FE_SCALAR | FE_ROUND)) && (rc = fe_scalar(gws, s, sw)))
            return rc;
        if ((has & FE_ALPHA) && (rc = fe_scalar(gws, alpha, "alpha")))
            return rc;
        sv = (has & (FE_SCALAR | FE_ROUND)) ? s->value : 0;
        av = (has & FE_ALPHA) ? alpha->value : 1;
    }
    if ((has & FE_NORM) && (rc = fe_norm_p(gws, sv, &lp)))
        return rc;
    const char *libop = r->libop;
    int rkind = FE_R_OP;
    if ((has & FE_ROUND) && (rc = fe_round_op(gws, sv, &rkind, &libop)))
        return rc;
    if (rkind == FE_R_COPY)
        has |= FE_COPY;
    const struct aclScalarList *lsl = NULL;
    if ((has & FE_SCALARS) && !(lsl = dv_acl_scalar_list_get(sl, gws, "scalars", &rc)))
        return rc;
    if (has & (FE_INPLACE | FE_ZERO))
        lo = lx;
    else if (!(lo = dv_acl_tensor_list_get(out, gws, "out", &rc)))
        return rc;
    const uint64_t n = lx->size;
    if (n == 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is an empty tensor list", gws, xw);
    if ((lx2 && (rc = fe_len(gws, n, xw, lx2->size, "x2"))) ||
        (lsl && (rc = fe_len(gws, n, xw, lsl->size, "scalars"))) ||
        (lo != lx && (rc = fe_len(gws, n, xw, lo->size, "out"))))
        return rc;
    aclOpExecutor *head = NULL, **tail = &head;
    uint64_t ws = 0;
    for (uint64_t i = 0; i < n; i++) {
        double v = (has & FE_COPY) ? 1.0 : (has & FE_NORM) ? lp : (has & FE_SCALAR) ? r->factor * sv
                                        : (has & FE_SCALARS) ? r->factor * lsl->v[i]->value : 0.0;
        aclOpExecutor *e = NULL;
        if ((rc = fe_member(row, has, libop, i, lx->v[i], lx2 ? lx2->v[i] : NULL, v, av, lo->v[i], lx->v[0], &e))) {
            dv_acl_executor_free(head);
            return rc;
        }
        ws += e->workspace;
        *tail = e;
        tail = &e->next;
        /* roundMode 7: out = x - trunc(x), trunc(x) being in out */
        if (rkind == FE_R_FRAC) {
            if ((rc = fe_member(row, has | FE_X2, "sub", i, lx->v[i], lo->v[i], 0, 1, lo->v[i], lx->v[0], &e))) {
                dv_acl_executor_free(head);
                return rc;
            }
            ws += e->workspace;
            *tail = e;
            tail = &e->next;
        }
    }
    *workspaceSize = ws;
    *executor = head;
    return ACLNN_SUCCESS;
}

/* NonFiniteCheckAndUnscale: per member the library's nonfinite_check (foundInf both its found and its y:
 * the flag so far, raised to 1 by an inf or NaN), then muls by invScale in place; invScale read now, as
 * the V1 forms' scalars.  Unscaling the members checked before does not change the flag (inf and NaN stay
 * so).  An empty member only has its (empty) muls. */
static int fe_unscale(int row, const aclTensorList *grads, const aclTensor *foundInf, const aclTensor *invScale,
                      uint64_t *workspaceSize, aclOpExecutor **executor)
{
    const fe_row_t *r = &fe_rows[row];
    const char *gws = r->gws;
    dv_nn_call_t start;
    int rc;
    dv_nn_call_init(&start, r->api, gws, r->libop, r->optype);
    if ((rc = dv_nn_call_start(&start, workspaceSize, executor)))
        return rc;
    const struct aclTensorList *lg = dv_acl_tensor_list_get(grads, gws, "scaledGrads", &rc);
    if (!lg)
        return rc;
    const struct aclTensor *fi = dv_acl_tensor_get(foundInf, gws, "foundInf", &rc);
    if (!fi)
        return rc;
    if (fi->dtype != ACL_FLOAT || dv_acl_tensor_elems(fi) != 1)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: foundInf is %s of %llu elements; it must be one ACL_FLOAT",
                           gws, dv_nn_dtype_name(fi->dtype), (unsigned long long)dv_acl_tensor_elems(fi));
    double inv;
    if ((rc = fe_tensor_scalar(gws, invScale, "invScale", &inv)))
        return rc;
    if (lg->size == 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: scaledGrads is an empty tensor list", gws);
    aclOpExecutor *head = NULL, **tail = &head;
    uint64_t ws = 0;
    for (uint64_t i = 0; i < lg->size; i++) {
        const aclTensor *g = lg->v[i];
        aclOpExecutor *e = NULL;
        char wg[48];
        snprintf(wg, sizeof wg, "scaledGrads[%llu]", (unsigned long long)i);
        dv_nn_call_t call, *c = &call;
        dv_nn_call_init(c, r->api, gws, r->libop, r->optype);
        if ((rc = dv_nn_check_dtype(c, g, wg, "dtype")) || (rc = dv_nn_check_plain(c, g, wg)) ||
            (rc = dv_nn_check_plain(c, fi, "foundInf")))
            goto fail;
        const uint64_t n = dv_acl_tensor_elems(g);
        if (n) {
            dv_nn_call_param(c, "shape", "%llu", (unsigned long long)n);
            dv_nn_call_param(c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(g->dtype)->dv));
            dv_nn_call_tensor(c, g, "scaledGrads", "x", true);
            dv_nn_call_tensor(c, fi, "foundInf", "found", true);
            dv_nn_call_tensor(c, fi, "foundInf", "y", false);
            if ((rc = dv_nn_exec_build(c, &ws, &e)))
                goto fail;
            ws = 0;
            *tail = e;
            tail = &e->next;
        }
        if ((rc = fe_member(row, FE_INPLACE | FE_SCALAR | FE_GRADS, "muls", i, g, NULL, inv, 1, g, lg->v[0], &e)))
            goto fail;
        *tail = e;
        tail = &e->next;
    }
    for (aclOpExecutor *m = head; m; m = m->next)
        ws += m->workspace;
    *workspaceSize = ws;
    *executor = head;
    return ACLNN_SUCCESS;
fail:
    dv_acl_executor_free(head);
    return rc;
}

/* ---------------------------------------------------------------- Addcmul, Addcdiv, Lerp: two or three launches */

enum { FT_ADDC_S, FT_ADDC_T, FT_ADDC_TL, FT_LERP_LIST, FT_LERP_S };

/* One launch z = a op b (add: a + alpha * b) of member tensors already checked; aw, bw, zw name them. */
static int fe_step(const fe_row_t *r, const char *libop, const aclTensor *a, const char *aw, const aclTensor *b,
                   const char *bw, double alpha, const aclTensor *z, const char *zw, const char *wmember,
                   aclOpExecutor **e)
{
    dv_nn_call_t call, *c = &call;
    uint64_t ws;
    int rc;
    dv_nn_call_init(c, r->api, r->gws, libop, r->optype);
    if ((rc = dv_nn_check_dtype(c, a, wmember, "dtype")))
        return rc;
    const uint64_t n = dv_acl_tensor_elems(a);
    c->empty = n == 0;
    dv_nn_call_param(c, "shape", "%llu", (unsigned long long)(n ? n : 1));
    dv_nn_call_param(c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(a->dtype)->dv));
    if (strcmp(libop, "add") == 0 && (rc = dv_nn_float_param(c, "alpha", alpha, 1.0, "the scalar")))
        return rc;
    dv_nn_call_tensor(c, a, aw, "x", true);
    dv_nn_call_tensor(c, b, bw, "y", true);
    dv_nn_call_tensor(c, z, zw, "z", false);
    return dv_nn_exec_build(c, &ws, e);
}

/* out[i] may not be an input: the first launch writes it before the last reads the inputs. */
static int fe_not_alias(const char *gws, const aclTensor *o, const char *wo, const aclTensor *t, const char *wt)
{
    if (!o || !t || o->data != t->data || o->offset != t->offset)
        return ACLNN_SUCCESS;
    return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is %s: dvsim computes this operator in steps through out, "
                       "so out must be a tensor of its own", gws, wo, wt);
}

static int fe_ternary(int row, int kind, const aclTensorList *x1, const aclTensorList *x2, const aclTensorList *x3,
                      const aclScalar *s, const aclTensor *ts, const aclTensorList *out, uint64_t *workspaceSize,
                      aclOpExecutor **executor)
{
    const fe_row_t *r = &fe_rows[row];
    const char *gws = r->gws;
    const bool lerp = kind == FT_LERP_LIST || kind == FT_LERP_S;
    const char *w3 = lerp ? "weight" : "x3", *sw = lerp ? "weight" : kind == FT_ADDC_TL ? "scalars" : "scalar";
    dv_nn_call_t start;
    int rc;
    dv_nn_call_init(&start, r->api, gws, r->libop, r->optype);
    if ((rc = dv_nn_call_start(&start, workspaceSize, executor)))
        return rc;
    const struct aclTensorList *l1, *l2, *l3 = NULL, *lo;
    if (!(l1 = dv_acl_tensor_list_get(x1, gws, "x1", &rc)) || !(l2 = dv_acl_tensor_list_get(x2, gws, "x2", &rc)))
        return rc;
    if (kind != FT_LERP_S && !(l3 = dv_acl_tensor_list_get(x3, gws, w3, &rc)))
        return rc;
    double sv = 1;
    if ((kind == FT_ADDC_S || kind == FT_LERP_S) && (rc = fe_scalar(gws, s, sw)))
        return rc;
    if (kind == FT_ADDC_S || kind == FT_LERP_S)
        sv = s->value;
    if (kind == FT_ADDC_T && (rc = fe_tensor_scalar(gws, ts, sw, &sv)))
        return rc;
    if (kind == FT_ADDC_TL && (rc = dv_nn_get_tensor(&start, ts, sw)))
        return rc;
    if (!(lo = dv_acl_tensor_list_get(out, gws, "out", &rc)))
        return rc;
    const uint64_t n = l1->size;
    if (n == 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: x1 is an empty tensor list", gws);
    if ((rc = fe_len(gws, n, "x1", l2->size, "x2")) || (l3 && (rc = fe_len(gws, n, "x1", l3->size, w3))) ||
        (rc = fe_len(gws, n, "x1", lo->size, "out")))
        return rc;
    double *sl = NULL;
    if (kind == FT_ADDC_TL) {
        if (!(sl = malloc(n * sizeof *sl)))
            return dv_acl_fail(ACLNN_ERR_INNER_NULLPTR, "%s: out of host memory", gws);
        if ((rc = fe_tensor_values(gws, ts, sw, n, sl))) {
            free(sl);
            return rc;
        }
    }
    aclOpExecutor *head = NULL, **tail = &head;
    uint64_t ws = 0;
    for (uint64_t i = 0; i < n; i++) {
        const aclTensor *a = l1->v[i], *b = l2->v[i], *c3 = l3 ? l3->v[i] : NULL, *o = lo->v[i];
        char wa[32], wb[32], wc[32], wo[32], w0[32];
        snprintf(wa, sizeof wa, "x1[%llu]", (unsigned long long)i);
        snprintf(wb, sizeof wb, "x2[%llu]", (unsigned long long)i);
        snprintf(wc, sizeof wc, "%s[%llu]", w3, (unsigned long long)i);
        snprintf(wo, sizeof wo, "out[%llu]", (unsigned long long)i);
        snprintf(w0, sizeof w0, "x1[0]");
        dv_nn_call_t chk;
        dv_nn_call_init(&chk, r->api, gws, r->libop, r->optype);
        if ((i > 0 && (rc = dv_nn_check_same_dtype(&chk, l1->v[0], w0, a, wa))) ||
            (rc = dv_nn_check_plain(&chk, a, wa)) || (rc = dv_nn_check_plain(&chk, b, wb)) ||
            (rc = dv_nn_check_plain(&chk, o, wo)) || (c3 && (rc = dv_nn_check_plain(&chk, c3, wc))) ||
            (rc = dv_nn_check_same_shape(&chk, a, wa, b, wb, "")) || (rc = dv_nn_check_same_dtype(&chk, a, wa, b, wb)) ||
            (rc = dv_nn_check_same_shape(&chk, a, wa, o, wo, "")) || (rc = dv_nn_check_same_dtype(&chk, a, wa, o, wo)) ||
            (c3 && ((rc = dv_nn_check_same_shape(&chk, a, wa, c3, wc, "")) ||
                    (rc = dv_nn_check_same_dtype(&chk, a, wa, c3, wc)))) ||
            (rc = fe_not_alias(gws, o, wo, a, wa)) || (rc = fe_not_alias(gws, o, wo, b, wb)) ||
            (rc = fe_not_alias(gws, o, wo, c3, wc)))
            goto fail;
        const double si = sl ? sl[i] : sv;
        aclOpExecutor *e[3] = {NULL, NULL, NULL};
        int steps = 2;
        if (!lerp) { /* out = x2 op x3; out = x1 + s * out */
            if ((rc = fe_step(r, r->libop, b, "x2", c3, "x3", 1, o, "out", wb, &e[0])) ||
                (rc = fe_step(r, "add", a, "x1", o, "out", si, o, "out", wa, &e[1])))
                goto fail_e;
        } else if (kind == FT_LERP_S) { /* out = x2 - x1; out = x1 + w * out */
            if ((rc = fe_step(r, "sub", b, "x2", a, "x1", 1, o, "out", wb, &e[0])) ||
                (rc = fe_step(r, "add", a, "x1", o, "out", si, o, "out", wa, &e[1])))
                goto fail_e;
        } else { /* out = x2 - x1; out = out * weight; out = x1 + out */
            steps = 3;
            if ((rc = fe_step(r, "sub", b, "x2", a, "x1", 1, o, "out", wb, &e[0])) ||
                (rc = fe_step(r, "mul", o, "out", c3, "weight", 1, o, "out", wc, &e[1])) ||
                (rc = fe_step(r, "add", a, "x1", o, "out", 1, o, "out", wa, &e[2])))
                goto fail_e;
        }
        for (int k = 0; k < steps; k++) {
            ws += e[k]->workspace;
            *tail = e[k];
            tail = &e[k]->next;
        }
        continue;
    fail_e:
        for (int k = 0; k < 3; k++)
            if (e[k])
                dv_acl_executor_free(e[k]);
        goto fail;
    }
    free(sl);
    *workspaceSize = ws;
    *executor = head;
    return ACLNN_SUCCESS;
fail:
    free(sl);
    dv_acl_executor_free(head);
    return rc;
}

/* The first phase of each class, in the names of the row's parameter list. */
#define FE_BODY_FOREACH_UNARY(row) foreach(row, 0, x, NULL, NULL, NULL, NULL, NULL, out, workspaceSize, executor)
#define FE_BODY_FOREACH_COPY(row) foreach(row, FE_COPY, x, NULL, NULL, NULL, NULL, NULL, out, workspaceSize, executor)
#define FE_BODY_FOREACH_LIST(row) foreach(row, FE_X2, x1, x2, NULL, NULL, NULL, NULL, out, workspaceSize, executor)
#define FE_BODY_FOREACH_LIST_ALPHA(row) \
    foreach(row, FE_X2 | FE_ALPHA, x1, x2, NULL, NULL, alpha, NULL, out, workspaceSize, executor)
#define FE_BODY_FOREACH_LIST_ALPHA_T(row) \
    foreach(row, FE_X2 | FE_ALPHA | FE_TENSOR, x1, x2, NULL, NULL, NULL, alpha, out, workspaceSize, executor)
#define FE_BODY_FOREACH_SCALAR(row) \
    foreach(row, FE_SCALAR, x, NULL, scalar, NULL, NULL, NULL, out, workspaceSize, executor)
#define FE_BODY_FOREACH_SCALAR_T(row) \
    foreach(row, FE_SCALAR | FE_TENSOR, x, NULL, NULL, NULL, NULL, scalar, out, workspaceSize, executor)
#define FE_BODY_FOREACH_SCALAR_LIST(row) \
    foreach(row, FE_SCALARS, x, NULL, NULL, scalars, NULL, NULL, out, workspaceSize, executor)
#define FE_BODY_FOREACH_INPLACE_UNARY(row) \
    foreach(row, FE_INPLACE, x, NULL, NULL, NULL, NULL, NULL, NULL, workspaceSize, executor)
#define FE_BODY_FOREACH_INPLACE_LIST(row) \
    foreach(row, FE_X2 | FE_INPLACE, x1, x2, NULL, NULL, NULL, NULL, NULL, workspaceSize, executor)
#define FE_BODY_FOREACH_INPLACE_LIST_ALPHA_T(row) \
    foreach(row, FE_X2 | FE_ALPHA | FE_TENSOR | FE_INPLACE, x1, x2, NULL, NULL, NULL, alpha, NULL, workspaceSize, \
            executor)
#define FE_BODY_FOREACH_INPLACE_SCALAR_T(row) \
    foreach(row, FE_SCALAR | FE_TENSOR | FE_INPLACE, x, NULL, NULL, NULL, NULL, scalar, NULL, workspaceSize, executor)
#define FE_BODY_FOREACH_ZERO(row) foreach(row, FE_ZERO, x, NULL, NULL, NULL, NULL, NULL, NULL, workspaceSize, executor)
#define FE_BODY_FOREACH_ROUND(row) \
    foreach(row, FE_ROUND, x, NULL, roundMode, NULL, NULL, NULL, out, workspaceSize, executor)
#define FE_BODY_FOREACH_NORM(row) \
    foreach(row, FE_NORM | FE_SCALAR, x, NULL, scalar, NULL, NULL, NULL, out, workspaceSize, executor)
#define FE_BODY_FOREACH_UNSCALE(row) fe_unscale(row, scaledGrads, foundInf, invScale, workspaceSize, executor)
#define FE_BODY_FOREACH_ADDC_S(row) \
    fe_ternary(row, FT_ADDC_S, x1, x2, x3, scalar, NULL, out, workspaceSize, executor)
#define FE_BODY_FOREACH_ADDC_T(row) \
    fe_ternary(row, FT_ADDC_T, x1, x2, x3, NULL, scalar, out, workspaceSize, executor)
#define FE_BODY_FOREACH_ADDC_TL(row) \
    fe_ternary(row, FT_ADDC_TL, x1, x2, x3, NULL, scalars, out, workspaceSize, executor)
#define FE_BODY_FOREACH_LERP_LIST(row) \
    fe_ternary(row, FT_LERP_LIST, x1, x2, weight, NULL, NULL, out, workspaceSize, executor)
#define FE_BODY_FOREACH_LERP_SCALAR(row) \
    fe_ternary(row, FT_LERP_S, x1, x2, NULL, weight, NULL, out, workspaceSize, executor)
#define FE_BODY_FOREACH_ROUND_T(row) \
    foreach(row, FE_ROUND | FE_TENSOR, x, NULL, NULL, NULL, NULL, roundMode, out, workspaceSize, executor)

#define FE_UNPAREN(...) __VA_ARGS__
#define FE_GWS(api, sig, params)                                                                                  \
    ACLNN_API aclnnStatus aclnn##api##GetWorkspaceSize(FE_UNPAREN params, uint64_t *workspaceSize,                \
                                                       aclOpExecutor **executor)                                   \
    {                                                                                                             \
        DV_ACL_LOCKED();                                                                                          \
        return FE_BODY_##sig(FE_ROW_##api);                                                                       \
    }
/* The rows of the other classes are nnops.c's. */
#define FE_GWS_UNARY(api, params)
#define FE_GWS_INPLACE_UNARY(api, params)
#define FE_GWS_UNARY_SCALAR(api, params)
#define FE_GWS_INPLACE_UNARY_SCALAR(api, params)
#define FE_GWS_BINARY(api, params)
#define FE_GWS_INPLACE_BINARY(api, params)
#define FE_GWS_BINARY_ALPHA(api, params)
#define FE_GWS_INPLACE_BINARY_ALPHA(api, params)
#define FE_GWS_SCALAR(api, params)
#define FE_GWS_INPLACE_SCALAR(api, params)
#define FE_GWS_SCALAR_ALPHA(api, params)
#define FE_GWS_INPLACE_SCALAR_ALPHA(api, params)
#define FE_GWS_CLAMP(api, params)
#define FE_GWS_INPLACE_CLAMP(api, params)
#define FE_GWS_CLAMP_MIN(api, params)
#define FE_GWS_CLAMP_MAX(api, params)
#define FE_GWS_INPLACE_CLAMP_MAX(api, params)
#define FE_GWS_CUSTOM(api, params)
#define FE_GWS_CLAMP_MIN_T(api, params)
#define FE_GWS_INPLACE_CLAMP_MIN_T(api, params)
#define FE_GWS_CLAMP_MAX_T(api, params)
#define FE_GWS_INPLACE_CLAMP_MAX_T(api, params)
#define FE_GWS_UNARY_RESULT(api, params)
#define FE_GWS_UNARY_INPUT(api, params)
#define FE_GWS_INPLACE_UNARY_INPUT(api, params)
#define FE_GWS_INPLACE_UNARY_SELF(api, params)
#define FE_GWS_BACKWARD(api, params)
#define FE_GWS_BACKWARD_GI(api, params)
#define FE_GWS_BACKWARD_OUTPUT(api, params)
#define FE_GWS_BACKWARD_RESULT(api, params)
#define FE_GWS_BACKWARD_THRESHOLD(api, params)
#define FE_GWS_BACKWARD_LAMBDA(api, params)
#define FE_GWS_BACKWARD_LAMBD(api, params)
#define FE_GWS_UNARY_ALPHA(api, params)
#define FE_GWS_INPLACE_UNARY_ALPHA(api, params)
#define FE_GWS_UNARY_LAMBD(api, params)
#define FE_GWS_CMP_TENSOR(api, params)
#define FE_GWS_INPLACE_CMP_TENSOR(api, params)
#define FE_GWS_CMP_SCALAR(api, params)
#define FE_GWS_INPLACE_CMP_SCALAR(api, params)
/* s20-ew2 */
#define FE_GWS_UNARY_BETA(api, params)
#define FE_GWS_BACKWARD_BETA(api, params)
#define FE_GWS_BACKWARD_BUFFER(api, params)
#define FE_GWS_BACKWARD_LEAKY(api, params)
#define FE_GWS_POW_TS(api, params)
#define FE_GWS_INPLACE_POW_TS(api, params)
#define FE_GWS_POW_TT(api, params)
#define FE_GWS_INPLACE_POW_TT(api, params)
#define FE_GWS_THRESHOLD(api, params)
#define FE_GWS_INPLACE_THRESHOLD(api, params)
#define FE_GWS_BACKWARD_MINMAX(api, params)
#define FE_GWS_ELU(api, params)
#define FE_GWS_INPLACE_ELU(api, params)
#define FE_GWS_SOFTPLUS(api, params)
#define FE_GWS_BACKWARD_SOFTPLUS(api, params)
#define FE_GWS_HEAVISIDE(api, params)
#define FE_GWS_UNARY_XY(api, params)
#define FE_GWS_ATTR_XY_ALPHA(api, params)
#define FE_GWS_ATTR_ALPHA(api, params)
#define FE_GWS_ATTR_XY_SLOPE(api, params)
#define FE_GWS_ATTR_BACKWARD_LAMBD(api, params)
#define FE_GWS_UNARY_XZ(api, params)
#define FE_GWS_BACKWARD_GF(api, params)
#define FE_GWS_TANH_GRAD(api, params)
#define FE_GWS_ADDC(api, params)
#define FE_GWS_INPLACE_ADDC(api, params)
#define FE_GWS_ELU_BW(api, params)
#define FE_GWS_ELU_GRAD(api, params)
#define FE_GWS_BINARY_ALPHA_S(api, params)
#define FE_GWS_INPLACE_BINARY_ALPHA_S(api, params)
#define FE_GWS_LERP(api, params)
#define FE_GWS_INPLACE_LERP(api, params)
#define FE_GWS_LERPS(api, params)
#define FE_GWS_INPLACE_LERPS(api, params)
#define FE_GWS_Y_DY_Z(api, params)
#define FE_GWS_YGRAD_X(api, params)
#define FE_GWS_UNARY_XOUT(api, params)
#define FE_GWS_POW_XE(api, params)
#define FE_GWS_XLOGY_SO(api, params)
#define FE_GWS_INPLACE_XLOGY_SO(api, params)
#define FE_GWS_XLOGY_SS(api, params)
#define FE_GWS_FOREACH_UNARY(api, params) FE_GWS(api, FOREACH_UNARY, params)
#define FE_GWS_FOREACH_COPY(api, params) FE_GWS(api, FOREACH_COPY, params)
#define FE_GWS_FOREACH_LIST(api, params) FE_GWS(api, FOREACH_LIST, params)
#define FE_GWS_FOREACH_LIST_ALPHA(api, params) FE_GWS(api, FOREACH_LIST_ALPHA, params)
#define FE_GWS_FOREACH_SCALAR(api, params) FE_GWS(api, FOREACH_SCALAR, params)
#define FE_GWS_FOREACH_SCALAR_LIST(api, params) FE_GWS(api, FOREACH_SCALAR_LIST, params)
#define FE_GWS_FOREACH_LIST_ALPHA_T(api, params) FE_GWS(api, FOREACH_LIST_ALPHA_T, params)
#define FE_GWS_FOREACH_SCALAR_T(api, params) FE_GWS(api, FOREACH_SCALAR_T, params)
#define FE_GWS_FOREACH_INPLACE_UNARY(api, params) FE_GWS(api, FOREACH_INPLACE_UNARY, params)
#define FE_GWS_FOREACH_INPLACE_LIST(api, params) FE_GWS(api, FOREACH_INPLACE_LIST, params)
#define FE_GWS_FOREACH_INPLACE_LIST_ALPHA_T(api, params) FE_GWS(api, FOREACH_INPLACE_LIST_ALPHA_T, params)
#define FE_GWS_FOREACH_INPLACE_SCALAR_T(api, params) FE_GWS(api, FOREACH_INPLACE_SCALAR_T, params)
#define FE_GWS_FOREACH_ZERO(api, params) FE_GWS(api, FOREACH_ZERO, params)
#define FE_GWS_FOREACH_ROUND(api, params) FE_GWS(api, FOREACH_ROUND, params)
#define FE_GWS_FOREACH_ROUND_T(api, params) FE_GWS(api, FOREACH_ROUND_T, params)
#define FE_GWS_FOREACH_NORM(api, params) FE_GWS(api, FOREACH_NORM, params)
#define FE_GWS_FOREACH_UNSCALE(api, params) FE_GWS(api, FOREACH_UNSCALE, params)
#define FE_GWS_FOREACH_ADDC_S(api, params) FE_GWS(api, FOREACH_ADDC_S, params)
#define FE_GWS_FOREACH_ADDC_T(api, params) FE_GWS(api, FOREACH_ADDC_T, params)
#define FE_GWS_FOREACH_ADDC_TL(api, params) FE_GWS(api, FOREACH_ADDC_TL, params)
#define FE_GWS_FOREACH_LERP_LIST(api, params) FE_GWS(api, FOREACH_LERP_LIST, params)
#define FE_GWS_FOREACH_LERP_SCALAR(api, params) FE_GWS(api, FOREACH_LERP_SCALAR, params)
#define DV_ACLNN(api, header, sig, libop, optype, factor, params, ws_q, stream_q, doc) FE_GWS_##sig(api, params)
#include "nnops.def"
