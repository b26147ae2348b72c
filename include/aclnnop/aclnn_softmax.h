/* aclnnop/aclnn_softmax.h - aclnnSoftmax: out = softmax(self) along dim. */
#ifndef ACLNNOP_ACLNN_SOFTMAX_H
#define ACLNNOP_ACLNN_SOFTMAX_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: check the tensors (same shape and dtype; dim must be the last axis: -1 or ndim - 1) and
 * plan the kernel (see aclnn_add.h). */
ACLNN_API aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim, aclTensor *out,
                                                   uint64_t *workspaceSize, aclOpExecutor **executor);
/* Phase 2: queue the kernel on stream. */
ACLNN_API aclnnStatus aclnnSoftmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif
#endif
