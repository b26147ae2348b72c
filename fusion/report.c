/* fusion/report.c - step 7 of a fusion study: the text report, the JSON (schema in
 * docs/FUSION.md) and the SVG.  Every figure is derived here, once, from the kernels' counters
 * summed by fusion/run.c: speedup = unfused time / fused time, traffic reduction = 1 - fused GM
 * bytes / unfused GM bytes (GM bytes = bytes the DMA engines read and wrote, L2 hits included). */
#include <math.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/report.h"
#include "internal.h"

static uint64_t gm_bytes(const dv_fsum_t *s) { return s->gm_read_bytes + s->gm_write_bytes; }

double dv_fusion_speedup(const dv_fsum_t *u, const dv_fsum_t *f)
{
    return f->time_us > 0 ? u->time_us / f->time_us : 0;
}

double dv_fusion_traffic_reduction(const dv_fsum_t *u, const dv_fsum_t *f)
{
    return gm_bytes(u) ? 1.0 - (double)gm_bytes(f) / (double)gm_bytes(u) : 0;
}

double dv_fusion_l2_hit_rate(const dv_fsum_t *s)
{
    const uint64_t n = s->l2_hits + s->l2_misses;
    return n ? (double)s->l2_hits / (double)n : 0;
}

const char *dv_fusion_verdict(const dv_fusion_result_t *r, char *why, size_t cap)
{
    int fused = 0;
    for (int i = 0; i < r->plan.ngroups; i++)
        fused += r->plan.g[i].fused;
    const double s = dv_fusion_speedup(&r->unfused.total, &r->fused.total);
    if (!fused && !r->folds.n) {
        snprintf(why, cap, "no rewrite applies and no group passes the fusion rules");
        return "keep";
    }
    if (s <= 1.0) {
        snprintf(why, cap, "the fused variant is not faster (%.3fx)", s);
        return "keep";
    }
    snprintf(why, cap, "%d fused group%s%s%d rewrite%s: %.2fx faster, %.1f%% less GM traffic", fused,
             fused == 1 ? "" : "s", ", ", r->folds.n, r->folds.n == 1 ? "" : "s", s,
             100 * dv_fusion_traffic_reduction(&r->unfused.total, &r->fused.total));
    return "fuse";
}

static const char *group_kind(dv_group_kind_t k)
{
    return k == DV_GROUP_VECTOR ? "vector" : k == DV_GROUP_CUBE_EPILOGUE ? "cube+epilogue" : "single";
}

static void group_nodes(const dv_fusion_result_t *r, const dv_fgroup_t *g, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < g->nnodes; i++)
        n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%s", i ? "+" : "", r->rewritten.nodes[g->nodes[i]].name);
}

static void mb(char *buf, size_t cap, uint64_t bytes) { snprintf(buf, cap, "%.2f", (double)bytes / 1e6); }

int dv_fusion_print(const dv_fusion_result_t *r, FILE *out)
{
    const dv_fsum_t *u = &r->unfused.total, *f = &r->fused.total;
    char why[256], a[32], b[32], nodes[512];
    fprintf(out, "fusion study: %s (%s) on %s, %llu MHz\n", r->graph.name, r->graph.path, r->cfg.chip_name,
            (unsigned long long)r->cfg.chip_freq_mhz);
    fprintf(out, "\ngraph fusion:\n");
    if (!r->folds.n)
        fprintf(out, "  no rewrite applies\n");
    for (int i = 0; i < r->folds.n; i++)
        fprintf(out, "  %s\n", r->folds.f[i].what);

    fprintf(out, "\nUB fusion groups (of the rewritten graph):\n");
    fprintf(out, "  %-3s %-28s %-14s %10s %10s %9s %9s %8s  %s\n", "#", "nodes", "kind", "unfused_us", "fused_us",
            "speedup", "GM_MB", "GM_MB'", "verdict");
    for (int i = 0; i < r->plan.ngroups; i++) {
        const dv_fgroup_t *g = &r->plan.g[i];
        const dv_fsum_t *gu = &r->unfused.group[i], *gf = &r->fused.group[i];
        group_nodes(r, g, nodes, sizeof nodes);
        mb(a, sizeof a, gm_bytes(gu));
        mb(b, sizeof b, gm_bytes(gf));
        fprintf(out, "  %-3d %-28s %-14s %10.2f %10.2f %8.2fx %9s %8s  %s\n", i, nodes, group_kind(g->kind),
                gu->time_us, gf->time_us, dv_fusion_speedup(gu, gf), a, b, g->fused ? "fuse" : "keep");
        fprintf(out, "      %s\n", g->reason);
    }

    fprintf(out, "\nwhole graph:            %14s %14s %10s\n", "unfused", "fused", "change");
#define ROW_U(label, x, y)                                                                                       \
    fprintf(out, "  %-22s %14llu %14llu %9.1f%%\n", label, (unsigned long long)(x), (unsigned long long)(y),     \
            (x) ? 100.0 * ((double)(y) - (double)(x)) / (double)(x) : 0.0)
    fprintf(out, "  %-22s %14.2f %14.2f %9.1f%%\n", "time (us)", u->time_us, f->time_us,
            u->time_us > 0 ? 100 * (f->time_us - u->time_us) / u->time_us : 0);
    ROW_U("cycles", u->cycles, f->cycles);
    ROW_U("kernels launched", u->kernels, f->kernels);
    ROW_U("GM read bytes", u->gm_read_bytes, f->gm_read_bytes);
    ROW_U("GM write bytes", u->gm_write_bytes, f->gm_write_bytes);
    ROW_U("HBM read bytes", u->hbm_read_bytes, f->hbm_read_bytes);
    ROW_U("HBM write bytes", u->hbm_write_bytes, f->hbm_write_bytes);
    fprintf(out, "  %-22s %13.1f%% %13.1f%%\n", "L2 hit rate", 100 * dv_fusion_l2_hit_rate(u),
            100 * dv_fusion_l2_hit_rate(f));
    ROW_U("UB peak bytes", u->ub_peak_bytes, f->ub_peak_bytes);
    fprintf(out, "  %-22s %14.0f %14.0f\n", "UB average bytes", u->ub_avg_bytes, f->ub_avg_bytes);
    ROW_U("L1 peak bytes", u->l1_peak_bytes, f->l1_peak_bytes);
    ROW_U("L0C peak bytes", u->l0c_peak_bytes, f->l0c_peak_bytes);
#undef ROW_U
    fprintf(out, "  pipe busy ratios (time-weighted over the kernels):\n");
    for (int p = 0; p < DV_PIPE_COUNT; p++)
        if (u->ratio[p] > 0 || f->ratio[p] > 0)
            fprintf(out, "    %-20s %13.1f%% %13.1f%%\n", dv_pipe_name((dv_pipe_t)p), 100 * u->ratio[p],
                    100 * f->ratio[p]);
    const char *v = dv_fusion_verdict(r, why, sizeof why);
    fprintf(out, "\nspeedup %.2fx, GM traffic reduction %.1f%%: %s (%s)\n", dv_fusion_speedup(u, f),
            100 * dv_fusion_traffic_reduction(u, f), v, why);

    fprintf(out, "\nkernels:\n");
    for (int pass = 0; pass < 2; pass++) {
        const dv_fvariant_t *var = pass ? &r->fused : &r->unfused;
        for (int i = 0; i < var->nkernels; i++) {
            const dv_fkstat_t *k = &var->k[i];
            fprintf(out, "  %-8s %-32s %-6s %5u blocks %10.2f us  GM %9.3f MB  UB peak %7llu B  bound %s\n",
                    pass ? "fused" : "unfused", k->name, dv_kind_name(k->kind), k->blocks, k->time_us,
                    (double)(k->gm_read_bytes + k->gm_write_bytes) / 1e6, (unsigned long long)k->ub_peak_bytes,
                    k->bound_by >= 0 ? dv_pipe_name((dv_pipe_t)k->bound_by) : "-");
        }
    }
    if (r->checked)
        fprintf(out, "\ncheck: %llu output elements compared with the unfused run, %llu outside the dtype tolerance "
                "(max abs error %.3g); hazards: %llu unfused, %llu fused\n", (unsigned long long)r->compared,
                (unsigned long long)r->mismatches, r->check.max_abs_err, (unsigned long long)u->hazards,
                (unsigned long long)f->hazards);
    else
        fprintf(out, "\ncheck: not run (--no-data)\n");
    return ferror(out) ? DV_ERR_IO : DV_OK;
}

/* ---------------------------------------------------------------- JSON */

static void json_sum(FILE *out, const dv_fsum_t *s)
{
    fprintf(out, "{\"time_us\": %.6f, \"cycles\": %llu, \"kernels\": %u, \"gm_read_bytes\": %llu, "
            "\"gm_write_bytes\": %llu, \"hbm_read_bytes\": %llu, \"hbm_write_bytes\": %llu, \"l2_hit_rate\": %.6f, "
            "\"ub_peak_bytes\": %llu, \"ub_avg_bytes\": %.1f, \"l1_peak_bytes\": %llu, \"l0c_peak_bytes\": %llu, "
            "\"pipes\": {", s->time_us, (unsigned long long)s->cycles, s->kernels,
            (unsigned long long)s->gm_read_bytes, (unsigned long long)s->gm_write_bytes,
            (unsigned long long)s->hbm_read_bytes, (unsigned long long)s->hbm_write_bytes, dv_fusion_l2_hit_rate(s),
            (unsigned long long)s->ub_peak_bytes, s->ub_avg_bytes, (unsigned long long)s->l1_peak_bytes,
            (unsigned long long)s->l0c_peak_bytes);
    for (int p = 0; p < DV_PIPE_COUNT; p++)
        fprintf(out, "%s\"%s\": %.6f", p ? ", " : "", dv_pipe_name((dv_pipe_t)p), s->ratio[p]);
    fputs("}}", out);
}

static void json_kernels(FILE *out, const dv_fvariant_t *v)
{
    fputc('[', out);
    for (int i = 0; i < v->nkernels; i++) {
        const dv_fkstat_t *k = &v->k[i];
        fprintf(out, "%s\n      {\"name\": ", i ? "," : "");
        dv_json_string(out, k->name);
        fprintf(out, ", \"group\": %d, \"kind\": \"%s\", \"blocks\": %u, \"time_us\": %.6f, \"cycles\": %llu, "
                "\"gm_read_bytes\": %llu, \"gm_write_bytes\": %llu, \"ub_peak_bytes\": %llu, \"ub_avg_bytes\": %.1f, "
                "\"bound_by\": ", k->group, dv_kind_name(k->kind), k->blocks, k->time_us,
                (unsigned long long)k->cycles, (unsigned long long)k->gm_read_bytes,
                (unsigned long long)k->gm_write_bytes, (unsigned long long)k->ub_peak_bytes, k->ub_avg_bytes);
        if (k->bound_by >= 0)
            fprintf(out, "\"%s\"", dv_pipe_name((dv_pipe_t)k->bound_by));
        else
            fputs("null", out);
        fputs(", \"ub_series_bytes\": [", out);
        for (int j = 0; j < DV_OCC_SLICES; j++)
            fprintf(out, "%s%.1f", j ? ", " : "", k->ub_series[j]);
        fputs("]}", out);
    }
    fputs("]", out);
}

int dv_fusion_write_json(const dv_fusion_result_t *r, FILE *out)
{
    const dv_fsum_t *u = &r->unfused.total, *f = &r->fused.total;
    char why[256], nodes[512];
    const char *v = dv_fusion_verdict(r, why, sizeof why);
    fputs("{\n  \"graph\": ", out);
    dv_json_string(out, r->graph.name);
    fputs(",\n  \"file\": ", out);
    dv_json_string(out, r->graph.path);
    fputs(",\n  \"profile\": ", out);
    dv_json_string(out, r->cfg.chip_name);
    fputs(",\n  \"unfused\": ", out);
    json_sum(out, u);
    fputs(",\n  \"fused\": ", out);
    json_sum(out, f);
    fprintf(out, ",\n  \"speedup\": %.6f,\n  \"gm_traffic_reduction\": %.6f,\n  \"verdict\": \"%s\",\n  \"reason\": ",
            dv_fusion_speedup(u, f), dv_fusion_traffic_reduction(u, f), v);
    dv_json_string(out, why);
    fputs(",\n  \"rewrites\": [", out);
    for (int i = 0; i < r->folds.n; i++) {
        fputs(i ? ", " : "", out);
        dv_json_string(out, r->folds.f[i].what);
    }
    fputs("],\n  \"groups\": [", out);
    for (int i = 0; i < r->plan.ngroups; i++) {
        const dv_fgroup_t *g = &r->plan.g[i];
        fprintf(out, "%s\n    {\"index\": %d, \"nodes\": [", i ? "," : "", i);
        for (int j = 0; j < g->nnodes; j++) {
            fputs(j ? ", " : "", out);
            dv_json_string(out, r->rewritten.nodes[g->nodes[j]].name);
        }
        group_nodes(r, g, nodes, sizeof nodes);
        fprintf(out, "], \"kind\": \"%s\", \"verdict\": \"%s\", \"reason\": ", group_kind(g->kind),
                g->fused ? "fuse" : "keep");
        dv_json_string(out, g->reason);
        fprintf(out, ",\n     \"tile\": {\"rows\": %llu, \"cols\": %llu}, \"ub_bytes\": %llu, "
                "\"est_unfused_bytes\": %llu, \"est_fused_bytes\": %llu,\n     \"unfused\": ",
                (unsigned long long)g->tile_rows, (unsigned long long)g->tile_cols, (unsigned long long)g->ub_bytes,
                (unsigned long long)g->est_unfused_bytes, (unsigned long long)g->est_fused_bytes);
        json_sum(out, &r->unfused.group[i]);
        fputs(",\n     \"fused\": ", out);
        json_sum(out, &r->fused.group[i]);
        fprintf(out, ",\n     \"speedup\": %.6f, \"gm_traffic_reduction\": %.6f}",
                dv_fusion_speedup(&r->unfused.group[i], &r->fused.group[i]),
                dv_fusion_traffic_reduction(&r->unfused.group[i], &r->fused.group[i]));
    }
    fputs("\n  ],\n  \"launches\": {\n    \"unfused\": ", out);
    json_kernels(out, &r->unfused);
    fputs(",\n    \"fused\": ", out);
    json_kernels(out, &r->fused);
    fputs("\n  },\n  \"check\": ", out);
    if (r->checked)
        fprintf(out, "{\"compared\": %llu, \"mismatches\": %llu, \"max_abs_err\": %.6g, \"hazards_unfused\": %llu, "
                "\"hazards_fused\": %llu}", (unsigned long long)r->compared, (unsigned long long)r->mismatches,
                r->check.max_abs_err, (unsigned long long)u->hazards, (unsigned long long)f->hazards);
    else
        fputs("null", out);
    fputs("\n}\n", out);
    return ferror(out) ? DV_ERR_IO : DV_OK;
}

/* ---------------------------------------------------------------- SVG */

static void svg_text(FILE *out, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
}

/* Two timelines (unfused, fused) of the kernels on one time axis, each kernel a box labelled with
 * its name and time; below, each variant's UB occupancy over time on the same axis: every kernel's
 * mean occupancy per core in 64 slices of its time (the model's series, dv_report_buf_series), with
 * its peak as a light band. */
int dv_fusion_write_svg(const dv_fusion_result_t *r, FILE *out)
{
    static const char *const fill[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
                                       "#9c755f"};
    const double W = 960, left = 90, right = 20, lane = 46, top = 50;
    const double tmax = fmax(r->unfused.total.time_us, r->fused.total.time_us);
    const double scale = (W - left - right) / (tmax > 0 ? tmax : 1);
    const double occ_top = top + 2 * lane + 60, occ_h = 120;
    const double H = occ_top + 2 * (occ_h + 30) + 20;
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
            "height=\"%.0f\" font-family=\"sans-serif\" font-size=\"11\">\n", W, H);
    fputs("<title>", out);
    svg_text(out, r->graph.name);
    fprintf(out, " on %s: unfused vs fused</title>\n", r->cfg.chip_name);
    fputs("<text x=\"10\" y=\"20\" font-size=\"14\">", out);
    svg_text(out, r->graph.name);
    fprintf(out, " on %s: %.2f us unfused, %.2f us fused (%.2fx)</text>\n", r->cfg.chip_name, r->unfused.total.time_us,
            r->fused.total.time_us, dv_fusion_speedup(&r->unfused.total, &r->fused.total));
    uint64_t ub_max = 1;
    for (int pass = 0; pass < 2; pass++) {
        const dv_fvariant_t *v = pass ? &r->fused : &r->unfused;
        const double y = top + pass * lane;
        fprintf(out, "<text x=\"10\" y=\"%.1f\">%s</text>\n", y + lane / 2, pass ? "fused" : "unfused");
        double t = 0;
        for (int i = 0; i < v->nkernels; i++) {
            const dv_fkstat_t *k = &v->k[i];
            const double x = left + t * scale, w = fmax(k->time_us * scale, 0.5);
            fprintf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\" stroke=\"white\">"
                    "<title>", x, y + 4, w, lane - 10, fill[(k->group < 0 ? 0 : k->group) % 8]);
            svg_text(out, k->name);
            fprintf(out, ": %.2f us, %s-bound, UB peak %llu B</title></rect>\n", k->time_us,
                    k->bound_by >= 0 ? dv_pipe_name((dv_pipe_t)k->bound_by) : "-", (unsigned long long)k->ub_peak_bytes);
            if (w > 60) {
                fprintf(out, "<text x=\"%.2f\" y=\"%.1f\" fill=\"white\">", x + 3, y + lane / 2 + 3);
                svg_text(out, k->name);
                fputs("</text>\n", out);
            }
            t += k->time_us;
            ub_max = dv_max_u64(ub_max, k->ub_peak_bytes);
        }
    }
    /* time axis */
    const double ay = top + 2 * lane + 10;
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", left, ay, W - right, ay);
    for (int i = 0; i <= 4; i++) {
        const double x = left + (W - left - right) * i / 4;
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.1f us</text>\n", x, ay + 14, tmax * i / 4);
    }
    /* UB occupancy over time on the same time axis */
    for (int pass = 0; pass < 2; pass++) {
        const dv_fvariant_t *v = pass ? &r->fused : &r->unfused;
        const double y0 = occ_top + pass * (occ_h + 30);
        fprintf(out, "<text x=\"10\" y=\"%.1f\">UB %s</text>\n", y0 - 6, pass ? "fused" : "unfused");
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.0f KB</text>\n", left - 4, y0 + 8,
                (double)ub_max / 1024);
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", left, y0 + occ_h,
                W - right, y0 + occ_h);
        double t = 0;
        for (int i = 0; i < v->nkernels; i++) {
            const dv_fkstat_t *k = &v->k[i];
            const double x = left + t * scale, w = fmax(k->time_us * scale, 0.5);
            const double hp = occ_h * (double)k->ub_peak_bytes / (double)ub_max;
            fprintf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"#e3e8f0\"><title>", x,
                    y0 + occ_h - hp, w, hp);
            svg_text(out, k->name);
            fprintf(out, ": UB peak %llu B, average %.0f B</title></rect>\n", (unsigned long long)k->ub_peak_bytes,
                    k->ub_avg_bytes);
            fprintf(out, "<polyline fill=\"none\" stroke=\"#4e79a7\" stroke-width=\"1.5\" points=\"");
            for (int j = 0; j < DV_OCC_SLICES; j++) {
                const double ys = y0 + occ_h - occ_h * k->ub_series[j] / (double)ub_max;
                fprintf(out, "%.2f,%.2f %.2f,%.2f ", x + w * j / DV_OCC_SLICES, ys, x + w * (j + 1) / DV_OCC_SLICES, ys);
            }
            fputs("\"/>\n", out);
            t += k->time_us;
        }
    }
    fputs("</svg>\n", out);
    return ferror(out) ? DV_ERR_IO : DV_OK;
}
