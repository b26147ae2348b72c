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
#include "aclnnop/aclnn_normal.h"
#include "aclnnop/aclnn_normal_out.h"
#include "aclnnop/aclnn_random.h"
#include "aclnnop/aclnn_uniform.h"

START_TEST(test_ops_random_check)
{
    static const char *const cmds[] = {"uniform --shape 1000 --low -2 --high 3", "random --shape 3x333 --low -5 --high 7",
                                       "bernoulli --shape 4100 --p 0.3", "normal --shape 2x4097 --mean 1 --std 2",
                                       "uniform --shape 70000 --seed 99 --offset 12345 --tile-elems 1024"};
    const char *profile = _i / 2 ? "ascend310" : NULL, *dt = _i % 2 ? "fp16" : "fp32";
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "%s --dtype %s", cmds[c], dt);
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
    suite_add_tcase(s, tc);
    TCase *to = tcase_create("ops_random");
    tcase_set_timeout(to, 60);
    tcase_add_loop_test(to, test_ops_random_check, 0, 4);
    suite_add_tcase(s, to);
    return s;
}
