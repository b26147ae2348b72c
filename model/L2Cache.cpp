// model/L2Cache.cpp
#include "L2Cache.h"

#include <algorithm>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace dv {

L2Cache::Params L2Cache::Params::from(const dv_config_t &cfg)
{
    return Params{cfg.l2_size_bytes,         cfg.l2_line_bytes,      cfg.l2_ways, cfg.l2_write_through,
                  cfg.l2_bytes_per_cycle, cfg.sim_bandwidth_window_cycles};
}

L2Cache::L2Cache(sc_core::sc_module_name name, const Params &p)
    : sc_module(name), line_(p.line_bytes), ways_(p.ways), write_through_(p.write_through),
      sets_(p.size_bytes ? p.size_bytes / (p.line_bytes * p.ways) : 0),
      line_shift_(p.line_bytes && !(p.line_bytes & (p.line_bytes - 1)) ? (unsigned)__builtin_ctzll(p.line_bytes) : 64),
      head_(head_bytes(p.ways)), key_(key_at(p.ways)), ord_(order_of(p.ways))
{
    // Zeroed on demand: a run touches only the sets its lines fall in - in 2 MB pages where the
    // host gives them (Pages::Dense), as a run of any size spreads its lines over all the sets
    // (rotation) and so over most pages.
    if (sets_ > UINT64_MAX / head_ || (p.ways && sets_ > UINT64_MAX / (kWayWords * p.ways)))
        throw std::bad_alloc();
    heads_.reset(sets_ * head_, Pages::Dense);
    ways_mem_.reset(sets_ * kWayWords * ways_, Pages::Dense);
    if (sets_)
        rotation(0);
    run_slots_.resize(kRunSlots);
    cal_.configure(p.bytes_per_cycle, p.window_cycles);
}

uint64_t L2Cache::rotation(uint64_t run) const
{
    // Consecutive lines fill consecutive sets, as line mod sets would, but each run of `sets` lines
    // (size / ways bytes) starts at a set given by a hash of the run's number (a 64-bit finaliser,
    // as splitmix64's): a strided stream - a column slice of a row-major matrix touches a few lines
    // every row pitch - then spreads over all sets, as over the hardware's hashed L2 sets and
    // slices, instead of repeating one pattern of a fraction of them.
    uint64_t h = run;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    memo_run_ = run;
    memo_first_ = run * sets_;
    memo_rot_ = h % sets_;
    memo_seen_ = nullptr; // found by run_slot when needed
    return memo_rot_;
}

const L2Cache::RunSlot &L2Cache::fill_run_slot(uint64_t run)
{
    RunSlot &c = run_slots_[run % kRunSlots];
    std::unique_ptr<uint64_t[]> &bits = seen_[run];
    if (!bits)
        bits.reset(new uint64_t[(sets_ + 63) / 64]()); // nothing allocated yet
    c = RunSlot{run + 1, rotation(run), bits.get()};
    return c;
}

template <uint64_t W>
__attribute__((always_inline)) inline uint64_t L2Cache::find(const unsigned char *h, Ways v, uint64_t tag,
                                                             uint64_t key) const
{
    const uint64_t ways = W ? W : ways_;
    // With a recency order every way is compared (an invalid one has tag 0, which no line's is).
    const uint64_t valid = ways <= kOrderWays ? ways : field(h, kFill);
    if (ways > kOrderWays && valid <= kScanWays) { // a few valid ways: their tags themselves
        for (uint64_t w = 0; w < valid; w++)
            if (v.tag(w) == tag)
                return w;
        return ways;
    }
    // A key below kFar is the line's own (key_of): the way whose key matches holds it.
    const uint16_t *const k = keys<W>(h);
    const bool far = key >= kFar;
    for (uint64_t base = 0; base < valid; base += kKeyChunk) {
        uint64_t m = 0;
#if defined(__SSE2__)
        // kKeyChunk keys in two halves, their compares packed to a byte per way (0 or 0xff)
        const __m128i want = _mm_set1_epi16(static_cast<short>(key));
        const __m128i lo = _mm_load_si128(reinterpret_cast<const __m128i *>(k + base));
        const __m128i hi = _mm_load_si128(reinterpret_cast<const __m128i *>(k + base + kKeyChunk / 2));
        m = (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(_mm_cmpeq_epi16(lo, want), _mm_cmpeq_epi16(hi, want)));
#else
        for (uint64_t j = 0; j < kKeyChunk; j++)
            m |= (uint64_t)(k[base + j] == key) << j;
#endif
        if (valid - base < kKeyChunk)
            m &= (1ull << (valid - base)) - 1;
        for (; m; m &= m - 1) {
            const uint64_t w = base + (uint64_t)__builtin_ctzll(m);
            if (!far || v.tag(w) == tag)
                return w;
        }
        if (W && W <= kKeyChunk) // one chunk holds every way
            break;
    }
    return ways;
}

// Way w, at a place among the first `n` 4-bit entries of a recency order, moved to the front.
static inline uint64_t order_front(uint64_t order, uint64_t w)
{
    const uint64_t ones = 0x1111111111111111ull;
    const uint64_t x = order ^ (ones * w); // 0 where the entry is w
    // the lowest zero nibble of x is exact (higher ones may be borrows); w is present on a hit
    const uint64_t z = (x - ones) & ~x & (ones << 3);
    const uint64_t from = ~0ull << ((unsigned)__builtin_ctzll(z) & ~3u); // w's place and above
    return (order & from << 4) | (order & ~from) << 4 | w;
}

// touch_runs' lookup of line tag - 1 in the set (h, v) once its most recently used way did not hold
// it (see touch there): the line's way then records `use`.
template <uint64_t W, bool D>
__attribute__((always_inline)) inline void L2Cache::lookup(unsigned char *h, Ways v, uint64_t tag, uint64_t key,
                                                           bool fresh, uint64_t at, uint64_t *seen, uint64_t use,
                                                           uint64_t &misses, uint64_t &writebacks) const
{
    const uint64_t ways = W ? W : ways_;
    unsigned char *const dirty = h + kDirtyAt;
    uint64_t w;
    if (ways <= kOrderWays) {
        // A line whose bit in its run's bitmap is clear was never allocated: a sure miss.
        const uint64_t o = field(h, kOrder);
        if (!fresh && (at == kMarked || seen[at / 64] >> at % 64 & 1) && (w = find<W>(h, v, tag, key)) < ways) {
            // a hit: to the front of the order
            if (mru(o, ways) != w) {
                const uint64_t init = (W ? order_of(W) : ord_).init;
                lead(h, order_front(o ^ init, w) ^ init, tag);
            }
            if (D)
                dirty[w] = 1;
            v.used(w) = stamp(use, tag);
            return;
        }
        // a miss: the last entry of the order (an invalid way while there is one) becomes the first
        w = victim(o, ways);
        lead(h, rotate(o, ways, W ? order_of(W) : ord_), tag);
    } else {
        w = fresh ? ways : find<W>(h, v, tag, key);
        if (w < ways) {
            if (D)
                dirty[w] = 1;
            v.used(w) = stamp(use, tag);
            return;
        }
        // The least recently used way; an invalid one (never used), the lowest first, before any.
        uint64_t &fill = field(h, kFill);
        if (fill < ways)
            w = fill++;
        else {
            uint64_t oldest = v.used(0) + v.tag(0);
            w = 0;
            for (uint64_t u = 1; u < ways; u++)
                if (v.used(u) + v.tag(u) < oldest)
                    oldest = v.used(u) + v.tag(u), w = u;
        }
    }
    misses++;
    if (at != kMarked)
        seen[at / 64] |= 1ull << at % 64;
    // the victim's line is written back when dirty (an invalid way never is); the new line is
    // dirty when written in write-back (write-allocate without a fill)
    writebacks += dirty[w];
    dirty[w] = D;
    keys<W>(h)[w] = static_cast<uint16_t>(key);
    v.tag(w) = tag;
    v.used(w) = stamp(use, tag);
}

// lookup out of line, for the loop over a tile's rows (whose lines mostly hit their most recently
// used way: the loop keeps its state in registers, and passes the line's stamp, not its use).
template <uint64_t W, bool D>
__attribute__((noinline)) void L2Cache::lookup_cold(unsigned char *h, Ways v, uint64_t tag, uint64_t key,
                                                    uint64_t at, uint64_t *seen, uint64_t st, Tally &t) const
{
    lookup<W, D>(h, v, tag, key, false, at, seen, st + tag, t.misses, t.writebacks);
}

// touch_rows' lookup of a line (tag: line + 1) in the set (h, v) (at most kOrderWays ways) at its two
// most recently used ways, where a tile's rows that the cores sharing it read in turn mostly are
// (the most recently used line, or the one before it when another tile's row took the set
// meanwhile): a hit records the stamp `st` (stamp(use, tag)) and makes the line dirty when D, the
// second moving to the front of the order (lookup's hit without the call); false when neither holds
// the line.
template <uint64_t W, bool D>
__attribute__((always_inline)) inline bool L2Cache::hit_recent(unsigned char *h, Ways v, uint64_t tag,
                                                               uint64_t key, uint64_t st) const
{
    const uint64_t ways = W ? W : ways_;
    uint64_t &order = field(h, kOrder);
    const uint64_t o = order;
    uint64_t w = mru(o, ways);
    if (field(h, kMruTag) != tag) {
        if (ways < 2)
            return false;
        w = (o >> 4 & 15) ^ (ways - 2); // the second entry (stored XOR Order::init, as the first)
        if (keys<W>(h)[w] != key || (key >= kFar && v.tag(w) != tag))
            return false;
        // the first two entries swap places; each is stored XOR the other place's init entry
        const uint64_t x = (ways - 1) ^ (ways - 2);
        // (lead's two stores, written out: through lead, touch_rows' loop compiled to 0.4% more
        // host instructions on the matmul)
        order = (o & ~0xffull) | ((o >> 4 & 15) ^ x) | ((o & 15) ^ x) << 4;
        field(h, kMruTag) = tag;
    }
    if (D)
        h[kDirtyAt + w] = 1;
    v.used(w) = st;
    return true;
}

// Out of line: a DMA's rows, not its lines, then take its registers.
template <uint64_t W, bool D>
__attribute__((noinline)) L2Cache::Tally L2Cache::touch_rows(const GmRuns &runs)
{
    const uint64_t ways = W ? W : ways_, head = head_size<W>();
    const bool ordered = ways <= kOrderWays;
    const uint64_t line = line_, count = runs.count;
    unsigned char *const heads = &heads_[0];
    const Ways ways0 = ways_at(0);
    uint64_t uses = uses_;
    Walk k = walk_start();
    Tally cold; // the misses and write-backs of the lookups out of line
    // The loop is kept small (a row that is not one of its set's two most recently used lines takes
    // the lookup out of line), so that its state stays in registers.
    const uint64_t step = runs.stride / line, group_step = runs.group_stride / line;
    const uint64_t per = runs.group ? runs.group : count; // rows per group
    // The rows are taken in pieces that stay in one run of `sets` lines and do not wrap around the
    // sets: a piece's rows are `step` sets apart, so are their headers and ways.
    const uint64_t sets = k.sets, step_head = step * head;
    const uint64_t ahead = kAheadRows * step_head;
    uint64_t group_line = runs.base / line;
    for (uint64_t left = count; left > 0; group_line += group_step) {
        uint64_t n = std::min(per, left), tag = group_line + 1;
        left -= n;
        for (;;) {
            uint64_t in_run;
            const uint64_t set = set_in<true>(k, tag - 1, in_run);
            const uint64_t r = step ? std::min(n, (sets - 1 - std::max(in_run, set)) / step + 1) : n;
            n -= r;
            unsigned char *h = heads + set * head;
            Ways v = ways0 + set;
            uint64_t at = tag - 1 - k.first; // the row's place in its run's bitmap
            if (ordered && !(k.seen[at / 64] >> at % 64 & 1)) {
                // The piece's first row was never allocated (a tile read or written for the first
                // time): each row's bit is tested first, and a clear one is a sure miss taken here
                // (lookup's miss without the call); a set one takes the lookup below.
                for (const uint64_t stop = uses + r;;) {
                    ++uses;
                    uint64_t &word = k.seen[at / 64];
                    const uint64_t bit = 1ull << at % 64;
                    if (!(word & bit)) {
                        word |= bit;
                        cold.misses++;
                        fresh_miss<W, D>(h, v, tag, k.key, stamp(uses, tag), cold.writebacks);
                    } else if (!hit_recent<W, D>(h, v, tag, k.key, stamp(uses, tag)))
                        lookup_cold<W, D>(h, v, tag, k.key, kMarked, k.seen, stamp(uses, tag), cold);
                    if (uses == stop)
                        break;
                    tag += step;
                    h += step_head;
                    v += step;
                    at += step;
                }
                if (n == 0)
                    break;
                tag += step;
                continue;
            }
            // The rows' stamps step by 1 - step (their uses by one, their tags by step), and the last
            // row's tag ends the loop (step > 0, or a single row: touch_runs).
            uint64_t st = stamp(uses + 1, tag);
            uses += r;
            for (const uint64_t last = tag + (r - 1) * step;;) {
                // a later row's header (kAheadRows); an address past the headers is harmless to a
                // prefetch, and is formed as an integer (no pointer past its array)
                __builtin_prefetch(reinterpret_cast<const void *>(reinterpret_cast<uintptr_t>(h) + ahead));
                if (!(ordered && hit_recent<W, D>(h, v, tag, k.key, st)))
                    lookup_cold<W, D>(h, v, tag, k.key, tag - 1 - k.first, k.seen, st, cold);
                if (tag == last)
                    break;
                tag += step;
                h += step_head;
                v += step;
                st += 1 - step;
            }
            if (n == 0)
                break;
            tag += step;
        }
    }
    uses_ = uses;
    walk_end(k);
    return Tally{count, cold.misses, cold.writebacks};
}

// Look up one line (tag: line + 1) in the set (h, v), which records `use` for it.  fresh: the line
// was never allocated, a sure miss.  at: the line's place in its run's bitmap `seen`, whose bit is
// tested before a full set's lookup and set on a miss; kMarked when the caller has set it already.
template <uint64_t W, bool D>
__attribute__((always_inline)) inline void L2Cache::touch(unsigned char *h, Ways v, uint64_t tag, uint64_t key,
                                                          bool fresh, uint64_t at, uint64_t *seen, uint64_t use,
                                                          uint64_t &misses, uint64_t &writebacks) const
{
    const uint64_t ways = W ? W : ways_;
    uint64_t w;
    // The most recently used way first: a line read again before its set is used for another (a
    // tile that the cores sharing it read in turn) hits there without a lookup.
    if (ways <= kOrderWays && !fresh && field(h, kMruTag) == tag) {
        w = mru(field(h, kOrder), ways);
        if (D)
            h[kDirtyAt + w] = 1;
        v.used(w) = stamp(use, tag);
        return;
    }
    lookup<W, D>(h, v, tag, key, fresh, at, seen, use, misses, writebacks);
}

// A line never allocated (tag: line + 1) into the set (h, v), which has a recency order: a sure
// miss, which takes the last way of the order (an invalid one while there is one) and makes it the
// first - lookup's miss without its search.  The way records the stamp `st`.
template <uint64_t W, bool D>
__attribute__((always_inline)) inline void L2Cache::fresh_miss(unsigned char *h, Ways v, uint64_t tag, uint64_t key,
                                                               uint64_t st, uint64_t &writebacks) const
{
    const uint64_t ways = W ? W : ways_;
    const uint64_t o = field(h, kOrder), w = victim(o, ways);
    lead(h, rotate(o, ways, W ? order_of(W) : ord_), tag);
    writebacks += h[kDirtyAt + w]; // (an invalid way is never dirty)
    h[kDirtyAt + w] = D;
    keys<W>(h)[w] = static_cast<uint16_t>(key);
    v.tag(w) = tag;
    v.used(w) = st;
}

// n lines never allocated (tags tag .. tag + n - 1) into the n sets from the one with header h and
// ways v, which have a recency order: sure misses, each taking the last way of its set's order (an
// invalid one while there is one), which becomes the first - lookup's miss without its search.
template <uint64_t W, bool D>
__attribute__((always_inline)) inline void L2Cache::fresh_lines(unsigned char *h, Ways v, uint64_t tag, uint64_t key,
                                                                uint64_t n, uint64_t &uses, uint64_t &writebacks) const
{
    const uint64_t head = head_size<W>();
    // Line tag - 1 is used at tag + u: every line's stamp is u.
    const uint64_t u = stamp(uses + 1, tag), e = tag + n;
    uses += n;
    const auto miss = [&](unsigned char *hb, Ways vb, uint64_t line_tag) __attribute__((always_inline)) {
        fresh_miss<W, D>(hb, vb, line_tag, key, u, writebacks);
    };
    // The n mod 4 first lines, then four lines a step (the compiler's unrolling does not survive
    // link-time optimisation), so that the loop needs no count of its own.
    switch (n % 4) {
    case 3:
        miss(h, v, tag++);
        h += head, v += 1;
        [[fallthrough]];
    case 2:
        miss(h, v, tag++);
        h += head, v += 1;
        [[fallthrough]];
    case 1:
        miss(h, v, tag++);
        h += head, v += 1;
        break;
    default:
        break;
    }
    for (; tag != e; tag += 4, h += 4 * head, v += 4) {
        miss(h, v, tag);
        miss(h + head, v + 1, tag + 1);
        miss(h + 2 * head, v + 2, tag + 2);
        miss(h + 3 * head, v + 3, tag + 3);
    }
}

// fresh_lines out of line, with every register for its loop; returns the write-backs.
template <uint64_t W, bool D>
__attribute__((noinline)) uint64_t L2Cache::fresh_run(unsigned char *h, Ways v, uint64_t tag, uint64_t key,
                                                      uint64_t n, uint64_t uses) const
{
    uint64_t writebacks = 0;
    fresh_lines<W, D>(h, v, tag, key, n, uses, writebacks);
    return writebacks;
}

// Lines l .. last (l < last) from the set `set`, l's place in its run in_run: consecutive lines
// take consecutive sets, each piece without a new run of `sets` lines or a wrap looked up a word of
// its run's bitmap at a time, the lines never allocated (all the word's lines here clear) as sure
// misses.
template <uint64_t W, bool D>
__attribute__((always_inline)) inline void L2Cache::touch_lines(uint64_t l, uint64_t last, uint64_t in_run,
                                                                uint64_t set, Walk &k, uint64_t &uses,
                                                                uint64_t &misses, uint64_t &writebacks)
{
    const uint64_t ways = W ? W : ways_, head = head_size<W>();
    const uint64_t sets = k.sets;
    unsigned char *const heads = &heads_[0];
    const Ways ways0 = ways_at(0);
    for (;;) {
        // lines l .. l + n - 1 take sets set .. set + n - 1
        const uint64_t n = std::min(last - l, std::min(sets - in_run, sets - set) - 1) + 1;
        unsigned char *h = heads + set * head;
        Ways v = ways0 + set;
        for (uint64_t tag = l + 1, end = l + 1 + n, pos = in_run; tag != end;) {
            const uint64_t bit = pos % 64, m = std::min<uint64_t>(end - tag, 64 - bit); // 1 .. 64
            const uint64_t mask = ~0ull >> (64 - m) << bit;
            uint64_t &word = k.seen[pos / 64];
            const bool fresh = (word & mask) == 0;
            word |= mask;
            pos += m;
            const uint64_t e = tag + m;
            if (fresh && ways <= kOrderWays) {
                misses += m;
                fresh_lines<W, D>(h, v, tag, k.key, m, uses, writebacks);
                tag += m;
                h += m * head;
                v += m;
            } else
                for (; tag != e; tag++, h += head, v += 1)
                    touch<W, D>(h, v, tag, k.key, fresh, kMarked, k.seen, ++uses, misses, writebacks);
        }
        l += n;
        if (l > last)
            break;
        in_run += n;
        set += n;
        if (in_run == sets)
            set = set_in(k, l, in_run);
        else if (set == sets)
            set = 0;
    }
}

// One run (the common DMA), inline in transfer, which calls it for the profiles' 16 ways without
// touch_runs' dispatch (and touch_runs for other ways).  Lines never allocated, all in one word of
// their run's bitmap and in consecutive sets (a piece of touch_lines that is one word), are sure
// misses taken by fresh_run; any other run goes to touch_run_any.
template <uint64_t W, bool D>
__attribute__((always_inline)) inline L2Cache::Tally L2Cache::touch_run(uint64_t a, uint64_t bytes)
{
    Walk k = walk_start();
    const uint64_t l = line_of(a), n = line_of(a + bytes - 1) - l + 1;
    uint64_t in_run;
    const uint64_t set = set_in(k, l, in_run), bit = in_run % 64;
    walk_end(k);
    if (W && W <= kOrderWays && n > 1 && n <= 64 - bit && n <= k.sets - std::max(in_run, set)) {
        uint64_t &word = k.seen[in_run / 64];
        const uint64_t mask = ~0ull >> (64 - n) << bit;
        if ((word & mask) == 0) {
            word |= mask;
            const uint64_t writebacks = fresh_run<W, D>(head_at<W>(set), ways_at(set), l + 1, k.key, n, uses_);
            uses_ += n;
            return Tally{n, n, writebacks};
        }
    }
    return touch_run_any<W, D>(a, bytes);
}

// touch_run's general case.
template <uint64_t W, bool D>
__attribute__((noinline)) L2Cache::Tally L2Cache::touch_run_any(uint64_t a, uint64_t bytes)
{
    uint64_t uses = uses_, misses = 0, writebacks = 0;
    Walk k = walk_start();
    const uint64_t l = line_of(a), last = line_of(a + bytes - 1);
    uint64_t in_run;
    const uint64_t set = set_in(k, l, in_run);
    if (l == last)
        touch<W, D>(head_at<W>(set), ways_at(set), l + 1, k.key, false, in_run, k.seen, ++uses, misses,
                    writebacks);
    else
        touch_lines<W, D>(l, last, in_run, set, k, uses, misses, writebacks);
    uses_ = uses;
    walk_end(k);
    return Tally{last - l + 1, misses, writebacks};
}

// Out of line: transfer takes a single run of the profiles' 16 ways itself (touch_run), and this
// loop's state does not enlarge transfer's frame.
template <uint64_t W, bool D>
__attribute__((noinline)) L2Cache::Tally L2Cache::touch_runs(const GmRuns &runs)
{
    const uint64_t line = line_, bytes = runs.bytes, count = runs.count;
    if (count == 1 && bytes > 0)
        return touch_run<W, D>(runs.list ? runs.list[0] : runs.base, bytes);
    if (!runs.list && bytes > 0 && bytes <= line && bytes <= line - runs.base % line && runs.stride % line == 0 &&
        (runs.stride > 0 || runs.group == 1) && (runs.group == 0 || runs.group_stride % line == 0))
        // Every run within one line, at the same place in it, the runs a whole number of lines
        // apart (a tile's rows of up to a line; rows of a group in distinct lines): their lines are
        // stepped from the first one, not found from an address per run.
        return touch_rows<W, D>(runs);
    // Everything the loops read is copied to locals first: the stores into the sets' state could
    // otherwise alias any member, and each would be read again per line.
    const uint64_t head = head_size<W>();
    unsigned char *const heads = &heads_[0];
    const Ways ways0 = ways_at(0);
    uint64_t uses = uses_, misses = 0, writebacks = 0, lines = 0;
    Walk k = walk_start();
    // the runs' addresses, as GmRuns::Cursor walks them
    const uint64_t *const list = runs.list;
    const uint64_t stride = runs.stride, group = runs.group, group_stride = runs.group_stride;
    uint64_t group_start = runs.base, in_group = 0;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t a;
        if (list)
            a = list[i];
        else {
            a = group_start + in_group * stride;
            if (++in_group == group) {
                in_group = 0;
                group_start += group_stride;
            }
        }
        const uint64_t l = line_of(a), last = line_of(a + bytes - 1);
        uint64_t in_run;
        const uint64_t set = set_in(k, l, in_run);
        lines += last - l + 1;
        if (l == last) // a run within one line
            touch<W, D>(heads + set * head, ways0 + set, l + 1, k.key, false, in_run, k.seen, ++uses,
                        misses, writebacks);
        else
            touch_lines<W, D>(l, last, in_run, set, k, uses, misses, writebacks);
    }
    uses_ = uses;
    walk_end(k);
    return Tally{lines, misses, writebacks};
}

bool L2Cache::probe(uint64_t line_addr, uint64_t set, bool write)
{
    unsigned char *h = head_at(set);
    const uint64_t w = find<0>(h, ways_at(set), line_addr + 1, key_of(line_addr / sets_));
    if (w < ways_) {
        hits++;
        if (write && !write_through_)
            h[kDirtyAt + w] = 1;
        return true;
    }
    misses++;
    bypassed++;
    return false;
}

GmResult L2Cache::transfer(cycles_t t, const GmRuns &runs, bool write, unsigned requester)
{
    GmResult r;
    if (sets_ == 0) {
        r.done = hbm->transfer(t, runs.count * runs.bytes, write, requester);
        r.miss = !write;
        r.hbm = true;
        return r;
    }
    if (runs.mode == DV_L2_DISABLE)
        return transfer_bypass(t, runs, write, requester);
    const bool dirty = write && !write_through_;
    Tally n;
    if (runs.count == 1 && runs.bytes > 0 && ways_ == kOrderWays) { // one run (the common DMA)
        const uint64_t a = runs.list ? runs.list[0] : runs.base;
        n = dirty ? touch_run<kOrderWays, true>(a, runs.bytes) : touch_run<kOrderWays, false>(a, runs.bytes);
    } else
        n = ways_ == kOrderWays ? (dirty ? touch_runs<kOrderWays, true>(runs) : touch_runs<kOrderWays, false>(runs))
                                : (dirty ? touch_runs<0, true>(runs) : touch_runs<0, false>(runs));
    hits += n.lines - n.misses;
    misses += n.misses;
    writebacks += n.writebacks;
    r.miss = n.misses > 0 && !write;
    const uint64_t total = runs.count * runs.bytes;
    const cycles_t l2_done = total ? cal_.reserve(t, total, requester) : 0;
    cycles_t hbm_done = 0;
    const uint64_t fill = write ? 0 : n.misses * line_; // a write allocates without a fill: DMA writes whole bursts
    if (fill > 0)
        hbm_done = hbm->transfer(t, fill, false, requester, 0, 0);
    uint64_t wb = n.writebacks * line_;
    if (write && write_through_)
        wb += total; // the written bytes themselves go on to HBM now
    if (wb > 0)
        hbm_done = std::max(hbm_done, hbm->transfer(t, wb, true, requester, 0));
    r.done = std::max(l2_done, hbm_done);
    r.hbm = hbm_done > l2_done;
    return r;
}

GmResult L2Cache::transfer_bypass(cycles_t t, const GmRuns &runs, bool write, unsigned requester)
{
    GmResult r;
    uint64_t total = 0;
    uint64_t direct = 0; // bypass misses: bytes between the core and HBM that skip the L2
    uint64_t requests = 0; // bursts with bytes in `direct`: each is one request to HBM
    uint64_t queued = 0;   // of those, reads that found another core's request to a line in flight
    direct_lines_.clear();
    GmRuns::Cursor cur(runs);
    for (uint64_t i = 0; i < runs.count; i++) {
        const uint64_t a = cur.next();
        const uint64_t direct_before = direct;
        const uint64_t first = line_of(a), last = line_of(a + runs.bytes - 1);
        bool same = false;
        // consecutive lines take consecutive sets, except where a new run of `sets` lines starts
        uint64_t in_run, set = set_of(first, &in_run);
        for (uint64_t l = first; l <= last; l++) {
            if (l > first) {
                if (++in_run == sets_)
                    set = set_of(l, &in_run);
                else if (++set == sets_)
                    set = 0;
            }
            const uint64_t part = std::min(a + runs.bytes, (l + 1) * line_) - std::max(a, l * line_);
            if (probe(l, set, write))
                total += part;
            else {
                direct += part;
                if (!write) {
                    same = hbm->same_address(t, l, requester) || same;
                    direct_lines_.push_back(l);
                }
            }
        }
        requests += direct > direct_before;
        queued += same;
    }
    r.miss = direct > 0 && !write;
    const cycles_t l2_done = total ? cal_.reserve(t, total, requester) : 0;
    cycles_t hbm_done = 0;
    uint64_t wb = 0;
    if (!write && direct > 0)
        hbm_done = hbm->transfer(t, direct, false, requester, requests, queued);
    for (uint64_t l : direct_lines_)
        hbm->remember(t, hbm_done, l, requester);
    if (write && write_through_)
        wb += total; // the written bytes themselves go on to HBM now
    if (write)
        wb += direct;
    if (wb > 0)
        hbm_done = std::max(hbm_done, hbm->transfer(t, wb, true, requester, write ? requests : 0));
    r.done = std::max(l2_done, hbm_done);
    r.hbm = hbm_done > l2_done;
    return r;
}

uint64_t L2Cache::idle_write_back(uint64_t max_lines)
{
    std::vector<std::pair<uint64_t, uint64_t>> dirty; // (last use, set x ways + way)
    for (uint64_t set = 0; set < sets_; set++) {
        const unsigned char *bytes = head_at(set) + kDirtyAt;
        const Ways v = ways_at(set);
        for (uint64_t w = 0; w < ways_; w++)
            if (bytes[w])
                dirty.push_back({v.used(w) + v.tag(w), set * ways_ + w});
    }
    const uint64_t n = std::min<uint64_t>(max_lines, dirty.size());
    std::nth_element(dirty.begin(), dirty.begin() + (ptrdiff_t)n, dirty.end()); // the n least recently used first
    for (uint64_t i = 0; i < n; i++)
        head_at(dirty[i].second / ways_)[kDirtyAt + dirty[i].second % ways_] = 0;
    return n;
}

} // namespace dv
