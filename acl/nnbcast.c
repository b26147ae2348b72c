/* acl/nnbcast.c - broadcasting for the binary aclnn operators (acl/nn.h "broadcasting"): the
 * broadcast shape of two tensors, and the expand kernels (ops/expand.c) a first phase chains before
 * its own kernel when an operand is not that shape, and the casts (ops/cast.c) of mixed-dtype
 * operands to the dtype they promote to; and aclnnExpand and aclnnCast on the same kernels.
 *
 * CANN broadcasts inside the operator's one kernel; dvsim runs one expand kernel per broadcast
 * operand first (its output in the workspace, which GetWorkspaceSize reports), then the same-shape
 * kernel, so a broadcasting call costs an extra launch and the GM traffic of the expanded operand
 * (docs/ACL.md). */
#include "nn.h"

#include "dv/intmath.h"

#include <stdio.h>
#include <string.h>

#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_expand.h"

/* "[2,3,4]" (a 0-d tensor: "[]"). */
static void shape_str(const aclTensor *t, char *buf, size_t cap)
{
    size_t n = (size_t)snprintf(buf, cap, "[");
    for (int i = 0; i < t->ndims; i++)
        n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%lld", i ? "," : "", (long long)t->dims[i]);
    snprintf(buf + n, n < cap ? cap - n : 0, "]");
}

int dv_nn_bcast_shape(const dv_nn_call_t *c, const aclTensor *a, const char *wa, const aclTensor *b,
                      const char *wb, struct aclTensor *o)
{
    const int nd = a->ndims > b->ndims ? a->ndims : b->ndims;
    memset(o, 0, sizeof *o);
    o->ndims = nd;
    for (int i = 0; i < nd; i++) {
        const int ia = i - (nd - a->ndims), ib = i - (nd - b->ndims);
        const int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
        if (da != db && da != 1 && db != 1) {
            char sa[160], sb[160];
            shape_str(a, sa, sizeof sa);
            shape_str(b, sb, sizeof sb);
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s %s and %s %s do not broadcast: aligned at the last "
                               "axis, axis %d of the result has %lld and %lld (each must be equal or 1)", c->gws, wa, sa,
                               wb, sb, i, (long long)da, (long long)db);
        }
        o->dims[i] = da == 1 ? db : da;
    }
    return ACLNN_SUCCESS;
}

static bool same_dims(const aclTensor *a, const aclTensor *b)
{
    if (a->ndims != b->ndims)
        return false;
    for (int i = 0; i < a->ndims; i++)
        if (a->dims[i] != b->dims[i])
            return false;
    return true;
}

/* "AxBx.." as the library's --shape spells it (a 0-d tensor: "1"); false for more axes than it takes. */
static bool lib_shape(const aclTensor *t, char *buf, size_t cap)
{
    int nd = 0;
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < t->ndims; i++) {
        if (t->dims[i] == 1 && nd == 0 && t->ndims - i > DV_SHAPE_MAX)
            continue; /* leading 1s beyond the library's axes change nothing */
        n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%lld", nd ? "x" : "", (long long)t->dims[i]);
        nd++;
    }
    if (nd == 0)
        snprintf(buf, cap, "1");
    return nd <= DV_SHAPE_MAX;
}

/* Drop the chain so far (an error). */
static void chain_drop(dv_nn_bcast_t *bc)
{
    dv_acl_executor_free(bc->head);
    bc->head = NULL;
    bc->tail = &bc->head;
}

/* Run library call e (its parameters set) on x = the user tensor t, or (from_ws) the bytes at
 * `from` of the workspace whose shape and dtype `t` gives, writing its y into the workspace; *at
 * receives y's offset. */
static int chain_add(dv_nn_call_t *e, dv_nn_bcast_t *bc, const aclTensor *t, bool from_ws, uint64_t from,
                     const char *what, uint64_t *at)
{
    if (from_ws)
        dv_nn_call_ws_tensor(e, t, what, "x", from);
    else {
        dv_nn_call_tensor(e, t, what, "x", true);
        e->t[e->ntensors - 1].pos = bc->nin;
    }
    uint64_t ws = 0;
    aclOpExecutor *x = NULL;
    int rc = dv_nn_exec_build(e, &ws, &x);
    if (rc != ACLNN_SUCCESS) {
        chain_drop(bc);
        return rc;
    }
    *at = bc->ws;
    bc->ws += ws;
    *bc->tail = x;
    bc->tail = &x->next;
    return ACLNN_SUCCESS;
}

/* The library's --dtype spelling of an aclDataType (bool: uint8 0 / 1), NULL when it has none. */
static const char *lib_dtype(aclDataType t)
{
    const dv_acl_dtype_info_t *d = dv_acl_dtype_info(t);
    if (t == ACL_BOOL)
        return dv_nn_param_dtype_name(DV_DT_U8);
    return d && d->dv >= 0 ? dv_nn_param_dtype_name(d->dv) : NULL;
}

/* On an error the kernels so far are freed. */
int dv_nn_bcast_input(dv_nn_call_t *c, dv_nn_bcast_t *bc, const aclTensor *t, const char *what, const char *arg,
                      const struct aclTensor *to, aclDataType dt)
{
    if (!bc->tail)
        bc->tail = &bc->head;
    const bool cast = t->dtype != dt && !c->empty, expand = !same_dims(t, to) && !c->empty;
    const int slots = (int)(sizeof bc->shape / sizeof bc->shape[0]);
    if (bc->n + cast + expand > slots) { /* never: the operators pass at most two operands */
        chain_drop(bc);
        return dv_acl_fail(ACLNN_ERR_RUNTIME_ERROR, "%s: internal error: more than %d chained kernels", c->gws,
                           slots);
    }
    bc->nin++;
    if (!cast && !expand) {
        dv_nn_call_tensor(c, t, what, arg, true);
        c->t[c->ntensors - 1].pos = bc->nin;
        return ACLNN_SUCCESS;
    }
    const aclTensor *src = t;
    bool in_ws = false;
    uint64_t at = 0;
    int rc;
    if (cast) {
        const char *from = lib_dtype(t->dtype), *into = lib_dtype(dt);
        if (!from || !into) {
            chain_drop(bc);
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s, which would be cast to %s: dvsim casts "
                               "only the AI Core vector types", c->gws, what, dv_nn_dtype_name(t->dtype),
                               dv_nn_dtype_name(dt));
        }
        dv_nn_call_t e;
        dv_nn_call_init(&e, c->api, c->gws, "cast", "Cast");
        dv_nn_call_param(&e, "shape", "%llu", (unsigned long long)dv_acl_tensor_elems(t));
        dv_nn_call_param(&e, "dtype", "%s", from);
        dv_nn_call_param(&e, "to", "%s", into);
        struct aclTensor *s = &bc->shape[bc->n++];
        *s = *t;
        s->dtype = dt;
        if ((rc = chain_add(&e, bc, t, false, 0, what, &at)))
            return rc;
        src = s;
        in_ws = true;
    }
    if (expand) {
        char from[96], dst[96];
        if (!lib_shape(t, from, sizeof from) || !lib_shape(to, dst, sizeof dst)) {
            chain_drop(bc);
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: broadcasting %s takes at most %d axes (not counting "
                               "leading 1s)", c->gws, what, DV_SHAPE_MAX);
        }
        dv_nn_call_t e;
        dv_nn_call_init(&e, c->api, c->gws, "expand", "Expand");
        dv_nn_call_param(&e, "shape", "%s", from);
        dv_nn_call_param(&e, "to", "%s", dst);
        dv_nn_call_param(&e, "dtype", "%s", lib_dtype(dt));
        if ((rc = chain_add(&e, bc, src, in_ws, at, what, &at)))
            return rc;
        struct aclTensor *s = &bc->shape[bc->n++];
        *s = *to;
        s->dtype = dt;
        s->format = ACL_FORMAT_ND;
        src = s;
    }
    dv_nn_call_ws_tensor(c, src, what, arg, at);
    return ACLNN_SUCCESS;
}

int dv_nn_dtype_category(aclDataType t)
{
    switch (t) {
    case ACL_BOOL: return 0;
    case ACL_INT8: case ACL_UINT8: case ACL_INT16: case ACL_INT32: case ACL_INT64: return 1;
    case ACL_FLOAT16: case ACL_BF16: case ACL_FLOAT: case ACL_DOUBLE: return 2;
    default: return -1;
    }
}

static unsigned dsize(aclDataType t)
{
    const dv_acl_dtype_info_t *d = dv_acl_dtype_info(t);
    return d ? d->size : 0;
}

/* Two dtypes of one category. */
static aclDataType promote_same(aclDataType a, aclDataType b)
{
    if (a == b)
        return a;
    if ((a == ACL_FLOAT16 && b == ACL_BF16) || (a == ACL_BF16 && b == ACL_FLOAT16))
        return ACL_FLOAT;
    if ((a == ACL_INT8 && b == ACL_UINT8) || (a == ACL_UINT8 && b == ACL_INT8))
        return ACL_INT16;
    if (dsize(a) == dsize(b))
        return a == ACL_UINT8 ? b : a;
    return dsize(a) > dsize(b) ? a : b;
}

int dv_nn_promote(const dv_nn_call_t *c, const aclTensor *a, const char *wa, const aclTensor *b, const char *wb,
                  aclDataType *out)
{
    const int ca = dv_nn_dtype_category(a->dtype), cb = dv_nn_dtype_category(b->dtype);
    if (ca < 0 || cb < 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s and %s %s: dvsim promotes bool, integer and "
                           "floating types only", c->gws, wa, dv_nn_dtype_name(a->dtype), wb,
                           dv_nn_dtype_name(b->dtype));
    const bool za = a->ndims == 0, zb = b->ndims == 0;
    if (za != zb) { /* a 0-d tensor decides only when its category is higher (torch) */
        const aclTensor *z = za ? a : b, *d = za ? b : a;
        *out = dv_nn_dtype_category(z->dtype) > dv_nn_dtype_category(d->dtype) ? z->dtype : d->dtype;
    } else if (ca != cb)
        *out = ca > cb ? a->dtype : b->dtype;
    else
        *out = promote_same(a->dtype, b->dtype);
    return ACLNN_SUCCESS;
}

int dv_nn_bcast_build(dv_nn_call_t *c, dv_nn_bcast_t *bc, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    int nout = 0;
    for (int i = 0; i < c->ntensors; i++)
        if (!c->t[i].input)
            c->t[i].pos = ++nout;
    int rc = dv_nn_exec_build(c, &ws, &e);
    if (rc != ACLNN_SUCCESS) {
        dv_acl_executor_free(bc->head);
        return rc;
    }
    if (!bc->head) {
        *workspaceSize = ws;
        *executor = e;
        return ACLNN_SUCCESS;
    }
    *bc->tail = e;
    *workspaceSize = bc->ws + ws;
    *executor = bc->head;
    return ACLNN_SUCCESS;
}

/* aclnnExpand: out = self broadcast to size (torch's expand: size has at least self's axes, aligned
 * at the last; -1 keeps self's length, which new leading axes cannot).  out must have that shape and
 * self's dtype.  Any self / out views: the staging gathers and scatters them. */
aclnnStatus aclnnExpandGetWorkspaceSize(const aclTensor *self, const aclIntArray *size, aclTensor *out,
                                        uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, "aclnnExpand");
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, self, "self")) ||
        (rc = dv_nn_get_tensor(&c, out, "out")))
        return rc;
    if (!size)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: size is NULL", c.gws);
    if (!dv_acl_handle_is(size, DV_ACL_MAGIC_INT_ARRAY))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: size is not a live aclIntArray", c.gws);
    if ((rc = dv_nn_check_plain(&c, self, "self")) || (rc = dv_nn_check_plain(&c, out, "out")) ||
        (rc = dv_nn_check_same_dtype(&c, self, "self", out, "out")))
        return rc;
    const int n = (int)size->size, lead = n - self->ndims;
    char ss[160];
    shape_str(self, ss, sizeof ss);
    if (size->size > DV_ACL_MAX_DIMS || lead < 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: size has %llu entries; self %s has %d axes (size needs at "
                           "least as many, at most %d)", c.gws, (unsigned long long)size->size, ss, self->ndims,
                           DV_ACL_MAX_DIMS);
    struct aclTensor to;
    memset(&to, 0, sizeof to);
    to.ndims = n;
    for (int i = 0; i < n; i++) {
        const int64_t want = size->v[i], have = i >= lead ? self->dims[i - lead] : 1;
        if (want == -1 && i >= lead)
            to.dims[i] = have;
        else if (want >= 0 && (want == have || have == 1))
            to.dims[i] = want;
        else
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: self %s cannot expand to size[%d] = %lld (self's "
                               "aligned length is %lld: size must be it, -1, or anything when it is 1%s)", c.gws, ss,
                               i, (long long)want, (long long)have, i < lead ? ", and -1 is not a new axis" : "");
    }
    if ((rc = dv_nn_check_same_shape(&c, &to, "self expanded to size", out, "out", "")))
        return rc;
    if (self->dtype != ACL_BOOL && (rc = dv_nn_check_dtype(&c, self, "self", "dtype")))
        return rc;
    const uint64_t ne = dv_acl_tensor_elems(out);
    c.empty = ne == 0 || dv_acl_tensor_elems(self) == 0;
    char from[96], dst[96];
    if (!c.empty && (!lib_shape(self, from, sizeof from) || !lib_shape(&to, dst, sizeof dst)))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dvsim expands at most %d axes (not counting leading 1s)",
                           c.gws, DV_SHAPE_MAX);
    if (!c.empty) {
        const dv_acl_dtype_info_t *d = dv_acl_dtype_info(self->dtype);
        dv_nn_call_param(&c, "shape", "%s", from);
        dv_nn_call_param(&c, "to", "%s", dst);
        dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(self->dtype == ACL_BOOL ? DV_DT_U8 : d->dv));
    }
    dv_nn_call_tensor(&c, self, "self", "x", true);
    dv_nn_call_tensor(&c, out, "out", "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

int dv_nn_bcast_bias(dv_nn_call_t *c, const aclTensor *self, const char *ws, const aclTensor *other,
                     const aclTensor *out, const char *ow, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    if (strcmp(c->op, "add") != 0 || c->empty || self->dtype != other->dtype || out->dtype != self->dtype ||
        (self->dtype != ACL_FLOAT16 && self->dtype != ACL_FLOAT) || self->ndims < 1 || self->ndims > DV_SHAPE_MAX ||
        other->ndims > self->ndims)
        return DV_NN_NO_BIAS;
    for (int i = 0; i < c->argc; i++)
        if (strcmp(c->argv[i], "--alpha") == 0)
            return DV_NN_NO_BIAS;
    /* other: one axis of self's length (aligned at the last axis), every other axis 1 */
    int axis = -1;
    const int lead = self->ndims - other->ndims;
    for (int i = 0; i < other->ndims; i++) {
        if (other->dims[i] == 1)
            continue;
        if (axis >= 0 || other->dims[i] != self->dims[lead + i])
            return DV_NN_NO_BIAS;
        axis = lead + i;
    }
    if (axis < 0)
        return DV_NN_NO_BIAS;
    char shape[96];
    lib_shape(self, shape, sizeof shape); /* at most 6 axes: all of them, so axis stays */
    dv_nn_call_t b;
    dv_nn_call_init(&b, c->api, c->gws, "bias_add", c->op_type);
    dv_nn_call_param(&b, "shape", "%s", shape);
    dv_nn_call_param(&b, "axis", "%d", axis);
    dv_nn_call_param(&b, "dtype", "%s", lib_dtype(self->dtype));
    dv_nn_call_tensor(&b, self, ws, "x", true);
    b.t[b.ntensors - 1].pos = 1;
    dv_nn_call_tensor(&b, other, "other", "b", true);
    b.t[b.ntensors - 1].pos = 2;
    dv_nn_call_tensor(&b, out, ow, "z", false);
    b.t[b.ntensors - 1].pos = 1;
    if (dv_nn_exec_build(&b, workspaceSize, executor) != ACLNN_SUCCESS)
        return DV_NN_NO_BIAS; /* the library cannot (e.g. unaligned rows without DataCopyPad): expand instead */
    return ACLNN_SUCCESS;
}

/* The dtypes aclnnCast converts: the AI Core vector types the library's cast takes, and bool. */
static bool castable(aclDataType t)
{
    switch (t) {
    case ACL_FLOAT16: case ACL_BF16: case ACL_FLOAT: case ACL_INT8: case ACL_UINT8: case ACL_INT32: case ACL_BOOL:
        return true;
    default:
        return false;
    }
}

/* aclnnCast: out = self converted to dtype (out's dtype).  The library's cast (floats to integers
 * truncated, narrower floats rounded to nearest even); to bool: self != 0 (the library's nes, after a
 * cast to fp16 / fp32 for the types nes does not take); from bool: its 0 / 1 as uint8; the same
 * dtype: a copy (expand to its own shape).  Integer narrowing (int32 -> int8, int8 <-> uint8) wraps
 * in torch and is not supported (the library's message). */
aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor *self, const aclDataType dtype, aclTensor *out,
                                      uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, "aclnnCast");
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, self, "self")) ||
        (rc = dv_nn_get_tensor(&c, out, "out")))
        return rc;
    if ((rc = dv_nn_check_plain(&c, self, "self")) || (rc = dv_nn_check_plain(&c, out, "out")) ||
        (rc = dv_nn_check_same_shape(&c, self, "self", out, "out", "")))
        return rc;
    if (out->dtype != dtype)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: out has dtype %s but dtype is %s", c.gws,
                           dv_nn_dtype_name(out->dtype), dv_nn_dtype_name(dtype));
    if (!castable(self->dtype) || !castable(dtype))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s -> %s: dvsim casts only between the AI Core vector types "
                           "ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_INT8, ACL_UINT8, ACL_INT32 and ACL_BOOL", c.gws,
                           dv_nn_dtype_name(self->dtype), dv_nn_dtype_name(dtype));
    const uint64_t n = dv_acl_tensor_elems(self);
    dv_nn_bcast_t bc = {0};
    aclDataType mid = self->dtype; /* what the last kernel reads */
    c.empty = n == 0;
    if (self->dtype == dtype || (self->dtype == ACL_BOOL && dtype == ACL_UINT8)) {
        c.op = "expand";
        dv_nn_call_param(&c, "shape", "%llu", (unsigned long long)n);
        dv_nn_call_param(&c, "to", "%llu", (unsigned long long)n);
        dv_nn_call_param(&c, "dtype", "%s", lib_dtype(dtype));
    } else if (dtype == ACL_BOOL) {
        if (mid != ACL_FLOAT16 && mid != ACL_FLOAT && mid != ACL_INT32)
            mid = mid == ACL_BF16 ? ACL_FLOAT : ACL_FLOAT16;
        c.op = "nes";
        dv_nn_call_param(&c, "scalar", "0");
        dv_nn_call_param(&c, "shape", "%llu", (unsigned long long)n);
        dv_nn_call_param(&c, "dtype", "%s", lib_dtype(mid));
        dv_nn_call_param(&c, "out-dtype", "%s", lib_dtype(ACL_BOOL));
    } else {
        if (mid == ACL_BOOL && dtype == ACL_INT8)
            mid = ACL_FLOAT16; /* 0 / 1: uint8 -> int8 has no vconv, fp16 -> int8 does */
        dv_nn_call_param(&c, "shape", "%llu", (unsigned long long)n);
        dv_nn_call_param(&c, "dtype", "%s", lib_dtype(mid));
        dv_nn_call_param(&c, "to", "%s", lib_dtype(dtype));
    }
    if ((rc = dv_nn_bcast_input(&c, &bc, self, "self", "x", self, mid)))
        return rc;
    dv_nn_call_tensor(&c, out, "out", "y", false);
    return dv_nn_bcast_build(&c, &bc, workspaceSize, executor);
}
