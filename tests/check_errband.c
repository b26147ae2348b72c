/* tests/check_errband.c - kernel classes and the calibration error band (dv/errband.h): the
 * classifier on hand-built ratios, the band from a residual table, the compiled table against
 * bench/calibration.def, and the band in the text and JSON reports and in op_summary.csv. */
#define _DEFAULT_SOURCE
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bench/fidelity.h"
#include "acl/acl_prof.h"
#include "dv/errband.h"
#include "dv/kapi.h"
#include "dv/report.h"
#include "dvsim/acl_launch.h"
#include "support/aclt.h"

/* A profile with only what the classifier reads: a start head of 100 + 10 cycles. */
static dv_config_t head_cfg(void)
{
    dv_config_t c;
    memset(&c, 0, sizeof c);
    c.chip_kernel_start_cycles = 100;
    c.chip_block_start_cycles = 10;
    return c;
}

START_TEST(test_errband_classify_launch)
{
    const dv_config_t c = head_cfg();
    double r[DV_PIPE_COUNT] = {0};
    r[DV_PIPE_M] = 0.9;
    ck_assert_uint_eq(dv_kclass_start_cycles(&c), 110);
    ck_assert_int_eq(dv_kclass_of(&c, 220, r), DV_KCLASS_LAUNCH); /* head = half the time */
    ck_assert_int_eq(dv_kclass_of(&c, 110, r), DV_KCLASS_LAUNCH);
    ck_assert_int_eq(dv_kclass_of(&c, 221, r), DV_KCLASS_CUBE);   /* one cycle more: the ratios decide */
}
END_TEST

START_TEST(test_errband_classify_compute_first)
{
    const dv_config_t c = head_cfg();
    double r[DV_PIPE_COUNT] = {0};
    /* C1-5's shape: MTE2 busier than the cube, but the cube busy for most of the kernel */
    r[DV_PIPE_M] = 0.770;
    r[DV_PIPE_MTE2] = 0.999;
    ck_assert_int_eq(dv_kclass_of(&c, 100000, r), DV_KCLASS_CUBE);
    r[DV_PIPE_M] = 0.5; /* the threshold itself counts */
    ck_assert_int_eq(dv_kclass_of(&c, 100000, r), DV_KCLASS_CUBE);
    r[DV_PIPE_M] = 0.499; /* below it: the busiest pipe, MTE2 */
    ck_assert_int_eq(dv_kclass_of(&c, 100000, r), DV_KCLASS_MEMORY);
    /* both compute pipes over the threshold: the busier one */
    r[DV_PIPE_M] = 0.55;
    r[DV_PIPE_V] = 0.6;
    ck_assert_int_eq(dv_kclass_of(&c, 100000, r), DV_KCLASS_VECTOR);
    r[DV_PIPE_V] = 0.55; /* a tie goes to the cube */
    ck_assert_int_eq(dv_kclass_of(&c, 100000, r), DV_KCLASS_CUBE);
}
END_TEST

START_TEST(test_errband_classify_busiest_pipe)
{
    const dv_config_t c = head_cfg();
    const struct {
        dv_pipe_t pipe;
        dv_kclass_t cls;
    } rows[] = {{DV_PIPE_S, DV_KCLASS_SCALAR},   {DV_PIPE_V, DV_KCLASS_VECTOR},    {DV_PIPE_M, DV_KCLASS_CUBE},
                {DV_PIPE_MTE1, DV_KCLASS_MEMORY}, {DV_PIPE_MTE2, DV_KCLASS_MEMORY}, {DV_PIPE_MTE3, DV_KCLASS_MEMORY},
                {DV_PIPE_FIX, DV_KCLASS_MEMORY}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double r[DV_PIPE_COUNT];
        for (int p = 0; p < DV_PIPE_COUNT; p++)
            r[p] = 0.1; /* every pipe a little busy, the row's pipe the busiest, all under 0.5 */
        r[rows[i].pipe] = 0.4;
        ck_assert_msg(dv_kclass_of(&c, 100000, r) == rows[i].cls, "busiest %s: %s", dv_pipe_name(rows[i].pipe),
                      dv_kclass_name(dv_kclass_of(&c, 100000, r)));
    }
    /* add case 4's ratios (vec 0.047, mte2 0.996, mte3 0.848, scalar 0.032) */
    double add[DV_PIPE_COUNT] = {0};
    add[DV_PIPE_S] = 0.032;
    add[DV_PIPE_V] = 0.047;
    add[DV_PIPE_MTE2] = 0.996;
    add[DV_PIPE_MTE3] = 0.848;
    ck_assert_int_eq(dv_kclass_of(&c, 100000, add), DV_KCLASS_MEMORY);
    const double idle[DV_PIPE_COUNT] = {0};
    ck_assert_int_eq(dv_kclass_of(&c, 100000, idle), DV_KCLASS_MEMORY);
    ck_assert_str_eq(dv_kclass_name(DV_KCLASS_CUBE), "cube-bound");
    ck_assert_str_eq(dv_kclass_name(DV_KCLASS_LAUNCH), "launch-bound");
    ck_assert_str_eq(dv_kclass_id(DV_KCLASS_MEMORY), "MEMORY");
    ck_assert_str_eq(dv_kclass_name(DV_KCLASS_COUNT), "?");
}
END_TEST

/* The band is the root mean square of the class's residuals: change one, the band changes. */
START_TEST(test_errband_band_from_residuals)
{
    dv_residual_t t[] = {{"a", DV_KCLASS_CUBE, 3.0},
                         {"b", DV_KCLASS_CUBE, -4.0},
                         {"m", DV_KCLASS_MEMORY, 5.0},
                         {"c", DV_KCLASS_CUBE, 12.0}};
    dv_errband_t b = dv_errband_of(DV_KCLASS_CUBE, t, 4);
    ck_assert_int_eq(b.cls, DV_KCLASS_CUBE);
    ck_assert_int_eq(b.cases, 3);
    ck_assert(b.has_band);
    ck_assert_double_eq_tol(b.pct, sqrt((9.0 + 16.0 + 144.0) / 3.0), 1e-12); /* 7.5056 */
    ck_assert_double_eq_tol(b.bias_pct, 11.0 / 3.0, 1e-12);
    ck_assert_double_eq_tol(b.worst_pct, 12.0, 1e-12);
    t[1].error_pct = -10.0; /* one residual changes */
    b = dv_errband_of(DV_KCLASS_CUBE, t, 4);
    ck_assert_double_eq_tol(b.pct, sqrt((9.0 + 100.0 + 144.0) / 3.0), 1e-12); /* 9.1833 */
    ck_assert_double_eq_tol(b.bias_pct, 5.0 / 3.0, 1e-12);
    t[1].cls = DV_KCLASS_MEMORY; /* it moves to another class: two cube cases left, no band */
    b = dv_errband_of(DV_KCLASS_CUBE, t, 4);
    ck_assert_int_eq(b.cases, 2);
    ck_assert(!b.has_band);
    ck_assert_double_eq(b.pct, 0.0);
    ck_assert_double_eq_tol(b.bias_pct, 7.5, 1e-12);
    b = dv_errband_of(DV_KCLASS_MEMORY, t, 4);
    ck_assert_int_eq(b.cases, 2);
    ck_assert(!b.has_band);
    ck_assert_double_eq_tol(b.worst_pct, -10.0, 1e-12);
    b = dv_errband_of(DV_KCLASS_LAUNCH, t, 4);
    ck_assert_int_eq(b.cases, 0);
    ck_assert(!b.has_band);
    ck_assert_double_eq(b.bias_pct, 0.0);
    b = dv_errband_of(DV_KCLASS_CUBE, t, 0); /* an empty table */
    ck_assert_int_eq(b.cases, 0);
}
END_TEST

/* The compiled table has one row per calibration case, in its order (else: make validate UPDATE=1). */
START_TEST(test_errband_table_is_the_calibration_set)
{
    ck_assert_msg(dv_nresiduals == dv_fid_ncases,
                  "bench/residuals.def has %d rows for %d calibration cases: run make validate UPDATE=1",
                  dv_nresiduals, dv_fid_ncases);
    for (int i = 0; i < dv_nresiduals; i++) {
        ck_assert_msg(strcmp(dv_residuals[i].id, dv_fid_cases[i].id) == 0,
                      "bench/residuals.def row %d is %s, bench/calibration.def's case %s: run make validate UPDATE=1",
                      i, dv_residuals[i].id, dv_fid_cases[i].id);
        ck_assert((unsigned)dv_residuals[i].cls < DV_KCLASS_COUNT);
        ck_assert(isfinite(dv_residuals[i].error_pct));
    }
}
END_TEST

/* ---------------------------------------------------------------- the report */

static dv_config_t cfg;
static dv_kernel_info_t info;
static dv_counters_t cnt;
static dv_core_counters_t core;

/* One coupled core at 1000 MHz that ran `cycles` with the given busy cycles per pipe. */
static void one_core(uint64_t cycles, const uint64_t busy[DV_PIPE_COUNT])
{
    memset(&cfg, 0, sizeof cfg);
    snprintf(cfg.chip_name, sizeof cfg.chip_name, "tiny");
    cfg.chip_layout = DV_LAYOUT_COUPLED;
    cfg.chip_freq_mhz = 1000;
    cfg.chip_ai_cores = 1;
    cfg.chip_has_fix_pipe = true;
    cfg.chip_kernel_start_cycles = 100;
    cfg.chip_block_start_cycles = 10;
    memset(&info, 0, sizeof info);
    snprintf(info.name, sizeof info.name, "k");
    info.kind = DV_KIND_MIX;
    info.blocks = 1;
    info.subs = 1;
    memset(&core, 0, sizeof core);
    snprintf(core.name, sizeof core.name, "core0");
    core.type = DV_CORE_COUPLED;
    core.blocks = 1;
    core.instructions = 10;
    core.last_cycle = cycles;
    memcpy(core.pipe_busy, busy, sizeof core.pipe_busy);
    memset(&cnt, 0, sizeof cnt);
    cnt.cycles = cycles;
    cnt.instructions = 10;
    cnt.ncores = 1;
    cnt.cores = &core;
}

static char *print_report(const dv_report_t *r, bool json)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(json ? dv_report_write_json(r, f) : dv_report_print(r, f), DV_OK);
    fclose(f);
    return buf;
}

/* Every class: the report's band is the compiled residuals' band of the class its ratios give, and
 * the text time line and the JSON time fields show it. */
START_TEST(test_errband_report_carries_the_band)
{
    const struct {
        dv_kclass_t cls;
        uint64_t cycles;
        int pipe[2];
        uint64_t busy[2];
    } rows[] = {{DV_KCLASS_CUBE, 1000, {DV_PIPE_M, DV_PIPE_MTE2}, {800, 999}},
                {DV_KCLASS_VECTOR, 1000, {DV_PIPE_V, DV_PIPE_MTE2}, {800, 300}},
                {DV_KCLASS_SCALAR, 1000, {DV_PIPE_S, DV_PIPE_MTE2}, {400, 300}},
                {DV_KCLASS_MEMORY, 1000, {DV_PIPE_MTE2, DV_PIPE_M}, {900, 300}},
                {DV_KCLASS_LAUNCH, 220, {DV_PIPE_M, DV_PIPE_MTE2}, {200, 200}}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uint64_t busy[DV_PIPE_COUNT] = {0};
        busy[rows[i].pipe[0]] = rows[i].busy[0];
        busy[rows[i].pipe[1]] = rows[i].busy[1];
        one_core(rows[i].cycles, busy);
        dv_report_t r;
        ck_assert_int_eq(dv_report_derive(&r, &cfg, &info, &cnt, NULL), DV_OK);
        const dv_errband_t want = dv_errband_of(rows[i].cls, dv_residuals, dv_nresiduals);
        ck_assert_int_eq(r.band.cls, rows[i].cls);
        ck_assert_int_eq(r.band.cases, want.cases);
        ck_assert_int_eq(r.band.has_band, want.has_band);
        ck_assert_double_eq(r.band.pct, want.pct);

        char line[160], json[200];
        if (want.has_band) {
            snprintf(line, sizeof line,
                     "\ntime          %.3f us (%s; calibration: +/-%.1f%%, %d cases of this class)\n", r.time_us,
                     dv_kclass_name(want.cls), want.pct, want.cases);
            snprintf(json, sizeof json, "\"time_class\":\"%s\",\n\"time_error_pct\":%.6f,\n\"time_error_cases\":%d,\n",
                     dv_kclass_name(want.cls), want.pct, want.cases);
        } else {
            snprintf(line, sizeof line,
                     "\ntime          %.3f us (%s; calibration: %d case%s of this class, too few for a band)\n",
                     r.time_us, dv_kclass_name(want.cls), want.cases, want.cases == 1 ? "" : "s");
            snprintf(json, sizeof json, "\"time_class\":\"%s\",\n\"time_error_pct\":null,\n\"time_error_cases\":%d,\n",
                     dv_kclass_name(want.cls), want.cases);
        }
        char *text = print_report(&r, false), *js = print_report(&r, true);
        ck_assert_msg(strstr(text, line), "%s: no '%s' in\n%s", dv_kclass_name(rows[i].cls), line, text);
        ck_assert_msg(strstr(js, json), "%s: no '%s' in\n%s", dv_kclass_name(rows[i].cls), json, js);
        free(text);
        free(js);
        dv_report_free(&r);
    }
}
END_TEST

/* ---------------------------------------------------------------- op_summary.csv */

typedef struct relu_params {
    uint32_t elems;
} relu_params_t;

/* y = relu(x), one tile per block. */
static void relu_kernel(dv_k_t *k, const void *p)
{
    const relu_params_t *prm = p;
    const uint64_t off = (uint64_t)dvk_block_idx(k) * prm->elems * 4;
    const uint64_t buf = dvk_alloc(k, DV_SPACE_UB, prm->elems * 4);
    const int ev = dvk_event_alloc(k, DV_PIPE_MTE2, DV_PIPE_V), ev2 = dvk_event_alloc(k, DV_PIPE_V, DV_PIPE_MTE3);
    dvk_copy_gm_to_ubuf(k, buf, dvk_gm(k, 0, off), 1, prm->elems * 4 / 32, 0, 0);
    dvk_set_flag(k, DV_PIPE_MTE2, DV_PIPE_V, ev);
    dvk_wait_flag(k, DV_PIPE_MTE2, DV_PIPE_V, ev);
    dvk_vrelu(k, buf, buf, DV_DT_F32, prm->elems / 64, 1, 1, 8, 8);
    dvk_set_flag(k, DV_PIPE_V, DV_PIPE_MTE3, ev2);
    dvk_wait_flag(k, DV_PIPE_V, DV_PIPE_MTE3, ev2);
    dvk_copy_ubuf_to_gm(k, dvk_gm(k, 1, off), buf, 1, prm->elems * 4 / 32, 0, 0);
}

/* The CSV's header and first row, split at commas (no field here holds one but the quoted names). */
static int csv_cols(const char *path, char cols[2][64][96])
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char line[8192];
    int n = 0;
    for (int l = 0; l < 2; l++) {
        ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
        n = 0;
        bool q = false;
        size_t k = 0;
        for (char *p = line; *p && *p != '\n' && n < 64; p++) {
            if (*p == '"')
                q = !q;
            else if (*p == ',' && !q) {
                cols[l][n++][k] = 0;
                k = 0;
            } else if (k + 1 < 96)
                cols[l][n][k++] = *p;
        }
        cols[l][n++][k] = 0;
    }
    fclose(f);
    return n;
}

START_TEST(test_errband_op_summary_columns)
{
    char dir[] = "/tmp/dvsim_errband_XXXXXX", csv[128];
    static char cols[2][64][96];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(csv, sizeof csv, "%s/op_summary.csv", dir);
    relu_params_t prm = {2048};
    void *x, *y;
    uint32_t devs[1] = {0};
    up();
    OK(aclrtMalloc(&x, 4 * prm.elems * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&y, 4 * prm.elems * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    aclprofConfig *pc = aclprofCreateConfig(devs, 1, ACL_AICORE_PIPE_UTILIZATION, NULL, ACL_PROF_TASK_TIME);
    ck_assert_ptr_nonnull(pc);
    OK(aclprofInit(dir, strlen(dir)));
    OK(aclprofStart(pc));
    void *gm[2] = {x, y};
    OK(dvsimLaunchKernel("relu", relu_kernel, DV_KIND_VECTOR, 4, NULL, gm, 2, &prm, sizeof prm));
    OK(aclrtSynchronizeDevice());
    OK(aclprofStop(pc));
    OK(aclprofDestroyConfig(pc));
    OK(aclprofFinalize());
    const int n = csv_cols(csv, cols);
    ck_assert_int_ge(n, 3);
    ck_assert_str_eq(cols[0][n - 3], "time_class");
    ck_assert_str_eq(cols[0][n - 2], "time_error_pct");
    ck_assert_str_eq(cols[0][n - 1], "time_error_cases");
    int cls = -1;
    for (int c = 0; c < DV_KCLASS_COUNT; c++)
        if (strcmp(cols[1][n - 3], dv_kclass_name((dv_kclass_t)c)) == 0)
            cls = c;
    ck_assert_msg(cls >= 0, "time_class '%s' is no class", cols[1][n - 3]);
    /* a small kernel on the default profile: the launch dominates */
    ck_assert_int_eq(cls, DV_KCLASS_LAUNCH);
    const dv_errband_t want = dv_errband_of((dv_kclass_t)cls, dv_residuals, dv_nresiduals);
    char pct[32], cases[16];
    if (want.has_band)
        snprintf(pct, sizeof pct, "%.1f", want.pct);
    else
        snprintf(pct, sizeof pct, "N/A");
    snprintf(cases, sizeof cases, "%d", want.cases);
    ck_assert_str_eq(cols[1][n - 2], pct);
    ck_assert_str_eq(cols[1][n - 1], cases);
    down();
    unlink(csv);
    snprintf(csv, sizeof csv, "%s/op_hotspot.csv", dir);
    unlink(csv);
    snprintf(csv, sizeof csv, "%s/timeline.json", dir);
    unlink(csv);
    rmdir(dir);
}
END_TEST

Suite *dv_errband_suite(void)
{
    Suite *s = suite_create("errband");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_errband_classify_launch);
    tcase_add_test(tc, test_errband_classify_compute_first);
    tcase_add_test(tc, test_errband_classify_busiest_pipe);
    tcase_add_test(tc, test_errband_band_from_residuals);
    tcase_add_test(tc, test_errband_table_is_the_calibration_set);
    tcase_add_test(tc, test_errband_report_carries_the_band);
    tcase_add_test(tc, test_errband_op_summary_columns);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
