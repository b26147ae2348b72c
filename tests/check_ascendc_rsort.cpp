/* tests/check_ascendc_rsort.cpp - the reduction, sort and filter advanced APIs of dvsim's Ascend C
 * (include/ascendc/adv/reduce_sort.h, reduce_sort_tiling.h): Sum, ReduceMax / ReduceMin / ReduceSum
 * (AR, RA), Select with a byte mask, DropOut, Concat / Sort / Extract, TopK run on the model through the
 * AscendCL shim and compared with plain C++ references; the host sizing and tiling functions against
 * CANN's figures worked by hand; the located errors of misuse. */
/* tiling_api.h brings <iostream>, whose fail() Check's fail macro would break: it comes first */
#include "acl/acl.h"
#include "ascendc/kernel_operator.h"
#include "ascendc/tiling/tiling_api.h"

#include <check.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>
#include "support/ascendc_session.h"

using namespace AscendC;

namespace {

using dvtest::Session;

/* ------------------------------------------------------------------ host side */

uint64_t g_rng = 0x2545f4914f6cdd1dull;
uint64_t rnd()
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}
/* n values in [lo, hi]: integers (exact in half and float sums) or, with frac, any float. */
template <class T> std::vector<T> data(size_t n, int lo, int hi, bool frac = false)
{
    std::vector<T> v(n);
    for (auto &x : v) {
        const double u = (double)(rnd() >> 11) / 9007199254740992.0;
        if (frac)
            x = (T)(float)(lo + u * (hi - lo));
        else
            x = (T)(float)(lo + (int)std::floor(u * (hi - lo + 1)));
    }
    return v;
}
template <class T> float f(T v) { return (float)v; }

/* Up to four buffers of bytes (each a whole number of 32-byte blocks), copied to UB, Op::run on them and
 * a tmp buffer, copied back. */
constexpr int NB = 4;
using Bytes = std::vector<uint8_t>;
template <class T> Bytes bytes(const std::vector<T> &v, size_t elems = 0)
{
    const size_t n = std::max(v.size(), elems) * sizeof(T);
    Bytes b((n + 31) / 32 * 32, 0);
    std::memcpy(b.data(), v.data(), v.size() * sizeof(T));
    return b;
}
template <class T> std::vector<T> as(const Bytes &b, size_t n)
{
    std::vector<T> v(n);
    std::memcpy(static_cast<void *>(v.data()), b.data(), n * sizeof(T));
    return v;
}

template <class Op>
__global__ __aicore__ void k_op(GM_ADDR g0, GM_ADDR g1, GM_ADDR g2, GM_ADDR g3, uint32_t b0, uint32_t b1, uint32_t b2,
                                uint32_t b3, uint32_t tmpBytes, uint32_t arg)
{
    TPipe pipe;
    GM_ADDR g[NB] = {g0, g1, g2, g3};
    const uint32_t b[NB] = {b0, b1, b2, b3};
    TBuf<TPosition::VECCALC> buf[NB], tbuf;
    LocalTensor<uint8_t> t[NB];
    GlobalTensor<uint8_t> gt[NB];
    for (int i = 0; i < NB; i++) {
        if (!b[i])
            continue;
        pipe.InitBuffer(buf[i], b[i]);
        t[i] = buf[i].Get<uint8_t>();
        gt[i].SetGlobalBuffer((__gm__ uint8_t *)g[i], b[i]);
        DataCopy(t[i], gt[i], b[i]);
    }
    LocalTensor<uint8_t> tmp;
    if (tmpBytes) {
        pipe.InitBuffer(tbuf, tmpBytes);
        tmp = tbuf.Get<uint8_t>();
    }
    PipeBarrier<PIPE_ALL>();
    Op::run(t, tmp, arg);
    PipeBarrier<PIPE_ALL>();
    for (int i = 0; i < NB; i++)
        if (b[i])
            DataCopy(gt[i], t[i], b[i]);
}

/* Runs Op on the buffers (in and out); the kernel's status (0: it ran). */
template <class Op> int run(Session &s, std::vector<Bytes> &bufs, uint32_t tmpBytes = 0, uint32_t arg = 0)
{
    void *p[NB] = {nullptr, nullptr, nullptr, nullptr};
    uint32_t n[NB] = {0, 0, 0, 0};
    for (size_t i = 0; i < bufs.size(); i++) {
        n[i] = (uint32_t)bufs[i].size();
        ck_assert_int_eq(aclrtMalloc(&p[i], n[i], ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ck_assert_int_eq(aclrtMemcpy(p[i], n[i], bufs[i].data(), n[i], ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    }
    auto gm = [&](int i) { return static_cast<uint8_t *>(p[i]); };
    ck_assert_int_eq(::dvac::launch(k_op<Op>, "k_op", 1, nullptr, s.stream)(gm(0), gm(1), gm(2), gm(3), n[0], n[1],
                                                                           n[2], n[3], tmpBytes, arg),
                     0);
    const int rc = aclrtSynchronizeStream(s.stream);
    for (size_t i = 0; i < bufs.size(); i++) {
        if (!rc)
            ck_assert_int_eq(aclrtMemcpy(bufs[i].data(), n[i], p[i], n[i], ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        aclrtFree(p[i]);
    }
    return rc;
}
template <class Op> void run_ok(Session &s, std::vector<Bytes> &bufs, uint32_t tmpBytes = 0, uint32_t arg = 0)
{
    const int rc = run<Op>(s, bufs, tmpBytes, arg);
    ck_assert_msg(rc == 0, "kernel failed: %s", aclGetRecentErrMsg());
}
void error_has(std::initializer_list<const char *> parts)
{
    const char *m = aclGetRecentErrMsg();
    ck_assert_ptr_nonnull(m);
    for (const char *p : parts)
        ck_assert_msg(std::strstr(m, p), "error '%s' lacks '%s'", m, p);
}

/* The shapes the kernels read: set on the host before each launch (each test runs in its own process,
 * and the kernel runs on the host's threads). */
struct Shape {
    uint32_t a, b, c, d;
    float x;
};
Shape g_shape;

/* ------------------------------------------------------------------ Sum */

template <class T> struct OpSum {
    static void run(LocalTensor<uint8_t> *t, const LocalTensor<uint8_t> &tmp, uint32_t noTmp)
    {
        SumParams p;
        p.outter = g_shape.a;
        p.inner = g_shape.b;
        p.n = g_shape.c;
        if (noTmp)
            Sum(t[1].ReinterpretCast<T>(), t[0].ReinterpretCast<T>(), p);
        else
            Sum(t[1].ReinterpretCast<T>(), t[0].ReinterpretCast<T>(), tmp, p);
    }
};

template <class T> void check_sum(Session &s, uint32_t outter, uint32_t n, bool noTmp = false)
{
    const uint32_t inner = (n * sizeof(T) + 31) / 32 * 32 / sizeof(T);
    g_shape = {outter, inner, n, 0, 0};
    const auto x = data<T>((size_t)outter * inner, -8, 8);
    std::vector<Bytes> b = {bytes(x), bytes(std::vector<T>(outter, (T)-99.0f))};
    uint32_t mx = 0, mn = 0;
    GetSumMaxMinTmpSize(n, sizeof(T), false, mx, mn);
    run_ok<OpSum<T>>(s, b, mn ? mn : 32, noTmp);
    const auto y = as<T>(b[1], outter);
    for (uint32_t r = 0; r < outter; r++) {
        float want = 0;
        for (uint32_t i = 0; i < n; i++)
            want += f(x[(size_t)r * inner + i]);
        ck_assert_msg(f(y[r]) == want, "Sum<%zu> n %u row %u: %g, expected %g", sizeof(T), n, r, f(y[r]), want);
    }
}

START_TEST(test_ascendc_rsort_sum)
{
    Session s;
    check_sum<float>(s, 3, 32);    /* one repeat */
    check_sum<float>(s, 3, 40, true); /* one repeat, the form without a buffer */
    check_sum<float>(s, 2, 300);   /* 5 partial sums, then one */
    check_sum<float>(s, 1, 4100);  /* 65 partials: three levels */
    check_sum<half>(s, 4, 100);    /* one repeat of 128 */
    check_sum<half>(s, 2, 200);    /* two partials */
}
END_TEST

/* ------------------------------------------------------------------ ReduceMax / Min / Sum */

enum { R_MAX, R_MIN, R_SUM, R_MEAN };
template <class T, class P, bool reuse, int op> struct OpReduce {
    static void run(LocalTensor<uint8_t> *t, const LocalTensor<uint8_t> &tmp, uint32_t)
    {
        const uint32_t shape[2] = {g_shape.a, g_shape.b};
        const LocalTensor<T> dst = t[1].ReinterpretCast<T>(), src = t[0].ReinterpretCast<T>();
        if constexpr (op == R_MAX)
            ReduceMax<T, P, reuse>(dst, src, tmp, shape, true);
        else if constexpr (op == R_MIN)
            ReduceMin<T, P, reuse>(dst, src, tmp, shape, true);
        else if constexpr (op == R_SUM)
            ReduceSum<T, P, reuse>(dst, src, tmp, shape, true);
        else
            ReduceMean<T, P, reuse>(dst, src, tmp, shape, true);
    }
};

/* first x last (rows padded to 32 bytes), AR or RA, checked against max / min / sum in plain C++. */
template <class T, class P, bool reuse, int op> void check_reduce(Session &s, uint32_t first, uint32_t last)
{
    constexpr bool ar = std::is_same<P, Pattern::Reduce::AR>::value;
    const uint32_t epb = 32 / sizeof(T), pad = (last + epb - 1) / epb * epb;
    g_shape = {first, last, 0, 0, 0};
    auto x = data<T>((size_t)first * pad, -60, 60);
    for (uint32_t r = 0; r < first; r++) /* the padding must not count: make it win */
        for (uint32_t i = last; i < pad; i++)
            x[(size_t)r * pad + i] = (T)(op == R_MIN ? -1000.0f : 1000.0f);
    const uint32_t out = ar ? first : last;
    std::vector<Bytes> b = {bytes(x), bytes(std::vector<T>(out + 8, (T)7.5f))};
    uint32_t mx = 0, mn = 0;
    const TensorShape shape({(int64_t)first, (int64_t)last});
    const TensorDataType dt = sizeof(T) == 4 ? ge::DT_FLOAT : ge::DT_FLOAT16;
    const ReducePattern pat = ar ? ReducePattern::AR : ReducePattern::RA;
    if (op == R_MEAN)
        GetReduceMeanMaxMinTmpSize(shape, dt, pat, true, reuse, mx, mn);
    else if (op == R_SUM)
        GetReduceSumMaxMinTmpSize(shape, dt, pat, true, reuse, mx, mn);
    else
        GetReduceMaxMaxMinTmpSize(shape, dt, pat, true, reuse, mx, mn);
    run_ok<OpReduce<T, P, reuse, op>>(s, b, mn ? mn : 32);
    const auto y = as<T>(b[1], out + 8);
    for (uint32_t o = 0; o < out; o++) {
        float want = op == R_MAX ? -1e30f : op == R_MIN ? 1e30f : 0.0f;
        const uint32_t m = ar ? last : first;
        for (uint32_t i = 0; i < m; i++) {
            const float v = f(ar ? x[(size_t)o * pad + i] : x[(size_t)i * pad + o]);
            want = op == R_MAX ? std::max(want, v) : op == R_MIN ? std::min(want, v) : want + v;
        }
        if (op == R_MEAN)
            want *= 1.0f / (float)m;
        ck_assert_msg(f(y[o]) == want, "%s %s<%zu>%s %ux%u: out %u is %g, expected %g",
                      op == R_MAX ? "ReduceMax" : op == R_MIN ? "ReduceMin" : op == R_SUM ? "ReduceSum" : "ReduceMean",
                      ar ? "AR" : "RA", sizeof(T),
                      reuse ? " reuse" : "", first, last, o, f(y[o]), want);
    }
    for (uint32_t o = out; o < out + 8; o++) /* past the output: untouched */
        ck_assert_msg(f(y[o]) == 7.5f, "out %u past the %u outputs was written", o, out);
}

START_TEST(test_ascendc_rsort_reduce_ar)
{
    Session s;
    using AR = Pattern::Reduce::AR;
    for (uint32_t last : {5u, 8u, 20u, 64u, 100u, 200u}) {
        check_reduce<float, AR, false, R_MAX>(s, 13, last);
        check_reduce<float, AR, true, R_MIN>(s, 13, last);
        check_reduce<float, AR, false, R_SUM>(s, 9, last);
    }
    for (uint32_t last : {10u, 16u, 50u, 128u, 200u}) {
        check_reduce<half, AR, false, R_MAX>(s, 11, last);
        check_reduce<half, AR, true, R_MIN>(s, 11, last);
    }
    check_reduce<float, AR, false, R_MAX>(s, 300, 20); /* the rows' tails in two runs of repeats (255, 45) */
    check_reduce<float, AR, false, R_MAX>(s, 3, 2100); /* rows past 255 datablocks: row by row */
    check_reduce<float, AR, true, R_SUM>(s, 3, 2100);
    check_reduce<half, AR, true, R_MAX>(s, 3, 600);    /* half reused, rows of 38 datablocks: row by row */
    check_reduce<half, AR, false, R_MIN>(s, 2, 4200);
    check_reduce<float, AR, false, R_MEAN>(s, 6, 77);
}
END_TEST

START_TEST(test_ascendc_rsort_reduce_ra)
{
    Session s;
    using RA = Pattern::Reduce::RA;
    for (uint32_t first : {1u, 5u, 8u, 32u}) {
        check_reduce<float, RA, false, R_MAX>(s, first, 136);
        check_reduce<float, RA, true, R_MAX>(s, first, 136);
        check_reduce<float, RA, false, R_MIN>(s, first, 7);
        check_reduce<float, RA, true, R_SUM>(s, first, 70);
        check_reduce<half, RA, false, R_MAX>(s, first, 40);
    }
    check_reduce<float, RA, true, R_MEAN>(s, 7, 24);
}
END_TEST

/* ------------------------------------------------------------------ Select, DropOut */

template <class T, class U, bool scalarFirst> struct OpSelect {
    static void run(LocalTensor<uint8_t> *t, const LocalTensor<uint8_t> &tmp, uint32_t)
    {
        SelectWithBytesMaskShapeInfo info;
        info.firstAxis = g_shape.a;
        info.srcLastAxis = g_shape.b;
        info.maskLastAxis = g_shape.c;
        const T sc = (T)g_shape.x;
        if constexpr (scalarFirst)
            SelectWithBytesMask(t[2].ReinterpretCast<T>(), sc, t[0].ReinterpretCast<T>(), t[1].ReinterpretCast<U>(),
                                tmp, info);
        else
            Select(t[2].ReinterpretCast<T>(), t[0].ReinterpretCast<T>(), sc, t[1].ReinterpretCast<U>(), tmp, info);
    }
};

template <class T, class U, bool scalarFirst>
void check_select(Session &s, uint32_t rows, uint32_t sl, uint32_t ml, uint32_t tmpBytes = 0)
{
    g_shape = {rows, sl, ml, 0, 1.25f};
    const auto x = data<T>((size_t)rows * sl, -4, 4, true);
    using H = typename std::conditional<std::is_same<U, bool>::value, uint8_t, U>::type; /* no vector<bool> */
    const auto m = data<H>((size_t)rows * ml, 0, 1);
    std::vector<Bytes> b = {bytes(x), bytes(m), bytes(std::vector<T>((size_t)rows * sl, (T)-7.0f))};
    const TensorShape s0({(int64_t)rows, (int64_t)sl}), s1({1}), sm({(int64_t)rows, (int64_t)ml});
    uint32_t mx = 0, mn = 0;
    GetSelectMaxMinTmpSize(s0, s1, sizeof(T), sm, sizeof(U), true, mx, mn);
    run_ok<OpSelect<T, U, scalarFirst>>(s, b, tmpBytes ? tmpBytes : mn);
    const auto y = as<T>(b[2], (size_t)rows * sl);
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t i = 0; i < sl; i++) {
            const bool zero = m[(size_t)r * ml + i] == 0;
            const float want = (zero != scalarFirst) ? f(x[(size_t)r * sl + i]) : 1.25f;
            ck_assert_msg(f(y[(size_t)r * sl + i]) == want, "Select %ux%u (mask rows %u) [%u][%u]: %g, expected %g",
                          rows, sl, ml, r, i, f(y[(size_t)r * sl + i]), want);
        }
}

START_TEST(test_ascendc_rsort_select)
{
    Session s;
    check_select<float, uint8_t, false>(s, 2, 32, 32);
    check_select<float, uint8_t, true>(s, 3, 64, 64);
    check_select<half, uint8_t, false>(s, 4, 48, 64);    /* mask rows longer: row by row */
    check_select<half, int16_t, false>(s, 2, 128, 128);
    check_select<float, bool, false>(s, 5, 40, 64);
    check_select<float, uint8_t, false>(s, 4, 600, 608, 1024); /* runs of 384 elements through a 1 KB buffer */
}
END_TEST

template <class T> struct OpDropOut {
    static void run(LocalTensor<uint8_t> *t, const LocalTensor<uint8_t> &tmp, uint32_t)
    {
        DropOutShapeInfo info;
        info.firstAxis = g_shape.a;
        info.srcLastAxis = g_shape.b;
        info.maskLastAxis = g_shape.c;
        DropOut(t[2].ReinterpretCast<T>(), t[0].ReinterpretCast<T>(), t[1], tmp, g_shape.x, info);
    }
};

/* bit: the mask is bits (LSB first), else bytes. */
template <class T> void check_dropout(Session &s, uint32_t rows, uint32_t sl, uint32_t ml, bool bit, uint32_t tmp)
{
    const float keep = 0.8f;
    g_shape = {rows, sl, ml, 0, keep};
    const auto x = data<T>((size_t)rows * sl, -50, 50, true);
    const auto m = data<uint8_t>((size_t)rows * ml, 0, bit ? 255 : 1);
    std::vector<Bytes> b = {bytes(x), bytes(m), bytes(std::vector<T>((size_t)rows * sl, (T)3.0f))};
    run_ok<OpDropOut<T>>(s, b, tmp);
    const auto y = as<T>(b[2], (size_t)rows * sl);
    const T div = (T)(1.0f / keep);
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t i = 0; i < sl; i++) {
            const uint8_t mb = bit ? m[(size_t)r * ml + i / 8] >> (i % 8) & 1 : m[(size_t)r * ml + i];
            const T kept = (T)(f(x[(size_t)r * sl + i]) * (float)mb);
            const float want = f((T)(f(kept) * f(div)));
            ck_assert_msg(f(y[(size_t)r * sl + i]) == want, "DropOut<%zu> %ux%u (mask %u%s) [%u][%u]: %g, expected %g",
                          sizeof(T), rows, sl, ml, bit ? " bits" : " bytes", r, i, f(y[(size_t)r * sl + i]), want);
        }
}

START_TEST(test_ascendc_rsort_dropout)
{
    Session s;
    check_dropout<float>(s, 4, 256, 32, true, 512);   /* bit mode, the sample's shape */
    check_dropout<half>(s, 3, 64, 64, false, 512);     /* byte mode */
    check_dropout<float>(s, 3, 64, 64, false, 512);    /* byte mode, runs of 64 through the half and float work */
    check_dropout<float>(s, 2, 40, 64, false, 2048);   /* mask rows longer: row by row */
    check_dropout<half>(s, 3, 128, 32, true, 512);     /* bit mode, mask rows longer than sl / 8 */
}
END_TEST

/* ------------------------------------------------------------------ Sort, Extract, TopK */

template <class T> struct OpSort {
    static void run(LocalTensor<uint8_t> *t, const LocalTensor<uint8_t> &, uint32_t reps)
    {
        LocalTensor<T> concat, tmp = t[3].ReinterpretCast<T>();
        Concat(concat, t[0].ReinterpretCast<T>(), tmp, (int32_t)reps);
        LocalTensor<T> sorted = t[2].ReinterpretCast<T>();
        Sort<T, true>(sorted, concat, t[1].ReinterpretCast<uint32_t>(), tmp, (int32_t)reps);
        PipeBarrier<PIPE_V>();
        Extract(t[0].ReinterpretCast<T>(), t[1].ReinterpretCast<uint32_t>(), sorted, (int32_t)reps);
    }
};

/* n = 32 reps scores with indices 1000 + i, sorted descending (equal scores in index order). */
template <class T> void check_sort(Session &s, uint32_t reps)
{
    const uint32_t n = reps * 32;
    auto x = data<T>(n, -20, 20); /* integers: many ties */
    std::vector<uint32_t> idx(n);
    std::iota(idx.begin(), idx.end(), 1000u);
    std::vector<Bytes> b = {bytes(x), bytes(idx), Bytes((size_t)n * 8), Bytes((size_t)n * 8)};
    run_ok<OpSort<T>>(s, b, 0, reps);
    const auto v = as<T>(b[0], n);
    const auto i = as<uint32_t>(b[1], n);
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t c) { return f(x[a]) > f(x[c]); });
    for (uint32_t k = 0; k < n; k++) {
        ck_assert_msg(f(v[k]) == f(x[order[k]]), "Sort<%zu> %u: value %u is %g, expected %g", sizeof(T), n, k,
                      f(v[k]), f(x[order[k]]));
        ck_assert_msg(i[k] == 1000 + order[k], "Sort<%zu> %u: index %u is %u, expected %u", sizeof(T), n, k, i[k],
                      1000 + order[k]);
    }
}

START_TEST(test_ascendc_rsort_sort)
{
    Session s;
    check_sort<float>(s, 1);
    check_sort<float>(s, 3);   /* three runs: one three-way merge */
    check_sort<float>(s, 4);
    check_sort<float>(s, 6);   /* a four-way merge and a two-way merge, then the last round */
    check_sort<half>(s, 5);
    check_sort<float>(s, 17);  /* 544: rounds of 32, 128, 512 with short last runs */
}
END_TEST

template <class T, bool init, bool finish, TopKMode mode> struct OpTopK {
    static void run(LocalTensor<uint8_t> *t, const LocalTensor<uint8_t> &tmp, uint32_t k)
    {
        TopKInfo info;
        info.outter = (int32_t)g_shape.a;
        info.inner = (int32_t)g_shape.b;
        info.n = (int32_t)g_shape.c;
        TopkTiling tiling; /* not read by dvsim's TopK */
        const LocalTensor<int32_t> dsti = t[2].ReinterpretCast<int32_t>()[g_shape.d];
        TopK<T, init, finish, false, mode>(t[2].ReinterpretCast<T>(), dsti, t[0].ReinterpretCast<T>(),
                                           t[1].ReinterpretCast<int32_t>(), t[3].ReinterpretCast<bool>(), tmp,
                                           (int32_t)k, tiling, info, g_shape.x != 0.0f);
    }
};

template <class T, bool init, bool finish, TopKMode mode = TopKMode::TOPK_NORMAL>
void check_topk(Session &s, uint32_t outter, uint32_t inner, uint32_t k, bool largest)
{
    const uint32_t ka4 = (k + 7) / 8 * 8, kaT = sizeof(T) == 4 ? ka4 : (k + 15) / 16 * 16;
    const uint32_t vals = outter * kaT, ibase = (vals * sizeof(T) + 31) / 32 * 32 / 4; /* indices after the values */
    g_shape = {outter, inner, inner, ibase, largest ? 1.0f : 0.0f};
    const auto x = data<T>((size_t)outter * inner, -30, 30);
    const size_t nidx = mode == TopKMode::TOPK_NSMALL ? (size_t)outter * inner : inner;
    std::vector<int32_t> idx(nidx);
    for (size_t i = 0; i < nidx; i++)
        idx[i] = (int32_t)(i % inner) * 3 + 1; /* with isInitIndex: the given indices come out */
    std::vector<uint8_t> fin(outter);
    for (uint32_t r = 0; r < outter; r++)
        fin[r] = r % 2;
    std::vector<Bytes> b = {bytes(x), bytes(idx), Bytes((size_t)ibase * 4 + (size_t)outter * ka4 * 4), bytes(fin)};
    uint32_t mx = 0, mn = 0;
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    ck_assert_ptr_nonnull(plat);
    ck_assert(GetTopKMaxMinTmpSize(*plat, (int32_t)inner, (int32_t)outter, false, init, mode, largest, sizeof(T), mx,
                                   mn));
    run_ok<OpTopK<T, init, finish, mode>>(s, b, mn, k);
    const auto v = as<T>(b[2], vals);
    const auto gi = as<int32_t>(Bytes(b[2].begin() + (ptrdiff_t)ibase * 4, b[2].end()), (size_t)outter * ka4);
    for (uint32_t r = 0; r < outter; r++) {
        std::vector<uint32_t> order(inner);
        std::iota(order.begin(), order.end(), 0u);
        const T *row = &x[(size_t)r * inner];
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t c) {
            return largest ? f(row[a]) > f(row[c]) : f(row[a]) < f(row[c]);
        });
        for (uint32_t j = 0; j < k; j++) {
            const float want = f(row[order[j]]);
            int32_t wi = init ? idx[(mode == TopKMode::TOPK_NSMALL ? r * inner : 0) + order[j]] : (int32_t)order[j];
            if (finish && fin[r])
                wi = (int32_t)inner;
            ck_assert_msg(f(v[r * kaT + j]) == want, "TopK<%zu> %ux%u k %u %s row %u: value %u is %g, expected %g",
                          sizeof(T), outter, inner, k, largest ? "largest" : "smallest", r, j, f(v[r * kaT + j]),
                          want);
            ck_assert_msg(gi[r * ka4 + j] == wi, "TopK<%zu> %ux%u k %u row %u: index %u is %d, expected %d", sizeof(T),
                          outter, inner, k, r, j, gi[r * ka4 + j], wi);
        }
    }
}

START_TEST(test_ascendc_rsort_topk)
{
    Session s;
    check_topk<float, false, true>(s, 2, 32, 1, false);  /* the sample's case */
    check_topk<float, false, false>(s, 3, 96, 5, true);  /* three runs */
    check_topk<float, true, true>(s, 3, 128, 20, false);
    check_topk<half, false, false>(s, 2, 160, 17, true); /* five runs: a four-way and a lone run */
    check_topk<half, true, false>(s, 2, 64, 3, false);
    check_topk<float, true, false, TopKMode::TOPK_NSMALL>(s, 3, 32, 4, true);
    check_topk<float, false, false, TopKMode::TOPK_NSMALL>(s, 2, 32, 32, false);
}
END_TEST

/* ------------------------------------------------------------------ host functions */

START_TEST(test_ascendc_rsort_host)
{
    uint32_t mx = 1, mn = 1;
    /* Sum: one slot per repeat, 32-byte aligned: n 300 floats = 5 repeats -> 8 floats; 4100 -> 65 -> 72. */
    GetSumMaxMinTmpSize(300, 4, false, mx, mn);
    ck_assert_uint_eq(mn, 32);
    GetSumMaxMinTmpSize(4100, 4, false, mx, mn);
    ck_assert_uint_eq(mn, 288);
    ck_assert_uint_eq(mx, mn);
    /* ReduceMax: AR last <= 8 floats: 0; < 64: first * 8 floats; else first * 64 floats; RA: the largest
     * power of two below first (half of it when first is one) times the padded row. */
    GetReduceMaxMaxMinTmpSize(TensorShape({13, 5}), ge::DT_FLOAT, ReducePattern::AR, true, false, mx, mn);
    ck_assert_uint_eq(mn, 0);
    GetReduceMaxMaxMinTmpSize(TensorShape({13, 20}), ge::DT_FLOAT, ReducePattern::AR, true, false, mx, mn);
    ck_assert_uint_eq(mn, 13 * 8 * 4);
    GetReduceMaxMaxMinTmpSize(TensorShape({13, 100}), ge::DT_FLOAT16, ReducePattern::AR, true, false, mx, mn);
    ck_assert_uint_eq(mn, 13 * 16 * 2);
    GetReduceMaxMaxMinTmpSize(TensorShape({32, 136}), ge::DT_FLOAT, ReducePattern::RA, true, false, mx, mn);
    ck_assert_uint_eq(mn, 16 * 136 * 4);
    GetReduceMaxMaxMinTmpSize(TensorShape({5, 7}), ge::DT_FLOAT, ReducePattern::RA, true, false, mx, mn);
    ck_assert_uint_eq(mn, 4 * 32);
    GetReduceMinMaxMinTmpSize(TensorShape({5, 7}), ge::DT_FLOAT, ReducePattern::RA, true, true, mx, mn);
    ck_assert_uint_eq(mn, 0);
    /* refused: written 0 */
    mx = mn = 9;
    GetReduceMaxMaxMinTmpSize(TensorShape({5, 7}), ge::DT_INT32, ReducePattern::RA, true, false, mx, mn);
    ck_assert_uint_eq(mn + mx, 0);
    mx = mn = 9;
    GetReduceSumMaxMinTmpSize(TensorShape({5, 7}), ge::DT_FLOAT16, ReducePattern::RA, true, false, mx, mn);
    ck_assert_uint_eq(mn + mx, 0);
    mx = mn = 9;
    GetReduceMaxMaxMinTmpSize(TensorShape({5, 7}), ge::DT_FLOAT, ReducePattern::RA, false, false, mx, mn);
    ck_assert_uint_eq(mn + mx, 0);
    /* Select: max(1024, padded source * 2 + 512), the minimum capped at 4096 elements; a mask copy when the
     * rows differ and the mask is not reused. */
    GetSelectMaxMinTmpSize(TensorShape({2, 32}), TensorShape({1}), 4, TensorShape({2, 32}), 1, false, mx, mn);
    ck_assert_uint_eq(mn, 1024);
    GetSelectMaxMinTmpSize(TensorShape({8, 1000}), TensorShape({1}), 4, TensorShape({8, 1024}), 1, false, mx, mn);
    ck_assert_uint_eq(mx, 8000 * 2 + 512 + 8000);
    ck_assert_uint_eq(mn, 4096 * 2 + 512 + 8000);
    /* DropOut: 512 at least, two floats per element at most. */
    GetDropOutMaxMinTmpSize(TensorShape({4, 256, 32}), 4, false, mx, mn);
    ck_assert_uint_eq(mn, 512);
    ck_assert_uint_eq(mx, 2 * 4 * 256 * 32 * 4);
    /* Sort (the advanced one) is dav-3510's: refused, 0. */
    mx = mn = 9;
    GetSortMaxMinTmpSize(TensorShape({128}), ge::DT_FLOAT, ge::DT_UINT32, false, SortConfig(), mx, mn);
    ck_assert_uint_eq(mn + mx, 0);
    ck_assert_uint_eq(GetSortOffset<float>(3), 6);
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    ck_assert_ptr_nonnull(plat);
    ck_assert_uint_eq(GetSortTmpSize(*plat, 128, 4), 128 * 2 * 4);
    ck_assert_uint_eq(GetSortTmpSize(*plat, 128, 2), 128 * 4 * 2);
    ck_assert_uint_eq(GetConcatTmpSize(*plat, 128, 4), 0);
    GetReduceMeanMaxMinTmpSize(TensorShape({6, 77}), ge::DT_FLOAT, ReducePattern::AR, true, false, mx, mn);
    ck_assert_uint_eq(mn, 6 * 64 * 4);
    ck_assert_uint_eq(GetSortLen<half>(5), 20);
}
END_TEST

START_TEST(test_ascendc_rsort_topk_tiling)
{
    /* One field table: the kernel struct and the host class have one layout, CANN's 112 bytes. */
    ck_assert_uint_eq(sizeof(TopkTiling), 112);
    ck_assert_uint_eq(sizeof(optiling::TopkTiling), 112);
    ck_assert_uint_eq(offsetof(TopkTiling, srcIndexOffset), 16 * 4);
    ck_assert_uint_eq(offsetof(TopkTiling, vreducehalfValMask7), 24 * 4 + 7 * 2);
    auto *plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    ck_assert_ptr_nonnull(plat);
    uint32_t mx = 0, mn = 0;
    /* dav-2201 NORMAL: (16 + 4) * inner, 16 * inner with isInitIndex */
    ck_assert(GetTopKMaxMinTmpSize(*plat, 32, 2, false, false, TopKMode::TOPK_NORMAL, false, 4, mx, mn));
    ck_assert_uint_eq(mn, 640);
    ck_assert(GetTopKMaxMinTmpSize(*plat, 64, 2, false, true, TopKMode::TOPK_NORMAL, true, 2, mx, mn));
    ck_assert_uint_eq(mn, 1024);
    /* NSMALL, smallest, indices made: 32 * 3 * (8 + 4 + 4) + 64 */
    ck_assert(GetTopKMaxMinTmpSize(*plat, 32, 3, false, false, TopKMode::TOPK_NSMALL, false, 4, mx, mn));
    ck_assert_uint_eq(mn, 32 * 3 * 16 + 64);
    ck_assert(!GetTopKMaxMinTmpSize(*plat, 48, 2, false, false, TopKMode::TOPK_NORMAL, false, 4, mx, mn));
    ck_assert(!GetTopKMaxMinTmpSize(*plat, 64, 2, false, false, TopKMode::TOPK_NSMALL, false, 4, mx, mn));
    optiling::TopkTiling t;
    ck_assert(TopKTilingFunc(*plat, 32, 2, 1, 4, false, TopKMode::TOPK_NORMAL, false, t));
    ck_assert_int_eq(t.get_kAlignFourBytes(), 8);
    ck_assert_int_eq(t.get_kAlignTwoBytes(), 16);
    ck_assert_int_eq(t.get_innerDataSize(), 64);
    ck_assert_int_eq(t.get_tmpLocalSize(), 4 * 32 + 32);
    ck_assert_int_eq(t.get_srcIndexOffset(), 128);
    ck_assert_int_eq(t.get_maskOffset(), 16);
    ck_assert_uint_eq(t.get_sortRepeat(), 1);
    ck_assert_uint_eq(t.get_copyUbToUbBlockCount(), 8);
    ck_assert_int_eq(t.get_allDataSize(), 64);
    TopkTiling kt;
    ck_assert(TopKTilingFunc(*plat, 32, 4, 6, 2, true, TopKMode::TOPK_NSMALL, true, kt));
    ck_assert_int_eq(kt.innerDataSize, 32 * 4 * 4);
    ck_assert_int_eq(kt.maskOffset, 24);
    ck_assert_uint_eq(kt.vreduceIdxMask0, 0xaaa);      /* "10" six times */
    ck_assert_uint_eq(kt.vreducehalfValMask0, 0x1111); /* "0001" four times */
    ck_assert_uint_eq(kt.vreducehalfValMask1, 0x11);
    ck_assert_uint_eq(kt.vreducehalfValMask2, 0);
    ck_assert(!TopKTilingFunc(*plat, 32, 4, 33, 4, true, TopKMode::TOPK_NORMAL, true, kt));
}
END_TEST

/* ------------------------------------------------------------------ errors */

struct ErrSumTmp {
    static void run(LocalTensor<uint8_t> *t, const LocalTensor<uint8_t> &tmp, uint32_t)
    {
        SumParams p;
        p.outter = 1;
        p.inner = 128;
        p.n = 128;
        Sum(t[1].ReinterpretCast<float>(), t[0].ReinterpretCast<float>(), tmp[0], p);
    }
};
struct ErrSumStack {
    static void run(LocalTensor<uint8_t> *t, const LocalTensor<uint8_t> &, uint32_t)
    {
        SumParams p;
        p.outter = 1;
        p.inner = 128;
        p.n = 100;
        Sum(t[1].ReinterpretCast<float>(), t[0].ReinterpretCast<float>(), p);
    }
};
struct ErrDropStack {
    static void run(LocalTensor<uint8_t> *t, const LocalTensor<uint8_t> &, uint32_t)
    {
        DropOutShapeInfo info;
        DropOut(t[1].ReinterpretCast<float>(), t[0].ReinterpretCast<float>(), t[2], 0.5f, info);
    }
};
struct ErrReduceTmp {
    static void run(LocalTensor<uint8_t> *t, const LocalTensor<uint8_t> &tmp, uint32_t)
    {
        const uint32_t shape[2] = {32, 16};
        ReduceMax<float, Pattern::Reduce::RA>(t[1].ReinterpretCast<float>(), t[0].ReinterpretCast<float>(), tmp,
                                              shape, true);
    }
};
struct ErrReduceStack {
    static void run(LocalTensor<uint8_t> *t, const LocalTensor<uint8_t> &, uint32_t)
    {
        const uint32_t shape[2] = {4, 16};
        ReduceMin<float, Pattern::Reduce::RA>(t[1].ReinterpretCast<float>(), t[0].ReinterpretCast<float>(), shape,
                                              true);
    }
};
struct ErrSelectTmp {
    static void run(LocalTensor<uint8_t> *t, const LocalTensor<uint8_t> &tmp, uint32_t)
    {
        SelectWithBytesMaskShapeInfo info;
        info.firstAxis = 2;
        info.srcLastAxis = 32;
        info.maskLastAxis = 32;
        Select(t[1].ReinterpretCast<float>(), t[0].ReinterpretCast<float>(), 1.0f, t[2], tmp, info);
    }
};
struct ErrDropKeep {
    static void run(LocalTensor<uint8_t> *t, const LocalTensor<uint8_t> &tmp, uint32_t)
    {
        DropOutShapeInfo info;
        info.firstAxis = 2;
        info.srcLastAxis = 32;
        info.maskLastAxis = 32;
        DropOut(t[1].ReinterpretCast<float>(), t[0].ReinterpretCast<float>(), t[2], tmp, 1.0f, info);
    }
};
struct ErrTopK {
    static void run(LocalTensor<uint8_t> *t, const LocalTensor<uint8_t> &tmp, uint32_t)
    {
        TopKInfo info;
        info.outter = 1;
        info.inner = 32;
        info.n = 20;
        TopkTiling tiling;
        TopK<float>(t[1].ReinterpretCast<float>(), t[2].ReinterpretCast<int32_t>(), t[0].ReinterpretCast<float>(),
                    t[2].ReinterpretCast<int32_t>(), t[2].ReinterpretCast<bool>(), tmp, 21, tiling, info);
    }
};
struct ErrExtract {
    static void run(LocalTensor<uint8_t> *t, const LocalTensor<uint8_t> &, uint32_t)
    {
        Extract(t[1].ReinterpretCast<float>(), t[2].ReinterpretCast<uint32_t>(), t[0].ReinterpretCast<float>(), 4);
    }
};

template <class Op> void expect_error(Session &s, uint32_t tmp, std::initializer_list<const char *> parts)
{
    std::vector<Bytes> b = {Bytes(4096), Bytes(256), Bytes(256)};
    ck_assert_int_ne(run<Op>(s, b, tmp), 0);
    error_has(parts);
}

START_TEST(test_ascendc_rsort_errors)
{
    Session s;
    expect_error<ErrSumTmp>(s, 0, {"check_ascendc_rsort.cpp:", "Sum: ", "has no buffer"});
    expect_error<ErrSumStack>(s, 0, {"Sum: ", "n 100 is more than a repeat: pass a sharedTmpBuffer"});
    expect_error<ErrDropStack>(s, 0, {"DropOut: ", "the form without sharedTmpBuffer takes CANN's stack buffer"});
    expect_error<ErrReduceTmp>(s, 64, {"ReduceMax: ", "sharedTmpBuffer has 64 bytes; this shape needs 1024"});
    expect_error<ErrReduceStack>(s, 0, {"ReduceMin: ", "needs sharedTmpBuffer (or isReuseSource)"});
    expect_error<ErrSelectTmp>(s, 512, {"Select: ", "sharedTmpBuffer has 512 bytes: at least 1024"});
    expect_error<ErrDropKeep>(s, 512, {"DropOut: ", "keepProb 1 is not in (0, 1)"});
    expect_error<ErrTopK>(s, 1024, {"TopK: ", "k 21 must be in [1, n = 20]"});
    expect_error<ErrExtract>(s, 0, {"Extract: ", "128 elements pass the end of a tensor of 64"});
}
END_TEST

} // namespace

extern "C" Suite *dv_ascendc_rsort_suite(void)
{
    Suite *s = suite_create("ascendc_rsort");
    TCase *tc = tcase_create("rsort");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_ascendc_rsort_sum);
    tcase_add_test(tc, test_ascendc_rsort_reduce_ar);
    tcase_add_test(tc, test_ascendc_rsort_reduce_ra);
    tcase_add_test(tc, test_ascendc_rsort_select);
    tcase_add_test(tc, test_ascendc_rsort_dropout);
    tcase_add_test(tc, test_ascendc_rsort_sort);
    tcase_add_test(tc, test_ascendc_rsort_topk);
    tcase_add_test(tc, test_ascendc_rsort_host);
    tcase_add_test(tc, test_ascendc_rsort_topk_tiling);
    tcase_add_test(tc, test_ascendc_rsort_errors);
    suite_add_tcase(s, tc);
    return s;
}
