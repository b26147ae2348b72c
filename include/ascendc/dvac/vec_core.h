/* dvac/vec_core.h - what the vector API shares: the repeat parameter structs, the mask modes and
 * their APIs (SetMaskCount, SetMaskNorm, SetVectorMask, ResetMask), and the checks and mask
 * arithmetic every vector call does before it emits (docs/ASCENDC.md, "Vector API").
 *
 * A vector API runs only on a core with the V pipe: on a mix kernel's AIC it is a no-op, as CANN's
 * `if ASCEND_IS_AIV` makes it.  Operands are LocalTensors in UB; a count past a tensor's end, an
 * operand outside UB or a misaligned one is a located error naming the API.  A dtype an API (or
 * the ISA under it) does not have fails to compile, naming the API. */
#ifndef DVAC_VEC_CORE_H
#define DVAC_VEC_CORE_H

#include "tensor.h"

namespace AscendC {

/* ---- constants of the vector API (CANN's kernel_utils_constants.h / kernel_reg.h values) ---- */
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr uint8_t HALF_DEFAULT_REPEAT_STRIDE = 4;
constexpr uint8_t ONE_FOURTH_DEFAULT_REPEAT_STRIDE = 2;
constexpr uint64_t FULL_MASK = 0xffffffffffffffffull;
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};
constexpr int32_t DEFAULT_REDUCE_DST_REP_STRIDE = 1;

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

/* Strides of a binary level-0 call: block strides in datablocks (32 B), repeat strides in datablocks. */
struct BinaryRepeatParams {
    BinaryRepeatParams() {}
    BinaryRepeatParams(uint8_t dstBlk, uint8_t src0Blk, uint8_t src1Blk, uint8_t dstRep, uint8_t src0Rep,
                       uint8_t src1Rep)
        : dstBlkStride(dstBlk), src0BlkStride(src0Blk), src1BlkStride(src1Blk), dstRepStride(dstRep),
          src0RepStride(src0Rep), src1RepStride(src1Rep)
    {
    }
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

/* Strides of a unary (and scalar, and Cast) level-0 call. */
struct UnaryRepeatParams {
    UnaryRepeatParams() {}
    UnaryRepeatParams(uint16_t dstBlk, uint16_t srcBlk, uint8_t dstRep, uint8_t srcRep)
        : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep)
    {
    }
    UnaryRepeatParams(uint16_t dstBlk, uint16_t srcBlk, uint8_t dstRep, uint8_t srcRep, bool half)
        : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep), halfBlock(half)
    {
    }
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
    bool halfBlock = false;
};

} // namespace AscendC

namespace dvac {

/* false, for any T: the condition of a static_assert that fires only when its template is instantiated
 * (an API dvsim declares but does not model). */
template <typename T> constexpr bool never() { return sizeof(T) == 0; }

/* T is one of the listed types. */
template <typename T, typename... L> constexpr bool one_of() { return (std::is_same<T, L>::value || ...); }

/* A scalar operand as the ISA's F64 field (exact for every element type). */
template <typename T> inline double to_f64(const T &v)
{
    if constexpr (std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value)
        return static_cast<double>(static_cast<float>(v));
    else
        return static_cast<double>(v);
}

/* Elements of T per repeat (256 B) and per datablock (32 B). */
template <typename T> constexpr uint32_t rep_elems() { return 256 / sizeof(T); }
template <typename T> constexpr uint32_t blk_elems() { return 32 / sizeof(T); }

/* The stream and whether it runs vector work (false on a mix kernel's AIC: the API is a no-op). */
inline dv_k_t *vec_stream(const Loc &loc)
{
    dv_k_t *c = k(loc);
    if (!dvk_has_pipe(c, DV_PIPE_V))
        return nullptr;
    dvk_set_line(c, loc.line);
    return c;
}

/* An operand of a vector instruction: in UB, `align`-byte aligned. */
template <typename T>
inline void ub_operand(const AscendC::LocalTensor<T> &t, const char *name, uint64_t align, const Loc &loc,
                       const char *api)
{
    if (!t.addr() && !t.GetSize())
        fail_at(loc, api, "%s has no buffer", name);
    if (t.space() != DV_SPACE_UB)
        fail_at(loc, api, "%s is in %s; vector operands are in UB (VECIN, VECCALC, VECOUT)", name,
             dvk_space_name(t.space()));
    if (DV_ADDR_OFF(t.addr()) % align)
        fail_at(loc, api, "%s's UB address 0x%llx is not %llu-byte aligned", name,
             (unsigned long long)DV_ADDR_OFF(t.addr()), (unsigned long long)align);
}

/* `count` elements from t stay inside t (a negative count is an error). */
template <typename T>
inline void count_in(const AscendC::LocalTensor<T> &t, int64_t count, const char *name, const Loc &loc,
                     const char *api)
{
    if (count < 0)
        fail_at(loc, api, "count %lld is negative", (long long)count);
    if ((uint64_t)count > t.GetSize())
        fail_at(loc, api, "%lld elements pass the end of %s (%u elements)", (long long)count, name, t.GetSize());
}

/* A level-0 call's mask: how CANN sets it (AscendCUtils::SetMask) and what it selects.  `known` is
 * false when isSetMask = false: the mask in the register is the caller's and unknown here. */
struct Mask {
    bool set = false;    /* emit set_vector_mask(hi, lo) */
    bool known = false;  /* hi/lo are the selecting bits of a normal-mode repeat */
    uint64_t hi = 0, lo = 0;
};

/* The continuous form: the first `len` elements of each repeat of E (CANN's SetMask<T>(len) bits for
 * a type of `type_elems` elements per repeat). */
inline Mask mask_count(uint64_t len, uint32_t E, uint32_t type_elems, bool isSetMask, const Loc &loc, const char *api)
{
    Mask m;
    if (!isSetMask)
        return m;
    if (len > E)
        fail_at(loc, api, "mask %llu is more than the %u elements of a repeat", (unsigned long long)len, E);
    m.set = m.known = true;
    if (len == 64) {
        m.hi = 0;
        m.lo = AscendC::FULL_MASK;
    } else if (len == type_elems || len >= 128) {
        m.hi = m.lo = AscendC::FULL_MASK;
    } else {
        m.hi = len > 64 ? (1ull << (len - 64)) - 1 : 0;
        m.lo = len > 64 ? AscendC::FULL_MASK : (1ull << len) - 1;
    }
    return m;
}

/* The bit form: mask[0] the low word (elements 0..63), mask[1] the high word. */
inline Mask mask_bits(const uint64_t mask[], uint32_t E, bool isSetMask, const Loc &loc, const char *api)
{
    Mask m;
    if (!isSetMask)
        return m;
    if (!mask)
        fail_at(loc, api, "the mask array is NULL");
    m.set = m.known = true;
    m.lo = mask[0];
    m.hi = mask[1];
    (void)E;
    return m;
}

/* A level-0 mask argument as given: the bit array or the continuous length. */
struct MaskArg {
    const uint64_t *bits;
    uint64_t len;
    bool set;
    static MaskArg of(const uint64_t mask[], bool set) { return MaskArg{mask, 0, set}; }
    static MaskArg of(uint64_t len, bool set) { return MaskArg{nullptr, len, set}; }
    /* The mask CANN sets for it, for repeats of E elements of a type with type_elems per repeat. */
    Mask resolve(uint32_t E, uint32_t type_elems, const Loc &loc, const char *api) const
    {
        if (!set)
            return Mask();
        return bits ? mask_bits(bits, E, true, loc, api) : mask_count(len, E, type_elems, true, loc, api);
    }
};

/* Highest selected element of a normal-mode repeat of E elements; -1 when none. */
inline int64_t mask_top(const Mask &m, uint32_t E)
{
    const uint64_t hi = E == 64 ? 0 : m.hi;
    if (hi)
        return 127 - __builtin_clzll(hi);
    if (m.lo)
        return 63 - __builtin_clzll(m.lo);
    return -1;
}

inline void mask_emit(dv_k_t *c, const Mask &m)
{
    if (m.set)
        dvk_set_vector_mask(c, m.hi, m.lo);
}

/* One strided operand of a level-0 call, in bytes: element size s, elements per datablock epb,
 * block stride `blk` in units of the operand's datablock (epb*s bytes) and repeat stride `rep` in
 * 32 B.  With a known mask the operand must hold every element the call touches (docs/SEMANTICS.md
 * 3.1: the highest selected element of the last repeat). */
template <typename T>
inline void strided_in(const AscendC::LocalTensor<T> &t, const char *name, const Mask &m, uint32_t E, uint64_t repeat,
                       uint64_t blk, uint64_t rep, const Loc &loc, const char *api)
{
    const int64_t top = mask_top(m, E);
    if (!m.known || repeat == 0 || top < 0)
        return;
    const uint64_t s = sizeof(T), epb = E / 8, e = (uint64_t)top;
    const uint64_t end = (repeat - 1) * rep * 32 + (e / epb) * blk * epb * s + (e % epb + 1) * s;
    if ((end + s - 1) / s > t.GetSize())
        fail_at(loc, api, "%s: %llu repeats of this mask and strides reach element %llu, past the tensor's %u",
             name, (unsigned long long)repeat, (unsigned long long)((end + s - 1) / s - 1), t.GetSize());
}

/* A stride field of the ISA (0..255) given a CANN uint16 parameter. */
inline int64_t stride8(uint32_t v, const char *name, const Loc &loc, const char *api)
{
    if (v > 255)
        fail_at(loc, api, "%s %u is more than the 255 the vector instructions take", name, v);
    return v;
}

/* The level-2 frame of CANN's dav-2201 implementation: count mode with the element count, one
 * instruction (emit), back to normal mode with a full mask.  `reset_first` is the order of the
 * scalar-operand family (ResetMask before SetMaskNorm); the others set norm first. */
template <class F> inline void count_frame(dv_k_t *c, uint64_t count, bool reset_first, F emit)
{
    dvk_set_mask_count(c);
    dvk_set_vector_mask(c, 0, count);
    emit();
    if (reset_first) {
        dvk_set_vector_mask(c, AscendC::FULL_MASK, AscendC::FULL_MASK);
        dvk_set_mask_norm(c);
    } else {
        dvk_set_mask_norm(c);
        dvk_set_vector_mask(c, AscendC::FULL_MASK, AscendC::FULL_MASK);
    }
}

/* The reserved top of UB that CANN's implementation uses as scratch (TMP_UB_OFFSET: the last 8 KB). */
inline uint64_t tmp_ub(dv_k_t *c, uint64_t bytes, const Loc &loc, const char *api)
{
    const uint64_t size = dvk_space_bytes(c, DV_SPACE_UB), rsv = 8192;
    if (size < rsv || bytes > rsv)
        fail_at(loc, api, "needs %llu bytes of the reserved 8 KB at the top of UB", (unsigned long long)bytes);
    return DV_ADDR(DV_SPACE_UB, size - rsv);
}

} // namespace dvac

namespace AscendC {

/* ---- mask APIs ---- */
inline void SetMaskCount(const dvac::Loc &loc = dvac::Loc::here())
{
    if (dv_k_t *c = dvac::vec_stream(loc))
        dvk_set_mask_count(c);
}
inline void SetMaskNorm(const dvac::Loc &loc = dvac::Loc::here())
{
    if (dv_k_t *c = dvac::vec_stream(loc))
        dvk_set_mask_norm(c);
}
inline void ResetMask(const dvac::Loc &loc = dvac::Loc::here())
{
    if (dv_k_t *c = dvac::vec_stream(loc))
        dvk_set_vector_mask(c, FULL_MASK, FULL_MASK);
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow, const dvac::Loc &loc = dvac::Loc::here())
{
    if (dv_k_t *c = dvac::vec_stream(loc))
        dvk_set_vector_mask(c, maskHigh, maskLow);
}
/* NORMAL: the first len elements of each repeat; COUNTER: len elements in all. */
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(int32_t len, const dvac::Loc &loc = dvac::Loc::here())
{
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    if (len < 0)
        dvac::fail_at(loc, "SetVectorMask", "len %d is negative", len);
    if constexpr (mode == MaskMode::COUNTER) {
        dvk_set_vector_mask(c, 0, (uint64_t)len);
    } else {
        constexpr uint32_t E = dvac::rep_elems<T>();
        dvac::mask_emit(c, dvac::mask_count((uint64_t)len, E, E, true, loc, "SetVectorMask"));
    }
}

} // namespace AscendC

#endif
