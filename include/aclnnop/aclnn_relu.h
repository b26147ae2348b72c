/* aclnnop/aclnn_relu.h - aclnnRelu: out = max(self, 0). */
#ifndef ACLNNOP_ACLNN_RELU_H
#define ACLNNOP_ACLNN_RELU_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: check the tensors (same shape and dtype) and plan the kernel (see aclnn_add.h).  `out` is
 * const here, as in the aclnn interface. */
ACLNN_API aclnnStatus aclnnReluGetWorkspaceSize(const aclTensor *self, const aclTensor *out, uint64_t *workspaceSize,
                                                aclOpExecutor **executor);
/* Phase 2: queue the kernel on stream. */
ACLNN_API aclnnStatus aclnnRelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                const aclrtStream stream);

#ifdef __cplusplus
}
#endif
#endif
