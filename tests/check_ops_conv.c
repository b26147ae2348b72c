/* tests/check_ops_conv.c - the conv2d operator (ops/conv2d.c, ops/conv2d_kernel.c): --check over
 * odd sizes, channel and position tails, strides, padding and dilation, both dtypes, on the 910B2
 * (mix kernel: AIV transforms + AIC img2col/mmad/FixPipe) and 310 (one coupled core per block)
 * profiles, with and without --bias and --relu; double buffering must pay; the graph bind; and the
 * parameter errors a user can reach. */
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

/* --bias and --relu, each alone and together, both dtypes: odd output channel counts (the last
 * channel group partial: 5, 24, 33), odd position counts (masked 64-column chunks), positions per
 * AIV item above 64 (base-m 256 on the 910B: two chunks per row), single buffering. */
START_TEST(test_ops_conv_check_bias_relu)
{
    static const struct {
        const char *shape, *extra;
        uint64_t y_elems;
    } cases[] = {
        {"--n 1 --cin 20 --h 9 --w 7 --cout 33", "--bias on --relu on --base-m 32 --base-n 16 --cores 3", 33 * 63},
        {"--n 2 --cin 3 --h 7 --w 9 --cout 5", "--bias on --cores 2", 2 * 5 * 63},
        {"--n 1 --cin 16 --h 13 --w 11 --cout 24", "--relu on --base-m 48 --cores 2", 24 * 143},
        {"--n 1 --cin 20 --h 17 --w 15 --cout 24", "--bias on --relu on --base-m 256 --cores 1", 24 * 255},
        {"--n 1 --cin 17 --h 9 --w 11 --cout 33", "--bias on --relu on --dtype bf16 --cores 2", 33 * 99},
        {"--n 1 --cin 16 --h 7 --w 7 --cout 5", "--relu on --dtype bf16 --cores 2", 5 * 49},
        {"--n 2 --cin 16 --h 8 --w 9 --cout 24", "--bias on --relu on --stride 2 --double-buffer off --cores 2",
         2 * 24 * 4 * 5},
    };
    const char *profile = profiles[_i];
    char cmd[320];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(cmd, sizeof cmd, "conv2d %s %s", cases[i].shape, cases[i].extra);
        check_ok(profile, cmd, cases[i].y_elems);
    }
}
END_TEST

/* Where the bias and the ReLU run, counted by hand for x [1, 16, 8, 8], 24 output channels, one
 * 64 x 32 tile (channel groups of 16 and 8).  --relu alone is FixPipe's (L0C -> UB's on the 310)
 * and adds no instruction.  --bias: per item of 16 channels (910B: 2 channel groups x 2 AIVs with
 * 32 positions each; 310: 2 channel groups of 64 positions) one bias load (copy_gm_to_ubuf), one
 * vbrcb, and on its rows (one 64-column chunk) a vconv to fp32, a vadd, a vrelu with --relu and a
 * vconv back. */
START_TEST(test_ops_conv_bias_relu_instructions)
{
    const char *profile = profiles[_i];
    const uint64_t items = 4 / (profile ? 2 : 1);
    const char *base = "conv2d --n 1 --cin 16 --h 8 --w 8 --cout 24 --base-m 64";
    static const char *const flags[] = {"", "--relu on", "--bias on", "--bias on --relu on"};
    dvt_op_t r[4];
    char cmd[200];
    for (int i = 0; i < 4; i++) {
        snprintf(cmd, sizeof cmd, "%s %s", base, flags[i]);
        ck_assert_msg(dvt_op(&r[i], profile, NULL, cmd, true, true) == DV_OK, "%s on %s: %s", cmd, pname(profile),
                      r[i].err.msg);
    }
    ck_assert_uint_eq(r[1].cnt.instructions, r[0].cnt.instructions);
    for (int i = 2; i < 4; i++) {
        const uint64_t *n = r[i].cnt.op_count, *n0 = r[0].cnt.op_count;
        ck_assert_msg(n[DV_OP_vbrcb] == items && n[DV_OP_vadd] == items && n[DV_OP_vconv] == 2 * items &&
                      n[DV_OP_vrelu] == (i == 3 ? items : 0) &&
                      n[DV_OP_copy_gm_to_ubuf] == n0[DV_OP_copy_gm_to_ubuf] + items,
                      "%s %s on %s: %llu vbrcb, %llu vadd, %llu vconv, %llu vrelu, %llu more copy_gm_to_ubuf; %llu "
                      "items", base, flags[i], pname(profile), (unsigned long long)n[DV_OP_vbrcb],
                      (unsigned long long)n[DV_OP_vadd], (unsigned long long)n[DV_OP_vconv],
                      (unsigned long long)n[DV_OP_vrelu],
                      (unsigned long long)(n[DV_OP_copy_gm_to_ubuf] - n0[DV_OP_copy_gm_to_ubuf]),
                      (unsigned long long)items);
    }
    for (int i = 0; i < 4; i++)
        dvt_op_free(&r[i]);
}
END_TEST

/* As a graph node: x [N, Cin, H, W] sets the shape parameters and the dtype; y's shape is the
 * plan's output size; a wrong rank, dtype or dimension names input 1; an input too small for the
 * kernel gives the plan's own message. */
static int bind_x(const char *params, uint64_t n, uint64_t c, uint64_t h, uint64_t w, dv_dtype_t dt, dv_opvals_t *v,
                  dv_tensor_desc_t *out, dv_error_t *err)
{
    const dv_opdesc_t *op = dv_ops_find("conv2d");
    char buf[200], *argv[24];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", params);
    for (char *tok = strtok(buf, " "); tok && argc < 24; tok = strtok(NULL, " "))
        argv[argc++] = tok;
    ck_assert_msg(dv_ops_parse(op, argc, argv, v, err) == DV_OK, "%s", err->msg);
    dv_tensor_desc_t x = {{4, {n, c, h, w}}, dt};
    memset(out, 0, sizeof *out);
    return op->bind(op, &x, 1, v, out, err);
}

START_TEST(test_ops_conv_bind)
{
    const dv_opdesc_t *op = dv_ops_find("conv2d");
    dv_opvals_t v;
    dv_tensor_desc_t y;
    dv_error_t err = {0};
    ck_assert_ptr_nonnull(op->bind);
    ck_assert_int_eq(bind_x("--cout 33 --kh 3 --kw 1 --stride 2 --pad 1 --bias on", 2, 20, 9, 7, DV_DT_BF16, &v, &y,
                            &err), DV_OK);
    const int pn = dv_ops_param_index(op, "n"), pc = dv_ops_param_index(op, "cin");
    const int ph = dv_ops_param_index(op, "h"), pw = dv_ops_param_index(op, "w"), pd = dv_ops_param_index(op, "dtype");
    ck_assert(v.v[pn].i == 2 && v.v[pc].i == 20 && v.v[ph].i == 9 && v.v[pw].i == 7 && v.v[pd].dt == DV_DT_BF16);
    ck_assert(v.given[pn] && v.given[pc] && v.given[ph] && v.given[pw] && v.given[pd]);
    /* (9 + 2 - 3) / 2 + 1 = 5 rows, (7 + 2 - 1) / 2 + 1 = 5 columns */
    ck_assert_int_eq(y.shape.ndims, 4);
    ck_assert(y.shape.d[0] == 2 && y.shape.d[1] == 33 && y.shape.d[2] == 5 && y.shape.d[3] == 5);
    ck_assert_int_eq(y.dtype, DV_DT_BF16);
    /* the plan of the bound values agrees: y is its first output, x its one input that is not own */
    dv_config_t cfg;
    dv_op_plan_t plan;
    dvt_config(&cfg, NULL, NULL);
    ck_assert_msg(dv_ops_plan(op, &cfg, &v, &plan, &err) == DV_OK, "%s", err.msg);
    ck_assert_uint_eq(plan.elems[0], 2 * 20 * 9 * 7);
    ck_assert_uint_eq(plan.own_args, 1u << 1 | 1u << 2); /* w, b */
    ck_assert_str_eq(plan.args[2].name, "b");
    ck_assert_int_eq(plan.args[2].dtype, DV_DT_F32);
    ck_assert_str_eq(plan.args[3].name, "y");
    ck_assert_uint_eq(plan.elems[3], 2 * 33 * 5 * 5);

    /* an input smaller than the kernel's reach: the plan's message */
    dv_error_t perr = {0};
    ck_assert_int_ne(bind_x("--kh 5 --pad 0", 1, 16, 4, 9, DV_DT_F16, &v, &y, &err), DV_OK);
    char argv_buf[] = "--kh 5 --pad 0 --cin 16 --h 4 --w 9", *argv[10];
    int argc = 0;
    for (char *tok = strtok(argv_buf, " "); tok; tok = strtok(NULL, " "))
        argv[argc++] = tok;
    ck_assert_int_eq(dv_ops_parse(op, argc, argv, &v, &perr), DV_OK);
    ck_assert_int_ne(dv_ops_plan(op, &cfg, &v, &plan, &perr), DV_OK);
    ck_assert_str_eq(err.msg, perr.msg);
    ck_assert_msg(strstr(err.msg, "--kh") && strstr(err.msg, "padded input height"), "%s", err.msg);
    ck_assert_int_ne(bind_x("--kw 3 --dilation 3 --pad 1", 1, 16, 9, 4, DV_DT_F16, &v, &y, &err), DV_OK);
    ck_assert_msg(strstr(err.msg, "--kw") && strstr(err.msg, "padded input width"), "%s", err.msg);

    /* rank, dtype, a dimension out of its parameter's range, input count */
    dv_tensor_desc_t x3 = {{3, {16, 8, 8}}, DV_DT_F16};
    ck_assert_int_ne(op->bind(op, &x3, 1, &v, &y, &err), DV_OK);
    ck_assert_msg(strstr(err.msg, "input 1") && strstr(err.msg, "16x8x8") && strstr(err.msg, "4 dimensions"), "%s",
                  err.msg);
    ck_assert_int_ne(bind_x("", 1, 16, 8, 8, DV_DT_F32, &v, &y, &err), DV_OK);
    ck_assert_msg(strstr(err.msg, "input 1 is fp32") && strstr(err.msg, "fp16, bf16"), "%s", err.msg);
    ck_assert_int_ne(bind_x("", 1, 70000, 8, 8, DV_DT_F16, &v, &y, &err), DV_OK);
    ck_assert_msg(strstr(err.msg, "input 1") && strstr(err.msg, "70000") && strstr(err.msg, "--cin") &&
                  strstr(err.msg, "[1, 65520]"), "%s", err.msg);
    dv_tensor_desc_t two[2] = {x3, x3};
    ck_assert_int_ne(op->bind(op, two, 2, &v, &y, &err), DV_OK);
    ck_assert_msg(strstr(err.msg, "one input"), "%s", err.msg);
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
    check_ok("ascend910a", "conv2d --n 1 --cin 16 --h 8 --w 8 --cout 21 --bias on --relu on --cores 2", 21 * 8 * 8);
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
    check_err(NULL, "conv2d --base-m 2048 --base-n 16 --double-buffer on", "--base-m", "core.l0c_size_bytes",
              "131072");
    check_err(NULL, "conv2d --cout 2048 --base-m 16 --base-n 2048 --double-buffer on", "--base-n",
              "core.l0c_size_bytes", "131072");
    check_err("ascend310", "conv2d --h 64 --w 64 --base-m 2048 --base-n 16 --double-buffer on", "--base-m",
              "core.l0a_size_bytes",
              "65536");
    check_err("ascend310", "conv2d --cout 1040 --base-m 16 --base-n 1040 --double-buffer on", "--base-n",
              "core.l0b_size_bytes",
              "65536");
    check_err(NULL, "conv2d --cin 16 --h 100 --w 4000 --cout 16 --base-m 512 --double-buffer on", "--base-m",
              "core.l1_size_bytes", "524288");
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
    tcase_add_loop_test(tc, test_ops_conv_check_bias_relu, 0, 2);
    tcase_add_loop_test(tc, test_ops_conv_bias_relu_instructions, 0, 2);
    tcase_add_test(tc, test_ops_conv_bind);
    tcase_add_test(tc, test_ops_conv_check_910a);
    tcase_add_loop_test(tc, test_ops_conv_double_buffer_faster, 0, 2);
    tcase_add_loop_test(tc, test_ops_conv_tile_size_matters, 0, 2);
    tcase_add_test(tc, test_ops_conv_bad_params);
    suite_add_tcase(s, tc);
    return s;
}
