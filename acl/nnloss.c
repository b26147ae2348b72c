/* acl/nnloss.c - the first phases of the aclnn losses (acl/nnops.def, section "losses"): L1Loss,
 * MseLoss, SmoothL1Loss and SoftMarginLoss onto the library's l1_loss, mse_loss, smooth_l1_loss and
 * soft_margin_loss (ops/loss.c).  self and target of one dtype whose shapes broadcast (acl/nnbcast.c:
 * an expand kernel first for each that is not the broadcast shape); reduction 0 (none: out of the
 * broadcast shape), 1 (mean) or 2 (sum: out of one element, a 0-d tensor as CANN makes it, or any
 * shape of one element).  (s20-norm2) The backward forms
 * L1LossBackward, MseLossBackward, SmoothL1LossBackward and SoftMarginLossBackward onto the library's
 * *_loss_backward: gradOutput, self, target and the gradient of one dtype; self and target broadcast
 * as the forward's, gradOutput (a one-element one of a mean or sum, as torch passes it) and the
 * weights broadcast to that shape (expand kernels into the workspace), the gradient has it.
 * BinaryCrossEntropy and its Backward onto binary_cross_entropy(_backward), the weight optional (NULL:
 * 1, else broadcast to the loss's shape);
 * BinaryCrossEntropyWithLogits and its Backward onto bce_with_logits(_backward), the weight and the
 * positive weight optional (--weight on, --pos-weight on).  KlDivBackward and KlDivTargetBackward
 * onto kl_div_backward and kl_div_target_backward: reduction 0 none, 1 mean, 2 sum, 3 batchmean
 * (self's first dimension); logTarget as --log-target. */
#include "nn.h"

#include "dv/ops.h"

#include <stdio.h>
#include <string.h>

#include "aclnnop/aclnn_binary_cross_entropy.h"
#include "aclnnop/aclnn_binary_cross_entropy_backward.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "aclnnop/aclnn_kl_div_backward.h"
#include "aclnnop/aclnn_kl_div_target_backward.h"
#include "aclnnop/aclnn_l1_loss.h"
#include "aclnnop/aclnn_l1_loss_backward.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "aclnnop/aclnn_soft_margin_loss.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"

static aclnnStatus loss_w(const char *api, const aclTensor *self, const aclTensor *target, const aclTensor *weight,
                          const aclTensor *pos, int64_t reduction, const double *beta, aclTensor *out,
                          const char *out_what, uint64_t *workspaceSize, aclOpExecutor **executor);

static aclnnStatus loss(const char *api, const aclTensor *self, const aclTensor *target, int64_t reduction,
                        const double *beta, aclTensor *out, const char *out_what, uint64_t *workspaceSize,
                        aclOpExecutor **executor)
{
    return loss_w(api, self, target, NULL, NULL, reduction, beta, out, out_what, workspaceSize, executor);
}

/* The optional weight tensors of the binary cross entropies: self's dtype (their shapes broadcast to
 * the loss's: check_bcast_to). */
static int check_weight(const dv_nn_call_t *c, const aclTensor *self, const aclTensor *w, const char *what)
{
    int rc;
    if (w && ((rc = dv_nn_get_tensor(c, w, what)) || (rc = dv_nn_check_plain(c, w, what)) ||
              (rc = dv_nn_check_same_dtype(c, self, "self", w, what))))
        return rc;
    return 0;
}

/* t (optional) broadcasts to bs, the loss's shape, without widening it. */
static int check_bcast_to(const dv_nn_call_t *c, const struct aclTensor *bs, const aclTensor *t, const char *what)
{
    struct aclTensor ts;
    char how[64];
    snprintf(how, sizeof how, "the broadcast with %s", what);
    int rc;
    if (t && ((rc = dv_nn_bcast_shape(c, bs, "the broadcast of self and target", t, what, &ts)) ||
              (rc = dv_nn_check_same_shape(c, bs, "the broadcast of self and target", &ts, how, ""))))
        return rc;
    return 0;
}

/* As loss, with an optional weight and positive weight of self's shape and dtype (the binary cross
 * entropies: --weight on, --pos-weight on). */
static aclnnStatus loss_w(const char *api, const aclTensor *self, const aclTensor *target, const aclTensor *weight,
                          const aclTensor *pos, int64_t reduction, const double *beta, aclTensor *out,
                          const char *out_what, uint64_t *workspaceSize, aclOpExecutor **executor)
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
    if ((rc = check_weight(&c, self, weight, "weight")) ||
        (rc = check_weight(&c, self, pos, "posWeight")))
        return rc;
    if ((rc = check_bcast_to(&c, &bs, weight, "weight")) || (rc = check_bcast_to(&c, &bs, pos, "posWeight")))
        return rc;
    const uint64_t n = dv_acl_tensor_elems(&bs);
    dv_nn_bcast_t bc = {0};
    c.empty = n == 0;
    dv_nn_call_param(&c, "shape", "%llu", (unsigned long long)n);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    dv_nn_call_param(&c, "reduction", "%lld", (long long)reduction);
    if (beta)
        dv_nn_call_param(&c, "beta", "%.17g", *beta);
    if (weight)
        dv_nn_call_param(&c, "weight", "on");
    if (pos)
        dv_nn_call_param(&c, "pos-weight", "on");
    if ((rc = dv_nn_bcast_input(&c, &bc, self, "self", "x", &bs, self->dtype)) ||
        (rc = dv_nn_bcast_input(&c, &bc, target, "target", "y", &bs, self->dtype)) ||
        (weight && (rc = dv_nn_bcast_input(&c, &bc, weight, "weight", "w", &bs, self->dtype))) ||
        (pos && (rc = dv_nn_bcast_input(&c, &bc, pos, "posWeight", "p", &bs, self->dtype))))
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

/* ---------------------------------------------------------------- (s20-norm2) the backward forms */

static aclnnStatus loss_bw(const char *api, const aclTensor *grad, const char *grad_what, const aclTensor *self,
                           const aclTensor *target, const aclTensor *weight, const aclTensor *pos, int64_t reduction,
                           const double *beta, aclTensor *out, const char *out_what, uint64_t *workspaceSize,
                           aclOpExecutor **executor)
{
    dv_nn_call_t c;
    struct aclTensor bs;
    int rc;
    dv_nn_call_init_row(&c, api);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, grad, grad_what)) ||
        (rc = dv_nn_get_tensor(&c, self, "self")) || (rc = dv_nn_get_tensor(&c, target, "target")) ||
        (rc = dv_nn_get_tensor(&c, out, out_what)))
        return rc;
    if ((rc = dv_nn_check_dtype(&c, self, "self", "dtype")) || (rc = dv_nn_check_plain(&c, grad, grad_what)) ||
        (rc = dv_nn_check_plain(&c, self, "self")) || (rc = dv_nn_check_plain(&c, target, "target")) ||
        (rc = dv_nn_check_plain(&c, out, out_what)) ||
        (rc = dv_nn_bcast_shape(&c, self, "self", target, "target", &bs)) ||
        (rc = check_bcast_to(&c, &bs, grad, grad_what)) ||
        (rc = dv_nn_check_same_shape(&c, &bs, "the broadcast of self and target", out, out_what, "")) ||
        (rc = dv_nn_check_same_dtype(&c, self, "self", target, "target")) ||
        (rc = dv_nn_check_same_dtype(&c, self, "self", grad, grad_what)) ||
        (rc = dv_nn_check_same_dtype(&c, self, "self", out, out_what)))
        return rc;
    if (reduction < 0 || reduction > 2)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: reduction is %lld; it is 0 (none), 1 (mean) or 2 (sum)",
                           c.gws, (long long)reduction);
    if (beta && !(*beta > 0))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: beta is %g; dvsim's smooth L1 loss takes beta > 0", c.gws,
                           *beta);
    if ((rc = check_weight(&c, self, weight, "weight")) ||
        (rc = check_weight(&c, self, pos, "posWeight")) || (rc = check_bcast_to(&c, &bs, weight, "weight")) ||
        (rc = check_bcast_to(&c, &bs, pos, "posWeight")))
        return rc;
    const uint64_t n = dv_acl_tensor_elems(&bs);
    dv_nn_bcast_t bc = {0};
    c.empty = n == 0;
    dv_nn_call_param(&c, "shape", "%llu", (unsigned long long)n);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    dv_nn_call_param(&c, "reduction", "%lld", (long long)reduction);
    if (beta)
        dv_nn_call_param(&c, "beta", "%.17g", *beta);
    if (weight)
        dv_nn_call_param(&c, "weight", "on");
    if (pos)
        dv_nn_call_param(&c, "pos-weight", "on");
    if ((rc = dv_nn_bcast_input(&c, &bc, grad, grad_what, "g", &bs, self->dtype)) ||
        (rc = dv_nn_bcast_input(&c, &bc, self, "self", "x", &bs, self->dtype)) ||
        (rc = dv_nn_bcast_input(&c, &bc, target, "target", "y", &bs, self->dtype)) ||
        (weight && (rc = dv_nn_bcast_input(&c, &bc, weight, "weight", "w", &bs, self->dtype))) ||
        (pos && (rc = dv_nn_bcast_input(&c, &bc, pos, "posWeight", "p", &bs, self->dtype))))
        return rc;
    dv_nn_call_tensor(&c, out, out_what, "z", false);
    return dv_nn_bcast_build(&c, &bc, workspaceSize, executor);
}

aclnnStatus aclnnL1LossBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                                const aclTensor *target, int64_t reduction, aclTensor *gradInput,
                                                uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return loss_bw("aclnnL1LossBackward", gradOutput, "gradOutput", self, target, NULL, NULL, reduction, NULL, gradInput,
                   "gradInput", workspaceSize, executor);
}

aclnnStatus aclnnMseLossBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                                 const aclTensor *target, int64_t reduction, aclTensor *out,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return loss_bw("aclnnMseLossBackward", gradOutput, "gradOutput", self, target, NULL, NULL, reduction, NULL, out, "out",
                   workspaceSize, executor);
}

aclnnStatus aclnnSmoothL1LossBackwardGetWorkspaceSize(const aclTensor *gradOut, const aclTensor *self,
                                                      const aclTensor *target, int64_t reduction, float beta,
                                                      aclTensor *gradInput, uint64_t *workspaceSize,
                                                      aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    const double b = beta;
    return loss_bw("aclnnSmoothL1LossBackward", gradOut, "gradOut", self, target, NULL, NULL, reduction, &b, gradInput, "gradInput",
                   workspaceSize, executor);
}

aclnnStatus aclnnSoftMarginLossBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                                        const aclTensor *target, int64_t reduction, aclTensor *out,
                                                        uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return loss_bw("aclnnSoftMarginLossBackward", gradOutput, "gradOutput", self, target, NULL, NULL, reduction, NULL, out, "out",
                   workspaceSize, executor);
}

aclnnStatus aclnnBinaryCrossEntropyGetWorkspaceSize(const aclTensor *self, const aclTensor *target,
                                                   const aclTensor *weight, int64_t reduction, aclTensor *out,
                                                   uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return loss_w("aclnnBinaryCrossEntropy", self, target, weight, NULL, reduction, NULL, out, "out", workspaceSize,
                  executor);
}

aclnnStatus aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                                           const aclTensor *target, const aclTensor *weightOptional,
                                                           int64_t reduction, aclTensor *out, uint64_t *workspaceSize,
                                                           aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return loss_bw("aclnnBinaryCrossEntropyBackward", gradOutput, "gradOutput", self, target, weightOptional, NULL,
                   reduction, NULL, out, "out", workspaceSize, executor);
}

aclnnStatus aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(const aclTensor *self, const aclTensor *target,
                                                             const aclTensor *weightOptional,
                                                             const aclTensor *posWeightOptional, int64_t reduction,
                                                             aclTensor *out, uint64_t *workspaceSize,
                                                             aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return loss_w("aclnnBinaryCrossEntropyWithLogits", self, target, weightOptional, posWeightOptional, reduction, NULL,
                  out, "out", workspaceSize, executor);
}

aclnnStatus aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(const aclTensor *gradOutput,
                                                                     const aclTensor *self, const aclTensor *target,
                                                                     const aclTensor *weightOptional,
                                                                     const aclTensor *posWeightOptional,
                                                                     int64_t reduction, aclTensor *out,
                                                                     uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return loss_bw("aclnnBinaryCrossEntropyWithLogitsBackward", gradOutput, "gradOutput", self, target, weightOptional,
                   posWeightOptional, reduction, NULL, out, "out", workspaceSize, executor);
}

static aclnnStatus kl_bw(const char *api, const aclTensor *grad, const aclTensor *self, const aclTensor *target,
                         int64_t reduction, bool logTarget, aclTensor *out, const char *out_what,
                         uint64_t *workspaceSize, aclOpExecutor **executor)
{
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, api);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, grad, "gradOutput")) ||
        (rc = dv_nn_get_tensor(&c, self, "self")) || (rc = dv_nn_get_tensor(&c, target, "target")) ||
        (rc = dv_nn_get_tensor(&c, out, out_what)))
        return rc;
    if ((rc = dv_nn_check_dtype(&c, self, "self", "dtype")) || (rc = dv_nn_check_plain(&c, grad, "gradOutput")) ||
        (rc = dv_nn_check_plain(&c, self, "self")) || (rc = dv_nn_check_plain(&c, target, "target")) ||
        (rc = dv_nn_check_plain(&c, out, out_what)) ||
        (rc = dv_nn_check_same_shape(&c, self, "self", target, "target", " (dvsim's losses do not broadcast)")) ||
        (rc = dv_nn_check_same_shape(&c, self, "self", grad, "gradOutput", " (dvsim does not broadcast it)")) ||
        (rc = dv_nn_check_same_shape(&c, self, "self", out, out_what, "")) ||
        (rc = dv_nn_check_same_dtype(&c, self, "self", target, "target")) ||
        (rc = dv_nn_check_same_dtype(&c, self, "self", grad, "gradOutput")) ||
        (rc = dv_nn_check_same_dtype(&c, self, "self", out, out_what)))
        return rc;
    if (reduction < 0 || reduction > 3)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: reduction is %lld; it is 0 (none), 1 (mean), 2 (sum) or 3 "
                           "(batchmean)", c.gws, (long long)reduction);
    const uint64_t n = dv_acl_tensor_elems(self), batch = self->ndims ? (uint64_t)self->dims[0] : 1;
    c.empty = n == 0;
    dv_nn_call_param(&c, "shape", "%llu", (unsigned long long)n);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    dv_nn_call_param(&c, "reduction", "%lld", (long long)reduction);
    if (reduction == 3 && batch > 0)
        dv_nn_call_param(&c, "batch", "%llu", (unsigned long long)batch);
    if (logTarget)
        dv_nn_call_param(&c, "log-target", "on");
    dv_nn_call_tensor(&c, grad, "gradOutput", "g", true);
    dv_nn_call_tensor(&c, self, "self", "x", true);
    dv_nn_call_tensor(&c, target, "target", "y", true);
    dv_nn_call_tensor(&c, out, out_what, "z", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

aclnnStatus aclnnKlDivBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                               const aclTensor *target, int64_t reduction, bool logTarget,
                                               aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return kl_bw("aclnnKlDivBackward", gradOutput, self, target, reduction, logTarget, out, "out", workspaceSize,
                 executor);
}

aclnnStatus aclnnKlDivTargetBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                                     const aclTensor *target, int64_t reduction, bool logTarget,
                                                     aclTensor *gradTarget, uint64_t *workspaceSize,
                                                     aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return kl_bw("aclnnKlDivTargetBackward", gradOutput, self, target, reduction, logTarget, gradTarget, "gradTarget",
                 workspaceSize, executor);
}
