/* tests/check_micro.c - the microbenchmarks of bench/micro.def: every row passes on every preset, and on
 * perturbed profiles each figure follows the parameter it isolates (so a row cannot pass by matching
 * a constant). */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/config.h"
#include "dv/micro.h"
#include "support/dvt.h"

static int row_index(const char *name)
{
    for (int i = 0; i < dv_micro_count(); i++)
        if (strcmp(dv_micro_spec(i)->name, name) == 0)
            return i;
    ck_abort_msg("no microbenchmark row '%s'", name);
    return -1;
}

/* Run every row on cfg and fail with the failing rows, if any.  The caller frees the results. */
static dv_micro_result_t *run_all(const dv_config_t *cfg)
{
    dv_micro_result_t *res = calloc((size_t)dv_micro_count(), sizeof *res);
    dv_error_t err = {0};
    ck_assert_ptr_nonnull(res);
    const int failed = dv_micro_run(cfg, NULL, res, &err);
    ck_assert_msg(failed >= 0, "dv_micro_run: %s", err.msg);
    if (failed) {
        char msg[4096];
        size_t n = (size_t)snprintf(msg, sizeof msg, "%s: %d microbenchmark(s) failed:", cfg->chip_name, failed);
        for (int i = 0; i < dv_micro_count() && n < sizeof msg; i++)
            if (res[i].status == DV_MICRO_FAIL)
                n += (size_t)snprintf(msg + n, sizeof msg - n, "\n  %s: measured %llu..%llu, profile %llu (%s)",
                                      dv_micro_spec(i)->name, (unsigned long long)res[i].measured,
                                      (unsigned long long)res[i].measured_hi, (unsigned long long)res[i].expected,
                                      res[i].detail);
        ck_abort_msg("%s", msg);
    }
    return res;
}

/* A row that must have measured exactly v (or, for rows with a tolerance, within it). */
typedef struct track {
    const char *row;
    uint64_t v;
} track_t;

static void check_tracks(const dv_micro_result_t *res, const track_t *t, int n)
{
    for (int i = 0; i < n; i++) {
        const int k = row_index(t[i].row);
        const dv_micro_result_t *r = &res[k];
        ck_assert_msg(r->status == DV_MICRO_PASS, "%s: status %d (%s)", t[i].row, r->status, r->detail);
        const unsigned tol = dv_micro_spec(k)->tol_percent;
        if (tol) {
            const uint64_t d = r->measured > t[i].v ? r->measured - t[i].v : t[i].v - r->measured;
            ck_assert_msg(d * 100 <= tol * t[i].v, "%s: measured %llu, set %llu", t[i].row,
                          (unsigned long long)r->measured, (unsigned long long)t[i].v);
        } else {
            ck_assert_msg(r->measured == t[i].v && r->measured_hi == t[i].v, "%s: measured %llu..%llu, set %llu (%s)",
                          t[i].row, (unsigned long long)r->measured, (unsigned long long)r->measured_hi,
                          (unsigned long long)t[i].v, r->detail);
        }
    }
}

/* Every row on every built-in preset. */
START_TEST(test_micro_preset)
{
    const char *name = dv_profile_names()[_i];
    dv_config_t cfg;
    dvt_config(&cfg, name, NULL);
    dv_micro_result_t *res = run_all(&cfg);
    int pass = 0;
    for (int i = 0; i < dv_micro_count(); i++)
        pass += res[i].status == DV_MICRO_PASS;
    /* what a chip cannot show (no FIX pipe, no L0C -> UB path, engine-bound local sides, a micro-op boundary
     * hidden by the requests in flight, too few vector cores to load HBM) is n/a */
    ck_assert_msg(pass >= dv_micro_count() - 17, "%s: only %d of %d rows observable", name, pass, dv_micro_count());
    free(res);
}
END_TEST

/* Launch, scalar, sync, queues, vector, cube, MTE1 and FixPipe parameters moved off their defaults. */
static const char *const sets_core[] = {
    "chip.kernel_start_cycles=1234", "chip.block_start_cycles=77", "scalar.issue_cycles=3",
    "sync.flag_latency_cycles=7", "sync.cross_latency_cycles=55", "queue.v_depth=5", "queue.m_depth=9",
    "queue.mte1_depth=12", "queue.mte2_depth=7", "queue.mte3_depth=20", "queue.fix_depth=3",
    "vector.pipeline_cycles=9", "vector.add.b16_bytes_per_cycle=100", "vector.exp.b32_bytes_per_cycle=48",
    "vector.sel.b32_bytes_per_cycle=200", "vector.cmax.b16_latency_cycles=31", "cube.m=32", "cube.n=8",
    "cube.k_f16=32", "cube.k_s8=64", "cube.k_f32=8", "cube.latency_cycles=33", "mte1.l0a_bytes_per_cycle=200",
    "mte1.l0b_bytes_per_cycle=96", "mte1.load2d_latency_cycles=11", "mte1.load3d_latency_cycles=70",
    "fixpipe.issue_cycles=9", "fixpipe.l0c_bytes_per_cycle=100", "fixpipe.latency_cycles=40", NULL};

START_TEST(test_micro_tracks_core_parameters)
{
    static const track_t t[] = {
        {"chip.kernel_start", 1234}, {"chip.block_start", 77}, {"scalar.issue", 3}, {"sync.flag", 7},
        {"sync.cross", 55}, {"queue.v", 5}, {"queue.m", 9}, {"queue.mte1", 12}, {"queue.mte2", 7},
        {"queue.mte3", 20}, {"queue.fix", 3}, {"vector.add.b16.rate", 100}, {"vector.exp.b32.rate", 48},
        {"vector.sel.b32.rate", 200}, {"vector.cmax.b16.latency", 31 + 9}, {"vector.add.b16.latency", 6 + 9},
        {"cube.m", 32}, {"cube.n", 8}, {"cube.k.f16", 32}, {"cube.k.bf16", 16}, {"cube.k.s8", 64},
        {"cube.k.f32", 8}, {"cube.latency", 33}, {"mte1.l0a", 200}, {"mte1.l0b", 96}, {"mte1.load2d", 11},
        {"mte1.load3d", 70}, {"fix.issue", 9}, {"fix.l0c", 100}, {"fix.latency", 40}};
    dv_config_t cfg;
    dvt_config(&cfg, "ascend910b2", sets_core);
    dv_micro_result_t *res = run_all(&cfg);
    check_tracks(res, t, (int)(sizeof t / sizeof t[0]));
    free(res);
}
END_TEST

/* The GM paths and the shared memory system: another micro-op size, rates, overheads, latencies,
 * a slow UB write side on reads (now visible), write-back L2. */
static const char *const sets_memory[] = {
    "gm.core_read_bytes_per_cycle=150", "gm.core_write_bytes_per_cycle=60", "gm.burst_overhead_bytes=64",
    "gm.uop_bytes=1024", "mte2.uop_cycles=2", "mte3.uop_cycles=3", "mte2.issue_cycles=30", "mte3.issue_cycles=7",
    "mte2.latency_cycles=200", "mte3.latency_cycles=90", "hbm.latency_cycles=120", "mte2.ub_bytes_per_cycle=64",
    "hbm.efficiency_percent=80", "l2.bytes_per_cycle=3000", "l2.write_through=false",
    "mte2.outstanding_bursts=1000", /* requests in flight that never hide the engine: mte2.uop_bytes is seen */
    NULL};

START_TEST(test_micro_tracks_memory_parameters)
{
    static const track_t t[] = {
        {"mte2.rate", 150}, {"mte3.rate", 60}, {"mte2.burst", 64}, {"mte3.burst", 64}, {"mte2.uop_bytes", 1024},
        {"mte2.uop", 2}, {"mte3.uop", 3}, {"mte2.issue", 30}, {"mte3.issue", 7}, {"mte2.latency", 200},
        {"mte3.latency", 90}, {"mte2.miss", 120}, {"mte2.ub", 64}, {"hbm.stream", 888 * 80 / 100},
        {"l2.stream", 3000}, {"l2.write_through", 0}};
    dv_config_t cfg;
    dvt_config(&cfg, "ascend910b2", sets_memory);
    dv_micro_result_t *res = run_all(&cfg);
    check_tracks(res, t, (int)(sizeof t / sizeof t[0]));
    free(res);
}
END_TEST

/* A coupled chip with zero costs and local sides slower than the DMA engines: the reads move to the
 * UB path, the L1 and UB -> GM local rates become visible and the write engine rows are n/a. */
static const char *const sets_local[] = {
    "mte2.l1_bytes_per_cycle=48", "mte3.local_bytes_per_cycle=40", "vector.l0c.b32_bytes_per_cycle=64",
    "vector.l0c.b32_latency_cycles=5", "scalar.issue_cycles=0", "sync.flag_latency_cycles=0",
    "chip.block_start_cycles=0", "mte2.uop_cycles=0", NULL};

START_TEST(test_micro_tracks_local_sides_and_zero_costs)
{
    dv_config_t cfg;
    dvt_config(&cfg, "ascend310", sets_local);
    static const track_t t[] = {
        {"mte2.l1", 48}, {"mte3.local", 40}, {"vector.l0c.b32.rate", 64}, {"scalar.issue", 0}, {"sync.flag", 0},
        {"chip.block_start", 0}, {"mte2.uop", 0}, {"mte2.rate", 67}, {"mte2.issue", 16}};
    dv_micro_result_t *res = run_all(&cfg);
    check_tracks(res, t, (int)(sizeof t / sizeof t[0]));
    const dv_micro_result_t *lat = &res[row_index("vector.l0c.b32.latency")];
    ck_assert_uint_eq(lat->measured, 5 + cfg.vector_pipeline_cycles);
    ck_assert_int_eq(res[row_index("mte3.rate")].status, DV_MICRO_NA);
    ck_assert_int_eq(res[row_index("mte2.uop_bytes")].status, DV_MICRO_NA);
    free(res);
}
END_TEST

/* Every schema parameter is isolated by a row or listed as skipped with a reason, never both; every
 * parameter a row names exists; row names are unique. */
static bool in_params(const char *list, const char *name)
{
    const size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
            return true;
    return false;
}

static bool skipped(const char *name)
{
    for (int i = 0; i < dv_micro_skip_count(); i++) {
        const char *s = dv_micro_skip(i)->params;
        const size_t n = strlen(s);
        if (strcmp(s, name) == 0 || (n > 2 && strcmp(s + n - 2, ".*") == 0 && strncmp(s, name, n - 1) == 0))
            return true;
    }
    return false;
}

START_TEST(test_micro_table_covers_schema)
{
    int count;
    const dv_param_spec_t *ps = dv_param_specs(&count);
    for (int i = 0; i < count; i++) {
        char name[128];
        snprintf(name, sizeof name, "%s.%s", ps[i].section, ps[i].key);
        bool covered = false;
        for (int k = 0; k < dv_micro_count(); k++)
            covered = covered || in_params(dv_micro_spec(k)->params, name);
        ck_assert_msg(covered || skipped(name), "%s is neither measured by a microbenchmark nor listed as skipped",
                      name);
        ck_assert_msg(!(covered && skipped(name)), "%s is both measured and listed as skipped", name);
    }
    for (int k = 0; k < dv_micro_count(); k++) {
        const dv_micro_spec_t *s = dv_micro_spec(k);
        char buf[256];
        snprintf(buf, sizeof buf, "%s", s->params);
        for (char *tok = strtok(buf, " +*/"); tok; tok = strtok(NULL, " +*/"))
            ck_assert_msg(tok[0] >= '0' && tok[0] <= '9' ? true : dv_param_find(tok) != NULL,
                          "row %s names unknown parameter '%s'", s->name, tok);
        ck_assert_msg(s->method && *s->method, "row %s has no method", s->name);
        for (int j = 0; j < k; j++)
            ck_assert_msg(strcmp(dv_micro_spec(j)->name, s->name) != 0, "row %s twice", s->name);
    }
    for (int i = 0; i < dv_micro_skip_count(); i++)
        ck_assert_msg(dv_micro_skip(i)->reason && *dv_micro_skip(i)->reason, "%s skipped without a reason",
                      dv_micro_skip(i)->params);
}
END_TEST

/* `only` selects rows by name prefix; the printed table lists just those. */
START_TEST(test_micro_only_selects_rows)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dv_micro_result_t *res = calloc((size_t)dv_micro_count(), sizeof *res);
    dv_error_t err = {0};
    ck_assert_int_eq(dv_micro_run(&cfg, "cube.", res, &err), 0);
    for (int i = 0; i < dv_micro_count(); i++)
        ck_assert_int_eq(res[i].status == DV_MICRO_NOT_RUN, strncmp(dv_micro_spec(i)->name, "cube.", 5) != 0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_int_eq(dv_micro_print(f, &cfg, res), 0);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "cube.k.s8"));
    ck_assert_ptr_nonnull(strstr(text, "7 pass, 0 fail"));
    ck_assert_ptr_null(strstr(text, "scalar.issue"));
    free(text);
    free(res);
}
END_TEST

/* What-if profiles on which some rows cannot isolate their parameter: those rows say so (n/a, with
 * the reason), the others still pass, and none fails. */
static const struct premise {
    const char *preset;
    const char *sets[3];
    const char *na[3];      /* rows that must be not observable, with a word of the reason */
    const char *why;
    const char *pass[2];    /* rows that must still pass */
} premises[] = {
    /* 16 rows read per repeat over 8 bank groups: conflicts are forced and taken off */
    {"ascend910b2", {"core.ub_bank_groups=8"}, {NULL}, NULL, {"vector.add.b16.rate", "vector.div.b32.rate"}},
    /* HBM slower than one core's engines: misses and written-through writes are HBM-bound */
    {"ascend310", {"hbm.bytes_per_cycle=40"}, {"mte2.miss", "mte3.rate", "mte3.issue"}, "HBM", {"mte2.rate", "mte2.latency"}},
    /* a scalar issue longer than the small instructions' occupancies */
    {"ascend910b2", {"scalar.issue_cycles=100"}, {"sync.flag", "cube.latency", "mte1.load3d"}, "scalar", {"scalar.issue", "mte2.rate"}},
    /* whole micro-ops cost the micro-op minimum */
    {"ascend910b2", {"gm.uop_bytes=32"}, {"mte2.rate", "mte3.burst"}, "micro-op", {"mte1.l0a", "fix.l0c"}},
    /* a queue deeper than the slow instruction can fill */
    {"ascend910b2", {"queue.v_depth=1024"}, {"queue.v"}, "fill a queue", {"queue.m"}},
    /* the local side binds on the cached path */
    {"ascend310", {"gm.core_read_bytes_per_cycle=134"}, {NULL}, NULL, {"mte2.ub", "mte2.rate"}},
};

START_TEST(test_micro_premises)
{
    const struct premise *p = &premises[_i];
    const char *sets[4] = {p->sets[0], p->sets[1], p->sets[2], NULL};
    dv_config_t cfg;
    dvt_config(&cfg, p->preset, sets);
    dv_micro_result_t *res = run_all(&cfg);
    for (int i = 0; i < 3 && p->na[i]; i++) {
        const dv_micro_result_t *r = &res[row_index(p->na[i])];
        ck_assert_msg(r->status == DV_MICRO_NA, "%s with %s: status %d (%s)", p->na[i], p->sets[0], r->status,
                      r->detail);
        ck_assert_msg(strstr(r->detail, p->why) != NULL, "%s: reason '%s' lacks '%s'", p->na[i], r->detail, p->why);
    }
    for (int i = 0; i < 2 && p->pass[i]; i++) {
        const dv_micro_result_t *r = &res[row_index(p->pass[i])];
        ck_assert_msg(r->status == DV_MICRO_PASS, "%s with %s: status %d (%s)", p->pass[i], p->sets[0], r->status,
                      r->detail);
    }
    free(res);
}
END_TEST

/* Each run builds a model of its own: a second profile in the same process runs, and the first
 * profile run again gives exactly its first results. */
START_TEST(test_micro_second_profile_runs)
{
    dv_config_t a, b;
    dvt_config(&a, "ascend910b2", NULL);
    dvt_config(&b, "ascend310", NULL);
    const size_t n = (size_t)dv_micro_count();
    dv_micro_result_t *first = calloc(n, sizeof *first), *other = calloc(n, sizeof *other),
                      *again = calloc(n, sizeof *again);
    dv_error_t err = {0};
    ck_assert_int_eq(dv_micro_run(&a, "scalar.", first, &err), 0);
    ck_assert_int_eq(dv_micro_run(&b, "scalar.", other, &err), 0);
    ck_assert_int_eq(dv_micro_run(&a, "scalar.", again, &err), 0);
    int ran = 0;
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(again[i].status, first[i].status);
        ck_assert_uint_eq(again[i].measured, first[i].measured);
        ck_assert_uint_eq(again[i].measured_hi, first[i].measured_hi);
        ck_assert_str_eq(again[i].detail, first[i].detail);
        ran += other[i].status == DV_MICRO_PASS;
    }
    ck_assert_int_gt(ran, 0);
    free(first);
    free(other);
    free(again);
}
END_TEST

Suite *dv_micro_suite(void)
{
    Suite *s = suite_create("micro");
    TCase *tc = tcase_create("rows");
    int presets = 0;
    while (dv_profile_names()[presets])
        presets++;
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_micro_preset, 0, presets);
    tcase_add_test(tc, test_micro_tracks_core_parameters);
    tcase_add_test(tc, test_micro_tracks_memory_parameters);
    tcase_add_test(tc, test_micro_tracks_local_sides_and_zero_costs);
    tcase_add_test(tc, test_micro_table_covers_schema);
    tcase_add_test(tc, test_micro_only_selects_rows);
    tcase_add_test(tc, test_micro_second_profile_runs);
    tcase_add_loop_test(tc, test_micro_premises, 0, (int)(sizeof premises / sizeof premises[0]));
    suite_add_tcase(s, tc);
    return s;
}
