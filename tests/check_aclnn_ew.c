/* tests/check_aclnn_ew.c - the element-wise aclnn operators of the table (acl/nnops.def) through the
 * real shim on the 910B2 and 310 profiles: each unary, binary and scalar operator and its Inplace
 * form against a plain-C reference, on a contiguous tensor and on a non-contiguous view (transposed,
 * with an offset); in-place aliasing; the errors of the first phase (NULL 161001; a non-broadcasting
 * shape, a dtype or a dead handle 161002). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_hardtanh.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_tanh.h"
#include "support/nnt.h"

/* CANN's declarations, as client code takes their addresses (a qualifier that differs from CANN's
 * header is a compile error here). */
static aclnnStatus (*const inplace_add_fn)(const aclTensor *, const aclTensor *, const aclScalar *, uint64_t *,
                                           aclOpExecutor **) = aclnnInplaceAddGetWorkspaceSize;
static aclnnStatus (*const inplace_sub_fn)(aclTensor *, const aclTensor *, const aclScalar *, uint64_t *,
                                           aclOpExecutor **) = aclnnInplaceSubGetWorkspaceSize;
static aclnnStatus (*const inplace_rec_fn)(const aclTensor *, uint64_t *, aclOpExecutor **) =
    aclnnInplaceReciprocalGetWorkspaceSize;
static aclnnStatus (*const lrelu_fn)(const aclTensor *, const aclScalar *, aclTensor *, uint64_t *,
                                     aclOpExecutor **) = aclnnLeakyReluGetWorkspaceSize;

static const char *const profiles[] = {NULL /* ascend910b2 */, "ascend310"};

#define SLOPE 0.125
#define GELU_SCALE 1.5957691216057308

/* ---------------------------------------------------------------- unary */

enum { U_ABS, U_NEG, U_EXP, U_LOG, U_SQRT, U_RSQRT, U_REC, U_RELU, U_GELU, U_SIGMOID, U_SILU, U_TANH, U_LRELU, U_COUNT };
static const struct {
    const char *name;
    float lo, hi;   /* inputs */
    bool inplace;   /* CANN has aclnnInplace<name> */
} unary[U_COUNT] = {
    [U_ABS] = {"Abs", -4, 4, false},       [U_NEG] = {"Neg", -4, 4, true},
    [U_EXP] = {"Exp", -4, 4, true},        [U_LOG] = {"Log", 0.25f, 4, true},
    [U_SQRT] = {"Sqrt", 0.25f, 4, true},   [U_RSQRT] = {"Rsqrt", 0.25f, 4, true},
    [U_REC] = {"Reciprocal", 0.25f, 4, true}, [U_RELU] = {"Relu", -4, 4, true},
    [U_GELU] = {"Gelu", -4, 4, false},     [U_SIGMOID] = {"Sigmoid", -4, 4, true},
    [U_SILU] = {"Silu", -4, 4, false},     [U_TANH] = {"Tanh", -4, 4, true},     [U_LRELU] = {"LeakyRelu", -4, 4, true},
};

static double unary_ref(int op, double x)
{
    switch (op) {
    case U_ABS: return fabs(x);
    case U_NEG: return -x;
    case U_EXP: return exp(x);
    case U_LOG: return log(x);
    case U_SQRT: return sqrt(x);
    case U_RSQRT: return 1 / sqrt(x);
    case U_REC: return 1 / x;
    case U_RELU: return x > 0 ? x : 0;
    case U_GELU: return x / (1 + exp(-GELU_SCALE * (x + 0.044715 * x * x * x)));
    case U_SIGMOID: return 1 / (1 + exp(-x));
    case U_SILU: return x / (1 + exp(-x));
    case U_TANH: return tanh(x);
    default: return x >= 0 ? x : x * SLOPE;
    }
}

/* Phase 1 of the operator (out-of-place, or in place on x when out is NULL). */
static int unary_ws(int op, aclTensor *x, aclTensor *out, const aclScalar *slope, uint64_t *ws, aclOpExecutor **e)
{
    switch (op) {
    case U_ABS: return aclnnAbsGetWorkspaceSize(x, out, ws, e);
    case U_NEG: return out ? aclnnNegGetWorkspaceSize(x, out, ws, e) : aclnnInplaceNegGetWorkspaceSize(x, ws, e);
    case U_EXP: return out ? aclnnExpGetWorkspaceSize(x, out, ws, e) : aclnnInplaceExpGetWorkspaceSize(x, ws, e);
    case U_LOG: return out ? aclnnLogGetWorkspaceSize(x, out, ws, e) : aclnnInplaceLogGetWorkspaceSize(x, ws, e);
    case U_SQRT: return out ? aclnnSqrtGetWorkspaceSize(x, out, ws, e) : aclnnInplaceSqrtGetWorkspaceSize(x, ws, e);
    case U_RSQRT: return out ? aclnnRsqrtGetWorkspaceSize(x, out, ws, e) : aclnnInplaceRsqrtGetWorkspaceSize(x, ws, e);
    case U_REC: return out ? aclnnReciprocalGetWorkspaceSize(x, out, ws, e) : inplace_rec_fn(x, ws, e);
    case U_RELU: return out ? aclnnReluGetWorkspaceSize(x, out, ws, e) : aclnnInplaceReluGetWorkspaceSize(x, ws, e);
    case U_GELU: return aclnnGeluGetWorkspaceSize(x, out, ws, e);
    case U_SIGMOID:
        return out ? aclnnSigmoidGetWorkspaceSize(x, out, ws, e) : aclnnInplaceSigmoidGetWorkspaceSize(x, ws, e);
    case U_SILU: return aclnnSiluGetWorkspaceSize(x, out, ws, e);
    case U_TANH: return out ? aclnnTanhGetWorkspaceSize(x, out, ws, e) : aclnnInplaceTanhGetWorkspaceSize(x, ws, e);
    default: return out ? lrelu_fn(x, slope, out, ws, e) : aclnnInplaceLeakyReluGetWorkspaceSize(x, slope, ws, e);
    }
}

/* Phase 2 of the operator. */
static int unary_run(int op, bool inplace, uint64_t ws, aclOpExecutor *e)
{
    switch (op) {
    case U_ABS: return aclnnAbs(NULL, ws, e, nnt_stream);
    case U_NEG: return inplace ? aclnnInplaceNeg(NULL, ws, e, nnt_stream) : aclnnNeg(NULL, ws, e, nnt_stream);
    case U_EXP: return inplace ? aclnnInplaceExp(NULL, ws, e, nnt_stream) : aclnnExp(NULL, ws, e, nnt_stream);
    case U_LOG: return inplace ? aclnnInplaceLog(NULL, ws, e, nnt_stream) : aclnnLog(NULL, ws, e, nnt_stream);
    case U_SQRT: return inplace ? aclnnInplaceSqrt(NULL, ws, e, nnt_stream) : aclnnSqrt(NULL, ws, e, nnt_stream);
    case U_RSQRT: return inplace ? aclnnInplaceRsqrt(NULL, ws, e, nnt_stream) : aclnnRsqrt(NULL, ws, e, nnt_stream);
    case U_REC:
        return inplace ? aclnnInplaceReciprocal(NULL, ws, e, nnt_stream) : aclnnReciprocal(NULL, ws, e, nnt_stream);
    case U_RELU: return inplace ? aclnnInplaceRelu(NULL, ws, e, nnt_stream) : aclnnRelu(NULL, ws, e, nnt_stream);
    case U_GELU: return aclnnGelu(NULL, ws, e, nnt_stream);
    case U_SIGMOID:
        return inplace ? aclnnInplaceSigmoid(NULL, ws, e, nnt_stream) : aclnnSigmoid(NULL, ws, e, nnt_stream);
    case U_SILU: return aclnnSilu(NULL, ws, e, nnt_stream);
    case U_TANH: return inplace ? aclnnInplaceTanh(NULL, ws, e, nnt_stream) : aclnnTanh(NULL, ws, e, nnt_stream);
    default: return inplace ? aclnnInplaceLeakyRelu(NULL, ws, e, nnt_stream) : aclnnLeakyRelu(NULL, ws, e, nnt_stream);
    }
}

/* Every unary operator in fp32 on one profile (loop index: profile * U_COUNT + op): out-of-place on a
 * contiguous [5, 77]; out-of-place with self the transposed view (offset 3) of a [77, 5] block of a
 * larger allocation; and, where CANN has it, in place on a contiguous tensor and on that view (the
 * elements around the view unchanged). */
START_TEST(test_aclnn_ew_unary)
{
    const int op = _i % U_COUNT;
    nnt_setup_profile(profiles[_i / U_COUNT]);
    enum { R = 5, C = 77, N = R * C, BIG = N + 3 + 4 };
    const int64_t dims[] = {R, C}, bigd[] = {BIG}, vstr[] = {1, R};
    float *x = malloc(BIG * 4), *got = malloc(BIG * 4);
    double *want = malloc(N * sizeof *want);
    nnt_fill(x, BIG, 40 + (unsigned)op, unary[op].lo, unary[op].hi);
    const float slope = (float)SLOPE;
    aclScalar *s = aclCreateScalar((void *)&slope, ACL_FLOAT);
    char what[96];
    uint64_t ws;
    aclOpExecutor *e;
    for (int mode = 0; mode < 4; mode++) { /* contiguous, view, in place, in place on the view */
        const bool view = mode & 1, inplace = mode & 2;
        if (inplace && !unary[op].inplace)
            continue;
        nnt_dt_t in = nnt_mk(bigd, 1, ACL_FLOAT, ACL_FORMAT_ND, x), out = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        /* the view [R, C] with strides (1, R) from element 3: element (r, c) is x[3 + c * R + r] */
        aclTensor *xt = view ? aclCreateTensor(dims, 2, ACL_FLOAT, vstr, 3, ACL_FORMAT_ND, bigd, 1, in.dev)
                             : aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 2, in.dev);
        ck_assert_ptr_nonnull(xt);
        CK_OK(unary_ws(op, xt, inplace ? NULL : out.t, s, &ws, &e));
        RUN(unary_run(op, inplace, ws, e));
        float res[N];
        if (inplace) {
            nnt_rd(&in, got);
            for (int i = 0; i < BIG; i++) { /* outside the view: unchanged */
                const bool inside = view ? i >= 3 && i < 3 + N : i < N;
                if (!inside)
                    ck_assert_msg(got[i] == x[i], "%s in place: element %d outside the view changed", unary[op].name, i);
            }
        } else {
            nnt_rd(&out, res);
        }
        for (int r = 0; r < R; r++)
            for (int c = 0; c < C; c++) {
                const int src = view ? 3 + c * R + r : r * C + c;
                want[r * C + c] = unary_ref(op, x[src]);
                if (inplace)
                    res[r * C + c] = got[src];
            }
        snprintf(what, sizeof what, "aclnn%s%s%s on %s", inplace ? "Inplace" : "", unary[op].name,
                 view ? " (view)" : "", profiles[_i / U_COUNT] ? profiles[_i / U_COUNT] : "ascend910b2");
        nnt_ck_close(what, res, want, N, 1e-5, 1e-5);
        CK_OK(aclDestroyTensor(xt));
        nnt_rm(&in);
        nnt_rm(&out);
    }
    CK_OK(aclDestroyScalar(s));
    free(x);
    free(got);
    free(want);
}
END_TEST

/* ---------------------------------------------------------------- binary and scalar */

enum { B_ADD, B_SUB, B_MUL, B_DIV, B_MAX, B_MIN, B_ADDS, B_SUBS, B_MULS, B_DIVS, B_COUNT };
static const struct {
    const char *name;
    bool scalar;  /* other is an aclScalar */
    bool inplace; /* CANN has aclnnInplace<name> */
} binary[B_COUNT] = {
    [B_ADD] = {"Add", false, true},  [B_SUB] = {"Sub", false, true},   [B_MUL] = {"Mul", false, true},
    [B_DIV] = {"Div", false, true},  [B_MAX] = {"Maximum", false, false}, [B_MIN] = {"Minimum", false, false},
    [B_ADDS] = {"Adds", true, true}, [B_SUBS] = {"Subs", true, true},  [B_MULS] = {"Muls", true, true},
    [B_DIVS] = {"Divs", true, true},
};
#define ALPHA 1.5f
#define OTHER 0.75f

/* The fp32 result as the kernel computes it: alpha * other rounded to fp32 first, then one fp32 op. */
static float binary_ref(int op, float x, float y)
{
    switch (op) {
    case B_ADD: return x + (float)(ALPHA * y);
    case B_SUB: return x - (float)(ALPHA * y);
    case B_MUL: return x * y;
    case B_DIV: return x / y;
    case B_MAX: return x > y ? x : y;
    case B_MIN: return x < y ? x : y;
    case B_ADDS: return x + (float)((double)ALPHA * OTHER);
    case B_SUBS: return x + (float)(-(double)ALPHA * OTHER);
    case B_DIVS: return x / OTHER;
    default: return x * OTHER;
    }
}

static int binary_ws(int op, aclTensor *x, const aclTensor *y, const aclScalar *o, const aclScalar *a, aclTensor *out,
                     uint64_t *ws, aclOpExecutor **e)
{
    switch (op) {
    case B_ADD: return out ? aclnnAddGetWorkspaceSize(x, y, a, out, ws, e) : inplace_add_fn(x, y, a, ws, e);
    case B_SUB: return out ? aclnnSubGetWorkspaceSize(x, y, a, out, ws, e) : inplace_sub_fn(x, y, a, ws, e);
    case B_MUL: return out ? aclnnMulGetWorkspaceSize(x, y, out, ws, e) : aclnnInplaceMulGetWorkspaceSize(x, y, ws, e);
    case B_DIV: return out ? aclnnDivGetWorkspaceSize(x, y, out, ws, e) : aclnnInplaceDivGetWorkspaceSize(x, y, ws, e);
    case B_MAX: return aclnnMaximumGetWorkspaceSize(x, y, out, ws, e);
    case B_MIN: return aclnnMinimumGetWorkspaceSize(x, y, out, ws, e);
    case B_ADDS:
        return out ? aclnnAddsGetWorkspaceSize(x, o, a, out, ws, e) : aclnnInplaceAddsGetWorkspaceSize(x, o, a, ws, e);
    case B_SUBS:
        return out ? aclnnSubsGetWorkspaceSize(x, o, a, out, ws, e) : aclnnInplaceSubsGetWorkspaceSize(x, o, a, ws, e);
    case B_DIVS:
        return out ? aclnnDivsGetWorkspaceSize(x, o, out, ws, e) : aclnnInplaceDivsGetWorkspaceSize(x, o, ws, e);
    default: return out ? aclnnMulsGetWorkspaceSize(x, o, out, ws, e) : aclnnInplaceMulsGetWorkspaceSize(x, o, ws, e);
    }
}

static int binary_run(int op, bool inplace, uint64_t ws, aclOpExecutor *e)
{
    aclrtStream st = nnt_stream;
    switch (op) {
    case B_ADD: return inplace ? aclnnInplaceAdd(NULL, ws, e, st) : aclnnAdd(NULL, ws, e, st);
    case B_SUB: return inplace ? aclnnInplaceSub(NULL, ws, e, st) : aclnnSub(NULL, ws, e, st);
    case B_MUL: return inplace ? aclnnInplaceMul(NULL, ws, e, st) : aclnnMul(NULL, ws, e, st);
    case B_DIV: return inplace ? aclnnInplaceDiv(NULL, ws, e, st) : aclnnDiv(NULL, ws, e, st);
    case B_MAX: return aclnnMaximum(NULL, ws, e, st);
    case B_MIN: return aclnnMinimum(NULL, ws, e, st);
    case B_ADDS: return inplace ? aclnnInplaceAdds(NULL, ws, e, st) : aclnnAdds(NULL, ws, e, st);
    case B_SUBS: return inplace ? aclnnInplaceSubs(NULL, ws, e, st) : aclnnSubs(NULL, ws, e, st);
    case B_DIVS: return inplace ? aclnnInplaceDivs(NULL, ws, e, st) : aclnnDivs(NULL, ws, e, st);
    default: return inplace ? aclnnInplaceMuls(NULL, ws, e, st) : aclnnMuls(NULL, ws, e, st);
    }
}

/* Every binary and scalar operator in fp32 on one profile (loop index: profile * B_COUNT + op),
 * bit-exact: out-of-place with contiguous tensors; out-of-place with self the transposed view
 * (offset 3) of a larger allocation; in place (selfRef is both the input and the output). */
START_TEST(test_aclnn_ew_binary)
{
    const int op = _i % B_COUNT;
    nnt_setup_profile(profiles[_i / B_COUNT]);
    enum { R = 3, C = 301, N = R * C, BIG = N + 3 + 5 };
    const int64_t dims[] = {R, C}, bigd[] = {BIG}, vstr[] = {1, R};
    float *x = malloc(BIG * 4), *y = malloc(N * 4), *got = malloc(BIG * 4), *res = malloc(N * 4);
    nnt_fill(x, BIG, 60 + (unsigned)op, -8, 8);
    nnt_fill(y, N, 80 + (unsigned)op, 0.5f, 2); /* away from 0: a divisor */
    for (int i = 0; i < N; i += 2)
        y[i] = -y[i];
    const float alpha = ALPHA, other = OTHER;
    aclScalar *a = aclCreateScalar((void *)&alpha, ACL_FLOAT), *o = aclCreateScalar((void *)&other, ACL_FLOAT);
    uint64_t ws;
    aclOpExecutor *e;
    for (int mode = 0; mode < 3; mode++) { /* contiguous, self a view, in place */
        const bool view = mode == 1, inplace = mode == 2;
        if (inplace && !binary[op].inplace)
            continue;
        nnt_dt_t in = nnt_mk(bigd, 1, ACL_FLOAT, ACL_FORMAT_ND, x), yt = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, y);
        nnt_dt_t out = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        aclTensor *xt = view ? aclCreateTensor(dims, 2, ACL_FLOAT, vstr, 3, ACL_FORMAT_ND, bigd, 1, in.dev)
                             : aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 2, in.dev);
        ck_assert_ptr_nonnull(xt);
        CK_OK(binary_ws(op, xt, yt.t, o, a, inplace ? NULL : out.t, &ws, &e));
        RUN(binary_run(op, inplace, ws, e));
        if (inplace) {
            nnt_rd(&in, got);
            memcpy(res, got, N * 4);
            for (int i = N; i < BIG; i++)
                ck_assert_msg(got[i] == x[i], "aclnnInplace%s: element %d past the tensor changed", binary[op].name, i);
        } else {
            nnt_rd(&out, res);
        }
        for (int r = 0; r < R; r++)
            for (int c = 0; c < C; c++) {
                const float xv = x[view ? 3 + c * R + r : r * C + c], want = binary_ref(op, xv, y[r * C + c]);
                ck_assert_msg(memcmp(&res[r * C + c], &want, 4) == 0, "aclnn%s%s%s: [%d][%d] = %.9g, want %.9g",
                              inplace ? "Inplace" : "", binary[op].name, view ? " (view)" : "", r, c,
                              res[r * C + c], want);
            }
        CK_OK(aclDestroyTensor(xt));
        nnt_rm(&in);
        nnt_rm(&yt);
        nnt_rm(&out);
    }
    CK_OK(aclDestroyScalar(a));
    CK_OK(aclDestroyScalar(o));
    free(x);
    free(y);
    free(got);
    free(res);
}
END_TEST

/* int32 and fp16 through the table: Neg and Abs of int32 (exact, INT32_MIN wraps as the vector unit
 * does), Muls of fp16 by a scalar exact in fp16. */
START_TEST(test_aclnn_ew_int_fp16)
{
    const int64_t d[] = {2, 33};
    int32_t xi[66], gi[66];
    for (int i = 0; i < 66; i++)
        xi[i] = (i - 33) * 1000003;
    xi[0] = INT32_MIN;
    nnt_dt_t a = nnt_mk(d, 2, ACL_INT32, ACL_FORMAT_ND, xi), b = nnt_mk(d, 2, ACL_INT32, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnNegGetWorkspaceSize(a.t, b.t, &ws, &e));
    RUN(aclnnNeg(NULL, ws, e, nnt_stream));
    nnt_rd(&b, gi);
    for (int i = 0; i < 66; i++)
        ck_assert_int_eq(gi[i], (int32_t)(0u - (uint32_t)xi[i]));
    CK_OK(aclnnAbsGetWorkspaceSize(a.t, b.t, &ws, &e));
    RUN(aclnnAbs(NULL, ws, e, nnt_stream));
    nnt_rd(&b, gi);
    for (int i = 0; i < 66; i++)
        ck_assert_int_eq(gi[i], xi[i] < 0 ? (int32_t)(0u - (uint32_t)xi[i]) : xi[i]);
    nnt_rm(&a);
    nnt_rm(&b);

    float f[66];
    uint16_t h[66], hz[66];
    nnt_fill(f, 66, 7, -2, 2);
    nnt_to_f16(f, h, 66);
    nnt_dt_t x = nnt_mk(d, 2, ACL_FLOAT16, ACL_FORMAT_ND, h);
    const float four = 4.0f;
    aclScalar *s = aclCreateScalar((void *)&four, ACL_FLOAT);
    CK_OK(aclnnInplaceMulsGetWorkspaceSize(x.t, s, &ws, &e));
    RUN(aclnnInplaceMuls(NULL, ws, e, nnt_stream));
    nnt_rd(&x, hz);
    for (int i = 0; i < 66; i++)
        ck_assert_msg(aclFloat16ToFloat(hz[i]) == 4.0f * aclFloat16ToFloat(h[i]), "fp16 Muls [%d]: %g, want %g", i,
                      aclFloat16ToFloat(hz[i]), 4.0f * aclFloat16ToFloat(h[i]));
    CK_OK(aclDestroyScalar(s));
    nnt_rm(&x);
}
END_TEST

/* ---------------------------------------------------------------- clamp */

/* Clamp, ClampMin, ClampMax, InplaceClampMax, Hardtanh, InplaceHardtanh in fp32 on one profile, exact:
 * out-of-place on self as the transposed view (offset 3) of a larger allocation, in place on a
 * contiguous tensor; a NULL bound of Clamp is no bound; min > max gives max everywhere. */
START_TEST(test_aclnn_ew_clamp)
{
    nnt_setup_profile(profiles[_i]);
    enum { R = 4, C = 97, N = R * C, BIG = N + 3 + 2 };
    const int64_t dims[] = {R, C}, bigd[] = {BIG}, vstr[] = {1, R};
    float x[BIG], res[N];
    nnt_fill(x, BIG, 99, -2, 2);
    const float lo = -0.5f, hi = 0.25f;
    aclScalar *slo = aclCreateScalar((void *)&lo, ACL_FLOAT), *shi = aclCreateScalar((void *)&hi, ACL_FLOAT);
    uint64_t ws;
    aclOpExecutor *e;
    for (int k = 0; k < 9; k++) {
        /* 0 Clamp, 1 Clamp(NULL max), 2 Clamp(NULL min), 3 ClampMin, 4 ClampMax, 5 Hardtanh, 6 Clamp(hi, lo),
         * 7 InplaceClampMax, 8 InplaceHardtanh */
        const bool inplace = k >= 7;
        nnt_dt_t in = nnt_mk(bigd, 1, ACL_FLOAT, ACL_FORMAT_ND, x), out = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        aclTensor *xt = inplace ? aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 2, in.dev)
                                : aclCreateTensor(dims, 2, ACL_FLOAT, vstr, 3, ACL_FORMAT_ND, bigd, 1, in.dev);
        double l = lo, h = hi;
        switch (k) {
        case 0: CK_OK(aclnnClampGetWorkspaceSize(xt, slo, shi, out.t, &ws, &e)); RUN(aclnnClamp(NULL, ws, e, nnt_stream)); break;
        case 1:
            CK_OK(aclnnClampGetWorkspaceSize(xt, slo, NULL, out.t, &ws, &e));
            RUN(aclnnClamp(NULL, ws, e, nnt_stream));
            h = INFINITY;
            break;
        case 2:
            CK_OK(aclnnClampGetWorkspaceSize(xt, NULL, shi, out.t, &ws, &e));
            RUN(aclnnClamp(NULL, ws, e, nnt_stream));
            l = -INFINITY;
            break;
        case 3:
            CK_OK(aclnnClampMinGetWorkspaceSize(xt, slo, out.t, &ws, &e));
            RUN(aclnnClampMin(NULL, ws, e, nnt_stream));
            h = INFINITY;
            break;
        case 4:
            CK_OK(aclnnClampMaxGetWorkspaceSize(xt, shi, out.t, &ws, &e));
            RUN(aclnnClampMax(NULL, ws, e, nnt_stream));
            l = -INFINITY;
            break;
        case 5:
            CK_OK(aclnnHardtanhGetWorkspaceSize(xt, slo, shi, out.t, &ws, &e));
            RUN(aclnnHardtanh(NULL, ws, e, nnt_stream));
            break;
        case 6:
            CK_OK(aclnnClampGetWorkspaceSize(xt, shi, slo, out.t, &ws, &e));
            RUN(aclnnClamp(NULL, ws, e, nnt_stream));
            l = hi, h = lo;
            break;
        case 7:
            CK_OK(aclnnInplaceClampMaxGetWorkspaceSize(xt, shi, &ws, &e));
            RUN(aclnnInplaceClampMax(NULL, ws, e, nnt_stream));
            l = -INFINITY;
            break;
        default:
            CK_OK(aclnnInplaceHardtanhGetWorkspaceSize(xt, slo, shi, &ws, &e));
            RUN(aclnnInplaceHardtanh(NULL, ws, e, nnt_stream));
            break;
        }
        float got[BIG];
        if (inplace) {
            nnt_rd(&in, got);
            memcpy(res, got, sizeof res);
        } else {
            nnt_rd(&out, res);
        }
        for (int r = 0; r < R; r++)
            for (int c = 0; c < C; c++) {
                const float v = x[inplace ? r * C + c : 3 + c * R + r];
                const double m = v >= l ? v : l;
                const float want = (float)(m <= h ? m : h);
                ck_assert_msg(res[r * C + c] == want, "clamp case %d: [%d][%d] = %.9g, want %.9g", k, r, c,
                              res[r * C + c], want);
            }
        CK_OK(aclDestroyTensor(xt));
        nnt_rm(&in);
        nnt_rm(&out);
    }
    CK_ERR(aclnnClampGetWorkspaceSize(NULL, slo, shi, NULL, &ws, &e), NN_NULLPTR, "self is NULL");
    CK_OK(aclDestroyScalar(slo));
    CK_OK(aclDestroyScalar(shi));
}
END_TEST

/* ---------------------------------------------------------------- errors */

START_TEST(test_aclnn_ew_errors)
{
    const int64_t d[] = {4, 8}, bd[] = {1, 8}, d3[] = {4, 4};
    nnt_dt_t a = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), b = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t row = nnt_mk(bd, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), sq = nnt_mk(d3, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t i32 = nnt_mk(d, 2, ACL_INT32, ACL_FORMAT_ND, NULL), i8 = nnt_mk(d, 2, ACL_INT8, ACL_FORMAT_ND, NULL);
    nnt_dt_t h = nnt_mk(d, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    const float one = 1.0f, half = 0.5f;
    aclScalar *s1 = aclCreateScalar((void *)&one, ACL_FLOAT), *sh = aclCreateScalar((void *)&half, ACL_FLOAT);
    aclScalar *dead = aclCreateScalar((void *)&one, ACL_FLOAT);
    CK_OK(aclDestroyScalar(dead));
    uint64_t ws;
    aclOpExecutor *e;
    /* NULL pointers: 161001 naming the parameter */
    CK_ERR(aclnnInplaceAddGetWorkspaceSize(NULL, b.t, s1, &ws, &e), NN_NULLPTR, "selfRef is NULL");
    CK_ERR(aclnnInplaceAddGetWorkspaceSize(a.t, NULL, s1, &ws, &e), NN_NULLPTR, "other is NULL");
    CK_ERR(aclnnInplaceAddGetWorkspaceSize(a.t, b.t, NULL, &ws, &e), NN_NULLPTR, "alpha is NULL");
    CK_ERR(aclnnMulsGetWorkspaceSize(a.t, NULL, b.t, &ws, &e), NN_NULLPTR, "aclnnMulsGetWorkspaceSize: other is NULL");
    CK_ERR(aclnnAddsGetWorkspaceSize(a.t, s1, NULL, b.t, &ws, &e), NN_NULLPTR, "alpha is NULL");
    CK_ERR(aclnnLeakyReluGetWorkspaceSize(a.t, NULL, b.t, &ws, &e), NN_NULLPTR, "negativeSlope is NULL");
    CK_ERR(aclnnExpGetWorkspaceSize(a.t, NULL, &ws, &e), NN_NULLPTR, "out is NULL");
    CK_ERR(aclnnInplaceExpGetWorkspaceSize(a.t, NULL, &e), NN_NULLPTR, "workspaceSize is NULL");
    CK_ERR(aclnnSqrtGetWorkspaceSize(a.t, b.t, &ws, NULL), NN_NULLPTR, "executor is NULL");
    /* dead or foreign handles: 161002 */
    CK_ERR(aclnnMulsGetWorkspaceSize(a.t, dead, b.t, &ws, &e), NN_INVALID, "other is not a live aclScalar");
    CK_ERR(aclnnSubsGetWorkspaceSize(a.t, (const aclScalar *)a.t, s1, b.t, &ws, &e), NN_INVALID,
           "other is not a live aclScalar");
    /* shapes that do not broadcast (tests/check_aclnn_bcast.c runs those that do), dtypes */
    CK_ERR(aclnnMaximumGetWorkspaceSize(a.t, sq.t, b.t, &ws, &e), NN_INVALID,
           "aclnnMaximumGetWorkspaceSize: self [4,8] and other [4,4] do not broadcast");
    CK_ERR(aclnnInplaceDivGetWorkspaceSize(a.t, sq.t, &ws, &e), NN_INVALID, "other [4,4] do not broadcast");
    CK_ERR(aclnnNegGetWorkspaceSize(a.t, sq.t, &ws, &e), NN_INVALID, "out has shape [4,4]");
    CK_ERR(aclnnLogGetWorkspaceSize(i32.t, i32.t, &ws, &e), NN_INVALID,
           "aclnnLogGetWorkspaceSize: self has dtype ACL_INT32; dvsim's log takes ACL_FLOAT, ACL_FLOAT16");
    CK_ERR(aclnnAbsGetWorkspaceSize(i8.t, i8.t, &ws, &e), NN_INVALID, "self has dtype ACL_INT8");
    CK_ERR(aclnnInplaceSqrtGetWorkspaceSize(i32.t, &ws, &e), NN_INVALID, "selfRef has dtype ACL_INT32");
    CK_ERR(aclnnMinimumGetWorkspaceSize(a.t, h.t, h.t, &ws, &e), NN_INVALID,
           "out has dtype ACL_FLOAT16 but self (ACL_FLOAT) and other (ACL_FLOAT16) promote to ACL_FLOAT");
    CK_ERR(aclnnSigmoidGetWorkspaceSize(a.t, h.t, &ws, &e), NN_INVALID, "out has dtype ACL_FLOAT16");
    /* an int32 Muls by 0.5 computes in fp32 (tests/check_aclnn_bcast.c): an int32 out is refused; the
     * library's scalar check: a LeakyRelu slope beyond fp16 */
    CK_ERR(aclnnMulsGetWorkspaceSize(i32.t, sh, i32.t, &ws, &e), NN_INVALID, "promote to ACL_FLOAT");
    const float huge = 1e6f;
    aclScalar *sb = aclCreateScalar((void *)&huge, ACL_FLOAT);
    CK_ERR(aclnnInplaceLeakyReluGetWorkspaceSize(h.t, sb, &ws, &e), NN_INVALID, "overflows fp16");
    /* clamp: both bounds NULL; a dead bound; int32 with a fractional bound */
    CK_ERR(aclnnClampGetWorkspaceSize(a.t, NULL, NULL, b.t, &ws, &e), NN_NULLPTR,
           "clipValueMin and clipValueMax are both NULL");
    CK_ERR(aclnnInplaceHardtanhGetWorkspaceSize(a.t, s1, (const aclScalar *)b.t, &ws, &e), NN_INVALID,
           "clipValueMax is not a live aclScalar");
    CK_ERR(aclnnClampMinGetWorkspaceSize(i32.t, sh, i32.t, &ws, &e), NN_INVALID, "the vmaxs scalar is an integer");
    CK_ERR(aclnnClampMaxGetWorkspaceSize(a.t, NULL, b.t, &ws, &e), NN_NULLPTR, "clipValueMax is NULL");
    /* phase 2 with another operator's executor */
    CK_OK(aclnnInplaceNegGetWorkspaceSize(a.t, &ws, &e));
    CK_ERR(aclnnNeg(NULL, ws, e, nnt_stream), NN_INVALID, "made by aclnnInplaceNegGetWorkspaceSize");
    CK_OK(aclDestroyScalar(sb));
    CK_OK(aclDestroyScalar(s1));
    CK_OK(aclDestroyScalar(sh));
    nnt_rm(&a);
    nnt_rm(&b);
    nnt_rm(&row);
    nnt_rm(&sq);
    nnt_rm(&i32);
    nnt_rm(&i8);
    nnt_rm(&h);
}
END_TEST

/* Clamp by tensors (ClampMinTensor, ClampMaxTensor, their in-place forms, ClampTensor's two
 * kernels), fp32 and int32, against plain C. */
START_TEST(test_aclnn_clamp_tensors)
{
    nnt_setup_profile(NULL);
    enum { N = 300 };
    float x[N], lo[N], hi[N], got[N];
    int32_t ix[N], ilo[N], ihi[N], igot[N];
    nnt_fill(x, N, 31, -4, 4);
    nnt_fill(lo, N, 32, -3, 0);
    nnt_fill(hi, N, 33, 0, 3);
    for (int i = 0; i < N; i++) {
        ix[i] = (int32_t)(x[i] * 1000);
        ilo[i] = (int32_t)(lo[i] * 1000);
        ihi[i] = (int32_t)(hi[i] * 1000);
    }
    const int64_t d[] = {3, 100};
    nnt_dt_t tx = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, x), tl = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, lo);
    nnt_dt_t th = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, hi), to = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnClampMinTensorGetWorkspaceSize(tx.t, tl.t, to.t, &ws, &e));
    RUN(aclnnClampMinTensor(NULL, ws, e, nnt_stream));
    nnt_rd(&to, got);
    for (int i = 0; i < N; i++)
        ck_assert_msg(got[i] == (x[i] > lo[i] ? x[i] : lo[i]), "ClampMinTensor [%d]", i);
    CK_OK(aclnnClampMaxTensorGetWorkspaceSize(tx.t, th.t, to.t, &ws, &e));
    RUN(aclnnClampMaxTensor(NULL, ws, e, nnt_stream));
    nnt_rd(&to, got);
    for (int i = 0; i < N; i++)
        ck_assert_msg(got[i] == (x[i] < hi[i] ? x[i] : hi[i]), "ClampMaxTensor [%d]", i);
    CK_OK(aclnnClampTensorGetWorkspaceSize(tx.t, tl.t, th.t, to.t, &ws, &e));
    RUN(aclnnClampTensor(NULL, ws, e, nnt_stream));
    nnt_rd(&to, got);
    for (int i = 0; i < N; i++) {
        const float m = x[i] > lo[i] ? x[i] : lo[i];
        ck_assert_msg(got[i] == (m < hi[i] ? m : hi[i]), "ClampTensor [%d]", i);
    }
    CK_OK(aclnnInplaceClampMinTensorGetWorkspaceSize(tx.t, tl.t, &ws, &e));
    RUN(aclnnInplaceClampMinTensor(NULL, ws, e, nnt_stream));
    CK_OK(aclnnInplaceClampMaxTensorGetWorkspaceSize(tx.t, th.t, &ws, &e));
    RUN(aclnnInplaceClampMaxTensor(NULL, ws, e, nnt_stream));
    nnt_rd(&tx, got);
    for (int i = 0; i < N; i++) {
        const float m = x[i] > lo[i] ? x[i] : lo[i];
        ck_assert_msg(got[i] == (m < hi[i] ? m : hi[i]), "InplaceClampMin/MaxTensor [%d]", i);
    }
    nnt_dt_t jx = nnt_mk(d, 2, ACL_INT32, ACL_FORMAT_ND, ix), jl = nnt_mk(d, 2, ACL_INT32, ACL_FORMAT_ND, ilo);
    nnt_dt_t jh = nnt_mk(d, 2, ACL_INT32, ACL_FORMAT_ND, ihi), jo = nnt_mk(d, 2, ACL_INT32, ACL_FORMAT_ND, NULL);
    CK_OK(aclnnClampTensorGetWorkspaceSize(jx.t, jl.t, jh.t, jo.t, &ws, &e));
    RUN(aclnnClampTensor(NULL, ws, e, nnt_stream));
    nnt_rd(&jo, igot);
    for (int i = 0; i < N; i++) {
        const int32_t m = ix[i] > ilo[i] ? ix[i] : ilo[i];
        ck_assert_msg(igot[i] == (m < ihi[i] ? m : ihi[i]), "int32 ClampTensor [%d]", i);
    }
    const int64_t d2[] = {300};
    nnt_dt_t flat = nnt_mk(d2, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnClampTensorGetWorkspaceSize(tx.t, flat.t, th.t, to.t, &ws, &e), NN_INVALID, "do not broadcast");
    CK_ERR(aclnnClampTensorGetWorkspaceSize(tx.t, tl.t, th.t, to.t, NULL, &e), NN_NULLPTR, "workspaceSize");
    nnt_dt_t *all[] = {&tx, &tl, &th, &to, &jx, &jl, &jh, &jo, &flat};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        nnt_rm(all[k]);
}
END_TEST

Suite *dv_aclnn_ew_suite(void);
Suite *dv_aclnn_ew_suite(void)
{
    Suite *s = suite_create("aclnn_ew");
    TCase *tc = tcase_create("aclnn_ew");
    tcase_add_checked_fixture(tc, NULL, nnt_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_aclnn_ew_unary, 0, 2 * U_COUNT);
    tcase_add_loop_test(tc, test_aclnn_ew_binary, 0, 2 * B_COUNT);
    tcase_add_test(tc, test_aclnn_clamp_tensors);
    tcase_add_loop_test(tc, test_aclnn_ew_clamp, 0, 2);
    suite_add_tcase(s, tc);
    TCase *te = tcase_create("aclnn_ew_910b2");
    tcase_add_checked_fixture(te, nnt_setup, nnt_teardown);
    tcase_set_timeout(te, 60);
    tcase_add_test(te, test_aclnn_ew_int_fp16);
    tcase_add_test(te, test_aclnn_ew_errors);
    suite_add_tcase(s, te);
    return s;
}
