/* dvac/vec_reduce_group.h - the reductions per datablock and per pair: BlockReduceSum / Max / Min
 * (vcgadd / vcgmax / vcgmin) and PairReduceSum (vcpadd), one instruction per call as CANN's dav-2201
 * implementation emits them; and the ReduceType-templated names of CANN's newer interface,
 * ReduceDataBlock, ReducePairElem and ReduceRepeat (the last on WholeReduceSum / Max / Min of
 * vec_reduce.h) (docs/ASCENDC.md, "Vector API"). */
#ifndef DVAC_VEC_REDUCE_GROUP_H
#define DVAC_VEC_REDUCE_GROUP_H

#include "vec_reduce.h"

namespace AscendC {

enum class ReduceType { NONE = -1, SUM = 0, MAX, MIN };

} // namespace AscendC

namespace dvac {

/* One vcgadd / vcgmax / vcgmin (pair = false) or vcpadd (pair = true): the mask as CANN sets it, the
 * operands in UB (src 32-byte aligned; dst at a repeat's results: 8 elements for the block
 * reductions, 32 bytes for the pair sums), and, with a known mask, src and dst holding every
 * element the call reads and writes. */
template <typename T>
inline void red_group(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src, MaskArg ma,
                      int32_t repeat, int32_t dst_rep, int32_t src_blk, int32_t src_rep, AscendC::ReduceType type,
                      bool pair, const Loc &loc, const char *api)
{
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return;
    constexpr uint32_t E = rep_elems<T>(), epb = blk_elems<T>();
    const Mask m = ma.resolve(E, E, loc, api);
    if (repeat < 0 || repeat > 255)
        fail_at(loc, api, "repeatTime %d is not in [0, 255]", repeat);
    const int64_t dr = stride8((uint32_t)dst_rep, "dstRepStride", loc, api);
    const int64_t sb = stride8((uint32_t)src_blk, "srcBlkStride", loc, api);
    const int64_t sr = stride8((uint32_t)src_rep, "srcRepStride", loc, api);
    ub_operand(dst, "dst", pair ? 32 : 8 * sizeof(T), loc, api);
    ub_operand(src, "src", 32, loc, api);
    strided_in(src, "src", m, E, (uint64_t)repeat, (uint64_t)sb, (uint64_t)sr, loc, api);
    const int64_t top = mask_top(m, E);
    if (m.known && repeat > 0 && top >= 0) {
        const uint32_t g = pair ? 2 : epb, per_rep = E / g;
        count_in(dst, (int64_t)(repeat - 1) * dr * per_rep + top / g + 1, "dst", loc, api);
    }
    mask_emit(c, m);
    const dv_dtype_t t = dtype_of<T>();
    if (pair)
        dvk_vcpadd(c, dst.addr(), src.addr(), t, repeat, dr, sb, sr, 0);
    else if (type == AscendC::ReduceType::SUM)
        dvk_vcgadd(c, dst.addr(), src.addr(), t, repeat, dr, sb, sr, 0);
    else if (type == AscendC::ReduceType::MAX)
        dvk_vcgmax(c, dst.addr(), src.addr(), t, repeat, dr, sb, sr, 0);
    else
        dvk_vcgmin(c, dst.addr(), src.addr(), t, repeat, dr, sb, sr, 0);
}

} // namespace dvac

#define DVAC_GRP_TYPE(T, Api)                                                                                        \
    static_assert(dvac::reduce_type_ok<T>(), Api ": dtype not supported on dav-2201 (half, float)")

namespace AscendC {

/* ---- BlockReduceSum / Max / Min, PairReduceSum: (dst, src, repeatTime, mask, strides) ---- */
#define DVAC_BLOCK_RED(Api, TYPE, PAIR, mask_t)                                                                       \
    template <typename T, bool isSetMask = true>                                                                     \
    inline void Api(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime, mask_t mask,     \
                    const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,              \
                    const dvac::Loc &loc = dvac::Loc::here())                                                        \
    {                                                                                                                \
        DVAC_GRP_TYPE(T, #Api);                                                                                      \
        dvac::red_group(dst, src, dvac::MaskArg::of(mask, isSetMask), repeatTime, dstRepStride, srcBlkStride,        \
                        srcRepStride, ReduceType::TYPE, PAIR, loc, #Api);                                            \
    }
DVAC_BLOCK_RED(BlockReduceSum, SUM, false, const int32_t)
DVAC_BLOCK_RED(BlockReduceSum, SUM, false, const uint64_t *)
DVAC_BLOCK_RED(BlockReduceMax, MAX, false, const int32_t)
DVAC_BLOCK_RED(BlockReduceMax, MAX, false, const uint64_t *)
DVAC_BLOCK_RED(BlockReduceMin, MIN, false, const int32_t)
DVAC_BLOCK_RED(BlockReduceMin, MIN, false, const uint64_t *)
DVAC_BLOCK_RED(PairReduceSum, SUM, true, const int32_t)
DVAC_BLOCK_RED(PairReduceSum, SUM, true, const uint64_t *)
#undef DVAC_BLOCK_RED

/* ---- ReduceDataBlock<type>, ReducePairElem<SUM>, ReduceRepeat<type>: (dst, src, mask, repeatTime, strides);
 * dst and src of one type on dav-2201 ---- */
#define DVAC_TYPED_RED(mask_t)                                                                                       \
    template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                                   \
    inline void ReduceDataBlock(const LocalTensor<T> &dst, const LocalTensor<U> &src, mask_t mask,                   \
                                const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,    \
                                const int32_t srcRepStride, const dvac::Loc &loc = dvac::Loc::here())              \
    {                                                                                                                \
        static_assert(reduceType != ReduceType::NONE, "ReduceDataBlock: reduceType is SUM, MAX or MIN");             \
        static_assert(std::is_same<T, U>::value, "ReduceDataBlock: dst and src have one type on dav-2201");          \
        DVAC_GRP_TYPE(T, "ReduceDataBlock");                                                                         \
        dvac::red_group(dst, src, dvac::MaskArg::of(mask, isSetMask), repeatTime, dstRepStride, srcBlkStride,        \
                        srcRepStride, reduceType, false, loc, "ReduceDataBlock");                                    \
    }                                                                                                                \
    template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                                   \
    inline void ReducePairElem(const LocalTensor<T> &dst, const LocalTensor<U> &src, mask_t mask,                    \
                               const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,     \
                               const int32_t srcRepStride, const dvac::Loc &loc = dvac::Loc::here())               \
    {                                                                                                                \
        static_assert(reduceType == ReduceType::SUM, "ReducePairElem: only ReduceType::SUM");                        \
        static_assert(std::is_same<T, U>::value, "ReducePairElem: dst and src have one type on dav-2201");           \
        DVAC_GRP_TYPE(T, "ReducePairElem");                                                                          \
        dvac::red_group(dst, src, dvac::MaskArg::of(mask, isSetMask), repeatTime, dstRepStride, srcBlkStride,        \
                        srcRepStride, reduceType, true, loc, "ReducePairElem");                                      \
    }                                                                                                                \
    template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                                   \
    inline void ReduceRepeat(const LocalTensor<T> &dst, const LocalTensor<U> &src, mask_t mask,                      \
                             const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,       \
                             const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,        \
                             const dvac::Loc &loc = dvac::Loc::here())                                               \
    {                                                                                                                \
        static_assert(reduceType != ReduceType::NONE, "ReduceRepeat: reduceType is SUM, MAX or MIN");                \
        static_assert(std::is_same<T, U>::value, "ReduceRepeat: dst and src have one type on dav-2201");             \
        DVAC_GRP_TYPE(T, "ReduceRepeat");                                                                            \
        const ReduceMode mode = reduceType == ReduceType::SUM   ? ReduceMode::REDUCE_SUM                              \
                                : reduceType == ReduceType::MAX ? ReduceMode::REDUCE_MAX                              \
                                                                : ReduceMode::REDUCE_MIN;                             \
        dvac::red_whole(dst, src, dvac::MaskArg::of(mask, isSetMask), repeatTime, dstRepStride, srcBlkStride,        \
                        srcRepStride, mode, reduceType == ReduceType::SUM ? ReduceOrder::ORDER_VALUE_INDEX : order,  \
                        loc, "ReduceRepeat");                                                                        \
    }
DVAC_TYPED_RED(const int32_t)
DVAC_TYPED_RED(const uint64_t *)
#undef DVAC_TYPED_RED

} // namespace AscendC

#undef DVAC_GRP_TYPE

#endif
