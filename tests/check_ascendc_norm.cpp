/* tests/check_ascendc_norm.cpp - the normalization and quantization high-level APIs of dvsim's Ascend C
 * (include/ascendc/adv/normalization.h, normalization_tiling.h): kernels run through the AscendCL shim and
 * their outputs compared with plain C++ references (double for the norms, the same single- and half-precision
 * steps for the exact ones); the host functions against hand-computed tilings; the located errors. */
#include "ascendc/tiling/tiling_api.h" /* brings <iostream>: before check.h, whose fail macro it would meet */

#include <check.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "ascendc/kernel_operator.h"
#include "support/ascendc_session.h"

using namespace AscendC;

namespace {

using dvtest::Session;

/* ------------------------------------------------------------------ host side */

uint64_t g_rng = 0x2545f4914f6cdd1dull;
double uni(double lo, double hi)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return lo + (double)(g_rng >> 11) / 9007199254740992.0 * (hi - lo);
}
std::vector<float> fdata(size_t n, double lo, double hi)
{
    std::vector<float> v(n);
    for (auto &x : v)
        x = (float)uni(lo, hi);
    return v;
}

/* Up to six buffers of bytes, each rounded up to 32 bytes, copied to UB, given to OP::run, copied back. */
constexpr int NBUF = 6;
struct Io {
    std::vector<std::vector<uint8_t>> bufs;
    template <class T> int add(const std::vector<T> &v)
    {
        std::vector<uint8_t> b((v.size() * sizeof(T) + 31) / 32 * 32);
        std::memcpy(b.data(), v.data(), v.size() * sizeof(T));
        bufs.push_back(b);
        return (int)bufs.size() - 1;
    }
    template <class T> std::vector<T> get(int i, size_t n) const
    {
        std::vector<T> v(n);
        std::memcpy(v.data(), bufs[i].data(), n * sizeof(T));
        return v;
    }
};
struct Args {
    uint32_t bytes[NBUF];
    uint32_t u[8];
    float f[4];
};

template <class OP>
__global__ __aicore__ void k_norm(GM_ADDR b0, GM_ADDR b1, GM_ADDR b2, GM_ADDR b3, GM_ADDR b4, GM_ADDR b5, Args a)
{
    GM_ADDR g[NBUF] = {b0, b1, b2, b3, b4, b5};
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf[NBUF];
    LocalTensor<uint8_t> l[NBUF];
    GlobalTensor<uint8_t> gt[NBUF];
    for (int i = 0; i < NBUF; i++)
        if (a.bytes[i]) {
            pipe.InitBuffer(buf[i], a.bytes[i]);
            l[i] = buf[i].Get<uint8_t>();
            gt[i].SetGlobalBuffer((__gm__ uint8_t *)g[i], a.bytes[i]);
            DataCopy(l[i], gt[i], a.bytes[i]);
        }
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    OP::run(l, a);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    for (int i = 0; i < NBUF; i++)
        if (a.bytes[i])
            DataCopy(gt[i], l[i], a.bytes[i]);
}

/* Run OP over io's buffers (updated in place); returns the kernel's status. */
template <class OP> int run(Session &s, Io &io, Args a)
{
    void *d[NBUF] = {};
    for (size_t i = 0; i < io.bufs.size(); i++) {
        a.bytes[i] = (uint32_t)io.bufs[i].size();
        ck_assert_int_eq(aclrtMalloc(&d[i], a.bytes[i], ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        aclrtMemcpy(d[i], a.bytes[i], io.bufs[i].data(), a.bytes[i], ACL_MEMCPY_HOST_TO_DEVICE);
    }
    for (size_t i = io.bufs.size(); i < NBUF; i++)
        a.bytes[i] = 0;
    ck_assert_int_eq(::dvac::launch(k_norm<OP>, "k_norm", 1, nullptr, s.stream)(
                         (uint8_t *)d[0], (uint8_t *)d[1], (uint8_t *)d[2], (uint8_t *)d[3], (uint8_t *)d[4],
                         (uint8_t *)d[5], a),
                     0);
    const int rc = aclrtSynchronizeStream(s.stream);
    for (size_t i = 0; i < io.bufs.size(); i++) {
        aclrtMemcpy(io.bufs[i].data(), a.bytes[i], d[i], a.bytes[i], ACL_MEMCPY_DEVICE_TO_HOST);
        aclrtFree(d[i]);
    }
    return rc;
}

void close_to(const std::vector<float> &got, const std::vector<double> &want, double tol, const char *what)
{
    ck_assert_uint_eq(got.size(), want.size());
    for (size_t i = 0; i < got.size(); i++) {
        const double e = std::fabs((double)got[i] - want[i]);
        ck_assert_msg(e <= tol * (1.0 + std::fabs(want[i])), "%s[%zu] is %.9g, expected %.9g", what, i,
                      (double)got[i], want[i]);
    }
}

void error_has(std::initializer_list<const char *> parts)
{
    const char *m = aclGetRecentErrMsg();
    ck_assert_ptr_nonnull(m);
    for (const char *p : parts)
        ck_assert_msg(std::strstr(m, p), "error '%s' lacks '%s'", m, p);
}

/* Row statistics of rows x h (the first oh of each row), in double. */
void stats(const std::vector<float> &x, uint32_t rows, uint32_t h, uint32_t oh, std::vector<double> &mean,
           std::vector<double> &var)
{
    mean.assign(rows, 0);
    var.assign(rows, 0);
    for (uint32_t r = 0; r < rows; r++) {
        for (uint32_t j = 0; j < oh; j++)
            mean[r] += x[r * h + j];
        mean[r] /= oh;
        for (uint32_t j = 0; j < oh; j++)
            var[r] += (x[r * h + j] - mean[r]) * (x[r * h + j] - mean[r]);
        var[r] /= oh;
    }
}

/* ------------------------------------------------------------------ LayerNorm, DeepNorm, RmsNorm */

/* LayerNorm of 10 rows of 96 (folded to 64 before the row sums) with a temporary buffer for 8 rows: two steps. */
constexpr uint32_t LN_ROWS = 10, LN_H = 96;
struct OpLayerNorm {
    static void run(LocalTensor<uint8_t> *l, const Args &a)
    {
        LayerNormTiling t{};
        t.bLength = 2;
        t.sLength = 5;
        t.hLength = LN_H;
        t.originalHLength = LN_H;
        LocalTensor<uint8_t> tmp = l[5];
        tmp.SetSize(a.u[0]);
        auto F = [&](int i) { return l[i].ReinterpretCast<float>(); };
        if (a.u[1]) /* the form without a temporary buffer: the stack buffer */
            LayerNorm<float, false>(F(3), F(4)[0], F(4)[16], F(0), F(1), F(2), a.f[0], t);
        else
            LayerNorm<float, false>(F(3), F(4)[0], F(4)[16], F(0), F(1), F(2), tmp, a.f[0], t);
    }
};

START_TEST(test_ascendc_norm_layernorm)
{
    Session s;
    const auto x = fdata(LN_ROWS * LN_H, -50, 50), g = fdata(LN_H, -2, 2), b = fdata(LN_H, -1, 1);
    uint32_t mx = 0, mn = 0;
    GetLayerNormMaxMinTmpSize(ge::Shape({2, 5, LN_H, LN_H}), 4, false, mx, mn);
    ck_assert_uint_eq(mn, dvac::norm::row_tmp_floats(8, LN_H) * 4);
    ck_assert_uint_eq(mx, dvac::norm::row_tmp_floats(10, LN_H) * 4);
    std::vector<double> mean, var, y(LN_ROWS * LN_H);
    stats(x, LN_ROWS, LN_H, LN_H, mean, var);
    for (uint32_t r = 0; r < LN_ROWS; r++)
        for (uint32_t j = 0; j < LN_H; j++)
            y[r * LN_H + j] = (x[r * LN_H + j] - mean[r]) / std::sqrt(var[r] + 1e-5) * g[j] + b[j];
    for (uint32_t stack = 0; stack < 2; stack++) {
        Io io;
        io.add(x);
        io.add(g);
        io.add(b);
        io.add(std::vector<float>(LN_ROWS * LN_H));
        io.add(std::vector<float>(32));
        io.add(std::vector<uint8_t>(mx));
        Args a{};
        a.u[0] = mn; /* 8 rows at a time */
        a.u[1] = stack;
        a.f[0] = 1e-5f;
        ck_assert_msg(run<OpLayerNorm>(s, io, a) == 0, "%s", aclGetRecentErrMsg());
        const auto st = io.get<float>(4, 32);
        close_to(io.get<float>(3, LN_ROWS * LN_H), y, 2e-5, "y");
        close_to(std::vector<float>(st.begin(), st.begin() + LN_ROWS), mean, 1e-5, "mean");
        close_to(std::vector<float>(st.begin() + 16, st.begin() + 16 + LN_ROWS), var, 1e-5, "variance");
    }
}
END_TEST

/* DeepNorm: LayerNorm of alpha * x + gx; RmsNorm (through the stack buffer: PopStackBuffer). */
struct OpDeepRms {
    static void run(LocalTensor<uint8_t> *l, const Args &a)
    {
        DeepNormTiling t{};
        t.bLength = 1;
        t.sLength = 16;
        t.hLength = 64;
        t.originalHLength = 64;
        auto F = [&](int i) { return l[i].ReinterpretCast<float>(); };
        DeepNorm<float, false, false>(F(3), F(4)[0], F(4)[16], F(0), F(1), F(2)[64], F(2), a.f[0], a.f[1], t);
        RmsNormTiling rt{};
        rt.bLength = 1;
        rt.sLength = 16;
        rt.hLength = 64;
        rt.originalHLength = 64;
        rt.reciprocalOfHLength = 1.0f / 64;
        RmsNorm<float>(F(5), F(0), F(2), a.f[1], rt);
    }
};

START_TEST(test_ascendc_norm_deepnorm_rmsnorm)
{
    Session s;
    const uint32_t R = 16, H = 64;
    const auto x = fdata(R * H, -3, 3), gx = fdata(R * H, -3, 3), gb = fdata(2 * H, -2, 2);
    Io io;
    io.add(x);
    io.add(gx);
    io.add(gb); /* gamma, then beta */
    io.add(std::vector<float>(R * H));
    io.add(std::vector<float>(32));
    io.add(std::vector<float>(R * H));
    Args a{};
    a.f[0] = 0.5f;
    a.f[1] = 1e-4f;
    ck_assert_msg(run<OpDeepRms>(s, io, a) == 0, "%s", aclGetRecentErrMsg());
    std::vector<float> x1(R * H);
    for (uint32_t i = 0; i < R * H; i++)
        x1[i] = 0.5f * x[i] + gx[i];
    std::vector<double> mean, var, y(R * H), rms(R * H);
    stats(x1, R, H, H, mean, var);
    for (uint32_t r = 0; r < R; r++) {
        double ss = 0;
        for (uint32_t j = 0; j < H; j++)
            ss += (double)x[r * H + j] * x[r * H + j];
        for (uint32_t j = 0; j < H; j++) {
            y[r * H + j] = (x1[r * H + j] - mean[r]) / std::sqrt(var[r] + 1e-4) * gb[j] + gb[H + j];
            rms[r * H + j] = x[r * H + j] / std::sqrt(ss / H + 1e-4) * gb[j];
        }
    }
    const auto st = io.get<float>(4, 32);
    close_to(io.get<float>(3, R * H), y, 2e-5, "deepnorm");
    close_to(std::vector<float>(st.begin(), st.begin() + R), mean, 1e-5, "deepnorm mean");
    close_to(std::vector<float>(st.begin() + 16, st.begin() + 32), var, 1e-5, "deepnorm variance");
    close_to(io.get<float>(5, R * H), rms, 2e-5, "rmsnorm");
}
END_TEST

/* ------------------------------------------------------------------ LayerNormGrad, LayerNormGradBeta */

struct OpGrad {
    static void run(LocalTensor<uint8_t> *l, const Args &a)
    {
        LayerNormGradTiling t{};
        t.bLength = 1;
        t.sLength = 12;
        t.hLength = 32;
        t.originalHLength = 32;
        LayerNormGradBetaTiling tb{};
        tb.bLength = 1;
        tb.sLength = 12;
        tb.hLength = 32;
        auto F = [&](int i) { return l[i].ReinterpretCast<float>(); };
        /* 0: x, 1: dy, 2: mean | var | gamma, 3: pdX, 4: resForGamma, 5: pdGamma | pdBeta */
        LayerNormGrad<float, false>(F(3), F(4), F(1), F(0), F(2)[16], F(2), F(2)[32], a.f[0], t);
        LayerNormGradBeta<float, false>(F(5), F(5)[32], F(4), F(1), tb);
    }
};

START_TEST(test_ascendc_norm_layernorm_grad)
{
    Session s;
    const uint32_t R = 12, H = 32;
    const double eps = 1e-3;
    const auto x = fdata(R * H, -4, 4), dy = fdata(R * H, -2, 2), gamma = fdata(H, -1.5, 1.5);
    std::vector<double> mean, var;
    stats(x, R, H, H, mean, var);
    std::vector<float> mvg(64);
    for (uint32_t r = 0; r < R; r++) {
        mvg[r] = (float)mean[r];
        mvg[16 + r] = (float)var[r];
    }
    for (uint32_t j = 0; j < H; j++)
        mvg[32 + j] = gamma[j];
    Io io;
    io.add(x);
    io.add(dy);
    io.add(mvg);
    io.add(std::vector<float>(R * H));
    io.add(std::vector<float>(R * H));
    io.add(std::vector<float>(2 * H));
    Args a{};
    a.f[0] = (float)eps;
    ck_assert_msg(run<OpGrad>(s, io, a) == 0, "%s", aclGetRecentErrMsg());
    /* the reference with the statistics the kernel was given */
    std::vector<double> pdx(R * H), res(R * H), pg(H, 0), pb(H, 0);
    for (uint32_t r = 0; r < R; r++) {
        const double m = mvg[r], v = mvg[16 + r], rs = 1 / std::sqrt(v + eps);
        double s1 = 0, s2 = 0, s3 = 0;
        for (uint32_t j = 0; j < H; j++) {
            const double xm = x[r * H + j] - m, pxl = (double)dy[r * H + j] * gamma[j];
            s1 += pxl * xm;
            s2 += pxl;
            s3 += xm;
        }
        const double pdVar = -0.5 * s1 * rs * rs * rs, pdMean = -s2 * rs + pdVar / H * (-2.0 * s3);
        for (uint32_t j = 0; j < H; j++) {
            const double xm = x[r * H + j] - m, pxl = (double)dy[r * H + j] * gamma[j];
            pdx[r * H + j] = pdMean / H + pdVar * 2.0 / H * xm + pxl * rs;
            res[r * H + j] = xm * rs;
            pg[j] += dy[r * H + j] * res[r * H + j];
            pb[j] += dy[r * H + j];
        }
    }
    close_to(io.get<float>(3, R * H), pdx, 1e-4, "pdX");
    close_to(io.get<float>(4, R * H), res, 1e-5, "resForGamma");
    const auto gb = io.get<float>(5, 2 * H);
    close_to(std::vector<float>(gb.begin(), gb.begin() + H), pg, 1e-5, "pdGamma");
    close_to(std::vector<float>(gb.begin() + H, gb.end()), pb, 1e-5, "pdBeta");
}
END_TEST

/* ------------------------------------------------------------------ LayerNorm (LayerNormPara), Normalize */

struct OpSeparate {
    static void run(LocalTensor<uint8_t> *l, const Args &a)
    {
        auto F = [&](int i) { return l[i].ReinterpretCast<float>(); };
        LayerNormSeparateTiling t{};
        LayerNormPara p = {a.u[0], a.u[1], a.u[2]};
        /* 0: x, 1: gamma | beta, 2: y, 3: mean | rstd, 4: normalize y, 5: var (in) | normalize rstd */
        LayerNorm<float, float, false>(F(2), F(3), F(3)[16], F(0), F(1), F(1)[24], a.f[0], p, t);
        NormalizePara np = {a.u[0], a.u[1], a.u[2]};
        Normalize<float, float, false>(F(4), F(5)[16], F(3), F(5), F(0), F(1), F(1)[24], a.f[0], np);
    }
};

START_TEST(test_ascendc_norm_layernorm_rstd_normalize)
{
    Session s;
    const uint32_t A = 9, R = 20, RP = 24;
    std::vector<float> x = fdata(A * RP, -5, 5), gb = fdata(48, -2, 2);
    for (uint32_t r = 0; r < A; r++)
        for (uint32_t j = R; j < RP; j++)
            x[r * RP + j] = 1e3f; /* the padding: not part of the statistics */
    std::vector<double> mean(A), var(A);
    for (uint32_t r = 0; r < A; r++) {
        std::vector<float> row(x.begin() + r * RP, x.begin() + r * RP + R);
        std::vector<double> m, v;
        stats(row, 1, R, R, m, v);
        mean[r] = m[0];
        var[r] = v[0];
    }
    std::vector<float> vin(32);
    for (uint32_t r = 0; r < A; r++)
        vin[r] = (float)var[r];
    Io io;
    io.add(x);
    io.add(gb);
    io.add(std::vector<float>(A * RP));
    io.add(std::vector<float>(32));
    io.add(std::vector<float>(A * RP));
    io.add(vin);
    Args a{};
    a.u[0] = A;
    a.u[1] = R;
    a.u[2] = RP;
    a.f[0] = 1e-3f;
    ck_assert_msg(run<OpSeparate>(s, io, a) == 0, "%s", aclGetRecentErrMsg());
    std::vector<double> y(A * R), ny(A * R), rstd(A);
    std::vector<float> gotY, gotN;
    const auto yo = io.get<float>(2, A * RP), no = io.get<float>(4, A * RP);
    for (uint32_t r = 0; r < A; r++) {
        rstd[r] = 1 / std::sqrt(var[r] + 1e-3);
        for (uint32_t j = 0; j < R; j++) {
            y[r * R + j] = (x[r * RP + j] - mean[r]) * rstd[r] * gb[j] + gb[24 + j];
            gotY.push_back(yo[r * RP + j]);
            gotN.push_back(no[r * RP + j]);
        }
    }
    const auto mr = io.get<float>(3, 32), nr = io.get<float>(5, 32);
    close_to(gotY, y, 2e-5, "layernorm y");
    close_to(std::vector<float>(mr.begin(), mr.begin() + A), mean, 1e-5, "mean");
    close_to(std::vector<float>(mr.begin() + 16, mr.begin() + 16 + A), rstd, 1e-5, "rstd");
    close_to(gotN, y, 2e-5, "normalize y");
    close_to(std::vector<float>(nr.begin() + 16, nr.begin() + 16 + A), rstd, 1e-5, "normalize rstd");
}
END_TEST

/* ------------------------------------------------------------------ Welford */

struct OpWelford {
    static void run(LocalTensor<uint8_t> *l, const Args &a)
    {
        auto F = [&](int i) { return l[i].ReinterpretCast<float>(); };
        static constexpr WelfordUpdateConfig inplace = {true};
        WelfordUpdateParam p = {1, 64, a.u[0], a.f[0]};
        /* 0: x, 1: mean in, 2: var in, 3: mean out, 4: var out, 5: counts | finalize outputs */
        WelfordUpdate<float, float, false, inplace>(F(3), F(4), F(1), F(2), F(0), p);
        WelfordFinalizePara fp = {4, 16, 0, 0, 0, 0, 1.0f / 16, 1.0f / 64};
        WelfordFinalize<false>(F(5)[16], F(5)[24], F(3), F(4), l[5].ReinterpretCast<int32_t>(), fp);
        WelfordFinalizePara fq = {4, 16, 3, 10, 5, 6, 1.0f / 16, 1.0f / 48};
        WelfordFinalize<false>(F(5)[32], F(5)[40], F(3), F(4), fq);
    }
};

START_TEST(test_ascendc_norm_welford)
{
    Session s;
    const uint32_t N = 64, C = 37;
    const auto x = fdata(N, -10, 10), m = fdata(N, -5, 5), v = fdata(N, 0, 9);
    std::vector<int32_t> cnt(48, 0);
    for (uint32_t i = 0; i < 16; i++)
        cnt[i] = (int32_t)(i % 5 + 1);
    Io io;
    io.add(x);
    io.add(m);
    io.add(v);
    io.add(std::vector<float>(N, -1.0f));
    io.add(std::vector<float>(N, -1.0f));
    io.add(cnt);
    Args a{};
    a.u[0] = C;
    a.f[0] = 0.25f;
    ck_assert_msg(run<OpWelford>(s, io, a) == 0, "%s", aclGetRecentErrMsg());
    /* WelfordUpdate: the same float steps, bit for bit; past abComputeLength the inputs (isInplace) */
    const auto om = io.get<float>(3, N), ov = io.get<float>(4, N);
    for (uint32_t i = 0; i < N; i++) {
        float em = m[i], ev = v[i];
        if (i < C) {
            const float d = x[i] - m[i];
            em = m[i] + d * 0.25f;
            ev = v[i] + d * (x[i] - em);
        }
        ck_assert_msg(om[i] == em && ov[i] == ev, "update %u: %g %g, expected %g %g", i, om[i], ov[i], em, ev);
    }
    /* WelfordFinalize over the first 16 with counts, then with head 3 x 10 and tail 5 x 6 */
    const auto fo = io.get<float>(5, 48);
    double cm = 0, cv = 0, hm = 0, hv = 0;
    for (uint32_t i = 0; i < 16; i++) {
        cm += (double)om[i] * cnt[i] / 64;
        hm += (double)om[i] * (i < 10 ? 3 : 5) / 48;
    }
    for (uint32_t i = 0; i < 16; i++) {
        cv += ((om[i] - cm) * (om[i] - cm) * cnt[i] + ov[i]) / 64;
        hv += ((om[i] - hm) * (om[i] - hm) * (i < 10 ? 3 : 5) + ov[i]) / 48;
    }
    close_to({fo[16], fo[24], fo[32], fo[40]}, {cm, cv, hm, hv}, 1e-5, "finalize");
    for (uint32_t i = 1; i < 8; i++)
        ck_assert_msg(fo[16 + i] == 0 && fo[24 + i] == 0 && fo[32 + i] == 0 && fo[40 + i] == 0, "finalize %u", i);
}
END_TEST

/* ------------------------------------------------------------------ AscendQuant, AscendDequant */

struct OpQuant {
    static void run(LocalTensor<uint8_t> *l, const Args &a)
    {
        /* 0: float src, 1: int8 dst, 2: half src, 3: int8 dst, 4: int32 | float scale, 5: float dst */
        LocalTensor<uint8_t> tmp = l[3]; /* the half quant's output, written after */
        tmp.SetSize(512);                 /* 256 halves: 1000 elements in four steps */
        AscendQuant<float>(l[1].ReinterpretCast<int8_t>(), l[0].ReinterpretCast<float>(), tmp, a.f[0], a.f[1], 1000);
        AscendQuant<half>(l[3].ReinterpretCast<int8_t>(), l[2].ReinterpretCast<half>(), a.f[0], a.f[1], 1024);
        PipeBarrier<PIPE_V>();
        DequantParams p = {a.u[0], a.u[1], a.u[2]};
        AscendDequant<float, float>(l[5].ReinterpretCast<float>(), l[4].ReinterpretCast<int32_t>(),
                                    l[4].ReinterpretCast<float>()[a.u[0] * a.u[1]], p);
    }
};

int8_t quant_ref(float v, float scale, float offset)
{
    half h = (half)v;
    h = (half)((float)h * (float)(half)scale);
    h = (half)((float)h + (float)(half)offset);
    return (int8_t)std::nearbyint((float)h);
}

START_TEST(test_ascendc_norm_quant_dequant)
{
    Session s;
    const auto xf = fdata(1024, -20, 20);
    std::vector<half> xh(1024);
    for (uint32_t i = 0; i < 1024; i++)
        xh[i] = (half)(float)uni(-20, 20);
    const uint32_t M = 5, Nn = 24, CNT = 20;
    std::vector<int32_t> src(M * Nn + Nn);
    for (uint32_t i = 0; i < M * Nn; i++)
        src[i] = (int32_t)uni(-1000, 1000);
    const auto sc = fdata(Nn, -3, 3);
    std::memcpy(&src[M * Nn], sc.data(), Nn * 4);
    Io io;
    io.add(xf);
    io.add(std::vector<int8_t>(1024));
    io.add(xh);
    io.add(std::vector<int8_t>(1024));
    io.add(src);
    io.add(std::vector<float>(M * Nn, 7.0f));
    Args a{};
    a.f[0] = 2.5f;
    a.f[1] = -0.7f;
    a.u[0] = M;
    a.u[1] = Nn;
    a.u[2] = CNT;
    ck_assert_msg(run<OpQuant>(s, io, a) == 0, "%s", aclGetRecentErrMsg());
    const auto qf = io.get<int8_t>(1, 1024), qh = io.get<int8_t>(3, 1024);
    for (uint32_t i = 0; i < 1024; i++) {
        if (i < 1000)
            ck_assert_msg(qf[i] == quant_ref(xf[i], 2.5f, -0.7f), "quant float %u: %d", i, qf[i]);
        else
            ck_assert_msg(qf[i] == 0, "quant float %u past calCount: %d", i, qf[i]);
        ck_assert_msg(qh[i] == quant_ref((float)xh[i], 2.5f, -0.7f), "quant half %u: %d", i, qh[i]);
    }
    const auto d = io.get<float>(5, M * Nn);
    for (uint32_t r = 0; r < M; r++)
        for (uint32_t j = 0; j < Nn; j++) {
            const float want = j < CNT ? (float)src[r * Nn + j] * sc[j] : 7.0f;
            ck_assert_msg(d[r * Nn + j] == want, "dequant [%u][%u]: %g, expected %g", r, j, d[r * Nn + j], want);
        }
}
END_TEST

/* ------------------------------------------------------------------ errors, host functions */

struct OpSmallTmp {
    static constexpr int line = __LINE__ + 8;
    static void run(LocalTensor<uint8_t> *l, const Args &)
    {
        RmsNormTiling t{};
        t.bLength = 1;
        t.sLength = 16;
        t.hLength = 64;
        t.reciprocalOfHLength = 1.0f / 64;
        RmsNorm<float>(l[1].ReinterpretCast<float>(), l[0].ReinterpretCast<float>(), l[0].ReinterpretCast<float>(),
                       l[2], 1e-5f, t);
    }
};
struct OpRowLen {
    static constexpr int line = __LINE__ + 9;
    static void run(LocalTensor<uint8_t> *l, const Args &)
    {
        LayerNormTiling t{};
        t.bLength = 1;
        t.sLength = 4;
        t.hLength = 12;
        t.originalHLength = 12;
        auto F = l[0].ReinterpretCast<float>();
        LayerNorm<float, false>(l[1].ReinterpretCast<float>(), F, F, F, F, F, 1e-5f, t);
    }
};

template <class OP> void expect_error(Session &s, std::initializer_list<const char *> parts)
{
    Io io;
    io.add(std::vector<float>(1024, 1.0f));
    io.add(std::vector<float>(1024));
    io.add(std::vector<uint8_t>(256));
    ck_assert_int_ne(run<OP>(s, io, Args{}), 0);
    char where[64];
    std::snprintf(where, sizeof where, "check_ascendc_norm.cpp:%d: ", OP::line);
    error_has({where});
    error_has(parts);
}

START_TEST(test_ascendc_norm_errors)
{
    Session s;
    expect_error<OpSmallTmp>(s, {"RmsNorm: ", "the temporary buffer (256 bytes) is smaller than the"});
    expect_error<OpRowLen>(s, {"LayerNorm: ", "the row length H 12 must be a positive multiple of 8"});
}
END_TEST

START_TEST(test_ascendc_norm_host_tiling)
{
    /* the kernel struct and the host class of one table have the same bytes */
    ck_assert_uint_eq(sizeof(AscendC::tiling::LayerNormTiling), 26 * 4);
    ck_assert_uint_eq(sizeof(optiling::LayerNormTiling), sizeof(AscendC::tiling::LayerNormTiling));
    ck_assert_uint_eq(sizeof(optiling::LayerNormGradTiling), 30 * 4);
    ck_assert_uint_eq(sizeof(optiling::LayerNormGradBetaTiling), 20 * 4);
    ck_assert_uint_eq(sizeof(optiling::RmsNormTiling), 12 * 4);
    /* CANN's LayerNorm tiling arithmetic, [2, 32, 16, 16] float with 704 bytes: 176 floats, 3 buffers of 48 */
    optiling::LayerNormTiling t;
    GetLayerNormNDTilingInfo(ge::Shape({2, 32, 16, 16}), 704, 4, false, t);
    ck_assert_uint_eq(t.get_inputXSize(), 1024);
    ck_assert_uint_eq(t.get_meanVarSize(), 64);
    ck_assert_uint_eq(t.get_tmpBufSize(), 176);
    ck_assert_uint_eq(t.get_oneTmpSize(), 48);
    ck_assert_uint_eq(t.get_loopRound(), 21);
    ck_assert_uint_eq(t.get_inputTailSize(), 16);
    ck_assert_uint_eq(t.get_meanVarRoundSize(), 3);
    ck_assert(t.get_lastDimValueBack() == 1.0f / 16);
    AscendC::tiling::LayerNormTiling k;
    GetLayerNormNDTilingInfo(ge::Shape({2, 32, 16, 16}), 704, 4, false, k);
    ck_assert_int_eq(std::memcmp(&k, &t, sizeof k), 0);
    /* DeepNorm refuses what it cannot tile */
    uint32_t mx = 0, mn = 0;
    ck_assert(GetDeepNormMaxMinTmpSize(ge::Shape({4, 16, 64}), 4, false, true, mx, mn));
    ck_assert(!GetDeepNormMaxMinTmpSize(ge::Shape({4, 16, 60}), 4, false, false, mx, mn));
    AscendC::tiling::DeepNormTiling d;
    ck_assert(!GetDeepNormTilingInfo(ge::Shape({4, 16, 64}), ge::Shape({4, 16, 72}), 4096, 4, false, false, d));
    /* RmsNorm: the rows a buffer holds (row_tmp_floats(16, 64) = 16 * 64 + 16 * 8 + 64) */
    optiling::RmsNormTiling r;
    ck_assert(GetRmsNormTilingInfo(ge::Shape({2, 20, 64}), ge::Shape({2, 20, 64}), (16 * 64 + 128 + 64) * 4, 4, r));
    ck_assert_uint_eq(r.get_mainBsLength(), 16);
    ck_assert_uint_eq(r.get_loopRound(), 2);
    ck_assert_uint_eq(r.get_tailBsLength(), 8);
    ck_assert(!GetRmsNormTilingInfo(ge::Shape({2, 20, 64}), ge::Shape({2, 20, 64}), 64, 4, r));
    /* quantization */
    GetAscendQuantMaxMinTmpSize(ge::Shape({1024}), 4, mx, mn);
    ck_assert_uint_eq(mx, 2048);
    ck_assert_uint_eq(mn, 512);
    /* securec, as the samples call it */
    char buf[8];
    ck_assert_int_eq(memcpy_s(buf, sizeof buf, "abc", 4), EOK);
    ck_assert_int_eq(memcpy_s(buf, 2, "abc", 4), ERANGE_AND_RESET);
    ck_assert_int_eq(buf[0], 0);
}
END_TEST

} // namespace

extern "C" Suite *dv_ascendc_norm_suite(void)
{
    Suite *s = suite_create("ascendc_norm");
    TCase *tc = tcase_create("normalization");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_ascendc_norm_layernorm);
    tcase_add_test(tc, test_ascendc_norm_deepnorm_rmsnorm);
    tcase_add_test(tc, test_ascendc_norm_layernorm_grad);
    tcase_add_test(tc, test_ascendc_norm_layernorm_rstd_normalize);
    tcase_add_test(tc, test_ascendc_norm_welford);
    tcase_add_test(tc, test_ascendc_norm_quant_dequant);
    tcase_add_test(tc, test_ascendc_norm_errors);
    tcase_add_test(tc, test_ascendc_norm_host_tiling);
    suite_add_tcase(s, tc);
    return s;
}
