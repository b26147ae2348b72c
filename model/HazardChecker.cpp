// model/HazardChecker.cpp - the checker's rare and occasional work (execute's fast path, which
// every executed instruction takes, is in the header: it inlines into the core's start path).
#include "HazardChecker.h"

#include <algorithm>

namespace dv {

namespace {
// apart[q]: the pipes whose instructions can never race with pipe q's, nor can the scalar unit's
// (prune's bound leaves them out): neither writes a space the other touches (dv_pipe_spaces, from
// the ISA's tables).  On a cube core MTE3 (L1, UB -> GM) is apart from M (L0A, L0B -> L0C) and from
// MTE1 (L1 -> L0A, L0B, BT), so a kernel that never runs MTE3 - the matmuls, which write GM through
// FixPipe - no longer keeps their accesses until the cap.
struct Apart {
    unsigned of[DV_PIPE_COUNT] = {};
    static const Apart &table() // (made at first use: the ISA's tables are complete once main runs)
    {
        static const Apart a;
        return a;
    }
    Apart()
    {
        unsigned touch[DV_PIPE_COUNT], write[DV_PIPE_COUNT];
        for (int p = 0; p < DV_PIPE_COUNT; p++) {
            touch[p] = dv_pipe_spaces(static_cast<dv_pipe_t>(p), false);
            write[p] = dv_pipe_spaces(static_cast<dv_pipe_t>(p), true);
        }
        auto apart = [&](int a, int b) { return !(write[a] & touch[b]) && !(write[b] & touch[a]); };
        for (int q = 0; q < DV_PIPE_COUNT; q++)
            for (int b = 0; b < DV_PIPE_COUNT; b++)
                if (b != q && b != DV_PIPE_S && apart(q, b) && apart(q, DV_PIPE_S))
                    of[q] |= 1u << b;
    }
};
} // namespace

void HazardChecker::reset(unsigned pipes)
{
    pipes_ = pipes;
    epoch_ = stamps_ << 3 | 7; // seen_ is stale from here on: it holds no newer stamp
    for (int p = 0; p < DV_PIPE_COUNT; p++) {
        vc_[p].t.fill(0);
        changed(static_cast<dv_pipe_t>(p));
    }
    for (int q = 0; q < DV_PIPE_COUNT; q++) {
        List &l = acc_[q];
        l.oldest = l.next = l.base; // base[-1] is free
        l.n = l.kept = l.count = 0;
        first_[q] = 0;
        capped_[q] = kCap;
        recent_[q][0] = recent_[q][1] = Sig{};
        cut_[q] = cut0_[q] = 0;
    }
    issued_ = no_issue();
    held_ = 0;
    prune_order_ = kPruneFloor;
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


// Calls on_hit(k, q, in, j) for each access in->a[j] (of instruction in, on pipe q) that races
// with access k of now, an instruction starting on pipe, until it returns true; true if one did.  Only
// the suffix of each other pipe's list that pipe is not ordered after (by a flag or barrier) can
// race, and of it only instructions whose buckets meet now's.  execute's first look (meets) is
// the same walk without calls; this one collects the races once it has found one.
template <class OnHit>
bool HazardChecker::walk(dv_pipe_t pipe, const Insn &now, OnHit on_hit) const
{
    const VClock &me = vc_[pipe];
    const Sig &sig = now.sig;
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
            if (!shares(in->sig, sig))
                continue;
            for (uint32_t j = 0; j < in->n; j++) {
                const Access &a = in->a[j];
                for (uint32_t k = 0; k < now.n; k++) {
                    const Access &o = now.a[k];
                    if (a.space == o.space && a.arg == o.arg && (a.write | o.write) && a.hi > o.lo && o.hi > a.lo &&
                        on_hit(static_cast<int>(k), q, in, j))
                        return true;
                }
            }
        }
    }
    return false;
}

// Every race of rec (an instruction execute is checking) with an earlier access, reported.
void HazardChecker::collect(dv_pipe_t pipe, const Insn &rec)
{
    walk(pipe, rec, [this](int k, int q, const Insn *in, uint32_t j) {
        hits_.push_back(Hit{k, static_cast<uint8_t>(q), static_cast<uint8_t>(j), in});
        return false;
    });
    report(pipe, rec);
}

// The races execute found (hits_), reported by operand, then in execution order, one per earlier
// instruction.
void HazardChecker::report(dv_pipe_t pipe, const Insn &now)
{
    const Access *const r = now.a;
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
        const bool aw = a.write != 0;
        dv_hazard_t h{};
        h.kind = aw && rk.write ? DV_HAZ_WAW : aw ? DV_HAZ_RAW : DV_HAZ_WAR;
        h.pipe_first = hit.pipe;
        h.pipe_second = static_cast<uint8_t>(pipe);
        h.insn_first = in.index;
        h.insn_second = now.index;
        h.line_first = in.line;
        h.line_second = now.line;
        h.space = rk.space;
        h.arg = rk.arg;
        h.lo = std::max(a.lo, rk.lo);
        h.hi = std::min(a.hi, rk.hi);
        found_.push_back(h);
    }
    hits_.clear();
}

// A full ring: four times as many slots (at least 2 kKept) below kRoom, half as many again from
// there, the kept and live instructions first.  Growing fourfold copies a third of what doubling
// would.  But a ring cycles through all its slots, so each is written, and takes memory, however
// few are in use: from kRoom on it grows by half, as a pipe at the cap (kCap accesses, 2 an
// instruction on the 8192^3 matmul's MTE1 and MTE2) needs just past 2,048 slots (8192^3 --json:
// fourfold, peak RSS 107 MB and 34,704 page faults; doubling 85 MB, 29,074; by half 101 -> 92 MB
// and 23,890 -> 21,720 with dvsim's malloc settings).  Its storage is allocated for its slots and
// no more: slots past those in use take no memory in small pages, but dvsim's heap may be in 2 MB
// pages (sim/main.c), where storage reserved for kRoom slots from the start (to grow in place, as
// it did) is memory taken whole: the matmul 2048^3's 120 rings made its heap 54 MB, 12.6 MB of it
// written (callgrind: the copies cost 2 host instructions per simulated one there, 1,317.8 ->
// 1,319.8, and 0.1 on the vector trace).
void HazardChecker::grow(int q)
{
    List &l = acc_[q];
    const size_t slots = std::max<size_t>(2 * kKept, l.slots < kRoom ? 4 * l.slots : l.slots + l.slots / 2);
    Insn *in = l.eldest();
    const size_t all = l.kept + l.n;
    std::unique_ptr<Insn[]> own(new Insn[slots + 1]);
    Insn *const base = own.get() + 1;
    base[-1].seq = 0;
    for (size_t i = 0; i < all; i++) { // a loop, not std::copy: its memmove took 5x the host instructions
        base[i] = *in;
        in = l.after(in);
    }
    own_[q] = std::move(own);
    l.base = base;
    l.oldest = base + l.kept;
    l.end = base + slots;
    l.next = base + all;
    l.slots = slots;
}

// Drop accesses every other pipe is already ordered after: they cannot race with anything later
// on those pipes.  Along one pipe's list seq grows, so they are a prefix.  What a pipe p will know
// of q when it executes later work is at least its own clock's entry vc_[p][q] (its flags and its
// own work only add to it).  The scalar clock is no bound: work already waiting in p's queue
// carries the older clock of its issue, and a pipe that has not run yet still has all of its
// work ahead of it.
// The scalar unit is not in that bound, although it executes accesses (ld_ub, st_ub, ld_gm,
// st_gm): in most kernels it never waits, so it would keep every access until the cap.  Instead
// each list keeps its newest kKept instructions forgotten this way in place, in the ring before
// oldest (no copy), and the scalar unit's accesses are compared with them too (scalar): a race
// with an instruction forgotten before those is missed.
// Nor are the pipes apart from q (Apart) in the bound: none of their accesses, nor any of the
// scalar unit's, can race with q's, so what is forgotten of q is nothing they could race with.
uint64_t HazardChecker::known_by_others(int q) const
{
    const unsigned bound = pipes_ & ((1u << DV_PIPE_COUNT) - 1) & ~(1u << DV_PIPE_S);
    uint64_t known = UINT64_MAX;
    for (unsigned b = bound & ~(1u << q) & ~Apart::table().of[q]; b; b &= b - 1)
        known = std::min(known, vc_[__builtin_ctz(b)][q]);
    return known;
}

void HazardChecker::prune()
{
    uint64_t live = 0;
    for (unsigned m = held_; m; m &= m - 1) {
        const int q = __builtin_ctz(m);
        List &l = acc_[q];
        forget(q, known_by_others(q));
        live += l.count - first_[q];
    }
    prune_order_ = order_ + std::max<uint64_t>(kPruneFloor, live * 2) - live; // when the live ones reach twice as many
}

// q's count passed capped_[q]: drop the accesses older than its newest kCap, the kept ones first
// (they are older than the live ones), whole instructions, then those of one instruction before
// the cut (marked kDead in place).  With the live ones goes the need for any kept one.  Then the
// next count at which this must run again: the oldest access still kept plus kCap.
void HazardChecker::cap(int q)
{
    List &l = acc_[q];
    auto cut = [](Insn *in, uint64_t first) { // the accesses of in before first
        for (uint64_t j = 0; j < in->n && in->nth + j < first; j++)
            in->a[j].space = kDead;
    };
    const uint64_t first = l.count - kCap;
    size_t kept = l.kept;
    Insn *in = l.eldest();
    for (; kept && in->nth + in->n <= first; kept--)
        in = l.after(in);
    l.kept = kept;
    if (kept) {
        cut(in, first);
    } else {
        Insn *o = l.oldest;
        size_t n = l.n;
        bool dropped = false;
        for (; n && o->nth + o->n <= first; n--, dropped = true)
            o = l.after(o);
        if (n)
            cut(o, first);
        if (dropped) // the free slot before oldest (no walk reads further back)
            l.before(o)->seq = 0;
        l.oldest = in = o;
        l.n = n;
        first_[q] = std::max(first_[q], first);
        if (n == 0)
            held_ &= ~(1u << q);
    }
    capped_[q] = (l.n + kept ? std::max(in->nth, first) : l.count) + kCap;
}

// Drops q's oldest instructions every other pipe but S is ordered after (seq <= known: they join
// the kept ones, of which the newest kKept stay).  (The cap is cap's work: what it dropped is
// gone already.)
inline void HazardChecker::forget(int q, uint64_t known)
{
    List &l = acc_[q];
    // in locals: the records' stores could alias the list's fields
    Insn *const oldest = l.oldest, *const end = l.end;
    const size_t slots = l.slots;
    auto at = [=](size_t i) { // the i-th live one (i = n: the slot after the newest)
        Insn *const p = oldest + i;
        return p >= end ? p - slots : p;
    };
    size_t n = l.n, kept = l.kept, dropped = 0;
    uint64_t first = first_[q];
    // How many of the oldest every pipe but S is ordered after: seq grows along the list, so a
    // halving search (prune runs seldom, and finds hundreds at a time).
    size_t lo = 0, hi = n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (at(mid)->seq <= known)
            lo = mid + 1;
        else
            hi = mid;
    }
    Insn *in = at(lo);
    if (lo) {
        const Insn *last = at(lo - 1); // the newest of them
        first = last->nth + last->n;
        dropped += lo;
        kept += lo;
        n -= lo;
    }
    if (q == DV_PIPE_S) // its own accesses never race with the scalar unit
        kept = 0;
    kept = std::min(kept, kKept);
    if (dropped && !kept) // the free slot before oldest (no walk reads further back)
        l.before(in)->seq = 0;
    l.oldest = in;
    l.n = n;
    l.kept = kept;
    first_[q] = first;
    if (n == 0)
        held_ &= ~(1u << q);
}

// The scalar unit's access rec (its record written): first every instruction every other pipe is
// ordered after is forgotten (as prune would: what it keeps does not depend on when prune ran),
// then rec is compared with each other pipe's live and kept instructions it is not ordered after,
// newest first.
bool HazardChecker::scalar(const Insn &rec)
{
    for (unsigned m = held_ & ~(1u << DV_PIPE_S); m; m &= m - 1) {
        const int q = __builtin_ctz(m);
        forget(q, known_by_others(q));
    }
    const VClock &me = vc_[DV_PIPE_S];
    for (int q = 0; q < DV_PIPE_COUNT; q++) {
        const List &l = acc_[q];
        const uint64_t known = me[static_cast<size_t>(q)];
        if (q == DV_PIPE_S || l.n + l.kept == 0 || cut_[q] < known)
            continue;
        const Insn *in = l.next;
        for (size_t i = l.n + l.kept; i; i--) {
            in = l.before(in);
            if (in->seq <= known)
                break;
            if (!shares(in->sig, rec.sig))
                continue;
            for (uint32_t j = 0; j < in->n; j++) {
                const Access &a = in->a[j];
                for (uint32_t k = 0; k < rec.n; k++) {
                    const Access &o = rec.a[k];
                    if (a.space == o.space && a.arg == o.arg && (a.write | o.write) && a.hi > o.lo && o.hi > a.lo)
                        hits_.push_back(Hit{static_cast<int>(k), static_cast<uint8_t>(q), static_cast<uint8_t>(j), in});
                }
            }
        }
    }
    if (hits_.empty())
        return false;
    report(DV_PIPE_S, rec);
    return true;
}

} // namespace dv
