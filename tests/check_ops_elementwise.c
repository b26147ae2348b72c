/* tests/check_ops_elementwise.c - the element-wise operators and copy (ops/elementwise.c): --check
 * over every operator and dtype with odd sizes and tails smaller than a tile on the 910B2 and 310
 * profiles, add / sub --alpha, the tilings that must matter (double buffering, bytes per copy), and
 * the parameter errors a user can reach. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "dv/ops.h"
#include "support/dvt.h"

static const char *const profiles[] = {NULL /* ascend910b2 */, "ascend310"};

/* Every operator with every dtype it takes. */
static const struct {
    const char *op, *dtype;
} matrix[] = {
    {"add", "fp16"}, {"add", "fp32"}, {"add", "int16"}, {"add", "int32"},
    {"sub", "fp16"}, {"sub", "fp32"}, {"sub", "int16"}, {"sub", "int32"},
    {"mul", "fp16"}, {"mul", "fp32"}, {"mul", "int16"}, {"mul", "int32"},
    {"div", "fp16"}, {"div", "fp32"},
    {"max", "fp16"}, {"max", "fp32"}, {"max", "int16"}, {"max", "int32"},
    {"relu", "fp16"}, {"relu", "fp32"}, {"relu", "int32"},
    {"gelu", "fp16"}, {"gelu", "fp32"},
    {"exp", "fp16"}, {"exp", "fp32"},
    {"sigmoid", "fp16"}, {"sigmoid", "fp32"},
    {"silu", "fp16"}, {"silu", "fp32"},
};
#define NMATRIX ((int)(sizeof matrix / sizeof matrix[0]))

/* Run with --check; the run must pass, compare every element and find no hazard. */
static void check_ok(const char *profile, const char *cmd, uint64_t elems)
{
    dvt_op_t r;
    dvt_op(&r, profile, NULL, cmd, true, true);
    ck_assert_msg(r.rc == DV_OK, "%s on %s: %s", cmd, profile ? profile : "ascend910b2", r.err.msg);
    ck_assert_msg(r.check.mismatches == 0, "%s: %llu mismatches", cmd, (unsigned long long)r.check.mismatches);
    ck_assert_msg(r.check.compared == elems, "%s: %llu of %llu elements compared", cmd,
                  (unsigned long long)r.check.compared, (unsigned long long)elems);
    ck_assert_msg(r.cnt.hazards == 0, "%s: %llu hazards", cmd, (unsigned long long)r.cnt.hazards);
    dvt_op_free(&r);
}

/* One operator and dtype on one profile: loop index
 * profile * NMATRIX + row.  Sizes: a single element, below one 32-B block, exactly one block, just
 * over, and sizes whose last tile (256 elements per copy) is shorter than a tile and ends inside a
 * repeat; 3 blocks split the larger ones.  A 3-D shape runs with the default tiling (auto tile,
 * every core) single-buffered. */
START_TEST(test_ops_elementwise_check_matrix)
{
    static const uint64_t sizes[] = {1, 15, 16, 17, 1000, 4097, 65537};
    const char *profile = profiles[_i / NMATRIX];
    const int row = _i % NMATRIX;
    char cmd[256];
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        snprintf(cmd, sizeof cmd, "%s --shape %llu --dtype %s --cores 3 --tile-elems 256", matrix[row].op,
                 (unsigned long long)sizes[s], matrix[row].dtype);
        check_ok(profile, cmd, sizes[s]);
    }
    snprintf(cmd, sizeof cmd, "%s --shape 3x7x1001 --dtype %s --double-buffer off", matrix[row].op, matrix[row].dtype);
    check_ok(profile, cmd, 3 * 7 * 1001);
}
END_TEST

/* --tile-elems auto takes the largest power of two up to 16384 whose buffers fit in UB: one block
 * of 100000 elements then needs ceil(100000 / tile) copies per input. */
START_TEST(test_ops_elementwise_auto_tile_fits_ub)
{
    static const struct {
        const char *cmd;
        uint64_t inputs, tile;
    } cases[] = {
        {"add --dtype fp16", 2, 16384},                     /* 3 queues x 2 x 32 KB = the whole 192 KB UB */
        {"add --dtype fp32", 2, 8192},
        {"add --dtype fp32 --double-buffer off", 2, 16384},
        {"exp --dtype fp32", 1, 8192},                      /* 2 queues x 2 x 64 KB would not fit */
        {"gelu --dtype fp16", 1, 8192},                     /* 2 x 2 x 16 KB + 2 fp32 scratch x 32 KB */
        {"sigmoid --dtype fp16", 1, 16384},                 /* 2 x 2 x 32 KB + 1 fp32 scratch x 64 KB */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "%s --shape 100000 --cores 1", cases[i].cmd);
        dvt_op_t r;
        dvt_op(&r, NULL, NULL, cmd, false, false);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cmd, r.err.msg);
        const uint64_t tiles = (100000 + cases[i].tile - 1) / cases[i].tile;
        ck_assert_msg(r.cnt.op_count[DV_OP_copy_gm_to_ubuf] == cases[i].inputs * tiles, "%s: %llu copies in, expected tiles of %llu", cmd,
                      (unsigned long long)r.cnt.op_count[DV_OP_copy_gm_to_ubuf], (unsigned long long)cases[i].tile);
        ck_assert_uint_eq(r.cnt.hazards, 0);
        dvt_op_free(&r);
    }
}
END_TEST

/* The instruction stream: whole repeats in runs of at most 255, the partial repeat under a mask,
 * dependent activation steps separated by pipe_barrier(V). */
START_TEST(test_ops_elementwise_instruction_counts)
{
    dvt_op_t r;
    /* tiles of 49152 fp16 (384 repeats: 255 + 129) twice, then 1697 = 13 repeats + 33 masked */
    dvt_op(&r, NULL, NULL, "relu --shape 100001 --tile-elems 49152 --double-buffer off --cores 1", false, false);
    ck_assert_msg(r.rc == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_vrelu], 6);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_set_vector_mask], 2);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_copy_gm_to_ubuf], 3);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_copy_ubuf_to_gm], 3);
    dvt_op_free(&r);
    /* one fp16 gelu tile of 1000 elements in fp32: 15 repeats + 40 masked per step; 10 steps
     * (cast, 8 formula steps, cast) */
    dvt_op(&r, NULL, NULL, "gelu --shape 1000 --tile-elems 1024 --cores 1", false, false);
    ck_assert_msg(r.rc == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_vconv], 4);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_vmul], 4);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_vmuls], 4);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_vadd], 2);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_vexp], 2);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_vadds], 2);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_vdiv], 2);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_pipe_barrier], 9);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_set_vector_mask], 20);
    dvt_op_free(&r);
}
END_TEST

/* Tiles longer than 255 repeats, single-buffered to fit the UB, computed right. */
START_TEST(test_ops_elementwise_long_tiles)
{
    check_ok(NULL, "relu --shape 100001 --tile-elems 49152 --double-buffer off", 100001);
    check_ok(NULL, "silu --dtype fp32 --shape 100001 --tile-elems 24576 --double-buffer off --cores 2", 100001);
    check_ok(NULL, "gelu --shape 100001 --tile-elems 12288 --double-buffer off --cores 2", 100001);
    check_ok(NULL, "mul --dtype int16 --shape 100001 --tile-elems 32768 --double-buffer off --cores 1", 100001);
}
END_TEST

/* --alpha: z = x +- alpha * y.  fp32 is bit-exact against the reference (which rounds alpha * y to
 * fp32, then adds in fp32), so the largest error is 0; fp16 and the integers pass --check too, on
 * both profiles, with odd sizes and a masked tail.  Loop index: the profile. */
START_TEST(test_ops_elementwise_alpha_check)
{
    const char *profile = profiles[_i];
    static const char *const exact[] = {
        "add --dtype fp32 --alpha 1.2 --shape 4097 --cores 3 --tile-elems 256",
        "add --dtype fp32 --alpha 1 --shape 4097 --cores 3 --tile-elems 256",
        "sub --dtype fp32 --alpha -0.3 --shape 3x7x1001 --double-buffer off",
        "add --dtype fp32 --alpha 1e-3 --shape 65537",
    };
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++) {
        dvt_op_t r;
        dvt_op(&r, profile, NULL, exact[i], true, true);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", exact[i], r.err.msg);
        ck_assert_msg(r.check.compared > 0 && r.check.max_abs_err == 0, "%s: max abs err %g", exact[i],
                      r.check.max_abs_err);
        ck_assert_uint_eq(r.cnt.hazards, 0);
        dvt_op_free(&r);
    }
    check_ok(profile, "add --dtype fp16 --alpha 1.2 --shape 4097 --cores 3 --tile-elems 256", 4097);
    check_ok(profile, "sub --dtype fp16 --alpha -0.3 --shape 3x7x1001", 3 * 7 * 1001);
    check_ok(profile, "sub --dtype fp16 --alpha 2.5 --shape 17 --cores 3", 17);
    check_ok(profile, "add --dtype int32 --alpha 3 --shape 4097 --cores 3 --tile-elems 256", 4097);
    check_ok(profile, "sub --dtype int32 --alpha -2147483648 --shape 1000", 1000);
    check_ok(profile, "add --dtype int16 --alpha -7 --shape 1000 --cores 2", 1000);
    check_ok(profile, "sub --dtype int16 --alpha 0 --shape 15", 15);
}
END_TEST

/* At alpha 1 the kernel is the plain vadd; otherwise one vmuls and one pipe_barrier(V) per vadd. */
START_TEST(test_ops_elementwise_alpha_instructions)
{
    dvt_op_t r;
    dvt_op(&r, NULL, NULL, "add --dtype fp32 --shape 4x2048 --alpha 1", false, false);
    ck_assert_msg(r.rc == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_vmuls], 0);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_pipe_barrier], 0);
    ck_assert_uint_eq(r.plan.flops, 8192);
    const uint64_t vadd = r.cnt.op_count[DV_OP_vadd];
    dvt_op_free(&r);
    dvt_op(&r, NULL, NULL, "add --dtype fp32 --shape 4x2048 --alpha 1.2", false, false);
    ck_assert_msg(r.rc == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_vadd], vadd);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_vmuls], vadd);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_pipe_barrier], vadd);
    ck_assert_uint_eq(r.plan.flops, 2 * 8192);
    dvt_op_free(&r);
}
END_TEST

/* Cycles of one timing-only run (on a fresh model, as dvt_op runs it: no run sees another's data
 * in L2). */
static uint64_t op_cycles(const char *profile, const char *cmd)
{
    dvt_op_t r;
    dvt_op(&r, profile, NULL, cmd, false, false);
    ck_assert_msg(r.rc == DV_OK && r.cnt.hazards == 0, "%s on %s: %s%s", cmd, profile ? profile : "ascend910b2",
                  r.rc == DV_OK ? "hazards" : "failed: ", r.rc == DV_OK ? "" : r.err.msg);
    const uint64_t c = r.cnt.cycles;
    dvt_op_free(&r);
    return c;
}

/* Double buffering overlaps the copies with each other and with the vector work (ref 4.2), so the
 * same add runs faster with it (timing only, 4 MB per input on 4 AIVs / on the 310's 2 cores; on
 * the 310 both are near its DRAM bound, so the gain is a few percent). */
START_TEST(test_ops_elementwise_double_buffer_faster)
{
    for (int p = 0; p < 2; p++) {
        uint64_t on = op_cycles(profiles[p], "add --shape 2097152 --cores 4 --tile-elems 8192 --double-buffer on");
        uint64_t off = op_cycles(profiles[p], "add --shape 2097152 --cores 4 --tile-elems 8192 --double-buffer off");
        ck_assert_msg(on * 50 < off * 49, "%s: double-buffered %llu cycles, single %llu",
                      profiles[p] ? profiles[p] : "ascend910b2", (unsigned long long)on, (unsigned long long)off);
    }
}
END_TEST

/* More bytes per copy amortise the per-transfer cost (calibration C2 cases 2 and 3). */
START_TEST(test_ops_elementwise_bigger_tiles_faster)
{
    uint64_t small = op_cycles(NULL, "add --shape 4194304 --cores 8 --tile-elems 1024 --double-buffer off");
    uint64_t big = op_cycles(NULL, "add --shape 4194304 --cores 8 --tile-elems 16384 --double-buffer off");
    ck_assert_msg(big < small, "16384 elements per copy: %llu cycles, 1024: %llu", (unsigned long long)big,
                  (unsigned long long)small);
}
END_TEST

/* V pipe busy cycles summed over the cores (independent of what L2 holds). */
static uint64_t vec_busy(const dv_counters_t *c)
{
    uint64_t busy = 0;
    for (uint32_t i = 0; i < c->ncores; i++)
        busy += c->cores[i].pipe_busy[DV_PIPE_V];
    return busy;
}

/* An activation is a chain of vector steps: gelu (8 steps in fp32 plus 2 casts) keeps the V pipe
 * several times longer than add on the same data, and fp16 exp (64 B/cycle) longer than add. */
START_TEST(test_ops_elementwise_activation_vector_cost)
{
    static const char *const cmds[] = {"add --shape 1048576 --cores 4", "gelu --shape 1048576 --cores 4",
                                       "exp --shape 1048576 --cores 4"};
    uint64_t busy[3];
    for (int i = 0; i < 3; i++) {
        dvt_op_t r;
        dvt_op(&r, NULL, NULL, cmds[i], false, false);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cmds[i], r.err.msg);
        busy[i] = vec_busy(&r.cnt);
        dvt_op_free(&r);
    }
    ck_assert_msg(busy[1] > 4 * busy[0], "V busy: gelu %llu, add %llu", (unsigned long long)busy[1],
                  (unsigned long long)busy[0]);
    ck_assert_msg(busy[2] > busy[0], "V busy: exp %llu, add %llu", (unsigned long long)busy[2],
                  (unsigned long long)busy[0]);
}
END_TEST

/* copy --write on: every tile read and written back; odd tile tails in both directions. */
START_TEST(test_ops_copy_check)
{
    const char *profile = profiles[_i];
    static const char *const cmds[] = {
        "copy --shape 100x96 --tile 16x64 --cores 3 --write on",
        "copy --shape 100x96 --tile 16x64 --cores 3 --write on --copies-per-buffer 3 --double-buffer off",
        "copy --shape 37x48 --tile 64x1024 --dtype fp32 --write on",
        "copy --shape 9x64 --tile 1x32 --dtype int8 --cores 5 --write on",
        "copy --shape 33x32 --tile 4x16 --dtype bf16 --write on",
    };
    static const uint64_t elems[] = {9600, 9600, 37 * 48, 9 * 64, 33 * 32};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        check_ok(profile, cmds[i], elems[i]);
}
END_TEST

/* Without --write the kernel only reads: nothing is written to GM and there is nothing to compare. */
START_TEST(test_ops_copy_read_only)
{
    dvt_op_t r;
    dvt_op(&r, NULL, NULL, "copy --shape 256x1024 --tile 8x512 --cores 4", true, true);
    ck_assert_msg(r.rc == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.plan.info.nargs, 1);
    ck_assert_uint_eq(r.check.compared, 0);
    ck_assert_uint_eq(r.cnt.gm_write_bytes, 0);
    ck_assert_uint_eq(r.cnt.gm_read_bytes, 256 * 1024 * 2);
    ck_assert_uint_eq(r.cnt.hazards, 0);
    dvt_op_free(&r);
}
END_TEST

/* Calibration C3's point on a smaller tensor: 64x1024 tiles (2 KB bursts, 128 KB per copy) read
 * faster than 1x64 tiles (one 128-B burst per copy). */
START_TEST(test_ops_copy_bigger_tiles_faster)
{
    uint64_t small = op_cycles(NULL, "copy --shape 1024x2048 --tile 1x64 --cores 8 --double-buffer off");
    uint64_t big = op_cycles(NULL, "copy --shape 1024x2048 --tile 64x1024 --cores 8 --double-buffer off");
    ck_assert_msg(big * 4 < small, "64x1024: %llu cycles, 1x64: %llu", (unsigned long long)big,
                  (unsigned long long)small);
    /* many small copies per synchronised buffer hide the per-copy latency, not the per-copy cost */
    uint64_t batched = op_cycles(NULL, "copy --shape 1024x2048 --tile 1x64 --cores 8 --copies-per-buffer 256");
    ck_assert_msg(batched < small && big < batched, "1x64 batched: %llu cycles (single %llu, 64x1024 %llu)",
                  (unsigned long long)batched, (unsigned long long)small, (unsigned long long)big);
}
END_TEST

/* A failing plan: the message names the parameter and, where there is one, the limit. */
static void expect_error(const char *profile, const char *cmd, const char *param, const char *limit)
{
    dvt_op_t r;
    dvt_op(&r, profile, NULL, cmd, false, false);
    ck_assert_msg(r.rc != DV_OK, "%s: expected an error", cmd);
    ck_assert_msg(strstr(r.err.msg, param), "%s: '%s' does not name %s", cmd, r.err.msg, param);
    ck_assert_msg(!limit || strstr(r.err.msg, limit), "%s: '%s' does not name %s", cmd, r.err.msg, limit);
    dvt_op_free(&r);
}

START_TEST(test_ops_elementwise_bad_parameters)
{
    /* 3 queues x 2 buffers x 64 KB > 192 KB; the 310's 248 KB does not hold it either */
    expect_error(NULL, "add --dtype fp32 --tile-elems 16384", "--tile-elems", "core.ub_size_bytes");
    expect_error("ascend310", "add --dtype fp32 --tile-elems 16384", "--tile-elems", "core.ub_size_bytes");
    expect_error(NULL, "add --dtype fp32 --tile-elems 16384", "--tile-elems", "196608");
    /* the fp32 scratch of an fp16 activation counts */
    expect_error(NULL, "gelu --dtype fp16 --tile-elems 16384", "--tile-elems", "core.ub_size_bytes");
    /* a copy moves whole 32-B blocks */
    expect_error(NULL, "add --dtype fp32 --tile-elems 1001", "--tile-elems", "32-B");
    /* dtypes the instructions do not take */
    expect_error(NULL, "exp --dtype int32", "--dtype", "fp16|fp32");
    expect_error(NULL, "div --dtype int16", "--dtype", NULL);
    expect_error(NULL, "relu --dtype int16", "--dtype", NULL);
    /* unknown parameter, tensor larger than device memory */
    expect_error(NULL, "add --tile 4x4", "--tile", NULL);
    expect_error(NULL, "add --shape 65536x65536x65536", "--shape", "hbm.capacity_bytes");
}
END_TEST

/* --alpha values the vmuls scalar cannot hold in the dtype, and operators without --alpha. */
START_TEST(test_ops_elementwise_bad_alpha)
{
    expect_error(NULL, "add --dtype int32 --alpha 1.5", "--alpha", "not an integer");
    expect_error(NULL, "sub --dtype int16 --alpha 0.5", "--alpha", "int16");
    expect_error(NULL, "add --dtype int16 --alpha 40000", "--alpha", "[-32768, 32767]");
    expect_error(NULL, "add --dtype int32 --alpha 3e9", "--alpha", "[-2147483648, 2147483647]");
    expect_error(NULL, "add --dtype fp16 --alpha 1e5", "--alpha", "65504");
    expect_error(NULL, "add --alpha abc", "--alpha", "not a number");
    expect_error(NULL, "sub --alpha nan", "--alpha", "not a finite number");
    expect_error(NULL, "add --alpha 1e999", "--alpha", "not a finite number");
    expect_error(NULL, "mul --alpha 2", "--alpha", "no parameter");
    expect_error(NULL, "max --alpha 2", "--alpha", "no parameter");
}
END_TEST

START_TEST(test_ops_copy_bad_parameters)
{
    /* not expressible as one DMA */
    expect_error(NULL, "copy --shape 4096x1000 --tile 64x1000 --dtype fp16", "--shape", "32-B");
    expect_error(NULL, "copy --shape 64x2048 --tile 4x8", "--tile", "32-B");
    expect_error(NULL, "copy --shape 8192x64 --tile 4096x16 --double-buffer off", "--tile", "4095");
    expect_error(NULL, "copy --shape 8x2200000 --tile 1x16", "--tile", "65535");
    /* 2 x 128 KB of 64x1024 fp16 does not fit the 910B's UB; single-buffered it does */
    expect_error(NULL, "copy --shape 12288x12288 --tile 64x1024", "--tile", "core.ub_size_bytes");
    expect_error(NULL, "copy --tile 1x64 --copies-per-buffer 4096 --dtype fp32", "--copies-per-buffer",
                 "core.ub_size_bytes");
    expect_error(NULL, "copy --shape 64x64x64", "--shape", NULL);
    expect_error(NULL, "copy --tile 64", "--tile", NULL);
}
END_TEST

Suite *dv_ops_elementwise_suite(void)
{
    Suite *s = suite_create("ops_elementwise");
    TCase *tc = tcase_create("elementwise");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_ops_elementwise_check_matrix, 0, 2 * NMATRIX);
    tcase_add_test(tc, test_ops_elementwise_auto_tile_fits_ub);
    tcase_add_test(tc, test_ops_elementwise_instruction_counts);
    tcase_add_test(tc, test_ops_elementwise_long_tiles);
    tcase_add_test(tc, test_ops_elementwise_double_buffer_faster);
    tcase_add_test(tc, test_ops_elementwise_bigger_tiles_faster);
    tcase_add_test(tc, test_ops_elementwise_activation_vector_cost);
    tcase_add_test(tc, test_ops_elementwise_bad_parameters);
    tcase_add_loop_test(tc, test_ops_elementwise_alpha_check, 0, 2);
    tcase_add_test(tc, test_ops_elementwise_alpha_instructions);
    tcase_add_test(tc, test_ops_elementwise_bad_alpha);
    suite_add_tcase(s, tc);
    TCase *cp = tcase_create("copy");
    tcase_set_timeout(cp, 120);
    tcase_add_loop_test(cp, test_ops_copy_check, 0, 2);
    tcase_add_test(cp, test_ops_copy_read_only);
    tcase_add_test(cp, test_ops_copy_bigger_tiles_faster);
    tcase_add_test(cp, test_ops_copy_bad_parameters);
    suite_add_tcase(s, cp);
    return s;
}
