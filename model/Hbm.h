// model/Hbm.h - device memory: bandwidth shared by all cores, with a fixed miss latency.
#pragma once
#include <systemc>

#include "BandwidthCalendar.h"
#include "dv/config.h"

namespace dv {

class Hbm : public sc_core::sc_module {
public:
    // Its section of the profile: hbm.latency_cycles, the sustained rate (hbm.bytes_per_cycle x
    // hbm.efficiency_percent), hbm.request_overhead_bytes and sim.bandwidth_window_cycles.
    struct Params {
        cycles_t latency_cycles;
        uint64_t bytes_per_cycle, window_cycles, request_overhead_bytes;
        static Params from(const dv_config_t &cfg);
    };

    Hbm(sc_core::sc_module_name name, const Params &p);
    // Move `bytes` for core `requester` starting at cycle t; returns when the last byte is through.
    // `bypass_requests` of them are bursts that bypass L2: each also takes request_overhead_bytes
    // of the calendar's capacity (a DRAM page opened for one short access).
    cycles_t transfer(cycles_t t, uint64_t bytes, bool write, unsigned requester, uint64_t bypass_requests = 0);
    void retire(cycles_t t) { cal_.retire(t); }
    void reset_counters() { read_bytes = write_bytes = 0; }

    const cycles_t latency;
    const uint64_t request_overhead;
    uint64_t read_bytes = 0, write_bytes = 0;

private:
    BandwidthCalendar cal_;
};

} // namespace dv
