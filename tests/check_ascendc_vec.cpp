/* tests/check_ascendc_vec.cpp - the vector API of dvsim's Ascend C (include/ascendc/dvac/vec*.h):
 * Ascend C kernels run through the AscendCL shim (aclrtMalloc, the <<<>>> launch as dvcc rewrites it,
 * aclrtSynchronizeStream) and their outputs compared with plain C++ references; the located errors
 * of misuse; the instruction stream of an API against CANN's dav-2201 sequence. */
#include <check.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "ascendc/kernel_operator.h"

using namespace AscendC;

namespace {

/* ------------------------------------------------------------------ host side */

/* One AscendCL session on device 0 with a stream (each test runs in its own process). */
struct Session {
    aclrtStream stream = nullptr;
    Session()
    {
        ck_assert_int_eq(aclInit(nullptr), ACL_SUCCESS);
        ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
        ck_assert_int_eq(aclrtCreateStream(&stream), ACL_SUCCESS);
    }
    ~Session()
    {
        aclrtDestroyStream(stream);
        aclrtResetDevice(0);
        aclFinalize();
    }
    /* Synchronise; the kernel's status (0 = it ran). */
    int sync() { return aclrtSynchronizeStream(stream); }
};

/* A device buffer with host contents. */
template <class T> struct Dev {
    void *p = nullptr;
    size_t n = 0;
    explicit Dev(const std::vector<T> &h) : n(h.size())
    {
        ck_assert_int_eq(aclrtMalloc(&p, n * sizeof(T), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ck_assert_int_eq(aclrtMemcpy(p, n * sizeof(T), h.data(), n * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE),
                         ACL_SUCCESS);
    }
    explicit Dev(size_t count) : Dev(std::vector<T>(count)) {}
    ~Dev() { aclrtFree(p); }
    std::vector<T> get() const
    {
        std::vector<T> h(n);
        ck_assert_int_eq(aclrtMemcpy(h.data(), n * sizeof(T), p, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST),
                         ACL_SUCCESS);
        return h;
    }
    uint8_t *gm() const { return static_cast<uint8_t *>(p); }
};

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

/* Line of the next statement in this file, for located-error checks. */
#define HERE_NEXT (__LINE__ + 1)

/* ------------------------------------------------------------------ kernels */

/* Element counts a kernel moves: a whole number of 32-byte blocks covering n. */
template <class T> uint32_t padded(uint32_t n) { return (n * (uint32_t)sizeof(T) + 31) / 32 * 32 / (uint32_t)sizeof(T); }

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

extern "C" Suite *dv_ascendc_vec_suite(void)
{
    Suite *s = suite_create("ascendc_vec");
    TCase *tc = tcase_create("vector");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_ascendc_vec_binary_count);
    suite_add_tcase(s, tc);
    return s;
}
