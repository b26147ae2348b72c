/* acl/nnnorm2.c - (s20-norm2) the first phases of aclnnSoftmaxBackward and aclnnLogSoftmaxBackward
 * (acl/nnops.def) onto the library's softmax_backward (ops/colnorm.c; --log for the log softmax):
 * gradOutput, output (the forward's result) and out of one shape and dtype, dim in [-ndims, ndims);
 * and aclnnBatchNormElemt onto batchnorm_elemt: input N x C x ... (2 to 8 dims), mean and invstd 1-D
 * of C in ACL_FLOAT, weight and bias optional (NULL: 1 and 0) and otherwise the same, output of
 * input's shape and dtype; eps is not used (invstd already holds it, as in PyTorch); and
 * aclnnSyncBatchNormGatherStats onto bn_gather_stats: totalSum and totalSquareSum D x C, sampleCount
 * 1-D of D (--count-dtype), mean and variance (updated in place), batchMean and batchInvstd 1-D of C,
 * all but the counts in totalSum's dtype; aclnnBatchNormGatherStatsWithCounts onto bn_gather_stats
 * --from-stats: each device's mean and invstd D x C, counts 1-D of D, runningMean and runningVar
 * (updated in place), meanAll and invstdAll 1-D of C (C is input's dim 1). */
#include "nn.h"

#include "dv/ops.h"

#include <stdio.h>
#include <string.h>

#include "aclnnop/aclnn_batch_norm_elemt.h"
#include "aclnnop/aclnn_batch_norm_gather_stats_with_counts.h"
#include "aclnnop/aclnn_logsoftmax_backward.h"
#include "aclnnop/aclnn_softmax_backward.h"
#include "aclnnop/aclnn_sync_batch_norm_gather_stats.h"

static aclnnStatus softmax_bw(const char *api, const aclTensor *grad, const aclTensor *output, int64_t dim, bool log,
                              aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, api);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, grad, "gradOutput")) ||
        (rc = dv_nn_get_tensor(&c, output, "output")) || (rc = dv_nn_get_tensor(&c, out, "out")))
        return rc;
    if ((rc = dv_nn_check_dtype(&c, output, "output", "dtype")) || (rc = dv_nn_check_plain(&c, grad, "gradOutput")) ||
        (rc = dv_nn_check_plain(&c, output, "output")) || (rc = dv_nn_check_plain(&c, out, "out")) ||
        (rc = dv_nn_check_same_shape(&c, output, "output", grad, "gradOutput", "")) ||
        (rc = dv_nn_check_same_shape(&c, output, "output", out, "out", "")) ||
        (rc = dv_nn_check_same_dtype(&c, output, "output", grad, "gradOutput")) ||
        (rc = dv_nn_check_same_dtype(&c, output, "output", out, "out")))
        return rc;
    const int64_t nd = output->ndims ? output->ndims : 1;
    if (dim < -nd || dim >= nd)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dim is %lld; output has %lld dimensions (dim in [%lld, %lld])",
                           c.gws, (long long)dim, (long long)nd, (long long)-nd, (long long)(nd - 1));
    if (output->ndims > DV_SHAPE_MAX)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: output has %d dimensions; dvsim's softmax_backward takes at "
                           "most %d", c.gws, output->ndims, DV_SHAPE_MAX);
    c.empty = dv_acl_tensor_elems(output) == 0;
    char shape[DV_SHAPE_MAX * 21] = "1";
    size_t used = 0;
    for (int i = 0; i < output->ndims; i++)
        used += (size_t)snprintf(shape + used, sizeof shape - used, "%s%lld", i ? "x" : "", (long long)output->dims[i]);
    dv_nn_call_param(&c, "shape", "%s", shape);
    dv_nn_call_param(&c, "dim", "%lld", (long long)(dim < 0 ? dim + nd : dim));
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(output->dtype)->dv));
    if (log)
        dv_nn_call_param(&c, "log", "on");
    dv_nn_call_tensor(&c, grad, "gradOutput", "g", true);
    dv_nn_call_tensor(&c, output, "output", "y", true);
    dv_nn_call_tensor(&c, out, "out", "z", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

aclnnStatus aclnnSoftmaxBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *output, int64_t dim,
                                                 aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return softmax_bw("aclnnSoftmaxBackward", gradOutput, output, dim, false, out, workspaceSize, executor);
}

aclnnStatus aclnnLogSoftmaxBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *output, int64_t dim,
                                                    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return softmax_bw("aclnnLogSoftmaxBackward", gradOutput, output, dim, true, out, workspaceSize, executor);
}

/* A per-channel vector: 1-D of C elements, ACL_FLOAT. */
static int check_channel_vec(const dv_nn_call_t *c, const aclTensor *v, const char *what, int64_t C)
{
    int rc;
    if ((rc = dv_nn_get_tensor(c, v, what)) || (rc = dv_nn_check_plain(c, v, what)))
        return rc;
    if (v->ndims != 1 || v->dims[0] != C)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s must be 1-D of the %lld channels", c->gws, what,
                           (long long)C);
    if (v->dtype != ACL_FLOAT)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s; dvsim's batchnorm_elemt takes ACL_FLOAT",
                           c->gws, what, dv_nn_dtype_name(v->dtype));
    return 0;
}

aclnnStatus aclnnBatchNormElemtGetWorkspaceSize(const aclTensor *input, const aclTensor *weight, const aclTensor *bias,
                                                aclTensor *mean, aclTensor *invstd, double eps, aclTensor *output,
                                                uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    (void)eps;
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, "aclnnBatchNormElemt");
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, input, "input")) ||
        (rc = dv_nn_get_tensor(&c, output, "output")))
        return rc;
    if ((rc = dv_nn_check_dtype(&c, input, "input", "dtype")) || (rc = dv_nn_check_plain(&c, input, "input")) ||
        (rc = dv_nn_check_plain(&c, output, "output")) ||
        (rc = dv_nn_check_same_shape(&c, input, "input", output, "output", "")) ||
        (rc = dv_nn_check_same_dtype(&c, input, "input", output, "output")))
        return rc;
    if (input->ndims < 2 || input->ndims > 8)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: input has %d dimensions; it is N x C x ... (2 to 8)", c.gws,
                           input->ndims);
    const int64_t C = input->dims[1];
    if ((rc = check_channel_vec(&c, mean, "mean", C)) || (rc = check_channel_vec(&c, invstd, "invstd", C)) ||
        (weight && (rc = check_channel_vec(&c, weight, "weight", C))) ||
        (bias && (rc = check_channel_vec(&c, bias, "bias", C))))
        return rc;
    c.empty = dv_acl_tensor_elems(input) == 0;
    char shape[DV_SHAPE_MAX * 21] = "";
    size_t used = 0;
    /* N x C x the rest as one axis: the library's shape has at most DV_SHAPE_MAX dimensions */
    int64_t rest = 1;
    for (int i = 2; i < input->ndims; i++)
        rest *= input->dims[i];
    used += (size_t)snprintf(shape + used, sizeof shape - used, "%lldx%lldx%lld", (long long)input->dims[0],
                             (long long)C, (long long)rest);
    dv_nn_call_param(&c, "shape", "%s", shape);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(input->dtype)->dv));
    dv_nn_call_param(&c, "weight", "%s", weight ? "on" : "off");
    dv_nn_call_param(&c, "bias", "%s", bias ? "on" : "off");
    dv_nn_call_tensor(&c, input, "input", "x", true);
    dv_nn_call_tensor(&c, mean, "mean", "mean", true);
    dv_nn_call_tensor(&c, invstd, "invstd", "invstd", true);
    if (weight)
        dv_nn_call_tensor(&c, weight, "weight", "weight", true);
    if (bias)
        dv_nn_call_tensor(&c, bias, "bias", "bias", true);
    dv_nn_call_tensor(&c, output, "output", "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

/* The gather of the devices' statistics (SyncBatchNormGatherStats: their sums; WithCounts: their
 * means and invstds): a and b D x C, counts 1-D of D, four vectors of C (two running, updated in
 * place; two outputs), C given (WithCounts: input's dim 1) or a's dim 1 (-1). */
static aclnnStatus gather_stats(const char *api, const aclTensor *a, const char *wa, const aclTensor *b,
                                const char *wb, const aclTensor *cnt, const char *wc, aclTensor *const vec[4],
                                const char *const vname[4], int64_t C, double momentum, double eps, bool from_stats,
                                uint64_t *workspaceSize, aclOpExecutor **executor)
{
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, api);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, a, wa)) ||
        (rc = dv_nn_get_tensor(&c, b, wb)) || (rc = dv_nn_get_tensor(&c, cnt, wc)))
        return rc;
    if ((rc = dv_nn_check_dtype(&c, a, wa, "dtype")) || (rc = dv_nn_check_dtype(&c, cnt, wc, "count-dtype")) ||
        (rc = dv_nn_check_plain(&c, a, wa)) || (rc = dv_nn_check_same_shape(&c, a, wa, b, wb, "")) ||
        (rc = dv_nn_check_same_dtype(&c, a, wa, b, wb)))
        return rc;
    if (a->ndims != 2)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %d dimensions; it is devices x channels", c.gws, wa,
                           a->ndims);
    const int64_t D = a->dims[0];
    if (C < 0)
        C = a->dims[1];
    if (a->dims[1] != C)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %lld channels, input %lld", c.gws, wa,
                           (long long)a->dims[1], (long long)C);
    if (cnt->ndims != 1 || cnt->dims[0] != D)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s must be 1-D of the %lld devices", c.gws, wc, (long long)D);
    for (int i = 0; i < 4; i++) {
        if ((rc = dv_nn_get_tensor(&c, vec[i], vname[i])) || (rc = dv_nn_check_plain(&c, vec[i], vname[i])) ||
            (rc = dv_nn_check_same_dtype(&c, a, wa, vec[i], vname[i])))
            return rc;
        if (vec[i]->ndims != 1 || vec[i]->dims[0] != C)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s must be 1-D of the %lld channels", c.gws, vname[i],
                               (long long)C);
    }
    if (!(momentum >= 0 && momentum <= 1) || !(eps >= 0 && eps <= 1))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: momentum %g and eps %g must be in [0, 1]", c.gws, momentum,
                           eps);
    c.empty = D == 0 || C == 0;
    dv_nn_call_param(&c, "devices", "%lld", (long long)D);
    dv_nn_call_param(&c, "channels", "%lld", (long long)C);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(a->dtype)->dv));
    dv_nn_call_param(&c, "count-dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(cnt->dtype)->dv));
    dv_nn_call_param(&c, "momentum", "%.17g", momentum);
    dv_nn_call_param(&c, "eps", "%.17g", eps);
    if (from_stats)
        dv_nn_call_param(&c, "from-stats", "on");
    dv_nn_call_tensor(&c, a, wa, from_stats ? "mean" : "total_sum", true);
    dv_nn_call_tensor(&c, b, wb, from_stats ? "invstd" : "total_square_sum", true);
    dv_nn_call_tensor(&c, cnt, wc, "count", true);
    dv_nn_call_tensor(&c, vec[0], vname[0], "running_mean", true);
    dv_nn_call_tensor(&c, vec[1], vname[1], "running_var", true);
    dv_nn_call_tensor(&c, vec[2], vname[2], "batch_mean", false);
    dv_nn_call_tensor(&c, vec[3], vname[3], "batch_invstd", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

aclnnStatus aclnnBatchNormGatherStatsWithCountsGetWorkspaceSize(const aclTensor *input, const aclTensor *mean,
                                                               const aclTensor *invstd, aclTensor *runningMean,
                                                               aclTensor *runningVar, double momentum, double eps,
                                                               const aclTensor *counts, aclTensor *meanAll,
                                                               aclTensor *invstdAll, uint64_t *workspaceSize,
                                                               aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (!input || !runningMean || !runningVar)
        return dv_acl_fail(!input ? ACLNN_ERR_PARAM_NULLPTR : ACLNN_ERR_PARAM_INVALID,
                           "aclnnBatchNormGatherStatsWithCountsGetWorkspaceSize: %s is NULL%s",
                           !input ? "input" : !runningMean ? "runningMean" : "runningVar",
                           !input ? "" : ": dvsim updates the running statistics and does not run without them");
    if (!dv_acl_handle_is(input, DV_ACL_MAGIC_TENSOR) || input->ndims < 2)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "aclnnBatchNormGatherStatsWithCountsGetWorkspaceSize: input is not "
                           "a live aclTensor of N x C x ...");
    aclTensor *const vec[4] = {runningMean, runningVar, meanAll, invstdAll};
    static const char *const vname[4] = {"runningMean", "runningVar", "meanAll", "invstdAll"};
    return gather_stats("aclnnBatchNormGatherStatsWithCounts", mean, "mean", invstd, "invstd", counts, "counts", vec,
                        vname, input->dims[1], momentum, eps, true, workspaceSize, executor);
}

aclnnStatus aclnnSyncBatchNormGatherStatsGetWorkspaceSize(const aclTensor *totalSum, const aclTensor *totalSquareSum,
                                                         const aclTensor *sampleCount, aclTensor *mean,
                                                         aclTensor *variance, float momentum, float eps,
                                                         aclTensor *batchMean, aclTensor *batchInvstd,
                                                         uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    aclTensor *const vec[4] = {mean, variance, batchMean, batchInvstd};
    static const char *const vname[4] = {"mean", "variance", "batchMean", "batchInvstd"};
    return gather_stats("aclnnSyncBatchNormGatherStats", totalSum, "totalSum", totalSquareSum, "totalSquareSum",
                        sampleCount, "sampleCount", vec, vname, -1, momentum, eps, false, workspaceSize, executor);
}
