// model/L2Cache.h - the shared L2: set-associative (consecutive lines in consecutive sets, each run
// of `sets` lines rotated by a hash of its number, as hardware hashes addresses across its L2 sets
// and slices), bit pseudo-LRU (each set keeps one
// "recently used" bit per way; the victim is the lowest way whose bit is clear, and when every bit
// is set they are cleared but the newest), write-allocate, write-back or (l2.write_through)
// write-through, with an aggregate bandwidth shared by all cores.  It is the GM entry point of every
// DMA engine: reads that miss fetch whole lines from HBM; a write-through write sends its bytes to
// HBM at once; a write-back one leaves the line dirty, written back when it is evicted.
#pragma once
#include <systemc>
#include <vector>

#include "BandwidthCalendar.h"
#include "Connection.h"
#include "Hbm.h"
#include "dv/config.h"

namespace dv {

// The GM side of one DMA instruction: `runs` contiguous byte runs.
struct GmRuns {
    uint64_t count = 0;
    uint64_t bytes = 0;                 // per run
    uint64_t (*offset)(const void *ctx, uint64_t i) = nullptr; // device address of run i
    const void *ctx = nullptr;
};

struct GmResult {
    cycles_t done = 0;  // last byte through L2 (and HBM for misses)
    bool miss = false;  // at least one line came from HBM
    bool hbm = false;   // done is HBM's (its bytes were through after the L2's)
};

class L2Cache : public sc_core::sc_module {
public:
    // Its section of the profile (l2.*) and sim.bandwidth_window_cycles.
    struct Params {
        uint64_t size_bytes, line_bytes, ways; // size 0: no L2, every access goes to HBM
        bool write_through;
        uint64_t bytes_per_cycle, window_cycles;
        static Params from(const dv_config_t &cfg);
    };

    L2Cache(sc_core::sc_module_name name, const Params &p);

    // Where misses, write-backs and write-through bytes go.
    Connection<Hbm> hbm;

    // Move the runs' bytes for core `requester` from cycle t (after the engine's issue).
    GmResult transfer(cycles_t t, const GmRuns &runs, bool write, unsigned requester);
    void retire(cycles_t t) { cal_.retire(t); }
    void reset_counters() { hits = misses = writebacks = 0; }
    cycles_t hbm_latency() const { return hbm->latency; }

    uint64_t hits = 0, misses = 0, writebacks = 0; // in lines

    // The set of a line (line address = byte address / line bytes): line mod sets, rotated by a
    // hash of line / sets (which run of `sets` consecutive lines it is in).
    uint64_t set_of(uint64_t line_addr) const;
    uint64_t sets() const { return sets_; } // 0: no L2

private:
    // Look up one line in its set; returns true on a hit.  Counts HBM bytes for fills and write-backs.
    bool touch(uint64_t line_addr, uint64_t set, bool write, uint64_t &fill_bytes, uint64_t &wb_bytes);

    const uint64_t line_, ways_;
    const bool write_through_;   // l2.write_through: writes reach HBM at once, lines stay clean
    const uint64_t sets_;
    std::vector<uint64_t> tag_;  // per set, ways_ consecutive: line address + 1; 0 = invalid
    std::vector<uint64_t> mru_;  // per set: recently-used bit per way
    std::vector<uint64_t> dirty_; // per set: dirty bit per way
    uint64_t all_ways_ = 0;      // mask of the ways_ low bits
    BandwidthCalendar cal_;
};

} // namespace dv
