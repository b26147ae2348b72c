/* tests/check_aclnn_foreach.c - the aclnnForeach* operators (acl/nnforeach.c) through the real shim on
 * the 910B2 and 310 profiles: every operator (the V1 forms with their scalar in a device tensor) in
 * fp32 and fp16 on a list of four members of different lengths against a plain-C reference; int32
 * copy and a repeatable executor; one profile row per member; the errors of the first phase (NULL
 * 161001; lists of different lengths, a member of another dtype or shape, a scalar tensor of more
 * than one element, an empty or destroyed list 161002).  Second round (s20-each2): the unary math rows
 * and the in-place forms in the same loop; ZeroInplace over NaN / inf; RoundOffNumber's modes; Norm and
 * the library's lp_norm; NonFiniteCheckAndUnscale and nonfinite_check; Addcmul, Addcdiv, Lerp. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_foreach_abs.h"
#include "aclnnop/aclnn_foreach_add_list.h"
#include "aclnnop/aclnn_foreach_sub_list.h"
#include "aclnnop/aclnn_foreach_add_scalar.h"
#include "aclnnop/aclnn_foreach_sub_scalar.h"
#include "aclnnop/aclnn_foreach_mul_scalar.h"
#include "aclnnop/aclnn_foreach_div_scalar.h"
#include "aclnnop/aclnn_foreach_maximum_scalar.h"
#include "aclnnop/aclnn_foreach_minimum_scalar.h"
#include "aclnnop/aclnn_foreach_add_list_v2.h"
#include "aclnnop/aclnn_foreach_add_scalar_list.h"
#include "aclnnop/aclnn_foreach_add_scalar_v2.h"
#include "aclnnop/aclnn_foreach_copy.h"
#include "aclnnop/aclnn_foreach_div_list.h"
#include "aclnnop/aclnn_foreach_div_scalar_list.h"
#include "aclnnop/aclnn_foreach_div_scalar_v2.h"
#include "aclnnop/aclnn_foreach_exp.h"
#include "aclnnop/aclnn_foreach_log.h"
#include "aclnnop/aclnn_foreach_maximum_list.h"
#include "aclnnop/aclnn_foreach_maximum_scalar_list.h"
#include "aclnnop/aclnn_foreach_maximum_scalar_v2.h"
#include "aclnnop/aclnn_foreach_minimum_list.h"
#include "aclnnop/aclnn_foreach_minimum_scalar_list.h"
#include "aclnnop/aclnn_foreach_minimum_scalar_v2.h"
#include "aclnnop/aclnn_foreach_mul_list.h"
#include "aclnnop/aclnn_foreach_mul_scalar_list.h"
#include "aclnnop/aclnn_foreach_mul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_neg.h"
#include "aclnnop/aclnn_foreach_reciprocal.h"
#include "aclnnop/aclnn_foreach_sigmoid.h"
#include "aclnnop/aclnn_foreach_sqrt.h"
#include "aclnnop/aclnn_foreach_sub_list_v2.h"
#include "aclnnop/aclnn_foreach_sub_scalar_list.h"
#include "aclnnop/aclnn_foreach_sub_scalar_v2.h"
#include "aclnnop/aclnn_foreach_tanh.h"
/* s20-each2 */
#include "aclnnop/aclnn_foreach_add_list_inplace.h"
#include "aclnnop/aclnn_foreach_cos.h"
#include "aclnnop/aclnn_foreach_cosh.h"
#include "aclnnop/aclnn_foreach_div_list_inplace.h"
#include "aclnnop/aclnn_foreach_erf.h"
#include "aclnnop/aclnn_foreach_erfc.h"
#include "aclnnop/aclnn_foreach_expm1.h"
#include "aclnnop/aclnn_foreach_log10.h"
#include "aclnnop/aclnn_foreach_log1p.h"
#include "aclnnop/aclnn_foreach_log2.h"
#include "aclnnop/aclnn_foreach_log_inplace.h"
#include "aclnnop/aclnn_foreach_mul_list_inplace.h"
#include "aclnnop/aclnn_foreach_mul_scalar_inplace.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar_list.h"
#include "aclnnop/aclnn_foreach_addcmul_list.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar_list.h"
#include "aclnnop/aclnn_foreach_addcdiv_list.h"
#include "aclnnop/aclnn_foreach_lerp_list.h"
#include "aclnnop/aclnn_foreach_lerp_scalar.h"
#include "aclnnop/aclnn_foreach_non_finite_check_and_unscale.h"
#include "aclnnop/aclnn_foreach_norm.h"
#include "aclnnop/aclnn_foreach_round_off_number.h"
#include "aclnnop/aclnn_foreach_round_off_number_v2.h"
#include "aclnnop/aclnn_foreach_sign.h"
#include "aclnnop/aclnn_foreach_sin.h"
#include "aclnnop/aclnn_foreach_tan.h"
#include "aclnnop/aclnn_foreach_asin.h"
#include "aclnnop/aclnn_foreach_acos.h"
#include "aclnnop/aclnn_foreach_atan.h"
#include "aclnnop/aclnn_foreach_a_cos_inplace.h"
#include "aclnnop/aclnn_foreach_pow_list.h"
#include "aclnnop/aclnn_foreach_pow_scalar_v2.h"
#include "aclnnop/aclnn_foreach_pow_scalar_list.h"
#include "aclnnop/aclnn_foreach_sinh.h"
#include "aclnnop/aclnn_foreach_sub_list_inplace.h"
#include "aclnnop/aclnn_foreach_sub_scalar_inplace.h"
#include "aclnnop/aclnn_foreach_zero_inplace.h"
#include "support/dvt.h"
#include "support/nnt.h"

static const char *const profiles[] = {NULL /* ascend910b2 */, "ascend310"};

typedef aclnnStatus (*run_fn)(void *, uint64_t, aclOpExecutor *, aclrtStream);
typedef aclnnStatus (*gu_fn)(const aclTensorList *, aclTensorList *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*gl_fn)(const aclTensorList *, const aclTensorList *, aclTensorList *, uint64_t *,
                             aclOpExecutor **);
typedef aclnnStatus (*gla_fn)(const aclTensorList *, const aclTensorList *, const aclScalar *, aclTensorList *,
                              uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*glt_fn)(const aclTensorList *, const aclTensorList *, const aclTensor *, aclTensorList *,
                              uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*gst_fn)(const aclTensorList *, const aclTensor *, aclTensorList *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*gs_fn)(const aclTensorList *, const aclScalar *, aclTensorList *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*gsl_fn)(const aclTensorList *, const aclScalarList *, aclTensorList *, uint64_t *,
                              aclOpExecutor **);
/* the in-place forms (s20-each2): no out list */
typedef aclnnStatus (*gi_fn)(const aclTensorList *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*gil_fn)(const aclTensorList *, const aclTensorList *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*gilt_fn)(const aclTensorList *, const aclTensorList *, const aclTensor *, uint64_t *,
                               aclOpExecutor **);
typedef aclnnStatus (*gist_fn)(const aclTensorList *, const aclTensor *, uint64_t *, aclOpExecutor **);

enum { C_UNARY, C_LIST, C_LIST_ALPHA, C_SCALAR, C_SCALAR_LIST, C_LIST_ALPHA_T, C_SCALAR_T,
       C_I_UNARY, C_I_LIST, C_I_LIST_ALPHA_T, C_I_SCALAR_T, C_ZERO };
enum { F_ABS, F_NEG, F_EXP, F_LOG, F_SQRT, F_REC, F_SIG, F_TANH, F_COPY, F_ADD, F_SUB, F_MUL, F_DIV, F_MAX, F_MIN,
       F_SIN, F_COS, F_SINH, F_COSH, F_ERF, F_ERFC, F_EXPM1, F_LOG2, F_LOG10, F_LOG1P, F_SIGN, F_ZERO, F_TAN, F_ASIN,
       F_ACOS, F_ATAN, F_POW };

static const struct {
    const char *name;
    int cls, f;
    gu_fn gu;
    gl_fn gl;
    gla_fn gla;
    gs_fn gs;
    gsl_fn gsl;
    glt_fn glt;
    gst_fn gst;
    run_fn run;
    float lo, hi; /* x (and x2) */
    gi_fn gi;
    gil_fn gil;
    gilt_fn gilt;
    gist_fn gist;
} ops[] = {
#define G(n) aclnn##n##GetWorkspaceSize
#define D(n, c, fld, f_, lo_, hi_) {.name = #n, .cls = c, .f = f_, .fld = G(n), .run = aclnn##n, .lo = lo_, .hi = hi_}
#define U(n, f, lo, hi) D(n, C_UNARY, gu, f, lo, hi)
#define L(n, f, lo, hi) D(n, C_LIST, gl, f, lo, hi)
#define LA(n, f) D(n, C_LIST_ALPHA, gla, f, -4, 4)
#define S(n, f, lo, hi) D(n, C_SCALAR, gs, f, lo, hi)
#define SL(n, f, lo, hi) D(n, C_SCALAR_LIST, gsl, f, lo, hi)
#define LT(n, f) D(n, C_LIST_ALPHA_T, glt, f, -4, 4)
#define ST(n, f) D(n, C_SCALAR_T, gst, f, -4, 4)
    U(ForeachAbs, F_ABS, -4, 4), U(ForeachNeg, F_NEG, -4, 4), U(ForeachExp, F_EXP, -4, 4),
    U(ForeachLog, F_LOG, 0.25f, 4), U(ForeachSqrt, F_SQRT, 0.25f, 4), U(ForeachReciprocal, F_REC, 0.25f, 4),
    U(ForeachSigmoid, F_SIG, -4, 4), U(ForeachTanh, F_TANH, -4, 4), U(ForeachCopy, F_COPY, -4, 4),
    L(ForeachMulList, F_MUL, -4, 4), L(ForeachDivList, F_DIV, 0.5f, 2), L(ForeachMaximumList, F_MAX, -4, 4),
    L(ForeachMinimumList, F_MIN, -4, 4), LA(ForeachAddListV2, F_ADD), LA(ForeachSubListV2, F_SUB),
    S(ForeachAddScalarV2, F_ADD, -4, 4), S(ForeachSubScalarV2, F_SUB, -4, 4), S(ForeachMulScalarV2, F_MUL, -4, 4),
    S(ForeachDivScalarV2, F_DIV, -4, 4), S(ForeachMaximumScalarV2, F_MAX, -4, 4),
    S(ForeachMinimumScalarV2, F_MIN, -4, 4), SL(ForeachAddScalarList, F_ADD, -4, 4),
    SL(ForeachSubScalarList, F_SUB, -4, 4), SL(ForeachMulScalarList, F_MUL, -4, 4),
    SL(ForeachDivScalarList, F_DIV, -4, 4), SL(ForeachMaximumScalarList, F_MAX, -4, 4),
    SL(ForeachMinimumScalarList, F_MIN, -4, 4), LT(ForeachAddList, F_ADD), LT(ForeachSubList, F_SUB),
    ST(ForeachAddScalar, F_ADD), ST(ForeachSubScalar, F_SUB), ST(ForeachMulScalar, F_MUL), ST(ForeachDivScalar, F_DIV),
    ST(ForeachMaximumScalar, F_MAX), ST(ForeachMinimumScalar, F_MIN),
    /* s20-each2 */
#define I(n, c, fld, f, lo, hi) D(n, c, fld, f, lo, hi)
    U(ForeachSin, F_SIN, -4, 4), U(ForeachCos, F_COS, -4, 4), U(ForeachSinh, F_SINH, -3, 3),
    U(ForeachCosh, F_COSH, -3, 3), U(ForeachErf, F_ERF, -3, 3), U(ForeachErfc, F_ERFC, -3, 3),
    U(ForeachExpm1, F_EXPM1, -2, 2), U(ForeachLog2, F_LOG2, 0.25f, 4), U(ForeachLog10, F_LOG10, 0.25f, 4),
    U(ForeachLog1p, F_LOG1P, -0.5f, 4), U(ForeachSign, F_SIGN, -4, 4),
    I(ForeachLogInplace, C_I_UNARY, gi, F_LOG, 0.25f, 4), I(ForeachZeroInplace, C_ZERO, gi, F_ZERO, -4, 4),
    I(ForeachMulListInplace, C_I_LIST, gil, F_MUL, -4, 4), I(ForeachDivListInplace, C_I_LIST, gil, F_DIV, 0.5f, 2),
    I(ForeachAddListInplace, C_I_LIST_ALPHA_T, gilt, F_ADD, -4, 4),
    I(ForeachSubListInplace, C_I_LIST_ALPHA_T, gilt, F_SUB, -4, 4),
    I(ForeachSubScalarInplace, C_I_SCALAR_T, gist, F_SUB, -4, 4),
    I(ForeachMulScalarInplace, C_I_SCALAR_T, gist, F_MUL, -4, 4),
    /* on the library operators of s20-ew2 */
    U(ForeachTan, F_TAN, -1.2f, 1.2f), U(ForeachAsin, F_ASIN, -0.9f, 0.9f), U(ForeachAcos, F_ACOS, -0.9f, 0.9f),
    U(ForeachAtan, F_ATAN, -4, 4), I(ForeachACosInplace, C_I_UNARY, gi, F_ACOS, -0.9f, 0.9f),
    L(ForeachPowList, F_POW, 0.5f, 2), S(ForeachPowScalarV2, F_POW, 0.5f, 2), SL(ForeachPowScalarList, F_POW, 0.5f, 2),
};
enum { NOPS = sizeof ops / sizeof ops[0] };

static double ref(int f, double a, double b)
{
    switch (f) {
    case F_ABS: return fabs(a);
    case F_NEG: return -a;
    case F_EXP: return exp(a);
    case F_LOG: return log(a);
    case F_SQRT: return sqrt(a);
    case F_REC: return 1 / a;
    case F_SIG: return 1 / (1 + exp(-a));
    case F_TANH: return tanh(a);
    case F_COPY: return a;
    case F_ADD: return a + b;
    case F_SUB: return a - b;
    case F_MUL: return a * b;
    case F_DIV: return a / b;
    case F_MAX: return a > b ? a : b;
    case F_MIN: return a < b ? a : b;
    case F_SIN: return sin(a);
    case F_COS: return cos(a);
    case F_SINH: return sinh(a);
    case F_COSH: return cosh(a);
    case F_ERF: return erf(a);
    case F_ERFC: return erfc(a);
    case F_EXPM1: return expm1(a);
    case F_LOG2: return log2(a);
    case F_LOG10: return log10(a);
    case F_LOG1P: return log1p(a);
    case F_SIGN: return a > 0 ? 1 : a < 0 ? -1 : 0;
    case F_TAN: return tan(a);
    case F_ASIN: return asin(a);
    case F_ACOS: return acos(a);
    case F_ATAN: return atan(a);
    case F_POW: return pow(a, b);
    default: return 0; /* F_ZERO */
    }
}

/* The members: different lengths (one of a single element, one spanning several blocks). */
enum { M = 4 };
static const int64_t mdims[M][2] = {{2, 3}, {1, 1}, {3, 517}, {40, 7}};

/* Host values of a member as the device holds them (fp16: rounded). */
static void host_vals(float *v, int64_t n, unsigned seed, float lo, float hi, bool f16)
{
    nnt_fill(v, n, seed, lo, hi);
    if (f16)
        for (int64_t i = 0; i < n; i++)
            v[i] = nnt_f16r(v[i]);
}

static nnt_dt_t mk(int m, aclDataType dt, const float *v)
{
    const int64_t n = mdims[m][0] * mdims[m][1];
    if (dt == ACL_FLOAT || !v)
        return nnt_mk(mdims[m], 2, dt, ACL_FORMAT_ND, v);
    uint16_t *h = malloc((size_t)n * 2);
    nnt_to_f16(v, h, n);
    nnt_dt_t t = nnt_mk(mdims[m], 2, dt, ACL_FORMAT_ND, h);
    free(h);
    return t;
}

static void rd(const nnt_dt_t *t, aclDataType dt, float *v, int64_t n)
{
    if (dt == ACL_FLOAT) {
        nnt_rd(t, v);
        return;
    }
    uint16_t *h = malloc((size_t)n * 2);
    nnt_rd(t, h);
    for (int64_t i = 0; i < n; i++)
        v[i] = aclFloat16ToFloat(h[i]);
    free(h);
}

/* Loop index: (profile * 2 + dtype) * NOPS + op. */
START_TEST(test_aclnn_foreach_ops)
{
    const int op = _i % NOPS, dsel = (_i / NOPS) % 2, prof = _i / NOPS / 2;
    const aclDataType dt = dsel ? ACL_FLOAT16 : ACL_FLOAT;
    const bool f16 = dt == ACL_FLOAT16;
    nnt_setup_profile(profiles[prof]);
    float *x[M], *y[M];
    nnt_dt_t tx[M], ty[M], to[M];
    aclTensor *vx[M], *vy[M], *vo[M];
    aclScalar *sc[M];
    const float svals[M] = {1.5f, -0.75f, 2.0f, 0.5f};
    const float alpha_v = 1.25f;
    for (int m = 0; m < M; m++) {
        const int64_t n = mdims[m][0] * mdims[m][1];
        x[m] = malloc((size_t)n * 4);
        y[m] = malloc((size_t)n * 4);
        host_vals(x[m], n, 11 + (unsigned)m, ops[op].lo, ops[op].hi, f16);
        const bool div = ops[op].f == F_DIV; /* a divisor away from 0 */
        host_vals(y[m], n, 23 + (unsigned)m, div ? 0.5f : ops[op].lo, div ? 2 : ops[op].hi, f16);
        tx[m] = mk(m, dt, x[m]);
        ty[m] = mk(m, dt, y[m]);
        to[m] = mk(m, dt, NULL);
        vx[m] = tx[m].t;
        vy[m] = ty[m].t;
        vo[m] = to[m].t;
        sc[m] = aclCreateScalar((void *)&svals[m], ACL_FLOAT);
    }
    aclTensorList *lx = aclCreateTensorList((const aclTensor *const *)vx, M);
    aclTensorList *ly = aclCreateTensorList((const aclTensor *const *)vy, M);
    aclTensorList *lo = aclCreateTensorList((const aclTensor *const *)vo, M);
    aclScalarList *ls = aclCreateScalarList((const aclScalar *const *)sc, M);
    aclScalar *alpha = aclCreateScalar((void *)&alpha_v, ACL_FLOAT);
    aclScalar *s1 = aclCreateScalar((void *)&svals[0], ACL_FLOAT);
    ck_assert(lx && ly && lo && ls && alpha && s1);
    const int64_t one[] = {1};
    nnt_dt_t ta = nnt_mk(one, 1, ACL_FLOAT, ACL_FORMAT_ND, &alpha_v);
    nnt_dt_t ts = nnt_mk(one, 1, ACL_FLOAT, ACL_FORMAT_ND, svals);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    switch (ops[op].cls) {
    case C_UNARY: CK_OK(ops[op].gu(lx, lo, &ws, &e)); break;
    case C_LIST: CK_OK(ops[op].gl(lx, ly, lo, &ws, &e)); break;
    case C_LIST_ALPHA: CK_OK(ops[op].gla(lx, ly, alpha, lo, &ws, &e)); break;
    case C_SCALAR: CK_OK(ops[op].gs(lx, s1, lo, &ws, &e)); break;
    case C_SCALAR_LIST: CK_OK(ops[op].gsl(lx, ls, lo, &ws, &e)); break;
    case C_LIST_ALPHA_T: CK_OK(ops[op].glt(lx, ly, ta.t, lo, &ws, &e)); break;
    case C_SCALAR_T: CK_OK(ops[op].gst(lx, ts.t, lo, &ws, &e)); break;
    case C_I_UNARY:
    case C_ZERO: CK_OK(ops[op].gi(lx, &ws, &e)); break;
    case C_I_LIST: CK_OK(ops[op].gil(lx, ly, &ws, &e)); break;
    case C_I_LIST_ALPHA_T: CK_OK(ops[op].gilt(lx, ly, ta.t, &ws, &e)); break;
    default: CK_OK(ops[op].gist(lx, ts.t, &ws, &e)); break;
    }
    const bool inplace = ops[op].cls >= C_I_UNARY; /* the result is in x */
    nnt_rm(&ta); /* read by the first phase */
    nnt_rm(&ts);
    void *wsp = NULL;
    if (ws)
        CK_OK(aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST));
    RUN(ops[op].run(wsp, ws, e, nnt_stream));
    for (int m = 0; m < M; m++) {
        const int64_t n = mdims[m][0] * mdims[m][1];
        float *got = malloc((size_t)n * 4);
        double *want = malloc((size_t)n * 8);
        rd(inplace ? &tx[m] : &to[m], dt, got, n);
        for (int64_t i = 0; i < n; i++) {
            const int cls = ops[op].cls;
            double b = cls == C_SCALAR || cls == C_SCALAR_T || cls == C_I_SCALAR_T ? svals[0]
                       : cls == C_SCALAR_LIST                                    ? svals[m]
                                                                                 : y[m][i];
            if (cls == C_LIST_ALPHA || cls == C_LIST_ALPHA_T || cls == C_I_LIST_ALPHA_T)
                b *= alpha_v;
            want[i] = ref(ops[op].f, x[m][i], b);
        }
        char what[128];
        snprintf(what, sizeof what, "aclnn%s %s member %d on %s", ops[op].name, f16 ? "fp16" : "fp32", m,
                 profiles[prof] ? profiles[prof] : "ascend910b2");
        if (f16)
            nnt_ck_close(what, got, want, n, 2e-3, 2e-3);
        else
            nnt_ck_close(what, got, want, n, 1e-5, 1e-5);
        free(got);
        free(want);
        CK_OK(aclrtFree(tx[m].dev));
        CK_OK(aclrtFree(ty[m].dev));
        CK_OK(aclrtFree(to[m].dev));
        free(x[m]);
        free(y[m]);
    }
    if (wsp)
        CK_OK(aclrtFree(wsp));
    CK_OK(aclDestroyTensorList(lx));
    CK_OK(aclDestroyTensorList(ly));
    CK_OK(aclDestroyTensorList(lo));
    CK_OK(aclDestroyScalarList(ls));
    CK_OK(aclDestroyScalar(alpha));
    CK_OK(aclDestroyScalar(s1));
}
END_TEST

/* Copy is bit-exact (x * 1) for int32 too; an executor made repeatable runs twice. */
START_TEST(test_aclnn_foreach_copy_int_repeat)
{
    const int64_t d1[] = {5}, d2[] = {2, 40};
    int32_t a[5], b[80], ga[5], gb[80];
    for (int i = 0; i < 5; i++)
        a[i] = (i - 2) * 1000003;
    for (int i = 0; i < 80; i++)
        b[i] = INT32_MAX - i * 7919;
    nnt_dt_t xa = nnt_mk(d1, 1, ACL_INT32, ACL_FORMAT_ND, a), xb = nnt_mk(d2, 2, ACL_INT32, ACL_FORMAT_ND, b);
    nnt_dt_t oa = nnt_mk(d1, 1, ACL_INT32, ACL_FORMAT_ND, NULL), ob = nnt_mk(d2, 2, ACL_INT32, ACL_FORMAT_ND, NULL);
    const aclTensor *vx[2] = {xa.t, xb.t}, *vo[2] = {oa.t, ob.t};
    aclTensorList *lx = aclCreateTensorList(vx, 2), *lo = aclCreateTensorList(vo, 2);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnForeachCopyGetWorkspaceSize(lx, lo, &ws, &e));
    CK_OK(aclSetAclOpExecutorRepeatable(e));
    RUN(aclnnForeachCopy(NULL, ws, e, nnt_stream));
    nnt_rd(&oa, ga);
    nnt_rd(&ob, gb);
    ck_assert_mem_eq(ga, a, sizeof a);
    ck_assert_mem_eq(gb, b, sizeof b);
    CK_OK(aclrtMemset(oa.dev, sizeof a, 0, sizeof a));
    RUN(aclnnForeachCopy(NULL, ws, e, nnt_stream));
    nnt_rd(&oa, ga);
    ck_assert_mem_eq(ga, a, sizeof a);
    CK_OK(aclDestroyAclOpExecutor(e));
    CK_OK(aclrtFree(xa.dev));
    CK_OK(aclrtFree(xb.dev));
    CK_OK(aclrtFree(oa.dev));
    CK_OK(aclrtFree(ob.dev));
    CK_OK(aclDestroyTensorList(lx));
    CK_OK(aclDestroyTensorList(lo));
}
END_TEST

START_TEST(test_aclnn_foreach_errors)
{
    const int64_t d1[] = {2, 3}, d2[] = {4};
    nnt_dt_t a = nnt_mk(d1, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), b = nnt_mk(d2, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t c = nnt_mk(d1, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), h = nnt_mk(d2, 1, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    nnt_dt_t o1 = nnt_mk(d1, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), o2 = nnt_mk(d1, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t d = nnt_mk(d2, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    const aclTensor *v2[2] = {a.t, b.t}, *v1[1] = {c.t}, *vmix[2] = {o1.t, h.t}, *vsw[2] = {d.t, o2.t};
    aclTensorList *l2 = aclCreateTensorList(v2, 2), *l1 = aclCreateTensorList(v1, 1);
    aclTensorList *lmix = aclCreateTensorList(vmix, 2);
    aclTensorList *lsw = aclCreateTensorList(vsw, 2);
    const float one = 1;
    aclScalar *s = aclCreateScalar((void *)&one, ACL_FLOAT);
    const aclScalar *sv[1] = {s};
    aclScalarList *ls1 = aclCreateScalarList(sv, 1);
    uint64_t ws;
    aclOpExecutor *e;
    CK_ERR(aclnnForeachAbsGetWorkspaceSize(NULL, l2, &ws, &e), NN_NULLPTR, "x is NULL");
    CK_ERR(aclnnForeachAbsGetWorkspaceSize(l2, NULL, &ws, &e), NN_NULLPTR, "out is NULL");
    CK_ERR(aclnnForeachMulListGetWorkspaceSize(l2, NULL, l2, &ws, &e), NN_NULLPTR, "x2 is NULL");
    CK_ERR(aclnnForeachAddScalarV2GetWorkspaceSize(l2, NULL, l2, &ws, &e), NN_NULLPTR, "scalar is NULL");
    CK_ERR(aclnnForeachAddListV2GetWorkspaceSize(l2, l2, NULL, l2, &ws, &e), NN_NULLPTR, "alpha is NULL");
    CK_ERR(aclnnForeachAddScalarListGetWorkspaceSize(l2, NULL, l2, &ws, &e), NN_NULLPTR, "scalars is NULL");
    CK_ERR(aclnnForeachAbsGetWorkspaceSize(l2, l2, NULL, &e), NN_NULLPTR, "workspaceSize is NULL");
    /* lengths */
    CK_ERR(aclnnForeachAbsGetWorkspaceSize(l2, l1, &ws, &e), NN_INVALID, "out has 1 members but x has 2");
    CK_ERR(aclnnForeachMulListGetWorkspaceSize(l2, l1, l2, &ws, &e), NN_INVALID, "x2 has 1 members but x1 has 2");
    CK_ERR(aclnnForeachAddScalarListGetWorkspaceSize(l2, ls1, l2, &ws, &e), NN_INVALID,
           "scalars has 1 members but x has 2");
    /* dtype and shape of a member */
    CK_ERR(aclnnForeachAbsGetWorkspaceSize(lmix, l2, &ws, &e), NN_INVALID, "x[1]");
    CK_ERR(aclnnForeachAbsGetWorkspaceSize(l2, lmix, &ws, &e), NN_INVALID, "out[1] has dtype ACL_FLOAT16");
    CK_ERR(aclnnForeachMulListGetWorkspaceSize(l2, lmix, l2, &ws, &e), NN_INVALID, "x2[1] has dtype ACL_FLOAT16");
    CK_ERR(aclnnForeachAbsGetWorkspaceSize(l2, lsw, &ws, &e), NN_INVALID, "out[0]");
    /* a V1 scalar tensor holds one value */
    CK_ERR(aclnnForeachAddScalarGetWorkspaceSize(l2, b.t, l2, &ws, &e), NN_INVALID, "scalar has 4 elements");
    CK_ERR(aclnnForeachAddListGetWorkspaceSize(l2, l2, NULL, l2, &ws, &e), NN_NULLPTR, "alpha is NULL");
    /* an empty list, a destroyed list */
    aclTensorList *l0 = aclCreateTensorList(NULL, 0);
    if (l0) {
        CK_ERR(aclnnForeachAbsGetWorkspaceSize(l0, l0, &ws, &e), NN_INVALID, "x is an empty tensor list");
        CK_OK(aclDestroyTensorList(l0));
        CK_ERR(aclnnForeachAbsGetWorkspaceSize(l0, l2, &ws, &e), NN_INVALID, "x");
    }
    /* a good call still works, and a wrong second phase is refused */
    CK_OK(aclnnForeachAbsGetWorkspaceSize(l2, l2, &ws, &e));
    CK_ERR(aclnnForeachNeg(NULL, ws, e, nnt_stream), NN_INVALID, "made by aclnnForeachAbsGetWorkspaceSize");
    CK_OK(aclDestroyScalarList(ls1));
    CK_OK(aclDestroyTensorList(l2));
    CK_OK(aclDestroyTensorList(l1));
    CK_OK(aclDestroyTensorList(lmix));
    CK_OK(aclrtFree(a.dev));
    CK_OK(aclrtFree(b.dev));
    CK_OK(aclrtFree(c.dev));
    CK_OK(aclrtFree(h.dev));
    CK_OK(aclrtFree(o1.dev));
    CK_OK(aclrtFree(o2.dev));
    CK_OK(aclrtFree(d.dev));
    CK_OK(aclDestroyTensorList(lsw));
}
END_TEST

/* One profile row per member (dvsim launches each member's kernel): OP Type ForeachAddScalar, each with
 * its member's shape. */
START_TEST(test_aclnn_foreach_profile_rows)
{
    char dir[] = "/tmp/dvsim_foreach_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    nnt_teardown();
    nnt_env_clear();
    setenv("DVSIM_PROFILE_OUT", dir, 1);
    CK_OK(aclInit(NULL));
    CK_OK(aclrtSetDevice(0));
    CK_OK(aclrtCreateStream(&nnt_stream));
    static const int64_t d[3][2] = {{2, 3}, {5, 1}, {4, 7}};
    nnt_dt_t x[3], o[3];
    const aclTensor *vx[3], *vo[3];
    for (int i = 0; i < 3; i++) {
        x[i] = nnt_mk(d[i], 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        o[i] = nnt_mk(d[i], 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        vx[i] = x[i].t;
        vo[i] = o[i].t;
    }
    aclTensorList *lx = aclCreateTensorList(vx, 3), *lo = aclCreateTensorList(vo, 3);
    const float two = 2;
    aclScalar *s = aclCreateScalar((void *)&two, ACL_FLOAT);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnForeachAddScalarV2GetWorkspaceSize(lx, s, lo, &ws, &e));
    RUN(aclnnForeachAddScalarV2(NULL, ws, e, nnt_stream));
    for (int i = 0; i < 3; i++) {
        CK_OK(aclrtFree(x[i].dev));
        CK_OK(aclrtFree(o[i].dev));
    }
    CK_OK(aclDestroyTensorList(lx));
    CK_OK(aclDestroyTensorList(lo));
    CK_OK(aclDestroyScalar(s));
    nnt_teardown();
    char path[256], line[4096];
    snprintf(path, sizeof path, "%s/op_summary.csv", dir);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "no %s", path);
    int rows = 0;
    bool shape[3] = {false, false, false};
    while (fgets(line, sizeof line, f)) {
        if (!strstr(line, ",\"aclnnForeachAddScalarV2_ForeachAddScalarAiCore_ForeachAddScalar\",\"ForeachAddScalar\","))
            continue;
        rows++;
        for (int i = 0; i < 3; i++) {
            char want[64];
            snprintf(want, sizeof want, "\"%lld,%lld\",\"DT_FLOAT\"", (long long)d[i][0], (long long)d[i][1]);
            shape[i] = shape[i] || strstr(line, want);
        }
    }
    fclose(f);
    ck_assert_msg(rows == 3, "%d ForeachAddScalar rows in %s, want 3 (one per member)", rows, path);
    ck_assert_msg(shape[0] && shape[1] && shape[2], "a member's shape is missing from the rows of %s", path);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
    nnt_setup_profile(NULL); /* for the fixture's teardown */
}
END_TEST

/* RoundOffNumber (roundMode in a one-element int8 device tensor, as CANN's example) and V2 (an aclScalar):
 * modes 1 (half to even), 2 (floor), 3 (ceil), 5 (trunc), 7 (the fraction, two launches) on halves and
 * near-halves of both signs, and values that are no mode (x kept, CANN's CAST_NONE); 4 and 6, which dvsim
 * has no operator for, and a fractional mode are 161002. */
START_TEST(test_aclnn_foreach_round_off_number)
{
    static const float xa[8] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 2.4f, -2.6f, 7.0f}, xb[3] = {-3.5f, 3.49f, -0.2f};
    static const struct {
        int mode;
        float a[8], b[3];
    } want[] = {
        {1, {0, 2, 2, -0.0f, -2, 2, -3, 7}, {-4, 3, -0.0f}},
        {2, {0, 1, 2, -1, -2, 2, -3, 7}, {-4, 3, -1}},
        {3, {1, 2, 3, -0.0f, -1, 3, -2, 7}, {-3, 4, -0.0f}},
        {5, {0, 1, 2, -0.0f, -1, 2, -2, 7}, {-3, 3, -0.0f}},
        {7, {0.5f, 0.5f, 0.5f, -0.5f, -0.5f, 2.4f - 2, -2.6f + 2, 0}, {-0.5f, 3.49f - 3, -0.2f}},
        {0, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 2.4f, -2.6f, 7.0f}, {-3.5f, 3.49f, -0.2f}}, /* CANN's CAST_NONE */
        {9, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 2.4f, -2.6f, 7.0f}, {-3.5f, 3.49f, -0.2f}},
    };
    const int64_t da[] = {2, 4}, db[] = {3};
    nnt_dt_t x1 = nnt_mk(da, 2, ACL_FLOAT, ACL_FORMAT_ND, xa), x2 = nnt_mk(db, 1, ACL_FLOAT, ACL_FORMAT_ND, xb);
    nnt_dt_t o1 = nnt_mk(da, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), o2 = nnt_mk(db, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    const aclTensor *vx[2] = {x1.t, x2.t}, *vo[2] = {o1.t, o2.t};
    aclTensorList *lx = aclCreateTensorList(vx, 2), *lo = aclCreateTensorList(vo, 2);
    const int64_t one[] = {1};
    uint64_t ws;
    aclOpExecutor *e;
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
        for (int v2 = 0; v2 < 2; v2++) {
            const int8_t m8 = (int8_t)want[k].mode;
            const int32_t m32 = want[k].mode;
            nnt_dt_t tm = nnt_mk(one, 1, ACL_INT8, ACL_FORMAT_ND, &m8);
            aclScalar *sm = aclCreateScalar((void *)&m32, ACL_INT32);
            if (v2) {
                CK_OK(aclnnForeachRoundOffNumberV2GetWorkspaceSize(lx, sm, lo, &ws, &e));
                RUN(aclnnForeachRoundOffNumberV2(NULL, ws, e, nnt_stream));
            } else {
                CK_OK(aclnnForeachRoundOffNumberGetWorkspaceSize(lx, tm.t, lo, &ws, &e));
                RUN(aclnnForeachRoundOffNumber(NULL, ws, e, nnt_stream));
            }
            float ga[8], gb[3];
            nnt_rd(&o1, ga);
            nnt_rd(&o2, gb);
            for (int i = 0; i < 8; i++)
                ck_assert_msg(ga[i] == want[k].a[i], "roundMode %d (%s): round(%g) = %g, want %g", want[k].mode,
                              v2 ? "V2" : "V1", (double)xa[i], (double)ga[i], (double)want[k].a[i]);
            for (int i = 0; i < 3; i++)
                ck_assert_msg(gb[i] == want[k].b[i], "roundMode %d (%s): round(%g) = %g, want %g", want[k].mode,
                              v2 ? "V2" : "V1", (double)xb[i], (double)gb[i], (double)want[k].b[i]);
            nnt_rm(&tm);
            CK_OK(aclDestroyScalar(sm));
        }
    const int8_t m4 = 4;
    const int32_t m6 = 6;
    nnt_dt_t t4 = nnt_mk(one, 1, ACL_INT8, ACL_FORMAT_ND, &m4);
    aclScalar *s6 = aclCreateScalar((void *)&m6, ACL_INT32);
    CK_ERR(aclnnForeachRoundOffNumberGetWorkspaceSize(lx, t4.t, lo, &ws, &e), NN_INVALID,
           "roundMode 4 is not supported");
    CK_ERR(aclnnForeachRoundOffNumberV2GetWorkspaceSize(lx, s6, lo, &ws, &e), NN_INVALID,
           "roundMode 6 is not supported");
    CK_ERR(aclnnForeachRoundOffNumberV2GetWorkspaceSize(lx, NULL, lo, &ws, &e), NN_NULLPTR, "roundMode is NULL");
    const float half = 1.5f;
    aclScalar *sh = aclCreateScalar((void *)&half, ACL_FLOAT);
    CK_ERR(aclnnForeachRoundOffNumberV2GetWorkspaceSize(lx, sh, lo, &ws, &e), NN_INVALID,
           "roundMode 1.5 is not an integer");
    CK_OK(aclDestroyScalar(sh));
    CK_ERR(aclnnForeachRoundOffNumberGetWorkspaceSize(lx, x2.t, lo, &ws, &e), NN_INVALID,
           "roundMode has 3 elements");
    nnt_rm(&t4);
    CK_OK(aclDestroyScalar(s6));
    CK_OK(aclrtFree(x1.dev));
    CK_OK(aclrtFree(x2.dev));
    CK_OK(aclrtFree(o1.dev));
    CK_OK(aclrtFree(o2.dev));
    CK_OK(aclDestroyTensorList(lx));
    CK_OK(aclDestroyTensorList(lo));
}
END_TEST

/* ZeroInplace writes 0 over NaN and inf too (a fill, not x * 0); the in-place forms check their lists and
 * name the member in x (x1), there being no out. */
START_TEST(test_aclnn_foreach_inplace)
{
    const float nan = NAN, inf = INFINITY;
    const float va[4] = {nan, inf, -inf, -0.0f}, vb[2] = {3, -nan};
    const int64_t da[] = {4}, db[] = {2};
    nnt_dt_t a = nnt_mk(da, 1, ACL_FLOAT, ACL_FORMAT_ND, va), b = nnt_mk(db, 1, ACL_FLOAT, ACL_FORMAT_ND, vb);
    nnt_dt_t h = nnt_mk(db, 1, ACL_FLOAT16, ACL_FORMAT_ND, NULL), c = nnt_mk(da, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t c2 = nnt_mk(da, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL), c3 = nnt_mk(da, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t d = nnt_mk(db, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    /* a list releases its members: no tensor in two lists */
    const aclTensor *v2[2] = {a.t, b.t}, *v1[1] = {c.t}, *vmix[2] = {c2.t, h.t}, *vsw[2] = {d.t, c3.t};
    aclTensorList *l2 = aclCreateTensorList(v2, 2), *l1 = aclCreateTensorList(v1, 1);
    aclTensorList *lmix = aclCreateTensorList(vmix, 2), *lsw = aclCreateTensorList(vsw, 2);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnForeachZeroInplaceGetWorkspaceSize(l2, &ws, &e));
    RUN(aclnnForeachZeroInplace(NULL, ws, e, nnt_stream));
    float ga[4], gb[2];
    nnt_rd(&a, ga);
    nnt_rd(&b, gb);
    for (int i = 0; i < 4; i++)
        ck_assert_msg(ga[i] == 0 && !signbit(ga[i]), "x[0][%d] is %g after ZeroInplace", i, (double)ga[i]);
    for (int i = 0; i < 2; i++)
        ck_assert_msg(gb[i] == 0 && !signbit(gb[i]), "x[1][%d] is %g after ZeroInplace", i, (double)gb[i]);
    const int64_t one[] = {1};
    const float two = 2;
    nnt_dt_t ts = nnt_mk(one, 1, ACL_FLOAT, ACL_FORMAT_ND, &two);
    CK_ERR(aclnnForeachZeroInplaceGetWorkspaceSize(NULL, &ws, &e), NN_NULLPTR, "x is NULL");
    CK_ERR(aclnnForeachLogInplaceGetWorkspaceSize(lmix, &ws, &e), NN_INVALID, "x[1]");
    CK_ERR(aclnnForeachMulListInplaceGetWorkspaceSize(l2, l1, &ws, &e), NN_INVALID, "x2 has 1 members but x1 has 2");
    CK_ERR(aclnnForeachMulListInplaceGetWorkspaceSize(l2, lsw, &ws, &e), NN_INVALID, "x2[0]");
    CK_ERR(aclnnForeachDivListInplaceGetWorkspaceSize(l2, NULL, &ws, &e), NN_NULLPTR, "x2 is NULL");
    CK_ERR(aclnnForeachAddListInplaceGetWorkspaceSize(l2, l2, NULL, &ws, &e), NN_NULLPTR, "alpha is NULL");
    CK_ERR(aclnnForeachSubListInplaceGetWorkspaceSize(l2, l2, a.t, &ws, &e), NN_INVALID, "alpha has 4 elements");
    CK_ERR(aclnnForeachSubScalarInplaceGetWorkspaceSize(l2, NULL, &ws, &e), NN_NULLPTR, "scalar is NULL");
    CK_ERR(aclnnForeachMulScalarInplaceGetWorkspaceSize(lmix, ts.t, &ws, &e), NN_INVALID, "x[1]");
    nnt_rm(&ts);
    CK_OK(aclrtFree(a.dev));
    CK_OK(aclrtFree(b.dev));
    CK_OK(aclrtFree(h.dev));
    CK_OK(aclrtFree(c.dev));
    CK_OK(aclrtFree(c2.dev));
    CK_OK(aclrtFree(c3.dev));
    CK_OK(aclrtFree(d.dev));
    CK_OK(aclDestroyTensorList(l2));
    CK_OK(aclDestroyTensorList(l1));
    CK_OK(aclDestroyTensorList(lmix));
    CK_OK(aclDestroyTensorList(lsw));
}
END_TEST

/* Norm: the 1-, 2- and inf-norm of every member (one of a single element, one of several tiles, one
 * empty: 0) in fp32 and fp16 against double sums; another order and an out of more than one element are
 * 161002. */
START_TEST(test_aclnn_foreach_norm)
{
    static const int64_t nd[3] = {6, 1, 9000};
    const double ps[3] = {1, 2, INFINITY};
    for (int dsel = 0; dsel < 2; dsel++) {
        const aclDataType dt = dsel ? ACL_FLOAT16 : ACL_FLOAT;
        for (int pi = 0; pi < 3; pi++) {
            nnt_dt_t tx[4], to[4];
            const aclTensor *vx[4], *vo[4];
            float *x[3];
            const int64_t one[] = {1, 1}, zero[] = {0};
            for (int m = 0; m < 3; m++) {
                x[m] = malloc((size_t)nd[m] * 4);
                host_vals(x[m], nd[m], 5 + (unsigned)m, -2, 2, dsel);
                if (dsel) {
                    uint16_t *h = malloc((size_t)nd[m] * 2);
                    nnt_to_f16(x[m], h, nd[m]);
                    tx[m] = nnt_mk(&nd[m], 1, dt, ACL_FORMAT_ND, h);
                    free(h);
                } else {
                    tx[m] = nnt_mk(&nd[m], 1, dt, ACL_FORMAT_ND, x[m]);
                }
                to[m] = nnt_mk(one, 2, dt, ACL_FORMAT_ND, NULL);
            }
            const float nan = NAN; /* an empty member's norm overwrites this */
            uint16_t nan16 = aclFloatToFloat16(nan);
            tx[3] = nnt_mk(zero, 1, dt, ACL_FORMAT_ND, NULL);
            to[3] = nnt_mk(one, 2, dt, ACL_FORMAT_ND, dsel ? (const void *)&nan16 : (const void *)&nan);
            for (int m = 0; m < 4; m++) {
                vx[m] = tx[m].t;
                vo[m] = to[m].t;
            }
            aclTensorList *lx = aclCreateTensorList(vx, 4), *lo = aclCreateTensorList(vo, 4);
            const float pf = (float)ps[pi];
            aclScalar *sp = aclCreateScalar((void *)&pf, ACL_FLOAT);
            uint64_t ws;
            aclOpExecutor *e;
            CK_OK(aclnnForeachNormGetWorkspaceSize(lx, sp, lo, &ws, &e));
            RUN(aclnnForeachNorm(NULL, ws, e, nnt_stream));
            for (int m = 0; m < 4; m++) {
                double want = 0;
                for (int64_t i = 0; m < 3 && i < nd[m]; i++) {
                    const double a = fabs(x[m][i]);
                    want = pi == 2 ? fmax(want, a) : pi == 0 ? want + a : want + a * a;
                }
                if (pi == 1)
                    want = sqrt(want);
                float got;
                rd(&to[m], dt, &got, 1);
                char what[96];
                snprintf(what, sizeof what, "aclnnForeachNorm p %g %s member %d", ps[pi], dsel ? "fp16" : "fp32", m);
                nnt_ck_close(what, &got, &want, 1, dsel ? 1e-2 : 1e-4, dsel ? 2e-3 : 1e-5);
                if (m < 3)
                    free(x[m]);
                CK_OK(aclrtFree(tx[m].dev));
                CK_OK(aclrtFree(to[m].dev));
            }
            if (pi == 0 && dsel == 0) {
                const float p3 = 3;
                aclScalar *s3 = aclCreateScalar((void *)&p3, ACL_FLOAT);
                CK_ERR(aclnnForeachNormGetWorkspaceSize(lx, s3, lo, &ws, &e), NN_INVALID,
                       "scalar (the order p) 3 is not supported");
                CK_ERR(aclnnForeachNormGetWorkspaceSize(lx, NULL, lo, &ws, &e), NN_NULLPTR, "scalar is NULL");
                CK_ERR(aclnnForeachNormGetWorkspaceSize(lo, sp, lx, &ws, &e), NN_INVALID,
                       "out[0] has 6 elements; the norm of x[0] is one value");
                CK_OK(aclDestroyScalar(s3));
            }
            CK_OK(aclDestroyScalar(sp));
            CK_OK(aclDestroyTensorList(lx));
            CK_OK(aclDestroyTensorList(lo));
        }
    }
}
END_TEST

/* A two-step operator is two launches per member: AddcmulScalarV2 over three members leaves six profile
 * rows of OP Type ForeachAddcmulScalar (mul, then add), Norm over two members two rows of ForeachNorm. */
START_TEST(test_aclnn_foreach_step_rows)
{
    char dir[] = "/tmp/dvsim_foreach_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    nnt_teardown();
    nnt_env_clear();
    setenv("DVSIM_PROFILE_OUT", dir, 1);
    CK_OK(aclInit(NULL));
    CK_OK(aclrtSetDevice(0));
    CK_OK(aclrtCreateStream(&nnt_stream));
    static const int64_t d[3] = {6, 40, 3}, one[2] = {1, 1};
    nnt_dt_t t[4][3];
    const aclTensor *v[4][3];
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 3; i++) {
            t[k][i] = k == 3 ? nnt_mk(one, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL) : nnt_mk(&d[i], 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
            v[k][i] = t[k][i].t;
        }
    aclTensorList *l[4];
    for (int k = 0; k < 4; k++)
        l[k] = aclCreateTensorList(v[k], 3);
    aclTensor *o[3];
    for (int i = 0; i < 3; i++)
        o[i] = nnt_mk(&d[i], 1, ACL_FLOAT, ACL_FORMAT_ND, NULL).t;
    aclTensorList *lo = aclCreateTensorList((const aclTensor *const *)o, 3);
    const float two = 2;
    aclScalar *s = aclCreateScalar((void *)&two, ACL_FLOAT);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnForeachAddcmulScalarV2GetWorkspaceSize(l[0], l[1], l[2], s, lo, &ws, &e));
    RUN(aclnnForeachAddcmulScalarV2(NULL, ws, e, nnt_stream));
    aclTensorList *ln = aclCreateTensorList(v[3], 2); /* two members of x0 for Norm: its out of one element */
    const aclTensor *vx2[2] = {o[0], o[1]};
    aclTensorList *lx2 = aclCreateTensorList(vx2, 2);
    CK_OK(aclnnForeachNormGetWorkspaceSize(lx2, s, ln, &ws, &e));
    RUN(aclnnForeachNorm(NULL, ws, e, nnt_stream));
    nnt_teardown();
    char path[256], line[4096];
    snprintf(path, sizeof path, "%s/op_summary.csv", dir);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "no %s", path);
    int addc = 0, norm = 0;
    while (fgets(line, sizeof line, f)) {
        addc += strstr(line, ",\"ForeachAddcmulScalar\",") != NULL;
        norm += strstr(line, ",\"ForeachNorm\",") != NULL;
    }
    fclose(f);
    ck_assert_msg(addc == 6, "%d ForeachAddcmulScalar rows in %s, want 6 (mul and add per member)", addc, path);
    ck_assert_msg(norm == 2, "%d ForeachNorm rows in %s, want 2 (one lp_norm per member)", norm, path);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
    nnt_setup_profile(NULL); /* for the fixture's teardown */
}
END_TEST

/* Addcmul, Addcdiv (the scalar as an aclScalar, a one-element device tensor, a device tensor of one value per
 * member) and Lerp (a weight list, an aclScalar weight) in fp32 and fp16 on the four members against C;
 * out may not be an input; the scalars tensor holds one value per member. */
typedef aclnnStatus (*g3s_fn)(const aclTensorList *, const aclTensorList *, const aclTensorList *, const aclScalar *,
                              aclTensorList *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*g3t_fn)(const aclTensorList *, const aclTensorList *, const aclTensorList *, const aclTensor *,
                              aclTensorList *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*glw_fn)(const aclTensorList *, const aclTensorList *, const aclTensorList *, aclTensorList *,
                              uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*gls_fn)(const aclTensorList *, const aclTensorList *, const aclScalar *, aclTensorList *,
                              uint64_t *, aclOpExecutor **);
enum { T_S, T_T, T_TL, T_LW, T_LS };
static const struct {
    const char *name;
    int cls;
    bool div, lerp;
    g3s_fn g3s;
    g3t_fn g3t;
    glw_fn glw;
    gls_fn gls;
    run_fn run;
} tops[] = {
#define T3(n, c, d, fld) {.name = #n, .cls = c, .div = d, .fld = G(n), .run = aclnn##n}
    T3(ForeachAddcmulScalarV2, T_S, false, g3s),   T3(ForeachAddcmulScalar, T_T, false, g3t),
    T3(ForeachAddcmulScalarList, T_TL, false, g3t), T3(ForeachAddcmulList, T_TL, false, g3t),
    T3(ForeachAddcdivScalarV2, T_S, true, g3s),    T3(ForeachAddcdivScalar, T_T, true, g3t),
    T3(ForeachAddcdivScalarList, T_TL, true, g3t),  T3(ForeachAddcdivList, T_TL, true, g3t),
    {.name = "ForeachLerpList", .cls = T_LW, .lerp = true, .glw = G(ForeachLerpList), .run = aclnnForeachLerpList},
    {.name = "ForeachLerpScalar", .cls = T_LS, .lerp = true, .gls = G(ForeachLerpScalar), .run = aclnnForeachLerpScalar},
};
enum { NTOPS = sizeof tops / sizeof tops[0] };

START_TEST(test_aclnn_foreach_ternary)
{
    const int op = _i % NTOPS, dsel = _i / NTOPS;
    const aclDataType dt = dsel ? ACL_FLOAT16 : ACL_FLOAT;
    nnt_setup_profile(NULL);
    float *v[3][M];
    nnt_dt_t tv[3][M], to[M];
    const aclTensor *vv[3][M], *vo[M];
    for (int m = 0; m < M; m++) {
        const int64_t n = mdims[m][0] * mdims[m][1];
        for (int k = 0; k < 3; k++) {
            v[k][m] = malloc((size_t)n * 4);
            const bool divisor = k == 2 && tops[op].div;
            host_vals(v[k][m], n, 31 + (unsigned)(7 * m + k), divisor ? 0.5f : -4, divisor ? 2 : 4, dsel);
            tv[k][m] = mk(m, dt, v[k][m]);
            vv[k][m] = tv[k][m].t;
        }
        to[m] = mk(m, dt, NULL);
        vo[m] = to[m].t;
    }
    aclTensorList *l[3], *lo = aclCreateTensorList(vo, M);
    for (int k = 0; k < 3; k++)
        l[k] = aclCreateTensorList(vv[k], M);
    const float sc[M] = {0.5f, -1.25f, 2.0f, 0.75f};
    const float s0 = sc[0];
    aclScalar *as = aclCreateScalar((void *)&s0, ACL_FLOAT);
    const int64_t one[] = {1}, per[] = {1, M};
    nnt_dt_t t1 = nnt_mk(one, 1, ACL_FLOAT, ACL_FORMAT_ND, &s0), tl = nnt_mk(per, 2, ACL_FLOAT, ACL_FORMAT_ND, sc);
    uint64_t ws;
    aclOpExecutor *e;
    switch (tops[op].cls) {
    case T_S: CK_OK(tops[op].g3s(l[0], l[1], l[2], as, lo, &ws, &e)); break;
    case T_T: CK_OK(tops[op].g3t(l[0], l[1], l[2], t1.t, lo, &ws, &e)); break;
    case T_TL: CK_OK(tops[op].g3t(l[0], l[1], l[2], tl.t, lo, &ws, &e)); break;
    case T_LW: CK_OK(tops[op].glw(l[0], l[1], l[2], lo, &ws, &e)); break;
    default: CK_OK(tops[op].gls(l[0], l[1], as, lo, &ws, &e)); break;
    }
    RUN(tops[op].run(NULL, ws, e, nnt_stream));
    for (int m = 0; m < M; m++) {
        const int64_t n = mdims[m][0] * mdims[m][1];
        float *got = malloc((size_t)n * 4);
        double *want = malloc((size_t)n * 8);
        rd(&to[m], dt, got, n);
        const double s = tops[op].cls == T_TL ? sc[m] : s0;
        for (int64_t i = 0; i < n; i++) {
            const double a = v[0][m][i], b = v[1][m][i], c = v[2][m][i];
            want[i] = tops[op].cls == T_LW ? a + c * (b - a)
                      : tops[op].lerp      ? a + s * (b - a)
                                           : a + s * (tops[op].div ? b / c : b * c);
        }
        char what[96];
        snprintf(what, sizeof what, "aclnn%s %s member %d", tops[op].name, dsel ? "fp16" : "fp32", m);
        nnt_ck_close(what, got, want, n, dsel ? 2e-2 : 1e-5, dsel ? 4e-3 : 1e-5);
        free(got);
        free(want);
    }
    if (op == 2 && dsel == 0) { /* errors, on AddcmulScalarList */
        CK_ERR(tops[op].g3t(l[0], l[1], l[2], t1.t, lo, &ws, &e), NN_INVALID,
               "scalars has 1 elements; it must hold one value per member (4)");
        CK_ERR(tops[op].g3t(l[0], l[1], l[2], NULL, lo, &ws, &e), NN_NULLPTR, "scalars is NULL");
        CK_ERR(tops[op].g3t(l[0], l[1], NULL, tl.t, lo, &ws, &e), NN_NULLPTR, "x3 is NULL");
        CK_ERR(tops[op].g3t(l[0], l[1], l[2], tl.t, l[0], &ws, &e), NN_INVALID,
               "out[0] is x1[0]: dvsim computes this operator in steps through out");
    }
    for (int m = 0; m < M; m++) {
        for (int k = 0; k < 3; k++) {
            CK_OK(aclrtFree(tv[k][m].dev));
            free(v[k][m]);
        }
        CK_OK(aclrtFree(to[m].dev));
    }
    nnt_rm(&t1);
    nnt_rm(&tl);
    CK_OK(aclDestroyScalar(as));
    for (int k = 0; k < 3; k++)
        CK_OK(aclDestroyTensorList(l[k]));
    CK_OK(aclDestroyTensorList(lo));
}
END_TEST

/* NonFiniteCheckAndUnscale: every member times invScale; foundInf raised to 1 by an inf or a NaN in any
 * member (fp32 and fp16), and otherwise left as it was (-1 stays -1: clearing it is the caller's). */
START_TEST(test_aclnn_foreach_unscale)
{
    static const int64_t nd[3] = {5, 300, 1};
    const float inv = 0.25f;
    for (int dsel = 0; dsel < 2; dsel++)
        for (int bad = 0; bad < 3; bad++) { /* 0 all finite, 1 an inf in member 1, 2 a NaN in member 2 */
            const aclDataType dt = dsel ? ACL_FLOAT16 : ACL_FLOAT;
            nnt_dt_t tg[3];
            const aclTensor *vg[3];
            float *x[3];
            for (int m = 0; m < 3; m++) {
                x[m] = malloc((size_t)nd[m] * 4);
                host_vals(x[m], nd[m], 3 + (unsigned)m, -8, 8, dsel);
                if (bad == 1 && m == 1)
                    x[m][123] = -INFINITY;
                if (bad == 2 && m == 2)
                    x[m][0] = NAN;
                if (dsel) {
                    uint16_t *h = malloc((size_t)nd[m] * 2);
                    nnt_to_f16(x[m], h, nd[m]);
                    tg[m] = nnt_mk(&nd[m], 1, dt, ACL_FORMAT_ND, h);
                    free(h);
                } else {
                    tg[m] = nnt_mk(&nd[m], 1, dt, ACL_FORMAT_ND, x[m]);
                }
                vg[m] = tg[m].t;
            }
            aclTensorList *lg = aclCreateTensorList(vg, 3);
            const int64_t one[] = {1};
            const float fi0 = -1;
            nnt_dt_t tf = nnt_mk(one, 1, ACL_FLOAT, ACL_FORMAT_ND, &fi0), ti = nnt_mk(one, 1, ACL_FLOAT, ACL_FORMAT_ND, &inv);
            uint64_t ws;
            aclOpExecutor *e;
            CK_OK(aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(lg, tf.t, ti.t, &ws, &e));
            RUN(aclnnForeachNonFiniteCheckAndUnscale(NULL, ws, e, nnt_stream));
            float fi;
            nnt_rd(&tf, &fi);
            ck_assert_msg(fi == (bad ? 1.0f : -1.0f), "%s bad %d: foundInf %g", dsel ? "fp16" : "fp32", bad, (double)fi);
            for (int m = 0; m < 3; m++) {
                float *got = malloc((size_t)nd[m] * 4);
                double *want = malloc((size_t)nd[m] * 8);
                rd(&tg[m], dt, got, nd[m]);
                for (int64_t i = 0; i < nd[m]; i++) {
                    want[i] = (double)x[m][i] * inv;
                    if (!isfinite(want[i])) { /* inf and NaN scale to themselves */
                        ck_assert_msg(isnan(want[i]) ? isnan(got[i]) : got[i] == want[i], "member %d [%lld]: %g", m,
                                      (long long)i, (double)got[i]);
                        want[i] = got[i] = 0;
                    }
                }
                nnt_ck_close("aclnnForeachNonFiniteCheckAndUnscale scaledGrads", got, want, nd[m], 1e-6, 1e-6);
                free(got);
                free(want);
                free(x[m]);
                CK_OK(aclrtFree(tg[m].dev));
            }
            if (bad == 0 && dsel == 0) {
                CK_ERR(aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(lg, NULL, ti.t, &ws, &e), NN_NULLPTR,
                       "foundInf is NULL");
                CK_ERR(aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(lg, tf.t, NULL, &ws, &e), NN_NULLPTR,
                       "invScale is NULL");
                CK_ERR(aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(lg, vg[1], ti.t, &ws, &e), NN_INVALID,
                       "foundInf is ACL_FLOAT of 300 elements; it must be one ACL_FLOAT");
            }
            nnt_rm(&tf);
            nnt_rm(&ti);
            CK_OK(aclDestroyTensorList(lg));
        }
}
END_TEST

/* The library's lp_norm and nonfinite_check (ops/foreach.c) with --check on both profiles (every order and
 * dtype, one element, a partial last tile, several tiles folding; nonfinite_check on finite data: y is
 * found); no hazard; a tile that is no power of two is refused. */
START_TEST(test_aclnn_foreach_lp_norm_op)
{
    static const char *const cmds[] = {
        "lp_norm --shape 1 --p 2",         "lp_norm --shape 6 --p 1 --dtype fp16",
        "lp_norm --shape 4097 --p 0",      "lp_norm --shape 3x517 --p 2 --dtype fp16 --tile-elems 64",
        "lp_norm --shape 20000 --p 1",     "lp_norm --shape 20000 --p 0 --dtype fp16 --tile-elems 8192",
        "nonfinite_check --shape 6",       "nonfinite_check --shape 4097 --dtype fp16 --tile-elems 64",
        "nonfinite_check --shape 20000",
    };
    const char *prof = profiles[_i];
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        dvt_op_t r;
        dvt_op(&r, prof, NULL, cmds[c], true, true);
        ck_assert_msg(r.rc == DV_OK, "[%s] %s: %s", prof ? prof : "ascend910b2", cmds[c], r.err.msg);
        ck_assert_msg(r.check.compared == 1 && r.check.mismatches == 0, "[%s] %s: %llu of %llu mismatch",
                      prof ? prof : "ascend910b2", cmds[c], (unsigned long long)r.check.mismatches,
                      (unsigned long long)r.check.compared);
        ck_assert_msg(r.cnt.hazards == 0, "[%s] %s: %llu hazards", prof ? prof : "ascend910b2", cmds[c],
                      (unsigned long long)r.cnt.hazards);
        dvt_op_free(&r);
    }
    dvt_op_t r;
    dvt_op(&r, prof, NULL, "lp_norm --shape 64 --tile-elems 192", false, false);
    ck_assert_msg(r.rc != DV_OK && strstr(r.err.msg, "not a multiple of 64 and a power of two"), "%s", r.err.msg);
    dvt_op_free(&r);
}
END_TEST

Suite *dv_aclnn_foreach_suite(void);
Suite *dv_aclnn_foreach_suite(void)
{
    Suite *s = suite_create("aclnn_foreach");
    TCase *tc = tcase_create("aclnn_foreach");
    tcase_add_checked_fixture(tc, NULL, nnt_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_aclnn_foreach_ops, 0, 2 * 2 * NOPS);
    tcase_add_loop_test(tc, test_aclnn_foreach_lp_norm_op, 0, 2);
    tcase_add_loop_test(tc, test_aclnn_foreach_ternary, 0, 2 * NTOPS);
    suite_add_tcase(s, tc);
    TCase *te = tcase_create("aclnn_foreach_910b2");
    tcase_add_checked_fixture(te, nnt_setup, nnt_teardown);
    tcase_set_timeout(te, 60);
    tcase_add_test(te, test_aclnn_foreach_copy_int_repeat);
    tcase_add_test(te, test_aclnn_foreach_errors);
    tcase_add_test(te, test_aclnn_foreach_profile_rows);
    tcase_add_test(te, test_aclnn_foreach_round_off_number);
    tcase_add_test(te, test_aclnn_foreach_inplace);
    tcase_add_test(te, test_aclnn_foreach_norm);
    tcase_add_test(te, test_aclnn_foreach_unscale);
    tcase_add_test(te, test_aclnn_foreach_step_rows);
    suite_add_tcase(s, te);
    return s;
}
