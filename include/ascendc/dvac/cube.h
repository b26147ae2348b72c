/* dvac/cube.h - the cube family of dav-2201 (Atlas A2): DataCopy GM -> L1 with ND -> NZ, LoadData
 * L1 (or GM) -> L0A/L0B, Mmad, Fixpipe L0C -> GM / L1, and the system workspace pointer.
 *
 * Each call is the one instruction CANN's implementation emits for it (docs/ASCENDC.md, "Cube and
 * Matmul API", names the asc-devkit file each mapping comes from):
 *   DataCopy(L1, GM, Nd2NzParams)      copy_gm_to_cbuf_nd2nz (MTE2)
 *   LoadData(L0A/L0B, L1, 2D params)   load_cbuf_to_ca / load_cbuf_to_cb (MTE1)
 *   LoadDataWithTranspose(L0A/L0B, L1) load_cbuf_to_ca_transpose / load_cbuf_to_cb_transpose (MTE1)
 *   LoadData(L0A/L0B, GM, 2D params)   load_gm_to_ca / load_gm_to_cb (MTE2)
 *   Mmad                               mmad (M)
 *   Mmad with a bias tensor in C2      mmad_bias (M): C starts from the BiasTable
 *   dvac::copy_l1_to_bt                copy_cbuf_to_bt (MTE1): CANN's DataCopy C1 -> C2
 *   Fixpipe(GM, L0C, V220 params)      pipe_barrier FIX, copy_matrix_cc_to_gm per ND matrix (FIX)
 *   Fixpipe(L1, L0C, V220 params)      copy_matrix_cc_to_cbuf (FIX)
 * A stream whose core has no cube (the AIVs of a mix kernel) checks the call and emits nothing, so
 * misuse is reported on whichever core runs it first.  Parameters the hardware or CANN rejects,
 * tensors too small for what an instruction touches and features the model lacks (quantisation to
 * integers, a bias in L0C) are located errors naming the API. */
#ifndef DVAC_CUBE_H
#define DVAC_CUBE_H

#include "tensor.h"
#include "sync.h"
#include "copy.h"
#include <cstring>

/* Fixpipe's quantisation modes: a compiler builtin type of CANN, hence in the global namespace.
 * dvsim runs NoQuant, F322F16 and F322BF16; the others fail naming the mode. */
enum QuantMode_t { NoQuant, F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE, VQF322B8_PRE, REQ8, VREQ8 };

namespace AscendC {

/* GM (ND) -> L1 (NZ): ndNum matrices of nValue rows x dValue columns; srcNdMatrixStride and
 * srcDValue (the GM row pitch) in elements; dstNzC0Stride (between the 32-byte column blocks) and
 * dstNzNStride (between rows) in 32-byte units, dstNzMatrixStride in elements.  A zero ndNum,
 * nValue or dValue copies nothing, as on the hardware. */
struct Nd2NzParams {
    Nd2NzParams() {}
    Nd2NzParams(uint16_t ndNumIn, uint16_t nValueIn, uint16_t dValueIn, uint16_t srcNdMatrixStrideIn,
                uint16_t srcDValueIn, uint16_t dstNzC0StrideIn, uint16_t dstNzNStrideIn, uint16_t dstNzMatrixStrideIn)
        : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn),
          srcDValue(srcDValueIn), dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn),
          dstNzMatrixStride(dstNzMatrixStrideIn)
    {
    }
    uint16_t ndNum = 0;
    uint16_t nValue = 0;
    uint16_t dValue = 0;
    uint16_t srcNdMatrixStride = 0;
    uint16_t srcDValue = 0;
    uint16_t dstNzC0Stride = 0;
    uint16_t dstNzNStride = 0;
    uint16_t dstNzMatrixStride = 0;
};

/* 2-D fractal load: repeatTimes 512-byte fractals, the i-th from fractal startIndex + i * srcStride of
 * the source to fractal i * (dstGap + 1) of the destination, each 16 x 16 transposed with ifTranspose
 * (16-bit types).  sid is ignored; addrMode 1 (decreasing addresses) is not modelled. */
struct LoadData2DParams {
    LoadData2DParams() {}
    LoadData2DParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn, uint8_t sidIn,
                     uint16_t dstGapIn, bool ifTransposeIn, uint8_t addrModeIn)
        : startIndex(startIndexIn), dstGap(dstGapIn), srcStride(srcStrideIn), ifTranspose(ifTransposeIn),
          repeatTimes(repeatTimesIn), sid(sidIn), addrMode(addrModeIn)
    {
    }
    uint16_t startIndex = 0;
    uint16_t dstGap = 0;
    uint16_t srcStride = 0;
    bool ifTranspose = false;
    uint8_t repeatTimes = 0;
    uint8_t sid = 0;
    uint8_t addrMode = 0;
};
using LoadData2dParams = LoadData2DParams;

/* LoadDataWithTranspose: repeatTimes squares, the i-th from square startIndex + i * srcStride of the
 * source (a square: two 512-byte fractals of 8- or 32-bit types, 32 x 32 or 16 x 16 elements; one of
 * 16-bit types), transposed and written as fractals: fractal j of repeat i at fractal
 * i * (dstGap + 1) + j * (dstFracGap + 1) of the destination.  addrMode 1 is not modelled. */
struct LoadData2dTransposeParams {
    LoadData2dTransposeParams() {}
    LoadData2dTransposeParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn, uint16_t dstGapIn,
                              uint16_t dstFracGapIn, uint8_t addrModeIn)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstFracGapIn), addrMode(addrModeIn)
    {
    }
    LoadData2dTransposeParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn, uint16_t dstGapIn,
                              uint16_t dstFracGapIn)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstFracGapIn)
    {
    }
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint16_t dstGap = 0;
    uint16_t dstFracGap = 0;
    uint8_t addrMode = 0;
};

/* C[m, n] (+)= A[m, k] x B[k, n].  cmatrixInitVal: start from zero; isBias (or cmatrixInitVal false):
 * accumulate onto C; cmatrixSource: start from the BiasTable (set by the Mmad that takes a bias
 * tensor).  unitFlag 2/3 pairs the Mmad with a Fixpipe of unitFlag 2/3 without SetFlag/WaitFlag
 * (the unit flags, docs/MODEL.md). */
struct MmadParams {
    MmadParams() {}
    MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, bool isBiasIn, int32_t fmOffsetIn, bool enSsparseIn,
               bool enWinogradAIn, bool enWinogradBIn)
        : m(mIn), n(nIn), k(kIn), isBias(isBiasIn), fmOffset(fmOffsetIn), enSsparse(enSsparseIn),
          enWinogradA(enWinogradAIn), enWinogradB(enWinogradBIn)
    {
    }
    MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, uint8_t unitFlagIn, bool cmatrixSourceIn,
               bool cmatrixInitValIn)
        : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn),
          cmatrixInitVal(cmatrixInitValIn)
    {
    }
    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool isBias = false;
    int32_t fmOffset = 0;
    bool enSsparse = false;
    bool enWinogradA = false;
    bool enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false;
    bool cmatrixInitVal = true;
};

/* Fixpipe's output layout: ROW_MAJOR converts NZ to ND on the way (the default), NZ keeps it. */
enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
    CO2Layout format;
    constexpr FixpipeConfig(CO2Layout f) : format(f) {}
    constexpr FixpipeConfig(CO2Layout f, bool) : format(f) {}
};
inline constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
inline constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};

/* L0C (NZ, f32 / s32) out: nSize columns x mSize rows; srcStride = rows per 16-column block in L0C;
 * dstStride = elements per ND row (ROW_MAJOR) or 32-byte units between 16-column blocks (NZ);
 * ndNum matrices srcNdStride x 1024 bytes apart in L0C and dstNdStride elements apart in GM. */
struct FixpipeParamsV220 {
    FixpipeParamsV220() {}
    FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn, bool reluEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn)
    {
    }
    FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn, bool reluEnIn,
                      QuantMode_t quantPreIn, int64_t deqScalarIn, uint16_t ndNumIn, uint16_t srcNdStrideIn,
                      uint16_t dstNdStrideIn, uint8_t unitFlagIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), quantPre(quantPreIn),
          deqScalar((uint64_t)deqScalarIn), ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn),
          reluEn(reluEnIn), unitFlag(unitFlagIn)
    {
    }
    FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn, bool reluEnIn,
                      QuantMode_t quantPreIn, int64_t deqScalarIn, uint16_t ndNumIn, uint16_t srcNdStrideIn,
                      uint16_t dstNdStrideIn, uint8_t unitFlagIn, bool isChannelSplitIn)
        : FixpipeParamsV220(nSizeIn, mSizeIn, srcStrideIn, dstStrideIn, reluEnIn, quantPreIn, deqScalarIn, ndNumIn,
                            srcNdStrideIn, dstNdStrideIn, unitFlagIn)
    {
        isChannelSplit = isChannelSplitIn;
    }
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint16_t srcStride = 0;
    uint32_t dstStride = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
};

} // namespace AscendC

namespace dvac {

/* Whether this stream's core runs cube instructions (not an AIV of a mix kernel). */
inline bool cube_here(dv_k_t *c) { return dvk_has_pipe(c, DV_PIPE_M); }

/* The instruction dtype of a cube operand: data movement only cares for the element size (and
 * load2d's transpose for 16 bits), so integer types of 2 and 4 bytes move as f16 / f32. */
template <typename T> constexpr dv_dtype_t cube_dtype()
{
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                  "dvsim Ascend C: cube data movement takes 1-, 2- and 4-byte elements");
    if constexpr (std::is_same<T, bfloat16_t>::value)
        return DV_DT_BF16;
    else if constexpr (sizeof(T) == 2)
        return DV_DT_F16;
    else if constexpr (sizeof(T) == 4)
        return DV_DT_F32;
    else
        return DV_DT_S8;
}

/* `bytes` of the tensor from its start are inside it. */
template <typename T>
inline void need_bytes(const AscendC::LocalTensor<T> &t, uint64_t bytes, const Loc &loc, const char *api)
{
    t.need((bytes + sizeof(T) - 1) / sizeof(T), loc, api);
}

template <typename T>
inline void need_space(const AscendC::LocalTensor<T> &t, dv_space_t s, const char *what, const Loc &loc,
                       const char *api)
{
    if (t.space() != s)
        fail_at(loc, api, "the %s must be in %s, this tensor is in %s", what, dvk_space_name(s),
                dvk_space_name(t.space()));
}

/* Unit flags (Mmad / Fixpipe unitFlag 2 and 3): the hardware orders an Mmad and the Fixpipe reading
 * its L0C by per-512-byte flags instead of events; the instructions carry unitFlag and the model
 * orders them (docs/MODEL.md, "Unit flags": the Fixpipe drains the tile while the Mmad runs). */

/* set_fpc: one scalar issue.  Resetting the unit flags (isUnitFlag) changes no timing: the model keeps
 * no flag state that a mismatched Mmad / Fixpipe pair could leave set. */
inline void fpc_write(dv_k_t *c, bool clear_units)
{
    (void)clear_units;
    if (!cube_here(c))
        return;
    dvk_scalar(c, (int64_t)(dvk_config(c)->scalar_issue_cycles ? dvk_config(c)->scalar_issue_cycles : 1));
}

/* Bytes an L0C (NZ, 4-byte) operand of m rows x n columns with `stride` rows per column block spans. */
inline uint64_t nz_span(uint64_t m, uint64_t n, uint64_t stride, uint64_t esize)
{
    return ((((n + 15) / 16 - 1) * stride + m - 1) * 16 + (n - 1) % 16 + 1) * esize;
}

/* The quantPre of an L0C type U out to T (f32 -> f32 / f16 / bf16, s32 -> s32) as the instruction's
 * quant field; the mode must be the one the types imply, as CANN asserts. */
template <typename T, typename U> inline int fix_quant(QuantMode_t q, const Loc &loc, const char *api)
{
    static_assert((std::is_same<U, float>::value &&
                   (std::is_same<T, float>::value || std::is_same<T, half>::value ||
                    std::is_same<T, bfloat16_t>::value)) ||
                      (std::is_same<U, int32_t>::value && std::is_same<T, int32_t>::value),
                  "dvsim Ascend C: Fixpipe takes float L0C to float, half or bfloat16_t, and int32_t to int32_t "
                  "(quantisation to integers is not supported)");
    const QuantMode_t want = std::is_same<T, half>::value ? F322F16 : std::is_same<T, bfloat16_t>::value ? F322BF16
                                                                                                      : NoQuant;
    if (q != want)
        fail_at(loc, api, "quantPre %d does not match the types: %s output from %s L0C needs %s", (int)q,
                std::is_same<T, half>::value ? "half" : std::is_same<T, bfloat16_t>::value ? "bfloat16_t"
                : std::is_same<T, float>::value ? "float" : "int32_t",
                std::is_same<U, float>::value ? "float" : "int32_t",
                want == F322F16 ? "F322F16" : want == F322BF16 ? "F322BF16" : "NoQuant");
    return want == F322F16 ? DV_QUANT_F16 : want == F322BF16 ? DV_QUANT_BF16 : DV_QUANT_NONE;
}

/* Checks shared by both Fixpipes (on every core: misuse is reported wherever the kernel runs it);
 * false when the call moves nothing. */
template <typename U>
inline bool fix_common(dv_k_t *c, const AscendC::LocalTensor<U> &src, const AscendC::FixpipeParamsV220 &p,
                       const Loc &loc, const char *api)
{
    (void)c;
    need_space(src, DV_SPACE_L0C, "source", loc, api);
    if (p.nSize == 0 || p.mSize == 0 || p.ndNum == 0)
        return false;
    if (p.isChannelSplit)
        fail_at(loc, api, "isChannelSplit is not supported by dvsim yet");
    if (p.nSize > 4095 || p.srcNdStride > 512)
        fail_at(loc, api, "nSize %u must be in [0, 4095] and srcNdStride %u in [0, 512]", p.nSize, p.srcNdStride);
    if (p.unitFlag != 0 && p.unitFlag != 2 && p.unitFlag != 3)
        fail_at(loc, api, "unitFlag %u is not 0, 2 or 3", p.unitFlag);
    if (p.srcStride == 0)
        fail_at(loc, api, "srcStride 0: it is the rows of a 16-column block in L0C, at least mSize rounded up to 16");
    check_aligned(src, loc, api);
    need_bytes(src, (uint64_t)(p.ndNum - 1) * p.srcNdStride * 1024 + nz_span(p.mSize, p.nSize, p.srcStride, 4), loc,
               api);
    return true;
}

template <typename T, typename U, typename S> constexpr void mmad_types()
{
    static_assert(std::is_same<U, S>::value &&
                      ((std::is_same<T, float>::value &&
                        (std::is_same<U, half>::value || std::is_same<U, bfloat16_t>::value ||
                         std::is_same<U, float>::value)) ||
                       (std::is_same<T, int32_t>::value && std::is_same<U, int8_t>::value)),
                  "dvsim Ascend C: Mmad takes (C, A, B) = (float, half, half), (float, bfloat16_t, bfloat16_t), "
                  "(float, float, float) or (int32_t, int8_t, int8_t)");
}

/* The checks of both Mmads (every core); false when the call computes nothing. */
template <typename T, typename U, typename S>
inline bool mmad_check(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<U> &fm,
                       const AscendC::LocalTensor<S> &filter, const AscendC::MmadParams &p, const Loc &loc)
{
    const char *api = "Mmad";
    need_space(dst, DV_SPACE_L0C, "destination (CO1)", loc, api);
    need_space(fm, DV_SPACE_L0A, "left matrix (A2)", loc, api);
    need_space(filter, DV_SPACE_L0B, "right matrix (B2)", loc, api);
    if (p.m == 0 || p.n == 0 || p.k == 0)
        return false;
    if (p.m > 4095 || p.n > 4095 || p.k > 4095)
        fail_at(loc, api, "m %u, n %u and k %u must be in [0, 4095]", p.m, p.n, p.k);
    if (p.unitFlag != 0 && p.unitFlag != 2 && p.unitFlag != 3)
        fail_at(loc, api, "unitFlag %u is not 0, 2 or 3", p.unitFlag);
    check_aligned(dst, loc, api);
    check_aligned(fm, loc, api);
    check_aligned(filter, loc, api);
    const uint64_t K0 = 32 / sizeof(U), m1 = (p.m + 15u) / 16, n1 = (p.n + 15u) / 16, k1 = (p.k + K0 - 1) / K0;
    /* m = 1 is GEMV (CANN's GEMV page): A is k contiguous elements */
    const uint64_t a_zz = (m1 * k1 - 1) * 512 + (((p.m - 1u) % 16) * K0 + (p.k - 1u) % K0 + 1) * sizeof(U);
    need_bytes(fm, p.m == 1 ? (uint64_t)p.k * sizeof(U) : a_zz, loc, api);
    need_bytes(filter, (k1 * n1 - 1) * 512 + (((p.n - 1u) % 16) * K0 + (p.k - 1u) % K0 + 1) * sizeof(U), loc, api);
    need_bytes(dst, nz_span(p.m, p.n, m1 * 16, 4), loc, api);
    return true;
}

/* L1 (C1) -> BiasTable (C2): copy_cbuf_to_bt, CANN's DataCopy of two LocalTensors from C1 to C2 on
 * dav-2201 (impl/basic_api/dav_c220/kernel_operator_data_copy_impl.h, DataCopyL12BTImpl): blockLen and
 * dstStride in 64-byte units, srcStride in 32-byte units (the instruction's fields are all 32-byte
 * units); no f16 -> f32 conversion on the way. */
template <typename T>
inline void copy_l1_to_bt(const AscendC::LocalTensor<T> &dst, const AscendC::LocalTensor<T> &src,
                          const AscendC::DataCopyParams &p, const Loc &loc)
{
    const char *api = "DataCopy";
    static_assert(sizeof(T) == 4, "dvsim Ascend C: the BiasTable takes float or int32_t (no f16 -> f32 conversion)");
    need_space(dst, DV_SPACE_BT, "destination of an L1 -> BiasTable copy (C2)", loc, api);
    need_space(src, DV_SPACE_L1, "source of an L1 -> BiasTable copy (C1)", loc, api);
    dv_k_t *c = at(loc);
    if (p.blockCount == 0 || p.blockLen == 0)
        return;
    if (p.blockCount > 4095 || (uint32_t)p.blockLen * 2 > 65535 || (uint32_t)p.dstStride * 2 > 65535)
        fail_at(loc, api, "blockCount %u must be in [0, 4095], blockLen %u and dstStride %u (64-byte units) below "
                "32768", p.blockCount, p.blockLen, p.dstStride);
    check_aligned(dst, loc, api);
    check_aligned(src, loc, api);
    need_bytes(dst, burst_span(p.blockCount, p.blockLen * 2u, p.dstStride * 2u, 32), loc, api);
    need_bytes(src, burst_span(p.blockCount, p.blockLen * 2u, p.srcStride, 32), loc, api);
    if (!cube_here(c))
        return;
    dvk_copy_cbuf_to_bt(c, dst.addr(), src.addr(), p.blockCount, p.blockLen * 2, p.srcStride, p.dstStride * 2);
}

} // namespace dvac

namespace AscendC {

/* DataCopy GM (ND) -> L1 (NZ): copy_gm_to_cbuf_nd2nz. */
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const Nd2NzParams &p,
                     const dvac::Loc &loc = dvac::Loc::here())
{
    const char *api = "DataCopy";
    dvac::need_space(dst, DV_SPACE_L1, "destination of an Nd2NzParams copy (A1/B1/C1)", loc, api);
    dv_k_t *c = dvac::at(loc);
    if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0)
        return;
    if (p.ndNum > 4095 || p.nValue > 16384)
        dvac::fail_at(loc, api, "ndNum %u must be in [0, 4095] and nValue %u in [0, 16384]", p.ndNum, p.nValue);
    if (p.srcDValue == 0 || p.dstNzC0Stride == 0 || p.dstNzC0Stride > 16384 || p.dstNzNStride == 0 ||
        p.dstNzNStride > 16384 || p.dstNzMatrixStride > 16384)
        dvac::fail_at(loc, api, "srcDValue %u must be at least 1, dstNzC0Stride %u and dstNzNStride %u in [1, 16384], "
                      "dstNzMatrixStride %u in [0, 16384]", p.srcDValue, p.dstNzC0Stride, p.dstNzNStride,
                      p.dstNzMatrixStride);
    const uint64_t mat = (uint64_t)p.dstNzMatrixStride * sizeof(T);
    if (p.ndNum > 1 && mat % 32)
        dvac::fail_at(loc, api, "dstNzMatrixStride %u elements is not a whole number of 32-byte blocks",
                      p.dstNzMatrixStride);
    dvac::check_aligned(dst, loc, api);
    const uint64_t c1 = ((uint64_t)p.dValue * sizeof(T) + 31) / 32;
    dvac::need_bytes(dst, ((uint64_t)(p.ndNum - 1) * (mat / 32) + (c1 - 1) * p.dstNzC0Stride +
                           (uint64_t)(p.nValue - 1) * p.dstNzNStride) * 32 + 32, loc, api);
    const uint64_t g = src.gm(0, ((uint64_t)(p.ndNum - 1) * p.srcNdMatrixStride + (uint64_t)(p.nValue - 1) * p.srcDValue
                                  + p.dValue) * sizeof(T), loc, api);
    if (!dvac::cube_here(c))
        return;
    dvk_copy_gm_to_cbuf_nd2nz(c, dst.addr(), g, dvac::cube_dtype<T>(), p.ndNum, p.nValue, p.dValue,
                              p.srcNdMatrixStride, p.srcDValue, p.dstNzC0Stride, p.dstNzNStride,
                              (int64_t)(p.ndNum > 1 ? mat / 32 : 0));
}

/* LoadData L1 -> L0A / L0B: load_cbuf_to_ca / load_cbuf_to_cb. */
template <typename T>
inline void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData2DParams &p,
                     const dvac::Loc &loc = dvac::Loc::here())
{
    const char *api = "LoadData";
    const dv_space_t d = dst.space();
    if (d != DV_SPACE_L0A && d != DV_SPACE_L0B)
        dvac::fail_at(loc, api, "LoadData2DParams loads into L0A (A2) or L0B (B2), not into %s", dvk_space_name(d));
    dvac::need_space(src, DV_SPACE_L1, "source (A1/B1)", loc, api);
    dv_k_t *c = dvac::at(loc);
    if (p.repeatTimes == 0)
        return;
    if (p.addrMode != 0)
        dvac::fail_at(loc, api, "addrMode %u (decreasing addresses) is not supported by dvsim yet", p.addrMode);
    if (p.ifTranspose && sizeof(T) != 2)
        dvac::fail_at(loc, api, "ifTranspose transposes 16-bit fractals; %zu-byte elements need "
                      "LoadDataWithTranspose", sizeof(T));
    dvac::check_aligned(dst, loc, api);
    dvac::check_aligned(src, loc, api);
    dvac::need_bytes(dst, ((uint64_t)(p.repeatTimes - 1) * (p.dstGap + 1u) + 1) * 512, loc, api);
    dvac::need_bytes(src, ((uint64_t)p.startIndex + (uint64_t)(p.repeatTimes - 1) * p.srcStride + 1) * 512, loc, api);
    if (!dvac::cube_here(c))
        return;
    (d == DV_SPACE_L0A ? dvk_load_cbuf_to_ca : dvk_load_cbuf_to_cb)(c, dst.addr(), src.addr(), dvac::cube_dtype<T>(),
                                                                    p.startIndex, p.repeatTimes, p.srcStride,
                                                                    p.dstGap, p.ifTranspose);
}

/* LoadDataWithTranspose L1 -> L0A / L0B: load_cbuf_to_ca_transpose / load_cbuf_to_cb_transpose
 * (asc-devkit impl/basic_api/dav_c220/kernel_operator_mm_impl.h, LoadData2DL12L0{A,B}TransposeCal). */
template <typename T>
inline void LoadDataWithTranspose(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                  const LoadData2dTransposeParams &p, const dvac::Loc &loc = dvac::Loc::here())
{
    const char *api = "LoadDataWithTranspose";
    const dv_space_t d = dst.space();
    if (d != DV_SPACE_L0A && d != DV_SPACE_L0B)
        dvac::fail_at(loc, api, "it loads into L0A (A2) or L0B (B2), not into %s", dvk_space_name(d));
    dvac::need_space(src, DV_SPACE_L1, "source (A1/B1)", loc, api);
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                  "LoadDataWithTranspose: dvsim models 8-, 16- and 32-bit types (int4b_t is not supported)");
    dv_k_t *c = dvac::at(loc);
    if (p.repeatTimes == 0)
        return;
    if (p.addrMode != 0)
        dvac::fail_at(loc, api, "addrMode %u (decreasing addresses) is not supported by dvsim yet", p.addrMode);
    if (!dvk_config(c)->chip_load_transpose)
        dvac::fail_at(loc, api, "profile %s has no transposing L1 -> L0 load (chip.load_transpose)",
                      dvk_config(c)->chip_name);
    dvac::check_aligned(dst, loc, api);
    dvac::check_aligned(src, loc, api);
    const uint64_t nf = sizeof(T) == 2 ? 1 : 2;
    dvac::need_bytes(dst, ((uint64_t)(p.repeatTimes - 1) * (p.dstGap + 1u) + (nf - 1) * (p.dstFracGap + 1u) + 1) * 512,
                     loc, api);
    dvac::need_bytes(src, ((uint64_t)p.startIndex + (uint64_t)(p.repeatTimes - 1) * p.srcStride + 1) * nf * 512, loc,
                     api);
    if (!dvac::cube_here(c))
        return;
    (d == DV_SPACE_L0A ? dvk_load_cbuf_to_ca_transpose : dvk_load_cbuf_to_cb_transpose)(
        c, dst.addr(), src.addr(), dvac::cube_dtype<T>(), p.startIndex, p.repeatTimes, p.srcStride, p.dstGap,
        p.dstFracGap);
}

/* LoadData GM -> L0A / L0B: load_gm_to_ca / load_gm_to_cb (512-byte fractals already in GM). */
template <typename T>
inline void LoadData(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const LoadData2DParams &p,
                     const dvac::Loc &loc = dvac::Loc::here())
{
    const char *api = "LoadData";
    const dv_space_t d = dst.space();
    if (d != DV_SPACE_L0A && d != DV_SPACE_L0B)
        dvac::fail_at(loc, api, "LoadData2DParams loads GM into L0A (A2) or L0B (B2) here, not into %s "
                      "(load_gm_to_cbuf is not supported by dvsim yet)", dvk_space_name(d));
    dv_k_t *c = dvac::at(loc);
    if (p.repeatTimes == 0)
        return;
    if (p.addrMode != 0 || p.ifTranspose)
        dvac::fail_at(loc, api, "GM -> L0 loads take neither addrMode %u nor ifTranspose", p.addrMode);
    dvac::check_aligned(dst, loc, api);
    dvac::need_bytes(dst, ((uint64_t)(p.repeatTimes - 1) * (p.dstGap + 1u) + 1) * 512, loc, api);
    const uint64_t g = src.gm(0, ((uint64_t)p.startIndex + (uint64_t)(p.repeatTimes - 1) * p.srcStride + 1) * 512,
                              loc, api);
    if (!dvac::cube_here(c))
        return;
    (d == DV_SPACE_L0A ? dvk_load_gm_to_ca : dvk_load_gm_to_cb)(c, dst.addr(), g, dvac::cube_dtype<T>(), p.startIndex,
                                                                p.repeatTimes, p.srcStride, p.dstGap, false);
}

/* LoadData with LoadData2DParamsV2: Ascend 950's 2-D load.  CANN declares it for dav-2201 too and reports
 * it as not supported there (impl/basic_api/dav_c220/kernel_operator_mm_impl.h, LoadData2DL12L0ACal):
 * a kernel that names it compiles (the 950 branch of an #if) and fails if it calls it. */
struct LoadData2DParamsV2 {
    LoadData2DParamsV2() {}
    LoadData2DParamsV2(uint32_t mStartPositionIn, uint32_t kStartPositionIn, uint16_t mStepIn, uint16_t kStepIn,
                       int32_t srcStrideIn, uint16_t dstStrideIn, bool ifTransposeIn, uint8_t sidIn)
        : mStartPosition(mStartPositionIn), kStartPosition(kStartPositionIn), mStep(mStepIn), kStep(kStepIn),
          srcStride(srcStrideIn), dstStride(dstStrideIn), ifTranspose(ifTransposeIn), sid(sidIn)
    {
    }
    uint32_t mStartPosition = 0;
    uint32_t kStartPosition = 0;
    uint16_t mStep = 0;
    uint16_t kStep = 0;
    int32_t srcStride = 0;
    uint16_t dstStride = 0;
    bool ifTranspose = false;
    uint8_t sid = 0;
};
template <typename T>
inline void LoadData(const LocalTensor<T> &, const LocalTensor<T> &, const LoadData2DParamsV2 &,
                     const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::fail_at(loc, "LoadData", "LoadData2DParamsV2 is not supported on dav-2201 (CANN reports it so): use "
                  "LoadData2DParams or LoadData3DParamsV2");
}

/* Mmad: mmad.  Types (C, A, B): (float, half, half), (float, bfloat16_t, bfloat16_t), (float, float,
 * float), (int32_t, int8_t, int8_t). */
template <typename T, typename U, typename S>
inline void Mmad(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter,
                 const MmadParams &p, const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::mmad_types<T, U, S>();
    dv_k_t *c = dvac::at(loc);
    if (p.cmatrixSource)
        dvac::fail_at(loc, "Mmad", "cmatrixSource 1 (C starts from the BiasTable) needs the bias tensor: use the "
                      "Mmad that takes one");
    if (!dvac::mmad_check(dst, fm, filter, p, loc) || !dvac::cube_here(c))
        return;
    /* m = 1 is GEMV on dav-2201 (page GEMV) */
    dvk_mmad(c, dst.addr(), fm.addr(), filter.addr(), dvac::dtype_of<U>(), p.m, p.k, p.n,
             p.cmatrixInitVal && !p.isBias, p.m == 1, p.unitFlag);
}

/* Mmad with a bias: a bias tensor in C2 (the BiasTable, one value of C's type per column) starts the
 * accumulation, mmad_bias (CANN sets cmatrixSource for a bias in C2; a bias in CO1 is not supported). */
template <typename T, typename U, typename S, typename V>
inline void Mmad(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter,
                 const LocalTensor<V> &bias, const MmadParams &p, const dvac::Loc &loc = dvac::Loc::here())
{
    dvac::mmad_types<T, U, S>();
    static_assert(std::is_same<V, T>::value, "dvsim Ascend C: the BiasTable holds C's type (float, or int32_t)");
    const char *api = "Mmad";
    dv_k_t *c = dvac::at(loc);
    if (bias.space() != DV_SPACE_BT)
        dvac::fail_at(loc, api, "the bias must be in the BiasTable (C2), this tensor is in %s (an L0C bias is not "
                      "supported by dvsim yet)", dvk_space_name(bias.space()));
    if (!dvac::mmad_check(dst, fm, filter, p, loc))
        return;
    if (p.m == 1)
        dvac::fail_at(loc, api, "m = 1 (GEMV) with a bias is not supported by dvsim yet");
    dvac::check_aligned(bias, loc, api);
    dvac::need_bytes(bias, (uint64_t)p.n * 4, loc, api);
    if (!dvac::cube_here(c))
        return;
    dvk_mmad_bias(c, dst.addr(), fm.addr(), filter.addr(), dvac::dtype_of<U>(), p.m, p.k, p.n, bias.addr(),
                  p.unitFlag);
}

/* Fixpipe L0C -> GM: pipe_barrier(FIX), then copy_matrix_cc_to_gm per ND matrix (ROW_MAJOR) or
 * once (NZ). */
template <typename T, typename U, const FixpipeConfig &config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T> &dst, const LocalTensor<U> &src, const FixpipeParamsV220 &p,
                    const dvac::Loc &loc = dvac::Loc::here())
{
    const char *api = "Fixpipe";
    static_assert(config.format != CO2Layout::COLUMN_MAJOR, "dvsim Ascend C: CFG_COLUMN_MAJOR is not on dav-2201");
    const int quant = dvac::fix_quant<T, U>(p.quantPre, loc, api);
    dv_k_t *c = dvac::at(loc);
    if (!dvac::fix_common(c, src, p, loc, api))
        return;
    const uint64_t osz = sizeof(T);
    const bool nd = config.format == CO2Layout::ROW_MAJOR;
    uint64_t stride = p.dstStride; /* the instruction's: elements per ND row, or rows per 16-column block */
    if (nd && p.mSize > 8192)
        dvac::fail_at(loc, api, "mSize %u is not in [0, 8192] with NZ2ND", p.mSize);
    if (nd && p.dstStride < p.nSize)
        dvac::fail_at(loc, api, "dstStride %u (elements per ND row) is less than nSize %u", p.dstStride, p.nSize);
    if (!nd) {
        if (p.ndNum != 1)
            dvac::fail_at(loc, api, "ndNum %u: several matrices are an NZ2ND feature (CFG_ROW_MAJOR)", p.ndNum);
        if (p.dstStride == 0 || (uint64_t)p.dstStride * 32 % (16 * osz))
            dvac::fail_at(loc, api, "dstStride %u (32-byte units between 16-column blocks) is not a whole number of "
                          "%llu-byte rows", p.dstStride, (unsigned long long)(16 * osz));
        stride = (uint64_t)p.dstStride * 32 / (16 * osz);
    }
    const uint64_t span = nd ? ((uint64_t)(p.mSize - 1) * stride + p.nSize) * osz : dvac::nz_span(p.mSize, p.nSize,
                                                                                                   stride, osz);
    const uint64_t g = dst.gm(0, (uint64_t)(p.ndNum - 1) * p.dstNdStride * osz + span, loc, api);
    if (!dvac::cube_here(c))
        return;
    dvk_pipe_barrier(c, DV_PIPE_FIX);
    for (uint32_t j = 0; j < p.ndNum; j++)
        dvk_copy_matrix_cc_to_gm(c, g + (uint64_t)j * p.dstNdStride * osz, src.addr() + (uint64_t)j * p.srcNdStride *
                                 1024, p.nSize, p.mSize, p.srcStride, (int64_t)stride, quant, p.reluEn, nd, p.unitFlag);
}

/* Fixpipe L0C -> L1 (NZ only, half or bfloat16_t out): copy_matrix_cc_to_cbuf. */
template <typename T, typename U, const FixpipeConfig &config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<T> &dst, const LocalTensor<U> &src, const FixpipeParamsV220 &p,
                    const dvac::Loc &loc = dvac::Loc::here())
{
    const char *api = "Fixpipe";
    if (dst.space() != DV_SPACE_L1)
        dvac::fail_at(loc, api, "L0C goes to GM or to L1 (A1/B1/C1) on dav-2201, not to %s",
                      dvk_space_name(dst.space()));
    const int quant = dvac::fix_quant<T, U>(p.quantPre, loc, api);
    if (config.format != CO2Layout::NZ || quant == DV_QUANT_NONE)
        dvac::fail_at(loc, api, "L0C -> L1 writes NZ (CFG_NZ) half or bfloat16_t (F322F16 / F322BF16), as CANN "
                      "requires");
    dv_k_t *c = dvac::at(loc);
    if (!dvac::fix_common(c, src, p, loc, api))
        return;
    if (p.ndNum != 1)
        dvac::fail_at(loc, api, "ndNum %u: several matrices are an NZ2ND feature (not into L1)", p.ndNum);
    if (p.dstStride == 0 || (uint64_t)p.dstStride * 32 % (16 * sizeof(T)))
        dvac::fail_at(loc, api, "dstStride %u (32-byte units between 16-column blocks) is not a whole number of rows",
                      p.dstStride);
    const uint64_t stride = (uint64_t)p.dstStride * 32 / (16 * sizeof(T));
    dvac::check_aligned(dst, loc, api);
    dvac::need_bytes(dst, dvac::nz_span(p.mSize, p.nSize, stride, sizeof(T)), loc, api);
    if (!dvac::cube_here(c))
        return;
    dvk_copy_matrix_cc_to_cbuf(c, dst.addr(), src.addr(), p.nSize, p.mSize, p.srcStride, (int64_t)stride, quant,
                               p.reluEn, false, p.unitFlag);
}

} // namespace AscendC

/* ---- the system workspace (GM scratch of the high-level APIs) ---- */
namespace dvac {
inline thread_local uint8_t *g_sys_workspace = nullptr;
}
/* In the global namespace, as CANN declares it. */
inline __gm__ uint8_t *GetSysWorkSpacePtr() { return ::dvac::g_sys_workspace; }
namespace AscendC {
inline void SetSysWorkspace(GM_ADDR workspace) { ::dvac::g_sys_workspace = workspace; }
inline void SetSysWorkspaceForce(GM_ADDR workspace) { ::dvac::g_sys_workspace = workspace; }
/* Fill (InitConstValue) of L0A / L0B: create_ca_matrix / create_cb_matrix (MTE1), repeatTimes rows of
 * blockNum 512-byte blocks, dstGap blocks between rows, every element initValue
 * (impl/basic_api/dav_c220/kernel_operator_mm_impl.h, InitL0ANzMatrixCal / InitL0BNzMatrixCal; page
 * *Fill*).  A zero repeatTimes or blockNum writes nothing.  L1 (create_cbuf_matrix, 32-byte blocks) is
 * not supported by dvsim yet. */
template <typename T> struct InitConstValueParams {
    InitConstValueParams() {}
    InitConstValueParams(uint16_t repeatTimesIn, uint16_t blockNumIn, uint16_t dstGapIn, T initValueIn)
        : repeatTimes(repeatTimesIn), blockNum(blockNumIn), dstGap(dstGapIn), initValue(initValueIn)
    {
    }
    InitConstValueParams(uint16_t repeatTimesIn, T initValueIn) : repeatTimes(repeatTimesIn), initValue(initValueIn) {}
    uint16_t repeatTimes = 0;
    uint16_t blockNum = 0;
    uint16_t dstGap = 0;
    T initValue = 0;
};

template <typename T, typename U = T, typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
inline void Fill(const LocalTensor<T> &dst, const InitConstValueParams<U> &p, const dvac::Loc &loc = dvac::Loc::here())
{
    const char *api = "Fill";
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "dvsim Ascend C: Fill takes half, bfloat16_t, int16_t, uint16_t, "
                  "float, int32_t or uint32_t, as CANN's InitConstValue");
    const dv_space_t d = dst.space();
    if (d == DV_SPACE_L1)
        dvac::fail_at(loc, api, "Fill of L1 (create_cbuf_matrix) is not supported by dvsim yet");
    if (d != DV_SPACE_L0A && d != DV_SPACE_L0B)
        dvac::fail_at(loc, api, "Fill initialises L1, L0A (A2) or L0B (B2), not %s", dvk_space_name(d));
    dv_k_t *c = dvac::at(loc);
    if (p.repeatTimes > 32767 || p.blockNum > 32767 || p.dstGap > 32767)
        dvac::fail_at(loc, api, "repeatTimes %u, blockNum %u and dstGap %u must be in [0, 32767]", p.repeatTimes,
                      p.blockNum, p.dstGap);
    if (p.repeatTimes == 0 || p.blockNum == 0)
        return;
    dvac::check_aligned(dst, loc, api);
    dvac::need_bytes(dst, ((uint64_t)(p.repeatTimes - 1) * (p.blockNum + p.dstGap) + p.blockNum) * 512, loc, api);
    if (!dvac::cube_here(c))
        return;
    uint32_t bits = 0;
    std::memcpy(&bits, &p.initValue, sizeof(T));
    const dv_dtype_t t = sizeof(T) == 2 ? DV_DT_F16 : DV_DT_F32; /* only the element size matters */
    (d == DV_SPACE_L0A ? dvk_create_ca_matrix : dvk_create_cb_matrix)(c, dst.addr(), t, p.repeatTimes, p.blockNum,
                                                                      p.dstGap, (int64_t)bits);
}

/* SetFixPipeConfig: set_fpc, the FixPipe's register of pre-quantisation / ReLU tensor addresses (read by
 * the vector quantisation modes, which dvsim does not run) and the unit-flag bit (FPC[63]), which clears
 * the unit flags of L0C: here the pending unit-flag events are consumed
 * (impl/basic_api/dav_c220/kernel_operator_fixpipe_impl.h, SetFixPipeConfigImpl).  One scalar issue. */
template <typename T>
inline void SetFixPipeConfig(const LocalTensor<T> &reluPre, const LocalTensor<T> &quantPre, bool isUnitFlag = false,
                             const dvac::Loc &loc = dvac::Loc::here())
{
    const char *api = "SetFixPipeConfig";
    dvac::need_space(reluPre, DV_SPACE_FB, "reluPre tensor (C2PIPE2GM)", loc, api);
    dvac::need_space(quantPre, DV_SPACE_FB, "quantPre tensor (C2PIPE2GM)", loc, api);
    dvac::fpc_write(dvac::at(loc), isUnitFlag);
}
template <typename T, bool setRelu = false>
inline void SetFixPipeConfig(const LocalTensor<T> &pre, bool isUnitFlag = false,
                             const dvac::Loc &loc = dvac::Loc::here())
{
    if (pre.space() != DV_SPACE_FB && pre.space() != DV_SPACE_L0C)
        dvac::fail_at(loc, "SetFixPipeConfig", "the tensor must be in the Fixpipe buffer (C2PIPE2GM) or L0C (CO1), "
                      "this one is in %s", dvk_space_name(pre.space()));
    dvac::fpc_write(dvac::at(loc), isUnitFlag);
}

} // namespace AscendC

#include "cube_load3d.h"

#endif
