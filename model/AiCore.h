// model/AiCore.h - one AI core (coupled) or one AIC / AIV (split layout).
//
// The scalar unit reads the block's instruction stream in program order.  Scalar work runs on it;
// everything else is issued (scalar.issue_cycles) into the in-order queue of its pipe, stalling
// while that queue is full.  Each pipe starts its head instruction when the pipe is free:
//   normal instruction: start = max(enqueue, pipe free); the executor's Cost gives how long the
//                       pipe stays busy (occupy) and when the results are visible (latency)
//   set_flag SRC->DST : fires on SRC once every earlier SRC instruction has completed
//   wait_flag SRC->DST: holds DST until the flag is set (+ sync.flag_latency_cycles), clears it
//   pipe_barrier P    : later P work starts after every earlier P instruction completed;
//                       pipe_barrier ALL stops the scalar unit until every pipe has drained
// Time advances per event (issue, start), never per clock tick: the core keeps its own cycle
// count and synchronises with SystemC time only every sim.quantum_cycles, before taking a block,
// and when it must wait for another core (cross-core flags).
#pragma once
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "Buffer.h"
#include "CoreServices.h"
#include "CubeUnit.h"
#include "DmaEngine.h"
#include "HazardChecker.h"
#include "VectorUnit.h"
#include "dv/kernel.h"
#include "dv/model.h"
#include "dv/semantics.h"

namespace dv {

class AiCore : public sc_core::sc_module {
public:
    // What a core of one type reads from the profile: the keys of the sections it runs on its own
    // (its row of the core topology, chip.* overheads and data paths, scalar.*, queue.*, sync.*,
    // sim.quantum_cycles) and its units' Params.
    struct Params {
        struct {
            dv_core_type_t type;     // the core type, its row of configs/topology.def:
            unsigned pipes, buffers; // bit p: pipe p; bit s: local buffer s
            uint64_t buffer_bytes[DV_SPACE_COUNT], buffer_align[DV_SPACE_COUNT]; // core.<buffer>_*
        } topo;
        struct {
            cycles_t kernel_start_cycles, block_start_cycles;
            bool split, gm_to_l0, dma_pad, l0c_to_ub; // split: chip.layout is split (cross-core flags)
        } chip;
        struct {
            cycles_t issue_cycles;
        } scalar;
        uint64_t queue_depth[DV_PIPE_COUNT]; // queue.<pipe>_depth (S: 1, the scalar unit's own)
        struct {
            uint64_t event_ids, cross_flag_ids;
            cycles_t flag_latency_cycles, cross_latency_cycles;
        } sync;
        struct {
            cycles_t quantum_cycles;
        } sim;
        VectorUnit::Params vec;
        CubeUnit::Params cube;
        DmaEngine::Params dma;
        static Params from(const dv_config_t &cfg, dv_core_type_t type);
    };

    // Core `index` (its requester id in the shared calendars).  Its neighbours, bound in the
    // constructor: `chip`, everything the core may ask of the chip (model/CoreServices.h), and
    // `l2`, where its DMA engines take GM traffic.
    AiCore(sc_core::sc_module_name name, const Params &p, CoreServices &chip, unsigned index, L2Cache &l2);

    // Prepare for a kernel (counters, buffers) and the body of its SystemC thread.
    void begin_kernel(cycles_t origin, bool data, bool hazards);
    void thread();
    // The kernel ended `total` cycles after its launch (the run's cycles): close the counters.
    void end_kernel(cycles_t total);

    bool has_pipe(dv_pipe_t p) const { return pipes_ >> p & 1; }
    bool has_space(dv_space_t s) const { return s == DV_SPACE_GM || buf_[s] != nullptr; }
    unsigned index() const { return index_; }
    dv_core_type_t type() const { return type_; }
    bool finished() const { return finished_; }
    const std::string &blocked_reason() const { return blocked_; }
    // Where the core waits for another core: trace file and line of the waiting instruction.
    const char *blocked_source() const { return blocked_source_; }
    uint32_t blocked_line() const { return blocked_line_; }

    // The chip delivers cross-core flag `id`, arriving at cycle `when` (CoreServices::cross_set);
    // the core's waits see it from the next delta cycle.  Returns how many arrivals of that flag
    // the core now holds (not yet consumed by a wait).
    size_t deliver_cross_flag(unsigned id, cycles_t when);

    // What the core counted in the current kernel (complete after end_kernel).
    const dv_core_counters_t &counters() const { return counters_; }

private:
    struct Entry {
        dv_insn_t insn;
        dv_vstate_t vs;
        VClock vc;      // scalar clock at issue
        cycles_t enq;
        uint64_t index; // position in the block stream
        int nr;
        dv_range_t r[DV_MAX_RANGES];
    };
    struct Queue {
        std::vector<Entry> ring;
        size_t head = 0, count = 0;
        Entry &front() { return ring[head]; }
        Entry &push_slot() { return ring[(head + count++) % ring.size()]; }
        void pop() { head = (head + 1) % ring.size(); count--; }
        bool full() const { return count == ring.size(); }
        bool empty() const { return count == 0; }
    };
    struct Flag {
        bool set = false;
        cycles_t time = 0;
        VClock vc{};
    };
    enum class Block { None, Flag, Cross, Queue, Drain };

    int run_block(dv_stream_t *s, uint32_t block, uint32_t sub, dv_error_t *err);
    // Readiness of a pipe head / of the scalar unit's next action: false when blocked.
    bool head_ready(int p, cycles_t &t, Block &why);
    bool scalar_ready(cycles_t &t, Block &why);
    int issue(dv_error_t *err);
    int start_head(int p, cycles_t t, dv_error_t *err);
    int check_access(const Entry &e, dv_error_t *err);
    int locate(dv_error_t *err, int code, const dv_insn_t &in, uint64_t index, const char *fmt, ...)
        __attribute__((format(printf, 6, 7)));
    void add_busy(int p, cycles_t from, cycles_t to);
    Flag &flag(int src, int dst, int id) { return flags_[(src * DV_PIPE_COUNT + dst) * DV_FLAG_IDS + id]; }
    std::string describe_wait(int p, const Entry &e);
    std::string describe_pending(); // the scalar unit's next instruction, as describe_wait words it
    void sync_to(cycles_t t);

    const Params p_;
    CoreServices &chip_;
    const unsigned index_;
    const dv_core_type_t type_;
    const unsigned pipes_;

    VectorUnit vec_;
    CubeUnit cube_;
    std::unique_ptr<DmaEngine> dma_[DV_PIPE_COUNT];
    std::unique_ptr<Buffer> buf_[DV_SPACE_COUNT]; // the core's local buffers (null: absent)

    // Per-kernel state.
    cycles_t origin_ = 0, t_ = 0;
    bool data_ = false, check_hazards_ = false, finished_ = false;
    dv_mem_t view_{}; // the buffers and GM arguments as dv_exec sees them
    std::string blocked_;
    const char *blocked_source_ = "";
    uint32_t blocked_line_ = 0;

    // Per-block state.
    Queue q_[DV_PIPE_COUNT];
    // Cached readiness of each pipe head; recomputed only after something it depends on changed.
    struct Cand {
        bool valid = false, ready = false;
        Block why = Block::None;
        cycles_t t = 0;
    } cand_[DV_PIPE_COUNT];
    void invalidate(int p) { cand_[p].valid = false; }
    void invalidate_all()
    {
        for (auto &c : cand_)
            c.valid = false;
    }
    cycles_t free_[DV_PIPE_COUNT] = {}, done_[DV_PIPE_COUNT] = {}, busy_end_[DV_PIPE_COUNT] = {};
    cycles_t ts_ = 0;
    std::vector<Flag> flags_;
    dv_vstate_t vs_{};
    HazardChecker hz_;
    dv_stream_t *stream_ = nullptr;
    uint32_t block_ = 0, sub_ = 0;
    dv_insn_t pending_{};
    bool have_pending_ = false, stream_end_ = false;
    uint64_t next_index_ = 0, pending_index_ = 0;

    // Cross-core flags delivered to this core: arrival times per flag id.
    std::vector<std::vector<cycles_t>> cross_;
    sc_core::sc_event cross_event_;

    dv_core_counters_t counters_{};
};

} // namespace dv
