/* tests/check_intmath.c - the shared integer helpers (dv/intmath.h): exact at the edges of uint64_t. */
#include <check.h>
#include <stdint.h>

#include "dv/intmath.h"

Suite *dv_intmath_suite(void);

/* a, b and the expected ceil(a / b), a rounded up to a multiple of b. */
static const struct {
    uint64_t a, b, ceil, up;
} div_cases[] = {
    {0, 5, 0, 0},
    {1, 5, 1, 5},
    {5, 5, 1, 5},
    {6, 5, 2, 10},
    {7, 1, 7, 7},
    {33, 32, 2, 64},
    {100, 48, 3, 144},
    /* no a + b - 1 overflow near the top of the range */
    {UINT64_MAX, 2, UINT64_C(1) << 63, 0},
    {UINT64_MAX, UINT64_MAX, 1, UINT64_MAX},
    {UINT64_MAX - 1, UINT64_MAX, 1, UINT64_MAX},
    {UINT64_MAX - 15, 16, (UINT64_C(1) << 60) - 1, UINT64_MAX - 15},
    {UINT64_MAX, 32, (UINT64_MAX >> 5) + 1, 0},
};

START_TEST(test_intmath_ceil_div_round_up)
{
    const uint64_t a = div_cases[_i].a, b = div_cases[_i].b;
    ck_assert_uint_eq(dv_ceil_div(a, b), div_cases[_i].ceil);
    if (div_cases[_i].up != 0 || a == 0) /* 0: the multiple does not fit in 64 bits */
        ck_assert_uint_eq(dv_round_up(a, b), div_cases[_i].up);
}
END_TEST

START_TEST(test_intmath_min_max_pow2)
{
    ck_assert_uint_eq(dv_min_u64(3, 9), 3);
    ck_assert_uint_eq(dv_min_u64(9, 3), 3);
    ck_assert_uint_eq(dv_max_u64(3, 9), 9);
    ck_assert_uint_eq(dv_max_u64(UINT64_MAX, 0), UINT64_MAX);
    static const uint64_t pow2[] = {1, 2, 4096, UINT64_C(1) << 63}, other[] = {0, 3, 6, 4097, UINT64_MAX};
    for (unsigned i = 0; i < sizeof pow2 / sizeof pow2[0]; i++)
        ck_assert_msg(dv_is_pow2(pow2[i]), "%llu is a power of two", (unsigned long long)pow2[i]);
    for (unsigned i = 0; i < sizeof other / sizeof other[0]; i++)
        ck_assert_msg(!dv_is_pow2(other[i]), "%llu is not a power of two", (unsigned long long)other[i]);
}
END_TEST

Suite *dv_intmath_suite(void)
{
    Suite *s = suite_create("intmath");
    TCase *tc = tcase_create("intmath");
    tcase_add_loop_test(tc, test_intmath_ceil_div_round_up, 0, (int)(sizeof div_cases / sizeof div_cases[0]));
    tcase_add_test(tc, test_intmath_min_max_pow2);
    suite_add_tcase(s, tc);
    return s;
}
