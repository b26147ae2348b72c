/* tests/check_aclnn_ew2.c - element-wise math and activations, second round (s20-ew2: ops/elementwise.c step
 * tables, acl/nnops.def s20-ew2 rows): every new library operator's --check on the 910B2 and 310 profiles in
 * fp16 and fp32 with the instruction at the heart of its formula counted; pows' exponent classes; the
 * aclnn rows (out-of-place and in place) against plain C, the edge values the branch-free formulas must get
 * right (atan2's axes, sinc at 0, asin at +-1, pow's signs, zeros and NaNs, hardswish_backward at +-3), and
 * the rows' bad input. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_acos.h"
#include "aclnnop/aclnn_addcdiv.h"
#include "aclnnop/aclnn_addcmul.h"
#include "aclnnop/aclnn_hard_shrink.h"
#include "aclnnop/aclnn_hardshrink.h"
#include "aclnnop/aclnn_x_log_y_scalar_other.h"
#include "aclnnop/aclnn_x_log_y_scalar_self.h"
#include "aclnnop/aclnn_acos_v2.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_erfinv.h"
#include "aclnnop/aclnn_elu_v2.h"
#include "aclnnop/aclnn_hardtanh_backward.h"
#include "aclnnop/aclnn_heaviside.h"
#include "aclnnop/aclnn_logaddexp.h"
#include "aclnnop/aclnn_logaddexp2.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "aclnnop/aclnn_tan_v2.h"
#include "aclnnop/aclnn_lerp_tensor.h"
#include "aclnnop/aclnn_lerp_scalar.h"
#include "aclnnop/aclnn_asin_grad.h"
#include "aclnnop/aclnn_acos_grad.h"
#include "aclnnop/aclnn_acos_grad_v2.h"
#include "aclnnop/aclnn_acosh_grad.h"
#include "aclnnop/aclnn_asinh_grad.h"
#include "aclnnop/aclnn_rsqrt_grad.h"
#include "aclnnop/aclnn_sqrt_backward.h"
#include "aclnnop/aclnn_asinh_v2.h"
#include "aclnnop/aclnn_ceil_v2.h"
#include "aclnnop/aclnn_cosh_v2.h"
#include "aclnnop/aclnn_sinh_v2.h"
#include "aclnnop/aclnn_square_v2.h"
#include "aclnnop/aclnn_trunc_v2.h"
#include "aclnnop/aclnn_log1p_v2.h"
#include "aclnnop/aclnn_inv.h"
#include "aclnnop/aclnn_add_relu.h"
#include "aclnnop/aclnn_elu_backward.h"
#include "aclnnop/aclnn_elu_grad.h"
#include "aclnnop/aclnn_celu_v2.h"
#include "aclnnop/aclnn_celu_v3.h"
#include "aclnnop/aclnn_hardsigmoid_v2.h"
#include "aclnnop/aclnn_hard_swish_v2.h"
#include "aclnnop/aclnn_leakyrelu_v2.h"
#include "aclnnop/aclnn_logsigmoid_v2.h"
#include "aclnnop/aclnn_softsign_backward.h"
#include "aclnnop/aclnn_tanh_grad.h"
#include "aclnnop/aclnn_hard_shrink_grad.h"
#include "aclnnop/aclnn_hard_sigmoid_grad_v2.h"
#include "aclnnop/aclnn_tan_v3.h"
#include "aclnnop/aclnn_erf_inv.h"
#include "aclnnop/aclnn_threshold.h"
#include "aclnnop/aclnn_x_log_y_tensor.h"
#include "aclnnop/aclnn_asin.h"
#include "aclnnop/aclnn_atan.h"
#include "aclnnop/aclnn_atan2.h"
#include "aclnnop/aclnn_fast_gelu.h"
#include "aclnnop/aclnn_gelu_backward.h"
#include "aclnnop/aclnn_hardswish_backward.h"
#include "aclnnop/aclnn_leaky_relu_backward.h"
#include "aclnnop/aclnn_logsigmoid_backward.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_sinc.h"
#include "aclnnop/aclnn_swish.h"
#include "aclnnop/aclnn_swish_backward.h"
#include "aclnnop/aclnn_tan.h"
#include "dv/isa.h"
#include "support/dvt.h"
#include "support/nnt.h"

static const char *const profiles[] = {"ascend910b2", "ascend310"};

/* ---------------------------------------------------------------- the library operators */

static const struct {
    const char *cmd;
    dv_op_t key;
} lib[] = {
    {"atan", DV_OP_vsqrt},          {"asin", DV_OP_vsqrt},          {"acos", DV_OP_vsqrt},
    {"tan", DV_OP_vdiv},            {"sinc", DV_OP_vconv},          {"fast_gelu", DV_OP_vexp},
    {"swish --scalar 1.5", DV_OP_vexp}, {"pows --scalar 2.5", DV_OP_vln}, {"pow", DV_OP_vln},
    {"atan2", DV_OP_vsqrt},         {"gelu_backward", DV_OP_vrec},  {"hardswish_backward", DV_OP_vmins},
    {"mish_backward", DV_OP_vrec},  {"logsigmoid_backward", DV_OP_vexp}, {"swish_backward --scalar 0.75", DV_OP_vrec},
    {"leaky_relu_backward --scalar 0.2", DV_OP_vmins},
    {"threshold --threshold 0.25 --value -3", DV_OP_vmins}, {"hardtanh_backward --min -0.5 --max 1", DV_OP_vmins},
    {"elu --alpha 0.5 --scale 2 --input-scale 1.5", DV_OP_vexp}, {"softplus --beta 2 --threshold 5", DV_OP_vln},
    {"softplus_backward --beta 0.5 --threshold 4", DV_OP_vrec}, {"log_add_exp", DV_OP_vln},
    {"log_add_exp2", DV_OP_vln}, {"xlogy", DV_OP_vln}, {"heaviside", DV_OP_vmins},
    {"addcmul --scalar 1.25", DV_OP_vmuls}, {"addcdiv --scalar -0.75", DV_OP_vdiv},
    {"xlogy_scalar_other --scalar 3", DV_OP_vln}, {"xlogy_scalar_self --scalar -2", DV_OP_vln},
    {"erfinv", DV_OP_vsqrt}, {"lerp", DV_OP_vsub}, {"lerps --scalar 0.25", DV_OP_vmuls},
    {"asin_backward", DV_OP_vsqrt}, {"acos_backward", DV_OP_vsqrt}, {"acosh_backward", DV_OP_vexp},
    {"asinh_backward", DV_OP_vexp}, {"rsqrt_backward", DV_OP_vmul}, {"sqrt_backward", DV_OP_vdiv},
    {"add_relu --scalar 0.5", DV_OP_vmaxs}, {"elu_backward --alpha 0.5 --scale 2", DV_OP_vexp},
    {"elu_backward_result --input-scale 1.5", DV_OP_vmins},
};
enum { NLIB = sizeof lib / sizeof lib[0] };

/* Loop index: (operator * 2 + profile) * 2 + dtype. */
START_TEST(test_aclnn_ew2_library_check)
{
    dvt_check_step_op(profiles[_i / 2 % 2], lib[_i / 4].cmd, _i % 2, lib[_i / 4].key);
}
END_TEST

/* pows picks its steps by the exponent: 0 fills 1 (vdup, no vln), the small whole ones and +-0.5 are
 * products, vsqrt, vrsqrt, vrec (no vln); the others exp(p ln |x|) (negative bases for whole p). */
START_TEST(test_aclnn_ew2_pows_exponent_classes)
{
    static const struct {
        const char *p;
        dv_op_t key;
        bool ln;
    } cls[] = {{"0", DV_OP_vdup, false},     {"1", DV_OP_vmuls, false},    {"2", DV_OP_vmul, false},
               {"3", DV_OP_vmul, false},     {"0.5", DV_OP_vsqrt, false},  {"-0.5", DV_OP_vrsqrt, false},
               {"-1", DV_OP_vrec, false},    {"-2", DV_OP_vrec, false},    {"5", DV_OP_vln, true},
               {"4", DV_OP_vln, true},       {"-3", DV_OP_vln, true},      {"0.3", DV_OP_vln, true},
               {"-1.75", DV_OP_vln, true}};
    for (size_t i = 0; i < sizeof cls / sizeof cls[0]; i++) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "pows --shape 777 --dtype fp32 --scalar %s", cls[i].p);
        dvt_op_t r;
        ck_assert_msg(dvt_op(&r, NULL, NULL, cmd, true, true) == DV_OK, "%s: %s", cmd, r.err.msg);
        ck_assert_msg(r.check.mismatches == 0, "%s: %llu mismatches", cmd, (unsigned long long)r.check.mismatches);
        ck_assert_msg(r.cnt.op_count[cls[i].key] > 0, "%s: no %s", cmd, dv_op_spec(cls[i].key)->mnemonic);
        ck_assert_msg((r.cnt.op_count[DV_OP_vln] > 0) == cls[i].ln, "%s: vln %s expected", cmd, cls[i].ln ? "" : "not");
        dvt_op_free(&r);
    }
}
END_TEST

/* ---------------------------------------------------------------- aclnn: the unary rows */

enum { U_TAN, U_ASIN, U_ACOS, U_ATAN, U_SINC, U_FAST_GELU, U_SWISH, U_SWISH_NULL, U_POW3, U_POWH, U_ERFINV, U_COUNT };
static const struct {
    const char *name;
    float lo, hi;
    bool inplace;
} un[U_COUNT] = {
    [U_TAN] = {"Tan", -1.3f, 1.3f, true},         [U_ASIN] = {"Asin", -1, 1, true},
    [U_ACOS] = {"Acos", -1, 1, true},             [U_ATAN] = {"Atan", -50, 50, true},
    [U_SINC] = {"Sinc", -5, 5, true},             [U_FAST_GELU] = {"FastGelu", -6, 6, false},
    [U_SWISH] = {"Swish", -6, 6, false},          [U_SWISH_NULL] = {"Swish (beta NULL)", -6, 6, false},
    [U_POW3] = {"PowTensorScalar 3", -3, 3, true}, [U_POWH] = {"PowTensorScalar 2.5", 0, 4, true},
    [U_ERFINV] = {"Erfinv", -0.9999f, 0.9999f, true},
};
#define BETA 1.5

static double un_ref(int op, double x)
{
    switch (op) {
    case U_TAN: return tan(x);
    case U_ASIN: return asin(x);
    case U_ACOS: return acos(x);
    case U_ATAN: return atan(x);
    case U_SINC: return x == 0 ? 1 : sin(3.14159265358979323846 * x) / (3.14159265358979323846 * x);
    case U_FAST_GELU: return x / (1 + exp(-1.702 * x));
    case U_SWISH: return x / (1 + exp(-BETA * x));
    case U_SWISH_NULL: return x / (1 + exp(-x));
    case U_POW3: return x * x * x;
    case U_POWH: return pow(x, 2.5);
    default: { /* erfinv by bisection on erf, to double precision: independent of the kernel's polynomials */
        double lo = -6, hi = 6;
        for (int i = 0; i < 200; i++) {
            const double mid = (lo + hi) / 2;
            *(erf(mid) < x ? &lo : &hi) = mid;
        }
        return (lo + hi) / 2;
    }
    }
}

static int un_ws(int op, aclTensor *x, aclTensor *out, uint64_t *ws, aclOpExecutor **e)
{
    const float beta = (float)BETA, p3 = 3, ph = 2.5f;
    aclScalar *s = aclCreateScalar((void *)(op == U_POW3 ? &p3 : op == U_POWH ? &ph : &beta), ACL_FLOAT);
    int rc;
#define U(api) rc = out ? aclnn##api##GetWorkspaceSize(x, out, ws, e) : aclnnInplace##api##GetWorkspaceSize(x, ws, e)
    switch (op) {
    case U_TAN: U(Tan); break;
    case U_ASIN: U(Asin); break;
    case U_ACOS: U(Acos); break;
    case U_ATAN: U(Atan); break;
    case U_SINC: U(Sinc); break;
    case U_FAST_GELU: rc = aclnnFastGeluGetWorkspaceSize(x, out, ws, e); break;
    case U_SWISH: rc = aclnnSwishGetWorkspaceSize(x, s, out, ws, e); break;
    case U_SWISH_NULL: rc = aclnnSwishGetWorkspaceSize(x, NULL, out, ws, e); break;
    case U_ERFINV: U(Erfinv); break;
    default:
        rc = out ? aclnnPowTensorScalarGetWorkspaceSize(x, s, out, ws, e)
                 : aclnnInplacePowTensorScalarGetWorkspaceSize(x, s, ws, e);
        break;
    }
#undef U
    aclDestroyScalar(s);
    return rc;
}

static int un_run(int op, bool inplace, uint64_t ws, aclOpExecutor *e)
{
#define U(api) return inplace ? aclnnInplace##api(NULL, ws, e, nnt_stream) : aclnn##api(NULL, ws, e, nnt_stream)
    switch (op) {
    case U_TAN: U(Tan);
    case U_ASIN: U(Asin);
    case U_ACOS: U(Acos);
    case U_ATAN: U(Atan);
    case U_SINC: U(Sinc);
    case U_FAST_GELU: return aclnnFastGelu(NULL, ws, e, nnt_stream);
    case U_SWISH: case U_SWISH_NULL: return aclnnSwish(NULL, ws, e, nnt_stream);
    case U_ERFINV: U(Erfinv);
    default: U(PowTensorScalar);
    }
#undef U
}

/* Each row in fp32 (loop index: profile * U_COUNT + op), out-of-place on [5, 77] and in place where CANN has
 * the form; the inputs include the edge values of the formulas. */
START_TEST(test_aclnn_ew2_unary_rows)
{
    const int op = _i % U_COUNT;
    nnt_setup_profile(_i / U_COUNT ? "ascend310" : NULL);
    enum { R = 5, C = 77, N = R * C };
    const int64_t dims[] = {R, C};
    float x[N], res[N];
    double want[N];
    nnt_fill(x, N, 300 + (unsigned)op, un[op].lo, un[op].hi);
    x[0] = 0;
    if (op == U_ASIN || op == U_ACOS)
        x[1] = 1, x[2] = -1;
    if (op == U_ATAN)
        x[1] = 1e30f, x[2] = -3e38f, x[3] = 1e-30f;
    if (op == U_SINC)
        x[1] = 1, x[2] = -2, x[3] = 1e-20f;
    if (op == U_ERFINV) /* +-1 are +-inf, beyond them NaN (checked below) */
        x[1] = 1, x[2] = -1, x[3] = 1.5f;
    for (int i = 0; i < N; i++)
        want[i] = un_ref(op, x[i]);
    char what[96];
    for (int inplace = 0; inplace < 2; inplace++) {
        if (inplace && !un[op].inplace)
            continue;
        nnt_dt_t in = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, x), out = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        uint64_t ws;
        aclOpExecutor *e;
        CK_OK(un_ws(op, in.t, inplace ? NULL : out.t, &ws, &e));
        RUN(un_run(op, inplace, ws, e));
        nnt_rd(inplace ? &in : &out, res);
        snprintf(what, sizeof what, "aclnn%s%s on %s", inplace ? "Inplace" : "", un[op].name, profiles[_i / U_COUNT]);
        if (op == U_ERFINV) {
            ck_assert_msg(isinf(res[1]) && res[1] > 0 && isinf(res[2]) && res[2] < 0 && isnan(res[3]),
                          "%s: erfinv(1, -1, 1.5) is %g, %g, %g", what, res[1], res[2], res[3]);
            for (int i = 1; i < 4; i++)
                res[i] = 0, want[i] = 0;
        }
        nnt_ck_close(what, res, want, N, 2e-5, 2e-5);
        nnt_rm(&in);
        nnt_rm(&out);
    }
}
END_TEST

/* ---------------------------------------------------------------- aclnn: the two-input rows */

enum { B_ATAN2, B_POW, B_GELU, B_HSWISH, B_MISH, B_LOGSIG, B_SWISH, B_SWISH_NULL, B_LEAKY, B_LEAKY_RES, B_COUNT };
static const char *const bname[B_COUNT] = {"Atan2", "PowTensorTensor", "GeluBackward", "HardswishBackward",
                                           "MishBackward", "LogSigmoidBackward", "SwishBackward",
                                           "SwishBackward (beta NULL)", "LeakyReluBackward",
                                           "LeakyReluBackward (selfIsResult)"};
#define SLOPE 0.2

static double bin_ref(int op, double a, double v)
{
    switch (op) {
    case B_ATAN2: return atan2(a, v);
    case B_POW: return pow(a, v);
    case B_GELU: {
        const double k = 1.5957691216057308, c = 0.044715, s = 1 / (1 + exp(-k * (v + c * v * v * v)));
        return a * (s + v * s * (1 - s) * k * (1 + 3 * c * v * v));
    }
    case B_HSWISH: return v < -3 ? 0 : v > 3 ? a : a * (v / 3 + 0.5);
    case B_MISH: {
        const double t = tanh(log1p(exp(v)));
        return a * (t + v * (1 - t * t) / (1 + exp(-v)));
    }
    case B_LOGSIG: return a / (1 + exp(v));
    case B_SWISH: case B_SWISH_NULL: {
        const double b = op == B_SWISH ? BETA : 1, s = 1 / (1 + exp(-b * v));
        return a * (s + b * v * s * (1 - s));
    }
    default: return v > 0 ? a : a * SLOPE;
    }
}

/* Loop index: profile * B_COUNT + op.  a: self (atan2, pow) or the gradient; v: other / the exponent / self. */
START_TEST(test_aclnn_ew2_binary_rows)
{
    const int op = _i % B_COUNT;
    nnt_setup_profile(_i / B_COUNT ? "ascend310" : NULL);
    enum { N = 400 };
    const int64_t dims[] = {4, 100};
    float a[N], v[N], res[N];
    double want[N];
    nnt_fill(a, N, 400 + (unsigned)op, op == B_POW ? 0.25f : -2, op == B_POW ? 4 : 2);
    nnt_fill(v, N, 500 + (unsigned)op, -5, 5);
    if (op == B_ATAN2) { /* the axes and the origin */
        static const float pts[][2] = {{0, 0}, {0, -1}, {0, 2}, {1, 0}, {-1, 0}, {-3, -3}, {3, -1e-30f}, {1e-30f, -3}};
        for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++)
            a[i] = pts[i][0], v[i] = pts[i][1];
    } else if (op == B_POW) { /* negative bases, zeros, whole and fractional exponents */
        static const float pts[][2] = {{-2, 3}, {-2, 2}, {-2, -1}, {-2, 0.5f}, {0, 0}, {0, -1}, {0, 2}, {-1.5f, 0},
                                       {3, 0}, {-0.5f, -3}, {-3, 4}, {2, 10}};
        for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++)
            a[i] = pts[i][0], v[i] = pts[i][1];
        for (int i = 12; i < N; i++) /* the exponents in [-3, 3) */
            v[i] = v[i] * 0.6f;
    } else if (op == B_HSWISH) {
        v[0] = 3, v[1] = -3, v[2] = 0;
    } else if (op == B_LEAKY || op == B_LEAKY_RES) {
        v[0] = 0;
    }
    for (int i = 0; i < N; i++)
        want[i] = bin_ref(op, a[i], v[i]);
    const float beta = (float)BETA, slope = (float)SLOPE;
    aclScalar *sb = aclCreateScalar((void *)&beta, ACL_FLOAT), *ss = aclCreateScalar((void *)&slope, ACL_FLOAT);
    nnt_dt_t at = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, a), vt = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, v),
             buf = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), out = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    switch (op) {
    case B_ATAN2: CK_OK(aclnnAtan2GetWorkspaceSize(at.t, vt.t, out.t, &ws, &e));
        RUN(aclnnAtan2(NULL, ws, e, nnt_stream)); break;
    case B_POW: CK_OK(aclnnPowTensorTensorGetWorkspaceSize(at.t, vt.t, out.t, &ws, &e));
        RUN(aclnnPowTensorTensor(NULL, ws, e, nnt_stream)); break;
    case B_GELU: CK_OK(aclnnGeluBackwardGetWorkspaceSize(at.t, vt.t, out.t, &ws, &e));
        RUN(aclnnGeluBackward(NULL, ws, e, nnt_stream)); break;
    case B_HSWISH: CK_OK(aclnnHardswishBackwardGetWorkspaceSize(at.t, vt.t, out.t, &ws, &e));
        RUN(aclnnHardswishBackward(NULL, ws, e, nnt_stream)); break;
    case B_MISH: CK_OK(aclnnMishBackwardGetWorkspaceSize(at.t, vt.t, out.t, &ws, &e));
        RUN(aclnnMishBackward(NULL, ws, e, nnt_stream)); break;
    case B_LOGSIG: CK_OK(aclnnLogSigmoidBackwardGetWorkspaceSize(at.t, vt.t, buf.t, out.t, &ws, &e));
        RUN(aclnnLogSigmoidBackward(NULL, ws, e, nnt_stream)); break;
    case B_SWISH: case B_SWISH_NULL:
        CK_OK(aclnnSwishBackwardGetWorkspaceSize(at.t, vt.t, op == B_SWISH ? sb : NULL, out.t, &ws, &e));
        RUN(aclnnSwishBackward(NULL, ws, e, nnt_stream)); break;
    default: CK_OK(aclnnLeakyReluBackwardGetWorkspaceSize(at.t, vt.t, ss, op == B_LEAKY_RES, out.t, &ws, &e));
        RUN(aclnnLeakyReluBackward(NULL, ws, e, nnt_stream)); break;
    }
    nnt_rd(&out, res);
    if (op == B_POW) { /* NaN where NaN is due; compare the rest */
        ck_assert_msg(isnan(res[3]), "(-2)^0.5 is %g, not NaN", res[3]);
        ck_assert_msg(isinf(res[5]) && res[5] > 0, "0^-1 is %g, not inf", res[5]);
        res[3] = 0, want[3] = 0, res[5] = 0, want[5] = 0;
    }
    char what[96];
    snprintf(what, sizeof what, "aclnn%s on %s", bname[op], profiles[_i / B_COUNT]);
    nnt_ck_close(what, res, want, N, 2e-5, 2e-5);
    if (op == B_ATAN2 || op == B_POW || op == B_HSWISH)
        for (int i = 0; i < 8; i++) /* the edge values exactly where the formula is exact */
            ck_assert_msg(op != B_POW || i == 3 || i == 5 || i == 7 || res[i] == (float)want[i],
                          "%s: element %d is %.9g, not %.9g", what, i, res[i], want[i]);
    nnt_rm(&at);
    nnt_rm(&vt);
    nnt_rm(&buf);
    nnt_rm(&out);
    CK_OK(aclDestroyScalar(sb));
    CK_OK(aclDestroyScalar(ss));
}
END_TEST

/* ---------------------------------------------------------------- aclnn: the rows with attributes, V2 */

enum { M_THRESHOLD, M_THRESHOLD_IN, M_HARDTANH_BW, M_ELU, M_ELU_IN, M_ELU_V2, M_SOFTPLUS, M_SOFTPLUS_BW, M_LAE,
       M_LAE2, M_XLOGY, M_XLOGY_IN, M_HEAVISIDE, M_TAN_V2, M_ACOS_V2, M_XLOGY_SO, M_XLOGY_SS, M_TAN_V3, M_ERF_INV, M_COUNT };
static const char *const mname[M_COUNT] = {"Threshold", "InplaceThreshold", "HardtanhBackward", "Elu", "InplaceElu",
                                           "EluV2", "Softplus", "SoftplusBackward", "LogAddExp", "LogAddExp2",
                                           "XLogYTensor", "InplaceXLogYTensor", "Heaviside", "TanV2", "AcosV2",
                                           "XLogYScalarOther", "XLogYScalarSelf", "TanV3", "ErfInv"};
/* the attributes: threshold / min / alpha / beta, value / max / scale / threshold, inputScale */
static const float mattr[M_COUNT][3] = {
    [M_THRESHOLD] = {0.5f, -7}, [M_THRESHOLD_IN] = {-0.25f, 9}, [M_HARDTANH_BW] = {-0.5f, 1.25f},
    [M_ELU] = {0.5f, 2, 1.5f},  [M_ELU_IN] = {1, 1, 1},         [M_ELU_V2] = {1.5f, 0.5f, 2},
    [M_SOFTPLUS] = {2, 5},      [M_SOFTPLUS_BW] = {0.5f, 4}, [M_XLOGY_SO] = {2.5f}, [M_XLOGY_SS] = {-1.5f}};

static double m_ref(int op, double a, double b)
{
    const float *p = mattr[op];
    switch (op) {
    case M_THRESHOLD: case M_THRESHOLD_IN: return a > p[0] ? a : p[1];
    case M_HARDTANH_BW: return b > p[0] && b < p[1] ? a : 0;
    case M_ELU: case M_ELU_IN: case M_ELU_V2: return a > 0 ? p[1] * a : p[1] * p[0] * expm1(p[2] * a);
    case M_SOFTPLUS: return p[0] * a > p[1] ? a : log1p(exp(p[0] * a)) / p[0];
    case M_SOFTPLUS_BW: return p[0] * b > p[1] ? a : a / (1 + exp(-p[0] * b));
    case M_LAE: return fmax(a, b) + log1p(exp(-fabs(a - b)));
    case M_LAE2: return fmax(a, b) + log2(1 + exp2(-fabs(a - b)));
    case M_XLOGY: case M_XLOGY_IN: return a == 0 ? 0 : a * log(b);
    case M_HEAVISIDE: return a > 0 ? 1 : a < 0 ? 0 : b;
    case M_TAN_V2: case M_TAN_V3: return tan(a);
    case M_ERF_INV: {
        double lo = -6, hi = 6;
        for (int i = 0; i < 200; i++) {
            const double mid = (lo + hi) / 2;
            *(erf(mid) < a ? &lo : &hi) = mid;
        }
        return (lo + hi) / 2;
    }
    case M_XLOGY_SO: return a == 0 ? 0 : a * log(p[0]);
    case M_XLOGY_SS: return p[0] * log(b);
    default: return acos(a);
    }
}

/* Loop index: profile * M_COUNT + op.  a: self or the gradient; b: other / values / self; the edge values: a at
 * the threshold, self at the bounds, x = 0 for xlogy and heaviside. */
START_TEST(test_aclnn_ew2_attribute_rows)
{
    const int op = _i % M_COUNT;
    nnt_setup_profile(_i / M_COUNT ? "ascend310" : NULL);
    enum { N = 300 };
    const int64_t dims[] = {3, 100};
    float a[N], b[N], res[N];
    double want[N];
    const bool wide = op == M_SOFTPLUS || op == M_SOFTPLUS_BW;
    nnt_fill(a, N, 600 + (unsigned)op, op == M_ACOS_V2 || op == M_ERF_INV ? -0.999f : wide ? -8 : -3,
              op == M_ACOS_V2 || op == M_ERF_INV ? 0.999f : wide ? 8 : 3);
    nnt_fill(b, N, 700 + (unsigned)op, op == M_XLOGY || op == M_XLOGY_IN || op == M_XLOGY_SS ? 0.1f : wide ? -8 : -3, wide ? 8 : 3);
    if (op == M_TAN_V2 || op == M_TAN_V3)
        for (int i = 0; i < N; i++)
            a[i] *= 0.4f;
    a[0] = mattr[op][0], b[0] = mattr[op][0], b[1] = mattr[op][1], a[2] = 0, b[3] = 0;
    if (op == M_XLOGY || op == M_XLOGY_IN || op == M_XLOGY_SS) /* 0 ln 0 is 0; keep the others finite */
        b[1] = 1, b[3] = 2;
    if (op == M_XLOGY_SS) /* ln of a negative is NaN: not compared here */
        b[0] = 0.5f;
    for (int i = 0; i < N; i++)
        want[i] = m_ref(op, a[i], b[i]);
    aclScalar *sc[3];
    for (int i = 0; i < 3; i++)
        sc[i] = aclCreateScalar((void *)&mattr[op][i], ACL_FLOAT);
    nnt_dt_t at = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, a), bt = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, b),
             out = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    bool inplace = false;
    switch (op) {
    case M_THRESHOLD: CK_OK(aclnnThresholdGetWorkspaceSize(at.t, sc[0], sc[1], out.t, &ws, &e));
        RUN(aclnnThreshold(NULL, ws, e, nnt_stream)); break;
    case M_THRESHOLD_IN: CK_OK(aclnnInplaceThresholdGetWorkspaceSize(at.t, sc[0], sc[1], &ws, &e));
        RUN(aclnnInplaceThreshold(NULL, ws, e, nnt_stream)); inplace = true; break;
    case M_HARDTANH_BW: CK_OK(aclnnHardtanhBackwardGetWorkspaceSize(at.t, bt.t, sc[0], sc[1], out.t, &ws, &e));
        RUN(aclnnHardtanhBackward(NULL, ws, e, nnt_stream)); break;
    case M_ELU: CK_OK(aclnnEluGetWorkspaceSize(at.t, sc[0], sc[1], sc[2], out.t, &ws, &e));
        RUN(aclnnElu(NULL, ws, e, nnt_stream)); break;
    case M_ELU_IN: CK_OK(aclnnInplaceEluGetWorkspaceSize(at.t, sc[0], sc[1], sc[2], &ws, &e));
        RUN(aclnnInplaceElu(NULL, ws, e, nnt_stream)); inplace = true; break;
    case M_ELU_V2: CK_OK(aclnnEluV2GetWorkspaceSize(at.t, sc[0], sc[1], sc[2], out.t, &ws, &e));
        RUN(aclnnEluV2(NULL, ws, e, nnt_stream)); break;
    case M_SOFTPLUS: CK_OK(aclnnSoftplusGetWorkspaceSize(at.t, sc[0], sc[1], out.t, &ws, &e));
        RUN(aclnnSoftplus(NULL, ws, e, nnt_stream)); break;
    case M_SOFTPLUS_BW: CK_OK(aclnnSoftplusBackwardGetWorkspaceSize(at.t, bt.t, sc[0], sc[1], out.t, &ws, &e));
        RUN(aclnnSoftplusBackward(NULL, ws, e, nnt_stream)); break;
    case M_LAE: CK_OK(aclnnLogAddExpGetWorkspaceSize(at.t, bt.t, out.t, &ws, &e));
        RUN(aclnnLogAddExp(NULL, ws, e, nnt_stream)); break;
    case M_LAE2: CK_OK(aclnnLogAddExp2GetWorkspaceSize(at.t, bt.t, out.t, &ws, &e));
        RUN(aclnnLogAddExp2(NULL, ws, e, nnt_stream)); break;
    case M_XLOGY: CK_OK(aclnnXLogYTensorGetWorkspaceSize(at.t, bt.t, out.t, &ws, &e));
        RUN(aclnnXLogYTensor(NULL, ws, e, nnt_stream)); break;
    case M_XLOGY_IN: CK_OK(aclnnInplaceXLogYTensorGetWorkspaceSize(at.t, bt.t, &ws, &e));
        RUN(aclnnInplaceXLogYTensor(NULL, ws, e, nnt_stream)); inplace = true; break;
    case M_HEAVISIDE: CK_OK(aclnnHeavisideGetWorkspaceSize(at.t, bt.t, out.t, &ws, &e));
        RUN(aclnnHeaviside(NULL, ws, e, nnt_stream)); break;
    case M_TAN_V2: CK_OK(aclnnTanV2GetWorkspaceSize(at.t, out.t, &ws, &e));
        RUN(aclnnTanV2(NULL, ws, e, nnt_stream)); break;
    case M_TAN_V3: CK_OK(aclnnTanV3GetWorkspaceSize(at.t, out.t, &ws, &e));
        RUN(aclnnTanV3(NULL, ws, e, nnt_stream)); break;
    case M_ERF_INV: CK_OK(aclnnErfInvGetWorkspaceSize(at.t, out.t, &ws, &e));
        RUN(aclnnErfInv(NULL, ws, e, nnt_stream)); break;
    case M_XLOGY_SO: CK_OK(aclnnXLogYScalarOtherGetWorkspaceSize(at.t, sc[0], out.t, &ws, &e));
        RUN(aclnnXLogYScalarOther(NULL, ws, e, nnt_stream)); break;
    case M_XLOGY_SS: CK_OK(aclnnXLogYScalarSelfGetWorkspaceSize(sc[0], bt.t, out.t, &ws, &e));
        RUN(aclnnXLogYScalarSelf(NULL, ws, e, nnt_stream)); break;
    default: CK_OK(aclnnAcosV2GetWorkspaceSize(at.t, out.t, &ws, &e));
        RUN(aclnnAcosV2(NULL, ws, e, nnt_stream)); break;
    }
    nnt_rd(inplace ? &at : &out, res);
    char what[96];
    snprintf(what, sizeof what, "aclnn%s on %s", mname[op], profiles[_i / M_COUNT]);
    nnt_ck_close(what, res, want, N, 2e-5, 2e-5);
    for (int i = 0; i < 4; i++) /* the edge values are exact where the formula selects */
        ck_assert_msg(op >= M_ELU && op != M_HARDTANH_BW && op != M_XLOGY && op != M_XLOGY_IN && op != M_HEAVISIDE &&
                          op != M_XLOGY_SO
                          ? true : res[i] == (float)want[i], "%s: element %d is %.9g, not %.9g", what, i, res[i], want[i]);
    nnt_rm(&at);
    nnt_rm(&bt);
    nnt_rm(&out);
    for (int i = 0; i < 3; i++)
        CK_OK(aclDestroyScalar(sc[i]));
}
END_TEST

/* Addcmul and Addcdiv (loop index: profile * 4 + row): three tensors through the kernel's third queue, out of
 * place and in place. */
START_TEST(test_aclnn_ew2_addc)
{
    const int row = _i % 4;
    const bool div = row >= 2, inplace = row % 2;
    nnt_setup_profile(_i / 4 ? "ascend310" : NULL);
    enum { N = 333 };
    const int64_t dims[] = {3, 111};
    float a[N], b[N], c[N], res[N];
    double want[N];
    nnt_fill(a, N, 800 + (unsigned)row, -3, 3);
    nnt_fill(b, N, 810 + (unsigned)row, -3, 3);
    nnt_fill(c, N, 820 + (unsigned)row, div ? 0.5f : -3, div ? 2 : 3);
    const float value = 1.2f;
    for (int i = 0; i < N; i++)
        want[i] = a[i] + (double)value * (div ? b[i] / c[i] : b[i] * c[i]);
    aclScalar *v = aclCreateScalar((void *)&value, ACL_FLOAT);
    nnt_dt_t at = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, a), bt = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, b),
             ct = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, c), out = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    switch (row) {
    case 0: CK_OK(aclnnAddcmulGetWorkspaceSize(at.t, bt.t, ct.t, v, out.t, &ws, &e));
        RUN(aclnnAddcmul(NULL, ws, e, nnt_stream)); break;
    case 1: CK_OK(aclnnInplaceAddcmulGetWorkspaceSize(at.t, bt.t, ct.t, v, &ws, &e));
        RUN(aclnnInplaceAddcmul(NULL, ws, e, nnt_stream)); break;
    case 2: CK_OK(aclnnAddcdivGetWorkspaceSize(at.t, bt.t, ct.t, v, out.t, &ws, &e));
        RUN(aclnnAddcdiv(NULL, ws, e, nnt_stream)); break;
    default: CK_OK(aclnnInplaceAddcdivGetWorkspaceSize(at.t, bt.t, ct.t, v, &ws, &e));
        RUN(aclnnInplaceAddcdiv(NULL, ws, e, nnt_stream)); break;
    }
    nnt_rd(inplace ? &at : &out, res);
    nnt_ck_close(div ? "aclnnAddcdiv" : "aclnnAddcmul", res, want, N, 1e-5, 1e-5);
    /* tensor2 of another shape or dtype: 161002 naming it */
    const int64_t other[] = {3, 110};
    nnt_dt_t bad = nnt_mk(other, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), h = nnt_mk(dims, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnAddcmulGetWorkspaceSize(at.t, bt.t, bad.t, v, out.t, &ws, &e), NN_INVALID, "tensor2");
    CK_ERR(aclnnAddcdivGetWorkspaceSize(at.t, h.t, ct.t, v, out.t, &ws, &e), NN_INVALID, "tensor1");
    CK_ERR(aclnnAddcdivGetWorkspaceSize(at.t, bt.t, ct.t, NULL, out.t, &ws, &e), NN_NULLPTR, "value");
    nnt_rm(&bad);
    nnt_rm(&h);
    nnt_rm(&at);
    nnt_rm(&bt);
    nnt_rm(&ct);
    nnt_rm(&out);
    CK_OK(aclDestroyScalar(v));
}
END_TEST

/* CANN's experimental custom operators on existing library operators (double attributes, their tensor names);
 * loop index: profile * C_COUNT + row */
enum { C_CELU2, C_CELU3, C_HSIG2, C_HSIG2_IN, C_HSWISH2, C_LRELU2, C_LOGSIG2, C_SOFTSIGN_BW, C_TANH_GRAD, C_HSHRINK_GRAD,
       C_HSIG_GRAD2, C_COUNT };
static const char *const cname[C_COUNT] = {"CeluV2", "CeluV3", "HardsigmoidV2", "InplaceHardsigmoidV2", "HardSwishV2",
                                           "LeakyreluV2", "LogsigmoidV2", "SoftsignBackward", "TanhGrad",
                                           "HardShrinkGrad", "HardSigmoidGradV2"};
static double c_ref(int op, double a, double b)
{
    switch (op) {
    case C_CELU2: return a > 0 ? a : 0.5 * expm1(a / 0.5);
    case C_CELU3: return a > 0 ? a : 2 * expm1(a / 2);
    case C_HSIG2: case C_HSIG2_IN: return fmin(fmax(a + 3, 0), 6) / 6;
    case C_HSWISH2: return a * fmin(fmax(a + 3, 0), 6) / 6;
    case C_LRELU2: return a < 0 ? a * 0.125 : a;
    case C_LOGSIG2: return -log1p(exp(-a));
    case C_SOFTSIGN_BW: return a / ((1 + fabs(b)) * (1 + fabs(b)));
    case C_TANH_GRAD: return b * (1 - a * a); /* a: y, b: dy */
    case C_HSHRINK_GRAD: return fabs(b) > 0.5 ? a : 0;
    default: return b > -3 && b < 3 ? a / 6 : 0;
    }
}

START_TEST(test_aclnn_ew2_custom_rows)
{
    const int op = _i % C_COUNT;
    nnt_setup_profile(_i / C_COUNT ? "ascend310" : NULL);
    enum { N = 200 };
    const int64_t dims[] = {2, 100};
    float a[N], b[N], res[N];
    double want[N];
    nnt_fill(a, N, 900 + (unsigned)op, op == C_TANH_GRAD ? -1 : -5, op == C_TANH_GRAD ? 1 : 5);
    nnt_fill(b, N, 950 + (unsigned)op, -5, 5);
    for (int i = 0; i < N; i++)
        want[i] = c_ref(op, a[i], b[i]);
    nnt_dt_t at = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, a), bt = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, b),
             out = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    switch (op) {
    case C_CELU2: CK_OK(aclnnCeluV2GetWorkspaceSize(at.t, 0.5, out.t, &ws, &e));
        RUN(aclnnCeluV2(NULL, ws, e, nnt_stream)); break;
    case C_CELU3: CK_OK(aclnnCeluV3GetWorkspaceSize(at.t, 2.0, out.t, &ws, &e));
        RUN(aclnnCeluV3(NULL, ws, e, nnt_stream)); break;
    case C_HSIG2: CK_OK(aclnnHardsigmoidV2GetWorkspaceSize(at.t, out.t, &ws, &e));
        RUN(aclnnHardsigmoidV2(NULL, ws, e, nnt_stream)); break;
    case C_HSIG2_IN: CK_OK(aclnnInplaceHardsigmoidV2GetWorkspaceSize(at.t, &ws, &e));
        RUN(aclnnInplaceHardsigmoidV2(NULL, ws, e, nnt_stream)); break;
    case C_HSWISH2: CK_OK(aclnnHardSwishV2GetWorkspaceSize(at.t, out.t, &ws, &e));
        RUN(aclnnHardSwishV2(NULL, ws, e, nnt_stream)); break;
    case C_LRELU2: CK_OK(aclnnLeakyreluV2GetWorkspaceSize(at.t, 0.125, out.t, &ws, &e));
        RUN(aclnnLeakyreluV2(NULL, ws, e, nnt_stream)); break;
    case C_LOGSIG2: CK_OK(aclnnLogsigmoidV2GetWorkspaceSize(at.t, out.t, &ws, &e));
        RUN(aclnnLogsigmoidV2(NULL, ws, e, nnt_stream)); break;
    case C_SOFTSIGN_BW: CK_OK(aclnnSoftsignBackwardGetWorkspaceSize(at.t, bt.t, out.t, &ws, &e));
        RUN(aclnnSoftsignBackward(NULL, ws, e, nnt_stream)); break;
    case C_TANH_GRAD: CK_OK(aclnnTanhGradGetWorkspaceSize(at.t, bt.t, out.t, &ws, &e));
        RUN(aclnnTanhGrad(NULL, ws, e, nnt_stream)); break;
    case C_HSHRINK_GRAD: CK_OK(aclnnHardShrinkGradGetWorkspaceSize(at.t, bt.t, 0.5, out.t, &ws, &e));
        RUN(aclnnHardShrinkGrad(NULL, ws, e, nnt_stream)); break;
    default: CK_OK(aclnnHardSigmoidGradV2GetWorkspaceSize(at.t, bt.t, out.t, &ws, &e));
        RUN(aclnnHardSigmoidGradV2(NULL, ws, e, nnt_stream)); break;
    }
    nnt_rd(op == C_HSIG2_IN ? &at : &out, res);
    char what[96];
    snprintf(what, sizeof what, "aclnn%s on %s", cname[op], profiles[_i / C_COUNT]);
    nnt_ck_close(what, res, want, N, 2e-5, 2e-5);
    nnt_rm(&at);
    nnt_rm(&bt);
    nnt_rm(&out);
}
END_TEST

/* Lerp, Lerps, the inverse functions' gradients and more custom operators (loop index: profile * D_COUNT + row);
 * a is self / start / the forward's y, b end / dy, c the weight */
enum { D_LERP, D_LERP_IN, D_LERPS, D_LERPS_IN, D_ASIN_G, D_ACOS_G, D_ACOS_G2, D_ACOSH_G, D_ASINH_G, D_RSQRT_G, D_SQRT_BW,
       D_ASINH2, D_CEIL2, D_COSH2, D_SINH2, D_SQUARE2, D_TRUNC2, D_LOG1P2, D_INV, D_POW, D_ADD_RELU, D_ADD_RELU_IN,
       D_ELU_BW, D_ELU_BW_RES, D_ELU_GRAD, D_COUNT };
static const char *const dname[D_COUNT] = {"Lerp", "InplaceLerp", "Lerps", "InplaceLerps", "AsinGrad", "AcosGrad",
                                           "AcosGradV2", "AcoshGrad", "AsinhGrad", "RsqrtGrad", "SqrtBackward",
                                           "AsinhV2", "CeilV2", "CoshV2", "SinhV2", "SquareV2", "TruncV2", "Log1pV2",
                                           "Inv", "Pow", "AddRelu", "InplaceAddRelu", "EluBackward",
                                           "EluBackward (isResult)", "EluGrad"};
#define LERPS_W 0.375
static double d_ref(int op, double a, double b, double c)
{
    switch (op) {
    case D_LERP: case D_LERP_IN: return a + c * (b - a);
    case D_LERPS: case D_LERPS_IN: return a + LERPS_W * (b - a);
    case D_ASIN_G: return b / sqrt(1 - a * a);
    case D_ACOS_G: return -a / sqrt(1 - b * b); /* y_grad a, x b */
    case D_ACOS_G2: return -b / sqrt(1 - a * a);
    case D_ACOSH_G: return b / sinh(a);
    case D_ASINH_G: return b / cosh(a);
    case D_RSQRT_G: return b * -0.5 * a * a * a;
    case D_SQRT_BW: return b * 0.5 / a;
    case D_ASINH2: return asinh(a);
    case D_CEIL2: return ceil(a);
    case D_COSH2: return cosh(a);
    case D_SINH2: return sinh(a);
    case D_SQUARE2: return a * a;
    case D_TRUNC2: return trunc(a);
    case D_LOG1P2: return log1p(a);
    case D_INV: return 1 / a;
    case D_ADD_RELU: case D_ADD_RELU_IN: return fmax(a + LERPS_W * b, 0);
    /* a: the gradient, b: self or the result; alpha LERPS_W, scale 2, inputScale 1.5 (EluGrad: 1, 1, 1) */
    case D_ELU_BW: return a * (b > 0 ? 2 : 2 * LERPS_W * 1.5 * exp(1.5 * b));
    case D_ELU_BW_RES: return a * (b > 0 ? 2 : 1.5 * (b + 2 * LERPS_W));
    case D_ELU_GRAD: return a * (b > 0 ? 1 : b + 1);
    default: return pow(a, b);
    }
}

START_TEST(test_aclnn_ew2_more_rows)
{
    const int op = _i % D_COUNT;
    nnt_setup_profile(_i / D_COUNT ? "ascend310" : NULL);
    enum { N = 200 };
    const int64_t dims[] = {2, 100};
    float a[N], b[N], c[N], res[N];
    double want[N];
    const bool unit = op == D_ASIN_G || op == D_ACOS_G2, pos = op >= D_ACOSH_G && op <= D_SQRT_BW && op != D_ASINH_G;
    nnt_fill(a, N, 1000 + (unsigned)op, unit ? -0.9f : pos || op == D_INV || op == D_POW || op == D_LOG1P2 ? 0.25f : -3,
             unit ? 0.9f : 3);
    nnt_fill(b, N, 1050 + (unsigned)op, op == D_ACOS_G ? -0.9f : op >= D_ELU_BW_RES ? -0.9f : -3, op == D_ACOS_G ? 0.9f : 3);
    nnt_fill(c, N, 1100 + (unsigned)op, 0, 1);
    for (int i = 0; i < N; i++)
        want[i] = d_ref(op, a[i], b[i], c[i]);
    const float w = (float)LERPS_W;
    aclScalar *sw = aclCreateScalar((void *)&w, ACL_FLOAT);
    nnt_dt_t at = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, a), bt = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, b),
             ct = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, c), out = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    switch (op) {
    case D_LERP: CK_OK(aclnnLerpGetWorkspaceSize(at.t, bt.t, ct.t, out.t, &ws, &e)); RUN(aclnnLerp(NULL, ws, e, nnt_stream)); break;
    case D_LERP_IN: CK_OK(aclnnInplaceLerpGetWorkspaceSize(at.t, bt.t, ct.t, &ws, &e));
        RUN(aclnnInplaceLerp(NULL, ws, e, nnt_stream)); break;
    case D_LERPS: CK_OK(aclnnLerpsGetWorkspaceSize(at.t, bt.t, sw, out.t, &ws, &e)); RUN(aclnnLerps(NULL, ws, e, nnt_stream)); break;
    case D_LERPS_IN: CK_OK(aclnnInplaceLerpsGetWorkspaceSize(at.t, bt.t, sw, &ws, &e));
        RUN(aclnnInplaceLerps(NULL, ws, e, nnt_stream)); break;
    case D_ASIN_G: CK_OK(aclnnAsinGradGetWorkspaceSize(at.t, bt.t, out.t, &ws, &e)); RUN(aclnnAsinGrad(NULL, ws, e, nnt_stream)); break;
    case D_ACOS_G: CK_OK(aclnnAcosGradGetWorkspaceSize(at.t, bt.t, out.t, &ws, &e)); RUN(aclnnAcosGrad(NULL, ws, e, nnt_stream)); break;
    case D_ACOS_G2: CK_OK(aclnnAcosGradV2GetWorkspaceSize(at.t, bt.t, out.t, &ws, &e));
        RUN(aclnnAcosGradV2(NULL, ws, e, nnt_stream)); break;
    case D_ACOSH_G: CK_OK(aclnnAcoshGradGetWorkspaceSize(at.t, bt.t, out.t, &ws, &e));
        RUN(aclnnAcoshGrad(NULL, ws, e, nnt_stream)); break;
    case D_ASINH_G: CK_OK(aclnnAsinhGradGetWorkspaceSize(at.t, bt.t, out.t, &ws, &e));
        RUN(aclnnAsinhGrad(NULL, ws, e, nnt_stream)); break;
    case D_RSQRT_G: CK_OK(aclnnRsqrtGradGetWorkspaceSize(at.t, bt.t, out.t, &ws, &e));
        RUN(aclnnRsqrtGrad(NULL, ws, e, nnt_stream)); break;
    case D_SQRT_BW: CK_OK(aclnnSqrtBackwardGetWorkspaceSize(at.t, bt.t, out.t, &ws, &e));
        RUN(aclnnSqrtBackward(NULL, ws, e, nnt_stream)); break;
    case D_ASINH2: CK_OK(aclnnAsinhV2GetWorkspaceSize(at.t, out.t, &ws, &e)); RUN(aclnnAsinhV2(NULL, ws, e, nnt_stream)); break;
    case D_CEIL2: CK_OK(aclnnCeilV2GetWorkspaceSize(at.t, out.t, &ws, &e)); RUN(aclnnCeilV2(NULL, ws, e, nnt_stream)); break;
    case D_COSH2: CK_OK(aclnnCoshV2GetWorkspaceSize(at.t, out.t, &ws, &e)); RUN(aclnnCoshV2(NULL, ws, e, nnt_stream)); break;
    case D_SINH2: CK_OK(aclnnSinhV2GetWorkspaceSize(at.t, out.t, &ws, &e)); RUN(aclnnSinhV2(NULL, ws, e, nnt_stream)); break;
    case D_SQUARE2: CK_OK(aclnnSquareV2GetWorkspaceSize(at.t, out.t, &ws, &e)); RUN(aclnnSquareV2(NULL, ws, e, nnt_stream)); break;
    case D_TRUNC2: CK_OK(aclnnTruncV2GetWorkspaceSize(at.t, out.t, &ws, &e)); RUN(aclnnTruncV2(NULL, ws, e, nnt_stream)); break;
    case D_LOG1P2: CK_OK(aclnnLog1pV2GetWorkspaceSize(at.t, out.t, &ws, &e)); RUN(aclnnLog1pV2(NULL, ws, e, nnt_stream)); break;
    case D_INV: CK_OK(aclnnInvGetWorkspaceSize(at.t, out.t, &ws, &e)); RUN(aclnnInv(NULL, ws, e, nnt_stream)); break;
    case D_POW: CK_OK(aclnnPowGetWorkspaceSize(at.t, bt.t, out.t, &ws, &e)); RUN(aclnnPow(NULL, ws, e, nnt_stream)); break;
    case D_ADD_RELU: CK_OK(aclnnAddReluGetWorkspaceSize(at.t, bt.t, sw, out.t, &ws, &e));
        RUN(aclnnAddRelu(NULL, ws, e, nnt_stream)); break;
    case D_ADD_RELU_IN: CK_OK(aclnnInplaceAddReluGetWorkspaceSize(at.t, bt.t, sw, &ws, &e));
        RUN(aclnnInplaceAddRelu(NULL, ws, e, nnt_stream)); break;
    case D_ELU_BW: case D_ELU_BW_RES: {
        const float two = 2, one5 = 1.5f;
        aclScalar *s2 = aclCreateScalar((void *)&two, ACL_FLOAT), *s3 = aclCreateScalar((void *)&one5, ACL_FLOAT);
        CK_OK(aclnnEluBackwardGetWorkspaceSize(at.t, sw, s2, s3, op == D_ELU_BW_RES, bt.t, out.t, &ws, &e));
        RUN(aclnnEluBackward(NULL, ws, e, nnt_stream));
        if (op == D_ELU_BW_RES) { /* a negative alpha with isResult: 161002 */
            const float neg = -1;
            aclScalar *sn = aclCreateScalar((void *)&neg, ACL_FLOAT);
            CK_ERR(aclnnEluBackwardGetWorkspaceSize(at.t, sn, s2, s3, true, bt.t, out.t, &ws, &e), NN_INVALID, "isResult");
            CK_OK(aclDestroyScalar(sn));
        }
        CK_OK(aclDestroyScalar(s2));
        CK_OK(aclDestroyScalar(s3));
        break;
    }
    default: CK_OK(aclnnEluGradGetWorkspaceSize(at.t, bt.t, out.t, &ws, &e)); RUN(aclnnEluGrad(NULL, ws, e, nnt_stream)); break;
    }
    nnt_rd(op == D_LERP_IN || op == D_LERPS_IN || op == D_ADD_RELU_IN ? &at : &out, res);
    char what[96];
    snprintf(what, sizeof what, "aclnn%s on %s", dname[op], profiles[_i / D_COUNT]);
    nnt_ck_close(what, res, want, N, 2e-5, 2e-5);
    nnt_rm(&at);
    nnt_rm(&bt);
    nnt_rm(&ct);
    nnt_rm(&out);
    CK_OK(aclDestroyScalar(sw));
}
END_TEST

/* fp16 through aclnnAsin and aclnnPowTensorScalar: computed in fp32, rounded once. */
START_TEST(test_aclnn_ew2_fp16)
{
    enum { N = 256 };
    const int64_t dims[] = {N};
    for (int op = 0; op < 2; op++) {
        float x[N], res[N];
        uint16_t h[N], got[N];
        double want[N];
        nnt_fill(x, N, 19 + (unsigned)op, op ? -2 : -1, op ? 2 : 1);
        nnt_to_f16(x, h, N);
        for (int i = 0; i < N; i++) {
            x[i] = nnt_f16r(x[i]);
            want[i] = op ? x[i] * x[i] * x[i] * x[i] * x[i] : asin(x[i]);
        }
        nnt_dt_t in = nnt_mk(dims, 1, ACL_FLOAT16, ACL_FORMAT_ND, h),
                 out = nnt_mk(dims, 1, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
        uint64_t ws;
        aclOpExecutor *e;
        const float five = 5;
        aclScalar *p = aclCreateScalar((void *)&five, ACL_FLOAT);
        if (op) {
            CK_OK(aclnnPowTensorScalarGetWorkspaceSize(in.t, p, out.t, &ws, &e));
            RUN(aclnnPowTensorScalar(NULL, ws, e, nnt_stream));
        } else {
            CK_OK(aclnnAsinGetWorkspaceSize(in.t, out.t, &ws, &e));
            RUN(aclnnAsin(NULL, ws, e, nnt_stream));
        }
        nnt_rd(&out, got);
        for (int i = 0; i < N; i++) { /* fp16 -> fp32, exact */
            const uint32_t sgn = (uint32_t)(got[i] >> 15), ex = got[i] >> 10 & 31, man = got[i] & 1023;
            ck_assert_msg(ex != 31, "element %d is not finite", i);
            res[i] = (sgn ? -1.0f : 1.0f) * (ex ? ldexpf((float)(man | 1024), (int)ex - 25) : ldexpf((float)man, -24));
        }
        nnt_ck_close(op ? "aclnnPowTensorScalar fp16" : "aclnnAsin fp16", res, want, N, 1e-3, 1e-3);
        CK_OK(aclDestroyScalar(p));
        nnt_rm(&in);
        nnt_rm(&out);
    }
}
END_TEST

/* Bad input: NULL exponent / buffer (161001), a negative slope on the forward's result and a shape that
 * does not match (161002). */
START_TEST(test_aclnn_ew2_errors)
{
    const int64_t dims[] = {64}, other[] = {32};
    nnt_dt_t x = nnt_mk(dims, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL), y = nnt_mk(dims, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL),
             z = nnt_mk(other, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_ERR(aclnnPowTensorScalarGetWorkspaceSize(x.t, NULL, y.t, &ws, &e), NN_NULLPTR, "exponent");
    CK_ERR(aclnnInplacePowTensorScalarGetWorkspaceSize(x.t, NULL, &ws, &e), NN_NULLPTR, "exponent");
    CK_ERR(aclnnLogSigmoidBackwardGetWorkspaceSize(x.t, x.t, NULL, y.t, &ws, &e), NN_NULLPTR, "buffer");
    const float neg = -0.1f;
    aclScalar *n = aclCreateScalar((void *)&neg, ACL_FLOAT);
    CK_ERR(aclnnLeakyReluBackwardGetWorkspaceSize(x.t, x.t, n, true, y.t, &ws, &e), NN_INVALID, "selfIsResult");
    CK_OK(aclnnLeakyReluBackwardGetWorkspaceSize(x.t, x.t, n, false, y.t, &ws, &e));
    CK_OK(aclDestroyAclOpExecutor(e));
    CK_ERR(aclnnAtan2GetWorkspaceSize(x.t, z.t, y.t, &ws, &e), NN_INVALID, "do not broadcast");
    CK_ERR(aclnnPowTensorTensorGetWorkspaceSize(x.t, x.t, z.t, &ws, &e), NN_INVALID, "shape");
    CK_ERR(aclnnThresholdGetWorkspaceSize(x.t, n, NULL, y.t, &ws, &e), NN_NULLPTR, "value");
    CK_ERR(aclnnEluGetWorkspaceSize(x.t, n, n, NULL, y.t, &ws, &e), NN_NULLPTR, "inputScale");
    const float zero = 0;
    aclScalar *z0 = aclCreateScalar((void *)&zero, ACL_FLOAT);
    CK_ERR(aclnnSoftplusGetWorkspaceSize(x.t, z0, n, y.t, &ws, &e), NN_INVALID, "beta");
    CK_OK(aclDestroyScalar(z0));
    CK_OK(aclDestroyScalar(n));
    nnt_rm(&x);
    nnt_rm(&y);
    nnt_rm(&z);
}
END_TEST

/* The three-input operators broadcast (an expand kernel first): Lerp with a one-element weight, Addcmul
 * with tensor2 a row, InplaceAddcmul whose selfRef would have to grow (an error). */
START_TEST(test_aclnn_ew2_ternary_broadcast)
{
    enum { M = 3, N = 70 };
    float a[M * N], b[M * N], w1, row[N], got[M * N];
    nnt_fill(a, M * N, 41, -2, 2);
    nnt_fill(b, M * N, 42, -2, 2);
    nnt_fill(row, N, 43, -2, 2);
    w1 = 0.375f;
    const int64_t d[] = {M, N}, d1[] = {1}, dr[] = {N};
    nnt_dt_t ta = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, a), tb = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, b);
    nnt_dt_t tw = nnt_mk(d1, 1, ACL_FLOAT, ACL_FORMAT_ND, &w1), tr = nnt_mk(dr, 1, ACL_FLOAT, ACL_FORMAT_ND, row);
    nnt_dt_t to = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    void *w = NULL;
    CK_OK(aclnnLerpGetWorkspaceSize(ta.t, tb.t, tw.t, to.t, &ws, &e));
    ck_assert_uint_gt(ws, 0); /* the expanded weight */
    CK_OK(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST));
    RUN(aclnnLerp(w, ws, e, nnt_stream));
    CK_OK(aclrtFree(w));
    nnt_rd(&to, got);
    for (int i = 0; i < M * N; i++) {
        const double want = a[i] + (double)w1 * (b[i] - a[i]);
        ck_assert_msg(fabs(got[i] - want) <= 1e-5 + 1e-5 * fabs(want), "Lerp [%d] %g, want %g", i, got[i], want);
    }
    float v = 0.5f;
    aclScalar *sv = aclCreateScalar(&v, ACL_FLOAT);
    CK_OK(aclnnAddcmulGetWorkspaceSize(ta.t, tb.t, tr.t, sv, to.t, &ws, &e));
    CK_OK(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST));
    RUN(aclnnAddcmul(w, ws, e, nnt_stream));
    CK_OK(aclrtFree(w));
    nnt_rd(&to, got);
    for (int i = 0; i < M * N; i++) {
        const double want = a[i] + 0.5 * b[i] * row[i % N];
        ck_assert_msg(fabs(got[i] - want) <= 1e-5 + 1e-5 * fabs(want), "Addcmul [%d] %g, want %g", i, got[i], want);
    }
    CK_ERR(aclnnInplaceAddcmulGetWorkspaceSize(tr.t, ta.t, tb.t, sv, &ws, &e), NN_INVALID,
           "in place, only the other two may broadcast");
    aclDestroyScalar(sv);
    nnt_dt_t *all[] = {&ta, &tb, &tw, &tr, &to};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        nnt_rm(all[k]);
}
END_TEST

/* CANN's custom HardShrink (a double lambd) gives what Hardshrink (an aclScalar) gives. */
START_TEST(test_aclnn_ew2_hard_shrink_custom)
{
    enum { N = 500 };
    float x[N], a[N], b[N];
    nnt_fill(x, N, 44, -2, 2);
    const int64_t d[] = {N};
    nnt_dt_t tx = nnt_mk(d, 1, ACL_FLOAT, ACL_FORMAT_ND, x), to = nnt_mk(d, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnHardShrinkGetWorkspaceSize(tx.t, 0.5, to.t, &ws, &e));
    RUN(aclnnHardShrink(NULL, ws, e, nnt_stream));
    nnt_rd(&to, a);
    float l = 0.5f;
    aclScalar *sl = aclCreateScalar(&l, ACL_FLOAT);
    CK_OK(aclnnHardshrinkGetWorkspaceSize(tx.t, sl, to.t, &ws, &e));
    RUN(aclnnHardshrink(NULL, ws, e, nnt_stream));
    nnt_rd(&to, b);
    for (int i = 0; i < N; i++) {
        ck_assert_msg(a[i] == b[i], "[%d] HardShrink %g, Hardshrink %g", i, a[i], b[i]);
        ck_assert_msg(a[i] == (fabsf(x[i]) > 0.5f ? x[i] : 0.0f), "[%d] %g of %g", i, a[i], x[i]);
    }
    aclDestroyScalar(sl);
    nnt_rm(&tx);
    nnt_rm(&to);
}
END_TEST

Suite *dv_aclnn_ew2_suite(void);
Suite *dv_aclnn_ew2_suite(void)
{
    Suite *s = suite_create("aclnn_ew2");
    TCase *tl = tcase_create("library");
    tcase_set_timeout(tl, 60);
    tcase_add_loop_test(tl, test_aclnn_ew2_library_check, 0, NLIB * 4);
    tcase_add_test(tl, test_aclnn_ew2_pows_exponent_classes);
    suite_add_tcase(s, tl);
    TCase *tc = tcase_create("aclnn");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, NULL, nnt_teardown);
    tcase_add_loop_test(tc, test_aclnn_ew2_unary_rows, 0, 2 * U_COUNT);
    tcase_add_loop_test(tc, test_aclnn_ew2_binary_rows, 0, 2 * B_COUNT);
    tcase_add_loop_test(tc, test_aclnn_ew2_attribute_rows, 0, 2 * M_COUNT);
    tcase_add_loop_test(tc, test_aclnn_ew2_addc, 0, 8);
    tcase_add_loop_test(tc, test_aclnn_ew2_custom_rows, 0, 2 * C_COUNT);
    tcase_add_loop_test(tc, test_aclnn_ew2_more_rows, 0, 2 * D_COUNT);
    suite_add_tcase(s, tc);
    TCase *te = tcase_create("aclnn_default");
    tcase_add_checked_fixture(te, nnt_setup, nnt_teardown);
    tcase_add_test(te, test_aclnn_ew2_fp16);
    tcase_add_test(te, test_aclnn_ew2_errors);
    tcase_add_test(te, test_aclnn_ew2_ternary_broadcast);
    tcase_add_test(te, test_aclnn_ew2_hard_shrink_custom);
    suite_add_tcase(s, te);
    return s;
}
