/* dvac/vec_cast.h - Cast with RoundMode: one vconv per call, level 0 (mask, repeatTime,
 * UnaryRepeatParams) and level 2 (count), over the conversions dav-2201 has and the ISA's vconv
 * table holds (docs/ASCENDC.md, "Vector API"). */
#ifndef DVAC_VEC_CAST_H
#define DVAC_VEC_CAST_H

#include "vec_core.h"

namespace AscendC {

enum class RoundMode : uint8_t {
    CAST_NONE = 0, /* no rounding where the conversion is exact, else CAST_RINT */
    CAST_RINT,     /* nearest, ties to even */
    CAST_FLOOR,
    CAST_CEIL,
    CAST_ROUND,    /* nearest, ties away from zero */
    CAST_TRUNC,
    CAST_ODD,      /* round to odd (f32 -> f16 on dav-2201; not modelled by dvsim) */
};

/* CANN's 4-bit integer (two per byte). dvsim has no 4-bit element type: the type exists so that a kernel
 * naming it in code it does not instantiate compiles; no Cast to or from it compiles. */
struct int4b_t {
    uint8_t storage;
};

} // namespace AscendC

namespace dvac {

/* The round modes a conversion src U -> dst T takes on dav-2201 (CANN's table for Atlas A2), a bit
 * per RoundMode; 0: the conversion is not available (CANN's int32 -> int16 / half / int64, the
 * int64 and int4 ones and f32 -> int64 are not in the ISA's vconv table; f32 -> f32 rounds to integral). */
template <typename T, typename U> constexpr uint32_t cast_modes()
{
    using AscendC::RoundMode;
    constexpr uint32_t N = 1u << (int)RoundMode::CAST_NONE;
    constexpr uint32_t R5 = (1u << (int)RoundMode::CAST_RINT) | (1u << (int)RoundMode::CAST_FLOOR) |
                            (1u << (int)RoundMode::CAST_CEIL) | (1u << (int)RoundMode::CAST_ROUND) |
                            (1u << (int)RoundMode::CAST_TRUNC);
    constexpr uint32_t O = 1u << (int)RoundMode::CAST_ODD;
    if constexpr (one_of<U, int8_t, uint8_t>() && std::is_same<T, half>::value)
        return N;
    else if constexpr (std::is_same<U, int16_t>::value && std::is_same<T, half>::value)
        return N | R5;
    else if constexpr (std::is_same<U, int16_t>::value && std::is_same<T, float>::value)
        return N;
    else if constexpr (std::is_same<U, half>::value && one_of<T, int8_t, uint8_t>())
        return N | R5;
    else if constexpr (std::is_same<U, half>::value && one_of<T, int16_t, int32_t>())
        return R5;
    else if constexpr (std::is_same<U, half>::value && std::is_same<T, float>::value)
        return N;
    else if constexpr (std::is_same<U, bfloat16_t>::value && std::is_same<T, int32_t>::value)
        return R5;
    else if constexpr (std::is_same<U, bfloat16_t>::value && std::is_same<T, float>::value)
        return N;
    else if constexpr (std::is_same<U, int32_t>::value && std::is_same<T, float>::value)
        return N | R5;
    else if constexpr (std::is_same<U, float>::value && one_of<T, int16_t, int32_t, bfloat16_t, float>())
        return R5;
    else if constexpr (std::is_same<U, float>::value && std::is_same<T, half>::value)
        return N | R5 | O;
    else
        return 0;
}

inline const char *round_name(AscendC::RoundMode m)
{
    static const char *const names[] = {"CAST_NONE", "CAST_RINT", "CAST_FLOOR", "CAST_CEIL",
                                        "CAST_ROUND", "CAST_TRUNC", "CAST_ODD"};
    return (unsigned)m < 7 ? names[(unsigned)m] : "an unknown RoundMode";
}

/* The vconv round field of a mode the conversion takes (CAST_NONE rounds as CAST_RINT). */
template <typename T, typename U> inline int cast_round(AscendC::RoundMode m, const Loc &loc)
{
    using AscendC::RoundMode;
    if ((unsigned)m > 6 || !(cast_modes<T, U>() & (1u << (unsigned)m)))
        fail_at(loc, "Cast", "%s is not a round mode of this conversion on dav-2201", round_name(m));
    switch (m) {
    case RoundMode::CAST_FLOOR: return DV_ROUND_F;
    case RoundMode::CAST_CEIL: return DV_ROUND_C;
    case RoundMode::CAST_ROUND: return DV_ROUND_A;
    case RoundMode::CAST_TRUNC: return DV_ROUND_Z;
    case RoundMode::CAST_ODD:
        fail_at(loc, "Cast", "CAST_ODD (round to odd) is not modelled by dvsim's vconv");
    default: return DV_ROUND_R;
    }
}

template <typename T, typename U>
inline void cast_l0(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<U> &src, AscendC::RoundMode mode,
                    MaskArg ma, uint8_t repeat, const AscendC::UnaryRepeatParams &p, const Loc &loc)
{
    const char *api = "Cast";
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return;
    constexpr uint32_t E = 256 / (sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U));
    constexpr uint32_t narrow = 256 / (sizeof(T) < sizeof(U) ? sizeof(T) : sizeof(U));
    const int round = cast_round<T, U>(mode, loc);
    const Mask m = ma.resolve(E, narrow, loc, api);
    ub_operand(dst, "dst", 32, loc, api);
    ub_operand(src, "src", 32, loc, api);
    const int64_t db = stride8(p.dstBlkStride, "dstBlkStride", loc, api);
    const int64_t sb = stride8(p.srcBlkStride, "srcBlkStride", loc, api);
    strided_in(dst, "dst", m, E, repeat, (uint64_t)db, p.dstRepStride, loc, api);
    strided_in(src, "src", m, E, repeat, (uint64_t)sb, p.srcRepStride, loc, api);
    mask_emit(c, m);
    dvk_vconv(c, dst.addr(), src.addr(), dtype_of<T>(), dtype_of<U>(), round, repeat, db, sb, p.dstRepStride,
              p.srcRepStride);
}

} // namespace dvac

namespace AscendC {

#define DVAC_CAST_CHECK                                                                                              \
    static_assert(dvac::cast_modes<T, U>() != 0,                                                                     \
                  "Cast: this src -> dst conversion is not available on dav-2201 in dvsim (see docs/ASCENDC.md)")

template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode,
                 const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams &repeatParams,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_CAST_CHECK;
    dvac::cast_l0(dst, src, roundMode, dvac::MaskArg::of(mask, isSetMask), repeatTime, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode,
                 const uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams &repeatParams,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_CAST_CHECK;
    dvac::cast_l0(dst, src, roundMode, dvac::MaskArg::of(mask, isSetMask), repeatTime, repeatParams, loc);
}
/* Level 2: count mode, one vconv with the repeat strides of a packed conversion (the narrower side
 * moves half as many bytes per repeat). */
template <typename T, typename U>
inline void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &roundMode,
                 const uint32_t count, const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_CAST_CHECK;
    const char *api = "Cast";
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    const int round = dvac::cast_round<T, U>(roundMode, loc);
    dvac::ub_operand(dst, "dst", 32, loc, api);
    dvac::ub_operand(src, "src", 32, loc, api);
    dvac::count_in(dst, count, "dst", loc, api);
    dvac::count_in(src, count, "src", loc, api);
    constexpr int64_t drep = sizeof(T) < sizeof(U) ? 4 : 8, srep = sizeof(U) < sizeof(T) ? 4 : 8;
    dvac::count_frame(c, count, false, [&] {
        dvk_vconv(c, dst.addr(), src.addr(), dvac::dtype_of<T>(), dvac::dtype_of<U>(), round, 1, 1, 1, drep, srep);
    });
}

#undef DVAC_CAST_CHECK

} // namespace AscendC

#endif
