/* tests/check_ascendc.cpp - the core of dvsim's Ascend C (include/ascendc): kernels launched as dvcc
 * launches them (::dvac::launch), queues and copies checked against the bytes, the same kernel
 * written with the kernel API giving the same cycles, the kind found from the code, and the
 * located errors of misuse (file:line: API: message). */
#include <check.h>

#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

#include "acl/acl.h"
#include "ascendc/kernel_operator.h"
#include "ascendc/register/tilingdata_base.h"
#include "support/aclt.h"

namespace {

constexpr uint32_t TILE = 512; /* floats per copy */
unsigned g_copy_in_line; /* the source line of copy_kernel's GM -> UB DataCopy */

/* GM -> UB -> GM through a double-buffered TQueBind, 8 blocks. */
__global__ __vector__ void copy_kernel(GM_ADDR x, GM_ADDR z, uint32_t total)
{
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> q;
    AscendC::GlobalTensor<float> xg, zg;
    uint32_t per = total / AscendC::GetBlockNum();
    xg.SetGlobalBuffer((__gm__ float *)x + per * AscendC::GetBlockIdx(), per);
    zg.SetGlobalBuffer((__gm__ float *)z + per * AscendC::GetBlockIdx(), per);
    pipe.InitBuffer(q, 2, TILE * sizeof(float));
    for (uint32_t i = 0; i < per / TILE; i++) {
        AscendC::LocalTensor<float> t = q.AllocTensor<float>();
        g_copy_in_line = __LINE__ + 1;
        AscendC::DataCopy(t, xg[i * TILE], TILE);
        q.EnQue(t);
        t = q.DeQue<float>();
        AscendC::DataCopy(zg[i * TILE], t, TILE);
        q.FreeTensor(t);
    }
}

/* The same kernel with the kernel API (dv/kapi.h): a depth-2 queue from MTE2 to MTE3, with what
 * TPipe adds as CANN's does: the control state at the start (no atomic, set_mask_norm, every mask bit), and at
 * the end a wait for each freed buffer's flag and a barrier on every pipe. */
struct copy_params {
    uint32_t total;
};
void copy_kapi(dv_k_t *k, const void *p)
{
    const copy_params *cp = static_cast<const copy_params *>(p);
    uint32_t per = cp->total / dvk_block_num(k);
    uint64_t base = (uint64_t)per * dvk_block_idx(k) * 4;
    dv_que_t q;
    dvk_set_atomic(k, DV_ATOMIC_NONE, DV_DT_F32);
    dvk_set_mask_norm(k);
    dvk_mask_all(k);
    dvk_que_init(k, &q, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_MTE3, 2, TILE * 4);
    for (uint32_t i = 0; i < per / TILE; i++) {
        uint64_t b = dvk_que_alloc(k, &q);
        dvk_copy_gm_to_ubuf(k, b, dvk_gm(k, 0, base + i * TILE * 4), 1, TILE * 4 / 32, 0, 0);
        dvk_que_enque(k, &q, b);
        b = dvk_que_deque(k, &q);
        dvk_copy_ubuf_to_gm(k, dvk_gm(k, 1, base + i * TILE * 4), b, 1, TILE * 4 / 32, 0, 0);
        dvk_que_free(k, &q, b);
    }
    for (uint32_t i = 0; i < q.depth; i++)
        if (q.freed[i])
            dvk_wait_flag(k, DV_PIPE_MTE3, DV_PIPE_MTE2, q.ev_free[i]);
    dvk_pipe_barrier(k, DV_PIPE_ALL);
}

struct session {
    aclrtStream stream = nullptr;
    void *x = nullptr, *z = nullptr;
    std::vector<float> in, out;
    explicit session(uint32_t n) : in(n), out(n)
    {
        up();
        OK(aclrtCreateStream(&stream));
        OK(aclrtMalloc(&x, n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
        OK(aclrtMalloc(&z, n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
        for (uint32_t i = 0; i < n; i++)
            in[i] = 0.25f * (float)i - 100.0f;
        OK(aclrtMemcpy(x, n * 4, in.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    void fetch() { OK(aclrtMemcpy(out.data(), out.size() * 4, z, out.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST)); }
    ~session() { down(); }
};

/* Device time of one launch, from events around it. */
template <class F> float timed(aclrtStream s, F launch)
{
    aclrtEvent e0, e1;
    OK(aclrtCreateEvent(&e0));
    OK(aclrtCreateEvent(&e1));
    OK(aclrtRecordEvent(e0, s));
    launch();
    OK(aclrtRecordEvent(e1, s));
    OK(aclrtSynchronizeStream(s));
    float ms = 0;
    OK(aclrtEventElapsedTime(&ms, e0, e1));
    OK(aclrtDestroyEvent(e0));
    OK(aclrtDestroyEvent(e1));
    return ms;
}

} // namespace

START_TEST(test_ascendc_copy_through_queue)
{
    const uint32_t n = 8 * 4 * TILE;
    session s(n);
    ck_assert_uint_eq(::dvac::launch(copy_kernel, "copy_kernel", 8, nullptr, s.stream)(s.x, s.z, n), 0);
    OK(aclrtSynchronizeStream(s.stream));
    s.fetch();
    ck_assert_int_eq(std::memcmp(s.in.data(), s.out.data(), n * 4), 0);
}
END_TEST

/* The Ascend C queue emits what dvk_que emits: the same instructions, so the same time. */
START_TEST(test_ascendc_same_cycles_as_kapi)
{
    const uint32_t n = 8 * 4 * TILE;
    session s(n);
    copy_params p = {n};
    void *args[2] = {s.x, s.z};
    auto kapi = [&] { OK(dvsimLaunchKernel("copy_kapi", copy_kapi, DV_KIND_VECTOR, 8, s.stream, args, 2, &p, sizeof p)); };
    timed(s.stream, kapi); /* the L2 keeps its contents from kernel to kernel: both below run warm */
    float ac = timed(s.stream, [&] {
        ck_assert_uint_eq(::dvac::launch(copy_kernel, "copy_kernel", 8, nullptr, s.stream)(s.x, s.z, n), 0);
    });
    float ck = timed(s.stream, kapi);
    ck_assert_msg(ac > 0 && ac == ck, "Ascend C %.6f ms, kernel API %.6f ms", (double)ac, (double)ck);
}
END_TEST

/* The profiler's hot-spot table names the kernel's source lines: the GM -> UB copy is the hottest. */
START_TEST(test_ascendc_hotspot_lines)
{
    char dir[] = "/tmp/dvsim-hot.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    setenv("DVSIM_PROFILE_OUT", dir, 1);
    {
        const uint32_t n = 8 * 4 * TILE;
        session s(n);
        unsetenv("DVSIM_PROFILE_OUT");
        ck_assert_uint_eq(::dvac::launch(copy_kernel, "copy_kernel", 8, nullptr, s.stream)(s.x, s.z, n), 0);
        OK(aclrtSynchronizeStream(s.stream));
    }
    char path[64], line[256], want[128];
    std::snprintf(path, sizeof path, "%s/op_hotspot.csv", dir);
    FILE *f = std::fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(std::fgets(line, sizeof line, f)); /* header */
    ck_assert_ptr_nonnull(std::fgets(line, sizeof line, f));
    std::fclose(f);
    std::snprintf(want, sizeof want, "1,\"copy_kernel\",%u,copy_gm_to_ubuf,", g_copy_in_line);
    ck_assert_msg(std::strncmp(line, want, std::strlen(want)) == 0, "first row '%s', want '%s...'", line, want);
}
END_TEST

/* A host tiling class (BEGIN_TILING_DATA_DEF) saves the bytes a kernel's plain struct reads. */
BEGIN_TILING_DATA_DEF(DemoTiling)
TILING_DATA_FIELD_DEF(uint32_t, tile);
TILING_DATA_FIELD_DEF(uint64_t, total);
TILING_DATA_FIELD_DEF_ARR(uint16_t, 3, dims);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Demo, DemoTiling)
struct DemoKernelTiling {
    uint32_t tile;
    uint64_t total;
    uint16_t dims[3];
};

START_TEST(test_ascendc_tiling_data_def)
{
    DemoTiling t;
    t.set_tile(7);
    t.set_total(1ull << 40);
    const uint16_t d[3] = {1, 2, 3};
    t.set_dims(d);
    ck_assert_uint_eq(t.GetDataSize(), sizeof(DemoKernelTiling));
    DemoKernelTiling k;
    t.SaveToBuffer(&k, sizeof k);
    ck_assert_uint_eq(k.tile, 7);
    ck_assert_uint_eq(k.total, 1ull << 40);
    ck_assert_uint_eq(k.dims[2], 3);
    ck_assert_uint_eq(t.get_tile(), 7);
}
END_TEST

/* Tiling the host wrote to GM, read by the kernel with GlobalTensor::GetValue. */
__global__ __vector__ void tiled_copy(GM_ADDR x, GM_ADDR z, GM_ADDR tiling)
{
    AscendC::GlobalTensor<uint32_t> t;
    t.SetGlobalBuffer((__gm__ uint32_t *)tiling, 2);
    uint32_t tile = t.GetValue(0), tiles = t.GetValue(1);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, tile * sizeof(float));
    AscendC::LocalTensor<float> b = buf.Get<float>();
    AscendC::GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x);
    zg.SetGlobalBuffer((__gm__ float *)z);
    for (uint32_t i = 0; i < tiles; i++) {
        AscendC::DataCopy(b, xg[i * tile], tile);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(AscendC::EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(AscendC::EVENT_ID0);
        AscendC::DataCopy(zg[i * tile], b, tile);
        AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(AscendC::EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(AscendC::EVENT_ID0);
    }
}

START_TEST(test_ascendc_tiling_from_gm)
{
    const uint32_t n = 3 * 256;
    session s(n);
    uint32_t tiling[2] = {256, 3};
    void *t;
    OK(aclrtMalloc(&t, sizeof tiling, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemcpy(t, sizeof tiling, tiling, sizeof tiling, ACL_MEMCPY_HOST_TO_DEVICE));
    ck_assert_uint_eq(::dvac::launch(tiled_copy, "tiled_copy", 1, nullptr, s.stream)(s.x, s.z, t), 0);
    OK(aclrtSynchronizeStream(s.stream));
    s.fetch();
    ck_assert_int_eq(std::memcmp(s.in.data(), s.out.data(), n * 4), 0);
}
END_TEST

/* The kind comes from the code: a kernel with only vector-core work runs on AIVs. */
START_TEST(test_ascendc_kind_probed)
{
    const uint32_t n = 8 * 4 * TILE;
    session s(n);
    dv_config_t cfg;
    ck_assert_int_eq(dv_config_preset(&cfg, "ascend910b2", NULL), 0);
    dv_kernel_info_t info = {};
    std::snprintf(info.name, sizeof info.name, "copy");
    info.blocks = 8;
    dv_arg_t args[2] = {};
    args[0].bytes = args[1].bytes = n * 4;
    info.nargs = 2;
    info.args = args;
    ::dvac::Launch<GM_ADDR, GM_ADDR, uint32_t> l;
    std::memset(static_cast<void *>(&l), 0, sizeof l);
    l.fn = copy_kernel;
    ::dvac::fill(l.args, s.x, s.z, n);
    l.gm.n = 2;
    l.gm.dev[0] = (uint64_t)(uintptr_t)s.x;
    l.gm.dev[1] = (uint64_t)(uintptr_t)s.z;
    dv_kind_t kind = DV_KIND_MIX;
    dv_error_t err;
    ck_assert_int_eq(dvk_kernel_probe(&cfg, &info, ::dvac::trampoline<GM_ADDR, GM_ADDR, uint32_t>, &l, sizeof l,
                                      &kind, &err), DV_OK);
    ck_assert_int_eq(kind, DV_KIND_VECTOR);
}
END_TEST

/* The scalar unit reads and writes UB (GetValue / SetValue) after MTE2 -> S and before S -> MTE3. */
template <bool ExplicitSync> static void scalar_loop_body(GM_ADDR x, GM_ADDR z, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bx, bz;
    pipe.InitBuffer(bx, n * sizeof(float));
    pipe.InitBuffer(bz, n * sizeof(float));
    AscendC::LocalTensor<float> lx = bx.Get<float>(), lz = bz.Get<float>();
    AscendC::GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x);
    zg.SetGlobalBuffer((__gm__ float *)z);
    AscendC::DataCopy(lx, xg, n);
    if (ExplicitSync) { /* else CANN's compiler synchronises the scalar reads itself (auto-sync) */
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(0);
    }
    for (uint32_t i = 0; i < n; i++)
        lz.SetValue(i, 2.0f * lx.GetValue(i) + 1.0f);
    AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(0);
    AscendC::DataCopy(zg, lz, n);
}
__global__ __vector__ void scalar_loop(GM_ADDR x, GM_ADDR z, uint32_t n) { scalar_loop_body<true>(x, z, n); }
__global__ __vector__ void scalar_loop_auto(GM_ADDR x, GM_ADDR z, uint32_t n) { scalar_loop_body<false>(x, z, n); }

START_TEST(test_ascendc_scalar_ub_access)
{
    const uint32_t n = 64;
    session s(n);
    for (auto fn : {scalar_loop, scalar_loop_auto}) {
        std::vector<float> zero(n, 0.0f);
        OK(aclrtMemcpy(s.z, n * 4, zero.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE));
        ck_assert_uint_eq(::dvac::launch(fn, "scalar_loop", 1, nullptr, s.stream)(s.x, s.z, n), 0);
        int rc = aclrtSynchronizeStream(s.stream);
        ck_assert_msg(rc == 0, "%d: %s", rc, aclGetRecentErrMsg());
        s.fetch();
        for (uint32_t i = 0; i < n; i++)
            ck_assert_float_eq(s.out[i], 2.0f * s.in[i] + 1.0f);
    }
}
END_TEST

/* GetSystemCycle around a copy: the counter advances at chip.sys_counter_mhz. */
__global__ __vector__ void timed_copy(GM_ADDR x, GM_ADDR z, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b, t;
    pipe.InitBuffer(b, n * sizeof(float));
    pipe.InitBuffer(t, 32);
    AscendC::GlobalTensor<float> xg;
    AscendC::GlobalTensor<int32_t> zg;
    xg.SetGlobalBuffer((__gm__ float *)x);
    zg.SetGlobalBuffer((__gm__ int32_t *)z);
    int64_t t0 = AscendC::GetSystemCycle();
    AscendC::DataCopy(b.Get<float>(), xg, n);
    AscendC::PipeBarrier<AscendC::PIPE_ALL>();
    int64_t t1 = AscendC::GetSystemCycle();
    AscendC::LocalTensor<int32_t> lt = t.Get<int32_t>();
    for (int i = 0; i < 8; i++)
        lt.SetValue(i, i == 0 ? (int32_t)(t1 - t0) : 0);
    AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(0);
    AscendC::DataCopy(zg, lt, 8);
}

START_TEST(test_ascendc_system_cycle)
{
    const uint32_t n = 16384;
    session s(n);
    float ms = timed(s.stream, [&] {
        ck_assert_uint_eq(::dvac::launch(timed_copy, "timed_copy", 1, nullptr, s.stream)(s.x, s.z, n), 0);
    });
    s.fetch();
    int32_t d;
    std::memcpy(&d, s.out.data(), 4);
    /* a 64 KB copy is hundreds of core cycles: some counts at 50 MHz, and less than the kernel took */
    ck_assert_int_gt(d, 2);
    ck_assert_int_lt(d, (int32_t)(ms * 1e-3 * 50e6) + 1);
    down();
    /* a chip without a readable counter */
    setenv("DVSIM_PROFILE", "ascend910a", 1);
    up();
    unsetenv("DVSIM_PROFILE");
    aclrtStream st;
    void *x, *z;
    OK(aclrtCreateStream(&st));
    OK(aclrtMalloc(&x, n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&z, n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ck_assert_uint_eq(::dvac::launch(timed_copy, "timed_copy", 1, nullptr, st)(x, z, n), 0);
    ck_assert_int_ne(aclrtSynchronizeStream(st), ACL_SUCCESS);
    ck_assert_ptr_nonnull(std::strstr(aclGetRecentErrMsg(), "chip.sys_counter_mhz is 0"));
}
END_TEST

/* Every block adds its slice into the same output under SetAtomicAdd. */
__global__ __vector__ void atomic_sum(GM_ADDR x, GM_ADDR z, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, n * sizeof(float));
    AscendC::GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x + n * AscendC::GetBlockIdx());
    zg.SetGlobalBuffer((__gm__ float *)z);
    AscendC::DataCopy(b.Get<float>(), xg, n);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(0);
    AscendC::SetAtomicAdd<float>();
    AscendC::DataCopy(zg, b.Get<float>(), n);
    AscendC::SetAtomicNone();
}

START_TEST(test_ascendc_atomic_add)
{
    const uint32_t n = 256, blocks = 8;
    session s(n * blocks);
    std::vector<float> zero(n * blocks, 0.0f);
    OK(aclrtMemcpy(s.z, n * blocks * 4, zero.data(), n * blocks * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    ck_assert_uint_eq(::dvac::launch(atomic_sum, "atomic_sum", blocks, nullptr, s.stream)(s.x, s.z, n), 0);
    OK(aclrtSynchronizeStream(s.stream));
    s.fetch();
    for (uint32_t i = 0; i < n; i++) {
        double want = 0;
        for (uint32_t b = 0; b < blocks; b++)
            want += s.in[b * n + i];
        ck_assert_double_eq_tol(s.out[i], want, 1e-3);
    }
}
END_TEST

/* Block 1 reads what block 0 wrote to z after IBWait for block 0's IBSet. */
__global__ __vector__ void ib_chain(GM_ADDR x, GM_ADDR z, GM_ADDR ws, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b, f;
    pipe.InitBuffer(b, n * sizeof(float));
    pipe.InitBuffer(f, 32);
    AscendC::GlobalTensor<float> xg, zg;
    AscendC::GlobalTensor<int32_t> wg;
    xg.SetGlobalBuffer((__gm__ float *)x);
    zg.SetGlobalBuffer((__gm__ float *)z);
    wg.SetGlobalBuffer((__gm__ int32_t *)ws);
    AscendC::LocalTensor<float> lb = b.Get<float>();
    if (AscendC::GetBlockIdx() == 0) {
        AscendC::DataCopy(lb, xg, n);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(0);
        AscendC::DataCopy(zg, lb, n);
        AscendC::IBSet(wg, f.Get<int32_t>(), 0, 0);
    } else {
        AscendC::IBWait(wg, f.Get<int32_t>(), 0, 0);
        AscendC::DataCopy(lb, zg, n);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(0);
        AscendC::DataCopy(zg[n], lb, n);
    }
}

START_TEST(test_ascendc_ib_set_wait)
{
    const uint32_t n = 2048;
    session s(2 * n);
    std::vector<int32_t> ws(16, 0);
    std::vector<float> zero(2 * n, 0.0f);
    void *w;
    OK(aclrtMalloc(&w, ws.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemcpy(w, ws.size() * 4, ws.data(), ws.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    OK(aclrtMemcpy(s.z, 2 * n * 4, zero.data(), 2 * n * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    ck_assert_uint_eq(::dvac::launch(ib_chain, "ib_chain", 2, nullptr, s.stream)(s.x, s.z, w, n), 0);
    int rc = aclrtSynchronizeStream(s.stream);
    ck_assert_msg(rc == 0, "%s", aclGetRecentErrMsg());
    s.fetch();
    ck_assert_int_eq(std::memcmp(s.out.data() + n, s.in.data(), n * 4), 0);
    OK(aclrtMemcpy(ws.data(), ws.size() * 4, w, ws.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    ck_assert_int_eq(ws[0], 0); /* the waiter took the signal back */
}
END_TEST

/* Scalar GM access around the (unmodelled) data cache: each block doubles its element in place. */
__global__ __vector__ void gm_scalar(GM_ADDR x, GM_ADDR z)
{
    (void)z;
    __gm__ int32_t *p = (__gm__ int32_t *)x + AscendC::DivCeil(AscendC::GetBlockIdx() * 8, 8);
    int32_t v = AscendC::ReadGmByPassDCache(p);
    AscendC::WriteGmByPassDCache(p, 2 * v);
    AscendC::DataSyncBarrier<AscendC::MemDsbT::DDR>();
    AscendC::GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(p, 1);
    AscendC::DataCacheCleanAndInvalid<int32_t, AscendC::CacheLine::SINGLE_CACHE_LINE, AscendC::DcciDst::CACHELINE_OUT>(g);
}

START_TEST(test_ascendc_gm_scalar)
{
    session s(64);
    std::vector<int32_t> v(64), got(64);
    for (int i = 0; i < 64; i++)
        v[(size_t)i] = 3 * i - 50;
    OK(aclrtMemcpy(s.x, 256, v.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE));
    ck_assert_uint_eq(::dvac::launch(gm_scalar, "gm_scalar", 4, nullptr, s.stream)(s.x, s.z), 0);
    OK(aclrtSynchronizeStream(s.stream));
    OK(aclrtMemcpy(got.data(), 256, s.x, 256, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < 64; i++)
        ck_assert_int_eq(got[(size_t)i], i < 4 ? 2 * v[(size_t)i] : v[(size_t)i]);
}
END_TEST

/* A kernel that dereferences its GM pointers (CANN samples read their tiling so): device memory is
 * mapped at the device addresses, so the accesses run natively when the block is generated. */
__global__ __aicore__ void raw_axpy(__gm__ float *a, __gm__ float *b, __gm__ float *dst, float alpha, uint32_t n)
{
    uint32_t per = n / AscendC::GetBlockNum(), base = per * AscendC::GetBlockIdx();
    for (uint32_t i = base; i < base + per; i++)
        dst[i] = a[i] + alpha * b[i];
}

/* A ListTensorDesc argument: the kernel reads the data pointers of its two tensors from the descriptor
 * (device allocations that are not kernel arguments) and adds them; launched <<<1, nullptr>>> (the
 * default stream, the two-argument launch). */
__global__ __aicore__ void list_add(__gm__ uint8_t *desc, __gm__ float *z)
{
    AscendC::ListTensorDesc list((__gm__ void *)desc);
    AscendC::TensorDesc<float> d1;
    uint64_t shape[1];
    d1.SetShapeAddr(shape);
    list.GetDesc(d1, 1);
    if (list.GetSize() != 2 || d1.GetDim() != 1 || d1.GetIndex() != 1 || d1.GetShape(0) != 64)
        AscendC::printf("bad descriptor\n");
    AscendC::GlobalTensor<float> a, b, out;
    a.SetGlobalBuffer(list.GetDataPtr<float>(0), 64);
    b = d1.GetDataObj();
    out.SetGlobalBuffer(z, 64);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    AscendC::LocalTensor<float> ta = buf.Get<float>(), tb = ta[64];
    AscendC::DataCopy(ta, a, 64);
    AscendC::DataCopy(tb, b, 64);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::Add(ta, ta, tb, 64);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(out, ta, 64);
}

START_TEST(test_ascendc_list_tensor_desc)
{
    session s(64);
    void *y = nullptr, *desc = nullptr;
    std::vector<float> yv(64);
    for (int i = 0; i < 64; i++)
        yv[(size_t)i] = (float)(i * i);
    OK(aclrtMalloc(&y, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemcpy(y, 256, yv.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE));
    /* offset word, (dim 1 | index 0 << 32), shape 64, (dim 1 | index 1 << 32), shape 64, the two pointers */
    const uint64_t words[7] = {5 * 8, 1, 64, 1 | 1ull << 32, 64, (uint64_t)(uintptr_t)s.x, (uint64_t)(uintptr_t)y};
    OK(aclrtMalloc(&desc, sizeof words, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemcpy(desc, sizeof words, words, sizeof words, ACL_MEMCPY_HOST_TO_DEVICE));
    ck_assert_uint_eq(::dvac::launch(list_add, "list_add", 1, nullptr)((__gm__ uint8_t *)desc, (__gm__ float *)s.z), 0);
    OK(aclrtSynchronizeDevice());
    s.fetch();
    for (int i = 0; i < 64; i++)
        ck_assert_float_eq(s.out[(size_t)i], s.in[(size_t)i] + yv[(size_t)i]);
    OK(aclrtFree(desc));
    OK(aclrtFree(y));
}
END_TEST

/* DumpTensor of a UB tensor (ld_ub per element) and of an L1 tensor (through the system workspace: an
 * AIC's copy_cbuf_to_gm, then ld_gm): the values printed are the tensor's. */
template <AscendC::TPosition POS> __global__ __aicore__ void dump_kernel(__gm__ float *x)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<POS> buf;
    pipe.InitBuffer(buf, 256);
    AscendC::LocalTensor<float> t = buf.template Get<float>();
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(x, 64);
    AscendC::DataCopy(t, g, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DumpTensor(t, POS == AscendC::TPosition::A1 ? 9 : 7, 12);
}

template <AscendC::TPosition POS> std::string dumped(session &s)
{
    char path[] = "/tmp/dvsim-dump-XXXXXX";
    const int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    std::fflush(stdout);
    const int saved = dup(1);
    dup2(fd, 1);
    const uint32_t rc = ::dvac::launch(dump_kernel<POS>, "dump_kernel", 1, nullptr, s.stream)((__gm__ float *)s.x);
    OK(aclrtSynchronizeStream(s.stream));
    std::fflush(stdout);
    dup2(saved, 1);
    close(saved);
    ck_assert_uint_eq(rc, 0);
    std::string out;
    char b[512];
    ssize_t n;
    lseek(fd, 0, SEEK_SET);
    while ((n = read(fd, b, sizeof b)) > 0)
        out.append(b, (size_t)n);
    close(fd);
    unlink(path);
    return out;
}

START_TEST(test_ascendc_dump_tensor)
{
    session s(64); /* x[i] = 0.25 i - 100 */
    const std::string ub = dumped<AscendC::TPosition::VECCALC>(s), l1 = dumped<AscendC::TPosition::A1>(s);
    ck_assert_msg(ub.find("DumpTensor: desc=7, block=0, position=UB, dtype=f32") != std::string::npos, "%s",
                  ub.c_str());
    ck_assert_msg(ub.find("-100 -99.75 -99.5 -99.25 -99 -98.75 -98.5 -98.25\n-98 -97.75 -97.5 -97.25\n") !=
                      std::string::npos, "%s", ub.c_str());
    ck_assert_msg(l1.find("DumpTensor: desc=9, block=0, position=L1, dtype=f32") != std::string::npos, "%s",
                  l1.c_str());
    ck_assert_msg(l1.find("-100 -99.75 -99.5 -99.25 -99 -98.75 -98.5 -98.25\n-98 -97.75 -97.5 -97.25\n") !=
                      std::string::npos, "%s", l1.c_str());
}
END_TEST

START_TEST(test_ascendc_raw_gm_pointers)
{
    const uint32_t n = 4096;
    session s(n);
    void *b, *pad, *again;
    OK(aclrtMalloc(&pad, 600, ACL_MEM_MALLOC_HUGE_FIRST)); /* b then starts inside a page: 512-byte placement */
    OK(aclrtMalloc(&b, n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ck_assert_uint_ne((uintptr_t)b % 4096, 0);
    OK(aclrtMemcpy(b, n * 4, s.in.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    ck_assert_uint_eq(::dvac::launch(raw_axpy, "raw_axpy", 4, nullptr, s.stream)(s.x, b, s.z, 0.5f, n), 0);
    OK(aclrtSynchronizeStream(s.stream));
    s.fetch();
    for (uint32_t i = 0; i < n; i++)
        ck_assert_float_eq(s.out[i], s.in[i] + 0.5f * s.in[i]);
    /* freed device memory reads zeros when allocated again, shared pages included */
    OK(aclrtFree(b));
    OK(aclrtMalloc(&again, n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ck_assert_ptr_eq(again, b);
    std::vector<float> z(n, 1.0f);
    OK(aclrtMemcpy(z.data(), n * 4, again, n * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < n; i++)
        ck_assert_float_eq(z[i], 0.0f);
}
END_TEST

/* SyncAll: every block publishes its slice to GM, waits for all the others, then sums them all. */
__global__ __vector__ void sync_sum(GM_ADDR x, GM_ADDR z, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b, acc;
    pipe.InitBuffer(b, n * sizeof(float));
    pipe.InitBuffer(acc, n * sizeof(float));
    const uint32_t me = AscendC::GetBlockIdx(), blocks = AscendC::GetBlockNum();
    AscendC::GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x);
    zg.SetGlobalBuffer((__gm__ float *)z); /* blocks x n: each block's published slice, then overwritten */
    AscendC::LocalTensor<float> lb = b.Get<float>(), la = acc.Get<float>();
    AscendC::DataCopy(la, xg[me * n], n);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(0);
    AscendC::DataCopy(zg[me * n], la, n);
    AscendC::SyncAll();
    for (uint32_t i = 0; i < blocks; i++) {
        if (i == me)
            continue;
        AscendC::DataCopy(lb, zg[i * n], n);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
        AscendC::Add(la, la, lb, n);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(0);
    }
    AscendC::SyncAll(); /* nobody overwrites a slice another block may still read */
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(zg[me * n], la, n);
}

START_TEST(test_ascendc_sync_all)
{
    const uint32_t n = 64, blocks = 8;
    session s(n * blocks);
    ck_assert_uint_eq(::dvac::launch(sync_sum, "sync_sum", blocks, nullptr, s.stream)(s.x, s.z, n), 0);
    int rc = aclrtSynchronizeStream(s.stream);
    ck_assert_msg(rc == 0, "%s", aclGetRecentErrMsg());
    s.fetch();
    for (uint32_t i = 0; i < n; i++) {
        double want = 0;
        for (uint32_t b = 0; b < blocks; b++)
            want += s.in[b * n + i];
        for (uint32_t b = 0; b < blocks; b++)
            ck_assert_double_eq_tol(s.out[b * n + i], want, 1e-3);
    }
}
END_TEST

/* The declared core type wins over what the code shows: a __mix__(1, 2) kernel whose AIC does nothing
 * still runs an AIC and two AIVs per block (8 AIVs for 4 blocks); the same body declared only
 * __aicore__ is found to be vector-only (4 AIVs). */
template <bool Mix> static void mark_aivs(GM_ADDR z)
{
    if ASCEND_IS_AIV {
        AscendC::GlobalTensor<int32_t> g;
        g.SetGlobalBuffer((__gm__ int32_t *)z);
        g.SetValue(AscendC::GetBlockIdx(), (int32_t)(100 + AscendC::GetBlockNum() * (Mix ? 10 : 1)));
    }
}
__global__ __mix__(1, 2) __aicore__ void mark_mix(GM_ADDR z) { mark_aivs<true>(z); }
__global__ __aicore__ void mark_plain(GM_ADDR z) { mark_aivs<false>(z); }

START_TEST(test_ascendc_declared_kind)
{
    session s(64);
    std::vector<int32_t> got(16);
    OK(aclrtMemset(s.z, 64 * 4, 0, 64 * 4));
    ck_assert_uint_eq(::dvac::launch(mark_mix, "mark_mix", 4, nullptr, s.stream)(s.z), 0);
    OK(aclrtSynchronizeStream(s.stream));
    OK(aclrtMemcpy(got.data(), 64, s.z, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < 16; i++)
        ck_assert_int_eq(got[(size_t)i], i < 8 ? 140 : 0);
    OK(aclrtMemset(s.z, 64 * 4, 0, 64 * 4));
    ck_assert_uint_eq(::dvac::launch(mark_plain, "mark_plain", 4, nullptr, s.stream)(s.z), 0);
    OK(aclrtSynchronizeStream(s.stream));
    OK(aclrtMemcpy(got.data(), 64, s.z, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < 16; i++)
        ck_assert_int_eq(got[(size_t)i], i < 4 ? 104 : 0);
}
END_TEST

/* ---------------------------------------------------------------- misuse, located */

__global__ __vector__ void odd_copy(GM_ADDR x, GM_ADDR z)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> q;
    AscendC::GlobalTensor<float> xg;
    xg.SetGlobalBuffer((__gm__ float *)x);
    (void)z;
    pipe.InitBuffer(q, 1, 1024);
    AscendC::LocalTensor<float> t = q.AllocTensor<float>();
    AscendC::DataCopy(t, xg, 100); /* 400 bytes: not whole 32-byte blocks */
}

__global__ __vector__ void empty_deque(GM_ADDR x, GM_ADDR z)
{
    (void)x;
    (void)z;
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 2, 1024);
    (void)q.DeQue<float>();
}

__global__ __vector__ void ub_overflow(GM_ADDR x, GM_ADDR z)
{
    (void)x;
    (void)z;
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 2, 128 * 1024);
}

__global__ __vector__ void past_gm(GM_ADDR x, GM_ADDR z)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    AscendC::GlobalTensor<float> xg;
    xg.SetGlobalBuffer((__gm__ float *)x);
    (void)z;
    AscendC::DataCopy(b.Get<float>(), xg[1u << 24], 1024); /* far past both allocations */
}

__global__ __vector__ void straddle(GM_ADDR x, GM_ADDR z)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    AscendC::GlobalTensor<float> zg;
    zg.SetGlobalBuffer((__gm__ float *)z);
    (void)x;
    AscendC::DataCopy(b.Get<float>(), zg[1016], 1024); /* z, the last allocation, has 1024 floats */
}

__global__ __vector__ void copy_past_tensor(GM_ADDR x, GM_ADDR z)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 256);
    AscendC::GlobalTensor<float> xg;
    xg.SetGlobalBuffer((__gm__ float *)x);
    (void)z;
    AscendC::DataCopy(b.Get<float>(), xg, 128); /* 512 bytes into a 256-byte buffer */
}

__global__ __vector__ void bad_assert(GM_ADDR x, GM_ADDR z)
{
    (void)x;
    (void)z;
    assert(block_idx == 1, "block %lld of %lld", (long long)block_idx, (long long)block_num);
}

/* Launch `fn` on one block; the synchronisation fails with the model's code and the message holds
 * this file, the API and `what`. */
static void fails_at(void (*fn)(GM_ADDR, GM_ADDR), const char *api, const char *what)
{
    session s(1024);
    ck_assert_uint_eq(::dvac::launch(fn, "bad", 1, nullptr, s.stream)(s.x, s.z), 0);
    int rc = aclrtSynchronizeStream(s.stream);
    const char *m = aclGetRecentErrMsg();
    ck_assert_msg(rc != ACL_SUCCESS, "the kernel ran (%s)", api);
    ck_assert_msg(m && std::strstr(m, "check_ascendc.cpp:") && std::strstr(m, api) && std::strstr(m, what),
                  "message '%s' lacks the file, '%s' or '%s'", m ? m : "(null)", api, what);
}

START_TEST(test_ascendc_errors_located)
{
    fails_at(odd_copy, "DataCopy:", "not a whole number of 32-byte blocks");
    fails_at(empty_deque, "DeQue:", "the queue is empty");
    fails_at(ub_overflow, "InitBuffer:", "core.ub_size_bytes");
    fails_at(past_gm, "DataCopy:", "is not inside any GM argument");
    fails_at(straddle, "DataCopy:", "pass the end of the argument's allocation");
    fails_at(bad_assert, "assert:", "assertion failed: block_idx == 1: block 0 of 1");
    fails_at(copy_past_tensor, "DataCopy:", "pass the end of a tensor");
}
END_TEST

/* A NULL or host pointer argument: NULL is left out of the GM arguments, a host pointer refused. */
START_TEST(test_ascendc_host_pointer_refused)
{
    session s(1024);
    float host[8];
    ck_assert_uint_ne(::dvac::launch(copy_kernel, "copy_kernel", 1, nullptr, s.stream)(host, s.z, 1024u), 0);
    ck_assert_ptr_nonnull(std::strstr(aclGetRecentErrMsg(), "not inside a device allocation"));
}
END_TEST

extern "C" Suite *dv_ascendc_suite(void)
{
    Suite *s = suite_create("ascendc");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_ascendc_copy_through_queue);
    tcase_add_test(tc, test_ascendc_same_cycles_as_kapi);
    tcase_add_test(tc, test_ascendc_hotspot_lines);
    tcase_add_test(tc, test_ascendc_tiling_from_gm);
    tcase_add_test(tc, test_ascendc_tiling_data_def);
    tcase_add_test(tc, test_ascendc_kind_probed);
    tcase_add_test(tc, test_ascendc_scalar_ub_access);
    tcase_add_test(tc, test_ascendc_system_cycle);
    tcase_add_test(tc, test_ascendc_atomic_add);
    tcase_add_test(tc, test_ascendc_ib_set_wait);
    tcase_add_test(tc, test_ascendc_gm_scalar);
    tcase_add_test(tc, test_ascendc_raw_gm_pointers);
    tcase_add_test(tc, test_ascendc_list_tensor_desc);
    tcase_add_test(tc, test_ascendc_dump_tensor);
    tcase_add_test(tc, test_ascendc_sync_all);
    tcase_add_test(tc, test_ascendc_declared_kind);
    tcase_add_test(tc, test_ascendc_errors_located);
    tcase_add_test(tc, test_ascendc_host_pointer_refused);
    suite_add_tcase(s, tc);
    return s;
}
