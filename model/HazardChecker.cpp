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
    held_ = 0;
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
    // Only the suffix of each other pipe's list that this pipe is not ordered after (by a flag or
    // barrier) can race; on a synchronised kernel it is short, often empty.
    uint32_t key[DV_MAX_RANGES];
    for (int k = 0; k < n; k++)
        key[k] = key_of(r[k]);
    std::vector<Hit> &hits = hits_;
    hits.clear();
    for (unsigned m = held_ & ~(1u << pipe); m; m &= m - 1) {
        const std::vector<Access> &list = acc_[__builtin_ctz(m)];
        const uint64_t known = me[static_cast<size_t>(__builtin_ctz(m))];
        const Access *const first = list.data();
        for (const Access *a = first + list.size(); a != first && a[-1].seq > known;) {
            --a;
            for (int k = 0; k < n; k++)
                if (a->key == key[k] && (a->write || r[k].write) && a->hi > r[k].lo && r[k].hi > a->lo)
                    hits.push_back(Hit{k, a});
        }
    }
    if (!hits.empty()) {
        // Reported by operand, then in execution order.
        std::sort(hits.begin(), hits.end(), [](const Hit &x, const Hit &y) {
            return x.operand != y.operand ? x.operand < y.operand : x.a->order < y.a->order;
        });
        uint64_t reported[8];
        int nreported = 0; // one hazard per pair of instructions, however many operands overlap
        for (const Hit &hit : hits) {
            const Access &a = *hit.a;
            const dv_range_t &rk = r[hit.operand];
            bool dup = false;
            for (int j = 0; j < nreported && !dup; j++)
                dup = reported[j] == a.index;
            if (dup)
                continue;
            if (nreported < 8)
                reported[nreported++] = a.index;
            dv_hazard_t h{};
            h.kind = a.write && rk.write ? DV_HAZ_WAW : a.write ? DV_HAZ_RAW : DV_HAZ_WAR;
            h.pipe_first = a.pipe;
            h.pipe_second = static_cast<uint8_t>(pipe);
            h.insn_first = a.index;
            h.insn_second = index;
            h.line_first = a.line;
            h.line_second = line;
            h.space = rk.space;
            h.arg = rk.arg;
            h.lo = std::max(a.lo, rk.lo);
            h.hi = std::min(a.hi, rk.hi);
            report(h);
        }
    }
    if (n == 0)
        return;
    std::vector<Access> &mine = acc_[pipe];
    if (mine.size() + static_cast<size_t>(n) > mine.capacity()) // grown here: reserve copies the block at once
        mine.reserve(std::max<size_t>(64, 2 * mine.capacity()));
    for (int k = 0; k < n; k++)
        mine.push_back(Access{r[k].lo, r[k].hi, seq, index, order_++, key[k], line, static_cast<uint8_t>(pipe),
                              r[k].write});
    held_ |= 1u << pipe;
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
    // the pipes that bound what may be forgotten: the core's, but the scalar unit (it executes no
    // accesses)
    const unsigned bound = pipes_ & ((1u << DV_PIPE_COUNT) - 1) & ~(1u << DV_PIPE_S);
    for (unsigned m = held_; m; m &= m - 1) {
        const int q = __builtin_ctz(m);
        std::vector<Access> &list = acc_[q];
        // the least any other pipe that may execute later work knows of q
        uint64_t known = UINT64_MAX;
        for (unsigned b = bound & ~(1u << q); b; b &= b - 1)
            known = std::min(known, vc_[__builtin_ctz(b)][q]);
        size_t drop = 0;
        while (drop < list.size() && list[drop].seq <= known)
            drop++;
        if (list.size() - drop > cap)
            drop = list.size() - cap;
        list.erase(list.begin(), list.begin() + static_cast<long>(drop));
        live_ += list.size();
        if (list.empty())
            held_ &= ~(1u << q);
    }
    prune_at_ = std::max<size_t>(64, live_ * 2);
}

} // namespace dv
