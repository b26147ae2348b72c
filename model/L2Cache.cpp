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
      line_shift_(p.line_bytes && !(p.line_bytes & (p.line_bytes - 1)) ? (unsigned)__builtin_ctzll(p.line_bytes) : 64)
{
    // Zeroed on demand (calloc): a run touches only the sets its lines fall in.
    tag_.reset(sets_ * ways_);
    used_.reset(sets_ * ways_);
    dirty_.reset(sets_);
    sig_.reset(sets_ * ways_ + kSigChunk); // the last set's chunks read up to kSigChunk - 1 bytes past it
    fill_.reset(sets_);
    order_.reset(ways_ <= kOrderWays ? sets_ : 0);
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
    memo_rot_ = h % sets_;
    return memo_rot_;
}

// The signature of a tag: its top byte after a multiplicative hash.
static inline uint8_t sig_of(uint64_t tag) { return (uint8_t)((tag * 0x9e3779b97f4a7c15ull) >> 56); }

template <uint64_t W>
__attribute__((always_inline)) inline uint64_t L2Cache::find(uint64_t set, uint64_t tag, uint8_t s) const
{
    const uint64_t ways = W ? W : ways_;
    const uint64_t valid = fill_[set], *tags = &tag_[set * ways];
    if (valid <= kScanWays) { // a few valid ways: their tags themselves
        for (uint64_t w = 0; w < valid; w++)
            if (tags[w] == tag)
                return w;
        return ways;
    }
    const uint8_t *sig = &sig_[set * ways];
    for (uint64_t base = 0; base < valid; base += kSigChunk) {
        uint64_t m = 0;
#if defined(__SSE2__)
        const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i *>(sig + base));
        m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, _mm_set1_epi8((char)s)));
#else
        for (uint64_t k = 0; k < kSigChunk; k++)
            m |= (uint64_t)(sig[base + k] == s) << k;
#endif
        m &= valid - base >= kSigChunk ? ~0ull : (1ull << (valid - base)) - 1;
        for (; m; m &= m - 1) {
            const uint64_t w = base + (uint64_t)__builtin_ctzll(m);
            if (tags[w] == tag)
                return w;
        }
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
    const unsigned p = (unsigned)__builtin_ctzll(z) / 4;
    const uint64_t below = order & ((1ull << (4 * p)) - 1);
    const uint64_t above = p == 15 ? 0 : order & ~((1ull << (4 * p + 4)) - 1);
    return above | below << 4 | w;
}

template <uint64_t W>
__attribute__((always_inline)) inline bool L2Cache::touch(uint64_t line_addr, uint64_t set, bool write,
                                                          uint64_t &fill_bytes, uint64_t &wb_bytes)
{
    const uint64_t ways = W ? W : ways_;
    const uint64_t tag = line_addr + 1;
    const uint8_t s = sig_of(tag);
    uint64_t *tags = &tag_[set * ways];
    uint64_t *used = &used_[set * ways];
    uint64_t &dirty = dirty_[set];
    const bool ordered = ways <= kOrderWays;
    uint64_t w = find<W>(set, tag, s);
    const bool hit = w < ways;
    if (hit) {
        hits++;
        if (ordered)
            order_[set] = order_front(order_[set], w);
    } else {
        // The least recently used way; an invalid one (never used), the lowest first, before any:
        // the valid ways are 0 .. fill - 1, since a way once used stays valid.
        misses++;
        const uint64_t valid = fill_[set];
        if (valid < ways) {
            w = valid;
            fill_[set]++;
            if (ordered)
                order_[set] = order_[set] << 4 | w;
        } else {
            if (ordered) { // the last entry of the order; it becomes the first
                const uint64_t o = order_[set];
                w = o >> (4 * (ways - 1)) & 15;
                order_[set] = (ways == kOrderWays ? o << 4 : (o << 4) & ((1ull << (4 * ways)) - 1)) | w;
            } else {
                uint64_t oldest = used[0];
                w = 0;
                for (uint64_t v = 1; v < ways; v++)
                    if (used[v] < oldest)
                        oldest = used[v], w = v;
            }
            if (dirty >> w & 1) {
                writebacks++;
                wb_bytes += line_;
            }
        }
        tags[w] = tag;
        sig_[set * ways + w] = s;
        dirty &= ~(1ull << w);
        if (!write)
            fill_bytes += line_; // write-allocate without a fill: DMA writes whole bursts
    }
    if (write && !write_through_)
        dirty |= 1ull << w;
    used[w] = ++uses_;
    return hit;
}

template <uint64_t W>
__attribute__((always_inline)) inline bool L2Cache::touch_lines(uint64_t first, uint64_t last, bool write, uint64_t &fill_bytes, uint64_t &wb_bytes)
{
    // consecutive lines take consecutive sets, except where a new run of `sets` lines starts
    uint64_t in_run, set = set_of(first, &in_run);
    bool miss = false;
    for (uint64_t l = first;; ) {
        miss |= !touch<W>(l, set, write, fill_bytes, wb_bytes);
        if (++l > last)
            break;
        if (++in_run == sets_)
            in_run = 0, set = set_of(l);
        else if (++set == sets_)
            set = 0;
    }
    return miss;
}

bool L2Cache::probe(uint64_t line_addr, uint64_t set, bool write)
{
    const uint64_t w = find<0>(set, line_addr + 1, sig_of(line_addr + 1));
    if (w < ways_) {
        hits++;
        if (write && !write_through_)
            dirty_[set] |= 1ull << w;
        return true;
    }
    misses++;
    bypassed++;
    return false;
}

GmResult L2Cache::transfer(cycles_t t, const GmRuns &runs, bool write, unsigned requester)
{
    GmResult r;
    uint64_t fill = 0, wb = 0, total = 0;
    if (sets_ == 0) {
        total = runs.count * runs.bytes;
        r.done = hbm->transfer(t, total, write, requester);
        r.miss = !write;
        r.hbm = true;
        return r;
    }
    const bool bypass = runs.mode == DV_L2_DISABLE;
    uint64_t direct = 0; // bypass misses: bytes between the core and HBM that skip the L2
    uint64_t requests = 0; // bursts with bytes in `direct`: each is one request to HBM
    uint64_t queued = 0;   // of those, reads that found another core's request to a line in flight
    direct_lines_.clear();
    GmRuns::Cursor cur(runs);
    for (uint64_t i = 0; i < runs.count; i++) {
        const uint64_t a = cur.next();
        const uint64_t direct_before = direct;
        const uint64_t first = line_of(a), last = line_of(a + runs.bytes - 1);
        if (!bypass) {
            const bool miss = ways_ == kOrderWays ? touch_lines<kOrderWays>(first, last, write, fill, wb)
                                                  : touch_lines<0>(first, last, write, fill, wb);
            r.miss = r.miss || (miss && !write);
            total += runs.bytes;
            continue;
        }
        bool same = false;
        // consecutive lines take consecutive sets, except where a new run of `sets` lines starts
        uint64_t in_run, set = set_of(first, &in_run);
        for (uint64_t l = first; l <= last; l++) {
            if (l > first) {
                if (++in_run == sets_)
                    in_run = 0, set = set_of(l);
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
    r.miss = r.miss || (direct > 0 && !write);
    const cycles_t l2_done = total ? cal_.reserve(t, total, requester) : 0;
    cycles_t hbm_done = 0;
    if (!write)
        fill += direct;
    if (fill > 0)
        hbm_done = hbm->transfer(t, fill, false, requester, write ? 0 : requests, queued);
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
    for (uint64_t set = 0; set < sets_; set++)
        for (uint64_t w = 0; w < ways_; w++)
            if (dirty_[set] >> w & 1)
                dirty.push_back({used_[set * ways_ + w], set * ways_ + w});
    const uint64_t n = std::min<uint64_t>(max_lines, dirty.size());
    std::nth_element(dirty.begin(), dirty.begin() + (ptrdiff_t)n, dirty.end()); // the n least recently used first
    for (uint64_t i = 0; i < n; i++)
        dirty_[dirty[i].second / ways_] &= ~(1ull << (dirty[i].second % ways_));
    return n;
}

} // namespace dv
