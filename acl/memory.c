/* acl/memory.c - simulated device memory (HBM) behind aclrtMalloc, host memory, data buffers.
 *
 * An allocation is a range of device addresses from DV_ACL_DEV_BASE, DV_GM_ALIGN-aligned, inside
 * hbm.capacity_bytes of the profile, backed by anonymous host pages that are committed only when
 * touched (so a large allocation costs nothing until it is used).  The whole device range is mapped
 * at those very addresses where the host allows it (it normally does: the range is far from what
 * programs use), so that device pointers can be dereferenced by kernel code on the host.  Allocations are kept sorted by
 * address; placement is first fit. */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h"
#include "dv/intmath.h"
#include "dv/semantics.h"
#include "dv/sim.h"
#include "dvsim/acl_launch.h"

typedef struct alloc {
    uint64_t dev;      /* first device address */
    uint64_t bytes;    /* as requested */
    uint64_t span;     /* bytes rounded up to DV_GM_ALIGN: the address range it occupies */
    uint8_t *host;     /* backing pages: dev itself inside the window, else a mapping of its own */
} alloc_t;

/* The device window, [DV_ACL_DEV_BASE, + hbm.capacity_bytes), mapped at those very addresses
 * (virtual only: a page is committed when first touched), so that host == dev; NULL when the host's
 * address space has no room there, and each allocation then maps its own pages elsewhere. */
static struct {
    uint8_t *base;
    uint64_t bytes;
    bool tried;
} g_win;

static struct {
    alloc_t *a;
    size_t n, cap;
    size_t packed;     /* a[0 .. packed) lie end to end from DV_ACL_DEV_BASE: first fit looks after them */
    uint64_t used;     /* sum of spans */
} g_mem;

static struct {
    void **p;
    size_t *bytes;     /* the size of each */
    size_t n, cap;
} g_host;

/* The aclrtMallocHost allocation holding p and the bytes from p to its end, or false. */
static bool host_find(const void *p, size_t *avail)
{
    for (size_t i = 0; i < g_host.n; i++) {
        const uint8_t *b = g_host.p[i];
        if ((const uint8_t *)p >= b && (const uint8_t *)p < b + g_host.bytes[i]) {
            *avail = g_host.bytes[i] - (size_t)((const uint8_t *)p - b);
            return true;
        }
    }
    return false;
}

/* Index of the allocation holding dev, or -1. */
static long mem_index(uint64_t dev)
{
    size_t lo = 0, hi = g_mem.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (g_mem.a[mid].dev + g_mem.a[mid].bytes <= dev)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g_mem.n && g_mem.a[lo].dev <= dev && dev < g_mem.a[lo].dev + g_mem.a[lo].bytes ? (long)lo : -1;
}

/* True when p lies in the device address window (an allocation or not). */
static bool is_dev_addr(const void *p)
{
    const dv_config_t *cfg = dv_acl_config();
    uint64_t a = (uint64_t)(uintptr_t)p;
    return cfg && a >= DV_ACL_DEV_BASE && a - DV_ACL_DEV_BASE < cfg->hbm_capacity_bytes;
}

size_t dvsimDeviceAllocations(uint64_t *dev, uint64_t *bytes, size_t cap)
{
    for (size_t i = 0; i < g_mem.n && i < cap; i++) {
        dev[i] = g_mem.a[i].dev;
        bytes[i] = g_mem.a[i].bytes;
    }
    return g_mem.n;
}

int dv_acl_mem_find(uint64_t dev, const char *what, uint8_t **host, uint64_t *avail)
{
    long i = mem_index(dev);
    if (i < 0)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: address 0x%llx is not inside a device allocation", what,
                           (unsigned long long)dev);
    if (host)
        *host = g_mem.a[i].host + (dev - g_mem.a[i].dev);
    if (avail)
        *avail = g_mem.a[i].dev + g_mem.a[i].bytes - dev;
    return ACL_SUCCESS;
}

static bool in_window(const alloc_t *a) { return g_win.base && a->host == (uint8_t *)(uintptr_t)a->dev; }

void dv_acl_mem_reset(void)
{
    for (size_t i = 0; i < g_mem.n; i++)
        if (!in_window(&g_mem.a[i]))
            munmap(g_mem.a[i].host, g_mem.a[i].span);
    if (g_win.base)
        munmap(g_win.base, g_win.bytes);
    memset(&g_win, 0, sizeof g_win);
    free(g_mem.a);
    memset(&g_mem, 0, sizeof g_mem);
    for (size_t i = 0; i < g_host.n; i++)
        free(g_host.p[i]);
    free(g_host.p);
    free(g_host.bytes);
    memset(&g_host, 0, sizeof g_host);
}

/* ---------------------------------------------------------------- device allocation */

static int dev_malloc(void **devPtr, size_t size, const char *api)
{
    int rc = dv_acl_check_device(api);
    if (rc != ACL_SUCCESS)
        return rc;
    if (!devPtr)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: devPtr is NULL", api);
    *devPtr = NULL;
    const dv_config_t *cfg = dv_acl_config();
    if (size == 0)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: size is 0", api);
    uint64_t span = dv_round_up((uint64_t)size, DV_GM_ALIGN);
    if (span < size || span > cfg->hbm_capacity_bytes - g_mem.used)
        return dv_acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                           "%s: %zu bytes do not fit in device memory: %llu of hbm.capacity_bytes %llu are in use", api,
                           size, (unsigned long long)g_mem.used, (unsigned long long)cfg->hbm_capacity_bytes);
    /* first fit between the sorted allocations (none fits before the packed ones) */
    size_t pos = g_mem.packed;
    uint64_t at = pos ? g_mem.a[pos - 1].dev + g_mem.a[pos - 1].span : DV_ACL_DEV_BASE;
    for (; pos < g_mem.n; pos++) {
        if (g_mem.a[pos].dev - at >= span)
            break;
        at = g_mem.a[pos].dev + g_mem.a[pos].span;
    }
    if (at - DV_ACL_DEV_BASE + span > cfg->hbm_capacity_bytes)
        return dv_acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                           "%s: no free range of %llu bytes in device memory (fragmented; hbm.capacity_bytes %llu)", api,
                           (unsigned long long)span, (unsigned long long)cfg->hbm_capacity_bytes);
    if (g_mem.n == g_mem.cap) {
        size_t cap = g_mem.cap ? 2 * g_mem.cap : 64;
        alloc_t *a = realloc(g_mem.a, cap * sizeof *a);
        if (!a)
            return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "%s: out of host memory", api);
        g_mem.a = a;
        g_mem.cap = cap;
    }
    if (!g_win.tried) { /* once per session: the window at its device addresses, if the host allows */
        g_win.tried = true;
        const uint64_t bytes = dv_round_up(cfg->hbm_capacity_bytes, 4096);
        void *w = mmap((void *)(uintptr_t)DV_ACL_DEV_BASE, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
        if (w != MAP_FAILED && w != (void *)(uintptr_t)DV_ACL_DEV_BASE)
            munmap(w, bytes); /* a kernel that took the address as a hint only */
        else if (w != MAP_FAILED)
            g_win.base = w, g_win.bytes = bytes;
    }
    void *host = g_win.base ? (void *)(uintptr_t)at
                            : mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (host == MAP_FAILED)
        return dv_acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: cannot map %llu bytes of host memory to back it", api,
                           (unsigned long long)span);
    memmove(&g_mem.a[pos + 1], &g_mem.a[pos], (g_mem.n - pos) * sizeof *g_mem.a);
    g_mem.a[pos] = (alloc_t){at, size, span, host};
    g_mem.n++;
    if (pos == g_mem.packed) /* it starts where the packed ones end */
        g_mem.packed++;
    g_mem.used += span;
    *devPtr = (void *)(uintptr_t)at;
    return ACL_SUCCESS;
}

static int check_policy(aclrtMemMallocPolicy policy, const char *api)
{
    unsigned base = (unsigned)policy & 0xFFu;
    if (base > ACL_MEM_MALLOC_HUGE1G_ONLY_P2P)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: unknown malloc policy %u", api, (unsigned)policy);
    return ACL_SUCCESS;
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    DV_ACL_LOCKED();
    int rc = check_policy(policy, "aclrtMalloc");
    return rc != ACL_SUCCESS ? rc : dev_malloc(devPtr, size, "aclrtMalloc");
}

aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    DV_ACL_LOCKED();
    int rc = check_policy(policy, "aclrtMallocAlign32");
    return rc != ACL_SUCCESS ? rc : dev_malloc(devPtr, size, "aclrtMallocAlign32");
}

aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    DV_ACL_LOCKED();
    int rc = check_policy(policy, "aclrtMallocCached");
    return rc != ACL_SUCCESS ? rc : dev_malloc(devPtr, size, "aclrtMallocCached");
}

aclError aclrtFree(void *devPtr)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("aclrtFree");
    if (rc != ACL_SUCCESS)
        return rc;
    if (!devPtr)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtFree: devPtr is NULL");
    uint64_t dev = (uint64_t)(uintptr_t)devPtr;
    long i = mem_index(dev);
    if (i < 0 || g_mem.a[i].dev != dev)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                           i < 0 ? "aclrtFree: %p is not a live device allocation (never allocated, or freed already)"
                                 : "aclrtFree: %p points inside an allocation, not at its start",
                           devPtr);
    /* queued work may still use it: run it first, as the device would finish it before the free */
    dv_acl_drain();
    i = mem_index(dev); /* a host callback of that work may have freed it */
    if (i < 0 || g_mem.a[i].dev != dev)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtFree: %p was freed by a host callback while the queued work ran", devPtr);
    alloc_t *a = &g_mem.a[i];
    if (in_window(a)) {
        /* the next allocation here reads zeros, as a fresh mapping does: whole pages go back to the
         * host, the bytes of pages shared with a neighbour are cleared */
        const uint64_t lo = dv_round_up(a->dev, 4096), hi = (a->dev + a->span) & ~4095ull;
        if (lo < hi) {
            memset(a->host, 0, lo - a->dev);
            madvise((void *)(uintptr_t)lo, hi - lo, MADV_DONTNEED);
            memset((void *)(uintptr_t)hi, 0, a->dev + a->span - hi);
        } else {
            memset(a->host, 0, a->span);
        }
    } else {
        munmap(a->host, a->span);
    }
    g_mem.used -= g_mem.a[i].span;
    memmove(&g_mem.a[i], &g_mem.a[i + 1], (g_mem.n - (size_t)i - 1) * sizeof *g_mem.a);
    g_mem.n--;
    if ((size_t)i < g_mem.packed) /* a gap where it was */
        g_mem.packed = (size_t)i;
    return ACL_SUCCESS;
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *freeBytes, size_t *total)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("aclrtGetMemInfo");
    if (rc != ACL_SUCCESS)
        return rc;
    if (!freeBytes || !total)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: free or total is NULL");
    if ((int)attr < ACL_DDR_MEM || (int)attr > ACL_HBM_MEM_NORMAL)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: unknown memory attribute %d", (int)attr);
    const dv_config_t *cfg = dv_acl_config();
    *total = (size_t)cfg->hbm_capacity_bytes;
    *freeBytes = (size_t)(cfg->hbm_capacity_bytes - g_mem.used);
    return ACL_SUCCESS;
}

/* ---------------------------------------------------------------- host memory */

aclError aclrtMallocHost(void **hostPtr, size_t size)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("aclrtMallocHost");
    if (rc != ACL_SUCCESS)
        return rc;
    if (!hostPtr || size == 0)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: %s", hostPtr ? "size is 0" : "hostPtr is NULL");
    *hostPtr = NULL;
    if (g_host.n == g_host.cap) {
        size_t cap = g_host.cap ? 2 * g_host.cap : 64;
        void **p = realloc(g_host.p, cap * sizeof *p);
        if (p)
            g_host.p = p;
        size_t *b = p ? realloc(g_host.bytes, cap * sizeof *b) : NULL;
        if (b)
            g_host.bytes = b;
        if (!p || !b)
            return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtMallocHost: out of host memory");
        g_host.cap = cap;
    }
    void *p = NULL;
    if (posix_memalign(&p, 64, size) != 0)
        return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtMallocHost: cannot allocate %zu bytes", size);
    g_host.bytes[g_host.n] = size;
    g_host.p[g_host.n++] = p;
    *hostPtr = p;
    return ACL_SUCCESS;
}

aclError aclrtFreeHost(void *hostPtr)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("aclrtFreeHost");
    if (rc != ACL_SUCCESS)
        return rc;
    for (size_t i = 0; hostPtr && i < g_host.n; i++)
        if (g_host.p[i] == hostPtr) {
            free(hostPtr);
            g_host.p[i] = g_host.p[--g_host.n];
            g_host.bytes[i] = g_host.bytes[g_host.n];
            return ACL_SUCCESS;
        }
    return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtFreeHost: %p was not allocated by aclrtMallocHost (or is freed)",
                       hostPtr);
}

/* ---------------------------------------------------------------- copies */

/* One side of a copy: a device range must lie inside one allocation. */
static int side_check(const char *api, const char *which, const void *p, bool dev, uint64_t count)
{
    if (!p)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %s is NULL", api, which);
    if (!dev)
        return is_dev_addr(p) ? dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                                            "%s: %s %p is a device address but the copy kind says host", api, which, p)
                              : ACL_SUCCESS;
    uint64_t avail = 0;
    if (!is_dev_addr(p))
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %s %p is a host address but the copy kind says device", api,
                           which, p);
    int rc = dv_acl_mem_find((uint64_t)(uintptr_t)p, api, NULL, &avail);
    if (rc != ACL_SUCCESS)
        return rc;
    if (count > avail)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "%s: %s %p + %llu bytes runs past the end of its allocation (%llu bytes left there)", api,
                           which, p, (unsigned long long)count, (unsigned long long)avail);
    return ACL_SUCCESS;
}

int dv_acl_copy_check(const char *api, void *dst, size_t destMax, const void *src, size_t count,
                      aclrtMemcpyKind kind, dv_acl_copy_t *out)
{
    if (kind == ACL_MEMCPY_DEFAULT)
        kind = is_dev_addr(src) ? (is_dev_addr(dst) ? ACL_MEMCPY_DEVICE_TO_DEVICE : ACL_MEMCPY_DEVICE_TO_HOST)
                                : (is_dev_addr(dst) ? ACL_MEMCPY_HOST_TO_DEVICE : ACL_MEMCPY_HOST_TO_HOST);
    else if (kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE)
        kind = ACL_MEMCPY_HOST_TO_DEVICE;
    else if (kind == ACL_MEMCPY_INNER_DEVICE_TO_DEVICE)
        kind = ACL_MEMCPY_DEVICE_TO_DEVICE;
    if ((int)kind < ACL_MEMCPY_HOST_TO_HOST || (int)kind > ACL_MEMCPY_DEVICE_TO_DEVICE)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: copy kind %d is not supported (one simulated device)", api,
                           (int)kind);
    if (count > destMax)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: count %zu is larger than destMax %zu", api, count, destMax);
    bool src_dev = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
    bool dst_dev = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
    int rc = side_check(api, "dst", dst, dst_dev, count);
    if (rc == ACL_SUCCESS)
        rc = side_check(api, "src", src, src_dev, count);
    if (rc != ACL_SUCCESS)
        return rc;
    out->kind = kind;
    out->dst = (uint64_t)(uintptr_t)dst;
    out->src = (uint64_t)(uintptr_t)src;
    out->bytes = count;
    return ACL_SUCCESS;
}

int dv_acl_copy_do(const dv_acl_copy_t *c)
{
    uint8_t *d = (uint8_t *)(uintptr_t)c->dst;
    const uint8_t *s = (const uint8_t *)(uintptr_t)c->src;
    uint64_t avail = 0;
    int rc = ACL_SUCCESS;
    /* the allocations may have changed since the copy was queued: look them up again */
    if (c->kind == ACL_MEMCPY_HOST_TO_DEVICE || c->kind == ACL_MEMCPY_DEVICE_TO_DEVICE) {
        rc = dv_acl_mem_find(c->dst, "queued copy destination", &d, &avail);
        if (rc == ACL_SUCCESS && avail < c->bytes)
            rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "queued copy: the destination allocation was freed and reused");
    }
    if (rc == ACL_SUCCESS && !c->memset && (c->kind == ACL_MEMCPY_DEVICE_TO_HOST || c->kind == ACL_MEMCPY_DEVICE_TO_DEVICE)) {
        uint8_t *sp;
        rc = dv_acl_mem_find(c->src, "queued copy source", &sp, &avail);
        s = sp;
        if (rc == ACL_SUCCESS && avail < c->bytes)
            rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "queued copy: the source allocation was freed and reused");
    }
    size_t host_avail = 0;
    if (rc == ACL_SUCCESS && c->memset && c->kind == ACL_MEMCPY_HOST_TO_HOST &&
        (!host_find(d, &host_avail) || host_avail < c->bytes))
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "queued memset: its aclrtMallocHost memory was freed");
    if (rc != ACL_SUCCESS)
        return rc;
    if (c->memset)
        memset(d, c->value, c->bytes);
    else
        memmove(d, s, c->bytes);
    return ACL_SUCCESS;
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind)
{
    DV_ACL_LOCKED();
    dv_acl_copy_t c = {0};
    int rc = dv_acl_check_device("aclrtMemcpy");
    if (rc == ACL_SUCCESS)
        rc = dv_acl_copy_check("aclrtMemcpy", dst, destMax, src, count, kind, &c);
    if (rc == ACL_SUCCESS)
        rc = dv_acl_enqueue_copy(NULL, &c, true);
    return rc;
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream)
{
    DV_ACL_LOCKED();
    dv_acl_copy_t c = {0};
    int rc = dv_acl_check_device("aclrtMemcpyAsync");
    if (rc == ACL_SUCCESS)
        rc = dv_acl_copy_check("aclrtMemcpyAsync", dst, destMax, src, count, kind, &c);
    if (rc == ACL_SUCCESS)
        rc = dv_acl_enqueue_copy(stream, &c, false);
    return rc;
}

aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                       aclrtMemcpyKind kind)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("aclrtMemcpy2d");
    if (rc != ACL_SUCCESS)
        return rc;
    if (width > dpitch || width > spitch || height == 0 || width == 0)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclrtMemcpy2d: width %zu must be in [1, min(dpitch %zu, spitch %zu)] and height %zu > 0",
                           width, dpitch, spitch, height);
    /* check every row first, so a bad row copies nothing; then queue them (the kind resolved once) */
    dv_acl_copy_t c = {0};
    for (size_t r = 0; r < height && rc == ACL_SUCCESS; r++)
        rc = dv_acl_copy_check("aclrtMemcpy2d", (uint8_t *)dst + r * dpitch, width, (const uint8_t *)src + r * spitch,
                               width, kind, &c);
    for (size_t r = 0; r < height && rc == ACL_SUCCESS; r++) {
        c.dst = (uint64_t)(uintptr_t)dst + r * dpitch;
        c.src = (uint64_t)(uintptr_t)src + r * spitch;
        rc = dv_acl_enqueue_copy(NULL, &c, r + 1 == height);
    }
    return rc;
}

static int memset_check(const char *api, void *devPtr, size_t maxCount, int32_t value, size_t count,
                        dv_acl_copy_t *c)
{
    int rc = dv_acl_check_device(api);
    if (rc != ACL_SUCCESS)
        return rc;
    if (count > maxCount)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: count %zu is larger than maxCount %zu", api, count, maxCount);
    /* as CANN, host or device is decided from the address: host memory must come from aclrtMallocHost */
    size_t avail = 0;
    const bool host = devPtr && !is_dev_addr(devPtr);
    if (host && !host_find(devPtr, &avail))
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "%s: devPtr %p is neither device memory nor inside an aclrtMallocHost allocation", api, devPtr);
    if (host && count > avail)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "%s: devPtr %p + %zu bytes runs past the end of its aclrtMallocHost allocation (%zu bytes "
                           "left there)", api, devPtr, count, avail);
    if (!host && (rc = side_check(api, "devPtr", devPtr, true, count)) != ACL_SUCCESS)
        return rc;
    c->kind = host ? ACL_MEMCPY_HOST_TO_HOST : ACL_MEMCPY_DEVICE_TO_DEVICE;
    c->memset = true;
    c->value = (uint8_t)value;
    c->dst = (uint64_t)(uintptr_t)devPtr;
    c->bytes = count;
    return ACL_SUCCESS;
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count)
{
    DV_ACL_LOCKED();
    dv_acl_copy_t c = {0};
    int rc = memset_check("aclrtMemset", devPtr, maxCount, value, count, &c);
    return rc != ACL_SUCCESS ? rc : dv_acl_enqueue_copy(NULL, &c, true);
}

aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream)
{
    DV_ACL_LOCKED();
    dv_acl_copy_t c = {0};
    int rc = memset_check("aclrtMemsetAsync", devPtr, maxCount, value, count, &c);
    return rc != ACL_SUCCESS ? rc : dv_acl_enqueue_copy(stream, &c, false);
}

/* ---------------------------------------------------------------- data buffers, types, fp16 */

struct aclDataBuffer {
    void *data;
    size_t size;
};
#define DATABUF_MAGIC 0xDA7ABFu

aclDataBuffer *aclCreateDataBuffer(void *data, size_t size)
{
    DV_ACL_LOCKED();
    aclDataBuffer *b = malloc(sizeof *b);
    if (!b) {
        dv_acl_fail(ACL_ERROR_BAD_ALLOC, "aclCreateDataBuffer: out of host memory");
        return NULL;
    }
    *b = (aclDataBuffer){data, size};
    if (dv_acl_handle_add(b, DATABUF_MAGIC) != ACL_SUCCESS) {
        free(b);
        return NULL;
    }
    return b;
}

aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer)
{
    DV_ACL_LOCKED();
    if (!dv_acl_handle_is(dataBuffer, DATABUF_MAGIC))
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclDestroyDataBuffer: not a live data buffer");
    dv_acl_handle_del(dataBuffer);
    free((void *)dataBuffer);
    return ACL_SUCCESS;
}

void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer)
{
    DV_ACL_LOCKED();
    return dv_acl_handle_is(dataBuffer, DATABUF_MAGIC) ? dataBuffer->data : NULL;
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer)
{
    DV_ACL_LOCKED();
    return dv_acl_handle_is(dataBuffer, DATABUF_MAGIC) ? dataBuffer->size : 0;
}

uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer)
{
    DV_ACL_LOCKED();
    return (uint32_t)aclGetDataBufferSizeV2(dataBuffer);
}

size_t aclDataTypeSize(aclDataType dataType)
{
    switch ((int)dataType) {
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
    case ACL_FLOAT16: case ACL_INT16: case ACL_UINT16: case ACL_BF16: return 2;
    case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
    case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    case ACL_COMPLEX32: return 4;
    default: return 0;
    }
}

float aclFloat16ToFloat(aclFloat16 value)
{
    return dv_f16_to_f32(value);
}

aclFloat16 aclFloatToFloat16(float value)
{
    return dv_f32_to_f16(value);
}
