/* tests/check_ops_layout.c - the data-layout operators (ops/layout.c): slice, concat and transpose
 * against their references, bit-exact, on odd sizes (rows that are not whole 32-B blocks, partial
 * 16x16 matrices, units split over cores and over row chunks) on the 910B2 and the 310; the
 * 32-B DMA form on the 910A; the instruction counts of small cases derived by hand; the plan errors
 * a user can reach; and the graph binds. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/ops.h"
#include "support/dvt.h"

static const char *const profiles[] = {NULL /* ascend910b2 */, "ascend310"};

/* Run with --check: it must pass bit-exactly (a layout operator computes nothing), compare every
 * output element and find no hazard. */
static void check_exact(const char *profile, const char *cmd, uint64_t elems)
{
    dvt_op_t r;
    dvt_op(&r, profile, NULL, cmd, true, true);
    const char *p = profile ? profile : "ascend910b2";
    ck_assert_msg(r.rc == DV_OK, "%s on %s: %s", cmd, p, r.err.msg);
    ck_assert_msg(r.check.mismatches == 0 && r.check.max_abs_err == 0, "%s on %s: %llu mismatches, max abs err %g",
                  cmd, p, (unsigned long long)r.check.mismatches, r.check.max_abs_err);
    ck_assert_msg(r.check.compared == elems, "%s on %s: %llu of %llu elements compared", cmd, p,
                  (unsigned long long)r.check.compared, (unsigned long long)elems);
    ck_assert_msg(r.cnt.hazards == 0, "%s on %s: %llu hazards", cmd, p, (unsigned long long)r.cnt.hazards);
    dvt_op_free(&r);
}

/* The plan fails with a message containing `needle`. */
static void expect_error(const char *profile, const char *cmd, const char *needle)
{
    dvt_op_t r;
    dvt_op(&r, profile, NULL, cmd, false, false);
    ck_assert_msg(r.rc != DV_OK, "%s: planned", cmd);
    ck_assert_msg(strstr(r.err.msg, needle), "%s: expected '%s' in: %s", cmd, needle, r.err.msg);
    dvt_op_free(&r);
}

/* Output elements by hand: the Focus slices of 2x3x37x45 take rows 0 or 1 with step 2 (19 or 18
 * rows) and columns 0 or 1 (23 or 22 columns); 3x5 steps from 1x2 limited to 5x6; a crop from 2x3
 * of 9x17; fp32 rows of 3001 with step 2 from column 1 give 1500 columns in several chunks; rows
 * 0, 7, .., 49 of 50 (8 rows); bf16 columns 0, 3, .., 75 of 77 (26); steps of 2^40 take one element
 * per plane. */
START_TEST(test_ops_layout_slice_check)
{
    const char *profile = profiles[_i];
    static const struct {
        const char *start;
        uint64_t rows, cols;
    } focus[] = {{"0x0", 19, 23}, {"1x0", 18, 23}, {"0x1", 19, 22}, {"1x1", 18, 22}};
    char cmd[160];
    for (size_t f = 0; f < sizeof focus / sizeof focus[0]; f++)
        for (int d = 0; d < 2; d++) {
            snprintf(cmd, sizeof cmd, "slice --shape 2x3x37x45 --step 2x2 --start %s --dtype %s", focus[f].start,
                     d ? "fp32" : "fp16");
            check_exact(profile, cmd, 6 * focus[f].rows * focus[f].cols);
        }
    check_exact(profile, "slice --shape 2x3x37x45 --step 3x5 --start 1x2 --size 5x6", 6 * 5 * 6);
    check_exact(profile, "slice --shape 3x5x19x23 --start 2x3 --size 9x17 --cores 4", 15 * 9 * 17);
    check_exact(profile, "slice --shape 1x2x40x3001 --step 2x2 --start 1x1 --dtype fp32", 2 * 20 * 1500);
    check_exact(profile, "slice --shape 3x50x20 --step 7x1 --dtype int32", 3 * 8 * 20);
    check_exact(profile, "slice --shape 1x1x33x77 --step 1x3 --dtype bf16", 33 * 26);
    check_exact(profile, "slice --shape 2x3x37x45 --step 1099511627776x1099511627776 --start 3x5", 6);
}
END_TEST

/* Axis 1 with three lengths, the last axis with four int8 inputs (7-byte rows), axis 0, Focus's
 * four 16-channel inputs, and rows of 100001 elements that split into 32-B-multiple chunks. */
START_TEST(test_ops_layout_concat_check)
{
    const char *profile = profiles[_i];
    check_exact(profile, "concat --shape 2x5x7x9 --inputs 3 --sizes 5x3x11", 2 * 19 * 7 * 9);
    check_exact(profile, "concat --shape 2x5x7x9 --inputs 4 --axis 3 --dtype int8", 2 * 5 * 7 * 36);
    check_exact(profile, "concat --shape 3x17 --axis 0 --sizes 3x5 --dtype fp32", 8 * 17);
    check_exact(profile, "concat --shape 1x16x40x40 --inputs 4", 64 * 40 * 40);
    check_exact(profile, "concat --shape 2x100001 --sizes 100001x3 --cores 3 --dtype int32", 2 * 100004);
    check_exact(profile, "concat --shape 5x3x7 --axis 2 --sizes 7x1 --dtype bf16", 5 * 3 * 8);
}
END_TEST

/* 16-bit and 32-bit types: partial matrices in both directions, several units per plane (300 x
 * 200 is more than one 128 x 128 unit of fp16 and one 128 x 64 unit of fp32), a single row and a
 * single column. */
START_TEST(test_ops_layout_transpose_check)
{
    const char *profile = profiles[_i];
    static const char *const dtypes[] = {"fp16", "fp32"};
    char cmd[128];
    for (int d = 0; d < 2; d++) {
        snprintf(cmd, sizeof cmd, "transpose --shape 3x37x45 --dtype %s", dtypes[d]);
        check_exact(profile, cmd, 3 * 37 * 45);
        snprintf(cmd, sizeof cmd, "transpose --shape 300x200 --dtype %s --cores 5", dtypes[d]);
        check_exact(profile, cmd, 300 * 200);
    }
    check_exact(profile, "transpose --shape 2x1x17 --dtype int16", 34);
    check_exact(profile, "transpose --shape 5x1 --dtype int32", 5);
    check_exact(profile, "transpose --shape 2x3x70x129 --dtype bf16", 6 * 70 * 129);
}
END_TEST

/* Without DataCopyPad (910A) runs of whole 32-B blocks move with the plain DMA form. */
START_TEST(test_ops_layout_whole_blocks_without_dma_pad)
{
    check_exact("ascend910a", "transpose --shape 2x48x80", 2 * 48 * 80);
    check_exact("ascend910a", "transpose --shape 40x56 --dtype fp32", 40 * 56);
    check_exact("ascend910a", "concat --shape 3x64x32 --dtype fp32 --inputs 3 --sizes 64x8x16", 3 * 88 * 32);
    check_exact("ascend910a", "slice --shape 2x64x64 --start 1x16 --step 3x1 --size 21x32", 2 * 21 * 32);
}
END_TEST

/* Instruction counts of one-unit cases (one block):
 * - transpose fp16 32x48: a 32 x 48 unit, 2 row groups x 3 column groups: gather and scatter one
 *   vcopy per row group and half (4 + 4, 3 repeats each), 6 vtranspose, 2 barriers; one DMA each way
 *   (rows of 96 B and 64 B: whole blocks).
 * - fp32 32x48: a 32 x 64 unit, 2 groups of 8 matrices: gather 2 x 2, regroup 2 x 2, scatter 2 x 2
 *   vcopy, 16 + 16 vtranspose, 4 barriers.
 * - slice fp16 1x1x32x40 step 2x2: 16 rows x 20 columns from spans of 39: 3 matrices in, 2 out;
 *   gather 2, pick 2 (8 + 8 columns in one vcopy of 2 repeats, 4 under a mask), scatter 2 vcopy;
 *   DataCopyPad both ways (78-byte and 40-byte rows).
 * - a crop (step 1x1) of 8 x 32 from 4 planes is one unit of 32 rows, moved by DMA only: one DMA in per
 *   plane (8 rows of 64 B, 128 B apart), one out (the output rows are contiguous).
 * - concat of 4x8x16 and 4x24x16 fp16: one unit per input, one DMA each way per unit. */
START_TEST(test_ops_layout_instruction_counts)
{
    static const struct {
        const char *cmd;
        uint64_t vcopy, vtranspose, barrier, mask, in, in_pad, out, out_pad;
    } cases[] = {
        {"transpose --shape 32x48 --cores 1", 8, 6, 2, 0, 1, 0, 1, 0},
        {"transpose --shape 32x48 --dtype fp32 --cores 1", 12, 32, 4, 0, 1, 0, 1, 0},
        {"slice --shape 1x1x32x40 --step 2x2 --cores 1", 6, 5, 4, 2, 0, 1, 0, 1},
        {"slice --shape 1x4x32x64 --start 1x16 --size 8x32 --cores 1", 0, 0, 0, 0, 4, 0, 1, 0},
        {"concat --shape 4x8x16 --sizes 8x24 --cores 1", 0, 0, 0, 0, 2, 0, 2, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dvt_op_t r;
        dvt_op(&r, NULL, NULL, cases[i].cmd, false, false);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cases[i].cmd, r.err.msg);
        const uint64_t *n = r.cnt.op_count;
        ck_assert_msg(n[DV_OP_vcopy] == cases[i].vcopy && n[DV_OP_vtranspose] == cases[i].vtranspose &&
                      n[DV_OP_pipe_barrier] == cases[i].barrier && n[DV_OP_set_vector_mask] == cases[i].mask,
                      "%s: %llu vcopy, %llu vtranspose, %llu pipe_barrier, %llu set_vector_mask", cases[i].cmd,
                      (unsigned long long)n[DV_OP_vcopy], (unsigned long long)n[DV_OP_vtranspose],
                      (unsigned long long)n[DV_OP_pipe_barrier], (unsigned long long)n[DV_OP_set_vector_mask]);
        ck_assert_msg(n[DV_OP_copy_gm_to_ubuf] == cases[i].in && n[DV_OP_copy_gm_to_ubuf_align] == cases[i].in_pad &&
                      n[DV_OP_copy_ubuf_to_gm] == cases[i].out && n[DV_OP_copy_ubuf_to_gm_align] == cases[i].out_pad,
                      "%s: DMA in %llu + %llu padded, out %llu + %llu padded", cases[i].cmd,
                      (unsigned long long)n[DV_OP_copy_gm_to_ubuf], (unsigned long long)n[DV_OP_copy_gm_to_ubuf_align],
                      (unsigned long long)n[DV_OP_copy_ubuf_to_gm], (unsigned long long)n[DV_OP_copy_ubuf_to_gm_align]);
        ck_assert_uint_eq(r.cnt.hazards, 0);
        dvt_op_free(&r);
    }
}
END_TEST

/* The GM traffic is what the DMAs move: slice reads each output row's span (39 elements of a
 * 40-wide row for 20 columns with step 2) and writes the output; concat and transpose read and
 * write every element once. */
START_TEST(test_ops_layout_gm_bytes)
{
    static const struct {
        const char *cmd;
        uint64_t read, write;
    } cases[] = {
        {"slice --shape 2x1x32x40 --step 2x2", 2 * 16 * 39 * 2, 2 * 16 * 20 * 2},
        {"concat --shape 3x5x7 --sizes 5x2 --dtype fp32", 3 * 7 * 7 * 4, 3 * 7 * 7 * 4},
        {"transpose --shape 3x37x45", 3 * 37 * 45 * 2, 3 * 37 * 45 * 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dvt_op_t r;
        dvt_op(&r, NULL, NULL, cases[i].cmd, false, false);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cases[i].cmd, r.err.msg);
        ck_assert_uint_eq(r.cnt.gm_read_bytes, cases[i].read);
        ck_assert_uint_eq(r.cnt.gm_write_bytes, cases[i].write);
        ck_assert_uint_eq(r.plan.bytes, cases[i].read + cases[i].write);
        dvt_op_free(&r);
    }
}
END_TEST

/* Every plan error a user can reach names its parameter and the limit. */
START_TEST(test_ops_layout_plan_errors)
{
    static const struct {
        const char *profile, *cmd, *needle;
    } cases[] = {
        {NULL, "slice --shape 7", "--shape: slice works on the last two axes: give 2 to 6 dimensions (1 given)"},
        {NULL, "slice --shape 4x37x45 --start 37x0", "--start: row 37 is outside the input's 37 rows"},
        {NULL, "slice --shape 4x37x45 --start 0x45", "--start: column 45 is outside the input's 45 columns"},
        {NULL, "slice --shape 4x37x45 --start 1x0 --step 2x2 --size 19x1",
         "--size: 19 rows do not fit: from 1 with step 2 the input's 37 rows give at most 18"},
        {NULL, "slice --shape 4x37x45 --step 1x3 --size 1x16",
         "--size: 16 columns do not fit: from 0 with step 3 the input's 45 columns give at most 15"},
        {NULL, "slice --shape 4x37x300 --step 1x128 --dtype fp32",
         "--step: a column step of 128 fp32 elements is a vcopy block stride of 256 (2 16-bit units each), the limit "
         "is 255 (src_blk)"},
        {NULL, "slice --dtype int8", "--dtype: dtype int8 is not supported"},
        {"ascend910a", "slice --shape 2x3x37x45 --step 2x2",
         "--step: input rows: runs of 90 bytes every 180 bytes are not whole 32-byte blocks, and profile ascend910a "
         "has no DataCopyPad (chip.dma_pad is false)"},
        {"ascend910a", "slice --shape 2x3x37x45", "--shape: input rows: runs of 90 bytes every 90 bytes"},
        {NULL, "concat --shape 2x5x7x9 --axis 4", "--axis: 4 is not an axis of the 4-dimensional --shape (0 to 3)"},
        {NULL, "concat --shape 2x5x7x9 --inputs 3 --sizes 5x3", "--sizes: 2 lengths given for --inputs 3"},
        {NULL, "concat --shape 2x5x7x9 --sizes 4x3", "--sizes: input 1's length 4 differs from --shape's 5 in axis 1"},
        {NULL, "concat --inputs 5", "--inputs: 5 is out of range [2, 4]"},
        {NULL, "concat --shape 65536x65536x64 --axis 0", "--shape: input 1 has 549755813888 bytes, hbm.capacity_bytes"},
        {"ascend910a", "concat --shape 2x5x7x9",
         "--shape: input 1's rows in the output: runs of 630 bytes every 1260 bytes are not whole 32-byte blocks"},
        {NULL, "transpose --shape 9", "--shape: transpose swaps the last two axes: give 2 to 6 dimensions (1 given)"},
        {"ascend910a", "transpose --shape 2x48x81", "--shape: input rows: runs of 162 bytes every 162 bytes"},
        {NULL, "transpose --shape 65536x65536x64", "--shape: the input has 549755813888 bytes, hbm.capacity_bytes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_error(cases[i].profile, cases[i].cmd, cases[i].needle);
}
END_TEST

/* A UB too small for one unit is refused with the bytes a unit needs (not a kernel failure). */
START_TEST(test_ops_layout_ub_too_small)
{
    static const char *const sets[] = {"core.ub_size_bytes=1536", NULL};
    static const struct {
        const char *cmd, *needle;
    } cases[] = {
        {"transpose --shape 64x64",
         "--shape: a unit of 16 rows x 16 columns needs 3072 bytes of UB (6 buffers), core.ub_size_bytes is 1536"},
        {"slice --shape 64x64 --step 1x2", "--step: one output column needs 3072 bytes of UB (6 buffers of 16 rows)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dvt_op_t r;
        dvt_op(&r, NULL, sets, cases[i].cmd, false, false);
        ck_assert_msg(r.rc != DV_OK, "%s: planned", cases[i].cmd);
        ck_assert_msg(strstr(r.err.msg, cases[i].needle), "%s: expected '%s' in: %s", cases[i].cmd, cases[i].needle,
                      r.err.msg);
        dvt_op_free(&r);
    }
    /* with 1.5 KB of UB the moves that need no matrices still run, in smaller units */
    dvt_op_t r;
    dvt_op(&r, NULL, sets, "concat --shape 3x5x7 --sizes 5x2", true, true);
    ck_assert_msg(r.rc == DV_OK && r.check.mismatches == 0, "%s", r.err.msg);
    dvt_op_free(&r);
}
END_TEST

static dv_tensor_desc_t tensor(const char *dims, dv_dtype_t t)
{
    dv_tensor_desc_t d;
    memset(&d, 0, sizeof d);
    d.dtype = t;
    const char *p = dims;
    while (*p) {
        char *end;
        d.shape.d[d.shape.ndims++] = strtoull(p, &end, 10);
        p = *end ? end + 1 : end;
    }
    return d;
}

static void shape_is(const dv_shape_t *s, const char *want)
{
    char got[96];
    dv_shape_format(s, got, sizeof got);
    ck_assert_str_eq(got, want);
}

/* Parse `params` for op, bind the inputs; returns the status (err holds the message). */
static int bind(const dv_opdesc_t *op, const char *params, const dv_tensor_desc_t *in, int nin, dv_opvals_t *v,
                dv_tensor_desc_t *out, dv_error_t *err)
{
    char buf[128], *argv[16];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", params);
    for (char *t = strtok(buf, " "); t && argc < 16; t = strtok(NULL, " "))
        argv[argc++] = t;
    ck_assert_int_eq(dv_ops_parse(op, argc, argv, v, err), DV_OK);
    return op->bind(op, in, nin, v, out, err);
}

/* The bound parameters plan, and the plan's output has the bound output's elements. */
static void plans_as_bound(const dv_opdesc_t *op, const dv_opvals_t *v, const dv_tensor_desc_t *out)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dv_op_plan_t plan;
    dv_error_t err;
    ck_assert_msg(dv_ops_plan(op, &cfg, v, &plan, &err) == DV_OK, "%s: %s", op->name, err.msg);
    const uint32_t last = plan.info.nargs - 1;
    ck_assert_int_eq(plan.args[last].dir, DV_ARG_OUT);
    ck_assert_uint_eq(plan.elems[last], dv_shape_elems(&out->shape));
    ck_assert_int_eq(plan.args[last].dtype, out->dtype);
}

START_TEST(test_ops_layout_bind)
{
    const dv_opdesc_t *slice = dv_ops_find("slice"), *concat = dv_ops_find("concat"),
                      *transpose = dv_ops_find("transpose");
    dv_opvals_t v;
    dv_tensor_desc_t out, in[5];
    dv_error_t err;

    /* slice: Focus's 0x1 slice of a 640 x 640 image; the start, step and size decide the shape */
    in[0] = tensor("1x3x640x640", DV_DT_F16);
    ck_assert_int_eq(bind(slice, "--start 0x1 --step 2x2", in, 1, &v, &out, &err), DV_OK);
    shape_is(&out.shape, "1x3x320x320");
    shape_is(&v.v[dv_ops_param_index(slice, "shape")].shape, "1x3x640x640");
    plans_as_bound(slice, &v, &out);
    in[0] = tensor("2x37x45", DV_DT_F32);
    ck_assert_int_eq(bind(slice, "--start 1x2 --step 3x5 --size 5x6", in, 1, &v, &out, &err), DV_OK);
    shape_is(&out.shape, "2x5x6");
    ck_assert_int_eq(out.dtype, DV_DT_F32);
    plans_as_bound(slice, &v, &out);
    ck_assert_int_ne(bind(slice, "--start 1x0 --step 2x1 --size 19x45", in, 1, &v, &out, &err), DV_OK);
    ck_assert_msg(strstr(err.msg, "--size: 19 rows do not fit"), "%s", err.msg);
    in[0] = tensor("45", DV_DT_F16);
    ck_assert_int_ne(bind(slice, "", in, 1, &v, &out, &err), DV_OK);
    ck_assert_str_eq(err.msg, "input 1 has 1 dimension; slice works on the last two axes");
    in[0] = tensor("4x4", DV_DT_S8);
    ck_assert_int_ne(bind(slice, "", in, 1, &v, &out, &err), DV_OK);
    ck_assert_str_eq(err.msg, "input 1 is int8; slice takes fp16|bf16|fp32|int16|int32");
    ck_assert_int_ne(bind(slice, "", in, 2, &v, &out, &err), DV_OK);
    ck_assert_str_eq(err.msg, "slice takes one input, the node has 2");

    /* concat: Focus's four slices along channels; lengths of the axis may differ */
    for (int i = 0; i < 4; i++)
        in[i] = tensor("1x3x320x320", DV_DT_F16);
    ck_assert_int_eq(bind(concat, "", in, 4, &v, &out, &err), DV_OK);
    shape_is(&out.shape, "1x12x320x320");
    ck_assert_int_eq(v.v[dv_ops_param_index(concat, "inputs")].i, 4);
    shape_is(&v.v[dv_ops_param_index(concat, "sizes")].shape, "3x3x3x3");
    plans_as_bound(concat, &v, &out);
    in[0] = tensor("2x64x7", DV_DT_F32);
    in[1] = tensor("2x64x5", DV_DT_F32);
    in[2] = tensor("2x64x1", DV_DT_F32);
    ck_assert_int_eq(bind(concat, "--axis 2", in, 3, &v, &out, &err), DV_OK);
    shape_is(&out.shape, "2x64x13");
    plans_as_bound(concat, &v, &out);
    in[0] = tensor("1x64x64x80", DV_DT_F16);
    in[1] = tensor("1x16x64x80", DV_DT_F16);
    in[2] = tensor("1x32x32x80", DV_DT_F16);
    ck_assert_int_ne(bind(concat, "", in, 3, &v, &out, &err), DV_OK);
    ck_assert_str_eq(err.msg, "input 3 has 32 in axis 2, input 1 has 64: concat along axis 1 needs every other axis equal");
    in[2] = tensor("1x32x64", DV_DT_F16);
    ck_assert_int_ne(bind(concat, "", in, 3, &v, &out, &err), DV_OK);
    ck_assert_str_eq(err.msg, "input 3 has 3 dimensions, input 1 has 4");
    in[1].dtype = DV_DT_F32;
    ck_assert_int_ne(bind(concat, "", in, 2, &v, &out, &err), DV_OK);
    ck_assert_str_eq(err.msg, "input 2 is fp32, input 1 is fp16: concat needs one dtype");
    ck_assert_int_ne(bind(concat, "--axis 4", in, 2, &v, &out, &err), DV_OK);
    ck_assert_str_eq(err.msg, "--axis: 4 is not an axis of input 1, which has 4 dimensions (0 to 3)");
    ck_assert_int_ne(bind(concat, "", in, 1, &v, &out, &err), DV_OK);
    ck_assert_str_eq(err.msg, "concat takes 2 to 4 inputs, the node has 1");
    ck_assert_int_ne(bind(concat, "--inputs 3", in, 2, &v, &out, &err), DV_OK);
    ck_assert_str_eq(err.msg, "--inputs: 3 given, the node has 2 inputs");
    ck_assert_int_ne(bind(concat, "", in, 5, &v, &out, &err), DV_OK);
    ck_assert_str_eq(err.msg, "concat takes 2 to 4 inputs, the node has 5");

    /* transpose: attention's K^T */
    in[0] = tensor("12x512x64", DV_DT_F16);
    ck_assert_int_eq(bind(transpose, "", in, 1, &v, &out, &err), DV_OK);
    shape_is(&out.shape, "12x64x512");
    plans_as_bound(transpose, &v, &out);
    in[0] = tensor("512", DV_DT_F16);
    ck_assert_int_ne(bind(transpose, "", in, 1, &v, &out, &err), DV_OK);
    ck_assert_str_eq(err.msg, "input 1 has 1 dimension; transpose swaps the last two");
    in[0] = tensor("8x8", DV_DT_U8);
    ck_assert_int_ne(bind(transpose, "", in, 1, &v, &out, &err), DV_OK);
    ck_assert_str_eq(err.msg, "input 1 is uint8; transpose takes fp16|bf16|fp32|int16|int32");
}
END_TEST

Suite *dv_ops_layout_suite(void)
{
    Suite *s = suite_create("ops_layout");
    TCase *tc = tcase_create("ops_layout");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_ops_layout_slice_check, 0, 2);
    tcase_add_loop_test(tc, test_ops_layout_concat_check, 0, 2);
    tcase_add_loop_test(tc, test_ops_layout_transpose_check, 0, 2);
    tcase_add_test(tc, test_ops_layout_whole_blocks_without_dma_pad);
    tcase_add_test(tc, test_ops_layout_instruction_counts);
    tcase_add_test(tc, test_ops_layout_gm_bytes);
    tcase_add_test(tc, test_ops_layout_plan_errors);
    tcase_add_test(tc, test_ops_layout_ub_too_small);
    tcase_add_test(tc, test_ops_layout_bind);
    suite_add_tcase(s, tc);
    return s;
}
