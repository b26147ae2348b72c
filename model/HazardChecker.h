// model/HazardChecker.h - finds unsynchronised cross-pipe accesses inside one core.
//
// Happens-before is tracked with vector clocks over the pipes: every executed instruction
// advances its pipe's clock; set_flag snapshots the source pipe's clock once all its earlier work
// is done; wait_flag merges the snapshot into the destination; the scalar unit's clock travels
// with every instruction it issues (so wait_flag on S and pipe_barrier(ALL) order later work).
// Two accesses from different pipes to overlapping bytes, at least one a write, with no
// happens-before between them are a hazard.  Accesses are bounding byte ranges per operand.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "dv/isa.h"
#include "dv/model.h"
#include "dv/semantics.h"

namespace dv {

using VClock = std::array<uint64_t, DV_PIPE_COUNT>;

inline void vc_merge(VClock &a, const VClock &b)
{
    for (int i = 0; i < DV_PIPE_COUNT; i++)
        if (b[i] > a[i])
            a[i] = b[i];
}

class HazardChecker {
public:
    // A new block on a core whose pipes are the bits of `pipes` (1 << dv_pipe_t): the pipes that
    // may execute later work, whose knowledge bounds what can be forgotten.
    void reset(unsigned pipes);
    // An instruction starts on `pipe`; `issued` is the scalar clock it was issued with.  Returns
    // the hazards it makes with earlier accesses, in the order they are reported: by operand, then
    // in execution order, one per earlier instruction (valid until the next call).
    const std::vector<dv_hazard_t> &execute(dv_pipe_t pipe, const VClock &issued, uint64_t index, uint32_t line,
                                            const dv_range_t *r, int n);
    // Clock of a pipe (for set_flag snapshots) and merging a snapshot into a pipe (wait_flag).
    const VClock &clock(dv_pipe_t pipe) const { return vc_[pipe]; }
    void merge(dv_pipe_t pipe, const VClock &snap) { vc_merge(vc_[pipe], snap); }
    // pipe_barrier(ALL) / end of stream: the scalar unit knows everything every pipe did.
    void join_all();

private:
    struct Access {
        uint64_t lo, hi, seq, index;
        uint64_t order; // position in execution order over all pipes (reports keep that order)
        uint64_t nth;   // position among its pipe's accesses (the cap on what a pipe keeps)
        uint32_t key;   // space and argument (key_of)
        uint32_t line;
        uint8_t write;
    };
    // One pipe's accesses in execution order, so seq grows along it: the accesses a pipe is not
    // yet ordered after are a suffix, the ones every pipe is ordered after a prefix.  Forgotten
    // ones are skipped by `head` (prune copies nothing); the vector sheds them when it is full.
    struct List {
        std::vector<Access> v;
        size_t head = 0;
    };
    struct Hit {
        int operand;
        uint8_t pipe;
        const Access *a;
    };
    static uint32_t key_of(const dv_range_t &r) { return static_cast<uint32_t>(r.space) | static_cast<uint32_t>(r.arg) << 8; }
    void make_room(List &l, size_t n);
    void prune();

    VClock vc_[DV_PIPE_COUNT] = {};
    List acc_[DV_PIPE_COUNT];
    unsigned held_ = 0;                // the pipes whose list is not empty
    uint64_t nth_[DV_PIPE_COUNT] = {}; // accesses each pipe has executed in the block
    size_t live_ = 0, prune_at_ = 64;
    std::vector<Hit> hits_;          // scratch for one instruction's races
    std::vector<dv_hazard_t> found_; // what execute returns
    uint64_t order_ = 0;
    unsigned pipes_ = 0; // the core's pipes (reset)
};

} // namespace dv
