/* whatif/plot_svg.c - step 3 of a plot: the chart as a standalone SVG document (dv/plot.h), written
 * by hand in the house style of fusion/report.c: fixed sizes in pixels, sans-serif, every text
 * from the table escaped (and any byte that is not UTF-8 replaced) so the document is valid XML. */
#include <math.h>
#include <string.h>

#include "dv/plot.h"

/* Line colours (Tableau 10) and marker shapes: series s gets colour s % 10 and shape s % 4. */
static const char *const line_color[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                         "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
enum { NCOLORS = sizeof line_color / sizeof line_color[0], NSHAPES = 4 };

/* The colour scale: viridis sampled at 9 evenly spaced stops, interpolated linearly in RGB.  Its
 * lightness rises monotonically from the first stop to the last. */
static const unsigned char viridis[9][3] = {
    {0x44, 0x01, 0x54}, {0x47, 0x2d, 0x7b}, {0x3b, 0x52, 0x8b}, {0x2c, 0x72, 0x8e}, {0x21, 0x91, 0x8c},
    {0x28, 0xae, 0x80}, {0x5e, 0xc9, 0x62}, {0xad, 0xdc, 0x30}, {0xfd, 0xe7, 0x25},
};
enum { NSTOPS = sizeof viridis / sizeof viridis[0] };

void dv_plot_color(double t, char out[8])
{
    t = isnan(t) ? 0.5 : t < 0 ? 0 : t > 1 ? 1 : t;
    const double pos = t * (NSTOPS - 1);
    const int i = pos >= NSTOPS - 1 ? NSTOPS - 2 : (int)pos;
    const double f = pos - i;
    int rgb[3];
    for (int k = 0; k < 3; k++)
        rgb[k] = (int)lround(viridis[i][k] + f * (viridis[i + 1][k] - viridis[i][k]));
    snprintf(out, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

/* ---------------------------------------------------------------- text */

/* Text from the table as XML character data: markup characters escaped, control characters and
 * bytes that are not well-formed UTF-8 replaced by '?'. */
static void svg_text(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        const unsigned char c = *p;
        if (c < 0x80) {
            switch (c) {
            case '<': fputs("&lt;", out); break;
            case '>': fputs("&gt;", out); break;
            case '&': fputs("&amp;", out); break;
            case '"': fputs("&quot;", out); break;
            default: fputc(c < 0x20 && c != '\t' ? '?' : c, out);
            }
            p++;
            continue;
        }
        /* a multi-byte sequence: lead byte, then 1-3 continuation bytes (no overlongs, no surrogates) */
        const int n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
        bool ok = n > 0;
        for (int k = 1; ok && k <= n; k++)
            ok = (p[k] & 0xc0) == 0x80;
        if (ok && n == 2)
            ok = !(c == 0xe0 && p[1] < 0xa0) && !(c == 0xed && p[1] >= 0xa0);
        if (ok && n == 3)
            ok = !(c == 0xf0 && p[1] < 0x90) && !(c == 0xf4 && p[1] >= 0x90);
        if (!ok) {
            fputc('?', out);
            p++;
            continue;
        }
        fwrite(p, 1, (size_t)n + 1, out);
        p += n + 1;
    }
}

/* A number for a label: at most `digits` significant digits, k/M/G/T/P from 10^4 up. */
static void fmt_num(double v, int digits, char *buf, size_t size)
{
    static const char *const si[] = {"k", "M", "G", "T", "P"};
    const double a = fabs(v);
    if (a >= 1e4 && a < 1e18) {
        int e = (int)floor(log10(a) / 3);
        if (e > 5)
            e = 5;
        snprintf(buf, size, "%.*g%s", digits, v / pow(10, 3 * e), si[e - 1]);
    } else {
        snprintf(buf, size, "%.*g", digits, v == 0 ? 0 : v);
    }
}

static void tick_label(const dv_plot_axis_t *a, double v, char *buf, size_t size)
{
    if (a->boolean)
        snprintf(buf, size, "%s", v != 0 ? "true" : "false");
    else
        fmt_num(v, 6, buf, size);
}

/* Position of v on an axis drawn from pixel p0 (a->lo) to p1 (a->hi). */
static double map(const dv_plot_axis_t *a, double v, double p0, double p1)
{
    const double t = a->log ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) : (v - a->lo) / (a->hi - a->lo);
    return p0 + t * (p1 - p0);
}

static void header(FILE *out, const dv_plot_chart_t *c, double W, double H)
{
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
            "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"11\">\n", W, H, W, H);
    fputs("<title>", out);
    svg_text(out, c->title);
    fputs("</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n", out);
    fputs("<text x=\"16\" y=\"26\" font-size=\"16\">", out);
    svg_text(out, c->title);
    fputs("</text>\n<text x=\"16\" y=\"44\" fill=\"#555\">", out);
    svg_text(out, c->subtitle);
    fputs("</text>\n", out);
}

/* ---------------------------------------------------------------- line chart */

static void marker(FILE *out, int shape, double x, double y, const char *color)
{
    switch (shape % NSHAPES) {
    case 0: fprintf(out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3.5\" fill=\"%s\"", x, y, color); break;
    case 1:
        fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"6.4\" height=\"6.4\" fill=\"%s\"", x - 3.2, y - 3.2, color);
        break;
    case 2:
        fprintf(out, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f\" fill=\"%s\"", x, y - 4.5, x + 4.2, y + 3,
                x - 4.2, y + 3, color);
        break;
    default:
        fprintf(out, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f %.2f,%.2f\" fill=\"%s\"", x, y - 4.5, x + 4.5, y,
                x, y + 4.5, x - 4.5, y, color);
    }
}

static void write_line(const dv_plot_chart_t *c, FILE *out)
{
    const bool legend = c->nseries > 1 || (c->nseries == 1 && c->series[0].name[0]);
    const double W = legend ? 960 : 760, H = 560, L = 96, T = 64, R = legend ? W - 240 : W - 32, B = H - 72;
    char lab[64];
    header(out, c, W, H);
    /* grid, ticks and their labels */
    fputs("<g class=\"axes\" stroke=\"#e3e3e3\">\n", out);
    for (int i = 0; i < c->x.nticks; i++) {
        const double x = map(&c->x, c->x.tick[i], L, R);
        fprintf(out, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/>\n", x, T, x, B);
    }
    for (int i = 0; i < c->y.nticks; i++) {
        const double y = map(&c->y, c->y.tick[i], B, T);
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\"/>\n", L, y, R, y);
    }
    fputs("</g>\n<g class=\"ticks\">\n", out);
    for (int i = 0; i < c->x.nticks; i++) {
        tick_label(&c->x, c->x.tick[i], lab, sizeof lab);
        fprintf(out, "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", map(&c->x, c->x.tick[i], L, R),
                B + 16, lab);
    }
    for (int i = 0; i < c->y.nticks; i++) {
        tick_label(&c->y, c->y.tick[i], lab, sizeof lab);
        fprintf(out, "<text x=\"%.1f\" y=\"%.2f\" text-anchor=\"end\">%s</text>\n", L - 6,
                map(&c->y, c->y.tick[i], B, T) + 4, lab);
    }
    fputs("</g>\n", out);
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#333\"/>\n", L, T,
            R - L, B - T);
    fprintf(out, "<text class=\"xtitle\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\">", (L + R) / 2,
            B + 44);
    svg_text(out, c->x.title);
    fprintf(out, "%s</text>\n", c->x.log ? " [log]" : "");
    fprintf(out, "<text class=\"ytitle\" x=\"0\" y=\"0\" transform=\"translate(24 %.1f) rotate(-90)\" "
            "text-anchor=\"middle\" font-size=\"13\">", (T + B) / 2);
    svg_text(out, c->y.title);
    fprintf(out, "%s</text>\n", c->y.log ? " [log]" : "");
    /* the lines: a polyline and a marker per point, each point's values in its tooltip */
    for (int s = 0; s < c->nseries; s++) {
        const dv_plot_series_t *ser = &c->series[s];
        const char *color = line_color[s % NCOLORS];
        fputs("<g class=\"series\"><title>", out);
        svg_text(out, ser->name[0] ? ser->name : c->y.name);
        fprintf(out, "</title>\n<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", color);
        for (int i = 0; i < ser->n; i++) {
            const dv_plot_point_t *p = &c->points[ser->first + i];
            fprintf(out, "%s%.2f,%.2f", i ? " " : "", map(&c->x, p->x, L, R), map(&c->y, p->y, B, T));
        }
        fputs("\"/>\n", out);
        for (int i = 0; i < ser->n; i++) {
            const dv_plot_point_t *p = &c->points[ser->first + i];
            marker(out, s, map(&c->x, p->x, L, R), map(&c->y, p->y, B, T), color);
            fputs("><title>", out);
            if (ser->name[0]) {
                svg_text(out, ser->name);
                fputs(": ", out);
            }
            svg_text(out, c->x.name);
            fprintf(out, " = %.10g, ", p->x);
            svg_text(out, c->y.name);
            fprintf(out, " = %.10g (line %d)</title></%s>\n", p->y, p->line,
                    s % NSHAPES == 0 ? "circle" : s % NSHAPES == 1 ? "rect" : "polygon");
        }
        fputs("</g>\n", out);
    }
    if (!legend)
        return;
    /* the legend: the --by column, then one entry per line while they fit */
    const double lx = R + 24;
    double ly = T + 6;
    fprintf(out, "<g class=\"legend\">\n<text x=\"%.1f\" y=\"%.1f\" font-weight=\"bold\">", lx, ly);
    svg_text(out, c->key_title);
    fputs("</text>\n", out);
    const int fit = (int)((B - ly) / 18) - 1;
    for (int s = 0; s < c->nseries; s++) {
        ly += 18;
        if (s == fit && c->nseries > fit + 1) {
            fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">... and %d more</text>\n", lx, ly + 4, c->nseries - s);
            break;
        }
        const char *color = line_color[s % NCOLORS];
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n", lx, ly,
                lx + 24, ly, color);
        marker(out, s, lx + 12, ly, color);
        fprintf(out, "/>\n<text x=\"%.1f\" y=\"%.1f\">", lx + 32, ly + 4);
        svg_text(out, c->series[s].name[0] ? c->series[s].name : "(empty)");
        fputs("</text>\n", out);
    }
    fputs("</g>\n", out);
}

/* ---------------------------------------------------------------- heatmap */

static double clamp(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Where v falls on a panel's colour scale, 0..1. */
static double scale_pos(const dv_plot_panel_t *p, double v)
{
    if (!(p->max > p->min))
        return 0.5;
    return p->log ? (log10(v) - log10(p->min)) / (log10(p->max) - log10(p->min)) : (v - p->min) / (p->max - p->min);
}

/* Perceived lightness of "#rrggbb", 0..255: labels on a cell are white below 128, dark above. */
static double lightness(const char *hex)
{
    unsigned r, g, b;
    if (sscanf(hex, "#%2x%2x%2x", &r, &g, &b) != 3)
        return 0;
    return 0.299 * r + 0.587 * g + 0.114 * b;
}

static void write_heatmap(const dv_plot_chart_t *c, FILE *out)
{
    const double cw = clamp(560.0 / c->nx, 8, 110), ch = clamp(360.0 / c->ny, 8, 44);
    const double gw = cw * c->nx, gh = ch * c->ny, L = 160, top = 72;
    const double bar_x = L + gw + 28, bar_h = gh > 120 ? gh : 120;
    const double panel_h = 24 + (bar_h > gh ? bar_h : gh) + 56;
    const double W = bar_x + 16 + 112, H = top + c->npanels * panel_h + 8;
    char lab[64], col[8];
    /* label every k-th category so labels do not overlap */
    size_t xlen = 1;
    for (int i = 0; i < c->nx; i++)
        xlen = strlen(c->xcat[i]) > xlen ? strlen(c->xcat[i]) : xlen;
    const int xevery = (int)ceil((double)xlen * 6.5 / cw), yevery = (int)ceil(13 / ch);
    header(out, c, W < 640 ? 640 : W, H);
    fputs("<defs><linearGradient id=\"dvplot-scale\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">", out);
    for (int k = 0; k < NSTOPS; k++)
        fprintf(out, "<stop offset=\"%.4f\" stop-color=\"#%02x%02x%02x\"/>", (double)k / (NSTOPS - 1), viridis[k][0],
                viridis[k][1], viridis[k][2]);
    fputs("</linearGradient></defs>\n", out);
    for (int p = 0; p < c->npanels; p++) {
        const dv_plot_panel_t *pn = &c->panel[p];
        const double y0 = top + p * panel_h + 24;
        fprintf(out, "<g class=\"panel\">\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" font-weight=\"bold\">", L,
                y0 - 8);
        if (pn->name[0]) {
            fputs("workload ", out);
            svg_text(out, pn->name);
        }
        fputs("</text>\n", out);
        for (int j = 0; j < c->ny; j++)
            for (int i = 0; i < c->nx; i++) {
                const double v = pn->value[j * c->nx + i], x = L + i * cw, y = y0 + (c->ny - 1 - j) * ch;
                const bool has = !isnan(v);
                if (has)
                    dv_plot_color(scale_pos(pn, v), col);
                fprintf(out, "<rect class=\"%s\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
                        "stroke=\"white\" stroke-width=\"%s\"><title>", has ? "cell" : "nocell", x, y, cw, ch,
                        has ? col : "#f2f2f2", cw >= 20 && ch >= 20 ? "1" : "0.25");
                svg_text(out, c->x.name);
                fputs(" = ", out);
                svg_text(out, c->xcat[i]);
                fputs(", ", out);
                svg_text(out, c->y.name);
                fputs(" = ", out);
                svg_text(out, c->ycat[j]);
                fputs(": ", out);
                svg_text(out, c->key_name);
                if (has)
                    fprintf(out, " = %.10g (line %d)</title></rect>\n", v, pn->line[j * c->nx + i]);
                else
                    fputs(" not in the table</title></rect>\n", out);
                fmt_num(v, 4, lab, sizeof lab);
                if (has && cw >= 40 && ch >= 16 && strlen(lab) * 6.5 + 4 <= cw)
                    fprintf(out, "<text class=\"value\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" "
                            "fill=\"%s\">%s</text>\n",
                            x + cw / 2, y + ch / 2 + 4, lightness(col) < 128 ? "white" : "#222", lab);
            }
        /* category labels and axis titles */
        for (int i = 0; i < c->nx; i += xevery) {
            fprintf(out, "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\">", L + (i + 0.5) * cw, y0 + gh + 15);
            svg_text(out, c->xcat[i]);
            fputs("</text>\n", out);
        }
        for (int j = 0; j < c->ny; j += yevery) {
            fprintf(out, "<text x=\"%.1f\" y=\"%.2f\" text-anchor=\"end\">", L - 6, y0 + (c->ny - 1 - j + 0.5) * ch + 4);
            svg_text(out, c->ycat[j]);
            fputs("</text>\n", out);
        }
        fprintf(out, "<text class=\"xtitle\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\">", L + gw / 2,
                y0 + gh + 38);
        svg_text(out, c->x.title);
        fprintf(out, "</text>\n<text class=\"ytitle\" x=\"0\" y=\"0\" transform=\"translate(24 %.1f) rotate(-90)\" "
                "text-anchor=\"middle\" font-size=\"13\">", y0 + gh / 2);
        svg_text(out, c->y.title);
        fputs("</text>\n", out);
        /* the colour bar: min at the bottom, max at the top, the middle value between */
        fprintf(out, "<rect class=\"colorbar\" x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"%.1f\" "
                "fill=\"url(#dvplot-scale)\" stroke=\"#333\"/>\n", bar_x, y0, bar_h);
        if (pn->max >= pn->min) {
            const double mid = pn->log ? sqrt(pn->min * pn->max) : (pn->min + pn->max) / 2;
            const double v3[3] = {pn->min, mid, pn->max};
            const char *const what[3] = {"min ", "", "max "};
            for (int k = pn->max > pn->min ? 0 : 2; k < 3; k++) {
                fmt_num(v3[k], 4, lab, sizeof lab);
                fprintf(out, "<text x=\"%.1f\" y=\"%.2f\">%s%s</text>\n", bar_x + 20, y0 + bar_h * (1 - k / 2.0) + 4,
                        what[k], lab);
            }
        }
        fprintf(out, "<text x=\"0\" y=\"0\" transform=\"translate(%.1f %.1f) rotate(90)\" text-anchor=\"middle\">",
                bar_x + 96, y0 + bar_h / 2);
        svg_text(out, c->key_title);
        fprintf(out, "%s</text>\n</g>\n", pn->log ? " [log]" : "");
    }
}

int dv_plot_write_svg(const dv_plot_chart_t *c, FILE *out)
{
    if (c->kind == DV_PLOT_HEATMAP)
        write_heatmap(c, out);
    else
        write_line(c, out);
    fputs("</svg>\n", out);
    return ferror(out) ? DV_ERR_IO : DV_OK;
}
