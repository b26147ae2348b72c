// model/HazardChecker.cpp
#include "HazardChecker.h"

#include <algorithm>

namespace dv {

void HazardChecker::reset(unsigned pipes)
{
    pipes_ = pipes;
    for (auto &v : vc_)
        v.fill(0);
    for (auto &l : acc_) {
        l.v.clear();
        l.head = 0;
    }
    for (auto &c : nth_)
        c = 0;
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

const std::vector<dv_hazard_t> &HazardChecker::execute(dv_pipe_t pipe, const VClock &issued, uint64_t index,
                                                       uint32_t line, const dv_range_t *r, int n)
{
    VClock &me = vc_[pipe];
    vc_merge(me, issued);
    const uint64_t seq = ++me[pipe];
    found_.clear();
    uint32_t key[DV_MAX_RANGES];
    unsigned want = 0; // the spaces this instruction touches
    for (int k = 0; k < n; k++) {
        key[k] = key_of(r[k]);
        want |= 1u << r[k].space;
    }
    // Only the suffix of each other pipe's list that this pipe is not ordered after (by a flag or
    // barrier) can race, and of it only accesses to a space this instruction touches; on a
    // synchronised kernel it is short, often empty.
    std::vector<Hit> &hits = hits_;
    hits.clear();
    for (unsigned m = held_ & ~(1u << pipe); m; m &= m - 1) {
        const int q = __builtin_ctz(m);
        const List &list = acc_[q];
        const uint64_t known = me[static_cast<size_t>(q)];
        const Access *const first = list.v.data() + list.head;
        for (const Access *a = list.v.data() + list.v.size(); a != first && a[-1].seq > known;) {
            --a;
            if (!(want >> (a->key & 0xff) & 1)) // key_of: the space in its low byte
                continue;
            for (int k = 0; k < n; k++)
                if (a->key == key[k] && (a->write || r[k].write) && a->hi > r[k].lo && r[k].hi > a->lo)
                    hits.push_back(Hit{k, static_cast<uint8_t>(q), a});
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
            h.pipe_first = hit.pipe;
            h.pipe_second = static_cast<uint8_t>(pipe);
            h.insn_first = a.index;
            h.insn_second = index;
            h.line_first = a.line;
            h.line_second = line;
            h.space = rk.space;
            h.arg = rk.arg;
            h.lo = std::max(a.lo, rk.lo);
            h.hi = std::min(a.hi, rk.hi);
            found_.push_back(h);
        }
    }
    if (n == 0)
        return found_;
    List &mine = acc_[pipe];
    if (mine.v.size() + static_cast<size_t>(n) > mine.v.capacity())
        make_room(mine, static_cast<size_t>(n));
    for (int k = 0; k < n; k++)
        mine.v.push_back(Access{r[k].lo, r[k].hi, seq, index, order_++, nth_[pipe]++, key[k], line, r[k].write});
    held_ |= 1u << pipe;
    live_ += static_cast<size_t>(n);
    if (live_ >= prune_at_)
        prune();
    return found_;
}

// A full list: the forgotten prefix goes first (at most once per prune, so each access is copied
// about once), then the vector grows if it must.
void HazardChecker::make_room(List &l, size_t n)
{
    if (l.head) {
        l.v.erase(l.v.begin(), l.v.begin() + static_cast<long>(l.head));
        l.head = 0;
    }
    if (l.v.size() + n > l.v.capacity())
        l.v.reserve(std::max<size_t>(64, 2 * l.v.capacity()));
}

// Drop accesses every other pipe is already ordered after: they cannot race with anything later.
// Along one pipe's list seq grows, so they are a prefix.  What a pipe p will know of q when it
// executes later work is at least its own clock's entry vc_[p][q] (its flags and its own work only
// add to it).  The scalar clock is no bound: work already waiting in p's queue carries the older
// clock of its issue, and a pipe that has not run yet still has all of its work ahead of it.
void HazardChecker::prune()
{
    const uint64_t cap = 4096; // per pipe, the newest kept: bounds the work for kernels that never synchronise
    live_ = 0;
    // the pipes that bound what may be forgotten: the core's, but the scalar unit (it executes no
    // accesses)
    const unsigned bound = pipes_ & ((1u << DV_PIPE_COUNT) - 1) & ~(1u << DV_PIPE_S);
    for (unsigned m = held_; m; m &= m - 1) {
        const int q = __builtin_ctz(m);
        List &l = acc_[q];
        // the least any other pipe that may execute later work knows of q
        uint64_t known = UINT64_MAX;
        for (unsigned b = bound & ~(1u << q); b; b &= b - 1)
            known = std::min(known, vc_[__builtin_ctz(b)][q]);
        const uint64_t keep = nth_[q] > cap ? nth_[q] - cap : 0; // the first of q's newest cap accesses
        while (l.head < l.v.size() && (l.v[l.head].seq <= known || l.v[l.head].nth < keep))
            l.head++;
        if (l.head == l.v.size()) {
            l.v.clear();
            l.head = 0;
            held_ &= ~(1u << q);
        }
        live_ += l.v.size() - l.head;
    }
    prune_at_ = std::max<size_t>(64, live_ * 2);
}

} // namespace dv
