/* tests/check_ascendc_mmb.cpp - the Matmul API's configuration and variants: constant tiling
 * (lib/matmul/constant_tiling.h), policies (matmul_policy.h), C in ND_ALIGN, BatchMatmul's IterateBatch
 * (batch.h) with the host batch setters (tiling/tiling_api.h), the Std / layout helpers (std_layout.h) and
 * convert_from_bytes (kernel_tiling.h).  Cube-only kernels launched as dvcc launches them, checked against a
 * plain C++ matmul; constexpr results against hand-computed values. */
#include <iostream> /* before check.h, whose fail macro breaks <ios> (tiling/tiling_api.h includes it) */

#include <check.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "ascendc/kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "ascendc/lib/matmul_intf.h"
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
    x ^= x >> 29;
    return (float)((int)(x % 2048) - 1024) / 1024.0f;
}

/* One product: C[i * pc + j] = sum_k A[i * pa + k] * B (B[k * pb + j], or B[j * pb + k] transposed) + bias[j]. */
void ref_mm(std::vector<float> &c, size_t c0, uint32_t pc, const std::vector<half> &a, size_t a0, uint32_t pa,
            const std::vector<half> &b, size_t b0, uint32_t pb, bool tb, uint32_t M, uint32_t N, uint32_t K,
            const float *bias)
{
    for (uint32_t i = 0; i < M; i++)
        for (uint32_t j = 0; j < N; j++) {
            float acc = bias ? bias[j] : 0.0f;
            for (uint32_t k = 0; k < K; k++)
                acc += (float)a[a0 + (size_t)i * pa + k] *
                       (float)b[b0 + (tb ? (size_t)j * pb + k : (size_t)k * pb + j)];
            c[c0 + (size_t)i * pc + j] = acc;
        }
}

size_t mismatches(const std::vector<float> &got, const std::vector<float> &want, double tol)
{
    size_t bad = 0;
    for (size_t i = 0; i < want.size(); i++)
        if (!(std::fabs((double)got[i] - want[i]) <= tol + tol * std::fabs(want[i])) && !bad++)
            std::fprintf(stderr, "first mismatch at %zu: %g, want %g\n", i, (double)got[i], (double)want[i]);
    return bad;
}

/* Device buffers: A, B (half, filled), C (float, filled with a marker), bias (float, filled). */
struct session {
    aclrtStream stream = nullptr;
    void *a = nullptr, *b = nullptr, *c = nullptr, *bias = nullptr;
    std::vector<half> ha, hb;
    std::vector<float> hbias;
    size_t nc;
    static constexpr float MARK = 1234.5f; /* C's first contents: what no product writes */
    session(size_t na, size_t nb, size_t nc_, size_t nbias) : ha(na), hb(nb), hbias(nbias), nc(nc_)
    {
        up();
        OK(aclrtCreateStream(&stream));
        for (size_t i = 0; i < na; i++)
            ha[i] = (half)value(1, i);
        for (size_t i = 0; i < nb; i++)
            hb[i] = (half)value(2, i);
        for (size_t i = 0; i < nbias; i++)
            hbias[i] = 8.0f * value(3, i);
        std::vector<float> mark(nc, MARK);
        OK(aclrtMalloc(&a, na * 2, ACL_MEM_MALLOC_HUGE_FIRST));
        OK(aclrtMalloc(&b, nb * 2, ACL_MEM_MALLOC_HUGE_FIRST));
        OK(aclrtMalloc(&c, nc * 4, ACL_MEM_MALLOC_HUGE_FIRST));
        OK(aclrtMalloc(&bias, (nbias ? nbias : 1) * 4, ACL_MEM_MALLOC_HUGE_FIRST));
        OK(aclrtMemcpy(a, na * 2, ha.data(), na * 2, ACL_MEMCPY_HOST_TO_DEVICE));
        OK(aclrtMemcpy(b, nb * 2, hb.data(), nb * 2, ACL_MEMCPY_HOST_TO_DEVICE));
        OK(aclrtMemcpy(c, nc * 4, mark.data(), nc * 4, ACL_MEMCPY_HOST_TO_DEVICE));
        if (nbias)
            OK(aclrtMemcpy(bias, nbias * 4, hbias.data(), nbias * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    std::vector<float> run_and_fetch()
    {
        int rc = aclrtSynchronizeStream(stream);
        ck_assert_msg(rc == ACL_SUCCESS, "%s", aclGetRecentErrMsg());
        std::vector<float> out(nc);
        OK(aclrtMemcpy(out.data(), nc * 4, c, nc * 4, ACL_MEMCPY_DEVICE_TO_HOST));
        return out;
    }
    ~session() { down(); }
};

/* A host tiling of m x n x k, half in, float C of `cfmt`, one core, on the 910B2 profile. */
struct host {
    dv_config_t cfg;
    platform_ascendc::PlatformAscendC *plat = nullptr;
    host()
    {
        ck_assert_int_eq(dv_config_preset(&cfg, "ascend910b2", NULL), 0);
        plat = new platform_ascendc::PlatformAscendC(cfg);
    }
    ~host() { delete plat; }
};

using HalfGM = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using FloatGM = MatmulType<TPosition::GM, CubeFormat::ND, float>;

/* ---------------------------------------------------------------- constant tiling */

constexpr MatmulShapeParams SHAPE = {64, 96, 256, 32, 48, 64};
constexpr MatmulConfig CFG_C = GetMMConfig<MatmulConfigMode::CONFIG_MDL>(SHAPE, MatmulBiasParams{false});
constexpr MatmulApiStaticTiling STATIC_T = GetMatmulApiTiling<HalfGM, HalfGM, FloatGM, FloatGM>(CFG_C);

/* The tiling is MM_CFG: REGIST_MATMUL_OBJ with a NULL tiling, the shape from SetOrgShape. */
__global__ __cube__ void mm_static(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    TPipe pipe;
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half *)a, 64 * 256);
    bg.SetGlobalBuffer((__gm__ half *)b, 256 * 96);
    cg.SetGlobalBuffer((__gm__ float *)c, 64 * 96);
    Matmul<HalfGM, HalfGM, FloatGM, FloatGM, STATIC_T> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, (TCubeTiling *)nullptr);
    mm.SetOrgShape(64, 96, 256);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg);
    mm.IterateAll(cg);
    mm.End();
}

/* ---------------------------------------------------------------- policies, two objects, ND_ALIGN */

constexpr uint32_t TM = 64, TN = 64, TK = 32, TB = 16; /* triangle: 4 x 4 tiles of 16 x 16 */

using Upper = Matmul<HalfGM, HalfGM, FloatGM, FloatGM, CFG_NORM, MatmulCallBackFunc<nullptr, nullptr, nullptr>,
                     Impl::Detail::TrianUpperMatmulPolicy>;
using Plain = Matmul<HalfGM, HalfGM, FloatGM, FloatGM>;

/* The upper triangle of C's tiles with the triangle policy, then, into a second C, all of it with a plain
 * Matmul of the same TPipe: the two objects share the pipe's event ids. */
__global__ __cube__ void mm_triangle(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR bias, TCubeTiling t)
{
    TPipe pipe;
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg, biasg;
    ag.SetGlobalBuffer((__gm__ half *)a, TM * TK);
    bg.SetGlobalBuffer((__gm__ half *)b, TK * TN);
    cg.SetGlobalBuffer((__gm__ float *)c, 2 * TM * TN);
    biasg.SetGlobalBuffer((__gm__ float *)bias, TN);
    Upper tri;
    Plain all;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), tri, &t, all, &t);
    tri.SetTensorA(ag);
    tri.SetTensorB(bg);
    tri.SetBias(biasg);
    tri.IterateAll(cg);
    tri.End();
    all.SetTensorA(ag);
    all.SetTensorB(bg);
    all.SetBias(biasg);
    all.IterateAll(cg[TM * TN]);
    all.End();
}

constexpr uint32_t AM = 32, AN = 20, AK = 32, AP = 24; /* ND_ALIGN: 20 floats a row, pitch 24 */

__global__ __cube__ void mm_nd_align(GM_ADDR a, GM_ADDR b, GM_ADDR c, TCubeTiling t)
{
    TPipe pipe;
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half *)a, AM * AK);
    bg.SetGlobalBuffer((__gm__ half *)b, AK * AN);
    cg.SetGlobalBuffer((__gm__ float *)c, AM * AP);
    Matmul<HalfGM, HalfGM, MatmulType<TPosition::GM, CubeFormat::ND_ALIGN, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg);
    mm.IterateAll(cg);
    mm.End();
}

/* ---------------------------------------------------------------- BatchMatmul */

constexpr uint32_t BATCH = 3, BM = 32, BN = 48, BK = 64;
constexpr MatmulConfig CFG_SHARED_BIAS = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(
    MatmulBatchParams{false, BatchMode::BATCH_LESS_THAN_L1, false});

/* NORMAL layout, B transposed, one bias row for every batch. */
__global__ __cube__ void mm_batch_normal(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR bias, TCubeTiling t)
{
    using A = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
    using B = MatmulType<TPosition::GM, CubeFormat::ND, half, true, LayoutMode::NORMAL>;
    using C = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>;
    TPipe pipe;
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg, biasg;
    ag.SetGlobalBuffer((__gm__ half *)a, BATCH * BM * BK);
    bg.SetGlobalBuffer((__gm__ half *)b, BATCH * BK * BN);
    cg.SetGlobalBuffer((__gm__ float *)c, BATCH * BM * BN);
    biasg.SetGlobalBuffer((__gm__ float *)bias, BN);
    Matmul<A, B, C, FloatGM, CFG_SHARED_BIAS> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg, true);
    mm.SetBias(biasg);
    mm.IterateBatch(cg, BATCH, BATCH, false);
    mm.End();
}

/* BSNGD: A [1, BM, 1, G, BK], B [1, BN, 1, G, BK] (transposed), C [1, BM, 1, G, BN]; B broadcast when
 * batchB is 1. */
template <uint32_t BATCH_B>
__global__ __cube__ void mm_batch_bsngd(GM_ADDR a, GM_ADDR b, GM_ADDR c, TCubeTiling t)
{
    using A = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::BSNGD>;
    using B = MatmulType<TPosition::GM, CubeFormat::ND, half, true, LayoutMode::BSNGD>;
    using C = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::BSNGD>;
    TPipe pipe;
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half *)a, BATCH * BM * BK);
    bg.SetGlobalBuffer((__gm__ half *)b, BATCH * BK * BN);
    cg.SetGlobalBuffer((__gm__ float *)c, BATCH * BM * BN);
    Matmul<A, B, C, FloatGM> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg, true);
    mm.IterateBatch(cg, BATCH, BATCH_B, false);
    mm.End();
}

/* IterateNBatch over the BSNGD layout of mm_batch_bsngd: BATCH loops of one product each (batchA = batchB = 1),
 * loop i at CalcNBatchoffset's (n, g) = i, into the workspace, which is C. */
constexpr MatmulConfig CFG_NBATCH = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(
    MatmulBatchParams{true, BatchMode::BATCH_LESS_THAN_L1, false});
__global__ __cube__ void mm_nbatch_bsngd(GM_ADDR a, GM_ADDR b, GM_ADDR c, TCubeTiling t)
{
    using A = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::BSNGD>;
    using B = MatmulType<TPosition::GM, CubeFormat::ND, half, true, LayoutMode::BSNGD>;
    using C = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::BSNGD>;
    TPipe pipe;
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half *)a, BATCH * BM * BK);
    bg.SetGlobalBuffer((__gm__ half *)b, BATCH * BK * BN);
    cg.SetGlobalBuffer((__gm__ float *)c, BATCH * BM * BN);
    Matmul<A, B, C, FloatGM, CFG_NBATCH> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg, true);
    mm.SetWorkspace(cg);
    mm.IterateNBatch(BATCH, 1, 1, false);
    mm.End();
}

/* C in CO1: the BN / 16 tiles of one BM-row part go one after the other into the kernel's own L0C tensor (NZ, BM
 * rows per 16-column block), which one Fixpipe writes to C as BM x BN rows. */
__global__ __cube__ void mm_co1(GM_ADDR a, GM_ADDR b, GM_ADDR c, TCubeTiling t)
{
    using C = MatmulType<TPosition::CO1, CubeFormat::NZ, GetMmDstType<half>::Type>;
    TPipe pipe;
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half *)a, BM * BK);
    bg.SetGlobalBuffer((__gm__ half *)b, BK * BN);
    cg.SetGlobalBuffer((__gm__ float *)c, BM * BN);
    Matmul<HalfGM, HalfGM, C> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    TQue<TPosition::CO1, Impl::QUEUE_DEPTH> q;
    pipe.InitBuffer(q, 1, BM * BN * sizeof(float));
    LocalTensor<float> co = q.AllocTensor<float>();
    mm.SetTensorA(ag);
    mm.SetTensorB(bg);
    for (uint32_t off = 0; mm.Iterate(false, co[off]); off += (uint32_t)(t.baseM * t.baseN)) {
    }
    q.EnQue(co);
    co = q.DeQue<float>();
    FixpipeParamsV220 fp(BN, BM, BM, BN, false);
    Fixpipe<float, float, CFG_ROW_MAJOR>(cg, co, fp);
    q.FreeTensor(co);
    q.FreeAllEvent();
    mm.End();
}

/* A tiling of one m x n x k product (half in, float C), B transposed or not, with fixed base tiles. */
int64_t tiling_of(host &h, TCubeTiling &t, matmul_tiling::MatmulApiTilingBase &api, int32_t m, int32_t n, int32_t k,
                  bool tb, bool bias, matmul_tiling::CubeFormat cfmt, int32_t bm, int32_t bn)
{
    (void)h;
    namespace mt = matmul_tiling;
    api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
    api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16, tb);
    api.SetCType(mt::TPosition::GM, cfmt, mt::DataType::DT_FLOAT);
    api.SetBiasType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
    api.SetOrgShape(m, n, k);
    api.SetShape(m, n, k);
    api.SetFixSplit(bm, bn, -1);
    api.EnableBias(bias);
    return api.GetTiling(t);
}

constexpr uint8_t AOT_BYTES[8] = {0x02, 0, 0, 0, 0x00, 0x02, 0, 0};

} // namespace

/* GetMMConfig applies its bundles to the preset; GetMatmulApiTiling's fields by hand: 32 x 64 halves (4 KB)
 * of L0A and 64 x 48 (6 KB) of L0B double-buffer; K = 256 is 4 slices of 64, and two loads of A and B of all
 * four fit L1 (2 x (32 + 48) x 256 x 2 = 80 KB): stepKa = stepKb = 4, depth 8. */
START_TEST(test_ascendc_mmb_constant_tiling)
{
    static_assert(CFG_C.doMultiDataLoad && !CFG_C.doNorm && CFG_C.basicN == 48 && CFG_C.singleCoreK == 256 &&
                      !CFG_C.enableSetBias,
                  "GetMMConfig");
    static_assert(STATIC_T.baseM == 32 && STATIC_T.baseN == 48 && STATIC_T.baseK == 64 && STATIC_T.dbL0A == 2 &&
                      STATIC_T.dbL0B == 2 && STATIC_T.dbL0C == 1 && STATIC_T.stepKa == 4 && STATIC_T.stepKb == 4 &&
                      STATIC_T.depthA1 == 8 && STATIC_T.stepM == 1 && STATIC_T.isBias == 0 &&
                      STATIC_T.singleCoreK == 256 && STATIC_T.iterateOrder == 0,
                  "GetMatmulApiTiling");
    static_assert(!dvac::mm::is_static(CFG_NORM) && dvac::mm::is_static(STATIC_T) &&
                      dvac::mm::config_of(STATIC_T).doMultiDataLoad,
                  "config_of");
    /* without a whole shape only the base tile is set, as CANN's */
    constexpr MatmulApiStaticTiling partial = GetMatmulApiTiling<HalfGM, HalfGM, FloatGM, FloatGM>(
        GetMMConfig<MatmulConfigMode::CONFIG_NORM>(MatmulShapeParams{0, 0, 0, 128, 256, 64}));
    static_assert(partial.baseN == 256 && partial.stepKa == -1 && partial.dbL0B == 2 && partial.isBias == 1, "");

    session s(64 * 256, 256 * 96, 64 * 96, 0);
    ck_assert_uint_eq(::dvac::launch(mm_static, "mm_static", 1, nullptr, s.stream)(s.a, s.b, s.c), 0);
    std::vector<float> got = s.run_and_fetch(), want(64 * 96);
    ref_mm(want, 0, 96, s.ha, 0, 256, s.hb, 0, 96, false, 64, 96, 256, nullptr);
    ck_assert_uint_eq(mismatches(got, want, 1e-5), 0);
}
END_TEST

/* TrianUpperMatmulPolicy computes the tiles (i, j) with i <= j only (the others keep C's marker); a second
 * Matmul object in the same TPipe computes all of C, both with a bias. */
START_TEST(test_ascendc_mmb_triangle_two_objects)
{
    host h;
    TCubeTiling t;
    matmul_tiling::MatmulApiTiling api(*h.plat);
    ck_assert_int_eq(tiling_of(h, t, api, TM, TN, TK, false, true, matmul_tiling::CubeFormat::ND, TB, TB), 0);
    session s(TM * TK, TK * TN, 2 * TM * TN, TN);
    ck_assert_uint_eq(::dvac::launch(mm_triangle, "mm_triangle", 1, nullptr, s.stream)(s.a, s.b, s.c, s.bias, t),
                      0);
    std::vector<float> got = s.run_and_fetch(), full(TM * TN), want(2 * TM * TN);
    ref_mm(full, 0, TN, s.ha, 0, TK, s.hb, 0, TN, false, TM, TN, TK, s.hbias.data());
    for (uint32_t i = 0; i < TM; i++)
        for (uint32_t j = 0; j < TN; j++) {
            want[i * TN + j] = i / TB <= j / TB ? full[i * TN + j] : session::MARK;
            want[TM * TN + i * TN + j] = full[i * TN + j];
        }
    ck_assert_uint_eq(mismatches(got, want, 1e-5), 0);
}
END_TEST

/* ND_ALIGN: C's rows are 24 floats apart (20 rounded to 32 bytes) and the 4 padding columns are written 0. */
START_TEST(test_ascendc_mmb_nd_align)
{
    host h;
    TCubeTiling t;
    matmul_tiling::MatmulApiTiling api(*h.plat);
    ck_assert_int_eq(tiling_of(h, t, api, AM, AN, AK, false, false, matmul_tiling::CubeFormat::ND_ALIGN, 16, 16), 0);
    session s(AM * AK, AK * AN, AM * AP, 0);
    ck_assert_uint_eq(::dvac::launch(mm_nd_align, "mm_nd_align", 1, nullptr, s.stream)(s.a, s.b, s.c, t), 0);
    std::vector<float> got = s.run_and_fetch(), want(AM * AP, 0.0f);
    ref_mm(want, 0, AP, s.ha, 0, AK, s.hb, 0, AN, false, AM, AN, AK, nullptr);
    ck_assert_uint_eq(mismatches(got, want, 1e-5), 0);
}
END_TEST

/* IterateBatch, NORMAL layout from SetBatchInfoForNormal: three products one after the other, B transposed,
 * the bias shared (isBiasBatch false). */
START_TEST(test_ascendc_mmb_batch_normal)
{
    host h;
    TCubeTiling t;
    matmul_tiling::BatchMatmulTiling api(*h.plat);
    ck_assert_int_eq(api.SetBatchInfoForNormal(BATCH, BATCH, BM, BN, BK), 0);
    ck_assert_int_eq(api.SetBatchNum(BATCH), 0);
    ck_assert_int_eq(tiling_of(h, t, api, BM, BN, BK, true, true, matmul_tiling::CubeFormat::ND, 16, 16), 0);
    ck_assert_int_eq(t.ALayoutInfoB, BATCH);
    ck_assert_int_eq(t.ALayoutInfoS, BM);
    ck_assert_int_eq(t.BLayoutInfoS, BN);
    ck_assert_int_eq(t.CLayoutInfoS2, BN);
    ck_assert_int_eq(t.BatchNum, BATCH);
    session s(BATCH * BM * BK, BATCH * BK * BN, BATCH * BM * BN, BN);
    ck_assert_uint_eq(
        ::dvac::launch(mm_batch_normal, "mm_batch_normal", 1, nullptr, s.stream)(s.a, s.b, s.c, s.bias, t), 0);
    std::vector<float> got = s.run_and_fetch(), want(BATCH * BM * BN);
    for (uint32_t i = 0; i < BATCH; i++)
        ref_mm(want, i * BM * BN, BN, s.ha, i * BM * BK, BK, s.hb, i * BN * BK, BK, true, BM, BN, BK,
               s.hbias.data());
    ck_assert_uint_eq(mismatches(got, want, 1e-5), 0);
}
END_TEST

/* IterateBatch, BSNGD with G = 3 (rows G * D apart, matrices D apart), and B broadcast (batchB = 1). */
START_TEST(test_ascendc_mmb_batch_bsngd)
{
    for (int bcast = 0; bcast < 2; bcast++) {
        host h;
        TCubeTiling t;
        matmul_tiling::MultiCoreMatmulTiling api(*h.plat);
        api.SetDim(1);
        api.SetALayout(1, BM, 1, BATCH, BK);
        api.SetBLayout(1, BN, 1, BATCH, BK);
        api.SetCLayout(1, BM, 1, BATCH, BN);
        api.SetBatchNum(BATCH);
        ck_assert_int_eq(tiling_of(h, t, api, BM, BN, BK, true, false, matmul_tiling::CubeFormat::ND, 16, 32), 0);
        session s(BATCH * BM * BK, BATCH * BK * BN, BATCH * BM * BN, 0);
        auto k = bcast ? mm_batch_bsngd<1> : mm_batch_bsngd<BATCH>;
        ck_assert_uint_eq(::dvac::launch(k, "mm_batch_bsngd", 1, nullptr, s.stream)(s.a, s.b, s.c, t), 0);
        std::vector<float> got = s.run_and_fetch(), want(BATCH * BM * BN);
        for (uint32_t g = 0; g < BATCH; g++)
            ref_mm(want, g * BN, BATCH * BN, s.ha, g * BK, BATCH * BK, s.hb, bcast ? 0 : g * BK, BATCH * BK, true,
                   BM, BN, BK, nullptr);
        ck_assert_uint_eq(mismatches(got, want, 1e-5), 0);
    }
}
END_TEST

/* IterateNBatch: BATCH loops of one BSNGD product each land where IterateBatch(BATCH, BATCH) puts them. */
START_TEST(test_ascendc_mmb_nbatch_bsngd)
{
    host h;
    TCubeTiling t;
    matmul_tiling::MultiCoreMatmulTiling api(*h.plat);
    api.SetDim(1);
    api.SetALayout(1, BM, 1, BATCH, BK);
    api.SetBLayout(1, BN, 1, BATCH, BK);
    api.SetCLayout(1, BM, 1, BATCH, BN);
    api.SetBatchNum(1);
    ck_assert_int_eq(tiling_of(h, t, api, BM, BN, BK, true, false, matmul_tiling::CubeFormat::ND, 16, 32), 0);
    session s(BATCH * BM * BK, BATCH * BK * BN, BATCH * BM * BN, 0);
    ck_assert_uint_eq(::dvac::launch(mm_nbatch_bsngd, "mm_nbatch_bsngd", 1, nullptr, s.stream)(s.a, s.b, s.c, t), 0);
    std::vector<float> got = s.run_and_fetch(), want(BATCH * BM * BN);
    for (uint32_t g = 0; g < BATCH; g++)
        ref_mm(want, g * BN, BATCH * BN, s.ha, g * BK, BATCH * BK, s.hb, g * BK, BATCH * BK, true, BM, BN, BK,
               nullptr);
    ck_assert_uint_eq(mismatches(got, want, 1e-5), 0);
}
END_TEST

/* C in CO1 (Iterate into the kernel's L0C tensor, the kernel's Fixpipe), three 32 x 16 tiles. */
START_TEST(test_ascendc_mmb_co1)
{
    host h;
    TCubeTiling t;
    matmul_tiling::MultiCoreMatmulTiling api(*h.plat);
    api.SetDim(1);
    ck_assert_int_eq(tiling_of(h, t, api, BM, BN, BK, false, false, matmul_tiling::CubeFormat::ND, BM, 16), 0);
    ck_assert_int_eq(t.baseN, 16);
    session s(BM * BK, BK * BN, BM * BN, 0);
    ck_assert_uint_eq(::dvac::launch(mm_co1, "mm_co1", 1, nullptr, s.stream)(s.a, s.b, s.c, t), 0);
    std::vector<float> got = s.run_and_fetch(), want(BM * BN);
    ref_mm(want, 0, BN, s.ha, 0, BK, s.hb, 0, BN, false, BM, BN, BK, nullptr);
    ck_assert_uint_eq(mismatches(got, want, 1e-5), 0);
}
END_TEST

/* The host refusals and helpers: SetSparse(true) is refused at GetTiling (naming it); the flat layout's offset,
 * Ceil and convert_from_bytes by hand. */
START_TEST(test_ascendc_mmb_host_and_helpers)
{
    host h;
    TCubeTiling t;
    matmul_tiling::MatmulApiTiling api(*h.plat);
    api.SetSparse(true);
    ck_assert_int_eq(tiling_of(h, t, api, 32, 32, 32, false, false, matmul_tiling::CubeFormat::ND, 16, 16), -1);
    ck_assert_int_eq(api.SetBatchInfoForNormal(0, 1, 1, 1, 1), -1);

    constexpr auto lay = MakeLayout(MakeShape(7, 9), MakeStride(9, 1));
    static_assert(lay(MakeCoord(3, 4)) == 31, "flat layout offset");
    static_assert(Ceil(int64_t(10), int64_t(4)) == 3 && Ceil(8, 4) == 2, "Ceil");
    static_assert(Std::get<1>(Coord<int64_t, int64_t>(5, 6)) == 6, "Std::get");
    struct two {
        int32_t x, y;
    };
    constexpr two v = convert_from_bytes<two>(AOT_BYTES);
    static_assert(v.x == 2 && v.y == 512, "convert_from_bytes");
}
END_TEST

extern "C" Suite *dv_ascendc_mmb_suite(void)
{
    Suite *s = suite_create("ascendc_mmb");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_ascendc_mmb_constant_tiling);
    tcase_add_test(tc, test_ascendc_mmb_triangle_two_objects);
    tcase_add_test(tc, test_ascendc_mmb_nd_align);
    tcase_add_test(tc, test_ascendc_mmb_batch_normal);
    tcase_add_test(tc, test_ascendc_mmb_batch_bsngd);
    tcase_add_test(tc, test_ascendc_mmb_nbatch_bsngd);
    tcase_add_test(tc, test_ascendc_mmb_co1);
    tcase_add_test(tc, test_ascendc_mmb_host_and_helpers);
    suite_add_tcase(s, tc);
    return s;
}
