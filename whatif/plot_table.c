/* whatif/plot_table.c - step 1 of a plot: the results CSV as a table of text cells (dv/plot.h).
 * The text is copied once and every field is unquoted in place: a quoted field only shrinks, so
 * the write position never passes the read position. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dv/file.h"
#include "dv/plot.h"

typedef struct csv_reader {
    char *p, *end; /* read position */
    int line, col; /* of p */
    const char *file;
    dv_error_t *err;
} csv_reader_t;

static void advance(csv_reader_t *r)
{
    if (*r->p == '\n') {
        r->line++;
        r->col = 1;
    } else {
        r->col++;
    }
    r->p++;
}

static bool at_eol(const csv_reader_t *r)
{
    return r->p == r->end || *r->p == '\n' || (*r->p == '\r' && (r->p + 1 == r->end || r->p[1] == '\n'));
}

static bool blank_line(const csv_reader_t *r) { return at_eol(r); }

/* Past the line end at r->p ("\r\n", "\n" or a "\r" that ends the text). */
static void skip_eol(csv_reader_t *r)
{
    if (r->p < r->end && *r->p == '\r')
        advance(r);
    if (r->p < r->end && *r->p == '\n')
        advance(r);
}

/* One field at r->p, unquoted into place from *field up to *fend (which the caller terminates
 * once it has read past the comma or line end that ends the field; it is never past them). */
static int read_field(csv_reader_t *r, char **field, char **fend)
{
    char *w = r->p;
    *field = *fend = w;
    if (r->p < r->end && *r->p == '"') {
        const int line = r->line, col = r->col;
        advance(r);
        for (;;) {
            if (r->p == r->end)
                return dv_error_set(r->err, DV_ERR_PARSE, r->file, line, col, "unterminated quoted field");
            if (*r->p == '"') {
                if (r->p + 1 < r->end && r->p[1] == '"') {
                    *w++ = '"';
                    advance(r);
                    advance(r);
                    continue;
                }
                advance(r);
                break;
            }
            *w++ = *r->p;
            advance(r);
        }
        if (!at_eol(r) && *r->p != ',')
            return dv_error_set(r->err, DV_ERR_PARSE, r->file, r->line, r->col,
                                "text after the closing quote of a field (a quote inside a field is doubled: \"\")");
    } else {
        while (!at_eol(r) && *r->p != ',') {
            if (*r->p == '"')
                return dv_error_set(r->err, DV_ERR_PARSE, r->file, r->line, r->col,
                                    "a quote inside an unquoted field (quote the whole field and double the quote)");
            w++;
            advance(r);
        }
    }
    *fend = w;
    return DV_OK;
}

/* v grown (doubling) to hold n + 1 entries of size bytes; NULL when out of memory (v is kept). */
static void *grow(void *v, int *cap, int n, size_t size)
{
    if (n < *cap)
        return v;
    const int nc = *cap ? *cap * 2 : 64;
    void *nv = realloc(v, (size_t)nc * size);
    if (nv)
        *cap = nc;
    return nv;
}

/* The fields of one record into `fields` (growing); *n their count.  Consumes the line end. */
static int read_record(csv_reader_t *r, char ***fields, int *cap, int *n)
{
    *n = 0;
    for (;;) {
        char *f, *fend;
        int rc = read_field(r, &f, &fend);
        if (rc != DV_OK)
            return rc;
        char **nf = grow(*fields, cap, *n, sizeof **fields);
        if (!nf)
            return dv_error_set(r->err, DV_ERR_NOMEM, r->file, r->line, 0, "out of memory");
        *fields = nf;
        (*fields)[(*n)++] = f;
        const bool comma = r->p < r->end && *r->p == ',';
        if (comma)
            advance(r);
        else
            skip_eol(r);
        *fend = '\0'; /* after the advance: the '\n' it may overwrite has counted its line */
        if (!comma)
            return DV_OK;
    }
}

int dv_plot_table_parse(dv_plot_table_t *t, const char *text, size_t len, const char *file, dv_error_t *err)
{
    char **fields = NULL;
    int fcap = 0, nf = 0, rcap = 0, rc = DV_OK;
    memset(t, 0, sizeof *t);
    snprintf(t->file, sizeof t->file, "%s", file);
    t->text = malloc(len + 1);
    if (!t->text)
        return dv_error_set(err, DV_ERR_NOMEM, file, 0, 0, "out of memory");
    memcpy(t->text, text, len);
    t->text[len] = '\0';
    csv_reader_t r = {t->text, t->text + len, 1, 1, t->file, err};
    /* skip a UTF-8 byte-order mark and blank lines before the header */
    if (len >= 3 && memcmp(r.p, "\xEF\xBB\xBF", 3) == 0)
        r.p += 3;
    while (r.p < r.end && blank_line(&r))
        skip_eol(&r);
    if (r.p == r.end) {
        rc = dv_error_set(err, DV_ERR_PARSE, file, 0, 0, "empty file: no header line (a results.csv starts with "
                          "the column names: point,workload,...)");
        goto cleanup;
    }
    const int hline = r.line;
    if ((rc = read_record(&r, &fields, &fcap, &nf)) != DV_OK)
        goto cleanup;
    t->ncols = nf;
    t->col = malloc((size_t)nf * sizeof *t->col);
    if (!t->col) {
        rc = dv_error_set(err, DV_ERR_NOMEM, file, 0, 0, "out of memory");
        goto cleanup;
    }
    for (int i = 0; i < nf; i++) {
        t->col[i] = fields[i];
        if (!fields[i][0]) {
            rc = dv_error_set(err, DV_ERR_PARSE, file, hline, 0, "column %d of the header has no name", i + 1);
            goto cleanup;
        }
        for (int j = 0; j < i; j++)
            if (strcmp(t->col[j], fields[i]) == 0) {
                rc = dv_error_set(err, DV_ERR_PARSE, file, hline, 0,
                                  "column '%s' appears twice in the header (columns %d and %d)", fields[i], j + 1, i + 1);
                goto cleanup;
            }
    }
    int ccap = 0;
    while (r.p < r.end) {
        if (blank_line(&r)) {
            skip_eol(&r);
            continue;
        }
        const int line = r.line;
        if ((rc = read_record(&r, &fields, &fcap, &nf)) != DV_OK)
            goto cleanup;
        if (nf != t->ncols) {
            rc = dv_error_set(err, DV_ERR_PARSE, file, line, 0, "%d field%s, but the header has %d columns", nf,
                              nf == 1 ? "" : "s", t->ncols);
            goto cleanup;
        }
        int *nl = grow(t->line, &rcap, t->nrows, sizeof *t->line);
        if (!nl) {
            rc = dv_error_set(err, DV_ERR_NOMEM, file, 0, 0, "out of memory");
            goto cleanup;
        }
        t->line = nl;
        while (ccap < (t->nrows + 1) * t->ncols) {
            const int nc = ccap ? ccap * 2 : 64 * t->ncols;
            char **nv = realloc(t->cell, (size_t)nc * sizeof *t->cell);
            if (!nv) {
                rc = dv_error_set(err, DV_ERR_NOMEM, file, 0, 0, "out of memory");
                goto cleanup;
            }
            t->cell = nv;
            ccap = nc;
        }
        memcpy(t->cell + (size_t)t->nrows * (size_t)t->ncols, fields, (size_t)nf * sizeof *fields);
        t->line[t->nrows++] = line;
    }
cleanup:
    free(fields);
    if (rc != DV_OK)
        dv_plot_table_free(t);
    return rc;
}

int dv_plot_table_read(dv_plot_table_t *t, const char *path, dv_error_t *err)
{
    char csv[4096];
    struct stat st;
    char *text = NULL;
    int rc = DV_OK;
    memset(t, 0, sizeof *t);
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(csv, sizeof csv, "%s%sresults.csv", path, path[0] && path[strlen(path) - 1] == '/' ? "" : "/");
        if (stat(csv, &st) != 0)
            return dv_error_set(err, DV_ERR_IO, path, 0, 0, "no results.csv in this directory (dvsim sweep --out DIR "
                                "writes DIR/results.csv)");
    } else {
        snprintf(csv, sizeof csv, "%s", path);
    }
    size_t len;
    if ((rc = dv_read_file(csv, NULL, &text, &len, err)) != DV_OK)
        return rc;
    rc = dv_plot_table_parse(t, text, len, csv, err);
    free(text);
    return rc;
}

void dv_plot_table_free(dv_plot_table_t *t)
{
    free(t->col);
    free(t->cell);
    free(t->line);
    free(t->text);
    t->col = t->cell = NULL;
    t->line = NULL;
    t->text = NULL;
    t->ncols = t->nrows = 0;
}

int dv_plot_table_col(const dv_plot_table_t *t, const char *name)
{
    for (int i = 0; i < t->ncols; i++)
        if (strcmp(t->col[i], name) == 0)
            return i;
    return -1;
}

int dv_plot_number(const char *cell, double *v, bool *boolean)
{
    while (*cell == ' ')
        cell++;
    size_t n = strlen(cell);
    while (n && cell[n - 1] == ' ')
        n--;
    *boolean = false;
    if (n == 4 && strncmp(cell, "true", 4) == 0) {
        *v = 1;
        *boolean = true;
        return 0;
    }
    if (n == 5 && strncmp(cell, "false", 5) == 0) {
        *v = 0;
        *boolean = true;
        return 0;
    }
    if (n == 0 || n > 63)
        return -1;
    char buf[64], *end;
    memcpy(buf, cell, n);
    buf[n] = '\0';
    /* decimal only: strtod would also take hex, inf and nan */
    for (size_t i = 0; i < n; i++)
        if (!strchr("0123456789+-.eE", buf[i]))
            return -1;
    *v = strtod(buf, &end);
    return *end == '\0' && isfinite(*v) ? 0 : -1;
}
