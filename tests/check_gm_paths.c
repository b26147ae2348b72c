/* tests/check_gm_paths.c - the GM read paths of issue 16: unaligned bursts (gm.align_bytes), the
 * L2's hashed set index, the HBM cost of a request that bypasses L2 (hbm.request_overhead_bytes),
 * reads of many cores at one address (hbm.same_address_overhead_bytes), an MTE2's requests in
 * flight (mte2.outstanding_bursts), and the copy operator's data_copy set-ups.  Cycle counts are derived by
 * hand from the profile numbers (docs/MODEL.md): t0 = chip.kernel_start_cycles +
 * chip.block_start_cycles, then scalar.issue_cycles (I) to issue the copy. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/config.h"
#include "dv/intmath.h"
#include "dv/micro.h"
#include "dv/model.h"
#include "support/dvt.h"

#define GM0 0x100000000ull

/* Easy numbers: a 64 B/cycle engine with no burst overhead, issue 10, latency 100 (+50 on an L2
 * miss), 512 B lines, and an HBM of 8 x 50% = 4 B/cycle, so an HBM transfer binds; no HBM cost
 * per bypassing request (test_gm_paths_bypass_request_overhead sets one).  gm.align_bytes last. */
static const char *const sets[] = {
    "gm.core_read_bytes_per_cycle=64", "mte2.uop_cycles=1", "mte2.issue_cycles=10", "mte2.latency_cycles=100",
    "hbm.latency_cycles=50", "gm.burst_overhead_bytes=0", "l2.line_bytes=512", "hbm.bytes_per_cycle=8",
    "hbm.efficiency_percent=50", "hbm.request_overhead_bytes=0", "gm.align_bytes=32", NULL};

/* One copy in a 1-block vector kernel on x, in L2 mode `l2`. */
static uint64_t run_mode(dv_model_t *m, const char *l2, const char *copy, dvt_run_t *out)
{
    char text[1024];
    snprintf(text, sizeof text,
             "dvtrace 1\nkernel c kind=vector blocks=1\narg x bytes=1048576 dtype=f16 dir=in l2=%s\nblock 0\n%s\nend\n",
             l2, copy);
    dvt_run_t r;
    ck_assert_msg(dvt_run_text_on(&r, m, text, false, GM0) == DV_OK, "%s", r.err.msg);
    const uint64_t c = r.cnt.cycles;
    if (out)
        *out = r;
    else
        dvt_free(&r);
    return c;
}

static uint64_t run_on(dv_model_t *m, const char *copy, dvt_run_t *out) { return run_mode(m, "normal", copy, out); }

#define ALIGNED "copy_gm_to_ubuf_align dst=ub:0x0 src=x nburst=1 len=2048 src_gap=0 dst_gap=0"
#define UNALIGNED "copy_gm_to_ubuf_align dst=ub:0x0 src=x+0x2 nburst=1 len=2046 src_gap=0 dst_gap=0"

/* A burst off a 32 B boundary bypasses L2: its 4 lines (bytes 2..2047 lie in lines 0-3) come whole
 * from HBM, 2048 B at 4 B/cycle = 512 cycles from after the issue, on a cold L2 and on a warm one
 * alike; the engine's own ceil(2046 / 64) = 32 cycles hide under it. */
START_TEST(test_gm_paths_unaligned_reads_whole_lines_from_hbm)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, sets);
    ck_assert_uint_eq(dv_hbm_sustained_bytes_per_cycle(&cfg), 4);
    const uint64_t t0 = dvt_t0(&cfg) + cfg.scalar_issue_cycles;
    dv_model_t *m = dvt_model(&cfg);
    dvt_run_t r;
    ck_assert_uint_eq(run_on(m, UNALIGNED, &r), t0 + 10 + 2048 / 4 + 100 + 50);
    ck_assert_uint_eq(r.cnt.hbm_read_bytes, 2048);
    ck_assert_uint_eq(r.cnt.l2_hits + r.cnt.l2_misses, 0); /* no L2 lookup */
    dvt_free(&r);
    /* the aligned read of the same 2 KB misses (fills the 4 lines: 512 cycles of HBM as well) ... */
    ck_assert_uint_eq(run_on(m, ALIGNED, NULL), t0 + 10 + 2048 / 4 + 100 + 50);
    /* ... after which an aligned re-read hits: 2048 / 64 = 32 engine cycles, no miss latency */
    ck_assert_uint_eq(run_on(m, ALIGNED, NULL), t0 + 10 + 32 + 100);
    /* while the unaligned one still goes to HBM */
    ck_assert_uint_eq(run_on(m, UNALIGNED, NULL), t0 + 10 + 2048 / 4 + 100 + 50);
    /* two unaligned 100 B bursts in line 0 ([2, 102) and [202, 302)) read it once: 512 / 4 = 128 */
    ck_assert_uint_eq(run_on(m, "copy_gm_to_ubuf_align dst=ub:0x0 src=x+0x2 nburst=2 len=100 src_gap=100 dst_gap=0",
                             &r),
                      t0 + 10 + 512 / 4 + 100 + 50);
    ck_assert_uint_eq(r.cnt.hbm_read_bytes, 512);
    dvt_free(&r);
    dv_model_destroy(m);
}
END_TEST

/* gm.align_bytes = 2 makes the same burst aligned: after the warm-up it hits like the aligned one,
 * ceil(2046 / 64) = 32 cycles.  With 4096 a 2 KB burst is never aligned. */
START_TEST(test_gm_paths_align_bytes_follows_profile)
{
    const char *s2[16], *s4k[16];
    int n = 0;
    for (; sets[n]; n++)
        s2[n] = s4k[n] = sets[n];
    s2[n - 1] = "gm.align_bytes=2";
    s4k[n - 1] = "gm.align_bytes=4096";
    s2[n] = s4k[n] = NULL;
    dv_config_t cfg;
    dvt_config(&cfg, NULL, s2);
    const uint64_t t0 = dvt_t0(&cfg) + cfg.scalar_issue_cycles;
    dv_model_t *m = dvt_model(&cfg);
    run_on(m, ALIGNED, NULL);
    ck_assert_uint_eq(run_on(m, UNALIGNED, NULL), t0 + 10 + 32 + 100);
    dv_model_destroy(m);
    dvt_config(&cfg, NULL, s4k);
    m = dvt_model(&cfg);
    run_on(m, ALIGNED, NULL);
    ck_assert_uint_eq(run_on(m, ALIGNED, NULL), t0 + 10 + 2048 / 4 + 100 + 50);
    dv_model_destroy(m);
}
END_TEST

/* hbm.request_overhead_bytes = 64: every burst that bypasses L2 (mode disable, or unaligned) costs
 * HBM 64 B beyond its bytes, at 4 B/cycle 16 cycles; line fills through L2 cost none. */
START_TEST(test_gm_paths_bypass_request_overhead)
{
    const char *s[16];
    int n = 0;
    for (; sets[n]; n++)
        s[n] = strncmp(sets[n], "hbm.request_overhead_bytes=", 27) ? sets[n] : "hbm.request_overhead_bytes=64";
    s[n] = NULL;
    dv_config_t cfg;
    dvt_config(&cfg, NULL, s);
    const uint64_t t0 = dvt_t0(&cfg) + cfg.scalar_issue_cycles;
    dv_model_t *m = dvt_model(&cfg);
    dvt_run_t r;
    /* mode disable, one 2 KB burst: (2048 + 64) / 4 = 528 cycles of HBM; only the 2048 B are counted */
    ck_assert_uint_eq(run_mode(m, "disable", ALIGNED, &r), t0 + 10 + (2048 + 64) / 4 + 100 + 50);
    ck_assert_uint_eq(r.cnt.hbm_read_bytes, 2048);
    dvt_free(&r);
    /* the same 2 KB as 4 bursts of 512 B at a 1 KB pitch: 4 requests, (2048 + 4 x 64) / 4 = 576 */
    ck_assert_uint_eq(run_mode(m, "disable", "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=4 len=16 src_gap=16 dst_gap=0",
                               NULL),
                      t0 + 10 + (2048 + 4 * 64) / 4 + 100 + 50);
    /* mode normal: the aligned burst fills its 4 lines through L2, no request cost: 2048 / 4 = 512 */
    ck_assert_uint_eq(run_on(m, ALIGNED, NULL), t0 + 10 + 2048 / 4 + 100 + 50);
    /* an unaligned burst: its 4 whole lines and one request, (2048 + 64) / 4 = 528 */
    ck_assert_uint_eq(run_on(m, UNALIGNED, NULL), t0 + 10 + (2048 + 64) / 4 + 100 + 50);
    /* two unaligned 100 B bursts in line 0: the line once, two requests: (512 + 2 x 64) / 4 = 160 */
    ck_assert_uint_eq(run_on(m, "copy_gm_to_ubuf_align dst=ub:0x0 src=x+0x2 nburst=2 len=100 src_gap=100 dst_gap=0",
                             NULL),
                      t0 + 10 + (512 + 2 * 64) / 4 + 100 + 50);
    dv_model_destroy(m);
}
END_TEST

/* `sets` with up to three more settings (NULL ends them). */
static void config_with(dv_config_t *cfg, const char *a, const char *b, const char *c)
{
    const char *s[24];
    int n = 0;
    for (; sets[n]; n++)
        s[n] = sets[n];
    const char *more[] = {a, b, c};
    for (int i = 0; i < 3 && more[i]; i++)
        s[n++] = more[i];
    s[n] = NULL;
    dvt_config(cfg, NULL, s);
}

/* A 2-block vector kernel on x (L2 mode `l2`), block b running copy[b]; last[] gets the two cores'
 * last cycles, smaller first. */
static void run_two(dv_model_t *m, const char *l2, const char *copy0, const char *copy1, dvt_run_t *r, uint64_t last[2])
{
    char text[1024];
    snprintf(text, sizeof text,
             "dvtrace 1\nkernel c kind=vector blocks=2\narg x bytes=1048576 dtype=f16 dir=in l2=%s\nblock 0\n%s\n"
             "block 1\n%s\nend\n",
             l2, copy0, copy1);
    ck_assert_msg(dvt_run_text_on(r, m, text, false, GM0) == DV_OK, "%s", r->err.msg);
    unsigned k = 0;
    for (uint32_t i = 0; i < r->cnt.ncores; i++)
        if (r->cnt.cores[i].blocks) {
            ck_assert_uint_lt(k, 2);
            last[k++] = r->cnt.cores[i].last_cycle;
        }
    ck_assert_uint_eq(k, 2);
    if (last[0] > last[1]) {
        const uint64_t t = last[0];
        last[0] = last[1];
        last[1] = t;
    }
}

#define LINE0 "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=16"
#define LINE1 "copy_gm_to_ubuf dst=ub:0x0 src=x+0x200 nburst=1 len=16"

/* Two cores read 512 B each, L2 mode disable, at the same cycle t (issue 10 after t0), on an HBM of
 * 4 B/cycle in 1-cycle calendar bins.  A kernel's cores start together: until the global time passes
 * its first reservation each takes at most half of every bin, 2 B/cycle: 512 B in 256 cycles each.
 * On different lines: both finish at t0 + 10 + 256 + latency 150 = t0 + 416, no read queued.  On one
 * line the second core's read finds the first's in flight (started at the same cycle, done 256 later):
 * it queues behind it, and HBM loses hbm.same_address_overhead_bytes = 256 B, taken from the half the
 * first core leaves: 128 cycles; the second's 512 B then go at its half, from cycle 128 to 384 (the
 * first's bins are full until 256, then its own share limits it): t0 + 10 + 384 + 150 = t0 + 544. */
START_TEST(test_gm_paths_same_address_queues)
{
    dv_config_t cfg;
    config_with(&cfg, "sim.bandwidth_window_cycles=1", "hbm.same_address_overhead_bytes=256", NULL);
    const uint64_t t0 = dvt_t0(&cfg) + cfg.scalar_issue_cycles;
    dv_model_t *m = dvt_model(&cfg);
    dvt_run_t r;
    uint64_t last[2];
    run_two(m, "disable", LINE0, LINE1, &r, last);
    ck_assert_uint_eq(last[0], t0 + 416);
    ck_assert_uint_eq(last[1], t0 + 416);
    ck_assert_uint_eq(r.cnt.hbm_same_address, 0);
    dvt_free(&r);
    run_two(m, "disable", LINE0, LINE0, &r, last);
    ck_assert_uint_eq(last[0], t0 + 416);
    ck_assert_uint_eq(last[1], t0 + 544);
    ck_assert_uint_eq(r.cnt.hbm_same_address, 1);
    ck_assert_uint_eq(r.cnt.hbm_read_bytes, 1024); /* the lost capacity is not read bytes */
    dvt_free(&r);
    /* in mode normal the line goes through L2: no read bypasses it, none queues */
    run_two(m, "normal", LINE0, LINE0, &r, last);
    ck_assert_uint_eq(r.cnt.hbm_same_address, 0);
    dvt_free(&r);
    dv_model_destroy(m);
    /* overhead 0: the same-line reads cost what different lines do */
    config_with(&cfg, "sim.bandwidth_window_cycles=1", "hbm.same_address_overhead_bytes=0", NULL);
    m = dvt_model(&cfg);
    run_two(m, "disable", LINE0, LINE0, &r, last);
    ck_assert_uint_eq(last[1], t0 + 416);
    ck_assert_uint_eq(r.cnt.hbm_same_address, 1);
    dvt_free(&r);
    dv_model_destroy(m);
}
END_TEST

#define ROWS8 "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=8 len=2 src_gap=2 dst_gap=0"

/* mte2.outstanding_bursts = 2: 8 bursts of 64 B (128 B apart, lines 0 and 1) keep the pipe for
 * 8 x latency / 2.  Cold: latency 100 + 50, 600 cycles (HBM's 1024 B at 4 B/cycle, 10 + 256, hide
 * under it), T = t0 + 600 + 150.  Warm (L2 hits): 8 x 100 / 2 = 400, T = t0 + 400 + 100.  With 56
 * in flight the bound, ceil(800 / 56) = 15, hides under the engine's issue 10 + 8 x 64 / 64 = 18. */
START_TEST(test_gm_paths_outstanding_bursts)
{
    dv_config_t cfg;
    config_with(&cfg, "mte2.outstanding_bursts=2", NULL, NULL);
    const uint64_t t0 = dvt_t0(&cfg) + cfg.scalar_issue_cycles;
    dv_model_t *m = dvt_model(&cfg);
    ck_assert_uint_eq(run_on(m, ROWS8, NULL), t0 + 600 + 150);
    ck_assert_uint_eq(run_on(m, ROWS8, NULL), t0 + 400 + 100);
    dv_model_destroy(m);
    config_with(&cfg, "mte2.outstanding_bursts=56", NULL, NULL);
    m = dvt_model(&cfg);
    run_on(m, ROWS8, NULL);
    ck_assert_uint_eq(run_on(m, ROWS8, NULL), t0 + 18 + 100);
    dv_model_destroy(m);
}
END_TEST

/* A microbenchmark row follows its parameter on the 910B1 profile: every value in `v` (NULL: the
 * profile's own) comes back within tol percent. */
static void micro_follows(const char *name, const char *const *v, unsigned nv, unsigned tol)
{
    int row = -1;
    for (int i = 0; i < dv_micro_count(); i++)
        if (strcmp(dv_micro_spec(i)->name, name) == 0)
            row = i;
    ck_assert_int_ge(row, 0);
    for (unsigned i = 0; i < nv; i++) {
        const char *set[] = {v[i], NULL};
        dv_config_t cfg;
        dvt_config(&cfg, "ascend910b1", v[i] ? set : NULL);
        dv_micro_result_t *res = calloc((size_t)dv_micro_count(), sizeof *res);
        dv_error_t err = {0};
        ck_assert_ptr_nonnull(res);
        ck_assert_int_eq(dv_micro_run(&cfg, name, res, &err), 0);
        ck_assert_msg(res[row].status == DV_MICRO_PASS, "%s %s: %s", name, v[i] ? v[i] : "", res[row].detail);
        const uint64_t want = (uint64_t)res[row].expected, got = res[row].measured;
        ck_assert_msg((got > want ? got - want : want - got) * 100 <= tol * want, "%s: set %llu, measured %llu", name,
                      (unsigned long long)want, (unsigned long long)got);
        free(res);
    }
}

/* The rows of the same-address cost and of the requests in flight follow their parameters. */
START_TEST(test_gm_paths_same_address_and_outstanding_micro_follow)
{
    static const char *const sa[] = {"hbm.same_address_overhead_bytes=88", NULL,
                                     "hbm.same_address_overhead_bytes=352"};
    micro_follows("hbm.same_address", sa, 3, 5);
    static const char *const ob[] = {"mte2.outstanding_bursts=28", NULL, "mte2.outstanding_bursts=112"};
    micro_follows("mte2.outstanding", ob, 3, 2);
}
END_TEST

/* The microbenchmark row hbm.request_overhead follows the parameter on the 910B1 profile: 38, its
 * value, 77 and 152 come back within the row's 3%. */
START_TEST(test_gm_paths_request_overhead_micro_follows)
{
    static const char *const v[] = {"hbm.request_overhead_bytes=38", NULL,
                                    "hbm.request_overhead_bytes=77", "hbm.request_overhead_bytes=152"};
    micro_follows("hbm.request_overhead", v, 4, 3);
}
END_TEST

/* A column slice: 8 lines one per 16 KB.  In a 64 KB, 4-way L2 of 512 B lines (32 sets) the old
 * index (line mod 32) put all 8 in set 0, where 4 ways keep none of them for a cyclic re-read; the
 * hashed index spreads them so that the re-read hits all 8. */
START_TEST(test_gm_paths_l2_strided_lines_spread_over_sets)
{
    const char *s[16];
    int n = 0;
    for (; sets[n]; n++)
        s[n] = sets[n];
    s[n++] = "l2.size_bytes=65536";
    s[n++] = "l2.ways=4";
    s[n] = NULL;
    dv_config_t cfg;
    dvt_config(&cfg, NULL, s);
    dv_model_t *m = dvt_model(&cfg);
    const char *col = "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=8 len=16 src_gap=496 dst_gap=0";
    dvt_run_t r;
    run_on(m, col, &r);
    ck_assert_uint_eq(r.cnt.l2_misses, 8);
    dvt_free(&r);
    run_on(m, col, &r);
    ck_assert_uint_eq(r.cnt.l2_hits, 8);
    ck_assert_uint_eq(r.cnt.l2_misses, 0);
    dvt_free(&r);
    dv_model_destroy(m);
}
END_TEST

/* The copy operator's data_copy set-ups plan as the sample does. */
START_TEST(test_gm_paths_copy_options)
{
    dvt_op_t r;
    /* unaligned rows (12287 fp16 = 24574 B) read with DataCopyPad; --check writes them back */
    ck_assert_msg(dvt_op(&r, "ascend910b1", NULL, "copy --shape 64x4095 --tile 16x1024 --write on", true, true) == 0,
                  "%s", r.err.msg);
    dvt_op_free(&r);
    /* GM -> L1 in NZ on the cube cores */
    ck_assert_msg(dvt_op(&r, "ascend910b1", NULL, "copy --shape 256x1024 --tile 64x256 --l1 on", false, false) == 0,
                  "%s", r.err.msg);
    dvt_op_free(&r);
    /* errors name the option */
    ck_assert(dvt_op(&r, "ascend910b1", NULL, "copy --shape 64x64 --stagger on", false, false) != 0);
    ck_assert_msg(strstr(r.err.msg, "--stagger") != NULL, "%s", r.err.msg);
    dvt_op_free(&r);
    ck_assert(dvt_op(&r, "ascend910b1", NULL, "copy --shape 64x100 --col-split 3", false, false) != 0);
    ck_assert_msg(strstr(r.err.msg, "--col-split") != NULL, "%s", r.err.msg);
    dvt_op_free(&r);
    ck_assert(dvt_op(&r, "ascend910b1", NULL, "copy --shape 64x64 --l1 on --write on", false, false) != 0);
    ck_assert_msg(strstr(r.err.msg, "--write") != NULL, "%s", r.err.msg);
    dvt_op_free(&r);
}
END_TEST

/* --repeat reads each block's tiles again: 4 repeats of a tensor that fits L2 move 4 x its bytes
 * through MTE2 with only the first pass missing; --read-all makes every block read the whole tensor. */
START_TEST(test_gm_paths_copy_repeat_and_read_all)
{
    dvt_op_t a, b;
    ck_assert_msg(dvt_op(&a, "ascend910b1", NULL, "copy --shape 256x1024 --tile 16x1024 --cores 4", false, false) == 0,
                  "%s", a.err.msg);
    ck_assert_msg(dvt_op(&b, "ascend910b1", NULL, "copy --shape 256x1024 --tile 16x1024 --cores 4 --repeat 4", false,
                         false) == 0, "%s", b.err.msg);
    ck_assert_uint_eq(b.cnt.l2_misses, a.cnt.l2_misses);
    ck_assert_uint_eq(b.cnt.l2_hits, a.cnt.l2_hits + 3 * (a.cnt.l2_misses + a.cnt.l2_hits));
    dvt_op_free(&b);
    ck_assert_msg(dvt_op(&b, "ascend910b1", NULL, "copy --shape 256x1024 --tile 16x1024 --cores 4 --read-all on",
                         false, false) == 0, "%s", b.err.msg);
    ck_assert_uint_eq(b.cnt.l2_hits + b.cnt.l2_misses, 4 * (a.cnt.l2_misses + a.cnt.l2_hits));
    dvt_op_free(&b);
    dvt_op_free(&a);
}
END_TEST

Suite *dv_gm_paths_suite(void)
{
    Suite *s = suite_create("gm_paths");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_gm_paths_unaligned_reads_whole_lines_from_hbm);
    tcase_add_test(tc, test_gm_paths_align_bytes_follows_profile);
    tcase_add_test(tc, test_gm_paths_bypass_request_overhead);
    tcase_add_test(tc, test_gm_paths_request_overhead_micro_follows);
    tcase_add_test(tc, test_gm_paths_same_address_queues);
    tcase_add_test(tc, test_gm_paths_outstanding_bursts);
    tcase_add_test(tc, test_gm_paths_same_address_and_outstanding_micro_follow);
    tcase_add_test(tc, test_gm_paths_l2_strided_lines_spread_over_sets);
    tcase_add_test(tc, test_gm_paths_copy_options);
    tcase_add_test(tc, test_gm_paths_copy_repeat_and_read_all);
    suite_add_tcase(s, tc);
    return s;
}
