/* tests/check_aclnn.c - the aclnn layer (acl/meta.c, acl/nnops.c) through the real shim: aclInit,
 * aclrtSetDevice, aclrtMalloc / aclrtMemcpy, the two-phase operators on a stream, results compared
 * with plain-C references (exactly where the arithmetic is exact); strided views, repeatable
 * executors and workspaces; every error path of the objects and the operators, with its aclnnStatus
 * and its aclGetRecentErrMsg text. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_softmax.h"

/* The aclnnStatus codes (documented values; not in the public headers). */
enum { NN_NULLPTR = 161001, NN_INVALID = 161002, NN_RUNTIME = 361001 };

/* The function types client code takes addresses of (a mismatch is a compile error). */
static aclnnStatus (*const destroy_tensor_fn)(const aclTensor *) = aclDestroyTensor;
static aclnnStatus (*const relu_ws_fn)(const aclTensor *, const aclTensor *, uint64_t *, aclOpExecutor **) =
    aclnnReluGetWorkspaceSize;
static aclnnStatus (*const relu_fn)(void *, uint64_t, aclOpExecutor *, const aclrtStream) = aclnnRelu;
static aclnnStatus (*const conv_fn)(void *, const uint64_t, aclOpExecutor *, aclrtStream) = aclnnConvolution;

/* ---------------------------------------------------------------- fixture and helpers */

static aclrtStream g_stream;

static void env_clear(void)
{
    unsetenv("DVSIM_PROFILE");
    unsetenv("DVSIM_CONFIG");
    unsetenv("DVSIM_PROFILE_OUT");
}

/* Each test runs in its own process: init, device 0, a stream. */
static void setup_profile(const char *profile)
{
    env_clear();
    if (profile)
        setenv("DVSIM_PROFILE", profile, 1);
    ck_assert_msg(aclInit(NULL) == ACL_SUCCESS, "aclInit: %s", aclGetRecentErrMsg());
    ck_assert_msg(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice: %s", aclGetRecentErrMsg());
    ck_assert_msg(aclrtCreateStream(&g_stream) == ACL_SUCCESS, "aclrtCreateStream: %s", aclGetRecentErrMsg());
}

static void teardown(void)
{
    aclrtDestroyStream(g_stream);
    aclrtResetDevice(0);
    aclFinalize();
}

/* The status and the recent error message of a call. */
#define CK_ERR(expr, code, text)                                                                                  \
    do {                                                                                                          \
        int rc_ = (int)(expr);                                                                                    \
        const char *m_ = aclGetRecentErrMsg();                                                                    \
        ck_assert_msg(rc_ == (code), "%s returned %d, expected %d (%s)", #expr, rc_, (int)(code), m_ ? m_ : "");  \
        ck_assert_msg(m_ && strstr(m_, text), "%s: message '%s' lacks '%s'", #expr, m_ ? m_ : "(null)", text);   \
    } while (0)

#define CK_OK(expr)                                                                                               \
    do {                                                                                                          \
        int rc_ = (int)(expr);                                                                                    \
        ck_assert_msg(rc_ == 0, "%s returned %d: %s", #expr, rc_, aclGetRecentErrMsg());                          \
    } while (0)

/* A device tensor: its allocation and its aclTensor. */
typedef struct dt {
    aclTensor *t;
    void *dev;
    size_t bytes;
} dt_t;

static size_t dtype_size(aclDataType t)
{
    return t == ACL_FLOAT || t == ACL_INT32 ? 4 : t == ACL_INT8 ? 1 : 2;
}

static int64_t numel(const int64_t *dims, int nd)
{
    int64_t n = 1;
    for (int i = 0; i < nd; i++)
        n *= dims[i];
    return n;
}

/* A contiguous tensor in a fresh allocation, filled from host (NULL: zeros). */
static dt_t mk(const int64_t *dims, int nd, aclDataType dt, aclFormat fmt, const void *host)
{
    dt_t r;
    r.bytes = (size_t)numel(dims, nd) * dtype_size(dt);
    CK_OK(aclrtMalloc(&r.dev, r.bytes ? r.bytes : 1, ACL_MEM_MALLOC_HUGE_FIRST));
    if (host && r.bytes)
        CK_OK(aclrtMemcpy(r.dev, r.bytes, host, r.bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    else if (r.bytes)
        CK_OK(aclrtMemset(r.dev, r.bytes, 0, r.bytes));
    r.t = aclCreateTensor(dims, (uint64_t)nd, dt, NULL, 0, fmt, dims, (uint64_t)nd, r.dev);
    ck_assert_msg(r.t != NULL, "aclCreateTensor: %s", aclGetRecentErrMsg());
    return r;
}

static void rd(const dt_t *t, void *host)
{
    CK_OK(aclrtMemcpy(host, t->bytes, t->dev, t->bytes, ACL_MEMCPY_DEVICE_TO_HOST));
}

static void rm(dt_t *t)
{
    CK_OK(aclDestroyTensor(t->t));
    CK_OK(aclrtFree(t->dev));
}

/* Deterministic values in [lo, hi). */
static void fill(float *v, int64_t n, unsigned seed, float lo, float hi)
{
    uint32_t s = seed * 2654435761u + 1;
    for (int64_t i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        v[i] = lo + (hi - lo) * (float)(s >> 8) / 16777216.0f;
    }
}

/* fp16 round trips through the shim's own conversions. */
static void to_f16(const float *f, uint16_t *h, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        h[i] = aclFloatToFloat16(f[i]);
}

static float f16r(float f)
{
    return aclFloat16ToFloat(aclFloatToFloat16(f));
}

/* |got - want| <= atol + rtol |want| for every element. */
static void ck_close(const char *what, const float *got, const double *want, int64_t n, double atol, double rtol)
{
    for (int64_t i = 0; i < n; i++)
        ck_assert_msg(fabs(got[i] - want[i]) <= atol + rtol * fabs(want[i]), "%s[%lld]: got %.9g, want %.9g", what,
                      (long long)i, got[i], want[i]);
}

/* Run phase 2 and wait for the stream. */
#define RUN(call) do { CK_OK(call); CK_OK(aclrtSynchronizeStream(g_stream)); } while (0)

/* ---------------------------------------------------------------- element-wise */

/* fp32 add with alpha 1 and 1.5: bit-exact against x + (float)(alpha * y) in float. */
START_TEST(test_aclnn_add_fp32_exact)
{
    const float alphas[] = {1.0f, 1.5f};
    const int64_t dims[] = {4, 2048};
    const int64_t n = numel(dims, 2);
    float *x = malloc(n * 4), *y = malloc(n * 4), *z = malloc(n * 4);
    fill(x, n, 1, -100, 100);
    fill(y, n, 2, -100, 100);
    dt_t a = mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, x), b = mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, y);
    dt_t c = mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    aclScalar *alpha = aclCreateScalar((void *)&alphas[_i], ACL_FLOAT);
    uint64_t ws = 99;
    aclOpExecutor *e = NULL;
    CK_OK(aclnnAddGetWorkspaceSize(a.t, b.t, alpha, c.t, &ws, &e));
    ck_assert_uint_eq(ws, 0);
    RUN(aclnnAdd(NULL, 0, e, g_stream));
    rd(&c, z);
    for (int64_t i = 0; i < n; i++) {
        float t = alphas[_i] * y[i];
        float want = x[i] + t;
        ck_assert_msg(memcmp(&z[i], &want, 4) == 0, "alpha %g: z[%lld] = %.9g, want %.9g", alphas[_i], (long long)i,
                      z[i], want);
    }
    CK_OK(aclDestroyScalar(alpha));
    rm(&a);
    rm(&b);
    rm(&c);
    free(x);
    free(y);
    free(z);
}
END_TEST

/* fp16 add (odd size, a tail smaller than a 32-B block) and int32 add with an integer alpha: exact. */
START_TEST(test_aclnn_add_fp16_int32)
{
    const int64_t dims[] = {3, 37};
    const int64_t n = numel(dims, 2);
    float fx[111], fy[111];
    uint16_t hx[111], hy[111], hz[111];
    fill(fx, n, 3, -4, 4);
    fill(fy, n, 4, -4, 4);
    to_f16(fx, hx, n);
    to_f16(fy, hy, n);
    dt_t a = mk(dims, 2, ACL_FLOAT16, ACL_FORMAT_ND, hx), b = mk(dims, 2, ACL_FLOAT16, ACL_FORMAT_ND, hy);
    dt_t c = mk(dims, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    uint16_t one = aclFloatToFloat16(1.0f);
    aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT16);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnAddGetWorkspaceSize(a.t, b.t, alpha, c.t, &ws, &e));
    RUN(aclnnAdd(NULL, ws, e, g_stream));
    rd(&c, hz);
    for (int64_t i = 0; i < n; i++) {
        uint16_t want = aclFloatToFloat16(aclFloat16ToFloat(hx[i]) + aclFloat16ToFloat(hy[i]));
        ck_assert_msg(hz[i] == want, "fp16 z[%lld] = 0x%04x, want 0x%04x", (long long)i, hz[i], want);
    }
    CK_OK(aclDestroyScalar(alpha));
    rm(&a);
    rm(&b);
    rm(&c);

    int32_t ix[111], iy[111], iz[111];
    for (int i = 0; i < n; i++) {
        ix[i] = i * 7 - 300;
        iy[i] = 50 - i * 3;
    }
    a = mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, ix);
    b = mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, iy);
    c = mk(dims, 2, ACL_INT32, ACL_FORMAT_ND, NULL);
    int64_t three = 3;
    alpha = aclCreateScalar(&three, ACL_INT64);
    CK_OK(aclnnAddGetWorkspaceSize(a.t, b.t, alpha, c.t, &ws, &e));
    RUN(aclnnAdd(NULL, ws, e, g_stream));
    rd(&c, iz);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(iz[i], ix[i] + 3 * iy[i]);
    CK_OK(aclDestroyScalar(alpha));
    rm(&a);
    rm(&b);
    rm(&c);
}
END_TEST

/* mul (exact), relu (exact) and gelu (within the fp32 tolerance) on fp32. */
START_TEST(test_aclnn_mul_relu_gelu)
{
    const int64_t dims[] = {5, 7, 9};
    const int64_t n = numel(dims, 3);
    float x[315], y[315], z[315];
    double want[315];
    fill(x, n, 5, -3, 3);
    fill(y, n, 6, -3, 3);
    dt_t a = mk(dims, 3, ACL_FLOAT, ACL_FORMAT_ND, x), b = mk(dims, 3, ACL_FLOAT, ACL_FORMAT_ND, y);
    dt_t c = mk(dims, 3, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;

    CK_OK(aclnnMulGetWorkspaceSize(a.t, b.t, c.t, &ws, &e));
    RUN(aclnnMul(NULL, ws, e, g_stream));
    rd(&c, z);
    for (int64_t i = 0; i < n; i++)
        ck_assert_msg(z[i] == x[i] * y[i], "mul z[%lld] = %.9g, want %.9g", (long long)i, z[i], x[i] * y[i]);

    CK_OK(relu_ws_fn(a.t, c.t, &ws, &e));
    RUN(relu_fn(NULL, ws, e, g_stream));
    rd(&c, z);
    for (int64_t i = 0; i < n; i++)
        ck_assert_msg(z[i] == (x[i] > 0 ? x[i] : 0.0f), "relu z[%lld] = %.9g", (long long)i, z[i]);

    CK_OK(aclnnGeluGetWorkspaceSize(a.t, c.t, &ws, &e));
    RUN(aclnnGelu(NULL, ws, e, g_stream));
    rd(&c, z);
    for (int64_t i = 0; i < n; i++) {
        double v = x[i];
        want[i] = v / (1 + exp(-1.5957691216057308 * (v + 0.044715 * v * v * v)));
    }
    ck_close("gelu", z, want, n, 1e-5, 1e-4);
    rm(&a);
    rm(&b);
    rm(&c);
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
    dt_t sb = mk(bigd, 2, ACL_FLOAT, ACL_FORMAT_ND, big), ob = mk(od, 2, ACL_FLOAT, ACL_FORMAT_ND, other);
    dt_t zb = mk(bigd, 2, ACL_FLOAT, ACL_FORMAT_ND, outbuf);
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
    RUN(aclnnAdd(NULL, ws, e, g_stream));
    rd(&zb, got);
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
    rm(&sb);
    rm(&ob);
    rm(&zb);
}
END_TEST

/* A repeatable executor runs twice, the second time with inputs and output rebound; a 0-element
 * tensor gives an executor that queues nothing. */
START_TEST(test_aclnn_repeatable_executor)
{
    const int64_t dims[] = {64};
    float x[64], y[64], x2[64], z[64];
    fill(x, 64, 7, -1, 1);
    fill(y, 64, 8, -1, 1);
    fill(x2, 64, 9, -1, 1);
    dt_t a = mk(dims, 1, ACL_FLOAT, ACL_FORMAT_ND, x), b = mk(dims, 1, ACL_FLOAT, ACL_FORMAT_ND, y);
    dt_t a2 = mk(dims, 1, ACL_FLOAT, ACL_FORMAT_ND, x2);
    dt_t c = mk(dims, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL), c2 = mk(dims, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnMulGetWorkspaceSize(a.t, b.t, c.t, &ws, &e));
    CK_OK(aclSetAclOpExecutorRepeatable(e));
    RUN(aclnnMul(NULL, ws, e, g_stream));
    CK_OK(aclSetInputTensorAddr(e, 0, a.t, a2.dev));
    CK_OK(aclSetOutputTensorAddr(e, 0, NULL, c2.dev));
    CK_ERR(aclSetInputTensorAddr(e, 2, NULL, a2.dev), NN_INVALID, "index 2 is out of range");
    RUN(aclnnMul(NULL, ws, e, g_stream));
    rd(&c, z);
    for (int i = 0; i < 64; i++)
        ck_assert(z[i] == x[i] * y[i]);
    rd(&c2, z);
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
    RUN(aclnnRelu(NULL, ws, e, g_stream));
    CK_OK(aclDestroyTensor(ez));
    rm(&a);
    rm(&b);
    rm(&a2);
    rm(&c);
    rm(&c2);
}
END_TEST

/* ---------------------------------------------------------------- row-wise */

/* softmax over the last axis (dim -1 and dim ndim-1), fp32 and fp16. */
START_TEST(test_aclnn_softmax)
{
    const int64_t dims[] = {2, 3, 37};
    const int64_t n = numel(dims, 3), rows = 6, cols = 37;
    float x[222], z[222];
    double want[222];
    uint16_t h[222];
    fill(x, n, 10, -4, 4);
    const bool half = _i == 1;
    if (half) {
        for (int64_t i = 0; i < n; i++)
            x[i] = f16r(x[i]);
        to_f16(x, h, n);
    }
    aclDataType dt = half ? ACL_FLOAT16 : ACL_FLOAT;
    dt_t a = mk(dims, 3, dt, ACL_FORMAT_ND, half ? (void *)h : (void *)x), c = mk(dims, 3, dt, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnSoftmaxGetWorkspaceSize(a.t, half ? 2 : -1, c.t, &ws, &e));
    RUN(aclnnSoftmax(NULL, ws, e, g_stream));
    if (half) {
        rd(&c, h);
        for (int64_t i = 0; i < n; i++)
            z[i] = aclFloat16ToFloat(h[i]);
    } else {
        rd(&c, z);
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
    ck_close("softmax", z, want, n, half ? 1e-3 : 1e-5, half ? 4e-3 : 1e-4);
    rm(&a);
    rm(&c);
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
    fill(x, n, 11, -2, 3);
    fill(g, cols, 12, 0.5f, 1.5f);
    fill(bb, cols, 13, -0.5f, 0.5f);
    dt_t tx = mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, x), tg = mk(pd, 1, ACL_FLOAT, ACL_FORMAT_ND, g);
    dt_t tb = mk(pd, 1, ACL_FLOAT, ACL_FORMAT_ND, bb), ty = mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    dt_t tm = mk(sd, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), tr = mk(sd, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    aclIntArray *ns = aclCreateIntArray(&cols, 1);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnLayerNormGetWorkspaceSize(tx.t, ns, tg.t, tb.t, eps, ty.t, tm.t, tr.t, &ws, &e));
    ck_assert_uint_eq(ws, 0);
    RUN(aclnnLayerNorm(NULL, ws, e, g_stream));
    rd(&ty, y);
    rd(&tm, mean);
    rd(&tr, rstd);
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
    ck_close("layernorm y", y, want, n, 1e-5, 1e-4);
    ck_close("layernorm mean", mean, wm, rows, 1e-5, 1e-4);
    ck_close("layernorm rstd", rstd, wr, rows, 1e-5, 1e-4);

    /* without the statistics: no workspace either (the library's mean / rstd are not produced) */
    CK_OK(aclnnLayerNormGetWorkspaceSize(tx.t, ns, tg.t, tb.t, eps, ty.t, NULL, NULL, &ws, &e));
    ck_assert_uint_eq(ws, 0);
    RUN(aclnnLayerNorm(NULL, ws, e, g_stream));
    /* only rstd: mean goes to the workspace */
    CK_OK(aclnnLayerNormGetWorkspaceSize(tx.t, ns, tg.t, tb.t, eps, ty.t, NULL, tr.t, &ws, &e));
    ck_assert_uint_eq(ws, 512);
    void *wsp;
    CK_OK(aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST));
    RUN(aclnnLayerNorm(wsp, ws, e, g_stream));
    rd(&tr, rstd);
    ck_close("layernorm rstd (workspace mean)", rstd, wr, rows, 1e-5, 1e-4);
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
    RUN(aclnnLayerNorm(NULL, ws, e, g_stream));
    rd(&ty, y);
    ck_close("layernorm [5,3,11] over [3,11]", y, want, n, 1e-5, 1e-4);
    CK_OK(aclDestroyIntArray(ns3));
    CK_OK(aclDestroyTensor(x3));
    CK_OK(aclDestroyTensor(y3));
    CK_OK(aclDestroyTensor(g3));
    CK_OK(aclDestroyTensor(b3));
    CK_OK(aclDestroyIntArray(ns));
    rm(&tx);
    rm(&tg);
    rm(&tb);
    rm(&ty);
    rm(&tm);
    rm(&tr);
}
END_TEST

/* Inference batch norm on NCHW fp32 with eps 1e-3. */
START_TEST(test_aclnn_batchnorm)
{
    const int64_t dims[] = {2, 3, 4, 5}, cd[] = {3};
    const int64_t n = numel(dims, 4), C = 3, HW = 20;
    const double eps = 1e-3;
    float x[120], y[120], g[3], b[3], m[3], v[3];
    double want[120];
    fill(x, n, 14, -2, 2);
    fill(g, C, 15, 0.5f, 1.5f);
    fill(b, C, 16, -0.5f, 0.5f);
    fill(m, C, 17, -0.5f, 0.5f);
    fill(v, C, 18, 0.5f, 2.0f);
    dt_t tx = mk(dims, 4, ACL_FLOAT, ACL_FORMAT_NCHW, x), ty = mk(dims, 4, ACL_FLOAT, ACL_FORMAT_NCHW, NULL);
    dt_t tg = mk(cd, 1, ACL_FLOAT, ACL_FORMAT_ND, g), tb = mk(cd, 1, ACL_FLOAT, ACL_FORMAT_ND, b);
    dt_t tm = mk(cd, 1, ACL_FLOAT, ACL_FORMAT_ND, m), tv = mk(cd, 1, ACL_FLOAT, ACL_FORMAT_ND, v);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnBatchNormGetWorkspaceSize(tx.t, tg.t, tb.t, tm.t, tv.t, false, 0.1, eps, ty.t, NULL, NULL, &ws, &e));
    RUN(aclnnBatchNorm(NULL, ws, e, g_stream));
    rd(&ty, y);
    for (int64_t i = 0; i < n; i++) {
        int64_t c = i / HW % C;
        want[i] = (x[i] - m[c]) / sqrt(v[c] + eps) * g[c] + b[c];
    }
    ck_close("batchnorm", y, want, n, 1e-5, 1e-4);
    rm(&tx);
    rm(&ty);
    rm(&tg);
    rm(&tb);
    rm(&tm);
    rm(&tv);
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
    setup_profile(_i < 2 ? NULL : "ascend310");
    const int64_t M = 20, K = 40, N = 24;
    float a[800], b[960], bt[960], c[480];
    double want[480];
    uint16_t ha[800], hb[960];
    fill(a, M * K, 20, -1, 1);
    fill(b, K * N, 21, -1, 1);
    const bool half = _i % 2 == 0;
    if (half) {
        for (int i = 0; i < M * K; i++)
            a[i] = f16r(a[i]);
        for (int i = 0; i < K * N; i++)
            b[i] = f16r(b[i]);
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
        to_f16(a, ha, M * K);
        dt_t ta = mk(ad, 2, dt, ACL_FORMAT_ND, ha), tc = mk(cd, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        for (int layout = 0; layout < 2; layout++) {
            to_f16(layout ? bt : b, hb, K * N);
            dt_t tb = mk(layout ? btd : bd, 2, dt, ACL_FORMAT_ND, hb);
            aclTensor *mat2 = layout ? aclCreateTensor(bd, 2, dt, bts, 0, ACL_FORMAT_ND, btd, 2, tb.dev) : tb.t;
            CK_OK(aclnnMatmulGetWorkspaceSize(ta.t, mat2, tc.t, 0, &ws, &e));
            ck_assert_uint_eq(ws, 0);
            RUN(aclnnMatmul(NULL, ws, e, g_stream));
            rd(&tc, c);
            ck_close(layout ? "matmul fp16 (mat2 transposed view)" : "matmul fp16", c, want, M * N, 1e-4, 1e-4);
            if (layout)
                CK_OK(aclDestroyTensor(mat2));
            rm(&tb);
        }
        rm(&ta);
        rm(&tc);
    } else {
        dt_t ta = mk(ad, 2, dt, ACL_FORMAT_ND, a), tb = mk(bd, 2, dt, ACL_FORMAT_ND, b);
        dt_t tc = mk(cd, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
        CK_OK(aclnnMatmulGetWorkspaceSize(ta.t, tb.t, tc.t, 1, &ws, &e));
        RUN(aclnnMatmul(NULL, ws, e, g_stream));
        rd(&tc, c);
        ck_close("matmul fp32", c, want, M * N, 1e-4, 1e-4);
        rm(&ta);
        rm(&tb);
        rm(&tc);
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
    setup_profile(_i ? "ascend310" : NULL);
    const int64_t xd[] = {2, 5, 9, 7}, wd[] = {6, 5, 3, 3}, yd[] = {2, 6, 5, 4};
    const int64_t nx = numel(xd, 4), nw = numel(wd, 4), ny = numel(yd, 4);
    float x[630], w[270], y[240];
    double want[240];
    uint16_t hx[630], hw[270], hy[240];
    fill(x, nx, 30, -1, 1);
    fill(w, nw, 31, -0.3f, 0.3f);
    for (int64_t i = 0; i < nx; i++)
        x[i] = f16r(x[i]);
    for (int64_t i = 0; i < nw; i++)
        w[i] = f16r(w[i]);
    to_f16(x, hx, nx);
    to_f16(w, hw, nw);
    conv_ref(x, w, want, xd, wd, yd, 2, 1);
    dt_t tx = mk(xd, 4, ACL_FLOAT16, ACL_FORMAT_NCHW, hx), tw = mk(wd, 4, ACL_FLOAT16, ACL_FORMAT_NCHW, hw);
    dt_t ty = mk(yd, 4, ACL_FLOAT16, ACL_FORMAT_NCHW, NULL);
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
    RUN(conv_fn(wsp, ws, e, g_stream));
    rd(&ty, hy);
    for (int64_t i = 0; i < ny; i++)
        y[i] = aclFloat16ToFloat(hy[i]);
    ck_close("conv2d", y, want, ny, 2e-3, 8e-3);
    CK_OK(aclrtFree(wsp));
    CK_OK(aclDestroyIntArray(st));
    CK_OK(aclDestroyIntArray(pd));
    CK_OK(aclDestroyIntArray(dl));
    CK_OK(aclDestroyIntArray(op));
    rm(&tx);
    rm(&tw);
    rm(&ty);
}
END_TEST

/* The launch reaches the profile: op type, aclnn op name, shapes, dtypes and formats. */
START_TEST(test_aclnn_profile_columns)
{
    char dir[] = "/tmp/dvsim_aclnn_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    teardown();
    env_clear();
    setenv("DVSIM_PROFILE_OUT", dir, 1);
    CK_OK(aclInit(NULL));
    CK_OK(aclrtSetDevice(0));
    CK_OK(aclrtCreateStream(&g_stream));
    const int64_t dims[] = {4, 2048};
    dt_t a = mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), c = mk(dims, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnReluGetWorkspaceSize(a.t, c.t, &ws, &e));
    RUN(aclnnRelu(NULL, ws, e, g_stream));
    rm(&a);
    rm(&c);
    teardown();
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
    setup_profile(NULL); /* for the fixture's teardown */
}
END_TEST

/* ---------------------------------------------------------------- object errors */

START_TEST(test_aclnn_tensor_errors)
{
    const int64_t dims[] = {2, 3}, neg[] = {2, -1}, many[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    ck_assert_ptr_null(aclCreateTensor(NULL, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 2, NULL));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "viewDims is NULL but viewDimsNum is 2"));
    ck_assert_ptr_null(aclCreateTensor(many, 9, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, many, 9, NULL));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "at most 8 dimensions"));
    ck_assert_ptr_null(aclCreateTensor(neg, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 2, NULL));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "viewDims[1] is -1"));
    ck_assert_ptr_null(aclCreateTensor(dims, 2, ACL_FLOAT, neg, 0, ACL_FORMAT_ND, dims, 2, NULL));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "stride[1] is -1"));
    ck_assert_ptr_null(aclCreateTensor(dims, 2, ACL_FLOAT, NULL, -4, ACL_FORMAT_ND, dims, 2, NULL));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "offset is -4"));
    ck_assert_ptr_null(aclCreateTensor(dims, 2, (aclDataType)5, NULL, 0, ACL_FORMAT_ND, dims, 2, NULL));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "dataType 5"));
    ck_assert_ptr_null(aclCreateTensor(dims, 2, ACL_INT4, NULL, 0, ACL_FORMAT_ND, dims, 2, NULL));
    ck_assert_ptr_null(aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, (aclFormat)7, dims, 2, NULL));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "format 7"));
    ck_assert_ptr_null(aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 2, NULL));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "storageDims is NULL"));

    /* a 0-d tensor, properties, and destroying NULL or the wrong kind of object */
    aclTensor *t = aclCreateTensor(NULL, 0, ACL_BF16, NULL, 0, ACL_FORMAT_NCHW, NULL, 0, NULL);
    ck_assert_ptr_nonnull(t);
    aclDataType dt;
    aclFormat fmt;
    CK_OK(aclGetDataType(t, &dt));
    CK_OK(aclGetFormat(t, &fmt));
    ck_assert_int_eq(dt, ACL_BF16);
    ck_assert_int_eq(fmt, ACL_FORMAT_NCHW);
    CK_ERR(aclGetDataType(t, NULL), NN_NULLPTR, "dataType is NULL");
    CK_ERR(aclGetFormat(NULL, &fmt), NN_NULLPTR, "tensor is NULL");
    CK_OK(aclSetRawTensorAddr(t, (void *)0x1234));
    void *addr;
    CK_OK(aclGetRawTensorAddr(t, &addr));
    ck_assert_ptr_eq(addr, (void *)0x1234);
    CK_OK(destroy_tensor_fn(t));
    CK_ERR(aclDestroyTensor(NULL), NN_NULLPTR, "aclDestroyTensor: tensor is NULL");
    float v = 1;
    aclScalar *s = aclCreateScalar(&v, ACL_FLOAT);
    CK_ERR(aclDestroyTensor((const aclTensor *)s), NN_INVALID, "not a live aclTensor");
    CK_ERR(aclDestroyIntArray((const aclIntArray *)s), NN_INVALID, "not a live aclIntArray");
    CK_OK(aclDestroyScalar(s));
}
END_TEST

START_TEST(test_aclnn_scalar_array_errors)
{
    ck_assert_ptr_null(aclCreateScalar(NULL, ACL_FLOAT));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "value is NULL"));
    int v = 3;
    ck_assert_ptr_null(aclCreateScalar(&v, ACL_STRING));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "not a scalar type"));
    CK_ERR(aclDestroyScalar(NULL), NN_NULLPTR, "scalar is NULL");
    ck_assert_ptr_null(aclCreateIntArray(NULL, 3));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "aclCreateIntArray: value is NULL but size is 3"));
    ck_assert_ptr_null(aclCreateFloatArray(NULL, 1));
    ck_assert_ptr_null(aclCreateBoolArray(NULL, 1));
    aclIntArray *empty = aclCreateIntArray(NULL, 0);
    ck_assert_ptr_nonnull(empty);
    uint64_t n = 9;
    CK_OK(aclGetIntArraySize(empty, &n));
    ck_assert_uint_eq(n, 0);
    CK_OK(aclDestroyIntArray(empty));
    const float f[] = {1, 2};
    const bool b[] = {true};
    aclFloatArray *fa = aclCreateFloatArray(f, 2);
    aclBoolArray *ba = aclCreateBoolArray(b, 1);
    ck_assert(fa && ba);
    CK_ERR(aclDestroyBoolArray((const aclBoolArray *)fa), NN_INVALID, "not a live aclBoolArray");
    CK_OK(aclDestroyFloatArray(fa));
    CK_OK(aclDestroyBoolArray(ba));
    CK_ERR(aclDestroyFloatArray(NULL), NN_NULLPTR, "array is NULL");
    CK_ERR(aclDestroyAclOpExecutor(NULL), NN_NULLPTR, "executor is NULL");
    CK_ERR(aclSetAclOpExecutorRepeatable(NULL), NN_NULLPTR, "executor is NULL");
    CK_OK(aclnnInit(NULL));
    CK_OK(aclnnFinalize());
}
END_TEST

/* ---------------------------------------------------------------- operator errors */

/* Tensors for the element-wise checks: a, b [4, 8] fp32, i8 int8, bad [4, 7], h fp16, nz FRACTAL_NZ. */
typedef struct ew_set {
    dt_t a, b, c, bad, h, i8;
    aclTensor *nz, *nodata;
    aclScalar *one, *half;
} ew_set_t;

static void ew_make(ew_set_t *s)
{
    const int64_t d[] = {4, 8}, bd[] = {4, 7};
    s->a = mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    s->b = mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    s->c = mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    s->bad = mk(bd, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    s->h = mk(d, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    s->i8 = mk(d, 2, ACL_INT8, ACL_FORMAT_ND, NULL);
    s->nz = aclCreateTensor(d, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_FRACTAL_NZ, d, 2, s->a.dev);
    s->nodata = aclCreateTensor(d, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 2, NULL);
    float one = 1.0f, half = 0.5f;
    s->one = aclCreateScalar(&one, ACL_FLOAT);
    s->half = aclCreateScalar(&half, ACL_FLOAT);
}

static void ew_free(ew_set_t *s)
{
    rm(&s->a);
    rm(&s->b);
    rm(&s->c);
    rm(&s->bad);
    rm(&s->h);
    rm(&s->i8);
    CK_OK(aclDestroyTensor(s->nz));
    CK_OK(aclDestroyTensor(s->nodata));
    CK_OK(aclDestroyScalar(s->one));
    CK_OK(aclDestroyScalar(s->half));
}

START_TEST(test_aclnn_elementwise_errors)
{
    ew_set_t s;
    ew_make(&s);
    uint64_t ws;
    aclOpExecutor *e;
    CK_ERR(aclnnAddGetWorkspaceSize(NULL, s.b.t, s.one, s.c.t, &ws, &e), NN_NULLPTR, "self is NULL");
    CK_ERR(aclnnAddGetWorkspaceSize(s.a.t, NULL, s.one, s.c.t, &ws, &e), NN_NULLPTR, "other is NULL");
    CK_ERR(aclnnAddGetWorkspaceSize(s.a.t, s.b.t, NULL, s.c.t, &ws, &e), NN_NULLPTR, "alpha is NULL");
    CK_ERR(aclnnAddGetWorkspaceSize(s.a.t, s.b.t, s.one, NULL, &ws, &e), NN_NULLPTR, "out is NULL");
    CK_ERR(aclnnAddGetWorkspaceSize(s.a.t, s.b.t, s.one, s.c.t, NULL, &e), NN_NULLPTR, "workspaceSize is NULL");
    CK_ERR(aclnnAddGetWorkspaceSize(s.a.t, s.b.t, s.one, s.c.t, &ws, NULL), NN_NULLPTR, "executor is NULL");
    CK_ERR(aclnnAddGetWorkspaceSize(s.a.t, s.bad.t, s.one, s.c.t, &ws, &e), NN_INVALID,
           "other has shape [4,7] but self has [4,8]; dvsim does not broadcast");
    CK_ERR(aclnnMulGetWorkspaceSize(s.a.t, s.b.t, s.bad.t, &ws, &e), NN_INVALID, "out has shape [4,7]");
    CK_ERR(aclnnMulGetWorkspaceSize(s.a.t, s.h.t, s.c.t, &ws, &e), NN_INVALID,
           "other has dtype ACL_FLOAT16 but self has ACL_FLOAT");
    CK_ERR(aclnnReluGetWorkspaceSize(s.i8.t, s.i8.t, &ws, &e), NN_INVALID,
           "self has dtype ACL_INT8; dvsim's relu takes ACL_FLOAT, ACL_FLOAT16, ACL_INT32");
    CK_ERR(aclnnGeluGetWorkspaceSize(s.nz, s.c.t, &ws, &e), NN_INVALID, "self has format FORMAT_FRACTAL_NZ");
    CK_ERR(aclnnGeluGetWorkspaceSize(s.a.t, (aclTensor *)s.one, &ws, &e), NN_INVALID, "out is not a live aclTensor");
    /* the library's own checks pass through: int32 add with a fractional alpha */
    const int64_t d[] = {4, 8};
    dt_t i32 = mk(d, 2, ACL_INT32, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnAddGetWorkspaceSize(i32.t, i32.t, s.half, i32.t, &ws, &e), NN_INVALID, "--alpha");
    rm(&i32);

    /* phase 2: NULL executor, a tensor without an address, an executor of another operator */
    CK_ERR(aclnnAdd(NULL, 0, NULL, g_stream), NN_NULLPTR, "aclnnAdd: executor is NULL");
    CK_OK(aclnnAddGetWorkspaceSize(s.nodata, s.b.t, s.one, s.c.t, &ws, &e));
    CK_ERR(aclnnAdd(NULL, ws, e, g_stream), NN_INVALID, "self has no device address");
    CK_OK(aclnnAddGetWorkspaceSize(s.a.t, s.b.t, s.one, s.c.t, &ws, &e));
    CK_ERR(aclnnMul(NULL, ws, e, g_stream), NN_INVALID, "made by aclnnAddGetWorkspaceSize");
    /* a view larger than its allocation */
    const int64_t big[] = {40, 80};
    aclTensor *over = aclCreateTensor(big, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, big, 2, s.a.dev);
    CK_OK(aclnnReluGetWorkspaceSize(over, over, &ws, &e));
    CK_ERR(aclnnRelu(NULL, ws, e, g_stream), NN_INVALID, "aclnnRelu: self spans 12800 bytes");
    CK_OK(aclDestroyTensor(over));
    ew_free(&s);
}
END_TEST

/* Before aclrtSetDevice every first phase is a runtime error. */
START_TEST(test_aclnn_no_device)
{
    teardown();
    env_clear();
    const int64_t d[] = {4};
    aclTensor *t = aclCreateTensor(d, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 1, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_ERR(aclnnReluGetWorkspaceSize(t, t, &ws, &e), NN_RUNTIME, "aclnnReluGetWorkspaceSize");
    CK_OK(aclInit(NULL));
    CK_ERR(aclnnReluGetWorkspaceSize(t, t, &ws, &e), NN_RUNTIME, "aclnnReluGetWorkspaceSize");
    CK_OK(aclDestroyTensor(t));
    aclFinalize();
    setup_profile(NULL);
}
END_TEST

START_TEST(test_aclnn_norm_errors)
{
    const int64_t d[] = {4, 8}, wd[] = {8}, sd[] = {4}, d3[] = {2, 3, 4}, nd[] = {2, 3, 4, 5}, cd[] = {3};
    const int64_t eight = 8, seven = 7;
    dt_t x = mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), y = mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    dt_t w = mk(wd, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL), wh = mk(wd, 1, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    dt_t st = mk(sd, 1, ACL_FLOAT16, ACL_FORMAT_ND, NULL), x3 = mk(d3, 3, ACL_FLOAT, ACL_FORMAT_NCHW, NULL);
    aclIntArray *ns = aclCreateIntArray(&eight, 1), *bad = aclCreateIntArray(&seven, 1);
    uint64_t ws;
    aclOpExecutor *e;
    CK_ERR(aclnnSoftmaxGetWorkspaceSize(x.t, 0, y.t, &ws, &e), NN_INVALID, "dim is 0; dvsim's softmax normalises "
           "the last axis only (dim -1 or 1)");
    CK_ERR(aclnnSoftmaxGetWorkspaceSize(x.t, -1, NULL, &ws, &e), NN_NULLPTR, "out is NULL");
    CK_ERR(aclnnLayerNormGetWorkspaceSize(x.t, ns, NULL, w.t, 1e-5, y.t, NULL, NULL, &ws, &e), NN_INVALID,
           "weight is NULL: layer norm without a weight is not supported by dvsim");
    CK_ERR(aclnnLayerNormGetWorkspaceSize(x.t, ns, w.t, NULL, 1e-5, y.t, NULL, NULL, &ws, &e), NN_INVALID,
           "bias is NULL");
    CK_ERR(aclnnLayerNormGetWorkspaceSize(x.t, NULL, w.t, w.t, 1e-5, y.t, NULL, NULL, &ws, &e), NN_NULLPTR,
           "normalizedShape is NULL");
    CK_ERR(aclnnLayerNormGetWorkspaceSize(x.t, bad, w.t, w.t, 1e-5, y.t, NULL, NULL, &ws, &e), NN_INVALID,
           "normalizedShape (1 values) must be the trailing dims of input [4,8]");
    CK_ERR(aclnnLayerNormGetWorkspaceSize(x.t, ns, wh.t, w.t, 1e-5, y.t, NULL, NULL, &ws, &e), NN_INVALID,
           "weight has dtype ACL_FLOAT16 but input has ACL_FLOAT");
    CK_ERR(aclnnLayerNormGetWorkspaceSize(x.t, ns, w.t, w.t, 1e-5, y.t, st.t, NULL, &ws, &e), NN_INVALID,
           "meanOut has dtype ACL_FLOAT16; dvsim gives the statistics in ACL_FLOAT");
    CK_ERR(aclnnLayerNormGetWorkspaceSize(x.t, ns, w.t, w.t, 2.0, y.t, NULL, NULL, &ws, &e), NN_INVALID, "--eps");
    /* a plan error from the library: a row that does not fit the UB */
    const int64_t wide[] = {2, 100000}, wided[] = {100000};
    const int64_t cols = 100000;
    dt_t xw = mk(wide, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), ww = mk(wided, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    aclIntArray *nw = aclCreateIntArray(&cols, 1);
    CK_ERR(aclnnLayerNormGetWorkspaceSize(xw.t, nw, ww.t, ww.t, 1e-5, xw.t, NULL, NULL, &ws, &e), NN_INVALID,
           "the operator library rejects `layernorm --shape 2x100000 --dtype fp32`: --shape: a row of 100000");
    CK_OK(aclDestroyIntArray(nw));
    rm(&xw);
    rm(&ww);

    /* batch norm */
    dt_t bx = mk(nd, 4, ACL_FLOAT, ACL_FORMAT_NCHW, NULL), bc = mk(cd, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    dt_t bxh = mk(nd, 4, ACL_FLOAT, ACL_FORMAT_NHWC, NULL);
    CK_ERR(aclnnBatchNormGetWorkspaceSize(bx.t, bc.t, bc.t, bc.t, bc.t, true, 0.1, 1e-5, bx.t, NULL, NULL, &ws, &e),
           NN_INVALID, "training is true; dvsim's batchnorm is inference only");
    CK_ERR(aclnnBatchNormGetWorkspaceSize(bx.t, bc.t, bc.t, NULL, bc.t, false, 0.1, 1e-5, bx.t, NULL, NULL, &ws, &e),
           NN_INVALID, "runningMean is NULL");
    CK_ERR(aclnnBatchNormGetWorkspaceSize(x3.t, bc.t, bc.t, bc.t, bc.t, false, 0.1, 1e-5, x3.t, NULL, NULL, &ws, &e),
           NN_INVALID, "input has 3 dimensions; NCHW needs 4");
    CK_ERR(aclnnBatchNormGetWorkspaceSize(bxh.t, bc.t, bc.t, bc.t, bc.t, false, 0.1, 1e-5, bxh.t, NULL, NULL, &ws,
                                          &e), NN_INVALID, "input has format FORMAT_NHWC");
    CK_ERR(aclnnBatchNormGetWorkspaceSize(bx.t, bc.t, bc.t, bc.t, w.t, false, 0.1, 1e-5, bx.t, NULL, NULL, &ws, &e),
           NN_INVALID, "runningVar has shape [8] (8 elements); it needs 3 (one per channel C)");
    rm(&bx);
    rm(&bc);
    rm(&bxh);
    CK_OK(aclDestroyIntArray(ns));
    CK_OK(aclDestroyIntArray(bad));
    rm(&x);
    rm(&y);
    rm(&w);
    rm(&wh);
    rm(&st);
    rm(&x3);
}
END_TEST

START_TEST(test_aclnn_cube_errors)
{
    const int64_t ad[] = {4, 8}, bd[] = {8, 16}, cd[] = {4, 16}, b3[] = {2, 8, 16}, wrong[] = {4, 15};
    dt_t a = mk(ad, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL), b = mk(bd, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    dt_t c = mk(cd, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL), c32 = mk(cd, 2, ACL_INT32, ACL_FORMAT_ND, NULL);
    dt_t bb = mk(b3, 3, ACL_FLOAT16, ACL_FORMAT_ND, NULL), cw = mk(wrong, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_ERR(aclnnMatmulGetWorkspaceSize(a.t, NULL, c.t, 0, &ws, &e), NN_NULLPTR, "mat2 is NULL");
    CK_ERR(aclnnMatmulGetWorkspaceSize(a.t, bb.t, c.t, 0, &ws, &e), NN_INVALID,
           "mat2 has 3 dimensions; dvsim's aclnnMatmul takes 2-D tensors only");
    CK_ERR(aclnnMatmulGetWorkspaceSize(a.t, b.t, cw.t, 0, &ws, &e), NN_INVALID,
           "shapes do not match: self [4,8] x mat2 [8,16] -> out [4,15]");
    CK_ERR(aclnnMatmulGetWorkspaceSize(a.t, b.t, c.t, 7, &ws, &e), NN_INVALID, "cubeMathType 7");
    CK_ERR(aclnnMatmulGetWorkspaceSize(a.t, b.t, c32.t, 0, &ws, &e), NN_INVALID,
           "the operator library rejects `matmul --m 4 --n 16 --k 8 --dtype fp16 --out-dtype int32");

    /* convolution */
    const int64_t xd[] = {1, 2, 6, 6}, wd[] = {4, 2, 3, 3}, yd[] = {1, 4, 6, 6}, yb[] = {1, 4, 5, 5};
    const int64_t one = 1, two[] = {1, 2}, four = 4;
    dt_t x = mk(xd, 4, ACL_FLOAT16, ACL_FORMAT_NCHW, NULL), w = mk(wd, 4, ACL_FLOAT16, ACL_FORMAT_NCHW, NULL);
    dt_t y = mk(yd, 4, ACL_FLOAT16, ACL_FORMAT_NCHW, NULL), ybad = mk(yb, 4, ACL_FLOAT16, ACL_FORMAT_NCHW, NULL);
    dt_t bias = mk(&four, 1, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    aclIntArray *s1 = aclCreateIntArray(&one, 1), *s12 = aclCreateIntArray(two, 2);
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, bias.t, s1, s1, s1, false, s1, 1, y.t, 0, &ws, &e), NN_INVALID,
           "bias is not supported by dvsim's convolution");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s12, s1, s1, false, s1, 1, y.t, 0, &ws, &e), NN_INVALID,
           "stride is (1, 2): dvsim's conv2d takes the same value on every axis");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s1, s1, NULL, false, s1, 1, y.t, 0, &ws, &e), NN_NULLPTR,
           "dilation is NULL");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s1, s1, s1, false, s1, 2, y.t, 0, &ws, &e), NN_INVALID,
           "groups is 2");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s1, s1, s1, true, s1, 1, y.t, 0, &ws, &e), NN_INVALID,
           "transposed is true");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s1, s1, s1, false, s1, 1, ybad.t, 0, &ws, &e),
           NN_INVALID, "output has shape [1,4,5,5]; the convolution gives [1,4,6,6]");
    /* phase 2: the workspace it needs */
    CK_OK(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s1, s1, s1, false, s1, 1, y.t, 0, &ws, &e));
    ck_assert_uint_gt(ws, 0);
    CK_ERR(aclnnConvolution(NULL, ws, e, g_stream), NN_INVALID, "workspace is NULL but the operator needs");
    CK_OK(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s1, s1, s1, false, s1, 1, y.t, 0, &ws, &e));
    void *wsp;
    CK_OK(aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST));
    CK_ERR(aclnnConvolution(wsp, ws - 1, e, g_stream), NN_INVALID, "workspaceSize is");
    CK_OK(aclrtFree(wsp));
    CK_OK(aclDestroyIntArray(s1));
    CK_OK(aclDestroyIntArray(s12));
    rm(&a);
    rm(&b);
    rm(&c);
    rm(&c32);
    rm(&bb);
    rm(&cw);
    rm(&x);
    rm(&w);
    rm(&y);
    rm(&ybad);
    rm(&bias);
}
END_TEST

static void setup(void)
{
    setup_profile(NULL);
}

Suite *dv_aclnn_suite(void)
{
    Suite *s = suite_create("aclnn");
    TCase *tc = tcase_create("aclnn");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_aclnn_add_fp32_exact, 0, 2);
    tcase_add_test(tc, test_aclnn_add_fp16_int32);
    tcase_add_test(tc, test_aclnn_mul_relu_gelu);
    tcase_add_test(tc, test_aclnn_strided_views);
    tcase_add_test(tc, test_aclnn_repeatable_executor);
    tcase_add_loop_test(tc, test_aclnn_softmax, 0, 2);
    tcase_add_test(tc, test_aclnn_layernorm);
    tcase_add_test(tc, test_aclnn_batchnorm);
    tcase_add_test(tc, test_aclnn_profile_columns);
    tcase_add_test(tc, test_aclnn_tensor_errors);
    tcase_add_test(tc, test_aclnn_scalar_array_errors);
    tcase_add_test(tc, test_aclnn_elementwise_errors);
    tcase_add_test(tc, test_aclnn_no_device);
    tcase_add_test(tc, test_aclnn_norm_errors);
    tcase_add_test(tc, test_aclnn_cube_errors);
    suite_add_tcase(s, tc);

    /* the cube operators on both chip layouts: each test picks its profile */
    TCase *tp = tcase_create("aclnn_profiles");
    tcase_add_checked_fixture(tp, NULL, teardown);
    tcase_set_timeout(tp, 120);
    tcase_add_loop_test(tp, test_aclnn_matmul, 0, 4);
    tcase_add_loop_test(tp, test_aclnn_convolution, 0, 2);
    suite_add_tcase(s, tp);
    return s;
}
