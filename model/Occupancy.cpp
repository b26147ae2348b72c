// model/Occupancy.cpp
#include "Occupancy.h"

#include <algorithm>
#include <cstring>

namespace dv {

void Occupancy::reset(cycles_t origin, bool series)
{
    for (size_t i = 0; i < nopen_; i++)
        forget_reads(open_[i]);
    nopen_ = 0;
    events_.last = events_.first;
    starts_.last = starts_.first;
    ends_.last = ends_.first;
    level_ = 0;
    writes_ = 0;
    peak_ = 0;
    byte_cycles_ = 0;
    folded_early_ = false;
    late_ = false;
    footprint_ = 0;
    origin_ = origin;
    tc_ = grid_ = 0;
    fc_ = 0;
    nknots_ = 0;
    backward_ = false;
    series_ = series;
}

// The first open block that ends after `at` (nopen_ if none).  The block found last for an
// address hashed like `at` is tried first: an access mostly starts where one before it did (a
// tile's base, a slice of it), and the block holding `at` is the one (the blocks are disjoint and
// sorted).  A stale index (blocks moved or closed since) fails that test, so nothing needs to
// forget it.  Else a scan: a buffer holds few blocks (its tiles), and a scan over up to 8 costs
// less than a bisection.
inline size_t Occupancy::first_after(uint64_t at)
{
    const Block *const o = open_.data();
    uint32_t &hint = hint_[(at * 0x9E3779B97F4A7C15ull) >> (64 - kHintBits)];
    if (hint < nopen_ && o[hint].lo <= at && at < o[hint].hi)
        return hint;
    const size_t i = first_after_scan(at);
    hint = static_cast<uint32_t>(i);
    return i;
}

size_t Occupancy::first_after_scan(uint64_t at) const
{
    const Block *const o = open_.data();
    size_t lo = 0, hi = nopen_;
    while (hi - lo > 8) {
        const size_t mid = (lo + hi) / 2;
        if (o[mid].hi <= at)
            lo = mid + 1;
        else
            hi = mid;
    }
    while (lo < hi && o[lo].hi <= at)
        lo++;
    return lo;
}

// n endpoints at t, bytes in all, appended to a run: summed into the last entry when it has the
// same time (the pieces of one block start at one time).
inline void Occupancy::add(Run &run, cycles_t t, int64_t bytes, uint64_t n)
{
    Event *const last = run.last;
    if (last[-1].t == t) {
        last[-1].bytes += bytes;
        last[-1].n += n;
    } else if (last + 1 < run.cap) {
        *last = Event{t, bytes, n};
        run.last = last + 1;
    } else {
        run.room(run.size() + 1);
        *run.last++ = Event{t, bytes, n};
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
    std::unique_ptr<Event[]> grown(new Event[c + 1]); // not written: only what is appended is
    grown[0] = Event{kNever, 0, 0};
    if (n != 0)
        std::memcpy(grown.get() + 1, first, n * sizeof(Event));
    block.swap(grown);
    first = block.get() + 1;
    last = first + n;
    cap = first + c;
}

Occupancy::Event Occupancy::Run::none[2] = {{kNever, 0, 0}, {kNever, 0, 0}};

// Cycles as a double: every time here is far below 2^63, and the signed conversion is one
// instruction where the unsigned one is several.
static inline double dbl(cycles_t c) { return static_cast<double>(static_cast<int64_t>(c)); }

// The pieces of b within [lo, hi) are written again (or the run ends): their intervals are
// known.  Each piece read after b's write has one, closed in address order (the integral summed in
// that order, as a range cut at every read would be); the pieces start at one time, one entry.
// The integral is summed in bc (the member, or a caller's local over several blocks).
void Occupancy::close(const Block &b, size_t m, uint64_t lo, uint64_t hi, double &bc)
{
    const uint64_t *const cut = cut_.data();
    const cycles_t *const until = until_.data();
    const cycles_t w = b.w;
    size_t j = 0;
    while (cut[j + 1] <= lo)
        j++;
    int64_t sum = 0;
    uint64_t n = 0;
    for (; j < m && cut[j] < hi; j++) {
        const cycles_t r = until[j];
        if (r <= w)
            continue;
        const int64_t bytes = static_cast<int64_t>(std::min(hi, cut[j + 1]) - std::max(lo, cut[j]));
        bc += static_cast<double>(bytes) * dbl(r - w);
        add(ends_, r, -bytes);
        sum += bytes;
        n++;
    }
    if (n != 0) {
        add(starts_, w, sum, n);
    }
}

// close() for a block with no reads noted: one piece, read until b.r.
inline void Occupancy::close_whole(const Block &b, uint64_t lo, uint64_t hi, double &bc)
{
    if (b.r <= b.w)
        return;
    const int64_t bytes = static_cast<int64_t>(hi - lo);
    bc += static_cast<double>(bytes) * dbl(b.r - b.w);
    add(starts_, b.w, bytes);
    add(ends_, b.r, -bytes);
}

// Byte-cycles are sums of integers (bytes times cycles): up to 2^53 a double holds every one, and
// a sum that stays there is exact however its terms are grouped.
static constexpr double kExact = 9007199254740992.0; // 2^53

// close() of all of b when its reads came in order (each starting, ending and read no earlier than
// the one before): the same pieces and read times as pieces() gives, worked out a span at a time
// without storing them.  The reads' distinct starts L cut b into spans; a span [L, next L) is read,
// up to the end of the last read starting at L (or the next L), until that read's time: one
// interval end for its pieces, which are cut at the ends of earlier reads inside it; the rest of
// the span, and b before the first start, is read until r0, one piece each (reads that do not
// overlap, as a tile's slices, are each one span of one piece: nothing to count).  The integral is
// summed a span at a time (its pieces read until one time) when the sum stays exact; else piece by
// piece, in address order, as close() would.
void Occupancy::close_in_order(const Block &b, double &bc)
{
    const Reads &l = list(b);
    const Read *const rd = l.v.data();
    const size_t n = l.n;
    const cycles_t w = b.w, r0 = std::max(w, b.r), rmax = std::max(r0, rd[n - 1].t);
    if (rmax > w && !(bc < kExact && (b.hi - b.lo) <= (static_cast<uint64_t>(kExact) - static_cast<uint64_t>(bc)) / (rmax - w))) {
        close_in_order_pieces(b, bc);
        return;
    }
    uint64_t exact = 0; // the integral's part here, exact
    int64_t sum = 0;
    uint64_t count = 0;
    // One interval end for a part [x, y) of b read until r, its pieces `cut` of them.
    auto part = [&](uint64_t x, uint64_t y, cycles_t r, uint64_t pieces) {
        if (r > w) {
            const uint64_t bytes = y - x;
            exact += bytes * (r - w);
            add(ends_, r, -static_cast<int64_t>(bytes), pieces);
            sum += static_cast<int64_t>(bytes);
            count += pieces;
        }
    };
    auto finish = [&]() { // the pieces' interval start, and their integral
        if (count != 0) {
            bc += static_cast<double>(exact);
            add(starts_, w, sum, count);
        }
    };
    if (l.disjoint) { // each read one piece, each gap before, between and after them one
        uint64_t at = b.lo;
        for (size_t k = 0; k < n; k++) {
            if (rd[k].lo > at)
                part(at, rd[k].lo, r0, 1);
            part(rd[k].lo, rd[k].hi, std::max(r0, rd[k].t), 1);
            at = rd[k].hi;
        }
        if (at < b.hi)
            part(at, b.hi, r0, 1);
        finish();
        return;
    }
    if (rd[0].lo > b.lo) // before the first read
        part(b.lo, rd[0].lo, r0, 1);
    if (rd[0].hi > rd[n - 1].lo) { // hulls, each reaching past the last one's start
        size_t k = 1;
        while (k < n && rd[k].lo != rd[k - 1].lo)
            k++;
        if (k == n) { // and no two starting together: each span up to the last is one piece
            for (k = 0; k + 1 < n; k++)
                part(rd[k].lo, rd[k + 1].lo, std::max(r0, rd[k].t), 1);
            const uint64_t h = rd[n - 1].hi; // the last span, cut at the others' ends below h
            uint64_t pieces = 1;
            for (size_t c = 0; c + 1 < n && rd[c].hi < h; c++)
                pieces += c == 0 || rd[c].hi != rd[c - 1].hi;
            part(rd[n - 1].lo, h, std::max(r0, rd[n - 1].t), pieces);
            if (h < b.hi)
                part(h, b.hi, r0, 1);
            finish();
            return;
        }
    }
    size_t c = 0; // reads [0, c) end at or before where the span's reads are counted from
    for (size_t k = 0; k < n;) {
        const uint64_t L = rd[k].lo;
        while (k + 1 < n && rd[k + 1].lo == L) // the last read starting at L
            k++;
        const uint64_t next = k + 1 < n ? rd[k + 1].lo : b.hi, h = std::min(rd[k].hi, next);
        // the pieces of [L, h): cut at the distinct ends of reads inside it
        while (c < n && rd[c].hi <= L)
            c++;
        uint64_t pieces = 1;
        for (uint64_t cut = L; c < n && rd[c].hi < h; c++)
            if (rd[c].hi != cut) {
                cut = rd[c].hi;
                pieces++;
            }
        part(L, h, std::max(r0, rd[k].t), pieces);
        if (h < next) // past the read's end: one piece
            part(h, next, r0, 1);
        k++;
    }
    finish();
}

// close_in_order() piece by piece, the integral summed in address order.
__attribute__((noinline)) void Occupancy::close_in_order_pieces(const Block &b, double &bc)
{
    const Reads &l = list(b);
    const Read *const rd = l.v.data();
    const size_t n = l.n;
    const cycles_t w = b.w, r0 = std::max(w, b.r);
    int64_t sum = 0;
    uint64_t count = 0;
    size_t a = 0, c = 0; // reads [0, a) start at or before the piece, [0, c) end there or before
    for (uint64_t at = b.lo; at < b.hi;) {
        while (a < n && rd[a].lo <= at)
            a++;
        while (c < n && rd[c].hi <= at)
            c++;
        uint64_t next = b.hi; // the next bound: a read's start or end past at, or b's end
        if (a < n)
            next = std::min(next, rd[a].lo);
        if (c < n)
            next = std::min(next, rd[c].hi);
        const cycles_t r = a != 0 && rd[a - 1].hi > at ? std::max(r0, rd[a - 1].t) : r0;
        if (r > w) {
            const int64_t bytes = static_cast<int64_t>(next - at);
            bc += static_cast<double>(bytes) * dbl(r - w);
            add(ends_, r, -bytes);
            sum += bytes;
            count++;
        }
        at = next;
    }
    if (count != 0)
        add(starts_, w, sum, count);
}

cycles_t Occupancy::read_until(const Block &b) const
{
    cycles_t r = std::max(b.w, b.r);
    if (b.reads != 0) {
        const Reads &l = list(b);
        if (l.in_order && l.n != 0)
            r = std::max(r, l.v[l.n - 1].t); // each read no earlier than the one before
        else
            for (size_t j = 0; j < l.n; j++)
                r = std::max(r, l.v[j].t);
    }
    return r;
}

// b cut at the ends of the reads noted on it: the bounds in cut_, each piece's read time (the
// latest of b.w, b.r and the reads over it) in until_.
size_t Occupancy::pieces(const Block &b)
{
    const cycles_t r0 = std::max(b.w, b.r);
    const Reads *const l = b.reads != 0 ? &list(b) : nullptr;
    const size_t n = l ? l->n : 0;
    if (cut_.size() < 2 * n + 2) {
        cut_.resize(4 * n + 2);
        until_.resize(4 * n + 2);
        los_.resize(4 * n + 2);
        his_.resize(4 * n + 2);
    }
    uint64_t *const cut = cut_.data();
    cycles_t *const until = until_.data();
    cut[0] = b.lo;
    if (n == 0) {
        cut[1] = b.hi;
        until[0] = r0;
        return 1;
    }
    if (!l->in_order)
        return pieces_any_order(b);
    // The reads' starts and their ends are each in order: merged, the bounds (each once).
    const Read *const rd = l->v.data();
    size_t m = 0, a = 0, c = 0;
    while (c < n) {
        const uint64_t v = a < n && rd[a].lo <= rd[c].hi ? rd[a++].lo : rd[c++].hi;
        if (v != cut[m])
            cut[++m] = v;
    }
    if (cut[m] != b.hi)
        cut[++m] = b.hi;
    // A piece is read until the last read that starts at or before it, when that one reaches
    // past it: every read before ends no later, every read after starts later.
    size_t last = 0; // reads [0, last) start at or before the piece
    for (size_t j = 0; j < m; j++) {
        while (last < n && rd[last].lo <= cut[j])
            last++;
        until[j] = last != 0 && rd[last - 1].hi > cut[j] ? std::max(r0, rd[last - 1].t) : r0;
    }
    return m;
}

// Sort a few values, nearly in order as a block's reads come (by insertion).
static void sort_few(uint64_t *const v, const size_t n)
{
    for (size_t i = 1; i < n; i++) {
        const uint64_t x = v[i];
        size_t j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

// pieces() for reads in any order: the bounds sorted, each read's time over the pieces it covers.
__attribute__((noinline)) size_t Occupancy::pieces_any_order(const Block &b)
{
    const cycles_t r0 = std::max(b.w, b.r);
    const Read *const rd = list(b).v.data();
    const size_t nr = list(b).n;
    uint64_t *const cut = cut_.data();
    cycles_t *const until = until_.data();
    uint64_t *const los = los_.data(), *const his = his_.data();
    size_t nl = 0, nh = 0;
    for (const Read *r = rd; r != rd + nr; r++) { // the ends inside b
        los[nl] = r->lo;
        nl += r->lo > b.lo;
        his[nh] = r->hi;
        nh += r->hi < b.hi;
    }
    sort_few(los, nl);
    sort_few(his, nh);
    los[nl] = his[nh] = b.hi; // stops for the merge
    size_t m = 0, a = 0, c = 0;
    while (a < nl || c < nh) {
        const uint64_t v = los[a] <= his[c] ? los[a++] : his[c++];
        if (v != cut[m])
            cut[++m] = v;
    }
    cut[++m] = b.hi;
    std::fill(until, until + m, r0);
    for (const Read *r = rd; r != rd + nr; r++) {
        size_t j = static_cast<size_t>(std::lower_bound(cut, cut + m, r->lo) - cut);
        for (; cut[j] < r->hi; j++)
            until[j] = std::max(until[j], r->t);
    }
    return m;
}

// A read noted in l (there is room for it), which keeps note whether they come in order.
inline void Occupancy::append(Reads &l, const Read &r)
{
    Read *const v = l.v.data();
    if (l.n != 0) { // the flags and-ed with the compares: no branch on each
        const Read &p = v[l.n - 1];
        l.in_order &= (r.lo >= p.lo) & (r.hi >= p.hi) & (r.t >= p.t);
        l.disjoint &= r.lo >= p.hi;
    }
    v[l.n++] = r;
}

// A list for a block's reads: a spare one, or a new one.
uint32_t Occupancy::new_list()
{
    if (spare_lists_.empty()) {
        lists_.emplace_back();
        return static_cast<uint32_t>(lists_.size()); // lists_[n - 1] is list n
    }
    const uint32_t n = spare_lists_.back();
    spare_lists_.pop_back();
    return n;
}

void Occupancy::forget_reads(Block &b)
{
    if (b.reads == 0)
        return;
    list(b).restart();
    spare_lists_.push_back(b.reads);
    b.reads = 0;
}

// b now spans [lo, hi) (within it before), its reads the pieces from the last pieces() there.
void Occupancy::keep(Block &b, uint64_t lo, uint64_t hi, size_t m)
{
    const uint64_t *const cut = cut_.data();
    const cycles_t *const until = until_.data();
    size_t j = 0;
    while (cut[j + 1] <= lo)
        j++;
    b.lo = lo;
    b.hi = hi;
    if (cut[j + 1] >= hi) { // one piece: read as a whole
        b.r = until[j];
        forget_reads(b);
        return;
    }
    b.r = b.w;
    if (b.reads == 0)
        b.reads = new_list();
    Reads &l = list(b);
    l.n = 0;
    l.in_order = l.disjoint = true;
    if (l.v.size() < 2 * (m - j)) // room for the pieces, and as many reads again
        l.v.resize(2 * (m - j));
    for (; j < m && cut[j] < hi; j++)
        append(l, Read{std::max(lo, cut[j]), std::min(hi, cut[j + 1]), until[j]});
    l.room = std::max(Reads::kRoom, 2 * l.n);
}

// Too many reads noted on b: they become its pieces (as many as they cut it into, or fewer).
__attribute__((noinline)) void Occupancy::replace_reads(Block &b)
{
    keep(b, b.lo, b.hi, pieces(b));
}

// A read of [lo, hi) within b until t.
inline void Occupancy::note(Block &b, uint64_t lo, uint64_t hi, cycles_t t)
{
    if (lo == b.lo && hi == b.hi) { // the whole block: no cut
        b.r = std::max(b.r, t);
        return;
    }
    if (b.reads == 0)
        b.reads = new_list();
    Reads &l = list(b);
    if (l.n != 0 && l.v[l.n - 1].lo == lo && l.v[l.n - 1].hi == hi) { // the same part again
        l.v[l.n - 1].t = std::max(l.v[l.n - 1].t, t);
        return;
    }
    append(l, Read{lo, hi, t});
    if (l.n >= l.room)
        replace_reads(b);
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
    for (cycles_t m = (tc_ / grid_ + 1) * grid_; m <= t; m += grid_) {
        // After a change point before the last one, the grid points from there on are appended
        // again: t alone does not bound their number, so the room is checked as they come, and a
        // full room widens the grid (m, from then on, its next point).
        while (nknots_ == kMaxKnots) {
            coarsen(t);
            m = (m + grid_ - 1) / grid_ * grid_;
        }
        if (m > t)
            break;
        knots_[nknots_++] = Knot{m, fc_ + static_cast<double>(level_) * dbl(m - tc_)};
    }
}

// The order of endpoints (Occupancy::Event) that the sorts and merges keep: by time.
struct ByTime {
    template <class Event> bool operator()(const Event &x, const Event &y) const { return x.t < y.t; }
};

// sort_by_time()'s merge: the stretch e[i, k) (ascending, its first before e[i - 1], at most
// kStretch) merged into the sorted part e[0, i) from the back; returns how many of that part moved.
static constexpr size_t kStretch = 64;
template <class Event> __attribute__((noinline)) static size_t merge_stretch(Event *const e, const size_t i, const size_t k)
{
    Event part[kStretch];
    std::copy(e + i, e + k, part);
    size_t x = i, y = k - i, out = k; // e[0, x) and part[0, y) are still to be placed, at out down
    while (y != 0) {
        if (x != 0 && e[x - 1].t > part[y - 1].t)
            e[--out] = e[--x];
        else
            e[--out] = part[--y];
    }
    return i - x;
}

template <class Event> __attribute__((noinline)) static void sort_fully(Event *const e, Event *const end)
{
    std::sort(e, end, ByTime{});
}

// Sort by time an appended run of endpoints.  It comes as ascending stretches (a close appends its
// interval ends in time order), each of which may start before the end of the one before (two
// tiles read slice after slice in turns, closed one after the other).  An endpoint out of place
// is inserted; a stretch of them (ascending, each before the end of the sorted part; up to
// kStretch at a time) is set aside and merged with the sorted part's tail from the back, so the
// tail moves once per stretch, not once per endpoint.  Past a budget of moves (an unusual order)
// by a full sort; the budget is counted per insertion or stretch (one may overrun it by up to n
// moves).  Endpoints at one time may end in any order: the sweep sums them before it looks at the
// level.  e[n] must be a stop, an endpoint at kNever: no stretch runs into it.
template <class Event> static void sort_by_time(Event *const e, const size_t n)
{
    size_t budget = 8 * n + 64;
    Event *const end = e + n;
    for (Event *p = e + 1; p < end; p++) {
        if (p->t >= p[-1].t)
            continue; // in order, the common case
        const cycles_t top = p[-1].t; // the latest of the sorted part [e, p)
        size_t moved = 0;
        if (p[1].t < top && p[1].t >= p->t) { // a stretch [p, q), ascending, before top
            Event *q = p + 2;
            while (q < p + kStretch && q->t < top && q->t >= q[-1].t)
                q++;
            moved = merge_stretch(e, static_cast<size_t>(p - e), static_cast<size_t>(q - e));
            p = q - 1;
        } else { // one endpoint: inserted
            const Event v = *p;
            Event *x = p;
            do {
                *x = x[-1];
                x--;
                moved++;
            } while (x != e && x[-1].t > v.t);
            *x = v;
        }
        if (moved > budget) {
            sort_fully(e, end);
            return;
        }
        budget -= moved;
    }
}

// Fold the endpoints before `upto` into the running level and the peak: only summed once the peak
// has reached the bound of Occupancy.h (no sort, no sweep), else swept.
void Occupancy::fold(cycles_t upto)
{
    if (!series_ && static_cast<int64_t>(peak_) >= bound())
        fold_bounded(upto);
    else
        fold_sweep(upto);
}

// fold() when the level cannot exceed the peak (see Occupancy.h): the endpoints before upto
// summed into the level, the others kept where they are (events_ stays sorted; starts_ and ends_
// are sorted by the next sweep).
__attribute__((noinline)) void Occupancy::fold_bounded(cycles_t upto)
{
    int64_t level = level_;
    for (Run *run : {&events_, &starts_, &ends_}) {
        Event *out = run->first;
        for (const Event *e = run->first; e != run->last; e++) {
            const bool before = e->t < upto;
            level += before ? e->bytes : 0;
            *out = *e;
            out += !before;
        }
        run->last = out;
    }
    level_ = level;
}

// Sweep the endpoints before `upto` into the running level and the peak: the time-sorted runs
// (starts_ and ends_ once sorted here, events_ merged into starts_ first) in one pass; what remains
// of them becomes events_.
void Occupancy::fold_sweep(cycles_t upto)
{
    // Each run ends with an endpoint at kNever (in the room past its end), which is never swept:
    // the sorts and the sweep's loops need no bounds.
    const Event stop{kNever, 0, 0};
    for (Run *run : {&starts_, &ends_}) {
        run->room(run->size());
        *run->end() = stop;
    }
    sort_by_time(starts_.begin(), starts_.size());
    sort_by_time(ends_.begin(), ends_.size());
    if (events_.last != events_.first) { // endpoints left by the last fold: with the starts
        scratch_.last = scratch_.first;  // what it held is spent: grown without copies
        scratch_.room(events_.size() + starts_.size());
        scratch_.last = std::merge(events_.first, events_.last, starts_.first, starts_.last, scratch_.first, ByTime{});
        *scratch_.end() = stop;
        std::swap(starts_, scratch_);
        events_.last = events_.first;
    }
    const Event *b = starts_.begin(), *c = ends_.begin();
    if (!series_) {
        sweep_level(b, c, upto);
        return;
    }
    // The state the sweep changes, in locals (the knots' stores could alias the members).  While
    // every change point is kept, each is one store at kp (room up to kroom); else change_slow().
    int64_t level = level_;
    // The peak (0 or a level, so the level's type holds it) is at least the level and at least 0:
    // a level above it is positive.  It changes only as the level does.
    int64_t peak = static_cast<int64_t>(peak_);
    cycles_t tc = tc_;
    double fc = fc_;
    const cycles_t origin = origin_;
    Knot *kp = knots_.get() + nknots_, *kroom = grid_ == 0 && knots_ ? knots_.get() + kMaxKnots : kp;
    // The sweep's times only grow, so a change point can come before the last one (the knots out of
    // time order) only at its start: when the runs start before the last change.
    const cycles_t t0 = std::min(b->t, c->t);
    if (t0 < upto && (t0 > origin ? t0 - origin : 0) < tc)
        backward_ = true;
    // Equal times are summed before the peak is taken: an interval ending when another starts does
    // not overlap it.
    for (;;) {
        const cycles_t t = std::min(b->t, c->t);
        if (t >= upto)
            break;
        int64_t next = level;
        for (; b->t == t; b++)
            next += b->bytes;
        for (; c->t == t; c++)
            next += c->bytes;
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
            if (next > peak)
                peak = next;
        }
    }
    nknots_ = static_cast<size_t>(kp - knots_.get());
    level_ = level;
    peak_ = static_cast<uint64_t>(peak);
    tc_ = tc;
    fc_ = fc;
    rest(b, c);
}

// What remains of the runs after a sweep (from b and c) waits in events_.
inline void Occupancy::rest(const Event *b, const Event *c)
{
    const Event *const be = starts_.end(), *const ce = ends_.end();
    if (b != be || c != ce) {
        events_.room(static_cast<size_t>(be - b) + static_cast<size_t>(ce - c));
        events_.last = std::merge(b, be, c, ce, events_.first, ByTime{});
    }
    starts_.last = starts_.first;
    ends_.last = ends_.first;
}

// fold()'s sweep from b and c without series: only the level and the peak, the same as with it.
__attribute__((noinline)) void Occupancy::sweep_level(const Event *b, const Event *c, cycles_t upto)
{
    int64_t level = level_;
    int64_t peak = static_cast<int64_t>(peak_);
    // A peak that reaches the bound of Occupancy.h (when it holds) is final: from there the
    // endpoints are only summed, a run at a time.
    const int64_t bound = this->bound();
    for (;;) {
        const cycles_t t = std::min(b->t, c->t);
        if (t >= upto)
            break;
        for (; b->t == t; b++)
            level += b->bytes;
        for (; c->t == t; c++)
            level += c->bytes;
        if (level > peak) {
            peak = level;
            if (peak >= bound) {
                for (; b->t < upto; b++)
                    level += b->bytes;
                for (; c->t < upto; c++)
                    level += c->bytes;
                break;
            }
        }
    }
    level_ = level;
    peak_ = static_cast<uint64_t>(peak);
    rest(b, c);
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
    while (tc_ / g > kMaxKnots) // a change point before the last one (upto < tc_): the grid holds tc_
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
    uint64_t footprint = 0;
    for (size_t i = 0; i < nopen_; i++) {
        oldest = std::min(oldest, open_[i].w);
        footprint += open_[i].hi - open_[i].lo;
    }
    footprint_ = footprint;
    fold(oldest);
    size_t waiting = 0; // endpoints still waiting (in starts_ and ends_ too after fold_bounded())
    for (const Run *run : {&events_, &starts_, &ends_})
        for (const Event &e : *run)
            waiting += e.n;
    if (waiting <= kMaxEvents)
        return;
    if (starts_.size() != 0 || ends_.size() != 0)
        fold_sweep(oldest); // nothing more to fold: the endpoints sorted into events_
    // Data left unread for very long holds the rest back: fold the older half (events_ is sorted
    // now), counting the open pieces written before that point as occupied up to it (an upper
    // bound).
    size_t i = 0;
    for (size_t before = events_.first[0].n; before <= waiting / 2; before += events_.first[i].n)
        i++; // events_[i] holds endpoint waiting / 2 in time order
    const cycles_t upto = events_.first[i].t;
    for (size_t k = 0; k < nopen_; k++) {
        Block &b = open_[k];
        if (b.w < upto) {
            const size_t m = pieces(b);
            for (size_t j = 0; j < m; j++) {
                const int64_t bytes = static_cast<int64_t>(cut_[j + 1] - cut_[j]);
                add(starts_, b.w, bytes);
                add(ends_, upto, -bytes);
                byte_cycles_ += static_cast<double>(bytes) * static_cast<double>(upto - b.w);
            }
            b.w = upto; // the rest of its pieces' intervals starts at the fold: read until upto at least
        }
    }
    folded_early_ = true;
    fold_sweep(upto);
}

// The open blocks under [lo, hi) are closed, the parts of the first and last outside it stay
// open, and [lo, hi) is one new block.
void Occupancy::write(uint64_t lo, uint64_t hi, cycles_t t)
{
    if (lo >= hi)
        return;
    const size_t i = first_after(lo);
    if (i < nopen_ && open_[i].lo == lo && open_[i].hi == hi) { // the common case: one block, rewritten
        Block &b = open_[i];
        if (!has_reads(b)) {
            if (b.r > t)
                late_ = true;
            close_whole(b, lo, hi, byte_cycles_);
        } else {
            if (read_until(b) > t)
                late_ = true;
            if (list(b).in_order)
                close_in_order(b, byte_cycles_);
            else
                close(b, pieces(b), lo, hi, byte_cycles_);
            list(b).restart(); // kept for the next reads
        }
        b.w = b.r = t;
    } else {
        write_cut(i, lo, hi, t);
    }
    if (++writes_ % 256 == 0)
        compact();
}

__attribute__((noinline)) void Occupancy::write_cut(size_t i, uint64_t lo, uint64_t hi, cycles_t t)
{
    // The write starts inside block i and ends inside the next, neither with reads noted (an L0
    // tile written as overlapping hulls, each over the one before and the tile's older data):
    // each is closed over its part within [lo, hi) and keeps the rest, [lo, hi) goes between them.
    if (i + 1 < nopen_) {
        Block *o = open_.data();
        Block &a = o[i], &c = o[i + 1];
        if (a.lo < lo && c.lo < hi && hi <= c.hi && !has_reads(a) && !has_reads(c)) {
            if (std::max(a.r, c.r) > t)
                late_ = true;
            double bc = byte_cycles_;
            close_whole(a, lo, a.hi, bc);
            close_whole(c, c.lo, hi, bc);
            byte_cycles_ = bc;
            forget_reads(c);
            a.hi = lo;
            if (hi == c.hi) { // the last hull: [lo, hi) in c's place
                c = Block{lo, hi, t, t, 0};
                return;
            }
            c.lo = hi;
            if (nopen_ + 1 > open_.size()) {
                open_.resize(std::max<size_t>(16, 2 * (nopen_ + 1)));
                o = open_.data();
            }
            std::memmove(o + i + 2, o + i + 1, (nopen_ - i - 1) * sizeof(Block));
            o[i + 1] = Block{lo, hi, t, t, 0};
            nopen_++;
            return;
        }
    }
    // The write starts at or before block i and covers it, and maybe more, none with reads noted
    // (the first hull over a tile written as hulls and read whole): each is closed over its part
    // within [lo, hi), the last keeps the rest past hi, and [lo, hi) takes the place of the others.
    {
        Block *o = open_.data();
        size_t k = i; // blocks i .. k - 1 end by hi
        while (k < nopen_ && o[k].hi <= hi && !has_reads(o[k]))
            k++;
        const bool cut = k < nopen_ && o[k].lo < hi; // block k is cut at hi
        if (k > i && o[i].lo >= lo && (k == nopen_ || o[k].lo >= hi || (o[k].hi > hi && !has_reads(o[k])))) {
            double bc = byte_cycles_;
            for (size_t j = i; j < k; j++) {
                if (o[j].r > t)
                    late_ = true;
                close_whole(o[j], o[j].lo, o[j].hi, bc);
                forget_reads(o[j]);
            }
            if (cut) {
                if (o[k].r > t)
                    late_ = true;
                close_whole(o[k], o[k].lo, hi, bc);
                forget_reads(o[k]);
                o[k].lo = hi;
            }
            byte_cycles_ = bc;
            o[i] = Block{lo, hi, t, t, 0};
            if (k > i + 1) { // the blocks from k on move once
                std::memmove(o + i + 1, o + k, (nopen_ - k) * sizeof(Block));
                nopen_ -= k - i - 1;
            }
            return;
        }
    }
    // The blocks under [lo, hi) are i .. k - 1, closed in address order; the part of the first
    // before lo and the part of the last past hi stay open (each keeping its pieces and times).
    double bc = byte_cycles_;
    size_t k = i;
    bool keep_lo = false, keep_hi = false;
    Block left{}, right{};
    for (; k < nopen_ && open_[k].lo < hi; k++) {
        Block &b = open_[k];
        if (read_until(b) > t)
            late_ = true;
        if (!has_reads(b)) { // one piece: the parts outside [lo, hi) are b's bounds moved
            close_whole(b, std::max(lo, b.lo), std::min(hi, b.hi), bc);
            if (b.hi > hi) {
                right = Block{hi, b.hi, b.w, b.r, 0};
                keep_hi = true;
            }
            if (b.lo < lo) {
                left = Block{b.lo, lo, b.w, b.r, b.reads};
                keep_lo = true;
            } else {
                forget_reads(b);
            }
        } else {
            const size_t m = pieces(b);
            close(b, m, lo, hi, bc);
            if (b.hi > hi) {
                right = Block{hi, b.hi, b.w, b.r, 0};
                keep(right, hi, b.hi, m);
                keep_hi = true;
            }
            if (b.lo < lo) {
                left = b;
                keep(left, b.lo, lo, m);
                keep_lo = true;
            } else {
                forget_reads(b);
            }
        }
    }
    byte_cycles_ = bc;
    // [lo, hi) takes their place, after the part before lo and before the part past hi
    const size_t n = keep_lo + 1 + keep_hi;
    if (n != k - i) { // the blocks from k on move once
        if (nopen_ + n > open_.size())
            open_.resize(std::max<size_t>(16, 2 * (nopen_ + n)));
        Block *const o = open_.data();
        std::memmove(o + i + n, o + k, (nopen_ - k) * sizeof(Block));
        nopen_ = nopen_ + n - (k - i);
    }
    Block *const s = open_.data() + i;
    if (keep_lo)
        s[0] = left;
    s[keep_lo] = Block{lo, hi, t, t, 0};
    if (keep_hi)
        s[keep_lo + 1] = right;
}

// The open blocks under [lo, hi) note a read until t.
void Occupancy::read(uint64_t lo, uint64_t hi, cycles_t t)
{
    if (lo >= hi)
        return;
    const size_t i = first_after(lo);
    if (i == nopen_)
        return;
    Block &b = open_[i];
    if (b.lo <= lo && hi <= b.hi) // the common case: within one block
        note(b, lo, hi, t);
    else if (b.lo < hi)
        read_cut(i, lo, hi, t);
}

// A read over several blocks (an L0 tile written in parts, read whole): the first may be read from
// inside it, the last up to inside it; those between are read whole (no cut, no list).
__attribute__((noinline)) void Occupancy::read_cut(size_t i, uint64_t lo, uint64_t hi, cycles_t t)
{
    Block *const o = open_.data(); // noting a read does not move the blocks
    const size_t n = nopen_;
    size_t k = i;
    if (o[k].lo < lo) {
        note(o[k], lo, o[k].hi, t); // it ends by hi: else the read is within it
        k++;
    }
    for (; k < n && o[k].hi <= hi; k++)
        o[k].r = std::max(o[k].r, t);
    if (k < n && o[k].lo < hi)
        note(o[k], o[k].lo, hi, t);
}

void Occupancy::finish()
{
    uint64_t footprint = 0;
    for (size_t i = 0; i < nopen_; i++) {
        Block &b = open_[i];
        footprint += b.hi - b.lo;
        if (!has_reads(b))
            close_whole(b, b.lo, b.hi, byte_cycles_);
        else if (list(b).in_order)
            close_in_order(b, byte_cycles_);
        else
            close(b, pieces(b), b.lo, b.hi, byte_cycles_);
        forget_reads(b);
    }
    nopen_ = 0;
    footprint_ = footprint;
    fold(kNever);
}

// Times up to 2^53 are doubles exactly.
static constexpr cycles_t kExactTime = cycles_t(1) << 53;

// F(x), x in cycles after the origin: linear between the knots, then from the last change on.
// k is the first knot after the previous x asked for; x must not decrease from call to call.
double Occupancy::integral_at(double x, size_t &k) const
{
    if (x >= dbl(tc_))
        return fc_ + static_cast<double>(level_) * (x - dbl(tc_));
    if (backward_) { // knots out of time order: the first from k after x, as they are
        while (k < nknots_ && dbl(knots_[k].t) <= x)
            k++;
    } else { // in time order: by a gallop from k, then bisection (the series asks for 64 points
             // among up to kMaxKnots, each a few knots past the one before)
        const Knot *const kn = knots_.get();
        size_t from = k, to = k, step = 1; // knots [k, from) are at or before x; to: past x, or the end
        if (tc_ <= kExactTime) { // each knot's time (at most tc_) a double exactly: a knot is after x
                                 // when it is after x's integer part, compared without conversions
            const cycles_t xi = static_cast<cycles_t>(x);
            while (to < nknots_ && kn[to].t <= xi) {
                from = to + 1;
                to += step;
                step *= 2;
            }
            to = std::min(to, nknots_);
            k = static_cast<size_t>(
                std::upper_bound(kn + from, kn + to, xi, [](cycles_t v, const Knot &n) { return v < n.t; }) - kn);
        } else {
            while (to < nknots_ && !(x < dbl(kn[to].t))) {
                from = to + 1;
                to += step;
                step *= 2;
            }
            to = std::min(to, nknots_);
            k = static_cast<size_t>(
                std::upper_bound(kn + from, kn + to, x, [](double v, const Knot &n) { return v < dbl(n.t); }) - kn);
        }
    }
    const Knot a = k == 0 ? Knot{0, 0.0} : knots_[k - 1];
    const Knot b = k == nknots_ ? Knot{tc_, fc_} : knots_[k];
    // The slope first: between change points it is the level, an integer, so the result is exact.
    const double slope = (b.f - a.f) / dbl(b.t - a.t);
    return a.f + slope * (x - dbl(a.t));
}

void Occupancy::series(cycles_t total, double *out, size_t n) const
{
    if (!series_ || total == 0 || (tc_ == 0 && level_ == 0)) { // not kept, no time, or nothing ever occupied
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
