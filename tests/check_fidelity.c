/* tests/check_fidelity.c - the roofline checks of bench/roofline.def on every preset, and the
 * calibration set's commands still plan. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "../bench/fidelity.h"
#include "dv/config.h"
#include "support/dvt.h"

/* Loop index i -> (preset, roofline row); the rows that do not apply to a preset are skipped. */
static int nprofiles(void)
{
    int n = 0;
    while (dv_profile_names()[n])
        n++;
    return n;
}

START_TEST(test_fidelity_roofline)
{
    const char *profile = dv_profile_names()[_i / dv_fid_nroofs];
    const dv_fid_roof_t *row = &dv_fid_roofs[_i % dv_fid_nroofs];
    if (!dv_fid_roof_applies(row, profile))
        return;
    dv_fid_run_t run;
    dv_fid_run_here(profile, row->cmd, &run);
    ck_assert_msg(run.rc == DV_OK, "%s on %s: %s", row->id, profile, run.msg);
    double bound, achieved;
    char why[300];
    const bool ok = dv_fid_roof_judge(row, &run, &bound, &achieved, why, sizeof why);
    ck_assert_msg(ok, "roofline %s on %s: %s (expected bound %.1f, achieved %.1f)", row->id, profile, why, bound,
                  achieved);
}
END_TEST

/* The judge fails what misses its bound: the same cube run judged against a chip twice as fast. */
START_TEST(test_fidelity_judge_fails_short_runs)
{
    dv_fid_run_t run;
    memset(&run, 0, sizeof run);
    dvt_config(&run.cfg, "ascend910b2", NULL);
    const dv_fid_roof_t *cube = NULL, *start = NULL;
    for (int i = 0; i < dv_fid_nroofs; i++) {
        if (dv_fid_roofs[i].kind == DV_FID_CUBE && dv_fid_roof_applies(&dv_fid_roofs[i], "ascend910b2"))
            cube = &dv_fid_roofs[i];
        if (dv_fid_roofs[i].kind == DV_FID_START)
            start = &dv_fid_roofs[i];
    }
    ck_assert_ptr_nonnull(cube);
    ck_assert_ptr_nonnull(start);
    double bound, achieved;
    char why[300];
    /* 2 x 16 x 16 x 16 x 24 x 1.8e9 FLOP/s: 84% of it fails, 86% passes */
    const double peak_per_cycle = 2.0 * 4096 * 24;
    run.cycles = 1000000;
    run.flops = (uint64_t)(0.84 * peak_per_cycle * (double)run.cycles);
    ck_assert(!dv_fid_roof_judge(cube, &run, &bound, &achieved, why, sizeof why));
    ck_assert_double_eq_tol(bound, peak_per_cycle * 1.8e9 / 1e12, 1e-9);
    run.flops = (uint64_t)(0.86 * peak_per_cycle * (double)run.cycles);
    ck_assert_msg(dv_fid_roof_judge(cube, &run, &bound, &achieved, why, sizeof why), "%s", why);
    /* a kernel four times its start overhead is not start-bound */
    run.cycles = 4 * (run.cfg.chip_kernel_start_cycles + run.cfg.chip_block_start_cycles);
    ck_assert(!dv_fid_roof_judge(start, &run, &bound, &achieved, why, sizeof why));
    ck_assert_double_eq_tol(achieved, 25.0, 1e-9);
    /* a failed run fails, naming the run's error */
    run.rc = DV_ERR_RANGE;
    snprintf(run.msg, sizeof run.msg, "boom");
    ck_assert(!dv_fid_roof_judge(cube, &run, &bound, &achieved, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "boom"));
}
END_TEST

/* Every calibration command is an operator command line the library accepts on its profile (the
 * table cannot rot between `make validate` runs). */
START_TEST(test_fidelity_calibration_commands_plan)
{
    ck_assert_int_ge(dv_fid_ncases, 11);
    for (int i = 0; i < dv_fid_ncases; i++) {
        const dv_fid_case_t *k = &dv_fid_cases[i];
        char buf[1024], *argv[64];
        int argc = 0;
        snprintf(buf, sizeof buf, "%s", k->cmd);
        for (char *t = strtok(buf, " "); t && argc < 64; t = strtok(NULL, " "))
            argv[argc++] = t;
        const dv_opdesc_t *op = dv_ops_find(argv[0]);
        ck_assert_msg(op != NULL, "%s: unknown operator %s", k->id, argv[0]);
        dv_config_t cfg;
        dvt_config(&cfg, k->profile, NULL);
        dv_opvals_t vals;
        dv_op_plan_t plan;
        dv_error_t err = {0};
        ck_assert_msg(dv_ops_parse(op, argc - 1, argv + 1, &vals, &err) == DV_OK, "%s: %s", k->id, err.msg);
        ck_assert_msg(dv_ops_plan(op, &cfg, &vals, &plan, &err) == DV_OK, "%s: %s", k->id, err.msg);
        ck_assert_msg(k->measured_us > 0, "%s: no measured time", k->id);
        /* a scaled case is one core looping over identical copies (bench/calibration.def) */
        ck_assert_msg(k->scale >= 1, "%s: scale %g", k->id, k->scale);
        ck_assert_msg(k->scale == 1 || plan.info.blocks == 1, "%s: scaled by %g on %u blocks", k->id, k->scale,
                      plan.info.blocks);
    }
}
END_TEST

/* A scaled case's time: the fixed head once (910B1: chip.kernel_start_cycles 9250 + chip.block_start_cycles
 * 100 at 1850 MHz = 5.054 us), the rest scale times; an unscaled case's is the run's. */
START_TEST(test_fidelity_scaled_case_time)
{
    dv_fid_run_t r;
    memset(&r, 0, sizeof r);
    dvt_config(&r.cfg, "ascend910b1", NULL);
    ck_assert_uint_eq(r.cfg.chip_kernel_start_cycles + r.cfg.chip_block_start_cycles, 9350);
    ck_assert_uint_eq(r.cfg.chip_freq_mhz, 1850);
    r.time_us = 1000.0;
    const dv_fid_case_t one = {.id = "one", .scale = 1}, many = {.id = "many", .scale = 256};
    ck_assert_double_eq(dv_fid_case_time_us(&one, &r), 1000.0);
    ck_assert_double_eq_tol(dv_fid_case_time_us(&many, &r), 9350.0 / 1850 + (1000.0 - 9350.0 / 1850) * 256, 1e-6);
    ck_assert_double_eq_tol(dv_fid_case_time_us(&many, &r), 254711.21622, 1e-4);
}
END_TEST

/* The worker pool gives each job what a run in this process gives, reports them in job order,
 * leaves skipped jobs alone, and a job that fails does not stop the others. */
typedef struct order {
    int seen[8], n;
    const dv_fid_job_t *base;
} order_t;

static void note_done(const dv_fid_job_t *j, void *ctx)
{
    order_t *o = ctx;
    o->seen[o->n++] = (int)(j - o->base);
}

START_TEST(test_fidelity_worker_pool)
{
    const char *cmd = "add --shape 4096 --dtype fp16 --cores 2";
    dv_fid_job_t jobs[5] = {{"ascend910b2", cmd, false, {0}},
                            {"ascend910b2", cmd, true, {0}},
                            {"ascend310", cmd, false, {0}},
                            {"ascend910b2", "nosuchop", false, {0}},
                            {"ascend910a", cmd, false, {0}}};
    order_t o = {{0}, 0, jobs};
    dv_fid_run_all(jobs, 5, 2, note_done, &o);
    ck_assert_int_eq(o.n, 4);
    const int want[] = {0, 2, 3, 4};
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(o.seen[i], want[i]);
    ck_assert_int_eq(jobs[1].run.rc, 0);
    ck_assert_uint_eq(jobs[1].run.cycles, 0);
    ck_assert_int_ne(jobs[3].run.rc, DV_OK);
    ck_assert_msg(strstr(jobs[3].run.msg, "nosuchop"), "%s", jobs[3].run.msg);
    for (int i = 0; i < 5; i += 2) {
        dv_fid_run_t here;
        ck_assert_int_eq(dv_fid_run_here(jobs[i].profile, cmd, &here), DV_OK);
        ck_assert_int_eq(jobs[i].run.rc, DV_OK);
        ck_assert_uint_eq(jobs[i].run.cycles, here.cycles);
        ck_assert_str_eq(jobs[i].run.cfg.chip_name, jobs[i].profile);
    }
    ck_assert_uint_ne(jobs[0].run.cycles, jobs[2].run.cycles);
}
END_TEST

Suite *dv_fidelity_suite(void)
{
    Suite *s = suite_create("fidelity");
    TCase *t = tcase_create("roofline");
    tcase_set_timeout(t, 120);
    tcase_add_loop_test(t, test_fidelity_roofline, 0, nprofiles() * dv_fid_nroofs);
    tcase_add_test(t, test_fidelity_judge_fails_short_runs);
    tcase_add_test(t, test_fidelity_calibration_commands_plan);
    tcase_add_test(t, test_fidelity_scaled_case_time);
    tcase_add_test(t, test_fidelity_worker_pool);
    suite_add_tcase(s, t);
    return s;
}
