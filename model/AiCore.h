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
// count and synchronises with the chip's time (it waits, returning from AiCore::step) only every
// sim.quantum_cycles, before taking a block, and when it must wait for another core (cross-core flags).
// The core also observes, without changing any time: it charges every idle cycle of each of its
// pipes to one stall cause (dv/stall.def) and extends the kernel's critical path (CriticalPath.h)
// with each event; docs/MODEL.md ("Stall attribution", "Critical path") gives the rules.
#pragma once
#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <string>
#include <systemc>
#include <vector>

#include "Buffer.h"
#include "CoreServices.h"
#include "CubeUnit.h"
#include "DmaEngine.h"
#include "HazardChecker.h"
#include "Zeros.h"
#include "dv/intmath.h"
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
            bool split, gm_to_l0, dma_pad, l0c_to_ub, load_transpose; // split: chip.layout is split (cross-core flags)
            uint64_t freq_mhz, sys_counter_mhz;       // get_sys_cnt
        } chip;
        struct {
            cycles_t issue_cycles;
            cycles_t load_cycles, store_cycles; // ld_ub, st_ub
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
    // constructor: `chip`, everything the core may ask of the chip (model/CoreServices.h), `l2`,
    // where its DMA engines take GM traffic, and `path`, the chip's critical path (the nodes of
    // every core, linked across cores by cross-core flags), which the core extends.
    AiCore(sc_core::sc_module_name name, const Params &p, CoreServices &chip, unsigned index, L2Cache &l2,
           CriticalPath &path);

    // Prepare for a kernel (counters, buffers).
    void begin_kernel(cycles_t origin, bool data, bool hazards, bool series);
    // The core's work in the kernel, run by the chip's scheduler (Chip::run_cores) in steps: each
    // step runs from time `now` until the core must wait - for time `until` (Wait::Time), for a
    // cross-core flag (Wait::Cross: the chip resumes it after a delivery) - or has no work left
    // (Wait::Done: finished(), or the kernel failed).  abandon: the kernel failed while the core
    // waited; it closes what it holds and is done.
    enum class Wait { Time, Cross, Done };
    Wait step(cycles_t now, cycles_t &until);
    void abandon();
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

    // The chip delivers cross-core flag `id`, arriving at cycle `when` (CoreServices::cross_set),
    // whose critical-path node is `node` (the core takes a reference); a core waiting for a flag
    // sees it when the chip resumes it (Chip::run_cores, after the current round of steps).  Returns how many arrivals of that flag the core now holds (not yet
    // consumed by a wait).
    size_t deliver_cross_flag(unsigned id, cycles_t when, CriticalPath::Ref node);

    // What the core counted in the current kernel (complete after end_kernel).
    const dv_core_counters_t &counters() const { return counters_; }
    // The critical-path node of the end of the core's last block (none before it ran one).
    CriticalPath::Ref path_end() const { return end_node_; }
    // Per opcode and the pipe that ran it: instructions issued, and the cycles they kept their unit
    // (dv_counters_t.op_pipe_count / op_pipe_cycles) in the current kernel.
    struct OpStats {
        uint64_t count[DV_OP_COUNT][DV_PIPE_COUNT];
        uint64_t cycles[DV_OP_COUNT][DV_PIPE_COUNT];
    };
    const OpStats &op_stats() const { return ops_; }

private:
    using Ref = CriticalPath::Ref;
    // An entry is written at issue and read again when it reaches its queue's head, mostly after the
    // other cores' steps have evicted it from the host's caches: what a head is read for first (enq,
    // the V pipe's cost, the flag) shares the entry's first host line with the instruction's opcode
    // (the bench's vector trace: 10% fewer host cache misses than with the instruction first and enq
    // 300 bytes in), and an entry starts a host line (3% fewer again than at 528-byte steps).
    struct alignas(64) Entry {
        cycles_t enq;
        // V pipe: VectorUnit::cost, worked out at issue with the footprint from one decode (it
        // depends only on insn and vs, both fixed at issue)
        cycles_t v_occupy, v_latency, v_conflict;
        uint64_t index; // position in the block stream
        int nr;
        uint16_t fi; // set_flag / wait_flag: its flag (flags_[fi]), listed when it was issued (issue_flag)
        Ref node;       // critical path: the scalar unit's node when it issued it (enq: scalar_ref)
        dv_insn_t insn;
        dv_range_t r[DV_MAX_RANGES];
        VClock vc;      // scalar clock at issue
        // A DMA engine's pipe (MTE1/2/3, FIX): the transfer's shape, decoded at issue with the
        // footprint (it depends only on insn) for DmaEngine::cost at start
        dv_xfer_t x;
        dv_vstate_t vs; // vector state at issue (off the V pipe, kept only in a run with data: dv_exec's)
    };
    static_assert(std::is_trivially_default_constructible<Entry>::value, "the pool leaves entries uninitialised");
    static_assert(offsetof(Entry, insn) + sizeof(dv_insn_t::op) <= 64, "enq and the opcode share the first host line");
    struct Queue {
        // The ring holds the places in the core's pool (pool_) of the queued entries, from head; an
        // entry in no queue and not pend_ is on the core's spare stack (spare_).  The ring has a
        // power of two of slots (at least depth), so that a place in it is a mask away.
        std::unique_ptr<Entry *[]> ring;
        size_t depth = 0, mask = 0, head = 0, count = 0;
        size_t reset(size_t d) // the ring's slots
        {
            size_t slots = 1;
            while (slots < d)
                slots *= 2;
            ring.reset(new Entry *[slots]), depth = d, mask = slots - 1, head = count = 0;
            return slots;
        }
        Entry &front() { return *ring[head]; }
        const Entry &front() const { return *ring[head]; }
        void push(Entry *e) { ring[(head + count++) & mask] = e; } // e (filled) joins the queue
        Entry *pop() // the head leaves: its entry
        {
            Entry *const e = ring[head];
            head = (head + 1) & mask, count--;
            return e;
        }
        bool full() const { return count == depth; }
        bool empty() const { return count == 0; }
    };
    struct Flag {
        bool set = false;
        bool listed = false;  // in touched_
        int issued = 0;       // set_flags issued minus wait_flags issued (program order): at most 1
        cycles_t cleared = 0; // when the last wait_flag cleared it: a set that waited for that starts then
        cycles_t time = 0;
        VClock vc{};
        Ref node = 0; // critical path: the set_flag (at time)
    };
    struct Arrival { // a cross-core flag delivered to this core
        cycles_t time;
        Ref node;
    };
    enum class Block { None, Flag, Cross, Queue, Drain };

    // Where step is in the core's loop over blocks: before taking a block (Start; Take once the
    // wait for the block's start time is over), in one (Block), or past the last (Done).
    enum class Phase { Start, Take, Block, Done };
    Phase phase_ = Phase::Done;
    // How run_block resumes after a yield (kYield, with resume_ set): from a wait for time (it syncs
    // there) or for a cross-core flag.
    enum class Resume { None, Time, Cross };
    Resume resume_ = Resume::None;
    static constexpr int kYield = 1; // (errors are negative)
    cycles_t now_ = 0;                // the chip's time at the current step
    cycles_t sc_now_ = 0, sync_after_ = 0; // begin_block's start of run_block's quantum
    dv_stream_t *open_ = nullptr;     // the block's stream, closed when the block ends
    dv_error_t err_{};                // the kernel's first error on this core
    Wait block_failed();
    int begin_block(dv_stream_t *s, uint32_t block, uint32_t sub); // DV_ERR_STATE: the kernel failed
    int run_block(cycles_t &until, dv_error_t *err); // DV_OK: the block ended; kYield: wait (until)
    __attribute__((noinline)) int stuck(dv_stream_t *s, uint32_t block, bool cross_blocked, cycles_t &sc_now,
                                        cycles_t &until, dv_error_t *err);
    // When pipe p's head can start (kNever while it is blocked), and bit p of flagm_ set when the
    // head is a set_flag or wait_flag (start_flag's).
    cycles_t head_time(int p);
    // Readiness of the scalar unit's next action: false when blocked.
    bool scalar_ready(cycles_t &t, Block &why);
    // t: when scalar_ready says the scalar unit can issue.  Inline in run_block's loop, as start_flag
    // (GCC otherwise takes one of the two out of it, and that costs more than it saves).
    __attribute__((always_inline)) int issue(cycles_t t, dv_error_t *err);
    // issue's rarer ways, kept out of line so that issuing into a pipe's queue stays short.
    __attribute__((noinline)) void issue_stalled(cycles_t t);
    __attribute__((noinline)) int issue_scalar(cycles_t stall, dv_error_t *err);
    int start_head(int p, cycles_t t, dv_error_t *err); // every head but a flag's (start_flag)
    int check_access(const Entry &e, int p, dv_error_t *err); // p: route(e.insn)
    bool plain_access(const Entry &e, int p) const;           // check_access's common pass
    bool plain_[DV_OP_COUNT];                                 // (the ops it takes)
    bool plain_s_[DV_OP_COUNT]; // the scalar unit's ops that check_access passes whatever their fields
    // Per space number a range or an address may hold (any 8 bits): one more than the last byte of
    // the core's buffer (a range's end must be below it; 0: the core has no such buffer, or GM,
    // tested on its own), and the offset bits the buffer's alignment wants 0 (plain_access's tests).
    uint64_t lim_[256] = {}, amask_[256] = {};
    static bool scalar_access(unsigned op) // the scalar unit's own loads and stores
    {
        return op == DV_OP_ld_ub || op == DV_OP_st_ub || op == DV_OP_ld_gm || op == DV_OP_st_gm;
    }
    // The flags' own way through issue and start (set_flag / wait_flag queued in pipe p, about half
    // of most kernels' instructions): the same checks, times and charges as the other heads', and the
    // flag found once at issue (Entry::fi).  finish_head: what every other start ends with (the flags
    // have their own, flag_end, which makes the start's path node only when something asks for it).
    // start_flag takes a flag head to the set's way or the wait's (start_set, start_wait), each with
    // only its own case, which share flag_begin and flag_end; unstall: the scalar unit stalled on the
    // queue the flag leaves; set_twice: the error, out of line.
    static bool flag_op(unsigned op) { return op == DV_OP_set_flag || op == DV_OP_wait_flag; }
    int issue_flag(Entry &e, int p, dv_error_t *err);
    __attribute__((always_inline)) int start_flag(int p, cycles_t t, dv_error_t *err);
    int start_set(int p, cycles_t t, Entry &e, dv_error_t *err);
    void start_wait(int p, cycles_t t, Entry &e);
    void flag_begin(int p, cycles_t t, const Entry &e, int src);
    Ref flag_linked(int p, cycles_t t, const Entry &e, uint32_t key);
    void flag_end(int p, cycles_t t, Entry &e, Ref node);
    void unstall(int p, cycles_t t, Ref node);
    __attribute__((noinline, cold)) int set_twice(int p, const Entry &e, dv_error_t *err);
    void finish_head(int p, cycles_t t, Ref node, uint32_t key);
    int locate(dv_error_t *err, int code, const dv_insn_t &in, uint64_t index, const char *fmt, ...)
        __attribute__((format(printf, 6, 7)));
    // Pipe p works from `from` to `to`: its busy cycles (the union of such intervals, which start in
    // order) and its attribution cursor (the caller charged the cycles before `from` first).
    void add_busy(int p, cycles_t from, cycles_t to)
    {
        if (to <= from)
            return;
        const cycles_t s = std::max(from, busy_end_[p]);
        if (to > s)
            counters_.pipe_busy[p] += to - s;
        busy_end_[p] = std::max(busy_end_[p], to);
        cur_[p] = std::max(cur_[p], to);
    }
    // Stall attribution (docs/MODEL.md).  charge: pipe p's cycles from its cursor to `to` go to
    // cause c.  advance_scalar: the scalar unit's time moves from ts_ to `to`, busy (DV_STALL_SCALAR)
    // or stalled for cause c; pipes waiting for it to issue their next instruction are charged the
    // same cause provisionally.  commit: pipe p got an instruction, its provisional charges stand.
    // close_block: the block ends at `end`; provisional charges become done.
    void charge(int p, cycles_t to, dv_stall_t c)
    {
        if (to > cur_[p]) {
            counters_.stall[p][c] += to - cur_[p];
            cur_[p] = to;
        }
    }
    void charge_wait(int p, cycles_t to, dv_stall_t c) // charge, and log it (waits_)
    {
        if (to <= cur_[p])
            return;
        waits_[p][nwaits_[p]++ % kWaitLog] = WaitCharge{c, to - cur_[p]};
        charge(p, to, c);
    }
    // The scalar unit's own cursor and busy end stand at ts_ (it moves them only here, and a
    // block starts with both at ts_ or busy_end_ before it), so its charge or busy stretch is
    // ts_ .. to.
    void advance_scalar(cycles_t to, dv_stall_t c)
    {
        if (to <= ts_)
            return;
        if (c == DV_STALL_SCALAR) {
            counters_.pipe_busy[DV_PIPE_S] += to - ts_;
            busy_end_[DV_PIPE_S] = to;
        } else {
            counters_.stall[DV_PIPE_S][c] += to - ts_;
        }
        cur_[DV_PIPE_S] = to;
        if (starving_) { // the shared pipes' part inline: starving_charge for the rest
            if ((acc_mask_ >> c & 1) && !solo_)
                acc_[c] += to - ts_;
            else
                starving_charge(to, c);
        }
        seg_c_ = c;
        ts_ = to;
    }
    void starving_charge(cycles_t to, dv_stall_t c);
    void commit(int p);
    void leave_shared(int p, dv_stall_t to);
    void close_block(cycles_t end);
    void starve(int p); // pipe p's queue became empty
    dv_stall_t flag_cause(int src) const { return static_cast<dv_stall_t>(DV_STALL_FLAG_S + src); }
    dv_stall_t queue_cause(int p) const { return static_cast<dv_stall_t>(DV_STALL_QUEUE_V + p - DV_PIPE_V); }
    // Critical path: a node at cycle t reached from `base` (base itself when it is at t), owned by
    // the caller; the key of an edge charged to opcode op on pipe p of this core.
    Ref path_at(Ref base, cycles_t t, uint32_t key)
    {
        if (path_.time(base) == t) {
            path_.retain(base);
            return base;
        }
        return path_.extend(base, t, key);
    }
    // The same from a node whose reference the caller hands over.
    Ref path_from(Ref owned, cycles_t t, uint32_t key)
    {
        return path_.time(owned) == t ? owned : path_.extend_from(owned, t, key);
    }
    uint32_t path_key(unsigned op, int p) const { return index_ << 16 | op << 3 | static_cast<uint32_t>(p); }
    Ref free_ref(int p) { return path_at(start_node_[p], free_[p], start_key_[p]); }
    Ref scalar_ref(cycles_t t) { return path_at(s_node_, t, path_key(DV_CRIT_ISSUE, DV_PIPE_S)); }
    Ref done_ref(int p)
    {
        const Ref r = done_node(p);
        path_.retain(r);
        return r;
    }
    // The nodes free_ref and done_ref stand for, made once and kept in place of their base (start_node_,
    // done_node_), so that asking again makes no copy of them; the reference stays there.
    Ref free_node(int p) { return made(start_node_[p], free_[p], start_key_[p]); }
    Ref done_node(int p) { return made(done_node_[p], done_[p], done_key_[p]); }
    Ref made(Ref &base, cycles_t t, uint32_t key)
    {
        if (path_.time(base) != t)
            path_.move(base, path_.extend(base, t, key));
        return base;
    }
    // A flag; the ones used since the last block start are listed (touched_), so that the resets
    // visit only them.
    static unsigned flag_index(int src, int dst, int id)
    {
        return (unsigned)((src * DV_PIPE_COUNT + dst) * DV_FLAG_IDS + id);
    }
    Flag &flag(int src, int dst, int id) { return flag_at(flag_index(src, dst, id)); }
    Flag &flag_at(unsigned i)
    {
        Flag &f = flags_[i];
        if (!f.listed) {
            f.listed = true;
            touched_.push_back(static_cast<uint16_t>(i));
        }
        return f;
    }
    // A wait_cross_flag (of the scalar unit or a pipe) consumes the oldest arrival of flag id.
    void take_cross(size_t id)
    {
        auto &c = cross_[id];
        path_.release(c.front().node);
        c.erase(c.begin());
        invalidate_all(); // other heads may wait on the same flag
    }
    std::string describe_wait(int p, const Entry &e);
    std::string describe_pending(); // the scalar unit's next instruction, as describe_wait words it
    // The timeline's slices (CoreServices::slice), asked for only when the run wants them.
    bool slicing_ = false;
    void slice(int p, const dv_insn_t &in, cycles_t s, cycles_t e)
    {
        if (slicing_)
            chip_.slice(index_, static_cast<dv_pipe_t>(p), in, s, e);
    }

    const Params p_;
    CoreServices &chip_;
    CriticalPath &path_;
    const unsigned index_;
    const dv_core_type_t type_;
    const unsigned pipes_;

    VectorUnit vec_;
    CubeUnit cube_;
    std::unique_ptr<DmaEngine> dma_[DV_PIPE_COUNT];
    std::unique_ptr<Buffer> buf_[DV_SPACE_COUNT]; // the core's local buffers (null: absent)

    // Per-kernel state.
    cycles_t origin_ = 0, t_ = 0;
    void report_hazard(const dv_hazard_t &h);
    bool data_ = false, check_hazards_ = false, finished_ = false;
    dv_mem_t view_{}; // the buffers and GM arguments as dv_exec sees them
    std::string blocked_;
    const char *blocked_source_ = "";
    uint32_t blocked_line_ = 0;

    // Per-block state.
    Queue q_[DV_PIPE_COUNT];
    unsigned queued_ = 0; // bit p: q_[p] is not empty
    // Cached readiness of each pipe head, recomputed only after something it depends on changed
    // (bit p of stale_; a pipe whose queue is empty is marked again when it gets an instruction):
    // when it can start, kNever while it is blocked or its queue is empty.  Masks and a plain array:
    // run_block's choice is a min over a few words.
    cycles_t cand_t_[DV_PIPE_COUNT] = {};
    unsigned stale_ = ~0u;
    unsigned flagm_ = 0; // bit p: q_[p]'s head, as its candidate was worked out, is a set_flag / wait_flag
    // The earliest ready head among them (run_block's choice: the pipe, or -2 when none is ready, and
    // its time), kept while no head's readiness changed (stale_ is 0).
    int pick_who_ = -2;
    cycles_t pick_t_ = kNever;
    // The choice's loop over the pipes in Pipes (their bits; pipe order): the earliest candidate
    // below bt, ties to the lower pipe.  The S queue stays empty (the scalar unit runs its own
    // work), so the pipes with queues of an AIV and of an AIC are the usual sets.
    static constexpr unsigned kAivPipes = 1u << DV_PIPE_V | 1u << DV_PIPE_MTE2 | 1u << DV_PIPE_MTE3;
    static constexpr unsigned kAicPipes =
        1u << DV_PIPE_M | 1u << DV_PIPE_MTE1 | 1u << DV_PIPE_MTE2 | 1u << DV_PIPE_MTE3 | 1u << DV_PIPE_FIX;
    static constexpr unsigned kAnyPipes = (1u << DV_PIPE_COUNT) - 1;
    unsigned queue_pipes_ = kAnyPipes; // pipes_ but S
    template <unsigned Pipes>
    void earliest(cycles_t &bt, int &bw) const
    {
#pragma GCC unroll 8
        for (int p = 0; p < DV_PIPE_COUNT; p++)
            if ((Pipes >> p & 1) && cand_t_[p] < bt)
                bt = cand_t_[p], bw = p;
    }
    void invalidate(int p) { stale_ |= 1u << p; }
    void invalidate_all() { stale_ = ~0u; }
    // Whether a queued head waits for a cross-core flag none has delivered (the cores' deadlock or
    // wait: stuck).
    bool cross_blocked_heads() const;
    cycles_t free_[DV_PIPE_COUNT] = {}, done_[DV_PIPE_COUNT] = {}, busy_end_[DV_PIPE_COUNT] = {};
    cycles_t ts_ = 0;
    // The accumulator: the L0C bytes [acc_lo_, acc_hi_) the M pipe's last instruction wrote, complete
    // at acc_done_.  An mmad that accumulates onto them (reads them) starts after that completion.
    uint64_t acc_lo_ = 0, acc_hi_ = 0;
    cycles_t acc_done_ = 0;
    cycles_t acc_wait(const Entry &e) const;
    // L0C unit flags (mmad / FixPipe unit_flag 2 or 3; docs/MODEL.md "Unit flags"): the instructions of
    // unit_flag 3, in program order, that hand L0C over: an mmad (makes its tile readable, fractal by
    // fractal: the first at `first`, the last at `last`) or a FixPipe (frees it as it reads: `first`
    // after its start, all by `last`).  A FixPipe of unit_flag 2/3 follows the latest such mmad before
    // it, an mmad of unit_flag 2/3 the latest such FixPipe, where their L0C bytes overlap.
    struct Unit {
        uint64_t index, lo, hi;
        bool started;
        cycles_t first, last;
        VClock vc; // the hazard checker's clock of the releasing pipe after it ran
    };
    std::vector<Unit> unit_[2]; // [0]: mmads (M), [1]: FixPipes (FIX)
    static constexpr size_t kUnitKeep = 64; // more than any queue holds (queue.<pipe>_depth)
    // The cube cycles of one output fractal (16 x 16 of C) of an mmad of cost c: its cube cycles
    // over ceil(m / cube.m) x ceil(n / cube.n) fractals.
    static cycles_t unit_step(const dv_insn_t &in, const Cost &c)
    {
        const uint64_t f = dv_ceil_div(static_cast<uint64_t>(in.f[DV_FLD(MMAD, m)].u), 16) *
                           dv_ceil_div(static_cast<uint64_t>(in.f[DV_FLD(MMAD, n)].u), 16);
        return dv_ceil_div(c.occupy, f ? f : 1);
    }
    static int unit_flag(const dv_insn_t &in);
    static bool l0c_range(const Entry &e, bool write, uint64_t &lo, uint64_t &hi);
    const Unit *unit_before(int side, const Entry &e) const;
    static constexpr unsigned kFlags = DV_PIPE_COUNT * DV_PIPE_COUNT * DV_FLAG_IDS;
    Zeros<Flag> flags_;                       // all-zero bytes are a flag's initial state
    std::vector<uint16_t> touched_;
    dv_vstate_t vs_{};
    uint64_t rsvd_cnt_ = 0; // RSVD_CNT: the count of the last vreducev2 (get_rsvd_cnt)
    HazardChecker hz_;
    dv_stream_t *stream_ = nullptr;
    uint32_t block_ = 0, sub_ = 0;
    // The entries of the queued instructions, of the pending one (pend_) and the spare ones.  Entries
    // are written before they are read: left uninitialised (pages a run never reaches cost nothing).
    std::unique_ptr<Entry[]> pool_;
    // The spare entries (in no queue, not pend_), the last one freed on top: an instruction is read
    // from the stream straight into pend_, which joins its queue as it is (no copy), and pend_ then
    // takes the top.  Last in, first out, because an entry is over 500 bytes: a core that reuses the
    // few it freed lately finds them in the host's caches, where cycling through its whole pool (some
    // 200 entries, 24 to 48 cores run in turn) found them out of the caches.
    std::unique_ptr<Entry *[]> spare_;
    Entry **spare_top_ = nullptr; // one past the top
    void free_entry(Entry *e) { *spare_top_++ = e; }
    Entry *pend_ = nullptr; // its insn: the instruction the scalar unit issues next (have_pending_)
    bool have_pending_ = false, stream_end_ = false;
    uint64_t next_index_ = 0, pending_index_ = 0;
    int pending_pipe_ = DV_PIPE_S; // route(pend_->insn): the queue it goes to
    // That queue when it is one the core has, else one never full (scalar_ready's test): room_[p].
    const Queue *pending_q_ = &no_queue_;
    Queue no_queue_;
    const Queue *room_[DV_PIPE_COUNT] = {};

    // Cross-core flags delivered to this core: arrivals per flag id.
    std::vector<std::vector<Arrival>> cross_;

    // Stall attribution: pipe p's timeline is charged (busy or to a cause) up to cur_[p].  Pipes
    // whose queue is empty (bit p of starving_) wait for the scalar unit: what it does meanwhile
    // is charged to them provisionally (prov_, causes in prov_mask_), final once they get an
    // instruction, done when the block ends first.  seg_c_: the state of the scalar unit's last
    // stretch of time (up to ts_).
    cycles_t cur_[DV_PIPE_COUNT] = {};
    unsigned starving_ = 0;
    uint64_t prov_[DV_PIPE_COUNT][DV_STALL_COUNT] = {};
    uint32_t prov_mask_[DV_PIPE_COUNT] = {};
    // Most starving pipes' cursors stand at ts_ (they waited since the scalar unit's time passed
    // theirs): each advance would charge every one of them the same cycles.  Those share acc_, the
    // scalar unit's cycles per cause since the block started (causes in acc_mask_), and own
    // snap_[p], acc_ when they joined (for the causes then in acc_mask_; a cause new to acc_mask_
    // gets 0 for every pipe): their charges are acc_ - snap_[p], their cursor ts_ (cur_[p] is
    // written when they leave).  The others (solo_, a subset of starving_) are charged one by one
    // (prov_) until the scalar unit's time passes theirs, when they join.
    unsigned solo_ = 0;
    uint64_t acc_[DV_STALL_COUNT] = {};
    uint32_t acc_mask_ = 0;
    uint64_t snap_[DV_PIPE_COUNT][DV_STALL_COUNT] = {};
    void join_shared(int p) // starving pipe p's cursor is ts_: it shares acc_ from now on
    {
        for (uint32_t m = acc_mask_; m; m &= m - 1) {
            const int c = __builtin_ctz(m);
            snap_[p][c] = acc_[c];
        }
    }
    dv_stall_t seg_c_ = DV_STALL_BLOCK_START;
    // A block ends at max(ts_, done_): a wait (wait_flag, wait_cross_flag) a pipe starts after its
    // last busy instruction may start later than that.  The charges made for such waits since the
    // pipe's last busy start (the newest kWaitLog) let close_block take back what lies past the end.
    static constexpr unsigned kWaitLog = 8;
    struct WaitCharge {
        dv_stall_t cause;
        cycles_t cycles;
    } waits_[DV_PIPE_COUNT][kWaitLog] = {};
    unsigned nwaits_[DV_PIPE_COUNT] = {};

    // Critical path frontier: the scalar unit (its last node; from there to ts_ it issued
    // instructions, charged to DV_CRIT_ISSUE), each pipe's last start (free_[p] is start_key_'s
    // occupancy after it) and the start of the instruction completing at done_[p], and the end of
    // the core's last block.
    Ref s_node_ = 0, end_node_ = 0;
    Ref start_node_[DV_PIPE_COUNT] = {}, done_node_[DV_PIPE_COUNT] = {};
    uint32_t start_key_[DV_PIPE_COUNT] = {}, done_key_[DV_PIPE_COUNT] = {};

    dv_core_counters_t counters_{};
    // Zeroed by begin_kernel, which every kernel the core runs starts with (its chip reads them only
    // after that): not here too (21 KB per core).
    OpStats ops_;
};

} // namespace dv
