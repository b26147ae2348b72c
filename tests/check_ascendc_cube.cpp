/* tests/check_ascendc_cube.cpp - the cube family of dvsim's Ascend C (include/ascendc/dvac/cube.h)
 * and the Matmul high-level API with its host tiling (lib/matmul_intf.h, tiling/tiling_api.h):
 * kernels launched as dvcc launches them (::dvac::launch) and checked against a plain C++ matmul, the
 * instructions each API emits, and the located errors of misuse. */
#include <iostream> /* before check.h, whose fail macro breaks <ios> (tiling/tiling_api.h includes it) */

#include <check.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "ascendc/kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "ascendc/lib/matmul_intf.h"
#include "ascendc/tiling/tiling_api.h"
#include "support/aclt.h"

namespace {

using namespace AscendC;

/* ---------------------------------------------------------------- host side */

/* A deterministic value in [-1, 1) for element i of stream `seed`, exact in half. */
float value(uint32_t seed, uint64_t i)
{
    uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t)seed * 0xBF58476D1CE4E5B9ull;
    x ^= x >> 31;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 29;
    return (float)((int)(x % 2048) - 1024) / 1024.0f;
}

/* C = A x B (+ bias) in float, A [M, K] (or [K, M] transposed), B [K, N] (or [N, K] transposed). */
std::vector<float> reference(const std::vector<half> &a, const std::vector<half> &b, uint32_t M, uint32_t N,
                             uint32_t K, bool ta = false, bool tb = false, const float *bias = nullptr)
{
    std::vector<float> c((size_t)M * N);
    for (uint32_t i = 0; i < M; i++)
        for (uint32_t j = 0; j < N; j++) {
            float acc = bias ? bias[j] : 0.0f;
            for (uint32_t k = 0; k < K; k++)
                acc += (float)a[ta ? (size_t)k * M + i : (size_t)i * K + k] *
                       (float)b[tb ? (size_t)j * K + k : (size_t)k * N + j];
            c[(size_t)i * N + j] = acc;
        }
    return c;
}

/* Elements of `got` that differ from `want` by more than atol + rtol * |want|. */
template <typename T>
size_t mismatches(const std::vector<T> &got, const std::vector<float> &want, double atol, double rtol)
{
    size_t bad = 0;
    for (size_t i = 0; i < want.size(); i++) {
        double g = (double)(float)got[i], w = want[i];
        if (!(std::fabs(g - w) <= atol + rtol * std::fabs(w)))
            bad++;
    }
    return bad;
}

/* Device buffers for A, B and C of one matmul, with the inputs filled. */
struct mm_session {
    aclrtStream stream = nullptr;
    void *a = nullptr, *b = nullptr, *c = nullptr;
    std::vector<half> ha, hb;
    size_t cbytes;
    mm_session(size_t na, size_t nb, size_t cbytes_) : ha(na), hb(nb), cbytes(cbytes_)
    {
        up();
        OK(aclrtCreateStream(&stream));
        for (size_t i = 0; i < na; i++)
            ha[i] = (half)value(1, i);
        for (size_t i = 0; i < nb; i++)
            hb[i] = (half)value(2, i);
        OK(aclrtMalloc(&a, na * 2, ACL_MEM_MALLOC_HUGE_FIRST));
        OK(aclrtMalloc(&b, nb * 2, ACL_MEM_MALLOC_HUGE_FIRST));
        OK(aclrtMalloc(&c, cbytes, ACL_MEM_MALLOC_HUGE_FIRST));
        OK(aclrtMemcpy(a, na * 2, ha.data(), na * 2, ACL_MEMCPY_HOST_TO_DEVICE));
        OK(aclrtMemcpy(b, nb * 2, hb.data(), nb * 2, ACL_MEMCPY_HOST_TO_DEVICE));
        std::vector<uint8_t> junk(cbytes, 0x7f); /* C starts as garbage: every element must be written */
        OK(aclrtMemcpy(c, cbytes, junk.data(), cbytes, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    template <typename T> std::vector<T> fetch()
    {
        std::vector<T> out(cbytes / sizeof(T));
        OK(aclrtMemcpy(out.data(), cbytes, c, cbytes, ACL_MEMCPY_DEVICE_TO_HOST));
        return out;
    }
    ~mm_session() { down(); }
};

/* ---------------------------------------------------------------- basic API */

constexpr uint32_t BM = 64, BN = 64, BK = 64;

/* One 64 x 64 x 64 tile through the queues: GM -> A1/B1 (ND -> NZ), L1 -> A2 (ZZ) / B2 (ZN, transposed
 * fractals), Mmad into CO1, Fixpipe to GM as ND float. */
__global__ __cube__ void mm_basic(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    TPipe pipe;
    TQue<TPosition::A1, 1> qa1;
    TQue<TPosition::B1, 1> qb1;
    TQue<TPosition::A2, 1> qa2;
    TQue<TPosition::B2, 1> qb2;
    TQue<TPosition::CO1, 1> qc;
    pipe.InitBuffer(qa1, 1, BM * BK * sizeof(half));
    pipe.InitBuffer(qb1, 1, BK * BN * sizeof(half));
    pipe.InitBuffer(qa2, 1, BM * BK * sizeof(half));
    pipe.InitBuffer(qb2, 1, BK * BN * sizeof(half));
    pipe.InitBuffer(qc, 1, BM * BN * sizeof(float));
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half *)a, BM * BK);
    bg.SetGlobalBuffer((__gm__ half *)b, BK * BN);
    cg.SetGlobalBuffer((__gm__ float *)c, BM * BN);

    LocalTensor<half> a1 = qa1.AllocTensor<half>(), b1 = qb1.AllocTensor<half>();
    DataCopy(a1, ag, Nd2NzParams(1, BM, BK, 0, BK, BM, 1, 0));
    DataCopy(b1, bg, Nd2NzParams(1, BK, BN, 0, BN, BK, 1, 0));
    qa1.EnQue(a1);
    qb1.EnQue(b1);

    a1 = qa1.DeQue<half>();
    b1 = qb1.DeQue<half>();
    LocalTensor<half> a2 = qa2.AllocTensor<half>(), b2 = qb2.AllocTensor<half>();
    for (uint32_t i = 0; i < BM / 16; i++) /* row block i of A: its K/16 fractals, BM/16 apart in NZ */
        LoadData(a2[i * BK * 16], a1[i * 256], LoadData2DParams(0, BK / 16, BM / 16, 0, 0, false, 0));
    for (uint32_t i = 0; i < BK / 16; i++) /* K block i of B: its N/16 fractals, transposed */
        LoadData(b2[i * BN * 16], b1[i * 256], LoadData2DParams(0, BN / 16, BK / 16, 0, 0, true, 0));
    qa2.EnQue(a2);
    qb2.EnQue(b2);
    qa1.FreeTensor(a1);
    qb1.FreeTensor(b1);

    a2 = qa2.DeQue<half>();
    b2 = qb2.DeQue<half>();
    LocalTensor<float> co = qc.AllocTensor<float>();
    Mmad(co, a2, b2, MmadParams(BM, BN, BK, 0, false, true));
    qc.EnQue(co);
    qa2.FreeTensor(a2);
    qb2.FreeTensor(b2);

    co = qc.DeQue<float>();
    Fixpipe(cg, co, FixpipeParamsV220(BN, BM, BM, BN, false));
    qc.FreeTensor(co);
}

} // namespace

START_TEST(test_ascendc_cube_basic_64)
{
    mm_session s(BM * BK, BK * BN, BM * BN * 4);
    ck_assert_uint_eq(::dvac::launch(mm_basic, "mm_basic", 1, nullptr, s.stream)(s.a, s.b, s.c), 0);
    OK(aclrtSynchronizeStream(s.stream));
    std::vector<float> got = s.fetch<float>(), want = reference(s.ha, s.hb, BM, BN, BK);
    ck_assert_uint_eq(mismatches(got, want, 1e-5, 1e-5), 0);
}
END_TEST

namespace {

/* The 64 x 64 x 64 tile with both L0 operands from LoadData 3Dv2 (img2col of a 1 x W feature map is the
 * NZ matrix itself): A [M, K] (or, with ta, [K, M]: enTranspose) into A2, B [K, N] into B2 (always
 * transposed: ZN), as asc-devkit's matmul_basic_api_high_performance loads them. */
template <bool ta> __global__ __cube__ void mm_load3d(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    TPipe pipe;
    TBuf<TPosition::A1> a1b;
    TBuf<TPosition::B1> b1b;
    TBuf<TPosition::A2> a2b;
    TBuf<TPosition::B2> b2b;
    TBuf<TPosition::CO1> cob;
    pipe.InitBuffer(a1b, BM * BK * sizeof(half));
    pipe.InitBuffer(b1b, BK * BN * sizeof(half));
    pipe.InitBuffer(a2b, BM * BK * sizeof(half));
    pipe.InitBuffer(b2b, BK * BN * sizeof(half));
    pipe.InitBuffer(cob, BM * BN * sizeof(float));
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half *)a, BM * BK);
    bg.SetGlobalBuffer((__gm__ half *)b, BK * BN);
    cg.SetGlobalBuffer((__gm__ float *)c, BM * BN);
    LocalTensor<half> a1 = a1b.Get<half>(), b1 = b1b.Get<half>(), a2 = a2b.Get<half>(), b2 = b2b.Get<half>();
    LocalTensor<float> co = cob.Get<float>();
    if (ta) /* A^T [K, M]: K rows of M */
        DataCopy(a1, ag, Nd2NzParams(1, BK, BM, 0, BM, BK, 1, 0));
    else
        DataCopy(a1, ag, Nd2NzParams(1, BM, BK, 0, BK, BM, 1, 0));
    DataCopy(b1, bg, Nd2NzParams(1, BK, BN, 0, BN, BK, 1, 0));
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    LoadData3DParamsV2<half> pa;
    pa.l1H = 1;
    pa.l1W = ta ? BK : BM;
    pa.channelSize = ta ? BM : BK;
    pa.kExtension = ta ? BM : BK;
    pa.mExtension = ta ? BK : BM;
    pa.enTranspose = ta;
    LoadData(a2, a1, pa);
    LoadData3DParamsV2<half> pb;
    pb.l1H = 1;
    pb.l1W = BK;
    pb.channelSize = BN;
    pb.kExtension = BN;
    pb.mExtension = BK;
    LoadData(b2, b1, pb);
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    Mmad(co, a2, b2, MmadParams(BM, BN, BK, 0, false, true));
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    Fixpipe(cg, co, FixpipeParamsV220(BN, BM, BM, BN, false));
}

/* GEMV: C[1, 32] = A[1, 256] x B[256, 32]; A goes to L1 as one contiguous vector (C0 blocks 1 apart) and
 * to L0A as one fractal of 256 values; Mmad with m = 1 reads it as a vector (CANN's GEMV page). */
constexpr uint32_t GK = 256, GN = 32;
__global__ __cube__ void mm_gemv(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    TPipe pipe;
    TBuf<TPosition::A1> a1b;
    TBuf<TPosition::B1> b1b;
    TBuf<TPosition::A2> a2b;
    TBuf<TPosition::B2> b2b;
    TBuf<TPosition::CO1> cob;
    pipe.InitBuffer(a1b, GK * sizeof(half));
    pipe.InitBuffer(b1b, GK * GN * sizeof(half));
    pipe.InitBuffer(a2b, GK * sizeof(half));
    pipe.InitBuffer(b2b, GK * GN * sizeof(half));
    pipe.InitBuffer(cob, 16 * GN * sizeof(float));
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half *)a, GK);
    bg.SetGlobalBuffer((__gm__ half *)b, GK * GN);
    cg.SetGlobalBuffer((__gm__ float *)c, GN);
    LocalTensor<half> a1 = a1b.Get<half>(), b1 = b1b.Get<half>(), a2 = a2b.Get<half>(), b2 = b2b.Get<half>();
    LocalTensor<float> co = cob.Get<float>();
    DataCopy(a1, ag, Nd2NzParams(1, 1, GK, 0, GK, 1, 1, 0));
    DataCopy(b1, bg, Nd2NzParams(1, GK, GN, 0, GN, GK, 1, 0));
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    LoadData(a2, a1, LoadData2DParams(0, GK / 256, 1, 0, 0, false, 0));
    for (uint32_t i = 0; i < GK / 16; i++)
        LoadData(b2[i * GN * 16], b1[i * 256], LoadData2DParams(0, GN / 16, GK / 16, 0, 0, true, 0));
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    Mmad(co, a2, b2, MmadParams(1, GN, GK, 0, false, true));
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    Fixpipe(cg, co, FixpipeParamsV220(GN, 1, 16, GN, false));
}

/* GM -> L1 -> GM: DataCopy into A1 and back out on the AIC's MTE3 (copy_cbuf_to_gm). */
__global__ __cube__ void l1_round_trip(GM_ADDR a, GM_ADDR, GM_ADDR c)
{
    TPipe pipe;
    TBuf<TPosition::A1> a1b;
    pipe.InitBuffer(a1b, 1024 * sizeof(half));
    GlobalTensor<half> ag, cg;
    ag.SetGlobalBuffer((__gm__ half *)a, 1024);
    cg.SetGlobalBuffer((__gm__ half *)c, 1024);
    LocalTensor<half> a1 = a1b.Get<half>();
    DataCopy(a1, ag, 1024);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(cg, a1, DataCopyParams(2, 16, 16, 16)); /* every other 512 bytes, to every other 512 bytes */
}

} // namespace

namespace {

/* Fill (InitConstValue) of L0A and L0B: A (32 x 32 half, ZZ fractals 0..3) all 0, then fractals 0 and 2
 * (repeat 2, one block, gap 1: the first K block of both row blocks) 1; B all 2: every C is 16 x 1 x 2. */
__global__ __cube__ void mm_fill(GM_ADDR, GM_ADDR, GM_ADDR c)
{
    TPipe pipe;
    TBuf<TPosition::A2> a2b;
    TBuf<TPosition::B2> b2b;
    TBuf<TPosition::CO1> cob;
    pipe.InitBuffer(a2b, 32 * 32 * sizeof(half));
    pipe.InitBuffer(b2b, 32 * 32 * sizeof(half));
    pipe.InitBuffer(cob, 32 * 32 * sizeof(float));
    GlobalTensor<float> cg;
    cg.SetGlobalBuffer((__gm__ float *)c, 32 * 32);
    LocalTensor<half> a2 = a2b.Get<half>(), b2 = b2b.Get<half>();
    LocalTensor<float> co = cob.Get<float>();
    Fill(a2, InitConstValueParams<half>(1, 4, 0, (half)0.0f));
    Fill(a2, InitConstValueParams<half>(2, 1, 1, (half)1.0f));
    Fill(b2, {1, 4, 0, (half)2.0f});
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    Mmad(co, a2, b2, MmadParams(32, 32, 32, 0, false, true));
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    Fixpipe(cg, co, FixpipeParamsV220(32, 32, 32, 32, false));
}

} // namespace

START_TEST(test_ascendc_cube_fill)
{
    mm_session s(16, 16, 32 * 32 * 4);
    ck_assert_uint_eq(::dvac::launch(mm_fill, "mm_fill", 1, nullptr, s.stream)(s.a, s.b, s.c), 0);
    OK(aclrtSynchronizeStream(s.stream));
    std::vector<float> got = s.fetch<float>(), want(32 * 32, 32.0f);
    ck_assert_uint_eq(mismatches(got, want, 0, 0), 0);
}
END_TEST

START_TEST(test_ascendc_cube_load3d)
{
    for (int ta = 0; ta < 2; ta++) {
        mm_session s(BM * BK, BK * BN, BM * BN * 4);
        ck_assert_uint_eq(::dvac::launch(ta ? mm_load3d<true> : mm_load3d<false>, "mm_load3d", 1, nullptr,
                                         s.stream)(s.a, s.b, s.c), 0);
        OK(aclrtSynchronizeStream(s.stream));
        std::vector<float> got = s.fetch<float>(), want = reference(s.ha, s.hb, BM, BN, BK, ta != 0);
        ck_assert_msg(mismatches(got, want, 1e-5, 1e-5) == 0, "transposed A: %d", ta);
    }
}
END_TEST

START_TEST(test_ascendc_cube_gemv)
{
    mm_session s(GK, GK * GN, GN * 4);
    ck_assert_uint_eq(::dvac::launch(mm_gemv, "mm_gemv", 1, nullptr, s.stream)(s.a, s.b, s.c), 0);
    OK(aclrtSynchronizeStream(s.stream));
    std::vector<float> got = s.fetch<float>(), want = reference(s.ha, s.hb, 1, GN, GK);
    ck_assert_uint_eq(mismatches(got, want, 1e-5, 1e-5), 0);
}
END_TEST

START_TEST(test_ascendc_cube_l1_to_gm)
{
    mm_session s(1024, 16, 1024 * 2);
    ck_assert_uint_eq(::dvac::launch(l1_round_trip, "l1_round_trip", 1, nullptr, s.stream)(s.a, s.b, s.c), 0);
    OK(aclrtSynchronizeStream(s.stream));
    std::vector<half> got = s.fetch<half>();
    for (size_t i = 0; i < 1024; i++) { /* elements 0..255 and 512..767 copied; the rest keep C's 0x7f7f */
        const bool copied = (i / 256) % 2 == 0;
        uint16_t g, w = 0x7f7f;
        std::memcpy(&g, &got[i], 2);
        if (copied)
            std::memcpy(&w, &s.ha[i], 2);
        ck_assert_msg(g == w, "element %zu: 0x%04x, want 0x%04x", i, g, w);
    }
}
END_TEST

namespace {

/* D = half(A x B) x B through L1: the first product leaves L0C for L1 as NZ half (Fixpipe CFG_NZ,
 * F322F16) and is loaded back into L0A as the left matrix of the second; the M -> FIX order of both
 * products is the unit flags' (unitFlag 3 on Mmad and Fixpipe, no SetFlag / WaitFlag). */
__global__ __cube__ void mm_chain(GM_ADDR a, GM_ADDR b, GM_ADDR d)
{
    TPipe pipe;
    TBuf<TPosition::A1> a1b, c1b;
    TBuf<TPosition::B1> b1b;
    TBuf<TPosition::A2> a2b;
    TBuf<TPosition::B2> b2b;
    TBuf<TPosition::CO1> cob;
    pipe.InitBuffer(a1b, BM * BK * sizeof(half));
    pipe.InitBuffer(c1b, BM * BN * sizeof(half));
    pipe.InitBuffer(b1b, BK * BN * sizeof(half));
    pipe.InitBuffer(a2b, BM * BK * sizeof(half));
    pipe.InitBuffer(b2b, BK * BN * sizeof(half));
    pipe.InitBuffer(cob, BM * BN * sizeof(float));
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> dg;
    ag.SetGlobalBuffer((__gm__ half *)a, BM * BK);
    bg.SetGlobalBuffer((__gm__ half *)b, BK * BN);
    dg.SetGlobalBuffer((__gm__ float *)d, BM * BN);
    LocalTensor<half> a1 = a1b.Get<half>(), c1 = c1b.Get<half>(), b1 = b1b.Get<half>();
    LocalTensor<half> a2 = a2b.Get<half>(), b2 = b2b.Get<half>();
    LocalTensor<float> co = cob.Get<float>();

    DataCopy(a1, ag, Nd2NzParams(1, BM, BK, 0, BK, BM, 1, 0));
    DataCopy(b1, bg, Nd2NzParams(1, BK, BN, 0, BN, BK, 1, 0));
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    for (uint32_t i = 0; i < BM / 16; i++)
        LoadData(a2[i * BK * 16], a1[i * 256], LoadData2DParams(0, BK / 16, BM / 16, 0, 0, false, 0));
    for (uint32_t i = 0; i < BK / 16; i++)
        LoadData(b2[i * BN * 16], b1[i * 256], LoadData2DParams(0, BN / 16, BK / 16, 0, 0, true, 0));
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    Mmad(co, a2, b2, MmadParams(BM, BN, BK, 3, false, true));
    /* C -> L1 as NZ half: 16-column blocks of BM rows, BM x 32 bytes apart */
    Fixpipe<half, float, CFG_NZ>(c1, co, FixpipeParamsV220(BN, BM, BM, BM * 16 * sizeof(half) / 32, false, F322F16,
                                                           0, 1, 0, 0, 3));
    SetFlag<HardEvent::FIX_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::FIX_MTE1>(EVENT_ID0);
    SetFlag<HardEvent::M_MTE1>(EVENT_ID3); /* the first Mmad is done with L0A (ids 0-2: the TPipe's) */
    WaitFlag<HardEvent::M_MTE1>(EVENT_ID3);
    for (uint32_t i = 0; i < BM / 16; i++) /* C (BM x BN, NZ in L1) as the next left matrix, K = BN */
        LoadData(a2[i * BN * 16], c1[i * 256], LoadData2DParams(0, BN / 16, BM / 16, 0, 0, false, 0));
    SetFlag<HardEvent::MTE1_M>(EVENT_ID1);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID1);
    Mmad(co, a2, b2, MmadParams(BM, BN, BN, 3, false, true));
    Fixpipe(dg, co, FixpipeParamsV220(BN, BM, BM, BN, false, NoQuant, 0, 1, 0, 0, 3));
}

} // namespace

START_TEST(test_ascendc_cube_l1_chain_unit_flag)
{
    static_assert(BK == BN, "the chain reuses B");
    mm_session s(BM * BK, BK * BN, BM * BN * 4);
    ck_assert_uint_eq(::dvac::launch(mm_chain, "mm_chain", 1, nullptr, s.stream)(s.a, s.b, s.c), 0);
    int rc = aclrtSynchronizeStream(s.stream);
    ck_assert_msg(rc == ACL_SUCCESS, "%s", aclGetRecentErrMsg());
    std::vector<float> c = reference(s.ha, s.hb, BM, BN, BK);
    std::vector<half> ch(c.size());
    for (size_t i = 0; i < c.size(); i++)
        ch[i] = (half)c[i];
    std::vector<float> got = s.fetch<float>(), want = reference(ch, s.hb, BM, BN, BN);
    ck_assert_uint_eq(mismatches(got, want, 1e-5, 1e-5), 0);
}
END_TEST

/* ---------------------------------------------------------------- Matmul API */

namespace {

/* The host tiling on the 910B2 profile (the platform made from the preset, as GetInstance would). */
struct host_tiling {
    dv_config_t cfg;
    platform_ascendc::PlatformAscendC *plat = nullptr;
    host_tiling()
    {
        ck_assert_int_eq(dv_config_preset(&cfg, "ascend910b2", NULL), 0);
        plat = new platform_ascendc::PlatformAscendC(cfg);
    }
    ~host_tiling() { delete plat; }
    /* A half x half -> C tiling of m x n x k on `dim` cores; -1 when GetTiling refuses. */
    int64_t get(TCubeTiling &t, int32_t m, int32_t n, int32_t k, int32_t dim,
                matmul_tiling::DataType c = matmul_tiling::DataType::DT_FLOAT, bool ta = false, bool tb = false,
                matmul_tiling::DataType in = matmul_tiling::DataType::DT_FLOAT16, bool bias = false)
    {
        namespace mt = matmul_tiling;
        mt::MultiCoreMatmulTiling api(*plat);
        api.SetDim(dim);
        api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, in, ta);
        api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, in, tb);
        api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, c);
        api.SetOrgShape(m, n, k);
        api.SetShape(m, n, k);
        api.SetBiasType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
        api.EnableBias(bias);
        api.SetBufferSpace(-1, -1, -1);
        return api.GetTiling(t);
    }
};

/* C = A x B with the Matmul API, each block on its singleCoreM x singleCoreN part (block b: part
 * (b % mDim, b / mDim)), IterateAll or Iterate + GetTensorC. */
template <typename IN, typename OUT, bool TA, bool TB, bool ITERATE, uint8_t ATOMIC = 0, bool BIAS = false>
__global__ __cube__ void mm_api(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR bias, TCubeTiling tiling)
{
    TPipe pipe;
    GlobalTensor<IN> ag, bg;
    GlobalTensor<OUT> cg;
    ag.SetGlobalBuffer((__gm__ IN *)a, tiling.M * tiling.Ka);
    bg.SetGlobalBuffer((__gm__ IN *)b, tiling.Kb * tiling.N);
    cg.SetGlobalBuffer((__gm__ OUT *)c, tiling.M * tiling.N);
    matmul::Matmul<matmul::MatmulType<TPosition::GM, CubeFormat::ND, IN, TA>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, IN, TB>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, OUT>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    SetSysWorkspace(workspace);
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    const int32_t mDim = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    const int32_t mi = (int32_t)GetBlockIdx() % mDim, ni = (int32_t)GetBlockIdx() / mDim;
    const int32_t m0 = mi * tiling.singleCoreM, n0 = ni * tiling.singleCoreN;
    mm.SetOrgShape(tiling.M, tiling.N, tiling.Ka, tiling.Kb);
    const int32_t tm = tiling.M - m0 < tiling.singleCoreM ? tiling.M - m0 : tiling.singleCoreM;
    const int32_t tn = tiling.N - n0 < tiling.singleCoreN ? tiling.N - n0 : tiling.singleCoreN;
    if (tm < tiling.singleCoreM || tn < tiling.singleCoreN)
        mm.SetTail(tm, tn);
    mm.SetTensorA(ag[TA ? m0 : (uint64_t)m0 * tiling.Ka], TA);
    mm.SetTensorB(bg[TB ? (uint64_t)n0 * tiling.Kb : n0], TB);
    if (BIAS) {
        GlobalTensor<float> biasg;
        biasg.SetGlobalBuffer((__gm__ float *)bias, tiling.N);
        mm.SetBias(biasg[n0]);
    }
    if (ITERATE)
        while (mm.template Iterate<true>())
            mm.GetTensorC(cg[(uint64_t)m0 * tiling.N + n0], ATOMIC);
    else
        mm.IterateAll(cg[(uint64_t)m0 * tiling.N + n0], ATOMIC);
    mm.End();
}

/* Run mm_api on m x n x k (half in) and compare with the reference (plus C's first contents when
 * the output is added atomically). */
template <typename OUT, bool TA, bool TB, bool ITERATE, uint8_t ATOMIC = 0, bool BIAS = false>
void run_api(int32_t m, int32_t n, int32_t k, int32_t dim, TCubeTiling *seen = nullptr,
             void (*edit)(TCubeTiling &) = nullptr, bool bias_tiling = BIAS, const char *want_error = nullptr)
{
    host_tiling h;
    TCubeTiling t;
    const auto ct = std::is_same<OUT, half>::value ? matmul_tiling::DataType::DT_FLOAT16
                                                   : matmul_tiling::DataType::DT_FLOAT;
    ck_assert_int_eq(h.get(t, m, n, k, dim, ct, TA, TB, matmul_tiling::DataType::DT_FLOAT16, bias_tiling), 0);
    if (edit)
        edit(t);
    if (seen)
        *seen = t;
    mm_session s((size_t)m * k, (size_t)k * n, (size_t)m * n * sizeof(OUT));
    void *ws;
    OK(aclrtMalloc(&ws, h.plat->GetLibApiWorkSpaceSize(), ACL_MEM_MALLOC_HUGE_FIRST));
    std::vector<OUT> c0((size_t)m * n);
    for (size_t i = 0; ATOMIC && i < c0.size(); i++)
        c0[i] = (OUT)(4.0f * value(3, i));
    if (ATOMIC)
        OK(aclrtMemcpy(s.c, s.cbytes, c0.data(), s.cbytes, ACL_MEMCPY_HOST_TO_DEVICE));
    std::vector<float> hbias(n);
    for (int32_t j = 0; j < n; j++)
        hbias[j] = 8.0f * value(4, j);
    void *bias;
    OK(aclrtMalloc(&bias, n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemcpy(bias, n * 4, hbias.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    const int launched = (int)::dvac::launch(mm_api<half, OUT, TA, TB, ITERATE, ATOMIC, BIAS>, "mm_api",
                                             t.usedCoreNum, nullptr, s.stream)(s.a, s.b, s.c, ws, bias, t);
    ck_assert_int_eq(launched != 0, want_error && launched != 0); /* only an expected error may stop the launch */
    int rc = launched ? launched : aclrtSynchronizeStream(s.stream);
    if (want_error) {
        ck_assert_int_ne(rc, ACL_SUCCESS);
        ck_assert_msg(strstr(aclGetRecentErrMsg(), want_error), "%s", aclGetRecentErrMsg());
        OK(aclrtFree(ws));
        OK(aclrtFree(bias));
        return;
    }
    ck_assert_msg(rc == ACL_SUCCESS, "%s", aclGetRecentErrMsg());
    std::vector<OUT> got = s.template fetch<OUT>();
    std::vector<float> want = reference(s.ha, s.hb, m, n, k, TA, TB, BIAS ? hbias.data() : nullptr);
    for (size_t i = 0; ATOMIC && i < want.size(); i++)
        want[i] += (float)c0[i];
    const double tol = std::is_same<OUT, half>::value ? 1e-3 : 1e-5;
    ck_assert_uint_eq(mismatches(got, want, tol, tol), 0);
    OK(aclrtFree(ws));
    OK(aclrtFree(bias));
}

} // namespace

/* The matmul_advanced_api shape: 512 x 512 x 128 on 2 cores, split along M. */
START_TEST(test_ascendc_cube_matmul_api_512)
{
    TCubeTiling t;
    run_api<float, false, false, false>(512, 512, 128, 2, &t);
    ck_assert_int_eq(t.usedCoreNum, 2);
    ck_assert_int_eq(t.singleCoreM, 256);
    ck_assert_int_eq(t.singleCoreN, 512);
    ck_assert_int_eq(t.baseM, 128);
    ck_assert_int_eq(t.baseN, 256);
    ck_assert_int_eq(t.baseK, 64);
}
END_TEST

/* Tails on every side, half out, Iterate + GetTensorC, transposed operands. */
START_TEST(test_ascendc_cube_matmul_api_tails)
{
    run_api<half, false, false, true>(200, 300, 100, 4);
    run_api<float, true, false, false>(96, 80, 72, 3);
    run_api<float, false, true, true>(130, 70, 260, 2);
    run_api<half, true, true, false>(48, 500, 40, 5);
    run_api<float, false, false, false>(129, 64, 48, 1); /* a one-row tile */
    run_api<float, true, false, false>(1, 80, 96, 2);
}
END_TEST

namespace {

/* One core, IterateAll from C's first element, C in format CF (NZ: 16-column blocks of up16(M) rows). */
template <CubeFormat CF> __global__ __cube__ void mm_one_core(GM_ADDR a, GM_ADDR b, GM_ADDR c, TCubeTiling tiling)
{
    TPipe pipe;
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half *)a);
    bg.SetGlobalBuffer((__gm__ half *)b);
    cg.SetGlobalBuffer((__gm__ float *)c);
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CF, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg);
    mm.IterateAll(cg);
    mm.End();
}

} // namespace

START_TEST(test_ascendc_cube_matmul_api_nz_out)
{
    const int32_t m = 40, n = 72, k = 48, mal = 48, nal = 80;
    host_tiling h;
    TCubeTiling t;
    ck_assert_int_eq(h.get(t, m, n, k, 1), 0);
    t.baseM = t.baseN = 32; /* several tiles in each direction */
    mm_session s((size_t)m * k, (size_t)k * n, (size_t)mal * nal * 4);
    ck_assert_uint_eq(
        ::dvac::launch(mm_one_core<CubeFormat::NZ>, "mm_one_core", 1, nullptr, s.stream)(s.a, s.b, s.c, t), 0);
    int rc = aclrtSynchronizeStream(s.stream);
    ck_assert_msg(rc == ACL_SUCCESS, "%s", aclGetRecentErrMsg());
    std::vector<float> got = s.fetch<float>(), want = reference(s.ha, s.hb, m, n, k), nz(want.size());
    for (int32_t i = 0; i < m; i++)
        for (int32_t j = 0; j < n; j++)
            nz[(size_t)i * n + j] = got[((size_t)(j / 16) * mal + i) * 16 + j % 16];
    ck_assert_uint_eq(mismatches(nz, want, 1e-5, 1e-5), 0);
}
END_TEST

/* SetBias: each tile's first Mmad starts from its part of the bias row (GM -> C1 -> C2 -> mmad_bias). */
START_TEST(test_ascendc_cube_matmul_api_bias)
{
    run_api<float, false, false, false, 0, true>(128, 2048, 1024, 24); /* asc-devkit's matmul sample shape */
    run_api<half, true, false, true, 0, true>(100, 300, 50, 3);
}
END_TEST

/* enAtomic 1: C += A x B through SetAtomicAdd around the Fixpipe. */
START_TEST(test_ascendc_cube_matmul_api_atomic)
{
    run_api<float, false, false, false, 1>(160, 96, 64, 2);
    run_api<float, false, true, true, 1>(64, 64, 200, 1);
}
END_TEST

/* ---------------------------------------------------------------- a mix kernel */

namespace {

constexpr uint16_t MIX_FLAG = 3;

/* The AIC multiplies one 64 x 64 x 64 tile with SetFlag / WaitFlag between the pipes and writes C to
 * a GM workspace, then signals its AIVs (mode 2); each AIV waits for the flag and takes its half of the
 * rows from the workspace through UB, applying Relu (the vector API) on the way to C. */
__global__ __mix__(1, 2) void mm_mix(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR ws)
{
    TPipe pipe;
    GlobalTensor<float> wg, cg;
    wg.SetGlobalBuffer((__gm__ float *)ws, BM * BN);
    cg.SetGlobalBuffer((__gm__ float *)c, BM * BN);
    if ASCEND_IS_AIC {
        GlobalTensor<half> ag, bg;
        ag.SetGlobalBuffer((__gm__ half *)a, BM * BK);
        bg.SetGlobalBuffer((__gm__ half *)b, BK * BN);
        TBuf<TPosition::A1> a1b;
        TBuf<TPosition::B1> b1b;
        TBuf<TPosition::A2> a2b;
        TBuf<TPosition::B2> b2b;
        TBuf<TPosition::CO1> cob;
        pipe.InitBuffer(a1b, BM * BK * sizeof(half));
        pipe.InitBuffer(b1b, BK * BN * sizeof(half));
        pipe.InitBuffer(a2b, BM * BK * sizeof(half));
        pipe.InitBuffer(b2b, BK * BN * sizeof(half));
        pipe.InitBuffer(cob, BM * BN * sizeof(float));
        LocalTensor<half> a1 = a1b.Get<half>(), b1 = b1b.Get<half>(), a2 = a2b.Get<half>(), b2 = b2b.Get<half>();
        LocalTensor<float> co = cob.Get<float>();
        DataCopy(a1, ag, Nd2NzParams(1, BM, BK, 0, BK, BM, 1, 0));
        DataCopy(b1, bg, Nd2NzParams(1, BK, BN, 0, BN, BK, 1, 0));
        SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
        for (uint32_t i = 0; i < BM / 16; i++)
            LoadData(a2[i * BK * 16], a1[i * 256], LoadData2DParams(0, BK / 16, BM / 16, 0, 0, false, 0));
        for (uint32_t i = 0; i < BK / 16; i++)
            LoadData(b2[i * BN * 16], b1[i * 256], LoadData2DParams(0, BN / 16, BK / 16, 0, 0, true, 0));
        SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
        WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
        Mmad(co, a2, b2, MmadParams(BM, BN, BK, 0, false, true));
        SetFlag<HardEvent::M_FIX>(EVENT_ID0);
        WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
        Fixpipe(wg, co, FixpipeParamsV220(BN, BM, BM, BN, false));
        CrossCoreSetFlag<2, PIPE_FIX>(MIX_FLAG);
    }
    if ASCEND_IS_AIV {
        const uint32_t rows = BM / GetSubBlockNum(), r0 = GetSubBlockIdx() * rows;
        TQue<TPosition::VECIN, 1> qin;
        TQue<TPosition::VECOUT, 1> qout;
        pipe.InitBuffer(qin, 1, rows * BN * sizeof(float));
        pipe.InitBuffer(qout, 1, rows * BN * sizeof(float));
        CrossCoreWaitFlag(MIX_FLAG);
        LocalTensor<float> x = qin.AllocTensor<float>();
        DataCopy(x, wg[r0 * BN], rows * BN);
        qin.EnQue(x);
        x = qin.DeQue<float>();
        LocalTensor<float> y = qout.AllocTensor<float>();
        Relu(y, x, (int32_t)(rows * BN));
        qout.EnQue(y);
        qin.FreeTensor(x);
        y = qout.DeQue<float>();
        DataCopy(cg[r0 * BN], y, rows * BN);
        qout.FreeTensor(y);
    }
}

} // namespace

START_TEST(test_ascendc_cube_mix_relu)
{
    mm_session s(BM * BK, BK * BN, BM * BN * 4);
    void *ws;
    OK(aclrtMalloc(&ws, BM * BN * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ck_assert_uint_eq(::dvac::launch(mm_mix, "mm_mix", 1, nullptr, s.stream)(s.a, s.b, s.c, ws), 0);
    int rc = aclrtSynchronizeStream(s.stream);
    ck_assert_msg(rc == ACL_SUCCESS, "%s", aclGetRecentErrMsg());
    std::vector<float> got = s.fetch<float>(), want = reference(s.ha, s.hb, BM, BN, BK);
    for (float &w : want)
        w = w > 0 ? w : 0.0f;
    ck_assert_uint_eq(mismatches(got, want, 1e-5, 1e-5), 0);
    OK(aclrtFree(ws));
}
END_TEST

/* ---------------------------------------------------------------- what the APIs emit */

namespace {

/* The instruction lines of block 0 of a kernel with GM arguments of the given sizes, from its
 * recorded trace; `kind` from the probe. */
template <class... P>
std::vector<std::string> block0(void (*fn)(P...), std::vector<uint64_t> sizes, dv_kind_t *kind, P... args)
{
    dv_config_t cfg;
    ck_assert_int_eq(dv_config_preset(&cfg, "ascend910b2", NULL), 0);
    dv_kernel_info_t info = {};
    std::snprintf(info.name, sizeof info.name, "k");
    info.blocks = 1;
    std::vector<dv_arg_t> a(sizes.size());
    for (size_t i = 0; i < sizes.size(); i++) {
        std::snprintf(a[i].name, sizeof a[i].name, "x%zu", i);
        a[i].bytes = sizes[i];
    }
    info.nargs = (uint32_t)sizes.size();
    info.args = a.data();
    ::dvac::Launch<P...> l;
    std::memset(static_cast<void *>(&l), 0, sizeof l);
    l.fn = fn;
    ::dvac::fill(l.args, args...);
    bool overflow = false;
    ::dvac::collect(l.args, l.gm, overflow);
    dv_error_t err;
    ck_assert_int_eq(dvk_kernel_probe(&cfg, &info, ::dvac::trampoline<P...>, &l, sizeof l, kind, &err), DV_OK);
    info.kind = *kind;
    dv_kernel_t *k;
    ck_assert_int_eq(dvk_kernel_create(&cfg, &info, ::dvac::trampoline<P...>, &l, sizeof l, &k, &err), DV_OK);
    char path[] = "/tmp/dvsim-cube-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(dvk_kernel_record(k, path, &err), DV_OK);
    dvk_kernel_destroy(k);
    std::vector<std::string> lines;
    FILE *f = std::fopen(path, "r");
    char line[1024];
    bool in_block = false;
    while (f && std::fgets(line, sizeof line, f)) {
        if (!std::strncmp(line, "block", 5) && (line[5] == ' ' || line[5] == '\n'))
            in_block = true;
        else if (in_block)
            lines.emplace_back(line);
    }
    if (f)
        std::fclose(f);
    unlink(path);
    return lines;
}

/* The cube data instructions (and FIX barriers) of block0, runs of one mnemonic counted. */
template <class... P>
std::vector<std::pair<std::string, int>> emitted(void (*fn)(P...), std::vector<uint64_t> sizes, dv_kind_t *kind,
                                                 P... args)
{
    std::vector<std::pair<std::string, int>> n;
    for (const std::string &line : block0(fn, sizes, kind, args...)) {
        char mn[64] = "";
        if (std::sscanf(line.c_str(), "%63s", mn) != 1)
            continue;
        static const char *const data[] = {"copy_gm_to_cbuf_nd2nz", "load_cbuf_to_ca", "load_cbuf_to_cb",
                                           "load_gm_to_ca", "load_gm_to_cb", "mmad", "copy_matrix_cc_to_gm",
                                           "copy_matrix_cc_to_cbuf"};
        bool keep = line.rfind("pipe_barrier pipe=FIX", 0) == 0;
        for (const char *d : data)
            keep = keep || !std::strcmp(mn, d);
        if (!keep)
            continue;
        if (!n.empty() && n.back().first == mn)
            n.back().second++;
        else
            n.emplace_back(mn, 1);
    }
    return n;
}

} // namespace

/* mm_basic emits the instructions of docs/ASCENDC.md's table, in order, and runs on the AIC. */
START_TEST(test_ascendc_cube_emits)
{
    dv_kind_t kind = DV_KIND_MIX;
    GM_ADDR a = (GM_ADDR)0x100000, b = (GM_ADDR)0x200000, c = (GM_ADDR)0x300000;
    auto n = emitted(mm_basic, {BM * BK * 2, BK * BN * 2, BM * BN * 4}, &kind, a, b, c);
    ck_assert_int_eq(kind, DV_KIND_CUBE);
    std::string got;
    for (auto &p : n)
        got += p.first + "x" + std::to_string(p.second) + " ";
    const char *want = "copy_gm_to_cbuf_nd2nzx2 load_cbuf_to_cax4 load_cbuf_to_cbx4 mmadx1 pipe_barrierx1 "
                       "copy_matrix_cc_to_gmx1 ";
    ck_assert_msg(got == want, "emitted %s, want %s", got.c_str(), want);
}
END_TEST


/* C = A x B of 64 x 64 x 256 on one core in four K slices of 64.  With one L1 buffer per input
 * (depthA1 = depthB1 = 1) the Matmul API frees both loads after each
 * slice's L0 loads, as CANN's norm scheduler does after each compute step: on MTE1, each slice's two
 * waits for its loads (W: MTE2 -> MTE1) follow the two frees of the slice before (F: MTE1 -> MTE2), so
 * MTE2 runs the next A and B loads back to back.  Freed when the next load is made, B's free came
 * after the MTE1 wait for the next A load (WWFWFW...): B's load waited for A's data. */
START_TEST(test_ascendc_cube_matmul_api_frees_after_slice)
{
    TCubeTiling t;
    t.usedCoreNum = 1;
    t.M = t.N = t.singleCoreM = t.singleCoreN = 64;
    t.Ka = t.Kb = t.singleCoreK = 256;
    t.baseM = t.baseN = t.baseK = 64;
    t.stepM = t.stepN = t.stepKa = t.stepKb = 1;
    t.depthA1 = t.depthB1 = 1;
    t.dbL0A = t.dbL0B = t.dbL0C = 1;
    dv_kind_t kind = DV_KIND_MIX;
    GM_ADDR a = (GM_ADDR)0x100000, b = (GM_ADDR)0x200000, c = (GM_ADDR)0x300000;
    std::string got;
    const std::vector<uint64_t> sizes = {64 * 256 * 2, 256 * 64 * 2, 64 * 64 * 4};
    for (const std::string &line : block0(mm_one_core<CubeFormat::ND>, sizes, &kind, a, b, c, t))
        if (line.rfind("wait_flag src=MTE2 dst=MTE1 ", 0) == 0)
            got += 'W';
        else if (line.rfind("set_flag src=MTE1 dst=MTE2 ", 0) == 0)
            got += 'F';
    ck_assert_msg(got == "WWFFWWFFWWFFWWFF", "MTE1's load waits (W) and frees (F): %s", got.c_str());
}
END_TEST

/* ---------------------------------------------------------------- misuse, located */

namespace {

/* A valid one-core tiling of a 32 x 32 x 32 half matmul, written by hand. */
TCubeTiling small_tiling()
{
    TCubeTiling t;
    t.usedCoreNum = 1;
    t.M = t.N = t.Ka = t.Kb = t.singleCoreM = t.singleCoreN = t.singleCoreK = 32;
    t.baseM = t.baseN = t.baseK = 32;
    t.stepM = t.stepN = t.stepKa = t.stepKb = 1;
    t.depthA1 = t.depthB1 = 1;
    t.dbL0A = t.dbL0B = t.dbL0C = 1;
    return t;
}

using MmHalf = matmul::Matmul<matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                              matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                              matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>>;

__global__ __cube__ void bad_mmad_small(GM_ADDR, GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::A2> ab;
    TBuf<TPosition::B2> bb;
    TBuf<TPosition::CO1> cb;
    pipe.InitBuffer(ab, 512);
    pipe.InitBuffer(bb, 512);
    pipe.InitBuffer(cb, 1024);
    Mmad(cb.Get<float>(), ab.Get<half>(), bb.Get<half>(), MmadParams(32, 16, 16, 0, false, true)); /* A: 2 fractals */
}

__global__ __cube__ void bad_load3d_channels(GM_ADDR, GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::A1> a1b;
    TBuf<TPosition::A2> a2b;
    pipe.InitBuffer(a1b, 4096);
    pipe.InitBuffer(a2b, 4096);
    LoadData3DParamsV2<half> p;
    p.l1H = 1;
    p.l1W = 16;
    p.channelSize = 20; /* the hardware's 4-channel mode */
    p.kExtension = 16;
    p.mExtension = 16;
    LoadData(a2b.Get<half>(), a1b.Get<half>(), p);
}

__global__ __cube__ void bad_load2d_v2(GM_ADDR, GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::A1> a1b;
    TBuf<TPosition::A2> a2b;
    pipe.InitBuffer(a1b, 512);
    pipe.InitBuffer(a2b, 512);
    LoadData(a2b.Get<half>(), a1b.Get<half>(), LoadData2DParamsV2());
}

__global__ __cube__ void bad_mmad_bias_table(GM_ADDR, GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::A2> ab;
    TBuf<TPosition::B2> bb;
    TBuf<TPosition::CO1> cb;
    pipe.InitBuffer(ab, 512);
    pipe.InitBuffer(bb, 512);
    pipe.InitBuffer(cb, 1024);
    Mmad(cb.Get<float>(), ab.Get<half>(), bb.Get<half>(), MmadParams(16, 16, 16, 0, true, false));
}

__global__ __cube__ void bad_load_to_ub(GM_ADDR, GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    TBuf<TPosition::A1> l1;
    pipe.InitBuffer(ub, 512);
    pipe.InitBuffer(l1, 512);
    LoadData(ub.Get<half>(), l1.Get<half>(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
}

__global__ __cube__ void bad_nd2nz_to_l0a(GM_ADDR a, GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::A2> ab;
    pipe.InitBuffer(ab, 512);
    GlobalTensor<half> ag;
    ag.SetGlobalBuffer((__gm__ half *)a);
    DataCopy(ab.Get<half>(), ag, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
}

__global__ __cube__ void bad_fixpipe_quant(GM_ADDR, GM_ADDR, GM_ADDR c)
{
    TPipe pipe;
    TBuf<TPosition::CO1> cb;
    pipe.InitBuffer(cb, 1024);
    GlobalTensor<half> cg;
    cg.SetGlobalBuffer((__gm__ half *)c);
    Fixpipe(cg, cb.Get<float>(), FixpipeParamsV220(16, 16, 16, 16, false)); /* half out needs F322F16 */
}

__global__ __cube__ void bad_fixpipe_nd_to_l1(GM_ADDR, GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TBuf<TPosition::CO1> cb;
    TBuf<TPosition::A1> l1;
    pipe.InitBuffer(cb, 1024);
    pipe.InitBuffer(l1, 512);
    Fixpipe(l1.Get<half>(), cb.Get<float>(), FixpipeParamsV220(16, 16, 16, 1, false, F322F16, 0, 1, 0, 0, 0));
}

__global__ __cube__ void bad_tiling_base(GM_ADDR, GM_ADDR, GM_ADDR)
{
    TPipe pipe;
    TCubeTiling t = small_tiling();
    t.baseM = 100;
    MmHalf mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
}

__global__ __cube__ void bad_bias(GM_ADDR, GM_ADDR, GM_ADDR c)
{
    TPipe pipe;
    TCubeTiling t = small_tiling();
    MmHalf mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<float> bias;
    bias.SetGlobalBuffer((__gm__ float *)c);
    mm.SetBias(bias);
}

__global__ __cube__ void bad_get_without_iterate(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    TPipe pipe;
    TCubeTiling t = small_tiling();
    MmHalf mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half *)a);
    bg.SetGlobalBuffer((__gm__ half *)b);
    cg.SetGlobalBuffer((__gm__ float *)c);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg);
    mm.GetTensorC(cg);
}

/* Launch `fn` on one block; the synchronisation fails and the message holds this file, `api` and `what`. */
void cube_fails(void (*fn)(GM_ADDR, GM_ADDR, GM_ADDR), const char *api, const char *what)
{
    mm_session s(1024, 1024, 4096);
    ck_assert_uint_eq(::dvac::launch(fn, "bad", 1, nullptr, s.stream)(s.a, s.b, s.c), 0);
    int rc = aclrtSynchronizeStream(s.stream);
    const char *m = aclGetRecentErrMsg();
    ck_assert_msg(rc != ACL_SUCCESS, "the kernel ran (%s)", api);
    ck_assert_msg(m && std::strstr(m, "check_ascendc_cube.cpp:") && std::strstr(m, api) && std::strstr(m, what),
                  "message '%s' lacks the file, '%s' or '%s'", m ? m : "(null)", api, what);
}

} // namespace

START_TEST(test_ascendc_cube_errors_located)
{
    cube_fails(bad_mmad_small, "Mmad:", "pass the end of a tensor");
    cube_fails(bad_mmad_bias_table, "Mmad:", "cmatrixSource 1");
    cube_fails(bad_load3d_channels, "LoadData:", "channelSize 20");
    cube_fails(bad_load2d_v2, "LoadData:", "LoadData2DParamsV2");
    cube_fails(bad_load_to_ub, "LoadData:", "not into ub");
    cube_fails(bad_nd2nz_to_l0a, "DataCopy:", "Nd2NzParams copy");
    cube_fails(bad_fixpipe_quant, "Fixpipe:", "needs F322F16");
    cube_fails(bad_fixpipe_nd_to_l1, "Fixpipe:", "CFG_NZ");
    cube_fails(bad_tiling_base, "Matmul::Init:", "baseM 100");
    cube_fails(bad_bias, "Matmul::SetBias:", "bias");
    cube_fails(bad_get_without_iterate, "Matmul::GetTensorC:", "no tile");
}
END_TEST

/* GetTiling refuses what the kernel side cannot run, and says why. */
START_TEST(test_ascendc_cube_tiling_refusals)
{
    host_tiling h;
    TCubeTiling t;
    namespace mt = matmul_tiling;
    ck_assert_int_eq(h.get(t, 64, 64, 64, 1, mt::DataType::DT_INT32, false, false, mt::DataType::DT_INT8), -1);
    ck_assert_int_eq(h.get(t, 64, 64, 64, 1, mt::DataType::DT_INT32, false, true, mt::DataType::DT_INT8), 0);
    ck_assert_int_eq(h.get(t, 64, 64, 64, 1, mt::DataType::DT_FLOAT, true, true, mt::DataType::DT_FLOAT), -1);
    ck_assert_int_eq(h.get(t, 0, 64, 64, 1), -1);
    /* every part fits the profile's buffers, on one core and on all */
    for (int32_t dim : {1, 24})
        for (int32_t m : {1, 100, 4096})
            for (int32_t n : {16, 1000, 8192}) {
                ck_assert_int_eq(h.get(t, m, n, 777, dim), 0);
                ck_assert_int_le(t.usedCoreNum, dim);
                ck_assert_int_eq(t.usedCoreNum, ((m + t.singleCoreM - 1) / t.singleCoreM) *
                                                    ((n + t.singleCoreN - 1) / t.singleCoreN));
                ck_assert_int_le(t.dbL0A * t.baseM * t.baseK * 2, (int)h.cfg.l0a_size_bytes);
                ck_assert_int_le(t.dbL0B * t.baseK * t.baseN * 2, (int)h.cfg.l0b_size_bytes);
                ck_assert_int_le(t.dbL0C * t.baseM * t.baseN * 4, (int)h.cfg.l0c_size_bytes);
                ck_assert_int_le(t.shareL1Size, (int)h.cfg.l1_size_bytes);
            }
}
END_TEST

/* The L1 loads (lib/matmul/l1_steps.h), derived by hand for base 128 x 256 x 64 halves on the 512 KB L1: a
 * slice of A is 16 KB, of B 32 KB; CANN's MTE1 cap (mL0 8, nL0 16, kL0 4) is max(32 / (4 + 8), 1) = 2. */
START_TEST(test_ascendc_cube_tiling_l1_steps)
{
    namespace mt = matmul_tiling;
    host_tiling h;
    auto tiling = [&](TCubeTiling &t, int32_t dim, int32_t sm, int32_t sn, bool tb) {
        mt::MultiCoreMatmulTiling api(*h.plat);
        api.SetDim(dim);
        api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16, false);
        api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16, tb);
        api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
        api.SetOrgShape(8192, 8192, 8192);
        api.SetShape(8192, 8192, 8192);
        if (sm > 0)
            api.SetSingleShape(sm, sn, 8192);
        api.SetFixSplit(128, 256, 64);
        ck_assert_int_eq(api.GetTiling(t), 0);
    };
    TCubeTiling t;
    /* the best-practice sample's 4 x 6 parts, B transposed and baseM <= baseN: B first, 2 x (32 KB s + 16 KB)
     * <= 512 KB gives 7, cut to 4 (a divisor of 128 slices); A then 2 x (128 KB + 16 KB s) <= 512 KB, 8, capped
     * at 2: depthA1 4 and depthB1 8, as the sample's README states for CANN */
    tiling(t, 24, 2048, 1536, true);
    ck_assert_int_eq(t.stepKa, 2);
    ck_assert_int_eq(t.depthA1, 4);
    ck_assert_int_eq(t.stepKb, 4);
    ck_assert_int_eq(t.depthB1, 8);
    ck_assert_int_eq(t.shareL1Size, 4 * 16384 + 8 * 32768);
    /* no single shape on 24 cores, 8192 x 8192 > 26214 x 24: the M x N split's halves of L1.  The 910B's L1
     * as the platform reports it is 512 KB less KFC's 256 B: A's half holds 262,016 / 16 KB = 15 slices, 7 per
     * load, cut to 4 so that a load's 896 B of K per row become a multiple of 512; B's half (CANN adds the
     * 256 B back) 8 slices, 4 per load */
    tiling(t, 24, -1, -1, true);
    ck_assert_int_eq(t.stepKa, 4);
    ck_assert_int_eq(t.depthA1, 8);
    ck_assert_int_eq(t.stepKb, 4);
    ck_assert_int_eq(t.depthB1, 8);
    ck_assert_int_eq(t.shareL1Size, 8 * 16384 + 8 * 32768);
    /* the sample's L2-split parts, 1024 x 1536: 8 x 6 = 48 parts for 24 cores, the blocks loop over them */
    tiling(t, 24, 1024, 1536, true);
    ck_assert_int_eq(t.singleCoreM, 1024);
    ck_assert_int_eq(t.singleCoreN, 1536);
    ck_assert_int_eq(t.usedCoreNum, 24);
    /* neither transposed, 128 x 256 x 1024 on one core (16 slices; both whole do not fit twice: 2 x 384 KB):
     * A first, 2 x (16 KB s + 32 KB) <= 512 KB gives 14, cut to 8; B 2 x (128 KB + 32 KB s) <= 512 KB gives 4,
     * capped at 2; computed with these loads against the plain-C product */
    run_api<float, false, false, false>(128, 256, 1024, 1, &t);
    ck_assert_int_eq(t.stepKa, 8);
    ck_assert_int_eq(t.stepKb, 2);
    ck_assert_int_eq(t.depthA1, 16);
    ck_assert_int_eq(t.depthB1, 4);
    /* B transposed: B first, 7 cut to 4; A 8 capped at 2 */
    run_api<float, false, true, false>(128, 256, 1024, 1, &t);
    ck_assert_int_eq(t.stepKa, 2);
    ck_assert_int_eq(t.stepKb, 4);
}
END_TEST

namespace {
/* A1 and B1 loads that fill the 512 KB L1: 16 x 16 KB of A (8 slices per load), 8 x 32 KB of B (4). */
void fill_l1(TCubeTiling &t)
{
    t.stepKa = 8;
    t.depthA1 = 16;
    t.stepKb = 4;
    t.depthB1 = 8;
}
} // namespace

/* A tiling with isBias whose loads leave no room for the bias rows (as the best-practice sample's constant
 * tiling with depthA1 16 and depthB1 8): without SetBias it runs and is right; SetBias is a located error
 * naming L1. */
START_TEST(test_ascendc_cube_matmul_api_bias_room)
{
    TCubeTiling t;
    run_api<float, false, false, false, 0, false>(128, 256, 1024, 1, &t, fill_l1, true);
    ck_assert_int_eq(t.isBias, 1);
    ck_assert_int_eq(t.baseM * t.baseK * 2 * t.depthA1 + t.baseN * t.baseK * 2 * t.depthB1, 512 * 1024);
    run_api<float, false, false, false, 0, true>(128, 256, 1024, 1, nullptr, fill_l1, true,
                                                 "Matmul::SetBias: the tiling's A1 and B1 loads (depthA1 16, "
                                                 "depthB1 8) leave no room in L1 for the bias rows (2 x 1024 bytes)");
}
END_TEST

extern "C" Suite *dv_ascendc_cube_suite(void)
{
    Suite *s = suite_create("ascendc_cube");
    TCase *tc = tcase_create("cube");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_ascendc_cube_basic_64);
    tcase_add_test(tc, test_ascendc_cube_load3d);
    tcase_add_test(tc, test_ascendc_cube_gemv);
    tcase_add_test(tc, test_ascendc_cube_l1_to_gm);
    tcase_add_test(tc, test_ascendc_cube_fill);
    tcase_add_test(tc, test_ascendc_cube_l1_chain_unit_flag);
    tcase_add_test(tc, test_ascendc_cube_matmul_api_512);
    tcase_add_test(tc, test_ascendc_cube_matmul_api_tails);
    tcase_add_test(tc, test_ascendc_cube_matmul_api_atomic);
    tcase_add_test(tc, test_ascendc_cube_matmul_api_bias);
    tcase_add_test(tc, test_ascendc_cube_matmul_api_bias_room);
    tcase_add_test(tc, test_ascendc_cube_matmul_api_nz_out);
    tcase_add_test(tc, test_ascendc_cube_mix_relu);
    tcase_add_test(tc, test_ascendc_cube_emits);
    tcase_add_test(tc, test_ascendc_cube_matmul_api_frees_after_slice);
    tcase_add_test(tc, test_ascendc_cube_errors_located);
    tcase_add_test(tc, test_ascendc_cube_tiling_refusals);
    tcase_add_test(tc, test_ascendc_cube_tiling_l1_steps);
    suite_add_tcase(s, tc);
    return s;
}
