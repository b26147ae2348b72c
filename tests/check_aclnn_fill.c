/* tests/check_aclnn_fill.c - tensors made without an input (ops/fill.c, acl/nnfill.c): --check of fill
 * and arange on both profiles and dtypes (one tile, several tiles and blocks, a tail), and the aclnn
 * calls (InplaceZero, InplaceOne, InplaceFillScalar, Arange, Range, Linspace) against plain C, with
 * their errors. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support/dvt.h"
#include "support/nnt.h"

#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_linspace.h"
#include "aclnnop/aclnn_ones.h"
#include "aclnnop/aclnn_range.h"
#include "aclnnop/aclnn_zero.h"

START_TEST(test_ops_fill_check)
{
    static const char *const cmds[] = {"fill --value 2.5 --shape 100",
                                       "fill --value -7 --shape 3x20000 --tile-elems 1024",
                                       "arange --start 3 --step 0.5 --shape 333",
                                       "arange --start -100 --step 0.125 --shape 70000 --tile-elems 2048",
                                       "arange --start 1000 --step -3 --shape 5000 --cores 3"};
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

/* out (n fp32 elements) against v(i) = a + i * d. */
static void expect_seq(const nnt_dt_t *t, int n, double a, double d, const char *what)
{
    float got[64];
    ck_assert_int_le(n, 64);
    nnt_rd(t, got);
    for (int i = 0; i < n; i++) {
        const double want = a + i * d;
        ck_assert_msg(fabs(got[i] - want) <= 1e-5 * fabs(want) + 1e-6, "%s [%d] %g, want %g", what, i, got[i], want);
    }
}

START_TEST(test_aclnn_fill_and_sequences)
{
    const int64_t d6[] = {2, 3}, d5[] = {5}, d4[] = {4}, d7[] = {7};
    const float x[6] = {1, 2, 3, 4, 5, 6};
    nnt_dt_t t = nnt_mk(d6, 2, ACL_FLOAT, ACL_FORMAT_ND, x);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnInplaceZeroGetWorkspaceSize(t.t, &ws, &e));
    RUN(aclnnInplaceZero(NULL, ws, e, nnt_stream));
    expect_seq(&t, 6, 0, 0, "InplaceZero");
    CK_OK(aclnnInplaceOneGetWorkspaceSize(t.t, &ws, &e));
    RUN(aclnnInplaceOne(NULL, ws, e, nnt_stream));
    expect_seq(&t, 6, 1, 0, "InplaceOne");
    float v = -2.75f, s0 = 1, s1 = 3, s2 = 0.5f, s3 = 3.25f;
    aclScalar *sv = aclCreateScalar(&v, ACL_FLOAT), *a = aclCreateScalar(&s0, ACL_FLOAT);
    aclScalar *b = aclCreateScalar(&s1, ACL_FLOAT), *st = aclCreateScalar(&s2, ACL_FLOAT);
    aclScalar *b2 = aclCreateScalar(&s3, ACL_FLOAT);
    CK_OK(aclnnInplaceFillScalarGetWorkspaceSize(t.t, sv, &ws, &e));
    RUN(aclnnInplaceFillScalar(NULL, ws, e, nnt_stream));
    expect_seq(&t, 6, -2.75, 0, "InplaceFillScalar");
    /* arange [1, 3) by 0.5: 4 values; range [1, 3] by 0.5: 5; arange [1, 3.25) by 0.5: 5 */
    nnt_dt_t o4 = nnt_mk(d4, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL), o5 = nnt_mk(d5, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t o7 = nnt_mk(d7, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    CK_OK(aclnnArangeGetWorkspaceSize(a, b, st, o4.t, &ws, &e));
    RUN(aclnnArange(NULL, ws, e, nnt_stream));
    expect_seq(&o4, 4, 1, 0.5, "Arange");
    CK_OK(aclnnRangeGetWorkspaceSize(a, b, st, o5.t, &ws, &e));
    RUN(aclnnRange(NULL, ws, e, nnt_stream));
    expect_seq(&o5, 5, 1, 0.5, "Range");
    CK_OK(aclnnArangeGetWorkspaceSize(a, b2, st, o5.t, &ws, &e));
    RUN(aclnnArange(NULL, ws, e, nnt_stream));
    expect_seq(&o5, 5, 1, 0.5, "Arange to 3.25");
    CK_OK(aclnnLinspaceGetWorkspaceSize(a, b2, 7, o7.t, &ws, &e));
    RUN(aclnnLinspace(NULL, ws, e, nnt_stream));
    expect_seq(&o7, 7, 1, 2.25 / 6, "Linspace");
    /* errors: element counts, an empty or wrong-signed step, steps < 1, NULL */
    CK_ERR(aclnnArangeGetWorkspaceSize(a, b, st, o5.t, &ws, &e), NN_INVALID, "out has 5 elements; the sequence has 4");
    CK_ERR(aclnnRangeGetWorkspaceSize(a, b, st, o4.t, &ws, &e), NN_INVALID, "the sequence has 5");
    CK_ERR(aclnnArangeGetWorkspaceSize(b, a, st, o4.t, &ws, &e), NN_INVALID, "are not a sequence");
    CK_ERR(aclnnLinspaceGetWorkspaceSize(a, b, 0, o4.t, &ws, &e), NN_INVALID, "steps is 0");
    CK_ERR(aclnnLinspaceGetWorkspaceSize(a, b, 5, o4.t, &ws, &e), NN_INVALID, "out has 4 elements; steps is 5");
    CK_ERR(aclnnInplaceFillScalarGetWorkspaceSize(t.t, NULL, &ws, &e), NN_NULLPTR, "value is NULL");
    CK_ERR(aclnnArangeGetWorkspaceSize(a, NULL, st, o4.t, &ws, &e), NN_NULLPTR, "end is NULL");
    float zero = 0;
    aclScalar *z = aclCreateScalar(&zero, ACL_FLOAT);
    CK_ERR(aclnnRangeGetWorkspaceSize(a, b, z, o4.t, &ws, &e), NN_INVALID, "step 0");
    aclDestroyScalar(z);
    aclDestroyScalar(sv);
    aclDestroyScalar(a);
    aclDestroyScalar(b);
    aclDestroyScalar(b2);
    aclDestroyScalar(st);
    nnt_rm(&t);
    nnt_rm(&o4);
    nnt_rm(&o5);
    nnt_rm(&o7);
}
END_TEST

Suite *dv_aclnn_fill_suite(void)
{
    Suite *s = suite_create("aclnn_fill");
    TCase *tc = tcase_create("aclnn_fill");
    tcase_add_checked_fixture(tc, nnt_setup, nnt_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_aclnn_fill_and_sequences);
    suite_add_tcase(s, tc);
    TCase *to = tcase_create("ops_fill");
    tcase_set_timeout(to, 120);
    tcase_add_loop_test(to, test_ops_fill_check, 0, 4);
    suite_add_tcase(s, to);
    return s;
}
