/* tests/check_aclnn_reduce.c - the aclnn reductions (acl/nnreduce.c onto ops/colnorm.c's reduce_*):
 * every API against a plain-C reduction of the same data, over one axis, a run of axes, two runs
 * (the official Amax / Amin examples' dims 0 and 2), negative dims, keepdim, all axes, fp16 with an
 * fp32 out, on both profiles; and the errors: dims out of range or repeated, three runs, the out
 * shape and dtype, a correction with no divisor, noopWithEmptyAxes. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/nnt.h"

#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_min.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_std.h"
#include "aclnnop/aclnn_var.h"

enum { R_SUM, R_MEAN, R_AMAX, R_AMIN, R_PROD, R_VAR, R_STD, R_LSE, R_KINDS };

/* The plain-C reduction of x [dims] over the axes of mask, into y (the kept axes in order). */
static void reduce_ref(int kind, const float *x, const int64_t *dims, int nd, unsigned mask, int64_t corr, double *y,
                       int64_t *ny)
{
    int64_t n = 1, total = 1, kept = 1;
    for (int d = 0; d < nd; d++) {
        total *= dims[d];
        if (mask >> d & 1)
            n *= dims[d];
        else
            kept *= dims[d];
    }
    *ny = kept;
    double *acc = calloc((size_t)kept, sizeof *acc), *sq = calloc((size_t)kept, sizeof *sq);
    double *mx = calloc((size_t)kept, sizeof *mx);
    for (int64_t i = 0; i < kept; i++)
        acc[i] = kind == R_PROD ? 1 : kind == R_AMAX ? -INFINITY : kind == R_AMIN ? INFINITY : 0, mx[i] = -INFINITY;
    for (int pass = 0; pass < 2; pass++)
        for (int64_t e = 0; e < total; e++) {
            int64_t rem = e, o = 0, stride = 1;
            for (int d = nd - 1; d >= 0; d--) { /* the kept index of e */
                const int64_t id = rem % dims[d];
                rem /= dims[d];
                if (!(mask >> d & 1)) {
                    o += id * stride;
                    stride *= dims[d];
                }
            }
            const double v = x[e];
            if (pass == 0) {
                acc[o] = kind == R_PROD ? acc[o] * v : kind == R_AMAX ? fmax(acc[o], v) : kind == R_AMIN ? fmin(acc[o], v)
                                                                                                       : acc[o] + v;
                mx[o] = fmax(mx[o], v);
            } else if (kind == R_VAR || kind == R_STD) {
                const double d = v - acc[o] / (double)n;
                sq[o] += d * d;
            } else if (kind == R_LSE) {
                sq[o] += exp(v - mx[o]);
            }
        }
    for (int64_t i = 0; i < kept; i++)
        y[i] = kind == R_MEAN ? acc[i] / (double)n
             : kind == R_VAR  ? sq[i] / (double)(n - corr)
             : kind == R_STD  ? sqrt(sq[i] / (double)(n - corr))
             : kind == R_LSE  ? mx[i] + log(sq[i])
                              : acc[i];
    free(acc);
    free(sq);
    free(mx);
}

/* Cases: shape, dims (as the call gives them), keepdim. */
typedef struct rcase {
    int nd;
    int64_t dims[4];
    int ndim;
    int64_t dim[3];
    bool keep;
} rcase_t;
static const rcase_t rcases[] = {
    {2, {4, 2}, 1, {0}, false},           {3, {2, 3, 2}, 2, {0, 2}, true},  {3, {3, 5, 7}, 2, {-2, -1}, false},
    {4, {2, 3, 4, 5}, 2, {1, 2}, true},    {2, {5, 6}, 2, {0, 1}, false},   {3, {6, 33, 9}, 1, {1}, false},
};
#define NCASES (sizeof rcases / sizeof rcases[0])

/* One API on one case: loop index = kind * NCASES + case; odd kinds' cases on the 310. */
START_TEST(test_aclnn_reduce_apis)
{
    const int kind = _i / (int)NCASES;
    const rcase_t *rc = &rcases[_i % (int)NCASES];
    nnt_setup_profile(_i % 2 ? "ascend310" : NULL);
    float x[2048], y[256];
    double want[256];
    int64_t n = nnt_numel(rc->dims, rc->nd), ny;
    nnt_fill(x, n, 40 + (unsigned)_i, kind == R_PROD ? 0.8f : -2, kind == R_PROD ? 1.2f : 2);
    unsigned mask = 0;
    for (int i = 0; i < rc->ndim; i++)
        mask |= 1u << (rc->dim[i] < 0 ? rc->dim[i] + rc->nd : rc->dim[i]);
    reduce_ref(kind, x, rc->dims, rc->nd, mask, 1, want, &ny);
    int64_t od[4];
    int ond = 0;
    for (int d = 0; d < rc->nd; d++)
        if (!(mask >> d & 1))
            od[ond++] = rc->dims[d];
        else if (rc->keep)
            od[ond++] = 1;
    if (ond == 0)
        od[ond++] = 1;
    nnt_dt_t tx = nnt_mk(rc->dims, rc->nd, ACL_FLOAT, ACL_FORMAT_ND, x), ty = nnt_mk(od, ond, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    aclIntArray *dims = aclCreateIntArray(rc->dim, (uint64_t)rc->ndim);
    uint64_t ws;
    aclOpExecutor *e;
    switch (kind) {
    case R_SUM:
        CK_OK(aclnnReduceSumGetWorkspaceSize(tx.t, dims, rc->keep, ACL_FLOAT, ty.t, &ws, &e));
        RUN(aclnnReduceSum(NULL, ws, e, nnt_stream));
        break;
    case R_MEAN:
        CK_OK(aclnnMeanGetWorkspaceSize(tx.t, dims, rc->keep, ACL_FLOAT, ty.t, &ws, &e));
        RUN(aclnnMean(NULL, ws, e, nnt_stream));
        break;
    case R_AMAX:
        CK_OK(aclnnAmaxGetWorkspaceSize(tx.t, dims, rc->keep, ty.t, &ws, &e));
        RUN(aclnnAmax(NULL, ws, e, nnt_stream));
        break;
    case R_AMIN:
        CK_OK(aclnnAminGetWorkspaceSize(tx.t, dims, rc->keep, ty.t, &ws, &e));
        RUN(aclnnAmin(NULL, ws, e, nnt_stream));
        break;
    case R_PROD:
        if (rc->ndim == 1) {
            CK_OK(aclnnProdDimGetWorkspaceSize(tx.t, rc->dim[0], rc->keep, ACL_FLOAT, ty.t, &ws, &e));
            RUN(aclnnProdDim(NULL, ws, e, nnt_stream));
        } else { /* all axes: aclnnProd */
            mask = (1u << rc->nd) - 1;
            reduce_ref(kind, x, rc->dims, rc->nd, mask, 1, want, &ny);
            const int64_t one = 1;
            nnt_rm(&ty);
            ty = nnt_mk(&one, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
            CK_OK(aclnnProdGetWorkspaceSize(tx.t, ACL_FLOAT, ty.t, &ws, &e));
            RUN(aclnnProd(NULL, ws, e, nnt_stream));
        }
        break;
    case R_VAR:
        CK_OK(aclnnVarGetWorkspaceSize(tx.t, dims, true, rc->keep, ty.t, &ws, &e));
        RUN(aclnnVar(NULL, ws, e, nnt_stream));
        break;
    case R_STD:
        CK_OK(aclnnStdGetWorkspaceSize(tx.t, dims, 1, rc->keep, ty.t, &ws, &e));
        RUN(aclnnStd(NULL, ws, e, nnt_stream));
        break;
    default:
        CK_OK(aclnnLogSumExpGetWorkspaceSize(tx.t, dims, rc->keep, ty.t, &ws, &e));
        RUN(aclnnLogSumExp(NULL, ws, e, nnt_stream));
    }
    nnt_rd(&ty, y);
    nnt_ck_close("reduction", y, want, ny, 1e-5, 1e-4);
    CK_OK(aclDestroyIntArray(dims));
    nnt_rm(&tx);
    nnt_rm(&ty);
}
END_TEST

/* The whole-tensor forms (aclnnMax, aclnnMin into one element), MeanV2 over all axes (no dims) and
 * fp16 in with an fp32 sum out. */
START_TEST(test_aclnn_reduce_whole_and_fp16)
{
    const int64_t d[] = {3, 3}, one = 1, two[] = {2, 3};
    float x[9], y, z[3];
    double want[9];
    int64_t ny;
    nnt_fill(x, 9, 51, -3, 3);
    nnt_dt_t tx = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, x), ty = nnt_mk(&one, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnMaxGetWorkspaceSize(tx.t, ty.t, &ws, &e));
    RUN(aclnnMax(NULL, ws, e, nnt_stream));
    nnt_rd(&ty, &y);
    reduce_ref(R_AMAX, x, d, 2, 3, 1, want, &ny);
    ck_assert_msg(y == (float)want[0], "max %g, want %g", y, want[0]);
    CK_OK(aclnnMinGetWorkspaceSize(tx.t, ty.t, &ws, &e));
    RUN(aclnnMin(NULL, ws, e, nnt_stream));
    nnt_rd(&ty, &y);
    reduce_ref(R_AMIN, x, d, 2, 3, 1, want, &ny);
    ck_assert_msg(y == (float)want[0], "min %g, want %g", y, want[0]);
    CK_OK(aclnnMeanV2GetWorkspaceSize(tx.t, NULL, false, false, ty.t, &ws, &e));
    RUN(aclnnMeanV2(NULL, ws, e, nnt_stream));
    nnt_rd(&ty, &y);
    reduce_ref(R_MEAN, x, d, 2, 3, 1, want, &ny);
    nnt_ck_close("meanV2", &y, want, 1, 1e-5, 1e-4);
    /* fp16 [2, 3] summed over dim 0 into fp32 */
    float h[6];
    uint16_t hb[6];
    nnt_fill(h, 6, 52, -2, 2);
    for (int i = 0; i < 6; i++)
        h[i] = nnt_f16r(h[i]);
    nnt_to_f16(h, hb, 6);
    const int64_t three = 3, dim0 = 0;
    nnt_dt_t th = nnt_mk(two, 2, ACL_FLOAT16, ACL_FORMAT_ND, hb), tz = nnt_mk(&three, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    aclIntArray *dims = aclCreateIntArray(&dim0, 1);
    CK_OK(aclnnReduceSumGetWorkspaceSize(th.t, dims, false, ACL_FLOAT, tz.t, &ws, &e));
    RUN(aclnnReduceSum(NULL, ws, e, nnt_stream));
    nnt_rd(&tz, z);
    reduce_ref(R_SUM, h, two, 2, 1, 1, want, &ny);
    nnt_ck_close("fp16 sum", z, want, 3, 1e-6, 1e-6);
    CK_OK(aclDestroyIntArray(dims));
    nnt_rm(&tx);
    nnt_rm(&ty);
    nnt_rm(&th);
    nnt_rm(&tz);
}
END_TEST

/* LogSoftmax along each axis (the official example's last axis included) and Cumsum / CumsumV2
 * (exclusive, reverse) along each axis of a 3 x 4 x 5 tensor, against plain C. */
START_TEST(test_aclnn_logsoftmax_cumsum)
{
    const int64_t d[] = {3, 4, 5}, n = 60;
    float x[60], y[60];
    double want[60];
    nnt_fill(x, n, 61, -2, 2);
    nnt_dt_t tx = nnt_mk(d, 3, ACL_FLOAT, ACL_FORMAT_ND, x), ty = nnt_mk(d, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    for (int ax = 0; ax < 3; ax++) {
        const int64_t outer = ax == 0 ? 1 : ax == 1 ? 3 : 12, len = d[ax], inner = n / outer / len;
        /* log softmax */
        CK_OK(aclnnLogSoftmaxGetWorkspaceSize(tx.t, ax == 2 ? -1 : ax, ty.t, &ws, &e));
        RUN(aclnnLogSoftmax(NULL, ws, e, nnt_stream));
        nnt_rd(&ty, y);
        for (int64_t o = 0; o < outer; o++)
            for (int64_t c = 0; c < inner; c++) {
                double m = -1e30, s = 0;
                for (int64_t r = 0; r < len; r++)
                    m = fmax(m, x[(o * len + r) * inner + c]);
                for (int64_t r = 0; r < len; r++)
                    s += exp(x[(o * len + r) * inner + c] - m);
                for (int64_t r = 0; r < len; r++)
                    want[(o * len + r) * inner + c] = x[(o * len + r) * inner + c] - m - log(s);
            }
        nnt_ck_close("log softmax", y, want, n, 1e-5, 1e-5);
        /* cumsum: plain, exclusive + reverse */
        for (int v = 0; v < 2; v++) {
            if (v == 0) {
                CK_OK(aclnnCumsumGetWorkspaceSize(tx.t, ax, ACL_FLOAT, ty.t, &ws, &e));
                RUN(aclnnCumsum(NULL, ws, e, nnt_stream));
            } else {
                CK_OK(aclnnCumsumV2GetWorkspaceSize(tx.t, ax - 3, true, true, ty.t, &ws, &e));
                RUN(aclnnCumsumV2(NULL, ws, e, nnt_stream));
            }
            nnt_rd(&ty, y);
            for (int64_t o = 0; o < outer; o++)
                for (int64_t c = 0; c < inner; c++) {
                    double s = 0;
                    for (int64_t i = 0; i < len; i++) {
                        const int64_t r = v ? len - 1 - i : i, at = (o * len + r) * inner + c;
                        if (!v)
                            s += x[at];
                        want[at] = s;
                        if (v)
                            s += x[at];
                    }
                }
            nnt_ck_close("cumsum", y, want, n, 1e-5, 1e-5);
        }
    }
    CK_ERR(aclnnCumsumGetWorkspaceSize(tx.t, 3, ACL_FLOAT, ty.t, &ws, &e), NN_INVALID, "dim is 3; self has 3 dimensions");
    CK_ERR(aclnnCumsumGetWorkspaceSize(tx.t, 0, ACL_FLOAT16, ty.t, &ws, &e), NN_INVALID,
           "dtype is ACL_FLOAT16 but out has ACL_FLOAT");
    CK_ERR(aclnnLogSoftmaxGetWorkspaceSize(tx.t, -4, ty.t, &ws, &e), NN_INVALID, "dim is -4");
    nnt_rm(&tx);
    nnt_rm(&ty);
}
END_TEST

START_TEST(test_aclnn_reduce_errors)
{
    const int64_t d[] = {2, 3, 4, 5}, kd[] = {2, 4}, bad_out[] = {3, 5};
    nnt_dt_t tx = nnt_mk(d, 4, ACL_FLOAT, ACL_FORMAT_ND, NULL), ty = nnt_mk(kd, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t tb = nnt_mk(bad_out, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), th = nnt_mk(kd, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    const int64_t d13[] = {1, 3}, d4[] = {4}, dd[] = {1, 1}, d023[] = {0, 2, 3}, d0[] = {0};
    aclIntArray *a13 = aclCreateIntArray(d13, 2), *a4 = aclCreateIntArray(d4, 1), *add = aclCreateIntArray(dd, 2);
    aclIntArray *a023 = aclCreateIntArray(d023, 3), *a0 = aclCreateIntArray(d0, 1), *none = aclCreateIntArray(d0, 0);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnReduceSumGetWorkspaceSize(tx.t, a13, false, ACL_FLOAT, ty.t, &ws, &e)); /* two runs: fine */
    CK_ERR(aclnnReduceSumGetWorkspaceSize(tx.t, a4, false, ACL_FLOAT, ty.t, &ws, &e), NN_INVALID,
           "dim 4 is out of range for self's 4 dimensions ([-4, 3])");
    CK_ERR(aclnnAmaxGetWorkspaceSize(tx.t, add, false, ty.t, &ws, &e), NN_INVALID, "dim 1 appears twice");
    CK_ERR(aclnnMeanGetWorkspaceSize(tx.t, a023, false, ACL_FLOAT, ty.t, &ws, &e), NN_INVALID,
           "out has shape [2,4]; the reduction of self gives [3]");
    const int64_t d5[] = {2, 3, 4, 5, 6}, p3[] = {0, 2, 4}, k5[] = {3, 5};
    nnt_dt_t t5 = nnt_mk(d5, 5, ACL_FLOAT, ACL_FORMAT_ND, NULL), t35 = nnt_mk(k5, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    aclIntArray *a3runs = aclCreateIntArray(p3, 3);
    CK_ERR(aclnnAmaxGetWorkspaceSize(t5.t, a3runs, false, t35.t, &ws, &e), NN_INVALID,
           "dims (0, 2, 4) are 3 runs of adjacent axes; dvsim's reductions take at most two");
    CK_ERR(aclnnAmaxGetWorkspaceSize(tx.t, a13, false, tb.t, &ws, &e), NN_INVALID,
           "out has shape [3,5]; the reduction of self gives [2,4]");
    CK_ERR(aclnnReduceSumGetWorkspaceSize(tx.t, a13, false, ACL_FLOAT16, ty.t, &ws, &e), NN_INVALID,
           "dtype is ACL_FLOAT16 but out has ACL_FLOAT");
    CK_ERR(aclnnAmaxGetWorkspaceSize(tx.t, a13, false, th.t, &ws, &e), NN_INVALID,
           "out has dtype ACL_FLOAT16, self ACL_FLOAT");
    const int64_t d1[] = {1};
    aclIntArray *a1 = aclCreateIntArray(d1, 1);
    const int64_t k4[] = {2, 4, 5};
    nnt_dt_t t245 = nnt_mk(k4, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnVarCorrectionGetWorkspaceSize(tx.t, a1, 3, false, t245.t, &ws, &e), NN_INVALID,
           "correction 3 leaves no divisor for 3 reduced elements");
    CK_ERR(aclnnMeanV2GetWorkspaceSize(tx.t, none, false, true, ty.t, &ws, &e), NN_INVALID,
           "noopWithEmptyAxes with no axes is a copy");
    CK_ERR(aclnnReduceSumGetWorkspaceSize(tx.t, NULL, false, ACL_FLOAT, ty.t, &ws, &e), NN_NULLPTR, "dims is NULL");
    CK_OK(aclDestroyIntArray(a13));
    CK_OK(aclDestroyIntArray(a4));
    CK_OK(aclDestroyIntArray(add));
    CK_OK(aclDestroyIntArray(a023));
    CK_OK(aclDestroyIntArray(a0));
    CK_OK(aclDestroyIntArray(none));
    CK_OK(aclDestroyIntArray(a3runs));
    CK_OK(aclDestroyIntArray(a1));
    nnt_rm(&tx);
    nnt_rm(&ty);
    nnt_rm(&tb);
    nnt_rm(&th);
    nnt_rm(&t5);
    nnt_rm(&t35);
    nnt_rm(&t245);
}
END_TEST

Suite *dv_aclnn_reduce_suite(void)
{
    Suite *s = suite_create("aclnn_reduce");
    TCase *tc = tcase_create("aclnn_reduce");
    tcase_add_checked_fixture(tc, nnt_setup, nnt_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_aclnn_reduce_whole_and_fp16);
    tcase_add_test(tc, test_aclnn_reduce_errors);
    tcase_add_test(tc, test_aclnn_logsoftmax_cumsum);
    suite_add_tcase(s, tc);
    TCase *tp = tcase_create("aclnn_reduce_profiles");
    tcase_add_checked_fixture(tp, NULL, nnt_teardown);
    tcase_set_timeout(tp, 60);
    tcase_add_loop_test(tp, test_aclnn_reduce_apis, 0, (int)(R_KINDS * NCASES));
    suite_add_tcase(s, tp);
    return s;
}
