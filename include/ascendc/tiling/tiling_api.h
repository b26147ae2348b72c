/* tiling/tiling_api.h - CANN's host-side Matmul tiling (matmul_tiling::MatmulApiTiling, MultiCoreMatmulTiling)
 * and the host TCubeTiling class (optiling::TCubeTiling), header-only.
 *
 *   matmul_tiling::MultiCoreMatmulTiling t(*platform_ascendc::PlatformAscendCManager::GetInstance());
 *   t.SetDim(2); t.SetAType(GM, ND, DT_FLOAT16); t.SetBType(...); t.SetCType(...);
 *   t.SetOrgShape(M, N, K); t.SetShape(M, N, K); t.EnableBias(false); t.SetBufferSpace(-1, -1, -1);
 *   AscendC::tiling::TCubeTiling tiling; if (t.GetTiling(tiling) == -1) ...;   // launch tiling.usedCoreNum blocks
 *
 * GetTiling chooses (docs/ASCENDC.md, "Cube and Matmul API", has the rules and why):
 *  1. the core grid mDim x nDim <= SetDim cores: C is cut into singleCoreM x singleCoreN parts (multiples of
 *     16, K not split) minimising the estimated per-core time max(cube cycles, GM bytes / read bandwidth)
 *     from the platform's profile, then fewer cores, then the larger mDim; block b takes part
 *     (b % mDim, b / mDim), as CANN's samples compute it; usedCoreNum = mDim x nDim (at most SetDim: a part
 *     size SetSingleShape fixes on both axes may need more parts than cores, whose blocks then loop);
 *  2. the base tile: 128 x 256 x (128 bytes of K) (CANN's recommended 128 x 256 x 64 for half), cut to the
 *     part and to L0A / L0B / L0C with double-buffered L0A / L0B, and L0C too when two tiles fit; SetFixSplit
 *     fixes any of the three;
 *  3. the L1 loads: stepKa / stepKb and their double buffering by CANN's rules (lib/matmul/l1_steps.h: the
 *     multi-core M x N split's halves of L1 for large shapes on SetDim cores, else one matrix's loads take
 *     what L1 leaves and the other's at most CANN's MTE1 minimum), with room for the bias row under
 *     EnableBias; stepM = stepN = 1; with EnableBias baseN is cut so that a bias row fits the BiasTable;
 *  4. iterateOrder: SetTraverse's; else, when one load covers K (it then stays in L1 across the tiles that share
 *     it), the order that keeps the larger of the A and B loads: M first (0) unless baseM > baseN.
 * GetTiling returns -1 and says why on stderr when the shape, the types or the fixed split cannot be tiled. */
#ifndef DVSIM_TILING_API_H
#define DVSIM_TILING_API_H

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include <iostream> /* CANN's tiling headers bring it; its samples print the tiling's failure with std::cout */

#include "../kernel_tiling/kernel_tiling.h"
#include "../lib/matmul/l1_steps.h"
#include "../register/tilingdata_base.h"
#include "platform/platform_ascendc.h"
#include "shape.h"

namespace optiling {

/* The host TilingData class of TCubeTiling: set_<field> / get_<field>, its size and its bytes (the
 * kernel's AscendC::tiling::TCubeTiling, field for field). */
class TCubeTiling {
public:
#define DVAC_TCUBE_ACCESS(type, name)                                                                                \
    void set_##name(type v) { data_.name = v; }                                                                     \
    type get_##name() const { return data_.name; }
    DVAC_TCUBE_TILING_FIELDS(DVAC_TCUBE_ACCESS)
#undef DVAC_TCUBE_ACCESS
    size_t GetDataSize() const { return sizeof data_; }
    /* Copy the bytes into buf (at most size bytes). */
    void SaveToBuffer(void *buf, size_t size) const { std::memcpy(buf, &data_, std::min(size, sizeof data_)); }
    /* dvsim: the kernel struct. */
    AscendC::tiling::TCubeTiling &Data() { return data_; }
    const AscendC::tiling::TCubeTiling &Data() const { return data_; }

private:
    AscendC::tiling::TCubeTiling data_;
};

} // namespace optiling

namespace matmul_tiling {

enum class DataType : int32_t {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7, DT_UINT32 = 8,
    DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_BF16 = 27, DT_UNDEFINED = 28, DT_INT4 = 29,
    DT_BFLOAT16 = 33, DT_HIFLOAT8 = 34, DT_FLOAT8_E4M3FN = 35, DT_FLOAT8_E5M2 = 36, DT_MAX = 40,
};
enum class TPosition : int32_t {
    GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM, MAX,
};
enum class CubeFormat : int32_t {
    ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR = 8,
};
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1, MXMODE = 2 };
enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT = 1, N_BUFFER_33 = 2 };

/* SetMatmulConfigParams' bundle: the kernel template (0 Norm, 1 MDL), UB caching of L1, the data
 * transfer mode and the traversal.  Of these only traverse changes the tiling here (as SetTraverse);
 * the others select CANN kernel templates whose data path dvsim's Matmul does not distinguish. */
struct MatmulConfigParams {
    int32_t mmConfigType;
    bool enableL1CacheUB;
    ScheduleType scheduleType;
    MatrixTraverse traverse;
    bool enVecND2NZ;
    MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                       ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                       MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
        : mmConfigType(mmConfigTypeIn), enableL1CacheUB(enableL1CacheUBIn), scheduleType(scheduleTypeIn),
          traverse(traverseIn), enVecND2NZ(enVecND2NZIn)
    {
    }
};

/* A matrix's description (SetAType / SetBType / SetCType / SetBiasType). */
struct MatTilingType {
    TPosition pos = TPosition::GM;
    CubeFormat type = CubeFormat::ND;
    DataType dataType = DataType::DT_FLOAT;
    bool isTrans = false;
    bool isDB = false;
};

/* The shared part of both tilings: the description setters and the computation. */
class MatmulApiTilingBase {
public:
    MatmulApiTilingBase() : MatmulApiTilingBase(platform()) {}
    explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC &ascendcPlatform)
        : platform_(&ascendcPlatform)
    {
    }
    explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC *ascendcPlatform)
        : platform_(ascendcPlatform)
    {
    }
    virtual ~MatmulApiTilingBase() = default;

    int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false)
    {
        aType_ = {pos, type, dataType, isTrans, false};
        return 0;
    }
    int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false)
    {
        bType_ = {pos, type, dataType, isTrans, false};
        return 0;
    }
    int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType)
    {
        cType_ = {pos, type, dataType, false, false};
        return 0;
    }
    int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType)
    {
        biasType_ = {pos, type, dataType, false, false};
        return 0;
    }
    /* The product's m, n, k (the part this tiling covers). */
    virtual int32_t SetShape(int32_t m, int32_t n, int32_t k)
    {
        m_ = m;
        n_ = n;
        k_ = k;
        return 0;
    }
    /* The whole matrices (GM row pitches): M, N and K, or Ka and Kb. */
    int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn)
    {
        return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
    }
    int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn)
    {
        orgM = orgMIn;
        orgN = orgNIn;
        orgKa = orgKaIn;
        orgKb = orgKbIn;
        return 0;
    }
    /* BatchMatmul: the BSNGD layouts of A, B ([b, s, n, g, d]) and C ([b, s1, n, g, s2]); each (n, g) pair is
     * one matrix, s x d (A, B) and s1 x s2 (C).  Copied into TCubeTiling's *LayoutInfo* fields. */
    int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d)
    {
        aLayout_[0] = b, aLayout_[1] = s, aLayout_[2] = n, aLayout_[3] = g, aLayout_[4] = d;
        return 0;
    }
    int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d)
    {
        bLayout_[0] = b, bLayout_[1] = s, bLayout_[2] = n, bLayout_[3] = g, bLayout_[4] = d;
        return 0;
    }
    int32_t SetCLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d)
    {
        cLayout_[0] = b, cLayout_[1] = s, cLayout_[2] = n, cLayout_[3] = g, cLayout_[4] = d;
        return 0;
    }
    /* BatchMatmul in the NORMAL layout (BMNK): batchA matrices m x k, batchB k x n, max of them m x n (CANN sets
     * the layouts as b = batch, n = g = 1). */
    int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k)
    {
        if (batchA <= 0 || batchB <= 0 || m <= 0 || n <= 0 || k <= 0) {
            std::fprintf(stderr, "matmul_tiling: SetBatchInfoForNormal(%d, %d, %d, %d, %d): positive values\n",
                         batchA, batchB, m, n, k);
            return -1;
        }
        SetALayout(batchA, m, 1, 1, k);
        SetBLayout(batchB, n, 1, 1, k);
        SetCLayout(std::max(batchA, batchB), m, 1, 1, n);
        return 0;
    }
    /* The batches one IterateBatch computes at most. */
    int32_t SetBatchNum(int32_t batch)
    {
        if (batch <= 0) {
            std::fprintf(stderr, "matmul_tiling: SetBatchNum(%d): positive\n", batch);
            return -1;
        }
        batchNum_ = batch;
        return 0;
    }
    /* Sparse A (4:2 structured B in CANN's sparse Matmul): the cube's sparse mode is not modelled, so
     * GetTiling refuses a tiling made with SetSparse(true). */
    int32_t SetSparse(bool isSparseIn = false)
    {
        sparse_ = isSparseIn;
        return 0;
    }
    /* The dequantisation of an int32 C to half (per tensor or per channel): recorded; the tiling is the same. */
    int32_t SetDequantType(DequantType dequantType)
    {
        deqType_ = dequantType;
        return 0;
    }
    int32_t EnableBias(bool isBiasIn = false)
    {
        isBias = isBiasIn;
        return 0;
    }
    int32_t SetBias(bool isBiasIn = false) { return EnableBias(isBiasIn); }
    /* Fix baseM / baseN / baseK (-1: choose). */
    int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1)
    {
        fixM_ = baseMIn;
        fixN_ = baseNIn;
        fixK_ = baseKIn;
        return 0;
    }
    /* Bytes of L1 and L0C the Matmul may use (-1: all of it); UB and BT are not used by dav-2201's cube path. */
    int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1)
    {
        (void)ubSize;
        (void)btSize;
        l1Space_ = l1Size;
        l0cSpace_ = l0CSize;
        return 0;
    }
    /* FIRSTM walks M first (iterateOrder 0), FIRSTN N first (1). */
    int32_t SetTraverse(MatrixTraverse traverse)
    {
        traverse_ = traverse;
        return 0;
    }
    /* HF32 is not modelled: only NORMAL. */
    int32_t SetMadType(MatrixMadType madType)
    {
        madType_ = madType;
        return 0;
    }
    int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ = true, bool transNZ2ND = true)
    {
        (void)bias;
        (void)transND2NZ;
        (void)transNZ2ND;
        dbA_ = a;
        dbB_ = b;
        dbC_ = c;
        return 0;
    }
    void SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                               ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                               MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
    {
        SetMatmulConfigParams(
            MatmulConfigParams(mmConfigTypeIn, enableL1CacheUBIn, scheduleTypeIn, traverseIn, enVecND2NZIn));
    }
    void SetMatmulConfigParams(const MatmulConfigParams &configParams)
    {
        if (configParams.traverse != MatrixTraverse::NOSET)
            traverse_ = configParams.traverse;
    }
    int32_t GetBaseM() const { return baseM; }
    int32_t GetBaseN() const { return baseN; }
    int32_t GetBaseK() const { return baseK; }

    virtual int64_t GetTiling(optiling::TCubeTiling &tiling) { return GetTiling(tiling.Data()); }
    virtual int64_t GetTiling(AscendC::tiling::TCubeTiling &tiling) = 0;

    /* CANN's public state the samples read. */
    bool isBias = false;
    int32_t orgM = 0, orgN = 0, orgKa = 0, orgKb = 0;
    int32_t baseM = 0, baseN = 0, baseK = 0;

protected:
    static const platform_ascendc::PlatformAscendC *platform()
    {
        return platform_ascendc::PlatformAscendCManager::GetInstance();
    }
    static int64_t refuse(const char *fmt, int a = 0, int b = 0, int c = 0)
    {
        std::fprintf(stderr, "matmul_tiling: GetTiling: ");
        std::fprintf(stderr, fmt, a, b, c);
        std::fputc('\n', stderr);
        return -1;
    }
    static constexpr int64_t up(int64_t x, int64_t a) { return (x + a - 1) / a * a; }
    static constexpr int64_t cdiv(int64_t x, int64_t a) { return (x + a - 1) / a; }
    static int32_t bytes_of(DataType t)
    {
        switch (t) {
        case DataType::DT_FLOAT: case DataType::DT_INT32: return 4;
        case DataType::DT_FLOAT16: case DataType::DT_BF16: case DataType::DT_BFLOAT16: return 2;
        case DataType::DT_INT8: return 1;
        default: return 0;
        }
    }

    /* The tiling of an m x n x k product on at most `dim` cores (steps 1-4 of the file comment). */
    int64_t compute(AscendC::tiling::TCubeTiling &out, int32_t dim, int32_t singleM, int32_t singleN)
    {
        if (!platform_)
            return refuse("no platform (PlatformAscendCManager::GetInstance failed)");
        const dv_config_t &cfg = platform_->Profile();
        const int32_t m = m_ > 0 ? m_ : orgM, n = n_ > 0 ? n_ : orgN, k = k_ > 0 ? k_ : orgKa;
        if (m <= 0 || n <= 0 || k <= 0)
            return refuse("the shape %d x %d x %d is not positive (SetShape / SetOrgShape)", m, n, k);
        const int32_t isz = bytes_of(aType_.dataType);
        const DataType at = aType_.dataType, ct = cType_.dataType;
        const bool f32 = at == DataType::DT_FLOAT, i8 = at == DataType::DT_INT8;
        auto bf16 = [](DataType d) { return d == DataType::DT_BF16 || d == DataType::DT_BFLOAT16; };
        if (!isz || (bType_.dataType != at && !(bf16(at) && bf16(bType_.dataType))))
            return refuse("A and B must both be DT_FLOAT16, DT_BF16, DT_FLOAT or DT_INT8 (A is %d, B is %d)",
                          (int)at, (int)bType_.dataType);
        if (i8 ? ct != DataType::DT_INT32
               : (ct != DataType::DT_FLOAT && ct != DataType::DT_FLOAT16 && ct != DataType::DT_BF16 &&
                  ct != DataType::DT_BFLOAT16))
            return refuse("C type %d does not go with A type %d (float inputs give DT_FLOAT, DT_FLOAT16 or DT_BF16, "
                          "int8 gives DT_INT32)", (int)ct, (int)at);
        if ((f32 || i8) && (aType_.isTrans || !bType_.isTrans))
            return refuse("%d-byte A and B need A as given and B transposed (the cube cannot transpose 32-bit / "
                          "8-bit fractals on the way into L0)", isz);
        if (madType_ != MatrixMadType::NORMAL)
            return refuse("SetMadType %d: only NORMAL is modelled", (int)madType_);
        if (sparse_)
            return refuse("SetSparse(true): the cube's sparse mode is not modelled");
        const int64_t K0 = 32 / isz, kal = std::max<int64_t>(K0, 16); /* baseK step: fractal rows of K */
        uint64_t l1, l0a, l0b, l0c;
        platform_->GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1);
        platform_->GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, l0a);
        platform_->GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, l0b);
        platform_->GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c);
        if (l1Space_ > 0)
            l1 = std::min<uint64_t>(l1, (uint64_t)l1Space_);
        if (l0cSpace_ > 0)
            l0c = std::min<uint64_t>(l0c, (uint64_t)l0cSpace_);
        if (fixM_ > 0 && fixM_ % 16)
            return refuse("SetFixSplit baseM %d is not a multiple of 16", fixM_);
        if (fixN_ > 0 && fixN_ % 16)
            return refuse("SetFixSplit baseN %d is not a multiple of 16", fixN_);
        if (fixK_ > 0 && fixK_ % kal)
            return refuse("SetFixSplit baseK %d is not a multiple of %d", fixK_, (int)kal);

        /* 1. the core grid */
        const int64_t bw = std::max<uint64_t>(1, cfg.gm_core_read_bytes_per_cycle);
        const int64_t hbm = (int64_t)dv_hbm_sustained_bytes_per_cycle(&cfg);
        int64_t best = -1, bestCores = 0, bestM = 0, sM = 0, sN = 0;
        for (int64_t md = 1; md <= dim && md <= cdiv(m, 16); md++)
            for (int64_t nd = 1; md * nd <= dim && nd <= cdiv(n, 16); nd++) {
                const int64_t pm = singleM > 0 ? singleM : up(cdiv(m, md), 16);
                const int64_t pn = singleN > 0 ? singleN : up(cdiv(n, nd), 16);
                const int64_t cores = cdiv(m, pm) * cdiv(n, pn);
                if (cores > dim && !(singleM > 0 && singleN > 0))
                    continue; /* a part size the kernel fixed may need more parts than cores: its blocks loop */
                const int64_t cube = cdiv(pm, 16) * cdiv(pn, 16) * cdiv(k, K0);
                const int64_t rate = std::max<int64_t>(1, std::min(bw, hbm / cores));
                const int64_t t = std::max(cube, (pm + pn) * k * isz / rate);
                if (best < 0 || t < best || (t == best && cores < bestCores) ||
                    (t == best && cores == bestCores && md > bestM)) {
                    best = t;
                    bestCores = cores;
                    bestM = md;
                    sM = pm;
                    sN = pn;
                }
            }
        if (best < 0)
            return refuse("single shape %d x %d needs more than the %d cores of SetDim", singleM, singleN, dim);

        /* 2. the base tile */
        uint64_t bt;
        platform_->GetCoreMemSize(platform_ascendc::CoreMemType::BT, bt);
        const int64_t bm = fixM_ > 0 ? fixM_ : std::min<int64_t>(128, up(sM, 16));
        int64_t bn = fixN_ > 0 ? fixN_ : std::min<int64_t>(256, up(sN, 16));
        if (isBias && fixN_ <= 0) /* a tile's bias row fits the BiasTable */
            bn = std::min<int64_t>(bn, (int64_t)bt / 4 / 16 * 16);
        if (isBias && (bn <= 0 || (uint64_t)up(bn * 4, 64) > bt))
            return refuse("baseN %d of 4-byte bias values does not fit the BiasTable (%d bytes)", (int)bn, (int)bt);
        int64_t bk = fixK_ > 0 ? fixK_ : std::min<int64_t>(std::max<int64_t>(128 / isz, kal), up(k, kal));
        const int64_t l0cT = 4;
        auto fitsL0 = [&](int64_t kk, int64_t db) {
            return (uint64_t)(db * bm * kk * isz) <= l0a && (uint64_t)(db * kk * bn * isz) <= l0b;
        };
        while (fixK_ <= 0 && bk > kal && !fitsL0(bk, 1))
            bk -= kal;
        if (!fitsL0(bk, 1))
            return refuse("base %d x %d x %d does not fit L0A / L0B", (int)bm, (int)bn, (int)bk);
        if ((uint64_t)(bm * bn * l0cT) > l0c)
            return refuse("baseM %d x baseN %d of 4-byte accumulators does not fit L0C", (int)bm, (int)bn);
        const int64_t dbL0 = fitsL0(bk, 2) ? 2 : 1;
        const int64_t dbL0C = (uint64_t)(2 * bm * bn * l0cT) <= l0c ? 2 : 1;

        /* 3. the L1 loads (lib/matmul/l1_steps.h) */
        const int64_t kTiles = cdiv(k, bk);
        const int64_t bias = isBias ? up(bn * 4, 64) : 0; /* the bias row in L1, in whole BiasTable units */
        const dvac::tiling::L1Problem lp{(int64_t)l1, bm, bn, bk, isz, k, bias, aType_.isTrans, bType_.isTrans};
        const bool splitMN = dim > 1 && singleM <= 0 && singleN <= 0 && m >= 128 &&
                             (int64_t)m * n > 26214 * (int64_t)dim &&
                             platform_->GetSocVersion() == platform_ascendc::SocVersion::ASCEND910B;
        dvac::tiling::L1Steps st = splitMN ? dvac::tiling::l1_steps_split_mn(lp) : dvac::tiling::L1Steps{0, 0, 0};
        if (!st.db)
            st = dvac::tiling::l1_steps(lp);
        if (!st.db)
            return refuse("base %d x %d x %d: one load of A and one of B do not fit L1", (int)bm, (int)bn, (int)bk);
        const int64_t stepKa = st.ka, stepKb = st.kb, db1 = st.db;

        /* 4. the order */
        int32_t order = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
        if (traverse_ == MatrixTraverse::NOSET && stepKa >= kTiles && stepKb >= kTiles && bm > bn)
            order = 1; /* keep the larger load: A's rows when they outnumber B's columns */

        AscendC::tiling::TCubeTiling &t = out;
        t = AscendC::tiling::TCubeTiling{};
        t.usedCoreNum = (int32_t)std::min<int64_t>(bestCores, dim);
        t.M = orgM > 0 ? orgM : m;
        t.N = orgN > 0 ? orgN : n;
        t.Ka = orgKa > 0 ? orgKa : k;
        t.Kb = orgKb > 0 ? orgKb : k;
        t.singleCoreM = (int32_t)std::min<int64_t>(sM, m);
        t.singleCoreN = (int32_t)std::min<int64_t>(sN, n);
        t.singleCoreK = k;
        t.baseM = (int32_t)bm;
        t.baseN = (int32_t)bn;
        t.baseK = (int32_t)bk;
        t.stepM = t.stepN = 1;
        t.stepKa = (int32_t)stepKa;
        t.stepKb = (int32_t)stepKb;
        t.depthA1 = (int32_t)(stepKa * db1);
        t.depthB1 = (int32_t)(stepKb * db1);
        t.isBias = isBias;
        t.iterateOrder = order;
        t.shareL1Size = (int32_t)(dvac::tiling::loads_bytes(lp, stepKa, stepKb, db1) + bias);
        t.shareL0CSize = (int32_t)(dbL0C * bm * bn * l0cT);
        t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
        t.dbL0A = dbA_ ? (int32_t)dbL0 : 1;
        t.dbL0B = dbB_ ? (int32_t)dbL0 : 1;
        t.dbL0C = dbC_ ? (int32_t)dbL0C : 1;
        t.ALayoutInfoB = aLayout_[0], t.ALayoutInfoS = aLayout_[1], t.ALayoutInfoN = aLayout_[2];
        t.ALayoutInfoG = aLayout_[3], t.ALayoutInfoD = aLayout_[4];
        t.BLayoutInfoB = bLayout_[0], t.BLayoutInfoS = bLayout_[1], t.BLayoutInfoN = bLayout_[2];
        t.BLayoutInfoG = bLayout_[3], t.BLayoutInfoD = bLayout_[4];
        t.CLayoutInfoB = cLayout_[0], t.CLayoutInfoS1 = cLayout_[1], t.CLayoutInfoN = cLayout_[2];
        t.CLayoutInfoG = cLayout_[3], t.CLayoutInfoS2 = cLayout_[4];
        t.BatchNum = batchNum_;
        baseM = t.baseM;
        baseN = t.baseN;
        baseK = t.baseK;
        mDim_ = (int32_t)cdiv(m, t.singleCoreM);
        nDim_ = (int32_t)cdiv(n, t.singleCoreN);
        return 0;
    }

    const platform_ascendc::PlatformAscendC *platform_ = nullptr;
    MatTilingType aType_, bType_, cType_, biasType_;
    int32_t m_ = 0, n_ = 0, k_ = 0;
    int32_t fixM_ = -1, fixN_ = -1, fixK_ = -1;
    int32_t l1Space_ = -1, l0cSpace_ = -1;
    MatrixTraverse traverse_ = MatrixTraverse::NOSET;
    MatrixMadType madType_ = MatrixMadType::NORMAL;
    bool dbA_ = true, dbB_ = true, dbC_ = true;
    int32_t aLayout_[5] = {0, 0, 0, 0, 0}, bLayout_[5] = {0, 0, 0, 0, 0}, cLayout_[5] = {0, 0, 0, 0, 0};
    int32_t batchNum_ = 0;
    bool sparse_ = false;
    DequantType deqType_ = DequantType::SCALAR;
    int32_t mDim_ = 0, nDim_ = 0;
};

/* One core's tiling (usedCoreNum 1, the whole shape on it). */
class MatmulApiTiling : public MatmulApiTilingBase {
public:
    using MatmulApiTilingBase::MatmulApiTilingBase;
    using MatmulApiTilingBase::GetTiling;
    int64_t GetTiling(AscendC::tiling::TCubeTiling &tiling) override { return compute(tiling, 1, -1, -1); }
};

/* The tiling over SetDim cores. */
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
public:
    using MatmulApiTilingBase::MatmulApiTilingBase;
    using MatmulApiTilingBase::GetTiling;
    /* The cores the split may use. */
    int32_t SetDim(int32_t dim)
    {
        dim_ = dim;
        return 0;
    }
    /* Fix each core's part (-1: choose; K is not split). */
    virtual int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1)
    {
        singleM_ = singleMIn;
        singleN_ = singleNIn;
        singleK_ = singleKIn;
        return 0;
    }
    int64_t GetTiling(AscendC::tiling::TCubeTiling &tiling) override
    {
        if (dim_ <= 0)
            return refuse("SetDim %d: at least one core", dim_);
        if (singleK_ > 0 && singleK_ != (k_ > 0 ? k_ : orgKa))
            return refuse("SetSingleShape singleK %d: K is not split across cores", singleK_);
        const int64_t rc = compute(tiling, dim_, singleM_, singleN_);
        if (rc == 0) {
            single_[0] = tiling.singleCoreM;
            single_[1] = tiling.singleCoreN;
            single_[2] = tiling.singleCoreK;
        }
        return rc;
    }
    /* Allow the K axis to be split over cores (CANN then adds the parts atomically); dvsim's split never
     * cuts K (docs/ASCENDC.md), so the tiling is the same with or without it. */
    void EnableMultiCoreSplitK(bool flag) { (void)flag; }
    void SetSplitK(bool flag) { EnableMultiCoreSplitK(flag); }
    /* After GetTiling: each core's part. */
    int32_t GetSingleShape(int32_t &shapeM, int32_t &shapeN, int32_t &shapeK)
    {
        shapeM = single_[0];
        shapeN = single_[1];
        shapeK = single_[2];
        return 0;
    }
    /* After GetTiling: the cores used and the grid. */
    int32_t GetCoreNum(int32_t &dim, int32_t &mDim, int32_t &nDim)
    {
        dim = mDim_ * nDim_;
        mDim = mDim_;
        nDim = nDim_;
        return 0;
    }

private:
    int32_t dim_ = 0, singleM_ = -1, singleN_ = -1, singleK_ = -1;
    int32_t single_[3] = {0, 0, 0};
};

/* The tiling of a BatchMatmul (IterateBatch): one product's tiling on one core, the batch axis not split
 * (batchM = batchN = 1); the batch layout from SetBatchInfoForNormal / Set*Layout and SetBatchNum. */
class BatchMatmulTiling : public MatmulApiTilingBase {
public:
    using MatmulApiTilingBase::MatmulApiTilingBase;
    using MatmulApiTilingBase::GetTiling;
    int64_t GetTiling(AscendC::tiling::TCubeTiling &tiling) override { return compute(tiling, 1, -1, -1); }
    /* After GetTiling: the cores used, the M x N grid and the batch grid. */
    int32_t GetCoreNum(int32_t &dim, int32_t &mDim, int32_t &nDim, int32_t &batchCoreM, int32_t &batchCoreN)
    {
        dim = mDim_ * nDim_;
        mDim = mDim_;
        nDim = nDim_;
        batchCoreM = batchCoreN = 1;
        return 0;
    }
};

} // namespace matmul_tiling

#endif
