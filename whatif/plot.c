/* whatif/plot.c - `dvsim plot`: its options and the run, steps 1-3 of dv/plot.h in order. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "dv/plot.h"

void dv_plot_opts_default(dv_plot_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->kind = DV_PLOT_LINE;
    o->xscale = o->yscale = DV_SCALE_AUTO;
}

static int usage(dv_error_t *err, const char *fmt, const char *what)
{
    return dv_error_set(err, DV_ERR_PARSE, "dvsim", 0, 0, fmt, what);
}

/* "--opt VALUE" or "--opt=VALUE"; NULL when the value is missing or empty. */
static const char *value_of(int argc, char **argv, int *i, const char *name)
{
    const size_t n = strlen(name);
    const char *v = argv[*i][n] == '=' ? argv[*i] + n + 1 : *i + 1 < argc ? argv[++*i] : NULL;
    return v && v[0] ? v : NULL;
}

static bool is_opt(const char *arg, const char *name)
{
    const size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

int dv_plot_parse_args(dv_plot_opts_t *o, int argc, char **argv, dv_error_t *err)
{
    static const char *const valued[] = {"--x", "--y", "--by", "--where", "--title", "--output", "-o"};
    dv_plot_opts_default(o);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            if (o->input)
                return usage(err, "plot: only one DIR or CSV may be given ('%s')", a);
            o->input = a;
            continue;
        }
        int k = 0;
        while (k < (int)(sizeof valued / sizeof valued[0]) && !is_opt(a, valued[k]))
            k++;
        if (k < (int)(sizeof valued / sizeof valued[0])) {
            const char *v = value_of(argc, argv, &i, valued[k]);
            if (!v)
                return usage(err, "option '%s' needs a value", valued[k]);
            switch (k) {
            case 0: o->x = v; break;
            case 1: o->y = v; break;
            case 2: o->by = v; break;
            case 3: {
                const char *eq = strchr(v, '=');
                if (!eq || eq == v)
                    return usage(err, "option '--where' needs KEY=VALUE, not '%s'", v);
                if (o->nwhere == DV_PLOT_MAX_WHERE)
                    return dv_error_set(err, DV_ERR_PARSE, "dvsim", 0, 0, "--where: at most %d filters",
                                        DV_PLOT_MAX_WHERE);
                o->where[o->nwhere++] = (dv_plot_where_t){v, (size_t)(eq - v), eq + 1};
                break;
            }
            case 4: o->title = v; break;
            default: o->output = v;
            }
            continue;
        }
        dv_plot_scale_t *scale = strstr(a, "-x") ? &o->xscale : &o->yscale;
        if (strcmp(a, "--heatmap") == 0)
            o->kind = DV_PLOT_HEATMAP;
        else if (strcmp(a, "--log-x") == 0 || strcmp(a, "--log-y") == 0 || strcmp(a, "--linear-x") == 0 ||
                 strcmp(a, "--linear-y") == 0) {
            const dv_plot_scale_t s = a[3] == 'o' ? DV_SCALE_LOG : DV_SCALE_LINEAR;
            if (*scale != DV_SCALE_AUTO && *scale != s)
                return usage(err, "plot: '%s' contradicts the other scale option of that axis", a);
            *scale = s;
        } else
            return usage(err, "plot: unknown option '%s'", a);
    }
    if (!o->input)
        return usage(err, "%s", "plot: missing DIR (a sweep's output directory) or CSV file");
    if (!o->x || !o->y)
        return usage(err, "plot: missing %s (dvsim plot DIR --x KEY --y METRIC -o FILE.svg)", !o->x ? "--x" : "--y");
    if (!o->output)
        return usage(err, "%s", "plot: missing -o FILE.svg");
    if (o->kind == DV_PLOT_HEATMAP && o->xscale != DV_SCALE_AUTO)
        return usage(err, "%s", "plot: --log-x and --linear-x are for line charts: a heatmap's axes are the swept "
                     "values in order (--log-y sets its colour scale)");
    return DV_OK;
}

int dv_plot_run(const dv_plot_opts_t *o, FILE *notes, dv_error_t *err)
{
    dv_plot_table_t t;
    dv_plot_chart_t c;
    FILE *out = NULL;
    int rc;
    memset(&c, 0, sizeof c);
    /* 1. table */
    if ((rc = dv_plot_table_read(&t, o->input, err)) != DV_OK)
        return rc;
    /* 2. chart */
    if ((rc = dv_plot_chart_build(&t, o, &c, err)) != DV_OK)
        goto cleanup;
    if (notes && c.skipped) {
        fprintf(notes, "dvsim plot: %d row%s left out: %s is empty (line%s", c.skipped, c.skipped == 1 ? "" : "s",
                c.skipped_cols, c.skipped == 1 ? "" : "s");
        const int shown = c.skipped < 8 ? c.skipped : 8;
        for (int i = 0; i < shown; i++)
            fprintf(notes, "%s %d", i ? "," : "", c.skipped_line[i]);
        fprintf(notes, "%s)\n", c.skipped > shown ? ", ..." : "");
    }
    /* 3. svg */
    const bool to_stdout = strcmp(o->output, "-") == 0;
    out = to_stdout ? stdout : fopen(o->output, "w");
    if (!out) {
        rc = dv_error_set(err, DV_ERR_IO, o->output, 0, 0, "cannot write: %s", strerror(errno));
        goto cleanup;
    }
    rc = dv_plot_write_svg(&c, out);
    if ((fflush(out) != 0 || ferror(out) || (!to_stdout && fclose(out) != 0)) && rc == DV_OK)
        rc = DV_ERR_IO;
    if (rc != DV_OK) {
        dv_error_set(err, rc, o->output, 0, 0, "cannot write: %s", strerror(errno));
        struct stat st;
        if (!to_stdout && stat(o->output, &st) == 0 && S_ISREG(st.st_mode)) /* never a device */
            remove(o->output);
    }
cleanup:
    dv_plot_chart_free(&c);
    dv_plot_table_free(&t);
    return rc;
}
