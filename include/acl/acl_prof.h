/* acl/acl_prof.h - AscendCL profiling: choose what to collect, then bracket the work to measure with
 * aclprofStart / aclprofStop.  dvsim writes msprof-style results (op summary CSV and a timeline) under
 * the path given to aclprofInit.  Names, types and values follow AscendCL 1.15 (CANN 8.3). */
#ifndef ACL_ACL_PROF_H
#define ACL_ACL_PROF_H

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What to collect (aclprofCreateConfig's dataTypeConfig, OR-able). */
#define ACL_PROF_ACL_API 0x00000001ull
#define ACL_PROF_TASK_TIME 0x00000002ull
#define ACL_PROF_AICORE_METRICS 0x00000004ull
#define ACL_PROF_AICPU 0x00000008ull
#define ACL_PROF_L2CACHE 0x00000010ull
#define ACL_PROF_HCCL_TRACE 0x00000020ull
#define ACL_PROF_TRAINING_TRACE 0x00000040ull
#define ACL_PROF_MSPROFTX 0x00000080ull
#define ACL_PROF_RUNTIME_API 0x00000100ull
#define ACL_PROF_GE_API_L0 0x00000200ull
#define ACL_PROF_TASK_TIME_L0 0x00000800ull
#define ACL_PROF_TASK_MEMORY 0x00001000ull
#define ACL_PROF_TASK_TIME_L2 0x00002000ull
#define ACL_PROF_OP_ATTR 0x00004000ull
#define ACL_PROF_TASK_TIME_L3 0x00008000ull
#define ACL_PROF_GE_API_L1 0x01000000ull

/* A profiling configuration made by aclprofCreateConfig; opaque. */
typedef struct aclprofConfig aclprofConfig;
/* Custom AI Core hardware events (reserved; pass NULL); opaque. */
typedef struct aclprofAicoreEvents aclprofAicoreEvents;

/* Which group of AI Core metrics to collect per kernel. */
typedef enum aclprofAicoreMetrics {
    ACL_AICORE_ARITHMETIC_UTILIZATION = 0,
    ACL_AICORE_PIPE_UTILIZATION = 1,
    ACL_AICORE_MEMORY_BANDWIDTH = 2,
    ACL_AICORE_L0B_AND_WIDTH = 3,
    ACL_AICORE_RESOURCE_CONFLICT_RATIO = 4,
    ACL_AICORE_MEMORY_UB = 5,
    ACL_AICORE_L2_CACHE = 6,
    ACL_AICORE_PIPE_EXECUTE_UTILIZATION = 7,
    ACL_AICORE_MEMORY_ACCESS = 8,
    ACL_AICORE_NONE = 0xFF,
} aclprofAicoreMetrics;

/* Set up profiling; results go under the directory profilerResultPath (length bytes long). */
ACL_FUNC_VISIBILITY aclError aclprofInit(const char *profilerResultPath, size_t length);
/* Flush results and end profiling. */
ACL_FUNC_VISIBILITY aclError aclprofFinalize(void);
/* A configuration for deviceNums devices listed in deviceIdList; NULL on failure. */
ACL_FUNC_VISIBILITY aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList, uint32_t deviceNums,
                                                       aclprofAicoreMetrics aicoreMetrics,
                                                       const aclprofAicoreEvents *aicoreEvents,
                                                       uint64_t dataTypeConfig);
/* Release a configuration. */
ACL_FUNC_VISIBILITY aclError aclprofDestroyConfig(const aclprofConfig *profilerConfig);
/* Start collecting what profilerConfig asks for. */
ACL_FUNC_VISIBILITY aclError aclprofStart(const aclprofConfig *profilerConfig);
/* Stop collecting (profilerConfig as passed to aclprofStart). */
ACL_FUNC_VISIBILITY aclError aclprofStop(const aclprofConfig *profilerConfig);

/* Optional collection settings of aclprofSetConfig. */
typedef enum {
    ACL_PROF_ARGS_MIN = 0,
    ACL_PROF_STORAGE_LIMIT = 1,
    ACL_PROF_SYS_HARDWARE_MEM_FREQ = 3,
    ACL_PROF_LLC_MODE = 4,
    ACL_PROF_SYS_IO_FREQ = 5,
    ACL_PROF_SYS_INTERCONNECTION_FREQ = 6,
    ACL_PROF_DVPP_FREQ = 7,
    ACL_PROF_HOST_SYS = 8,
    ACL_PROF_HOST_SYS_USAGE = 9,
    ACL_PROF_HOST_SYS_USAGE_FREQ = 10,
    ACL_PROF_LOW_POWER_FREQ = 11,
    ACL_PROF_SYS_MEM_SERVICEFLOW = 12,
    ACL_PROF_SYS_CPU_FREQ = 13,
    ACL_PROF_OPTYPE = 14,
    ACL_PROF_NTS_METRICS = 15,
    ACL_PROF_PATH = 16,
    ACL_PROF_ARGS_MAX = 17
} aclprofConfigType;
/* Set one optional collection setting (config: its value as text, configLength bytes, before
 * aclprofStart).  Checked and accepted; they choose system-level sampling (memory and I/O
 * frequencies, host usage, storage limits) that dvsim does not produce, so the output is unchanged. */
ACL_FUNC_VISIBILITY aclError aclprofSetConfig(aclprofConfigType configType, const char *config, size_t configLength);

#ifdef __cplusplus
}
#endif
#endif
