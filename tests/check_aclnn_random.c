/* tests/check_aclnn_random.c - the random-number operators (ops/random.c) and their aclnn calls
 * (acl/nnrandom.c): --check of every operator on both profiles and dtypes (the kernel against the
 * plain-C generator, exact for uniform, random and bernoulli), the distributions of 65,536 draws
 * through aclnn (mean and spread of uniform and normal, the rate of bernoulli, the range of random),
 * determinism in (seed, offset), and the argument errors. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/dvt.h"
#include "support/nnt.h"

#include "aclnnop/aclnn_bernoulli.h"
#include "aclnnop/aclnn_dropout.h"
#include "aclnnop/aclnn_dropout_backward.h"
#include "aclnnop/aclnn_dropout_do_mask.h"
#include "aclnnop/aclnn_dropout_gen_mask.h"
#include "aclnnop/aclnn_dropout_v3.h"
#include "aclnnop/aclnn_normal.h"
#include "aclnnop/aclnn_normal_out.h"
#include "aclnnop/aclnn_random.h"
#include "aclnnop/aclnn_uniform.h"

START_TEST(test_ops_random_check)
{
    static const char *const cmds[] = {"uniform --shape 1000 --low -2 --high 3", "random --shape 3x333 --low -5 --high 7",
                                       "bernoulli --shape 4100 --p 0.3", "normal --shape 2x4097 --mean 1 --std 2",
                                       "uniform --shape 70000 --seed 99 --offset 12345 --tile-elems 1024",
                                       "dropout_apply --shape 5000 --scale 1.25", "dropout_apply --shape 8",
                                       "dropout_mask --shape 1000 --p 0.3 --seed 7",
                                       "dropout_mask --shape 70000 --tile-elems 1024", "dropout_mask --shape 8"};
    const char *profile = _i / 2 ? "ascend310" : NULL, *dt = _i % 2 ? "fp16" : "fp32";
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "%s%s%s", cmds[c], strncmp(cmds[c], "dropout_mask", 12) ? " --dtype " : "",
                 strncmp(cmds[c], "dropout_mask", 12) ? dt : "");
        dvt_op_t r;
        dvt_op(&r, profile, NULL, cmd, true, true);
        ck_assert_msg(r.rc == DV_OK, "%s: %s", cmd, r.err.msg);
        ck_assert_msg(r.check.compared > 0 && r.check.mismatches == 0, "%s: %llu mismatches", cmd,
                      (unsigned long long)r.check.mismatches);
        ck_assert_msg(r.cnt.hazards == 0, "%s: hazards", cmd);
        dvt_op_free(&r);
    }
}
END_TEST

/* A device int64 holding v (for the seed and offset tensors). */
static nnt_dt_t i64_tensor(int64_t v)
{
    const int64_t d[] = {1};
    return nnt_mk(d, 1, ACL_INT64, ACL_FORMAT_ND, &v);
}

/* The Tensor forms take their seed and offset (offsetTensor + offset) from device tensors: the same
 * numbers as the plain forms with those values; mean and std as tensors: mean + std * normal(0, 1)
 * of the same seed, in fp32 steps. */
START_TEST(test_aclnn_random_tensor_forms)
{
    enum { N = 3000 };
    static float a[N], b[N], m[N], sd[N], z[N];
    const int64_t d[] = {N};
    nnt_dt_t t = nnt_mk(d, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t seed = i64_tensor(1234), off = i64_tensor(50);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnInplaceUniformGetWorkspaceSize(t.t, -1, 3, 1234, 57, &ws, &e));
    RUN(aclnnInplaceUniform(NULL, ws, e, nnt_stream));
    nnt_rd(&t, a);
    CK_OK(aclnnInplaceUniformTensorGetWorkspaceSize(t.t, -1, 3, seed.t, off.t, 7, &ws, &e));
    RUN(aclnnInplaceUniformTensor(NULL, ws, e, nnt_stream));
    nnt_rd(&t, b);
    ck_assert_msg(memcmp(a, b, sizeof a) == 0, "InplaceUniformTensor differs from InplaceUniform");
    CK_OK(aclnnInplaceNormalGetWorkspaceSize(t.t, 0.5f, 2.0f, 1234, 57, &ws, &e));
    RUN(aclnnInplaceNormal(NULL, ws, e, nnt_stream));
    nnt_rd(&t, a);
    CK_OK(aclnnInplaceNormalTensorGetWorkspaceSize(t.t, 0.5f, 2.0f, seed.t, off.t, 7, &ws, &e));
    RUN(aclnnInplaceNormalTensor(NULL, ws, e, nnt_stream));
    nnt_rd(&t, b);
    ck_assert_msg(memcmp(a, b, sizeof a) == 0, "InplaceNormalTensor differs from InplaceNormal");
    CK_OK(aclnnInplaceRandomGetWorkspaceSize(t.t, -3, 9, 1234, 57, &ws, &e));
    RUN(aclnnInplaceRandom(NULL, ws, e, nnt_stream));
    nnt_rd(&t, a);
    CK_OK(aclnnInplaceRandomTensorGetWorkspaceSize(t.t, -3, 9, seed.t, off.t, 7, &ws, &e));
    RUN(aclnnInplaceRandomTensor(NULL, ws, e, nnt_stream));
    nnt_rd(&t, b);
    ck_assert_msg(memcmp(a, b, sizeof a) == 0, "InplaceRandomTensor differs from InplaceRandom");
    /* mean and std tensors */
    nnt_fill(m, N, 5, -2, 2);
    nnt_fill(sd, N, 6, 0.5f, 3);
    nnt_dt_t tm = nnt_mk(d, 1, ACL_FLOAT, ACL_FORMAT_ND, m), ts = nnt_mk(d, 1, ACL_FLOAT, ACL_FORMAT_ND, sd);
    CK_OK(aclnnNormalFloatFloatGetWorkspaceSize(0, 1, 77, 3, t.t, &ws, &e));
    RUN(aclnnNormalFloatFloat(NULL, ws, e, nnt_stream));
    nnt_rd(&t, z);
    CK_OK(aclnnNormalTensorTensorGetWorkspaceSize(tm.t, ts.t, 77, 3, t.t, &ws, &e));
    RUN(aclnnNormalTensorTensor(NULL, ws, e, nnt_stream));
    nnt_rd(&t, a);
    for (int i = 0; i < N; i++)
        ck_assert_msg(a[i] == z[i] * sd[i] + m[i], "NormalTensorTensor [%d] %g, want %g", i, a[i], z[i] * sd[i] + m[i]);
    CK_OK(aclnnNormalTensorFloatGetWorkspaceSize(tm.t, 1.0f, 77, 3, t.t, &ws, &e));
    RUN(aclnnNormalTensorFloat(NULL, ws, e, nnt_stream));
    nnt_rd(&t, a);
    for (int i = 0; i < N; i++)
        ck_assert_msg(a[i] == z[i] + m[i], "NormalTensorFloat [%d] %g, want %g", i, a[i], z[i] + m[i]);
    CK_OK(aclnnNormalFloatTensorGetWorkspaceSize(0.0f, ts.t, 77, 3, t.t, &ws, &e));
    RUN(aclnnNormalFloatTensor(NULL, ws, e, nnt_stream));
    nnt_rd(&t, a);
    for (int i = 0; i < N; i++)
        ck_assert_msg(a[i] == z[i] * sd[i], "NormalFloatTensor [%d] %g, want %g", i, a[i], z[i] * sd[i]);
    /* errors */
    const int64_t d2[] = {2};
    nnt_dt_t two = nnt_mk(d2, 1, ACL_INT64, ACL_FORMAT_ND, NULL), small = nnt_mk(d2, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnInplaceUniformTensorGetWorkspaceSize(t.t, 0, 1, two.t, off.t, 0, &ws, &e), NN_INVALID,
           "seedTensor has 2 elements");
    CK_ERR(aclnnInplaceNormalTensorGetWorkspaceSize(t.t, 0, 1, seed.t, tm.t, 0, &ws, &e), NN_INVALID,
           "offsetTensor has 3000 elements");
    CK_ERR(aclnnNormalTensorTensorGetWorkspaceSize(small.t, ts.t, 1, 1, t.t, &ws, &e), NN_INVALID,
           "mean must have out's shape");
    CK_ERR(aclnnNormalTensorTensorGetWorkspaceSize(NULL, ts.t, 1, 1, t.t, &ws, &e), NN_NULLPTR, "mean is NULL");
    nnt_dt_t *all[] = {&t, &seed, &off, &tm, &ts, &two, &small};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        nnt_rm(all[i]);
}
END_TEST

/* Dropout: the mask's bits (kept with probability 1 - p, the layout of vcmp: bit i of byte i / 8),
 * the mask applied with 1 / (1 - p), the chain of DropoutV3 / Dropout, evaluation mode, errors. */
START_TEST(test_aclnn_dropout)
{
    enum { N = 20000, MB = (N + 127) / 128 * 16 };
    static float x[N], y[N];
    static uint8_t mk[MB];
    nnt_fill(x, N, 9, -4, 4);
    const int64_t d[] = {N}, dm[] = {MB}, shp[] = {100, 200};
    nnt_dt_t tx = nnt_mk(d, 1, ACL_FLOAT, ACL_FORMAT_ND, x), ty = nnt_mk(d, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t tmk = nnt_mk(dm, 1, ACL_UINT8, ACL_FORMAT_ND, NULL);
    aclIntArray *shape = aclCreateIntArray(shp, 2);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnDropoutGenMaskGetWorkspaceSize(shape, 0.3, 42, 0, tmk.t, &ws, &e));
    RUN(aclnnDropoutGenMask(NULL, ws, e, nnt_stream));
    nnt_rd(&tmk, mk);
    unsigned kept = 0;
    for (int i = 0; i < N; i++)
        kept += mk[i / 8] >> (i % 8) & 1;
    ck_assert_msg(fabs(kept / (double)N - 0.7) < 0.015, "%u of %d kept with p 0.3", kept, N);
    CK_OK(aclnnDropoutDoMaskGetWorkspaceSize(tx.t, tmk.t, 0.3, ty.t, &ws, &e));
    RUN(aclnnDropoutDoMask(NULL, ws, e, nnt_stream));
    nnt_rd(&ty, y);
    const float scale = (float)(1 / 0.7);
    for (int i = 0; i < N; i++) {
        const float want = (mk[i / 8] >> (i % 8) & 1) ? x[i] * scale : 0.0f;
        ck_assert_msg(y[i] == want, "DoMask [%d] %g, want %g", i, y[i], want);
    }
    CK_OK(aclnnDropoutBackwardGetWorkspaceSize(tx.t, tmk.t, 3.0, ty.t, &ws, &e));
    RUN(aclnnDropoutBackward(NULL, ws, e, nnt_stream));
    nnt_rd(&ty, y);
    for (int i = 0; i < N; i++)
        ck_assert_msg(y[i] == ((mk[i / 8] >> (i % 8) & 1) ? x[i] * 3.0f : 0.0f), "Backward [%d] %g", i, y[i]);
    /* V3: the same seed gives the same mask, and out is its application */
    memset(mk, 0, sizeof mk);
    CK_OK(aclnnDropoutV3GetWorkspaceSize(tx.t, NULL, 0.3, 42, 0, ty.t, tmk.t, &ws, &e));
    RUN(aclnnDropoutV3(NULL, ws, e, nnt_stream));
    static uint8_t mk2[MB];
    nnt_rd(&tmk, mk2);
    CK_OK(aclnnDropoutGenMaskGetWorkspaceSize(shape, 0.3, 42, 0, tmk.t, &ws, &e));
    RUN(aclnnDropoutGenMask(NULL, ws, e, nnt_stream));
    nnt_rd(&tmk, mk);
    ck_assert_msg(memcmp(mk, mk2, MB) == 0, "DropoutV3's mask differs from DropoutGenMask's");
    nnt_rd(&ty, y);
    for (int i = 0; i < N; i++)
        ck_assert_msg(y[i] == ((mk[i / 8] >> (i % 8) & 1) ? x[i] * scale : 0.0f), "V3 [%d] %g", i, y[i]);
    /* evaluation: out = input, every bit 1 */
    CK_OK(aclnnDropoutGetWorkspaceSize(tx.t, 0.3, false, 42, 0, ty.t, tmk.t, &ws, &e));
    RUN(aclnnDropout(NULL, ws, e, nnt_stream));
    nnt_rd(&ty, y);
    nnt_rd(&tmk, mk);
    ck_assert_msg(memcmp(x, y, sizeof y) == 0, "Dropout in evaluation changed the input");
    for (int i = 0; i < N; i++)
        ck_assert_msg(mk[i / 8] >> (i % 8) & 1, "Dropout in evaluation dropped element %d", i);
    /* errors */
    const int64_t dbad[] = {MB - 16};
    nnt_dt_t bad = nnt_mk(dbad, 1, ACL_UINT8, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnDropoutGenMaskGetWorkspaceSize(shape, 0.3, 1, 0, bad.t, &ws, &e), NN_INVALID, "out has 2496 elements");
    CK_ERR(aclnnDropoutDoMaskGetWorkspaceSize(tx.t, bad.t, 0.3, ty.t, &ws, &e), NN_INVALID, "ACL_UINT8 of 2512");
    CK_ERR(aclnnDropoutDoMaskGetWorkspaceSize(tx.t, tmk.t, 1.5, ty.t, &ws, &e), NN_INVALID, "prob 1.5");
    CK_ERR(aclnnDropoutV3GetWorkspaceSize(tx.t, tx.t, 0.3, 1, 0, ty.t, tmk.t, &ws, &e), NN_INVALID,
           "optionalNoiseShape");
    CK_ERR(aclnnDropoutGenMaskGetWorkspaceSize(NULL, 0.3, 1, 0, tmk.t, &ws, &e), NN_NULLPTR, "shape is NULL");
    aclDestroyIntArray(shape);
    nnt_rm(&tx);
    nnt_rm(&ty);
    nnt_rm(&tmk);
    nnt_rm(&bad);
}
END_TEST

/* Mean and variance of n floats. */
static void stats(const float *y, size_t n, double *mean, double *var)
{
    double s = 0, q = 0;
    for (size_t i = 0; i < n; i++)
        s += y[i];
    *mean = s / (double)n;
    for (size_t i = 0; i < n; i++)
        q += (y[i] - *mean) * (y[i] - *mean);
    *var = q / (double)n;
}

START_TEST(test_aclnn_random_distributions)
{
    enum { N = 65536 };
    static float y[N], y2[N];
    const int64_t d[] = {N};
    nnt_dt_t t = nnt_mk(d, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    double m, v;
    /* uniform [-1, 3): mean 1, variance 16/12 (sampling error ~0.005 and ~0.006) */
    CK_OK(aclnnInplaceUniformGetWorkspaceSize(t.t, -1.0, 3.0, 7, 0, &ws, &e));
    RUN(aclnnInplaceUniform(NULL, ws, e, nnt_stream));
    nnt_rd(&t, y);
    stats(y, N, &m, &v);
    ck_assert_msg(fabs(m - 1.0) < 0.03 && fabs(v - 16.0 / 12.0) < 0.05, "uniform: mean %g variance %g", m, v);
    for (size_t i = 0; i < N; i++)
        ck_assert_msg(y[i] >= -1.0f && y[i] < 3.0f, "uniform[%zu] = %g", i, y[i]);
    /* the same seed and offset: the same numbers; another offset: others */
    CK_OK(aclnnInplaceUniformGetWorkspaceSize(t.t, -1.0, 3.0, 7, 0, &ws, &e));
    RUN(aclnnInplaceUniform(NULL, ws, e, nnt_stream));
    nnt_rd(&t, y2);
    ck_assert_int_eq(memcmp(y, y2, sizeof y), 0);
    CK_OK(aclnnInplaceUniformGetWorkspaceSize(t.t, -1.0, 3.0, 7, 1, &ws, &e));
    RUN(aclnnInplaceUniform(NULL, ws, e, nnt_stream));
    nnt_rd(&t, y2);
    ck_assert_int_ne(memcmp(y, y2, sizeof y), 0);
    /* random integers in [2, 6): each value about a quarter of the draws */
    CK_OK(aclnnInplaceRandomGetWorkspaceSize(t.t, 2, 6, 3, 0, &ws, &e));
    RUN(aclnnInplaceRandom(NULL, ws, e, nnt_stream));
    nnt_rd(&t, y);
    int count[4] = {0};
    for (size_t i = 0; i < N; i++) {
        ck_assert_msg(y[i] == floorf(y[i]) && y[i] >= 2 && y[i] < 6, "random[%zu] = %g", i, y[i]);
        count[(int)y[i] - 2]++;
    }
    for (int i = 0; i < 4; i++)
        ck_assert_msg(abs(count[i] - N / 4) < N / 40, "random: %d draws of %d", count[i], i + 2);
    /* bernoulli 0.3 */
    float pv = 0.3f;
    aclScalar *p = aclCreateScalar(&pv, ACL_FLOAT);
    CK_OK(aclnnInplaceBernoulliGetWorkspaceSize(t.t, p, 11, 0, &ws, &e));
    RUN(aclnnInplaceBernoulli(NULL, ws, e, nnt_stream));
    nnt_rd(&t, y);
    stats(y, N, &m, &v);
    for (size_t i = 0; i < N; i++)
        ck_assert_msg(y[i] == 0.0f || y[i] == 1.0f, "bernoulli[%zu] = %g", i, y[i]);
    ck_assert_msg(fabs(m - 0.3) < 0.01, "bernoulli: rate %g", m);
    /* normal (mean 2, std 0.5) */
    CK_OK(aclnnInplaceNormalGetWorkspaceSize(t.t, 2.0f, 0.5f, 5, 0, &ws, &e));
    RUN(aclnnInplaceNormal(NULL, ws, e, nnt_stream));
    nnt_rd(&t, y);
    stats(y, N, &m, &v);
    ck_assert_msg(fabs(m - 2.0) < 0.01 && fabs(sqrt(v) - 0.5) < 0.01, "normal: mean %g std %g", m, sqrt(v));
    CK_OK(aclnnNormalFloatFloatGetWorkspaceSize(2.0f, 0.5f, 5, 0, t.t, &ws, &e));
    RUN(aclnnNormalFloatFloat(NULL, ws, e, nnt_stream));
    nnt_rd(&t, y2);
    ck_assert_int_eq(memcmp(y, y2, sizeof y), 0); /* the same generator and key */
    /* errors */
    CK_ERR(aclnnInplaceUniformGetWorkspaceSize(t.t, 3.0, 3.0, 0, 0, &ws, &e), NN_INVALID, "from 3 must be below to 3");
    CK_ERR(aclnnInplaceRandomGetWorkspaceSize(t.t, 0, 1LL << 30, 0, 0, &ws, &e), NN_INVALID, "within +-2^24");
    float bad = 1.5f;
    aclScalar *pb = aclCreateScalar(&bad, ACL_FLOAT);
    CK_ERR(aclnnInplaceBernoulliGetWorkspaceSize(t.t, pb, 0, 0, &ws, &e), NN_INVALID, "prob is 1.5");
    CK_ERR(aclnnInplaceBernoulliGetWorkspaceSize(t.t, NULL, 0, 0, &ws, &e), NN_NULLPTR, "prob is NULL");
    CK_ERR(aclnnInplaceNormalGetWorkspaceSize(t.t, 0.0f, -1.0f, 0, 0, &ws, &e), NN_INVALID, "std -1");
    CK_OK(aclDestroyScalar(p));
    CK_OK(aclDestroyScalar(pb));
    nnt_rm(&t);
}
END_TEST

Suite *dv_aclnn_random_suite(void)
{
    Suite *s = suite_create("aclnn_random");
    TCase *tc = tcase_create("aclnn_random");
    tcase_add_checked_fixture(tc, nnt_setup, nnt_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_aclnn_random_distributions);
    tcase_add_test(tc, test_aclnn_random_tensor_forms);
    tcase_add_test(tc, test_aclnn_dropout);
    suite_add_tcase(s, tc);
    TCase *to = tcase_create("ops_random");
    tcase_set_timeout(to, 60);
    tcase_add_loop_test(to, test_ops_random_check, 0, 4);
    suite_add_tcase(s, to);
    return s;
}
