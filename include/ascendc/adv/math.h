/* adv/math.h - Ascend C high-level API, math: Sin, Cos, Acosh, Atanh, Sinh, Cosh, Tanh, Axpy (mixed types), Ceil /
 * Floor / Trunc, Frac, ClampMin / ClampMax, CumSum, Erf, Exp with a Taylor expansion, Fmod, Log / Log2 / Log10, Power,
 * Xor and Arange / ArithProgression.  Kernel side, built on the basic vector API (dvac/vec*.h) as CANN's dav-2201
 * implementation composes it (asc-devkit impl/adv_api/detail/math/, .../index/): most run in counter mode
 * (SetMaskCount, the element count in the vector mask, level-0 calls without a mask, one repeat), in chunks of
 * what the temporary buffer holds.  docs/ASCENDC.md, "Advanced APIs" > "Math", lists what each emits. */
#ifndef DVSIM_ADV_MATH_H
#define DVSIM_ADV_MATH_H

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "../dvac/core.h"
#include "../dvac/tensor.h"
#include "../dvac/sync.h"
#include "../dvac/vec.h"

namespace dvac {

/* ---- the pieces CANN's math implementations are made of ---- */

template <typename T> using LT = AscendC::LocalTensor<T>;

/* n elements fit in t. */
template <typename T>
inline void math_fits(const LT<T> &t, uint32_t n, const char *name, const Loc &loc, const char *api)
{
    if (n > t.GetSize())
        fail_at(loc, api, "%u elements pass the end of %s (%u elements)", n, name, t.GetSize());
}

/* Elements per chunk a temporary buffer of `bytes` holds at `per` bytes each, rounded down to 32 elements
 * (CANN's splits); 0 is an error naming the minimum. */
inline uint32_t math_split(uint32_t bytes, uint32_t per, const Loc &loc, const char *api)
{
    const uint32_t n = bytes / per / 32 * 32;
    if (n == 0)
        fail_at(loc, api, "the temporary buffer of %u bytes is too small: at least %u bytes (see the API's "
                "GetXxxMaxMinTmpSize)", bytes, per * 32);
    return n;
}

/* The stack buffer of the forms without a temporary buffer, as bytes: CANN's PopStackBuffer<uint8_t,
 * TPosition::LCM> gives the UB from the end of the TPipe's buffers to 64 bytes before the end of UB
 * (impl/basic_api/kernel_pop_stack_buffer.h); this one stops below the top 8 KB (TMP_UB_OFFSET), where the basic
 * Select the Power API uses keeps its scalar and address copies. */
inline LT<uint8_t> math_stack(const Loc &loc)
{
    AscendC::TPipe *p = AscendC::GetTPipePtr();
    if (!p)
        fail_at(loc, "PopStackBuffer", "the form without a temporary buffer takes the stack buffer: no TPipe");
    const uint64_t start = (p->GetQueueEndAddress<AscendC::TPosition::LCM>() + 31) / 32 * 32;
    const uint64_t end = dvk_space_bytes(k(loc), DV_SPACE_UB) - 8192;
    if (end <= start)
        fail_at(loc, "PopStackBuffer", "no UB is left after the TPipe's %llu bytes", (unsigned long long)start);
    return LT<uint8_t>(DV_ADDR(DV_SPACE_UB, start), (uint32_t)(end - start), AscendC::TPosition::LCM);
}

/* Counter mode for chunks of `split` of n elements: f(offset, len) per chunk, the counter set when the length
 * changes, then normal mode with a full mask (CANN's SetMaskCount ... SetMaskNorm, ResetMask). */
template <class F> inline void math_chunks(uint32_t n, uint32_t split, const Loc &loc, F f)
{
    AscendC::SetMaskCount(loc);
    uint32_t set = 0;
    for (uint32_t off = 0; off < n; off += split) {
        const uint32_t len = n - off < split ? n - off : split;
        if (len != set)
            AscendC::SetVectorMask<float, AscendC::MaskMode::COUNTER>(0, len, loc);
        set = len;
        f(off, len);
    }
    AscendC::SetMaskNorm(loc);
    AscendC::ResetMask(loc);
}

inline void vbar(const Loc &loc) { AscendC::PipeBarrier<PIPE_V>(loc); }

/* Level-0 calls in counter mode (no mask, one repeat, default strides), each followed by a V barrier. */
#define DVAC_MATH_BIN(name, Api)                                                                                     \
    template <typename T> inline void name(const LT<T> &d, const LT<T> &a, const LT<T> &b, const Loc &loc)          \
    {                                                                                                                \
        AscendC::Api<T, false>(d, a, b, AscendC::MASK_PLACEHOLDER, 1, AscendC::BinaryRepeatParams(), loc);          \
        vbar(loc);                                                                                                   \
    }
#define DVAC_MATH_SCALAR(name, Api)                                                                                  \
    template <typename T> inline void name(const LT<T> &d, const LT<T> &a, T s, const Loc &loc)                     \
    {                                                                                                                \
        AscendC::Api<T, false>(d, a, s, AscendC::MASK_PLACEHOLDER, 1, AscendC::UnaryRepeatParams(), loc);           \
        vbar(loc);                                                                                                   \
    }
#define DVAC_MATH_UNARY(name, Api)                                                                                   \
    template <typename T> inline void name(const LT<T> &d, const LT<T> &a, const Loc &loc)                          \
    {                                                                                                                \
        AscendC::Api<T, false>(d, a, AscendC::MASK_PLACEHOLDER, 1, AscendC::UnaryRepeatParams(), loc);              \
        vbar(loc);                                                                                                   \
    }
DVAC_MATH_BIN(m_add, Add)
DVAC_MATH_BIN(m_sub, Sub)
DVAC_MATH_BIN(m_mul, Mul)
DVAC_MATH_BIN(m_div, Div)
DVAC_MATH_BIN(m_and, And)
DVAC_MATH_BIN(m_or, Or)
DVAC_MATH_SCALAR(m_adds, Adds)
DVAC_MATH_SCALAR(m_muls, Muls)
DVAC_MATH_SCALAR(m_maxs, Maxs)
DVAC_MATH_SCALAR(m_mins, Mins)
DVAC_MATH_UNARY(m_ln, Ln)
DVAC_MATH_UNARY(m_exp, Exp)
DVAC_MATH_UNARY(m_sqrt, Sqrt)
DVAC_MATH_UNARY(m_abs, Abs)
DVAC_MATH_UNARY(m_not, Not)
#undef DVAC_MATH_BIN
#undef DVAC_MATH_SCALAR
#undef DVAC_MATH_UNARY

/* A counter-mode Cast U -> T (the narrower side's repeat stride halved). */
template <typename T, typename U>
inline void m_cast(const LT<T> &d, const LT<U> &s, AscendC::RoundMode mode, const Loc &loc)
{
    const uint8_t dr = sizeof(T) < sizeof(U) ? 4 : 8, sr = sizeof(U) < sizeof(T) ? 4 : 8;
    AscendC::Cast<T, U, false>(d, s, mode, AscendC::MASK_PLACEHOLDER, 1, AscendC::UnaryRepeatParams(1, 1, dr, sr),
                               loc);
    vbar(loc);
}

template <typename T> constexpr bool is_hf() { return one_of<T, half, float>(); }

} // namespace dvac

namespace AscendC {

/* ---- Acosh: ln(x + sqrt(x*x - 1)), in float (impl/adv_api/detail/math/acosh/acosh_common_impl.h) ---- */
template <typename T, bool isReuseSource = false>
inline void Acosh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                  const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                  const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::is_hf<T>(), "Acosh: dtype not supported on dav-2201 (half, float)");
    const char *api = "Acosh";
    dvac::math_fits(dstTensor, calCount, "dstTensor", loc, api);
    dvac::math_fits(srcTensor, calCount, "srcTensor", loc, api);
    const uint32_t split = dvac::math_split(sharedTmpBuffer.GetSize(), sizeof(T) == 2 ? 8 : 4, loc, api);
    const LocalTensor<float> t1 = sharedTmpBuffer.ReinterpretCast<float>(), t2 = t1[split];
    dvac::math_chunks(calCount, split, loc, [&](uint32_t off, uint32_t) {
        const LocalTensor<T> d = dstTensor[off], s = srcTensor[off];
        if constexpr (sizeof(T) == 2) {
            dvac::m_cast(t1, s, RoundMode::CAST_NONE, loc);
            dvac::m_mul(t2, t1, t1, loc);
            dvac::m_adds(t2, t2, -1.0f, loc);
            dvac::m_sqrt(t2, t2, loc);
            dvac::m_add(t2, t2, t1, loc);
            dvac::m_div(t1, t2, t2, loc);
            dvac::m_mul(t2, t2, t1, loc);
            dvac::m_ln(t2, t2, loc);
            dvac::m_cast(d, t2, RoundMode::CAST_NONE, loc);
        } else {
            dvac::m_mul(t1, s, s, loc);
            dvac::m_adds(t1, t1, -1.0f, loc);
            dvac::m_sqrt(t1, t1, loc);
            dvac::m_add(t1, s, t1, loc);
            dvac::m_div(d, t1, t1, loc);
            dvac::m_mul(t1, t1, d, loc);
            dvac::m_ln(d, t1, loc);
        }
    });
}
template <typename T, bool isReuseSource = false>
inline void Acosh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount,
                  const dvac::Loc &loc = dvac::Loc::here())
{
    Acosh<T, isReuseSource>(dstTensor, srcTensor, dvac::math_stack(loc), calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Acosh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                  const LocalTensor<uint8_t> &sharedTmpBuffer, const dvac::Loc &loc = dvac::Loc::here())
{
    Acosh<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Acosh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                  const dvac::Loc &loc = dvac::Loc::here())
{
    Acosh<T, isReuseSource>(dstTensor, srcTensor, dvac::math_stack(loc), srcTensor.GetSize(), loc);
}

/* The forms of a unary math API without a count (the source's size) or without a buffer (the stack buffer). */
#define DVAC_MATH_UNARY_FORMS(Api)                                                                                   \
    template <typename T, bool isReuseSource = false>                                                                \
    inline void Api(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount,      \
                    const dvac::Loc &loc = dvac::Loc::here())                                                        \
    {                                                                                                                \
        Api<T, isReuseSource>(dstTensor, srcTensor, dvac::math_stack(loc), calCount, loc);                          \
    }                                                                                                                \
    template <typename T, bool isReuseSource = false>                                                                \
    inline void Api(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,                               \
                    const LocalTensor<uint8_t> &sharedTmpBuffer, const dvac::Loc &loc = dvac::Loc::here())           \
    {                                                                                                                \
        Api<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(), loc);                     \
    }                                                                                                                \
    template <typename T, bool isReuseSource = false>                                                                \
    inline void Api(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,                               \
                    const dvac::Loc &loc = dvac::Loc::here())                                                        \
    {                                                                                                                \
        Api<T, isReuseSource>(dstTensor, srcTensor, dvac::math_stack(loc), srcTensor.GetSize(), loc);               \
    }

/* ---- Sinh: e^(x - ln 2) - e^(-x - ln 2) (impl/adv_api/detail/math/sinh/sinh_common_impl.h) ---- */
template <typename T, bool isReuseSource = false>
inline void Sinh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                 const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::is_hf<T>(), "Sinh: dtype not supported on dav-2201 (half, float)");
    const char *api = "Sinh";
    dvac::math_fits(dstTensor, calCount, "dstTensor", loc, api);
    dvac::math_fits(srcTensor, calCount, "srcTensor", loc, api);
    const uint32_t split = dvac::math_split(sharedTmpBuffer.GetSize(), sizeof(T) == 2 ? 8 : 4, loc, api);
    const LocalTensor<float> t1 = sharedTmpBuffer.ReinterpretCast<float>(), t2 = t1[split];
    const float nln2 = -0.69314718055994530942f;
    dvac::math_chunks(calCount, split, loc, [&](uint32_t off, uint32_t) {
        const LocalTensor<T> d = dstTensor[off], s = srcTensor[off];
        if constexpr (sizeof(T) == 2) {
            dvac::m_cast(t1, s, RoundMode::CAST_NONE, loc);
            dvac::m_adds(t2, t1, nln2, loc);
            dvac::m_exp(t2, t2, loc);
            dvac::m_muls(t1, t1, -1.0f, loc);
            dvac::m_adds(t1, t1, nln2, loc);
            dvac::m_exp(t1, t1, loc);
            dvac::m_sub(t2, t2, t1, loc);
            dvac::m_cast(d, t2, RoundMode::CAST_NONE, loc);
        } else {
            dvac::m_muls(t1, s, -1.0f, loc);
            dvac::m_adds(t1, t1, nln2, loc);
            dvac::m_exp(t1, t1, loc);
            dvac::m_adds(d, s, nln2, loc);
            dvac::m_exp(d, d, loc);
            dvac::m_sub(d, d, t1, loc);
        }
    });
}
DVAC_MATH_UNARY_FORMS(Sinh)

/* ---- Cosh: e^(x - ln 2) + 0.25 / e^(x - ln 2); half back with round A on dav-2201
 * (impl/adv_api/detail/math/cosh/cosh_common_impl.h, cosh_v220_impl.h) ---- */
template <typename T, bool isReuseSource = false>
inline void Cosh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                 const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::is_hf<T>(), "Cosh: dtype not supported on dav-2201 (half, float)");
    const char *api = "Cosh";
    dvac::math_fits(dstTensor, calCount, "dstTensor", loc, api);
    dvac::math_fits(srcTensor, calCount, "srcTensor", loc, api);
    const uint32_t split = dvac::math_split(sharedTmpBuffer.GetSize(), sizeof(T) == 2 ? 12 : 8, loc, api);
    const LocalTensor<float> t1 = sharedTmpBuffer.ReinterpretCast<float>(), t2 = t1[split], t3 = t2[split];
    const float nln2 = -0.69314718055994530942f;
    dvac::math_chunks(calCount, split, loc, [&](uint32_t off, uint32_t) {
        const LocalTensor<T> d = dstTensor[off], s = srcTensor[off];
        const LocalTensor<float> q = sizeof(T) == 2 ? t3 : d.template ReinterpretCast<float>();
        if constexpr (sizeof(T) == 2) {
            dvac::m_cast(t3, s, RoundMode::CAST_NONE, loc);
            dvac::m_adds(t2, t3, nln2, loc);
        } else {
            dvac::m_adds(t2, s, nln2, loc);
        }
        dvac::m_exp(t1, t2, loc);
        Duplicate<float, false>(q, 0.25f, MASK_PLACEHOLDER, 1, 1, DEFAULT_REPEAT_STRIDE, loc);
        dvac::vbar(loc);
        dvac::m_div(t2, q, t1, loc);
        dvac::m_add(q, t1, t2, loc);
        if constexpr (sizeof(T) == 2)
            dvac::m_cast(d, t3, RoundMode::CAST_ROUND, loc);
    });
}
DVAC_MATH_UNARY_FORMS(Cosh)

/* ---- Tanh: (e^2x - 1) / (e^2x + 1) of x clipped to [-8.8, 8.8] (impl/adv_api/detail/math/tanh/
 * tanh_common_impl.h) ---- */
template <typename T, bool isReuseSource = false>
inline void Tanh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                 const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::is_hf<T>(), "Tanh: dtype not supported on dav-2201 (half, float)");
    const char *api = "Tanh";
    dvac::math_fits(dstTensor, calCount, "dstTensor", loc, api);
    dvac::math_fits(srcTensor, calCount, "srcTensor", loc, api);
    const uint32_t split = dvac::math_split(sharedTmpBuffer.GetSize(), sizeof(T) == 2 ? 8 : 4, loc, api);
    const LocalTensor<float> conv = sharedTmpBuffer.ReinterpretCast<float>();
    const LocalTensor<float> clip = sizeof(T) == 2 ? conv[split] : conv;
    dvac::math_chunks(calCount, split, loc, [&](uint32_t off, uint32_t) {
        const auto formula = [&](const LocalTensor<float> &d, const LocalTensor<float> &s) {
            dvac::m_mins(clip, s, 8.8f, loc);
            dvac::m_maxs(clip, clip, -8.8f, loc);
            dvac::m_muls(clip, clip, 2.0f, loc);
            dvac::m_exp(clip, clip, loc);
            dvac::m_adds(d, clip, -1.0f, loc);
            dvac::m_adds(clip, clip, 1.0f, loc);
            dvac::m_div(d, d, clip, loc);
        };
        if constexpr (sizeof(T) == 2) {
            dvac::m_cast(conv, srcTensor[off], RoundMode::CAST_NONE, loc);
            formula(conv, conv);
            dvac::m_cast(dstTensor[off], conv, RoundMode::CAST_NONE, loc);
        } else {
            formula(dstTensor[off], srcTensor[off]);
        }
    });
}
DVAC_MATH_UNARY_FORMS(Tanh)

/* ---- Atanh: 0.5 ln((1 + x) / (1 - x)) (impl/adv_api/detail/math/atanh/atanh_common_impl.h) ---- */
template <typename T, bool isReuseSource = false>
inline void Atanh(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                  const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                  const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::is_hf<T>(), "Atanh: dtype not supported on dav-2201 (half, float)");
    const char *api = "Atanh";
    dvac::math_fits(dstTensor, calCount, "dstTensor", loc, api);
    dvac::math_fits(srcTensor, calCount, "srcTensor", loc, api);
    const uint32_t split = dvac::math_split(sharedTmpBuffer.GetSize(), sizeof(T) == 2 ? 8 : 4, loc, api);
    const LocalTensor<float> t1 = sharedTmpBuffer.ReinterpretCast<float>(), t2 = t1[split];
    dvac::math_chunks(calCount, split, loc, [&](uint32_t off, uint32_t) {
        using LF = LocalTensor<float>;
        const auto formula = [&](const LF &d, const LF &x, const LF &t) {
            dvac::m_adds(t, x, 1.0f, loc);
            dvac::m_muls(d, x, -1.0f, loc);
            dvac::m_adds(d, d, 1.0f, loc);
            dvac::m_div(d, t, d, loc);
            dvac::m_ln(d, d, loc);
            dvac::m_muls(d, d, 0.5f, loc);
        };
        if constexpr (sizeof(T) == 2) {
            dvac::m_cast(t1, srcTensor[off], RoundMode::CAST_NONE, loc);
            formula(t1, t1, t2);
            dvac::m_cast(dstTensor[off], t1, RoundMode::CAST_NONE, loc);
        } else {
            formula(dstTensor[off], srcTensor[off], t1);
        }
    });
}
DVAC_MATH_UNARY_FORMS(Atanh)

/* ---- Sin: k = round(x / pi), x0 = x - k pi (pi in four parts), (-1)^k x0 P(x0^2); Cos below
 * (impl/adv_api/detail/math/sin/sin_common_impl.h, sin_v220_impl.h) ---- */
} // namespace AscendC

namespace dvac {

/* Sin (or Cos) of float x into d with the float tensors r (k), kp, x0; d may not be x0 or r.  Cos takes
 * k = rint(x / pi + 1/2) and x0 = x - k pi + pi / 2, in five parts of pi (cos/cos_common_impl.h: CosRound, KPI),
 * and clamps to [-1, 1]. */
inline void math_sin(const LT<float> &d, const LT<float> &x, const LT<float> &r, const LT<float> &kp,
                     const LT<float> &x0, bool cos, const Loc &loc)
{
    static const float PI5[] = {3.140625f, 0.0009670257568359375f, 6.2771141529083251953125e-7f,
                                1.21644916362129151821136474609375e-10f, -1.0290623200529979163359041220560e-13f};
    static const float R[] = {2.604926501e-6f, -0.0001980894471f, 0.008333049340f, -0.1666665792f};
    m_muls(r, x, 0.3183098733425140380859375f, loc);
    if (cos)
        m_adds(r, r, 0.5f, loc);
    m_cast(r, r, cos ? AscendC::RoundMode::CAST_RINT : AscendC::RoundMode::CAST_ROUND, loc);
    m_muls(kp, r, PI5[0], loc);
    m_sub(x0, x, kp, loc);
    for (int i = 1; i < (cos ? 5 : 4); i++) {
        m_muls(kp, r, PI5[i], loc);
        m_sub(x0, x0, kp, loc);
        if (cos && i == 1)
            m_adds(x0, x0, 1.57079637050628662109375f, loc);
    }
    if (cos)
        m_adds(x0, x0, -0.00000004371139000189375f, loc);
    m_mul(kp, x0, x0, loc); /* x0^2 */
    m_muls(d, r, 0.5f, loc); /* the sign: 4 floor(k / 2) - 2k + 1 */
    m_cast(d, d, AscendC::RoundMode::CAST_FLOOR, loc);
    m_muls(d, d, 4.0f, loc);
    m_muls(r, r, -2.0f, loc);
    m_add(d, d, r, loc);
    m_adds(d, d, 1.0f, loc);
    m_muls(r, kp, R[0], loc);
    m_adds(r, r, R[1], loc);
    for (int i = 2; i < 4; i++) {
        m_mul(r, r, kp, loc);
        m_adds(r, r, R[i], loc);
    }
    m_mul(r, r, kp, loc);
    m_adds(r, r, 1.0f, loc);
    m_mul(r, r, x0, loc);
    m_mul(d, r, d, loc);
    if (cos) {
        m_mins(d, d, 1.0f, loc);
        m_maxs(d, d, -1.0f, loc);
    }
}

/* Sin and Cos (impl/adv_api/detail/math/sin, cos): one body, the shared polynomial of math_sin, cos
 * selecting the quarter-period shift. */
template <typename T, bool isReuseSource>
inline void sin_cos(const AscendC::LocalTensor<T> &dstTensor, const AscendC::LocalTensor<T> &srcTensor,
                    const AscendC::LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount, bool cos,
                    const char *api, const Loc &loc)
{
    using namespace AscendC;
    math_fits(dstTensor, calCount, "dstTensor", loc, api);
    math_fits(srcTensor, calCount, "srcTensor", loc, api);
    constexpr uint32_t per = sizeof(T) == 2 ? 16 : isReuseSource ? 8 : 12;
    const uint32_t split = math_split(sharedTmpBuffer.GetSize(), per, loc, api);
    const LocalTensor<float> t0 = sharedTmpBuffer.ReinterpretCast<float>(), t1 = t0[split], t2 = t1[split];
    math_chunks(calCount, split, loc, [&](uint32_t off, uint32_t) {
        if constexpr (sizeof(T) == 2) {
            m_cast(t0, srcTensor[off], RoundMode::CAST_NONE, loc);
            math_sin(t0, t0, t1, t2, t2[split], cos, loc);
            m_cast(dstTensor[off], t0, RoundMode::CAST_NONE, loc);
        } else {
            const LocalTensor<float> x0 = isReuseSource ? srcTensor[off] : t2;
            math_sin(dstTensor[off], srcTensor[off], t0, t1, x0, cos, loc);
        }
    });
}
} // namespace dvac

namespace AscendC {

template <typename T, bool isReuseSource = false>
inline void Sin(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::is_hf<T>(), "Sin: dtype not supported on dav-2201 (half, float)");
    dvac::sin_cos<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, calCount, false, "Sin", loc);
}
DVAC_MATH_UNARY_FORMS(Sin)

/* ---- Cos (impl/adv_api/detail/math/cos/cos_common_impl.h) ---- */
template <typename T, bool isReuseSource = false>
inline void Cos(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::is_hf<T>(), "Cos: dtype not supported on dav-2201 (half, float)");
    dvac::sin_cos<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, calCount, true, "Cos", loc);
}
DVAC_MATH_UNARY_FORMS(Cos)

/* ---- Axpy with a temporary buffer: dst += src * scalar, half sources computed in float
 * (impl/adv_api/detail/math/axpy/axpy_common_impl.h); float sources are the basic Axpy ---- */
template <typename T, typename U, bool isReuseSource = false>
inline void Axpy(const LocalTensor<T> &dstTensor, const LocalTensor<U> &srcTensor, const U scalarValue,
                 const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert((std::is_same<T, half>::value && std::is_same<U, half>::value) ||
                      (std::is_same<T, float>::value && dvac::is_hf<U>()),
                  "Axpy: types not supported on dav-2201 (T, U: half, half / float, float / float, half)");
    const char *api = "Axpy";
    if constexpr (sizeof(U) == sizeof(float)) {
        Axpy<T, U>(dstTensor, srcTensor, scalarValue, (int32_t)calCount, loc);
    } else {
        dvac::math_fits(dstTensor, calCount, "dstTensor", loc, api);
        dvac::math_fits(srcTensor, calCount, "srcTensor", loc, api);
        const uint32_t split = dvac::math_split(sharedTmpBuffer.GetSize(), sizeof(T) == 2 ? 8 : 4, loc, api);
        const LocalTensor<float> t1 = sharedTmpBuffer.ReinterpretCast<float>(), t2 = t1[split];
        const float a = (float)scalarValue;
        dvac::math_chunks(calCount, split, loc, [&](uint32_t off, uint32_t) {
            const LocalTensor<T> d = dstTensor[off];
            dvac::m_cast(t1, srcTensor[off], RoundMode::CAST_NONE, loc);
            if constexpr (sizeof(T) == 2) {
                dvac::m_cast(t2, d, RoundMode::CAST_NONE, loc);
                dvac::m_muls(t1, t1, a, loc);
                dvac::m_add(t2, t1, t2, loc);
                dvac::m_cast(d, t2, RoundMode::CAST_NONE, loc);
            } else {
                dvac::m_muls(t1, t1, a, loc);
                dvac::m_add(d, t1, d, loc);
            }
        });
    }
}

} // namespace AscendC

namespace dvac {

/* Ceil, Floor, Trunc: a float -> float Cast with the round mode; half through float in the temporary buffer
 * (impl/adv_api/detail/math/ceil/ceil_v220_impl.h, floor/, trunc/). */
template <typename T>
inline void math_round(AscendC::RoundMode mode, const LT<T> &dst, const LT<T> &src, const LT<uint8_t> &tmp,
                       uint32_t n, const Loc &loc, const char *api)
{
    static_assert(is_hf<T>(), "Ceil / Floor / Trunc: dtype not supported on dav-2201 (half, float)");
    math_fits(dst, n, "dstTensor", loc, api);
    math_fits(src, n, "srcTensor", loc, api);
    if constexpr (sizeof(T) == sizeof(float)) {
        math_chunks(n, n ? n : 1, loc, [&](uint32_t, uint32_t) { m_cast(dst, src, mode, loc); });
    } else {
        const uint32_t split = math_split(tmp.GetSize(), 4, loc, api);
        const LT<float> t = tmp.ReinterpretCast<float>();
        math_chunks(n, split, loc, [&](uint32_t off, uint32_t) {
            m_cast(t, src[off], AscendC::RoundMode::CAST_NONE, loc);
            m_cast(t, t, mode, loc);
            m_cast(dst[off], t, AscendC::RoundMode::CAST_NONE, loc);
        });
    }
}

} // namespace dvac

namespace AscendC {

#define DVAC_MATH_ROUND(Api, mode)                                                                                   \
    template <typename T, bool isReuseSource = false>                                                                \
    inline void Api(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,                               \
                    const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,                            \
                    const dvac::Loc &loc = dvac::Loc::here())                                                        \
    {                                                                                                                \
        dvac::math_round<T>(RoundMode::mode, dstTensor, srcTensor, sharedTmpBuffer, calCount, loc, #Api);           \
    }                                                                                                                \
    template <typename T, bool isReuseSource = false>                                                                \
    inline void Api(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount,      \
                    const dvac::Loc &loc = dvac::Loc::here())                                                        \
    {                                                                                                                \
        const LocalTensor<uint8_t> tmp = sizeof(T) == 2 ? dvac::math_stack(loc) : LocalTensor<uint8_t>();          \
        dvac::math_round<T>(RoundMode::mode, dstTensor, srcTensor, tmp, calCount, loc, #Api);                       \
    }
DVAC_MATH_ROUND(Ceil, CAST_CEIL)
DVAC_MATH_ROUND(Floor, CAST_FLOOR)
DVAC_MATH_ROUND(Trunc, CAST_TRUNC)
#undef DVAC_MATH_ROUND

/* ---- Frac: x - trunc(x) (impl/adv_api/detail/math/frac/frac_common_impl.h, frac_v220_impl.h) ---- */
template <typename T, bool isReuseSource = false>
inline void Frac(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                 const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::is_hf<T>(), "Frac: dtype not supported on dav-2201 (half, float)");
    const char *api = "Frac";
    dvac::math_fits(dstTensor, calCount, "dstTensor", loc, api);
    dvac::math_fits(srcTensor, calCount, "srcTensor", loc, api);
    if constexpr (sizeof(T) == sizeof(float)) {
        dvac::math_chunks(calCount, calCount ? calCount : 1, loc, [&](uint32_t, uint32_t) {
            dvac::m_cast(dstTensor, srcTensor, RoundMode::CAST_TRUNC, loc);
            dvac::m_sub(dstTensor, srcTensor, dstTensor, loc);
        });
    } else {
        const uint32_t split = dvac::math_split(sharedTmpBuffer.GetSize(), 8, loc, api);
        const LocalTensor<float> t1 = sharedTmpBuffer.ReinterpretCast<float>(), t2 = t1[split];
        dvac::math_chunks(calCount, split, loc, [&](uint32_t off, uint32_t) {
            dvac::m_cast(t1, srcTensor[off], RoundMode::CAST_NONE, loc);
            dvac::m_cast(t2, t1, RoundMode::CAST_TRUNC, loc);
            dvac::m_sub(t2, t1, t2, loc);
            dvac::m_cast(dstTensor[off], t2, RoundMode::CAST_NONE, loc);
        });
    }
}
template <typename T, bool isReuseSource = false>
inline void Frac(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                 const LocalTensor<uint8_t> &sharedTmpBuffer, const dvac::Loc &loc = dvac::Loc::here())
{
    Frac<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Frac(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    const LocalTensor<uint8_t> tmp = sizeof(T) == 2 ? dvac::math_stack(loc) : LocalTensor<uint8_t>();
    Frac<T, isReuseSource>(dstTensor, srcTensor, tmp, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Frac(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    Frac<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);
}

/* ---- ClampMin / ClampMax: Maxs / Mins (impl/adv_api/detail/math/clamp/clamp_common_impl.h) ---- */
template <typename T, bool isReuseSource = false>
inline void ClampMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                     const LocalTensor<uint8_t> &sharedTmpBuffer, const T scalar, const uint32_t calCount,
                     const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::is_hf<T>(), "ClampMax: dtype not supported on dav-2201 (half, float)");
    (void)sharedTmpBuffer;
    Mins(dstTensor, srcTensor, scalar, (int32_t)calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void ClampMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const T scalar,
                     const uint32_t calCount, const dvac::Loc &loc = dvac::Loc::here())
{
    ClampMax<T, isReuseSource>(dstTensor, srcTensor, LocalTensor<uint8_t>(), scalar, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void ClampMin(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                     const LocalTensor<uint8_t> &sharedTmpBuffer, const T scalar, const uint32_t calCount,
                     const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::is_hf<T>(), "ClampMin: dtype not supported on dav-2201 (half, float)");
    (void)sharedTmpBuffer;
    Maxs(dstTensor, srcTensor, scalar, (int32_t)calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void ClampMin(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const T scalar,
                     const uint32_t calCount, const dvac::Loc &loc = dvac::Loc::here())
{
    ClampMin<T, isReuseSource>(dstTensor, srcTensor, LocalTensor<uint8_t>(), scalar, calCount, loc);
}

} // namespace AscendC

namespace dvac {

/* Erf's rational approximation of x already clipped to [-3.92, 3.92] (ErfClip): t2 = x P(x^2), t3 = Q(x^2), with
 * t1..t3 float tensors (impl/adv_api/detail/math/erf/erf_common_impl.h: ErfComputeP, ErfComputeQ). x is
 * overwritten. */
inline void math_erf(const LT<float> &x, const LT<float> &t1, const LT<float> &t2, const LT<float> &t3,
                     const Loc &loc)
{
    static const float P[] = {0.29639384698e5f, 0.50637915060e4f, 0.13938061484e4f, 0.10162808918e3f,
                              0.75517016694e1f, 0.053443748819f};
    static const float Q[] = {0.26267224157e5f, 0.13243365831e5f, 0.30231248150e4f, 0.39856963806e3f,
                              0.31212858877e2f};
    m_mul(t1, x, x, loc);
    m_muls(t2, t1, P[5], loc);
    for (int i = 4; i >= 1; i--) {
        m_adds(t3, t2, P[i], loc);
        m_mul(t2, t1, t3, loc);
    }
    m_adds(t3, t2, P[0], loc);
    m_mul(t2, x, t3, loc);
    m_adds(t3, t1, Q[4], loc);
    for (int i = 3; i >= 0; i--) {
        m_mul(x, t1, t3, loc);
        m_adds(t3, x, Q[i], loc);
    }
}

} // namespace dvac

namespace AscendC {

/* ---- Erf (impl/adv_api/detail/math/erf/erf_common_impl.h) ---- */
template <typename T, bool isReuseSource = false>
inline void Erf(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::is_hf<T>(), "Erf: dtype not supported on dav-2201 (half, float)");
    const char *api = "Erf";
    dvac::math_fits(dstTensor, calCount, "dstTensor", loc, api);
    dvac::math_fits(srcTensor, calCount, "srcTensor", loc, api);
    const uint32_t split = dvac::math_split(sharedTmpBuffer.GetSize(), sizeof(T) == 2 ? 16 : 12, loc, api);
    const LocalTensor<float> t1 = sharedTmpBuffer.ReinterpretCast<float>(), t2 = t1[split], t3 = t2[split];
    dvac::math_chunks(calCount, split, loc, [&](uint32_t off, uint32_t) {
        if constexpr (sizeof(T) == 2) {
            const LocalTensor<float> t4 = t3[split];
            dvac::m_cast(t4, srcTensor[off], RoundMode::CAST_NONE, loc);
            dvac::m_mins(t1, t4, 3.92f, loc);
            dvac::m_maxs(t4, t1, -3.92f, loc);
            dvac::math_erf(t4, t1, t2, t3, loc);
            dvac::m_div(t1, t2, t3, loc);
            dvac::m_cast(dstTensor[off], t1, RoundMode::CAST_ROUND, loc); /* CANN's GetErfCastType on 2201 */
        } else {
            const LocalTensor<float> d = dstTensor[off];
            dvac::m_mins(t1, srcTensor[off], 3.92f, loc); /* the clip reads src and writes dst */
            dvac::m_maxs(d, t1, -3.92f, loc);
            dvac::math_erf(d, t1, t2, t3, loc);
            dvac::m_div(d, t2, t3, loc);
        }
    });
}
template <typename T, bool isReuseSource = false>
inline void Erf(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                const LocalTensor<uint8_t> &sharedTmpBuffer, const dvac::Loc &loc = dvac::Loc::here())
{
    Erf<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Erf(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount,
                const dvac::Loc &loc = dvac::Loc::here())
{
    Erf<T, isReuseSource>(dstTensor, srcTensor, dvac::math_stack(loc), calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Erf(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                const dvac::Loc &loc = dvac::Loc::here())
{
    Erf<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);
}

/* ---- Exp with a Taylor expansion: e^x = e^floor(x) * sum_{i <= level} frac(x)^i / i!
 * (impl/adv_api/detail/math/exp/exp_common_impl.h); level 0 is the basic Exp ---- */
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::is_hf<T>(), "Exp: dtype not supported on dav-2201 (half, float)");
    const char *api = "Exp";
    if constexpr (taylorExpandLevel == 0) {
        Exp<T>(dstLocal, srcLocal, (int32_t)calCount, loc);
    } else {
        dvac::math_fits(dstLocal, calCount, "dstLocal", loc, api);
        dvac::math_fits(srcLocal, calCount, "srcLocal", loc, api);
        constexpr bool isFloat = sizeof(T) == sizeof(float);
        constexpr uint32_t ntmp = !isFloat ? 4 : isReuseSource ? 2 : 3;
        const uint32_t one = sharedTmpBuffer.GetSize() / 4 / ntmp / (32 / sizeof(T)) * (32 / sizeof(T));
        if (one == 0)
            dvac::fail_at(loc, api, "the temporary buffer of %u bytes is too small: at least %u bytes",
                          sharedTmpBuffer.GetSize(), ntmp * 256);
        const LocalTensor<float> stack = sharedTmpBuffer.ReinterpretCast<float>();
        const LocalTensor<float> pw = stack[isFloat && isReuseSource ? 0 : one];
        const LocalTensor<float> res = pw[one], ip = isFloat ? res : res[one];
        dvac::math_chunks(calCount, one, loc, [&](uint32_t off, uint32_t) {
            LocalTensor<float> fx = stack, r = res;
            if constexpr (isFloat) {
                r = dstLocal[off];
                if constexpr (isReuseSource)
                    fx = srcLocal[off];
                else
                    dvac::m_adds(fx, srcLocal[off], 0.0f, loc);
            } else {
                dvac::m_cast(fx, srcLocal[off], RoundMode::CAST_NONE, loc);
            }
            Cast<float, float, false>(ip, fx, RoundMode::CAST_FLOOR, MASK_PLACEHOLDER, 1, UnaryRepeatParams(), loc);
            dvac::m_cast(ip.ReinterpretCast<int32_t>(), fx, RoundMode::CAST_FLOOR, loc);
            dvac::m_cast(ip, ip.ReinterpretCast<int32_t>(), RoundMode::CAST_NONE, loc);
            dvac::m_sub(fx, fx, ip, loc);
            dvac::m_exp(ip, ip, loc);
            dvac::m_adds(pw, fx, 0.0f, loc);
            dvac::m_adds(r, fx, 0.0f, loc);
            dvac::m_adds(r, r, 1.0f, loc);
            for (int i = 2; i <= taylorExpandLevel; i++) {
                dvac::m_mul(pw, fx, pw, loc);
                dvac::m_muls(pw, pw, 1.0f / (float)i, loc);
                dvac::m_add(r, r, pw, loc);
            }
            dvac::m_mul(r, r, ip, loc);
            if constexpr (!isFloat)
                dvac::m_cast(dstLocal[off], r, RoundMode::CAST_NONE, loc);
        });
    }
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const uint32_t calCount,
                const dvac::Loc &loc = dvac::Loc::here())
{
    Exp<T, taylorExpandLevel, isReuseSource>(dstLocal, srcLocal, dvac::math_stack(loc), calCount, loc);
}

/* ---- Fmod: a - trunc(a / b) * b, half through float (impl/adv_api/detail/math/fmod/fmod_common_impl.h) ---- */
template <typename T, bool isReuseSource = false>
inline void Fmod(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor,
                 const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::is_hf<T>(), "Fmod: dtype not supported on dav-2201 (half, float)");
    const auto compute = [&](const LocalTensor<float> &d, const LocalTensor<float> &a, const LocalTensor<float> &b,
                             const LocalTensor<uint8_t> &tmp, uint32_t n) {
        PipeBarrier<PIPE_V>(loc);
        Div(d, a, b, (int32_t)n, loc);
        PipeBarrier<PIPE_V>(loc);
        Trunc(d, d, tmp, n, loc);
        PipeBarrier<PIPE_V>(loc);
        Mul(d, d, b, (int32_t)n, loc);
        PipeBarrier<PIPE_V>(loc);
        Sub(d, a, d, (int32_t)n, loc);
        PipeBarrier<PIPE_V>(loc);
    };
    if constexpr (sizeof(T) == sizeof(float)) {
        compute(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, calCount);
    } else {
        uint32_t split = dvac::math_split(sharedTmpBuffer.GetSize(), 16, loc, "Fmod");
        split = split > src0Tensor.GetSize() ? src0Tensor.GetSize() : split;
        const LocalTensor<float> r = sharedTmpBuffer.ReinterpretCast<float>(), a = r[split], b = a[split];
        const LocalTensor<uint8_t> tt = sharedTmpBuffer[3 * split * 4];
        for (uint32_t off = 0; off < calCount; off += split) {
            const uint32_t n = calCount - off < split ? calCount - off : split;
            PipeBarrier<PIPE_V>(loc);
            Cast<float, half>(a, src0Tensor[off], RoundMode::CAST_NONE, n, loc);
            Cast<float, half>(b, src1Tensor[off], RoundMode::CAST_NONE, n, loc);
            PipeBarrier<PIPE_V>(loc);
            compute(r, a, b, tt, n);
            Cast<half, float>(dstTensor[off], r, RoundMode::CAST_NONE, n, loc);
            PipeBarrier<PIPE_V>(loc);
        }
    }
}
template <typename T, bool isReuseSource = false>
inline void Fmod(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor,
                 const uint32_t calCount, const dvac::Loc &loc = dvac::Loc::here())
{
    const LocalTensor<uint8_t> tmp = sizeof(T) == 2 ? dvac::math_stack(loc) : LocalTensor<uint8_t>();
    Fmod<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, tmp, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Fmod(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor,
                 const LocalTensor<uint8_t> &sharedTmpBuffer, const dvac::Loc &loc = dvac::Loc::here())
{
    Fmod<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Fmod(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    Fmod<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize(), loc);
}

/* ---- Log (Ln), Log2 (Ln / ln 2, half through float), Log10 (Ln / ln 10)
 * (impl/adv_api/detail/math/log/log_common_impl.h) ---- */
template <typename T, bool isReuseSource = false>
inline void Log(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, uint32_t calCount,
                const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::is_hf<T>(), "Log: dtype not supported on dav-2201 (half, float)");
    dvac::math_fits(dstTensor, calCount, "dstTensor", loc, "Log");
    dvac::math_fits(srcTensor, calCount, "srcTensor", loc, "Log");
    SetMaskCount(loc);
    SetVectorMask<T, MaskMode::COUNTER>(0, calCount, loc);
    Ln<T, false>(dstTensor, srcTensor, MASK_PLACEHOLDER, 1, UnaryRepeatParams(), loc);
    SetMaskNorm(loc);
    SetVectorMask<half, MaskMode::NORMAL>(FULL_MASK, FULL_MASK, loc);
}
template <typename T, bool isReuseSource = false>
inline void Log(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                const dvac::Loc &loc = dvac::Loc::here())
{
    Log<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Log10(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, uint32_t calCount,
                  const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::is_hf<T>(), "Log10: dtype not supported on dav-2201 (half, float)");
    dvac::math_fits(dstTensor, calCount, "dstTensor", loc, "Log10");
    dvac::math_fits(srcTensor, calCount, "srcTensor", loc, "Log10");
    SetMaskCount(loc);
    SetVectorMask<T, MaskMode::COUNTER>(0, calCount, loc);
    Ln<T, false>(dstTensor, srcTensor, MASK_PLACEHOLDER, 1, UnaryRepeatParams(), loc);
    PipeBarrier<PIPE_V>(loc);
    Muls<T, false>(dstTensor, dstTensor, (T)0.43429448190325176, MASK_PLACEHOLDER, 1, UnaryRepeatParams(), loc);
    SetMaskNorm(loc);
    SetVectorMask<half, MaskMode::NORMAL>(FULL_MASK, FULL_MASK, loc);
}
template <typename T, bool isReuseSource = false>
inline void Log10(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                  const dvac::Loc &loc = dvac::Loc::here())
{
    Log10<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Log2(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                 const LocalTensor<uint8_t> &sharedTmpBuffer, uint32_t calCount,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::is_hf<T>(), "Log2: dtype not supported on dav-2201 (half, float)");
    const char *api = "Log2";
    dvac::math_fits(dstTensor, calCount, "dstTensor", loc, api);
    dvac::math_fits(srcTensor, calCount, "srcTensor", loc, api);
    const float k = 1.4426950408889634f;
    if constexpr (sizeof(T) == sizeof(float)) {
        SetMaskCount(loc);
        SetVectorMask<T, MaskMode::COUNTER>(0, calCount, loc);
        Ln<float, false>(dstTensor, srcTensor, MASK_PLACEHOLDER, 1, UnaryRepeatParams(), loc);
        PipeBarrier<PIPE_V>(loc);
        Muls<float, false>(dstTensor, dstTensor, k, MASK_PLACEHOLDER, 1, UnaryRepeatParams(), loc);
        SetMaskNorm(loc);
        SetVectorMask<half, MaskMode::NORMAL>(FULL_MASK, FULL_MASK, loc);
    } else {
        const uint32_t split = dvac::math_split(sharedTmpBuffer.GetSize(), 4, loc, api);
        const LocalTensor<float> t = sharedTmpBuffer.ReinterpretCast<float>();
        SetMaskCount(loc);
        uint32_t set = 0;
        for (uint32_t off = 0; off < calCount; off += split) {
            const uint32_t n = calCount - off < split ? calCount - off : split;
            if (n != set)
                SetVectorMask<T, MaskMode::COUNTER>(0, n, loc);
            set = n;
            dvac::m_cast(t, srcTensor[off], RoundMode::CAST_NONE, loc);
            dvac::m_ln(t, t, loc);
            dvac::m_muls(t, t, k, loc);
            dvac::m_cast(dstTensor[off], t, RoundMode::CAST_NONE, loc);
        }
        SetMaskNorm(loc);
        SetVectorMask<half, MaskMode::NORMAL>(FULL_MASK, FULL_MASK, loc);
    }
}
template <typename T, bool isReuseSource = false>
inline void Log2(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                 const LocalTensor<uint8_t> &sharedTmpBuffer, const dvac::Loc &loc = dvac::Loc::here())
{
    Log2<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Log2(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, uint32_t calCount,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    const LocalTensor<uint8_t> tmp = sizeof(T) == 2 ? dvac::math_stack(loc) : LocalTensor<uint8_t>();
    Log2<T, isReuseSource>(dstTensor, srcTensor, tmp, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Log2(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    Log2<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);
}

/* ---- Xor: (a | b) & ~(a & b) (impl/adv_api/detail/math/xor/xor_membase_impl.h) ---- */
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor,
                const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::one_of<T, int16_t, uint16_t>(), "Xor: dtype not supported on dav-2201 (int16_t, uint16_t)");
    const char *api = "Xor";
    dvac::math_fits(dstTensor, calCount, "dstTensor", loc, api);
    dvac::math_fits(src0Tensor, calCount, "src0Tensor", loc, api);
    dvac::math_fits(src1Tensor, calCount, "src1Tensor", loc, api);
    const uint32_t split = dvac::math_split(sharedTmpBuffer.GetSize(), sizeof(T), loc, api);
    const LocalTensor<T> t = sharedTmpBuffer.ReinterpretCast<T>();
    dvac::math_chunks(calCount, split, loc, [&](uint32_t off, uint32_t) {
        const LocalTensor<T> d = dstTensor[off], a = src0Tensor[off], b = src1Tensor[off];
        And<T, false>(d, a, b, MASK_PLACEHOLDER, 1, BinaryRepeatParams(), loc);
        Or<T, false>(t, a, b, MASK_PLACEHOLDER, 1, BinaryRepeatParams(), loc);
        PipeBarrier<PIPE_V>(loc);
        dvac::m_not(d, d, loc);
        dvac::m_and(d, t, d, loc);
    });
}
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor,
                const LocalTensor<uint8_t> &sharedTmpBuffer, const dvac::Loc &loc = dvac::Loc::here())
{
    Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor,
                const uint32_t calCount, const dvac::Loc &loc = dvac::Loc::here())
{
    Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, dvac::math_stack(loc), calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor,
                const dvac::Loc &loc = dvac::Loc::here())
{
    Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize(), loc);
}

/* ---- Power (float): |x|^y = exp(y ln|x|), negated for a negative x and an odd integral y, NaN for a negative x
 * and a y that is not integral, 1 for y = 0 or x = 1 (as CANN's PowerF: impl/adv_api/detail/math/power/
 * power_float_impl.h builds the same cases from masks; dvsim builds them with Compares / And / Not / Select) ---- */
} // namespace AscendC

namespace dvac {

/* The float tensors and masks of one Power chunk: S elements (a multiple of 64), three float tensors, three masks
 * in 32-byte slots, and the materialised scalar operand when there is one. */
struct PowerTmp {
    uint32_t S = 0;
    LT<float> t1, t2, t3, t4;
    LT<uint8_t> m1, m2, m3;
};
inline PowerTmp math_power_tmp(const LT<uint8_t> &tmp, bool scalar, const Loc &loc)
{
    const uint32_t B = tmp.GetSize(), nf = scalar ? 4 : 3;
    uint32_t S = B / (4 * nf + 1) / 64 * 64;
    const auto need = [&](uint32_t s) { return 4 * nf * s + 3 * ((s / 8 + 31) / 32 * 32); };
    while (S && need(S) > B)
        S -= 64;
    if (!S)
        fail_at(loc, "Power", "the temporary buffer of %u bytes is too small: at least %u bytes", B, need(64));
    PowerTmp p;
    p.S = S;
    const LT<float> f = tmp.ReinterpretCast<float>();
    p.t1 = f;
    p.t2 = f[S];
    p.t3 = f[2 * S];
    p.t4 = f[3 * S];
    const uint32_t ms = (S / 8 + 31) / 32 * 32;
    p.m1 = tmp[nf * S * 4];
    p.m2 = p.m1[ms];
    p.m3 = p.m2[ms];
    return p;
}
inline void math_power(const LT<float> &d, const LT<float> &x, const LT<float> &y, const PowerTmp &p, uint32_t n,
                       const Loc &loc)
{
    using namespace AscendC;
    const int32_t c = (int32_t)n, cr = (int32_t)((n + 63) / 64 * 64), cw = cr / 16;
    const LT<uint16_t> w1 = p.m1.ReinterpretCast<uint16_t>(), w2 = p.m2.ReinterpretCast<uint16_t>(),
                       w3 = p.m3.ReinterpretCast<uint16_t>();
    float nan;
    const uint32_t nan_bits = 0x7fc00000u;
    std::memcpy(&nan, &nan_bits, 4);
    const auto bar = [&] { PipeBarrier<PIPE_V>(loc); };
    Abs(p.t1, x, c, loc), bar();
    Ln(p.t1, p.t1, c, loc), bar();
    Mul(p.t1, y, p.t1, c, loc), bar();
    Exp(p.t3, p.t1, c, loc), bar();
    Adds(p.t2, x, 0.0f, c, loc), bar();
    Compares(p.m1, p.t2, 0.0f, CMPMODE::LT, (uint32_t)cr, loc), bar(); /* x < 0 */
    Cast(p.t1, y, RoundMode::CAST_RINT, (uint32_t)c, loc), bar();
    Sub(p.t1, y, p.t1, c, loc), bar();
    Abs(p.t1, p.t1, c, loc), bar();
    Compares(p.m2, p.t1, 0.0f, CMPMODE::GT, (uint32_t)cr, loc), bar(); /* y not integral (NaN, inf: false) */
    Muls(p.t1, y, 0.5f, c, loc), bar();
    Cast(p.t2, p.t1, RoundMode::CAST_FLOOR, (uint32_t)c, loc), bar();
    Sub(p.t1, p.t1, p.t2, c, loc), bar();
    Compares(p.m3, p.t1, 0.25f, CMPMODE::GT, (uint32_t)cr, loc), bar(); /* y odd */
    And(w3, w3, w1, cw, loc), bar();
    Muls(p.t2, p.t3, -1.0f, c, loc), bar();
    Select(p.t3, p.m3, p.t2, p.t3, SELMODE::VSEL_TENSOR_TENSOR_MODE, (uint32_t)c, loc), bar();
    And(w1, w1, w2, cw, loc), bar();
    Not(w1, w1, cw, loc), bar();
    Select(p.t3, p.m1, p.t3, nan, SELMODE::VSEL_TENSOR_SCALAR_MODE, (uint32_t)c, loc), bar();
    Adds(p.t1, y, 0.0f, c, loc), bar();
    Compares(p.m1, p.t1, 0.0f, CMPMODE::NE, (uint32_t)cr, loc), bar();
    Adds(p.t2, x, 0.0f, c, loc), bar();
    Compares(p.m2, p.t2, 1.0f, CMPMODE::NE, (uint32_t)cr, loc), bar();
    And(w1, w1, w2, cw, loc), bar();
    Select(d, p.m1, p.t3, 1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, (uint32_t)c, loc), bar();
}

} // namespace dvac

namespace AscendC {

#define DVAC_POWER_T                                                                                                 \
    static_assert(std::is_same<T, float>::value, "Power: dvsim implements float (half and int32_t are not yet)")

template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor,
                  const LocalTensor<uint8_t> &sharedTmpBuffer, uint32_t calCount,
                  const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_POWER_T;
    dvac::math_fits(dstTensor, calCount, "dstTensor", loc, "Power");
    dvac::math_fits(src0Tensor, calCount, "src0Tensor", loc, "Power");
    dvac::math_fits(src1Tensor, calCount, "src1Tensor", loc, "Power");
    const dvac::PowerTmp p = dvac::math_power_tmp(sharedTmpBuffer, false, loc);
    for (uint32_t off = 0; off < calCount; off += p.S)
        dvac::math_power(dstTensor[off], src0Tensor[off], src1Tensor[off], p, std::min(p.S, calCount - off), loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const T &src1Scalar,
                  const LocalTensor<uint8_t> &sharedTmpBuffer, uint32_t calCount,
                  const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_POWER_T;
    dvac::math_fits(dstTensor, calCount, "dstTensor", loc, "Power");
    dvac::math_fits(src0Tensor, calCount, "src0Tensor", loc, "Power");
    const dvac::PowerTmp p = dvac::math_power_tmp(sharedTmpBuffer, true, loc);
    for (uint32_t off = 0; off < calCount; off += p.S) {
        const uint32_t n = std::min(p.S, calCount - off);
        Duplicate(p.t4, src1Scalar, (int32_t)n, loc);
        PipeBarrier<PIPE_V>(loc);
        dvac::math_power(dstTensor[off], src0Tensor[off], p.t4, p, n, loc);
    }
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dstTensor, const T &src0Scalar, const LocalTensor<T> &src1Tensor,
                  const LocalTensor<uint8_t> &sharedTmpBuffer, uint32_t calCount,
                  const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_POWER_T;
    dvac::math_fits(dstTensor, calCount, "dstTensor", loc, "Power");
    dvac::math_fits(src1Tensor, calCount, "src1Tensor", loc, "Power");
    const dvac::PowerTmp p = dvac::math_power_tmp(sharedTmpBuffer, true, loc);
    for (uint32_t off = 0; off < calCount; off += p.S) {
        const uint32_t n = std::min(p.S, calCount - off);
        Duplicate(p.t4, src0Scalar, (int32_t)n, loc);
        PipeBarrier<PIPE_V>(loc);
        dvac::math_power(dstTensor[off], p.t4, src1Tensor[off], p, n, loc);
    }
}
#undef DVAC_POWER_T
/* The forms without a count (the tensor operand's size) and without a buffer (the stack buffer). */
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor,
                  uint32_t calCount, const dvac::Loc &loc = dvac::Loc::here())
{
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, dvac::math_stack(loc), calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor,
                  const LocalTensor<uint8_t> &sharedTmpBuffer, const dvac::Loc &loc = dvac::Loc::here())
{
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const LocalTensor<T> &src1Tensor,
                  const dvac::Loc &loc = dvac::Loc::here())
{
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, dvac::math_stack(loc), src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const T &src1Scalar,
                  uint32_t calCount, const dvac::Loc &loc = dvac::Loc::here())
{
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Scalar, dvac::math_stack(loc), calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const T &src1Scalar,
                  const LocalTensor<uint8_t> &sharedTmpBuffer, const dvac::Loc &loc = dvac::Loc::here())
{
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Scalar, sharedTmpBuffer, src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dstTensor, const LocalTensor<T> &src0Tensor, const T &src1Scalar,
                  const dvac::Loc &loc = dvac::Loc::here())
{
    Power<T, isReuseSource>(dstTensor, src0Tensor, src1Scalar, dvac::math_stack(loc), src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dstTensor, const T &src0Scalar, const LocalTensor<T> &src1Tensor,
                  uint32_t calCount, const dvac::Loc &loc = dvac::Loc::here())
{
    Power<T, isReuseSource>(dstTensor, src0Scalar, src1Tensor, dvac::math_stack(loc), calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dstTensor, const T &src0Scalar, const LocalTensor<T> &src1Tensor,
                  const LocalTensor<uint8_t> &sharedTmpBuffer, const dvac::Loc &loc = dvac::Loc::here())
{
    Power<T, isReuseSource>(dstTensor, src0Scalar, src1Tensor, sharedTmpBuffer, src1Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T> &dstTensor, const T &src0Scalar, const LocalTensor<T> &src1Tensor,
                  const dvac::Loc &loc = dvac::Loc::here())
{
    Power<T, isReuseSource>(dstTensor, src0Scalar, src1Tensor, dvac::math_stack(loc), src1Tensor.GetSize(), loc);
}

/* ---- CumSum (include/adv_api/math/cumsum_utils.h, impl/adv_api/detail/math/cumsum/cumsum_common_impl.h) ---- */
enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };
struct CumSumConfig {
    bool isLastAxis{true};
    bool isReuseSource{false};
    bool outputLastRow{false};
    CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
struct CumSumInfo {
    uint32_t outter{0};
    uint32_t inner{0}; /* 32-byte aligned */
};
constexpr CumSumConfig defaultCumSumConfig = {true, false, true};

/* Along the first axis (isLastAxis false): row i += row i - 1, line by line (half in float in the temporary
 * buffer); with outputLastRow the last row is copied to lastRowTensor.  The last-axis form transposes with
 * TransDataTo5HD, which dvsim's ISA does not have: it does not compile. */
template <typename T, const CumSumConfig &config = defaultCumSumConfig>
inline void CumSum(LocalTensor<T> &dstTensor, LocalTensor<T> &lastRowTensor, const LocalTensor<T> &srcTensor,
                   LocalTensor<uint8_t> &sharedTmpBuffer, const CumSumInfo &cumSumInfo,
                   const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::is_hf<T>(), "CumSum: dtype not supported on dav-2201 (half, float)");
    static_assert(!config.isLastAxis, "CumSum: the last-axis form (CumSumConfig::isLastAxis) needs TransDataTo5HD, "
                                      "which dvsim does not model");
    const char *api = "CumSum";
    const uint32_t outer = cumSumInfo.outter, inner = cumSumInfo.inner, n = outer * inner;
    if (inner * sizeof(T) % 32 != 0)
        dvac::fail_at(loc, api, "inner %u is not a whole number of 32-byte blocks", inner);
    dvac::math_fits(dstTensor, n, "dstTensor", loc, api);
    dvac::math_fits(srcTensor, n, "srcTensor", loc, api);
    SetMaskCount(loc);
    if constexpr (sizeof(T) == 2) {
        if (sharedTmpBuffer.GetSize() < n * 4)
            dvac::fail_at(loc, api, "the temporary buffer of %u bytes is too small: %u bytes are needed",
                          sharedTmpBuffer.GetSize(), n * 4);
        const LocalTensor<float> t = sharedTmpBuffer.ReinterpretCast<float>();
        SetVectorMask<float, MaskMode::COUNTER>(n, loc);
        dvac::m_cast(t, srcTensor, RoundMode::CAST_NONE, loc);
        SetVectorMask<T>(0, inner, loc);
        for (uint32_t row = 1; row < outer; ++row)
            dvac::m_add(t[row * inner], t[(row - 1) * inner], t[row * inner], loc);
        SetVectorMask<T, MaskMode::COUNTER>(n, loc);
        dvac::m_cast(dstTensor, t, RoundMode::CAST_NONE, loc);
        SetMaskNorm(loc);
        ResetMask(loc);
    } else {
        SetVectorMask<T>(0, inner, loc);
        dvac::m_adds(dstTensor, srcTensor, (T)0, loc);
        for (uint32_t row = 1; row < outer; ++row)
            dvac::m_add(dstTensor[row * inner], dstTensor[(row - 1) * inner], srcTensor[row * inner], loc);
        SetMaskNorm(loc);
        ResetMask(loc);
    }
    if constexpr (config.outputLastRow) {
        dvac::math_fits(lastRowTensor, inner, "lastRowTensor", loc, api);
        SetMaskCount(loc);
        SetVectorMask<T>(0, inner, loc);
        dvac::m_adds(lastRowTensor, dstTensor[(outer - 1) * inner], (T)0, loc);
        SetMaskNorm(loc);
        ResetMask(loc);
    }
}
template <typename T, const CumSumConfig &config = defaultCumSumConfig>
inline void CumSum(LocalTensor<T> &dstTensor, LocalTensor<T> &lastRowTensor, const LocalTensor<T> &srcTensor,
                   const CumSumInfo &cumSumInfo, const dvac::Loc &loc = dvac::Loc::here())
{
    LocalTensor<uint8_t> tmp = dvac::math_stack(loc);
    CumSum<T, config>(dstTensor, lastRowTensor, srcTensor, tmp, cumSumInfo, loc);
}

/* ---- Arange / ArithProgression: the first datablock written by the scalar unit, then Adds of a datablock's
 * and a repeat's step (impl/adv_api/detail/index/arithprogression/arithprogression_common_impl.h) ---- */
template <typename T>
inline void ArithProgression(const LocalTensor<T> &dstLocal, const T firstValue, const T diffValue,
                             const int32_t count, const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::one_of<T, half, float, int16_t, int32_t>(),
                  "ArithProgression: dtype not supported on dav-2201 (half, float, int16_t, int32_t)");
    const char *api = "ArithProgression";
    if (!dvac::vec_stream(loc))
        return;
    if (count < 0)
        dvac::fail_at(loc, api, "count %d is negative", count);
    constexpr int32_t B = 32 / sizeof(T), R = 256 / sizeof(T);
    const int32_t padded = count > B ? (count + B - 1) / B * B : count;
    dvac::math_fits(dstLocal, (uint32_t)padded, "dstLocal", loc, api);
    TPipe *p = GetTPipePtr();
    if (!p)
        dvac::fail_at(loc, api, "needs the kernel's TPipe (its event ids synchronise the scalar unit)");
    const auto base = [&](int32_t n) {
        for (int32_t i = 0; i < n; i++) {
            if constexpr (std::is_integral<T>::value)
                dstLocal.SetValue(i, (T)((int64_t)firstValue + (int64_t)diffValue * i), loc);
            else
                dstLocal.SetValue(i, (T)((float)firstValue + (float)diffValue * (float)i), loc);
        }
    };
    const auto step = [&](int32_t n) -> T {
        if constexpr (std::is_integral<T>::value)
            return (T)((int64_t)diffValue * n);
        else
            return (T)((float)diffValue * (float)n);
    };
    const auto sync = [&](HardEvent e) {
        const int32_t id = p->FetchEventID(e, loc);
        if (e == HardEvent::S_V) {
            SetFlag<HardEvent::S_V>(id, loc);
            WaitFlag<HardEvent::S_V>(id, loc);
        } else {
            SetFlag<HardEvent::V_S>(id, loc);
            WaitFlag<HardEvent::V_S>(id, loc);
        }
    };
    const UnaryRepeatParams s1(1, 1, 1, 1), s8(1, 1, DEFAULT_REPEAT_STRIDE, DEFAULT_REPEAT_STRIDE);
    if (count <= B) {
        sync(HardEvent::V_S);
        base(count);
        sync(HardEvent::S_V);
        return;
    }
    base(B);
    sync(HardEvent::S_V);
    SetVectorMask<T>(0, ((uint64_t)1 << B) - 1, loc);
    PipeBarrier<PIPE_V>(loc);
    if (count > R) {
        for (int32_t i = 0; i < 7; i++) {
            Adds<T, false>(dstLocal[(i + 1) * B], dstLocal[i * B], step(B), MASK_PLACEHOLDER, 1, s1, loc);
            PipeBarrier<PIPE_V>(loc);
        }
        const int32_t repeat = count / R, tail = count % R;
        ResetMask(loc);
        PipeBarrier<PIPE_V>(loc);
        for (int32_t i = 0; i < repeat - 1; i++) {
            Adds<T, false>(dstLocal[(i + 1) * R], dstLocal[i * R], step(R), MASK_PLACEHOLDER, 1, s8, loc);
            PipeBarrier<PIPE_V>(loc);
        }
        if (tail > 0) {
            SetVectorMask<T>((tail + B - 1) / B * B, loc);
            PipeBarrier<PIPE_V>(loc);
            Adds<T, false>(dstLocal[repeat * R], dstLocal[(repeat - 1) * R], step(R), MASK_PLACEHOLDER, 1, s8, loc);
            PipeBarrier<PIPE_V>(loc);
        }
    } else {
        for (int32_t i = 0; i < padded / B - 1; i++) {
            Adds<T, false>(dstLocal[(i + 1) * B], dstLocal[i * B], step(B), MASK_PLACEHOLDER, 1, s1, loc);
            PipeBarrier<PIPE_V>(loc);
        }
    }
}
template <typename T>
inline void Arange(const LocalTensor<T> &dstLocal, const T firstValue, const T diffValue, const int32_t count,
                   const dvac::Loc &loc = dvac::Loc::here())
{
    ArithProgression<T>(dstLocal, firstValue, diffValue, count, loc);
}

} // namespace AscendC

#endif
