/* tests/check_aclnn_mm.c - the cast, layout and matmul-family aclnn operators (acl/nnops.def, section
 * s19-mm) through the real shim on the 910B2 and 310 profiles: aclnnMm in fp16 and fp32 (with a
 * transposed-view mat2) against a plain-C product, aclnnBatchMatMul and aclnnMatmul with batch axes
 * folded into the rows and 1-D operands, aclnnMv, aclnnDot, aclnnPermute in fp16 and fp32 for every axis order
 * dvsim takes (2-D, NCHW <-> NHWC, a rotation, a batch of transposes, negative axes, the identity)
 * against a plain-C permutation, and the errors of their first phases (161001, 161002). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_addbmm.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_addmv.h"
#include "aclnnop/aclnn_addr.h"
#include "aclnnop/aclnn_baddbmm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_gemm.h"
#include "aclnnop/aclnn_ger.h"
#include "aclnnop/aclnn_dot.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mv.h"
#include "aclnnop/aclnn_permute.h"
#include "support/nnt.h"

/* CANN's declarations, as client code takes their addresses (a qualifier that differs from CANN's
 * header is a compile error here). */
static aclnnStatus (*const mm_ws_fn)(const aclTensor *, const aclTensor *, aclTensor *, int8_t, uint64_t *,
                                     aclOpExecutor **) = aclnnMmGetWorkspaceSize;
static aclnnStatus (*const permute_ws_fn)(const aclTensor *, const aclIntArray *, aclTensor *, uint64_t *,
                                          aclOpExecutor **) = aclnnPermuteGetWorkspaceSize;
static aclnnStatus (*const permute_fn)(void *, uint64_t, aclOpExecutor *, const aclrtStream) = aclnnPermute;

static const char *const profiles[] = {NULL /* ascend910b2 */, "ascend310"};

/* ---------------------------------------------------------------- mm */

static void mm_ref(const float *a, const float *b, double *c, int64_t M, int64_t K, int64_t N)
{
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double s = 0;
            for (int64_t k = 0; k < K; k++)
                s += (double)a[i * K + k] * b[k * N + j];
            c[i * N + j] = s;
        }
}

/* aclnnMm out[M,N] = self[M,K] x mat2[K,N]; loop index: bit 0 fp32 (else fp16), bit 1 the 310, bit 2
 * mat2 as the transposed view of an [N,K] tensor. */
START_TEST(test_aclnn_mm)
{
    nnt_setup_profile(profiles[(_i >> 1) & 1]);
    const bool f32 = _i & 1, view = _i & 4;
    const int64_t M = 18, K = 40, N = 20;
    float a[720], b[800], bs[800], c[360];
    double want[360];
    uint16_t ha[720], hb[800];
    nnt_fill(a, M * K, 40 + (unsigned)_i, -1, 1);
    nnt_fill(b, K * N, 50 + (unsigned)_i, -1, 1);
    if (!f32) {
        for (int i = 0; i < M * K; i++)
            a[i] = nnt_f16r(a[i]);
        for (int i = 0; i < K * N; i++)
            b[i] = nnt_f16r(b[i]);
    }
    mm_ref(a, b, want, M, K, N);
    /* the stored mat2: b [K,N] row-major, or its transpose [N,K] row-major */
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++)
            bs[view ? j * K + k : k * N + j] = b[k * N + j];
    const aclDataType dt = f32 ? ACL_FLOAT : ACL_FLOAT16;
    const int64_t ad[] = {M, K}, bd[] = {K, N}, btd[] = {N, K}, cd[] = {M, N}, bts[] = {1, K};
    if (!f32) {
        nnt_to_f16(a, ha, M * K);
        nnt_to_f16(bs, hb, K * N);
    }
    nnt_dt_t ta = nnt_mk(ad, 2, dt, ACL_FORMAT_ND, f32 ? (const void *)a : ha);
    nnt_dt_t tb = nnt_mk(view ? btd : bd, 2, dt, ACL_FORMAT_ND, f32 ? (const void *)bs : hb);
    nnt_dt_t tc = nnt_mk(cd, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    aclTensor *mat2 = view ? aclCreateTensor(bd, 2, dt, bts, 0, ACL_FORMAT_ND, btd, 2, tb.dev) : tb.t;
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(mm_ws_fn(ta.t, mat2, tc.t, 1, &ws, &e));
    ck_assert_uint_eq(ws, 0);
    RUN(aclnnMm(NULL, ws, e, nnt_stream));
    nnt_rd(&tc, c);
    nnt_ck_close(f32 ? "mm fp32" : "mm fp16", c, want, M * N, 1e-4, 1e-4);
    if (view)
        CK_OK(aclDestroyTensor(mat2));
    nnt_rm(&ta);
    nnt_rm(&tb);
}
END_TEST


/* Batch axes folded into the rows, and 1-D operands: self's dims, mat2's dims (its last two [K,N]
 * or [K]), out's dims; tmat2: mat2 given as the transposed view of an [N,K] tensor. */
static const struct {
    int api; /* 0 aclnnMatmul, 1 aclnnBatchMatMul, 2 aclnnMv, 3 aclnnDot */
    bool f32, tmat2;
    int sd, md, od;
    int64_t s[4], m[3], o[4];
} bm[] = {
    {1, true, false, 3, 3, 3, {1, 12, 20}, {1, 20, 9}, {1, 12, 9}},
    {1, false, false, 3, 3, 3, {3, 7, 24}, {1, 24, 17}, {3, 7, 17}},
    {1, false, true, 3, 3, 3, {2, 9, 32}, {1, 32, 10}, {2, 9, 10}},
    {0, false, false, 4, 2, 4, {2, 3, 5, 16}, {16, 8}, {2, 3, 5, 8}},
    {0, true, false, 1, 2, 1, {24}, {24, 6}, {6}},
    {0, false, false, 2, 1, 1, {11, 40}, {40}, {11}},
    {2, true, false, 2, 1, 1, {13, 21}, {21}, {13}},
    {3, true, false, 1, 1, 0, {37}, {37}, {0}},
    {3, false, false, 1, 1, 0, {64}, {64}, {0}},
};
#define NBM (int)(sizeof bm / sizeof bm[0])

/* Loop index: the case, 910B2 / 310. */
START_TEST(test_aclnn_matmul_batch)
{
    const int bc = _i % NBM;
    nnt_setup_profile(profiles[_i / NBM]);
    const int sd = bm[bc].sd, md = bm[bc].md;
    const bool f32 = bm[bc].f32;
    const int64_t K = bm[bc].s[sd - 1], N = md > 1 ? bm[bc].m[md - 1] : 1;
    const int64_t rows = nnt_numel(bm[bc].s, sd) / K;
    float a[1200], b[800], bs[800], c[600];
    double want[600];
    uint16_t ha[1200], hb[800];
    ck_assert(rows * K <= 1200 && K * N <= 800 && rows * N <= 600);
    nnt_fill(a, rows * K, 60 + (unsigned)_i, -1, 1);
    nnt_fill(b, K * N, 70 + (unsigned)_i, -1, 1);
    if (!f32) {
        for (int64_t i = 0; i < rows * K; i++)
            a[i] = nnt_f16r(a[i]);
        for (int64_t i = 0; i < K * N; i++)
            b[i] = nnt_f16r(b[i]);
    }
    mm_ref(a, b, want, rows, K, N);
    const bool tv = bm[bc].tmat2;
    for (int64_t k = 0; k < K; k++)
        for (int64_t j = 0; j < N; j++)
            bs[tv ? j * K + k : k * N + j] = b[k * N + j];
    const aclDataType dt = f32 ? ACL_FLOAT : ACL_FLOAT16;
    if (!f32) {
        nnt_to_f16(a, ha, rows * K);
        nnt_to_f16(bs, hb, K * N);
    }
    const int64_t tsd[] = {1, N, K}, tst[] = {N * K, 1, K};
    nnt_dt_t ta = nnt_mk(bm[bc].s, sd, dt, ACL_FORMAT_ND, f32 ? (const void *)a : ha);
    nnt_dt_t tb = nnt_mk(tv ? tsd : bm[bc].m, md, dt, ACL_FORMAT_ND, f32 ? (const void *)bs : hb);
    nnt_dt_t tc = nnt_mk(bm[bc].o, bm[bc].od, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    aclTensor *mat2 = tv ? aclCreateTensor(bm[bc].m, 3, dt, tst, 0, ACL_FORMAT_ND, tsd, 3, tb.dev) : tb.t;
    uint64_t ws;
    aclOpExecutor *e;
    switch (bm[bc].api) {
    case 0:
        CK_OK(aclnnMatmulGetWorkspaceSize(ta.t, mat2, tc.t, 1, &ws, &e));
        RUN(aclnnMatmul(NULL, ws, e, nnt_stream));
        break;
    case 1:
        CK_OK(aclnnBatchMatMulGetWorkspaceSize(ta.t, mat2, tc.t, 1, &ws, &e));
        RUN(aclnnBatchMatMul(NULL, ws, e, nnt_stream));
        break;
    case 2:
        CK_OK(aclnnMvGetWorkspaceSize(ta.t, mat2, tc.t, 1, &ws, &e));
        RUN(aclnnMv(NULL, ws, e, nnt_stream));
        break;
    default:
        CK_OK(aclnnDotGetWorkspaceSize(ta.t, mat2, tc.t, &ws, &e));
        RUN(aclnnDot(NULL, ws, e, nnt_stream));
    }
    nnt_rd(&tc, c);
    char what[64];
    snprintf(what, sizeof what, "matmul batch case %d", bc);
    nnt_ck_close(what, c, want, rows * N, 1e-4, 1e-4);
    if (tv)
        CK_OK(aclDestroyTensor(mat2));
    nnt_rm(&ta);
    nnt_rm(&tb);
}
END_TEST

/* A batch of distinct mat2 (the library's --batch): self's dims, mat2's dims, out's dims; shared:
 * self has no batch (one A for every product, --shared-a); tmat2: each mat2 the transposed view of
 * an [N,K] matrix (strides {K*N, 1, K}). */
static const struct {
    int api; /* 0 aclnnMatmul, 1 aclnnBatchMatMul */
    bool f32, tmat2;
    int sd, md, od;
    int64_t s[4], m[4], o[4];
} db[] = {
    {1, false, false, 3, 3, 3, {3, 7, 24}, {3, 24, 17}, {3, 7, 17}},
    {1, true, true, 3, 3, 3, {4, 9, 32}, {4, 32, 10}, {4, 9, 10}},
    {0, false, false, 4, 4, 4, {2, 3, 5, 16}, {2, 3, 16, 8}, {2, 3, 5, 8}},
    {0, true, false, 2, 3, 3, {5, 16}, {6, 16, 8}, {6, 5, 8}},
    {0, false, false, 3, 4, 4, {1, 5, 16}, {2, 2, 16, 8}, {2, 2, 5, 8}},
};
#define NDB (int)(sizeof db / sizeof db[0])

/* Loop index: the case, 910B2 / 310. */
START_TEST(test_aclnn_matmul_distinct_batch)
{
    const int bc = _i % NDB;
    nnt_setup_profile(profiles[_i / NDB]);
    const int sd = db[bc].sd, md = db[bc].md;
    const bool f32 = db[bc].f32, tv = db[bc].tmat2;
    const int64_t M = db[bc].s[sd - 2], K = db[bc].s[sd - 1], N = db[bc].m[md - 1];
    const int64_t nb = nnt_numel(db[bc].m, md) / (K * N), na = nnt_numel(db[bc].s, sd) / (M * K);
    float a[1200], b[2400], bs[2400], c[1200];
    double want[1200];
    uint16_t ha[1200], hb[2400];
    ck_assert(na * M * K <= 1200 && nb * K * N <= 2400 && nb * M * N <= 1200);
    nnt_fill(a, na * M * K, 80 + (unsigned)_i, -1, 1);
    nnt_fill(b, nb * K * N, 90 + (unsigned)_i, -1, 1);
    if (!f32) {
        for (int64_t i = 0; i < na * M * K; i++)
            a[i] = nnt_f16r(a[i]);
        for (int64_t i = 0; i < nb * K * N; i++)
            b[i] = nnt_f16r(b[i]);
    }
    for (int64_t p = 0; p < nb; p++) {
        mm_ref(a + (na > 1 ? p * M * K : 0), b + p * K * N, want + p * M * N, M, K, N);
        for (int64_t k = 0; k < K; k++)
            for (int64_t j = 0; j < N; j++)
                bs[p * K * N + (tv ? j * K + k : k * N + j)] = b[p * K * N + k * N + j];
    }
    const aclDataType dt = f32 ? ACL_FLOAT : ACL_FLOAT16;
    if (!f32) {
        nnt_to_f16(a, ha, na * M * K);
        nnt_to_f16(bs, hb, nb * K * N);
    }
    const int64_t tsd[] = {nb, N, K}, tst[] = {N * K, 1, K};
    nnt_dt_t ta = nnt_mk(db[bc].s, sd, dt, ACL_FORMAT_ND, f32 ? (const void *)a : ha);
    nnt_dt_t tb = nnt_mk(tv ? tsd : db[bc].m, md, dt, ACL_FORMAT_ND, f32 ? (const void *)bs : hb);
    nnt_dt_t tc = nnt_mk(db[bc].o, db[bc].od, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    aclTensor *mat2 = tv ? aclCreateTensor(db[bc].m, 3, dt, tst, 0, ACL_FORMAT_ND, tsd, 3, tb.dev) : tb.t;
    uint64_t ws;
    aclOpExecutor *e;
    if (db[bc].api == 1) {
        CK_OK(aclnnBatchMatMulGetWorkspaceSize(ta.t, mat2, tc.t, 1, &ws, &e));
        RUN(aclnnBatchMatMul(NULL, ws, e, nnt_stream));
    } else {
        CK_OK(aclnnMatmulGetWorkspaceSize(ta.t, mat2, tc.t, 1, &ws, &e));
        RUN(aclnnMatmul(NULL, ws, e, nnt_stream));
    }
    nnt_rd(&tc, c);
    char what[64];
    snprintf(what, sizeof what, "distinct batch case %d", bc);
    nnt_ck_close(what, c, want, nb * M * N, 1e-4, 1e-4);
    if (tv)
        CK_OK(aclDestroyTensor(mat2));
    nnt_rm(&ta);
    nnt_rm(&tb);
}
END_TEST

/* ---------------------------------------------------------------- products with an added term */

/* Addmm, InplaceAddmm, Baddbmm, Addbmm, Addmv, Ger, Addr (NULL scalars: 1), InplaceAddr and Gemm
 * (transA, transB) in fp32 against plain C: out = beta * self + alpha * product, with beta 0, 1
 * and other values (each a different chain of kernels).  Loop index: the profile. */
START_TEST(test_aclnn_mm_added_term)
{
    nnt_setup_profile(profiles[_i]);
    enum { B = 3, M = 5, K = 7, N = 6 };
    float x1[B * M * K], x2[B * K * N], sf[B * M * N], got[B * M * N];
    double want[B * M * N], prod[B * M * N];
    nnt_fill(x1, B * M * K, 11 + (unsigned)_i, -1, 1);
    nnt_fill(x2, B * K * N, 12 + (unsigned)_i, -1, 1);
    nnt_fill(sf, B * M * N, 13 + (unsigned)_i, -1, 1);
    for (int b = 0; b < B; b++)
        mm_ref(x1 + b * M * K, x2 + b * K * N, prod + b * M * N, M, K, N);
    const int64_t d2[] = {M, N}, d3[] = {B, M, N}, dm1[] = {M, K}, dm2[] = {K, N}, db1[] = {B, M, K},
                  db2[] = {B, K, N}, dv[] = {M}, dk[] = {K}, dn[] = {N};
    uint64_t ws;
    aclOpExecutor *e;
    void *w = NULL;
    const float coef[3][2] = {{0.5f, 1.5f}, {1.0f, -2.0f}, {0.0f, 0.75f}}; /* beta, alpha */
    for (int ci = 0; ci < 3; ci++) {
        const float be = coef[ci][0], al = coef[ci][1];
        aclScalar *beta = aclCreateScalar((void *)&be, ACL_FLOAT), *alpha = aclCreateScalar((void *)&al, ACL_FLOAT);
        char what[96];
        /* Addmm [M,K] x [K,N] */
        nnt_dt_t a = nnt_mk(dm1, 2, ACL_FLOAT, ACL_FORMAT_ND, x1), bb = nnt_mk(dm2, 2, ACL_FLOAT, ACL_FORMAT_ND, x2);
        nnt_dt_t self = nnt_mk(d2, 2, ACL_FLOAT, ACL_FORMAT_ND, sf), out = nnt_mk(d2, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        for (int i = 0; i < M * N; i++)
            want[i] = (double)be * sf[i] + (double)al * prod[i];
        CK_OK(aclnnAddmmGetWorkspaceSize(self.t, a.t, bb.t, beta, alpha, out.t, 1, &ws, &e));
        if (ws)
            CK_OK(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST));
        RUN(aclnnAddmm(w, ws, e, nnt_stream));
        nnt_rd(&out, got);
        snprintf(what, sizeof what, "Addmm beta %g alpha %g", be, al);
        nnt_ck_close(what, got, want, M * N, 1e-5, 1e-5);
        CK_OK(aclnnInplaceAddmmGetWorkspaceSize(self.t, a.t, bb.t, beta, alpha, 1, &ws, &e));
        RUN(aclnnInplaceAddmm(w, ws, e, nnt_stream));
        nnt_rd(&self, got);
        snprintf(what, sizeof what, "InplaceAddmm beta %g alpha %g", be, al);
        nnt_ck_close(what, got, want, M * N, 1e-5, 1e-5);
        if (w)
            CK_OK(aclrtFree(w));
        w = NULL;
        /* Addbmm: the sum of the B products */
        nnt_dt_t ba = nnt_mk(db1, 3, ACL_FLOAT, ACL_FORMAT_ND, x1), bbb = nnt_mk(db2, 3, ACL_FLOAT, ACL_FORMAT_ND, x2);
        nnt_dt_t self2 = nnt_mk(d2, 2, ACL_FLOAT, ACL_FORMAT_ND, sf);
        for (int i = 0; i < M * N; i++)
            want[i] = (double)be * sf[i] + (double)al * (prod[i] + prod[M * N + i] + prod[2 * M * N + i]);
        CK_OK(aclnnAddbmmGetWorkspaceSize(self2.t, ba.t, bbb.t, beta, alpha, out.t, 1, &ws, &e));
        CK_OK(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST));
        RUN(aclnnAddbmm(w, ws, e, nnt_stream));
        CK_OK(aclrtFree(w));
        w = NULL;
        nnt_rd(&out, got);
        snprintf(what, sizeof what, "Addbmm beta %g alpha %g", be, al);
        nnt_ck_close(what, got, want, M * N, 1e-5, 1e-5);
        /* Baddbmm: B products, each with its self */
        nnt_dt_t self3 = nnt_mk(d3, 3, ACL_FLOAT, ACL_FORMAT_ND, sf), out3 = nnt_mk(d3, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        for (int i = 0; i < B * M * N; i++)
            want[i] = (double)be * sf[i] + (double)al * prod[i];
        CK_OK(aclnnBaddbmmGetWorkspaceSize(self3.t, ba.t, bbb.t, beta, alpha, out3.t, 1, &ws, &e));
        if (ws)
            CK_OK(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST));
        RUN(aclnnBaddbmm(w, ws, e, nnt_stream));
        if (w)
            CK_OK(aclrtFree(w));
        w = NULL;
        nnt_rd(&out3, got);
        snprintf(what, sizeof what, "Baddbmm beta %g alpha %g", be, al);
        nnt_ck_close(what, got, want, B * M * N, 1e-5, 1e-5);
        /* Addmv: [M,K] x [K] */
        nnt_dt_t vec = nnt_mk(dk, 1, ACL_FLOAT, ACL_FORMAT_ND, x2), sv = nnt_mk(dv, 1, ACL_FLOAT, ACL_FORMAT_ND, sf);
        nnt_dt_t ov = nnt_mk(dv, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        for (int i = 0; i < M; i++) {
            double acc = 0;
            for (int k = 0; k < K; k++)
                acc += (double)x1[i * K + k] * x2[k];
            want[i] = (double)be * sf[i] + (double)al * acc;
        }
        CK_OK(aclnnAddmvGetWorkspaceSize(sv.t, a.t, vec.t, alpha, beta, ov.t, 1, &ws, &e));
        if (ws)
            CK_OK(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST));
        RUN(aclnnAddmv(w, ws, e, nnt_stream));
        if (w)
            CK_OK(aclrtFree(w));
        w = NULL;
        nnt_rd(&ov, got);
        snprintf(what, sizeof what, "Addmv beta %g alpha %g", be, al);
        nnt_ck_close(what, got, want, M, 1e-5, 1e-5);
        /* Addr: [M] (outer) [N], in place too */
        nnt_dt_t v1 = nnt_mk(dv, 1, ACL_FLOAT, ACL_FORMAT_ND, x1), v2 = nnt_mk(dn, 1, ACL_FLOAT, ACL_FORMAT_ND, x2);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++)
                want[i * N + j] = (double)be * sf[i * N + j] + (double)al * x1[i] * x2[j];
        nnt_dt_t s4 = nnt_mk(d2, 2, ACL_FLOAT, ACL_FORMAT_ND, sf);
        CK_OK(aclnnInplaceAddrGetWorkspaceSize(s4.t, v1.t, v2.t, beta, alpha, &ws, &e));
        if (ws)
            CK_OK(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST));
        RUN(aclnnInplaceAddr(w, ws, e, nnt_stream));
        if (w)
            CK_OK(aclrtFree(w));
        w = NULL;
        nnt_rd(&s4, got);
        snprintf(what, sizeof what, "InplaceAddr beta %g alpha %g", be, al);
        nnt_ck_close(what, got, want, M * N, 1e-5, 1e-5);
        /* Gemm: A given as [K,M] (transA), B as [N,K] (transB) */
        float at[M * K], bt[K * N];
        for (int i = 0; i < M; i++)
            for (int k = 0; k < K; k++)
                at[k * M + i] = x1[i * K + k];
        for (int k = 0; k < K; k++)
            for (int j = 0; j < N; j++)
                bt[j * K + k] = x2[k * N + j];
        const int64_t dat[] = {K, M}, dbt[] = {N, K};
        nnt_dt_t ga = nnt_mk(dat, 2, ACL_FLOAT, ACL_FORMAT_ND, at), gb = nnt_mk(dbt, 2, ACL_FLOAT, ACL_FORMAT_ND, bt);
        for (int i = 0; i < M * N; i++)
            want[i] = (double)be * sf[i] + (double)al * prod[i];
        nnt_dt_t gc = nnt_mk(d2, 2, ACL_FLOAT, ACL_FORMAT_ND, sf);
        CK_OK(aclnnGemmGetWorkspaceSize(ga.t, gb.t, gc.t, al, be, 1, 1, out.t, 1, &ws, &e));
        if (ws)
            CK_OK(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST));
        RUN(aclnnGemm(w, ws, e, nnt_stream));
        if (w)
            CK_OK(aclrtFree(w));
        w = NULL;
        nnt_rd(&out, got);
        snprintf(what, sizeof what, "Gemm beta %g alpha %g", be, al);
        nnt_ck_close(what, got, want, M * N, 1e-5, 1e-5);
        nnt_dt_t *all[] = {&a, &bb, &self, &out, &ba, &bbb, &self2, &self3, &out3, &vec, &sv, &ov, &v1, &v2, &s4, &ga, &gb,
                           &gc};
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
            nnt_rm(all[i]);
        aclDestroyScalar(beta);
        aclDestroyScalar(alpha);
    }
    /* Ger and Addr with its optional scalars NULL (1, 1) */
    const int64_t dv2[] = {M}, dn2[] = {N}, dmn[] = {M, N};
    nnt_dt_t v1 = nnt_mk(dv2, 1, ACL_FLOAT, ACL_FORMAT_ND, x1), v2 = nnt_mk(dn2, 1, ACL_FLOAT, ACL_FORMAT_ND, x2);
    nnt_dt_t o = nnt_mk(dmn, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), s = nnt_mk(dmn, 2, ACL_FLOAT, ACL_FORMAT_ND, sf);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            want[i * N + j] = (double)x1[i] * x2[j];
    CK_OK(aclnnGerGetWorkspaceSize(v1.t, v2.t, o.t, &ws, &e));
    ck_assert_uint_eq(ws, 0); /* straight into out: no temporary */
    RUN(aclnnGer(NULL, ws, e, nnt_stream));
    nnt_rd(&o, got);
    nnt_ck_close("Ger", got, want, M * N, 1e-6, 1e-6);
    for (int i = 0; i < M * N; i++)
        want[i] += sf[i];
    CK_OK(aclnnAddrGetWorkspaceSize(s.t, v1.t, v2.t, NULL, NULL, o.t, &ws, &e));
    CK_OK(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST));
    RUN(aclnnAddr(w, ws, e, nnt_stream));
    nnt_rd(&o, got);
    nnt_ck_close("Addr, NULL scalars", got, want, M * N, 1e-6, 1e-6);
    /* errors: a NULL workspace for a temporary, self of another shape, a NULL scalar */
    CK_OK(aclnnAddrGetWorkspaceSize(s.t, v1.t, v2.t, NULL, NULL, o.t, &ws, &e));
    CK_ERR(aclnnAddr(NULL, ws, e, nnt_stream), NN_INVALID, "workspace is NULL but the operator needs");
    CK_OK(aclrtFree(w));
    nnt_dt_t sm = nnt_mk(dn2, 1, ACL_FLOAT, ACL_FORMAT_ND, sf);
    CK_ERR(aclnnAddrGetWorkspaceSize(sm.t, v1.t, v2.t, NULL, NULL, o.t, &ws, &e), NN_INVALID, "broadcast");
    CK_ERR(aclnnAddmmGetWorkspaceSize(s.t, v1.t, v2.t, NULL, NULL, o.t, 1, &ws, &e), NN_NULLPTR, "beta is NULL");
    nnt_rm(&v1);
    nnt_rm(&v2);
    nnt_rm(&o);
    nnt_rm(&s);
    nnt_rm(&sm);
}
END_TEST

/* ---------------------------------------------------------------- permute */

/* out = x permuted: out index o has x index with x[perm[d]] = o[d]. */
static void permute_ref(const float *x, double *y, const int64_t *xd, const int64_t *perm, int nd)
{
    int64_t yd[8], xs[8], n = nnt_numel(xd, nd);
    xs[nd - 1] = 1;
    for (int d = nd - 2; d >= 0; d--)
        xs[d] = xs[d + 1] * xd[d + 1];
    for (int d = 0; d < nd; d++)
        yd[d] = xd[perm[d] < 0 ? perm[d] + nd : perm[d]];
    for (int64_t i = 0; i < n; i++) {
        int64_t r = i, src = 0;
        for (int d = nd - 1; d >= 0; d--) {
            src += (r % yd[d]) * xs[perm[d] < 0 ? perm[d] + nd : perm[d]];
            r /= yd[d];
        }
        y[i] = x[src];
    }
}

static const struct {
    int nd;
    int64_t dims[4], perm[4];
} perms[] = {
    {2, {4, 2}, {1, 0}},               /* the official example */
    {2, {37, 50}, {1, 0}},
    {4, {2, 3, 5, 7}, {0, 2, 3, 1}},   /* NCHW -> NHWC */
    {4, {2, 5, 7, 3}, {0, 3, 1, 2}},   /* NHWC -> NCHW */
    {3, {6, 4, 9}, {2, 0, 1}},         /* a rotation */
    {3, {3, 17, 20}, {0, -1, -2}},     /* a batch of transposes, negative axes */
    {3, {2, 3, 4}, {0, 1, 2}},         /* the identity */
};
#define NPERMS (int)(sizeof perms / sizeof perms[0])

/* Loop index: the case, fp16 / fp32, 910B2 / 310. */
START_TEST(test_aclnn_permute)
{
    const int pc = _i % NPERMS, f32 = (_i / NPERMS) & 1, prof = _i / (2 * NPERMS);
    nnt_setup_profile(profiles[prof]);
    const int nd = perms[pc].nd;
    const int64_t *xd = perms[pc].dims, *perm = perms[pc].perm, n = nnt_numel(xd, nd);
    int64_t yd[4];
    for (int d = 0; d < nd; d++)
        yd[d] = xd[perm[d] < 0 ? perm[d] + nd : perm[d]];
    float *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    double *want = malloc((size_t)n * sizeof *want);
    uint16_t *hx = malloc((size_t)n * sizeof *hx), *hy = malloc((size_t)n * sizeof *hy);
    ck_assert(x && y && want && hx && hy);
    for (int64_t i = 0; i < n; i++)
        x[i] = f32 ? (float)i * 0.25f + 0.125f : (float)(i % 2048); /* exact in fp16, all distinct per 2048 */
    permute_ref(x, want, xd, perm, nd);
    nnt_to_f16(x, hx, n);
    const aclDataType dt = f32 ? ACL_FLOAT : ACL_FLOAT16;
    nnt_dt_t tx = nnt_mk(xd, nd, dt, ACL_FORMAT_ND, f32 ? (const void *)x : hx);
    nnt_dt_t ty = nnt_mk(yd, nd, dt, ACL_FORMAT_ND, NULL);
    aclIntArray *dims = aclCreateIntArray(perm, (uint64_t)nd);
    ck_assert_ptr_nonnull(dims);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(permute_ws_fn(tx.t, dims, ty.t, &ws, &e));
    void *wsp = NULL;
    if (ws)
        CK_OK(aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST));
    RUN(permute_fn(wsp, ws, e, nnt_stream));
    if (f32)
        nnt_rd(&ty, y);
    else {
        nnt_rd(&ty, hy);
        for (int64_t i = 0; i < n; i++) {
            uint16_t h = hy[i];
            /* fp16 -> float by the bits (normal numbers and zero: the inputs are integers < 2048) */
            int ex = (h >> 10) & 31;
            y[i] = ex ? ldexpf((float)(1024 | (h & 1023)), ex - 25) : 0;
        }
    }
    char what[64];
    snprintf(what, sizeof what, "permute case %d %s", pc, f32 ? "fp32" : "fp16");
    nnt_ck_close(what, y, want, n, 0, 0);
    if (wsp)
        CK_OK(aclrtFree(wsp));
    CK_OK(aclDestroyIntArray(dims));
    nnt_rm(&tx);
    free(x);
    free(y);
    free(want);
    free(hx);
    free(hy);
}
END_TEST

/* ---------------------------------------------------------------- errors */

START_TEST(test_aclnn_mm_errors)
{
    uint64_t ws;
    aclOpExecutor *e;
    const int64_t xd[] = {2, 3, 4}, yd[] = {4, 2, 3}, bad[] = {4, 3, 2}, d2[] = {3, 4}, d2b[] = {4, 5}, d2c[] = {3, 5};
    nnt_dt_t x = nnt_mk(xd, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL), y = nnt_mk(yd, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t yb = nnt_mk(bad, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL), yh = nnt_mk(yd, 3, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    const int64_t sd[] = {3, 2, 4};
    nnt_dt_t ys = nnt_mk(sd, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    const int64_t rot[] = {2, 0, 1}, swap[] = {1, 0, 2}, dup[] = {0, 0, 1}, big[] = {0, 1, 3}, two[] = {1, 0};
    aclIntArray *p_rot = aclCreateIntArray(rot, 3), *p_swap = aclCreateIntArray(swap, 3);
    aclIntArray *p_dup = aclCreateIntArray(dup, 3), *p_big = aclCreateIntArray(big, 3), *p_two = aclCreateIntArray(two, 2);
    CK_OK(aclnnPermuteGetWorkspaceSize(x.t, p_rot, y.t, &ws, &e));
    CK_OK(aclDestroyAclOpExecutor(e));
    CK_ERR(aclnnPermuteGetWorkspaceSize(x.t, NULL, y.t, &ws, &e), NN_NULLPTR, "dims is NULL");
    CK_ERR(aclnnPermuteGetWorkspaceSize(x.t, p_swap, ys.t, &ws, &e), NN_INVALID, "axis order is not supported");
    CK_ERR(aclnnPermuteGetWorkspaceSize(x.t, p_dup, y.t, &ws, &e), NN_INVALID, "names axis 0 twice");
    CK_ERR(aclnnPermuteGetWorkspaceSize(x.t, p_big, y.t, &ws, &e), NN_INVALID, "dims[2] is 3, outside [-3, 2]");
    CK_ERR(aclnnPermuteGetWorkspaceSize(x.t, p_two, y.t, &ws, &e), NN_INVALID, "dims has 2 entries");
    CK_ERR(aclnnPermuteGetWorkspaceSize(x.t, p_rot, yb.t, &ws, &e), NN_INVALID, "permuted needs 2 in dim 1");
    CK_ERR(aclnnPermuteGetWorkspaceSize(x.t, p_rot, yh.t, &ws, &e), NN_INVALID, "dtype");
    /* mm: 2-D only, matching shapes, cubeMathType */
    nnt_dt_t a = nnt_mk(d2, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL), b = nnt_mk(d2b, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    nnt_dt_t c = nnt_mk(d2c, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    CK_OK(aclnnMmGetWorkspaceSize(a.t, b.t, c.t, 0, &ws, &e));
    CK_OK(aclDestroyAclOpExecutor(e));
    CK_ERR(aclnnMmGetWorkspaceSize(x.t, b.t, c.t, 0, &ws, &e), NN_INVALID, "dvsim's aclnnMm takes 2-D");
    CK_ERR(aclnnMmGetWorkspaceSize(a.t, a.t, c.t, 0, &ws, &e), NN_INVALID, "shapes do not match");
    CK_ERR(aclnnMmGetWorkspaceSize(a.t, b.t, c.t, 7, &ws, &e), NN_INVALID, "cubeMathType");
    CK_ERR(aclnnMmGetWorkspaceSize(NULL, b.t, c.t, 0, &ws, &e), NN_NULLPTR, "self");
    /* batch matmul: 3-D, one mat2 */
    const int64_t s3[] = {2, 3, 4}, m3[] = {2, 4, 5}, o3[] = {2, 3, 5};
    nnt_dt_t bs3 = nnt_mk(s3, 3, ACL_FLOAT16, ACL_FORMAT_ND, NULL), bm3 = nnt_mk(m3, 3, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    nnt_dt_t bo3 = nnt_mk(o3, 3, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    CK_OK(aclnnBatchMatMulGetWorkspaceSize(bs3.t, bm3.t, bo3.t, 0, &ws, &e));
    CK_OK(aclDestroyAclOpExecutor(e));
    /* batch axes that broadcast against each other: [2,1,3,4] x [1,2,4,5] */
    const int64_t s4[] = {2, 1, 3, 4}, m4[] = {1, 2, 4, 5}, o4[] = {2, 2, 3, 5};
    nnt_dt_t bs4 = nnt_mk(s4, 4, ACL_FLOAT16, ACL_FORMAT_ND, NULL), bm4 = nnt_mk(m4, 4, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    nnt_dt_t bo4 = nnt_mk(o4, 4, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnMatmulGetWorkspaceSize(bs4.t, bm4.t, bo4.t, 0, &ws, &e), NN_INVALID,
           "broadcast their batch axes against each other");
    nnt_rm(&bs4);
    nnt_rm(&bm4);
    nnt_rm(&bo4);
    CK_ERR(aclnnBatchMatMulGetWorkspaceSize(a.t, b.t, c.t, 0, &ws, &e), NN_INVALID, "takes 3-D tensors");
    CK_ERR(aclnnMvGetWorkspaceSize(a.t, b.t, c.t, 0, &ws, &e), NN_INVALID, "vec has 2 dimensions; aclnnMv takes 1");
    CK_ERR(aclnnDotGetWorkspaceSize(a.t, b.t, c.t, &ws, &e), NN_INVALID, "self has 2 dimensions; aclnnDot takes 1");
    CK_ERR(aclnnDotGetWorkspaceSize(a.t, NULL, c.t, &ws, &e), NN_NULLPTR, "tensor");
    CK_OK(aclnnMatmulGetWorkspaceSize(bs3.t, b.t, bo3.t, 0, &ws, &e));
    CK_OK(aclDestroyAclOpExecutor(e));
    CK_ERR(aclnnMatmulGetWorkspaceSize(bs3.t, b.t, c.t, 0, &ws, &e), NN_INVALID,
           "shapes do not match: self [2,3,4] x mat2 [4,5] -> out [3,5]");
    nnt_rm(&bs3);
    nnt_rm(&bm3);
    nnt_rm(&bo3);
    CK_OK(aclDestroyIntArray(p_rot));
    CK_OK(aclDestroyIntArray(p_swap));
    CK_OK(aclDestroyIntArray(p_dup));
    CK_OK(aclDestroyIntArray(p_big));
    CK_OK(aclDestroyIntArray(p_two));
    nnt_rm(&x);
    nnt_rm(&y);
    nnt_rm(&yb);
    nnt_rm(&yh);
    nnt_rm(&ys);
    nnt_rm(&a);
    nnt_rm(&b);
    nnt_rm(&c);
}
END_TEST

Suite *dv_aclnn_mm_suite(void)
{
    Suite *s = suite_create("aclnn_mm");
    TCase *tc = tcase_create("aclnn_mm");
    tcase_add_checked_fixture(tc, NULL, nnt_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_aclnn_mm, 0, 8);
    tcase_add_loop_test(tc, test_aclnn_matmul_batch, 0, 2 * NBM);
    tcase_add_loop_test(tc, test_aclnn_matmul_distinct_batch, 0, 2 * NDB);
    tcase_add_loop_test(tc, test_aclnn_mm_added_term, 0, 2);
    tcase_add_loop_test(tc, test_aclnn_permute, 0, 4 * NPERMS);
    suite_add_tcase(s, tc);
    TCase *te = tcase_create("aclnn_mm_910b2");
    tcase_add_checked_fixture(te, nnt_setup, nnt_teardown);
    tcase_set_timeout(te, 60);
    tcase_add_test(te, test_aclnn_mm_errors);
    suite_add_tcase(s, te);
    return s;
}
