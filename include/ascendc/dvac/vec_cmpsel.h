/* dvac/vec_cmpsel.h - Compare (vcmp: a bit per element, E/8 bytes per repeat) and Select (vsel: an
 * element of src0 where the bit is set, else of src1), as CANN's dav-2201 implementation emits them
 * (docs/ASCENDC.md, "Vector API"). */
#ifndef DVAC_VEC_CMPSEL_H
#define DVAC_VEC_CMPSEL_H

#include "vec_core.h"

namespace AscendC {

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };

} // namespace AscendC

namespace dvac {

inline int cmp_field(AscendC::CMPMODE m, const Loc &loc, const char *api = "Compare")
{
    using AscendC::CMPMODE;
    switch (m) {
    case CMPMODE::LT: return DV_CMP_LT;
    case CMPMODE::GT: return DV_CMP_GT;
    case CMPMODE::EQ: return DV_CMP_EQ;
    case CMPMODE::LE: return DV_CMP_LE;
    case CMPMODE::GE: return DV_CMP_GE;
    case CMPMODE::NE: return DV_CMP_NE;
    default: fail_at(loc, api, "CMPMODE %d does not exist", (int)m);
    }
}

/* int32 compares only for equality on dav-2201 (CANN emits vcmpv_eq whatever the mode). */
template <typename T> inline int cmp_mode(AscendC::CMPMODE m, const Loc &loc, const char *api = "Compare")
{
    if (std::is_same<T, int32_t>::value && m != AscendC::CMPMODE::EQ)
        fail_at(loc, api, "int32_t is compared only with CMPMODE::EQ on dav-2201");
    return cmp_field(m, loc, api);
}

template <typename T, typename U> constexpr bool cmp_types_ok()
{
    return one_of<T, half, float, int32_t>() && one_of<U, uint8_t, int8_t>();
}

/* Level 0 (CANN's dav-2201 VcmpvImpl sets no mask: the mask register applies as it is). */
template <typename T, typename U>
inline void cmp_l0(const AscendC::LocalTensor<U> &dst, const AscendC::LocalTensor<T> &src0,
                   const AscendC::LocalTensor<T> &src1, AscendC::CMPMODE mode, uint8_t repeat,
                   const AscendC::BinaryRepeatParams &p, const Loc &loc)
{
    const char *api = "Compare";
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return;
    const int cmp = cmp_mode<T>(mode, loc);
    if (repeat > 1)
        fail_at(loc, api, "%u repeats: dvsim's vcmp writes repeat r's bits at dst + r * %u bytes, the dst strides "
                "are not modelled; use one repeat per call or the count form", repeat, (unsigned)(rep_elems<T>() / 8));
    ub_operand(dst, "dst", 32, loc, api);
    ub_operand(src0, "src0", 32, loc, api);
    ub_operand(src1, "src1", 32, loc, api);
    dst.need(repeat * rep_elems<T>() / 8 / sizeof(U), loc, api);
    Mask all;
    all.known = true;
    all.hi = all.lo = ~0ull;
    strided_in(src0, "src0", all, rep_elems<T>(), repeat, p.src0BlkStride, p.src0RepStride, loc, api);
    strided_in(src1, "src1", all, rep_elems<T>(), repeat, p.src1BlkStride, p.src1RepStride, loc, api);
    dvk_vcmp(c, dst.addr(), src0.addr(), src1.addr(), dtype_of<T>(), cmp, repeat, p.src0BlkStride, p.src1BlkStride,
             p.src0RepStride, p.src1RepStride);
}

/* The scalar source of a tensor-scalar Select: the scalar duplicated into the reserved top of UB (as
 * CANN's implementation does), read there with block and repeat stride 0. */
template <typename T>
inline uint64_t select_scalar(dv_k_t *c, const T &v, bool count_mode, const Loc &loc, const char *api)
{
    const uint64_t tmp = tmp_ub(c, 32 * sizeof(T), loc, api);
    dvk_set_vector_mask(c, 0, count_mode ? 32 : 0xffffffffull); /* 32 elements, in either mask mode */
    dvk_vdup(c, tmp, dtype_of<T>(), to_f64(v), 1, 1, 8);
    dvk_pipe_barrier(c, DV_PIPE_V);
    dvk_pipe_barrier(c, DV_PIPE_V); /* CANN: after set_cmpmask */
    return tmp;
}

/* Tensor-tensor modes: VSEL_TENSOR_TENSOR_MODE reads the next E bits of sel each repeat;
 * VSEL_CMPMASK_SPR loads CMPMASK from sel and reads the same E bits every repeat (vsel's sel_step 0). */
inline void sel_mode_check(AscendC::SELMODE m, const Loc &loc)
{
    if (m == AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE)
        fail_at(loc, "Select", "VSEL_TENSOR_SCALAR_MODE takes a scalar src1");
    if ((unsigned)m > 2)
        fail_at(loc, "Select", "SELMODE %u does not exist", (unsigned)m);
}
/* The selMask elements a select of `repeats` repeats reads (the same E bits every repeat for
 * VSEL_CMPMASK_SPR). */
template <typename U> inline uint64_t sel_need(AscendC::SELMODE m, uint64_t repeats, uint32_t E)
{
    const uint64_t r = m == AscendC::SELMODE::VSEL_CMPMASK_SPR || !repeats ? 1 : repeats;
    return (r * E / 8 + sizeof(U) - 1) / sizeof(U);
}

template <typename T, typename U>
inline void sel_operands(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<U> &sel,
                         const AscendC::LocalTensor<T> &src0, const Loc &loc)
{
    ub_operand(dst, "dst", 32, loc, "Select");
    ub_operand(sel, "selMask", 32, loc, "Select");
    ub_operand(src0, "src0", 32, loc, "Select");
}

template <typename T, typename U> constexpr bool sel_types_ok()
{
    return one_of<T, half, float>() && one_of<U, uint8_t, uint16_t, uint32_t, uint64_t>();
}

template <typename T, typename U>
inline void sel_l0(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<U> &sel,
                   const AscendC::LocalTensor<T> &src0, const AscendC::LocalTensor<T> *src1, const T *scalar,
                   AscendC::SELMODE mode, MaskArg ma, uint8_t repeat, const AscendC::BinaryRepeatParams &p,
                   const Loc &loc)
{
    const char *api = "Select";
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return;
    constexpr uint32_t E = rep_elems<T>();
    const Mask m = ma.resolve(E, E, loc, api);
    sel_operands(dst, sel, src0, loc);
    strided_in(dst, "dst", m, E, repeat, p.dstBlkStride, p.dstRepStride, loc, api);
    strided_in(src0, "src0", m, E, repeat, p.src0BlkStride, p.src0RepStride, loc, api);
    uint64_t s1;
    int64_t s1_blk = p.src1BlkStride, s1_rep = p.src1RepStride;
    if (scalar) {
        if (mode != AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE)
            fail_at(loc, api, "a scalar src1 needs SELMODE::VSEL_TENSOR_SCALAR_MODE");
        s1 = select_scalar(c, *scalar, false, loc, api);
        s1_blk = s1_rep = 0;
    } else {
        sel_mode_check(mode, loc);
        ub_operand(*src1, "src1", 32, loc, api);
        strided_in(*src1, "src1", m, E, repeat, p.src1BlkStride, p.src1RepStride, loc, api);
        s1 = src1->addr();
        if (mode == AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE) { /* the selMask address through CMPMASK */
            dvk_set_vector_mask(c, 0, 0xffffffffull);
            dvk_vdup(c, tmp_ub(c, 128, loc, api), DV_DT_U32, (double)DV_ADDR_OFF(sel.addr()), 1, 1, 8);
            dvk_pipe_barrier(c, DV_PIPE_V);
        }
        dvk_pipe_barrier(c, DV_PIPE_V);
    }
    sel.need(sel_need<U>(mode, repeat, E), loc, api);
    mask_emit(c, m);
    dvk_vsel(c, dst.addr(), src0.addr(), s1, sel.addr(), dtype_of<T>(), repeat, p.dstBlkStride, p.src0BlkStride, s1_blk,
             p.dstRepStride, p.src0RepStride, s1_rep, mode == AscendC::SELMODE::VSEL_CMPMASK_SPR ? 0 : 1);
}

template <typename T, typename U>
inline void sel_l2(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<U> &sel,
                   const AscendC::LocalTensor<T> &src0, const AscendC::LocalTensor<T> *src1, const T *scalar,
                   AscendC::SELMODE mode, uint32_t count, const Loc &loc)
{
    const char *api = "Select";
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return;
    constexpr uint32_t E = rep_elems<T>();
    sel_operands(dst, sel, src0, loc);
    count_in(dst, count, "dst", loc, api);
    count_in(src0, count, "src0", loc, api);
    sel.need(sel_need<U>(mode, ((uint64_t)count + E - 1) / E, E), loc, api);
    dvk_set_mask_count(c);
    uint64_t s1;
    int64_t s1_str = 8, s1_blk = 1;
    if (scalar) {
        if (mode != AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE)
            fail_at(loc, api, "a scalar src1 needs SELMODE::VSEL_TENSOR_SCALAR_MODE");
        s1 = select_scalar(c, *scalar, true, loc, api);
        s1_str = s1_blk = 0;
    } else {
        sel_mode_check(mode, loc);
        ub_operand(*src1, "src1", 32, loc, api);
        count_in(*src1, count, "src1", loc, api);
        s1 = src1->addr();
        if (mode == AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE) { /* the selMask address through CMPMASK */
            dvk_set_vector_mask(c, 0, 32);
            dvk_vdup(c, tmp_ub(c, 128, loc, api), DV_DT_U32, (double)DV_ADDR_OFF(sel.addr()), 1, 1, 8);
            dvk_pipe_barrier(c, DV_PIPE_V);
        }
        dvk_pipe_barrier(c, DV_PIPE_V);
    }
    dvk_set_vector_mask(c, 0, count);
    dvk_vsel(c, dst.addr(), src0.addr(), s1, sel.addr(), dtype_of<T>(), 1, 1, 1, s1_blk, 8, 8, s1_str,
             mode == AscendC::SELMODE::VSEL_CMPMASK_SPR ? 0 : 1);
    if (!scalar)
        dvk_pipe_barrier(c, DV_PIPE_V);
    dvk_set_vector_mask(c, AscendC::FULL_MASK, AscendC::FULL_MASK);
    dvk_set_mask_norm(c);
}

} // namespace dvac

namespace AscendC {

#define DVAC_CMP_TYPES                                                                                               \
    static_assert(dvac::cmp_types_ok<T, U>(), "Compare: dtype not supported on dav-2201 (src half, float, int32_t; " \
                                              "dst uint8_t, int8_t)")

/* count elements, whole repeats of 256 bytes (CANN: count * sizeof(T) divisible by 256), in calls of
 * up to 252 repeats. */
template <typename T, typename U>
inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE cmpMode,
                    uint32_t count, const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_CMP_TYPES;
    const char *api = "Compare";
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    const int cmp = dvac::cmp_mode<T>(cmpMode, loc);
    if ((uint64_t)count * sizeof(T) % 256)
        dvac::fail_at(loc, api, "count %u: count * sizeof(T) must be a multiple of 256 bytes", count);
    dvac::ub_operand(dst, "dst", 32, loc, api);
    dvac::ub_operand(src0, "src0", 32, loc, api);
    dvac::ub_operand(src1, "src1", 32, loc, api);
    dvac::count_in(src0, count, "src0", loc, api);
    dvac::count_in(src1, count, "src1", loc, api);
    dst.need((uint64_t)count / 8 / sizeof(U), loc, api);
    constexpr uint32_t E = dvac::rep_elems<T>();
    const uint32_t repeats = count / E, chunk = 252;
    uint32_t i = 0;
    for (; i + 1 <= repeats / chunk; i++)
        dvk_vcmp(c, dst.addr() + (uint64_t)i * chunk * E / 8, src0.addr() + (uint64_t)i * chunk * 256,
                 src1.addr() + (uint64_t)i * chunk * 256, dvac::dtype_of<T>(), cmp, chunk, 1, 1, 8, 8);
    dvk_vcmp(c, dst.addr() + (uint64_t)i * chunk * E / 8, src0.addr() + (uint64_t)i * chunk * 256,
             src1.addr() + (uint64_t)i * chunk * 256, dvac::dtype_of<T>(), cmp, repeats % chunk, 1, 1, 8, 8);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE cmpMode,
                    const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams &repeatParams,
                    const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_CMP_TYPES;
    (void)mask;
    dvac::cmp_l0(dst, src0, src1, cmpMode, repeatTime, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE cmpMode,
                    const uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams &repeatParams,
                    const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_CMP_TYPES;
    (void)mask;
    dvac::cmp_l0(dst, src0, src1, cmpMode, repeatTime, repeatParams, loc);
}

/* The compare into the CMPMASK register and its copies to and from UB: CMPMASK is not modelled by
 * dvsim; declared so that code which does not instantiate them compiles, and a call does not. */
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T> &, const LocalTensor<T> &, CMPMODE, const uint64_t[],
                    const BinaryRepeatParams &, const dvac::Loc & = dvac::Loc::here())
{
    static_assert(dvac::never<T>(), "Compare: the form without dst (into the CMPMASK register) is not modelled by "
                                    "dvsim; compare into a tensor");
}
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T> &, const LocalTensor<T> &, CMPMODE, const uint64_t,
                    const BinaryRepeatParams &, const dvac::Loc & = dvac::Loc::here())
{
    static_assert(dvac::never<T>(), "Compare: the form without dst (into the CMPMASK register) is not modelled by "
                                    "dvsim; compare into a tensor");
}
template <typename T> inline void GetCmpMask(const LocalTensor<T> &, const dvac::Loc & = dvac::Loc::here())
{
    static_assert(dvac::never<T>(), "GetCmpMask: the CMPMASK register is not modelled by dvsim");
}
template <typename T> inline void SetCmpMask(const LocalTensor<T> &, const dvac::Loc & = dvac::Loc::here())
{
    static_assert(dvac::never<T>(), "SetCmpMask: the CMPMASK register is not modelled by dvsim");
}

/* ---- Compares: src0 CMP a scalar (vcmps); no mask is set (CANN's dav-2201 VcmpvsImpl), the bits of
 * repeat r packed at dst + r * E/8 bytes ---- */
template <typename T, typename U>
inline void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const T src1Scalar, CMPMODE cmpMode,
                     uint32_t count, const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::cmp_types_ok<T, U>(), "Compares: dtype not supported on dav-2201 (src half, float, int32_t; "
                                              "dst uint8_t, int8_t)");
    const char *api = "Compares";
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    const int cmp = dvac::cmp_mode<T>(cmpMode, loc, api);
    dvac::ub_operand(dst, "dst", 32, loc, api);
    dvac::ub_operand(src0, "src0", 32, loc, api);
    constexpr uint32_t E = dvac::rep_elems<T>();
    const uint32_t repeats = count / E, chunk = 252; /* CANN: the elements past whole repeats are not compared */
    dvac::count_in(src0, (int64_t)repeats * E, "src0", loc, api);
    dst.need((uint64_t)repeats * E / 8 / sizeof(U), loc, api);
    const double s = dvac::to_f64(src1Scalar);
    uint32_t i = 0;
    for (; i + 1 <= repeats / chunk; i++)
        dvk_vcmps(c, dst.addr() + (uint64_t)i * chunk * E / 8, src0.addr() + (uint64_t)i * chunk * 256,
                  dvac::dtype_of<T>(), s, cmp, chunk, 1, 8);
    dvk_vcmps(c, dst.addr() + (uint64_t)i * chunk * E / 8, src0.addr() + (uint64_t)i * chunk * 256,
              dvac::dtype_of<T>(), s, cmp, repeats % chunk, 1, 8);
}
} // namespace AscendC

namespace dvac {
/* Level 0 of Compares: the mask is not set (CANN ignores the argument); dvsim's vcmps packs the bits
 * of repeat r at dst + r * E/8, which is what the default dst strides (1, 8) give. */
template <typename T, typename U>
inline void cmps_l0(const AscendC::LocalTensor<U> &dst, const AscendC::LocalTensor<T> &src0, const T &scalar,
                    AscendC::CMPMODE mode, uint8_t repeat, const AscendC::UnaryRepeatParams &p, const Loc &loc)
{
    const char *api = "Compares";
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return;
    const int cmp = cmp_mode<T>(mode, loc, api);
    if (repeat > 1 && (p.dstBlkStride != 1 || p.dstRepStride != 8))
        fail_at(loc, api, "dst strides %u, %u over %u repeats: dvsim's vcmps packs repeat r's bits at dst + r * %u "
                "bytes (the default strides 1, 8); other dst strides are not modelled", (unsigned)p.dstBlkStride,
                (unsigned)p.dstRepStride, repeat, (unsigned)(rep_elems<T>() / 8));
    ub_operand(dst, "dst", 32, loc, api);
    ub_operand(src0, "src0", 32, loc, api);
    const int64_t sb = stride8(p.srcBlkStride, "srcBlkStride", loc, api);
    dst.need((uint64_t)repeat * rep_elems<T>() / 8 / sizeof(U), loc, api);
    Mask all;
    all.known = true;
    all.hi = all.lo = ~0ull;
    strided_in(src0, "src0", all, rep_elems<T>(), repeat, (uint64_t)sb, p.srcRepStride, loc, api);
    dvk_vcmps(c, dst.addr(), src0.addr(), dtype_of<T>(), to_f64(scalar), cmp, repeat, sb, p.srcRepStride);
}
} // namespace dvac

namespace AscendC {
template <typename T, typename U, bool isSetMask = true>
inline void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const T src1Scalar, CMPMODE cmpMode,
                     const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams &repeatParams,
                     const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_CMP_TYPES;
    (void)mask;
    dvac::cmps_l0(dst, src0, src1Scalar, cmpMode, repeatTime, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const T src1Scalar, CMPMODE cmpMode,
                     const uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams &repeatParams,
                     const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_CMP_TYPES;
    (void)mask;
    dvac::cmps_l0(dst, src0, src1Scalar, cmpMode, repeatTime, repeatParams, loc);
}
#undef DVAC_CMP_TYPES

#define DVAC_SEL_TYPES                                                                                               \
    static_assert(dvac::sel_types_ok<T, U>(), "Select: dtype not supported on dav-2201 (half, float; selMask "      \
                                              "uint8_t, uint16_t, uint32_t, uint64_t)")

template <typename T, typename U>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                   const LocalTensor<T> &src1, SELMODE selMode, uint32_t count,
                   const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_SEL_TYPES;
    dvac::sel_l2<T, U>(dst, selMask, src0, &src1, nullptr, selMode, count, loc);
}
template <typename T, typename U>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, T src1,
                   SELMODE selMode, uint32_t count, const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_SEL_TYPES;
    dvac::sel_l2<T, U>(dst, selMask, src0, nullptr, &src1, selMode, count, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                   const LocalTensor<T> &src1, SELMODE selMode, const uint64_t mask[], uint8_t repeatTime,
                   const BinaryRepeatParams &repeatParams, const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_SEL_TYPES;
    dvac::sel_l0<T, U>(dst, selMask, src0, &src1, nullptr, selMode, dvac::MaskArg::of(mask, isSetMask), repeatTime,
                       repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                   const LocalTensor<T> &src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                   const BinaryRepeatParams &repeatParams, const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_SEL_TYPES;
    dvac::sel_l0<T, U>(dst, selMask, src0, &src1, nullptr, selMode, dvac::MaskArg::of(mask, isSetMask), repeatTime,
                       repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, T src1,
                   SELMODE selMode, const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams &repeatParams,
                   const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_SEL_TYPES;
    dvac::sel_l0<T, U>(dst, selMask, src0, nullptr, &src1, selMode, dvac::MaskArg::of(mask, isSetMask), repeatTime,
                       repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0, T src1,
                   SELMODE selMode, uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams &repeatParams,
                   const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_SEL_TYPES;
    dvac::sel_l0<T, U>(dst, selMask, src0, nullptr, &src1, selMode, dvac::MaskArg::of(mask, isSetMask), repeatTime,
                       repeatParams, loc);
}
#undef DVAC_SEL_TYPES

} // namespace AscendC

#endif
