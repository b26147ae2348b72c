/* lib/matmul/constant_tiling.h - the Matmul configuration built at compile time, with CANN's names:
 * MatmulConfigMode and the parameter bundles GetMMConfig takes (MatmulShapeParams, MatmulQuantParams,
 * MatmulBatchParams, MatmulFuncParams, MatmulBiasParams), MatmulApiStaticTiling and
 * AscendC::GetMatmulApiTiling (asc-devkit include/adv_api/matmul/matmul_config.h, tiling.h,
 * constant_tiling.h, impl/adv_api/detail/matmul/utils/matmul_config_impl.h).
 *
 *   constexpr MatmulShapeParams shape = {singleM, singleN, singleK, baseM, baseN, baseK};
 *   constexpr MatmulConfig cfg = GetMMConfig<MatmulConfigMode::CONFIG_MDL>(shape);
 *   constexpr auto CONSTANT_CFG = AscendC::GetMatmulApiTiling<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>(cfg);
 *   AscendC::Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, CONSTANT_CFG> mm;
 *   REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, (TCubeTiling *)nullptr);   // the tiling is CONSTANT_CFG
 *
 * GetMatmulApiTiling's choice: the base tile as given, L0A / L0B double-buffered when two fit (64 KB each),
 * L0C single (as CANN fixes it), stepM = stepN = 1, stepKa / stepKb and the L1 double buffering by the host
 * tiling's rule (l1_steps.h; CANN's full-load search is not reproduced), iterateOrder 0.
 * A kernel may overwrite any field before handing the struct to the Matmul; Init checks it as it checks
 * a host tiling (lib/matmul_intf.h). */
#ifndef DVSIM_LIB_MATMUL_CONSTANT_TILING_H
#define DVSIM_LIB_MATMUL_CONSTANT_TILING_H

#include <type_traits>

#include "l1_steps.h"

/* Which MatmulConfig preset GetMMConfig starts from. */
enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };

/* The core's part and the base tile (elements). */
struct MatmulShapeParams {
    uint32_t singleCoreM;
    uint32_t singleCoreN;
    uint32_t singleCoreK;
    uint32_t basicM;
    uint32_t basicN;
    uint32_t basicK;
};
/* Anti-quantisation of B (half A, int8_t B). */
struct MatmulQuantParams {
    bool isPerTensor;
    bool hasAntiQuantOffset;
};
/* BatchMatmul options. */
struct MatmulBatchParams {
    bool isNBatch;
    BatchMode batchMode;
    bool isBiasBatch = true;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
};
/* The common feature switches. */
struct MatmulFuncParams {
    bool intrinsicsCheck;
    bool enVecND2NZ;
    bool enableDoubleCache;
    bool enableL1CacheUB;
    uint32_t doMTE2Preload;
    IterateOrder iterateOrder;
    ScheduleType scheduleType;
    bool enableReuse = true;
    bool enableUBReuse;
    bool isPartialOutput = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
    bool enableL1BankConflictOptimise = false;
    bool enableRelu = false;
    DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};
/* Whether SetBias is used. */
struct MatmulBiasParams {
    bool enableSetBias = true;
};

namespace dvac {
namespace mm {
/* One bundle into the config (CANN's GetMMConfigImpl); other argument types do not compile. */
template <typename P> constexpr void apply(MatmulConfig &c, const P &p)
{
    if constexpr (std::is_same<P, MatmulShapeParams>::value) {
        c.singleCoreM = p.singleCoreM;
        c.singleCoreN = p.singleCoreN;
        c.singleCoreK = p.singleCoreK;
        c.basicM = p.basicM;
        c.basicN = p.basicN;
        c.basicK = p.basicK;
    } else if constexpr (std::is_same<P, MatmulQuantParams>::value) {
        c.isPerTensor = p.isPerTensor;
        c.hasAntiQuantOffset = p.hasAntiQuantOffset;
    } else if constexpr (std::is_same<P, MatmulBatchParams>::value) {
        c.isNBatch = p.isNBatch;
        c.batchMode = p.batchMode;
        c.isBiasBatch = p.isBiasBatch;
        c.bmmOutMode = p.bmmOutMode;
    } else if constexpr (std::is_same<P, MatmulFuncParams>::value) {
        c.intrinsicsCheck = p.intrinsicsCheck;
        c.enVecND2NZ = p.enVecND2NZ;
        c.enableDoubleCache = p.enableDoubleCache;
        c.enableL1CacheUB = p.enableL1CacheUB;
        c.doMTE2Preload = p.doMTE2Preload;
        c.iterateOrder = p.iterateOrder;
        c.scheduleType = p.scheduleType;
        c.enableReuse = p.enableReuse;
        c.enableUBReuse = p.enableUBReuse;
        c.isPartialOutput = p.isPartialOutput;
        c.isA2B2Shared = p.isA2B2Shared;
        c.isEnableChannelSplit = p.isEnableChannelSplit;
        c.enableKdimReorderLoad = p.enableKdimReorderLoad;
        c.enableL1BankConflictOptimise = p.enableL1BankConflictOptimise;
        c.enableRelu = p.enableRelu;
        c.decompMode = p.decompMode;
    } else if constexpr (std::is_same<P, MatmulBiasParams>::value) {
        c.enableSetBias = p.enableSetBias;
    } else {
        static_assert(sizeof(P) == 0, "GetMMConfig takes MatmulShapeParams, MatmulQuantParams, MatmulBatchParams, "
                                      "MatmulFuncParams or MatmulBiasParams");
    }
}
} // namespace mm
} // namespace dvac

/* The SpecialMDL template (MDL with stepN > 1 allowed in CANN; the same data path here). */
constexpr MatmulConfig GetSpecialMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                           uint32_t doMTE2Preload = 0, bool isVecND2NZ = false,
                                           bool isPerTensor = false, bool hasAntiQuantOffset = false)
{
    MatmulConfig c = GetMDLConfig(intrinsicsLimit, batchLoop, doMTE2Preload, isVecND2NZ, isPerTensor,
                                  hasAntiQuantOffset);
    c.doMultiDataLoad = false;
    c.doSpecialMDL = true;
    return c;
}

/* The IBShare template. */
constexpr MatmulConfig GetIBShareNormConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                            bool isVecND2NZ = false, BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                            bool isDoubleCache = false, bool enUnitFlag = true)
{
    MatmulConfig c = dvac::mm::config(false, false);
    c.doIBShareNorm = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enVecND2NZ = isVecND2NZ;
    c.batchMode = bmmMode;
    c.enableDoubleCache = isDoubleCache;
    c.enUnitFlag = enUnitFlag;
    return c;
}

inline constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();

/* The preset of configMode with the bundles applied in order. */
template <MatmulConfigMode configMode, typename... ArgTypes> constexpr MatmulConfig GetMMConfig(ArgTypes &&...args)
{
    MatmulConfig c = configMode == MatmulConfigMode::CONFIG_MDL          ? CFG_MDL
                     : configMode == MatmulConfigMode::CONFIG_SPECIALMDL ? GetSpecialMDLConfig()
                     : configMode == MatmulConfigMode::CONFIG_IBSHARE    ? CFG_IBSHARE_NORM
                                                                          : CFG_NORM;
    (dvac::mm::apply(c, typename std::decay<ArgTypes>::type(args)), ...);
    return c;
}

/* A tiling fixed at compile time: TCubeTiling's fields (-1: not set) and the MatmulConfig. */
struct MatmulApiStaticTiling {
#define DVAC_STATIC_MEMBER(type, name) type name = -1;
    DVAC_TCUBE_TILING_FIELDS(DVAC_STATIC_MEMBER)
#undef DVAC_STATIC_MEMBER
    MatmulConfig cfg = CFG_NORM;
};

namespace AscendC {
namespace Impl {
constexpr int32_t L1_SIZE = 512 * 1024; /* dav-2201's L1 (impl/adv_api/tiling/matmul/matmul_constant_tiling_utils.h) */
constexpr int32_t DB_ON = 2;
constexpr int32_t DB_OFF = 1;
} // namespace Impl

/* The constant tiling of mmCFG (its singleCoreM/N/K and basicM/N/K); without a whole shape only the base
 * tile is set, as CANN does. */
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig &mmCFG, int32_t l1Size = Impl::L1_SIZE)
{
    using SrcAT = typename A_TYPE::T;
    using SrcBT = typename B_TYPE::T;
    MatmulApiStaticTiling t;
    t.cfg = mmCFG;
    const int32_t bm = (int32_t)mmCFG.basicM, bn = (int32_t)mmCFG.basicN, bk = (int32_t)mmCFG.basicK;
    if (bm == 0 || bn == 0 || bk == 0)
        return t;
    t.baseM = bm;
    t.baseN = bn;
    t.baseK = bk;
    t.dbL0A = 2 * bm * bk * (int32_t)sizeof(SrcAT) <= (int32_t)TOTAL_L0A_SIZE ? Impl::DB_ON : Impl::DB_OFF;
    t.dbL0B = 2 * bk * bn * (int32_t)sizeof(SrcBT) <= (int32_t)TOTAL_L0B_SIZE ? Impl::DB_ON : Impl::DB_OFF;
    t.isBias = mmCFG.enableSetBias ? 1 : 0;
    if (mmCFG.singleCoreM == 0 || mmCFG.singleCoreN == 0 || mmCFG.singleCoreK == 0)
        return t;
    const int32_t sk = (int32_t)mmCFG.singleCoreK;
    t.M = t.singleCoreM = (int32_t)mmCFG.singleCoreM;
    t.N = t.singleCoreN = (int32_t)mmCFG.singleCoreN;
    t.Ka = t.Kb = t.singleCoreK = sk;
    t.stepM = t.stepN = 1;
    const int32_t bias = mmCFG.enableSetBias ? (bn * 4 + 63) / 64 * 64 : 0;
    const dvac::tiling::L1Problem lp{l1Size, bm, bn, bk, (int64_t)sizeof(SrcAT), sk, bias, A_TYPE::isTrans,
                                     B_TYPE::isTrans};
    dvac::tiling::L1Steps st = dvac::tiling::l1_steps(lp);
    if (!st.db) /* one slice of each does not fit: Init refuses the tiling, naming L1 */
        st = {1, 1, 1};
    t.stepKa = st.ka;
    t.stepKb = st.kb;
    t.depthA1 = st.db * st.ka;
    t.depthB1 = st.db * st.kb;
    t.iterateOrder = 0;
    t.dbL0C = 1;
    t.shareMode = 0;
    t.shareL1Size = (int32_t)(dvac::tiling::loads_bytes(lp, st.ka, st.kb, st.db) + bias);
    t.shareL0CSize = bm * bn * 4;
    t.shareUbSize = 0;
    t.transLength = 0;
    t.usedCoreNum = 1;
    t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
    return t;
}
} // namespace AscendC

namespace dvac {
namespace mm {
/* The MatmulConfig of a Matmul's MM_CFG: the config itself, or a static tiling's. */
constexpr const MatmulConfig &config_of(const MatmulConfig &c) { return c; }
constexpr const MatmulConfig &config_of(const MatmulApiStaticTiling &t) { return t.cfg; }
constexpr bool is_static(const MatmulConfig &) { return false; }
constexpr bool is_static(const MatmulApiStaticTiling &) { return true; }

/* A static tiling's fields into a TCubeTiling (fields left at -1 stay 0). */
inline TCubeTiling tiling_of(const MatmulApiStaticTiling &s)
{
    TCubeTiling t;
#define DVAC_STATIC_COPY(type, name) t.name = s.name < 0 ? 0 : s.name;
    DVAC_TCUBE_TILING_FIELDS(DVAC_STATIC_COPY)
#undef DVAC_STATIC_COPY
    return t;
}
inline TCubeTiling tiling_of(const MatmulConfig &) { return TCubeTiling{}; }
} // namespace mm
} // namespace dvac

namespace AscendC {
using ::GetIBShareNormConfig;
using ::GetMMConfig;
using ::GetSpecialMDLConfig;
using ::MatmulApiStaticTiling;
using ::MatmulBatchParams;
using ::MatmulBiasParams;
using ::MatmulConfigMode;
using ::MatmulFuncParams;
using ::MatmulQuantParams;
using ::MatmulShapeParams;
} // namespace AscendC

#endif
