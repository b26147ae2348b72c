/* dvac/copy.h - data movement between GM and the local buffers: DataCopy (GM <-> UB, GM -> L1) and
 * DataCopyPad (byte-granular GM <-> UB), with their parameter structs.  Each call is one DMA
 * instruction on MTE2 (into the core) or MTE3 (out of UB); docs/ASCENDC.md lists the mapping. */
#ifndef DVAC_COPY_H
#define DVAC_COPY_H

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

/* DataCopyPad's bursts: blockLen in bytes; the GM-side gap in bytes, the UB-side gap in datablocks. */
struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
    DataCopyExtParams() = default;
    DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcGap, uint32_t dstGap, uint32_t r = 0)
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

/* SetPadValue was called: DataCopyPad would fill the rest of a partial 32-byte block with it. */
inline thread_local bool g_pad_value_set = false;

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

/* The value DataCopyPad (GM -> UB) fills a partial last 32-byte block with: recorded; a copy that would
 * need it fails until the model fills blocks. */
template <typename T> inline void SetPadValue(T value, const dvac::Loc &loc = dvac::Loc::here())
{
    (void)value;
    dvk_bookkeeping(dvac::at(loc));
    dvac::g_pad_value_set = true;
}

/* Byte-granular copies (copy_gm_to_ubuf_align / copy_ubuf_to_gm_align); padding a burst with a
 * value is not supported by the model yet and is refused. */
template <typename T>
inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyExtParams &p,
                        const DataCopyPadExtParams<T> &pad, const dvac::Loc &loc = dvac::Loc::here())
{
    const char *api = "DataCopyPad";
    if (pad.isPad && (pad.leftPadding || pad.rightPadding))
        dvac::fail_at(loc, api, "padding with a value (isPad, left %u, right %u) is not supported by dvsim yet",
                   pad.leftPadding, pad.rightPadding);
    if (dst.space() != DV_SPACE_UB)
        dvac::fail_at(loc, api, "GM is copied to UB here, not to %s", dvk_space_name(dst.space()));
    if (!dvac::owns(DV_SPACE_UB))
        return;
    dv_k_t *c = dvac::at(loc);
    if (p.blockCount < 1 || p.blockCount > 4095 || p.blockLen < 1)
        dvac::fail_at(loc, api, "blockCount %u must be in [1, 4095] and blockLen %u at least 1", p.blockCount, p.blockLen);
    if (p.blockLen % 32 && dvac::g_pad_value_set)
        dvac::fail_at(loc, api, "filling the rest of a partial 32-byte block with SetPadValue's value is not modelled "
                      "by dvsim yet");
    dvac::check_aligned(dst, loc, api);
    const uint64_t ub_burst = (p.blockLen + 31) / 32;
    dst.need(((p.blockCount - 1) * (ub_burst + p.dstStride) * 32 + p.blockLen + sizeof(T) - 1) / sizeof(T), loc, api);
    uint64_t g = src.gm(0, dvac::burst_span(p.blockCount, p.blockLen, p.srcStride, 1), loc, api);
    dvk_copy_gm_to_ubuf_align(c, dst.addr(), g, p.blockCount, p.blockLen, p.srcStride, p.dstStride);
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
    DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride),
                DataCopyPadExtParams<T>(pad.isPad, pad.leftPadding, pad.rightPadding, (T)pad.paddingValue), loc);
}
template <typename T>
inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p,
                        const dvac::Loc &loc = dvac::Loc::here())
{
    DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride), loc);
}

} // namespace AscendC

#endif
