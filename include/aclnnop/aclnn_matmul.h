/* aclnnop/aclnn_matmul.h - aclnnMatmul: out[M,N] = self[M,K] x mat2[K,N] on the cube. */
#ifndef ACLNNOP_ACLNN_MATMUL_H
#define ACLNNOP_ACLNN_MATMUL_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: check the tensors (2-D; mat2 contiguous or a transposed view) and plan the kernel (see
 * aclnn_add.h).  cubeMathType: 0 KEEP_DTYPE, 1 ALLOW_FP32_DOWN_PRECISION, 2 USE_FP16, 3 USE_HF32. */
ACLNN_API aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out,
                                                  int8_t cubeMathType, uint64_t *workspaceSize,
                                                  aclOpExecutor **executor);
/* Phase 2: queue the kernel on stream. */
ACLNN_API aclnnStatus aclnnMatmul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif
#endif
