/* adv/normalization.h - Ascend C high-level API, normalization and quantization (LayerNorm, LayerNormGrad,
 * LayerNormGradBeta, DeepNorm, RmsNorm, AscendQuant, AscendDequant): kernel side, built on the basic vector API
 * (dvac/vec*.h), so every step is a vector instruction the model times.  docs/ASCENDC.md, "Normalization and
 * quantization", lists what each emits.
 *
 * The norms work on rows of H floats (H a multiple of 8, at most 2040: the repeat stride of one row is H / 8
 * datablocks), up to 248 rows per step, as much as the temporary buffer holds (dvac::norm::row_tmp_floats):
 *   row sums: WholeReduceSum (vcadd) of each row, after folding a row of more than 64 floats to 64 (Adds, Add);
 *   per-row scalars: Brcb to one datablock per row, then a level-0 op whose second source advances one datablock
 *   per repeat (block stride 0);  per-column vectors (gamma, beta): a level-0 op with source repeat stride 0. */
#ifndef DVSIM_ADV_NORMALIZATION_H
#define DVSIM_ADV_NORMALIZATION_H

#include "../dvac/core.h"
#include "../dvac/tensor.h"
#include "../dvac/vec.h"
#include "../dvac/sync.h"
#include "../dvac/norm_extra.h"
#include "normalization_tiling.h"

namespace AscendC {
enum class DeQuantMode : uint8_t { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW };
struct DequantParams {
    uint32_t m;        /* rows */
    uint32_t n;        /* elements of a row (a multiple of 8) */
    uint32_t calCount; /* elements of each row dequantised */
};
struct AscendQuantConfig {
    constexpr AscendQuantConfig(uint32_t calc, uint32_t offsetCnt, uint32_t scaleCnt, uint32_t work)
        : calcCount(calc), offsetCount(offsetCnt), scaleCount(scaleCnt), workLocalSize(work)
    {
    }
    uint32_t calcCount = 0;
    uint32_t offsetCount = 0;
    uint32_t scaleCount = 0;
    uint32_t workLocalSize = 0;
};
constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};

/* LayerNorm with LayerNormPara (include/adv_api/normalization/layernorm_utils.h). */
struct LayerNormConfig {
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
    bool isOutputRstd = true;
};
constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};
struct LayerNormPara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};
/* Normalize (normalize_utils.h). */
#ifndef DVAC_ENUM_REDUCEPATTERN /* also in adv/reduce_sort_tiling.h */
#define DVAC_ENUM_REDUCEPATTERN
enum class ReducePattern : uint32_t {
    AR = 0, RA = 1, R, ARA, ARAR, ARARA, ARARAR, ARARARA, ARARARAR, ARARARARA, RAR, RARA, RARAR, RARARA, RARARAR,
    RARARARA
};
#endif
struct NormalizeConfig {
    ReducePattern reducePattern = ReducePattern::AR;
    int32_t aLength = -1;
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
};
constexpr NormalizeConfig NLCFG_NORM = {ReducePattern::AR, -1, false, false, false};
struct NormalizePara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};
/* WelfordUpdate / WelfordFinalize (layernorm_utils.h, welfordfinalize_utils.h). */
struct WelfordUpdateConfig {
    constexpr WelfordUpdateConfig(const bool isInplaceIn) : isInplace(isInplaceIn) {}
    bool isInplace = false;
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};
struct WelfordUpdateParam {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t abComputeLength;
    float nRec;
};
struct WelfordFinalizePara {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t headCount;
    uint32_t headCountLength;
    uint32_t tailCount;
    uint32_t tailCountLength;
    float abRec;
    float rRec;
};
} // namespace AscendC

namespace dvac {
namespace norm {

using AscendC::BinaryRepeatParams;
using AscendC::LocalTensor;
using AscendC::UnaryRepeatParams;

inline uint32_t r8(uint32_t r) { return (r + 7) / 8 * 8; }
inline void bar(const Loc &loc) { AscendC::PipeBarrier<PIPE_V>(loc); }

/* The temporary buffer of a step of `rows` rows: products, fold, per-row broadcast, four statistics. */
struct Work {
    LocalTensor<float> sq, fold, brc, st[4];
};
inline Work carve(const LocalTensor<float> &t, uint32_t rows, uint32_t h)
{
    const uint32_t r = r8(rows);
    Work w;
    uint32_t o = 0;
    w.sq = t[o];
    o += r * h;
    w.fold = t[o];
    o += h > 64 ? r * 64 : 0;
    w.brc = t[o];
    o += r * 8;
    for (auto &s : w.st) {
        s = t[o];
        o += r;
    }
    return w;
}

/* Rows per step for a temporary buffer of `floats` floats; fails when not even the smallest step fits. */
inline uint32_t step_rows(uint32_t floats, uint32_t h, uint32_t total, const Loc &loc, const char *api)
{
    if (h == 0 || h % 8 || h > 2040)
        fail_at(loc, api, "the row length H %u must be a positive multiple of 8 of at most 2040 (32-byte rows)", h);
    uint32_t r = 8;
    while (r + 8 <= 248 && r < total && row_tmp_floats(r + 8, h) <= floats)
        r += 8;
    if (r > total)
        r = total;
    if (row_tmp_floats(r, h) > floats)
        fail_at(loc, api, "the temporary buffer (%u bytes) is smaller than the %u bytes of %u rows of %u floats",
                floats * 4, row_tmp_floats(r, h) * 4, r, h);
    return r;
}

/* The temporary buffer given, or the stack buffer (PopStackBuffer) for the forms without one. */
inline LocalTensor<float> tmp_of(const LocalTensor<uint8_t> *given, const Loc &loc)
{
    LocalTensor<uint8_t> t;
    if (given)
        t = *given;
    else
        AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::LCM>(t, loc);
    return t.ReinterpretCast<float>();
}

enum class Op { ADD, SUB, MUL, DIV };
inline void bin(Op op, const LocalTensor<float> &d, const LocalTensor<float> &a, const LocalTensor<float> &b,
                uint64_t mask, uint8_t rep, const BinaryRepeatParams &p, const Loc &loc)
{
    switch (op) {
    case Op::ADD: AscendC::Add<float>(d, a, b, mask, rep, p, loc); break;
    case Op::SUB: AscendC::Sub<float>(d, a, b, mask, rep, p, loc); break;
    case Op::MUL: AscendC::Mul<float>(d, a, b, mask, rep, p, loc); break;
    case Op::DIV: AscendC::Div<float>(d, a, b, mask, rep, p, loc); break;
    }
}

/* st[i] = the sum of the first `cols` elements of row i of src (rows of stride h). */
inline void row_sum(const LocalTensor<float> &st, const LocalTensor<float> &src, const Work &w, uint32_t rows,
                    uint32_t h, uint32_t cols, const Loc &loc)
{
    const uint8_t hb = (uint8_t)(h / 8);
    if (cols == 0 || cols > h)
        cols = h;
    if (h <= 64) {
        AscendC::WholeReduceSum<float>(st, src, (int32_t)cols, (int32_t)rows, 1, 1, hb, loc);
    } else {
        AscendC::Adds<float>(w.fold, src, 0.0f, (uint64_t)(cols < 64 ? cols : 64), (uint8_t)rows,
                             UnaryRepeatParams(1, 1, 8, hb), loc);
        bar(loc);
        for (uint32_t c = 64; c < cols; c += 64) {
            AscendC::Add<float>(w.fold, w.fold, src[c], (uint64_t)(cols - c < 64 ? cols - c : 64), (uint8_t)rows,
                                BinaryRepeatParams(1, 1, 1, 8, 8, hb), loc);
            bar(loc);
        }
        AscendC::WholeReduceSum<float>(st, w.fold, (int32_t)(cols < 64 ? cols : 64), (int32_t)rows, 1, 1, 8, loc);
    }
    bar(loc);
}

/* dst[i][j] = src[i][j] op st[i] (st holds r8(rows) readable floats). */
inline void row_op(Op op, const LocalTensor<float> &dst, const LocalTensor<float> &src, const LocalTensor<float> &st,
                   const Work &w, uint32_t rows, uint32_t h, const Loc &loc)
{
    AscendC::Brcb<float>(w.brc, st, (uint8_t)(r8(rows) / 8), AscendC::BrcbRepeatParams(1, 8), loc);
    bar(loc);
    const uint8_t hb = (uint8_t)(h / 8);
    for (uint32_t c = 0; c < h; c += 64)
        bin(op, dst[c], src[c], w.brc, h - c < 64 ? h - c : 64, (uint8_t)rows, BinaryRepeatParams(1, 1, 0, hb, hb, 1),
            loc);
    bar(loc);
}

/* dst[i][j] = src[i][j] op vec[j]. */
inline void col_op(Op op, const LocalTensor<float> &dst, const LocalTensor<float> &src, const LocalTensor<float> &vec,
                   uint32_t rows, uint32_t h, const Loc &loc)
{
    const uint8_t hb = (uint8_t)(h / 8);
    for (uint32_t c = 0; c < h; c += 64)
        bin(op, dst[c], src[c], vec[c], h - c < 64 ? h - c : 64, (uint8_t)rows, BinaryRepeatParams(1, 1, 1, hb, hb, 0),
            loc);
    bar(loc);
}

/* The rows of x normalised into y (y may be x): mean and variance over the first `oh` of h (1/oh = back), written
 * to mean[] and var[] (or, with rstd, 1 / sqrt(var + eps) to var[]) when given, then
 * y = (x - mean) / sqrt(var + eps) * gamma + beta (gamma, beta when given). */
inline void layer_rows(const LocalTensor<float> &y, const LocalTensor<float> *mean, const LocalTensor<float> *var,
                       bool rstd, const LocalTensor<float> &x, const LocalTensor<float> *gamma,
                       const LocalTensor<float> *beta, const LocalTensor<float> &tmp, float eps, uint32_t bs,
                       uint32_t h, uint32_t oh, const Loc &loc, const char *api)
{
    const uint32_t step = step_rows(tmp.GetSize(), h, bs, loc, api);
    const Work w = carve(tmp, step, h);
    if (oh == 0 || oh > h)
        fail_at(loc, api, "the original row length %u is not in [1, H %u]", oh, h);
    const float back = 1.0f / (float)oh;
    for (uint32_t r0 = 0; r0 < bs; r0 += step) {
        const uint32_t r = bs - r0 < step ? bs - r0 : step;
        const LocalTensor<float> xr = x[r0 * h], yr = y[r0 * h];
        row_sum(w.st[0], xr, w, r, h, oh, loc);
        AscendC::Muls<float>(w.st[0], w.st[0], back, (int32_t)r, loc);
        bar(loc);
        row_op(Op::SUB, yr, xr, w.st[0], w, r, h, loc);
        AscendC::Mul<float>(w.sq, yr, yr, (int32_t)(r * h), loc);
        bar(loc);
        row_sum(w.st[1], w.sq, w, r, h, oh, loc);
        AscendC::Muls<float>(w.st[1], w.st[1], back, (int32_t)r, loc);
        bar(loc);
        if (mean)
            AscendC::Adds<float>((*mean)[r0], w.st[0], 0.0f, (int32_t)r, loc);
        if (var && !rstd)
            AscendC::Adds<float>((*var)[r0], w.st[1], 0.0f, (int32_t)r, loc);
        AscendC::Adds<float>(w.st[1], w.st[1], eps, (int32_t)r, loc);
        bar(loc);
        AscendC::Sqrt<float>(w.st[1], w.st[1], (int32_t)r, loc);
        bar(loc);
        if (var && rstd) {
            AscendC::Reciprocal<float>((*var)[r0], w.st[1], (int32_t)r, loc);
            bar(loc);
        }
        row_op(Op::DIV, yr, yr, w.st[1], w, r, h, loc);
        if (gamma)
            col_op(Op::MUL, yr, yr, *gamma, r, h, loc);
        if (beta)
            col_op(Op::ADD, yr, yr, *beta, r, h, loc);
    }
}

/* dst[i] = src[i] op b[0] for i < n (n a multiple of 8): b's first element broadcast by Brcb. */
inline void vec_scalar_op(Op op, const LocalTensor<float> &dst, const LocalTensor<float> &src,
                          const LocalTensor<float> &b, const LocalTensor<float> &brc, uint32_t n, const Loc &loc)
{
    AscendC::Brcb<float>(brc, b, 1, AscendC::BrcbRepeatParams(1, 8), loc);
    bar(loc);
    const uint32_t full = n / 64, rest = n % 64;
    if (full)
        bin(op, dst, src, brc, 64, (uint8_t)full, BinaryRepeatParams(1, 1, 0, 8, 8, 0), loc);
    if (rest)
        bin(op, dst[full * 64], src[full * 64], brc, rest, 1, BinaryRepeatParams(1, 1, 0, 8, 8, 0), loc);
    bar(loc);
}

template <typename T> inline void float_only()
{
    static_assert(std::is_same<T, float>::value, "dvsim implements this normalization API for float only");
}

} // namespace norm
} // namespace dvac

namespace AscendC {

/* ---- LayerNorm: output = (x - mean) / sqrt(var + eps) * gamma + beta over the last axis of [B, S, H] ---- */
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T> &output, const LocalTensor<T> &outputMean,
                      const LocalTensor<T> &outputVariance, const LocalTensor<T> &inputX, const LocalTensor<T> &gamma,
                      const LocalTensor<T> &beta, const LocalTensor<uint8_t> &sharedTmpBuffer, const T epsilon,
                      LayerNormTiling &tiling, const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::norm::float_only<T>();
    if (!dvac::vec_stream(loc))
        return;
    dvac::norm::layer_rows(output, &outputMean, &outputVariance, false, inputX, &gamma, &beta,
                           dvac::norm::tmp_of(&sharedTmpBuffer, loc), epsilon, tiling.bLength * tiling.sLength,
                           tiling.hLength, tiling.originalHLength, loc, "LayerNorm");
}
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T> &output, const LocalTensor<T> &outputMean,
                      const LocalTensor<T> &outputVariance, const LocalTensor<T> &inputX, const LocalTensor<T> &gamma,
                      const LocalTensor<T> &beta, const T epsilon, LayerNormTiling &tiling,
                      const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::norm::float_only<T>();
    if (!dvac::vec_stream(loc))
        return;
    dvac::norm::layer_rows(output, &outputMean, &outputVariance, false, inputX, &gamma, &beta,
                           dvac::norm::tmp_of(nullptr, loc), epsilon, tiling.bLength * tiling.sLength, tiling.hLength,
                           tiling.originalHLength, loc, "LayerNorm");
}

/* ---- LayerNorm over rows of rLength (stride rLengthWithPadding): mean, rstd (isOutputRstd) outputs ---- */
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig &config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T> &output, const LocalTensor<float> &outputMean,
                      const LocalTensor<float> &outputRstd, const LocalTensor<T> &inputX, const LocalTensor<U> &gamma,
                      const LocalTensor<U> &beta, const float epsilon, const LocalTensor<uint8_t> &sharedTmpBuffer,
                      const LayerNormPara &para, const LayerNormSeparateTiling &tiling,
                      const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::norm::float_only<T>();
    dvac::norm::float_only<U>();
    (void)tiling;
    if (!dvac::vec_stream(loc))
        return;
    if (!config.isOutputRstd)
        dvac::fail_at(loc, "LayerNorm", "isOutputRstd = false (the variance output) is not modelled on dav-2201 here");
    dvac::norm::layer_rows(output, config.isOnlyOutput ? nullptr : &outputMean,
                           config.isOnlyOutput ? nullptr : &outputRstd, true, inputX,
                           config.isNoGamma ? nullptr : &gamma, config.isNoBeta ? nullptr : &beta,
                           dvac::norm::tmp_of(&sharedTmpBuffer, loc), epsilon, para.aLength, para.rLengthWithPadding,
                           para.rLength, loc, "LayerNorm");
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig &config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T> &output, const LocalTensor<float> &outputMean,
                      const LocalTensor<float> &outputRstd, const LocalTensor<T> &inputX, const LocalTensor<U> &gamma,
                      const LocalTensor<U> &beta, const float epsilon, const LayerNormPara &para,
                      const LayerNormSeparateTiling &tiling, const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack, loc);
    LayerNorm<U, T, isReuseSource, config>(output, outputMean, outputRstd, inputX, gamma, beta, epsilon, stack, para,
                                           tiling, loc);
}

/* ---- Normalize: output = (x - mean) / sqrt(var + eps) * gamma + beta from given statistics; rstd output ---- */
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig &config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T> &output, const LocalTensor<float> &outputRstd,
                      const LocalTensor<float> &inputMean, const LocalTensor<float> &inputVariance,
                      const LocalTensor<T> &inputX, const LocalTensor<U> &gamma, const LocalTensor<U> &beta,
                      const LocalTensor<uint8_t> &sharedTmpBuffer, const float epsilon, const NormalizePara &para,
                      const dvac::Loc &loc = dvac::Loc::here())
{
    using namespace dvac::norm;
    float_only<T>();
    float_only<U>();
    static_assert(config.reducePattern == ReducePattern::AR, "Normalize: dav-2201 has the AR pattern only");
    if (!dvac::vec_stream(loc))
        return;
    const char *api = "Normalize";
    const uint32_t h = para.rLengthWithPadding, rows = para.aLength;
    dvac::count_in(inputMean, rows, "inputMean", loc, api);
    dvac::count_in(inputVariance, rows, "inputVariance", loc, api);
    dvac::count_in(inputX, (int64_t)rows * h, "inputX", loc, api);
    dvac::count_in(output, (int64_t)rows * h, "output", loc, api);
    const LocalTensor<float> tmp = tmp_of(&sharedTmpBuffer, loc);
    const uint32_t step = step_rows(tmp.GetSize(), h, rows, loc, api);
    const Work w = carve(tmp, step, h);
    for (uint32_t r0 = 0; r0 < rows; r0 += step) {
        const uint32_t r = rows - r0 < step ? rows - r0 : step;
        const LocalTensor<float> yr = output[r0 * h];
        Adds<float>(w.st[0], inputMean[r0], 0.0f, (int32_t)r, loc);
        Adds<float>(w.st[1], inputVariance[r0], epsilon, (int32_t)r, loc);
        bar(loc);
        Sqrt<float>(w.st[1], w.st[1], (int32_t)r, loc);
        bar(loc);
        if (!config.isOnlyOutput) {
            Reciprocal<float>(outputRstd[r0], w.st[1], (int32_t)r, loc);
            bar(loc);
        }
        row_op(Op::SUB, yr, inputX[r0 * h], w.st[0], w, r, h, loc);
        row_op(Op::DIV, yr, yr, w.st[1], w, r, h, loc);
        if (!config.isNoGamma)
            col_op(Op::MUL, yr, yr, gamma, r, h, loc);
        if (!config.isNoBeta)
            col_op(Op::ADD, yr, yr, beta, r, h, loc);
    }
}
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig &config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T> &output, const LocalTensor<float> &outputRstd,
                      const LocalTensor<float> &inputMean, const LocalTensor<float> &inputVariance,
                      const LocalTensor<T> &inputX, const LocalTensor<U> &gamma, const LocalTensor<U> &beta,
                      const float epsilon, const NormalizePara &para, const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack, loc);
    Normalize<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX, gamma, beta, stack,
                                           epsilon, para, loc);
}

/* ---- WelfordUpdate: for i < abComputeLength of each of the rn rows: d = x - mean, mean' = mean + d * nRec,
 * var' = var + d * (x - mean'); with isInplace the rest of each row is the inputs' ---- */
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig &config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U> &outputMean, const LocalTensor<U> &outputVariance,
                          const LocalTensor<U> &inputMean, const LocalTensor<U> &inputVariance,
                          const LocalTensor<T> &inputX, const LocalTensor<uint8_t> &sharedTmpBuffer,
                          const WelfordUpdateParam &para, const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::norm::float_only<T>();
    dvac::norm::float_only<U>();
    if (!dvac::vec_stream(loc))
        return;
    const char *api = "WelfordUpdate";
    const uint32_t ab = para.abLength, n = para.abComputeLength;
    if (ab == 0 || ab % 8 || n > ab)
        dvac::fail_at(loc, api, "abLength %u must be a positive multiple of 8 and abComputeLength %u at most it", ab,
                      n);
    const int64_t all = (int64_t)para.rnLength * ab;
    dvac::count_in(inputX, all, "inputX", loc, api);
    dvac::count_in(inputMean, all, "inputMean", loc, api);
    dvac::count_in(inputVariance, all, "inputVariance", loc, api);
    dvac::count_in(outputMean, all, "outputMean", loc, api);
    dvac::count_in(outputVariance, all, "outputVariance", loc, api);
    const LocalTensor<float> tmp = sharedTmpBuffer.ReinterpretCast<float>();
    const uint32_t n8 = (n + 7) / 8 * 8;
    if (tmp.GetSize() < 2 * n8)
        dvac::fail_at(loc, api, "the temporary buffer (%u bytes) is smaller than the %u bytes of two rows",
                      sharedTmpBuffer.GetSize(), 2 * n8 * 4);
    const LocalTensor<float> d = tmp, e = tmp[n8];
    for (uint32_t row = 0; row < para.rnLength; ++row) {
        const uint32_t o = row * ab;
        if (config.isInplace && n < ab) {
            Adds<float>(outputMean[o], inputMean[o], 0.0f, (int32_t)ab, loc);
            Adds<float>(outputVariance[o], inputVariance[o], 0.0f, (int32_t)ab, loc);
            PipeBarrier<PIPE_V>(loc);
        }
        if (n == 0)
            continue;
        Sub<float>(d, inputX[o], inputMean[o], (int32_t)n, loc);
        PipeBarrier<PIPE_V>(loc);
        Muls<float>(e, d, para.nRec, (int32_t)n, loc);
        PipeBarrier<PIPE_V>(loc);
        Add<float>(outputMean[o], inputMean[o], e, (int32_t)n, loc);
        PipeBarrier<PIPE_V>(loc);
        Sub<float>(e, inputX[o], outputMean[o], (int32_t)n, loc);
        PipeBarrier<PIPE_V>(loc);
        Mul<float>(e, d, e, (int32_t)n, loc);
        PipeBarrier<PIPE_V>(loc);
        Add<float>(outputVariance[o], inputVariance[o], e, (int32_t)n, loc);
        PipeBarrier<PIPE_V>(loc);
    }
}
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig &config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U> &outputMean, const LocalTensor<U> &outputVariance,
                          const LocalTensor<U> &inputMean, const LocalTensor<U> &inputVariance,
                          const LocalTensor<T> &inputX, const WelfordUpdateParam &para,
                          const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack, loc);
    WelfordUpdate<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance, inputX, stack,
                                               para, loc);
}

namespace dvac_welford {
/* WelfordFinalize over the abLength partial means and variances: outputMean[0], outputVariance[0] (the other
 * seven of the first datablock zero).  counts: Mean = sum(mean_i * c_i) * rRec,
 * Var = sum((mean_i - Mean)^2 * c_i + var_i) * rRec; without counts each block weighs rnLength (Mean = sum(mean_i)
 * * abRec), or, with a tail, tailCount and headCount for the first headCountLength. */
inline void finalize(const LocalTensor<float> &outputMean, const LocalTensor<float> &outputVariance,
                     const LocalTensor<float> &inputMean, const LocalTensor<float> &inputVariance,
                     const LocalTensor<int32_t> *counts, const LocalTensor<uint8_t> &sharedTmpBuffer,
                     const WelfordFinalizePara &para, const dvac::Loc &loc)
{
    using namespace dvac::norm;
    const char *api = "WelfordFinalize";
    const uint32_t ab = para.abLength;
    if (ab == 0 || ab % 8)
        dvac::fail_at(loc, api, "abLength %u must be a positive multiple of 8", ab);
    if (!counts && para.headCountLength + para.tailCountLength != ab)
        dvac::fail_at(loc, api, "headCountLength %u + tailCountLength %u must be abLength %u", para.headCountLength,
                      para.tailCountLength, ab);
    dvac::count_in(inputMean, ab, "inputMean", loc, api);
    dvac::count_in(inputVariance, ab, "inputVariance", loc, api);
    dvac::count_in(outputMean, 8, "outputMean", loc, api);
    dvac::count_in(outputVariance, 8, "outputVariance", loc, api);
    if (counts)
        dvac::count_in(*counts, ab, "counts", loc, api);
    const LocalTensor<float> tmp = sharedTmpBuffer.ReinterpretCast<float>();
    if (tmp.GetSize() < 3 * ab + 64)
        dvac::fail_at(loc, api, "the temporary buffer (%u bytes) is smaller than %u bytes", sharedTmpBuffer.GetSize(),
                      (3 * ab + 64) * 4);
    const LocalTensor<float> a = tmp, b = tmp[ab], cf = tmp[2 * ab], brc = tmp[3 * ab];
    const bool tail = !counts && para.tailCountLength != 0 && para.tailCount != 0;
    const int32_t n = (int32_t)ab;
    /* weights: counts, or tailCount (headCount for the head), or rnLength */
    if (counts) {
        Cast<float, int32_t>(cf, *counts, RoundMode::CAST_NONE, n, loc);
    } else {
        Duplicate<float>(cf, tail ? (float)para.tailCount : (float)para.rnLength, n, loc);
        if (tail && para.headCountLength)
            Duplicate<float>(cf, (float)para.headCount, (int32_t)para.headCountLength, loc);
    }
    PipeBarrier<PIPE_V>(loc);
    /* the mean */
    if (counts || tail) {
        Mul<float>(a, inputMean, cf, n, loc);
        PipeBarrier<PIPE_V>(loc);
        Muls<float>(a, a, para.rRec, n, loc);
    } else {
        Muls<float>(a, inputMean, para.abRec, n, loc);
    }
    PipeBarrier<PIPE_V>(loc);
    ReduceSum<float>(b, a, a, n, loc);
    PipeBarrier<PIPE_V>(loc);
    Duplicate<float>(outputMean, 0.0f, 8, loc);
    PipeBarrier<PIPE_V>(loc);
    Adds<float>(outputMean, b, 0.0f, 1, loc);
    /* the variance */
    vec_scalar_op(Op::SUB, a, inputMean, b, brc, ab, loc);
    Mul<float>(a, a, a, n, loc);
    PipeBarrier<PIPE_V>(loc);
    Mul<float>(a, a, cf, n, loc);
    PipeBarrier<PIPE_V>(loc);
    Add<float>(a, a, inputVariance, n, loc);
    PipeBarrier<PIPE_V>(loc);
    Muls<float>(a, a, para.rRec, n, loc);
    PipeBarrier<PIPE_V>(loc);
    ReduceSum<float>(b, a, a, n, loc);
    PipeBarrier<PIPE_V>(loc);
    Duplicate<float>(outputVariance, 0.0f, 8, loc);
    PipeBarrier<PIPE_V>(loc);
    Adds<float>(outputVariance, b, 0.0f, 1, loc);
    PipeBarrier<PIPE_V>(loc);
}
} // namespace dvac_welford

template <bool isReuseSource = false>
inline void WelfordFinalize(const LocalTensor<float> &outputMean, const LocalTensor<float> &outputVariance,
                            const LocalTensor<float> &inputMean, const LocalTensor<float> &inputVariance,
                            const LocalTensor<uint8_t> &sharedTmpBuffer, WelfordFinalizePara &para,
                            const dvac::Loc &loc = dvac::Loc::here())
{
    if (dvac::vec_stream(loc))
        dvac_welford::finalize(outputMean, outputVariance, inputMean, inputVariance, nullptr, sharedTmpBuffer, para,
                               loc);
}
template <bool isReuseSource = false>
inline void WelfordFinalize(const LocalTensor<float> &outputMean, const LocalTensor<float> &outputVariance,
                            const LocalTensor<float> &inputMean, const LocalTensor<float> &inputVariance,
                            const LocalTensor<int32_t> &counts, const LocalTensor<uint8_t> &sharedTmpBuffer,
                            WelfordFinalizePara &para, const dvac::Loc &loc = dvac::Loc::here())
{
    if (dvac::vec_stream(loc))
        dvac_welford::finalize(outputMean, outputVariance, inputMean, inputVariance, &counts, sharedTmpBuffer, para,
                               loc);
}
template <bool isReuseSource = false>
inline void WelfordFinalize(const LocalTensor<float> &outputMean, const LocalTensor<float> &outputVariance,
                            const LocalTensor<float> &inputMean, const LocalTensor<float> &inputVariance,
                            WelfordFinalizePara &para, const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack, loc);
    dvac_welford::finalize(outputMean, outputVariance, inputMean, inputVariance, nullptr, stack, para, loc);
}
template <bool isReuseSource = false>
inline void WelfordFinalize(const LocalTensor<float> &outputMean, const LocalTensor<float> &outputVariance,
                            const LocalTensor<float> &inputMean, const LocalTensor<float> &inputVariance,
                            const LocalTensor<int32_t> &counts, WelfordFinalizePara &para,
                            const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack, loc);
    dvac_welford::finalize(outputMean, outputVariance, inputMean, inputVariance, &counts, stack, para, loc);
}

/* ---- DeepNorm: LayerNorm of alpha * x + gx (the third output is the variance) ---- */
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T> &dstLocal, const LocalTensor<T> &meanLocal, const LocalTensor<T> &rstdLocal,
                     const LocalTensor<T> &srcLocal, const LocalTensor<T> &gxLocal, const LocalTensor<T> &betaLocal,
                     const LocalTensor<T> &gammaLocal, const LocalTensor<uint8_t> &sharedTmpBuffer, const T alpha,
                     const T epsilon, DeepNormTiling &tiling, const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::norm::float_only<T>();
    if (!dvac::vec_stream(loc))
        return;
    const int32_t n = (int32_t)(tiling.bLength * tiling.sLength * tiling.hLength);
    Muls<float>(dstLocal, srcLocal, alpha, n, loc);
    PipeBarrier<PIPE_V>(loc);
    Add<float>(dstLocal, dstLocal, gxLocal, n, loc);
    PipeBarrier<PIPE_V>(loc);
    dvac::norm::layer_rows(dstLocal, &meanLocal, &rstdLocal, false, dstLocal, &gammaLocal, &betaLocal,
                           dvac::norm::tmp_of(&sharedTmpBuffer, loc), epsilon, tiling.bLength * tiling.sLength,
                           tiling.hLength, tiling.originalHLength, loc, "DeepNorm");
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T> &dstLocal, const LocalTensor<T> &meanLocal, const LocalTensor<T> &rstdLocal,
                     const LocalTensor<T> &srcLocal, const LocalTensor<T> &gxLocal, const LocalTensor<T> &betaLocal,
                     const LocalTensor<T> &gammaLocal, const T alpha, const T epsilon, DeepNormTiling &tiling,
                     const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::norm::float_only<T>();
    if (!dvac::vec_stream(loc))
        return;
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack, loc);
    DeepNorm<T, isReuseSrc, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal,
                                          stack, alpha, epsilon, tiling, loc);
}

/* ---- RmsNorm: dst = src / sqrt(mean(src^2) + eps) * gamma over the last axis ---- */
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const LocalTensor<T> &gammaLocal,
                    const LocalTensor<uint8_t> &sharedTmpBuffer, const T epsilon, const RmsNormTiling &tiling,
                    const dvac::Loc &loc = dvac::Loc::here())
{
    using namespace dvac::norm;
    float_only<T>();
    if (!dvac::vec_stream(loc))
        return;
    const char *api = "RmsNorm";
    const uint32_t h = tiling.hLength, bs = tiling.bLength * tiling.sLength;
    const LocalTensor<float> tmp = tmp_of(&sharedTmpBuffer, loc);
    const uint32_t step = step_rows(tmp.GetSize(), h, bs, loc, api);
    const Work w = carve(tmp, step, h);
    for (uint32_t r0 = 0; r0 < bs; r0 += step) {
        const uint32_t r = bs - r0 < step ? bs - r0 : step;
        const LocalTensor<float> xr = srcLocal[r0 * h], yr = dstLocal[r0 * h];
        Mul<float>(w.sq, xr, xr, (int32_t)(r * h), loc);
        bar(loc);
        row_sum(w.st[0], w.sq, w, r, h, tiling.originalHLength, loc);
        Muls<float>(w.st[0], w.st[0], tiling.reciprocalOfHLength, (int32_t)r, loc);
        bar(loc);
        Adds<float>(w.st[0], w.st[0], epsilon, (int32_t)r, loc);
        bar(loc);
        Sqrt<float>(w.st[0], w.st[0], (int32_t)r, loc);
        bar(loc);
        row_op(Op::DIV, yr, xr, w.st[0], w, r, h, loc);
        col_op(Op::MUL, yr, yr, gammaLocal, r, h, loc);
    }
}
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const LocalTensor<T> &gammaLocal,
                    const T epsilon, const RmsNormTiling &tiling, const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack, loc);
    RmsNorm<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, stack, epsilon, tiling, loc);
}

/* ---- LayerNormGrad: the gradient of LayerNorm by x (outputPdX) and (x - mean) * rstd (resForGamma) ---- */
struct LayerNormGradShapeInfo {
    DataFormat dataFormat = DataFormat::ND;
};
template <typename T, bool isReuseSource = false>
inline void LayerNormGrad(const LocalTensor<T> &outputPdX, const LocalTensor<T> &resForGamma,
                          const LocalTensor<T> &inputDy, const LocalTensor<T> &inputX,
                          const LocalTensor<T> &inputVariance, const LocalTensor<T> &inputMean,
                          const LocalTensor<T> &inputGamma, LocalTensor<uint8_t> &sharedTmpBuffer, T epsilon,
                          LayerNormGradTiling &tiling, const LayerNormGradShapeInfo &shapeInfo = {},
                          const dvac::Loc &loc = dvac::Loc::here())
{
    using namespace dvac::norm;
    float_only<T>();
    (void)shapeInfo;
    if (!dvac::vec_stream(loc))
        return;
    const char *api = "LayerNormGrad";
    const uint32_t h = tiling.hLength, bs = tiling.bLength * tiling.sLength;
    const uint32_t oh = tiling.originalHLength;
    if (oh == 0 || oh > h)
        dvac::fail_at(loc, api, "the original row length %u is not in [1, H %u]", oh, h);
    const float back = 1.0f / (float)oh;
    const LocalTensor<float> tmp = tmp_of(&sharedTmpBuffer, loc);
    const uint32_t step = step_rows(tmp.GetSize(), h, bs, loc, api);
    const Work w = carve(tmp, step, h);
    for (uint32_t r0 = 0; r0 < bs; r0 += step) {
        const uint32_t r = bs - r0 < step ? bs - r0 : step;
        const int32_t n = (int32_t)(r * h);
        const LocalTensor<float> xmm = resForGamma[r0 * h], pdx = outputPdX[r0 * h];
        /* sd = sqrt(var + eps); xmm = x - mean; pdx = dy * gamma (pd_xl) */
        Adds<float>(w.st[0], inputVariance[r0], epsilon, (int32_t)r, loc);
        Adds<float>(w.st[1], inputMean[r0], 0.0f, (int32_t)r, loc);
        bar(loc);
        Sqrt<float>(w.st[0], w.st[0], (int32_t)r, loc);
        row_op(Op::SUB, xmm, inputX[r0 * h], w.st[1], w, r, h, loc);
        col_op(Op::MUL, pdx, inputDy[r0 * h], inputGamma, r, h, loc);
        /* pd_var = -0.5 * sum(pd_xl * xmm) / sd^3 */
        Mul<float>(w.sq, pdx, xmm, n, loc);
        bar(loc);
        row_sum(w.st[1], w.sq, w, r, h, oh, loc);
        for (int i = 0; i < 3; ++i) {
            Div<float>(w.st[1], w.st[1], w.st[0], (int32_t)r, loc);
            bar(loc);
        }
        Muls<float>(w.st[1], w.st[1], -0.5f, (int32_t)r, loc);
        /* pd_mean / H = (-sum(pd_xl) / sd + pd_var * (-2 / H) * sum(xmm)) / H */
        row_sum(w.st[2], pdx, w, r, h, oh, loc);
        row_sum(w.st[3], xmm, w, r, h, oh, loc);
        Div<float>(w.st[2], w.st[2], w.st[0], (int32_t)r, loc);
        Mul<float>(w.st[3], w.st[3], w.st[1], (int32_t)r, loc);
        bar(loc);
        Muls<float>(w.st[2], w.st[2], -1.0f, (int32_t)r, loc);
        Muls<float>(w.st[3], w.st[3], -2.0f * back, (int32_t)r, loc);
        bar(loc);
        Add<float>(w.st[2], w.st[2], w.st[3], (int32_t)r, loc);
        bar(loc);
        Muls<float>(w.st[2], w.st[2], back, (int32_t)r, loc);
        bar(loc);
        /* pd_x = pd_xl / sd + pd_var * (2 / H) * xmm + pd_mean / H;  resForGamma = xmm / sd */
        row_op(Op::MUL, w.sq, xmm, w.st[1], w, r, h, loc);
        Muls<float>(w.sq, w.sq, 2.0f * back, n, loc);
        row_op(Op::DIV, pdx, pdx, w.st[0], w, r, h, loc);
        Add<float>(pdx, pdx, w.sq, n, loc);
        bar(loc);
        row_op(Op::ADD, pdx, pdx, w.st[2], w, r, h, loc);
        row_op(Op::DIV, xmm, xmm, w.st[0], w, r, h, loc);
    }
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGrad(const LocalTensor<T> &outputPdX, const LocalTensor<T> &resForGamma,
                          const LocalTensor<T> &inputDy, const LocalTensor<T> &inputX,
                          const LocalTensor<T> &inputVariance, const LocalTensor<T> &inputMean,
                          const LocalTensor<T> &inputGamma, T epsilon, LayerNormGradTiling &tiling,
                          const LayerNormGradShapeInfo &shapeInfo = {}, const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack, loc);
    LayerNormGrad<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma,
                                    stack, epsilon, tiling, shapeInfo, loc);
}

/* ---- LayerNormGradBeta: pd_gamma = sum over rows of dy * resForGamma, pd_beta = sum over rows of dy ---- */
template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T> &outputPdGamma, const LocalTensor<T> &outputPdBeta,
                              const LocalTensor<T> &resForGamma, const LocalTensor<T> &inputDy,
                              const LocalTensor<uint8_t> &sharedTmpBuffer, const LayerNormGradBetaTiling &tiling,
                              const dvac::Loc &loc = dvac::Loc::here())
{
    using namespace dvac::norm;
    float_only<T>();
    if (!dvac::vec_stream(loc))
        return;
    const char *api = "LayerNormGradBeta";
    const uint32_t h = tiling.hLength, bs = tiling.bLength * tiling.sLength;
    const LocalTensor<float> tmp = tmp_of(&sharedTmpBuffer, loc);
    const uint32_t step = step_rows(tmp.GetSize(), h, bs, loc, api);
    const Work w = carve(tmp, step, h);
    for (uint32_t r0 = 0; r0 < bs; r0 += step) {
        const uint32_t r = bs - r0 < step ? bs - r0 : step;
        Mul<float>(w.sq, inputDy[r0 * h], resForGamma[r0 * h], (int32_t)(r * h), loc);
        bar(loc);
        for (uint32_t i = 0; i < r; ++i) {
            const bool first = r0 == 0 && i == 0;
            if (first) {
                Adds<float>(outputPdGamma, w.sq, 0.0f, (int32_t)h, loc);
                Adds<float>(outputPdBeta, inputDy, 0.0f, (int32_t)h, loc);
            } else {
                Add<float>(outputPdGamma, outputPdGamma, w.sq[i * h], (int32_t)h, loc);
                Add<float>(outputPdBeta, outputPdBeta, inputDy[(r0 + i) * h], (int32_t)h, loc);
            }
            bar(loc);
        }
    }
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T> &outputPdGamma, const LocalTensor<T> &outputPdBeta,
                              const LocalTensor<T> &resForGamma, const LocalTensor<T> &inputDy,
                              LayerNormGradBetaTiling &tiling, const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack, loc);
    LayerNormGradBeta<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy, stack, tiling, loc);
}

/* ---- AscendQuant, per tensor: dst = int8(round(half(src) * scale + offset)), computed in half ---- */
template <typename T, bool isReuseSource = false, const AscendQuantConfig &config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                        const LocalTensor<uint8_t> &sharedTmpBuffer, const float scale, const float offset,
                        const uint32_t calCount, const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
                  "AscendQuant: dvsim implements half and float sources");
    if (!dvac::vec_stream(loc))
        return;
    const char *api = "AscendQuant";
    dvac::count_in(srcTensor, calCount, "srcTensor", loc, api);
    dvac::count_in(dstTensor, calCount, "dstTensor", loc, api);
    const LocalTensor<half> tmp = sharedTmpBuffer.ReinterpretCast<half>();
    const uint32_t split = tmp.GetSize() / 32 * 32;
    if (split == 0)
        dvac::fail_at(loc, api, "the temporary buffer (%u bytes) holds less than 32 halves", sharedTmpBuffer.GetSize());
    const half hs = (half)scale, ho = (half)offset;
    for (uint32_t o = 0; o < calCount; o += split) {
        const int32_t n = (int32_t)(calCount - o < split ? calCount - o : split);
        if constexpr (std::is_same<T, float>::value) {
            Cast<half, float>(tmp, srcTensor[o], RoundMode::CAST_NONE, n, loc);
            PipeBarrier<PIPE_V>(loc);
            Muls<half>(tmp, tmp, hs, n, loc);
        } else {
            Muls<half>(tmp, srcTensor[o], hs, n, loc);
        }
        PipeBarrier<PIPE_V>(loc);
        Adds<half>(tmp, tmp, ho, n, loc);
        PipeBarrier<PIPE_V>(loc);
        Cast<int8_t, half>(dstTensor[o], tmp, RoundMode::CAST_NONE, n, loc);
        PipeBarrier<PIPE_V>(loc);
    }
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig &config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor, const float scale,
                        const float offset, const uint32_t calCount, const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack, loc);
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, stack, scale, offset, calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig &config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor,
                        const LocalTensor<uint8_t> &sharedTmpBuffer, const float scale, const float offset,
                        const dvac::Loc &loc = dvac::Loc::here())
{
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scale, offset, srcTensor.GetSize(),
                                          loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig &config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t> &dstTensor, const LocalTensor<T> &srcTensor, const float scale,
                        const float offset, const dvac::Loc &loc = dvac::Loc::here())
{
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, scale, offset, srcTensor.GetSize(), loc);
}

/* ---- AscendDequant: dst[i][j] = float(src[i][j]) * deqScale[j], j < calCount, over m rows of n ---- */
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT> &dstTensor, const LocalTensor<int32_t> &srcTensor,
                          const LocalTensor<scaleT> &deqScale, const LocalTensor<uint8_t> &sharedTmpBuffer,
                          DequantParams params, const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(std::is_same<dstT, float>::value && std::is_same<scaleT, float>::value,
                  "AscendDequant: dvsim implements float scales and float results");
    if (!dvac::vec_stream(loc))
        return;
    const char *api = "AscendDequant";
    if (mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW && params.m == 1 && params.calCount &&
        params.calCount % 8 == 0 && params.n % params.calCount == 0) {
        params.m = params.n / params.calCount;
        params.n = params.calCount;
    }
    const uint32_t m = params.m, n = params.n, cnt = params.calCount;
    if (n % 8 || n / 8 > 255)
        dvac::fail_at(loc, api, "params.n %u must be a multiple of 8 of at most 2040", n);
    if (cnt == 0 || cnt > n)
        dvac::fail_at(loc, api, "params.calCount %u is not in (0, params.n %u]", cnt, n);
    dvac::count_in(srcTensor, (int64_t)m * n, "srcTensor", loc, api);
    dvac::count_in(dstTensor, (int64_t)m * n, "dstTensor", loc, api);
    dvac::count_in(deqScale, cnt, "deqScale", loc, api);
    const LocalTensor<float> tmp = sharedTmpBuffer.ReinterpretCast<float>();
    uint32_t step = tmp.GetSize() / n;
    if (step > 255)
        step = 255;
    if (step == 0)
        dvac::fail_at(loc, api, "the temporary buffer (%u bytes) holds less than one row of %u floats",
                      sharedTmpBuffer.GetSize(), n);
    const uint8_t nb = (uint8_t)(n / 8);
    for (uint32_t r0 = 0; r0 < m; r0 += step) {
        const uint32_t r = m - r0 < step ? m - r0 : step;
        Cast<float, int32_t>(tmp, srcTensor[r0 * n], RoundMode::CAST_NONE, (int32_t)(r * n), loc);
        PipeBarrier<PIPE_V>(loc);
        for (uint32_t c = 0; c < cnt; c += 64)
            Mul<float>(dstTensor[r0 * n + c], tmp[c], deqScale[c], (uint64_t)(cnt - c < 64 ? cnt - c : 64), (uint8_t)r,
                       BinaryRepeatParams(1, 1, 1, nb, nb, 0), loc);
        PipeBarrier<PIPE_V>(loc);
    }
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT> &dstTensor, const LocalTensor<int32_t> &srcTensor,
                          const LocalTensor<scaleT> &deqScale, DequantParams params,
                          const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    LocalTensor<uint8_t> stack;
    PopStackBuffer<uint8_t, TPosition::LCM>(stack, loc);
    AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, stack, params, loc);
}

} // namespace AscendC

#endif
