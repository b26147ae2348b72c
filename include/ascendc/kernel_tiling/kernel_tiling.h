/* kernel_tiling/kernel_tiling.h - the tiling structs the kernel side of CANN's high-level APIs reads,
 * as plain structs with CANN's field names and order (AscendC::tiling, exported to the global
 * namespace as CANN's generated header does).
 *
 * TCubeTiling, the Matmul tiling, is written once as a field table (DVAC_TCUBE_TILING_FIELDS): the
 * kernel struct here and the host class optiling::TCubeTiling (tiling/tiling_api.h) are both made
 * from it, so their layouts cannot drift apart.  Field meanings: docs/ASCENDC.md, "Cube and Matmul
 * API"; which fields the kernel reads: lib/matmul_intf.h. */
#ifndef DVSIM_KERNEL_TILING_H
#define DVSIM_KERNEL_TILING_H

#include <cstddef>
#include <cstdint>

/* X(type, name): TCubeTiling's fields in CANN's order (asc-devkit include/adv_api/matmul/matmul_tilingdata.h). */
#define DVAC_TCUBE_TILING_FIELDS(X)                                                                                  \
    X(int32_t, usedCoreNum) X(int32_t, M) X(int32_t, N) X(int32_t, Ka) X(int32_t, Kb) X(int32_t, singleCoreM)       \
    X(int32_t, singleCoreN) X(int32_t, singleCoreK) X(int32_t, baseM) X(int32_t, baseN) X(int32_t, baseK)           \
    X(int32_t, depthA1) X(int32_t, depthB1) X(int32_t, stepM) X(int32_t, stepN) X(int32_t, isBias)                  \
    X(int32_t, transLength) X(int32_t, iterateOrder) X(int32_t, shareMode) X(int32_t, shareL1Size)                  \
    X(int32_t, shareL0CSize) X(int32_t, shareUbSize) X(int32_t, batchM) X(int32_t, batchN) X(int32_t, singleBatchM) \
    X(int32_t, singleBatchN) X(int32_t, stepKa) X(int32_t, stepKb) X(int32_t, depthAL1CacheUB)                       \
    X(int32_t, depthBL1CacheUB) X(int32_t, dbL0A) X(int32_t, dbL0B) X(int32_t, dbL0C) X(int32_t, ALayoutInfoB)       \
    X(int32_t, ALayoutInfoS) X(int32_t, ALayoutInfoN) X(int32_t, ALayoutInfoG) X(int32_t, ALayoutInfoD)             \
    X(int32_t, BLayoutInfoB) X(int32_t, BLayoutInfoS) X(int32_t, BLayoutInfoN) X(int32_t, BLayoutInfoG)             \
    X(int32_t, BLayoutInfoD) X(int32_t, CLayoutInfoB) X(int32_t, CLayoutInfoS1) X(int32_t, CLayoutInfoN)            \
    X(int32_t, CLayoutInfoG) X(int32_t, CLayoutInfoS2) X(int32_t, BatchNum) X(int32_t, mxTypePara)

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)
/* The Matmul tiling (matmul_tiling::MultiCoreMatmulTiling::GetTiling fills it on the host). */
struct TCubeTiling {
#define DVAC_TCUBE_MEMBER(type, name) type name = 0;
    DVAC_TCUBE_TILING_FIELDS(DVAC_TCUBE_MEMBER)
#undef DVAC_TCUBE_MEMBER
};
#pragma pack(pop)

} // namespace tiling
} // namespace AscendC

using AscendC::tiling::TCubeTiling;

/* bisheng's builtin that turns the bytes of a tiling (a constexpr array, as GET_TILING_DATA's generated
 * code and AOT tiling tables give them) into the struct at compile time: sizeof(T) bytes from `bytes`. */
template <typename T> constexpr T convert_from_bytes(const uint8_t *bytes)
{
    struct Raw {
        uint8_t b[sizeof(T)];
    } raw{};
    for (size_t i = 0; i < sizeof(T); i++)
        raw.b[i] = bytes[i];
    return __builtin_bit_cast(T, raw);
}

/* The advanced APIs' tilings (each area's structs, host classes and host functions). */
#include "../adv/activation_tiling.h"
#include "../adv/normalization_tiling.h"
#include "../adv/math_tiling.h"
#include "../adv/reduce_sort_tiling.h"
#include "../adv/transform_tiling.h"

#endif
