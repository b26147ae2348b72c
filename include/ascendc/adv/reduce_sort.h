/* adv/reduce_sort.h - Ascend C high-level API, reduction, sort and filter: Sum, ReduceMax / ReduceMin /
 * ReduceSum with a reduce pattern (AR, RA), Select with a byte mask (SelectWithBytesMask), DropOut, TopK.
 * Kernel side, built from the vector instructions CANN's dav-2201 implementations issue
 * (asc-devkit impl/adv_api/detail/...), so their time comes from the model.  docs/ASCENDC.md,
 * "Reduction, sort and filter", lists what each emits and where dvsim's sequence differs. */
#ifndef DVSIM_ADV_REDUCE_SORT_H
#define DVSIM_ADV_REDUCE_SORT_H

#include "../dvac/core.h"
#include "../dvac/tensor.h"
#include "../dvac/vec.h"
#include "reduce_sort_tiling.h"

namespace AscendC {

/* Sum's shape (include/adv_api/reduce/sum_utils.h): outter rows of `inner` elements (32-byte aligned),
 * the first n of each summed. */
struct SumParams {
    uint32_t outter = 1;
    uint32_t inner;
    uint32_t n;
};

/* The reduce patterns of ReduceMax / ReduceMin / ReduceSum (include/adv_api/reduce/reduce_common.h):
 * dav-2201 has AR (reduce the last axis) and RA (reduce the first). */
namespace Pattern {
namespace Reduce {
struct AR {};
struct RA {};
} // namespace Reduce
} // namespace Pattern

/* SelectWithBytesMask's and DropOut's shapes (impl/basic_api/utils/kernel_utils_struct_norm_sort.h). */
struct SelectWithBytesMaskShapeInfo {
    SelectWithBytesMaskShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};
struct DropOutShapeInfo {
    DropOutShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};

} // namespace AscendC

namespace dvac {
namespace rs {

enum class Op { MAX, MIN, SUM };

inline void bar(dv_k_t *c) { dvk_pipe_barrier(c, DV_PIPE_V); }
/* Count mode with n elements (the mask register's low word). */
inline void count(dv_k_t *c, uint64_t n) { dvk_set_vector_mask(c, 0, n); }
/* Back to normal mode with every bit set (CANN's SetMaskNorm; ResetMask). */
inline void norm(dv_k_t *c)
{
    dvk_set_mask_norm(c);
    dvk_set_vector_mask(c, AscendC::FULL_MASK, AscendC::FULL_MASK);
}
/* A normal-mode mask of the first n elements of a repeat. */
inline void first(dv_k_t *c, uint32_t n)
{
    uint64_t hi, lo;
    first_n(n, hi, lo);
    dvk_set_vector_mask(c, hi, lo);
}

/* dst = src0 OP src1 (vmax / vmin / vadd); strides in datablocks. */
template <typename T>
inline void bin(dv_k_t *c, Op op, uint64_t d, uint64_t s0, uint64_t s1, int64_t rep, int64_t db, int64_t s0b,
                int64_t s1b, int64_t dr, int64_t s0r, int64_t s1r)
{
    if (op == Op::MAX)
        dvk_vmax(c, d, s0, s1, dtype_of<T>(), rep, db, s0b, s1b, dr, s0r, s1r);
    else if (op == Op::MIN)
        dvk_vmin(c, d, s0, s1, dtype_of<T>(), rep, db, s0b, s1b, dr, s0r, s1r);
    else
        dvk_vadd(c, d, s0, s1, dtype_of<T>(), rep, db, s0b, s1b, dr, s0r, s1r);
}
/* Per datablock of each repeat, one result (vcgmax / vcgmin / vcgadd: BlockReduceMax / Min / Sum). */
template <typename T>
inline void grp(dv_k_t *c, Op op, uint64_t d, uint64_t s, int64_t rep, int64_t dr, int64_t sb, int64_t sr)
{
    if (op == Op::MAX)
        dvk_vcgmax(c, d, s, dtype_of<T>(), rep, dr, sb, sr, 0);
    else if (op == Op::MIN)
        dvk_vcgmin(c, d, s, dtype_of<T>(), rep, dr, sb, sr, 0);
    else
        dvk_vcgadd(c, d, s, dtype_of<T>(), rep, dr, sb, sr, 0);
}
/* dst = src + 0 (CANN's copy through Adds). */
template <typename T>
inline void copy0(dv_k_t *c, uint64_t d, uint64_t s, int64_t db, int64_t sb, int64_t dr, int64_t sr)
{
    dvk_vadds(c, d, s, dtype_of<T>(), 0.0, 1, db, sb, dr, sr);
}

/* Normal mode: one result per row whose first datablock (row_blk datablocks apart) holds `valid`
 * elements: vcgmax over 8 rows per repeat (BlockReduce with block stride row_blk), dst contiguous. */
template <typename T>
inline void rows_blk(dv_k_t *c, Op op, uint64_t dst, uint64_t src, uint32_t rows, uint32_t valid, uint32_t row_blk)
{
    constexpr uint32_t E = rep_elems<T>(), epb = blk_elems<T>();
    auto bits = [&](uint32_t blocks, uint64_t &hi, uint64_t &lo) {
        hi = lo = 0;
        for (uint32_t e = 0; e < E; e++)
            if (e % epb < valid && e / epb < blocks)
                (e < 64 ? lo : hi) |= 1ull << (e % 64);
    };
    const uint32_t full = rows / 8, tail = rows % 8;
    const uint64_t row_b = (uint64_t)row_blk * 32;
    uint64_t hi, lo;
    dvk_set_mask_norm(c);
    bits(8, hi, lo);
    dvk_set_vector_mask(c, hi, lo);
    for (uint32_t r = 0; r < full; r += 255) {
        const uint32_t n = full - r < 255 ? full - r : 255;
        grp<T>(c, op, dst + (uint64_t)r * 8 * sizeof(T), src + (uint64_t)r * 8 * row_b, n, 1, row_blk, 8 * row_blk);
    }
    if (tail) {
        bits(tail, hi, lo);
        dvk_set_vector_mask(c, hi, lo);
        grp<T>(c, op, dst + (uint64_t)full * 8 * sizeof(T), src + (uint64_t)full * 8 * row_b, 1, 1, row_blk,
               8 * row_blk);
    }
    bar(c);
}

/* Normal mode, `rows` repeats in runs of 255: dst row r = src0 row r OP src1 row r, the first n
 * elements of each (rows dr / s0r / s1r datablocks apart). */
template <typename T>
inline void rows_bin(dv_k_t *c, Op op, uint64_t d, uint64_t s0, uint64_t s1, uint32_t rows, uint32_t n, int64_t dr,
                     int64_t s0r, int64_t s1r)
{
    first(c, n);
    for (uint32_t r = 0; r < rows; r += 255) {
        const uint32_t k = rows - r < 255 ? rows - r : 255;
        bin<T>(c, op, d + (uint64_t)r * dr * 32, s0 + (uint64_t)r * s0r * 32, s1 + (uint64_t)r * s1r * 32, k, 1, 1, 1,
               dr, s0r, s1r);
    }
    bar(c);
}

/* AR: dst[i] = OP over the `last` elements of row i (rows padLast apart), as CANN's
 * BlockReduceByLastAxis (impl/adv_api/detail/reduce/reduce_common_util_v220_impl.h): rows of one
 * datablock by BlockReduce; shorter than a repeat: block-wise OP across the row into one datablock
 * per row, then BlockReduce; longer: repeat-wise OP into one repeat per row, then BlockReduce twice
 * (float) or halving folds and a BlockReduce (half, where CANN uses WholeReduce's value-only order,
 * which dvsim's vcmax does not model); rows past 255 datablocks row by row (DoLongLastReduce).  The
 * work is tmp, or src itself with isReuseSource. */
template <typename T, bool reuse>
inline void reduce_ar(dv_k_t *c, Op op, uint64_t dst, uint64_t src, uint64_t tmp, uint32_t first, uint32_t last,
                      uint32_t padLast)
{
    constexpr uint32_t E = rep_elems<T>(), epb = blk_elems<T>();
    const uint32_t rb = padLast / epb; /* a row, in datablocks */
    const uint64_t s = sizeof(T);
    if (last <= epb) {
        rows_blk<T>(c, op, dst, src, first, last, 1);
        norm(c);
        return;
    }
    if (last < E) {
        const uint32_t full = last / epb, tail = last % epb;
        const uint64_t w = reuse ? src : tmp;
        const int64_t wb = reuse ? rb : 1; /* the work rows, in datablocks */
        dvk_set_mask_count(c);
        if (!reuse) {
            count(c, (uint64_t)first * epb);
            copy0<T>(c, tmp, src, 1, rb, 8, 8 * rb);
            bar(c);
        }
        for (uint32_t i = 1; i < full; i++) {
            count(c, (uint64_t)first * epb);
            bin<T>(c, op, w, w, src + (uint64_t)i * epb * s, 1, wb, wb, rb, 8 * wb, 8 * wb, 8 * rb);
            bar(c);
        }
        if (tail) {
            dvk_set_mask_norm(c);
            rows_bin<T>(c, op, w, w, src + (uint64_t)full * epb * s, first, tail, wb, wb, rb);
            dvk_set_mask_count(c);
        }
        count(c, (uint64_t)first * epb);
        grp<T>(c, op, dst, w, 1, 1, wb, 8 * wb);
        bar(c);
        norm(c);
        return;
    }
    const uint32_t full = last / E, tail = last % E;
    uint64_t w = reuse ? src : tmp;
    int64_t wr = reuse ? rb : 8; /* the work rows, in datablocks */
    dvk_set_mask_count(c);
    /* half rows reused in place end with a BlockReduce of block stride wr: at most 31 datablocks */
    const bool strided = rb <= 255 && (sizeof(T) == 4 || !reuse || 8 * rb <= 255);
    if (strided) { /* one instruction per repeat of the rows, the rows rb datablocks apart */
        if (!reuse) {
            count(c, (uint64_t)first * E);
            copy0<T>(c, tmp, src, 1, 1, 8, rb);
            bar(c);
        }
        for (uint32_t i = 1; i < full; i++) {
            count(c, (uint64_t)first * E);
            bin<T>(c, op, w, w, src + (uint64_t)i * E * s, 1, 1, 1, 1, wr, wr, rb);
            bar(c);
        }
        if (tail) {
            dvk_set_mask_norm(c);
            rows_bin<T>(c, op, w, w, src + (uint64_t)full * E * s, first, tail, wr, wr, rb);
            dvk_set_mask_count(c);
        }
    } else { /* longer rows (CANN's DoLongLastReduce): row by row, each into a repeat at w + row * E */
        wr = 8;
        const uint32_t reps = full + (tail ? 1 : 0), last_n = tail ? tail : E;
        if (!reuse) {
            count(c, E);
            for (uint32_t j = 0; j < first; j++) {
                copy0<T>(c, tmp + (uint64_t)j * E * s, src + (uint64_t)j * padLast * s, 1, 1, 8, 8);
                bar(c);
            }
            for (uint32_t i = 1; i < reps; i++) {
                count(c, i + 1 == reps ? last_n : E);
                for (uint32_t j = 0; j < first; j++) {
                    const uint64_t a = tmp + (uint64_t)j * E * s;
                    bin<T>(c, op, a, a, src + ((uint64_t)j * padLast + (uint64_t)i * E) * s, 1, 1, 1, 1, 8, 8, 8);
                    bar(c);
                }
            }
        } else { /* row j folds into src + j * E, behind what rows j and later still read */
            for (uint32_t j = 0; j < first; j++)
                for (uint32_t i = 1; i < reps; i++) {
                    count(c, i + 1 == reps ? last_n : E);
                    const uint64_t row = src + (uint64_t)j * padLast * s, a = src + (uint64_t)j * E * s;
                    bin<T>(c, op, a, i == 1 ? row : a, row + (uint64_t)i * E * s, 1, 1, 1, 1, 8, 8, 8);
                    bar(c);
                }
        }
    }
    if constexpr (sizeof(T) == 4) {
        count(c, (uint64_t)first * E);
        grp<T>(c, op, w, w, 1, 1, 1, wr);
        bar(c);
        count(c, (uint64_t)first * 8);
        grp<T>(c, op, dst, w, 1, 1, 1, 8);
        bar(c);
        norm(c);
    } else {
        dvk_set_mask_norm(c);
        for (uint32_t h = E / 2; h >= epb; h /= 2)
            rows_bin<T>(c, op, w, w, w + (uint64_t)h * s, first, h, wr, wr, wr);
        rows_blk<T>(c, op, dst, w, first, epb, (uint32_t)wr);
        norm(c);
    }
}

/* RA: dst[j] = OP over the `first` rows of column j, as CANN's BinaryReduceByFirstAxis: the rows past
 * the largest power of two folded onto it, then halving folds, then a copy of `last` elements. */
template <typename T, bool reuse>
inline void reduce_ra(dv_k_t *c, Op op, uint64_t dst, uint64_t src, uint64_t tmp, uint32_t first, uint32_t last,
                      uint32_t padLast)
{
    const uint64_t s = sizeof(T);
    uint32_t split = 1;
    while (split * 2 <= first)
        split *= 2;
    const uint32_t remain = first - split;
    auto fold = [&](uint64_t d, uint64_t s0, uint64_t s1, uint64_t n) {
        count(c, n);
        bin<T>(c, op, d, s0, s1, 1, 1, 1, 1, 8, 8, 8);
        bar(c);
    };
    dvk_set_mask_count(c);
    if (reuse) {
        if (remain)
            fold(src, src, src + (uint64_t)split * padLast * s, (uint64_t)padLast * remain);
    } else if (remain) {
        count(c, (uint64_t)split * padLast);
        copy0<T>(c, tmp, src, 1, 1, 8, 8);
        bar(c);
        fold(tmp, tmp, src + (uint64_t)split * padLast * s, (uint64_t)padLast * remain);
    } else if (split > 1) {
        split /= 2;
        fold(tmp, src, src + (uint64_t)split * padLast * s, (uint64_t)padLast * split);
    } else {
        count(c, last);
        copy0<T>(c, dst, src, 1, 1, 8, 8);
        bar(c);
        norm(c);
        return;
    }
    const uint64_t w = reuse ? src : tmp;
    while (split > 1) {
        split /= 2;
        fold(w, w, w + (uint64_t)split * padLast * s, (uint64_t)padLast * split);
    }
    count(c, last);
    copy0<T>(c, dst, w, 1, 1, 8, 8);
    bar(c);
    norm(c);
}

/* The work elements ReduceMax / Min / Sum need (GetReduce*MaxMinTmpSize's figure). */
template <typename T> inline uint64_t reduce_tmp_elems(bool ar, uint32_t first, uint32_t last, uint32_t padLast)
{
    constexpr uint32_t E = rep_elems<T>(), epb = blk_elems<T>();
    if (ar)
        return last <= epb ? 0 : last < E ? (uint64_t)first * epb : (uint64_t)first * E;
    uint32_t split = 1;
    while (split * 2 <= first)
        split *= 2;
    if (split == first && first > 1)
        split /= 2;
    return (uint64_t)split * padLast;
}

template <typename T, class pattern, bool reuse>
inline void reduce(Op op, const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                   const AscendC::LocalTensor<uint8_t> *tmp, const uint32_t srcShape[], const Loc &loc,
                   const char *api, bool mean = false)
{
    static_assert(std::is_same<pattern, AscendC::Pattern::Reduce::AR>::value ||
                      std::is_same<pattern, AscendC::Pattern::Reduce::RA>::value,
                  "ReduceMax / ReduceMin / ReduceSum: dav-2201 has the AR and RA patterns");
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return;
    constexpr bool ar = std::is_same<pattern, AscendC::Pattern::Reduce::AR>::value;
    if (!srcShape)
        fail_at(loc, api, "srcShape is NULL");
    const uint32_t first = srcShape[0], last = srcShape[1];
    if (!first || !last)
        fail_at(loc, api, "srcShape {%u, %u}: both axes must be at least 1", first, last);
    const uint32_t padLast = (last + blk_elems<T>() - 1) / blk_elems<T>() * blk_elems<T>();
    ub_operand(dst, "dst", 32, loc, api);
    ub_operand(src, "src", 32, loc, api);
    src.need((uint64_t)first * padLast, loc, api);
    dst.need(ar ? first : last, loc, api);
    uint64_t t = 0;
    if (!reuse) {
        const uint64_t need = reduce_tmp_elems<T>(ar, first, last, padLast);
        if (need) {
            if (!tmp)
                fail_at(loc, api, "needs sharedTmpBuffer (or isReuseSource): dvsim does not model the stack "
                        "buffer CANN takes from the unallocated UB");
            ub_operand(*tmp, "sharedTmpBuffer", 32, loc, api);
            if (tmp->GetSize() < need * sizeof(T))
                fail_at(loc, api, "sharedTmpBuffer has %u bytes; this shape needs %llu (GetReduce*MaxMinTmpSize)",
                        tmp->GetSize(), (unsigned long long)(need * sizeof(T)));
            t = tmp->addr();
        }
    }
    if constexpr (ar)
        reduce_ar<T, reuse>(c, op, dst.addr(), src.addr(), t, first, last, padLast);
    else
        reduce_ra<T, reuse>(c, op, dst.addr(), src.addr(), t, first, last, padLast);
    if (mean) { /* ReduceMean: the sums times 1 / (the reduced axis), in count mode */
        dvk_set_mask_count(c);
        count(c, ar ? first : last);
        dvk_vmuls(c, dst.addr(), dst.addr(), dtype_of<T>(), (double)(1.0f / (float)(int32_t)(ar ? last : first)), 1,
                  1, 1, 8, 8);
        bar(c);
        norm(c);
    }
}

} // namespace rs
} // namespace dvac

namespace AscendC {

#define DVAC_RS_REDUCE(Api, OP, MEAN, TYPES, MSG)                                                                    \
    template <class T, class pattern, bool isReuseSource = false>                                                    \
    inline void Api(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,                                \
                    const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t srcShape[], bool srcInnerPad,        \
                    const dvac::Loc &loc = dvac::Loc::here())                                                        \
    {                                                                                                                \
        static_assert(TYPES, #Api ": " MSG);                                                                         \
        (void)srcInnerPad;                                                                                           \
        dvac::rs::reduce<T, pattern, isReuseSource>(OP, dstTensor, srcTensor, &sharedTmpBuffer, srcShape, loc, #Api, \
                                                    MEAN);                                                           \
    }                                                                                                                \
    template <class T, class pattern, bool isReuseSource = false>                                                    \
    inline void Api(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t srcShape[],     \
                    bool srcInnerPad, const dvac::Loc &loc = dvac::Loc::here())                                      \
    {                                                                                                                \
        static_assert(TYPES, #Api ": " MSG);                                                                         \
        (void)srcInnerPad;                                                                                           \
        dvac::rs::reduce<T, pattern, isReuseSource>(OP, dstTensor, srcTensor, nullptr, srcShape, loc, #Api, MEAN);   \
    }

/* Max / min / sum over the last axis (AR, srcShape {a, r}) or the first (RA, srcShape {r, a}) of a
 * 2-D tensor whose rows are padded to 32 bytes (impl/adv_api/detail/reduce/reduce_{max,min,sum}_v220_impl.h). */
DVAC_RS_REDUCE(ReduceMax, dvac::rs::Op::MAX, false, (dvac::one_of<T, half, float>()), "half or float on dav-2201")
DVAC_RS_REDUCE(ReduceMin, dvac::rs::Op::MIN, false, (dvac::one_of<T, half, float>()), "half or float on dav-2201")
DVAC_RS_REDUCE(ReduceSum, dvac::rs::Op::SUM, false, (std::is_same<T, float>::value), "float on dav-2201")
/* ReduceMean (reduce_mean_v220_impl.h): ReduceSum, then Muls by 1 / the reduced axis's length. */
DVAC_RS_REDUCE(ReduceMean, dvac::rs::Op::SUM, true, (std::is_same<T, float>::value), "float on dav-2201")
#undef DVAC_RS_REDUCE

/* Sum of the first n elements of each of `outter` rows of `inner` (sum_common_impl.h): count-mode vcadd
 * (RepeatReduceSum) of each row into partial sums per repeat, then vcadd of those until one is left. */
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                const LocalTensor<uint8_t> &sharedTmpBuffer, const SumParams &sumParams,
                const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::one_of<T, half, float>(), "Sum: half or float on dav-2201");
    const char *api = "Sum";
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    constexpr uint32_t E = dvac::rep_elems<T>();
    const SumParams &p = sumParams;
    if (!p.n || p.n > p.inner)
        dvac::fail_at(loc, api, "n is %u: it must be in [1, inner = %u]", p.n, p.inner);
    if (p.inner * sizeof(T) % 32)
        dvac::fail_at(loc, api, "inner %u is not 32-byte aligned", p.inner);
    dvac::ub_operand(dstTensor, "dstTensor", sizeof(T), loc, api);
    dvac::ub_operand(srcTensor, "srcTensor", 32, loc, api);
    srcTensor.need((uint64_t)p.outter * p.inner, loc, api);
    dstTensor.need(p.outter, loc, api);
    const uint32_t reps = (p.n + E - 1) / E;
    dvk_set_mask_count(c);
    if (reps == 1) {
        dvac::rs::count(c, p.n);
        for (uint32_t row = 0; row < p.outter; row++)
            dvk_vcadd(c, dstTensor.addr() + (uint64_t)row * sizeof(T),
                      srcTensor.addr() + (uint64_t)row * p.inner * sizeof(T), dvac::dtype_of<T>(), 1, 1, 1, 8, 0);
        dvac::rs::norm(c);
        return;
    }
    const uint64_t need = ((uint64_t)reps * sizeof(T) + 31) / 32 * 32;
    dvac::ub_operand(sharedTmpBuffer, "sharedTmpBuffer", 32, loc, api);
    if (sharedTmpBuffer.GetSize() < need)
        dvac::fail_at(loc, api, "sharedTmpBuffer has %u bytes; n = %u needs %llu (GetSumMaxMinTmpSize)",
                      sharedTmpBuffer.GetSize(), p.n, (unsigned long long)need);
    const uint64_t t = sharedTmpBuffer.addr();
    for (uint32_t row = 0; row < p.outter; row++) {
        dvac::rs::count(c, p.n);
        dvk_vcadd(c, t, srcTensor.addr() + (uint64_t)row * p.inner * sizeof(T), dvac::dtype_of<T>(), 1, 1, 1, 8, 0);
        dvac::rs::bar(c);
        for (uint64_t n = reps;; n = (n + E - 1) / E) { /* n partial sums in t */
            const bool last = n <= E;
            dvac::rs::count(c, n);
            dvk_vcadd(c, last ? dstTensor.addr() + (uint64_t)row * sizeof(T) : t, t, dvac::dtype_of<T>(), 1, 1, 1, 8, 0);
            dvac::rs::bar(c);
            if (last)
                break;
        }
    }
    dvac::rs::norm(c);
}

/* Sum without sharedTmpBuffer: CANN pops a stack buffer, which dvsim does not model; rows of one repeat
 * need none. */
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const SumParams &sumParams,
                const dvac::Loc &loc = dvac::Loc::here())
{
    if (sumParams.n > dvac::rep_elems<T>() && dvac::vec_stream(loc))
        dvac::fail_at(loc, "Sum", "n %u is more than a repeat: pass a sharedTmpBuffer (dvsim does not model the "
                      "stack buffer CANN takes)", sumParams.n);
    Sum<T, reduceDim, isReuseSource, isBasicBlock>(dstTensor, srcTensor, LocalTensor<uint8_t>(), sumParams, loc);
}

} // namespace AscendC

namespace dvac {
namespace rs {

/* Select with a byte mask, one run of `n` elements (selectwithbytesmask_common_impl.h): the mask cast
 * to half, compared with 0 into a bit mask (EQ: a zero mask byte selects src0; NE when reversed), then
 * vsel between src0 and the scalar (dvsim's vsel reads it from memory: the reserved top of UB). */
template <typename T, typename U, bool reverse>
inline void sel_run(dv_k_t *c, uint64_t dst, uint64_t src0, uint64_t scalar, uint64_t mask, uint64_t work, uint32_t n)
{
    count(c, n);
    if constexpr (sizeof(U) == 1)
        dvk_vconv(c, work, mask, DV_DT_F16, std::is_same<U, int8_t>::value ? DV_DT_S8 : DV_DT_U8, DV_ROUND_R, 1, 1, 1,
                  8, 4);
    else
        dvk_vconv(c, work, mask, DV_DT_F16, DV_DT_S16, DV_ROUND_R, 1, 1, 1, 8, 8);
    bar(c);
    dvk_vcmps(c, work, work, DV_DT_F16, 0.0, reverse ? DV_CMP_NE : DV_CMP_EQ, (n + 127) / 128, 1, 8);
    bar(c);
    dvk_vsel(c, dst, src0, scalar, work, dtype_of<T>(), 1, 1, 1, 0, 8, 8, 0, 1);
    bar(c);
}

template <typename T, typename U, bool reverse>
inline void select_bytes(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src0, T src1,
                         const AscendC::LocalTensor<U> &mask, const AscendC::LocalTensor<uint8_t> &tmp,
                         const AscendC::SelectWithBytesMaskShapeInfo &info, const Loc &loc)
{
    static_assert(one_of<T, half, float>(), "Select: half or float on dav-2201");
    static_assert(sizeof(U) <= 2 && (std::is_integral<U>::value), "Select: dvsim models masks of bool, int8_t, "
                  "uint8_t, int16_t and uint16_t (CANN's 4-byte masks go through a round-to-odd Cast)");
    const char *api = "Select";
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return;
    const uint32_t rows = info.firstAxis, sl = info.srcLastAxis, ml = info.maskLastAxis;
    if (!rows || !sl || ml < sl)
        fail_at(loc, api, "info {%u, %u, %u}: firstAxis and srcLastAxis must be at least 1 and maskLastAxis at least "
                "srcLastAxis", rows, sl, ml);
    if (sl * sizeof(T) % 32 || ml * sizeof(U) % 32)
        fail_at(loc, api, "srcLastAxis %u and maskLastAxis %u must be 32-byte aligned", sl, ml);
    ub_operand(dst, "dst", 32, loc, api);
    ub_operand(src0, "src0", 32, loc, api);
    ub_operand(mask, "mask", 32, loc, api);
    ub_operand(tmp, "sharedTmpBuffer", 32, loc, api);
    src0.need((uint64_t)rows * sl, loc, api);
    dst.need((uint64_t)rows * sl, loc, api);
    mask.need((uint64_t)rows * ml, loc, api);
    if (tmp.GetSize() < 1024)
        fail_at(loc, api, "sharedTmpBuffer has %u bytes: at least 1024 (GetSelectMaxMinTmpSize)", tmp.GetSize());
    uint32_t loop = (tmp.GetSize() - 256) / 2 / 32 * 32;
    if (loop > 255 * 128)
        loop = 255 * 128;
    dvk_pipe_barrier(c, DV_PIPE_V);
    dvk_set_mask_count(c);
    const uint64_t sc = select_scalar(c, src1, true, loc, api);
    /* Rows whose mask is longer than the source: CANN first packs the mask with GatherMask (vreducev2,
     * not modelled by dvsim); here each row is its own run. */
    const uint32_t runs = sl == ml ? 1 : rows, len = sl == ml ? rows * sl : sl;
    for (uint32_t r = 0; r < runs; r++)
        for (uint32_t off = 0; off < len; off += loop) {
            const uint32_t n = len - off < loop ? len - off : loop;
            const uint64_t e = (uint64_t)r * sl + off;
            sel_run<T, U, reverse>(c, dst.addr() + e * sizeof(T), src0.addr() + e * sizeof(T), sc,
                                   mask.addr() + ((uint64_t)r * ml + off) * sizeof(U), tmp.addr(), n);
        }
    norm(c);
}

} // namespace rs
} // namespace dvac

namespace AscendC {

/* dst = mask element 0 ? src0 : src1 (a scalar), over firstAxis rows of srcLastAxis (the mask's rows are
 * maskLastAxis long); SelectWithBytesMask (include/adv_api/select/selectwithbytesmask.h). */
template <typename T, typename U, bool isReuseMask = true>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<T> &src0, T src1, const LocalTensor<U> &mask,
                   const LocalTensor<uint8_t> &sharedTmpBuffer, const SelectWithBytesMaskShapeInfo &info,
                   const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::rs::select_bytes<T, U, false>(dst, src0, src1, mask, sharedTmpBuffer, info, loc);
}
/* dst = mask element 0 ? src1 : src0 (src0 the scalar). */
template <typename T, typename U, bool isReuseMask = true>
inline void Select(const LocalTensor<T> &dst, T src0, const LocalTensor<T> &src1, const LocalTensor<U> &mask,
                   const LocalTensor<uint8_t> &sharedTmpBuffer, const SelectWithBytesMaskShapeInfo &info,
                   const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::rs::select_bytes<T, U, true>(dst, src1, src0, mask, sharedTmpBuffer, info, loc);
}

/* The same under CANN's implementation name (selectwithbytesmask_impl.h). */
template <typename T, typename U, bool isReuseMask = true>
inline void SelectWithBytesMask(const LocalTensor<T> &dst, const LocalTensor<T> &src0, T src1,
                                const LocalTensor<U> &mask, const LocalTensor<uint8_t> &sharedTmpBuffer,
                                const SelectWithBytesMaskShapeInfo &info, const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::rs::select_bytes<T, U, false>(dst, src0, src1, mask, sharedTmpBuffer, info, loc);
}
template <typename T, typename U, bool isReuseMask = true>
inline void SelectWithBytesMask(const LocalTensor<T> &dst, T src0, const LocalTensor<T> &src1,
                                const LocalTensor<U> &mask, const LocalTensor<uint8_t> &sharedTmpBuffer,
                                const SelectWithBytesMaskShapeInfo &info, const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::rs::select_bytes<T, U, true>(dst, src1, src0, mask, sharedTmpBuffer, info, loc);
}

/* DropOut (impl/adv_api/detail/filter/dropout/dropout_{impl,c220_impl,membase_impl}.h): dst = src * mask
 * / keepProb.  The mode follows from the shape as CANN chooses it: a byte mask (maskLastAxis ==
 * srcLastAxis: Cast u8 -> half (-> float), Mul, Muls; longer mask rows: per row) or a bit mask
 * (srcLastAxis == 8 * maskLastAxis: vsel against zeros, Muls; other lengths: per row).  CANN packs
 * misaligned mask rows with GatherMask, which dvsim does not model: it runs those row by row. */
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                    const LocalTensor<uint8_t> &maskLocal, const LocalTensor<uint8_t> &sharedTmpBuffer,
                    const float keepProb, const DropOutShapeInfo &info, const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::one_of<T, half, float>(), "DropOut: half or float on dav-2201");
    static_assert(dropOutMode <= 4, "DropOut: dropOutMode should be 0 / 1 / 2 / 3 / 4");
    const char *api = "DropOut";
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    const uint32_t rows = info.firstAxis, sl = info.srcLastAxis, ml = info.maskLastAxis;
    if (!rows || !sl || !ml)
        dvac::fail_at(loc, api, "info {%u, %u, %u}: every axis must be at least 1", rows, sl, ml);
    if (!(keepProb > 0.0f && keepProb < 1.0f))
        dvac::fail_at(loc, api, "keepProb %g is not in (0, 1)", (double)keepProb);
    uint32_t mode = dropOutMode;
    if (!mode)
        mode = sl < ml ? 1 : sl == ml ? 2 : sl == ml * 8 ? 3 : 4;
    const bool bits = mode == 3 || mode == 4;
    if (sl * sizeof(T) % 32 || ml % 32)
        dvac::fail_at(loc, api, "srcLastAxis %u and maskLastAxis %u must be 32-byte aligned", sl, ml);
    if (bits ? sl > ml * 8 : sl > ml)
        dvac::fail_at(loc, api, "a mask row of %u bytes is shorter than a source row of %u", ml, sl);
    dvac::ub_operand(dstLocal, "dstLocal", 32, loc, api);
    dvac::ub_operand(srcLocal, "srcLocal", 32, loc, api);
    dvac::ub_operand(maskLocal, "maskLocal", 32, loc, api);
    dvac::ub_operand(sharedTmpBuffer, "sharedTmpBuffer", 32, loc, api);
    srcLocal.need((uint64_t)rows * sl, loc, api);
    dstLocal.need((uint64_t)rows * sl, loc, api);
    maskLocal.need((uint64_t)rows * ml, loc, api);
    const double div = dvac::to_f64(static_cast<T>(1.0f / keepProb));
    const dv_dtype_t dt = dvac::dtype_of<T>();
    const bool packed = mode == 2 || mode == 3;
    const uint32_t runs = packed ? 1 : rows, len = packed ? rows * sl : sl;
    dvk_pipe_barrier(c, DV_PIPE_V);
    if (bits) {
        if (sharedTmpBuffer.GetSize() < 256)
            dvac::fail_at(loc, api, "sharedTmpBuffer has %u bytes: at least 256", sharedTmpBuffer.GetSize());
        /* DropOutBitModeInit: a repeat of zeros, CANN's CMPMASK source.  dvsim's vsel reads it from the
         * buffer, not from a register an earlier call set: written even with isInitBitMode. */
        const uint64_t zeros = sharedTmpBuffer.addr();
        dvk_set_vector_mask(c, AscendC::FULL_MASK, AscendC::FULL_MASK);
        dvk_vmuls(c, zeros, zeros, DV_DT_S16, 0.0, 1, 1, 1, 8, 8);
        dvac::rs::bar(c);
        dvk_set_mask_count(c);
        for (uint32_t r = 0; r < runs; r++) {
            const uint64_t d = dstLocal.addr() + (uint64_t)r * sl * sizeof(T);
            dvac::rs::count(c, len);
            dvk_vsel(c, d, srcLocal.addr() + (uint64_t)r * sl * sizeof(T), zeros, maskLocal.addr() + (uint64_t)r * ml,
                     dt, 1, 1, 1, 0, 8, 8, 0, 1);
            dvac::rs::bar(c);
            dvk_vmuls(c, d, d, dt, div, 1, 1, 1, 8, 8);
            dvac::rs::bar(c);
        }
        dvac::rs::norm(c);
        return;
    }
    /* Byte mode: the work is one half run (half) or a half and a float run (float). */
    const uint32_t per = sizeof(T) == 2 ? 2 : 6;
    const uint32_t chunk = sharedTmpBuffer.GetSize() / per / 32 * 32;
    if (!chunk)
        dvac::fail_at(loc, api, "sharedTmpBuffer has %u bytes: at least %u", sharedTmpBuffer.GetSize(), per * 32);
    const uint64_t h = sharedTmpBuffer.addr(), f = h + (uint64_t)chunk * 2;
    dvk_set_mask_count(c);
    for (uint32_t r = 0; r < runs; r++)
        for (uint32_t off = 0; off < len; off += chunk) {
            const uint32_t n = len - off < chunk ? len - off : chunk;
            const uint64_t e = (uint64_t)r * sl + off;
            const uint64_t d = dstLocal.addr() + e * sizeof(T), s = srcLocal.addr() + e * sizeof(T);
            dvac::rs::count(c, n);
            dvk_vconv(c, h, maskLocal.addr() + (uint64_t)r * ml + off, DV_DT_F16, DV_DT_U8, DV_ROUND_R, 1, 1, 1, 8, 4);
            dvac::rs::bar(c);
            uint64_t m = h;
            if (sizeof(T) == 4) {
                dvk_vconv(c, f, h, DV_DT_F32, DV_DT_F16, DV_ROUND_R, 1, 1, 1, 8, 4);
                dvac::rs::bar(c);
                m = f;
            }
            dvk_vmul(c, d, m, s, dt, 1, 1, 1, 1, 8, 8, 8);
            dvac::rs::bar(c);
            dvk_vmuls(c, d, d, dt, div, 1, 1, 1, 8, 8);
            dvac::rs::bar(c);
        }
    dvac::rs::norm(c);
}

} // namespace AscendC

namespace dvac {
namespace rs {

/* off[j] = 8j + add for j < n: byte offsets of the score (add 0) or the index (add 4) of 8-byte sorted
 * records (a V -> S flag, CreateVecIndex, then vmuls and vadds in count mode). */
inline void rec_offsets(const AscendC::LocalTensor<int32_t> &off, uint32_t n, int32_t add, const Loc &loc)
{
    fence<AscendC::HardEvent::V_S>(loc, "CreateVecIndex"); /* the scalar stores wait for V's reads of off */
    AscendC::CreateVecIndex(off, (int32_t)0, n, loc);
    dv_k_t *c = vec_stream(loc);
    bar(c);
    dvk_set_mask_count(c);
    count(c, n);
    dvk_vmuls(c, off.addr(), off.addr(), DV_DT_S32, 8.0, 1, 1, 1, 8, 8);
    bar(c);
    if (add) {
        dvk_vadds(c, off.addr(), off.addr(), DV_DT_S32, (double)add, 1, 1, 1, 8, 8);
        bar(c);
    }
    norm(c);
}
/* dst[j] = the element at src + off[j] (bytes), j < n: one vgather in count mode (the offsets are all
 * read before dst is written, so off may be dst itself). */
inline void gather_n(dv_k_t *c, uint64_t dst, uint64_t off, uint64_t src, uint64_t src_bytes, dv_dtype_t dt,
                     uint32_t n)
{
    dvk_set_mask_count(c);
    count(c, n);
    dvk_vgather(c, dst, off, src, (int64_t)src_bytes, 0, dt, 1, 8);
    bar(c);
    norm(c);
}

} // namespace rs
} // namespace dvac

namespace dvac {
namespace rs {

/* n records in runs of 32 at dst (Sort32's output) merged into one run, descending: rounds of four-way
 * MrgSort from a copy of dst in tmp (CANN's DoFullSort); a run left alone in a round stays in dst. */
template <typename T>
inline void merge_runs(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &tmp, uint32_t n,
                       const Loc &loc)
{
    using namespace AscendC;
    dv_k_t *c = vec_stream(loc);
    const uint32_t rec = 8 / sizeof(T);
    for (uint32_t L = 32; L < n; L *= 4) {
        DataCopy(tmp, dst, n * rec, loc);
        bar(c);
        const uint32_t runs = (n + L - 1) / L;
        uint32_t full = runs / 4;
        if (n % L && runs % 4 == 0)
            full--; /* the last group holds the short run */
        if (full) {
            const uint16_t lens[4] = {(uint16_t)L, (uint16_t)L, (uint16_t)L, (uint16_t)L};
            MrgSort(dst, MrgSortSrcList<T>(tmp, tmp[L * rec], tmp[2 * L * rec], tmp[3 * L * rec]),
                    MrgSort4Info(lens, false, 15, (uint16_t)full), loc);
        }
        const uint32_t off = full * 4 * L, left = runs - full * 4;
        if (left > 1) {
            uint16_t lens[4] = {0, 0, 0, 0};
            for (uint32_t i = 0; i < left; i++)
                lens[i] = (uint16_t)(i + 1 < left ? L : n - off - i * L);
            const LocalTensor<T> t = tmp[off * rec];
            MrgSort(dst[off * rec], MrgSortSrcList<T>(t, t[L * rec], t[(left > 2 ? 2 : 0) * L * rec],
                                                      t[(left > 3 ? 3 : 0) * L * rec]),
                    MrgSort4Info(lens, false, left == 2 ? 3 : left == 3 ? 7 : 15, 1), loc);
        }
        bar(c);
    }
}

} // namespace rs
} // namespace dvac

namespace AscendC {

/* DropOut without sharedTmpBuffer: CANN pops a stack buffer, which dvsim does not model. */
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T> &, const LocalTensor<T> &, const LocalTensor<uint8_t> &, const float,
                    const DropOutShapeInfo &, const dvac::Loc &loc = dvac::Loc::here())
{
    if (dvac::vec_stream(loc))
        dvac::fail_at(loc, "DropOut", "the form without sharedTmpBuffer takes CANN's stack buffer, which dvsim does "
                      "not model: pass a sharedTmpBuffer of GetDropOutMaxMinTmpSize bytes");
}

/* Sorted records on dav-2201: 8 bytes per element (a float score and its index; a half score, 2 bytes of
 * padding and the index), CANN's GetSortOffset / GetSortLen in elements of T
 * (impl/basic_api/kernel_operator_proposal_intf_impl.h). */
template <typename T> inline uint32_t GetSortOffset(const uint32_t elemOffset)
{
    static_assert(dvac::one_of<T, half, float>(), "GetSortOffset: half or float");
    return elemOffset * (8 / (uint32_t)sizeof(T));
}
template <typename T> inline uint32_t GetSortLen(const uint32_t elemCount)
{
    static_assert(dvac::one_of<T, half, float>(), "GetSortLen: half or float");
    return elemCount * (8 / (uint32_t)sizeof(T));
}

/* Concat on dav-2201: the scores are Sort's input as they are (concat = src; nothing is emitted). */
template <typename T>
inline void Concat(LocalTensor<T> &concat, const LocalTensor<T> &src, const LocalTensor<T> &tmp,
                   const int32_t repeatTime, const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::one_of<T, half, float>(), "Concat: half or float on dav-2201");
    (void)tmp;
    if (repeatTime < 0 || repeatTime > 255)
        dvac::fail_at(loc, "Concat", "repeatTime %d is not in [0, 255]", repeatTime);
    concat = src;
}

/* Sort: Sort32 of repeatTime groups of 32 (scores concat, indices index) into records at dst; with
 * isFullSort the groups are then merged four at a time (MrgSort, the runs copied to tmp before each
 * round: CANN's DoFullSort) until dst holds one run sorted by score, descending. */
template <typename T, bool isFullSort>
inline void Sort(const LocalTensor<T> &dst, const LocalTensor<T> &concat, const LocalTensor<uint32_t> &index,
                 LocalTensor<T> &tmp, const int32_t repeatTime, const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::one_of<T, half, float>(), "Sort: half or float on dav-2201");
    const char *api = "Sort";
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    Sort32(dst, concat, index, repeatTime, loc);
    if (!isFullSort || repeatTime <= 1)
        return;
    const uint32_t n = (uint32_t)repeatTime * 32, rec = 8 / sizeof(T);
    dvac::ub_operand(tmp, "tmp", 32, loc, api);
    tmp.need((uint64_t)n * rec, loc, api);
    dvac::rs::bar(c);
    dvac::rs::merge_runs(dst, tmp, n, loc);
}

/* Extract: the scores of repeatTime * 32 sorted records into dstValue and their indices into dstIndex.
 * CANN's dav-2201 Extract is two GatherMask (vreducev2) calls with fixed patterns, which dvsim does not
 * model: here the record offsets are built in dstIndex (CreateVecIndex, vmuls, vadds) and two vgathers
 * take the scores, then the indices (in place). */
template <typename T>
inline void Extract(const LocalTensor<T> &dstValue, const LocalTensor<uint32_t> &dstIndex, const LocalTensor<T> &sorted,
                    const int32_t repeatTime, const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::one_of<T, half, float>(), "Extract: half or float on dav-2201");
    const char *api = "Extract";
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    if (repeatTime < 0 || repeatTime > 255)
        dvac::fail_at(loc, api, "repeatTime %d is not in [0, 255]", repeatTime);
    if (!repeatTime)
        return;
    const uint32_t n = (uint32_t)repeatTime * 32;
    dvac::ub_operand(dstValue, "dstValue", 32, loc, api);
    dvac::ub_operand(dstIndex, "dstIndex", 32, loc, api);
    dvac::ub_operand(sorted, "sorted", 32, loc, api);
    dstValue.need(n, loc, api);
    dstIndex.need(n, loc, api);
    sorted.need((uint64_t)n * 8 / sizeof(T), loc, api);
    const LocalTensor<int32_t> off = dstIndex.template ReinterpretCast<int32_t>();
    dvac::rs::rec_offsets(off, n, 0, loc);
    dvac::rs::gather_n(c, dstValue.addr(), off.addr(), sorted.addr(), (uint64_t)n * 8, dvac::dtype_of<T>(), n);
    dvk_set_mask_count(c);
    dvac::rs::count(c, n);
    dvk_vadds(c, off.addr(), off.addr(), DV_DT_S32, 4.0, 1, 1, 1, 8, 8);
    dvac::rs::bar(c);
    dvac::rs::gather_n(c, dstIndex.addr(), off.addr(), sorted.addr(), (uint64_t)n * 8, DV_DT_U32, n);
}

} // namespace AscendC

namespace AscendC {

/* TopK's shape (include/adv_api/sort/topk_utils.h): outter rows of inner (a multiple of 32), n of them
 * valid. */
struct TopKInfo {
    int32_t outter = 1;
    int32_t inner;
    int32_t n;
};

/* The k largest (isLargest) or smallest scores of each row of src and their indices, sorted
 * (impl/adv_api/detail/sort/topk/topk_common_impl.h, topk_v220_impl.h).  Per row: the scores (negated
 * for the smallest) Sort32'ed with their indices (srcIndex with isInitIndex, else 0..inner-1 made once
 * by CreateVecIndex) into 8-byte records, the runs merged four at a time (MrgSort, as Sort), the first
 * k scores and indices taken out (CANN: GatherMask with the tiling's patterns, which dvsim does not
 * model; here vgather by record offsets), a finished row's indices set to n; at the end the values of
 * a smallest-k TopK negated back.  Values of row j go to dstValue[j * kPad] (kPad: k rounded up to 32
 * bytes), indices to dstIndex[j * kAlign4]. TOPK_NSMALL (inner 32) runs the same sequence; dvsim reads
 * none of the tiling's fields (TopKTilingFunc fills CANN's). */
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig &config = defaultTopKConfig>
inline void TopK(const LocalTensor<T> &dstValueLocal, const LocalTensor<int32_t> &dstIndexLocal,
                 const LocalTensor<T> &srcLocal, const LocalTensor<int32_t> &srcIndexLocal,
                 const LocalTensor<bool> &finishLocal, const LocalTensor<uint8_t> &tmpLocal, const int32_t k,
                 const TopkTiling &tilling, const TopKInfo &topKInfo, const bool isLargest = true,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(config.algo == TopKAlgo::MERGE_SORT, "TopK: the radix-select algorithm is dav-3510's");
    static_assert(dvac::one_of<T, half, float>(), "TopK: half or float on dav-2201");
    (void)tilling;
    const char *api = "TopK";
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    const int32_t inner = topKInfo.inner, outter = topKInfo.outter, n = topKInfo.n;
    if (inner <= 0 || inner % 32 || (topkMode == TopKMode::TOPK_NSMALL ? inner != 32 : inner > 4096))
        dvac::fail_at(loc, api, "inner %d must be a multiple of 32, %s", inner,
                      topkMode == TopKMode::TOPK_NSMALL ? "32 in TOPK_NSMALL" : "at most 4096");
    if (n < 1 || n > inner || outter < 1)
        dvac::fail_at(loc, api, "n %d must be in [1, inner = %d] and outter %d at least 1", n, inner, outter);
    if (k < 1 || k > n)
        dvac::fail_at(loc, api, "k %d must be in [1, n = %d]", k, n);
    const uint32_t I = (uint32_t)inner, K = (uint32_t)k, rec = 8 / sizeof(T);
    const uint32_t ka4 = (K + 7) / 8 * 8, kaT = sizeof(T) == 4 ? ka4 : (K + 15) / 16 * 16;
    dvac::ub_operand(dstValueLocal, "dstValueLocal", 32, loc, api);
    dvac::ub_operand(dstIndexLocal, "dstIndexLocal", 32, loc, api);
    dvac::ub_operand(srcLocal, "srcLocal", 32, loc, api);
    dvac::ub_operand(tmpLocal, "tmpLocal", 32, loc, api);
    srcLocal.need((uint64_t)outter * I, loc, api);
    dstValueLocal.need((uint64_t)(outter - 1) * kaT + K, loc, api);
    dstIndexLocal.need((uint64_t)(outter - 1) * ka4 + K, loc, api);
    if (isInitIndex)
        srcIndexLocal.need(topkMode == TopKMode::TOPK_NSMALL ? (uint64_t)outter * I : I, loc, api);
    if (isHasfinish)
        finishLocal.need((uint32_t)outter, loc, api);
    const uint32_t work = 16 * I + (isInitIndex ? 0 : 4 * I);
    if (tmpLocal.GetSize() < work)
        dvac::fail_at(loc, api, "tmpLocal has %u bytes; inner %d needs %u (GetTopKMaxMinTmpSize)", tmpLocal.GetSize(),
                      inner, work);
    const LocalTensor<T> A = tmpLocal.template ReinterpretCast<T>();
    const LocalTensor<T> B = A[I * rec];
    const LocalTensor<int32_t> idx = tmpLocal[16 * I].template ReinterpretCast<int32_t>();
    const LocalTensor<int32_t> off = B.template ReinterpretCast<int32_t>();
    const dv_dtype_t dt = dvac::dtype_of<T>();
    if (!isInitIndex) {
        dvac::fence<HardEvent::V_S>(loc, api); /* the scalar stores wait for V's earlier use of tmpLocal */
        CreateVecIndex(idx, (int32_t)0, I, loc);
        dvac::rs::bar(c);
    }
    for (int32_t j = 0; j < outter; j++) {
        const uint64_t row = srcLocal.addr() + (uint64_t)j * I * sizeof(T);
        uint64_t ix = idx.addr();
        if (isInitIndex)
            ix = srcIndexLocal.addr() + (topkMode == TopKMode::TOPK_NSMALL ? (uint64_t)j * I * 4 : 0);
        uint64_t scores = row;
        if (!isLargest) {
            dvk_set_mask_count(c);
            dvac::rs::count(c, I);
            dvk_vmuls(c, B.addr(), row, dt, -1.0, 1, 1, 1, 8, 8);
            dvac::rs::bar(c);
            dvac::rs::norm(c);
            scores = B.addr();
        }
        dvk_vbitsort(c, A.addr(), scores, ix, dt, I / 32);
        dvac::rs::bar(c);
        dvac::rs::merge_runs(A, B, I, loc);
        if (isInitIndex) {
            dvac::rs::rec_offsets(off, K, 0, loc);
        } else {
            dvk_set_mask_count(c);
            dvac::rs::count(c, K);
            dvk_vmuls(c, off.addr(), idx.addr(), DV_DT_S32, 8.0, 1, 1, 1, 8, 8);
            dvac::rs::bar(c);
            dvac::rs::norm(c);
        }
        dvac::rs::gather_n(c, dstValueLocal.addr() + (uint64_t)j * kaT * sizeof(T), off.addr(), A.addr(),
                           (uint64_t)I * 8, dt, K);
        dvk_set_mask_count(c);
        dvac::rs::count(c, K);
        dvk_vadds(c, off.addr(), off.addr(), DV_DT_S32, 4.0, 1, 1, 1, 8, 8);
        dvac::rs::bar(c);
        const uint64_t di = dstIndexLocal.addr() + (uint64_t)j * ka4 * 4;
        dvac::rs::gather_n(c, di, off.addr(), A.addr(), (uint64_t)I * 8, DV_DT_S32, K);
        if (isHasfinish) {
            const bool done = finishLocal.GetValue((uint32_t)j, loc);
            dvac::fence<HardEvent::S_V>(loc, api);
            if (done) {
                dvk_set_mask_count(c);
                dvac::rs::count(c, K);
                dvk_vdup(c, di, DV_DT_S32, (double)n, 1, 1, 8);
                dvac::rs::norm(c);
            }
        }
        dvac::rs::bar(c);
    }
    if (!isLargest) {
        dvk_set_mask_count(c);
        dvac::rs::count(c, (uint64_t)outter * kaT);
        dvk_vmuls(c, dstValueLocal.addr(), dstValueLocal.addr(), dt, -1.0, 1, 1, 1, 8, 8);
        dvac::rs::bar(c);
    }
    dvac::rs::norm(c);
}

/* TopK without tmpLocal: CANN takes its work from the unallocated UB (PopStackBuffer), which dvsim does not
 * model: the call fails, naming the form to use. */
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig &config = defaultTopKConfig>
inline void TopK(const LocalTensor<T> &, const LocalTensor<int32_t> &, const LocalTensor<T> &,
                 const LocalTensor<int32_t> &, const LocalTensor<bool> &, const int32_t, const TopkTiling &,
                 const TopKInfo &, const bool = true, const dvac::Loc &loc = dvac::Loc::here())
{
    if (dvac::vec_stream(loc))
        dvac::fail_at(loc, "TopK", "the form without tmpLocal takes CANN's stack buffer, which dvsim does not "
                      "model: pass a tmpLocal of GetTopKMaxMinTmpSize bytes");
}

} // namespace AscendC

#endif
