// model/Occupancy.cpp
#include "Occupancy.h"

#include <algorithm>

namespace dv {

void Occupancy::reset(cycles_t origin)
{
    segs_.clear();
    events_.clear();
    level_ = 0;
    writes_ = 0;
    peak_ = 0;
    byte_cycles_ = 0;
    folded_early_ = false;
    origin_ = origin;
    tc_ = grid_ = 0;
    fc_ = 0;
    knots_.clear();
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

// Cycles as a double: every time here is far below 2^63, and the signed conversion is one
// instruction where the unsigned one is several.
static inline double dbl(cycles_t c) { return static_cast<double>(static_cast<int64_t>(c)); }

// The level becomes `level` at t (cycles after the origin, after the last change): extend F to t
// and keep the knots the current form asks for.
inline void Occupancy::change(cycles_t t, int64_t level)
{
    const double f = fc_ + static_cast<double>(level_) * dbl(t - tc_);
    if (grid_ == 0 && knots_.size() < std::min(knots_.capacity(), kMaxKnots))
        knots_.push_back(Knot{t, f}); // the common case: a change point kept as it is
    else
        keep(t, f);
    tc_ = t;
    fc_ = f;
    level_ = level;
}

// change()'s other cases: room for more change points, or change points turned into a grid once
// there are kMaxKnots of them, or a grid extended (and widened when needed) up to t.
void Occupancy::keep(cycles_t t, double f)
{
    if (grid_ == 0 && knots_.size() < kMaxKnots) {
        knots_.reserve(std::min(kMaxKnots, std::max<size_t>(256, 2 * knots_.capacity())));
        knots_.push_back(Knot{t, f});
        return;
    }
    if (grid_ == 0)
        coarsen(t);
    while (t / grid_ > kMaxKnots)
        coarsen(t);
    for (cycles_t m = (tc_ / grid_ + 1) * grid_; m <= t; m += grid_)
        knots_.push_back(Knot{m, fc_ + static_cast<double>(level_) * dbl(m - tc_)});
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
        int64_t level = level_;
        for (; i < events_.size() && events_[i].first == t; i++)
            level += events_[i].second;
        if (level != level_)
            change(t > origin_ ? t - origin_ : 0, level);
        peak_ = std::max<uint64_t>(peak_, static_cast<uint64_t>(std::max<int64_t>(level_, 0)));
    }
    events_.erase(events_.begin(), events_.begin() + static_cast<long>(i));
}

// Too many knots: from change points (up to tc_) to the smallest power-of-two grid that holds
// [0, upto] in kMaxKnots / 2 points, or from a grid to one twice as wide.  F is exact at the
// points kept.
void Occupancy::coarsen(cycles_t upto)
{
    if (grid_ != 0) {
        grid_ *= 2;
        size_t k = 0;
        for (const Knot &p : knots_)
            if (p.t % grid_ == 0)
                knots_[k++] = p;
        knots_.resize(k);
        return;
    }
    cycles_t g = 1;
    while (upto / g > kMaxKnots / 2)
        g *= 2;
    std::vector<Knot> grid;
    grid.reserve(kMaxKnots); // all it will hold: it only ever grows to kMaxKnots, then halves
    size_t k = 0;
    for (cycles_t m = g; m <= tc_; m += g)
        grid.push_back(Knot{m, integral_at(dbl(m), k)});
    knots_.swap(grid);
    grid_ = g;
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

// F(x), x in cycles after the origin: linear between the knots, then from the last change on.
// k is the first knot after the previous x asked for; x must not decrease from call to call.
double Occupancy::integral_at(double x, size_t &k) const
{
    if (x >= dbl(tc_))
        return fc_ + static_cast<double>(level_) * (x - dbl(tc_));
    while (k < knots_.size() && dbl(knots_[k].t) <= x)
        k++;
    const Knot a = k == 0 ? Knot{0, 0.0} : knots_[k - 1];
    const Knot b = k == knots_.size() ? Knot{tc_, fc_} : knots_[k];
    // The slope first: between change points it is the level, an integer, so the result is exact.
    const double slope = (b.f - a.f) / dbl(b.t - a.t);
    return a.f + slope * (x - dbl(a.t));
}

void Occupancy::series(cycles_t total, double *out, size_t n) const
{
    if (total == 0 || (tc_ == 0 && level_ == 0)) { // no time, or nothing ever occupied
        std::fill(out, out + n, 0.0);
        return;
    }
    const double T = dbl(total), len = T / static_cast<double>(n);
    double prev = 0.0; // F(0): nothing is occupied before the origin
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const double f = integral_at(static_cast<double>(i + 1) * T / static_cast<double>(n), k);
        // Rounding aside, the mean lies in [0, peak]; the clamp keeps the last bit there too.
        out[i] = std::min(std::max((f - prev) / len, 0.0), static_cast<double>(peak_));
        prev = f;
    }
}

} // namespace dv
