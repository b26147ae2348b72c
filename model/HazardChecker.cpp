// model/HazardChecker.cpp
#include "HazardChecker.h"

#include <algorithm>

namespace dv {

void HazardChecker::reset()
{
    for (auto &v : vc_)
        v.fill(0);
    acc_.clear();
    prune_at_ = 64;
    used_ = 0;
}

void HazardChecker::join_all()
{
    VClock all{};
    for (auto &v : vc_)
        vc_merge(all, v);
    vc_[DV_PIPE_S] = all;
}

void HazardChecker::execute(dv_pipe_t pipe, const VClock &issued, uint64_t index, uint32_t line, const dv_range_t *r,
                            int n, const Report &report)
{
    VClock &me = vc_[pipe];
    vc_merge(me, issued);
    const uint64_t seq = ++me[pipe];
    used_ |= 1u << pipe;
    uint64_t reported[8];
    int nreported = 0; // one hazard per pair of instructions, however many operands overlap
    for (int k = 0; k < n; k++) {
        for (const Access &a : acc_) {
            if (a.pipe == pipe || a.space != r[k].space || a.arg != r[k].arg)
                continue;
            if (!(a.write || r[k].write) || a.hi <= r[k].lo || r[k].hi <= a.lo)
                continue;
            if (me[a.pipe] >= a.seq)
                continue; // ordered by a flag or barrier
            bool dup = false;
            for (int j = 0; j < nreported && !dup; j++)
                dup = reported[j] == a.index;
            if (dup)
                continue;
            if (nreported < 8)
                reported[nreported++] = a.index;
            dv_hazard_t h{};
            h.kind = a.write && r[k].write ? DV_HAZ_WAW : a.write ? DV_HAZ_RAW : DV_HAZ_WAR;
            h.pipe_first = a.pipe;
            h.pipe_second = static_cast<uint8_t>(pipe);
            h.insn_first = a.index;
            h.insn_second = index;
            h.line_first = a.line;
            h.line_second = line;
            h.space = r[k].space;
            h.arg = r[k].arg;
            h.lo = std::max(a.lo, r[k].lo);
            h.hi = std::min(a.hi, r[k].hi);
            report(h);
        }
    }
    for (int k = 0; k < n; k++)
        acc_.push_back(Access{r[k].space, static_cast<uint8_t>(pipe), r[k].write, r[k].arg, r[k].lo, r[k].hi, seq,
                              index, line});
    if (acc_.size() >= prune_at_)
        prune();
}

// Drop accesses every other pipe is already ordered after: they cannot race with anything later.
void HazardChecker::prune()
{
    acc_.erase(std::remove_if(acc_.begin(), acc_.end(),
                              [this](const Access &a) {
                                  // Pipes that have not run yet are left out: their later work
                                  // carries the scalar clock of its issue.
                                  for (int p = 0; p < DV_PIPE_COUNT; p++)
                                      if (p != a.pipe && (used_ >> p & 1) &&
                                          std::max(vc_[p][a.pipe], vc_[DV_PIPE_S][a.pipe]) < a.seq)
                                          return false;
                                  return true;
                              }),
               acc_.end());
    // Bound the work for kernels that never synchronise: keep the newest accesses.
    const size_t cap = 4096;
    if (acc_.size() > cap)
        acc_.erase(acc_.begin(), acc_.begin() + static_cast<long>(acc_.size() - cap));
    prune_at_ = std::max<size_t>(64, acc_.size() * 2);
}

} // namespace dv
