/* acl/nnfill.c - the first phases of the aclnn operators that make a tensor without an input (acl/nnops.def,
 * section "made without an input"): InplaceZero, InplaceOne, InplaceFillScalar onto the library's fill, and
 * Arange, Range, Linspace onto arange (ops/fill.c).  out's element count must be the sequence's:
 * arange ceil((end - start) / step), range floor((end - start) / step) + 1 (end included), linspace steps. */
#include "nn.h"

#include "dv/ops.h"

#include <math.h>
#include <stdio.h>

#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_linspace.h"
#include "aclnnop/aclnn_ones.h"
#include "aclnnop/aclnn_range.h"
#include "aclnnop/aclnn_zero.h"

/* A live scalar's value, or the status. */
static int scalar_of(const char *gws, const aclScalar *s, const char *what, double *v)
{
    if (!s)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", gws, what);
    if (!dv_acl_handle_is(s, DV_ACL_MAGIC_SCALAR))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is not a live aclScalar", gws, what);
    *v = s->value;
    return ACL_SUCCESS;
}

/* The library call: fill (b_name NULL) or arange of out. */
static aclnnStatus fill_call(const char *api, const aclTensor *out, const char *what, const char *a_name, double a,
                             const char *b_name, double b, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, api);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, out, what)))
        return rc;
    if ((rc = dv_nn_check_dtype(&c, out, what, "dtype")) || (rc = dv_nn_check_plain(&c, out, what)))
        return rc;
    c.empty = dv_acl_tensor_elems(out) == 0;
    dv_nn_call_param(&c, "shape", "%llu", (unsigned long long)(c.empty ? 1 : dv_acl_tensor_elems(out)));
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(out->dtype)->dv));
    dv_nn_call_param(&c, a_name, "%.17g", a);
    if (b_name)
        dv_nn_call_param(&c, b_name, "%.17g", b);
    dv_nn_call_tensor(&c, out, what, "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return fill_call("aclnnInplaceZero", selfRef, "selfRef", "value", 0, NULL, 0, workspaceSize, executor);
}

aclnnStatus aclnnInplaceOneGetWorkspaceSize(const aclTensor *selfRef, uint64_t *workspaceSize,
                                            aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return fill_call("aclnnInplaceOne", selfRef, "selfRef", "value", 1, NULL, 0, workspaceSize, executor);
}

aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor *selfRef, const aclScalar *value, uint64_t *workspaceSize,
                                                   aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    double v;
    int rc = scalar_of("aclnnInplaceFillScalarGetWorkspaceSize", value, "value", &v);
    if (rc != ACL_SUCCESS)
        return rc;
    return fill_call("aclnnInplaceFillScalar", selfRef, "selfRef", "value", v, NULL, 0, workspaceSize, executor);
}

/* Arange and Range: start, end, step scalars; n the element count out must have. */
static aclnnStatus sequence(const char *api, const char *gws, const aclScalar *start, const aclScalar *end,
                            const aclScalar *step, bool inclusive, aclTensor *out, uint64_t *workspaceSize,
                            aclOpExecutor **executor)
{
    double s, e, d;
    int rc;
    if ((rc = scalar_of(gws, start, "start", &s)) || (rc = scalar_of(gws, end, "end", &e)) ||
        (rc = scalar_of(gws, step, "step", &d)))
        return rc;
    if (d == 0 || !isfinite(d) || !isfinite(s) || !isfinite(e) || (e - s) * d < 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: start %g, end %g and step %g are not a sequence (step not 0, "
                           "the same sign as end - start)", gws, s, e, d);
    const double q = (e - s) / d;
    const uint64_t n = inclusive ? (uint64_t)floor(q) + 1 : (uint64_t)ceil(q);
    if (out && dv_acl_handle_is(out, DV_ACL_MAGIC_TENSOR) && dv_acl_tensor_elems(out) != n)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: out has %llu elements; the sequence has %llu", gws,
                           (unsigned long long)dv_acl_tensor_elems(out), (unsigned long long)n);
    return fill_call(api, out, "out", "start", s, "step", d, workspaceSize, executor);
}

aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar *start, const aclScalar *end, const aclScalar *step,
                                        aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return sequence("aclnnArange", "aclnnArangeGetWorkspaceSize", start, end, step, false, out, workspaceSize,
                    executor);
}

aclnnStatus aclnnRangeGetWorkspaceSize(const aclScalar *start, const aclScalar *end, const aclScalar *step,
                                       aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return sequence("aclnnRange", "aclnnRangeGetWorkspaceSize", start, end, step, true, out, workspaceSize,
                    executor);
}

aclnnStatus aclnnLinspaceGetWorkspaceSize(const aclScalar *start, const aclScalar *end, int64_t steps, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    const char *gws = "aclnnLinspaceGetWorkspaceSize";
    double s, e;
    int rc;
    if ((rc = scalar_of(gws, start, "start", &s)) || (rc = scalar_of(gws, end, "end", &e)))
        return rc;
    if (steps < 1)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: steps is %lld; it must be at least 1", gws, (long long)steps);
    if (out && dv_acl_handle_is(out, DV_ACL_MAGIC_TENSOR) && dv_acl_tensor_elems(out) != (uint64_t)steps)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: out has %llu elements; steps is %lld", gws,
                           (unsigned long long)dv_acl_tensor_elems(out), (long long)steps);
    return fill_call("aclnnLinspace", out, "out", "start", s, "step", steps > 1 ? (e - s) / (double)(steps - 1) : 0,
                     workspaceSize, executor);
}
