/* dvac/cube_load3d.h - LoadData (卷积数据搬运) v2 and v2 Pro of dav-2201: img2col of an NC1HWC0 feature
 * map in L1 into L0A (img2col_cbuf_to_ca) or L0B (img2col_cbuf_to_cb), and the registers it reads.
 *
 * CANN's LoadData with LoadData3DParamsV2 (impl/basic_api/dav_c220/kernel_operator_mm_impl.h,
 * LoadData3DV2L12L0ACal / L0BCal) first writes the FMATRIX register (l1H, l1W, padList: set_fmatrix)
 * and the padding register (set_padding) unless its IsResetLoad3dConfig says not to, then emits
 * img2colv2_cbuf_to_ca / _cb with the rest of the parameters; LoadData3DParamsV2Pro never writes them.
 * SetFmatrix, SetLoadDataPaddingValue, SetLoadDataBoundary and SetLoadDataRepeat write the registers
 * alone.  Here the registers are the stream's state below; a register write costs the scalar unit one
 * issue, and the img2col is one instruction of the model (docs/SEMANTICS.md, IMG2COL).
 * Not modelled (located errors): channelSize that is not a whole number of 32-byte C0 groups (the
 * hardware's 4- and 8-channel modes), filterSizeW / filterSizeH, enSmallK, fMatrixCtrl (the right
 * FMATRIX register, which the API page says is not supported either) and repeat modes other than one
 * iteration.  SetLoadDataBoundary's wrap is the model's (IMG2COL boundary: an L1 address at or past it
 * is read at the address modulo the boundary, "from L1's start" as the API page says). */
#ifndef DVAC_CUBE_LOAD3D_H
#define DVAC_CUBE_LOAD3D_H

#include <type_traits>

namespace AscendC {

constexpr uint8_t PAD_SIZE = 4;

/* Whether LoadData (v2) writes the FMATRIX / padding registers from its parameters. */
struct IsResetLoad3dConfig {
    bool isSetFMatrix = true;
    bool isSetPadding = true;
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

enum class FmatrixMode : uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT = 1 };

/* The img2col: feature map l1H x l1W x channelSize (NC1HWC0 in L1), padList {left, right, top,
 * bottom}; the window filterH x filterW with strides and dilations; the part of the im2col matrix
 * loaded: rows mStartPt.. (mExtension of them), columns kStartPt.. (kExtension). */
template <typename T> struct LoadData3DParamsV2 {
    LoadData3DParamsV2() {}
    LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], uint16_t l1HIn, uint16_t l1WIn, uint16_t channelSizeIn,
                       uint16_t kExtensionIn, uint16_t mExtensionIn, uint16_t kStartPtIn, uint16_t mStartPtIn,
                       uint8_t strideWIn, uint8_t strideHIn, uint8_t filterWIn, uint8_t filterHIn,
                       uint8_t dilationFilterWIn, uint8_t dilationFilterHIn, bool enTransposeIn, bool enSmallKIn,
                       T padValueIn)
        : l1H(l1HIn), l1W(l1WIn), channelSize(channelSizeIn), kExtension(kExtensionIn), mExtension(mExtensionIn),
          kStartPt(kStartPtIn), mStartPt(mStartPtIn), strideW(strideWIn), strideH(strideHIn), filterW(filterWIn),
          filterH(filterHIn), dilationFilterW(dilationFilterWIn), dilationFilterH(dilationFilterHIn),
          enTranspose(enTransposeIn), enSmallK(enSmallKIn), padValue(padValueIn)
    {
        for (int i = 0; i < PAD_SIZE; i++)
            padList[i] = padListIn[i];
    }
    LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], uint16_t l1HIn, uint16_t l1WIn, uint16_t channelSizeIn,
                       uint16_t kExtensionIn, uint16_t mExtensionIn, uint16_t kStartPtIn, uint16_t mStartPtIn,
                       uint8_t strideWIn, uint8_t strideHIn, uint8_t filterWIn, uint8_t filterHIn,
                       uint8_t dilationFilterWIn, uint8_t dilationFilterHIn, bool enTransposeIn, bool enSmallKIn,
                       T padValueIn, bool filterSizeWIn, bool filterSizeHIn, bool fMatrixCtrlIn)
        : LoadData3DParamsV2(padListIn, l1HIn, l1WIn, channelSizeIn, kExtensionIn, mExtensionIn, kStartPtIn,
                             mStartPtIn, strideWIn, strideHIn, filterWIn, filterHIn, dilationFilterWIn,
                             dilationFilterHIn, enTransposeIn, enSmallKIn, padValueIn)
    {
        filterSizeW = filterSizeWIn;
        filterSizeH = filterSizeHIn;
        fMatrixCtrl = fMatrixCtrlIn;
    }
    uint8_t padList[PAD_SIZE] = {0};
    uint16_t l1H = 0;
    uint16_t l1W = 0;
    uint16_t channelSize = 0;
    uint16_t kExtension = 0;
    uint16_t mExtension = 0;
    uint16_t kStartPt = 0;
    uint16_t mStartPt = 0;
    uint8_t strideW = 1;
    uint8_t strideH = 1;
    uint8_t filterW = 1;
    uint8_t filterH = 1;
    uint8_t dilationFilterW = 1;
    uint8_t dilationFilterH = 1;
    bool enTranspose = false;
    bool enSmallK = false;
    T padValue = 0;
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
};

/* v2 Pro: the same instruction with its fields packed: extConfig = mStartPt << 48 | kStartPt << 32 |
 * mExtension << 16 | kExtension; filterConfig = dilationFilterH << 40 | dilationFilterW << 32 |
 * filterH << 24 | filterW << 16 | strideH << 8 | strideW.  The registers come from SetFmatrix and
 * SetLoadDataPaddingValue. */
struct LoadData3DParamsV2Pro {
    LoadData3DParamsV2Pro() {}
    LoadData3DParamsV2Pro(uint16_t channelSizeIn, bool enTransposeIn, bool enSmallKIn, bool filterSizeWIn,
                          bool filterSizeHIn, bool fMatrixCtrlIn, uint64_t extConfigIn, uint64_t filterConfigIn)
        : channelSize(channelSizeIn), enTranspose(enTransposeIn), enSmallK(enSmallKIn), filterSizeW(filterSizeWIn),
          filterSizeH(filterSizeHIn), fMatrixCtrl(fMatrixCtrlIn), extConfig(extConfigIn), filterConfig(filterConfigIn)
    {
    }
    uint16_t channelSize = 0;
    bool enTranspose = false;
    bool enSmallK = false;
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
    uint64_t extConfig = 0;
    uint64_t filterConfig = 0X10101010101;
};

/* SetLoadDataRepeat's register (dav-2201 layout: no dstStride). */
struct LoadDataRepeatParam {
    LoadDataRepeatParam() {}
    LoadDataRepeatParam(uint16_t repeatStrideIn, uint8_t repeatTimeIn, uint8_t repeatModeIn)
        : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn)
    {
    }
    uint16_t repeatStride = 0;
    uint8_t repeatTime = 1;
    uint8_t repeatMode = 0;
    uint8_t reserved = 0;
};

} // namespace AscendC

namespace dvac {

/* The load3d registers of this stream (each stream runs on its own thread). */
struct Load3dRegs {
    uint16_t h[2] = {0, 0}, w[2] = {0, 0}; /* FMATRIX left / right: l1H, l1W */
    uint8_t pad[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    uint32_t padding = 0;   /* the pad value's bits */
    uint32_t boundary = 0;  /* bytes; 0: none */
    AscendC::LoadDataRepeatParam repeat;
};
inline thread_local Load3dRegs g_load3d;

/* A register write: one scalar issue. */
inline void reg_write(dv_k_t *c)
{
    if (cube_here(c))
        dvk_scalar(c, (int64_t)(dvk_config(c)->scalar_issue_cycles ? dvk_config(c)->scalar_issue_cycles : 1));
}

template <typename T> inline uint32_t load3d_pad_bits(T v)
{
    static_assert(sizeof(T) <= 4, "dvsim Ascend C: load3d pad values are 1, 2 or 4 bytes");
    uint32_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return sizeof(T) == 1 ? (b & 0xFF) | (b & 0xFF) << 8 : b; /* CANN repeats a byte value (Load3DSetPaddingCal) */
}

inline void set_fmatrix(dv_k_t *c, uint16_t h, uint16_t w, const uint8_t pad[4], int side)
{
    g_load3d.h[side] = h;
    g_load3d.w[side] = w;
    for (int i = 0; i < 4; i++)
        g_load3d.pad[side][i] = pad[i];
    reg_write(c);
}

/* The fields of one img2col (v2 and v2 Pro alike). */
struct Load3d {
    uint32_t channelSize, kExt, mExt, kStart, mStart, sw, sh, fw, fh, dw, dh;
    bool trans, smallK, fsW, fsH, fmRight;
};

template <typename T>
inline void load3d(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src, const Load3d &p,
                   const Loc &loc)
{
    const char *api = "LoadData";
    const dv_space_t d = dst.space();
    if (d != DV_SPACE_L0A && d != DV_SPACE_L0B)
        fail_at(loc, api, "LoadData (卷积数据搬运) loads into L0A (A2) or L0B (B2), not into %s", dvk_space_name(d));
    need_space(src, DV_SPACE_L1, "source (A1/B1)", loc, api);
    dv_k_t *c = at(loc);
    if (sizeof(T) == 1 && (d == DV_SPACE_L0B || p.trans))
        fail_at(loc, api, "8-bit types load into L0A without enTranspose only on dav-2201 (API page, constraints)");
    if (p.fmRight)
        fail_at(loc, api, "fMatrixCtrl true (the right FMATRIX register) is not supported (API page)");
    if (p.smallK)
        fail_at(loc, api, "enSmallK is no longer supported (API page)");
    if (p.fsW || p.fsH)
        fail_at(loc, api, "filterSizeW / filterSizeH (kernels past 255) are not supported by dvsim yet");
    const Load3dRegs &r = g_load3d;
    const int side = 0;
    if (r.h[side] == 0 || r.w[side] == 0 || p.channelSize == 0 || p.kExt == 0 || p.mExt == 0 || p.fw == 0 ||
        p.fh == 0)
        return; /* a NOP, as the API page says */
    const uint32_t C0 = 32 / sizeof(T);
    if (r.repeat.repeatTime != 1)
        fail_at(loc, api, "SetLoadDataRepeat repeatTime %u: repeated img2cols are not supported by dvsim yet",
                r.repeat.repeatTime);
    if (p.channelSize % C0)
        fail_at(loc, api, "channelSize %u is not a multiple of C0 = %u (the hardware's 4- and 8-channel modes are not "
                "supported by dvsim yet)", p.channelSize, C0);
    if (p.kStart % C0 || p.kExt % C0)
        fail_at(loc, api, "kStartPt %u and kExtension %u must be multiples of C0 = %u here", p.kStart, p.kExt, C0);
    if (r.h[side] > 4095 || r.w[side] > 4095 || p.channelSize / C0 > 4095)
        fail_at(loc, api, "l1H %u, l1W %u and channelSize / C0 %u must be at most 4095 here", r.h[side], r.w[side],
                p.channelSize / C0);
    if (p.sw == 0 || p.sh == 0 || p.sw > 63 || p.sh > 63 || p.dw == 0 || p.dh == 0 || p.fw > 255 || p.fh > 255 ||
        p.dw > 255 || p.dh > 255)
        fail_at(loc, api, "strides %u, %u must be in [1, 63], dilations %u, %u and the filter %u x %u in [1, 255]",
                p.sw, p.sh, p.dw, p.dh, p.fw, p.fh);
    check_aligned(dst, loc, api);
    check_aligned(src, loc, api);
    /* the tensor must hold the loaded matrix's elements (rows padded to 16); a transposed 32-bit load
     * also skips the columns that pad each 8-row group to 16, which the model keeps inside L0 itself */
    const uint64_t M1 = (p.mExt + 15) / 16;
    need_bytes(dst, M1 * 16 * p.kExt * sizeof(T), loc, api);
    const bool trans = p.trans || d == DV_SPACE_L0B;
    if (!cube_here(c))
        return;
    const uint8_t *pad = r.pad[side]; /* {left, right, top, bottom} */
    (d == DV_SPACE_L0A ? dvk_img2col_cbuf_to_ca : dvk_img2col_cbuf_to_cb)(
        c, dst.addr(), src.addr(), cube_dtype<T>(), r.h[side], r.w[side], p.channelSize / C0, p.fh, p.fw, p.sh, p.sw,
        pad[2], pad[3], pad[0], pad[1], p.dh, p.dw, p.mStart, p.mExt, p.kStart, p.kExt, trans ? 1 : 0,
        (int64_t)r.padding, (int64_t)r.boundary);
}

} // namespace dvac

namespace AscendC {

/* FMATRIX: the feature map's height, width and padding that the next LoadData (v2 Pro, or v2 with
 * isSetFMatrix false) reads. */
inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4], const FmatrixMode &fmatrixMode,
                       const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::set_fmatrix(dvac::at(loc), l1H, l1W, padList, fmatrixMode == FmatrixMode::FMATRIX_RIGHT ? 1 : 0);
}

template <typename T> inline void SetLoadDataPaddingValue(const T padValue, const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::g_load3d.padding = dvac::load3d_pad_bits(padValue);
    dvac::reg_write(dvac::at(loc));
}

/* L1 bytes past which the img2col's reads wrap to L1's start (0: no boundary). */
inline void SetLoadDataBoundary(uint32_t boundaryValue, const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::g_load3d.boundary = boundaryValue;
    dvac::reg_write(dvac::at(loc));
}

inline void SetLoadDataRepeat(const LoadDataRepeatParam &repeatParams, const dvac::Loc &loc = dvac::Loc::here())
{
    if (repeatParams.repeatMode > 1)
        dvac::fail_at(loc, "SetLoadDataRepeat", "repeatMode %u is not 0 or 1", repeatParams.repeatMode);
    dvac::g_load3d.repeat = repeatParams;
    dvac::reg_write(dvac::at(loc));
}

/* LoadData v2: set_fmatrix and set_padding as defaultConfig says, then img2col_cbuf_to_ca / _cb. */
template <typename T, const IsResetLoad3dConfig &defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U = T,
          typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
inline void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData3DParamsV2<U> &p,
                     const dvac::Loc &loc = dvac::Loc::here())
{
    dv_k_t *c = dvac::at(loc);
    if (defaultConfig.isSetFMatrix)
        dvac::set_fmatrix(c, p.l1H, p.l1W, p.padList, 0);
    if (defaultConfig.isSetPadding) {
        dvac::g_load3d.padding = dvac::load3d_pad_bits(p.padValue);
        dvac::reg_write(c);
    }
    dvac::load3d(dst, src,
                 dvac::Load3d{p.channelSize, p.kExtension, p.mExtension, p.kStartPt, p.mStartPt, p.strideW, p.strideH,
                              p.filterW, p.filterH, p.dilationFilterW, p.dilationFilterH, p.enTranspose, p.enSmallK,
                              p.filterSizeW, p.filterSizeH, p.fMatrixCtrl},
                 loc);
}

/* LoadData v2 Pro: the registers as they are. */
template <typename T>
inline void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData3DParamsV2Pro &p,
                     const dvac::Loc &loc = dvac::Loc::here())
{
    const uint64_t e = p.extConfig, f = p.filterConfig;
    dvac::load3d(dst, src,
                 dvac::Load3d{p.channelSize, (uint32_t)(e & 0xFFFF), (uint32_t)(e >> 16 & 0xFFFF),
                              (uint32_t)(e >> 32 & 0xFFFF), (uint32_t)(e >> 48 & 0xFFFF), (uint32_t)(f & 0xFF),
                              (uint32_t)(f >> 8 & 0xFF), (uint32_t)(f >> 16 & 0xFF), (uint32_t)(f >> 24 & 0xFF),
                              (uint32_t)(f >> 32 & 0xFF), (uint32_t)(f >> 40 & 0xFF), p.enTranspose, p.enSmallK,
                              p.filterSizeW, p.filterSizeH, p.fMatrixCtrl},
                 loc);
}

} // namespace AscendC

#endif
