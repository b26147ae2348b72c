/* sim/report.c - derive the report once from (profile, kernel header, counters), then format it
 * as text or JSON.  The formatters compute nothing. */
#include "dv/report.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dv/topology.h"

const dv_space_t dv_report_bufs[DV_REPORT_NBUFS] = {DV_SPACE_UB, DV_SPACE_L1, DV_SPACE_L0A, DV_SPACE_L0B,
                                                    DV_SPACE_L0C};

static double ratio_of(double num, double den) { return den > 0 ? num / den : 0.0; }

static void occupancy_of(const dv_buf_counters_t *b, uint64_t cycles, dv_occupancy_t *o)
{
    memset(o, 0, sizeof *o);
    if (b->capacity == 0)
        return;
    o->present = true;
    o->capacity = b->capacity;
    o->peak_bytes = b->peak_bytes;
    o->peak_pct = 100.0 * ratio_of((double)b->peak_bytes, (double)b->capacity);
    o->avg_bytes = ratio_of(b->byte_cycles, (double)cycles);
    o->avg_pct = 100.0 * ratio_of(o->avg_bytes, (double)b->capacity);
}

/* Add core c's pipe p (active for `cycles`) to a stall report. */
static void stall_add(dv_stall_report_t *s, const dv_core_counters_t *c, uint64_t cycles, int p)
{
    s->present = true;
    s->window += cycles;
    s->busy += c->pipe_busy[p];
    for (int k = 0; k < DV_STALL_COUNT; k++)
        s->cause[k] += c->stall[p][k];
}

static void stall_close(dv_stall_report_t *s) { s->idle = s->window > s->busy ? s->window - s->busy : 0; }

/* By cycles descending, then in opcode and pipe order. */
static int crit_cmp(const void *a, const void *b)
{
    const dv_crit_row_t *x = a, *y = b;
    if (x->cycles != y->cycles)
        return x->cycles < y->cycles ? 1 : -1;
    return x->op != y->op ? (x->op < y->op ? -1 : 1) : (int)x->pipe - (int)y->pipe;
}

static int instr_cmp(const void *a, const void *b)
{
    const dv_instr_row_t *x = a, *y = b;
    if (x->cycles != y->cycles)
        return x->cycles < y->cycles ? 1 : -1;
    return x->op != y->op ? (x->op < y->op ? -1 : 1) : (int)x->pipe - (int)y->pipe;
}

/* The critical path's rows and the instruction hot-spot table, from the chip-level counters. */
static void derive_tables(dv_report_t *r, const dv_config_t *cfg, const dv_counters_t *cnt)
{
    r->crit_cycles = cnt->crit_cycles;
    r->crit_end_core = cnt->crit_end_core < cnt->ncores ? (int)cnt->crit_end_core : -1;
    for (int op = 0; op < DV_CRIT_OPS; op++)
        for (int p = 0; p < DV_PIPE_COUNT; p++)
            if (cnt->crit_op_cycles[op][p] || cnt->crit_op_count[op][p])
                r->crit[r->ncrit++] = (dv_crit_row_t){op, (dv_pipe_t)p, cnt->crit_op_cycles[op][p], cnt->crit_op_count[op][p]};
    qsort(r->crit, (size_t)r->ncrit, sizeof r->crit[0], crit_cmp);
    for (int op = 0; op < DV_OP_COUNT; op++)
        for (int p = 0; p < DV_PIPE_COUNT; p++) {
            const uint64_t n = cnt->op_pipe_count[op][p], cy = cnt->op_pipe_cycles[op][p];
            if (n)
                r->instr[r->ninstr++] = (dv_instr_row_t){op, (dv_pipe_t)p, n, cy, (double)cy / (double)n,
                                                         ratio_of((double)cy, (double)cfg->chip_freq_mhz)};
        }
    qsort(r->instr, (size_t)r->ninstr, sizeof r->instr[0], instr_cmp);
}

const char *dv_report_crit_op_name(int op)
{
    if (op == DV_CRIT_BLOCK_START)
        return "block_start";
    if (op == DV_CRIT_ISSUE)
        return "issue";
    const dv_op_spec_t *s = dv_op_spec((dv_op_t)op);
    return s ? s->mnemonic : "?";
}

int dv_report_derive(dv_report_t *r, const dv_config_t *cfg, const dv_kernel_info_t *info, const dv_counters_t *cnt,
                     dv_error_t *err)
{
    memset(r, 0, sizeof *r);
    if (!cfg || !info || !cnt)
        return dv_error_set(err, DV_ERR_STATE, NULL, 0, 0, "report: missing profile, kernel or counters");
    r->cfg = cfg;
    r->info = info;
    r->cnt = cnt;
    r->ncores = cnt->ncores;
    r->cores = calloc(cnt->ncores ? cnt->ncores : 1, sizeof *r->cores);
    if (!r->cores)
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory for the report");
    r->time_us = ratio_of((double)cnt->cycles, (double)cfg->chip_freq_mhz);

    double busy[DV_PIPE_COUNT] = {0}, span[DV_PIPE_COUNT] = {0};
    double avg_sum[DV_SPACE_COUNT] = {0};
    unsigned avg_n[DV_SPACE_COUNT] = {0};
    for (uint32_t i = 0; i < cnt->ncores; i++) {
        const dv_core_counters_t *c = &cnt->cores[i];
        dv_core_report_t *cr = &r->cores[i];
        cr->c = c;
        cr->ran = c->instructions > 0;
        cr->cycles = c->last_cycle > c->first_cycle ? c->last_cycle - c->first_cycle : 0;
        for (int p = 0; p < DV_PIPE_COUNT; p++) {
            cr->has_pipe[p] = dv_topo_has_pipe(cfg, c->type, (dv_pipe_t)p);
            if (!cr->has_pipe[p])
                continue;
            cr->ratio[p] = ratio_of((double)c->pipe_busy[p], (double)cr->cycles);
            stall_add(&cr->stall[p], c, cr->cycles, p);
            stall_close(&cr->stall[p]);
            if (cr->ran) {
                busy[p] += (double)c->pipe_busy[p];
                span[p] += (double)cr->cycles;
                stall_add(&r->stall[p], c, cr->cycles, p);
            }
        }
        for (int s = 0; s < DV_SPACE_COUNT; s++) {
            if (s == DV_SPACE_GM)
                continue;
            if (dv_topo_has_buffer(cfg, c->type, (dv_space_t)s))
                occupancy_of(&c->buf[s], cr->cycles, &cr->buf[s]);
            dv_occupancy_t *chip = &r->buf[s];
            if (!cr->buf[s].present || !cr->ran)
                continue;
            chip->present = true;
            if (cr->buf[s].capacity > chip->capacity)
                chip->capacity = cr->buf[s].capacity;
            if (cr->buf[s].peak_bytes > chip->peak_bytes)
                chip->peak_bytes = cr->buf[s].peak_bytes;
            avg_sum[s] += cr->buf[s].avg_bytes;
            avg_n[s]++;
        }
        if (cr->ran)
            r->cores_ran++;
        r->stall_queue_full_cycles += c->stall_queue_full_cycles;
        r->stall_flag_cycles += c->stall_flag_cycles;
        r->stall_cross_cycles += c->stall_cross_cycles;
        for (int p = 0; p < DV_PIPE_COUNT; p++)
            r->pipe_wait_cycles[p] += c->pipe_wait_cycles[p];
        r->bank_conflict_cycles += c->bank_conflict_cycles;
    }

    for (int p = 0; p < DV_PIPE_COUNT; p++)
        stall_close(&r->stall[p]);
    derive_tables(r, cfg, cnt);

    r->bound_by = -1;
    double best = 0.0;
    for (int p = 0; p < DV_PIPE_COUNT; p++) {
        r->has_pipe[p] = dv_topo_chip_has_pipe(cfg, (dv_pipe_t)p);
        r->ratio[p] = ratio_of(busy[p], span[p]);
        if (r->ratio[p] > best) {
            best = r->ratio[p];
            r->bound_by = p;
        }
    }
    r->band = dv_errband_of(dv_kclass_of(cfg, cnt->cycles, r->ratio), dv_residuals, dv_nresiduals);
    for (int s = 0; s < DV_SPACE_COUNT; s++) {
        dv_occupancy_t *o = &r->buf[s];
        if (!o->present)
            continue;
        o->avg_bytes = avg_n[s] ? avg_sum[s] / avg_n[s] : 0.0;
        o->peak_pct = 100.0 * ratio_of((double)o->peak_bytes, (double)o->capacity);
        o->avg_pct = 100.0 * ratio_of(o->avg_bytes, (double)o->capacity);
    }

    /* bytes per microsecond / 1000 = GB/s */
    r->gm_read_gb_per_s = ratio_of((double)cnt->gm_read_bytes, r->time_us * 1e3);
    r->gm_write_gb_per_s = ratio_of((double)cnt->gm_write_bytes, r->time_us * 1e3);
    r->l2_accessed = cnt->l2_hits + cnt->l2_misses > 0;
    r->l2_hit_rate = ratio_of((double)cnt->l2_hits, (double)(cnt->l2_hits + cnt->l2_misses));
    return DV_OK;
}

void dv_report_buf_series(const dv_report_t *r, dv_space_t s, double *out)
{
    unsigned n = 0;
    for (int i = 0; i < DV_OCC_SLICES; i++)
        out[i] = 0.0;
    if (s <= DV_SPACE_GM || s >= DV_SPACE_COUNT)
        return;
    for (uint32_t c = 0; c < r->ncores; c++) {
        const dv_core_report_t *cr = &r->cores[c];
        if (!cr->ran || !cr->buf[s].present)
            continue;
        for (int i = 0; i < DV_OCC_SLICES; i++)
            out[i] += cr->c->buf[s].series[i];
        n++;
    }
    for (int i = 0; n && i < DV_OCC_SLICES; i++)
        out[i] /= n;
}

void dv_report_free(dv_report_t *r)
{
    if (!r)
        return;
    free(r->cores);
    r->cores = NULL;
}

static const char *core_type_name(dv_core_type_t t)
{
    const dv_core_type_spec_t *s = dv_topo_type_spec(t);
    return s ? s->type : "?";
}

static const char *hazard_kind_name(int k)
{
    return k == DV_HAZ_RAW ? "RAW" : k == DV_HAZ_WAR ? "WAR" : k == DV_HAZ_WAW ? "WAW" : "?";
}

static const char *sub_name(const dv_kernel_info_t *info, uint32_t sub, char *buf, size_t cap)
{
    if (info->kind != DV_KIND_MIX)
        buf[0] = '\0';
    else
        dv_topo_sub_name(sub, buf, cap);
    return buf;
}

static const char *hazard_core_name(const dv_report_t *r, const dv_hazard_t *h)
{
    return h->core < r->ncores ? r->cores[h->core].c->name : "?";
}

/* "ub" or the GM argument's name. */
static const char *hazard_space_name(const dv_report_t *r, const dv_hazard_t *h)
{
    if (h->space == DV_SPACE_GM)
        return h->arg < r->info->nargs ? r->info->args[h->arg].name : "gm";
    return dv_space_name((dv_space_t)h->space);
}

/* ---------------------------------------------------------------- text */

static void print_ratio(FILE *out, bool has, double v)
{
    if (has)
        fprintf(out, " %7.3f", v);
    else
        fprintf(out, " %7s", "-");
}

void dv_report_set_op(dv_report_t *r, const dv_report_op_t *op)
{
    r->op = op;
    r->op_tflops = r->time_us > 0 ? (double)op->flops / r->time_us / 1e6 : 0;
    r->op_gb_per_s = r->time_us > 0 ? (double)op->bytes / r->time_us / 1e3 : 0;
}

static void print_op(const dv_report_t *r, FILE *out)
{
    const dv_report_op_t *op = r->op;
    fprintf(out, "operator      %s", op->name);
    for (int i = 0; i < op->nparams; i++)
        fprintf(out, " --%s %s", op->key[i], op->val[i]);
    fputc('\n', out);
    if (op->ntiling) { /* the tiling used, then one line per value that differs from the request */
        fputs("  tiling     ", out);
        for (int i = 0; i < op->ntiling; i++)
            fprintf(out, " %s %s", op->tiling_key[i], op->tiling_val[i]);
        fputc('\n', out);
        for (int i = 0; i < op->ntiling; i++)
            if (op->tiling_why[i][0])
                fprintf(out, "  differs     %s %s (%s)\n", op->tiling_key[i], op->tiling_val[i], op->tiling_why[i]);
    }
    if (op->flops)
        fprintf(out, "  flops       %" PRIu64 " (%.3f TFLOPS)\n", op->flops, r->op_tflops);
    fprintf(out, "  bytes       %" PRIu64 " compulsory GM traffic (%.2f GB/s)\n", op->bytes, r->op_gb_per_s);
    if (op->checked && op->compared == 0)
        fprintf(out, "  check       nothing to compare: this run writes no outputs\n");
    else if (op->checked)
        fprintf(out, "  check       %s: %" PRIu64 " of %" PRIu64 " elements outside the tolerance (max abs err %.3g, max rel err %.3g)\n",
                op->mismatches ? "FAILED" : "passed", op->mismatches, op->compared, op->max_abs_err, op->max_rel_err);
}

/* The causes of one kind with cycles, by cycles descending (ties in table order); returns how many. */
static int causes_by_cycles(const dv_stall_report_t *s, dv_stall_kind_t kind, int *order)
{
    int n = 0;
    for (int k = 0; k < DV_STALL_COUNT; k++) {
        if (dv_stall_spec((dv_stall_t)k)->kind != kind || !s->cause[k])
            continue;
        int i = n++;
        for (; i > 0 && s->cause[order[i - 1]] < s->cause[k]; i--)
            order[i] = order[i - 1];
        order[i] = k;
    }
    return n;
}

/* "V      busy  15.1%  idle  84.9%  flag:MTE2 48.0%, done 10.0%, ...; held: bank_conflict 1.2%" */
static void print_stalls(const dv_report_t *r, FILE *out)
{
    enum { TOP = 4 };
    fprintf(out, "\n[stalls]      idle cycles by cause, %% of core cycles (over the cores that own the pipe)\n");
    for (int p = 0; p < DV_PIPE_COUNT; p++) {
        const dv_stall_report_t *s = &r->stall[p];
        if (!s->present || !s->window)
            continue;
        const double w = (double)s->window;
        fprintf(out, "  %-6s busy %5.1f%%  idle %5.1f%% ", dv_pipe_name((dv_pipe_t)p), 100.0 * (double)s->busy / w,
                100.0 * (double)s->idle / w);
        int order[DV_STALL_COUNT];
        const int n = causes_by_cycles(s, DV_STALL_KIND_IDLE, order);
        uint64_t rest = 0;
        for (int i = 0; i < n; i++) {
            if (i < TOP)
                fprintf(out, "%s %s %.1f%%", i ? "," : "", dv_stall_spec((dv_stall_t)order[i])->name,
                        100.0 * (double)s->cause[order[i]] / w);
            else
                rest += s->cause[order[i]];
        }
        if (n > TOP)
            fprintf(out, ", %d more %.1f%%", n - TOP, 100.0 * (double)rest / w);
        const int nh = causes_by_cycles(s, DV_STALL_KIND_HELD, order);
        for (int i = 0; i < nh; i++)
            fprintf(out, "%s %s %.1f%%", i ? "," : "; held:", dv_stall_spec((dv_stall_t)order[i])->name,
                    100.0 * (double)s->cause[order[i]] / w);
        fputc('\n', out);
    }
}

/* The path's length, its top rows and the cores it runs on. */
static void print_critical_path(const dv_report_t *r, FILE *out)
{
    enum { TOP = 6, CORES = 4 };
    fprintf(out, "\n[critical path] %" PRIu64 " cycles (kernel cycles less chip.kernel_start_cycles)", r->crit_cycles);
    if (r->crit_end_core >= 0)
        fprintf(out, ", ends on %s", r->cores[r->crit_end_core].c->name);
    fputc('\n', out);
    const double len = (double)r->crit_cycles;
    for (int i = 0; i < r->ncrit && i < TOP; i++) {
        const dv_crit_row_t *row = &r->crit[i];
        fprintf(out, "  %-24s %-5s %10" PRIu64 " %5.1f%%  %" PRIu64 " step%s\n", dv_report_crit_op_name(row->op),
                dv_pipe_name(row->pipe), row->cycles, len > 0 ? 100.0 * (double)row->cycles / len : 0.0, row->count,
                row->count == 1 ? "" : "s");
    }
    if (r->ncrit > TOP) {
        uint64_t rest = 0;
        for (int i = TOP; i < r->ncrit; i++)
            rest += r->crit[i].cycles;
        fprintf(out, "  %-30s %10" PRIu64 " %5.1f%%\n", "other", rest, len > 0 ? 100.0 * (double)rest / len : 0.0);
    }
    /* The cores it runs on, most cycles first. */
    uint32_t order[CORES];
    int n = 0, more = 0;
    for (uint32_t c = 0; c < r->ncores; c++) {
        const uint64_t cy = r->cores[c].c->crit_cycles;
        if (!cy)
            continue;
        if (n == CORES && r->cores[order[n - 1]].c->crit_cycles >= cy) {
            more++;
            continue;
        }
        more += n == CORES;
        int i = n < CORES ? n++ : n - 1;
        for (; i > 0 && r->cores[order[i - 1]].c->crit_cycles < cy; i--)
            order[i] = order[i - 1];
        order[i] = c;
    }
    if (n) {
        fprintf(out, "  on cores   ");
        for (int i = 0; i < n; i++)
            fprintf(out, "%s %s %" PRIu64, i ? "," : "", r->cores[order[i]].c->name, r->cores[order[i]].c->crit_cycles);
        if (more)
            fprintf(out, ", %d more", more);
        fputc('\n', out);
    }
}

int dv_report_print(const dv_report_t *r, FILE *out)
{
    const dv_config_t *cfg = r->cfg;
    const dv_counters_t *cnt = r->cnt;

    if (r->op)
        print_op(r, out);
    fprintf(out, "kernel        %s (%s, %u block%s)\n", r->info->name, dv_kind_name(r->info->kind), r->info->blocks,
            r->info->blocks == 1 ? "" : "s");
    /* "split: 24 AIC + 48 AIV" (the layout's core types), "coupled: 1 cores" (a single type) */
    dv_core_type_t types[DV_CORE_TYPE_COUNT];
    const int ntypes = dv_topo_types(cfg, types);
    fprintf(out, "profile       %s (%s:", cfg->chip_name, cfg->chip_layout == DV_LAYOUT_SPLIT ? "split" : "coupled");
    for (int i = 0; i < ntypes; i++) {
        fprintf(out, "%s %u ", i ? " +" : "", dv_topo_type_cores(cfg, types[i]));
        if (ntypes == 1)
            fputs("cores", out);
        else
            for (const char *c = dv_topo_type_spec(types[i])->type; *c; c++)
                fputc(toupper((unsigned char)*c), out);
    }
    fprintf(out, ", %" PRIu64 " MHz)\n", cfg->chip_freq_mhz);

    fprintf(out, "\n[chip]\n");
    fprintf(out, "cycles        %" PRIu64 "\n", cnt->cycles);
    fprintf(out, "time          %.3f us (%s; calibration: ", r->time_us, dv_kclass_name(r->band.cls));
    if (r->band.has_band)
        fprintf(out, "+/-%.1f%%, %d cases of this class)\n", r->band.pct, r->band.cases);
    else
        fprintf(out, "%d case%s of this class, too few for a band)\n", r->band.cases, r->band.cases == 1 ? "" : "s");
    fprintf(out, "instructions  %" PRIu64 "\n", cnt->instructions);
    for (int op = 0; op < DV_OP_COUNT; op++)
        if (cnt->op_count[op])
            fprintf(out, "  %-24s %" PRIu64 "\n", dv_op_spec((dv_op_t)op)->mnemonic, cnt->op_count[op]);
    fprintf(out, "ratios        (busy / core cycles, over the cores that own the pipe)\n");
    for (int p = 0; p < DV_PIPE_COUNT; p++) {
        char key[32];
        snprintf(key, sizeof key, "%s_ratio", dv_pipe_ratio_name((dv_pipe_t)p));
        if (r->has_pipe[p])
            fprintf(out, "  %-14s %.3f\n", key, r->ratio[p]);
        else
            fprintf(out, "  %-14s -\n", key);
    }
    if (r->bound_by >= 0)
        fprintf(out, "bound by      %s (%s_ratio %.3f)\n", dv_pipe_ratio_name((dv_pipe_t)r->bound_by),
                dv_pipe_ratio_name((dv_pipe_t)r->bound_by), r->ratio[r->bound_by]);
    else
        fprintf(out, "bound by      none\n");
    fprintf(out, "stall cycles  (sum over cores)\n");
    fprintf(out, "  %-14s %" PRIu64 "\n", "queue_full", r->stall_queue_full_cycles);
    fprintf(out, "  %-14s %" PRIu64 "\n", "flag_wait", r->stall_flag_cycles);
    fprintf(out, "  %-14s %" PRIu64 "\n", "cross_core", r->stall_cross_cycles);
    fprintf(out, "  %-14s", "by pipe");
    for (int p = 0; p < DV_PIPE_COUNT; p++)
        fprintf(out, " %s %" PRIu64, dv_pipe_name((dv_pipe_t)p), r->pipe_wait_cycles[p]);
    fputc('\n', out);

    fprintf(out, "\n[cores]       %u of %u ran work (idle cores not listed)\n", r->cores_ran, r->ncores);
    fprintf(out, "%-6s %6s %9s %10s", "core", "blocks", "insns", "cycles");
    for (int p = 0; p < DV_PIPE_COUNT; p++)
        fprintf(out, " %7s", dv_pipe_ratio_name((dv_pipe_t)p));
    fprintf(out, " %10s %10s %10s\n", "stall_q", "stall_flag", "stall_x");
    for (uint32_t i = 0; i < r->ncores; i++) {
        const dv_core_report_t *cr = &r->cores[i];
        if (!cr->ran)
            continue;
        fprintf(out, "%-6s %6" PRIu64 " %9" PRIu64 " %10" PRIu64, cr->c->name, cr->c->blocks, cr->c->instructions,
                cr->cycles);
        for (int p = 0; p < DV_PIPE_COUNT; p++)
            print_ratio(out, cr->has_pipe[p], cr->ratio[p]);
        fprintf(out, " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 "\n", cr->c->stall_queue_full_cycles,
                cr->c->stall_flag_cycles, cr->c->stall_cross_cycles);
    }
    print_stalls(r, out);
    print_critical_path(r, out);

    fprintf(out, "\n[buffers]     (peak: max over cores; avg: byte-cycles / core cycles, mean over cores)\n");
    fprintf(out, "%-6s %10s %10s %8s %12s %8s\n", "buffer", "capacity", "peak", "peak%", "avg", "avg%");
    for (int i = 0; i < DV_REPORT_NBUFS; i++) {
        const dv_occupancy_t *o = &r->buf[dv_report_bufs[i]];
        if (!o->present)
            continue;
        fprintf(out, "%-6s %10" PRIu64 " %10" PRIu64 " %7.2f%% %12.1f %7.2f%%\n", dv_space_name(dv_report_bufs[i]),
                o->capacity, o->peak_bytes, o->peak_pct, o->avg_bytes, o->avg_pct);
    }
    fprintf(out, "ub bank-conflict cycles  %" PRIu64 "\n", r->bank_conflict_cycles);

    fprintf(out, "\n[memory]\n");
    fprintf(out, "gm read       %" PRIu64 " bytes  %.3f GB/s\n", cnt->gm_read_bytes, r->gm_read_gb_per_s);
    fprintf(out, "gm write      %" PRIu64 " bytes  %.3f GB/s\n", cnt->gm_write_bytes, r->gm_write_gb_per_s);
    fprintf(out, "l2            %" PRIu64 " hits, %" PRIu64 " misses, ", cnt->l2_hits, cnt->l2_misses);
    if (r->l2_accessed)
        fprintf(out, "hit rate %.2f%%", 100.0 * r->l2_hit_rate);
    else
        fprintf(out, "hit rate n/a");
    fprintf(out, ", %" PRIu64 " writebacks\n", cnt->l2_writebacks);
    fprintf(out, "hbm           %" PRIu64 " bytes read, %" PRIu64 " bytes written, %" PRIu64
                 " same-address requests\n",
            cnt->hbm_read_bytes, cnt->hbm_write_bytes, cnt->hbm_same_address);

    fprintf(out, "\n[hazards]     %" PRIu64 "%s\n", cnt->hazards,
            cnt->hazards_capped ? " (the checker stopped there: --max-hazards; there may be more)" : "");
    for (uint32_t i = 0; i < cnt->nhazard_records && i < DV_HAZARD_RECORDS; i++) {
        const dv_hazard_t *h = &cnt->hazard[i];
        char sub[16];
        sub_name(r->info, h->sub, sub, sizeof sub);
        fprintf(out, "  %s %s block %u%s%s: insn %" PRIu64 " (line %u, %s) -> insn %" PRIu64 " (line %u, %s) on %s[0x%" PRIx64
                     ", 0x%" PRIx64 ")\n",
                hazard_kind_name(h->kind), hazard_core_name(r, h), h->block, sub[0] ? " " : "", sub, h->insn_first,
                h->line_first, dv_pipe_name((dv_pipe_t)h->pipe_first), h->insn_second, h->line_second,
                dv_pipe_name((dv_pipe_t)h->pipe_second), hazard_space_name(r, h), h->lo, h->hi);
    }
    if (cnt->hazards > cnt->nhazard_records)
        fprintf(out, "  ... %" PRIu64 " more not recorded\n", cnt->hazards - cnt->nhazard_records);
    return ferror(out) ? DV_ERR_IO : DV_OK;
}

/* ---------------------------------------------------------------- JSON */

void dv_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

/* Doubles with fixed digits (deterministic; never NaN or inf: every division is guarded). */
static void json_num(FILE *out, double v) { fprintf(out, "%.6f", v); }

/* An occupancy object; with series (DV_OCC_SLICES values) also its "series_bytes". */
static void json_occupancy(FILE *out, const dv_occupancy_t *o, const double *series)
{
    fprintf(out, "{\"capacity_bytes\":%" PRIu64 ",\"peak_bytes\":%" PRIu64 ",\"peak_pct\":", o->capacity, o->peak_bytes);
    json_num(out, o->peak_pct);
    fputs(",\"avg_bytes\":", out);
    json_num(out, o->avg_bytes);
    fputs(",\"avg_pct\":", out);
    json_num(out, o->avg_pct);
    if (series) {
        fputs(",\"series_bytes\":[", out);
        for (int i = 0; i < DV_OCC_SLICES; i++) {
            if (i)
                fputc(',', out);
            json_num(out, series[i]);
        }
        fputc(']', out);
    }
    fputc('}', out);
}

/* "pipe_wait_cycles":{"S":n,...,"FIX":n} */
static void json_pipe_waits(FILE *out, const uint64_t *w)
{
    fputs("\"pipe_wait_cycles\":{", out);
    for (int p = 0; p < DV_PIPE_COUNT; p++)
        fprintf(out, "%s\"%s\":%" PRIu64, p ? "," : "", dv_pipe_name((dv_pipe_t)p), w[p]);
    fputc('}', out);
}

/* {"busy":n,"idle":n,"causes":{IDLE causes},"held":{HELD causes}}: every cause of the table, or
 * (all false) only those with cycles. */
static void json_stall(FILE *out, const dv_stall_report_t *s, bool all)
{
    fprintf(out, "{\"busy\":%" PRIu64 ",\"idle\":%" PRIu64, s->busy, s->idle);
    for (int kind = DV_STALL_KIND_IDLE; kind <= DV_STALL_KIND_HELD; kind++) {
        fputs(kind == DV_STALL_KIND_IDLE ? ",\"causes\":{" : "},\"held\":{", out);
        int n = 0;
        for (int k = 0; k < DV_STALL_COUNT; k++) {
            const dv_stall_spec_t *sp = dv_stall_spec((dv_stall_t)k);
            if (sp->kind == (dv_stall_kind_t)kind && (all || s->cause[k]))
                fprintf(out, "%s\"%s\":%" PRIu64, n++ ? "," : "", sp->name, s->cause[k]);
        }
    }
    fputs("}}", out);
}

/* "stalls":{"S":{...},...}: the pipes with has[p] (none when !has), with every cause (all) or
 * only those with cycles. */
static void json_stalls(FILE *out, const dv_stall_report_t *s, const bool *has, bool all)
{
    int n = 0;
    fputs("\"stalls\":{", out);
    for (int p = 0; has && p < DV_PIPE_COUNT; p++) {
        if (!has[p])
            continue;
        fprintf(out, "%s\"%s\":", n++ ? "," : "", dv_pipe_name((dv_pipe_t)p));
        json_stall(out, &s[p], all);
    }
    fputc('}', out);
}

static void json_critical_path(FILE *out, const dv_report_t *r)
{
    fprintf(out, "\"critical_path\":{\"cycles\":%" PRIu64 ",\"end_core\":", r->crit_cycles);
    if (r->crit_end_core >= 0)
        dv_json_string(out, r->cores[r->crit_end_core].c->name);
    else
        fputs("null", out);
    fputs(",\"top\":[", out);
    for (int i = 0; i < r->ncrit; i++)
        fprintf(out, "%s{\"op\":\"%s\",\"pipe\":\"%s\",\"cycles\":%" PRIu64 ",\"count\":%" PRIu64 "}", i ? "," : "",
                dv_report_crit_op_name(r->crit[i].op), dv_pipe_name(r->crit[i].pipe), r->crit[i].cycles, r->crit[i].count);
    fputs("],\"cores\":[", out);
    int n = 0;
    for (uint32_t c = 0; c < r->ncores; c++)
        if (r->cores[c].c->crit_cycles) {
            fputs(n++ ? ",{\"core\":" : "{\"core\":", out);
            dv_json_string(out, r->cores[c].c->name);
            fprintf(out, ",\"cycles\":%" PRIu64 "}", r->cores[c].c->crit_cycles);
        }
    fputs("]}", out);
}

/* The buffers' occupancy objects; at chip level (r given) each with its series over time. */
static void json_buffers(FILE *out, const dv_occupancy_t *buf, const dv_report_t *r)
{
    int n = 0;
    fputc('{', out);
    for (int i = 0; i < DV_REPORT_NBUFS; i++) {
        const dv_occupancy_t *o = &buf[dv_report_bufs[i]];
        if (!o->present)
            continue;
        fprintf(out, "%s\"%s\":", n++ ? "," : "", dv_space_name(dv_report_bufs[i]));
        double series[DV_OCC_SLICES];
        if (r)
            dv_report_buf_series(r, dv_report_bufs[i], series);
        json_occupancy(out, o, r ? series : NULL);
    }
    fputc('}', out);
}

static int count_dots(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '.';
    return n;
}

/* Segment i of a dotted section path into buf. */
static void path_segment(const char *path, int i, char *buf, size_t cap)
{
    for (; i > 0 && *path; path++)
        if (*path == '.')
            i--;
    size_t n = strcspn(path, ".");
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, path, n);
    buf[n] = '\0';
}

/* The profile, nested by section ("vector.add" -> "vector": {"add": {...}}), in schema order. */
static void json_config(FILE *out, const dv_config_t *cfg)
{
    int count = 0;
    const dv_param_spec_t *specs = dv_param_specs(&count);
    char open[8][64];
    int depth = 0;
    int need_comma = 0;
    fputc('{', out);
    for (int i = 0; i < count; i++) {
        const dv_param_spec_t *ps = &specs[i];
        int segs = count_dots(ps->section) + 1;
        char seg[64];
        int common = 0;
        while (common < depth && common < segs) {
            path_segment(ps->section, common, seg, sizeof seg);
            if (strcmp(seg, open[common]) != 0)
                break;
            common++;
        }
        for (; depth > common; depth--) {
            fputc('}', out);
            need_comma = 1;
        }
        for (; depth < segs && depth < 8; depth++) {
            path_segment(ps->section, depth, open[depth], sizeof open[depth]);
            if (need_comma)
                fputc(',', out);
            dv_json_string(out, open[depth]);
            fputs(":{", out);
            need_comma = 0;
        }
        if (need_comma)
            fputc(',', out);
        dv_json_string(out, ps->key);
        fputc(':', out);
        const char *field = (const char *)cfg + ps->offset;
        switch (ps->type) {
        case DV_PT_U64: fprintf(out, "%" PRIu64, *(const uint64_t *)(const void *)field); break;
        case DV_PT_BOOL: fputs(*(const bool *)(const void *)field ? "true" : "false", out); break;
        case DV_PT_LAYOUT:
            fputs(*(const int *)(const void *)field == DV_LAYOUT_SPLIT ? "\"split\"" : "\"coupled\"", out);
            break;
        case DV_PT_STR: dv_json_string(out, field); break;
        }
        need_comma = 1;
    }
    for (; depth > 0; depth--)
        fputc('}', out);
    fputc('}', out);
}

static const char *arg_dir_name(dv_arg_dir_t d)
{
    return d == DV_ARG_IN ? "in" : d == DV_ARG_OUT ? "out" : "inout";
}

int dv_report_write_json(const dv_report_t *r, FILE *out)
{
    const dv_counters_t *cnt = r->cnt;
    const dv_kernel_info_t *info = r->info;

    fprintf(out, "{\n\"schema_version\":%d,\n", DV_REPORT_SCHEMA_VERSION);
    fputs("\"kernel\":{\"name\":", out);
    dv_json_string(out, info->name);
    fprintf(out, ",\"kind\":\"%s\",\"blocks\":%u,\"args\":[", dv_kind_name(info->kind), info->blocks);
    for (uint32_t i = 0; i < info->nargs; i++) {
        const dv_arg_t *a = &info->args[i];
        fputs(i ? ",{\"name\":" : "{\"name\":", out);
        dv_json_string(out, a->name);
        fprintf(out, ",\"bytes\":%" PRIu64 ",\"dtype\":\"%s\",\"dir\":\"%s\"}", a->bytes, dv_dtype_name(a->dtype),
                arg_dir_name(a->dir));
    }
    fputs("]},\n\"profile\":", out);
    dv_json_string(out, r->cfg->chip_name);
    if (r->op) {
        const dv_report_op_t *op = r->op;
        fputs(",\n\"op\":", out);
        dv_json_string(out, op->name);
        fputs(",\n\"params\":{", out);
        for (int i = 0; i < op->nparams; i++) {
            fputs(i ? "," : "", out);
            dv_json_string(out, op->key[i]);
            fputc(':', out);
            dv_json_string(out, op->val[i]);
        }
        fputs("},\n\"tiling\":[", out);
        for (int i = 0; i < op->ntiling; i++) {
            fputs(i ? ",{\"param\":" : "{\"param\":", out);
            dv_json_string(out, op->tiling_key[i]);
            fputs(",\"value\":", out);
            dv_json_string(out, op->tiling_val[i]);
            fputs(",\"why\":", out);
            if (op->tiling_why[i][0])
                dv_json_string(out, op->tiling_why[i]);
            else
                fputs("null", out);
            fputc('}', out);
        }
        fputs("],\n\"flops\":", out);
        if (op->flops)
            fprintf(out, "%" PRIu64 ",\n\"tflops\":", op->flops), json_num(out, r->op_tflops);
        else
            fputs("null,\n\"tflops\":null", out);
        fprintf(out, ",\n\"bytes\":%" PRIu64 ",\n\"gb_per_s\":", op->bytes);
        json_num(out, r->op_gb_per_s);
        fputs(",\n\"check\":", out);
        if (op->checked) {
            fprintf(out, "{\"passed\":%s,\"compared\":%" PRIu64 ",\"mismatches\":%" PRIu64 ",\"max_abs_err\":",
                    op->mismatches ? "false" : "true", op->compared, op->mismatches);
            json_num(out, op->max_abs_err);
            fputs(",\"max_rel_err\":", out);
            json_num(out, op->max_rel_err);
            fputc('}', out);
        } else {
            fputs("null", out);
        }
    }

    fprintf(out, ",\n\"cycles\":%" PRIu64 ",\n\"time_us\":", cnt->cycles);
    json_num(out, r->time_us);
    fprintf(out, ",\n\"time_class\":\"%s\",\n\"time_error_pct\":", dv_kclass_name(r->band.cls));
    if (r->band.has_band)
        json_num(out, r->band.pct);
    else
        fputs("null", out);
    fprintf(out, ",\n\"time_error_cases\":%d", r->band.cases);
    fprintf(out, ",\n\"instructions\":%" PRIu64 ",\n\"op_counts\":{", cnt->instructions);
    int n = 0;
    for (int op = 0; op < DV_OP_COUNT; op++)
        if (cnt->op_count[op])
            fprintf(out, "%s\"%s\":%" PRIu64, n++ ? "," : "", dv_op_spec((dv_op_t)op)->mnemonic, cnt->op_count[op]);
    fputs("},\n\"ratios\":{", out);
    for (int p = 0; p < DV_PIPE_COUNT; p++) {
        fprintf(out, "%s\"%s\":", p ? "," : "", dv_pipe_ratio_name((dv_pipe_t)p));
        if (r->has_pipe[p])
            json_num(out, r->ratio[p]);
        else
            fputs("null", out);
    }
    fputs("},\n\"bound_by\":", out);
    if (r->bound_by >= 0)
        fprintf(out, "\"%s\"", dv_pipe_ratio_name((dv_pipe_t)r->bound_by));
    else
        fputs("null", out);
    fprintf(out,
            ",\n\"stall_cycles\":{\"queue_full\":%" PRIu64 ",\"flag_wait\":%" PRIu64 ",\"cross_core\":%" PRIu64 "},\n",
            r->stall_queue_full_cycles, r->stall_flag_cycles, r->stall_cross_cycles);
    json_pipe_waits(out, r->pipe_wait_cycles);
    fputs(",\n", out);
    json_stalls(out, r->stall, r->has_pipe, true);
    fputs(",\n", out);
    json_critical_path(out, r);
    fputs(",\n", out);

    fprintf(out, "\"cores_ran\":%u,\n\"cores\":[", r->cores_ran);
    for (uint32_t i = 0; i < r->ncores; i++) {
        const dv_core_report_t *cr = &r->cores[i];
        const dv_core_counters_t *c = cr->c;
        fprintf(out, "%s\n {\"name\":", i ? "," : "");
        dv_json_string(out, c->name);
        fprintf(out,
                ",\"type\":\"%s\",\"blocks\":%" PRIu64 ",\"instructions\":%" PRIu64 ",\"first_cycle\":%" PRIu64
                ",\"last_cycle\":%" PRIu64 ",\"cycles\":%" PRIu64 ",\"pipe_busy\":{",
                core_type_name(c->type), c->blocks, c->instructions, c->first_cycle, c->last_cycle, cr->cycles);
        for (int p = 0; p < DV_PIPE_COUNT; p++)
            fprintf(out, "%s\"%s\":%" PRIu64, p ? "," : "", dv_pipe_name((dv_pipe_t)p), c->pipe_busy[p]);
        fputs("},\"pipe_insns\":{", out);
        for (int p = 0; p < DV_PIPE_COUNT; p++)
            fprintf(out, "%s\"%s\":%" PRIu64, p ? "," : "", dv_pipe_name((dv_pipe_t)p), c->pipe_insns[p]);
        fputs("},\"ratios\":{", out);
        for (int p = 0; p < DV_PIPE_COUNT; p++) {
            fprintf(out, "%s\"%s\":", p ? "," : "", dv_pipe_ratio_name((dv_pipe_t)p));
            if (cr->has_pipe[p])
                json_num(out, cr->ratio[p]);
            else
                fputs("null", out);
        }
        fprintf(out,
                "},\"stall_cycles\":{\"queue_full\":%" PRIu64 ",\"flag_wait\":%" PRIu64 ",\"cross_core\":%" PRIu64 "},",
                c->stall_queue_full_cycles, c->stall_flag_cycles, c->stall_cross_cycles);
        json_pipe_waits(out, c->pipe_wait_cycles);
        fputc(',', out);
        json_stalls(out, cr->stall, cr->ran ? cr->has_pipe : NULL, false);
        fprintf(out, ",\"crit_cycles\":%" PRIu64, c->crit_cycles);
        fprintf(out,
                ",\"bank_conflict_cycles\":%" PRIu64 ",\"gm_read_bytes\":%" PRIu64 ",\"gm_write_bytes\":%" PRIu64
                ",\"buffers\":",
                c->bank_conflict_cycles, c->gm_read_bytes, c->gm_write_bytes);
        json_buffers(out, cr->buf, NULL);
        fputc('}', out);
    }
    fputs("\n],\n\"buffers\":", out);
    json_buffers(out, r->buf, r);
    fprintf(out, ",\n\"ub_peak_bytes\":%" PRIu64 ",\n\"bank_conflict_cycles\":%" PRIu64 ",\n",
            r->buf[DV_SPACE_UB].peak_bytes, r->bank_conflict_cycles);

    fprintf(out, "\"gm_read_bytes\":%" PRIu64 ",\n\"gm_write_bytes\":%" PRIu64 ",\n\"gm_read_gb_per_s\":",
            cnt->gm_read_bytes, cnt->gm_write_bytes);
    json_num(out, r->gm_read_gb_per_s);
    fputs(",\n\"gm_write_gb_per_s\":", out);
    json_num(out, r->gm_write_gb_per_s);
    fprintf(out, ",\n\"l2_hits\":%" PRIu64 ",\n\"l2_misses\":%" PRIu64 ",\n\"l2_hit_rate\":", cnt->l2_hits,
            cnt->l2_misses);
    if (r->l2_accessed)
        json_num(out, r->l2_hit_rate);
    else
        fputs("null", out);
    fprintf(out,
            ",\n\"l2_writebacks\":%" PRIu64 ",\n\"hbm_read_bytes\":%" PRIu64 ",\n\"hbm_write_bytes\":%" PRIu64
            ",\n\"hbm_same_address\":%" PRIu64 ",\n",
            cnt->l2_writebacks, cnt->hbm_read_bytes, cnt->hbm_write_bytes, cnt->hbm_same_address);

    fprintf(out, "\"hazard_count\":%" PRIu64 ",\n\"hazards_capped\":%s,\n\"hazards\":[", cnt->hazards,
            cnt->hazards_capped ? "true" : "false");
    for (uint32_t i = 0; i < cnt->nhazard_records && i < DV_HAZARD_RECORDS; i++) {
        const dv_hazard_t *h = &cnt->hazard[i];
        char sub[16];
        fprintf(out, "%s\n {\"kind\":\"%s\",\"core\":", i ? "," : "", hazard_kind_name(h->kind));
        dv_json_string(out, hazard_core_name(r, h));
        fprintf(out, ",\"block\":%u,\"sub\":", h->block);
        if (info->kind == DV_KIND_MIX)
            dv_json_string(out, sub_name(info, h->sub, sub, sizeof sub));
        else
            fputs("null", out);
        fprintf(out,
                ",\"first\":{\"insn\":%" PRIu64 ",\"line\":%u,\"pipe\":\"%s\"},\"second\":{\"insn\":%" PRIu64
                ",\"line\":%u,\"pipe\":\"%s\"},\"space\":\"%s\",\"arg\":",
                h->insn_first, h->line_first, dv_pipe_name((dv_pipe_t)h->pipe_first), h->insn_second, h->line_second,
                dv_pipe_name((dv_pipe_t)h->pipe_second), dv_space_name((dv_space_t)h->space));
        if (h->space == DV_SPACE_GM)
            dv_json_string(out, hazard_space_name(r, h));
        else
            fputs("null", out);
        fprintf(out, ",\"lo\":%" PRIu64 ",\"hi\":%" PRIu64 "}", h->lo, h->hi);
    }
    fputs(cnt->nhazard_records ? "\n],\n\"config\":" : "],\n\"config\":", out);
    json_config(out, r->cfg);
    fputs("\n}\n", out);
    return ferror(out) ? DV_ERR_IO : DV_OK;
}

/* ---------------------------------------------------------------- instruction CSV */

int dv_report_write_instr_csv(const dv_report_t *r, FILE *out)
{
    fputs("instr,pipe,call_count,cycles,avg_cycles,running_time(us)\n", out);
    for (int i = 0; i < r->ninstr; i++) {
        const dv_instr_row_t *row = &r->instr[i];
        fprintf(out, "%s,%s,%" PRIu64 ",%" PRIu64 ",%.2f,%.6f\n", dv_op_spec((dv_op_t)row->op)->mnemonic,
                dv_pipe_name(row->pipe), row->count, row->cycles, row->avg_cycles, row->time_us);
    }
    return ferror(out) ? DV_ERR_IO : DV_OK;
}
