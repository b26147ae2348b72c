// model/Chip.cpp
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "Chip.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace dv {

Chip::Chip(sc_core::sc_module_name name, const dv_config_t &cfg, const dv_kernel_info_t *only)
    : sc_module(name), cfg_(cfg), hbm_("hbm", Hbm::Params::from(cfg_)), l2_("l2", L2Cache::Params::from(cfg_))
{
    // Connections between the shared components (each core binds its own in its constructor: its
    // DMA engines' l2 to l2_, its services to this chip).
    l2_.hbm.bind(hbm_);

    // The cores, their types, names and numbering: the core topology (configs/topology.def).
    char nm[32];
    n_aic_ = dv_topo_type_cores(&cfg_, DV_CORE_AIC);
    n_aiv_ = dv_topo_type_cores(&cfg_, DV_CORE_AIV);
    // Each SystemC module costs its name's registration (~3 k host instructions; a 910B2 core has
    // about eight), a fixed cost of every run: a one-kernel caller has only that kernel's cores built.
    cores_.resize(dv_topo_cores(&cfg_));
    std::vector<uint32_t> build;
    if (only)
        build = kernel_cores(*only);
    else
        for (uint32_t i = 0; i < cores_.size(); i++)
            build.push_back(i);
    for (uint32_t i : build)
        cores_[i] = std::make_unique<AiCore>(dv_topo_core_name(&cfg_, i, nm, sizeof nm),
                                             AiCore::Params::from(cfg_, dv_topo_core_type(&cfg_, i)), *this, i, l2_, path_);
    mode2_.resize(n_aiv_);
}

unsigned Chip::group_of(const AiCore &c) const { return dv_topo_core_group(&cfg_, c.index()); }

std::vector<uint32_t> Chip::kernel_cores(const dv_kernel_info_t &info) const
{
    std::vector<uint32_t> v;
    for (uint32_t i = 0; i < cores_.size(); i++)
        if (dv_topo_runs(dv_topo_core_type(&cfg_, i), info.kind) &&
            (info.kind != DV_KIND_MIX || dv_topo_core_group(&cfg_, i) < std::min<uint64_t>(info.blocks, cfg_.chip_ai_cores)))
            v.push_back(i);
    if (info.kind != DV_KIND_MIX && v.size() > info.blocks)
        v.resize(info.blocks);
    return v;
}

bool Chip::next_block(unsigned core, uint32_t &block, uint32_t &sub)
{
    const AiCore &c = *cores_[core];
    if (kernel_->info.kind != DV_KIND_MIX) {
        // The first wave goes to the cores in order; later blocks to whichever core is free first.
        uint32_t &first = group_next_[c.index()];
        if (first != UINT32_MAX) {
            block = first;
            first = UINT32_MAX;
            if (block < kernel_->info.blocks) {
                sub = DV_SUB_MAIN;
                return true;
            }
        }
        if (next_block_ >= kernel_->info.blocks)
            return false;
        block = next_block_++;
        sub = DV_SUB_MAIN;
        return true;
    }
    uint32_t &next = group_next_[c.index()];
    if (next >= kernel_->info.blocks)
        return false;
    block = next;
    next += static_cast<uint32_t>(cfg_.chip_ai_cores);
    sub = dv_topo_core_sub(&cfg_, c.index(), DV_KIND_MIX);
    return true;
}

int Chip::open_stream(uint32_t block, uint32_t sub, dv_stream_t **s, dv_error_t *err)
{
    return kernel_->open(kernel_, block, sub, s, err);
}

void Chip::fail(const dv_error_t &err)
{
    if (aborting_)
        return;
    error_ = err;
    aborting_ = true;
}

void Chip::gm_view(dv_mem_t &m) const
{
    m.ngm = gm_->nargs;
    m.gm = gm_->data;
    m.gm_size = gm_->bytes;
}

bool Chip::report_hazard(unsigned core, uint32_t block, uint32_t sub, const dv_hazard_t &h)
{
    hazards_++;
    if (hazard_log_.size() < DV_HAZARD_RECORDS) {
        hazard_log_.push_back(h);
        hazard_log_.back().core = core;
        hazard_log_.back().block = block;
        hazard_log_.back().sub = sub;
    }
    return !hazards_full();
}

int Chip::cross_set(unsigned core, int mode, unsigned id, cycles_t t, CriticalPath::Ref node, dv_error_t *err)
{
    const AiCore &c = *cores_[core];
    std::vector<AiCore *> targets;
    const unsigned g = group_of(c), aiv = static_cast<unsigned>(cfg_.chip_aiv_per_core);
    auto aiv_of = [&](unsigned group, unsigned k) { return cores_[dv_topo_group_core(&cfg_, DV_CORE_AIV, group, k)].get(); };
    cycles_t when = t;
    CriticalPath::Ref from = node; // the set that completed the rule (the latest), held by the chip
    path_.retain(from);
    if (mode == 0) {
        const int ty = c.type();
        auto &pending = mode0_[ty];
        if (pending.size() < DV_CROSS_FLAG_IDS)
            pending.resize(DV_CROSS_FLAG_IDS);
        pending[id].push_back(Set{t, from});
        std::vector<AiCore *> same; // the cores of the setter's type that run this kernel
        for (AiCore *k : running_)
            if (k->type() == c.type())
                same.push_back(k);
        if (pending[id].size() < same.size())
            return DV_OK;
        const Set *latest = &pending[id].front();
        for (const Set &s : pending[id])
            if (s.time > latest->time)
                latest = &s;
        when = latest->time;
        from = latest->node;
        path_.retain(from);
        for (const Set &s : pending[id])
            path_.release(s.node);
        pending[id].clear();
        targets = same;
    } else if (mode == 1) {
        if (c.type() != DV_CORE_AIV)
            return dv_error_set(err, DV_ERR_RANGE, nullptr, 0, 0, "cross-core mode 1 is between the AIVs of one AI core; %s is an AIC", c.basename());
        for (unsigned k = 0; k < aiv; k++)
            if (aiv_of(g, k) != &c)
                targets.push_back(aiv_of(g, k));
    } else {
        if (c.type() == DV_CORE_AIC) {
            for (unsigned k = 0; k < aiv; k++)
                targets.push_back(aiv_of(g, k));
        } else {
            const unsigned k = (c.index() - n_aic_) % aiv;
            auto &slot = mode2_[g * aiv + k];
            if (slot.size() < DV_CROSS_FLAG_IDS)
                slot.resize(DV_CROSS_FLAG_IDS);
            slot[id].push_back(Set{t, from});
            for (unsigned j = 0; j < aiv; j++) {
                auto &sj = mode2_[g * aiv + j];
                if (sj.size() < DV_CROSS_FLAG_IDS || sj[id].empty())
                    return DV_OK; // the AIC sees the flag once every AIV of its group set it
            }
            when = 0;
            from = CriticalPath::kNone;
            for (unsigned j = 0; j < aiv; j++) {
                auto &q = mode2_[g * aiv + j][id];
                if (!from || q.front().time > when) {
                    when = q.front().time;
                    path_.assign(from, q.front().node);
                }
                path_.release(q.front().node);
                q.erase(q.begin());
            }
            targets.push_back(cores_[g].get());
        }
    }
    int rc = DV_OK;
    for (AiCore *k : targets) {
        const size_t held = k->deliver_cross_flag(id, when, from);
        notify_cross(k);
        if (held > cfg_.sync_cross_flag_max) {
            rc = dv_error_set(err, DV_ERR_STATE, nullptr, 0, 0,
                              "cross-core flag %u set more than %llu times without a wait on %s", id,
                              static_cast<unsigned long long>(cfg_.sync_cross_flag_max), k->basename());
            break;
        }
    }
    path_.release(from);
    return rc;
}

int Chip::run(dv_kernel_t *k, const dv_gm_t *gm, const dv_run_opts_t &opts, dv_counters_t *out, dv_error_t *err)
{
    const dv_kernel_info_t &info = k->info;
    if (gm->nargs != info.nargs)
        return dv_error_set(err, DV_ERR_RANGE, nullptr, 0, 0, "kernel '%s' has %u GM arguments but %u were given",
                            info.name, info.nargs, gm->nargs);
    if (info.blocks == 0)
        return dv_error_set(err, DV_ERR_RANGE, nullptr, 0, 0, "kernel '%s' has no blocks", info.name);
    if (const int rc = dv_topo_check_kernel(&cfg_, &info, err)) // a mix kernel: split chip, AIV count
        return rc;
    const std::vector<uint32_t> run_on = kernel_cores(info);
    for (uint32_t i : run_on)
        if (!cores_[i]) {
            char nm[32];
            return dv_error_set(err, DV_ERR_STATE, nullptr, 0, 0,
                                "kernel '%s' runs on core %s, which this model was not built with (dv_model_create_for "
                                "builds the cores of one kernel)",
                                info.name, dv_topo_core_name(&cfg_, i, nm, sizeof nm));
        }
    kernel_ = k;
    gm_ = gm;
    gm_alias_.assign(gm->nargs ? gm->nargs : 1, 0);
    for (uint32_t a = 0; a < gm->nargs; a++) {
        if (gm->addr[a] >> L2Cache::kModeBit)
            return dv_error_set(err, DV_ERR_RANGE, nullptr, 0, 0,
                                "kernel '%s': GM argument '%s' has device address 0x%llx, beyond the %u address bits",
                                info.name, info.args[a].name, static_cast<unsigned long long>(gm->addr[a]),
                                L2Cache::kModeBit);
        gm_alias_[a] = L2Cache::alias(gm->addr[a], info.args[a].l2);
    }
    opts_ = opts;
    origin_ = now_cycles();
    next_block_ = 0;
    group_next_.assign(cores_.size(), 0);
    for (uint32_t i = 0; i < cores_.size(); i++)
        group_next_[i] = dv_topo_core_type(&cfg_, i) != DV_CORE_AIV ? i : dv_topo_core_group(&cfg_, i);
    aborting_ = false;
    error_ = dv_error_t{};
    path_.reset();
    hazards_ = 0;
    hazard_log_.clear();
    for (auto &m : mode0_)
        m.clear();
    for (auto &m : mode2_)
        m.clear();
    l2_.reset_counters();
    hbm_.reset_counters();

    // The cores that run this kernel: those of its type, at most one per block.
    running_.clear();
    for (uint32_t i : run_on)
        running_.push_back(cores_[i].get());
    if (info.kind != DV_KIND_MIX) {
        for (size_t i = 0; i < running_.size(); i++)
            group_next_[running_[i]->index()] = static_cast<uint32_t>(i);
        next_block_ = static_cast<uint32_t>(running_.size());
    }
    const std::vector<AiCore *> &active = running_;
    l2_.start(static_cast<unsigned>(active.size()));
    hbm_.start(static_cast<unsigned>(active.size()));
    for (AiCore *c : active)
        c->begin_kernel(origin_, opts.data, opts.hazards, opts.series);
    cycles_t end = run_cores(active);

    if (!aborting_) {
        std::string stuck;
        const AiCore *first = nullptr; // the error is located at the first waiting core's instruction
        for (AiCore *c : active)
            if (!c->finished()) {
                stuck += std::string(stuck.empty() ? "" : "; ") + c->basename() + " " +
                         (c->blocked_reason().empty() ? "is waiting" : c->blocked_reason());
                first = first ? first : c;
            }
        if (first) {
            dv_error_t e{};
            dv_error_set(&e, DV_ERR_DEADLOCK, first->blocked_source(), static_cast<int>(first->blocked_line()), 0,
                         "deadlock: %s, and no core can signal it", stuck.c_str());
            fail(e);
        }
    }
    if (aborting_) {
        for (AiCore *c : active) // each waiting core sees the failure and ends
            c->abandon();
        for (size_t i = 1; i < sched_.heap.size(); i++) // (SystemC time went on to their wake-ups)
            end = std::max(end, sched_.heap[i].time);
        sched_.heap.resize(1);
    }
    // SystemC time goes on to where the cores' threads took it: the next run starts there.
    if (end > now_cycles())
        sc_core::sc_start(to_time(end - now_cycles()));
    if (aborting_) {
        if (err)
            *err = error_;
        kernel_ = nullptr;
        return error_.code ? error_.code : DV_ERR_STATE;
    }

    std::memset(out, 0, sizeof *out);
    out->ncores = static_cast<uint32_t>(cores_.size());
    out->cores = static_cast<dv_core_counters_t *>(calloc(cores_.size(), sizeof(dv_core_counters_t)));
    if (!out->cores)
        return dv_error_set(err, DV_ERR_NOMEM, nullptr, 0, 0, "out of memory");
    // The run's cycles first: the buffers' occupancy series divide that time into slices.
    cycles_t total = 0;
    for (AiCore *c : running_)
        total = std::max<cycles_t>(total, c->counters().last_cycle);
    for (uint32_t i = 0; i < cores_.size(); i++) {
        AiCore *c = cores_[i].get();
        if (c && std::find(running_.begin(), running_.end(), c) != running_.end()) {
            c->end_kernel(total);
            out->cores[i] = c->counters();
        } else { // a core the kernel did not run on (built or not): its name and type (the topology's)
            dv_topo_core_name(&cfg_, i, out->cores[i].name, sizeof out->cores[i].name);
            out->cores[i].type = dv_topo_core_type(&cfg_, i);
        }
        const dv_core_counters_t &cc = out->cores[i];
        out->cycles = std::max<uint64_t>(out->cycles, cc.last_cycle);
        out->instructions += cc.instructions;
        out->gm_read_bytes += cc.gm_read_bytes;
        out->gm_write_bytes += cc.gm_write_bytes;
    }
    out->l2_hits = l2_.hits;
    out->l2_misses = l2_.misses;
    out->l2_writebacks = l2_.writebacks;
    out->hbm_read_bytes = hbm_.read_bytes;
    out->hbm_write_bytes = hbm_.write_bytes;
    out->hbm_same_address = hbm_.same_address_requests;
    out->hazards = hazards_;
    out->hazards_capped = hazards_full();
    out->nhazard_records = static_cast<uint32_t>(hazard_log_.size());
    std::copy(hazard_log_.begin(), hazard_log_.end(), out->hazard);
    for (AiCore *c : running_) // per opcode and pipe: the sums over the cores; per opcode: over the pipes too
        for (int op = 0; op < DV_OP_COUNT; op++)
            for (int p = 0; p < DV_PIPE_COUNT; p++) {
                out->op_pipe_count[op][p] += c->op_stats().count[op][p];
                out->op_pipe_cycles[op][p] += c->op_stats().cycles[op][p];
                out->op_count[op] += c->op_stats().count[op][p];
            }
    critical_path(out);
    path_.reset();
    kernel_ = nullptr;
    return DV_OK;
}

cycles_t Chip::run_cores(const std::vector<AiCore *> &active)
{
    Sched &s = sched_;
    s.heap.resize(1);
    s.round = active;
    s.notified.clear();
    s.waits_cross.assign(cores_.size(), 0);
    s.is_notified.assign(cores_.size(), 0);
    cycles_t now = now_cycles();
    for (;;) {
        for (AiCore *c : s.round) {
            cycles_t until = now;
            switch (c->step(now, until)) {
            case AiCore::Wait::Time: s.push(until, c); break;
            case AiCore::Wait::Cross: s.waits_cross[c->index()] = 1; break;
            case AiCore::Wait::Done: break;
            }
            if (aborting_)
                return now;
        }
        s.round.clear();
        for (size_t i = s.notified.size(); i-- > 0;) {
            AiCore *const k = s.notified[i];
            s.is_notified[k->index()] = 0;
            if (s.waits_cross[k->index()]) {
                s.waits_cross[k->index()] = 0;
                s.round.push_back(k);
            }
        }
        s.notified.clear();
        if (!s.round.empty())
            continue;
        if (s.heap.size() == 1)
            return now;
        now = s.heap[1].time;
        do
            s.round.push_back(s.pop());
        while (s.heap.size() > 1 && s.heap[1].time == now);
    }
}

void Chip::critical_path(dv_counters_t *out) const
{
    out->crit_end_core = UINT32_MAX;
    out->crit_peak_nodes = path_.peak();
    const AiCore *last = nullptr;
    for (const AiCore *c : running_)
        if (c->counters().blocks && (!last || c->counters().last_cycle > last->counters().last_cycle))
            last = c;
    if (!last)
        return;
    cycles_t start;
    const std::vector<CriticalPath::Step> steps = path_.steps(last->path_end(), start);
    out->crit_end_core = last->index();
    for (const CriticalPath::Step &s : steps) {
        const unsigned core = s.key >> 16, op = s.key >> 3 & 0x1fff, pipe = s.key & 7;
        out->crit_cycles += s.cycles;
        out->crit_op_cycles[op][pipe] += s.cycles;
        out->crit_op_count[op][pipe] += s.count;
        if (core < out->ncores)
            out->cores[core].crit_cycles += s.cycles;
    }
}

} // namespace dv
