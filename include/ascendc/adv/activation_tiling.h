/* adv/activation_tiling.h - Ascend C high-level API, activation (Gelu, Sigmoid, Silu, Swish, SwiGLU, GeGLU, SoftMax
 * and its family): the tiling structs the kernel reads (global namespace and AscendC::tiling, CANN's field order),
 * their host classes (optiling), the shape structs the kernel APIs take, and the host functions that size temporary
 * buffers and fill the tilings (figures from asc-devkit impl/adv_api/tiling/activation/). */
#ifndef DVSIM_ADV_ACTIVATION_TILING_H
#define DVSIM_ADV_ACTIVATION_TILING_H

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../register/tilingdata_base.h"
#include "../tiling/shape.h"

/* X(name): SoftMaxTiling's (and LogSoftMaxTiling's) uint32_t fields in CANN's order
 * (include/adv_api/activation/softmax_tilingdata.h, logsoftmax_tilingdata.h). */
#define DVAC_SOFTMAX_TILING_FIELDS(X)                                                                                \
    X(srcM) X(srcK) X(srcSize) X(outMaxM) X(outMaxK) X(outMaxSize) X(splitM) X(splitK) X(splitSize) X(reduceM)     \
    X(reduceK) X(reduceSize) X(rangeM) X(tailM) X(tailSplitSize) X(tailReduceSize)

namespace optiling {
#define DVAC_SOFTMAX_HOST_FIELD(name) TILING_DATA_FIELD_DEF(uint32_t, name);
BEGIN_TILING_DATA_DEF(SoftMaxTiling)
DVAC_SOFTMAX_TILING_FIELDS(DVAC_SOFTMAX_HOST_FIELD)
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(LogSoftMaxTiling)
DVAC_SOFTMAX_TILING_FIELDS(DVAC_SOFTMAX_HOST_FIELD)
END_TILING_DATA_DEF;
#undef DVAC_SOFTMAX_HOST_FIELD
} // namespace optiling

namespace AscendC {
namespace tiling {
#define DVAC_SOFTMAX_KERNEL_FIELD(name) uint32_t name = 0;
struct SoftMaxTiling {
    DVAC_SOFTMAX_TILING_FIELDS(DVAC_SOFTMAX_KERNEL_FIELD)
};
struct LogSoftMaxTiling {
    DVAC_SOFTMAX_TILING_FIELDS(DVAC_SOFTMAX_KERNEL_FIELD)
};
#undef DVAC_SOFTMAX_KERNEL_FIELD
} // namespace tiling

/* The shape a SoftMax-family call works on (adv_api/activation/softmax_utils.h). */
struct SoftMaxShapeInfo {
    uint32_t srcM{0};
    uint32_t srcK{0};
    uint32_t oriSrcM{0};
    uint32_t oriSrcK{0};
};
struct SoftMaxParams {
    uint32_t srcM{0};
    uint32_t srcK{0};
    uint32_t oriSrcM{0};
    uint32_t oriSrcK{0};
    uint32_t loopCnt{1};
    uint32_t splitMeanCnt{8};
    float alpha{0.9375};
};
enum class SoftmaxMode {
    SOFTMAX_NORMAL = 0,
    SOFTMAX_OUTPUT_WITHOUT_BRC = 1,
};
struct SoftmaxConfig {
    constexpr SoftmaxConfig(const bool isCheckTilingIn) : isCheckTiling(isCheckTilingIn) {}
    constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn)
        : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn)
    {
    }
    constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn,
                            const SoftmaxMode modeIn)
        : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn), mode(modeIn)
    {
    }
    bool isCheckTiling = true;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
    SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

#ifndef ASCC_ENUM_DATAFORMAT
#define ASCC_ENUM_DATAFORMAT
/* CANN's basic-API data format (include/basic_api/kernel_struct_data_copy.h; the same guard). */
enum class DataFormat : uint8_t {
    ND = 0,
    NZ,
    NCHW,
    NC1HWC0,
    NHWC,
    NCDHW,
    NDC1HWC0,
    FRACTAL_Z_3D,
};
#endif

} // namespace AscendC

using AscendC::tiling::LogSoftMaxTiling;
using AscendC::tiling::SoftMaxTiling;

namespace dvac {
namespace act {

/* Elementwise temporary sizes: min = k * 256 bytes, max = k * max(n * typeSize, 256). */
inline void eltwise_tmp(const ge::Shape &s, uint32_t typeSize, uint32_t k, uint32_t &maxValue, uint32_t &minValue)
{
    const uint32_t n = (uint32_t)s.GetShapeSize();
    minValue = k * 256;
    maxValue = k * std::max(n * typeSize, 256u);
}

/* The shape as CANN's softmax tilings see it: srcK the last axis, srcM the rest. */
inline void last_axis(const ge::Shape &s, uint32_t &m, uint32_t &k)
{
    const std::vector<int64_t> d = s.GetDims();
    k = d.empty() ? 0 : (uint32_t)d.back();
    m = k ? (uint32_t)(s.GetShapeSize() / k) : 0;
}

/* SoftMaxTilingFunc's split (impl/adv_api/tiling/activation/softmax_tiling.cpp): baseM rows of perRow floats of
 * the temporary buffer each, then the ND tiling of srcM x srcK. */
template <class Tiling>
constexpr void fill_softmax_tiling(Tiling &t, uint32_t m, uint32_t k, uint32_t typeSize, uint32_t workBytes,
                                uint32_t perRow, bool basicBlockAdjust)
{
    const uint32_t epb = 32 / typeSize;
    uint32_t baseM = perRow ? (workBytes / 4 / perRow < m ? workBytes / 4 / perRow : m) : m;
    if (baseM < m && baseM > 8)
        baseM = baseM / 8 * 8;
    if (basicBlockAdjust && baseM > 8 && m % 8 == 0 && k % 64 == 0) {
        baseM = baseM / 8 * 8;
        while (baseM && m % baseM != 0)
            baseM -= 8;
        while (baseM && baseM * k >= 64 * 256)
            baseM /= 2;
    }
    t.srcM = m;
    t.srcK = k;
    t.srcSize = m * k;
    t.outMaxM = m;
    t.outMaxK = epb;
    t.outMaxSize = m * epb;
    t.splitM = baseM;
    t.splitK = k;
    t.splitSize = baseM * k;
    t.reduceM = baseM;
    t.reduceK = epb;
    t.reduceSize = baseM * epb;
    t.rangeM = baseM ? m / baseM : 0;
    t.tailM = baseM ? m % baseM : 0;
    t.tailSplitSize = t.tailM * k;
    t.tailReduceSize = t.tailM * epb;
}

/* optiling classes are filled through the kernel struct of the same fields. */
template <class Host> inline void to_host(Host &h, const AscendC::tiling::SoftMaxTiling &t)
{
#define DVAC_SOFTMAX_COPY(name) h.set_##name(t.name);
    DVAC_SOFTMAX_TILING_FIELDS(DVAC_SOFTMAX_COPY)
#undef DVAC_SOFTMAX_COPY
}

} // namespace act
} // namespace dvac

namespace AscendC {

/* ---- elementwise activations (impl/adv_api/tiling/activation/: gelu_tiling_impl.cpp, sigmoid_tiling_impl.cpp,
 * silu_tiling.cpp, swish_tiling.cpp, swiglu_tiling.cpp, geglu_tiling.cpp) ---- */
inline uint32_t GetGeluMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize)
{
    (void)srcShape;
    (void)typeSize;
    return 3 * 256;
}
inline uint32_t GetGeluMaxTmpSize(const TensorShape &srcShape, const uint32_t typeSize)
{
    const uint32_t mx = 3 * (uint32_t)srcShape.GetShapeSize() * 4;
    return std::max(GetGeluMinTmpSize(srcShape, typeSize), mx);
}
inline void GetGeluMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, uint32_t &maxValue,
                                 uint32_t &minValue)
{
    maxValue = GetGeluMaxTmpSize(srcShape, typeSize);
    minValue = GetGeluMinTmpSize(srcShape, typeSize);
}
inline void GetSigmoidMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, bool isReuseSource,
                                    uint32_t &maxValue, uint32_t &minValue)
{
    (void)isReuseSource;
    dvac::act::eltwise_tmp(srcShape, typeSize, 1, maxValue, minValue);
}
/* Silu and Swish compute in dst: no temporary buffer. */
inline void GetSiluTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                           uint32_t &maxValue, uint32_t &minValue)
{
    (void)srcShape;
    (void)typeSize;
    (void)isReuseSource;
    maxValue = minValue = 0;
}
inline void GetSwishTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                            uint32_t &maxValue, uint32_t &minValue)
{
    GetSiluTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}
/* SwiGLU: float none, half 6 x (three float copies of a piece). */
inline void GetSwiGLUMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, uint32_t &maxValue,
                                   uint32_t &minValue, const bool isReuseSource)
{
    (void)isReuseSource;
    dvac::act::eltwise_tmp(srcShape, typeSize, typeSize == 4 ? 0 : 6, maxValue, minValue);
}
inline void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t &maxLiveNodeCount, uint32_t &extraBuffer)
{
    extraBuffer = 0;
    maxLiveNodeCount = typeSize == 4 ? 0 : 6;
}
/* GeGLU: float none, half 4 x (two float copies of a piece). */
inline void GetGeGLUMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t &maxValue, uint32_t &minValue)
{
    (void)isReuseSource;
    dvac::act::eltwise_tmp(srcShape, typeSize, typeSize == 4 ? 0 : 4, maxValue, minValue);
}
inline void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t &maxLiveNodeCount, uint32_t &extraBuf)
{
    extraBuf = 0;
    maxLiveNodeCount = typeSize == 4 ? 0 : 4;
}

/* ---- the SoftMax family (impl/adv_api/tiling/activation/softmax_tiling.cpp, logsoftmax_tiling.cpp; the dav-2201
 * branch): temporary floats a row, with e = 32 / dataTypeSize ---- */
namespace dvac_softmax {
inline uint32_t rows_of(const TensorShape &s)
{
    uint32_t m = 0, k = 0;
    dvac::act::last_axis(s, m, k);
    return m;
}
inline uint32_t k_of(const TensorShape &s)
{
    uint32_t m = 0, k = 0;
    dvac::act::last_axis(s, m, k);
    return k;
}
/* SoftMax, LogSoftMax: e + K + 64 a row. */
inline uint32_t per_row(const TensorShape &s, uint32_t typeSize) { return 32 / typeSize + k_of(s) + 64; }
/* SoftmaxGrad: half 2e + 3K + 64; float e + K + 64 (front) or 2e + K + 64. */
inline uint32_t grad_per_row(const TensorShape &s, uint32_t typeSize, bool isFront)
{
    const uint32_t e = 32 / typeSize, k = k_of(s);
    return typeSize == 2 ? 2 * e + 3 * k + 64 : (isFront ? e + k + 64 : 2 * e + k + 64);
}
/* SoftmaxFlashV2 (not basic block): half 2e + K + 64, float e + 64. */
inline uint32_t flash2_per_row(const TensorShape &s, uint32_t typeSize1, uint32_t typeSize2)
{
    const uint32_t e = 32 / typeSize2;
    return typeSize1 == 2 ? 2 * e + k_of(s) + 64 : e + 64;
}
} // namespace dvac_softmax

inline uint32_t GetSoftMaxMaxTmpSize(const TensorShape &srcShape, const uint32_t dataTypeSize,
                                     const bool isReuseSource)
{
    (void)isReuseSource;
    return dvac_softmax::rows_of(srcShape) * dvac_softmax::per_row(srcShape, dataTypeSize) * 4;
}
inline uint32_t GetSoftMaxMinTmpSize(const TensorShape &srcShape, const uint32_t dataTypeSize,
                                     const bool isReuseSource)
{
    (void)isReuseSource;
    return dvac_softmax::per_row(srcShape, dataTypeSize) * 4;
}
inline void SoftMaxTilingFunc(const TensorShape &srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, AscendC::tiling::SoftMaxTiling &softmaxTiling)
{
    uint32_t m = 0, k = 0;
    dvac::act::last_axis(srcShape, m, k);
    softmaxTiling = {};
    dvac::act::fill_softmax_tiling(softmaxTiling, m, k, dataTypeSize, localWorkSpaceSize,
                                   dvac_softmax::per_row(srcShape, dataTypeSize), true);
}
inline void SoftMaxTilingFunc(const TensorShape &srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling &softmaxTiling)
{
    AscendC::tiling::SoftMaxTiling t;
    SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
    dvac::act::to_host(softmaxTiling, t);
}
inline uint32_t GetLogSoftMaxMaxTmpSize(const TensorShape srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource)
{
    return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline uint32_t GetLogSoftMaxMinTmpSize(const TensorShape srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource)
{
    return GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline void LogSoftMaxTilingFunc(const TensorShape srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, AscendC::tiling::LogSoftMaxTiling &softmaxTiling)
{
    uint32_t m = 0, k = 0;
    dvac::act::last_axis(srcShape, m, k);
    softmaxTiling = {};
    dvac::act::fill_softmax_tiling(softmaxTiling, m, k, dataTypeSize, localWorkSpaceSize,
                                   dvac_softmax::per_row(srcShape, dataTypeSize), true);
}
inline void LogSoftMaxTilingFunc(const TensorShape srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, optiling::LogSoftMaxTiling &softmaxTiling)
{
    AscendC::tiling::LogSoftMaxTiling t;
    LogSoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
#define DVAC_SOFTMAX_COPY(name) softmaxTiling.set_##name(t.name);
    DVAC_SOFTMAX_TILING_FIELDS(DVAC_SOFTMAX_COPY)
#undef DVAC_SOFTMAX_COPY
}
inline uint32_t GetSoftMaxGradMaxTmpSize(const TensorShape &srcShape, const uint32_t dataTypeSize,
                                         const bool isFront, const bool isReuseSource)
{
    (void)isReuseSource;
    return dvac_softmax::rows_of(srcShape) * dvac_softmax::grad_per_row(srcShape, dataTypeSize, isFront) * 4;
}
inline uint32_t GetSoftMaxGradMinTmpSize(const TensorShape &srcShape, const uint32_t dataTypeSize,
                                         const bool isFront, const bool isReuseSource)
{
    (void)isReuseSource;
    return dvac_softmax::grad_per_row(srcShape, dataTypeSize, isFront) * 4;
}
inline void SoftMaxGradTilingFunc(const TensorShape &srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, AscendC::tiling::SoftMaxTiling &softmaxGradTiling,
                                  const bool isFront = false)
{
    uint32_t m = 0, k = 0;
    dvac::act::last_axis(srcShape, m, k);
    softmaxGradTiling = {};
    dvac::act::fill_softmax_tiling(softmaxGradTiling, m, k, dataTypeSize, localWorkSpaceSize,
                                   dvac_softmax::grad_per_row(srcShape, dataTypeSize, isFront), true);
}
inline void SoftMaxGradTilingFunc(const TensorShape &srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling &softmaxGradTiling,
                                  const bool isFront = false)
{
    AscendC::tiling::SoftMaxTiling t;
    SoftMaxGradTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t, isFront);
    dvac::act::to_host(softmaxGradTiling, t);
}
/* The basic-block path needs whole rows of 64-element multiples below 2048 bytes... as CANN states it. */
inline bool IsBasicBlockInSoftMax(AscendC::tiling::SoftMaxTiling &tiling, const uint32_t dataTypeSize = 2)
{
    if (dataTypeSize == 0)
        return false;
    return tiling.tailM == 0 && tiling.srcK >= 256 / dataTypeSize && tiling.srcK < 2048 && tiling.srcK % 64 == 0;
}
inline bool IsBasicBlockInSoftMax(optiling::SoftMaxTiling &tiling, const uint32_t dataTypeSize = 2)
{
    AscendC::tiling::SoftMaxTiling t;
    t.srcK = tiling.get_srcK();
    t.tailM = tiling.get_tailM();
    return IsBasicBlockInSoftMax(t, dataTypeSize);
}
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const TensorShape &srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false)
{
    (void)isUpdate;
    (void)isFlashOutputBrc;
    const uint32_t k = dvac_softmax::k_of(srcShape), e = 32 / dataTypeSize2;
    if (isBasicBlock && k % 64 == 0) {
        const uint32_t wide = k == 1024 ? 128 : 64;
        return 8 * (dataTypeSize1 == 2 ? e + k + wide : e + wide) * 4;
    }
    return dvac_softmax::flash2_per_row(srcShape, dataTypeSize1, dataTypeSize2) * 4;
}
inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const TensorShape &srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false)
{
    (void)isUpdate;
    (void)isFlashOutputBrc;
    uint32_t m = dvac_softmax::rows_of(srcShape);
    const uint32_t k = dvac_softmax::k_of(srcShape), e = 32 / dataTypeSize2;
    if (isBasicBlock && k % 64 == 0 && m % 8 == 0) {
        while (m && m * k >= 64 * 256)
            m /= 2;
        const uint32_t wide = k == 1024 ? 128 : 64;
        return m * (dataTypeSize1 == 2 ? e + k + wide : e + wide) * 4;
    }
    return m * dvac_softmax::flash2_per_row(srcShape, dataTypeSize1, dataTypeSize2) * 4;
}
inline void SoftMaxFlashV2TilingFunc(const TensorShape &srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     AscendC::tiling::SoftMaxTiling &softmaxFlashTiling, const bool isUpdate,
                                     const bool isBasicBlock = false, const bool isFlashOutputBrc = false)
{
    (void)isUpdate;
    (void)isFlashOutputBrc;
    uint32_t m = 0, k = 0;
    dvac::act::last_axis(srcShape, m, k);
    const uint32_t e = 32 / dataTypeSize2;
    const bool basic = isBasicBlock && k % 64 == 0 && m % 8 == 0;
    const uint32_t wide = basic && k == 1024 ? 128 : 64;
    const uint32_t per = basic ? (dataTypeSize1 == 2 ? e + k + wide : e + wide)
                               : dvac_softmax::flash2_per_row(srcShape, dataTypeSize1, dataTypeSize2);
    softmaxFlashTiling = {};
    dvac::act::fill_softmax_tiling(softmaxFlashTiling, m, k, dataTypeSize2, localWorkSpaceSize, per, basic);
}
inline void SoftMaxFlashV2TilingFunc(const TensorShape &srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     optiling::SoftMaxTiling &softmaxFlashTiling, const bool isUpdate,
                                     const bool isBasicBlock = false, const bool isFlashOutputBrc = false)
{
    AscendC::tiling::SoftMaxTiling t;
    SoftMaxFlashV2TilingFunc(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, t, isUpdate, isBasicBlock,
                             isFlashOutputBrc);
    dvac::act::to_host(softmaxFlashTiling, t);
}
/* The kernel-side form (adv_api/activation/softmaxflashv2.h): the same split from a SoftMaxShapeInfo. */
constexpr AscendC::tiling::SoftMaxTiling SoftMaxFlashV2TilingFunc(
    const SoftMaxShapeInfo &shapeInfo, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
    const uint32_t localWorkSpaceSize, const bool isUpdate = false, const bool isBasicBlock = false,
    const bool isDataFormatNZ = false, const bool isFlashOutputBrc = false)
{
    (void)isUpdate;
    (void)isDataFormatNZ;
    (void)isFlashOutputBrc;
    const uint32_t m = shapeInfo.srcM, k = shapeInfo.srcK, e = 32 / dataTypeSize2;
    const bool basic = isBasicBlock && k % 64 == 0 && m % 8 == 0;
    const uint32_t wide = basic && k == 1024 ? 128 : 64;
    const uint32_t per = basic ? (dataTypeSize1 == 2 ? e + k + wide : e + wide)
                               : (dataTypeSize1 == 2 ? 2 * e + k + 64 : e + 64);
    AscendC::tiling::SoftMaxTiling t{};
    dvac::act::fill_softmax_tiling(t, m, k, dataTypeSize2, localWorkSpaceSize, per, basic);
    return t;
}

} // namespace AscendC

#endif
