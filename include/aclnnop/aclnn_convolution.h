/* aclnnop/aclnn_convolution.h - aclnnConvolution: 2-D convolution of an NCHW tensor. */
#ifndef ACLNNOP_ACLNN_CONVOLUTION_H
#define ACLNNOP_ACLNN_CONVOLUTION_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: check the tensors and attributes (dvsim: 2-D, NCHW, groups 1, not transposed, no bias,
 * the same stride / padding / dilation on both axes) and plan the kernel (see aclnn_add.h). */
ACLNN_API aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor *input, const aclTensor *weight,
                                                       const aclTensor *bias, const aclIntArray *stride,
                                                       const aclIntArray *padding, const aclIntArray *dilation,
                                                       bool transposed, const aclIntArray *outputPadding,
                                                       const int64_t groups, aclTensor *output, int8_t cubeMathType,
                                                       uint64_t *workspaceSize, aclOpExecutor **executor);
/* Phase 2: queue the kernel on stream (workspaceSize is const here, as in the aclnn interface). */
ACLNN_API aclnnStatus aclnnConvolution(void *workspace, const uint64_t workspaceSize, aclOpExecutor *executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif
#endif
