/* whatif/sweep_dir.c - step 4 of a sweep (dv/sweep.h): the sweep directory.
 *   sweep.txt      the manifest: the points hash, the number of points, the shard
 *   spec.yaml      a copy of the spec
 *   points.csv     every point of the sweep: point, workload, the axis values
 *   results.csv    one row per finished point (docs/SWEEP.md); appended as points finish, rewritten
 *                  sorted by point at the end of a run
 *   results.jsonl  the same rows as JSON objects, always derived from results.csv
 * No field dvsim writes holds a comma, a quote or a newline (workload names and values are names,
 * the metrics are numbers and pipe names), so the CSV needs no quoting. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dv/file.h"
#include "sweep_internal.h"

/* A growing string. */
typedef struct sbuf {
    char *p;
    size_t n, cap;
    bool oom;
} sbuf_t;

static void sb_add(sbuf_t *b, const char *s, size_t len)
{
    if (b->oom)
        return;
    if (b->n + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + len + 1)
            cap *= 2;
        char *n = realloc(b->p, cap);
        if (!n) {
            b->oom = true;
            return;
        }
        b->p = n;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, len);
    b->n += len;
    b->p[b->n] = '\0';
}

static void sb_str(sbuf_t *b, const char *s) { sb_add(b, s, strlen(s)); }

/* The string, or an error when memory ran out (b is then freed). */
static int sb_done(sbuf_t *b, char **out, dv_error_t *err)
{
    if (b->oom || !b->p) {
        free(b->p);
        *out = NULL;
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    *out = b->p;
    return DV_OK;
}

static void join(char *buf, size_t cap, const char *dir, const char *name)
{
    snprintf(buf, cap, "%s/%s", dir, name);
}

/* ---------------------------------------------------------------- files */

int sw_mkdirs(const char *dir, dv_error_t *err)
{
    char path[DV_SWEEP_PATH_MAX];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1;; p++) {
        const bool end = *p == '\0';
        if (*p != '/' && !end)
            continue;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot create the directory: %s", strerror(errno));
        if (end)
            break;
        *p = '/';
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return dv_error_set(err, DV_ERR_IO, dir, 0, 0, "not a directory");
    return DV_OK;
}

int sw_write_atomic(const char *path, const char *text, size_t len, dv_error_t *err)
{
    char tmp[DV_SWEEP_PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return dv_error_set(err, DV_ERR_IO, tmp, 0, 0, "cannot write: %s", strerror(errno));
    const bool bad = fwrite(text, 1, len, f) != len || fflush(f) != 0;
    if (fclose(f) != 0 || bad) {
        remove(tmp);
        return dv_error_set(err, DV_ERR_IO, tmp, 0, 0, "write failed: %s", strerror(errno));
    }
    if (rename(tmp, path) != 0)
        return dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot replace: %s", strerror(errno));
    return DV_OK;
}

/* ---------------------------------------------------------------- the CSV */

int sw_csv_fields(const char *line)
{
    int n = 1;
    for (; *line; line++)
        n += *line == ',';
    return n;
}

int sw_header(const dv_sweep_t *s, char **out, dv_error_t *err)
{
    sbuf_t b = {0};
    int n;
    const dv_sweep_metric_t *m = dv_sweep_metrics(&n);
    sb_str(&b, "point,workload");
    for (int a = 0; a < s->naxes; a++) {
        sb_str(&b, ",");
        sb_str(&b, s->axis[a].key);
    }
    for (int i = 0; i < n; i++) {
        sb_str(&b, ",");
        sb_str(&b, m[i].name);
    }
    return sb_done(&b, out, err);
}

int sw_points_write(const char *dir, const dv_sweep_t *s, dv_error_t *err)
{
    char path[DV_SWEEP_PATH_MAX + 32], num[32], *text;
    sbuf_t b = {0};
    sb_str(&b, "point,workload");
    for (int a = 0; a < s->naxes; a++) {
        sb_str(&b, ",");
        sb_str(&b, s->axis[a].key);
    }
    sb_str(&b, "\n");
    for (uint64_t p = 0; p < s->npoints; p++) {
        snprintf(num, sizeof num, "%llu,", (unsigned long long)p);
        sb_str(&b, num);
        sb_str(&b, dv_sweep_point_workload(s, p)->name);
        for (int a = 0; a < s->naxes; a++) {
            sb_str(&b, ",");
            sb_str(&b, dv_sweep_value(s, p, a));
        }
        sb_str(&b, "\n");
    }
    int rc = sb_done(&b, &text, err);
    if (rc != DV_OK)
        return rc;
    join(path, sizeof path, dir, "points.csv");
    rc = sw_write_atomic(path, text, b.n, err);
    free(text);
    return rc;
}

void sw_rows_free(sw_rows_t *r)
{
    for (uint64_t i = 0; i < r->n; i++)
        free(r->line[i]);
    free(r->line);
    free(r->point);
    free(r->header);
    memset(r, 0, sizeof *r);
}

/* A point index: decimal digits, nothing else. */
static bool parse_point(const char *s, size_t len, uint64_t *out)
{
    uint64_t v = 0;
    if (len == 0 || len > 19 || (s[0] == '0' && len > 1))
        return false;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return true;
}

int sw_rows_read(const char *path, uint64_t npoints, int ncols, sw_rows_t *r, dv_error_t *err)
{
    char *text = NULL;
    size_t len = 0;
    uint64_t *seen_line = NULL;
    int rc = DV_OK;
    memset(r, 0, sizeof *r);
    if (access(path, F_OK) != 0)
        return DV_OK;
    if ((rc = dv_read_file(path, "the results", &text, &len, err)) != DV_OK)
        return rc;
    if (!(seen_line = calloc(npoints ? npoints : 1, sizeof *seen_line))) {
        rc = dv_error_set(err, DV_ERR_NOMEM, path, 0, 0, "out of memory");
        goto cleanup;
    }
    size_t at = 0;
    for (int line = 1; at < len; line++) {
        const char *nl = memchr(text + at, '\n', len - at);
        if (!nl) { /* an interrupted write: drop it */
            r->dropped_partial = 1;
            break;
        }
        const size_t n = (size_t)(nl - (text + at));
        char *ln = strndup(text + at, n);
        if (!ln) {
            rc = dv_error_set(err, DV_ERR_NOMEM, path, 0, 0, "out of memory");
            goto cleanup;
        }
        at += n + 1;
        if (line == 1) {
            r->header = ln;
            r->good_bytes = at;
            if (sw_csv_fields(ln) != ncols) { /* another version's columns: say so before any row */
                rc = dv_error_set(err, DV_ERR_STATE, path, 1, 0, "its header has %d columns, this dvsim writes %d for "
                                  "the sweep (a results.csv of another dvsim version?); use another --out",
                                  sw_csv_fields(ln), ncols);
                goto cleanup;
            }
            continue;
        }
        const int fields = sw_csv_fields(ln);
        const size_t plen = strcspn(ln, ",");
        uint64_t p = 0;
        if (fields != ncols)
            rc = dv_error_set(err, DV_ERR_PARSE, path, line, 0, "the row has %d fields, the header %d", fields, ncols);
        else if (!parse_point(ln, plen, &p) || p >= npoints)
            rc = dv_error_set(err, DV_ERR_PARSE, path, line, 0, "'%.*s' is not a point of the sweep (0 to %llu)",
                              (int)(plen < 40 ? plen : 40), ln, (unsigned long long)npoints - 1);
        else if (seen_line[p])
            rc = dv_error_set(err, DV_ERR_PARSE, path, line, 0, "point %llu has a row already (line %llu)",
                              (unsigned long long)p, (unsigned long long)seen_line[p]);
        if (rc == DV_OK && r->n == r->cap) {
            const uint64_t cap = r->cap ? r->cap * 2 : 256;
            uint64_t *pt = realloc(r->point, cap * sizeof *pt);
            if (pt)
                r->point = pt;
            char **lines = realloc(r->line, cap * sizeof *lines);
            if (lines)
                r->line = lines;
            if (!pt || !lines)
                rc = dv_error_set(err, DV_ERR_NOMEM, path, 0, 0, "out of memory");
            else
                r->cap = cap;
        }
        if (rc != DV_OK) {
            free(ln);
            goto cleanup;
        }
        seen_line[p] = (uint64_t)line;
        r->point[r->n] = p;
        r->line[r->n++] = ln;
        r->good_bytes = at;
    }
    if (!r->header)
        r->good_bytes = 0;
cleanup:
    free(seen_line);
    free(text);
    if (rc != DV_OK)
        sw_rows_free(r);
    return rc;
}

/* ---------------------------------------------------------------- the JSON twin */

static sw_json_kind_t column_kind(const char *name)
{
    if (strcmp(name, "point") == 0)
        return SW_JSON_NUMBER;
    if (strcmp(name, "workload") == 0)
        return SW_JSON_STRING;
    if (strchr(name, '.')) {
        const dv_param_spec_t *s = dv_param_find(name);
        if (s && s->type == DV_PT_U64)
            return SW_JSON_NUMBER;
        return s && s->type == DV_PT_BOOL ? SW_JSON_BOOL : SW_JSON_STRING;
    }
    const dv_sweep_metric_t *m = dv_sweep_metric_find(name);
    return m && m->type != DV_SWEEP_PIPE && m->type != DV_SWEEP_STALL ? SW_JSON_NUMBER : SW_JSON_STRING;
}

static void json_str(sbuf_t *b, const char *s, size_t len)
{
    char esc[8];
    sb_str(b, "\"");
    for (size_t i = 0; i < len; i++) {
        const unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\' || c < 0x20) {
            snprintf(esc, sizeof esc, c == '"' || c == '\\' ? "\\%c" : "\\u%04x", c);
            sb_str(b, esc);
        } else {
            sb_add(b, &s[i], 1);
        }
    }
    sb_str(b, "\"");
}

int sw_json_line(const char *header, const char *row, char **out, dv_error_t *err)
{
    sbuf_t b = {0};
    char name[160];
    const char *h = header, *v = row;
    sb_str(&b, "{");
    for (int i = 0; *h; i++) {
        const size_t hn = strcspn(h, ","), vn = strcspn(v, ",");
        snprintf(name, sizeof name, "%.*s", (int)(hn < sizeof name ? hn : sizeof name - 1), h);
        if (i)
            sb_str(&b, ",");
        json_str(&b, h, hn);
        sb_str(&b, ":");
        if (vn == 0)
            sb_str(&b, "null");
        else if (column_kind(name) == SW_JSON_STRING)
            json_str(&b, v, vn);
        else
            sb_add(&b, v, vn);
        h += hn + (h[hn] == ',');
        v += vn + (v[vn] == ',');
    }
    sb_str(&b, "}\n");
    return sb_done(&b, out, err);
}

static int cmp_rows(const void *a, const void *b)
{
    const uint64_t x = **(const uint64_t *const *)a, y = **(const uint64_t *const *)b;
    return x < y ? -1 : x > y;
}

int sw_rows_write_sorted(const char *dir, sw_rows_t *rows, dv_error_t *err)
{
    char path[DV_SWEEP_PATH_MAX + 32];
    sbuf_t c = {0}, j = {0};
    uint64_t **order = calloc(rows->n ? rows->n : 1, sizeof *order);
    int rc = DV_OK;
    if (!order)
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (uint64_t i = 0; i < rows->n; i++)
        order[i] = &rows->point[i];
    qsort(order, rows->n, sizeof *order, cmp_rows);
    sb_str(&c, rows->header);
    sb_str(&c, "\n");
    sb_str(&j, "");
    for (uint64_t k = 0; k < rows->n && rc == DV_OK; k++) {
        const char *line = rows->line[order[k] - rows->point];
        char *js;
        sb_str(&c, line);
        sb_str(&c, "\n");
        if ((rc = sw_json_line(rows->header, line, &js, err)) == DV_OK) {
            sb_str(&j, js);
            free(js);
        }
    }
    if (rc == DV_OK && (c.oom || j.oom))
        rc = dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    if (rc == DV_OK) {
        join(path, sizeof path, dir, "results.csv");
        rc = sw_write_atomic(path, c.p, c.n, err);
    }
    if (rc == DV_OK) {
        join(path, sizeof path, dir, "results.jsonl");
        rc = sw_write_atomic(path, j.p, j.n, err);
    }
    free(c.p);
    free(j.p);
    free(order);
    return rc;
}

/* ---------------------------------------------------------------- the manifest */

static const char manifest_banner[] =
    "# dvsim sweep directory (docs/SWEEP.md): `dvsim sweep` resumes into it and `dvsim sweep --merge`\n"
    "# reads it; the points hash tells which sweep its rows belong to.  Written by dvsim; do not edit.\n";

int sw_manifest_write(const char *dir, const sw_manifest_t *m, dv_error_t *err)
{
    char path[DV_SWEEP_PATH_MAX + 32], text[DV_SWEEP_PATH_MAX + 512];
    const int n = snprintf(text, sizeof text, "%sformat 1\nspec %s\npoints %llu\npoints_hash %016llx\nshard %u/%u\n",
                           manifest_banner, m->spec, (unsigned long long)m->points, (unsigned long long)m->hash,
                           m->shard, m->nshards);
    join(path, sizeof path, dir, "sweep.txt");
    return sw_write_atomic(path, text, (size_t)n, err);
}

int sw_manifest_read(const char *dir, sw_manifest_t *m, bool *exists, dv_error_t *err)
{
    char path[DV_SWEEP_PATH_MAX + 32], *text;
    size_t len;
    int have = 0;
    memset(m, 0, sizeof *m);
    join(path, sizeof path, dir, "sweep.txt");
    *exists = access(path, F_OK) == 0;
    if (!*exists)
        return DV_OK;
    int rc = dv_read_file(path, "the sweep manifest", &text, &len, err);
    if (rc != DV_OK)
        return rc;
    int line = 0;
    for (char *save = NULL, *ln = strtok_r(text, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
        unsigned long long v;
        unsigned a, b;
        line++;
        if (ln[0] == '#')
            continue;
        if (strncmp(ln, "spec ", 5) == 0)
            snprintf(m->spec, sizeof m->spec, "%s", ln + 5), have |= 1;
        else if (sscanf(ln, "points %llu", &v) == 1)
            m->points = v, have |= 2;
        else if (sscanf(ln, "points_hash %llx", &v) == 1)
            m->hash = v, have |= 4;
        else if (sscanf(ln, "shard %u/%u", &a, &b) == 2 && a >= 1 && a <= b)
            m->shard = a, m->nshards = b, have |= 8;
        else if (strcmp(ln, "format 1") != 0) {
            rc = dv_error_set(err, DV_ERR_PARSE, path, line, 0, "unexpected line '%.60s' (a sweep.txt written by "
                              "another dvsim version?)", ln);
            break;
        }
    }
    free(text);
    if (rc == DV_OK && have != 15)
        rc = dv_error_set(err, DV_ERR_PARSE, path, 0, 0, "incomplete sweep manifest (spec, points, points_hash and "
                          "shard are needed)");
    return rc;
}
