/* adv/transform_tiling.h - Ascend C high-level API, data layout (Broadcast, Fill, Pad, UnPad, TransData,
 * ConfusionTranspose): the tiling structs the kernel reads (global namespace and AscendC::tiling, CANN's field
 * order), their host classes (optiling) and the host functions that size temporary buffers and fill the tilings.
 *
 * PadTiling, UnPadTiling and ConfusionTransposeTiling are written once as field tables (DVAC_*_TILING_FIELDS,
 * CANN's order: asc-devkit include/adv_api/pad/pad_tilingdata.h, transpose/confusion_transpose_tilingdata.h):
 * the kernel struct AscendC::tiling::X and the host class optiling::X (set_<field> / get_<field>, SaveToBuffer)
 * are both made from them.  The host functions compute what asc-devkit's impl/adv_api/tiling/pad/ and
 * tiling/transpose/ compute, for what dvsim's kernels implement. */
#ifndef DVSIM_ADV_TRANSFORM_TILING_H
#define DVSIM_ADV_TRANSFORM_TILING_H

#include <cstdint>
#include <cstdio>

#include "../register/tilingdata_base.h"
#include "../tiling/shape.h"

/* X(name): PadTiling's fields (all uint32_t), in CANN's order. */
#define DVAC_PAD_TILING_FIELDS(X)                                                                                   \
    X(srcHeight) X(srcWidth) X(srcOriWidth) X(widthWithoutLastBlock) X(blocksPerRow) X(heightTiling)               \
    X(heightFractal) X(heightFractalTail) X(mainLoopOffset) X(tailBlockOffset) X(tmpBuffer1BlockNum)               \
    X(tmpBuffer1RowNum) X(tmpBuffer2Offset) X(widthTiling) X(widthFractal) X(widthFractalTail)                     \
    X(widthFractalTailAlingned) X(brcbTiling) X(brcbFractal) X(brcbFractalTail) X(maxRepeatTimes)                  \
    X(brcbTilingRepeatTimes) X(brcbTilingRepeatTimesTail) X(brcbFractalTailRepeatTimes)                            \
    X(brcbFractalTailRepeatTimesTail) X(reserved)

/* X(name): ConfusionTransposeTiling's fields (all uint32_t), in CANN's order (asc-devkit
 * include/adv_api/transpose/confusion_transpose_tilingdata.h); their meaning depends on the TransposeType. */
#define DVAC_CONFUSION_TRANSPOSE_TILING_FIELDS(X)                                                                   \
    X(param0) X(param1) X(param2) X(param3) X(param4) X(param5) X(param6) X(param7) X(param8) X(param9) X(param10) \
    X(param11) X(param12) X(param13) X(param14) X(param15) X(param16) X(param17)

/* X(name): UnPadTiling's fields (all uint32_t), in CANN's order. */
#define DVAC_UNPAD_TILING_FIELDS(X)                                                                                 \
    X(srcHeight) X(srcWidth) X(tmpBuffer1BlockNum) X(tmpBuffer1RowNum) X(tmpBuffer2Offset) X(widthTiling)          \
    X(widthFractal) X(widthFractalTail)

namespace AscendC {
namespace tiling {
#define DVAC_XFORM_MEMBER(name) uint32_t name = 0;
/* Pad's tiling (PadTilingFunc fills it on the host). */
struct PadTiling {
    DVAC_PAD_TILING_FIELDS(DVAC_XFORM_MEMBER)
};
/* UnPad's tiling (UnPadTilingFunc fills it on the host). */
struct UnPadTiling {
    DVAC_UNPAD_TILING_FIELDS(DVAC_XFORM_MEMBER)
};
/* ConfusionTranspose's tiling (GetTransposeTilingInfo fills it on the host). */
struct ConfusionTransposeTiling {
    DVAC_CONFUSION_TRANSPOSE_TILING_FIELDS(DVAC_XFORM_MEMBER)
};
#undef DVAC_XFORM_MEMBER
} // namespace tiling
} // namespace AscendC

using AscendC::tiling::PadTiling;
using AscendC::tiling::UnPadTiling;
using AscendC::tiling::ConfusionTransposeTiling;

namespace optiling {
#define DVAC_XFORM_FIELD(name) TILING_DATA_FIELD_DEF(uint32_t, name);
BEGIN_TILING_DATA_DEF(PadTiling)
DVAC_PAD_TILING_FIELDS(DVAC_XFORM_FIELD)
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(UnPadTiling)
DVAC_UNPAD_TILING_FIELDS(DVAC_XFORM_FIELD)
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(ConfusionTransposeTiling)
DVAC_CONFUSION_TRANSPOSE_TILING_FIELDS(DVAC_XFORM_FIELD)
END_TILING_DATA_DEF;
#undef DVAC_XFORM_FIELD
static_assert(sizeof(PadTiling) == sizeof(AscendC::tiling::PadTiling), "PadTiling layouts differ");
static_assert(sizeof(UnPadTiling) == sizeof(AscendC::tiling::UnPadTiling), "UnPadTiling layouts differ");
static_assert(sizeof(ConfusionTransposeTiling) == sizeof(AscendC::tiling::ConfusionTransposeTiling),
              "ConfusionTransposeTiling layouts differ");
} // namespace optiling

namespace platform_ascendc {
class PlatformAscendC;
}

namespace dvac {
namespace xform {
constexpr uint32_t BLK = 32;       /* bytes of a datablock */
constexpr uint32_t ADDR_LIST = 16; /* TransDataTo5HD's address lists: Pad's unaligned path works in 16 rows */

/* The checks CANN's host functions make (2-D shape, 2- or 4-byte elements): false with the reason on stderr. */
inline bool pad_args_ok(const ge::Shape &s, uint32_t typeSize, const char *api)
{
    if (typeSize != 2 && typeSize != 4) {
        std::fprintf(stderr, "%s: typeSize %u must be 2 or 4\n", api, typeSize);
        return false;
    }
    if (s.GetDimNum() != 2 || s.GetDim(0) <= 0 || s.GetDim(1) <= 0) {
        std::fprintf(stderr, "%s: the shape must have 2 positive dimensions (it has %zu)\n", api, s.GetDimNum());
        return false;
    }
    return true;
}
/* transposeTypeIn is the TransposeType's value: 1 TRANSPOSE_NZ2ND_0213, 2 TRANSPOSE_NZ2NZ_0213 (the types dvsim
 * implements; the others are refused here, on stderr, and at the kernel's call). */
inline bool transpose_0213_ok(const ge::Shape &srcShape, uint32_t typeSize, uint32_t type, const char *api)
{
    if (type != 1 && type != 2) {
        std::fprintf(stderr, "%s: TransposeType %u is not implemented by dvsim (NZ2ND_0213 and NZ2NZ_0213 are)\n",
                     api, type);
        return false;
    }
    if (srcShape.GetDimNum() != 4 || typeSize == 0) {
        std::fprintf(stderr, "%s: srcShape must be [B, A1, A2, A3] and typeSize positive\n", api);
        return false;
    }
    return true;
}

} // namespace xform
} // namespace dvac

namespace AscendC {

/* Pad's temporary UB: the unaligned path's two buffers of 16-row blocks (max: the whole tensor; min: one). */
inline void GetPadMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize, uint32_t &maxValue,
                                uint32_t &minValue)
{
    using namespace dvac::xform;
    maxValue = minValue = 0;
    if (!pad_args_ok(srcShape, typeSize, "GetPadMaxMinTmpSize"))
        return;
    const uint32_t h = (uint32_t)srcShape.GetDim(0), w = (uint32_t)srcShape.GetDim(1);
    const uint32_t one = ADDR_LIST * (BLK / typeSize) * 2 * typeSize;
    maxValue = ((h * w - 1) / ADDR_LIST + 1) * one;
    minValue = one;
}

/* Pad's tiling for srcShape (the tensor in UB, width in elements) padded from oriSrcShape's width. */
inline void PadTilingFunc(const TensorShape srcShape, const TensorShape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, optiling::PadTiling &tiling)
{
    using namespace dvac::xform;
    if (!pad_args_ok(srcShape, typeSize, "PadTilingFunc") || !pad_args_ok(oriSrcShape, typeSize, "PadTilingFunc"))
        return;
    if (oriSrcShape.GetShapeSize() > srcShape.GetShapeSize()) {
        std::fprintf(stderr, "PadTilingFunc: oriSrcShape has more elements than srcShape\n");
        return;
    }
    const uint32_t h = (uint32_t)srcShape.GetDim(0), w = (uint32_t)srcShape.GetDim(1);
    tiling.set_srcHeight(h);
    tiling.set_srcWidth(w);
    tiling.set_srcOriWidth((uint32_t)oriSrcShape.GetDim(1));
    /* the 32-byte aligned path: Duplicate over the last datablock of each row, 255 rows per call */
    const uint32_t withoutLast = w - BLK / typeSize, heightTiling = 255;
    tiling.set_widthWithoutLastBlock(withoutLast);
    tiling.set_blocksPerRow(w * typeSize / BLK);
    tiling.set_heightTiling(heightTiling);
    tiling.set_heightFractal(h / heightTiling);
    tiling.set_heightFractalTail(h % heightTiling);
    tiling.set_mainLoopOffset(heightTiling * w);
    tiling.set_tailBlockOffset(h / heightTiling * heightTiling * w + withoutLast);
    if (stackBufferSize == 0)
        return;
    /* the unaligned path: blocks of 16 datablocks in two temporary buffers */
    const uint32_t baseElems = ADDR_LIST * BLK / typeSize;
    const uint32_t blocks = stackBufferSize / typeSize / baseElems / 2;
    const uint32_t rows = ADDR_LIST * blocks, epb = BLK / typeSize;
    tiling.set_tmpBuffer1RowNum(rows);
    tiling.set_tmpBuffer1BlockNum(blocks);
    tiling.set_tmpBuffer2Offset(blocks * baseElems);
    const uint32_t tail = rows ? w % rows : 0;
    tiling.set_widthTiling(rows);
    tiling.set_widthFractal(rows ? w / rows : 0);
    tiling.set_widthFractalTail(tail);
    tiling.set_widthFractalTailAlingned(((tail - 1) / epb + 1) * epb); /* CANN's unsigned arithmetic */
    const uint32_t brcbTail = rows ? h * w % rows : 0, maxRepeat = 254;
    tiling.set_brcbTiling(rows);
    tiling.set_brcbFractal(rows ? h * w / rows : 0);
    tiling.set_brcbFractalTail(brcbTail);
    tiling.set_maxRepeatTimes(maxRepeat);
    tiling.set_brcbTilingRepeatTimes(rows / 8 / maxRepeat);
    tiling.set_brcbTilingRepeatTimesTail(rows / 8 % maxRepeat);
    tiling.set_brcbFractalTailRepeatTimes(brcbTail / 8 / maxRepeat);
    tiling.set_brcbFractalTailRepeatTimesTail(brcbTail / 8 % maxRepeat);
}
inline void PadTilingFunc(const TensorShape srcShape, const TensorShape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, AscendC::tiling::PadTiling &tiling)
{
    optiling::PadTiling t;
    PadTilingFunc(srcShape, oriSrcShape, stackBufferSize, typeSize, t);
    t.SaveToBuffer(&tiling, sizeof tiling);
}

/* UnPad needs no temporary UB on dav-2201 (the only architecture these headers implement). */
inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC &ascendcPlatform,
                                  const TensorShape &srcShape, const uint32_t typeSize, uint32_t &maxValue,
                                  uint32_t &minValue)
{
    (void)ascendcPlatform;
    maxValue = minValue = 0;
    dvac::xform::pad_args_ok(srcShape, typeSize, "GetUnPadMaxMinTmpSize");
}

/* UnPad's tiling: the shape; with a stack buffer also the blocking of CANN's other architectures. */
inline void UnPadTilingFunc(const TensorShape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            optiling::UnPadTiling &tiling)
{
    using namespace dvac::xform;
    if (!pad_args_ok(srcShape, typeSize, "UnPadTilingFunc"))
        return;
    const uint32_t w = (uint32_t)srcShape.GetDim(1);
    tiling.set_srcHeight((uint32_t)srcShape.GetDim(0));
    tiling.set_srcWidth(w);
    if (stackBufferSize == 0)
        return;
    const uint32_t blocks = stackBufferSize / typeSize / (ADDR_LIST * BLK / typeSize) / 2;
    const uint32_t rows = ADDR_LIST * blocks;
    tiling.set_tmpBuffer1BlockNum(blocks);
    tiling.set_tmpBuffer1RowNum(rows);
    tiling.set_tmpBuffer2Offset(blocks * (ADDR_LIST * BLK / typeSize));
    uint32_t fractal = rows ? w / rows : 0, tail = rows ? w % rows : 0;
    if (tail != 0)
        fractal += 1;
    else
        tail = rows;
    tiling.set_widthTiling(rows);
    tiling.set_widthFractal(fractal);
    tiling.set_widthFractalTail(tail);
}
inline void UnPadTilingFunc(const TensorShape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            AscendC::tiling::UnPadTiling &tiling)
{
    optiling::UnPadTiling t;
    UnPadTilingFunc(srcShape, stackBufferSize, typeSize, t);
    t.SaveToBuffer(&tiling, sizeof tiling);
}


/* ---- Broadcast's temporary UB (dav-2201; CANN's impl/adv_api/tiling/pad/broadcast_tiling.cpp) ---- */
/* 8-bit elements go through half: room for the source and destination as halves, then the half case.  No
 * broadcast or one value: nothing (one datablock for 8-bit); the first dimension: the zero datablock; the last
 * dimension: a datablock per row (min: one Brcb of 8 rows) and, for a row that is not whole datablocks, CANN's
 * GatherMask staging (dvsim's kernel refuses that case). */
inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC &ascendcPlatform,
                                      const TensorShape &srcShape, const TensorShape &dstShape, uint32_t typeSize,
                                      const bool isReuseSource, uint32_t &maxValue, uint32_t &minValue)
{
    (void)ascendcPlatform;
    (void)isReuseSource;
    maxValue = minValue = 0;
    const size_t dims = dstShape.GetDimNum();
    if ((typeSize != 1 && typeSize != 2 && typeSize != 4) || (dims != 1 && dims != 2) ||
        srcShape.GetDimNum() != dims) {
        std::fprintf(stderr, "GetBroadCastMaxMinTmpSize: typeSize 1, 2 or 4 and shapes of 1 or 2 equal dims\n");
        return;
    }
    for (size_t i = 0; i < dims; i++)
        if (srcShape.GetDim(i) != dstShape.GetDim(i) && srcShape.GetDim(i) != 1) {
            std::fprintf(stderr, "GetBroadCastMaxMinTmpSize: srcShape cannot broadcast to dstShape\n");
            return;
        }
    const uint32_t srcSize = (uint32_t)srcShape.GetShapeSize(), dstSize = (uint32_t)dstShape.GetShapeSize();
    uint32_t cast = 0;
    if (typeSize == 1) {
        cast = ((srcSize + 15) / 16 * 16 + (dstSize + 15) / 16 * 16) * 2;
        typeSize = 2;
    }
    if (srcSize == dstSize || srcSize == 1) {
        maxValue = minValue = cast ? cast + 32 : 0;
        return;
    }
    const uint32_t epb = 32 / typeSize, rows = (uint32_t)dstShape.GetDim(0), cols = (uint32_t)dstShape.GetDim(1);
    if (srcShape.GetDim(1) != 1) { /* the first dimension */
        if (cols % epb != 0) {
            std::fprintf(stderr, "GetBroadCastMaxMinTmpSize: dim[1] is not 32-byte aligned\n");
            return;
        }
        maxValue = minValue = 32 + cast;
        return;
    }
    const uint32_t brcbMin = epb * epb * typeSize, brcbMax = (rows + 7) / 8 * 8 * epb * typeSize;
    if (cols % epb == 0) {
        minValue = brcbMin + cast;
        maxValue = brcbMax + cast;
    } else {
        const uint32_t colsAl = (cols + epb - 1) / epb * epb;
        minValue = brcbMin + epb * colsAl * typeSize + cast;
        maxValue = brcbMax + rows * colsAl * typeSize + cast;
    }
}

/* ---- ConfusionTranspose (Transpose with a TransposeType): the NZ -> ND / NZ 0213 types ---- */
/* Temporary UB of the 0213 types: CANN's two TransDataTo5HD passes stage [alignA2, 16] (max) or one 16 x 16
 * fractal (min).  dvsim's block copies use none, but the figures are CANN's, which the tiling is made from. */
inline void GetTransposeMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize,
                                      const uint32_t transposeTypeIn, uint32_t &maxValue, uint32_t &minValue)
{
    maxValue = minValue = 0;
    if (!dvac::xform::transpose_0213_ok(srcShape, typeSize, transposeTypeIn, "GetTransposeMaxMinTmpSize"))
        return;
    const uint32_t alignA2 = (uint32_t)(srcShape.GetDim(2) + 15) / 16 * 16;
    maxValue = alignA2 * 16 * typeSize;
    minValue = 256 * typeSize;
}
inline void GetConfusionTransposeMaxMinTmpSize(const TensorShape &srcShape, const uint32_t typeSize,
                                               const uint32_t transposeTypeIn, uint32_t &maxValue,
                                               uint32_t &minValue)
{
    GetTransposeMaxMinTmpSize(srcShape, typeSize, transposeTypeIn, maxValue, minValue);
}

/* The 0213 tiling for srcShape [B, A1, A2, A3] (CANN's GetConfusionTranspose0213TilingInfo field for field). */
inline void GetTransposeTilingInfo(const TensorShape &srcShape, const uint32_t stackBufferSize,
                                   const uint32_t typeSize, const uint32_t transposeTypeIn,
                                   optiling::ConfusionTransposeTiling &tiling)
{
    if (!dvac::xform::transpose_0213_ok(srcShape, typeSize, transposeTypeIn, "GetTransposeTilingInfo"))
        return;
    const uint32_t b = (uint32_t)srcShape.GetDim(0), a1 = (uint32_t)srcShape.GetDim(1);
    const uint32_t alignA2 = (uint32_t)(srcShape.GetDim(2) + 15) / 16 * 16;
    const uint32_t widthTiling = (uint32_t)(srcShape.GetDim(3) + 15) / 16, alignA3 = widthTiling * 16;
    const uint32_t popSize = stackBufferSize / typeSize / 256 * 256, popH = popSize / 16;
    const uint32_t needSize = alignA2 * 16;
    const uint32_t mainBlocks = popSize ? needSize / popSize : 0, tailSize = popSize ? needSize % popSize : 0;
    tiling.set_param0(32 / typeSize);
    tiling.set_param1(b);
    tiling.set_param2(a1);
    tiling.set_param3(alignA3);
    tiling.set_param4(alignA2);
    tiling.set_param5(widthTiling);
    tiling.set_param6(popSize);
    tiling.set_param7(popH);
    tiling.set_param8(needSize);
    tiling.set_param9(mainBlocks);
    tiling.set_param10(tailSize);
    tiling.set_param11(alignA2 * alignA3);
    tiling.set_param12(a1 * alignA2 * alignA3);
    tiling.set_param13(a1 * alignA3);
    tiling.set_param14(a1 * 16);
    tiling.set_param15(popH * mainBlocks * a1 * alignA3);
}
inline void GetTransposeTilingInfo(const TensorShape &srcShape, const uint32_t stackBufferSize,
                                   const uint32_t typeSize, const uint32_t transposeTypeIn,
                                   AscendC::tiling::ConfusionTransposeTiling &tiling)
{
    optiling::ConfusionTransposeTiling t;
    GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, t);
    t.SaveToBuffer(&tiling, sizeof tiling);
}
inline void GetConfusionTransposeTilingInfo(const TensorShape &srcShape, const uint32_t stackBufferSize,
                                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                                            optiling::ConfusionTransposeTiling &tiling)
{
    GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}
inline void GetConfusionTransposeTilingInfo(const TensorShape &srcShape, const uint32_t stackBufferSize,
                                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                                            AscendC::tiling::ConfusionTransposeTiling &tiling)
{
    GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}

} // namespace AscendC

#endif
