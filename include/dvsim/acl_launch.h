/* dvsim/acl_launch.h - launching your own kernels through the AscendCL shim.
 *
 * CANN's build generates, per kernel, a header aclrtlaunch_<name>.h declaring
 *     uint32_t aclrtlaunch_<name>(uint32_t blockDim, aclrtStream stream, void *x, ...);
 * which client code calls as ACLRT_LAUNCH_KERNEL(<name>)(blockDim, stream, x, ...).  With dvsim the
 * kernel is a C function written against dv/kapi.h, and aclrtlaunch_<name> is a few lines that call
 * dvsimLaunchKernel (examples/custom_kernel shows one).  A recorded trace (dvsim record, or a
 * hand-written .trace file) launches with dvsimLaunchTrace.
 *
 * Both queue the kernel on the stream like any other task; it runs when the host synchronises.
 * GM arguments are device pointers from aclrtMalloc: the kernel's argument i spans from gmArgs[i] to
 * the end of its allocation, and an access beyond that fails the launch (the synchronising call
 * returns ACL_ERROR_RT_AICORE_EXCEPTION or, for vector kernels on a split chip,
 * ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, with the model's message in aclGetRecentErrMsg). */
#ifndef DVSIM_ACL_LAUNCH_H
#define DVSIM_ACL_LAUNCH_H

#include "acl/acl_base.h"
#include "dv/kapi.h"

#ifndef ACLRT_LAUNCH_KERNEL
#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Queue C kernel `fn` (run once per block and sub-stream, see dv/kapi.h) of the given kind on
 * `stream` with blockDim blocks in [1, 65535].  `params` (paramsBytes, copied) reaches the kernel
 * as its second argument: the scalar arguments and tiling of the launch. */
ACL_FUNC_VISIBILITY aclError dvsimLaunchKernel(const char *name, dv_kernel_fn fn, dv_kind_t kind, uint32_t blockDim,
                                               aclrtStream stream, void *const *gmArgs, uint32_t nGmArgs,
                                               const void *params, size_t paramsBytes);

/* Queue an Ascend C kernel (dvcc's `kernel<<<blockDim, l2ctrl, stream>>>(args...)`, see
 * include/ascendc/): as dvsimLaunchKernel, with the kind the kernel declares (__vector__, __cube__,
 * __mix__: a dv_kind_t) or, with declaredKind -1, the kind its code implies on each core type
 * (dvk_kernel_probe), as CANN's compiler finds it.  A NULL GM argument is not allowed here; the
 * caller leaves NULL pointers out. */
ACL_FUNC_VISIBILITY aclError dvsimLaunchAscendC(const char *name, dv_kernel_fn fn, int declaredKind, uint32_t blockDim,
                                                aclrtStream stream, void *const *gmArgs, uint32_t nGmArgs,
                                                const void *params, size_t paramsBytes);

/* Scalar access to device memory from a running kernel function (Ascend C's GlobalTensor
 * GetValue / SetValue and tiling read from GM): `bytes` at device address `dev`, read into buf or
 * (write != 0) written from it, at the time the kernel generates its instructions, i.e. before the
 * instructions emitted so far have run.  ACL_ERROR_INVALID_PARAM outside a kernel or outside an
 * allocation. */
ACL_FUNC_VISIBILITY aclError dvsimDeviceAccess(uint64_t dev, void *buf, size_t bytes, int write);

/* The first device address and the size of each live device allocation, in address order: up to cap of
 * them into dev and bytes; returns how many there are.  An Ascend C launch adds those its arguments do
 * not point into to its GM arguments, so that a kernel may follow device pointers it reads from GM
 * (ListTensorDesc). */
ACL_FUNC_VISIBILITY size_t dvsimDeviceAllocations(uint64_t *dev, uint64_t *bytes, size_t cap);

/* The chip profile of preset `preset` (e.g. "ascend910b1"), or with NULL the one aclInit would
 * choose from the environment (DVSIM_PROFILE, DVSIM_CONFIG), into *profile; needs no aclInit (the
 * Ascend C host tiling API, platform_ascendc, runs before it).  ACL_ERROR_INVALID_PARAM with the
 * reason for an unknown preset or a bad profile file. */
ACL_FUNC_VISIBILITY aclError dvsimChipProfile(const char *preset, dv_config_t *profile);

/* Queue the kernel of a trace file on `stream`; gmArgs[i] replaces the trace's argument i (its
 * allocation must hold the trace's declared bytes from there; the trace's init= is ignored). */
ACL_FUNC_VISIBILITY aclError dvsimLaunchTrace(const char *path, aclrtStream stream, void *const *gmArgs,
                                              uint32_t nGmArgs);

#ifdef __cplusplus
}
#endif
#endif
