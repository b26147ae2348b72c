/* acl/nnloss.c - the first phases of the aclnn losses (acl/nnops.def, section "losses"): L1Loss,
 * MseLoss, SmoothL1Loss and SoftMarginLoss onto the library's l1_loss, mse_loss, smooth_l1_loss and
 * soft_margin_loss (ops/loss.c).  self and target of one dtype whose shapes broadcast (acl/nnbcast.c:
 * an expand kernel first for each that is not the broadcast shape); reduction 0 (none: out of the
 * broadcast shape), 1 (mean) or 2 (sum: out of one element, a 0-d tensor as CANN makes it, or any
 * shape of one element). */
#include "nn.h"

#include "dv/ops.h"

#include <stdio.h>
#include <string.h>

#include "aclnnop/aclnn_l1_loss.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_soft_margin_loss.h"

static aclnnStatus loss(const char *api, const aclTensor *self, const aclTensor *target, int64_t reduction,
                        const double *beta, aclTensor *out, const char *out_what, uint64_t *workspaceSize,
                        aclOpExecutor **executor)
{
    dv_nn_call_t c;
    struct aclTensor bs;
    int rc;
    dv_nn_call_init_row(&c, api);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, self, "self")) ||
        (rc = dv_nn_get_tensor(&c, target, "target")) || (rc = dv_nn_get_tensor(&c, out, out_what)))
        return rc;
    if ((rc = dv_nn_check_dtype(&c, self, "self", "dtype")) || (rc = dv_nn_check_plain(&c, self, "self")) ||
        (rc = dv_nn_check_plain(&c, target, "target")) || (rc = dv_nn_check_plain(&c, out, out_what)) ||
        (rc = dv_nn_bcast_shape(&c, self, "self", target, "target", &bs)) ||
        (rc = dv_nn_check_same_dtype(&c, self, "self", target, "target")) ||
        (rc = dv_nn_check_same_dtype(&c, self, "self", out, out_what)))
        return rc;
    if (reduction < 0 || reduction > 2)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: reduction is %lld; it is 0 (none), 1 (mean) or 2 (sum)",
                           c.gws, (long long)reduction);
    if (reduction == 0 &&
        (rc = dv_nn_check_same_shape(&c, &bs, "the broadcast of self and target", out, out_what, " (reduction 0)")))
        return rc;
    if (reduction != 0 && dv_acl_tensor_elems(out) != 1)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %llu elements; the %s of the losses is one", c.gws,
                           out_what, (unsigned long long)dv_acl_tensor_elems(out), reduction == 1 ? "mean" : "sum");
    if (beta && !(*beta > 0))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: beta is %g; dvsim's smooth L1 loss takes beta > 0", c.gws,
                           *beta);
    const uint64_t n = dv_acl_tensor_elems(&bs);
    dv_nn_bcast_t bc = {0};
    c.empty = n == 0;
    dv_nn_call_param(&c, "shape", "%llu", (unsigned long long)n);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    dv_nn_call_param(&c, "reduction", "%lld", (long long)reduction);
    if (beta)
        dv_nn_call_param(&c, "beta", "%.17g", *beta);
    if ((rc = dv_nn_bcast_input(&c, &bc, self, "self", "x", &bs, self->dtype)) ||
        (rc = dv_nn_bcast_input(&c, &bc, target, "target", "y", &bs, self->dtype)))
        return rc;
    dv_nn_call_tensor(&c, out, out_what, "z", false);
    return dv_nn_bcast_build(&c, &bc, workspaceSize, executor);
}

aclnnStatus aclnnL1LossGetWorkspaceSize(const aclTensor *self, const aclTensor *target, int64_t reduction,
                                        aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return loss("aclnnL1Loss", self, target, reduction, NULL, out, "out", workspaceSize, executor);
}

aclnnStatus aclnnMseLossGetWorkspaceSize(const aclTensor *self, const aclTensor *target, int64_t reduction,
                                         aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return loss("aclnnMseLoss", self, target, reduction, NULL, out, "out", workspaceSize, executor);
}

aclnnStatus aclnnSmoothL1LossGetWorkspaceSize(const aclTensor *self, const aclTensor *target, int64_t reduction,
                                              float beta, aclTensor *result, uint64_t *workspaceSize,
                                              aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    const double b = beta;
    return loss("aclnnSmoothL1Loss", self, target, reduction, &b, result, "result", workspaceSize, executor);
}

aclnnStatus aclnnSoftMarginLossGetWorkspaceSize(const aclTensor *self, const aclTensor *target, int64_t reduction,
                                                aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return loss("aclnnSoftMarginLoss", self, target, reduction, NULL, out, "out", workspaceSize, executor);
}
