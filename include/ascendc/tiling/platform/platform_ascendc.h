/* tiling/platform/platform_ascendc.h - CANN's host-side platform query (platform_ascendc::PlatformAscendC)
 * answered from dvsim's chip profile, header-only.
 *
 * PlatformAscendCManager::GetInstance() takes the profile a program's aclInit would take (the default
 * preset, DVSIM_PROFILE, DVSIM_CONFIG) and GetInstance("Ascend910B1") the preset of that SoC, both
 * without aclInit (tiling runs before it), through libascendcl's dvsimChipProfile.  A PlatformAscendC
 * can also be made from a dv_config_t directly (dvsim's own tests and tools).
 *
 * The numbers are the profile's (core counts, buffer sizes) with what CANN's implementation adds on
 * top (asc-devkit impl/utils/tiling/platform/platform_ascendc.cpp): on dav-2201 (ASCEND910B) UB and
 * L1 report 256 bytes less (reserved for the high-level APIs' kernel-side messages), UB also less
 * what ReserveLocalMemory reserved, and the library workspace is 16 MiB (2 MiB on other chips). */
#ifndef DVSIM_PLATFORM_ASCENDC_H
#define DVSIM_PLATFORM_ASCENDC_H

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "acl/acl_base.h"
#include "dv/config.h"
#include "dvsim/acl_launch.h"

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

enum class SocVersion {
    ASCEND910 = 0, ASCEND910B, ASCEND310P, ASCEND310B, ASCEND950, ASCEND910_55, ASCEND910_95 = ASCEND950, AS31XM1,
    ASCEND031, ASCEND035, ASCEND310, ASCEND610, ASCEND610Lite, ASCEND910_93, BS9SX1A, BS9SX2A, HI3796CV300CS,
    HI3796CV300ES, MC61AM21A, MC62, SD3403, KIRINX90, KIRIN9030, MC32DM11A, ASCEND350, RESERVED_VERSION = 99999
};

enum class ReservedSize { RESERVED_SIZE_8K, RESERVED_SIZE_16K, RESERVED_SIZE_32K };

/* One chip's numbers. */
class PlatformAscendC {
public:
    PlatformAscendC() = delete;
    explicit PlatformAscendC(const dv_config_t &profile) : cfg_(profile) {}

    /* Split chips (dav-2201): the vector cores; coupled chips: the AI cores. */
    uint32_t GetCoreNum() const { return split() ? GetCoreNumAiv() : (uint32_t)cfg_.chip_ai_cores; }
    uint32_t GetCoreNumAic() const { return (uint32_t)cfg_.chip_ai_cores; }
    uint32_t GetCoreNumAiv() const
    {
        return (uint32_t)(split() ? cfg_.chip_ai_cores * cfg_.chip_aiv_per_core : cfg_.chip_ai_cores);
    }
    /* The separate vector cores of a 310P; 0 elsewhere. */
    uint32_t GetCoreNumVector() const { return 0; }

    void GetCoreMemSize(const CoreMemType &memType, uint64_t &size) const
    {
        switch (memType) {
        case CoreMemType::L0_A: size = cfg_.l0a_size_bytes; break;
        case CoreMemType::L0_B: size = cfg_.l0b_size_bytes; break;
        case CoreMemType::L0_C: size = cfg_.l0c_size_bytes; break;
        case CoreMemType::L1: size = cfg_.l1_size_bytes; break;
        case CoreMemType::L2: size = cfg_.l2_size_bytes; break;
        case CoreMemType::UB: size = cfg_.ub_size_bytes; break;
        case CoreMemType::HBM: size = cfg_.hbm_capacity_bytes; break;
        case CoreMemType::FB: size = cfg_.fb_size_bytes; break;
        case CoreMemType::BT: size = cfg_.bt_size_bytes; break;
        default: size = 0; return;
        }
        if ((memType == CoreMemType::UB || memType == CoreMemType::L1) && GetSocVersion() == SocVersion::ASCEND910B)
            size -= KFC_RESERVED_BYTES;
        if (memType == CoreMemType::UB)
            size -= reserved_;
    }
    void ReserveLocalMemory(ReservedSize size)
    {
        reserved_ = size == ReservedSize::RESERVED_SIZE_8K ? 8192u : size == ReservedSize::RESERVED_SIZE_16K ? 16384u
                                                                                                          : 32768u;
    }

    uint32_t GetLibApiWorkSpaceSize() const
    {
        return GetSocVersion() == SocVersion::ASCEND910B ? 16u * 1024 * 1024 : 2u * 1024 * 1024;
    }

    SocVersion GetSocVersion() const
    {
        if (split())
            return SocVersion::ASCEND910B;
        return std::strstr(cfg_.chip_name, "910") ? SocVersion::ASCEND910 : SocVersion::ASCEND310P;
    }

    /* Blocks of a launch that has sliceNum slices on AIVs grouped aivCoreNum / aicCoreNum per AI core. */
    uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const
    {
        if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum)
            return sliceNum;
        const uint32_t ration = aivCoreNum / aicCoreNum, blocks = (sliceNum + ration - 1) / ration;
        if (ration == cfg_.chip_aiv_per_core && blocks > aicCoreNum) {
            std::fprintf(stderr, "platform_ascendc: CalcTschNumBlocks: %u blocks exceed the %u AI cores\n", blocks,
                         aicCoreNum);
            return 0;
        }
        return blocks;
    }
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const
    {
        return CalcTschNumBlocks(sliceNum, aicCoreNum, aivCoreNum);
    }

    /* dvsim: the profile behind the answers. */
    const dv_config_t &Profile() const { return cfg_; }

private:
    static constexpr uint64_t KFC_RESERVED_BYTES = 256;
    bool split() const { return cfg_.chip_layout == DV_LAYOUT_SPLIT; }
    dv_config_t cfg_;
    uint32_t reserved_ = 0;
};

/* The process's platform, made on first use. */
class PlatformAscendCManager {
public:
    static PlatformAscendC *GetInstance() { return instance(nullptr); }
    /* customSocVersion: CANN's SoC name ("Ascend910B1"); dvsim takes the preset of that name. */
    static PlatformAscendC *GetInstance(const char *customSocVersion) { return instance(customSocVersion); }

private:
    static PlatformAscendC *instance(const char *soc)
    {
        static std::mutex mu;
        static PlatformAscendC *platform = nullptr;
        const std::lock_guard<std::mutex> lock(mu);
        if (platform)
            return platform;
        char preset[DV_CONFIG_STR_MAX] = "";
        for (size_t i = 0; soc && soc[i] && i + 1 < sizeof preset; i++)
            preset[i] = (char)std::tolower((unsigned char)soc[i]);
        static dv_config_t cfg;
        if (dvsimChipProfile(soc ? preset : nullptr, &cfg) != ACL_SUCCESS) {
            std::fprintf(stderr, "platform_ascendc: no chip profile%s%s\n", soc ? " for SoC " : "", soc ? soc : "");
            return nullptr;
        }
        static PlatformAscendC made(cfg);
        platform = &made;
        return platform;
    }
};

} // namespace platform_ascendc

#endif
