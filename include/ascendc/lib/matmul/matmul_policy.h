/* lib/matmul/matmul_policy.h - the policies of a Matmul (its seventh template parameter), with CANN's names
 * (asc-devkit impl/adv_api/detail/matmul/policy/matmul_policy.h, "experimental, internal usage").
 *
 * A policy selects CANN's modules (buffers, scheduler) for a schedule:
 *   MatmulPolicy            the default;
 *   NBuffer33MatmulPolicy   the MDL template with A held in three L1 buffers (CANN: "NBuffer33", MDL only);
 *   TrianUpperMatmulPolicy, TrianLowerMatmulPolicy   tiles of the upper / lower triangle of C only.
 * dvsim's Matmul (lib/matmul_intf.h) runs one data path; it reads POLICY_TYPE where the policy changes what
 * is computed (the triangle policies: the tiles outside the triangle are not computed nor written). */
#ifndef DVSIM_LIB_MATMUL_POLICY_H
#define DVSIM_LIB_MATMUL_POLICY_H

namespace AscendC {
namespace Impl {
namespace Detail {

enum class PolicyType { MATMUL_DEFAULT = 0, MATMUL_NBUFFER_33, MATMUL_LOWER_TRIANGULAR, MATMUL_UPPER_TRIANGULAR };

template <const auto &MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct MatmulPolicy {
    constexpr static PolicyType POLICY_TYPE = PolicyType::MATMUL_DEFAULT;
};
template <const auto &MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct NBuffer33MatmulPolicy : public MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {
    constexpr static PolicyType POLICY_TYPE = PolicyType::MATMUL_NBUFFER_33;
};
template <const auto &MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct TrianUpperMatmulPolicy : public MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {
    constexpr static PolicyType POLICY_TYPE = PolicyType::MATMUL_UPPER_TRIANGULAR;
};
template <const auto &MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct TrianLowerMatmulPolicy : public MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {
    constexpr static PolicyType POLICY_TYPE = PolicyType::MATMUL_LOWER_TRIANGULAR;
};

} // namespace Detail
} // namespace Impl
} // namespace AscendC

#endif
