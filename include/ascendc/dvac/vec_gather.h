/* dvac/vec_gather.h - Gather (vgather: element e takes the element of src at srcBaseOffset plus its
 * byte offset), level 0 and level 2, and Gatherb (vgatherb: datablock i takes the 32 bytes at its
 * byte offset), as CANN's dav-2201 implementation emits them; GatherMask is declared, and a call
 * does not compile (its vreducev2 and the RSVD_CNT register it leaves the count in are not
 * modelled) (docs/ASCENDC.md, "Vector API"). */
#ifndef DVAC_VEC_GATHER_H
#define DVAC_VEC_GATHER_H

#include "vec_core.h"

namespace AscendC {

/* Gatherb's strides: dst block stride and repeat stride in datablocks (CANN's field order). */
struct GatherRepeatParams {
    GatherRepeatParams() {}
    GatherRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t dstRepStrideIn)
        : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn)
    {
    }
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V2;

/* GatherMask's parameters (dav-2201 layout). */
struct GatherMaskParams {
    GatherMaskParams() {}
    GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn, const uint16_t src0RepeatStrideIn,
                     const uint8_t src1RepeatStrideIn)
        : src0BlockStride(src0BlockStrideIn), repeatTimes(repeatTimesIn), src0RepeatStride(src0RepeatStrideIn),
          src1RepeatStride(src1RepeatStrideIn)
    {
    }
    uint8_t src0BlockStride = DEFAULT_BLK_STRIDE;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepeatStride = DEFAULT_REPEAT_STRIDE;
};

} // namespace AscendC

namespace dvac {

template <typename T> constexpr bool gather_type_ok()
{
    return one_of<T, half, bfloat16_t, uint16_t, int16_t, float, uint32_t, int32_t>();
}

/* One vgather: the mask as CANN sets it (SetMask<T>), repeatTime repeats of E offsets from srcOffset,
 * dst repeat r at dstRepStride datablocks; the source is the whole src tensor (its bytes bound the
 * offsets: the instruction's src_len). */
template <typename T>
inline void gather_l0(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                      const AscendC::LocalTensor<uint32_t> &offset, uint32_t base, MaskArg ma, uint32_t repeat,
                      uint32_t dst_rep, const Loc &loc)
{
    const char *api = "Gather";
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return;
    constexpr uint32_t E = rep_elems<T>();
    const Mask m = ma.resolve(E, E, loc, api);
    ub_operand(dst, "dst", 32, loc, api);
    ub_operand(src, "src", 32, loc, api);
    ub_operand(offset, "srcOffset", 32, loc, api);
    if (repeat > 255)
        fail_at(loc, api, "repeatTime %u is not in [0, 255]", repeat);
    const int64_t dr = stride8(dst_rep, "dstRepStride", loc, api);
    const uint64_t bytes = (uint64_t)src.GetSize() * sizeof(T);
    if (base % sizeof(T) || base >= bytes)
        fail_at(loc, api, "srcBaseOffset %u must be a multiple of %zu inside src's %llu bytes", base, sizeof(T),
                (unsigned long long)bytes);
    strided_in(dst, "dst", m, E, repeat, 1, (uint64_t)dr, loc, api);
    const int64_t top = mask_top(m, E);
    if (m.known && repeat > 0 && top >= 0)
        offset.need((uint64_t)(repeat - 1) * E + (uint64_t)top + 1, loc, api);
    mask_emit(c, m);
    dvk_vgather(c, dst.addr(), offset.addr(), src.addr(), (int64_t)bytes, base, dtype_of<T>(), repeat, dr);
}

} // namespace dvac

#define DVAC_GATHER_TYPES                                                                                            \
    static_assert(dvac::gather_type_ok<T>(), "Gather: dtype not supported on dav-2201 (half, bfloat16_t, uint16_t, " \
                                             "int16_t, float, uint32_t, int32_t)")

namespace AscendC {

template <typename T>
inline void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &srcOffset,
                   const uint32_t srcBaseOffset, const uint64_t mask, const uint8_t repeatTime,
                   const uint16_t dstRepStride, const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_GATHER_TYPES;
    dvac::gather_l0(dst, src, srcOffset, srcBaseOffset, dvac::MaskArg::of(mask, true), repeatTime, dstRepStride, loc);
}
template <typename T>
inline void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &srcOffset,
                   const uint32_t srcBaseOffset, const uint64_t mask[], const uint8_t repeatTime,
                   const uint16_t dstRepStride, const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_GATHER_TYPES;
    dvac::gather_l0(dst, src, srcOffset, srcBaseOffset, dvac::MaskArg::of(mask, true), repeatTime, dstRepStride, loc);
}
/* count elements: whole repeats in one call, the tail in a second (CANN's level 2 on dav-2201). */
template <typename T>
inline void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &srcOffset,
                   const uint32_t srcBaseOffset, const uint32_t count, const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_GATHER_TYPES;
    if (!dvac::vec_stream(loc))
        return;
    constexpr uint32_t E = dvac::rep_elems<T>();
    const uint32_t repeats = count / E, tail = count % E;
    if (repeats > 255)
        dvac::fail_at(loc, "Gather", "count %u is %u repeats; CANN's level 2 passes them as one uint8_t repeatTime "
                      "(at most 255)", count, repeats);
    dvac::count_in(dst, count, "dst", loc, "Gather");
    dvac::count_in(srcOffset, count, "srcOffset", loc, "Gather");
    if (repeats > 0)
        dvac::gather_l0(dst, src, srcOffset, srcBaseOffset, dvac::MaskArg::of((uint64_t)E, true), repeats,
                        DEFAULT_REPEAT_STRIDE, loc);
    if (tail > 0)
        dvac::gather_l0(dst[count - tail], src, srcOffset[count - tail], srcBaseOffset,
                        dvac::MaskArg::of((uint64_t)tail, true), 1, DEFAULT_REPEAT_STRIDE, loc);
}

/* Gatherb (uint16_t, uint32_t): all mask bits, then vgatherb over repeatTime repeats of 8 offsets. */
template <typename T>
inline void Gatherb(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &offset,
                    const uint8_t repeatTime, const GatherRepeatParams &repeatParams,
                    const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::one_of<T, uint16_t, uint32_t>(), "Gatherb: dtype not supported on dav-2201 (uint16_t, "
                                                         "uint32_t)");
    const char *api = "Gatherb";
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    dvac::ub_operand(dst, "dst", 32, loc, api);
    dvac::ub_operand(src, "src", 32, loc, api);
    dvac::ub_operand(offset, "offset", 32, loc, api);
    const int64_t db = dvac::stride8(repeatParams.dstBlkStride, "dstBlkStride", loc, api);
    const int64_t dr = dvac::stride8(repeatParams.dstRepStride, "dstRepStride", loc, api);
    if (repeatTime > 0) {
        offset.need((uint64_t)repeatTime * 8, loc, api);
        dst.need(((uint64_t)(repeatTime - 1) * dr * 32 + 7 * db * 32 + 32) / sizeof(T), loc, api);
    }
    dvk_set_vector_mask(c, FULL_MASK, FULL_MASK);
    dvk_vgatherb(c, dst.addr(), offset.addr(), src.addr(), (int64_t)src.GetSize() * sizeof(T), dvac::dtype_of<T>(),
                 repeatTime, db, dr);
}

/* GatherMask is not modelled (vreducev2's selection by pattern, and the RSVD_CNT register that returns
 * the count): declared so that a kernel which names it in code it does not instantiate compiles, and
 * a call fails to compile, naming the API. */
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T> &, const LocalTensor<T> &, const LocalTensor<U> &, const bool,
                       const uint32_t, const GatherMaskParams &, uint64_t &, const dvac::Loc & = dvac::Loc::here())
{
    static_assert(dvac::never<T>(), "GatherMask: not modelled by dvsim (vreducev2 and its RSVD_CNT register)");
}
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T> &, const LocalTensor<T> &, const uint8_t, const bool, const uint32_t,
                       const GatherMaskParams &, uint64_t &, const dvac::Loc & = dvac::Loc::here())
{
    static_assert(dvac::never<T>(), "GatherMask: not modelled by dvsim (vreducev2 and its RSVD_CNT register)");
}

} // namespace AscendC

#undef DVAC_GATHER_TYPES

#endif
