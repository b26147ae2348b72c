/* acl/nnbcast.c - broadcasting for the binary aclnn operators (acl/nn.h "broadcasting"): the
 * broadcast shape of two tensors, and the expand kernels (ops/expand.c) a first phase chains before
 * its own kernel when an operand is not that shape; and aclnnExpand on the same kernel.
 *
 * CANN broadcasts inside the operator's one kernel; dvsim runs one expand kernel per broadcast
 * operand first (its output in the workspace, which GetWorkspaceSize reports), then the same-shape
 * kernel, so a broadcasting call costs an extra launch and the GM traffic of the expanded operand
 * (docs/ACL.md). */
#include "nn.h"

#include "dv/intmath.h"

#include <stdio.h>
#include <string.h>

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

/* On an error the expands so far are freed. */
int dv_nn_bcast_input(dv_nn_call_t *c, dv_nn_bcast_t *bc, const aclTensor *t, const char *what, const char *arg,
                      const struct aclTensor *to)
{
    if (!bc->tail)
        bc->tail = &bc->head;
    if (same_dims(t, to) || c->empty) {
        dv_nn_call_tensor(c, t, what, arg, true);
        return ACLNN_SUCCESS;
    }
    char from[96], dst[96];
    if (!lib_shape(t, from, sizeof from) || !lib_shape(to, dst, sizeof dst)) {
        dv_acl_executor_free(bc->head);
        bc->head = NULL;
        bc->tail = &bc->head;
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: broadcasting %s takes at most %d axes (not counting leading "
                           "1s)", c->gws, what, DV_SHAPE_MAX);
    }
    const dv_acl_dtype_info_t *d = dv_acl_dtype_info(t->dtype);
    dv_nn_call_t e;
    dv_nn_call_init(&e, c->api, c->gws, "expand", "Expand");
    dv_nn_call_param(&e, "shape", "%s", from);
    dv_nn_call_param(&e, "to", "%s", dst);
    dv_nn_call_param(&e, "dtype", "%s", dv_nn_param_dtype_name(t->dtype == ACL_BOOL ? DV_DT_U8 : d->dv));
    dv_nn_call_tensor(&e, t, what, "x", true);
    uint64_t ws = 0;
    aclOpExecutor *x = NULL;
    int rc = dv_nn_exec_build(&e, &ws, &x);
    if (rc != ACLNN_SUCCESS) {
        dv_acl_executor_free(bc->head);
        bc->head = NULL;
        bc->tail = &bc->head;
        return rc;
    }
    struct aclTensor *s = &bc->shape[bc->n++];
    *s = *to;
    s->dtype = t->dtype;
    s->format = ACL_FORMAT_ND;
    dv_nn_call_ws_tensor(c, s, what, arg, bc->ws);
    bc->ws += ws;
    *bc->tail = x;
    bc->tail = &x->next;
    return ACLNN_SUCCESS;
}

int dv_nn_bcast_build(dv_nn_call_t *c, dv_nn_bcast_t *bc, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
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
