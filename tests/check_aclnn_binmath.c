/* tests/check_aclnn_binmath.c - integer-part division (ops/binmath.c): --check of floor_divide, fmod,
 * remainder and their scalar forms on both profiles and dtypes (exact: the reference does the
 * kernel's fp32 steps), and the aclnn calls against C's floorf / fmodf on exactly representable
 * cases: signs of every combination, in place and out of place, tensor and scalar divisors. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support/dvt.h"
#include "support/nnt.h"

#include "aclnnop/aclnn_floor_divide.h"
#include "aclnnop/aclnn_fmod_scalar.h"
#include "aclnnop/aclnn_fmod_tensor.h"
#include "aclnnop/aclnn_remainder.h"

START_TEST(test_ops_binmath_check)
{
    static const char *const cmds[] = {"floor_divide --shape 1000", "fmod --shape 3x333", "remainder --shape 4100",
                                       "floor_divides --shape 999 --scalar -2.5", "fmods --shape 70000 --scalar 0.75",
                                       "remainders --shape 64 --scalar -3 --tile-elems 64"};
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

START_TEST(test_aclnn_binmath)
{
    const int64_t d[] = {8};
    float x[8] = {7, -7, 7, -7, 5.5f, -5.5f, 0.25f, -9}, y[8] = {2, 2, -2, -2, 1.5f, 1.5f, -0.5f, 4}, z[8];
    nnt_dt_t tx = nnt_mk(d, 1, ACL_FLOAT, ACL_FORMAT_ND, x), ty = nnt_mk(d, 1, ACL_FLOAT, ACL_FORMAT_ND, y);
    nnt_dt_t tz = nnt_mk(d, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    float sv = -2.0f;
    aclScalar *s = aclCreateScalar(&sv, ACL_FLOAT);
    uint64_t ws;
    aclOpExecutor *e;
    for (int op = 0; op < 6; op++) {
        switch (op) {
        case 0: CK_OK(aclnnFloorDivideGetWorkspaceSize(tx.t, ty.t, tz.t, &ws, &e)); RUN(aclnnFloorDivide(NULL, ws, e, nnt_stream)); break;
        case 1: CK_OK(aclnnFmodTensorGetWorkspaceSize(tx.t, ty.t, tz.t, &ws, &e)); RUN(aclnnFmodTensor(NULL, ws, e, nnt_stream)); break;
        case 2: CK_OK(aclnnRemainderTensorTensorGetWorkspaceSize(tx.t, ty.t, tz.t, &ws, &e)); RUN(aclnnRemainderTensorTensor(NULL, ws, e, nnt_stream)); break;
        case 3: CK_OK(aclnnFloorDividesGetWorkspaceSize(tx.t, s, tz.t, &ws, &e)); RUN(aclnnFloorDivides(NULL, ws, e, nnt_stream)); break;
        case 4: CK_OK(aclnnFmodScalarGetWorkspaceSize(tx.t, s, tz.t, &ws, &e)); RUN(aclnnFmodScalar(NULL, ws, e, nnt_stream)); break;
        default: CK_OK(aclnnRemainderTensorScalarGetWorkspaceSize(tx.t, s, tz.t, &ws, &e)); RUN(aclnnRemainderTensorScalar(NULL, ws, e, nnt_stream));
        }
        nnt_rd(&tz, z);
        for (int i = 0; i < 8; i++) {
            const float b = op < 3 ? y[i] : sv;
            const float want = op % 3 == 0 ? floorf(x[i] / b) : op % 3 == 1 ? fmodf(x[i], b)
                                                                            : x[i] - b * floorf(x[i] / b);
            ck_assert_msg(z[i] == want, "op %d: %g, %g -> %g, want %g", op, x[i], b, z[i], want);
        }
    }
    /* in place: selfRef = selfRef mod other */
    CK_OK(aclnnInplaceRemainderTensorTensorGetWorkspaceSize(tx.t, ty.t, &ws, &e));
    RUN(aclnnInplaceRemainderTensorTensor(NULL, ws, e, nnt_stream));
    nnt_rd(&tx, z);
    for (int i = 0; i < 8; i++)
        ck_assert_msg(z[i] == x[i] - y[i] * floorf(x[i] / y[i]), "in place [%d] %g", i, z[i]);
    CK_OK(aclDestroyScalar(s));
    nnt_rm(&tx);
    nnt_rm(&ty);
    nnt_rm(&tz);
}
END_TEST

START_TEST(test_ops_binmath_errors)
{
    dvt_op_t r;
    dvt_op(&r, NULL, NULL, "fmods --shape 64 --scalar 0", false, false);
    ck_assert_msg(r.rc != DV_OK && strstr(r.err.msg, "--scalar") && strstr(r.err.msg, "other than 0"), "%s", r.err.msg);
    dvt_op_free(&r);
    dvt_op(&r, NULL, NULL, "remainder --shape 64 --tile-elems 100", false, false);
    ck_assert_msg(r.rc != DV_OK && strstr(r.err.msg, "--tile-elems"), "%s", r.err.msg);
    dvt_op_free(&r);
}
END_TEST

Suite *dv_aclnn_binmath_suite(void)
{
    Suite *s = suite_create("aclnn_binmath");
    TCase *tc = tcase_create("aclnn_binmath");
    tcase_add_checked_fixture(tc, nnt_setup, nnt_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_aclnn_binmath);
    suite_add_tcase(s, tc);
    TCase *to = tcase_create("ops_binmath");
    tcase_set_timeout(to, 60);
    tcase_add_loop_test(to, test_ops_binmath_check, 0, 4);
    tcase_add_test(to, test_ops_binmath_errors);
    suite_add_tcase(s, to);
    return s;
}
