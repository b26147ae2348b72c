/* dvac/copy.h - data movement between GM and the local buffers: DataCopy (GM <-> UB, GM -> L1) and
 * DataCopyPad (byte-granular GM <-> UB), with their parameter structs.  Each call is one DMA
 * instruction on MTE2 (into the core) or MTE3 (out of UB); docs/ASCENDC.md lists the mapping. */
#ifndef DVAC_COPY_H
#define DVAC_COPY_H

#include <vector>

#include "tensor.h"

namespace AscendC {

/* Burst copy: blockCount bursts of blockLen datablocks (32 B); strides are the gaps between
 * bursts, in datablocks. */
struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    uint16_t srcStride = 0;
    uint16_t dstStride = 0;
    DataCopyParams() = default;
    DataCopyParams(uint16_t count, uint16_t len, uint16_t srcGap, uint16_t dstGap)
        : blockCount(count), blockLen(len), srcStride(srcGap), dstStride(dstGap)
    {
    }
};

/* DataCopyPad's bursts: blockLen in bytes; the GM-side gap in bytes, the UB-side gap in datablocks.  As in CANN,
 * the constructor takes all five fields, so a four-element brace list is a DataCopyParams. */
struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
    DataCopyExtParams() = default;
    DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcGap, uint32_t dstGap, uint32_t r)
        : blockCount(count), blockLen(len), srcStride(srcGap), dstStride(dstGap), rsv(r)
    {
    }
};

template <typename T> struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = 0;
    DataCopyPadExtParams() = default;
    DataCopyPadExtParams(bool pad, uint8_t left, uint8_t right, T value)
        : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value)
    {
    }
};

struct DataCopyPadParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
    DataCopyPadParams() = default;
    DataCopyPadParams(bool pad, uint8_t left, uint8_t right, uint64_t value)
        : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value)
    {
    }
};

} // namespace AscendC

namespace dvac {

/* The bits of a pad value as set_mov_pad_val takes them: the value's bytes in the low sizeof(T) bytes. */
template <typename T> inline uint64_t pad_bits(T value)
{
    uint64_t v = 0;
    std::memcpy(&v, &value, sizeof(T) < sizeof v ? sizeof(T) : sizeof v);
    return v;
}

/* A local tensor's address must meet the space's alignment (UB: core.ub_align_bytes). */
template <typename T> inline void check_aligned(const AscendC::LocalTensor<T> &t, const Loc &loc, const char *api)
{
    const uint64_t a = dvk_space_align(k(), t.space());
    if (a > 1 && DV_ADDR_OFF(t.addr()) % a)
        fail_at(loc, api, "the %s address 0x%llx is not %llu-byte aligned", dvk_space_name(t.space()),
             (unsigned long long)DV_ADDR_OFF(t.addr()), (unsigned long long)a);
}

/* Does this stream's core own `space` (a mix kernel's AIC has no UB, its AIVs no L1)? */
inline bool owns(dv_space_t s)
{
    return dvk_has_space(k(), s);
}

/* Bytes a burst copy spans on one side: bursts of len units with gaps of gap units. */
inline uint64_t burst_span(uint64_t nburst, uint64_t len, uint64_t gap, uint64_t unit)
{
    return nburst ? ((nburst - 1) * (len + gap) + len) * unit : 0;
}

template <typename T>
inline void copy_in(const AscendC::LocalTensor<T> &dst, const AscendC::GlobalTensor<T> &src,
                    const AscendC::DataCopyParams &p, const Loc &loc)
{
    const char *api = "DataCopy";
    const dv_space_t s = dst.space();
    if (s != DV_SPACE_UB && s != DV_SPACE_L1)
        fail_at(loc, api, "GM can be copied to UB or L1 here, not to %s", dvk_space_name(s));
    if (!owns(s))
        return; /* the other core type of a mix kernel runs this call */
    dv_k_t *c = at(loc);
    if (p.blockCount < 1 || p.blockCount > 4095 || p.blockLen < 1)
        fail_at(loc, api, "blockCount %u must be in [1, 4095] and blockLen %u at least 1", p.blockCount, p.blockLen);
    check_aligned(dst, loc, api);
    dst.need(burst_span(p.blockCount, p.blockLen, p.dstStride, 32) / sizeof(T), loc, api);
    uint64_t g = src.gm(0, burst_span(p.blockCount, p.blockLen, p.srcStride, 32), loc, api);
    if (s == DV_SPACE_UB)
        dvk_copy_gm_to_ubuf(c, dst.addr(), g, p.blockCount, p.blockLen, p.srcStride, p.dstStride);
    else
        dvk_copy_gm_to_cbuf(c, dst.addr(), g, p.blockCount, p.blockLen, p.srcStride, p.dstStride);
}

template <typename T>
inline void copy_out(const AscendC::GlobalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                     const AscendC::DataCopyParams &p, const Loc &loc)
{
    const char *api = "DataCopy";
    const dv_space_t s = src.space();
    if (s != DV_SPACE_UB && s != DV_SPACE_L1)
        fail_at(loc, api, "copies to GM come from UB or L1 here (L0C goes through Fixpipe), not from %s",
             dvk_space_name(s));
    if (!owns(s))
        return; /* the other core type of a mix kernel runs this call */
    dv_k_t *c = at(loc);
    if (p.blockCount < 1 || p.blockCount > 4095 || p.blockLen < 1)
        fail_at(loc, api, "blockCount %u must be in [1, 4095] and blockLen %u at least 1", p.blockCount, p.blockLen);
    check_aligned(src, loc, api);
    src.need(burst_span(p.blockCount, p.blockLen, p.srcStride, 32) / sizeof(T), loc, api);
    uint64_t g = dst.gm(0, burst_span(p.blockCount, p.blockLen, p.dstStride, 32), loc, api);
    /* L1 -> GM: copy_cbuf_to_gm on the AIC's MTE3 (impl/basic_api/dav_c220/kernel_operator_data_copy_impl.h,
     * DataCopyL12GMImpl) */
    (s == DV_SPACE_UB ? dvk_copy_ubuf_to_gm : dvk_copy_cbuf_to_gm)(c, g, src.addr(), p.blockCount, p.blockLen,
                                                                   p.srcStride, p.dstStride);
}

/* calCount elements as one burst: their bytes must be whole datablocks. */
template <typename T> inline AscendC::DataCopyParams count_params(uint32_t count, const Loc &loc)
{
    const uint64_t bytes = (uint64_t)count * sizeof(T);
    if (count == 0 || bytes % 32)
        fail_at(loc, "DataCopy", "%u elements of %zu bytes are %llu bytes, not a whole number of 32-byte blocks "
             "(DataCopyPad copies any length)", count, sizeof(T), (unsigned long long)bytes);
    if (bytes / 32 > 65535)
        fail_at(loc, "DataCopy", "%llu bytes exceed one copy's 65535 blocks of 32 bytes", (unsigned long long)bytes);
    return AscendC::DataCopyParams(1, (uint16_t)(bytes / 32), 0, 0);
}

} // namespace dvac

namespace AscendC {

template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const uint32_t calCount,
                     const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::copy_in(dst, src, dvac::count_params<T>(calCount, loc), loc);
}
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &repeatParams,
                     const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::copy_in(dst, src, repeatParams, loc);
}
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t calCount,
                     const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::copy_out(dst, src, dvac::count_params<T>(calCount, loc), loc);
}
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &repeatParams,
                     const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::copy_out(dst, src, repeatParams, loc);
}

/* The value DataCopyPad (GM -> UB) pads with when its isPad is false: the MOV_PAD_VAL register. */
template <typename T> inline void SetPadValue(T value, const dvac::Loc &loc = dvac::Loc::here())
{
    dvk_set_mov_pad_val(dvac::at(loc), dvac::pad_bits(value));
}

/* Byte-granular copy GM -> UB (copy_gm_to_ubuf_align_b8/b16/b32): each UB burst is leftPadding elements,
 * blockLen bytes, rightPadding elements, filled to 32 bytes; with isPad the pads take paddingValue (CANN
 * sets MOV_PAD_VAL to it first), else MOV_PAD_VAL's value (SetPadValue).  8-byte elements pad as pairs
 * of 4-byte ones, as CANN's implementation does. */
template <typename T>
inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyExtParams &p,
                        const DataCopyPadExtParams<T> &pad, const dvac::Loc &loc = dvac::Loc::here())
{
    const char *api = "DataCopyPad";
    if (dst.space() != DV_SPACE_UB)
        dvac::fail_at(loc, api, "GM is copied to UB here, not to %s", dvk_space_name(dst.space()));
    if (pad.leftPadding * sizeof(T) > 32 || pad.rightPadding * sizeof(T) > 32)
        dvac::fail_at(loc, api, "leftPadding %u and rightPadding %u elements must each fit 32 bytes", pad.leftPadding,
                      pad.rightPadding);
    if (!dvac::owns(DV_SPACE_UB))
        return;
    dv_k_t *c = dvac::at(loc);
    if (p.blockCount < 1 || p.blockCount > 4095 || p.blockLen < 1)
        dvac::fail_at(loc, api, "blockCount %u must be in [1, 4095] and blockLen %u at least 1", p.blockCount, p.blockLen);
    dvac::check_aligned(dst, loc, api);
    const uint64_t es = sizeof(T) == 8 ? 4 : sizeof(T), per = sizeof(T) / es;
    const uint64_t lp = pad.leftPadding * per, rp = pad.rightPadding * per;
    const uint64_t ub_burst = (lp * es + p.blockLen + rp * es + 31) / 32;
    const uint64_t last = lp || rp ? ub_burst * 32 : p.blockLen;
    dst.need(((p.blockCount - 1) * (ub_burst + p.dstStride) * 32 + last + sizeof(T) - 1) / sizeof(T), loc, api);
    uint64_t g = src.gm(0, dvac::burst_span(p.blockCount, p.blockLen, p.srcStride, 1), loc, api);
    if (pad.isPad)
        dvk_set_mov_pad_val(c, dvac::pad_bits(pad.paddingValue));
    dvk_copy_gm_to_ubuf_align(c, dst.addr(), g, p.blockCount, p.blockLen, p.srcStride, p.dstStride, (int64_t)lp,
                              (int64_t)rp, (int64_t)es);
}
template <typename T>
inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyExtParams &p,
                        const dvac::Loc &loc = dvac::Loc::here())
{
    const char *api = "DataCopyPad";
    if (src.space() != DV_SPACE_UB)
        dvac::fail_at(loc, api, "copies to GM come from UB here, not from %s", dvk_space_name(src.space()));
    if (!dvac::owns(DV_SPACE_UB))
        return;
    dv_k_t *c = dvac::at(loc);
    if (p.blockCount < 1 || p.blockCount > 4095 || p.blockLen < 1)
        dvac::fail_at(loc, api, "blockCount %u must be in [1, 4095] and blockLen %u at least 1", p.blockCount, p.blockLen);
    dvac::check_aligned(src, loc, api);
    const uint64_t ub_burst = (p.blockLen + 31) / 32;
    src.need(((p.blockCount - 1) * (ub_burst + p.srcStride) * 32 + p.blockLen + sizeof(T) - 1) / sizeof(T), loc, api);
    uint64_t g = dst.gm(0, dvac::burst_span(p.blockCount, p.blockLen, p.dstStride, 1), loc, api);
    dvk_copy_ubuf_to_gm_align(c, g, src.addr(), p.blockCount, p.blockLen, p.srcStride, p.dstStride);
}
template <typename T>
inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &p,
                        const DataCopyPadParams &pad, const dvac::Loc &loc = dvac::Loc::here())
{
    DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0),
                DataCopyPadExtParams<T>(pad.isPad, pad.leftPadding, pad.rightPadding, (T)pad.paddingValue), loc);
}
template <typename T>
inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p,
                        const dvac::Loc &loc = dvac::Loc::here())
{
    DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0), loc);
}

/* ---- DataCopy with SliceInfo: an N-dimensional slice, dimension 0 innermost ----
 * Dimension 0 is copied as bursts of burstLen datablocks `stride` elements apart; the higher
 * dimensions give the list of burst rows (each `1 + stride` rows of the dimension below apart).  Shapes
 * come from the shapeValue fields (dvsim's tensors carry no ShapeInfo).  A source stride that is not a
 * whole number of datablocks goes through DataCopyPad's byte gaps, as CANN's dav-2201 code does. */
constexpr int32_t K_MAX_DIM = 8;

struct SliceInfo {
    SliceInfo() {}
    SliceInfo(const uint32_t startIndexIn, const uint32_t endIndexIn, const uint32_t strideIn, const uint32_t burstLenIn,
              const uint32_t shapeValueIn = 0)
        : startIndex(startIndexIn), endIndex(endIndexIn), stride(strideIn), burstLen(burstLenIn), shapeValue(shapeValueIn)
    {
    }
    uint32_t startIndex = 0;
    uint32_t endIndex = ONE_BLK_SIZE - 1;
    uint32_t stride = 0;
    uint32_t burstLen = ONE_BLK_SIZE;
    uint32_t shapeValue = 0;
};

} // namespace AscendC

namespace dvac {

/* The slice's first element and the element offsets of its burst rows. */
struct SliceRows {
    uint64_t start = 0;
    std::vector<uint64_t> rows;
};
inline SliceRows slice_rows(const AscendC::SliceInfo *si, uint32_t dims, const Loc &loc, const char *api)
{
    if (dims < 1 || dims > (uint32_t)AscendC::K_MAX_DIM)
        fail_at(loc, api, "dimValue %u is not in [1, %d]", dims, AscendC::K_MAX_DIM);
    SliceRows r;
    r.rows.push_back(0);
    uint64_t size = 1;
    for (uint32_t i = 0; i < dims; i++) {
        if (si[i].shapeValue == 0)
            fail_at(loc, api, "SliceInfo %u has no shapeValue (dvsim's tensors carry no ShapeInfo)", i);
        if (si[i].endIndex < si[i].startIndex)
            fail_at(loc, api, "SliceInfo %u: endIndex %u is before startIndex %u", i, si[i].endIndex, si[i].startIndex);
        if (i > 0) {
            size *= si[i - 1].shapeValue;
            const uint64_t n = (si[i].endIndex - si[i].startIndex + 1 + si[i].stride) / (1 + si[i].stride);
            const size_t before = r.rows.size();
            for (uint64_t it = 1; it < n; it++)
                for (size_t k = 0; k < before; k++)
                    r.rows.push_back(r.rows[k] + it * (1 + si[i].stride) * size);
        }
        r.start += (i == 0 ? 1 : size) * si[i].startIndex;
    }
    return r;
}

/* Dimension 0's bursts: how many, of how many datablocks. */
template <typename T>
inline AscendC::DataCopyParams slice_bursts(const AscendC::SliceInfo &s0, const Loc &loc, const char *api)
{
    const uint64_t one = (uint64_t)s0.burstLen * (AscendC::ONE_BLK_SIZE / sizeof(T)) + s0.stride;
    const uint64_t n = (s0.endIndex - s0.startIndex + 1 + s0.stride) / one;
    if (s0.burstLen == 0 || n == 0 || n > 4095)
        fail_at(loc, api, "dimension 0 gives %llu bursts of %u datablocks: need [1, 4095] of at least 1",
                (unsigned long long)n, s0.burstLen);
    AscendC::DataCopyParams p;
    p.blockCount = (uint16_t)n;
    p.blockLen = (uint16_t)s0.burstLen;
    return p;
}

} // namespace dvac

namespace AscendC {

template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const SliceInfo dstSliceInfo[],
                     const SliceInfo srcSliceInfo[], const uint32_t dimValue, const dvac::Loc &loc = dvac::Loc::here())
{
    const char *api = "DataCopy (SliceInfo)";
    const dvac::SliceRows s = dvac::slice_rows(srcSliceInfo, dimValue, loc, api);
    const dvac::SliceRows d = dvac::slice_rows(dstSliceInfo, dimValue, loc, api);
    if (s.rows.size() != d.rows.size())
        dvac::fail_at(loc, api, "the source slice has %zu rows and the destination %zu", s.rows.size(), d.rows.size());
    DataCopyParams p = dvac::slice_bursts<T>(srcSliceInfo[0], loc, api);
    p.dstStride = (uint16_t)(dstSliceInfo[0].stride * sizeof(T) / ONE_BLK_SIZE);
    const uint64_t src_gap = srcSliceInfo[0].stride * sizeof(T);
    for (size_t i = 0; i < s.rows.size(); i++) {
        const LocalTensor<T> to = dst[(uint32_t)(d.start + d.rows[i])];
        const GlobalTensor<T> from = src[s.start + s.rows[i]];
        if (src_gap % ONE_BLK_SIZE == 0) {
            p.srcStride = (uint16_t)(src_gap / ONE_BLK_SIZE);
            DataCopy(to, from, p, loc);
        } else {
            DataCopyPad(to, from, DataCopyExtParams(p.blockCount, p.blockLen * ONE_BLK_SIZE, (uint32_t)src_gap,
                                                    p.dstStride, 0), DataCopyPadExtParams<T>(), loc);
        }
    }
}

template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const SliceInfo dstSliceInfo[],
                     const SliceInfo srcSliceInfo[], const uint32_t dimValue, const dvac::Loc &loc = dvac::Loc::here())
{
    const char *api = "DataCopy (SliceInfo)";
    const dvac::SliceRows s = dvac::slice_rows(srcSliceInfo, dimValue, loc, api);
    const dvac::SliceRows d = dvac::slice_rows(dstSliceInfo, dimValue, loc, api);
    if (s.rows.size() != d.rows.size())
        dvac::fail_at(loc, api, "the source slice has %zu rows and the destination %zu", s.rows.size(), d.rows.size());
    DataCopyParams p = dvac::slice_bursts<T>(srcSliceInfo[0], loc, api);
    p.srcStride = (uint16_t)(srcSliceInfo[0].stride * sizeof(T) / ONE_BLK_SIZE);
    const uint64_t dst_gap = dstSliceInfo[0].stride * sizeof(T);
    for (size_t i = 0; i < s.rows.size(); i++) {
        const GlobalTensor<T> to = dst[d.start + d.rows[i]];
        const LocalTensor<T> from = src[(uint32_t)(s.start + s.rows[i])];
        if (dst_gap % ONE_BLK_SIZE == 0) {
            p.dstStride = (uint16_t)(dst_gap / ONE_BLK_SIZE);
            DataCopy(to, from, p, loc);
        } else {
            DataCopyPad(to, from, DataCopyExtParams(p.blockCount, p.blockLen * ONE_BLK_SIZE, p.srcStride,
                                                    (uint32_t)dst_gap, 0), loc);
        }
    }
}

} // namespace AscendC

#endif
