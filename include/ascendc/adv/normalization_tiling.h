/* adv/normalization_tiling.h - Ascend C high-level API, normalization and quantization (LayerNorm, RmsNorm, DeepNorm,
 * LayerNormGrad, LayerNormGradBeta, AscendQuant, AscendDequant): the tiling structs the kernel reads (AscendC::tiling,
 * exported to the global namespace, CANN's field order), their host classes (optiling) and the host functions that
 * size temporary buffers and fill the tilings.
 *
 * Each tiling is one field table (DVAC_<NAME>_FIELDS): the kernel struct and the host class are both made from it,
 * so their bytes cannot drift apart.  Field lists: asc-devkit include/adv_api/normalization/<api>_tilingdata.h.
 * The temporary-buffer sizes are dvsim's (what adv/normalization.h needs), not CANN's: docs/ASCENDC.md,
 * "Normalization and quantization", gives the rule. */
#ifndef DVSIM_ADV_NORMALIZATION_TILING_H
#define DVSIM_ADV_NORMALIZATION_TILING_H

#include <cstdint>
#include <cstring>

#include "../register/tilingdata_base.h"
#include "../tiling/shape.h"

#define DVAC_LAYERNORM_FIELDS(X)                                                                                     \
    X(uint32_t, bLength) X(uint32_t, sLength) X(uint32_t, hLength) X(uint32_t, originalHLength)                      \
    X(uint32_t, inputXSize) X(uint32_t, meanVarSize) X(uint32_t, numberOfTmpBuf) X(uint32_t, meanTmpTensorPos)        \
    X(uint32_t, meanTmpTensorSize) X(uint32_t, varianceTmpTensorPos) X(uint32_t, varianceTmpTensorSize)               \
    X(uint32_t, tmpBufSize) X(uint32_t, oneTmpSize) X(uint32_t, firstTmpStartPos) X(uint32_t, secondTmpStartPos)      \
    X(uint32_t, thirdTmpStartPos) X(uint32_t, loopRound) X(uint32_t, inputRoundSize) X(uint32_t, inputTailSize)       \
    X(uint32_t, inputTailPos) X(uint32_t, meanVarRoundSize) X(uint32_t, meanVarTailSize) X(uint32_t, meanVarTailPos)  \
    X(uint32_t, bshCurLength) X(uint32_t, bsCurLength) X(float, lastDimValueBack)

#define DVAC_LAYERNORM_SEPARATE_FIELDS(X)                                                                            \
    X(uint32_t, aLength) X(uint32_t, rLength) X(uint32_t, halfAddRepeatTimes) X(uint32_t, rHeadLength)               \
    X(float, k2Rec) X(float, k2RRec) X(uint32_t, inputXSize) X(uint32_t, meanVarSize) X(uint32_t, numberOfTmpBuf)     \
    X(uint32_t, varianceTmpTensorPos) X(uint32_t, varianceTmpTensorSize) X(uint32_t, tmpBufSize)                      \
    X(uint32_t, oneTmpSize) X(uint32_t, firstTmpStartPos) X(uint32_t, secondTmpStartPos) X(uint32_t, thirdTmpStartPos) \
    X(uint32_t, loopRound) X(uint32_t, inputRoundSize) X(uint32_t, inputTailSize) X(uint32_t, inputTailPos)           \
    X(uint32_t, meanVarRoundSize) X(uint32_t, meanVarTailSize) X(uint32_t, meanVarTailPos) X(uint32_t, arCurLength)   \
    X(uint32_t, aCurLength) X(float, rValueBack)

#define DVAC_RMSNORM_FIELDS(X)                                                                                       \
    X(uint32_t, bLength) X(uint32_t, sLength) X(uint32_t, hLength) X(uint32_t, originalHLength)                      \
    X(float, reciprocalOfHLength) X(uint32_t, mainBshLength) X(uint32_t, mainBsLength) X(uint32_t, mainBsLengthAlign) \
    X(uint32_t, loopRound) X(uint32_t, inputTailPos) X(uint32_t, tailBshLength) X(uint32_t, tailBsLength)

#define DVAC_LAYERNORM_GRAD_FIELDS(X)                                                                                \
    X(uint32_t, stackBufferSize) X(uint32_t, bLength) X(uint32_t, sLength) X(uint32_t, hLength)                      \
    X(uint32_t, originalHLength) X(uint32_t, oneCalSize) X(uint32_t, nohCalSize) X(uint32_t, loopNum)                \
    X(uint32_t, tailSize) X(uint32_t, nohTailSize) X(uint32_t, tmpTensorBSHPos) X(uint32_t, tmpTensorBSHSize)         \
    X(uint32_t, pdVarTensorPos) X(uint32_t, pdVarTensorSize) X(uint32_t, pdMeanTensorPos)                            \
    X(uint32_t, pdMeanTensorSize)                                                                                    \
    X(uint32_t, x1TensorPos) X(uint32_t, x1TensorSize) X(uint32_t, x2TensorPos) X(uint32_t, x2TensorSize)             \
    X(uint32_t, x3TensorPos) X(uint32_t, x3TensorSize) X(uint32_t, tmpTensorPos) X(uint32_t, tmpTensorSize)           \
    X(uint32_t, tmpTensor1Pos) X(uint32_t, tmpTensor1Size) X(uint32_t, tmpTensor2Pos) X(uint32_t, tmpTensor2Size)     \
    X(uint32_t, lastDimValueBack) X(uint32_t, lastDimValueBackMulTwo)

#define DVAC_LAYERNORM_GRAD_BETA_FIELDS(X)                                                                           \
    X(uint32_t, stackBufferSize) X(uint32_t, bLength) X(uint32_t, sLength) X(uint32_t, hLength)                      \
    X(uint32_t, originalHLength) X(uint32_t, bshLength) X(uint32_t, bsLength) X(uint32_t, oneCalSize)                 \
    X(uint32_t, numberOfTmpBuf) X(uint32_t, loopRound) X(uint32_t, inputTailSize) X(uint32_t, inputTailPos)           \
    X(uint32_t, bsTailSize) X(uint32_t, bshCurLength) X(uint32_t, bsCurLength) X(uint32_t, gammaTempTensorPos)        \
    X(uint32_t, betaTempTensorPos) X(uint32_t, inputDyTmpTensorPos) X(uint32_t, resForGammaTmpTensorPos)              \
    X(uint32_t, reserved)

/* The kernel struct (AscendC::tiling::Name, also ::Name) and the host class (optiling::Name) of one table. */
#define DVAC_NORM_MEMBER(type, name) type name = type();
#define DVAC_NORM_HOST_FIELD(type, name) TILING_DATA_FIELD_DEF(type, name);
#define DVAC_NORM_TILING(Name, FIELDS)                                                                               \
    namespace AscendC {                                                                                              \
    namespace tiling {                                                                                               \
    struct Name {                                                                                                    \
        FIELDS(DVAC_NORM_MEMBER)                                                                                     \
    };                                                                                                               \
    }                                                                                                                \
    }                                                                                                                \
    using AscendC::tiling::Name;                                                                                     \
    namespace optiling {                                                                                             \
    BEGIN_TILING_DATA_DEF(Name)                                                                                      \
    FIELDS(DVAC_NORM_HOST_FIELD)                                                                                     \
    END_TILING_DATA_DEF;                                                                                             \
    }

DVAC_NORM_TILING(LayerNormTiling, DVAC_LAYERNORM_FIELDS)
DVAC_NORM_TILING(LayerNormSeparateTiling, DVAC_LAYERNORM_SEPARATE_FIELDS)
DVAC_NORM_TILING(DeepNormTiling, DVAC_LAYERNORM_FIELDS)
DVAC_NORM_TILING(RmsNormTiling, DVAC_RMSNORM_FIELDS)
DVAC_NORM_TILING(LayerNormGradTiling, DVAC_LAYERNORM_GRAD_FIELDS)
DVAC_NORM_TILING(LayerNormGradBetaTiling, DVAC_LAYERNORM_GRAD_BETA_FIELDS)

namespace dvac {
namespace norm {

/* Floats of temporary buffer the row kernels of adv/normalization.h use for `rows` rows of h floats at once
 * (rows rounded up to 8): the rows' squares or products, a 64-float fold per row when h > 64, the per-row
 * broadcast (8 floats a row) and four per-row statistics. */
inline uint32_t row_tmp_floats(uint32_t rows, uint32_t h)
{
    const uint32_t r8 = (rows + 7) / 8 * 8;
    return r8 * h + (h > 64 ? r8 * 64 : 0) + r8 * 8 + 4 * r8;
}
/* The bytes for every row at once (max) and for 8 rows (min), as the host functions report them. */
inline void row_tmp_bytes(uint64_t rows, uint32_t h, uint32_t &maxValue, uint32_t &minValue)
{
    const uint32_t chunk = rows > 248 ? 248 : (uint32_t)rows;
    maxValue = row_tmp_floats(chunk, h) * 4;
    minValue = row_tmp_floats(chunk < 8 ? chunk : 8, h) * 4;
}

/* The LayerNorm / DeepNorm tiling of CANN's GetLayerNormNDTilingInfo for shape [B, S, H] of H given. */
template <class TL>
inline void fill_layernorm(TL &t, uint32_t b, uint32_t s, uint32_t h, uint32_t oh, uint32_t stackBytes,
                           uint32_t typeSize, bool reuse)
{
    const uint32_t x = b * s * h, mv = b * s;
    const uint32_t nbuf = reuse && typeSize == 4 ? 2 : 3;
    const uint32_t mvAlign = (mv + 7) / 8 * 8;
    const uint32_t mvTotal = typeSize == 4 ? 0 : 2 * mvAlign;
    const uint32_t tmp = stackBytes / 4;
    uint32_t one = tmp > mvTotal && h ? (tmp - mvTotal) / nbuf / h * h : 0;
    if (one > x)
        one = x;
    t.bLength = b;
    t.sLength = s;
    t.hLength = h;
    t.originalHLength = oh;
    t.inputXSize = x;
    t.meanVarSize = mv;
    t.numberOfTmpBuf = nbuf;
    t.meanTmpTensorPos = 0;
    t.meanTmpTensorSize = mvAlign;
    t.varianceTmpTensorPos = mvAlign;
    t.varianceTmpTensorSize = mvAlign;
    t.tmpBufSize = tmp;
    t.oneTmpSize = one;
    if (one == 0)
        return;
    t.firstTmpStartPos = mvTotal;
    t.secondTmpStartPos = mvTotal + one;
    t.thirdTmpStartPos = mvTotal + 2 * one;
    t.loopRound = x / one;
    t.inputRoundSize = one;
    t.inputTailSize = x % one;
    t.inputTailPos = x - x % one;
    t.meanVarRoundSize = one / h;
    t.meanVarTailSize = x % one / h;
    t.meanVarTailPos = mv - x % one / h;
    t.bshCurLength = one;
    t.bsCurLength = one / h;
    t.lastDimValueBack = 1.0f / (float)oh;
}

} // namespace norm
} // namespace dvac

namespace AscendC {

/* LayerNorm, shape [B, S, H, originalH]: the temporary bytes of adv/normalization.h's LayerNorm. */
inline void GetLayerNormMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t &maxValue, uint32_t &minValue)
{
    (void)typeSize;
    (void)isReuseSource;
    dvac::norm::row_tmp_bytes((uint64_t)srcShape.GetDim(0) * srcShape.GetDim(1), (uint32_t)srcShape.GetDim(2),
                              maxValue, minValue);
}
template <class TL>
inline void dvac_layernorm_nd(const TensorShape &srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                              const bool isReuseSource, TL &tiling)
{
    dvac::norm::fill_layernorm(tiling, (uint32_t)srcShape.GetDim(0), (uint32_t)srcShape.GetDim(1),
                               (uint32_t)srcShape.GetDim(2), (uint32_t)srcShape.GetDim(3), stackBufferSize, typeSize,
                               isReuseSource);
}
inline void GetLayerNormNDTilingInfo(const TensorShape &srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     optiling::LayerNormTiling &tiling)
{
    dvac_layernorm_nd(srcShape, stackBufferSize, typeSize, isReuseSource, tiling);
}
inline void GetLayerNormNDTilingInfo(const TensorShape &srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     AscendC::tiling::LayerNormTiling &tiling)
{
    dvac_layernorm_nd(srcShape, stackBufferSize, typeSize, isReuseSource, tiling);
}

/* LayerNorm with separate statistics (LayerNormPara), and Normalize, shape [A, R]: rows of R padded to 32 bytes. */
inline void GetNormalizeMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSizeU, const uint32_t typeSizeT,
                                      const bool isReuseSource, const bool isComputeRstd, const bool isOnlyOutput,
                                      uint32_t &maxValue, uint32_t &minValue)
{
    (void)typeSizeU;
    (void)isReuseSource;
    (void)isComputeRstd;
    (void)isOnlyOutput;
    const uint32_t per = typeSizeT ? 32 / typeSizeT : 8;
    const uint32_t r = (uint32_t)(srcShape.GetDim(1) + per - 1) / per * per;
    dvac::norm::row_tmp_bytes((uint64_t)srcShape.GetDim(0), r, maxValue, minValue);
}
inline void GetLayerNormMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const bool isComputeRstd, const bool isOnlyOutput, uint32_t &maxValue,
                                      uint32_t &minValue)
{
    GetNormalizeMaxMinTmpSize(srcShape, typeSize, typeSize, isReuseSource, isComputeRstd, isOnlyOutput, maxValue,
                              minValue);
}
template <class TL>
inline void dvac_layernorm_separate(const TensorShape &srcShape, const uint32_t stackBufferSize,
                                    const uint32_t typeSize, TL &t)
{
    const uint32_t a = (uint32_t)srcShape.GetDim(0), r = (uint32_t)srcShape.GetDim(1);
    const uint32_t per = typeSize ? 32 / typeSize : 8, rp = (r + per - 1) / per * per;
    const uint32_t x = a * rp, varSize = (a + 7) / 8 * 8, tmp = stackBufferSize / 4;
    uint32_t one = tmp > varSize && rp ? (tmp - varSize) / 2 / rp * rp : 0;
    if (one > x)
        one = x;
    t.aLength = a;
    t.rLength = r;
    t.inputXSize = x;
    t.meanVarSize = a;
    t.numberOfTmpBuf = 2;
    t.varianceTmpTensorPos = 0;
    t.varianceTmpTensorSize = varSize;
    t.tmpBufSize = tmp;
    t.oneTmpSize = one;
    t.rValueBack = r ? 1.0f / (float)r : 0.0f;
    if (one == 0)
        return;
    t.firstTmpStartPos = varSize;
    t.secondTmpStartPos = varSize + one;
    t.thirdTmpStartPos = varSize + 2 * one;
    t.loopRound = x / one;
    t.inputRoundSize = one;
    t.inputTailSize = x % one;
    t.inputTailPos = x - x % one;
    t.meanVarRoundSize = one / rp;
    t.meanVarTailSize = x % one / rp;
    t.meanVarTailPos = a - x % one / rp;
    t.arCurLength = one;
    t.aCurLength = one / rp;
}
inline void GetLayerNormNDTilingInfo(const TensorShape &srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource, const bool isComputeRstd,
                                     optiling::LayerNormSeparateTiling &tiling)
{
    (void)isReuseSource;
    (void)isComputeRstd;
    dvac_layernorm_separate(srcShape, stackBufferSize, typeSize, tiling);
}
inline void GetLayerNormNDTilingInfo(const TensorShape &srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource, const bool isComputeRstd,
                                     AscendC::tiling::LayerNormSeparateTiling &tiling)
{
    (void)isReuseSource;
    (void)isComputeRstd;
    dvac_layernorm_separate(srcShape, stackBufferSize, typeSize, tiling);
}

/* WelfordUpdate, shape [rn, ab]: two float copies of the part computed.  WelfordFinalize, shape [ab]: three float
 * copies and one repeat of broadcast. */
inline void GetWelfordUpdateMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSizeT,
                                          const uint32_t typeSizeU, const bool isReuseSource, const bool isInplace,
                                          uint32_t &maxValue, uint32_t &minValue)
{
    (void)typeSizeT;
    (void)typeSizeU;
    (void)isReuseSource;
    (void)isInplace;
    const uint64_t ab = (uint64_t)srcShape.GetDim(srcShape.GetDimNum() - 1);
    minValue = maxValue = (uint32_t)(2 * ((ab + 7) / 8 * 8) * 4);
}
inline void GetWelfordFinalizeMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize,
                                            const bool isReuseSource, uint32_t &maxValue, uint32_t &minValue)
{
    (void)typeSize;
    (void)isReuseSource;
    const uint64_t ab = (uint64_t)srcShape.GetShapeSize();
    minValue = maxValue = (uint32_t)((3 * ((ab + 7) / 8 * 8) + 64) * 4);
}

/* LayerNormGrad / LayerNormGradBeta, shape [B, S, H, originalH]: adv/normalization.h's row kernels' bytes. */
inline void GetLayerNormGradMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize,
                                          const bool isReuseSource, uint32_t &maxValue, uint32_t &minValue)
{
    GetLayerNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}
inline void GetLayerNormGradBetaMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize,
                                              const bool isReuseSource, uint32_t &maxValue, uint32_t &minValue)
{
    GetLayerNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}
/* The rows adv/normalization.h's row kernels take at once from a buffer of `bytes` (0: not even one row). */
inline uint32_t dvac_rows_per_call(uint32_t bytes, uint32_t h, uint32_t bs)
{
    uint32_t r = 0;
    while (r + 8 <= 248 && r < bs && dvac::norm::row_tmp_floats(r + 8, h) * 4 <= bytes)
        r += 8;
    if (r > bs)
        r = bs;
    if (r == 0 && bs < 8 && dvac::norm::row_tmp_floats(bs, h) * 4 <= bytes)
        r = bs;
    return r;
}
template <class TL>
inline void dvac_layernorm_grad_nd(const TensorShape &srcShape, const uint32_t stackBufferSize, TL &t)
{
    const uint32_t b = (uint32_t)srcShape.GetDim(0), s = (uint32_t)srcShape.GetDim(1);
    const uint32_t h = (uint32_t)srcShape.GetDim(2), oh = (uint32_t)srcShape.GetDim(3);
    const uint32_t bs = b * s, rows = dvac_rows_per_call(stackBufferSize, h, bs);
    const float back = oh ? 1.0f / (float)oh : 0.0f, back2 = 2.0f * back;
    t.stackBufferSize = stackBufferSize / 4;
    t.bLength = b;
    t.sLength = s;
    t.hLength = h;
    t.originalHLength = oh;
    t.oneCalSize = rows * h;
    t.nohCalSize = rows;
    t.loopNum = rows ? bs / rows : 0;
    t.tailSize = rows ? bs % rows * h : 0;
    t.nohTailSize = rows ? bs % rows : 0;
    std::memcpy(&t.lastDimValueBack, &back, 4);
    std::memcpy(&t.lastDimValueBackMulTwo, &back2, 4);
}
inline void GetLayerNormGradNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         optiling::LayerNormGradTiling &tiling)
{
    (void)typeSize;
    (void)isReuseSource;
    dvac_layernorm_grad_nd(srcShape, stackBufferSize, tiling);
}
inline void GetLayerNormGradNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         AscendC::tiling::LayerNormGradTiling &tiling)
{
    (void)typeSize;
    (void)isReuseSource;
    dvac_layernorm_grad_nd(srcShape, stackBufferSize, tiling);
}
template <class TL>
inline void dvac_layernorm_grad_beta_nd(const TensorShape &srcShape, const uint32_t stackBufferSize, TL &t)
{
    const uint32_t b = (uint32_t)srcShape.GetDim(0), s = (uint32_t)srcShape.GetDim(1);
    const uint32_t h = (uint32_t)srcShape.GetDim(2), oh = (uint32_t)srcShape.GetDim(3);
    const uint32_t bs = b * s, rows = dvac_rows_per_call(stackBufferSize, h, bs);
    t.stackBufferSize = stackBufferSize / 4;
    t.bLength = b;
    t.sLength = s;
    t.hLength = h;
    t.originalHLength = oh;
    t.bshLength = bs * h;
    t.bsLength = bs;
    t.oneCalSize = rows * h;
    t.numberOfTmpBuf = 1;
    t.loopRound = rows ? bs / rows : 0;
    t.inputTailSize = rows ? bs % rows * h : 0;
    t.inputTailPos = rows ? bs / rows * rows * h : 0;
    t.bsTailSize = rows ? bs % rows : 0;
    t.bshCurLength = rows * h;
    t.bsCurLength = rows;
}
inline void GetLayerNormGradBetaNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             optiling::LayerNormGradBetaTiling &tiling)
{
    (void)typeSize;
    (void)isReuseSource;
    dvac_layernorm_grad_beta_nd(srcShape, stackBufferSize, tiling);
}
inline void GetLayerNormGradBetaNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             AscendC::tiling::LayerNormGradBetaTiling &tiling)
{
    (void)typeSize;
    (void)isReuseSource;
    dvac_layernorm_grad_beta_nd(srcShape, stackBufferSize, tiling);
}

/* DeepNorm, shape [B, S, H] (and its original shape, whose H is the one averaged over). */
inline bool GetDeepNormMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                     const bool isBasicBlock, uint32_t &maxValue, uint32_t &minValue)
{
    (void)typeSize;
    (void)isReuseSource;
    const uint32_t h = (uint32_t)srcShape.GetDim(2);
    const uint64_t bs = (uint64_t)srcShape.GetDim(0) * srcShape.GetDim(1);
    if (srcShape.GetDimNum() != 3 || h == 0 || h % 8 || (isBasicBlock && (h % 64 || bs % 8)))
        return false;
    dvac::norm::row_tmp_bytes(bs, h, maxValue, minValue);
    return true;
}
template <class TL>
inline bool dvac_deepnorm_info(const TensorShape &srcShape, const TensorShape &originSrcShape,
                               const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                               const bool isBasicBlock, TL &tiling)
{
    const uint32_t h = (uint32_t)srcShape.GetDim(2), oh = (uint32_t)originSrcShape.GetDim(2);
    if (srcShape.GetDimNum() != 3 || originSrcShape.GetDimNum() != 3 || h == 0 || h % 8 || oh == 0 || oh > h ||
        (isBasicBlock && h % 64))
        return false;
    dvac::norm::fill_layernorm(tiling, (uint32_t)srcShape.GetDim(0), (uint32_t)srcShape.GetDim(1), h, oh,
                               stackBufferSize, typeSize, isReuseSource);
    return tiling.oneTmpSize != 0;
}
inline bool GetDeepNormTilingInfo(const TensorShape &srcShape, const TensorShape &originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, optiling::DeepNormTiling &tiling)
{
    return dvac_deepnorm_info(srcShape, originSrcShape, stackBufferSize, typeSize, isReuseSource, isBasicBlock,
                              tiling);
}
inline bool GetDeepNormTilingInfo(const TensorShape &srcShape, const TensorShape &originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, AscendC::tiling::DeepNormTiling &tiling)
{
    return dvac_deepnorm_info(srcShape, originSrcShape, stackBufferSize, typeSize, isReuseSource, isBasicBlock,
                              tiling);
}

/* RmsNorm, shape [B, S, H]. */
inline bool GetRmsNormMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, uint32_t &maxValue,
                                    uint32_t &minValue, const bool isBasicBlock = false)
{
    (void)typeSize;
    const uint32_t h = (uint32_t)srcShape.GetDim(srcShape.GetDimNum() - 1);
    const uint64_t bs = h ? (uint64_t)srcShape.GetShapeSize() / h : 0;
    if (h == 0 || h % 8 || (isBasicBlock && (h % 64 || bs % 8)))
        return false;
    dvac::norm::row_tmp_bytes(bs, h, maxValue, minValue);
    return true;
}
template <class TL>
inline bool dvac_rmsnorm_info(const TensorShape &srcShape, const TensorShape &originSrcShape,
                              const uint32_t stackBufferByteSize, const uint32_t typeSize, TL &tiling,
                              const bool isBasicBlock)
{
    (void)typeSize;
    const size_t n = srcShape.GetDimNum();
    if (n < 2 || originSrcShape.GetDimNum() != n)
        return false;
    const uint32_t h = (uint32_t)srcShape.GetDim(n - 1), oh = (uint32_t)originSrcShape.GetDim(n - 1);
    if (h == 0 || h % 8 || oh == 0 || oh > h || (isBasicBlock && h % 64))
        return false;
    const uint32_t bs = (uint32_t)(srcShape.GetShapeSize() / h);
    uint32_t rows = 8;
    while (rows + 8 <= 248 && rows < bs && dvac::norm::row_tmp_floats(rows + 8, h) * 4 <= stackBufferByteSize)
        rows += 8;
    if (rows > bs)
        rows = bs;
    if (dvac::norm::row_tmp_floats(rows, h) * 4 > stackBufferByteSize)
        return false;
    tiling.bLength = n == 3 ? (uint32_t)srcShape.GetDim(0) : 1;
    tiling.sLength = n == 3 ? (uint32_t)srcShape.GetDim(1) : bs;
    tiling.hLength = h;
    tiling.originalHLength = oh;
    tiling.reciprocalOfHLength = 1.0f / (float)oh;
    tiling.mainBshLength = rows * h;
    tiling.mainBsLength = rows;
    tiling.mainBsLengthAlign = (rows + 7) / 8 * 8;
    tiling.loopRound = bs / rows;
    tiling.inputTailPos = bs / rows * rows * h;
    tiling.tailBshLength = bs % rows * h;
    tiling.tailBsLength = bs % rows;
    return true;
}
inline bool GetRmsNormTilingInfo(const TensorShape &srcShape, const TensorShape &originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 optiling::RmsNormTiling &tiling, const bool isBasicBlock = false)
{
    return dvac_rmsnorm_info(srcShape, originSrcShape, stackBufferByteSize, typeSize, tiling, isBasicBlock);
}
inline bool GetRmsNormTilingInfo(const TensorShape &srcShape, const TensorShape &originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 AscendC::tiling::RmsNormTiling &tiling, const bool isBasicBlock = false)
{
    return dvac_rmsnorm_info(srcShape, originSrcShape, stackBufferByteSize, typeSize, tiling, isBasicBlock);
}

/* AscendQuant (per tensor): a half copy of the part being converted; at least two repeats' bytes. */
inline void GetAscendQuantMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, uint32_t &maxValue,
                                        uint32_t &minValue)
{
    (void)typeSize;
    const uint64_t n = (uint64_t)srcShape.GetShapeSize() * 2;
    maxValue = (uint32_t)((n > 512 ? n : 512) + 31) / 32 * 32;
    minValue = 512;
}
/* AscendDequant, shape [m, n]: a float copy of the source and the float scales. */
inline void GetAscendDequantMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, uint32_t &maxValue,
                                          uint32_t &minValue)
{
    (void)typeSize;
    const uint64_t n = (uint64_t)srcShape.GetDim(srcShape.GetDimNum() - 1);
    const uint64_t all = (uint64_t)srcShape.GetShapeSize();
    const uint64_t nAlign = (n + 7) / 8 * 8;
    maxValue = (uint32_t)((all + nAlign) * 4);
    minValue = (uint32_t)((n + nAlign) * 4);
}

} // namespace AscendC

#endif
