/* whatif/sweep_metrics.c - step 3 of a sweep (dv/sweep.h): the metric columns of results.csv, one
 * table.  A row of the table is one metric: how a run's derived report gives it (an op or a trace:
 * r, the dv_report_t, with r->cnt its counters) and how a fusion study gives it (f, the
 * dv_fusion_result_t; t = &f->fused.total, the fused variant's sum over its kernels), each with
 * the condition under which it applies (else the cell is empty).  A per-pipe row is one column per
 * pipe of the ISA table, named <name>_<pipe> ("ratio_MTE2"), p being the pipe.  A new report
 * metric is one row here; docs/SWEEP.md lists the columns (a test checks it names every one). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dv/isa.h"
#include "dv/topology.h"
#include "sweep_internal.h"

/* The fused variant's bound pipe: the highest time-weighted ratio, as the report's bound_by is the
 * highest kernel-level ratio; -1 when all are 0. */
static int fusion_bound(const dv_fusion_result_t *f)
{
    int best = -1;
    for (int p = 0; p < DV_PIPE_COUNT; p++)
        if (dv_topo_chip_has_pipe(&f->cfg, (dv_pipe_t)p) && f->fused.total.ratio[p] > 0 &&
            (best < 0 || f->fused.total.ratio[p] > f->fused.total.ratio[best]))
            best = p;
    return best;
}

/* The idle cause with the most cycles (the first on a tie, in dv/stall.def order). */
static int top_stall(const dv_stall_report_t *st)
{
    int best = 0;
    for (int c = 0; c < DV_STALL_COUNT; c++)
        if (dv_stall_spec((dv_stall_t)c)->kind == DV_STALL_KIND_IDLE && st->cause[c] > st->cause[best])
            best = c;
    return best;
}

/* X(name, type, per_pipe, unit,
 *   run applies, run value,
 *   fusion applies, fusion value,
 *   description) */
#define SW_METRICS(X) \
    X(time_us, F64, 0, "us", \
      1, r->time_us, \
      1, t->time_us, \
      "kernel time: cycles / chip.freq_mhz (fusion: the fused kernels' sum)") \
    X(cycles, U64, 0, "cycles", \
      1, r->cnt->cycles, \
      1, t->cycles, \
      "launch to the end of the last block (fusion: summed over the fused kernels)") \
    X(kernels, U64, 0, "kernels", \
      1, 1, \
      1, t->kernels, \
      "kernels launched (fusion: of the fused variant)") \
    X(ratio, F64, 1, "fraction", \
      r->has_pipe[p], r->ratio[p], \
      dv_topo_chip_has_pipe(&f->cfg, (dv_pipe_t)p), t->ratio[p], \
      "busy / core cycles over the cores that own the pipe (fusion: time-weighted); empty without the pipe") \
    X(bound_by, PIPE, 0, "pipe", \
      r->bound_by >= 0, r->bound_by, \
      fusion_bound(f) >= 0, fusion_bound(f), \
      "the pipe with the highest ratio; empty when every ratio is 0") \
    X(ub_peak_bytes, U64, 0, "bytes", \
      1, r->buf[DV_SPACE_UB].peak_bytes, \
      1, t->ub_peak_bytes, \
      "UB occupancy peak, max over cores (fusion: over kernels)") \
    X(ub_avg_bytes, F64, 0, "bytes", \
      1, r->buf[DV_SPACE_UB].avg_bytes, \
      1, t->ub_avg_bytes, \
      "UB occupancy average, mean over cores that ran (fusion: time-weighted)") \
    X(l1_peak_bytes, U64, 0, "bytes", \
      1, r->buf[DV_SPACE_L1].peak_bytes, \
      1, t->l1_peak_bytes, \
      "L1 occupancy peak") \
    X(l0c_peak_bytes, U64, 0, "bytes", \
      1, r->buf[DV_SPACE_L0C].peak_bytes, \
      1, t->l0c_peak_bytes, \
      "L0C occupancy peak") \
    X(gm_read_bytes, U64, 0, "bytes", \
      1, r->cnt->gm_read_bytes, \
      1, t->gm_read_bytes, \
      "bytes the DMA engines read from GM (L2 hits included)") \
    X(gm_write_bytes, U64, 0, "bytes", \
      1, r->cnt->gm_write_bytes, \
      1, t->gm_write_bytes, \
      "bytes the DMA engines wrote to GM") \
    X(l2_hit_rate, F64, 0, "fraction", \
      r->l2_accessed, r->l2_hit_rate, \
      t->l2_hits + t->l2_misses > 0, dv_fusion_l2_hit_rate(t), \
      "L2 hits / accesses; empty when nothing reached the L2") \
    X(hbm_read_bytes, U64, 0, "bytes", \
      1, r->cnt->hbm_read_bytes, \
      1, t->hbm_read_bytes, \
      "bytes read from HBM (L2 misses)") \
    X(hbm_write_bytes, U64, 0, "bytes", \
      1, r->cnt->hbm_write_bytes, \
      1, t->hbm_write_bytes, \
      "bytes written to HBM") \
    X(stall_queue_full_cycles, U64, 0, "cycles", \
      1, r->stall_queue_full_cycles, \
      0, 0, \
      "scalar unit waiting for a full pipe queue, summed over cores") \
    X(stall_flag_cycles, U64, 0, "cycles", \
      1, r->stall_flag_cycles, \
      0, 0, \
      "pipe heads and the scalar unit waiting on wait_flag / barriers, summed over cores") \
    X(stall_cross_cycles, U64, 0, "cycles", \
      1, r->stall_cross_cycles, \
      0, 0, \
      "waiting on cross-core flags, summed over cores") \
    X(pipe_wait_cycles, U64, 1, "cycles", \
      r->has_pipe[p], r->pipe_wait_cycles[p], \
      0, 0, \
      "the same waits by pipe (S: the scalar unit, queue full included)") \
    X(idle_cycles, U64, 1, "cycles", \
      r->stall[p].present, r->stall[p].idle, \
      0, 0, \
      "idle cycles of the pipe (active window - busy), summed over the cores that own it (docs/REPORT.md)") \
    X(top_stall, STALL, 1, "cause", \
      r->stall[p].present && r->stall[p].idle > 0, top_stall(&r->stall[p]), \
      0, 0, \
      "the stall cause (dv/stall.def) charged with most of the pipe's idle cycles") \
    X(top_stall_cycles, U64, 1, "cycles", \
      r->stall[p].present && r->stall[p].idle > 0, r->stall[p].cause[top_stall(&r->stall[p])], \
      0, 0, \
      "its cycles, summed over the cores") \
    X(bank_conflict_cycles, U64, 0, "cycles", \
      1, r->bank_conflict_cycles, \
      0, 0, \
      "UB bank-conflict cycles, summed over cores") \
    X(speedup, F64, 0, "x", \
      0, 0, \
      1, dv_fusion_speedup(&f->unfused.total, &f->fused.total), \
      "fusion only: unfused time / fused time") \
    X(gm_traffic_reduction, F64, 0, "fraction", \
      0, 0, \
      1, dv_fusion_traffic_reduction(&f->unfused.total, &f->fused.total), \
      "fusion only: 1 - fused GM bytes / unfused GM bytes")

typedef union sw_val {
    uint64_t U64;
    double F64;
    int PIPE;
    int STALL;
} sw_val_t;

/* One getter per row: false when the metric does not apply. */
#define SW_GETTER(name, type, pp, unit, ra, rv, fa, fv, desc) \
    static bool get_##name(const dv_report_t *r, const dv_fusion_result_t *f, int p, sw_val_t *v) \
    { \
        const dv_fsum_t *t = f ? &f->fused.total : NULL; \
        (void)t; \
        (void)p; \
        if (r) { \
            if (!(ra)) \
                return false; \
            v->type = (rv); \
            return true; \
        } \
        if (!(fa)) \
            return false; \
        v->type = (fv); \
        return true; \
    }
SW_METRICS(SW_GETTER)

typedef struct sw_column {
    dv_sweep_metric_t pub;
    bool (*get)(const dv_report_t *r, const dv_fusion_result_t *f, int p, sw_val_t *v);
    int pipe;
} sw_column_t;

#define SW_COUNT(name, type, pp, unit, ra, rv, fa, fv, desc) + ((pp) ? DV_PIPE_COUNT : 1)
enum { SW_NCOLS = 0 SW_METRICS(SW_COUNT) };

static struct {
    bool ready;
    sw_column_t col[SW_NCOLS];
    dv_sweep_metric_t pub[SW_NCOLS];
    char name[SW_NCOLS][48];
} cols;

/* The rows expanded into columns, once. */
static void columns_init(void)
{
    static const struct {
        const char *name;
        dv_sweep_type_t type;
        bool per_pipe;
        const char *unit, *desc;
        bool (*get)(const dv_report_t *, const dv_fusion_result_t *, int, sw_val_t *);
    } rows[] = {
#define SW_ROW(name, type, pp, unit, ra, rv, fa, fv, desc) {#name, DV_SWEEP_##type, pp, unit, desc, get_##name},
        SW_METRICS(SW_ROW)
    };
    int n = 0;
    if (cols.ready)
        return;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        for (int p = 0; p < (rows[i].per_pipe ? DV_PIPE_COUNT : 1); p++, n++) {
            sw_column_t *c = &cols.col[n];
            if (rows[i].per_pipe)
                snprintf(cols.name[n], sizeof cols.name[n], "%s_%s", rows[i].name, dv_pipe_name((dv_pipe_t)p));
            else
                snprintf(cols.name[n], sizeof cols.name[n], "%s", rows[i].name);
            c->pub = (dv_sweep_metric_t){cols.name[n], rows[i].type, rows[i].unit, rows[i].desc};
            c->get = rows[i].get;
            c->pipe = p;
            cols.pub[n] = c->pub;
        }
    cols.ready = true;
}

const dv_sweep_metric_t *dv_sweep_metrics(int *count)
{
    columns_init();
    if (count)
        *count = SW_NCOLS;
    return cols.pub;
}

const dv_sweep_metric_t *dv_sweep_metric_find(const char *name)
{
    columns_init();
    for (int i = 0; i < SW_NCOLS; i++)
        if (strcmp(cols.pub[i].name, name) == 0)
            return &cols.pub[i];
    return NULL;
}

int dv_sweep_row_init(dv_sweep_row_t *r)
{
    columns_init();
    r->cell = calloc(SW_NCOLS, sizeof *r->cell);
    return r->cell ? DV_OK : DV_ERR_NOMEM;
}

void dv_sweep_row_free(dv_sweep_row_t *r)
{
    free(r->cell);
    r->cell = NULL;
}

/* Every cell of row from one source; the one place a value becomes text. */
static void fill(const dv_report_t *r, const dv_fusion_result_t *f, dv_sweep_row_t *row)
{
    columns_init();
    for (int i = 0; i < SW_NCOLS; i++) {
        const sw_column_t *c = &cols.col[i];
        char *cell = row->cell[i];
        sw_val_t v;
        cell[0] = '\0';
        if (!c->get(r, f, c->pipe, &v))
            continue;
        switch (c->pub.type) {
        case DV_SWEEP_U64: snprintf(cell, DV_SWEEP_CELL_MAX, "%llu", (unsigned long long)v.U64); break;
        case DV_SWEEP_F64:
            if (isfinite(v.F64))
                snprintf(cell, DV_SWEEP_CELL_MAX, "%.9g", v.F64);
            break;
        case DV_SWEEP_PIPE: snprintf(cell, DV_SWEEP_CELL_MAX, "%s", dv_pipe_name((dv_pipe_t)v.PIPE)); break;
        case DV_SWEEP_STALL: snprintf(cell, DV_SWEEP_CELL_MAX, "%s", dv_stall_spec((dv_stall_t)v.STALL)->name); break;
        }
    }
}

void sw_metrics_from_report(const dv_report_t *r, dv_sweep_row_t *row) { fill(r, NULL, row); }

void sw_metrics_from_fusion(const dv_fusion_result_t *f, dv_sweep_row_t *row) { fill(NULL, f, row); }
