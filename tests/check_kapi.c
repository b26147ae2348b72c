/* tests/check_kapi.c - the C kernel API: kernels as lazily generated instruction streams, queues,
 * the scalar cost rule, record/replay equality, and kernel errors with their location. */
#include <check.h>
#include <fenv.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dv/kapi.h"
#include "dv/sim.h"
#include "dv/trace.h"
#include "support/dvt.h"

/* ---- a double-buffered fp32 add, Ascend C style (CopyIn / Compute / CopyOut) ---- */
typedef struct addp {
    uint64_t n;       /* elements per block */
    uint32_t tile;    /* elements per copy, a multiple of 64 */
    uint32_t depth;   /* queue depth */
} addp_t;

static void add_kernel(dv_k_t *k, const void *pv)
{
    const addp_t *p = pv;
    uint64_t base = dvk_block_idx(k) * p->n;
    dv_que_t qx, qy, qz;
    dvk_que_init(k, &qx, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, p->depth, p->tile * 4);
    dvk_que_init(k, &qy, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, p->depth, p->tile * 4);
    dvk_que_init(k, &qz, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, p->depth, p->tile * 4);
    for (uint64_t t = 0; t < p->n; t += p->tile) {
        uint64_t off = (base + t) * 4;
        uint64_t x = dvk_que_alloc(k, &qx);
        dvk_copy_gm_to_ubuf(k, x, dvk_gm(k, 0, off), 1, p->tile * 4 / 32, 0, 0);
        dvk_que_enque(k, &qx, x);
        uint64_t y = dvk_que_alloc(k, &qy);
        dvk_copy_gm_to_ubuf(k, y, dvk_gm(k, 1, off), 1, p->tile * 4 / 32, 0, 0);
        dvk_que_enque(k, &qy, y);

        x = dvk_que_deque(k, &qx);
        y = dvk_que_deque(k, &qy);
        uint64_t z = dvk_que_alloc(k, &qz);
        dvk_vadd(k, z, x, y, DV_DT_F32, p->tile / 64, 1, 1, 1, 8, 8, 8);
        dvk_que_free(k, &qx, x);
        dvk_que_free(k, &qy, y);
        dvk_que_enque(k, &qz, z);

        z = dvk_que_deque(k, &qz);
        dvk_copy_ubuf_to_gm(k, dvk_gm(k, 2, off), z, 1, p->tile * 4 / 32, 0, 0);
        dvk_que_free(k, &qz, z);
    }
}

static void add_info(dv_kernel_info_t *info, dv_arg_t args[3], uint32_t blocks, uint64_t n)
{
    memset(info, 0, sizeof *info);
    memset(args, 0, 3 * sizeof *args);
    snprintf(info->name, sizeof info->name, "kadd");
    info->kind = DV_KIND_VECTOR;
    info->blocks = blocks;
    info->nargs = 3;
    info->args = args;
    const char *names[3] = {"x", "y", "z"};
    for (int i = 0; i < 3; i++) {
        snprintf(args[i].name, sizeof args[i].name, "%s", names[i]);
        args[i].bytes = blocks * n * 4;
        args[i].dtype = DV_DT_F32;
        args[i].dir = i < 2 ? DV_ARG_IN : DV_ARG_OUT;
        args[i].init = i < 2 ? DV_INIT_RANDOM : DV_INIT_ZERO;
        args[i].seed = (uint64_t)i + 11;
    }
}

/* Run a kernel object with data on a fresh model of cfg, keeping the occupancy series or not
 * (dv_run_opts_t.series); returns the status, counters and GM in r. */
static int run_kernel_series(dvt_run_t *r, const dv_config_t *cfg, dv_kernel_t *k, bool series)
{
    memset(r, 0, sizeof *r);
    r->cfg = *cfg;
    r->rc = dv_sim_gm_setup(cfg, &k->info, true, "", DV_GM_BASE, &r->gm, &r->err);
    if (r->rc == DV_OK) {
        dv_model_t *m = dvt_model(cfg);
        dv_run_opts_t o;
        dv_run_opts_default(&o);
        ck_assert(o.series); /* the default keeps it */
        o.series = series;
        r->rc = dv_model_run(m, k, &r->gm, &o, &r->cnt, &r->err);
        dv_model_destroy(m);
    }
    return r->rc;
}

/* The same with the default options. */
static int run_kernel(dvt_run_t *r, const dv_config_t *cfg, dv_kernel_t *k) { return run_kernel_series(r, cfg, k, true); }

static void free_run(dvt_run_t *r)
{
    if (r->rc == DV_OK)
        dv_counters_free(&r->cnt);
    dv_sim_gm_free(&r->gm);
}

START_TEST(test_kapi_add_kernel_computes_and_double_buffers)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dv_kernel_info_t info;
    dv_arg_t args[3];
    add_info(&info, args, 4, 8192);
    uint64_t cycles[2];
    for (uint32_t depth = 1; depth <= 2; depth++) {
        addp_t p = {8192, 1024, depth};
        dv_kernel_t *k;
        dv_error_t err;
        ck_assert_int_eq(dvk_kernel_create(&cfg, &info, add_kernel, &p, sizeof p, &k, &err), DV_OK);
        dvt_run_t r;
        ck_assert_msg(run_kernel(&r, &cfg, k) == DV_OK, "%s", r.err.msg);
        ck_assert_uint_eq(r.cnt.hazards, 0);
        const float *x = (const float *)r.gm.data[0], *y = (const float *)r.gm.data[1], *z = (const float *)r.gm.data[2];
        for (uint64_t i = 0; i < 4 * 8192; i++)
            ck_assert_msg(z[i] == x[i] + y[i], "element %llu", (unsigned long long)i);
        /* 8 tiles per block: 8 vadds, 16 + 8 copies, per block */
        ck_assert_uint_eq(r.cnt.op_count[DV_OP_vadd], 4 * 8);
        ck_assert_uint_eq(r.cnt.op_count[DV_OP_copy_gm_to_ubuf], 4 * 16);
        cycles[depth - 1] = r.cnt.cycles;
        free_run(&r);
        dvk_kernel_destroy(k);
    }
    ck_assert_msg(cycles[1] < cycles[0], "double buffering: %llu cycles, single: %llu", (unsigned long long)cycles[1],
                  (unsigned long long)cycles[0]);
}
END_TEST

START_TEST(test_kapi_record_replays_with_same_cycles_and_bytes)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dv_kernel_info_t info;
    dv_arg_t args[3];
    add_info(&info, args, 3, 4096);
    addp_t p = {4096, 512, 2};
    dv_kernel_t *k, *t = NULL;
    dv_error_t err;
    char path[] = "/tmp/dvsim-kapi-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(dvk_kernel_create(&cfg, &info, add_kernel, &p, sizeof p, &k, &err), DV_OK);
    ck_assert_msg(dvk_kernel_record(k, path, &err) == DV_OK, "%s", err.msg);
    /* The replay and the original each run on a fresh model, so both start with a cold L2. */
    dvt_run_t b;
    ck_assert_msg(dv_trace_open(path, &t, &err) == DV_OK, "%s", err.msg);
    ck_assert_msg(run_kernel(&b, &cfg, t) == DV_OK, "%s", b.err.msg);
    uint64_t replay[3] = {b.cnt.cycles, b.cnt.op_count[DV_OP_scalar], 1};
    for (uint64_t i = 0; i < b.gm.bytes[2]; i++)
        replay[2] = replay[2] * 1099511628211ull ^ b.gm.data[2][i];
    free_run(&b);
    dv_trace_close(t);
    dvt_run_t a;
    ck_assert_msg(run_kernel(&a, &cfg, k) == DV_OK, "%s", a.err.msg);
    uint64_t hash = 1;
    for (uint64_t i = 0; i < a.gm.bytes[2]; i++)
        hash = hash * 1099511628211ull ^ a.gm.data[2][i];
    ck_assert_uint_gt(a.cnt.op_count[DV_OP_scalar], 0); /* the bookkeeping charges are in the stream */
    ck_assert_uint_eq(a.cnt.cycles, replay[0]);
    ck_assert_uint_eq(a.cnt.op_count[DV_OP_scalar], replay[1]);
    ck_assert_uint_eq(hash, replay[2]);
    free_run(&a);
    dvk_kernel_destroy(k);
    unlink(path);
}
END_TEST

/* ---- the scalar cost rule: bookkeeping calls coalesce into one scalar instruction ---- */
static void bookkeeping_kernel(dv_k_t *k, const void *p)
{
    (void)p;
    uint64_t a = dvk_alloc(k, DV_SPACE_UB, 256);
    uint64_t b = dvk_alloc(k, DV_SPACE_UB, 256);
    dvk_vadd(k, b, a, a, DV_DT_F32, 1, 1, 1, 1, 8, 8, 8);
    dvk_scalar(k, 5);
}

START_TEST(test_kapi_bookkeeping_charged_as_one_scalar_instruction)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, (const char *const[]){"scalar.bookkeeping_cycles=7", NULL});
    dv_kernel_info_t info = {.name = "bk", .kind = DV_KIND_VECTOR, .blocks = 1};
    dv_kernel_t *k;
    dv_error_t err;
    ck_assert_int_eq(dvk_kernel_create(&cfg, &info, bookkeeping_kernel, NULL, 0, &k, &err), DV_OK);
    dv_stream_t *s;
    ck_assert_int_eq(k->open(k, 0, 0, &s, &err), DV_OK);
    dv_insn_t in[4];
    int n = 0;
    while (n < 4 && s->next(s, &in[n], &err) == 1)
        n++;
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(in[0].op, DV_OP_scalar);
    ck_assert_int_eq(in[0].f[DV_FLD(SCALAR, cycles)].i, 14); /* two allocations x 7 */
    ck_assert_int_eq(in[1].op, DV_OP_vadd);
    ck_assert_int_eq(in[2].op, DV_OP_scalar);
    ck_assert_int_eq(in[2].f[DV_FLD(SCALAR, cycles)].i, 5);
    s->close(s);
    dvk_kernel_destroy(k);
}
END_TEST

/* ---- mix kernels: one stream per core of an AI core, for any chip.aiv_per_core ---- */
static void where_kernel(dv_k_t *k, const void *p)
{
    (void)p;
    if (dvk_sub(k) == DV_SUB_AIV0 + 2)
        dvk_fail(k, "stop");
    dvk_scalar(k, 1 + 10 * dvk_is_aic(k) + 100 * dvk_is_aiv(k) + 1000 * (int64_t)dvk_sub(k));
}

START_TEST(test_kapi_mix_kernel_follows_aiv_per_core)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, (const char *const[]){"chip.aiv_per_core=3", NULL});
    dv_kernel_info_t info = {.name = "where", .kind = DV_KIND_MIX, .blocks = 1};
    dv_kernel_t *k;
    dv_error_t err;
    ck_assert_int_eq(dvk_kernel_create(&cfg, &info, where_kernel, NULL, 0, &k, &err), DV_OK);
    ck_assert_uint_eq(k->info.subs, 4); /* aic, aiv0, aiv1, aiv2 */
    for (uint32_t sub = 0; sub < 4; sub++) {
        dv_stream_t *s;
        dv_insn_t in;
        ck_assert_int_eq(k->open(k, 0, sub, &s, &err), DV_OK);
        if (sub == 3) {
            ck_assert_int_lt(s->next(s, &in, &err), 0);
            ck_assert_str_eq(err.msg, "stop (block 0 aiv2, after instruction #0)");
        } else {
            ck_assert_int_eq(s->next(s, &in, &err), 1);
            ck_assert_int_eq(in.f[DV_FLD(SCALAR, cycles)].i, sub == 0 ? 11 : 101 + 1000 * (int64_t)sub);
        }
        s->close(s);
    }
    dv_stream_t *s;
    ck_assert_int_eq(k->open(k, 0, 4, &s, &err), DV_ERR_RANGE);
    dvk_kernel_destroy(k);
    /* a coupled chip has no AIC/AIV pair to run it */
    dvt_config(&cfg, "ascend310", NULL);
    ck_assert_int_eq(dvk_kernel_create(&cfg, &info, where_kernel, NULL, 0, &k, &err), DV_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err.msg, "kernel 'where' is a mix kernel, which needs a split (AIC + AIV) chip"));
    /* on a coupled core every stream is both */
    info.kind = DV_KIND_VECTOR;
    ck_assert_int_eq(dvk_kernel_create(&cfg, &info, where_kernel, NULL, 0, &k, &err), DV_OK);
    dv_insn_t in;
    ck_assert_int_eq(k->open(k, 0, 0, &s, &err), DV_OK);
    ck_assert_int_eq(s->next(s, &in, &err), 1);
    ck_assert_int_eq(in.f[DV_FLD(SCALAR, cycles)].i, 111);
    s->close(s);
    dvk_kernel_destroy(k);
}
END_TEST

/* ---- long blocks stream through the coroutine buffer ---- */
static void long_kernel(dv_k_t *k, const void *p)
{
    uint64_t n = *(const uint64_t *)p;
    for (uint64_t i = 0; i < n; i++)
        dvk_scalar(k, 1 + (int64_t)(i % 3));
}

/* A block of 100,003 instructions crosses the buffer's end 97 times on a thread, 781 on a fiber
 * (dvk_kernel_on_fibers): every instruction arrives, once, in order, either way. */
static void long_block_streams(bool fibers)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dv_kernel_info_t info = {.name = "long", .kind = DV_KIND_VECTOR, .blocks = 2};
    uint64_t n = 100003;
    dv_kernel_t *k;
    dv_error_t err;
    ck_assert_int_eq(dvk_kernel_create(&cfg, &info, long_kernel, &n, sizeof n, &k, &err), DV_OK);
    if (fibers)
        dvk_kernel_on_fibers(k);
    dvt_run_t r;
    ck_assert_msg(run_kernel(&r, &cfg, k) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.instructions, 2 * n);
    /* S busy: sum of 1,2,3,... cycles; each block runs alone on its core from dvt_t0 */
    uint64_t busy = 0;
    for (uint64_t i = 0; i < n; i++)
        busy += 1 + i % 3;
    int ran = 0;
    for (uint32_t c = 0; c < r.cnt.ncores; c++)
        if (r.cnt.cores[c].instructions) {
            ck_assert_uint_eq(r.cnt.cores[c].instructions, n);
            ck_assert_uint_eq(r.cnt.cores[c].pipe_busy[DV_PIPE_S], busy);
            ran++;
        }
    ck_assert_int_eq(ran, 2);
    free_run(&r);
    dvk_kernel_destroy(k);
}

START_TEST(test_kapi_long_block_streams_every_instruction)
{
    long_block_streams(false);
    long_block_streams(true);
}
END_TEST

/* ---- a fiber's switch keeps each side's registers and floating-point rounding ---- */
/* Twelve values live in registers across every instruction (and so across each of the 1,250
 * switches of 10,000 instructions on a fiber), and an upward rounding mode set inside the kernel:
 * each instruction's cycles come from them, so a register the switch lost changes the scalar
 * unit's busy cycles, and the kernel counts the instructions that did not see its rounding. */
typedef struct regp {
    uint64_t n;
    int *lost_rounding; /* instructions emitted while the kernel's rounding mode was not upward */
} regp_t;

static uint64_t reg_cycles(uint64_t a[12]) /* the next instruction's cycles, 1 .. 7, from all twelve */
{
    uint64_t h = 0;
    for (int j = 0; j < 12; j++)
        h = h * 31 + a[j];
    return 1 + h % 7;
}

static void reg_step(uint64_t a[12], uint64_t i)
{
    for (int j = 0; j < 12; j++)
        a[j] = a[j] * 6364136223846793005ull + (i ^ (uint64_t)j) + 1442695040888963407ull;
}

static void reg_kernel(dv_k_t *k, const void *pv)
{
    const regp_t *p = pv;
    fesetround(FE_UPWARD);
    uint64_t a0 = 1, a1 = 2, a2 = 3, a3 = 4, a4 = 5, a5 = 6, a6 = 7, a7 = 8, a8 = 9, a9 = 10, a10 = 11, a11 = 12;
    for (uint64_t i = 0; i < p->n; i++) {
        uint64_t a[12] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11};
        dvk_scalar(k, (int64_t)reg_cycles(a));
        volatile double third = 1.0 / 3.0, down = -third; /* rounded up: -0.333...3 is above -1/3 */
        *p->lost_rounding += fegetround() != FE_UPWARD || (float)down != -0x1.555554p-2f;
        reg_step(a, i);
        a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4], a5 = a[5];
        a6 = a[6], a7 = a[7], a8 = a[8], a9 = a[9], a10 = a[10], a11 = a[11];
    }
    fesetround(FE_TONEAREST);
}

START_TEST(test_kapi_fiber_switch_keeps_registers_and_rounding)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dv_kernel_info_t info = {.name = "regs", .kind = DV_KIND_VECTOR, .blocks = 2};
    int lost = 0;
    const regp_t p = {10000, &lost};
    uint64_t a[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, busy = 0;
    for (uint64_t i = 0; i < p.n; i++) {
        busy += reg_cycles(a);
        reg_step(a, i);
    }
    for (int fibers = 0; fibers <= 1; fibers++) {
        dv_kernel_t *k;
        dv_error_t err;
        ck_assert_int_eq(dvk_kernel_create(&cfg, &info, reg_kernel, &p, sizeof p, &k, &err), DV_OK);
        if (fibers)
            dvk_kernel_on_fibers(k);
        lost = 0;
        dvt_run_t r;
        ck_assert_msg(run_kernel(&r, &cfg, k) == DV_OK, "%s", r.err.msg);
        ck_assert_int_eq(fegetround(), FE_TONEAREST); /* the model's own, kept across the switches */
        ck_assert_int_eq(lost, 0);
        for (uint32_t c = 0; c < r.cnt.ncores; c++)
            if (r.cnt.cores[c].instructions)
                ck_assert_uint_eq(r.cnt.cores[c].pipe_busy[DV_PIPE_S], busy);
        ck_assert_uint_eq(r.cnt.instructions, 2 * p.n);
        free_run(&r);
        dvk_kernel_destroy(k);
    }
}
END_TEST

/* ---- where a kernel function runs: its own thread, or (dvk_kernel_on_fibers) the model's ---- */
static pthread_t g_model_thread;
static int g_blocks_on_model_thread;

static void thread_kernel(dv_k_t *k, const void *p)
{
    (void)p;
    g_blocks_on_model_thread += pthread_equal(pthread_self(), g_model_thread) != 0;
    dvk_scalar(k, 1);
}

START_TEST(test_kapi_fibers_run_on_the_model_thread)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dv_kernel_info_t info = {.name = "where", .kind = DV_KIND_VECTOR, .blocks = 3};
    g_model_thread = pthread_self();
    for (int fibers = 0; fibers <= 1; fibers++) {
        dv_kernel_t *k;
        dv_error_t err;
        ck_assert_int_eq(dvk_kernel_create(&cfg, &info, thread_kernel, NULL, 0, &k, &err), DV_OK);
        if (fibers)
            dvk_kernel_on_fibers(k);
        g_blocks_on_model_thread = 0;
        dvt_run_t r;
        ck_assert_msg(run_kernel(&r, &cfg, k) == DV_OK, "%s", r.err.msg);
        ck_assert_uint_eq(r.cnt.instructions, 3);
        ck_assert_int_eq(g_blocks_on_model_thread, fibers ? 3 : 0);
        free_run(&r);
        dvk_kernel_destroy(k);
    }
}
END_TEST

/* ---- kernel errors stop the run with the kernel, block and instruction ---- */
typedef struct errp {
    int what;
} errp_t;

static void error_kernel(dv_k_t *k, const void *pv)
{
    const errp_t *p = pv;
    uint64_t ub = dvk_alloc(k, DV_SPACE_UB, 1024);
    dvk_vadd(k, ub, ub, ub, DV_DT_F32, 1, 1, 1, 1, 8, 8, 8);
    if (dvk_block_idx(k) != 1) {
        /* other blocks are long: they are still suspended when block 1 fails and the run stops */
        for (int i = 0; p->what == 4 && i < 100000; i++)
            dvk_scalar(k, 1);
        return;
    }
    if (p->what == 0)
        dvk_alloc(k, DV_SPACE_UB, dvk_config(k)->ub_size_bytes);
    else if (p->what == 1)
        for (int i = 0; i < 20; i++)
            dvk_event_alloc(k, DV_PIPE_MTE2, DV_PIPE_V);
    else if (p->what == 2)
        dvk_vadd(k, ub, ub, ub, DV_DT_F32, 300, 1, 1, 1, 8, 8, 8);
    else if (p->what == 3)
        dvk_vadd(k, ub, ub, ub, DV_DT_S8, 1, 1, 1, 1, 8, 8, 8);
    else if (p->what == 5)
        dvk_emit(k, (dv_op_t)1000, NULL, 0);
    else if (p->what == 6)
        dvk_emit(k, DV_OP_scalar, (const dv_val_t[]){{.i = 1}, {.i = 2}}, 2);
    else
        dvk_fail(k, "tiling %d is not supported", 42);
}

/* Each error the same on a thread and on a fiber (dvk_kernel_on_fibers), where the failing block's
 * fiber is left where it failed and the others' (still suspended: case 4) run on to their end
 * without emitting, as their threads do. */
static void expect_error(int what, const char *const needles[])
{
    for (int fibers = 0; fibers <= 1; fibers++) {
        dv_config_t cfg;
        dvt_config(&cfg, NULL, NULL);
        dv_kernel_info_t info = {.name = "bad", .kind = DV_KIND_VECTOR, .blocks = 3};
        errp_t p = {what};
        dv_kernel_t *k;
        dv_error_t err;
        ck_assert_int_eq(dvk_kernel_create(&cfg, &info, error_kernel, &p, sizeof p, &k, &err), DV_OK);
        if (fibers)
            dvk_kernel_on_fibers(k);
        dvt_run_t r;
        ck_assert_int_ne(run_kernel(&r, &cfg, k), DV_OK);
        ck_assert_str_eq(r.err.file, "kernel bad");
        ck_assert_msg(strstr(r.err.msg, "block 1"), "%s", r.err.msg);
        for (int i = 0; needles[i]; i++)
            ck_assert_msg(strstr(r.err.msg, needles[i]), "'%s' not in: %s (fibers %d)", needles[i], r.err.msg, fibers);
        free_run(&r);
        dvk_kernel_destroy(k);
    }
}

START_TEST(test_kapi_buffer_overflow_is_located)
{
    expect_error(0, (const char *const[]){"ub allocation", "core.ub_size_bytes", NULL});
}
END_TEST

START_TEST(test_kapi_event_ids_exhausted_is_located)
{
    expect_error(1, (const char *const[]){"MTE2 -> V", "sync.event_ids", NULL});
}
END_TEST

START_TEST(test_kapi_bad_operand_is_located)
{
    expect_error(2, (const char *const[]){"repeat", "out of range", "instruction #", NULL});
}
END_TEST

START_TEST(test_kapi_bad_dtype_is_located)
{
    expect_error(3, (const char *const[]){"vadd", "dtype s8", NULL});
}
END_TEST

START_TEST(test_kapi_kernel_fail_is_located)
{
    expect_error(4, (const char *const[]){"tiling 42 is not supported", NULL});
}
END_TEST

START_TEST(test_kapi_bad_opcode_or_operand_count_is_located)
{
    expect_error(5, (const char *const[]){"invalid opcode 1000 (block 1, after instruction #2)", NULL});
    expect_error(6, (const char *const[]){"scalar takes 1 operands, not 2 (block 1, after instruction #2)", NULL});
}
END_TEST

/* Bookkeeping charged before an instruction: its `scalar` instruction goes first, in the slot the
 * instruction was built in, also where the pair straddles a hand-over of the buffer (1, 2 or 3
 * charges before each of many set_flags, so the pairs fall on every position of every buffer). */
static void charged_kernel(dv_k_t *k, const void *pv)
{
    const uint32_t n = *(const uint32_t *)pv;
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t c = 0; c < i % 4; c++)
            dvk_bookkeeping(k);
        dvk_set_flag(k, DV_PIPE_MTE2, DV_PIPE_V, (int)(i % 8));
    }
}

START_TEST(test_kapi_charges_go_before_their_instruction)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    ck_assert_uint_gt(cfg.scalar_bookkeeping_cycles, 0);
    const uint32_t n = 5000;
    dv_kernel_info_t info = {.name = "charged", .kind = DV_KIND_VECTOR, .blocks = 1};
    dv_kernel_t *k;
    dv_error_t err;
    ck_assert_int_eq(dvk_kernel_create(&cfg, &info, charged_kernel, &n, sizeof n, &k, &err), DV_OK);
    dv_stream_t *s;
    ck_assert_int_eq(k->open(k, 0, DV_SUB_MAIN, &s, &err), DV_OK);
    dv_insn_t in;
    for (uint32_t i = 0; i < n; i++) {
        if (i % 4) {
            ck_assert_int_eq(s->next(s, &in, &err), 1);
            ck_assert_uint_eq(in.op, DV_OP_scalar);
            ck_assert_uint_eq(in.nf, 1);
            ck_assert_int_eq(in.f[DV_FLD(SCALAR, cycles)].i, (int64_t)(i % 4 * cfg.scalar_bookkeeping_cycles));
        }
        ck_assert_int_eq(s->next(s, &in, &err), 1);
        ck_assert_uint_eq(in.op, DV_OP_set_flag);
        ck_assert_uint_eq(in.nf, 3);
        ck_assert_int_eq(in.f[DV_FLD(FLAG, id)].i, (int64_t)(i % 8));
    }
    ck_assert_int_eq(s->next(s, &in, &err), 0);
    s->close(s);
    dvk_kernel_destroy(k);
}
END_TEST

/* ---- dvk_emit's check (dv_insn_check's quick pass inline per op) against dv_insn_check ---- */
typedef struct emitp {
    const dv_insn_t *list;
    uint32_t n;
} emitp_t;

static void emit_list_kernel(dv_k_t *k, const void *pv)
{
    const emitp_t *p = pv;
    for (uint32_t i = 0; i < p->n; i++)
        dvk_emit(k, (dv_op_t)p->list[i].op, p->list[i].f, p->list[i].nf);
}

/* Read block 0 of a kernel emitting list[0..n-1] straight from its stream (no model): each
 * instruction handed over must equal the one emitted; returns the stream's last status. */
static int emit_list(const dv_config_t *cfg, const dv_insn_t *list, uint32_t n, uint32_t *got, dv_error_t *err)
{
    dv_kernel_info_t info = {.name = "emit", .kind = DV_KIND_MIX, .blocks = 1};
    emitp_t p = {list, n};
    dv_kernel_t *k;
    ck_assert_int_eq(dvk_kernel_create(cfg, &info, emit_list_kernel, &p, sizeof p, &k, err), DV_OK);
    dv_stream_t *s;
    ck_assert_int_eq(k->open(k, 0, DV_SUB_AIC, &s, err), DV_OK);
    dv_insn_t in;
    int rc;
    *got = 0;
    while ((rc = s->next(s, &in, err)) == 1) {
        ck_assert_uint_lt(*got, n);
        const dv_insn_t *want = &list[*got];
        ck_assert_uint_eq(in.op, want->op);
        ck_assert_uint_eq(in.nf, want->nf);
        ck_assert_uint_eq(in.line, 0);
        ck_assert(memcmp(in.f, want->f, want->nf * sizeof in.f[0]) == 0);
        (*got)++;
    }
    s->close(s);
    dvk_kernel_destroy(k);
    return rc;
}

START_TEST(test_kapi_emit_check_matches_insn_check)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    /* every op, fields mostly in range, each now and then at or past an edge of its range (an address
     * in another space, a dtype out of the op's set, the rules across fields broken) */
    enum { PER_OP = 60 };
    static dv_insn_t good[DV_OP_COUNT * PER_OP];
    uint32_t ngood = 0, nbad = 0;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int op = 0; op < DV_OP_COUNT; op++)
        for (int t = 0; t < PER_OP; t++) {
            const dv_insn_rules_t *r = dv_insn_rules((dv_op_t)op);
            dv_insn_t in;
            memset(&in, 0, sizeof in);
            in.op = (uint16_t)op;
            in.nf = r->nf;
            for (int i = 0; i < r->nf; i++) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                const uint64_t v = x >> 11, pick = (x >> 4) % 16, span = r->span[i];
                switch (pick) {
                case 0: in.f[i].u = r->lo[i]; break;
                case 1: in.f[i].u = r->lo[i] + span; break;
                case 2: in.f[i].u = t % 8 == 0 ? r->lo[i] - 1 : r->lo[i]; break;
                case 3: in.f[i].u = t % 8 == 1 ? r->lo[i] + span + 1 : r->lo[i] + span; break;
                case 4: in.f[i].u = t % 8 == 2 ? v : r->lo[i]; break;
                default: in.f[i].u = r->lo[i] + (span == UINT64_MAX ? v : v % (span + 1));
                }
            }
            dv_error_t want;
            if (dv_insn_check(&in, &want) == DV_OK) {
                good[ngood++] = in;
                continue;
            }
            /* a bad instruction ends its kernel with dv_insn_check's message, located */
            nbad++;
            const dv_insn_t two[2] = {good[0], in}; /* one good instruction before it */
            uint32_t got;
            dv_error_t err;
            ck_assert_int_lt(emit_list(&cfg, ngood ? two : &in, ngood ? 2 : 1, &got, &err), 0);
            ck_assert_uint_eq(got, ngood ? 1 : 0);
            char inner[600], msg[sizeof err.msg]; /* (dvk_fail's message, then its location) */
            snprintf(inner, sizeof inner, "instruction #%u: %.*s", ngood ? 1 : 0, 500, want.msg);
            snprintf(msg, sizeof msg, "%s (block 0 aic, after instruction #%u)", inner, ngood ? 1 : 0);
            ck_assert_str_eq(err.msg, msg);
        }
    /* the good ones, in one stream (several buffers' worth), each handed over as emitted */
    uint32_t got;
    dv_error_t err;
    ck_assert_int_eq(emit_list(&cfg, good, ngood, &got, &err), 0);
    ck_assert_uint_eq(got, ngood);
    ck_assert_uint_gt(nbad, DV_OP_COUNT);
    ck_assert_uint_gt(ngood, 1500);
}
END_TEST

/* ---- queue misuse ---- */
static void que_misuse_kernel(dv_k_t *k, const void *p)
{
    (void)p;
    dv_que_t q;
    dvk_que_init(k, &q, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 1, 256);
    dvk_que_deque(k, &q);
}

START_TEST(test_kapi_deque_of_empty_queue_is_an_error_not_a_deadlock)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dv_kernel_info_t info = {.name = "q", .kind = DV_KIND_VECTOR, .blocks = 1};
    dv_kernel_t *k;
    dv_error_t err;
    ck_assert_int_eq(dvk_kernel_create(&cfg, &info, que_misuse_kernel, NULL, 0, &k, &err), DV_OK);
    dvt_run_t r;
    ck_assert_int_ne(run_kernel(&r, &cfg, k), DV_OK);
    ck_assert_msg(strstr(r.err.msg, "nothing enqueued"), "%s", r.err.msg);
    free_run(&r);
    dvk_kernel_destroy(k);
}
END_TEST

/* dv_run_opts_t.series off keeps no occupancy over time: the series are all 0 and every other
 * counter is the run's with it on (cycles, instructions, and each core's peak and byte_cycles to
 * the bit); on, the UB series of a core that ran carries the data it held. */
START_TEST(test_kapi_series_off_changes_nothing_else)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dv_kernel_info_t info;
    dv_arg_t args[3];
    add_info(&info, args, 4, 8192);
    addp_t p = {8192, 1024, 2};
    dv_kernel_t *k;
    dv_error_t err;
    ck_assert_int_eq(dvk_kernel_create(&cfg, &info, add_kernel, &p, sizeof p, &k, &err), DV_OK);
    dvt_run_t r[2];
    for (int on = 0; on < 2; on++)
        ck_assert_msg(run_kernel_series(&r[on], &cfg, k, on) == DV_OK, "%s", r[on].err.msg);
    ck_assert_uint_eq(r[0].cnt.cycles, r[1].cnt.cycles);
    ck_assert_uint_eq(r[0].cnt.instructions, r[1].cnt.instructions);
    ck_assert_uint_eq(r[0].cnt.ncores, r[1].cnt.ncores);
    double on_ub = 0;
    for (uint32_t c = 0; c < r[0].cnt.ncores; c++)
        for (int s = 1; s < DV_SPACE_COUNT; s++) {
            const dv_buf_counters_t *off = &r[0].cnt.cores[c].buf[s], *with = &r[1].cnt.cores[c].buf[s];
            ck_assert_uint_eq(off->peak_bytes, with->peak_bytes);
            ck_assert(memcmp(&off->byte_cycles, &with->byte_cycles, sizeof(double)) == 0);
            for (int i = 0; i < DV_OCC_SLICES; i++) {
                ck_assert_double_eq(off->series[i], 0.0);
                if (s == DV_SPACE_UB)
                    on_ub += with->series[i];
            }
        }
    ck_assert_double_gt(on_ub, 0.0);
    ck_assert_uint_eq(memcmp(r[0].gm.data[2], r[1].gm.data[2], 4 * 8192 * 4), 0);
    for (int on = 0; on < 2; on++)
        free_run(&r[on]);
    dvk_kernel_destroy(k);
}
END_TEST

Suite *dv_kapi_suite(void)
{
    Suite *s = suite_create("kapi");
    TCase *tc = tcase_create("kapi");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_kapi_add_kernel_computes_and_double_buffers);
    tcase_add_test(tc, test_kapi_record_replays_with_same_cycles_and_bytes);
    tcase_add_test(tc, test_kapi_bookkeeping_charged_as_one_scalar_instruction);
    tcase_add_test(tc, test_kapi_long_block_streams_every_instruction);
    tcase_add_test(tc, test_kapi_fiber_switch_keeps_registers_and_rounding);
    tcase_add_test(tc, test_kapi_fibers_run_on_the_model_thread);
    tcase_add_test(tc, test_kapi_mix_kernel_follows_aiv_per_core);
    tcase_add_test(tc, test_kapi_buffer_overflow_is_located);
    tcase_add_test(tc, test_kapi_event_ids_exhausted_is_located);
    tcase_add_test(tc, test_kapi_bad_operand_is_located);
    tcase_add_test(tc, test_kapi_series_off_changes_nothing_else);
    tcase_add_test(tc, test_kapi_bad_dtype_is_located);
    tcase_add_test(tc, test_kapi_kernel_fail_is_located);
    tcase_add_test(tc, test_kapi_bad_opcode_or_operand_count_is_located);
    tcase_add_test(tc, test_kapi_emit_check_matches_insn_check);
    tcase_add_test(tc, test_kapi_charges_go_before_their_instruction);
    tcase_add_test(tc, test_kapi_deque_of_empty_queue_is_an_error_not_a_deadlock);
    suite_add_tcase(s, tc);
    return s;
}
