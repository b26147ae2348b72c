/* bench/whatifdoc.c - writes docs/WHATIF.md and its plots (make whatif-doc): the what-if studies of
 * the shipped sweep specs (bench/whatif/), each run with dv_sweep_run, plotted with the plot
 * module, summarised in a table and a paragraph derived from the results.  Nothing in it is typed
 * by hand but the prose around the figures.
 *
 *   whatifdoc OUT_DIR BUILD_DIR   writes OUT_DIR/WHATIF.md and OUT_DIR/whatif/<study>.svg; the sweeps
 *                                 run afresh in BUILD_DIR/whatif/<study> */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "banner.h"
#include "dv/plot.h"
#include "dv/sweep.h"

#define BANNER_CMD "make whatif-doc UPDATE=1"
#define BANNER_SRC "bench/whatif/*.yaml"
#define BANNER_GEN "bench/whatifdoc.c"

/* One study: a spec, the plot that shows it, and what its paragraph compares. */
typedef struct study {
    const char *name;    /* file stem of the spec and the plot */
    const char *title;
    const char *x, *y;   /* the plot's columns */
    const char *by;      /* heatmap: the second key; NULL: per workload */
    bool heatmap;
} study_t;

static const study_t studies[] = {
    {"ub_size", "UB size on fused chains", "core.ub_size_bytes", "time_us", NULL, false},
    {"hbm_bandwidth", "HBM bandwidth on add and matmul", "hbm.bytes_per_cycle", "time_us", NULL, false},
    {"cube_count_clock", "AI core count and clock on the 8192^3 matmul", "chip.ai_cores", "time_us", "chip.freq_mhz",
     true},
};

static double num(const dv_plot_table_t *t, int r, const char *col)
{
    const int c = dv_plot_table_col(t, col);
    double v = NAN;
    bool b;
    if (c >= 0 && dv_plot_number(dv_plot_cell(t, r, c), &v, &b) != DV_OK)
        v = NAN;
    return v;
}

static const char *text(const dv_plot_table_t *t, int r, const char *col)
{
    const int c = dv_plot_table_col(t, col);
    return c >= 0 ? dv_plot_cell(t, r, c) : "";
}

/* The table: every row's workload, swept values and the main metrics. */
static void write_table(FILE *out, const dv_plot_table_t *t, const dv_sweep_t *s)
{
    static const char *const metrics[] = {"time_us", "bound_by", "ratio_MTE2", "ratio_M", "ratio_V", "l2_hit_rate",
                                          "speedup"};
    fputs("| workload |", out);
    for (int a = 0; a < s->naxes; a++)
        fprintf(out, " %s |", s->axis[a].key);
    for (size_t m = 0; m < sizeof metrics / sizeof metrics[0]; m++)
        if (dv_plot_table_col(t, metrics[m]) >= 0)
            fprintf(out, " %s |", metrics[m]);
    fputs("\n|---|", out);
    for (int a = 0; a < s->naxes; a++)
        fputs("---|", out);
    for (size_t m = 0; m < sizeof metrics / sizeof metrics[0]; m++)
        if (dv_plot_table_col(t, metrics[m]) >= 0)
            fputs("---|", out);
    fputs("\n", out);
    for (int r = 0; r < t->nrows; r++) {
        fprintf(out, "| %s |", text(t, r, "workload"));
        for (int a = 0; a < s->naxes; a++)
            fprintf(out, " %s |", text(t, r, s->axis[a].key));
        for (size_t m = 0; m < sizeof metrics / sizeof metrics[0]; m++) {
            if (dv_plot_table_col(t, metrics[m]) < 0)
                continue;
            const char *c = text(t, r, metrics[m]);
            const double v = num(t, r, metrics[m]);
            if (!c[0])
                fputs(" - |", out);
            else if (isnan(v))
                fprintf(out, " %s |", c);
            else
                fprintf(out, " %.3g |", v);
        }
        fputs("\n", out);
    }
    fputs("\n", out);
}

/* The time of `workload` at the rows whose axis `a` is at its lowest / highest value and every other
 * axis at its first value. */
static void extremes_on(const dv_plot_table_t *t, const dv_sweep_t *s, const char *workload, int a, int *lo, int *hi)
{
    *lo = *hi = -1;
    double xlo = INFINITY, xhi = -INFINITY;
    for (int r = 0; r < t->nrows; r++) {
        if (strcmp(text(t, r, "workload"), workload) != 0)
            continue;
        bool others_first = true;
        for (int b = 0; b < s->naxes; b++)
            others_first = others_first && (b == a || strcmp(text(t, r, s->axis[b].key), s->axis[b].value[0]) == 0);
        if (!others_first)
            continue;
        const double x = num(t, r, s->axis[a].key);
        if (x < xlo) {
            xlo = x;
            *lo = r;
        }
        if (x > xhi) {
            xhi = x;
            *hi = r;
        }
    }
}

static const char *bound(const dv_plot_table_t *t, int r)
{
    return text(t, r, "bound_by")[0] ? text(t, r, "bound_by") : "-";
}

/* The paragraph: for every workload and axis, how time moves from the axis' lowest to its highest
 * value (the other axes at their first value) against ideal scaling (time inversely proportional to
 * the axis), what bounds it at each end, and for fusion workloads how the fused speedup moves. */
static void write_paragraph(FILE *out, const dv_plot_table_t *t, const dv_sweep_t *s)
{
    for (int w = 0; w < s->nworkloads; w++) {
        fprintf(out, "**%s:**", s->workload[w].name);
        for (int a = 0; a < s->naxes; a++) {
            int lo, hi;
            extremes_on(t, s, s->workload[w].name, a, &lo, &hi);
            if (lo < 0 || hi < 0 || lo == hi)
                continue;
            const char *key = s->axis[a].key;
            const double x0 = num(t, lo, key), x1 = num(t, hi, key), t0 = num(t, lo, "time_us");
            const double t1 = num(t, hi, "time_us"), gain = t0 / t1, ideal = x1 / x0;
            fprintf(out, " From %s = %g to %g (%.3gx), time goes from %.2f to %.2f us: ", key, x0, x1, ideal, t0, t1);
            if (gain >= 1)
                fprintf(out, "%.2fx faster, %.0f%% of the way to the %.3gx of ideal scaling.", gain,
                        ideal > 1 ? 100 * (gain - 1) / (ideal - 1) : 0.0, ideal);
            else
                fprintf(out, "%.2fx slower.", 1 / gain);
            if (strcmp(bound(t, lo), bound(t, hi)) == 0)
                fprintf(out, " It is %s-bound at both ends.", bound(t, lo));
            else
                fprintf(out, " It is %s-bound at the low end and %s-bound at the high end.", bound(t, lo), bound(t, hi));
            const double s0 = num(t, lo, "speedup"), s1 = num(t, hi, "speedup");
            if (!isnan(s0) && !isnan(s1))
                fprintf(out, " The fused variant's speedup over the unfused one goes from %.2fx to %.2fx.", s0, s1);
        }
        fputs("\n\n", out);
    }
}

/* Plot the sweep into OUT_DIR/whatif/<name>.svg with the banner as an XML comment. */
static int write_plot(const study_t *st, const dv_plot_table_t *t, const char *outdir, dv_error_t *err)
{
    dv_plot_opts_t o;
    dv_plot_opts_default(&o);
    o.x = st->x;
    o.y = st->y;
    o.by = st->by;
    o.kind = st->heatmap ? DV_PLOT_HEATMAP : DV_PLOT_LINE;
    o.title = st->title;
    dv_plot_chart_t c;
    int rc = dv_plot_chart_build(t, &o, &c, err);
    if (rc)
        return rc;
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) {
        dv_plot_chart_free(&c);
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    rc = dv_plot_write_svg(&c, mem);
    fclose(mem);
    dv_plot_chart_free(&c);
    char path[512];
    snprintf(path, sizeof path, "%s/whatif/%s.svg", outdir, st->name);
    FILE *f = rc ? NULL : fopen(path, "w");
    if (!rc && !f)
        rc = dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot write");
    if (f) {
        const char *nl = strchr(buf, '\n');
        const size_t head = nl ? (size_t)(nl - buf) + 1 : 0;
        fwrite(buf, 1, head, f);
        fputs("<!-- " DV_BANNER(BANNER_CMD, BANNER_SRC, BANNER_GEN) " -->\n", f);
        fwrite(buf + head, 1, len - head, f);
        if (fclose(f) != 0)
            rc = dv_error_set(err, DV_ERR_IO, path, 0, 0, "write failed");
    }
    free(buf);
    return rc;
}

static int run_study(FILE *out, const study_t *st, const char *outdir, const char *builddir)
{
    char spec[256], dir[512];
    dv_error_t err;
    dv_sweep_t *s = NULL;
    dv_plot_table_t t;
    memset(&t, 0, sizeof t);
    snprintf(spec, sizeof spec, "bench/whatif/%s.yaml", st->name);
    snprintf(dir, sizeof dir, "%s/whatif/%s", builddir, st->name);
    dv_sweep_opts_t o;
    dv_sweep_opts_default(&o);
    o.out = dir;
    o.progress = stderr;
    dv_sweep_summary_t sum;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir); /* the doc shows this dvsim's figures: never resume */
    if (system(cmd) != 0) {
        fprintf(stderr, "whatifdoc: cannot remove %s\n", dir);
        return 1;
    }
    int rc = dv_sweep_load(spec, &s, &err);
    if (rc == DV_OK)
        rc = dv_sweep_run(s, &o, &sum, &err);
    char csv[600];
    snprintf(csv, sizeof csv, "%s/results.csv", dir);
    if (rc == DV_OK)
        rc = dv_plot_table_read(&t, csv, &err);
    if (rc == DV_OK)
        rc = write_plot(st, &t, outdir, &err);
    if (rc != DV_OK) {
        dv_error_print(&err, stderr);
        dv_plot_table_free(&t);
        dv_sweep_free(s);
        return 1;
    }
    fprintf(out, "## %s\n\nSpec: `%s` (%llu points on %s).\n\n![%s](whatif/%s.svg)\n\n", st->title, spec,
            (unsigned long long)s->npoints, s->profile, st->title, st->name);
    write_paragraph(out, &t, s);
    write_table(out, &t, s);
    dv_plot_table_free(&t);
    dv_sweep_free(s);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: whatifdoc OUT_DIR BUILD_DIR\n");
        return 2;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/whatif", argv[1]);
    mkdir(argv[1], 0777);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/whatif", argv[2]);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/WHATIF.md", argv[1]);
    FILE *out = fopen(path, "w");
    if (!out) {
        perror(path);
        return 1;
    }
    fputs(DV_BANNER_MD(BANNER_CMD, BANNER_SRC, BANNER_GEN) "\n\n", out);
    fputs("# What-if studies\n\n"
          "Architecture sweeps over the profile (`dvsim sweep`, docs/SWEEP.md) on shipped specs in\n"
          "`bench/whatif/`, each plotted with `dvsim plot` (docs/PLOT.md). Every run is timing-only. Each\n"
          "paragraph compares, per axis, the lowest and the highest value (the other axes at their first\n"
          "value) with ideal scaling (time inversely proportional to the swept resource). Bandwidths and\n"
          "latencies are per cycle in a profile, so a clock axis scales them too.\n\n",
          out);
    int rc = 0;
    for (size_t i = 0; i < sizeof studies / sizeof studies[0] && rc == 0; i++)
        rc = run_study(out, &studies[i], argv[1], argv[2]);
    if (fclose(out) != 0)
        rc = 1;
    return rc;
}
