// model/DmaEngine.cpp
#include "DmaEngine.h"

#include <algorithm>

#include "dv/intmath.h"

namespace dv {

DmaEngine::DmaEngine(sc_core::sc_module_name name, const dv_config_t &cfg, dv_pipe_t pipe, L2Cache &l2, unsigned core)
    : sc_module(name), cfg_(cfg), pipe_(pipe), l2_(l2), core_(core)
{
}

cycles_t DmaEngine::engine_cycles(const dv_xfer_t &x, uint64_t base, uint64_t cap) const
{
    // Summed in 1/cap-cycle units and rounded once, so a 128 B micro-op costs 128/cap cycles.
    const uint64_t U = cfg_.gm_uop_bytes;
    const uint64_t uop = (pipe_ == DV_PIPE_MTE2 ? cfg_.mte2_uop_cycles : cfg_.mte3_uop_cycles) * cap;
    auto piece = [&](uint64_t b) { return std::max<uint64_t>(uop, b); };
    const uint64_t full = piece(U), open = cfg_.gm_burst_overhead_bytes;
    uint64_t total = 0;
    for (uint64_t i = 0; i < x.bursts; i++) {
        const uint64_t a = base + dv_xfer_run_offset(&x, i), b = x.burst_bytes;
        const uint64_t head = std::min(b, U - a % U), rest = b - head;
        total += open + piece(head) + (rest / U) * full + (rest % U ? piece(rest % U) : 0);
    }
    return dv_ceil_div(total, cap);
}

namespace {
struct RunCtx {
    const dv_xfer_t *x;
    uint64_t base;
};
uint64_t run_addr(const void *ctx, uint64_t i)
{
    const RunCtx *c = static_cast<const RunCtx *>(ctx);
    return c->base + dv_xfer_run_offset(c->x, i);
}
} // namespace

Cost DmaEngine::cost(const dv_insn_t &in, cycles_t t, const uint64_t *gm_addr)
{
    const dv_op_spec_t *os = dv_op_spec(static_cast<dv_op_t>(in.op));
    dv_xfer_t x{};
    dv_xfer_shape(&in, &x);
    Cost c;
    switch (os->cost) {
    case DV_COST_LOAD2D:
        c.occupy = dv_ceil_div(x.dst_bytes, os->dst_space == DV_SPACE_L0A ? cfg_.mte1_l0a_bytes_per_cycle
                                                                        : cfg_.mte1_l0b_bytes_per_cycle);
        c.latency = cfg_.mte1_load2d_latency_cycles;
        return c;
    case DV_COST_LOAD3D:
        c.occupy = dv_ceil_div(x.dst_bytes, cfg_.mte1_l0a_bytes_per_cycle);
        c.latency = cfg_.mte1_load3d_latency_cycles;
        return c;
    case DV_COST_FIX_L1:
        c.occupy = cfg_.fix_issue_cycles + dv_ceil_div(x.src_bytes, cfg_.fix_l0c_bytes_per_cycle);
        c.latency = cfg_.fix_latency_cycles;
        return c;
    default:
        break;
    }
    const bool write = os->cost == DV_COST_GM_WRITE;
    const uint64_t addr_field = write ? in.f[0].u : in.f[1].u; // dst / src are the first two fields
    const uint64_t base = gm_addr[DV_ADDR_ARG(addr_field)];
    uint64_t issue, local_bpc, cap;
    if (!write) {
        issue = cfg_.mte2_issue_cycles;
        local_bpc = os->dst_space == DV_SPACE_UB ? cfg_.mte2_ub_bytes_per_cycle : cfg_.mte2_l1_bytes_per_cycle;
        cap = cfg_.gm_core_read_bytes_per_cycle;
    } else if (pipe_ == DV_PIPE_FIX) {
        issue = cfg_.fix_issue_cycles;
        local_bpc = cfg_.fix_l0c_bytes_per_cycle;
        cap = cfg_.gm_core_write_bytes_per_cycle;
    } else {
        issue = cfg_.mte3_issue_cycles;
        local_bpc = cfg_.mte3_local_bytes_per_cycle;
        cap = cfg_.gm_core_write_bytes_per_cycle;
    }
    const uint64_t gm_bytes = x.bursts * x.burst_bytes;
    const cycles_t engine = engine_cycles(x, base, cap);
    const cycles_t local = dv_ceil_div(write ? x.src_bytes : x.dst_bytes, local_bpc);
    RunCtx rc{&x, base};
    GmRuns runs;
    runs.count = x.bursts;
    runs.bytes = x.burst_bytes;
    runs.offset = run_addr;
    runs.ctx = &rc;
    const GmResult mem = l2_.transfer(t + issue, runs, write, core_);
    c.occupy = std::max<cycles_t>(issue + std::max(engine, local), mem.done > t ? mem.done - t : 0);
    if (write) {
        gm_write_bytes += gm_bytes;
        c.latency = cfg_.mte3_latency_cycles;
    } else {
        gm_read_bytes += gm_bytes;
        c.latency = cfg_.mte2_latency_cycles + (mem.miss ? l2_.hbm_latency() : 0);
    }
    return c;
}

} // namespace dv
