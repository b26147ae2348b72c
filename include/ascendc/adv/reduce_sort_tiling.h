/* adv/reduce_sort_tiling.h - Ascend C high-level API, reduction, sort and filter: the host functions that
 * size the temporary buffers of Sum, ReduceMax / ReduceMin / ReduceSum, Select (with a byte mask) and
 * DropOut, and the Sort sizing functions, with CANN's signatures and figures
 * (asc-devkit impl/adv_api/tiling/{reduce,select,filter,sort}/...).  A refused input prints
 * "[Api][Function] reason" on stderr, as CANN logs it, and writes 0 to the sizes (CANN leaves them as
 * they were, which a caller that never initialised them reads as garbage). */
#ifndef DVSIM_ADV_REDUCE_SORT_TILING_H
#define DVSIM_ADV_REDUCE_SORT_TILING_H

#include <cstdint>
#include <cstdio>
#include <vector>

#include "../register/tilingdata_base.h"
#include "../tiling/platform/platform_ascendc.h"
#include "../tiling/shape.h"

/* X(type, name): TopkTiling's fields in CANN's order (include/adv_api/sort/topk_tilingdata.h). */
#define DVAC_TOPK_TILING_FIELDS(X)                                                                                   \
    X(int32_t, tmpLocalSize) X(int32_t, allDataSize) X(int32_t, innerDataSize) X(uint32_t, sortRepeat)              \
    X(int32_t, mrgSortRepeat) X(int32_t, kAlignFourBytes) X(int32_t, kAlignTwoBytes) X(int32_t, maskOffset)         \
    X(int32_t, maskVreducev2FourBytes) X(int32_t, maskVreducev2TwoBytes) X(int32_t, mrgSortSrc1offset)              \
    X(int32_t, mrgSortSrc2offset) X(int32_t, mrgSortSrc3offset) X(int32_t, mrgSortTwoQueueSrc1Offset)               \
    X(int32_t, mrgFourQueueTailPara1) X(int32_t, mrgFourQueueTailPara2) X(int32_t, srcIndexOffset)                  \
    X(uint32_t, copyUbToUbBlockCount) X(int32_t, topkMrgSrc1MaskSizeOffset) X(int32_t, topkNSmallSrcIndexOffset)    \
    X(uint32_t, vreduceValMask0) X(uint32_t, vreduceValMask1) X(uint32_t, vreduceIdxMask0)                          \
    X(uint32_t, vreduceIdxMask1) X(uint16_t, vreducehalfValMask0) X(uint16_t, vreducehalfValMask1)                  \
    X(uint16_t, vreducehalfValMask2) X(uint16_t, vreducehalfValMask3) X(uint16_t, vreducehalfValMask4)              \
    X(uint16_t, vreducehalfValMask5) X(uint16_t, vreducehalfValMask6) X(uint16_t, vreducehalfValMask7)

namespace AscendC {
namespace tiling {
/* TopK's tiling as the kernel reads it (TopKTilingFunc fills it on the host). */
struct TopkTiling {
#define DVAC_TOPK_MEMBER(type, name) type name = 0;
    DVAC_TOPK_TILING_FIELDS(DVAC_TOPK_MEMBER)
#undef DVAC_TOPK_MEMBER
};
} // namespace tiling
} // namespace AscendC
using AscendC::tiling::TopkTiling;

namespace optiling {
/* The host class of the same fields (set_<field>, get_<field>, SaveToBuffer). */
BEGIN_TILING_DATA_DEF(TopkTiling)
#define DVAC_TOPK_FIELD(type, name) TILING_DATA_FIELD_DEF(type, name);
DVAC_TOPK_TILING_FIELDS(DVAC_TOPK_FIELD)
#undef DVAC_TOPK_FIELD
END_TILING_DATA_DEF;
} // namespace optiling

namespace AscendC {

/* The reduce patterns the host functions take (include/adv_api/reduce/reduce_tiling.h). */
#ifndef DVAC_ENUM_REDUCEPATTERN /* also in adv/normalization.h */
#define DVAC_ENUM_REDUCEPATTERN
enum class ReducePattern : uint32_t {
    AR = 0, RA = 1, R, ARA, ARAR, ARARA, ARARAR, ARARARA, ARARARAR, ARARARARA, RAR, RARA, RARAR, RARARA, RARARAR,
    RARARARA,
};
#endif

/* Sort's configuration (include/adv_api/sort/sort_utils.h, sort_tiling_intf.h). */
enum class SortType { RADIX_SORT, MERGE_SORT };
#ifndef ASCC_STRUCT_SORTCONFIG
#define ASCC_STRUCT_SORTCONFIG
struct SortConfig {
    SortType type = SortType::RADIX_SORT;
    bool isDescend = false;
    bool hasSrcIndex = false;
    bool hasDstIndex = false;
};
#endif

namespace rs_host {

inline bool refuse(const char *api, const char *fn, const char *why, uint32_t &maxValue, uint32_t &minValue)
{
    std::fprintf(stderr, "[%s][%s] %s\n", api, fn, why);
    maxValue = minValue = 0;
    return false;
}
inline uint32_t type_size(TensorDataType t)
{
    switch (t) {
    case ge::DT_FLOAT: case ge::DT_INT32: case ge::DT_UINT32: return 4;
    case ge::DT_FLOAT16: case ge::DT_BF16: case ge::DT_INT16: case ge::DT_UINT16: return 2;
    case ge::DT_INT64: case ge::DT_UINT64: return 8;
    default: return 1;
    }
}
inline uint32_t pow2_below(uint32_t n) /* CANN's FindK: the largest power of two <= n (1 for 0) */
{
    uint32_t k = 1;
    while (n > 1) {
        k <<= 1;
        n >>= 1;
    }
    return k;
}
inline uint32_t align(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

/* ReduceMax / ReduceMin (isSum false, dav-2201: half, float) and ReduceSum (float): the figures of
 * impl/adv_api/tiling/reduce/reduce_tiling.cpp, which are the work elements the kernel uses. */
inline void reduce_tmp(const TensorShape &shape, TensorDataType dt, ReducePattern pattern, bool isSrcInnerPad,
                       bool isReuseSource, uint32_t &maxValue, uint32_t &minValue, bool isSum, const char *api,
                       const char *fn)
{
    if (isSum ? dt != ge::DT_FLOAT : (dt != ge::DT_FLOAT && dt != ge::DT_FLOAT16)) {
        refuse(api, fn, isSum ? "it only supports float type on this platform."
                              : "it only supports float and half type on this platform.", maxValue, minValue);
        return;
    }
    if (shape.GetDimNum() != 2) {
        refuse(api, fn, "srcShape dims must be 2.", maxValue, minValue);
        return;
    }
    if (!isSrcInnerPad) {
        refuse(api, fn, "isSrcInnerPad must be true on this platform.", maxValue, minValue);
        return;
    }
    if (pattern != ReducePattern::AR && pattern != ReducePattern::RA) {
        refuse(api, fn, "Currently only support AR and RA pattern.", maxValue, minValue);
        return;
    }
    const int64_t f = shape.GetDim(0), l = shape.GetDim(1);
    if (f <= 0 || l <= 0) {
        refuse(api, fn, "both first and last axis must be greater than 0.", maxValue, minValue);
        return;
    }
    const uint32_t first = (uint32_t)f, last = (uint32_t)l, size = type_size(dt);
    if (isReuseSource) {
        maxValue = minValue = 0;
        return;
    }
    if (pattern == ReducePattern::AR) {
        const uint32_t epb = 32 / size, E = 256 / size;
        maxValue = minValue = last <= epb ? 0 : last < E ? first * epb * size : first * E * size;
        return;
    }
    uint32_t k = pow2_below(first);
    if (k == first && first > 1)
        k >>= 1;
    maxValue = minValue = k * align(last * size, 32);
}

} // namespace rs_host

/* Sum's work: one 32-byte-aligned slot per repeat of a row (impl/adv_api/tiling/reduce/sum_tiling.cpp). */
inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t &maxSize, uint32_t &minSize)
{
    (void)isReuseSource;
    if (!typeSize || typeSize > 32) {
        rs_host::refuse("Sum", "GetSumMaxMinTmpSize", "The parameter typeSize is not 2 or 4.", maxSize, minSize);
        return;
    }
    if (!n) {
        rs_host::refuse("Sum", "GetSumMaxMinTmpSize", "The parameter n is 0, expected is greater than 0!", maxSize,
                        minSize);
        return;
    }
    const uint32_t epb = 32 / typeSize, E = 256 / typeSize, reps = (n + E - 1) / E;
    maxSize = minSize = (reps + epb - 1) / epb * epb * typeSize;
}

inline void GetReduceMaxMaxMinTmpSize(const TensorShape &srcShape, const TensorDataType dataType,
                                      ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,
                                      uint32_t &maxValue, uint32_t &minValue)
{
    rs_host::reduce_tmp(srcShape, dataType, pattern, isSrcInnerPad, isReuseSource, maxValue, minValue, false,
                        "ReduceMax", "GetReduceMaxMaxMinTmpSize");
}
inline void GetReduceMinMaxMinTmpSize(const TensorShape &srcShape, const TensorDataType dataType,
                                      ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,
                                      uint32_t &maxValue, uint32_t &minValue)
{
    rs_host::reduce_tmp(srcShape, dataType, pattern, isSrcInnerPad, isReuseSource, maxValue, minValue, false,
                        "ReduceMin", "GetReduceMinMaxMinTmpSize");
}
/* ReduceSum: the kernel's own work figure (the block-wise AR path of ReduceMax), not CANN's
 * (its AR ReduceSum runs a different, pairwise sequence with its own buffer). */
inline void GetReduceSumMaxMinTmpSize(const TensorShape &srcShape, const TensorDataType dataType,
                                      ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,
                                      uint32_t &maxValue, uint32_t &minValue)
{
    rs_host::reduce_tmp(srcShape, dataType, pattern, isSrcInnerPad, isReuseSource, maxValue, minValue, true,
                        "ReduceSum", "GetReduceSumMaxMinTmpSize");
}

/* ReduceMean: ReduceSum's work (the mean is a Muls of the sums). */
inline void GetReduceMeanMaxMinTmpSize(const TensorShape &srcShape, const TensorDataType dataType,
                                       ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,
                                       uint32_t &maxValue, uint32_t &minValue)
{
    rs_host::reduce_tmp(srcShape, dataType, pattern, isSrcInnerPad, isReuseSource, maxValue, minValue, true,
                        "ReduceMean", "GetReduceMeanMaxMinTmpSize");
}

namespace rs_host {
/* Select with a byte mask (impl/adv_api/tiling/select/selectwithbytesmask_tiling_impl.cpp): a half
 * run of the source (at most 4096 elements for the minimum) plus 512 bytes, at least 1024; a mask copy
 * when the mask rows are longer and not reused. */
inline uint32_t select_size(const TensorShape &src0, const TensorShape &src1, const TensorShape &mask,
                            uint32_t maskTypeSize, bool isReuseMask, bool isMin)
{
    auto scalar = [](const TensorShape &s) { return s.GetDimNum() == 0 || s.GetShapeSize() == 1; };
    const bool s0 = scalar(src0);
    const int64_t srcSize = s0 ? src1.GetShapeSize() : src0.GetShapeSize();
    const int64_t maskLast = mask.GetDim(mask.GetDimNum() - 1);
    const int64_t srcLast = s0 ? src1.GetDim(src1.GetDimNum() - 1) : src0.GetDim(src0.GetDimNum() - 1);
    const uint32_t cal = (isMin && srcSize > 4096) ? 4096 : (uint32_t)srcSize;
    uint32_t need = align(cal, 32) * 2 + 512;
    if (need < 1024)
        need = 1024;
    if (maskLast != srcLast && !isReuseMask && maskLast > 1)
        need += align((uint32_t)srcSize * maskTypeSize, 32);
    return need;
}
inline bool select_check(const TensorShape &src0, const TensorShape &src1, const TensorShape &mask,
                         uint32_t maskTypeSize, const char *fn)
{
    if (maskTypeSize != 1 && maskTypeSize != 2 && maskTypeSize != 4) {
        std::fprintf(stderr, "[Select][%s] The value of maskTypeSize is %u, should be 1 or 2 or 4.\n", fn,
                     maskTypeSize);
        return false;
    }
    if (src0.GetDimNum() != 2 && src1.GetDimNum() != 2) {
        std::fprintf(stderr, "[Select][%s] one of src0Shape and src1Shape should have 2 dimensions.\n", fn);
        return false;
    }
    if (mask.GetDimNum() != 2) {
        std::fprintf(stderr, "[Select][%s] The dims of maskShape is %zu, should be 2.\n", fn, mask.GetDimNum());
        return false;
    }
    return true;
}
} // namespace rs_host

inline uint32_t GetSelectMinTmpSize(const TensorShape &src0Shape, const TensorShape &src1Shape,
                                    const uint32_t srcTypeSize, const TensorShape &maskShape,
                                    const uint32_t maskTypeSize, const bool isReuseMask)
{
    (void)srcTypeSize;
    if (!rs_host::select_check(src0Shape, src1Shape, maskShape, maskTypeSize, "GetSelectMinTmpSize"))
        return 0;
    return rs_host::select_size(src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, true);
}
inline uint32_t GetSelectMaxTmpSize(const TensorShape &src0Shape, const TensorShape &src1Shape,
                                    const uint32_t srcTypeSize, const TensorShape &maskShape,
                                    const uint32_t maskTypeSize, const bool isReuseMask)
{
    (void)srcTypeSize;
    if (!rs_host::select_check(src0Shape, src1Shape, maskShape, maskTypeSize, "GetSelectMaxTmpSize"))
        return 0;
    return rs_host::select_size(src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, false);
}
inline void GetSelectMaxMinTmpSize(const TensorShape &src0Shape, const TensorShape &src1Shape,
                                   const uint32_t srcTypeSize, const TensorShape &maskShape,
                                   const uint32_t maskTypeSize, const bool isReuseMask, uint32_t &maxValue,
                                   uint32_t &minValue)
{
    maxValue = GetSelectMaxTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
    minValue = GetSelectMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
inline uint32_t GetSelectWithBytesMaskMinTmpSize(const TensorShape &src0Shape, const TensorShape &src1Shape,
                                                 const uint32_t srcTypeSize, const TensorShape &maskShape,
                                                 const uint32_t maskTypeSize, const bool isReuseMask)
{
    return GetSelectMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
inline uint32_t GetSelectWithBytesMaskMaxTmpSize(const TensorShape &src0Shape, const TensorShape &src1Shape,
                                                 const uint32_t srcTypeSize, const TensorShape &maskShape,
                                                 const uint32_t maskTypeSize, const bool isReuseMask)
{
    return GetSelectMaxTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
inline void GetSelectWithBytesMaskMaxMinTmpSize(const TensorShape &src0Shape, const TensorShape &src1Shape,
                                                const uint32_t srcTypeSize, const TensorShape &maskShape,
                                                const uint32_t maskTypeSize, const bool isReuseMask,
                                                uint32_t &maxValue, uint32_t &minValue)
{
    GetSelectMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask, maxValue,
                           minValue);
}

/* DropOut (impl/adv_api/tiling/filter/dropout_tiling_impl.cpp): at least two repeats (512 bytes), at
 * most two floats per source element. */
inline uint32_t GetDropOutMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource)
{
    (void)isReuseSource;
    if ((typeSize != 2 && typeSize != 4) || srcShape.GetDimNum() == 0)
        std::fprintf(stderr, "[DropOut][GetDropOutMinTmpSize] typeSize %u should be 2 or 4 and srcShape should "
                     "have dimensions.\n", typeSize);
    return 2 * 256;
}
inline uint32_t GetDropOutMaxTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource)
{
    const uint32_t minValue = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
    uint32_t n = 1;
    for (int64_t d : srcShape.GetDims())
        n *= (uint32_t)d;
    const uint32_t maxValue = 2 * n * (uint32_t)sizeof(float);
    return minValue > maxValue ? minValue : maxValue;
}
inline void GetDropOutMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, const bool isReuseSource,
                                    uint32_t &maxValue, uint32_t &minValue)
{
    maxValue = GetDropOutMaxTmpSize(srcShape, typeSize, isReuseSource);
    minValue = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
}

/* TopK's modes (include/adv_api/sort/topk_utils_constants.h): NORMAL (any inner up to 4096) and NSMALL
 * (inner 32). */
enum class TopKMode { TOPK_NORMAL, TOPK_NSMALL };
enum class TopKAlgo { RADIX_SELECT, MERGE_SORT };
enum class TopKOrder { UNSET, LARGEST, SMALLEST };
struct TopKConfig {
    TopKAlgo algo = TopKAlgo::MERGE_SORT;
    TopKOrder order = TopKOrder::UNSET;
    bool sorted = true;
};
inline constexpr TopKConfig defaultTopKConfig = {TopKAlgo::MERGE_SORT, TopKOrder::UNSET, true};

namespace rs_host {
inline bool topk_check(const platform_ascendc::PlatformAscendC &p, int32_t inner, int32_t outter, TopKMode mode,
                       uint32_t dataTypeSize, const char *fn)
{
    const char *why = nullptr;
    uint64_t ub = 0;
    p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    if (inner <= 0 || inner % 32)
        why = "The length of the inner axis must be a positive multiple of 32!";
    else if (mode == TopKMode::TOPK_NSMALL && inner != 32)
        why = "In Small mode, the length of the inner axis must be 32!";
    else if (mode == TopKMode::TOPK_NORMAL && inner > 4096)
        why = "The maximum value supported by inner is 4096.";
    else if (outter <= 0)
        why = "The length of the outter axis must be greater than 0!";
    else if (dataTypeSize != 2 && dataTypeSize != 4)
        why = "The type size must be 2 or 4!";
    else if ((uint64_t)inner * (uint64_t)outter * dataTypeSize > ub)
        why = "The input is larger than UB!";
    if (why)
        std::fprintf(stderr, "[TopK][%s] %s\n", fn, why);
    return !why;
}
/* The work dvsim's TopK uses, in bytes: two runs of 8-byte records of a row and, without isInitIndex, the
 * row's indices 0..inner-1 (CANN's dav-2201 NORMAL figure; NSMALL rows run the same way). */
inline uint32_t topk_work(int32_t inner, bool isInitIndex)
{
    return 16u * (uint32_t)inner + (isInitIndex ? 0u : 4u * (uint32_t)inner);
}
} // namespace rs_host

/* TopK's work (impl/adv_api/tiling/sort/topk_tiling_impl.cpp, dav-2201): NORMAL (16 + 4) * inner bytes
 * (16 * inner with isInitIndex); NSMALL CANN's figure for its all-rows sequence, at least dvsim's per-row
 * work. */
inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC &ascendcPlatform, const int32_t inner,
                                 const int32_t outter, const bool isReuseSource, const bool isInitIndex,
                                 enum TopKMode mode, const bool isLargest, const uint32_t dataTypeSize,
                                 uint32_t &maxValue, uint32_t &minValue)
{
    (void)isReuseSource;
    if (!rs_host::topk_check(ascendcPlatform, inner, outter, mode, dataTypeSize, "GetTopKMaxMinTmpSize")) {
        maxValue = minValue = 0;
        return false;
    }
    uint32_t need = rs_host::topk_work(inner, isInitIndex);
    if (mode == TopKMode::TOPK_NSMALL) {
        const uint32_t all = (uint32_t)inner * (uint32_t)outter;
        uint32_t cann = all * 8 + 64 + (isLargest ? 0 : all * 4) + (isInitIndex ? 0 : all * 4);
        if (cann > need)
            need = cann;
    }
    maxValue = minValue = need;
    return true;
}

namespace rs_host {
template <class Tiling>
inline bool topk_tiling(const platform_ascendc::PlatformAscendC &p, int32_t inner, int32_t outter, int32_t k,
                        uint32_t dataTypeSize, bool isInitIndex, TopKMode mode, bool isLargest, Tiling &t)
{
    if (!topk_check(p, inner, outter, mode, dataTypeSize, "TopKTilingFunc"))
        return false;
    if (k < 1 || k > inner) {
        std::fprintf(stderr, "[TopK][TopKTilingFunc] k %d must be in [1, inner = %d]\n", k, inner);
        return false;
    }
    t = Tiling();
    const int32_t ka4 = (k + 7) / 8 * 8, ka2 = (k + 15) / 16 * 16, rec = 8 / (int32_t)dataTypeSize;
    t.allDataSize = inner * outter;
    t.kAlignFourBytes = ka4;
    t.kAlignTwoBytes = ka2;
    t.maskVreducev2FourBytes = 2 * k;
    t.maskVreducev2TwoBytes = 4 * k;
    t.sortRepeat = (uint32_t)inner / 32;
    if (mode == TopKMode::TOPK_NORMAL) { /* SetTopkNormalVal */
        t.innerDataSize = inner * rec;
        t.copyUbToUbBlockCount = (uint32_t)inner * 8 / 32;
        t.mrgSortRepeat = inner / 4;
        t.maskOffset = outter * (dataTypeSize == 2 ? ka2 : ka4);
        t.mrgSortSrc1offset = rec;
        t.mrgSortSrc2offset = 2 * rec;
        t.mrgSortSrc3offset = 3 * rec;
        t.mrgSortTwoQueueSrc1Offset = rec;
        t.mrgFourQueueTailPara1 = inner * 2;
        t.mrgFourQueueTailPara2 = 4 / (int32_t)dataTypeSize;
        t.tmpLocalSize = 2 * inner * rec;
        if (!isInitIndex) {
            t.srcIndexOffset = 2 * inner * rec;
            t.tmpLocalSize = 2 * inner * rec + inner * 4 / (int32_t)dataTypeSize;
        }
    } else { /* SetTopkNSmallVal, with GetVreduceMask's GatherMask patterns */
        const int32_t all = inner * outter, data = all * rec;
        t.innerDataSize = data;
        t.maskOffset = outter * k;
        const int32_t m1 = data + (isLargest ? 0 : all);
        t.topkMrgSrc1MaskSizeOffset = m1;
        t.tmpLocalSize = m1 + 64 / (int32_t)dataTypeSize;
        if (!isInitIndex) {
            t.topkNSmallSrcIndexOffset = m1 + 64 / (int32_t)dataTypeSize;
            t.tmpLocalSize = t.topkNSmallSrcIndexOffset + all * 4 / (int32_t)dataTypeSize;
        }
        auto rep = [](uint32_t unit, uint32_t width, int32_t n) { /* `unit` repeated n times, `width` bits apart */
            uint32_t m = 0;
            for (int32_t i = 0; i < n; i++)
                m = m << width | unit;
            return m;
        };
        t.vreduceIdxMask0 = k < 17 ? rep(2, 2, k) : rep(2, 2, 16);
        t.vreduceIdxMask1 = k < 17 ? 0 : rep(2, 2, k - 16);
        if (dataTypeSize == 4) {
            t.vreduceValMask0 = k < 17 ? rep(1, 2, k) : rep(1, 2, 16);
            t.vreduceValMask1 = k < 17 ? 0 : rep(1, 2, k - 16);
        } else {
            uint16_t *h[8] = {&t.vreducehalfValMask0, &t.vreducehalfValMask1, &t.vreducehalfValMask2,
                              &t.vreducehalfValMask3, &t.vreducehalfValMask4, &t.vreducehalfValMask5,
                              &t.vreducehalfValMask6, &t.vreducehalfValMask7};
            for (int32_t i = 0; i < 8; i++) {
                const int32_t n = k - 4 * i;
                *h[i] = n <= 0 ? 0 : (uint16_t)rep(1, 4, n > 4 ? 4 : n);
            }
        }
    }
    return true;
}
} // namespace rs_host

/* TopK's tiling: CANN's dav-2201 field values (topk_tiling_impl.cpp, SetTopkNormalVal / SetTopkNSmallVal).
 * dvsim's kernel takes its layout from TopKInfo and k and reads none of them. */
inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC &ascendcPlatform, const int32_t inner,
                           const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                           enum TopKMode mode, const bool isLargest, optiling::TopkTiling &topKTiling)
{
    return rs_host::topk_tiling(ascendcPlatform, inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest,
                                topKTiling);
}
inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC &ascendcPlatform, const int32_t inner,
                           const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                           enum TopKMode mode, const bool isLargest, AscendC::tiling::TopkTiling &topKTiling)
{
    return rs_host::topk_tiling(ascendcPlatform, inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest,
                                topKTiling);
}

/* The basic sort's sizes on dav-2201 (sort_tiling_impl.cpp): Concat needs no buffer (concat is its
 * source), Sort's records take 8 bytes per element (2 floats or 4 halves). */
inline uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC &ascendcPlatform, const uint32_t elemCount,
                                 const uint32_t dataTypeSize)
{
    (void)ascendcPlatform, (void)elemCount, (void)dataTypeSize;
    return 0;
}
inline uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC &ascendcPlatform, const uint32_t elemCount,
                               const uint32_t dataTypeSize)
{
    (void)ascendcPlatform;
    if (!elemCount || (dataTypeSize != 2 && dataTypeSize != 4)) {
        std::fprintf(stderr, "[Sort][GetSortTmpSize] elemCount %u must be positive and the type size %u 2 or 4.\n",
                     elemCount, dataTypeSize);
        return 0;
    }
    return elemCount * (dataTypeSize == 4 ? 2u : 4u) * dataTypeSize;
}

/* The advanced Sort (Sort<T, isReuseSource, config>) exists on dav-3510 only: on dav-2201 CANN's
 * GetSortMaxMinTmpSize refuses ("Unsupported NpuArch for Sort API."; impl/adv_api/tiling/sort/
 * sort_tiling_impl.cpp), and so does dvsim's, writing 0. */
inline void GetSortMaxMinTmpSize(const TensorShape &srcShape, TensorDataType valueType, TensorDataType indexType,
                                 bool isReuseSource, const SortConfig &config, uint32_t &maxValue,
                                 uint32_t &minValue)
{
    (void)srcShape, (void)valueType, (void)indexType, (void)isReuseSource, (void)config;
    rs_host::refuse("Sort", "GetSortMaxMinTmpSize", "Unsupported NpuArch for Sort API.", maxValue, minValue);
}

} // namespace AscendC

#endif
