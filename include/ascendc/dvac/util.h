/* dvac/util.h - kernel utilities: printf, assertions, tiling data read from GM. */
#ifndef DVAC_UTIL_H
#define DVAC_UTIL_H

#include "tensor.h"

namespace AscendC {

/* Kernel printf: printed on the host when the block's stream generates the call (not while the
 * launch is probed), prefixed as CANN prefixes it with the block. */
template <class... A> inline void printf(const char *fmt, A... args)
{
    dv_k_t *c = dvac::k();
    if (dvk_probing(c))
        return;
    std::printf("[Block (%lld/%lld)]: ", (long long)GetBlockIdx(), (long long)GetBlockNum());
    if constexpr (sizeof...(A) == 0)
        std::fputs(fmt, stdout);
    else
        std::printf(fmt, args...);
}
template <class... A> inline void PRINTF(const char *fmt, A... args) { AscendC::printf(fmt, args...); }

} // namespace AscendC

namespace dvac {
/* A failed kernel assertion stops the kernel with the condition and the user's line. */
inline void kernel_assert(bool ok, const char *cond, const Loc &loc = Loc::here())
{
    if (!ok)
        fail_at(loc, "assert", "assertion failed: %s", cond);
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

#define ascendc_assert(cond, ...) ::dvac::kernel_assert((cond), #cond)
#define GET_TILING_DATA_WITH_STRUCT(type, var, ptr)                                                                  \
    type var;                                                                                                        \
    ::dvac::read_tiling(&var, (ptr))
#define GET_TILING_DATA(var, ptr) GET_TILING_DATA_WITH_STRUCT(TilingData, var, ptr)

#endif
