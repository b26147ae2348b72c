// model/DmaEngine.h - timing of the data-movement pipes MTE1, MTE2, MTE3 and FIX (ref 4.3).
//
// GM transfers (MTE2 reads; MTE3 and FixPipe writes):
//   the engine spends issue_cycles, then per GM run (burst) gm.burst_overhead_bytes / core cap
//   cycles to open it and its micro-ops: the run is cut at multiples of gm.uop_bytes; a micro-op
//   of b bytes takes max(uop_cycles, b / core cap) cycles (all summed exactly, rounded up once).  The local side moves
//   bytes at its own rate.  All bytes pass the shared L2 (and HBM on a miss or a
//   write-back), whose calendars may finish later than the engine does.
//   occupy  = max(issue + max(engine, local), memory done - start)
//   latency = path latency (+ hbm.latency_cycles when a read missed in L2)
//   A read keeps at most mte2.outstanding_bursts bursts in flight, each for the read's latency:
//   occupy >= bursts x latency / outstanding_bursts (Little's law; binds for many short bursts
//   that miss L2, e.g. 128 B rows read with L2 bypassed).
//   The part of occupy beyond issue + max(engine, local) is Cost::mem_wait: the pipe held while
//   the transfer waits for its L2 / HBM bandwidth share or its requests in flight (stall
//   attribution's l2 / hbm).
//   Unaligned reads: a read burst whose start or end is not a multiple of gm.align_bytes bypasses
//   L2; every l2.line_bytes line it touches is read whole from HBM (no L2 lookup, no allocation;
//   a line that several unaligned bursts of one instruction share is read once).
//   The instruction's memory time is the later of its aligned runs through L2 and these reads.
//   The runs come from dv_xfer_shape, so every form shares this path (copy_*_align: len bytes per run).
// Local transfers: occupy = bytes / path bandwidth (+ issue for FixPipe), latency = path latency.
#pragma once
#include <systemc>
#include <vector>

#include "Connection.h"
#include "Cost.h"
#include "L2Cache.h"
#include "dv/config.h"
#include "dv/semantics.h"

namespace dv {

class DmaEngine : public sc_core::sc_module {
public:
    // Its sections of the profile: the DMA paths gm.*, mte1.*, mte2.*, mte3.* and fixpipe.*.  Every
    // engine of a core gets the same Params and reads the rows its pipe uses (a FixPipe GM write, like
    // an MTE3 one, takes mte3.uop_cycles and mte3.latency_cycles).
    struct Params {
        struct {
            uint64_t uop_bytes, burst_overhead_bytes, core_read_bytes_per_cycle, core_write_bytes_per_cycle;
            uint64_t align_bytes, line_bytes; // gm.align_bytes, l2.line_bytes
        } gm;
        struct {
            uint64_t l0a_bytes_per_cycle, l0b_bytes_per_cycle;
            cycles_t load2d_latency_cycles, load3d_latency_cycles;
        } mte1;
        struct {
            cycles_t issue_cycles, uop_cycles, latency_cycles;
            uint64_t ub_bytes_per_cycle, l1_bytes_per_cycle, outstanding_bursts;
        } mte2;
        struct {
            cycles_t issue_cycles, uop_cycles, latency_cycles;
            uint64_t local_bytes_per_cycle;
        } mte3;
        struct {
            cycles_t issue_cycles, latency_cycles;
            uint64_t l0c_bytes_per_cycle;
        } fix;
        static Params from(const dv_config_t &cfg);
    };

    // The engine of `pipe` (MTE1, MTE2, MTE3 or FIX) of core `core`, its requester id in the
    // shared calendars.
    DmaEngine(sc_core::sc_module_name name, const Params &p, dv_pipe_t pipe, unsigned core);

    // Where GM transfers go.
    Connection<L2Cache> l2;

    // Cost of `in` starting at cycle t; x is its shape, dv_xfer_shape's (the core decodes it at issue,
    // dv_xfer_footprint).  gm_addr[a] is the GM address of argument a as L2Cache::alias makes it
    // (device address and cache mode), passed on to the L2 with the instruction's runs.
    Cost cost(const dv_insn_t &in, const dv_xfer_t &x, cycles_t t, const uint64_t *gm_addr);
    // The same with in's shape decoded here.
    Cost cost(const dv_insn_t &in, cycles_t t, const uint64_t *gm_addr)
    {
        dv_xfer_t x;
        dv_xfer_shape(&in, &x);
        return cost(in, x, t, gm_addr);
    }

    uint64_t gm_read_bytes = 0, gm_write_bytes = 0;
    uint64_t unaligned_lines = 0; // lines read whole from HBM for unaligned bursts

private:
    // The GM side of a read: aligned runs through L2, unaligned ones' lines from HBM.  shape_aligned:
    // the runs' length and strides are multiples of gm.align_bytes (then an aligned base is enough).
    GmResult read(cycles_t t, const GmRuns &runs, bool shape_aligned);
    std::vector<uint64_t> aligned_; // scratch: the aligned runs' addresses
    std::vector<uint64_t> lines_;   // scratch: the lines unaligned bursts read whole from HBM
    cycles_t engine_cycles(const dv_xfer_t &x, uint64_t base, uint64_t cap);
    // Every burst of x starts at the same place modulo gm.uop_bytes (one burst, or strides that are
    // multiples of it), so each costs the engine the same.
    bool bursts_alike(const dv_xfer_t &x) const
    {
        const uint64_t U = p_.gm.uop_bytes;
        return x.bursts == 1 || (x.gm_stride % U == 0 && (x.group == 0 || x.group_stride % U == 0));
    }
    // The cost of one burst of `bytes` bytes starting at `start` modulo gm.uop_bytes at a core cap of
    // `cap` bytes per cycle, in 1/cap-cycle units, for the last transfer whose bursts start alike
    // (cap 0: none yet; a profile's cap is at least 1).
    struct BurstMemo {
        uint64_t bytes = 0, start = 0, cap = 0, cost = 0;
    } memo_;
    // What cost() works out for a GM transfer from its op and shape alone (x but gm_lo), kept for
    // the last such instruction: a stream of copies of one shape (a tile loop) compares its shape
    // and reads these instead of looking up the op and deriving them again.  op: none yet when
    // kNoOp (an op number never reaches it).
    struct Shape {
        static constexpr uint32_t kNoOp = ~0u;
        uint32_t op = kNoOp;
        dv_xfer_t x{};      // its gm_lo is not compared
        bool write = false; // GM write (MTE3, FixPipe), else GM read
        bool uniform = false; // every burst starts alike (engine_cycles' BurstMemo case)
        bool aligned = false; // length and strides multiples of gm.align_bytes (read's fast case)
        cycles_t issue = 0, local = 0; // issue cycles; local side's cycles
        uint64_t cap = 0;   // core cap, bytes per cycle
        // uniform: the engine cycles of bursts starting at `start` modulo gm.uop_bytes (~0: none yet)
        uint64_t start = ~0ull;
        cycles_t engine = 0;
    } shape_;
    // Does x have shape_'s shape (every field but gm_lo)?
    bool same_shape(const dv_xfer_t &x) const;
    // shape_ for `in` (a GM transfer; os: its op's spec) of shape x.
    void learn_shape(const dv_insn_t &in, const dv_op_spec_t &os, const dv_xfer_t &x);

    const Params p_;
    const dv_pipe_t pipe_;
    const unsigned core_; // requester id in the shared calendars
};

} // namespace dv
