/* bench/micro.c - the microbenchmarks of bench/micro.def (include/dv/micro.h): the table, the run
 * over its rows and the printed and generated (docs/MICRO.md) forms.  The rows are in
 * bench/micro_core.c and bench/micro_memory.c, the harness they share in bench/micro_harness.c.
 *
 * Every row builds small dvtrace kernels, runs them on the model (timing only, no hazard checks) and
 * derives its figure from their cycle counts.  The profile is read for two things only: to size the
 * kernels so that they fit and isolate what they measure, and, in dv_micro_run, to form the value the
 * figure is compared with.  Measurements that several rows share (the GM read and write paths, the
 * vector classes, ...) are studies run once per dv_micro_run and kept in the context. */
#include "micro_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banner.h"
#include "dv/sim.h"
#include "dv/topology.h"

/* ================================================================ the table */

static const dv_micro_spec_t specs[] = {
#define DV_MICRO(name, fn, arg, expect, tol, params, method) {name, params, method, tol},
#include "micro.def"
};

static const dv_micro_skip_t skips[] = {
#define DV_MICRO_SKIP(params, reason) {params, reason},
#include "micro.def"
};

static const struct {
    row_fn fn;
    int arg;
    row_expect_t expect;
} rows[] = {
#define DV_MICRO(name, fn, arg, expect, tol, params, method) {mb_##fn, arg, MX_##expect},
#include "micro.def"
};

#define NROWS ((int)(sizeof specs / sizeof specs[0]))
#define NSKIPS ((int)(sizeof skips / sizeof skips[0]))

int dv_micro_count(void) { return NROWS; }
const dv_micro_spec_t *dv_micro_spec(int i) { return i >= 0 && i < NROWS ? &specs[i] : NULL; }
int dv_micro_skip_count(void) { return NSKIPS; }
const dv_micro_skip_t *dv_micro_skip(int i) { return i >= 0 && i < NSKIPS ? &skips[i] : NULL; }

/* ================================================================ running and printing */

/* The profile value a row compares with: the sum of its parameters, or the sustained HBM rate. */
static uint64_t expected(const dv_config_t *cfg, int i)
{
    if (rows[i].expect == MX_HBM)
        return dv_hbm_sustained_bytes_per_cycle(cfg);
    uint64_t sum = 0;
    const char *p = specs[i].params;
    while (*p) {
        char name[96];
        size_t n = strcspn(p, " +");
        snprintf(name, sizeof name, "%.*s", (int)n, p);
        const dv_param_spec_t *s = dv_param_find(name);
        if (s)
            sum += dv_param_u64(s, cfg);
        p += n;
        p += strspn(p, " +");
    }
    return sum;
}

static bool selected(const char *only, int i) { return !only || strncmp(specs[i].name, only, strlen(only)) == 0; }

int dv_micro_selected(const char *only)
{
    int n = 0;
    for (int i = 0; i < NROWS; i++)
        n += selected(only, i);
    return n;
}

int dv_micro_run(const dv_config_t *cfg, const char *only, dv_micro_result_t *res, dv_error_t *err)
{
    micro_ctx_t *c = calloc(1, sizeof *c);
    int failed = 0, rc;
    run_counts_t probe;
    if (!c)
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    c->cfg = *cfg;
    c->next_base = DV_GM_BASE;
    c->nvec = dv_topo_kernel_cores(cfg, DV_KIND_VECTOR);
    for (int i = 0; i < NROWS; i++) {
        memset(&res[i], 0, sizeof res[i]);
        res[i].status = DV_MICRO_NOT_RUN;
    }
    /* a first kernel: the model must accept this profile at all */
    micro_kernel_header(c, "vector", 1, 0);
    micro_text_add(&c->k, "block 0\nend\n");
    if ((rc = dv_model_create(cfg, &c->model, &c->err)) != DV_OK ||
        (rc = micro_run_text(c, micro_fresh_base(c), &probe)) != DV_OK) {
        if (err)
            *err = c->err;
        failed = rc;
        goto cleanup;
    }
    for (int i = 0; i < NROWS; i++) {
        if (!selected(only, i))
            continue;
        dv_micro_result_t *r = &res[i];
        r->status = DV_MICRO_FAIL;
        rows[i].fn(c, rows[i].arg, r);
        r->expected = expected(cfg, i);
        if (r->status != DV_MICRO_PASS)
            goto count;
        if (specs[i].tol_percent) {
            const uint64_t d = r->measured > r->expected ? r->measured - r->expected : r->expected - r->measured;
            if (d * 100 > (uint64_t)specs[i].tol_percent * r->expected)
                r->status = DV_MICRO_FAIL;
        } else if (r->expected < r->measured || r->expected > r->measured_hi) {
            r->status = DV_MICRO_FAIL;
        }
count:
        failed += r->status == DV_MICRO_FAIL;
    }
cleanup:
    dv_model_destroy(c->model);
    free(c->k.s);
    free(c->b.s);
    free(c);
    return failed;
}

int dv_micro_print(FILE *out, const dv_config_t *cfg, const dv_micro_result_t *res)
{
    int n[4] = {0};
    for (int i = 0; i < NROWS; i++)
        n[res[i].status]++;
    fprintf(out, "microbenchmarks on %s: %d pass, %d fail, %d not observable on this profile\n", cfg->chip_name,
            n[DV_MICRO_PASS], n[DV_MICRO_FAIL], n[DV_MICRO_NA]);
    fprintf(out, "%-28s %12s %10s  %-6s %s\n", "row", "measured", "profile", "result", "parameter(s): how");
    for (int i = 0; i < NROWS; i++) {
        const dv_micro_result_t *r = &res[i];
        char meas[48];
        if (r->status == DV_MICRO_NOT_RUN)
            continue;
        if (r->status == DV_MICRO_NA || (r->status == DV_MICRO_FAIL && !r->measured && !r->measured_hi))
            snprintf(meas, sizeof meas, "-");
        else if (r->measured_hi != r->measured)
            snprintf(meas, sizeof meas, "%llu..%llu", ull(r->measured), ull(r->measured_hi));
        else
            snprintf(meas, sizeof meas, "%llu", ull(r->measured));
        fprintf(out, "%-28s %12s %10llu  %-6s %s: %s\n", specs[i].name, meas, ull(r->expected),
                r->status == DV_MICRO_PASS ? "pass" : r->status == DV_MICRO_FAIL ? "FAIL" : "n/a", specs[i].params,
                r->detail);
    }
    return n[DV_MICRO_FAIL];
}

int dv_micro_main(FILE *out, const dv_config_t *cfg, const char *only, dv_error_t *err)
{
    dv_micro_result_t *res = calloc((size_t)NROWS, sizeof *res);
    if (!res)
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    int rc = dv_micro_run(cfg, only, res, err);
    if (rc >= 0)
        rc = dv_micro_print(out, cfg, res);
    free(res);
    return rc;
}

void dv_micro_doc(FILE *out)
{
    fprintf(out,
            DV_BANNER_MD("make docs", "bench/micro.def", "bench/micro.c") "\n\n# Microbenchmarks\n\n"
            "Each row runs small generated kernels (dvtrace text, `traces/FORMAT.md`) on the model and derives one\n"
            "figure from their cycle counts, usually by differencing two runs that differ only in the count of the\n"
            "thing measured, in the manner of lmbench.  The figure is compared with the profile parameter(s) the row\n"
            "isolates: it must be equal, or, where the model rounds a cost up to whole cycles, the row says what it\n"
            "derives (the range of rates that give the same cycle counts, or a ratio of large differences rounded\n"
            "to the nearest integer, exact while the rate squared is below half the difference in bytes).  The\n"
            "profile is read only to size the kernels and to compare.  Together the rows are the self-consistency\n"
            "check that the model does what the profile says.\n\n"
            "Run them with `dvsim micro` (any `--profile`, `--config`, `--set`); `tests/check_micro.c` runs every\n"
            "row on every preset and on perturbed profiles.  A row is *not observable* (n/a) on a profile where no\n"
            "kernel can see its parameter, for instance a local-side bandwidth that the DMA engine always hides,\n"
            "or where another cost binds before it: a scalar issue longer than the occupancy a row differences, a\n"
            "queue deeper than its slow instruction can fill, HBM slower than one core's DMA engine.  Each row\n"
            "checks its premise and its detail says why it cannot measure.  `make validate` checks that on every\n"
            "preset, and on each preset with any one parameter halved, doubled or raised by one, every row\n"
            "passes or is not observable.\n\n"
            "Notation: T(K) is the cycle count of kernel K; *mask* is a kernel of one `set_vector_mask` (one\n"
            "scalar issue, nothing else); occ(C) is the number of cycles instruction C holds its pipe, measured as\n"
            "T(C; C') - T(C) where C' is a second C, on fresh GM lines when it touches GM (C' starts when C frees\n"
            "the pipe).  Every run uses fresh GM addresses unless it is meant to hit in L2.\n\n"
            "The GM rows use the DMA engine's rule (`model/DmaEngine.cpp`): issue cycles, then per burst\n"
            "`gm.burst_overhead_bytes` plus, per micro-op, max(`uop_cycles` x rate, bytes), the byte sum divided by\n"
            "the per-core rate once and rounded up.  A copy of *rate* bursts therefore costs the per-burst bytes in\n"
            "whole cycles, which is how the overhead and the micro-op minimum are read off exactly.  They\n"
            "need one core's engine to bind: where the profile makes L2 slower than it (or, for misses and\n"
            "written-through writes, HBM's sustained rate), the rows that depend on it are not observable.\n\n"
            "The vector rows time the first instruction of each class in `isa/isa.def` that takes a repeat count,\n"
            "with operands in distinct UB banks.  Where the bank geometry makes conflicts unavoidable (fewer\n"
            "bank groups than rows a repeat reads), the conflict cycles the model counted are taken off each\n"
            "occupancy, as the model adds them to the rate's cycles.  The l0c class\n"
            "(`copy_matrix_cc_to_ubuf`, coupled chips) cannot express repeat 0: its occ(R) is measured after a\n"
            "255-repeat copy and its latency as T(1 repeat) - T(mask) - occ(1 repeat).\n\n"
            "## Rows\n\n"
            "| Row | Parameter(s) | Method |\n|---|---|---|\n");
    for (int i = 0; i < NROWS; i++)
        if (specs[i].tol_percent)
            fprintf(out, "| `%s` | `%s` (within %u%%) | %s |\n", specs[i].name, specs[i].params, specs[i].tol_percent,
                    specs[i].method);
        else
            fprintf(out, "| `%s` | `%s` | %s |\n", specs[i].name, specs[i].params, specs[i].method);
    fprintf(out, "\n## Parameters no kernel isolates\n\n| Parameter | Why |\n|---|---|\n");
    for (int i = 0; i < NSKIPS; i++)
        fprintf(out, "| `%s` | %s |\n", skips[i].params, skips[i].reason);
}
