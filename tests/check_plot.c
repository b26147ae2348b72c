/* tests/check_plot.c - dvsim plot (dv/plot.h): the CSV reader, the chart (grouping, order, mixed
 * and duplicate points, units, ticks, scales), the SVG (one polyline per line with its points in x
 * order, a heatmap's cells coloured in value order, well-formed XML with hostile names), every error
 * a user can reach, and the command itself through $DVSIM with python3 parsing its output. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dv/config.h"
#include "dv/plot.h"
#include "support/clit.h"

/* Two workloads x 4 points of one swept key, rows not in x order; mm has no UB figure (empty
 * cells), and one field is quoted. */
static const char line_csv[] =
    "point,workload,hbm.bytes_per_cycle,time_us,cycles,ratio_MTE2,bound_by,ub_peak_bytes,l2_hit_rate\n"
    "0,add,888,64.25,118862,0.85,MTE2,65536,0.5\n"
    "1,add,444,120.5,222925,0.91,MTE2,65536,0.5\n"
    "2,add,3552,33,61050,0.4,V,65536,0.5\n"
    "3,add,1776,40.1,74185,0.6,V,65536,0.5\n"
    "4,mm,444,900,1665000,0.3,M,,0.75\n"
    "5,mm,1776,870,1609500,0.1,M,,0.75\n"
    "6,mm,888,880,1628000,0.2,M,,0.75\n"
    "7,mm,3552,866,1602100,0.05,\"M\",,0.75\n";

/* A 3 x 4 two-axis grid of one workload (time_us = 200000 / hbm + 2^27 / ub / 100), ub-major. */
static const char grid_csv[] =
    "point,workload,hbm.bytes_per_cycle,core.ub_size_bytes,time_us\n"
    "0,add,444,131072,460.69\n"
    "1,add,888,131072,235.47\n"
    "2,add,1776,131072,122.85\n"
    "3,add,444,262144,455.57\n"
    "4,add,888,262144,230.35\n"
    "5,add,1776,262144,117.73\n"
    "6,add,444,393216,453.86\n"
    "7,add,888,393216,228.64\n"
    "8,add,1776,393216,116.03\n"
    "9,add,444,524288,453.01\n"
    "10,add,888,524288,227.79\n"
    "11,add,1776,524288,115.17\n";

/* ---------------------------------------------------------------- helpers */

static void table_of(dv_plot_table_t *t, const char *csv)
{
    dv_error_t err;
    int rc = dv_plot_table_parse(t, csv, strlen(csv), "t.csv", &err);
    ck_assert_msg(rc == DV_OK, "parse: %s", err.msg);
}

/* Build the chart of csv for the command line `args` (split on spaces; the input and -o are not
 * opened).  Returns the status; *t holds the table until dv_plot_table_free. */
static int chart_of(const char *csv, const char *args, dv_plot_table_t *t, dv_plot_chart_t *c, dv_error_t *err)
{
    static char buf[1024];
    char *argv[64];
    int argc = 0;
    static dv_plot_opts_t o;
    snprintf(buf, sizeof buf, "%s", args);
    for (char *tok = strtok(buf, " "); tok && argc < 64; tok = strtok(NULL, " "))
        argv[argc++] = tok;
    ck_assert_int_eq(dv_plot_parse_args(&o, argc, argv, err), DV_OK);
    table_of(t, csv);
    return dv_plot_chart_build(t, &o, c, err);
}

/* The chart as SVG text (malloc'd). */
static char *svg_of(const dv_plot_chart_t *c)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(dv_plot_write_svg(c, f), DV_OK);
    fclose(f);
    return text;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

/* The points="x,y x,y ..." of the k-th polyline. */
static int polyline_points(const char *svg, int k, double *x, double *y, int cap)
{
    const char *p = svg;
    for (int i = 0; i <= k; i++) {
        p = strstr(p, "<polyline");
        ck_assert_ptr_nonnull(p);
        p++;
    }
    p = strstr(p, "points=\"");
    ck_assert_ptr_nonnull(p);
    p += 8;
    int n = 0;
    while (*p != '"' && n < cap) {
        char *end;
        x[n] = strtod(p, &end);
        ck_assert_int_eq(*end, ',');
        y[n] = strtod(end + 1, &end);
        n++;
        p = end;
        while (*p == ' ')
            p++;
    }
    return n;
}

/* A well-formedness check of the writer's XML: the declaration first, one root element <svg>, tags
 * nested, attribute values double-quoted, no '<' in text or values and every '&' an entity.
 * NULL when it holds, else why not. */
static const char *xml_problem(const char *s)
{
    static char why[160];
    const char *stack[64];
    size_t len[64];
    int depth = 0, roots = 0;
    if (strncmp(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", 38) != 0)
        return "no XML declaration first";
    s += 38;
    while (*s) {
        if (*s == '&') {
            const size_t n = strspn(s + 1, "#abcdefghijklmnopqrstuvwxyz0123456789");
            if (n == 0 || s[1 + n] != ';')
                return "a bare '&'";
            s += n + 2;
            continue;
        }
        if (*s != '<') {
            if (depth == 0 && *s != '\n' && *s != ' ')
                return "text outside the root element";
            s++;
            continue;
        }
        if (s[1] == '/') {
            const size_t n = strcspn(s + 2, ">");
            if (depth == 0 || n != len[depth - 1] || strncmp(s + 2, stack[depth - 1], n) != 0) {
                snprintf(why, sizeof why, "</%.*s> does not close the open element", (int)n, s + 2);
                return why;
            }
            depth--;
            s += n + 3;
            continue;
        }
        const char *name = s + 1;
        const size_t n = strcspn(name, " \n/>");
        if (n == 0)
            return "a '<' that starts no tag";
        if (depth == 0 && (roots++ > 0 || n != 3 || strncmp(name, "svg", 3) != 0))
            return "the root is not one <svg>";
        const char *p = name + n;
        for (;;) {
            p += strspn(p, " \n");
            if (*p == '>' || (p[0] == '/' && p[1] == '>'))
                break;
            const size_t an = strspn(p, "abcdefghijklmnopqrstuvwxyz-:ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
            if (an == 0 || p[an] != '=' || p[an + 1] != '"')
                return "a malformed attribute";
            p += an + 2;
            for (; *p != '"'; p++) {
                if (!*p || *p == '<')
                    return "'<' or the end inside an attribute value";
                if (*p == '&' && (strspn(p + 1, "#abcdefghijklmnopqrstuvwxyz0123456789") == 0 ||
                                  p[1 + strspn(p + 1, "#abcdefghijklmnopqrstuvwxyz0123456789")] != ';'))
                    return "a bare '&' in an attribute value";
            }
            p++;
        }
        if (*p == '>') {
            if (depth == 64)
                return "too deep";
            stack[depth] = name;
            len[depth++] = n;
            s = p + 1;
        } else {
            s = p + 2;
        }
    }
    return depth == 0 && roots == 1 ? NULL : "unclosed elements";
}

#define ASSERT_MSG(e, s) ck_assert_msg(strstr((e).msg, s) != NULL, "expected '%s' in: %s", s, (e).msg)

/* ---------------------------------------------------------------- table */

START_TEST(test_plot_table_quoted_fields)
{
    static const char csv[] = "a,\"b,c\",d\r\n"
                              "1,\"x, \"\"quoted\"\"\",3\r\n"
                              "\r\n"
                              "\"two\nlines\",,\"\"\n"
                              "4,5,6";
    dv_plot_table_t t;
    table_of(&t, csv);
    ck_assert_int_eq(t.ncols, 3);
    ck_assert_str_eq(t.col[1], "b,c");
    ck_assert_int_eq(t.nrows, 3);
    ck_assert_str_eq(dv_plot_cell(&t, 0, 1), "x, \"quoted\"");
    ck_assert_str_eq(dv_plot_cell(&t, 0, 2), "3");
    ck_assert_str_eq(dv_plot_cell(&t, 1, 0), "two\nlines");
    ck_assert_str_eq(dv_plot_cell(&t, 1, 1), "");
    ck_assert_str_eq(dv_plot_cell(&t, 1, 2), "");
    ck_assert_str_eq(dv_plot_cell(&t, 2, 2), "6");
    /* a row's line is where it starts: the blank line 3 is skipped, the quoted newline counts */
    ck_assert_int_eq(t.line[0], 2);
    ck_assert_int_eq(t.line[1], 4);
    ck_assert_int_eq(t.line[2], 6);
    ck_assert_int_eq(dv_plot_table_col(&t, "b,c"), 1);
    ck_assert_int_eq(dv_plot_table_col(&t, "b"), -1);
    dv_plot_table_free(&t);
}
END_TEST

static const struct {
    const char *csv;
    int line, col;
    const char *msg;
} table_errors[] = {
    {"a,b\n1,\"open\n2,3\n", 2, 3, "unterminated quoted field"},
    {"a,b\n1,2\n3\n", 3, 0, "1 field, but the header has 2 columns"},
    {"a,b\n1,2,3\n", 2, 0, "3 fields, but the header has 2 columns"},
    {"a,b\n1,\"x\"y\n", 2, 6, "text after the closing quote"},
    {"a,b\n1,x\"y\n", 2, 4, "a quote inside an unquoted field"},
    {"a,,c\n1,2,3\n", 1, 0, "column 2 of the header has no name"},
    {"a,b,a\n1,2,3\n", 1, 0, "column 'a' appears twice in the header (columns 1 and 3)"},
    {"", 0, 0, "empty file: no header line"},
    {"\n\r\n\n", 0, 0, "empty file: no header line"},
};

START_TEST(test_plot_table_errors_are_located)
{
    dv_plot_table_t t;
    dv_error_t err;
    const char *csv = table_errors[_i].csv;
    ck_assert_int_eq(dv_plot_table_parse(&t, csv, strlen(csv), "r.csv", &err), DV_ERR_PARSE);
    ck_assert_str_eq(err.file, "r.csv");
    ck_assert_int_eq(err.line, table_errors[_i].line);
    ck_assert_int_eq(err.col, table_errors[_i].col);
    ASSERT_MSG(err, table_errors[_i].msg);
    ck_assert_ptr_null(t.text);
}
END_TEST

START_TEST(test_plot_table_header_only)
{
    dv_plot_table_t t;
    dv_plot_chart_t c;
    dv_error_t err;
    ck_assert_int_eq(chart_of("point,workload,hbm.bytes_per_cycle,time_us\n",
                              "d --x hbm.bytes_per_cycle --y time_us -o f", &t, &c, &err), DV_ERR_RANGE);
    ASSERT_MSG(err, "no rows: the table has a header only");
    dv_plot_table_free(&t);
}
END_TEST

START_TEST(test_plot_number_cells)
{
    double v;
    bool b;
    ck_assert_int_eq(dv_plot_number("1.5e3", &v, &b), 0);
    ck_assert(v == 1500 && !b);
    ck_assert_int_eq(dv_plot_number(" 42 ", &v, &b), 0);
    ck_assert(v == 42);
    ck_assert_int_eq(dv_plot_number("true", &v, &b), 0);
    ck_assert(v == 1 && b);
    ck_assert_int_eq(dv_plot_number("false", &v, &b), 0);
    ck_assert(v == 0 && b);
    ck_assert_int_eq(dv_plot_number("", &v, &b), -1);
    ck_assert_int_eq(dv_plot_number("MTE2", &v, &b), -1);
    ck_assert_int_eq(dv_plot_number("nan", &v, &b), -1);
    ck_assert_int_eq(dv_plot_number("inf", &v, &b), -1);
    ck_assert_int_eq(dv_plot_number("0x10", &v, &b), -1);
    ck_assert_int_eq(dv_plot_number("12abc", &v, &b), -1);
}
END_TEST

/* ---------------------------------------------------------------- line chart */

START_TEST(test_plot_line_one_polyline_per_workload_in_x_order)
{
    dv_plot_table_t t;
    dv_plot_chart_t c;
    dv_error_t err;
    ck_assert_int_eq(chart_of(line_csv, "d --x hbm.bytes_per_cycle --y time_us -o f", &t, &c, &err), DV_OK);
    /* by workload by default (two workloads), in order of appearance, points sorted by x */
    ck_assert_int_eq(c.kind, DV_PLOT_LINE);
    ck_assert_int_eq(c.nseries, 2);
    ck_assert_str_eq(c.series[0].name, "add");
    ck_assert_str_eq(c.series[1].name, "mm");
    static const double xs[4] = {444, 888, 1776, 3552};
    static const double add_y[4] = {120.5, 64.25, 40.1, 33}, mm_y[4] = {900, 880, 870, 866};
    for (int s = 0; s < 2; s++) {
        ck_assert_int_eq(c.series[s].n, 4);
        for (int i = 0; i < 4; i++) {
            const dv_plot_point_t *p = &c.points[c.series[s].first + i];
            ck_assert(p->x == xs[i]);
            ck_assert(p->y == (s ? mm_y : add_y)[i]);
        }
    }
    ck_assert_int_eq(c.points[c.series[0].first].line, 3); /* 444 of add is the CSV's third line */
    ck_assert_int_eq(c.skipped, 0);
    ck_assert_str_eq(c.key_title, "workload");

    char *svg = svg_of(&c);
    ck_assert_int_eq(count(svg, "<polyline"), 2);
    for (int s = 0; s < 2; s++) {
        double px[8], py[8];
        ck_assert_int_eq(polyline_points(svg, s, px, py, 8), 4);
        for (int i = 1; i < 4; i++) {
            ck_assert_msg(px[i] > px[i - 1], "line %d: x pixel %d (%g) not right of %g", s, i, px[i], px[i - 1]);
            /* every y here falls with x: the pixel y (downwards) rises */
            ck_assert_msg(py[i] > py[i - 1], "line %d: y pixel %d (%g) not below %g", s, i, py[i], py[i - 1]);
        }
        /* equal x, equal pixel: both lines use one axis */
        if (s == 1) {
            double ax[8], ay[8];
            polyline_points(svg, 0, ax, ay, 8);
            for (int i = 0; i < 4; i++)
                ck_assert(ax[i] == px[i]);
            ck_assert(py[0] < ay[0]); /* mm is slower: higher on the chart */
        }
    }
    /* one marker per point, each with its values in a tooltip */
    ck_assert_int_eq(count(svg, "(line "), 8);
    ck_assert_ptr_nonnull(strstr(svg, "add: hbm.bytes_per_cycle = 444, time_us = 120.5 (line 3)"));
    ck_assert_ptr_null(xml_problem(svg));
    free(svg);
    dv_plot_chart_free(&c);
    dv_plot_table_free(&t);
}
END_TEST

START_TEST(test_plot_line_axis_titles_carry_units)
{
    dv_plot_table_t t;
    dv_plot_chart_t c;
    dv_error_t err;
    ck_assert_int_eq(chart_of(line_csv, "d --x hbm.bytes_per_cycle --y time_us -o f", &t, &c, &err), DV_OK);
    /* the key's unit is the schema's (configs/params.def) */
    const dv_param_spec_t *spec = dv_param_find("hbm.bytes_per_cycle");
    ck_assert_ptr_nonnull(spec);
    ck_assert_str_eq(spec->unit, "B/cycle");
    ck_assert_str_eq(c.x.title, "hbm.bytes_per_cycle (B/cycle)");
    ck_assert_str_eq(c.y.title, "time_us (\xc2\xb5s)");
    char *svg = svg_of(&c);
    ck_assert_ptr_nonnull(strstr(svg, ">hbm.bytes_per_cycle (B/cycle)</text>"));
    ck_assert_ptr_nonnull(strstr(svg, ">time_us (\xc2\xb5s)</text>"));
    free(svg);
    dv_plot_chart_free(&c);
    dv_plot_table_free(&t);

    static const char *const titles[][2] = {
        {"core.ub_size_bytes", "core.ub_size_bytes (bytes)"},
        {"chip.freq_mhz", "chip.freq_mhz (MHz)"},
        {"hbm.efficiency_percent", "hbm.efficiency_percent (%)"},
        {"chip.has_fix_pipe", "chip.has_fix_pipe (true/false)"},
        {"chip.layout", "chip.layout (coupled/split)"},
        {"cycles", "cycles (cycles)"},
        {"stall_V_flag_cycles", "stall_V_flag_cycles (cycles)"},
        {"ub_peak_bytes", "ub_peak_bytes (bytes)"},
        {"ratio_MTE2", "ratio_MTE2 (dimensionless, 0..1)"},
        {"l2_hit_rate", "l2_hit_rate (dimensionless, 0..1)"},
        {"speedup", "speedup (dimensionless, times)"},
        {"gm_traffic_reduction", "gm_traffic_reduction (dimensionless, fraction)"},
        {"point", "point (index)"},
        {"bound_by", "bound_by"},
        {"ratio_", "ratio_"},
    };
    for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++) {
        char buf[192];
        dv_plot_axis_title(titles[i][0], buf, sizeof buf);
        ck_assert_str_eq(buf, titles[i][1]);
    }
}
END_TEST

START_TEST(test_plot_line_empty_cells_are_skipped)
{
    dv_plot_table_t t;
    dv_plot_chart_t c;
    dv_error_t err;
    ck_assert_int_eq(chart_of(line_csv, "d --x hbm.bytes_per_cycle --y ub_peak_bytes -o f", &t, &c, &err), DV_OK);
    ck_assert_int_eq(c.skipped, 4);
    ck_assert_int_eq(c.skipped_line[0], 6);
    ck_assert_int_eq(c.skipped_line[3], 9);
    ck_assert_int_eq(c.nseries, 1); /* mm has no point left */
    ck_assert_str_eq(c.series[0].name, "add");
    ck_assert_ptr_nonnull(strstr(c.subtitle, "4 rows with 'hbm.bytes_per_cycle' or 'ub_peak_bytes' empty left out"));
    dv_plot_chart_free(&c);
    dv_plot_table_free(&t);
    /* every row empty: nothing to plot */
    ck_assert_int_eq(chart_of(line_csv, "d --x hbm.bytes_per_cycle --y ub_peak_bytes --where workload=mm -o f", &t, &c,
                              &err), DV_ERR_RANGE);
    ASSERT_MSG(err, "nothing to plot: 'hbm.bytes_per_cycle' or 'ub_peak_bytes' is empty in every row that passes "
                    "--where");
    dv_plot_table_free(&t);
}
END_TEST

START_TEST(test_plot_line_by_key_and_where)
{
    dv_plot_table_t t;
    dv_plot_chart_t c;
    dv_error_t err;
    /* one line per UB size, hbm on x */
    ck_assert_int_eq(chart_of(grid_csv, "d --x hbm.bytes_per_cycle --y time_us --by core.ub_size_bytes -o f", &t, &c,
                              &err), DV_OK);
    ck_assert_int_eq(c.nseries, 4);
    ck_assert_str_eq(c.series[0].name, "131072");
    ck_assert_str_eq(c.series[3].name, "524288");
    ck_assert_str_eq(c.key_title, "core.ub_size_bytes (bytes)");
    ck_assert_ptr_nonnull(strstr(c.subtitle, "; workload add"));
    dv_plot_chart_free(&c);
    dv_plot_table_free(&t);
    /* one UB size: one line of 3 points (numerically equal values match) */
    ck_assert_int_eq(chart_of(grid_csv, "d --x hbm.bytes_per_cycle --y time_us --where core.ub_size_bytes=262144.0 -o f",
                              &t, &c, &err), DV_OK);
    ck_assert_int_eq(c.nseries, 1);
    ck_assert_int_eq(c.series[0].n, 3);
    ck_assert(c.points[0].y == 455.57 && c.points[2].y == 117.73);
    ck_assert_ptr_nonnull(strstr(c.subtitle, "where core.ub_size_bytes=262144.0"));
    char *svg = svg_of(&c);
    ck_assert_int_eq(count(svg, "class=\"legend\""), 0); /* one line, nothing to tell apart */
    free(svg);
    dv_plot_chart_free(&c);
    dv_plot_table_free(&t);
    /* a filter on workload leaves one workload: no grouping */
    ck_assert_int_eq(chart_of(line_csv, "d --x hbm.bytes_per_cycle --y time_us --where workload=mm -o f", &t, &c, &err),
                     DV_OK);
    ck_assert_int_eq(c.nseries, 1);
    ck_assert_str_eq(c.series[0].name, "");
    ck_assert(c.points[0].y == 900);
    dv_plot_chart_free(&c);
    dv_plot_table_free(&t);
}
END_TEST

START_TEST(test_plot_line_mixed_rows_need_where)
{
    dv_plot_table_t t;
    dv_plot_chart_t c;
    dv_error_t err;
    ck_assert_int_eq(chart_of(grid_csv, "d --x hbm.bytes_per_cycle --y time_us -o f", &t, &c, &err), DV_ERR_RANGE);
    ck_assert_str_eq(err.file, "t.csv");
    ck_assert_int_eq(err.line, 5);
    ASSERT_MSG(err, "the rows at lines 2 and 5 are both the point hbm.bytes_per_cycle=444 but differ in "
                    "core.ub_size_bytes ('131072' and '262144'), which is on no axis: keep one value with --where "
                    "core.ub_size_bytes=VALUE, or give it an axis (--by core.ub_size_bytes, or --heatmap)");
    dv_plot_table_free(&t);
    /* by a key with two workloads: allowed while no two rows of a line share an x */
    ck_assert_int_eq(chart_of(line_csv, "d --x ratio_MTE2 --y time_us --by hbm.bytes_per_cycle -o f", &t, &c, &err),
                     DV_OK); /* no two rows share an x: allowed, workload changes along the lines */
    ck_assert_ptr_nonnull(strstr(c.subtitle, "workload changes along the lines"));
    dv_plot_chart_free(&c);
    dv_plot_table_free(&t);
    /* two workloads on one point */
    static const char two[] = "workload,hbm.bytes_per_cycle,core.ub_size_bytes,time_us\nadd,444,1,1\nmm,444,1,2\n";
    ck_assert_int_eq(chart_of(two, "d --x hbm.bytes_per_cycle --y time_us --by core.ub_size_bytes -o f", &t, &c, &err),
                     DV_ERR_RANGE);
    ASSERT_MSG(err, "differ in workload ('add' and 'mm'), which is on no axis: keep one value with --where "
                    "workload=NAME, or give it an axis (--by workload)");
    dv_plot_table_free(&t);
    /* a where value that no row has lists the values */
    ck_assert_int_eq(chart_of(grid_csv, "d --x hbm.bytes_per_cycle --y time_us --where core.ub_size_bytes=100 -o f", &t,
                              &c, &err), DV_ERR_RANGE);
    ASSERT_MSG(err, "--where core.ub_size_bytes=100: no row has that value (core.ub_size_bytes holds 131072, 262144, "
                    "393216, 524288)");
    dv_plot_table_free(&t);
    ck_assert_int_eq(chart_of(line_csv, "d --x hbm.bytes_per_cycle --y time_us --where workload=mm "
                              "--where ratio_MTE2=0.91 -o f", &t, &c, &err), DV_ERR_RANGE);
    ASSERT_MSG(err, "no row passes all the --where filters together");
    dv_plot_table_free(&t);
}
END_TEST

START_TEST(test_plot_line_duplicate_rows)
{
    char csv[2048];
    snprintf(csv, sizeof csv, "%s8,add,1776,41,74185,0.6,V,65536,0.5\n", line_csv);
    dv_plot_table_t t;
    dv_plot_chart_t c;
    dv_error_t err;
    ck_assert_int_eq(chart_of(csv, "d --x hbm.bytes_per_cycle --y time_us -o f", &t, &c, &err), DV_ERR_RANGE);
    ck_assert_int_eq(err.line, 10);
    ASSERT_MSG(err, "the rows at lines 5 and 10 are the same point hbm.bytes_per_cycle=1776 of the line workload=add "
                    "(every swept key equal)");
    dv_plot_table_free(&t);
}
END_TEST

START_TEST(test_plot_unknown_columns_suggest)
{
    dv_plot_table_t t;
    dv_plot_chart_t c;
    dv_error_t err;
    ck_assert_int_eq(chart_of(line_csv, "d --x hbm.byte_per_cycle --y time_us -o f", &t, &c, &err), DV_ERR_UNKNOWN);
    ck_assert_str_eq(err.file, "t.csv");
    ck_assert_int_eq(err.line, 1);
    ck_assert_str_eq(err.msg, "--x: no column 'hbm.byte_per_cycle' (did you mean 'hbm.bytes_per_cycle'?); the columns "
                              "are point, workload, hbm.bytes_per_cycle, time_us, cycles, ratio_MTE2, bound_by, "
                              "ub_peak_bytes, l2_hit_rate");
    dv_plot_table_free(&t);
    ck_assert_int_eq(chart_of(line_csv, "d --x hbm.bytes_per_cycle --y tme_us -o f", &t, &c, &err), DV_ERR_UNKNOWN);
    ASSERT_MSG(err, "--y: no column 'tme_us' (did you mean 'time_us'?)");
    dv_plot_table_free(&t);
    /* a key without its section */
    ck_assert_int_eq(chart_of(line_csv, "d --x bytes_per_cycle --y time_us -o f", &t, &c, &err), DV_ERR_UNKNOWN);
    ASSERT_MSG(err, "--x: no column 'bytes_per_cycle' (did you mean 'hbm.bytes_per_cycle'?)");
    dv_plot_table_free(&t);
    ck_assert_int_eq(chart_of(line_csv, "d --x hbm.bytes_per_cycle --y time_us --by worklaod -o f", &t, &c, &err),
                     DV_ERR_UNKNOWN);
    ASSERT_MSG(err, "--by: no column 'worklaod' (did you mean 'workload'?)");
    dv_plot_table_free(&t);
    ck_assert_int_eq(chart_of(line_csv, "d --x hbm.bytes_per_cycle --y time_us --where core.ub_size=1 -o f", &t, &c,
                              &err), DV_ERR_UNKNOWN);
    ASSERT_MSG(err, "--where: no column 'core.ub_size'; the columns are point, workload,");
    dv_plot_table_free(&t);
    /* nothing near: no hint */
    ck_assert_int_eq(chart_of(line_csv, "d --x frobnicate --y time_us -o f", &t, &c, &err), DV_ERR_UNKNOWN);
    ck_assert_ptr_null(strstr(err.msg, "did you mean"));
    dv_plot_table_free(&t);
}
END_TEST

START_TEST(test_plot_non_numeric_columns)
{
    dv_plot_table_t t;
    dv_plot_chart_t c;
    dv_error_t err;
    ck_assert_int_eq(chart_of(line_csv, "d --x workload --y time_us -o f", &t, &c, &err), DV_ERR_PARSE);
    ck_assert_int_eq(err.line, 2);
    ck_assert_str_eq(err.msg, "--x column 'workload' holds 'add', not a number: a line chart needs numbers on both axes "
                              "(a text column can be --by or --where)");
    dv_plot_table_free(&t);
    ck_assert_int_eq(chart_of(line_csv, "d --x hbm.bytes_per_cycle --y bound_by -o f", &t, &c, &err), DV_ERR_PARSE);
    ASSERT_MSG(err, "--y column 'bound_by' holds 'MTE2', not a number");
    dv_plot_table_free(&t);
    /* --by may be text */
    ck_assert_int_eq(chart_of(line_csv, "d --x hbm.bytes_per_cycle --y ratio_MTE2 --by bound_by -o f", &t, &c, &err),
                     DV_OK);
    ck_assert_int_eq(c.nseries, 3);
    ck_assert_str_eq(c.series[2].name, "M"); /* the quoted "M" is M */
    dv_plot_chart_free(&c);
    dv_plot_table_free(&t);
}
END_TEST

/* ---------------------------------------------------------------- axes */

static bool is_125(double step)
{
    const double m = step / pow(10, floor(log10(step) + 1e-9));
    return fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 5) < 1e-9;
}

START_TEST(test_plot_ticks_are_round)
{
    dv_plot_axis_t a = {0};
    dv_plot_axis_ticks(&a, 444, 3552, false);
    ck_assert(a.lo == 0 && a.hi == 4000);
    ck_assert_int_eq(a.nticks, 9);
    ck_assert(a.tick[1] == 500);
    dv_plot_axis_ticks(&a, 0.05, 0.91, false);
    ck_assert(a.lo == 0 && fabs(a.hi - 1) < 1e-12 && a.nticks == 6);
    dv_plot_axis_ticks(&a, 7, 7, false); /* one value: a range around it */
    ck_assert(a.lo < 7 && a.hi > 7 && a.nticks >= 2);
    /* every step is 1, 2 or 5 times a power of ten; the data lies within */
    static const double ranges[][2] = {{0, 1}, {3, 97}, {131072, 524288}, {-5, 12}, {0.001, 0.0042}, {1e6, 9.9e9}};
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        dv_plot_axis_ticks(&a, ranges[i][0], ranges[i][1], false);
        ck_assert(a.nticks >= 3 && a.nticks <= 12);
        ck_assert(a.lo <= ranges[i][0] && a.hi >= ranges[i][1]);
        ck_assert_msg(is_125(a.tick[1] - a.tick[0]), "step %g", a.tick[1] - a.tick[0]);
    }
    /* log: decades, or 1-2-5 within two decades */
    dv_plot_axis_ticks(&a, 33, 5000, true);
    ck_assert(a.log && a.lo == 10 && a.hi == 10000 && a.nticks == 4);
    dv_plot_axis_ticks(&a, 0.1, 0.99, true);
    ck_assert(a.nticks == 4 && fabs(a.tick[0] - 0.1) < 1e-12 && fabs(a.tick[1] - 0.2) < 1e-12);
    ck_assert(fabs(a.tick[3] - 1) < 1e-12);
    dv_plot_axis_ticks(&a, 444, 3552, true);
    ck_assert(a.lo == 200 && a.hi == 5000 && a.nticks == 5);
}
END_TEST

START_TEST(test_plot_log_scale_auto_and_forced)
{
    static const char csv[] = "workload,core.ub_size_bytes,time_us,ratio_V\n"
                              "a,16384,5000,0\n"
                              "a,65536,900,0.2\n"
                              "a,262144,120,0.3\n"
                              "a,1048576,33,0.5\n";
    dv_plot_table_t t;
    dv_plot_chart_t c;
    dv_error_t err;
    /* time spans 150x: log; the UB sizes 64x: linear */
    ck_assert_int_eq(chart_of(csv, "d --x core.ub_size_bytes --y time_us -o f", &t, &c, &err), DV_OK);
    ck_assert(!c.x.log && c.y.log);
    char *svg = svg_of(&c);
    ck_assert_ptr_nonnull(strstr(svg, "time_us (\xc2\xb5s) [log]</text>"));
    free(svg);
    dv_plot_chart_free(&c);
    dv_plot_table_free(&t);
    ck_assert_int_eq(chart_of(csv, "d --x core.ub_size_bytes --y time_us --log-x --linear-y -o f", &t, &c, &err), DV_OK);
    ck_assert(c.x.log && !c.y.log);
    dv_plot_chart_free(&c);
    dv_plot_table_free(&t);
    /* a log scale needs positive values */
    ck_assert_int_eq(chart_of(csv, "d --x core.ub_size_bytes --y ratio_V --log-y -o f", &t, &c, &err), DV_ERR_RANGE);
    ck_assert_int_eq(err.line, 2);
    ASSERT_MSG(err, "--log-y: column 'ratio_V' has 0 here; a log scale needs values above 0");
    dv_plot_table_free(&t);
}
END_TEST

/* ---------------------------------------------------------------- heatmap */

/* The cells of a heatmap SVG: fill colour and value, in document order. */
static int heat_cells(const char *svg, char fill[][8], double *value, int cap)
{
    int n = 0;
    for (const char *p = strstr(svg, "<rect class=\"cell\""); p && n < cap; p = strstr(p + 1, "<rect class=\"cell\"")) {
        const char *f = strstr(p, "fill=\"");
        ck_assert_ptr_nonnull(f);
        memcpy(fill[n], f + 6, 7);
        fill[n][7] = '\0';
        const char *end = strstr(p, " (line ");
        const char *eq = end;
        while (eq > p && strncmp(eq, " = ", 3) != 0)
            eq--;
        value[n++] = strtod(eq + 3, NULL);
    }
    return n;
}

static double lightness_of(const char *hex)
{
    unsigned r, g, b;
    ck_assert_int_eq(sscanf(hex, "#%2x%2x%2x", &r, &g, &b), 3);
    return 0.299 * r + 0.587 * g + 0.114 * b;
}

START_TEST(test_plot_heatmap_cells_coloured_in_value_order)
{
    dv_plot_table_t t;
    dv_plot_chart_t c;
    dv_error_t err;
    ck_assert_int_eq(chart_of(grid_csv, "d --x hbm.bytes_per_cycle --y time_us --heatmap -o f", &t, &c, &err), DV_OK);
    /* the second axis is the other key that varies; categories in numeric order */
    ck_assert_int_eq(c.kind, DV_PLOT_HEATMAP);
    ck_assert_int_eq(c.nx, 3);
    ck_assert_int_eq(c.ny, 4);
    ck_assert_str_eq(c.xcat[0], "444");
    ck_assert_str_eq(c.xcat[2], "1776");
    ck_assert_str_eq(c.ycat[0], "131072");
    ck_assert_str_eq(c.ycat[3], "524288");
    ck_assert_int_eq(c.npanels, 1);
    ck_assert_str_eq(c.panel[0].name, "add");
    ck_assert(c.panel[0].value[0] == 460.69 && c.panel[0].value[3 * 3 + 2] == 115.17);
    ck_assert(c.panel[0].min == 115.17 && c.panel[0].max == 460.69 && !c.panel[0].log);
    ck_assert_str_eq(c.x.title, "hbm.bytes_per_cycle (B/cycle)");
    ck_assert_str_eq(c.y.title, "core.ub_size_bytes (bytes)");
    ck_assert_str_eq(c.key_title, "time_us (\xc2\xb5s)");

    char *svg = svg_of(&c);
    char fill[16][8];
    double v[16];
    ck_assert_int_eq(heat_cells(svg, fill, v, 16), 12);
    ck_assert_int_eq(count(svg, "class=\"nocell\""), 0);
    /* sort by value: the colours get lighter, from the scale's first stop to its last */
    for (int i = 0; i < 12; i++)
        for (int j = i + 1; j < 12; j++)
            if (v[j] < v[i]) {
                double tv = v[i];
                char tf[8];
                v[i] = v[j];
                v[j] = tv;
                memcpy(tf, fill[i], 8);
                memcpy(fill[i], fill[j], 8);
                memcpy(fill[j], tf, 8);
            }
    ck_assert(v[0] == 115.17 && v[11] == 460.69);
    ck_assert_str_eq(fill[0], "#440154");
    ck_assert_str_eq(fill[11], "#fde725");
    for (int i = 1; i < 12; i++)
        ck_assert_msg(lightness_of(fill[i]) > lightness_of(fill[i - 1]), "%g %s not lighter than %g %s", v[i], fill[i],
                      v[i - 1], fill[i - 1]);
    /* a colour bar with min and max, labels in the cells, valid XML */
    ck_assert_int_eq(count(svg, "class=\"colorbar\""), 1);
    ck_assert_ptr_nonnull(strstr(svg, ">min 115.2</text>"));
    ck_assert_ptr_nonnull(strstr(svg, ">max 460.7</text>"));
    ck_assert_int_eq(count(svg, "class=\"value\""), 12);
    ck_assert_ptr_null(xml_problem(svg));
    free(svg);
    dv_plot_chart_free(&c);
    dv_plot_table_free(&t);
}
END_TEST

START_TEST(test_plot_heatmap_panels_and_missing_cells)
{
    /* the grid for two workloads; mm lacks one point, add has one empty metric */
    char csv[4096];
    size_t used = (size_t)snprintf(csv, sizeof csv, "%s", grid_csv);
    const char *rows = strchr(grid_csv, '\n') + 1;
    for (const char *p = rows; *p;) {
        const char *nl = strchr(p, '\n');
        const char *comma = strchr(p, ',');
        if (strncmp(comma, ",add,1776,524288,", 17) != 0)
            used += (size_t)snprintf(csv + used, sizeof csv - used, "%.*smm%.*s\n", (int)(comma + 1 - p), p,
                                     (int)(nl - comma - 4), comma + 4);
        p = nl + 1;
    }
    char *e = strstr(csv, "888,262144,230.35");
    ck_assert_ptr_nonnull(e);
    memmove(e + 11, e + 17, strlen(e + 17) + 1); /* add's 888,262144 with no time */
    dv_plot_table_t t;
    dv_plot_chart_t c;
    dv_error_t err;
    ck_assert_int_eq(chart_of(csv, "d --x hbm.bytes_per_cycle --y time_us --heatmap --by core.ub_size_bytes -o f", &t, &c,
                              &err), DV_OK);
    ck_assert_int_eq(c.npanels, 2);
    ck_assert_str_eq(c.panel[0].name, "add");
    ck_assert_str_eq(c.panel[1].name, "mm");
    ck_assert(isnan(c.panel[0].value[1 * 3 + 1]) && isnan(c.panel[1].value[3 * 3 + 2]));
    ck_assert_int_eq(c.skipped, 1);
    char *svg = svg_of(&c);
    ck_assert_int_eq(count(svg, "<rect class=\"cell\""), 22);
    ck_assert_int_eq(count(svg, "<rect class=\"nocell\""), 2);
    ck_assert_int_eq(count(svg, "class=\"colorbar\""), 2);
    ck_assert_ptr_nonnull(strstr(svg, ">workload mm</text>"));
    ck_assert_ptr_null(xml_problem(svg));
    free(svg);
    dv_plot_chart_free(&c);
    dv_plot_table_free(&t);
}
END_TEST

START_TEST(test_plot_heatmap_errors)
{
    dv_plot_table_t t;
    dv_plot_chart_t c;
    dv_error_t err;
    /* one swept key only */
    ck_assert_int_eq(chart_of(line_csv, "d --x hbm.bytes_per_cycle --y time_us --heatmap -o f", &t, &c, &err),
                     DV_ERR_RANGE);
    ASSERT_MSG(err, "--heatmap: no swept key but 'hbm.bytes_per_cycle' varies in the rows; a heatmap needs two");
    dv_plot_table_free(&t);
    /* three: which is the second axis? */
    static const char three[] = "workload,hbm.bytes_per_cycle,core.ub_size_bytes,l2.size_bytes,time_us\n"
                                "a,1,1,1,5\na,2,1,1,6\na,1,2,1,7\na,1,1,2,8\n";
    ck_assert_int_eq(chart_of(three, "d --x hbm.bytes_per_cycle --y time_us --heatmap -o f", &t, &c, &err), DV_ERR_RANGE);
    ASSERT_MSG(err, "--heatmap: core.ub_size_bytes, l2.size_bytes vary besides 'hbm.bytes_per_cycle': name the "
                    "heatmap's second axis with --by KEY");
    dv_plot_table_free(&t);
    /* named, the third still collides */
    ck_assert_int_eq(chart_of(three, "d --x hbm.bytes_per_cycle --y time_us --heatmap --by core.ub_size_bytes -o f", &t,
                              &c, &err), DV_ERR_RANGE);
    ck_assert_int_eq(err.line, 5);
    ASSERT_MSG(err, "the rows at lines 2 and 5 are both the point hbm.bytes_per_cycle=1, core.ub_size_bytes=1 but "
                    "differ in l2.size_bytes ('1' and '2'), which is on no axis: keep one value with --where "
                    "l2.size_bytes=VALUE, or give it an axis (--x or --by l2.size_bytes)");
    dv_plot_table_free(&t);
    ck_assert_int_eq(chart_of(grid_csv, "d --x hbm.bytes_per_cycle --y core.ub_size_bytes --heatmap -o f", &t, &c, &err),
                     DV_ERR_PARSE);
    ASSERT_MSG(err, "--y core.ub_size_bytes is an axis of the heatmap");
    dv_plot_table_free(&t);
}
END_TEST

/* ---------------------------------------------------------------- SVG */

START_TEST(test_plot_svg_escapes_hostile_text)
{
    /* markup, a quote, a control character and a byte that is not UTF-8 in names and the title */
    static const char csv[] = "point,workload,hbm.bytes_per_cycle,time_us\n"
                              "0,\"a<b & \"\"c\"\"\",1,2\n"
                              "1,\"a<b & \"\"c\"\"\",2,3\n"
                              "2,\"x\x01y\xff\xc3\xa9\",1,4\n"
                              "3,\"x\x01y\xff\xc3\xa9\",2,5\n";
    dv_plot_table_t t;
    dv_plot_chart_t c;
    dv_error_t err;
    ck_assert_int_eq(chart_of(csv, "d --x hbm.bytes_per_cycle --y time_us --title <&> -o f", &t, &c, &err), DV_OK);
    char *svg = svg_of(&c);
    const char *why = xml_problem(svg);
    ck_assert_msg(why == NULL, "%s", why);
    ck_assert_ptr_nonnull(strstr(svg, ">a&lt;b &amp; &quot;c&quot;</text>"));
    ck_assert_ptr_nonnull(strstr(svg, ">x?y?\xc3\xa9</text>"));
    ck_assert_ptr_nonnull(strstr(svg, "<title>&lt;&amp;&gt;</title>"));
    ck_assert_int_eq(strncmp(svg, "<?xml", 5), 0);
    ck_assert_int_eq(count(svg, "<svg "), 1);
    ck_assert_int_eq(count(svg, "</svg>"), 1);
    free(svg);
    dv_plot_chart_free(&c);
    dv_plot_table_free(&t);
    /* the checker itself rejects what it should */
    ck_assert_ptr_nonnull(xml_problem("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg><text>a<b</text></svg>\n"));
    ck_assert_ptr_nonnull(xml_problem("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg><g></svg>\n"));
    ck_assert_ptr_nonnull(xml_problem("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg>a & b</svg>\n"));
    ck_assert_ptr_nonnull(xml_problem("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg/><svg/>\n"));
    ck_assert_ptr_null(xml_problem("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg a=\"&lt;\"><g/>x &amp; y</svg>\n"));
}
END_TEST

START_TEST(test_plot_color_scale)
{
    char a[8], b[8];
    dv_plot_color(0, a);
    ck_assert_str_eq(a, "#440154");
    dv_plot_color(1, a);
    ck_assert_str_eq(a, "#fde725");
    dv_plot_color(0.5, a);
    ck_assert_str_eq(a, "#21918c"); /* the middle stop */
    dv_plot_color(-3, a);
    dv_plot_color(0, b);
    ck_assert_str_eq(a, b);
    /* lightness rises strictly along the scale */
    double last = -1;
    for (int i = 0; i <= 64; i++) {
        dv_plot_color(i / 64.0, a);
        const double l = lightness_of(a);
        ck_assert_msg(l > last, "t=%g %s", i / 64.0, a);
        last = l;
    }
}
END_TEST

START_TEST(test_plot_args)
{
    dv_plot_opts_t o;
    dv_error_t err;
    char *ok[] = {"dir", "--x=a", "--y", "b", "--by", "c", "--where", "k=v=w", "--heatmap", "--log-y", "-o", "f.svg"};
    ck_assert_int_eq(dv_plot_parse_args(&o, 12, ok, &err), DV_OK);
    ck_assert_str_eq(o.input, "dir");
    ck_assert_str_eq(o.x, "a");
    ck_assert_str_eq(o.by, "c");
    ck_assert_int_eq(o.nwhere, 1);
    ck_assert_int_eq((int)o.where[0].keylen, 1);
    ck_assert_str_eq(o.where[0].value, "v=w");
    ck_assert_int_eq(o.kind, DV_PLOT_HEATMAP);
    ck_assert_int_eq(o.yscale, DV_SCALE_LOG);
    ck_assert_str_eq(o.output, "f.svg");
    static const struct {
        int argc;
        char *argv[6];
        const char *msg;
    } bad[] = {
        {4, {"--x", "a", "--y", "b"}, "missing DIR"},
        {5, {"d", "--y", "b", "-o", "f"}, "missing --x"},
        {5, {"d", "--x", "a", "--y", "b"}, "missing -o FILE.svg"},
        {6, {"d", "e", "--x", "a", "--y", "b"}, "only one DIR or CSV may be given ('e')"},
        {2, {"d", "--x"}, "option '--x' needs a value"},
        {3, {"d", "--where", "=v"}, "option '--where' needs KEY=VALUE, not '=v'"},
        {2, {"d", "--bogus"}, "unknown option '--bogus'"},
        {3, {"d", "--log-x", "--linear-x"}, "'--linear-x' contradicts the other scale option of that axis"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(dv_plot_parse_args(&o, bad[i].argc, (char **)bad[i].argv, &err), DV_ERR_PARSE);
        ASSERT_MSG(err, bad[i].msg);
    }
    char *heat_log[] = {"d", "--x", "a", "--y", "b", "--heatmap", "--log-x", "-o", "f"};
    ck_assert_int_eq(dv_plot_parse_args(&o, 9, heat_log, &err), DV_ERR_PARSE);
    ASSERT_MSG(err, "--log-x and --linear-x are for line charts");
}
END_TEST

/* ---------------------------------------------------------------- the command */

static void setup(void) { clit_setup_named("dvsim-plot"); }
static void teardown(void) { clit_teardown(); }

#define ASSERT_ERR(s) ck_assert_msg(strstr(clit_err, s) != NULL, "expected '%s' in stderr: %s", s, clit_err)

/* python3 reads the SVG as XML and prints the root's name and how many of each element it has. */
#define PY_XML "python3 -c 'import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); e = d.documentElement; " \
               "print(e.tagName, len(e.getElementsByTagName(\"polyline\")), " \
               "len([r for r in e.getElementsByTagName(\"rect\") if r.getAttribute(\"class\") == \"cell\"]))'"

START_TEST(test_plot_cli_line_and_heatmap_parse_as_xml)
{
    clit_write("results.csv", line_csv);
    ck_assert_int_eq(clit_dvsim("plot $T --x hbm.bytes_per_cycle --y time_us -o $T/line.svg && " PY_XML
                                " $T/line.svg"),
                     0);
    ck_assert_str_eq(clit_out, "svg 2 0\n");
    ck_assert_str_eq(clit_err, "");
    clit_write("grid.csv", grid_csv);
    ck_assert_int_eq(clit_dvsim("plot $T/grid.csv --x hbm.bytes_per_cycle --y time_us --heatmap -o $T/heat.svg && "
                                PY_XML " $T/heat.svg"),
                     0);
    ck_assert_str_eq(clit_out, "svg 0 12\n");
    /* rows left out are said on stderr; -o - writes to stdout */
    ck_assert_int_eq(clit_dvsim("plot $T --x hbm.bytes_per_cycle --y ub_peak_bytes -o - > $T/skip.svg && " PY_XML
                           " $T/skip.svg"), 0);
    ck_assert_str_eq(clit_out, "svg 1 0\n");
    ck_assert_str_eq(clit_err, "dvsim plot: 4 rows left out: 'hbm.bytes_per_cycle' or 'ub_peak_bytes' is empty (lines 6, "
                               "7, 8, 9)\n");
}
END_TEST

START_TEST(test_plot_cli_errors)
{
    clit_write("results.csv", line_csv);
    /* an unwritable output: exit 1, nothing left behind */
    char path[256];
    ck_assert_int_eq(clit_dvsim("plot $T --x hbm.bytes_per_cycle --y time_us -o $T/no/such/dir/x.svg"), 1);
    ASSERT_ERR("/no/such/dir/x.svg: error: cannot write: No such file or directory");
    ck_assert_int_eq(clit_dvsim("plot $T --x hbm.bytes_per_cycle --y time_us -o $T/results.csv/x.svg"), 1);
    ASSERT_ERR("/results.csv/x.svg: error: cannot write: Not a directory");
    /* a device that fails every write: the error, and the device is not removed */
    ck_assert_int_eq(clit_dvsim("plot $T --x hbm.bytes_per_cycle --y time_us -o /dev/full"), 1);
    ASSERT_ERR("/dev/full: error: cannot write: No space left on device");
    ck_assert_int_eq(access("/dev/full", F_OK), 0);
    /* an unknown column: exit 1 at the header, and no file */
    ck_assert_int_eq(clit_dvsim("plot $T --x hbm.byte_per_cycle --y time_us -o $T/x.svg"), 1);
    ASSERT_ERR("/results.csv:1: error: --x: no column 'hbm.byte_per_cycle' (did you mean 'hbm.bytes_per_cycle'?)");
    snprintf(path, sizeof path, "%s/x.svg", clit_tmp);
    ck_assert_int_ne(access(path, F_OK), 0);
    /* an empty file, a directory without results.csv, a missing file */
    clit_write("empty.csv", "");
    ck_assert_int_eq(clit_dvsim("plot $T/empty.csv --x a --y b -o $T/x.svg"), 1);
    ASSERT_ERR("empty.csv: error: empty file: no header line");
    snprintf(path, sizeof path, "%s/d", clit_tmp);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    ck_assert_int_eq(clit_dvsim("plot $T/d --x a --y b -o $T/x.svg"), 1);
    ASSERT_ERR("/d: error: no results.csv in this directory");
    ck_assert_int_eq(clit_dvsim("plot $T/none.csv --x a --y b -o $T/x.svg"), 1);
    ASSERT_ERR("none.csv: error: cannot open: No such file or directory");
    /* usage errors: exit 2 */
    ck_assert_int_eq(clit_dvsim("plot $T --x hbm.bytes_per_cycle --y time_us"), 2);
    ASSERT_ERR("dvsim: error: plot: missing -o FILE.svg");
    ASSERT_ERR("Try 'dvsim --help'.");
    ck_assert_int_eq(clit_dvsim("plot $T --x a --y b --color red -o x.svg"), 2);
    ASSERT_ERR("plot: unknown option '--color'");
    /* the usage text has the command */
    ck_assert_int_eq(clit_dvsim("--help"), 0);
    ck_assert_ptr_nonnull(strstr(clit_out, "dvsim plot DIR|CSV --x KEY --y METRIC"));
}
END_TEST

Suite *dv_plot_suite(void)
{
    Suite *s = suite_create("plot");
    TCase *table = tcase_create("table");
    tcase_add_test(table, test_plot_table_quoted_fields);
    tcase_add_loop_test(table, test_plot_table_errors_are_located, 0,
                        (int)(sizeof table_errors / sizeof table_errors[0]));
    tcase_add_test(table, test_plot_table_header_only);
    tcase_add_test(table, test_plot_number_cells);
    suite_add_tcase(s, table);

    TCase *chart = tcase_create("chart");
    tcase_add_test(chart, test_plot_line_one_polyline_per_workload_in_x_order);
    tcase_add_test(chart, test_plot_line_axis_titles_carry_units);
    tcase_add_test(chart, test_plot_line_empty_cells_are_skipped);
    tcase_add_test(chart, test_plot_line_by_key_and_where);
    tcase_add_test(chart, test_plot_line_mixed_rows_need_where);
    tcase_add_test(chart, test_plot_line_duplicate_rows);
    tcase_add_test(chart, test_plot_unknown_columns_suggest);
    tcase_add_test(chart, test_plot_non_numeric_columns);
    tcase_add_test(chart, test_plot_ticks_are_round);
    tcase_add_test(chart, test_plot_log_scale_auto_and_forced);
    tcase_add_test(chart, test_plot_heatmap_cells_coloured_in_value_order);
    tcase_add_test(chart, test_plot_heatmap_panels_and_missing_cells);
    tcase_add_test(chart, test_plot_heatmap_errors);
    tcase_add_test(chart, test_plot_svg_escapes_hostile_text);
    tcase_add_test(chart, test_plot_color_scale);
    tcase_add_test(chart, test_plot_args);
    suite_add_tcase(s, chart);

    TCase *cli = tcase_create("cli");
    tcase_add_checked_fixture(cli, setup, teardown);
    tcase_add_test(cli, test_plot_cli_line_and_heatmap_parse_as_xml);
    tcase_add_test(cli, test_plot_cli_errors);
    suite_add_tcase(s, cli);
    return s;
}
