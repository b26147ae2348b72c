/* tests/check_ops_elementwise.c - the element-wise operators and copy (ops/elementwise.c) and
 * bias_add (ops/broadcast.c): --check over every operator and dtype with odd sizes and tails
 * smaller than a tile on the 910B2 and 310 profiles, add / sub --alpha and muls / adds --scalar,
 * bias_add's two kinds of view byte for byte against its reference, its graph binding, the tilings
 * that must matter (double buffering, bytes per copy), the parameter errors a user can reach, and
 * the per-tile code (dv_tile_ops_t) of two chained operators in one test kernel, byte for byte
 * against the two operators' own kernels run one after the other. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/fusion.h"
#include "dv/graph.h"
#include "dv/intmath.h"
#include "dv/ops.h"
#include "dv/sim.h"
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
    {"muls", "fp16"}, {"muls", "fp32"}, {"muls", "int16"}, {"muls", "int32"},
    {"adds", "fp16"}, {"adds", "fp32"}, {"adds", "int16"}, {"adds", "int32"},
    {"relu", "fp16"}, {"relu", "fp32"}, {"relu", "int32"},
    {"gelu", "fp16"}, {"gelu", "fp32"},
    {"exp", "fp16"}, {"exp", "fp32"},
    {"sigmoid", "fp16"}, {"sigmoid", "fp32"},
    {"silu", "fp16"}, {"silu", "fp32"},
    {"tanh", "fp16"}, {"tanh", "fp32"},
    {"min", "fp16"}, {"min", "fp32"}, {"min", "int16"}, {"min", "int32"},
    {"abs", "fp16"}, {"abs", "fp32"}, {"abs", "int16"}, {"abs", "int32"},
    {"neg", "fp16"}, {"neg", "fp32"}, {"neg", "int16"}, {"neg", "int32"},
    {"log", "fp16"}, {"log", "fp32"},
    {"sqrt", "fp16"}, {"sqrt", "fp32"},
    {"rsqrt", "fp16"}, {"rsqrt", "fp32"},
    {"reciprocal", "fp16"}, {"reciprocal", "fp32"},
    {"leaky_relu", "fp16"}, {"leaky_relu", "fp32"},
    {"divs", "fp16"}, {"divs", "fp32"},
    {"maxs", "fp16"}, {"maxs", "fp32"}, {"maxs", "int16"}, {"maxs", "int32"},
    {"mins", "fp16"}, {"mins", "fp32"}, {"mins", "int16"}, {"mins", "int32"},
    {"clamp", "fp16"}, {"clamp", "fp32"}, {"clamp", "int16"}, {"clamp", "int32"},
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
        {"tanh --dtype fp16", 1, 16384},                    /* X only read by its first step: one scratch */
        {"silu --dtype fp16", 1, 8192},                     /* X read again by x / (1 + exp(-x)): two */
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

/* add / sub --scalar-loop: every element through two ld_ub and one st_ub (fp16 through fp32, as the
 * reference rounds), no vector instruction, on both profiles, tails and several cores included. */
START_TEST(test_ops_elementwise_scalar_loop_check)
{
    static const char *const cmds[] = {"add --shape 1000 --tile-elems 256 --cores 3 --scalar-loop on",
                                       "sub --shape 4097 --tile-elems 1024 --cores 2 --scalar-loop on",
                                       "add --shape 17 --double-buffer off --scalar-loop on"};
    static const uint64_t elems[] = {1000, 4097, 17};
    for (int i = 0; i < 3; i++) {
        check_ok(profiles[_i], cmds[i], elems[i]);
        dvt_op_t r;
        dvt_op(&r, profiles[_i], NULL, cmds[i], false, false);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cmds[i], r.err.msg);
        ck_assert_uint_eq(r.cnt.op_count[DV_OP_ld_ub], 2 * elems[i]);
        ck_assert_uint_eq(r.cnt.op_count[DV_OP_st_ub], elems[i]);
        ck_assert_uint_eq(r.cnt.op_count[DV_OP_vadd] + r.cnt.op_count[DV_OP_vsub], 0);
        dvt_op_free(&r);
    }
}
END_TEST

/* The scalar loop's cost, derived by hand: one copy of 64 fp16 elements on one core, single
 * buffered, so nothing overlaps the loop: it adds exactly 64 x (2 scalar.load_cycles + 10 x
 * scalar.alu_cycles + scalar.store_cycles) cycles to the kernel (10 ALU instructions per element,
 * EW_LOOP_ALU_INSNS) over the same kernel with those three costs at 0: 64 x (12 + 20 + 4) = 2304 on
 * the 910B2, and each parameter moves it by its own share. */
START_TEST(test_ops_elementwise_scalar_loop_cycles)
{
    const char *cmd = "add --shape 64 --tile-elems 64 --cores 1 --double-buffer off --scalar-loop on";
    static const char *const zero[] = {"scalar.load_cycles=0", "scalar.store_cycles=0", "scalar.alu_cycles=0", NULL};
    static const char *const alu5[] = {"scalar.load_cycles=0", "scalar.store_cycles=0", "scalar.alu_cycles=5", NULL};
    static const char *const ld7[] = {"scalar.load_cycles=7", NULL};
    static const char *const st9[] = {"scalar.store_cycles=9", NULL};
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    ck_assert_uint_eq(cfg.scalar_load_cycles, 6);
    ck_assert_uint_eq(cfg.scalar_store_cycles, 4);
    ck_assert_uint_eq(cfg.scalar_alu_cycles, 2);
    uint64_t c[5];
    const char *const *sets[5] = {NULL, zero, alu5, ld7, st9};
    for (int i = 0; i < 5; i++) {
        dvt_op_t r;
        dvt_op(&r, NULL, sets[i], cmd, false, false);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cmd, r.err.msg);
        c[i] = r.cnt.cycles;
        dvt_op_free(&r);
    }
    ck_assert_uint_eq(c[0] - c[1], 64 * (2 * 6 + 10 * 2 + 4));
    ck_assert_uint_eq(c[2] - c[1], 64 * 10 * 5);
    ck_assert_uint_eq(c[3] - c[0], 64 * 2 * 1);
    ck_assert_uint_eq(c[4] - c[0], 64 * 5);
}
END_TEST

/* --scalar-loop computes fp16 x +- y only: other dtypes and --alpha are refused, naming the option. */
START_TEST(test_ops_elementwise_bad_scalar_loop)
{
    expect_error(NULL, "add --dtype fp32 --scalar-loop on", "--scalar-loop", "--dtype fp32");
    expect_error(NULL, "sub --dtype int16 --scalar-loop on", "--scalar-loop", "fp16");
    expect_error("ascend310", "add --dtype int32 --scalar-loop on", "--scalar-loop", "fp16");
    expect_error(NULL, "add --alpha 2 --scalar-loop on", "--scalar-loop", "--alpha must be 1");
    expect_error(NULL, "mul --scalar-loop on", "--scalar-loop", "no parameter");
}
END_TEST

/* Its tile code is the vector unit's: a fused kernel that takes an add --scalar-loop node fails,
 * naming the kernel, the option and the block. */
START_TEST(test_ops_elementwise_scalar_loop_not_fused)
{
    static const char text[] = "name: sloop\n"
                               "inputs:\n  x: {shape: [64, 64], dtype: fp16}\n  y: {shape: [64, 64], dtype: fp16}\n"
                               "nodes:\n  - {name: s, op: add, inputs: [x, y], params: {scalar-loop: on}}\n"
                               "  - {name: r, op: relu, inputs: [s]}\n"
                               "outputs: [r]\n";
    static dv_graph_t g;
    dv_error_t e = {0};
    ck_assert_msg(dv_graph_parse(text, sizeof text - 1, "sloop.yaml", &g, &e) == DV_OK, "%s", e.msg);
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dv_fusion_study_opts_t o;
    dv_fusion_study_opts_default(&o);
    o.data = false;
    dv_fusion_result_t *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_ne(dv_fusion_study(&g, &cfg, &o, r, &e), DV_OK);
    ck_assert_msg(strstr(e.msg, "fused:s+r") && strstr(e.msg, "add --scalar-loop on cannot join a fused kernel") &&
                  strstr(e.msg, "block 0"), "%s", e.msg);
    free(r);
}
END_TEST

START_TEST(test_ops_copy_bad_parameters)
{
    /* not expressible as one DMA (rows of 2000 B need DataCopyPad, which the 910A lacks) */
    expect_error("ascend910a", "copy --shape 4096x1000 --tile 64x1000 --dtype fp16", "--shape", "32-B");
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

/* ================================================================ muls, adds, tanh */

/* muls and adds hold the scalar in the dtype and round once, like their references: fp16 and fp32
 * match exactly, and the integers wrap like the reference (int16: 5000 * x leaves the range;
 * int32: -2^31 + x for negative x).  Loop index: the profile. */
START_TEST(test_ops_elementwise_scalar_ops_exact)
{
    static const char *const cmds[] = {
        "muls --dtype fp32 --scalar 0.1 --shape 4097 --cores 3 --tile-elems 256",
        "muls --dtype fp16 --scalar -3.3 --shape 3x7x1001",
        "adds --dtype fp32 --scalar 1e-3 --shape 4097 --cores 3 --tile-elems 256",
        "adds --dtype fp16 --scalar 0.7 --shape 3x7x1001",
        "muls --dtype int16 --scalar 5000 --shape 1000 --cores 2",
        "adds --dtype int32 --scalar -2147483648 --shape 1000",
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        dvt_op_t r;
        dvt_op(&r, profiles[_i], NULL, cmds[i], true, true);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cmds[i], r.err.msg);
        ck_assert_msg(r.check.compared > 0 && r.check.max_abs_err == 0, "%s: max abs err %g", cmds[i],
                      r.check.max_abs_err);
        ck_assert_uint_eq(r.cnt.hazards, 0);
        dvt_op_free(&r);
    }
}
END_TEST

/* muls is one vmuls per run of repeats, with no barrier; tanh on fp16 is a cast, six fp32 steps
 * (vmuls -2, vexp, vadds 1, vrec, vmuls 2, vadds -1) and a cast, each step two instructions for
 * 1000 elements (15 repeats + 40 masked) with a mask set and reset, 7 barriers between the 8. */
START_TEST(test_ops_elementwise_scalar_and_tanh_instructions)
{
    dvt_op_t r;
    /* 1000 fp16: 7 repeats of 128 and 104 masked */
    dvt_op(&r, NULL, NULL, "muls --shape 1000 --tile-elems 1024 --cores 1", false, false);
    ck_assert_msg(r.rc == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_vmuls], 2);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_pipe_barrier], 0);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_set_vector_mask], 2);
    ck_assert_uint_eq(r.plan.flops, 1000);
    dvt_op_free(&r);
    dvt_op(&r, NULL, NULL, "tanh --shape 1000 --tile-elems 1024 --cores 1", false, false);
    ck_assert_msg(r.rc == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_vconv], 4);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_vmuls], 4);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_vexp], 2);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_vadds], 4);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_vrec], 2);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_vdiv], 0);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_pipe_barrier], 7);
    ck_assert_uint_eq(r.cnt.op_count[DV_OP_set_vector_mask], 16);
    ck_assert_uint_eq(r.plan.flops, 6000);
    dvt_op_free(&r);
}
END_TEST

START_TEST(test_ops_elementwise_bad_scalar)
{
    expect_error(NULL, "muls --dtype int32 --scalar 0.5", "--scalar", "vmuls");
    expect_error(NULL, "adds --dtype int16 --scalar 40000", "--scalar", "[-32768, 32767]");
    expect_error(NULL, "adds --dtype int16 --scalar 1.5", "--scalar", "vadds");
    expect_error(NULL, "muls --dtype fp16 --scalar 1e5", "--scalar", "65504");
    expect_error(NULL, "muls --scalar nan", "--scalar", "not a finite number");
    expect_error(NULL, "tanh --dtype int32", "--dtype", "fp16|fp32");
    expect_error(NULL, "tanh --scalar 2", "--scalar", "no parameter");
    expect_error(NULL, "muls --alpha 2", "--alpha", "no parameter");
}
END_TEST

/* ================================================================ running plans with data */

/* An operator planned from a command line, with its GM arguments (random inputs). */
typedef struct oprun {
    const dv_opdesc_t *op;
    dv_op_plan_t plan;
    dv_gm_t gm;
} oprun_t;

static void op_prepare(const dv_config_t *cfg, oprun_t *r, const char *cmd)
{
    char buf[256], *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", cmd);
    for (char *t = strtok(buf, " "); t && argc < 32; t = strtok(NULL, " "))
        argv[argc++] = t;
    memset(r, 0, sizeof *r);
    r->op = dv_ops_find(argv[0]);
    ck_assert_msg(r->op != NULL, "%s: no such operator", cmd);
    dv_opvals_t v;
    dv_error_t err;
    ck_assert_msg(dv_ops_parse(r->op, argc - 1, argv + 1, &v, &err) == DV_OK, "%s: %s", cmd, err.msg);
    ck_assert_msg(dv_ops_plan(r->op, cfg, &v, &r->plan, &err) == DV_OK, "%s: %s", cmd, err.msg);
    ck_assert_msg(dv_sim_gm_setup(cfg, &r->plan.info, true, "", DV_GM_BASE, &r->gm, &err) == DV_OK, "%s: %s", cmd,
                  err.msg);
}

/* Run kernel k with data on gm, on a fresh model; it must finish without hazards. */
static void run_kernel_on(const dv_config_t *cfg, dv_kernel_t *k, dv_gm_t *gm, const char *what)
{
    dv_model_t *m = dvt_model(cfg);
    dv_run_opts_t o;
    dv_run_opts_default(&o);
    o.data = true;
    dv_counters_t cnt;
    dv_error_t err;
    const int rc = dv_model_run(m, k, gm, &o, &cnt, &err);
    dv_model_destroy(m);
    ck_assert_msg(rc == DV_OK, "%s: %s", what, err.msg);
    const uint64_t hazards = cnt.hazards;
    dv_counters_free(&cnt);
    ck_assert_msg(hazards == 0, "%s: %llu hazards", what, (unsigned long long)hazards);
}

/* The operator's own kernel on its GM arguments. */
static void op_run(const dv_config_t *cfg, oprun_t *r, const char *what)
{
    dv_kernel_t *k;
    dv_error_t err;
    ck_assert_msg(dv_ops_kernel(r->op, cfg, &r->plan, &k, &err) == DV_OK, "%s: %s", what, err.msg);
    run_kernel_on(cfg, k, &r->gm, what);
    dvk_kernel_destroy(k);
}

/* Index of the first element of `elems` (of `size` bytes) where a and b differ, or -1. */
static int64_t first_diff(const uint8_t *a, const uint8_t *b, uint64_t elems, unsigned size)
{
    for (uint64_t i = 0; i < elems; i++)
        if (memcmp(a + i * size, b + i * size, size))
            return (int64_t)i;
    return -1;
}

/* ================================================================ bias_add */

/* bias_add equals its reference byte for byte (vadd's fp16 / fp32 sum is correctly rounded, as is
 * the reference's one rounding of the double sum): the last-axis and the per-row view, rows that
 * are not whole 32-B blocks, tiles whose rows wrap the channel index, b of length 1, rows split
 * into segments (the last-axis kind reading b from a segment's column), several blocks, one and
 * two buffers per queue.  Loop index: the profile. */
START_TEST(test_ops_bias_add_matches_reference_bytes)
{
    static const char *const cmds[] = {
        "bias_add --shape 37x100 --cores 3 --tile-rows 5",
        "bias_add --shape 37x100 --dtype fp32 --cores 2",
        "bias_add --shape 2x3x4x64 --axis -1 --double-buffer off",
        "bias_add --shape 5x7x33 --axis 1 --cores 3 --tile-rows 4",
        "bias_add --shape 5x7x33 --axis -2 --dtype fp32 --tile-rows 3 --double-buffer off",
        "bias_add --shape 3x5x1000 --axis 0 --cores 2",
        "bias_add --shape 1x1x17 --axis 1",
        "bias_add --shape 9x300 --axis 0 --dtype fp32 --tile-rows 2",
        "bias_add --shape 2x3x70001 --axis 1 --dtype fp32 --cores 5",
        "bias_add --shape 3x40000 --cores 2",
    };
    dv_config_t cfg;
    dvt_config(&cfg, profiles[_i], NULL);
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        oprun_t r;
        op_prepare(&cfg, &r, cmds[i]);
        op_run(&cfg, &r, cmds[i]);
        uint8_t *want = calloc(1, r.plan.args[2].bytes);
        ck_assert_ptr_nonnull(want);
        const uint8_t *in[3] = {r.gm.data[0], r.gm.data[1], NULL};
        uint8_t *expect[3] = {NULL, NULL, want};
        dv_error_t err;
        ck_assert_int_eq(r.op->reference(&r.plan, in, expect, &err), DV_OK);
        const unsigned size = dv_dtype_size(r.plan.args[2].dtype);
        const int64_t bad = first_diff(r.gm.data[2], want, r.plan.elems[2], size);
        ck_assert_msg(bad < 0, "%s on %s: element %lld differs from the reference", cmds[i],
                      profiles[_i] ? profiles[_i] : "ascend910b2", (long long)bad);
        free(want);
        dv_sim_gm_free(&r.gm);
    }
}
END_TEST

/* --check passes with the reference's values (and the dtype tolerance). */
START_TEST(test_ops_bias_add_check)
{
    check_ok(profiles[_i], "bias_add --shape 8x64x7x7 --axis 1", 8 * 64 * 49);
    check_ok(profiles[_i], "bias_add --shape 128x3072", 128 * 3072);
    check_ok(profiles[_i], "bias_add --shape 1x4x13 --axis 0 --dtype fp32", 52);
}
END_TEST

/* The instruction stream, by hand: a 64x64 fp32 tile of the last-axis kind is one vadd (repeats
 * walk the 64 rows, b read at repeat stride 0); per row with 8 channels it is one vbrcb and one
 * vadd per run of 8 consecutive channels; rows of 4096 fp16 (32 chunks, a pitch past the 255-block
 * repeat stride) take one vadd per row. */
START_TEST(test_ops_bias_add_instructions)
{
    static const struct {
        const char *cmd;
        uint64_t vadd, vbrcb;
    } cases[] = {
        {"bias_add --shape 64x64 --dtype fp32 --cores 1 --tile-rows 64", 1, 0},
        {"bias_add --shape 8x8x64 --axis 1 --dtype fp32 --cores 1 --tile-rows 64", 8, 1},
        {"bias_add --shape 2x4096 --cores 1 --tile-rows 2", 2, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dvt_op_t r;
        dvt_op(&r, NULL, NULL, cases[i].cmd, false, false);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cases[i].cmd, r.err.msg);
        ck_assert_msg(r.cnt.op_count[DV_OP_vadd] == cases[i].vadd, "%s: %llu vadd", cases[i].cmd,
                      (unsigned long long)r.cnt.op_count[DV_OP_vadd]);
        ck_assert_uint_eq(r.cnt.op_count[DV_OP_vbrcb], cases[i].vbrcb);
        ck_assert_uint_eq(r.cnt.op_count[DV_OP_set_vector_mask], 0);
        ck_assert_uint_eq(r.cnt.hazards, 0);
        dvt_op_free(&r);
    }
}
END_TEST

START_TEST(test_ops_bias_add_bad_parameters)
{
    expect_error(NULL, "bias_add --shape 3x4 --axis 2", "--axis", "-2..1");
    expect_error(NULL, "bias_add --shape 3x4 --axis -3", "--axis", "2-D");
    expect_error(NULL, "bias_add --axis -7", "--axis", "[-6, 5]");
    expect_error(NULL, "bias_add --axis 1.5", "--axis", "not a number");
    expect_error(NULL, "bias_add --dtype int32", "--dtype", "fp16|fp32");
    /* b alone does not fit the UB; per row, b's 32-B blocks do not */
    expect_error(NULL, "bias_add --shape 2x100000 --dtype fp32", "--shape", "core.ub_size_bytes");
    expect_error(NULL, "bias_add --shape 8192x16 --axis 0 --dtype fp32", "--shape", "32-B block per element");
    /* 64 rows of 2 KB, two queues of two buffers: 512 KB */
    expect_error(NULL, "bias_add --shape 64x1024 --tile-rows 64", "--tile-rows", "at most");
    expect_error(NULL, "bias_add --shape 4x30000 --tile-rows 2", "--tile-rows", "must be 1");
    /* 200-B rows need DataCopyPad */
    expect_error("ascend910a", "bias_add --shape 37x100", "--shape", "chip.dma_pad");
}
END_TEST

/* As a graph node: inputs [x, b], b 1-D of x's length along --axis in x's dtype; the output is x;
 * the view is [prod(shape[:axis+1]), prod(shape[axis+1:])] (per row) or [.., shape[-1]]. */
START_TEST(test_ops_bias_add_bind)
{
    const dv_opdesc_t *op = dv_ops_find("bias_add");
    ck_assert_ptr_nonnull(op);
    ck_assert_ptr_nonnull(op->bind);
    ck_assert_ptr_nonnull(op->tile);
    ck_assert_uint_eq(op->tile->flags, DV_TILE_VIEW);
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    char a0[] = "--axis", a1[] = "1", *argv[] = {a0, a1};
    dv_opvals_t v;
    dv_error_t err;
    dv_tensor_desc_t out, in[3] = {{{3, {8, 64, 49}}, DV_DT_F16}, {{1, {64}}, DV_DT_F16}, {{1, {64}}, DV_DT_F16}};
    ck_assert_int_eq(dv_ops_parse(op, 2, argv, &v, &err), DV_OK);
    ck_assert_msg(op->bind(op, in, 2, &v, &out, &err) == DV_OK, "%s", err.msg);
    ck_assert_int_eq(out.shape.ndims, 3);
    ck_assert_uint_eq(out.shape.d[2], 49);
    ck_assert_int_eq(out.dtype, DV_DT_F16);
    dv_op_plan_t plan;
    ck_assert_msg(dv_ops_plan(op, &cfg, &v, &plan, &err) == DV_OK, "%s", err.msg);
    uint64_t rows, cols;
    op->tile->view(&plan, &rows, &cols);
    ck_assert_uint_eq(rows, 8 * 64);
    ck_assert_uint_eq(cols, 49);
    ck_assert_uint_eq(plan.own_args, 0);
    ck_assert_uint_eq(plan.info.nargs, 3);
    ck_assert_uint_eq(plan.elems[1], 64);
    /* b's 64 fp16 (128 B) and their 64 blocks of 32 B */
    ck_assert_uint_eq(op->tile->ub_bytes(&plan, &cfg, 8, 64), 128 + 64 * 32);

    /* the default axis is the last: b must have 49 elements */
    ck_assert_int_eq(dv_ops_parse(op, 0, NULL, &v, &err), DV_OK);
    ck_assert_int_ne(op->bind(op, in, 2, &v, &out, &err), DV_OK);
    ck_assert_msg(strstr(err.msg, "input 2 (b)") && strstr(err.msg, "49"), "%s", err.msg);
    in[1].shape.d[0] = 49;
    ck_assert_msg(op->bind(op, in, 2, &v, &out, &err) == DV_OK, "%s", err.msg);
    ck_assert_msg(dv_ops_plan(op, &cfg, &v, &plan, &err) == DV_OK, "%s", err.msg);
    op->tile->view(&plan, &rows, &cols);
    ck_assert_uint_eq(rows, 8 * 64);
    ck_assert_uint_eq(cols, 49);
    ck_assert_uint_eq(op->tile->ub_bytes(&plan, &cfg, 8, 64), 128); /* 98 B of b in whole 32-B blocks */
    /* errors: dtype, b not 1-D, input count, axis */
    in[1].dtype = DV_DT_F32;
    ck_assert_int_ne(op->bind(op, in, 2, &v, &out, &err), DV_OK);
    ck_assert_msg(strstr(err.msg, "one dtype"), "%s", err.msg);
    in[1].dtype = DV_DT_F16;
    in[1].shape = in[0].shape;
    ck_assert_int_ne(op->bind(op, in, 2, &v, &out, &err), DV_OK);
    ck_assert_msg(strstr(err.msg, "1-D"), "%s", err.msg);
    ck_assert_int_ne(op->bind(op, in, 3, &v, &out, &err), DV_OK);
    ck_assert_msg(strstr(err.msg, "2 inputs"), "%s", err.msg);
    char b0[] = "--axis", b1[] = "3", *argv3[] = {b0, b1};
    ck_assert_int_eq(dv_ops_parse(op, 2, argv3, &v, &err), DV_OK);
    ck_assert_int_ne(op->bind(op, in, 2, &v, &out, &err), DV_OK);
    ck_assert_msg(strstr(err.msg, "--axis 3"), "%s", err.msg);
}
END_TEST

/* The element-wise binds count their inputs: one, two for the binary operators. */
START_TEST(test_ops_elementwise_bind_counts_inputs)
{
    dv_tensor_desc_t in[3] = {{{2, {4, 8}}, DV_DT_F16}, {{2, {4, 8}}, DV_DT_F16}, {{2, {4, 8}}, DV_DT_F16}}, out;
    dv_opvals_t v;
    dv_error_t err;
    const dv_opdesc_t *relu = dv_ops_find("relu"), *add = dv_ops_find("add");
    ck_assert_int_eq(dv_ops_parse(relu, 0, NULL, &v, &err), DV_OK);
    ck_assert_int_eq(relu->bind(relu, in, 1, &v, &out, &err), DV_OK);
    ck_assert_int_ne(relu->bind(relu, in, 2, &v, &out, &err), DV_OK);
    ck_assert_str_eq(err.msg, "relu takes 1 input, 2 given");
    ck_assert_int_eq(dv_ops_parse(add, 0, NULL, &v, &err), DV_OK);
    ck_assert_int_eq(add->bind(add, in, 2, &v, &out, &err), DV_OK);
    ck_assert_int_ne(add->bind(add, in, 1, &v, &out, &err), DV_OK);
    ck_assert_str_eq(err.msg, "add takes 2 inputs, 1 given");
}
END_TEST

/* ================================================================ per-tile code */

/* Every element-wise operator but copy, and bias_add, has tile code; the element-wise ones bind as
 * shape-preserving nodes (the input count checked; test_ops_elementwise_bind_counts_inputs) and
 * take any view.  UB of their own: the fp32 scratch of fp16
 * activations, rows x pitch x 4 bytes each (gelu two, sigmoid and tanh one). */
START_TEST(test_ops_elementwise_tile_ops)
{
    static const char *const names[] = {"add", "sub", "mul", "div", "max", "muls", "adds", "relu",
                                        "gelu", "exp", "sigmoid", "silu", "tanh"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const dv_opdesc_t *op = dv_ops_find(names[i]);
        ck_assert_msg(op && op->tile && op->tile->emit && op->tile->setup && op->tile->ub_bytes, "%s", names[i]);
        ck_assert_msg(op->tile->flags == 0 && op->bind, "%s", names[i]);
    }
    ck_assert_ptr_null(dv_ops_find("copy")->tile);
    static const struct {
        const char *cmd;
        uint64_t bytes;
    } ub[] = {
        {"gelu --dtype fp16", 2 * 8 * 112 * 4}, {"silu --dtype fp16", 2 * 8 * 112 * 4},
        {"sigmoid --dtype fp16", 8 * 112 * 4},  {"tanh --dtype fp16", 8 * 112 * 4},
        {"gelu --dtype fp32", 0},               {"add --dtype fp16 --alpha 3", 0},
    };
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    for (size_t i = 0; i < sizeof ub / sizeof ub[0]; i++) {
        oprun_t r;
        op_prepare(&cfg, &r, ub[i].cmd);
        ck_assert_msg(r.op->tile->ub_bytes(&r.plan, &cfg, 8, 112) == ub[i].bytes, "%s: %llu", ub[i].cmd,
                      (unsigned long long)r.op->tile->ub_bytes(&r.plan, &cfg, 8, 112));
        dv_sim_gm_free(&r.gm);
    }
}
END_TEST

/* Two operators in one test kernel through their tile code. */
typedef struct chain {
    const dv_opdesc_t *op[2];
    const dv_op_plan_t *plan[2];
    dv_dtype_t dt;
    uint64_t rows, cols;     /* the view */
    uint64_t trows, tcols;   /* a tile */
    uint32_t ntiled;         /* op 0's tiled inputs: GM arguments 0 .. ntiled - 1 */
    uint32_t out;            /* the GM argument of the result */
} chain_t;

/* One block walks the view in trows x tcols tiles at a pitch of whole 32-B blocks: CopyIn (a
 * DataCopyPad burst per row), op 0's emit into a middle tile, pipe_barrier(V), op 1's emit from it
 * into the output tile, CopyOut; the copies are fenced by pipe_barrier(ALL) (this kernel checks
 * bytes, not overlap).  Both operators' setup runs first, with the plans' arguments mapped to the
 * same GM arguments. */
static void chain_kernel(dv_k_t *k, const void *params)
{
    const chain_t *c = params;
    const uint64_t size = dv_dtype_size(c->dt), pitch = dv_round_up(c->tcols, 32 / size);
    const uint64_t tile_bytes = c->trows * pitch * size;
    uint64_t in[DV_TILE_MAX_IN] = {0};
    for (uint32_t i = 0; i < c->ntiled; i++)
        in[i] = dvk_alloc(k, DV_SPACE_UB, tile_bytes);
    const uint64_t mid = dvk_alloc(k, DV_SPACE_UB, tile_bytes), out = dvk_alloc(k, DV_SPACE_UB, tile_bytes);
    static const uint32_t argmap[DV_OP_MAX_ARGS] = {0, 1, 2, 3, 4, 5, 6, 7};
    unsigned char state[2][DV_TILE_STATE_BYTES];
    for (int j = 0; j < 2; j++)
        c->op[j]->tile->setup(k, c->plan[j], argmap, c->trows, pitch, state[j]);
    for (uint64_t r0 = 0; r0 < c->rows; r0 += c->trows)
        for (uint64_t c0 = 0; c0 < c->cols; c0 += c->tcols) {
            const uint64_t nr = dv_min_u64(c->trows, c->rows - r0), nc = dv_min_u64(c->tcols, c->cols - c0);
            const uint64_t gm = (r0 * c->cols + c0) * size, row = nc * size, gap = (c->cols - nc) * size;
            const int64_t ub_gap = (int64_t)((pitch * size - dv_round_up(row, 32)) / 32);
            for (uint32_t i = 0; i < c->ntiled; i++)
                dvk_copy_gm_to_ubuf_align(k, in[i], dvk_gm(k, i, gm), (int64_t)nr, (int64_t)row, (int64_t)gap, ub_gap, 0, 0, 1);
            dvk_pipe_barrier(k, DV_PIPE_ALL);
            dv_tile_t t = {.rows = nr, .cols = nc, .pitch = pitch, .row0 = r0, .col0 = c0, .out = mid};
            memcpy(t.in, in, sizeof in);
            c->op[0]->tile->emit(k, c->plan[0], state[0], &t);
            dvk_pipe_barrier(k, DV_PIPE_V);
            t.in[0] = mid;
            t.out = out;
            c->op[1]->tile->emit(k, c->plan[1], state[1], &t);
            dvk_pipe_barrier(k, DV_PIPE_ALL);
            dvk_copy_ubuf_to_gm_align(k, dvk_gm(k, c->out, gm), out, (int64_t)nr, (int64_t)row, ub_gap, (int64_t)gap);
            dvk_pipe_barrier(k, DV_PIPE_ALL);
        }
}

/* Chains: op 0 (its inputs as large as its output are tiled, others its setup loads), then the
 * unary op 1 on op 0's result; views without DV_TILE_VIEW are rows x cols; tiles trows x tcols. */
static const struct {
    const char *op0, *op1;
    uint64_t rows, cols, trows, tcols;
} chains[] = {
    /* fp16 gelu (two fp32 scratch tiles) after add with alpha (y scaled into the output tile);
     * 8x48 tiles: 100 columns end in a 4-column tile, rows in a 5-row tile */
    {"add --shape 37x100 --alpha 0.5", "gelu --shape 37x100", 37, 100, 8, 48},
    /* bias on the last axis, b read from column 0, 48 and 96 of each row */
    {"bias_add --shape 37x100", "tanh --shape 37x100", 0, 0, 8, 48},
    /* per row: rows 0..34 of channels r % 7, tiles of 8 rows wrap the channels */
    {"bias_add --shape 5x7x33 --axis 1 --dtype fp32", "tanh --shape 5x7x33 --dtype fp32", 0, 0, 8, 16},
    {"bias_add --shape 4x6x10 --axis 0", "relu --shape 4x6x10", 0, 0, 3, 32},
    {"sub --shape 20x50 --dtype fp32 --alpha -3", "sigmoid --shape 20x50 --dtype fp32", 20, 50, 6, 50},
    {"muls --shape 30x40 --scalar 0.37", "silu --shape 30x40", 30, 40, 7, 40},
    {"mul --shape 9x24 --dtype int32", "adds --shape 9x24 --dtype int32 --scalar -5", 9, 24, 4, 24},
    {"div --shape 11x70 --dtype fp32", "exp --shape 11x70 --dtype fp32", 11, 70, 11, 16},
    {"sub --shape 13x77", "tanh --shape 13x77", 13, 77, 4, 32},
    {"max --shape 11x70 --dtype int16", "muls --shape 11x70 --dtype int16 --scalar 3", 11, 70, 5, 64},
};
#define NCHAINS ((int)(sizeof chains / sizeof chains[0]))

/* The chain in one kernel gives the bytes of op 0's kernel followed by op 1's kernel on its output.
 * Loop index: profile * NCHAINS + chain. */
START_TEST(test_ops_tile_chain_matches_unfused)
{
    const int ci = _i % NCHAINS;
    const char *profile = profiles[_i / NCHAINS];
    dv_config_t cfg;
    dvt_config(&cfg, profile, NULL);
    oprun_t a, b;
    op_prepare(&cfg, &a, chains[ci].op0);
    op_prepare(&cfg, &b, chains[ci].op1);
    ck_assert_ptr_nonnull(a.op->tile);
    ck_assert_ptr_nonnull(b.op->tile);
    const uint32_t a_out = a.plan.info.nargs - 1, b_out = b.plan.info.nargs - 1;
    /* unfused: op 0, then op 1 on its output */
    op_run(&cfg, &a, chains[ci].op0);
    ck_assert_uint_eq(a.gm.bytes[a_out], b.gm.bytes[0]);
    memcpy(b.gm.data[0], a.gm.data[a_out], b.gm.bytes[0]);
    op_run(&cfg, &b, chains[ci].op1);

    /* fused: op 0's arguments, one block */
    chain_t c = {.op = {a.op, b.op}, .plan = {&a.plan, &b.plan}, .dt = a.plan.args[a_out].dtype,
                 .rows = chains[ci].rows, .cols = chains[ci].cols, .trows = chains[ci].trows,
                 .tcols = chains[ci].tcols, .out = a_out};
    if (a.op->tile->flags & DV_TILE_VIEW)
        a.op->tile->view(&a.plan, &c.rows, &c.cols);
    for (uint32_t i = 0; i < a_out; i++)
        if (a.plan.elems[i] == a.plan.elems[a_out])
            c.ntiled = i + 1;
    dv_kernel_info_t info = a.plan.info;
    dv_arg_t args[DV_OP_MAX_ARGS];
    memcpy(args, a.plan.args, sizeof args);
    info.args = args;
    info.blocks = 1;
    snprintf(info.name, sizeof info.name, "chain");
    dv_kernel_t *k;
    dv_gm_t gm;
    dv_error_t err;
    ck_assert_msg(dvk_kernel_create(&cfg, &info, chain_kernel, &c, sizeof c, &k, &err) == DV_OK, "%s", err.msg);
    ck_assert_msg(dv_sim_gm_setup(&cfg, &info, true, "", DV_GM_BASE, &gm, &err) == DV_OK, "%s", err.msg);
    for (uint32_t i = 0; i < a_out; i++)
        memcpy(gm.data[i], a.gm.data[i], gm.bytes[i]);
    char what[256];
    snprintf(what, sizeof what, "%s then %s on %s", chains[ci].op0, chains[ci].op1, profile ? profile : "ascend910b2");
    run_kernel_on(&cfg, k, &gm, what);
    const int64_t bad = first_diff(gm.data[a_out], b.gm.data[b_out], b.plan.elems[b_out], dv_dtype_size(c.dt));
    ck_assert_msg(bad < 0, "%s: element %lld of the fused result differs from the unfused", what, (long long)bad);
    dvk_kernel_destroy(k);
    dv_sim_gm_free(&gm);
    dv_sim_gm_free(&a.gm);
    dv_sim_gm_free(&b.gm);
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
    tcase_add_loop_test(tc, test_ops_elementwise_scalar_ops_exact, 0, 2);
    tcase_add_test(tc, test_ops_elementwise_scalar_and_tanh_instructions);
    tcase_add_test(tc, test_ops_elementwise_bad_scalar);
    tcase_add_loop_test(tc, test_ops_elementwise_scalar_loop_check, 0, 2);
    tcase_add_test(tc, test_ops_elementwise_scalar_loop_cycles);
    tcase_add_test(tc, test_ops_elementwise_bad_scalar_loop);
    tcase_add_test(tc, test_ops_elementwise_scalar_loop_not_fused);
    suite_add_tcase(s, tc);
    TCase *ba = tcase_create("bias_add");
    tcase_set_timeout(ba, 120);
    tcase_add_loop_test(ba, test_ops_bias_add_matches_reference_bytes, 0, 2);
    tcase_add_loop_test(ba, test_ops_bias_add_check, 0, 2);
    tcase_add_test(ba, test_ops_bias_add_instructions);
    tcase_add_test(ba, test_ops_bias_add_bad_parameters);
    tcase_add_test(ba, test_ops_bias_add_bind);
    suite_add_tcase(s, ba);
    TCase *tl = tcase_create("tile");
    tcase_set_timeout(tl, 120);
    tcase_add_test(tl, test_ops_elementwise_tile_ops);
    tcase_add_test(tl, test_ops_elementwise_bind_counts_inputs);
    tcase_add_loop_test(tl, test_ops_tile_chain_matches_unfused, 0, 2 * NCHAINS);
    suite_add_tcase(s, tl);
    TCase *cp = tcase_create("copy");
    tcase_set_timeout(cp, 120);
    tcase_add_loop_test(cp, test_ops_copy_check, 0, 2);
    tcase_add_test(cp, test_ops_copy_read_only);
    tcase_add_test(cp, test_ops_copy_bigger_tiles_faster);
    tcase_add_test(cp, test_ops_copy_bad_parameters);
    suite_add_tcase(s, cp);
    return s;
}
