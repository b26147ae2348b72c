/* tests/check_ascendc_mm.cpp - the Matmul API driven from the AIVs of a mix kernel (lib/matmul_intf.h,
 * lib/matmul/kfc.h): the AIC serves each AIV's requests; C lands in GM or in the AIV's UB.  Kernels are
 * launched as dvcc launches them (::dvac::launch) and checked against a plain C++ matmul. */
#include <iostream> /* before check.h, whose fail macro breaks <ios> (tiling/tiling_api.h includes it) */

#include <check.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "ascendc/kernel_operator.h"
#include "ascendc/lib/matmul_intf.h" /* no ASCENDC_CUBE_ONLY: a mix kernel's Matmul */
#include "ascendc/tiling/tiling_api.h"
#include "support/aclt.h"

namespace {

using namespace AscendC;

/* A deterministic value in [-1, 1) for element i of stream `seed`, exact in half. */
float value(uint32_t seed, uint64_t i)
{
    uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t)seed * 0xBF58476D1CE4E5B9ull;
    x ^= x >> 31;
    x *= 0x94D049BB133111EBull;
    return (float)((int)(x % 2048) - 1024) / 1024.0f;
}

using MmGm = Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
                    MatmulType<TPosition::GM, CubeFormat::ND, float>>;
using MmUb = Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
                    MatmulType<TPosition::VECIN, CubeFormat::ND, float>>;

enum Mode { ALL = 0, ALL_ASYNC = 1, TILES_GM = 2, TILES_UB = 3 };

/* Each AIV (GetBlockIdx) computes its singleCoreM rows of C = A x B. */
template <int MODE> __global__ __aicore__ void mm_mix(GM_ADDR a, GM_ADDR b, GM_ADDR c, TCubeTiling t)
{
    TPipe pipe;
    using Mm = typename std::conditional<MODE == TILES_UB, MmUb, MmGm>::type;
    Mm mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    const int64_t row0 = GetBlockIdx() * t.singleCoreM;
    if (row0 >= t.M)
        return;
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half *)a, t.M * t.Ka);
    bg.SetGlobalBuffer((__gm__ half *)b, t.Kb * t.N);
    cg.SetGlobalBuffer((__gm__ float *)c, t.M * t.N);
    mm.SetTensorA(ag[row0 * t.Ka]);
    mm.SetTensorB(bg);
    if (MODE == ALL) {
        mm.IterateAll(cg[row0 * t.N]);
    } else if (MODE == ALL_ASYNC) {
        mm.template IterateAll<false>(cg[row0 * t.N]);
        mm.WaitIterateAll();
    } else if (MODE == TILES_GM) {
        while (mm.template Iterate<true>())
            mm.GetTensorC(cg[row0 * t.N]);
    } else {
        TQue<TPosition::VECIN, 1> q;
        pipe.InitBuffer(q, 1, t.baseM * t.baseN * sizeof(float));
        while (mm.template Iterate<true>()) {
            LocalTensor<float> l = q.template AllocTensor<float>();
            mm.template GetTensorC<true>(l, false, true);
            q.EnQue(l);
            l = q.template DeQue<float>();
            const MatrixOffset o = mm.GetOffsetC();
            DataCopy(cg[(row0 + o.row) * t.N + o.col], l,
                     DataCopyParams((uint16_t)o.height, (uint16_t)(t.baseN * 4 / 32), 0,
                                    (uint16_t)((t.N - t.baseN) * 4 / 32)));
            q.FreeTensor(l);
        }
    }
    mm.End();
}

template <int MODE> void run_mix(int32_t m, int32_t n, int32_t k)
{
    dv_config_t cfg;
    ck_assert_int_eq(dv_config_preset(&cfg, "ascend910b2", NULL), 0);
    platform_ascendc::PlatformAscendC plat(cfg);
    namespace mt = matmul_tiling;
    mt::MultiCoreMatmulTiling api(plat);
    api.SetDim(2);
    api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
    api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
    api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
    api.SetOrgShape(m, n, k);
    api.SetShape(m, n, k);
    api.SetFixSplit(64, 64, -1);
    api.SetBufferSpace(-1, -1, -1);
    TCubeTiling t;
    ck_assert_int_eq(api.GetTiling(t), 0);
    t.singleCoreM = (m / 2 + 15) / 16 * 16; /* the two AIVs of one block split M */
    t.singleCoreN = n;
    up();
    aclrtStream stream;
    OK(aclrtCreateStream(&stream));
    std::vector<half> ha((size_t)m * k), hb((size_t)k * n);
    for (size_t i = 0; i < ha.size(); i++)
        ha[i] = (half)value(1, i);
    for (size_t i = 0; i < hb.size(); i++)
        hb[i] = (half)value(2, i);
    void *a, *b, *c;
    const size_t cb = (size_t)m * n * 4;
    OK(aclrtMalloc(&a, ha.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&b, hb.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&c, cb, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemcpy(a, ha.size() * 2, ha.data(), ha.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE));
    OK(aclrtMemcpy(b, hb.size() * 2, hb.data(), hb.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE));
    std::vector<float> got((size_t)m * n, 1e30f);
    OK(aclrtMemcpy(c, cb, got.data(), cb, ACL_MEMCPY_HOST_TO_DEVICE));
    ck_assert_uint_eq(::dvac::launch(mm_mix<MODE>, "mm_mix", 1, nullptr, stream)(a, b, c, t), 0);
    const int rc = aclrtSynchronizeStream(stream);
    ck_assert_msg(rc == ACL_SUCCESS, "%s", aclGetRecentErrMsg());
    OK(aclrtMemcpy(got.data(), cb, c, cb, ACL_MEMCPY_DEVICE_TO_HOST));
    size_t bad = 0;
    for (int32_t i = 0; i < m; i++)
        for (int32_t j = 0; j < n; j++) {
            float acc = 0;
            for (int32_t q = 0; q < k; q++)
                acc += (float)ha[(size_t)i * k + q] * (float)hb[(size_t)q * n + j];
            bad += !(std::fabs(got[(size_t)i * n + j] - acc) <= 1e-4 + 1e-5 * std::fabs(acc));
        }
    ck_assert_uint_eq(bad, 0);
    OK(aclrtFree(a));
    OK(aclrtFree(b));
    OK(aclrtFree(c));
    down();
}

/* GetTensorC into UB needs the AIV of a mix kernel (the AIC cannot reach UB). */
__global__ __cube__ void bad_ub_out(GM_ADDR, GM_ADDR, GM_ADDR, TCubeTiling t)
{
    TPipe pipe;
    MmUb mm;
    mm.Init(&t, &pipe);
    LocalTensor<float> l;
    mm.GetTensorC(l);
}

/* ---------------------------------------------------------------- cube-only kernels */
#define ASCENDC_CUBE_ONLY

/* The host's device buffers of one M x N x K case (A [M, K], B [K, N] in half; C float). */
struct Bufs {
    aclrtStream stream;
    std::vector<half> ha, hb;
    void *a, *b, *c;
    size_t cb;
    Bufs(int32_t m, int32_t n, int32_t k, size_t cbytes) : ha((size_t)m * k), hb((size_t)k * n), cb(cbytes)
    {
        up();
        OK(aclrtCreateStream(&stream));
        for (size_t i = 0; i < ha.size(); i++)
            ha[i] = (half)value(1, i);
        for (size_t i = 0; i < hb.size(); i++)
            hb[i] = (half)value(2, i);
        OK(aclrtMalloc(&a, ha.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST));
        OK(aclrtMalloc(&b, hb.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST));
        OK(aclrtMalloc(&c, cb, ACL_MEM_MALLOC_HUGE_FIRST));
        OK(aclrtMemcpy(a, ha.size() * 2, ha.data(), ha.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE));
        OK(aclrtMemcpy(b, hb.size() * 2, hb.data(), hb.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    /* sum over q in [q0, q1) of A[i][q] B[q][j] */
    float dot(int32_t n, int32_t k, int32_t i, int32_t j, int32_t q0, int32_t q1) const
    {
        float acc = 0;
        for (int32_t q = q0; q < q1; q++)
            acc += (float)ha[(size_t)i * k + q] * (float)hb[(size_t)q * n + j];
        return acc;
    }
    ~Bufs()
    {
        OK(aclrtFree(a));
        OK(aclrtFree(b));
        OK(aclrtFree(c));
        down();
    }
};

/* A one-core tiling of m x n x k with base 32 x 32 x 32 and K in one L1 load. */
TCubeTiling small_tiling(int32_t m, int32_t n, int32_t k)
{
    TCubeTiling t{};
    t.usedCoreNum = 1;
    t.M = t.singleCoreM = m;
    t.N = t.singleCoreN = n;
    t.Ka = t.Kb = t.singleCoreK = k;
    t.baseM = t.baseN = t.baseK = 32;
    t.stepM = t.stepN = 1;
    t.stepKa = t.stepKb = (k + 31) / 32;
    t.depthA1 = t.depthB1 = t.stepKa;
    t.dbL0A = t.dbL0B = t.dbL0C = 1;
    return t;
}

/* isPartialOutput: each Iterate gives one baseK slice's product of a tile, written as a baseM x baseN block. */
constexpr MatmulConfig partial_cfg()
{
    MatmulConfig c = CFG_NORM;
    c.isPartialOutput = true;
    return c;
}
constexpr MatmulConfig PARTIAL_CFG = partial_cfg();
__global__ __cube__ void mm_partial(GM_ADDR a, GM_ADDR b, GM_ADDR c, TCubeTiling t)
{
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>,
           PARTIAL_CFG>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half *)a);
    bg.SetGlobalBuffer((__gm__ half *)b);
    cg.SetGlobalBuffer((__gm__ float *)c);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg);
    for (uint64_t off = 0; mm.Iterate(); off += (uint64_t)t.baseM * t.baseN)
        mm.GetTensorC(cg[off], 0, true);
    mm.End();
}

/* CopyA1: the user's load of A block (row, col) of useM x useK (tilingPtr: A's row pitch); counts its calls. */
int g_copy_a1_calls = 0;
void copy_a1(const LocalTensor<int8_t> &aMatrix, const __gm__ void *gm, int row, int col, int useM, int useK,
             const uint64_t tilingPtr, const uint64_t dataPtr)
{
    g_copy_a1_calls++;
    GlobalTensor<half> src;
    src.SetGlobalBuffer((__gm__ half *)gm);
    const uint64_t first = (uint64_t)row * 32 * tilingPtr + (uint64_t)col * dataPtr;
    DataCopy(aMatrix.ReinterpretCast<half>(), src[first],
             Nd2NzParams(1, (uint16_t)useM, (uint16_t)useK, 0, (uint16_t)tilingPtr, (uint16_t)((useM + 15) / 16 * 16),
                         1, 0));
}
__global__ __cube__ void mm_callback(GM_ADDR a, GM_ADDR b, GM_ADDR c, TCubeTiling t)
{
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>,
           CFG_NORM, MatmulCallBackFunc<nullptr, copy_a1, nullptr>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half *)a);
    bg.SetGlobalBuffer((__gm__ half *)b);
    cg.SetGlobalBuffer((__gm__ float *)c);
    mm.SetUserDefInfo((uint64_t)t.Ka);
    mm.SetSelfDefineData((uint64_t)t.stepKa * t.baseK);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg);
    mm.IterateAll(cg);
    mm.End();
}

/* 64-bit GM scalars (dvac/mm_extra.h): x[1] = x[0] + 1, x[2] = the value read back from x[1]. */
__global__ __vector__ void gm64(GM_ADDR x)
{
    GlobalTensor<uint64_t> g;
    g.SetGlobalBuffer((__gm__ uint64_t *)x, 4);
    g.SetValue(1, g.GetValue(0) + 1);
    g.SetValue(2, g.GetValue(1));
}

} // namespace

START_TEST(test_ascendc_mm_gm_u64_scalar)
{
    up();
    aclrtStream stream;
    OK(aclrtCreateStream(&stream));
    void *x;
    uint64_t h[4] = {0x123456789abcdef0ull, 0, 0, 0};
    OK(aclrtMalloc(&x, sizeof h, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemcpy(x, sizeof h, h, sizeof h, ACL_MEMCPY_HOST_TO_DEVICE));
    ck_assert_uint_eq(::dvac::launch(gm64, "gm64", 1, nullptr, stream)(x), 0);
    ck_assert_int_eq(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    OK(aclrtMemcpy(h, sizeof h, x, sizeof h, ACL_MEMCPY_DEVICE_TO_HOST));
    ck_assert_uint_eq(h[1], 0x123456789abcdef1ull);
    ck_assert_uint_eq(h[2], 0x123456789abcdef1ull);
    OK(aclrtFree(x));
    down();
}
END_TEST

/* 64 x 64 x 96 in 32 x 32 x 32 tiles: 4 tiles x 3 slices, each slice's product alone. */
START_TEST(test_ascendc_mm_partial_output)
{
    const int32_t m = 64, n = 64, k = 96;
    TCubeTiling t = small_tiling(m, n, k);
    Bufs s(m, n, k, (size_t)4 * 3 * 32 * 32 * 4);
    ck_assert_uint_eq(::dvac::launch(mm_partial, "mm_partial", 1, nullptr, s.stream)(s.a, s.b, s.c, t), 0);
    const int rc = aclrtSynchronizeStream(s.stream);
    ck_assert_msg(rc == ACL_SUCCESS, "%s", aclGetRecentErrMsg());
    std::vector<float> got(s.cb / 4);
    OK(aclrtMemcpy(got.data(), s.cb, s.c, s.cb, ACL_MEMCPY_DEVICE_TO_HOST));
    size_t bad = 0;
    for (int32_t tile = 0; tile < 4; tile++) /* iterate order M first: tile (tile % 2, tile / 2) */
        for (int32_t q = 0; q < 3; q++)
            for (int32_t i = 0; i < 32; i++)
                for (int32_t j = 0; j < 32; j++) {
                    const float want = s.dot(n, k, (tile % 2) * 32 + i, (tile / 2) * 32 + j, q * 32, q * 32 + 32);
                    const float g = got[((size_t)(tile * 3 + q) * 32 + i) * 32 + j];
                    bad += !(std::fabs(g - want) <= 1e-4 + 1e-5 * std::fabs(want));
                }
    ck_assert_uint_eq(bad, 0);
}
END_TEST

/* A CopyA1 callback loads A (one load per tile row: K in one step) and the product is right. */
START_TEST(test_ascendc_mm_callback_copy_a1)
{
    const int32_t m = 64, n = 32, k = 64;
    TCubeTiling t = small_tiling(m, n, k);
    Bufs s(m, n, k, (size_t)m * n * 4);
    g_copy_a1_calls = 0;
    ck_assert_uint_eq(::dvac::launch(mm_callback, "mm_callback", 1, nullptr, s.stream)(s.a, s.b, s.c, t), 0);
    const int rc = aclrtSynchronizeStream(s.stream);
    ck_assert_msg(rc == ACL_SUCCESS, "%s", aclGetRecentErrMsg());
    ck_assert_int_ge(g_copy_a1_calls, 2);
    std::vector<float> got((size_t)m * n);
    OK(aclrtMemcpy(got.data(), s.cb, s.c, s.cb, ACL_MEMCPY_DEVICE_TO_HOST));
    size_t bad = 0;
    for (int32_t i = 0; i < m; i++)
        for (int32_t j = 0; j < n; j++) {
            const float want = s.dot(n, k, i, j, 0, k);
            bad += !(std::fabs(got[(size_t)i * n + j] - want) <= 1e-4 + 1e-5 * std::fabs(want));
        }
    ck_assert_uint_eq(bad, 0);
}
END_TEST

START_TEST(test_ascendc_mm_mix_iterate_all)
{
    run_mix<ALL>(128, 128, 96);
}
END_TEST

START_TEST(test_ascendc_mm_mix_iterate_all_async)
{
    run_mix<ALL_ASYNC>(96, 80, 64);
}
END_TEST

START_TEST(test_ascendc_mm_mix_tiles_gm)
{
    run_mix<TILES_GM>(160, 128, 64);
}
END_TEST

START_TEST(test_ascendc_mm_mix_tiles_ub)
{
    run_mix<TILES_UB>(128, 192, 64);
}
END_TEST

START_TEST(test_ascendc_mm_ub_out_needs_mix)
{
    up();
    aclrtStream stream;
    OK(aclrtCreateStream(&stream));
    void *a;
    OK(aclrtMalloc(&a, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    TCubeTiling t{};
    t.M = t.N = t.Ka = t.Kb = t.singleCoreM = t.singleCoreN = t.singleCoreK = 64;
    t.baseM = t.baseN = t.baseK = 64;
    t.stepM = t.stepN = t.stepKa = t.stepKb = 1;
    t.depthA1 = t.depthB1 = 1;
    t.dbL0A = t.dbL0B = t.dbL0C = 1;
    ck_assert_uint_eq(::dvac::launch(bad_ub_out, "bad", 1, nullptr, stream)(a, a, a, t), 0);
    ck_assert_int_ne(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const char *m = aclGetRecentErrMsg();
    ck_assert_msg(m && std::strstr(m, "check_ascendc_mm.cpp:") && std::strstr(m, "Matmul::GetTensorC:") &&
                      std::strstr(m, "mix kernel"),
                  "message '%s'", m ? m : "(null)");
    OK(aclrtFree(a));
    down();
}
END_TEST

extern "C" Suite *dv_ascendc_mm_suite(void)
{
    Suite *s = suite_create("ascendc_mm");
    TCase *tc = tcase_create("mix");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_ascendc_mm_mix_iterate_all);
    tcase_add_test(tc, test_ascendc_mm_mix_iterate_all_async);
    tcase_add_test(tc, test_ascendc_mm_mix_tiles_gm);
    tcase_add_test(tc, test_ascendc_mm_mix_tiles_ub);
    tcase_add_test(tc, test_ascendc_mm_ub_out_needs_mix);
    tcase_add_test(tc, test_ascendc_mm_partial_output);
    tcase_add_test(tc, test_ascendc_mm_callback_copy_a1);
    tcase_add_test(tc, test_ascendc_mm_gm_u64_scalar);
    suite_add_tcase(s, tc);
    return s;
}
