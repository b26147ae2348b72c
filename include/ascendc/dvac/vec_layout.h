/* dvac/vec_layout.h - data layout on the vector unit: Brcb (vbrcb: each of 8 elements fills a
 * datablock) and Transpose (vtranspose: one 16x16 matrix of 2-byte elements). */
#ifndef DVAC_VEC_LAYOUT_H
#define DVAC_VEC_LAYOUT_H

#include "vec_core.h"

namespace AscendC {

struct BrcbRepeatParams {
    BrcbRepeatParams() {}
    BrcbRepeatParams(uint16_t dstBlkStrideIn, uint16_t dstRepStrideIn)
        : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn)
    {
    }
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

/* Repeat r reads src[8r .. 8r+7] and fills datablock i of its 8 with src[8r+i] (CANN: ResetMask, then
 * vbrcb). */
template <typename T>
inline void Brcb(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint8_t repeatTime,
                 const BrcbRepeatParams &repeatParams, const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::one_of<T, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>(),
                  "Brcb: dtype not supported on dav-2201 (int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, "
                  "float)");
    const char *api = "Brcb";
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    const int64_t blk = dvac::stride8(repeatParams.dstBlkStride, "dstBlkStride", loc, api);
    const int64_t rep = dvac::stride8(repeatParams.dstRepStride, "dstRepStride", loc, api);
    dvac::ub_operand(dst, "dst", 32, loc, api);
    dvac::ub_operand(src, "src", 32, loc, api);
    src.need((uint64_t)repeatTime * 8, loc, api);
    if (repeatTime)
        dst.need(((repeatTime - 1) * (uint64_t)rep * 32 + 7 * (uint64_t)blk * 32 + 32) / sizeof(T), loc, api);
    dvk_set_vector_mask(c, FULL_MASK, FULL_MASK);
    dvk_vbrcb(c, dst.addr(), src.addr(), dvac::dtype_of<T>(), repeatTime, blk, rep);
}

/* dst[16j + i] = src[16i + j]: one 16x16 matrix of 2-byte elements (dst and src must not overlap). */
template <typename T>
inline void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src, const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(sizeof(T) == 2 && dvac::one_of<T, half, bfloat16_t, int16_t, uint16_t>(),
                  "Transpose: the 16x16 transpose takes 2-byte types (half, bfloat16_t, int16_t, uint16_t)");
    const char *api = "Transpose";
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    dvac::ub_operand(dst, "dst", 32, loc, api);
    dvac::ub_operand(src, "src", 32, loc, api);
    dst.need(256, loc, api);
    src.need(256, loc, api);
    const uint64_t d = DV_ADDR_OFF(dst.addr()), s = DV_ADDR_OFF(src.addr());
    if (d < s + 512 && s < d + 512)
        dvac::fail_at(loc, api, "dst and src overlap (the 512 bytes at 0x%llx and 0x%llx)", (unsigned long long)d,
                      (unsigned long long)s);
    dvk_vtranspose(c, dst.addr(), src.addr(), dvac::dtype_of<T>());
}

} // namespace AscendC

#endif
