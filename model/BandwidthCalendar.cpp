// model/BandwidthCalendar.cpp
#include "BandwidthCalendar.h"

#include <algorithm>
#include <cassert>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "dv/intmath.h"

namespace dv {

void BandwidthCalendar::configure(uint64_t bytes_per_cycle, uint64_t window)
{
    bpc_ = bytes_per_cycle;
    window_ = window;
    cap_ = bytes_per_cycle * window;
    small_ = cap_ <= kSmallCap;
    bound_ = small_;
    cap_squared_ = cap_ * cap_;
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init(); // idempotent: the CPU is read once per process
    popcnt_ = __builtin_cpu_supports("popcnt");
#endif
    reset();
}

void BandwidthCalendar::reset()
{
    base_ = count_ = now_ = 0;
    past_lo_ = past_hi_ = past_w_[0] = past_w_[1] = 0;
    past_now_ = false;
    seen_[0] = seen_[1] = seen_count_ = 0;
    throttle_ = kFree;
    ring_.assign(512, Bin{});
    size_ = ring_.size();
    mask_ = size_ - 1;
}

void BandwidthCalendar::retire(cycles_t t)
{
    const uint64_t bin = t / window_;
    now_ = std::max(now_, bin);
    past_now_ = false; // (the global time and the live bins may move)
    const uint64_t keep = bin > near_ ? bin - near_ : 0; // keep recent history for share_near
    while (base_ < keep && count_ > 0) {
        slot(base_) = Bin{};
        base_++;
        count_--;
    }
    if (count_ == 0 && base_ < keep)
        base_ = keep;
}

// Make room in the ring for bin (past the live bins), keeping every live bin at its new slot.
void BandwidthCalendar::grow(uint64_t bin)
{
    size_t size = ring_.size() * 2; // a power of two: slots are bin & mask_
    while (size <= bin - base_)
        size *= 2;
    std::vector<Bin> bigger(size);
    const uint64_t mask = bigger.size() - 1;
    for (uint64_t b = base_; b < base_ + count_; b++)
        bigger[b & mask] = slot(b);
    ring_.swap(bigger);
    mask_ = mask;
    size_ = size;
}

BandwidthCalendar::Bin &BandwidthCalendar::bin_at(uint64_t bin)
{
    if (bin - base_ >= size_)
        grow(bin);
    if (bin - base_ >= count_)
        count_ = bin - base_ + 1;
    return slot(bin);
}

// The requesters seen in the N bins from b (or-ed into w) and, when Used, the bytes they hold
// (added to *used): a loop of known length, unrolled (no loop counting between the bins), two bins
// a step in two accumulators each.  share_near's window (2 x near_ bins, with the bytes) and its
// bins before the global time (near_ bins, requesters only: they change only when it moves).
template <unsigned N, bool Used, bool Who>
__attribute__((always_inline)) inline void BandwidthCalendar::scan_fixed(const Bin *b, uint64_t w[2], uint64_t *used)
{
    static_assert(N % 2 == 0, "two bins a step");
    uint64_t u = 0, u2 = 0;
#if defined(__SSE2__)
    __m128i who = _mm_setzero_si128(), who2 = _mm_setzero_si128(); // who[0], who[1] side by side
#pragma GCC unroll 32
    for (unsigned k = 0; k < N; k += 2) {
        if constexpr (Who) {
            who = _mm_or_si128(who, _mm_load_si128(reinterpret_cast<const __m128i *>(b[k].who)));
            who2 = _mm_or_si128(who2, _mm_load_si128(reinterpret_cast<const __m128i *>(b[k + 1].who)));
        }
        if constexpr (Used) {
            u += b[k].used;
            u2 += b[k + 1].used;
        }
    }
    if constexpr (Who) {
        uint64_t both[2];
        _mm_storeu_si128(reinterpret_cast<__m128i *>(both), _mm_or_si128(who, who2));
        w[0] |= both[0];
        w[1] |= both[1];
    }
#else
    uint64_t w0 = 0, w1 = 0;
#pragma GCC unroll 32
    for (unsigned k = 0; k < N; k += 2) {
        if constexpr (Who) {
            w0 |= b[k].who[0] | b[k + 1].who[0];
            w1 |= b[k].who[1] | b[k + 1].who[1];
        }
        if constexpr (Used) {
            u += b[k].used;
            u2 += b[k + 1].used;
        }
    }
    w[0] |= w0;
    w[1] |= w1;
#endif
    if constexpr (Used)
        *used += u + u2;
}

// The requesters seen in the live bins [lo, hi) (or-ed into w) and, when used is given, the bytes
// they hold (added to *used): the ring in at most two contiguous pieces, two bins a step in two
// accumulators each.
void BandwidthCalendar::scan(uint64_t lo, uint64_t hi, uint64_t w[2], uint64_t *used) const
{
    uint64_t u = 0, u2 = 0;
#if defined(__SSE2__)
    __m128i who = _mm_setzero_si128(), who2 = _mm_setzero_si128(); // who[0], who[1] side by side
#else
    uint64_t w0 = 0, w1 = 0;
#endif
    const Bin *const ring = ring_.data();
    while (lo < hi) {
        const uint64_t i = lo & mask_, n = std::min<uint64_t>(hi - lo, size_ - i);
        const Bin *b = ring + i, *const pairs = b + (n & ~uint64_t(1)), *const e = b + n;
        for (; b != pairs; b += 2) {
#if defined(__SSE2__)
            who = _mm_or_si128(who, _mm_load_si128(reinterpret_cast<const __m128i *>(b[0].who)));
            who2 = _mm_or_si128(who2, _mm_load_si128(reinterpret_cast<const __m128i *>(b[1].who)));
#else
            w0 |= b[0].who[0] | b[1].who[0];
            w1 |= b[0].who[1] | b[1].who[1];
#endif
            u += b[0].used;
            u2 += b[1].used;
        }
        if (b != e) {
#if defined(__SSE2__)
            who = _mm_or_si128(who, _mm_load_si128(reinterpret_cast<const __m128i *>(b->who)));
#else
            w0 |= b->who[0];
            w1 |= b->who[1];
#endif
            u += b->used;
        }
        lo += n;
    }
#if defined(__SSE2__)
    uint64_t both[2];
    _mm_storeu_si128(reinterpret_cast<__m128i *>(both), _mm_or_si128(who, who2));
    w[0] |= both[0];
    w[1] |= both[1];
#else
    w[0] |= w0;
    w[1] |= w1;
#endif
    if (used)
        *used += u + u2;
}

// The bits set in w[0] and w[1] together: dv_popcount64's bit-parallel sum, on both words at
// once in SSE2 (the bytes' counts summed by psadbw), else with the two words' byte counts (at most
// 8 each) added before the one multiply that sums the bytes (at most 128 in all).
static inline uint64_t popcount2(const uint64_t w[2])
{
#if defined(__POPCNT__)
    return dv_popcount64(w[0]) + dv_popcount64(w[1]);
#elif defined(__SSE2__)
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(w));
    v = _mm_sub_epi64(v, _mm_and_si128(_mm_srli_epi64(v, 1), _mm_set1_epi8(0x55)));
    v = _mm_add_epi64(_mm_and_si128(v, _mm_set1_epi8(0x33)), _mm_and_si128(_mm_srli_epi64(v, 2), _mm_set1_epi8(0x33)));
    v = _mm_and_si128(_mm_add_epi64(v, _mm_srli_epi64(v, 4)), _mm_set1_epi8(0x0f));
    v = _mm_sad_epu8(v, _mm_setzero_si128()); // each word's count in its low 16 bits
    return static_cast<uint64_t>(_mm_cvtsi128_si64(_mm_add_epi64(v, _mm_unpackhi_epi64(v, v))));
#else
    uint64_t a = w[0], b = w[1];
    a -= (a >> 1) & 0x5555555555555555ull;
    b -= (b >> 1) & 0x5555555555555555ull;
    a = (a & 0x3333333333333333ull) + ((a >> 2) & 0x3333333333333333ull);
    b = (b & 0x3333333333333333ull) + ((b >> 2) & 0x3333333333333333ull);
    a = (a + (a >> 4)) & 0x0f0f0f0f0f0f0f0full;
    b = (b + (b >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return ((a + b) * 0x0101010101010101ull) >> 56;
#endif
}

void BandwidthCalendar::start(unsigned contenders)
{
    contenders_ = std::max(1u, contenders);
    throttle_ = contenders_ > 1 ? kStarting : kFree;
}

// Inlined into reserve, its one caller (a call per reservation saved).
template <bool Popcnt>
__attribute__((always_inline)) inline uint64_t BandwidthCalendar::share_near(uint64_t bin, unsigned requester,
                                                                            uint64_t bytes, uint64_t time_room)
{
    if (throttle_ != kFree) {
        if (throttle_ == kStarting) {
            start_bin_ = bin;
            throttle_ = kThrottled;
        }
        if (now_ > start_bin_) // (now_ never moves back)
            throttle_ = kFree;
        else if (bin >= start_bin_)
            return std::max<uint64_t>(1, cap_ / contenders_);
    }
    uint64_t w[2] = {0, 0}, used = 0;
    const uint64_t live_end = base_ + count_;
    const uint64_t lo = std::max(base_, bin > near_ ? bin - near_ : 0);
    const uint64_t hi = std::min<uint64_t>(bin + near_, live_end);
    // A slot of the ring that holds no live bin is empty (retire clears a bin, the ring grows and
    // starts with empty slots).  So when the 2 x near_ slots from bin - near_ are one piece of the
    // ring and share no slot with a live bin but their own (the live bins and these together span
    // at most the ring), all of them give the window's sums: the bins outside [lo, hi) add nothing.
    if (bin >= near_ && std::max(bin + near_, live_end) + near_ - base_ <= size_ &&
        ((bin - near_) & mask_) + 2 * near_ <= size_) {
        const Bin *const b = ring_.data() + ((bin - near_) & mask_); // b[near_]: bin, live or empty
        // When the first bin has room for all the bytes, a share of at least bytes gives the same
        // reservation as the share itself: the first bin takes them all.  The requesters active
        // here are at most the seen_count_ seen since reset(), this one among them, so demand =
        // A x used <= seen_count_ x used; when cap x window_cap >= bytes x that, the share is at
        // least bytes (cap_ >= bytes when demand <= window_cap, else cap x window_cap / demand >=
        // bytes), and the requesters need not be read.  The products fit in 64 bits when small_
        // (2^50 x 2 near_, 2^25 x 2^7 x 2^30).  The bins before the global time are left as they
        // are: past_hi_ <= bin, so the bin this reservation marks is not among them.  (A vector
        // kernel's 16 KB copies in L2: ~85% of its reservations there.)
        scan_fixed<2 * near_, true, false>(b, w, &used);
        if (bound_ && past_hi_ <= bin && bytes <= time_room && bytes <= cap_ - b[near_].used &&
            cap_squared_ * (hi > lo ? hi - lo : 1) >= bytes * seen_count_ * used)
            return 0;
        scan_fixed<2 * near_, false, true>(b, w, nullptr);
    } else {
        scan(lo, hi, w, &used);
    }
    // The requesters active in the near_ complete bins before the global time count too: they
    // have reserved there, and will contend here once their turn in this quantum comes, whether
    // or not they have reserved around `bin` yet (else the cores that take their turn first in
    // every quantum would see fewer contenders, take more and run ahead of the others).  Their
    // requesters are kept between calls: those bins end at or before the bin asked about (done <=
    // bin), where a reservation starts, and reservations mark only bins from their start on, so
    // the kept bins change only when the global time moves (retire), and then `done` moves.  (The
    // throttled start above keeps them too: it holds only while the global time, which they end
    // at or before, is at or before the bin asked about.)  Once they end at the global time itself
    // (done == now_), they stay the kept bins for every bin asked about from now_ on until the
    // global time moves or the calendar is reset (the live bins only grow meanwhile, so done and
    // past_lo come out the same): past_now_ says so, and they are not worked out again.
    if (!past_now_ || bin < now_) {
        const uint64_t done = std::min<uint64_t>(std::min(now_, bin), base_ + count_);
        const uint64_t past_lo = std::max(base_, done > near_ ? done - near_ : 0);
        if (past_lo != past_lo_ || done != past_hi_) {
            past_w_[0] = past_w_[1] = 0;
            if (done - past_lo == near_ && (past_lo & mask_) + near_ <= size_ && unrolled_) // near_ bins, one piece
                scan_fixed<near_, false>(ring_.data() + (past_lo & mask_), past_w_, nullptr);
            else
                scan(past_lo, done, past_w_, nullptr);
            past_lo_ = past_lo;
            past_hi_ = done;
        }
        past_now_ = done == now_ && unrolled_;
    }
    w[0] |= past_w_[0];
    w[1] |= past_w_[1];
    const unsigned r = requester % 128;
    w[r / 64] |= 1ull << (r % 64);
    uint64_t active;
    if constexpr (Popcnt)
        active = static_cast<uint64_t>(__builtin_popcountll(w[0]) + __builtin_popcountll(w[1]));
    else
        active = popcount2(w);
    // Processor sharing among the requesters that contend: A requesters that keep the window busy a
    // fraction U of its capacity act as A x U full-time ones, so capacity one leaves idle between
    // its bursts goes to the others.  share = cap / max(1, A x U), U = used / (cap x bins).
    const uint64_t window_cap = cap_ * (hi > lo ? hi - lo : 1);
    if (small_) { // (every bin holds at most cap_, the window at most 2 x near_ bins)
        const uint64_t demand = active * used;
        return demand <= window_cap ? cap_ : std::max<uint64_t>(1, cap_ * window_cap / demand);
    }
    const unsigned __int128 demand = static_cast<unsigned __int128>(active) * used; // A x U x window_cap
    if (demand <= window_cap)
        return cap_;
    // The quotient in 64 bits when both operands fit there (the common case; the same number).
    uint64_t num, demand64;
    if (!__builtin_mul_overflow(cap_, window_cap, &num) && !__builtin_mul_overflow(active, used, &demand64))
        return std::max<uint64_t>(1, num / demand64);
    return std::max<uint64_t>(1, static_cast<uint64_t>(static_cast<unsigned __int128>(cap_) * window_cap / demand));
}

cycles_t BandwidthCalendar::reserve(cycles_t t, uint64_t bytes, unsigned requester)
{
    if (bytes == 0)
        return t;
    return popcnt_ ? reserve_popcnt(t, bytes, requester) : reserve_plain(t, bytes, requester);
}

template <bool Popcnt>
__attribute__((always_inline)) inline cycles_t BandwidthCalendar::reserve_as(cycles_t t, uint64_t bytes,
                                                                             unsigned requester)
{
    const uint64_t window = window_, cap = cap_, bpc = bpc_; // locals: the bins' stores cannot alias them
    uint64_t bin = t / window;
    if (bin < base_) {
        bin = base_;
        t = bin * window;
    }
    const unsigned r = requester % 128, word = r / 64;
    const uint64_t mark = 1ull << (r % 64);
    if (!(seen_[word] & mark)) { // (it marks a bin below, whatever its share)
        seen_[word] |= mark;
        seen_count_++;
    }
    // The first bin gives what it has free, at most the share, from cycle t on.
    const cycles_t first_start = bin * window;
    const uint64_t time_room = (first_start + window - t) * bpc;
    const uint64_t share = share_near<Popcnt>(bin, requester, bytes, time_room);
    assert(past_hi_ <= bin); // share_near's kept bins are before every bin marked below
    if (share == 0) {
        // The first bin takes all the bytes, and it is live (in share_near's window, which is
        // within the ring): what follows below with first_take = bytes, in fewer steps.
        if (bin - base_ >= count_)
            count_ = bin - base_ + 1;
        Bin &first = slot(bin);
        first.used += bytes;
        first.who[word] |= mark;
        return std::max(t + dv_ceil_div(bytes, bpc), first_start + dv_ceil_div(first.used, bpc));
    }
    Bin &first = bin_at(bin);
    const uint64_t first_take = std::min({bytes, cap - first.used, time_room, share});
    if (first_take > 0) {
        first.used += first_take;
        first.who[word] |= mark;
        bytes -= first_take;
    }
    bin++;
    // The live bins other reservations may hold bytes in give what they have free, at most the
    // share each.  A full one gives nothing: the run of full bins it starts is passed over by the
    // full_run links, which then all point past it (as a union-find compresses its paths), so later
    // reservations cross it in a step or two.
    const uint64_t each = std::min(cap, share), room = cap - each, live_end = base_ + count_, mask = mask_;
    Bin *const ring = ring_.data();
    // The bins are walked by pointer through each piece of the ring that is one run of slots (bin
    // .. stop - 1), a full bin ending the walk.  Each takes min(free, share), compared with the
    // bytes left once (which stay above 0 in the loop): the bin that takes the last bytes returns.
    while (bytes > 0 && bin < live_end) {
        const uint64_t stop = std::min(live_end, (bin | mask) + 1); // (bin | mask) + 1 is in slot 0
        Bin *b = ring + (bin & mask), *const end = b + (stop - bin);
        for (; b != end; b++) {
            const uint64_t used = b->used;
            uint64_t take = each; // a bin with room for the share takes it (one test)
            if (used > room) {
                if (used == cap)
                    break;
                take = cap - used; // (a bin not full has bytes free)
            }
            b->who[word] |= mark;
            if (take >= bytes) { // the last bytes: through when their bin has passed all it holds
                b->used = used + bytes;
                return (stop - (end - b)) * window + dv_ceil_div(b->used, bpc);
            }
            b->used = used + take;
            bytes -= take;
        }
        bin = stop - (end - b);
        if (b == end)
            continue;
        const uint64_t from = bin;
        do
            bin += std::max<uint64_t>(1, ring[bin & mask].full_run);
        while (bin < live_end && ring[bin & mask].used == cap);
        // every full bin passed on the way now reaches past the run at once
        for (uint64_t p = from; p < bin;) {
            Bin &q = ring[p & mask];
            const uint64_t next = p + std::max<uint64_t>(1, q.full_run);
            q.full_run = bin - p;
            p = next;
        }
    }
    // In the first bin, the last bytes are through when it has passed all it holds, and not before
    // t plus their own time at the full rate.
    if (bytes == 0)
        return std::max(t + dv_ceil_div(first_take, bpc), first_start + dv_ceil_div(first.used, bpc));
    // Past the live bins every bin is empty: the share (or the capacity) in each, the rest in the
    // last, which is where the last byte is through.
    const uint64_t full = (bytes - 1) / each, last = bin + full;
    if (last - base_ >= size_)
        grow(last);
    count_ = last - base_ + 1;
    for (; bin < last; bin++) {
        Bin &b = slot(bin);
        b.used += each;
        b.who[word] |= mark;
    }
    Bin &b = slot(last);
    b.used += bytes - full * each;
    b.who[word] |= mark;
    return last * window + dv_ceil_div(b.used, bpc);
}

// reserve_as compiled twice: for a CPU with popcnt (configure() asks the CPU once; the build
// targets baseline x86-64, which has no popcnt instruction) and without.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("popcnt")))
#endif
cycles_t BandwidthCalendar::reserve_popcnt(cycles_t t, uint64_t bytes, unsigned requester)
{
    return reserve_as<true>(t, bytes, requester);
}

cycles_t BandwidthCalendar::reserve_plain(cycles_t t, uint64_t bytes, unsigned requester)
{
    return reserve_as<false>(t, bytes, requester);
}

void BandwidthCalendar::consume(cycles_t t, uint64_t bytes)
{
    uint64_t bin = std::max<uint64_t>(t / window_, base_);
    while (bytes > 0) {
        Bin &b = bin_at(bin++);
        const uint64_t take = std::min(bytes, cap_ > b.used ? cap_ - b.used : 0);
        b.used += take;
        bytes -= take;
    }
}

} // namespace dv
