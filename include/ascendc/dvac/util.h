/* dvac/util.h - kernel utilities: printf, assertions, tiling data read from GM. */
#ifndef DVAC_UTIL_H
#define DVAC_UTIL_H

#include "tensor.h"
#include "copy.h"
#include "cube.h"
#include "sync.h"

namespace AscendC {

/* Kernel printf: printed on the host when the block's stream generates the call (the launch's
 * probe prints nothing), in block order as the model asks for each block's instructions. */
template <class... A> inline void printf(const char *fmt, A... args)
{
    if constexpr (sizeof...(A) == 0)
        std::fputs(fmt, stdout);
    else
        std::printf(fmt, args...);
}
template <class... A> inline void PRINTF(const char *fmt, A... args) { AscendC::printf(fmt, args...); }

/* The system counter as the scalar unit reads it (chip.sys_counter_mhz: 50 MHz on Atlas A2; the
 * value counts from the model's time 0); an error on a chip without one. */
inline int64_t GetSystemCycle(const dvac::Loc &loc = dvac::Loc::here())
{
    return (int64_t)dvk_read_sys_cnt(dvac::at(loc));
}

} // namespace AscendC


namespace AscendC {

/* Print the first dumpSize elements of a UB or L1 tensor as the scalar unit reads them, with the caller's
 * tag `desc`.  UB: one ld_ub each.  L1 (an AIC): after a barrier on every pipe, copy_cbuf_to_gm of the
 * elements to the system workspace, MTE3 -> S, then one ld_gm each, as a dump goes through GM on the
 * hardware; every call is charged as such. */
template <typename T>
inline void DumpTensor(const LocalTensor<T> &tensor, uint32_t desc, uint32_t dumpSize,
                       const dvac::Loc &loc = dvac::Loc::here())
{
    const char *api = "DumpTensor";
    dv_k_t *c = dvac::at(loc);
    const dv_space_t sp = tensor.space();
    if (sp != DV_SPACE_UB && sp != DV_SPACE_L1)
        dvac::fail_at(loc, api, "UB and L1 tensors can be dumped by dvsim, not %s", dvk_space_name(sp));
    if (!dvk_has_space(c, sp))
        return; /* the other core type of a mix kernel */
    tensor.need(dumpSize, loc, api);
    const bool print = !dvk_probing(c);
    if (print)
        std::printf("DumpTensor: desc=%u, block=%lld, position=%s, dtype=%s, addr=0x%llx, size=%u\n", desc,
                    (long long)GetBlockIdx(), sp == DV_SPACE_UB ? "UB" : "L1", dvk_dtype_name(dvac::dtype_of<T>()),
                    (unsigned long long)DV_ADDR_OFF(tensor.addr()), dumpSize);
    GlobalTensor<T> g;
    if (sp == DV_SPACE_L1 && dumpSize > 0) {
        uint8_t *ws = GetSysWorkSpacePtr();
        const uint64_t blocks = ((uint64_t)dumpSize * sizeof(T) + 31) / 32;
        if (!ws)
            dvac::fail_at(loc, api, "dumping L1 goes through the system workspace, which this launch has not");
        if (blocks > 65535)
            dvac::fail_at(loc, api, "%u elements: at most 65535 datablocks of L1 are dumped", dumpSize);
        g.SetGlobalBuffer((__gm__ T *)ws, blocks * 32 / sizeof(T));
        PipeBarrier<PIPE_ALL>(loc);
        DataCopy(g, tensor, DataCopyParams(1, (uint16_t)blocks, 0, 0), loc);
        const int32_t e = GetTPipePtr() ? GetTPipePtr()->FetchEventID(HardEvent::MTE3_S, loc) : 0;
        SetFlag<HardEvent::MTE3_S>(e, loc);
        WaitFlag<HardEvent::MTE3_S>(e, loc);
    }
    for (uint32_t i = 0; i < dumpSize; i++) {
        T v = sp == DV_SPACE_UB ? tensor.GetValue(i, loc) : g.GetValue(i, loc);
        if (print)
            std::printf("%s%g%s", i % 8 ? " " : "", (double)(float)v, i % 8 == 7 || i + 1 == dumpSize ? "\n" : "");
    }
}

/* Scalar GM access around the data cache (which dvsim does not model): ld_gm / st_gm. */
template <typename T> inline T ReadGmByPassDCache(__gm__ T *addr, const dvac::Loc &loc = dvac::Loc::here())
{
    GlobalTensor<T> g;
    g.SetGlobalBuffer(addr, 1);
    return g.GetValue(0, loc);
}
template <typename T> inline void WriteGmByPassDCache(__gm__ T *addr, T value, const dvac::Loc &loc = dvac::Loc::here())
{
    GlobalTensor<T> g;
    g.SetGlobalBuffer(addr, 1);
    g.SetValue(0, value, loc);
}

/* The data cache's maintenance and the memory barrier.  dvsim has no data cache: the scalar unit's
 * GM accesses (ld_gm, st_gm) reach GM when it issues them, already in program order, so these only
 * cost the scalar unit an instruction's issue. */
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };
enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
template <MemDsbT kind> inline void DataSyncBarrier(const dvac::Loc &loc = dvac::Loc::here())
{
    dv_k_t *c = dvac::at(loc);
    dvk_scalar(c, (int64_t)(dvk_config(c)->scalar_issue_cycles ? dvk_config(c)->scalar_issue_cycles : 1));
}
template <typename T, CacheLine entire, DcciDst dst = DcciDst::CACHELINE_ALL>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T> &, const dvac::Loc &loc = dvac::Loc::here())
{
    DataSyncBarrier<MemDsbT::ALL>(loc);
}
template <typename T, CacheLine entire, DcciDst dst>
inline void DataCacheCleanAndInvalid(const LocalTensor<T> &, const dvac::Loc &loc = dvac::Loc::here())
{
    DataSyncBarrier<MemDsbT::ALL>(loc);
}

/* Integer helpers of CANN's kernel API. */
template <typename T, typename U> constexpr auto DivCeil(T a, U b) { return (a + b - 1) / b; }
template <typename T, typename U> constexpr auto AlignUp(T a, U b) { return (a + b - 1) / b * b; }

} // namespace AscendC

namespace dvac {
/* A failed kernel assertion stops the kernel with the condition, its message and the user's line. */
template <class... A> inline void kernel_assert(bool ok, const char *cond, const Loc &loc, const char *fmt = nullptr,
                                                A... args)
{
    if (ok)
        return;
    char msg[320] = "";
    if (fmt) {
        if constexpr (sizeof...(A) == 0)
            std::snprintf(msg, sizeof msg, "%s", fmt);
        else
            std::snprintf(msg, sizeof msg, fmt, args...);
        size_t n = std::strlen(msg);
        while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
            msg[--n] = 0;
    }
    fail_at(loc, "assert", "assertion failed: %s%s%s", cond, *msg ? ": " : "", msg);
}
template <class... A> inline void any_assert(bool ok, const char *cond, const Loc &loc, A... args)
{
    if (ok)
        return;
    if (dvk_current()) {
        kernel_assert(false, cond, loc, args...);
        return;
    }
    std::fprintf(stderr, "%s:%u: assertion failed: %s\n", loc.file, loc.line, cond);
    std::abort();
}

/* Copy a tiling struct the host wrote to GM. */
template <class T> inline void read_tiling(T *out, const void *gm, const Loc &loc = Loc::here())
{
    if (!gm)
        fail_at(loc, "GET_TILING_DATA", "the tiling pointer is NULL");
    if (dvsimDeviceAccess((uint64_t)(uintptr_t)gm, out, sizeof(T), 0) != 0)
        fail_at(loc, "GET_TILING_DATA", "the tiling at 0x%llx is not %zu readable bytes of device memory",
             (unsigned long long)(uintptr_t)gm, sizeof(T));
    dvk_scalar(k(loc), (int64_t)((sizeof(T) + 7) / 8 * dvk_config(k(loc))->scalar_bookkeeping_cycles));
}
} // namespace dvac

#define ascendc_assert(cond, ...) ::dvac::kernel_assert((cond), #cond, ::dvac::Loc::here(), ##__VA_ARGS__)
/* Ascend C's assert(cond[, fmt, args...]): in a kernel, a failure stops the kernel, located; in host
 * code it reports and aborts as the standard assert does. */
#undef assert
#define assert(cond, ...) ::dvac::any_assert((cond), #cond, ::dvac::Loc::here(), ##__VA_ARGS__)
/* CANN's debug assertion: `behavior` (usually a KERNEL_LOG) runs, then the kernel stops. */
#define ASCENDC_ASSERT(cond, behavior)                                                                               \
    do {                                                                                                             \
        if (!(cond)) {                                                                                               \
            behavior;                                                                                                \
            ::dvac::kernel_assert(false, #cond, ::dvac::Loc::here());                                                \
        }                                                                                                            \
    } while (0)
enum { KERNEL_DEBUG = 0, KERNEL_INFO, KERNEL_WARN, KERNEL_ERROR };
#define KERNEL_LOG(level, fmt, ...)                                                                                  \
    std::fprintf(stderr, "[%s] %s:%d: " fmt "\n",                                                                  \
                 (level) == KERNEL_ERROR ? "ERROR" : (level) == KERNEL_WARN ? "WARN" : "INFO", __FILE__, __LINE__,  \
                 ##__VA_ARGS__)
#define GET_TILING_DATA_WITH_STRUCT(type, var, ptr)                                                                  \
    type var;                                                                                                        \
    ::dvac::read_tiling(&var, (ptr))
#define GET_TILING_DATA(var, ptr) GET_TILING_DATA_WITH_STRUCT(TilingData, var, ptr)

#endif
