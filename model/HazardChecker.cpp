// model/HazardChecker.cpp
#include "HazardChecker.h"

#include <algorithm>

namespace dv {

void HazardChecker::reset(unsigned pipes)
{
    pipes_ = pipes;
    epoch_ = stamps_ << 3 | 7; // seen_ is stale from here on: it holds no newer stamp
    for (int p = 0; p < DV_PIPE_COUNT; p++) {
        vc_[p].t.fill(0);
        changed(static_cast<dv_pipe_t>(p));
    }
    for (auto &l : acc_) {
        l.oldest = l.next = l.base; // base[-1] is free
        l.n = l.first = l.count = 0;
    }
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
    vc_[DV_PIPE_S].t = all.t;
    changed(DV_PIPE_S);
}

// Calls on_hit(k, q, in, a) for each access a (of instruction in, on pipe q) that races with
// operand k of an instruction starting on pipe, until it returns true; true if one did.  Only the
// suffix of each other pipe's list that pipe is not ordered after (by a flag or barrier) can race,
// and of it only accesses that want selects; on a synchronised kernel it is short, often empty.
template <class OnHit>
bool HazardChecker::walk(dv_pipe_t pipe, unsigned want, const Op *op, int n, OnHit on_hit) const
{
    const VClock &me = vc_[pipe];
    for (unsigned m = held_ & ~(1u << pipe); m; m &= m - 1) {
        const int q = __builtin_ctz(m);
        const List &list = acc_[q];
        const uint64_t known = me[static_cast<size_t>(q)];
        for (const Insn *in = list.next;;) {
            if ((--in)->seq <= known) { // newest first, down to an ordered one or a free slot
                if (in + 1 != list.base || list.oldest <= list.next)
                    break;
                in = list.end; // the live ones wrap around: on from the top
                continue;
            }
            for (const Access *a = in->a, *const last = a + in->n; a != last; a++) {
                if (!(want >> a->sel & 1))
                    continue;
                const unsigned w = a->sel >> 4 & 1;
                for (int k = 0; k < n; k++)
                    if (a->key == op[k].key[w] && a->hi > op[k].lo && op[k].hi > a->lo && on_hit(k, q, in, a))
                        return true;
            }
        }
    }
    return false;
}

const std::vector<dv_hazard_t> &HazardChecker::execute(dv_pipe_t pipe, const VClock &issued, uint64_t index,
                                                       uint32_t line, const dv_range_t *r, int n)
{
    static_assert(DV_SPACE_COUNT < 15, "Access::sel: a space and a write bit in want's 32 bits, bit 31 unused (kDead)");
    absorb(pipe, issued);
    VClock &me = vc_[pipe];
    const uint64_t seq = ++me[pipe];
    changed(pipe);
    if (n == 0)
        return none_;
    // The instruction's record goes in the slot after this pipe's newest (it joins the list once
    // the others are checked).  want: bit s for a space it writes (what an earlier read of s
    // needs), bit 16 + s for one it touches (what an earlier write needs).
    List &mine = acc_[pipe];
    if (mine.n + 2 > mine.slots) // the new one and the free slot before oldest
        grow(mine);
    Insn *const rec = mine.next;
    unsigned want = 0;
    Op op[DV_MAX_RANGES];
    for (int k = 0; k < n; k++) {
        const dv_range_t &x = r[k];
        const unsigned w = x.write != 0;
        const uint32_t key = key_of(x);
        rec->a[k] = Access{x.lo, x.hi, key, static_cast<uint8_t>(x.space | w << 4)};
        op[k] = Op{x.lo, x.hi, {w ? key : ~0u, key}};
        want |= (0x10000u | w) << x.space;
    }
    // Races are rare: a first walk only looks for one, without a call in its loops (so it keeps
    // its state in registers); a second one collects them all.
    const bool found = walk(pipe, want, op, n, [](int, int, const Insn *, const Access *) { return true; });
    if (found) {
        walk(pipe, want, op, n, [this](int k, int q, const Insn *in, const Access *a) {
            hits_.push_back(Hit{k, static_cast<uint8_t>(q), static_cast<uint8_t>(a - in->a), in});
            return false;
        });
        report(pipe, index, line, r);
    }
    rec->seq = seq;
    rec->index = index;
    rec->order = order_;
    rec->nth = mine.count;
    rec->line = line;
    rec->n = static_cast<uint32_t>(n);
    mine.next = rec + 1 == mine.end ? mine.base : rec + 1;
    mine.n++;
    order_ += static_cast<uint64_t>(n);
    mine.count += static_cast<uint64_t>(n);
    held_ |= 1u << pipe;
    live_ += static_cast<size_t>(n);
    if (live_ >= prune_at_)
        prune();
    return found ? found_ : none_;
}

// The races execute found (hits_), reported by operand, then in execution order, one per earlier
// instruction.
void HazardChecker::report(dv_pipe_t pipe, uint64_t index, uint32_t line, const dv_range_t *r)
{
    found_.clear();
    std::sort(hits_.begin(), hits_.end(), [](const Hit &x, const Hit &y) {
        return x.operand != y.operand ? x.operand < y.operand : x.order() < y.order();
    });
    uint64_t reported[8];
    int nreported = 0; // one hazard per pair of instructions, however many operands overlap
    for (const Hit &hit : hits_) {
        const Insn &in = *hit.in;
        const Access &a = in.a[hit.j];
        const dv_range_t &rk = r[hit.operand];
        bool dup = false;
        for (int j = 0; j < nreported && !dup; j++)
            dup = reported[j] == in.index;
        if (dup)
            continue;
        if (nreported < 8)
            reported[nreported++] = in.index;
        const bool aw = a.sel >> 4 & 1;
        dv_hazard_t h{};
        h.kind = aw && rk.write ? DV_HAZ_WAW : aw ? DV_HAZ_RAW : DV_HAZ_WAR;
        h.pipe_first = hit.pipe;
        h.pipe_second = static_cast<uint8_t>(pipe);
        h.insn_first = in.index;
        h.insn_second = index;
        h.line_first = in.line;
        h.line_second = line;
        h.space = rk.space;
        h.arg = rk.arg;
        h.lo = std::max(a.lo, rk.lo);
        h.hi = std::min(a.hi, rk.hi);
        found_.push_back(h);
    }
    hits_.clear();
}

// A full ring: twice as many slots (at least 16), the live instructions first.
void HazardChecker::grow(List &l)
{
    const size_t slots = std::max<size_t>(16, 2 * l.slots);
    std::unique_ptr<Insn[]> own(new Insn[slots + 1]);
    Insn *const base = own.get() + 1;
    base[-1].seq = 0;
    const Insn *in = l.oldest;
    for (size_t i = 0; i < l.n; i++) {
        base[i] = *in;
        in = in + 1 == l.end ? l.base : in + 1;
    }
    l.own = std::move(own);
    l.base = l.oldest = base;
    l.end = base + slots;
    l.next = base + l.n;
    l.slots = slots;
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
        if (l.count > cap && l.first < l.count - cap) // q's newest cap accesses are kept at most
            l.first = l.count - cap;
        // instructions whose accesses are all gone, or that every pipe is ordered after
        for (; l.n; l.n--) {
            Insn &in = *l.oldest;
            if (in.nth + in.n > l.first && in.seq > known) {
                for (uint64_t j = 0; in.nth + j < l.first; j++) // the oldest may lose some to the cap
                    in.a[j].sel = kDead;
                break;
            }
            l.first = std::max(l.first, in.nth + in.n);
            in.seq = 0; // the free slot before oldest
            l.oldest = l.oldest + 1 == l.end ? l.base : l.oldest + 1;
        }
        if (l.n == 0)
            held_ &= ~(1u << q);
        live_ += l.count - l.first;
    }
    prune_at_ = std::max<size_t>(64, live_ * 2);
}

} // namespace dv
