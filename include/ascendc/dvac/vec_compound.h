/* dvac/vec_compound.h - the compound element-wise ops that are one instruction on dav-2201: AddRelu
 * (vaddrelu), SubRelu (vsubrelu), MulAddDst (vmla), FusedMulAdd (vmadd), FusedMulAddRelu and
 * MulAddRelu (vmaddrelu), Axpy (vaxpy), and the shifts by a scalar, ShiftLeft (vshl) and
 * ShiftRight (vshr), in their level-0 and level-2 forms as CANN's implementation emits them
 * (docs/ASCENDC.md, "Vector API"). */
#ifndef DVAC_VEC_COMPOUND_H
#define DVAC_VEC_COMPOUND_H

#include "vec_math.h"

/* The compound two-source ops have the binary ops' three forms: DVAC_VEC_BINARY (vec_math.h). */

namespace AscendC {

DVAC_VEC_BINARY(AddRelu, vaddrelu, half, float, int16_t)
DVAC_VEC_BINARY(SubRelu, vsubrelu, half, float, int16_t)
DVAC_VEC_BINARY(FusedMulAdd, vmadd, half, float)
DVAC_VEC_BINARY(FusedMulAddRelu, vmaddrelu, half, float)
DVAC_VEC_BINARY(MulAddRelu, vmaddrelu, half, float)

/* ---- MulAddDst<T, U>: dst (T) = src0 (U) * src1 (U) + dst; one type on dvsim (half -> float is not
 * modelled) ---- */
#define DVAC_MULADDDST_TYPES                                                                                         \
    static_assert(std::is_same<T, U>::value && dvac::one_of<T, half, float>(),                                       \
                  "MulAddDst: dtype not supported (half, float, dst and src of one type)")
template <typename T, typename U, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                      const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams &repeatParams,
                      const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_MULADDDST_TYPES;
    dvac::bin_l0<T>(dvk_vmla, "MulAddDst", dst, src0, src1, dvac::MaskArg::of(mask, isSetMask), repeatTime,
                    repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1, uint64_t mask,
                      const uint8_t repeatTime, const BinaryRepeatParams &repeatParams,
                      const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_MULADDDST_TYPES;
    dvac::bin_l0<T>(dvk_vmla, "MulAddDst", dst, src0, src1, dvac::MaskArg::of(mask, isSetMask), repeatTime,
                    repeatParams, loc);
}
template <typename T, typename U>
inline void MulAddDst(const LocalTensor<T> &dst, const LocalTensor<U> &src0, const LocalTensor<U> &src1,
                      const int32_t &count, const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_MULADDDST_TYPES;
    dvac::bin_l2<T>(dvk_vmla, "MulAddDst", dst, src0, src1, count, loc);
}
#undef DVAC_MULADDDST_TYPES

/* ---- Axpy<T, U>: dst (T) = src (U) * scalar + dst; one type on dvsim ---- */
#define DVAC_AXPY_TYPES                                                                                              \
    static_assert(std::is_same<T, U>::value && dvac::one_of<T, half, float>(),                                       \
                  "Axpy: dtype not supported (half, float, dst and src of one type)")
template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U &scalarValue, uint64_t mask,
                 const uint8_t repeatTime, const UnaryRepeatParams &repeatParams,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_AXPY_TYPES;
    dvac::scalar_l0<T>(dvk_vaxpy, "Axpy", dst, src, scalarValue, dvac::MaskArg::of(mask, isSetMask), repeatTime,
                       repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U &scalarValue, const uint64_t mask[],
                 const uint8_t repeatTime, const UnaryRepeatParams &repeatParams,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_AXPY_TYPES;
    dvac::scalar_l0<T>(dvk_vaxpy, "Axpy", dst, src, scalarValue, dvac::MaskArg::of(mask, isSetMask), repeatTime,
                       repeatParams, loc);
}
template <typename T, typename U>
inline void Axpy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const U &scalarValue, const int32_t &count,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_AXPY_TYPES;
    dvac::scalar_l2<T>(dvk_vaxpy, "Axpy", dst, src, scalarValue, count, true, loc);
}
#undef DVAC_AXPY_TYPES

} // namespace AscendC

namespace dvac {

/* The shift count: in [0, the element's width] (CANN's check). */
template <typename T> inline void shift_count(const T &n, const Loc &loc, const char *api)
{
    if (!vec_stream(loc))
        return;
    if ((int64_t)n < 0 || (int64_t)n > (int64_t)(8 * sizeof(T)))
        fail_at(loc, api, "shift count %lld is not in [0, %u]", (long long)n, (unsigned)(8 * sizeof(T)));
}

} // namespace dvac

namespace AscendC {

/* ---- ShiftLeft / ShiftRight by a scalar (int16_t, uint16_t, int32_t, uint32_t) ---- */
#define DVAC_SHIFT_TYPES(Api)                                                                                        \
    static_assert(dvac::one_of<T, int16_t, uint16_t, int32_t, uint32_t>(),                                          \
                  #Api ": dtype not supported on dav-2201 (int16_t, uint16_t, int32_t, uint32_t)")
template <typename T, bool isSetMask = true>
inline void ShiftLeft(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue,
                      const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams &repeatParams,
                      const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_SHIFT_TYPES(ShiftLeft);
    dvac::shift_count(scalarValue, loc, "ShiftLeft");
    dvac::scalar_l0<T>(dvk_vshl, "ShiftLeft", dst, src, scalarValue, dvac::MaskArg::of(mask, isSetMask), repeatTime,
                       repeatParams, loc);
}
template <typename T, bool isSetMask = true>
inline void ShiftLeft(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue, uint64_t mask,
                      const uint8_t repeatTime, const UnaryRepeatParams &repeatParams,
                      const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_SHIFT_TYPES(ShiftLeft);
    dvac::shift_count(scalarValue, loc, "ShiftLeft");
    dvac::scalar_l0<T>(dvk_vshl, "ShiftLeft", dst, src, scalarValue, dvac::MaskArg::of(mask, isSetMask), repeatTime,
                       repeatParams, loc);
}
template <typename T, bool isSetMask = true>
inline void ShiftLeft(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue, const int32_t &count,
                      const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_SHIFT_TYPES(ShiftLeft);
    dvac::shift_count(scalarValue, loc, "ShiftLeft");
    dvac::scalar_l2<T>(dvk_vshl, "ShiftLeft", dst, src, scalarValue, count, isSetMask, loc);
}

/* roundEn (rounding the bits shifted out) is not modelled: true is a located error. */
template <typename T, bool isSetMask = true>
inline void ShiftRight(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue,
                       const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams &repeatParams,
                       bool roundEn = false, const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_SHIFT_TYPES(ShiftRight);
    if (roundEn && dvac::vec_stream(loc))
        dvac::fail_at(loc, "ShiftRight", "roundEn = true (rounding the bits shifted out) is not modelled by dvsim");
    dvac::shift_count(scalarValue, loc, "ShiftRight");
    dvac::scalar_l0<T>(dvk_vshr, "ShiftRight", dst, src, scalarValue, dvac::MaskArg::of(mask, isSetMask), repeatTime,
                       repeatParams, loc);
}
template <typename T, bool isSetMask = true>
inline void ShiftRight(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue, uint64_t mask,
                       const uint8_t repeatTime, const UnaryRepeatParams &repeatParams, bool roundEn = false,
                       const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_SHIFT_TYPES(ShiftRight);
    if (roundEn && dvac::vec_stream(loc))
        dvac::fail_at(loc, "ShiftRight", "roundEn = true (rounding the bits shifted out) is not modelled by dvsim");
    dvac::shift_count(scalarValue, loc, "ShiftRight");
    dvac::scalar_l0<T>(dvk_vshr, "ShiftRight", dst, src, scalarValue, dvac::MaskArg::of(mask, isSetMask), repeatTime,
                       repeatParams, loc);
}
template <typename T, bool isSetMask = true>
inline void ShiftRight(const LocalTensor<T> &dst, const LocalTensor<T> &src, const T &scalarValue,
                       const int32_t &count, const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_SHIFT_TYPES(ShiftRight);
    dvac::shift_count(scalarValue, loc, "ShiftRight");
    dvac::scalar_l2<T>(dvk_vshr, "ShiftRight", dst, src, scalarValue, count, isSetMask, loc);
}
#undef DVAC_SHIFT_TYPES

} // namespace AscendC

#undef DVAC_VEC_BINARY

#endif
