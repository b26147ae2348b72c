/* acl/acl_rt.h - the AscendCL runtime: devices, contexts, streams, device memory, copies and events.
 * Work submitted to a stream is asynchronous; dvsim simulates it when the host synchronises.  Names,
 * types and values follow AscendCL 1.15 (CANN 8.3). */
#ifndef ACL_ACL_RT_H
#define ACL_ACL_RT_H

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Event creation flags for aclrtCreateEventWithFlag / aclrtCreateEventExWithFlag (OR-able). */
#define ACL_EVENT_SYNC 0x00000001u
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002u
#define ACL_EVENT_TIME_LINE 0x00000008u
#define ACL_EVENT_EXTERNAL 0x00000020u

/* Stream creation flags for aclrtCreateStreamWithConfig (OR-able). */
#define ACL_STREAM_FAST_LAUNCH 0x00000001u
#define ACL_STREAM_FAST_SYNC 0x00000002u
#define ACL_STREAM_PERSISTENT 0x00000004u
#define ACL_STREAM_HUGE 0x00000008u
#define ACL_STREAM_DEVICE_USE_ONLY 0x00000020u

/* Failure modes for aclrtSetStreamFailureMode: keep running the stream's later tasks, or drop them. */
#define ACL_CONTINUE_ON_FAILURE 0
#define ACL_STOP_ON_FAILURE 1

/* Where the host program runs: on the device's own CPU, or on a separate host. */
typedef enum aclrtRunMode {
    ACL_DEVICE = 0,
    ACL_HOST = 1,
} aclrtRunMode;

/* Page policy for device allocations; the ACL_MEM_TYPE_* and ACL_MEM_ACCESS_* flags may be OR-ed in. */
typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST = 0,
    ACL_MEM_MALLOC_HUGE_ONLY = 1,
    ACL_MEM_MALLOC_NORMAL_ONLY = 2,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5,
    ACL_MEM_MALLOC_HUGE1G_ONLY = 6,
    ACL_MEM_MALLOC_HUGE1G_ONLY_P2P = 7,
    ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x100,
    ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
    ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000,
} aclrtMemMallocPolicy;

/* Direction of a copy. */
typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST = 0,
    ACL_MEMCPY_HOST_TO_DEVICE = 1,
    ACL_MEMCPY_DEVICE_TO_HOST = 2,
    ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
    ACL_MEMCPY_DEFAULT = 4,
    ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE = 5,
    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE = 6,
    ACL_MEMCPY_INTER_DEVICE_TO_DEVICE = 7,
} aclrtMemcpyKind;

/* Memory kind asked about by aclrtGetMemInfo. */
typedef enum aclrtMemAttr {
    ACL_DDR_MEM = 0,
    ACL_HBM_MEM = 1,
    ACL_DDR_MEM_HUGE = 2,
    ACL_DDR_MEM_NORMAL = 3,
    ACL_HBM_MEM_HUGE = 4,
    ACL_HBM_MEM_NORMAL = 5,
} aclrtMemAttr;

/* Result of aclrtQueryEventStatus. */
typedef enum aclrtEventRecordedStatus {
    ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
    ACL_EVENT_RECORDED_STATUS_COMPLETE = 1,
} aclrtEventRecordedStatus;

/* Result of aclrtStreamQuery (note: COMPLETE is 0 here, unlike the event status). */
typedef enum aclrtStreamStatus {
    ACL_STREAM_STATUS_COMPLETE = 0,
    ACL_STREAM_STATUS_NOT_READY = 1,
} aclrtStreamStatus;

/* Whether a host callback blocks the stream's later tasks until it has run. */
typedef enum aclrtCallbackBlockType {
    ACL_CALLBACK_NO_BLOCK = 0,
    ACL_CALLBACK_BLOCK = 1,
} aclrtCallbackBlockType;

/* Device properties for aclGetDeviceCapability. */
typedef enum {
    ACL_DEVICE_INFO_AI_CORE_NUM = 0,
    ACL_DEVICE_INFO_VECTOR_CORE_NUM = 1,
    ACL_DEVICE_INFO_L2_SIZE = 2,
} aclDeviceInfo;

/* Device properties for aclrtGetDeviceInfo. */
typedef enum {
    ACL_DEV_ATTR_AICPU_CORE_NUM = 1,
    ACL_DEV_ATTR_AICORE_CORE_NUM = 101,
    ACL_DEV_ATTR_CUBE_CORE_NUM = 102,
    ACL_DEV_ATTR_VECTOR_CORE_NUM = 201,
    ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 301,
    ACL_DEV_ATTR_L2_CACHE_SIZE = 302,
} aclrtDevAttr;

/* A host function queued on a stream by aclrtLaunchCallback. */
typedef void (*aclrtCallback)(void *userData);

/* The scope aclrtGetLastError / aclrtPeekAtLastError look at: the calling thread. */
typedef enum aclrtLastErrLevel {
    ACL_RT_THREAD_LEVEL = 0,
} aclrtLastErrLevel;

/* ---- errors ---- */
/* The code of the calling thread's last failed runtime call (ACL_SUCCESS if none since the last
 * aclrtGetLastError), which it then forgets; aclrtPeekAtLastError keeps it. */
ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level);
ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level);

/* ---- devices ---- */
/* Make deviceId the current device of the calling thread (opening it on first use). */
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);
/* Release the process's use of a device; its streams, events and memory go when the last user resets. */
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);
/* Release a device at once, whatever number of aclrtSetDevice calls preceded. */
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId);
/* The calling thread's current device. */
ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId);
/* Number of devices visible to the process. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t *count);
/* Whether this program runs on the device or on a host (ACL_HOST; allowed before aclInit). */
ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode *runMode);
/* A device property (aclrtDevAttr). */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value);
/* A device property (aclDeviceInfo, the older query). */
ACL_FUNC_VISIBILITY aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t *value);
/* Wait for all work on the current device. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void);
/* The same, giving up after timeout ms (-1: wait for ever). */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout);

/* ---- contexts ---- */
/* Create a context on deviceId and make it current. */
ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId);
/* Destroy a context made by aclrtCreateContext. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context);
/* Make context the calling thread's current context (and its device current). */
ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context);
/* The calling thread's current context. */
ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *context);

/* ---- streams (NULL stands for the default stream where a stream is taken) ---- */
/* Create a stream in the current context. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream);
/* Create a stream with a priority and ACL_STREAM_* flags. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag);
/* The options of aclrtCreateStreamV2, set one at a time with aclrtSetStreamConfigOpt. */
typedef enum {
    ACL_RT_STREAM_WORK_ADDR_PTR = 0, /* a model stream's work memory: ACL_ERROR_RT_FEATURE_NOT_SUPPORT */
    ACL_RT_STREAM_WORK_SIZE = 1,     /* its size: ACL_ERROR_RT_FEATURE_NOT_SUPPORT */
    ACL_RT_STREAM_FLAG = 2,          /* ACL_STREAM_* flags: a uint32_t or uint64_t */
    ACL_RT_STREAM_PRIORITY = 3       /* a uint32_t */
} aclrtStreamConfigAttr;
typedef struct aclrtStreamConfigHandle {
    void *workptr;
    size_t workSize;
    size_t flag;
    uint32_t priority;
} aclrtStreamConfigHandle;
/* A zeroed configuration (NULL, with a message, when out of memory); free it with
 * aclrtDestroyStreamConfigHandle. */
ACL_FUNC_VISIBILITY aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void);
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle);
/* Set one option; valueSize is the size of the value attrValue points to. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr,
                                                     const void *attrValue, size_t valueSize);
/* aclrtCreateStreamWithConfig with the handle's priority and flags. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle);
/* Destroy a stream once its queued work is done. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);
/* Destroy a stream without waiting: the handle dies now; the work already queued still runs. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream);
/* Wait until everything queued on stream has run; returns the first task error. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);
/* The same, giving up after timeout ms (-1: wait for ever). */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);
/* Whether stream has work left; a query lets the device run one more queued task. */
ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status);
/* ACL_CONTINUE_ON_FAILURE or ACL_STOP_ON_FAILURE for the tasks after a failed one. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode);
/* Queue a host function on stream. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
                                                 aclrtStream stream);

/* ---- memory ---- */
/* Allocate size bytes of device memory. */
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
/* The same, without the runtime's extra padding: the size is only rounded up to 32 bytes. */
ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
/* Allocate device memory that may be cached. */
ACL_FUNC_VISIBILITY aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
/* Allocate host memory (page-locked on real hardware). */
ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size);
/* Free device memory from aclrtMalloc*. */
ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr);
/* Free host memory from aclrtMallocHost. */
ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr);
/* Copy count bytes from src to dst (at most destMax bytes fit at dst); synchronous. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                                         aclrtMemcpyKind kind);
/* The same, queued on stream. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream);
/* Copy height rows of width bytes between pitched buffers (row starts dpitch / spitch bytes apart). */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                           size_t height, aclrtMemcpyKind kind);
/* Set count bytes at devPtr (maxCount bytes available) to the low byte of value. */
ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count);
/* The same, queued on stream. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                                              aclrtStream stream);
/* Free and total bytes of a kind of device memory. */
ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total);

/* ---- events ---- */
/* Create an event (timing enabled). */
ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event);
/* Create an event with ACL_EVENT_* flags. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag);
/* Create an event with ACL_EVENT_* flags, not limited by the per-stream event count. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag);
/* Queue a record of event on stream: it completes when the work queued before it has run. */
ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
/* Queue a reset of event on stream. */
ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream);
/* Make stream's later work wait for event. */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);
/* Wait on the host until event has completed. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event);
/* The same, giving up after timeout ms (-1: wait for ever). */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout);
/* Whether event has completed; a query lets the device run one more queued task. */
ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status);
/* Milliseconds of simulated device time between two completed events (note: the result comes first). */
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent);
/* Device timestamp of a completed event. */
ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp);
/* Destroy an event. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);

/* ==== further runtime families (acl/rtext.c, acl/stream.c) ====
 * Each call either works on the simulated device or returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000)
 * with a message naming it (aclGetRecentErrMsg).  docs/ACL.md, "Runtime families". */

/* Buffer size for aclsysGetVersionStr. */
#define ACL_PKG_VERSION_MAX_SIZE 128
/* The version string of a CANN package ("runtime", "cann"), as "8.3.0"; allowed before aclInit. */
ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char *pkgName, char *versionStr);
/* The same as a number (larger is newer: major * 1000000 + minor * 10000 + patch * 100). */
ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum);

/* Result of aclrtQueryEvent (the older event query; COMPLETE is 0 here). */
typedef enum aclrtEventStatus {
    ACL_EVENT_STATUS_COMPLETE = 0,
    ACL_EVENT_STATUS_NOT_READY = 1,
    ACL_EVENT_STATUS_RESERVED = 2,
} aclrtEventStatus;
/* Whether event's last record has run; a query lets the device run one more queued task. */
ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status);

/* ---- notifies: a record sets it, a wait holds a stream until it is set and then clears it ---- */
typedef void *aclrtCntNotify;
/* Create a notify (flag: 0). */
ACL_FUNC_VISIBILITY aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag);
/* Destroy a notify; tasks queued on it keep it until they have run. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyNotify(aclrtNotify notify);
/* Queue a record (set) of notify on stream. */
ACL_FUNC_VISIBILITY aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream);
/* Queue on stream a wait until notify is set, which then clears it (timeout in ms, 0: none). */
ACL_FUNC_VISIBILITY aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout);
/* The notify's id (unique among live notifies). */
ACL_FUNC_VISIBILITY aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId);

/* ---- host functions and report callbacks ---- */
/* A host function queued by aclrtLaunchHostFunc. */
typedef void (*aclrtHostFunc)(void *args);
/* Queue fn(args) on stream: it runs on the host when the stream reaches it (note: stream first). */
ACL_FUNC_VISIBILITY aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args);
/* Name the host thread that runs stream's callbacks (dvsim runs them on the thread that drains the
 * device, in stream order; the subscription is checked and kept). */
ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream);
/* Run the callbacks reported so far (timeout in ms, -1: wait): dvsim lets the device run what is
 * queued, which runs them; ACL_ERROR_RT_REPORT_TIMEOUT when there was nothing to run. */
ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout);
/* End a subscription made by aclrtSubscribeReport. */
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream);

/* The same for the host functions of aclrtLaunchHostFunc (one subscription table with the above). */
ACL_FUNC_VISIBILITY aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);
ACL_FUNC_VISIBILITY aclError aclrtProcessHostFunc(int32_t timeout);
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);

/* An event shared between processes (aclrtCreateEventExWithFlag): ACL_ERROR_RT_FEATURE_NOT_SUPPORT. */
#define ACL_EVENT_IPC 0x00000040u

/* Health of a device (aclrtQueryDeviceStatus). */
typedef enum aclrtDeviceStatus {
    ACL_RT_DEVICE_STATUS_NORMAL = 0,
    ACL_RT_DEVICE_STATUS_ABNORMAL,
    ACL_RT_DEVICE_STATUS_END = 0xFFFF,
} aclrtDeviceStatus;
/* ACL_RT_DEVICE_STATUS_NORMAL for the simulated device. */
ACL_FUNC_VISIBILITY aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus);

/* ---- peer access: one simulated device, so there is no peer ---- */
/* *canAccessPeer = 0 for deviceId 0 and any other peer; a device that does not exist is an error. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId, int32_t peerDeviceId);
/* Enable access to peerDeviceId's memory (flags: 0): ACL_ERROR_RT_INVALID_DEVICEID, there is no peer. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags);
/* Disable it again: ACL_ERROR_RT_INVALID_DEVICEID, there is no peer. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId);

/* ---- device capability and resource limits ---- */
typedef enum {
    ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV = 1,
    ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV = 21,
} aclrtDevFeatureType;
/* Whether the device has a feature (0: no); dvsim models neither. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType, int32_t *value);
typedef enum {
    ACL_RT_DEV_RES_CUBE_CORE = 0,
    ACL_RT_DEV_RES_VECTOR_CORE,
} aclrtDevResLimitType;
/* The number of cube (AIC) or vector (AIV) cores a kernel of this process may use (default: all). */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t *value);
/* Limit it (1 .. the cores the profile has); kernels launched later get at most that many cores. */
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value);
/* Back to every core of the profile. */
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceResLimit(int32_t deviceId);
/* The cores of that kind a kernel launched from the calling thread may use (the device's limit). */
ACL_FUNC_VISIBILITY aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value);

/* ---- stream queries and control ---- */
/* The priority given to aclrtCreateStreamWithConfig (0 for other streams). */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority);
/* The ACL_STREAM_* flags given to aclrtCreateStreamWithConfig (0 for other streams). */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags);
/* The stream's id (the default stream's is 0), as the profiler's "Stream ID". */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId);
/* Priorities run from greatestPriority 0 to leastPriority 7 (accepted; the model has no priorities). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority);
/* The current context's default stream (NULL stands for it elsewhere). */
ACL_FUNC_VISIBILITY aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream);
/* Stop the stream: its tasks that have not run are dropped (they never run). */
ACL_FUNC_VISIBILITY aclError aclrtStreamStop(aclrtStream stream);
/* Abort the stream: the same, for a stream whose work is to be abandoned after a failure. */
ACL_FUNC_VISIBILITY aclError aclrtStreamAbort(aclrtStream stream);

/* The moments a stream state callback is told about. */
typedef enum aclrtStreamState {
    ACL_RT_STREAM_STATE_CREATE_POST = 1, /* the stream has just been created */
    ACL_RT_STREAM_STATE_DESTROY_PRE = 2  /* the stream is about to be destroyed */
} aclrtStreamState;
typedef void (*aclrtStreamStateCallback)(aclrtStream stm, aclrtStreamState state, void *args);
/* Call callback(stream, state, args) after every stream creation and before every destruction,
 * under regName (process wide, up to 8 names); a NULL callback removes regName's. */
ACL_FUNC_VISIBILITY aclError aclrtRegStreamStateCallback(const char *regName, aclrtStreamStateCallback callback,
                                                         void *args);

/* Floating point overflow behaviour of the device: saturate to the largest finite value, or give
 * inf/NaN as IEEE 754 does. */
typedef enum aclrtFloatOverflowMode {
    ACL_RT_OVERFLOW_MODE_SATURATION = 0,
    ACL_RT_OVERFLOW_MODE_INFNAN = 1,
    ACL_RT_OVERFLOW_MODE_UNDEF = 2
} aclrtFloatOverflowMode;
/* The simulated device computes IEEE inf/NaN: ACL_RT_OVERFLOW_MODE_INFNAN is the one mode it has;
 * asking for saturation is ACL_ERROR_RT_FEATURE_NOT_SUPPORT. */
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode);
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode);
/* Stream overflow detection (a saturation mode feature): off (flag 0) is what the device does;
 * turning it on, and the overflow status tasks, are ACL_ERROR_RT_FEATURE_NOT_SUPPORT. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t *flag);
ACL_FUNC_VISIBILITY aclError aclrtGetOverflowStatus(void *outputAddr, size_t outputSize, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtResetOverflowStatus(aclrtStream stream);

/* *canCompatible 1 when a model built for socVersion runs on the simulated device (the same SoC
 * as aclrtGetSocName), else 0. */
ACL_FUNC_VISIBILITY aclError aclrtCheckArchCompatibility(const char *socVersion, int32_t *canCompatible);

/* ---- virtual and physical device memory, IPC: not simulated (ACL_ERROR_RT_FEATURE_NOT_SUPPORT) ---- */
typedef void *aclrtDrvMemHandle;
typedef enum aclrtMemLocationType {
    ACL_MEM_LOCATION_TYPE_HOST = 0,
    ACL_MEM_LOCATION_TYPE_DEVICE,
    ACL_MEM_LOCATION_TYPE_UNREGISTERED,
    ACL_MEM_LOCATION_TYPE_MANAGED,
    ACL_MEM_LOCATION_TYPE_HOST_NUMA = 4,
} aclrtMemLocationType;
typedef struct aclrtMemLocation {
    uint32_t id;
    aclrtMemLocationType type;
} aclrtMemLocation;
typedef enum aclrtMemAllocationType {
    ACL_MEM_ALLOCATION_TYPE_PINNED = 0,
} aclrtMemAllocationType;
typedef enum aclrtMemHandleType {
    ACL_MEM_HANDLE_TYPE_NONE = 0,
    ACL_MEM_HANDLE_TYPE_POSIX = 2,
} aclrtMemHandleType;
typedef enum aclrtMemSharedHandleType {
    ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT = 0x1,
    ACL_MEM_SHARE_HANDLE_TYPE_FABRIC = 0x2,
} aclrtMemSharedHandleType;
typedef struct aclrtPhysicalMemProp {
    aclrtMemHandleType handleType;
    aclrtMemAllocationType allocationType;
    aclrtMemAttr memAttr;
    aclrtMemLocation location;
    uint64_t reserve;
} aclrtPhysicalMemProp;
typedef enum aclrtMemGranularityOptions {
    ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM,
    ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED,
    ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF = 0xFFFF,
} aclrtMemGranularityOptions;
typedef enum {
    ACL_RT_MEM_ACCESS_FLAGS_NONE = 0x0,
    ACL_RT_MEM_ACCESS_FLAGS_READ = 0x1,
    ACL_RT_MEM_ACCESS_FLAGS_READWRITE = 0x3,
} aclrtMemAccessFlags;
typedef struct {
    aclrtMemAccessFlags flags;
    aclrtMemLocation location;
    uint8_t rsv[12];
} aclrtMemAccessDesc;
#define ACL_IPC_EVENT_HANDLE_SIZE 64U
typedef struct aclrtIpcEventHandle {
    char reserved[ACL_IPC_EVENT_HANDLE_SIZE];
} aclrtIpcEventHandle;
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment, void *expectPtr, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void *virPtr);
ACL_FUNC_VISIBILITY aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size, const aclrtPhysicalMemProp *prop, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle);
ACL_FUNC_VISIBILITY aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void *virPtr);
ACL_FUNC_VISIBILITY aclError aclrtMemSetAccess(void *virPtr, size_t size, aclrtMemAccessDesc *desc, size_t count);
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop, aclrtMemGranularityOptions option, size_t *granularity);
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType, uint64_t flags, uint64_t *shareableHandle);
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId, aclrtDrvMemHandle *handle);
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t *pid, size_t pidNum);
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t *pid);
ACL_FUNC_VISIBILITY aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key, size_t len, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtIpcMemClose(const char *key);
ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportByKey(void **devPtr, const char *key, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetImportPid(const char *key, int32_t *pid, size_t num);
ACL_FUNC_VISIBILITY aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle);
ACL_FUNC_VISIBILITY aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent *event);
ACL_FUNC_VISIBILITY aclError aclrtNotifyGetExportKey(aclrtNotify notify, char *key, size_t len, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtNotifyImportByKey(aclrtNotify *notify, const char *key, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t *pid, size_t num);

/* Record and wait flags: ACL_EVENT_*_DEFAULT is the ordinary record / wait; the EXTERNAL forms
 * (synchronising with work outside a captured graph) are ACL_ERROR_RT_FEATURE_NOT_SUPPORT. */
#define ACL_EVENT_RECORD_DEFAULT 0x0u
#define ACL_EVENT_RECORD_EXTERNAL 0x1u
#define ACL_EVENT_WAIT_DEFAULT 0x0u
#define ACL_EVENT_WAIT_EXTERNAL 0x1u
/* aclrtRecordEvent with a flag. */
ACL_FUNC_VISIBILITY aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag);
/* aclrtStreamWaitEvent with a flag (timeout in ms, 0: none; a simulated wait completes or fails). */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout, uint32_t flag);

/* ---- not simulated either (ACL_ERROR_RT_FEATURE_NOT_SUPPORT, naming the call) ---- */
typedef struct aclrtUtilizationExtendInfo aclrtUtilizationExtendInfo;
typedef struct aclrtUtilizationInfo {
    int32_t cubeUtilization;
    int32_t vectorUtilization;
    int32_t aicpuUtilization;
    int32_t memoryUtilization;
    aclrtUtilizationExtendInfo *utilizationExtend;
} aclrtUtilizationInfo;
/* Live utilisation of a device: none (the op summary reports each kernel's pipe utilisation). */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo *utilizationInfo);
#define ACL_STREAM_WAIT_VALUE_EQ 0x00000001u
/* Stream tasks that write / wait for a value in device memory. */
ACL_FUNC_VISIBILITY aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream);
typedef enum {
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM = 10,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX = 11,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN = 12,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL = 13,
} aclrtReduceKind;
/* A copy that reduces into dst on the copy engine. */
ACL_FUNC_VISIBILITY aclError aclrtReduceAsync(void *dst, const void *src, uint64_t count, aclrtReduceKind kind, aclDataType type, aclrtStream stream, void *reserve);
#define ACL_RT_MEM_ATTACH_GLOBAL 0x01u
/* Unified (managed) memory. */
ACL_FUNC_VISIBILITY aclError aclrtMemAllocManaged(void **ptr, uint64_t size, uint32_t flag);
#define ACL_HOST_REG_MAPPED 0x2ul
/* Registering host memory for device access (zero copy). */
ACL_FUNC_VISIBILITY aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag);
ACL_FUNC_VISIBILITY aclError aclrtHostUnregister(void *ptr);

/* ---- model dump (acl/acl_dump.h has the rest): dvsim writes no dump data ---- */
/* Start a dump session with dump disabled (ACL_ERROR_DUMP_ALREADY_RUN when one is running). */
ACL_FUNC_VISIBILITY aclError aclmdlInitDump(void);
/* Configure dump from a JSON file: ACL_ERROR_RT_FEATURE_NOT_SUPPORT (no dump data is simulated). */
ACL_FUNC_VISIBILITY aclError aclmdlSetDump(const char *dumpCfgPath);
/* End the dump session (ACL_ERROR_DUMP_NOT_RUN when none is running). */
ACL_FUNC_VISIBILITY aclError aclmdlFinalizeDump(void);
/* ==== end of further runtime families ==== */

/* ==== kernel binaries (acl/binary.c): load a kernel library at run time, launch its kernels by name ====
 * A kernel binary is a shared library built with `dvcc -shared` from Ascend C sources (docs/ASCENDC.md):
 * every __global__ kernel compiled into it can be looked up by its name.  A launch's arguments are a
 * blob laid out as the C ABI lays out the kernel's parameters in a struct: aclrtKernelArgsAppend puts
 * each parameter at its natural alignment (the largest power of two dividing its size, at most 8). */
typedef void *aclrtBinHandle;
typedef void *aclrtFuncHandle;
typedef void *aclrtArgsHandle;
typedef void *aclrtParamHandle;

/* Core-type magics of ACL_RT_BINARY_LOAD_OPT_MAGIC (accepted; a kernel's kind comes from its code). */
#define ACL_RT_BINARY_MAGIC_ELF_AICORE 0x43554245U
#define ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE 0x41415246U
#define ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE 0x41494343U

/* Options of aclrtBinaryLoadFromFile / FromData (AI CPU kernels are refused: not modelled). */
typedef enum aclrtBinaryLoadOptionType {
    ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD = 1,
    ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC = 2,
    ACL_RT_BINARY_LOAD_OPT_MAGIC = 2,
    ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = 3,
} aclrtBinaryLoadOptionType;

typedef union aclrtBinaryLoadOptionValue {
    uint32_t isLazyLoad;
    uint32_t magic;
    int32_t cpuKernelMode;
    uint32_t rsv[4];
} aclrtBinaryLoadOptionValue;

typedef struct {
    aclrtBinaryLoadOptionType type;
    aclrtBinaryLoadOptionValue value;
} aclrtBinaryLoadOption;

typedef struct aclrtBinaryLoadOptions {
    aclrtBinaryLoadOption *options;
    size_t numOpt;
} aclrtBinaryLoadOptions;

typedef enum {
    ACL_RT_ENGINE_TYPE_AIC = 0,
    ACL_RT_ENGINE_TYPE_AIV,
} aclrtEngineType;

/* Launch attributes: a nonzero block offset is refused (it would change GetBlockIdx); the others
 * change nothing on the model (the engine type and SIMT local memory change nothing on Atlas A2). */
typedef enum aclrtLaunchKernelAttrId {
    ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE = 1,
    ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE = 2,
    ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE = 3,
    ACL_RT_LAUNCH_KERNEL_ATTR_NUMBLOCKS_OFFSET = 4,
    ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH = 5,
    ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP = 6,
    ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT = 7,
    ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US = 8,
} aclrtLaunchKernelAttrId;

typedef struct {
    uint32_t timeoutLow;
    uint32_t timeoutHigh;
} aclrtTimeoutUs;

typedef union aclrtLaunchKernelAttrValue {
    uint8_t schemMode;
    uint32_t localMemorySize;
    aclrtEngineType engineType;
    uint32_t numBlocksOffset;
    uint8_t isBlockTaskPrefetch;
    uint8_t isDataDump;
    uint16_t timeout;
    aclrtTimeoutUs timeoutUs;
    uint32_t rsv[4];
} aclrtLaunchKernelAttrValue;

typedef struct aclrtLaunchKernelAttr {
    aclrtLaunchKernelAttrId id;
    aclrtLaunchKernelAttrValue value;
} aclrtLaunchKernelAttr;

typedef struct aclrtLaunchKernelCfg {
    aclrtLaunchKernelAttr *attrs;
    size_t numAttrs;
} aclrtLaunchKernelCfg;

/* Load the kernel library at binPath (options may be NULL).  A missing file or one that is not an ELF
 * shared library fails with ACL_ERROR_INVALID_FILE naming the path. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
                                                     aclrtBinHandle *binHandle);
/* The same from the library's bytes in memory. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromData(const void *data, size_t length,
                                                     const aclrtBinaryLoadOptions *options, aclrtBinHandle *binHandle);
/* The kernel kernelName of a loaded binary (ACL_ERROR_KERNEL_NOT_FOUND, naming it, when there is none). */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
                                                    aclrtFuncHandle *funcHandle);
/* Unload a binary once the kernels queued from it have run; its functions and argument lists go with it. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle);
/* Start an empty argument list for a kernel (it lives until the binary is unloaded). */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle);
/* Append paramSize bytes at param (copied now) as the next parameter. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                                                   aclrtParamHandle *paramHandle);
/* Append a pointer parameter whose data the runtime copies to device memory at each launch. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle,
                                                              aclrtParamHandle *paramHandle);
/* The host buffer (dataSize bytes, owned by the list) of a placeholder parameter. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
                                                                 aclrtParamHandle paramHandle, size_t dataSize,
                                                                 void **bufferAddr);
/* End the list: no more parameters; it can be launched. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle);
/* Queue the kernel on stream with numBlocks blocks and the argument blob argsData (copied now). */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                               size_t argsSize, aclrtStream stream);
/* The same with a finalized argument list and launch attributes (cfg and reserve may be NULL). */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                         aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                                         aclrtArgsHandle argsHandle, void *reserve);
/* aclrtLaunchKernel with launch attributes (cfg may be NULL). */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                                 size_t argsSize, aclrtLaunchKernelCfg *cfg, aclrtStream stream);
/* ==== end of kernel binaries ==== */

/* ==== stream capture into model runtime instances (acl/capture.c) ====
 * Between aclmdlRICaptureBegin and aclmdlRICaptureEnd the work queued on the stream (and on streams
 * that join by waiting on an event recorded in the capture) is recorded, not run; executing the
 * instance queues it again, as often as wanted.  docs/ACL.md, "Stream capture". */
/* A model runtime instance: the tasks one capture recorded. */
typedef void *aclmdlRI;

/* Which threads' synchronising calls a capture forbids. */
typedef enum {
    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,  /* any thread's */
    ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL, /* the capturing thread's */
    ACL_MODEL_RI_CAPTURE_MODE_RELAXED,      /* none */
} aclmdlRICaptureMode;

/* A stream's capture state (aclmdlRICaptureGetInfo). */
typedef enum {
    ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0,
    ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,
    ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED,
} aclmdlRICaptureStatus;

/* Flags of aclmdlRIDebugJsonPrint: tasks only, or with each kernel's arguments. */
#define ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY 0x0UL
#define ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE 0x1UL

/* Start recording the work queued on stream (not the default stream) into a new instance. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode);
/* Swap the calling thread's capture interaction mode with *mode (it starts GLOBAL): RELAXED lets the
 * thread make synchronising calls during any capture; THREAD_LOCAL blocks them only during a
 * capture it began; GLOBAL during any GLOBAL capture too. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode);
/* Whether stream is capturing and, if so, the instance it records into. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status,
                                                    aclmdlRI *modelRI);
/* End the capture begun on stream; the instance holds what was recorded. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI);
/* Write the instance's tasks to a JSON file (flags: ACL_MDLRI_DEBUG_JSON_PRINT_*). */
ACL_FUNC_VISIBILITY aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags);
/* Queue the instance's tasks on stream. */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream);
/* Run the instance and wait for it (timeout in ms, -1: none; simulated work always completes). */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout);
/* Wait for its queued executions, then free the instance. */
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI);
/* ==== end of stream capture ==== */

/* ---- task failures: exception callbacks, error details, task ids ----
 * A task that fails on the simulated device (a kernel the model reports a fault of, e.g. an access
 * outside its arguments' allocations; a wait that can never complete) calls the exception
 * callbacks while the streams run, with an aclrtExceptionInfo that lives for the call. */
typedef struct aclrtExceptionInfo aclrtExceptionInfo;
typedef void (*aclrtExceptionInfoCallback)(aclrtExceptionInfo *exceptionInfo);
/* Set the one callback of the deprecated interface (NULL: none); the registered ones stay. */
ACL_FUNC_VISIBILITY aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback);
/* Add callback to the ones called (up to 8, each once), or remove it. */
ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback);
ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback);
/* The failed task's id (as aclrtGetThreadLastTaskId gave it), its stream's id (aclrtStreamGetId),
 * the id of the host thread that queued it (dvsim numbers host threads from 1 as they first queue
 * work), the device (0) and its error code (ACL_ERROR_RT_*); 0xFFFFFFFF for a NULL info. */
ACL_FUNC_VISIBILITY uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo *info);
/* The kernel's device argument block and function handle: ACL_ERROR_RT_FEATURE_NOT_SUPPORT (the
 * simulated kernel's arguments are not kept in device memory). */
ACL_FUNC_VISIBILITY aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo *info, void **devArgsPtr,
                                                           uint32_t *devArgsLen);
ACL_FUNC_VISIBILITY aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo *info,
                                                                 aclrtFuncHandle *func);
/* The id of the last task the calling thread queued (ACL_ERROR_INVALID_PARAM while it has queued
 * none in this session). */
ACL_FUNC_VISIBILITY aclError aclrtGetThreadLastTaskId(uint32_t *taskId);

/* What kind of error the device last had. */
typedef enum {
    ACL_RT_NO_ERROR = 0,
    ACL_RT_ERROR_MEMORY = 1,
    ACL_RT_ERROR_L2 = 2,
    ACL_RT_ERROR_AICORE = 3,
    ACL_RT_ERROR_LINK = 4,
    ACL_RT_ERROR_L3_PORT = 5,
    ACL_RT_ERROR_OTHERS = 0xFFFF
} aclrtErrorType;
typedef enum aclrtAicoreErrorType {
    ACL_RT_AICORE_ERROR_UNKNOWN = 0,
    ACL_RT_AICORE_ERROR_SW = 1,      /* the kernel's own fault (an access out of bounds, a deadlock) */
    ACL_RT_AICORE_ERROR_HW_LOCAL = 2
} aclrtAicoreErrorType;
#define UCE_INFO_RESERVED_SIZE 14
typedef struct aclrtMemUceInfo {
    void *addr;
    size_t len;
    size_t reserved[UCE_INFO_RESERVED_SIZE];
} aclrtMemUceInfo;
#define ACL_RT_MEM_UCE_INFO_MAX_NUM 20
typedef struct {
    size_t arraySize;
    aclrtMemUceInfo memUceInfoArray[ACL_RT_MEM_UCE_INFO_MAX_NUM];
} aclrtMemUceInfoArray;
typedef union aclrtErrorInfoDetail {
    aclrtMemUceInfoArray uceInfo;       /* ACL_RT_ERROR_MEMORY (never: the simulated memory has no ECC errors) */
    aclrtAicoreErrorType aicoreErrType; /* ACL_RT_ERROR_AICORE */
} aclrtErrorInfoDetail;
typedef struct aclrtErrorInfo {
    uint8_t tryRepair; /* 1: aclrtRepairError may repair it (never on the simulated device) */
    uint8_t hasDetail;
    uint8_t reserved[2];
    aclrtErrorType errorType;
    aclrtErrorInfoDetail detail;
} aclrtErrorInfo;
/* The device's last error since aclrtSetDevice: ACL_RT_ERROR_AICORE (detail: the AI core error
 * type) after a failed kernel task, ACL_RT_ERROR_OTHERS after another failed task, else
 * ACL_RT_NO_ERROR. */
ACL_FUNC_VISIBILITY aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo *errorInfo);

#ifdef __cplusplus
}
#endif
#endif
