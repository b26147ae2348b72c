// model/Chip.h - the chip: its cores (coupled, or AICs plus AIVs), the shared L2 and HBM, block
// dispatch and cross-core flags.
//
// Blocks of a vector or cube kernel are taken by the cores of the matching type in simulated-time
// order (a core that finishes takes the next block: extra blocks run in waves).  A mix kernel's
// block b runs on AI core group b % ai_cores: its AIC runs sub-stream aic and its AIVs aiv0..;
// a group runs its blocks in order.
#pragma once
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "AiCore.h"
#include "CoreServices.h"
#include "Hbm.h"
#include "L2Cache.h"
#include "dv/model.h"

namespace dv {

// The chip serves its cores through CoreServices: the services are private overrides, reached
// only through the interface each core holds; the chip's public face is its construction and run().
class Chip final : public sc_core::sc_module, public CoreServices {
public:
    // The chip is the one component that reads the whole profile: it cuts it into each component's
    // Params (Hbm, L2Cache, one AiCore::Params per core) and binds the connections between them.
    // With `only`, it builds just the cores a kernel of that kind and block count runs on (the
    // others would only be named in the counters, which the topology does without them), and a
    // kernel that needs another core fails to run: for callers that run one kernel (dv_model_create_for).
    Chip(sc_core::sc_module_name name, const dv_config_t &cfg, const dv_kernel_info_t *only = nullptr);

    // Run one kernel to completion (or to an error); fills *out on success.
    int run(dv_kernel_t *k, const dv_gm_t *gm, const dv_run_opts_t &opts, dv_counters_t *out, dv_error_t *err);
    // Between two runs of a replay the chip idles for chip.replay_gap_cycles: the L2 writes back as many dirty
    // lines as the sustained HBM rate carries in that time (L2Cache::idle_write_back).
    void idle_between_runs()
    {
        const uint64_t bytes = cfg_.chip_replay_gap_cycles * dv_hbm_sustained_bytes_per_cycle(&cfg_);
        l2_.idle_write_back(bytes / cfg_.l2_line_bytes);
    }

private:
    // CoreServices (the contract is written there).
    bool next_block(unsigned core, uint32_t &block, uint32_t &sub) override;
    int open_stream(uint32_t block, uint32_t sub, dv_stream_t **s, dv_error_t *err) override;
    int cross_set(unsigned core, int mode, unsigned id, cycles_t t, CriticalPath::Ref node, dv_error_t *err) override;
    void fail(const dv_error_t &err) override;
    bool aborting() const override { return aborting_; }
    void gm_view(dv_mem_t &m) const override;
    uint32_t gm_args() const override { return gm_ ? gm_->nargs : 0; }
    uint64_t gm_bytes(unsigned a) const override { return a < gm_args() ? gm_->bytes[a] : 0; }
    const char *gm_name(unsigned a) const override { return a < kernel_->info.nargs ? kernel_->info.args[a].name : "?"; }
    // The device addresses with each argument's L2 cache mode on them (L2Cache::alias).
    const uint64_t *gm_addrs() const override { return gm_alias_.data(); }
    void retire(cycles_t t) override
    {
        l2_.retire(t);
        hbm_.retire(t);
    }
    bool slicing() const override { return opts_.on_slice != nullptr; }
    void slice(unsigned core, dv_pipe_t p, const dv_insn_t &in, cycles_t s, cycles_t e) override
    {
        if (opts_.on_slice)
            opts_.on_slice(opts_.slice_ctx, core, p, &in, s - origin_, e - origin_);
    }
    bool report_hazard(unsigned core, uint32_t block, uint32_t sub, const dv_hazard_t &h) override;
    bool hazards_full() const { return opts_.max_hazards && hazards_ >= opts_.max_hazards; }

    // The cores that run a kernel, in index order: those of its type, at most one per block (a
    // mix kernel: its groups' cores, at most one group per block).
    std::vector<uint32_t> kernel_cores(const dv_kernel_info_t &info) const;
    unsigned group_of(const AiCore &c) const;
    // The critical path of the run: it ends with the block that ended last (the first such core).
    void critical_path(dv_counters_t *out) const;

    const dv_config_t cfg_;
    Hbm hbm_;
    L2Cache l2_;
    CriticalPath path_; // declared before the cores, which hold a connection to it
    std::vector<std::unique_ptr<AiCore>> cores_; // one per core of the topology; null: not built (`only`)
    unsigned n_aic_ = 0, n_aiv_ = 0;

    // Per-kernel state.
    dv_kernel_t *kernel_ = nullptr;
    const dv_gm_t *gm_ = nullptr;
    std::vector<uint64_t> gm_alias_; // gm_->addr[a] with kernel_->info.args[a].l2 (L2Cache::alias)
    dv_run_opts_t opts_{};
    cycles_t origin_ = 0;
    uint32_t next_block_ = 0;
    std::vector<AiCore *> running_;    // cores that run the current kernel
    std::vector<uint32_t> group_next_; // per core: first block (vector/cube) or next block (mix)
    bool aborting_ = false;
    dv_error_t error_{};

    // The cores' scheduler.  Each core ran as a SystemC thread, and the results depend on the order
    // in which cores take blocks and reserve shared bandwidth: run_cores resumes the cores (their
    // steps) in exactly the order SystemC 2.3's kernel resumed those threads, with its own copy of
    // that kernel's timed-event heap (sc_ppq: the order of equal times is the heap's), so that a
    // wait costs a heap operation and a call instead of a coroutine switch.  The rules it follows:
    // - The first round runs every core in index order (the threads in order of creation).
    // - A round runs the cores resumed for it in order; a core waiting for time is put in the heap
    //   (Sched::push), one waiting for a cross-core flag is marked.
    // - After a round, the cores a flag was delivered to since the last round (cross_set; a core
    //   once per round, in order of its first delivery) are taken in reverse order, as SystemC
    //   triggers its delta notifications: each that waits for a flag is resumed in the next round.
    // - When no core is resumed, time moves to the heap's earliest time and every core waiting
    //   until then is resumed, in the order the heap gives them up.
    // Returns the time the SystemC kernel would have reached (the last core's wake-up time).
    cycles_t run_cores(const std::vector<AiCore *> &active);
    struct Sched {
        // sc_ppq_base's binary heap (1-based; earlier first), with its insert and heapify as they are.
        struct Timed {
            cycles_t time;
            AiCore *core;
        };
        std::vector<Timed> heap{Timed{}};
        void push(cycles_t time, AiCore *core)
        {
            heap.push_back(Timed{});
            size_t i = heap.size() - 1;
            while (i > 1 && heap[i >> 1].time > time) {
                heap[i] = heap[i >> 1];
                i >>= 1;
            }
            heap[i] = Timed{time, core};
        }
        AiCore *pop()
        {
            AiCore *const top = heap[1].core;
            heap[1] = heap.back();
            heap.pop_back();
            const size_t n = heap.size() - 1;
            size_t i = 1, l;
            while ((l = 2 * i) <= n) {
                size_t first = heap[l].time < heap[i].time ? l : i;
                if (l + 1 <= n && heap[l + 1].time < heap[first].time)
                    first = l + 1;
                if (first == i)
                    break;
                std::swap(heap[i], heap[first]);
                i = first;
            }
            return top;
        }
        std::vector<AiCore *> round, notified; // this round's cores; cores delivered to since the last
        std::vector<uint8_t> waits_cross, is_notified; // by core index
    } sched_;
    void notify_cross(AiCore *k)
    {
        if (!sched_.is_notified[k->index()]) {
            sched_.is_notified[k->index()] = 1;
            sched_.notified.push_back(k);
        }
    }
    uint64_t hazards_ = 0;
    std::vector<dv_hazard_t> hazard_log_;
    // Cross-core flags: mode 0 pending sets per core type and id; mode 2 AIV->AIC per group.  Each
    // set keeps its time and critical-path node (the chip holds a reference until it delivers).
    struct Set {
        cycles_t time;
        CriticalPath::Ref node;
    };
    std::vector<std::vector<Set>> mode0_[3];
    std::vector<std::vector<std::vector<Set>>> mode2_; // [group * aiv + k][id] -> sets
};

} // namespace dv
