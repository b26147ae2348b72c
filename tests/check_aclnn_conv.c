/* tests/check_aclnn_conv.c - the general convolution (ops/convolution.c, acl/nnconv.c): --check of
 * fp32 / fp16 / bf16, bias, per-axis stride / padding / dilation, groups, 1-D, transposed (2-D, 1-D
 * with output padding) and 3-D (plain and transposed) on both profiles; its plan errors; and
 * aclnnConvolution, aclnnConvDepthwise2d and aclnnConvTbc against a plain-C convolution written as a scatter (each input element times
 * each tap added to the output it reaches), independent of the operator's gather. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support/dvt.h"
#include "support/nnt.h"

#include "aclnnop/aclnn_convolution.h"

/* Loop index: 0 = 910B2 (split), 1 = 310 (coupled). */
static const char *conv_profile(int i) { return i ? "ascend310" : NULL; }

START_TEST(test_ops_convolution_check)
{
    static const char *const cmds[] = {
        /* fp32, bias, a different stride / padding / dilation per axis */
        "convolution --dtype fp32 --n 2 --cin 8 --h 9 --w 11 --cout 20 --kernel 1x3x2 --stride 1x2x1 --pad 0x1x2 "
        " --dilation 1x1x2 --bias",
        /* groups (fp32 with bias; fp16 depthwise) */
        "convolution --dtype fp32 --n 2 --cin 6 --h 7 --w 7 --cout 9 --groups 3 --kernel 1x3x3 --bias",
        "convolution --dtype fp16 --n 1 --cin 8 --h 6 --w 10 --cout 8 --groups 8 --kernel 1x3x3",
        /* 1-D (d = h = 1) */
        "convolution --dtype fp16 --n 1 --cin 4 --h 1 --w 33 --cout 5 --kernel 1x1x3 --pad 0x0x1 "
        "--stride 1x1x2",
        /* transposed 2-D (fp32), transposed with groups, stride, output padding and bias (fp16) */
        "convolution --dtype fp32 --n 1 --cin 16 --h 2 --w 2 --cout 16 --kernel 1x2x2 --pad 0x0x0 "
        "--transposed",
        "convolution --dtype fp16 --n 2 --cin 6 --h 5 --w 4 --cout 4 --groups 2 --kernel 1x3x3 --stride 1x2x2 "
        "--pad 0x1x1 --out-pad 0x1x0 --transposed --bias",
        /* transposed 1-D with output padding */
        "convolution --dtype fp32 --n 2 --cin 3 --h 1 --w 9 --cout 5 --kernel 1x1x3 --stride 1x1x3 --pad 0x0x1 "
        "--out-pad 0x0x2 --transposed",
        /* 3-D: plain, transposed, bf16 with stride, dilation and bias */
        "convolution --dtype fp32 --n 2 --cin 2 --d 2 --h 2 --w 2 --cout 1 --kernel 1x1x1 --pad 0x0x0",
        "convolution --dtype fp32 --n 1 --cin 16 --d 2 --h 2 --w 2 --cout 16 --kernel 2x2x2 --pad 0x0x0 "
        "--transposed",
        "convolution --dtype bf16 --n 1 --cin 3 --d 5 --h 6 --w 7 --cout 8 --kernel 3x3x3 --pad 1x1x1 --stride 2x1x2 "
        "--dilation 1x2x1 --bias",
        /* --tbc: aclnnConvTbc's layouts (fp32 with bias; fp16 with several channel tiles) */
        "convolution --dtype fp32 --n 2 --cin 3 --h 1 --w 2 --cout 4 --kernel 1x1x3 --pad 0x0x1 --tbc --bias",
        "convolution --dtype fp16 --n 3 --cin 5 --h 1 --w 20 --cout 140 --kernel 1x1x3 --pad 0x0x2 --tbc --bias",
        /* several positions chunks and K slices */
        "convolution --dtype fp16 --n 2 --cin 32 --h 20 --w 20 --cout 48 --kernel 1x3x3 --bias --cores 3",
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        dvt_op_t r;
        dvt_op(&r, conv_profile(_i), NULL, cmds[i], true, true);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cmds[i], r.err.msg);
        ck_assert_msg(r.check.compared > 0 && r.check.mismatches == 0, "%s: %llu mismatches", cmds[i],
                      (unsigned long long)r.check.mismatches);
        ck_assert_msg(r.cnt.hazards == 0, "%s: %llu hazards", cmds[i], (unsigned long long)r.cnt.hazards);
        dvt_op_free(&r);
    }
}
END_TEST

/* A group's input planes that do not fit UB are gathered in chunks of channels (columns of col,
 * written with DataCopyPad): 16 fp32 planes of 20 x 20 (25.6 KB) in a 24 KB UB, 7 channels a chunk. */
START_TEST(test_ops_convolution_channel_chunks)
{
    static const char *const sets[] = {"core.ub_size_bytes=24576", NULL};
    const char *cmd = "convolution --dtype fp32 --n 2 --cin 16 --h 20 --w 20 --cout 12 --kernel 1x3x3 --bias";
    dvt_op_t r;
    dvt_op(&r, conv_profile(_i), sets, cmd, true, true);
    ck_assert_msg(r.rc == DV_OK, "%s: %s", cmd, r.err.msg);
    ck_assert_msg(r.check.compared > 0 && r.check.mismatches == 0 && r.cnt.hazards == 0, "%s: %llu mismatches", cmd,
                  (unsigned long long)r.check.mismatches);
    bool chunked = false;
    for (int i = 0; i < r.plan.ntiling_rows; i++)
        if (strcmp(r.plan.tiling_rows[i].key, "gather-channels") == 0)
            chunked = strcmp(r.plan.tiling_rows[i].val, "7") == 0 && strstr(r.plan.tiling_rows[i].why, "do not fit");
    ck_assert_msg(chunked, "%s: gather-channels is not 7 (chunked)", cmd);
    dvt_op_free(&r);
}
END_TEST

/* fp32 multiplies at the cube's fp32 rate: the same convolution takes more cube cycles than in fp16. */
START_TEST(test_ops_convolution_fp32_rate)
{
    uint64_t m[2];
    static const char *const dts[2] = {"fp16", "fp32"};
    for (int i = 0; i < 2; i++) {
        char cmd[200];
        snprintf(cmd, sizeof cmd, "convolution --dtype %s --n 1 --cin 64 --h 8 --w 8 --cout 64 --kernel 1x3x3 "
                 "--cores 1", dts[i]);
        dvt_op_t r;
        dvt_op(&r, NULL, NULL, cmd, false, false);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cmd, r.err.msg);
        m[i] = 0;
        for (uint32_t c = 0; c < r.cnt.ncores; c++)
            m[i] += r.cnt.cores[c].pipe_busy[DV_PIPE_M];
        dvt_op_free(&r);
    }
    ck_assert_msg(m[1] > 3 * m[0], "cube busy fp16 %llu, fp32 %llu: fp32 (k_f32 4) should be about 4x",
                  (unsigned long long)m[0], (unsigned long long)m[1]);
}
END_TEST

START_TEST(test_ops_convolution_errors)
{
    static const struct {
        const char *cmd, *param, *text;
    } bad[] = {
        {"convolution --cin 6 --cout 8 --groups 4", "groups", "must both be multiples of it"},
        {"convolution --out-pad 0x0x1", "out-pad", "output padding is for a transposed convolution only"},
        {"convolution --transposed --out-pad 0x2x0 --stride 1x2x2", "out-pad", "must be less than the stride"},
        {"convolution --h 2 --w 2 --kernel 1x5x5 --pad 0x0x0", "kernel", "the output has 0 positions"},
        {"convolution --kernel 3x3", "kernel", "takes three sizes DxHxW"},
        {"convolution --dtype fp32 --h 300 --w 300", "cin", "the input planes of one channel (90000 elements)"},
        {"convolution --tbc --groups 2", "tbc", "is a 1-D layout"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        dvt_op_t r;
        dvt_op(&r, NULL, NULL, bad[i].cmd, false, false);
        ck_assert_msg(r.rc != DV_OK, "%s: accepted", bad[i].cmd);
        ck_assert_msg(strstr(r.err.msg, bad[i].param) && strstr(r.err.msg, bad[i].text), "%s: %s", bad[i].cmd,
                      r.err.msg);
        dvt_op_free(&r);
    }
}
END_TEST

/* ---------------------------------------------------------------- aclnn against plain C */

typedef struct conv_case {
    int nsp;                 /* spatial axes */
    int64_t x[5], w[5];      /* NC + spatial; w as aclnn lays it */
    int64_t s[3], p[3], d[3], op[3];
    int64_t groups;
    bool transposed, bias;
    bool depthwise;          /* through aclnnConvDepthwise2d (groups = channels) */
} conv_case_t;

/* y = conv(x, w) + b in double, as a scatter over the inputs; y's shape comes out in yd. */
static void conv_scatter(const conv_case_t *cc, const float *x, const float *w, const float *b, double *y,
                         int64_t *yd)
{
    const int nsp = cc->nsp, G = (int)cc->groups;
    int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, o[3] = {1, 1, 1}, s[3] = {1, 1, 1}, p[3] = {0, 0, 0},
            d[3] = {1, 1, 1};
    for (int i = 0; i < nsp; i++) {
        const int a = 3 - nsp + i;
        in[a] = cc->x[2 + i];
        k[a] = cc->w[2 + i];
        s[a] = cc->s[i];
        p[a] = cc->p[i];
        d[a] = cc->d[i];
        o[a] = cc->transposed ? (in[a] - 1) * s[a] - 2 * p[a] + d[a] * (k[a] - 1) + cc->op[i] + 1
                              : (in[a] + 2 * p[a] - d[a] * (k[a] - 1) - 1) / s[a] + 1;
    }
    const int64_t N = cc->x[0], C = cc->x[1], cin_g = C / G;
    const int64_t cout = cc->transposed ? cc->w[1] * G : cc->w[0], cout_g = cout / G;
    yd[0] = N;
    yd[1] = cout;
    for (int i = 0; i < nsp; i++)
        yd[2 + i] = o[3 - nsp + i];
    const int64_t P = o[0] * o[1] * o[2], T = k[0] * k[1] * k[2], IN = in[0] * in[1] * in[2];
    for (int64_t n = 0; n < N; n++)
        for (int64_t co = 0; co < cout; co++)
            for (int64_t q = 0; q < P; q++)
                y[(n * cout + co) * P + q] = b ? b[co] : 0.0;
    for (int64_t n = 0; n < N; n++)
        for (int64_t ci = 0; ci < C; ci++)
            for (int64_t i = 0; i < IN; i++) {
                const int64_t ii[3] = {i / (in[1] * in[2]), i / in[2] % in[1], i % in[2]};
                const int64_t g = ci / cin_g;
                const double xv = x[(n * C + ci) * IN + i];
                for (int64_t cg = 0; cg < cout_g; cg++)
                    for (int64_t t = 0; t < T; t++) {
                        const int64_t tt[3] = {t / (k[1] * k[2]), t / k[2] % k[1], t % k[2]};
                        int64_t oo[3];
                        bool in_range = true;
                        for (int a = 0; a < 3; a++) {
                            if (cc->transposed)
                                oo[a] = ii[a] * s[a] - p[a] + tt[a] * d[a];
                            else { /* o*s - p + t*d = i */
                                const int64_t v = ii[a] + p[a] - tt[a] * d[a];
                                in_range = in_range && v >= 0 && v % s[a] == 0;
                                oo[a] = v / s[a];
                            }
                            in_range = in_range && oo[a] >= 0 && oo[a] < o[a];
                        }
                        if (!in_range)
                            continue;
                        const int64_t co = g * cout_g + cg;
                        const float wv = cc->transposed ? w[(ci * cout_g + cg) * T + t]
                                                        : w[(co * cin_g + ci % cin_g) * T + t];
                        y[(n * cout + co) * P + (oo[0] * o[1] + oo[1]) * o[2] + oo[2]] += xv * wv;
                    }
            }
}

static void conv_run_case(const conv_case_t *cc)
{
    const int nd = cc->nsp + 2;
    static const aclFormat fmt[4] = {ACL_FORMAT_ND, ACL_FORMAT_NCL, ACL_FORMAT_NCHW, ACL_FORMAT_NCDHW};
    int64_t yd[5];
    const int64_t nx = nnt_numel(cc->x, nd), nw = nnt_numel(cc->w, nd);
    const int64_t cout = cc->transposed ? cc->w[1] * cc->groups : cc->w[0];
    float x[4096], w[4096], b[64], y[8192];
    double want[8192];
    ck_assert(nx <= 4096 && nw <= 4096 && cout <= 64);
    nnt_fill(x, nx, 40, -1, 1);
    nnt_fill(w, nw, 41, -0.5f, 0.5f);
    nnt_fill(b, cout, 42, -1, 1);
    conv_scatter(cc, x, w, cc->bias ? b : NULL, want, yd);
    const int64_t ny = nnt_numel(yd, nd);
    ck_assert(ny <= 8192);
    nnt_dt_t tx = nnt_mk(cc->x, nd, ACL_FLOAT, fmt[cc->nsp], x), tw = nnt_mk(cc->w, nd, ACL_FLOAT, fmt[cc->nsp], w);
    nnt_dt_t tb = nnt_mk(&cout, 1, ACL_FLOAT, ACL_FORMAT_ND, b), ty = nnt_mk(yd, nd, ACL_FLOAT, fmt[cc->nsp], NULL);
    aclIntArray *st = aclCreateIntArray(cc->s, (uint64_t)cc->nsp), *pd = aclCreateIntArray(cc->p, (uint64_t)cc->nsp),
                *dl = aclCreateIntArray(cc->d, (uint64_t)cc->nsp), *op = aclCreateIntArray(cc->op, (uint64_t)cc->nsp);
    uint64_t ws;
    aclOpExecutor *e;
    aclIntArray *ks = aclCreateIntArray(cc->w + 2, 2);
    if (cc->depthwise)
        CK_OK(aclnnConvDepthwise2dGetWorkspaceSize(tx.t, tw.t, ks, cc->bias ? tb.t : NULL, st, pd, dl, ty.t, 1, &ws,
                                                   &e));
    else
        CK_OK(aclnnConvolutionGetWorkspaceSize(tx.t, tw.t, cc->bias ? tb.t : NULL, st, pd, dl, cc->transposed, op,
                                               cc->groups, ty.t, 1, &ws, &e));
    void *wsp = NULL;
    if (ws) {
        CK_OK(aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST));
        CK_OK(aclrtMemset(wsp, ws, 0xA5, ws)); /* the kernel must not rely on the workspace's contents */
    }
    if (cc->depthwise)
        RUN(aclnnConvDepthwise2d(wsp, ws, e, nnt_stream));
    else
        RUN(aclnnConvolution(wsp, ws, e, nnt_stream));
    nnt_rd(&ty, y);
    nnt_ck_close("convolution", y, want, ny, 1e-4, 1e-4);
    if (wsp)
        CK_OK(aclrtFree(wsp));
    CK_OK(aclDestroyIntArray(st));
    CK_OK(aclDestroyIntArray(pd));
    CK_OK(aclDestroyIntArray(dl));
    CK_OK(aclDestroyIntArray(op));
    CK_OK(aclDestroyIntArray(ks));
    nnt_rm(&tx);
    nnt_rm(&tw);
    nnt_rm(&tb);
    nnt_rm(&ty);
}

/* fp32, each behaviour once, on both profiles. */
START_TEST(test_aclnn_conv_fp32)
{
    nnt_setup_profile(conv_profile(_i));
    static const conv_case_t cases[] = {
        /* 2-D: bias, stride (1, 2), padding (1, 0), dilation (2, 1), groups 2 */
        {2, {2, 4, 7, 8}, {6, 2, 3, 2}, {1, 2}, {1, 0}, {2, 1}, {0}, 2, false, true, false},
        /* the official example's shape (conv2d_v2) */
        {2, {2, 2, 2, 2}, {1, 2, 1, 1}, {1, 1}, {0, 0}, {1, 1}, {0}, 1, false, false, false},
        /* 1-D, stride 2, padding 1, bias */
        {1, {2, 3, 17}, {4, 3, 3}, {2}, {1}, {1}, {0}, 1, false, true, false},
        /* transposed 2-D (the example's shape), then with stride 2, padding 1, output padding 1, groups 2 */
        {2, {1, 16, 2, 2}, {16, 16, 2, 2}, {1, 1}, {0, 0}, {1, 1}, {0, 0}, 1, true, false, false},
        {2, {2, 4, 3, 4}, {4, 3, 3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 0}, 2, true, true, false},
        /* transposed 1-D: stride 3, output padding 2 */
        {1, {1, 3, 5}, {3, 2, 4}, {3}, {1}, {1}, {2}, 1, true, false, false},
        /* 3-D and 3-D transposed (the examples' shapes), 3-D with stride 2 and padding */
        {3, {2, 2, 2, 2, 2}, {1, 2, 1, 1, 1}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}, {0}, 1, false, false, false},
        {3, {1, 16, 2, 2, 2}, {16, 16, 2, 2, 2}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, 1, true, false, false},
        {3, {1, 2, 5, 4, 6}, {3, 2, 3, 2, 3}, {2, 1, 2}, {1, 0, 1}, {1, 1, 1}, {0}, 1, false, true, false},
        /* depthwise (aclnnConvDepthwise2d): the example's shape, then two outputs per channel, stride (2, 1) */
        {2, {2, 2, 2, 2}, {2, 1, 1, 1}, {1, 1}, {0, 0}, {1, 1}, {0}, 2, false, true, true},
        {2, {1, 3, 6, 5}, {6, 1, 3, 3}, {2, 1}, {1, 1}, {1, 1}, {0}, 3, false, true, true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        conv_run_case(&cases[i]);
}
END_TEST

/* aclnnConvTbc against torch's conv_tbc written out: y[t][b][co] = bias[co] + sum_{k, ci}
 * x[t + k - pad][b][ci] * w[k][ci][co]. */
START_TEST(test_aclnn_conv_tbc)
{
    nnt_setup_profile(conv_profile(_i));
    const int64_t T = 7, B = 2, CI = 3, CO = 5, K = 3, PAD = 1, TO = T + 2 * PAD - K + 1;
    const int64_t xd[] = {T, B, CI}, wd[] = {K, CI, CO}, yd[] = {TO, B, CO}, bd = CO;
    float x[42], w[45], b[5], y[70];
    double want[70];
    nnt_fill(x, T * B * CI, 50, -1, 1);
    nnt_fill(w, K * CI * CO, 51, -0.5f, 0.5f);
    nnt_fill(b, CO, 52, -1, 1);
    for (int64_t t = 0; t < TO; t++)
        for (int64_t n = 0; n < B; n++)
            for (int64_t co = 0; co < CO; co++) {
                double acc = b[co];
                for (int64_t k = 0; k < K; k++)
                    for (int64_t ci = 0; ci < CI; ci++) {
                        const int64_t ti = t + k - PAD;
                        if (ti >= 0 && ti < T)
                            acc += (double)x[(ti * B + n) * CI + ci] * w[(k * CI + ci) * CO + co];
                    }
                want[(t * B + n) * CO + co] = acc;
            }
    nnt_dt_t tx = nnt_mk(xd, 3, ACL_FLOAT, ACL_FORMAT_ND, x), tw = nnt_mk(wd, 3, ACL_FLOAT, ACL_FORMAT_ND, w);
    nnt_dt_t tb = nnt_mk(&bd, 1, ACL_FLOAT, ACL_FORMAT_ND, b), ty = nnt_mk(yd, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnConvTbcGetWorkspaceSize(tx.t, tw.t, tb.t, PAD, ty.t, 1, &ws, &e));
    void *wsp = NULL;
    CK_OK(aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST));
    CK_OK(aclrtMemset(wsp, ws, 0xA5, ws));
    RUN(aclnnConvTbc(wsp, ws, e, nnt_stream));
    nnt_rd(&ty, y);
    nnt_ck_close("conv_tbc", y, want, TO * B * CO, 1e-4, 1e-4);
    CK_OK(aclrtFree(wsp));
    /* errors: the output's shape, bias required */
    const int64_t ybad[] = {TO + 1, B, CO};
    nnt_dt_t tyb = nnt_mk(ybad, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnConvTbcGetWorkspaceSize(tx.t, tw.t, tb.t, PAD, tyb.t, 1, &ws, &e), NN_INVALID,
           "output has shape [8,2,5]; conv_tbc gives [7,2,5]");
    CK_ERR(aclnnConvTbcGetWorkspaceSize(tx.t, tw.t, NULL, PAD, ty.t, 1, &ws, &e), NN_NULLPTR, "bias is NULL");
    nnt_rm(&tx);
    nnt_rm(&tw);
    nnt_rm(&tb);
    nnt_rm(&ty);
    nnt_rm(&tyb);
}
END_TEST

START_TEST(test_aclnn_conv_errors)
{
    const int64_t xd[] = {1, 4, 6, 6}, wd[] = {4, 2, 3, 3}, yd[] = {1, 4, 4, 4}, x1[] = {1, 4, 6}, four = 4, three = 3;
    nnt_dt_t x = nnt_mk(xd, 4, ACL_FLOAT, ACL_FORMAT_NCHW, NULL), w = nnt_mk(wd, 4, ACL_FLOAT, ACL_FORMAT_NCHW, NULL);
    nnt_dt_t y = nnt_mk(yd, 4, ACL_FLOAT, ACL_FORMAT_NCHW, NULL), xl = nnt_mk(x1, 3, ACL_FLOAT, ACL_FORMAT_NCL, NULL);
    nnt_dt_t xh = nnt_mk(xd, 4, ACL_FLOAT, ACL_FORMAT_NHWC, NULL), b3 = nnt_mk(&three, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t b4 = nnt_mk(&four, 1, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    const int64_t one = 1, zero = 0, s3[] = {1, 1, 1}, p4[] = {1, 0, 1, 1};
    aclIntArray *a1 = aclCreateIntArray(&one, 1), *a0 = aclCreateIntArray(&zero, 1), *a3 = aclCreateIntArray(s3, 3),
                *ap = aclCreateIntArray(p4, 4);
    uint64_t ws;
    aclOpExecutor *e;
    /* groups 2: w [4, 2, 3, 3] takes cin 4 */
    CK_OK(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, a1, a0, a1, false, a0, 2, y.t, 0, &ws, &e));
    CK_OK(aclDestroyAclOpExecutor(e));
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, a1, a0, a1, false, a0, 3, y.t, 0, &ws, &e), NN_INVALID,
           "groups is 3; it must be at least 1 and divide the 4 channels of input");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, a1, a0, a1, false, a0, 1, y.t, 0, &ws, &e), NN_INVALID,
           "weight has dims 0 and 1 of 4 and 2; with 4 input channels and groups 1");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, b3.t, a1, a0, a1, false, a0, 2, y.t, 0, &ws, &e), NN_INVALID,
           "bias has 3 elements in 1 dims; it takes one per output channel (4)");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, b4.t, a1, a0, a1, false, a0, 2, y.t, 0, &ws, &e), NN_INVALID,
           "bias");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, a3, a0, a1, false, a0, 2, y.t, 0, &ws, &e), NN_INVALID,
           "stride has 3 values; a 2-D convolution takes 2 (or 1 for every axis)");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, a1, ap, a1, false, a0, 2, y.t, 0, &ws, &e), NN_INVALID,
           "padding is 1 before and 0 after on spatial axis 1; dvsim pads both sides alike");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, a1, a0, a1, true, NULL, 2, y.t, 0, &ws, &e), NN_NULLPTR,
           "outputPadding is NULL");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(xl.t, w.t, NULL, a1, a0, a1, false, a0, 2, y.t, 0, &ws, &e), NN_INVALID,
           "input has 3 dims but weight 4 and output 4");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(xh.t, w.t, NULL, a1, a0, a1, false, a0, 2, y.t, 0, &ws, &e), NN_INVALID,
           "input has format FORMAT_NHWC; a 2-D convolution takes FORMAT_NCHW (channels first)");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, a1, a1, a1, false, a0, 2, y.t, 0, &ws, &e), NN_INVALID,
           "output has shape [1,4,4,4]; the convolution gives [1,4,6,6]");
    /* depthwise: weight [4, 2, 3, 3] is not [cout, 1, ...] for 4 channels; kernelSize must match */
    CK_ERR(aclnnConvDepthwise2dGetWorkspaceSize(x.t, w.t, a1, NULL, a1, a0, a1, y.t, 0, &ws, &e), NN_INVALID,
           "kernelSize is (1, 1) but weight is 3 x 3");
    const int64_t k33[] = {3, 3};
    aclIntArray *ak = aclCreateIntArray(k33, 2);
    CK_ERR(aclnnConvDepthwise2dGetWorkspaceSize(x.t, w.t, ak, NULL, a1, a0, a1, y.t, 0, &ws, &e), NN_INVALID,
           "weight has dims 0 and 1 of 4 and 2; with 4 input channels and groups 4");
    CK_OK(aclDestroyIntArray(ak));
    CK_OK(aclDestroyIntArray(a1));
    CK_OK(aclDestroyIntArray(a0));
    CK_OK(aclDestroyIntArray(a3));
    CK_OK(aclDestroyIntArray(ap));
    nnt_rm(&x);
    nnt_rm(&w);
    nnt_rm(&y);
    nnt_rm(&xl);
    nnt_rm(&xh);
    nnt_rm(&b3);
    nnt_rm(&b4);
}
END_TEST

Suite *dv_aclnn_conv_suite(void)
{
    Suite *s = suite_create("aclnn_conv");
    TCase *to = tcase_create("ops_convolution");
    tcase_set_timeout(to, 120);
    tcase_add_loop_test(to, test_ops_convolution_check, 0, 2);
    tcase_add_test(to, test_ops_convolution_fp32_rate);
    tcase_add_loop_test(to, test_ops_convolution_channel_chunks, 0, 2);
    tcase_add_test(to, test_ops_convolution_errors);
    suite_add_tcase(s, to);
    TCase *tc = tcase_create("aclnn_conv");
    tcase_add_checked_fixture(tc, nnt_setup, nnt_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_aclnn_conv_errors);
    suite_add_tcase(s, tc);
    TCase *tp = tcase_create("aclnn_conv_profiles");
    tcase_add_checked_fixture(tp, NULL, nnt_teardown);
    tcase_set_timeout(tp, 60);
    tcase_add_loop_test(tp, test_aclnn_conv_fp32, 0, 2);
    tcase_add_loop_test(tp, test_aclnn_conv_tbc, 0, 2);
    suite_add_tcase(s, tp);
    return s;
}
