/* aclnnop/aclnn_batch_norm.h - aclnnBatchNorm: batch normalisation of an NCHW tensor. */
#ifndef ACLNNOP_ACLNN_BATCH_NORM_H
#define ACLNNOP_ACLNN_BATCH_NORM_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: check the tensors (dvsim: inference only, training false; input NCHW; weight, bias,
 * runningMean and runningVar [C] of the input's dtype) and plan the kernel (see aclnn_add.h).
 * momentum, saveMean and saveInvstd only matter in training. */
ACLNN_API aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor *input, const aclTensor *weight,
                                                     const aclTensor *bias, aclTensor *runningMean,
                                                     aclTensor *runningVar, bool training, double momentum,
                                                     double eps, aclTensor *output, aclTensor *saveMean,
                                                     aclTensor *saveInvstd, uint64_t *workspaceSize,
                                                     aclOpExecutor **executor);
/* Phase 2: queue the kernel on stream. */
ACLNN_API aclnnStatus aclnnBatchNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif
#endif
