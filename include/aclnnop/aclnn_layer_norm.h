/* aclnnop/aclnn_layer_norm.h - aclnnLayerNorm: out = (input - mean) * rstd * weight + bias over the normalised axes. */
#ifndef ACLNNOP_ACLNN_LAYER_NORM_H
#define ACLNNOP_ACLNN_LAYER_NORM_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: check the tensors (dvsim normalises the last axis: normalizedShape is [last dim]; weight
 * and bias required) and plan the kernel (see aclnn_add.h).  meanOutOptional and rstdOutOptional
 * (may be NULL) receive the per-row mean and 1/sqrt(var + eps) in fp32. */
ACLNN_API aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor *input, const aclIntArray *normalizedShape,
                                                     const aclTensor *weightOptional, const aclTensor *biasOptional,
                                                     double eps, aclTensor *out, aclTensor *meanOutOptional,
                                                     aclTensor *rstdOutOptional, uint64_t *workspaceSize,
                                                     aclOpExecutor **executor);
/* Phase 2: queue the kernel on stream. */
ACLNN_API aclnnStatus aclnnLayerNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif
#endif
