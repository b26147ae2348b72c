// model/HazardChecker.h - finds unsynchronised cross-pipe accesses inside one core.
//
// Happens-before is tracked with vector clocks over the pipes: every executed instruction
// advances its pipe's clock; set_flag snapshots the source pipe's clock once all its earlier work
// is done; wait_flag merges the snapshot into the destination; the scalar unit's clock travels
// with every instruction it issues (so wait_flag on S and pipe_barrier(ALL) order later work).
// Two accesses from different pipes to overlapping bytes, at least one a write, with no
// happens-before between them are a hazard.  Accesses are bounding byte ranges per operand.
// A pipe's accesses race with later ones only while they are among its newest 4,096 (kCap),
// counted when the later one is checked: the work stays bounded in kernels that never synchronise.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "dv/isa.h"
#include "dv/model.h"
#include "dv/semantics.h"

namespace dv {

// A pipe's vector clock as a checker hands it out (clock()): its entries, and which version of
// which pipe's clock it is (stamp: set by that checker, kept by copies, so a copy is not to be
// changed, nor given to another checker).  A value-initialised clock (VClock{}: all zero) carries
// no version; trivial, so queues of them may stay uninitialised until written.
// Its entries count the instructions each pipe executed in the block.  They are doubles (whole
// numbers, exact below 2^53: 9e15 instructions in a block) because SSE2 has a max of packed doubles
// and none of 64-bit integers: a merge takes a pair of entries per instruction.
struct VClock {
    std::array<double, DV_PIPE_COUNT> t;
    uint64_t stamp; // the checker's count of clock changes when this version was made, << 3 | its pipe
    uint64_t operator[](size_t i) const { return static_cast<uint64_t>(static_cast<int64_t>(t[i])); }
};

// a = the entrywise max of a and b, a pair of entries at a time, then the odd one.
inline void vc_merge(VClock &a, const VClock &b)
{
    typedef double Two __attribute__((vector_size(16)));
    constexpr int kPairs = DV_PIPE_COUNT / 2;
#pragma GCC unroll 4
    for (int i = 0; i < 2 * kPairs; i += 2) { // one pair at a time: no copy of the clocks on the stack
        Two x, y;
        std::memcpy(&x, &a.t[i], sizeof x);
        std::memcpy(&y, &b.t[i], sizeof y);
        x = x > y ? x : y;
        std::memcpy(&a.t[i], &x, sizeof x);
    }
    for (int i = 2 * kPairs; i < DV_PIPE_COUNT; i++)
        a.t[i] = a.t[i] > b.t[i] ? a.t[i] : b.t[i];
}

class HazardChecker {
public:
    // A new block on a core whose pipes are the bits of `pipes` (1 << dv_pipe_t): the pipes that
    // may execute later work, whose knowledge bounds what can be forgotten.
    void reset(unsigned pipes);
    // An instruction starts on `pipe`; `issued` is the scalar clock it was issued with.  Returns
    // the hazards it makes with earlier accesses, in the order they are reported: by operand, then
    // in execution order, one per earlier instruction (valid until the next call).
    // Defined in this header and always inlined: in its one caller, the core's start path, it
    // makes no call and saves no registers of its own (the rare work stays out of line).
    [[gnu::always_inline]] const std::vector<dv_hazard_t> &execute(dv_pipe_t pipe, const VClock &issued,
                                                                   uint64_t index, uint32_t line,
                                                                   const dv_range_t *r, int n);
    // Clock of a pipe (for set_flag snapshots) and merging a snapshot of this checker's clocks
    // into a pipe (wait_flag).
    const VClock &clock(dv_pipe_t pipe) const { return vc_[pipe]; }
    void merge(dv_pipe_t pipe, const VClock &snap)
    {
        if (absorb(pipe, snap))
            changed(pipe);
    }
    // pipe_barrier(ALL) / end of stream: the scalar unit knows everything every pipe did.
    void join_all();

private:
    // An earlier access is the operand's range as execute received it (kDead in space: one the cap
    // dropped from a live instruction).
    using Access = dv_range_t;
    static constexpr uint8_t kDead = 0xff;
    // Buckets of bytes, one bit each, that an instruction writes (w) and touches (a: reads and
    // writes), in the on-chip buffers ([0]) and in GM ([1]) (sig_of).  Two accesses that race share
    // a bucket, so an earlier instruction whose written buckets miss all an instruction touches,
    // and whose touched ones miss all it writes, cannot race with it; one test passes over it.
    // Other bytes may share a bucket too: a shared one only sends the walk on to compare the
    // accesses.  A pair of words is one vector (SSE2 on x86-64): summed and compared there, the
    // buckets take none of the general registers execute's loops need.
    typedef uint64_t Pair __attribute__((vector_size(16)));
    struct Sig {
        Pair w, a;
    };
    // Whether instructions with buckets x and y may race: one writes a bucket the other touches.
    static bool shares(const Sig &x, const Sig &y)
    {
        const Pair m = (x.w & y.a) | (x.a & y.w);
#if defined(__SSE2__)
        return _mm_movemask_epi8(_mm_cmpeq_epi32(reinterpret_cast<__m128i>(m), __m128i{})) != 0xffff;
#else
        return (m[0] | m[1]) != 0;
#endif
    }
    // One executed instruction with memory operands and its accesses, one per operand.
    struct Insn {
        Sig sig;
        uint64_t seq;
        uint64_t index;
        uint64_t order; // of a[0] in execution order over all pipes (reports keep that order)
        uint64_t nth;   // of a[0] among its pipe's accesses (the cap on what a pipe keeps)
        uint32_t line;
        uint32_t n;
        Access a[DV_MAX_RANGES];
    };
    // One pipe's instructions in execution order, so seq grows along it: the ones a pipe is not
    // yet ordered after are a suffix, the ones every pipe is ordered after a prefix.  A ring of
    // slots [base, end): the live ones are the n from oldest on, next is where the next one goes,
    // and the kept before oldest are the newest ones forgotten that the scalar unit may still
    // race with (at most kKept: see prune).  Forgetting moves oldest and copies nothing; the ring
    // grows (one copy of the kept and live ones) only when they outgrow it.  The slot before
    // oldest holds a seq every pipe but S is ordered after (a kept one, or a free slot with seq 0
    // when none is kept), and base[-1] (a slot of its own) has seq 0: a walk from next down stops
    // there without counting, as seq 0 is ordered before everything (the scalar unit's walk,
    // scalar, counts instead).
    static constexpr size_t kKept = 16;
    struct List {
        Insn *base = nullptr, *end = nullptr;
        Insn *oldest = nullptr, *next = nullptr;
        size_t n = 0, slots = 0, kept = 0;
        uint64_t count = 0; // how many accesses the pipe executed
        Insn *after(Insn *in) const { return in + 1 == end ? base : in + 1; } // the slot after in
        Insn *before(Insn *in) const { return (in == base ? end : in) - 1; }  // and before it
        const Insn *before(const Insn *in) const { return (in == base ? end : in) - 1; }
        Insn *eldest() const // the oldest kept one (oldest itself when none is kept)
        {
            Insn *const in = oldest - kept;
            return in < base ? in + slots : in;
        }
    };
    static_assert(sizeof(List) == 64, "List: a pipe's is one shift away");
    struct Hit {
        int operand;
        uint8_t pipe;
        uint8_t j; // the access, in->a[j]
        const Insn *in;
        uint64_t order() const { return in->order + j; }
    };
    // Merges snap into pipe's clock, unless it is a version of a pipe q's clock no newer than one
    // already merged into it: a clock only grows within a block, so that adds nothing (most
    // instructions are issued with a scalar clock their pipe has already seen).  True if merged.
    bool absorb(dv_pipe_t pipe, const VClock &snap)
    {
        const uint64_t s = snap.stamp;
        uint64_t &seen = seen_[pipe][s & 7]; // (read before the merge's stores, which may alias it)
        const bool ours = s > epoch_;
        if (ours && s <= seen)
            return false;
        vc_merge(vc_[pipe], snap);
        if (ours)
            seen = s;
        return true;
    }
    // A new version of pipe's clock.
    void changed(dv_pipe_t pipe) { vc_[pipe].stamp = ++stamps_ << 3 | pipe; }
    template <class OnHit>
    bool walk(dv_pipe_t pipe, const Insn &now, OnHit on_hit) const;
    static bool meets(const List &list, uint64_t known, const Insn &now, int skip);
    // The rare and the occasional work, out of execute's way (its registers and its frame).
    [[gnu::noinline, gnu::cold]] void collect(dv_pipe_t pipe, const Insn &rec);
    void report(dv_pipe_t pipe, const Insn &now);
    [[gnu::noinline]] void grow(int q);
    [[gnu::noinline, gnu::cold]] void cap(int q);
    [[gnu::noinline]] void prune();
    // The least that any other pipe that may execute later work and may race with q's accesses knows
    // of q (prune's bound; the scalar unit is not in it).
    uint64_t known_by_others(int q) const;
    void forget(int q, uint64_t known);
    [[gnu::noinline, gnu::cold]] bool scalar(const Insn &rec);

    static_assert(DV_PIPE_COUNT <= 8, "VClock::stamp keeps the pipe in 3 bits");
    VClock vc_[DV_PIPE_COUNT] = {};
    uint64_t stamps_ = 0;                         // clock changes so far (all blocks)
    uint64_t epoch_ = 0;                          // stamps up to this one are from an earlier block (or none)
    uint64_t seen_[DV_PIPE_COUNT][8] = {}; // [p][q]: newest version of q's clock merged into p (rows of 8: q is 3 bits)
    // The stamp of the issue clock each pipe's last instruction carried in this block (none: ~0,
    // no stamp).  Most instructions are issued with the scalar clock their pipe's previous one
    // carried (it changes at the scalar unit's waits and accesses): merged once already, that
    // version adds nothing (a pipe's clock only grows), so execute passes over absorb's test and
    // merge with one compare.  Any other version, an older one included, takes absorb's way.
    static constexpr std::array<uint64_t, DV_PIPE_COUNT> no_issue()
    {
        std::array<uint64_t, DV_PIPE_COUNT> a{};
        for (auto &x : a)
            x = ~0ull;
        return a;
    }
    std::array<uint64_t, DV_PIPE_COUNT> issued_ = no_issue();
    // The cap on what a pipe keeps: its newest kCap accesses (by nth), live or kept, whenever another
    // pipe is checked against it, and no older one.  Defined by the pipe's own count, not by when
    // prune runs, so prune may run as seldom as it likes (kPruneFloor) without changing a report.
    // A pipe's count only grows when it executes, so execute applies the cap there (cap) once the
    // count passes capped_[q]: the oldest access it keeps plus kCap (or less: cap then only moves it).
    static constexpr uint64_t kCap = 4096;
    // The fewest accesses between two prunes.  It bounds how many instructions a synchronised
    // kernel's pipe holds between prunes, and so how many slots its ring grows to and cycles through
    // (grow): at 1,024 the vector trace's peak RSS was 45 MB (33 MB at 64); 256 keeps it at 35.5 MB
    // for nearly the same count of host instructions.
    static constexpr uint64_t kPruneFloor = 256;
    uint64_t capped_[DV_PIPE_COUNT] = {};
    List acc_[DV_PIPE_COUNT];
    uint64_t first_[DV_PIPE_COUNT] = {};         // each pipe's first live access
    std::unique_ptr<Insn[]> own_[DV_PIPE_COUNT]; // its ring's storage, base - 1 .. end - 1
    static constexpr size_t kRoom = 2048;        // grow: fourfold below, by half from here on
    // The buckets of each pipe's newest instruction with accesses (recent_[q][0]: those after seq
    // cut_, so cut_ + 1 is its seq) and of the two newest (recent_[q][1]: those after cut0_).  An
    // instruction ordered after cut_ + 1 on that pipe cannot race with any of its instructions, nor
    // one ordered after cut0_ (after cut_) whose buckets miss the two newest's (the newest's):
    // execute passes over the pipe without walking its list (on the matmul 2048^3, 69,566 of the
    // 71,840 pipes it would walk; on the vector trace 47,802 of 56,728).  Arrays of their own, so a
    // pipe's cut is one load away; the two sums side by side, so the one to test is chosen by an
    // index (known != cut_), not a branch.
    Sig recent_[DV_PIPE_COUNT][2] = {};
    uint64_t cut_[DV_PIPE_COUNT] = {}, cut0_[DV_PIPE_COUNT] = {};
    unsigned held_ = 0;                // the pipes whose list is not empty
    uint64_t prune_order_ = kPruneFloor; // order_ at which the live accesses reach the next prune's bound
    std::vector<Hit> hits_;          // one instruction's races (execute; report empties it)
    std::vector<dv_hazard_t> found_; // what execute returns when it found hazards (report)
    const std::vector<dv_hazard_t> none_{}; // and when not
    uint64_t order_ = 0;
    unsigned pipes_ = 0; // the core's pipes (reset)
};

// execute's fast path and what it uses, here so that it inlines into the core (see execute).

// A space's buckets and where its bits start in its word: the usual buffer sizes of the cube's
// spaces side by side in the local word (L1 16 KB x 32 at bit 0, L0A and L0B 8 KB x 8 at 32 and
// 40, L0C 16 KB x 8 at 48, BT 256 B x 4 at 56, FB 1 KB x 4 at 60), UB (of a vector core) 4 KB
// across the whole word, GM 16 KB across its own word, turned by the argument (so that the same
// offsets of tensors read and written in step fall on different bits).  Bucket b is bit
// (b + at) mod 64: addresses beyond a buffer's usual size, and UB beside the cube's spaces on a
// coupled core, share bits (still correct, only slower).
namespace hz_detail {
struct Buckets {
    uint8_t shift; // bytes per bucket, log2
    uint8_t at;    // bit of bucket 0
    uint8_t word;  // 0 on-chip, 1 GM
    uint8_t pad;   // (four bytes an entry: one scaled load)
};
inline constexpr Buckets kBuckets[] = {{14, 0, 1, 0},  {12, 0, 0, 0},  {14, 0, 0, 0}, {13, 32, 0, 0},
                                       {13, 40, 0, 0}, {14, 48, 0, 0}, {8, 56, 0, 0}, {10, 60, 0, 0}};
static_assert(DV_SPACE_GM == 0 && DV_SPACE_UB == 1 && DV_SPACE_L1 == 2 && DV_SPACE_L0A == 3 && DV_SPACE_L0B == 4 &&
                  DV_SPACE_L0C == 5 && DV_SPACE_BT == 6 && DV_SPACE_FB == 7 && DV_SPACE_COUNT == 8,
              "kBuckets: one entry per space, in dv_space_t's order");

// A run of d + 1 buckets (r[d]: the d + 1 low bits), read from a table: one load for the shifts
// that would make it.
struct Runs {
    uint64_t r[64];
    constexpr Runs() : r()
    {
        for (int d = 0; d < 64; d++)
            r[d] = ~0ull >> (63 - d);
    }
};
inline constexpr Runs kRuns;

// The buckets of [lo, hi) in r's space (b), in its word.  An empty or reversed range counts as
// all of them (as lo's bucket alone if hi - 1 falls in it): the overlap test below finds such a
// range only in a range that holds lo.
inline uint64_t sig_of(const dv_range_t &r, const Buckets b)
{
    const uint64_t first = r.lo >> b.shift;
    const uint64_t last = (r.hi - 1) >> b.shift; // below first (a run of 64) when hi <= lo
    const uint64_t run = kRuns.r[std::min<uint64_t>(last - first, 63)]; // a bit per bucket, all from 64 on
    const unsigned k = (first + b.at + r.arg * 0x9e37u) & 63;
    return run << k | run >> ((64 - k) & 63); // turned left by k
}
} // namespace hz_detail

// Whether an instruction of list's pipe that is not ordered before now (seq > known: the list
// holds one, cut_ says) shares a bucket with now and has an access that races with one of now's:
// execute's first look, walk's loop for one pipe without calls.  The newest first, down to an
// ordered one (as the slot before the oldest is, a kept one or free with seq 0), stepping over
// the skip newest (0 or 2: when the two newest's buckets, recent_, miss now's) without comparing.
inline bool HazardChecker::meets(const List &list, uint64_t known, const Insn &now, int skip)
{
    const Sig &sig = now.sig;
    const Insn *in = list.next;
    if (in == list.base) // the newest is in the top slot
        in = list.end;
    auto on = [&]() { // from in, on to the next older one not ordered before now (false: none)
        if (in[-1].seq > known)
            return true;
        if (in != list.base || list.oldest <= list.next) // an ordered one, or the free slot
            return false;
        in = list.end; // the live ones wrap around: on from the top
        return in[-1].seq > known;
    };
    for (int s = 0; s < skip; s++)
        if (--in, !on())
            return false;
    for (;;) {
        --in;
        if (shares(in->sig, sig)) {
            for (uint32_t j = 0; j < in->n; j++) {
                const Access &a = in->a[j];
                for (uint32_t k = 0; k < now.n; k++) {
                    const Access &o = now.a[k];
                    if (a.space == o.space && a.arg == o.arg && (a.write | o.write) && a.hi > o.lo && o.hi > a.lo)
                        return true;
                }
            }
        }
        if (!on())
            return false;
    }
}

inline const std::vector<dv_hazard_t> &HazardChecker::execute(dv_pipe_t pipe, const VClock &issued, uint64_t index,
                                                              uint32_t line, const dv_range_t *r, int n)
{
    if (issued.stamp != issued_[pipe]) { // (the version this pipe's last instruction carried adds nothing)
        absorb(pipe, issued);
        issued_[pipe] = issued.stamp;
    }
    VClock &me = vc_[pipe];
    const uint64_t seq = static_cast<uint64_t>(static_cast<int64_t>(me.t[pipe] += 1));
    changed(pipe);
    if (n == 0)
        return none_;
    // The instruction's record goes in the slot after this pipe's newest; it is written in full
    // before the others are checked (a walk never reads this pipe's list).
    List &mine = acc_[pipe];
    if (mine.n + 2 + kKept > mine.slots) // the new one, the kept ones and the free slot before them
        grow(pipe);
    Insn *const rec = mine.next;
    rec->seq = seq; // (the fields from the arguments first: their registers are free for the rest)
    cut0_[pipe] = cut_[pipe];
    cut_[pipe] = seq - 1;
    rec->index = index;
    rec->line = line;
    rec->n = static_cast<uint32_t>(n);
    uint64_t s[4] = {0, 0, 0, 0}; // buckets only read on-chip and in GM, then written (as Sig's words)
    auto one = [&](int k) {
        const dv_range_t &x = r[k];
        rec->a[k] = x;
        const hz_detail::Buckets b = hz_detail::kBuckets[x.space & 7];
        s[b.word + 2 * size_t{x.write != 0}] |= hz_detail::sig_of(x, b);
    };
    static_assert(DV_MAX_RANGES == 4, "one case per count");
    switch (n) { // straight code for each count (a loop's is slower), from the last (n <= 4)
    default:
        one(3);
        [[fallthrough]];
    case 3:
        one(2);
        [[fallthrough]];
    case 2:
        one(1);
        [[fallthrough]];
    case 1:
        one(0);
    }
    // The words are read one by one, each as it was stored: a 16-byte load of two of them would wait
    // for both 8-byte stores to reach the cache instead of taking their values from the store buffer
    // (about a sixth of start_head's time in perf on the vector trace and the 8192^3 matmul).
    uint64_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
    __asm__("" : "+r"(s0), "+r"(s1), "+r"(s2), "+r"(s3)); // (keeps them scalar loads)
    const Pair w{s2, s3};
    const Sig sig{w, Pair{s0, s1} | w};
    rec->sig = sig;
    Sig *const recent = recent_[pipe];
    recent[1] = Sig{recent[0].w | sig.w, recent[0].a | sig.a};
    recent[0] = sig;
    rec->order = order_;
    rec->nth = mine.count;
    mine.next = rec + 1 == mine.end ? mine.base : rec + 1;
    mine.n++;
    order_ += static_cast<uint64_t>(n);
    mine.count += static_cast<uint64_t>(n);
    if (__builtin_expect(mine.count > capped_[pipe], 0))
        cap(pipe);
    const unsigned others = held_ & ~(1u << pipe);
    held_ |= 1u << pipe;
    if (__builtin_expect(pipe == DV_PIPE_S, 0)) { // the scalar unit's own access (ld_ub, st_gm, ...)
        const bool hit = scalar(*rec);
        if (order_ >= prune_order_)
            prune();
        return hit ? found_ : none_;
    }
    // Races are rare: a first look only asks whether there is one, pipe by pipe, and only of the
    // pipes with an instruction this one is not ordered after; a second walk collects them all.
    bool found = false;
    for (unsigned m = others; m; m &= m - 1) {
        const size_t q = static_cast<size_t>(__builtin_ctz(m));
        const uint64_t known = me[q];
        if (known > cut_[q]) // ordered after q's newest
            continue;
        const bool near = shares(recent_[q][known != cut_[q]], sig); // the newest one (two) of q and rec
        int skip = 0; // the newest instructions of q that share no bucket with rec
        if (known >= cut0_[q]) {
            if (!near)
                continue;
        } else if (!near)
            skip = 2;
        if (meets(acc_[q], known, *rec, skip)) {
            found = true;
            break;
        }
    }
    if (found)
        collect(pipe, *rec);
    if (order_ >= prune_order_)
        prune();
    return found ? found_ : none_;
}

} // namespace dv
