// tests/check_components.cpp - unit tests of the model's components on their own: the bandwidth
// calendar, the L2's replacement and write policies, the occupancy sweep, the hazard checker, the
// critical path, and the cube unit and DMA engines built from hand-written Params (no profile)
// and connections.
// Every expectation is derived by hand from the claims in the component's header; the derivation
// is written next to each case.  (C++: the components are C++ classes; the suite is a Check suite
// like the others, registered in tests/runner.c.)
#include <systemc>
#include <vector>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <map>
#include <string>

#include "../model/BandwidthCalendar.h"
#include "../model/CriticalPath.h"
#include "../model/CubeUnit.h"
#include "../model/DmaEngine.h"
#include "../model/HazardChecker.h"
#include "../model/Hbm.h"
#include "../model/L2Cache.h"
#include "../model/Occupancy.h"
#include "../model/VectorUnit.h"
#include "../model/Zeros.h"

#include "dv/trace.h"

#include <check.h> // last: its macros (fail, ...) clash with names in the C++ headers

using namespace dv;

namespace {

// ---------------------------------------------------------------- BandwidthCalendar
// 4 B/cycle in bins of 64 cycles: a bin carries cap = 256 bytes.

// Alone, a transfer goes at the full rate from its start: 100 B from cycle 10 at 4 B/cycle end
// at 10 + 100/4 = 35.  600 B from cycle 0 fill bins 0 and 1 (256 B each, at the share 256 = cap)
// and put 88 B in bin 2: 128 + 88/4 = 150 = 600/4.
START_TEST(test_components_calendar_full_rate_alone)
{
    BandwidthCalendar c;
    c.configure(4, 64);
    ck_assert_uint_eq(c.reserve(10, 100, 0), 35);
    ck_assert_uint_eq(c.reserve(10, 0, 0), 10); // no bytes, no time
    BandwidthCalendar d;
    d.configure(4, 64);
    ck_assert_uint_eq(d.reserve(0, 600, 0), 150);
}
END_TEST

// Two requesters in one bin share its capacity: r0 puts 100 B into bin 0 from cycle 10 (done at
// 35); r1's 100 B from cycle 10 find A = 2 requesters using U = 100 / 256 of the window, A x U < 1,
// so r1 may take the whole free capacity, but the bin now holds 200 B, which pass at 4 B/cycle:
// done at max(10 + 100/4, 0 + 200/4) = 50.
START_TEST(test_components_calendar_shared_bin)
{
    BandwidthCalendar c;
    c.configure(4, 64);
    ck_assert_uint_eq(c.reserve(10, 100, 0), 35);
    ck_assert_uint_eq(c.reserve(10, 100, 1), 50);
}
END_TEST

// Fair share: r0 fills bin 0 (256 B from cycle 0, done at 64).  r1 then asks for 512 B at cycle
// 0: A = 2 requesters and U = 256 / 256 = 1, so r1 takes at most cap / (A x U) = 128 B per bin.
// Bin 0 is full; bins 1, 2 and 3 take 128 B each, trickling through the whole bin (done at the
// bin's end), and bin 4 the last 128 B, alone, at the full rate: 256 + 128/4 = 288.
// Requester 128 is requester 0 again (indices are taken mod 128): A = 1, no sharing, so the same
// 512 B go in bins 1 and 2 at the full 256 B each: 128 + 256/4 = 192.
START_TEST(test_components_calendar_fair_share)
{
    BandwidthCalendar c;
    c.configure(4, 64);
    ck_assert_uint_eq(c.reserve(0, 256, 0), 64);
    ck_assert_uint_eq(c.reserve(0, 512, 1), 288);
    BandwidthCalendar d;
    d.configure(4, 64);
    ck_assert_uint_eq(d.reserve(0, 256, 0), 64);
    ck_assert_uint_eq(d.reserve(0, 512, 128), 192);
}
END_TEST

// Retired bins: retire(40 x 64) forgets every bin before 40 - 16 (16 bins of history are kept for
// the share), so a reservation for cycle 0 starts at bin 24, cycle 1536: 1536 + 100/4 = 1561.
// A reservation far ahead (bin 1000: the ring grows past its 256 bins) keeps the earlier bins:
// r1 in bin 0 still finds r0's 100 B there, as in test_components_calendar_shared_bin.
START_TEST(test_components_calendar_retire_and_grow)
{
    BandwidthCalendar c;
    c.configure(4, 64);
    c.retire(40 * 64);
    ck_assert_uint_eq(c.reserve(0, 100, 0), 1561);
    BandwidthCalendar d;
    d.configure(4, 64);
    ck_assert_uint_eq(d.reserve(10, 100, 0), 35);
    ck_assert_uint_eq(d.reserve(64 * 1000, 100, 0), 64 * 1000 + 25);
    ck_assert_uint_eq(d.reserve(10, 100, 1), 50);
    d.reset();
    ck_assert_uint_eq(d.reserve(10, 100, 1), 35); // reset forgets everything
}
END_TEST

// Requesters seen only in the complete bins before the global time count as contenders.  The
// global time is at bin 16 (retire); r0, a late core, fills bin 8 (256 B at cycle 512).  r1 puts
// 4096 B in bins 32 .. 47 (alone: the share's window [16, 48) holds nothing yet).  r2 asks for
// 512 B at bin 32: the window [16, 48) holds U = 4096 / (32 x 256) = 1/2, and A = 3 (r1 there, r0
// before the global time, r2): share = 256 / 1.5 = 170 B per bin.  Bins 32 .. 47 are full, so
// r2 takes 170 B in bins 48, 49, 50 and 2 B in bin 51: 51 x 64 + 1 = 3265 (without r0, A x U = 1
// and the 512 B would fill bins 48 and 49: 3200).  Then r3, another late core, puts 4 B in bin 12
// after those reservations, and r4's 512 B at bin 32 see A = 4 (r0 and r3 before the global
// time, r1 in the window, r4; r2 is in neither): share = 256 / 2 = 128: 86 B in each of bins
// 48 .. 50, 128 B in bin 51 and 126 B in bin 52: 52 x 64 + 32 = 3360 (without r3, share 170:
// 170 B in bin 51 and 84 B in bin 52, 52 x 64 + 21 = 3349).
START_TEST(test_components_calendar_contenders_before_global_time)
{
    BandwidthCalendar c;
    c.configure(4, 64);
    c.retire(16 * 64);
    ck_assert_uint_eq(c.reserve(8 * 64, 256, 0), 9 * 64);
    ck_assert_uint_eq(c.reserve(32 * 64, 4096, 1), 48 * 64);
    ck_assert_uint_eq(c.reserve(32 * 64, 512, 2), 51 * 64 + 1);
    ck_assert_uint_eq(c.reserve(12 * 64, 4, 3), 12 * 64 + 1);
    ck_assert_uint_eq(c.reserve(32 * 64, 512, 4), 52 * 64 + 32);
}
END_TEST

// Full bins give nothing and are passed over.  r0 fills bins 0 .. 3 (1024 B from cycle 0, alone:
// done at 256).  r1's 512 B at cycle 0 see the window [0, 4) (the live bins) hold U = 1024 / 1024
// with A = 2: share = 256 / 2 = 128.  Bins 0 .. 3 are full, so 128 B go in each of bins 4 .. 7:
// 7 x 64 + 128/4 = 480.  r2's 256 B at cycle 0 see [0, 8) hold 1536 of 2048 B with A = 3: share =
// 256 x 2048 / (3 x 1536) = 113; past the full bins 0 .. 3 they take 113 B in bin 4 and 5 and the
// last 30 B in bin 6, which then holds 158 B: 6 x 64 + 158/4 rounded up = 424.
START_TEST(test_components_calendar_full_bins_passed)
{
    BandwidthCalendar c;
    c.configure(4, 64);
    ck_assert_uint_eq(c.reserve(0, 1024, 0), 256);
    ck_assert_uint_eq(c.reserve(0, 512, 1), 480);
    ck_assert_uint_eq(c.reserve(0, 256, 2), 424);
}
END_TEST

// Live bins that hold bytes give what they have free, and the bin that takes the last bytes is
// where they are through.  r0 puts 100 B in each of bins 0, 1, 2 (from cycles 0, 64, 128: done at
// 25, 89, 153).  Then r0 again (A = 1, so share = cap): 312 B from cycle 0 take bin 0's free 156 B
// and exactly the 156 B free in bin 1, which ends full: done at 64 + 256/4 = 128.  200 B more from
// cycle 0: bins 0 and 1 are full (passed), bin 2 takes its free 156 B, and the last 44 B go in bin
// 3, past the live bins: done at 192 + 44/4 = 203.
START_TEST(test_components_calendar_last_bytes_in_live_bin)
{
    BandwidthCalendar c;
    c.configure(4, 64);
    ck_assert_uint_eq(c.reserve(0, 100, 0), 25);
    ck_assert_uint_eq(c.reserve(64, 100, 0), 89);
    ck_assert_uint_eq(c.reserve(128, 100, 0), 153);
    ck_assert_uint_eq(c.reserve(0, 312, 0), 128);
    ck_assert_uint_eq(c.reserve(0, 200, 0), 203);
}
END_TEST

// reserve walks the live bins a piece of the ring at a time: bins 1023 and 1024 are the ring's
// last and first slot (512 slots; retire at bin 600 puts base at 584).  r0 puts 100 B in each of
// bins 1022 .. 1025 (alone, at the full rate: done 25 cycles into each).  Then r0 (A = 1, share =
// cap) puts 600 B from bin 1022: 156 B fill bin 1022, 156 B bin 1023 (the ring's end), 156 B bin
// 1024 and the last 132 B go in bin 1025, which then holds 232 B: 1025 x 64 + 58 = 65658.  200 B
// more from bin 1022: bins 1022 .. 1024 are full (passed across the ring's end), bin 1025 takes
// its free 24 B and the last 176 B go in bin 1026, past the live bins: 1026 x 64 + 44 = 65708.
START_TEST(test_components_calendar_walk_across_ring_end)
{
    BandwidthCalendar c;
    c.configure(4, 64);
    c.retire(600 * 64);
    for (uint64_t bin = 1022; bin <= 1025; bin++)
        ck_assert_uint_eq(c.reserve(bin * 64, 100, 0), bin * 64 + 25);
    ck_assert_uint_eq(c.reserve(1022 * 64, 600, 0), 65658);
    ck_assert_uint_eq(c.reserve(1022 * 64, 200, 0), 65708);
}
END_TEST

// The fast paths of reserve (popcnt, where the CPU has it; 64-bit products, for a capacity of up
// to 2^25 bytes a bin; the unrolled read of the bins before the global time, and their requesters
// kept until the global time moves) give what the general ones give: two calendars, one on the
// general paths, take the same random reservations (up to 200 requesters, some far ahead, in the
// ring's last slots or before the live bins), retirements, lost capacity and kernel starts, with
// every reservation's result compared.
START_TEST(test_components_calendar_fast_paths_match_general)
{
    uint64_t s = 88172645463325252ull;
    auto rnd = [&s](uint64_t n) { s ^= s << 13, s ^= s >> 7, s ^= s << 17; return s % n; };
    static const uint64_t bpcs[] = {1, 4, 104, 825, 2888, 1ull << 19};
    for (uint64_t config = 0; config < 12; config++) {
        const uint64_t bpc = bpcs[config % 6], window = config < 6 ? 64 : 1 + rnd(200), cap = bpc * window;
        BandwidthCalendar fast, general;
        fast.configure(bpc, window);
        general.configure(bpc, window);
        general.general_paths();
        uint64_t now = 0;
        for (int op = 0; op < 4000; op++) {
            const uint64_t k = rnd(100);
            if (k < 10) {
                now += rnd(20 * window);
                fast.retire(now), general.retire(now);
            } else if (k < 13) {
                const uint64_t t = now + rnd(40 * window), bytes = rnd(3 * cap);
                fast.consume(t, bytes), general.consume(t, bytes);
            } else if (k < 15) {
                const unsigned n = (unsigned)rnd(64);
                fast.start(n), general.start(n);
            } else {
                const unsigned r = (unsigned)rnd(k < 50 ? 48 : 200);
                uint64_t t = now + rnd(k < 90 ? 40 * window : 2000 * window);
                if (k == 99)
                    t = rnd(now + 1);
                const uint64_t bytes = rnd(4) ? 16384 : 1 + rnd(k < 60 ? cap : 40 * cap);
                ck_assert_uint_eq(fast.reserve(t, bytes, r), general.reserve(t, bytes, r));
            }
        }
    }
}
END_TEST

// ---------------------------------------------------------------- L2Cache
// 128-byte lines, 4 ways, 2 sets (1 KB): line L lives in set L % 2.  The L2 moves 64 B/cycle in
// 64-cycle bins; HBM 8 B/cycle, latency 50.  Each access below is one 128-byte run at line L.

// The SystemC modules of one test live in a simulation context of their own (as in a model).
class Context {
public:
    Context() : curr_(sc_core::sc_curr_simcontext), global_(sc_core::sc_default_global_context)
    {
        ctx_ = new sc_core::sc_simcontext;
        sc_core::sc_curr_simcontext = sc_core::sc_default_global_context = ctx_;
    }
    ~Context()
    {
        delete ctx_;
        sc_core::sc_curr_simcontext = curr_;
        sc_core::sc_default_global_context = global_;
    }

private:
    sc_core::sc_simcontext *curr_, *global_, *ctx_;
};


struct Memory {
    Context context; // destroyed last
    Hbm hbm;
    L2Cache l2;
    explicit Memory(bool write_through, uint64_t size = 1024, uint64_t ways = 4)
        : hbm("hbm", Hbm::Params{50, 8, 64, 0, 0}), l2("l2", L2Cache::Params{size, 128, ways, write_through, 64, 64})
    {
        l2.hbm.bind(hbm);
    }
    // The n-th line (n = 0, 1, ...) that the L2's hashed index puts in set `set`: Ln below is
    // line(0, n / 2) for even n and line(1, n / 2) for odd n (with 2 sets, as if set = line mod 2).
    uint64_t line(uint64_t set, uint64_t n) const
    {
        for (uint64_t l = 0;; l++)
            if (l2.set_of(l) == set && n-- == 0)
                return l;
    }
    GmResult access(uint64_t n, bool write, cycles_t t = 0)
    {
        return at_line(l2.sets() ? line(n % 2, n / 2) : n, write, t);
    }
    GmResult at_line(uint64_t l, bool write, cycles_t t = 0) // line l itself
    {
        const uint64_t addr = l * 128;
        GmRuns r;
        r.count = 1;
        r.bytes = 128;
        r.list = &addr;
        return l2.transfer(t, r, write, 0);
    }
};

// Least-recently-used replacement in set 0 (even lines Ln: see Memory::line), reads only; the order
// below is least to most recently used.
//   L0, L2, L4, L6 miss (the four ways fill): L0 L2 L4 L6;  L0 hit: L2 L4 L6 L0;
//   L8 miss (L2 out): L4 L6 L0 L8;  L2 miss (L4 out): L6 L0 L8 L2;  L4 miss (L6 out): L0 L8 L2 L4;
//   L6 miss (L0 out): L8 L2 L4 L6;  L0 miss (L8 out): L2 L4 L6 L0 - a cyclic stream of five lines
//   through four ways never hits.
// So far 1 hit, 9 misses, 9 line fills from HBM.  The set now holds L2, L4, L6, L0: reading them
// hits 4 times, and L8 misses.  Odd lines go to set 1 and leave set 0 alone.
START_TEST(test_components_l2_lru)
{
    Memory m(false);
    const uint64_t seq[] = {0, 2, 4, 6, 0, 8, 2, 4, 6, 0};
    const bool hit[] = {false, false, false, false, true, false, false, false, false, false};
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        const uint64_t before = m.l2.hits;
        const GmResult r = m.access(seq[i], false);
        ck_assert_msg((m.l2.hits > before) == hit[i], "access %zu (line %llu)", i, (unsigned long long)seq[i]);
        ck_assert_msg(r.miss == !hit[i], "access %zu: miss flag", i);
    }
    ck_assert_uint_eq(m.l2.hits, 1);
    ck_assert_uint_eq(m.l2.misses, 9);
    ck_assert_uint_eq(m.hbm.read_bytes, 9 * 128);
    for (uint64_t odd : {1, 3, 5, 7, 9})
        m.access(odd, false);
    ck_assert_uint_eq(m.l2.misses, 14);
    for (uint64_t l : {4, 0, 2, 6})
        ck_assert(!m.access(l, false).miss);
    ck_assert_uint_eq(m.l2.hits, 5);
    ck_assert(m.access(8, false).miss);
    ck_assert_uint_eq(m.l2.writebacks, 0); // nothing was written
}
END_TEST

// A set's recency order with fewer than 16 ways, its invalid ways included: one set of 5 ways of
// 128 B, lines 255, 511, 767, ... (tags 256, 512, ...: every signature 0, as an invalid way's),
// each read as one line; the order below is most to least recently used.
//   255 m, 511 m: 511 255;  255 h: 255 511;  767 m, 1023 m, 1279 m (the set fills):
//   1279 1023 767 255 511;  1535 m (511 out): 1535 1279 1023 767 255;  255 h: 255 1535 1279 1023 767;
//   511 m (767 out): 511 255 1535 1279 1023;  767 m (1023 out).  Hits 2, misses 8.
START_TEST(test_components_l2_order_few_ways)
{
    Context context;
    Hbm hbm("hbm", Hbm::Params{50, 8, 64, 0, 0});
    L2Cache l2("l2", L2Cache::Params{5 * 128, 128, 5, false, 64, 64});
    l2.hbm.bind(hbm);
    const uint64_t seq[] = {255, 511, 255, 767, 1023, 1279, 1535, 255, 511, 767};
    const bool hit[] = {false, false, true, false, false, false, false, true, false, false};
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        GmRuns r;
        r.count = 1;
        r.bytes = 128;
        r.base = seq[i] * 128;
        ck_assert_msg(l2.transfer(0, r, false, 0).miss == !hit[i], "access %zu (line %llu)", i,
                      (unsigned long long)seq[i]);
    }
    ck_assert_uint_eq(l2.hits, 2);
    ck_assert_uint_eq(l2.misses, 8);
}
END_TEST

// Lines never allocated are sure misses (their lookup skipped), in sets of W = 16 ways (the
// profiles' case, compiled for it) and of 8: 64 sets of W ways of 128 B.  The 64 lines of each run
// of 64 take the 64 sets (in a rotated order), so a range of whole runs gives every set one line per
// run, in run order.
//   1. Runs 0 .. 19 written in one transfer (write-back): 1280 misses; in each set runs W .. 19
//      evict the dirty lines of runs 0 .. 19 - W ((20 - W) x 64 write-backs), 20 - W .. 19 stay, dirty.
//   2. Runs 0 .. 19 read: a cyclic stream of 20 lines per set through W ways never hits: 1280
//      misses, the first W of each set evicting dirty lines (1280 write-backs in all).  20 - W .. 19
//      stay.
//   3. Runs 12 .. 23 read: runs 12 .. 19 hit (512), 20 .. 23 were never allocated (256 misses).
//   4. One line of run 4 read (a single-line run): allocated once and evicted, a miss; one of run 20:
//      a hit.  Totals: 2817 misses, 513 hits, 1280 write-backs.
START_TEST(test_components_l2_never_allocated)
{
    for (uint64_t ways : {16, 8}) {
        Context context;
        Hbm hbm("hbm", Hbm::Params{50, 8, 64, 0, 0});
        L2Cache l2("l2", L2Cache::Params{64 * ways * 128, 128, ways, false, 64, 64});
        l2.hbm.bind(hbm);
        auto read = [&](uint64_t run, uint64_t runs, bool write) {
            GmRuns r;
            r.count = 1;
            r.bytes = runs * 64 * 128;
            r.base = run * 64 * 128;
            return l2.transfer(0, r, write, 0);
        };
        read(0, 20, true);
        ck_assert_uint_eq(l2.misses, 1280);
        ck_assert_uint_eq(l2.writebacks, (20 - ways) * 64);
        read(0, 20, false);
        ck_assert_uint_eq(l2.misses, 2560);
        ck_assert_uint_eq(l2.hits, 0);
        ck_assert_uint_eq(l2.writebacks, 1280);
        read(12, 12, false);
        ck_assert_uint_eq(l2.hits, 512);
        ck_assert_uint_eq(l2.misses, 2816);
        GmRuns one;
        one.count = 1;
        one.bytes = 128;
        one.base = (4 * 64 + 5) * 128;
        ck_assert(l2.transfer(0, one, false, 0).miss);
        one.base = (20 * 64 + 5) * 128;
        ck_assert(!l2.transfer(0, one, false, 0).miss);
        ck_assert_uint_eq(l2.misses, 2817);
        ck_assert_uint_eq(l2.hits, 513);
        ck_assert_uint_eq(l2.writebacks, 1280);
    }
}
END_TEST

// Two L2s (64 sets of `ways` ways of 128 B, each with its own HBM) take the same 3,000 random runs
// of 1 .. 80 lines over 40 runs of 64 lines, one as single runs, the other as lists of one-line
// runs; one in write_one_in is a write, and every idle_every transfers (0: never) up to 30 dirty
// lines are written back while idle.  Every result, count and write-back must be the same; returns
// how many runs were all fresh misses (of more than one line) and a's write-backs.
struct RunsAndLines {
    uint64_t fresh, writebacks;
};
// Two L2s of 64 sets of `ways` ways of 128 B, each with its own HBM, for the tests that move the same
// bytes in two ways and compare.
struct TwoL2 {
    Context context; // destroyed last
    Hbm hbm_a, hbm_b;
    L2Cache a, b;
    explicit TwoL2(uint64_t ways)
        : hbm_a("hbm_a", Hbm::Params{50, 8, 64, 0, 0}), hbm_b("hbm_b", Hbm::Params{50, 8, 64, 0, 0}),
          a("a", L2Cache::Params{64 * ways * 128, 128, ways, false, 64, 64}),
          b("b", L2Cache::Params{64 * ways * 128, 128, ways, false, 64, 64})
    {
        a.hbm.bind(hbm_a);
        b.hbm.bind(hbm_b);
    }
    // x (from a) and y (from b) and the two L2s' counts are the same.
    void agree(const GmResult &x, const GmResult &y) const
    {
        ck_assert_uint_eq(x.done, y.done);
        ck_assert_int_eq(x.miss, y.miss);
        ck_assert_int_eq(x.hbm, y.hbm);
        ck_assert_uint_eq(a.hits, b.hits);
        ck_assert_uint_eq(a.misses, b.misses);
        ck_assert_uint_eq(a.writebacks, b.writebacks);
    }
};
static RunsAndLines l2_runs_match_lines(uint64_t ways, uint64_t seed, uint64_t write_one_in, uint64_t idle_every)
{
    TwoL2 two(ways);
    L2Cache &a = two.a, &b = two.b;
    uint64_t s = seed;
    auto rnd = [&s](uint64_t n) { s ^= s << 13, s ^= s >> 7, s ^= s << 17; return s % n; };
    std::vector<uint64_t> list;
    uint64_t fresh = 0;
    for (uint64_t i = 0, t = 0; i < 3000; i++, t += 40) {
        const uint64_t n = 1 + rnd(rnd(4) ? 40 : 80), line = rnd(64 * 40);
        const bool write = rnd(write_one_in) == 0;
        GmRuns one;
        one.count = 1;
        one.bytes = n * 128;
        one.base = line * 128;
        list.clear();
        for (uint64_t l = line; l < line + n; l++)
            list.push_back(l * 128);
        GmRuns split;
        split.count = n;
        split.bytes = 128;
        split.list = list.data();
        const uint64_t misses = a.misses;
        const GmResult x = a.transfer(t, one, write, (unsigned)i % 8), y = b.transfer(t, split, write, (unsigned)i % 8);
        fresh += a.misses - misses == n && n > 1;
        two.agree(x, y);
        if (idle_every && i % idle_every == idle_every - 1) {
            const uint64_t k = 1 + rnd(30);
            ck_assert_uint_eq(a.idle_write_back(k), b.idle_write_back(k));
        }
    }
    const uint64_t writebacks = a.writebacks;
    ck_assert_uint_eq(a.idle_write_back(~0ull), b.idle_write_back(~0ull));
    return RunsAndLines{fresh, writebacks};
}

// A run whose lines were never allocated, in one word of their run's bitmap and in consecutive
// sets, takes its misses without a lookup (touch_run's fresh path); the same lines moved as a list
// of one-line runs are looked up one by one.  Two L2s (64 sets of 16 ways of 128 B, each with its
// own HBM) take 3,000 random runs of 1 .. 80 lines over 40 runs of 64 lines, reads and writes, one
// as single runs, the other as lists: every result and count is the same.
START_TEST(test_components_l2_fresh_run_matches_lines)
{
    ck_assert_uint_gt(l2_runs_match_lines(16, 2463534242ull, 3, 0).fresh, 300);
}
END_TEST

// A transfer's lines are checked against the bitmap of lines ever allocated in their run of 64 (the
// one kept from the previous transfer when they are in the same run); a DV_L2_DISABLE access that
// moves set_of's memo to another run leaves no other run's bitmap in its place.  64 sets of 16 ways
// of 128 B: lines 4 .. 7 of run 3 read (4 misses), one line of run 7 read (a miss), line 9 of run 3
// read bypassing the L2 (a miss, not allocated), then lines 4 .. 7 of run 3 again: 4 hits.
START_TEST(test_components_l2_run_bitmap_after_bypass)
{
    Context context;
    Hbm hbm("hbm", Hbm::Params{50, 8, 64, 0, 0});
    L2Cache l2("l2", L2Cache::Params{64 * 16 * 128, 128, 16, false, 64, 64});
    l2.hbm.bind(hbm);
    auto read = [&](uint64_t line, uint64_t lines, dv_l2_mode_t mode) {
        GmRuns r;
        r.count = 1;
        r.bytes = lines * 128;
        r.base = line * 128;
        r.mode = mode;
        return l2.transfer(0, r, false, 0);
    };
    read(3 * 64 + 4, 4, DV_L2_NORMAL);
    read(7 * 64 + 1, 1, DV_L2_NORMAL);
    read(3 * 64 + 9, 1, DV_L2_DISABLE);
    ck_assert_uint_eq(l2.misses, 6);
    ck_assert_uint_eq(l2.bypassed, 1);
    ck_assert(!read(3 * 64 + 4, 4, DV_L2_NORMAL).miss);
    ck_assert_uint_eq(l2.hits, 4);
    ck_assert_uint_eq(l2.misses, 6);
}
END_TEST

// A tile's rows: runs within one line each, whole lines apart (stepped line by line, not found
// from their addresses).  64 sets of 16 ways of 128 B; 8 rows of 100 B from byte 10 of line 3, 5
// lines apart, in 2 groups of 4 whose starts are 64 lines apart: lines 3, 8, 13, 18, 67, 72, 77, 82.
// Read once: 8 misses (8 lines from HBM); read again (another core) and at byte 20 of the same lines:
// 16 hits, each in its set's most recently used way; a row that crosses into the next line (byte 30
// + 100 > 128) takes the general path: 8 hits and 8 misses more.
START_TEST(test_components_l2_rows)
{
    Context context;
    Hbm hbm("hbm", Hbm::Params{50, 8, 64, 0, 0});
    L2Cache l2("l2", L2Cache::Params{64 * 16 * 128, 128, 16, false, 64, 64});
    l2.hbm.bind(hbm);
    auto rows = [&](uint64_t offset, unsigned core) {
        GmRuns r;
        r.count = 8;
        r.bytes = 100;
        r.base = 3 * 128 + offset;
        r.stride = 5 * 128;
        r.group = 4;
        r.group_stride = 64 * 128;
        return l2.transfer(0, r, false, core);
    };
    ck_assert(rows(10, 0).miss);
    ck_assert_uint_eq(l2.misses, 8);
    ck_assert_uint_eq(hbm.read_bytes, 8 * 128);
    ck_assert(!rows(10, 1).miss);
    ck_assert(!rows(20, 2).miss);
    ck_assert_uint_eq(l2.hits, 16);
    ck_assert(rows(30, 3).miss);
    ck_assert_uint_eq(l2.hits, 24);
    ck_assert_uint_eq(l2.misses, 16);
}
END_TEST

// A tile's rows stepped line by line (touch_rows: a row at its set's most recently used line or the
// one before it is a hit without the lookup, and a piece whose first row was never allocated takes
// its never-allocated rows as sure misses) against the same rows as a list of runs, each looked up
// on its own.  Two L2s of 64 sets of 128 B lines (16, 4 and 1 ways), each with its own HBM, take
// 4,000 random tiles - one of 6 bases per run of 64 lines, 1 .. 24 rows 0 .. 9 lines apart, in
// groups or not, reads and writes - so that tiles read in turn share sets: every result and count is
// the same, and so are the write-backs of an idle chip (which follow the lines' last uses).  Once
// from run 0, once from run 32,764, so that the tiles' lines take both kinds of keys (L2Cache::key_of:
// from run 32,767 on, far).
START_TEST(test_components_l2_rows_match_lines)
{
    for (uint64_t first_run : {0, 32764}) {
        for (uint64_t ways : {16, 4, 1}) {
            TwoL2 two(ways);
            L2Cache &a = two.a, &b = two.b;
            uint64_t s = 88172645463325252ull;
            auto rnd = [&s](uint64_t n) { s ^= s << 13, s ^= s >> 7, s ^= s << 17; return s % n; };
            std::vector<uint64_t> list;
            for (uint64_t i = 0, t = 0; i < 4000; i++, t += 40) {
                GmRuns rows;
                rows.count = 1 + rnd(24);
                rows.bytes = 1 + rnd(100);
                rows.base = ((first_run + rnd(6)) * 64 + rnd(64)) * 128 + rnd(128 - rows.bytes + 1);
                rows.stride = rnd(10) * 128;
                if (rnd(2)) {
                    rows.group = 1 + rnd(rows.count);
                    rows.group_stride = (rnd(8) * 64 + rnd(3)) * 128;
                }
                const bool write = rnd(3) == 0;
                list.clear();
                GmRuns::Cursor cur(rows);
                for (uint64_t r = 0; r < rows.count; r++)
                    list.push_back(cur.next());
                GmRuns split = rows;
                split.list = list.data();
                two.agree(a.transfer(t, rows, write, (unsigned)i % 8), b.transfer(t, split, write, (unsigned)i % 8));
                if (i % 500 == 499)
                    ck_assert_uint_eq(a.idle_write_back(40), b.idle_write_back(40));
            }
            ck_assert_uint_gt(a.hits, 2000);
            ck_assert_uint_eq(a.idle_write_back(~0ull), b.idle_write_back(~0ull));
        }
    }
}
END_TEST

// A run of lines never allocated takes its misses without a lookup (fresh_lines); an idle chip's
// write-backs still take the dirty lines least recently used first.  2 sets of 128 B
// lines (4 and 16 ways): two runs of 2 lines that start at set 0, A (lines a, a + 1) and B (b, b + 1),
// written (dirty, uses 1 .. 4: a and b in set 0, a + 1 and b + 1 in set 1), then line a read (use 5).
// One line written back while idle: a + 1 (use 2), the least recently used dirty line.  Then
// ways - 1 other lines read into set 1 fill its ways - 2 invalid ways and evict its least recently
// used line, a + 1, now clean: no write-back; the rest (a, b, b + 1) stay dirty.
START_TEST(test_components_l2_fresh_uses_order_idle_write_back)
{
    for (uint64_t ways : {4, 16}) {
        Context context;
        Hbm hbm("hbm", Hbm::Params{50, 8, 64, 0, 0});
        L2Cache l2("l2", L2Cache::Params{2 * ways * 128, 128, ways, false, 64, 64});
        l2.hbm.bind(hbm);
        auto move = [&](uint64_t line, uint64_t lines, bool write) {
            GmRuns r;
            r.count = 1;
            r.bytes = lines * 128;
            r.base = line * 128;
            return l2.transfer(0, r, write, 0);
        };
        std::vector<uint64_t> starts, set1; // runs of 2 lines that start at set 0; lines of set 1
        for (uint64_t l = 0; starts.size() < 2 || set1.size() < ways + 2; l++) {
            if (l % 2 == 0 && l2.set_of(l) == 0 && starts.size() < 2)
                starts.push_back(l);
            else if (l2.set_of(l) == 1 && l % 2 == 0)
                set1.push_back(l);
        }
        const uint64_t a = starts[0], b = starts[1];
        move(a, 2, true);
        move(b, 2, true);
        ck_assert_uint_eq(l2.misses, 4);
        ck_assert(!move(a, 1, false).miss);
        ck_assert_uint_eq(l2.idle_write_back(1), 1);
        for (uint64_t i = 0; i < ways - 1; i++)
            ck_assert(move(set1[i], 1, false).miss);
        ck_assert_uint_eq(l2.writebacks, 0);
        ck_assert_uint_eq(l2.idle_write_back(~0ull), 3);
    }
}
END_TEST

// The same against lines stamped one by one: two L2s (64 sets of 128 B, 16 and 4 ways), one taking
// random runs of 1 .. 80 lines as single runs (the fresh path), the other as lists of one-line
// runs (each line's use in its way), reads and writes over 40 runs of 64 lines, with a few lines
// written back while idle every 50 transfers: every result, count and write-back is the same.
START_TEST(test_components_l2_fresh_uses_match_stamps)
{
    for (uint64_t ways : {16, 4})
        ck_assert_uint_gt(l2_runs_match_lines(ways, 362436069ull, 2, 50).writebacks, 1000);
}
END_TEST

// A way records its line's last use less the line's tag (L2Cache's stamps), so that the readers of
// uses add the tag back: lines whose uses and tags run opposite ways still order by use.  One set of
// 128 B lines.  With 20 ways (more than a recency order holds): line 68 read (use 1), then lines
// 0 .. 18 (uses 2 .. 20, the set full); line 200 evicts 68, the least recently used, so line 0 still
// hits and 68 misses again (misses 20 + 1 + 1, hits 1).  With 4 ways: lines 10, 0 and 1 written
// (dirty, uses 1 .. 3); one line written back while idle is 10, the least recently used dirty one;
// line 2 takes the invalid way and line 3 evicts 10, now clean: no write-back, and the 2 dirty
// lines left (0, 1) are written back while idle.
START_TEST(test_components_l2_stamps_order_by_use)
{
    Context context;
    Hbm hbm("hbm", Hbm::Params{50, 8, 64, 0, 0});
    L2Cache wide("wide", L2Cache::Params{20 * 128, 128, 20, false, 64, 64});
    L2Cache narrow("narrow", L2Cache::Params{4 * 128, 128, 4, false, 64, 64});
    wide.hbm.bind(hbm);
    narrow.hbm.bind(hbm);
    auto move = [](L2Cache &l2, uint64_t line, bool write) {
        GmRuns r;
        r.count = 1;
        r.bytes = 128;
        r.base = line * 128;
        return l2.transfer(0, r, write, 0);
    };
    move(wide, 68, false);
    for (uint64_t l = 0; l <= 18; l++)
        move(wide, l, false);
    ck_assert(move(wide, 200, false).miss);
    ck_assert(!move(wide, 0, false).miss);
    ck_assert(move(wide, 68, false).miss);
    ck_assert_uint_eq(wide.misses, 22);
    ck_assert_uint_eq(wide.hits, 1);

    move(narrow, 10, true);
    move(narrow, 0, true);
    move(narrow, 1, true);
    ck_assert_uint_eq(narrow.idle_write_back(1), 1);
    ck_assert(move(narrow, 2, false).miss);
    ck_assert(move(narrow, 3, false).miss);
    ck_assert_uint_eq(narrow.writebacks, 0);
    ck_assert(!move(narrow, 0, false).miss);
    ck_assert_uint_eq(narrow.idle_write_back(~0ull), 2);
}
END_TEST

// A set's dirty flags, signatures and tags are kept apart (the set's header and its ways): one set
// of 128 B lines, lines 255, 511, 767, ... (L0, L1, ...: tags 256, 512, ..., every signature the
// same, so each lookup compares every way's tag), with 16 ways (a recency order), 24 and 64 (fill
// and the oldest use; 64: four signature chunks).  L0 .. L(ways - 1) come in with the odd ones
// written (dirty), and all hit when read again in order; a DV_L2_DISABLE write of L0 (a hit, its
// last use kept) makes it dirty and the least recently used dirty line, the one idle_write_back(1)
// writes back.  The ways new lines that follow evict L0 .. L(ways - 1) in order and write back the
// odd ones (none for L0, cleaned); no dirty line is left.
START_TEST(test_components_l2_split_state)
{
    for (uint64_t ways : {16, 24, 64}) {
        Context context;
        Hbm hbm("hbm", Hbm::Params{50, 8, 64, 0, 0});
        L2Cache l2("l2", L2Cache::Params{ways * 128, 128, ways, false, 64, 64});
        l2.hbm.bind(hbm);
        auto move = [&](uint64_t n, bool write, dv_l2_mode_t mode = DV_L2_NORMAL) {
            GmRuns r;
            r.count = 1;
            r.bytes = 128;
            r.base = (256 * (n + 1) - 1) * 128;
            r.mode = mode;
            return l2.transfer(0, r, write, 0);
        };
        for (uint64_t n = 0; n < ways; n++)
            move(n, n % 2 == 1);
        ck_assert_uint_eq(l2.misses, ways);
        for (uint64_t n = 0; n < ways; n++)
            ck_assert_msg(!move(n, false).miss, "%llu ways: L%llu", (unsigned long long)ways, (unsigned long long)n);
        ck_assert_uint_eq(l2.hits, ways);
        move(0, true, DV_L2_DISABLE);
        ck_assert_uint_eq(l2.hits, ways + 1);
        ck_assert_uint_eq(l2.bypassed, 0);
        ck_assert_uint_eq(l2.idle_write_back(1), 1);
        for (uint64_t n = 0; n < ways; n++) { // L(ways + n) evicts Ln
            ck_assert(move(ways + n, false).miss);
            ck_assert_uint_eq(l2.writebacks, (n + 1) / 2);
        }
        ck_assert_uint_eq(l2.misses, 2 * ways);
        ck_assert_uint_eq(l2.idle_write_back(~0ull), 0);
        for (uint64_t n = 1; n < ways; n++) // every old line is out: a bypassing read misses
            ck_assert(move(n, false, DV_L2_DISABLE).miss);
    }
}
END_TEST

// The sets' ways are kept way by way, the same way of consecutive sets side by side (L2Cache.h): 3
// sets of 4 ways of 128 B lines, and 8 sets of the profiles' 16 ways.  One stream of sets x ways new
// lines (ways runs of `sets` lines, each taking every set once) fills every way of every set; the
// same lines read as rows of 64 B (a tile's rows, one line apart) all hit.  A stream of `sets` lines
// more (run `ways`) evicts run 0's lines, each its set's least recently used, and nothing else: read
// a line at a time, runs 1 .. ways - 1 hit and run 0 misses.
START_TEST(test_components_l2_way_major)
{
    for (uint64_t sets : {3, 8}) {
        const uint64_t ways = sets == 3 ? 4 : 16, lines = sets * ways;
        Context context;
        Hbm hbm("hbm", Hbm::Params{50, 8, 64, 0, 0});
        L2Cache l2("l2", L2Cache::Params{lines * 128, 128, ways, false, 64, 64});
        l2.hbm.bind(hbm);
        auto read = [&](uint64_t line, uint64_t count, uint64_t bytes) {
            GmRuns r;
            r.count = count;
            r.bytes = bytes;
            r.base = line * 128;
            r.stride = 128;
            return l2.transfer(0, r, false, 0);
        };
        read(0, 1, lines * 128);
        ck_assert_uint_eq(l2.misses, lines);
        ck_assert(!read(0, lines, 64).miss);
        ck_assert_uint_eq(l2.hits, lines);
        read(lines, 1, sets * 128);
        ck_assert_uint_eq(l2.misses, lines + sets);
        for (uint64_t l = sets; l < lines; l++)
            ck_assert_msg(!read(l, 1, 128).miss, "%llu sets: line %llu", (unsigned long long)sets, (unsigned long long)l);
        for (uint64_t l = 0; l < sets; l++)
            ck_assert(read(l, 1, 128).miss);
        ck_assert_uint_eq(l2.misses, lines + 2 * sets);
        ck_assert_uint_eq(l2.hits, 2 * lines - sets);
    }
}
END_TEST

// A set's header holds a copy of its most recently used way's tag, and a line found there is
// looked up from the header alone: the copy follows every change of that way.  One set of 3 ways of
// 128 B lines (write-back), lines A .. F one at a time: A, B, C come in (C first in the order); A is
// found past the first way (A first), then B is written (B first, dirty), then C (C first, dirty: had
// the copy still said C, from before A moved, C's write would have taken the first way's hit and
// marked B).  D evicts A (clean), E evicts B and F evicts C, the two dirty ones: 2 write-backs.
START_TEST(test_components_l2_mru_copy)
{
    Memory m(false, 3 * 128, 3);
    L2Cache &l2 = m.l2;
    auto move = [&](uint64_t line, bool write) { return m.at_line(line, write); };
    for (uint64_t l : {0, 1, 2}) // A, B, C
        ck_assert(move(l, false).miss);
    ck_assert(!move(0, false).miss);
    ck_assert(!move(1, true).miss);
    ck_assert(!move(2, true).miss);
    ck_assert_uint_eq(l2.hits, 3);
    ck_assert_uint_eq(l2.writebacks, 0);
    ck_assert(move(3, false).miss); // D evicts A
    ck_assert_uint_eq(l2.writebacks, 0);
    ck_assert(move(4, false).miss); // E evicts B
    ck_assert_uint_eq(l2.writebacks, 1);
    ck_assert(move(5, false).miss); // F evicts C
    ck_assert_uint_eq(l2.writebacks, 2);
    ck_assert_uint_eq(l2.idle_write_back(~0ull), 0);
}
END_TEST

// A set's header tells its lines apart by key (L2Cache::key_of: the line's run of `sets` lines + 1)
// for the runs below 32,767; the others, far, have a key of their run's low 15 bits (and bit 15),
// which their ways' tags confirm.  One set of 4 ways of 128 B (a run is one line): A = line 32,766
// (the last run with a key of its own), P .. U = lines 32,767 + i x 32,768 for i = 0 .. 5 (far, all
// with the same key).  Most to least recently used:
//   P, Q, R, S m: S R Q P;  T m (P out): T S R Q;  A m (Q out): A T S R;  A h (by its key);
//   rows P, Q (one transfer, 32,768 lines apart; both in L2 before): P m (R out: the second way, T,
//   and S have P's key, not its tag): P A T S;  Q m (S out): Q P A T;
//   rows T, U: T h (past the two most recent: Q, and P with its key): T Q P A;  U m (never in L2,
//   A out): U T Q P;  single S m (P out), R m (Q out): R S U T;  T h.  Hits 3, misses 11.
// Were a key taken for the line, P would hit at T and Q at P.
// A Zeros array reads as zero however its mapping was used before: on a host without swap a
// released one is kept for the next array of its size and comes back with the pages it was written
// in cleared (those only: mincore).
START_TEST(test_components_zeros_reuse_reads_zero)
{
    const uint64_t n = 3 * 4096 + 7; // 12 pages and a piece
    const uint64_t *first;
    const size_t kept = dv::zeros_kept();
    {
        dv::Zeros<uint64_t> a;
        a.reset(n);
        first = a.data();
        for (uint64_t i = 0; i < n; i += 1500) // every other page or so written, others untouched
            a[i] = i + 1;
        a[n - 1] = 42;
    }
    const bool reused = dv::zeros_kept() == kept + 1; // (not on a host with swap: unmapped there)
    dv::Zeros<uint64_t> b;
    b.reset(n);
    if (reused)
        ck_assert_ptr_eq(b.data(), first);
    ck_assert_uint_eq(dv::zeros_kept(), kept);
    for (uint64_t i = 0; i < n; i++)
        ck_assert_uint_eq(b[i], 0);
    b[5] = 1;
    b.reset(n); // its own mapping back, cleared again
    for (uint64_t i = 0; i < n; i++)
        ck_assert_uint_eq(b[i], 0);
    dv::Zeros<uint64_t> c; // another size: a mapping of its own
    c.reset(2 * n);
    ck_assert_ptr_ne(c.data(), b.data());
    ck_assert_uint_eq(c[2 * n - 1], 0);
}
END_TEST

// A Dense array (2 MB pages where the host gives them) is a mapping of its own on a 2 MB boundary,
// reads as zero, keeps what is written anywhere in it, and reads as zero again when its mapping
// comes back (a huge page is in memory as a whole: clearing it must not leave a written byte); a
// Sparse array of the same size never gets its mapping.
START_TEST(test_components_zeros_dense_reuse_reads_zero)
{
    const uint64_t n = (5u << 20) / 8 + 3; // 5 MB and a piece: two whole huge pages and their edges
    const size_t kept = dv::zeros_kept();
    const uint64_t *first;
    {
        dv::Zeros<uint64_t> a;
        a.reset(n, dv::Pages::Dense);
        first = a.data();
#if defined(__linux__)
        ck_assert_uint_eq(reinterpret_cast<uintptr_t>(first) % (2u << 20), 0);
#endif
        uint64_t any = 0; // (one assertion: Check marks its place at each one)
        for (uint64_t i = 0; i < n; i++)
            any |= a[i];
        ck_assert_uint_eq(any, 0);
        for (uint64_t i = 0; i < n; i += 100000)
            a[i] = i + 1;
        a[n - 1] = 42;
        for (uint64_t i = 0; i < n; i += 100000)
            ck_assert_uint_eq(a[i], i + 1);
        ck_assert_uint_eq(a[n - 1], 42);
    }
    const bool reused = dv::zeros_kept() == kept + 1; // (not on a host with swap: unmapped there)
    dv::Zeros<uint64_t> sparse;
    sparse.reset(n); // the same size, Sparse: not the Dense one kept
    ck_assert_ptr_ne(sparse.data(), first);
    dv::Zeros<uint64_t> b;
    b.reset(n, dv::Pages::Dense);
    if (reused)
        ck_assert_ptr_eq(b.data(), first);
    uint64_t any = 0;
    for (uint64_t i = 0; i < n; i++)
        any |= b[i];
    ck_assert_uint_eq(any, 0);
    dv::Zeros<unsigned char> headers; // 1.5 MB (the L2's set headers): one whole huge page
    headers.reset(3u << 19, dv::Pages::Dense);
#if defined(__linux__)
    ck_assert_uint_eq(reinterpret_cast<uintptr_t>(headers.data()) % (2u << 20), 0);
#endif
    headers[(3u << 19) - 1] = 7;
    ck_assert_uint_eq(headers[(3u << 19) - 1] + headers[0], 7);
}
END_TEST

START_TEST(test_components_l2_far_keys)
{
    Memory m(false, 4 * 128, 4);
    const uint64_t A = 32766, far = 32768, P = 32767, Q = P + far, R = Q + far, S = R + far, T = S + far;
    auto one = [&](uint64_t line) { return !m.at_line(line, false).miss; }; // a hit
    auto rows = [&](uint64_t first) { // two rows, lines first and first + far
        GmRuns r;
        r.count = 2;
        r.bytes = 128;
        r.base = first * 128;
        r.stride = far * 128;
        m.l2.transfer(0, r, false, 0);
    };
    for (uint64_t l : {P, Q, R, S, T, A})
        ck_assert(!one(l));
    ck_assert(one(A));
    rows(P);
    ck_assert_uint_eq(m.l2.hits, 1);
    ck_assert_uint_eq(m.l2.misses, 8);
    rows(T);
    ck_assert_uint_eq(m.l2.hits, 2);
    ck_assert_uint_eq(m.l2.misses, 9);
    ck_assert(!one(S));
    ck_assert(!one(R));
    ck_assert(one(T));
    ck_assert_uint_eq(m.l2.hits, 3);
    ck_assert_uint_eq(m.l2.misses, 11);
}
END_TEST

// Write-back: a write allocates without a fill (no HBM bytes) and leaves the line dirty; L2, L4,
// L6 fill the other ways (mru 1111 -> 1000), so L8 evicts way 0, the dirty L0: one write-back of
// 128 B.  Misses 5, hits 0, HBM reads 4 lines (L2, L4, L6, L8), writes 1 line.
// Write-through: the written 128 B go to HBM at once and the line stays clean, so the eviction
// writes nothing back: HBM writes are the 128 B of the write itself.
START_TEST(test_components_l2_write_back_and_through)
{
    for (int wt = 0; wt < 2; wt++) {
        Memory m(wt != 0);
        const GmResult w = m.access(0, true);
        ck_assert(!w.miss); // a write never waits for HBM data
        ck_assert_uint_eq(m.hbm.write_bytes, wt ? 128 : 0);
        ck_assert_uint_eq(m.hbm.read_bytes, 0);
        for (uint64_t l : {2, 4, 6, 8})
            m.access(l, false);
        ck_assert_uint_eq(m.l2.misses, 5);
        ck_assert_uint_eq(m.l2.hits, 0);
        ck_assert_uint_eq(m.l2.writebacks, wt ? 0 : 1);
        ck_assert_uint_eq(m.hbm.read_bytes, 4 * 128);
        ck_assert_uint_eq(m.hbm.write_bytes, 128);
    }
    // A write hit makes a clean line dirty (write-back): read L0, write L0 (hit), then evict it.
    Memory m(false);
    m.access(0, false);
    m.access(0, true);
    ck_assert_uint_eq(m.l2.hits, 1);
    for (uint64_t l : {2, 4, 6, 8}) // L0 (way 0) is the victim once mru is 1000 after L6
        m.access(l, false);
    ck_assert_uint_eq(m.l2.writebacks, 1);
    ck_assert_uint_eq(m.hbm.write_bytes, 128);
}
END_TEST

// Timing of one transfer: a read miss of 128 B at cycle 0 passes the L2 in 128/64 = 2 cycles and
// the fill takes HBM 128/8 = 16 cycles: done at 16 (the miss latency is the DMA engine's to add).
// The same line read again at cycle 1000 hits: 1000 + 2.  Without an L2 (size 0) every access goes
// to HBM (1000 + 16) and is a miss, and the hit/miss counters stay 0.
START_TEST(test_components_l2_transfer_times)
{
    Memory m(false);
    GmResult r = m.access(3, false, 0);
    ck_assert(r.miss);
    ck_assert_uint_eq(r.done, 16);
    ck_assert_uint_eq(m.l2.hbm_latency(), 50);
    r = m.access(3, false, 1000);
    ck_assert(!r.miss);
    ck_assert_uint_eq(r.done, 1002);
    Memory none(false, 0);
    r = none.access(3, false, 1000);
    ck_assert(r.miss);
    ck_assert_uint_eq(r.done, 1016);
    ck_assert_uint_eq(none.l2.hits + none.l2.misses, 0);
    ck_assert_uint_eq(none.hbm.read_bytes, 128);
}
END_TEST

// ---------------------------------------------------------------- Occupancy
// A byte is occupied from the start of the write to the end of the last read before it is written
// again; unread data does not count.  peak = the largest sum at any time, byte_cycles = the
// integral.

// One interval: [0, 100) written at 10, read until 50: 100 B for 40 cycles.
// Data never read counts for nothing.
START_TEST(test_components_occupancy_one_interval)
{
    Occupancy o;
    o.reset(0);
    o.write(0, 100, 10);
    o.read(0, 100, 50);
    o.write(200, 264, 0); // never read
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 100);
    ck_assert_double_eq(o.byte_cycles(), 4000.0);
    ck_assert(!o.folded_early());
}
END_TEST

// Overlapping intervals, partial reads:
//   A = [0, 100) written at 0: [0, 50) read until 20, [50, 100) until 40;
//   B = [100, 300) written at 10, read until 30.
// Sweep: t=0 +100 -> 100; t=10 +200 -> 300; t=20 -50 -> 250; t=30 -200 -> 50; t=40 -50 -> 0.
// peak 300; integral 50 x 20 + 50 x 40 + 200 x 20 = 7000.
START_TEST(test_components_occupancy_overlap_sweep)
{
    Occupancy o;
    o.reset(0);
    o.write(0, 100, 0);
    o.write(100, 300, 10);
    o.read(0, 50, 20);
    o.read(50, 100, 40);
    o.read(100, 300, 30);
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 300);
    ck_assert_double_eq(o.byte_cycles(), 7000.0);
}
END_TEST

// The last read before a rewrite ends the interval; a rewrite starts a new one:
//   [0, 10) written at 0, read at 5 and 8 -> [0, 8); written at 20, read at 25 -> [20, 25);
//   written at 30, never read -> nothing.  Integral 10 x 8 + 10 x 5 = 130, peak 10.
// An interval that ends when another starts does not overlap it: X = [0, 100) over [0, 10),
// Y = [100, 200) over [10, 20): peak 100, not 200; integral 2000.
// A partial overwrite splits a range: [0, 100) written at 0, [40, 60) rewritten at 5 (its first
// data unread: nothing), all read at 10: [0,40) and [60,100) over [0, 10), [40, 60) over [5, 10):
// t=0 +80 -> 80; t=5 +20 -> 100; t=10 -100 -> 0.  peak 100, integral 40x10 + 20x5 + 40x10 = 900.
START_TEST(test_components_occupancy_rewrites)
{
    Occupancy o;
    o.reset(0);
    o.write(0, 10, 0);
    o.read(0, 10, 5);
    o.read(0, 10, 8);
    o.write(0, 10, 20);
    o.read(0, 10, 25);
    o.write(0, 10, 30);
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 10);
    ck_assert_double_eq(o.byte_cycles(), 130.0);

    o.reset(0);
    o.write(0, 100, 0);
    o.read(0, 100, 10);
    o.write(100, 200, 10);
    o.read(100, 200, 20);
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 100);
    ck_assert_double_eq(o.byte_cycles(), 2000.0);

    o.reset(0);
    o.write(0, 100, 0);
    o.write(40, 60, 5);
    o.read(0, 100, 10);
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 100);
    ck_assert_double_eq(o.byte_cycles(), 900.0);
}
END_TEST

// Accesses that cut open ranges: a read inside a range splits it in three, a write over several
// ranges and a gap closes the parts it covers and keeps the parts outside, a write covering exactly
// one range replaces it.
//   1. [0, 100) written at 0; [20, 40) read until 10: [0, 20) unread, [20, 40) read, [40, 100) unread.
//   2. [150, 200) written at 5, read until 30.
//   3. [30, 170) written at 40: closes [30, 40) (10 B over [0, 10): 100) and [150, 170) (20 B over
//      [5, 30): 500); [40, 100) was never read.  Open: [0, 20), [20, 30), [30, 170), [170, 200).
//   4. [30, 170) read until 50, then rewritten at 60: 140 B over [40, 50): 1400.
//   5. finish: [20, 30) 10 B over [0, 10): 100; [170, 200) 30 B over [5, 30): 750.
// Sweep: t=0 +20 -> 20; t=5 +50 -> 70; t=10 -20 -> 50; t=30 -50 -> 0; t=40 +140; t=50 -140.
// peak 140, integral 2850; over 64 slices of one cycle the series is the level itself.
START_TEST(test_components_occupancy_partial_ranges)
{
    Occupancy o;
    o.reset(0);
    o.write(0, 100, 0);
    o.read(20, 40, 10);
    o.write(150, 200, 5);
    o.read(150, 200, 30);
    o.write(30, 170, 40);
    o.read(30, 170, 50);
    o.write(30, 170, 60);
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 140);
    ck_assert_double_eq(o.byte_cycles(), 2850.0);
    double s[64];
    o.series(64, s, 64);
    for (int i = 0; i < 64; i++) {
        const double want = i < 5 ? 20 : i < 10 ? 70 : i < 30 ? 50 : i >= 40 && i < 50 ? 140 : 0;
        ck_assert_msg(s[i] == want, "slice %d: %g, expected %g", i, s[i], want);
    }
}
END_TEST

// The 64-slice series of o over 64 cycles (one slice a cycle): tens[k] in slices 10k .. 10k + 9,
// 0 after them.
static void expect_series_by_10(Occupancy &o, std::initializer_list<double> tens)
{
    double s[64];
    o.series(64, s, 64);
    for (int i = 0; i < 64; i++) {
        const size_t k = static_cast<size_t>(i / 10);
        const double want = k < tens.size() ? tens.begin()[k] : 0;
        ck_assert_msg(s[i] == want, "slice %d: %g, expected %g", i, s[i], want);
    }
}

// Reads and writes that cut several ranges at once (the open ranges move to make room, or close
// up, in one step):
//   1. [0, 100), [100, 200), [200, 300) written at 0; [50, 250) read until 10 cuts the first at 50
//      and the last at 250.  [0, 300) written at 20 closes the five pieces in one: 50 + 100 + 50 B
//      over [0, 10) (2000) and leaves one range.
//   2. [0, 300) read until 30; [120, 140) written at 40 cuts it in three (20 B over [20, 30): 200);
//      [100, 160) read until 50 cuts [0, 120) at 100 and [140, 300) at 160.  finish: [0, 100)
//      and [160, 300) over [20, 30) (2400), [100, 120) and [140, 160) over [20, 50) (1200),
//      [120, 140) over [40, 50) (200).
// Sweep: t=0 +200; t=10 -200; t=20 +300; t=30 -260 -> 40; t=40 +20 -> 60; t=50 -60 -> 0.
// peak 300, integral 2000 + 3000 + 400 + 600 = 6000.
START_TEST(test_components_occupancy_cuts)
{
    Occupancy o;
    o.reset(0);
    o.write(0, 100, 0);
    o.write(100, 200, 0);
    o.write(200, 300, 0);
    o.read(50, 250, 10);
    o.write(0, 300, 20);
    o.read(0, 300, 30);
    o.write(120, 140, 40);
    o.read(100, 160, 50);
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 300);
    ck_assert_double_eq(o.byte_cycles(), 6000.0);
    expect_series_by_10(o, {200, 0, 300, 40, 60});
}
END_TEST

// A read that cuts both ends of a run of ranges (more than a few between: they move in one block),
// then reads that cut only the low or only the high end of a range:
//   1. [0, 100), [100, 200), ..., [600, 700) written at 0; [50, 650) read until 10: [0, 50) and
//      [650, 700) unread, the seven pieces between read.
//   2. [0, 30) read until 20 cuts [0, 50) at 30; [680, 700) read until 30 cuts [650, 700) at 680.
//   3. [0, 700) written at 40 closes 30 B over [0, 20) (600), 600 B over [0, 10) (6000) and 20 B
//      over [0, 30) (600); [30, 50) and [650, 680) were never read.  Read until 50: 7000 at finish.
// Sweep: t=0 +650; t=10 -600 -> 50; t=20 -30 -> 20; t=30 -20 -> 0; t=40 +700; t=50 -700.
// peak 700, integral 6500 + 500 + 200 + 7000 = 14200.
START_TEST(test_components_occupancy_read_cuts)
{
    Occupancy o;
    o.reset(0);
    for (uint64_t k = 0; k < 7; k++)
        o.write(100 * k, 100 * k + 100, 0);
    o.read(50, 650, 10);
    o.read(0, 30, 20);
    o.read(680, 700, 30);
    o.write(0, 700, 40);
    o.read(0, 700, 50);
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 700);
    ck_assert_double_eq(o.byte_cycles(), 14200.0);
    expect_series_by_10(o, {650, 50, 20, 0, 700});
}
END_TEST

// A read over several blocks notes a part of the first and of the last, and reads those between
// whole (a block read whole keeps the latest time):
//   1. [0, 100), [100, 200), [200, 300), [300, 400) written at 0; [100, 200) read until 30, then
//      [50, 250) until 20: [50, 100) read until 20 (1000), [100, 200) still until 30 (3000),
//      [200, 250) until 20 (1000); [0, 50), [250, 400) never read.  Sweep: t=0 +200; t=20 -100 ->
//      100; t=30 -100 -> 0.  peak 200, integral 5000.
//   2. [0, 100), [100, 200) written at 0, [0, 200) read until 10 (both whole, ending with the
//      last block), [0, 200) written at 20 and read until 30: 2000 + 2000.  peak 200.
START_TEST(test_components_occupancy_read_over_blocks)
{
    Occupancy o;
    o.reset(0);
    for (uint64_t k = 0; k < 4; k++)
        o.write(100 * k, 100 * k + 100, 0);
    o.read(100, 200, 30);
    o.read(50, 250, 20);
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 200);
    ck_assert_double_eq(o.byte_cycles(), 5000.0);
    expect_series_by_10(o, {200, 200, 100});

    o.reset(0);
    o.write(0, 100, 0);
    o.write(100, 200, 0);
    o.read(0, 200, 10);
    o.write(0, 200, 20);
    o.read(0, 200, 30);
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 200);
    ck_assert_double_eq(o.byte_cycles(), 4000.0);
    expect_series_by_10(o, {200, 0, 200});
}
END_TEST

// Reads noted on a range are only turned into its pieces when it is written again, with the
// same figures whatever their order: [0, 100) written at 0, read as a tile is (each read starting,
// ending and ending its time later than the one before) [10, 60) until 10, [20, 70) until 20,
// [30, 80) until 30, then rewritten at 40.  Pieces: [0, 10) and [80, 100) unread, [10, 20) read
// until 10, [20, 30) until 20, [30, 80) until 30 (three pieces, cut at 60 and 70): 100 + 200 +
// 1500 = 1800.  Sweep: t=0 +70; t=10 -10 -> 60; t=20 -10 -> 50; t=30 -50 -> 0: peak 70.  The same
// reads in another order, after a read of [40, 50) until 0 (the write's start: it counts for
// nothing, but cuts [30, 80) in more pieces), give the same.
START_TEST(test_components_occupancy_noted_reads)
{
    const uint64_t lo[3] = {10, 20, 30}, hi[3] = {60, 70, 80}, t[3] = {10, 20, 30};
    const int order[2][3] = {{0, 1, 2}, {2, 0, 1}};
    for (int k = 0; k < 2; k++) {
        Occupancy o;
        o.reset(0);
        o.write(0, 100, 0);
        if (k == 1)
            o.read(40, 50, 0);
        for (int j : order[k])
            o.read(lo[j], hi[j], t[j]);
        o.write(0, 100, 40);
        o.finish();
        ck_assert_uint_eq(o.peak_bytes(), 70);
        ck_assert_double_eq(o.byte_cycles(), 1800.0);
        expect_series_by_10(o, {70, 60, 50});
    }
}
END_TEST

// Reads noted in order (each starting, ending and read no earlier than the one before) are closed
// a span at a time: [0, 100) written at 0; [10, 40) read until S, [10, 50) until 2S (the same start:
// the later read covers [10, 50)), [30, 60) until 3S, [70, 80) until 4S; rewritten at 5S.  Pieces
// (cut at 10, 30, 40, 50, 60, 70, 80): [10, 30) 20 B x 2S, [30, 40), [40, 50), [50, 60) 10 B x 3S
// each, [70, 80) 10 B x 4S; [0, 10), [60, 70) and [80, 100) unread.  Peak 60 (from 0 to 2S).  With
// S = 10 the integral is exact, 1700, summed by spans; with S = 2^48 + 1 it is past 2^53, where
// the sum depends on its order, and must be the one of the pieces in address order (the three
// 10 B pieces added one by one, not as one 30 B span: the last bits differ).
START_TEST(test_components_occupancy_in_order_spans)
{
    for (const uint64_t S : {uint64_t{10}, (uint64_t{1} << 48) + 1}) {
        Occupancy o;
        o.reset(0);
        o.write(0, 100, 0);
        o.read(10, 40, S);
        o.read(10, 50, 2 * S);
        o.read(30, 60, 3 * S);
        o.read(70, 80, 4 * S);
        o.write(0, 100, 5 * S);
        o.finish();
        const double s = static_cast<double>(S);
        double pieces = 0;
        for (const double term : {20 * (2 * s), 10 * (3 * s), 10 * (3 * s), 10 * (3 * s), 10 * (4 * s)})
            pieces += term;
        ck_assert_uint_eq(o.peak_bytes(), 60);
        if (S == 10)
            ck_assert_double_eq(o.byte_cycles(), 1700.0);
        ck_assert(o.byte_cycles() == pieces);
        ck_assert(S == 10 || o.byte_cycles() != 20 * (2 * s) + static_cast<double>(30 * (3 * S)) + 10 * (4 * s));
    }
}
END_TEST

// Slices read in order, each starting where the one before ends or later (one piece each, the
// gaps one each): [0, 100) written at 0 and read whole until 10, then [10, 30) until 5, [30, 50)
// until 20, [60, 70) until 30; rewritten at 40.  Pieces: [0, 10), [10, 30) (its read before the
// whole one's), [50, 60) and [70, 100) read until 10, [30, 50) until 20, [60, 70) until 30:
// 100 + 200 + 100 + 300 + 400 + 300 = 1400.  Sweep: t=0 +100; t=10 -70 -> 30; t=20 -20 -> 10;
// t=30 -10 -> 0.
START_TEST(test_components_occupancy_disjoint_slices)
{
    Occupancy o;
    o.reset(0);
    o.write(0, 100, 0);
    o.read(0, 100, 10);
    o.read(10, 30, 5);
    o.read(30, 50, 20);
    o.read(60, 70, 30);
    o.write(0, 100, 40);
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 100);
    ck_assert_double_eq(o.byte_cycles(), 1400.0);
    expect_series_by_10(o, {100, 30, 10});
}
END_TEST

// A block read as overlapping hulls (as a matmul's B tile in L1: each starting later, ending no
// earlier and reaching past the last one's start): [0, 100) written at 0, read [10, 50) until 10,
// [20, 50) until 20, [30, 60) until 30, rewritten at 40.  Pieces: [10, 20) read until 10, [20, 30)
// until 20, [30, 60) until 30 (cut at 50, where two reads end), [0, 10) and [60, 100) unread:
// 100 + 200 + 900 = 1200.  Level 50 over [0, 10), 40 over [10, 20), 30 over [20, 30): peak 50.
START_TEST(test_components_occupancy_hull_reads)
{
    Occupancy o;
    o.reset(0);
    o.write(0, 100, 0);
    o.read(10, 50, 10);
    o.read(20, 50, 20);
    o.read(30, 60, 30);
    o.write(0, 100, 40);
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 50);
    ck_assert_double_eq(o.byte_cycles(), 1200.0);
    expect_series_by_10(o, {50, 40, 30});
}
END_TEST

// A tile written as overlapping hulls (as an L0 tile is), read whole, written again as hulls:
// [0, 40) written as [0, 30) at 0, [5, 35) at 1, [10, 40) at 2 (each over the one before, unread:
// [0, 5) keeps 0, [5, 10) keeps 1, [10, 40) is 2's), read until 10; again at 20, 21, 22, read until
// 30.  The second round's first hull closes [0, 5) (5 x 10), [5, 10) (5 x 9) and [10, 30) (20 x 8)
// and leaves [30, 40); the second closes [30, 35) (5 x 8) inside that and the first hull's
// unread data; the third [35, 40) (5 x 8); the finish 50 + 45 + 240: 670.  A second tile
// [64, 104) past it (moved as blocks are put in) is written at 0 and read until 40: 1600.
// Level: 45 over [0, 1), 50 over [1, 2), 80 over [2, 10), 40 over [10, 20), the same again from 20,
// 0 from 40: peak 80, 2270 in all.  The same accesses with a byte of each block read at 0 before
// each write (a read no later than the write: no interval, but reads noted, so the writes take
// the general path) give the same figures.
START_TEST(test_components_occupancy_hull_writes)
{
    for (int noted = 0; noted < 2; noted++) {
        Occupancy o;
        o.reset(0);
        auto hull = [&](uint64_t lo, uint64_t hi, cycles_t t) {
            if (noted)
                for (uint64_t at : {0, 5, 10, 30, 35})
                    o.read(at, at + 1, 0);
            o.write(lo, hi, t);
        };
        hull(64, 104, 0);
        o.read(64, 104, 40);
        for (cycles_t t : {0, 20}) {
            hull(0, 30, t);
            hull(5, 35, t + 1);
            hull(10, 40, t + 2);
            o.read(0, 40, t + 10);
        }
        o.finish();
        ck_assert_uint_eq(o.peak_bytes(), 80);
        ck_assert_double_eq(o.byte_cycles(), 2270.0);
        double s[64];
        o.series(64, s, 64);
        for (int i = 0; i < 64; i++) {
            const int c = i % 20;
            const double want = i >= 40 ? 0 : c == 0 ? 45 : c == 1 ? 50 : c < 10 ? 80 : 40;
            ck_assert_msg(s[i] == want, "noted %d slice %d: %g, expected %g", noted, i, s[i], want);
        }
    }
}
END_TEST

// Two tiles read slice after slice, in turns: [0, 400) and [400, 800) written at 0, their 100-byte
// slices read until 10, 30, 50, 70 and 20, 40, 60, 80; both rewritten at 100.  The second tile's
// interval ends (20, 40, 60 before the first's last) are merged into the first's when they are
// sorted: the level falls by 100 at each of 10, 20, ..., 80, from 800 to 0, so the series over
// 10-cycle slices is 800, 700, ..., 100, 0, 0; byte_cycles 100 x (10 + 20 + ... + 80) = 36000.
START_TEST(test_components_occupancy_interleaved_slices)
{
    Occupancy o;
    o.reset(0);
    o.write(0, 400, 0);
    o.write(400, 800, 0);
    for (uint64_t k = 0; k < 4; k++) {
        o.read(100 * k, 100 * k + 100, 20 * k + 10);
        o.read(400 + 100 * k, 500 + 100 * k, 20 * k + 20);
    }
    o.write(0, 400, 100);
    o.write(400, 800, 100);
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 800);
    ck_assert_double_eq(o.byte_cycles(), 36000.0);
    double s[10];
    o.series(100, s, 10);
    for (int i = 0; i < 10; i++)
        ck_assert_double_eq(s[i], i < 8 ? 800.0 - 100.0 * i : 0.0);
}
END_TEST

// The same with 100 slices of 10 bytes a tile (more interval ends out of place than one merge
// takes: they are merged a stretch at a time): [0, 1000) and [1000, 2000) written at 0, slice k
// of the first read until 2k + 2, of the second until 2k + 3; both rewritten at 300.  The level
// falls by 10 at each of 2, 3, ..., 201: byte_cycles 10 x (2 + ... + 201) = 203000.  F(100) =
// 10 x ((2 + ... + 100) + 101 x 100) = 151490, F(200) = 10 x ((2 + ... + 200) + 200) = 202990.
START_TEST(test_components_occupancy_interleaved_long)
{
    Occupancy o;
    o.reset(0);
    o.write(0, 1000, 0);
    o.write(1000, 2000, 0);
    for (uint64_t k = 0; k < 100; k++) {
        o.read(10 * k, 10 * k + 10, 2 * k + 2);
        o.read(1000 + 10 * k, 1010 + 10 * k, 2 * k + 3);
    }
    o.write(0, 1000, 300);
    o.write(1000, 2000, 300);
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 2000);
    ck_assert_double_eq(o.byte_cycles(), 203000.0);
    double s[3];
    o.series(300, s, 3);
    ck_assert_double_eq(s[0], 151490.0 / 100.0);
    ck_assert_double_eq(s[1], (202990.0 - 151490.0) / 100.0);
    ck_assert_double_eq(s[2], (203000.0 - 202990.0) / 100.0);
}
END_TEST

// A write into the middle of a range with reads noted on it keeps the pieces on both sides:
// [0, 100) written at 0, [10, 30) read until 10, [60, 90) until 20; [40, 50) written at 30 (its
// old data unread: nothing closed); [20, 70) read until 40 over all three.  finish: [10, 20) 10 B
// x 10, [20, 40) 20 B x 40, [40, 50) 10 B x 10 (from 30), [50, 70) 20 B x 40, [70, 90) 20 B x 20:
// 100 + 800 + 100 + 800 + 400 = 2200.  Sweep: t=0 +70; t=10 -10 -> 60; t=20 -20 -> 40; t=30 +10
// -> 50; t=40 -50 -> 0: peak 70.
START_TEST(test_components_occupancy_split_read_range)
{
    Occupancy o;
    o.reset(0);
    o.write(0, 100, 0);
    o.read(10, 30, 10);
    o.read(60, 90, 20);
    o.write(40, 50, 30);
    o.read(20, 70, 40);
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 70);
    ck_assert_double_eq(o.byte_cycles(), 2200.0);
    expect_series_by_10(o, {70, 60, 40, 50});
}
END_TEST

// One write closing more pieces than an endpoint run's first room (1,024): [0, 3000) written at 0,
// each byte then read on its own, byte j until 1 + j (ends appended in time order) or until
// 4000 - j (in reverse: the fold sorts them in full), then the whole rewritten at 5000 (never read
// again).  Byte j is occupied from 0 to its read's end: sum (1 + j) = 3000 x 3001 / 2 = 4,501,500,
// or sum (4000 - j) = 12,000,000 - 3000 x 2999 / 2 = 7,501,500; every byte until the first end:
// peak 3000.
START_TEST(test_components_occupancy_many_pieces)
{
    for (int reverse = 0; reverse < 2; reverse++) {
        Occupancy o;
        o.reset(0);
        o.write(0, 3000, 0);
        for (uint64_t j = 0; j < 3000; j++)
            o.read(j, j + 1, reverse ? 4000 - j : 1 + j);
        o.write(0, 3000, 5000);
        o.finish();
        ck_assert_uint_eq(o.peak_bytes(), 3000);
        ck_assert_double_eq(o.byte_cycles(), reverse ? 7501500.0 : 4501500.0);
        ck_assert(!o.folded_early());
    }
}
END_TEST

// Intervals closed in decreasing time order (far from the nearly increasing order the fold sorts
// cheaply) give the same figures: range k = [64k, 64k + 64), k = 0 .. 99, written at 1000 - k and
// read until 2000 - k, then all rewritten (never read again).  Each is 64 B for 1000 cycles:
// 6,400,000; at t = 1000 all 100 have started and none has ended: peak 6400.
START_TEST(test_components_occupancy_reverse_order)
{
    Occupancy o;
    o.reset(0);
    for (uint64_t k = 0; k < 100; k++) {
        o.write(64 * k, 64 * k + 64, 1000 - k);
        o.read(64 * k, 64 * k + 64, 2000 - k);
    }
    for (uint64_t k = 0; k < 100; k++)
        o.write(64 * k, 64 * k + 64, 3000 + k);
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 6400);
    ck_assert_double_eq(o.byte_cycles(), 6400000.0);
}
END_TEST

// Bounded memory without changing the figures: 1000 rounds of [0, 64) written at 10i and read
// until 10i + 4 fold their endpoints every 256 writes (before the oldest open write), and still
// give exactly peak 64 and 1000 x 64 x 4 = 256000.
START_TEST(test_components_occupancy_compaction_exact)
{
    Occupancy o;
    o.reset(0);
    for (uint64_t i = 0; i < 1000; i++) {
        o.write(0, 64, 10 * i);
        o.read(0, 64, 10 * i + 4);
    }
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 64);
    ck_assert_double_eq(o.byte_cycles(), 256000.0);
    ck_assert(!o.folded_early());
}
END_TEST

// The footprint bound: two 100 B tiles written and read in turns for 600 rounds (compactions run),
// each written again only after its last read, so no byte's intervals overlap and the level never
// exceeds the 200 B written; the peak reaches that in the first round, after which the folds only
// sum.  Round k: A = [0, 100) written at 10k, read until 10k + 6; B = [100, 200) written at
// 10k + 3, read until 10k + 9: both held over [10k + 3, 10k + 6).  Peak 200, integral 600 x (100 x
// 6 + 100 x 6) = 720,000, the same with the series kept (which sweeps every change point).
START_TEST(test_components_occupancy_footprint_bound)
{
    for (bool series : {false, true}) {
        Occupancy o;
        o.reset(0, series);
        for (cycles_t k = 0; k < 600; k++) {
            o.write(0, 100, 10 * k);
            o.write(100, 200, 10 * k + 3);
            o.read(0, 100, 10 * k + 6);
            o.read(100, 200, 10 * k + 9);
        }
        o.finish();
        ck_assert_uint_eq(o.peak_bytes(), 200);
        ck_assert_double_eq(o.byte_cycles(), 720000.0);
        ck_assert(!o.folded_early());
    }
}
END_TEST

// A write that starts before the data it overwrites is last read: that byte's intervals overlap,
// and the level exceeds the footprint, so the bound must not cut the sweep short.  [0, 100)
// written at 0, read until 50, written again at 10, read until 60: 200 B over [10, 50).
START_TEST(test_components_occupancy_late_write)
{
    Occupancy o;
    o.reset(0, false);
    o.write(0, 100, 0);
    o.read(0, 100, 50);
    o.write(0, 100, 10);
    o.read(0, 100, 60);
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 200);
    ck_assert_double_eq(o.byte_cycles(), 10000.0);
}
END_TEST

// Data that stays unread holds the fold back; past kMaxEvents endpoints the older half is folded
// anyway, counting that data as occupied up to the fold.  [0, 8) written at 0 and never read; then
// round j = 0 .. 39999 writes [64, 128) at 10j + 10 and reads it until 10j + 14.  Write w (1-based,
// the [0, 8) write is w = 1) closes round w - 3's interval, so after w writes there are
// 2 (w - 2) endpoints.  Compaction runs at every 256th write; the first with more than 65536
// endpoints is w = 256 x 129 = 33024 (66044 endpoints).  Sorted, endpoint 66044 / 2 = 33022 is the
// start of round 16511: cycle 165120, the fold point.  [0, 8) counts 8 B from 0 to 165120, then
// restarts there, unread, so nothing more.  The next early fold would need 64 more compactions
// (w = 49408): there is none.  Integral: 40000 x 64 x 4 + 8 x 165120 = 11560960; peak 64 + 8 = 72.
START_TEST(test_components_occupancy_early_fold)
{
    Occupancy o;
    o.reset(0);
    o.write(0, 8, 0);
    for (uint64_t j = 0; j < 40000; j++) {
        o.write(64, 128, 10 * j + 10);
        o.read(64, 128, 10 * j + 14);
    }
    o.finish();
    ck_assert(o.folded_early());
    ck_assert_uint_eq(o.peak_bytes(), 72);
    ck_assert_double_eq(o.byte_cycles(), 11560960.0);
}
END_TEST

// Endpoints at one time count one by one for the early fold, even where they are kept together:
// round j writes [64, 128) at 10j + 10 and reads it in two halves until 10j + 14, so the next
// round's write closes two pieces with the same start and the same end (4 endpoints).  With
// [0, 8) written at 0 and never read, after w writes there are 4 (w - 2) endpoints; the first
// compaction with more than 65536 is w = 256 x 65 = 16640 (66552).  Sorted, endpoint 33276 is
// the first start of round 8319: the fold point 83200.  [0, 8) counts 8 B from 0 to 83200; the
// next early fold would need 32 more compactions (w = 24832): there is none in 20000 rounds.
// Integral 20000 x 64 x 4 + 8 x 83200 = 5785600; peak 72.
START_TEST(test_components_occupancy_early_fold_counts)
{
    Occupancy o;
    o.reset(0);
    o.write(0, 8, 0);
    for (uint64_t j = 0; j < 20000; j++) {
        o.write(64, 128, 10 * j + 10);
        o.read(64, 96, 10 * j + 14);
        o.read(96, 128, 10 * j + 14);
    }
    o.finish();
    ck_assert(o.folded_early());
    ck_assert_uint_eq(o.peak_bytes(), 72);
    ck_assert_double_eq(o.byte_cycles(), 5785600.0);
}
END_TEST

// The series: mean occupancy over 64 equal slices of a total T known only at the end, from the
// integral F(t) of the same sweep.  Checks the slices against byte_cycles and the peak.
static void expect_consistent(const Occupancy &o, cycles_t total, const double *series)
{
    const double len = static_cast<double>(total) / 64.0;
    double sum = 0;
    for (int i = 0; i < 64; i++) {
        ck_assert_msg(series[i] >= 0 && series[i] <= static_cast<double>(o.peak_bytes()), "slice %d: %g", i, series[i]);
        sum += series[i] * len;
    }
    ck_assert_double_eq_tol(sum, o.byte_cycles(), 1e-9 * o.byte_cycles());
}

// Origin 1000, T = 640: slices of 10 cycles.  Relative to the origin:
//   A = 100 B over [5, 25) (written at 1005, read until 1025), B = 64 B over [20, 45),
//   C = 64 B over [630, 640) (ends with the run).
// Slice 0 [0, 10): A 5 x 100 = 500 -> 50.  Slice 1: A 1000 -> 100.  Slice 2 [20, 30): A 5 x 100
// + B 10 x 64 = 1140 -> 114.  Slice 3: B 640 -> 64.  Slice 4 [40, 50): B 5 x 64 = 320 -> 32.
// Slice 63: C 640 -> 64.  The rest 0.  byte_cycles 2000 + 1600 + 640 = 4240, peak 164.
// T = 96 (slices of 1.5 cycles, boundaries between cycles), origin 0: 64 B over [3, 6) and 48 B
// over [4, 5): F(3) = 0, F(4.5) = 64 x 1.5 + 48 x 0.5 = 120, F(6) = 240, so slices 2 and 3 are
// 120 / 1.5 = 80 each.  T = 0: all 0.
// The hand-counted case of test_components_occupancy_series_exact on o (reset with `series`):
// its peak, byte_cycles and grid.
static void occupancy_hand_case(Occupancy &o, bool series)
{
    o.reset(1000, series);
    o.write(0, 100, 1005);
    o.write(100, 164, 1020);
    o.read(0, 100, 1025);
    o.read(100, 164, 1045);
    o.write(200, 264, 1630);
    o.read(200, 264, 1640);
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 164);
    ck_assert_double_eq(o.byte_cycles(), 4240.0);
    ck_assert_uint_eq(o.grid(), 0);
}

START_TEST(test_components_occupancy_series_exact)
{
    Occupancy o;
    double s[64];
    occupancy_hand_case(o, true);
    o.series(640, s, 64);
    double want[64] = {50, 100, 114, 64, 32};
    want[63] = 64;
    for (int i = 0; i < 64; i++)
        ck_assert_msg(s[i] == want[i], "slice %d: %g, expected %g", i, s[i], want[i]);
    expect_consistent(o, 640, s);

    o.reset(0);
    o.write(0, 64, 3);
    o.write(64, 112, 4);
    o.read(64, 112, 5);
    o.read(0, 64, 6);
    o.finish();
    o.series(96, s, 64);
    for (int i = 0; i < 64; i++)
        ck_assert_msg(s[i] == (i == 2 || i == 3 ? 80.0 : 0.0), "slice %d: %g", i, s[i]);
    expect_consistent(o, 96, s);
    o.series(0, s, 64);
    for (int i = 0; i < 64; i++)
        ck_assert_double_eq(s[i], 0.0);
}
END_TEST

// Memory stays bounded on long runs: 40000 rounds of 64 B over [10j, 10j + 4) are 80000 change
// points.  The 16385th (round 8192's write, t = 81920) turns the knots into a grid: the smallest
// power of two g with 81920 / g <= 8192 is 16.  Past t = 16384 x 16 = 262144 it doubles to 32,
// enough up to the last change (399994 / 32 < 16384).  With T = 400000 each slice is 6250 cycles
// from a multiple of 10: 625 rounds, 625 x 4 x 64 / 6250 = 25.6.  Each slice edge is off by at
// most peak x g / 4 = 512 byte-cycles, so a slice by at most 1024 / 6250; the slices still
// integrate to byte_cycles = 40000 x 256 and none exceeds the peak.  The early-fold case keeps
// the same consistency.
START_TEST(test_components_occupancy_series_grid)
{
    Occupancy o;
    double s[64];
    o.reset(0);
    for (uint64_t j = 0; j < 40000; j++) {
        o.write(0, 64, 10 * j);
        o.read(0, 64, 10 * j + 4);
    }
    o.finish();
    ck_assert_uint_eq(o.grid(), 32);
    ck_assert_double_eq(o.byte_cycles(), 10240000.0);
    o.series(400000, s, 64);
    for (int i = 0; i < 64; i++)
        ck_assert_msg(std::fabs(s[i] - 25.6) <= 1024.0 / 6250.0, "slice %d: %g", i, s[i]);
    expect_consistent(o, 400000, s);

    o.reset(0);
    o.write(0, 8, 0);
    for (uint64_t j = 0; j < 40000; j++) {
        o.write(64, 128, 10 * j + 10);
        o.read(64, 128, 10 * j + 14);
    }
    o.finish();
    ck_assert(o.folded_early());
    o.series(400014, s, 64);
    expect_consistent(o, 400014, s);
}
END_TEST

// Writes that start before the last fold's change points (the knots out of time order): F is then
// looked up knot after knot, as the knots are, not by bisection (which would land among the later
// knots).  [0, 64) written at 10j and read until 10j + 5, j = 0 .. 255: the 256th write folds up
// to 2550 (knots to 2545).  Then [64, 128) written at 100 + 2m and read until 101 + 2m, m = 0 ..
// 999: 2000 knots from 100 on, after those to 2545.  byte_cycles 255 x 320 + 320 + 1000 x 64 =
// 145920.  Over T = 2560 (slices of 40 cycles) each slice up to 2520 is read from the first knots:
// four intervals, 32 B on average; the last one gets F(2560) - F(2520) = 145920 - 80640 over 40
// cycles, clamped to the peak, 64.
START_TEST(test_components_occupancy_series_backward)
{
    Occupancy o;
    o.reset(0);
    for (uint64_t j = 0; j < 256; j++) {
        o.write(0, 64, 10 * j);
        o.read(0, 64, 10 * j + 5);
    }
    for (uint64_t m = 0; m < 1000; m++) {
        o.write(64, 128, 100 + 2 * m);
        o.read(64, 128, 101 + 2 * m);
    }
    o.finish();
    ck_assert_uint_eq(o.peak_bytes(), 64);
    ck_assert_double_eq(o.byte_cycles(), 145920.0);
    ck_assert_uint_eq(o.grid(), 0);
    double s[64];
    o.series(2560, s, 64);
    for (int i = 0; i < 64; i++)
        ck_assert_msg(s[i] == (i < 63 ? 32.0 : 64.0), "slice %d: %g", i, s[i]);
}
END_TEST

// A change point before the last one once the knots are a grid (or just as they become one)
// starts the grid again from there: the knots must stay within their room (kMaxKnots), which an
// AddressSanitizer build (make asan) or valgrind checks; without the bound both cases write past
// it.  Origin 1000000; [0, 64) written at 4j after it and read until 4j + 1 (64 byte-cycles each),
// then [128, 192) written at 5 and read until 6, before the origin (relative time 0), and
// written again (never read): 64 byte-cycles more, peak 64.
//   1. j = 0 .. 8447: the 16385th change point (t = 32768) makes the knots a grid of 4 cycles;
//      the finish's fold meets the change points at 0 first, then the last read's at 33788 and
//      33789: the grid points from 4 to 33788 again, 8447 on top of the 8446 kept.  Past the room
//      the grid widens to 8.  byte_cycles 8449 x 64 = 540736.
//   2. j = 0 .. 8191, the first two read in halves until 4j + 1 and 4j + 2 (three change points,
//      96 byte-cycles): the compaction at the 8192nd write keeps exactly kMaxKnots change points,
//      and the next, at 0, turns them into a grid for [0, 0]: of 1 cycle, which would hold the
//      32761 cycles up to the last change in as many points; the grid is 2 cycles wide then
//      (16380 points), and the last read's change points (32764, 32765) widen it to 4.
//      byte_cycles 8190 x 64 + 2 x 96 + 64 = 524416.
// The series stays within [0, peak] (F is interpolated among knots out of time order).
START_TEST(test_components_occupancy_backward_grid_room)
{
    struct Case {
        uint64_t rounds, halves;
        double byte_cycles;
        cycles_t grid;
    };
    for (const Case &c : {Case{8448, 0, 540736.0, 8}, Case{8192, 2, 524416.0, 4}}) {
        Occupancy o;
        const cycles_t origin = 1000000;
        o.reset(origin);
        for (uint64_t j = 0; j < c.rounds; j++) {
            o.write(0, 64, origin + 4 * j);
            if (j < c.halves) {
                o.read(0, 32, origin + 4 * j + 1);
                o.read(32, 64, origin + 4 * j + 2);
            } else {
                o.read(0, 64, origin + 4 * j + 1);
            }
        }
        o.write(128, 192, 5);
        o.read(128, 192, 6);
        o.write(128, 192, origin + 4 * c.rounds);
        o.finish();
        ck_assert_uint_eq(o.peak_bytes(), 64);
        ck_assert_double_eq(o.byte_cycles(), c.byte_cycles);
        ck_assert_uint_eq(o.grid(), c.grid);
        double s[64];
        o.series(4 * c.rounds, s, 64);
        for (int i = 0; i < 64; i++)
            ck_assert_msg(s[i] >= 0 && s[i] <= 64, "rounds %d, slice %d: %g", static_cast<int>(c.rounds), i, s[i]);
    }
}
END_TEST

// ---------------------------------------------------------------- HazardChecker
// Every executed instruction advances its pipe's clock; set_flag snapshots the source's clock,
// wait_flag merges it into the destination; an instruction carries the scalar clock it was issued
// with.  Two accesses from different pipes to overlapping bytes, at least one a write, with no
// happens-before between them, are a hazard.

dv_range_t ub(uint64_t lo, uint64_t hi, bool write)
{
    dv_range_t r{};
    r.space = DV_SPACE_UB;
    r.write = write ? 1 : 0;
    r.lo = lo;
    r.hi = hi;
    return r;
}

struct Recorder {
    std::vector<dv_hazard_t> found;
    void add(const std::vector<dv_hazard_t> &h) { found.insert(found.end(), h.begin(), h.end()); }
};

const VClock kNoClock{};
// The pipes of an AIV: S, V, MTE2, MTE3.
const unsigned kAiv = 1u << DV_PIPE_S | 1u << DV_PIPE_V | 1u << DV_PIPE_MTE2 | 1u << DV_PIPE_MTE3;

// RAW, WAR and WAW: MTE2 and V touch [0, 64) of UB with nothing between them; the overlap is
// reported as [max lo, min hi).  Reads after reads, disjoint ranges, another space and the same
// pipe are not hazards.
START_TEST(test_components_hazard_kinds)
{
    struct Case {
        bool w1, w2;
        int kind; // -1: none
    } cases[] = {{true, false, DV_HAZ_RAW}, {false, true, DV_HAZ_WAR}, {true, true, DV_HAZ_WAW}, {false, false, -1}};
    for (const Case &c : cases) {
        HazardChecker h;
        Recorder rec;
        h.reset(kAiv);
        dv_range_t a = ub(0, 100, c.w1), b = ub(50, 200, c.w2);
        rec.add(h.execute(DV_PIPE_MTE2, kNoClock, 0, 10, &a, 1));
        rec.add(h.execute(DV_PIPE_V, kNoClock, 1, 11, &b, 1));
        if (c.kind < 0) {
            ck_assert_uint_eq(rec.found.size(), 0);
            continue;
        }
        ck_assert_uint_eq(rec.found.size(), 1);
        const dv_hazard_t &x = rec.found[0];
        ck_assert_int_eq(x.kind, c.kind);
        ck_assert_uint_eq(x.pipe_first, DV_PIPE_MTE2);
        ck_assert_uint_eq(x.pipe_second, DV_PIPE_V);
        ck_assert_uint_eq(x.insn_first, 0);
        ck_assert_uint_eq(x.insn_second, 1);
        ck_assert_uint_eq(x.line_first, 10);
        ck_assert_uint_eq(x.line_second, 11);
        ck_assert_uint_eq(x.space, DV_SPACE_UB);
        ck_assert_uint_eq(x.lo, 50);
        ck_assert_uint_eq(x.hi, 100);
    }
    HazardChecker h;
    Recorder rec;
    h.reset(kAiv);
    dv_range_t w = ub(0, 64, true), disjoint = ub(64, 128, true), same = ub(0, 64, true);
    dv_range_t l1 = ub(0, 64, true);
    l1.space = DV_SPACE_L1;
    rec.add(h.execute(DV_PIPE_MTE2, kNoClock, 0, 0, &w, 1));
    rec.add(h.execute(DV_PIPE_V, kNoClock, 1, 0, &disjoint, 1));
    rec.add(h.execute(DV_PIPE_V, kNoClock, 2, 0, &l1, 1));
    rec.add(h.execute(DV_PIPE_MTE2, kNoClock, 3, 0, &same, 1)); // same pipe: in order
    ck_assert_uint_eq(rec.found.size(), 0);
}
END_TEST

// Every operand of an instruction with 1 to DV_MAX_RANGES of them is kept and bucketed (execute
// writes each count's record in straight code): operand k touches [k * 8 KB, k * 8 KB + 64) of
// UB, two buckets apart, and a one-operand instruction of another pipe touches 16 bytes inside
// operand j's, before it (MTE2 writes, V reads the n operands) or after it (the n operands are
// MTE2's writes, V reads): one RAW each time, with operand j's bytes.
START_TEST(test_components_hazard_every_operand)
{
    for (int n = 1; n <= DV_MAX_RANGES; n++)
        for (int j = 0; j < n; j++)
            for (int later = 0; later < 2; later++) {
                HazardChecker h;
                Recorder rec;
                h.reset(kAiv);
                dv_range_t ops[DV_MAX_RANGES];
                for (int k = 0; k < n; k++)
                    ops[k] = ub(8192u * k, 8192u * k + 64, !later);
                const dv_range_t one = ub(8192u * j + 32, 8192u * j + 48, later);
                if (later) {
                    rec.add(h.execute(DV_PIPE_MTE2, kNoClock, 0, 0, &one, 1));
                    rec.add(h.execute(DV_PIPE_V, kNoClock, 1, 0, ops, n));
                } else {
                    rec.add(h.execute(DV_PIPE_MTE2, kNoClock, 0, 0, ops, n));
                    rec.add(h.execute(DV_PIPE_V, kNoClock, 1, 0, &one, 1));
                }
                ck_assert_uint_eq(rec.found.size(), 1);
                ck_assert_int_eq(rec.found[0].kind, DV_HAZ_RAW);
                ck_assert_uint_eq(rec.found[0].lo, 8192u * j + 32);
                ck_assert_uint_eq(rec.found[0].hi, 8192u * j + 48);
            }
}
END_TEST

// Ordering: MTE2 writes; set_flag MTE2 -> V snapshots MTE2's clock (MTE2 has executed 1);
// wait_flag merges it into V, so V's read is ordered after the write: no hazard.  The same
// through the scalar unit: join_all (pipe_barrier ALL) gives S every pipe's clock, and V's read
// issued with S's clock is ordered.  Issued with the clock S had before the barrier, it races.
START_TEST(test_components_hazard_ordering)
{
    dv_range_t w = ub(0, 64, true), r = ub(0, 64, false);
    {
        HazardChecker h;
        Recorder rec;
        h.reset(kAiv);
        rec.add(h.execute(DV_PIPE_MTE2, kNoClock, 0, 0, &w, 1));
        const VClock snap = h.clock(DV_PIPE_MTE2);
        ck_assert_uint_eq(snap[DV_PIPE_MTE2], 1);
        h.merge(DV_PIPE_V, snap);
        rec.add(h.execute(DV_PIPE_V, kNoClock, 1, 0, &r, 1));
        ck_assert_uint_eq(rec.found.size(), 0);
    }
    {
        HazardChecker h;
        Recorder rec;
        h.reset(kAiv);
        const VClock before = h.clock(DV_PIPE_S);
        rec.add(h.execute(DV_PIPE_MTE2, kNoClock, 0, 0, &w, 1));
        h.join_all();
        rec.add(h.execute(DV_PIPE_V, h.clock(DV_PIPE_S), 1, 0, &r, 1));
        ck_assert_uint_eq(rec.found.size(), 0);
        rec.add(h.execute(DV_PIPE_MTE3, before, 2, 0, &w, 1)); // a write issued before the barrier
        ck_assert_uint_eq(rec.found.size(), 2);               // races with both earlier accesses
        ck_assert_int_eq(rec.found[0].kind, DV_HAZ_WAW);
        ck_assert_uint_eq(rec.found[0].pipe_first, DV_PIPE_MTE2);
        ck_assert_int_eq(rec.found[1].kind, DV_HAZ_WAR);
        ck_assert_uint_eq(rec.found[1].pipe_first, DV_PIPE_V);
    }
}
END_TEST

// Clocks carry their version, and merging one a pipe has already merged (or an older one of
// the same pipe's clock) is skipped: the result must be what merging every time gives.  MTE2 runs
// twice; V merges the second snapshot, then the first (no change), then S's clock after MTE3 ran
// (MTE3's entry arrives).  After a reset the clocks start from 0, and a snapshot from before it
// still merges its entries, as a plain merge would.
START_TEST(test_components_hazard_clock_versions)
{
    HazardChecker h;
    h.reset(kAiv);
    dv_range_t w = ub(0, 64, true);
    h.execute(DV_PIPE_MTE2, kNoClock, 0, 0, &w, 1);
    const VClock first = h.clock(DV_PIPE_MTE2);
    h.execute(DV_PIPE_MTE2, kNoClock, 1, 0, &w, 1);
    const VClock second = h.clock(DV_PIPE_MTE2);
    h.merge(DV_PIPE_V, second);
    ck_assert_uint_eq(h.clock(DV_PIPE_V)[DV_PIPE_MTE2], 2);
    h.merge(DV_PIPE_V, first);
    h.merge(DV_PIPE_V, second);
    ck_assert_uint_eq(h.clock(DV_PIPE_V)[DV_PIPE_MTE2], 2);
    h.execute(DV_PIPE_MTE3, kNoClock, 2, 0, &w, 1);
    h.join_all();
    h.merge(DV_PIPE_V, h.clock(DV_PIPE_S));
    ck_assert_uint_eq(h.clock(DV_PIPE_V)[DV_PIPE_MTE3], 1);
    ck_assert_uint_eq(h.clock(DV_PIPE_V)[DV_PIPE_MTE2], 2);
    h.reset(kAiv);
    ck_assert_uint_eq(h.clock(DV_PIPE_V)[DV_PIPE_MTE2], 0);
    h.merge(DV_PIPE_V, second);
    ck_assert_uint_eq(h.clock(DV_PIPE_V)[DV_PIPE_MTE2], 2);
}
END_TEST

// An instruction issued with the scalar clock version its pipe's last one carried adds nothing to
// the pipe's clock (execute passes over the merge); any other version, an older one included, is
// merged as before, and a new block forgets which version was the last.  V reads what MTE2 wrote
// only once the scalar unit has waited for MTE2: no hazard, also when a later read carries the
// version from before that wait, and in the next block a read issued with that (earlier block's)
// version is ordered after MTE2's first write, as every merge of an earlier block's clock is, and
// a second write races with it (WAR) and with the read after it (RAW).  Fails when a reset keeps
// the last version or a new one is passed over.
START_TEST(test_components_hazard_issue_clock_again)
{
    HazardChecker h;
    Recorder rec;
    h.reset(kAiv);
    dv_range_t w = ub(0, 64, true), r = ub(0, 64, false);
    const VClock before = h.clock(DV_PIPE_S);
    rec.add(h.execute(DV_PIPE_V, before, 0, 1, nullptr, 0));
    rec.add(h.execute(DV_PIPE_MTE2, before, 1, 2, &w, 1));
    h.merge(DV_PIPE_S, h.clock(DV_PIPE_MTE2)); // wait_flag on S for MTE2
    const VClock after = h.clock(DV_PIPE_S);
    rec.add(h.execute(DV_PIPE_V, after, 2, 3, &r, 1));
    rec.add(h.execute(DV_PIPE_V, before, 3, 4, &r, 1));
    rec.add(h.execute(DV_PIPE_V, after, 4, 5, &r, 1));
    rec.add(h.execute(DV_PIPE_V, after, 5, 6, &r, 1));
    ck_assert_uint_eq(rec.found.size(), 0);
    ck_assert_uint_eq(h.clock(DV_PIPE_V)[DV_PIPE_MTE2], 1);
    ck_assert_uint_eq(h.clock(DV_PIPE_V)[DV_PIPE_V], 5);
    h.reset(kAiv);
    rec.add(h.execute(DV_PIPE_MTE2, kNoClock, 0, 7, &w, 1));
    rec.add(h.execute(DV_PIPE_V, after, 1, 8, &r, 1));
    ck_assert_uint_eq(rec.found.size(), 0);
    ck_assert_uint_eq(h.clock(DV_PIPE_V)[DV_PIPE_MTE2], 1);
    // a second write with no wait races with that read (WAR) and with the next one (RAW)
    rec.add(h.execute(DV_PIPE_MTE2, kNoClock, 2, 9, &w, 1));
    rec.add(h.execute(DV_PIPE_V, after, 3, 10, &r, 1));
    ck_assert_uint_eq(rec.found.size(), 2);
    ck_assert_int_eq(rec.found[0].kind, DV_HAZ_WAR);
    ck_assert_uint_eq(rec.found[0].line_first, 8);
    ck_assert_uint_eq(rec.found[0].line_second, 9);
    ck_assert_int_eq(rec.found[1].kind, DV_HAZ_RAW);
    ck_assert_uint_eq(rec.found[1].line_first, 9);
    ck_assert_uint_eq(rec.found[1].line_second, 10);
}
END_TEST

// Reports: one per pair of instructions however many operands overlap, in execution order.
// MTE3 writes [0, 64) first, MTE2 writes it next (a WAW against MTE3), then V reads it through
// two operands: each of the two writers is reported once, MTE3's (executed first) before MTE2's,
// although the checker visits pipes in the order MTE2, MTE3.
START_TEST(test_components_hazard_reports_once_in_order)
{
    HazardChecker h;
    Recorder rec;
    h.reset(kAiv);
    dv_range_t w = ub(0, 64, true), two[2] = {ub(0, 32, false), ub(16, 64, false)};
    rec.add(h.execute(DV_PIPE_MTE3, kNoClock, 0, 0, &w, 1));
    rec.add(h.execute(DV_PIPE_MTE2, kNoClock, 1, 0, &w, 1));
    ck_assert_uint_eq(rec.found.size(), 1);
    rec.add(h.execute(DV_PIPE_V, kNoClock, 2, 0, two, 2));
    ck_assert_uint_eq(rec.found.size(), 3);
    ck_assert_uint_eq(rec.found[1].pipe_first, DV_PIPE_MTE3);
    ck_assert_uint_eq(rec.found[1].insn_first, 0);
    ck_assert_uint_eq(rec.found[2].pipe_first, DV_PIPE_MTE2);
    ck_assert_uint_eq(rec.found[2].insn_first, 1);
    ck_assert_uint_eq(rec.found[1].hi, 32); // the first overlapping operand names the bytes
}
END_TEST

// Pruning drops only accesses every other pipe is ordered after, so it never hides a race:
// MTE2 writes [0, 64), then 200 disjoint ranges (pruning runs every time the live accesses reach
// its threshold, from 64 on); V, which has executed nothing yet and never synchronised, then reads
// [0, 64): the write and the read race.  Once V waits for MTE2 (set/wait flag), a later V read is
// ordered after all of it.
START_TEST(test_components_hazard_pruning_keeps_races)
{
    HazardChecker h;
    Recorder rec;
    h.reset(kAiv);
    dv_range_t w = ub(0, 64, true), r = ub(0, 64, false);
    rec.add(h.execute(DV_PIPE_MTE2, kNoClock, 0, 0, &w, 1));
    for (uint64_t i = 1; i <= 200; i++) {
        dv_range_t x = ub(64 * i, 64 * i + 64, true);
        rec.add(h.execute(DV_PIPE_MTE2, kNoClock, i, 0, &x, 1));
    }
    rec.add(h.execute(DV_PIPE_V, kNoClock, 201, 0, &r, 1));
    ck_assert_uint_eq(rec.found.size(), 1);
    ck_assert_int_eq(rec.found[0].kind, DV_HAZ_RAW);
    ck_assert_uint_eq(rec.found[0].insn_first, 0);
    h.merge(DV_PIPE_V, h.clock(DV_PIPE_MTE2));
    for (uint64_t i = 0; i < 200; i++) {
        dv_range_t x = ub(64 * i, 64 * i + 64, false);
        rec.add(h.execute(DV_PIPE_V, kNoClock, 202 + i, 0, &x, 1));
    }
    ck_assert_uint_eq(rec.found.size(), 1);
}
END_TEST

// The cap (a pipe keeps its newest 4096 accesses once pruning finds more) counts accesses, not
// instructions, so it can cut an instruction in two.  V never runs, so pruning drops only what
// the cap does; it runs when the live accesses reach 64, 128, ... 4096 (all kept), then 8192.
// MTE2 writes 4096 ranges far from [0, 128), then one instruction writing [0, 64) and [64, 128)
// (MTE2's accesses 4096 and 4097, counting from 0), then 4093 far ranges (8191 accesses) and
// two more in one instruction: at 8193 the cap keeps accesses 4097 on, the second half of that
// instruction.  V's read of [0, 128) then races with it through [64, 128) only (without the cap,
// [0, 64) would name the bytes: it executed first).
START_TEST(test_components_hazard_cap_splits_an_instruction)
{
    HazardChecker h;
    Recorder rec;
    h.reset(kAiv);
    uint64_t index = 0;
    auto far = [&index](uint64_t k) { return ub(1 << 20 | 128 * index | 64 * k, (1 << 20 | 128 * index | 64 * k) + 64, true); };
    for (int i = 0; i < 4096; i++, index++) {
        dv_range_t x = far(0);
        rec.add(h.execute(DV_PIPE_MTE2, kNoClock, index, 0, &x, 1));
    }
    dv_range_t two[2] = {ub(0, 64, true), ub(64, 128, true)};
    rec.add(h.execute(DV_PIPE_MTE2, kNoClock, index++, 7, two, 2));
    for (int i = 0; i < 4093; i++, index++) {
        dv_range_t x = far(0);
        rec.add(h.execute(DV_PIPE_MTE2, kNoClock, index, 0, &x, 1));
    }
    dv_range_t last[2] = {far(0), far(1)};
    rec.add(h.execute(DV_PIPE_MTE2, kNoClock, index++, 0, last, 2));
    ck_assert_uint_eq(rec.found.size(), 0);
    dv_range_t r = ub(0, 128, false);
    rec.add(h.execute(DV_PIPE_V, kNoClock, index, 9, &r, 1));
    ck_assert_uint_eq(rec.found.size(), 1);
    ck_assert_int_eq(rec.found[0].kind, DV_HAZ_RAW);
    ck_assert_uint_eq(rec.found[0].insn_first, 4096);
    ck_assert_uint_eq(rec.found[0].line_first, 7);
    ck_assert_uint_eq(rec.found[0].lo, 64);
    ck_assert_uint_eq(rec.found[0].hi, 128);
}
END_TEST

// The cap is a pipe's newest 4,096 accesses whenever another pipe is checked against it, however
// seldom the checker prunes: MTE2 writes [0, 64), then `far` other ranges, with no flag between
// them; V and then S read [0, 64).  With 4,095 more the write is among MTE2's newest 4,096 and
// both race with it; with 4,096 more it is not, and neither does.
START_TEST(test_components_hazard_cap_is_the_newest)
{
    for (uint64_t far = 4095; far <= 4096; far++) {
        HazardChecker h;
        Recorder rec;
        h.reset(kAiv);
        dv_range_t w = ub(0, 64, true);
        rec.add(h.execute(DV_PIPE_MTE2, kNoClock, 0, 3, &w, 1));
        for (uint64_t i = 1; i <= far; i++) {
            dv_range_t x = ub(1 << 20 | 64 * i, (1 << 20 | 64 * i) + 64, true);
            rec.add(h.execute(DV_PIPE_MTE2, kNoClock, i, 0, &x, 1));
        }
        ck_assert_uint_eq(rec.found.size(), 0);
        dv_range_t r = ub(0, 64, false);
        rec.add(h.execute(DV_PIPE_V, kNoClock, far + 1, 9, &r, 1));
        rec.add(h.execute(DV_PIPE_S, kNoClock, far + 2, 10, &r, 1));
        const size_t expect = far == 4095 ? 2 : 0;
        ck_assert_uint_eq(rec.found.size(), expect);
        for (size_t i = 0; i < expect; i++) {
            ck_assert_int_eq(rec.found[i].kind, DV_HAZ_RAW);
            ck_assert_uint_eq(rec.found[i].insn_first, 0);
            ck_assert_uint_eq(rec.found[i].line_first, 3);
        }
    }
}
END_TEST

// A long synchronised stream, then a race: MTE2 writes 127 ranges, V waiting for each (merging
// MTE2's clock), so pruning forgets them and the checker reuses its space for later ones; then
// MTE2 writes [0, 64) twice with no wait, and V reads [0, 64): it races with both writes, reported
// in execution order, however the checker stores them.
START_TEST(test_components_hazard_long_stream_then_race)
{
    HazardChecker h;
    Recorder rec;
    h.reset(kAiv);
    uint64_t index = 0;
    for (int i = 0; i < 127; i++, index++) {
        dv_range_t x = ub(64 * (i % 8), 64 * (i % 8) + 64, true);
        rec.add(h.execute(DV_PIPE_MTE2, kNoClock, index, 0, &x, 1));
        h.merge(DV_PIPE_V, h.clock(DV_PIPE_MTE2));
    }
    dv_range_t w = ub(0, 64, true), r = ub(0, 64, false);
    rec.add(h.execute(DV_PIPE_MTE2, kNoClock, index++, 0, &w, 1));
    rec.add(h.execute(DV_PIPE_MTE2, kNoClock, index++, 0, &w, 1));
    ck_assert_uint_eq(rec.found.size(), 0);
    rec.add(h.execute(DV_PIPE_V, kNoClock, index, 0, &r, 1));
    ck_assert_uint_eq(rec.found.size(), 2);
    ck_assert_uint_eq(rec.found[0].insn_first, 127);
    ck_assert_uint_eq(rec.found[1].insn_first, 128);
}
END_TEST

// MTE2 writes L ranges, V and MTE3 ordered after all but the last three (so pruning forgets the
// rest and the storage is reused round and round), the three newest `gap` bytes apart; V then reads
// what the third last wrote.  One hazard, with that write, for every L: across L = 250 to 261 the
// three fall everywhere around the point where the storage wraps (with its sizes today, L = 256 to
// 258 put them across it).
static void hazard_race_with_third_newest(uint64_t gap)
{
    for (uint64_t len = 250; len < 262; len++) {
        HazardChecker h;
        Recorder rec;
        h.reset(kAiv);
        for (uint64_t i = 0; i < len; i++) {
            const bool late = i + 3 >= len;
            const uint64_t lo = late ? 100000 + gap * (i + 3 - len) : 64 * (i % 8);
            dv_range_t x = ub(lo, lo + 64, true);
            rec.add(h.execute(DV_PIPE_MTE2, kNoClock, i, 0, &x, 1));
            if (!late) {
                h.merge(DV_PIPE_V, h.clock(DV_PIPE_MTE2));
                h.merge(DV_PIPE_MTE3, h.clock(DV_PIPE_MTE2));
            }
        }
        ck_assert_uint_eq(rec.found.size(), 0);
        dv_range_t r = ub(100000, 100064, false);
        rec.add(h.execute(DV_PIPE_V, kNoClock, len, 0, &r, 1));
        ck_assert_uint_eq(rec.found.size(), 1);
        ck_assert_int_eq(rec.found[0].kind, DV_HAZ_RAW);
        ck_assert_uint_eq(rec.found[0].insn_first, len - 3);
        ck_assert_uint_eq(rec.found[0].lo, 100000);
    }
}

// The first look for a race and the walk that collects them agree wherever the unordered
// instructions lie in the checker's storage (the three newest writes 64 bytes apart: one bucket).
START_TEST(test_components_hazard_race_across_the_wrap)
{
    hazard_race_with_third_newest(64);
}
END_TEST

// A pipe's storage grows in place while its instructions do not wrap around its end, and by a copy
// when they do: what is a hazard must not depend on which.  MTE2 writes `sync` blocks that V and
// MTE3 are ordered after (forgotten: the storage, 128 slots, is reused round and round), then
// `loose` blocks nothing is ordered after (kept: the storage grows); V then reads all the loose
// ones at once: one RAW with each, in order.  With sync 0 the storage grows 32, 128, 512, 2048 in
// place; with sync 100 to 142 the loose ones start all around its end, and it grows by a copy.
START_TEST(test_components_hazard_ring_grows)
{
    for (uint64_t sync : {0, 100, 107, 114, 121, 128, 135, 142}) {
        const uint64_t loose = sync ? 200 : 600;
        HazardChecker h;
        Recorder rec;
        h.reset(kAiv);
        uint64_t index = 0;
        for (; index < sync; index++) {
            dv_range_t x = ub(64 * (index % 8), 64 * (index % 8) + 64, true);
            rec.add(h.execute(DV_PIPE_MTE2, kNoClock, index, 0, &x, 1));
            h.merge(DV_PIPE_V, h.clock(DV_PIPE_MTE2));
            h.merge(DV_PIPE_MTE3, h.clock(DV_PIPE_MTE2));
        }
        for (uint64_t i = 0; i < loose; i++, index++) {
            dv_range_t x = ub(4096 + 64 * i, 4096 + 64 * i + 64, true);
            rec.add(h.execute(DV_PIPE_MTE2, kNoClock, index, 0, &x, 1));
        }
        ck_assert_uint_eq(rec.found.size(), 0);
        dv_range_t r = ub(4096, 4096 + 64 * loose, false);
        rec.add(h.execute(DV_PIPE_V, kNoClock, index, 0, &r, 1));
        ck_assert_uint_eq(rec.found.size(), loose);
        for (uint64_t i = 0; i < loose; i++) {
            ck_assert_int_eq(rec.found[i].kind, DV_HAZ_RAW);
            ck_assert_uint_eq(rec.found[i].insn_first, sync + i);
            ck_assert_uint_eq(rec.found[i].lo, 4096 + 64 * i);
            ck_assert_uint_eq(rec.found[i].hi, 4096 + 64 * i + 64);
        }
    }
}
END_TEST

// execute passes over a pipe whose newest instruction (two newest) with accesses share no bucket
// with the new one when it is ordered after all but that one (those two), and walks the rest:
// what is a hazard must not depend on it.  MTE2 writes three UB blocks 8 KB apart (their own
// buckets), one after another or with an instruction without accesses between them; V, ordered
// after MTE2's first k instructions (k = 0 to all of them), reads one block: it races exactly
// when that write is not among them.
START_TEST(test_components_hazard_recent_buckets)
{
    const uint64_t at[3] = {0, 8192, 16384};
    for (int gap = 0; gap < 2; gap++)
        for (int k = 0; k <= 3 + 2 * gap; k++)
            for (int b = 0; b < 3; b++) {
                HazardChecker h;
                Recorder rec;
                h.reset(kAiv);
                VClock snap = h.clock(DV_PIPE_MTE2);
                uint64_t seq = 0, wrote_at = 0; // MTE2's instructions so far; the one that wrote block b
                for (int i = 0; i < 3; i++) {
                    dv_range_t w = ub(at[i], at[i] + 64, true);
                    rec.add(h.execute(DV_PIPE_MTE2, kNoClock, seq, 0, &w, 1));
                    if (++seq == static_cast<uint64_t>(k))
                        snap = h.clock(DV_PIPE_MTE2);
                    if (i == b)
                        wrote_at = seq;
                    if (gap && i < 2) { // one without accesses
                        rec.add(h.execute(DV_PIPE_MTE2, kNoClock, seq, 0, nullptr, 0));
                        if (++seq == static_cast<uint64_t>(k))
                            snap = h.clock(DV_PIPE_MTE2);
                    }
                }
                ck_assert_uint_eq(rec.found.size(), 0);
                if (k > 0)
                    h.merge(DV_PIPE_V, snap);
                dv_range_t r = ub(at[b] + 8, at[b] + 16, false);
                rec.add(h.execute(DV_PIPE_V, kNoClock, 100, 0, &r, 1));
                const bool races = wrote_at > static_cast<uint64_t>(k);
                ck_assert_uint_eq(rec.found.size(), races ? 1u : 0u);
                if (races) {
                    ck_assert_int_eq(rec.found[0].kind, DV_HAZ_RAW);
                    ck_assert_uint_eq(rec.found[0].insn_first, wrote_at - 1);
                    ck_assert_uint_eq(rec.found[0].lo, at[b] + 8);
                }
            }
}
END_TEST

// As above, with the three newest writes 8 KB apart (UB buckets 24, 26 and 28): the two newest
// share no bucket with the read, so the first look steps over them without comparing and walks on
// from the third, wherever the storage wraps among them; the race with the third is found.
START_TEST(test_components_hazard_race_past_the_two_newest)
{
    hazard_race_with_third_newest(8192);
}
END_TEST

// The walk passes over an earlier instruction with no bucket (a few KB of one space, one bit each)
// in common with the new one, and compares the accesses of the rest: what is a hazard must not
// depend on where the buckets fall.  MTE2 writes, then V reads, each pair on its own checker:
// across a bucket edge (UB's are 4 KB), one byte in common; 256 KB apart, in one bit of UB's
// buckets but disjoint; the same offsets of two GM arguments; a 1 MB GM write (every GM bit) and
// a disjoint read of the same argument; the same offset in L1 and L0A; an empty read inside the
// write (the overlap test counts it: lo < hi of the write and lo > lo of the write), also at a
// bucket's start, and reversed reads (one the overlap test counts, one with hi 0 it does not).
START_TEST(test_components_hazard_buckets)
{
    auto gm = [](uint16_t arg, uint64_t lo, uint64_t hi, bool write) {
        dv_range_t r = ub(lo, hi, write);
        r.space = DV_SPACE_GM;
        r.arg = arg;
        return r;
    };
    auto in = [](uint8_t space, dv_range_t r) {
        r.space = space;
        return r;
    };
    struct Case {
        dv_range_t w, r;
        size_t hazards;
        uint64_t lo, hi;
    } cases[] = {
        {ub(0, 4097, true), ub(4096, 8192, false), 1, 4096, 4097},
        {ub(4095, 4096, true), ub(4096, 8192, false), 0, 0, 0},
        {ub(0, 64, true), ub(262144, 262144 + 64, false), 0, 0, 0},
        {gm(0, 0, 64, true), gm(1, 0, 64, false), 0, 0, 0},
        {gm(2, 0, 1 << 20, true), gm(2, 1 << 20, (1 << 20) + 64, false), 0, 0, 0},
        {gm(2, 0, 1 << 20, true), gm(2, 5000, 5064, false), 1, 5000, 5064},
        {in(DV_SPACE_L1, ub(0, 64, true)), in(DV_SPACE_L0A, ub(0, 64, false)), 0, 0, 0},
        {ub(40000, 50000, true), ub(45000, 45000, false), 1, 45000, 45000},
        // empty and reversed ranges whose hi - 1 falls before lo's bucket (12, from 49152)
        {ub(40000, 50000, true), ub(49152, 49152, false), 1, 49152, 49152},
        {ub(40000, 50000, true), ub(49162, 41000, false), 1, 49162, 41000},
        {ub(40000, 50000, true), ub(49162, 0, false), 0, 0, 0},
    };
    for (const Case &c : cases) {
        HazardChecker h;
        Recorder rec;
        h.reset(kAiv | 1u << DV_PIPE_MTE1);
        rec.add(h.execute(DV_PIPE_MTE2, kNoClock, 0, 0, &c.w, 1));
        rec.add(h.execute(DV_PIPE_V, kNoClock, 1, 0, &c.r, 1));
        ck_assert_uint_eq(rec.found.size(), c.hazards);
        if (c.hazards) {
            ck_assert_int_eq(rec.found[0].kind, DV_HAZ_RAW);
            ck_assert_uint_eq(rec.found[0].lo, c.lo);
            ck_assert_uint_eq(rec.found[0].hi, c.hi);
        }
    }
}
END_TEST

// The scalar unit executes accesses too (ld_ub, st_ub, ld_gm, st_gm), and most kernels never make
// it wait, so the checker forgets an access once every other pipe is ordered after it, but keeps
// the newest 16 it forgot per pipe for the scalar unit to compare with.  Each case: a pipe's access
// (instruction 0, line 7) that the other two pipes then wait for (merge its clock), 160
// instructions of those two elsewhere (pruning runs and forgets the first), then the scalar unit's
// access (instruction 161, line 200) with no wait: one hazard, as without the 160 between (RAW,
// WAR and WAW on UB and on GM).  Ordered (S waits for the pipe, or pipe_barrier ALL), none.
START_TEST(test_components_hazard_scalar_after_forgotten)
{
    auto gm = [](uint16_t arg, uint64_t lo, uint64_t hi, bool write) {
        dv_range_t r = ub(lo, hi, write);
        r.space = DV_SPACE_GM;
        r.arg = arg;
        return r;
    };
    struct Case {
        dv_pipe_t pipe;
        dv_range_t first, s;
        int kind;
        uint64_t lo, hi;
    } cases[] = {
        {DV_PIPE_V, ub(0x8000, 0x8200, true), ub(0x8000, 0x8002, false), DV_HAZ_RAW, 0x8000, 0x8002},
        {DV_PIPE_MTE3, ub(0x8000, 0x8200, false), ub(0x8100, 0x8102, true), DV_HAZ_WAR, 0x8100, 0x8102},
        {DV_PIPE_V, ub(0x8000, 0x8200, true), ub(0x81fe, 0x8206, true), DV_HAZ_WAW, 0x81fe, 0x8200},
        {DV_PIPE_MTE3, gm(1, 0x400, 0x600, true), gm(1, 0x500, 0x504, false), DV_HAZ_RAW, 0x500, 0x504},
        {DV_PIPE_MTE2, gm(0, 0, 0x200, false), gm(0, 0x10, 0x12, true), DV_HAZ_WAR, 0x10, 0x12},
        {DV_PIPE_MTE3, gm(1, 0x400, 0x600, true), gm(1, 0x5f8, 0x600, true), DV_HAZ_WAW, 0x5f8, 0x600},
    };
    const dv_pipe_t three[3] = {DV_PIPE_V, DV_PIPE_MTE2, DV_PIPE_MTE3};
    for (const Case &c : cases)
        for (int between : {0, 160})
            for (int order = 0; order < 3; order++) { // 0: no wait; 1: S waits for the pipe; 2: barrier
                HazardChecker h;
                Recorder rec;
                h.reset(kAiv);
                rec.add(h.execute(c.pipe, kNoClock, 0, 7, &c.first, 1));
                dv_pipe_t other[2];
                int no = 0;
                for (dv_pipe_t p : three)
                    if (p != c.pipe) {
                        h.merge(p, h.clock(c.pipe));
                        other[no++] = p;
                    }
                for (int i = 0; i < between; i++) { // disjoint from everything else
                    dv_range_t x = ub(0x20000 + 0x10000 * (i & 1) + 64 * i, 0x20000 + 0x10000 * (i & 1) + 64 * i + 64, true);
                    rec.add(h.execute(other[i & 1], kNoClock, 1 + i, 8 + i, &x, 1));
                }
                ck_assert_uint_eq(rec.found.size(), 0);
                if (order == 1)
                    h.merge(DV_PIPE_S, h.clock(c.pipe));
                if (order == 2)
                    h.join_all();
                rec.add(h.execute(DV_PIPE_S, h.clock(DV_PIPE_S), 161, 200, &c.s, 1));
                if (order) {
                    ck_assert_uint_eq(rec.found.size(), 0);
                    continue;
                }
                ck_assert_uint_eq(rec.found.size(), 1);
                const dv_hazard_t &x = rec.found[0];
                ck_assert_int_eq(x.kind, c.kind);
                ck_assert_uint_eq(x.pipe_first, c.pipe);
                ck_assert_uint_eq(x.pipe_second, DV_PIPE_S);
                ck_assert_uint_eq(x.insn_first, 0);
                ck_assert_uint_eq(x.insn_second, 161);
                ck_assert_uint_eq(x.line_first, 7);
                ck_assert_uint_eq(x.line_second, 200);
                ck_assert_uint_eq(x.space, c.s.space);
                ck_assert_uint_eq(x.arg, c.s.arg);
                ck_assert_uint_eq(x.lo, c.lo);
                ck_assert_uint_eq(x.hi, c.hi);
            }
}
END_TEST

// What the scalar unit still compares with is bounded: of the accesses forgotten on a pipe, the
// newest 16 instructions.  V writes [0x8000, 0x8200), then k more V writes elsewhere, MTE2 and
// MTE3 waiting for each; the scalar unit's read of 0x8000 finds the first for k = 15 (it is the
// 16th newest), not for k = 16.  Whichever it finds it reports in execution order.
START_TEST(test_components_hazard_scalar_keeps_newest)
{
    for (int k = 14; k <= 17; k++) {
        HazardChecker h;
        Recorder rec;
        h.reset(kAiv);
        for (int i = 0; i <= k; i++) {
            // every V write covers the scalar read's bytes from the second on: all race with it
            dv_range_t w = i == 0 ? ub(0x8000, 0x8200, true) : ub(0x7ff0 - 16 * i, 0x8001, true);
            rec.add(h.execute(DV_PIPE_V, kNoClock, i, 7 + i, &w, 1));
            h.merge(DV_PIPE_MTE2, h.clock(DV_PIPE_V));
            h.merge(DV_PIPE_MTE3, h.clock(DV_PIPE_V));
        }
        dv_range_t r = ub(0x8000, 0x8001, false);
        rec.add(h.execute(DV_PIPE_S, h.clock(DV_PIPE_S), k + 1, 300, &r, 1));
        const size_t want = static_cast<size_t>(std::min(k + 1, 16));
        ck_assert_uint_eq(rec.found.size(), want);
        for (size_t j = 0; j < want; j++) // the oldest kept first
            ck_assert_uint_eq(rec.found[j].insn_first, static_cast<uint64_t>(k + 1) - want + j);
    }
}
END_TEST

// ---------------------------------------------------------------- the V pipe's issue-time decode

// dv_vec_footprint (one decode, what the core does when it issues a V-pipe instruction) says exactly
// what dv_footprint and dv_vec_geometry say on their own: every opcode with random field values in
// range (sometimes an out-of-set dtype), in normal mode with full, random and empty masks and in
// count mode.
START_TEST(test_components_vec_footprint_one_decode)
{
    uint64_t seed = 12345;
    auto rnd = [&seed]() {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return seed >> 17;
    };
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const dv_op_spec_t *os = dv_op_spec(static_cast<dv_op_t>(op));
        const dv_form_spec_t *fs = dv_form_spec(os->form);
        for (int iter = 0; iter < 200; iter++) {
            dv_insn_t in;
            dv_insn_init(&in, static_cast<dv_op_t>(op));
            for (int i = 0; i < fs->nfields; i++) {
                const dv_field_spec_t *fd = &fs->fields[i];
                switch (fd->kind) {
                case DV_FK_ADDR: {
                    const int sp = fd->space == DV_FS_DST   ? static_cast<int>(os->dst_space)
                                   : fd->space == DV_FS_SRC ? static_cast<int>(os->src_space)
                                                            : fd->space;
                    in.f[i].u = sp == DV_SPACE_GM ? DV_GM_ADDR(rnd() % 2, 32 * (rnd() % 64)) : DV_ADDR(sp, 32 * (rnd() % 64));
                    break;
                }
                case DV_FK_DTYPE: in.f[i].i = static_cast<int64_t>(rnd() % DV_DT_COUNT); break; // some not in the set
                case DV_FK_F64: in.f[i].d = static_cast<double>(rnd() % 100) / 3; break;
                case DV_FK_U64: in.f[i].u = rnd(); break;
                default: {
                    const int64_t hi = fd->max < fd->min + 300 ? fd->max : fd->min + 300;
                    in.f[i].i = fd->min + static_cast<int64_t>(rnd() % static_cast<uint64_t>(hi - fd->min + 1));
                }
                }
            }
            dv_vstate_t vs;
            dv_vstate_reset(&vs);
            switch (iter % 4) {
            case 1: vs.hi = rnd() & rnd(), vs.lo = rnd() & rnd(); break;
            case 2: vs.hi = vs.lo = 0; break;
            case 3: vs.count_mode = true, vs.lo = rnd() % 5000; break;
            default: break;
            }
            dv_range_t a[DV_MAX_RANGES], b[DV_MAX_RANGES];
            dv_vgeom_t ga, gb;
            std::memset(&ga, 0x5a, sizeof ga);
            std::memset(&gb, 0xa5, sizeof gb);
            const int na = dv_vec_footprint(&in, &vs, a, &ga);
            const int nb = dv_footprint(&in, &vs, b);
            dv_vec_geometry(&in, &vs, &gb);
            ck_assert_int_eq(na, nb);
            for (int k = 0; k < na; k++) {
                ck_assert_uint_eq(a[k].space, b[k].space);
                ck_assert_uint_eq(a[k].write, b[k].write);
                ck_assert_uint_eq(a[k].arg, b[k].arg);
                ck_assert_uint_eq(a[k].lo, b[k].lo);
                ck_assert_uint_eq(a[k].hi, b[k].hi);
            }
            ck_assert_msg(ga.repeats == gb.repeats && ga.elems_per_repeat == gb.elems_per_repeat &&
                              ga.elems == gb.elems && ga.nops == gb.nops,
                          "%s: geometry differs", os->mnemonic);
            for (int k = 0; k < ga.nops; k++)
                ck_assert_msg(ga.ops[k].base == gb.ops[k].base && ga.ops[k].blk_bytes == gb.ops[k].blk_bytes &&
                                  ga.ops[k].blk_stride == gb.ops[k].blk_stride &&
                                  ga.ops[k].rep_stride == gb.ops[k].rep_stride && ga.ops[k].write == gb.ops[k].write,
                              "%s: operand %d differs", os->mnemonic, k);
        }
    }
}
END_TEST

// ---------------------------------------------------------------- the V pipe's bank conflicts

// A V unit with ub_banks banks in `groups` groups, 256-byte repeats and one rate for every class.
static VectorUnit *vec_unit(uint64_t banks, uint64_t groups)
{
    static int n = 0;
    VectorUnit::Params p{};
    p.repeat_bytes = 256;
    p.pipeline_cycles = 0;
    for (auto &r : p.rate)
        r = VectorUnit::Params::Rate{{128, 64}, {1, 1}};
    p.ub_banks = banks;
    p.ub_bank_groups = groups;
    const std::string name = "vec" + std::to_string(n++);
    return new VectorUnit(name.c_str(), p);
}

// A unit whose own memo is empty asks the memo its thread's units share: what it finds there is
// the layout's count.  One read operand of 32-byte datablocks, 16 banks in 8 groups: with a block
// stride of 0 the 8 datablocks are one row (1 cycle, no conflict); with a stride of 512 bytes (the
// bank span, the same offsets modulo it) they are 8 rows of bank 0 (8 cycles: 7 of conflict).
// Then random layouts (strides of 0, under a row, whole rows and multiples of the span; two bank
// geometries), each on a new unit after the shared memo has met many: the conflicts cost() gives
// are count()'s.
START_TEST(test_components_vec_conflicts_shared_memo)
{
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_vadd);
    dv_vgeom_t g{};
    g.repeats = 1;
    g.nops = 1;
    g.ops[0] = dv_vop_t{0, 32, 0, 256, false};
    ck_assert_uint_eq(vec_unit(16, 8)->cost(in, g).conflict, 0);
    g.ops[0].blk_stride = 512;
    ck_assert_uint_eq(vec_unit(16, 8)->cost(in, g).conflict, 7);

    uint64_t seed = 99;
    auto rnd = [&seed]() {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return seed >> 17;
    };
    for (int iter = 0; iter < 400; iter++) {
        const bool wide = iter % 3 == 0;
        const uint64_t banks = wide ? 32 : 16, span = banks * 32;
        g = dv_vgeom_t{};
        g.repeats = static_cast<uint32_t>(1 + rnd() % 40);
        g.nops = static_cast<int>(1 + rnd() % 3);
        for (int k = 0; k < g.nops; k++) {
            const uint64_t strides[] = {0, 8, 16, 32, 64, span, 2 * span, span + 8};
            g.ops[k] = dv_vop_t{32 * (rnd() % 8) + (rnd() % 2 ? rnd() % 32 : 0), 8u << (rnd() % 3),
                                strides[rnd() % 8], rnd() % 3 == 0 ? span : 32 * (rnd() % 4), k == 0};
        }
        VectorUnit *u = vec_unit(banks, wide ? 4 : 8);
        ck_assert_uint_eq(u->cost(in, g).conflict, u->count(g));
    }
}
END_TEST

// The last layouts a unit met, as they came (VectorUnit::seen_): one unit is given, 20 times over,
// 2,000 layouts drawn from a few (mostly the same two, as a double-buffered loop gives them) and
// from copies of them with one field changed (a layout seen_ must not take for the original): the
// conflicts cost() gives are count()'s every time.
START_TEST(test_components_vec_conflicts_seen_layouts)
{
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_vadd);
    uint64_t seed = 7;
    auto rnd = [&seed]() {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return seed >> 17;
    };
    for (int round = 0; round < 20; round++) {
        VectorUnit *u = vec_unit(round % 2 ? 32 : 16, round % 2 ? 4 : 8);
        dv_vgeom_t pool[4];
        for (dv_vgeom_t &g : pool) {
            g = dv_vgeom_t{};
            g.repeats = static_cast<uint32_t>(1 + rnd() % 40);
            g.nops = static_cast<int>(1 + rnd() % 3);
            for (int k = 0; k < g.nops; k++) {
                const uint64_t strides[] = {0, 8, 32, 64, 512, 1024};
                g.ops[k] = dv_vop_t{32 * (rnd() % 64), 8u << (rnd() % 3), strides[rnd() % 6],
                                    32 * (rnd() % 9), k == 0};
            }
        }
        for (int call = 0; call < 2000; call++) {
            dv_vgeom_t g = pool[rnd() % 8 < 6 ? call % 2 : 2 + rnd() % 2];
            if (rnd() % 4 == 0) { // one field of one operand (or the repeats) changed
                const int k = static_cast<int>(rnd() % g.nops);
                switch (rnd() % 6) {
                case 0: g.ops[k].base += 32 * (1 + rnd() % 4); break;
                case 1: g.ops[k].blk_bytes = g.ops[k].blk_bytes == 32 ? 16 : 32; break;
                case 2: g.ops[k].blk_stride += 32; break;
                case 3: g.ops[k].rep_stride += 32; break;
                case 4: g.ops[k].write = !g.ops[k].write; break;
                default: g.repeats += 1; break;
                }
            }
            ck_assert_uint_eq(u->cost(in, g).conflict, u->count(g));
        }
    }
}
END_TEST

// ---------------------------------------------------------------- the critical path

// The steps of a chain, sorted by key (CriticalPath::steps leaves them unordered).
static std::vector<CriticalPath::Step> sorted_steps(const CriticalPath &path, CriticalPath::Ref r, cycles_t &start)
{
    std::vector<CriticalPath::Step> v = path.steps(r, start);
    std::sort(v.begin(), v.end(), [](const CriticalPath::Step &a, const CriticalPath::Step &b) { return a.key < b.key; });
    return v;
}

// r's chain starts at `start` and has the steps `want` (key, cycles, count), in key order.
static void expect_steps(const CriticalPath &path, CriticalPath::Ref r, cycles_t start,
                         std::initializer_list<CriticalPath::Step> want)
{
    cycles_t got_start = 0;
    const std::vector<CriticalPath::Step> s = sorted_steps(path, r, got_start);
    ck_assert_uint_eq(got_start, start);
    ck_assert_uint_eq(s.size(), want.size());
    for (size_t i = 0; i < s.size(); i++) {
        const CriticalPath::Step &w = want.begin()[i];
        ck_assert_msg(s[i].key == w.key && s[i].cycles == w.cycles && s[i].count == w.count,
                      "step %zu: key %u, %llu cycles in %llu, expected key %u, %llu in %llu", i, s[i].key,
                      (unsigned long long)s[i].cycles, (unsigned long long)s[i].count, w.key,
                      (unsigned long long)w.cycles, (unsigned long long)w.count);
    }
}

// root at 10 -> a at 15 (key 1) -> b at 25 (key 2) -> c at 27 (key 1), and d at 40 (key 3) from
// a: c's chain is key 1 (15 - 10) + (27 - 25) = 7 cycles in 2 steps, key 2 10 cycles in 1; d's is
// key 1 5 in 1 and key 3 25 in 1; both start at 10.  A node's links stay while a later node
// holds it: releasing a and b (the callers' references) frees nothing; releasing c then frees c
// and b, and d then d, a and the root.
START_TEST(test_components_path_steps_by_key)
{
    CriticalPath path;
    const CriticalPath::Ref root = path.root(10);
    const CriticalPath::Ref a = path.extend(root, 15, 1);
    path.release(root);
    const CriticalPath::Ref b = path.extend(a, 25, 2);
    const CriticalPath::Ref c = path.extend(b, 27, 1);
    const CriticalPath::Ref d = path.extend(a, 40, 3);
    path.release(a);
    path.release(b);
    ck_assert_uint_eq(path.live(), 5);
    ck_assert_uint_eq(path.time(c), 27);
    expect_steps(path, c, 10, {{1, 7, 2}, {2, 10, 1}});
    expect_steps(path, d, 10, {{1, 5, 1}, {3, 25, 1}});
    path.release(c);
    ck_assert_uint_eq(path.live(), 3);
    path.release(d);
    ck_assert_uint_eq(path.live(), 0);
    ck_assert_uint_eq(path.peak(), 5);
    // No node: no steps, start 0; a node extended from no node starts at its own link's start,
    // and a link from it with the same key starts a run of its own (the start's key is no link's).
    expect_steps(path, CriticalPath::kNone, 0, {});
    const CriticalPath::Ref e = path.extend(CriticalPath::kNone, 7, 4);
    expect_steps(path, e, 7, {});
    const CriticalPath::Ref f = path.extend_from(e, 9, 4);
    const CriticalPath::Ref g = path.extend(f, 12, 4);
    expect_steps(path, g, 7, {{4, 5, 2}});
    path.release(f); // g continues f's run of key 4 down to e: f has nothing left to keep it
    ck_assert_uint_eq(path.live(), 2);
    path.release(g);
    ck_assert_uint_eq(path.live(), 0);
    ck_assert_uint_eq(path.peak(), 5); // freed nodes are used again
}
END_TEST

// A chain of 1000 links held only at its tip (extend_from hands the reference over), link i
// charged i % 7 + 1 cycles to key (i / 3) % 5 (runs of three alike): the steps are the sums
// worked out here link by link, however often the chain folded, and no more than kFold + 2 nodes
// were ever alive (the kFold + 1 of a full chain and the node that folds it).
START_TEST(test_components_path_fold_exact)
{
    CriticalPath path;
    CriticalPath::Ref tip = path.root(100);
    cycles_t t = 100;
    uint64_t cycles[5] = {}, count[5] = {};
    for (unsigned i = 0; i < 1000; i++) {
        const uint32_t key = (i / 3) % 5;
        t += i % 7 + 1;
        cycles[key] += i % 7 + 1;
        count[key]++;
        tip = path.extend_from(tip, t, key);
        ck_assert_uint_le(path.live(), CriticalPath::kFold + 1);
    }
    ck_assert_uint_le(path.peak(), CriticalPath::kFold + 2);
    cycles_t start = 0;
    const std::vector<CriticalPath::Step> s = sorted_steps(path, tip, start);
    ck_assert_uint_eq(start, 100);
    ck_assert_uint_eq(s.size(), 5);
    for (uint32_t k = 0; k < 5; k++) {
        ck_assert_uint_eq(s[k].key, k);
        ck_assert_uint_eq(s[k].cycles, cycles[k]);
        ck_assert_uint_eq(s[k].count, count[k]);
    }
    path.release(tip);
    ck_assert_uint_eq(path.live(), 0);
}
END_TEST

// Random work against a plain model that keeps every node: roots, extend and extend_from from
// held references, retains and releases, over 150 keys (more than a fold's links, so summaries
// and links meet in every way, and keys share hash slots).  Every held node's time and steps are
// the plain model's, the nodes alive are at most kFold + 1 per held reference, and releasing
// everything frees every node.
START_TEST(test_components_path_matches_plain_model)
{
    struct Plain {
        cycles_t time;
        long parent; // -1: a chain's start
        uint32_t key;
    };
    std::vector<Plain> plain;
    struct Held {
        CriticalPath::Ref ref;
        long node; // into plain
    };
    std::vector<Held> held;
    uint64_t seed = 2024;
    auto rnd = [&seed]() {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return seed >> 33;
    };
    CriticalPath path;
    for (int round = 0; round < 2; round++) { // the second after a reset
        path.reset();
        plain.clear();
        held.clear();
        for (int op = 0; op < 30000; op++) {
            const unsigned what = static_cast<unsigned>(rnd() % 100);
            if (held.empty() || what < 1) {
                const cycles_t t = rnd() % 1000;
                held.push_back(Held{path.root(t), static_cast<long>(plain.size())});
                plain.push_back(Plain{t, -1, 0});
            } else if (what < 70 || (what >= 76 && held.size() <= 12)) {
                // extend, mostly the first reference (a frontier moving on), as often as not with
                // the key of the link it continues; the new node takes the old one's place
                const size_t i = rnd() % 4 ? 0 : rnd() % held.size();
                const Held h = held[i];
                const cycles_t t = plain[static_cast<size_t>(h.node)].time + rnd() % 50;
                const uint32_t key = rnd() % 2 ? plain[static_cast<size_t>(h.node)].key : static_cast<uint32_t>(rnd() % 150) << 3;
                const bool hand_over = rnd() % 2;
                const CriticalPath::Ref r = hand_over ? path.extend_from(h.ref, t, key) : path.extend(h.ref, t, key);
                if (!hand_over)
                    held.push_back(h);
                held[i] = Held{r, static_cast<long>(plain.size())};
                plain.push_back(Plain{t, h.node, key});
            } else if (what < 73) {
                const Held h = held[rnd() % held.size()];
                path.retain(h.ref);
                held.push_back(h);
            } else if (what >= 76) {
                const size_t i = 1 + rnd() % (held.size() - 1); // the frontier stays
                path.release(held[i].ref);
                held.erase(held.begin() + static_cast<long>(i));
            } else {
                const Held h = held[rnd() % held.size()];
                ck_assert_uint_eq(path.time(h.ref), plain[static_cast<size_t>(h.node)].time);
                std::map<uint32_t, std::pair<uint64_t, uint64_t>> want;
                long n = h.node;
                for (; plain[static_cast<size_t>(n)].parent >= 0; n = plain[static_cast<size_t>(n)].parent) {
                    auto &w = want[plain[static_cast<size_t>(n)].key];
                    w.first += plain[static_cast<size_t>(n)].time - plain[static_cast<size_t>(plain[static_cast<size_t>(n)].parent)].time;
                    w.second++;
                }
                cycles_t start = 0;
                const std::vector<CriticalPath::Step> s = sorted_steps(path, h.ref, start);
                ck_assert_uint_eq(start, plain[static_cast<size_t>(n)].time);
                ck_assert_uint_eq(s.size(), want.size());
                size_t k = 0;
                for (const auto &w : want) {
                    ck_assert_uint_eq(s[k].key, w.first);
                    ck_assert_uint_eq(s[k].cycles, w.second.first);
                    ck_assert_uint_eq(s[k].count, w.second.second);
                    k++;
                }
            }
            ck_assert_uint_le(path.live(), held.size() * (CriticalPath::kFold + 1));
        }
        for (const Held &h : held)
            path.release(h.ref);
        ck_assert_uint_eq(path.live(), 0);
    }
}
END_TEST

// ---------------------------------------------------------------- units built from their Params

// One instruction from its trace text; GM argument 0 is called x.
dv_insn_t insn(const char *text)
{
    dv_arg_t arg{};
    std::strcpy(arg.name, "x");
    arg.bytes = 1 << 20;
    dv_kernel_info_t info{};
    info.blocks = info.subs = info.nargs = 1;
    info.args = &arg;
    dv_insn_t in{};
    dv_error_t err{};
    ck_assert_msg(dv_trace_parse_insn(text, std::strlen(text), &info, "t", 1, &in, &err) == DV_OK, "%s: %s", text, err.msg);
    return in;
}

// Cube M0 = N0 = 16, K0 = 16 / 32 / 64 / 8 for f16 / bf16 / s8 / f32, latency 20.  mmad m=33
// n=16 k=64: ceil(33/16) x ceil(16/16) = 3 x 1, times ceil(64 / K0) = 4 / 2 / 1 / 8 per dtype.
START_TEST(test_components_cube_params)
{
    Context context;
    CubeUnit cube("cube", CubeUnit::Params{16, 16, 16, 32, 64, 8, 20});
    const struct {
        const char *dtype;
        cycles_t occupy;
    } cases[] = {{"f16", 12}, {"bf16", 6}, {"s8", 3}, {"f32", 24}};
    for (const auto &c : cases) {
        char text[128];
        std::snprintf(text, sizeof text, "mmad c=l0c:0x0 a=l0a:0x0 b=l0b:0x0 dtype=%s m=33 k=64 n=16 init=1", c.dtype);
        const Cost cost = cube.cost(insn(text));
        ck_assert_uint_eq(cost.occupy, c.occupy);
        ck_assert_uint_eq(cost.latency, 20);
    }
}
END_TEST

DmaEngine::Params dma_params()
{
    DmaEngine::Params p{};
    p.gm = {128, 0, 32, 16, 1, 128}; // uop_bytes, burst_overhead_bytes, core read / write caps, align (1: all), line
    p.mte1 = {64, 32, 7, 9};       // L0A / L0B bytes per cycle, load2d / load3d latency
    p.mte2 = {2, 1, 30, 64, 32, 1u << 20}; // issue, uop cycles, latency, UB / L1 bytes per cycle, bursts in flight (no bound)
    p.mte3 = {3, 1, 40, 64};       // issue, uop cycles, latency, local bytes per cycle
    p.fix = {4, 11, 64};           // issue, latency, L0C bytes per cycle
    return p;
}

// MTE1 moves locally and never uses its l2 connection (left unbound: a use would assert).
// load_cbuf_to_ca repeat=4 moves 4 x 512 B fractals = 2048 B at 64 B/cycle (L0A): 32 cycles;
// to L0B at 32 B/cycle: 64 cycles; both mte1.load2d_latency_cycles = 7.  An img2col of one 16 x 16
// f16 fractal writes 512 B: 8 cycles into L0A, 16 into L0B, latency mte1.load3d_latency_cycles = 9.
// A fill of 2 rows of 2 blocks writes 2048 B: 32 cycles into L0A, 64 into L0B, latency 7.
START_TEST(test_components_dma_local_params)
{
    Context context;
    DmaEngine mte1("mte1", dma_params(), DV_PIPE_MTE1, 0);
    const uint64_t gm[1] = {0};
    Cost c = mte1.cost(insn("load_cbuf_to_ca dst=l0a:0x0 src=l1:0x0 dtype=f16 base_idx=0 repeat=4 src_stride=1"), 0, gm);
    ck_assert_uint_eq(c.occupy, 32);
    ck_assert_uint_eq(c.latency, 7);
    c = mte1.cost(insn("load_cbuf_to_cb dst=l0b:0x0 src=l1:0x0 dtype=f16 base_idx=0 repeat=4 src_stride=1"), 0, gm);
    ck_assert_uint_eq(c.occupy, 64);
    ck_assert_uint_eq(c.latency, 7);
    const std::string i2c = " src=l1:0x0 dtype=f16 fmap_h=1 fmap_w=16 c1=1 kh=1 kw=1 m_ext=16 k_ext=16";
    c = mte1.cost(insn(("img2col_cbuf_to_ca dst=l0a:0x0" + i2c).c_str()), 0, gm);
    ck_assert_uint_eq(c.occupy, 8);
    ck_assert_uint_eq(c.latency, 9);
    c = mte1.cost(insn(("img2col_cbuf_to_cb dst=l0b:0x0" + i2c).c_str()), 0, gm);
    ck_assert_uint_eq(c.occupy, 16);
    ck_assert_uint_eq(c.latency, 9);
    c = mte1.cost(insn("create_ca_matrix dst=l0a:0x0 dtype=f16 rows=2 blocks=2 value=15360"), 0, gm);
    ck_assert_uint_eq(c.occupy, 32);
    ck_assert_uint_eq(c.latency, 7);
    c = mte1.cost(insn("create_cb_matrix dst=l0b:0x0 dtype=f16 rows=2 blocks=2 value=15360"), 0, gm);
    ck_assert_uint_eq(c.occupy, 64);
    ck_assert_uint_eq(c.latency, 7);
    ck_assert(!mte1.l2.bound());
}
END_TEST

// MTE2 reads 128 B (nburst=1 len=4) from GM through its l2 connection (L2: 4 KiB, 128 B lines,
// 64 B/cycle; HBM 8 B/cycle, latency 50), starting at cycle 0:
//   engine: issue 2, then one burst of one whole 128 B micro-op at the 32 B/cycle cap: 4 cycles;
//   UB side 128 / 64 = 2 cycles; L2 from cycle 2: 128 / 64 -> 4; the line misses and is filled
//   from HBM: 2 + 128 / 8 = 18.  occupy = max(2 + max(4, 2), 18) = 18; latency 30 + 50 = 80.
// The same read from cycle 100 hits: L2 done at 102 + 2 = 104, occupy = max(6, 4) = 6, latency 30.
START_TEST(test_components_dma_gm_read_through_l2)
{
    Context context;
    Hbm hbm("hbm", Hbm::Params{50, 8, 64, 0, 0});
    L2Cache l2("l2", L2Cache::Params{4096, 128, 4, false, 64, 64});
    DmaEngine mte2("mte2", dma_params(), DV_PIPE_MTE2, 0);
    l2.hbm.bind(hbm);
    mte2.l2.bind(l2);
    const uint64_t gm[1] = {0};
    const dv_insn_t in = insn("copy_gm_to_ubuf dst=ub:0x0 src=x+0x0 nburst=1 len=4");
    Cost c = mte2.cost(in, 0, gm);
    ck_assert_uint_eq(c.occupy, 18);
    ck_assert_uint_eq(c.latency, 80);
    c = mte2.cost(in, 100, gm);
    ck_assert_uint_eq(c.occupy, 6);
    ck_assert_uint_eq(c.latency, 30);
    ck_assert_uint_eq(mte2.gm_read_bytes, 256);
    ck_assert_uint_eq(l2.hits, 1);
    ck_assert_uint_eq(l2.misses, 1);
    ck_assert_uint_eq(hbm.read_bytes, 128);
}
END_TEST

// A stream of GM copies of one shape, which an engine keeps what the shape alone decides for (its
// op's issue and local side, its bursts' engine cycles for a start in a micro-op), costs what each
// copy costs on an engine that sees it first: starts at other places in a 128 B micro-op (other
// engine cycles), other ops of the same shape (UB or L1 side, read or write), bases that are not
// 32 B aligned (unaligned bursts read whole lines from HBM) and bursts not all alike, with a
// LOAD2D between them.  The two engines' L2s see the same transfers, so they stay alike.
START_TEST(test_components_dma_shape_memo_matches_first)
{
    Context context;
    DmaEngine::Params p = dma_params();
    p.gm.burst_overhead_bytes = 32;
    p.gm.align_bytes = 32;
    Hbm hbm("hbm", Hbm::Params{50, 8, 64, 16, 8}), hbm_first("hbm_first", Hbm::Params{50, 8, 64, 16, 8});
    L2Cache l2("l2", L2Cache::Params{4096, 128, 4, false, 64, 64});
    L2Cache l2_first("l2_first", L2Cache::Params{4096, 128, 4, false, 64, 64});
    l2.hbm.bind(hbm);
    l2_first.hbm.bind(hbm_first);
    DmaEngine mte2("mte2", p, DV_PIPE_MTE2, 0), mte3("mte3", p, DV_PIPE_MTE3, 0), mte1("mte1", p, DV_PIPE_MTE1, 0);
    mte2.l2.bind(l2);
    mte3.l2.bind(l2);
    const uint64_t gm[1] = {0x100000};
    const char *forms[] = {"copy_gm_to_ubuf dst=ub:0x0 src=x+0x%x nburst=3 len=5 src_gap=1",
                           "copy_gm_to_cbuf dst=l1:0x0 src=x+0x%x nburst=3 len=5 src_gap=1",
                           "copy_ubuf_to_gm dst=x+0x%x src=ub:0x0 nburst=3 len=5 dst_gap=1",
                           "copy_gm_to_ubuf dst=ub:0x0 src=x+0x%x nburst=3 len=5 src_gap=2",
                           "copy_gm_to_ubuf_align dst=ub:0x0 src=x+0x%x nburst=2 len=100 src_gap=0",
                           "load_cbuf_to_ca dst=l0a:0x0 src=l1:0x0 dtype=f16 base_idx=0 repeat=2 src_stride=1"};
    const unsigned offsets[] = {0x0, 0x20, 0x400, 0x4a0, 0x10, 0x10, 0x800, 0x0};
    uint64_t read_bytes = 0, write_bytes = 0, unaligned = 0;
    unsigned n = 0;
    for (unsigned f : {0u, 0u, 0u, 1u, 0u, 2u, 2u, 5u, 0u, 3u, 3u, 4u, 4u, 0u}) {
        for (unsigned off : {offsets[n % 8], offsets[(n + 3) % 8]}) {
            char text[160];
            std::snprintf(text, sizeof text, forms[f], off);
            const dv_insn_t in = insn(text);
            const dv_pipe_t pipe = f == 5 ? DV_PIPE_MTE1 : f == 2 ? DV_PIPE_MTE3 : DV_PIPE_MTE2;
            DmaEngine &kept = pipe == DV_PIPE_MTE1 ? mte1 : pipe == DV_PIPE_MTE3 ? mte3 : mte2;
            DmaEngine first(("first" + std::to_string(n)).c_str(), p, pipe, 0);
            if (pipe != DV_PIPE_MTE1)
                first.l2.bind(l2_first);
            const cycles_t t = 100 * n++;
            const Cost a = kept.cost(in, t, gm), b = first.cost(in, t, gm);
            ck_assert_msg(a.occupy == b.occupy && a.latency == b.latency && a.mem_wait == b.mem_wait &&
                              a.mem_hbm == b.mem_hbm,
                          "%s at %lu: occupy %lu / %lu, latency %lu / %lu", text, (unsigned long)t,
                          (unsigned long)a.occupy, (unsigned long)b.occupy, (unsigned long)a.latency,
                          (unsigned long)b.latency);
            read_bytes += first.gm_read_bytes;
            write_bytes += first.gm_write_bytes;
            unaligned += first.unaligned_lines;
        }
    }
    ck_assert_uint_eq(mte2.gm_read_bytes, read_bytes);
    ck_assert_uint_eq(mte3.gm_write_bytes, write_bytes);
    ck_assert_uint_eq(mte2.unaligned_lines, unaligned);
    ck_assert_uint_gt(unaligned, 0);
    ck_assert_uint_eq(l2.hits, l2_first.hits);
    ck_assert_uint_eq(l2.misses, l2_first.misses);
    ck_assert_uint_eq(hbm.read_bytes, hbm_first.read_bytes);
}
END_TEST

// Without series (reset's second argument false) the change points are not kept, and nothing else
// changes: the hand-counted case of test_components_occupancy_series_exact gives peak 164 and
// byte_cycles 4240 with every slice 0; random runs of writes and reads (tiles, slices, hulls and
// any range, some times going back, some before the origin) give the same peak, the same
// byte_cycles to the bit and the same folded_early as a run with series, and a run that keeps one
// block open from the origin (so that nothing folds until more than kMaxEvents endpoints wait and
// the older half is folded early, and the knots become a grid) does too, with grid() 0.
START_TEST(test_components_occupancy_without_series)
{
    Occupancy o;
    double s[64];
    occupancy_hand_case(o, false);
    o.series(640, s, 64);
    for (int i = 0; i < 64; i++)
        ck_assert_double_eq(s[i], 0.0);

    uint64_t x = 12345;
    auto next = [&x](uint64_t n) { // an LCG's high bits, below n
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        return (x >> 33) % n;
    };
    for (int run = 0; run < 12; run++) {
        const bool pin = run >= 10;
        const int calls = pin ? 150000 : 5000;
        const uint64_t origin = 100 + next(1000), size = 1u << (10 + next(8));
        const uint64_t tile = std::max<uint64_t>(16, size >> (1 + next(4)));
        Occupancy with, without;
        with.reset(origin);
        without.reset(origin, false);
        auto both = [&](bool write, uint64_t lo, uint64_t hi, cycles_t t) {
            if (write) {
                with.write(lo, hi, t);
                without.write(lo, hi, t);
            } else {
                with.read(lo, hi, t);
                without.read(lo, hi, t);
            }
        };
        if (pin) {
            both(true, size, size + 64, origin);
            both(false, size, size + 64, origin + 5);
        }
        uint64_t now = origin;
        for (int i = 0; i < calls; i++) {
            now += next(20);
            cycles_t t = now + next(30);
            if (!pin && next(8) == 0)
                t = next(4) == 0 ? origin - next(5) : t - std::min<uint64_t>(t, next(500));
            uint64_t lo, hi;
            const uint64_t base = next(size / tile) * tile;
            switch (next(4)) {
            case 0: // a tile
                lo = base;
                hi = base + tile;
                break;
            case 1: { // a slice of one
                const uint64_t part = tile >> next(4);
                lo = base + next(tile / part) * part;
                hi = lo + part;
                break;
            }
            case 2: // a hull
                lo = base + next(8) * (tile / 32);
                hi = std::min(size, lo + tile - tile / 16);
                break;
            default: // any range
                lo = next(size);
                hi = lo + 1 + next(std::min<uint64_t>(size - lo, 4 * tile));
                break;
            }
            both(next(2) == 0, lo, hi, t);
        }
        with.finish();
        without.finish();
        ck_assert_uint_eq(without.peak_bytes(), with.peak_bytes());
        ck_assert_msg(without.byte_cycles() == with.byte_cycles(), "run %d: byte_cycles %.17g, with series %.17g", run,
                      without.byte_cycles(), with.byte_cycles());
        ck_assert_int_eq(without.folded_early(), with.folded_early());
        ck_assert_int_eq(with.folded_early(), pin);
        ck_assert(!pin || with.grid() != 0);
        ck_assert_uint_eq(without.grid(), 0);
        without.series(now - origin, s, 64);
        for (int i = 0; i < 64; i++)
            ck_assert_double_eq(s[i], 0.0);
    }
}
END_TEST

} // namespace

extern "C" Suite *dv_components_suite(void)
{
    Suite *s = suite_create("components");
    TCase *t = tcase_create("units");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_components_calendar_full_rate_alone);
    tcase_add_test(t, test_components_calendar_shared_bin);
    tcase_add_test(t, test_components_calendar_fair_share);
    tcase_add_test(t, test_components_calendar_retire_and_grow);
    tcase_add_test(t, test_components_calendar_contenders_before_global_time);
    tcase_add_test(t, test_components_calendar_full_bins_passed);
    tcase_add_test(t, test_components_calendar_last_bytes_in_live_bin);
    tcase_add_test(t, test_components_calendar_walk_across_ring_end);
    tcase_add_test(t, test_components_calendar_fast_paths_match_general);
    tcase_add_test(t, test_components_l2_lru);
    tcase_add_test(t, test_components_l2_order_few_ways);
    tcase_add_test(t, test_components_l2_never_allocated);
    tcase_add_test(t, test_components_l2_fresh_run_matches_lines);
    tcase_add_test(t, test_components_l2_run_bitmap_after_bypass);
    tcase_add_test(t, test_components_l2_rows);
    tcase_add_test(t, test_components_l2_rows_match_lines);
    tcase_add_test(t, test_components_l2_write_back_and_through);
    tcase_add_test(t, test_components_l2_transfer_times);
    tcase_add_test(t, test_components_occupancy_one_interval);
    tcase_add_test(t, test_components_occupancy_overlap_sweep);
    tcase_add_test(t, test_components_occupancy_rewrites);
    tcase_add_test(t, test_components_occupancy_partial_ranges);
    tcase_add_test(t, test_components_occupancy_cuts);
    tcase_add_test(t, test_components_occupancy_read_cuts);
    tcase_add_test(t, test_components_occupancy_read_over_blocks);
    tcase_add_test(t, test_components_occupancy_noted_reads);
    tcase_add_test(t, test_components_occupancy_in_order_spans);
    tcase_add_test(t, test_components_occupancy_disjoint_slices);
    tcase_add_test(t, test_components_occupancy_hull_reads);
    tcase_add_test(t, test_components_occupancy_hull_writes);
    tcase_add_test(t, test_components_occupancy_interleaved_slices);
    tcase_add_test(t, test_components_occupancy_interleaved_long);
    tcase_add_test(t, test_components_occupancy_split_read_range);
    tcase_add_test(t, test_components_occupancy_many_pieces);
    tcase_add_test(t, test_components_occupancy_reverse_order);
    tcase_add_test(t, test_components_occupancy_compaction_exact);
    tcase_add_test(t, test_components_occupancy_footprint_bound);
    tcase_add_test(t, test_components_occupancy_late_write);
    tcase_add_test(t, test_components_occupancy_early_fold);
    tcase_add_test(t, test_components_occupancy_early_fold_counts);
    tcase_add_test(t, test_components_occupancy_series_exact);
    tcase_add_test(t, test_components_occupancy_series_grid);
    tcase_add_test(t, test_components_occupancy_series_backward);
    tcase_add_test(t, test_components_occupancy_backward_grid_room);
    tcase_add_test(t, test_components_hazard_kinds);
    tcase_add_test(t, test_components_hazard_every_operand);
    tcase_add_test(t, test_components_hazard_ordering);
    tcase_add_test(t, test_components_hazard_clock_versions);
    tcase_add_test(t, test_components_hazard_issue_clock_again);
    tcase_add_test(t, test_components_hazard_reports_once_in_order);
    tcase_add_test(t, test_components_hazard_pruning_keeps_races);
    tcase_add_test(t, test_components_hazard_cap_splits_an_instruction);
    tcase_add_test(t, test_components_hazard_cap_is_the_newest);
    tcase_add_test(t, test_components_hazard_long_stream_then_race);
    tcase_add_test(t, test_components_hazard_race_across_the_wrap);
    tcase_add_test(t, test_components_hazard_race_past_the_two_newest);
    tcase_add_test(t, test_components_hazard_ring_grows);
    tcase_add_test(t, test_components_hazard_buckets);
    tcase_add_test(t, test_components_hazard_recent_buckets);
    tcase_add_test(t, test_components_hazard_scalar_after_forgotten);
    tcase_add_test(t, test_components_hazard_scalar_keeps_newest);
    tcase_add_test(t, test_components_vec_footprint_one_decode);
    tcase_add_test(t, test_components_vec_conflicts_shared_memo);
    tcase_add_test(t, test_components_vec_conflicts_seen_layouts);
    tcase_add_test(t, test_components_path_steps_by_key);
    tcase_add_test(t, test_components_path_fold_exact);
    tcase_add_test(t, test_components_path_matches_plain_model);
    tcase_add_test(t, test_components_cube_params);
    tcase_add_test(t, test_components_dma_local_params);
    tcase_add_test(t, test_components_dma_gm_read_through_l2);
    suite_add_tcase(s, t);
    TCase *memo = tcase_create("dma_shape_memo");
    tcase_set_timeout(memo, 60);
    tcase_add_test(memo, test_components_dma_shape_memo_matches_first);
    suite_add_tcase(s, memo);
    TCase *fresh = tcase_create("l2_fresh_uses");
    tcase_add_test(fresh, test_components_l2_fresh_uses_order_idle_write_back);
    tcase_add_test(fresh, test_components_l2_fresh_uses_match_stamps);
    suite_add_tcase(s, fresh);
    TCase *stamps = tcase_create("l2_stamps");
    tcase_add_test(stamps, test_components_l2_stamps_order_by_use);
    suite_add_tcase(s, stamps);
    TCase *state = tcase_create("l2_state"); // how a set's state is laid out
    tcase_add_test(state, test_components_l2_split_state);
    tcase_add_test(state, test_components_l2_way_major);
    tcase_add_test(state, test_components_l2_mru_copy);
    tcase_add_test(state, test_components_l2_far_keys);
    tcase_add_test(state, test_components_zeros_reuse_reads_zero);
    tcase_add_test(state, test_components_zeros_dense_reuse_reads_zero);
    suite_add_tcase(s, state);
    TCase *occ = tcase_create("occupancy_without_series");
    tcase_set_timeout(occ, 60);
    tcase_add_test(occ, test_components_occupancy_without_series);
    suite_add_tcase(s, occ);
    return s;
}
