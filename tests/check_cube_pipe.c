/* tests/check_cube_pipe.c - the cube pipeline's timing rules (docs/MODEL.md, "One core"), with
 * exact cycle counts derived by hand from the profile's numbers.  t0 = chip.kernel_start_cycles +
 * chip.block_start_cycles is when the scalar unit reads the first instruction; issuing one into a
 * pipe queue costs I = scalar.issue_cycles. */
#include <check.h>
#include <stdio.h>

#include "dv/config.h"
#include "dv/intmath.h"
#include "dv/model.h"
#include "support/dvt.h"

#define GM0 0x100000000ull

static const dv_core_counters_t *aic(const dvt_run_t *r)
{
    for (uint32_t i = 0; i < r->cnt.ncores; i++)
        if (r->cnt.cores[i].type == DV_CORE_AIC)
            return &r->cnt.cores[i];
    ck_abort_msg("no AIC");
    return NULL;
}

/* set_flag does not block its pipe (ref 4.2): MTE1 loads A (16 KB), sets MTE1->M, loads again.
 * The second load starts when the first frees the pipe (L = 16384 / l0a_bytes_per_cycle after its
 * start), not when it completes (L + load2d latency D); the flag fires at the first load's
 * completion.  Issue: load at t0 + I, set at t0 + 2I, load at t0 + 3I (I <= L).
 *   load 1: [t0+I, t0+I+L+D);  load 2: [t0+I+L, t0+I+2L+D)
 * The M side waits for the flag and runs a 128^3 mmad (C = 8 x 8 x 8 cube cycles, tail T):
 *   mmad: starts t0+I+L+D + flag latency F, ends + C + T.  The kernel ends at the later one. */
START_TEST(test_cube_set_flag_does_not_block)
{
    dv_config_t cfg;
    dvt_config(&cfg, "ascend910b1", NULL);
    const char *tr = "dvtrace 1\nkernel k kind=cube blocks=1\nblock 0\n"
                     "load_cbuf_to_ca dst=l0a:0 src=l1:0 dtype=f16 repeat=32\n"
                     "set_flag src=MTE1 dst=M id=0\n"
                     "load_cbuf_to_ca dst=l0a:16384 src=l1:16384 dtype=f16 repeat=32\n"
                     "wait_flag src=MTE1 dst=M id=0\n"
                     "%s"
                     "end\n";
    const uint64_t t0 = dvt_t0(&cfg), I = cfg.scalar_issue_cycles, L = 16384 / cfg.mte1_l0a_bytes_per_cycle;
    const uint64_t D = cfg.mte1_load2d_latency_cycles, F = cfg.sync_flag_latency_cycles, T = cfg.cube_latency_cycles;
    ck_assert_uint_le(3 * I, L);
    char text[1024];
    /* without the mmad: the second load's completion ends the kernel */
    snprintf(text, sizeof text, tr, "");
    dvt_run_t r;
    ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, t0 + I + 2 * L + D);                /* 9350 + 1 + 128 + 25 */
    ck_assert_uint_eq(aic(&r)->pipe_busy[DV_PIPE_MTE1], 2 * L + D);     /* the union of the two */
    dvt_free(&r);
    /* with it: the mmad starts at the flag, which fired at load 1's completion */
    snprintf(text, sizeof text, tr, "mmad c=l0c:0 a=l0a:0 b=l0b:0 dtype=f16 m=128 k=128 n=128 init=1\n");
    ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0) == DV_OK, "%s", r.err.msg);
    const uint64_t C = dv_ceil_div(128, cfg.cube_m) * dv_ceil_div(128, cfg.cube_n) * dv_ceil_div(128, cfg.cube_k_f16);
    ck_assert_uint_eq(r.cnt.cycles, t0 + I + L + D + F + C + T); /* 9350 + 1 + 64 + 25 + 2 + 512 + 20 */
    dvt_free(&r);
}
END_TEST

/* An mmad that accumulates (init=0) onto the L0C bytes the previous mmad writes starts at that
 * mmad's completion; one onto other bytes starts when the cube is free.  64^3 mmads: C = 4 x 4 x 4
 * cube cycles each, tail T; issued at t0 + I, + 2I, + 3I (all before the cube is free):
 *   1 init    c=0:     [t0+I, t0+I+C+T)
 *   2 acc     c=0:     [t0+I+C+T, t0+I+2C+2T)   (reads 1's tile)
 *   3 acc     c=16384: [t0+I+2C+T, t0+I+3C+2T)  (another tile: starts when 2 frees the cube)
 * The kernel ends at t0+I+3C+2T (3's completion); the M pipe is busy from t0+I to that end. */
START_TEST(test_cube_accumulate_waits_for_tile)
{
    dv_config_t cfg;
    dvt_config(&cfg, "ascend910b1", NULL);
    const char *tr = "dvtrace 1\nkernel k kind=cube blocks=1\nblock 0\n"
                     "mmad c=l0c:0 a=l0a:0 b=l0b:0 dtype=f16 m=64 k=64 n=64 init=1\n"
                     "mmad c=l0c:0 a=l0a:8192 b=l0b:8192 dtype=f16 m=64 k=64 n=64 init=0\n"
                     "mmad c=l0c:16384 a=l0a:0 b=l0b:0 dtype=f16 m=64 k=64 n=64 init=0\n"
                     "end\n";
    dvt_run_t r;
    ck_assert_msg(dvt_run_text(&r, &cfg, tr, false, GM0) == DV_OK, "%s", r.err.msg);
    const uint64_t t0 = dvt_t0(&cfg), I = cfg.scalar_issue_cycles, T = cfg.cube_latency_cycles;
    const uint64_t C = dv_ceil_div(64, cfg.cube_m) * dv_ceil_div(64, cfg.cube_n) * dv_ceil_div(64, cfg.cube_k_f16);
    ck_assert_uint_eq(C, 64);
    ck_assert_uint_eq(r.cnt.cycles, t0 + I + 3 * C + 2 * T); /* 9350 + 1 + 192 + 40 */
    ck_assert_uint_eq(aic(&r)->pipe_busy[DV_PIPE_M], 3 * C + 2 * T);
    dvt_free(&r);
    /* the same with T = 60: the accumulation wait follows the tail */
    const char *sets[] = {"cube.latency_cycles=60", NULL};
    dvt_config(&cfg, "ascend910b1", sets);
    ck_assert_msg(dvt_run_text(&r, &cfg, tr, false, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, t0 + I + 3 * C + 2 * 60);
    dvt_free(&r);
}
END_TEST

Suite *dv_cube_pipe_suite(void)
{
    Suite *s = suite_create("cube_pipe");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_cube_set_flag_does_not_block);
    tcase_add_test(tc, test_cube_accumulate_waits_for_tile);
    suite_add_tcase(s, tc);
    return s;
}
