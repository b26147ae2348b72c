/* adv/transform.h - Ascend C high-level API, data layout (Fill, Broadcast, Pad, UnPad, Transpose with a
 * TransposeType, TransData): kernel side, built on the basic vector API (dvac/vec*.h) as CANN builds it.
 * docs/ASCENDC.md, "Advanced APIs" > "Data layout", lists what each emits and where dvsim's sequence differs
 * from CANN's.
 *
 * The forms without a temporary buffer use the UB above the TPipe's buffers, as CANN's (PopStackBuffer). */
#ifndef DVSIM_ADV_TRANSFORM_H
#define DVSIM_ADV_TRANSFORM_H

#include "../dvac/core.h"
#include "../dvac/tensor.h"
#include "../dvac/sync.h"
#include "../dvac/copy.h"
#include "../dvac/vec.h"
#include "../dvac/xform_extra.h"
#include "../kernel_tiling/kernel_tiling.h"

namespace AscendC {

/* Pad's parameters: elements added left and right of each row, and their value. */
struct PadParams {
    PadParams() {}
    PadParams(const uint16_t leftPadIn, const uint16_t rightPadIn, const int32_t padValueIn)
        : leftPad(leftPadIn), rightPad(rightPadIn), padValue(padValueIn)
    {
    }
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
    int32_t padValue = 0;
};

/* TransData's conversion: source and destination formats. */
struct TransDataConfig {
    DataFormat srcFormat;
    DataFormat dstFormat;
};

/* TransData's layouts (Layout<Shape, Stride> from MakeLayout). */
template <typename T, typename U> struct TransDataParams {
    T srcLayout;
    U dstLayout;
};

/* UnPad's parameters: elements removed left and right of each row. */
struct UnPadParams {
    UnPadParams() {}
    UnPadParams(const uint16_t leftPadIn, const uint16_t rightPadIn) : leftPad(leftPadIn), rightPad(rightPadIn) {}
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
};

} // namespace AscendC

namespace dvac {
namespace xform {

/* The stack buffer of the forms without a temporary buffer (CANN's PopStackBuffer on dav-2201): the UB from
 * the end of the current TPipe's buffers to the last 64 bytes (which CANN keeps for the KFC message). */
template <typename T> inline AscendC::LocalTensor<T> stack_buffer(dv_k_t *c, const Loc &loc, const char *api)
{
    AscendC::TPipe *p = AscendC::GetTPipePtr();
    if (!p)
        fail_at(loc, api, "needs a TPipe (its stack buffer is the UB above the TPipe's buffers)");
    const uint64_t start = p->GetQueueEndAddress<AscendC::TPosition::VECCALC>();
    const uint64_t end = dvk_space_bytes(c, DV_SPACE_UB) - 64;
    if (end < start + 32)
        fail_at(loc, api, "no UB is left above the TPipe's %llu bytes for the stack buffer",
                (unsigned long long)start);
    return AscendC::LocalTensor<T>(DV_ADDR(DV_SPACE_UB, start), (uint32_t)((end - start) / sizeof(T)),
                                   AscendC::TPosition::VECCALC);
}

/* An event of the current TPipe (CANN fetches them from GetTPipePtr()). */
inline int32_t pipe_event(AscendC::HardEvent evt, const Loc &loc, const char *api)
{
    AscendC::TPipe *p = AscendC::GetTPipePtr();
    if (!p)
        fail_at(loc, api, "needs a TPipe (its event ids)");
    return p->FetchEventID(evt, loc);
}

/* One S -> V (or V -> S) flag pair from the current TPipe, around the scalar unit's writes. */
template <AscendC::HardEvent evt> inline void pipe_sync(const Loc &loc, const char *api)
{
    const int32_t ev = pipe_event(evt, loc, api);
    AscendC::SetFlag<evt>(ev, loc);
    AscendC::WaitFlag<evt>(ev, loc);
}

/* dst[k] = the element at byte offset floor(k / n) * P + k * Q of src, for k < total: the offsets computed in
 * steps of what tmp holds (two 4-byte buffers of a whole number of repeats): CreateVecIndex of k + 0.5 in float,
 * Muls by 1 / n, Cast with CAST_FLOOR (exact for k below 2^21), Muls by P, and with Q the index again times Q,
 * Add; then one vgather per step.  dvsim's stand-in for CANN's GatherMask (vreducev2), which its ISA does
 * not have. */
template <typename T>
inline void gather_rows(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                        const AscendC::LocalTensor<uint8_t> &tmp, uint32_t total, uint32_t n, uint32_t P, uint32_t Q,
                        const Loc &loc, const char *api)
{
    using namespace AscendC;
    constexpr uint32_t E = 256 / sizeof(T);
    if (total >= (1u << 21))
        fail_at(loc, api, "%u elements: the row index is computed in float, exact below 2^21", total);
    uint32_t chunk = tmp.GetSize() / 8 / E * E;
    if (chunk > 255 * E)
        chunk = 255 * E;
    if (chunk == 0)
        fail_at(loc, api, "the temporary buffer holds %u bytes, at least %u are needed", tmp.GetSize(), 8 * E);
    LocalTensor<float> rowF = tmp.ReinterpretCast<float>();
    LocalTensor<int32_t> rowI = rowF.ReinterpretCast<int32_t>();
    LocalTensor<int32_t> off = tmp[chunk * 4].ReinterpretCast<int32_t>();
    const float inv = 1.0f / (float)n;
    SetMaskNorm(loc); /* CreateVecIndex's and Gather's level-0 steps take normal-mode masks */
    for (uint32_t base = 0; base < total; base += chunk) {
        const uint32_t k = total - base < chunk ? total - base : chunk;
        pipe_sync<HardEvent::V_S>(loc, api); /* CreateVecIndex's scalar writes after the previous step */
        CreateVecIndex(rowF, (float)base + 0.5f, k, loc);
        Muls(rowF, rowF, inv, (int32_t)k, loc);
        PipeBarrier<PIPE_V>(loc);
        Cast(off, rowF, RoundMode::CAST_FLOOR, k, loc);
        PipeBarrier<PIPE_V>(loc);
        Muls(off, off, (int32_t)P, (int32_t)k, loc);
        if (Q) {
            pipe_sync<HardEvent::V_S>(loc, api);
            CreateVecIndex(rowI, (int32_t)base, k, loc);
            Muls(rowI, rowI, (int32_t)Q, (int32_t)k, loc);
            PipeBarrier<PIPE_V>(loc);
            Add(off, off, rowI, (int32_t)k, loc);
        }
        PipeBarrier<PIPE_V>(loc);
        Gather(dst[base], src, off.ReinterpretCast<uint32_t>(), 0, k, loc);
        PipeBarrier<PIPE_V>(loc);
    }
}

/* Broadcast of a [rows, cols] tensor from [1, cols] (CANN's TwoDimBroadCastDimAlign / LoopBroadCast): each
 * datablock of the source row is written to every row with vor against a zero datablock (as uint16_t). */
template <typename T>
inline void brc_first_dim(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                          const AscendC::LocalTensor<T> &tmp, uint32_t rows, uint32_t cols, const Loc &loc)
{
    using namespace AscendC;
    const char *api = "Broadcast";
    constexpr uint32_t epb = 32 / sizeof(T);
    const uint32_t u16PerElem = sizeof(T) / sizeof(uint16_t);
    if (cols % epb != 0)
        fail_at(loc, api, "the last dimension (%u) must fill whole 32-byte datablocks to broadcast the first", cols);
    LocalTensor<uint16_t> zero = tmp.template ReinterpretCast<uint16_t>();
    LocalTensor<uint16_t> d = dst.template ReinterpretCast<uint16_t>();
    LocalTensor<uint16_t> s = src.template ReinterpretCast<uint16_t>();
    Duplicate(zero, (uint16_t)0, (int32_t)(32 / sizeof(uint16_t)), loc);
    PipeBarrier<PIPE_V>(loc);
    if (cols >= 255 * epb) { /* a row is too long for block strides: one vor per row, count mode */
        SetMaskCount(loc);
        SetVectorMask<T, MaskMode::COUNTER>((int32_t)(cols * u16PerElem), loc);
        for (uint32_t r = 0; r < rows; r++)
            Or<uint16_t, false>(d[r * cols * u16PerElem], s, zero, MASK_PLACEHOLDER, 1,
                                BinaryRepeatParams(1, 1, 0, 8, 8, 0), loc);
        PipeBarrier<PIPE_V>(loc);
        return;
    }
    /* repeat b writes datablock b of 8 rows: dst block stride = one row */
    const uint8_t repeat = (uint8_t)(cols / epb), rowBlocks = (uint8_t)(cols * sizeof(T) / 32);
    const BinaryRepeatParams p(rowBlocks, 0, 0, 1, 1, 0);
    uint32_t r = 0;
    for (; r + 8 <= rows; r += 8) {
        SetMaskNorm(loc);
        SetVectorMask<uint16_t, MaskMode::NORMAL>(8 * 16, loc);
        Or<uint16_t, false>(d[r * cols * u16PerElem], s, zero, MASK_PLACEHOLDER, repeat, p, loc);
    }
    if (r < rows) {
        SetMaskNorm(loc);
        SetVectorMask<uint16_t, MaskMode::NORMAL>((int32_t)((rows - r) * 16), loc);
        Or<uint16_t, false>(d[r * cols * u16PerElem], s, zero, MASK_PLACEHOLDER, repeat, p, loc);
    }
    PipeBarrier<PIPE_V>(loc);
}

/* Broadcast of a [rows, cols] tensor from [rows, 1] (CANN's TwoDimBroadCastLastDim): Brcb puts each row's
 * value in a datablock of tmp, then vcopy repeats that datablock along the row.  CANN copies with one
 * count-mode vcopy of `rows` repeats; in count mode the repeats follow from the count (docs/SEMANTICS.md), so
 * dvsim copies in normal mode, one vcopy per 8 datablocks of columns, a repeat per row.  Rows that are not
 * whole datablocks (CANN: GatherMask) are gathered element by element (gather_rows). */
template <typename T>
inline void brc_last_dim(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                         const AscendC::LocalTensor<T> &tmp, uint32_t rows, uint32_t cols, const Loc &loc)
{
    using namespace AscendC;
    const char *api = "Broadcast";
    constexpr uint32_t epb = 32 / sizeof(T), E = 256 / sizeof(T);
    if (cols % epb != 0) { /* CANN packs the rows with GatherMask; dvsim gathers each element's value */
        gather_rows(dst, src, tmp.template ReinterpretCast<uint8_t>(), rows * cols, cols, (uint32_t)sizeof(T), 0,
                    loc, api);
        return;
    }
    if (cols / epb > 255)
        fail_at(loc, api, "a row of %u datablocks is beyond vcopy's repeat stride (255)", cols / epb);
    /* rows per step: their datablocks must fit tmp (CANN's GetAlignLoopNumbers) */
    const uint32_t step = tmp.GetSize() / (epb * epb) * epb;
    if (step == 0)
        fail_at(loc, api, "the temporary buffer holds %u elements, at least %u are needed", tmp.GetSize(), epb * epb);
    for (uint32_t r0 = 0; r0 < rows; r0 += step) {
        const uint32_t n = rows - r0 < step ? rows - r0 : step;
        const uint32_t brcbRepeats = (n + 7) / 8, maxRep = sizeof(T) == 4 ? 255 : 254;
        for (uint32_t b = 0; b < brcbRepeats; b += maxRep) {
            const uint32_t k = brcbRepeats - b < maxRep ? brcbRepeats - b : maxRep;
            Brcb(tmp[b * 8 * epb], src[r0 + b * 8], (uint8_t)k, BrcbRepeatParams(1, 8), loc);
        }
        PipeBarrier<PIPE_V>(loc);
        SetMaskNorm(loc);
        for (uint32_t c0 = 0; c0 < cols; c0 += E) {
            const uint32_t m = cols - c0 < E ? cols - c0 : E;
            for (uint32_t q = 0; q < n; q += 255) {
                const uint32_t k = n - q < 255 ? n - q : 255;
                Copy<T, true>(dst[(r0 + q) * cols + c0], tmp[q * epb], (uint64_t)m, (uint8_t)k,
                              CopyRepeatParams(1, 0, (uint16_t)(cols / epb), 1), loc);
            }
        }
        PipeBarrier<PIPE_V>(loc);
    }
}

/* Broadcast of 2-, 4-byte elements (CANN's BroadCastCompute). */
template <typename T, int32_t dim, int32_t axis>
inline void brc_compute(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                        const uint32_t dstShape[dim], const uint32_t srcShape[dim], const AscendC::LocalTensor<T> &tmp,
                        const Loc &loc)
{
    using namespace AscendC;
    uint64_t srcSize = 1, dstSize = 1;
    for (int32_t i = 0; i < dim; i++) {
        if (srcShape[i] != dstShape[i] && srcShape[i] != 1)
            fail_at(loc, "Broadcast", "source dimension %d (%u) cannot be broadcast to %u", i, srcShape[i],
                    dstShape[i]);
        srcSize *= srcShape[i];
        dstSize *= dstShape[i];
    }
    src.need(srcSize, loc, "Broadcast");
    dst.need(dstSize, loc, "Broadcast");
    if (srcSize == dstSize) { /* NoBroad: one count-mode vcopy */
        SetVectorMask<T, MaskMode::COUNTER>((int32_t)dstSize, loc);
        Copy<T, false>(dst, src, MASK_PLACEHOLDER, 1, CopyRepeatParams(1, 1, 8, 8), loc);
        PipeBarrier<PIPE_V>(loc);
    } else if (srcSize == 1) { /* the scalar unit reads the value, Duplicate writes it */
        const int32_t vs = pipe_event(HardEvent::V_S, loc, "Broadcast");
        SetFlag<HardEvent::V_S>(vs, loc);
        WaitFlag<HardEvent::V_S>(vs, loc);
        const T v = src.GetValue(0, loc);
        const int32_t sv = pipe_event(HardEvent::S_V, loc, "Broadcast");
        SetFlag<HardEvent::S_V>(sv, loc);
        WaitFlag<HardEvent::S_V>(sv, loc);
        Duplicate(dst, v, (int32_t)dstSize, loc);
        PipeBarrier<PIPE_V>(loc);
    } else if constexpr (dim == 2) {
        if constexpr (axis == 1)
            brc_last_dim(dst, src, tmp, dstShape[0], dstShape[1], loc);
        else
            brc_first_dim(dst, src, tmp, dstShape[0], dstShape[1], loc);
    } else {
        fail_at(loc, "Broadcast", "dim %d: only dim 1 and 2 are supported (as CANN's dav-2201)", dim);
    }
    SetMaskCount(loc);
}

template <typename T, int32_t dim, int32_t axis>
inline void broadcast(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                      const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                      const AscendC::LocalTensor<uint8_t> &tmpBytes, const Loc &loc)
{
    using namespace AscendC;
    static_assert(dim == 1 || dim == 2, "Broadcast: dim must be 1 or 2 on dav-2201");
    static_assert(axis == 0 || axis == 1, "Broadcast: axis must be 0 or 1");
    static_assert(one_of<T, int8_t, uint8_t, half, bfloat16_t, int16_t, uint16_t, float, int32_t, uint32_t>(),
                  "Broadcast: dtype not supported on dav-2201 (int8_t, uint8_t, half, bfloat16_t, int16_t, "
                  "uint16_t, float, int32_t, uint32_t)");
    ub_operand(dst, "dst", 32, loc, "Broadcast");
    ub_operand(src, "src", 32, loc, "Broadcast");
    if constexpr (sizeof(T) == 1) { /* through half: Cast, broadcast, Cast back */
        LocalTensor<half> tmp = tmpBytes.ReinterpretCast<half>();
        uint32_t srcSize = 1, dstSize = 1;
        for (int32_t i = 0; i < dim; i++) {
            srcSize *= srcShape[i];
            dstSize *= dstShape[i];
        }
        const uint32_t srcAl = (srcSize + 15) / 16 * 16, dstAl = (dstSize + 15) / 16 * 16;
        if (tmp.GetSize() < srcAl + dstAl)
            fail_at(loc, "Broadcast", "the temporary buffer holds %u halves, %u are needed", tmp.GetSize(),
                    srcAl + dstAl);
        LocalTensor<half> s16 = tmp, d16 = tmp[srcAl], t16 = tmp[srcAl + dstAl];
        SetMaskCount(loc);
        SetVectorMask<T, MaskMode::COUNTER>((int32_t)srcSize, loc);
        Cast<half, T, false>(s16, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, UnaryRepeatParams(1, 1, 8, 4), loc);
        PipeBarrier<PIPE_V>(loc);
        brc_compute<half, dim, axis>(d16, s16, dstShape, srcShape, t16, loc);
        SetVectorMask<T, MaskMode::COUNTER>((int32_t)dstSize, loc);
        Cast<T, half, false>(dst, d16, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, UnaryRepeatParams(1, 1, 4, 8), loc);
        PipeBarrier<PIPE_V>(loc);
    } else {
        SetMaskCount(loc);
        brc_compute<T, dim, axis>(dst, src, dstShape, srcShape, tmpBytes.ReinterpretCast<T>(), loc);
    }
    SetMaskNorm(loc);
    ResetMask(loc);
}

/* ---- Pad / UnPad ---- */

template <typename T> constexpr bool pad_type_ok()
{
    return one_of<T, int16_t, uint16_t, half, int32_t, uint32_t, float>();
}

/* CANN's static_cast<T>(padValue) of the int32_t pad value. */
template <typename T> inline T pad_value(int32_t v)
{
    if constexpr (std::is_integral<T>::value)
        return (T)v;
    else
        return T((float)v);
}

/* Pad with the row width 32-byte aligned (CANN's AlignedPad): the rows are copied, then the last datablock
 * of every row gets the pad value where the mask selects the columns past srcOriWidth, 255 rows per vdup. */
template <typename T>
inline void pad_aligned(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                        const AscendC::PadParams &pp, const AscendC::tiling::PadTiling &t, const Loc &loc)
{
    using namespace AscendC;
    constexpr uint32_t epb = 32 / sizeof(T);
    const uint32_t h = t.srcHeight, w = t.srcWidth, ori = t.srcOriWidth, rp = pp.rightPad;
    if (ori > w || w - ori > epb || rp > w - ori)
        fail_at(loc, "Pad", "srcOriWidth %u and rightPad %u do not fit the last datablock of a %u-element row", ori,
                rp, w);
    if (t.blocksPerRow > 255)
        fail_at(loc, "Pad", "a row of %u datablocks is beyond vdup's repeat stride (255)", t.blocksPerRow);
    DataCopy(dst, src, h * w, loc);
    PipeBarrier<PIPE_V>(loc);
    if (rp == 0)
        return;
    const uint64_t mask[2] = {((1ull << rp) - 1) << (epb - (w - ori)), 0};
    const T v = pad_value<T>(pp.padValue);
    for (uint32_t i = 0; i < t.heightFractal; i++)
        Duplicate<T, true>(dst[i * t.mainLoopOffset + t.widthWithoutLastBlock], v, mask, (uint8_t)t.heightTiling, 1,
                           (uint8_t)t.blocksPerRow, loc);
    if (t.heightFractalTail)
        Duplicate<T, true>(dst[t.tailBlockOffset], v, mask, (uint8_t)t.heightFractalTail, 1, (uint8_t)t.blocksPerRow,
                           loc);
}

/* Pad with an unaligned row width.  CANN spreads the elements over datablocks (Brcb) and gathers each padded
 * row back with TransDataTo5HD (vnchwconv), which dvsim's ISA does not have.  dvsim gathers each padded row
 * with one vgather instead: the offsets of row 0 (CreateVecIndex, Muls, Adds; the pad columns pointing at a
 * datablock of the pad value, written by the scalar unit), then per row a vgather and a vadd that moves the
 * data columns' offsets one source row on. */
template <typename T>
inline void pad_unaligned(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                          const AscendC::PadParams &pp, const AscendC::LocalTensor<uint8_t> &tmp,
                          const AscendC::tiling::PadTiling &t, const Loc &loc)
{
    using namespace AscendC;
    const char *api = "Pad";
    constexpr uint32_t s = sizeof(T), epb = 32 / s;
    const uint32_t h = t.srcHeight, w = t.srcWidth, l = pp.leftPad, W = w + pp.leftPad + pp.rightPad;
    if (W * s % 32 != 0)
        fail_at(loc, api, "a padded row of %u elements must fill whole 32-byte datablocks", W);
    src.need((uint64_t)h * w, loc, api);
    dst.need((uint64_t)h * W, loc, api);
    const uint32_t wal = (W + 7) / 8 * 8, bytes = 32 + 2 * wal * 4;
    if (tmp.GetSize() < bytes)
        fail_at(loc, api, "the temporary buffer holds %u bytes, %u are needed", tmp.GetSize(), bytes);
    LocalTensor<T> padBlk = tmp.ReinterpretCast<T>();
    LocalTensor<int32_t> off = tmp[32].ReinterpretCast<int32_t>(), step = tmp[32 + wal * 4].ReinterpretCast<int32_t>();
    /* the gather's source: from the lower of src and the pad datablock to the end of the higher */
    const uint64_t srcEnd = src.addr() + (uint64_t)h * w * s, padEnd = padBlk.addr() + 32;
    const uint64_t lo = src.addr() < padBlk.addr() ? src.addr() : padBlk.addr();
    const uint64_t hi = srcEnd > padEnd ? srcEnd : padEnd;
    const LocalTensor<T> big(lo, (uint32_t)((hi - lo) / s), src.GetPosition());
    const int32_t srcOff = (int32_t)(src.addr() - lo), padOff = (int32_t)(padBlk.addr() - lo);
    pipe_sync<HardEvent::V_S>(loc, api); /* CreateVecIndex's scalar writes after the vector unit's last use */
    CreateVecIndex(off, -(int32_t)l, W, loc);
    Duplicate(padBlk, pad_value<T>(pp.padValue), (int32_t)epb, loc);
    Muls(off, off, (int32_t)s, (int32_t)W, loc);
    PipeBarrier<PIPE_V>(loc);
    Adds(off, off, srcOff, (int32_t)W, loc);
    Duplicate(step, (int32_t)(w * s), (int32_t)W, loc);
    PipeBarrier<PIPE_V>(loc);
    pipe_sync<HardEvent::V_S>(loc, api);
    for (uint32_t c = 0; c < W; c++) {
        if (c >= l && c < l + w)
            continue;
        off.SetValue(c, padOff, loc);
        step.SetValue(c, 0, loc);
    }
    pipe_sync<HardEvent::S_V>(loc, api);
    const LocalTensor<uint32_t> offU = off.ReinterpretCast<uint32_t>();
    for (uint32_t r = 0; r < h; r++) {
        Gather(dst[r * W], big, offU, 0, W, loc);
        PipeBarrier<PIPE_V>(loc);
        if (r + 1 < h) {
            Add(off, off, step, (int32_t)W, loc);
            PipeBarrier<PIPE_V>(loc);
        }
    }
}

template <typename T>
inline void pad(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src, const AscendC::PadParams &pp,
                const AscendC::LocalTensor<uint8_t> &tmp, const AscendC::tiling::PadTiling &t, const Loc &loc)
{
    static_assert(pad_type_ok<T>(), "Pad: dtype not supported (int16_t, uint16_t, half, int32_t, uint32_t, float)");
    ub_operand(dst, "dst", 32, loc, "Pad");
    ub_operand(src, "src", 32, loc, "Pad");
    if (t.srcWidth * sizeof(T) % 32 == 0)
        pad_aligned(dst, src, pp, t, loc);
    else
        pad_unaligned(dst, src, pp, tmp, t, loc);
}

/* UnPad (the row width 32-byte aligned; as CANN's dav-2201, leftPad is not applied: each row keeps its first
 * srcWidth - rightPad elements, packed).  CANN packs them with one GatherMask (vreducev2); dvsim gathers
 * output element i from (i + floor(i / n) * rightPad) * size for n kept columns (gather_rows). */
template <typename T>
inline void unpad(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                  const AscendC::UnPadParams &up, const AscendC::LocalTensor<uint8_t> &tmp,
                  const AscendC::tiling::UnPadTiling &t, const Loc &loc)
{
    using namespace AscendC;
    static_assert(pad_type_ok<T>(), "UnPad: dtype not supported (int16_t, uint16_t, half, int32_t, uint32_t, float)");
    const char *api = "UnPad";
    constexpr uint32_t s = sizeof(T);
    const uint32_t h = t.srcHeight, w = t.srcWidth, rp = up.rightPad;
    ub_operand(dst, "dst", 32, loc, api);
    ub_operand(src, "src", 32, loc, api);
    if (w * s % 32 != 0)
        fail_at(loc, api, "the row width (%u elements) must fill whole 32-byte datablocks", w);
    if (rp == 0 || rp * s >= 32)
        fail_at(loc, api, "rightPad %u must be more than 0 and less than 32 bytes", rp);
    const uint32_t n = w - rp, total = h * n;
    src.need((uint64_t)h * w, loc, api);
    dst.need(total, loc, api);
    gather_rows(dst, src, tmp, total, n, rp * s, s, loc, api);
}

/* ---- ConfusionTranspose, TransposeType NZ2ND_0213 / NZ2NZ_0213 ---- */
/* Source NZ [B, A1, A3 / 16, A2 / 16, 16, 16]: every 16-element fractal row is one run of 16 * size bytes, and
 * it stays one in the destination (ND [B, A2, A1, A3]; NZ [B, A2, A3 / 16, A1 / 16, 16, 16]).  CANN moves them
 * with two TransDataTo5HD passes through the stack buffer (vnchwconv, not in dvsim's ISA); dvsim moves the same
 * runs with UB -> UB DataCopy (copy_ubuf_to_ubuf), one per (batch, A1, A3 block): alignA2 runs, each to the
 * next destination row. */
template <typename T>
inline void transpose_0213(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                           AscendC::TransposeType type, const AscendC::tiling::ConfusionTransposeTiling &t,
                           const Loc &loc)
{
    using namespace AscendC;
    const char *api = "Transpose";
    constexpr uint32_t run = 16 * sizeof(T) / 32; /* datablocks of a fractal row */
    const uint32_t B = t.param1, A1 = t.param2, alignA3 = t.param3, alignA2 = t.param4, blocksA3 = t.param5;
    const uint32_t batch = t.param12, rowLen = t.param13;
    if (alignA2 == 0 || alignA2 % 16 || alignA3 != blocksA3 * 16 || rowLen != A1 * alignA3 ||
        batch != A1 * alignA2 * alignA3)
        fail_at(loc, api, "the tiling is not a 0213 tiling (GetTransposeTilingInfo with TransposeType %d)",
                (int)type);
    if (alignA2 > 4095)
        fail_at(loc, api, "A2 (%u rows) is beyond DataCopy's 4095 bursts", alignA2);
    src.need((uint64_t)B * batch, loc, api);
    dst.need((uint64_t)B * batch, loc, api);
    const uint32_t gap = (rowLen - 16) * sizeof(T) / 32;
    if (gap > 65535)
        fail_at(loc, api, "a destination row of %u elements is beyond DataCopy's gap", rowLen);
    const DataCopyParams p((uint16_t)alignA2, (uint16_t)run, 0, (uint16_t)gap);
    for (uint32_t b = 0; b < B; b++)
        for (uint32_t a1 = 0; a1 < A1; a1++)
            for (uint32_t j = 0; j < blocksA3; j++) {
                const uint32_t s0 = b * batch + a1 * alignA2 * alignA3 + j * alignA2 * 16;
                const uint32_t d0 = b * batch + (type == TransposeType::TRANSPOSE_NZ2ND_0213
                                                     ? a1 * alignA3 + j * 16
                                                     : j * A1 * 16 + a1 * 16);
                DataCopy(dst[d0], src[s0], p, loc);
            }
    PipeBarrier<PIPE_V>(loc);
}

template <typename T>
inline void confusion_transpose(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                                AscendC::TransposeType type, const AscendC::tiling::ConfusionTransposeTiling &t,
                                const Loc &loc)
{
    using namespace AscendC;
    static_assert(one_of<T, half, float, int16_t, uint16_t, int32_t, uint32_t, bfloat16_t>(),
                  "Transpose: dtype not supported (2- and 4-byte types)");
    ub_operand(dst, "dst", 32, loc, "Transpose");
    ub_operand(src, "src", 32, loc, "Transpose");
    if (type == TransposeType::TRANSPOSE_NZ2ND_0213 || type == TransposeType::TRANSPOSE_NZ2NZ_0213)
        transpose_0213(dst, src, type, t, loc);
    else
        fail_at(loc, "Transpose", "TransposeType %d is not implemented by dvsim (NZ2ND_0213 and NZ2NZ_0213 are)",
                (int)type);
}

/* ---- TransData: NCDHW <-> NDC1HWC0 / FRACTAL_Z_3D, 2-byte elements ---- */
/* One 16 x 16 tile: srcRows rows of 16 elements, srcStride datablocks apart, transposed; dstRows rows of the
 * result written dstStride datablocks apart.  Rows that are not contiguous go through tmp (UB -> UB DataCopy);
 * the missing source rows are zeros (vdup). */
template <typename T>
inline void trans_tile(const AscendC::LocalTensor<T> &dst, uint32_t dstRows, uint32_t dstStride,
                       const AscendC::LocalTensor<T> &src, uint32_t srcRows, uint32_t srcStride,
                       const AscendC::LocalTensor<T> &tmpA, const AscendC::LocalTensor<T> &tmpB, const Loc &loc)
{
    using namespace AscendC;
    LocalTensor<T> a = src;
    if (srcRows < 16 || srcStride != 1) {
        if (srcRows < 16) {
            Duplicate(tmpA, (T)0, 256, loc);
            PipeBarrier<PIPE_V>(loc);
        }
        DataCopy(tmpA, src, DataCopyParams((uint16_t)srcRows, 1, (uint16_t)(srcStride - 1), 0), loc);
        PipeBarrier<PIPE_V>(loc);
        a = tmpA;
    }
    if (dstRows == 16 && dstStride == 1) {
        Transpose(dst, a, loc);
    } else {
        Transpose(tmpB, a, loc);
        PipeBarrier<PIPE_V>(loc);
        DataCopy(dst, tmpB, DataCopyParams((uint16_t)dstRows, 1, 0, (uint16_t)(dstStride - 1)), loc);
    }
    PipeBarrier<PIPE_V>(loc);
}

/* The NCDHW side has rows of H * W elements padded to whole datablocks (HWp); NDC1HWC0 is [N, D, C1, H, W, 16]
 * and FRACTAL_Z_3D [D, C1, H, W, N1, 16, 16], channels (and N) padded with zeros.  Every conversion is a
 * transpose of 16 x 16 tiles (channels x H * W): CANN's uses TransDataTo5HD (vnchwconv, not in dvsim's ISA);
 * dvsim's, vtranspose, with UB -> UB DataCopy gathering and scattering the tiles' rows. */
template <AscendC::DataFormat from, AscendC::DataFormat to, typename T>
inline void transdata(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                      const AscendC::LocalTensor<uint8_t> &tmp, uint32_t N, uint32_t C, uint32_t D, uint32_t H,
                      uint32_t W, const Loc &loc)
{
    using namespace AscendC;
    const char *api = "TransData";
    ub_operand(dst, "dst", 32, loc, api);
    ub_operand(src, "src", 32, loc, api);
    const uint32_t HW = H * W, hw1 = (HW + 15) / 16, HWp = hw1 * 16, C1 = (C + 15) / 16, N1 = (N + 15) / 16;
    const uint32_t ncdhw = N * C * D * HWp;
    constexpr bool toFz = to == DataFormat::FRACTAL_Z_3D, fromFz = from == DataFormat::FRACTAL_Z_3D;
    constexpr bool fromNcdhw = from == DataFormat::NCDHW;
    const uint32_t other = (toFz || fromFz) ? D * C1 * HW * N1 * 256 : N * D * C1 * HW * 16;
    const uint32_t rowBlk = D * HWp / 16; /* datablocks between two channels of an NCDHW row */
    const uint32_t oStride = toFz || fromFz ? N1 * 16 : 1; /* datablocks between two hw rows of the other side */
    /* the staging tiles a conversion needs: before the transpose when the source rows are not one contiguous
     * 16 x 16 tile, after it when the destination rows are not */
    const bool ncPart = C % 16 != 0 || rowBlk != 1, oPart = HW % 16 != 0 || oStride != 1;
    const bool needA = fromNcdhw ? ncPart : oPart, needB = fromNcdhw ? oPart : ncPart;
    const uint32_t tmpBytes = 512 * ((uint32_t)needA + (uint32_t)needB);
    if (tmpBytes) {
        ub_operand(tmp, "sharedTmpBuffer", 32, loc, api);
        if (tmp.GetSize() < tmpBytes)
            fail_at(loc, api, "the temporary buffer holds %u bytes, %u are needed", tmp.GetSize(), tmpBytes);
    }
    const LocalTensor<T> tA = tmp.ReinterpretCast<T>(), tB = tmp[needA ? 512 : 0].ReinterpretCast<T>();
    if (D * HWp / 16 > 65536 || N1 * 16 > 65536 || N == 0 || C == 0 || D == 0 || HW == 0)
        fail_at(loc, api, "shape N %u C %u D %u H %u W %u is outside what the copies' strides reach", N, C, D, H, W);
    src.need(fromNcdhw ? ncdhw : other, loc, api);
    dst.need(fromNcdhw ? other : ncdhw, loc, api);
    if (fromNcdhw && (C % 16 || (toFz && N % 16))) { /* the padded channels (and N) are zeros */
        Duplicate(dst, (T)0, (int32_t)other, loc);
        PipeBarrier<PIPE_V>(loc);
    }
    for (uint32_t n = 0; n < N; n++)
        for (uint32_t d = 0; d < D; d++)
            for (uint32_t c1 = 0; c1 < C1; c1++) {
                const uint32_t ch = C - c1 * 16 < 16 ? C - c1 * 16 : 16;
                const uint32_t nc = ((n * C + c1 * 16) * D + d) * HWp; /* the NCDHW side's first row */
                /* the other side's row of (hw = 0, c0 = 0), and the datablocks between two hw rows */
                const uint32_t o = toFz || fromFz ? (d * C1 + c1) * HW * N1 * 256 + n * 16
                                                  : ((n * D + d) * C1 + c1) * HW * 16;
                for (uint32_t hb = 0; hb < hw1; hb++) {
                    const uint32_t rows = HW - hb * 16 < 16 ? HW - hb * 16 : 16;
                    if (fromNcdhw)
                        trans_tile(dst[o + hb * 16 * oStride * 16], rows, oStride, src[nc + hb * 16], ch, rowBlk,
                                   tA, tB, loc);
                    else
                        trans_tile(dst[nc + hb * 16], ch, rowBlk, src[o + hb * 16 * oStride * 16], rows, oStride,
                                   tA, tB, loc);
                }
            }
}

} // namespace xform
} // namespace dvac

namespace AscendC {

/* ---- Fill (CANN's InitGlobalMemory): size elements of GM set to value ---- */
/* Duplicate into the stack buffer, V -> MTE3, then DataCopyPad bursts of the buffer, PIPE_MTE3 barrier. */
template <typename T>
inline void Fill(GlobalTensor<T> &gmWorkspaceAddr, const uint64_t size, const T value,
                 const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::one_of<T, uint16_t, int16_t, half, float, uint32_t, int32_t>(),
                  "Fill: dtype not supported (uint16_t, int16_t, half, float, uint32_t, int32_t)");
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    LocalTensor<T> buf = dvac::xform::stack_buffer<T>(c, loc, "Fill");
    constexpr uint32_t maxBurst = 255 * 256 / sizeof(T);
    const uint32_t pop = buf.GetSize() < maxBurst ? buf.GetSize() : maxBurst;
    const uint64_t rounds = size / pop, tail = size % pop;
    Duplicate<T>(buf, value, (int32_t)pop, loc);
    const int32_t ev = dvac::xform::pipe_event(HardEvent::V_MTE3, loc, "Fill");
    SetFlag<HardEvent::V_MTE3>(ev, loc);
    WaitFlag<HardEvent::V_MTE3>(ev, loc);
    DataCopyExtParams p(1, (uint32_t)(pop * sizeof(T)), 0, 0, 0);
    for (uint64_t i = 0; i < rounds; i++)
        DataCopyPad(gmWorkspaceAddr[i * pop], buf, p, loc);
    if (tail) {
        p.blockLen = (uint32_t)(tail * sizeof(T));
        DataCopyPad(gmWorkspaceAddr[rounds * pop], buf, p, loc);
    }
    PipeBarrier<PIPE_MTE3>(loc);
}

/* ---- Broadcast: dim 1 or 2, along axis 0 ([1, n] -> [m, n]) or 1 ([m, 1] -> [m, n]) ---- */
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], LocalTensor<uint8_t> &sharedTmpBuffer,
                      const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    dvac::ub_operand(sharedTmpBuffer, "sharedTmpBuffer", 32, loc, "Broadcast");
    dvac::xform::broadcast<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, sharedTmpBuffer, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], const dvac::Loc &loc = dvac::Loc::here())
{
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    dvac::xform::broadcast<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape,
                                         dvac::xform::stack_buffer<uint8_t>(c, loc, "Broadcast"), loc);
}


/* ---- Pad: rows of a [height, width] tensor padded on the right (and left) to 32-byte datablocks ---- */
template <typename T>
inline void Pad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, PadParams &padParams,
                const LocalTensor<uint8_t> &sharedTmpBuffer, PadTiling &tiling,
                const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    dvac::ub_operand(sharedTmpBuffer, "sharedTmpBuffer", 32, loc, "Pad");
    dvac::xform::pad(dstTensor, srcTensor, padParams, sharedTmpBuffer, tiling, loc);
}
template <typename T>
inline void Pad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, PadParams &padParams,
                PadTiling &tiling, const dvac::Loc &loc = dvac::Loc::here())
{
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    dvac::xform::pad(dstTensor, srcTensor, padParams, dvac::xform::stack_buffer<uint8_t>(c, loc, "Pad"), tiling,
                     loc);
}

/* ---- UnPad: the last rightPad columns of each row removed ---- */
template <typename T>
inline void UnPad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, UnPadParams &unPadParams,
                  LocalTensor<uint8_t> &sharedTmpBuffer, UnPadTiling &tiling,
                  const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    dvac::ub_operand(sharedTmpBuffer, "sharedTmpBuffer", 32, loc, "UnPad");
    dvac::xform::unpad(dstTensor, srcTensor, unPadParams, sharedTmpBuffer, tiling, loc);
}
template <typename T>
inline void UnPad(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor, UnPadParams &unPadParams,
                  UnPadTiling &tiling, const dvac::Loc &loc = dvac::Loc::here())
{
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    dvac::xform::unpad(dstTensor, srcTensor, unPadParams, dvac::xform::stack_buffer<uint8_t>(c, loc, "UnPad"),
                       tiling, loc);
}


/* ---- Transpose with a TransposeType (CANN's ConfusionTranspose) ---- */
template <typename T>
inline void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint8_t> &sharedTmpBuffer,
                      TransposeType transposeType, ConfusionTransposeTiling &tiling,
                      const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    dvac::ub_operand(sharedTmpBuffer, "sharedTmpBuffer", 32, loc, "Transpose");
    dvac::xform::confusion_transpose(dst, src, transposeType, tiling, loc);
}
template <typename T>
inline void Transpose(const LocalTensor<T> &dst, const LocalTensor<T> &src, TransposeType transposeType,
                      ConfusionTransposeTiling &tiling, const dvac::Loc &loc = dvac::Loc::here())
{
    if (!dvac::vec_stream(loc))
        return;
    dvac::xform::confusion_transpose(dst, src, transposeType, tiling, loc);
}


/* ---- TransData<config>: NCDHW <-> NDC1HWC0, NCDHW <-> FRACTAL_Z_3D (half, int16_t, uint16_t) ---- */
template <const TransDataConfig &config, typename T, typename U, typename S>
inline void TransData(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                      const LocalTensor<uint8_t> &sharedTmpBuffer, const TransDataParams<U, S> &params,
                      const dvac::Loc &loc = dvac::Loc::here())
{
    static_assert(dvac::one_of<T, half, int16_t, uint16_t, bfloat16_t>(),
                  "TransData: dvsim implements the 2-byte types (half, int16_t, uint16_t, bfloat16_t)");
    constexpr DataFormat from = config.srcFormat, to = config.dstFormat;
    constexpr bool ok = (from == DataFormat::NCDHW &&
                         (to == DataFormat::NDC1HWC0 || to == DataFormat::FRACTAL_Z_3D)) ||
                        (to == DataFormat::NCDHW &&
                         (from == DataFormat::NDC1HWC0 || from == DataFormat::FRACTAL_Z_3D));
    static_assert(ok, "TransData: the conversions are NCDHW <-> NDC1HWC0 and NCDHW <-> FRACTAL_Z_3D");
    if (!dvac::vec_stream(loc))
        return;
    const auto &nc = [&]() -> const auto & {
        if constexpr (from == DataFormat::NCDHW)
            return params.srcLayout;
        else
            return params.dstLayout;
    }();
    static_assert(std::tuple_size<std::decay_t<decltype(nc.GetShape())>>::value == 5,
                  "TransData: the NCDHW layout's shape is (n, c, d, h, w)");
    dvac::xform::transdata<from, to, T>(dstTensor, srcTensor, sharedTmpBuffer, (uint32_t)nc.template GetShape<0>(),
                                        (uint32_t)nc.template GetShape<1>(), (uint32_t)nc.template GetShape<2>(),
                                        (uint32_t)nc.template GetShape<3>(), (uint32_t)nc.template GetShape<4>(), loc);
}
template <const TransDataConfig &config, typename T, typename U, typename S>
inline void TransData(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                      const TransDataParams<U, S> &params, const dvac::Loc &loc = dvac::Loc::here())
{
    dv_k_t *c = dvac::vec_stream(loc);
    if (!c)
        return;
    TransData<config, T, U, S>(dstTensor, srcTensor, dvac::xform::stack_buffer<uint8_t>(c, loc, "TransData"), params,
                               loc);
}

} // namespace AscendC

#endif
