/* whatif/plot_chart.c - step 2 of a plot: from the table's rows to what is drawn (dv/plot.h).
 *
 * The swept keys of a results table are its `workload` column and every column named like a key of
 * the profile schema (dv_param_find); the others are metrics.  Rows are kept by --where, grouped
 * into lines by --by (or into heatmap panels by workload), and two rows may not claim one point:
 * rows of one line with the same x (one heatmap cell) that differ in a swept key on no axis are
 * "mixed" (an error that says which key and how to fix it with --where), and rows that differ in
 * nothing are duplicates.  A swept key that changes along a line without such a collision (a zip
 * sweep) is allowed and named in the subtitle. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dv/config.h"
#include "dv/plot.h"
#include "dv/yamldoc.h"

/* ---------------------------------------------------------------- units */

typedef enum { MATCH_EXACT, MATCH_PREFIX, MATCH_SUFFIX } match_t;

/* The unit a metric's name carries: the first row that matches. */
static const struct {
    match_t how;
    const char *pattern;
    const char *unit;
} metric_units[] = {
    {MATCH_EXACT, "point", "index"},
    {MATCH_EXACT, "cycles", "cycles"},
    {MATCH_SUFFIX, "_cycles", "cycles"},
    {MATCH_SUFFIX, "_us", "\xc2\xb5s"},
    {MATCH_SUFFIX, "_bytes", "bytes"},
    {MATCH_PREFIX, "ratio_", "dimensionless, 0..1"},
    {MATCH_SUFFIX, "_ratio", "dimensionless, 0..1"},
    {MATCH_SUFFIX, "_rate", "dimensionless, 0..1"},
    {MATCH_EXACT, "speedup", "dimensionless, times"},
    {MATCH_SUFFIX, "_reduction", "dimensionless, fraction"},
    {MATCH_SUFFIX, "_percent", "%"},
};

static bool matches(match_t how, const char *pattern, const char *name)
{
    const size_t n = strlen(name), p = strlen(pattern);
    switch (how) {
    case MATCH_EXACT: return strcmp(name, pattern) == 0;
    case MATCH_PREFIX: return n > p && strncmp(name, pattern, p) == 0;
    case MATCH_SUFFIX: return n > p && strcmp(name + n - p, pattern) == 0;
    }
    return false;
}

void dv_plot_axis_title(const char *column, char *buf, size_t size)
{
    const char *unit = "";
    const dv_param_spec_t *spec = dv_param_find(column);
    if (spec) {
        unit = spec->unit[0] ? spec->unit : spec->type == DV_PT_BOOL ? "true/false"
                                         : spec->type == DV_PT_LAYOUT ? "coupled/split" : "";
    } else {
        for (size_t i = 0; i < sizeof metric_units / sizeof metric_units[0]; i++)
            if (matches(metric_units[i].how, metric_units[i].pattern, column)) {
                unit = metric_units[i].unit;
                break;
            }
    }
    if (unit[0])
        snprintf(buf, size, "%s (%s)", column, unit);
    else
        snprintf(buf, size, "%s", column);
}

/* ---------------------------------------------------------------- ticks */

/* The 1-2-5 step nearest to raw (geometrically). */
static double nice_step(double raw)
{
    const double mag = pow(10, floor(log10(raw))), r = raw / mag;
    return (r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10) * mag;
}

void dv_plot_axis_ticks(dv_plot_axis_t *a, double min, double max, bool log)
{
    a->log = log;
    a->nticks = 0;
    if (a->boolean) {
        a->lo = -0.25;
        a->hi = 1.25;
        a->tick[a->nticks++] = 0;
        a->tick[a->nticks++] = 1;
        return;
    }
    if (log) {
        int d0 = (int)floor(log10(min)), d1 = (int)ceil(log10(max));
        if (d1 == d0)
            d1++;
        a->lo = pow(10, d0);
        a->hi = pow(10, d1);
        if (d1 - d0 <= 2) {
            /* 1-2-5 within the decades, from the last at or below min to the first at or above max */
            static const double mant[] = {1, 2, 5};
            double v[10];
            int nv = 0;
            for (int d = d0; d < d1; d++)
                for (int m = 0; m < 3; m++)
                    v[nv++] = mant[m] * pow(10, d);
            v[nv++] = a->hi;
            int i0 = 0, i1 = nv - 1;
            while (i0 + 1 < nv && v[i0 + 1] <= min)
                i0++;
            while (i1 > 0 && v[i1 - 1] >= max)
                i1--;
            a->lo = v[i0];
            a->hi = v[i1];
            for (int i = i0; i <= i1; i++)
                a->tick[a->nticks++] = v[i];
        } else {
            const int every = (d1 - d0 + 9) / 10;
            for (int d = d0; d <= d1 && a->nticks < DV_PLOT_MAX_TICKS; d += every)
                a->tick[a->nticks++] = pow(10, d);
        }
        return;
    }
    if (max == min) {
        const double pad = min == 0 ? 1 : fabs(min) * 0.1;
        min -= pad;
        max += pad;
    }
    const double step = nice_step((max - min) / 5);
    const double k0 = floor(min / step), k1 = ceil(max / step);
    a->lo = k0 * step;
    a->hi = k1 * step;
    for (double k = k0; k <= k1 && a->nticks < DV_PLOT_MAX_TICKS; k++) {
        const double v = k * step;
        a->tick[a->nticks++] = v == 0 ? 0 : v; /* no -0 */
    }
}

/* ---------------------------------------------------------------- columns */

/* The columns of t as "a, b, c" in at most cap characters ("..., and N more" when they do not fit). */
static void column_list(const dv_plot_table_t *t, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < t->ncols; i++) {
        const size_t need = strlen(t->col[i]) + 2;
        if (used + need + 24 > cap) {
            snprintf(buf + used, cap - used, ", and %d more", t->ncols - i);
            return;
        }
        used += (size_t)snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", t->col[i]);
    }
}

/* The column `name` given to option `opt`; an error with the nearest name and the list otherwise. */
static int find_column(const dv_plot_table_t *t, const char *opt, const char *name, int *col, dv_error_t *err)
{
    *col = dv_plot_table_col(t, name);
    if (*col >= 0)
        return DV_OK;
    const size_t len = strlen(name), limit = len <= 4 ? 1 : len / 4 > 2 ? len / 4 : 2;
    size_t best = (size_t)-1;
    const char *near = NULL;
    for (int i = 0; i < t->ncols; i++) {
        const char *c = t->col[i];
        size_t d = dv_edit_distance(name, c, limit);
        const size_t cl = strlen(c);
        /* a key given without its section ("bytes_per_cycle" for "hbm.bytes_per_cycle") */
        if (d > limit && cl > len && c[cl - len - 1] == '.' && strcmp(c + cl - len, name) == 0)
            d = limit;
        if (d <= limit && d < best) {
            best = d;
            near = c;
        }
    }
    char hint[320] = "", list[480];
    if (near)
        snprintf(hint, sizeof hint, " (did you mean '%s'?)", near);
    column_list(t, list, sizeof list);
    return dv_error_set(err, DV_ERR_UNKNOWN, t->file, 1, 0, "%s: no column '%s'%s; the columns are %s", opt, name, hint,
                        list);
}

/* Two cells hold the same value: numerically when both are numbers, else as text. */
static bool same_value(const char *a, const char *b)
{
    double va, vb;
    bool ba, bb;
    if (dv_plot_number(a, &va, &ba) == 0 && dv_plot_number(b, &vb, &bb) == 0)
        return va == vb;
    return strcmp(a, b) == 0;
}

/* The swept keys: workload and the profile's keys. */
static bool is_swept(const dv_plot_table_t *t, int col)
{
    return strcmp(t->col[col], "workload") == 0 || dv_param_find(t->col[col]) != NULL;
}

/* ---------------------------------------------------------------- rows */

typedef struct cat_sort {
    double v;
    int pos; /* in rows[] */
} cat_sort_t;

static int cmp_cat(const void *a, const void *b)
{
    const cat_sort_t *x = a, *y = b;
    return x->v < y->v ? -1 : x->v > y->v ? 1 : x->pos - y->pos;
}

/* The distinct values of column col over rows[0..n) in axis order: numeric ascending when every
 * one is a number (each labelled as its first row spells it), else in order of appearance.
 * (*label)[k] points into the table; idx[r] is the category of rows[r]. */
static int categories(const dv_plot_table_t *t, const int *rows, int n, int col, const char ***label, int *ncat, int *idx)
{
    cat_sort_t *cs = malloc(((size_t)n + 1) * sizeof *cs);
    const char **lab = malloc(((size_t)n + 1) * sizeof *lab);
    int *first = malloc(((size_t)n + 1) * sizeof *first);
    int k = 0, rc = DV_OK;
    bool numeric = true, b;
    if (!cs || !lab || !first) {
        rc = DV_ERR_NOMEM;
        goto cleanup;
    }
    for (int r = 0; r < n && numeric; r++) {
        numeric = dv_plot_number(dv_plot_cell(t, rows[r], col), &cs[r].v, &b) == 0;
        cs[r].pos = r;
    }
    if (numeric) {
        qsort(cs, (size_t)n, sizeof *cs, cmp_cat);
        for (int i = 0; i < n; i++) {
            if (i == 0 || cs[i].v != cs[i - 1].v)
                lab[k++] = dv_plot_cell(t, rows[cs[i].pos], col);
            idx[cs[i].pos] = k - 1;
        }
    } else {
        for (int r = 0; r < n; r++) {
            const char *v = dv_plot_cell(t, rows[r], col);
            int c = 0;
            while (c < k && strcmp(dv_plot_cell(t, rows[first[c]], col), v) != 0)
                c++;
            if (c == k) {
                first[k] = r;
                lab[k++] = v;
            }
            idx[r] = c;
        }
    }
    *label = lab;
    lab = NULL;
    *ncat = k;
cleanup:
    free(cs);
    free(lab);
    free(first);
    return rc;
}

/* Keep the rows that pass every --where (rows[], *n).  A key with no such value is an error that
 * lists the values it has. */
static int filter_rows(const dv_plot_table_t *t, const dv_plot_opts_t *o, int *rows, int *n, dv_error_t *err)
{
    int wcol[DV_PLOT_MAX_WHERE];
    for (int w = 0; w < o->nwhere; w++) {
        char key[256];
        snprintf(key, sizeof key, "%.*s", (int)o->where[w].keylen, o->where[w].key);
        int rc = find_column(t, "--where", key, &wcol[w], err);
        if (rc != DV_OK)
            return rc;
        bool any = false;
        for (int r = 0; r < t->nrows && !any; r++)
            any = same_value(dv_plot_cell(t, r, wcol[w]), o->where[w].value);
        if (!any) {
            char vals[400] = "";
            size_t used = 0;
            int shown[32], nshown = 0;
            for (int r = 0; r < t->nrows && nshown < 32 && used + 40 < sizeof vals; r++) {
                const char *v = dv_plot_cell(t, r, wcol[w]);
                bool seen = false;
                for (int q = 0; q < nshown && !seen; q++)
                    seen = same_value(dv_plot_cell(t, shown[q], wcol[w]), v);
                if (!seen) {
                    used += (size_t)snprintf(vals + used, sizeof vals - used, "%s%s", nshown ? ", " : "", v);
                    shown[nshown++] = r;
                }
            }
            return dv_error_set(err, DV_ERR_RANGE, t->file, 0, 0, "--where %s=%s: no row has that value (%s holds %s%s)",
                                key, o->where[w].value, key, vals,
                                used + 40 >= sizeof vals || nshown == 32 ? ", ..." : "");
        }
    }
    *n = 0;
    for (int r = 0; r < t->nrows; r++) {
        bool keep = true;
        for (int w = 0; w < o->nwhere && keep; w++)
            keep = same_value(dv_plot_cell(t, r, wcol[w]), o->where[w].value);
        if (keep)
            rows[(*n)++] = r;
    }
    if (*n == 0)
        return dv_error_set(err, DV_ERR_RANGE, t->file, 0, 0, "no row passes all the --where filters together");
    return DV_OK;
}

static void note_skipped(dv_plot_chart_t *c, const dv_plot_table_t *t, int row)
{
    if (c->skipped < (int)(sizeof c->skipped_line / sizeof c->skipped_line[0]))
        c->skipped_line[c->skipped] = t->line[row];
    c->skipped++;
}

/* Rows ra and rb claim one point (`what`, e.g. "x=444 of the line 'add'") of a line chart or a
 * heatmap: the error names the first swept key, on none of the axes, where they differ, or calls
 * them duplicates. */
static int collision(const dv_plot_table_t *t, int ra, int rb, const int *axes, int naxes, bool heatmap, const char *what,
                     dv_error_t *err)
{
    for (int k = 0; k < t->ncols; k++) {
        bool on_axis = false;
        for (int a = 0; a < naxes; a++)
            on_axis = on_axis || axes[a] == k;
        if (on_axis || !is_swept(t, k) || same_value(dv_plot_cell(t, ra, k), dv_plot_cell(t, rb, k)))
            continue;
        const char *key = t->col[k];
        return dv_error_set(err, DV_ERR_RANGE, t->file, t->line[rb], 0,
                            "the rows at lines %d and %d are both the point %s but differ in %s ('%s' and '%s'), which "
                            "is on no axis: keep one value with --where %s=%s, or give it an axis (%s%s%s)",
                            t->line[ra], t->line[rb], what, key, dv_plot_cell(t, ra, k), dv_plot_cell(t, rb, k), key,
                            strcmp(key, "workload") == 0 ? "NAME" : "VALUE", heatmap ? "--x or --by " : "--by ", key,
                            heatmap || strcmp(key, "workload") == 0 ? "" : ", or --heatmap");
    }
    return dv_error_set(err, DV_ERR_RANGE, t->file, t->line[rb], 0,
                        "the rows at lines %d and %d are the same point %s (every swept key equal): each point "
                        "belongs in the table once", t->line[ra], t->line[rb], what);
}

/* The swept keys, on none of the axes, that take more than one value within one group (a line, a
 * panel): appended to the subtitle as "; KEY changes along the lines". */
static void note_varying(const dv_plot_table_t *t, const int *rows, const int *group, int n, int ngroups, const int *axes,
                         int naxes, const char *where, dv_plot_chart_t *c)
{
    char keys[256] = "";
    size_t used = 0;
    int nk = 0;
    int *first = malloc(((size_t)ngroups + 1) * sizeof *first); /* each group's first row */
    for (int k = 0; k < t->ncols && first; k++) {
        bool skip = !is_swept(t, k);
        for (int a = 0; a < naxes; a++)
            skip = skip || axes[a] == k;
        bool varies = false;
        for (int g = 0; g < ngroups; g++)
            first[g] = -1;
        for (int i = 0; i < n && !skip && !varies; i++) {
            if (first[group[i]] < 0)
                first[group[i]] = rows[i];
            else
                varies = !same_value(dv_plot_cell(t, first[group[i]], k), dv_plot_cell(t, rows[i], k));
        }
        if (varies && used + strlen(t->col[k]) + 8 < sizeof keys) {
            used += (size_t)snprintf(keys + used, sizeof keys - used, "%s%s", nk ? ", " : "", t->col[k]);
            nk++;
        }
    }
    free(first);
    if (nk) {
        const size_t u = strlen(c->subtitle);
        snprintf(c->subtitle + u, sizeof c->subtitle - u, "; %s change%s along the %s", keys, nk == 1 ? "s" : "", where);
    }
}

/* A numeric cell of a plotted column, or an error naming the line. */
static int number_at(const dv_plot_table_t *t, int row, int col, const char *opt, const char *why, double *v,
                     bool *boolean, dv_error_t *err)
{
    if (dv_plot_number(dv_plot_cell(t, row, col), v, boolean) == 0)
        return DV_OK;
    return dv_error_set(err, DV_ERR_PARSE, t->file, t->line[row], 0, "%s column '%s' holds '%s', not a number: %s", opt,
                        t->col[col], dv_plot_cell(t, row, col), why);
}

static bool auto_log(dv_plot_scale_t s, double min, double max)
{
    return s == DV_SCALE_LOG || (s == DV_SCALE_AUTO && min > 0 && max / min >= DV_PLOT_LOG_SPAN);
}

/* The scale of an axis over [min, max]: AUTO is log when the values are positive and span
 * DV_PLOT_LOG_SPAN; a forced log needs positive values. */
static int pick_scale(const dv_plot_table_t *t, dv_plot_scale_t s, const char *opt, const char *col, double min,
                      double max, int min_line, bool *log, dv_error_t *err)
{
    if (s == DV_SCALE_LOG && !(min > 0))
        return dv_error_set(err, DV_ERR_RANGE, t->file, min_line, 0, "%s: column '%s' has %g here; a log scale needs "
                            "values above 0", opt, col, min);
    *log = auto_log(s, min, max);
    return DV_OK;
}

/* The columns on the axes and the key, and their titles. */
static void name_axes(dv_plot_chart_t *c, const char *x, const char *y, const char *key)
{
    snprintf(c->x.name, sizeof c->x.name, "%s", x);
    snprintf(c->y.name, sizeof c->y.name, "%s", y);
    snprintf(c->key_name, sizeof c->key_name, "%s", key);
    dv_plot_axis_title(x, c->x.title, sizeof c->x.title);
    dv_plot_axis_title(y, c->y.title, sizeof c->y.title);
    if (key[0])
        dv_plot_axis_title(key, c->key_title, sizeof c->key_title);
}

/* The subtitle: the source, the filters, the rows left out. */
static void describe(const dv_plot_table_t *t, const dv_plot_opts_t *o, dv_plot_chart_t *c)
{
    size_t used = (size_t)snprintf(c->subtitle, sizeof c->subtitle, "%s", t->file);
    for (int w = 0; w < o->nwhere && used < sizeof c->subtitle; w++)
        used += (size_t)snprintf(c->subtitle + used, sizeof c->subtitle - used, "%s%.*s=%s", w ? ", " : "; where ",
                                 (int)o->where[w].keylen, o->where[w].key, o->where[w].value);
    if (c->skipped && used < sizeof c->subtitle)
        snprintf(c->subtitle + used, sizeof c->subtitle - used, "; %d row%s with %s empty left out", c->skipped,
                 c->skipped == 1 ? "" : "s", c->skipped_cols);
}

/* ---------------------------------------------------------------- line chart */

typedef struct line_row {
    int series, row;
    double x, y;
} line_row_t;

static int cmp_line_row(const void *a, const void *b)
{
    const line_row_t *p = a, *q = b;
    if (p->series != q->series)
        return p->series - q->series;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->row - q->row;
}

static int build_line(const dv_plot_table_t *t, const dv_plot_opts_t *o, const int *rows, int n, dv_plot_chart_t *c,
                      dv_error_t *err)
{
    int xcol, ycol, bycol = -1, rc;
    line_row_t *lr = NULL;
    int *kept = NULL, *sid = NULL, *group = NULL;
    const char **names = NULL;
    if ((rc = find_column(t, "--x", o->x, &xcol, err)) != DV_OK ||
        (rc = find_column(t, "--y", o->y, &ycol, err)) != DV_OK)
        return rc;
    if (o->by) {
        if ((rc = find_column(t, "--by", o->by, &bycol, err)) != DV_OK)
            return rc;
        if (bycol == xcol)
            return dv_error_set(err, DV_ERR_PARSE, t->file, 0, 0, "--by %s is the --x column: --by names what tells "
                                "the lines apart", o->by);
    } else {
        /* default: one line per workload when there is more than one */
        const int w = dv_plot_table_col(t, "workload");
        for (int i = 1; w >= 0 && i < n && bycol < 0; i++)
            if (!same_value(dv_plot_cell(t, rows[0], w), dv_plot_cell(t, rows[i], w)))
                bycol = w;
    }
    lr = malloc((size_t)n * sizeof *lr);
    kept = malloc((size_t)n * sizeof *kept);
    sid = malloc((size_t)n * sizeof *sid);
    group = malloc((size_t)n * sizeof *group);
    if (!lr || !kept || !sid || !group) {
        rc = dv_error_set(err, DV_ERR_NOMEM, t->file, 0, 0, "out of memory");
        goto cleanup;
    }
    /* 1. the numbers, rows with an empty x or y left out */
    int m = 0;
    bool xbool = true, ybool = true;
    for (int i = 0; i < n; i++) {
        const int r = rows[i];
        if (!dv_plot_cell(t, r, xcol)[0] || !dv_plot_cell(t, r, ycol)[0]) {
            note_skipped(c, t, r);
            continue;
        }
        bool bx, by;
        if ((rc = number_at(t, r, xcol, "--x", "a line chart needs numbers on both axes (a text column can be --by or "
                            "--where)", &lr[m].x, &bx, err)) != DV_OK ||
            (rc = number_at(t, r, ycol, "--y", "a line chart needs numbers on both axes (a text column can be --by or "
                            "--where)", &lr[m].y, &by, err)) != DV_OK)
            goto cleanup;
        xbool = xbool && bx;
        ybool = ybool && by;
        lr[m].row = r;
        kept[m++] = r;
    }
    snprintf(c->skipped_cols, sizeof c->skipped_cols, "'%s' or '%s'", o->x, o->y);
    if (m == 0) {
        rc = dv_error_set(err, DV_ERR_RANGE, t->file, 0, 0, "nothing to plot: '%s' or '%s' is empty in every row%s",
                          o->x, o->y, o->nwhere ? " that passes --where" : "");
        goto cleanup;
    }
    /* 2. the lines: by value in axis order */
    int ns = 1;
    if (bycol >= 0) {
        if ((rc = categories(t, kept, m, bycol, &names, &ns, sid)) != DV_OK) {
            rc = dv_error_set(err, rc, t->file, 0, 0, "out of memory");
            goto cleanup;
        }
    } else {
        for (int i = 0; i < m; i++)
            sid[i] = 0;
    }
    for (int i = 0; i < m; i++) {
        lr[i].series = sid[i];
        group[i] = sid[i];
    }
    qsort(lr, (size_t)m, sizeof *lr, cmp_line_row);
    /* 3. no two rows on one point */
    const int axes[2] = {xcol, bycol};
    for (int i = 1; i < m; i++) {
        if (lr[i].series != lr[i - 1].series || lr[i].x != lr[i - 1].x)
            continue;
        char what[320];
        if (bycol >= 0)
            snprintf(what, sizeof what, "%s=%s of the line %s=%s", o->x, dv_plot_cell(t, lr[i].row, xcol), t->col[bycol],
                     names[lr[i].series]);
        else
            snprintf(what, sizeof what, "%s=%s", o->x, dv_plot_cell(t, lr[i].row, xcol));
        rc = collision(t, lr[i - 1].row, lr[i].row, axes, 2, false, what, err);
        goto cleanup;
    }
    /* 4. the chart */
    c->kind = DV_PLOT_LINE;
    c->series = calloc((size_t)ns, sizeof *c->series);
    c->points = malloc((size_t)m * sizeof *c->points);
    if (!c->series || !c->points) {
        rc = dv_error_set(err, DV_ERR_NOMEM, t->file, 0, 0, "out of memory");
        goto cleanup;
    }
    c->nseries = ns;
    for (int s = 0; s < ns; s++) {
        c->series[s].name = strdup(bycol >= 0 ? names[s] : "");
        if (!c->series[s].name) {
            rc = dv_error_set(err, DV_ERR_NOMEM, t->file, 0, 0, "out of memory");
            goto cleanup;
        }
    }
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    int xmin_line = 0, ymin_line = 0;
    for (int i = 0; i < m; i++) {
        dv_plot_series_t *s = &c->series[lr[i].series];
        if (s->n++ == 0)
            s->first = i;
        c->points[i] = (dv_plot_point_t){lr[i].x, lr[i].y, t->line[lr[i].row]};
        if (lr[i].x < xmin) {
            xmin = lr[i].x;
            xmin_line = t->line[lr[i].row];
        }
        if (lr[i].y < ymin) {
            ymin = lr[i].y;
            ymin_line = t->line[lr[i].row];
        }
        xmax = fmax(xmax, lr[i].x);
        ymax = fmax(ymax, lr[i].y);
    }
    c->npoints = m;
    bool xlog = false, ylog = false;
    if ((rc = pick_scale(t, o->xscale, "--log-x", o->x, xmin, xmax, xmin_line, &xlog, err)) != DV_OK ||
        (rc = pick_scale(t, o->yscale, "--log-y", o->y, ymin, ymax, ymin_line, &ylog, err)) != DV_OK)
        goto cleanup;
    c->x.boolean = xbool && !xlog;
    c->y.boolean = ybool && !ylog;
    dv_plot_axis_ticks(&c->x, xmin, xmax, xlog);
    dv_plot_axis_ticks(&c->y, ymin, ymax, ylog);
    name_axes(c, o->x, o->y, bycol >= 0 ? t->col[bycol] : "");
    snprintf(c->title, sizeof c->title, "%s", o->title ? o->title : "");
    if (!o->title)
        snprintf(c->title, sizeof c->title, "%s vs %s", o->y, o->x);
    describe(t, o, c);
    const int wcol = dv_plot_table_col(t, "workload");
    bool one_workload = wcol >= 0 && wcol != xcol && wcol != bycol;
    for (int i = 1; i < m && one_workload; i++)
        one_workload = same_value(dv_plot_cell(t, kept[0], wcol), dv_plot_cell(t, kept[i], wcol));
    if (one_workload) {
        const size_t u = strlen(c->subtitle);
        snprintf(c->subtitle + u, sizeof c->subtitle - u, "; workload %s", dv_plot_cell(t, kept[0], wcol));
    }
    for (int i = 0; i < m; i++) {
        kept[i] = lr[i].row;
        group[i] = lr[i].series;
    }
    note_varying(t, kept, group, m, ns, axes, 2, bycol >= 0 ? "lines" : "line", c);
    rc = DV_OK;
cleanup:
    free(lr);
    free(kept);
    free(sid);
    free(group);
    free(names);
    return rc;
}

/* ---------------------------------------------------------------- heatmap */

static int build_heatmap(const dv_plot_table_t *t, const dv_plot_opts_t *o, const int *rows, int n, dv_plot_chart_t *c,
                         dv_error_t *err)
{
    int xcol, ycol = -1, mcol, rc;
    int *kept = NULL, *xi = NULL, *yi = NULL, *pi = NULL, *at = NULL;
    const char **xl = NULL, **yl = NULL, **pl = NULL;
    if ((rc = find_column(t, "--x", o->x, &xcol, err)) != DV_OK ||
        (rc = find_column(t, "--y", o->y, &mcol, err)) != DV_OK)
        return rc;
    const int wcol = dv_plot_table_col(t, "workload");
    if (o->by) {
        if ((rc = find_column(t, "--by", o->by, &ycol, err)) != DV_OK)
            return rc;
        if (ycol == xcol)
            return dv_error_set(err, DV_ERR_PARSE, t->file, 0, 0, "--by %s is the --x column: a heatmap's --by names "
                                "the second swept key", o->by);
    } else {
        /* the one other swept key (not workload) that varies */
        char keys[256] = "";
        size_t used = 0;
        int nv = 0;
        for (int k = 0; k < t->ncols; k++) {
            if (k == xcol || k == wcol || !is_swept(t, k))
                continue;
            bool varies = false;
            for (int i = 1; i < n && !varies; i++)
                varies = !same_value(dv_plot_cell(t, rows[0], k), dv_plot_cell(t, rows[i], k));
            if (!varies)
                continue;
            if (nv++ == 0)
                ycol = k;
            if (used + strlen(t->col[k]) + 8 < sizeof keys)
                used += (size_t)snprintf(keys + used, sizeof keys - used, "%s%s", nv > 1 ? ", " : "", t->col[k]);
        }
        if (nv == 0)
            return dv_error_set(err, DV_ERR_RANGE, t->file, 0, 0, "--heatmap: no swept key but '%s' varies in the "
                                "rows%s; a heatmap needs two (a line chart shows one)", o->x,
                                o->nwhere ? " that pass --where" : "");
        if (nv > 1)
            return dv_error_set(err, DV_ERR_RANGE, t->file, 0, 0, "--heatmap: %s vary besides '%s': name the heatmap's "
                                "second axis with --by KEY (and fix the others with --where)", keys, o->x);
    }
    if (ycol == mcol || xcol == mcol)
        return dv_error_set(err, DV_ERR_PARSE, t->file, 0, 0, "--y %s is an axis of the heatmap: --y names the metric "
                            "that colours the cells", o->y);
    kept = malloc((size_t)n * sizeof *kept);
    xi = malloc((size_t)n * sizeof *xi);
    yi = malloc((size_t)n * sizeof *yi);
    pi = calloc((size_t)n, sizeof *pi);
    if (!kept || !xi || !yi || !pi) {
        rc = dv_error_set(err, DV_ERR_NOMEM, t->file, 0, 0, "out of memory");
        goto cleanup;
    }
    /* 1. the rows with both keys (an empty metric leaves its cell empty) */
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (!dv_plot_cell(t, rows[i], xcol)[0] || !dv_plot_cell(t, rows[i], ycol)[0])
            note_skipped(c, t, rows[i]);
        else
            kept[m++] = rows[i];
    }
    if (m == 0) {
        rc = dv_error_set(err, DV_ERR_RANGE, t->file, 0, 0, "nothing to plot: '%s' or '%s' is empty in every row", o->x,
                          t->col[ycol]);
        goto cleanup;
    }
    /* 2. categories of both axes and the panels: one per workload unless workload is an axis */
    int nx, ny, np = 1;
    bool panels = false;
    if (wcol >= 0 && wcol != xcol && wcol != ycol)
        for (int i = 1; i < m && !panels; i++)
            panels = !same_value(dv_plot_cell(t, kept[0], wcol), dv_plot_cell(t, kept[i], wcol));
    if (categories(t, kept, m, xcol, &xl, &nx, xi) != DV_OK || categories(t, kept, m, ycol, &yl, &ny, yi) != DV_OK ||
        (panels && categories(t, kept, m, wcol, &pl, &np, pi) != DV_OK)) {
        rc = dv_error_set(err, DV_ERR_NOMEM, t->file, 0, 0, "out of memory");
        goto cleanup;
    }
    c->kind = DV_PLOT_HEATMAP;
    c->nx = nx;
    c->ny = ny;
    c->xcat = calloc((size_t)nx, sizeof *c->xcat);
    c->ycat = calloc((size_t)ny, sizeof *c->ycat);
    c->panel = calloc((size_t)np, sizeof *c->panel);
    at = malloc((size_t)np * (size_t)nx * (size_t)ny * sizeof *at);
    if (!c->xcat || !c->ycat || !c->panel || !at) {
        rc = dv_error_set(err, DV_ERR_NOMEM, t->file, 0, 0, "out of memory");
        goto cleanup;
    }
    c->npanels = np;
    bool oom = false;
    for (int i = 0; i < nx; i++)
        oom = oom || !(c->xcat[i] = strdup(xl[i]));
    for (int j = 0; j < ny; j++)
        oom = oom || !(c->ycat[j] = strdup(yl[j]));
    for (int p = 0; p < np; p++) {
        dv_plot_panel_t *pn = &c->panel[p];
        const bool named = panels || (wcol >= 0 && wcol != xcol && wcol != ycol);
        pn->name = strdup(!named ? "" : panels ? pl[p] : dv_plot_cell(t, kept[0], wcol));
        pn->value = malloc((size_t)nx * (size_t)ny * sizeof *pn->value);
        pn->line = calloc((size_t)nx * (size_t)ny, sizeof *pn->line);
        oom = oom || !pn->name || !pn->value || !pn->line;
        for (int k = 0; !oom && k < nx * ny; k++)
            pn->value[k] = NAN;
        pn->min = INFINITY;
        pn->max = -INFINITY;
    }
    if (oom) {
        rc = dv_error_set(err, DV_ERR_NOMEM, t->file, 0, 0, "out of memory");
        goto cleanup;
    }
    for (int k = 0; k < np * nx * ny; k++)
        at[k] = -1;
    /* 3. the cells, one row each */
    const int axes[3] = {xcol, ycol, panels ? wcol : -1};
    int min_line = 0, nvalues = 0;
    double vmin = INFINITY;
    for (int i = 0; i < m; i++) {
        const int r = kept[i], cell = (pi[i] * ny + yi[i]) * nx + xi[i];
        if (at[cell] >= 0) {
            char what[400];
            snprintf(what, sizeof what, "%s=%s, %s=%s%s%s%s", o->x, xl[xi[i]], t->col[ycol], yl[yi[i]],
                     panels ? " of the heatmap of workload '" : "", panels ? pl[pi[i]] : "", panels ? "'" : "");
            rc = collision(t, at[cell], r, axes, panels ? 3 : 2, true, what, err);
            goto cleanup;
        }
        at[cell] = r;
        if (!dv_plot_cell(t, r, mcol)[0]) {
            note_skipped(c, t, r);
            continue;
        }
        double v;
        bool b;
        if ((rc = number_at(t, r, mcol, "--y", "a heatmap colours its cells by a number", &v, &b, err)) != DV_OK)
            goto cleanup;
        dv_plot_panel_t *pn = &c->panel[pi[i]];
        pn->value[yi[i] * nx + xi[i]] = v;
        pn->line[yi[i] * nx + xi[i]] = t->line[r];
        pn->min = fmin(pn->min, v);
        pn->max = fmax(pn->max, v);
        if (v < vmin) {
            vmin = v;
            min_line = t->line[r];
        }
        nvalues++;
    }
    snprintf(c->skipped_cols, sizeof c->skipped_cols, "'%s', '%s' or '%s'", o->x, t->col[ycol], o->y);
    if (nvalues == 0) {
        rc = dv_error_set(err, DV_ERR_RANGE, t->file, 0, 0, "nothing to plot: '%s' is empty in every row", o->y);
        goto cleanup;
    }
    /* 4. colour scales (one per panel), titles */
    bool log = false;
    if ((rc = pick_scale(t, o->yscale, "--log-y", o->y, vmin, vmin, min_line, &log, err)) != DV_OK)
        goto cleanup;
    for (int p = 0; p < np; p++) {
        dv_plot_panel_t *pn = &c->panel[p];
        pn->log = pn->max >= pn->min && auto_log(o->yscale, pn->min, pn->max);
    }
    name_axes(c, o->x, t->col[ycol], o->y);
    if (o->title)
        snprintf(c->title, sizeof c->title, "%s", o->title);
    else
        snprintf(c->title, sizeof c->title, "%s over %s and %s", o->y, o->x, t->col[ycol]);
    describe(t, o, c);
    note_varying(t, kept, pi, m, np, axes, panels ? 3 : 2, panels ? "heatmaps" : "heatmap", c);
    rc = DV_OK;
cleanup:
    free(kept);
    free(xi);
    free(yi);
    free(pi);
    free(at);
    free(xl);
    free(yl);
    free(pl);
    return rc;
}

/* ---------------------------------------------------------------- the chart */

int dv_plot_chart_build(const dv_plot_table_t *t, const dv_plot_opts_t *o, dv_plot_chart_t *c, dv_error_t *err)
{
    int n = 0, rc;
    memset(c, 0, sizeof *c);
    if (t->nrows == 0)
        return dv_error_set(err, DV_ERR_RANGE, t->file, 0, 0, "no rows: the table has a header only (has the sweep "
                            "run a point yet?)");
    int *rows = malloc((size_t)t->nrows * sizeof *rows);
    if (!rows)
        return dv_error_set(err, DV_ERR_NOMEM, t->file, 0, 0, "out of memory");
    rc = filter_rows(t, o, rows, &n, err);
    if (rc == DV_OK)
        rc = o->kind == DV_PLOT_HEATMAP ? build_heatmap(t, o, rows, n, c, err) : build_line(t, o, rows, n, c, err);
    free(rows);
    if (rc != DV_OK)
        dv_plot_chart_free(c);
    return rc;
}

void dv_plot_chart_free(dv_plot_chart_t *c)
{
    for (int s = 0; c->series && s < c->nseries; s++)
        free(c->series[s].name);
    for (int i = 0; c->xcat && i < c->nx; i++)
        free(c->xcat[i]);
    for (int j = 0; c->ycat && j < c->ny; j++)
        free(c->ycat[j]);
    for (int p = 0; c->panel && p < c->npanels; p++) {
        free(c->panel[p].name);
        free(c->panel[p].value);
        free(c->panel[p].line);
    }
    free(c->series);
    free(c->points);
    free(c->xcat);
    free(c->ycat);
    free(c->panel);
    memset(c, 0, sizeof *c);
}
