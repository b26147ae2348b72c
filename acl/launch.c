/* acl/launch.c - custom kernels and traces on a stream (dvsim/acl_launch.h): dvsimLaunchKernel
 * and dvsimLaunchTrace check their GM arguments against the allocations and queue the kernel like
 * any other launch (dv_acl_enqueue_launch, stream.c). */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "dv/kapi.h"
#include "dv/topology.h"
#include "dv/trace.h"
#include "dvsim/acl_launch.h"

static void kernel_destroy_trace(dv_kernel_t *k)
{
    dv_trace_close(k);
}

/* Raw arguments: each device pointer with the rest of its allocation. */
static int raw_args(dv_acl_launch_t *l, dv_kernel_info_t *info, void *const *gmArgs, uint32_t nGmArgs,
                    const char *api, bool sized)
{
    for (uint32_t i = 0; i < nGmArgs; i++) {
        uint64_t avail, dev = (uint64_t)(uintptr_t)gmArgs[i];
        char what[96];
        snprintf(what, sizeof what, "%s: GM argument %u", api, i);
        if (!gmArgs[i])
            return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s is NULL", what);
        /* the alias of an address in L2 mode disable (dv/kernel.h): the same memory */
        const bool bypass = dev >> DV_GM_L2_DISABLE_BIT & 1;
        dev &= ~(1ull << DV_GM_L2_DISABLE_BIT);
        int rc = dv_acl_mem_find(dev, what, NULL, &avail);
        if (rc != ACL_SUCCESS)
            return rc;
        if (sized && avail < info->args[i].bytes)
            return dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                               "%s ('%s'): the trace declares %llu bytes, the allocation has %llu bytes from there", what,
                               info->args[i].name, (unsigned long long)info->args[i].bytes, (unsigned long long)avail);
        if (!sized) {
            snprintf(info->args[i].name, sizeof info->args[i].name, "arg%u", i);
            info->args[i].bytes = avail;
            info->args[i].dtype = DV_DT_U8;
            info->args[i].dir = DV_ARG_INOUT;
        }
        if (bypass)
            info->args[i].l2 = DV_L2_DISABLE;
        l->arg[i] = (dv_acl_karg_t){.dir = info->args[i].dir, .dev = dev, .bytes = info->args[i].bytes};
    }
    l->nargs = nGmArgs;
    return ACL_SUCCESS;
}

/* While a kernel is probed, what it prints goes nowhere (the run prints it): stdout is flushed and
 * pointed at /dev/null, then back.  Returns the saved descriptor (-1: nothing to restore). */
static int quiet_begin(void)
{
    fflush(stdout);
    int saved = dup(STDOUT_FILENO), nul = open("/dev/null", O_WRONLY);
    if (saved >= 0 && nul >= 0 && dup2(nul, STDOUT_FILENO) < 0) {
        close(saved);
        saved = -1;
    }
    if (nul >= 0)
        close(nul);
    return saved;
}

static void quiet_end(int saved)
{
    fflush(stdout);
    if (saved >= 0) {
        dup2(saved, STDOUT_FILENO);
        close(saved);
    }
}

/* A C kernel (dvsimLaunchKernel), or with probe an Ascend C kernel whose kind its code decides. */
static aclError launch_fn(const char *api, const char *name, dv_kernel_fn fn, dv_kind_t kind, bool probe,
                          uint32_t blockDim, aclrtStream stream, void *const *gmArgs, uint32_t nGmArgs,
                          const void *params, size_t paramsBytes)
{
    dv_acl_launch_t l;
    dv_arg_t args[DV_ACL_MAX_KARGS];
    dv_kernel_info_t info;
    dv_error_t err;
    int rc = dv_acl_check_device(api);
    if (rc != ACL_SUCCESS)
        return rc;
    if (!name || !fn || (nGmArgs && !gmArgs))
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: name, fn or gmArgs is NULL", api);
    if (blockDim < 1 || blockDim > 65535)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: blockDim %u is not in [1, 65535]", name, blockDim);
    if (nGmArgs > DV_ACL_MAX_KARGS)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %u GM arguments, at most %d", name, nGmArgs, DV_ACL_MAX_KARGS);
    if (!probe && kind != DV_KIND_VECTOR && kind != DV_KIND_CUBE && kind != DV_KIND_MIX)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: unknown kernel kind %d", name, (int)kind);
    memset(&l, 0, sizeof l);
    memset(&info, 0, sizeof info);
    memset(args, 0, sizeof args);
    snprintf(info.name, sizeof info.name, "%s", name);
    info.blocks = blockDim;
    info.nargs = nGmArgs;
    info.args = args;
    if ((rc = raw_args(&l, &info, gmArgs, nGmArgs, name, false)) != ACL_SUCCESS)
        return rc;
    if (probe) {
        int saved = quiet_begin();
        rc = dvk_kernel_probe(dv_acl_config(), &info, fn, params, paramsBytes, &kind, &err);
        quiet_end(saved);
        if (rc != DV_OK) {
            rc = dv_acl_fail_err(ACL_ERROR_INVALID_PARAM, name, &err);
            if (!getenv("DVSIM_QUIET")) /* a <<<>>> launch's code is often ignored */
                fprintf(stderr, "dvsim: [ERROR] %s\n", aclGetRecentErrMsg());
            return rc;
        }
    }
    info.kind = kind;
    /* streams per block as the profile's topology has them; a kind no core runs (a mix kernel on a
     * coupled chip) keeps one, and the model refuses it with the reason */
    const uint32_t subs = dv_topo_kernel_subs(dv_acl_config(), kind);
    info.subs = subs ? subs : 1;
    if (dvk_kernel_create(dv_acl_config(), &info, fn, params, paramsBytes, &l.kernel, &err) != DV_OK)
        return dv_acl_fail_err(ACL_ERROR_INVALID_PARAM, name, &err);
    l.kernel_destroy = dvk_kernel_destroy;
    snprintf(l.op_type, sizeof l.op_type, "%s", name);
    snprintf(l.op_name, sizeof l.op_name, "%s", name);
    return dv_acl_enqueue_launch(stream, &l);
}

aclError dvsimLaunchKernel(const char *name, dv_kernel_fn fn, dv_kind_t kind, uint32_t blockDim, aclrtStream stream,
                           void *const *gmArgs, uint32_t nGmArgs, const void *params, size_t paramsBytes)
{
    DV_ACL_LOCKED();
    return launch_fn("dvsimLaunchKernel", name, fn, kind, false, blockDim, stream, gmArgs, nGmArgs, params,
                     paramsBytes);
}

aclError dvsimLaunchAscendC(const char *name, dv_kernel_fn fn, int declaredKind, uint32_t blockDim, aclrtStream stream,
                            void *const *gmArgs, uint32_t nGmArgs, const void *params, size_t paramsBytes)
{
    DV_ACL_LOCKED();
    if (declaredKind >= 0 && declaredKind != DV_KIND_VECTOR && declaredKind != DV_KIND_CUBE && declaredKind != DV_KIND_MIX)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "dvsimLaunchAscendC: %s: unknown kernel kind %d", name ? name : "?",
                           declaredKind);
    return launch_fn("dvsimLaunchAscendC", name, fn, declaredKind < 0 ? DV_KIND_VECTOR : (dv_kind_t)declaredKind,
                     declaredKind < 0, blockDim, stream, gmArgs, nGmArgs, params, paramsBytes);
}

/* Called from a kernel function while the host thread that runs it waits inside the run (the
 * generator's strict hand-off), so the allocation table is not changing: no lock (taking it here
 * would deadlock with that host thread). */
aclError dvsimDeviceAccess(uint64_t dev, void *buf, size_t bytes, int write)
{
    if (!dvk_current())
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "dvsimDeviceAccess: only a running kernel may call it");
    uint8_t *host;
    uint64_t avail;
    int rc = dv_acl_mem_find(dev, "GM scalar access", &host, &avail);
    if (rc != ACL_SUCCESS)
        return rc;
    if (avail < bytes)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "GM scalar access: %zu bytes at 0x%llx pass the allocation's end",
                           bytes, (unsigned long long)dev);
    if (write)
        memcpy(host, buf, bytes);
    else
        memcpy(buf, host, bytes);
    return ACL_SUCCESS;
}

aclError dvsimLaunchTrace(const char *path, aclrtStream stream, void *const *gmArgs, uint32_t nGmArgs)
{
    DV_ACL_LOCKED();
    dv_acl_launch_t l;
    dv_error_t err;
    int rc = dv_acl_check_device("dvsimLaunchTrace");
    if (rc != ACL_SUCCESS)
        return rc;
    if (!path || (nGmArgs && !gmArgs))
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "dvsimLaunchTrace: path or gmArgs is NULL");
    memset(&l, 0, sizeof l);
    if (dv_trace_open(path, &l.kernel, &err) != DV_OK)
        return dv_acl_fail_err(ACL_ERROR_INVALID_FILE, "dvsimLaunchTrace", &err);
    l.kernel_destroy = kernel_destroy_trace;
    /* a trace written for another core layout is refused at its kind= field, as dvsim run does */
    if (dv_trace_check_profile(l.kernel, dv_acl_config(), &err) != DV_OK)
        rc = dv_acl_fail_err(ACL_ERROR_INVALID_PARAM, "dvsimLaunchTrace", &err);
    else if (l.kernel->info.nargs != nGmArgs || nGmArgs > DV_ACL_MAX_KARGS)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "dvsimLaunchTrace: %s declares %u GM arguments, %u were given", path,
                         l.kernel->info.nargs, nGmArgs);
    else
        rc = raw_args(&l, &l.kernel->info, gmArgs, nGmArgs, path, true);
    if (rc != ACL_SUCCESS) {
        dv_trace_close(l.kernel);
        return rc;
    }
    snprintf(l.op_type, sizeof l.op_type, "%s", l.kernel->info.name);
    snprintf(l.op_name, sizeof l.op_name, "%s", l.kernel->info.name);
    return dv_acl_enqueue_launch(stream, &l);
}
