// model/Hbm.cpp
#include "Hbm.h"

#include <algorithm>

namespace dv {

Hbm::Params Hbm::Params::from(const dv_config_t &cfg)
{
    return Params{cfg.hbm_latency_cycles, dv_hbm_sustained_bytes_per_cycle(&cfg), cfg.sim_bandwidth_window_cycles,
                  cfg.hbm_request_overhead_bytes, cfg.hbm_same_address_overhead_bytes};
}

Hbm::Hbm(sc_core::sc_module_name name, const Params &p)
    : sc_module(name), latency(p.latency_cycles), request_overhead(p.request_overhead_bytes),
      same_address_overhead(p.same_address_overhead_bytes)
{
    recent_.reset(kRecent);
    cal_.configure(p.bytes_per_cycle, p.window_cycles);
}

cycles_t Hbm::transfer(cycles_t t, uint64_t bytes, bool write, unsigned requester, uint64_t bypass_requests,
                       uint64_t same_address)
{
    (write ? write_bytes : read_bytes) += bytes;
    same_address_requests += same_address;
    if (same_address) // (no capacity lost: nothing to take)
        cal_.consume(t, same_address * same_address_overhead);
    return cal_.reserve(t, bytes + bypass_requests * request_overhead, requester);
}

bool Hbm::same_address(cycles_t t, uint64_t line, unsigned requester) const
{
    const Recent &r = recent_[slot(line)];
    return r.line1 == line + 1 && r.who != requester && (t > r.t ? t - r.t : r.t - t) < r.done - r.t;
}

void Hbm::remember(cycles_t t, cycles_t done, uint64_t line, unsigned requester)
{
    recent_[slot(line)] = Recent{line + 1, t, std::max(done, t), requester};
}

} // namespace dv
