// model/Occupancy.cpp
#include "Occupancy.h"

#include <algorithm>

namespace dv {

void Occupancy::reset(cycles_t)
{
    segs_.clear();
    events_.clear();
    level_ = 0;
    writes_ = 0;
    peak_ = 0;
    byte_cycles_ = 0;
    folded_early_ = false;
}

void Occupancy::split(uint64_t at)
{
    auto it = segs_.upper_bound(at);
    if (it == segs_.begin())
        return;
    --it;
    if (it->first < at && it->second.hi > at) {
        Seg right = it->second;
        it->second.hi = at;
        segs_.emplace(at, right);
    }
}

void Occupancy::close(uint64_t lo, const Seg &s)
{
    if (!s.read || s.r <= s.w)
        return;
    const int64_t bytes = static_cast<int64_t>(s.hi - lo);
    byte_cycles_ += static_cast<double>(bytes) * static_cast<double>(s.r - s.w);
    events_.emplace_back(s.w, bytes);
    events_.emplace_back(s.r, -bytes);
}

// Sweep the endpoints before `upto` into the running level and the peak.
void Occupancy::fold(cycles_t upto)
{
    std::sort(events_.begin(), events_.end());
    size_t i = 0;
    // Equal times are summed before the peak is taken: an interval ending when another starts does
    // not overlap it.
    while (i < events_.size() && events_[i].first < upto) {
        const cycles_t t = events_[i].first;
        for (; i < events_.size() && events_[i].first == t; i++)
            level_ += events_[i].second;
        peak_ = std::max<uint64_t>(peak_, static_cast<uint64_t>(std::max<int64_t>(level_, 0)));
    }
    events_.erase(events_.begin(), events_.begin() + static_cast<long>(i));
}

void Occupancy::compact()
{
    // Endpoints before the oldest open write are final: no interval can start earlier any more.
    cycles_t oldest = kNever;
    for (const auto &kv : segs_)
        oldest = std::min(oldest, kv.second.w);
    fold(oldest);
    if (events_.size() <= kMaxEvents)
        return;
    // Data left unread for very long holds the rest back: fold the older half (events_ is sorted
    // now), counting the open ranges written before that point as occupied up to it (an upper
    // bound).
    const cycles_t upto = events_[events_.size() / 2].first;
    for (auto &kv : segs_) {
        Seg &s = kv.second;
        if (s.w < upto) {
            const int64_t bytes = static_cast<int64_t>(s.hi - kv.first);
            events_.emplace_back(s.w, bytes);
            events_.emplace_back(upto, -bytes);
            byte_cycles_ += static_cast<double>(bytes) * static_cast<double>(upto - s.w);
            s.w = upto; // what remains of its interval starts at the fold
            s.r = std::max(s.r, upto);
        }
    }
    folded_early_ = true;
    fold(upto);
}

void Occupancy::write(uint64_t lo, uint64_t hi, cycles_t t)
{
    if (lo >= hi)
        return;
    split(lo);
    split(hi);
    auto it = segs_.lower_bound(lo);
    while (it != segs_.end() && it->first < hi) {
        close(it->first, it->second);
        it = segs_.erase(it);
    }
    segs_.emplace(lo, Seg{hi, t, t, false});
    if (++writes_ % 256 == 0)
        compact();
}

void Occupancy::read(uint64_t lo, uint64_t hi, cycles_t t)
{
    if (lo >= hi)
        return;
    split(lo);
    split(hi);
    for (auto it = segs_.lower_bound(lo); it != segs_.end() && it->first < hi; ++it) {
        it->second.r = std::max(it->second.r, t);
        it->second.read = true;
    }
}

void Occupancy::finish()
{
    for (auto &kv : segs_)
        close(kv.first, kv.second);
    segs_.clear();
    fold(kNever);
}

} // namespace dv
