/* dvac/launch.h - `kernel<<<blockDim, l2ctrl, stream>>>(args...)` on the model.
 *
 * dvcc rewrites the kernel call into ::dvac::launch(kernel, "kernel", blockDim, l2ctrl, stream)(args...).
 * The arguments are converted to the kernel's parameter types and copied, with the function, into
 * the launch's parameter block; every non-NULL pointer parameter is a GM argument (a device address
 * from aclrtMalloc).  dvsimLaunchAscendC queues the kernel with the kind its code implies; each
 * block's stream then calls the kernel function with the copied arguments on its own thread. */
#ifndef DVAC_LAUNCH_H
#define DVAC_LAUNCH_H

#include <utility>

#include "tensor.h"
#include "cube.h"
#include "acl/acl_rt.h"
#include "dvsim/acl_launch.h"

namespace dvac {

/* A trivially copyable tuple (the launch's parameter block is copied as bytes). */
template <class... A> struct Pack;
template <> struct Pack<> {};
template <class H, class... T> struct Pack<H, T...> {
    H h;
    Pack<T...> t;
};
template <size_t I, class H, class... T> const auto &get(const Pack<H, T...> &p)
{
    if constexpr (I == 0)
        return p.h;
    else
        return get<I - 1>(p.t);
}

/* An argument as the kernel's parameter type: pointers of any type convert to the parameter's. */
template <class P, class A> P conv(A &&a)
{
    if constexpr (std::is_pointer<P>::value && std::is_pointer<std::decay_t<A>>::value)
        return reinterpret_cast<P>(a);
    else if constexpr (std::is_pointer<P>::value && std::is_null_pointer<std::decay_t<A>>::value)
        return nullptr;
    else
        return static_cast<P>(a);
}
inline void fill(Pack<> &) {}
template <class H, class... T, class AH, class... AT> void fill(Pack<H, T...> &p, AH &&ah, AT &&...at)
{
    p.h = conv<H>(std::forward<AH>(ah));
    fill(p.t, std::forward<AT>(at)...);
}

template <class... P> struct Launch {
    void (*fn)(P...);
    GmTable gm;
    uint64_t sys_ws; /* the system workspace (GetSysWorkSpacePtr), or 0 */
    Pack<std::decay_t<P>...> args;
};

template <class... P, size_t... I> void invoke(const Launch<P...> *l, std::index_sequence<I...>)
{
    l->fn(get<I>(l->args)...);
}

/* Each block's stream: the GM table with the bytes the launch found, then the kernel. */
template <class... P> void trampoline(dv_k_t *k, const void *params)
{
    const Launch<P...> *l = static_cast<const Launch<P...> *>(params);
    GmTable t = l->gm;
    for (uint32_t i = 0; i < t.n; i++)
        t.bytes[i] = dvk_gm_bytes(k, i);
    g_gm = &t;
    g_sys_workspace = reinterpret_cast<uint8_t *>(static_cast<uintptr_t>(l->sys_ws));
    invoke(l, std::index_sequence_for<P...>{});
    g_gm = nullptr;
    g_sys_workspace = nullptr;
}

inline void add_gm(GmTable &t, uint64_t dev, bool &overflow)
{
    if (!dev)
        return;
    if (t.n == sizeof t.dev / sizeof t.dev[0]) {
        overflow = true;
        return;
    }
    t.dev[t.n++] = dev;
}
inline void collect(const Pack<> &, GmTable &, bool &) {}
template <class H, class... T> void collect(const Pack<H, T...> &p, GmTable &t, bool &overflow)
{
    if constexpr (std::is_pointer<H>::value)
        add_gm(t, (uint64_t)(uintptr_t)p.h, overflow);
    collect(p.t, t, overflow);
}

/* The linker's bounds of the declared-kind sections of this module (weak: absent when no kernel of
 * the module declares that kind). */
extern "C" {
extern const char __start_dvsim_vector_kernels[] __attribute__((weak, visibility("hidden")));
extern const char __stop_dvsim_vector_kernels[] __attribute__((weak, visibility("hidden")));
extern const char __start_dvsim_cube_kernels[] __attribute__((weak, visibility("hidden")));
extern const char __stop_dvsim_cube_kernels[] __attribute__((weak, visibility("hidden")));
extern const char __start_dvsim_mix_kernels[] __attribute__((weak, visibility("hidden")));
extern const char __stop_dvsim_mix_kernels[] __attribute__((weak, visibility("hidden")));
}

/* The kind a kernel declares (__vector__, __cube__, __mix__), or -1 (__aicore__ only: probe). */
inline int declared_kind(const void *fn)
{
    const char *f = static_cast<const char *>(fn);
    auto in = [f](const char *lo, const char *hi) { return lo && hi && f >= lo && f < hi; };
    if (in(__start_dvsim_mix_kernels, __stop_dvsim_mix_kernels))
        return DV_KIND_MIX;
    if (in(__start_dvsim_cube_kernels, __stop_dvsim_cube_kernels))
        return DV_KIND_CUBE;
    if (in(__start_dvsim_vector_kernels, __stop_dvsim_vector_kernels))
        return DV_KIND_VECTOR;
    return -1;
}

/* Bytes of the system workspace every launch gets (CANN's GetLibApiWorkSpaceSize on ASCEND910B). */
constexpr size_t SYS_WORKSPACE_BYTES = 16u << 20;

/* The system workspace: CANN's runtime hands the kernel its part of the workspace argument
 * (__kfc_workspace__), which dvsim's launch cannot tell from the other pointers, so every launch
 * gets a device buffer of its own, freed by a callback queued after the kernel.  0 when it cannot be
 * allocated (GetSysWorkSpacePtr is then NULL). */
inline uint64_t sys_workspace_new()
{
    void *ws = nullptr;
    if (aclrtMalloc(&ws, SYS_WORKSPACE_BYTES, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
        return 0;
    return (uint64_t)(uintptr_t)ws;
}
inline void sys_workspace_free(void *ws) { (void)aclrtFree(ws); }

/* The live device allocations no argument points into, as further GM arguments while the table has room:
 * a kernel may follow a device pointer it reads from GM (ListTensorDesc's data pointers). */
inline void add_other_allocations(GmTable &t)
{
    constexpr size_t cap = 256;
    uint64_t dev[cap], bytes[cap];
    const size_t n = dvsimDeviceAllocations(dev, bytes, cap);
    const uint32_t args = t.n;
    for (size_t a = 0; a < n && a < cap && t.n < sizeof t.dev / sizeof t.dev[0]; a++) {
        bool used = false;
        for (uint32_t i = 0; i < args && !used; i++)
            used = t.dev[i] >= dev[a] && t.dev[i] - dev[a] < bytes[a];
        if (!used)
            t.dev[t.n++] = dev[a];
    }
}

/* The L2 mode disable (GlobalTensor::SetL2CacheHint): as on the hardware, a tensor in that mode uses an
 * alias of its address (the address with bit DV_GM_L2_DISABLE_BIT set), which the launch passes as one
 * more GM argument per argument: the same memory, its accesses not allocated in L2.  Added while the
 * launch has room for them. */
inline void add_l2_aliases(GmTable &t)
{
    const uint32_t args = t.n;
    for (uint32_t i = 0; i < args && t.n < MAX_GM_ARGS; i++)
        t.dev[t.n++] = t.dev[i] | 1ull << DV_GM_L2_DISABLE_BIT;
}

template <class... P> uint32_t submit(Launch<P...> &l, const char *name, uint32_t blockDim, void *stream)
{
    static_assert(std::is_trivially_copyable<Launch<P...>>::value,
                  "dvsim Ascend C: kernel parameters must be trivially copyable (pointers, numbers, plain structs)");
    bool overflow = false;
    l.gm.n = 0;
    collect(l.args, l.gm, overflow);
    l.sys_ws = sys_workspace_new();
    add_gm(l.gm, l.sys_ws, overflow);
    add_other_allocations(l.gm);
    add_l2_aliases(l.gm);
    if (overflow) {
        std::fprintf(stderr, "dvsim: kernel %s: more than %zu pointer arguments\n", name,
                     sizeof l.gm.dev / sizeof l.gm.dev[0]);
        return 107000; /* ACL_ERROR_INVALID_PARAM */
    }
    void *ptrs[sizeof l.gm.dev / sizeof l.gm.dev[0]];
    for (uint32_t i = 0; i < l.gm.n; i++)
        ptrs[i] = (void *)(uintptr_t)l.gm.dev[i];
    const uint32_t rc = (uint32_t)dvsimLaunchAscendC(name, &trampoline<P...>,
                                                     declared_kind(reinterpret_cast<const void *>(l.fn)), blockDim,
                                                     (aclrtStream)stream, ptrs, l.gm.n, &l, sizeof l);
    void *ws = (void *)(uintptr_t)l.sys_ws;
    if (ws && (rc != 0 || aclrtLaunchCallback(sys_workspace_free, ws, ACL_CALLBACK_BLOCK, (aclrtStream)stream) !=
                              ACL_SUCCESS))
        sys_workspace_free(ws);
    return rc;
}

template <class... P> struct Launcher {
    void (*fn)(P...);
    const char *name;
    uint32_t blocks;
    void *stream;
    template <class... A> uint32_t operator()(A &&...a) const
    {
        static_assert(sizeof...(A) == sizeof...(P), "the kernel call has the wrong number of arguments");
        Launch<P...> l;
        std::memset(static_cast<void *>(&l), 0, sizeof l);
        l.fn = fn;
        fill(l.args, std::forward<A>(a)...);
        return submit(l, name, blocks, stream);
    }
};

template <class... P, class L2, class S>
Launcher<P...> launch(void (*fn)(P...), const char *name, uint32_t blockDim, L2 &&l2ctrl, S &&stream)
{
    (void)l2ctrl; /* reserved by CANN */
    return Launcher<P...>{fn, name, blockDim, (void *)stream};
}

/* `<<<blockDim, l2ctrl>>>`: the default stream. */
template <class... P, class L2>
Launcher<P...> launch(void (*fn)(P...), const char *name, uint32_t blockDim, L2 &&l2ctrl)
{
    (void)l2ctrl;
    return Launcher<P...>{fn, name, blockDim, nullptr};
}

/* From a packed argument blob (aclrtLaunchKernel): each parameter at its natural alignment, in order. */
inline void unpack(Pack<> &, const uint8_t *, size_t, size_t &, bool &) {}
template <class H, class... T> void unpack(Pack<H, T...> &p, const uint8_t *d, size_t size, size_t &off, bool &short_)
{
    off = (off + alignof(H) - 1) / alignof(H) * alignof(H);
    if (off + sizeof(H) > size) {
        short_ = true;
        return;
    }
    std::memcpy(static_cast<void *>(&p.h), d + off, sizeof(H));
    off += sizeof(H);
    unpack(p.t, d, size, off, short_);
}
template <class... P>
uint32_t launch_packed(void (*fn)(P...), const char *name, uint32_t blockDim, void *stream, const void *args,
                       size_t argsSize)
{
    Launch<P...> l;
    std::memset(static_cast<void *>(&l), 0, sizeof l);
    l.fn = fn;
    size_t off = 0;
    bool short_ = false;
    unpack(l.args, static_cast<const uint8_t *>(args), args ? argsSize : 0, off, short_);
    if (short_) {
        std::fprintf(stderr, "dvsim: kernel %s: %zu bytes of arguments, its parameters need more\n", name, argsSize);
        return 107000; /* ACL_ERROR_INVALID_PARAM */
    }
    return submit(l, name, blockDim, stream);
}

} // namespace dvac

#endif
