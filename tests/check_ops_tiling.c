/* tests/check_ops_tiling.c - tilings that always fit (ops/matmul.c, docs/OPS.md "Tilings that always
 * fit", matmul, conv2d and the row norms): every automatic choice that does not fit the profile's buffers falls back and the plan says
 * why (the report's operator section prints it), an explicit value that cannot fit is an error naming
 * it, and the M rounds and exact singleCoreN of the calibration's matmul cases walk the right tiles.
 * Every expected outcome is derived in the comments from the profile's buffer sizes:
 * 910B1: L1 524,288 B, L0A = L0B 65,536 B, L0C 131,072 B, 8 event ids per pipe pair; 910A: 4 ids. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "dv/ops.h"
#include "support/clit.h"
#include "support/dvt.h"

static void cli_setup(void) { clit_setup_named("dvsim-tiling"); }

/* Plan "NAME ARGS" on `profile` with `sets` (no run); returns the status, err filled. */
static int plan_op(const char *name, const char *profile, const char *const *sets, const char *args,
                   dv_op_plan_t *plan, dv_error_t *err)
{
    dv_config_t cfg;
    dvt_config(&cfg, profile, sets);
    char buf[512], *argv[40];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", args);
    for (char *t = strtok(buf, " "); t && argc < 40; t = strtok(NULL, " "))
        argv[argc++] = t;
    const dv_opdesc_t *op = dv_ops_find(name);
    ck_assert_ptr_nonnull(op);
    dv_opvals_t vals;
    int rc = dv_ops_parse(op, argc, argv, &vals, err);
    ck_assert_msg(rc == DV_OK, "%s: %s", args, err->msg);
    return dv_ops_plan(op, &cfg, &vals, plan, err);
}

static int plan_mm(const char *profile, const char *const *sets, const char *args, dv_op_plan_t *plan,
                   dv_error_t *err)
{
    return plan_op("matmul", profile, sets, args, plan, err);
}

static void plan_ok(const char *profile, const char *const *sets, const char *args, dv_op_plan_t *plan)
{
    dv_error_t err;
    ck_assert_msg(plan_mm(profile, sets, args, plan, &err) == DV_OK, "%s: %s", args, err.msg);
}

/* The plan's row `key`: its value and why must be as given ("" = as requested). */
static void row_is(const dv_op_plan_t *plan, const char *key, const char *val, const char *why)
{
    for (int i = 0; i < plan->ntiling_rows; i++)
        if (!strcmp(plan->tiling_rows[i].key, key)) {
            ck_assert_msg(!strcmp(plan->tiling_rows[i].val, val), "%s is %s, expected %s", key,
                          plan->tiling_rows[i].val, val);
            ck_assert_msg(!strcmp(plan->tiling_rows[i].why, why), "%s: why is '%s', expected '%s'", key,
                          plan->tiling_rows[i].why, why);
            return;
        }
    ck_abort_msg("no tiling row %s", key);
}

/* Run with --check on the data: must pass and compare `elems` elements (0: the operator's outputs
 * include workspaces, any number). */
static void check_ok(const char *profile, const char *const *sets, const char *cmd, uint64_t elems)
{
    dvt_op_t r;
    dvt_op(&r, profile, sets, cmd, true, true);
    ck_assert_msg(r.rc == DV_OK, "%s: %s", cmd, r.err.msg);
    ck_assert_msg(r.check.mismatches == 0 && r.check.compared && (!elems || r.check.compared == elems), "%s: %llu mismatches in %llu", cmd,
                  (unsigned long long)r.check.mismatches, (unsigned long long)r.check.compared);
    dvt_op_free(&r);
}

/* An explicit value that cannot fit: the error starts with --param and contains `text`. */
static void error_is(const char *profile, const char *args, const char *param, const char *text)
{
    dv_op_plan_t plan;
    dv_error_t err;
    ck_assert_msg(plan_mm(profile, NULL, args, &plan, &err) != DV_OK, "%s was accepted", args);
    const size_t n = strlen(param);
    ck_assert_msg(!strncmp(err.msg, param, n) && err.msg[n] == ':', "%s: '%s' does not start with %s:", args,
                  err.msg, param);
    ck_assert_msg(strstr(err.msg, text), "%s: '%s' does not say %s", args, err.msg, text);
}

#define MM8K "--m 8192 --n 8192 --k 8192 --b-transposed --base-k 64"

/* The first published tiling, stepKa = stepKb = 8: one fp16 base-K slice of A is 128 x 64 x 2
 * = 16,384 B, of B 256 x 64 x 2 = 32,768 B.  Auto depths 2 x 8 = 16 each: 16 x 16,384 + 16 x 32,768
 * = 786,432 > 524,288.  B holds more, so its depth falls to one load first: depth-b1 8, and
 * 262,144 + 262,144 = 524,288 fits; depth-a1 stays 16 (the calibration's C1-5 tiling). */
START_TEST(test_ops_tiling_depth_falls_back)
{
    dv_op_plan_t plan;
    plan_ok("ascend910b1", NULL, MM8K " --base-m 128 --base-n 256 --step-ka 8 --step-kb 8 --grid 4x6", &plan);
    row_is(&plan, "step-ka", "8", "");
    row_is(&plan, "step-kb", "8", "");
    row_is(&plan, "depth-a1", "16", "");
    row_is(&plan, "depth-b1", "8", "auto 16 does not fit L1: 786,432 > 524,288 B");
    row_is(&plan, "l0ab-buffers", "2", "");
    /* the same pressure on a shape small enough to run: K 1024 has 16 slices, so steps of 8 stand */
    check_ok("ascend910b1", NULL, "matmul --m 256 --n 512 --k 1024 --b-transposed --step-ka 8 --step-kb 8",
             256 * 512);
}
END_TEST

/* --base-n 320 --base-k 64 (fp16): L0C 128 x 320 x 4 = 163,840 > 131,072, so the automatic base-m
 * halves to 64 (81,920 fits); L0B double-buffered 2 x 64 x 320 x 2 = 81,920 > 65,536, so the
 * default ping-pong falls back to one buffer (40,960); L0A 64 x 64 x 2 x 1 fits.  Two C tiles
 * (163,840) do not fit L0C either: one L0C buffer, as the double-buffer rule says. */
START_TEST(test_ops_tiling_l0_single_buffer)
{
    dv_op_plan_t plan;
    plan_ok("ascend910b1", NULL, MM8K " --base-n 320", &plan);
    row_is(&plan, "base-m", "64", "auto 128 does not fit L0C: 163,840 > 131,072 B");
    row_is(&plan, "base-n", "320", "");
    row_is(&plan, "l0ab-buffers", "1", "auto 2 does not fit L0B: 81,920 > 65,536 B");
    row_is(&plan, "l0c-buffers", "1", "two C tiles do not fit L0C: 163,840 > 131,072 B");
    check_ok("ascend910b1", NULL, "matmul --m 200 --n 640 --k 300 --b-transposed --base-n 320 --base-k 64", 200 * 640);
}
END_TEST

/* Explicit depths of 16 and 16 (the request above with the depths given): 786,432 > 524,288 with
 * nothing automatic left on B's side, and the automatic base-k halves: 64 -> 32 gives 393,216, which
 * fits. */
START_TEST(test_ops_tiling_base_k_falls_back)
{
    dv_op_plan_t plan;
    plan_ok("ascend910b1", NULL,
            "--m 8192 --n 8192 --k 8192 --b-transposed --step-ka 8 --step-kb 8 --depth-a1 16 --depth-b1 16", &plan);
    row_is(&plan, "base-k", "32", "auto 64 does not fit L1: 786,432 > 524,288 B");
    row_is(&plan, "depth-a1", "16", "");
    row_is(&plan, "depth-b1", "16", "");
}
END_TEST

/* L1 cut to 131,072 B, the default tiling (128 x 256 x 64, steps 4, auto depths 8), K 1024:
 * A 8 x 16,384 = 131,072, B 8 x 32,768 = 262,144, 393,216 > 131,072: depth-b1 -> 4 (262,144 left);
 * A and B now hold 131,072 each, A first on a tie: depth-a1 -> 4 (196,608); no depth is left, so
 * the larger side's step halves: step-kb 2 gives B 65,536 and 131,072 in all, which fits. */
START_TEST(test_ops_tiling_steps_halve)
{
    static const char *const sets[] = {"core.l1_size_bytes=131072", NULL};
    dv_op_plan_t plan;
    plan_ok("ascend910b1", sets, "--m 1024 --n 1024 --k 1024 --b-transposed", &plan);
    row_is(&plan, "depth-b1", "2", "auto 8 does not fit L1: 393,216 > 131,072 B");
    row_is(&plan, "depth-a1", "4", "auto 8 does not fit L1: 262,144 > 131,072 B");
    row_is(&plan, "step-kb", "2", "auto 4 does not fit L1: 196,608 > 131,072 B");
    row_is(&plan, "step-ka", "4", "");
    check_ok("ascend910b1", sets, "matmul --m 160 --n 272 --k 520 --b-transposed", 160 * 272);
}
END_TEST

/* 910A has 4 event ids per pipe pair and every L1 buffer takes one: --depth-b1 12 with step 4 is 3
 * buffers, the automatic depth-a1 8 two more; 5 > 4, so depth-a1 falls to one load (4). */
START_TEST(test_ops_tiling_event_ids)
{
    dv_op_plan_t plan;
    plan_ok("ascend910a", NULL, "--m 256 --n 512 --k 1024 --b-transposed --depth-b1 12", &plan);
    row_is(&plan, "depth-a1", "4",
           "auto 8: 2 loads of A and 3 of B in flight need more MTE2 -> MTE1 event ids than sync.event_ids 4");
    row_is(&plan, "depth-b1", "12", "");
    check_ok("ascend910a", NULL, "matmul --m 256 --n 512 --k 1024 --b-transposed --depth-b1 12", 256 * 512);
}
END_TEST

/* Tiles no larger than the shape: M 100 needs 112 rows (7 fractals), K 40 fp16 48 columns. */
START_TEST(test_ops_tiling_clamped_to_shape)
{
    dv_op_plan_t plan;
    plan_ok("ascend910b1", NULL, "--m 100 --n 256 --k 40 --b-transposed", &plan);
    row_is(&plan, "base-m", "112", "M is 100: the tile is no larger than the shape needs");
    row_is(&plan, "base-n", "256", "");
    row_is(&plan, "base-k", "48", "K is 40: the tile is no larger than the shape needs");
    row_is(&plan, "step-ka", "1", "K has 1 slices of base-k");
}
END_TEST

/* Explicit values that cannot fit are errors that name them and the sizes. */
START_TEST(test_ops_tiling_explicit_errors)
{
    /* L0B: 2 x 64 x 320 x 2 = 81,920 with the ping-pong asked for */
    error_is("ascend910b1", MM8K " --base-m 64 --base-n 320 --double-buffer on", "--base-n",
             "2 x (--base-k 64 x --base-n 320) fp16 = 81920 bytes, core.l0b_size_bytes is 65536");
    /* L0C: 256 x 256 x 4 = 262,144, both bases given */
    error_is("ascend910b1", MM8K " --base-m 256 --base-n 256", "--base-m",
             "= 262144 bytes, core.l0c_size_bytes is 131072");
    /* L1: depths 16 + 16 given with every base given: 786,432 */
    error_is("ascend910b1", MM8K " --base-m 128 --base-n 256 --step-ka 8 --step-kb 8 --depth-a1 16 --depth-b1 16",
             "--depth-b1",
             "= 786432 bytes, core.l1_size_bytes is 524288");
    /* L1 with depth automatic and the step given: B 1 x 32 x 32,768 = 1,048,576 alone */
    error_is("ascend910b1", MM8K " --base-m 128 --base-n 256 --step-kb 32", "--step-kb",
             "core.l1_size_bytes is 524288");
    /* event ids: 64 / 8 = 8 buffers of A and at least 1 of B > 8 */
    error_is("ascend910b1", MM8K " --step-ka 8 --depth-a1 64", "--depth-a1", "sync.event_ids is 8");
    /* rounds that leave a part empty: M 5 in parts of 2 rows is 3 parts */
    error_is("ascend910b1", "--m 5 --b-transposed --m-rounds 4", "--m-rounds", "fewer than 4 parts");
}
END_TEST

/* --grid 2x12 --single-n 683 (calibration C5 case 2): singleCoreN 683 as given, not rounded to 256;
 * 12 blocks cover 12 x 683 = 8196 >= 8192 columns, the last 8192 - 11 x 683 = 679.  Block 11 (row 0,
 * column 11) walks columns [7513, 8192) as tiles of 256, 256 and 167 (from 8025). */
START_TEST(test_ops_tiling_single_n)
{
    dv_op_plan_t plan;
    plan_ok("ascend910b1", NULL, MM8K " --grid 2x12 --single-n 683", &plan);
    ck_assert_uint_eq(plan.info.blocks, 24);
    row_is(&plan, "grid", "2x12", "");
    row_is(&plan, "single-m", "4096", "");
    row_is(&plan, "single-n", "683", "");
    const dv_opdesc_t *op = dv_ops_find("matmul");
    ck_assert_uint_eq(op->cube->tiles(&plan, 11), 32 * 3);
    uint64_t m0, mt, n0, nt;
    op->cube->tile(&plan, 11, 2, &m0, &mt, &n0, &nt);
    ck_assert_uint_eq(m0, 0);
    ck_assert_uint_eq(n0, 7513 + 512);
    ck_assert_uint_eq(nt, 167);
    op->cube->tile(&plan, 11, 0, &m0, &mt, &n0, &nt);
    ck_assert_uint_eq(n0, 7513);
    op->cube->tile(&plan, 12, 0, &m0, &mt, &n0, &nt); /* block 12: row 1, column 0 */
    ck_assert_uint_eq(m0, 4096);
    ck_assert_uint_eq(n0, 0);
    check_ok("ascend910b1", NULL, "matmul --m 64 --n 100 --k 64 --b-transposed --grid 2x3 --single-n 35", 64 * 100);
}
END_TEST

/* --m-rounds 2 --grid 4x6 (calibration C5 case 6): each round is 4096 rows split 4 ways, 1024 rows
 * per block; block 0 walks rows [0, 1024) (8 rows of 6 tiles of 128 x 256) and then [4096, 5120):
 * its tile 48 starts at row 4096, its last (95) at 5120 - 128 = 4992, column 1280. */
START_TEST(test_ops_tiling_m_rounds)
{
    dv_op_plan_t plan;
    plan_ok("ascend910b1", NULL, MM8K " --grid 4x6 --m-rounds 2", &plan);
    row_is(&plan, "single-m", "1024", "");
    row_is(&plan, "m-rounds", "2", "");
    const dv_opdesc_t *op = dv_ops_find("matmul");
    ck_assert_uint_eq(op->cube->tiles(&plan, 0), 2 * 8 * 6);
    uint64_t m0, mt, n0, nt;
    op->cube->tile(&plan, 0, 48, &m0, &mt, &n0, &nt);
    ck_assert_uint_eq(m0, 4096);
    ck_assert_uint_eq(n0, 0);
    op->cube->tile(&plan, 0, 95, &m0, &mt, &n0, &nt);
    ck_assert_uint_eq(m0, 4992);
    ck_assert_uint_eq(n0, 1280);
    /* odd parts: M 100 in 3 rounds of 34, 34 and 32 rows, each split 2 ways in tiles of 16 */
    check_ok("ascend910b1", NULL, "matmul --m 100 --n 48 --k 40 --b-transposed --m-rounds 3 --grid 2x1 --base-m 16",
             100 * 48);
    check_ok("ascend310", NULL, "matmul --m 100 --n 48 --k 40 --b-transposed --m-rounds 3 --grid 2x1 --base-m 16",
             100 * 48);
}
END_TEST

/* conv2d: x [1, 16, 16, 4000], 3 x 3, pad 1, fp16.  The automatic base-m 128 spans at most two
 * output rows, an input band of 4 rows: one channel group is 4 x 4000 x 32 B + its weights 9 x 512 B
 * = 516,608 B; two buffers (1,033,216) do not fit L1 524,288, one does.  With the double buffering
 * asked for, the band of base-m 16 (3 rows, 388,608 B) still needs 777,216 B: an error naming it. */
START_TEST(test_ops_tiling_conv2d_buffers)
{
    dv_op_plan_t plan;
    dv_error_t err;
    const char *args = "--h 16 --w 4000 --cin 16 --cout 16";
    ck_assert_msg(plan_op("conv2d", "ascend910b1", NULL, args, &plan, &err) == DV_OK, "%s", err.msg);
    row_is(&plan, "buffers", "1", "auto 2 does not fit L1: 1,033,216 > 524,288 B");
    row_is(&plan, "base-m", "128", "");
    check_ok("ascend910b1", NULL, "conv2d --h 4 --w 4000 --cin 16 --cout 16", 0);
    ck_assert(plan_op("conv2d", "ascend910b1", NULL, "--h 16 --w 4000 --cin 16 --cout 16 --double-buffer on", &plan,
                      &err) != DV_OK);
    ck_assert_msg(strstr(err.msg, "--double-buffer: ") == err.msg && strstr(err.msg, "need 777216 bytes of L1"), "%s",
                  err.msg);
}
END_TEST

/* conv2d x [1, 16, 8, 2000] on an L1 of 200,000 B: the automatic base-m is 112 (16,000 positions
 * over 24 cores in whole waves: 144 tiles); its bands reach 4 input rows, 4 x 64,000 + 4,608 =
 * 260,608 B, so double buffering (521,216) goes first, then base-m shrinks until no band crosses an
 * output row: 80 (2000 / 80 = 25 whole tiles per row), 3 rows, 196,608 B. */
START_TEST(test_ops_tiling_conv2d_base_m)
{
    static const char *const sets[] = {"core.l1_size_bytes=200000", NULL};
    dv_op_plan_t plan;
    dv_error_t err;
    ck_assert_msg(plan_op("conv2d", "ascend910b1", sets, "--h 8 --w 2000 --cin 16 --cout 16", &plan, &err) == DV_OK,
                  "%s", err.msg);
    row_is(&plan, "buffers", "1", "auto 2 does not fit L1: 521,216 > 200,000 B");
    row_is(&plan, "base-m", "80", "auto 112: its input band does not fit L1: 260,608 > 200,000 B");
    check_ok("ascend910b1", sets, "conv2d --h 8 --w 2000 --cin 16 --cout 16", 0);
    /* nothing automatic left at 150,016 B: the width is named */
    static const char *const small[] = {"core.l1_size_bytes=150016", NULL};
    ck_assert(plan_op("conv2d", "ascend910b1", small, "--h 8 --w 2000 --cin 16 --cout 16", &plan, &err) != DV_OK);
    ck_assert_msg(strstr(err.msg, "--w: ") == err.msg, "%s", err.msg);
}
END_TEST

/* layernorm over rows of 8000 fp32 (32,000 B) on the 910B1's 196,608 B UB: the in and out queues
 * take 2 x 32,000 per buffer, so double buffering needs 64,000 B more than single buffering; the
 * explicit request states both totals (224,512 and 160,512), the default falls back to the one that
 * fits. */
START_TEST(test_ops_tiling_norm_buffers)
{
    dv_op_plan_t plan;
    dv_error_t err;
    ck_assert(plan_op("layernorm", "ascend910b1", NULL, "--shape 4x8000 --dtype fp32 --double-buffer on", &plan,
                      &err) != DV_OK);
    ck_assert_msg(strstr(err.msg, "needs 224512 bytes") && strstr(err.msg, "off it needs 160512"), "%s", err.msg);
    ck_assert_msg(plan_op("layernorm", "ascend910b1", NULL, "--shape 4x8000 --dtype fp32", &plan, &err) == DV_OK,
                  "%s", err.msg);
    row_is(&plan, "buffers", "1", "auto 2 does not fit UB: 224,512 > 196,608 B");
    check_ok("ascend910b1", NULL, "layernorm --shape 4x8000 --dtype fp32", 4 * 8000);
}
END_TEST

/* The report: the tiling used on one line, then a line per value that differs, in text and JSON. */
START_TEST(test_ops_tiling_report)
{
    ck_assert_int_eq(clit_dvsim("op matmul --m 256 --n 512 --k 1024 --b-transposed --step-ka 8 --step-kb 8 "
                                "--profile ascend910b1 --json $T/r.json"), 0);
    ck_assert_msg(strstr(clit_out, "  tiling      base-m 128 base-n 256 base-k 64 step-ka 8 step-kb 8 depth-a1 16 "
                                   "depth-b1 8 l0ab-buffers 2 l0c-buffers 1 grid 2x2 single-m 128 single-n 256 "
                                   "m-rounds 1\n"), "%s", clit_out);
    ck_assert_msg(strstr(clit_out, "  differs     depth-b1 8 (auto 16 does not fit L1: 786,432 > 524,288 B)\n"), "%s",
                  clit_out);
    char json[65536];
    snprintf(json, sizeof json, "%s/r.json", clit_tmp);
    clit_slurp(json, json, sizeof json);
    ck_assert_msg(strstr(json, "{\"param\":\"depth-b1\",\"value\":\"8\",\"why\":\"auto 16 does not fit L1: 786,432 > "
                               "524,288 B\"}"), "%s", json);
    ck_assert_msg(strstr(json, "{\"param\":\"depth-a1\",\"value\":\"16\",\"why\":null}"), "%s", json);
}
END_TEST

Suite *dv_ops_tiling_suite(void)
{
    Suite *s = suite_create("ops_tiling");
    TCase *tc = tcase_create("tiling");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_ops_tiling_depth_falls_back);
    tcase_add_test(tc, test_ops_tiling_l0_single_buffer);
    tcase_add_test(tc, test_ops_tiling_base_k_falls_back);
    tcase_add_test(tc, test_ops_tiling_steps_halve);
    tcase_add_test(tc, test_ops_tiling_event_ids);
    tcase_add_test(tc, test_ops_tiling_clamped_to_shape);
    tcase_add_test(tc, test_ops_tiling_explicit_errors);
    tcase_add_test(tc, test_ops_tiling_single_n);
    tcase_add_test(tc, test_ops_tiling_m_rounds);
    tcase_add_test(tc, test_ops_tiling_conv2d_buffers);
    tcase_add_test(tc, test_ops_tiling_conv2d_base_m);
    tcase_add_test(tc, test_ops_tiling_norm_buffers);
    suite_add_tcase(s, tc);
    TCase *cli = tcase_create("report");
    tcase_add_checked_fixture(cli, cli_setup, clit_teardown);
    tcase_add_test(cli, test_ops_tiling_report);
    suite_add_tcase(s, cli);
    return s;
}
