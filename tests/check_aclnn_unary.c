/* tests/check_aclnn_unary.c - the activations and unary math of the step tables (ops/elementwise.c:
 * selu, celu, hardsigmoid, hardswish, mish, softsign, logsigmoid, softshrink, acosh, asinh, atanh,
 * sinh, cosh, erf, erfc, expm1, log1p, log2, log10, exp2, square, sign, floor, ceil, round, trunc,
 * sin, cos): --check of every operator on both profiles and dtypes, a tile boundary and a partial
 * repeat; and the aclnn calls (out of place and in place, celu's alpha and softshrink's lambd)
 * against C's math library, with edge values (0, halves for round, large |x| for the saturating
 * forms). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support/dvt.h"
#include "support/nnt.h"

#include "aclnnop/aclnn_celu.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_logsigmoid.h"
#include "aclnnop/aclnn_mish.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_selu.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_softshrink.h"

static const char *const unary_ops[] = {
    "selu", "celu --scalar 0.7", "hardsigmoid", "hardswish", "mish", "softsign", "logsigmoid",
    "softshrink --scalar 0.3", "acosh", "asinh", "atanh", "sinh", "cosh", "erf", "erfc", "expm1", "log1p",
    "log2", "log10", "exp2", "square", "sign", "floor", "ceil", "round", "trunc", "sin", "cos"};

/* Loop index: operator i / 4, profile (i / 2) % 2, dtype i % 2. */
START_TEST(test_ops_unary_check)
{
    const char *op = unary_ops[_i / 4], *profile = (_i / 2) % 2 ? "ascend310" : NULL, *dt = _i % 2 ? "fp16" : "fp32";
    static const char *const shapes[] = {"--shape 100", "--shape 3x1025 --tile-elems 1024"};
    for (int s = 0; s < 2; s++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "%s %s --dtype %s", op, shapes[s], dt);
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

static double softshrink_ref(double x, double l) { return x > l ? x - l : x < -l ? x + l : 0; }

START_TEST(test_aclnn_unary_calls)
{
    enum { N = 12 };
    const int64_t d[] = {3, 4};
    const float x[N] = {0, -0, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 3.75f, -7.25f, 40, -40, 1e-3f};
    float y[N];
    nnt_dt_t tx = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, x), ty = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    float av = 0.8f, lv = 0.6f;
    aclScalar *alpha = aclCreateScalar(&av, ACL_FLOAT), *lambd = aclCreateScalar(&lv, ACL_FLOAT);
    uint64_t ws;
    aclOpExecutor *e;
    for (int op = 0; op < 9; op++) {
        switch (op) {
        case 0: CK_OK(aclnnSeluGetWorkspaceSize(tx.t, ty.t, &ws, &e)); RUN(aclnnSelu(NULL, ws, e, nnt_stream)); break;
        case 1: CK_OK(aclnnCeluGetWorkspaceSize(tx.t, alpha, ty.t, &ws, &e)); RUN(aclnnCelu(NULL, ws, e, nnt_stream)); break;
        case 2: CK_OK(aclnnMishGetWorkspaceSize(tx.t, ty.t, &ws, &e)); RUN(aclnnMish(NULL, ws, e, nnt_stream)); break;
        case 3: CK_OK(aclnnLogSigmoidGetWorkspaceSize(tx.t, ty.t, &ws, &e)); RUN(aclnnLogSigmoid(NULL, ws, e, nnt_stream)); break;
        case 4: CK_OK(aclnnSoftshrinkGetWorkspaceSize(tx.t, lambd, ty.t, &ws, &e)); RUN(aclnnSoftshrink(NULL, ws, e, nnt_stream)); break;
        case 5: CK_OK(aclnnErfGetWorkspaceSize(tx.t, ty.t, &ws, &e)); RUN(aclnnErf(NULL, ws, e, nnt_stream)); break;
        case 6: CK_OK(aclnnRoundGetWorkspaceSize(tx.t, ty.t, &ws, &e)); RUN(aclnnRound(NULL, ws, e, nnt_stream)); break;
        case 7: CK_OK(aclnnSignGetWorkspaceSize(tx.t, ty.t, &ws, &e)); RUN(aclnnSign(NULL, ws, e, nnt_stream)); break;
        default: CK_OK(aclnnSinGetWorkspaceSize(tx.t, ty.t, &ws, &e)); RUN(aclnnSin(NULL, ws, e, nnt_stream));
        }
        nnt_rd(&ty, y);
        for (int i = 0; i < N; i++) {
            const double a = x[i];
            const double want = op == 0   ? 1.0507009873554805 * (a > 0 ? a : 1.6732632423543772 * expm1(a))
                                : op == 1 ? (a > 0 ? a : (double)av * expm1(a / (double)av))
                                : op == 2 ? a * tanh(log1p(exp(a)))
                                : op == 3 ? fmin(a, 0) - log1p(exp(-fabs(a)))
                                : op == 4 ? softshrink_ref(a, (double)lv)
                                : op == 5 ? erf(a)
                                : op == 6 ? nearbyint(a)
                                : op == 7 ? (a > 0 ? 1 : a < 0 ? -1 : 0)
                                          : sin(a);
            /* fp32 steps: a few ulps; erf within its 1.5e-7; sin(40) within its reduction */
            const double tol = op == 5 ? 3e-7 : op == 8 ? 1e-5 : 2e-6 * fmax(1, fabs(want));
            ck_assert_msg(fabs(y[i] - want) <= tol, "op %d x %g: %.9g, want %.9g", op, a, y[i], want);
        }
    }
    /* in place */
    CK_OK(aclnnInplaceFloorGetWorkspaceSize(tx.t, &ws, &e));
    RUN(aclnnInplaceFloor(NULL, ws, e, nnt_stream));
    nnt_rd(&tx, y);
    for (int i = 0; i < N; i++)
        ck_assert_msg(y[i] == floorf(x[i]), "in place floor(%g) %g", x[i], y[i]);
    CK_ERR(aclnnCeluGetWorkspaceSize(tx.t, NULL, ty.t, &ws, &e), NN_NULLPTR, "alpha is NULL");
    CK_OK(aclDestroyScalar(alpha));
    CK_OK(aclDestroyScalar(lambd));
    nnt_rm(&tx);
    nnt_rm(&ty);
}
END_TEST

Suite *dv_aclnn_unary_suite(void)
{
    Suite *s = suite_create("aclnn_unary");
    TCase *tc = tcase_create("aclnn_unary");
    tcase_add_checked_fixture(tc, nnt_setup, nnt_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_aclnn_unary_calls);
    suite_add_tcase(s, tc);
    TCase *to = tcase_create("ops_unary");
    tcase_set_timeout(to, 60);
    tcase_add_loop_test(to, test_ops_unary_check, 0, (int)(4 * sizeof unary_ops / sizeof unary_ops[0]));
    suite_add_tcase(s, to);
    return s;
}
