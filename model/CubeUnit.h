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
    CubeUnit(sc_core::sc_module_name name, const dv_config_t &cfg);
    Cost cost(const dv_insn_t &in) const;

private:
    const dv_config_t &cfg_;
};

} // namespace dv
