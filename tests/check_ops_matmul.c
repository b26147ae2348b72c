/* tests/check_ops_matmul.c - the matmul operator (ops/matmul.c): --check over odd shapes, tails
 * smaller than a tile, every dtype pair, B transposed or not and ReLU on the 910B2 (FixPipe) and 310
 * (L0C -> UB -> GM) profiles; the tilings that must matter (a full L0 tile against 16x16x16, double
 * buffering); the block grid; and the parameter errors a user can reach. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "dv/ops.h"
#include "support/dvt.h"

static const char *const profiles[] = {NULL /* ascend910b2 */, "ascend310"};

static const char *pname(const char *profile) { return profile ? profile : "ascend910b2"; }

/* Run with --check; the run must pass, compare every element of C and find no hazard. */
static void check_ok(const char *profile, const char *cmd, uint64_t elems)
{
    dvt_op_t r;
    dvt_op(&r, profile, NULL, cmd, true, true);
    ck_assert_msg(r.rc == DV_OK, "%s on %s: %s", cmd, pname(profile), r.err.msg);
    ck_assert_msg(r.check.mismatches == 0, "%s: %llu mismatches", cmd, (unsigned long long)r.check.mismatches);
    ck_assert_msg(r.check.compared == elems, "%s: %llu of %llu elements compared", cmd,
                  (unsigned long long)r.check.compared, (unsigned long long)elems);
    ck_assert_msg(r.cnt.hazards == 0, "%s on %s: %llu hazards", cmd, pname(profile), (unsigned long long)r.cnt.hazards);
    dvt_op_free(&r);
}

/* Plan only (no run): the parameters must be accepted. */
static void plan_of(const char *profile, const char *cmd, dv_op_plan_t *plan)
{
    dv_config_t cfg;
    dvt_config(&cfg, profile, NULL);
    char buf[512], *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", cmd);
    for (char *t = strtok(buf, " "); t && argc < 32; t = strtok(NULL, " "))
        argv[argc++] = t;
    const dv_opdesc_t *op = dv_ops_find("matmul");
    ck_assert_ptr_nonnull(op);
    dv_opvals_t vals;
    dv_error_t err;
    ck_assert_msg(dv_ops_parse(op, argc, argv, &vals, &err) == DV_OK, "%s: %s", cmd, err.msg);
    ck_assert_msg(dv_ops_plan(op, &cfg, &vals, plan, &err) == DV_OK, "%s on %s: %s", cmd, pname(profile), err.msg);
}

static uint32_t plan_blocks(const char *profile, const char *cmd)
{
    dv_op_plan_t plan;
    plan_of(profile, cmd, &plan);
    return plan.info.blocks;
}

/* Every (M, N, K) in {1, 16, 17, 64, 100, 257}^3: single elements, exact fractals, one past, and
 * M, N and K tails smaller than a fractal and than the tile.  The combinations rotate through three
 * tilings and both layouts of B: 32 x 48 x 32 with L1 groups of 2 and 3 slices on 3 blocks (several
 * tiles and groups per tile, A and B groups ending on different slices, partial last groups); the
 * default 128 x 256 x 64 on every core; 16 x 16 x 16 single-buffered with one slice per group on 5
 * blocks. */
START_TEST(test_ops_matmul_check_shapes)
{
    static const unsigned sizes[] = {1, 16, 17, 64, 100, 257};
    static const char *const tilings[] = {
        "--base-m 32 --base-n 48 --base-k 32 --step-ka 2 --step-kb 3 --cores 3",
        "",
        "--base-m 16 --base-n 16 --base-k 16 --step-ka 1 --step-kb 1 --double-buffer off --cores 5",
    };
    const char *profile = profiles[_i];
    char cmd[256];
    unsigned n = 0;
    for (size_t a = 0; a < 6; a++)
        for (size_t b = 0; b < 6; b++)
            for (size_t c = 0; c < 6; c++, n++) {
                const unsigned M = sizes[a], N = sizes[b], K = sizes[c];
                snprintf(cmd, sizeof cmd, "matmul --m %u --n %u --k %u --b-transposed %s %s", M, N, K,
                         n % 2 ? "on" : "off", tilings[n % 3]);
                check_ok(profile, cmd, (uint64_t)M * N);
            }
    /* the default tiling on one full tile and on a ragged edge */
    check_ok(profile, "matmul --m 256 --n 256 --k 256", 256 * 256);
    check_ok(profile, "matmul --m 130 --n 270 --k 200 --b-transposed", 130 * 270);
}
END_TEST

/* Every dtype pair the operator takes, each on an odd shape (a row of C that is not a whole number
 * of 32-B blocks: DataCopyPad on the 310) and an aligned one, with and without B transposed where the
 * dtype allows it. */
START_TEST(test_ops_matmul_check_dtypes)
{
    static const struct {
        const char *in, *out;
        bool bt_only; /* int8 and fp32 need B as [N,K] */
    } pairs[] = {
        {"fp16", "fp16", false}, {"fp16", "fp32", false}, {"fp16", "bf16", false},
        {"bf16", "bf16", false}, {"bf16", "fp16", false}, {"bf16", "fp32", false},
        {"int8", "int32", true}, {"fp32", "fp32", true},  {"fp32", "fp16", true},
    };
    const char *profile = profiles[_i];
    char cmd[256];
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
        for (int bt = pairs[p].bt_only ? 1 : 0; bt < 2; bt++) {
            snprintf(cmd, sizeof cmd,
                     "matmul --m 100 --n 37 --k 257 --dtype %s --out-dtype %s --b-transposed %s --base-m 64 "
                     "--base-n 32 --step-ka 2 --step-kb 1 --cores 2",
                     pairs[p].in, pairs[p].out, bt ? "on" : "off");
            check_ok(profile, cmd, 100 * 37);
            snprintf(cmd, sizeof cmd, "matmul --m 48 --n 64 --k 96 --dtype %s --out-dtype %s --b-transposed %s",
                     pairs[p].in, pairs[p].out, bt ? "on" : "off");
            check_ok(profile, cmd, 48 * 64);
        }
    /* the default output type of each input type */
    check_ok(profile, "matmul --m 40 --n 48 --k 50 --dtype bf16", 40 * 48);
    check_ok(profile, "matmul --m 40 --n 48 --k 50 --dtype int8 --b-transposed", 40 * 48);
    check_ok(profile, "matmul --m 40 --n 48 --k 50 --dtype fp32 --b-transposed", 40 * 48);
}
END_TEST

/* ReLU on the way out of L0C (FixPipe, or the V-pipe move on the 310): inputs are symmetric around
 * 0, so about half the outputs are clamped and a kernel ignoring --relu fails the check. */
START_TEST(test_ops_matmul_check_relu)
{
    static const char *const cmds[] = {
        "matmul --m 100 --n 100 --k 70 --relu",
        "matmul --m 33 --n 48 --k 64 --dtype bf16 --out-dtype fp32 --relu on",
        "matmul --m 64 --n 33 --k 100 --dtype int8 --b-transposed --relu",
        "matmul --m 17 --n 64 --k 17 --dtype fp32 --b-transposed --out-dtype fp16 --relu",
    };
    static const uint64_t elems[] = {100 * 100, 33 * 48, 64 * 33, 17 * 64};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        check_ok(profiles[_i], cmds[i], elems[i]);
}
END_TEST

/* The result leaves L0C through the FixPipe on the 910B and through V + MTE3 on the 310 (loop
 * index: the profile). */
START_TEST(test_ops_matmul_output_path)
{
    dvt_op_t r;
    ck_assert_int_eq(dvt_op(&r, profiles[_i], NULL, "matmul --m 64 --n 64 --k 64", false, false), DV_OK);
    if (_i == 0) {
        ck_assert(dvt_ratio(&r.cnt, DV_CORE_AIC, DV_PIPE_FIX) > 0);
        ck_assert(dvt_ratio(&r.cnt, DV_CORE_AIC, DV_PIPE_M) > 0);
    } else {
        ck_assert(dvt_ratio(&r.cnt, DV_CORE_COUPLED, DV_PIPE_V) > 0);
        ck_assert(dvt_ratio(&r.cnt, DV_CORE_COUPLED, DV_PIPE_MTE3) > 0);
        ck_assert(dvt_ratio(&r.cnt, DV_CORE_COUPLED, DV_PIPE_FIX) == 0);
    }
    dvt_op_free(&r);
}
END_TEST

/* A base tile that keeps L0 full (128 x 256 x 64) keeps the cube busier than 16 x 16 x 16, whose
 * mmads last one cycle each and whose GM loads are small. */
START_TEST(test_ops_matmul_base_tile_raises_mac_ratio)
{
    dvt_op_t big, small;
    ck_assert_int_eq(dvt_op(&big, NULL, NULL, "matmul --m 512 --n 512 --k 512 --cores 2", false, false), DV_OK);
    ck_assert_int_eq(dvt_op(&small, NULL, NULL,
                            "matmul --m 512 --n 512 --k 512 --cores 2 --base-m 16 --base-n 16 --base-k 16", false,
                            false),
                     DV_OK);
    const double rb = dvt_ratio(&big.cnt, DV_CORE_AIC, DV_PIPE_M), rs = dvt_ratio(&small.cnt, DV_CORE_AIC, DV_PIPE_M);
    ck_assert_msg(rb > 2 * rs, "mac_ratio 128x256x64 %.3f, 16x16x16 %.3f", rb, rs);
    ck_assert_msg(big.cnt.cycles * 10 < small.cnt.cycles, "cycles %llu vs %llu", (unsigned long long)big.cnt.cycles,
                  (unsigned long long)small.cnt.cycles);
    dvt_op_free(&big);
    dvt_op_free(&small);
}
END_TEST

/* Ping-pong L1 and L0 buffers overlap MTE2, MTE1 and the cube: double buffering is faster. */
START_TEST(test_ops_matmul_double_buffer_faster)
{
    const char *profile = profiles[_i];
    dvt_op_t on, off;
    ck_assert_int_eq(dvt_op(&on, profile, NULL, "matmul --m 512 --n 512 --k 512 --cores 2", false, false), DV_OK);
    ck_assert_int_eq(dvt_op(&off, profile, NULL, "matmul --m 512 --n 512 --k 512 --cores 2 --double-buffer off",
                            false, false),
                     DV_OK);
    ck_assert_msg(on.cnt.cycles * 5 < off.cnt.cycles * 4, "%s: on %llu cycles, off %llu", pname(profile),
                  (unsigned long long)on.cnt.cycles, (unsigned long long)off.cnt.cycles);
    ck_assert(dvt_ratio(&on.cnt, profile ? DV_CORE_COUPLED : DV_CORE_AIC, DV_PIPE_M) >
              dvt_ratio(&off.cnt, profile ? DV_CORE_COUPLED : DV_CORE_AIC, DV_PIPE_M));
    ck_assert_uint_eq(on.cnt.hazards + off.cnt.hazards, 0);
    dvt_op_free(&on);
    dvt_op_free(&off);
}
END_TEST

/* The block grid over the tile grid, the tilings of the calibration cases that must fit, and the
 * plan's arguments and roofline numbers. */
/* --unit-flag: the FixPipe drains each C tile while the tile's last mmad runs (the model's unit-flag
 * rule, tests/check_cube_pipe.c) instead of after an M -> FIX event: the same C, no hazard, fewer
 * cycles; a chip without a FixPipe refuses it. */
START_TEST(test_ops_matmul_unit_flag)
{
    const char *cmd = "matmul --m 300 --n 520 --k 700 --cores 1";
    char with[128];
    snprintf(with, sizeof with, "%s --unit-flag on", cmd);
    check_ok(NULL, with, 300 * 520);
    dvt_op_t on, off;
    ck_assert_int_eq(dvt_op(&on, NULL, NULL, with, false, false), DV_OK);
    ck_assert_int_eq(dvt_op(&off, NULL, NULL, cmd, false, false), DV_OK);
    ck_assert_msg(on.cnt.cycles < off.cnt.cycles, "unit flags %llu cycles, events %llu",
                  (unsigned long long)on.cnt.cycles, (unsigned long long)off.cnt.cycles);
    dvt_op_free(&on);
    dvt_op_free(&off);
    dvt_op_t r;
    ck_assert_int_ne(dvt_op(&r, "ascend310", NULL, "matmul --m 64 --n 64 --k 64 --unit-flag on", false, false), DV_OK);
    ck_assert_msg(strstr(r.err.msg, "unit-flag") && strstr(r.err.msg, "chip.has_fix_pipe"), "%s", r.err.msg);
    dvt_op_free(&r);
}
END_TEST

START_TEST(test_ops_matmul_block_grid)
{
    dv_op_plan_t plan;
    plan_of(NULL, "--m 100 --n 37 --k 300 --dtype int8 --b-transposed", &plan);
    ck_assert_uint_eq(plan.info.nargs, 3);
    ck_assert_uint_eq(plan.elems[0], 100 * 300);
    ck_assert_uint_eq(plan.elems[1], 300 * 37);
    ck_assert_uint_eq(plan.elems[2], 100 * 37);
    ck_assert_int_eq(plan.args[2].dtype, DV_DT_S32);
    ck_assert_int_eq(plan.info.kind, DV_KIND_CUBE);
    ck_assert_uint_eq(plan.flops, 2ull * 100 * 37 * 300);
    ck_assert_uint_eq(plan.bytes, 100 * 300 + 300 * 37 + 100 * 37 * 4);
    /* --out-dtype not given: the input's own type */
    plan_of(NULL, "--dtype bf16", &plan);
    ck_assert_int_eq(plan.args[2].dtype, DV_DT_BF16);
    plan_of(NULL, "--dtype fp32 --b-transposed", &plan);
    ck_assert_int_eq(plan.args[2].dtype, DV_DT_F32);
    plan_of(NULL, "", &plan);
    ck_assert_int_eq(plan.args[2].dtype, DV_DT_F16);
    /* 64 x 32 tiles of 128 x 256 on 24 AICs: a 6 x 4 grid, at most 11 x 8 tiles per block */
    ck_assert_uint_eq(plan_blocks(NULL, "--m 8192 --n 8192 --k 8192"), 24);
    /* depthA1 = 16, depthB1 = 8 (calibration C1 case 5) fills the 512 KB L1 exactly */
    ck_assert_uint_eq(plan_blocks(NULL, "--m 8192 --n 8192 --k 8192 --b-transposed --step-ka 8 --step-kb 4"), 24);
    ck_assert_uint_eq(plan_blocks(NULL, "--m 8192 --n 8192 --k 8192 --cores 1"), 1);
    /* one tile: one block whatever --cores says; 8 x 4 tiles: 2 per block at best, on 16 blocks */
    ck_assert_uint_eq(plan_blocks(NULL, "--m 100 --n 200 --k 3000"), 1);
    ck_assert_uint_eq(plan_blocks(NULL, "--m 1024 --n 1024 --k 64"), 16);
    ck_assert_uint_eq(plan_blocks("ascend310", "--m 1024 --n 1024 --k 64"), 2);
    /* --grid R x C splits in whole base tiles: 8192 / 6 = 1366 columns round up to 1536 (6 tiles of
     * 256), so 6 blocks along N and 4 along M; a grid finer than the tiles uses fewer blocks */
    ck_assert_uint_eq(plan_blocks(NULL, "--m 8192 --n 8192 --k 8192 --grid 4x6"), 24);
    ck_assert_uint_eq(plan_blocks(NULL, "--m 8192 --n 8192 --k 8192 --grid 64x1"), 64);
    ck_assert_uint_eq(plan_blocks(NULL, "--m 256 --n 256 --k 64 --grid 8x8"), 2);
    /* depth-a1 / depth-b1 (base-K slices L1 holds) with their steps: calibration C1 cases 1 and 5 */
    ck_assert_uint_eq(plan_blocks(NULL, "--m 8192 --n 8192 --k 8192 --b-transposed --step-ka 1 --step-kb 1 "
                                        "--depth-a1 1 --depth-b1 1 --cores 1"), 1);
    ck_assert_uint_eq(plan_blocks(NULL, "--m 8192 --n 8192 --k 8192 --b-transposed --step-ka 8 --step-kb 4 "
                                        "--depth-a1 16 --depth-b1 8 --grid 4x6"), 24);
    /* the auto base-k (128 bytes of K) fits double-buffered for every dtype */
    ck_assert_uint_eq(plan_blocks(NULL, "--dtype int8 --b-transposed --cores 1"), 1);
    ck_assert_uint_eq(plan_blocks(NULL, "--dtype fp32 --b-transposed --cores 1"), 1);
}
END_TEST

/* Explicit parameters that cannot work (automatic ones fall back: check_ops_tiling.c): the error starts with
 * the parameter and names the limit.  (None of
 * these runs the model, so the profiles may differ within one process.) */
/* --batch: independent products, checked on both profiles (several tiles per product, fp32 B^T,
 * one A shared); the free blocks take runs of batches, so a batch of small products runs in
 * parallel, and on one core the products queue. */
START_TEST(test_ops_matmul_batch)
{
    const char *profile = profiles[_i];
    check_ok(profile, "matmul --batch 5 --m 70 --n 90 --k 100", 5 * 70 * 90);
    check_ok(profile, "matmul --batch 3 --m 200 --n 300 --k 64 --dtype fp32 --b-transposed on --cores 5 --base-m 64",
             3 * 200 * 300);
    check_ok(profile, "matmul --batch 7 --m 33 --n 40 --k 50 --shared-a on", 7 * 33 * 40);
    check_ok(profile, "matmul --batch 4 --m 64 --n 64 --k 128 --dtype int8 --b-transposed on", 4 * 64 * 64);
    if (_i == 0) {
        ck_assert_uint_eq(plan_blocks(profile, "--batch 10 --m 64 --n 64 --k 64"), 10);
        ck_assert_uint_eq(plan_blocks(profile, "--batch 100 --m 64 --n 64 --k 64"), 24);
        ck_assert_uint_eq(plan_blocks(profile, "--batch 3 --m 64 --n 64 --k 64 --cores 2"), 2);
    }
    dvt_op_t one, eight, q1, q2;
    ck_assert_int_eq(dvt_op(&one, profile, NULL, "matmul --m 64 --n 64 --k 64", false, false), DV_OK);
    ck_assert_int_eq(dvt_op(&eight, profile, NULL, "matmul --batch 8 --m 64 --n 64 --k 64", false, false), DV_OK);
    ck_assert_int_eq(dvt_op(&q1, profile, NULL, "matmul --m 128 --n 256 --k 1024 --cores 1", false, false),
                     DV_OK);
    ck_assert_int_eq(dvt_op(&q2, profile, NULL, "matmul --batch 2 --m 128 --n 256 --k 1024 --cores 1", false, false),
                     DV_OK);
    ck_assert_msg(eight.cnt.cycles < 2 * one.cnt.cycles, "%s: 8 products on 8 cores took %llu cycles, one %llu",
                  pname(profile), (unsigned long long)eight.cnt.cycles, (unsigned long long)one.cnt.cycles);
    ck_assert_msg(10 * q2.cnt.cycles > 13 * q1.cnt.cycles, "%s: 2 products on one core took %llu cycles, "
                  "one %llu", pname(profile), (unsigned long long)q2.cnt.cycles, (unsigned long long)q1.cnt.cycles);
    dvt_op_free(&one);
    dvt_op_free(&eight);
    dvt_op_free(&q1);
    dvt_op_free(&q2);
}
END_TEST

START_TEST(test_ops_matmul_bad_params)
{
    static const struct {
        const char *profile, *cmd, *param, *limit;
    } cases[] = {
        {NULL, "matmul --base-m 256 --base-k 128 --double-buffer on", "--base-m", "core.l0a_size_bytes"},
        {NULL, "matmul --base-m 64 --base-n 512 --base-k 64 --double-buffer on", "--base-n", "core.l0b_size_bytes"},
        {NULL, "matmul --dtype fp32 --b-transposed --base-k 64 --base-n 256 --double-buffer on", "--base-n",
         "core.l0b_size_bytes"},
        {NULL, "matmul --base-m 256 --base-n 256 --base-k 32", "--base-m", "core.l0c_size_bytes"},
        {"ascend310", "matmul --base-m 512 --base-n 256 --base-k 16", "--base-m", "core.l0c_size_bytes"},
        {NULL, "matmul --k 8192 --step-ka 64 --base-m 128 --base-k 64", "--step-ka", "core.l1_size_bytes"},
        {NULL, "matmul --b-transposed --step-kb 16 --base-n 256 --base-k 64", "--step-kb", "core.l1_size_bytes"},
        {NULL, "matmul --step-ka 16 --depth-a1 32 --base-m 128 --base-k 64", "--depth-a1", "core.l1_size_bytes"},
        {NULL, "matmul --step-kb 4 --depth-b1 6", "--depth-b1", "multiple of --step-kb 4"},
        {NULL, "matmul --step-ka 2 --depth-a1 3", "--depth-a1", "multiple of --step-ka 2"},
        {NULL, "matmul --grid 4x6 --cores 24", "--grid", "not both"},
        {NULL, "matmul --grid 4", "--grid", "tile ROWSxCOLS"},
        {NULL, "matmul --grid 300x300", "--grid", "more than 65535"},
        {NULL, "matmul --base-m 24", "--base-m", "multiple of 16"},
        {NULL, "matmul --base-n 100", "--base-n", "multiple of 16"},
        {NULL, "matmul --base-k 40", "--base-k", "multiple of 16"},
        {NULL, "matmul --dtype int8 --b-transposed --base-k 48", "--base-k", "multiple of 32"},
        {NULL, "matmul --base-m 8", "--base-m", "[16, 4080]"},
        {NULL, "matmul --m 0", "--m", "[1, 16777216]"},
        {NULL, "matmul --dtype int8 --b-transposed --out-dtype fp16", "--out-dtype", "--dtype int8"},
        {NULL, "matmul --dtype fp16 --out-dtype int32", "--out-dtype", "--out-dtype int32"},
        {NULL, "matmul --dtype int16", "--dtype", "int16"},
        {"ascend310", "matmul --dtype int8", "--b-transposed", "chip.load_transpose"},
        {"ascend910a", "matmul --dtype fp32", "--b-transposed", "chip.load_transpose"},
        {NULL, "matmul --dtype int8 --base-n 48", "--base-n", "multiple of 32"},
        {NULL, "matmul --dtype fp32 --base-k 24", "--base-k", "multiple of 16"},
        {"ascend910a", "matmul --m 16 --n 17 --k 16", "--n", "chip.dma_pad"},
        {NULL, "matmul --m 200000 --n 200000 --k 200000", NULL, "hbm.capacity_bytes"},
        {NULL, "matmul --shared-a on", "--shared-a", "needs --batch"},
        {NULL, "matmul --batch 65536", "--batch", "[1, 65535]"},
        {"ascend310", "matmul --m 40000 --n 40000 --k 40000", NULL, "hbm.capacity_bytes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dvt_op_t r;
        dvt_op(&r, cases[i].profile, NULL, cases[i].cmd, false, false);
        ck_assert_msg(r.rc != DV_OK, "%s was accepted", cases[i].cmd);
        if (cases[i].param) {
            const size_t n = strlen(cases[i].param);
            ck_assert_msg(strncmp(r.err.msg, cases[i].param, n) == 0 && r.err.msg[n] == ':',
                          "%s: '%s' does not start with %s:", cases[i].cmd, r.err.msg, cases[i].param);
        }
        ck_assert_msg(strstr(r.err.msg, cases[i].limit), "%s: '%s' does not name %s", cases[i].cmd, r.err.msg,
                      cases[i].limit);
        dvt_op_free(&r);
    }
}
END_TEST

Suite *dv_ops_matmul_suite(void)
{
    Suite *s = suite_create("ops_matmul");
    TCase *tc = tcase_create("matmul");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_ops_matmul_check_shapes, 0, 2);
    tcase_add_loop_test(tc, test_ops_matmul_check_dtypes, 0, 2);
    tcase_add_loop_test(tc, test_ops_matmul_check_relu, 0, 2);
    tcase_add_loop_test(tc, test_ops_matmul_output_path, 0, 2);
    tcase_add_test(tc, test_ops_matmul_base_tile_raises_mac_ratio);
    tcase_add_loop_test(tc, test_ops_matmul_double_buffer_faster, 0, 2);
    tcase_add_test(tc, test_ops_matmul_block_grid);
    tcase_add_test(tc, test_ops_matmul_unit_flag);
    tcase_add_test(tc, test_ops_matmul_bad_params);
    tcase_add_loop_test(tc, test_ops_matmul_batch, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
