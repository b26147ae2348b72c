/* tests/check_aclnn_act.c - the activations, unary math and backward forms of issue 19 (ops/elementwise.c step
 * tables, acl/nnops.def s19-act rows): every library operator's --check on the 910B2 and 310 profiles
 * in fp16 and fp32, with the instruction that is the heart of its formula counted; and the aclnn
 * path (out-of-place and in place, against a plain-C reference) of each row, the backward rows
 * (gradOutput and self or the forward's output), plus the scalar rows' attribute checks. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_acosh.h"
#include "aclnnop/aclnn_asinh.h"
#include "aclnnop/aclnn_atanh.h"
#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_celu.h"
#include "aclnnop/aclnn_exp2.h"
#include "aclnnop/aclnn_expm1.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_hardshrink.h"
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_log10.h"
#include "aclnnop/aclnn_log1p.h"
#include "aclnnop/aclnn_log2.h"
#include "aclnnop/aclnn_logsigmoid.h"
#include "aclnnop/aclnn_mish.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_selu.h"
#include "aclnnop/aclnn_selu_backward.h"
#include "aclnnop/aclnn_sigmoid_backward.h"
#include "aclnnop/aclnn_silu_backward.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_softshrink.h"
#include "aclnnop/aclnn_softshrink_backward.h"
#include "aclnnop/aclnn_softsign.h"
#include "aclnnop/aclnn_square.h"
#include "aclnnop/aclnn_tanh_backward.h"
#include "aclnnop/aclnn_threshold_backward.h"
#include "aclnnop/aclnn_trunc.h"
#include "dv/isa.h"
#include "support/dvt.h"
#include "support/nnt.h"

static const char *const profiles[] = {"ascend910b2", "ascend310"};

/* ---------------------------------------------------------------- the library operators */

/* Each operator and the instruction its formula cannot do without (counted > 0). */
static const struct {
    const char *name;
    dv_op_t key;
} lib[] = {
    {"hardsigmoid", DV_OP_vmins}, {"hardswish", DV_OP_vmul},  {"selu", DV_OP_vexp},    {"celu", DV_OP_vexp},
    {"mish", DV_OP_vrec},         {"softsign", DV_OP_vdiv},   {"logsigmoid", DV_OP_vln}, {"softshrink", DV_OP_vmaxs},
    {"square", DV_OP_vmul},       {"expm1", DV_OP_vexp},      {"exp2", DV_OP_vexp},    {"log1p", DV_OP_vln},
    {"log2", DV_OP_vln},          {"log10", DV_OP_vln},       {"sign", DV_OP_vmaxs},   {"floor", DV_OP_vconv},
    {"ceil", DV_OP_vconv},        {"round", DV_OP_vconv},     {"trunc", DV_OP_vconv},  {"acosh", DV_OP_vsqrt},
    {"asinh", DV_OP_vsqrt},       {"atanh", DV_OP_vdiv},      {"hardshrink", DV_OP_vmaxs},
    {"sigmoid_backward", DV_OP_vmul}, {"tanh_backward", DV_OP_vmul}, {"hardsigmoid_backward", DV_OP_vmins},
    {"threshold_backward", DV_OP_vmins}, {"softshrink_backward", DV_OP_vabs}, {"hardshrink_backward", DV_OP_vabs},
    {"selu_backward", DV_OP_vmins}, {"silu_backward", DV_OP_vexp}, {"softsign_backward", DV_OP_vdiv},
};
enum { NLIB = sizeof lib / sizeof lib[0] };

/* Loop index: (operator * 2 + profile) * 2 + dtype. */
START_TEST(test_aclnn_act_library_check)
{
    dvt_check_step_op(profiles[_i / 2 % 2], lib[_i / 4].name, _i % 2, lib[_i / 4].key);
}
END_TEST

/* celu divides by alpha; softshrink's lambd is at least 0; floor is float only; sign takes integers. */
START_TEST(test_aclnn_act_library_attributes_and_sign_int)
{
    dvt_op_t r;
    ck_assert_int_ne(dvt_op(&r, NULL, NULL, "celu --shape 64 --dtype fp32 --scalar 0", false, false), DV_OK);
    ck_assert_msg(strstr(r.err.msg, "alpha"), "%s", r.err.msg);
    dvt_op_free(&r);
    ck_assert_int_ne(dvt_op(&r, NULL, NULL, "softshrink --shape 64 --dtype fp32 --scalar -1", false, false), DV_OK);
    dvt_op_free(&r);
    ck_assert_int_ne(dvt_op(&r, NULL, NULL, "floor --shape 64 --dtype int32", false, false), DV_OK);
    dvt_op_free(&r);
    /* sign on integers: vmaxs -1, vmins 1, no conversion */
    for (int i = 0; i < 2; i++) {
        const char *cmd = i ? "sign --shape 1000 --dtype int16" : "sign --shape 1000 --dtype int32";
        ck_assert_msg(dvt_op(&r, "ascend310", NULL, cmd, true, true) == DV_OK, "%s: %s", cmd, r.err.msg);
        ck_assert_uint_eq(r.check.mismatches, 0);
        ck_assert_uint_eq(r.cnt.op_count[DV_OP_vconv], 0);
        ck_assert_uint_gt(r.cnt.op_count[DV_OP_vmins], 0);
        dvt_op_free(&r);
    }
    dvt_op_free(&r);
}
END_TEST

/* ---------------------------------------------------------------- aclnn */

enum { A_SELU, A_ACOSH, A_HSIG, A_HSWISH, A_MISH, A_SOFTSIGN, A_LOGSIG, A_SQUARE, A_EXPM1, A_EXP2, A_LOG1P, A_LOG2,
       A_LOG10, A_SIGN, A_FLOOR, A_CEIL, A_ROUND, A_TRUNC, A_ASINH, A_ATANH, A_CELU, A_SOFTSHRINK, A_COUNT };
static const struct {
    const char *name;
    float lo, hi;
    bool inplace;
} act[A_COUNT] = {
    [A_SELU] = {"Selu", -4, 4, true},        [A_ACOSH] = {"Acosh", 1.25f, 4, true},
    [A_HSIG] = {"Hardsigmoid", -4, 4, true}, [A_HSWISH] = {"Hardswish", -4, 4, true},
    [A_MISH] = {"Mish", -4, 4, true},        [A_SOFTSIGN] = {"Softsign", -4, 4, false},
    [A_LOGSIG] = {"LogSigmoid", -4, 4, false}, [A_SQUARE] = {"Square", -4, 4, false},
    [A_EXPM1] = {"Expm1", -2, 2, true},      [A_EXP2] = {"Exp2", -4, 4, true},
    [A_LOG1P] = {"Log1p", -0.5f, 4, true},   [A_LOG2] = {"Log2", 0.25f, 4, true},
    [A_LOG10] = {"Log10", 0.25f, 4, true},   [A_SIGN] = {"Sign", -4, 4, false},
    [A_FLOOR] = {"Floor", -8, 8, true},      [A_CEIL] = {"Ceil", -8, 8, true},
    [A_ROUND] = {"Round", -8, 8, true},      [A_TRUNC] = {"Trunc", -8, 8, true},
    [A_ASINH] = {"Asinh", -4, 4, true},      [A_ATANH] = {"Atanh", -0.9f, 0.9f, true},
    [A_CELU] = {"Celu", -4, 4, true},        [A_SOFTSHRINK] = {"Softshrink", -2, 2, false},
};
#define ALPHA 0.5  /* celu */
#define LAMBD 0.75 /* softshrink */

static double act_ref(int op, double x)
{
    switch (op) {
    case A_SELU: return 1.0507009873554805 * (x > 0 ? x : 1.6732632423543772 * (exp(x) - 1));
    case A_ACOSH: return acosh(x);
    case A_HSIG: return fmin(fmax(x + 3, 0), 6) / 6;
    case A_HSWISH: return x * fmin(fmax(x + 3, 0), 6) / 6;
    case A_MISH: return x * tanh(log(1 + exp(x)));
    case A_SOFTSIGN: return x / (1 + fabs(x));
    case A_LOGSIG: return -log(1 + exp(-x));
    case A_SQUARE: return x * x;
    case A_EXPM1: return expm1(x);
    case A_EXP2: return exp2(x);
    case A_LOG1P: return log1p(x);
    case A_LOG2: return log2(x);
    case A_LOG10: return log10(x);
    case A_SIGN: return (x > 0) - (x < 0);
    case A_FLOOR: return floor(x);
    case A_CEIL: return ceil(x);
    case A_ROUND: return nearbyint(x);
    case A_TRUNC: return trunc(x);
    case A_ASINH: return asinh(x);
    case A_ATANH: return atanh(x);
    case A_CELU: return x > 0 ? x : ALPHA * (exp(x / ALPHA) - 1);
    default: return x > LAMBD ? x - LAMBD : x < -LAMBD ? x + LAMBD : 0;
    }
}

/* Phase 1: out-of-place into out, or in place on x when out is NULL. */
static int act_ws(int op, aclTensor *x, aclTensor *out, const aclScalar *s, uint64_t *ws, aclOpExecutor **e)
{
#define U(api) return out ? aclnn##api##GetWorkspaceSize(x, out, ws, e) : aclnnInplace##api##GetWorkspaceSize(x, ws, e)
    switch (op) {
    case A_SELU: U(Selu);
    case A_ACOSH: U(Acosh);
    case A_HSIG: U(Hardsigmoid);
    case A_HSWISH: U(Hardswish);
    case A_MISH: U(Mish);
    case A_SOFTSIGN: return aclnnSoftsignGetWorkspaceSize(x, out, ws, e);
    case A_LOGSIG: return aclnnLogSigmoidGetWorkspaceSize(x, out, ws, e);
    case A_SQUARE: return aclnnSquareGetWorkspaceSize(x, out, ws, e);
    case A_EXPM1: U(Expm1);
    case A_EXP2: U(Exp2);
    case A_LOG1P: U(Log1p);
    case A_LOG2: U(Log2);
    case A_LOG10: U(Log10);
    case A_SIGN: return aclnnSignGetWorkspaceSize(x, out, ws, e);
    case A_FLOOR: U(Floor);
    case A_CEIL: U(Ceil);
    case A_ROUND: U(Round);
    case A_TRUNC: U(Trunc);
    case A_ASINH: U(Asinh);
    case A_ATANH: U(Atanh);
    case A_CELU: return out ? aclnnCeluGetWorkspaceSize(x, s, out, ws, e) : aclnnInplaceCeluGetWorkspaceSize(x, s, ws, e);
    default: return aclnnSoftshrinkGetWorkspaceSize(x, s, out, ws, e);
    }
#undef U
}

/* Phase 2. */
static int act_run(int op, bool inplace, uint64_t ws, aclOpExecutor *e)
{
#define U(api) return inplace ? aclnnInplace##api(NULL, ws, e, nnt_stream) : aclnn##api(NULL, ws, e, nnt_stream)
    switch (op) {
    case A_SELU: U(Selu);
    case A_ACOSH: U(Acosh);
    case A_HSIG: U(Hardsigmoid);
    case A_HSWISH: U(Hardswish);
    case A_MISH: U(Mish);
    case A_SOFTSIGN: return aclnnSoftsign(NULL, ws, e, nnt_stream);
    case A_LOGSIG: return aclnnLogSigmoid(NULL, ws, e, nnt_stream);
    case A_SQUARE: return aclnnSquare(NULL, ws, e, nnt_stream);
    case A_EXPM1: U(Expm1);
    case A_EXP2: U(Exp2);
    case A_LOG1P: U(Log1p);
    case A_LOG2: U(Log2);
    case A_LOG10: U(Log10);
    case A_SIGN: return aclnnSign(NULL, ws, e, nnt_stream);
    case A_FLOOR: U(Floor);
    case A_CEIL: U(Ceil);
    case A_ROUND: U(Round);
    case A_TRUNC: U(Trunc);
    case A_ASINH: U(Asinh);
    case A_ATANH: U(Atanh);
    case A_CELU: U(Celu);
    default: return aclnnSoftshrink(NULL, ws, e, nnt_stream);
    }
#undef U
}

/* Every row in fp32 on one profile (loop index: profile * A_COUNT + op), out-of-place on a contiguous
 * [5, 77] and, where CANN has the Inplace form, in place. */
START_TEST(test_aclnn_act_rows)
{
    const int op = _i % A_COUNT;
    nnt_setup_profile(_i / A_COUNT ? "ascend310" : NULL);
    enum { R = 5, C = 77, N = R * C };
    const int64_t dims[] = {R, C};
    float x[N], res[N];
    double want[N];
    nnt_fill(x, N, 70 + (unsigned)op, act[op].lo, act[op].hi);
    for (int i = 0; i < N; i++)
        want[i] = act_ref(op, x[i]);
    const float sv = op == A_CELU ? (float)ALPHA : (float)LAMBD;
    aclScalar *s = aclCreateScalar((void *)&sv, ACL_FLOAT);
    char what[96];
    for (int inplace = 0; inplace < 2; inplace++) {
        if (inplace && !act[op].inplace)
            continue;
        nnt_dt_t in = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, x), out = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        uint64_t ws;
        aclOpExecutor *e;
        CK_OK(act_ws(op, in.t, inplace ? NULL : out.t, s, &ws, &e));
        RUN(act_run(op, inplace, ws, e));
        nnt_rd(inplace ? &in : &out, res);
        snprintf(what, sizeof what, "aclnn%s%s on %s", inplace ? "Inplace" : "", act[op].name, profiles[_i / A_COUNT]);
        nnt_ck_close(what, res, want, N, 1e-5, 1e-5);
        nnt_rm(&in);
        nnt_rm(&out);
    }
    CK_OK(aclDestroyScalar(s));
}
END_TEST

/* ---------------------------------------------------------------- backward forms */

enum { G_SIGMOID, G_TANH, G_HSIG, G_THRESHOLD, G_SOFTSHRINK, G_HARDSHRINK, G_SELU, G_SILU, G_HARDSHRINK_FWD, G_COUNT };
static const struct {
    const char *name;
    float lo, hi; /* self / the forward's output */
} grad[G_COUNT] = {
    [G_SIGMOID] = {"SigmoidBackward", 0, 1},        [G_TANH] = {"TanhBackward", -1, 1},
    [G_HSIG] = {"HardsigmoidBackward", -6, 6},      [G_THRESHOLD] = {"ThresholdBackward", -2, 2},
    [G_SOFTSHRINK] = {"SoftshrinkBackward", -2, 2}, [G_HARDSHRINK] = {"HardshrinkBackward", -2, 2},
    [G_SELU] = {"SeluBackward", -1.7f, 4},          [G_SILU] = {"SiluBackward", -4, 4},
    [G_HARDSHRINK_FWD] = {"Hardshrink", -2, 2},
};
#define ATTR 0.5 /* threshold, lambd, lambda */

static double grad_ref(int op, double g, double v)
{
    switch (op) {
    case G_SIGMOID: return g * v * (1 - v);
    case G_TANH: return g * (1 - v * v);
    case G_HSIG: return v > -3 && v < 3 ? g / 6 : 0;
    case G_THRESHOLD: return v > ATTR ? g : 0;
    case G_SOFTSHRINK: case G_HARDSHRINK: return fabs(v) > ATTR ? g : 0;
    case G_SELU: return g * (v > 0 ? 1.0507009873554805 : v + 1.0507009873554805 * 1.6732632423543772);
    case G_SILU: { const double s = 1 / (1 + exp(-v)); return g * s * (1 + v * (1 - s)); }
    default: return fabs(v) > ATTR ? v : 0; /* hardshrink(v) */
    }
}

/* Each backward row (and Hardshrink) in fp32 on one profile (loop index: profile * G_COUNT + op); self
 * holds values exactly at the attribute and at +-3 so the strict comparisons are exercised. */
START_TEST(test_aclnn_act_backward)
{
    const int op = _i % G_COUNT;
    nnt_setup_profile(_i / G_COUNT ? "ascend310" : NULL);
    enum { N = 300 };
    const int64_t dims[] = {3, 100};
    float g[N], v[N], res[N];
    double want[N];
    nnt_fill(g, N, 90 + (unsigned)op, -2, 2);
    nnt_fill(v, N, 110 + (unsigned)op, grad[op].lo, grad[op].hi);
    if (op == G_HSIG)
        v[0] = 3, v[1] = -3;
    else if (op != G_SIGMOID && op != G_TANH && op != G_SELU && op != G_SILU)
        v[0] = (float)ATTR, v[1] = (float)-ATTR;
    for (int i = 0; i < N; i++)
        want[i] = grad_ref(op, g[i], v[i]);
    const float av = (float)ATTR;
    aclScalar *s = aclCreateScalar((void *)&av, ACL_FLOAT);
    nnt_dt_t gt = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, g), vt = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, v),
             out = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    switch (op) {
    case G_SIGMOID: CK_OK(aclnnSigmoidBackwardGetWorkspaceSize(gt.t, vt.t, out.t, &ws, &e));
        RUN(aclnnSigmoidBackward(NULL, ws, e, nnt_stream)); break;
    case G_TANH: CK_OK(aclnnTanhBackwardGetWorkspaceSize(gt.t, vt.t, out.t, &ws, &e));
        RUN(aclnnTanhBackward(NULL, ws, e, nnt_stream)); break;
    case G_HSIG: CK_OK(aclnnHardsigmoidBackwardGetWorkspaceSize(gt.t, vt.t, out.t, &ws, &e));
        RUN(aclnnHardsigmoidBackward(NULL, ws, e, nnt_stream)); break;
    case G_THRESHOLD: CK_OK(aclnnThresholdBackwardGetWorkspaceSize(gt.t, vt.t, s, out.t, &ws, &e));
        RUN(aclnnThresholdBackward(NULL, ws, e, nnt_stream)); break;
    case G_SOFTSHRINK: CK_OK(aclnnSoftshrinkBackwardGetWorkspaceSize(gt.t, vt.t, s, out.t, &ws, &e));
        RUN(aclnnSoftshrinkBackward(NULL, ws, e, nnt_stream)); break;
    case G_HARDSHRINK: CK_OK(aclnnHardshrinkBackwardGetWorkspaceSize(gt.t, vt.t, s, out.t, &ws, &e));
        RUN(aclnnHardshrinkBackward(NULL, ws, e, nnt_stream)); break;
    case G_SELU: CK_OK(aclnnSeluBackwardGetWorkspaceSize(gt.t, vt.t, out.t, &ws, &e));
        RUN(aclnnSeluBackward(NULL, ws, e, nnt_stream)); break;
    case G_SILU: CK_OK(aclnnSiluBackwardGetWorkspaceSize(gt.t, vt.t, out.t, &ws, &e));
        RUN(aclnnSiluBackward(NULL, ws, e, nnt_stream)); break;
    default: CK_OK(aclnnHardshrinkGetWorkspaceSize(vt.t, s, out.t, &ws, &e));
        RUN(aclnnHardshrink(NULL, ws, e, nnt_stream)); break;
    }
    nnt_rd(&out, res);
    char what[96];
    snprintf(what, sizeof what, "aclnn%s on %s", grad[op].name, profiles[_i / G_COUNT]);
    nnt_ck_close(what, res, want, N, 1e-5, 1e-5);
    nnt_rm(&gt);
    nnt_rm(&vt);
    nnt_rm(&out);
    CK_OK(aclDestroyScalar(s));
}
END_TEST

/* fp16 through aclnnSelu: computed in fp32, rounded once. */
START_TEST(test_aclnn_act_selu_fp16)
{
    enum { N = 256 };
    const int64_t dims[] = {N};
    float x[N];
    uint16_t h[N], got[N];
    double want[N];
    float res[N];
    nnt_fill(x, N, 9, -4, 4);
    nnt_to_f16(x, h, N);
    for (int i = 0; i < N; i++) {
        x[i] = nnt_f16r(x[i]);
        want[i] = act_ref(A_SELU, x[i]);
    }
    nnt_dt_t in = nnt_mk(dims, 1, ACL_FLOAT16, ACL_FORMAT_ND, h), out = nnt_mk(dims, 1, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnSeluGetWorkspaceSize(in.t, out.t, &ws, &e));
    RUN(aclnnSelu(NULL, ws, e, nnt_stream));
    nnt_rd(&out, got);
    for (int i = 0; i < N; i++) { /* fp16 -> fp32, exact */
        const uint32_t sgn = (uint32_t)(got[i] >> 15) << 31, ex = got[i] >> 10 & 31, man = got[i] & 1023;
        ck_assert_msg(ex != 31, "element %d is not finite", i);
        res[i] = ex ? (sgn ? -1.0f : 1.0f) * ldexpf((float)(man | 1024), (int)ex - 25)
                    : (sgn ? -1.0f : 1.0f) * ldexpf((float)man, -24);
    }
    nnt_ck_close("aclnnSelu fp16", res, want, N, 1e-3, 1e-3);
    nnt_rm(&in);
    nnt_rm(&out);
}
END_TEST

/* The attribute rows' bad input: a NULL scalar (161001), celu's alpha 0 and a negative lambd
 * (161002, the library's message). */
START_TEST(test_aclnn_act_attribute_errors)
{
    const int64_t dims[] = {64};
    nnt_dt_t x = nnt_mk(dims, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL), y = nnt_mk(dims, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_ERR(aclnnCeluGetWorkspaceSize(x.t, NULL, y.t, &ws, &e), NN_NULLPTR, "alpha");
    CK_ERR(aclnnSoftshrinkGetWorkspaceSize(x.t, NULL, y.t, &ws, &e), NN_NULLPTR, "lambd");
    const float zero = 0, neg = -1;
    aclScalar *z = aclCreateScalar((void *)&zero, ACL_FLOAT), *n = aclCreateScalar((void *)&neg, ACL_FLOAT);
    CK_ERR(aclnnCeluGetWorkspaceSize(x.t, z, y.t, &ws, &e), NN_INVALID, "alpha");
    ck_assert_int_ne(aclnnSoftshrinkGetWorkspaceSize(x.t, n, y.t, &ws, &e), 0);
    CK_OK(aclDestroyScalar(z));
    CK_OK(aclDestroyScalar(n));
    nnt_rm(&x);
    nnt_rm(&y);
}
END_TEST

Suite *dv_aclnn_act_suite(void);
Suite *dv_aclnn_act_suite(void)
{
    Suite *s = suite_create("aclnn_act");
    TCase *tl = tcase_create("library");
    tcase_set_timeout(tl, 60);
    tcase_add_loop_test(tl, test_aclnn_act_library_check, 0, NLIB * 4);
    tcase_add_test(tl, test_aclnn_act_library_attributes_and_sign_int);
    suite_add_tcase(s, tl);
    TCase *tc = tcase_create("aclnn");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, NULL, nnt_teardown);
    tcase_add_loop_test(tc, test_aclnn_act_rows, 0, 2 * A_COUNT);
    tcase_add_loop_test(tc, test_aclnn_act_backward, 0, 2 * G_COUNT);
    suite_add_tcase(s, tc);
    TCase *te = tcase_create("aclnn_default");
    tcase_add_checked_fixture(te, nnt_setup, nnt_teardown);
    tcase_add_test(te, test_aclnn_act_selu_fp16);
    tcase_add_test(te, test_aclnn_act_attribute_errors);
    suite_add_tcase(s, te);
    return s;
}
