// model/VectorUnit.h - timing of the V pipe (ref 3.2).
//   occupy  = ceil(repeats * repeat_bytes / bytes_per_cycle(class, width)) + bank-conflict cycles
//   latency = latency(class, width) + vector.pipeline_cycles
// Bank conflicts (ref 2.1): datablock rows of 32 B live in bank (addr/32) % ub_banks, bank k in
// group k % ub_bank_groups.  Per repeat, each group serves one row per cycle for reads and one for
// writes; a repeat needs max(rows read in one group, rows written in one group) cycles, plus one
// when a write hits a bank that the same repeat reads.  Cycles beyond one per repeat are conflicts.
// Datablocks narrower than a row that share one count once; mask chunks (vcmp/vsel) and reduction
// results are single partial rows per repeat and take no part.
#pragma once
#include <systemc>
#include <vector>

#include "Cost.h"
#include "dv/config.h"
#include "dv/semantics.h"

namespace dv {

class VectorUnit : public sc_core::sc_module {
public:
    // Its section of the profile: vector.* (vector.<class>.* per vector cost class of isa/isa.def)
    // and the UB bank geometry (core.ub_banks, core.ub_bank_groups).
    struct Params {
        struct Rate {
            uint64_t bpc[2], lat[2]; // [0] 8/16-bit, [1] 32-bit: bytes per cycle, latency cycles
        };
        uint64_t repeat_bytes, pipeline_cycles;
        Rate rate[DV_VC_COUNT]; // by cost class, from DV_COST_V_ADD on
        uint64_t ub_banks, ub_bank_groups;
        static Params from(const dv_config_t &cfg);
    };

    VectorUnit(sc_core::sc_module_name name, const Params &p);
    Cost cost(const dv_insn_t &in, const dv_vgeom_t &g);
    // The bank-conflict cycles of layout g worked out, no memo consulted: what the memos hold (tests).
    cycles_t count(const dv_vgeom_t &g);

private:
    cycles_t conflicts(const dv_vgeom_t &g);
    unsigned op_width(const dv_insn_t &in) const;

    using Rate = Params::Rate;
    Rate rate_[DV_VC_COUNT];
    static const int *dtype_fields();
    const int *const dtype_field_ = dtype_fields(); // by opcode
    const uint64_t repeat_bytes_, pipeline_, banks_, groups_;
    // In front of the memos, the last two layouts as they came (kernels alternate between the two
    // buffers of a double-buffered loop, and their layouts repeat exactly): the same geometry has
    // the same count, found without working out a key (conflicts_seen).
    struct Seen {
        dv_vgeom_t g;
        cycles_t value;
        bool valid = false;
    } seen_[2];
    unsigned seen_next_ = 0;
    static bool same_layout(const dv_vgeom_t &a, const dv_vgeom_t &b)
    {
        if (a.repeats != b.repeats || a.nops != b.nops)
            return false;
        for (int k = 0; k < a.nops; k++)
            if (a.ops[k].base != b.ops[k].base || a.ops[k].blk_bytes != b.ops[k].blk_bytes ||
                a.ops[k].blk_stride != b.ops[k].blk_stride || a.ops[k].rep_stride != b.ops[k].rep_stride ||
                a.ops[k].write != b.ops[k].write)
                return false;
        return true;
    }
    cycles_t conflicts_keyed(const dv_vgeom_t &g);
    // One-entry memo per operand layout: kernels repeat the same addresses over and over.
    static constexpr int kKey = 4 * 3 + 2;
    struct Memo {
        uint64_t key[kKey] = {};
        cycles_t value = 0;
        bool valid = false;
    } memo_[8];
    unsigned memo_next_ = 0;
    cycles_t remember(const uint64_t (&key)[kKey], cycles_t value);
    // Behind it, one memo for every core of the thread (a core's misses are mostly layouts other
    // cores have met), under a key that determines the count exactly.
    static constexpr int kExactKey = kKey + 3;
    struct Exact {
        uint64_t key[kExactKey];
        cycles_t value;
        bool valid;
    };
    static constexpr unsigned kShared = 16;
    static thread_local Exact shared_[kShared];
    static thread_local unsigned shared_next_;
    void exact_key(const dv_vgeom_t &g, const uint64_t (&key)[kKey], uint64_t (&out)[kExactKey]) const;
    // conflicts()' counts per bank group (reads, writes) and banks read in one repeat, kept between
    // calls so that a layout the memo misses allocates nothing.
    std::vector<uint32_t> rd_, wr_;
    std::vector<uint8_t> rbank_;
};

} // namespace dv
