/* tests/check_aclnn_norm2.c - the second round of aclnn reductions (acl/nnreduce.c onto
 * ops/colnorm.c's reduce_nansum, reduce_logsum and reduce_var_mean): ReduceNansum with NaNs in the
 * full 64-lane repeats and in the masked last one, fp16 in with an fp32 sum out; ReduceLogSum over a
 * run of axes and the official example's one element; VarMean and StdMeanCorrection, both outputs,
 * against plain C on both profiles; and their errors (meanOut's shape and dtype, a negative
 * correction, noopWithEmptyAxes, a NULL dim, the output's parameter name in the messages); and the
 * library operators themselves with --check on both profiles, fp16 and fp32; the losses' backward
 * forms (L1, Mse, SmoothL1, SoftMargin) for each reduction against plain C, and their errors;
 * SoftmaxBackward and LogSoftmaxBackward along each axis of a 3 x 4 x 5 tensor (negative dims too);
 * BinaryCrossEntropy and its Backward with and without a weight, each reduction, a log clamped at -100;
 * BinaryCrossEntropyWithLogits and its Backward with and without the weight and the positive weight;
 * KlDivBackward and KlDivTargetBackward for each reduction (batchmean too), with and without logTarget,
 * a target of 0 and one below 0 (the target's gradient 0 there); BatchNormElemt on 2-D to 4-D input
 * with and without weight and bias, and its errors; BatchNormStats on 2-D to 4-D input (fp32, and fp16
 * into ACL_FLOAT statistics); BatchNormReduce (the official example's NCHW [1, 2, 3, 4], and [4, 3, 50]);
 * SyncBatchNormGatherStats with int32 and fp32 counts, the running statistics updated in place;
 * BatchNormGatherStatsWithCounts (the devices' means and invstds). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/dvt.h"
#include "support/nnt.h"

#include "aclnnop/aclnn_batch_norm_elemt.h"
#include "aclnnop/aclnn_batch_norm_gather_stats_with_counts.h"
#include "aclnnop/aclnn_batch_norm_reduce.h"
#include "aclnnop/aclnn_batch_norm_stats.h"
#include "aclnnop/aclnn_binary_cross_entropy.h"
#include "aclnnop/aclnn_binary_cross_entropy_backward.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "aclnnop/aclnn_kl_div_backward.h"
#include "aclnnop/aclnn_kl_div_target_backward.h"
#include "aclnnop/aclnn_l1_loss_backward.h"
#include "aclnnop/aclnn_logsoftmax_backward.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
#include "aclnnop/aclnn_reduce_log_sum.h"
#include "aclnnop/aclnn_reduce_nansum.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "aclnnop/aclnn_softmax_backward.h"
#include "aclnnop/aclnn_sync_batch_norm_gather_stats.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"
#include "aclnnop/aclnn_std_mean_correction.h"
#include "aclnnop/aclnn_var_mean.h"

/* x [outer, n, inner] reduced over n: the sum (NaN as 0 when nan), its log, or the mean and the
 * variance divided by n - corr (its root when sq). */
static void ref3(const float *x, int64_t outer, int64_t n, int64_t inner, bool nan, int64_t corr, double *sum,
                 double *mean, double *var, bool sq)
{
    for (int64_t o = 0; o < outer; o++)
        for (int64_t c = 0; c < inner; c++) {
            double s = 0, q = 0;
            for (int64_t r = 0; r < n; r++) {
                const double v = x[(o * n + r) * inner + c];
                s += nan && isnan(v) ? 0 : v;
            }
            for (int64_t r = 0; r < n; r++) {
                const double d = x[(o * n + r) * inner + c] - s / (double)n;
                q += d * d;
            }
            sum[o * inner + c] = s;
            if (mean)
                mean[o * inner + c] = s / (double)n;
            if (var)
                var[o * inner + c] = sq ? sqrt(q / (double)(n - corr)) : q / (double)(n - corr);
        }
}

/* NaNs along the reduced axis: [5, 37] over dim 0 (the tile 5 x 40 lanes: one masked repeat, its
 * mask block after the full ones) and [100, 70] over dim 0 (100 x 72 lanes: 112 full repeats and a
 * masked one), each on one profile; a column of only NaNs sums to 0. */
START_TEST(test_aclnn_norm2_nansum)
{
    nnt_setup_profile(_i % 2 ? "ascend310" : NULL);
    const int64_t rows = _i < 2 ? 5 : 100, cols = _i < 2 ? 37 : 70, d[] = {rows, cols}, dim0 = 0;
    float *x = malloc((size_t)(rows * cols) * sizeof *x), y[70];
    double want[70];
    nnt_fill(x, rows * cols, 71 + (unsigned)_i, -2, 2);
    for (int64_t i = 0; i < rows * cols; i += 7)
        x[i] = NAN;
    for (int64_t r = 0; r < rows; r++) /* column 3: all NaN */
        x[r * cols + 3] = NAN;
    x[(rows - 1) * cols + cols - 1] = NAN; /* the last lane of the last repeat */
    ref3(x, 1, rows, cols, true, 0, want, NULL, NULL, false);
    ck_assert(want[3] == 0);
    nnt_dt_t tx = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, x), ty = nnt_mk(&cols, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    aclIntArray *dims = aclCreateIntArray(&dim0, 1);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnReduceNansumGetWorkspaceSize(tx.t, dims, false, ACL_FLOAT, ty.t, &ws, &e));
    RUN(aclnnReduceNansum(NULL, ws, e, nnt_stream));
    nnt_rd(&ty, y);
    nnt_ck_close("nansum", y, want, cols, 1e-5, 1e-5);
    CK_OK(aclDestroyIntArray(dims));
    nnt_rm(&tx);
    nnt_rm(&ty);
    free(x);
}
END_TEST

/* fp16 [2, 3, 4] with NaNs summed over dims 0 and 2 (two runs) into fp32, keepdim. */
START_TEST(test_aclnn_norm2_nansum_fp16)
{
    const int64_t d[] = {2, 3, 4}, od[] = {1, 3, 1}, ax[] = {0, -1};
    float x[24], y[3];
    uint16_t h[24];
    double want[3] = {0, 0, 0};
    nnt_fill(x, 24, 81, -2, 2);
    x[1] = x[14] = x[23] = NAN;
    for (int i = 0; i < 24; i++)
        x[i] = nnt_f16r(x[i]);
    nnt_to_f16(x, h, 24);
    for (int i = 0; i < 24; i++)
        want[i / 4 % 3] += isnan(x[i]) ? 0 : x[i];
    nnt_dt_t tx = nnt_mk(d, 3, ACL_FLOAT16, ACL_FORMAT_ND, h), ty = nnt_mk(od, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    aclIntArray *dims = aclCreateIntArray(ax, 2);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnReduceNansumGetWorkspaceSize(tx.t, dims, true, ACL_FLOAT, ty.t, &ws, &e));
    RUN(aclnnReduceNansum(NULL, ws, e, nnt_stream));
    nnt_rd(&ty, y);
    nnt_ck_close("fp16 nansum", y, want, 3, 1e-5, 1e-5);
    CK_OK(aclDestroyIntArray(dims));
    nnt_rm(&tx);
    nnt_rm(&ty);
}
END_TEST

/* ln of the sum over dims 1 and 2 of [3, 5, 7] (keepdim), and the official example's one element. */
START_TEST(test_aclnn_norm2_logsum)
{
    const int64_t d[] = {3, 5, 7}, od[] = {3, 1, 1}, ax[] = {1, 2}, one = 1, zero = 0;
    float x[105], y[3];
    double want[3];
    nnt_fill(x, 105, 91, 0.1f, 2);
    ref3(x, 3, 35, 1, false, 0, want, NULL, NULL, false);
    for (int i = 0; i < 3; i++)
        want[i] = log(want[i]);
    nnt_dt_t tx = nnt_mk(d, 3, ACL_FLOAT, ACL_FORMAT_ND, x), ty = nnt_mk(od, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    aclIntArray *dims = aclCreateIntArray(ax, 2), *d0 = aclCreateIntArray(&zero, 1);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnReduceLogSumGetWorkspaceSize(tx.t, dims, true, false, ty.t, &ws, &e));
    RUN(aclnnReduceLogSum(NULL, ws, e, nnt_stream));
    nnt_rd(&ty, y);
    nnt_ck_close("logsum", y, want, 3, 1e-5, 1e-5);
    const float v = 9.7656f;
    nnt_dt_t t1 = nnt_mk(&one, 1, ACL_FLOAT, ACL_FORMAT_ND, &v), o1 = nnt_mk(&one, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    CK_OK(aclnnReduceLogSumGetWorkspaceSize(t1.t, d0, true, false, o1.t, &ws, &e));
    RUN(aclnnReduceLogSum(NULL, ws, e, nnt_stream));
    nnt_rd(&o1, y);
    want[0] = log((double)v);
    nnt_ck_close("logsum of one", y, want, 1, 1e-6, 1e-6);
    CK_OK(aclDestroyIntArray(dims));
    CK_OK(aclDestroyIntArray(d0));
    nnt_rm(&tx);
    nnt_rm(&ty);
    nnt_rm(&t1);
    nnt_rm(&o1);
}
END_TEST

/* VarMean (correction 1, keepdim) and StdMeanCorrection (correction 0) over dim 1 of [6, 33, 9],
 * both outputs against plain C; loop index: the API, and the profile. */
START_TEST(test_aclnn_norm2_var_mean)
{
    nnt_setup_profile(_i % 2 ? "ascend310" : NULL);
    const bool std = _i >= 2;
    const int64_t d[] = {6, 33, 9}, kd[] = {6, 1, 9}, nd[] = {6, 9}, one = 1, corr = std ? 0 : 1;
    float x[6 * 33 * 9], v[54], m[54];
    double sum[54], mean[54], var[54];
    nnt_fill(x, 6 * 33 * 9, 101 + (unsigned)_i, -3, 3);
    ref3(x, 6, 33, 9, false, corr, sum, mean, var, std);
    nnt_dt_t tx = nnt_mk(d, 3, ACL_FLOAT, ACL_FORMAT_ND, x);
    nnt_dt_t tv = nnt_mk(std ? nd : kd, std ? 2 : 3, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t tm = nnt_mk(std ? nd : kd, std ? 2 : 3, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    aclIntArray *dims = aclCreateIntArray(&one, 1);
    uint64_t ws;
    aclOpExecutor *e;
    if (std) {
        CK_OK(aclnnStdMeanCorrectionGetWorkspaceSize(tx.t, dims, corr, false, tv.t, tm.t, &ws, &e));
        RUN(aclnnStdMeanCorrection(NULL, ws, e, nnt_stream));
    } else {
        CK_OK(aclnnVarMeanGetWorkspaceSize(tx.t, dims, corr, true, tv.t, tm.t, &ws, &e));
        RUN(aclnnVarMean(NULL, ws, e, nnt_stream));
    }
    nnt_rd(&tv, v);
    nnt_rd(&tm, m);
    nnt_ck_close(std ? "std" : "var", v, var, 54, 1e-5, 1e-4);
    nnt_ck_close("mean", m, mean, 54, 1e-5, 1e-4);
    CK_OK(aclDestroyIntArray(dims));
    nnt_rm(&tx);
    nnt_rm(&tv);
    nnt_rm(&tm);
}
END_TEST

START_TEST(test_aclnn_norm2_errors)
{
    const int64_t d[] = {2, 4}, k[] = {2}, k1[] = {2, 1}, one = 1, none = 0;
    nnt_dt_t tx = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), ty = nnt_mk(k, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t tk = nnt_mk(k1, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), th = nnt_mk(k, 1, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    aclIntArray *a1 = aclCreateIntArray(&one, 1), *a0 = aclCreateIntArray(&none, 0);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnVarMeanGetWorkspaceSize(tx.t, a1, 1, false, ty.t, ty.t, &ws, &e));
    CK_ERR(aclnnVarMeanGetWorkspaceSize(tx.t, a1, 1, false, ty.t, tk.t, &ws, &e), NN_INVALID, "meanOut");
    CK_ERR(aclnnVarMeanGetWorkspaceSize(tx.t, a1, 1, false, ty.t, th.t, &ws, &e), NN_INVALID, "meanOut");
    CK_ERR(aclnnVarMeanGetWorkspaceSize(tx.t, a1, -1, false, ty.t, ty.t, &ws, &e), NN_INVALID,
           "correction -1 is negative");
    CK_ERR(aclnnStdMeanCorrectionGetWorkspaceSize(tx.t, a1, 4, false, ty.t, ty.t, &ws, &e), NN_INVALID,
           "correction 4 leaves no divisor for 4 reduced elements");
    CK_ERR(aclnnStdMeanCorrectionGetWorkspaceSize(tx.t, a1, 1, false, tk.t, tk.t, &ws, &e), NN_INVALID,
           "stdOut has shape [2,1]; the reduction of self gives [2]");
    CK_ERR(aclnnStdMeanCorrectionGetWorkspaceSize(tx.t, a1, 1, false, ty.t, NULL, &ws, &e), NN_NULLPTR, "meanOut");
    CK_ERR(aclnnReduceLogSumGetWorkspaceSize(tx.t, a0, false, true, ty.t, &ws, &e), NN_INVALID,
           "noopWithEmptyAxes with no axes is a copy");
    CK_ERR(aclnnReduceLogSumGetWorkspaceSize(tx.t, a1, true, false, ty.t, &ws, &e), NN_INVALID,
           "reduce has shape [2]; the reduction of self with keepdim gives [2,1]");
    CK_ERR(aclnnReduceNansumGetWorkspaceSize(tx.t, NULL, false, ACL_FLOAT, ty.t, &ws, &e), NN_NULLPTR, "dim is NULL");
    CK_ERR(aclnnReduceNansumGetWorkspaceSize(tx.t, a1, false, ACL_FLOAT16, ty.t, &ws, &e), NN_INVALID,
           "dtype is ACL_FLOAT16 but out has ACL_FLOAT");
    CK_OK(aclDestroyIntArray(a1));
    CK_OK(aclDestroyIntArray(a0));
    nnt_rm(&tx);
    nnt_rm(&ty);
    nnt_rm(&tk);
    nnt_rm(&th);
}
END_TEST

/* The backward forms on [5, 37] fp32 (a partial last repeat): loop index = API * 3 + reduction, odd
 * indices on the 310. */
START_TEST(test_aclnn_norm2_loss_backward)
{
    const int api = _i / 3, red = _i % 3;
    nnt_setup_profile(_i % 2 ? "ascend310" : NULL);
    const int64_t d[] = {5, 37}, n = 185;
    const float beta = 0.7f;
    float g[185], x[185], t[185], z[185];
    double want[185];
    nnt_fill(g, n, 111 + (unsigned)_i, -2, 2);
    nnt_fill(x, n, 121 + (unsigned)_i, -2, 2);
    nnt_fill(t, n, 131 + (unsigned)_i, -2, 2);
    x[0] = t[0]; /* l1: sign(0) is 0 */
    for (int64_t i = 0; i < n; i++) {
        const double dd = (double)x[i] - t[i], s = red == 1 ? 1.0 / (double)n : 1.0;
        const double f = api == 0 ? (dd > 0) - (dd < 0)
                       : api == 1 ? 2 * dd
                       : api == 2 ? fmin(fmax(dd / beta, -1), 1)
                                  : -t[i] / (1 + exp((double)x[i] * t[i]));
        want[i] = g[i] * f * s;
    }
    nnt_dt_t tg = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, g), tx = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, x);
    nnt_dt_t tt = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, t), tz = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    switch (api) {
    case 0:
        CK_OK(aclnnL1LossBackwardGetWorkspaceSize(tg.t, tx.t, tt.t, red, tz.t, &ws, &e));
        RUN(aclnnL1LossBackward(NULL, ws, e, nnt_stream));
        break;
    case 1:
        CK_OK(aclnnMseLossBackwardGetWorkspaceSize(tg.t, tx.t, tt.t, red, tz.t, &ws, &e));
        RUN(aclnnMseLossBackward(NULL, ws, e, nnt_stream));
        break;
    case 2:
        CK_OK(aclnnSmoothL1LossBackwardGetWorkspaceSize(tg.t, tx.t, tt.t, red, beta, tz.t, &ws, &e));
        RUN(aclnnSmoothL1LossBackward(NULL, ws, e, nnt_stream));
        break;
    default:
        CK_OK(aclnnSoftMarginLossBackwardGetWorkspaceSize(tg.t, tx.t, tt.t, red, tz.t, &ws, &e));
        RUN(aclnnSoftMarginLossBackward(NULL, ws, e, nnt_stream));
    }
    nnt_rd(&tz, z);
    nnt_ck_close("loss backward", z, want, n, 1e-6, 1e-5);
    nnt_rm(&tg);
    nnt_rm(&tx);
    nnt_rm(&tt);
    nnt_rm(&tz);
}
END_TEST

START_TEST(test_aclnn_norm2_loss_backward_errors)
{
    const int64_t d[] = {2, 4}, one = 1;
    nnt_dt_t tx = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), ty = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t tg1 = nnt_mk(&one, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL), th = nnt_mk(d, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnMseLossBackwardGetWorkspaceSize(tx.t, tx.t, tx.t, 1, ty.t, &ws, &e));
    { /* torch's one-element gradOutput of a mean, broadcast by an expand kernel into the workspace */
        float x[8], t[8], z[8], g = 1.5f;
        double want[8];
        nnt_fill(x, 8, 431, -2, 2);
        nnt_fill(t, 8, 441, -2, 2);
        for (int i = 0; i < 8; i++)
            want[i] = 2.0 * ((double)x[i] - t[i]) * g / 8;
        nnt_dt_t ax = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, x), at = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, t);
        nnt_dt_t ag = nnt_mk(&one, 1, ACL_FLOAT, ACL_FORMAT_ND, &g);
        void *wsp = NULL;
        CK_OK(aclnnMseLossBackwardGetWorkspaceSize(ag.t, ax.t, at.t, 1, ty.t, &ws, &e));
        ck_assert(ws > 0);
        CK_OK(aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST));
        RUN(aclnnMseLossBackward(wsp, ws, e, nnt_stream));
        CK_OK(aclrtFree(wsp));
        nnt_rd(&ty, z);
        nnt_ck_close("mse backward, one-element gradOutput", z, want, 8, 1e-6, 1e-5);
        const int64_t d3[] = {3};
        nnt_dt_t a3 = nnt_mk(d3, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        CK_ERR(aclnnMseLossBackwardGetWorkspaceSize(a3.t, ax.t, at.t, 1, ty.t, &ws, &e), NN_INVALID, "gradOutput");
        nnt_rm(&a3);
        nnt_rm(&ax);
        nnt_rm(&at);
        nnt_rm(&ag);
    }
    CK_ERR(aclnnL1LossBackwardGetWorkspaceSize(tx.t, tx.t, tx.t, 3, ty.t, &ws, &e), NN_INVALID,
           "reduction is 3; it is 0 (none), 1 (mean) or 2 (sum)");
    CK_ERR(aclnnSmoothL1LossBackwardGetWorkspaceSize(tx.t, tx.t, tx.t, 0, 0.0f, ty.t, &ws, &e), NN_INVALID,
           "beta is 0; dvsim's smooth L1 loss takes beta > 0");
    CK_ERR(aclnnSoftMarginLossBackwardGetWorkspaceSize(tx.t, tx.t, tx.t, 0, th.t, &ws, &e), NN_INVALID, "out");
    CK_ERR(aclnnL1LossBackwardGetWorkspaceSize(tx.t, tx.t, NULL, 0, ty.t, &ws, &e), NN_NULLPTR, "target");
    nnt_rm(&tx);
    nnt_rm(&ty);
    nnt_rm(&tg1);
    nnt_rm(&th);
}
END_TEST

/* BinaryCrossEntropy (forward) and its backward on [5, 37]: loop index = reduction * 2 + weighted;
 * odd indices on the 310.  self[1] is 0 and target[1] 0.5: ln 0 clamps to -100. */
START_TEST(test_aclnn_norm2_bce)
{
    const int red = _i / 2;
    const bool weighted = _i % 2;
    nnt_setup_profile(_i % 2 ? "ascend310" : NULL);
    const int64_t d[] = {5, 37}, n = 185, one = 1;
    float g[185], x[185], t[185], w[185], z[185];
    double want[185], sum = 0;
    nnt_fill(g, n, 161 + (unsigned)_i, -2, 2);
    nnt_fill(x, n, 171 + (unsigned)_i, 0.02f, 0.98f);
    nnt_fill(t, n, 181 + (unsigned)_i, 0, 1);
    nnt_fill(w, n, 191 + (unsigned)_i, 0, 2);
    x[1] = 0;
    t[1] = 0.5f;
    for (int64_t i = 0; i < n; i++) {
        const double wi = weighted ? w[i] : 1;
        const double l = -wi * (t[i] * fmax(log((double)x[i]), -100) + (1 - t[i]) * fmax(log(1 - (double)x[i]), -100));
        sum += l;
        want[i] = l;
    }
    nnt_dt_t tx = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, x), tt = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, t);
    nnt_dt_t tw = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, w), tg = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, g);
    nnt_dt_t tz = red ? nnt_mk(&one, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL) : nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t tgi = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnBinaryCrossEntropyGetWorkspaceSize(tx.t, tt.t, weighted ? tw.t : NULL, red, tz.t, &ws, &e));
    RUN(aclnnBinaryCrossEntropy(NULL, ws, e, nnt_stream));
    nnt_rd(&tz, z);
    if (red)
        want[0] = red == 1 ? sum / (double)n : sum;
    nnt_ck_close("binary cross entropy", z, want, red ? 1 : n, 1e-5, 1e-5);
    x[1] = 0.25f; /* the backward's clamp of x (1 - x) is not reached */
    nnt_rm(&tx);
    tx = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, x);
    for (int64_t i = 0; i < n; i++)
        want[i] = g[i] * (weighted ? w[i] : 1) * ((double)x[i] - t[i]) / fmax((double)x[i] * (1 - (double)x[i]), 1e-12) /
                  (red == 1 ? (double)n : 1);
    CK_OK(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(tg.t, tx.t, tt.t, weighted ? tw.t : NULL, red, tgi.t, &ws,
                                                          &e));
    RUN(aclnnBinaryCrossEntropyBackward(NULL, ws, e, nnt_stream));
    nnt_rd(&tgi, z);
    nnt_ck_close("binary cross entropy backward", z, want, n, 1e-5, 1e-5);
    const int64_t bd[] = {185};
    nnt_dt_t tb = nnt_mk(bd, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnBinaryCrossEntropyGetWorkspaceSize(tx.t, tt.t, tb.t, red, tz.t, &ws, &e), NN_INVALID, "weight");
    nnt_rm(&tb);
    if (weighted && red == 0) { /* a weight of [37] broadcasts over the 5 rows */
        const int64_t wd[] = {37};
        nnt_dt_t tw1 = nnt_mk(wd, 1, ACL_FLOAT, ACL_FORMAT_ND, w);
        x[1] = 0.25f;
        for (int64_t i = 0; i < n; i++)
            want[i] = -w[i % 37] * (t[i] * fmax(log((double)x[i]), -100) + (1 - t[i]) * fmax(log(1 - (double)x[i]), -100));
        void *wsp = NULL;
        CK_OK(aclnnBinaryCrossEntropyGetWorkspaceSize(tx.t, tt.t, tw1.t, 0, tz.t, &ws, &e));
        ck_assert(ws > 0); /* the weight's expand kernel writes into the workspace */
        CK_OK(aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST));
        RUN(aclnnBinaryCrossEntropy(wsp, ws, e, nnt_stream));
        CK_OK(aclrtFree(wsp));
        nnt_rd(&tz, z);
        nnt_ck_close("binary cross entropy, weight broadcast", z, want, n, 1e-5, 1e-5);
        nnt_rm(&tw1);
    }
    nnt_rm(&tx);
    nnt_rm(&tt);
    nnt_rm(&tw);
    nnt_rm(&tg);
    nnt_rm(&tz);
    nnt_rm(&tgi);
}
END_TEST

/* BinaryCrossEntropyWithLogits and its backward on [5, 37]: loop index 0 none with weight and posWeight,
 * 1 mean with posWeight, 2 sum with weight, 3 none with neither; odd indices on the 310. */
START_TEST(test_aclnn_norm2_bce_with_logits)
{
    const int red = _i == 3 ? 0 : _i;
    const bool hw = _i == 0 || _i == 2, hp = _i <= 1;
    nnt_setup_profile(_i % 2 ? "ascend310" : NULL);
    const int64_t d[] = {5, 37}, n = 185, one = 1;
    float g[185], x[185], t[185], w[185], pw[185], z[185];
    double want[185], sum = 0;
    nnt_fill(g, n, 201 + (unsigned)_i, -2, 2);
    nnt_fill(x, n, 211 + (unsigned)_i, -6, 6);
    nnt_fill(t, n, 221 + (unsigned)_i, 0, 1);
    nnt_fill(w, n, 231 + (unsigned)_i, 0, 2);
    nnt_fill(pw, n, 241 + (unsigned)_i, 0.5f, 3);
    for (int64_t i = 0; i < n; i++) {
        const double wi = hw ? w[i] : 1, p = hp ? pw[i] : 1, c = 1 + (p - 1) * t[i];
        const double l = wi * ((1 - t[i]) * x[i] + c * (log1p(exp(-fabs((double)x[i]))) + fmax(-(double)x[i], 0)));
        sum += l;
        want[i] = l;
    }
    nnt_dt_t tx = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, x), tt = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, t);
    nnt_dt_t tw = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, w), tp = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, pw);
    nnt_dt_t tg = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, g), tgi = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t tz = red ? nnt_mk(&one, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL) : nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(tx.t, tt.t, hw ? tw.t : NULL, hp ? tp.t : NULL, red, tz.t,
                                                            &ws, &e));
    RUN(aclnnBinaryCrossEntropyWithLogits(NULL, ws, e, nnt_stream));
    nnt_rd(&tz, z);
    if (red)
        want[0] = red == 1 ? sum / (double)n : sum;
    nnt_ck_close("bce with logits", z, want, red ? 1 : n, 1e-5, 1e-5);
    for (int64_t i = 0; i < n; i++) {
        const double wi = hw ? w[i] : 1, p = hp ? pw[i] : 1, c = 1 + (p - 1) * t[i];
        want[i] = g[i] * wi * (c / (1 + exp(-(double)x[i])) - p * t[i]) / (red == 1 ? (double)n : 1);
    }
    CK_OK(aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(tg.t, tx.t, tt.t, hw ? tw.t : NULL,
                                                                    hp ? tp.t : NULL, red, tgi.t, &ws, &e));
    RUN(aclnnBinaryCrossEntropyWithLogitsBackward(NULL, ws, e, nnt_stream));
    nnt_rd(&tgi, z);
    nnt_ck_close("bce with logits backward", z, want, n, 1e-5, 1e-4);
    const int64_t bd[] = {185};
    nnt_dt_t tb = nnt_mk(bd, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(tx.t, tt.t, NULL, tb.t, red, tz.t, &ws, &e), NN_INVALID,
           "posWeight");
    nnt_rm(&tb);
    nnt_rm(&tx);
    nnt_rm(&tt);
    nnt_rm(&tw);
    nnt_rm(&tp);
    nnt_rm(&tg);
    nnt_rm(&tgi);
    nnt_rm(&tz);
}
END_TEST

/* KlDivBackward and KlDivTargetBackward on [5, 37]: loop index = reduction * 2 + logTarget; odd on the 310. */
START_TEST(test_aclnn_norm2_kl_div_backward)
{
    const int red = _i / 2;
    const bool lt = _i % 2;
    nnt_setup_profile(_i % 2 ? "ascend310" : NULL);
    const int64_t d[] = {5, 37}, n = 185;
    float g[185], x[185], t[185], z[185];
    double want[185];
    nnt_fill(g, n, 251 + (unsigned)_i, -2, 2);
    nnt_fill(x, n, 261 + (unsigned)_i, -3, 0);
    nnt_fill(t, n, 271 + (unsigned)_i, lt ? -3 : 0, lt ? 0 : 1);
    if (!lt) {
        t[2] = 0;
        t[100] = -0.5f;
    }
    const double s = red == 1 ? 1.0 / (double)n : red == 3 ? 1.0 / 5 : 1.0;
    nnt_dt_t tg = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, g), tx = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, x);
    nnt_dt_t tt = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, t), tz = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    for (int64_t i = 0; i < n; i++)
        want[i] = -g[i] * (lt ? exp((double)t[i]) : t[i]) * s;
    CK_OK(aclnnKlDivBackwardGetWorkspaceSize(tg.t, tx.t, tt.t, red, lt, tz.t, &ws, &e));
    RUN(aclnnKlDivBackward(NULL, ws, e, nnt_stream));
    nnt_rd(&tz, z);
    nnt_ck_close("kl div backward", z, want, n, 1e-6, 1e-5);
    for (int64_t i = 0; i < n; i++)
        want[i] = g[i] * s *
                  (lt ? exp((double)t[i]) * (t[i] + 1 - (double)x[i]) : t[i] > 0 ? log((double)t[i]) + 1 - x[i] : 0);
    CK_OK(aclnnKlDivTargetBackwardGetWorkspaceSize(tg.t, tx.t, tt.t, red, lt, tz.t, &ws, &e));
    RUN(aclnnKlDivTargetBackward(NULL, ws, e, nnt_stream));
    nnt_rd(&tz, z);
    nnt_ck_close("kl div target backward", z, want, n, 1e-5, 1e-4);
    if (!lt)
        ck_assert_msg(z[2] == 0 && z[100] == 0, "the gradient at targets 0 and -0.5: %g, %g", z[2], z[100]);
    CK_ERR(aclnnKlDivBackwardGetWorkspaceSize(tg.t, tx.t, tt.t, 4, lt, tz.t, &ws, &e), NN_INVALID,
           "reduction is 4; it is 0 (none), 1 (mean), 2 (sum) or 3 (batchmean)");
    nnt_rm(&tg);
    nnt_rm(&tx);
    nnt_rm(&tt);
    nnt_rm(&tz);
}
END_TEST

/* BatchNormElemt: loop index 0 the official example's [2, 4, 2] without weight and bias, 1 [3, 5, 7, 9]
 * with both, 2 [6, 3] with the weight alone, 3 [2, 3, 100] with the bias alone; odd on the 310. */
START_TEST(test_aclnn_norm2_batch_norm_elemt)
{
    nnt_setup_profile(_i % 2 ? "ascend310" : NULL);
    static const int64_t shapes[4][4] = {{2, 4, 2}, {3, 5, 7, 9}, {6, 3}, {2, 3, 100}};
    static const int nds[4] = {3, 4, 2, 3};
    const int nd = nds[_i];
    const int64_t *d = shapes[_i], C = d[1], n = nnt_numel(d, nd);
    const bool hw = _i == 1 || _i == 2, hb = _i == 1 || _i == 3;
    float *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y), m[8], is[8], w[8], b[8];
    double *want = malloc((size_t)n * sizeof *want);
    nnt_fill(x, n, 281 + (unsigned)_i, -3, 3);
    nnt_fill(m, C, 291 + (unsigned)_i, -1, 1);
    nnt_fill(is, C, 301 + (unsigned)_i, 0.5f, 2);
    nnt_fill(w, C, 311 + (unsigned)_i, -2, 2);
    nnt_fill(b, C, 321 + (unsigned)_i, -2, 2);
    const int64_t S = n / d[0] / C;
    for (int64_t i = 0; i < n; i++) {
        const int64_t c = i / S % C;
        want[i] = ((double)x[i] - m[c]) * is[c] * (hw ? w[c] : 1) + (hb ? b[c] : 0);
    }
    nnt_dt_t tx = nnt_mk(d, nd, ACL_FLOAT, ACL_FORMAT_ND, x), ty = nnt_mk(d, nd, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t tm = nnt_mk(&C, 1, ACL_FLOAT, ACL_FORMAT_ND, m), ti = nnt_mk(&C, 1, ACL_FLOAT, ACL_FORMAT_ND, is);
    nnt_dt_t tw = nnt_mk(&C, 1, ACL_FLOAT, ACL_FORMAT_ND, w), tb = nnt_mk(&C, 1, ACL_FLOAT, ACL_FORMAT_ND, b);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnBatchNormElemtGetWorkspaceSize(tx.t, hw ? tw.t : NULL, hb ? tb.t : NULL, tm.t, ti.t, 1e-5, ty.t, &ws, &e));
    RUN(aclnnBatchNormElemt(NULL, ws, e, nnt_stream));
    nnt_rd(&ty, y);
    nnt_ck_close("batch norm elemt", y, want, n, 1e-5, 1e-5);
    const int64_t C1 = C + 1;
    nnt_dt_t tbad = nnt_mk(&C1, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL), th = nnt_mk(&C, 1, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnBatchNormElemtGetWorkspaceSize(tx.t, NULL, NULL, tbad.t, ti.t, 1e-5, ty.t, &ws, &e), NN_INVALID,
           "mean must be 1-D of the");
    CK_ERR(aclnnBatchNormElemtGetWorkspaceSize(tx.t, NULL, NULL, tm.t, th.t, 1e-5, ty.t, &ws, &e), NN_INVALID,
           "invstd has dtype ACL_FLOAT16; dvsim's batchnorm_elemt takes ACL_FLOAT");
    CK_ERR(aclnnBatchNormElemtGetWorkspaceSize(tm.t, NULL, NULL, tm.t, ti.t, 1e-5, tm.t, &ws, &e), NN_INVALID,
           "input has 1 dimensions; it is N x C x ... (2 to 8)");
    nnt_rm(&tbad);
    nnt_rm(&th);
    nnt_rm(&tx);
    nnt_rm(&ty);
    nnt_rm(&tm);
    nnt_rm(&ti);
    nnt_rm(&tw);
    nnt_rm(&tb);
    free(x);
    free(y);
    free(want);
}
END_TEST

/* BatchNormStats: loop index 0 the official example's [2, 3], 1 [3, 5, 7, 9], 2 fp16 [4, 6, 10]; odd on
 * the 310.  mean and invstd = 1 / sqrt(biased var + eps) per channel, against plain C. */
START_TEST(test_aclnn_norm2_batch_norm_stats)
{
    nnt_setup_profile(_i % 2 ? "ascend310" : NULL);
    static const int64_t shapes[3][4] = {{2, 3}, {3, 5, 7, 9}, {4, 6, 10}};
    static const int nds[3] = {2, 4, 3};
    const int nd = nds[_i];
    const int64_t *d = shapes[_i], C = d[1], n = nnt_numel(d, nd), S = n / d[0] / C;
    const bool half = _i == 2;
    const double eps = 1e-3;
    float *x = malloc((size_t)n * sizeof *x), m[8], is[8];
    uint16_t *h = malloc((size_t)n * sizeof *h);
    double wm[8], wi[8];
    nnt_fill(x, n, 331 + (unsigned)_i, -3, 3);
    if (half) {
        for (int64_t i = 0; i < n; i++)
            x[i] = nnt_f16r(x[i]);
        nnt_to_f16(x, h, n);
    }
    for (int64_t c = 0; c < C; c++) {
        double s = 0, q = 0;
        for (int64_t b = 0; b < d[0]; b++)
            for (int64_t i = 0; i < S; i++)
                s += x[(b * C + c) * S + i];
        wm[c] = s / (double)(n / C);
        for (int64_t b = 0; b < d[0]; b++)
            for (int64_t i = 0; i < S; i++)
                q += (x[(b * C + c) * S + i] - wm[c]) * (x[(b * C + c) * S + i] - wm[c]);
        wi[c] = 1 / sqrt(q / (double)(n / C) + eps);
    }
    nnt_dt_t tx = nnt_mk(d, nd, half ? ACL_FLOAT16 : ACL_FLOAT, ACL_FORMAT_ND, half ? (const void *)h : x);
    nnt_dt_t tm = nnt_mk(&C, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL), ti = nnt_mk(&C, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnBatchNormStatsGetWorkspaceSize(tx.t, eps, tm.t, ti.t, &ws, &e));
    RUN(aclnnBatchNormStats(NULL, ws, e, nnt_stream));
    nnt_rd(&tm, m);
    nnt_rd(&ti, is);
    nnt_ck_close("batch norm stats mean", m, wm, C, 1e-5, 1e-5);
    nnt_ck_close("batch norm stats invstd", is, wi, C, 1e-5, 1e-4);
    nnt_dt_t th = nnt_mk(&C, 1, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnBatchNormStatsGetWorkspaceSize(tx.t, eps, tm.t, th.t, &ws, &e), NN_INVALID,
           "invstd has dtype ACL_FLOAT16; it is ACL_FLOAT");
    CK_ERR(aclnnBatchNormStatsGetWorkspaceSize(tm.t, eps, tm.t, ti.t, &ws, &e), NN_INVALID,
           "input has 1 dimensions; it is N x C x ...");
    nnt_rm(&th);
    nnt_rm(&tx);
    nnt_rm(&tm);
    nnt_rm(&ti);
    free(x);
    free(h);
}
END_TEST

/* BatchNormReduce: loop index 0 NCHW [1, 2, 3, 4] (the official example's), 1 [4, 3, 50] on the 310. */
START_TEST(test_aclnn_norm2_batch_norm_reduce)
{
    nnt_setup_profile(_i % 2 ? "ascend310" : NULL);
    static const int64_t shapes[2][4] = {{1, 2, 3, 4}, {4, 3, 50}};
    const int nd = _i ? 3 : 4;
    const int64_t *d = shapes[_i], C = d[1], n = nnt_numel(d, nd), S = n / d[0] / C;
    float x[600], su[4], sq[4];
    double ws_[4] = {0, 0, 0, 0}, wq[4] = {0, 0, 0, 0};
    nnt_fill(x, n, 341 + (unsigned)_i, -3, 3);
    for (int64_t i = 0; i < n; i++) {
        ws_[i / S % C] += x[i];
        wq[i / S % C] += (double)x[i] * x[i];
    }
    nnt_dt_t tx = nnt_mk(d, nd, ACL_FLOAT, _i ? ACL_FORMAT_ND : ACL_FORMAT_NCHW, x);
    nnt_dt_t ts = nnt_mk(&C, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL), tq = nnt_mk(&C, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnBatchNormReduceGetWorkspaceSize(tx.t, ts.t, tq.t, &ws, &e));
    RUN(aclnnBatchNormReduce(NULL, ws, e, nnt_stream));
    nnt_rd(&ts, su);
    nnt_rd(&tq, sq);
    nnt_ck_close("batch norm reduce sum", su, ws_, C, 1e-5, 1e-5);
    nnt_ck_close("batch norm reduce square sum", sq, wq, C, 1e-5, 1e-5);
    CK_ERR(aclnnBatchNormReduceGetWorkspaceSize(tx.t, ts.t, NULL, &ws, &e), NN_NULLPTR, "squareSum is NULL");
    nnt_rm(&tx);
    nnt_rm(&ts);
    nnt_rm(&tq);
}
END_TEST

/* SyncBatchNormGatherStats: loop index 0 the official example's 1 x 2 with int32 counts, 1 3 x 70 with
 * fp32 counts on the 310. */
START_TEST(test_aclnn_norm2_sync_bn_gather_stats)
{
    nnt_setup_profile(_i % 2 ? "ascend310" : NULL);
    const int64_t D = _i ? 3 : 1, C = _i ? 70 : 2, dc[] = {D, C};
    const float momentum = 0.1f, eps = 1e-5f;
    float s[210], q[210], rm[70], rv[70], fc[3], bm[70], bi[70], rm2[70], rv2[70];
    int32_t ic[3];
    double wbm[70], wbi[70], wrm[70], wrv[70], n = 0;
    nnt_fill(s, D * C, 351 + (unsigned)_i, -1, 1);
    nnt_fill(q, D * C, 361 + (unsigned)_i, 4, 8);
    nnt_fill(rm, C, 371 + (unsigned)_i, -1, 1);
    nnt_fill(rv, C, 381 + (unsigned)_i, 0.5f, 1.5f);
    for (int64_t d = 0; d < D; d++) {
        ic[d] = (int32_t)(2 + 3 * d);
        fc[d] = (float)ic[d];
        n += ic[d];
    }
    for (int64_t c = 0; c < C; c++) {
        double ss = 0, qq = 0;
        for (int64_t d = 0; d < D; d++) {
            ss += s[d * C + c];
            qq += q[d * C + c];
        }
        const double m = ss / n, v = qq / n - m * m;
        wbm[c] = m;
        wbi[c] = 1 / sqrt(v + eps);
        wrm[c] = (1 - momentum) * rm[c] + momentum * m;
        wrv[c] = (1 - momentum) * rv[c] + momentum * v * n / (n - 1);
    }
    nnt_dt_t ts = nnt_mk(dc, 2, ACL_FLOAT, ACL_FORMAT_ND, s), tq = nnt_mk(dc, 2, ACL_FLOAT, ACL_FORMAT_ND, q);
    nnt_dt_t tc = _i ? nnt_mk(&D, 1, ACL_FLOAT, ACL_FORMAT_ND, fc) : nnt_mk(&D, 1, ACL_INT32, ACL_FORMAT_ND, ic);
    nnt_dt_t trm = nnt_mk(&C, 1, ACL_FLOAT, ACL_FORMAT_ND, rm), trv = nnt_mk(&C, 1, ACL_FLOAT, ACL_FORMAT_ND, rv);
    nnt_dt_t tbm = nnt_mk(&C, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL), tbi = nnt_mk(&C, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnSyncBatchNormGatherStatsGetWorkspaceSize(ts.t, tq.t, tc.t, trm.t, trv.t, momentum, eps, tbm.t, tbi.t,
                                                        &ws, &e));
    RUN(aclnnSyncBatchNormGatherStats(NULL, ws, e, nnt_stream));
    nnt_rd(&tbm, bm);
    nnt_rd(&tbi, bi);
    nnt_rd(&trm, rm2);
    nnt_rd(&trv, rv2);
    nnt_ck_close("batch mean", bm, wbm, C, 1e-6, 1e-5);
    nnt_ck_close("batch invstd", bi, wbi, C, 1e-6, 1e-5);
    nnt_ck_close("running mean", rm2, wrm, C, 1e-6, 1e-5);
    nnt_ck_close("running var", rv2, wrv, C, 1e-6, 1e-5);
    CK_ERR(aclnnSyncBatchNormGatherStatsGetWorkspaceSize(ts.t, tq.t, trm.t, trm.t, trv.t, momentum, eps, tbm.t, tbi.t,
                                                        &ws, &e), NN_INVALID, "sampleCount must be 1-D of the");
    CK_ERR(aclnnSyncBatchNormGatherStatsGetWorkspaceSize(ts.t, tq.t, tc.t, trm.t, ts.t, momentum, eps, tbm.t, tbi.t,
                                                        &ws, &e), NN_INVALID, "variance must be 1-D of the");
    CK_ERR(aclnnSyncBatchNormGatherStatsGetWorkspaceSize(ts.t, tq.t, tc.t, trm.t, trv.t, 2.0f, eps, tbm.t, tbi.t, &ws,
                                                        &e), NN_INVALID, "momentum 2 and eps");
    nnt_rm(&ts);
    nnt_rm(&tq);
    nnt_rm(&tc);
    nnt_rm(&trm);
    nnt_rm(&trv);
    nnt_rm(&tbm);
    nnt_rm(&tbi);
}
END_TEST

/* BatchNormGatherStatsWithCounts: 4 devices x 4 channels (the official example's shapes), fp32 counts;
 * loop index 1 on the 310 with 3 x 70. */
START_TEST(test_aclnn_norm2_bn_gather_with_counts)
{
    nnt_setup_profile(_i % 2 ? "ascend310" : NULL);
    const int64_t D = _i ? 3 : 4, C = _i ? 70 : 4, dc[] = {D, C}, in[] = {2, C, 2};
    const double momentum = 0.01, eps = 1e-4;
    float m[210], is[210], rm[70], rv[70], cnt[4], bm[70], bi[70], rm2[70], rv2[70];
    double wbm[70], wbi[70], wrm[70], wrv[70], n = 0;
    nnt_fill(m, D * C, 391 + (unsigned)_i, -1, 1);
    nnt_fill(is, D * C, 401 + (unsigned)_i, 0.5f, 2);
    nnt_fill(rm, C, 411 + (unsigned)_i, -1, 1);
    nnt_fill(rv, C, 421 + (unsigned)_i, 0.5f, 1.5f);
    for (int64_t d = 0; d < D; d++)
        n += cnt[d] = (float)(d + 2);
    for (int64_t c = 0; c < C; c++) {
        double ss = 0, qq = 0;
        for (int64_t d = 0; d < D; d++) {
            ss += (double)m[d * C + c] * cnt[d];
            qq += (1 / ((double)is[d * C + c] * is[d * C + c]) - eps + (double)m[d * C + c] * m[d * C + c]) * cnt[d];
        }
        const double mm = ss / n, v = qq / n - mm * mm;
        wbm[c] = mm;
        wbi[c] = 1 / sqrt(v + eps);
        wrm[c] = (1 - momentum) * rm[c] + momentum * mm;
        wrv[c] = (1 - momentum) * rv[c] + momentum * v * n / (n - 1);
    }
    nnt_dt_t tin = nnt_mk(in, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t tm = nnt_mk(dc, 2, ACL_FLOAT, ACL_FORMAT_ND, m), ti = nnt_mk(dc, 2, ACL_FLOAT, ACL_FORMAT_ND, is);
    nnt_dt_t tc = nnt_mk(&D, 1, ACL_FLOAT, ACL_FORMAT_ND, cnt);
    nnt_dt_t trm = nnt_mk(&C, 1, ACL_FLOAT, ACL_FORMAT_ND, rm), trv = nnt_mk(&C, 1, ACL_FLOAT, ACL_FORMAT_ND, rv);
    nnt_dt_t tbm = nnt_mk(&C, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL), tbi = nnt_mk(&C, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnBatchNormGatherStatsWithCountsGetWorkspaceSize(tin.t, tm.t, ti.t, trm.t, trv.t, momentum, eps, tc.t,
                                                              tbm.t, tbi.t, &ws, &e));
    RUN(aclnnBatchNormGatherStatsWithCounts(NULL, ws, e, nnt_stream));
    nnt_rd(&tbm, bm);
    nnt_rd(&tbi, bi);
    nnt_rd(&trm, rm2);
    nnt_rd(&trv, rv2);
    nnt_ck_close("mean all", bm, wbm, C, 1e-6, 1e-5);
    nnt_ck_close("invstd all", bi, wbi, C, 1e-6, 1e-4);
    nnt_ck_close("running mean", rm2, wrm, C, 1e-6, 1e-5);
    nnt_ck_close("running var", rv2, wrv, C, 1e-6, 1e-4);
    CK_ERR(aclnnBatchNormGatherStatsWithCountsGetWorkspaceSize(tin.t, tm.t, ti.t, NULL, trv.t, momentum, eps, tc.t,
                                                              tbm.t, tbi.t, &ws, &e), NN_INVALID,
           "runningMean is NULL: dvsim updates the running statistics");
    nnt_rm(&tin);
    nnt_rm(&tm);
    nnt_rm(&ti);
    nnt_rm(&tc);
    nnt_rm(&trm);
    nnt_rm(&trv);
    nnt_rm(&tbm);
    nnt_rm(&tbi);
}
END_TEST

/* SoftmaxBackward (loop index 0, 1) and LogSoftmaxBackward (2, 3) along each axis, odd indices on the
 * 310; output is the forward's (a softmax, or its log) of random logits. */
START_TEST(test_aclnn_norm2_softmax_backward)
{
    const bool lsm = _i >= 2;
    nnt_setup_profile(_i % 2 ? "ascend310" : NULL);
    const int64_t d[] = {3, 4, 5}, n = 60;
    float g[60], x[60], y[60], z[60];
    double want[60];
    nnt_fill(g, n, 141 + (unsigned)_i, -2, 2);
    nnt_fill(x, n, 151 + (unsigned)_i, -2, 2);
    nnt_dt_t tg = nnt_mk(d, 3, ACL_FLOAT, ACL_FORMAT_ND, g), tz = nnt_mk(d, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    for (int ax = 0; ax < 3; ax++) {
        const int64_t outer = ax == 0 ? 1 : ax == 1 ? 3 : 12, len = d[ax], inner = n / outer / len;
        for (int64_t o = 0; o < outer; o++) /* y: the forward along ax */
            for (int64_t c = 0; c < inner; c++) {
                double s = 0;
                for (int64_t r = 0; r < len; r++)
                    s += exp(x[(o * len + r) * inner + c]);
                for (int64_t r = 0; r < len; r++) {
                    const int64_t at = (o * len + r) * inner + c;
                    y[at] = lsm ? (float)(x[at] - log(s)) : (float)(exp(x[at]) / s);
                }
            }
        for (int64_t o = 0; o < outer; o++)
            for (int64_t c = 0; c < inner; c++) {
                double s = 0;
                for (int64_t r = 0; r < len; r++) {
                    const int64_t at = (o * len + r) * inner + c;
                    s += lsm ? g[at] : (double)g[at] * y[at];
                }
                for (int64_t r = 0; r < len; r++) {
                    const int64_t at = (o * len + r) * inner + c;
                    want[at] = lsm ? g[at] - exp(y[at]) * s : y[at] * (g[at] - s);
                }
            }
        nnt_dt_t ty = nnt_mk(d, 3, ACL_FLOAT, ACL_FORMAT_ND, y);
        const int64_t dim = ax == 2 ? -1 : ax;
        if (lsm) {
            CK_OK(aclnnLogSoftmaxBackwardGetWorkspaceSize(tg.t, ty.t, dim, tz.t, &ws, &e));
            RUN(aclnnLogSoftmaxBackward(NULL, ws, e, nnt_stream));
        } else {
            CK_OK(aclnnSoftmaxBackwardGetWorkspaceSize(tg.t, ty.t, dim, tz.t, &ws, &e));
            RUN(aclnnSoftmaxBackward(NULL, ws, e, nnt_stream));
        }
        nnt_rd(&tz, z);
        nnt_ck_close(lsm ? "log softmax backward" : "softmax backward", z, want, n, 1e-5, 1e-4);
        nnt_rm(&ty);
    }
    const int64_t d2[] = {3, 20};
    nnt_dt_t tb = nnt_mk(d2, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnSoftmaxBackwardGetWorkspaceSize(tg.t, tz.t, 3, tz.t, &ws, &e), NN_INVALID,
           "dim is 3; output has 3 dimensions (dim in [-3, 2])");
    CK_ERR(aclnnLogSoftmaxBackwardGetWorkspaceSize(tb.t, tz.t, 0, tz.t, &ws, &e), NN_INVALID, "gradOutput");
    nnt_rm(&tb);
    nnt_rm(&tg);
    nnt_rm(&tz);
}
END_TEST

/* The library operators with data and --check: no mismatch, no hazard; shapes with a partial last
 * repeat, more than one run of 252 repeats (nansum's mask), two runs of axes, fp16 in and out. */
static const char *const lib_cmds[] = {
    "reduce_nansum --shape 300x70 --axes 1 --dtype fp32",  "reduce_nansum --shape 5x37 --axes 1 --out-dtype fp32",
    "reduce_nansum --shape 4x6x5x3 --axes 5",               "reduce_logsum --shape 8x100x16 --axes 5",
    "reduce_logsum --shape 6x33 --axes 2 --dtype fp32",     "reduce_var_mean --shape 6x33x9 --axes 2",
    "reduce_var_mean --shape 8x70x33 --axes 3 --sqrt on --correction 0 --dtype fp32",
    "l1_loss_backward --shape 3x333 --reduction 0",        "mse_loss_backward --shape 10000 --dtype fp16",
    "smooth_l1_loss_backward --shape 999 --beta 0.5 --reduction 2",
    "soft_margin_loss_backward --shape 4100 --dtype fp16 --tile-elems 1024",
    "softmax_backward --shape 8x100x16 --dim 1",           "softmax_backward --shape 30x70 --dim 1 --dtype fp32",
    "softmax_backward --shape 3x5x300 --dim 0 --log on",   "softmax_backward --shape 4x2 --dim 0 --dtype fp32 --log on",
    "binary_cross_entropy --shape 3x333 --reduction 0 --weight on", "binary_cross_entropy --shape 10000 --dtype fp16",
    "binary_cross_entropy_backward --shape 10000 --dtype fp16 --weight on",
    "binary_cross_entropy_backward --shape 999 --reduction 1 --dtype fp32",
    "bce_with_logits --shape 4x2 --reduction 0 --weight on --pos-weight on",
    "bce_with_logits --shape 10000 --dtype fp16 --pos-weight on",
    "bce_with_logits_backward --shape 10000 --dtype fp16 --weight on --pos-weight on",
    "bce_with_logits_backward --shape 3x333 --reduction 1 --dtype fp32 --weight on",
    "kl_div_backward --shape 100x33 --reduction 3 --batch 100", "kl_div_backward --shape 10000 --dtype fp16 --log-target on",
    "kl_div_target_backward --shape 3x333 --reduction 1 --dtype fp32", "kl_div_target_backward --shape 10000 --dtype fp16",
    "batchnorm_elemt --shape 2x4x2 --dtype fp32 --weight off --bias off", "batchnorm_elemt --shape 3x5x7000 --bias off",
    "batchnorm_elemt --shape 2x3x37 --dtype fp32",
    "reduce_var_mean --shape 4x8x100 --axes 5 --correction 0 --rstd on --out-dtype fp32",
    "reduce_var_mean --shape 2x3 --axes 1 --correction 0 --rstd on --eps 0.01 --dtype fp32",
    "reduce_sum_square --shape 1x2x3x4 --axes 13 --dtype fp32", "reduce_sum_square --shape 8x100x16 --axes 5",
    "bn_gather_stats --devices 2 --channels 63 --count-dtype fp16",
    "bn_gather_stats --devices 128 --channels 128 --dtype fp16 --count-dtype fp16",
    "bn_gather_stats --devices 3 --channels 70 --from-stats on",
    "bn_gather_stats --devices 64 --channels 100 --dtype fp16 --count-dtype fp16 --from-stats on",
};
#define NLIB (sizeof lib_cmds / sizeof lib_cmds[0])

START_TEST(test_aclnn_norm2_library_check)
{
    const char *profile = _i % 2 ? "ascend310" : NULL, *cmd = lib_cmds[_i / 2];
    dvt_op_t r;
    dvt_op(&r, profile, NULL, cmd, true, true);
    ck_assert_msg(r.rc == DV_OK, "[%s] %s: %s", profile ? profile : "default", cmd, r.err.msg);
    ck_assert_msg(r.check.compared > 0 && r.check.mismatches == 0, "[%s] %s: %llu of %llu mismatch",
                  profile ? profile : "default", cmd, (unsigned long long)r.check.mismatches,
                  (unsigned long long)r.check.compared);
    ck_assert_msg(r.cnt.hazards == 0, "[%s] %s: %llu hazards", profile ? profile : "default", cmd,
                  (unsigned long long)r.cnt.hazards);
    dvt_op_free(&r);
}
END_TEST

/* var_mean's second output is checked too: its m argument is compared (twice the results of var). */
START_TEST(test_aclnn_norm2_var_mean_two_outputs)
{
    dvt_op_t v, vm;
    dvt_op(&v, NULL, NULL, "reduce_var --shape 6x33x9 --axes 2 --dtype fp32", true, true);
    dvt_op(&vm, NULL, NULL, "reduce_var_mean --shape 6x33x9 --axes 2 --dtype fp32", true, true);
    ck_assert_int_eq(v.rc, DV_OK);
    ck_assert_int_eq(vm.rc, DV_OK);
    ck_assert_uint_eq(vm.check.compared, 2 * v.check.compared);
    dvt_op_free(&v);
    dvt_op_free(&vm);
    dvt_op(&vm, NULL, NULL, "reduce_logsum --shape 6x33 --axes 1 --out-dtype fp32", true, true);
    ck_assert_int_ne(vm.rc, DV_OK);
    ck_assert_msg(strstr(vm.err.msg, "out-dtype") != NULL, "%s", vm.err.msg);
    dvt_op_free(&vm);
}
END_TEST

Suite *dv_aclnn_norm2_suite(void)
{
    Suite *s = suite_create("aclnn_norm2");
    TCase *tc = tcase_create("aclnn_norm2");
    tcase_add_checked_fixture(tc, nnt_setup, nnt_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_aclnn_norm2_nansum_fp16);
    tcase_add_test(tc, test_aclnn_norm2_logsum);
    tcase_add_test(tc, test_aclnn_norm2_errors);
    tcase_add_test(tc, test_aclnn_norm2_var_mean_two_outputs);
    tcase_add_test(tc, test_aclnn_norm2_loss_backward_errors);
    suite_add_tcase(s, tc);
    TCase *tp = tcase_create("aclnn_norm2_profiles");
    tcase_add_checked_fixture(tp, NULL, nnt_teardown);
    tcase_set_timeout(tp, 60);
    tcase_add_loop_test(tp, test_aclnn_norm2_nansum, 0, 4);
    tcase_add_loop_test(tp, test_aclnn_norm2_var_mean, 0, 4);
    tcase_add_loop_test(tp, test_aclnn_norm2_loss_backward, 0, 12);
    tcase_add_loop_test(tp, test_aclnn_norm2_softmax_backward, 0, 4);
    tcase_add_loop_test(tp, test_aclnn_norm2_bce, 0, 6);
    tcase_add_loop_test(tp, test_aclnn_norm2_bce_with_logits, 0, 4);
    tcase_add_loop_test(tp, test_aclnn_norm2_kl_div_backward, 0, 8);
    tcase_add_loop_test(tp, test_aclnn_norm2_batch_norm_elemt, 0, 4);
    tcase_add_loop_test(tp, test_aclnn_norm2_batch_norm_stats, 0, 3);
    tcase_add_loop_test(tp, test_aclnn_norm2_batch_norm_reduce, 0, 2);
    tcase_add_loop_test(tp, test_aclnn_norm2_sync_bn_gather_stats, 0, 2);
    tcase_add_loop_test(tp, test_aclnn_norm2_bn_gather_with_counts, 0, 2);
    tcase_add_loop_test(tp, test_aclnn_norm2_library_check, 0, (int)(2 * NLIB));
    suite_add_tcase(s, tp);
    return s;
}
