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
 * Each member is one launch of the library operator (one profile row per member, OP Type the
 * CANN kernel's, e.g. ForeachAddScalar).  CANN runs the whole list in one kernel launch; a single
 * kernel whose blocks walk the members' element ranges is not built yet.  The workspace is the sum of
 * the members' (each member's part in list order).
 *
 * The V1 forms take their scalar (or alpha) as a one-element device aclTensor: dvsim reads its value
 * when the first phase runs (CANN's kernel reads it when it runs: a value written between the two
 * phases, or by work still queued on a stream, is not seen). */
#include "nn.h"

#include "aclnnop/aclnn_util.h"

#include <stdio.h>
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
    FE_TENSOR = 32  /* the scalar (FE_SCALAR) or alpha (FE_ALPHA) is a one-element device aclTensor */
};

/* An aclScalar argument: live, or 161001 (NULL) / 161002 (not a scalar). */
static int fe_scalar(const char *gws, const aclScalar *s, const char *what)
{
    if (!s)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", gws, what);
    if (!dv_acl_handle_is(s, DV_ACL_MAGIC_SCALAR))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is not a live aclScalar", gws, what);
    return ACLNN_SUCCESS;
}

/* The value of a one-element device tensor given for a scalar (the V1 forms), in *v. */
static int fe_tensor_scalar(const char *gws, const aclTensor *t, const char *what, double *v)
{
    int rc;
    const struct aclTensor *st = dv_acl_tensor_get(t, gws, what, &rc);
    if (!st)
        return rc;
    if (dv_acl_tensor_elems(st) != 1)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %llu elements; it must hold one value", gws, what,
                           (unsigned long long)dv_acl_tensor_elems(st));
    if (st->dtype != ACL_FLOAT && st->dtype != ACL_FLOAT16 && st->dtype != ACL_INT32)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s; dvsim reads a scalar tensor of ACL_FLOAT, "
                           "ACL_FLOAT16 or ACL_INT32", gws, what, dv_nn_dtype_name(st->dtype));
    if (!st->data)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has no device address", gws, what);
    const unsigned size = dv_acl_dtype_info(st->dtype)->size;
    uint8_t *h;
    uint64_t avail;
    char msg[160];
    snprintf(msg, sizeof msg, "%s: %s", gws, what);
    if (dv_acl_mem_find(st->data + (uint64_t)(st->offset * (int64_t)size), msg, &h, &avail) != ACL_SUCCESS ||
        avail < size)
        return avail < size ? dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s ends outside its allocation", gws, what)
                            : dv_acl_recode(ACLNN_ERR_PARAM_INVALID);
    if (st->dtype == ACL_FLOAT) {
        float f;
        memcpy(&f, h, 4);
        *v = f;
    } else if (st->dtype == ACL_INT32) {
        int32_t i;
        memcpy(&i, h, 4);
        *v = i;
    } else {
        aclFloat16 x;
        memcpy(&x, h, 2);
        *v = aclFloat16ToFloat(x);
    }
    return ACLNN_SUCCESS;
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
static int fe_member(int row, unsigned has, uint64_t i, const aclTensor *x, const aclTensor *x2, double scalar,
                     double alpha, const aclTensor *out, const aclTensor *x0, aclOpExecutor **e)
{
    const fe_row_t *r = &fe_rows[row];
    const char *xw = (has & FE_X2) ? "x1" : "x";
    char wx[32], wx2[32], wo[32], w0[32];
    snprintf(wx, sizeof wx, "%s[%llu]", xw, (unsigned long long)i);
    snprintf(wx2, sizeof wx2, "x2[%llu]", (unsigned long long)i);
    snprintf(wo, sizeof wo, "out[%llu]", (unsigned long long)i);
    snprintf(w0, sizeof w0, "%s[0]", xw);
    dv_nn_call_t call, *c = &call;
    uint64_t ws;
    int rc;
    dv_nn_call_init(c, r->api, r->gws, r->libop, r->optype);
    if ((i > 0 && (rc = dv_nn_check_same_dtype(c, x0, w0, x, wx))) || (rc = dv_nn_check_dtype(c, x, wx, "dtype")) ||
        (rc = dv_nn_check_plain(c, x, wx)) || (rc = dv_nn_check_plain(c, out, wo)) ||
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
    dv_nn_call_tensor(c, out, "out", (has & FE_X2) ? "z" : "y", false);
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
    if (has & FE_TENSOR) {
        if ((rc = fe_tensor_scalar(gws, ts, (has & FE_ALPHA) ? "alpha" : "scalar", (has & FE_ALPHA) ? &av : &sv)))
            return rc;
    } else {
        if ((has & FE_SCALAR) && (rc = fe_scalar(gws, s, "scalar")))
            return rc;
        if ((has & FE_ALPHA) && (rc = fe_scalar(gws, alpha, "alpha")))
            return rc;
        sv = (has & FE_SCALAR) ? s->value : 0;
        av = (has & FE_ALPHA) ? alpha->value : 1;
    }
    const struct aclScalarList *lsl = NULL;
    if ((has & FE_SCALARS) && !(lsl = dv_acl_scalar_list_get(sl, gws, "scalars", &rc)))
        return rc;
    if (!(lo = dv_acl_tensor_list_get(out, gws, "out", &rc)))
        return rc;
    const uint64_t n = lx->size;
    if (n == 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is an empty tensor list", gws, xw);
    if ((lx2 && (rc = fe_len(gws, n, xw, lx2->size, "x2"))) ||
        (lsl && (rc = fe_len(gws, n, xw, lsl->size, "scalars"))) ||
        (rc = fe_len(gws, n, xw, lo->size, "out")))
        return rc;
    aclOpExecutor *head = NULL, **tail = &head;
    uint64_t ws = 0;
    for (uint64_t i = 0; i < n; i++) {
        double v = (has & FE_COPY) ? 1.0 : (has & FE_SCALAR) ? r->factor * sv
                                        : (has & FE_SCALARS) ? r->factor * lsl->v[i]->value : 0.0;
        aclOpExecutor *e = NULL;
        if ((rc = fe_member(row, has, i, lx->v[i], lx2 ? lx2->v[i] : NULL, v, av, lo->v[i], lx->v[0], &e))) {
            dv_acl_executor_free(head);
            return rc;
        }
        ws += e->workspace;
        *tail = e;
        tail = &e->next;
    }
    *workspaceSize = ws;
    *executor = head;
    return ACLNN_SUCCESS;
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
#define DV_ACLNN(api, header, sig, libop, optype, factor, params, ws_q, stream_q, doc) FE_GWS_##sig(api, params)
#include "nnops.def"
