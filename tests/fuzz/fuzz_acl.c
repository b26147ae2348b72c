/* tests/fuzz/fuzz_acl.c - AscendCL call sequences: each input is a stream of bytes decoded into calls
 * of the runtime and aclnn API (memory, copies, streams, events, host callbacks, tensors, scalars,
 * arrays, an aclnn operator), with handles that are live, freed, or never were.  The shim must answer
 * every call with a code (and a message) and never crash, leak or corrupt what it hands out: a
 * pattern written to each allocation at its creation must still be there when the input ends,
 * unless a copy or a memset of the input wrote over it.
 *
 * aclInit and aclrtSetDevice run once; at the end of each input the device is synchronised and
 * everything the input created and did not destroy is destroyed, so inputs do not depend on each
 * other.  Host pointers are always the target's own buffers (the shim cannot check host memory, and
 * neither can CANN); device pointers, streams, events and aclnn objects are fuzzed freely. */
#include "fuzz.h"

#include <stdio.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_relu.h"

enum { SLOTS = 8, HOST_BYTES = 1 << 16, MAX_ALLOC = 1 << 16 };

typedef struct in {
    const uint8_t *p;
    size_t n;
} in_t;

static unsigned byte(in_t *in)
{
    if (!in->n)
        return 0;
    in->n--;
    return *in->p++;
}

static uint64_t u16(in_t *in) { return byte(in) | (uint64_t)byte(in) << 8; }

static struct state {
    void *dev[SLOTS];
    size_t dev_size[SLOTS];
    bool dev_written[SLOTS]; /* a copy or memset may have changed its pattern */
    void *dead_dev;          /* a freed device pointer */
    void *host[SLOTS];       /* aclrtMallocHost */
    aclrtStream stream[SLOTS];
    aclrtStream dead_stream;
    aclrtEvent event[SLOTS];
    aclrtEvent dead_event;
    aclTensor *tensor[SLOTS];
    aclTensor *dead_tensor;
    aclScalar *scalar[SLOTS];
    aclIntArray *array[SLOTS];
} g;

static uint8_t g_host_buf[HOST_BYTES], g_host_src[HOST_BYTES]; /* the host sides of copies (never overlapping) */

/* A device pointer: a live allocation (possibly offset), a freed one, NULL, or an address in the
 * device range that was never handed out. */
static void *dev_ptr(in_t *in, size_t *room)
{
    const unsigned b = byte(in), k = b % SLOTS;
    *room = 0;
    switch (b >> 6) {
    case 0:
    case 1:
        if (g.dev[k]) {
            const size_t off = g.dev_size[k] ? u16(in) % (g.dev_size[k] + 64) : 0;
            *room = off < g.dev_size[k] ? g.dev_size[k] - off : 0;
            return (uint8_t *)g.dev[k] + off;
        }
        return NULL;
    case 2: return g.dead_dev;
    default: return (void *)(uintptr_t)(0x124000000000ull + (u16(in) << 12)); /* DV_ACL_DEV_BASE and on */
    }
}

static aclrtStream stream_of(in_t *in)
{
    const unsigned b = byte(in);
    return b < 32 ? NULL : b < 64 ? g.dead_stream : b < 72 ? (aclrtStream)(uintptr_t)0x1000 : g.stream[b % SLOTS];
}

static aclrtEvent event_of(in_t *in)
{
    const unsigned b = byte(in);
    return b < 32 ? NULL : b < 64 ? g.dead_event : g.event[b % SLOTS];
}

static aclTensor *tensor_of(in_t *in)
{
    const unsigned b = byte(in);
    return b < 16 ? NULL : b < 48 ? g.dead_tensor : g.tensor[b % SLOTS];
}

/* Host callbacks call back into the API, as CANN allows: what a running stream needs is refused. */
static struct cb {
    int what;
    aclrtStream stream;
    void *ptr;
} g_cb[SLOTS];

static void callback(void *user)
{
    struct cb *c = user;
    void *p = NULL;
    switch (c->what % 5) {
    case 0: (void)aclrtDestroyStream(c->stream); break;
    case 1:
        if (aclrtFree(c->ptr) == ACL_SUCCESS)
            for (unsigned k = 0; k < SLOTS; k++)
                if (g.dev[k] == c->ptr)
                    g.dev[k] = NULL, g.dead_dev = c->ptr;
        break;
    case 2:
        if (aclrtMalloc(&p, 512, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS)
            (void)aclrtFree(p);
        break;
    case 3: (void)aclrtSynchronizeDevice(); break;
    default: (void)aclrtResetDevice(0); break;
    }
}

static void make_tensor(in_t *in, unsigned k)
{
    int64_t dims[6], strides[6], storage[6];
    const unsigned nd = byte(in) % 7, ns = byte(in) % 7;
    for (unsigned i = 0; i < 6; i++) {
        dims[i] = (int64_t)(byte(in) % 70) - 2;
        strides[i] = (int64_t)(byte(in) % 70) - 2;
        storage[i] = (int64_t)(byte(in) % 70) - 2;
    }
    const aclDataType dt = (aclDataType)(byte(in) % 32);
    const int64_t offset = (int64_t)(u16(in) % 300) - 4;
    const aclFormat fmt = (aclFormat)(byte(in) % 4 == 0 ? byte(in) : ACL_FORMAT_ND);
    const bool with_strides = byte(in) & 1;
    size_t room;
    void *data = dev_ptr(in, &room);
    if (g.tensor[k])
        (void)aclDestroyTensor(g.tensor[k]);
    g.tensor[k] = aclCreateTensor(nd ? dims : NULL, nd, dt, with_strides ? strides : NULL, offset, fmt,
                                  ns ? storage : NULL, ns, data);
}

/* An aclnn operator through both phases.  Its kernel goes on a private stream whose work is then
 * dropped (aclrtStreamStop) before it is destroyed: the kernel never runs here.  The model's runs are fuzzed
 * by fuzz_trace and fuzz_op, and a run in this process would start SystemC's coroutines, whose stacks
 * LeakSanitizer cannot scan between inputs (it then reports libFuzzer's own objects as leaked). */
static void run_relu(in_t *in)
{
    aclTensor *self = tensor_of(in), *out = tensor_of(in);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    if (aclnnReluGetWorkspaceSize(self, out, &ws, &ex) != ACL_SUCCESS || !ex)
        return;
    aclrtStream priv = NULL;
    if (byte(in) % 4 == 0 || aclrtCreateStream(&priv) != ACL_SUCCESS) {
        (void)aclDestroyAclOpExecutor(ex);
        return;
    }
    size_t room;
    void *w = ws ? dev_ptr(in, &room) : NULL;
    (void)aclnnRelu(w, ws, ex, priv);
    (void)aclrtStreamStop(priv);
    (void)aclrtDestroyStreamForce(priv);
}

/* A copy to or from allocation k that must succeed; false when a host callback that ran meanwhile
 * freed k.  A synchronous copy also reports an earlier queued task's failure (the next synchronising
 * call does, as CANN's): that one is consumed by the first try. */
static bool must_copy(unsigned k, void *dst, const void *src, size_t n, aclrtMemcpyKind kind)
{
    if (aclrtMemcpy(dst, n, src, n, kind) == ACL_SUCCESS)
        return true;
    if (!g.dev[k])
        return false;
    if (aclrtMemcpy(dst, n, src, n, kind) != ACL_SUCCESS) {
        fprintf(stderr, "fuzz_acl: a copy inside a live allocation failed: %s\n", aclGetRecentErrMsg());
        abort();
    }
    return true;
}

static void fill(unsigned k)
{
    uint8_t pat[256];
    for (unsigned i = 0; i < sizeof pat; i++)
        pat[i] = (uint8_t)(k * 37 + i);
    g.dev_written[k] = false;
    for (size_t off = 0; off < g.dev_size[k] && g.dev[k]; off += sizeof pat) { /* a callback may free it */
        const size_t n = g.dev_size[k] - off < sizeof pat ? g.dev_size[k] - off : sizeof pat;
        if (!must_copy(k, (uint8_t *)g.dev[k] + off, pat, n, ACL_MEMCPY_HOST_TO_DEVICE))
            return;
    }
}

/* An allocation no call of the input wrote still holds its pattern. */
static void verify(unsigned k)
{
    if (!g.dev[k] || g.dev_written[k])
        return;
    for (size_t off = 0; off < g.dev_size[k] && g.dev[k]; off += sizeof g_host_buf) {
        const size_t n = g.dev_size[k] - off < sizeof g_host_buf ? g.dev_size[k] - off : sizeof g_host_buf;
        if (!must_copy(k, g_host_buf, (uint8_t *)g.dev[k] + off, n, ACL_MEMCPY_DEVICE_TO_HOST))
            return;
        for (size_t i = 0; i < n; i++)
            if (g_host_buf[i] != (uint8_t)(k * 37 + (off + i) % 256)) {
                fprintf(stderr, "fuzz_acl: allocation %u changed at byte %zu without a write to it\n", k, off + i);
                abort(); /* another call corrupted memory it did not own */
            }
    }
}

static void step(in_t *in)
{
    const unsigned op = byte(in) % 20, k = byte(in) % SLOTS;
    size_t room, room2;
    void *p, *q;
    switch (op) {
    case 0: /* allocate */
        if (g.dev[k])
            break;
        g.dev_size[k] = (size_t)(u16(in) % MAX_ALLOC);
        if (aclrtMalloc(&g.dev[k], g.dev_size[k], (aclrtMemMallocPolicy)(byte(in) % 9)) != ACL_SUCCESS)
            g.dev[k] = NULL;
        else
            fill(k);
        break;
    case 1: /* free a live one, or whatever dev_ptr gives */
        if (byte(in) & 1 && g.dev[k]) {
            if (aclrtFree(g.dev[k]) == ACL_SUCCESS) {
                g.dead_dev = g.dev[k];
                g.dev[k] = NULL;
            }
        } else if ((p = dev_ptr(in, &room)) && aclrtFree(p) == ACL_SUCCESS) {
            for (unsigned i = 0; i < SLOTS; i++)
                if (g.dev[i] == p)
                    g.dev[i] = NULL, g.dead_dev = p;
        }
        break;
    case 2:   /* a synchronous copy */
    case 3: { /* an asynchronous one */
        const aclrtMemcpyKind kind = (aclrtMemcpyKind)(byte(in) % 9);
        const size_t count = (size_t)u16(in), dmax = (size_t)u16(in);
        const bool dst_dev = kind == ACL_MEMCPY_DEVICE_TO_DEVICE || kind == ACL_MEMCPY_HOST_TO_DEVICE ||
                             (kind == ACL_MEMCPY_DEFAULT && byte(in) & 1);
        const bool src_dev = kind == ACL_MEMCPY_DEVICE_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_HOST ||
                             (kind == ACL_MEMCPY_DEFAULT && byte(in) & 1);
        p = dst_dev ? dev_ptr(in, &room) : g_host_buf;
        q = src_dev ? dev_ptr(in, &room2) : g_host_src;
        /* the host side of a copy must hold what the call may touch: the shim cannot check it */
        if ((!dst_dev && dmax > HOST_BYTES) || (!src_dev && count > HOST_BYTES))
            break;
        if (op == 2)
            (void)aclrtMemcpy(p, dmax, q, count, kind);
        else
            (void)aclrtMemcpyAsync(p, dmax, q, count, kind, stream_of(in));
        for (unsigned i = 0; i < SLOTS; i++)
            g.dev_written[i] = g.dev_written[i] || (dst_dev && g.dev[i] == p) ||
                               (dst_dev && p && g.dev[i] && (uint8_t *)p >= (uint8_t *)g.dev[i] &&
                                (uint8_t *)p < (uint8_t *)g.dev[i] + g.dev_size[i]);
        break;
    }
    case 4: { /* memset, synchronous or not */
        const size_t dmax = (size_t)u16(in), count = (size_t)u16(in);
        p = dev_ptr(in, &room);
        if (byte(in) & 1)
            (void)aclrtMemset(p, dmax, (int32_t)byte(in), count);
        else
            (void)aclrtMemsetAsync(p, dmax, (int32_t)byte(in), count, stream_of(in));
        for (unsigned i = 0; i < SLOTS; i++)
            g.dev_written[i] = g.dev_written[i] || (p && g.dev[i] && (uint8_t *)p >= (uint8_t *)g.dev[i] &&
                                                    (uint8_t *)p < (uint8_t *)g.dev[i] + g.dev_size[i]);
        break;
    }
    case 5: /* streams */
        if (!g.stream[k]) {
            if (aclrtCreateStream(&g.stream[k]) != ACL_SUCCESS)
                g.stream[k] = NULL;
        } else if (aclrtDestroyStream(g.stream[k]) == ACL_SUCCESS || aclrtDestroyStreamForce(g.stream[k]) == ACL_SUCCESS) {
            g.dead_stream = g.stream[k];
            g.stream[k] = NULL;
        }
        break;
    case 6: {
        aclrtStreamStatus st;
        if (byte(in) & 1)
            (void)aclrtSynchronizeStream(stream_of(in));
        else
            (void)aclrtStreamQuery(stream_of(in), byte(in) & 1 ? &st : NULL);
        break;
    }
    case 7: /* events */
        if (!g.event[k]) {
            if (aclrtCreateEventWithFlag(&g.event[k], byte(in) % 64) != ACL_SUCCESS)
                g.event[k] = NULL;
        } else if (byte(in) < 64 && aclrtDestroyEvent(g.event[k]) == ACL_SUCCESS) {
            g.dead_event = g.event[k];
            g.event[k] = NULL;
        }
        break;
    case 8: {
        aclrtEventRecordedStatus st;
        float ms;
        uint64_t ts;
        switch (byte(in) % 7) {
        case 0: (void)aclrtRecordEvent(event_of(in), stream_of(in)); break;
        case 1: (void)aclrtResetEvent(event_of(in), stream_of(in)); break;
        case 2: (void)aclrtStreamWaitEvent(stream_of(in), event_of(in)); break;
        case 3: (void)aclrtSynchronizeEvent(event_of(in)); break;
        case 4: (void)aclrtQueryEventStatus(event_of(in), byte(in) & 1 ? &st : NULL); break;
        case 5: (void)aclrtEventElapsedTime(byte(in) & 1 ? &ms : NULL, event_of(in), event_of(in)); break;
        default: (void)aclrtEventGetTimestamp(event_of(in), &ts); break;
        }
        break;
    }
    case 9: /* host memory */
        if (!g.host[k]) {
            if (aclrtMallocHost(&g.host[k], (size_t)u16(in)) != ACL_SUCCESS)
                g.host[k] = NULL;
        } else if (aclrtFreeHost(g.host[k]) == ACL_SUCCESS) {
            g.host[k] = NULL;
        }
        break;
    case 10: make_tensor(in, k); break;
    case 11:
        if (g.tensor[k] && aclDestroyTensor(g.tensor[k]) == ACL_SUCCESS) {
            g.dead_tensor = g.tensor[k];
            g.tensor[k] = NULL;
        }
        break;
    case 12: { /* scalars and arrays */
        int64_t v[8];
        for (unsigned i = 0; i < 8; i++)
            v[i] = (int64_t)u16(in) - 100;
        if (g.scalar[k])
            (void)aclDestroyScalar(g.scalar[k]);
        g.scalar[k] = aclCreateScalar(byte(in) & 1 ? v : NULL, (aclDataType)(byte(in) % 32));
        if (g.array[k])
            (void)aclDestroyIntArray(g.array[k]);
        g.array[k] = aclCreateIntArray(byte(in) & 1 ? v : NULL, byte(in) % 9); /* v holds 8 */
        break;
    }
    case 13: (void)aclrtSynchronizeDevice(); break;
    case 14: {
        size_t f, t;
        (void)aclrtGetMemInfo((aclrtMemAttr)(byte(in) % 8), byte(in) & 1 ? &f : NULL, &t);
        break;
    }
    case 15: /* a host callback that calls back into the API */
        g_cb[k].what = (int)byte(in);
        g_cb[k].stream = stream_of(in);
        g_cb[k].ptr = dev_ptr(in, &room);
        (void)aclrtLaunchCallback(byte(in) & 1 ? callback : NULL, &g_cb[k], (aclrtCallbackBlockType)(byte(in) % 3),
                                  g_cb[k].stream);
        break;
    case 16:
    case 17: run_relu(in); break;
    case 18: { /* a tensor's address set again */
        size_t r;
        (void)aclSetRawTensorAddr(tensor_of(in), dev_ptr(in, &r));
        break;
    }
    default: { /* queries */
        int32_t dev;
        (void)aclrtGetDevice(byte(in) & 1 ? &dev : NULL);
        (void)aclGetRecentErrMsg();
        break;
    }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool inited;
    if (!inited) {
        if (aclInit(NULL) != ACL_SUCCESS)
            abort();
        inited = true;
    }
    if (aclrtSetDevice(0) != ACL_SUCCESS)
        abort();
    memset(&g, 0, sizeof g);
    in_t in = {data, size};
    for (int steps = 0; in.n && steps < 64; steps++)
        step(&in);
    /* Let queued work run, then check and drop what the input left. */
    (void)aclrtSynchronizeDevice();
    for (unsigned k = 0; k < SLOTS; k++) {
        verify(k);
        if (g.stream[k])
            (void)aclrtDestroyStreamForce(g.stream[k]);
        if (g.event[k])
            (void)aclrtDestroyEvent(g.event[k]);
        if (g.tensor[k])
            (void)aclDestroyTensor(g.tensor[k]);
        if (g.scalar[k])
            (void)aclDestroyScalar(g.scalar[k]);
        if (g.array[k])
            (void)aclDestroyIntArray(g.array[k]);
        if (g.host[k])
            (void)aclrtFreeHost(g.host[k]);
        if (g.dev[k])
            (void)aclrtFree(g.dev[k]);
    }
    /* every aclrtSetDevice of the input (and this one) released: the device's state goes with the last */
    (void)aclrtResetDeviceForce(0);
    return 0;
}
