// model/BandwidthCalendar.cpp
#include "BandwidthCalendar.h"

#include <algorithm>

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
    base_ = 0;
    bins_.clear();
}

void BandwidthCalendar::retire(cycles_t t)
{
    const uint64_t bin = t / window_;
    const uint64_t keep = bin > near_ ? bin - near_ : 0; // keep recent history for active_near
    while (base_ < keep && !bins_.empty()) {
        bins_.pop_front();
        base_++;
    }
    if (bins_.empty() && base_ < keep)
        base_ = keep;
}

BandwidthCalendar::Bin &BandwidthCalendar::bin_at(uint64_t bin)
{
    while (bin - base_ >= bins_.size())
        bins_.emplace_back();
    return bins_[bin - base_];
}

unsigned BandwidthCalendar::active_near(uint64_t bin, unsigned requester)
{
    uint64_t w0 = 0, w1 = 0;
    const uint64_t lo = std::max(base_, bin > near_ ? bin - near_ : 0);
    const uint64_t hi = std::min<uint64_t>(bin + near_, base_ + bins_.size());
    for (uint64_t b = lo; b < hi; b++) {
        w0 |= bins_[b - base_].who[0];
        w1 |= bins_[b - base_].who[1];
    }
    const unsigned r = requester % 128;
    (r < 64 ? w0 : w1) |= 1ull << (r % 64);
    return static_cast<unsigned>(__builtin_popcountll(w0) + __builtin_popcountll(w1));
}

cycles_t BandwidthCalendar::reserve(cycles_t t, uint64_t bytes, unsigned requester)
{
    if (bytes == 0)
        return t;
    uint64_t bin = t / window_;
    if (bin < base_) {
        bin = base_;
        t = bin * window_;
    }
    const uint64_t share = std::max<uint64_t>(1, cap_ / active_near(bin, requester));
    const unsigned r = requester % 128;
    cycles_t finish = t;
    bool first = true;
    while (bytes > 0) {
        Bin &b = bin_at(bin);
        const cycles_t bin_start = bin * window_;
        // In the first bin only the part after t is available.
        const uint64_t avail_time = first ? (bin_start + window_ - t) * bpc_ : cap_;
        const uint64_t free_bytes = cap_ > b.used ? cap_ - b.used : 0;
        const uint64_t take = std::min({bytes, free_bytes, avail_time, share});
        if (take > 0) {
            b.used += take;
            b.who[r / 64] |= 1ull << (r % 64);
            bytes -= take;
            const cycles_t from = first ? t : bin_start;
            // At a fair share the bytes trickle through the whole bin; alone they go at full rate.
            finish = std::max(from + ceil_div(take, bpc_), bin_start + ceil_div(b.used, bpc_));
            if (bytes > 0 && take == share)
                finish = bin_start + window_;
        }
        first = false;
        bin++;
    }
    return finish;
}

} // namespace dv
