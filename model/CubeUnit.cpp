// model/CubeUnit.cpp
#include "CubeUnit.h"

#include "dv/intmath.h"

namespace dv {

CubeUnit::Params CubeUnit::Params::from(const dv_config_t &cfg)
{
    return Params{cfg.cube_m,    cfg.cube_n,    cfg.cube_k_f16,         cfg.cube_k_bf16,
                  cfg.cube_k_s8, cfg.cube_k_f32, cfg.cube_latency_cycles};
}

CubeUnit::CubeUnit(sc_core::sc_module_name name, const Params &p) : sc_module(name), p_(p) {}

Cost CubeUnit::cost(const dv_insn_t &in) const
{
    const uint64_t m = in.f[DV_FLD(MMAD, m)].u, k = in.f[DV_FLD(MMAD, k)].u, n = in.f[DV_FLD(MMAD, n)].u;
    uint64_t k0 = p_.k_f16;
    switch (in.f[DV_FLD(MMAD, dtype)].i) {
    case DV_DT_BF16: k0 = p_.k_bf16; break;
    case DV_DT_S8: k0 = p_.k_s8; break;
    case DV_DT_F32: k0 = p_.k_f32; break;
    default: break;
    }
    Cost c;
    c.occupy = dv_ceil_div(m, p_.m) * dv_ceil_div(n, p_.n) * dv_ceil_div(k, k0);
    c.latency = p_.latency_cycles;
    return c;
}

} // namespace dv
