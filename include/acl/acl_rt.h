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
/* Whether this program runs on the device or on a host. */
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
/* Destroy a stream once its queued work is done. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);
/* Destroy a stream, dropping work that has not run yet. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream);
/* Wait until everything queued on stream has run; returns the first task error. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);
/* The same, giving up after timeout ms (-1: wait for ever). */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);
/* Whether stream has work left, without waiting. */
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
/* Whether event has completed, without waiting. */
ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status);
/* Milliseconds of simulated device time between two completed events (note: the result comes first). */
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent);
/* Device timestamp of a completed event. */
ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp);
/* Destroy an event. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);

#ifdef __cplusplus
}
#endif
#endif
