// model/Occupancy.cpp
#include "Occupancy.h"

#include <algorithm>
#include <cstring>

namespace dv {

void Occupancy::reset(cycles_t origin)
{
    nsegs_ = 0;
    events_.last = events_.first;
    starts_.last = starts_.first;
    ends_.last = ends_.first;
    waiting_ = 0;
    level_ = 0;
    writes_ = 0;
    peak_ = 0;
    byte_cycles_ = 0;
    folded_early_ = false;
    origin_ = origin;
    tc_ = grid_ = 0;
    fc_ = 0;
    nknots_ = 0;
    backward_ = false;
}

// The first open range that ends after `at` (nsegs_ if none).
size_t Occupancy::first_after(uint64_t at) const
{
    size_t lo = 0, hi = nsegs_;
    while (lo < hi) {
        const size_t mid = (lo + hi) / 2;
        if (segs_[mid].hi <= at)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// An endpoint appended to a run: summed into the last entry when it has the same time (a write
// over several pieces of one range closes them with one start time).
inline void Occupancy::add(Run &run, cycles_t t, int64_t bytes)
{
    Event *const last = run.last;
    if (last != run.first && last[-1].t == t) {
        last[-1].bytes += bytes;
        last[-1].n++;
    } else if (last + 1 < run.cap) {
        *last = Event{t, bytes, 1};
        run.last = last + 1;
    } else {
        run.room(run.size() + 1);
        *run.last++ = Event{t, bytes, 1};
    }
}

__attribute__((noinline)) void Occupancy::Run::room(size_t want)
{
    const size_t n = size();
    if (static_cast<size_t>(cap - first) > want)
        return;
    size_t c = std::max(kRunRoom, 2 * static_cast<size_t>(cap - first));
    while (c <= want)
        c *= 2;
    std::unique_ptr<Event[]> grown(new Event[c]); // not written: only what is appended is
    if (n != 0)
        std::memcpy(grown.get(), first, n * sizeof(Event));
    block.swap(grown);
    first = block.get();
    last = first + n;
    cap = first + c;
}

// Cycles as a double: every time here is far below 2^63, and the signed conversion is one
// instruction where the unsigned one is several.
static inline double dbl(cycles_t c) { return static_cast<double>(static_cast<int64_t>(c)); }

// The bytes [lo, hi) of open range s are written again: their interval is known.  The integral
// and the count of waiting endpoints are summed in bc and waiting (members, or a caller's locals
// over several ranges).
inline void Occupancy::close(uint64_t lo, uint64_t hi, const Seg &s, double &bc, size_t &waiting)
{
    if (s.r <= s.w)
        return;
    const int64_t bytes = static_cast<int64_t>(hi - lo);
    bc += static_cast<double>(bytes) * dbl(s.r - s.w);
    add(starts_, s.w, bytes);
    add(ends_, s.r, -bytes);
    waiting += 2;
}

// The level changes from `from` at t (cycles after the origin, after the last change tc, where F
// is fc) and F there is f, in the cases fold() does not handle itself: the knots' room taken at
// the first change point, or change points turned into a grid once there are kMaxKnots of them,
// or a grid extended (and widened when needed) up to t.
void Occupancy::change_slow(cycles_t t, double f, int64_t from, cycles_t tc, double fc)
{
    tc_ = tc;
    fc_ = fc;
    level_ = from;
    if (grid_ == 0 && nknots_ < kMaxKnots) {
        if (!knots_)
            knots_.reset(new Knot[kMaxKnots]); // all it will hold: it only ever grows to kMaxKnots
        knots_[nknots_++] = Knot{t, f};
        return;
    }
    if (grid_ == 0)
        coarsen(t);
    while (t / grid_ > kMaxKnots)
        coarsen(t);
    for (cycles_t m = (tc_ / grid_ + 1) * grid_; m <= t; m += grid_)
        knots_[nknots_++] = Knot{m, fc_ + static_cast<double>(level_) * dbl(m - tc_)};
}

// Sort by time an appended run of endpoints: by insertion, linear when the run is nearly in order
// as close() appends it; past a budget of moves (an unusual order) by a full sort.
template <class Event> static void sort_by_time(Event *const e, const size_t n)
{
    size_t budget = 8 * n + 64;
    for (size_t i = 1; i < n; i++) {
        if (e[i].t >= e[i - 1].t)
            continue; // in order, the common case
        const Event x = e[i];
        size_t j = i;
        for (; j > 0 && e[j - 1].t > x.t; j--) {
            if (budget-- == 0) {
                e[j] = x; // e[j] is the hole the moves left
                std::sort(e, e + n, [](const Event &a, const Event &b) { return a.t < b.t; });
                return;
            }
            e[j] = e[j - 1];
        }
        e[j] = x;
    }
}

// Sweep the endpoints before `upto` into the running level and the peak: the three time-sorted
// runs (events_, and starts_ and ends_ once sorted here) in one pass; what remains of them becomes
// events_.
void Occupancy::fold(cycles_t upto)
{
    sort_by_time(starts_.begin(), starts_.size());
    sort_by_time(ends_.begin(), ends_.size());
    // Each run ends with an endpoint at kNever (in the room past its end), which is never swept:
    // the loops need no bounds.
    const Event stop{kNever, 0, 0};
    for (Run *run : {&events_, &starts_, &ends_}) {
        run->room(run->size());
        *run->end() = stop;
    }
    const Event *a = events_.begin(), *b = starts_.begin(), *c = ends_.begin();
    // The state the sweep changes, in locals (the knots' stores could alias the members).  While
    // every change point is kept, each is one store at kp (room up to kroom); else change_slow().
    int64_t level = level_;
    uint64_t peak = peak_;
    size_t waiting = waiting_;
    cycles_t tc = tc_;
    double fc = fc_;
    const cycles_t origin = origin_;
    Knot *kp = knots_.get() + nknots_, *kroom = grid_ == 0 && knots_ ? knots_.get() + kMaxKnots : kp;
    // The sweep's times only grow, so a change point can come before the last one (the knots out of
    // time order) only at its start: when the runs start before the last change.
    const cycles_t t0 = std::min(a->t, std::min(b->t, c->t));
    if (t0 < upto && (t0 > origin ? t0 - origin : 0) < tc)
        backward_ = true;
    // Equal times are summed before the peak is taken: an interval ending when another starts does
    // not overlap it.
    for (;;) {
        const cycles_t t = std::min(a->t, std::min(b->t, c->t));
        if (t >= upto)
            break;
        int64_t next = level;
        for (; a->t == t; a++) {
            next += a->bytes;
            waiting -= a->n;
        }
        for (; b->t == t; b++) {
            next += b->bytes;
            waiting -= b->n;
        }
        for (; c->t == t; c++) {
            next += c->bytes;
            waiting -= c->n;
        }
        if (next != level) {
            // F extended to the change point at t (relative to the origin)
            const cycles_t at = t > origin ? t - origin : 0;
            const double f = fc + static_cast<double>(level) * dbl(at - tc);
            if (kp != kroom) {
                *kp++ = Knot{at, f}; // the common case: a change point kept as it is
            } else {
                nknots_ = static_cast<size_t>(kp - knots_.get());
                change_slow(at, f, level, tc, fc);
                kp = knots_.get() + nknots_;
                kroom = grid_ == 0 ? knots_.get() + kMaxKnots : kp;
            }
            tc = at;
            fc = f;
            level = next;
        }
        peak = std::max<uint64_t>(peak, static_cast<uint64_t>(std::max<int64_t>(level, 0)));
    }
    nknots_ = static_cast<size_t>(kp - knots_.get());
    level_ = level;
    peak_ = peak;
    waiting_ = waiting;
    tc_ = tc;
    fc_ = fc;
    const Event *const ae = events_.end(), *const be = starts_.end(), *const ce = ends_.end();
    auto by_time = [](const Event &x, const Event &y) { return x.t < y.t; };
    if (b == be && c == ce) {
        const size_t n = static_cast<size_t>(ae - a);
        std::memmove(events_.first, a, n * sizeof(Event));
        events_.last = events_.first + n;
    } else {
        // new endpoints wait too: merge what remains of the three runs
        const size_t ns = static_cast<size_t>(be - b) + static_cast<size_t>(ce - c), nr = static_cast<size_t>(ae - a) + ns;
        scratch_.last = scratch_.first; // what they held is spent: grown without copies
        rest_.last = rest_.first;
        scratch_.room(ns);
        rest_.room(nr);
        scratch_.last = std::merge(b, be, c, ce, scratch_.first, by_time);
        rest_.last = std::merge(a, ae, scratch_.first, scratch_.last, rest_.first, by_time);
        std::swap(events_, rest_);
    }
    starts_.last = starts_.first;
    ends_.last = ends_.first;
}

// Too many knots: from change points (up to tc_) to the smallest power-of-two grid that holds
// [0, upto] in kMaxKnots / 2 points, or from a grid to one twice as wide.  F is exact at the
// points kept.
void Occupancy::coarsen(cycles_t upto)
{
    if (grid_ != 0) {
        grid_ *= 2;
        size_t k = 0;
        for (size_t i = 0; i < nknots_; i++)
            if (knots_[i].t % grid_ == 0)
                knots_[k++] = knots_[i];
        nknots_ = k;
        return;
    }
    cycles_t g = 1;
    while (upto / g > kMaxKnots / 2)
        g *= 2;
    std::unique_ptr<Knot[]> grid(new Knot[kMaxKnots]); // all it will hold: it only ever grows to kMaxKnots, then halves
    size_t k = 0, n = 0;
    for (cycles_t m = g; m <= tc_; m += g)
        grid[n++] = Knot{m, integral_at(dbl(m), k)};
    knots_.swap(grid);
    nknots_ = n;
    grid_ = g;
}

__attribute__((noinline)) void Occupancy::compact()
{
    // Endpoints before the oldest open write are final: no interval can start earlier any more.
    cycles_t oldest = kNever;
    for (size_t i = 0; i < nsegs_; i++)
        oldest = std::min(oldest, segs_[i].w);
    fold(oldest);
    if (waiting_ <= kMaxEvents)
        return;
    // Data left unread for very long holds the rest back: fold the older half (events_ is sorted
    // now), counting the open ranges written before that point as occupied up to it (an upper
    // bound).
    size_t i = 0;
    for (size_t before = events_.first[0].n; before <= waiting_ / 2; before += events_.first[i].n)
        i++; // events_[i] holds endpoint waiting_ / 2 in time order
    const cycles_t upto = events_.first[i].t;
    for (size_t i = 0; i < nsegs_; i++) {
        Seg &s = segs_[i];
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

// Room for `more` ranges past the open ones: the vector only grows, so that the cuts move ranges
// within it.
inline Occupancy::Seg *Occupancy::room(size_t more)
{
    if (nsegs_ + more > segs_.size())
        segs_.resize(std::max<size_t>(16, 2 * (nsegs_ + more)));
    return segs_.data();
}

// The open ranges under [lo, hi) are closed, the parts of the first and last outside it stay
// open, and [lo, hi) is one new range.
void Occupancy::write(uint64_t lo, uint64_t hi, cycles_t t)
{
    if (lo >= hi)
        return;
    const size_t i = first_after(lo);
    if (i < nsegs_ && segs_[i].lo == lo && segs_[i].hi == hi) { // the common case: one range, rewritten
        close(lo, hi, segs_[i], byte_cycles_, waiting_);
        segs_[i].w = segs_[i].r = t;
    } else {
        write_cut(i, lo, hi, t);
    }
    if (++writes_ % 256 == 0)
        compact();
}

__attribute__((noinline)) void Occupancy::write_cut(size_t i, uint64_t lo, uint64_t hi, cycles_t t)
{
    const size_t n = nsegs_;
    size_t k = i; // the ranges under [lo, hi) are i .. k - 1, closed in address order
    double bc = byte_cycles_;
    size_t waiting = waiting_;
    for (; k < n && segs_[k].lo < hi; k++)
        close(std::max(lo, segs_[k].lo), std::min(hi, segs_[k].hi), segs_[k], bc, waiting);
    byte_cycles_ = bc;
    waiting_ = waiting;
    // [lo, hi) takes their place, after the part of the first before lo and before the part of the
    // last past hi (each keeps its times); the ranges from k on move once, when the count changes.
    const size_t keep_lo = i < k && segs_[i].lo < lo, keep_hi = i < k && segs_[k - 1].hi > hi;
    const size_t m = keep_lo + 1 + keep_hi;
    Seg past{};
    if (keep_hi)
        past = segs_[k - 1];
    Seg *const s = room(m);
    if (m != k - i) {
        std::memmove(s + i + m, s + k, (n - k) * sizeof(Seg));
        nsegs_ = n + m - (k - i);
    }
    s[i].hi = lo; // the part before lo, when there is one (else overwritten next)
    s[i + keep_lo] = Seg{lo, hi, t, t};
    if (keep_hi) {
        past.lo = hi;
        s[i + keep_lo + 1] = past;
    }
}

// The open ranges under [lo, hi) are read until t; the first and the last are cut at lo and hi
// when they reach past them, the parts outside keeping their times.
void Occupancy::read(uint64_t lo, uint64_t hi, cycles_t t)
{
    if (lo >= hi)
        return;
    const size_t i = first_after(lo), n = nsegs_;
    Seg *const s = segs_.data();
    if (i < n && s[i].lo >= lo && s[i].hi <= hi && (i + 1 == n || s[i + 1].lo >= hi)) // the common case: one range
        s[i].r = std::max(s[i].r, t);
    else if (i < n && s[i].lo < hi)
        read_cut(i, lo, hi, t);
}

__attribute__((noinline)) void Occupancy::read_cut(size_t i, uint64_t lo, uint64_t hi, cycles_t t)
{
    const size_t n = nsegs_;
    Seg *const s = room(2);
    // One pass over the ranges under [lo, hi) (i .. k - 1; the caller saw s[i].lo < hi) reads
    // them until t, keeping the first's and the last's read time for their parts outside.
    const cycles_t r_first = s[i].r;
    cycles_t r_last;
    size_t k = i;
    do {
        r_last = s[k].r;
        s[k].r = std::max(r_last, t);
        k++;
    } while (k < n && s[k].lo < hi);
    const bool cut_lo = s[i].lo < lo, cut_hi = s[k - 1].hi > hi;
    if (!cut_lo && !cut_hi)
        return;
    // A cut range is there twice: the ranges after the first copy move up one place (after both
    // copies when both ends are cut), then the copies' bounds and the outside parts' times are set.
    if (cut_hi) {
        const size_t up = cut_lo ? 2 : 1;
        std::memmove(s + k - 1 + up, s + k - 1, (n - k + 1) * sizeof(Seg)); // the last and those after it
        s[k - 1 + up].lo = hi;
        s[k - 1 + up].r = r_last;
        if (cut_lo) { // the last again, those between and the first, one place up
            if (k - i <= 4) {
                for (size_t j = k; j-- > i;)
                    s[j + 1] = s[j];
            } else {
                std::memmove(s + i + 1, s + i, (k - i) * sizeof(Seg));
            }
        }
        s[k - 1 + cut_lo].hi = hi;
    } else {
        std::memmove(s + i + 1, s + i, (n - i) * sizeof(Seg));
    }
    if (cut_lo) {
        s[i].hi = lo;
        s[i].r = r_first;
        s[i + 1].lo = lo;
    }
    nsegs_ = n + cut_lo + cut_hi;
}

void Occupancy::finish()
{
    for (size_t i = 0; i < nsegs_; i++)
        close(segs_[i].lo, segs_[i].hi, segs_[i], byte_cycles_, waiting_);
    nsegs_ = 0;
    fold(kNever);
}

// F(x), x in cycles after the origin: linear between the knots, then from the last change on.
// k is the first knot after the previous x asked for; x must not decrease from call to call.
double Occupancy::integral_at(double x, size_t &k) const
{
    if (x >= dbl(tc_))
        return fc_ + static_cast<double>(level_) * (x - dbl(tc_));
    if (backward_) { // knots out of time order: the first from k after x, as they are
        while (k < nknots_ && dbl(knots_[k].t) <= x)
            k++;
    } else { // in time order: by bisection (the series asks for 64 points among up to kMaxKnots)
        const Knot *const from = knots_.get() + k, *const to = knots_.get() + nknots_;
        k += static_cast<size_t>(
            std::upper_bound(from, to, x, [](double v, const Knot &n) { return v < dbl(n.t); }) - from);
    }
    const Knot a = k == 0 ? Knot{0, 0.0} : knots_[k - 1];
    const Knot b = k == nknots_ ? Knot{tc_, fc_} : knots_[k];
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
