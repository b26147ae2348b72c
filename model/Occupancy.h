// model/Occupancy.h - occupancy of one local buffer: bytes holding data that is still to be read.
//
// A byte is occupied from the start of the instruction that writes it until the completion of the
// last instruction that reads it before it is written again; data that is never read does not
// count.  Each such interval [write start, last read end) is known once the bytes are written
// again (or the run ends); the intervals' endpoints are kept in time order and swept to give the
// exact peak and the exact time integral.
//
// Memory stays bounded: endpoints before the oldest write whose data may still be read are final
// and are folded into the running level.  Should more than kMaxEvents endpoints wait behind data
// that stays unread for very long, the oldest half is folded anyway, counting that data as
// occupied up to the fold (an upper bound); `folded_early` says whether that happened.
//
// A bound that spares the sweep: while every write starts no earlier than the last read of the
// data it overwrites (and no early fold happened), each byte's intervals follow one another in
// time, so at any time the level is at most the footprint, the bytes written since the reset.
// Once the peak has reached the footprint, a fold (without series) cannot raise it: the endpoints
// before its time are only summed into the level, in any order, without being sorted or swept.
//
// Over time: the same sweep yields the level's change points in time order, and with them the
// cumulative integral F(t) (byte-cycles from the reset's origin to t), which is linear between
// change points.  Up to kMaxKnots change points are kept as knots (t, F(t)), so F, and with it the
// mean occupancy over any window [a, b) = (F(b) - F(a)) / (b - a), is exact at every time: the
// series over equal slices of a total only known at the end of the run is exact.  Past kMaxKnots,
// the knots become F at the multiples of a power-of-two grid g, the smallest that holds the run so
// far in kMaxKnots / 2 points, and g doubles (every other knot dropped) whenever the run outgrows
// kMaxKnots points; F stays exact at the grid points and at the last change, and is interpolated
// linearly between them, which is off by at most peak * g / 4 at any time (g < 4 x the run's
// length / kMaxKnots).  Either way the slices
// integrate to byte_cycles and no slice's mean exceeds the peak; `grid` says which form is kept.
// Cost: O(1) per change point, amortised (a coarsening touches each knot once); memory: at most
// kMaxKnots knots of 16 bytes (256 KiB) per buffer, written as the changes come.  The series finds
// its 64 points among the knots by bisection while they are in time order (an interval that starts
// before a fold's change points puts them out of order: then knot after knot, as they are).
//
// Data structures: the open ranges are blocks, one per write (what is left of it), in a vector
// sorted by address (a buffer holds few: its tiles).  A read does not cut them: it is noted on the
// block it falls in (a search and an append; a read of a whole block is one maximum), and only
// when (part of) a block is written again, or at an early fold and at the end, are its pieces
// worked out from the reads noted (their ends cut it; each piece is read until the latest read
// over it) and closed in address order, with the same intervals, in the same order, as if every
// read had cut the block (so the integral's sum is added up in the same order).  A block keeps a
// bounded number of reads: past it, they are replaced by its pieces.  The endpoints waiting to be
// folded are one time-sorted run; those closed since the last fold are appended to two more
// (interval starts, interval ends), each in nearly increasing time order, so a fold sorts them by
// insertion and merges the three runs in one pass instead of sorting everything again.  The knots
// take their full room (kMaxKnots) at the first change point, so that they are never copied to a
// larger block.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "Cycles.h"

namespace dv {

class Occupancy {
public:
    static constexpr size_t kMaxEvents = 1 << 16;
    static constexpr size_t kMaxKnots = 1 << 14;

    // Forget everything; times passed from now on are absolute, the series is relative to origin.
    // Without `series` (a run whose report shows no occupancy over time), the level's change points
    // are not kept: peak, byte_cycles and folded_early are the same, series() gives zeros and grid()
    // 0.  The knots' F in the sweep and series() are a sixth of the occupancy work of the bench's
    // 24-core matmul.
    void reset(cycles_t origin, bool series = true);
    void write(uint64_t lo, uint64_t hi, cycles_t t);
    void read(uint64_t lo, uint64_t hi, cycles_t t);
    // Close every open range at the end of the run and compute the figures.
    void finish();
    uint64_t peak_bytes() const { return peak_; }
    double byte_cycles() const { return byte_cycles_; }
    bool folded_early() const { return folded_early_; }
    // After finish: out[i] = mean occupancy in bytes over [i * total / n, (i + 1) * total / n)
    // cycles after the origin (all 0 when total is 0).  The run's intervals must end by origin +
    // total for the slices to cover byte_cycles.
    void series(cycles_t total, double *out, size_t n) const;
    // 0 while every change point is kept (the series is exact); else the grid width in cycles.
    cycles_t grid() const { return grid_; }

private:
    // A part of a block read until t (within the block; its ends cut the block).
    struct Read {
        uint64_t lo, hi;
        cycles_t t;
    };
    // The reads noted on a block: at most room of them, past which they are replaced by the
    // block's pieces (room grows when the pieces are many).  When each read starts, ends and is
    // read no earlier than the one before (as a tile is read, slice after slice), a piece is read
    // until the last read that starts at or before it: in_order says so.  Reads in order that also
    // start where the one before ends or later (a tile read in slices) cut it into one piece each,
    // and the gaps between them: disjoint says so.
    // The reads are v[0 .. n); v holds room of them at least, so that noting one is a store.
    struct Reads {
        static constexpr size_t kRoom = 64;
        std::vector<Read> v = std::vector<Read>(kRoom);
        size_t n = 0;
        size_t room = kRoom;
        bool in_order = true, disjoint = true;
        void restart() { n = 0; room = kRoom; in_order = disjoint = true; }
    };
    // An open range: written at w, read as a whole until r, parts of it read as noted in list
    // `reads` (lists_[reads - 1]; 0: none).  A piece (the block cut at every read's ends) is read
    // until the latest of r and the reads over it; r starts at w: data read no later than its
    // write started (or not at all) has no interval.
    struct Block {
        uint64_t lo, hi;
        cycles_t w, r;
        uint32_t reads;
    };
    // Endpoints at one time appended one after another are kept as one entry: their sum, and how
    // many they are (compaction counts endpoints).
    struct Event {
        cycles_t t;
        int64_t bytes; // +bytes where intervals start, -bytes where they end
        uint64_t n;    // endpoints
    };
    struct Knot {
        cycles_t t; // cycles after the origin
        double f;   // F(t)
    };
    // A run of endpoints: an array that only grows (kRunRoom endpoints at the first, then twice as
    // much; a kernel's buffer rarely needs more), kept across folds and resets, so that appending
    // one is a compare and a store.  Room for one more past the end is kept for fold()'s stop
    // endpoint.  Its bounds are pointers, not counts: an Event's stores cannot alias them.  Before
    // first there is always an endpoint at kNever (no endpoint's time: times are below it), so that
    // appending compares with the one before without asking whether there is one; until the first
    // room is taken, a shared one (none).
    struct Run {
        static constexpr size_t kRunRoom = 2048;
        static Event none[2];
        std::unique_ptr<Event[]> block;
        Event *first = none + 1, *last = none + 1, *cap = none + 1; // [first, last) held, room to cap
        Event *begin() const { return first; }
        Event *end() const { return last; }
        size_t size() const { return static_cast<size_t>(last - first); }
        void room(size_t want); // holds at least want + 1, keeping [first, last)
    };
    size_t first_after(uint64_t at);
    size_t first_after_scan(uint64_t at) const;
    // write() and read() for accesses that are not within one block (i: first_after(lo)).
    void write_cut(size_t i, uint64_t lo, uint64_t hi, cycles_t t);
    void read_cut(size_t i, uint64_t lo, uint64_t hi, cycles_t t);
    void note(Block &b, uint64_t lo, uint64_t hi, cycles_t t);
    static void append(Reads &l, const Read &r);
    void replace_reads(Block &b);
    Reads &list(const Block &b) { return lists_[b.reads - 1]; }
    const Reads &list(const Block &b) const { return lists_[b.reads - 1]; }
    uint32_t new_list(); // a spare list, or a new one
    bool has_reads(const Block &b) const { return b.reads != 0 && list(b).n != 0; }
    // b's pieces: cut_[0 .. m], their bounds, and until_[0 .. m), their read times; returns m.
    size_t pieces(const Block &b);
    size_t pieces_any_order(const Block &b);
    // b spans [lo, hi) (within it before), its reads the pieces from the last pieces() there.
    void keep(Block &b, uint64_t lo, uint64_t hi, size_t m);
    // Close the part [lo, hi) of b: of its pieces from pieces() (m of them), or of its one piece.
    void close(const Block &b, size_t m, uint64_t lo, uint64_t hi, double &bc);
    void close_whole(const Block &b, uint64_t lo, uint64_t hi, double &bc);
    void close_in_order(const Block &b, double &bc);
    void close_in_order_pieces(const Block &b, double &bc);
    // b's reads dropped (their list spare for another block).
    void forget_reads(Block &b);
    static void add(Run &run, cycles_t t, int64_t bytes, uint64_t n = 1);
    void fold(cycles_t upto);
    void fold_sweep(cycles_t upto);
    void fold_bounded(cycles_t upto);
    // The latest time b's data is read until (its write at least): of the whole, or of any part.
    cycles_t read_until(const Block &b) const;
    void sweep_level(const Event *b, const Event *c, cycles_t upto);
    void rest(const Event *b, const Event *c);
    void compact();
    void change_slow(cycles_t t, double f, int64_t from, cycles_t tc, double fc);
    void coarsen(cycles_t upto);
    double integral_at(double x, size_t &k) const;

    // The open blocks, disjoint, by address: open_[0 .. nopen_).  The vector's size is the room,
    // which only grows, so that a write moves the blocks after it within it.  The lists of reads
    // they note (a new list may move the others: no reference to one is held across new_list()),
    // and those no block uses, kept with their room.
    std::vector<Block> open_;
    size_t nopen_ = 0;
    // first_after()'s guesses: the block found last for an address, by a hash of the address.
    static constexpr unsigned kHintBits = 7;
    uint32_t hint_[1u << kHintBits] = {};
    std::vector<Reads> lists_;
    std::vector<uint32_t> spare_lists_;
    // pieces()'s results, and the reads' ends sorted there when the reads come out of order (each
    // grown, never shrunk)
    std::vector<uint64_t> cut_, los_, his_;
    std::vector<cycles_t> until_;
    // Endpoints of closed intervals, every one at or after the last fold: events_ sorted by time;
    // starts_ and ends_ appended since the last fold, each nearly in time order.
    Run events_, starts_, ends_, scratch_;
    int64_t level_ = 0;                    // occupancy at the last fold
    uint64_t writes_ = 0;                  // compaction runs every 256 writes
    uint64_t peak_ = 0;
    double byte_cycles_ = 0;
    bool folded_early_ = false;
    // A write started before the data it overwrote was last read (fold()'s bound does not hold),
    // and the footprint (bytes under the open blocks, which cover every write since the reset) as
    // of the last compaction or finish.
    bool late_ = false;
    uint64_t footprint_ = 0;
    // The level's bound from those: the footprint while it holds, else none.
    int64_t bound() const { return late_ || folded_early_ ? INT64_MAX : static_cast<int64_t>(footprint_); }
    // F over time: the last change (relative time tc_, F there fc_; level_ holds from tc_ on) and
    // the knots before it: every change point up to tc_ (grid_ == 0), or F at each multiple of
    // grid_ up to tc_.
    cycles_t origin_ = 0, tc_ = 0, grid_ = 0;
    double fc_ = 0;
    // knots_[0 .. nknots_): room for kMaxKnots, taken at the first change point (new[] leaves it
    // unwritten: only the pages written take host memory); a coarsening fills a new block.
    std::unique_ptr<Knot[]> knots_;
    size_t nknots_ = 0;
    // A change point came before the last one (an interval starting before a fold point): the
    // knots may be out of time order, so F is looked up as they are, not by bisection.
    bool backward_ = false;
    bool series_ = true; // the change points are kept for series() (reset's `series`)
};

} // namespace dv
