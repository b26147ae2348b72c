/* tests/check_aclnn_ops.c - the aclnn operators (acl/nnops.c, acl/nncall.c) through the real shim:
 * aclInit, aclrtSetDevice, aclrtMalloc / aclrtMemcpy, the two-phase operators on a stream, results
 * compared with plain-C references (exactly where the arithmetic is exact); strided views, repeatable
 * executors and workspaces; the profile's columns. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"
#include "support/nnt.h"

/* The function types client code takes addresses of (a mismatch is a compile error). */
static aclnnStatus (*const relu_ws_fn)(const aclTensor *, const aclTensor *, uint64_t *, aclOpExecutor **) =
    aclnnReluGetWorkspaceSize;
static aclnnStatus (*const relu_fn)(void *, uint64_t, aclOpExecutor *, const aclrtStream) = aclnnRelu;
static aclnnStatus (*const conv_fn)(void *, const uint64_t, aclOpExecutor *, aclrtStream) = aclnnConvolution;


/* ---------------------------------------------------------------- element-wise */

/* fp32 add with alpha 1 and 1.5: bit-exact against x + (float)(alpha * y) in float. */
START_TEST(test_aclnn_add_fp32_exact)
{
    const float alphas[] = {1.0f, 1.5f};
    const int64_t dims[] = {4, 2048};
    const int64_t n = nnt_numel(dims, 2);
    float *x = malloc(n * 4), *y = malloc(n * 4), *z = malloc(n * 4);
    nnt_fill(x, n, 1, -100, 100);
    nnt_fill(y, n, 2, -100, 100);
    nnt_dt_t a = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, x), b = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, y);
    nnt_dt_t c = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    aclScalar *alpha = aclCreateScalar((void *)&alphas[_i], ACL_FLOAT);
    uint64_t ws = 99;
    aclOpExecutor *e = NULL;
    CK_OK(aclnnAddGetWorkspaceSize(a.t, b.t, alpha, c.t, &ws, &e));
    ck_assert_uint_eq(ws, 0);
    RUN(aclnnAdd(NULL, 0, e, nnt_stream));
    nnt_rd(&c, z);
    for (int64_t i = 0; i < n; i++) {
        float t = alphas[_i] * y[i];
        float want = x[i] + t;
        ck_assert_msg(memcmp(&z[i], &want, 4) == 0, "alpha %g: z[%lld] = %.9g, want %.9g", alphas[_i], (long long)i,
                      z[i], want);
    }
    CK_OK(aclDestroyScalar(alpha));
    nnt_rm(&a);
    nnt_rm(&b);
    nnt_rm(&c);
    free(x);
    free(y);
    free(z);
}
END_TEST

/* fp16 add (odd size, a tail smaller than a 32-B block) and int32 add with an integer alpha: exact. */
START_TEST(test_aclnn_add_fp16_int32)
{
    const int64_t dims[] = {3, 37};
    const int64_t n = nnt_numel(dims, 2);
    float fx[111], fy[111];
    uint16_t hx[111], hy[111], hz[111];
    nnt_fill(fx, n, 3, -4, 4);
    nnt_fill(fy, n, 4, -4, 4);
    nnt_to_f16(fx, hx, n);
    nnt_to_f16(fy, hy, n);
    nnt_dt_t a = nnt_mk(dims, 2, ACL_FLOAT16, ACL_FORMAT_ND, hx), b = nnt_mk(dims, 2, ACL_FLOAT16, ACL_FORMAT_ND, hy);
    nnt_dt_t c = nnt_mk(dims, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    uint16_t one = aclFloatToFloat16(1.0f);
    aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT16);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnAddGetWorkspaceSize(a.t, b.t, alpha, c.t, &ws, &e));
    RUN(aclnnAdd(NULL, ws, e, nnt_stream));
    nnt_rd(&c, hz);
    for (int64_t i = 0; i < n; i++) {
        uint16_t want = aclFloatToFloat16(aclFloat16ToFloat(hx[i]) + aclFloat16ToFloat(hy[i]));
        ck_assert_msg(hz[i] == want, "fp16 z[%lld] = 0x%04x, want 0x%04x", (long long)i, hz[i], want);
    }
    CK_OK(aclDestroyScalar(alpha));
    nnt_rm(&a);
    nnt_rm(&b);
    nnt_rm(&c);

    int32_t ix[111], iy[111], iz[111];
    for (int i = 0; i < n; i++) {
        ix[i] = i * 7 - 300;
        iy[i] = 50 - i * 3;
    }
    a = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, ix);
    b = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, iy);
    c = nnt_mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, NULL);
    int64_t three = 3;
    alpha = aclCreateScalar(&three, ACL_INT64);
    CK_OK(aclnnAddGetWorkspaceSize(a.t, b.t, alpha, c.t, &ws, &e));
    RUN(aclnnAdd(NULL, ws, e, nnt_stream));
    nnt_rd(&c, iz);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(iz[i], ix[i] + 3 * iy[i]);
    CK_OK(aclDestroyScalar(alpha));
    nnt_rm(&a);
    nnt_rm(&b);
    nnt_rm(&c);
}
END_TEST

/* mul (exact), relu (exact) and gelu (within the fp32 tolerance) on fp32. */
START_TEST(test_aclnn_mul_relu_gelu)
{
    const int64_t dims[] = {5, 7, 9};
    const int64_t n = nnt_numel(dims, 3);
    float x[315], y[315], z[315];
    double want[315];
    nnt_fill(x, n, 5, -3, 3);
    nnt_fill(y, n, 6, -3, 3);
    nnt_dt_t a = nnt_mk(dims, 3, ACL_FLOAT, ACL_FORMAT_ND, x), b = nnt_mk(dims, 3, ACL_FLOAT, ACL_FORMAT_ND, y);
    nnt_dt_t c = nnt_mk(dims, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;

    CK_OK(aclnnMulGetWorkspaceSize(a.t, b.t, c.t, &ws, &e));
    RUN(aclnnMul(NULL, ws, e, nnt_stream));
    nnt_rd(&c, z);
    for (int64_t i = 0; i < n; i++)
        ck_assert_msg(z[i] == x[i] * y[i], "mul z[%lld] = %.9g, want %.9g", (long long)i, z[i], x[i] * y[i]);

    CK_OK(relu_ws_fn(a.t, c.t, &ws, &e));
    RUN(relu_fn(NULL, ws, e, nnt_stream));
    nnt_rd(&c, z);
    for (int64_t i = 0; i < n; i++)
        ck_assert_msg(z[i] == (x[i] > 0 ? x[i] : 0.0f), "relu z[%lld] = %.9g", (long long)i, z[i]);

    CK_OK(aclnnGeluGetWorkspaceSize(a.t, c.t, &ws, &e));
    RUN(aclnnGelu(NULL, ws, e, nnt_stream));
    nnt_rd(&c, z);
    for (int64_t i = 0; i < n; i++) {
        double v = x[i];
        want[i] = v / (1 + exp(-1.5957691216057308 * (v + 0.044715 * v * v * v)));
    }
    nnt_ck_close("gelu", z, want, n, 1e-5, 1e-4);
    nnt_rm(&a);
    nnt_rm(&b);
    nnt_rm(&c);
}
END_TEST

/* Views: self every other column of a [4, 16] allocation from element 1 (offset), other
 * a transposed view, out a column block of a larger tensor whose other elements stay as they were. */
START_TEST(test_aclnn_strided_views)
{
    float big[64], other[32], outbuf[64], got[64];
    for (int i = 0; i < 64; i++) {
        big[i] = (float)i;
        outbuf[i] = -1.0f;
    }
    for (int i = 0; i < 32; i++)
        other[i] = 1000.0f * (float)i;
    const int64_t bigd[] = {4, 16}, od[] = {8, 4}, vd[] = {4, 8};
    nnt_dt_t sb = nnt_mk(bigd, 2, ACL_FLOAT, ACL_FORMAT_ND, big), ob = nnt_mk(od, 2, ACL_FLOAT, ACL_FORMAT_ND, other);
    nnt_dt_t zb = nnt_mk(bigd, 2, ACL_FLOAT, ACL_FORMAT_ND, outbuf);
    const int64_t s_self[] = {16, 2}, s_other[] = {1, 4}, s_out[] = {16, 1};
    aclTensor *self = aclCreateTensor(vd, 2, ACL_FLOAT, s_self, 1, ACL_FORMAT_ND, bigd, 2, sb.dev);
    aclTensor *oth = aclCreateTensor(vd, 2, ACL_FLOAT, s_other, 0, ACL_FORMAT_ND, od, 2, ob.dev);
    aclTensor *out = aclCreateTensor(vd, 2, ACL_FLOAT, s_out, 8, ACL_FORMAT_ND, bigd, 2, zb.dev);
    ck_assert(self && oth && out);
    float one = 1.0f;
    aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnAddGetWorkspaceSize(self, oth, alpha, out, &ws, &e));
    RUN(aclnnAdd(NULL, ws, e, nnt_stream));
    nnt_rd(&zb, got);
    for (int r = 0; r < 4; r++)
        for (int col = 0; col < 16; col++) {
            float want = -1.0f;
            if (col >= 8)
                want = big[r * 16 + 1 + 2 * (col - 8)] + other[(col - 8) * 4 + r];
            ck_assert_msg(got[r * 16 + col] == want, "out[%d][%d] = %g, want %g", r, col, got[r * 16 + col], want);
        }
    int64_t off = -1;
    CK_OK(aclGetViewOffset(out, &off));
    ck_assert_int_eq(off, 8);
    CK_OK(aclDestroyScalar(alpha));
    CK_OK(aclDestroyTensor(self));
    CK_OK(aclDestroyTensor(oth));
    CK_OK(aclDestroyTensor(out));
    nnt_rm(&sb);
    nnt_rm(&ob);
    nnt_rm(&zb);
}
END_TEST

/* A repeatable executor runs twice, the second time with inputs and output rebound; a 0-element
 * tensor gives an executor that queues nothing. */
START_TEST(test_aclnn_repeatable_executor)
{
    const int64_t dims[] = {64};
    float x[64], y[64], x2[64], z[64];
    nnt_fill(x, 64, 7, -1, 1);
    nnt_fill(y, 64, 8, -1, 1);
    nnt_fill(x2, 64, 9, -1, 1);
    nnt_dt_t a = nnt_mk(dims, 1, ACL_FLOAT, ACL_FORMAT_ND, x), b = nnt_mk(dims, 1, ACL_FLOAT, ACL_FORMAT_ND, y);
    nnt_dt_t a2 = nnt_mk(dims, 1, ACL_FLOAT, ACL_FORMAT_ND, x2);
    nnt_dt_t c = nnt_mk(dims, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL), c2 = nnt_mk(dims, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnMulGetWorkspaceSize(a.t, b.t, c.t, &ws, &e));
    CK_OK(aclSetAclOpExecutorRepeatable(e));
    RUN(aclnnMul(NULL, ws, e, nnt_stream));
    CK_OK(aclSetInputTensorAddr(e, 0, a.t, a2.dev));
    CK_OK(aclSetOutputTensorAddr(e, 0, NULL, c2.dev));
    CK_ERR(aclSetInputTensorAddr(e, 2, NULL, a2.dev), NN_INVALID, "index 2 is out of range");
    RUN(aclnnMul(NULL, ws, e, nnt_stream));
    nnt_rd(&c, z);
    for (int i = 0; i < 64; i++)
        ck_assert(z[i] == x[i] * y[i]);
    nnt_rd(&c2, z);
    for (int i = 0; i < 64; i++)
        ck_assert(z[i] == x2[i] * y[i]);
    void *addr = NULL;
    CK_OK(aclGetRawTensorAddr(a.t, &addr));
    ck_assert_ptr_eq(addr, a2.dev);
    CK_OK(aclDestroyAclOpExecutor(e));

    const int64_t zero[] = {3, 0};
    aclTensor *ez = aclCreateTensor(zero, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, zero, 2, NULL);
    ck_assert_ptr_nonnull(ez);
    CK_OK(aclnnReluGetWorkspaceSize(ez, ez, &ws, &e));
    ck_assert_uint_eq(ws, 0);
    RUN(aclnnRelu(NULL, ws, e, nnt_stream));
    CK_OK(aclDestroyTensor(ez));
    nnt_rm(&a);
    nnt_rm(&b);
    nnt_rm(&a2);
    nnt_rm(&c);
    nnt_rm(&c2);
}
END_TEST

/* ---------------------------------------------------------------- row-wise */

/* softmax along every axis of a 2x3x37 tensor (dim 0, 1 as given and as dim - 3; the official
 * example's dim 0), fp32 and fp16: the library's softmax_dim, checked against a plain-C softmax of
 * each column. */
START_TEST(test_aclnn_softmax_any_dim)
{
    const int64_t dims[] = {2, 3, 37};
    const int64_t n = nnt_numel(dims, 3);
    float x[222], z[222];
    double want[222];
    uint16_t h[222];
    nnt_fill(x, n, 11, -4, 4);
    const bool half = _i % 2 == 1;
    const int64_t dim = _i / 2 == 0 ? 0 : _i / 2 == 1 ? 1 : -2; /* -2: axis 1 */
    const int64_t ax = dim < 0 ? dim + 3 : dim;
    if (half) {
        for (int64_t i = 0; i < n; i++)
            x[i] = nnt_f16r(x[i]);
        nnt_to_f16(x, h, n);
    }
    aclDataType dt = half ? ACL_FLOAT16 : ACL_FLOAT;
    nnt_dt_t a = nnt_mk(dims, 3, dt, ACL_FORMAT_ND, half ? (void *)h : (void *)x),
             c = nnt_mk(dims, 3, dt, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnSoftmaxGetWorkspaceSize(a.t, dim, c.t, &ws, &e));
    RUN(aclnnSoftmax(NULL, ws, e, nnt_stream));
    if (half) {
        nnt_rd(&c, h);
        for (int64_t i = 0; i < n; i++)
            z[i] = aclFloat16ToFloat(h[i]);
    } else {
        nnt_rd(&c, z);
    }
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < 3; i++) {
        if (i < ax)
            outer *= dims[i];
        if (i > ax)
            inner *= dims[i];
    }
    const int64_t len = dims[ax];
    for (int64_t o = 0; o < outer; o++)
        for (int64_t j = 0; j < inner; j++) {
            const int64_t base = o * len * inner + j;
            double mx = -1e30, sum = 0;
            for (int64_t r = 0; r < len; r++)
                mx = fmax(mx, x[base + r * inner]);
            for (int64_t r = 0; r < len; r++)
                sum += exp(x[base + r * inner] - mx);
            for (int64_t r = 0; r < len; r++)
                want[base + r * inner] = exp(x[base + r * inner] - mx) / sum;
        }
    nnt_ck_close("softmax", z, want, n, half ? 1e-3 : 1e-5, half ? 4e-3 : 1e-4);
    nnt_rm(&a);
    nnt_rm(&c);
}
END_TEST

/* softmax over the last axis (dim -1 and dim ndim-1), fp32 and fp16. */
START_TEST(test_aclnn_softmax)
{
    const int64_t dims[] = {2, 3, 37};
    const int64_t n = nnt_numel(dims, 3), rows = 6, cols = 37;
    float x[222], z[222];
    double want[222];
    uint16_t h[222];
    nnt_fill(x, n, 10, -4, 4);
    const bool half = _i == 1;
    if (half) {
        for (int64_t i = 0; i < n; i++)
            x[i] = nnt_f16r(x[i]);
        nnt_to_f16(x, h, n);
    }
    aclDataType dt = half ? ACL_FLOAT16 : ACL_FLOAT;
    nnt_dt_t a = nnt_mk(dims, 3, dt, ACL_FORMAT_ND, half ? (void *)h : (void *)x),
             c = nnt_mk(dims, 3, dt, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnSoftmaxGetWorkspaceSize(a.t, half ? 2 : -1, c.t, &ws, &e));
    RUN(aclnnSoftmax(NULL, ws, e, nnt_stream));
    if (half) {
        nnt_rd(&c, h);
        for (int64_t i = 0; i < n; i++)
            z[i] = aclFloat16ToFloat(h[i]);
    } else {
        nnt_rd(&c, z);
    }
    for (int64_t r = 0; r < rows; r++) {
        double mx = -1e30, sum = 0;
        for (int64_t j = 0; j < cols; j++)
            mx = fmax(mx, x[r * cols + j]);
        for (int64_t j = 0; j < cols; j++)
            sum += exp(x[r * cols + j] - mx);
        for (int64_t j = 0; j < cols; j++)
            want[r * cols + j] = exp(x[r * cols + j] - mx) / sum;
    }
    nnt_ck_close("softmax", z, want, n, half ? 1e-3 : 1e-5, half ? 4e-3 : 1e-4);
    nnt_rm(&a);
    nnt_rm(&c);
}
END_TEST

/* layernorm over the last axis with weight, bias, eps 1e-3 and the mean / rstd outputs (fp32); a
 * statistic nobody asked for goes to the workspace; a normalizedShape of two trailing axes. */
START_TEST(test_aclnn_layernorm)
{
    const int64_t dims[] = {5, 33}, pd[] = {33}, sd[] = {5, 1};
    const int64_t rows = 5, cols = 33, n = rows * cols;
    const double eps = 1e-3;
    float x[165], g[33], bb[33], y[165], mean[5], rstd[5];
    double want[165], wm[5], wr[5];
    nnt_fill(x, n, 11, -2, 3);
    nnt_fill(g, cols, 12, 0.5f, 1.5f);
    nnt_fill(bb, cols, 13, -0.5f, 0.5f);
    nnt_dt_t tx = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, x), tg = nnt_mk(pd, 1, ACL_FLOAT, ACL_FORMAT_ND, g);
    nnt_dt_t tb = nnt_mk(pd, 1, ACL_FLOAT, ACL_FORMAT_ND, bb), ty = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t tm = nnt_mk(sd, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), tr = nnt_mk(sd, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    aclIntArray *ns = aclCreateIntArray(&cols, 1);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnLayerNormGetWorkspaceSize(tx.t, ns, tg.t, tb.t, eps, ty.t, tm.t, tr.t, &ws, &e));
    ck_assert_uint_eq(ws, 0);
    RUN(aclnnLayerNorm(NULL, ws, e, nnt_stream));
    nnt_rd(&ty, y);
    nnt_rd(&tm, mean);
    nnt_rd(&tr, rstd);
    for (int64_t r = 0; r < rows; r++) {
        double m = 0, v = 0;
        for (int64_t j = 0; j < cols; j++)
            m += x[r * cols + j];
        m /= cols;
        for (int64_t j = 0; j < cols; j++)
            v += (x[r * cols + j] - m) * (x[r * cols + j] - m);
        v /= cols;
        wm[r] = m;
        wr[r] = 1 / sqrt(v + eps);
        for (int64_t j = 0; j < cols; j++)
            want[r * cols + j] = (x[r * cols + j] - m) * wr[r] * g[j] + bb[j];
    }
    nnt_ck_close("layernorm y", y, want, n, 1e-5, 1e-4);
    nnt_ck_close("layernorm mean", mean, wm, rows, 1e-5, 1e-4);
    nnt_ck_close("layernorm rstd", rstd, wr, rows, 1e-5, 1e-4);

    /* without the statistics: no workspace either (the library's mean / rstd are not produced) */
    CK_OK(aclnnLayerNormGetWorkspaceSize(tx.t, ns, tg.t, tb.t, eps, ty.t, NULL, NULL, &ws, &e));
    ck_assert_uint_eq(ws, 0);
    RUN(aclnnLayerNorm(NULL, ws, e, nnt_stream));
    /* only rstd: mean goes to the workspace */
    CK_OK(aclnnLayerNormGetWorkspaceSize(tx.t, ns, tg.t, tb.t, eps, ty.t, NULL, tr.t, &ws, &e));
    ck_assert_uint_eq(ws, 512);
    void *wsp;
    CK_OK(aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST));
    RUN(aclnnLayerNorm(wsp, ws, e, nnt_stream));
    nnt_rd(&tr, rstd);
    nnt_ck_close("layernorm rstd (workspace mean)", rstd, wr, rows, 1e-5, 1e-4);
    CK_OK(aclrtFree(wsp));

    /* the same data as [5, 3, 11] normalised over its last two axes (normalizedShape [3, 11]) */
    const int64_t d3[] = {5, 3, 11}, p3[] = {3, 11};
    aclTensor *x3 = aclCreateTensor(d3, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d3, 3, tx.dev);
    aclTensor *y3 = aclCreateTensor(d3, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d3, 3, ty.dev);
    aclTensor *g3 = aclCreateTensor(p3, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, p3, 2, tg.dev);
    aclTensor *b3 = aclCreateTensor(p3, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, p3, 2, tb.dev);
    aclIntArray *ns3 = aclCreateIntArray(p3, 2);
    CK_OK(aclrtMemset(ty.dev, ty.bytes, 0, ty.bytes));
    CK_OK(aclnnLayerNormGetWorkspaceSize(x3, ns3, g3, b3, eps, y3, NULL, NULL, &ws, &e));
    RUN(aclnnLayerNorm(NULL, ws, e, nnt_stream));
    nnt_rd(&ty, y);
    nnt_ck_close("layernorm [5,3,11] over [3,11]", y, want, n, 1e-5, 1e-4);
    CK_OK(aclDestroyIntArray(ns3));
    CK_OK(aclDestroyTensor(x3));
    CK_OK(aclDestroyTensor(y3));
    CK_OK(aclDestroyTensor(g3));
    CK_OK(aclDestroyTensor(b3));
    CK_OK(aclDestroyIntArray(ns));
    nnt_rm(&tx);
    nnt_rm(&tg);
    nnt_rm(&tb);
    nnt_rm(&ty);
    nnt_rm(&tm);
    nnt_rm(&tr);
}
END_TEST

/* Inference batch norm on NCHW fp32 with eps 1e-3. */
START_TEST(test_aclnn_batchnorm)
{
    const int64_t dims[] = {2, 3, 4, 5}, cd[] = {3};
    const int64_t n = nnt_numel(dims, 4), C = 3, HW = 20;
    const double eps = 1e-3;
    float x[120], y[120], g[3], b[3], m[3], v[3];
    double want[120];
    nnt_fill(x, n, 14, -2, 2);
    nnt_fill(g, C, 15, 0.5f, 1.5f);
    nnt_fill(b, C, 16, -0.5f, 0.5f);
    nnt_fill(m, C, 17, -0.5f, 0.5f);
    nnt_fill(v, C, 18, 0.5f, 2.0f);
    nnt_dt_t tx = nnt_mk(dims, 4, ACL_FLOAT, ACL_FORMAT_NCHW, x),
             ty = nnt_mk(dims, 4, ACL_FLOAT, ACL_FORMAT_NCHW, NULL);
    nnt_dt_t tg = nnt_mk(cd, 1, ACL_FLOAT, ACL_FORMAT_ND, g), tb = nnt_mk(cd, 1, ACL_FLOAT, ACL_FORMAT_ND, b);
    nnt_dt_t tm = nnt_mk(cd, 1, ACL_FLOAT, ACL_FORMAT_ND, m), tv = nnt_mk(cd, 1, ACL_FLOAT, ACL_FORMAT_ND, v);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnBatchNormGetWorkspaceSize(tx.t, tg.t, tb.t, tm.t, tv.t, false, 0.1, eps, ty.t, NULL, NULL, &ws, &e));
    RUN(aclnnBatchNorm(NULL, ws, e, nnt_stream));
    nnt_rd(&ty, y);
    for (int64_t i = 0; i < n; i++) {
        int64_t c = i / HW % C;
        want[i] = (x[i] - m[c]) / sqrt(v[c] + eps) * g[c] + b[c];
    }
    nnt_ck_close("batchnorm", y, want, n, 1e-5, 1e-4);
    nnt_rm(&tx);
    nnt_rm(&ty);
    nnt_rm(&tg);
    nnt_rm(&tb);
    nnt_rm(&tm);
    nnt_rm(&tv);
}
END_TEST

/* Training batch norm (the official example's mode) on 2-D, 3-D (N x C x L) and 5-D inputs, fp32
 * and fp16, on both profiles: y, saveMean, saveInvstd and the updated running statistics against a
 * plain-C reference.  Loop index: shape i % 3, fp16 when i / 3 is odd, the 310 for i >= 6. */
START_TEST(test_aclnn_batchnorm_training)
{
    static const int64_t shapes[3][5] = {{6, 4}, {2, 3, 7}, {2, 2, 3, 2, 3}};
    static const int nds[3] = {2, 3, 5};
    nnt_setup_profile(_i >= 6 ? "ascend310" : NULL);
    const int si = _i % 3, nd = nds[si];
    const bool half = _i / 3 % 2 == 1;
    const int64_t *dims = shapes[si], C = dims[1], cd[] = {dims[1]};
    const int64_t n = nnt_numel(dims, nd), N = dims[0], S = n / (N * C);
    const double eps = 1e-5, mom = 0.25;
    float x[72], y[72], g[4], b[4], m[4], v[4], sm[4], si_[4], m2[4], v2[4];
    uint16_t hx[72], hy[72];
    double want[72];
    nnt_fill(x, n, 31, -2, 2);
    if (half) {
        for (int64_t i = 0; i < n; i++)
            x[i] = nnt_f16r(x[i]);
        nnt_to_f16(x, hx, n);
    }
    nnt_fill(g, C, 32, 0.5f, 1.5f);
    nnt_fill(b, C, 33, -0.5f, 0.5f);
    nnt_fill(m, C, 34, -0.5f, 0.5f);
    nnt_fill(v, C, 35, 0.5f, 2.0f);
    const aclDataType dt = half ? ACL_FLOAT16 : ACL_FLOAT;
    nnt_dt_t tx = nnt_mk(dims, nd, dt, ACL_FORMAT_ND, half ? (void *)hx : (void *)x),
             ty = nnt_mk(dims, nd, dt, ACL_FORMAT_ND, NULL);
    nnt_dt_t tg = nnt_mk(cd, 1, ACL_FLOAT, ACL_FORMAT_ND, g), tb = nnt_mk(cd, 1, ACL_FLOAT, ACL_FORMAT_ND, b);
    nnt_dt_t tm = nnt_mk(cd, 1, ACL_FLOAT, ACL_FORMAT_ND, m), tv = nnt_mk(cd, 1, ACL_FLOAT, ACL_FORMAT_ND, v);
    nnt_dt_t tsm = nnt_mk(cd, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL), tsi = nnt_mk(cd, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnBatchNormGetWorkspaceSize(tx.t, tg.t, tb.t, tm.t, tv.t, true, mom, eps, ty.t, tsm.t, tsi.t, &ws, &e));
    RUN(aclnnBatchNorm(NULL, ws, e, nnt_stream));
    if (half) {
        nnt_rd(&ty, hy);
        for (int64_t i = 0; i < n; i++)
            y[i] = aclFloat16ToFloat(hy[i]);
    } else {
        nnt_rd(&ty, y);
    }
    nnt_rd(&tsm, sm);
    nnt_rd(&tsi, si_);
    nnt_rd(&tm, m2);
    nnt_rd(&tv, v2);
    for (int64_t c = 0; c < C; c++) {
        double s = 0, q = 0;
        const double M = (double)(N * S);
        for (int64_t k = 0; k < N; k++)
            for (int64_t i = 0; i < S; i++)
                s += x[(k * C + c) * S + i];
        const double mean = s / M;
        for (int64_t k = 0; k < N; k++)
            for (int64_t i = 0; i < S; i++)
                q += (x[(k * C + c) * S + i] - mean) * (x[(k * C + c) * S + i] - mean);
        const double var = q / M, invstd = 1 / sqrt(var + eps);
        for (int64_t k = 0; k < N; k++)
            for (int64_t i = 0; i < S; i++) {
                const int64_t at = (k * C + c) * S + i;
                want[at] = (x[at] - mean) * invstd * g[c] + b[c];
            }
        ck_assert_msg(fabs(sm[c] - mean) <= 1e-5, "saveMean[%lld] %g, want %g", (long long)c, sm[c], mean);
        ck_assert_msg(fabs(si_[c] - invstd) <= 1e-5 * invstd, "saveInvstd[%lld] %g, want %g", (long long)c, si_[c],
                      invstd);
        const double rm = (1 - mom) * m[c] + mom * mean, rv = (1 - mom) * v[c] + mom * var * M / (M - 1);
        ck_assert_msg(fabs(m2[c] - rm) <= 1e-5, "runningMean[%lld] %g, want %g", (long long)c, m2[c], rm);
        ck_assert_msg(fabs(v2[c] - rv) <= 1e-5 * rv, "runningVar[%lld] %g, want %g", (long long)c, v2[c], rv);
    }
    nnt_ck_close("batchnorm training", y, want, n, half ? 2e-3 : 1e-5, half ? 4e-3 : 1e-4);
    nnt_rm(&tx);
    nnt_rm(&ty);
    nnt_rm(&tg);
    nnt_rm(&tb);
    nnt_rm(&tm);
    nnt_rm(&tv);
    nnt_rm(&tsm);
    nnt_rm(&tsi);
}
END_TEST

/* RmsNorm over the trailing two dims of a 3 x 4 x 16 tensor (gamma [4, 16]), with rstdOut [3, 1, 1]
 * and without it; epsilon 1e-6 as the official example. */
START_TEST(test_aclnn_rms_norm)
{
    const int64_t d[] = {3, 4, 16}, gd[] = {4, 16}, rd[] = {3, 1, 1};
    const int64_t n = 192, rows = 3, cols = 64;
    const double eps = 1e-6;
    float x[192], g[64], y[192], r[3];
    double want[192];
    nnt_fill(x, n, 71, -2, 2);
    nnt_fill(g, cols, 72, 0.5f, 1.5f);
    nnt_dt_t tx = nnt_mk(d, 3, ACL_FLOAT, ACL_FORMAT_ND, x), tg = nnt_mk(gd, 2, ACL_FLOAT, ACL_FORMAT_ND, g);
    nnt_dt_t ty = nnt_mk(d, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL), tr = nnt_mk(rd, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    for (int with = 1; with >= 0; with--) {
        CK_OK(aclnnRmsNormGetWorkspaceSize(tx.t, tg.t, eps, ty.t, with ? tr.t : NULL, &ws, &e));
        RUN(aclnnRmsNorm(NULL, ws, e, nnt_stream));
        nnt_rd(&ty, y);
        for (int64_t i = 0; i < rows; i++) {
            double s = 0;
            for (int64_t j = 0; j < cols; j++)
                s += (double)x[i * cols + j] * x[i * cols + j];
            const double rstd = 1 / sqrt(s / (double)cols + eps);
            for (int64_t j = 0; j < cols; j++)
                want[i * cols + j] = x[i * cols + j] * rstd * g[j];
            if (with) {
                nnt_rd(&tr, r);
                ck_assert_msg(fabs(r[i] - rstd) <= 1e-5 * rstd, "rstd[%lld] %g, want %g", (long long)i, r[i], rstd);
            }
        }
        nnt_ck_close("rms norm", y, want, n, 1e-5, 1e-4);
    }
    const int64_t bad[] = {16};
    nnt_dt_t tb = nnt_mk(bad, 1, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnRmsNormGetWorkspaceSize(tx.t, tb.t, eps, ty.t, tr.t, &ws, &e), NN_INVALID, "gamma");
    nnt_rm(&tx);
    nnt_rm(&tg);
    nnt_rm(&ty);
    nnt_rm(&tr);
    nnt_rm(&tb);
}
END_TEST

/* ---------------------------------------------------------------- cube */

/* C[M,N] = A[M,K] x B[K,N] in double from the rounded inputs. */
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

/* matmul fp16 -> fp32 with mat2 contiguous (B as [K,N]) and as the transposed view of an [N,K]
 * tensor (B^T, --b-transposed), and fp32 with a contiguous mat2 (staged transposed); loop index:
 * 0, 1 on the 910B2 profile, 2, 3 on the 310. */
START_TEST(test_aclnn_matmul)
{
    nnt_setup_profile(_i < 2 ? NULL : "ascend310");
    const int64_t M = 20, K = 40, N = 24;
    float a[800], b[960], bt[960], c[480];
    double want[480];
    uint16_t ha[800], hb[960];
    nnt_fill(a, M * K, 20, -1, 1);
    nnt_fill(b, K * N, 21, -1, 1);
    const bool half = _i % 2 == 0;
    if (half) {
        for (int i = 0; i < M * K; i++)
            a[i] = nnt_f16r(a[i]);
        for (int i = 0; i < K * N; i++)
            b[i] = nnt_f16r(b[i]);
    }
    mm_ref(a, b, want, M, K, N);
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++)
            bt[j * K + k] = b[k * N + j];
    const int64_t ad[] = {M, K}, bd[] = {K, N}, btd[] = {N, K}, cd[] = {M, N}, bts[] = {1, K};
    aclDataType dt = half ? ACL_FLOAT16 : ACL_FLOAT;
    uint64_t ws;
    aclOpExecutor *e;
    if (half) {
        nnt_to_f16(a, ha, M * K);
        nnt_dt_t ta = nnt_mk(ad, 2, dt, ACL_FORMAT_ND, ha), tc = nnt_mk(cd, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        for (int layout = 0; layout < 2; layout++) {
            nnt_to_f16(layout ? bt : b, hb, K * N);
            nnt_dt_t tb = nnt_mk(layout ? btd : bd, 2, dt, ACL_FORMAT_ND, hb);
            aclTensor *mat2 = layout ? aclCreateTensor(bd, 2, dt, bts, 0, ACL_FORMAT_ND, btd, 2, tb.dev) : tb.t;
            CK_OK(aclnnMatmulGetWorkspaceSize(ta.t, mat2, tc.t, 0, &ws, &e));
            ck_assert_uint_eq(ws, 0);
            RUN(aclnnMatmul(NULL, ws, e, nnt_stream));
            nnt_rd(&tc, c);
            nnt_ck_close(layout ? "matmul fp16 (mat2 transposed view)" : "matmul fp16", c, want, M * N, 1e-4, 1e-4);
            if (layout)
                CK_OK(aclDestroyTensor(mat2));
            nnt_rm(&tb);
        }
        nnt_rm(&ta);
        nnt_rm(&tc);
    } else {
        nnt_dt_t ta = nnt_mk(ad, 2, dt, ACL_FORMAT_ND, a), tb = nnt_mk(bd, 2, dt, ACL_FORMAT_ND, b);
        nnt_dt_t tc = nnt_mk(cd, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        CK_OK(aclnnMatmulGetWorkspaceSize(ta.t, tb.t, tc.t, 1, &ws, &e));
        RUN(aclnnMatmul(NULL, ws, e, nnt_stream));
        nnt_rd(&tc, c);
        nnt_ck_close("matmul fp32", c, want, M * N, 1e-4, 1e-4);
        nnt_rm(&ta);
        nnt_rm(&tb);
        nnt_rm(&tc);
    }
}
END_TEST

/* Direct NCHW convolution in double: x [N,C,H,W], w [O,C,KH,KW], y [N,O,OH,OW], stride s, pad p. */
static void conv_ref(const float *x, const float *w, double *y, const int64_t *xd, const int64_t *wd,
                     const int64_t *yd, int64_t s, int64_t p)
{
    const int64_t C = xd[1], H = xd[2], W = xd[3], KH = wd[2], KW = wd[3];
    for (int64_t n = 0; n < yd[0]; n++)
        for (int64_t o = 0; o < yd[1]; o++)
            for (int64_t i = 0; i < yd[2] * yd[3]; i++) {
                const int64_t oh = i / yd[3], ow = i % yd[3];
                double acc = 0;
                for (int64_t c = 0; c < C; c++)
                    for (int64_t k = 0; k < KH * KW; k++) {
                        const int64_t ih = oh * s - p + k / KW, iw = ow * s - p + k % KW;
                        if (ih >= 0 && ih < H && iw >= 0 && iw < W)
                            acc += (double)x[((n * C + c) * H + ih) * W + iw] * w[(o * C + c) * KH * KW + k];
                    }
                y[(n * yd[1] + o) * yd[2] * yd[3] + i] = acc;
            }
}

/* conv2d fp16 NCHW, stride 2, pad 1, with the workspace the plan needs (filled with garbage first:
 * the kernel must not rely on its contents); loop index 0: 910B2, 1: 310. */
START_TEST(test_aclnn_convolution)
{
    nnt_setup_profile(_i ? "ascend310" : NULL);
    const int64_t xd[] = {2, 5, 9, 7}, wd[] = {6, 5, 3, 3}, yd[] = {2, 6, 5, 4};
    const int64_t nx = nnt_numel(xd, 4), nw = nnt_numel(wd, 4), ny = nnt_numel(yd, 4);
    float x[630], w[270], y[240];
    double want[240];
    uint16_t hx[630], hw[270], hy[240];
    nnt_fill(x, nx, 30, -1, 1);
    nnt_fill(w, nw, 31, -0.3f, 0.3f);
    for (int64_t i = 0; i < nx; i++)
        x[i] = nnt_f16r(x[i]);
    for (int64_t i = 0; i < nw; i++)
        w[i] = nnt_f16r(w[i]);
    nnt_to_f16(x, hx, nx);
    nnt_to_f16(w, hw, nw);
    conv_ref(x, w, want, xd, wd, yd, 2, 1);
    nnt_dt_t tx = nnt_mk(xd, 4, ACL_FLOAT16, ACL_FORMAT_NCHW, hx), tw = nnt_mk(wd, 4, ACL_FLOAT16, ACL_FORMAT_NCHW, hw);
    nnt_dt_t ty = nnt_mk(yd, 4, ACL_FLOAT16, ACL_FORMAT_NCHW, NULL);
    const int64_t two = 2, one = 1, zero = 0, pads[] = {1, 1};
    aclIntArray *st = aclCreateIntArray(&two, 1), *pd = aclCreateIntArray(pads, 2), *dl = aclCreateIntArray(&one, 1);
    aclIntArray *op = aclCreateIntArray(&zero, 1);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnConvolutionGetWorkspaceSize(tx.t, tw.t, NULL, st, pd, dl, false, op, 1, ty.t, 0, &ws, &e));
    ck_assert_msg(ws > 0, "conv2d needs a workspace for its layout transforms");
    void *wsp;
    CK_OK(aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST));
    CK_OK(aclrtMemset(wsp, ws, 0xA5, ws));
    RUN(conv_fn(wsp, ws, e, nnt_stream));
    nnt_rd(&ty, hy);
    for (int64_t i = 0; i < ny; i++)
        y[i] = aclFloat16ToFloat(hy[i]);
    nnt_ck_close("conv2d", y, want, ny, 2e-3, 8e-3);
    CK_OK(aclrtFree(wsp));
    CK_OK(aclDestroyIntArray(st));
    CK_OK(aclDestroyIntArray(pd));
    CK_OK(aclDestroyIntArray(dl));
    CK_OK(aclDestroyIntArray(op));
    nnt_rm(&tx);
    nnt_rm(&tw);
    nnt_rm(&ty);
}
END_TEST

/* The launch reaches the profile: op type, aclnn op name, shapes, dtypes and formats. */
START_TEST(test_aclnn_profile_columns)
{
    char dir[] = "/tmp/dvsim_aclnn_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    nnt_teardown();
    nnt_env_clear();
    setenv("DVSIM_PROFILE_OUT", dir, 1);
    CK_OK(aclInit(NULL));
    CK_OK(aclrtSetDevice(0));
    CK_OK(aclrtCreateStream(&nnt_stream));
    const int64_t dims[] = {4, 2048};
    nnt_dt_t a = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), c = nnt_mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnReluGetWorkspaceSize(a.t, c.t, &ws, &e));
    RUN(aclnnRelu(NULL, ws, e, nnt_stream));
    nnt_rm(&a);
    nnt_rm(&c);
    nnt_teardown();
    char path[256], line[4096];
    snprintf(path, sizeof path, "%s/op_summary.csv", dir);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "no %s", path);
    bool found = false;
    while (fgets(line, sizeof line, f))
        if (strstr(line, ",\"aclnnRelu_ReluAiCore_Relu\",\"Relu\","))
            found = strstr(line, "\"4,2048\",\"DT_FLOAT\",\"FORMAT_ND\",\"4,2048\",\"DT_FLOAT\",\"FORMAT_ND\"") != NULL;
    fclose(f);
    ck_assert_msg(found, "no Relu row with its shapes in %s", path);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
    nnt_setup_profile(NULL); /* for the fixture's teardown */
}
END_TEST

Suite *dv_aclnn_ops_suite(void)
{
    Suite *s = suite_create("aclnn_ops");
    TCase *tc = tcase_create("aclnn_ops");
    tcase_add_checked_fixture(tc, nnt_setup, nnt_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_aclnn_add_fp32_exact, 0, 2);
    tcase_add_test(tc, test_aclnn_add_fp16_int32);
    tcase_add_test(tc, test_aclnn_mul_relu_gelu);
    tcase_add_test(tc, test_aclnn_strided_views);
    tcase_add_test(tc, test_aclnn_repeatable_executor);
    tcase_add_loop_test(tc, test_aclnn_softmax, 0, 2);
    tcase_add_loop_test(tc, test_aclnn_softmax_any_dim, 0, 6);
    tcase_add_test(tc, test_aclnn_layernorm);
    tcase_add_test(tc, test_aclnn_batchnorm);
    tcase_add_test(tc, test_aclnn_rms_norm);
    tcase_add_test(tc, test_aclnn_profile_columns);
    suite_add_tcase(s, tc);

    /* the cube operators on both chip layouts: each test picks its profile */
    TCase *tp = tcase_create("aclnn_profiles");
    tcase_add_checked_fixture(tp, NULL, nnt_teardown);
    tcase_set_timeout(tp, 120);
    tcase_add_loop_test(tp, test_aclnn_matmul, 0, 4);
    tcase_add_loop_test(tp, test_aclnn_convolution, 0, 2);
    tcase_add_loop_test(tp, test_aclnn_batchnorm_training, 0, 12);
    suite_add_tcase(s, tp);
    return s;
}

