// model/L2Cache.h - the shared L2: set-associative (consecutive lines in consecutive sets, each run
// of `sets` lines rotated by a hash of its number, as hardware hashes addresses across its L2 sets
// and slices), least-recently-used replacement (an invalid way first), write-allocate, write-back or
// (l2.write_through) write-through, with an aggregate bandwidth shared by all cores.  It is the GM entry point of every
// DMA engine: reads that miss fetch whole lines from HBM; a write-through write sends its bytes to
// HBM at once; a write-back one leaves the line dirty, written back when it is evicted or while the chip
// idles between the runs of a replay (idle_write_back, chip.replay_gap_cycles).
//
// Per-tensor cache mode (dv_arg_t.l2, Ascend C GlobalTensor::SetL2CacheHint): it travels with the
// GM address, as on the 910B, where CACHE_MODE_DISABLE makes a tensor's address an alias whose
// accesses are not allocated in L2 (here: bit DV_GM_L2_DISABLE_BIT of the device address, L2Cache::alias).  An access
// in DV_L2_DISABLE mode looks its lines up without allocating and without touching the replacement
// state: a line already present is served (read) or updated (write; dirty in write-back) in L2, so
// the L2 stays coherent with a normal alias of the same memory; a read miss takes only the bytes
// asked for from HBM and a write miss sends them to HBM.  Bypassed bytes use no L2 bandwidth.
#pragma once
#include <memory>
#include <systemc>
#include <unordered_map>
#include <vector>

#include "BandwidthCalendar.h"
#include "Connection.h"
#include "Hbm.h"
#include "Zeros.h"
#include "dv/config.h"
#include "dv/kernel.h"

namespace dv {

// The GM side of one DMA instruction: `count` contiguous runs of `bytes` bytes each.  Run i starts at
// the device address list[i] when a list is given, else at base + (i / group) * group_stride +
// (i % group) * stride (group 0: one group of all runs) - a transfer's rows (dv_xfer_t).
struct GmRuns {
    uint64_t count = 0;
    uint64_t bytes = 0;                 // per run
    uint64_t base = 0, stride = 0, group = 0, group_stride = 0;
    const uint64_t *list = nullptr;
    dv_l2_mode_t mode = DV_L2_NORMAL;   // the cache mode of the instruction's GM argument
    // Run addresses in order, without a division per run.
    struct Cursor {
        const GmRuns &r;
        uint64_t i = 0, in_group = 0, group_start;
        explicit Cursor(const GmRuns &runs) : r(runs), group_start(runs.base) {}
        uint64_t next()
        {
            if (r.list)
                return r.list[i++];
            const uint64_t a = group_start + in_group * r.stride;
            i++;
            if (++in_group == r.group) {
                in_group = 0;
                group_start += r.group_stride;
            }
            return a;
        }
    };
};

struct GmResult {
    cycles_t done = 0;  // last byte through L2 (and HBM for misses)
    bool miss = false;  // at least one line came from HBM
    bool hbm = false;   // done is HBM's (its bytes were through after the L2's)
};

class L2Cache : public sc_core::sc_module {
public:
    // Its section of the profile (l2.*) and sim.bandwidth_window_cycles.
    struct Params {
        uint64_t size_bytes, line_bytes, ways; // size 0: no L2, every access goes to HBM
        bool write_through;
        uint64_t bytes_per_cycle, window_cycles;
        static Params from(const dv_config_t &cfg);
    };

    L2Cache(sc_core::sc_module_name name, const Params &p);

    // The GM address as the cores see it: the device address with the argument's cache mode (bit
    // kModeBit set for DV_L2_DISABLE, the hardware's alias); mode_of / strip take it apart.
    static constexpr unsigned kModeBit = DV_GM_L2_DISABLE_BIT;
    static uint64_t alias(uint64_t addr, dv_l2_mode_t m)
    {
        return m == DV_L2_DISABLE ? addr | 1ull << kModeBit : addr;
    }
    static dv_l2_mode_t mode_of(uint64_t a) { return a >> kModeBit & 1 ? DV_L2_DISABLE : DV_L2_NORMAL; }
    static uint64_t strip(uint64_t a) { return a & ~(1ull << kModeBit); }

    // Where misses, write-backs and write-through bytes go.
    Connection<Hbm> hbm;

    // Move the runs' bytes for core `requester` from cycle t (after the engine's issue).
    GmResult transfer(cycles_t t, const GmRuns &runs, bool write, unsigned requester);
    void retire(cycles_t t) { cal_.retire(t); }
    void start(unsigned contenders) { cal_.start(contenders); } // BandwidthCalendar::start
    void reset_counters() { hits = misses = writebacks = bypassed = 0; }
    // The chip idles between two runs of a profiler's replay (dv_run_opts_t.warm_up): up to max_lines dirty
    // lines, least recently used first, are written back and stay, clean.  Returns the lines written back
    // (outside any run's counters).
    uint64_t idle_write_back(uint64_t max_lines);
    cycles_t hbm_latency() const { return hbm->latency; }

    uint64_t hits = 0, misses = 0, writebacks = 0; // in lines
    uint64_t bypassed = 0; // lines of DV_L2_DISABLE accesses that missed (and were not allocated); also in misses

    // The set of a line (line address = byte address / line bytes): line mod sets, rotated by a
    // hash of line / sets (which run of `sets` consecutive lines it is in).
    // *in_run, when given: the line's place in its run (line mod sets).
    uint64_t set_of(uint64_t line_addr, uint64_t *in_run = nullptr) const
    {
        uint64_t in_run_v = line_addr - memo_first_; // the memo's run (wraps to a huge value below it)
        if (in_run_v >= sets_) {                     // another run: divide, and remember its rotation
            const uint64_t run = line_addr / sets_;
            in_run_v = line_addr - run * sets_;
            rotation(run);
        }
        if (in_run)
            *in_run = in_run_v;
        const uint64_t set = in_run_v + memo_rot_; // both below sets_: (in_run + rot) mod sets_
        return set >= sets_ ? set - sets_ : set;
    }
    uint64_t sets() const { return sets_; } // 0: no L2

private:
    // The set a run of `sets` lines starts at (set_of), remembered as the last run seen.
    uint64_t rotation(uint64_t run) const;

    // Lines never allocated are sure misses: touch_runs skips their lookup.  Each run of `sets`
    // lines that an allocating access reached has a bitmap of the lines allocated in it at some
    // time (a bit is never cleared: an evicted line just takes the full lookup); the runs' bitmaps
    // are found through a direct-mapped cache of kRunSlots runs, which also keeps their rotation.
    struct RunSlot {
        uint64_t run1 = 0; // run + 1; 0: empty
        uint64_t rot = 0;  // rotation(run)
        uint64_t *seen = nullptr;
    };
    static constexpr uint64_t kRunSlots = 1024;
    // Inline: touch_runs asks at almost every call (a transfer's first line is mostly in another
    // run than the previous transfer's), and the slot is nearly always there already.
    const RunSlot &run_slot(uint64_t run)
    {
        const RunSlot &c = run_slots_[run % kRunSlots];
        return c.run1 == run + 1 ? c : fill_run_slot(run);
    }
    const RunSlot &fill_run_slot(uint64_t run); // run's slot after a miss

    // The run of `sets` lines a walk over lines is in - its number, first line, rotation, bitmap of
    // lines allocated and its key (key_of) - held in locals while touch_runs walks, set_of's
    // memo before and after (with sets_: the stores into the sets' state may alias any member, a
    // local they cannot).
    struct Walk {
        uint64_t run, first, rot, *seen, sets, key;
    };
    Walk walk_start() // from the memo (its bitmap looked up when rotation() left it out)
    {
        return Walk{memo_run_, memo_first_, memo_rot_, memo_seen_ ? memo_seen_ : run_slot(memo_run_).seen, sets_,
                    key_of(memo_run_)};
    }
    void walk_end(const Walk &k)
    {
        memo_run_ = k.run;
        memo_first_ = k.first;
        memo_rot_ = k.rot;
        memo_seen_ = k.seen;
    }
    // The set of line l and its place in its run of `sets` lines (in_run); k moves to l's run,
    // out of line when Far (a walk that seldom leaves its run: its loop keeps k in registers).
    template <bool Far = false>
    uint64_t set_in(Walk &k, uint64_t l, uint64_t &in_run)
    {
        in_run = l - k.first;
        if (in_run >= k.sets) {
            k = Far ? walk_far(l, k.sets) : walk_to(l, k.sets);
            in_run = l - k.first;
        }
        const uint64_t set = in_run + k.rot;
        return set >= k.sets ? set - k.sets : set;
    }
    Walk walk_to(uint64_t l, uint64_t sets) // the walk at line l's run
    {
        const uint64_t run = l / sets;
        const RunSlot &c = run_slot(run);
        return Walk{run, run * sets, c.rot, c.seen, sets, key_of(run)};
    }
    __attribute__((noinline)) Walk walk_far(uint64_t l, uint64_t sets) { return walk_to(l, sets); }

    // One set's state is in two arrays, so that what every access reads is dense: with the
    // profiles' 192 MB of 16 ways (24,576 sets) the headers take 1.5 MB, one 64-byte host cache line
    // each, where one block of 320 bytes per set took 7.9 MB and a lookup missed the host's caches in
    // three places (its set's order, its way's tag and its way's used).  A lookup in a set of at most
    // kOrderWays ways reads only the header, whose keys tell its lines apart (key_of), and only writes
    // the ways; a far line's (key) or a wider set's (fill) also reads the ways' tags.
    // A set's header (head_bytes(ways) bytes, set s at heads_ + s x head_):
    //   fill  (u64, kFill)    with more than kOrderWays ways: valid ways, 0 .. fill - 1 (a way once
    //                         used stays valid)
    //   order (u64, kOrder)   with at most kOrderWays ways: every way, from the most recently used
    //                         (bits 0-3) to the least, 4-bit way numbers, so that the victim is read,
    //                         not searched for.  The invalid ways (tag 0) are the order's last entries
    //                         in the order they are to be taken (Order); the word holds the order XOR
    //                         Order::init, so that a zeroed header is an empty set.  fill and order
    //                         are never both used: they are one word
    //   mru   (u64, kMruTag)  with a recency order: a copy of the tag of the most recently used way
    //                         (0 in an empty set, as that way's), so that a line found there - most
    //                         of a tile's rows - is found from the header alone (its way still
    //                         records the use: a store, which the host does not wait for); without
    //                         one, unused (either way the 8 bytes keep the keys on a 16-byte
    //                         boundary)
    //   dirty (u8 per way, at kDirtyAt)  1 when the way's line is dirty (a byte, not a bit: a miss
    //                         reads and sets its victim's without shifting), padded to a multiple of 16
    //   key   (u16 per way, at key_at(ways))  each way's key_of(its line's run of `sets` lines); 0 for
    //                         an invalid way; padded to kKeyChunk ways, on a 16-byte boundary (headers
    //                         start on 16-byte ones).  The lines that share a set are all in different
    //                         runs (a run's `sets` lines take every set once), so a key below kFar is
    //                         the line itself and a way whose key matches holds it: only a far key (a
    //                         run from kFar - 1 on: with the profiles' 192 MB, lines past 412 GB; in a
    //                         small L2 most lines) is checked against the way's tag.  (With a byte of
    //                         the tag instead, every hit past the most recently used way read the way's
    //                         tag too: a host cache miss per row of a tile, ~12% of the 8192^3
    //                         matmul's time.)
    // The sets' ways, way by way (way w of set s at ways_mem_ + (w x sets + s) x kWayWords): each
    // way's tag and used side by side (Ways), so that a hit or a fill touches one host line of them,
    // and the same way of consecutive sets side by side, so that a stream of lines never allocated,
    // which takes consecutive sets and in them mostly the same way, writes four sets' ways per host
    // line instead of one (the bench's vector trace: 30% fewer host cache misses and about a fifth
    // less time than with each set's ways together):
    //   tag   (u64)           line address + 1; 0 = invalid
    //   used  (u64)           when the way was last used (0: never), less its tag: use - tag,
    //                         modulo 2^64 (stamp()), so that a run of lines never allocated, whose
    //                         uses and tags both count up by one, stores one value in all its ways;
    //                         idle_write_back orders the dirty lines of all sets by used + tag (a
    //                         DV_L2_DISABLE write can make a clean line dirty, so every line records
    //                         it), and it finds the victim of more than kOrderWays ways
    // Both are Zeros: all-zero state is an empty set, and only the sets touched take host memory.
    // (A header of 32 bytes - the dirty flags a bit of each way's byte of its tag, which was its key
    // before key_of - kept 0.8 MB, but reading and writing the flag there cost two host instructions
    // more per fresh line.)
    static constexpr uint64_t kFill = 0, kOrder = 0, kMruTag = 8, kDirtyAt = 16, kWayWords = 2;
    static constexpr uint64_t key_at(uint64_t ways) { return kDirtyAt + (ways + 15) / 16 * 16; }
    static constexpr uint64_t head_bytes(uint64_t ways)
    {
        return key_at(ways) + (ways + kKeyChunk - 1) / kKeyChunk * kKeyChunk * sizeof(uint16_t);
    }
    // One set's ways: way w's tag and used at p[w x stride] and p[w x stride + 1] (stride: kWayWords x
    // sets).  (Words, not a struct of two: the compiler then addresses both from the way's offset
    // instead of forming each way's address first.)  It is passed by value, so that the loops keep
    // the stride in a register: a member would be read again after each store into the sets' state,
    // which may alias it.  v + n: the ways of the set n sets further on.
    struct Ways {
        uint64_t *p, stride;
        uint64_t &tag(uint64_t w) const { return p[stride * w]; }
        uint64_t &used(uint64_t w) const { return p[stride * w + 1]; }
        Ways operator+(uint64_t n) const { return Ways{p + kWayWords * n, stride}; }
        Ways &operator+=(uint64_t n)
        {
            p += kWayWords * n;
            return *this;
        }
    };
    // The recency order of a set of `ways` ways (at most kOrderWays).  An empty set's order is ways
    // - 1 .. 0 (init): its last entry, the victim, is way 0, and a miss moves the victim to the
    // front (the order rotates), so the invalid ways stay the order's last entries and are taken
    // lowest first, before any valid one - the prefix of valid ways that a count of them would keep.
    // The stored word is order ^ init: the victim's entry (init's last, 0) is read as stored, and a
    // miss's rotation is one of the stored word, XOR rot (rotate() below).
    struct Order {
        uint64_t init, keep, rot; // keep: the order's bits
    };
    static constexpr Order order_of(uint64_t ways)
    {
        uint64_t init = 0;
        for (uint64_t p = 0; p < ways && ways <= kOrderWays; p++)
            init |= (ways - 1 - p) << 4 * p;
        const uint64_t keep = ways >= kOrderWays ? ~0ull : (1ull << (4 * ways)) - 1;
        return Order{init, keep, (init << 4 & keep) ^ init};
    }
    // The stored order of a set (ways ways, Order o) after a miss: the victim (the last entry,
    // victim()) moved to the front.
    static uint64_t victim(uint64_t stored, uint64_t ways) { return stored >> (4 * (ways - 1)) & 15; }
    static uint64_t rotate(uint64_t stored, uint64_t ways, const Order &o)
    {
        return ((stored << 4 & o.keep) | victim(stored, ways)) ^ o.rot;
    }
    // The most recently used way of a set whose stored order is `stored`.
    static uint64_t mru(uint64_t stored, uint64_t ways) { return (stored & 15) ^ (ways - 1); }
    // A new stored order for the set with header h, whose first way now holds tag: every change of
    // the first way goes through here (hit_recent spells out the same two stores), so that the
    // header's copy of its tag (kMruTag) follows it.
    static void lead(unsigned char *h, uint64_t stored, uint64_t tag)
    {
        field(h, kOrder) = stored;
        field(h, kMruTag) = tag;
    }
    // What a way's used records for a use of its line (tag: line + 1) at `use` (Ways::used).
    static uint64_t stamp(uint64_t use, uint64_t tag) { return use - tag; }
    // The key of the lines of run `run` (of `sets` lines) in their sets' headers: run + 1 (0 is an
    // invalid way's) for the runs below kFar - 1, else kFar and the run's low 15 bits, which only
    // narrow the ways whose tags are compared.
    static constexpr uint64_t kFar = 0x8000;
    static uint64_t key_of(uint64_t run) { return run < kFar - 1 ? run + 1 : kFar | (run & (kFar - 1)); }
    // The keys of the header h (key_off<W>() into it).
    template <uint64_t W>
    uint16_t *keys(unsigned char *h) const { return reinterpret_cast<uint16_t *>(h + key_off<W>()); }
    template <uint64_t W>
    const uint16_t *keys(const unsigned char *h) const
    {
        return reinterpret_cast<const uint16_t *>(h + key_off<W>());
    }
    // Per-access tallies of touch_runs.
    struct Tally {
        uint64_t lines = 0, misses = 0, writebacks = 0;
    };
    // Look up the lines of every run (an allocating access): hits move their way to the front of
    // the recency order, misses take an invalid way or the least recently used one (its line
    // written back when dirty).  W: the ways when known at compile time (the profiles' 16), else 0;
    // D: the lines touched become dirty (a write in write-back), else they keep their state (a hit)
    // or come in clean.
    template <uint64_t W, bool D>
    Tally touch_runs(const GmRuns &runs);
    // touch_runs for runs that each fall within one line, whole lines apart (a tile's rows; the rows of a
    // group in distinct lines).
    template <uint64_t W, bool D>
    Tally touch_rows(const GmRuns &runs);
    // touch_runs for one run of `bytes` bytes at address a.
    template <uint64_t W, bool D>
    Tally touch_run(uint64_t a, uint64_t bytes);
    template <uint64_t W, bool D>
    Tally touch_run_any(uint64_t a, uint64_t bytes);
    // A miss of a line never allocated (tag: line + 1) in the set with header h and ways v (at most
    // kOrderWays ways), whose way records the stamp `st` (stamp(use, tag)).
    template <uint64_t W, bool D>
    void fresh_miss(unsigned char *h, Ways v, uint64_t tag, uint64_t key, uint64_t st, uint64_t &writebacks) const;
    // touch_runs' misses of n lines never allocated, tags tag .. tag + n - 1 (all of one run, key
    // `key`), in the n sets from the one with header h and ways v (at most kOrderWays ways).
    template <uint64_t W, bool D>
    void fresh_lines(unsigned char *h, Ways v, uint64_t tag, uint64_t key, uint64_t n, uint64_t &uses,
                     uint64_t &writebacks) const;
    template <uint64_t W, bool D>
    uint64_t fresh_run(unsigned char *h, Ways v, uint64_t tag, uint64_t key, uint64_t n, uint64_t uses) const;
    // touch_runs' lookup of lines l .. last (l < last) from the set `set`, l's place in its run in_run.
    template <uint64_t W, bool D>
    void touch_lines(uint64_t l, uint64_t last, uint64_t in_run, uint64_t set, Walk &k, uint64_t &uses,
                     uint64_t &misses, uint64_t &writebacks);
    // touch_runs' lookup of one line (tag: line + 1, key `key`) in the set with header h and ways v:
    // its most recently used way, else lookup.
    template <uint64_t W, bool D>
    void touch(unsigned char *h, Ways v, uint64_t tag, uint64_t key, bool fresh, uint64_t at, uint64_t *seen,
               uint64_t use, uint64_t &misses, uint64_t &writebacks) const;
    // touch_runs' lookup of a line (tag: line + 1, key `key`) in the set (h, v) past its most recently used way:
    // a hit moves its way to the front of the order; a miss takes a way (writing back a dirty
    // victim: writebacks) and sets the line's bit `at` of its run's bitmap `seen` (kMarked: the
    // caller did).  fresh: the line was never allocated (a sure miss).  The way records `use`.
    template <uint64_t W, bool D>
    void lookup(unsigned char *h, Ways v, uint64_t tag, uint64_t key, bool fresh, uint64_t at, uint64_t *seen,
                uint64_t use, uint64_t &misses, uint64_t &writebacks) const;
    template <uint64_t W, bool D>
    bool hit_recent(unsigned char *h, Ways v, uint64_t tag, uint64_t key, uint64_t st) const;
    template <uint64_t W, bool D>
    void lookup_cold(unsigned char *h, Ways v, uint64_t tag, uint64_t key, uint64_t at, uint64_t *seen, uint64_t st,
                     Tally &t) const;
    static constexpr uint64_t kMarked = ~0ull; // lookup: the line's bit is set already
    // A DV_L2_DISABLE access of one line: true on a hit (a write marks the line dirty in write-back).
    bool probe(uint64_t line_addr, uint64_t set, bool write);
    // The way of the set (h, v) holding tag (line address + 1, key `key`), or ways: up to kScanWays
    // valid ways' tags are compared one by one, more by their keys, kKeyChunk at a time (and the
    // tags whose far key matches).
    template <uint64_t W>
    uint64_t find(const unsigned char *h, Ways v, uint64_t tag, uint64_t key) const;
    // The moves of a DV_L2_DISABLE access (which does not allocate).
    GmResult transfer_bypass(cycles_t t, const GmRuns &runs, bool write, unsigned requester);
    // A set's header and ways, and a header's words; W: the ways when known at compile time, else 0.
    template <uint64_t W = 0>
    uint64_t head_size() const { return W ? head_bytes(W) : head_; }
    template <uint64_t W = 0>
    unsigned char *head_at(uint64_t set) { return &heads_[0] + set * head_size<W>(); }
    Ways ways_at(uint64_t set) { return Ways{&ways_mem_[0] + set * kWayWords, kWayWords * sets_}; }
    template <uint64_t W>
    uint64_t key_off() const { return W ? key_at(W) : key_; } // the keys' offset in a header
    static uint64_t &field(unsigned char *h, uint64_t off) { return *reinterpret_cast<uint64_t *>(h + off); }
    static uint64_t field(const unsigned char *h, uint64_t off) { return *reinterpret_cast<const uint64_t *>(h + off); }

    static constexpr uint64_t kKeyChunk = 16, kScanWays = 4, kOrderWays = 16;
    // How many rows ahead touch_rows asks the host to fetch a row's set header (__builtin_prefetch):
    // a tile's rows fall in sets far apart (a row pitch of lines), so each header is a host cache
    // miss that the host's own prefetchers do not foresee.  On the 8192^3 matmul 16 rows ran ~6%
    // faster than 8 (and 8 ~10% faster than none), 4 and 32 slower than 16.
    static constexpr uint64_t kAheadRows = 16;

    // The line of a byte address: a shift when the line size is a power of two.
    uint64_t line_of(uint64_t addr) const { return line_shift_ < 64 ? addr >> line_shift_ : addr / line_; }

    const uint64_t line_, ways_;
    const bool write_through_;   // l2.write_through: writes reach HBM at once, lines stay clean
    const uint64_t sets_;
    const unsigned line_shift_;          // log2(line_) when a power of two, else 64
    const uint64_t head_, key_; // head_bytes(ways_), key_at(ways_)
    const Order ord_; // order_of(ways_)
    // set_of: the last run of `sets` lines seen, its first line and its rotation; memo_seen_: its
    // bitmap (RunSlot::seen) when touch_runs left the memo, else null (rotation() set it)
    mutable uint64_t memo_run_ = 0, memo_first_ = 0, memo_rot_ = 0;
    mutable uint64_t *memo_seen_ = nullptr;
    Zeros<unsigned char> heads_; // the sets' headers (head_bytes), zero: empty
    Zeros<uint64_t> ways_mem_;   // the sets' ways, zero: invalid
    uint64_t uses_ = 0;          // line uses so far (the clock of used)
    std::vector<RunSlot> run_slots_; // kRunSlots, by run mod kRunSlots
    std::unordered_map<uint64_t, std::unique_ptr<uint64_t[]>> seen_; // run -> its bitmap of lines allocated
    std::vector<uint64_t> direct_lines_; // scratch: lines a bypassing read takes from HBM
    BandwidthCalendar cal_;
};

} // namespace dv
