/* tests/check_semantics_numbers.c - number conversions and rounding: fp32 bit-exact
 * arithmetic, correctly rounded fp16 / bf16 conversions, special values
 * (docs/SEMANTICS.md; shared references in tests/support/semref.c). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/semref.h"


/* dv_exec on f32 is the IEEE single operation, bit for bit. */
START_TEST(test_semantics_f32_bit_exact)
{
    sr_seed(9);
    sr_mem_t t;
    sr_tmem_init(&t);
    uint8_t *ub = t.buf[DV_SPACE_UB];
    const int n = 64 * 255;
    for (int i = 0; i < 2 * n; i++) { /* wide exponents, subnormals, cancellations */
        uint32_t b = (uint32_t)sr_rnd();
        if (sr_rndn(4) == 0)
            b &= 0x807fffffu;
        if (sr_rndn(4) == 0 && i >= n) { /* near-cancellation */
            uint32_t a;
            memcpy(&a, ub + B_S0 + 4 * (i - n), 4);
            b = sr_fbits(-sr_bitsf(a) * (1 + 0x1p-20f));
        }
        memcpy(ub + (i < n ? B_S0 + 4 * i : B_S1 + 4 * (i - n)), &b, 4);
    }
    const dv_op_t ops[] = {DV_OP_vadd, DV_OP_vsub, DV_OP_vmul, DV_OP_vdiv};
    for (int k = 0; k < 4; k++) {
        dv_insn_t in;
        dv_insn_init(&in, ops[k]);
        sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
        sr_fsetu(&in, "src0", DV_ADDR(DV_SPACE_UB, B_S0));
        sr_fsetu(&in, "src1", DV_ADDR(DV_SPACE_UB, B_S1));
        sr_fset(&in, "dtype", DV_DT_F32);
        sr_fset(&in, "repeat", 255);
        dv_vstate_t vs;
        dv_vstate_reset(&vs);
        sr_exec_ok(&in, &vs, &t);
        for (int i = 0; i < n; i++) {
            volatile float a, b, r;
            float got;
            memcpy((void *)&a, ub + B_S0 + 4 * i, 4);
            memcpy((void *)&b, ub + B_S1 + 4 * i, 4);
            memcpy(&got, ub + B_DST + 4 * i, 4);
            r = k == 0 ? a + b : k == 1 ? a - b : k == 2 ? a * b : a / b;
            ck_assert_msg(sr_fbits(got) == sr_fbits(r) || (isnan(got) && isnan(r)), "%s %a %a: got %a want %a",
                          dv_op_spec(ops[k])->mnemonic, (double)a, (double)b, (double)got, (double)r);
        }
    }
    sr_tmem_free(&t);
}
END_TEST

/* f16 + - * / sqrt are correctly rounded: compared with the exact double result rounded once. */
START_TEST(test_semantics_f16_correctly_rounded)
{
    sr_seed(10);
    sr_mem_t t;
    sr_tmem_init(&t);
    uint8_t *ub = t.buf[DV_SPACE_UB];
    const int n = 128 * 255;
    for (int i = 0; i < 2 * n; i++) {
        uint16_t h = (uint16_t)sr_rnd();
        if ((h & 0x7c00) == 0x7c00)
            h &= 0xbfff; /* no inf/NaN inputs */
        memcpy(ub + (i < n ? B_S0 + 2 * i : B_S1 + 2 * (i - n)), &h, 2);
    }
    const dv_op_t ops[] = {DV_OP_vadd, DV_OP_vsub, DV_OP_vmul, DV_OP_vdiv, DV_OP_vsqrt};
    for (int k = 0; k < 5; k++) {
        dv_insn_t in;
        dv_insn_init(&in, ops[k]);
        sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
        sr_fsetu(&in, k == 4 ? "src" : "src0", DV_ADDR(DV_SPACE_UB, B_S0));
        if (k < 4)
            sr_fsetu(&in, "src1", DV_ADDR(DV_SPACE_UB, B_S1));
        sr_fset(&in, "dtype", DV_DT_F16);
        sr_fset(&in, "repeat", 255);
        dv_vstate_t vs;
        dv_vstate_reset(&vs);
        sr_exec_ok(&in, &vs, &t);
        for (int i = 0; i < n; i++) {
            uint16_t ha, hb, got;
            memcpy(&ha, ub + B_S0 + 2 * i, 2);
            memcpy(&hb, ub + B_S1 + 2 * i, 2);
            memcpy(&got, ub + B_DST + 2 * i, 2);
            const double a = sr_h2f(ha), b = sr_h2f(hb);
            const double exact = k == 0 ? a + b : k == 1 ? a - b : k == 2 ? a * b : k == 3 ? a / b : sqrt(a);
            const uint16_t want = sr_d2h(exact);
            ck_assert_msg(got == want || (isnan(sr_h2f(got)) && isnan(sr_h2f(want))), "%s %a %a: got %04x want %04x",
                          dv_op_spec(ops[k])->mnemonic, a, b, got, want);
        }
    }
    sr_tmem_free(&t);
}
END_TEST

START_TEST(test_semantics_f16_conversion)
{
    for (uint32_t h = 0; h < 0x10000; h++) { /* exhaustive f16 -> f32 */
        const float got = dv_f16_to_f32((uint16_t)h), want = sr_h2f((uint16_t)h);
        ck_assert_msg(sr_fbits(got) == sr_fbits(want) || (isnan(got) && isnan(want)), "f16 %04x", h);
        if (!isnan(want)) /* and back */
            ck_assert_int_eq(dv_f32_to_f16(want), h);
    }
    sr_seed(11);
    for (uint64_t i = 0; i < 1500000; i++) { /* sweep of f32 -> f16 against the compiler's conversion */
        const uint32_t b = i < 1000000 ? (uint32_t)(i * 4294u + (i >> 3)) : (uint32_t)sr_rnd();
        const float f = sr_bitsf(b);
        const uint16_t got = dv_f32_to_f16(f);
        if (isnan(f))
            ck_assert(isnan(sr_h2f(got)));
        else
            ck_assert_msg(got == sr_d2h(f), "f32 %08x: got %04x want %04x", b, got, sr_d2h(f));
    }
    /* every tie between two neighbouring finite halves goes to the even one, and a float one step
     * either side of it to the nearer half (the midpoint has 12 significant bits: exact in f32) */
    for (uint32_t h = 0; h < 0x7bff; h++) {
        const float mid = (float)(((double)sr_h2f((uint16_t)h) + (double)sr_h2f((uint16_t)(h + 1))) / 2);
        ck_assert_msg(dv_f32_to_f16(mid) == ((h & 1) ? h + 1 : h), "tie after %04x", h);
        ck_assert_int_eq(dv_f32_to_f16(nextafterf(mid, 0.0f)), h);
        ck_assert_int_eq(dv_f32_to_f16(nextafterf(mid, INFINITY)), h + 1);
        ck_assert_int_eq(dv_f32_to_f16(-mid), ((h & 1) ? h + 1 : h) | 0x8000);
    }
    /* boundaries: overflow threshold, smallest subnormal ties */
    ck_assert_int_eq(dv_f32_to_f16(65519.996f), 0x7bff);
    ck_assert_int_eq(dv_f32_to_f16(65520.0f), 0x7c00);
    ck_assert_int_eq(dv_f32_to_f16(0x1p-25f), 0x0000);
    ck_assert_int_eq(dv_f32_to_f16(0x1.000002p-25f), 0x0001);
    ck_assert_int_eq(dv_f32_to_f16(0x1.8p-24f), 0x0002);
    ck_assert_int_eq(dv_f32_to_f16(-0.0f), 0x8000);
}
END_TEST

START_TEST(test_semantics_bf16_conversion)
{
    for (uint32_t h = 0; h < 0x10000; h++) {
        const float got = dv_bf16_to_f32((uint16_t)h);
        ck_assert_uint_eq(sr_fbits(got), h << 16);
    }
    sr_seed(12);
    for (int i = 0; i < 1000000; i++) {
        const uint32_t b = (uint32_t)sr_rnd();
        const float f = sr_bitsf(b);
        const uint16_t got = dv_f32_to_bf16(f);
        if (isnan(f)) {
            ck_assert(isnan(dv_bf16_to_f32(got)));
            continue;
        }
        const uint16_t want = (uint16_t)sr_ref_to_float(f, DV_DT_BF16, DV_ROUND_R);
        ck_assert_msg(got == want, "f32 %08x: got %04x want %04x", b, got, want);
    }
    ck_assert_int_eq(dv_f32_to_bf16(sr_bitsf(0x3f808000u)), 0x3f80); /* tie to even */
    ck_assert_int_eq(dv_f32_to_bf16(sr_bitsf(0x3f818000u)), 0x3f82);
}
END_TEST

/* Documented behaviour of special values. */
START_TEST(test_semantics_special_values)
{
    sr_mem_t t;
    sr_tmem_init(&t);
    uint8_t *ub = t.buf[DV_SPACE_UB];
    dv_vstate_t vs;
    dv_vstate_reset(&vs);
    ck_assert(!vs.count_mode && vs.hi == ~0ull && vs.lo == ~0ull);
    const float a[4] = {NAN, 1.0f, -0.0f, -5.0f}, b[4] = {2.0f, NAN, 0.0f, NAN};
    memcpy(ub + B_S0, a, sizeof a);
    memcpy(ub + B_S1, b, sizeof b);
    vs.lo = 0xf;
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_vmax);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
    sr_fsetu(&in, "src0", DV_ADDR(DV_SPACE_UB, B_S0));
    sr_fsetu(&in, "src1", DV_ADDR(DV_SPACE_UB, B_S1));
    sr_fset(&in, "dtype", DV_DT_F32);
    sr_fset(&in, "repeat", 1);
    sr_exec_ok(&in, &vs, &t);
    float r[4];
    memcpy(r, ub + B_DST, sizeof r);
    ck_assert(r[0] == 2.0f && r[1] == 1.0f && r[3] == -5.0f); /* NaN operands are ignored */
    ck_assert(r[2] == 0.0f && signbit(r[2]));                 /* equal: src0 */
    /* vrelu: NaN -> +0, -0 -> +0 */
    dv_insn_init(&in, DV_OP_vrelu);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, B_S0));
    sr_fset(&in, "dtype", DV_DT_F32);
    sr_fset(&in, "repeat", 1);
    sr_exec_ok(&in, &vs, &t);
    memcpy(r, ub + B_DST, sizeof r);
    ck_assert(sr_fbits(r[0]) == 0 && r[1] == 1.0f && sr_fbits(r[2]) == 0 && sr_fbits(r[3]) == 0);
    /* vconv f32 -> s32: NaN -> 0, +-inf saturate; f32 -> f16 overflow per mode */
    const float c[4] = {NAN, INFINITY, -INFINITY, 1e6f};
    memcpy(ub + B_S0, c, sizeof c);
    dv_insn_init(&in, DV_OP_vconv);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, B_S0));
    sr_fset(&in, "dst_type", DV_DT_S32);
    sr_fset(&in, "src_type", DV_DT_F32);
    sr_fset(&in, "repeat", 1);
    sr_exec_ok(&in, &vs, &t);
    int32_t ir[4];
    memcpy(ir, ub + B_DST, sizeof ir);
    ck_assert(ir[0] == 0 && ir[1] == INT32_MAX && ir[2] == INT32_MIN && ir[3] == 1000000);
    sr_fset(&in, "dst_type", DV_DT_F16);
    const uint16_t over[5] = {0x7c00, 0x7bff, 0x7c00, 0x7bff, 0x7c00}; /* r f c z a for 1e6 */
    for (int mode = 0; mode < 5; mode++) {
        sr_fset(&in, "round", mode);
        sr_exec_ok(&in, &vs, &t);
        uint16_t h[4];
        memcpy(h, ub + B_DST, sizeof h);
        ck_assert(isnan(sr_h2f(h[0])) && h[1] == 0x7c00 && h[2] == 0xfc00);
        ck_assert_msg(h[3] == over[mode], "mode %d: %04x", mode, h[3]);
    }
    /* 'a' is round-half-away (CAST_ROUND): 2.5 -> 3, -2.5 -> -3; 'r' is half-even: 2 and -2 */
    const float tie[2] = {2.5f, -2.5f};
    memcpy(ub + B_S0, tie, sizeof tie);
    sr_fset(&in, "dst_type", DV_DT_S32);
    sr_fset(&in, "round", DV_ROUND_A);
    sr_exec_ok(&in, &vs, &t);
    memcpy(ir, ub + B_DST, 8);
    ck_assert(ir[0] == 3 && ir[1] == -3);
    sr_fset(&in, "round", DV_ROUND_R);
    sr_exec_ok(&in, &vs, &t);
    memcpy(ir, ub + B_DST, 8);
    ck_assert(ir[0] == 2 && ir[1] == -2);
    sr_tmem_free(&t);
}
END_TEST

/* The cube's product (dv_dot_f32 / dv_dot_u32) equals a scalar loop taking each element's products in
 * k order, bit for bit, at sizes that leave partial vectors and an odd row, and with B's column blocks
 * copied side by side (m > 4): values of mixed magnitude, so any other order of the additions rounds
 * differently. */
START_TEST(test_semantics_dot_matches_scalar_loop)
{
    static const uint64_t shapes[][3] = {{1, 1, 8}, {3, 37, 16}, {5, 64, 72}, {2, 200, 40}, {7, 13, 8}, {9, 64, 256}};
    sr_seed(21);
    for (size_t c = 0; c < sizeof shapes / sizeof *shapes; c++) {
        const uint64_t m = shapes[c][0], k = shapes[c][1], np = shapes[c][2], n = np - 3;
        float *a = malloc(m * k * 4), *b = dv_dot_alloc(k * np * 4), *acc = dv_dot_alloc(m * np * 4);
        uint32_t *ua = malloc(m * k * 4), *ub = dv_dot_alloc(k * np * 4), *uacc = dv_dot_alloc(m * np * 4);
        ck_assert(a && b && acc && ua && ub && uacc);
        for (uint64_t i = 0; i < m * k; i++) {
            a[i] = (float)((double)sr_rndn(20001) - 10000.0) * (i % 3 ? 1e-3f : 7.0f);
            ua[i] = (uint32_t)sr_rnd();
        }
        for (uint64_t i = 0; i < k * np; i++) {
            b[i] = i % np < n ? (float)((double)sr_rndn(20001) - 10000.0) * (i % 5 ? 1e-4f : 3.0f) : 0.0f;
            ub[i] = i % np < n ? (uint32_t)sr_rnd() : 0;
        }
        for (uint64_t i = 0; i < m * np; i++) {
            acc[i] = i % 2 ? 0.5f : -1234.5f;
            uacc[i] = (uint32_t)i * 77u;
        }
        float *want = malloc(m * np * 4);
        uint32_t *uwant = malloc(m * np * 4);
        ck_assert(want && uwant);
        for (uint64_t i = 0; i < m; i++)
            for (uint64_t j = 0; j < np; j++) {
                float f = acc[i * np + j];
                uint32_t u = uacc[i * np + j];
                for (uint64_t kk = 0; kk < k; kk++) {
                    const float prod = a[i * k + kk] * b[kk * np + j];
                    f += prod;
                    u += ua[i * k + kk] * ub[kk * np + j];
                }
                want[i * np + j] = f;
                uwant[i * np + j] = u;
            }
        dv_dot_f32(a, b, m, k, np, acc);
        dv_dot_u32(ua, ub, m, k, np, uacc);
        ck_assert_msg(memcmp(acc, want, m * np * 4) == 0, "f32 %llux%llux%llu differs from the scalar loop",
                      (unsigned long long)m, (unsigned long long)k, (unsigned long long)np);
        ck_assert_msg(memcmp(uacc, uwant, m * np * 4) == 0, "u32 %llux%llux%llu differs from the scalar loop",
                      (unsigned long long)m, (unsigned long long)k, (unsigned long long)np);
        free(a), free(b), free(acc), free(ua), free(ub), free(uacc), free(want), free(uwant);
    }
}
END_TEST

Suite *dv_semantics_numbers_suite(void)
{
    Suite *s = suite_create("semantics_numbers");
    TCase *tc = sr_tcase(s, "numbers");
    tcase_add_test(tc, test_semantics_f32_bit_exact);
    tcase_add_test(tc, test_semantics_f16_correctly_rounded);
    tcase_add_test(tc, test_semantics_f16_conversion);
    tcase_add_test(tc, test_semantics_bf16_conversion);
    tcase_add_test(tc, test_semantics_special_values);
    tcase_add_test(tc, test_semantics_dot_matches_scalar_loop);
    return s;
}
