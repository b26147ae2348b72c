/* tests/check_ascendc_act.cpp - the activation high-level APIs of dvsim's Ascend C (include/ascendc/adv/activation.h,
 * activation_tiling.h): kernels run through the AscendCL shim and their outputs compared with plain C++ references
 * in double; the host functions against figures worked out by hand from CANN's formulas; the located errors. */
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "ascendc/kernel_operator.h"
#include "ascendc/tiling/tiling_api.h"

#include <check.h> /* last: Check defines `fail`, which <ios> (through tiling_api.h) uses as a name */
#include "support/ascendc_session.h"

using namespace AscendC;

namespace {

using dvtest::Session;
using dvtest::Dev;

uint64_t g_rng = 0x2545f4914f6cdd1dull;
std::vector<float> data(size_t n, double lo, double hi)
{
    std::vector<float> v(n);
    for (auto &x : v) {
        g_rng ^= g_rng << 13;
        g_rng ^= g_rng >> 7;
        g_rng ^= g_rng << 17;
        x = (float)(lo + (double)(g_rng >> 11) / 9007199254740992.0 * (hi - lo));
    }
    return v;
}

/* |got - want| within abs or rel of want, element by element. */
void near(const std::vector<float> &got, const std::vector<double> &want, double tol, const char *what)
{
    ck_assert_uint_ge(got.size(), want.size());
    for (size_t i = 0; i < want.size(); i++) {
        const double e = std::fabs((double)got[i] - want[i]);
        ck_assert_msg(e <= tol || e <= tol * std::fabs(want[i]), "%s: element %zu is %.9g, expected %.9g", what, i,
                      (double)got[i], want[i]);
    }
}

/* One kernel for every test: x and y (nIn floats each) and z (nOut floats, prefilled) in UB, a temporary buffer of
 * tmpBytes (none when 0: the API takes the rest of UB), OP::run(z, x, y, tmp, nIn, arg), z back to GM. */
template <class OP>
__global__ __aicore__ void k_act(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t nIn, uint32_t nOut, uint32_t tmpBytes,
                                 uint32_t arg)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz, bt;
    pipe.InitBuffer(bx, nIn * 4);
    pipe.InitBuffer(by, nIn * 4);
    pipe.InitBuffer(bz, nOut * 4);
    LocalTensor<uint8_t> tmp;
    if (tmpBytes) {
        pipe.InitBuffer(bt, tmpBytes);
        tmp = bt.Get<uint8_t>();
    }
    GlobalTensor<float> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ float *)x, nIn);
    gy.SetGlobalBuffer((__gm__ float *)y, nIn);
    gz.SetGlobalBuffer((__gm__ float *)z, nOut);
    LocalTensor<float> lx = bx.Get<float>(), ly = by.Get<float>(), lz = bz.Get<float>();
    DataCopy(lx, gx, nIn);
    DataCopy(ly, gy, nIn);
    DataCopy(lz, gz, nOut);
    int32_t ev = pipe.FetchEventID(HardEvent::MTE2_V);
    SetFlag<HardEvent::MTE2_V>(ev);
    WaitFlag<HardEvent::MTE2_V>(ev);
    OP::run(lz, lx, ly, tmp, nIn, arg);
    ev = pipe.FetchEventID(HardEvent::V_MTE3);
    SetFlag<HardEvent::V_MTE3>(ev);
    WaitFlag<HardEvent::V_MTE3>(ev);
    DataCopy(gz, lz, nOut);
}

/* Run k_act<OP>; z starts as zf.  Returns z, or (status != NULL) the kernel's status there. */
template <class OP>
std::vector<float> run(Session &s, const std::vector<float> &x, const std::vector<float> &y,
                       const std::vector<float> &zf, uint32_t tmpBytes, uint32_t arg = 0, int *status = nullptr)
{
    Dev<float> dx(x), dy(y), dz(zf);
    ck_assert_int_eq(::dvac::launch(k_act<OP>, "k_act", 1, nullptr, s.stream)(
                         dx.gm(), dy.gm(), dz.gm(), (uint32_t)x.size(), (uint32_t)zf.size(), tmpBytes, arg),
                     0);
    const int rc = aclrtSynchronizeStream(s.stream);
    if (status)
        *status = rc;
    else
        ck_assert_msg(rc == 0, "kernel failed: %s", aclGetRecentErrMsg());
    return dz.get();
}

double sigm(double v) { return 1.0 / (1.0 + std::exp(-v)); }

/* ---- the element-wise APIs (arg: the element count; tmp as given) ---- */
struct OpGelu {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &, LocalTensor<uint8_t> &t,
                    uint32_t, uint32_t n)
    {
        if (t.GetSize())
            Gelu(z, x, t, n);
        else
            Gelu(z, x, n);
    }
};
struct OpFasterGelu {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &, LocalTensor<uint8_t> &t,
                    uint32_t, uint32_t n)
    {
        FasterGelu<float, false, true>(z, x, t, n);
    }
};
struct OpSigmoid {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &, LocalTensor<uint8_t> &t,
                    uint32_t, uint32_t n)
    {
        if (t.GetSize())
            Sigmoid(z, x, t, n);
        else
            Sigmoid(z, x, n);
    }
};
struct OpSilu {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &, LocalTensor<uint8_t> &,
                    uint32_t, uint32_t n)
    {
        Silu(z, x, n);
    }
};
struct OpSwish {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &, LocalTensor<uint8_t> &,
                    uint32_t, uint32_t n)
    {
        Swish(z, x, n, 1.5f);
    }
};
struct OpSwiGLU {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, LocalTensor<uint8_t> &t,
                    uint32_t, uint32_t n)
    {
        if (t.GetSize())
            SwiGLU(z, x, y, 0.75f, t, n);
        else
            SwiGLU(z, x, y, 0.75f, n);
    }
};
struct OpGeGLU {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, LocalTensor<uint8_t> &,
                    uint32_t, uint32_t n)
    {
        GeGLU(z, x, y, n);
    }
};
/* half: x converted in the kernel, the API on half, the result back to float */
struct OpSigmoidHalf {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, LocalTensor<uint8_t> &t,
                    uint32_t nIn, uint32_t n)
    {
        LocalTensor<half> hx = y.ReinterpretCast<half>(), hz = hx[nIn];
        Cast(hx, x, RoundMode::CAST_NONE, nIn);
        PipeBarrier<PIPE_V>();
        Sigmoid(hz, hx, t, n);
        PipeBarrier<PIPE_V>();
        Cast(z, hz, RoundMode::CAST_NONE, nIn);
    }
};

/* SwiGLU / GeGLU on half: x and y converted, z = the result back in float (half through float pieces) */
template <bool swi> struct OpGluHalf {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, LocalTensor<uint8_t> &t,
                    uint32_t nIn, uint32_t n)
    {
        LocalTensor<half> hx = x.ReinterpretCast<half>()[nIn], hy = y.ReinterpretCast<half>()[nIn];
        LocalTensor<half> hz = z.ReinterpretCast<half>()[nIn];
        Cast(hx, x, RoundMode::CAST_NONE, nIn / 2);
        Cast(hy, y, RoundMode::CAST_NONE, nIn / 2);
        PipeBarrier<PIPE_V>();
        if constexpr (swi)
            SwiGLU(hz, hx, hy, 0.75f, t, n);
        else
            GeGLU(hz, hx, hy, t, n);
        PipeBarrier<PIPE_V>();
        Cast(z, hz, RoundMode::CAST_NONE, nIn / 2);
    }
};

START_TEST(test_ascendc_act_elementwise)
{
    Session s;
    const uint32_t n = 1000; /* pieces of the temporary buffer and a tail */
    const std::vector<float> x = data(n, -5, 5), y = data(n, -4, 4), z0(n, -7.0f);
    std::vector<double> want(n);
    /* the untouched tail past the count */
    const uint32_t cnt = 984;

    for (uint32_t tmp : {768u, 0u}) {
        const std::vector<float> g = run<OpGelu>(s, x, y, z0, tmp, cnt);
        for (uint32_t i = 0; i < n; i++) {
            const double v = x[i];
            want[i] = i < cnt ? v * sigm(1.5957691216057308 * (v + 0.044715 * v * v * v)) : -7.0;
        }
        near(g, want, 1e-5, "Gelu");
    }
    {
        const std::vector<float> g = run<OpFasterGelu>(s, x, y, z0, 256, cnt);
        for (uint32_t i = 0; i < n; i++)
            want[i] = i < cnt ? x[i] * sigm(1.702 * x[i]) : -7.0;
        near(g, want, 1e-5, "FasterGelu");
    }
    for (uint32_t tmp : {256u, 0u}) {
        const std::vector<float> g = run<OpSigmoid>(s, x, y, z0, tmp, cnt);
        for (uint32_t i = 0; i < n; i++)
            want[i] = i < cnt ? sigm(x[i]) : -7.0;
        near(g, want, 1e-6, "Sigmoid");
    }
    {
        const std::vector<float> g = run<OpSilu>(s, x, y, z0, 0, cnt);
        for (uint32_t i = 0; i < n; i++)
            want[i] = i < cnt ? x[i] * sigm(x[i]) : -7.0;
        near(g, want, 1e-5, "Silu");
        const std::vector<float> w = run<OpSwish>(s, x, y, z0, 0, cnt);
        for (uint32_t i = 0; i < n; i++)
            want[i] = i < cnt ? x[i] * sigm(1.5 * x[i]) : -7.0;
        near(w, want, 1e-5, "Swish");
    }
    for (uint32_t tmp : {256u, 0u}) {
        const std::vector<float> g = run<OpSwiGLU>(s, x, y, z0, tmp, cnt);
        for (uint32_t i = 0; i < n; i++)
            want[i] = i < cnt ? x[i] * y[i] * sigm(0.75 * y[i]) : -7.0;
        near(g, want, 1e-5, "SwiGLU");
    }
    {
        const std::vector<float> g = run<OpGeGLU>(s, x, y, z0, 0, cnt);
        for (uint32_t i = 0; i < n; i++) {
            const double b = y[i];
            want[i] = i < cnt ? x[i] * b * sigm(0.0713548162726 * b * (22.363860002236 + b * b)) : -7.0;
        }
        near(g, want, 1e-4, "GeGLU");
    }
    {
        const uint32_t m = 512;
        const std::vector<float> hx = data(m, -6, 6), hy(m, 0.0f), hz(m, 0.0f);
        const std::vector<float> g = run<OpSigmoidHalf>(s, hx, hy, hz, 256, m);
        std::vector<double> w(m);
        for (uint32_t i = 0; i < m; i++)
            w[i] = sigm((double)(float)(half)hx[i]);
        near(g, w, 5e-3, "Sigmoid<half>");
    }
    {
        /* the first half of x and y converted; 200 of them through pieces of 64 (SwiGLU: 768 bytes / 3 floats)
         * and 32 (GeGLU: 256 bytes / 8) */
        const uint32_t m = 512, c = 200;
        const std::vector<float> hx = data(m, -3, 3), hy = data(m, -3, 3), hz(m, 0.0f);
        for (int swi = 0; swi < 2; swi++) {
            const std::vector<float> g = swi ? run<OpGluHalf<true>>(s, hx, hy, hz, 768, c)
                                             : run<OpGluHalf<false>>(s, hx, hy, hz, 256, c);
            std::vector<double> w(c);
            for (uint32_t i = 0; i < c; i++) {
                const double a = (float)(half)hx[i], b = (float)(half)hy[i];
                w[i] = swi ? a * b * sigm(0.75 * b) : a * b * sigm(0.0713548162726 * b * (22.363860002236 + b * b));
            }
            near(g, w, 4e-3, swi ? "SwiGLU<half>" : "GeGLU<half>");
        }
    }
}
END_TEST

/* ---- the SoftMax family: rows x cols in x (and y), arg = rows << 16 | cols ---- */
constexpr uint32_t dim_m(uint32_t a) { return a >> 16; }
constexpr uint32_t dim_k(uint32_t a) { return a & 0xffff; }

/* z = [dst (m*K) | sum (m*8) | max (m*8)] */
template <bool log> struct OpSoftMax {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &, LocalTensor<uint8_t> &t,
                    uint32_t, uint32_t a)
    {
        const uint32_t m = dim_m(a), k = dim_k(a);
        const SoftMaxShapeInfo sh{m, k, m, k};
        if constexpr (log) {
            LogSoftMaxTiling tl{};
            LogSoftMax<float>(z, z[m * k], z[m * k + m * 8], x, t, tl, sh);
        } else {
            SoftMaxTiling tl{};
            SoftMax<float>(z, z[m * k], z[m * k + m * 8], x, t, tl, sh);
        }
    }
};
/* Two column halves of x (m x 2K, the halves copied apart), SoftmaxFlashV2 without then with update;
 * z = [dst of the second half (m*K) | sum | max | expMax] */
struct OpFlashV2 {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, LocalTensor<uint8_t> &t,
                    uint32_t, uint32_t a)
    {
        const uint32_t m = dim_m(a), k = dim_k(a);
        const SoftMaxShapeInfo sh{m, k, m, k};
        SoftMaxTiling tl{};
        const LocalTensor<float> sum = z[m * k], max = z[m * k + m * 8], em = z[m * k + 2 * m * 8];
        for (uint32_t r = 0; r < m; r++)
            DataCopy(y[r * k], x[r * 2 * k], k);
        PipeBarrier<PIPE_V>();
        SoftmaxFlashV2<float, false>(y, sum, max, y, em, sum, max, t, tl, sh);
        for (uint32_t r = 0; r < m; r++)
            DataCopy(z[r * k], x[r * 2 * k + k], k);
        PipeBarrier<PIPE_V>();
        SoftmaxFlashV2<float, true>(z, sum, max, z, em, sum, max, t, tl, sh);
    }
};
/* z = SoftmaxGrad(grad = x, src = y), or (front) the row sums in 8 lanes */
template <bool front> struct OpGrad {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, LocalTensor<uint8_t> &t,
                    uint32_t, uint32_t a)
    {
        const uint32_t m = dim_m(a), k = dim_k(a);
        const SoftMaxShapeInfo sh{m, k, m, k};
        SoftMaxTiling tl{};
        if constexpr (front)
            SoftmaxGradFront<float>(z, x, y, t, tl, sh);
        else
            SoftmaxGrad<float>(z, x, y, t, tl, false, sh);
    }
};

struct Rows {
    std::vector<double> max, sum;
};
Rows rows_of(const std::vector<float> &x, uint32_t m, uint32_t k, uint32_t pitch, uint32_t off)
{
    Rows r;
    for (uint32_t i = 0; i < m; i++) {
        double mx = -INFINITY, s = 0;
        for (uint32_t j = 0; j < k; j++)
            mx = std::fmax(mx, (double)x[i * pitch + off + j]);
        for (uint32_t j = 0; j < k; j++)
            s += std::exp((double)x[i * pitch + off + j] - mx);
        r.max.push_back(mx);
        r.sum.push_back(s);
    }
    return r;
}

START_TEST(test_ascendc_act_softmax)
{
    Session s;
    /* K above 64 with a tail, K below 64; rows not a multiple of 8; a temporary buffer of 3 rows (72 floats a row) */
    for (uint32_t k : {136u, 24u}) {
        const uint32_t m = 20;
        const std::vector<float> x = data(m * k, -3, 3), y(m * k, 0.0f), z0(m * k + 2 * m * 8, 0.0f);
        const Rows r = rows_of(x, m, k, k, 0);
        for (int log = 0; log < 2; log++) {
            const std::vector<float> z = log ? run<OpSoftMax<true>>(s, x, y, z0, 3 * 288, m << 16 | k)
                                             : run<OpSoftMax<false>>(s, x, y, z0, 3 * 288, m << 16 | k);
            std::vector<double> want(m * k + 2 * m * 8);
            for (uint32_t i = 0; i < m; i++) {
                for (uint32_t j = 0; j < k; j++) {
                    const double p = std::exp((double)x[i * k + j] - r.max[i]) / r.sum[i];
                    want[i * k + j] = log ? std::log10(p) : p;
                }
                for (uint32_t l = 0; l < 8; l++) {
                    want[m * k + i * 8 + l] = r.sum[i];
                    want[m * k + m * 8 + i * 8 + l] = r.max[i];
                }
            }
            near(z, want, 2e-6, log ? "LogSoftMax" : "SoftMax");
        }
    }
}
END_TEST

START_TEST(test_ascendc_act_flashv2)
{
    Session s;
    const uint32_t m = 11, k = 72;
    const std::vector<float> x = data(m * 2 * k, -4, 4), y(m * 2 * k, 0.0f), z0(m * k + 3 * m * 8, 0.0f);
    const std::vector<float> z = run<OpFlashV2>(s, x, y, z0, 4 * 288, m << 16 | k);
    const Rows a = rows_of(x, m, k, 2 * k, 0), b = rows_of(x, m, k, 2 * k, k);
    std::vector<double> want(m * k + 3 * m * 8);
    for (uint32_t i = 0; i < m; i++) {
        const double mx = std::fmax(a.max[i], b.max[i]), em = std::exp(a.max[i] - mx);
        for (uint32_t j = 0; j < k; j++)
            want[i * k + j] = std::exp((double)x[i * 2 * k + k + j] - mx);
        for (uint32_t l = 0; l < 8; l++) {
            want[m * k + i * 8 + l] = em * a.sum[i] + b.sum[i] * std::exp(b.max[i] - mx);
            want[m * k + m * 8 + i * 8 + l] = mx;
            want[m * k + 2 * m * 8 + i * 8 + l] = em;
        }
    }
    near(z, want, 2e-6, "SoftmaxFlashV2");
}
END_TEST

START_TEST(test_ascendc_act_grad)
{
    Session s;
    const uint32_t m = 9, k = 200;
    const std::vector<float> g = data(m * k, -1, 1), x = data(m * k, -1, 1);
    std::vector<double> rs(m, 0.0);
    for (uint32_t i = 0; i < m; i++)
        for (uint32_t j = 0; j < k; j++)
            rs[i] += (double)g[i * k + j] * x[i * k + j];
    const std::vector<float> z = run<OpGrad<false>>(s, g, x, std::vector<float>(m * k, 0.0f), 2 * (k + 80) * 4,
                                                    m << 16 | k);
    std::vector<double> want(m * k);
    for (uint32_t i = 0; i < m; i++)
        for (uint32_t j = 0; j < k; j++)
            want[i * k + j] = ((double)g[i * k + j] - rs[i]) * x[i * k + j];
    near(z, want, 1e-5, "SoftmaxGrad");
    const std::vector<float> f = run<OpGrad<true>>(s, g, x, std::vector<float>(m * 8, 0.0f), (k + 72) * 4,
                                                   m << 16 | k);
    std::vector<double> wf(m * 8);
    for (uint32_t i = 0; i < m * 8; i++)
        wf[i] = rs[i / 8];
    near(f, wf, 1e-5, "SoftmaxGradFront");
}
END_TEST

/* SoftmaxFlashV3 on half data: x the source (half-representable floats), y = [inMean | inExpSum | inMax] (8 lanes a
 * row), z = [dst | mean | expSum | max | expMax (16 lanes) as float | the half scratch] */
template <bool upd> struct OpFlashV3 {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, LocalTensor<uint8_t> &t,
                    uint32_t, uint32_t a)
    {
        const uint32_t m = dim_m(a), k = dim_k(a), mk = m * k;
        const LocalTensor<float> mean = z[mk], sum = z[mk + m * 8], max = z[mk + 2 * m * 8], em = z[mk + 3 * m * 8];
        LocalTensor<half> hs = z[mk + 5 * m * 8].ReinterpretCast<half>(), hd = hs[mk], he = hd[mk];
        Cast(hs, x, RoundMode::CAST_NONE, mk);
        PipeBarrier<PIPE_V>();
        const SoftMaxParams p{m, k, m, k, 3, 8, 0.9375f};
        SoftmaxFlashV3<half, float, upd>(hd, mean, sum, max, hs, he, y, y[m * 8], y[2 * m * 8], t, SoftMaxTiling{},
                                         p);
        PipeBarrier<PIPE_V>();
        Cast(z, hd, RoundMode::CAST_NONE, mk);
        if (upd)
            Cast(em, he, RoundMode::CAST_NONE, m * 16);
    }
};

START_TEST(test_ascendc_act_flashv3)
{
    Session s;
    /* 640 columns: two 64-wide blocks past the first 512, eighths of 80 (a 16-element tail); 2 rows a chunk */
    const uint32_t m = 3, k = 640, mk = m * k, base = k / 8;
    std::vector<float> x = data(mk, 0, 10);
    for (auto &v : x)
        v = (float)(half)v;
    std::vector<float> y(mk, 0.0f);
    for (uint32_t i = 0; i < m * 8; i++) {
        y[i] = 0.4f + 0.01f * (float)(i / 8);
        y[m * 8 + i] = 2.0f;
        y[2 * m * 8 + i] = 1.5f;
    }
    const double sc = 0.9375 / (1 - 0.9375);
    for (int upd = 0; upd < 2; upd++) {
        const std::vector<float> z0(2 * mk + 48 * m, 0.0f);
        const std::vector<float> z = upd ? run<OpFlashV3<true>>(s, x, y, z0, 2 * (k + 120) * 4, m << 16 | k)
                                         : run<OpFlashV3<false>>(s, x, y, z0, 2 * (k + 120) * 4, m << 16 | k);
        std::vector<double> dst(mk), st(5 * m * 8);
        for (uint32_t i = 0; i < m; i++) {
            const float *r = &x[i * k];
            double tb[64], rml[8], rmg = 0, xs[640], rowmax = -INFINITY;
            for (uint32_t g = 0; g < 64; g++) {
                tb[g] = 0;
                for (uint32_t e = 0; e < 8; e++)
                    tb[g] += r[8 * g + e];
            }
            for (uint32_t j = 0; j < k / 64 - 8; j++)
                for (uint32_t e = 0; e < 64; e++)
                    tb[e] += r[512 + 64 * j + e];
            for (uint32_t j = 0; j < 8; j++) {
                rml[j] = 0;
                for (uint32_t e = 0; e < 8; e++)
                    rml[j] += tb[8 * j + e];
                rml[j] /= base;
                rmg += rml[j] / 8;
            }
            for (uint32_t c = 0; c < k; c++) {
                xs[c] = r[c] - (rmg - rml[c / base]) * sc;
                rowmax = std::fmax(rowmax, xs[c]);
            }
            const double inMean = y[i * 8], inSum = y[m * 8 + i * 8], inMax = y[2 * m * 8 + i * 8];
            const double mean = upd ? (inMean * 2 + rmg) / 3 : rmg, cur = (rmg - mean) * sc;
            double mx = rowmax + cur, em = 0;
            if (upd) {
                const double prev = (inMean - mean) * sc;
                mx = std::fmax(mx, inMax + prev);
                em = std::exp(inMax - mx + prev);
            }
            double rs = 0;
            for (uint32_t c = 0; c < k; c++) {
                dst[i * k + c] = std::exp(xs[c] - (mx - cur));
                rs += dst[i * k + c];
            }
            for (uint32_t l = 0; l < 8; l++) {
                st[i * 8 + l] = mean;
                st[m * 8 + i * 8 + l] = upd ? em * inSum + rs : rs;
                st[2 * m * 8 + i * 8 + l] = mx;
            }
            for (uint32_t l = 0; l < 16; l++)
                st[3 * m * 8 + i * 16 + l] = upd ? em : 0.0;
        }
        near(z, dst, 2e-3, upd ? "SoftmaxFlashV3<isUpdate> dst" : "SoftmaxFlashV3 dst");
        near(std::vector<float>(z.begin() + mk, z.begin() + mk + 3 * m * 8 + (upd ? 16 * m : 0)),
             std::vector<double>(st.begin(), st.begin() + 3 * m * 8 + (upd ? 16 * m : 0)), 1e-4,
             upd ? "SoftmaxFlashV3<isUpdate> statistics" : "SoftmaxFlashV3 statistics");
    }
}
END_TEST

/* TBuf::AllocTensor / FreeTensor and a LocalTensor's ShapeInfo (what the FlashV3 sample uses) */
struct OpShape {
    static void run(LocalTensor<float> &z, LocalTensor<float> &, LocalTensor<float> &, LocalTensor<uint8_t> &,
                    uint32_t, uint32_t)
    {
        const uint32_t dims[2] = {3, 40};
        LocalTensor<float> w = z;
        w.SetShapeInfo(ShapeInfo(2, dims));
        const ShapeInfo si = w.GetShapeInfo();
        Duplicate(z, (float)(GetShapeSize(si) + si.shapeDim + min(7u, 9u) + max(2, 1)), 8);
    }
};

/* rows whose max lane 0 has the bits of -FLT_MAX are set to 0.5; z = [res (m*K) | flag] */
struct OpAdjust {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, LocalTensor<uint8_t> &,
                    uint32_t, uint32_t a)
    {
        const uint32_t m = dim_m(a), k = dim_k(a);
        const bool hit = AdjustSoftMaxRes<float, float>(x, y, 0xFF7FFFFF, 0.5f, SoftMaxShapeInfo{m, k, m, k});
        PipeBarrier<PIPE_V>();
        DataCopy(z, x, m * k);
        Duplicate(z[m * k], hit ? 1.0f : 2.0f, 8);
    }
};

START_TEST(test_ascendc_act_adjust)
{
    Session s;
    const uint32_t m = 4, k = 16;
    const std::vector<float> x = data(m * k, 0, 1);
    std::vector<float> mx(m * k, 1.0f);
    uint32_t bits = 0xFF7FFFFF;
    std::memcpy(&mx[2 * 8], &bits, 4);
    const std::vector<float> z = run<OpAdjust>(s, x, mx, std::vector<float>(m * k + 8, 0.0f), 0, m << 16 | k);
    std::vector<double> want(m * k + 1);
    for (uint32_t i = 0; i < m * k; i++)
        want[i] = i / k == 2 ? 0.5 : (double)x[i];
    want[m * k] = 1.0;
    near(z, want, 0, "AdjustSoftMaxRes");
}
END_TEST

START_TEST(test_ascendc_act_shapeinfo)
{
    Session s;
    const std::vector<float> z = run<OpShape>(s, std::vector<float>(8, 0.0f), std::vector<float>(8, 0.0f),
                                              std::vector<float>(8, 0.0f), 0);
    ck_assert_float_eq(z[0], 120 + 2 + 7 + 2);
}
END_TEST

START_TEST(test_ascendc_act_host)
{
    const ge::Shape v({1000}), mk({20, 136});
    uint32_t mx = 0, mn = 0;
    ck_assert_uint_eq(GetGeluMinTmpSize(v, 4), 768);
    ck_assert_uint_eq(GetGeluMaxTmpSize(v, 4), 12000);
    GetSigmoidMaxMinTmpSize(v, 2, false, mx, mn);
    ck_assert_uint_eq(mx, 2000);
    ck_assert_uint_eq(mn, 256);
    GetSwiGLUMaxMinTmpSize(v, 4, mx, mn, false);
    ck_assert_uint_eq(mx + mn, 0);
    GetSwiGLUMaxMinTmpSize(v, 2, mx, mn, false);
    ck_assert_uint_eq(mx, 12000);
    ck_assert_uint_eq(mn, 1536);
    GetGeGLUMaxMinTmpSize(v, 2, false, mx, mn);
    ck_assert_uint_eq(mx, 8000);
    ck_assert_uint_eq(mn, 1024);
    GetSiluTmpSize(v, 4, false, mx, mn);
    ck_assert_uint_eq(mx + mn, 0);
    /* SoftMax: (8 + 136 + 64) floats a row */
    ck_assert_uint_eq(GetSoftMaxMinTmpSize(mk, 4, false), 832);
    ck_assert_uint_eq(GetSoftMaxMaxTmpSize(mk, 4, false), 20 * 832);
    ck_assert_uint_eq(GetLogSoftMaxMinTmpSize(mk, 4, false), 832);
    ck_assert_uint_eq(GetSoftMaxGradMinTmpSize(mk, 4, false, false), (16 + 136 + 64) * 4);
    ck_assert_uint_eq(GetSoftMaxGradMinTmpSize(mk, 4, true, false), 832);
    ck_assert_uint_eq(GetSoftMaxFlashV2MinTmpSize(mk, 4, 4, true), 72 * 4);
    /* 11 rows of 832 bytes fit 9 600: baseM 11 -> 8 (a multiple of 8 below srcM), 2 ranges and a tail of 4 */
    optiling::SoftMaxTiling t;
    SoftMaxTilingFunc(mk, 4, 9600, t);
    ck_assert_uint_eq(t.get_splitM(), 8);
    ck_assert_uint_eq(t.get_rangeM(), 2);
    ck_assert_uint_eq(t.get_tailM(), 4);
    ck_assert_uint_eq(t.get_splitSize(), 8 * 136);
    ck_assert_uint_eq(t.get_outMaxK(), 8);
    ck_assert_uint_eq(t.get_tailReduceSize(), 32);
    SoftMaxTiling kt;
    SoftMaxFlashV2TilingFunc(mk, 4, 4, 20 * 72 * 4, kt, true);
    ck_assert_uint_eq(kt.splitM, 20);
    ck_assert_uint_eq(kt.rangeM, 1);
    constexpr SoftMaxTiling c = SoftMaxFlashV2TilingFunc(SoftMaxShapeInfo{20, 136, 20, 136}, 4, 4, 10 * 72 * 4);
    static_assert(c.splitM == 8 && c.tailM == 4, "the kernel-side FlashV2 tiling");
    ck_assert_uint_eq(sizeof(SoftMaxTiling), 64);
}
END_TEST

/* a temporary buffer too small; a row length that is not 32-byte aligned */
START_TEST(test_ascendc_act_errors)
{
    Session s;
    int st = 0;
    const std::vector<float> x = data(64, -1, 1), y(64, 0.0f), z(64, 0.0f);
    run<OpGelu>(s, x, y, z, 96, 64, &st);
    ck_assert_int_ne(st, 0);
    const char *m = aclGetRecentErrMsg();
    ck_assert_ptr_nonnull(m);
    ck_assert_msg(std::strstr(m, "check_ascendc_act.cpp") && std::strstr(m, "Gelu: sharedTmpBuffer of 96 bytes"),
                  "%s", m);
    run<OpSoftMax<false>>(s, x, y, std::vector<float>(64 + 32, 0.0f), 1024, 2 << 16 | 12, &st);
    ck_assert_int_ne(st, 0);
    m = aclGetRecentErrMsg();
    ck_assert_msg(std::strstr(m, "SoftMax: srcK 12 is not a multiple of 8"), "%s", m);
}
END_TEST

} // namespace

extern "C" Suite *dv_ascendc_act_suite(void)
{
    Suite *s = suite_create("ascendc_act");
    TCase *tc = tcase_create("activation");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_ascendc_act_elementwise);
    tcase_add_test(tc, test_ascendc_act_softmax);
    tcase_add_test(tc, test_ascendc_act_flashv2);
    tcase_add_test(tc, test_ascendc_act_flashv3);
    tcase_add_test(tc, test_ascendc_act_grad);
    tcase_add_test(tc, test_ascendc_act_adjust);
    tcase_add_test(tc, test_ascendc_act_shapeinfo);
    tcase_add_test(tc, test_ascendc_act_host);
    tcase_add_test(tc, test_ascendc_act_errors);
    suite_add_tcase(s, tc);
    return s;
}
