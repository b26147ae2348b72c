/* tests/check_ascendc_vec.cpp - the vector API of dvsim's Ascend C (include/ascendc/dvac/vec*.h):
 * Ascend C kernels run through the AscendCL shim (aclrtMalloc, the <<<>>> launch as dvcc rewrites it,
 * aclrtSynchronizeStream) and their outputs compared with plain C++ references; the located errors
 * of misuse; the instruction stream of an API against CANN's dav-2201 sequence. */
#include <check.h>

#include <cmath>
#include <cstdlib>
#include <unistd.h>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "ascendc/kernel_operator.h"
#include "support/ascendc_session.h"

using namespace AscendC;

namespace {

using dvtest::Session;
using dvtest::Dev;

/* ------------------------------------------------------------------ host side */

/* Deterministic data: floats in [lo, hi), integers in [lo, hi]. */
uint64_t g_rng = 0x9e3779b97f4a7c15ull;
uint64_t rnd()
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}
template <class T> std::vector<T> data(size_t n, double lo, double hi)
{
    std::vector<T> v(n);
    for (auto &x : v) {
        const double u = (double)(rnd() >> 11) / 9007199254740992.0;
        if constexpr (std::is_integral<T>::value)
            x = (T)(int64_t)std::floor(lo + u * (hi - lo + 1));
        else
            x = (T)(float)(lo + u * (hi - lo));
    }
    return v;
}

template <class T> double as_d(T v)
{
    if constexpr (std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value)
        return (double)(float)v;
    else
        return (double)v;
}

/* Bit-exact comparison of the first n elements (NaN payloads included). */
template <class T> void same(const std::vector<T> &got, const std::vector<T> &want, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(std::memcmp(&got[i], &want[i], sizeof(T)) == 0, "%s: element %zu is %g, expected %g", what, i,
                      as_d(got[i]), as_d(want[i]));
}

/* The message of the last failure contains all of `parts`. */
void error_has(std::initializer_list<const char *> parts)
{
    const char *m = aclGetRecentErrMsg();
    ck_assert_ptr_nonnull(m);
    for (const char *p : parts)
        ck_assert_msg(std::strstr(m, p), "error '%s' lacks '%s'", m, p);
}

/* ------------------------------------------------------------------ kernels */

/* Element counts a kernel moves: a whole number of 32-byte blocks covering n. */
template <class T> uint32_t padded(uint32_t n)
{
    return (n * (uint32_t)sizeof(T) + 31) / 32 * 32 / (uint32_t)sizeof(T);
}

/* z = OP(x, y) over `cnt` elements of buffers of `n` (copied in and out whole), with TQue hand-off. */
template <typename T, class OP>
__global__ __aicore__ void k_binary(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n, uint32_t cnt)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qx, qy;
    TQue<TPosition::VECOUT, 1> qz;
    pipe.InitBuffer(qx, 1, n * sizeof(T));
    pipe.InitBuffer(qy, 1, n * sizeof(T));
    pipe.InitBuffer(qz, 1, n * sizeof(T));
    GlobalTensor<T> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ T *)x, n);
    gy.SetGlobalBuffer((__gm__ T *)y, n);
    gz.SetGlobalBuffer((__gm__ T *)z, n);
    LocalTensor<T> lx = qx.AllocTensor<T>(), ly = qy.AllocTensor<T>();
    DataCopy(lx, gx, n);
    DataCopy(ly, gy, n);
    qx.EnQue(lx);
    qy.EnQue(ly);
    lx = qx.DeQue<T>();
    ly = qy.DeQue<T>();
    LocalTensor<T> lz = qz.AllocTensor<T>();
    DataCopy(lz, gz, n); /* the output's prior contents, so what the API must not touch is checked too */
    const int32_t ev = pipe.FetchEventID(HardEvent::MTE2_V);
    SetFlag<HardEvent::MTE2_V>(ev);
    WaitFlag<HardEvent::MTE2_V>(ev);
    OP::run(lz, lx, ly, cnt);
    qz.EnQue(lz);
    qx.FreeTensor(lx);
    qy.FreeTensor(ly);
    lz = qz.DeQue<T>();
    DataCopy(gz, lz, n);
    qz.FreeTensor(lz);
}

/* Run k_binary<T, OP> on x, y with z prefilled by zf; returns z. */
template <typename T, class OP>
std::vector<T> run_binary(Session &s, const std::vector<T> &x, const std::vector<T> &y, const std::vector<T> &zf,
                          uint32_t cnt, int *status = nullptr)
{
    Dev<T> dx(x), dy(y), dz(zf);
    const uint32_t n = (uint32_t)x.size();
    ck_assert_int_eq(::dvac::launch(k_binary<T, OP>, "k_binary", 1, nullptr, s.stream)(dx.gm(), dy.gm(), dz.gm(), n,
                                                                                       cnt),
                     0);
    const int rc = s.sync();
    if (status)
        *status = rc;
    else
        ck_assert_msg(rc == 0, "kernel failed: %s", aclGetRecentErrMsg());
    return dz.get();
}

/* ------------------------------------------------------------------ references */

template <class T> T wrap_int(int64_t v) { return (T)(typename std::make_unsigned<T>::type)(uint64_t)v; }

/* An f32 result rounded to T as the ISA does for f16/f32 (the operation in f32, one rounding). */
template <class T> T from_f(float f) { return (T)f; }

template <class T> T ref_bin(int op, T a, T b)
{
    if constexpr (std::is_integral<T>::value) {
        const int64_t x = a, y = b;
        switch (op) {
        case 0: return wrap_int<T>(x + y);
        case 1: return wrap_int<T>(x - y);
        case 2: return wrap_int<T>(x * y);
        case 4: return x >= y ? a : b;
        case 5: return x <= y ? a : b;
        case 6: return (T)(a & b);
        default: return (T)(a | b);
        }
    } else {
        const float x = (float)a, y = (float)b;
        switch (op) {
        case 0: return from_f<T>(x + y);
        case 1: return from_f<T>(x - y);
        case 2: return from_f<T>(x * y);
        case 3: return from_f<T>(x / y);
        case 4: return from_f<T>(x >= y ? x : y);
        default: return from_f<T>(x <= y ? x : y);
        }
    }
}

/* The level-2 binary APIs, by op index of ref_bin. */
template <int OP> struct Bin2 {
    template <class T> static void run(LocalTensor<T> &z, LocalTensor<T> &x, LocalTensor<T> &y, uint32_t cnt)
    {
        const int32_t c = (int32_t)cnt;
        if constexpr (OP == 0) Add(z, x, y, c);
        if constexpr (OP == 1) Sub(z, x, y, c);
        if constexpr (OP == 2) Mul(z, x, y, c);
        if constexpr (OP == 3) Div(z, x, y, c);
        if constexpr (OP == 4) Max(z, x, y, c);
        if constexpr (OP == 5) Min(z, x, y, c);
        if constexpr (OP == 6) And(z, x, y, c);
        if constexpr (OP == 7) Or(z, x, y, c);
    }
};

template <class T, int OP> void check_bin2(Session &s, uint32_t cnt, double lo, double hi)
{
    const uint32_t n = padded<T>(cnt);
    auto x = data<T>(n, lo, hi), y = data<T>(n, lo, hi);
    if (OP == 3)
        for (auto &v : y)
            if (as_d(v) > -0.25 && as_d(v) < 0.25)
                v = (T)1.0f;
    const std::vector<T> zf = data<T>(n, lo, hi);
    auto z = run_binary<T, Bin2<OP>>(s, x, y, zf, cnt);
    std::vector<T> want = zf;
    for (uint32_t i = 0; i < cnt; i++)
        want[i] = ref_bin<T>(OP, x[i], y[i]);
    char what[64];
    std::snprintf(what, sizeof what, "binary op %d, %zu-byte type, count %u", OP, sizeof(T), cnt);
    same(z, want, n, what); /* the elements past count keep the prefilled output's values */
}

/* Element (r, e) of a level-0 operand, in elements: datablocks of E/8 elements, block stride blk and
 * repeat stride rep in 32-byte units (docs/SEMANTICS.md 3.1). */
size_t l0_index(uint32_t E, size_t s, uint32_t r, uint32_t e, uint32_t blk, uint32_t rep)
{
    const uint32_t epb = E / 8;
    return ((size_t)r * rep * 32 + (size_t)(e / epb) * blk * 32) / s + e % epb;
}
bool l0_selected(uint64_t hi, uint64_t lo, uint32_t e) { return e < 64 ? (lo >> e) & 1 : (hi >> (e - 64)) & 1; }

/* want[dst(r, e)] = f(x[src0(r, e)], y[src1(r, e)]) for the selected elements of R repeats. */
template <class T, class F>
void ref_l0(std::vector<T> &want, const std::vector<T> &x, const std::vector<T> &y, uint64_t hi, uint64_t lo,
            uint32_t R, const BinaryRepeatParams &p, F f)
{
    constexpr uint32_t E = 256 / sizeof(T);
    for (uint32_t r = 0; r < R; r++)
        for (uint32_t e = 0; e < E; e++)
            if (l0_selected(E == 64 ? 0 : hi, lo, e))
                want[l0_index(E, sizeof(T), r, e, p.dstBlkStride, p.dstRepStride)] =
                    f(x[l0_index(E, sizeof(T), r, e, p.src0BlkStride, p.src0RepStride)],
                      y[l0_index(E, sizeof(T), r, e, p.src1BlkStride, p.src1RepStride)]);
}

/* The level-0 cases of test_ascendc_vec_level0 (the masks and strides are in the structs). */
const uint64_t BITS_F32[2] = {0x5555555555555555ull, 0};
const BinaryRepeatParams P_F32(1, 1, 1, 8, 8, 8);
struct AddBits {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, uint32_t)
    {
        Add(z, x, y, BITS_F32, 3, P_F32);
    }
};
const BinaryRepeatParams P_H16(2, 1, 0, 16, 8, 1);
struct MulCountStrided {
    static void run(LocalTensor<half> &z, LocalTensor<half> &x, LocalTensor<half> &y, uint32_t)
    {
        Mul(z, x, y, (uint64_t)100, 2, P_H16);
    }
};
/* Counter mode set by the kernel: SetMaskCount, the count through SetVectorMask, isSetMask = false. */
struct SubCounter {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, uint32_t cnt)
    {
        SetMaskCount();
        SetVectorMask<float, MaskMode::COUNTER>((int32_t)cnt);
        Sub<float, false>(z, x, y, MASK_PLACEHOLDER, 1, P_F32);
        SetMaskNorm();
        ResetMask();
    }
};
/* Normal mode set by the kernel, then isSetMask = false. */
struct MaxPreset {
    static void run(LocalTensor<int16_t> &z, LocalTensor<int16_t> &x, LocalTensor<int16_t> &y, uint32_t)
    {
        SetVectorMask<int16_t>(0x00ff00ff00ff00ffull, 0xf0f0f0f0f0f0f0f1ull);
        Max<int16_t, false>(z, x, y, MASK_PLACEHOLDER, 2, BinaryRepeatParams(1, 1, 1, 8, 8, 8));
        ResetMask();
    }
};

/* Ops with a scalar and unary ops through k_binary (y unused), level 2 and level 0. */
template <int OP> struct Un {
    template <class T> static void run(LocalTensor<T> &z, LocalTensor<T> &x, LocalTensor<T> &, uint32_t cnt)
    {
        const int32_t c = (int32_t)cnt;
        const T s = (T)1.5f;
        if constexpr (OP == 0) Adds(z, x, s, c);
        if constexpr (OP == 1) Muls(z, x, s, c);
        if constexpr (OP == 2) Maxs(z, x, s, c);
        if constexpr (OP == 3) Mins(z, x, s, c);
        if constexpr (OP == 4) LeakyRelu(z, x, (T)0.25f, c);
        if constexpr (OP == 5) Exp(z, x, c);
        if constexpr (OP == 6) Ln(z, x, c);
        if constexpr (OP == 7) Abs(z, x, c);
        if constexpr (OP == 8) Sqrt(z, x, c);
        if constexpr (OP == 9) Rsqrt(z, x, c);
        if constexpr (OP == 10) Reciprocal(z, x, c);
        if constexpr (OP == 11) Relu(z, x, c);
        if constexpr (OP == 12) Not(z, x, c);
        if constexpr (OP == 13) Duplicate(z, s, c);
    }
};
template <class T> T ref_un(int op, T a)
{
    if constexpr (std::is_integral<T>::value) {
        const int64_t x = a, s = 1; /* (T)1.5 truncates to 1 */
        switch (op) {
        case 0: return wrap_int<T>(x + s);
        case 1: return wrap_int<T>(x * s);
        case 2: return (T)(x >= s ? x : s);
        case 3: return (T)(x <= s ? x : s);
        case 11: return (T)(x > 0 ? x : 0);
        case 12: return (T)~a;
        default: return (T)s;
        }
    } else {
        const float x = (float)a, s = (float)(T)1.5f, al = (float)(T)0.25f;
        float r;
        switch (op) {
        case 0: r = x + s; break;
        case 1: r = x * s; break;
        case 2: r = x >= s ? x : s; break;
        case 3: r = x <= s ? x : s; break;
        case 4: r = x >= 0 ? x : x * al; break;
        case 5: r = std::exp(x); break;
        case 6: r = std::log(x); break;
        case 7: r = std::fabs(x); break;
        case 8: r = std::sqrt(x); break;
        case 9: r = std::sqrt(x); r = 1.0f / r; break;
        case 10: r = 1.0f / x; break;
        case 11: r = x > 0 ? x : 0.0f; break;
        default: r = s; break;
        }
        return from_f<T>(r);
    }
}
template <class T, int OP> void check_un2(Session &s, uint32_t cnt, double lo, double hi)
{
    const uint32_t n = padded<T>(cnt);
    auto x = data<T>(n, lo, hi), zf = data<T>(n, lo, hi);
    auto z = run_binary<T, Un<OP>>(s, x, x, zf, cnt);
    std::vector<T> want = zf;
    for (uint32_t i = 0; i < cnt; i++)
        want[i] = ref_un<T>(OP, x[i]);
    char what[64];
    std::snprintf(what, sizeof what, "scalar/unary op %d, %zu-byte type, count %u", OP, sizeof(T), cnt);
    same(z, want, n, what);
}

/* z (TO, nout elements, prefilled from GM) = OP(x (TI, nin elements), work (TI, nin elements), cnt). */
template <typename TO, typename TI, class OP>
__global__ __aicore__ void k_map(GM_ADDR x, GM_ADDR z, uint32_t nin, uint32_t nout, uint32_t cnt)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qx;
    TQue<TPosition::VECOUT, 1> qz;
    TBuf<TPosition::VECCALC> work;
    pipe.InitBuffer(qx, 1, nin * sizeof(TI));
    pipe.InitBuffer(qz, 1, nout * sizeof(TO));
    pipe.InitBuffer(work, nin * sizeof(TI));
    GlobalTensor<TI> gx;
    GlobalTensor<TO> gz;
    gx.SetGlobalBuffer((__gm__ TI *)x, nin);
    gz.SetGlobalBuffer((__gm__ TO *)z, nout);
    LocalTensor<TI> lx = qx.AllocTensor<TI>();
    DataCopy(lx, gx, nin);
    qx.EnQue(lx);
    lx = qx.DeQue<TI>();
    LocalTensor<TO> lz = qz.AllocTensor<TO>();
    DataCopy(lz, gz, nout);
    const int32_t ev = pipe.FetchEventID(HardEvent::MTE2_V);
    SetFlag<HardEvent::MTE2_V>(ev);
    WaitFlag<HardEvent::MTE2_V>(ev);
    LocalTensor<TI> w = work.Get<TI>();
    OP::run(lz, lx, w, cnt);
    qz.EnQue(lz);
    qx.FreeTensor(lx);
    lz = qz.DeQue<TO>();
    DataCopy(gz, lz, nout);
    qz.FreeTensor(lz);
}

template <typename TO, typename TI, class OP>
std::vector<TO> run_map(Session &s, const std::vector<TI> &x, const std::vector<TO> &zf, uint32_t cnt,
                        int *status = nullptr)
{
    Dev<TI> dx(x);
    Dev<TO> dz(zf);
    ck_assert_int_eq(::dvac::launch(k_map<TO, TI, OP>, "k_map", 1, nullptr, s.stream)(
                         dx.gm(), dz.gm(), (uint32_t)x.size(), (uint32_t)zf.size(), cnt),
                     0);
    const int rc = s.sync();
    if (status)
        *status = rc;
    else
        ck_assert_msg(rc == 0, "kernel failed: %s", aclGetRecentErrMsg());
    return dz.get();
}

/* ---- Cast references: the value rounded with the mode, then saturated (NaN -> 0) for integers ---- */
double round_mode(double x, RoundMode m)
{
    switch (m) {
    case RoundMode::CAST_FLOOR: return std::floor(x);
    case RoundMode::CAST_CEIL: return std::ceil(x);
    case RoundMode::CAST_TRUNC: return std::trunc(x);
    case RoundMode::CAST_ROUND: return std::round(x);
    default: return std::nearbyint(x);
    }
}
template <class T, class U> T ref_cast(U v, RoundMode m)
{
    const double x = as_d(v);
    if constexpr (std::is_integral<T>::value) {
        if (std::isnan(x))
            return 0;
        const double r = round_mode(x, m);
        const double lo = (double)std::numeric_limits<T>::min(), hi = (double)std::numeric_limits<T>::max();
        return (T)(int64_t)(r < lo ? lo : r > hi ? hi : r);
    } else {
        return (T)(float)x; /* exact here, or the nearest-even rounding the cases below use */
    }
}

/* x rounded to f16 with a directed mode (no overflow in the cases here): the nearest half and its
 * neighbour on the other side of x. */
half half_step(half h, bool up)
{
    uint16_t b;
    std::memcpy(&b, &h, 2);
    const bool neg = b & 0x8000;
    if ((b & 0x7fff) == 0)
        b = up ? 0x0001 : 0x8001;
    else
        b = (uint16_t)(up != neg ? b + 1 : b - 1);
    std::memcpy(&h, &b, 2);
    return h;
}
half ref_to_half(float x, RoundMode m)
{
    const half h = (half)x;
    if ((float)h == x || m == RoundMode::CAST_RINT || m == RoundMode::CAST_NONE)
        return h;
    const half lo = (float)h < x ? h : half_step(h, false), hi = (float)h < x ? half_step(h, true) : h;
    switch (m) {
    case RoundMode::CAST_FLOOR: return lo;
    case RoundMode::CAST_CEIL: return hi;
    case RoundMode::CAST_TRUNC: return x > 0 ? lo : hi;
    default: /* CAST_ROUND: nearest, ties away from zero */
        if ((double)x - (float)lo == (double)(float)hi - x)
            return x > 0 ? hi : lo;
        return h;
    }
}

template <RoundMode M> struct CastOp {
    template <class TO, class TI>
    static void run(LocalTensor<TO> &z, LocalTensor<TI> &x, LocalTensor<TI> &, uint32_t cnt)
    {
        Cast(z, x, M, cnt);
    }
};
template <class T, class U, RoundMode M> void check_cast(Session &s, uint32_t cnt, double lo, double hi)
{
    const uint32_t nin = padded<U>(cnt), nout = padded<T>(cnt);
    auto x = data<U>(nin, lo, hi);
    auto zf = data<T>(nout, 0, 9);
    auto z = run_map<T, U, CastOp<M>>(s, x, zf, cnt);
    auto want = zf;
    for (uint32_t i = 0; i < cnt; i++)
        want[i] = ref_cast<T, U>(x[i], M);
    char what[80];
    std::snprintf(what, sizeof what, "Cast %zu-byte -> %zu-byte %s, count %u", sizeof(U), sizeof(T),
                  dvac::round_name(M), cnt);
    same(z, want, nout, what);
}

/* Level-0 Cast f32 -> f16: a continuous mask, the packed strides of the docs' example. */
struct CastL0 {
    static void run(LocalTensor<half> &z, LocalTensor<float> &x, LocalTensor<float> &, uint32_t)
    {
        Cast(z, x, RoundMode::CAST_TRUNC, (uint64_t)40, 3, UnaryRepeatParams(1, 1, 4, 8));
    }
};

/* DataCopy UB -> UB (count and bursts with gaps) and Copy (level 0). */
struct UbCopy {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &w, uint32_t cnt)
    {
        DataCopy(w, x, cnt);                             /* count */
        PipeBarrier<PIPE_V>();
        DataCopy(z, w, DataCopyParams(4, 2, 1, 3));      /* 4 bursts of 64 B, src gap 32 B, dst gap 96 B */
    }
};
const uint64_t COPY_BITS[2] = {0xffff0000ffff0000ull, 0x00000000ffffffffull};
struct VCopy {
    static void run(LocalTensor<half> &z, LocalTensor<half> &x, LocalTensor<half> &, uint32_t)
    {
        Copy(z, x, COPY_BITS, 2, CopyRepeatParams(1, 2, 8, 16));
    }
};

/* ---- reductions ---- */
template <int OP, bool IDX> struct Red2 {
    template <class T> static void run(LocalTensor<T> &z, LocalTensor<T> &x, LocalTensor<T> &w, uint32_t cnt)
    {
        if constexpr (OP == 0) ReduceSum(z, x, w, (int32_t)cnt);
        if constexpr (OP == 1) ReduceMax(z, x, w, (int32_t)cnt, IDX);
        if constexpr (OP == 2) ReduceMin(z, x, w, (int32_t)cnt, IDX);
    }
};
/* vcadd's sum of one repeat's selected elements: f32, ascending, from +0. */
template <class T> float repeat_sum(const std::vector<T> &x, size_t from, size_t n)
{
    float acc = 0;
    for (size_t i = 0; i < n; i++)
        acc += (float)x[from + i];
    return acc;
}
template <class T> uint32_t index_bits(T v)
{
    uint32_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
}
template <class T, int OP, bool IDX> void check_red2(Session &s, uint32_t cnt, double lo, double hi)
{
    constexpr uint32_t E = 256 / sizeof(T);
    const uint32_t nin = padded<T>(cnt) < 2 * E ? 2 * E : padded<T>(cnt), nout = 32 / sizeof(T);
    auto x = data<T>(nin, lo, hi);
    auto zf = data<T>(nout, 0, 1);
    auto z = run_map<T, T, Red2<OP, IDX>>(s, x, zf, cnt);
    char what[80];
    std::snprintf(what, sizeof what, "reduce %d (index %d), %zu-byte type, count %u", OP, IDX, sizeof(T), cnt);
    if (OP == 0) { /* vcadd_acc: the repeat sums added in f32, one rounding */
        float total = 0;
        for (uint32_t r = 0; r * E < cnt; r++)
            total += repeat_sum(x, r * E, cnt - r * E < E ? cnt - r * E : E);
        ck_assert_msg(index_bits(z[0]) == index_bits((T)total), "%s: %g, expected %g", what, as_d(z[0]),
                      (double)(float)(T)total);
        return;
    }
    uint32_t best = 0;
    for (uint32_t i = 1; i < cnt; i++)
        if (OP == 1 ? (float)x[i] > (float)x[best] : (float)x[i] < (float)x[best])
            best = i;
    ck_assert_msg(index_bits(z[0]) == index_bits(x[best]), "%s: value %g, expected %g", what, as_d(z[0]),
                  as_d(x[best]));
    if (IDX)
        ck_assert_msg(index_bits(z[1]) == best, "%s: index %u, expected %u", what, index_bits(z[1]), best);
    else
        ck_assert_msg(index_bits(z[1]) == index_bits(zf[1]), "%s: dst[1] was written", what);
}

/* Level 0: ReduceSum over R repeats of a continuous mask (per-repeat sums, their sum), ReduceMax with
 * the index over R repeats with a repeat stride. */
struct SumL0 {
    template <class T> static void run(LocalTensor<T> &z, LocalTensor<T> &x, LocalTensor<T> &w, uint32_t)
    {
        ReduceSum(z, x, w, 40, 20, 8);
    }
};
struct MaxL0 {
    template <class T> static void run(LocalTensor<T> &z, LocalTensor<T> &x, LocalTensor<T> &w, uint32_t)
    {
        ReduceMax(z, x, w, 100, 30, 16, true);
    }
};
const uint64_t WHOLE_BITS[2] = {0xffffffff00000000ull, 0x0000000000000f0full};
struct Whole {
    template <class T> static void run(LocalTensor<T> &z, LocalTensor<T> &x, LocalTensor<T> &, uint32_t)
    {
        WholeReduceSum(z, x, WHOLE_BITS, 4, 1, 1, 8);
        WholeReduceMax(z[16], x, 64, 4, 1, 1, 8);
        WholeReduceMin(z[32], x[512], 64, 2, 2, 2, 16);
        RepeatReduceSum(z[48], x, 3, 5, 0, 1, 1, 8);
    }
};

/* ---- reductions per datablock and per pair ---- */
/* The group reductions of docs/SEMANTICS.md: the selected elements of x[from, from+len) as a binary
 * tree, neighbours first, each sum rounded to T; false when none is selected. */
template <class T, class SEL>
bool tree(const std::vector<T> &x, size_t from, uint32_t len, int op, SEL sel, uint32_t e0, float *out)
{
    if (len == 1) {
        if (!sel(e0))
            return false;
        *out = (float)x[from];
        return true;
    }
    float a, b;
    const bool ha = tree(x, from, len / 2, op, sel, e0, &a);
    const bool hb = tree(x, from + len / 2, len / 2, op, sel, e0 + len / 2, &b);
    if (!ha || !hb) {
        *out = ha ? a : b;
        return ha || hb;
    }
    *out = op == 0 ? (float)(T)(a + b) : op == 1 ? (a >= b ? a : b) : (a <= b ? a : b);
    return true;
}
/* want gets, for R repeats of the selected elements (src strides blk/rep in 32-byte units), one result
 * per group of g elements at dst[r*dst_rep*(E/g) + e/g]; op 0 sum, 1 max, 2 min. */
template <class T>
void ref_groups(std::vector<T> &want, const std::vector<T> &x, uint64_t hi, uint64_t lo, uint32_t R, uint32_t g,
                uint32_t dst_rep, uint32_t blk, uint32_t rep, int op)
{
    constexpr uint32_t E = 256 / sizeof(T);
    for (uint32_t r = 0; r < R; r++)
        for (uint32_t j = 0; j < E / g; j++) {
            std::vector<T> grp(g);
            for (uint32_t k = 0; k < g; k++)
                grp[k] = x[l0_index(E, sizeof(T), r, j * g + k, blk, rep)];
            float v;
            if (tree(grp, 0, g, op, [&](uint32_t e) { return l0_selected(E == 64 ? 0 : hi, lo, e); }, j * g, &v))
                want[r * dst_rep * (E / g) + j] = (T)v;
        }
}
const uint64_t GRP_BITS[2] = {0xff00f0f000000001ull, 0x8000000000ff00ffull};
struct BlockRed {
    template <class T> static void run(LocalTensor<T> &z, LocalTensor<T> &x, LocalTensor<T> &, uint32_t)
    {
        BlockReduceSum(z, x, 3, GRP_BITS, 1, 1, 8);
        BlockReduceMax(z[32], x, 2, 256 / (int32_t)sizeof(T), 2, 2, 16);
        BlockReduceMin(z[64], x[64], 2, 40, 1, 1, 8);
        PairReduceSum(z[128], x, 2, GRP_BITS, 1, 1, 8);
    }
};
/* The ReduceType names, and the counter mode of CANN's reduce sample: ReduceDataBlock<SUM> over cnt
 * elements, then ReduceRepeat<SUM> over the block sums (isSetMask = false). */
struct TypedRed {
    template <class T> static void run(LocalTensor<T> &z, LocalTensor<T> &x, LocalTensor<T> &w, uint32_t cnt)
    {
        ReduceDataBlock<ReduceType::MIN, T>(z, x, 256 / (int32_t)sizeof(T), 1, 1, 1, 8);
        ReducePairElem<ReduceType::SUM, T>(z[16], x, GRP_BITS, 1, 1, 1, 8);
        ReduceRepeat<ReduceType::MAX, T>(z[256], x, 256 / (int32_t)sizeof(T), 2, 1, 1, 8);
        SetMaskCount();
        SetVectorMask<T>(0, cnt);
        ReduceDataBlock<ReduceType::SUM, T, T, false>(w, x, MASK_PLACEHOLDER, 1, 1, 1, 8);
        PipeBarrier<PIPE_V>();
        SetVectorMask<T>(0, (cnt * sizeof(T) + 31) / 32);
        ReduceRepeat<ReduceType::SUM, T, T, false>(z[272], w, MASK_PLACEHOLDER, 1, 1, 1, 8);
        PipeBarrier<PIPE_V>();
        SetMaskNorm();
        ResetMask();
    }
};
template <class T> void check_groups(Session &s)
{
    constexpr uint32_t E = 256 / sizeof(T);
    const uint64_t hi = E == 64 ? 0 : GRP_BITS[1];
    {
        const uint32_t nin = 6 * E, nout = 256;
        auto x = data<T>(nin, -8, 8);
        auto zf = data<T>(nout, 100, 101);
        auto z = run_map<T, T, BlockRed>(s, x, zf, 0);
        auto want = zf;
        const uint64_t all = ~0ull, m40 = (1ull << 40) - 1;
        ref_groups(want, x, hi, GRP_BITS[0], 3, E / 8, 1, 1, 8, 0);
        std::vector<T> w2(want.begin() + 32, want.end()), x64(x.begin() + 64, x.end());
        ref_groups(w2, x, E == 64 ? 0 : all, all, 2, E / 8, 2, 2, 16, 1);
        std::copy(w2.begin(), w2.end(), want.begin() + 32);
        std::vector<T> w3(want.begin() + 64, want.end());
        ref_groups(w3, x64, 0, m40, 2, E / 8, 1, 1, 8, 2);
        std::copy(w3.begin(), w3.end(), want.begin() + 64);
        std::vector<T> w4(want.begin() + 128, want.end());
        ref_groups(w4, x, hi, GRP_BITS[0], 2, 2, 1, 1, 8, 0);
        std::copy(w4.begin(), w4.end(), want.begin() + 128);
        char what[64];
        std::snprintf(what, sizeof what, "BlockReduce* / PairReduceSum, %zu-byte type", sizeof(T));
        same(z, want, nout, what);
    }
    {
        const uint32_t cnt = 5 * E + 40, nin = padded<T>(cnt), nout = 512;
        auto x = data<T>(nin, -8, 8);
        auto zf = data<T>(nout, 100, 101);
        auto z = run_map<T, T, TypedRed>(s, x, zf, cnt);
        auto want = zf;
        ref_groups(want, x, ~0ull, ~0ull, 1, E / 8, 1, 1, 8, 2);
        std::vector<T> w(want.begin() + 16, want.end());
        ref_groups(w, x, hi, GRP_BITS[0], 1, 2, 1, 1, 8, 0);
        std::copy(w.begin(), w.end(), want.begin() + 16);
        for (uint32_t r = 0; r < 2; r++) {
            uint32_t bi = 0;
            for (uint32_t e = 1; e < E; e++)
                if ((float)x[r * E + e] > (float)x[r * E + bi])
                    bi = e;
            want[256 + 2 * r] = x[r * E + bi];
            std::memcpy(&want[256 + 2 * r + 1], &bi, sizeof(T));
        }
        /* count mode: the block sums of cnt elements (the last block partial), summed by vcadd */
        const uint32_t epb = E / 8, nblk = (cnt + epb - 1) / epb;
        std::vector<T> blocks(nblk);
        for (uint32_t b = 0; b < nblk; b++) {
            std::vector<T> grp(epb);
            for (uint32_t k = 0; k < epb; k++)
                grp[k] = b * epb + k < cnt ? x[b * epb + k] : (T)0;
            float v;
            tree(grp, 0, epb, 0, [&](uint32_t e) { return b * epb + e < cnt; }, 0, &v);
            blocks[b] = (T)v;
        }
        for (uint32_t r = 0; r * E < nblk; r++)
            want[272 + r] = (T)repeat_sum(blocks, r * E, nblk - r * E < E ? nblk - r * E : E);
        char what[80];
        std::snprintf(what, sizeof what, "ReduceDataBlock / ReducePairElem / ReduceRepeat, %zu-byte type", sizeof(T));
        same(z, want, nout, what);
    }
}

/* ---- compound ops and shifts ---- */
/* z (prefilled) OP= x, y: each op of CANN's compound family at level 2 (count) and one at level 0. */
template <int OP> struct Cmp2 {
    template <class T> static void run(LocalTensor<T> &z, LocalTensor<T> &x, LocalTensor<T> &y, uint32_t cnt)
    {
        const int32_t c = (int32_t)cnt;
        if constexpr (OP == 0) AddRelu(z, x, y, c);
        if constexpr (OP == 1) SubRelu(z, x, y, c);
        if constexpr (OP == 2) MulAddDst(z, x, y, c);
        if constexpr (OP == 3) FusedMulAdd(z, x, y, c);
        if constexpr (OP == 4) FusedMulAddRelu(z, x, y, c);
        if constexpr (OP == 5) Axpy(z, x, (T)1.5f, c);
        if constexpr (OP == 6) AddRelu(z, x, y, (uint64_t)100, 2, BinaryRepeatParams(1, 1, 1, 8, 8, 8));
        if constexpr (OP == 7) Axpy(z, x, (T)-0.75f, (uint64_t)40, 3, UnaryRepeatParams(1, 1, 8, 8));
    }
};
/* One result of Cmp2<OP> from x, y and the old z, each operation rounded to T. */
template <class T> T ref_cmp2(int op, T a, T b, T d)
{
    const float x = (float)a, y = (float)b, z = (float)d;
    auto rnd = [](float v) { return (float)(T)v; };
    switch (op) {
    case 0: case 6: return (T)(rnd(x + y) > 0 ? x + y : 0.0f);
    case 1: return (T)(rnd(x - y) > 0 ? x - y : 0.0f);
    case 2: return (T)(rnd(x * y) + z);
    case 3: return (T)(rnd(x * z) + y);
    case 4: { const float r = rnd(rnd(x * z) + y); return (T)(r > 0 ? r : 0.0f); }
    case 5: return (T)(rnd(x * (float)(T)1.5f) + z);
    default: return (T)(rnd(x * (float)(T)-0.75f) + z);
    }
}
template <class T, int OP> void check_cmp2(Session &s, uint32_t cnt)
{
    const uint32_t n = padded<T>(cnt) < 3 * 256 / sizeof(T) ? 3 * 256 / sizeof(T) : padded<T>(cnt);
    auto x = data<T>(n, -4, 4), y = data<T>(n, -4, 4), zf = data<T>(n, -4, 4);
    auto z = run_binary<T, Cmp2<OP>>(s, x, y, zf, cnt);
    auto want = zf;
    constexpr uint32_t E = 256 / sizeof(T);
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t r = i / E, e = i % E;
        const bool on = OP == 6 ? r < 2 && e < 100 : OP == 7 ? r < 3 && e < 40 : i < cnt;
        if (on)
            want[i] = ref_cmp2<T>(OP, x[i], y[i], zf[i]);
    }
    char what[64];
    std::snprintf(what, sizeof what, "compound op %d, %zu-byte type, count %u", OP, sizeof(T), cnt);
    same(z, want, n, what);
}
/* Shifts by a scalar: level 2, and level 0 with a bit mask. */
template <int OP> struct Shift {
    template <class T> static void run(LocalTensor<T> &z, LocalTensor<T> &x, LocalTensor<T> &, uint32_t cnt)
    {
        if constexpr (OP == 0) ShiftLeft(z, x, (T)3, (int32_t)cnt);
        if constexpr (OP == 1) ShiftRight(z, x, (T)5, (int32_t)cnt);
        if constexpr (OP == 2) ShiftRight(z, x, (T)(8 * sizeof(T)), BITS_F32, 2, UnaryRepeatParams(1, 1, 8, 8));
    }
};
template <class T, int OP> void check_shift(Session &s, uint32_t cnt)
{
    const uint32_t n = padded<T>(cnt) < 2 * 256 / sizeof(T) ? 2 * 256 / sizeof(T) : padded<T>(cnt);
    auto x = data<T>(n, (double)std::numeric_limits<T>::min(), (double)std::numeric_limits<T>::max());
    auto zf = data<T>(n, 0, 9);
    auto z = run_binary<T, Shift<OP>>(s, x, x, zf, cnt);
    auto want = zf;
    constexpr uint32_t E = 256 / sizeof(T);
    for (uint32_t i = 0; i < n; i++) {
        const int64_t v = x[i];
        if (OP == 0 && i < cnt)
            want[i] = (T)(typename std::make_unsigned<T>::type)((uint64_t)v << 3);
        if (OP == 1 && i < cnt)
            want[i] = (T)(v >= 0 ? v / 32 : -((-v + 31) / 32)); /* floor division: >> for signed types */
        if (OP == 2 && i / E < 2 && l0_selected(0, BITS_F32[0], i % E))
            want[i] = v < 0 ? (T)-1 : (T)0;
    }
    char what[64];
    std::snprintf(what, sizeof what, "shift %d, %zu-byte type, count %u", OP, sizeof(T), cnt);
    same(z, want, n, what);
}

/* ---- Gather: z[i] = x[(base + offset[i]) / sizeof(T)] (level 2 and level 0); Gatherb ---- */
template <int OP> struct GatherOp {
    template <class T> static void run(LocalTensor<T> &z, LocalTensor<T> &x, LocalTensor<T> &y, uint32_t cnt)
    {
        LocalTensor<uint32_t> off = y.template ReinterpretCast<uint32_t>();
        if constexpr (OP == 0) Gather(z, x, off, (uint32_t)(4 * sizeof(T)), cnt);
        if constexpr (OP == 1) Gather(z, x, off, 0u, WHOLE_BITS, 2, 16);
        if constexpr (OP == 2) Gatherb(z, x, off, 2, GatherRepeatParams(2, 16));
    }
};
template <class T, int OP> void check_gather(Session &s, uint32_t cnt)
{
    constexpr uint32_t E = 256 / sizeof(T);
    const uint32_t n = 1024 / sizeof(T) * 8; /* 8 KB each */
    auto x = data<T>(n, 0, 60000);
    std::vector<T> y(n);
    auto off = reinterpret_cast<uint32_t *>(y.data());
    const uint32_t noff = (uint32_t)(n * sizeof(T) / 4);
    for (uint32_t i = 0; i < noff; i++)
        off[i] = OP == 2 ? (uint32_t)(rnd() % (n * sizeof(T) / 32)) * 32
                         : (uint32_t)(rnd() % (n - 4)) * (uint32_t)sizeof(T);
    auto zf = data<T>(n, 0, 9);
    auto z = run_binary<T, GatherOp<OP>>(s, x, y, zf, cnt);
    auto want = zf;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t r = i / E, e = i % E;
        if (OP == 0 && i < cnt)
            want[i] = x[4 + off[i] / sizeof(T)];
        if (OP == 1 && r < 4 && r % 2 == 0 && l0_selected(E == 64 ? 0 : WHOLE_BITS[1], WHOLE_BITS[0], e))
            want[i] = x[off[(r / 2) * E + e] / sizeof(T)];
    }
    if (OP == 2)
        for (uint32_t r = 0; r < 2; r++)
            for (uint32_t b = 0; b < 8; b++)
                for (uint32_t k = 0; k < 32 / sizeof(T); k++)
                    want[(r * 16 * 32 + b * 2 * 32) / sizeof(T) + k] = x[off[8 * r + b] / sizeof(T) + k];
    char what[64];
    std::snprintf(what, sizeof what, "gather %d, %zu-byte type, count %u", OP, sizeof(T), cnt);
    same(z, want, n, what);
}

/* ReduceMax with the index over 288 halves (2 repeats and a tail) with the smallest work tensor CANN's
 * sizing gives (its reduce sample: 16 + 16 elements; the second step's pair needs no third). */
struct MaxSmallTmp {
    static void run(LocalTensor<half> &z, LocalTensor<half> &x, LocalTensor<half> &, uint32_t)
    {
        TBuf<TPosition::VECCALC> tb;
        GetTPipePtr()->InitBuffer(tb, 32 * sizeof(half));
        LocalTensor<half> tmp = tb.Get<half>();
        ReduceMax(z, x, tmp, 288, true);
    }
};

/* ---- Compare / Select: z = Select(Compare(x, y)) through a bit-mask buffer ---- */
template <int MODE> struct CmpSel {
    template <class T> static void run(LocalTensor<T> &z, LocalTensor<T> &x, LocalTensor<T> &y, uint32_t cnt)
    {
        TBuf<TPosition::VECCALC> mb;
        GetTPipePtr()->InitBuffer(mb, 1024);
        LocalTensor<uint8_t> m = mb.Get<uint8_t>();
        Compare(m, x, y, MODE == 0 ? CMPMODE::LT : CMPMODE::GE, cnt);
        PipeBarrier<PIPE_V>();
        if constexpr (MODE == 0)
            Select(z, m, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, cnt);      /* min(x, y) */
        else
            Select(z, m, x, (T)0.5f, SELMODE::VSEL_TENSOR_SCALAR_MODE, cnt); /* x >= y ? x : 0.5 */
    }
};
/* Compares (level 2, and level 0 over 4 repeats) then Select: x < 0.5 ? x : y. */
struct CmpsSel {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, uint32_t cnt)
    {
        TBuf<TPosition::VECCALC> mb;
        GetTPipePtr()->InitBuffer(mb, 1024);
        LocalTensor<uint8_t> m = mb.Get<uint8_t>();
        Compares(m, x, 0.5f, CMPMODE::LT, cnt - 256);
        Compares(m[(cnt - 256) / 8], x[cnt - 256], 0.5f, CMPMODE::LT, (uint64_t)64, 4, UnaryRepeatParams());
        PipeBarrier<PIPE_V>();
        Select(z, m, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, cnt);
    }
};
struct CmpSelL0 {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, uint32_t)
    {
        TBuf<TPosition::VECCALC> mb;
        GetTPipePtr()->InitBuffer(mb, 256);
        LocalTensor<uint8_t> m = mb.Get<uint8_t>();
        Compare(m, x, y, CMPMODE::EQ, 192u);                                                   /* 3 repeats */
        Compare(m[64], x[192], y[192], CMPMODE::EQ, (uint64_t)64, 1, BinaryRepeatParams()); /* level 0 */
        PipeBarrier<PIPE_V>();
        Select(z, m, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, (uint64_t)48, 3, BinaryRepeatParams());
        const uint64_t bits[2] = {0x00ffffffffffff00ull, 0};
        Select(z[192], m[64], x[192], y[192], SELMODE::VSEL_CMPMASK_SPR, bits, 1, BinaryRepeatParams());
    }
};
/* Select from CMPMASK over 4 repeats (count): the first 64 bits of selMask every repeat. */
struct SelCmpmask {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, uint32_t cnt)
    {
        TBuf<TPosition::VECCALC> mb;
        GetTPipePtr()->InitBuffer(mb, 32);
        LocalTensor<uint8_t> m = mb.Get<uint8_t>();
        Compare(m, x, y, CMPMODE::LT, 64u);
        PipeBarrier<PIPE_V>();
        Select(z, m, x, y, SELMODE::VSEL_CMPMASK_SPR, cnt);
    }
};
/* Brcb and Transpose. */
struct BrcbT {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &, uint32_t)
    {
        Brcb(z, x, 3, BrcbRepeatParams(2, 20));
    }
};
struct TransT {
    static void run(LocalTensor<half> &z, LocalTensor<half> &x, LocalTensor<half> &, uint32_t)
    {
        Transpose(z, x);
        Transpose(z[256], x[256]);
    }
};

/* CreateVecIndex: first + i. */
struct VecIndex {
    template <class T> static void run(LocalTensor<T> &z, LocalTensor<T> &, LocalTensor<T> &, uint32_t cnt)
    {
        /* the scalar unit writes z: it waits for the copy that prefilled it */
        const int32_t ev = GetTPipePtr()->FetchEventID(HardEvent::MTE2_S);
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
        CreateVecIndex(z, (T)-5, cnt);
    }
};
template <class T> void check_vecindex(Session &s, uint32_t cnt)
{
    const uint32_t n = padded<T>(cnt + 40);
    auto x = data<T>(n, 0, 1), zf = data<T>(n, -9, 9);
    auto z = run_map<T, T, VecIndex>(s, x, zf, cnt);
    auto want = zf;
    for (uint32_t i = 0; i < cnt; i++)
        want[i] = (T)(float)(-5 + (int)i);
    char what[64];
    std::snprintf(what, sizeof what, "CreateVecIndex %zu-byte type, count %u", sizeof(T), cnt);
    same(z, want, n, what);
}

/* CreateVecIndex level 0: a continuous mask with a tail datablock over 3 repeats (dstBlkStride 2,
 * dstRepStride 20), and a bit mask over 2 repeats. */
template <int OP> struct VecIndexL0 {
    template <class T> static void run(LocalTensor<T> &z, LocalTensor<T> &, LocalTensor<T> &, uint32_t)
    {
        const int32_t ev = GetTPipePtr()->FetchEventID(HardEvent::MTE2_S);
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
        constexpr uint32_t E = 256 / sizeof(T);
        if constexpr (OP == 0)
            CreateVecIndex(z, (T)7, (uint64_t)(E - E / 8 - 3), 3, 2, 20);
        else
            CreateVecIndex(z, (T)-3, WHOLE_BITS, 2, 1, 8);
    }
};
template <class T, int OP> void check_vecindex_l0(Session &s)
{
    constexpr uint32_t E = 256 / sizeof(T), blk = E / 8;
    const uint32_t n = 3 * 20 * blk + 16 * blk;
    auto x = data<T>(n, 0, 1), zf = data<T>(n, -9, 9);
    auto z = run_map<T, T, VecIndexL0<OP>>(s, x, zf, 0);
    auto want = zf;
    for (uint32_t r = 0; r < (OP == 0 ? 3u : 2u); r++)
        for (uint32_t e = 0; e < E; e++) {
            const bool on = OP == 0 ? e < E - blk - 3 : l0_selected(E == 64 ? 0 : WHOLE_BITS[1], WHOLE_BITS[0], e);
            if (on)
                want[OP == 0 ? r * 20 * blk + (e / blk) * 2 * blk + e % blk : r * E + e] =
                    (T)(float)((OP == 0 ? 7 : -3) + (int)(r * E + e));
        }
    char what[64];
    std::snprintf(what, sizeof what, "CreateVecIndex level 0 (%d), %zu-byte type", OP, sizeof(T));
    same(z, want, n, what);
}

/* ---- Sort32 then MrgSort: 4 x 32 scores sorted per group, then the four groups merged (x: scores,
 * y: u32 indices, z: the 128 records) ---- */
struct SortMerge {
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, uint32_t)
    {
        TBuf<TPosition::VECCALC> wb;
        GetTPipePtr()->InitBuffer(wb, 1024);
        LocalTensor<float> w = wb.Get<float>();
        Sort32(w, x, y.ReinterpretCast<uint32_t>(), 4);
        PipeBarrier<PIPE_V>();
        const uint16_t lens[4] = {32, 32, 32, 32};
        MrgSort(z, MrgSortSrcList<float>(w[0], w[64], w[128], w[192]), MrgSort4Info(lens, false, 15, 1));
    }
};

/* ---- misuse: each case's API call is on the line its struct records ---- */
struct ErrCount {
    static constexpr int line = __LINE__ + 3;
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, uint32_t cnt)
    {
        Add(z, x, y, (int32_t)cnt + 1);
    }
};
struct ErrAlign {
    static constexpr int line = __LINE__ + 3;
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, uint32_t)
    {
        Sub(z[1], x, y, 8);
    }
};
struct ErrSpace {
    static constexpr int line = __LINE__ + 4;
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &, uint32_t)
    {
        LocalTensor<float> l1(TPosition::A1, 0, 64);
        Exp(z, l1, 64);
        (void)x;
    }
};
struct ErrRound {
    static constexpr int line = __LINE__ + 3;
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &, uint32_t)
    {
        Cast(z, x.ReinterpretCast<half>(), RoundMode::CAST_RINT, 64u);
    }
};
struct ErrOdd {
    static constexpr int line = __LINE__ + 3;
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &, uint32_t)
    {
        Cast(z.ReinterpretCast<half>(), x, RoundMode::CAST_ODD, 64u);
    }
};
struct ErrMask {
    static constexpr int line = __LINE__ + 3;
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, uint32_t)
    {
        Max(z, x, y, (uint64_t)65, 1, BinaryRepeatParams());
    }
};
struct ErrStride {
    static constexpr int line = __LINE__ + 3;
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, uint32_t)
    {
        Mul(z, x, y, (uint64_t)64, 3, BinaryRepeatParams(1, 1, 1, 8, 8, 8));
    }
};
struct ErrCompare {
    static constexpr int line = __LINE__ + 5;
    static void run(LocalTensor<float> &, LocalTensor<float> &x, LocalTensor<float> &y, uint32_t)
    {
        TBuf<TPosition::VECCALC> mb;
        GetTPipePtr()->InitBuffer(mb, 256);
        Compare(mb.Get<uint8_t>(), x, y, CMPMODE::LT, 100u);
    }
};
struct ErrCmpInt {
    static constexpr int line = __LINE__ + 5;
    static void run(LocalTensor<float> &, LocalTensor<float> &x, LocalTensor<float> &y, uint32_t)
    {
        TBuf<TPosition::VECCALC> mb;
        GetTPipePtr()->InitBuffer(mb, 256);
        Compare(mb.Get<uint8_t>(), x.ReinterpretCast<int32_t>(), y.ReinterpretCast<int32_t>(), CMPMODE::GT, 64u);
    }
};

struct ErrShift {
    static constexpr int line = __LINE__ + 3;
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &, uint32_t)
    {
        ShiftRight(z.ReinterpretCast<int16_t>(), x.ReinterpretCast<int16_t>(), (int16_t)17, 64);
    }
};
struct ErrGather {
    static constexpr int line = __LINE__ + 3;
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, uint32_t)
    {
        Gather(z, x, y.ReinterpretCast<uint32_t>(), 2u, 64u);
    }
};
struct ErrTmp {
    static constexpr int line = __LINE__ + 5;
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &, uint32_t)
    {
        TBuf<TPosition::VECCALC> tb;
        GetTPipePtr()->InitBuffer(tb, 32);
        ReduceMin(z, x, tb.Get<float>(), 64, 3, 0, true);
    }
};
struct ErrSpr {
    static constexpr int line = __LINE__ + 4;
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &y, uint32_t)
    {
        ReduceSum(z, x, y, 64);
        z.SetValue(1, GetReduceRepeatSumSpr<float>());
    }
};
struct ErrMrg {
    static constexpr int line = __LINE__ + 4;
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &, uint32_t)
    {
        const uint16_t lens[4] = {8, 8, 8, 8};
        MrgSort(z, MrgSortSrcList<float>(x, x[16], x[32], x[48]), MrgSort4Info(lens, false, 5, 1));
    }
};
struct ErrGroupAlign {
    static constexpr int line = __LINE__ + 3;
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &, uint32_t)
    {
        BlockReduceSum(z[4], x, 1, 64, 1, 1, 8);
    }
};
struct ErrGroupDst {
    static constexpr int line = __LINE__ + 3;
    static void run(LocalTensor<float> &z, LocalTensor<float> &x, LocalTensor<float> &, uint32_t)
    {
        ReducePairElem<ReduceType::SUM, float>(z[48], x, 64, 2, 1, 0, 0);
    }
};

template <class OP> void expect_error(Session &s, std::initializer_list<const char *> parts)
{
    std::vector<float> v(64, 1.0f);
    int rc = 0;
    run_binary<float, OP>(s, v, v, v, 64, &rc);
    ck_assert_int_ne(rc, 0);
    char where[64];
    std::snprintf(where, sizeof where, "check_ascendc_vec.cpp:%d: ", OP::line);
    error_has({where});
    error_has(parts);
}

/* ---- a mix kernel: the AIC runs the vector calls too, as no-ops ---- */
__global__ __aicore__ void k_mix(GM_ADDR x, GM_ADDR z, uint32_t n)
{
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float *)x, n);
    gz.SetGlobalBuffer((__gm__ float *)z, n);
    LocalTensor<float> l1(TPosition::A1, 0, n);
    DataCopy(l1, gx, n); /* cube-side work: the kernel is a mix kernel */
    LocalTensor<float> ub(TPosition::VECCALC, 0, n), ub2(TPosition::VECCALC, n * 4, n);
    DataCopy(ub, gx, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(ub2, ub, 3.0f, (int32_t)n);
    Relu(ub2, ub2, (int32_t)n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(gz, ub2, n);
}

/* ---- the same kernel with the kernel API: Adds over tiles through two depth-1 queues ---- */
constexpr uint32_t TILE = 1024;
__global__ __aicore__ void k_adds(GM_ADDR x, GM_ADDR z, uint32_t n)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qx;
    TQue<TPosition::VECOUT, 1> qz;
    pipe.InitBuffer(qx, 1, TILE * sizeof(float));
    pipe.InitBuffer(qz, 1, TILE * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float *)x, n);
    gz.SetGlobalBuffer((__gm__ float *)z, n);
    for (uint32_t i = 0; i < n / TILE; i++) {
        LocalTensor<float> a = qx.AllocTensor<float>();
        DataCopy(a, gx[i * TILE], TILE);
        qx.EnQue(a);
        a = qx.DeQue<float>();
        LocalTensor<float> b = qz.AllocTensor<float>();
        Adds(b, a, 2.0f, (int32_t)TILE);
        qz.EnQue(b);
        qx.FreeTensor(a);
        b = qz.DeQue<float>();
        DataCopy(gz[i * TILE], b, TILE);
        qz.FreeTensor(b);
    }
}
struct adds_params {
    uint32_t n;
};
void adds_kapi(dv_k_t *k, const void *p)
{
    const uint32_t n = static_cast<const adds_params *>(p)->n;
    dv_que_t qx, qz;
    dvk_set_atomic(k, DV_ATOMIC_NONE, DV_DT_F32); /* TPipe's InitSocState */
    dvk_set_mask_norm(k);
    dvk_mask_all(k);
    dvk_que_init(k, &qx, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 1, TILE * 4);
    dvk_que_init(k, &qz, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 1, TILE * 4);
    for (uint32_t i = 0; i < n / TILE; i++) {
        uint64_t a = dvk_que_alloc(k, &qx);
        dvk_copy_gm_to_ubuf(k, a, dvk_gm(k, 0, (uint64_t)i * TILE * 4), 1, TILE * 4 / 32, 0, 0);
        dvk_que_enque(k, &qx, a);
        a = dvk_que_deque(k, &qx);
        uint64_t b = dvk_que_alloc(k, &qz);
        dvk_set_mask_count(k); /* Adds, count form: CANN's dav-2201 sequence */
        dvk_set_vector_mask(k, 0, TILE);
        dvk_vadds(k, b, a, DV_DT_F32, 2.0, 1, 1, 1, 8, 8);
        dvk_set_vector_mask(k, ~0ull, ~0ull);
        dvk_set_mask_norm(k);
        dvk_que_enque(k, &qz, b);
        dvk_que_free(k, &qx, a);
        b = dvk_que_deque(k, &qz);
        dvk_copy_ubuf_to_gm(k, dvk_gm(k, 1, (uint64_t)i * TILE * 4), b, 1, TILE * 4 / 32, 0, 0);
        dvk_que_free(k, &qz, b);
    }
    if (qx.freed[0])
        dvk_wait_flag(k, DV_PIPE_V, DV_PIPE_MTE2, qx.ev_free[0]);
    if (qz.freed[0])
        dvk_wait_flag(k, DV_PIPE_MTE3, DV_PIPE_V, qz.ev_free[0]);
    dvk_pipe_barrier(k, DV_PIPE_ALL);
}

/* Device time of one launch, from events around it. */
template <class F> float timed(aclrtStream st, F launch)
{
    aclrtEvent e0, e1;
    ck_assert_int_eq(aclrtCreateEvent(&e0), 0);
    ck_assert_int_eq(aclrtCreateEvent(&e1), 0);
    ck_assert_int_eq(aclrtRecordEvent(e0, st), 0);
    launch();
    ck_assert_int_eq(aclrtRecordEvent(e1, st), 0);
    ck_assert_int_eq(aclrtSynchronizeStream(st), 0);
    float ms = 0;
    ck_assert_int_eq(aclrtEventElapsedTime(&ms, e0, e1), 0);
    aclrtDestroyEvent(e0);
    aclrtDestroyEvent(e1);
    return ms;
}

} // namespace

/* ------------------------------------------------------------------ tests */

/* Add Sub Mul Div Max Min And Or (count): every dtype of each, a count that is not a whole number of
 * repeats, the elements past the count untouched. */
START_TEST(test_ascendc_vec_binary_count)
{
    Session s;
    check_bin2<float, 0>(s, 1000, -4, 4);
    check_bin2<float, 1>(s, 1000, -4, 4);
    check_bin2<float, 2>(s, 1000, -4, 4);
    check_bin2<float, 3>(s, 1000, -4, 4);
    check_bin2<float, 4>(s, 1000, -4, 4);
    check_bin2<float, 5>(s, 1000, -4, 4);
    check_bin2<half, 0>(s, 3000, -4, 4);
    check_bin2<half, 1>(s, 77, -4, 4);
    check_bin2<half, 2>(s, 300, -4, 4);
    check_bin2<half, 3>(s, 300, -4, 4);
    check_bin2<half, 4>(s, 129, -4, 4);
    check_bin2<half, 5>(s, 127, -4, 4);
    check_bin2<int32_t, 0>(s, 700, -100000, 100000);
    check_bin2<int32_t, 2>(s, 700, -100000, 100000);
    check_bin2<int32_t, 4>(s, 70, -9, 9);
    check_bin2<int16_t, 1>(s, 500, -30000, 30000);
    check_bin2<int16_t, 2>(s, 500, -300, 300);
    check_bin2<int16_t, 5>(s, 500, -300, 300);
    check_bin2<int16_t, 6>(s, 500, -30000, 30000);
    check_bin2<uint16_t, 7>(s, 500, 0, 65535);
}
END_TEST

/* Level 0: a bit mask, a continuous mask with strides (a broadcast source among them), the counter
 * mode set by the kernel with isSetMask = false, a preset normal mask with isSetMask = false. */
START_TEST(test_ascendc_vec_level0)
{
    Session s;
    {
        const uint32_t n = 3 * 64;
        auto x = data<float>(n, -4, 4), y = data<float>(n, -4, 4), zf = data<float>(n, -4, 4);
        auto z = run_binary<float, AddBits>(s, x, y, zf, 0);
        auto want = zf;
        ref_l0(want, x, y, BITS_F32[1], BITS_F32[0], 3, P_F32, [](float a, float b) { return a + b; });
        same(z, want, n, "Add bit mask, 3 repeats");
    }
    {
        const uint32_t n = 2 * 16 * 16; /* dst: 2 repeats of 16 blocks */
        auto x = data<half>(n, -4, 4), y = data<half>(n, -4, 4), zf = data<half>(n, -4, 4);
        auto z = run_binary<half, MulCountStrided>(s, x, y, zf, 0);
        auto want = zf;
        ref_l0(want, x, y, (1ull << 36) - 1, ~0ull, 2, P_H16,
               [](half a, half b) { return from_f<half>((float)a * (float)b); });
        same(z, want, n, "Mul continuous mask 100, strided");
    }
    {
        const uint32_t n = 384, cnt = 300;
        auto x = data<float>(n, -4, 4), y = data<float>(n, -4, 4), zf = data<float>(n, -4, 4);
        auto z = run_binary<float, SubCounter>(s, x, y, zf, cnt);
        auto want = zf;
        for (uint32_t i = 0; i < cnt; i++)
            want[i] = x[i] - y[i];
        same(z, want, n, "Sub in counter mode set by the kernel");
    }
    {
        const uint32_t n = 256;
        auto x = data<int16_t>(n, -300, 300), y = data<int16_t>(n, -300, 300), zf = data<int16_t>(n, -9, 9);
        auto z = run_binary<int16_t, MaxPreset>(s, x, y, zf, 0);
        auto want = zf;
        ref_l0(want, x, y, 0x00ff00ff00ff00ffull, 0xf0f0f0f0f0f0f0f1ull, 2, BinaryRepeatParams(1, 1, 1, 8, 8, 8),
               [](int16_t a, int16_t b) { return a >= b ? a : b; });
        same(z, want, n, "Max with a preset mask");
    }
}
END_TEST

/* Adds Muls Maxs Mins LeakyRelu, Exp Ln Abs Sqrt Rsqrt Reciprocal Relu Not, Duplicate (count). */
START_TEST(test_ascendc_vec_unary_count)
{
    Session s;
    check_un2<float, 0>(s, 1000, -4, 4);
    check_un2<half, 1>(s, 1000, -4, 4);
    check_un2<int32_t, 2>(s, 333, -9, 9);
    check_un2<int16_t, 3>(s, 333, -9, 9);
    check_un2<float, 4>(s, 1000, -4, 4);
    check_un2<half, 4>(s, 200, -4, 4);
    check_un2<float, 5>(s, 1000, -4, 4);
    check_un2<half, 5>(s, 1000, -4, 4);
    check_un2<float, 6>(s, 1000, 0.01, 100);
    check_un2<half, 7>(s, 1000, -4, 4);
    check_un2<float, 8>(s, 1000, 0, 100);
    check_un2<float, 9>(s, 1000, 0.01, 100);
    check_un2<half, 10>(s, 1000, 0.25, 4);
    check_un2<float, 11>(s, 1000, -4, 4);
    check_un2<int32_t, 11>(s, 1000, -9, 9);
    check_un2<uint16_t, 12>(s, 1000, 0, 65535);
    check_un2<bfloat16_t, 13>(s, 300, -4, 4);
    check_un2<uint32_t, 13>(s, 300, 0, 9);
}
END_TEST

/* Cast: the dav-2201 conversions the ISA has, their round modes, saturation; level 0 and level 2. */
START_TEST(test_ascendc_vec_cast)
{
    Session s;
    check_cast<half, float, RoundMode::CAST_NONE>(s, 1000, -70000, 70000);
    check_cast<half, float, RoundMode::CAST_RINT>(s, 1000, -4, 4);
    check_cast<float, half, RoundMode::CAST_NONE>(s, 1000, -4, 4);
    check_cast<int32_t, float, RoundMode::CAST_FLOOR>(s, 1000, -3e9, 3e9);
    check_cast<int32_t, float, RoundMode::CAST_CEIL>(s, 1000, -40, 40);
    check_cast<int32_t, float, RoundMode::CAST_TRUNC>(s, 1000, -40, 40);
    check_cast<int32_t, float, RoundMode::CAST_ROUND>(s, 1000, -40, 40);
    check_cast<int32_t, float, RoundMode::CAST_RINT>(s, 1000, -40, 40);
    check_cast<float, int32_t, RoundMode::CAST_RINT>(s, 1000, -2000000000, 2000000000);
    check_cast<int8_t, half, RoundMode::CAST_TRUNC>(s, 500, -300, 300);
    check_cast<uint8_t, half, RoundMode::CAST_FLOOR>(s, 500, -30, 300);
    check_cast<half, int8_t, RoundMode::CAST_NONE>(s, 500, -128, 127);
    check_cast<half, uint8_t, RoundMode::CAST_NONE>(s, 500, 0, 255);
    check_cast<half, int16_t, RoundMode::CAST_RINT>(s, 500, -2000, 2000);
    check_cast<int16_t, half, RoundMode::CAST_ROUND>(s, 500, -40000, 40000);
    check_cast<int32_t, half, RoundMode::CAST_CEIL>(s, 500, -400, 400);
    check_cast<float, bfloat16_t, RoundMode::CAST_NONE>(s, 500, -4, 4);
    check_cast<bfloat16_t, float, RoundMode::CAST_RINT>(s, 500, -4, 4);
    check_cast<int32_t, bfloat16_t, RoundMode::CAST_FLOOR>(s, 500, -400, 400);
    check_cast<int16_t, float, RoundMode::CAST_TRUNC>(s, 500, -70000, 70000);
    check_cast<float, int16_t, RoundMode::CAST_NONE>(s, 500, -30000, 30000);
    /* level 0: 40 elements of each of 3 repeats, dst packed (4 datablocks per repeat) */
    const uint32_t nin = 3 * 64, nout = 3 * 64;
    auto x = data<float>(nin, -40, 40);
    auto zf = data<half>(nout, -4, 4);
    auto z = run_map<half, float, CastL0>(s, x, zf, 0);
    auto want = zf;
    for (uint32_t r = 0; r < 3; r++)
        for (uint32_t e = 0; e < 40; e++)
            want[r * 64 + e] = ref_to_half(x[r * 64 + e], RoundMode::CAST_TRUNC);
    same(z, want, nout, "Cast level 0");
}
END_TEST

/* DataCopy between UB tensors (copy_ubuf_to_ubuf on V) and Copy (vcopy). */
START_TEST(test_ascendc_vec_copy)
{
    Session s;
    {
        const uint32_t n = 512;
        auto x = data<float>(n, -4, 4), zf = data<float>(n, -4, 4);
        auto z = run_map<float, float, UbCopy>(s, x, zf, n);
        auto want = zf;
        for (uint32_t b = 0; b < 4; b++)
            for (uint32_t i = 0; i < 16; i++)
                want[b * (2 + 3) * 8 + i] = x[b * (2 + 1) * 8 + i];
        same(z, want, n, "DataCopy UB -> UB");
    }
    {
        const uint32_t n = 2 * 256;
        auto x = data<half>(n, -4, 4), zf = data<half>(n, -4, 4);
        auto z = run_map<half, half, VCopy>(s, x, zf, 0);
        auto want = zf;
        for (uint32_t r = 0; r < 2; r++)
            for (uint32_t e = 0; e < 128; e++)
                if (l0_selected(COPY_BITS[1], COPY_BITS[0], e))
                    want[l0_index(128, 2, r, e, 1, 8)] = x[l0_index(128, 2, r, e, 2, 16)];
        same(z, want, n, "Copy level 0");
    }
}
END_TEST

/* ReduceSum / ReduceMax / ReduceMin (count): tails, a single partial repeat, the index. */
START_TEST(test_ascendc_vec_reduce_count)
{
    Session s;
    check_red2<float, 0, false>(s, 1000, -4, 4);
    check_red2<half, 0, false>(s, 3000, -1, 1);
    check_red2<float, 0, false>(s, 7, -4, 4);
    check_red2<float, 1, true>(s, 1000, -100, 100);
    check_red2<float, 1, false>(s, 1000, -100, 100);
    check_red2<float, 2, true>(s, 640, -100, 100);
    check_red2<half, 1, true>(s, 3000, -100, 100);
    check_red2<half, 2, true>(s, 100, -100, 100);
    check_red2<half, 2, false>(s, 300, -100, 100);
    check_red2<float, 2, true>(s, 64 * 32 + 5, -1000, 1000);
    check_red2<half, 1, false>(s, 128 * 64, -1000, 1000);
}
END_TEST

/* ReduceSum / ReduceMax level 0; WholeReduceSum / Max / Min and RepeatReduceSum. */
START_TEST(test_ascendc_vec_reduce_level0)
{
    Session s;
    {
        const uint32_t nin = 20 * 64;
        auto x = data<float>(nin, -4, 4);
        auto zf = data<float>(8, 0, 1);
        auto z = run_map<float, float, SumL0>(s, x, zf, 0);
        std::vector<float> sums(20);
        for (uint32_t r = 0; r < 20; r++)
            sums[r] = repeat_sum(x, r * 64, 40);
        const float want = repeat_sum(sums, 0, 20);
        ck_assert_msg(index_bits(z[0]) == index_bits(want), "ReduceSum level 0: %g, expected %g", (double)z[0],
                      (double)want);
    }
    {
        const uint32_t nin = 30 * 256; /* srcRepStride 16 blocks: every other repeat's data */
        auto x = data<half>(nin, -1000, 1000);
        auto zf = data<half>(16, 0, 1);
        auto z = run_map<half, half, MaxL0>(s, x, zf, 0);
        uint32_t best = 0;
        for (uint32_t r = 0; r < 30; r++)
            for (uint32_t e = 0; e < 100; e++)
                if ((float)x[r * 256 + e] > (float)x[best])
                    best = r * 256 + e;
        ck_assert_msg(index_bits(z[0]) == index_bits(x[best]), "ReduceMax level 0 value");
        ck_assert_msg(index_bits(z[1]) == best, "ReduceMax level 0 index %u, expected %u", index_bits(z[1]), best);
    }
    {
        const uint32_t nin = 1024;
        auto x = data<float>(nin, -4, 4);
        auto zf = data<float>(64, 0, 1);
        auto z = run_map<float, float, Whole>(s, x, zf, 0);
        auto want = zf;
        for (uint32_t r = 0; r < 4; r++) {
            float acc = 0;
            for (uint32_t e = 0; e < 64; e++)
                if (l0_selected(0, WHOLE_BITS[0], e))
                    acc += x[r * 64 + e];
            want[r] = acc;
            uint32_t bi = 0; /* mask 64: the whole repeat */
            for (uint32_t e = 1; e < 64; e++)
                if (x[r * 64 + e] > x[r * 64 + bi])
                    bi = e;
            want[16 + 2 * r] = x[r * 64 + bi];
            std::memcpy(&want[16 + 2 * r + 1], &bi, 4);
        }
        for (uint32_t r = 0; r < 2; r++) { /* 64 elements from blocks 0,2,4..14 of repeat r (16 blocks apart) */
            uint32_t bi = 0;
            auto at = [&](uint32_t e) { return x[512 + r * 128 + (e / 8) * 16 + e % 8]; };
            for (uint32_t e = 1; e < 64; e++)
                if (at(e) < at(bi))
                    bi = e;
            want[32 + 4 * r] = at(bi);
            std::memcpy(&want[32 + 4 * r + 1], &bi, 4);
        }
        for (uint32_t r = 0; r < 3; r++)
            want[48 + r] = repeat_sum(x, r * 64, 5);
        same(z, want, 64, "WholeReduceSum / Max / Min, RepeatReduceSum");
    }
    {
        auto x = data<half>(384, -1000, 1000);
        auto zf = data<half>(16, 0, 1);
        auto z = run_map<half, half, MaxSmallTmp>(s, x, zf, 0);
        uint32_t best = 0;
        for (uint32_t i = 1; i < 288; i++)
            if ((float)x[i] > (float)x[best])
                best = i;
        ck_assert_msg(index_bits(z[0]) == index_bits(x[best]) && index_bits(z[1]) == best,
                      "ReduceMax with a 32-element work tensor: %g at %u, expected %g at %u", as_d(z[0]),
                      index_bits(z[1]), as_d(x[best]), best);
    }
}
END_TEST

/* AddRelu SubRelu MulAddDst FusedMulAdd FusedMulAddRelu Axpy (count, and level 0), ShiftLeft /
 * ShiftRight by a scalar. */
START_TEST(test_ascendc_vec_compound)
{
    Session s;
    check_cmp2<half, 0>(s, 1000);
    check_cmp2<float, 0>(s, 300);
    check_cmp2<int16_t, 0>(s, 300);
    check_cmp2<float, 1>(s, 300);
    check_cmp2<half, 2>(s, 1000);
    check_cmp2<float, 2>(s, 1000);
    check_cmp2<half, 3>(s, 500);
    check_cmp2<float, 4>(s, 500);
    check_cmp2<half, 5>(s, 777);
    check_cmp2<float, 5>(s, 777);
    check_cmp2<half, 6>(s, 0);
    check_cmp2<float, 7>(s, 0);
    check_shift<int16_t, 0>(s, 500);
    check_shift<uint32_t, 0>(s, 100);
    check_shift<int32_t, 1>(s, 300);
    check_shift<uint16_t, 1>(s, 300);
    check_shift<int32_t, 2>(s, 0);
}
END_TEST

/* ---- GatherMask: the elements whose pattern bit is set, packed; rsvdCnt their number ----
 * OP 0: a pattern tensor (y's bits), normal mode, 3 repeats, src0 repeat stride 8, pattern repeat stride 1;
 * OP 1: fixed pattern 2 (odd elements), count mode, 2 repeats of 70 elements 4 datablocks apart;
 * OP 2: fixed pattern 3 (the first of every four), normal mode, 2 repeats. */
uint64_t g_rsvd = 0; /* the kernel's rsvdCnt (the kernel thread writes it; the test reads it after the sync) */
template <int OP> struct GatherMaskOp {
    template <class T> static void run(LocalTensor<T> &z, LocalTensor<T> &x, LocalTensor<T> &y, uint32_t)
    {
        using U = typename std::conditional<sizeof(T) == 2, uint16_t, uint32_t>::type;
        uint64_t cnt = 0;
        if constexpr (OP == 0) GatherMask(z, x, y.template ReinterpretCast<U>(), false, 0u, {1, 3, 8, 1}, cnt);
        if constexpr (OP == 1) GatherMask(z, x, (uint8_t)2, true, 70u, {1, 2, 4, 0}, cnt);
        if constexpr (OP == 2) GatherMask(z, x, (uint8_t)3, false, 0u, {1, 2, 8, 0}, cnt);
        g_rsvd = cnt;
    }
};
template <class T, int OP> void check_gather_mask(Session &s)
{
    constexpr uint32_t E = 256 / sizeof(T);
    const uint32_t n = 4096 / sizeof(T);
    auto x = data<T>(n, 0, 30000);
    std::vector<T> y(n);
    for (auto &v : y)
        v = (T)rnd();
    auto zf = data<T>(n, 0, 9);
    g_rsvd = ~0ull;
    auto z = run_binary<T, GatherMaskOp<OP>>(s, x, y, zf, 0);
    const uint8_t *bits = reinterpret_cast<const uint8_t *>(y.data());
    std::vector<T> want = zf;
    uint64_t k = 0;
    const uint32_t reps = OP == 0 ? 3 : 2, per = OP == 1 ? 70 : E;
    for (uint32_t r = 0; r < reps; r++)
        for (uint32_t e = 0; e < per; e++) {
            const bool keep = OP == 0 ? (bits[r * 32 + e / 8] >> (e % 8) & 1) : OP == 1 ? e % 2 == 1 : e % 4 == 0;
            const uint32_t at = OP == 1 ? r * 4 * (32 / sizeof(T)) + e : r * E + e;
            if (keep)
                want[k++] = x[at];
        }
    char what[64];
    std::snprintf(what, sizeof what, "GatherMask %d, %zu-byte type", OP, sizeof(T));
    same(z, want, n, what);
    ck_assert_msg(g_rsvd == k, "%s: rsvdCnt %llu, expected %llu", what, (unsigned long long)g_rsvd,
                  (unsigned long long)k);
}

/* GatherMask with a pattern tensor and with fixed patterns, normal and count mode (vreducev2, RSVD_CNT). */
START_TEST(test_ascendc_vec_gather_mask)
{
    Session s;
    check_gather_mask<half, 0>(s);
    check_gather_mask<uint32_t, 0>(s);
    check_gather_mask<uint32_t, 1>(s);
    check_gather_mask<int16_t, 2>(s);
}
END_TEST

/* Gather (count with a base offset, level 0 with a bit mask and a dst repeat stride) and Gatherb. */
START_TEST(test_ascendc_vec_gather)
{
    Session s;
    check_gather<half, 0>(s, 1000);
    check_gather<float, 0>(s, 200);
    check_gather<uint16_t, 1>(s, 0);
    check_gather<int32_t, 1>(s, 0);
    check_gather<uint16_t, 2>(s, 0);
    check_gather<uint32_t, 2>(s, 0);
}
END_TEST

/* Sort32 into four sorted groups of 32 records, MrgSort of the four: all 128 (score, index) records by
 * score descending (equal scores: the lower index first, as the groups and the lists keep order). */
START_TEST(test_ascendc_vec_sort)
{
    Session s;
    const uint32_t n = 256;
    auto x = data<float>(n, -8, 8);
    for (uint32_t i = 0; i < n; i += 5)
        x[i] = 1.5f; /* ties */
    std::vector<float> y(n);
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t idx = 1000 + i;
        std::memcpy(&y[i], &idx, 4);
    }
    auto zf = data<float>(n, 0, 1);
    auto z = run_binary<float, SortMerge>(s, x, y, zf, 0);
    std::vector<uint32_t> order(128);
    for (uint32_t i = 0; i < 128; i++)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return x[a] > x[b]; });
    for (uint32_t k = 0; k < 128; k++) {
        uint32_t idx;
        std::memcpy(&idx, &z[2 * k + 1], 4);
        ck_assert_msg(z[2 * k] == x[order[k]] && idx == 1000 + order[k], "record %u: (%g, %u), expected (%g, %u)", k,
                      (double)z[2 * k], idx, (double)x[order[k]], 1000 + order[k]);
    }
}
END_TEST

/* BlockReduceSum / Max / Min, PairReduceSum (bit and continuous masks, strides); ReduceDataBlock,
 * ReducePairElem, ReduceRepeat; ReduceDataBlock then ReduceRepeat in counter mode (a partial last
 * datablock). */
START_TEST(test_ascendc_vec_reduce_groups)
{
    Session s;
    check_groups<float>(s);
    check_groups<half>(s);
}
END_TEST

/* Compare then Select (count): min through LT + tensor-tensor select, GE + tensor-scalar select; level
 * 0 Compare (EQ, one repeat per call) and Select over three repeats of a continuous mask. */
START_TEST(test_ascendc_vec_compare_select)
{
    Session s;
    {
        const uint32_t n = 1024;
        auto x = data<float>(n, -4, 4), y = data<float>(n, -4, 4), zf = data<float>(n, -4, 4);
        auto z = run_binary<float, CmpSel<0>>(s, x, y, zf, n);
        auto want = zf;
        for (uint32_t i = 0; i < n; i++)
            want[i] = x[i] < y[i] ? x[i] : y[i];
        same(z, want, n, "Compare LT + Select tensor-tensor");
    }
    {
        const uint32_t n = 2048;
        auto x = data<half>(n, -4, 4), y = data<half>(n, -4, 4), zf = data<half>(n, -4, 4);
        auto z = run_binary<half, CmpSel<1>>(s, x, y, zf, n);
        auto want = zf;
        for (uint32_t i = 0; i < n; i++)
            want[i] = (float)x[i] >= (float)y[i] ? x[i] : (half)0.5f;
        same(z, want, n, "Compare GE + Select tensor-scalar");
    }
    {
        const uint32_t n = 256;
        auto x = data<float>(n, -2, 2), y = data<float>(n, -2, 2), zf = data<float>(n, -4, 4);
        for (uint32_t i = 0; i < n; i += 3)
            y[i] = x[i];
        auto z = run_binary<float, CmpSelL0>(s, x, y, zf, 0);
        auto want = zf;
        for (uint32_t r = 0; r < 4; r++)
            for (uint32_t e = 0; e < 64; e++)
                if (r < 3 ? e < 48 : e >= 8 && e < 56)
                    want[64 * r + e] = x[64 * r + e] == y[64 * r + e] ? x[64 * r + e] : y[64 * r + e];
        same(z, want, n, "Compare EQ + Select level 0");
    }
    {
        const uint32_t n = 256;
        auto x = data<float>(n, -2, 2), y = data<float>(n, -2, 2), zf = data<float>(n, -4, 4);
        auto z = run_binary<float, SelCmpmask>(s, x, y, zf, n);
        auto want = zf;
        for (uint32_t i = 0; i < n; i++)
            want[i] = x[i % 64] < y[i % 64] ? x[i] : y[i];
        same(z, want, n, "Select VSEL_CMPMASK_SPR, 4 repeats");
    }
    {
        const uint32_t n = 1024;
        auto x = data<float>(n, -2, 2), y = data<float>(n, -2, 2), zf = data<float>(n, -4, 4);
        x[5] = 0.5f;
        auto z = run_binary<float, CmpsSel>(s, x, y, zf, n);
        auto want = zf;
        for (uint32_t i = 0; i < n; i++)
            want[i] = x[i] < 0.5f ? x[i] : y[i];
        same(z, want, n, "Compares LT + Select");
    }
}
END_TEST

START_TEST(test_ascendc_vec_brcb_transpose)
{
    Session s;
    {
        const uint32_t nin = 64, nout = 2 * 8 * 20 + 8 * 16;
        auto x = data<float>(nin, -4, 4), zf = data<float>(nout, -4, 4);
        auto z = run_map<float, float, BrcbT>(s, x, zf, 0);
        auto want = zf;
        for (uint32_t r = 0; r < 3; r++)
            for (uint32_t i = 0; i < 8; i++)
                for (uint32_t k = 0; k < 8; k++)
                    want[r * 20 * 8 + i * 2 * 8 + k] = x[8 * r + i];
        same(z, want, nout, "Brcb");
    }
    {
        const uint32_t n = 512;
        auto x = data<half>(n, -4, 4), zf = data<half>(n, -4, 4);
        auto z = run_map<half, half, TransT>(s, x, zf, 0);
        auto want = zf;
        for (uint32_t m = 0; m < 2; m++)
            for (uint32_t i = 0; i < 16; i++)
                for (uint32_t j = 0; j < 16; j++)
                    want[256 * m + 16 * j + i] = x[256 * m + 16 * i + j];
        same(z, want, n, "Transpose");
    }
}
END_TEST

START_TEST(test_ascendc_vec_create_vec_index)
{
    Session s;
    check_vecindex<float>(s, 1000);
    check_vecindex<float>(s, 5);
    check_vecindex<int32_t>(s, 77);
    check_vecindex<half>(s, 300);
    check_vecindex<int16_t>(s, 128);
    check_vecindex_l0<float, 0>(s);
    check_vecindex_l0<half, 0>(s);
    check_vecindex_l0<int32_t, 1>(s);
    check_vecindex_l0<int16_t, 1>(s);
}
END_TEST

/* Misuse is a located error: file:line: API: message. */
START_TEST(test_ascendc_vec_errors)
{
    Session s;
    expect_error<ErrCount>(s, {"Add: ", "65 elements pass the end of dst (64 elements)"});
    expect_error<ErrAlign>(s, {"Sub: ", "dst's UB address", "is not 32-byte aligned"});
    expect_error<ErrSpace>(s, {"Exp: ", "src is in l1; vector operands are in UB"});
    expect_error<ErrRound>(s, {"Cast: ", "CAST_RINT is not a round mode of this conversion"});
    expect_error<ErrOdd>(s, {"Cast: ", "CAST_ODD (round to odd) is not modelled"});
    expect_error<ErrMask>(s, {"Max: ", "mask 65 is more than the 64 elements of a repeat"});
    expect_error<ErrStride>(s, {"Mul: ", "dst: 3 repeats of this mask and strides reach element 191, past the "
                                         "tensor's 64"});
    expect_error<ErrCompare>(s, {"Compare: ", "count 100: count * sizeof(T) must be a multiple of 256 bytes"});
    expect_error<ErrCmpInt>(s, {"Compare: ", "int32_t is compared only with CMPMODE::EQ"});
    expect_error<ErrTmp>(s, {"ReduceMin: ", "sharedTmpBuffer holds 8 elements; 3 repeats need 10"});
    expect_error<ErrSpr>(s, {"GetReduceRepeatSumSpr: ", "the ACC_VAL register is not modelled by dvsim"});
    expect_error<ErrMrg>(s, {"MrgSort: ", "validBit 5: it must be 3, 7 or 15"});
    expect_error<ErrShift>(s, {"ShiftRight: ", "shift count 17 is not in [0, 16]"});
    expect_error<ErrGather>(s, {"Gather: ", "srcBaseOffset 2 must be a multiple of 4 inside src's 256 bytes"});
    expect_error<ErrGroupAlign>(s, {"BlockReduceSum: ", "dst's UB address", "is not 32-byte aligned"});
    expect_error<ErrGroupDst>(s, {"ReducePairElem: ", "64 elements pass the end of dst (16 elements)"});
}
END_TEST

/* A dtype an API does not take fails to compile, naming the API. */
START_TEST(test_ascendc_vec_dtype_compile_error)
{
    const char *root = std::getenv("DVSIM_ROOT");
    ck_assert_ptr_nonnull(root);
    const std::string dir = std::string("/tmp/dvsim_vec_cc_") + std::to_string(getpid());
    ck_assert_int_eq(std::system(("mkdir -p " + dir).c_str()), 0);
    const struct {
        const char *call, *want;
    } cases[] = {
        {"AscendC::Exp(i, i, 64);", "Exp: dtype not supported on dav-2201 (half, float)"},
        {"AscendC::Div(i, i, i, 64);", "Div: dtype not supported on dav-2201 (half, float)"},
        {"AscendC::Cast(h, i, AscendC::RoundMode::CAST_NONE, 64u);",
         "Cast: this src -> dst conversion is not available"},
        {"AscendC::ReduceSum(i, i, i, 64);", "ReduceSum: dtype not supported on dav-2201 (half, float)"},
        {"AscendC::BlockReduceMax(i, i, 1, 64, 1, 1, 8);", "BlockReduceMax: dtype not supported on dav-2201"},
        {"uint64_t n = 0; AscendC::GatherMask(i.ReinterpretCast<int8_t>(), i.ReinterpretCast<int8_t>(), (uint8_t)1, "
         "false, 0u, AscendC::GatherMaskParams(), n);",
         "GatherMask: 16- or 32-bit elements"},
        {"AscendC::GetCmpMask(i);", "GetCmpMask: the CMPMASK register is not modelled by dvsim"},
        {"AscendC::Sort32(i, i, i.ReinterpretCast<uint32_t>(), 1);", "Sort32: dtype not supported on dav-2201"},
        {"AscendC::Transpose(h, h, i.ReinterpretCast<uint8_t>(), AscendC::TransposeParamsExt());",
         "Transpose: the form with TransposeParamsExt is not modelled by dvsim"},
        {"AscendC::Cast(i.ReinterpretCast<AscendC::int4b_t>(), h, AscendC::RoundMode::CAST_CEIL, 64u);",
         "Cast: this src -> dst conversion is not available"},
        {"AscendC::AddRelu(i, i, i, 64);", "AddRelu: dtype not supported on dav-2201"},
        {"AscendC::Axpy(h, i, 1, 64);", "Axpy: dtype not supported"},
        {"AscendC::Gatherb(h, h, i.ReinterpretCast<uint32_t>(), 1, AscendC::GatherRepeatParams());",
         "Gatherb: dtype not supported on dav-2201 (uint16_t, uint32_t)"},
        {"AscendC::ReduceDataBlock<AscendC::ReduceType::SUM>(h, i, 64, 1, 1, 1, 8);",
         "ReduceDataBlock: dst and src have one type on dav-2201"},
    };
    for (const auto &c : cases) {
        const std::string src = dir + "/k.cpp";
        FILE *f = std::fopen(src.c_str(), "w");
        ck_assert_ptr_nonnull(f);
        std::fprintf(f, "#include \"ascendc/kernel_operator.h\"\nvoid k(AscendC::LocalTensor<int32_t> i, "
                        "AscendC::LocalTensor<half> h) { (void)h; %s }\n", c.call);
        std::fclose(f);
        const std::string r = root;
        const char *bd = std::getenv("DVSIM_BUILD"); /* the build tree (make test / make asan set it) */
        const std::string b = bd ? bd : r + "/build";
        const std::string cmd = "g++ -std=c++17 -fsyntax-only -I" + r + "/include -I" + r + "/isa -I" + r +
                                "/configs -I" + b + "/include " + src + " > " + dir + "/err.txt 2>&1";
        ck_assert_int_ne(std::system(cmd.c_str()), 0);
        std::string err;
        FILE *e = std::fopen((dir + "/err.txt").c_str(), "r");
        ck_assert_ptr_nonnull(e);
        char buf[4096];
        size_t got;
        while ((got = std::fread(buf, 1, sizeof buf, e)) > 0)
            err.append(buf, got);
        std::fclose(e);
        ck_assert_msg(err.find(c.want) != std::string::npos, "%s: compiler output lacks '%s'", c.call, c.want);
    }
    ck_assert_int_eq(std::system(("rm -rf " + dir).c_str()), 0);
}
END_TEST

/* A mix kernel: the AIC's vector calls emit nothing, the AIVs compute. */
START_TEST(test_ascendc_vec_mix_aic_noop)
{
    Session s;
    const uint32_t n = 512;
    auto x = data<float>(n, -4, 4);
    Dev<float> dx(x), dz(n);
    ck_assert_int_eq(::dvac::launch(k_mix, "k_mix", 2, nullptr, s.stream)(dx.gm(), dz.gm(), n), 0);
    ck_assert_msg(s.sync() == 0, "kernel failed: %s", aclGetRecentErrMsg());
    auto z = dz.get();
    std::vector<float> want(n);
    for (uint32_t i = 0; i < n; i++)
        want[i] = x[i] * 3.0f > 0 ? x[i] * 3.0f : 0.0f;
    same(z, want, n, "mix kernel");
}
END_TEST

/* Adds through queues in Ascend C and the same instructions through the kernel API: the same time,
 * and the same bytes. */
START_TEST(test_ascendc_vec_same_cycles_as_kapi)
{
    Session s;
    const uint32_t n = 8 * TILE;
    auto x = data<float>(n, -4, 4);
    Dev<float> dx(x), dz(n), dk(n);
    adds_params p = {n};
    void *args[2] = {dx.p, dk.p};
    auto kapi = [&] {
        ck_assert_int_eq(
            dvsimLaunchKernel("adds_kapi", adds_kapi, DV_KIND_VECTOR, 1, s.stream, args, 2, &p, sizeof p), 0);
    };
    timed(s.stream, kapi); /* warm the L2 for both runs below */
    const float ac = timed(s.stream, [&] {
        ck_assert_int_eq(::dvac::launch(k_adds, "k_adds", 1, nullptr, s.stream)(dx.gm(), dz.gm(), n), 0);
    });
    const float kk = timed(s.stream, kapi);
    ck_assert_msg(ac > 0 && ac == kk, "Ascend C %.6f ms, kernel API %.6f ms", (double)ac, (double)kk);
    auto z = dz.get(), zk = dk.get();
    for (uint32_t i = 0; i < n; i++)
        ck_assert_msg(z[i] == x[i] + 2.0f && zk[i] == z[i], "element %u", i);
}
END_TEST

extern "C" Suite *dv_ascendc_vec_suite(void)
{
    Suite *s = suite_create("ascendc_vec");
    TCase *tc = tcase_create("vector");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_ascendc_vec_binary_count);
    tcase_add_test(tc, test_ascendc_vec_level0);
    tcase_add_test(tc, test_ascendc_vec_unary_count);
    tcase_add_test(tc, test_ascendc_vec_cast);
    tcase_add_test(tc, test_ascendc_vec_copy);
    tcase_add_test(tc, test_ascendc_vec_reduce_count);
    tcase_add_test(tc, test_ascendc_vec_reduce_level0);
    tcase_add_test(tc, test_ascendc_vec_reduce_groups);
    tcase_add_test(tc, test_ascendc_vec_compound);
    tcase_add_test(tc, test_ascendc_vec_gather);
    tcase_add_test(tc, test_ascendc_vec_gather_mask);
    tcase_add_test(tc, test_ascendc_vec_sort);
    tcase_add_test(tc, test_ascendc_vec_compare_select);
    tcase_add_test(tc, test_ascendc_vec_brcb_transpose);
    tcase_add_test(tc, test_ascendc_vec_create_vec_index);
    tcase_add_test(tc, test_ascendc_vec_errors);
    tcase_add_test(tc, test_ascendc_vec_dtype_compile_error);
    tcase_add_test(tc, test_ascendc_vec_mix_aic_noop);
    tcase_add_test(tc, test_ascendc_vec_same_cycles_as_kapi);
    suite_add_tcase(s, tc);
    return s;
}
