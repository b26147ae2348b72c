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
#include "../tiling/shape.h"

namespace AscendC {

/* The reduce patterns the host functions take (include/adv_api/reduce/reduce_tiling.h). */
enum class ReducePattern : uint32_t {
    AR = 0, RA = 1, R, ARA, ARAR, ARARA, ARARAR, ARARARA, ARARARAR, ARARARARA, RAR, RARA, RARAR, RARARA, RARARAR,
    RARARARA,
};

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
