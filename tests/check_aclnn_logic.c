/* tests/check_aclnn_logic.c - logical, bitwise and select operators: the library operators of
 * ops/logic.c under --check on the 910B2 and 310 profiles (every operator, its dtypes, sizes with short
 * tails, several blocks and tiles), and the aclnn fronts of acl/nnlogic.c through the real shim
 * against plain-C references on inputs with zeros, NaN, +-inf and -0 (LogicalAnd / Or / Xor / Not,
 * the Bitwise Tensor / Scalar / Not forms, IsFinite, IsInf, IsPosInf, IsNegInf, Signbit, SWhere,
 * InplaceMaskedFillScalar / Tensor, NanToNum, Equal, LeftShift, RightShift, LeftShifts), in place, and the
 * first phases' errors. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_bitwise_and_scalar.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwise_not.h"
#include "aclnnop/aclnn_bitwise_or_scalar.h"
#include "aclnnop/aclnn_bitwise_or_tensor.h"
#include "aclnnop/aclnn_bitwise_xor_scalar.h"
#include "aclnnop/aclnn_bitwise_xor_tensor.h"
#include "aclnnop/aclnn_equal.h"
#include "aclnnop/aclnn_is_inf.h"
#include "aclnnop/aclnn_left_shift.h"
#include "aclnnop/aclnn_isfinite.h"
#include "aclnnop/aclnn_isneginf.h"
#include "aclnnop/aclnn_isposinf.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_logical_or.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_masked_fill_tensor.h"
#include "aclnnop/aclnn_nan_to_num.h"
#include "aclnnop/aclnn_right_shift.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_signbit.h"
#include "dv/ops.h"
#include "support/dvt.h"
#include "support/nnt.h"

static const char *const profiles[] = {NULL /* ascend910b2 */, "ascend310"};

/* ---------------------------------------------------------------- the library operators */

static const struct {
    const char *cmd;
    uint64_t n, compared;
} lib_cases[] = {
    {"logical_and --dtype fp16 --shape 3001 --cores 3 --tile-elems 512", 3001, 3001},
    {"logical_or --dtype uint8 --out-dtype fp32 --shape 777", 777, 777},
    {"logical_xor --dtype int32 --shape 4097 --cores 2 --tile-elems 1024", 4097, 4097},
    {"logical_not --dtype int8 --out-dtype int32 --shape 513", 513, 513},
    {"logical_and --dtype int16 --out-dtype fp16 --shape 1000", 1000, 1000},
    {"isfinite --dtype fp32 --shape 999", 999, 999},
    {"isinf --dtype fp16 --out-dtype fp32 --shape 1500", 1500, 1500},
    {"isposinf --dtype fp32 --shape 100", 100, 100},
    {"isneginf --dtype fp16 --shape 100", 100, 100},
    {"isnan --dtype fp32 --out-dtype fp16 --shape 2000", 2000, 2000},
    {"signbit --dtype fp32 --shape 3000 --cores 4 --tile-elems 256", 3000, 3000},
    {"signbit --dtype fp16 --out-dtype int32 --shape 777", 777, 777},
    {"tensor_equal --dtype fp32 --shape 5001 --tile-elems 1024", 5001, 1},
    {"tensor_equal --dtype int16 --shape 3001 --tile-elems 1024", 3001, 1},
    {"tensor_equal --dtype uint8 --shape 777", 777, 1},
    {"where --dtype fp32 --shape 5000 --cores 3 --tile-elems 512", 5000, 5000},
    {"where --dtype int16 --shape 1001", 1001, 1001},
    {"masked_fill --dtype fp16 --value 2.5 --shape 3000", 3000, 3000},
    {"masked_fill --dtype int32 --value -7 --shape 999", 999, 999},
    {"nan_to_num --dtype fp32 --nan 1 --shape 1000", 1000, 1000},
    {"bitwise_and --dtype int32 --shape 3001 --cores 3 --tile-elems 512", 3001, 3001},
    {"bitwise_or --dtype uint8 --shape 777", 777, 777},
    {"bitwise_xor --dtype int8 --shape 5001", 5001, 5001},
    {"bitwise_not --dtype int16 --shape 513", 513, 513},
    {"bitwise_ands --dtype int32 --scalar -5 --shape 1000", 1000, 1000},
    {"bitwise_ors --dtype uint8 --scalar 129 --shape 1001", 1001, 1001},
    {"bitwise_xors --dtype int16 --scalar 12345 --shape 4097", 4097, 4097},
    {"left_shift --dtype int32 --shape 3001 --cores 3 --tile-elems 512", 3001, 3001},
    {"right_shift --dtype int16 --shape 1001", 1001, 1001},
    {"right_shift --dtype int32 --shape 777", 777, 777},
    {"left_shifts --dtype int16 --scalar 3 --shape 999", 999, 999},
};
enum { NLIB = sizeof lib_cases / sizeof lib_cases[0] };

/* Loop index: profile * NLIB + case. */
START_TEST(test_aclnn_logic_library_check)
{
    const char *profile = profiles[_i / NLIB];
    const int c = _i % NLIB;
    dvt_op_t r;
    dvt_op(&r, profile, NULL, lib_cases[c].cmd, true, true);
    ck_assert_msg(r.rc == DV_OK, "%s on %s: %s", lib_cases[c].cmd, profile ? profile : "ascend910b2", r.err.msg);
    ck_assert_msg(r.check.mismatches == 0, "%s: %llu mismatches", lib_cases[c].cmd,
                  (unsigned long long)r.check.mismatches);
    ck_assert_msg(r.check.compared == lib_cases[c].compared, "%s: %llu of %llu elements compared", lib_cases[c].cmd,
                  (unsigned long long)r.check.compared, (unsigned long long)lib_cases[c].compared);
    ck_assert_msg(r.cnt.hazards == 0, "%s: %llu hazards", lib_cases[c].cmd, (unsigned long long)r.cnt.hazards);
    dvt_op_free(&r);
}
END_TEST

static void expect_error(const char *cmd, const char *param, const char *text)
{
    dvt_op_t r;
    dvt_op(&r, NULL, NULL, cmd, false, false);
    ck_assert_msg(r.rc != DV_OK, "%s: expected an error", cmd);
    ck_assert_msg(strstr(r.err.msg, param), "%s: '%s' does not name %s", cmd, r.err.msg, param);
    ck_assert_msg(!text || strstr(r.err.msg, text), "%s: '%s' does not say %s", cmd, r.err.msg, text);
    dvt_op_free(&r);
}

START_TEST(test_aclnn_logic_library_errors)
{
    expect_error("logical_and --tile-elems 300", "--tile-elems", "multiple of 256");
    expect_error("where --dtype fp32 --tile-elems 65536", "--tile-elems", "core.ub_size_bytes");
    expect_error("bitwise_ands --dtype int32 --scalar 0.5", "--scalar", "not an integer");
    expect_error("bitwise_ands --dtype uint8 --scalar 256", "--scalar", "not an integer in [0, 255]");
    expect_error("masked_fill --dtype fp16 --value 1e6", "--value", "overflows");
    expect_error("nan_to_num --dtype fp16 --posinf 1e6", "--posinf", "overflows");
    expect_error("bitwise_and --dtype fp16", "--dtype", NULL);
    expect_error("isinf --dtype int32", "--dtype", NULL);
    expect_error("tensor_equal --cores 2", "--cores", NULL);
    expect_error("left_shifts --scalar 1.5", "--scalar", "not an integer");
    expect_error("right_shift --dtype int8", "--dtype", NULL);
}
END_TEST

/* ---------------------------------------------------------------- aclnn: logical */

enum { N = 300 };
static const int64_t dims[] = {3, 100};

static uint64_t ws;
static aclOpExecutor *ex;

/* fp32 inputs with zeros and NaN (nonzero: true); And / Or / Xor into a bool out and a float out, Not,
 * in place (0 / 1 in self's dtype), int32 and bool inputs. */
START_TEST(test_aclnn_logic_logical)
{
    nnt_setup_profile(profiles[_i]);
    float x[N], y[N];
    int32_t xi[N];
    unsigned char xb[N], yb[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)((i * 7) % 3) - 1.0f; /* -1, 0, 1 */
        y[i] = i % 5 == 0 ? 0.0f : i % 11 == 0 ? NAN : (float)(i % 4) * 0.5f;
        xi[i] = (i * 5) % 3 - 1;
        xb[i] = (unsigned char)(i % 3 == 0), yb[i] = (unsigned char)(i % 2 == 0);
    }
    nnt_dt_t a = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, x), b = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, y);
    nnt_dt_t ai = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, xi);
    nnt_dt_t ab = nnt_mk(dims, 2, ACL_BOOL, ACL_FORMAT_ND, xb), bb = nnt_mk(dims, 2, ACL_BOOL, ACL_FORMAT_ND, yb);
    nnt_dt_t o[6];
    for (int k = 0; k < 6; k++)
        o[k] = nnt_mk(dims, 2, k == 3 ? ACL_FLOAT : k == 4 ? ACL_INT32 : ACL_BOOL, ACL_FORMAT_ND, NULL);
    CK_OK(aclnnLogicalAndGetWorkspaceSize(a.t, b.t, o[0].t, &ws, &ex));
    RUN(aclnnLogicalAnd(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnLogicalOrGetWorkspaceSize(a.t, b.t, o[1].t, &ws, &ex));
    RUN(aclnnLogicalOr(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnLogicalXorGetWorkspaceSize(a.t, b.t, o[2].t, &ws, &ex));
    RUN(aclnnLogicalXor(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnLogicalXorGetWorkspaceSize(ab.t, bb.t, o[5].t, &ws, &ex));
    RUN(aclnnLogicalXor(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnLogicalNotGetWorkspaceSize(b.t, o[3].t, &ws, &ex));
    RUN(aclnnLogicalNot(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnLogicalNotGetWorkspaceSize(ai.t, o[4].t, &ws, &ex));
    RUN(aclnnLogicalNot(NULL, ws, ex, nnt_stream));
    unsigned char g0[N], g1[N], g2[N], g5[N];
    float g3[N];
    int32_t g4[N];
    nnt_rd(&o[0], g0), nnt_rd(&o[1], g1), nnt_rd(&o[2], g2), nnt_rd(&o[3], g3), nnt_rd(&o[4], g4), nnt_rd(&o[5], g5);
    for (int i = 0; i < N; i++) {
        const bool p = x[i] != 0, q = y[i] != 0; /* NaN != 0 */
        ck_assert_msg(g0[i] == (p && q), "LogicalAnd [%d] (%g, %g): %u", i, x[i], y[i], g0[i]);
        ck_assert_msg(g1[i] == (p || q), "LogicalOr [%d] (%g, %g): %u", i, x[i], y[i], g1[i]);
        ck_assert_msg(g2[i] == (p != q), "LogicalXor [%d] (%g, %g): %u", i, x[i], y[i], g2[i]);
        ck_assert_msg(g5[i] == (xb[i] != yb[i]), "LogicalXor bool [%d]: %u", i, g5[i]);
        ck_assert_msg(g3[i] == (float)!q, "LogicalNot float [%d] (%g): %g", i, y[i], g3[i]);
        ck_assert_msg(g4[i] == !xi[i], "LogicalNot int32 [%d] (%d): %d", i, xi[i], g4[i]);
    }
    /* in place: selfRef = selfRef and other, then not selfRef */
    CK_OK(aclnnInplaceLogicalAndGetWorkspaceSize(a.t, b.t, &ws, &ex));
    RUN(aclnnInplaceLogicalAnd(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnInplaceLogicalOrGetWorkspaceSize(ab.t, bb.t, &ws, &ex));
    RUN(aclnnInplaceLogicalOr(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnInplaceLogicalNotGetWorkspaceSize(ai.t, &ws, &ex));
    RUN(aclnnInplaceLogicalNot(NULL, ws, ex, nnt_stream));
    float ga[N];
    unsigned char gb[N];
    int32_t gi[N];
    nnt_rd(&a, ga), nnt_rd(&ab, gb), nnt_rd(&ai, gi);
    for (int i = 0; i < N; i++) {
        ck_assert_msg(ga[i] == (float)(x[i] != 0 && y[i] != 0), "InplaceLogicalAnd [%d]: %g", i, ga[i]);
        ck_assert_msg(gb[i] == (xb[i] || yb[i]), "InplaceLogicalOr bool [%d]: %u", i, gb[i]);
        ck_assert_msg(gi[i] == !xi[i], "InplaceLogicalNot [%d]: %d", i, gi[i]);
    }
    nnt_rm(&a), nnt_rm(&b), nnt_rm(&ai), nnt_rm(&ab), nnt_rm(&bb);
    for (int k = 0; k < 6; k++)
        nnt_rm(&o[k]);
}
END_TEST

/* A non-contiguous self (the transposed view, offset 3, of a larger allocation): SWhere and
 * LogicalOr read it through the view, InplaceMaskedFillScalar writes only the view's elements. */
START_TEST(test_aclnn_logic_views)
{
    nnt_setup_profile(NULL);
    enum { R = 5, C = 77, M = R * C, BIG = M + 3 + 4 };
    const int64_t d2[] = {R, C}, bigd[] = {BIG}, vstr[] = {1, R};
    float x[BIG], y[M];
    unsigned char m[M];
    for (int i = 0; i < BIG; i++)
        x[i] = (float)((i * 7 + 3) % 5) - 2.0f;
    for (int i = 0; i < M; i++)
        y[i] = (float)(i % 3), m[i] = (unsigned char)(i % 4 == 1);
    nnt_dt_t big = nnt_mk(bigd, 1, ACL_FLOAT, ACL_FORMAT_ND, x), b = nnt_mk(d2, 2, ACL_FLOAT, ACL_FORMAT_ND, y);
    nnt_dt_t mk = nnt_mk(d2, 2, ACL_BOOL, ACL_FORMAT_ND, m), o = nnt_mk(d2, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t ob = nnt_mk(d2, 2, ACL_BOOL, ACL_FORMAT_ND, NULL);
    aclTensor *v = aclCreateTensor(d2, 2, ACL_FLOAT, vstr, 3, ACL_FORMAT_ND, bigd, 1, big.dev);
    ck_assert_ptr_nonnull(v);
    CK_OK(aclnnSWhereGetWorkspaceSize(mk.t, v, b.t, o.t, &ws, &ex));
    RUN(aclnnSWhere(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnLogicalOrGetWorkspaceSize(v, b.t, ob.t, &ws, &ex));
    RUN(aclnnLogicalOr(NULL, ws, ex, nnt_stream));
    const float fv = 9.0f;
    aclScalar *s = aclCreateScalar((void *)&fv, ACL_FLOAT);
    CK_OK(aclnnInplaceMaskedFillScalarGetWorkspaceSize(v, mk.t, s, &ws, &ex));
    RUN(aclnnInplaceMaskedFillScalar(NULL, ws, ex, nnt_stream));
    float g[M], gbig[BIG];
    unsigned char gb[M];
    nnt_rd(&o, g), nnt_rd(&ob, gb), nnt_rd(&big, gbig);
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            const int i = r * C + c, src = 3 + c * R + r;
            ck_assert_msg(g[i] == (m[i] ? x[src] : y[i]), "SWhere (view) [%d,%d]: %g", r, c, g[i]);
            ck_assert_msg(gb[i] == (x[src] != 0 || y[i] != 0), "LogicalOr (view) [%d,%d]: %u", r, c, gb[i]);
            ck_assert_msg(gbig[src] == (m[i] ? fv : x[src]), "InplaceMaskedFillScalar (view) [%d,%d]: %g", r, c,
                          gbig[src]);
        }
    for (int i = 0; i < 3; i++)
        ck_assert_msg(gbig[i] == x[i] && gbig[BIG - 1 - i] == x[BIG - 1 - i], "outside the view changed");
    CK_OK(aclDestroyScalar(s));
    CK_OK(aclDestroyTensor(v));
    nnt_rm(&big), nnt_rm(&b), nnt_rm(&mk), nnt_rm(&o), nnt_rm(&ob);
}
END_TEST

/* ---------------------------------------------------------------- aclnn: bitwise */

START_TEST(test_aclnn_logic_bitwise)
{
    nnt_setup_profile(profiles[_i]);
    int32_t x[N], y[N];
    int8_t x8[N], y8[N];
    int16_t x16[N];
    unsigned char xb[N], yb[N];
    for (int i = 0; i < N; i++) {
        x[i] = (int32_t)((uint32_t)i * 2654435761u), y[i] = (i * 40503) ^ -(i % 7);
        x8[i] = (int8_t)(i * 37), y8[i] = (int8_t)(i * 11 + 5), x16[i] = (int16_t)(i * 977 - 30000);
        xb[i] = (unsigned char)(i % 3 == 0), yb[i] = (unsigned char)(i % 2 == 0);
    }
    nnt_dt_t a = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, x), b = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, y);
    nnt_dt_t a8 = nnt_mk(dims, 2, ACL_INT8, ACL_FORMAT_ND, x8), b8 = nnt_mk(dims, 2, ACL_INT8, ACL_FORMAT_ND, y8);
    nnt_dt_t a16 = nnt_mk(dims, 2, ACL_INT16, ACL_FORMAT_ND, x16);
    nnt_dt_t ab = nnt_mk(dims, 2, ACL_BOOL, ACL_FORMAT_ND, xb), bb = nnt_mk(dims, 2, ACL_BOOL, ACL_FORMAT_ND, yb);
    nnt_dt_t o1 = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, NULL), o2 = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, NULL);
    nnt_dt_t o3 = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, NULL), o8 = nnt_mk(dims, 2, ACL_INT8, ACL_FORMAT_ND, NULL);
    nnt_dt_t o16 = nnt_mk(dims, 2, ACL_INT16, ACL_FORMAT_ND, NULL), ob = nnt_mk(dims, 2, ACL_BOOL, ACL_FORMAT_ND, NULL);
    nnt_dt_t on = nnt_mk(dims, 2, ACL_BOOL, ACL_FORMAT_ND, NULL);
    const int32_t sv = -12346;
    const int16_t s16 = 0x5a5a;
    aclScalar *s = aclCreateScalar((void *)&sv, ACL_INT32), *s2 = aclCreateScalar((void *)&s16, ACL_INT16);
    CK_OK(aclnnBitwiseAndTensorGetWorkspaceSize(a.t, b.t, o1.t, &ws, &ex));
    RUN(aclnnBitwiseAndTensor(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnBitwiseXorScalarGetWorkspaceSize(a.t, s, o2.t, &ws, &ex));
    RUN(aclnnBitwiseXorScalar(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnBitwiseNotGetWorkspaceSize(a.t, o3.t, &ws, &ex));
    RUN(aclnnBitwiseNot(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnBitwiseXorTensorGetWorkspaceSize(a8.t, b8.t, o8.t, &ws, &ex));
    RUN(aclnnBitwiseXorTensor(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnBitwiseOrScalarGetWorkspaceSize(a16.t, s2, o16.t, &ws, &ex));
    RUN(aclnnBitwiseOrScalar(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnBitwiseAndTensorGetWorkspaceSize(ab.t, bb.t, ob.t, &ws, &ex));
    RUN(aclnnBitwiseAndTensor(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnBitwiseNotGetWorkspaceSize(ab.t, on.t, &ws, &ex));
    RUN(aclnnBitwiseNot(NULL, ws, ex, nnt_stream));
    int32_t g1[N], g2[N], g3[N];
    int8_t g8[N];
    int16_t g16[N];
    unsigned char gb[N], gn[N];
    nnt_rd(&o1, g1), nnt_rd(&o2, g2), nnt_rd(&o3, g3), nnt_rd(&o8, g8), nnt_rd(&o16, g16), nnt_rd(&ob, gb),
        nnt_rd(&on, gn);
    for (int i = 0; i < N; i++) {
        ck_assert_msg(g1[i] == (x[i] & y[i]), "BitwiseAndTensor [%d]: %d, want %d", i, g1[i], x[i] & y[i]);
        ck_assert_msg(g2[i] == (x[i] ^ sv), "BitwiseXorScalar [%d]: %d, want %d", i, g2[i], x[i] ^ sv);
        ck_assert_msg(g3[i] == ~x[i], "BitwiseNot [%d]: %d, want %d", i, g3[i], ~x[i]);
        ck_assert_msg(g8[i] == (int8_t)(x8[i] ^ y8[i]), "BitwiseXorTensor int8 [%d]: %d", i, g8[i]);
        ck_assert_msg(g16[i] == (int16_t)(x16[i] | s16), "BitwiseOrScalar int16 [%d]: %d", i, g16[i]);
        ck_assert_msg(gb[i] == (xb[i] & yb[i]), "BitwiseAndTensor bool [%d]: %u", i, gb[i]);
        ck_assert_msg(gn[i] == !xb[i], "BitwiseNot bool [%d]: %u (want the logical not)", i, gn[i]);
    }
    /* in place */
    CK_OK(aclnnInplaceBitwiseOrTensorGetWorkspaceSize(a.t, b.t, &ws, &ex));
    RUN(aclnnInplaceBitwiseOrTensor(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnInplaceBitwiseAndScalarGetWorkspaceSize(a.t, s, &ws, &ex));
    RUN(aclnnInplaceBitwiseAndScalar(NULL, ws, ex, nnt_stream));
    int32_t ga[N];
    nnt_rd(&a, ga);
    for (int i = 0; i < N; i++)
        ck_assert_msg(ga[i] == ((x[i] | y[i]) & sv), "InplaceBitwiseOr+And [%d]: %d", i, ga[i]);
    CK_OK(aclDestroyScalar(s));
    CK_OK(aclDestroyScalar(s2));
    nnt_rm(&a), nnt_rm(&b), nnt_rm(&a8), nnt_rm(&b8), nnt_rm(&a16), nnt_rm(&ab), nnt_rm(&bb);
    nnt_rm(&o1), nnt_rm(&o2), nnt_rm(&o3), nnt_rm(&o8), nnt_rm(&o16), nnt_rm(&ob), nnt_rm(&on);
}
END_TEST

/* Shifts: int32 counts in and out of [0, 32) (as CANN's RightShift example: -1 and 32), int16, a scalar. */
START_TEST(test_aclnn_logic_shifts)
{
    nnt_setup_profile(profiles[_i]);
    int32_t x[N], c[N];
    int16_t x16[N], c16[N];
    for (int i = 0; i < N; i++) {
        x[i] = (int32_t)((uint32_t)i * 2654435761u), c[i] = i % 37 - 2; /* -2 .. 34 */
        x16[i] = (int16_t)(i * 977 - 30000), c16[i] = (int16_t)(i % 19 - 1);
    }
    nnt_dt_t a = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, x), s = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, c);
    nnt_dt_t a16 = nnt_mk(dims, 2, ACL_INT16, ACL_FORMAT_ND, x16), s16 = nnt_mk(dims, 2, ACL_INT16, ACL_FORMAT_ND, c16);
    nnt_dt_t o1 = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, NULL), o2 = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, NULL);
    nnt_dt_t o3 = nnt_mk(dims, 2, ACL_INT16, ACL_FORMAT_ND, NULL), o4 = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, NULL);
    const int64_t seven = 7;
    aclScalar *k = aclCreateScalar((void *)&seven, ACL_INT64);
    CK_OK(aclnnLeftShiftGetWorkspaceSize(a.t, s.t, o1.t, &ws, &ex));
    RUN(aclnnLeftShift(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnRightShiftGetWorkspaceSize(a.t, s.t, o2.t, &ws, &ex));
    RUN(aclnnRightShift(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnRightShiftGetWorkspaceSize(a16.t, s16.t, o3.t, &ws, &ex));
    RUN(aclnnRightShift(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnLeftShiftsGetWorkspaceSize(a.t, k, o4.t, &ws, &ex));
    RUN(aclnnLeftShifts(NULL, ws, ex, nnt_stream));
    int32_t g1[N], g2[N], g4[N];
    int16_t g3[N];
    nnt_rd(&o1, g1), nnt_rd(&o2, g2), nnt_rd(&o3, g3), nnt_rd(&o4, g4);
    for (int i = 0; i < N; i++) {
        const bool in32 = c[i] >= 0 && c[i] < 32, in16 = c16[i] >= 0 && c16[i] < 16;
        const int32_t l = in32 ? (int32_t)((uint32_t)x[i] << c[i]) : 0;
        const int32_t r = in32 ? x[i] >> c[i] : x[i] < 0 ? -1 : 0;
        const int16_t r16 = in16 ? (int16_t)(x16[i] >> c16[i]) : x16[i] < 0 ? -1 : 0;
        ck_assert_msg(g1[i] == l, "LeftShift [%d] (%d << %d): %d, want %d", i, x[i], c[i], g1[i], l);
        ck_assert_msg(g2[i] == r, "RightShift [%d] (%d >> %d): %d, want %d", i, x[i], c[i], g2[i], r);
        ck_assert_msg(g3[i] == r16, "RightShift int16 [%d] (%d >> %d): %d, want %d", i, x16[i], c16[i], g3[i], r16);
        ck_assert_msg(g4[i] == (int32_t)((uint32_t)x[i] << 7), "LeftShifts [%d]: %d", i, g4[i]);
    }
    CK_OK(aclDestroyScalar(k));
    nnt_rm(&a), nnt_rm(&s), nnt_rm(&a16), nnt_rm(&s16), nnt_rm(&o1), nnt_rm(&o2), nnt_rm(&o3), nnt_rm(&o4);
}
END_TEST

/* ---------------------------------------------------------------- aclnn: predicates */

typedef aclnnStatus (*pred_gws)(const aclTensor *, aclTensor *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*pred_run)(void *, uint64_t, aclOpExecutor *, aclrtStream);

static int pred_ref(int k, float v)
{
    switch (k) {
    case 0: return isfinite(v) != 0;
    case 1: return isinf(v) != 0;
    case 2: return v == INFINITY;
    case 3: return v == -INFINITY;
    default: return signbit(v) != 0;
    }
}

/* fp32 and fp16 inputs with +-inf, NaN (of both signs), -0, denormals, into a bool and a float out. */
START_TEST(test_aclnn_logic_predicates)
{
    nnt_setup_profile(profiles[_i]);
    static const struct {
        const char *name;
        pred_gws gws;
        pred_run run;
    } preds[] = {
        {"IsFinite", aclnnIsFiniteGetWorkspaceSize, aclnnIsFinite},
        {"IsInf", aclnnIsInfGetWorkspaceSize, aclnnIsInf},
        {"IsPosInf", aclnnIsPosInfGetWorkspaceSize, aclnnIsPosInf},
        {"IsNegInf", aclnnIsNegInfGetWorkspaceSize, aclnnIsNegInf},
        {"Signbit", aclnnSignbitGetWorkspaceSize, aclnnSignbit},
    };
    float x[N];
    static const float special[] = {INFINITY, -INFINITY, NAN, -NAN, -0.0f, 0.0f, 1e-40f, -1e-40f, FLT_MAX, -3.5f};
    for (int i = 0; i < N; i++)
        x[i] = i % 3 == 0 ? special[(i / 3) % 10] : (float)(i % 13) - 6.0f;
    uint16_t xh[N];
    nnt_to_f16(x, xh, N);
    nnt_dt_t a = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, x), ah = nnt_mk(dims, 2, ACL_FLOAT16, ACL_FORMAT_ND, xh);
    nnt_dt_t ob = nnt_mk(dims, 2, ACL_BOOL, ACL_FORMAT_ND, NULL), of = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    for (int k = 0; k < 5; k++) {
        CK_OK(preds[k].gws(a.t, ob.t, &ws, &ex));
        RUN(preds[k].run(NULL, ws, ex, nnt_stream));
        CK_OK(preds[k].gws(ah.t, of.t, &ws, &ex));
        RUN(preds[k].run(NULL, ws, ex, nnt_stream));
        unsigned char gb[N];
        float gf[N];
        nnt_rd(&ob, gb), nnt_rd(&of, gf);
        for (int i = 0; i < N; i++) {
            ck_assert_msg(gb[i] == pred_ref(k, x[i]), "%s fp32 [%d] (%g): %u", preds[k].name, i, x[i], gb[i]);
            /* fp16: FLT_MAX is inf, the denormals 0 (of their sign) */
            const float h = signbit(x[i]) && fabsf(x[i]) < 1e-30f ? -0.0f : nnt_f16r(x[i]);
            ck_assert_msg(gf[i] == (float)pred_ref(k, h), "%s fp16 [%d] (%g): %g", preds[k].name, i, h, gf[i]);
        }
    }
    nnt_rm(&a), nnt_rm(&ah), nnt_rm(&ob), nnt_rm(&of);
}
END_TEST

/* ---------------------------------------------------------------- aclnn: select, nan_to_num, equal */

START_TEST(test_aclnn_logic_select)
{
    nnt_setup_profile(profiles[_i]);
    float x[N], y[N];
    int32_t xi[N], yi[N];
    unsigned char cond[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i * 0.25f - 20.0f, y[i] = i % 17 == 0 ? NAN : (float)(i % 9) - 4.0f;
        xi[i] = i * 3 - 400, yi[i] = -i;
        cond[i] = (unsigned char)((i * 7) % 3 == 0);
    }
    nnt_dt_t a = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, x), b = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, y);
    nnt_dt_t ai = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, xi), bi = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, yi);
    nnt_dt_t c = nnt_mk(dims, 2, ACL_BOOL, ACL_FORMAT_ND, cond);
    nnt_dt_t o = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), oi = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, NULL);
    CK_OK(aclnnSWhereGetWorkspaceSize(c.t, a.t, b.t, o.t, &ws, &ex));
    RUN(aclnnSWhere(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnSWhereGetWorkspaceSize(c.t, ai.t, bi.t, oi.t, &ws, &ex));
    RUN(aclnnSWhere(NULL, ws, ex, nnt_stream));
    float g[N];
    int32_t gi[N];
    nnt_rd(&o, g), nnt_rd(&oi, gi);
    for (int i = 0; i < N; i++) {
        const float w = cond[i] ? x[i] : y[i];
        ck_assert_msg(g[i] == w || (isnan(g[i]) && isnan(w)), "SWhere [%d]: %g, want %g", i, g[i], w);
        ck_assert_msg(gi[i] == (cond[i] ? xi[i] : yi[i]), "SWhere int32 [%d]: %d", i, gi[i]);
    }
    /* masked fill: scalar, then a one-element device tensor */
    const float fv = 7.5f, tv = -3.25f;
    aclScalar *s = aclCreateScalar((void *)&fv, ACL_FLOAT);
    const int64_t d0[] = {1};
    nnt_dt_t vt = nnt_mk(d0, 1, ACL_FLOAT, ACL_FORMAT_ND, &tv);
    CK_OK(aclnnInplaceMaskedFillScalarGetWorkspaceSize(a.t, c.t, s, &ws, &ex));
    RUN(aclnnInplaceMaskedFillScalar(NULL, ws, ex, nnt_stream));
    nnt_rd(&a, g);
    for (int i = 0; i < N; i++)
        ck_assert_msg(g[i] == (cond[i] ? fv : x[i]), "InplaceMaskedFillScalar [%d]: %g", i, g[i]);
    CK_OK(aclnnInplaceMaskedFillTensorGetWorkspaceSize(ai.t, c.t, vt.t, &ws, &ex));
    RUN(aclnnInplaceMaskedFillTensor(NULL, ws, ex, nnt_stream));
    nnt_rd(&ai, gi);
    for (int i = 0; i < N; i++)
        ck_assert_msg(gi[i] == (cond[i] ? -3 : xi[i]), "InplaceMaskedFillTensor int32 [%d]: %d", i, gi[i]);
    /* nan_to_num: NaN, +inf, -inf; fp16 with torch's FLT_MAX default clamped to 65504 */
    float z[N];
    for (int i = 0; i < N; i++)
        z[i] = i % 4 == 0 ? NAN : i % 4 == 1 ? INFINITY : i % 8 == 2 ? -INFINITY : (float)i;
    uint16_t zh[N];
    nnt_to_f16(z, zh, N);
    nnt_dt_t zt = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, z), zth = nnt_mk(dims, 2, ACL_FLOAT16, ACL_FORMAT_ND, zh);
    nnt_dt_t oh = nnt_mk(dims, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    CK_OK(aclnnNanToNumGetWorkspaceSize(zt.t, 1.5f, 100.0f, -200.0f, o.t, &ws, &ex));
    RUN(aclnnNanToNum(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnNanToNumGetWorkspaceSize(zth.t, 0.0f, FLT_MAX, -FLT_MAX, oh.t, &ws, &ex));
    RUN(aclnnNanToNum(NULL, ws, ex, nnt_stream));
    CK_OK(aclnnInplaceNanToNumGetWorkspaceSize(zt.t, -1.0f, 1.0f, 2.0f, &ws, &ex));
    RUN(aclnnInplaceNanToNum(NULL, ws, ex, nnt_stream));
    uint16_t gh[N];
    float gz[N];
    nnt_rd(&o, g), nnt_rd(&oh, gh), nnt_rd(&zt, gz);
    float ghf[N];
    for (int i = 0; i < N; i++) {
        const uint16_t h = gh[i];
        const int e = (h >> 10) & 31, m = h & 1023;
        ghf[i] = (h >> 15 ? -1.0f : 1.0f) * (e ? ldexpf(1.0f + (float)m / 1024.0f, e - 15) : ldexpf((float)m, -24));
        const float w = isnan(z[i]) ? 1.5f : z[i] == INFINITY ? 100.0f : z[i] == -INFINITY ? -200.0f : z[i];
        const float wh = isnan(z[i]) ? 0.0f : z[i] == INFINITY ? 65504.0f : z[i] == -INFINITY ? -65504.0f : z[i];
        const float wi = isnan(z[i]) ? -1.0f : z[i] == INFINITY ? 1.0f : z[i] == -INFINITY ? 2.0f : z[i];
        ck_assert_msg(g[i] == w, "NanToNum [%d] (%g): %g, want %g", i, z[i], g[i], w);
        ck_assert_msg(ghf[i] == wh, "NanToNum fp16 [%d] (%g): %g, want %g", i, z[i], ghf[i], wh);
        ck_assert_msg(gz[i] == wi, "InplaceNanToNum [%d] (%g): %g, want %g", i, z[i], gz[i], wi);
    }
    CK_OK(aclDestroyScalar(s));
    nnt_rm(&a), nnt_rm(&b), nnt_rm(&ai), nnt_rm(&bi), nnt_rm(&c), nnt_rm(&o), nnt_rm(&oi), nnt_rm(&vt);
    nnt_rm(&zt), nnt_rm(&zth), nnt_rm(&oh);
}
END_TEST

/* Equal: equal tensors (true), one element differing (in the tail, then the first), NaN (false). */
START_TEST(test_aclnn_logic_equal)
{
    nnt_setup_profile(profiles[_i]);
    enum { M = 5003 };
    const int64_t dm[] = {M}, d1[] = {1};
    static float x[M], y[M];
    for (int i = 0; i < M; i++)
        x[i] = y[i] = (float)(i % 101) - 50.0f;
    nnt_dt_t a = nnt_mk(dm, 1, ACL_FLOAT, ACL_FORMAT_ND, x), o = nnt_mk(d1, 1, ACL_BOOL, ACL_FORMAT_ND, NULL);
    static const struct {
        int at;
        float v;
        unsigned char want;
    } cases[] = {{-1, 0, 1}, {M - 1, 1e-3f, 0}, {0, -1.0f, 0}, {2500, NAN, 0}, {50, -0.0f, 1}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        float yy[M];
        memcpy(yy, y, sizeof yy);
        if (cases[k].at >= 0)
            yy[cases[k].at] = cases[k].v; /* x[50] is 0: -0 equals it */
        nnt_dt_t b = nnt_mk(dm, 1, ACL_FLOAT, ACL_FORMAT_ND, yy);
        CK_OK(aclnnEqualGetWorkspaceSize(a.t, b.t, o.t, &ws, &ex));
        RUN(aclnnEqual(NULL, ws, ex, nnt_stream));
        unsigned char g = 9;
        nnt_rd(&o, &g);
        ck_assert_msg(g == cases[k].want, "Equal case %zu: %u, want %u", k, g, cases[k].want);
        nnt_rm(&b);
    }
    nnt_rm(&a), nnt_rm(&o);
    /* integers compare exactly (int16 values that fp16 cannot tell apart), bools and int8 through fp16 */
    enum { K = 1001 };
    const int64_t dk[] = {K};
    static int16_t p16[K], q16[K];
    static unsigned char pb[K], qb[K];
    for (int i = 0; i < K; i++)
        p16[i] = q16[i] = (int16_t)(30000 - i * 7), pb[i] = qb[i] = (unsigned char)(i % 3 == 0);
    for (int round = 0; round < 2; round++) {
        if (round) /* one differing element in the tail: 23000 vs 23001 round to one fp16 */
            q16[K - 1] = (int16_t)(p16[K - 1] + 1), qb[K - 2] = (unsigned char)!qb[K - 2];
        nnt_dt_t x16 = nnt_mk(dk, 1, ACL_INT16, ACL_FORMAT_ND, p16), y16 = nnt_mk(dk, 1, ACL_INT16, ACL_FORMAT_ND, q16);
        nnt_dt_t xb = nnt_mk(dk, 1, ACL_BOOL, ACL_FORMAT_ND, pb), yb = nnt_mk(dk, 1, ACL_BOOL, ACL_FORMAT_ND, qb);
        nnt_dt_t r1 = nnt_mk(d1, 1, ACL_BOOL, ACL_FORMAT_ND, NULL), r2 = nnt_mk(d1, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        CK_OK(aclnnEqualGetWorkspaceSize(x16.t, y16.t, r1.t, &ws, &ex));
        RUN(aclnnEqual(NULL, ws, ex, nnt_stream));
        CK_OK(aclnnEqualGetWorkspaceSize(xb.t, yb.t, r2.t, &ws, &ex));
        RUN(aclnnEqual(NULL, ws, ex, nnt_stream));
        unsigned char g1 = 9;
        float g2 = 9;
        nnt_rd(&r1, &g1), nnt_rd(&r2, &g2);
        ck_assert_msg(g1 == !round, "Equal int16 round %d: %u", round, g1);
        ck_assert_msg(g2 == (float)!round, "Equal bool round %d: %g", round, g2);
        nnt_rm(&x16), nnt_rm(&y16), nnt_rm(&xb), nnt_rm(&yb), nnt_rm(&r1), nnt_rm(&r2);
    }
}
END_TEST

START_TEST(test_aclnn_logic_errors)
{
    const int64_t d23[] = {2, 3}, d32[] = {3, 2}, d2[] = {2};
    nnt_dt_t a = nnt_mk(d23, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), b = nnt_mk(d32, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t ob = nnt_mk(d23, 2, ACL_BOOL, ACL_FORMAT_ND, NULL), i64 = nnt_mk(d23, 2, ACL_INT64, ACL_FORMAT_ND, NULL);
    nnt_dt_t i32 = nnt_mk(d23, 2, ACL_INT32, ACL_FORMAT_ND, NULL), f2 = nnt_mk(d2, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t o2 = nnt_mk(d2, 1, ACL_BOOL, ACL_FORMAT_ND, NULL);
    const float half = 0.5f;
    aclScalar *s = aclCreateScalar((void *)&half, ACL_FLOAT);
    CK_ERR(aclnnLogicalAndGetWorkspaceSize(a.t, b.t, ob.t, &ws, &ex), NN_INVALID, "does not broadcast");
    CK_ERR(aclnnLogicalOrGetWorkspaceSize(a.t, i32.t, ob.t, &ws, &ex), NN_INVALID, "must be the same");
    CK_ERR(aclnnLogicalNotGetWorkspaceSize(NULL, ob.t, &ws, &ex), NN_NULLPTR, "self");
    CK_ERR(aclnnBitwiseAndTensorGetWorkspaceSize(i64.t, i64.t, i64.t, &ws, &ex), NN_INVALID, "ACL_INT64");
    CK_ERR(aclnnBitwiseOrTensorGetWorkspaceSize(a.t, a.t, a.t, &ws, &ex), NN_INVALID, "ACL_FLOAT");
    CK_ERR(aclnnBitwiseAndScalarGetWorkspaceSize(i32.t, s, i32.t, &ws, &ex), NN_INVALID, "takes an integer");
    CK_ERR(aclnnBitwiseXorScalarGetWorkspaceSize(i32.t, NULL, i32.t, &ws, &ex), NN_NULLPTR, "other");
    CK_ERR(aclnnIsFiniteGetWorkspaceSize(i32.t, ob.t, &ws, &ex), NN_INVALID, "ACL_INT32");
    CK_ERR(aclnnSWhereGetWorkspaceSize(a.t, a.t, a.t, a.t, &ws, &ex), NN_INVALID, "ACL_BOOL");
    CK_ERR(aclnnInplaceMaskedFillScalarGetWorkspaceSize(a.t, ob.t, NULL, &ws, &ex), NN_NULLPTR, "value");
    CK_ERR(aclnnInplaceMaskedFillTensorGetWorkspaceSize(a.t, ob.t, f2.t, &ws, &ex), NN_INVALID, "one value");
    CK_ERR(aclnnEqualGetWorkspaceSize(a.t, a.t, o2.t, &ws, &ex), NN_INVALID, "one value");
    CK_ERR(aclnnEqualGetWorkspaceSize(a.t, b.t, o2.t, &ws, &ex), NN_INVALID, "does not broadcast");
    CK_ERR(aclnnNanToNumGetWorkspaceSize(a.t, NAN, 0, 0, a.t, &ws, &ex), NN_INVALID, "must be numbers");
    CK_ERR(aclnnLeftShiftGetWorkspaceSize(i64.t, i64.t, i64.t, &ws, &ex), NN_INVALID, "ACL_INT64");
    CK_ERR(aclnnRightShiftGetWorkspaceSize(i32.t, a.t, i32.t, &ws, &ex), NN_INVALID, "must be the same");
    CK_ERR(aclnnLeftShiftsGetWorkspaceSize(i32.t, s, i32.t, &ws, &ex), NN_INVALID, "shift count is an integer");
    CK_OK(aclDestroyScalar(s));
    nnt_rm(&a), nnt_rm(&b), nnt_rm(&ob), nnt_rm(&i64), nnt_rm(&i32), nnt_rm(&f2), nnt_rm(&o2);
}
END_TEST

Suite *dv_aclnn_logic_suite(void);
Suite *dv_aclnn_logic_suite(void)
{
    Suite *s = suite_create("aclnn_logic");
    TCase *tl = tcase_create("aclnn_logic_library");
    tcase_set_timeout(tl, 120);
    tcase_add_loop_test(tl, test_aclnn_logic_library_check, 0, 2 * NLIB);
    tcase_add_test(tl, test_aclnn_logic_library_errors);
    suite_add_tcase(s, tl);
    TCase *tc = tcase_create("aclnn_logic");
    tcase_add_checked_fixture(tc, NULL, nnt_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_aclnn_logic_logical, 0, 2);
    tcase_add_loop_test(tc, test_aclnn_logic_bitwise, 0, 2);
    tcase_add_loop_test(tc, test_aclnn_logic_shifts, 0, 2);
    tcase_add_loop_test(tc, test_aclnn_logic_predicates, 0, 2);
    tcase_add_loop_test(tc, test_aclnn_logic_select, 0, 2);
    tcase_add_loop_test(tc, test_aclnn_logic_equal, 0, 2);
    tcase_add_test(tc, test_aclnn_logic_views);
    suite_add_tcase(s, tc);
    TCase *te = tcase_create("aclnn_logic_910b2");
    tcase_add_checked_fixture(te, nnt_setup, nnt_teardown);
    tcase_set_timeout(te, 60);
    tcase_add_test(te, test_aclnn_logic_errors);
    suite_add_tcase(s, te);
    return s;
}
