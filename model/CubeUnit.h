// model/CubeUnit.h - timing of the M pipe (ref 3.1, PyPTO A2A3 model):
//   occupy  = ceil(m / cube.m) * ceil(n / cube.n) * ceil(k / cube.k_<dtype>)
//   latency = cube.latency_cycles
#pragma once
#include <systemc>

#include "Cost.h"
#include "dv/config.h"
#include "dv/isa.h"

namespace dv {

class CubeUnit : public sc_core::sc_module {
public:
    // Its section of the profile: cube.*.
    struct Params {
        uint64_t m, n;                      // cube.m, cube.n: rows of A, columns of B per cycle
        uint64_t k_f16, k_bf16, k_s8, k_f32; // cube.k_<dtype>: K0 per cycle
        cycles_t latency_cycles;
        static Params from(const dv_config_t &cfg);
    };

    CubeUnit(sc_core::sc_module_name name, const Params &p);
    Cost cost(const dv_insn_t &in) const;

private:
    const Params p_;
};

} // namespace dv
