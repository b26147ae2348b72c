// model/DmaEngine.cpp
#include "DmaEngine.h"

#include <algorithm>

#include "dv/intmath.h"

namespace dv {

DmaEngine::Params DmaEngine::Params::from(const dv_config_t &cfg)
{
    Params p{};
    p.gm = {cfg.gm_uop_bytes, cfg.gm_burst_overhead_bytes, cfg.gm_core_read_bytes_per_cycle,
            cfg.gm_core_write_bytes_per_cycle, cfg.gm_align_bytes, cfg.l2_line_bytes};
    p.mte1 = {cfg.mte1_l0a_bytes_per_cycle, cfg.mte1_l0b_bytes_per_cycle, cfg.mte1_load2d_latency_cycles,
              cfg.mte1_load3d_latency_cycles};
    p.mte2 = {cfg.mte2_issue_cycles, cfg.mte2_uop_cycles, cfg.mte2_latency_cycles, cfg.mte2_ub_bytes_per_cycle,
              cfg.mte2_l1_bytes_per_cycle, cfg.mte2_outstanding_bursts};
    p.mte3 = {cfg.mte3_issue_cycles, cfg.mte3_uop_cycles, cfg.mte3_latency_cycles, cfg.mte3_local_bytes_per_cycle};
    p.fix = {cfg.fix_issue_cycles, cfg.fix_latency_cycles, cfg.fix_l0c_bytes_per_cycle};
    return p;
}

DmaEngine::DmaEngine(sc_core::sc_module_name name, const Params &p, dv_pipe_t pipe, unsigned core)
    : sc_module(name), p_(p), pipe_(pipe), core_(core)
{
}

cycles_t DmaEngine::engine_cycles(const dv_xfer_t &x, uint64_t base, uint64_t cap)
{
    // Summed in 1/cap-cycle units and rounded once, so a 128 B micro-op costs 128/cap cycles.
    const uint64_t U = p_.gm.uop_bytes;
    const uint64_t uop = (pipe_ == DV_PIPE_MTE2 ? p_.mte2.uop_cycles : p_.mte3.uop_cycles) * cap;
    auto piece = [&](uint64_t b) { return std::max<uint64_t>(uop, b); };
    const uint64_t full = piece(U), open = p_.gm.burst_overhead_bytes;
    // A burst's cost depends on its start only modulo U.
    auto burst = [&](uint64_t a) {
        const uint64_t b = x.burst_bytes, head = std::min(b, U - a % U), rest = b - head;
        return open + piece(head) + (rest / U) * full + (rest % U ? piece(rest % U) : 0);
    };
    uint64_t total = 0;
    if (bursts_alike(x)) {
        // every burst starts alike: one burst's cost, remembered for the next transfer like it (a
        // stream of copies of one shape computes it once)
        const uint64_t start = (base + x.gm_lo) % U;
        if (x.burst_bytes != memo_.bytes || start != memo_.start || cap != memo_.cap)
            memo_ = BurstMemo{x.burst_bytes, start, cap, burst(start)};
        total = x.bursts * memo_.cost;
    } else
        for (uint64_t i = 0; i < x.bursts; i++)
            total += burst(base + dv_xfer_run_offset(&x, i));
    return dv_ceil_div(total, cap);
}

GmResult DmaEngine::read(cycles_t t, const GmRuns &runs, bool shape_aligned)
{
    const uint64_t A = p_.gm.align_bytes, L = p_.gm.line_bytes;
    // Every run aligned (its start, length and strides multiples of A): all of it through L2.
    if (!runs.list && shape_aligned && runs.base % A == 0)
        return l2->transfer(t, runs, false, core_);
    uint64_t lines = 0, next = 0; // next: the first line not yet counted (bursts go up in address)
    uint64_t requests = 0;        // unaligned bursts: each reaches HBM as one request that bypasses L2
    uint64_t queued = 0;          // of those, bursts that found another core's request to a line in flight
    aligned_.clear();
    lines_.clear();
    GmRuns::Cursor cur(runs);
    for (uint64_t i = 0; i < runs.count; i++) {
        const uint64_t a = cur.next(), e = a + runs.bytes;
        if (a % A == 0 && e % A == 0) {
            aligned_.push_back(a);
            continue;
        }
        requests++;
        const uint64_t first = std::max(a / L, next), last = (e - 1) / L;
        bool same = false;
        for (uint64_t l = a / L; l <= last; l++) {
            same = l2->hbm->same_address(t, l, core_) || same;
            if (l >= first)
                lines_.push_back(l);
        }
        queued += same;
        if (last >= first)
            lines += last - first + 1;
        next = std::max(next, last + 1);
    }
    if (lines == 0)
        return l2->transfer(t, runs, false, core_);
    GmResult r;
    if (!aligned_.empty()) {
        GmRuns kept = runs;
        kept.count = aligned_.size();
        kept.list = aligned_.data();
        r = l2->transfer(t, kept, false, core_);
    }
    unaligned_lines += lines;
    const cycles_t hbm_done = l2->hbm->transfer(t, lines * L, false, core_, requests, queued);
    for (uint64_t l : lines_)
        l2->hbm->remember(t, hbm_done, l, core_);
    r.hbm = r.hbm || hbm_done > r.done;
    r.done = std::max(r.done, hbm_done);
    r.miss = true;
    return r;
}

bool DmaEngine::same_shape(const dv_xfer_t &x) const
{
    const dv_xfer_t &m = shape_.x;
    return x.burst_bytes == m.burst_bytes && x.bursts == m.bursts && x.src_bytes == m.src_bytes &&
           x.dst_bytes == m.dst_bytes && x.gm_stride == m.gm_stride && x.group == m.group &&
           x.group_stride == m.group_stride;
}

void DmaEngine::learn_shape(const dv_insn_t &in, const dv_op_spec_t &os, const dv_xfer_t &x)
{
    Shape &m = shape_;
    m.op = in.op;
    m.x = x;
    m.write = os.cost == DV_COST_GM_WRITE;
    uint64_t local_bpc;
    if (!m.write) {
        m.issue = p_.mte2.issue_cycles;
        local_bpc = os.dst_space == DV_SPACE_UB ? p_.mte2.ub_bytes_per_cycle : p_.mte2.l1_bytes_per_cycle;
        m.cap = p_.gm.core_read_bytes_per_cycle;
    } else if (pipe_ == DV_PIPE_FIX) {
        m.issue = p_.fix.issue_cycles;
        local_bpc = p_.fix.l0c_bytes_per_cycle;
        m.cap = p_.gm.core_write_bytes_per_cycle;
    } else {
        m.issue = p_.mte3.issue_cycles;
        local_bpc = p_.mte3.local_bytes_per_cycle;
        m.cap = p_.gm.core_write_bytes_per_cycle;
    }
    m.local = dv_ceil_div(m.write ? x.src_bytes : x.dst_bytes, local_bpc);
    const uint64_t A = p_.gm.align_bytes;
    m.uniform = bursts_alike(x);
    m.aligned = x.burst_bytes % A == 0 && x.gm_stride % A == 0 && (x.group == 0 || x.group_stride % A == 0);
    m.start = ~0ull;
}

Cost DmaEngine::cost(const dv_insn_t &in, const dv_xfer_t &x, cycles_t t, const uint64_t *gm_addr)
{
    Cost c;
    if (in.op != shape_.op || !same_shape(x)) {
        const dv_op_spec_t *os = dv_op_spec(static_cast<dv_op_t>(in.op));
        switch (os->cost) {
        case DV_COST_LOAD2D:
            c.occupy = dv_ceil_div(x.dst_bytes, os->dst_space == DV_SPACE_L0A ? p_.mte1.l0a_bytes_per_cycle
                                                                            : p_.mte1.l0b_bytes_per_cycle);
            c.latency = p_.mte1.load2d_latency_cycles;
            return c;
        case DV_COST_LOAD3D:
            c.occupy = dv_ceil_div(x.dst_bytes, os->dst_space == DV_SPACE_L0A ? p_.mte1.l0a_bytes_per_cycle
                                                                            : p_.mte1.l0b_bytes_per_cycle);
            c.latency = p_.mte1.load3d_latency_cycles;
            return c;
        case DV_COST_FIX_L1:
            c.occupy = p_.fix.issue_cycles + dv_ceil_div(x.src_bytes, p_.fix.l0c_bytes_per_cycle);
            c.latency = p_.fix.latency_cycles;
            return c;
        default:
            break;
        }
        learn_shape(in, *os, x);
    }
    Shape &m = shape_;
    const bool write = m.write;
    const uint64_t addr_field = write ? in.f[0].u : in.f[1].u; // dst / src are the first two fields
    const uint64_t alias = gm_addr[DV_ADDR_ARG(addr_field)]; // the argument's cache mode rides on it
    const uint64_t base = L2Cache::strip(alias);
    const cycles_t issue = m.issue;
    cycles_t engine;
    if (m.uniform) { // the engine's cycles depend on the shape and the bursts' start modulo gm.uop_bytes
        const uint64_t start = (base + x.gm_lo) % p_.gm.uop_bytes;
        if (start != m.start) {
            m.start = start;
            m.engine = engine_cycles(x, base, m.cap);
        }
        engine = m.engine;
    } else
        engine = engine_cycles(x, base, m.cap);
    const uint64_t gm_bytes = x.bursts * x.burst_bytes;
    GmRuns runs;
    runs.count = x.bursts;
    runs.bytes = x.burst_bytes;
    runs.base = base + x.gm_lo;
    runs.stride = x.gm_stride;
    runs.group = x.group;
    runs.group_stride = x.group_stride;
    runs.mode = L2Cache::mode_of(alias);
    const GmResult mem = write ? l2->transfer(t + issue, runs, true, core_) : read(t + issue, runs, m.aligned);
    const cycles_t own = issue + std::max(engine, m.local);
    c.occupy = std::max<cycles_t>(own, mem.done > t ? mem.done - t : 0);
    c.mem_wait = c.occupy - own;
    c.mem_hbm = mem.hbm;
    if (write) {
        gm_write_bytes += gm_bytes;
        c.latency = p_.mte3.latency_cycles;
    } else {
        gm_read_bytes += gm_bytes;
        c.latency = p_.mte2.latency_cycles + (mem.miss ? l2->hbm_latency() : 0);
        // At most mte2.outstanding_bursts bursts in flight, each for the read latency.
        const cycles_t inflight = dv_ceil_div(x.bursts * c.latency, p_.mte2.outstanding_bursts);
        if (inflight > c.occupy) {
            c.occupy = inflight;
            c.mem_wait = c.occupy - own;
        }
    }
    return c;
}

} // namespace dv
