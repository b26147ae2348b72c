/* tests/check_ops_norm.c - softmax, layernorm, rmsnorm and batchnorm (ops/norm.c,
 * ops/norm_kernel.c): --check over a matrix of odd shapes, both dtypes and both chip layouts;
 * double buffering against single buffering; --eps and layernorm --stats; errors for tiles that do
 * not fit the UB and for bad parameters. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/ops.h"
#include "support/dvt.h"

/* The profiles of the matrix: NULL is the default ascend910b2 (split, 48 AIVs, 192 KB UB), then
 * the coupled ascend310 (2 cores, 248 KB UB). */
static const char *const profiles[] = {NULL, "ascend310"};
static const char *const dtypes[] = {"fp16", "fp32"};

/* Run one command with data and --check; it must pass with no mismatch and no hazard. */
static void check_op(const char *profile, const char *cmd)
{
    dvt_op_t r;
    dvt_op(&r, profile, NULL, cmd, true, true);
    ck_assert_msg(r.rc == DV_OK, "[%s] %s: %s", profile ? profile : "ascend910b2", cmd, r.err.msg);
    ck_assert_msg(r.check.compared > 0, "[%s] %s: nothing compared", profile ? profile : "ascend910b2", cmd);
    ck_assert_msg(r.check.mismatches == 0, "[%s] %s: %llu mismatches", profile ? profile : "ascend910b2", cmd,
                  (unsigned long long)r.check.mismatches);
    ck_assert_msg(r.cnt.hazards == 0, "[%s] %s: %llu hazards", profile ? profile : "ascend910b2", cmd,
                  (unsigned long long)r.cnt.hazards);
    dvt_op_free(&r);
}

/* A plan error: the message names the parameter and, where given, the limit. */
static void expect_error(const char *profile, const char *cmd, const char *param, const char *limit)
{
    dvt_op_t r;
    dvt_op(&r, profile, NULL, cmd, false, false);
    ck_assert_msg(r.rc != DV_OK, "%s: accepted", cmd);
    ck_assert_msg(strstr(r.err.msg, param) != NULL, "%s: message does not name %s: %s", cmd, param, r.err.msg);
    ck_assert_msg(!limit || strstr(r.err.msg, limit) != NULL, "%s: message does not name %s: %s", cmd, limit,
                  r.err.msg);
    dvt_op_free(&r);
}

/* Rows of 1, 7 (unaligned in both dtypes), 16 (one 32 B block in fp16), 64 (one fp32 repeat), 65
 * and 100 (a tail smaller than a repeat), 1000 and 4096 (a row pitch past the 255-block repeat
 * stride in fp32: reductions go row by row); 1, 3 and 37 rows (37 is split unevenly over cores
 * and tiles).  Loop index i: profile i / 2, dtype i % 2. */
static void row_matrix(const char *op, int i)
{
    static const unsigned cols[] = {1, 7, 16, 64, 65, 100, 1000, 4096};
    static const unsigned rows[] = {1, 3, 37};
    char cmd[256];
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
            snprintf(cmd, sizeof cmd, "%s --shape %ux%u --dtype %s", op, rows[r], cols[c], dtypes[i % 2]);
            check_op(profiles[i / 2], cmd);
        }
}

START_TEST(test_ops_softmax_matrix) { row_matrix("softmax", _i); }
END_TEST

START_TEST(test_ops_layernorm_matrix) { row_matrix("layernorm", _i); }
END_TEST

START_TEST(test_ops_rmsnorm_matrix) { row_matrix("rmsnorm", _i); }
END_TEST

/* Several tiles per block (a tail tile smaller than --tile-rows), single buffering, rank > 2
 * shapes, more cores than rows.  Loop index: the profile. */
START_TEST(test_ops_norm_tiles)
{
    static const char *const cmds[] = {
        "softmax --shape 37x100 --tile-rows 4 --cores 3",
        "softmax --shape 37x100 --tile-rows 4 --cores 3 --double-buffer off --dtype fp32",
        "layernorm --shape 2x3x5x100 --tile-rows 2 --cores 4",
        "layernorm --shape 29x1000 --tile-rows 3 --cores 2 --double-buffer off",
        "rmsnorm --shape 4x5x33 --tile-rows 5 --cores 2 --dtype fp32",
        "rmsnorm --shape 3x130 --cores 8",
        "layernorm --shape 2x8192 --double-buffer off",
        "softmax --shape 300x7 --dtype fp32 --cores 2",
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        check_op(profiles[_i], cmds[i]);
}
END_TEST

/* softmax_dim: every axis of rank 1 to 4 shapes, unaligned column tiles (a row of 1, 3 and 5
 * elements), an odd axis length (the pairwise reduction folds a row out), axes of one element,
 * several column tiles per block, single buffering.  Loop index i: profile i / 2, dtype i % 2. */
START_TEST(test_ops_softmax_dim_matrix)
{
    static const char *const cmds[] = {
        "--shape 4x2 --dim 0",          "--shape 7 --dim 0",          "--shape 3x5x7 --dim 0",
        "--shape 3x5x7 --dim 1",        "--shape 2x3x4x5 --dim 2",    "--shape 1x9x1 --dim 1",
        "--shape 5x1x3 --dim 1",        "--shape 33x100 --dim 0 --tile-cols 24 --cores 2",
        "--shape 6x65x130 --dim 1 --double-buffer off --cores 3", "--shape 300x16 --dim 0",
    };
    char cmd[256];
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        snprintf(cmd, sizeof cmd, "softmax_dim %s --dtype %s", cmds[c], dtypes[_i % 2]);
        check_op(profiles[_i / 2], cmd);
    }
}
END_TEST

/* softmax_dim's limits: the axis, the tile of a column that does not fit UB, a profile without
 * DataCopyPad. */
START_TEST(test_ops_softmax_dim_errors)
{
    expect_error(NULL, "softmax_dim --shape 4x5 --dim 2", "--dim", "0 .. 1");
    expect_error(NULL, "softmax_dim --shape 200000x3 --dim 0", "--shape", "core.ub_size_bytes");
    expect_error(NULL, "softmax_dim --shape 2000x300 --dim 0 --tile-cols 300", "--tile-cols", "core.ub_size_bytes");
    expect_error("ascend910a", "softmax_dim --shape 4x5 --dim 0", "--dim", "chip.dma_pad");
}
END_TEST

/* batchnorm_train: 2-D to 5-D, unaligned runs (S of 1, 7, 9 and 100: a tail under a repeat, a row
 * over a repeat folded), one channel, channels split unevenly over cores, one sample, a one-element
 * channel (the unbiased variance of one element is the biased one).  Loop index i: profile i / 2,
 * dtype i % 2. */
START_TEST(test_ops_batchnorm_train_matrix)
{
    static const char *const cmds[] = {
        "--shape 6x4",         "--shape 1x2x4",        "--shape 2x3x7",  "--shape 2x3x5x7",  "--shape 3x2x2x3x5",
        "--shape 2x70x9 --cores 3", "--shape 1x1x1", "--shape 5x3x100 --momentum 0.5 --eps 0.001", "--shape 40x2x1",
    };
    char cmd[256];
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        snprintf(cmd, sizeof cmd, "batchnorm_train %s --dtype %s", cmds[c], dtypes[_i % 2]);
        check_op(profiles[_i / 2], cmd);
    }
}
END_TEST

START_TEST(test_ops_batchnorm_train_errors)
{
    expect_error(NULL, "batchnorm_train --shape 8", "--shape", "2 to 5");
    expect_error(NULL, "batchnorm_train --shape 64x2x3000", "--shape", "2040");
    expect_error(NULL, "batchnorm_train --shape 64x2x2000", "--shape", "core.ub_size_bytes");
    expect_error("ascend910a", "batchnorm_train --shape 2x3x4", "--shape", "chip.dma_pad");
}
END_TEST

/* The reductions: one axis, a run, two runs (axes 0 and 2), all axes, a long reduced axis (a row of
 * 1 element per column: T = 1), several column tiles, fp16 summed into fp32, var with a correction
 * of 0 and as std.  Loop index i: profile i / 2, dtype i % 2. */
START_TEST(test_ops_reduce_matrix)
{
    static const char *const ops[] = {"reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
                                      "reduce_var", "reduce_logsumexp"};
    static const char *const cases[] = {"--shape 4x2 --axes 1",     "--shape 2x3x2 --axes 5", "--shape 3x5x7 --axes 6",
                                        "--shape 9x11 --axes 3",    "--shape 300x1 --axes 1", "--shape 5x40x70 --axes 2 --tile-cols 24",
                                        "--shape 2x3x4x5x6 --axes 10"};
    char cmd[256];
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            snprintf(cmd, sizeof cmd, "%s %s --dtype %s", ops[o], cases[c], dtypes[_i % 2]);
            check_op(profiles[_i / 2], cmd);
        }
    check_op(profiles[_i / 2], "reduce_sum --shape 6x50x3 --axes 2 --dtype fp16 --out-dtype fp32");
    check_op(profiles[_i / 2], "reduce_var --shape 6x50x3 --axes 2 --correction 0");
    check_op(profiles[_i / 2], "reduce_var --shape 6x50x3 --axes 3 --sqrt");
}
END_TEST

START_TEST(test_ops_reduce_errors)
{
    expect_error(NULL, "reduce_sum --shape 4x5 --axes 4", "--axes", "past the 2");
    expect_error(NULL, "reduce_max --shape 2x3x4x5x6 --axes 21", "--axes", "more than two runs");
    expect_error(NULL, "reduce_var --shape 4x5 --axes 1 --correction 4", "--correction", "no divisor");
    expect_error(NULL, "reduce_max --shape 4x5 --axes 1 --out-dtype fp32", "--out-dtype", "x's dtype");
    expect_error(NULL, "reduce_sum --shape 300000x1 --axes 1", "--shape", "core.ub_size_bytes");
    expect_error("ascend910a", "reduce_sum --shape 4x5 --axes 1", "--axes", "chip.dma_pad");
}
END_TEST

/* rmsnorm --stats (rstd), log softmax (softmax_dim --log) and cumsum (--exclusive, --reverse) along
 * every kind of axis.
 * Loop index i: profile i / 2, dtype i % 2. */
START_TEST(test_ops_logsoftmax_cumsum_matrix)
{
    static const char *const cmds[] = {
        "rmsnorm --stats --shape 2x16",                    "rmsnorm --stats --shape 37x100 --tile-rows 4",
        "rmsnorm --stats --shape 3x4096",
        "softmax_dim --log --shape 3x3 --dim 1",           "softmax_dim --log --shape 4x2 --dim 0",
        "softmax_dim --log --shape 3x5x7 --dim 1",         "softmax_dim --log --shape 2x65x30 --dim 1 --tile-cols 16",
        "cumsum --shape 2x2 --dim 0",                      "cumsum --shape 3x50x7 --dim 1",
        "cumsum --shape 3x50x7 --dim 1 --reverse",         "cumsum --shape 3x50x7 --dim 2 --exclusive",
        "cumsum --shape 9 --dim 0 --exclusive --reverse",  "cumsum --shape 4x70x33 --dim 1 --tile-cols 16 --cores 5",
    };
    char cmd[256];
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        snprintf(cmd, sizeof cmd, "%s --dtype %s", cmds[c], dtypes[_i % 2]);
        check_op(profiles[_i / 2], cmd);
    }
    expect_error(NULL, "cumsum --shape 4x5 --dim 2", "--dim", "0 .. 1");
    expect_error(NULL, "cumsum --shape 300000x3 --dim 0", "--shape", "core.ub_size_bytes");
}
END_TEST

/* Batchnorm: planes of odd H*W (unaligned in both dtypes), one channel, 1x1 planes, planes that
 * span channel wrap-around inside a tile, and planes larger than the UB (split into segments). */
START_TEST(test_ops_batchnorm_matrix)
{
    static const char *const shapes[] = {"2x3x5x7", "1x4x7x9", "2x16x3x3", "3x5x1x1", "1x1x1x1", "3x1x9x9",
                                         "2x3x56x56"};
    char cmd[256];
    const char *profile = profiles[_i / 2], *dt = dtypes[_i % 2];
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        snprintf(cmd, sizeof cmd, "batchnorm --shape %s --dtype %s", shapes[s], dt);
        check_op(profile, cmd);
    }
    snprintf(cmd, sizeof cmd, "batchnorm --shape 2x5x7x11 --dtype %s --tile-rows 3 --cores 2", dt);
    check_op(profile, cmd);
    snprintf(cmd, sizeof cmd, "batchnorm --shape 2x5x7x11 --dtype %s --cores 3 --double-buffer off", dt);
    check_op(profile, cmd);
}
END_TEST

/* Planes larger than the UB are split into segments (the last one shorter and unaligned). */
START_TEST(test_ops_batchnorm_split_planes)
{
    check_op(profiles[_i], "batchnorm --shape 1x2x300x300 --dtype fp32");
    check_op(profiles[_i], "batchnorm --shape 1x2x300x301 --dtype fp16 --cores 5");
    check_op(profiles[_i], "batchnorm --shape 2x3x300x301 --dtype fp32 --double-buffer off");
}
END_TEST

/* layernorm --stats on: y plus the fp32 mean and rstd of every row pass --check (one value per row
 * compared in each); odd row counts split unevenly over cores and tiles, rows of 1 and 7 elements,
 * and rows of 4096 whose reductions leave one value per 32 B slot.  Loop index: the profile. */
START_TEST(test_ops_layernorm_stats)
{
    static const struct {
        const char *args;
        uint64_t rows, cols;
    } cases[] = {
        {"--shape 37x100", 37, 100},
        {"--shape 3x5x33 --dtype fp32", 15, 33},
        {"--shape 37x100 --dtype fp32 --tile-rows 4 --cores 3", 37, 100},
        {"--shape 29x1000 --tile-rows 3 --cores 2 --double-buffer off", 29, 1000},
        {"--shape 37x4096 --dtype fp32 --cores 5", 37, 4096},
        {"--shape 300x7 --eps 0.5", 300, 7},
        {"--shape 1x1", 1, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "layernorm %s --stats on", cases[i].args);
        dvt_op_t r;
        dvt_op(&r, profiles[_i], NULL, cmd, true, true);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cmd, r.err.msg);
        ck_assert_uint_eq(r.plan.info.nargs, 6);
        ck_assert_str_eq(r.plan.args[4].name, "mean");
        ck_assert_str_eq(r.plan.args[5].name, "rstd");
        ck_assert_int_eq(r.plan.args[5].dtype, DV_DT_F32);
        ck_assert_msg(r.check.compared == cases[i].rows * (cases[i].cols + 2), "%s: %llu compared", cmd,
                      (unsigned long long)r.check.compared);
        ck_assert_uint_eq(r.check.mismatches, 0);
        ck_assert_uint_eq(r.cnt.hazards, 0);
        dvt_op_free(&r);
    }
}
END_TEST

/* --stats off (the default) keeps the four arguments; on writes two more fp32 rows of statistics with
 * byte-granular DMA, which a chip without chip.dma_pad lacks. */
START_TEST(test_ops_layernorm_stats_args)
{
    dvt_op_t r;
    dvt_op(&r, NULL, NULL, "layernorm --shape 8x1024", false, false);
    ck_assert_msg(r.rc == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.plan.info.nargs, 4);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_copy_ubuf_to_gm_align], 0);
    dvt_op_free(&r);
    dvt_op(&r, NULL, NULL, "layernorm --shape 8x1024 --stats on --cores 1", false, false);
    ck_assert_msg(r.rc == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_copy_ubuf_to_gm_align], 2); /* one tile: mean, rstd */
    ck_assert_uint_eq(r.plan.bytes, 2 * 8 * 1024 * 2 + 2 * 1024 * 2 + 2 * 8 * 4);
    dvt_op_free(&r);
    expect_error("ascend910a", "layernorm --shape 37x1024 --stats on", "--stats", "chip.dma_pad");
}
END_TEST

/* Every element of a random-looking tensor in [-1, 1), deterministic. */
static void fill(uint8_t *p, dv_dtype_t t, uint64_t n, uint32_t seed)
{
    for (uint64_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        dv_ops_store(p, t, i, (double)(seed >> 8) / (1 << 23) - 1.0);
    }
}

/* y of the reference for `cmd` (inputs filled by fill(); the parameter vectors in [0.5, 1.5)) into y. */
static void reference_y(const char *cmd, uint8_t **y, uint64_t *bytes)
{
    char buf[256], *argv[16];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", cmd);
    for (char *t = strtok(buf, " "); t && argc < 16; t = strtok(NULL, " "))
        argv[argc++] = t;
    const dv_opdesc_t *op = dv_ops_find(argv[0]);
    dv_config_t cfg;
    dv_opvals_t v;
    dv_op_plan_t plan;
    dv_error_t err;
    dvt_config(&cfg, NULL, NULL);
    ck_assert_msg(dv_ops_parse(op, argc - 1, argv + 1, &v, &err) == DV_OK, "%s: %s", cmd, err.msg);
    ck_assert_msg(dv_ops_plan(op, &cfg, &v, &plan, &err) == DV_OK, "%s: %s", cmd, err.msg);
    uint8_t *in[DV_OP_MAX_ARGS] = {0}, *out[DV_OP_MAX_ARGS] = {0};
    for (uint32_t i = 0; i < plan.info.nargs; i++) {
        uint8_t *p = calloc(plan.args[i].bytes, 1);
        ck_assert_ptr_nonnull(p);
        if (plan.args[i].dir == DV_ARG_IN) {
            fill(p, plan.args[i].dtype, plan.elems[i], i + 1);
            if (i > 0) /* gamma, var: positive */
                for (uint64_t e = 0; e < plan.elems[i]; e++)
                    dv_ops_store(p, plan.args[i].dtype, e, 1.0 + 0.5 * dv_ops_load(p, plan.args[i].dtype, e));
            in[i] = p;
        } else {
            out[i] = p;
        }
    }
    ck_assert_int_eq(op->reference(&plan, (const uint8_t *const *)in, out, &err), DV_OK);
    for (uint32_t i = 0; i < plan.info.nargs; i++) {
        if (strcmp(plan.args[i].name, "y") == 0) {
            *y = out[i];
            *bytes = plan.args[i].bytes;
            out[i] = NULL;
        }
        free(in[i]);
        free(out[i]);
    }
}

/* --eps is used by kernel and reference alike: eps 0.5 and the default give different outputs, and
 * the kernel matches the reference with either.  Loop index: the profile. */
START_TEST(test_ops_norm_eps_changes_the_result)
{
    static const char *const cmds[] = {"layernorm --shape 5x100 --dtype fp32", "rmsnorm --shape 5x100 --dtype fp32",
                                       "batchnorm --shape 2x3x5x7 --dtype fp32", "layernorm --shape 3x5x33"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char with[256];
        snprintf(with, sizeof with, "%s --eps 0.5", cmds[i]);
        uint8_t *a, *b;
        uint64_t na, nb;
        reference_y(cmds[i], &a, &na);
        reference_y(with, &b, &nb);
        ck_assert_uint_eq(na, nb);
        ck_assert_msg(memcmp(a, b, na) != 0, "%s: --eps 0.5 changes nothing", cmds[i]);
        free(a);
        free(b);
        check_op(profiles[_i], cmds[i]);
        check_op(profiles[_i], with);
    }
}
END_TEST

static uint64_t cycles_of(const char *cmd)
{
    dvt_op_t r;
    dvt_op(&r, NULL, NULL, cmd, false, false);
    ck_assert_msg(r.rc == DV_OK, "%s: %s", cmd, r.err.msg);
    const uint64_t c = r.cnt.cycles;
    dvt_op_free(&r);
    return c;
}

/* With two buffers per queue the next tile's load and the last tile's store overlap the vector
 * work; with one they serialise. */
START_TEST(test_ops_norm_double_buffer_faster)
{
    static const char *const cmds[] = {
        "softmax --shape 2048x1024 --cores 8 --tile-rows 8",
        "rmsnorm --shape 2048x1024 --cores 8 --tile-rows 8",
        "batchnorm --shape 8x64x56x56 --cores 8",
    };
    char on[256], off[256];
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        snprintf(on, sizeof on, "%s --double-buffer on", cmds[i]);
        snprintf(off, sizeof off, "%s --double-buffer off", cmds[i]);
        const uint64_t con = cycles_of(on), coff = cycles_of(off);
        ck_assert_msg(con < coff, "%s: double-buffered %llu cycles, single %llu", cmds[i], (unsigned long long)con,
                      (unsigned long long)coff);
    }
}
END_TEST

START_TEST(test_ops_norm_row_too_long)
{
    expect_error(NULL, "softmax --shape 2x100000 --dtype fp32", "--shape", "core.ub_size_bytes");
    expect_error(NULL, "layernorm --shape 2x100000", "--tile-rows", "core.ub_size_bytes");
    expect_error("ascend310", "rmsnorm --shape 4x1000000", "--shape", "core.ub_size_bytes");
    /* an 8192-wide fp16 layernorm fits single-buffered only: asked for two buffers, the message says so
     * (by default it falls back to one: check_ops_tiling.c) */
    expect_error(NULL, "layernorm --shape 2x8192 --double-buffer on", "core.ub_size_bytes", "--double-buffer off");
}
END_TEST

START_TEST(test_ops_norm_tile_rows_too_many)
{
    expect_error(NULL, "softmax --shape 2048x1024 --tile-rows 1000", "--tile-rows", "core.ub_size_bytes");
    expect_error(NULL, "batchnorm --shape 1x2x300x300 --tile-rows 2", "--tile-rows", "core.ub_size_bytes");
}
END_TEST

START_TEST(test_ops_norm_bad_params)
{
    expect_error(NULL, "softmax --dtype int8", "--dtype", NULL);
    expect_error(NULL, "layernorm --dtype bf16", "--dtype", NULL);
    expect_error(NULL, "batchnorm --dtype int32", "--dtype", NULL);
    expect_error(NULL, "rmsnorm --shape 0x4", "--shape", NULL);
    expect_error(NULL, "batchnorm --shape 8x64", "--shape", NULL);
    expect_error(NULL, "softmax --tile-rows 0", "--tile-rows", NULL);
    expect_error(NULL, "softmax --shape 100000x100000x100000", "--shape", "hbm.capacity_bytes");
    /* --eps is in (0, 1]; softmax has none, --stats is layernorm's */
    expect_error(NULL, "layernorm --eps 0", "--eps", "(0, 1]");
    expect_error(NULL, "rmsnorm --eps -0.1", "--eps", "(0, 1]");
    expect_error(NULL, "batchnorm --eps 2", "--eps", "(0, 1]");
    expect_error(NULL, "layernorm --eps abc", "--eps", "not a number");
    expect_error(NULL, "layernorm --eps 1e999", "--eps", "not a finite number");
    expect_error(NULL, "layernorm --eps nan", "--eps", "not a finite number");
    expect_error(NULL, "softmax --eps 0.1", "--eps", "no parameter");
    expect_error(NULL, "softmax --stats on", "--stats", "no parameter");
    expect_error(NULL, "layernorm --stats maybe", "--stats", "not on or off");
}
END_TEST

/* Unaligned rows need DataCopyPad; a chip without it (910A) names chip.dma_pad.  Aligned rows run. */
START_TEST(test_ops_norm_unaligned_needs_dma_pad)
{
    expect_error("ascend910a", "softmax --shape 37x1000", "--shape", "chip.dma_pad");
    expect_error("ascend910a", "batchnorm --shape 2x3x5x7 --dtype fp32", "--shape", "chip.dma_pad");
    check_op("ascend910a", "layernorm --shape 37x1024");
    check_op("ascend910a", "batchnorm --shape 2x3x4x4 --dtype fp32");
}
END_TEST

Suite *dv_ops_norm_suite(void)
{
    Suite *s = suite_create("ops_norm");
    TCase *tc = tcase_create("norm");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_ops_softmax_matrix, 0, 4);
    tcase_add_loop_test(tc, test_ops_softmax_dim_matrix, 0, 4);
    tcase_add_test(tc, test_ops_softmax_dim_errors);
    tcase_add_loop_test(tc, test_ops_batchnorm_train_matrix, 0, 4);
    tcase_add_test(tc, test_ops_batchnorm_train_errors);
    tcase_add_loop_test(tc, test_ops_reduce_matrix, 0, 4);
    tcase_add_test(tc, test_ops_reduce_errors);
    tcase_add_loop_test(tc, test_ops_logsoftmax_cumsum_matrix, 0, 4);
    tcase_add_loop_test(tc, test_ops_layernorm_matrix, 0, 4);
    tcase_add_loop_test(tc, test_ops_rmsnorm_matrix, 0, 4);
    tcase_add_loop_test(tc, test_ops_norm_tiles, 0, 2);
    tcase_add_loop_test(tc, test_ops_batchnorm_matrix, 0, 4);
    tcase_add_loop_test(tc, test_ops_batchnorm_split_planes, 0, 2);
    tcase_add_test(tc, test_ops_norm_double_buffer_faster);
    tcase_add_test(tc, test_ops_norm_row_too_long);
    tcase_add_test(tc, test_ops_norm_tile_rows_too_many);
    tcase_add_test(tc, test_ops_norm_bad_params);
    tcase_add_test(tc, test_ops_norm_unaligned_needs_dma_pad);
    tcase_add_loop_test(tc, test_ops_layernorm_stats, 0, 2);
    tcase_add_test(tc, test_ops_layernorm_stats_args);
    tcase_add_loop_test(tc, test_ops_norm_eps_changes_the_result, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
