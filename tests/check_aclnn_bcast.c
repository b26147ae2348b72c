/* tests/check_aclnn_bcast.c - broadcasting and casts: the library's expand (ops/expand.c) and cast
 * (ops/cast.c, every pair it converts) under --check on the
 * 910B2 and 310 profiles (rows replicated, elements replicated, plain copies, every dtype, units
 * chunked along long runs, several cores) and its plan errors; and the binary aclnn operators on
 * shapes that broadcast (acl/nnbcast.c: an expand kernel into the workspace first) against a plain-C
 * reference: [2,3,4] op [4], [2,1,4] op [3,1], [1] and 0-d operands, a transposed view, the in-place
 * forms, the comparisons and floor division; the workspace they report; and the errors (shapes that
 * do not broadcast, an output of the wrong shape, an in-place self that would have to broadcast);
 * and aclnnExpand (size with -1, new leading axes, int32 and bool, the example's identity) and its
 * errors. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_expand.h"
#include "aclnnop/aclnn_floor_divide.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_sub.h"
#include "dv/ops.h"
#include "support/dvt.h"
#include "support/nnt.h"

static const char *const profiles[] = {NULL /* ascend910b2 */, "ascend310"};

/* ---------------------------------------------------------------- the library's expand */

static void check_exact(const char *profile, const char *cmd, uint64_t elems)
{
    dvt_op_t r;
    dvt_op(&r, profile, NULL, cmd, true, true);
    const char *p = profile ? profile : "ascend910b2";
    ck_assert_msg(r.rc == DV_OK, "%s on %s: %s", cmd, p, r.err.msg);
    ck_assert_msg(r.check.mismatches == 0 && r.check.max_abs_err == 0, "%s on %s: %llu mismatches", cmd, p,
                  (unsigned long long)r.check.mismatches);
    ck_assert_msg(r.check.compared == elems, "%s on %s: %llu of %llu elements compared", cmd, p,
                  (unsigned long long)r.check.compared, (unsigned long long)elems);
    ck_assert_msg(r.cnt.hazards == 0, "%s on %s: %llu hazards", cmd, p, (unsigned long long)r.cnt.hazards);
    dvt_op_free(&r);
}

/* Rows replicated ([4] -> 2x3x4, 2x1x4 -> 2x3x4, rows of 40000 fp32 in chunks), elements replicated
 * (3x1 -> 2x3x4, int32 rows of 1000, fp16 rows of 9000 in chunks, 1-byte types through ld_gm + vdup),
 * a plain copy of 100003 int8, and alternating runs 1x5x1x3 -> 4x5x6x3 in bf16. */
START_TEST(test_aclnn_bcast_expand_check)
{
    const char *profile = profiles[_i];
    check_exact(profile, "expand --shape 4 --to 2x3x4", 24);
    check_exact(profile, "expand --shape 2x1x4 --to 2x3x4 --dtype fp32", 24);
    check_exact(profile, "expand --shape 3x1 --to 2x3x4", 24);
    check_exact(profile, "expand --shape 1 --to 5x7 --dtype int8", 35);
    check_exact(profile, "expand --shape 5x1 --to 5x33 --dtype uint8", 165);
    check_exact(profile, "expand --shape 3x1 --to 3x1000 --dtype int32", 3000);
    check_exact(profile, "expand --shape 1x1 --to 3x9000", 27000);
    check_exact(profile, "expand --shape 1x40000 --to 3x40000 --dtype fp32 --cores 2", 120000);
    check_exact(profile, "expand --shape 1x64 --to 300x64", 19200);
    check_exact(profile, "expand --shape 100003 --to 100003 --dtype int8", 100003);
    check_exact(profile, "expand --shape 1x5x1x3 --to 4x5x6x3 --dtype bf16", 360);
    check_exact(profile, "expand --shape 3x1x5x1 --to 3x4x5x6 --dtype int16", 360);
    check_exact(profile, "expand --shape 9000x1 --to 9000x50 --cores 1", 450000);
    check_exact(profile, "expand --shape 1x40000 --to 7x40000 --cores 1 --dtype int8", 280000);
}
END_TEST

START_TEST(test_aclnn_bcast_expand_errors)
{
    static const struct {
        const char *cmd, *needle;
    } cases[] = {
        {"expand --shape 3x2 --to 2x3", "--shape: 3x2 does not broadcast to --to 2x3: axis 0 has 3, not 1 or 2"},
        {"expand --shape 2x3x4 --to 3x4", "--shape: 2x3x4 has 3 axes, more than --to 3x4 (2)"},
        {"expand --shape 4 --to 2x4 --dtype int64", "--dtype"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dvt_op_t r;
        dvt_op(&r, NULL, NULL, cases[i].cmd, false, false);
        ck_assert_msg(r.rc != DV_OK, "%s: planned", cases[i].cmd);
        ck_assert_msg(strstr(r.err.msg, cases[i].needle), "%s: expected '%s' in: %s", cases[i].cmd, cases[i].needle,
                      r.err.msg);
        dvt_op_free(&r);
    }
}
END_TEST

/* Loop index = profile: every pair the operator converts (one vconv or a chain through fp32 /
 * fp16), 70001 elements (a short last tile, several cores), bit-exact: floats to integers
 * truncated, narrower floats rounded to nearest even. */
START_TEST(test_aclnn_bcast_cast_check)
{
    static const char *const types[] = {"fp16", "bf16", "fp32", "int8", "uint8", "int32"};
    int converted = 0;
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 6; b++) {
            const bool ints = a >= 3 && b >= 3 && (a != 5 || b != 5);
            if (a == b || (ints && !((a == 3 || a == 4) && b == 5)))
                continue;
            char cmd[96];
            snprintf(cmd, sizeof cmd, "cast --shape 70001 --dtype %s --to %s", types[a], types[b]);
            check_exact(profiles[_i], cmd, 70001);
            converted++;
        }
    ck_assert_int_eq(converted, 26);
    /* several tiles per block through the work buffers */
    check_exact(profiles[_i], "cast --shape 300000 --cores 1 --dtype fp32 --to int8", 300000);
    check_exact(profiles[_i], "cast --shape 300000 --cores 2 --dtype fp16 --to bf16", 300000);
}
END_TEST

START_TEST(test_aclnn_bcast_cast_errors)
{
    static const struct {
        const char *cmd, *needle;
    } cases[] = {
        {"cast --dtype fp16 --to fp16", "--to: fp16 is --dtype: nothing to convert"},
        {"cast --dtype int32 --to int8", "--to: int32 -> int8 narrows one integer type to another"},
        {"cast --dtype int8 --to uint8", "has no vconv: not supported"},
        {"cast --dtype fp32 --to int16", "--to"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dvt_op_t r;
        dvt_op(&r, NULL, NULL, cases[i].cmd, false, false);
        ck_assert_msg(r.rc != DV_OK, "%s: planned", cases[i].cmd);
        ck_assert_msg(strstr(r.err.msg, cases[i].needle), "%s: expected '%s' in: %s", cases[i].cmd, cases[i].needle,
                      r.err.msg);
        dvt_op_free(&r);
    }
}
END_TEST

/* ---------------------------------------------------------------- the aclnn operators */

/* The element of a contiguous tensor of dims id[0..ind) that element i of the broadcast result
 * od[0..ond) reads. */
static int64_t src_index(int64_t i, const int64_t *od, int ond, const int64_t *id, int ind)
{
    int64_t off = 0, stride = 1;
    for (int d = ond - 1, e = ind - 1; d >= 0; d--, e--) {
        const int64_t c = i % od[d];
        i /= od[d];
        if (e >= 0) {
            if (id[e] != 1)
                off += c * stride;
            stride *= id[e];
        }
    }
    return off;
}

typedef aclnnStatus (*gws_t)(const aclTensor *, const aclTensor *, aclTensor *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*run_t)(void *, uint64_t, aclOpExecutor *, aclrtStream);

/* Phase 2 with a workspace of the size phase 1 reported. */
static void run_ws(run_t run, uint64_t ws, aclOpExecutor *e)
{
    void *wsp = NULL;
    if (ws)
        CK_OK(aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST));
    RUN(run(wsp, ws, e, nnt_stream));
    if (wsp)
        CK_OK(aclrtFree(wsp));
}

enum { OP_MUL, OP_DIV, OP_MAX, OP_MIN, OP_FLOORDIV, OP_ADD2, OP_SUB2, OP_GT, OP_EQ, OP_LE, NOPS };

static double ref(int op, double a, double b)
{
    switch (op) {
    case OP_MUL: return a * b;
    case OP_DIV: return a / b;
    case OP_MAX: return a > b ? a : b;
    case OP_MIN: return a < b ? a : b;
    case OP_FLOORDIV: return __builtin_floor(a / b);
    case OP_ADD2: return a + 2 * b;
    case OP_SUB2: return a - 2 * b;
    case OP_GT: return a > b;
    case OP_EQ: return a == b;
    default: return a <= b;
    }
}

/* out = self OP other on fp32 tensors of the given shapes (nd 0: a 0-d tensor), out bool for the
 * comparisons; every element against ref. */
static void binary_case(int op, const int64_t *sd, int sn, const int64_t *od, int on, const int64_t *rd, int rn)
{
    const int64_t ns = nnt_numel(sd, sn), no = nnt_numel(od, on), nr = nnt_numel(rd, rn);
    float *x = malloc(sizeof(float) * (size_t)ns), *y = malloc(sizeof(float) * (size_t)no);
    float *got = malloc(sizeof(float) * (size_t)nr);
    unsigned char *gb = malloc((size_t)nr);
    nnt_fill(x, ns, 11u + (unsigned)op, -4.0f, 4.0f);
    nnt_fill(y, no, 23u + (unsigned)op, 0.5f, 3.0f);
    for (int64_t i = 0; i < ns; i++)
        x[i] = (float)(int)(x[i] * 2) / 2; /* halves: the comparisons meet equal elements */
    for (int64_t i = 0; i < no; i++)
        y[i] = (float)(int)(y[i] * 2) / 2;
    const bool cmp = op >= OP_GT;
    nnt_dt_t a = nnt_mk(sd, sn, ACL_FLOAT, ACL_FORMAT_ND, x), b = nnt_mk(od, on, ACL_FLOAT, ACL_FORMAT_ND, y);
    nnt_dt_t r = nnt_mk(rd, rn, cmp ? ACL_BOOL : ACL_FLOAT, ACL_FORMAT_ND, NULL);
    float one = 1.0f, two = 2.0f;
    aclScalar *alpha = aclCreateScalar(op == OP_ADD2 || op == OP_SUB2 ? &two : &one, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    switch (op) {
    case OP_MUL: CK_OK(aclnnMulGetWorkspaceSize(a.t, b.t, r.t, &ws, &e)); run_ws(aclnnMul, ws, e); break;
    case OP_DIV: CK_OK(aclnnDivGetWorkspaceSize(a.t, b.t, r.t, &ws, &e)); run_ws(aclnnDiv, ws, e); break;
    case OP_MAX: CK_OK(aclnnMaximumGetWorkspaceSize(a.t, b.t, r.t, &ws, &e)); run_ws(aclnnMaximum, ws, e); break;
    case OP_MIN: CK_OK(aclnnMinimumGetWorkspaceSize(a.t, b.t, r.t, &ws, &e)); run_ws(aclnnMinimum, ws, e); break;
    case OP_FLOORDIV:
        CK_OK(aclnnFloorDivideGetWorkspaceSize(a.t, b.t, r.t, &ws, &e));
        run_ws(aclnnFloorDivide, ws, e);
        break;
    case OP_ADD2: CK_OK(aclnnAddGetWorkspaceSize(a.t, b.t, alpha, r.t, &ws, &e)); run_ws(aclnnAdd, ws, e); break;
    case OP_SUB2: CK_OK(aclnnSubGetWorkspaceSize(a.t, b.t, alpha, r.t, &ws, &e)); run_ws(aclnnSub, ws, e); break;
    case OP_GT: CK_OK(aclnnGtTensorGetWorkspaceSize(a.t, b.t, r.t, &ws, &e)); run_ws(aclnnGtTensor, ws, e); break;
    case OP_EQ: CK_OK(aclnnEqTensorGetWorkspaceSize(a.t, b.t, r.t, &ws, &e)); run_ws(aclnnEqTensor, ws, e); break;
    default: CK_OK(aclnnLeTensorGetWorkspaceSize(a.t, b.t, r.t, &ws, &e)); run_ws(aclnnLeTensor, ws, e); break;
    }
    /* the workspace holds each expanded operand */
    const uint64_t want_ws = (nnt_numel(sd, sn) != nr ? 1 : 0) + (nnt_numel(od, on) != nr ? 1 : 0);
    ck_assert_msg((ws > 0) == (want_ws > 0) && ws >= want_ws * (uint64_t)nr * sizeof(float),
                  "op %d: workspace %llu for %llu expanded operands of %lld elements", op, (unsigned long long)ws,
                  (unsigned long long)want_ws, (long long)nr);
    if (cmp)
        nnt_rd(&r, gb);
    else
        nnt_rd(&r, got);
    for (int64_t i = 0; i < nr; i++) {
        const double want = ref(op, x[src_index(i, rd, rn, sd, sn)], y[src_index(i, rd, rn, od, on)]);
        if (cmp)
            ck_assert_msg(gb[i] == want, "op %d [%lld]: %u, want %g", op, (long long)i, gb[i], want);
        else
            ck_assert_msg(__builtin_fabs(got[i] - want) <= 1e-6 + 1e-5 * __builtin_fabs(want),
                          "op %d [%lld]: %g, want %g", op, (long long)i, got[i], want);
    }
    CK_OK(aclDestroyScalar(alpha));
    nnt_rm(&a);
    nnt_rm(&b);
    nnt_rm(&r);
    free(x);
    free(y);
    free(got);
    free(gb);
}

/* Loop index = operator: [2,3,4] op [4], [4] op [2,3,4], [2,1,4] op [3,1], [1] and 0-d others,
 * and the same shapes (no expand, no workspace). */
START_TEST(test_aclnn_bcast_binary)
{
    const int op = _i;
    const int64_t d234[] = {2, 3, 4}, d4[] = {4}, d214[] = {2, 1, 4}, d31[] = {3, 1}, d1[] = {1}, d0[] = {0};
    const int64_t d5x70[] = {5, 1, 70}, d1x9x1[] = {9, 1}, d5970[] = {5, 9, 70};
    binary_case(op, d234, 3, d4, 1, d234, 3);
    binary_case(op, d4, 1, d234, 3, d234, 3);
    binary_case(op, d214, 3, d31, 2, d234, 3);
    binary_case(op, d234, 3, d1, 1, d234, 3);
    binary_case(op, d234, 3, d0, 0, d234, 3);
    binary_case(op, d5x70, 3, d1x9x1, 2, d5970, 3);
    binary_case(op, d234, 3, d234, 3, d234, 3);
}
END_TEST

/* A transposed view as other ([3,4] with strides (1,3), after an offset of 2), broadcast against
 * self [2,3,4]; and the in-place forms with other broadcast. */
START_TEST(test_aclnn_bcast_view_and_inplace)
{
    const int64_t d234[] = {2, 3, 4}, d34[] = {3, 4}, vstr[] = {1, 3}, big[] = {14}, d4[] = {4};
    float x[24], st[14], y4[4];
    nnt_fill(x, 24, 5u, -3.0f, 3.0f);
    nnt_fill(st, 14, 6u, 0.5f, 2.0f);
    nnt_fill(y4, 4, 7u, 0.5f, 2.0f);
    nnt_dt_t a = nnt_mk(d234, 3, ACL_FLOAT, ACL_FORMAT_ND, x), s = nnt_mk(big, 1, ACL_FLOAT, ACL_FORMAT_ND, st);
    nnt_dt_t o = nnt_mk(d234, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL), y = nnt_mk(d4, 1, ACL_FLOAT, ACL_FORMAT_ND, y4);
    aclTensor *v = aclCreateTensor(d34, 2, ACL_FLOAT, vstr, 2, ACL_FORMAT_ND, big, 1, s.dev);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnMulGetWorkspaceSize(a.t, v, o.t, &ws, &e));
    ck_assert_uint_gt(ws, 0);
    run_ws(aclnnMul, ws, e);
    float got[24];
    nnt_rd(&o, got);
    for (int i = 0; i < 24; i++) {
        const int r = i / 4 % 3, c = i % 4;
        const float want = x[i] * st[2 + r + 3 * c];
        ck_assert_msg(got[i] == want, "Mul by a view [%d]: %g, want %g", i, got[i], want);
    }
    /* in place: selfRef [2,3,4] += 1 * [4], then selfRef = selfRef > [4] as 0 / 1 */
    float one = 1.0f;
    aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
    CK_OK(aclnnInplaceAddGetWorkspaceSize(a.t, y.t, alpha, &ws, &e));
    run_ws(aclnnInplaceAdd, ws, e);
    nnt_rd(&a, got);
    float sum[24];
    for (int i = 0; i < 24; i++) {
        sum[i] = x[i] + y4[i % 4];
        ck_assert_msg(got[i] == sum[i], "InplaceAdd [%d]: %g, want %g", i, got[i], sum[i]);
    }
    CK_OK(aclnnInplaceGtTensorGetWorkspaceSize(a.t, y.t, &ws, &e));
    run_ws(aclnnInplaceGtTensor, ws, e);
    nnt_rd(&a, got);
    for (int i = 0; i < 24; i++)
        ck_assert_msg(got[i] == (sum[i] > y4[i % 4] ? 1.0f : 0.0f), "InplaceGtTensor [%d]: %g", i, got[i]);
    CK_OK(aclDestroyScalar(alpha));
    CK_OK(aclDestroyTensor(v));
    nnt_rm(&a);
    nnt_rm(&s);
    nnt_rm(&o);
    nnt_rm(&y);
}
END_TEST

START_TEST(test_aclnn_bcast_errors)
{
    const int64_t d23[] = {2, 3}, d4[] = {4}, d234[] = {2, 3, 4}, d34[] = {3, 4};
    nnt_dt_t a = nnt_mk(d23, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), b = nnt_mk(d4, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t c = nnt_mk(d234, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL), o = nnt_mk(d34, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t ob = nnt_mk(d34, 2, ACL_BOOL, ACL_FORMAT_ND, NULL);
    float one = 1.0f;
    aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t ws;
    aclOpExecutor *e;
    CK_ERR(aclnnAddGetWorkspaceSize(a.t, b.t, alpha, o.t, &ws, &e), NN_INVALID,
           "aclnnAddGetWorkspaceSize: self [2,3] and other [4] do not broadcast: aligned at the last axis, axis 1 of "
           "the result has 3 and 4");
    CK_ERR(aclnnGtTensorGetWorkspaceSize(a.t, b.t, ob.t, &ws, &e), NN_INVALID, "self [2,3] and other [4] do not broadcast");
    CK_ERR(aclnnMulGetWorkspaceSize(c.t, b.t, o.t, &ws, &e), NN_INVALID,
           "out has shape [3,4] but the broadcast of self and other has [2,3,4]");
    CK_ERR(aclnnEqTensorGetWorkspaceSize(c.t, b.t, ob.t, &ws, &e), NN_INVALID,
           "out has shape [3,4] but the broadcast of self and other has [2,3,4]");
    CK_ERR(aclnnInplaceMulGetWorkspaceSize(o.t, c.t, &ws, &e), NN_INVALID,
           "selfRef has shape [3,4] but the broadcast of selfRef and other has [2,3,4]; in place, only other may "
           "broadcast");
    CK_ERR(aclnnInplaceLeTensorGetWorkspaceSize(o.t, c.t, &ws, &e), NN_INVALID, "in place, only other may broadcast");
    /* an empty broadcast result: nothing to run, no workspace */
    const int64_t d03[] = {0, 3}, d3[] = {3};
    nnt_dt_t z = nnt_mk(d03, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), v3 = nnt_mk(d3, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    CK_OK(aclnnMulGetWorkspaceSize(z.t, v3.t, z.t, &ws, &e));
    ck_assert_uint_eq(ws, 0);
    RUN(aclnnMul(NULL, 0, e, nnt_stream));
    nnt_rm(&z);
    nnt_rm(&v3);
    /* a broadcasting executor needs its workspace */
    CK_OK(aclnnMulGetWorkspaceSize(c.t, b.t, c.t, &ws, &e));
    ck_assert_uint_gt(ws, 0);
    CK_ERR(aclnnMul(NULL, ws, e, nnt_stream), NN_INVALID, "workspace is NULL but the operator needs");
    CK_OK(aclDestroyScalar(alpha));
    nnt_rm(&a);
    nnt_rm(&b);
    nnt_rm(&c);
    nnt_rm(&o);
    nnt_rm(&ob);
}
END_TEST

/* Mixed dtypes promote as torch's result_type, each operand cast (and broadcast) into the workspace
 * first: the ops-math example InplaceLeTensor (fp32 selfRef, int32 other); fp16 [2,3,4] + fp32 [4]
 * into fp32; int32 [2,3] * a 0-d fp32 (its higher category counts) and fp32 [2,3] * a 0-d fp16 (it
 * does not); int32 [3,4] > fp16 [4] in fp16; bool [4] + fp32 [2,4]; in place fp16 += fp32 [4] in
 * fp16 (cast, then expand); and int32 *= fp32 in place, which torch refuses. */
START_TEST(test_aclnn_bcast_promotion)
{
    const int64_t d42[] = {4, 2}, d234[] = {2, 3, 4}, d4[] = {4}, d23[] = {2, 3}, d34[] = {3, 4}, d24[] = {2, 4};
    uint64_t ws;
    aclOpExecutor *e;
    float one = 1.0f;
    aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
    /* InplaceLeTensor: fp32 selfRef, int32 other */
    {
        float x[8] = {1, 2, 3, 4, -5, 6.5f, 7, 8}, got[8];
        int32_t y[8] = {1, 1, 4, 4, -6, 6, 9, -8};
        nnt_dt_t a = nnt_mk(d42, 2, ACL_FLOAT, ACL_FORMAT_ND, x), b = nnt_mk(d42, 2, ACL_INT32, ACL_FORMAT_ND, y);
        CK_OK(aclnnInplaceLeTensorGetWorkspaceSize(a.t, b.t, &ws, &e));
        ck_assert_uint_gt(ws, 0);
        run_ws(aclnnInplaceLeTensor, ws, e);
        nnt_rd(&a, got);
        for (int i = 0; i < 8; i++)
            ck_assert_msg(got[i] == (x[i] <= (float)y[i] ? 1.0f : 0.0f), "InplaceLeTensor [%d]: %g", i, got[i]);
        nnt_rm(&a);
        nnt_rm(&b);
    }
    /* fp16 [2,3,4] + fp32 [4] -> fp32 */
    {
        float xf[24], y[4], got[24];
        uint16_t xh[24];
        nnt_fill(xf, 24, 3u, -2.0f, 2.0f);
        nnt_fill(y, 4, 4u, -2.0f, 2.0f);
        nnt_to_f16(xf, xh, 24);
        nnt_dt_t a = nnt_mk(d234, 3, ACL_FLOAT16, ACL_FORMAT_ND, xh), b = nnt_mk(d4, 1, ACL_FLOAT, ACL_FORMAT_ND, y);
        nnt_dt_t o = nnt_mk(d234, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        CK_OK(aclnnAddGetWorkspaceSize(a.t, b.t, alpha, o.t, &ws, &e));
        run_ws(aclnnAdd, ws, e);
        nnt_rd(&o, got);
        for (int i = 0; i < 24; i++) {
            const float want = nnt_f16r(xf[i]) + y[i % 4];
            ck_assert_msg(got[i] == want, "fp16 + fp32 [%d]: %g, want %g", i, got[i], want);
        }
        nnt_rm(&a);
        nnt_rm(&b);
        nnt_rm(&o);
    }
    /* int32 [2,3] * 0-d fp32 -> fp32; fp32 [2,3] * 0-d fp16 -> fp32 */
    {
        int32_t xi[6] = {1, -2, 3, 40, -50, 600};
        float xf[6] = {0.5f, -1, 2, 3.25f, 4, -8}, h = 1.5f, got[6];
        uint16_t hh;
        nnt_to_f16(&h, &hh, 1);
        nnt_dt_t a = nnt_mk(d23, 2, ACL_INT32, ACL_FORMAT_ND, xi), f = nnt_mk(d23, 2, ACL_FLOAT, ACL_FORMAT_ND, xf);
        nnt_dt_t z32 = nnt_mk(NULL, 0, ACL_FLOAT, ACL_FORMAT_ND, &h), z16 = nnt_mk(NULL, 0, ACL_FLOAT16, ACL_FORMAT_ND, &hh);
        nnt_dt_t o = nnt_mk(d23, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), o2 = nnt_mk(d23, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        CK_OK(aclnnMulGetWorkspaceSize(a.t, z32.t, o.t, &ws, &e));
        run_ws(aclnnMul, ws, e);
        nnt_rd(&o, got);
        for (int i = 0; i < 6; i++)
            ck_assert_msg(got[i] == (float)xi[i] * 1.5f, "int32 * 0-d fp32 [%d]: %g", i, got[i]);
        CK_OK(aclnnMulGetWorkspaceSize(f.t, z16.t, o2.t, &ws, &e));
        run_ws(aclnnMul, ws, e);
        nnt_rd(&o2, got);
        for (int i = 0; i < 6; i++)
            ck_assert_msg(got[i] == xf[i] * 1.5f, "fp32 * 0-d fp16 [%d]: %g", i, got[i]);
        /* the 0-d fp16 does not decide: an fp16 out is the wrong dtype */
        nnt_dt_t o16 = nnt_mk(d23, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
        CK_ERR(aclnnMulGetWorkspaceSize(f.t, z16.t, o16.t, &ws, &e), NN_INVALID,
               "out has dtype ACL_FLOAT16 but self (ACL_FLOAT) and other (ACL_FLOAT16) promote to ACL_FLOAT");
        nnt_rm(&o16);
        nnt_rm(&a);
        nnt_rm(&f);
        nnt_rm(&z32);
        nnt_rm(&z16);
        nnt_rm(&o);
        nnt_rm(&o2);
    }
    /* int32 [3,4] > fp16 [4]: compared in fp16 */
    {
        int32_t xi[12];
        float y[4] = {-1.5f, 0, 2, 7}, yr[4];
        uint16_t yh[4];
        unsigned char got[12];
        for (int i = 0; i < 12; i++)
            xi[i] = i - 4;
        nnt_to_f16(y, yh, 4);
        for (int i = 0; i < 4; i++)
            yr[i] = nnt_f16r(y[i]);
        nnt_dt_t a = nnt_mk(d34, 2, ACL_INT32, ACL_FORMAT_ND, xi), b = nnt_mk(d4, 1, ACL_FLOAT16, ACL_FORMAT_ND, yh);
        nnt_dt_t o = nnt_mk(d34, 2, ACL_BOOL, ACL_FORMAT_ND, NULL);
        CK_OK(aclnnGtTensorGetWorkspaceSize(a.t, b.t, o.t, &ws, &e));
        run_ws(aclnnGtTensor, ws, e);
        nnt_rd(&o, got);
        for (int i = 0; i < 12; i++)
            ck_assert_msg(got[i] == ((float)xi[i] > yr[i % 4]), "int32 > fp16 [%d]: %u", i, got[i]);
        nnt_rm(&a);
        nnt_rm(&b);
        nnt_rm(&o);
    }
    /* bool [4] + fp32 [2,4] -> fp32 */
    {
        unsigned char xb[4] = {1, 0, 1, 1};
        float y[8] = {0.5f, 1, 2, 3, 4, 5, 6, 7}, got[8];
        nnt_dt_t a = nnt_mk(d4, 1, ACL_BOOL, ACL_FORMAT_ND, xb), b = nnt_mk(d24, 2, ACL_FLOAT, ACL_FORMAT_ND, y);
        nnt_dt_t o = nnt_mk(d24, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        CK_OK(aclnnAddGetWorkspaceSize(a.t, b.t, alpha, o.t, &ws, &e));
        run_ws(aclnnAdd, ws, e);
        nnt_rd(&o, got);
        for (int i = 0; i < 8; i++)
            ck_assert_msg(got[i] == (float)xb[i % 4] + y[i], "bool + fp32 [%d]: %g", i, got[i]);
        nnt_rm(&a);
        nnt_rm(&b);
        nnt_rm(&o);
    }
    /* in place: fp16 [2,4] += fp32 [4], computed in fp16; int32 *= fp32 refused */
    {
        float xf[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[4] = {0.25f, -0.5f, 1.125f, 100}, want[8];
        uint16_t xh[8], got[8], wanth[8];
        nnt_to_f16(xf, xh, 8);
        nnt_dt_t a = nnt_mk(d24, 2, ACL_FLOAT16, ACL_FORMAT_ND, xh), b = nnt_mk(d4, 1, ACL_FLOAT, ACL_FORMAT_ND, y);
        CK_OK(aclnnInplaceAddGetWorkspaceSize(a.t, b.t, alpha, &ws, &e));
        run_ws(aclnnInplaceAdd, ws, e);
        nnt_rd(&a, got);
        for (int i = 0; i < 8; i++)
            want[i] = xf[i] + nnt_f16r(y[i % 4]);
        nnt_to_f16(want, wanth, 8);
        for (int i = 0; i < 8; i++)
            ck_assert_msg(got[i] == wanth[i], "fp16 += fp32 [%d]: %#x, want %g", i, got[i], want[i]);
        int32_t xi[8] = {0};
        nnt_dt_t c = nnt_mk(d24, 2, ACL_INT32, ACL_FORMAT_ND, xi);
        CK_ERR(aclnnInplaceMulGetWorkspaceSize(c.t, b.t, &ws, &e), NN_INVALID,
               "selfRef has dtype ACL_INT32 and other ACL_FLOAT: their result type ACL_FLOAT cannot be written to "
               "selfRef");
        nnt_rm(&a);
        nnt_rm(&b);
        nnt_rm(&c);
    }
    CK_OK(aclDestroyScalar(alpha));
}
END_TEST

/* aclnnCast: self (6 elements, a 2x3 tensor) in `from` to `to`, against want (as doubles). */
static void cast_case(aclDataType from, const void *x, aclDataType to, const double *want)
{
    const int64_t d[] = {2, 3};
    nnt_dt_t a = nnt_mk(d, 2, from, ACL_FORMAT_ND, x), o = nnt_mk(d, 2, to, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnCastGetWorkspaceSize(a.t, to, o.t, &ws, &e));
    run_ws(aclnnCast, ws, e);
    unsigned char got[24];
    nnt_rd(&o, got);
    for (int i = 0; i < 6; i++) {
        double g;
        switch (to) {
        case ACL_FLOAT: { float f; memcpy(&f, got + 4 * i, 4); g = f; break; }
        case ACL_INT32: { int32_t v; memcpy(&v, got + 4 * i, 4); g = v; break; }
        case ACL_FLOAT16: { /* compare the bits with want rounded to fp16 */
            uint16_t h, wh;
            const float w = (float)want[i];
            memcpy(&h, got + 2 * i, 2);
            nnt_to_f16(&w, &wh, 1);
            ck_assert_msg(h == wh, "aclnnCast -> fp16 [%d]: %#x, want %#x", i, h, wh);
            g = want[i];
            break;
        }
        case ACL_INT8: g = (int8_t)got[i]; break;
        default: g = got[i]; break; /* uint8, bool */
        }
        ck_assert_msg(g == want[i], "aclnnCast %d -> %d [%d]: %g, want %g", (int)from, (int)to, i, g, want[i]);
    }
    nnt_rm(&a);
    nnt_rm(&o);
}

/* fp32 -> int32 truncates (negatives toward zero), -> fp16 rounds, -> bool is != 0; int32 -> fp32;
 * int8 and bf16... -> bool through fp16 / fp32; bool -> fp32 and -> int8 (through fp16); the same
 * dtype and bool -> uint8 copy; and the errors: fp64, integer narrowing, out's dtype. */
START_TEST(test_aclnn_bcast_cast_aclnn)
{
    const float xf[6] = {1.75f, -1.75f, 0, 0.25f, -300.5f, 65519.0f};
    const int32_t xi[6] = {0, -7, 16777217, 3, -1, 100000};
    const int8_t x8[6] = {0, -1, 5, 127, -128, 0};
    const unsigned char xb[6] = {1, 0, 1, 1, 0, 0};
    const double f2i[6] = {1, -1, 0, 0, -300, 65519}, f2b[6] = {1, 1, 0, 1, 1, 1};
    const double f2h[6] = {1.75, -1.75, 0, 0.25, -300.5, 65504};
    const double i2f[6] = {0, -7, 16777216, 3, -1, 100000}, i8b[6] = {0, 1, 1, 1, 1, 0};
    const double b2f[6] = {1, 0, 1, 1, 0, 0};
    cast_case(ACL_FLOAT, xf, ACL_INT32, f2i);
    cast_case(ACL_FLOAT, xf, ACL_FLOAT16, f2h);
    cast_case(ACL_FLOAT, xf, ACL_BOOL, f2b);
    cast_case(ACL_INT32, xi, ACL_FLOAT, i2f);
    cast_case(ACL_INT8, x8, ACL_BOOL, i8b);
    cast_case(ACL_BOOL, xb, ACL_FLOAT, b2f);
    cast_case(ACL_BOOL, xb, ACL_INT8, b2f);
    cast_case(ACL_BOOL, xb, ACL_UINT8, b2f);
    cast_case(ACL_FLOAT, xf, ACL_FLOAT, (const double[]){1.75, -1.75, 0, 0.25, -300.5, 65519});
    const int64_t d[] = {2, 3};
    nnt_dt_t a = nnt_mk(d, 2, ACL_INT32, ACL_FORMAT_ND, xi), o8 = nnt_mk(d, 2, ACL_INT8, ACL_FORMAT_ND, NULL);
    nnt_dt_t o64 = nnt_mk(d, 2, ACL_DOUBLE, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_ERR(aclnnCastGetWorkspaceSize(a.t, ACL_DOUBLE, o64.t, &ws, &e), NN_INVALID,
           "ACL_INT32 -> ACL_DOUBLE: dvsim casts only between the AI Core vector types");
    CK_ERR(aclnnCastGetWorkspaceSize(a.t, ACL_INT8, o8.t, &ws, &e), NN_INVALID,
           "int32 -> int8 narrows one integer type to another");
    CK_ERR(aclnnCastGetWorkspaceSize(a.t, ACL_FLOAT, o8.t, &ws, &e), NN_INVALID,
           "out has dtype ACL_INT8 but dtype is ACL_FLOAT");
    nnt_rm(&a);
    nnt_rm(&o8);
    nnt_rm(&o64);
}
END_TEST

/* A repeatable broadcasting executor (an expand, then the mul) rebound with aclSetInputTensorAddr
 * (self 0), aclSetTensorAddr (other 1 of self, other, out) and aclSetOutputTensorAddr (out 0): the
 * second run reads and writes the new tensors. */
START_TEST(test_aclnn_bcast_rebind_chain)
{
    const int64_t d23[] = {2, 3}, d3[] = {3};
    float x1[6] = {1, 2, 3, 4, 5, 6}, x2[6] = {10, 20, 30, 40, 50, 60}, y1[3] = {2, 3, 4}, y2[3] = {-1, 0, 1};
    float got[6];
    nnt_dt_t a1 = nnt_mk(d23, 2, ACL_FLOAT, ACL_FORMAT_ND, x1), a2 = nnt_mk(d23, 2, ACL_FLOAT, ACL_FORMAT_ND, x2);
    nnt_dt_t b1 = nnt_mk(d3, 1, ACL_FLOAT, ACL_FORMAT_ND, y1), b2 = nnt_mk(d3, 1, ACL_FLOAT, ACL_FORMAT_ND, y2);
    nnt_dt_t o1 = nnt_mk(d23, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), o2 = nnt_mk(d23, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnMulGetWorkspaceSize(a1.t, b1.t, o1.t, &ws, &e));
    CK_OK(aclSetAclOpExecutorRepeatable(e));
    void *wsp = NULL;
    CK_OK(aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST));
    RUN(aclnnMul(wsp, ws, e, nnt_stream));
    nnt_rd(&o1, got);
    for (int i = 0; i < 6; i++)
        ck_assert_msg(got[i] == x1[i] * y1[i % 3], "first run [%d]: %g", i, got[i]);
    CK_OK(aclSetInputTensorAddr(e, 0, a2.t, a2.dev));
    CK_OK(aclSetTensorAddr(e, 1, b2.t, b2.dev)); /* counts self, other, out */
    CK_OK(aclSetOutputTensorAddr(e, 0, o2.t, o2.dev));
    CK_ERR(aclSetTensorAddr(e, 3, o2.t, o2.dev), NN_INVALID, "index 3 is out of range: the aclnnMul executor has 3 "
           "tensors");
    CK_ERR(aclSetInputTensorAddr(e, 2, b2.t, b2.dev), NN_INVALID, "index 2 is out of range: the aclnnMul executor has 2 "
           "input tensors");
    RUN(aclnnMul(wsp, ws, e, nnt_stream));
    nnt_rd(&o2, got);
    for (int i = 0; i < 6; i++)
        ck_assert_msg(got[i] == x2[i] * y2[i % 3], "rebound run [%d]: %g, want %g", i, got[i], x2[i] * y2[i % 3]);
    CK_OK(aclDestroyAclOpExecutor(e));
    CK_OK(aclrtFree(wsp));
    nnt_rm(&a1);
    nnt_rm(&a2);
    nnt_rm(&b1);
    nnt_rm(&b2);
    nnt_rm(&o1);
    nnt_rm(&o2);
}
END_TEST

/* A floating-point aclScalar with an integer tensor computes in fp32 (torch's default dtype): int32
 * Muls by 0.5 and Adds 1.5 into fp32 outs; an int32 out, and in place, are refused. */
START_TEST(test_aclnn_bcast_scalar_promotion)
{
    const int64_t d[] = {2, 3};
    int32_t xi[6] = {1, -2, 3, 7, -9, 100};
    float got[6], half = 0.5f, onehalf = 1.5f, one = 1.0f;
    nnt_dt_t a = nnt_mk(d, 2, ACL_INT32, ACL_FORMAT_ND, xi), o = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t oi = nnt_mk(d, 2, ACL_INT32, ACL_FORMAT_ND, NULL);
    aclScalar *sh = aclCreateScalar(&half, ACL_FLOAT), *s15 = aclCreateScalar(&onehalf, ACL_FLOAT);
    aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnMulsGetWorkspaceSize(a.t, sh, o.t, &ws, &e));
    ck_assert_uint_gt(ws, 0);
    run_ws(aclnnMuls, ws, e);
    nnt_rd(&o, got);
    for (int i = 0; i < 6; i++)
        ck_assert_msg(got[i] == (float)xi[i] * 0.5f, "int32 Muls 0.5 [%d]: %g", i, got[i]);
    CK_OK(aclnnAddsGetWorkspaceSize(a.t, s15, alpha, o.t, &ws, &e));
    run_ws(aclnnAdds, ws, e);
    nnt_rd(&o, got);
    for (int i = 0; i < 6; i++)
        ck_assert_msg(got[i] == (float)xi[i] + 1.5f, "int32 Adds 1.5 [%d]: %g", i, got[i]);
    CK_ERR(aclnnMulsGetWorkspaceSize(a.t, sh, oi.t, &ws, &e), NN_INVALID,
           "out has dtype ACL_INT32 but self (ACL_INT32) and other (a floating-point scalar) promote to ACL_FLOAT");
    CK_ERR(aclnnInplaceMulsGetWorkspaceSize(a.t, sh, &ws, &e), NN_INVALID,
           "selfRef has dtype ACL_INT32 and other a floating-point scalar: their result type ACL_FLOAT cannot be "
           "written to selfRef");
    CK_OK(aclDestroyScalar(sh));
    CK_OK(aclDestroyScalar(s15));
    CK_OK(aclDestroyScalar(alpha));
    nnt_rm(&a);
    nnt_rm(&o);
    nnt_rm(&oi);
}
END_TEST

/* The losses broadcast self and target: MseLoss of [2,3] against [3] with reduction none and mean. */
START_TEST(test_aclnn_bcast_loss)
{
    const int64_t d23[] = {2, 3}, d3[] = {3};
    float x[6] = {1, 2, 3, 4, 5, 6}, y[3] = {0.5f, 2, 4}, got[6], mean = 0;
    nnt_dt_t a = nnt_mk(d23, 2, ACL_FLOAT, ACL_FORMAT_ND, x), b = nnt_mk(d3, 1, ACL_FLOAT, ACL_FORMAT_ND, y);
    nnt_dt_t o = nnt_mk(d23, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), m = nnt_mk(NULL, 0, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnMseLossGetWorkspaceSize(a.t, b.t, 0, o.t, &ws, &e));
    ck_assert_uint_gt(ws, 0);
    run_ws(aclnnMseLoss, ws, e);
    nnt_rd(&o, got);
    for (int i = 0; i < 6; i++) {
        const float d = x[i] - y[i % 3];
        ck_assert_msg(got[i] == d * d, "MseLoss none [%d]: %g, want %g", i, got[i], d * d);
        mean += d * d / 6;
    }
    CK_OK(aclnnMseLossGetWorkspaceSize(a.t, b.t, 1, m.t, &ws, &e));
    run_ws(aclnnMseLoss, ws, e);
    nnt_rd(&m, got);
    ck_assert_msg(__builtin_fabsf(got[0] - mean) <= 1e-5f * mean, "MseLoss mean: %g, want %g", got[0], mean);
    CK_ERR(aclnnMseLossGetWorkspaceSize(a.t, b.t, 0, b.t, &ws, &e), NN_INVALID,
           "out has shape [3] but the broadcast of self and target has [2,3] (reduction 0)");
    nnt_rm(&a);
    nnt_rm(&b);
    nnt_rm(&o);
    nnt_rm(&m);
}
END_TEST

/* Add's common broadcast runs in one kernel (the library's bias_add, no workspace), as CANN's does:
 * [2,3,4] + [4], [2,3,5,4] + [3,1,1] (a per-channel bias) and in place [1,3,4] += [1,4]; alpha 2 takes
 * the expand path (a workspace). */
START_TEST(test_aclnn_bcast_add_bias)
{
    static const struct {
        int64_t sd[4], od[4];
        int sn, on;
        float alpha;
        bool inplace;
    } cases[] = {
        {{2, 3, 4}, {4}, 3, 1, 1.0f, false},
        {{2, 3, 5, 4}, {3, 1, 1}, 4, 3, 1.0f, false},
        {{1, 3, 4}, {1, 4}, 3, 2, 1.0f, true},
        {{2, 3, 4}, {4}, 3, 1, 2.0f, false},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const int64_t ns = nnt_numel(cases[k].sd, cases[k].sn), no = nnt_numel(cases[k].od, cases[k].on);
        float x[120], y[12], got[120];
        nnt_fill(x, ns, 31u + (unsigned)k, -2.0f, 2.0f);
        nnt_fill(y, no, 41u + (unsigned)k, -2.0f, 2.0f);
        nnt_dt_t a = nnt_mk(cases[k].sd, cases[k].sn, ACL_FLOAT, ACL_FORMAT_ND, x);
        nnt_dt_t b = nnt_mk(cases[k].od, cases[k].on, ACL_FLOAT, ACL_FORMAT_ND, y);
        nnt_dt_t o = nnt_mk(cases[k].sd, cases[k].sn, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        aclScalar *alpha = aclCreateScalar((void *)&cases[k].alpha, ACL_FLOAT);
        uint64_t ws;
        aclOpExecutor *e;
        if (cases[k].inplace) {
            CK_OK(aclnnInplaceAddGetWorkspaceSize(a.t, b.t, alpha, &ws, &e));
            run_ws(aclnnInplaceAdd, ws, e);
            nnt_rd(&a, got);
        } else {
            CK_OK(aclnnAddGetWorkspaceSize(a.t, b.t, alpha, o.t, &ws, &e));
            run_ws(aclnnAdd, ws, e);
            nnt_rd(&o, got);
        }
        ck_assert_msg((ws == 0) == (cases[k].alpha == 1.0f), "case %zu: workspace %llu", k, (unsigned long long)ws);
        for (int64_t i = 0; i < ns; i++) {
            const float want = x[i] + cases[k].alpha * y[src_index(i, cases[k].sd, cases[k].sn, cases[k].od,
                                                                   cases[k].on)];
            ck_assert_msg(__builtin_fabsf(got[i] - want) <= 1e-6f, "case %zu [%lld]: %g, want %g", k, (long long)i,
                          got[i], want);
        }
        CK_OK(aclDestroyScalar(alpha));
        nnt_rm(&a);
        nnt_rm(&b);
        nnt_rm(&o);
    }
}
END_TEST

/* aclnnExpand: int32 [3,1] to size [2,-1,4]; bool [4] to [3,4]; the example's fp32 [4,2] to [4,2]. */
START_TEST(test_aclnn_bcast_expand_aclnn)
{
    const int64_t d31[] = {3, 1}, d234[] = {2, 3, 4}, d4[] = {4}, d34[] = {3, 4}, d42[] = {4, 2};
    int32_t xi[3] = {7, -8, 9}, gi[24];
    unsigned char xb[4] = {1, 0, 0, 1}, gb[12];
    float xf[8] = {0, 1, 2, 3, 4, 5, 6, 7}, gf[8];
    nnt_dt_t a = nnt_mk(d31, 2, ACL_INT32, ACL_FORMAT_ND, xi), oa = nnt_mk(d234, 3, ACL_INT32, ACL_FORMAT_ND, NULL);
    nnt_dt_t b = nnt_mk(d4, 1, ACL_BOOL, ACL_FORMAT_ND, xb), ob = nnt_mk(d34, 2, ACL_BOOL, ACL_FORMAT_ND, NULL);
    nnt_dt_t f = nnt_mk(d42, 2, ACL_FLOAT, ACL_FORMAT_ND, xf), of = nnt_mk(d42, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    const int64_t s1[] = {2, -1, 4}, s2[] = {3, 4}, s3[] = {4, 2}, bad1[] = {2, 3, 4, 5}, bad2[] = {-1, 3, 4};
    const int64_t bad3[] = {2, 3, 5}, bad4[] = {4};
    aclIntArray *z1 = aclCreateIntArray(s1, 3), *z2 = aclCreateIntArray(s2, 2), *z3 = aclCreateIntArray(s3, 2);
    aclIntArray *e1 = aclCreateIntArray(bad1, 4), *e2 = aclCreateIntArray(bad2, 3), *e3 = aclCreateIntArray(bad3, 3);
    aclIntArray *e4 = aclCreateIntArray(bad4, 1);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnExpandGetWorkspaceSize(a.t, z1, oa.t, &ws, &e));
    ck_assert_uint_eq(ws, 0);
    run_ws(aclnnExpand, ws, e);
    CK_OK(aclnnExpandGetWorkspaceSize(b.t, z2, ob.t, &ws, &e));
    run_ws(aclnnExpand, ws, e);
    CK_OK(aclnnExpandGetWorkspaceSize(f.t, z3, of.t, &ws, &e));
    run_ws(aclnnExpand, ws, e);
    nnt_rd(&oa, gi);
    nnt_rd(&ob, gb);
    nnt_rd(&of, gf);
    for (int i = 0; i < 24; i++)
        ck_assert_msg(gi[i] == xi[i / 4 % 3], "int32 expand [%d]: %d, want %d", i, gi[i], xi[i / 4 % 3]);
    for (int i = 0; i < 12; i++)
        ck_assert_msg(gb[i] == xb[i % 4], "bool expand [%d]: %u, want %u", i, gb[i], xb[i % 4]);
    for (int i = 0; i < 8; i++)
        ck_assert_msg(gf[i] == xf[i], "identity expand [%d]: %g", i, gf[i]);
    CK_ERR(aclnnExpandGetWorkspaceSize(a.t, e1, oa.t, &ws, &e), NN_INVALID,
           "self [3,1] cannot expand to size[2] = 4 (self's aligned length is 3");
    CK_ERR(aclnnExpandGetWorkspaceSize(a.t, e2, oa.t, &ws, &e), NN_INVALID, "and -1 is not a new axis");
    CK_ERR(aclnnExpandGetWorkspaceSize(a.t, e3, oa.t, &ws, &e), NN_INVALID,
           "out has shape [2,3,4] but self expanded to size has [2,3,5]");
    CK_ERR(aclnnExpandGetWorkspaceSize(a.t, e4, oa.t, &ws, &e), NN_INVALID, "size has 1 entries; self [3,1] has 2 axes");
    CK_ERR(aclnnExpandGetWorkspaceSize(a.t, NULL, oa.t, &ws, &e), NN_NULLPTR, "size is NULL");
    CK_ERR(aclnnExpandGetWorkspaceSize(a.t, z2, ob.t, &ws, &e), NN_INVALID, "out has dtype ACL_BOOL but self has ACL_INT32");
    aclDestroyIntArray(z1);
    aclDestroyIntArray(z2);
    aclDestroyIntArray(z3);
    aclDestroyIntArray(e1);
    aclDestroyIntArray(e2);
    aclDestroyIntArray(e3);
    aclDestroyIntArray(e4);
    nnt_rm(&a);
    nnt_rm(&oa);
    nnt_rm(&b);
    nnt_rm(&ob);
    nnt_rm(&f);
    nnt_rm(&of);
}
END_TEST

Suite *dv_aclnn_bcast_suite(void)
{
    Suite *s = suite_create("aclnn_bcast");
    TCase *tl = tcase_create("aclnn_bcast_library");
    tcase_set_timeout(tl, 120);
    tcase_add_loop_test(tl, test_aclnn_bcast_expand_check, 0, 2);
    tcase_add_test(tl, test_aclnn_bcast_expand_errors);
    tcase_add_loop_test(tl, test_aclnn_bcast_cast_check, 0, 2);
    tcase_add_test(tl, test_aclnn_bcast_cast_errors);
    suite_add_tcase(s, tl);
    TCase *tc = tcase_create("aclnn_bcast");
    tcase_add_checked_fixture(tc, nnt_setup, nnt_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_aclnn_bcast_binary, 0, NOPS);
    tcase_add_test(tc, test_aclnn_bcast_view_and_inplace);
    tcase_add_test(tc, test_aclnn_bcast_errors);
    tcase_add_test(tc, test_aclnn_bcast_expand_aclnn);
    tcase_add_test(tc, test_aclnn_bcast_promotion);
    tcase_add_test(tc, test_aclnn_bcast_cast_aclnn);
    tcase_add_test(tc, test_aclnn_bcast_rebind_chain);
    tcase_add_test(tc, test_aclnn_bcast_scalar_promotion);
    tcase_add_test(tc, test_aclnn_bcast_loss);
    tcase_add_test(tc, test_aclnn_bcast_add_bias);
    suite_add_tcase(s, tc);
    return s;
}
