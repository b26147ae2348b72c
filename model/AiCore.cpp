// model/AiCore.cpp
#include "AiCore.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <iterator>


namespace dv {

namespace {
const dv_pipe_t kAll[] = {DV_PIPE_S, DV_PIPE_V, DV_PIPE_M, DV_PIPE_MTE1, DV_PIPE_MTE2, DV_PIPE_MTE3, DV_PIPE_FIX};
// flag_cause and queue_cause count on these rows of dv/stall.def being in pipe order.
static_assert(DV_STALL_FLAG_FIX - DV_STALL_FLAG_S == DV_PIPE_FIX - DV_PIPE_S, "dv/stall.def: flag:S .. flag:FIX");
static_assert(DV_STALL_QUEUE_FIX - DV_STALL_QUEUE_V == DV_PIPE_FIX - DV_PIPE_V, "dv/stall.def: queue:V .. queue:FIX");
} // namespace

// Which pipe queue an instruction goes to (S for work done by the scalar unit itself): its ISA
// row's pipe, but for the five ops whose pipe is one of their fields (route_field).
static int route_field(const dv_insn_t &in)
{
    switch (in.op) {
    case DV_OP_set_flag: return static_cast<int>(in.f[DV_FLD(FLAG, src)].i);
    case DV_OP_wait_flag: return static_cast<int>(in.f[DV_FLD(FLAG, dst)].i);
    case DV_OP_pipe_barrier: {
        int p = static_cast<int>(in.f[DV_FLD(BARRIER, pipe)].i);
        return p == DV_PIPE_ALL ? DV_PIPE_S : p;
    }
    case DV_OP_set_cross_flag: return static_cast<int>(in.f[DV_FLD(XSET, pipe)].i);
    case DV_OP_wait_cross_flag: return static_cast<int>(in.f[DV_FLD(XWAIT, pipe)].i);
    default: return dv_op_spec(static_cast<dv_op_t>(in.op))->pipe;
    }
}

namespace {
// Per op, what the event loop reads of its ISA row, once: the pipe of route() (kByField: one of
// its fields names it), and the address fields a vector instruction's alignment check reads
// (check_access; a VREDUCE dst, aligned to its element, leaves the table to check_access).
// Filled by the first core built (the ISA's form table is complete only once main runs).
constexpr int8_t kByField = -1;
constexpr int kMaxAddr = 8;
struct OpTable {
    bool ready;
    int8_t pipe[DV_OP_COUNT];
    uint8_t naddr[DV_OP_COUNT];          // kMaxAddr + 1: not in the table
    uint8_t addr[DV_OP_COUNT][kMaxAddr]; // the address fields' indices
    void fill()
    {
        ready = true;
        for (int op = 0; op < DV_OP_COUNT; op++) {
            const dv_op_spec_t *os = dv_op_spec(static_cast<dv_op_t>(op));
            const dv_form_spec_t *fs = dv_form_spec(os->form);
            pipe[op] = static_cast<int8_t>(os->pipe);
            naddr[op] = fs->naddr <= kMaxAddr && os->form != DV_FORM_VREDUCE ? static_cast<uint8_t>(fs->naddr) : kMaxAddr + 1;
            for (int i = 0, k = 0; k < fs->naddr && k < kMaxAddr; i++)
                if (fs->fields[i].kind == DV_FK_ADDR)
                    addr[op][k++] = static_cast<uint8_t>(i);
        }
        for (int op : {DV_OP_set_flag, DV_OP_wait_flag, DV_OP_pipe_barrier, DV_OP_set_cross_flag, DV_OP_wait_cross_flag})
            pipe[op] = kByField;
    }
};
OpTable kOps;
} // namespace

static int route(const dv_insn_t &in)
{
    const int p = kOps.pipe[in.op];
    return p != kByField ? p : route_field(in);
}

AiCore::Params AiCore::Params::from(const dv_config_t &cfg, dv_core_type_t type)
{
    Params p{};
    p.topo.type = type;
    p.topo.pipes = dv_topo_pipes(&cfg, type);
    p.topo.buffers = dv_topo_buffers(&cfg, type);
    for (int sp = 1; sp < DV_SPACE_COUNT; sp++) {
        p.topo.buffer_bytes[sp] = dv_topo_buffer_size(&cfg, static_cast<dv_space_t>(sp));
        p.topo.buffer_align[sp] = dv_topo_buffer_align(&cfg, static_cast<dv_space_t>(sp));
    }
    p.chip = {cfg.chip_kernel_start_cycles, cfg.chip_block_start_cycles, cfg.chip_layout == DV_LAYOUT_SPLIT,
              cfg.chip_gm_to_l0, cfg.chip_dma_pad, cfg.chip_l0c_to_ub, cfg.chip_load_transpose, cfg.chip_freq_mhz,
              cfg.chip_sys_counter_mhz};
    p.scalar.issue_cycles = cfg.scalar_issue_cycles;
    p.scalar.load_cycles = cfg.scalar_load_cycles;
    p.scalar.store_cycles = cfg.scalar_store_cycles;
    const uint64_t depth[DV_PIPE_COUNT] = {1, cfg.queue_v_depth, cfg.queue_m_depth, cfg.queue_mte1_depth,
                                           cfg.queue_mte2_depth, cfg.queue_mte3_depth, cfg.queue_fix_depth};
    std::copy(std::begin(depth), std::end(depth), std::begin(p.queue_depth));
    p.sync = {cfg.sync_event_ids, cfg.sync_cross_flag_ids, cfg.sync_flag_latency_cycles, cfg.sync_cross_latency_cycles};
    p.sim.quantum_cycles = cfg.sim_quantum_cycles;
    p.vec = VectorUnit::Params::from(cfg);
    p.cube = CubeUnit::Params::from(cfg);
    p.dma = DmaEngine::Params::from(cfg);
    return p;
}

AiCore::AiCore(sc_core::sc_module_name name, const Params &p, CoreServices &chip, unsigned index, L2Cache &l2,
               CriticalPath &path)
    : sc_module(name), p_(p), chip_(chip), path_(path), index_(index), type_(p.topo.type), pipes_(p.topo.pipes), vec_("vec", p.vec),
      cube_("cube", p.cube)
{
    // The pipes and local buffers of this core type: the core topology (configs/topology.def).
    for (int sp = 1; sp < DV_SPACE_COUNT; sp++) {
        const dv_space_t space = static_cast<dv_space_t>(sp);
        if (p.topo.buffers >> sp & 1)
            buf_[sp] = std::make_unique<Buffer>(dv_space_name(space), space, p.topo.buffer_bytes[sp],
                                               p.topo.buffer_align[sp]);
    }
    // plain_access's view of them: past a buffer's last byte (0 where the core has none), and the
    // offset bits its alignment wants 0.  The profile's alignments are powers of two; were one not,
    // every bit would be wanted 0, which sends any other offset on to check_access (it decides:
    // plain_access may say less than it, never more).
    for (int sp = 1; sp < DV_SPACE_COUNT; sp++) {
        if (!(p.topo.buffers >> sp & 1))
            continue;
        const uint64_t bytes = p.topo.buffer_bytes[sp], align = p.topo.buffer_align[sp];
        lim_[sp] = bytes == UINT64_MAX ? bytes : bytes + 1;
        amask_[sp] = align && !(align & (align - 1)) ? align - 1 : ~uint64_t{0};
    }
    static const char *const dma_names[DV_PIPE_COUNT] = {nullptr, nullptr, nullptr, "mte1", "mte2", "mte3", "fix"};
    for (dv_pipe_t q : {DV_PIPE_MTE1, DV_PIPE_MTE2, DV_PIPE_MTE3, DV_PIPE_FIX})
        if (has_pipe(q))
            dma_[q] = std::make_unique<DmaEngine>(dma_names[q], p.dma, q, index);
    size_t entries = 1; // pend_'s
    for (int q = 0; q < DV_PIPE_COUNT; q++)
        entries += q_[q].reset(p.queue_depth[q]);
    pool_.reset(new Entry[entries]);
    pend_ = &pool_[0];
    spare_.reset(new Entry *[entries]);
    spare_top_ = spare_.get();
    for (size_t k = entries - 1; k > 0; k--) // (pool order from the top)
        free_entry(&pool_[k]);
    no_queue_.depth = 1; // never full: it holds no entries
    queue_pipes_ = pipes_ & ~(1u << DV_PIPE_S);
    for (int q = 0; q < DV_PIPE_COUNT; q++)
        room_[q] = q != DV_PIPE_S && has_pipe(static_cast<dv_pipe_t>(q)) ? &q_[q] : &no_queue_;
    if (!kOps.ready)
        kOps.fill();
    // The ops check_access's plain way takes (plain_access): those issued into a pipe this core has,
    // their pipe not a field, that this chip has.  The last is check_access's verdict on an instruction
    // of the op without operands (no ranges, every field 0: its addresses at GM offset 0), so that the
    // chip features are listed in check_access only.
    Entry probe{};
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const int q = kOps.pipe[op];
        probe.insn.op = static_cast<uint16_t>(op);
        plain_[op] = q != kByField && q != DV_PIPE_S && has_pipe(static_cast<dv_pipe_t>(q)) &&
                     check_access(probe, q, nullptr) == DV_OK;
        // The scalar unit's own ops that touch no memory: check_access's verdict on them depends on
        // the op alone (the probe's).
        plain_s_[op] = q == DV_PIPE_S && !scalar_access(static_cast<unsigned>(op)) &&
                       check_access(probe, q, nullptr) == DV_OK;
    }
    static_assert(kFlags <= 65536, "touched_ holds flag indices in 16 bits");
    flags_.reset(kFlags);
    cross_.resize(DV_CROSS_FLAG_IDS);

    // Connections: every DMA engine's GM traffic goes to the shared L2.
    for (auto &d : dma_)
        if (d)
            d->l2.bind(l2);
}

// A hazard found on this core goes to the chip; at dv_run_opts_t.max_hazards the core stops looking.
void AiCore::report_hazard(const dv_hazard_t &h)
{
    if (!chip_.report_hazard(index_, block_, sub_, h))
        check_hazards_ = false;
}

void AiCore::begin_kernel(cycles_t origin, bool data, bool hazards, bool series)
{
    origin_ = origin;
    t_ = origin + p_.chip.kernel_start_cycles;
    data_ = data;
    check_hazards_ = hazards;
    finished_ = false;
    phase_ = Phase::Start;
    resume_ = Resume::None;
    open_ = nullptr;
    err_ = dv_error_t{};
    blocked_.clear();
    blocked_source_ = "";
    blocked_line_ = 0;
    std::memset(&counters_, 0, sizeof counters_);
    std::memset(&ops_, 0, sizeof ops_);
    std::snprintf(counters_.name, sizeof counters_.name, "%s", basename());
    counters_.type = type_;
    for (auto &c : cross_)
        c.clear();
    // The chip reset the critical path: every reference the core held is gone with it.
    s_node_ = end_node_ = CriticalPath::kNone;
    for (int q = 0; q < DV_PIPE_COUNT; q++)
        start_node_[q] = done_node_[q] = CriticalPath::kNone;
    for (uint16_t i : touched_) // the others hold none
        flags_[i].node = CriticalPath::kNone;
    starving_ = solo_ = 0;
    std::memset(prov_, 0, sizeof prov_);
    std::memset(prov_mask_, 0, sizeof prov_mask_);
    std::memset(nwaits_, 0, sizeof nwaits_);
    view_ = dv_mem_t{};
    for (int s = 1; s < DV_SPACE_COUNT; s++)
        if (buf_[s]) {
            buf_[s]->begin_kernel(origin, data, series);
            view_.buf[s] = buf_[s]->data();
            view_.size[s] = buf_[s]->size();
        }
    chip_.gm_view(view_);
}

void AiCore::end_kernel(cycles_t total)
{
    // The instructions issued, per pipe and in all: the sums of the per-opcode counts (issue counts
    // each once, there only).
    for (int p = 0; p < DV_PIPE_COUNT; p++) {
        uint64_t n = 0;
        for (int op = 0; op < DV_OP_COUNT; op++)
            n += ops_.count[op][p];
        counters_.pipe_insns[p] = n;
        counters_.instructions += n;
    }
    for (int s = 1; s < DV_SPACE_COUNT; s++)
        if (buf_[s])
            buf_[s]->end_kernel(total, counters_.buf[s]);
    for (dv_pipe_t p : {DV_PIPE_MTE1, DV_PIPE_MTE2, DV_PIPE_MTE3, DV_PIPE_FIX})
        if (dma_[p]) {
            counters_.gm_read_bytes += dma_[p]->gm_read_bytes;
            counters_.gm_write_bytes += dma_[p]->gm_write_bytes;
            dma_[p]->gm_read_bytes = dma_[p]->gm_write_bytes = 0;
        }
}

size_t AiCore::deliver_cross_flag(unsigned id, cycles_t when, CriticalPath::Ref node)
{
    path_.retain(node);
    cross_[id].push_back(Arrival{when, node});
    // The one readiness of this core's heads that another core changes (head_time's
    // wait_cross_flag): marked here, so that run_block keeps its candidates across its waits.
    invalidate_all();
    return cross_[id].size();
}

AiCore::Wait AiCore::step(cycles_t now, cycles_t &until)
{
    now_ = now;
    for (;;) {
        switch (phase_) {
        case Phase::Start: // the top of the block loop: take blocks in simulated-time order
            if (t_ > now_) {
                until = t_;
                phase_ = Phase::Take;
                return Wait::Time;
            }
            [[fallthrough]];
        case Phase::Take: {
            chip_.retire(std::max(t_, now_));
            uint32_t block, sub;
            if (chip_.aborting() || !chip_.next_block(index_, block, sub)) {
                finished_ = true;
                phase_ = Phase::Done;
                return Wait::Done;
            }
            if (counters_.blocks == 0) {
                counters_.first_cycle = t_ - origin_;
                for (int p = 0; p < DV_PIPE_COUNT; p++)
                    cur_[p] = t_;
                end_node_ = path_.root(t_); // the chain starts with the core's first block
            }
            // The block's start overhead: every pipe idles; the path goes on from the last block's end.
            t_ += p_.chip.block_start_cycles;
            for (int p = 0; p < DV_PIPE_COUNT; p++)
                if (has_pipe(static_cast<dv_pipe_t>(p)))
                    charge(p, t_, DV_STALL_BLOCK_START);
            {
                const Ref start = path_at(end_node_, t_, path_key(DV_CRIT_BLOCK_START, DV_PIPE_S));
                path_.assign(s_node_, start);
                for (int p = 0; p < DV_PIPE_COUNT; p++) {
                    path_.assign(start_node_[p], start);
                    path_.assign(done_node_[p], start);
                    start_key_[p] = done_key_[p] = 0;
                }
                path_.release(start);
            }
            dv_stream_t *s = nullptr;
            int rc = chip_.open_stream(block, sub, &s, &err_);
            if (rc == DV_OK) {
                open_ = s;
                rc = begin_block(s, block, sub);
            }
            if (rc != DV_OK)
                return block_failed();
            phase_ = Phase::Block;
        }
            [[fallthrough]];
        case Phase::Block: {
            const int rc = run_block(until, &err_);
            if (rc == kYield)
                return resume_ == Resume::Cross ? Wait::Cross : Wait::Time;
            if (rc != DV_OK)
                return block_failed();
            open_->close(open_);
            open_ = nullptr;
            counters_.blocks++;
            counters_.last_cycle = t_ - origin_;
            phase_ = Phase::Start;
            break;
        }
        case Phase::Done:
            return Wait::Done;
        }
    }
}

// A block could not start or run (rc): the core's work ends, the kernel fails with the first error.
AiCore::Wait AiCore::block_failed()
{
    if (open_) {
        open_->close(open_);
        open_ = nullptr;
    }
    if (!chip_.aborting())
        chip_.fail(err_);
    phase_ = Phase::Done;
    return Wait::Done;
}

// The kernel failed while the core waited: it leaves its work as its SystemC thread did on seeing
// the failure after the wait (a core between blocks counts as finished).
void AiCore::abandon()
{
    if (phase_ == Phase::Block) {
        blocked_.clear();
        open_->close(open_);
        open_ = nullptr;
    } else if (phase_ != Phase::Done) {
        finished_ = true;
    }
    phase_ = Phase::Done;
}

int AiCore::locate(dv_error_t *err, int code, const dv_insn_t &in, uint64_t index, const char *fmt, ...)
{
    if (!err) // (the constructor's probes of check_access want the verdict only)
        return code;
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const dv_op_spec_t *os = dv_op_spec(static_cast<dv_op_t>(in.op));
    return dv_error_set(err, code, stream_ ? stream_->source : "", static_cast<int>(in.line), 0,
                        "%s (%s, block %u, instruction #%llu %s)", msg, basename(), block_,
                        static_cast<unsigned long long>(index), os ? os->mnemonic : "?");
}

// The scalar unit moves from ts_ to `to` (> ts_) for cause c: every starving pipe whose cursor is
// behind `to` is charged up to it (the shared ones through acc_).
void AiCore::starving_charge(cycles_t to, dv_stall_t c)
{
    if (!(acc_mask_ >> c & 1)) {
        acc_mask_ |= 1u << c;
        for (int p = 0; p < DV_PIPE_COUNT; p++)
            snap_[p][c] = 0; // acc_[c] was 0 when each shared pipe joined
    }
    acc_[c] += to - ts_;
    for (unsigned m = solo_; m; m &= m - 1) {
        const int p = __builtin_ctz(m);
        if (to > cur_[p]) {
            prov_[p][c] += to - cur_[p];
            prov_mask_[p] |= 1u << c;
            cur_[p] = to;
            solo_ &= ~(1u << p);
            join_shared(p); // after this advance's share: it was charged above
        }
    }
}

void AiCore::starve(int p)
{
    starving_ |= 1u << p;
    // The scalar unit may be ahead of the pipe's new idle time (its last stretch started before
    // the event that emptied the queue): charge the overlap as that stretch's cause.
    if (ts_ > cur_[p]) {
        prov_[p][seg_c_] += ts_ - cur_[p];
        prov_mask_[p] |= 1u << seg_c_;
        cur_[p] = ts_;
    }
    if (cur_[p] == ts_)
        join_shared(p);
    else
        solo_ |= 1u << p;
}

// A shared pipe leaves (its charges since it joined go to `to`, or to their causes when `to` is
// DV_STALL_COUNT) with its cursor at ts_; a solo one just leaves.
void AiCore::leave_shared(int p, dv_stall_t to)
{
    if (solo_ >> p & 1) {
        solo_ &= ~(1u << p);
        return;
    }
    for (uint32_t m = acc_mask_; m; m &= m - 1) {
        const int c = __builtin_ctz(m);
        counters_.stall[p][to == DV_STALL_COUNT ? c : to] += acc_[c] - snap_[p][c];
    }
    cur_[p] = ts_;
}

void AiCore::commit(int p)
{
    starving_ &= ~(1u << p);
    leave_shared(p, DV_STALL_COUNT);
    for (uint32_t m = prov_mask_[p]; m; m &= m - 1) {
        const int c = __builtin_ctz(m);
        counters_.stall[p][c] += prov_[p][c];
        prov_[p][c] = 0;
    }
    prov_mask_[p] = 0;
}

void AiCore::close_block(cycles_t end)
{
    advance_scalar(end, DV_STALL_DONE); // the stream is read: the scalar unit has no work left
    for (int p = 0; p < DV_PIPE_COUNT; p++) {
        if (!has_pipe(static_cast<dv_pipe_t>(p)))
            continue;
        if (starving_ >> p & 1)
            leave_shared(p, DV_STALL_DONE);
        // Charged while waiting for an instruction that never came in this block: no work left.
        for (uint32_t m = prov_mask_[p]; m; m &= m - 1) {
            const int c = __builtin_ctz(m);
            counters_.stall[p][DV_STALL_DONE] += prov_[p][c];
            prov_[p][c] = 0;
        }
        prov_mask_[p] = 0;
        // Waits that started after the block's end (see waits_): only their part up to it counts.
        cycles_t over = cur_[p] > end ? cur_[p] - end : 0;
        for (unsigned i = 0; over && i < std::min(nwaits_[p], kWaitLog); i++) {
            WaitCharge &w = waits_[p][(nwaits_[p] - 1 - i) % kWaitLog];
            const cycles_t back = std::min(over, w.cycles);
            counters_.stall[p][w.cause] -= back;
            over -= back;
        }
        for (int c = 0; over && c < DV_STALL_COUNT; c++) { // past the log: from any idle cause, keeping the sum
            if (dv_stall_spec(static_cast<dv_stall_t>(c))->kind != DV_STALL_KIND_IDLE)
                continue;
            const cycles_t back = std::min<cycles_t>(over, counters_.stall[p][c]);
            counters_.stall[p][c] -= back;
            over -= back;
        }
        cur_[p] = std::min(cur_[p], end);
        nwaits_[p] = 0;
        charge(p, end, DV_STALL_DONE);
    }
    starving_ = solo_ = 0;
}

// Nothing can happen now (run_block): wait for another core's cross-core flag (DV_OK: go on) or
// report the deadlock.  Out of line: the event loop meets it rarely.
bool AiCore::cross_blocked_heads() const
{
    for (unsigned m = queued_; m; m &= m - 1) {
        const dv_insn_t &in = q_[__builtin_ctz(m)].front().insn;
        if (in.op == DV_OP_wait_cross_flag && cross_[static_cast<size_t>(in.f[DV_FLD(XWAIT, id)].i)].empty())
            return true;
    }
    return false;
}

int AiCore::stuck(dv_stream_t *s, uint32_t block, bool cross_blocked, cycles_t &sc_now, cycles_t &until, dv_error_t *err)
{
    if (cross_blocked || cross_blocked_heads()) {
        // Another core must signal us: wait (step returns Wait::Cross) until it does.
        cycles_t local = ts_;
        for (int p = 0; p < DV_PIPE_COUNT; p++)
            local = std::max(local, free_[p]);
        if (local > sc_now) {
            // Catch up with simulated time first; flags set meanwhile are seen on the next
            // pass, before waiting (nothing can run between that check and the wait).
            if (local > now_) {
                until = local;
                resume_ = Resume::Time;
                return kYield;
            }
            sc_now = now_;
            chip_.retire(sc_now);
            if (chip_.aborting())
                return DV_ERR_STATE;
            invalidate_all();
            return DV_OK;
        }
        // What we wait for, should no core ever signal it (the chip then reports a deadlock).
        blocked_ = "waits for a cross-core flag";
        for (int p = 1; p < DV_PIPE_COUNT; p++)
            if (!q_[p].empty() && q_[p].front().insn.op == DV_OP_wait_cross_flag) {
                blocked_ = describe_wait(p, q_[p].front());
                blocked_line_ = q_[p].front().insn.line;
            }
        if (have_pending_ && pend_->insn.op == DV_OP_wait_cross_flag) {
            blocked_ = describe_pending();
            blocked_line_ = pend_->insn.line;
        }
        blocked_source_ = s->source;
        resume_ = Resume::Cross; // the wait is counted when the waiter starts
        return kYield;
    }
    std::string what;
    uint32_t line = 0; // located at the first waiting instruction
    for (int p = 1; p < DV_PIPE_COUNT; p++)
        if (!q_[p].empty()) {
            what += (what.empty() ? "" : "; ") + describe_wait(p, q_[p].front());
            line = line ? line : q_[p].front().insn.line;
        }
    if (have_pending_) {
        what += (what.empty() ? "" : "; ") + describe_pending();
        line = line ? line : pend_->insn.line;
    }
    return dv_error_set(err, DV_ERR_DEADLOCK, s->source, static_cast<int>(line), 0,
                        "deadlock on %s in block %u: %s, and nothing else can progress", basename(), block,
                        what.c_str());
}

int AiCore::begin_block(dv_stream_t *s, uint32_t block, uint32_t sub)
{
    stream_ = s;
    block_ = block;
    sub_ = sub;
    ts_ = t_;
    queued_ = 0;
    for (int p = 0; p < DV_PIPE_COUNT; p++) {
        while (!q_[p].empty()) // (what a failed block left)
            free_entry(q_[p].pop());
        q_[p].head = 0;
        cand_t_[p] = kNever;
        free_[p] = done_[p] = t_;
        busy_end_[p] = std::max(busy_end_[p], t_);
    }
    acc_lo_ = acc_hi_ = 0;
    acc_done_ = t_;
    unit_[0].clear();
    unit_[1].clear();
    for (uint16_t i : touched_) { // the others are as they started
        Flag &f = flags_[i];
        f.set = false;
        f.issued = 0;
        f.cleared = 0;
        path_.release(f.node);
        f.node = CriticalPath::kNone;
        f.listed = false;
    }
    touched_.clear();
    starving_ = solo_ = 0; // every queue is empty: each pipe waits for the scalar unit
    for (uint32_t m = acc_mask_; m; m &= m - 1)
        acc_[__builtin_ctz(m)] = 0;
    acc_mask_ = 0;
    for (int p = 1; p < DV_PIPE_COUNT; p++)
        if (has_pipe(static_cast<dv_pipe_t>(p))) {
            starving_ |= 1u << p;
            if (cur_[p] != ts_)
                solo_ |= 1u << p; // (no snapshot to take for the others: acc_ is empty)
        }
    seg_c_ = DV_STALL_BLOCK_START;
    invalidate_all();
    dv_vstate_reset(&vs_);
    hz_.reset(pipes_);
    have_pending_ = stream_end_ = false;
    next_index_ = 0;
    // Time moves only across the core's own waits (run_block's yields), and another core's
    // failure (chip_.aborting()) can only happen during one: both are read here and again after
    // each wait, not on every event.
    slicing_ = chip_.slicing();
    sc_now_ = now_;
    sync_after_ = sc_now_ + p_.sim.quantum_cycles; // an event later than this syncs first
    resume_ = Resume::None;
    if (chip_.aborting())
        return DV_ERR_STATE;
    return DV_OK;
}

int AiCore::run_block(cycles_t &until, dv_error_t *err)
{
    dv_stream_t *const s = open_;
    const uint32_t block = block_;
    cycles_t sc_now = sc_now_, sync_after = sync_after_;
    if (resume_ != Resume::None) { // back from a wait, at now_
        const Resume r = resume_;
        resume_ = Resume::None;
        sc_now = now_;
        if (r == Resume::Time)
            chip_.retire(sc_now);
        else
            blocked_.clear();
        sync_after = sc_now + p_.sim.quantum_cycles;
        if (chip_.aborting())
            return DV_ERR_STATE;
        // (the heads' candidates stand: only a cross-core flag changes them from outside, and its
        // delivery marks them, deliver_cross_flag)
    }

    for (;;) {
        if (!(have_pending_ | stream_end_)) { // both flags in one test (|): the loop asks on every event
            int rc = s->next(s, &pend_->insn, err);
            if (__builtin_expect(rc > 0, 1)) { // an instruction, the usual answer, is told by one test
                have_pending_ = true;
                pending_index_ = next_index_++;
                const int p = route(pend_->insn);
                pending_pipe_ = p;
                pending_q_ = static_cast<unsigned>(p) < DV_PIPE_COUNT ? room_[p] : &no_queue_;
            } else if (rc == 0) {
                stream_end_ = true;
            } else {
                return rc;
            }
        }
        // Pick the earliest thing that can happen: a pipe head starting, or the scalar unit.
        if (stale_) {
            const unsigned renew = stale_ & queued_;
            flagm_ &= ~renew; // (head_time sets the bits again)
            for (unsigned m = renew; m; m &= m - 1) {
                const int p = __builtin_ctz(m);
                cand_t_[p] = head_time(p); // a ready head at kNever would not be chosen either
            }
            stale_ = 0;
            // Every pipe of the core (an empty queue's stands at kNever), in pipe order, as the
            // choice between equal times needs: a fixed loop for each usual pipe set.
            cycles_t bt = kNever;
            int bw = -2;
            switch (queue_pipes_) {
            case kAivPipes: earliest<kAivPipes>(bt, bw); break;
            case kAicPipes: earliest<kAicPipes>(bt, bw); break;
            default: earliest<kAnyPipes>(bt, bw); break;
            }
            pick_who_ = bw;
            pick_t_ = bt;
        }
        cycles_t best = pick_t_;
        int who = pick_who_; // -1 scalar, >= 0 pipe
        bool cross_blocked = false; // the scalar unit waits for a cross-core flag (stuck adds the heads)
        if (have_pending_) {
            cycles_t t;
            Block why = Block::None;
            if (scalar_ready(t, why)) {
                if (t < best)
                    best = t, who = -1;
            } else {
                cross_blocked |= why == Block::Cross;
            }
        } else if (stream_end_) {
            if (queued_ == 0) {
                cycles_t end = ts_;
                int last = DV_PIPE_S; // what the block's end waited for: the scalar unit or a pipe's completion
                for (int p = 0; p < DV_PIPE_COUNT; p++)
                    if (done_[p] > end)
                        end = done_[p], last = p;
                if (check_hazards_)
                    hz_.join_all();
                close_block(end);
                path_.move(end_node_, last == DV_PIPE_S ? scalar_ref(end) : done_ref(last));
                t_ = end;
                stream_ = nullptr;
                return DV_OK;
            }
        }
        if (who == -2) {
            const int rc = stuck(s, block, cross_blocked, sc_now, until, err);
            if (rc == kYield) {
                sc_now_ = sc_now;
                return rc;
            }
            if (rc != DV_OK)
                return rc;
            sync_after = sc_now + p_.sim.quantum_cycles;
            continue;
        }
        int rc = who < 0 ? issue(best, err) : flagm_ >> who & 1 ? start_flag(who, best, err) : start_head(who, best, err);
        if (rc != DV_OK)
            return rc;
        if (best > sync_after) {
            if (best > now_) { // wait for the other cores (step's caller resumes run_block at best)
                until = best;
                resume_ = Resume::Time;
                return kYield;
            }
            sc_now = now_;
            chip_.retire(sc_now);
            sync_after = sc_now + p_.sim.quantum_cycles;
            if (chip_.aborting())
                return DV_ERR_STATE;
        }
    }
}

std::string AiCore::describe_pending()
{
    Entry e{};
    e.insn = pend_->insn;
    e.vs = vs_;
    e.index = pending_index_;
    e.node = CriticalPath::kNone;
    return "scalar unit " + describe_wait(DV_PIPE_S, e);
}

std::string AiCore::describe_wait(int p, const Entry &e)
{
    char buf[300];
    const dv_insn_t &in = e.insn;
    const dv_op_spec_t *os = dv_op_spec(static_cast<dv_op_t>(in.op));
    const char *where = stream_ ? stream_->source : "";
    if (in.op == DV_OP_wait_flag)
        std::snprintf(buf, sizeof buf, "pipe %s waits for event %s->%s id %lld (instruction #%llu, %s:%u)",
                      dv_pipe_name(static_cast<dv_pipe_t>(p)),
                      dv_pipe_name(static_cast<dv_pipe_t>(in.f[DV_FLD(FLAG, src)].i)),
                      dv_pipe_name(static_cast<dv_pipe_t>(in.f[DV_FLD(FLAG, dst)].i)),
                      static_cast<long long>(in.f[DV_FLD(FLAG, id)].i), static_cast<unsigned long long>(e.index), where,
                      in.line);
    else if (in.op == DV_OP_wait_cross_flag)
        std::snprintf(buf, sizeof buf, "pipe %s waits for cross-core flag %lld (instruction #%llu, %s:%u)",
                      dv_pipe_name(static_cast<dv_pipe_t>(p)), static_cast<long long>(in.f[DV_FLD(XWAIT, id)].i),
                      static_cast<unsigned long long>(e.index), where, in.line);
    else
        std::snprintf(buf, sizeof buf, "pipe %s holds %s (instruction #%llu, %s:%u)",
                      dv_pipe_name(static_cast<dv_pipe_t>(p)), os ? os->mnemonic : "?",
                      static_cast<unsigned long long>(e.index), where, in.line);
    return buf;
}

cycles_t AiCore::head_time(int p)
{
    const Entry &e = q_[p].front();
    const dv_insn_t &in = e.insn;
    const cycles_t base = std::max(e.enq, free_[p]);
    switch (in.op) {
    case DV_OP_set_flag: {
        flagm_ |= 1u << p;
        const Flag &f = flags_[e.fi];
        if (f.set) // still unconsumed by the wait issued before this set
            return kNever;
        // It does not block its pipe (ref 4.2): it takes its slot in order and fires once every
        // earlier instruction of the pipe has completed (start_head).
        return std::max(base, f.cleared);
    }
    case DV_OP_set_cross_flag:
    case DV_OP_pipe_barrier:
        return std::max(base, done_[p]);
    case DV_OP_wait_flag: {
        flagm_ |= 1u << p;
        const Flag &f = flags_[e.fi];
        if (!f.set)
            return kNever;
        return std::max(base, f.time + p_.sync.flag_latency_cycles);
    }
    case DV_OP_wait_cross_flag: {
        const auto &c = cross_[static_cast<size_t>(in.f[DV_FLD(XWAIT, id)].i)];
        if (c.empty()) // (cross_blocked_heads)
            return kNever;
        return std::max(base, c.front().time + p_.sync.cross_latency_cycles);
    }
    default: {
        cycles_t t = p == DV_PIPE_M ? std::max(base, acc_wait(e)) : base;
        if ((p == DV_PIPE_M || p == DV_PIPE_FIX) && unit_flag(in)) {
            const Unit *u = unit_before(p == DV_PIPE_M ? 1 : 0, e);
            if (u && !u->started) // the instruction that hands the tile over has not started yet
                return kNever;
            if (u)
                t = std::max(t, u->first);
        }
        return t;
    }
    }
}

// The unit_flag field as the hardware reads its two bits (page UnitFlag: 2'b10 on, 2'b11 on and
// hand over): 0 and 1 are off, 2 on, 3 on and hand the tile over.
int AiCore::unit_flag(const dv_insn_t &in)
{
    int64_t v = 0;
    switch (dv_op_spec(static_cast<dv_op_t>(in.op))->form) {
    case DV_FORM_MMAD: v = in.f[DV_FLD(MMAD, unit_flag)].i; break;
    case DV_FORM_MMADB: v = in.f[DV_FLD(MMADB, unit_flag)].i; break;
    case DV_FORM_FIXPIPE: v = in.f[DV_FLD(FIXPIPE, unit_flag)].i; break;
    default: break;
    }
    return v & 2 ? static_cast<int>(v) : 0;
}

// The L0C bytes an instruction writes (write) or reads: the hull of its footprint's L0C ranges.
bool AiCore::l0c_range(const Entry &e, bool write, uint64_t &lo, uint64_t &hi)
{
    bool any = false;
    for (int k = 0; k < e.nr; k++)
        if (e.r[k].space == DV_SPACE_L0C && (e.r[k].write != 0) == write) {
            lo = any ? std::min(lo, e.r[k].lo) : e.r[k].lo;
            hi = any ? std::max(hi, e.r[k].hi) : e.r[k].hi;
            any = true;
        }
    return any;
}

// The latest unit_flag-3 instruction of `side` (0 mmad, 1 FixPipe) before e in program order whose
// L0C bytes overlap e's (an mmad's writes, a FixPipe's reads); null when there is none.
const AiCore::Unit *AiCore::unit_before(int side, const Entry &e) const
{
    uint64_t lo, hi;
    if (!l0c_range(e, side == 1, lo, hi))
        return nullptr;
    for (auto it = unit_[side].rbegin(); it != unit_[side].rend(); ++it)
        if (it->index < e.index)
            return it->lo < hi && lo < it->hi ? &*it : nullptr;
    return nullptr;
}

// The cube accumulates in L0C: an mmad that reads the L0C bytes the previous M instruction writes
// (init off: C += A x B onto the same tile) waits for that instruction's completion, so its
// latency (cube.latency_cycles) is not hidden behind the next slice of the same tile.
cycles_t AiCore::acc_wait(const Entry &e) const
{
    for (int k = 0; k < e.nr; k++)
        if (e.r[k].space == DV_SPACE_L0C && !e.r[k].write && e.r[k].lo < acc_hi_ && acc_lo_ < e.r[k].hi)
            return acc_done_;
    return 0;
}

bool AiCore::scalar_ready(cycles_t &t, Block &why)
{
    const dv_insn_t &in = pend_->insn;
    const int p = pending_pipe_;
    if (p != DV_PIPE_S) { // issued into a pipe's queue: it waits while that queue is full
        if (pending_q_->full()) {
            why = Block::Queue;
            return false;
        }
        t = ts_;
        return true;
    }
    switch (in.op) {
    case DV_OP_pipe_barrier: // pipe_barrier(ALL)
        t = ts_;
        for (int k = 1; k < DV_PIPE_COUNT; k++) {
            if (!q_[k].empty()) {
                why = Block::Drain;
                return false;
            }
            t = std::max(t, done_[k]);
        }
        return true;
    case DV_OP_wait_flag: {
        const Flag &f = flag(static_cast<int>(in.f[DV_FLD(FLAG, src)].i), DV_PIPE_S,
                             static_cast<int>(in.f[DV_FLD(FLAG, id)].i));
        if (!f.set) {
            why = Block::Flag;
            return false;
        }
        t = std::max(ts_, f.time + p_.sync.flag_latency_cycles);
        return true;
    }
    case DV_OP_set_flag: {
        const Flag &f = flag(DV_PIPE_S, static_cast<int>(in.f[DV_FLD(FLAG, dst)].i),
                             static_cast<int>(in.f[DV_FLD(FLAG, id)].i));
        if (f.set && f.issued <= 0) { // its wait is issued but has not consumed the flag yet
            why = Block::Flag;
            return false;
        }
        t = std::max(ts_, f.cleared); // a double set (f.issued > 0) is reported by issue()
        return true;
    }
    case DV_OP_wait_cross_flag: {
        const size_t id = static_cast<size_t>(in.f[DV_FLD(XWAIT, id)].i);
        if (id >= cross_.size() || cross_[id].empty()) {
            why = id >= cross_.size() ? Block::None : Block::Cross;
            t = ts_;
            return id >= cross_.size(); // an invalid id is reported by issue()
        }
        t = std::max(ts_, cross_[id].front().time + p_.sync.cross_latency_cycles);
        return true;
    }
    default:
        t = ts_;
        return true;
    }
}

// Checks that do not depend on timing: pipes and buffers exist, ids are in range, every byte the
// instruction touches is inside its buffer or GM argument, and local addresses are aligned.
int AiCore::check_access(const Entry &e, int p, dv_error_t *err)
{
    const dv_insn_t &in = e.insn;
    if (p < DV_PIPE_COUNT && !has_pipe(static_cast<dv_pipe_t>(p)))
        return locate(err, DV_ERR_RANGE, in, e.index, "pipe %s does not exist on %s", dv_pipe_name(static_cast<dv_pipe_t>(p)),
                      type_ == DV_CORE_AIC ? "an AIC (cube core)" : type_ == DV_CORE_AIV ? "an AIV (vector core)" : "this core");
    switch (in.op) {
    case DV_OP_set_flag:
    case DV_OP_wait_flag: {
        const int src = static_cast<int>(in.f[DV_FLD(FLAG, src)].i), dst = static_cast<int>(in.f[DV_FLD(FLAG, dst)].i);
        if (src == dst)
            return locate(err, DV_ERR_RANGE, in, e.index, "event source and destination are both %s", dv_pipe_name(static_cast<dv_pipe_t>(src)));
        for (int q : {src, dst})
            if (!has_pipe(static_cast<dv_pipe_t>(q)))
                return locate(err, DV_ERR_RANGE, in, e.index, "pipe %s does not exist on this core", dv_pipe_name(static_cast<dv_pipe_t>(q)));
        if (static_cast<uint64_t>(in.f[DV_FLD(FLAG, id)].i) >= p_.sync.event_ids)
            return locate(err, DV_ERR_RANGE, in, e.index, "event id %lld is out of range: sync.event_ids is %llu",
                          static_cast<long long>(in.f[DV_FLD(FLAG, id)].i), static_cast<unsigned long long>(p_.sync.event_ids));
        // Program order decides what is a double set: a set_flag issued while an earlier one has no
        // wait_flag issued after it.  A set issued after its wait, which the wait has not consumed yet
        // (the flag latency), waits for it (head_time, scalar_ready).
        Flag &f = flag(src, dst, static_cast<int>(in.f[DV_FLD(FLAG, id)].i));
        if (in.op == DV_OP_wait_flag) {
            f.issued--;
        } else if (f.issued++ > 0) {
            f.issued--;
            return locate(err, DV_ERR_STATE, in, e.index, "event %s->%s id %lld set twice without a wait",
                          dv_pipe_name(static_cast<dv_pipe_t>(src)), dv_pipe_name(static_cast<dv_pipe_t>(dst)),
                          static_cast<long long>(in.f[DV_FLD(FLAG, id)].i));
        }
        return DV_OK;
    }
    case DV_OP_set_cross_flag:
    case DV_OP_wait_cross_flag: {
        const long long id = in.op == DV_OP_set_cross_flag ? in.f[DV_FLD(XSET, id)].i : in.f[DV_FLD(XWAIT, id)].i;
        if (!p_.chip.split || p_.sync.cross_flag_ids == 0)
            return locate(err, DV_ERR_UNSUPPORTED, in, e.index, "cross-core flags need a split (AIC/AIV) chip");
        if (static_cast<uint64_t>(id) >= p_.sync.cross_flag_ids)
            return locate(err, DV_ERR_RANGE, in, e.index, "cross-core flag id %lld is out of range: sync.cross_flag_ids is %llu",
                          id, static_cast<unsigned long long>(p_.sync.cross_flag_ids));
        return DV_OK;
    }
    default:
        break;
    }
    // Instructions only some chips have (one switch: the others pass with a single test).
    switch (in.op) {
    case DV_OP_load_cbuf_to_ca_transpose:
    case DV_OP_load_cbuf_to_cb_transpose:
        if (!p_.chip.load_transpose)
            return locate(err, DV_ERR_UNSUPPORTED, in, e.index,
                          "transposing L1 -> L0 loads are not available on this chip (chip.load_transpose)");
        break;
    case DV_OP_load_gm_to_ca:
    case DV_OP_load_gm_to_cb:
        if (!p_.chip.gm_to_l0)
            return locate(err, DV_ERR_UNSUPPORTED, in, e.index, "GM -> L0 loads are not available on this chip (chip.gm_to_l0)");
        break;
    case DV_OP_copy_gm_to_ubuf_align:
    case DV_OP_copy_ubuf_to_gm_align:
        if (!p_.chip.dma_pad)
            return locate(err, DV_ERR_UNSUPPORTED, in, e.index, "byte-granular DMA (copy_*_align) is not available on this chip (chip.dma_pad)");
        break;
    case DV_OP_get_sys_cnt:
        if (!p_.chip.sys_counter_mhz)
            return locate(err, DV_ERR_UNSUPPORTED, in, e.index, "this chip has no system counter a kernel can read (chip.sys_counter_mhz is 0)");
        break;
    case DV_OP_copy_matrix_cc_to_ubuf:
        if (!p_.chip.l0c_to_ub)
            return locate(err, DV_ERR_UNSUPPORTED, in, e.index, "L0C -> UB moves are not available on this chip (chip.l0c_to_ub)");
        break;
    default:
        break;
    }
    // A vector instruction's operands are aligned at their base addresses, not at the first element
    // its mask selects (a reduction's results at their element size); its ranges are then checked
    // for bounds only.
    const bool vector = p == DV_PIPE_V;
    if (vector) {
        const dv_op_spec_t *os = dv_op_spec(static_cast<dv_op_t>(in.op));
        const dv_form_spec_t *fs = dv_form_spec(os->form);
        for (int i = 0, left = fs->naddr; left; i++) { // up to the form's last address field
            if (fs->fields[i].kind != DV_FK_ADDR)
                continue;
            left--;
            const uint64_t a = in.f[i].u;
            const dv_space_t sp = DV_ADDR_SPACE(a);
            if (sp == DV_SPACE_GM || sp >= DV_SPACE_COUNT || !has_space(sp))
                continue; // reported with the ranges below
            uint64_t align = p_.topo.buffer_align[sp];
            if (os->form == DV_FORM_VREDUCE && i == DV_FLD(VREDUCE, dst))
                align = dv_dtype_size(static_cast<dv_dtype_t>(in.f[DV_FLD(VREDUCE, dtype)].i));
            if (align > 1 && DV_ADDR_OFF(a) % align)
                return locate(err, DV_ERR_RANGE, in, e.index, "%s operand %s at 0x%llx is not aligned to %llu bytes",
                              dv_space_name(sp), fs->fields[i].name, static_cast<unsigned long long>(DV_ADDR_OFF(a)),
                              static_cast<unsigned long long>(align));
        }
    }
    for (int k = 0; k < e.nr; k++) {
        const dv_range_t &r = e.r[k];
        const dv_space_t sp = static_cast<dv_space_t>(r.space);
        if (sp == DV_SPACE_GM) {
            if (r.arg >= view_.ngm)
                return locate(err, DV_ERR_RANGE, in, e.index, "GM argument #%u does not exist", r.arg);
            const uint64_t size = view_.gm_size[r.arg];
            if (r.hi > size)
                return locate(err, DV_ERR_RANGE, in, e.index,
                              "GM access outside argument '%s': bytes [%llu, %llu) of %llu", chip_.gm_name(r.arg),
                              static_cast<unsigned long long>(r.lo), static_cast<unsigned long long>(r.hi),
                              static_cast<unsigned long long>(size));
            continue;
        }
        if (!has_space(sp))
            return locate(err, DV_ERR_RANGE, in, e.index, "%s does not exist on %s", dv_space_name(sp), basename());
        char why[200];
        // the scalar unit's loads and stores need only their element aligned
        const uint64_t align = in.op == DV_OP_ld_ub || in.op == DV_OP_st_ub ? r.hi - r.lo : vector ? 1 : 0;
        if (buf_[sp]->check(r.lo, r.hi, why, sizeof why, align))
            return locate(err, DV_ERR_RANGE, in, e.index, "%s", why);
    }
    return DV_OK;
}

// check_access's verdict on an instruction it passes, found without its messages' work: true only
// when check_access would pass e (false: check_access decides, and reports what it finds).
inline bool AiCore::plain_access(const Entry &e, int p) const
{
    const dv_insn_t &in = e.insn;
    if (!plain_[in.op]) // (its pipe, p, exists: no flag, no chip feature to check)
        return false;
    const bool vector = p == DV_PIPE_V;
    if (vector) {
        const unsigned n = kOps.naddr[in.op];
        if (n > kMaxAddr)
            return false;
        for (unsigned k = 0; k < n; k++) {
            const uint64_t a = in.f[kOps.addr[in.op][k]].u;
            if (DV_ADDR_OFF(a) & amask_[a >> 56]) // (0 for GM, for a space the core lacks, and for align 1)
                return false;
        }
    }
    // One test per range in a buffer: its end within lim_, and, but on the V pipe (its addresses'
    // alignment was the test), its start aligned.
    const uint64_t lo_mask = vector ? 0 : ~uint64_t{0};
    for (int k = 0; k < e.nr; k++) {
        const dv_range_t &r = e.r[k];
        if (r.space == DV_SPACE_GM) {
            if (r.arg >= view_.ngm || r.hi > view_.gm_size[r.arg])
                return false;
        } else if ((r.hi >= lim_[r.space]) | ((r.lo & lo_mask & amask_[r.space]) != 0)) {
            return false;
        }
    }
    return true;
}

// The scalar unit stalled from ts_ to t before issuing pend_'s instruction: its critical path goes on from what
// it waited for.  Out of issue's way: most instructions issue without a stall.
void AiCore::issue_stalled(cycles_t t)
{
    const dv_insn_t &in = pend_->insn;
    const int p = pending_pipe_;
    const dv_pipe_t cp = static_cast<dv_pipe_t>(p < DV_PIPE_COUNT ? p : DV_PIPE_S);
    dv_stall_t cause;
    Ref pred = CriticalPath::kNone;
    if (in.op == DV_OP_wait_cross_flag) {
        counters_.stall_cross_cycles += t - ts_;
        cause = DV_STALL_CROSS;
        path_.assign(pred, cross_[static_cast<size_t>(in.f[DV_FLD(XWAIT, id)].i)].front().node);
    } else if (in.op == DV_OP_wait_flag) {
        counters_.stall_flag_cycles += t - ts_;
        const int src = static_cast<int>(in.f[DV_FLD(FLAG, src)].i);
        cause = flag_cause(src);
        path_.assign(pred, flag(src, DV_PIPE_S, static_cast<int>(in.f[DV_FLD(FLAG, id)].i)).node);
    } else if (in.op == DV_OP_pipe_barrier) { // ALL: it waited for the pipe that drained last
        counters_.stall_flag_cycles += t - ts_;
        int last = 1;
        for (int k = 2; k < DV_PIPE_COUNT; k++)
            if (done_[k] > done_[last])
                last = k;
        cause = flag_cause(last);
        pred = done_ref(last);
    } else {
        counters_.stall_queue_full_cycles += t - ts_;
        cause = queue_cause(cp == DV_PIPE_S ? DV_PIPE_V : cp);
        pred = scalar_ref(ts_);
    }
    counters_.pipe_wait_cycles[DV_PIPE_S] += t - ts_;
    advance_scalar(t, cause);
    path_.move(s_node_, path_from(pred, t, path_key(in.op, DV_PIPE_S)));
}

// pend_'s instruction is the scalar unit's own work (pipe S), issued after `stall` cycles of stall.
int AiCore::issue_scalar(cycles_t stall, dv_error_t *err)
{
    const dv_insn_t &in = pend_->insn;
    const int p = DV_PIPE_S;
    const cycles_t issue_cost = p_.scalar.issue_cycles;
    // check_access's entry: the pending one itself (its insn is in), which nothing reads after
    // this issue but the next instruction's read, which writes it first.
    Entry &probe = *pend_;
    probe.index = pending_index_;
    probe.nr = 0;
    if (scalar_access(in.op))
        probe.nr = dv_footprint(&in, &vs_, probe.r);
    if (!plain_s_[in.op]) {
        const int rc = check_access(probe, p, err);
        if (rc != DV_OK)
            return rc;
    }
    cycles_t busy = issue_cost;
    switch (in.op) {
    case DV_OP_scalar: {
        busy = static_cast<cycles_t>(in.f[DV_FLD(SCALAR, cycles)].i);
        slice(DV_PIPE_S, in, ts_, ts_ + busy);
        path_.move(s_node_, path_from(scalar_ref(ts_), ts_ + busy, path_key(in.op, DV_PIPE_S)));
        break;
    }
    case DV_OP_ld_ub:
    case DV_OP_st_ub:
    case DV_OP_ld_gm:
    case DV_OP_st_gm: {
        // The scalar unit's own load or store: it happens when issued, so it sees (or changes)
        // memory as the pipes have left it by then; a load's value goes back to the stream.
        const bool load = in.op == DV_OP_ld_ub || in.op == DV_OP_ld_gm;
        busy = load ? p_.scalar.load_cycles : p_.scalar.store_cycles;
        const uint64_t off = probe.r[0].lo, n = probe.r[0].hi - probe.r[0].lo;
        uint8_t bytes[8] = {0};
        uint8_t *ub = !data_ ? nullptr
                      : probe.r[0].space == DV_SPACE_GM ? (view_.gm ? view_.gm[probe.r[0].arg] : nullptr)
                                                        : view_.buf[DV_SPACE_UB];
        if (ub && load)
            std::memcpy(bytes, ub + off, n);
        else if (ub)
            std::memcpy(ub + off, &in.f[DV_FLD(SST, value)].u, n); // little-endian: the low bytes
        if (load && stream_->loaded)
            stream_->loaded(stream_, bytes, static_cast<unsigned>(n));
        if (check_hazards_)
            for (const dv_hazard_t &h : hz_.execute(DV_PIPE_S, hz_.clock(DV_PIPE_S), pending_index_, in.line, probe.r, probe.nr))
                report_hazard(h);
        slice(DV_PIPE_S, in, ts_, ts_ + busy);
        path_.move(s_node_, path_from(scalar_ref(ts_), ts_ + busy, path_key(in.op, DV_PIPE_S)));
        break;
    }
    case DV_OP_get_rsvd_cnt: {
        // RSVD_CNT as the last vreducev2 that has run left it (the kernel waits for V before it reads)
        uint8_t bytes[8];
        std::memcpy(bytes, &rsvd_cnt_, 8);
        if (stream_->loaded)
            stream_->loaded(stream_, bytes, 8);
        break;
    }
    case DV_OP_get_sys_cnt: {
        // the system counter at the scalar unit's time (its origin: the model's time 0)
        const uint64_t v = static_cast<uint64_t>(ts_) * p_.chip.sys_counter_mhz / p_.chip.freq_mhz;
        uint8_t bytes[8];
        std::memcpy(bytes, &v, 8);
        if (stream_->loaded)
            stream_->loaded(stream_, bytes, 8);
        break;
    }
    case DV_OP_set_vector_mask:
        vs_.hi = in.f[DV_FLD(MASK, hi)].u;
        vs_.lo = in.f[DV_FLD(MASK, lo)].u;
        break;
    case DV_OP_set_atomic:
        vs_.atomic = static_cast<uint8_t>(in.f[DV_FLD(ATOMIC, op)].i);
        vs_.atomic_dtype = static_cast<uint8_t>(in.f[DV_FLD(ATOMIC, dtype)].i);
        break;
    case DV_OP_set_mov_pad_val: vs_.pad_val = in.f[DV_FLD(PADVAL, value)].u; break;
    case DV_OP_set_mask_count: vs_.count_mode = true; break;
    case DV_OP_set_mask_norm: vs_.count_mode = false; break;
    case DV_OP_set_flag: {
        Flag &f = flag(DV_PIPE_S, static_cast<int>(in.f[DV_FLD(FLAG, dst)].i), static_cast<int>(in.f[DV_FLD(FLAG, id)].i));
        if (f.set)
            return locate(err, DV_ERR_STATE, in, pending_index_, "event S->%s id %lld set twice without a wait",
                          dv_pipe_name(static_cast<dv_pipe_t>(in.f[DV_FLD(FLAG, dst)].i)), static_cast<long long>(in.f[DV_FLD(FLAG, id)].i));
        f.set = true;
        f.time = ts_;
        f.vc = hz_.clock(DV_PIPE_S);
        const Ref here = scalar_ref(ts_);
        path_.assign(f.node, here);
        path_.move(s_node_, here);
        invalidate(static_cast<int>(in.f[DV_FLD(FLAG, dst)].i));
        break;
    }
    case DV_OP_wait_flag: {
        const int src = static_cast<int>(in.f[DV_FLD(FLAG, src)].i);
        Flag &f = flag(src, DV_PIPE_S, static_cast<int>(in.f[DV_FLD(FLAG, id)].i));
        f.set = false;
        f.cleared = ts_;
        invalidate(src); // a set_flag waiting for this wait may start
        hz_.merge(DV_PIPE_S, f.vc);
        path_.release(f.node);
        f.node = CriticalPath::kNone;
        break;
    }
    case DV_OP_pipe_barrier:
        if (check_hazards_)
            hz_.join_all();
        break;
    case DV_OP_set_cross_flag: {
        const Ref here = scalar_ref(ts_);
        path_.assign(s_node_, here);
        int rc2 = chip_.cross_set(index_, static_cast<int>(in.f[DV_FLD(XSET, mode)].i),
                                  static_cast<unsigned>(in.f[DV_FLD(XSET, id)].i), ts_, here, err);
        path_.release(here);
        if (rc2 != DV_OK)
            return locate(err, rc2, in, pending_index_, "%s", err->msg);
        invalidate_all(); // mode 0 can signal this core too
        break;
    }
    case DV_OP_wait_cross_flag:
        take_cross(static_cast<size_t>(in.f[DV_FLD(XWAIT, id)].i));
        break;
    default:
        break;
    }
    ops_.cycles[in.op][DV_PIPE_S] += stall + busy;
    advance_scalar(ts_ + busy, DV_STALL_SCALAR);
    return DV_OK;
}

inline int AiCore::issue(cycles_t t, dv_error_t *err)
{
    const dv_insn_t &in = pend_->insn;
    const int p = pending_pipe_;
    const dv_pipe_t cp = static_cast<dv_pipe_t>(p < DV_PIPE_COUNT ? p : DV_PIPE_S);
    const cycles_t issue_cost = p_.scalar.issue_cycles;
    const cycles_t stall = t > ts_ ? t - ts_ : 0;
    if (t > ts_)
        issue_stalled(t);
    have_pending_ = false;
    ops_.count[in.op][cp]++; // (and counters_.instructions, pipe_insns: end_kernel sums them)
    if (p == DV_PIPE_S)
        return issue_scalar(stall, err);

    // Issue into the pipe's queue: the pipe, waiting for it, has work again.
    advance_scalar(ts_ + issue_cost, DV_STALL_SCALAR);
    if (starving_ >> p & 1)
        commit(p);
    if (q_[p].empty())
        invalidate(p);
    // The stream wrote the instruction into pend_: its entry joins the queue (in stays valid).
    Entry &e = *pend_;
    q_[p].push(pend_);
    pend_ = *--spare_top_;
    queued_ |= 1u << p;
    e.enq = ts_;
    e.index = pending_index_;
    if (flag_op(in.op)) {
        e.nr = 0;
        e.node = s_node_;
        path_.retain(e.node);
        return issue_flag(e, p, err);
    }
    const dv_op_spec_t *os = dv_op_spec(static_cast<dv_op_t>(in.op));
    if (os->cost == DV_COST_SYNC) {
        // A flag or barrier touches no memory and never executes: start_head reads neither its
        // vector state nor its clock (those of the executing instructions only), so they are not kept.
        e.nr = 0;
    } else if (os->pipe == DV_PIPE_V) { // a vector instruction (not a flag routed to V)
        e.vs = vs_;
        e.vc = hz_.clock(DV_PIPE_S);
        dv_vgeom_t g;
        e.nr = dv_vec_footprint(&in, &vs_, e.r, &g);
        const Cost c = vec_.cost(in, g);
        e.v_occupy = c.occupy;
        e.v_latency = c.latency;
        e.v_conflict = c.conflict;
    } else {
        if (data_) // (only dv_exec reads it off the V pipe)
            e.vs = vs_;
        e.vc = hz_.clock(DV_PIPE_S);
        e.nr = p == DV_PIPE_M ? dv_footprint(&in, &vs_, e.r) : dv_xfer_footprint(&in, &vs_, e.r, &e.x);
    }
    e.node = s_node_;
    path_.retain(e.node);
    if (!plain_access(e, p)) {
        const int rc = check_access(e, p, err);
        if (rc != DV_OK)
            return rc;
    }
    if ((p == DV_PIPE_M || p == DV_PIPE_FIX) && unit_flag(in) == 3) {
        Unit u{};
        u.index = e.index;
        if (l0c_range(e, p == DV_PIPE_M, u.lo, u.hi)) {
            auto &v = unit_[p == DV_PIPE_M ? 0 : 1];
            if (v.size() >= 2 * kUnitKeep) // keep the newest: the older are behind every queue head
                v.erase(v.begin(), v.begin() + kUnitKeep);
            v.push_back(u);
        }
    }
    return DV_OK;
}

int AiCore::start_head(int p, cycles_t t, dv_error_t *err)
{
    Entry &e = q_[p].front();
    const dv_insn_t &in = e.insn;
    const cycles_t base = std::max(e.enq, free_[p]);
    // Stall attribution: the cycles before t the pipe did not work.  While the instruction was
    // still being issued they are the scalar unit's; after, they are what the head waited for.
    if (t > cur_[p]) {
        charge_wait(p, std::min(t, std::max(cur_[p], e.enq)), DV_STALL_SCALAR);
        charge_wait(p, t, in.op == DV_OP_wait_cross_flag ? DV_STALL_CROSS : flag_cause(p)); // the pipe's own completion
    }
    // Critical path: the start waited for whichever constraint set t (a flag or another core
    // first, then the pipe's own completion or its being free, then the issue).
    Ref pred = CriticalPath::kNone;
    switch (in.op) {
    case DV_OP_wait_cross_flag: {
        const Arrival &a = cross_[static_cast<size_t>(in.f[DV_FLD(XWAIT, id)].i)].front();
        if (a.time + p_.sync.cross_latency_cycles == t)
            path_.assign(pred, a.node);
        break;
    }
    case DV_OP_set_cross_flag:
    case DV_OP_pipe_barrier:
        if (done_[p] == t)
            pred = done_ref(p);
        break;
    default:
        if (p == DV_PIPE_M && t > free_[p] && t == done_[p] && t == acc_wait(e))
            pred = done_ref(p); // the accumulation it continues
        break;
    }
    if (!pred)
        pred = free_[p] == t ? free_ref(p) : path_at(e.node, e.enq, path_key(DV_CRIT_ISSUE, DV_PIPE_S));
    const uint32_t key = path_key(in.op, p);
    const Ref node = path_from(pred, t, key);

    cycles_t cycles = 0; // what the instruction kept its pipe for
    switch (in.op) {
    case DV_OP_pipe_barrier:
        counters_.stall_flag_cycles += t - base;
        counters_.pipe_wait_cycles[p] += t - base;
        cycles = t - base;
        free_[p] = t;
        break;
    case DV_OP_set_cross_flag: {
        int rc = chip_.cross_set(index_, static_cast<int>(in.f[DV_FLD(XSET, mode)].i),
                                 static_cast<unsigned>(in.f[DV_FLD(XSET, id)].i), t, node, err);
        if (rc != DV_OK) {
            path_.release(node);
            return locate(err, rc, in, e.index, "%s", err->msg);
        }
        invalidate_all(); // mode 0 can signal this core too
        free_[p] = t;
        break;
    }
    case DV_OP_wait_cross_flag: {
        take_cross(static_cast<size_t>(in.f[DV_FLD(XWAIT, id)].i));
        counters_.stall_cross_cycles += t - base;
        counters_.pipe_wait_cycles[p] += t - base;
        cycles = t - base;
        free_[p] = t;
        break;
    }
    default: {
        Cost c;
        if (p == DV_PIPE_V) {
            c.occupy = e.v_occupy;
            c.latency = e.v_latency;
            c.conflict = e.v_conflict;
            counters_.bank_conflict_cycles += c.conflict;
            counters_.stall[p][DV_STALL_BANK_CONFLICT] += c.conflict;
        } else if (p == DV_PIPE_M) {
            c = cube_.cost(in);
        } else {
            c = dma_[p]->cost(in, e.x, t, chip_.gm_addrs());
            counters_.stall[p][c.mem_hbm ? DV_STALL_HBM : DV_STALL_L2] += c.mem_wait;
        }
        // Unit flags: the instruction streams behind the one that hands the tile over (head_time
        // started it at that one's first fractal): it cannot finish its last fractal before that one
        // has, plus its own time for one fractal.
        const int uf = (p == DV_PIPE_M || p == DV_PIPE_FIX) ? unit_flag(in) : 0;
        cycles_t frac = 0; // (only an instruction with a unit flag reads it)
        if (uf) {
            frac = p == DV_PIPE_M ? unit_step(in, c) : dv_ceil_div(1024, p_.dma.fix.l0c_bytes_per_cycle);
            if (const Unit *u = unit_before(p == DV_PIPE_M ? 1 : 0, e)) {
                if (u->last + frac > t + c.occupy + c.latency)
                    c.occupy = u->last + frac - t - c.latency;
                if (check_hazards_)
                    hz_.merge(static_cast<dv_pipe_t>(p), u->vc);
            }
        }
        if (in.op == DV_OP_vreducev2) // RSVD_CNT: what get_rsvd_cnt reads
            rsvd_cnt_ = dv_rsvd_count(&in, &e.vs, data_ ? view_.buf[DV_SPACE_UB] : nullptr);
        if (data_) {
            int rc = dv_exec(&in, &e.vs, &view_, err);
            if (rc != DV_OK) {
                path_.release(node);
                return locate(err, rc, in, e.index, "%s", err->msg);
            }
        }
        const cycles_t end = t + c.occupy + c.latency;
        if (check_hazards_)
            for (const dv_hazard_t &h : hz_.execute(static_cast<dv_pipe_t>(p), e.vc, e.index, in.line, e.r, e.nr))
                report_hazard(h);
        if (uf == 3) // it hands its L0C tile over: to the FixPipes (mmad) or the next mmads (FixPipe)
            for (Unit &u : unit_[p == DV_PIPE_M ? 0 : 1])
                if (u.index == e.index) {
                    u.started = true;
                    u.first = p == DV_PIPE_M ? t + frac + c.latency : t + frac;
                    u.last = end;
                    u.vc = hz_.clock(static_cast<dv_pipe_t>(p));
                    invalidate(p == DV_PIPE_M ? DV_PIPE_FIX : DV_PIPE_M);
                }
        for (int k = 0; k < e.nr; k++)
            if (e.r[k].space != DV_SPACE_GM)
                buf_[e.r[k].space]->access(e.r[k], t, end);
        free_[p] = t + c.occupy;
        if (p == DV_PIPE_M)
            for (int k = 0; k < e.nr; k++)
                if (e.r[k].space == DV_SPACE_L0C && e.r[k].write) {
                    acc_lo_ = e.r[k].lo;
                    acc_hi_ = e.r[k].hi;
                    acc_done_ = end;
                }
        if (end > done_[p]) {
            path_.assign(done_node_[p], node);
            done_key_[p] = key;
        }
        done_[p] = std::max(done_[p], end);
        add_busy(p, t, end);
        nwaits_[p] = 0; // the block cannot end before this instruction does
        slice(p, in, t, end);
        cycles = end - t;
        break;
    }
    }
    ops_.cycles[in.op][p] += cycles;
    if (slicing_) {
        if (in.op == DV_OP_set_cross_flag)
            slice(p, in, t, t);
        else if (in.op == DV_OP_wait_cross_flag || in.op == DV_OP_pipe_barrier)
            slice(p, in, base, t); // the time the pipe was held
    }
    finish_head(p, t, node, key);
    return DV_OK;
}

// Pipe p's head started at t as critical-path node `node` (the caller's reference, handed over):
// it leaves its queue.
inline void AiCore::finish_head(int p, cycles_t t, Ref node, uint32_t key)
{
    const bool was_full = q_[p].full();
    path_.release(q_[p].front().node);
    free_entry(q_[p].pop());
    invalidate(p);
    if (q_[p].empty()) {
        queued_ &= ~(1u << p);
        cand_t_[p] = kNever;
        starve(p);
    }
    // A scalar unit stalled on this full queue issues once the head has left it.
    if (was_full && have_pending_ && pending_pipe_ == p && t > ts_) {
        counters_.stall_queue_full_cycles += t - ts_;
        counters_.pipe_wait_cycles[DV_PIPE_S] += t - ts_;
        advance_scalar(t, queue_cause(p));
        path_.assign(s_node_, node);
    }
    path_.move(start_node_[p], node);
    start_key_[p] = key;
}

// check_access's flag checks (set_flag / wait_flag in pipe p), which also find the flag once for
// head_time and start_flag; anything amiss goes to check_access, which reports it.
int AiCore::issue_flag(Entry &e, int p, dv_error_t *err)
{
    const dv_insn_t &in = e.insn;
    const int src = static_cast<int>(in.f[DV_FLD(FLAG, src)].i), dst = static_cast<int>(in.f[DV_FLD(FLAG, dst)].i);
    const int64_t id = in.f[DV_FLD(FLAG, id)].i;
    // p is src or dst: both existing is check_access's first test passed too.
    if (src == dst || !has_pipe(static_cast<dv_pipe_t>(src)) || !has_pipe(static_cast<dv_pipe_t>(dst)) ||
        static_cast<uint64_t>(id) >= p_.sync.event_ids)
        return check_access(e, p, err);
    const unsigned i = flag_index(src, dst, static_cast<int>(id));
    Flag &f = flag_at(i);
    if (in.op == DV_OP_wait_flag)
        f.issued--;
    else if (f.issued > 0) // set twice without a wait
        return check_access(e, p, err);
    else
        f.issued++;
    e.fi = static_cast<uint16_t>(i);
    return DV_OK;
}

// The start of a set_flag or wait_flag (flag_op) at the head of pipe p: start_head's charges, path
// and end (finish_head's) with the flag's cases resolved once; start_head takes every other head.
// Critical path: the start's node is what it waited for (the flag, a wait_flag's, or the pipe being
// free) or a link from there to t (from its issue otherwise), and the pipe's free node after it
// (free_ref: start_node_ extended to free_, which is t after a flag).  Waiting for the flag or the
// pipe, that node is just what start_node_, start_key_ and free_ = t stand for: it is left to
// free_ref to make, when a later start or this flag's set needs it (a flag fired later never does).
//
// flag_begin: the stall charges before t (the cause: a wait's flag, a set's own pipe's completion,
// both flag_cause(src)).
inline void AiCore::flag_begin(int p, cycles_t t, const Entry &e, int src)
{
    if (t > cur_[p]) {
        charge_wait(p, std::min(t, std::max(cur_[p], e.enq)), DV_STALL_SCALAR);
        charge_wait(p, t, flag_cause(src));
    }
}

// The start's node when it is neither the flag's nor the pipe's free node: a link to t from its
// issue, which becomes start_node_ (returned: start_node_'s reference).
inline AiCore::Ref AiCore::flag_linked(int p, cycles_t t, const Entry &e, uint32_t key)
{
    const Ref node = path_from(path_at(e.node, e.enq, path_key(DV_CRIT_ISSUE, DV_PIPE_S)), t, key);
    path_.move(start_node_[p], node);
    start_key_[p] = key;
    return node;
}

// finish_head's, with the node made only for a scalar unit stalled on this full queue (unstall).
inline void AiCore::flag_end(int p, cycles_t t, Entry &e, Ref node)
{
    const bool was_full = q_[p].full();
    path_.release(e.node);
    free_entry(q_[p].pop());
    invalidate(p);
    if (q_[p].empty()) {
        queued_ &= ~(1u << p);
        cand_t_[p] = kNever;
        starve(p);
    }
    if (was_full && have_pending_ && pending_pipe_ == p && t > ts_)
        unstall(p, t, node);
}

// A scalar unit stalled on pipe p's full queue issues once the flag at its head left it at t.
inline void AiCore::unstall(int p, cycles_t t, Ref node)
{
    counters_.stall_queue_full_cycles += t - ts_;
    counters_.pipe_wait_cycles[DV_PIPE_S] += t - ts_;
    advance_scalar(t, queue_cause(p));
    if (!node)
        node = free_node(p);
    path_.assign(s_node_, node);
}

int AiCore::set_twice(int p, const Entry &e, dv_error_t *err)
{
    const dv_insn_t &in = e.insn;
    return locate(err, DV_ERR_STATE, in, e.index, "event %s->%s id %lld set twice without a wait",
                  dv_pipe_name(static_cast<dv_pipe_t>(p)), dv_pipe_name(static_cast<dv_pipe_t>(in.f[DV_FLD(FLAG, dst)].i)),
                  static_cast<long long>(in.f[DV_FLD(FLAG, id)].i));
}

inline int AiCore::start_set(int p, cycles_t t, Entry &e, dv_error_t *err)
{
    const dv_insn_t &in = e.insn;
    Flag &f = flags_[e.fi];
    if (f.set)
        return set_twice(p, e, err);
    flag_begin(p, t, e, p); // (a set's src is p)
    Ref node = CriticalPath::kNone; // start_node_ once made (free_node); none: not made yet
    if (free_[p] != t)
        node = flag_linked(p, t, e, path_key(DV_OP_set_flag, p));
    free_[p] = t; // a set starts once the pipe is free (t >= base)
    // Fires when the pipe's earlier work has completed (done_), which may be after t: the
    // pipe goes on meanwhile; the flag's path node is then that completion.
    f.set = true;
    f.time = std::max(t, done_[p]);
    f.vc = hz_.clock(static_cast<dv_pipe_t>(p));
    if (f.time > t) {
        path_.assign(f.node, done_node(p));
    } else {
        if (!node)
            node = free_node(p);
        path_.assign(f.node, node);
    }
    // Only a set_flag or wait_flag head reads a flag (a pipe whose head changed since its
    // candidate was worked out is stale already; S has no queue, so no bit in flagm_).
    const int dst = static_cast<int>(in.f[DV_FLD(FLAG, dst)].i);
    if (flagm_ >> dst & 1)
        invalidate(dst);
    slice(p, in, f.time, f.time); // it kept its pipe for no cycles (ops_.cycles)
    flag_end(p, t, e, node);
    return DV_OK;
}

inline void AiCore::start_wait(int p, cycles_t t, Entry &e)
{
    const dv_insn_t &in = e.insn;
    Flag &f = flags_[e.fi];
    const int src = static_cast<int>(in.f[DV_FLD(FLAG, src)].i);
    const cycles_t base = std::max(e.enq, free_[p]);
    flag_begin(p, t, e, src);
    Ref node = CriticalPath::kNone; // as start_set's
    if (f.node && f.time + p_.sync.flag_latency_cycles == t) {
        path_.move(start_node_[p], f.node); // the flag's reference: the wait is a link from it
        f.node = CriticalPath::kNone;
        start_key_[p] = path_key(DV_OP_wait_flag, p);
    } else if (free_[p] != t) {
        node = flag_linked(p, t, e, path_key(DV_OP_wait_flag, p));
    }
    free_[p] = t; // a wait holds the pipe until t
    f.set = false;
    f.cleared = t;
    if (flagm_ >> src & 1)
        invalidate(src); // a set_flag waiting for this wait may start (as start_set's dst)
    hz_.merge(static_cast<dv_pipe_t>(p), f.vc);
    path_.release(f.node);
    f.node = CriticalPath::kNone;
    counters_.stall_flag_cycles += t - base;
    counters_.pipe_wait_cycles[p] += t - base;
    ops_.cycles[DV_OP_wait_flag][p] += t - base;
    slice(p, in, base, t); // the time the pipe was held
    flag_end(p, t, e, node);
}

inline int AiCore::start_flag(int p, cycles_t t, dv_error_t *err)
{
    Entry &e = q_[p].front();
    if (e.insn.op == DV_OP_wait_flag) {
        start_wait(p, t, e);
        return DV_OK;
    }
    return start_set(p, t, e, err);
}

} // namespace dv
