// model/Hbm.cpp
#include "Hbm.h"

namespace dv {

Hbm::Params Hbm::Params::from(const dv_config_t &cfg)
{
    return Params{cfg.hbm_latency_cycles, dv_hbm_sustained_bytes_per_cycle(&cfg), cfg.sim_bandwidth_window_cycles,
                  cfg.hbm_request_overhead_bytes};
}

Hbm::Hbm(sc_core::sc_module_name name, const Params &p) : sc_module(name), latency(p.latency_cycles), request_overhead(p.request_overhead_bytes)
{
    cal_.configure(p.bytes_per_cycle, p.window_cycles);
}

cycles_t Hbm::transfer(cycles_t t, uint64_t bytes, bool write, unsigned requester, uint64_t bypass_requests)
{
    (write ? write_bytes : read_bytes) += bytes;
    return cal_.reserve(t, bytes + bypass_requests * request_overhead, requester);
}

} // namespace dv
