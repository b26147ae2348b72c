/* adv/math_tiling.h - Ascend C high-level API, math: the host functions that size the temporary buffers of
 * adv/math.h's APIs (GetXxxMaxMinTmpSize: bytes; GetXxxTmpBufferFactorSize: live float-sized nodes per element
 * and extra bytes).  The figures are CANN's dav-2201 ones (asc-devkit impl/adv_api/tiling/math/<api>_tiling*.cpp,
 * impl/adv_api/tiling/index/arithprogression_tiling_impl.cpp). */
#ifndef DVSIM_ADV_MATH_TILING_H
#define DVSIM_ADV_MATH_TILING_H

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "../register/tilingdata_base.h"
#include "../tiling/shape.h"

namespace dvac {

/* One table row per API: the temporary buffer is `fac` (float, half) times max(elements * typeSize, 256) bytes at
 * most and `fac` times 256 at least. */
struct MathTmpFac {
    uint32_t f32, f16;
};
inline uint32_t math_fac(const MathTmpFac &f, uint32_t typeSize) { return typeSize == 4 ? f.f32 : f.f16; }
inline void math_tmp(const MathTmpFac &f, const AscendC::TensorShape &shape, uint32_t typeSize, uint32_t &maxValue,
                     uint32_t &minValue)
{
    const uint32_t fac = math_fac(f, typeSize), n = (uint32_t)shape.GetShapeSize();
    minValue = fac * 256;
    maxValue = fac * std::max<uint32_t>(n * typeSize, 256);
}

constexpr MathTmpFac MATH_ACOSH = {1, 2}; /* acosh_tiling.cpp: max(fac * n, 256) * typeSize */
constexpr MathTmpFac MATH_CEIL = {1, 2};  /* ceil_tiling_impl.cpp; floor and trunc the same */
constexpr MathTmpFac MATH_ERF = {3, 8};
constexpr MathTmpFac MATH_FRAC = {0, 4};
constexpr MathTmpFac MATH_AXPY = {1, 4};
constexpr MathTmpFac MATH_SINH = {1, 4};
constexpr MathTmpFac MATH_COSH = {2, 6};
constexpr MathTmpFac MATH_TANH = {1, 4};
constexpr MathTmpFac MATH_ATANH = {1, 4};

} // namespace dvac

namespace AscendC {

/* ---- Acosh ---- */
inline void GetAcoshMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t &maxValue, uint32_t &minValue)
{
    (void)isReuseSource;
    const uint32_t fac = dvac::math_fac(dvac::MATH_ACOSH, typeSize), n = (uint32_t)srcShape.GetShapeSize();
    minValue = fac * 256;
    maxValue = std::max<uint32_t>(fac * n, 256) * typeSize;
}
inline void GetAcoshTmpBufferFactorSize(const uint32_t typeSize, uint32_t &maxLiveNodeCount, uint32_t &extraBuf)
{
    extraBuf = 0;
    maxLiveNodeCount = dvac::math_fac(dvac::MATH_ACOSH, typeSize);
}

/* ---- Axpy: none for float sources ---- */
inline void GetAxpyMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                 uint32_t &maxValue, uint32_t &minValue)
{
    (void)isReuseSource;
    if (typeSize == 4) {
        maxValue = minValue = 0;
        return;
    }
    dvac::math_tmp(dvac::MATH_AXPY, srcShape, typeSize, maxValue, minValue);
}
inline void GetAxpyTmpBufferFactorSize(const uint32_t typeSize, uint32_t &maxLiveNodeCount, uint32_t &extraBuf)
{
    extraBuf = 0;
    maxLiveNodeCount = dvac::math_fac(dvac::MATH_AXPY, typeSize);
}

/* ---- Ceil, Floor, Trunc, Erf, Frac, Sinh, Cosh, Tanh, Atanh: the common rule ---- */
#define DVAC_MATH_TMP(Api, fac)                                                                                      \
    inline void Get##Api##MaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize,                       \
                                        const bool isReuseSource, uint32_t &maxValue, uint32_t &minValue)            \
    {                                                                                                                \
        (void)isReuseSource;                                                                                         \
        dvac::math_tmp(fac, srcShape, typeSize, maxValue, minValue);                                                 \
    }                                                                                                                \
    inline void Get##Api##TmpBufferFactorSize(const uint32_t typeSize, uint32_t &maxLiveNodeCount,                   \
                                              uint32_t &extraBuf)                                                    \
    {                                                                                                                \
        extraBuf = 0;                                                                                                \
        maxLiveNodeCount = dvac::math_fac(fac, typeSize);                                                            \
    }
DVAC_MATH_TMP(Ceil, dvac::MATH_CEIL)
DVAC_MATH_TMP(Floor, dvac::MATH_CEIL)
DVAC_MATH_TMP(Trunc, dvac::MATH_CEIL)
DVAC_MATH_TMP(Erf, dvac::MATH_ERF)
DVAC_MATH_TMP(Frac, dvac::MATH_FRAC)
DVAC_MATH_TMP(Sinh, dvac::MATH_SINH)
DVAC_MATH_TMP(Cosh, dvac::MATH_COSH)
DVAC_MATH_TMP(Tanh, dvac::MATH_TANH)
DVAC_MATH_TMP(Atanh, dvac::MATH_ATANH)
#undef DVAC_MATH_TMP

/* ---- Sin: 3 floats per element (2 reusing the source), half 8 halves ---- */
inline void GetSinMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t &maxValue, uint32_t &minValue)
{
    const uint32_t fac = typeSize == 4 ? (isReuseSource ? 2 : 3) : 8;
    minValue = fac * 256;
    maxValue = std::max<uint32_t>((uint32_t)srcShape.GetShapeSize() * fac * typeSize, minValue);
}
inline void GetSinTmpBufferFactorSize(const uint32_t typeSize, uint32_t &maxLiveNodeCount, uint32_t &extraBuf)
{
    extraBuf = 0;
    maxLiveNodeCount = typeSize == 4 ? 3 : 8;
}

/* ---- Cos: as Sin ---- */
inline void GetCosMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t &maxValue, uint32_t &minValue)
{
    GetSinMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}
inline void GetCosTmpBufferFactorSize(const uint32_t typeSize, uint32_t &maxLiveNodeCount, uint32_t &extraBuf)
{
    GetSinTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf);
}

/* ---- ClampMin / ClampMax: one byte per element, at least a repeat's elements ---- */
inline void GetClampMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t &maxValue, uint32_t &minValue)
{
    (void)isReuseSource;
    const uint32_t e = typeSize == 4 ? 64 : 128, n = (uint32_t)srcShape.GetShapeSize();
    minValue = e;
    maxValue = std::max(n, e);
}
inline void GetClampTmpBufferFactorSize(const uint32_t typeSize, uint32_t &maxLiveNodeCount, uint32_t &extraBuf)
{
    (void)typeSize;
    extraBuf = 0;
    maxLiveNodeCount = 1;
}

/* ---- Exp with a Taylor expansion: 4 float buffers for half, 3 for float (2 reusing the source) ---- */
inline bool GetExpMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t &maxValue, uint32_t &minValue)
{
    const uint32_t k = typeSize == 4 ? (isReuseSource ? 2 : 3) : 4, n = (uint32_t)srcShape.GetShapeSize();
    minValue = k * 256;
    maxValue = k * std::max<uint32_t>(n * 4, 256);
    return true;
}
inline void GetExpTmpBufferFactorSize(const uint32_t typeSize, uint32_t &maxLiveNodeCount, uint32_t &extraBuffer)
{
    extraBuffer = 0;
    maxLiveNodeCount = typeSize == 4 ? 3 : 8;
}

/* ---- Fmod: Trunc's, and for half 6 more ---- */
inline void GetFmodMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                 uint32_t &maxValue, uint32_t &minValue)
{
    (void)isReuseSource;
    const uint32_t fac = dvac::math_fac(dvac::MATH_CEIL, typeSize) + (typeSize == 4 ? 0 : 6);
    dvac::math_tmp({fac, fac}, srcShape, typeSize, maxValue, minValue);
}
inline void GetFmodTmpBufferFactorSize(const uint32_t typeSize, uint32_t &maxLiveNodeCount, uint32_t &extraBuf)
{
    extraBuf = 0;
    maxLiveNodeCount = dvac::math_fac(dvac::MATH_CEIL, typeSize) + (typeSize == 4 ? 0 : 6);
}

/* ---- Log, Log10: none; Log2: a float per element for half ---- */
inline void GetLogMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t &maxValue, uint32_t &minValue)
{
    (void)srcShape, (void)typeSize, (void)isReuseSource;
    maxValue = minValue = 0;
}
inline void GetLogTmpBufferFactorSize(const uint32_t typeSize, uint32_t &maxLiveNodeCount, uint32_t &extraBuf)
{
    (void)typeSize;
    extraBuf = maxLiveNodeCount = 0;
}
inline void GetLog10MaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t &maxValue, uint32_t &minValue)
{
    GetLogMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}
inline void GetLog10TmpBufferFactorSize(const uint32_t typeSize, uint32_t &maxLiveNodeCount, uint32_t &extraBuf)
{
    GetLogTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf);
}
inline void GetLog2MaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                 uint32_t &maxValue, uint32_t &minValue)
{
    (void)isReuseSource;
    const uint32_t n = (uint32_t)srcShape.GetShapeSize();
    minValue = typeSize == 2 ? 256 : 0;
    maxValue = typeSize == 2 ? std::max<uint32_t>(n * 4, 256) : 0;
}
inline void GetLog2TmpBufferFactorSize(const uint32_t typeSize, uint32_t &maxLiveNodeCount, uint32_t &extraBuf)
{
    extraBuf = 0;
    maxLiveNodeCount = typeSize == 4 ? 0 : 2;
}

/* ---- Xor: one element of the type per element, at least 256 bytes ---- */
inline void GetXorMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t &maxValue, uint32_t &minValue)
{
    (void)isReuseSource;
    minValue = 256;
    maxValue = std::max<uint32_t>((uint32_t)srcShape.GetShapeSize() * typeSize, minValue);
}
inline void GetXorTmpBufferFactorSize(const uint32_t typeSize, uint32_t &maxLiveNodeCount, uint32_t &extraBuffer)
{
    (void)typeSize;
    extraBuffer = 0;
    maxLiveNodeCount = 1;
}

/* ---- CumSum: [outter, inner]; along the first axis a float per element for half, none for float; the last-axis
 * form's (two transposes of 16 rows) is given as CANN gives it, though dvsim's CumSum does not do that form ---- */
inline void GetCumSumMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isLastAxis,
                                   const bool isReuseSource, uint32_t &maxValue, uint32_t &minValue)
{
    (void)isReuseSource;
    if ((typeSize != 2 && typeSize != 4) || srcShape.GetDimNum() < 2 || srcShape.GetDim(1) <= 0 ||
        srcShape.GetDim(1) * typeSize % 32 != 0) {
        std::fprintf(stderr, "GetCumSumMaxMinTmpSize: half or float [outter, inner] with inner 32-byte aligned\n");
        return;
    }
    const uint32_t outer = (uint32_t)srcShape.GetDim(0), inner = (uint32_t)srcShape.GetDim(1);
    if (!isLastAxis) {
        maxValue = minValue = typeSize == 2 ? outer * inner * 4 : 0;
        return;
    }
    const uint32_t align = (outer + 15) / 16 * 16;
    minValue = (typeSize == 2 ? inner * 16 * 2 : 0) + 16 * inner * typeSize * 2;
    maxValue = (typeSize == 2 ? inner * align * 2 : 0) + align * inner * typeSize * 2;
}

/* ---- Power: CANN's dav-2201 nodes (float 4 tensor ^ tensor, 5 with a scalar; half 14; int32_t 6 / 7) and 256
 * extra bytes for the floating types; dvsim's Power is float only ---- */
inline void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor, const bool typeIsInt,
                                        const uint32_t typeSize, uint32_t &maxLiveNodeCount, uint32_t &extraBuffer)
{
    const bool tt = baseIsTensor && expIsTensor;
    extraBuffer = typeIsInt ? 0 : 256;
    maxLiveNodeCount = typeIsInt ? (tt ? 6 : 7) : typeSize == 4 ? (tt ? 4 : 5) : 14;
}
inline void GetPowerMaxMinTmpSize(const TensorShape &srcShape1, const TensorShape &srcShape2, const bool typeIsInt,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t &maxValue,
                                  uint32_t &minValue)
{
    (void)isReuseSource;
    const auto tensor = [](const TensorShape &s) { return !(s.GetDimNum() == 1 && s.GetDim(0) == 1); };
    const bool t1 = tensor(srcShape1), t2 = tensor(srcShape2);
    const uint32_t n = (uint32_t)(t1 ? srcShape1.GetShapeSize() : srcShape2.GetShapeSize());
    uint32_t nodes, extra;
    GetPowerTmpBufferFactorSize(t1, t2, typeIsInt, typeSize, nodes, extra);
    const bool half = !typeIsInt && typeSize != 4;
    minValue = (half ? 256 * nodes / 2 : 256 * nodes) + extra;
    const uint32_t calc = typeSize == 4 ? std::max<uint32_t>(n * 4, 256) : std::max<uint32_t>(n * typeSize, 128);
    maxValue = calc * nodes + extra;
}

/* ---- Arange / ArithProgression: none ---- */
inline void GetArangeMaxMinTmpSize(uint32_t &maxValue, uint32_t &minValue) { maxValue = minValue = 0; }
inline void GetArithProgressionMaxMinTmpSize(uint32_t &maxValue, uint32_t &minValue)
{
    GetArangeMaxMinTmpSize(maxValue, minValue);
}

} // namespace AscendC

#endif
