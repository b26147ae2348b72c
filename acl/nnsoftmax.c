/* acl/nnsoftmax.c - (s20-norm2) the first phases of aclnnSoftmaxBackward and aclnnLogSoftmaxBackward
 * (acl/nnops.def) onto the library's softmax_backward (ops/colnorm.c; --log for the log softmax):
 * gradOutput, output (the forward's result) and out of one shape and dtype, dim in [-ndims, ndims). */
#include "nn.h"

#include "dv/ops.h"

#include <stdio.h>
#include <string.h>

#include "aclnnop/aclnn_logsoftmax_backward.h"
#include "aclnnop/aclnn_softmax_backward.h"

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
