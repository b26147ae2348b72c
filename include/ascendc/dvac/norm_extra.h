/* dvac/norm_extra.h - basic APIs the normalization and quantization APIs (adv/normalization.h) and their samples
 * need that the basic layer did not have: PopStackBuffer (CANN's impl/basic_api/kernel_pop_stack_buffer.h) and
 * AscendCUtils::SetOverflow (impl/basic_api/kernel_utils_base.h). */
#ifndef DVAC_NORM_EXTRA_H
#define DVAC_NORM_EXTRA_H

#include "tensor.h"

namespace AscendC {

/* The UB the TPipe has not handed out, from the end of its buffers to the end of UB less the 64 bytes dav-2201
 * keeps for its KFC messages: `pop` becomes that space (nothing is emitted).  Fails without a TPipe or UB left. */
template <typename T, TPosition pos>
inline bool PopStackBuffer(LocalTensor<T> &pop, const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(pos == TPosition::LCM || pos == TPosition::VECIN || pos == TPosition::VECOUT,
                  "PopStackBuffer: the stack buffer is in UB (TPosition::LCM / VECCALC)");
    TPipe *pipe = GetTPipePtr();
    if (!pipe)
        dvac::fail_at(loc, "PopStackBuffer", "needs a TPipe");
    dv_k_t *c = dvac::k(loc);
    const uint64_t used = pipe->GetQueueEndAddress<pos>();
    const uint64_t end = dvk_space_bytes(c, DV_SPACE_UB) - 64;
    if (used % 32 || end <= used)
        dvac::fail_at(loc, "PopStackBuffer", "local memory has used %llu bytes, there is no memory left to pop",
                      (unsigned long long)used);
    pop = LocalTensor<T>(DV_ADDR(DV_SPACE_UB, used), (uint32_t)((end - used) / sizeof(T)), pos);
    return true;
}

/* CANN's AscendCUtils, the part its samples call.  SetOverflow(1) selects the inf/nan mode of CTRL[48], the mode the
 * model always computes in; SetOverflow(0) selects the saturated mode, which the model does not have: results that
 * overflow stay inf / nan (docs/ASCENDC.md).  Each costs the scalar unit's read-modify-write of CTRL. */
struct AscendCUtils {
    static void SetOverflow(uint64_t ctrlValue, const dvac::Loc &loc = dvac::Loc::here())
    {
        (void)ctrlValue;
        dvk_bookkeeping(dvac::at(loc));
    }
};

} // namespace AscendC

#endif
