/* tests/check_ops_conv.c - the conv2d operator (ops/conv2d.c): --check over odd sizes, channel and
 * position tails, strides, padding and dilation, both dtypes, on the 910B2 (mix kernel: AIV
 * transforms + AIC img2col/mmad/FixPipe) and 310 (one coupled core per block) profiles; double
 * buffering must pay; and the parameter errors a user can reach. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "dv/ops.h"
#include "support/dvt.h"

static const char *const profiles[] = {NULL /* ascend910b2 */, "ascend310"};

static const char *pname(const char *profile) { return profile ? profile : "ascend910b2"; }

/* Run with --check: it must pass, compare at least y (the workspaces are compared too) and find
 * no hazard. */
static void check_ok(const char *profile, const char *cmd, uint64_t y_elems)
{
    dvt_op_t r;
    dvt_op(&r, profile, NULL, cmd, true, true);
    ck_assert_msg(r.rc == DV_OK, "%s on %s: %s", cmd, pname(profile), r.err.msg);
    ck_assert_msg(r.check.mismatches == 0, "%s: %llu mismatches", cmd, (unsigned long long)r.check.mismatches);
    ck_assert_msg(r.check.compared > y_elems, "%s: %llu elements compared, y alone has %llu", cmd,
                  (unsigned long long)r.check.compared, (unsigned long long)y_elems);
    ck_assert_msg(r.cnt.hazards == 0, "%s on %s: %llu hazards", cmd, pname(profile), (unsigned long long)r.cnt.hazards);
    dvt_op_free(&r);
}

static uint64_t out_size(unsigned in, unsigned k, unsigned s, unsigned p, unsigned d)
{
    return (in + 2 * p - d * (k - 1) - 1) / s + 1;
}

/* The matrix: n 1-2, cin 3/16/20 (a partial channel group), h, w 5-17 (odd, positions that are
 * not whole 16-position tiles), cout 5/16/33, kh, kw 1/3, stride 1/2, pad 0/1, dilation 1/2.  Small
 * tiles (base-m 32, base-n 16) and 3 blocks give several tiles per block with partial last ones;
 * a few rows take the auto tiling.  The last two leave input rows that no output reads (on the 310
 * no band transforms them, and x5hd keeps zeros there). */
START_TEST(test_ops_conv_check_matrix)
{
    static const struct {
        unsigned n, cin, h, w, cout, kh, kw, s, p, d;
        bool small_tiles;
    } cases[] = {
        {1, 3, 5, 5, 5, 3, 3, 1, 1, 1, true},      {1, 16, 8, 8, 16, 3, 3, 1, 1, 1, true},
        {2, 20, 9, 7, 33, 3, 3, 1, 1, 1, true},    {1, 20, 17, 13, 16, 3, 3, 2, 1, 1, true},
        {1, 16, 11, 9, 5, 1, 1, 1, 0, 1, true},    {2, 3, 7, 17, 33, 1, 1, 2, 0, 1, true},
        {1, 20, 13, 11, 16, 3, 3, 1, 1, 2, true},  {1, 3, 9, 9, 5, 3, 1, 2, 0, 2, true},
        {1, 16, 5, 6, 33, 3, 3, 1, 0, 1, true},    {1, 20, 6, 5, 5, 1, 3, 1, 1, 1, true},
        {2, 16, 10, 10, 16, 3, 3, 2, 1, 2, false}, {1, 20, 17, 17, 33, 3, 3, 1, 1, 1, false},
        {1, 3, 5, 5, 16, 1, 1, 1, 1, 1, false},    {1, 20, 8, 13, 5, 3, 3, 2, 0, 2, true},
        {2, 17, 7, 7, 16, 3, 1, 3, 0, 1, true},
    };
    const char *profile = profiles[_i];
    char cmd[320];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const unsigned n = cases[i].n, cin = cases[i].cin, h = cases[i].h, w = cases[i].w, co = cases[i].cout;
        const unsigned kh = cases[i].kh, kw = cases[i].kw, s = cases[i].s, p = cases[i].p, d = cases[i].d;
        snprintf(cmd, sizeof cmd,
                 "conv2d --n %u --cin %u --h %u --w %u --cout %u --kh %u --kw %u --stride %u --pad %u --dilation %u%s",
                 n, cin, h, w, co, kh, kw, s, p, d, cases[i].small_tiles ? " --base-m 32 --base-n 16 --cores 3" : "");
        check_ok(profile, cmd, (uint64_t)n * co * out_size(h, kh, s, p, d) * out_size(w, kw, s, p, d));
    }
}
END_TEST

/* bf16 (FixPipe / L0C -> UB quantisation to bf16), and single buffering, on both profiles. */
START_TEST(test_ops_conv_check_bf16_and_single_buffer)
{
    const char *profile = profiles[_i];
    check_ok(profile, "conv2d --n 1 --cin 20 --h 9 --w 11 --cout 33 --dtype bf16 --base-m 48 --base-n 32 --cores 2",
             33 * 9 * 11);
    check_ok(profile, "conv2d --n 2 --cin 16 --h 7 --w 7 --cout 16 --stride 2 --double-buffer off --cores 2",
             2 * 16 * 4 * 4);
}
END_TEST

/* A layer large enough for several transform units per block, several L1 loads per tile (base-m
 * 64 of 28x28 positions, 96 input channels) and several tiles per block, checked. */
START_TEST(test_ops_conv_check_larger)
{
    check_ok(profiles[_i], "conv2d --n 1 --cin 96 --h 28 --w 28 --cout 48 --base-m 64 --cores 2", 48 * 28 * 28);
}
END_TEST

/* Tilings off the usual path: one block with 57 tiles (more than the AIC runs ahead of the AIVs'
 * answers), a 9x9 kernel (81 taps: the weight transform stores row by row), and (next test) an L1
 * of 24 KB and an L0A of 8 KB, so that a tile takes 3 L1 loads of one channel group each and each
 * L1 load 3 L0 loads (4 + 4 + 1 of its 9 K blocks: a partial last one). */
START_TEST(test_ops_conv_check_tilings)
{
    const char *profile = profiles[_i];
    check_ok(profile, "conv2d --n 1 --cin 20 --h 17 --w 17 --cout 33 --base-m 16 --base-n 16 --cores 1",
             33 * 17 * 17);
    check_ok(profile, "conv2d --n 1 --cin 5 --h 12 --w 11 --cout 7 --kh 9 --kw 9 --pad 4 --cores 2", 7 * 12 * 11);
}
END_TEST

/* (its own test: an override makes another profile) */
START_TEST(test_ops_conv_check_small_l1)
{
    const char *profile = profiles[_i];
    static const char *const small_l1[] = {"core.l1_size_bytes=24576", "core.l0a_size_bytes=8192", NULL};
    dvt_op_t r;
    const char *cmd = "conv2d --n 1 --cin 40 --h 12 --w 12 --cout 20 --base-m 32 --cores 2";
    dvt_op(&r, profile, small_l1, cmd, true, true);
    ck_assert_msg(r.rc == DV_OK, "%s on %s with a 24 KB L1, 8 KB L0A: %s", cmd, pname(profile), r.err.msg);
    ck_assert_msg(r.check.mismatches == 0 && r.cnt.hazards == 0, "%s: %llu mismatches, %llu hazards", cmd,
                  (unsigned long long)r.check.mismatches, (unsigned long long)r.cnt.hazards);
    dvt_op_free(&r);
}
END_TEST

/* The 910A (coupled, no DataCopyPad, 4 event ids per pipe pair): rows that are whole 32-B blocks
 * move with plain DMAs; bands start on 16-position boundaries. */
START_TEST(test_ops_conv_check_910a)
{
    check_ok("ascend910a", "conv2d --n 2 --cin 16 --h 8 --w 8 --cout 33 --cores 3", 2 * 33 * 8 * 8);
    check_ok("ascend910a", "conv2d --n 1 --cin 32 --h 16 --w 12 --cout 16 --stride 2 --base-m 32 --cores 2",
             16 * 8 * 6);
}
END_TEST

/* Double buffering overlaps the copies with the transforms and the cube: fewer cycles. */
START_TEST(test_ops_conv_double_buffer_faster)
{
    const char *profile = profiles[_i];
    const char *cmd_on = "conv2d --n 1 --cin 64 --h 28 --w 28 --cout 64 --cores 2 --double-buffer on";
    const char *cmd_off = "conv2d --n 1 --cin 64 --h 28 --w 28 --cout 64 --cores 2 --double-buffer off";
    dvt_op_t on, off;
    ck_assert_msg(dvt_op(&on, profile, NULL, cmd_on, false, false) == DV_OK, "%s", on.err.msg);
    ck_assert_msg(dvt_op(&off, profile, NULL, cmd_off, false, false) == DV_OK, "%s", off.err.msg);
    ck_assert_msg(on.cnt.cycles < off.cnt.cycles, "%s: double buffering %llu cycles, single %llu",
                  pname(profile), (unsigned long long)on.cnt.cycles, (unsigned long long)off.cnt.cycles);
    ck_assert_msg(on.cnt.hazards == 0 && off.cnt.hazards == 0, "hazards");
    dvt_op_free(&on);
    dvt_op_free(&off);
}
END_TEST

/* A 128 x 64 L0C tile keeps the cube busier than 16 x 16 (each K block of the smaller tile costs
 * an img2col, a weight load2d and an mmad of one fractal): a higher mac ratio, fewer cycles. */
START_TEST(test_ops_conv_tile_size_matters)
{
    const char *profile = profiles[_i];
    const dv_core_type_t cube = profile ? DV_CORE_COUPLED : DV_CORE_AIC;
    const char *cmd_big = "conv2d --n 1 --cin 64 --h 28 --w 28 --cout 64 --cores 2 --base-m 128 --base-n 64";
    const char *cmd_small = "conv2d --n 1 --cin 64 --h 28 --w 28 --cout 64 --cores 2 --base-m 16 --base-n 16";
    dvt_op_t big, small;
    ck_assert_msg(dvt_op(&big, profile, NULL, cmd_big, false, false) == DV_OK, "%s", big.err.msg);
    ck_assert_msg(dvt_op(&small, profile, NULL, cmd_small, false, false) == DV_OK, "%s", small.err.msg);
    const double mb = dvt_ratio(&big.cnt, cube, DV_PIPE_M), ms = dvt_ratio(&small.cnt, cube, DV_PIPE_M);
    ck_assert_msg(mb > 2 * ms, "%s: mac ratio %.3f (128 x 64) vs %.3f (16 x 16)", pname(profile), mb, ms);
    ck_assert_msg(big.cnt.cycles < small.cnt.cycles, "%s: %llu vs %llu cycles", pname(profile),
                  (unsigned long long)big.cnt.cycles, (unsigned long long)small.cnt.cycles);
    dvt_op_free(&big);
    dvt_op_free(&small);
}
END_TEST

/* The error must fail the plan and name the parameter and each given word (the limit). */
static void check_err(const char *profile, const char *cmd, const char *param, const char *w1, const char *w2)
{
    dvt_op_t r;
    dvt_op(&r, profile, NULL, cmd, false, false);
    ck_assert_msg(r.rc != DV_OK, "%s on %s: accepted", cmd, pname(profile));
    ck_assert_msg(strstr(r.err.msg, param), "%s: '%s' does not name %s", cmd, r.err.msg, param);
    ck_assert_msg(!w1 || strstr(r.err.msg, w1), "%s: '%s' does not say %s", cmd, r.err.msg, w1);
    ck_assert_msg(!w2 || strstr(r.err.msg, w2), "%s: '%s' does not say %s", cmd, r.err.msg, w2);
    dvt_op_free(&r);
}

START_TEST(test_ops_conv_bad_params)
{
    /* the kernel's reach beyond the padded input */
    check_err(NULL, "conv2d --h 4 --w 9 --kh 5 --kw 3 --pad 0", "--kh", "padded input height", "4");
    check_err(NULL, "conv2d --h 9 --w 4 --kh 3 --kw 3 --pad 0 --dilation 2", "--kw", "padded input width", "4");
    /* tiles that do not fit L0C, L0A, L0B, L1 */
    check_err(NULL, "conv2d --base-m 2048 --base-n 16", "--base-m", "core.l0c_size_bytes", "131072");
    check_err(NULL, "conv2d --cout 2048 --base-m 16 --base-n 2048", "--base-n", "core.l0c_size_bytes", "131072");
    check_err("ascend310", "conv2d --h 64 --w 64 --base-m 2048 --base-n 16", "--base-m", "core.l0a_size_bytes",
              "65536");
    check_err("ascend310", "conv2d --cout 1040 --base-m 16 --base-n 1040", "--base-n", "core.l0b_size_bytes",
              "65536");
    check_err(NULL, "conv2d --cin 16 --h 100 --w 4000 --cout 16 --base-m 512", "--base-m", "core.l1_size_bytes",
              "524288");
    check_err(NULL, "conv2d --base-m 40", "--base-m", "multiple of 16", NULL);
    /* dtypes and blocks */
    check_err(NULL, "conv2d --dtype fp32", "--dtype", "not supported", NULL);
    check_err(NULL, "conv2d --dtype int8", "--dtype", "not supported", NULL);
    check_err(NULL, "conv2d --cores 25", "--cores", "chip.ai_cores", "24");
    /* tensors beyond device memory; unaligned rows on a chip without DataCopyPad */
    check_err(NULL, "conv2d --n 4096 --cin 4096 --h 512 --w 512", "conv2d", "hbm.capacity_bytes", NULL);
    check_err("ascend910a", "conv2d --h 9 --w 9", "--w", "chip.dma_pad", NULL);
    check_err("ascend910a", "conv2d --h 8 --w 8 --cin 3", "--cin", "chip.dma_pad", NULL);
}
END_TEST

Suite *dv_ops_conv_suite(void)
{
    Suite *s = suite_create("ops_conv");
    TCase *tc = tcase_create("conv2d");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_ops_conv_check_matrix, 0, 2);
    tcase_add_loop_test(tc, test_ops_conv_check_bf16_and_single_buffer, 0, 2);
    tcase_add_loop_test(tc, test_ops_conv_check_larger, 0, 2);
    tcase_add_loop_test(tc, test_ops_conv_check_tilings, 0, 2);
    tcase_add_loop_test(tc, test_ops_conv_check_small_l1, 0, 2);
    tcase_add_test(tc, test_ops_conv_check_910a);
    tcase_add_loop_test(tc, test_ops_conv_double_buffer_faster, 0, 2);
    tcase_add_loop_test(tc, test_ops_conv_tile_size_matters, 0, 2);
    tcase_add_test(tc, test_ops_conv_bad_params);
    suite_add_tcase(s, tc);
    return s;
}
