// model/Hbm.cpp
#include "Hbm.h"

namespace dv {

Hbm::Hbm(sc_core::sc_module_name name, const dv_config_t &cfg)
    : sc_module(name), latency(cfg.hbm_latency_cycles)
{
    cal_.configure(dv_hbm_sustained_bytes_per_cycle(&cfg), cfg.sim_bandwidth_window_cycles);
}

cycles_t Hbm::transfer(cycles_t t, uint64_t bytes, bool write, unsigned requester)
{
    (write ? write_bytes : read_bytes) += bytes;
    return cal_.reserve(t, bytes, requester);
}

} // namespace dv
