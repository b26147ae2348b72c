/* dvac/vec_layout.h - data layout and fill on the vector unit: Brcb (vbrcb: each of 8 elements fills
 * a datablock), Transpose (vtranspose: one 16x16 matrix of 2-byte elements) and CreateVecIndex (the
 * scalar unit writes the first datablock, Adds doubles it out). */
#ifndef DVAC_VEC_LAYOUT_H
#define DVAC_VEC_LAYOUT_H

#include "vec_core.h"
#include "vec_math.h"
#include "vec_reduce.h"

namespace dvac {
/* Element i of an index sequence from first (integers in 64 bits, floats in f32, as CANN's
 * GetCreateVecIndexValue). */
template <typename T> inline T index_value(const T &first, uint32_t i)
{
    if constexpr (std::is_integral<T>::value)
        return (T)((int64_t)first + (int64_t)i);
    else
        return (T)((float)first + (float)i);
}
} // namespace dvac

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

/* dst[i] = firstValue + i for i < count (CANN's dav-2201 sequence: the first datablock written by the
 * scalar unit, an S -> V flag, then Adds of a datablock's or a repeat's width, one pipe barrier
 * after each, until count elements are filled). */
template <typename T>
inline void CreateVecIndex(LocalTensor<T> dst, const T &firstValue, uint32_t count,
                           const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::one_of<T, half, int16_t, float, int32_t>(),
                  "CreateVecIndex: dtype not supported on dav-2201 (half, int16_t, float, int32_t)");
    const char *api = "CreateVecIndex";
    if (!dvac::vec_stream(loc))
        return;
    dvac::ub_operand(dst, "dst", 32, loc, api);
    dvac::count_in(dst, count, "dst", loc, api);
    constexpr uint32_t blk = dvac::blk_elems<T>(), rep = dvac::rep_elems<T>();
    const auto value = [&](uint32_t i) { return dvac::index_value(firstValue, i); };
    const uint32_t first = count < blk ? count : blk;
    for (uint32_t i = 0; i < first; i++)
        dst.SetValue(i, value(i), loc);
    dvac::fence<HardEvent::S_V>(loc, api);
    if (count <= blk)
        return;
    const UnaryRepeatParams p;
    const auto adds = [&](uint32_t to, uint32_t from, uint32_t step, uint64_t n) {
        Adds(dst[to], dst[from], (T)step, n, 1, p, loc);
        PipeBarrier<PIPE_V>(loc);
    };
    uint32_t blocks = count >= rep ? 8 : count / blk, tail = count >= rep ? 0 : count % blk;
    for (uint32_t i = 1; i < blocks; i++)
        adds(i * blk, (i - 1) * blk, blk, blk);
    if (tail)
        adds(count / blk * blk, count / blk * blk - blk, blk, tail);
    if (count <= rep)
        return;
    const uint32_t reps = count / rep;
    tail = count % rep;
    for (uint32_t i = 1; i < reps; i++)
        adds(i * rep, (i - 1) * rep, rep, rep);
    if (tail) {
        Adds(dst[reps * rep], dst[reps * rep - rep], (T)rep, (uint64_t)tail, 1, p, loc);
    }
}

/* Level 0 (CANN's dav-2201 sequence): the first repeat's selected elements written by the scalar unit
 * (the continuous mask: its first datablock; the bit mask: every selected element), an S -> V flag,
 * then for the continuous mask the rest of the first repeat by Adds of one datablock each and one for
 * the tail, and every further repeat as an Adds of a repeat's width from the one before, each Adds
 * followed by a pipe barrier.  The strides place repeat r at r * dstRepStride datablocks and datablock
 * i at i * dstBlkStride. */
template <typename T>
inline void CreateVecIndex(LocalTensor<T> &dst, const T &firstValue, uint64_t mask, uint8_t repeatTime,
                           uint16_t dstBlkStride, uint8_t dstRepStride, const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::one_of<T, half, int16_t, float, int32_t>(),
                  "CreateVecIndex: dtype not supported on dav-2201 (half, int16_t, float, int32_t)");
    const char *api = "CreateVecIndex";
    if (!dvac::vec_stream(loc))
        return;
    constexpr uint32_t blk = dvac::blk_elems<T>(), E = dvac::rep_elems<T>();
    dvac::ub_operand(dst, "dst", 32, loc, api);
    const dvac::Mask m = dvac::mask_count(mask, E, E, true, loc, api);
    if (mask < blk)
        dvac::fail_at(loc, api, "mask %llu is less than a datablock (%u elements): CANN's sequence then reads before "
                      "dst", (unsigned long long)mask, blk);
    const int64_t b = dvac::stride8(dstBlkStride, "dstBlkStride", loc, api);
    dvac::strided_in(dst, "dst", m, E, repeatTime, (uint64_t)b, dstRepStride, loc, api);
    if (repeatTime == 0)
        return;
    for (uint32_t i = 0; i < blk; i++)
        dst.SetValue(i, dvac::index_value(firstValue, i), loc);
    dvac::fence<HardEvent::S_V>(loc, api);
    UnaryRepeatParams p;
    const auto adds = [&](uint32_t to, uint32_t from, uint32_t step, uint64_t n) {
        Adds(dst[to], dst[from], (T)step, n, 1, p, loc);
        PipeBarrier<PIPE_V>(loc);
    };
    const uint32_t bs = (uint32_t)b * blk, rs = (uint32_t)dstRepStride * blk;
    for (uint32_t i = 1; i < mask / blk; i++)
        adds(i * bs, (i - 1) * bs, blk, blk);
    p.dstBlkStride = p.srcBlkStride = (uint16_t)b;
    if (mask % blk)
        adds((uint32_t)(mask / blk) * bs, (uint32_t)(mask / blk - 1) * bs, blk, mask % blk);
    for (uint32_t r = 1; r < repeatTime; r++)
        adds(r * rs, (r - 1) * rs, E, mask);
}
template <typename T>
inline void CreateVecIndex(LocalTensor<T> &dst, const T &firstValue, const uint64_t mask[], uint8_t repeatTime,
                           uint16_t dstBlkStride, uint8_t dstRepStride, const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::one_of<T, half, int16_t, float, int32_t>(),
                  "CreateVecIndex: dtype not supported on dav-2201 (half, int16_t, float, int32_t)");
    const char *api = "CreateVecIndex";
    if (!dvac::vec_stream(loc))
        return;
    constexpr uint32_t blk = dvac::blk_elems<T>(), E = dvac::rep_elems<T>();
    dvac::ub_operand(dst, "dst", 32, loc, api);
    const dvac::Mask m = dvac::mask_bits(mask, E, true, loc, api);
    const int64_t b = dvac::stride8(dstBlkStride, "dstBlkStride", loc, api);
    dvac::strided_in(dst, "dst", m, E, repeatTime, (uint64_t)b, dstRepStride, loc, api);
    if (repeatTime == 0)
        return;
    for (uint32_t e = 0; e < E; e++)
        if (e < 64 ? (mask[0] >> e) & 1 : E > 64 && (mask[1] >> (e - 64)) & 1)
            dst.SetValue((e / blk) * blk * (uint32_t)b + e % blk, dvac::index_value(firstValue, e), loc);
    dvac::fence<HardEvent::S_V>(loc, api);
    UnaryRepeatParams p;
    p.dstBlkStride = p.srcBlkStride = (uint16_t)b;
    const uint32_t rs = (uint32_t)dstRepStride * blk;
    for (uint32_t r = 1; r < repeatTime; r++) {
        Adds(dst[r * rs], dst[(r - 1) * rs], (T)E, mask, 1, p, loc);
        PipeBarrier<PIPE_V>(loc);
    }
}

/* ---- the transposes dvsim does not model: declared (CANN's names, structs and field order) so that a
 * kernel naming them in code it does not instantiate compiles; a call does not compile ---- */
enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE,
    TRANSPOSE_NZ2ND_0213,
    TRANSPOSE_NZ2NZ_0213,
    TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM,
    TRANSPOSE_GRAD_ND_UB_GM,
    TRANSPOSE_ND2ND_B16,
    TRANSPOSE_NCHW2NHWC,
    TRANSPOSE_NHWC2NCHW,
};
struct TransposeParamsExt {
    constexpr TransposeParamsExt() = default;
    constexpr TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn,
                                 const uint16_t wSizeIn, const TransposeType transposeTypeIn)
        : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn)
    {
    }
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};
struct TransDataTo5HDParams {
    constexpr TransDataTo5HDParams() = default;
    constexpr TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn, const uint8_t repeatTimesIn,
                                   const uint16_t dstRepStrideIn, const uint16_t srcRepStrideIn)
        : dstHighHalf(dstHighHalfIn), srcHighHalf(srcHighHalfIn), repeatTimes(repeatTimesIn),
          dstRepStride(dstRepStrideIn), srcRepStride(srcRepStrideIn)
    {
    }
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};
template <typename T>
inline void Transpose(const LocalTensor<T> &, const LocalTensor<T> &, const LocalTensor<uint8_t> &,
                      const TransposeParamsExt &, const dvac::Loc & = dvac::Loc::here())
{
    static_assert(dvac::never<T>(), "Transpose: the form with TransposeParamsExt is not modelled by dvsim");
}
template <typename T>
inline void TransDataTo5HD(const LocalTensor<T> (&)[16], const LocalTensor<T> (&)[16], const TransDataTo5HDParams &,
                           const dvac::Loc & = dvac::Loc::here())
{
    static_assert(dvac::never<T>(), "TransDataTo5HD: vnchwconv (16 address lists) is not modelled by dvsim");
}
template <typename T>
inline void TransDataTo5HD(uint64_t[16], uint64_t[16], const TransDataTo5HDParams &,
                           const dvac::Loc & = dvac::Loc::here())
{
    static_assert(dvac::never<T>(), "TransDataTo5HD: vnchwconv (16 address lists) is not modelled by dvsim");
}

} // namespace AscendC

#endif
