/* dvac/vec_copy.h - copies inside UB: DataCopy between two UB LocalTensors (copy_ubuf_to_ubuf on the
 * vector pipe, as CANN's dav-2201 DataCopyUB2UBImpl) and Copy (vcopy, level 0). */
#ifndef DVAC_VEC_COPY_H
#define DVAC_VEC_COPY_H

#include "copy.h"
#include "vec_core.h"

namespace AscendC {

/* Copy's strides: block strides in datablocks, repeat strides in datablocks. */
struct CopyRepeatParams {
    CopyRepeatParams() {}
    CopyRepeatParams(uint16_t dstStrideIn, uint16_t srcStrideIn, uint16_t dstRepeatSizeIn, uint16_t srcRepeatSizeIn)
        : dstStride(dstStrideIn), srcStride(srcStrideIn), dstRepeatSize(dstRepeatSizeIn), srcRepeatSize(srcRepeatSizeIn)
    {
    }
    uint16_t dstStride = 1;
    uint16_t srcStride = 1;
    uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
    uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};

/* LocalTensor -> LocalTensor: blockCount bursts of blockLen datablocks, gaps in datablocks.  UB -> UB
 * only (CANN's other local pairs, UB -> L1 and L1 -> BT / FB, are not here). */
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &repeatParams,
                     const dvac::Loc &loc = dvac::Loc::here())
{
    const char *api = "DataCopy";
    const DataCopyParams &p = repeatParams;
    if (dst.space() != DV_SPACE_UB || src.space() != DV_SPACE_UB)
        dvac::fail_at(loc, api, "%s -> %s between LocalTensors is not supported by dvsim (UB -> UB is)",
                      dvk_space_name(src.space()), dvk_space_name(dst.space()));
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    if (p.blockCount < 1 || p.blockCount > 4095 || p.blockLen < 1)
        dvac::fail_at(loc, api, "blockCount %u must be in [1, 4095] and blockLen %u at least 1", p.blockCount,
                      p.blockLen);
    dvac::ub_operand(dst, "dst", 32, loc, api);
    dvac::ub_operand(src, "src", 32, loc, api);
    dst.need(dvac::burst_span(p.blockCount, p.blockLen, p.dstStride, 32) / sizeof(T), loc, api);
    src.need(dvac::burst_span(p.blockCount, p.blockLen, p.srcStride, 32) / sizeof(T), loc, api);
    dvk_copy_ubuf_to_ubuf(c, dst.addr(), src.addr(), p.blockCount, p.blockLen, p.srcStride, p.dstStride);
}

/* count elements as one burst: their bytes must be whole datablocks. */
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count,
                     const dvac::Loc &loc = dvac::Loc::here())
{
    DataCopy(dst, src, dvac::count_params<T>(count, loc), loc);
}

} // namespace AscendC

namespace dvac {
template <typename T>
inline void copy_l0(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src, MaskArg ma, uint8_t repeat,
                    const AscendC::CopyRepeatParams &p, const Loc &loc)
{
    const char *api = "Copy";
    dv_k_t *c = vec_stream(loc);
    if (!c)
        return;
    constexpr uint32_t E = rep_elems<T>();
    const Mask m = ma.resolve(E, E, loc, api);
    ub_operand(dst, "dst", 32, loc, api);
    ub_operand(src, "src", 32, loc, api);
    const int64_t db = stride8(p.dstStride, "dstStride", loc, api), sb = stride8(p.srcStride, "srcStride", loc, api);
    const int64_t dr = stride8(p.dstRepeatSize, "dstRepeatSize", loc, api);
    const int64_t sr = stride8(p.srcRepeatSize, "srcRepeatSize", loc, api);
    strided_in(dst, "dst", m, E, repeat, (uint64_t)db, (uint64_t)dr, loc, api);
    strided_in(src, "src", m, E, repeat, (uint64_t)sb, (uint64_t)sr, loc, api);
    mask_emit(c, m);
    dvk_vcopy(c, dst.addr(), src.addr(), dtype_of<T>(), repeat, db, sb, dr, sr);
}
} // namespace dvac

namespace AscendC {

template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[], const uint8_t repeatTime,
                 const CopyRepeatParams &repeatParams, const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::one_of<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>(),
                  "Copy: dtype not supported on dav-2201 (int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, "
                  "float)");
    dvac::copy_l0(dst, src, dvac::MaskArg::of(mask, isSetMask), repeatTime, repeatParams, loc);
}
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask, const uint8_t repeatTime,
                 const CopyRepeatParams &repeatParams, const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::one_of<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>(),
                  "Copy: dtype not supported on dav-2201 (int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, "
                  "float)");
    dvac::copy_l0(dst, src, dvac::MaskArg::of(mask, isSetMask), repeatTime, repeatParams, loc);
}

} // namespace AscendC

#endif
