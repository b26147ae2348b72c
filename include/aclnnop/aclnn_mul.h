/* aclnnop/aclnn_mul.h - aclnnMul: out = self * other, element-wise. */
#ifndef ACLNNOP_ACLNN_MUL_H
#define ACLNNOP_ACLNN_MUL_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: check the tensors (same shape and dtype) and plan the kernel (see aclnn_add.h). */
ACLNN_API aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                               uint64_t *workspaceSize, aclOpExecutor **executor);
/* Phase 2: queue the kernel on stream. */
ACLNN_API aclnnStatus aclnnMul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif
#endif
