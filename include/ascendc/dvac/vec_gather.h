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

} // namespace AscendC

namespace dvac {

/* GatherMask: vreducev2 with the mask mode CANN's dav-2201 code sets (count mode for reduceMode, whose
 * mask is the element count of each repeat; the mask register is (0, mask) either way), then RSVD_CNT
 * read by the scalar unit after the V pipe (get_rsvd_cnt, which waits for the vector instruction on
 * hardware). */
template <typename T>
inline void gather_mask(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src0, uint64_t src1,
                        uint8_t pattern, bool reduceMode, uint32_t mask, const AscendC::GatherMaskParams &p,
                        uint64_t &rsvdCnt, const Loc &loc)
{
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GatherMask: 16- or 32-bit elements");
    const char *api = "GatherMask";
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return;
    if (reduceMode && mask == 0)
        fail_at(loc, api, "reduceMode (count mode) needs a mask of at least 1 element");
    if (p.repeatTimes > 255)
        fail_at(loc, api, "repeatTimes %u is not in [0, 255]", p.repeatTimes);
    ub_operand(dst, "dst", 32, loc, api);
    ub_operand(src0, "src0", 32, loc, api);
    /* p.repeatTimes repeats of E elements, or (reduceMode) of `mask` elements each */
    constexpr uint32_t E = 256 / sizeof(T);
    const uint64_t per = reduceMode ? mask : E;
    if (p.repeatTimes > 0) {
        const uint64_t last = per - 1;
        const uint64_t end = (uint64_t)(p.repeatTimes - 1) * p.src0RepeatStride * 32 +
                             (last / (E / 8)) * p.src0BlockStride * 32 + (last % (E / 8) + 1) * sizeof(T);
        if ((end + sizeof(T) - 1) / sizeof(T) > src0.GetSize())
            fail_at(loc, api, "src0: the repeats reach element %llu, past the tensor's %u",
                    (unsigned long long)((end + sizeof(T) - 1) / sizeof(T) - 1), src0.GetSize());
    }
    if (reduceMode)
        dvk_set_mask_count(c);
    else
        dvk_set_mask_norm(c);
    dvk_set_vector_mask(c, 0, mask);
    dvk_vreducev2(c, dst.addr(), src0.addr(), src1, dtype_of<T>(), (int64_t)p.repeatTimes,
                  stride8(p.src0BlockStride, "src0BlockStride", loc, api),
                  stride8(p.src0RepeatStride, "src0RepeatStride", loc, api),
                  stride8(p.src1RepeatStride, "src1RepeatStride", loc, api), pattern);
    dvk_set_flag(c, DV_PIPE_V, DV_PIPE_S, 7);
    dvk_wait_flag(c, DV_PIPE_V, DV_PIPE_S, 7);
    dvk_synced_pipes(c, 1u << DV_PIPE_V);
    rsvdCnt = dvk_read_rsvd_cnt(c);
    dvk_set_mask_norm(c);
}

} // namespace dvac

namespace AscendC {

/* GatherMask with a pattern tensor: uint16_t bits for 16-bit elements, uint32_t for 32-bit ones. */
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<U> &src1Pattern,
                       const bool reduceMode, const uint32_t mask, const GatherMaskParams &gatherMaskParams,
                       uint64_t &rsvdCnt, const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(sizeof(U) == sizeof(T) && std::is_unsigned<U>::value,
                  "GatherMask: the pattern is uint16_t for 16-bit elements, uint32_t for 32-bit ones");
    dvac::ub_operand(src1Pattern, "src1Pattern", 32, loc, "GatherMask");
    dvac::gather_mask(dst, src0, src1Pattern.addr(), 0, reduceMode, mask, gatherMaskParams, rsvdCnt, loc);
}
/* GatherMask with a fixed pattern 1..7 (1 even, 2 odd elements, 3..6 the first..fourth of every four, 7 all). */
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const uint8_t src1Pattern,
                       const bool reduceMode, const uint32_t mask, const GatherMaskParams &gatherMaskParams,
                       uint64_t &rsvdCnt, const dvac::Loc &loc = dvac::Loc::here())
{
    if (src1Pattern < 1 || src1Pattern > 7)
        dvac::fail_at(loc, "GatherMask", "src1Pattern %u is not a fixed pattern [1, 7]", src1Pattern);
    dvac::gather_mask(dst, src0, dst.addr(), src1Pattern, reduceMode, mask, gatherMaskParams, rsvdCnt, loc);
}

} // namespace AscendC

#undef DVAC_GATHER_TYPES

#endif
