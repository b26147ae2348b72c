/* dvac/mm_extra.h - 64-bit scalar access to GM (GlobalTensor<uint64_t / int64_t>::GetValue / SetValue),
 * which the Matmul samples use for address lists (a callback's dataPtr).  The ISA's scalar loads and
 * stores have no 64-bit element type, so each is two 32-bit ones (ld_gm / st_gm u32, low word first):
 * the value is exact, the access costs two scalar loads (stores) instead of one. */
#ifndef DVAC_MM_EXTRA_H
#define DVAC_MM_EXTRA_H

#include "tensor.h"

namespace dvac {

template <typename T> inline T gm_get64(const AscendC::GlobalTensor<T> &g, uint64_t offset, const Loc &loc)
{
    dv_k_t *c = at(loc);
    const uint64_t a = g.gm(offset, sizeof(T), loc, "GlobalTensor::GetValue");
    const uint64_t lo = dvk_load_gm(c, a, DV_DT_U32) & 0xffffffffull;
    const uint64_t hi = dvk_load_gm(c, a + 4, DV_DT_U32) & 0xffffffffull;
    uint64_t bits = lo | hi << 32;
    /* while the launch is probed nothing runs: what the host wrote is what it reads */
    if (dvk_probing(c) && dvsimDeviceAccess((uint64_t)(uintptr_t)g.GetPhyAddr(offset), &bits, 8, 0) != 0)
        fail_at(loc, "GlobalTensor::GetValue", "GM address 0x%llx cannot be read",
                (unsigned long long)(uintptr_t)g.GetPhyAddr(offset));
    T v;
    std::memcpy(static_cast<void *>(&v), &bits, 8);
    return v;
}
template <typename T> inline void gm_set64(const AscendC::GlobalTensor<T> &g, uint64_t offset, T value, const Loc &loc)
{
    dv_k_t *c = at(loc);
    const uint64_t a = g.gm(offset, sizeof(T), loc, "GlobalTensor::SetValue");
    uint64_t bits;
    std::memcpy(&bits, static_cast<const void *>(&value), 8);
    dvk_st_gm(c, a, DV_DT_U32, bits & 0xffffffffull);
    dvk_st_gm(c, a + 4, DV_DT_U32, bits >> 32);
}

} // namespace dvac

namespace AscendC {

template <> inline uint64_t GlobalTensor<uint64_t>::GetValue(uint64_t offset, const dvac::Loc &loc) const
{
    return dvac::gm_get64(*this, offset, loc);
}
template <> inline int64_t GlobalTensor<int64_t>::GetValue(uint64_t offset, const dvac::Loc &loc) const
{
    return dvac::gm_get64(*this, offset, loc);
}
template <> inline void GlobalTensor<uint64_t>::SetValue(uint64_t offset, uint64_t value, const dvac::Loc &loc)
{
    dvac::gm_set64(*this, offset, value, loc);
}
template <> inline void GlobalTensor<int64_t>::SetValue(uint64_t offset, int64_t value, const dvac::Loc &loc)
{
    dvac::gm_set64(*this, offset, value, loc);
}

} // namespace AscendC

#endif
