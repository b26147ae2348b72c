/* dvac/vec_math.h - element-wise vector arithmetic: the binary ops (Add Sub Mul Div Max Min And Or),
 * the ops with a scalar (Adds Muls Maxs Mins LeakyRelu), the unary ops (Exp Ln Abs Sqrt Rsqrt
 * Reciprocal Relu Not) and Duplicate, each in its level-0 forms (bit mask or continuous mask,
 * repeatTime, repeat parameters) and its level-2 form (count), emitting what CANN's dav-2201
 * implementation emits (docs/ASCENDC.md, "Vector API"). */
#ifndef DVAC_VEC_MATH_H
#define DVAC_VEC_MATH_H

#include "vec_core.h"

namespace dvac {

/* The generated instruction functions of the three element-wise forms (isa/fields.def VBIN,
 * VSCALAR, VUNARY). */
using vbin_fn = void (*)(dv_k_t *, uint64_t, uint64_t, uint64_t, dv_dtype_t, int64_t, int64_t, int64_t, int64_t,
                         int64_t, int64_t, int64_t);
using vscalar_fn = void (*)(dv_k_t *, uint64_t, uint64_t, dv_dtype_t, double, int64_t, int64_t, int64_t, int64_t,
                            int64_t);
using vunary_fn = void (*)(dv_k_t *, uint64_t, uint64_t, dv_dtype_t, int64_t, int64_t, int64_t, int64_t, int64_t);

template <typename T>
inline void bin_l0(vbin_fn f, const char *api, const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src0,
                   const AscendC::LocalTensor<T> &src1, MaskArg ma, uint8_t repeat,
                   const AscendC::BinaryRepeatParams &p, const Loc &loc)
{
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return;
    constexpr uint32_t E = rep_elems<T>();
    const Mask m = ma.resolve(E, E, loc, api);
    ub_operand(dst, "dst", 32, loc, api);
    ub_operand(src0, "src0", 32, loc, api);
    ub_operand(src1, "src1", 32, loc, api);
    strided_in(dst, "dst", m, E, repeat, p.dstBlkStride, p.dstRepStride, loc, api);
    strided_in(src0, "src0", m, E, repeat, p.src0BlkStride, p.src0RepStride, loc, api);
    strided_in(src1, "src1", m, E, repeat, p.src1BlkStride, p.src1RepStride, loc, api);
    mask_emit(c, m);
    f(c, dst.addr(), src0.addr(), src1.addr(), dtype_of<T>(), repeat, p.dstBlkStride, p.src0BlkStride,
      p.src1BlkStride, p.dstRepStride, p.src0RepStride, p.src1RepStride);
}

template <typename T>
inline void bin_l2(vbin_fn f, const char *api, const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src0,
                   const AscendC::LocalTensor<T> &src1, int32_t count, const Loc &loc)
{
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return;
    ub_operand(dst, "dst", 32, loc, api);
    ub_operand(src0, "src0", 32, loc, api);
    ub_operand(src1, "src1", 32, loc, api);
    count_in(dst, count, "dst", loc, api);
    count_in(src0, count, "src0", loc, api);
    count_in(src1, count, "src1", loc, api);
    count_frame(c, (uint64_t)count, false,
                [&] { f(c, dst.addr(), src0.addr(), src1.addr(), dtype_of<T>(), 1, 1, 1, 1, 8, 8, 8); });
}

/* The checks and the mask of a level-0 call with one source (unary and tensor-scalar forms); c is
 * NULL on a core without the V pipe (nothing to emit). */
struct UnaryL0 {
    dv_k_t *c;
    int64_t db, sb;
};
template <typename T>
inline UnaryL0 unary_l0_prep(const char *api, const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                             MaskArg ma, uint8_t repeat, const AscendC::UnaryRepeatParams &p, const Loc &loc)
{
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return {nullptr, 0, 0};
    constexpr uint32_t E = rep_elems<T>();
    const Mask m = ma.resolve(E, E, loc, api);
    ub_operand(dst, "dst", 32, loc, api);
    ub_operand(src, "src", 32, loc, api);
    const int64_t db = stride8(p.dstBlkStride, "dstBlkStride", loc, api);
    const int64_t sb = stride8(p.srcBlkStride, "srcBlkStride", loc, api);
    strided_in(dst, "dst", m, E, repeat, (uint64_t)db, p.dstRepStride, loc, api);
    strided_in(src, "src", m, E, repeat, (uint64_t)sb, p.srcRepStride, loc, api);
    mask_emit(c, m);
    return {c, db, sb};
}

template <typename T>
inline void scalar_l0(vscalar_fn f, const char *api, const AscendC::LocalTensor<T> &dst,
                      const AscendC::LocalTensor<T> &src, const T &scalar, MaskArg ma, uint8_t repeat,
                      const AscendC::UnaryRepeatParams &p, const Loc &loc)
{
    const UnaryL0 u = unary_l0_prep(api, dst, src, ma, repeat, p, loc);
    if (u.c)
        f(u.c, dst.addr(), src.addr(), dtype_of<T>(), to_f64(scalar), repeat, u.db, u.sb, p.dstRepStride,
          p.srcRepStride);
}

/* isSetMask = false: the caller has set the mode and mask; only the instruction is emitted. */
template <typename T>
inline void scalar_l2(vscalar_fn f, const char *api, const AscendC::LocalTensor<T> &dst,
                      const AscendC::LocalTensor<T> &src, const T &scalar, int32_t count, bool isSetMask,
                      const Loc &loc)
{
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return;
    ub_operand(dst, "dst", 32, loc, api);
    ub_operand(src, "src", 32, loc, api);
    const auto emit = [&] { f(c, dst.addr(), src.addr(), dtype_of<T>(), to_f64(scalar), 1, 1, 1, 8, 8); };
    if (!isSetMask) {
        emit();
        return;
    }
    count_in(dst, count, "dst", loc, api);
    count_in(src, count, "src", loc, api);
    count_frame(c, (uint64_t)count, true, emit);
}

template <typename T>
inline void unary_l0(vunary_fn f, const char *api, const AscendC::LocalTensor<T> &dst,
                     const AscendC::LocalTensor<T> &src, MaskArg ma, uint8_t repeat,
                     const AscendC::UnaryRepeatParams &p, const Loc &loc)
{
    const UnaryL0 u = unary_l0_prep(api, dst, src, ma, repeat, p, loc);
    if (u.c)
        f(u.c, dst.addr(), src.addr(), dtype_of<T>(), repeat, u.db, u.sb, p.dstRepStride, p.srcRepStride);
}

template <typename T>
inline void unary_l2(vunary_fn f, const char *api, const AscendC::LocalTensor<T> &dst,
                     const AscendC::LocalTensor<T> &src, int32_t count, const Loc &loc)
{
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return;
    ub_operand(dst, "dst", 32, loc, api);
    ub_operand(src, "src", 32, loc, api);
    count_in(dst, count, "dst", loc, api);
    count_in(src, count, "src", loc, api);
    count_frame(c, (uint64_t)count, false, [&] { f(c, dst.addr(), src.addr(), dtype_of<T>(), 1, 1, 1, 8, 8); });
}

} // namespace dvac

/* ---- the public APIs, one macro per family (dtype lists: CANN's dav-2201 lists, which the ISA rows
 * also accept) ---- */

#define DVAC_VEC_BINARY(Api, mn, ...)                                                                                \
    template <typename T, bool isSetMask = true>                                                                     \
    inline void Api(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,               \
                    const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams &repeatParams,         \
                    const dvac::Loc &loc = dvac::Loc::here())                                                        \
    {                                                                                                                \
        static_assert(dvac::one_of<T, __VA_ARGS__>(), #Api ": dtype not supported on dav-2201 (" #__VA_ARGS__ ")"); \
        dvac::bin_l0<T>(dvk_##mn, #Api, dst, src0, src1, dvac::MaskArg::of(mask, isSetMask), repeatTime,           \
                        repeatParams, loc);                                                                          \
    }                                                                                                                \
    template <typename T, bool isSetMask = true>                                                                     \
    inline void Api(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,               \
                    uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams &repeatParams,                 \
                    const dvac::Loc &loc = dvac::Loc::here())                                                        \
    {                                                                                                                \
        static_assert(dvac::one_of<T, __VA_ARGS__>(), #Api ": dtype not supported on dav-2201 (" #__VA_ARGS__ ")"); \
        dvac::bin_l0<T>(dvk_##mn, #Api, dst, src0, src1, dvac::MaskArg::of(mask, isSetMask), repeatTime,           \
                        repeatParams, loc);                                                                          \
    }                                                                                                                \
    template <typename T>                                                                                            \
    inline void Api(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,               \
                    const int32_t &count, const dvac::Loc &loc = dvac::Loc::here())                                  \
    {                                                                                                                \
        static_assert(dvac::one_of<T, __VA_ARGS__>(), #Api ": dtype not supported on dav-2201 (" #__VA_ARGS__ ")"); \
        dvac::bin_l2<T>(dvk_##mn, #Api, dst, src0, src1, count, loc);                                               \
    }

#define DVAC_VEC_SCALAR(Api, mn, ...)                                                                                \
    template <typename T, bool isSetMask = true>                                                                     \
    inline void Api(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue,                      \
                    const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams &repeatParams,          \
                    const dvac::Loc &loc = dvac::Loc::here())                                                        \
    {                                                                                                                \
        static_assert(dvac::one_of<T, __VA_ARGS__>(), #Api ": dtype not supported on dav-2201 (" #__VA_ARGS__ ")"); \
        dvac::scalar_l0<T>(dvk_##mn, #Api, dst, src, scalarValue, dvac::MaskArg::of(mask, isSetMask), repeatTime,  \
                           repeatParams, loc);                                                                       \
    }                                                                                                                \
    template <typename T, bool isSetMask = true>                                                                     \
    inline void Api(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue, uint64_t mask,       \
                    const uint8_t repeatTime, const UnaryRepeatParams &repeatParams,                                 \
                    const dvac::Loc &loc = dvac::Loc::here())                                                        \
    {                                                                                                                \
        static_assert(dvac::one_of<T, __VA_ARGS__>(), #Api ": dtype not supported on dav-2201 (" #__VA_ARGS__ ")"); \
        dvac::scalar_l0<T>(dvk_##mn, #Api, dst, src, scalarValue, dvac::MaskArg::of(mask, isSetMask), repeatTime,  \
                           repeatParams, loc);                                                                       \
    }                                                                                                                \
    template <typename T, bool isSetMask = true>                                                                     \
    inline void Api(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue,                      \
                    const int32_t &count, const dvac::Loc &loc = dvac::Loc::here())                                  \
    {                                                                                                                \
        static_assert(dvac::one_of<T, __VA_ARGS__>(), #Api ": dtype not supported on dav-2201 (" #__VA_ARGS__ ")"); \
        dvac::scalar_l2<T>(dvk_##mn, #Api, dst, src, scalarValue, count, isSetMask, loc);                           \
    }

#define DVAC_VEC_UNARY(Api, mn, ...)                                                                                 \
    template <typename T, bool isSetMask = true>                                                                     \
    inline void Api(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[],                     \
                    const uint8_t repeatTime, const UnaryRepeatParams &repeatParams,                                 \
                    const dvac::Loc &loc = dvac::Loc::here())                                                        \
    {                                                                                                                \
        static_assert(dvac::one_of<T, __VA_ARGS__>(), #Api ": dtype not supported on dav-2201 (" #__VA_ARGS__ ")"); \
        dvac::unary_l0<T>(dvk_##mn, #Api, dst, src, dvac::MaskArg::of(mask, isSetMask), repeatTime, repeatParams,  \
                          loc);                                                                                      \
    }                                                                                                                \
    template <typename T, bool isSetMask = true>                                                                     \
    inline void Api(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask, const uint8_t repeatTime,   \
                    const UnaryRepeatParams &repeatParams, const dvac::Loc &loc = dvac::Loc::here())                 \
    {                                                                                                                \
        static_assert(dvac::one_of<T, __VA_ARGS__>(), #Api ": dtype not supported on dav-2201 (" #__VA_ARGS__ ")"); \
        dvac::unary_l0<T>(dvk_##mn, #Api, dst, src, dvac::MaskArg::of(mask, isSetMask), repeatTime, repeatParams,  \
                          loc);                                                                                      \
    }                                                                                                                \
    template <typename T>                                                                                            \
    inline void Api(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count,                      \
                    const dvac::Loc &loc = dvac::Loc::here())                                                        \
    {                                                                                                                \
        static_assert(dvac::one_of<T, __VA_ARGS__>(), #Api ": dtype not supported on dav-2201 (" #__VA_ARGS__ ")"); \
        dvac::unary_l2<T>(dvk_##mn, #Api, dst, src, count, loc);                                                    \
    }

namespace AscendC {

DVAC_VEC_BINARY(Add, vadd, half, float, int16_t, int32_t)
DVAC_VEC_BINARY(Sub, vsub, half, float, int16_t, int32_t)
DVAC_VEC_BINARY(Mul, vmul, half, float, int16_t, int32_t)
DVAC_VEC_BINARY(Div, vdiv, half, float)
DVAC_VEC_BINARY(Max, vmax, half, float, int16_t, int32_t)
DVAC_VEC_BINARY(Min, vmin, half, float, int16_t, int32_t)
DVAC_VEC_BINARY(And, vand, int16_t, uint16_t)
DVAC_VEC_BINARY(Or, vor, int16_t, uint16_t)

DVAC_VEC_SCALAR(Adds, vadds, half, float, int16_t, int32_t)
DVAC_VEC_SCALAR(Muls, vmuls, half, float, int16_t, int32_t)
DVAC_VEC_SCALAR(Maxs, vmaxs, half, float, int16_t, int32_t)
DVAC_VEC_SCALAR(Mins, vmins, half, float, int16_t, int32_t)
DVAC_VEC_SCALAR(LeakyRelu, vlrelu, half, float)

DVAC_VEC_UNARY(Exp, vexp, half, float)
DVAC_VEC_UNARY(Ln, vln, half, float)
DVAC_VEC_UNARY(Abs, vabs, half, float)
DVAC_VEC_UNARY(Sqrt, vsqrt, half, float)
DVAC_VEC_UNARY(Rsqrt, vrsqrt, half, float)
DVAC_VEC_UNARY(Reciprocal, vrec, half, float)
DVAC_VEC_UNARY(Relu, vrelu, half, float, int32_t)
DVAC_VEC_UNARY(Not, vnot, int16_t, uint16_t)

} // namespace AscendC

namespace dvac {
template <typename T> constexpr bool dup_type_ok()
{
    return one_of<T, half, bfloat16_t, int16_t, uint16_t, int32_t, uint32_t, float>();
}

template <typename T>
inline void dup_l0(const AscendC::LocalTensor<T> &dst, const T &scalar, MaskArg ma, uint8_t repeat, uint16_t blk,
                   uint8_t rep, const Loc &loc)
{
    const char *api = "Duplicate";
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return;
    constexpr uint32_t E = rep_elems<T>();
    const Mask m = ma.resolve(E, E, loc, api);
    ub_operand(dst, "dst", 32, loc, api);
    const int64_t b = stride8(blk, "dstBlockStride", loc, api);
    strided_in(dst, "dst", m, E, repeat, (uint64_t)b, rep, loc, api);
    mask_emit(c, m);
    dvk_vdup(c, dst.addr(), dtype_of<T>(), to_f64(scalar), repeat, b, rep);
}
} // namespace dvac

namespace AscendC {

/* ---- Duplicate: vector_dup of a scalar ---- */
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T> &dst, const T &scalarValue, uint64_t mask, const uint8_t repeatTime,
                      const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
                      const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::dup_type_ok<T>(), "Duplicate: dtype not supported on dav-2201 (half, bfloat16_t, int16_t, "
                                       "uint16_t, int32_t, uint32_t, float)");
    dvac::dup_l0(dst, scalarValue, dvac::MaskArg::of(mask, isSetMask), repeatTime, dstBlockStride, dstRepeatStride,
                 loc);
}
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T> &dst, const T &scalarValue, const uint64_t mask[], const uint8_t repeatTime,
                      const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
                      const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::dup_type_ok<T>(), "Duplicate: dtype not supported on dav-2201 (half, bfloat16_t, int16_t, "
                                       "uint16_t, int32_t, uint32_t, float)");
    dvac::dup_l0(dst, scalarValue, dvac::MaskArg::of(mask, isSetMask), repeatTime, dstBlockStride, dstRepeatStride,
                 loc);
}
template <typename T>
inline void Duplicate(const LocalTensor<T> &dst, const T &scalarValue, const int32_t &count,
                      const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::dup_type_ok<T>(), "Duplicate: dtype not supported on dav-2201 (half, bfloat16_t, int16_t, "
                                       "uint16_t, int32_t, uint32_t, float)");
    const char *api = "Duplicate";
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    dvac::ub_operand(dst, "dst", 32, loc, api);
    dvac::count_in(dst, count, "dst", loc, api);
    dvac::count_frame(c, (uint64_t)count, true,
                      [&] { dvk_vdup(c, dst.addr(), dvac::dtype_of<T>(), dvac::to_f64(scalarValue), 1, 1, 8); });
}

} // namespace AscendC

#undef DVAC_VEC_SCALAR
#undef DVAC_VEC_UNARY

#endif
