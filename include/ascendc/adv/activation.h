/* adv/activation.h - Ascend C high-level API, activation (Gelu, FasterGelu, Sigmoid, Silu, Swish, SwiGLU, GeGLU,
 * SoftMax and its family): kernel side, built on the basic vector API (dvac/vec*.h) as CANN's dav-2201
 * implementation composes it (asc-devkit impl/adv_api/detail/activation/).  docs/ASCENDC.md, "Advanced APIs",
 * "Activation", lists what each emits. */
#ifndef DVSIM_ADV_ACTIVATION_H
#define DVSIM_ADV_ACTIVATION_H

#include <cstring>
#include <limits>
#include <type_traits>

#include "../dvac/core.h"
#include "../dvac/tensor.h"
#include "../dvac/vec.h"
#include "../dvac/sync.h"
#include "../dvac/act_extra.h"
#include "activation_tiling.h"

namespace dvac {
namespace act {

using AscendC::LocalTensor;

template <typename T> constexpr bool half_or_float() { return one_of<T, half, float>(); }

/* CANN's PopStackBuffer: the UB the TPipe has not handed out, below the reserved top 8 KB (TMP_UB_OFFSET). */
template <typename T> inline LocalTensor<T> stack_buffer(const Loc &loc, const char *api)
{
    dv_k_t *c = k(loc);
    AscendC::TPipe *p = g_pipe;
    if (!p)
        fail_at(loc, api, "the form without sharedTmpBuffer takes the UB a TPipe has not handed out: no TPipe");
    const uint64_t from = (p->GetQueueEndAddress<AscendC::TPosition::VECCALC>() + 31) / 32 * 32;
    const uint64_t size = dvk_space_bytes(c, DV_SPACE_UB), top = size > 8192 ? size - 8192 : 0;
    if (from + 32 > top)
        fail_at(loc, api, "no UB left for its temporary buffer (%llu of %llu bytes handed out)",
                (unsigned long long)from, (unsigned long long)top);
    return LocalTensor<T>(DV_ADDR(DV_SPACE_UB, from), (uint32_t)((top - from) / sizeof(T)),
                          AscendC::TPosition::VECCALC);
}

inline void bar(const Loc &loc) { AscendC::PipeBarrier<PIPE_V>(loc); }

/* Counter mode over n elements (SetMaskCount, SetVectorMask<T, COUNTER>(0, n)), and back. */
template <typename T> inline void count_on(uint64_t n, const Loc &loc)
{
    AscendC::SetMaskCount(loc);
    AscendC::SetVectorMask<T, AscendC::MaskMode::COUNTER>(0, n, loc);
}
template <typename T> inline void count_set(uint64_t n, const Loc &loc)
{
    AscendC::SetVectorMask<T, AscendC::MaskMode::COUNTER>(0, n, loc);
}
inline void count_off(const Loc &loc)
{
    AscendC::SetMaskNorm(loc);
    AscendC::ResetMask(loc);
}

/* One instruction of the counter-mode sequences (isSetMask = false, one repeat, default strides) and the
 * pipe barrier CANN puts after each. */
#define DVAC_ACT_BIN(name, Api)                                                                                      \
    template <typename T>                                                                                            \
    inline void name(const LocalTensor<T> &d, const LocalTensor<T> &a, const LocalTensor<T> &b, const Loc &loc)      \
    {                                                                                                                \
        AscendC::Api<T, false>(d, a, b, AscendC::MASK_PLACEHOLDER, 1, AscendC::BinaryRepeatParams(), loc);          \
        bar(loc);                                                                                                    \
    }
#define DVAC_ACT_SCALAR(name, Api)                                                                                   \
    template <typename T>                                                                                            \
    inline void name(const LocalTensor<T> &d, const LocalTensor<T> &a, float s, const Loc &loc)                      \
    {                                                                                                                \
        AscendC::Api<T, false>(d, a, static_cast<T>(s), AscendC::MASK_PLACEHOLDER, 1, AscendC::UnaryRepeatParams(),  \
                               loc);                                                                                 \
        bar(loc);                                                                                                    \
    }
#define DVAC_ACT_UNARY(name, Api)                                                                                    \
    template <typename T> inline void name(const LocalTensor<T> &d, const LocalTensor<T> &a, const Loc &loc)        \
    {                                                                                                                \
        AscendC::Api<T, false>(d, a, AscendC::MASK_PLACEHOLDER, 1, AscendC::UnaryRepeatParams(), loc);              \
        bar(loc);                                                                                                    \
    }
DVAC_ACT_BIN(vadd, Add)
DVAC_ACT_BIN(vsub, Sub)
DVAC_ACT_BIN(vmul, Mul)
DVAC_ACT_BIN(vdiv, Div)
DVAC_ACT_SCALAR(vadds, Adds)
DVAC_ACT_SCALAR(vmuls, Muls)
DVAC_ACT_SCALAR(vmins, Mins)
DVAC_ACT_UNARY(vexp, Exp)
DVAC_ACT_UNARY(vabs, Abs)
DVAC_ACT_UNARY(vrec, Reciprocal)
#undef DVAC_ACT_BIN
#undef DVAC_ACT_SCALAR
#undef DVAC_ACT_UNARY

template <typename T> inline void vdup(const LocalTensor<T> &d, float s, const Loc &loc)
{
    AscendC::Duplicate<T, false>(d, static_cast<T>(s), AscendC::MASK_PLACEHOLDER, 1, 1, 8, loc);
}
/* Counter-mode conversions half <-> float (the narrower side's repeat stride 4, as CANN passes it). */
inline void vcast(const LocalTensor<float> &d, const LocalTensor<half> &s, const Loc &loc)
{
    AscendC::Cast<float, half, false>(d, s, AscendC::RoundMode::CAST_NONE, AscendC::MASK_PLACEHOLDER, 1,
                                      AscendC::UnaryRepeatParams(1, 1, 8, 4), loc);
    bar(loc);
}
inline void vcast(const LocalTensor<half> &d, const LocalTensor<float> &s, const Loc &loc)
{
    AscendC::Cast<half, float, false>(d, s, AscendC::RoundMode::CAST_NONE, AscendC::MASK_PLACEHOLDER, 1,
                                      AscendC::UnaryRepeatParams(1, 1, 4, 8), loc);
    bar(loc);
}

/* calCount against the tensors it covers. */
template <typename T>
inline void count_fits(uint32_t n, const LocalTensor<T> &t, const char *name, const Loc &loc, const char *api)
{
    if (n > t.GetSize())
        fail_at(loc, api, "calCount %u is larger than %s's %u elements", n, name, t.GetSize());
}

/* x / (1 + exp(s * x)) into d (d may be the scratch; x must differ from d): Swish with s = -beta. */
template <typename T> inline void swish_seq(const LocalTensor<T> &d, const LocalTensor<T> &x, float s, const Loc &loc)
{
    vmuls(d, x, s, loc);
    vexp(d, d, loc);
    vadds(d, d, 1.0f, loc);
    vdiv(d, x, d, loc);
}

/* Gelu (tanh form, as CANN's GeluCalcSimplifiedAvoid): y = 1.5957691 (x + 0.044715 x^3);
 * d = x / (1 + exp(-|y|)) * exp(min(y, 0)), which is x / (1 + exp(-y)) without overflow. */
template <typename T, bool highPerformance>
inline void gelu_seq(const LocalTensor<T> &d, const LocalTensor<T> &x, const LocalTensor<T> &a,
                     const LocalTensor<T> &b, const Loc &loc)
{
    vmul(a, x, x, loc);
    vmul(b, x, a, loc);
    vmuls(a, b, 0.044715f, loc);
    vadd(b, x, a, loc);
    vmuls(a, b, 1.5957691216057308f, loc);
    vmins(b, a, 0.0f, loc);
    vexp(b, b, loc);
    vabs(a, a, loc);
    vmuls(a, a, -1.0f, loc);
    vexp(a, a, loc);
    vadds(a, a, 1.0f, loc);
    if constexpr (highPerformance) {
        vrec(a, a, loc);
        vmul(a, x, a, loc);
    } else {
        vdiv(a, x, a, loc);
    }
    vmul(d, a, b, loc);
}

/* FasterGelu: x / (1 + exp(-1.702 x)). */
template <typename T, bool highPerformance>
inline void faster_gelu_seq(const LocalTensor<T> &d, const LocalTensor<T> &x, const LocalTensor<T> &a,
                            const Loc &loc)
{
    vmuls(a, x, -1.702f, loc);
    vexp(a, a, loc);
    vadds(a, a, 1.0f, loc);
    if constexpr (highPerformance) {
        vrec(a, a, loc);
        vmul(d, x, a, loc);
    } else {
        vdiv(d, x, a, loc);
    }
}

/* The chunked walk of Gelu / FasterGelu: the temporary buffer split into nbuf pieces of whole 32-element
 * runs (CANN's GeluFormulasTmpCalc), counter mode per piece. */
template <typename T, uint32_t nbuf, class F>
inline void chunked(const char *api, const LocalTensor<T> &dst, const LocalTensor<T> &src,
                    const LocalTensor<uint8_t> &tmp, uint32_t n, const Loc &loc, F &&seq)
{
    static_assert(half_or_float<T>(), "Gelu / FasterGelu: T must be half or float");
    if (!vec_stream(loc))
        return;
    count_fits(n, src, "srcLocal", loc, api);
    count_fits(n, dst, "dstLocal", loc, api);
    const LocalTensor<T> t = tmp.ReinterpretCast<T>();
    const uint32_t piece = t.GetSize() / nbuf / 32 * 32;
    if (piece == 0)
        fail_at(loc, api, "sharedTmpBuffer of %u bytes is too small (at least %u)", tmp.GetSize(),
                (unsigned)(nbuf * 32 * sizeof(T)));
    LocalTensor<T> bufs[nbuf];
    for (uint32_t i = 0; i < nbuf; i++)
        bufs[i] = t[i * piece];
    count_on<uint8_t>(piece, loc);
    uint32_t off = 0;
    for (; off + piece <= n; off += piece)
        seq(dst[off], src[off], bufs);
    if (off < n) {
        count_set<uint8_t>(n - off, loc);
        seq(dst[off], src[off], bufs);
    }
    count_off(loc);
}

} // namespace act
} // namespace dvac

namespace AscendC {

/* ---- Gelu, FasterGelu (adv_api/activation/gelu.h) ---- */
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void Gelu(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                 const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t dataSize,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(!(highPrecision && std::is_same<T, half>::value),
                  "Gelu: highPrecision for half (computed in float) is not implemented in dvsim");
    dvac::act::chunked<T, 2>("Gelu", dstLocal, srcLocal, sharedTmpBuffer, dataSize, loc,
                             [&](const LocalTensor<T> &d, const LocalTensor<T> &x, const LocalTensor<T> *b) {
                                 dvac::act::gelu_seq<T, highPerformance>(d, x, b[0], b[1], loc);
                             });
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void Gelu(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const uint32_t dataSize,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    Gelu<T, highPrecision, highPerformance>(dstLocal, srcLocal, dvac::act::stack_buffer<uint8_t>(loc, "Gelu"),
                                            dataSize, loc);
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void FasterGelu(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal,
                       const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t dataSize,
                       const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(!(highPrecision && std::is_same<T, half>::value),
                  "FasterGelu: highPrecision for half (computed in float) is not implemented in dvsim");
    dvac::act::chunked<T, 1>("FasterGelu", dstLocal, srcLocal, sharedTmpBuffer, dataSize, loc,
                             [&](const LocalTensor<T> &d, const LocalTensor<T> &x, const LocalTensor<T> *b) {
                                 dvac::act::faster_gelu_seq<T, highPerformance>(d, x, b[0], loc);
                             });
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void FasterGelu(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const uint32_t dataSize,
                       const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    FasterGelu<T, highPrecision, highPerformance>(
        dstLocal, srcLocal, dvac::act::stack_buffer<uint8_t>(loc, "FasterGelu"), dataSize, loc);
}

/* ---- Sigmoid (adv_api/activation/sigmoid.h): 1 / (1 + exp(-x)), the temporary buffer holding ones ---- */
template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                    const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                    const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::act::half_or_float<T>(), "Sigmoid: T must be half or float");
    using namespace dvac::act;
    if (!dvac::vec_stream(loc))
        return;
    count_fits(calCount, srcTensor, "srcTensor", loc, "Sigmoid");
    count_fits(calCount, dstTensor, "dstTensor", loc, "Sigmoid");
    const LocalTensor<T> ones = sharedTmpBuffer.ReinterpretCast<T>();
    const uint32_t split = sharedTmpBuffer.GetSize() / sizeof(T);
    if (split == 0)
        dvac::fail_at(loc, "Sigmoid", "sharedTmpBuffer of %u bytes holds no element", sharedTmpBuffer.GetSize());
    const auto seq = [&](const LocalTensor<T> &d, const LocalTensor<T> &x) {
        bar(loc);
        vmuls(d, x, -1.0f, loc);
        vexp(d, d, loc);
        AscendC::Adds<T, false>(d, d, static_cast<T>(1.0f), MASK_PLACEHOLDER, 1, UnaryRepeatParams(), loc);
        vdup(ones, 1.0f, loc);
        bar(loc);
        vdiv(d, ones, d, loc);
    };
    count_on<T>(split, loc);
    uint32_t off = 0;
    for (; off + split <= calCount; off += split)
        seq(dstTensor[off], srcTensor[off]);
    if (off < calCount) {
        count_set<T>(calCount - off, loc);
        seq(dstTensor[off], srcTensor[off]);
    }
    count_off(loc);
}
template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const uint32_t calCount,
                    const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    Sigmoid<T, isReuseSource>(dstTensor, srcTensor, dvac::act::stack_buffer<uint8_t>(loc, "Sigmoid"), calCount,
                              loc);
}
template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                    const LocalTensor<uint8_t> &sharedTmpBuffer, const dvac::Loc &loc = dvac::Loc::here())
{
    Sigmoid<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Sigmoid(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                    const dvac::Loc &loc = dvac::Loc::here())
{
    Sigmoid<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);
}

/* ---- Silu, Swish (adv_api/activation/silu.h, swish.h): x / (1 + exp(-beta x)) in dst, no temporary ---- */
template <typename T, bool isReuseSource = false>
inline void Swish(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, uint32_t dataSize,
                  const T scalarValue, const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::act::half_or_float<T>(), "Swish: T must be half or float");
    using namespace dvac::act;
    if (!dvac::vec_stream(loc))
        return;
    count_fits(dataSize, srcLocal, "srcLocal", loc, "Swish");
    count_fits(dataSize, dstLocal, "dstLocal", loc, "Swish");
    if (dstLocal.addr() == srcLocal.addr())
        dvac::fail_at(loc, "Swish", "dstLocal and srcLocal must not be the same tensor");
    count_on<T>(dataSize, loc);
    swish_seq(dstLocal, srcLocal, -dvac::to_f64(scalarValue), loc);
    count_off(loc);
}
template <typename T, bool isReuseSource = false>
inline void Silu(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, uint32_t dataSize,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::act::half_or_float<T>(), "Silu: T must be half or float");
    using namespace dvac::act;
    if (!dvac::vec_stream(loc))
        return;
    count_fits(dataSize, srcLocal, "srcLocal", loc, "Silu");
    count_fits(dataSize, dstLocal, "dstLocal", loc, "Silu");
    if (dstLocal.addr() == srcLocal.addr())
        dvac::fail_at(loc, "Silu", "dstLocal and srcLocal must not be the same tensor");
    count_on<T>(dataSize, loc);
    swish_seq(dstLocal, srcLocal, -1.0f, loc);
    count_off(loc);
}

/* ---- SwiGLU (adv_api/activation/swiglu.h): src0 * swish(src1, beta); half through float pieces of a third
 * of the temporary buffer each ---- */
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0, const LocalTensor<T> &srcTensor1,
                   const float &scalarValue, const LocalTensor<uint8_t> &sharedTmpBuffer, const uint32_t calCount,
                   const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::act::half_or_float<T>(), "SwiGLU: T must be half or float");
    using namespace dvac::act;
    if (!dvac::vec_stream(loc))
        return;
    count_fits(calCount, srcTensor0, "srcTensor0", loc, "SwiGLU");
    count_fits(calCount, srcTensor1, "srcTensor1", loc, "SwiGLU");
    count_fits(calCount, dstTensor, "dstTensor", loc, "SwiGLU");
    if (dstTensor.addr() == srcTensor1.addr())
        dvac::fail_at(loc, "SwiGLU", "dstTensor and srcTensor1 must not be the same tensor");
    const LocalTensor<float> tmp = sharedTmpBuffer.ReinterpretCast<float>();
    uint32_t piece = calCount;
    if constexpr (std::is_same<T, half>::value)
        piece = tmp.GetSize() / 3;
    piece = piece * sizeof(T) / 32 * 32 / sizeof(T);
    if (piece == 0)
        piece = 32 / sizeof(T);
    if (std::is_same<T, half>::value && tmp.GetSize() < 3 * piece)
        dvac::fail_at(loc, "SwiGLU", "sharedTmpBuffer of %u bytes is too small for half (at least %u)",
                      sharedTmpBuffer.GetSize(), (unsigned)(3 * piece * sizeof(float)));
    const auto seq = [&](const LocalTensor<T> &d, const LocalTensor<T> &a, const LocalTensor<T> &b, uint32_t len) {
        if constexpr (std::is_same<T, half>::value) {
            const LocalTensor<float> f1 = tmp, f2 = tmp[len], f0 = tmp[2 * len];
            vcast(f1, b, loc);
            swish_seq(f2, f1, -scalarValue, loc);
            vcast(f0, a, loc);
            vmul(f2, f0, f2, loc);
            vcast(d, f2, loc);
        } else {
            swish_seq(d, b, -scalarValue, loc);
            vmul(d, a, d, loc);
        }
    };
    count_on<T>(piece, loc);
    uint32_t off = 0;
    for (; off + piece <= calCount; off += piece)
        seq(dstTensor[off], srcTensor0[off], srcTensor1[off], piece);
    if (off < calCount) {
        count_set<T>(calCount - off, loc);
        seq(dstTensor[off], srcTensor0[off], srcTensor1[off], (calCount - off + 15) / 16 * 16);
    }
    count_off(loc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0, const LocalTensor<T> &srcTensor1,
                   const float &scalarValue, const LocalTensor<uint8_t> &sharedTmpBuffer,
                   const dvac::Loc &loc = dvac::Loc::here())
{
    SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, sharedTmpBuffer, srcTensor0.GetSize(),
                             loc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0, const LocalTensor<T> &srcTensor1,
                   const float &scalarValue, const uint32_t calCount, const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue,
                             dvac::act::stack_buffer<uint8_t>(loc, "SwiGLU"), calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0, const LocalTensor<T> &srcTensor1,
                   const float &scalarValue, const dvac::Loc &loc = dvac::Loc::here())
{
    SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, srcTensor0.GetSize(), loc);
}

/* ---- GeGLU (adv_api/activation/geglu.h): src0 * gelu(src1) with CANN's form
 * src1 / (1 + exp(-0.0713548162726 src1 (22.363860002236 + src1^2))); half through float pieces ---- */
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0, const LocalTensor<T> &srcTensor1,
                  const LocalTensor<uint8_t> &sharedTmpBuffer, uint32_t calCount,
                  const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::act::half_or_float<T>(), "GeGLU: T must be half or float");
    using namespace dvac::act;
    if (!dvac::vec_stream(loc))
        return;
    if (srcTensor0.GetSize() != srcTensor1.GetSize())
        dvac::fail_at(loc, "GeGLU", "srcTensor0 has %u elements and srcTensor1 %u", srcTensor0.GetSize(),
                      srcTensor1.GetSize());
    count_fits(calCount, srcTensor0, "srcTensor0", loc, "GeGLU");
    count_fits(calCount, dstTensor, "dstTensor", loc, "GeGLU");
    if (dstTensor.addr() == srcTensor1.addr() || dstTensor.addr() == srcTensor0.addr())
        dvac::fail_at(loc, "GeGLU", "dstTensor must not be a source tensor");
    const float c0 = -0.0713548162726f, c1 = 2.2363860002236e1f;
    SetMaskCount(loc);
    if constexpr (std::is_same<T, half>::value) {
        const LocalTensor<float> tmp = sharedTmpBuffer.ReinterpretCast<float>();
        const uint32_t piece = sharedTmpBuffer.GetSize() / 8 * sizeof(T) / 32 * 32 / sizeof(T);
        if (piece == 0)
            dvac::fail_at(loc, "GeGLU", "sharedTmpBuffer of %u bytes is too small for half (at least 128)",
                          sharedTmpBuffer.GetSize());
        for (uint32_t off = 0; off < calCount; off += piece) {
            const uint32_t n = calCount - off < piece ? calCount - off : piece;
            count_set<T>(n, loc);
            const uint32_t len = (n + 15) / 16 * 16;
            const LocalTensor<float> f1 = tmp, f2 = tmp[len];
            vcast(f1, srcTensor1[off], loc);
            vmul(f2, f1, f1, loc);
            vadds(f2, f2, c1, loc);
            vmul(f2, f2, f1, loc);
            vmuls(f2, f2, c0, loc);
            vexp(f2, f2, loc);
            vadds(f2, f2, 1.0f, loc);
            vdiv(f2, f1, f2, loc);
            vcast(f1, srcTensor0[off], loc);
            vmul(f2, f1, f2, loc);
            vcast(dstTensor[off], f2, loc);
        }
    } else {
        count_set<T>(calCount, loc);
        const LocalTensor<T> &d = dstTensor, &a = srcTensor0, &b = srcTensor1;
        vmul(d, b, b, loc);
        vadds(d, d, c1, loc);
        vmul(d, d, b, loc);
        vmuls(d, d, c0, loc);
        vexp(d, d, loc);
        vadds(d, d, 1.0f, loc);
        vdiv(d, b, d, loc);
        vmul(d, a, d, loc);
    }
    count_off(loc);
}
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0, const LocalTensor<T> &srcTensor1,
                  uint32_t calCount, const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, dvac::act::stack_buffer<uint8_t>(loc, "GeGLU"),
                            calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0, const LocalTensor<T> &srcTensor1,
                  const LocalTensor<uint8_t> &sharedTmpBuffer, const dvac::Loc &loc = dvac::Loc::here())
{
    GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, sharedTmpBuffer, srcTensor0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor0, const LocalTensor<T> &srcTensor1,
                  const dvac::Loc &loc = dvac::Loc::here())
{
    GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, srcTensor0.GetSize(), loc);
}

} // namespace AscendC

namespace dvac {
namespace act {

/* ---- the SoftMax family (float, ND): rows of K elements, contiguous; per row a 64-wide partial (P) and an
 * 8-wide block (R) of the temporary buffer, as CANN's dav-2201 sizes it (elementNumPerBlk + 64 floats a row) ---- */

enum class Red { MAX, SUM };

/* The scratch of a chunk of at most `rows` rows: P (rows x 64) then R (rows x 8). */
struct RowTmp {
    LocalTensor<float> p, r;
    uint32_t rows;
};
inline RowTmp row_tmp(const LocalTensor<float> &t, uint32_t extraPerRow, uint32_t m, const Loc &loc, const char *api)
{
    const uint32_t per = 72 + extraPerRow;
    uint32_t rows = t.GetSize() / per;
    if (rows == 0)
        fail_at(loc, api, "sharedTmpBuffer of %u bytes is too small (at least %u for one row)",
                (unsigned)(t.GetSize() * 4), per * 4);
    if (rows > m)
        rows = m;
    if (rows < m && rows > 8)
        rows = rows / 8 * 8;
    return RowTmp{t, t[rows * 64], rows};
}

/* a op b for the rows x K block at a (rows K apart), with b one 8-wide block a row (rows x 8): level-0 calls
 * of one 64-wide column block each, the row as the repeat (b's block stride 0, repeat stride one block). */
template <class Op>
inline void rows_bcast(Op op, const LocalTensor<float> &d, const LocalTensor<float> &a, const LocalTensor<float> &b8,
                       uint32_t m, uint32_t K)
{
    const uint32_t rs = K / 8;
    for (uint32_t j = 0; j < K; j += 64) {
        const uint64_t mask = K - j < 64 ? K - j : 64;
        if (rs <= 255) {
            for (uint32_t r0 = 0; r0 < m; r0 += 255) {
                const uint32_t n = m - r0 < 255 ? m - r0 : 255;
                op(d[r0 * K + j], a[r0 * K + j], b8[r0 * 8], mask, (uint8_t)n,
                   AscendC::BinaryRepeatParams(1, 1, 0, (uint8_t)rs, (uint8_t)rs, 1));
            }
        } else {
            for (uint32_t r = 0; r < m; r++)
                op(d[r * K + j], a[r * K + j], b8[r * 8], mask, 1, AscendC::BinaryRepeatParams(1, 1, 0, 8, 8, 1));
        }
    }
}

/* The max or sum of each of m rows of x (K elements each, K a multiple of 8) broadcast to 8 lanes: rows x 8 at
 * t.p.  The rows are folded into t.p 64 wide (vcopy, then vmax / vadd per further 64-wide column block), each row's
 * 64 into 8 (vcgmax / vcgadd), those 8 into one (again, 8 rows a repeat, in place), and broadcast back to a
 * datablock a row (vbrcb). */
inline void row_reduce(Red op, const RowTmp &t, const LocalTensor<float> &x, uint32_t m, uint32_t K, const Loc &loc)
{
    using namespace AscendC;
    const uint32_t rs = K / 8;
    const uint32_t rows_per = rs <= 255 ? 255 : 1;
    const float init = op == Red::MAX ? -std::numeric_limits<float>::infinity() : 0.0f;
    if (K < 64) {
        Duplicate<float>(t.p, init, (int32_t)(m * 64), loc);
        bar(loc);
    }
    for (uint32_t j = 0; j < K; j += 64) {
        const uint64_t mask = K - j < 64 ? K - j : 64;
        for (uint32_t r0 = 0; r0 < m; r0 += rows_per) {
            const uint32_t n = m - r0 < rows_per ? m - r0 : rows_per;
            const LocalTensor<float> pp = t.p[r0 * 64], xx = x[r0 * K + j];
            if (j == 0)
                Copy<float>(pp, xx, mask, (uint8_t)n, CopyRepeatParams(1, 1, 8, (uint16_t)(n > 1 ? rs : 8)), loc);
            else if (op == Red::MAX)
                Max<float>(pp, pp, xx, mask, (uint8_t)n, BinaryRepeatParams(1, 1, 1, 8, 8, (uint8_t)(n > 1 ? rs : 8)),
                           loc);
            else
                Add<float>(pp, pp, xx, mask, (uint8_t)n, BinaryRepeatParams(1, 1, 1, 8, 8, (uint8_t)(n > 1 ? rs : 8)),
                           loc);
        }
        bar(loc);
    }
    const auto block = [&](const LocalTensor<float> &d, const LocalTensor<float> &s, uint32_t rep, int32_t mask) {
        if (op == Red::MAX)
            BlockReduceMax<float>(d, s, (int32_t)rep, mask, 1, 1, 8, loc);
        else
            BlockReduceSum<float>(d, s, (int32_t)rep, mask, 1, 1, 8, loc);
    };
    for (uint32_t r0 = 0; r0 < m; r0 += 255)
        block(t.r[r0 * 8], t.p[r0 * 64], m - r0 < 255 ? m - r0 : 255, 64);
    bar(loc);
    const uint32_t full = m / 8, rest = m % 8;
    for (uint32_t g0 = 0; g0 < full; g0 += 255)
        block(t.r[g0 * 8], t.r[g0 * 64], full - g0 < 255 ? full - g0 : 255, 64);
    if (rest)
        block(t.r[full * 8], t.r[full * 64], 1, (int32_t)(rest * 8));
    bar(loc);
    const uint32_t groups = (m + 7) / 8;
    for (uint32_t g0 = 0; g0 < groups; g0 += 255)
        Brcb<float>(t.p[g0 * 64], t.r[g0 * 8], (uint8_t)(groups - g0 < 255 ? groups - g0 : 255),
                    BrcbRepeatParams(1, 8), loc);
    bar(loc);
}

inline void bsub(const LocalTensor<float> &d, const LocalTensor<float> &a, const LocalTensor<float> &b, uint32_t m,
                 uint32_t K, const Loc &loc)
{
    rows_bcast([&](auto &&...x) { AscendC::Sub<float>(x..., loc); }, d, a, b, m, K);
    bar(loc);
}
inline void bdiv(const LocalTensor<float> &d, const LocalTensor<float> &a, const LocalTensor<float> &b, uint32_t m,
                 uint32_t K, const Loc &loc)
{
    rows_bcast([&](auto &&...x) { AscendC::Div<float>(x..., loc); }, d, a, b, m, K);
    bar(loc);
}
inline void copy_ub(const LocalTensor<float> &d, const LocalTensor<float> &s, uint32_t n, const Loc &loc)
{
    AscendC::DataCopy(d, s, n, loc);
    bar(loc);
}

/* The shape checks of the family: float only, ND only, K a multiple of 8 and the tensors large enough. */
inline void softmax_shape(const AscendC::SoftMaxShapeInfo &s, const LocalTensor<float> &src, const Loc &loc,
                          const char *api)
{
    if (s.srcK == 0 || s.srcM == 0)
        fail_at(loc, api, "SoftMaxShapeInfo srcM %u / srcK %u: both must be given and positive", s.srcM, s.srcK);
    if (s.srcK % 8)
        fail_at(loc, api, "srcK %u is not a multiple of 8 (32 bytes of float)", s.srcK);
    if (s.oriSrcK && s.oriSrcK != s.srcK)
        fail_at(loc, api, "oriSrcK %u differs from srcK %u: padded rows are not implemented in dvsim", s.oriSrcK,
                s.srcK);
    if ((uint64_t)s.srcM * s.srcK > src.GetSize())
        fail_at(loc, api, "srcM x srcK = %u x %u is more than the %u elements of the tensor", s.srcM, s.srcK,
                src.GetSize());
}
template <typename T>
inline void out8_fits(const LocalTensor<T> &t, const char *name, uint32_t m, const Loc &loc, const char *api)
{
    if ((uint64_t)m * 8 > t.GetSize())
        fail_at(loc, api, "%s has %u elements: it needs 8 a row (%u rows)", name, t.GetSize(), m);
}

/* SoftMax (log10 of it with `log`) of rows of K into dst, each row's sum and max (8 lanes a row). */
inline void softmax_rows(const LocalTensor<float> &dst, const LocalTensor<float> &sum, const LocalTensor<float> &max,
                         const LocalTensor<float> &src, const LocalTensor<uint8_t> &tmp,
                         const AscendC::SoftMaxShapeInfo &s, bool log, bool outputs, const Loc &loc, const char *api)
{
    softmax_shape(s, src, loc, api);
    if (outputs) {
        out8_fits(sum, "sumTensor", s.srcM, loc, api);
        out8_fits(max, "maxTensor", s.srcM, loc, api);
    }
    const RowTmp t0 = row_tmp(tmp.ReinterpretCast<float>(), 0, s.srcM, loc, api);
    const uint32_t K = s.srcK;
    for (uint32_t r = 0; r < s.srcM; r += t0.rows) {
        const uint32_t m = s.srcM - r < t0.rows ? s.srcM - r : t0.rows;
        const LocalTensor<float> d = dst[r * K], x = src[r * K];
        row_reduce(Red::MAX, t0, x, m, K, loc);
        if (outputs)
            copy_ub(max[r * 8], t0.p, m * 8, loc);
        bsub(d, x, t0.p, m, K, loc);
        AscendC::Exp<float>(d, d, (int32_t)(m * K), loc);
        bar(loc);
        row_reduce(Red::SUM, t0, d, m, K, loc);
        if (outputs)
            copy_ub(sum[r * 8], t0.p, m * 8, loc);
        bdiv(d, d, t0.p, m, K, loc);
        if (log) {
            AscendC::Ln<float>(d, d, (int32_t)(m * K), loc);
            bar(loc);
            AscendC::Muls<float>(d, d, 0.4342944819f, (int32_t)(m * K), loc);
            bar(loc);
        }
    }
}

} // namespace act
} // namespace dvac

namespace AscendC {

/* ---- SoftMax (adv_api/activation/softmax.h): float, ND ---- */
#define DVAC_SOFTMAX_FLOAT_ONLY(Api)                                                                                 \
    static_assert(std::is_same<T, float>::value, Api ": dvsim implements float (half is not implemented)");          \
    static_assert(!isDataFormatNZ, Api ": the NZ format is not implemented in dvsim")

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &sumTensor, const LocalTensor<T> &maxTensor,
                    const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                    const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {},
                    const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_SOFTMAX_FLOAT_ONLY("SoftMax");
    (void)tiling;
    if (dvac::vec_stream(loc))
        dvac::act::softmax_rows(dstTensor, sumTensor, maxTensor, srcTensor, sharedTmpBuffer, softmaxShapeInfo, false,
                                true, loc, "SoftMax");
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &sumTensor, const LocalTensor<T> &maxTensor,
                    const LocalTensor<T> &srcTensor, const SoftMaxTiling &tiling,
                    const SoftMaxShapeInfo &softmaxShapeInfo = {}, const dvac::Loc &loc = dvac::Loc::here())
{
    if (dvac::vec_stream(loc))
        SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
            dstTensor, sumTensor, maxTensor, srcTensor, dvac::act::stack_buffer<uint8_t>(loc, "SoftMax"), tiling,
            softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                    const LocalTensor<uint8_t> &sharedTmpBuffer, const SoftMaxTiling &tiling,
                    const SoftMaxShapeInfo &softmaxShapeInfo = {}, const dvac::Loc &loc = dvac::Loc::here())
{
    constexpr bool isDataFormatNZ = false;
    DVAC_SOFTMAX_FLOAT_ONLY("SoftMax");
    (void)tiling;
    if (dvac::vec_stream(loc))
        dvac::act::softmax_rows(dstTensor, dstTensor, dstTensor, srcTensor, sharedTmpBuffer, softmaxShapeInfo, false,
                                false, loc, "SoftMax");
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, const SoftMaxTiling &tiling,
                    const SoftMaxShapeInfo &softmaxShapeInfo = {}, const dvac::Loc &loc = dvac::Loc::here())
{
    if (dvac::vec_stream(loc))
        SoftMax<T, isReuseSource, isBasicBlock, config>(dstTensor, srcTensor,
                                                        dvac::act::stack_buffer<uint8_t>(loc, "SoftMax"), tiling,
                                                        softmaxShapeInfo, loc);
}

/* AdjustSoftMaxRes: each row whose max (its first lane) has the bits `from` is set to `to`; true when one was. The
 * scalar unit reads the maxima after a V -> S flag, as CANN's AdjustSoftMaxResNDImpl. */
template <typename T1, typename T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
inline bool AdjustSoftMaxRes(const LocalTensor<T1> &softMaxRes, const LocalTensor<T2> &maxTensor, const uint32_t from,
                             const T1 to, const SoftMaxShapeInfo &softmaxShapeInfo,
                             const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(std::is_same<T1, float>::value && std::is_same<T2, float>::value,
                  "AdjustSoftMaxRes: dvsim implements float results and maxima");
    static_assert(!isDataFormatNZ, "AdjustSoftMaxRes: the NZ format is not implemented in dvsim");
    if (!dvac::vec_stream(loc))
        return false;
    const uint32_t M = softmaxShapeInfo.srcM, K = softmaxShapeInfo.srcK, step = stepSizeMode ? 1 : 8;
    if ((uint64_t)M * K > softMaxRes.GetSize() || (uint64_t)(M ? M - 1 : 0) * step >= maxTensor.GetSize())
        dvac::fail_at(loc, "AdjustSoftMaxRes", "srcM x srcK = %u x %u does not fit the tensors", M, K);
    SetMaskNorm(loc);
    ResetMask(loc);
    const int32_t ev = GetTPipePtr() ? GetTPipePtr()->FetchEventID(HardEvent::V_S, loc) : 0;
    SetFlag<HardEvent::V_S>(ev, loc);
    WaitFlag<HardEvent::V_S>(ev, loc);
    bool hit = false;
    dvac::act::count_on<float>(K, loc);
    for (uint32_t j = 0; j < M; j++) {
        const float v = maxTensor.GetValue(j * step, loc);
        uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        if (bits == from) {
            Duplicate<T1, false>(softMaxRes[j * K], to, MASK_PLACEHOLDER, 1, 1, 8, loc);
            hit = true;
        }
    }
    dvac::act::count_off(loc);
    return hit;
}

/* ---- LogSoftMax (adv_api/activation/logsoftmax.h): log10 of SoftMax (Ln, then Muls by log10(e)) ---- */
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void LogSoftMax(const LocalTensor<T> &dst, const LocalTensor<T> &sum, const LocalTensor<T> &max,
                       const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,
                       const LogSoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {},
                       const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_SOFTMAX_FLOAT_ONLY("LogSoftMax");
    (void)tiling;
    if (dvac::vec_stream(loc))
        dvac::act::softmax_rows(dst, sum, max, src, sharedTmpBuffer, softmaxShapeInfo, true, true, loc, "LogSoftMax");
}

/* ---- SoftmaxFlashV2 (adv_api/activation/softmaxflashv2.h): dst = exp(x - max'), with max' = rowmax(x) and
 * expSum = rowsum(dst); with isUpdate max' = max(inMax, rowmax(x)), expMax = exp(inMax - max') and
 * expSum = expMax * inExpSum + rowsum(dst) ---- */
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV2(const LocalTensor<T> &dstTensor, const LocalTensor<T> &expSumTensor,
                           const LocalTensor<T> &maxTensor, const LocalTensor<T> &srcTensor,
                           const LocalTensor<T> &expMaxTensor, const LocalTensor<T> &inExpSumTensor,
                           const LocalTensor<T> &inMaxTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                           const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {},
                           const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_SOFTMAX_FLOAT_ONLY("SoftmaxFlashV2");
    static_assert(config.mode == SoftmaxMode::SOFTMAX_NORMAL,
                  "SoftmaxFlashV2: SOFTMAX_OUTPUT_WITHOUT_BRC is not implemented in dvsim");
    (void)tiling;
    using namespace dvac::act;
    if (!dvac::vec_stream(loc))
        return;
    const char *api = "SoftmaxFlashV2";
    const SoftMaxShapeInfo &s = softmaxShapeInfo;
    softmax_shape(s, srcTensor, loc, api);
    out8_fits(expSumTensor, "expSumTensor", s.srcM, loc, api);
    out8_fits(maxTensor, "maxTensor", s.srcM, loc, api);
    if (isUpdate) {
        out8_fits(expMaxTensor, "expMaxTensor", s.srcM, loc, api);
        out8_fits(inExpSumTensor, "inExpSumTensor", s.srcM, loc, api);
        out8_fits(inMaxTensor, "inMaxTensor", s.srcM, loc, api);
    }
    const RowTmp t0 = row_tmp(sharedTmpBuffer.ReinterpretCast<float>(), 0, s.srcM, loc, api);
    const uint32_t K = s.srcK;
    for (uint32_t r = 0; r < s.srcM; r += t0.rows) {
        const uint32_t m = s.srcM - r < t0.rows ? s.srcM - r : t0.rows, n8 = m * 8;
        const LocalTensor<float> d = dstTensor[r * K], x = srcTensor[r * K];
        row_reduce(Red::MAX, t0, x, m, K, loc);
        if constexpr (isUpdate) {
            Max<float>(t0.p, t0.p, inMaxTensor[r * 8], (int32_t)n8, loc);
            bar(loc);
            Sub<float>(expMaxTensor[r * 8], inMaxTensor[r * 8], t0.p, (int32_t)n8, loc);
            bar(loc);
            Exp<float>(expMaxTensor[r * 8], expMaxTensor[r * 8], (int32_t)n8, loc);
            bar(loc);
        }
        copy_ub(maxTensor[r * 8], t0.p, n8, loc);
        bsub(d, x, t0.p, m, K, loc);
        Exp<float>(d, d, (int32_t)(m * K), loc);
        bar(loc);
        row_reduce(Red::SUM, t0, d, m, K, loc);
        if constexpr (isUpdate) {
            Mul<float>(t0.r, expMaxTensor[r * 8], inExpSumTensor[r * 8], (int32_t)n8, loc);
            bar(loc);
            Add<float>(expSumTensor[r * 8], t0.r, t0.p, (int32_t)n8, loc);
            bar(loc);
        } else {
            copy_ub(expSumTensor[r * 8], t0.p, n8, loc);
        }
    }
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV2(const LocalTensor<T> &dstTensor, const LocalTensor<T> &expSumTensor,
                           const LocalTensor<T> &maxTensor, const LocalTensor<T> &srcTensor,
                           const LocalTensor<T> &expMaxTensor, const LocalTensor<T> &inExpSumTensor,
                           const LocalTensor<T> &inMaxTensor, const SoftMaxTiling &tiling,
                           const SoftMaxShapeInfo &softmaxShapeInfo = {}, const dvac::Loc &loc = dvac::Loc::here())
{
    if (dvac::vec_stream(loc))
        SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
            dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
            dvac::act::stack_buffer<uint8_t>(loc, "SoftmaxFlashV2"), tiling, softmaxShapeInfo, loc);
}

/* ---- SoftmaxGrad, SoftmaxGradFront (adv_api/activation/softmaxgrad.h): with s = rowsum(grad * src),
 * dst = (grad - s) * src, or (front) dst = s in 8 lanes a row ---- */
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                        const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                        const SoftMaxTiling &tiling, bool isFront = false,
                        const SoftMaxShapeInfo &softmaxShapeInfo = {}, const dvac::Loc &loc = dvac::Loc::here())
{
    DVAC_SOFTMAX_FLOAT_ONLY("SoftmaxGrad");
    (void)tiling;
    using namespace dvac::act;
    if (!dvac::vec_stream(loc))
        return;
    const char *api = isFront ? "SoftmaxGradFront" : "SoftmaxGrad";
    const SoftMaxShapeInfo &s = softmaxShapeInfo;
    softmax_shape(s, srcTensor, loc, api);
    softmax_shape(s, gradTensor, loc, api);
    const uint32_t K = s.srcK;
    if (isFront)
        out8_fits(dstTensor, "dstTensor", s.srcM, loc, api);
    else
        softmax_shape(s, dstTensor, loc, api);
    /* per row: the product (K) besides P and R */
    const LocalTensor<float> all = sharedTmpBuffer.ReinterpretCast<float>();
    const RowTmp t1 = row_tmp(all, K, s.srcM, loc, api);
    const RowTmp t0{all, all[t1.rows * 64], t1.rows};
    const LocalTensor<float> prod = all[t1.rows * 72];
    for (uint32_t r = 0; r < s.srcM; r += t0.rows) {
        const uint32_t m = s.srcM - r < t0.rows ? s.srcM - r : t0.rows;
        const LocalTensor<float> g = gradTensor[r * K], x = srcTensor[r * K];
        Mul<float>(prod, g, x, (int32_t)(m * K), loc);
        bar(loc);
        row_reduce(Red::SUM, t0, prod, m, K, loc);
        if (isFront) {
            copy_ub(dstTensor[r * 8], t0.p, m * 8, loc);
            continue;
        }
        bsub(prod, g, t0.p, m, K, loc);
        Mul<float>(dstTensor[r * K], prod, x, (int32_t)(m * K), loc);
        bar(loc);
    }
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                        const LocalTensor<T> &srcTensor, const SoftMaxTiling &tiling, bool isFront = false,
                        const SoftMaxShapeInfo &softmaxShapeInfo = {}, const dvac::Loc &loc = dvac::Loc::here())
{
    if (dvac::vec_stream(loc))
        SoftmaxGrad<T, isReuseSource, isDataFormatNZ>(dstTensor, gradTensor, srcTensor,
                                                      dvac::act::stack_buffer<uint8_t>(loc, "SoftmaxGrad"), tiling,
                                                      isFront, softmaxShapeInfo, loc);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                             const LocalTensor<T> &srcTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                             const SoftMaxTiling &tiling, const SoftMaxShapeInfo &softmaxShapeInfo = {},
                             const dvac::Loc &loc = dvac::Loc::here())
{
    SoftmaxGrad<T, false, isDataFormatNZ>(dstTensor, gradTensor, srcTensor, sharedTmpBuffer, tiling, true,
                                          softmaxShapeInfo, loc);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T> &dstTensor, const LocalTensor<T> &gradTensor,
                             const LocalTensor<T> &srcTensor, const SoftMaxTiling &tiling,
                             const SoftMaxShapeInfo &softmaxShapeInfo = {}, const dvac::Loc &loc = dvac::Loc::here())
{
    SoftmaxGrad<T, false, isDataFormatNZ>(dstTensor, gradTensor, srcTensor, tiling, true, softmaxShapeInfo, loc);
}

/* ---- SoftmaxFlashV3 (adv_api/activation/softmaxflashv3.h; half data, float statistics, as CANN's dav-2201
 * implementation, softmax/membase/v220/softmax_flashv3_impl.h): each row is shifted per eighth of its columns by
 * (mean - eighth's mean) * alpha / (1 - alpha) (the means as CANN forms them: 8-element group sums of the first 512
 * columns with every further 64-wide block added, then 8 of those per eighth, over baseK = K / 8); mean, max and sum
 * are updated as in FlashV2 with the shifts (isUpdate: mean = (inMean (loopCnt - 1) + mean) / loopCnt) ---- */
template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV3(const LocalTensor<T> &dstTensor, const LocalTensor<U> &meanTensor,
                           const LocalTensor<U> &expSumTensor, const LocalTensor<U> &maxTensor,
                           const LocalTensor<T> &srcTensor, const LocalTensor<T> &expMaxTensor,
                           const LocalTensor<U> &inMeanTensor, const LocalTensor<U> &inExpSumTensor,
                           const LocalTensor<U> &inMaxTensor, const LocalTensor<uint8_t> &sharedTmpBuffer,
                           const SoftMaxTiling &tiling, const SoftMaxParams &params,
                           const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(std::is_same<T, half>::value && std::is_same<U, float>::value,
                  "SoftmaxFlashV3: dav-2201 has half data with float statistics only");
    static_assert(!isDataFormatNZ, "SoftmaxFlashV3: the NZ format is not implemented in dvsim");
    (void)tiling;
    using namespace dvac::act;
    if (!dvac::vec_stream(loc))
        return;
    const char *api = "SoftmaxFlashV3";
    const uint32_t M = params.srcM, K = params.srcK;
    if (M == 0 || K < 512 || K % 64 || K / 64 - 8 > 255)
        dvac::fail_at(loc, api, "srcK %u: CANN's mean needs a multiple of 64 from 512 to 16832 (srcM %u)", K, M);
    if (params.oriSrcK && params.oriSrcK != K)
        dvac::fail_at(loc, api, "oriSrcK %u differs from srcK %u: padded rows are not implemented in dvsim",
                      params.oriSrcK, K);
    if (params.splitMeanCnt != 8 || params.loopCnt == 0 || params.alpha >= 1.0f)
        dvac::fail_at(loc, api, "splitMeanCnt %u, loopCnt %u, alpha %g: CANN's implementation takes 8, >= 1, < 1",
                      params.splitMeanCnt, params.loopCnt, (double)params.alpha);
    if ((uint64_t)M * K > srcTensor.GetSize() || (uint64_t)M * K > dstTensor.GetSize())
        dvac::fail_at(loc, api, "srcM x srcK = %u x %u is more than the tensors hold", M, K);
    out8_fits(meanTensor, "meanTensor", M, loc, api);
    out8_fits(expSumTensor, "expSumTensor", M, loc, api);
    out8_fits(maxTensor, "maxTensor", M, loc, api);
    if (isUpdate) {
        out8_fits(inMeanTensor, "inMeanTensor", M, loc, api);
        out8_fits(inExpSumTensor, "inExpSumTensor", M, loc, api);
        out8_fits(inMaxTensor, "inMaxTensor", M, loc, api);
        if ((uint64_t)M * 16 > expMaxTensor.GetSize())
            dvac::fail_at(loc, api, "expMaxTensor has %u elements: it needs 16 a row (%u rows)",
                          expMaxTensor.GetSize(), M);
    }
    /* per row: the float copy (K), P (64), R, mean, B, C, D (8 each), the expMax lanes (16) */
    const LocalTensor<float> all = sharedTmpBuffer.ReinterpretCast<float>();
    uint32_t rows = all.GetSize() / (K + 120);
    if (rows == 0)
        dvac::fail_at(loc, api, "sharedTmpBuffer of %u bytes is too small (at least %u for one row)",
                      sharedTmpBuffer.GetSize(), (K + 120) * 4);
    rows = rows > M ? M : rows;
    if (rows < M && rows > 8)
        rows = rows / 8 * 8;
    const LocalTensor<float> X = all, P = all[rows * K], R = P[rows * 64], A = R[rows * 8], B = A[rows * 8],
                             C = B[rows * 8], D = C[rows * 8], E = D[rows * 8];
    const RowTmp t0{P, R, rows};
    const uint32_t baseK = K / 8;
    const float sc = params.alpha / (1.0f - params.alpha);
    for (uint32_t r0 = 0; r0 < M; r0 += rows) {
        const uint32_t m = M - r0 < rows ? M - r0 : rows, n8 = m * 8;
        const LocalTensor<float> mean = meanTensor[r0 * 8], sum = expSumTensor[r0 * 8], max = maxTensor[r0 * 8];
        Cast<float, half>(X, srcTensor[r0 * K], RoundMode::CAST_NONE, m * K, loc);
        bar(loc);
        /* the means: 8-element group sums of the first 512 columns, every further 64-wide block added */
        for (uint32_t i = 0; i < m; i++)
            BlockReduceSum<float>(P[i * 64], X[i * K], 8, 64, 1, 1, 8, loc);
        bar(loc);
        if (K / 64 > 8) {
            for (uint32_t i = 0; i < m; i++)
                Add<float>(P[i * 64], X[i * K + 512], P[i * 64], (uint64_t)64, (uint8_t)(K / 64 - 8),
                           BinaryRepeatParams(1, 1, 1, 0, 8, 0), loc);
            bar(loc);
        }
        for (uint32_t g = 0; g < m; g += 255)
            BlockReduceSum<float>(R[g * 8], P[g * 64], (int32_t)(m - g < 255 ? m - g : 255), 64, 1, 1, 8, loc);
        bar(loc);
        Muls<float>(R, R, 1.0f / (float)baseK, (int32_t)n8, loc); /* each eighth's mean */
        bar(loc);
        const uint32_t full = m / 8, rest = m % 8;
        if (full)
            BlockReduceSum<float>(A, R, (int32_t)full, 64, 1, 1, 8, loc);
        if (rest)
            BlockReduceSum<float>(A[full * 8], R[full * 64], 1, (int32_t)(rest * 8), 1, 1, 8, loc);
        bar(loc);
        Brcb<float>(P, A, (uint8_t)((m + 7) / 8), BrcbRepeatParams(1, 8), loc);
        bar(loc);
        Muls<float>(A, P, 0.125f, (int32_t)n8, loc); /* the row's mean, 8 lanes */
        bar(loc);
        Sub<float>(B, A, R, (int32_t)n8, loc);
        bar(loc);
        Muls<float>(B, B, sc, (int32_t)n8, loc); /* the shift of each eighth */
        bar(loc);
        for (uint32_t i = 0; i < m; i++) {
            Brcb<float>(P, B[i * 8], 1, BrcbRepeatParams(1, 8), loc);
            bar(loc);
            for (uint32_t j = 0; j < 8; j++) {
                const LocalTensor<float> xj = X[i * K + j * baseK];
                if (baseK / 64)
                    Sub<float>(xj, xj, P[j * 8], (uint64_t)64, (uint8_t)(baseK / 64),
                               BinaryRepeatParams(1, 1, 0, 8, 8, 0), loc);
                if (baseK % 64)
                    Sub<float>(xj[baseK / 64 * 64], xj[baseK / 64 * 64], P[j * 8], (uint64_t)(baseK % 64), 1,
                               BinaryRepeatParams(1, 1, 0, 8, 8, 0), loc);
            }
            bar(loc);
        }
        if constexpr (isUpdate) {
            Muls<float>(mean, inMeanTensor[r0 * 8], (float)params.loopCnt - 1.0f, (int32_t)n8, loc);
            bar(loc);
            Add<float>(mean, mean, A, (int32_t)n8, loc);
            bar(loc);
            Muls<float>(mean, mean, 1.0f / (float)params.loopCnt, (int32_t)n8, loc);
        } else {
            copy_ub(mean, A, n8, loc);
        }
        bar(loc);
        row_reduce(Red::MAX, t0, X, m, K, loc);
        copy_ub(B, P, n8, loc);
        Sub<float>(C, A, mean, (int32_t)n8, loc); /* shiftCurr */
        bar(loc);
        Muls<float>(C, C, sc, (int32_t)n8, loc);
        bar(loc);
        Add<float>(max, B, C, (int32_t)n8, loc);
        bar(loc);
        if constexpr (isUpdate) {
            Sub<float>(D, inMeanTensor[r0 * 8], mean, (int32_t)n8, loc); /* shiftPrev */
            bar(loc);
            Muls<float>(D, D, sc, (int32_t)n8, loc);
            bar(loc);
            Add<float>(B, inMaxTensor[r0 * 8], D, (int32_t)n8, loc);
            bar(loc);
            Max<float>(max, max, B, (int32_t)n8, loc);
            bar(loc);
            Sub<float>(B, inMaxTensor[r0 * 8], max, (int32_t)n8, loc);
            bar(loc);
            Add<float>(B, D, B, (int32_t)n8, loc);
            bar(loc);
            Exp<float>(B, B, (int32_t)n8, loc);
            bar(loc);
            Mul<float>(sum, B, inExpSumTensor[r0 * 8], (int32_t)n8, loc);
            bar(loc);
        }
        Sub<float>(C, max, C, (int32_t)n8, loc);
        bar(loc);
        bsub(X, X, C, m, K, loc);
        Exp<float>(X, X, (int32_t)(m * K), loc);
        bar(loc);
        Cast<half, float>(dstTensor[r0 * K], X, RoundMode::CAST_ROUND, m * K, loc);
        bar(loc);
        row_reduce(Red::SUM, t0, X, m, K, loc);
        if constexpr (isUpdate) {
            Add<float>(sum, sum, P, (int32_t)n8, loc);
            bar(loc);
            Copy<float>(E, B, (uint64_t)8, (uint8_t)m, CopyRepeatParams(1, 1, 2, 1), loc);
            Copy<float>(E[8], B, (uint64_t)8, (uint8_t)m, CopyRepeatParams(1, 1, 2, 1), loc);
            bar(loc);
            Cast<half, float>(expMaxTensor[r0 * 16], E, RoundMode::CAST_ROUND, m * 16, loc);
            bar(loc);
        } else {
            copy_ub(sum, P, n8, loc);
        }
    }
}
template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig &config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV3(const LocalTensor<T> &dstTensor, const LocalTensor<U> &meanTensor,
                           const LocalTensor<U> &expSumTensor, const LocalTensor<U> &maxTensor,
                           const LocalTensor<T> &srcTensor, const LocalTensor<T> &expMaxTensor,
                           const LocalTensor<U> &inMeanTensor, const LocalTensor<U> &inExpSumTensor,
                           const LocalTensor<U> &inMaxTensor, const SoftMaxTiling &tiling, const SoftMaxParams &params,
                           const dvac::Loc &loc = dvac::Loc::here())
{
    if (dvac::vec_stream(loc))
        SoftmaxFlashV3<T, U, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
            dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inMeanTensor, inExpSumTensor,
            inMaxTensor, dvac::act::stack_buffer<uint8_t>(loc, "SoftmaxFlashV3"), tiling, params, loc);
}

#undef DVAC_SOFTMAX_FLOAT_ONLY

} // namespace AscendC

#endif
