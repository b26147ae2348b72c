/* acl/rtext.c - the runtime families the simulated device answers without the scheduler: peer
 * access (one device, so no peer), device capabilities and resource limits, the floating point
 * overflow mode, CANN attributes and architecture compatibility, stream configuration handles, and
 * the families that are not simulated (virtual/physical memory, IPC, dump data), which return
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT naming the call.  docs/ACL.md, "Runtime families". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "dv/topology.h"

/* ---------------------------------------------------------------- peer access */

static int peer_check(const char *api, int32_t peer)
{
    int rc = dv_acl_check_device(api);
    if (rc == ACL_SUCCESS)
        rc = dv_acl_fail(ACL_ERROR_RT_INVALID_DEVICEID,
                         "%s: device %d is not a peer: dvsim simulates one device (0), which has no peer", api, peer);
    return rc;
}

aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId, int32_t peerDeviceId)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_init("aclrtDeviceCanAccessPeer");
    if (rc == ACL_SUCCESS && !canAccessPeer)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtDeviceCanAccessPeer: canAccessPeer is NULL");
    if (rc == ACL_SUCCESS && (deviceId != 0 || peerDeviceId != 0))
        rc = dv_acl_fail(ACL_ERROR_RT_INVALID_DEVICEID,
                         "aclrtDeviceCanAccessPeer: device %d does not exist (dvsim simulates device 0)",
                         deviceId != 0 ? deviceId : peerDeviceId);
    if (rc == ACL_SUCCESS) /* a device is not its own peer */
        *canAccessPeer = 0;
    return rc;
}

aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags)
{
    DV_ACL_LOCKED();
    (void)flags;
    return peer_check("aclrtDeviceEnablePeerAccess", peerDeviceId);
}

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId)
{
    DV_ACL_LOCKED();
    return peer_check("aclrtDeviceDisablePeerAccess", peerDeviceId);
}

/* ---------------------------------------------------------------- capabilities and limits */

static int device_query(const char *api, int32_t deviceId, const void *out, const char *what)
{
    int rc = dv_acl_check_init(api);
    if (rc == ACL_SUCCESS && deviceId != 0)
        rc = dv_acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: device %d does not exist (dvsim simulates device 0)", api,
                         deviceId);
    if (rc == ACL_SUCCESS && !out)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %s is NULL", api, what);
    return rc;
}

aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType, int32_t *value)
{
    DV_ACL_LOCKED();
    int rc = device_query("aclrtGetDeviceCapability", deviceId, value, "value");
    if (rc == ACL_SUCCESS && devFeatureType != ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV &&
        devFeatureType != ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCapability: unknown feature %d", (int)devFeatureType);
    if (rc == ACL_SUCCESS) /* neither task update on the task scheduler CPU nor cross-device queues is modelled */
        *value = 0;
    return rc;
}

/* The cores of a kind the profile has. */
static int res_cores(const char *api, aclrtDevResLimitType type, uint32_t *n)
{
    const dv_config_t *c = dv_acl_config();
    if (type == ACL_RT_DEV_RES_CUBE_CORE)
        *n = (uint32_t)c->chip_ai_cores;
    else if (type == ACL_RT_DEV_RES_VECTOR_CORE)
        *n = (uint32_t)dv_topo_kernel_cores(c, DV_KIND_VECTOR);
    else
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: resource type %d is not ACL_RT_DEV_RES_CUBE_CORE (0) or "
                           "ACL_RT_DEV_RES_VECTOR_CORE (1)", api, (int)type);
    return ACL_SUCCESS;
}

aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t *value)
{
    DV_ACL_LOCKED();
    uint32_t n = 0;
    int rc = device_query("aclrtGetDeviceResLimit", deviceId, value, "value");
    if (rc == ACL_SUCCESS)
        rc = res_cores("aclrtGetDeviceResLimit", type, &n);
    if (rc == ACL_SUCCESS)
        *value = n;
    return rc;
}

aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value)
{
    DV_ACL_LOCKED();
    uint32_t n = 0;
    int rc = device_query("aclrtSetDeviceResLimit", deviceId, &n, "value");
    if (rc == ACL_SUCCESS)
        rc = res_cores("aclrtSetDeviceResLimit", type, &n);
    if (rc == ACL_SUCCESS && (value == 0 || value > n))
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtSetDeviceResLimit: %u cores: the profile has 1 .. %u", value, n);
    if (rc == ACL_SUCCESS && value < n)
        rc = dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                         "aclrtSetDeviceResLimit: limiting kernels to %u of the %u cores is not simulated; choose a "
                         "profile with fewer cores instead (DVSIM_CONFIG, or aclInit's \"set\": chip.ai_cores)",
                         value, n);
    return rc;
}

aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value)
{
    DV_ACL_LOCKED();
    uint32_t n = 0;
    int rc = device_query("aclrtGetResInCurrentThread", 0, value, "value");
    if (rc == ACL_SUCCESS)
        rc = dv_acl_check_device("aclrtGetResInCurrentThread");
    if (rc == ACL_SUCCESS)
        rc = res_cores("aclrtGetResInCurrentThread", type, &n);
    if (rc == ACL_SUCCESS)
        *value = n;
    return rc;
}

aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus)
{
    DV_ACL_LOCKED();
    int rc = device_query("aclrtQueryDeviceStatus", deviceId, deviceStatus, "deviceStatus");
    if (rc == ACL_SUCCESS)
        *deviceStatus = ACL_RT_DEVICE_STATUS_NORMAL;
    return rc;
}

aclError aclrtResetDeviceResLimit(int32_t deviceId)
{
    DV_ACL_LOCKED();
    int one = 0;
    return device_query("aclrtResetDeviceResLimit", deviceId, &one, "value");
}

/* ---------------------------------------------------------------- not simulated */

static int not_simulated(const char *api, const char *why)
{
    int rc = dv_acl_check_init(api);
    return rc != ACL_SUCCESS ? rc : dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: not supported: %s", api, why);
}

#define VMM "virtual/physical device memory is not simulated (use aclrtMalloc)"
#define IPC "sharing between processes is not simulated (dvsim's device lives in one process)"

aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment, void *expectPtr, uint64_t flags)
{
    DV_ACL_LOCKED();
    (void)virPtr, (void)size, (void)alignment, (void)expectPtr, (void)flags;
    return not_simulated("aclrtReserveMemAddress", VMM);
}

aclError aclrtReleaseMemAddress(void *virPtr)
{
    DV_ACL_LOCKED();
    (void)virPtr;
    return not_simulated("aclrtReleaseMemAddress", VMM);
}

aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size, const aclrtPhysicalMemProp *prop, uint64_t flags)
{
    DV_ACL_LOCKED();
    (void)handle, (void)size, (void)prop, (void)flags;
    return not_simulated("aclrtMallocPhysical", VMM);
}

aclError aclrtFreePhysical(aclrtDrvMemHandle handle)
{
    DV_ACL_LOCKED();
    (void)handle;
    return not_simulated("aclrtFreePhysical", VMM);
}

aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags)
{
    DV_ACL_LOCKED();
    (void)virPtr, (void)size, (void)offset, (void)handle, (void)flags;
    return not_simulated("aclrtMapMem", VMM);
}

aclError aclrtUnmapMem(void *virPtr)
{
    DV_ACL_LOCKED();
    (void)virPtr;
    return not_simulated("aclrtUnmapMem", VMM);
}

aclError aclrtMemSetAccess(void *virPtr, size_t size, aclrtMemAccessDesc *desc, size_t count)
{
    DV_ACL_LOCKED();
    (void)virPtr, (void)size, (void)desc, (void)count;
    return not_simulated("aclrtMemSetAccess", VMM);
}

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop, aclrtMemGranularityOptions option,
                                          size_t *granularity)
{
    DV_ACL_LOCKED();
    (void)prop, (void)option, (void)granularity;
    return not_simulated("aclrtMemGetAllocationGranularity", VMM);
}

aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType, uint64_t flags,
                                         uint64_t *shareableHandle)
{
    DV_ACL_LOCKED();
    (void)handle, (void)handleType, (void)flags, (void)shareableHandle;
    return not_simulated("aclrtMemExportToShareableHandle", IPC);
}

aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId, aclrtDrvMemHandle *handle)
{
    DV_ACL_LOCKED();
    (void)shareableHandle, (void)deviceId, (void)handle;
    return not_simulated("aclrtMemImportFromShareableHandle", IPC);
}

aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t *pid, size_t pidNum)
{
    DV_ACL_LOCKED();
    (void)shareableHandle, (void)pid, (void)pidNum;
    return not_simulated("aclrtMemSetPidToShareableHandle", IPC);
}

aclError aclrtDeviceGetBareTgid(int32_t *pid)
{
    DV_ACL_LOCKED();
    (void)pid;
    return not_simulated("aclrtDeviceGetBareTgid", IPC);
}

aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key, size_t len, uint64_t flags)
{
    DV_ACL_LOCKED();
    (void)devPtr, (void)size, (void)key, (void)len, (void)flags;
    return not_simulated("aclrtIpcMemGetExportKey", IPC);
}

aclError aclrtIpcMemClose(const char *key)
{
    DV_ACL_LOCKED();
    (void)key;
    return not_simulated("aclrtIpcMemClose", IPC);
}

aclError aclrtIpcMemImportByKey(void **devPtr, const char *key, uint64_t flags)
{
    DV_ACL_LOCKED();
    (void)devPtr, (void)key, (void)flags;
    return not_simulated("aclrtIpcMemImportByKey", IPC);
}

aclError aclrtIpcMemSetImportPid(const char *key, int32_t *pid, size_t num)
{
    DV_ACL_LOCKED();
    (void)key, (void)pid, (void)num;
    return not_simulated("aclrtIpcMemSetImportPid", IPC);
}

aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle)
{
    DV_ACL_LOCKED();
    (void)event, (void)handle;
    return not_simulated("aclrtIpcGetEventHandle", IPC);
}

aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent *event)
{
    DV_ACL_LOCKED();
    (void)handle, (void)event;
    return not_simulated("aclrtIpcOpenEventHandle", IPC);
}

aclError aclrtNotifyGetExportKey(aclrtNotify notify, char *key, size_t len, uint64_t flags)
{
    DV_ACL_LOCKED();
    (void)notify, (void)key, (void)len, (void)flags;
    return not_simulated("aclrtNotifyGetExportKey", IPC);
}

aclError aclrtNotifyImportByKey(aclrtNotify *notify, const char *key, uint64_t flags)
{
    DV_ACL_LOCKED();
    (void)notify, (void)key, (void)flags;
    return not_simulated("aclrtNotifyImportByKey", IPC);
}

aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t *pid, size_t num)
{
    DV_ACL_LOCKED();
    (void)notify, (void)pid, (void)num;
    return not_simulated("aclrtNotifySetImportPid", IPC);
}

aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo *utilizationInfo)
{
    DV_ACL_LOCKED();
    (void)deviceId, (void)utilizationInfo;
    return not_simulated("aclrtGetDeviceUtilizationRate",
                         "no live utilisation is sampled (the op summary reports each kernel's pipe utilisation)");
}

#define TASKS "this stream task is not simulated"

aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream)
{
    DV_ACL_LOCKED();
    (void)devAddr, (void)value, (void)flag, (void)stream;
    return not_simulated("aclrtValueWrite", TASKS " (use an event or a notify)");
}

aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream)
{
    DV_ACL_LOCKED();
    (void)devAddr, (void)value, (void)flag, (void)stream;
    return not_simulated("aclrtValueWait", TASKS " (use an event or a notify)");
}

aclError aclrtReduceAsync(void *dst, const void *src, uint64_t count, aclrtReduceKind kind, aclDataType type,
                          aclrtStream stream, void *reserve)
{
    DV_ACL_LOCKED();
    (void)dst, (void)src, (void)count, (void)kind, (void)type, (void)stream, (void)reserve;
    return not_simulated("aclrtReduceAsync", TASKS " (the copy engine does not reduce in the model)");
}

#define UVM "unified memory and host registration are not simulated (copy with aclrtMemcpy)"

aclError aclrtMemAllocManaged(void **ptr, uint64_t size, uint32_t flag)
{
    DV_ACL_LOCKED();
    (void)ptr, (void)size, (void)flag;
    return not_simulated("aclrtMemAllocManaged", UVM);
}

aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag)
{
    DV_ACL_LOCKED();
    (void)ptr, (void)size, (void)flag;
    return not_simulated("aclrtHostRegisterV2", UVM);
}

aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag)
{
    DV_ACL_LOCKED();
    (void)pHost, (void)pDevice, (void)flag;
    return not_simulated("aclrtHostGetDevicePointer", UVM);
}

aclError aclrtHostUnregister(void *ptr)
{
    DV_ACL_LOCKED();
    (void)ptr;
    return not_simulated("aclrtHostUnregister", UVM);
}

/* ---------------------------------------------------------------- floating point overflow */

/* The model computes with IEEE 754 arithmetic: overflow gives inf/NaN, never saturation, and no
 * overflow status is kept, so saturation mode and its stream overflow detection are not simulated. */
#define SAT_MODE "saturation mode is not simulated (the simulated device computes IEEE inf/NaN)"

aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("aclrtSetDeviceSatMode");
    if (rc == ACL_SUCCESS && mode != ACL_RT_OVERFLOW_MODE_SATURATION && mode != ACL_RT_OVERFLOW_MODE_INFNAN)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtSetDeviceSatMode: unknown mode %d", (int)mode);
    if (rc == ACL_SUCCESS && mode == ACL_RT_OVERFLOW_MODE_SATURATION)
        rc = dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtSetDeviceSatMode: not supported: " SAT_MODE);
    return rc; /* INFNAN: what the device does already */
}

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("aclrtGetDeviceSatMode");
    if (rc == ACL_SUCCESS && !mode)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceSatMode: mode is NULL");
    if (rc == ACL_SUCCESS)
        *mode = ACL_RT_OVERFLOW_MODE_INFNAN;
    return rc;
}

/* ACL_SUCCESS when stream (NULL: the default stream) is a live stream. */
static int overflow_stream(const char *api, aclrtStream stream)
{
    int rc = dv_acl_check_device(api);
    if (rc == ACL_SUCCESS)
        (void)dv_acl_tape_of(stream, api, &rc);
    return rc;
}

aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag)
{
    DV_ACL_LOCKED();
    int rc = overflow_stream("aclrtSetStreamOverflowSwitch", stream);
    if (rc == ACL_SUCCESS && flag != 0)
        rc = dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                         "aclrtSetStreamOverflowSwitch: not supported: overflow detection needs " SAT_MODE);
    return rc; /* 0: detection off, as it always is */
}

aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t *flag)
{
    DV_ACL_LOCKED();
    int rc = overflow_stream("aclrtGetStreamOverflowSwitch", stream);
    if (rc == ACL_SUCCESS && !flag)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetStreamOverflowSwitch: flag is NULL");
    if (rc == ACL_SUCCESS)
        *flag = 0;
    return rc;
}

aclError aclrtGetOverflowStatus(void *outputAddr, size_t outputSize, aclrtStream stream)
{
    DV_ACL_LOCKED();
    (void)outputAddr;
    (void)outputSize;
    int rc = overflow_stream("aclrtGetOverflowStatus", stream);
    return rc != ACL_SUCCESS ? rc
                             : dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                           "aclrtGetOverflowStatus: not supported: no overflow status is kept: " SAT_MODE);
}

aclError aclrtResetOverflowStatus(aclrtStream stream)
{
    DV_ACL_LOCKED();
    int rc = overflow_stream("aclrtResetOverflowStatus", stream);
    return rc != ACL_SUCCESS
               ? rc
               : dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                             "aclrtResetOverflowStatus: not supported: no overflow status is kept: " SAT_MODE);
}

/* ---------------------------------------------------------------- CANN attributes and compatibility */

/* Each attribute and whether dvsim offers it. */
static const struct {
    aclCannAttr attr;
    int32_t available;
} CANN_ATTRS[] = {
    {ACL_CANN_ATTR_INF_NAN, 1},     /* IEEE inf/NaN (aclrtGetDeviceSatMode) */
    {ACL_CANN_ATTR_BF16, 1},        /* ACL_BF16 tensors (docs/OPS.md) */
    {ACL_CANN_ATTR_JIT_COMPILE, 0}, /* operators are simulated, never compiled online */
};
#define N_CANN_ATTRS (sizeof CANN_ATTRS / sizeof CANN_ATTRS[0])

aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num)
{
    DV_ACL_LOCKED();
    static aclCannAttr list[N_CANN_ATTRS];
    if (!cannAttrList || !num)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclGetCannAttributeList: %s is NULL",
                           !cannAttrList ? "cannAttrList" : "num");
    for (size_t i = 0; i < N_CANN_ATTRS; i++)
        list[i] = CANN_ATTRS[i].attr;
    *cannAttrList = list;
    *num = N_CANN_ATTRS;
    return ACL_SUCCESS;
}

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value)
{
    DV_ACL_LOCKED();
    if (!value)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclGetCannAttribute: value is NULL");
    for (size_t i = 0; i < N_CANN_ATTRS; i++)
        if (CANN_ATTRS[i].attr == cannAttr) {
            *value = CANN_ATTRS[i].available;
            return ACL_SUCCESS;
        }
    return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclGetCannAttribute: unknown attribute %d", (int)cannAttr);
}

aclError aclrtCheckArchCompatibility(const char *socVersion, int32_t *canCompatible)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_init("aclrtCheckArchCompatibility");
    if (rc == ACL_SUCCESS && (!socVersion || !canCompatible))
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtCheckArchCompatibility: %s is NULL",
                         !socVersion ? "socVersion" : "canCompatible");
    if (rc != ACL_SUCCESS)
        return rc;
    const char *soc = aclrtGetSocName(); /* the session's, after aclInit */
    *canCompatible = soc && !strcmp(socVersion, soc);
    return ACL_SUCCESS;
}

/* ---------------------------------------------------------------- stream configurations */

aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void)
{
    DV_ACL_LOCKED();
    aclrtStreamConfigHandle *h = calloc(1, sizeof *h);
    if (!h)
        dv_acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtCreateStreamConfigHandle: out of memory");
    return h;
}

aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle)
{
    DV_ACL_LOCKED();
    if (!handle)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStreamConfigHandle: handle is NULL");
    free(handle);
    return ACL_SUCCESS;
}

aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr, const void *attrValue,
                                 size_t valueSize)
{
    DV_ACL_LOCKED();
    const char *api = "aclrtSetStreamConfigOpt";
    if (!handle || !attrValue)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %s is NULL", api, !handle ? "handle" : "attrValue");
    switch (attr) {
    case ACL_RT_STREAM_FLAG:
        if (valueSize == sizeof(uint32_t)) {
            uint32_t v;
            memcpy(&v, attrValue, sizeof v);
            handle->flag = v;
        } else if (valueSize == sizeof(uint64_t)) {
            uint64_t v;
            memcpy(&v, attrValue, sizeof v);
            handle->flag = (size_t)v;
        } else {
            return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: ACL_RT_STREAM_FLAG takes 4 or 8 bytes, not %zu", api,
                               valueSize);
        }
        return ACL_SUCCESS;
    case ACL_RT_STREAM_PRIORITY:
        if (valueSize != sizeof(uint32_t))
            return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: ACL_RT_STREAM_PRIORITY takes 4 bytes, not %zu", api,
                               valueSize);
        memcpy(&handle->priority, attrValue, sizeof handle->priority);
        return ACL_SUCCESS;
    case ACL_RT_STREAM_WORK_ADDR_PTR:
    case ACL_RT_STREAM_WORK_SIZE:
        return dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                           "%s: not supported: a model stream's work memory (attribute %d) is not simulated", api,
                           (int)attr);
    }
    return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: unknown attribute %d", api, (int)attr);
}

aclError aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle)
{
    DV_ACL_LOCKED();
    if (!handle)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamV2: handle is NULL");
    if (handle->flag > UINT32_MAX)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamV2: flags 0x%zx are not ACL_STREAM_* flags",
                           handle->flag);
    return aclrtCreateStreamWithConfig(stream, handle->priority, (uint32_t)handle->flag);
}
