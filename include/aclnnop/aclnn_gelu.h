/* aclnnop/aclnn_gelu.h - aclnnGelu: out = gelu(self) (tanh approximation). */
#ifndef ACLNNOP_ACLNN_GELU_H
#define ACLNNOP_ACLNN_GELU_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: check the tensors (same shape and dtype) and plan the kernel (see aclnn_add.h). */
ACLNN_API aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                                aclOpExecutor **executor);
/* Phase 2: queue the kernel on stream. */
ACLNN_API aclnnStatus aclnnGelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                const aclrtStream stream);

#ifdef __cplusplus
}
#endif
#endif
