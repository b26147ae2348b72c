/* aclnnop/aclnn_add.h - aclnnAdd: out = self + alpha * other, element-wise. */
#ifndef ACLNNOP_ACLNN_ADD_H
#define ACLNNOP_ACLNN_ADD_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: check the tensors (same shape and dtype; dvsim does not broadcast) and plan the kernel.
 * *workspaceSize receives the device workspace the second phase needs (0: none), *executor the plan. */
ACLNN_API aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor *self, const aclTensor *other, const aclScalar *alpha,
                                               aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
/* Phase 2: queue the kernel on stream; the executor is released unless it was made repeatable. */
ACLNN_API aclnnStatus aclnnAdd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif
#endif
