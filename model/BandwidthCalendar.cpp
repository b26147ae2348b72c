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
    used_.clear();
}

void BandwidthCalendar::retire(cycles_t t)
{
    uint64_t bin = t / window_;
    while (base_ < bin && !used_.empty()) {
        used_.pop_front();
        base_++;
    }
    if (used_.empty() && base_ < bin)
        base_ = bin;
}

cycles_t BandwidthCalendar::reserve(cycles_t t, uint64_t bytes)
{
    if (bytes == 0)
        return t;
    uint64_t bin = t / window_;
    if (bin < base_) {
        bin = base_;
        t = bin * window_;
    }
    cycles_t finish = t;
    bool first = true;
    while (bytes > 0) {
        while (bin - base_ >= used_.size())
            used_.push_back(0);
        uint64_t &used = used_[bin - base_];
        const cycles_t bin_start = bin * window_;
        // In the first bin only the part after t is available.
        const uint64_t avail_time = first ? (bin_start + window_ - t) * bpc_ : cap_;
        const uint64_t free_bytes = cap_ > used ? cap_ - used : 0;
        const uint64_t take = std::min({bytes, free_bytes, avail_time});
        if (take > 0) {
            used += take;
            bytes -= take;
            const cycles_t from = first ? t : bin_start;
            // Our bytes go through after what was already reserved in this bin.
            finish = std::max(from + ceil_div(take, bpc_), bin_start + ceil_div(used, bpc_));
        }
        first = false;
        bin++;
    }
    return finish;
}

} // namespace dv
