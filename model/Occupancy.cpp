// model/Occupancy.cpp
#include "Occupancy.h"

#include <algorithm>

namespace dv {

void Occupancy::reset(cycles_t origin)
{
    segs_.clear();
    starts_.assign(kBuckets + 1, 0);
    ends_.assign(kBuckets + 1, 0);
    shift_ = 0;
    origin_ = origin;
    byte_cycles_ = 0;
    peak_ = 0;
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

void Occupancy::emit(uint64_t b0, uint64_t b1, uint64_t bytes)
{
    while (b1 >= kBuckets) {
        // Double the bucket width: starts map to floor(i/2), exclusive ends to ceil(k/2).
        std::vector<int64_t> s(kBuckets + 1, 0), e(kBuckets + 1, 0);
        for (unsigned i = 0; i <= kBuckets; i++) {
            s[i / 2] += starts_[i];
            e[(i + 1) / 2] += ends_[i];
        }
        starts_.swap(s);
        ends_.swap(e);
        shift_++;
        b0 >>= 1;
        b1 >>= 1;
    }
    starts_[b0] += static_cast<int64_t>(bytes);
    ends_[b1 + 1] += static_cast<int64_t>(bytes);
}

void Occupancy::close(uint64_t lo, const Seg &s, cycles_t next_write)
{
    if (!s.read || s.r < s.w)
        return;
    const uint64_t bytes = s.hi - lo;
    byte_cycles_ += static_cast<double>(bytes) * static_cast<double>(s.r - s.w);
    uint64_t b0 = bucket(s.w), b1 = bucket(s.r);
    // The new data written in the same bucket counts these bytes already.
    if (next_write != kNever && bucket(next_write) == b1) {
        if (b1 == b0)
            return;
        b1--;
    }
    emit(b0, b1, bytes);
}

void Occupancy::write(uint64_t lo, uint64_t hi, cycles_t t)
{
    if (lo >= hi)
        return;
    split(lo);
    split(hi);
    auto it = segs_.lower_bound(lo);
    while (it != segs_.end() && it->first < hi) {
        close(it->first, it->second, t);
        it = segs_.erase(it);
    }
    segs_.emplace(lo, Seg{hi, t, t, false});
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
        close(kv.first, kv.second, kNever);
    segs_.clear();
    int64_t level = 0, best = 0;
    for (unsigned i = 0; i < kBuckets; i++) {
        level += starts_[i] - ends_[i];
        best = std::max(best, level);
    }
    peak_ = static_cast<uint64_t>(best);
}

} // namespace dv
