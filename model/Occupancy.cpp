// model/Occupancy.cpp
#include "Occupancy.h"

#include <algorithm>

namespace dv {

void Occupancy::reset(cycles_t origin)
{
    segs_.clear();
    events_.clear();
    starts_.clear();
    ends_.clear();
    waiting_ = 0;
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

// The first open range that ends after `at` (segs_.size() if none).
size_t Occupancy::first_after(uint64_t at) const
{
    size_t lo = 0, hi = segs_.size();
    while (lo < hi) {
        const size_t mid = (lo + hi) / 2;
        if (segs_[mid].hi <= at)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// Range i becomes two at `at` (inside it), both with its times.
void Occupancy::split(size_t i, uint64_t at)
{
    Seg right = segs_[i];
    right.lo = at;
    segs_[i].hi = at;
    segs_.insert(segs_.begin() + static_cast<long>(i) + 1, right);
}

// The bytes [lo, hi) of open range s are written again: their interval is known.
void Occupancy::close(uint64_t lo, uint64_t hi, const Seg &s)
{
    if (!s.read || s.r <= s.w)
        return;
    const int64_t bytes = static_cast<int64_t>(hi - lo);
    byte_cycles_ += static_cast<double>(bytes) * static_cast<double>(s.r - s.w);
    add(starts_, s.w, bytes);
    add(ends_, s.r, -bytes);
    waiting_ += 2;
}

// An endpoint appended to a run: summed into the last entry when it has the same time (a write
// over several pieces of one range closes them with one start time).
void Occupancy::add(std::vector<Event> &run, cycles_t t, int64_t bytes)
{
    if (!run.empty() && run.back().t == t) {
        run.back().bytes += bytes;
        run.back().n++;
    } else {
        run.push_back(Event{t, bytes, 1});
    }
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

// Sort by time an appended run of endpoints: by insertion, linear when the run is nearly in order
// as close() appends it; past a budget of moves (an unusual order) by a full sort.
template <class Event> static void sort_by_time(std::vector<Event> &v)
{
    size_t budget = 8 * v.size() + 64;
    for (size_t i = 1; i < v.size(); i++) {
        const Event x = v[i];
        size_t j = i;
        for (; j > 0 && v[j - 1].t > x.t; j--) {
            if (budget-- == 0) {
                v[j] = x; // v[j] is the hole the moves left
                std::sort(v.begin(), v.end(), [](const Event &a, const Event &b) { return a.t < b.t; });
                return;
            }
            v[j] = v[j - 1];
        }
        v[j] = x;
    }
}

// Sweep the endpoints before `upto` into the running level and the peak: the three time-sorted
// runs (events_, and starts_ and ends_ once sorted here) in one pass; what remains of them becomes
// events_.
void Occupancy::fold(cycles_t upto)
{
    sort_by_time(starts_);
    sort_by_time(ends_);
    // Each run ends with an endpoint at kNever, which is never swept: the loops need no bounds.
    const Event stop{kNever, 0, 0};
    events_.push_back(stop);
    starts_.push_back(stop);
    ends_.push_back(stop);
    const Event *a = events_.data(), *b = starts_.data(), *c = ends_.data();
    // Equal times are summed before the peak is taken: an interval ending when another starts does
    // not overlap it.
    for (;;) {
        const cycles_t t = std::min(a->t, std::min(b->t, c->t));
        if (t >= upto)
            break;
        int64_t level = level_;
        for (; a->t == t; a++) {
            level += a->bytes;
            waiting_ -= a->n;
        }
        for (; b->t == t; b++) {
            level += b->bytes;
            waiting_ -= b->n;
        }
        for (; c->t == t; c++) {
            level += c->bytes;
            waiting_ -= c->n;
        }
        if (level != level_)
            change(t > origin_ ? t - origin_ : 0, level);
        peak_ = std::max<uint64_t>(peak_, static_cast<uint64_t>(std::max<int64_t>(level_, 0)));
    }
    events_.pop_back();
    starts_.pop_back();
    ends_.pop_back();
    const Event *const ae = events_.data() + events_.size(), *const be = starts_.data() + starts_.size(),
                       *const ce = ends_.data() + ends_.size();
    auto by_time = [](const Event &x, const Event &y) { return x.t < y.t; };
    if (b == be && c == ce) {
        events_.erase(events_.begin(), events_.begin() + (a - events_.data()));
    } else {
        // new endpoints wait too: merge what remains of the three runs
        scratch_.resize(static_cast<size_t>(be - b) + static_cast<size_t>(ce - c));
        std::merge(b, be, c, ce, scratch_.begin(), by_time);
        std::vector<Event> rest(static_cast<size_t>(ae - a) + scratch_.size());
        std::merge(a, ae, scratch_.begin(), scratch_.end(), rest.begin(), by_time);
        events_.swap(rest);
    }
    starts_.clear();
    ends_.clear();
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
    for (const Seg &s : segs_)
        oldest = std::min(oldest, s.w);
    fold(oldest);
    if (waiting_ <= kMaxEvents)
        return;
    // Data left unread for very long holds the rest back: fold the older half (events_ is sorted
    // now), counting the open ranges written before that point as occupied up to it (an upper
    // bound).
    size_t i = 0;
    for (size_t before = events_[0].n; before <= waiting_ / 2; before += events_[i].n)
        i++; // events_[i] holds endpoint waiting_ / 2 in time order
    const cycles_t upto = events_[i].t;
    for (Seg &s : segs_) {
        if (s.w < upto) {
            const int64_t bytes = static_cast<int64_t>(s.hi - s.lo);
            add(starts_, s.w, bytes);
            add(ends_, upto, -bytes);
            waiting_ += 2;
            byte_cycles_ += static_cast<double>(bytes) * static_cast<double>(upto - s.w);
            s.w = upto; // what remains of its interval starts at the fold
            s.r = std::max(s.r, upto);
        }
    }
    folded_early_ = true;
    fold(upto);
}

// The open ranges under [lo, hi) are closed, the parts of the first and last outside it stay
// open, and [lo, hi) is one new range.
void Occupancy::write(uint64_t lo, uint64_t hi, cycles_t t)
{
    if (lo >= hi)
        return;
    const size_t i = first_after(lo), n = segs_.size();
    if (i < n && segs_[i].lo == lo && segs_[i].hi == hi) { // the common case: one range, rewritten
        close(lo, hi, segs_[i]);
        segs_[i] = Seg{lo, hi, t, t, false};
    } else {
        size_t k = i;
        for (; k < n && segs_[k].lo < hi; k++)
            close(std::max(lo, segs_[k].lo), std::min(hi, segs_[k].hi), segs_[k]);
        Seg put[3];
        size_t m = 0;
        if (i < k && segs_[i].lo < lo) {
            put[m] = segs_[i];
            put[m++].hi = lo;
        }
        put[m++] = Seg{lo, hi, t, t, false};
        if (i < k && segs_[k - 1].hi > hi) {
            put[m] = segs_[k - 1];
            put[m++].lo = hi;
        }
        const auto at = segs_.begin() + static_cast<long>(i);
        if (m > k - i)
            segs_.insert(at, m - (k - i), Seg{});
        else
            segs_.erase(at + static_cast<long>(m), at + static_cast<long>(k - i));
        std::copy(put, put + m, segs_.begin() + static_cast<long>(i));
    }
    if (++writes_ % 256 == 0)
        compact();
}

void Occupancy::read(uint64_t lo, uint64_t hi, cycles_t t)
{
    if (lo >= hi)
        return;
    size_t i = first_after(lo);
    if (i < segs_.size() && segs_[i].lo < lo)
        split(i++, lo);
    for (; i < segs_.size() && segs_[i].lo < hi; i++) {
        if (segs_[i].hi > hi)
            split(i, hi);
        segs_[i].r = std::max(segs_[i].r, t);
        segs_[i].read = true;
    }
}

void Occupancy::finish()
{
    for (const Seg &s : segs_)
        close(s.lo, s.hi, s);
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
