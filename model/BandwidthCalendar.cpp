// model/BandwidthCalendar.cpp
#include "BandwidthCalendar.h"

#include <algorithm>
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
    reset();
}

void BandwidthCalendar::reset()
{
    base_ = count_ = now_ = 0;
    past_lo_ = past_hi_ = past_w_[0] = past_w_[1] = 0;
    starting_ = throttled_ = false;
    ring_.assign(256, Bin{});
    mask_ = ring_.size() - 1;
}

void BandwidthCalendar::retire(cycles_t t)
{
    const uint64_t bin = t / window_;
    now_ = std::max(now_, bin);
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
}

BandwidthCalendar::Bin &BandwidthCalendar::bin_at(uint64_t bin)
{
    if (bin - base_ >= ring_.size())
        grow(bin);
    if (bin - base_ >= count_)
        count_ = bin - base_ + 1;
    return slot(bin);
}

// The requesters seen in the live bins [lo, hi) (or-ed into w) and, when used is given, the bytes
// they hold (added to *used): the ring in at most two contiguous pieces.
void BandwidthCalendar::scan(uint64_t lo, uint64_t hi, uint64_t w[2], uint64_t *used) const
{
    uint64_t u = 0;
#if defined(__SSE2__)
    __m128i who = _mm_setzero_si128(), who2 = _mm_setzero_si128(); // who[0], who[1] side by side
#else
    uint64_t w0 = 0, w1 = 0;
#endif
    while (lo < hi) {
        const uint64_t i = lo & mask_, n = std::min<uint64_t>(hi - lo, ring_.size() - i);
        const Bin *b = &ring_[i], *e = b + n;
#if defined(__SSE2__)
        for (; e - b >= 2; b += 2) { // two bins a step, in two accumulators
            who = _mm_or_si128(who, _mm_loadu_si128(reinterpret_cast<const __m128i *>(b[0].who)));
            who2 = _mm_or_si128(who2, _mm_loadu_si128(reinterpret_cast<const __m128i *>(b[1].who)));
            u += b[0].used + b[1].used;
        }
        if (b != e) {
            who = _mm_or_si128(who, _mm_loadu_si128(reinterpret_cast<const __m128i *>(b->who)));
            u += b->used;
        }
#else
        for (; b != e; b++) {
            w0 |= b->who[0];
            w1 |= b->who[1];
            u += b->used;
        }
#endif
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
        *used += u;
}

void BandwidthCalendar::start(unsigned contenders)
{
    contenders_ = std::max(1u, contenders);
    starting_ = contenders_ > 1;
    throttled_ = false;
}

// The bits set in x (without a library call when the target has no popcount instruction).
static inline uint64_t popcount(uint64_t x)
{
#if defined(__POPCNT__)
    return (uint64_t)__builtin_popcountll(x);
#else
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (x * 0x0101010101010101ull) >> 56;
#endif
}

uint64_t BandwidthCalendar::share_near(uint64_t bin, unsigned requester)
{
    if (starting_) {
        start_bin_ = bin;
        starting_ = false;
        throttled_ = true;
    }
    if (throttled_ && now_ <= start_bin_ && bin >= start_bin_)
        return std::max<uint64_t>(1, cap_ / contenders_);
    uint64_t w[2] = {0, 0}, used = 0;
    const uint64_t lo = std::max(base_, bin > near_ ? bin - near_ : 0);
    const uint64_t hi = std::min<uint64_t>(bin + near_, base_ + count_);
    scan(lo, hi, w, &used);
    // The requesters active in the near_ complete bins before the global time count too: they
    // have reserved there, and will contend here once their turn in this quantum comes, whether
    // or not they have reserved around `bin` yet (else the cores that take their turn first in
    // every quantum would see fewer contenders, take more and run ahead of the others).  Those
    // bins change only when the global time moves (retire) or a late core marks one (mark), so
    // their requesters are kept between calls.
    const uint64_t done = std::min<uint64_t>(std::min(now_, bin), base_ + count_);
    const uint64_t past_lo = std::max(base_, done > near_ ? done - near_ : 0);
    if (past_lo != past_lo_ || done != past_hi_) {
        past_w_[0] = past_w_[1] = 0;
        scan(past_lo, done, past_w_, nullptr);
        past_lo_ = past_lo;
        past_hi_ = done;
    }
    w[0] |= past_w_[0];
    w[1] |= past_w_[1];
    const unsigned r = requester % 128;
    w[r / 64] |= 1ull << (r % 64);
    const uint64_t active = popcount(w[0]) + (w[1] ? popcount(w[1]) : 0);
    // Processor sharing among the requesters that contend: A requesters that keep the window busy a
    // fraction U of its capacity act as A x U full-time ones, so capacity one leaves idle between
    // its bursts goes to the others.  share = cap / max(1, A x U), U = used / (cap x bins).
    const uint64_t window_cap = cap_ * (hi > lo ? hi - lo : 1);
    const unsigned __int128 demand = static_cast<unsigned __int128>(active) * used; // A x U x window_cap
    if (demand <= window_cap)
        return cap_;
    return std::max<uint64_t>(1, static_cast<uint64_t>(static_cast<unsigned __int128>(cap_) * window_cap / demand));
}

cycles_t BandwidthCalendar::reserve(cycles_t t, uint64_t bytes, unsigned requester)
{
    if (bytes == 0)
        return t;
    const uint64_t window = window_, cap = cap_, bpc = bpc_; // locals: the bins' stores cannot alias them
    uint64_t bin = t / window;
    if (bin < base_) {
        bin = base_;
        t = bin * window;
    }
    const uint64_t share = share_near(bin, requester);
    const unsigned r = requester % 128, word = r / 64;
    const uint64_t mark = 1ull << (r % 64);
    // Take what a bin has free, at most the share, from cycle `from` on (the first bin: only the
    // part after t).  The last bin that takes anything gives the finish (below).
    const Bin *last_bin = nullptr;
    uint64_t last_start = 0, last_from = 0, last_take = 0;
    auto take_from = [&](Bin &b, uint64_t bin_start, cycles_t from, uint64_t limit) {
        const uint64_t free_bytes = cap > b.used ? cap - b.used : 0;
        const uint64_t take = std::min({bytes, free_bytes, limit});
        if (take == 0)
            return;
        b.used += take;
        mark_bin(b, bin_start / window, word, mark);
        bytes -= take;
        last_bin = &b;
        last_start = bin_start;
        last_from = from;
        last_take = take;
    };
    const cycles_t first_start = bin * window;
    take_from(bin_at(bin), first_start, t, std::min((first_start + window - t) * bpc, share));
    bin++;
    // The live bins other reservations may hold bytes in.
    const uint64_t each = std::min(cap, share), live_end = base_ + count_;
    for (; bytes > 0 && bin < live_end; bin++)
        take_from(slot(bin), bin * window, bin * window, each);
    if (bytes == 0) // the last bytes went at a fair share through their whole bin, or alone at full rate
        return std::max(last_from + dv_ceil_div(last_take, bpc), last_start + dv_ceil_div(last_bin->used, bpc));
    // Past the live bins every bin is empty: the share (or the capacity) in each, the rest in the
    // last, which is where the last byte is through.
    const uint64_t full = (bytes - 1) / each, last = bin + full;
    if (last - base_ >= ring_.size())
        grow(last);
    count_ = last - base_ + 1;
    for (; bin < last; bin++) {
        Bin &b = slot(bin);
        b.used += each;
        mark_bin(b, bin, word, mark);
    }
    Bin &b = slot(last);
    b.used += bytes - full * each;
    mark_bin(b, last, word, mark);
    return last * window + dv_ceil_div(b.used, bpc);
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
