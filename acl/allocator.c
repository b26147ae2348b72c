/* acl/allocator.c - user allocators registered per stream (acl/acl_rt_allocator.h).  The runtime
 * allocates nothing of its own on a stream, so a registered allocator is only kept and reported
 * back (aclrtAllocatorGetByStream); docs/ACL.md, "Runtime families". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "acl/acl_rt_allocator.h"

#define DESC_MAGIC 0xA110Cu

typedef struct desc {
    aclrtAllocator obj;
    aclrtAllocatorAllocFunc alloc;
    aclrtAllocatorFreeFunc free;
    aclrtAllocatorAllocAdviseFunc advise;
    aclrtAllocatorGetAddrFromBlockFunc addr;
} desc_t;

/* One registration per stream: the stream handle and a copy of the descriptor. */
#define REGS 64
static struct {
    aclrtStream stream;
    desc_t d;
    aclrtAllocatorDesc from;
    bool used;
} g_regs[REGS];

static int desc_get(aclrtAllocatorDesc d, const char *api, desc_t **out)
{
    if (!d || !dv_acl_handle_is(d, DESC_MAGIC))
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %p is not a live allocator descriptor", api, d);
    *out = d;
    return ACL_SUCCESS;
}

aclrtAllocatorDesc aclrtAllocatorCreateDesc(void)
{
    DV_ACL_LOCKED();
    desc_t *d = calloc(1, sizeof *d);
    if (!d) {
        dv_acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtAllocatorCreateDesc: out of memory");
        return NULL;
    }
    if (dv_acl_handle_add(d, DESC_MAGIC) != ACL_SUCCESS) {
        free(d);
        return NULL;
    }
    return d;
}

aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc)
{
    DV_ACL_LOCKED();
    desc_t *d = NULL;
    int rc = desc_get(allocatorDesc, "aclrtAllocatorDestroyDesc", &d);
    if (rc == ACL_SUCCESS) {
        dv_acl_handle_del(d);
        free(d);
    }
    return rc;
}

#define SETTER(fn, field, type, what)                                                    \
    aclError fn(aclrtAllocatorDesc allocatorDesc, type v)                                \
    {                                                                                    \
        DV_ACL_LOCKED();                                                                 \
        desc_t *d = NULL;                                                                \
        int rc = desc_get(allocatorDesc, #fn, &d);                                       \
        if (rc == ACL_SUCCESS && !v)                                                     \
            rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %s is NULL", #fn, what);       \
        if (rc == ACL_SUCCESS)                                                           \
            d->field = v;                                                                \
        return rc;                                                                       \
    }
SETTER(aclrtAllocatorSetObjToDesc, obj, aclrtAllocator, "allocator")
SETTER(aclrtAllocatorSetAllocFuncToDesc, alloc, aclrtAllocatorAllocFunc, "func")
SETTER(aclrtAllocatorSetFreeFuncToDesc, free, aclrtAllocatorFreeFunc, "func")
SETTER(aclrtAllocatorSetAllocAdviseFuncToDesc, advise, aclrtAllocatorAllocAdviseFunc, "func")
SETTER(aclrtAllocatorSetGetAddrFromBlockFuncToDesc, addr, aclrtAllocatorGetAddrFromBlockFunc, "func")

/* The registration of stream (a live stream: checked through its id), or -1. */
static int reg_find(aclrtStream stream, const char *api, int *slot)
{
    int32_t id = 0;
    int rc = aclrtStreamGetId(stream, &id);
    *slot = -1;
    if (rc != ACL_SUCCESS) {
        char why[512];
        snprintf(why, sizeof why, "%s", aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "");
        return dv_acl_fail(rc, "%s: %s", api, why);
    }
    for (int i = 0; i < REGS; i++)
        if (g_regs[i].used && g_regs[i].stream == stream)
            *slot = i;
    return ACL_SUCCESS;
}

aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc)
{
    DV_ACL_LOCKED();
    desc_t *d = NULL;
    int slot = -1;
    int rc = desc_get(allocatorDesc, "aclrtAllocatorRegister", &d);
    if (rc == ACL_SUCCESS && (!d->obj || !d->alloc || !d->free || !d->addr))
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtAllocatorRegister: the descriptor needs its allocator object and "
                         "its alloc, free and get-address functions set");
    if (rc == ACL_SUCCESS)
        rc = reg_find(stream, "aclrtAllocatorRegister", &slot);
    for (int i = 0; rc == ACL_SUCCESS && slot < 0 && i < REGS; i++)
        if (!g_regs[i].used)
            slot = i;
    if (rc == ACL_SUCCESS && slot < 0)
        rc = dv_acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtAllocatorRegister: more than %d streams with an "
                         "allocator", REGS);
    if (rc == ACL_SUCCESS) {
        g_regs[slot].used = true;
        g_regs[slot].stream = stream;
        g_regs[slot].d = *d;
        g_regs[slot].from = allocatorDesc;
    }
    return rc;
}

aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc, aclrtAllocator *allocator,
                                   aclrtAllocatorAllocFunc *allocFunc, aclrtAllocatorFreeFunc *freeFunc,
                                   aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
                                   aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc)
{
    DV_ACL_LOCKED();
    int slot = -1;
    int rc = reg_find(stream, "aclrtAllocatorGetByStream", &slot);
    if (rc == ACL_SUCCESS && slot < 0)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtAllocatorGetByStream: no allocator is registered for the stream");
    if (rc != ACL_SUCCESS)
        return rc;
    if (allocatorDesc)
        *allocatorDesc = g_regs[slot].from;
    if (allocator)
        *allocator = g_regs[slot].d.obj;
    if (allocFunc)
        *allocFunc = g_regs[slot].d.alloc;
    if (freeFunc)
        *freeFunc = g_regs[slot].d.free;
    if (allocAdviseFunc)
        *allocAdviseFunc = g_regs[slot].d.advise;
    if (getAddrFromBlockFunc)
        *getAddrFromBlockFunc = g_regs[slot].d.addr;
    return ACL_SUCCESS;
}

aclError aclrtAllocatorUnregister(aclrtStream stream)
{
    DV_ACL_LOCKED();
    int slot = -1;
    int rc = reg_find(stream, "aclrtAllocatorUnregister", &slot);
    if (rc == ACL_SUCCESS && slot >= 0)
        memset(&g_regs[slot], 0, sizeof g_regs[slot]);
    return rc;
}
