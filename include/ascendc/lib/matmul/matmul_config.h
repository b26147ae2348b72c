/* lib/matmul/matmul_config.h - the compile-time description of a Matmul object, with CANN's names:
 * MatmulType (where a matrix lives, its format and element type), MatmulConfig with the template
 * presets (CFG_NORM, CFG_MDL) and their builders, the iteration order and the callback type.  As in
 * CANN (include/adv_api/matmul/matmul_config.h, tiling.h) MatmulConfig, its presets and enums are in
 * the global namespace, and also named in AscendC; MatmulType and MatmulCallBackFunc are AscendC's.
 *
 * dvsim runs one data path for every preset (lib/matmul_intf.h); of MatmulConfig it reads only
 * iterateOrder (when not UNDEF) and enableRelu.  The other fields are accepted so that code written for
 * CANN compiles; their effect is on CANN's performance, not on the result. */
#ifndef DVSIM_LIB_MATMUL_CONFIG_H
#define DVSIM_LIB_MATMUL_CONFIG_H

#include "../../kernel_operator.h"
#include "../../kernel_tiling/kernel_tiling.h"

inline constexpr uint32_t SHARED_CO1_BUFFER_SIZE = 64 * 1024;

enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
/* The order of Iterate's tiles: ORDER_M walks M first (consecutive tiles share their columns of B),
 * ORDER_N walks N first; UNDEF takes TCubeTiling::iterateOrder. */
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum IterateMode : uint8_t {
    ITERATE_MODE_NORMAL = 0b00000001, ITERATE_MODE_ALL = 0b00000010, ITERATE_MODE_BATCH = 0b00000100,
    ITERATE_MODE_N_BATCH = 0b00001000, ITERATE_MODE_DEFAULT = 0b11111111,
};
enum class DecompressionMode {
    DECOMP_NONE = 0, DECOMP_2bitTo8bit, DECOMP_3bitTo8bit, DECOMP_4bitTo8bit, DECOMP_16bitTo64bit, DECOMP_1bitTo8bit,
    DECOMP_1bitTo4bit, DECOMP_2bitTo4bit, DECOMP_3bitTo4bit,
};

/* The Matmul template configuration, field for field as CANN names it. */
struct MatmulConfig {
    bool doNorm;
    bool doBasicBlock;
    bool doMultiDataLoad;
    uint32_t basicM;
    uint32_t basicN;
    uint32_t basicK;
    bool intrinsicsCheck;
    bool isNBatch;
    bool enVecND2NZ;
    bool doSpecialBasicBlock;
    uint32_t doMTE2Preload;
    uint32_t singleCoreM;
    uint32_t singleCoreN;
    uint32_t singleCoreK;
    uint32_t stepM;
    uint32_t stepN;
    uint32_t baseMN;
    uint32_t singleCoreMN;
    bool enUnitFlag = true;
    bool isPerTensor;
    bool hasAntiQuantOffset;
    bool doIBShareNorm;
    bool doSpecialMDL;
    bool enableInit = true;
    BatchMode batchMode;
    bool enableEnd = true;
    bool enableGetTensorC = true;
    bool enableSetOrgShape = true;
    bool enableSetBias = true;
    bool enableSetTail = true;
    bool enableQuantVector = true;
    bool enableSetDefineData = true;
    uint8_t iterateMode = IterateMode::ITERATE_MODE_DEFAULT;
    bool enableReuse = true;
    bool enableUBReuse;
    bool enableL1CacheUB;
    bool intraBlockPartSum = false;
    IterateOrder iterateOrder{IterateOrder::UNDEF};
    ScheduleType scheduleType;
    bool enableDoubleCache;
    bool isBiasBatch = true;
    bool enableStaticPadZeros = false;
    bool isPartialOutput = false;
    bool enableMixDualMaster = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
    bool isCO1Shared = false;
    uint32_t sharedCO1BufferSize = SHARED_CO1_BUFFER_SIZE;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
    bool enableL1BankConflictOptimise = false;
    bool enableRelu = false;
    DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};

namespace dvac {
namespace mm {
/* A MatmulConfig with every field at its zero / default value and the template flags given. */
constexpr MatmulConfig config(bool norm, bool mdl)
{
    MatmulConfig c{};
    c.doNorm = norm;
    c.doMultiDataLoad = mdl;
    c.enableUBReuse = true;
    c.batchMode = norm ? BatchMode::BATCH_LESS_THAN_L1 : BatchMode::NONE;
    return c;
}
} // namespace mm
} // namespace dvac

/* The Norm template (CANN's default). */
constexpr MatmulConfig GetNormalConfig(bool intrinsicsLimit = false, bool batchLoop = false, bool isVecND2NZ = false,
                                       BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1, bool isMsgReuse = true,
                                       IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       ScheduleType scheduleType = ScheduleType::INNER_PRODUCT, bool enUnitFlag = true,
                                       bool enableMixDualMaster = false,
                                       BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH)
{
    MatmulConfig c = dvac::mm::config(true, false);
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enVecND2NZ = isVecND2NZ;
    c.batchMode = bmmMode;
    c.enableReuse = isMsgReuse;
    c.iterateOrder = iterateOrder;
    c.scheduleType = scheduleType;
    c.enUnitFlag = enUnitFlag;
    c.enableMixDualMaster = enableMixDualMaster;
    c.bmmOutMode = bmmOutMode;
    return c;
}

/* The MDL (multi-data-load) template. */
constexpr MatmulConfig GetMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false, uint32_t doMTE2Preload = 0,
                                    bool isVecND2NZ = false, bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                    bool enUnitFlag = false, bool isMsgReuse = true, bool enableUBReuse = true,
                                    bool enableL1CacheUB = false, bool enableMixDualMaster = false,
                                    bool enableKdimReorderLoad = false, bool enableL1BankConflictOptimise = false)
{
    MatmulConfig c = dvac::mm::config(false, true);
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.doMTE2Preload = doMTE2Preload;
    c.enVecND2NZ = isVecND2NZ;
    c.isPerTensor = isPerTensor;
    c.hasAntiQuantOffset = hasAntiQuantOffset;
    c.enUnitFlag = enUnitFlag;
    c.enableReuse = isMsgReuse;
    c.enableUBReuse = enableUBReuse;
    c.enableL1CacheUB = enableL1CacheUB;
    c.enableMixDualMaster = enableMixDualMaster;
    c.enableKdimReorderLoad = enableKdimReorderLoad;
    c.enableL1BankConflictOptimise = enableL1BankConflictOptimise;
    return c;
}

inline constexpr MatmulConfig CFG_NORM = GetNormalConfig();
inline constexpr MatmulConfig CFG_MDL = GetMDLConfig();

/* The position of the current Iterate's tile in C (reserved in CANN). */
struct MatrixOffset {
    int32_t offset;
    int32_t row;
    int32_t col;
    int32_t height;
    int32_t width;
};

namespace AscendC {

/* Where a matrix of a Matmul lives (TPosition), its layout (CubeFormat), its element type, whether it
 * is given transposed (ISTRANS, the default of SetTensorA/B's flag), and batch/sharing options. */
template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false, TPosition SRCPOS = TPosition::GM>
struct MatmulType {
    constexpr static TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
    constexpr static TPosition srcPos = SRCPOS;
};

/* User callbacks of the data path (copy out, copy A / B into L1); dvsim runs only the built-in path,
 * so a Matmul given any callback does not compile. */
template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr, auto CopyB1 = nullptr> struct MatmulCallBackFunc {
    static constexpr bool none = DataCopyOut == nullptr && CopyA1 == nullptr && CopyB1 == nullptr;
};

using ::BatchMode;
using ::BatchOutMode;
using ::CFG_MDL;
using ::CFG_NORM;
using ::DecompressionMode;
using ::GetMDLConfig;
using ::GetNormalConfig;
using ::IterateMode;
using ::IterateOrder;
using ::LayoutMode;
using ::MatmulConfig;
using ::MatrixOffset;
using ::ScheduleType;

} // namespace AscendC

/* CANN declares CubeFormat in the global namespace too. */
using AscendC::CubeFormat;

#include "constant_tiling.h"
#include "matmul_policy.h"
#include "std_layout.h"
#include "batch.h"

#endif
