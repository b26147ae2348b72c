// model/HazardChecker.cpp
#include "HazardChecker.h"

#include <algorithm>

namespace dv {

void HazardChecker::reset(unsigned pipes)
{
    pipes_ = pipes;
    for (auto &v : vc_)
        v.fill(0);
    for (auto &a : acc_)
        a.clear();
    live_ = 0;
    prune_at_ = 64;
    order_ = 0;
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
    uint64_t reported[8];
    int nreported = 0; // one hazard per pair of instructions, however many operands overlap
    std::vector<const Access *> &hits = hits_;
    for (int k = 0; k < n; k++) {
        hits.clear();
        for (int q = 0; q < DV_PIPE_COUNT; q++) {
            if (q == static_cast<int>(pipe))
                continue;
            const std::vector<Access> &list = acc_[q];
            // only the suffix this pipe is not ordered after (by a flag or barrier) can race
            for (size_t i = list.size(); i-- > 0 && list[i].seq > me[q];) {
                const Access &a = list[i];
                if (a.space != r[k].space || a.arg != r[k].arg)
                    continue;
                if (!(a.write || r[k].write) || a.hi <= r[k].lo || r[k].hi <= a.lo)
                    continue;
                hits.push_back(&a);
            }
        }
        std::sort(hits.begin(), hits.end(), [](const Access *x, const Access *y) { return x->order < y->order; });
        for (const Access *ap : hits) {
            const Access &a = *ap;
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
        acc_[pipe].push_back(Access{r[k].space, static_cast<uint8_t>(pipe), r[k].write, r[k].arg, r[k].lo, r[k].hi, seq,
                                    index, order_++, line});
    live_ += static_cast<size_t>(n);
    if (live_ >= prune_at_)
        prune();
}

// Drop accesses every other pipe is already ordered after: they cannot race with anything later.
// Along one pipe's list seq grows, so they are a prefix.  What a pipe p will know of q when it
// executes later work is at least its own clock's entry vc_[p][q] (its flags and its own work only
// add to it).  The scalar clock is no bound: work already waiting in p's queue carries the older
// clock of its issue, and a pipe that has not run yet still has all of its work ahead of it.
void HazardChecker::prune()
{
    const size_t cap = 4096; // per pipe: bounds the work for kernels that never synchronise
    live_ = 0;
    for (int q = 0; q < DV_PIPE_COUNT; q++) {
        std::vector<Access> &list = acc_[q];
        // the least any other pipe that may execute later work knows of q (the scalar unit
        // executes no accesses)
        uint64_t known = UINT64_MAX;
        for (int p = 0; p < DV_PIPE_COUNT; p++)
            if (p != q && p != DV_PIPE_S && (pipes_ >> p & 1))
                known = std::min(known, vc_[p][q]);
        size_t drop = 0;
        while (drop < list.size() && list[drop].seq <= known)
            drop++;
        if (list.size() - drop > cap)
            drop = list.size() - cap;
        list.erase(list.begin(), list.begin() + static_cast<long>(drop));
        live_ += list.size();
    }
    prune_at_ = std::max<size_t>(64, live_ * 2);
}

} // namespace dv
