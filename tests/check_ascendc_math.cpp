/* tests/check_ascendc_math.cpp - the math high-level APIs of dvsim's Ascend C (include/ascendc/adv/math.h and
 * math_tiling.h): kernels run through the AscendCL shim and their outputs compared with plain C++ references
 * (libm, or the arithmetic the API is defined by); small temporary buffers so the APIs work in several chunks;
 * the located errors of misuse; the host functions' figures against CANN's, computed by hand. */
#include <check.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "acl/acl.h"
#include "ascendc/kernel_operator.h"
#include "support/ascendc_session.h"

using namespace AscendC;

namespace {

using dvtest::Session;
using dvtest::Dev;

uint64_t g_rng = 0x2545f4914f6cdd1dull;
double uni(double lo, double hi)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return lo + (double)(g_rng >> 11) / 9007199254740992.0 * (hi - lo);
}
template <class T> std::vector<T> data(size_t n, double lo, double hi)
{
    std::vector<T> v(n);
    for (auto &x : v)
        x = std::is_integral<T>::value ? (T)(int64_t)std::floor(uni(lo, hi + 1)) : (T)(float)uni(lo, hi);
    return v;
}
template <class T> double as_d(T v) { return (double)(float)v; }

/* got[i] is want[i] within |got - want| <= abs + rel |want| for i < cnt (NaN where want is NaN), and the prefilled
 * value zf[i] past cnt. */
template <class T>
void close(const std::vector<T> &got, const std::vector<double> &want, const std::vector<T> &zf, uint32_t cnt,
           double rel, double abs, const char *what)
{
    for (size_t i = 0; i < got.size(); i++) {
        const double g = as_d(got[i]);
        if (i >= cnt) {
            ck_assert_msg(std::memcmp(&got[i], &zf[i], sizeof(T)) == 0, "%s: element %zu past the count changed",
                          what, i);
            continue;
        }
        if (std::isnan(want[i])) {
            ck_assert_msg(std::isnan(g), "%s: element %zu is %.9g, expected NaN", what, i, g);
            continue;
        }
        if (std::isinf(want[i])) {
            ck_assert_msg(g == want[i], "%s: element %zu is %.9g, expected %g", what, i, g, want[i]);
            continue;
        }
        ck_assert_msg(std::fabs(g - want[i]) <= abs + rel * std::fabs(want[i]),
                      "%s: element %zu is %.9g, expected %.9g", what, i, g, want[i]);
    }
}

/* z (T) = OP(x, y (U), tmp) over cnt elements of buffers of n, tmp a TBuf of tmpBytes (none when 0); z holds
 * its prior contents from GM, so what the API must leave alone is checked. */
template <typename T, typename U, class OP>
__global__ __aicore__ void k_math(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n, uint32_t cnt, uint32_t tmpBytes)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qx, qy;
    TQue<TPosition::VECOUT, 1> qz;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(qx, 1, n * sizeof(U));
    pipe.InitBuffer(qy, 1, n * sizeof(U));
    pipe.InitBuffer(qz, 1, n * sizeof(T));
    pipe.InitBuffer(tb, tmpBytes);
    GlobalTensor<U> gx, gy;
    GlobalTensor<T> gz;
    gx.SetGlobalBuffer((__gm__ U *)x, n);
    gy.SetGlobalBuffer((__gm__ U *)y, n);
    gz.SetGlobalBuffer((__gm__ T *)z, n);
    LocalTensor<U> lx = qx.AllocTensor<U>(), ly = qy.AllocTensor<U>();
    LocalTensor<T> lz = qz.AllocTensor<T>();
    DataCopy(lx, gx, n);
    DataCopy(ly, gy, n);
    DataCopy(lz, gz, n);
    const int32_t ev = pipe.FetchEventID(HardEvent::MTE2_V);
    SetFlag<HardEvent::MTE2_V>(ev);
    WaitFlag<HardEvent::MTE2_V>(ev);
    OP::run(lz, lx, ly, tb.Get<uint8_t>(), cnt);
    qz.EnQue(lz);
    lz = qz.DeQue<T>();
    DataCopy(gz, lz, n);
    qz.FreeTensor(lz);
    qx.FreeTensor(lx);
    qy.FreeTensor(ly);
}

template <typename T, typename U, class OP>
std::vector<T> run(Session &s, const std::vector<U> &x, const std::vector<U> &y, const std::vector<T> &zf,
                   uint32_t cnt, uint32_t tmpBytes, int *status = nullptr)
{
    Dev<U> dx(x), dy(y);
    Dev<T> dz(zf);
    const uint32_t n = (uint32_t)x.size();
    const uint32_t lrc =
        ::dvac::launch(k_math<T, U, OP>, "k_math", 1, nullptr, s.stream)(dx.gm(), dy.gm(), dz.gm(), n, cnt, tmpBytes);
    const int rc = lrc ? (int)lrc : s.sync();
    if (status)
        *status = rc;
    else
        ck_assert_msg(rc == 0, "kernel failed: %s", aclGetRecentErrMsg());
    return dz.get();
}

/* The unary APIs under test, by index (ref_un: their reference). */
enum {
    ACOSH, ERF, EXP10, LOG, LOG2, LOG10, CEIL, FLOOR, TRUNC, FRAC, CLAMPMIN, CLAMPMAX, ERF_STACK, FRAC_STACK,
    SINH, COSH, TANH, TANH_STACK, ATANH, SIN, COS
};
template <int OP> struct Un {
    template <class T>
    static void run(LocalTensor<T> &z, LocalTensor<T> &x, LocalTensor<T> &, const LocalTensor<uint8_t> &tmp,
                    uint32_t c)
    {
        if constexpr (OP == ACOSH) Acosh(z, x, tmp, c);
        if constexpr (OP == ERF) Erf(z, x, tmp, c);
        if constexpr (OP == EXP10) Exp<T, 10, false>(z, x, tmp, c);
        if constexpr (OP == LOG) Log(z, x, c);
        if constexpr (OP == LOG2) Log2(z, x, tmp, c);
        if constexpr (OP == LOG10) Log10(z, x, c);
        if constexpr (OP == CEIL) Ceil(z, x, tmp, c);
        if constexpr (OP == FLOOR) Floor(z, x, tmp, c);
        if constexpr (OP == TRUNC) Trunc(z, x, tmp, c);
        if constexpr (OP == FRAC) Frac(z, x, tmp, c);
        if constexpr (OP == CLAMPMIN) ClampMin(z, x, tmp, (T)10.0f, c);
        if constexpr (OP == CLAMPMAX) ClampMax(z, x, (T)10.0f, c);
        if constexpr (OP == ERF_STACK) Erf(z, x, c);
        if constexpr (OP == FRAC_STACK) Frac(z, x, c);
        if constexpr (OP == SINH) Sinh(z, x, tmp, c);
        if constexpr (OP == COSH) Cosh(z, x, tmp, c);
        if constexpr (OP == TANH) Tanh(z, x, tmp, c);
        if constexpr (OP == TANH_STACK) Tanh(z, x, c);
        if constexpr (OP == ATANH) Atanh(z, x, tmp, c);
        if constexpr (OP == SIN) Sin(z, x, tmp, c);
        if constexpr (OP == COS) Cos(z, x, tmp, c);
    }
};

double taylor_exp(double x)
{
    const double fl = std::floor(x), f = x - fl;
    double item = 1, r = 1;
    for (int i = 1; i <= 10; i++) {
        item *= f / i;
        r += item;
    }
    return std::exp(fl) * r;
}

double ref_un(int op, double x)
{
    switch (op) {
    case ACOSH: return std::acosh(x);
    case ERF: case ERF_STACK: return std::erf(x);
    case EXP10: return taylor_exp(x);
    case LOG: return std::log(x);
    case LOG2: return std::log2(x);
    case LOG10: return std::log10(x);
    case CEIL: return std::ceil(x);
    case FLOOR: return std::floor(x);
    case TRUNC: return std::trunc(x);
    case FRAC: case FRAC_STACK: return x - std::trunc(x);
    case CLAMPMIN: return x < 10 ? 10 : x;
    case SINH: return std::sinh(x);
    case COSH: return std::cosh(x);
    case TANH: case TANH_STACK: return std::tanh(x);
    case ATANH: return std::atanh(x);
    case SIN: return std::sin(x);
    case COS: return std::cos(x);
    default: return x > 10 ? 10 : x;
    }
}

template <class T, int OP>
void check_un(Session &s, uint32_t cnt, std::vector<T> x, uint32_t tmpBytes, double rel, double abs)
{
    const uint32_t n = (uint32_t)x.size();
    const std::vector<T> zf = data<T>(n, -5, 5);
    const auto z = run<T, T, Un<OP>>(s, x, x, zf, cnt, tmpBytes);
    std::vector<double> want(n);
    for (uint32_t i = 0; i < cnt; i++)
        want[i] = ref_un(OP, as_d(x[i]));
    char what[64];
    std::snprintf(what, sizeof what, "unary API %d, %zu-byte type, count %u", OP, sizeof(T), cnt);
    close(z, want, zf, cnt, rel, abs, what);
}

} // namespace

/* Each float API over 200 of 256 elements, with the smallest temporary buffer its host function allows (several
 * chunks and a tail); the rounding family exact, on integral, huge and negative values too. */
START_TEST(test_ascendc_math_float)
{
    Session s;
    const TensorShape sh({200});
    uint32_t mx, mn;
    auto xs = data<float>(256, 1, 1000);
    xs[3] = 0.5f, xs[7] = -2.0f, xs[9] = 1.0f;
    GetAcoshMaxMinTmpSize(sh, 4, false, mx, mn);
    check_un<float, ACOSH>(s, 200, xs, mn, 2e-6, 1e-6);
    auto xe = data<float>(256, -5, 5);
    xe[0] = -3.19487729314041f, xe[1] = 0.0f, xe[2] = 3e38f, xe[3] = -3e38f;
    GetErfMaxMinTmpSize(sh, 4, false, mx, mn);
    check_un<float, ERF>(s, 200, xe, mn, 0, 2e-6);
    check_un<float, ERF_STACK>(s, 200, xe, 0, 0, 2e-6);
    GetExpMaxMinTmpSize(sh, 4, false, mx, mn);
    check_un<float, EXP10>(s, 200, data<float>(256, -10, 10), mn, 2e-6, 0);
    auto xl = data<float>(256, 1e-3, 1e4);
    xl[5] = 0.0f, xl[6] = -1.0f, xl[7] = 1.0f;
    check_un<float, LOG>(s, 200, xl, 0, 1e-6, 1e-7);
    check_un<float, LOG2>(s, 200, xl, 0, 1e-6, 1e-7);
    check_un<float, LOG10>(s, 200, xl, 0, 1e-6, 1e-7);
    auto xr = data<float>(256, -1000, 1000);
    xr[0] = 3e20f, xr[1] = -3e9f, xr[2] = -2.0f, xr[3] = 5.0f, xr[4] = -0.5f, xr[5] = 0.5f, xr[6] = 8388607.5f;
    GetCeilMaxMinTmpSize(sh, 4, false, mx, mn);
    check_un<float, CEIL>(s, 200, xr, mn, 0, 0);
    check_un<float, FLOOR>(s, 200, xr, mn, 0, 0);
    check_un<float, TRUNC>(s, 200, xr, mn, 0, 0);
    check_un<float, FRAC>(s, 200, xr, 0, 0, 0);
    check_un<float, FRAC_STACK>(s, 256, xr, 0, 0, 0);
    check_un<float, CLAMPMIN>(s, 200, xr, 64, 0, 0);
    check_un<float, CLAMPMAX>(s, 200, xr, 0, 0, 0);
    auto xh = data<float>(256, -20, 20);
    xh[0] = 0.0f, xh[1] = 1e-3f, xh[2] = 80.0f, xh[3] = -80.0f;
    GetSinhMaxMinTmpSize(sh, 4, false, mx, mn);
    check_un<float, SINH>(s, 200, xh, mn, 2e-6, 1e-6);
    GetCoshMaxMinTmpSize(sh, 4, false, mx, mn);
    check_un<float, COSH>(s, 200, xh, mn, 2e-6, 0);
    GetTanhMaxMinTmpSize(sh, 4, false, mx, mn);
    check_un<float, TANH>(s, 200, xh, mn, 2e-6, 1e-6);
    check_un<float, TANH_STACK>(s, 256, xh, 0, 2e-6, 1e-6);
    auto xa = data<float>(256, -0.99, 0.99);
    xa[0] = 0.0f, xa[1] = 1.0f, xa[2] = -1.0f, xa[3] = 2.0f;
    GetAtanhMaxMinTmpSize(sh, 4, false, mx, mn);
    check_un<float, ATANH>(s, 200, xa, mn, 1e-5, 1e-6);
    auto xs2 = data<float>(256, -100, 100);
    xs2[0] = 0.0f, xs2[1] = 3.14159265f, xs2[2] = -1.5707963f, xs2[3] = 1000.25f;
    GetSinMaxMinTmpSize(sh, 4, false, mx, mn);
    check_un<float, SIN>(s, 200, xs2, mn, 0, 2e-6);
    GetCosMaxMinTmpSize(sh, 4, false, mx, mn);
    check_un<float, COS>(s, 200, xs2, mn, 0, 2e-6);
}
END_TEST

/* The half forms, computed in float in the temporary buffer: within half's rounding. */
START_TEST(test_ascendc_math_half)
{
    Session s;
    const TensorShape sh({300});
    uint32_t mx, mn;
    GetAcoshMaxMinTmpSize(sh, 2, false, mx, mn);
    check_un<half, ACOSH>(s, 300, data<half>(320, 1, 60), mn, 1e-3, 0);
    GetErfMaxMinTmpSize(sh, 2, false, mx, mn);
    check_un<half, ERF>(s, 300, data<half>(320, -4, 4), mn, 0, 1e-3);
    GetExpMaxMinTmpSize(sh, 2, false, mx, mn);
    check_un<half, EXP10>(s, 300, data<half>(320, -5, 5), mn, 1e-3, 0);
    GetLog2MaxMinTmpSize(sh, 2, false, mx, mn);
    check_un<half, LOG2>(s, 300, data<half>(320, 0.1, 100), mn, 1e-3, 1e-3);
    auto xr = data<half>(320, -100, 100);
    GetCeilMaxMinTmpSize(sh, 2, false, mx, mn);
    check_un<half, CEIL>(s, 300, xr, mn, 0, 0);
    check_un<half, TRUNC>(s, 300, xr, mn, 0, 0);
    GetFracMaxMinTmpSize(sh, 2, false, mx, mn);
    check_un<half, FRAC>(s, 300, xr, mn, 0, 0);
    const auto xh = data<half>(320, -8, 8);
    GetSinhMaxMinTmpSize(sh, 2, false, mx, mn);
    check_un<half, SINH>(s, 300, xh, mn, 1e-3, 1e-3);
    GetCoshMaxMinTmpSize(sh, 2, false, mx, mn);
    check_un<half, COSH>(s, 300, xh, mn, 1e-3, 0);
    GetTanhMaxMinTmpSize(sh, 2, false, mx, mn);
    check_un<half, TANH>(s, 300, xh, mn, 0, 1e-3);
    GetAtanhMaxMinTmpSize(sh, 2, false, mx, mn);
    check_un<half, ATANH>(s, 300, data<half>(320, -0.9, 0.9), mn, 2e-3, 2e-3);
    GetSinMaxMinTmpSize(sh, 2, false, mx, mn);
    check_un<half, SIN>(s, 300, data<half>(320, -10, 10), mn, 0, 1e-3);
    GetCosMaxMinTmpSize(sh, 2, false, mx, mn);
    check_un<half, COS>(s, 300, data<half>(320, -10, 10), mn, 0, 1e-3);
}
END_TEST

namespace {
struct XorOp {
    template <class T>
    static void run(LocalTensor<T> &z, LocalTensor<T> &x, LocalTensor<T> &y, const LocalTensor<uint8_t> &tmp,
                    uint32_t c)
    {
        if (tmp.GetSize())
            Xor(z, x, y, tmp, c);
        else
            Xor(z, x, y, c);
    }
};
template <bool HALF_DST> struct AxpyOp {
    template <class T, class U>
    static void run(LocalTensor<T> &z, LocalTensor<U> &x, LocalTensor<U> &, const LocalTensor<uint8_t> &tmp,
                    uint32_t c)
    {
        Axpy(z, x, (U)2.0f, tmp, c);
    }
};
struct FmodOp {
    template <class T>
    static void run(LocalTensor<T> &z, LocalTensor<T> &x, LocalTensor<T> &y, const LocalTensor<uint8_t> &tmp,
                    uint32_t c)
    {
        Fmod(z, x, y, tmp, c);
    }
};
} // namespace

/* Xor of int16 and uint16 (with the smallest buffer and with the stack buffer); Axpy half -> float and half ->
 * half through float; Fmod of float and half. */
START_TEST(test_ascendc_math_binary)
{
    Session s;
    uint32_t mx, mn;
    GetXorMaxMinTmpSize(TensorShape({1000}), 2, false, mx, mn);
    ck_assert_uint_eq(mn, 256);
    ck_assert_uint_eq(mx, 2000);
    for (uint32_t tmp : {mn, 0u}) {
        const auto x = data<int16_t>(1024, -32768, 32767), y = data<int16_t>(1024, -32768, 32767);
        const auto zf = data<int16_t>(1024, -100, 100);
        const auto z = run<int16_t, int16_t, XorOp>(s, x, y, zf, 1000, tmp);
        for (uint32_t i = 0; i < 1024; i++)
            ck_assert_int_eq(z[i], i < 1000 ? (int16_t)(x[i] ^ y[i]) : zf[i]);
    }
    const auto ux = data<uint16_t>(64, 0, 65535), uy = data<uint16_t>(64, 0, 65535);
    const auto uz = run<uint16_t, uint16_t, XorOp>(s, ux, uy, std::vector<uint16_t>(64), 64, 256);
    for (uint32_t i = 0; i < 64; i++)
        ck_assert_uint_eq(uz[i], (uint16_t)(ux[i] ^ uy[i]));

    GetAxpyMaxMinTmpSize(TensorShape({500}), 2, false, mx, mn);
    ck_assert_uint_eq(mn, 1024);
    const auto hx = data<half>(512, -100, 100);
    const auto fz = data<float>(512, -100, 100);
    const auto fo = run<float, half, AxpyOp<false>>(s, hx, hx, fz, 500, mn);
    for (uint32_t i = 0; i < 512; i++)
        ck_assert_msg(fo[i] == (i < 500 ? (float)hx[i] * 2.0f + fz[i] : fz[i]), "Axpy half -> float, element %u", i);
    const auto hz = data<half>(512, -100, 100);
    const auto ho = run<half, half, AxpyOp<true>>(s, hx, hx, hz, 500, mn);
    for (uint32_t i = 0; i < 512; i++) {
        const half w = i < 500 ? (half)((float)hx[i] * 2.0f + (float)hz[i]) : hz[i];
        ck_assert_msg(std::memcmp(&ho[i], &w, 2) == 0, "Axpy half -> half, element %u", i);
    }

    auto a = data<float>(160, -1000, 1000), b = data<float>(160, 1, 50);
    for (uint32_t i = 0; i < 160; i += 2)
        b[i] = -b[i];
    a[0] = 0.0f;
    GetFmodMaxMinTmpSize(TensorShape({159}), 4, false, mx, mn);
    ck_assert_uint_eq(mn, 256);
    ck_assert_uint_eq(mx, 636);
    const auto zf = data<float>(160, -1, 1);
    const auto fm = run<float, float, FmodOp>(s, a, b, zf, 159, mn);
    std::vector<double> want(160);
    for (uint32_t i = 0; i < 159; i++)
        want[i] = std::fmod((double)a[i], (double)b[i]);
    close(fm, want, zf, 159, 0, 5e-4, "Fmod float");
    const std::vector<half> ha(a.begin(), a.end()), hb(b.begin(), b.end());
    GetFmodMaxMinTmpSize(TensorShape({160}), 2, false, mx, mn);
    const auto hm = run<half, half, FmodOp>(s, ha, hb, std::vector<half>(160), 160, mn);
    for (uint32_t i = 0; i < 160; i++)
        want[i] = (double)(float)(half)std::fmod((float)ha[i], (float)hb[i]);
    close(hm, want, std::vector<half>(160), 160, 0, 0.05, "Fmod half");
}
END_TEST

namespace {
template <int MODE> struct PowerOp {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y,
                    const LocalTensor<uint8_t> &tmp, uint32_t c)
    {
        if constexpr (MODE == 0)
            Power(z, x, y, tmp, c);
        if constexpr (MODE == 1)
            Power(z, x, -3.0f, tmp, c);
        if constexpr (MODE == 2)
            Power(z, -2.0f, y, tmp, c);
        if constexpr (MODE == 3)
            Power(z, x, y, c);
    }
};
} // namespace

/* Power of float: std::pow's special cases (negative bases with odd, even and fractional exponents, zero
 * exponents and bases, 1 to any power), in chunks of the smallest buffer, and the scalar forms. */
START_TEST(test_ascendc_math_power)
{
    Session s;
    uint32_t mx, mn;
    GetPowerMaxMinTmpSize(TensorShape({16}), TensorShape({16}), false, 4, false, mx, mn);
    ck_assert_uint_eq(mn, 1280);
    ck_assert_uint_eq(mx, 1280);
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> x = data<float>(200, 0.1, 10), y = data<float>(200, -10, 10);
    const float cx[] = {-2, -2, -2, -3, 0, 0, 0, 1, 1, -1, 5, -0.5f, 2, -8, 0.5f, 4};
    const float cy[] = {3, 2, 0.5f, -3, 0, 2, -1, inf, 123.5f, 1e9f, 0, 2, -inf, 1.0f / 3, inf, 0.5f};
    for (int i = 0; i < 16; i++)
        x[70 + i] = cx[i], y[70 + i] = cy[i];
    for (int i = 100; i < 140; i++)
        x[i] = -x[i], y[i] = std::round(y[i]);
    for (int mode = 0; mode < 4; mode++) {
        GetPowerMaxMinTmpSize(TensorShape({200}), mode == 0 || mode == 3 ? TensorShape({200}) : TensorShape({1}),
                              false, 4, false, mx, mn);
        const std::vector<float> zf(200, 7.0f);
        std::vector<float> z;
        if (mode == 0)
            z = run<float, float, PowerOp<0>>(s, x, y, zf, 190, mn);
        else if (mode == 1)
            z = run<float, float, PowerOp<1>>(s, x, y, zf, 190, mn);
        else if (mode == 2)
            z = run<float, float, PowerOp<2>>(s, x, y, zf, 190, mn);
        else
            z = run<float, float, PowerOp<3>>(s, x, y, zf, 190, 0);
        std::vector<double> want(200);
        for (int i = 0; i < 190; i++)
            want[i] = std::pow(mode == 2 ? -2.0f : x[i], mode == 1 ? -3.0f : y[i]);
        char what[32];
        std::snprintf(what, sizeof what, "Power mode %d", mode);
        close(z, want, zf, 190, 1e-5, 1e-30, what);
    }
}
END_TEST

namespace {
template <class T, bool LAST_ROW> struct CumSumK {
    static constexpr CumSumConfig cfg = {false, false, LAST_ROW};
};
template <class T, bool LAST_ROW>
__global__ __aicore__ void k_cumsum(GM_ADDR x, GM_ADDR z, GM_ADDR last, uint32_t outer, uint32_t inner, uint32_t tmp)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bz, bl, bt;
    const uint32_t n = outer * inner;
    pipe.InitBuffer(bx, n * sizeof(T));
    pipe.InitBuffer(bz, n * sizeof(T));
    pipe.InitBuffer(bl, inner * sizeof(T));
    pipe.InitBuffer(bt, tmp);
    GlobalTensor<T> gx, gz, gl;
    gx.SetGlobalBuffer((__gm__ T *)x, n);
    gz.SetGlobalBuffer((__gm__ T *)z, n);
    gl.SetGlobalBuffer((__gm__ T *)last, inner);
    LocalTensor<T> lx = bx.Get<T>(), lz = bz.Get<T>(), ll = bl.Get<T>();
    LocalTensor<uint8_t> lt = bt.Get<uint8_t>();
    DataCopy(lx, gx, n);
    PipeBarrier<PIPE_ALL>();
    CumSum<T, CumSumK<T, LAST_ROW>::cfg>(lz, ll, lx, lt, CumSumInfo{outer, inner});
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, lz, n);
    DataCopy(gl, ll, inner);
}
template <class T> void check_cumsum(Session &s, uint32_t outer, uint32_t inner)
{
    const uint32_t n = outer * inner;
    const auto x = data<T>(n, -10, 10);
    uint32_t mx, mn;
    GetCumSumMaxMinTmpSize(TensorShape({outer, inner}), sizeof(T), false, false, mx, mn);
    ck_assert_uint_eq(mn, sizeof(T) == 2 ? n * 4 : 0);
    Dev<T> dx(x), dz{std::vector<T>(n)}, dl{std::vector<T>(inner)};
    ck_assert_msg(::dvac::launch(k_cumsum<T, true>, "k_cumsum", 1, nullptr, s.stream)(dx.gm(), dz.gm(), dl.gm(),
                                                                                      outer, inner, mn) == 0,
                  "launch failed: %s", aclGetRecentErrMsg());
    ck_assert_msg(s.sync() == 0, "kernel failed: %s", aclGetRecentErrMsg());
    const auto z = dz.get(), l = dl.get();
    std::vector<float> acc(inner, 0.0f);
    for (uint32_t r = 0; r < outer; r++)
        for (uint32_t c = 0; c < inner; c++) {
            acc[c] = r ? acc[c] + (float)x[r * inner + c] : (float)x[c];
            const T w = (T)acc[c];
            ck_assert_msg(std::memcmp(&z[r * inner + c], &w, sizeof(T)) == 0, "CumSum (%zu-byte) row %u column %u",
                          sizeof(T), r, c);
            if (r == outer - 1)
                ck_assert_msg(std::memcmp(&l[c], &w, sizeof(T)) == 0, "CumSum last row, column %u", c);
        }
}

template <class T> __global__ __aicore__ void k_arange(GM_ADDR z, T first, T diff, int32_t count, uint32_t n)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, n * sizeof(T));
    GlobalTensor<T> gz;
    gz.SetGlobalBuffer((__gm__ T *)z, n);
    LocalTensor<T> lz = q.AllocTensor<T>();
    Arange<T>(lz, first, diff, count);
    q.EnQue(lz);
    lz = q.DeQue<T>();
    DataCopy(gz, lz, n);
    q.FreeTensor(lz);
}
template <class T> void check_arange(Session &s, T first, T diff, int32_t count)
{
    constexpr uint32_t B = 32 / sizeof(T);
    const uint32_t n = (uint32_t)(count + B - 1) / B * B;
    Dev<T> dz{std::vector<T>(n)};
    ck_assert_int_eq(::dvac::launch(k_arange<T>, "k_arange", 1, nullptr, s.stream)(dz.gm(), first, diff, count, n),
                     0);
    ck_assert_msg(s.sync() == 0, "kernel failed: %s", aclGetRecentErrMsg());
    const auto z = dz.get();
    for (int32_t i = 0; i < count; i++)
        ck_assert_msg(as_d(z[i]) == as_d(first) + as_d(diff) * i, "Arange count %d: element %d is %g", count, i,
                      as_d(z[i]));
}
} // namespace

/* CumSum along the first axis (float, and half through float; the last row too), Arange of every length class
 * (one datablock, up to a repeat, whole repeats with a tail); values exact in the type. */
START_TEST(test_ascendc_math_cumsum_arange)
{
    Session s;
    check_cumsum<float>(s, 32, 160);
    check_cumsum<half>(s, 7, 48);
    check_arange<float>(s, 1.5f, 0.25f, 5);
    check_arange<float>(s, 1.5f, 0.25f, 50);
    check_arange<float>(s, -3.0f, 0.5f, 100);
    check_arange<float>(s, -3.0f, 0.5f, 256);
    check_arange<int32_t>(s, 7, -3, 300);
    check_arange<half>(s, (half)1.0f, (half)0.5f, 200);
}
END_TEST

/* Misuse is a located error naming the API: a temporary buffer smaller than a chunk of 32 elements, a count past
 * a tensor's end. */
START_TEST(test_ascendc_math_errors)
{
    Session s;
    int st = 0;
    const auto x = data<float>(64, 1, 10);
    run<float, float, Un<ACOSH>>(s, x, x, x, 64, 64, &st);
    ck_assert_int_ne(st, 0);
    const char *m = aclGetRecentErrMsg();
    ck_assert_ptr_nonnull(m);
    ck_assert_msg(std::strstr(m, "check_ascendc_math.cpp") && std::strstr(m, "Acosh: the temporary buffer of 64 bytes"),
                  "%s", m);
    run<float, float, Un<ERF>>(s, x, x, x, 65, 1024, &st);
    ck_assert_int_ne(st, 0);
    m = aclGetRecentErrMsg();
    ck_assert_msg(std::strstr(m, "Erf: 65 elements pass the end of dstTensor (64 elements)"), "%s", m);
}
END_TEST

/* The host functions' figures, from CANN's formulas by hand (impl/adv_api/tiling/math/). */
START_TEST(test_ascendc_math_tiling)
{
    uint32_t mx = 1, mn = 1;
    GetAcoshMaxMinTmpSize(TensorShape({16}), 4, false, mx, mn);
    ck_assert(mn == 256 && mx == 1024);
    GetAcoshMaxMinTmpSize(TensorShape({1000}), 2, false, mx, mn);
    ck_assert(mn == 512 && mx == 4000);
    GetErfMaxMinTmpSize(TensorShape({12288}), 4, false, mx, mn);
    ck_assert(mn == 768 && mx == 147456);
    GetExpMaxMinTmpSize(TensorShape({8192}), 4, false, mx, mn);
    ck_assert(mn == 768 && mx == 98304);
    GetExpMaxMinTmpSize(TensorShape({8192}), 4, true, mx, mn);
    ck_assert(mn == 512 && mx == 65536);
    GetFracMaxMinTmpSize(TensorShape({4096}), 4, false, mx, mn);
    ck_assert(mn == 0 && mx == 0);
    GetCeilMaxMinTmpSize(TensorShape({8}), 2, false, mx, mn);
    ck_assert(mn == 512 && mx == 512);
    GetClampMaxMinTmpSize(TensorShape({256}), 4, false, mx, mn);
    ck_assert(mn == 64 && mx == 256);
    GetLogMaxMinTmpSize(TensorShape({16384}), 4, false, mx, mn);
    ck_assert(mn == 0 && mx == 0);
    GetAxpyMaxMinTmpSize(TensorShape({512}), 4, false, mx, mn);
    ck_assert(mn == 0 && mx == 0);
    GetCumSumMaxMinTmpSize(TensorShape({32, 160}), 2, true, false, mx, mn);
    ck_assert(mn == 160 * 16 * 2 + 16 * 160 * 2 * 2 && mx == 160 * 32 * 2 + 32 * 160 * 2 * 2);
    GetPowerMaxMinTmpSize(TensorShape({100}), TensorShape({1}), false, 4, false, mx, mn);
    ck_assert(mn == 5 * 256 + 256 && mx == 400 * 5 + 256);
    GetArangeMaxMinTmpSize(mx, mn);
    ck_assert(mn == 0 && mx == 0);
}
END_TEST

extern "C" Suite *dv_ascendc_math_suite(void)
{
    Suite *s = suite_create("ascendc_math");
    TCase *tc = tcase_create("math");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, test_ascendc_math_float);
    tcase_add_test(tc, test_ascendc_math_half);
    tcase_add_test(tc, test_ascendc_math_binary);
    tcase_add_test(tc, test_ascendc_math_power);
    tcase_add_test(tc, test_ascendc_math_cumsum_arange);
    tcase_add_test(tc, test_ascendc_math_errors);
    tcase_add_test(tc, test_ascendc_math_tiling);
    suite_add_tcase(s, tc);
    return s;
}
