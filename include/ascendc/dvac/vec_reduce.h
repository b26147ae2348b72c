/* dvac/vec_reduce.h - the reductions: WholeReduceSum/Max/Min and RepeatReduceSum (one vcadd / vcmax /
 * vcmin per call), and ReduceSum/Max/Min with a work tensor, level 2 (count) and level 0 (mask,
 * repeatTime, srcRepStride), as CANN's dav-2201 implementation runs them: vcmax/vcmin/vcadd steps on
 * the work tensor with pipe barriers, the scalar unit reading the values and indices it needs
 * (LocalTensor::GetValue / SetValue: ld_ub / st_ub) between V -> S and S -> V / S -> MTE3 flags
 * (docs/ASCENDC.md, "Vector API"). */
#ifndef DVAC_VEC_REDUCE_H
#define DVAC_VEC_REDUCE_H

#include "sync.h"
#include "vec_core.h"

namespace AscendC {

enum class ReduceMode : uint8_t { REDUCE_MAX = 0, REDUCE_MIN, REDUCE_SUM };
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };

} // namespace AscendC

namespace dvac {

template <typename T> constexpr bool reduce_type_ok() { return one_of<T, half, float>(); }

/* The bits of an element as an unsigned integer (indices are stored so). */
template <typename T> inline uint32_t bits_of(const T &v)
{
    if constexpr (sizeof(T) == 2) {
        uint16_t b;
        std::memcpy(&b, static_cast<const void *>(&v), 2);
        return b;
    } else {
        uint32_t b;
        std::memcpy(&b, static_cast<const void *>(&v), 4);
        return b;
    }
}

/* A one-off event of a HardEvent from the kernel's TPipe, set and waited for at once (CANN's
 * FetchEventID + SetFlag + WaitFlag). */
template <AscendC::HardEvent E> inline void fence(const Loc &loc, const char *api)
{
    AscendC::TPipe *p = AscendC::GetTPipePtr();
    if (!p)
        fail_at(loc, api, "needs the kernel's TPipe (its event ids synchronise the scalar unit)");
    const int32_t id = p->FetchEventID<E>(loc);
    AscendC::SetFlag<E>(id, loc);
    AscendC::WaitFlag<E>(id, loc);
}
/* The scalar unit waits for V; after its UB writes, V and MTE3 wait for it. */
inline void v_to_s(const Loc &loc, const char *api) { fence<AscendC::HardEvent::V_S>(loc, api); }
inline void s_to_v_mte3(const Loc &loc, const char *api)
{
    AscendC::TPipe *p = AscendC::GetTPipePtr();
    if (!p)
        fail_at(loc, api, "needs the kernel's TPipe (its event ids synchronise the scalar unit)");
    const int32_t sv = p->FetchEventID<AscendC::HardEvent::S_V>(loc);
    const int32_t sm = p->FetchEventID<AscendC::HardEvent::S_MTE3>(loc);
    AscendC::SetFlag<AscendC::HardEvent::S_V>(sv, loc);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(sv, loc);
    AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(sm, loc);
    AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(sm, loc);
}

/* One reduction instruction over `repeat` repeats (CANN's ReduceOperation): the mask, then vcmax /
 * vcmin (value, index pairs) or vcadd, each result at the next slot of dst. */
template <typename T>
inline void reduce_op(dv_k_t *c, uint64_t dst, uint64_t src, int64_t repeat, int64_t src_rep, uint64_t hi, uint64_t lo,
                      AscendC::ReduceMode mode)
{
    dvk_set_vector_mask(c, hi, lo);
    if (mode == AscendC::ReduceMode::REDUCE_MAX)
        dvk_vcmax(c, dst, src, dtype_of<T>(), repeat, 1, 1, src_rep, 0);
    else if (mode == AscendC::ReduceMode::REDUCE_MIN)
        dvk_vcmin(c, dst, src, dtype_of<T>(), repeat, 1, 1, src_rep, 0);
    else
        dvk_vcadd(c, dst, src, dtype_of<T>(), repeat, 1, 1, src_rep, 0);
}

/* The first n elements of a repeat as mask words (n <= 128). */
inline void first_n(uint32_t n, uint64_t &hi, uint64_t &lo)
{
    hi = n > 64 ? (n >= 128 ? ~0ull : (1ull << (n - 64)) - 1) : 0;
    lo = n >= 64 ? ~0ull : (1ull << n) - 1;
}
/* Every other element (the values of (value, index) pairs) of the first 2n (CANN's "0101" mask). */
inline void pairs_n(uint32_t n, uint64_t &hi, uint64_t &lo)
{
    hi = lo = 0;
    for (uint32_t i = 0; i + 32 < n && i < 32; i++)
        hi = hi << 2 | 1;
    for (uint32_t i = 0; i < n && i < 32; i++)
        lo = lo << 2 | 1;
}

/* The operands and parameters of one ReduceSum/Max/Min call. */
template <typename T> struct Red {
    dv_k_t *c;
    const AscendC::LocalTensor<T> &dst, &src, &tmp;
    uint64_t hi, lo;     /* the mask of the first step */
    int32_t repeat;      /* repeats of the first step */
    int32_t src_rep;     /* in datablocks */
    AscendC::ReduceMode mode;
    const Loc &loc;
    const char *api;
    static constexpr uint32_t E = rep_elems<T>();
    uint64_t t(int64_t pos) const { return tmp.addr() + (uint64_t)pos * sizeof(T); }
    /* An index the hardware wrote in a (value, index) pair, as an integer. */
    uint32_t index_at(int64_t pos) const { return bits_of(tmp.GetValue((uint32_t)pos, loc)); }
    /* dst[1] = the index's bits as a T (CANN stores it so). */
    void store_index(int32_t index) const
    {
        T v;
        std::memcpy(static_cast<void *>(&v), &index, sizeof(T));
        dst.SetValue(1, v, loc);
    }
};

/* First step: every repeat (255 at a time) into tmp, pairs for max/min, one value for sum. */
template <typename T> inline int32_t red_first(const Red<T> &r)
{
    const int32_t per = r.mode == AscendC::ReduceMode::REDUCE_SUM ? 1 : 2;
    for (int32_t done = 0; done < r.repeat; done += 255) {
        const int32_t n = r.repeat - done < 255 ? r.repeat - done : 255;
        reduce_op<T>(r.c, r.t((int64_t)done * per), r.src.addr() + (uint64_t)done * r.src_rep * 32, n, r.src_rep, r.hi,
                     r.lo, r.mode);
    }
    return per * r.repeat;
}

/* Max / min again over the values of `cur` results at tmp[from], results at tmp[to]. */
template <typename T> inline int32_t red_pairs(const Red<T> &r, int32_t cur, int32_t from, int32_t to)
{
    constexpr int32_t E = (int32_t)Red<T>::E;
    const int32_t full = cur / E, left = cur % E;
    uint64_t hi, lo;
    int32_t out = 0;
    if (full) {
        pairs_n(E / 2, hi, lo);
        reduce_op<T>(r.c, r.t(to), r.t(from), full, 8, hi, lo, r.mode);
        out = 2 * full;
    }
    if (left) {
        pairs_n((uint32_t)left / 2, hi, lo);
        reduce_op<T>(r.c, r.t(to + out), r.t(from + (int64_t)full * E), 1, 8, hi, lo, r.mode);
        out += 2;
    }
    return out;
}

inline int32_t align32(int32_t elems, size_t s) { return (int32_t)(((size_t)elems * s + 31) / 32 * 32 / s); }

/* ReduceMax / ReduceMin with the index of the extreme value (CANN's ReduceImplWithIndex). */
template <typename T> inline void red_with_index(const Red<T> &r)
{
    constexpr int32_t E = (int32_t)Red<T>::E;
    dv_k_t *c = r.c;
    if (r.repeat == 1) {
        reduce_op<T>(c, r.dst.addr(), r.src.addr(), 1, r.src_rep, r.hi, r.lo, r.mode);
        return;
    }
    int32_t cur = red_first(r);
    dvk_pipe_barrier(c, DV_PIPE_V);
    const int32_t second = align32(cur, sizeof(T));
    cur = red_pairs(r, cur, 0, second);
    dvk_pipe_barrier(c, DV_PIPE_V);
    const int32_t third = align32(second + cur, sizeof(T));
    const int32_t per_rep = 32 / (int32_t)sizeof(T) * r.src_rep; /* elements between repeats of src */
    int32_t index;
    if (cur == 2) {
        v_to_s(r.loc, r.api);
        const int32_t i3 = (int32_t)r.index_at(second + 1);
        const int32_t i2 = (int32_t)r.index_at(i3 + 1);
        index = i2 + per_rep * (i3 / 2);
        r.dst.SetValue(0, r.tmp.GetValue((uint32_t)second, r.loc), r.loc);
    } else {
        if (cur > E)
            fail_at(r.loc, r.api, "%d repeats need a fourth reduction step, which dvsim does not implement", r.repeat);
        uint64_t hi, lo;
        pairs_n((uint32_t)cur / 2, hi, lo);
        reduce_op<T>(c, r.t(third), r.t(second), 1, 8, hi, lo, r.mode);
        v_to_s(r.loc, r.api);
        r.dst.SetValue(0, r.tmp.GetValue((uint32_t)third, r.loc), r.loc);
        const int32_t i3 = (int32_t)r.index_at(third + 1);
        const int32_t i2 = (int32_t)r.index_at(second + i3 + 1);
        const int32_t i1 = (int32_t)r.index_at(E * (i3 / 2) + i2 + 1);
        index = i1 + per_rep * (E * (i3 / 2) + i2) / 2;
    }
    r.store_index(index);
    s_to_v_mte3(r.loc, r.api);
}

/* ReduceSum over several repeats (CANN's ReduceSumImpl): per-repeat sums, their sum in count mode,
 * then one more vcadd or a scalar move. */
template <typename T> inline void red_sum(const Red<T> &r)
{
    constexpr int32_t E = (int32_t)Red<T>::E;
    dv_k_t *c = r.c;
    red_first(r);
    dvk_pipe_barrier(c, DV_PIPE_V);
    dvk_set_mask_count(c);
    dvk_set_vector_mask(c, 0, (uint64_t)r.repeat);
    dvk_vcadd(c, r.t(0), r.t(0), dtype_of<T>(), 1, 1, 1, 8, 0);
    dvk_set_mask_norm(c);
    dvk_pipe_barrier(c, DV_PIPE_V);
    const int32_t second = (r.repeat + E - 1) / E;
    if (second == 1) {
        v_to_s(r.loc, r.api);
        r.dst.SetValue(0, r.tmp.GetValue(0, r.loc), r.loc);
        s_to_v_mte3(r.loc, r.api);
    } else {
        uint64_t hi, lo;
        first_n((uint32_t)second, hi, lo);
        reduce_op<T>(c, r.dst.addr(), r.t(0), 1, 8, hi, lo, AscendC::ReduceMode::REDUCE_SUM);
    }
}

/* ReduceMax / ReduceMin / ReduceSum without the index (CANN's ReduceImplNoIndex). */
template <typename T> inline void red_no_index(const Red<T> &r)
{
    constexpr int32_t E = (int32_t)Red<T>::E;
    dv_k_t *c = r.c;
    if (r.repeat == 1) {
        reduce_op<T>(c, r.tmp.addr(), r.src.addr(), 1, r.src_rep, r.hi, r.lo, r.mode);
        v_to_s(r.loc, r.api);
        r.dst.SetValue(0, r.tmp.GetValue(0, r.loc), r.loc);
        s_to_v_mte3(r.loc, r.api);
        return;
    }
    if (r.mode == AscendC::ReduceMode::REDUCE_SUM) {
        red_sum(r);
        return;
    }
    int32_t cur = red_first(r);
    dvk_pipe_barrier(c, DV_PIPE_V);
    cur = red_pairs(r, cur, 0, 0);
    if (cur > E)
        fail_at(r.loc, r.api, "%d repeats need a third reduction step, which dvsim does not implement", r.repeat);
    dvk_pipe_barrier(c, DV_PIPE_V);
    uint64_t hi, lo;
    pairs_n((uint32_t)cur / 2, hi, lo);
    reduce_op<T>(c, r.t(0), r.t(0), 1, 8, hi, lo, r.mode);
    v_to_s(r.loc, r.api);
    r.dst.SetValue(0, r.tmp.GetValue(0, r.loc), r.loc);
    s_to_v_mte3(r.loc, r.api);
}

template <typename T> inline void red_run(const Red<T> &r, bool calIndex)
{
    if (calIndex)
        red_with_index(r);
    else
        red_no_index(r);
}

/* The operands of a ReduceSum/Max/Min call; the stream, or nullptr off the V pipe. */
template <typename T>
inline dv_k_t *red_operands(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                            const AscendC::LocalTensor<T> &tmp, const Loc &loc, const char *api)
{
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return nullptr;
    ub_operand(dst, "dst", 32, loc, api);
    ub_operand(src, "src", 32, loc, api);
    ub_operand(tmp, "sharedTmpBuffer", 32, loc, api);
    return c;
}

/* The work tensor a call needs: the first step's results and, with the index, the second's. */
template <typename T>
inline void red_tmp_need(const AscendC::LocalTensor<T> &tmp, int32_t repeat, bool pairs, bool index, const Loc &loc,
                         const char *api)
{
    const int32_t first = pairs ? 2 * repeat : repeat;
    int32_t need = first;
    if (index && repeat > 1) {
        const int32_t second = align32(first, sizeof(T)), E = (int32_t)rep_elems<T>();
        const int32_t cur = 2 * ((first + E - 1) / E);
        need = cur == 2 ? second + 2 : align32(second + cur, sizeof(T)) + 2; /* a third step only past one pair */
    }
    if ((uint32_t)need > tmp.GetSize())
        fail_at(loc, api, "sharedTmpBuffer holds %u elements; %d repeats need %d", tmp.GetSize(), repeat, need);
}

/* Level 2 of ReduceMax / ReduceMin (CANN: the whole repeats, then the tail and the two results
 * reduced again). */
template <typename T>
inline void red_count(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                      const AscendC::LocalTensor<T> &tmp, int32_t count, bool calIndex, AscendC::ReduceMode mode,
                      const Loc &loc, const char *api)
{
    dv_k_t *c = red_operands(dst, src, tmp, loc, api);
    if (!c)
        return;
    constexpr int32_t E = (int32_t)rep_elems<T>();
    if (count < 1)
        fail_at(loc, api, "count %d: it must be at least 1", count);
    count_in(src, count, "src", loc, api);
    count_in(dst, calIndex ? 2 : 1, "dst", loc, api);
    int32_t repeat = count / E, tail = count % E, body = E;
    if (repeat == 0) {
        repeat = 1;
        body = count;
        tail = 0;
    }
    red_tmp_need(tmp, repeat, true, calIndex, loc, api);
    Red<T> r{c, dst, src, tmp, 0, 0, repeat, 8, mode, loc, api};
    first_n((uint32_t)body, r.hi, r.lo);
    red_run(r, calIndex);
    if (!tail)
        return;
    /* the tail: its own reduction into dst, then the body's and the tail's results reduced together
     * (CANN reads dst[1] whether or not the index is asked for; so does this, where dst has it) */
    const bool two = dst.GetSize() >= 2;
    v_to_s(loc, api);
    const T body_value = dst.GetValue(0, loc);
    const T body_index = two ? dst.GetValue(1, loc) : T();
    const AscendC::LocalTensor<T> src_tail = src[(uint32_t)(E * repeat)];
    Red<T> t{c, dst, src_tail, tmp, 0, 0, 1, 8, mode, loc, api};
    first_n((uint32_t)tail, t.hi, t.lo);
    red_run(t, calIndex);
    v_to_s(loc, api);
    const T tail_value = dst.GetValue(0, loc);
    const uint32_t tail_index = two ? bits_of(dst.GetValue(1, loc)) : 0;
    tmp.SetValue(0, body_value, loc);
    tmp.SetValue(1, tail_value, loc);
    fence<AscendC::HardEvent::S_V>(loc, api);
    Red<T> last{c, dst, tmp, tmp, 0, 0, 1, 8, mode, loc, api};
    first_n(2, last.hi, last.lo);
    red_run(last, calIndex);
    if (!calIndex)
        return;
    v_to_s(loc, api);
    if (bits_of(dst.GetValue(1, loc)) == 1)
        last.store_index((int32_t)((uint32_t)(E * repeat) + tail_index));
    else
        dst.SetValue(1, body_index, loc);
    s_to_v_mte3(loc, api);
}

/* Level 0 of ReduceSum / ReduceMax / ReduceMin: one mask for every repeat of the first step. */
template <typename T>
inline void red_level0(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                       const AscendC::LocalTensor<T> &tmp, MaskArg ma, int32_t repeat, int32_t src_rep, bool calIndex,
                       AscendC::ReduceMode mode, const Loc &loc, const char *api)
{
    dv_k_t *c = red_operands(dst, src, tmp, loc, api);
    if (!c)
        return;
    constexpr uint32_t E = rep_elems<T>();
    const Mask m = ma.resolve(E, E, loc, api);
    if (!m.hi && !m.lo)
        return; /* CANN: a zero mask does nothing */
    if (repeat < 1)
        fail_at(loc, api, "repeatTime %d: it must be at least 1", repeat);
    if (src_rep < 0 || src_rep > 255)
        fail_at(loc, api, "srcRepStride %d is not in [0, 255]", src_rep);
    strided_in(src, "src", m, E, (uint64_t)repeat, 1, (uint64_t)src_rep, loc, api);
    count_in(dst, calIndex ? 2 : 1, "dst", loc, api);
    red_tmp_need(tmp, repeat, mode != AscendC::ReduceMode::REDUCE_SUM, calIndex, loc, api);
    Red<T> r{c, dst, src, tmp, m.hi, m.lo, repeat, src_rep, mode, loc, api};
    red_run(r, calIndex);
}

/* One vcadd / vcmax / vcmin over repeatTime repeats (WholeReduce*, RepeatReduceSum). */
template <typename T>
inline void red_whole(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src, MaskArg ma,
                      int32_t repeat, int32_t dst_rep, int32_t src_blk, int32_t src_rep, AscendC::ReduceMode mode,
                      AscendC::ReduceOrder order, const Loc &loc, const char *api)
{
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return;
    constexpr uint32_t E = rep_elems<T>();
    const bool sum = mode == AscendC::ReduceMode::REDUCE_SUM;
    const Mask m = ma.resolve(E, E, loc, api);
    if (repeat < 0 || repeat > 255)
        fail_at(loc, api, "repeatTime %d is not in [0, 255]", repeat);
    const int64_t dr = stride8((uint32_t)dst_rep, "dstRepStride", loc, api);
    const int64_t sb = stride8((uint32_t)src_blk, "srcBlkStride", loc, api);
    const int64_t sr = stride8((uint32_t)src_rep, "srcRepStride", loc, api);
    /* vcmax / vcmin write (value, index) pairs in ORDER_VALUE_INDEX / ORDER_INDEX_VALUE, else one element */
    const int64_t ord = sum ? 0 : (int64_t)order, per = sum || ord >= 2 ? 1 : 2;
    ub_operand(dst, "dst", per * sizeof(T), loc, api);
    ub_operand(src, "src", 32, loc, api);
    strided_in(src, "src", m, E, (uint64_t)repeat, (uint64_t)sb, (uint64_t)sr, loc, api);
    if (repeat > 0)
        count_in(dst, (int64_t)((repeat - 1) * dr + 1) * per, "dst", loc, api);
    mask_emit(c, m);
    if (sum)
        dvk_vcadd(c, dst.addr(), src.addr(), dtype_of<T>(), repeat, dr, sb, sr, 0);
    else if (mode == AscendC::ReduceMode::REDUCE_MAX)
        dvk_vcmax(c, dst.addr(), src.addr(), dtype_of<T>(), repeat, dr, sb, sr, ord);
    else
        dvk_vcmin(c, dst.addr(), src.addr(), dtype_of<T>(), repeat, dr, sb, sr, ord);
}

} // namespace dvac

#define DVAC_RED_TYPE(Api)                                                                                           \
    static_assert(dvac::reduce_type_ok<T>(), #Api ": dtype not supported on dav-2201 (half, float)")

namespace AscendC {

/* ---- ReduceMax / ReduceMin / ReduceSum with a work tensor ---- */
template <typename T>
inline void ReduceMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
                      const int32_t count, bool calIndex = 0, const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_RED_TYPE(ReduceMax);
    dvac::red_count(dst, src, sharedTmpBuffer, count, calIndex, ReduceMode::REDUCE_MAX, loc, "ReduceMax");
}
template <typename T>
inline void ReduceMin(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
                      const int32_t count, bool calIndex = 0, const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_RED_TYPE(ReduceMin);
    dvac::red_count(dst, src, sharedTmpBuffer, count, calIndex, ReduceMode::REDUCE_MIN, loc, "ReduceMin");
}
#define DVAC_RED_L0(Api, M, mask_t)                                                                                  \
    template <typename T>                                                                                            \
    inline void Api(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,     \
                    mask_t mask, const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = 0,            \
                    const dvac::Loc &loc = dvac::Loc::here())                                                        \
    {                                                                                                                \
        DVAC_RED_TYPE(Api);                                                                                          \
        dvac::red_level0(dst, src, sharedTmpBuffer, dvac::MaskArg::of(mask, true), repeatTime, srcRepStride,         \
                         calIndex, ReduceMode::M, loc, #Api);                                                        \
    }
DVAC_RED_L0(ReduceMax, REDUCE_MAX, const int32_t)
DVAC_RED_L0(ReduceMax, REDUCE_MAX, const uint64_t *)
DVAC_RED_L0(ReduceMin, REDUCE_MIN, const int32_t)
DVAC_RED_L0(ReduceMin, REDUCE_MIN, const uint64_t *)
#undef DVAC_RED_L0

template <typename T>
inline void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
                      const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride,
                      const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_RED_TYPE(ReduceSum);
    dvac::red_level0(dst, src, sharedTmpBuffer, dvac::MaskArg::of((uint64_t)(mask < 0 ? 0 : mask), true), repeatTime,
                     srcRepStride, false, ReduceMode::REDUCE_SUM, loc, "ReduceSum");
}
template <typename T>
inline void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
                      const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride,
                      const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_RED_TYPE(ReduceSum);
    dvac::red_level0(dst, src, sharedTmpBuffer, dvac::MaskArg::of(mask, true), repeatTime, srcRepStride, false,
                     ReduceMode::REDUCE_SUM, loc, "ReduceSum");
}
/* Level 2 on dav-2201: count mode and one vcadd that accumulates every repeat (vcadd_acc: CANN's
 * vcadd into ACC_VAL, which the scalar unit stores to dst[0]); sharedTmpBuffer is not used. */
template <typename T, bool isSetMask = true>
inline void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,
                      const int32_t count, const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_RED_TYPE(ReduceSum);
    const char *api = "ReduceSum";
    dv_k_t *c = dvac::red_operands(dst, src, sharedTmpBuffer, loc, api);
    if (!c)
        return;
    if (count < 1)
        dvac::fail_at(loc, api, "count %d: it must be at least 1", count);
    dvac::count_in(src, count, "src", loc, api);
    dvac::count_in(dst, 1, "dst", loc, api);
    if (isSetMask) {
        dvk_set_mask_count(c);
        dvk_set_vector_mask(c, 0, (uint64_t)count);
    }
    dvk_vcadd_acc(c, dst.addr(), src.addr(), dvac::dtype_of<T>(), 1, 1, 1, 8, 0);
    dvac::v_to_s(loc, api);
    dvac::s_to_v_mte3(loc, api);
    if (isSetMask) {
        dvk_set_mask_norm(c);
        dvk_set_vector_mask(c, FULL_MASK, FULL_MASK);
    }
}

/* ---- one reduction instruction per call ---- */
#define DVAC_WHOLE(Api, M, mask_t, order_param, order_arg)                                                           \
    template <typename T, bool isSetMask = true>                                                                     \
    inline void Api(const LocalTensor<T> &dst, const LocalTensor<T> &src, mask_t mask, const int32_t repeatTime,     \
                    const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride order_param,  \
                    const dvac::Loc &loc = dvac::Loc::here())                                                        \
    {                                                                                                                \
        DVAC_RED_TYPE(Api);                                                                                          \
        dvac::red_whole(dst, src, dvac::MaskArg::of(mask, isSetMask), repeatTime, dstRepStride, srcBlkStride,        \
                        srcRepStride, ReduceMode::M, order_arg, loc, #Api);                                          \
    }
#define DVAC_ORDER , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX
DVAC_WHOLE(WholeReduceMax, REDUCE_MAX, const uint64_t *, DVAC_ORDER, order)
DVAC_WHOLE(WholeReduceMax, REDUCE_MAX, const int32_t, DVAC_ORDER, order)
DVAC_WHOLE(WholeReduceMin, REDUCE_MIN, const uint64_t *, DVAC_ORDER, order)
DVAC_WHOLE(WholeReduceMin, REDUCE_MIN, const int32_t, DVAC_ORDER, order)
DVAC_WHOLE(WholeReduceSum, REDUCE_SUM, const uint64_t *, , ReduceOrder::ORDER_VALUE_INDEX)
DVAC_WHOLE(WholeReduceSum, REDUCE_SUM, const int32_t, , ReduceOrder::ORDER_VALUE_INDEX)
#undef DVAC_ORDER
#undef DVAC_WHOLE

/* vcadd per repeat with the first `mask` elements (dstBlkStride is not used on dav-2201). */
template <typename T, bool isSetMask = true>
inline void RepeatReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime,
                            const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                            const int32_t dstRepStride, const int32_t srcRepStride,
                            const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_RED_TYPE(RepeatReduceSum);
    (void)dstBlkStride;
    dvac::red_whole(dst, src, dvac::MaskArg::of((uint64_t)(mask < 0 ? 0 : mask), isSetMask), repeatTime, dstRepStride,
                    srcBlkStride, srcRepStride, ReduceMode::REDUCE_SUM, ReduceOrder::ORDER_VALUE_INDEX, loc,
                    "RepeatReduceSum");
}

/* The ACC_VAL register (the sum of the last ReduceSum level 2) and the max / min register of
 * WholeReduceMax / Min are not modelled by dvsim: a read fails the kernel at its line (ReduceSum and the
 * WholeReduce APIs write their results to dst). */
template <typename T> inline T GetReduceRepeatSumSpr(const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_RED_TYPE(GetReduceRepeatSumSpr);
    if (dvac::vec_stream(loc))
        dvac::fail_at(loc, "GetReduceRepeatSumSpr", "the ACC_VAL register is not modelled by dvsim; ReduceSum "
                      "writes the sum to dst[0]");
    return T();
}
template <typename T>
inline void GetReduceRepeatMaxMinSpr(T &, T &, const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_RED_TYPE(GetReduceRepeatMaxMinSpr);
    if (dvac::vec_stream(loc))
        dvac::fail_at(loc, "GetReduceRepeatMaxMinSpr", "the max / min register is not modelled by dvsim; "
                      "WholeReduceMax / Min write value and index to dst");
}
template <typename T> inline void GetReduceRepeatMaxMinSpr(T &value, const dvac::Loc &loc = dvac::Loc::here())
{
    T index;
    GetReduceRepeatMaxMinSpr(value, index, loc);
}

} // namespace AscendC

#undef DVAC_RED_TYPE

#endif
