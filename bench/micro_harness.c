/* bench/micro_harness.c - the harness of the microbenchmarks (micro_internal.h): kernel text, runs
 * on the context's model, and the outcome and figure of a row. */
#include "micro_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/sim.h"
#include "dv/trace.h"

/* ---------------------------------------------------------------- kernel text */

void micro_text_add(text_t *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = t->cap - t->n;
        va_start(ap, fmt);
        int k = t->s ? vsnprintf(t->s + t->n, room, fmt, ap) : -1;
        va_end(ap);
        if (k >= 0 && (size_t)k < room) {
            t->n += (size_t)k;
            return;
        }
        size_t cap = t->cap ? t->cap * 2 : 4096;
        while (k >= 0 && cap - t->n <= (size_t)k)
            cap *= 2;
        char *s = realloc(t->s, cap);
        if (!s) {
            t->oom = true;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
}

void micro_text_clear(text_t *t)
{
    t->n = 0;
    if (t->s)
        t->s[0] = '\0';
}

/* ---------------------------------------------------------------- runs and outcomes */

uint64_t micro_fresh_region(micro_ctx_t *c, uint64_t bytes)
{
    const uint64_t b = c->next_base;
    c->next_base += (bytes / REGION + 1) * REGION;
    return b;
}

uint64_t micro_fresh_base(micro_ctx_t *c) { return micro_fresh_region(c, 0); }

int micro_format_reason(char *why, size_t n, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return rc;
}

/* Run the kernel text in c->k with its GM arguments from device address base. */
int micro_run_text(micro_ctx_t *c, uint64_t base, run_counts_t *out)
{
    dv_kernel_t *k = NULL;
    dv_gm_t gm;
    dv_counters_t cnt;
    dv_run_opts_t o;
    int rc;

    memset(&gm, 0, sizeof gm);
    memset(out, 0, sizeof *out);
    if (c->k.oom) {
        rc = dv_error_set(&c->err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory for a kernel text");
        goto cleanup;
    }
    if ((rc = dv_trace_open_string(c->k.s, "micro", &k, &c->err)) != DV_OK)
        goto cleanup;
    if ((rc = dv_sim_gm_setup(&c->cfg, &k->info, false, "micro", base, &gm, &c->err)) != DV_OK)
        goto cleanup;
    dv_run_opts_default(&o);
    o.data = false;
    o.hazards = false;
    if ((rc = dv_model_run(c->model, k, &gm, &o, &cnt, &c->err)) != DV_OK)
        goto cleanup;
    out->cycles = cnt.cycles;
    out->hbm_wr = cnt.hbm_write_bytes;
    out->same_addr = cnt.hbm_same_address;
    for (uint32_t i = 0; i < cnt.ncores; i++) {
        out->conflicts += cnt.cores[i].bank_conflict_cycles;
        out->qstall += cnt.cores[i].stall_queue_full_cycles;
        if (cnt.cores[i].blocks) {
            out->finish_sum += cnt.cores[i].last_cycle;
            out->finish_n++;
        }
    }
    dv_counters_free(&cnt);
cleanup:
    dv_sim_gm_free(&gm);
    if (k)
        dv_trace_close(k);
    return rc;
}

/* Kernel header: one GM argument x of `bytes` bytes when bytes > 0. */
void micro_kernel_header(micro_ctx_t *c, const char *kind, unsigned blocks, uint64_t bytes)
{
    micro_text_clear(&c->k);
    micro_text_add(&c->k, "dvtrace 1\nkernel micro kind=%s blocks=%u\n", kind, blocks);
    if (bytes)
        micro_text_add(&c->k, "arg x bytes=%llu dtype=u8 dir=inout\n", ull(bytes));
}

/* Run a one-block kernel whose body is c->b, from `base` (0: fresh lines). */
int micro_run_body(micro_ctx_t *c, bool cube, uint64_t bytes, uint64_t base, run_counts_t *out)
{
    micro_kernel_header(c, cube ? "cube" : "vector", 1, bytes);
    micro_text_add(&c->k, "block 0\n%s", c->b.s ? c->b.s : "");
    micro_text_add(&c->k, "end\n");
    if (c->b.oom)
        c->k.oom = true;
    return micro_run_text(c, base ? base : micro_fresh_base(c), out);
}

/* T of a one-block kernel of the formatted body; on failure m says why. */
int micro_time_body(micro_ctx_t *c, outcome_t *m, bool cube, uint64_t bytes, uint64_t base, uint64_t *t,
                    const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    micro_text_clear(&c->b);
    micro_text_add(&c->b, "%s", line);
    run_counts_t r;
    if (micro_run_body(c, cube, bytes, base, &r) != DV_OK)
        return FAIL(m, "kernel failed: %s [%.*s]", c->err.msg, (int)strcspn(line, "\n"), line);
    *t = r.cycles;
    return MS_OK;
}

/* T(mask) on a vector (cube = 0) or cube (1) core. */
int micro_time_mask(micro_ctx_t *c, bool cube, uint64_t *t, outcome_t *why)
{
    outcome_t *m = &c->mask_m[cube];
    if (!m->done) {
        m->done = true;
        m->rc = micro_time_body(c, m, cube, 0, 0, &c->mask_t[cube], MASK);
    }
    if (m->rc != MS_OK) {
        *why = *m;
        return m->rc;
    }
    *t = c->mask_t[cube];
    return MS_OK;
}

/* Copy a study's outcome into a row; true when the row can go on. */
bool micro_usable(const outcome_t *m, dv_micro_result_t *r)
{
    if (m->rc == MS_OK)
        return true;
    r->status = m->rc == MS_NA ? DV_MICRO_NA : DV_MICRO_FAIL;
    snprintf(r->detail, sizeof r->detail, "%s", m->why);
    return false;
}

/* A measured figure: [lo, hi] (one value when lo == hi); dv_micro_run compares it. */
void micro_figure(dv_micro_result_t *r, uint64_t lo, uint64_t hi, const char *fmt, ...)
{
    va_list ap;
    r->status = DV_MICRO_PASS;
    r->measured = lo;
    r->measured_hi = hi;
    va_start(ap, fmt);
    vsnprintf(r->detail, sizeof r->detail, fmt, ap);
    va_end(ap);
}

void micro_row_na(dv_micro_result_t *r, const char *fmt, ...)
{
    va_list ap;
    r->status = DV_MICRO_NA;
    va_start(ap, fmt);
    vsnprintf(r->detail, sizeof r->detail, fmt, ap);
    va_end(ap);
}

/* occ(C) measured as T(C; C') - T(C) is C's occupancy only when the scalar unit issues C' before C
 * frees its pipe, that is when the difference exceeds scalar.issue_cycles; otherwise the issue rate
 * hides it (NA). */
int micro_occ_seen(micro_ctx_t *c, outcome_t *m, uint64_t occ, const char *what)
{
    if (occ > c->cfg.scalar_issue_cycles)
        return MS_OK;
    return NA(m, "the scalar unit's issue (scalar.issue_cycles = %llu) hides the occupancy of %s (%llu cycles seen)",
              ull(c->cfg.scalar_issue_cycles), what, ull(occ));
}

/* A latency T(C) - T(mask) - occ(C) as the row's figure, or a failure when the cycles do not allow
 * one (a kernel faster than its parts). */
void micro_latency_figure(dv_micro_result_t *r, uint64_t t, uint64_t tm, uint64_t occ, const char *what)
{
    if (t < tm + occ) {
        r->status = DV_MICRO_FAIL;
        snprintf(r->detail, sizeof r->detail, "T(%s) = %llu is below T(mask) = %llu + occ = %llu", what, ull(t),
                 ull(tm), ull(occ));
        return;
    }
    micro_figure(r, t - tm - occ, t - tm - occ, "T(%s) = %llu, T(mask) = %llu, occ = %llu", what, ull(t), ull(tm),
                 ull(occ));
}

/* The integer rates b with ceil(x[i] / b) == cyc[i] for every i: [lo, hi] (hi = UINT64_MAX when
 * unbounded, lo > hi when no rate fits). */
void micro_rate_range(const uint64_t *x, const uint64_t *cyc, int n, uint64_t *lo, uint64_t *hi)
{
    *lo = 1;
    *hi = UINT64_MAX;
    for (int i = 0; i < n; i++) {
        if (cyc[i] == 0) {
            *lo = 1;
            *hi = 0;
            return;
        }
        *lo = dv_max_u64(*lo, dv_ceil_div(x[i], cyc[i]));
        if (cyc[i] > 1)
            *hi = dv_min_u64(*hi, dv_ceil_div(x[i], cyc[i] - 1) - 1);
    }
}

/* (a + b/2) / b: a ratio of two large measured differences, rounded to the nearest integer. */
uint64_t micro_ratio(uint64_t a, uint64_t b) { return b ? (a + b / 2) / b : 0; }
