/* tests/check_intmath.c - the shared integer helpers (dv/intmath.h): exact at the edges of uint64_t. */
#include <check.h>
#include <stdint.h>

#include "dv/intmath.h"

Suite *dv_intmath_suite(void);

START_TEST(test_intmath_ceil_div)
{
    ck_assert_uint_eq(dv_ceil_div(0, 5), 0);
    ck_assert_uint_eq(dv_ceil_div(1, 5), 1);
    ck_assert_uint_eq(dv_ceil_div(5, 5), 1);
    ck_assert_uint_eq(dv_ceil_div(6, 5), 2);
    ck_assert_uint_eq(dv_ceil_div(7, 1), 7);
    /* no a + b - 1 overflow near the top of the range */
    ck_assert_uint_eq(dv_ceil_div(UINT64_MAX, 2), UINT64_C(1) << 63);
    ck_assert_uint_eq(dv_ceil_div(UINT64_MAX, UINT64_MAX), 1);
    ck_assert_uint_eq(dv_ceil_div(UINT64_MAX - 1, UINT64_MAX), 1);
    ck_assert_uint_eq(dv_ceil_div(UINT64_MAX, 32), (UINT64_MAX >> 5) + 1);
}
END_TEST

START_TEST(test_intmath_round_up)
{
    ck_assert_uint_eq(dv_round_up(0, 32), 0);
    ck_assert_uint_eq(dv_round_up(1, 32), 32);
    ck_assert_uint_eq(dv_round_up(32, 32), 32);
    ck_assert_uint_eq(dv_round_up(33, 32), 64);
    ck_assert_uint_eq(dv_round_up(100, 48), 144);
    ck_assert_uint_eq(dv_round_up(UINT64_MAX - 15, 16), UINT64_MAX - 15);
}
END_TEST

START_TEST(test_intmath_min_max_pow2)
{
    ck_assert_uint_eq(dv_min_u64(3, 9), 3);
    ck_assert_uint_eq(dv_min_u64(9, 3), 3);
    ck_assert_uint_eq(dv_max_u64(3, 9), 9);
    ck_assert_uint_eq(dv_max_u64(UINT64_MAX, 0), UINT64_MAX);
    ck_assert(!dv_is_pow2(0));
    ck_assert(dv_is_pow2(1));
    ck_assert(dv_is_pow2(2));
    ck_assert(!dv_is_pow2(6));
    ck_assert(dv_is_pow2(UINT64_C(1) << 63));
    ck_assert(!dv_is_pow2(UINT64_MAX));
}
END_TEST

Suite *dv_intmath_suite(void)
{
    Suite *s = suite_create("intmath");
    TCase *tc = tcase_create("intmath");
    tcase_add_test(tc, test_intmath_ceil_div);
    tcase_add_test(tc, test_intmath_round_up);
    tcase_add_test(tc, test_intmath_min_max_pow2);
    suite_add_tcase(s, tc);
    return s;
}
