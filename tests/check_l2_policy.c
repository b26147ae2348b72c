/* tests/check_l2_policy.c - the per-argument L2 cache mode (dv_arg_t.l2, trace `arg ... l2=`, the add
 * operator's --l2-inputs) and the L2's write-allocation rule (a line a write allocates is the next
 * victim of its set), with exact cycle counts derived by hand from the profile numbers set below
 * (docs/MODEL.md, "Shared memory: L2 and HBM"). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "dv/config.h"
#include "dv/kapi.h"
#include "dv/intmath.h"
#include "dv/model.h"
#include "dv/sim.h"
#include "dv/trace.h"
#include "dvsim/acl_launch.h"
#include "support/aclt.h"
#include "support/dvt.h"

#define GM0 0x100000000ull

/* Small DMA numbers: a 2 KB read is t0 + I + 10 (issue) + 2048 / 64 + 100 (MTE2 latency), plus 50
 * when a line came from HBM; L2 lines of 512 B. */
static const char *const sets[] = {
    "gm.core_read_bytes_per_cycle=64", "gm.core_write_bytes_per_cycle=64", "mte2.uop_cycles=1", "mte3.uop_cycles=1",
    "mte2.issue_cycles=10", "mte3.issue_cycles=10", "mte2.latency_cycles=100", "mte3.latency_cycles=80",
    "hbm.latency_cycles=50", "gm.burst_overhead_bytes=0", "l2.line_bytes=512", "l2.write_through=false", NULL};

/* The profile of `sets` plus the assignments `more` (NULL-terminated). */
static void config_with(dv_config_t *cfg, const char *const *more)
{
    dvt_config(cfg, NULL, sets);
    dv_error_t err = {0};
    for (int i = 0; more[i]; i++)
        ck_assert_msg(dv_config_set(cfg, more[i], &err) == DV_OK, "%s", err.msg);
    ck_assert_msg(dv_config_validate(cfg, &err) == DV_OK, "%s", err.msg);
}

/* One block: `insn` on arguments x (4 KB, L2 mode x_mode) and z (4 KB, normal), run on model m. */
static void run_on(dvt_run_t *r, dv_model_t *m, const char *x_mode, const char *insn)
{
    char text[1024];
    snprintf(text, sizeof text,
             "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=4096 dtype=f16 dir=inout l2=%s\n"
             "arg z bytes=4096 dtype=f16 dir=out\nblock 0\n%s\nend\n",
             x_mode, insn);
    ck_assert_msg(dvt_run_text_on(r, m, text, false, GM0) == DV_OK, "%s", r->err.msg);
}

static const char *const read2k = "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=64";

/* A disabled read misses every time: its lines are not allocated, so a second read comes from HBM
 * again.  A normal read's second run hits. */
START_TEST(test_l2_policy_disable_read_not_allocated)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, sets);
    const uint64_t hit = dvt_t0(&cfg) + cfg.scalar_issue_cycles + 10 + 2048 / 64 + 100, miss = hit + 50;
    dv_model_t *m = dvt_model(&cfg);
    dvt_run_t r;
    for (int i = 0; i < 2; i++) {
        run_on(&r, m, "disable", read2k);
        ck_assert_uint_eq(r.cnt.cycles, miss);
        ck_assert_uint_eq(r.cnt.hbm_read_bytes, 2048);
        ck_assert_uint_eq(r.cnt.l2_misses, 4);
        ck_assert_uint_eq(r.cnt.l2_hits, 0);
        dvt_free(&r);
    }
    /* the L2 was left as it was: a normal read now misses, then hits */
    run_on(&r, m, "normal", read2k);
    ck_assert_uint_eq(r.cnt.cycles, miss);
    ck_assert_uint_eq(r.cnt.hbm_read_bytes, 2048);
    dvt_free(&r);
    run_on(&r, m, "normal", read2k);
    ck_assert_uint_eq(r.cnt.cycles, hit);
    ck_assert_uint_eq(r.cnt.hbm_read_bytes, 0);
    ck_assert_uint_eq(r.cnt.l2_hits, 4);
    dvt_free(&r);
    /* a disabled read of lines already present is served from L2 */
    run_on(&r, m, "disable", read2k);
    ck_assert_uint_eq(r.cnt.cycles, hit);
    ck_assert_uint_eq(r.cnt.hbm_read_bytes, 0);
    ck_assert_uint_eq(r.cnt.l2_hits, 4);
    dvt_free(&r);
    dv_model_destroy(m);
}
END_TEST

/* A disabled read that misses takes only the bytes asked for from HBM (no line fill): 96 B at
 * byte 64 of x (32 B aligned: an unaligned burst reads whole lines, tests/check_gm_paths.c); a
 * normal one fills the whole 512 B line. */
START_TEST(test_l2_policy_disable_read_bytes)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, sets);
    const char *insn = "copy_gm_to_ubuf_align dst=ub:0x0 src=x+64 nburst=1 len=96";
    const uint64_t cycles = dvt_t0(&cfg) + cfg.scalar_issue_cycles + 10 + dv_ceil_div(96, 64) + 100 + 50;
    for (int mode = 0; mode < 2; mode++) {
        dv_model_t *m = dvt_model(&cfg);
        dvt_run_t r;
        run_on(&r, m, mode ? "disable" : "normal", insn);
        ck_assert_uint_eq(r.cnt.cycles, cycles);
        ck_assert_uint_eq(r.cnt.hbm_read_bytes, mode ? 96 : 512);
        dvt_free(&r);
        dv_model_destroy(m);
    }
}
END_TEST

/* Writes with a slow HBM (8 B/cycle x 50% = 4): a disabled write of 4 KB that misses goes to HBM,
 * (4096 + 64) / 4 = 1040 cycles (hbm.request_overhead_bytes = 64 for its one burst) instead of the engine's
 * 4096 / 64 = 64; a normal one stays dirty in L2
 * (write-back).  A disabled write to lines already in L2 updates them there. */
START_TEST(test_l2_policy_disable_write)
{
    const char *const slow[] = {"hbm.bytes_per_cycle=8", "hbm.efficiency_percent=50", "hbm.request_overhead_bytes=64",
                                NULL};
    dv_config_t cfg;
    config_with(&cfg, slow);
    ck_assert_uint_eq(dv_hbm_sustained_bytes_per_cycle(&cfg), 4);
    const char *w = "copy_ubuf_to_gm dst=x src=ub:0x0 nburst=1 len=128";
    const uint64_t t0 = dvt_t0(&cfg) + cfg.scalar_issue_cycles + 10, lat = 80;
    dv_model_t *m = dvt_model(&cfg);
    dvt_run_t r;
    run_on(&r, m, "disable", w);
    ck_assert_uint_eq(r.cnt.hbm_write_bytes, 4096);
    ck_assert_uint_eq(r.cnt.cycles, t0 + (4096 + 64) / 4 + lat); /* one burst: one bypassing request */
    dvt_free(&r);
    run_on(&r, m, "normal", w);
    ck_assert_uint_eq(r.cnt.hbm_write_bytes, 0);
    ck_assert_uint_eq(r.cnt.cycles, t0 + 4096 / 64 + lat);
    dvt_free(&r);
    run_on(&r, m, "disable", w); /* the lines are present now (dirty): updated in L2 */
    ck_assert_uint_eq(r.cnt.hbm_write_bytes, 0);
    ck_assert_uint_eq(r.cnt.l2_hits, 8);
    ck_assert_uint_eq(r.cnt.cycles, t0 + 4096 / 64 + lat);
    dvt_free(&r);
    dv_model_destroy(m);
}
END_TEST

/* One set of 4 ways (l2.size_bytes = 4 x 512), write-back, least recently used first: read x's lines
 * 0-2, write z's line 0 (dirty), read x's line 3: the victim is x's line 0 (clean: nothing written
 * back).  Reading x's lines 0, 1, 2 again misses each time (each evicts the next to be read); the
 * third finds z's line least recently used and writes it back (512 B to HBM). */
START_TEST(test_l2_policy_written_line_by_recency)
{
    const char *const one_set[] = {"l2.size_bytes=2048", "l2.ways=4", NULL};
    dv_config_t cfg;
    config_with(&cfg, one_set);
    dv_model_t *m = dvt_model(&cfg);
    dvt_run_t r;
    run_on(&r, m, "normal", "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=48");
    ck_assert_uint_eq(r.cnt.l2_misses, 3);
    dvt_free(&r);
    run_on(&r, m, "normal", "copy_ubuf_to_gm dst=z src=ub:0x0 nburst=1 len=16");
    ck_assert_uint_eq(r.cnt.hbm_write_bytes, 0);
    dvt_free(&r);
    run_on(&r, m, "normal", "copy_gm_to_ubuf dst=ub:0x0 src=x+1536 nburst=1 len=16");
    ck_assert_uint_eq(r.cnt.l2_misses, 1);
    ck_assert_uint_eq(r.cnt.l2_writebacks, 0);
    dvt_free(&r);
    for (int line = 0; line < 3; line++) {
        char insn[96];
        snprintf(insn, sizeof insn, "copy_gm_to_ubuf dst=ub:0x0 src=x+%d nburst=1 len=16", line * 512);
        run_on(&r, m, "normal", insn);
        ck_assert_uint_eq(r.cnt.l2_misses, 1);
        ck_assert_uint_eq(r.cnt.l2_writebacks, line == 2 ? 1 : 0);
        ck_assert_uint_eq(r.cnt.hbm_write_bytes, line == 2 ? 512 : 0);
        dvt_free(&r);
    }
    dv_model_destroy(m);
}
END_TEST

/* One warm-up run, then the measured one, on a fresh model of cfg: the measured run's counters. */
static void run_replayed(dvt_run_t *r, const dv_config_t *cfg, const char *text)
{
    dv_model_t *m = dvt_model(cfg);
    memset(r, 0, sizeof *r);
    ck_assert_int_eq(dv_trace_open_string(text, "replay.trace", &r->kernel, &r->err), DV_OK);
    ck_assert_int_eq(dv_sim_gm_setup(cfg, &r->kernel->info, false, "replay.trace", GM0, &r->gm, &r->err), DV_OK);
    dv_run_opts_t o;
    dv_run_opts_default(&o);
    o.warm_up = 1;
    r->rc = dv_model_run(m, r->kernel, &r->gm, &o, &r->cnt, &r->err);
    ck_assert_msg(r->rc == DV_OK, "%s", r->err.msg);
    dv_model_destroy(m);
}

/* Between the runs of a replay (dv_run_opts_t.warm_up) the chip idles for chip.replay_gap_cycles and the
 * L2 writes dirty lines back, least recently used first, at the sustained HBM rate: here 512 B per cycle
 * (hbm.bytes_per_cycle 512 at 100%), one line per cycle.  One set of 4 ways; the kernel reads x's 4
 * lines and writes z's 4: each z line evicts an x line (clean), so a run ends with z0..z3 dirty, z0 the
 * least recently used.  Run again straight after (no idle), its 4 read misses evict them dirty: 4
 * write-backs, 2048 B to HBM.  After a warm-up run and a gap of 2 cycles z0 and z1 were written back:
 * 2 write-backs in the run; a gap of 4 cycles leaves none. */
START_TEST(test_l2_policy_idle_write_back)
{
    const char *const one_set[] = {"l2.size_bytes=2048", "l2.ways=4", "hbm.bytes_per_cycle=512",
                                   "hbm.efficiency_percent=100", NULL};
    const char *const text = "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=2048 dtype=f16 dir=in\n"
                             "arg z bytes=2048 dtype=f16 dir=out\nblock 0\n"
                             "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=64\n"
                             "set_flag src=MTE2 dst=MTE3 id=0\nwait_flag src=MTE2 dst=MTE3 id=0\n"
                             "copy_ubuf_to_gm dst=z src=ub:0x0 nburst=1 len=64\nend\n";
    dv_config_t cfg;
    config_with(&cfg, one_set);
    dv_model_t *m = dvt_model(&cfg);
    dvt_run_t r;
    for (int run = 0; run < 2; run++) {
        ck_assert_msg(dvt_run_text_on(&r, m, text, false, GM0) == DV_OK, "%s", r.err.msg);
        ck_assert_uint_eq(r.cnt.l2_misses, 8); /* 4 reads and 4 writes */
        ck_assert_uint_eq(r.cnt.l2_writebacks, run == 0 ? 0 : 4);
        ck_assert_uint_eq(r.cnt.hbm_write_bytes, run == 0 ? 0 : 2048);
        dvt_free(&r);
    }
    dv_model_destroy(m);
    static const struct {
        const char *gap;
        uint64_t writebacks;
    } cases[] = {{"chip.replay_gap_cycles=0", 4}, {"chip.replay_gap_cycles=2", 2}, {"chip.replay_gap_cycles=4", 0},
                 {"chip.replay_gap_cycles=100", 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dv_error_t err;
        ck_assert_int_eq(dv_config_set(&cfg, cases[i].gap, &err), DV_OK);
        run_replayed(&r, &cfg, text);
        ck_assert_uint_eq(r.cnt.l2_misses, 8);
        ck_assert_uint_eq(r.cnt.l2_writebacks, cases[i].writebacks);
        ck_assert_uint_eq(r.cnt.hbm_write_bytes, cases[i].writebacks * 512);
        dvt_free(&r);
    }
}
END_TEST

/* The trace field: read, written back only when it is disable, and a bad value is a located error. */
START_TEST(test_l2_policy_trace_field)
{
    const char *t = "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=64 l2=disable\narg y bytes=64 l2=normal\n"
                    "arg z bytes=64\nblock 0\nend\n";
    dv_kernel_t *k;
    dv_error_t err;
    ck_assert_msg(dv_trace_open_string(t, "t.trace", &k, &err) == DV_OK, "%s", err.msg);
    ck_assert_int_eq(k->info.args[0].l2, DV_L2_DISABLE);
    ck_assert_int_eq(k->info.args[1].l2, DV_L2_NORMAL);
    ck_assert_int_eq(k->info.args[2].l2, DV_L2_NORMAL);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(dv_trace_write_header(f, &k->info), DV_OK);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "arg x bytes=64 dtype=u8 dir=inout init=zero l2=disable\n"));
    ck_assert_ptr_nonnull(strstr(buf, "arg y bytes=64 dtype=u8 dir=inout init=zero\n"));
    dv_kernel_t *k2;
    char *again = malloc(len + 16);
    snprintf(again, len + 16, "%sblock 0\nend\n", buf);
    ck_assert_msg(dv_trace_open_string(again, "w.trace", &k2, &err) == DV_OK, "%s", err.msg);
    ck_assert_int_eq(k2->info.args[0].l2, DV_L2_DISABLE);
    dv_trace_close(k2);
    free(again);
    free(buf);
    dv_trace_close(k);

    const char *bad = "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=64 l2=off\nblock 0\nend\n";
    ck_assert_int_ne(dv_trace_open_string(bad, "b.trace", &k, &err), DV_OK);
    ck_assert_str_eq(err.file, "b.trace");
    ck_assert_int_eq(err.line, 3);
    ck_assert_int_eq(err.col, 19);
    ck_assert_ptr_nonnull(strstr(err.msg, "field 'l2': unknown L2 cache mode 'off' (expected normal or disable)"));
}
END_TEST

/* add --l2-inputs off: x and y in mode disable, z normal.  1000 fp16 elements on one core: each input
 * argument is 2016 bytes (whole 32 B blocks) and is read once; bypassing, HBM reads exactly those
 * bytes; allocated in L2, whole 512 B lines (4 each). */
START_TEST(test_l2_policy_add_inputs)
{
    for (int off = 0; off < 2; off++) {
        dvt_op_t r;
        const char *cmd = off ? "add --shape 1000 --dtype fp16 --cores 1 --l2-inputs off"
                              : "add --shape 1000 --dtype fp16 --cores 1";
        int rc = dvt_op(&r, "ascend910b2", sets, cmd, true, true);
        ck_assert_msg(rc == DV_OK, "%s", r.err.msg);
        ck_assert_int_eq(r.plan.args[0].l2, off ? DV_L2_DISABLE : DV_L2_NORMAL);
        ck_assert_int_eq(r.plan.args[1].l2, off ? DV_L2_DISABLE : DV_L2_NORMAL);
        ck_assert_int_eq(r.plan.args[2].l2, DV_L2_NORMAL);
        ck_assert_uint_eq(r.cnt.hbm_read_bytes, off ? 2 * 2016 : 2 * 2048);
        dvt_op_free(&r);
    }
}
END_TEST

/* add --pair-inputs on places x and y of each buffer index side by side.  With 16256 fp16 elements per
 * copy (32512 B) on the 910B UB (48 banks of 32 B rows in 16 groups of 3), x ping starts at row 0 (bank 0,
 * group 0) and y ping at row 1016 (bank 8, group 8): the vadd reads two groups, no conflict.  Queue by
 * queue, y ping starts at row 2032 (bank 16, group 0), in x's group: every repeat conflicts. */
START_TEST(test_l2_policy_add_pair_inputs)
{
    for (int pairs = 0; pairs < 2; pairs++) {
        dvt_op_t r;
        const char *cmd = pairs ? "add --shape 32512 --dtype fp16 --cores 1 --tile-elems 16256 --pair-inputs on"
                                : "add --shape 32512 --dtype fp16 --cores 1 --tile-elems 16256";
        ck_assert_msg(dvt_op(&r, "ascend910b1", NULL, cmd, true, true) == DV_OK, "%s", r.err.msg);
        uint64_t conflicts = 0;
        for (uint32_t i = 0; i < r.cnt.ncores; i++)
            conflicts += r.cnt.cores[i].bank_conflict_cycles;
        if (pairs)
            ck_assert_uint_eq(conflicts, 0);
        else
            ck_assert_uint_gt(conflicts, 0);
        dvt_op_free(&r);
    }
}
END_TEST

/* y = x, 2 KB through UB (one block). */
static void copy2k_kernel(dv_k_t *k, const void *p)
{
    (void)p;
    uint64_t buf = dvk_alloc(k, DV_SPACE_UB, 2048);
    int ev = dvk_event_alloc(k, DV_PIPE_MTE2, DV_PIPE_MTE3);
    dvk_copy_gm_to_ubuf(k, buf, dvk_gm(k, 0, 0), 1, 64, 0, 0);
    dvk_set_flag(k, DV_PIPE_MTE2, DV_PIPE_MTE3, ev);
    dvk_wait_flag(k, DV_PIPE_MTE2, DV_PIPE_MTE3, ev);
    dvk_copy_ubuf_to_gm(k, dvk_gm(k, 1, 0), buf, 1, 64, 0, 0);
}

/* Kernel time (ms) of copy2k_kernel from `x` to `y` on stream s. */
static float copy2k_ms(aclrtStream s, void *x, void *y)
{
    aclrtEvent e0, e1;
    float ms;
    void *gm[2] = {x, y};
    OK(aclrtCreateEvent(&e0));
    OK(aclrtCreateEvent(&e1));
    OK(aclrtRecordEvent(e0, s));
    OK(dvsimLaunchKernel("copy2k", copy2k_kernel, DV_KIND_VECTOR, 1, s, gm, 2, NULL, 0));
    OK(aclrtRecordEvent(e1, s));
    OK(aclrtSynchronizeStream(s));
    OK(aclrtEventElapsedTime(&ms, e0, e1));
    OK(aclrtDestroyEvent(e0));
    OK(aclrtDestroyEvent(e1));
    return ms;
}

/* Through the AscendCL shim a device pointer with bit DV_GM_L2_DISABLE_BIT set (what Ascend C's
 * SetL2CacheHint(CACHE_MODE_DISABLE) uses) is the same memory in mode disable: its reads miss every
 * time, where a normal pointer's second read hits, and the kernel sees the allocation's bytes. */
START_TEST(test_l2_policy_acl_alias_pointer)
{
    unsigned char hx[2048], hy[2048];
    for (int i = 0; i < 2048; i++)
        hx[i] = (unsigned char)(i * 7 + 1);
    void *x, *x2, *y;
    aclrtStream s;
    up();
    OK(aclrtCreateStream(&s));
    OK(aclrtMalloc(&x, 2048, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&x2, 2048, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&y, 2048, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemcpy(x2, 2048, hx, 2048, ACL_MEMCPY_HOST_TO_DEVICE));
    const float miss = copy2k_ms(s, x, y), hit = copy2k_ms(s, x, y);
    ck_assert_float_lt(hit, miss);
    void *alias = (void *)((uintptr_t)x2 | 1ull << DV_GM_L2_DISABLE_BIT);
    const float a1 = copy2k_ms(s, alias, y), a2 = copy2k_ms(s, alias, y);
    ck_assert_float_eq(a1, a2);
    ck_assert_float_gt(a2, hit);
    OK(aclrtMemcpy(hy, 2048, y, 2048, ACL_MEMCPY_DEVICE_TO_HOST));
    ck_assert_int_eq(memcmp(hx, hy, 2048), 0);
    OK(aclrtFree(x));
    OK(aclrtFree(x2));
    OK(aclrtFree(y));
    OK(aclrtDestroyStream(s));
    down();
}
END_TEST

Suite *dv_l2_policy_suite(void)
{
    Suite *s = suite_create("l2_policy");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_l2_policy_disable_read_not_allocated);
    tcase_add_test(tc, test_l2_policy_disable_read_bytes);
    tcase_add_test(tc, test_l2_policy_disable_write);
    tcase_add_test(tc, test_l2_policy_written_line_by_recency);
    tcase_add_test(tc, test_l2_policy_idle_write_back);
    tcase_add_test(tc, test_l2_policy_trace_field);
    tcase_add_test(tc, test_l2_policy_add_inputs);
    tcase_add_test(tc, test_l2_policy_acl_alias_pointer);
    tcase_add_test(tc, test_l2_policy_add_pair_inputs);
    suite_add_tcase(s, tc);
    return s;
}
