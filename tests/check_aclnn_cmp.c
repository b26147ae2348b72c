/* tests/check_aclnn_cmp.c - the comparisons: the library operators of ops/compare.c under --check
 * on the 910B2 and 310 profiles (every comparison, tensor and scalar form, fp16 / fp32 / int32
 * inputs, every output dtype, sizes with short tails and several blocks), and the aclnn fronts
 * (aclnnEq/Ne/Gt/Lt/Ge/Le Tensor and Scalar and their Inplace forms) through the real shim against
 * a plain-C reference, on contiguous tensors and on a non-contiguous view (transposed, with an
 * offset), with a bool output and with 0 / 1 in a float output; and the errors of the first phase
 * (shapes that do not broadcast, an output dtype the operator cannot write, mixed input dtypes, NULL). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_ge_scalar.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_le_scalar.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_lt_scalar.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "dv/ops.h"
#include "support/dvt.h"
#include "support/nnt.h"

static const char *const profiles[] = {NULL /* ascend910b2 */, "ascend310"};

/* ---------------------------------------------------------------- the library operators */

static const char *const lib_ops[] = {"eq", "ne", "lt", "gt", "le", "ge"};
enum { NCMP = 6 };

static void check_ok(const char *profile, const char *cmd, uint64_t elems)
{
    dvt_op_t r;
    dvt_op(&r, profile, NULL, cmd, true, true);
    ck_assert_msg(r.rc == DV_OK, "%s on %s: %s", cmd, profile ? profile : "ascend910b2", r.err.msg);
    ck_assert_msg(r.check.mismatches == 0, "%s: %llu mismatches", cmd, (unsigned long long)r.check.mismatches);
    ck_assert_msg(r.check.compared == elems, "%s: %llu of %llu elements compared", cmd,
                  (unsigned long long)r.check.compared, (unsigned long long)elems);
    ck_assert_msg(r.cnt.hazards == 0, "%s: %llu hazards", cmd, (unsigned long long)r.cnt.hazards);
    dvt_op_free(&r);
}

/* Loop index profile * NCMP + comparison: the tensor and the scalar form over the dtypes, with a
 * tail shorter than a repeat, several blocks and several tiles per block. */
START_TEST(test_aclnn_cmp_library_check)
{
    static const struct {
        const char *dtype, *out, *scalar;
        uint64_t n;
    } cases[] = {
        {"fp16", "uint8", "0.25", 1},     {"fp32", "uint8", "-0.5", 1000},  {"int32", "uint8", "1", 3000},
        {"fp16", "fp16", "0.5", 4097},    {"fp32", "fp32", "0", 70001},     {"int32", "int32", "-2", 777},
        {"fp16", "fp32", "-0.25", 20000}, {"fp32", "int32", "0.75", 513},
    };
    const char *profile = profiles[_i / NCMP];
    const char *op = lib_ops[_i % NCMP];
    char cmd[256];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        snprintf(cmd, sizeof cmd, "%s --shape %llu --dtype %s --out-dtype %s --cores 3 --tile-elems 512", op,
                 (unsigned long long)cases[c].n, cases[c].dtype, cases[c].out);
        check_ok(profile, cmd, cases[c].n);
        snprintf(cmd, sizeof cmd, "%ss --shape %llu --dtype %s --out-dtype %s --scalar %s", op,
                 (unsigned long long)cases[c].n, cases[c].dtype, cases[c].out, cases[c].scalar);
        check_ok(profile, cmd, cases[c].n);
    }
}
END_TEST

static void expect_error(const char *cmd, const char *param, const char *limit)
{
    dvt_op_t r;
    dvt_op(&r, NULL, NULL, cmd, false, false);
    ck_assert_msg(r.rc != DV_OK, "%s: expected an error", cmd);
    ck_assert_msg(strstr(r.err.msg, param), "%s: '%s' does not name %s", cmd, r.err.msg, param);
    ck_assert_msg(!limit || strstr(r.err.msg, limit), "%s: '%s' does not name %s", cmd, r.err.msg, limit);
    dvt_op_free(&r);
}

START_TEST(test_aclnn_cmp_library_errors)
{
    expect_error("gt --tile-elems 300", "--tile-elems", "multiple of 256");
    expect_error("gt --dtype fp32 --tile-elems 65536", "--tile-elems", "core.ub_size_bytes");
    expect_error("gts --dtype int32 --scalar 0.5", "--scalar", "not an integer");
    expect_error("gts --dtype fp16 --scalar 1e6", "--scalar", "overflows");
    expect_error("eq --dtype int16", "--dtype", NULL);
    expect_error("eq --out-dtype int8", "--out-dtype", NULL);
}
END_TEST

/* ---------------------------------------------------------------- the aclnn fronts */

typedef aclnnStatus (*gws_tensor_fn)(const aclTensor *, const aclTensor *, aclTensor *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*gws_scalar_fn)(const aclTensor *, const aclScalar *, aclTensor *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*run_fn)(void *, uint64_t, aclOpExecutor *, aclrtStream);

/* The in-place first phases differ in CANN's const qualifiers: called through these. */
static aclnnStatus inplace_tensor(int op, aclTensor *s, const aclTensor *o, uint64_t *ws, aclOpExecutor **e)
{
    switch (op) {
    case 0: return aclnnInplaceEqTensorGetWorkspaceSize(s, o, ws, e);
    case 1: return aclnnInplaceNeTensorGetWorkspaceSize(s, o, ws, e);
    case 2: return aclnnInplaceLtTensorGetWorkspaceSize(s, o, ws, e);
    case 3: return aclnnInplaceGtTensorGetWorkspaceSize(s, o, ws, e);
    case 4: return aclnnInplaceLeTensorGetWorkspaceSize(s, o, ws, e);
    default: return aclnnInplaceGeTensorGetWorkspaceSize(s, o, ws, e);
    }
}

static aclnnStatus inplace_scalar(int op, aclTensor *s, const aclScalar *o, uint64_t *ws, aclOpExecutor **e)
{
    switch (op) {
    case 0: return aclnnInplaceEqScalarGetWorkspaceSize(s, o, ws, e);
    case 1: return aclnnInplaceNeScalarGetWorkspaceSize(s, o, ws, e);
    case 2: return aclnnInplaceLtScalarGetWorkspaceSize(s, o, ws, e);
    case 3: return aclnnInplaceGtScalarGetWorkspaceSize(s, o, ws, e);
    case 4: return aclnnInplaceLeScalarGetWorkspaceSize(s, o, ws, e);
    default: return aclnnInplaceGeScalarGetWorkspaceSize(s, o, ws, e);
    }
}

static const struct {
    const char *name;
    gws_tensor_fn tensor;
    gws_scalar_fn scalar;
    run_fn run_tensor, run_scalar, run_inplace_tensor, run_inplace_scalar;
} ops[NCMP] = {
    {"Eq", aclnnEqTensorGetWorkspaceSize, aclnnEqScalarGetWorkspaceSize, aclnnEqTensor, aclnnEqScalar,
     aclnnInplaceEqTensor, aclnnInplaceEqScalar},
    {"Ne", aclnnNeTensorGetWorkspaceSize, aclnnNeScalarGetWorkspaceSize, aclnnNeTensor, aclnnNeScalar,
     aclnnInplaceNeTensor, aclnnInplaceNeScalar},
    {"Lt", aclnnLtTensorGetWorkspaceSize, aclnnLtScalarGetWorkspaceSize, aclnnLtTensor, aclnnLtScalar,
     aclnnInplaceLtTensor, aclnnInplaceLtScalar},
    {"Gt", aclnnGtTensorGetWorkspaceSize, aclnnGtScalarGetWorkspaceSize, aclnnGtTensor, aclnnGtScalar,
     aclnnInplaceGtTensor, aclnnInplaceGtScalar},
    {"Le", aclnnLeTensorGetWorkspaceSize, aclnnLeScalarGetWorkspaceSize, aclnnLeTensor, aclnnLeScalar,
     aclnnInplaceLeTensor, aclnnInplaceLeScalar},
    {"Ge", aclnnGeTensorGetWorkspaceSize, aclnnGeScalarGetWorkspaceSize, aclnnGeTensor, aclnnGeScalar,
     aclnnInplaceGeTensor, aclnnInplaceGeScalar},
};

static int ref(int op, float a, float b)
{
    switch (op) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a < b;
    case 3: return a > b;
    case 4: return a <= b;
    default: return a >= b;
    }
}

/* Loop index profile * NCMP + comparison, fp32 [R, C] inputs of small whole values (so that equal
 * elements occur): out = self CMP other with self the transposed view (offset 3) of a larger
 * allocation, into a bool out and into a float out; out = self CMP 1 (scalar); and both in place
 * (0 / 1 in self's dtype). */
START_TEST(test_aclnn_cmp_aclnn)
{
    const int op = _i % NCMP;
    nnt_setup_profile(profiles[_i / NCMP]);
    enum { R = 5, C = 77, N = R * C, BIG = N + 3 + 4 };
    const int64_t dims[] = {R, C}, bigd[] = {BIG}, vstr[] = {1, R};
    float x[BIG], y[N], fo[N], sres[N];
    unsigned char bo[N];
    for (int i = 0; i < BIG; i++)
        x[i] = (float)((i * 7 + 3) % 5) - 2.0f; /* -2 .. 2 */
    for (int i = 0; i < N; i++)
        y[i] = (float)((i * 3 + 1) % 5) - 2.0f;
    const float one = 1.0f;
    aclScalar *s = aclCreateScalar((void *)&one, ACL_FLOAT);
    uint64_t ws;
    aclOpExecutor *e;
    for (int view = 0; view < 2; view++) {
        nnt_dt_t in = nnt_mk(bigd, 1, ACL_FLOAT, ACL_FORMAT_ND, x), other = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, y);
        nnt_dt_t outb = nnt_mk(dims, 2, ACL_BOOL, ACL_FORMAT_ND, NULL), outf = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        nnt_dt_t outs = nnt_mk(dims, 2, ACL_BOOL, ACL_FORMAT_ND, NULL);
        aclTensor *xt = view ? aclCreateTensor(dims, 2, ACL_FLOAT, vstr, 3, ACL_FORMAT_ND, bigd, 1, in.dev)
                             : aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 2, in.dev);
        ck_assert_ptr_nonnull(xt);
        CK_OK(ops[op].tensor(xt, other.t, outb.t, &ws, &e));
        RUN(ops[op].run_tensor(NULL, ws, e, nnt_stream));
        CK_OK(ops[op].tensor(xt, other.t, outf.t, &ws, &e));
        RUN(ops[op].run_tensor(NULL, ws, e, nnt_stream));
        CK_OK(ops[op].scalar(xt, s, outs.t, &ws, &e));
        RUN(ops[op].run_scalar(NULL, ws, e, nnt_stream));
        unsigned char sb[N];
        nnt_rd(&outb, bo);
        nnt_rd(&outf, fo);
        nnt_rd(&outs, sb);
        for (int r = 0; r < R; r++)
            for (int c = 0; c < C; c++) {
                const int i = r * C + c, src = view ? 3 + c * R + r : i;
                const int want = ref(op, x[src], y[i]), wants = ref(op, x[src], 1.0f);
                ck_assert_msg(bo[i] == want, "aclnn%sTensor%s bool [%d,%d]: %u, want %d", ops[op].name,
                              view ? " (view)" : "", r, c, bo[i], want);
                ck_assert_msg(fo[i] == (float)want, "aclnn%sTensor%s float [%d,%d]: %g, want %d", ops[op].name,
                              view ? " (view)" : "", r, c, fo[i], want);
                ck_assert_msg(sb[i] == wants, "aclnn%sScalar%s [%d,%d]: %u, want %d", ops[op].name,
                              view ? " (view)" : "", r, c, sb[i], wants);
            }
        /* in place on the same self: the elements around the view unchanged */
        CK_OK(inplace_tensor(op, xt, other.t, &ws, &e));
        RUN(ops[op].run_inplace_tensor(NULL, ws, e, nnt_stream));
        CK_OK(inplace_scalar(op, xt, s, &ws, &e));
        RUN(ops[op].run_inplace_scalar(NULL, ws, e, nnt_stream));
        float got[BIG];
        nnt_rd(&in, got);
        for (int i = 0; i < BIG; i++) {
            const bool inside = view ? i >= 3 && i < 3 + N : i < N;
            if (!inside)
                ck_assert_msg(got[i] == x[i], "aclnnInplace%s: element %d outside the view changed", ops[op].name, i);
        }
        for (int r = 0; r < R; r++)
            for (int c = 0; c < C; c++) {
                const int i = r * C + c, src = view ? 3 + c * R + r : i;
                const float first = (float)ref(op, x[src], y[i]);
                sres[i] = (float)ref(op, first, 1.0f);
                ck_assert_msg(got[src] == sres[i], "aclnnInplace%sTensor+Scalar%s [%d,%d]: %g, want %g", ops[op].name,
                              view ? " (view)" : "", r, c, got[src], sres[i]);
            }
        CK_OK(aclDestroyTensor(xt));
        nnt_rm(&in);
        nnt_rm(&other);
        nnt_rm(&outb);
        nnt_rm(&outf);
        nnt_rm(&outs);
    }
    CK_OK(aclDestroyScalar(s));
}
END_TEST

/* fp16 and int32 inputs with a bool output. */
START_TEST(test_aclnn_cmp_dtypes)
{
    enum { N = 300 };
    const int64_t dims[] = {3, 100};
    float xf[N], yf[N];
    int32_t xi[N], yi[N];
    uint16_t xh[N], yh[N];
    for (int i = 0; i < N; i++) {
        xi[i] = (i * 7) % 9 - 4, yi[i] = (i * 5) % 9 - 4;
        xf[i] = (float)xi[i] * 0.5f, yf[i] = (float)yi[i] * 0.5f;
    }
    nnt_to_f16(xf, xh, N);
    nnt_to_f16(yf, yh, N);
    nnt_dt_t a16 = nnt_mk(dims, 2, ACL_FLOAT16, ACL_FORMAT_ND, xh), b16 = nnt_mk(dims, 2, ACL_FLOAT16, ACL_FORMAT_ND, yh);
    nnt_dt_t a32 = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, xi), b32 = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, yi);
    nnt_dt_t o1 = nnt_mk(dims, 2, ACL_BOOL, ACL_FORMAT_ND, NULL), o2 = nnt_mk(dims, 2, ACL_BOOL, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnGeTensorGetWorkspaceSize(a16.t, b16.t, o1.t, &ws, &e));
    RUN(aclnnGeTensor(NULL, ws, e, nnt_stream));
    CK_OK(aclnnNeTensorGetWorkspaceSize(a32.t, b32.t, o2.t, &ws, &e));
    RUN(aclnnNeTensor(NULL, ws, e, nnt_stream));
    unsigned char g1[N], g2[N];
    nnt_rd(&o1, g1);
    nnt_rd(&o2, g2);
    for (int i = 0; i < N; i++) {
        ck_assert_msg(g1[i] == (xf[i] >= yf[i]), "fp16 GeTensor [%d]: %u", i, g1[i]);
        ck_assert_msg(g2[i] == (xi[i] != yi[i]), "int32 NeTensor [%d]: %u", i, g2[i]);
    }
    nnt_rm(&a16);
    nnt_rm(&b16);
    nnt_rm(&a32);
    nnt_rm(&b32);
    nnt_rm(&o1);
    nnt_rm(&o2);
}
END_TEST

START_TEST(test_aclnn_cmp_errors)
{
    const int64_t d23[] = {2, 3}, d32[] = {3, 2}, d3[] = {3};
    nnt_dt_t a = nnt_mk(d23, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), b = nnt_mk(d32, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t row = nnt_mk(d3, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL), ob = nnt_mk(d23, 2, ACL_BOOL, ACL_FORMAT_ND, NULL);
    nnt_dt_t o8 = nnt_mk(d23, 2, ACL_INT8, ACL_FORMAT_ND, NULL), i32 = nnt_mk(d23, 2, ACL_INT32, ACL_FORMAT_ND, NULL);
    nnt_dt_t ob32 = nnt_mk(d32, 2, ACL_BOOL, ACL_FORMAT_ND, NULL);
    const float v = 1.0f;
    aclScalar *s = aclCreateScalar((void *)&v, ACL_FLOAT);
    uint64_t ws;
    aclOpExecutor *e;
    /* shapes that do not broadcast; an out that is not the broadcast shape */
    CK_ERR(aclnnEqTensorGetWorkspaceSize(a.t, b.t, ob.t, &ws, &e), NN_INVALID, "do not broadcast");
    CK_ERR(aclnnGtTensorGetWorkspaceSize(a.t, row.t, ob32.t, &ws, &e), NN_INVALID, "out has shape [3,2]");
    CK_ERR(aclnnGtScalarGetWorkspaceSize(a.t, s, ob32.t, &ws, &e), NN_INVALID, "out");
    /* an output dtype the operator cannot write */
    CK_ERR(aclnnLtTensorGetWorkspaceSize(a.t, a.t, o8.t, &ws, &e), NN_INVALID, "ACL_INT8");
    CK_ERR(aclnnLeScalarGetWorkspaceSize(a.t, s, o8.t, &ws, &e), NN_INVALID, "ACL_INT8");
    /* an input dtype the comparison does not take (mixed dtypes promote: tests/check_aclnn_bcast.c) */
    CK_ERR(aclnnNeTensorGetWorkspaceSize(o8.t, o8.t, ob.t, &ws, &e), NN_INVALID, "self has dtype ACL_INT8; dvsim's ne takes");
    /* NULL arguments, a dead scalar */
    CK_ERR(aclnnGeTensorGetWorkspaceSize(NULL, a.t, ob.t, &ws, &e), NN_NULLPTR, "self");
    CK_ERR(aclnnGeScalarGetWorkspaceSize(a.t, NULL, ob.t, &ws, &e), NN_NULLPTR, "other");
    CK_ERR(aclnnEqScalarGetWorkspaceSize(a.t, (const aclScalar *)b.t, ob.t, &ws, &e), NN_INVALID,
           "not a live aclScalar");
    CK_ERR(aclnnInplaceEqTensorGetWorkspaceSize(a.t, NULL, &ws, &e), NN_NULLPTR, "other");
    CK_OK(aclDestroyScalar(s));
    nnt_rm(&a);
    nnt_rm(&b);
    nnt_rm(&row);
    nnt_rm(&ob);
    nnt_rm(&o8);
    nnt_rm(&i32);
    nnt_rm(&ob32);
}
END_TEST

Suite *dv_aclnn_cmp_suite(void);
Suite *dv_aclnn_cmp_suite(void)
{
    Suite *s = suite_create("aclnn_cmp");
    TCase *tl = tcase_create("aclnn_cmp_library");
    tcase_set_timeout(tl, 120);
    tcase_add_loop_test(tl, test_aclnn_cmp_library_check, 0, 2 * NCMP);
    tcase_add_test(tl, test_aclnn_cmp_library_errors);
    suite_add_tcase(s, tl);
    TCase *tc = tcase_create("aclnn_cmp");
    tcase_add_checked_fixture(tc, NULL, nnt_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_aclnn_cmp_aclnn, 0, 2 * NCMP);
    suite_add_tcase(s, tc);
    TCase *te = tcase_create("aclnn_cmp_910b2");
    tcase_add_checked_fixture(te, nnt_setup, nnt_teardown);
    tcase_set_timeout(te, 60);
    tcase_add_test(te, test_aclnn_cmp_dtypes);
    tcase_add_test(te, test_aclnn_cmp_errors);
    suite_add_tcase(s, te);
    return s;
}
