/* tests/check_aclnn_loss.c - the losses (ops/loss.c, acl/nnloss.c): --check of each loss with every
 * reduction on both profiles and dtypes, a reduction over several tiles, and the aclnn calls
 * against plain C (none, mean, sum; smooth L1 on both sides of beta), and their errors. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support/dvt.h"
#include "support/nnt.h"

#include "aclnnop/aclnn_l1_loss.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_soft_margin_loss.h"

START_TEST(test_ops_loss_check)
{
    static const char *const ops[] = {"l1_loss", "mse_loss", "smooth_l1_loss --beta 0.5", "soft_margin_loss"};
    static const char *const shapes[] = {"--shape 2x2", "--shape 3x1000 --tile-elems 512", "--shape 70"};
    const char *profile = _i / 2 ? "ascend310" : NULL, *dt = _i % 2 ? "fp16" : "fp32";
    for (size_t o = 0; o < 4; o++)
        for (size_t s = 0; s < 3; s++)
            for (int red = 0; red < 3; red++) {
                char cmd[256];
                snprintf(cmd, sizeof cmd, "%s %s --reduction %d --dtype %s", ops[o], shapes[s], red, dt);
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

START_TEST(test_aclnn_losses)
{
    const int64_t d[] = {2, 3};
    float x[6] = {0.5f, -1, 2, 0.25f, 3, -0.5f}, y[6] = {1, 1, -1, 0, 1, -1}, z[6], one;
    nnt_dt_t tx = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, x), ty = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, y);
    nnt_dt_t tz = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), ts = nnt_mk(NULL, 0, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    for (int k = 0; k < 4; k++)
        for (int red = 0; red < 3; red++) {
            nnt_dt_t *o = red ? &ts : &tz;
            switch (k) {
            case 0: CK_OK(aclnnL1LossGetWorkspaceSize(tx.t, ty.t, red, o->t, &ws, &e)); RUN(aclnnL1Loss(NULL, ws, e, nnt_stream)); break;
            case 1: CK_OK(aclnnMseLossGetWorkspaceSize(tx.t, ty.t, red, o->t, &ws, &e)); RUN(aclnnMseLoss(NULL, ws, e, nnt_stream)); break;
            case 2: CK_OK(aclnnSmoothL1LossGetWorkspaceSize(tx.t, ty.t, red, 1.0f, o->t, &ws, &e)); RUN(aclnnSmoothL1Loss(NULL, ws, e, nnt_stream)); break;
            default: CK_OK(aclnnSoftMarginLossGetWorkspaceSize(tx.t, ty.t, red, o->t, &ws, &e)); RUN(aclnnSoftMarginLoss(NULL, ws, e, nnt_stream));
            }
            if (red)
                nnt_rd(o, &one);
            else
                nnt_rd(o, z);
            double s = 0;
            for (int i = 0; i < 6; i++) {
                const double dd = (double)x[i] - y[i], a = fabs(dd);
                const double v = k == 0 ? a : k == 1 ? dd * dd : k == 2 ? (a < 1 ? 0.5 * dd * dd : a - 0.5)
                                                                         : log1p(exp(-(double)y[i] * x[i]));
                s += v;
                if (!red)
                    ck_assert_msg(fabs(z[i] - v) <= 1e-6 + 1e-6 * fabs(v), "loss %d [%d] %g, want %g", k, i, z[i], v);
            }
            if (red) {
                const double want = red == 1 ? s / 6 : s;
                ck_assert_msg(fabs(one - want) <= 1e-5 * fabs(want) + 1e-6, "loss %d reduction %d: %g, want %g", k, red,
                              one, want);
            }
        }
    CK_ERR(aclnnL1LossGetWorkspaceSize(tx.t, ty.t, 3, ts.t, &ws, &e), NN_INVALID, "reduction is 3");
    CK_ERR(aclnnMseLossGetWorkspaceSize(tx.t, ty.t, 1, tz.t, &ws, &e), NN_INVALID, "out has 6 elements");
    CK_ERR(aclnnSmoothL1LossGetWorkspaceSize(tx.t, ty.t, 0, -1.0f, tz.t, &ws, &e), NN_INVALID, "beta is -1");
    nnt_rm(&tx);
    nnt_rm(&ty);
    nnt_rm(&tz);
    nnt_rm(&ts);
}
END_TEST

Suite *dv_aclnn_loss_suite(void)
{
    Suite *s = suite_create("aclnn_loss");
    TCase *tc = tcase_create("aclnn_loss");
    tcase_add_checked_fixture(tc, nnt_setup, nnt_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_aclnn_losses);
    suite_add_tcase(s, tc);
    TCase *to = tcase_create("ops_loss");
    tcase_set_timeout(to, 120);
    tcase_add_loop_test(to, test_ops_loss_check, 0, 4);
    suite_add_tcase(s, to);
    return s;
}
