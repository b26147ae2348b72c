/* acl/acl_dump.h - operator and exception dump.  dvsim writes no dump data: the calls that would
 * produce some return ACL_ERROR_RT_FEATURE_NOT_SUPPORT naming themselves; the queries answer that
 * dump is off.  Names, types and values follow AscendCL (CANN 8.3). */
#ifndef ACL_ACL_DUMP_H
#define ACL_ACL_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_DUMP_MAX_FILE_PATH_LENGTH 4096
/* One piece of dump data handed to a callback registered with acldumpRegCallback. */
typedef struct acldumpChunk {
    char fileName[ACL_DUMP_MAX_FILE_PATH_LENGTH];
    uint32_t bufLen;
    uint32_t isLastChunk;
    int64_t offset;
    int32_t flag;
    uint8_t dataBuf[];
} acldumpChunk;

/* Receive dump data through a callback instead of files: not supported (no dump data). */
ACL_FUNC_VISIBILITY aclError acldumpRegCallback(int32_t (*const messageCallback)(const acldumpChunk *, int32_t), int32_t flag);
/* Remove that callback (nothing to remove: a no-op). */
ACL_FUNC_VISIBILITY void acldumpUnregCallback(void);

#define ACL_OP_DUMP_OP_AICORE_ARGS 0x00000001U
/* Dump every operator's arguments to path: not supported. */
ACL_FUNC_VISIBILITY aclError aclopStartDumpArgs(uint32_t dumpType, const char *path);
/* Stop that dump: not supported. */
ACL_FUNC_VISIBILITY aclError aclopStopDumpArgs(uint32_t dumpType);

typedef enum acldumpType {
    AIC_ERR_BRIEF_DUMP = 1,
    AIC_ERR_NORM_DUMP = 2,
    AIC_ERR_DETAIL_DUMP = 3,
    DATA_DUMP = 4,
    OVERFLOW_DUMP = 5
} acldumpType;
/* The directory a kind of dump is written to: NULL, as dump is off. */
ACL_FUNC_VISIBILITY const char *acldumpGetPath(acldumpType dumpType);

#define ACL_DUMP_MAX_SHAPE_NUM 25
typedef enum acldumpTensorType {
    ACL_DUMP_TENSOR_INPUT = 0,
    ACL_DUMP_TENSOR_OUTPUT,
    ACL_DUMP_TENSOR_WORKSPACE
} acldumpTensorType;
typedef enum acldumpTensorAddressType {
    ACL_DUMP_ADDR_PTR = 0,
    ACL_DUMP_ADDR_PTR_PTR,
    ACL_DUMP_ADDR_RAW
} acldumpTensorAddressType;
typedef enum acldumpTensorPlacement {
    ACL_DUMP_PLACEMENT_DEVICE = 0,
    ACL_DUMP_PLACEMENT_HOST,
    ACL_DUMP_PLACEMENT_END
} acldumpTensorPlacement;
typedef struct acldumpTensorInfo {
    acldumpTensorType type;
    size_t tensorSize;
    int32_t format;
    int32_t dataType;
    int64_t *tensorAddr;
    acldumpTensorAddressType addrType;
    acldumpTensorPlacement placement;
    uint32_t argsOffset;
    uint32_t shapeNum;
    uint32_t originShapeNum;
    uint64_t shape[ACL_DUMP_MAX_SHAPE_NUM];
    uint64_t originShape[ACL_DUMP_MAX_SHAPE_NUM];
} acldumpTensorInfo;
/* Save tensors for an exception report: not supported (no exception dump). */
ACL_FUNC_VISIBILITY aclError acldumpSaveExceptionInfo(const char *fileName, const char *userTag, const acldumpTensorInfo *tensors, size_t tensorCount);
/* The exception dump directory: not supported (no exception dump). */
ACL_FUNC_VISIBILITY aclError acldumpGetExceptionInfoPath(char *path, size_t maxLen);

#ifdef __cplusplus
}
#endif
#endif
