// model/Hbm.h - device memory: bandwidth shared by all cores, with a fixed miss latency.
#pragma once
#include <systemc>

#include "BandwidthCalendar.h"
#include "Zeros.h"
#include "dv/config.h"

namespace dv {

class Hbm : public sc_core::sc_module {
public:
    // Its section of the profile: hbm.latency_cycles, the sustained rate (hbm.bytes_per_cycle x
    // hbm.efficiency_percent), hbm.request_overhead_bytes, hbm.same_address_overhead_bytes and
    // sim.bandwidth_window_cycles.
    struct Params {
        cycles_t latency_cycles;
        uint64_t bytes_per_cycle, window_cycles, request_overhead_bytes, same_address_overhead_bytes;
        static Params from(const dv_config_t &cfg);
    };

    Hbm(sc_core::sc_module_name name, const Params &p);
    // Move `bytes` for core `requester` starting at cycle t; returns when the last byte is through.
    // `bypass_requests` of them are bursts that bypass L2: each also takes request_overhead_bytes
    // of the calendar's capacity (a DRAM page opened for one short access); `same_address` of
    // those found another core's request to one of their lines still in flight (same_address()),
    // and take same_address_overhead_bytes more.
    cycles_t transfer(cycles_t t, uint64_t bytes, bool write, unsigned requester, uint64_t bypass_requests = 0,
                      uint64_t same_address = 0);
    // Reads that bypass L2 and queue behind another core's at the same address.  A bypassing read
    // of a line is in flight from its instruction's start until its instruction's last byte is
    // through (done, queueing included).  same_address(): would a read of `line` by `requester`
    // starting at cycle t find another core's read of it in flight - started at most (its done -
    // its start) before or after t, since cores within a quantum make their reservations out of
    // order?  Then it waits behind that one at the same DRAM bank instead of overlapping with
    // requests to other banks.  remember() records a read once its done is known: the last reader
    // of each line, in a table of kRecent lines indexed by a hash (a line whose entry another line
    // took meanwhile counts as not in flight).
    bool same_address(cycles_t t, uint64_t line, unsigned requester) const;
    void remember(cycles_t t, cycles_t done, uint64_t line, unsigned requester);
    void retire(cycles_t t) { cal_.retire(t); }
    void start(unsigned contenders) { cal_.start(contenders); } // BandwidthCalendar::start
    void reset_counters() { read_bytes = write_bytes = same_address_requests = 0; }

    const cycles_t latency;
    const uint64_t request_overhead, same_address_overhead;
    uint64_t read_bytes = 0, write_bytes = 0;
    uint64_t same_address_requests = 0; // bypassing requests that queued behind another core's

private:
    BandwidthCalendar cal_;
    struct Recent {
        uint64_t line1 = 0; // line + 1; 0: empty
        cycles_t t = 0, done = 0;
        unsigned who = 0;
    };
    static constexpr size_t kRecent = 1u << 16;
    static size_t slot(uint64_t line) { return line * 0x9e3779b97f4a7c15ull >> 48 & (kRecent - 1); }
    Zeros<Recent> recent_; // kRecent entries; only the pages of the slots a run uses are ever touched
};

} // namespace dv
