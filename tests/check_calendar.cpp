// tests/check_calendar.cpp - the bandwidth calendar's bounded share (model/BandwidthCalendar.h):
// a reservation whose first bin has room for all its bytes skips counting the requesters around
// it when the share is proven to be at least its bytes (every requester seen since reset() taken
// as active).  The results must be those of the counted share, which general_paths() always takes.
// (The calendar's other cases are in tests/check_components.cpp.)
#include <systemc>

#include "../model/BandwidthCalendar.h"

#include <check.h> // last: its macros (fail, ...) clash with names in the C++ headers

using namespace dv;

namespace {

// 4 B/cycle in bins of 64 cycles, on the fast paths or (general) the general ones.
static BandwidthCalendar four_per_cycle(bool general)
{
    BandwidthCalendar c;
    c.configure(4, 64);
    if (general)
        c.general_paths();
    return c;
}

// 4 B/cycle in bins of 64 cycles: a bin carries cap = 256 bytes.  Requester 0 alone: 100 B from
// cycle 1280 (bin 20) go at the full rate, through at 1280 + 100/4 = 1305.  Requester 1 then
// reserves 100 B in the same bin: two requesters seen, the live bins [4, 21) hold 100 B, so
// cap x cap x 17 bins = 1,114,112 >= 100 B x 2 x 100 B and the share is at least 100 B (counted:
// demand 2 x 100 <= 17 x 256, the share is the capacity).  The bin then holds 200 B, through at
// 1280 + 200/4 = 1330.  On the general paths (the share counted) the same.
START_TEST(test_calendar_bound_two_requesters)
{
    for (int general = 0; general < 2; general++) {
        BandwidthCalendar c = four_per_cycle(general);
        ck_assert_uint_eq(c.reserve(1280, 100, 0), 1305);
        ck_assert_uint_eq(c.reserve(1280, 100, 1), 1330);
    }
}
END_TEST

// 1 B/cycle, bins of 64 cycles (cap = 64 B).  32 B lost (consume) in each of the bins 20..35, and
// requesters 0..7 reserve 1 B each in bins 200, 202, .., 214, alone in their bins (through at
// the bin's start + 1).  Requester 8 then asks for bytes in bin 36 (empty): its window is
// [20, 52), 32 bins (2,048 B) holding 16 x 32 = 512 B, where no requester has reserved, so the
// counted share is the capacity (1 active x 512 <= 2,048): the bytes go at the full rate, through
// at 36 x 64 + bytes.  Nine requesters are seen: the bound holds for 20 B (64 x 64 x 32 = 131,072
// >= 20 x 9 x 512 = 92,160) and not for 40 B (184,320): the share is counted there, and both
// give the same ends.  On the general paths (the share always counted) the same.
START_TEST(test_calendar_bound_fails_share_counted)
{
    for (int general = 0; general < 2; general++) {
        for (uint64_t bytes : {20, 40}) {
            BandwidthCalendar c;
            c.configure(1, 64);
            if (general)
                c.general_paths();
            for (uint64_t bin = 20; bin < 36; bin++)
                c.consume(bin * 64, 32);
            for (unsigned r = 0; r < 8; r++)
                ck_assert_uint_eq(c.reserve((200 + 2 * r) * 64, 1, r), (200 + 2 * r) * 64 + 1);
            ck_assert_uint_eq(c.reserve(36 * 64, bytes, 8), 36 * 64 + bytes);
        }
    }
}
END_TEST

// The bounded share's reservation marks its requester and fills its bin as the counted one does,
// so later shares count it.  4 B/cycle, bins of 64 cycles (cap = 256 B); 256 B lost (consume) in
// each of the bins 5..19.  Requesters 0 and 1 then reserve 100 B each from cycle 1280 (bin 20, a
// bin past the live ones: the window's live bins are [4, 21), 17 bins holding 3,840 B and then
// 3,940 B), both under the bound (100 x 1 x 3,840 and 100 x 2 x 3,940 <= 256 x 256 x 17 =
// 1,114,112): through at 1280 + 100/4 = 1305 and 1280 + 200/4 = 1330.  Requester 2 then asks for
// 1,000 B from cycle 1280: bin 20 has 56 B left, so the share is counted: 3 requesters (0, 1 and
// itself) x 4,040 B > 4,352 B of capacity, share = 256 x 4,352 / 12,120 = 91 B a bin.  Bin 20
// takes 56 B, the bins past the live ones 91 B each: 10 of them (21..30) and the last 34 B in
// bin 31, through at 31 x 64 + 34/4 (rounded up) = 1993.  (Were requesters 0 and 1 not marked in
// bin 20, requester 2 would count only itself, take the capacity and be through at 1580.)  On the
// general paths (the share always counted) the same.
START_TEST(test_calendar_bound_marks_requester)
{
    for (int general = 0; general < 2; general++) {
        BandwidthCalendar c = four_per_cycle(general);
        for (uint64_t bin = 5; bin < 20; bin++)
            c.consume(bin * 64, 256);
        ck_assert_uint_eq(c.reserve(1280, 100, 0), 1305);
        ck_assert_uint_eq(c.reserve(1280, 100, 1), 1330);
        ck_assert_uint_eq(c.reserve(1280, 1000, 2), 1993);
    }
}
END_TEST

// A vector kernel's copies: 48 requesters reserve 16 KB (and now and then other sizes) in bins
// of 2,888 B/cycle x 64 cycles (the L2 of the 910B profiles) and 825 B/cycle (its HBM) around a
// moving global time, most of them fitting in their first bin, and with bins of other sizes; a
// calendar on the fast paths against one on the general paths, every result compared.  (With
// the bound taken one requester short, 1,519 of v.trace's 471,082 reservations differ; here this
// test fails.)
START_TEST(test_calendar_bound_matches_counted)
{
    uint64_t s = 0x9e3779b97f4a7c15ull;
    auto rnd = [&s](uint64_t n) { s ^= s << 13, s ^= s >> 7, s ^= s << 17; return s % n; };
    static const uint64_t bpcs[] = {2888, 825, 104, 4096, 1, 1ull << 19};
    for (uint64_t config = 0; config < 12; config++) {
        const uint64_t bpc = bpcs[config % 6], window = config < 6 ? 64 : 1 + rnd(128), cap = bpc * window;
        BandwidthCalendar fast, general;
        fast.configure(bpc, window);
        general.configure(bpc, window);
        general.general_paths();
        const unsigned requesters = config < 6 ? 48 : 1 + (unsigned)rnd(130);
        uint64_t now = 0;
        for (int op = 0; op < 6000; op++) {
            const uint64_t k = rnd(100);
            if (k < 8) {
                now += rnd(4 * window);
                fast.retire(now), general.retire(now);
            } else if (k < 10) {
                const uint64_t t = now + rnd(40 * window), bytes = rnd(cap);
                fast.consume(t, bytes), general.consume(t, bytes);
            } else if (k < 11) {
                const unsigned n = (unsigned)rnd(48);
                fast.start(n), general.start(n);
            } else if (k < 12) {
                fast.reset(), general.reset();
                now = 0;
            } else {
                const unsigned r = (unsigned)rnd(requesters);
                const uint64_t t = now + rnd(k < 80 ? 20 * window : 200 * window);
                const uint64_t bytes = k < 70 ? 16384 : 1 + rnd(k < 90 ? cap : 8 * cap);
                ck_assert_uint_eq(fast.reserve(t, bytes, r), general.reserve(t, bytes, r));
            }
        }
    }
}
END_TEST

} // namespace

extern "C" Suite *dv_calendar_suite(void)
{
    Suite *s = suite_create("calendar");
    TCase *t = tcase_create("core");
    tcase_add_test(t, test_calendar_bound_two_requesters);
    tcase_add_test(t, test_calendar_bound_fails_share_counted);
    tcase_add_test(t, test_calendar_bound_marks_requester);
    tcase_add_test(t, test_calendar_bound_matches_counted);
    suite_add_tcase(s, t);
    return s;
}
