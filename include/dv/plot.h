/* dv/plot.h - charts of a sweep's results: `dvsim plot DIR --x KEY --y METRIC ...` reads the table
 * that dvsim sweep writes (DIR/results.csv: one row per point, a column per swept profile key and
 * per metric) and draws a line chart or a heatmap as hand-written SVG.  docs/PLOT.md is the guide.
 *
 * A plot goes:
 *   1. table   whatif/plot_table.c  the CSV, every row kept as text with its line number
 *   2. chart   whatif/plot_chart.c  --where filters, rows grouped into lines (or heatmap cells) and
 *                                   checked for mixed points; axes with units, scales and ticks
 *   3. svg     whatif/plot_svg.c    the drawing
 * dv_plot_run (whatif/plot.c) is those steps in order; it also reads the command line. */
#ifndef DV_PLOT_H
#define DV_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "dv/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- 1. table ---- */

/* A CSV file as text cells: the header's names and the rows.  Every string points into `text`. */
typedef struct dv_plot_table {
    char file[256]; /* the CSV's path, for messages */
    int ncols, nrows;
    char **col;     /* ncols header names, unique and non-empty */
    char **cell;    /* nrows x ncols, row-major; "" for an empty field */
    int *line;      /* the 1-based file line where each row starts */
    char *text;
} dv_plot_table_t;

/* Parse len bytes of CSV (first line a header; fields separated by commas; a field may be quoted
 * with '"', a quote inside doubled; CRLF or LF; blank lines ignored).  Errors are located
 * (file:line:column): a row whose field count differs from the header's, an unterminated quote,
 * text after a closing quote, a quote inside an unquoted field, an empty or repeated column name,
 * no header at all.  A header without rows is a table of 0 rows. */
int dv_plot_table_parse(dv_plot_table_t *t, const char *text, size_t len, const char *file, dv_error_t *err);
/* Read `path`: a CSV file, or a directory holding results.csv. */
int dv_plot_table_read(dv_plot_table_t *t, const char *path, dv_error_t *err);
void dv_plot_table_free(dv_plot_table_t *t);
/* Index of the column `name`, -1 when there is none. */
int dv_plot_table_col(const dv_plot_table_t *t, const char *name);
/* The cell of row r, column c. */
static inline const char *dv_plot_cell(const dv_plot_table_t *t, int r, int c)
{
    return t->cell[(size_t)r * (size_t)t->ncols + (size_t)c];
}

/* A cell as a number: a decimal (finite) or true/false (1/0; *boolean set).  0 = OK, -1 = not a
 * number (an empty cell included). */
int dv_plot_number(const char *cell, double *v, bool *boolean);

/* ---- what to draw ---- */

typedef enum dv_plot_kind { DV_PLOT_LINE, DV_PLOT_HEATMAP } dv_plot_kind_t;
/* AUTO is log when every value is positive and max / min >= DV_PLOT_LOG_SPAN. */
typedef enum dv_plot_scale { DV_SCALE_AUTO, DV_SCALE_LINEAR, DV_SCALE_LOG } dv_plot_scale_t;
#define DV_PLOT_LOG_SPAN 100.0

#define DV_PLOT_MAX_WHERE 32

/* --where KEY=VALUE: keep the rows whose column KEY holds VALUE (numerically equal when both are
 * numbers, else the same text). */
typedef struct dv_plot_where {
    const char *key; /* not NUL-terminated at '=': keylen characters */
    size_t keylen;
    const char *value;
} dv_plot_where_t;

typedef struct dv_plot_opts {
    const char *input;  /* a sweep directory or a CSV file */
    const char *output; /* the SVG's path; "-" = stdout */
    const char *x, *y;  /* column names */
    const char *by;     /* NULL: workload when the rows have more than one, else no grouping;
                           heatmap: the second axis (NULL: the one other swept key that varies) */
    dv_plot_kind_t kind;
    dv_plot_scale_t xscale, yscale; /* heatmap: yscale is the colour scale's */
    const char *title;  /* NULL: "Y vs X" */
    int nwhere;
    dv_plot_where_t where[DV_PLOT_MAX_WHERE];
} dv_plot_opts_t;

void dv_plot_opts_default(dv_plot_opts_t *o);
/* The options of `dvsim plot` (argv: what follows the word plot).  DV_ERR_PARSE for a usage error
 * (the message says which). */
int dv_plot_parse_args(dv_plot_opts_t *o, int argc, char **argv, dv_error_t *err);

/* ---- 2. chart ---- */

#define DV_PLOT_MAX_TICKS 32

/* An axis: its title with the unit, its scale, the drawn domain and the tick values. */
typedef struct dv_plot_axis {
    char name[128];   /* the column */
    char title[192];
    bool log;
    bool boolean;     /* a true/false column: two ticks, labelled so */
    double lo, hi;    /* the domain, tick-aligned: 1-2-5 steps (linear) or powers of 10 (log) */
    int nticks;
    double tick[DV_PLOT_MAX_TICKS];
} dv_plot_axis_t;

typedef struct dv_plot_point {
    double x, y;
    int line; /* of its row in the CSV */
} dv_plot_point_t;

/* One line of a line chart: points [first, first + n) of the chart, in increasing x. */
typedef struct dv_plot_series {
    char *name; /* the --by value ("" when not grouped) */
    int first, n;
} dv_plot_series_t;

/* One heatmap: a value per (x category, y category), NAN where no row has one. */
typedef struct dv_plot_panel {
    char *name;         /* the workload ("" when the rows have one workload or none) */
    double *value;      /* ny rows of nx: value[j * nx + i] for x category i, y category j */
    int *line;          /* the CSV line of each cell's row, 0 when none */
    double min, max;    /* over the cells that have a value */
    bool log;           /* the colour scale */
} dv_plot_panel_t;

typedef struct dv_plot_chart {
    dv_plot_kind_t kind;
    char title[256];
    char subtitle[512]; /* the source and the --where filters */
    dv_plot_axis_t x, y;  /* heatmap: only the titles (the axes are categories) */
    char key_name[128];   /* line: the --by column ("" when not grouped); heatmap: the metric (--y) */
    char key_title[192];  /* the same with its unit */
    /* line chart */
    int nseries, npoints;
    dv_plot_series_t *series;
    dv_plot_point_t *points;
    /* heatmap */
    int nx, ny, npanels;
    char **xcat, **ycat; /* category labels, in axis order (numeric when every value is a number) */
    dv_plot_panel_t *panel;
    /* rows left out */
    int skipped;          /* rows where a plotted column is empty */
    int skipped_line[8];  /* the first of them */
    char skipped_cols[160];
} dv_plot_chart_t;

/* Filter, group and check the rows of t as o says, and lay the axes out.  Errors name the column
 * (with a did-you-mean hint and the columns there are), the row's line, or the swept key that
 * varies within a line without being on an axis (fix it with --where KEY=VALUE). */
int dv_plot_chart_build(const dv_plot_table_t *t, const dv_plot_opts_t *o, dv_plot_chart_t *c, dv_error_t *err);
void dv_plot_chart_free(dv_plot_chart_t *c);

/* An axis title: a profile key with its unit from the schema ("hbm.bytes_per_cycle (B/cycle)"),
 * a metric with the unit its name carries ("time_us (\u00b5s)", "ratio_V (dimensionless, 0..1)"),
 * else the name alone. */
void dv_plot_axis_title(const char *column, char *buf, size_t size);
/* Lay out the domain and ticks of an axis over [min, max] (min <= max; positive when log). */
void dv_plot_axis_ticks(dv_plot_axis_t *a, double min, double max, bool log);

/* ---- 3. svg ---- */

/* Write the chart as a standalone SVG document (XML, UTF-8).  DV_ERR_IO when the stream fails. */
int dv_plot_write_svg(const dv_plot_chart_t *c, FILE *out);
/* The colour scale's colour (viridis, interpolated between 9 stops) at t in [0, 1] as "#rrggbb". */
void dv_plot_color(double t, char out[8]);

/* ---- the command ---- */

/* Read o->input, build the chart, write o->output.  A note on what was skipped goes to `notes`
 * (may be NULL).  Nothing is written when the chart cannot be built; a failed write removes the
 * file. */
int dv_plot_run(const dv_plot_opts_t *o, FILE *notes, dv_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
