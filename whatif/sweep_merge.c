/* whatif/sweep_merge.c - merging the shard directories of one sweep (dv_sweep_merge) into a new
 * sweep directory, as if one machine had run them: the same manifest with shard 1/1, the spec and
 * the points, and every row once, sorted by point.  The shards must agree on the points hash and
 * the columns; a point found twice is an error, a point found nowhere is reported. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dv/file.h"
#include "sweep_internal.h"

typedef struct points_file {
    char *text;
    size_t len;
    char *header;                 /* point,workload,<axes> */
    char **line;                  /* line[p]: "p,workload,v1,..." */
} points_file_t;

static int points_read(const char *dir, uint64_t npoints, points_file_t *pf, dv_error_t *err)
{
    char path[DV_SWEEP_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/points.csv", dir);
    memset(pf, 0, sizeof *pf);
    int rc = dv_read_file(path, "the points", &pf->text, &pf->len, err);
    if (rc != DV_OK)
        return rc;
    if (!(pf->line = calloc(npoints ? npoints : 1, sizeof *pf->line)))
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    uint64_t n = 0;
    char *save = NULL;
    for (char *ln = strtok_r(pf->text, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
        if (!pf->header) {
            pf->header = ln;
            continue;
        }
        if (n == npoints || strtoull(ln, NULL, 10) != n || sw_csv_fields(ln) != sw_csv_fields(pf->header))
            return dv_error_set(err, DV_ERR_PARSE, path, (int)n + 2, 0, "expected point %llu of %llu",
                                (unsigned long long)n, (unsigned long long)npoints);
        pf->line[n++] = ln;
    }
    if (n != npoints || !pf->header)
        return dv_error_set(err, DV_ERR_PARSE, path, 0, 0, "has %llu points, sweep.txt says %llu",
                            (unsigned long long)n, (unsigned long long)npoints);
    return DV_OK;
}

static void points_free(points_file_t *pf)
{
    free(pf->line);
    free(pf->text);
}

/* The results header for these points: theirs, then the metric columns. */
static char *results_header(const char *points_header)
{
    int n;
    const dv_sweep_metric_t *m = dv_sweep_metrics(&n);
    size_t len = strlen(points_header) + 1;
    for (int i = 0; i < n; i++)
        len += strlen(m[i].name) + 1;
    char *h = malloc(len);
    if (!h)
        return NULL;
    size_t k = (size_t)snprintf(h, len, "%s", points_header);
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(h + k, len - k, ",%s", m[i].name);
    return h;
}

static bool same_dir(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int dv_sweep_merge(const char *out, const char *const *dirs, int n, dv_sweep_merge_summary_t *sum, dv_error_t *err)
{
    char path[DV_SWEEP_PATH_MAX + 32];
    sw_manifest_t m0, m;
    points_file_t pf = {0};
    sw_rows_t all = {0}, rows;
    int *owner = NULL;
    char *spec = NULL;
    size_t spec_len = 0;
    bool exists;
    int rc = DV_OK;
    memset(sum, 0, sizeof *sum);
    if (n < 1)
        return dv_error_set(err, DV_ERR_PARSE, NULL, 0, 0, "sweep --merge: no directory to merge");

    /* the manifests: one sweep */
    for (int i = 0; i < n; i++) {
        if ((rc = sw_manifest_read(dirs[i], i ? &m : &m0, &exists, err)) != DV_OK)
            return rc;
        if (!exists)
            return dv_error_set(err, DV_ERR_STATE, dirs[i], 0, 0, "not a sweep directory (no sweep.txt)");
        if (i && (m.hash != m0.hash || m.points != m0.points))
            return dv_error_set(err, DV_ERR_STATE, dirs[i], 0, 0, "holds another sweep than %s (points hash %016llx, "
                                "%llu points; %s has %016llx, %llu points)", dirs[0], (unsigned long long)m.hash,
                                (unsigned long long)m.points, dirs[0], (unsigned long long)m0.hash,
                                (unsigned long long)m0.points);
        if (same_dir(out, dirs[i]))
            return dv_error_set(err, DV_ERR_STATE, out, 0, 0, "is one of the directories to merge; merge into a new "
                                "directory");
    }
    snprintf(path, sizeof path, "%s/sweep.txt", out);
    exists = access(path, F_OK) == 0;
    snprintf(path, sizeof path, "%s/results.csv", out);
    if (exists || access(path, F_OK) == 0)
        return dv_error_set(err, DV_ERR_STATE, out, 0, 0, "holds a sweep already; merge into a new directory");
    sum->points = m0.points;

    /* the points, and every directory's rows */
    if ((rc = points_read(dirs[0], m0.points, &pf, err)) != DV_OK)
        goto cleanup;
    if (!(all.header = results_header(pf.header)) || !(owner = calloc(m0.points ? m0.points : 1, sizeof *owner)) ||
        !(all.point = calloc(m0.points ? m0.points : 1, sizeof *all.point)) ||
        !(all.line = calloc(m0.points ? m0.points : 1, sizeof *all.line))) {
        rc = dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
        goto cleanup;
    }
    const int ncols = sw_csv_fields(all.header);
    for (int i = 0; i < n && rc == DV_OK; i++) {
        if (i)
            sw_manifest_read(dirs[i], &m, &exists, NULL);
        else
            m = m0;
        snprintf(path, sizeof path, "%s/results.csv", dirs[i]);
        if ((rc = sw_rows_read(path, m0.points, ncols, &rows, err)) != DV_OK)
            break;
        if (rows.header && strcmp(rows.header, all.header) != 0)
            rc = dv_error_set(err, DV_ERR_STATE, path, 1, 0, "its columns differ from those this dvsim writes (a "
                              "results.csv of another dvsim version?)");
        for (uint64_t k = 0; rc == DV_OK && k < rows.n; k++) {
            const uint64_t p = rows.point[k];
            const size_t len = strlen(pf.line[p]);
            if (p % m.nshards != m.shard - 1 || strncmp(rows.line[k], pf.line[p], len) != 0 ||
                rows.line[k][len] != ',')
                rc = dv_error_set(err, DV_ERR_STATE, path, 0, 0, "the row of point %llu is not point %llu of shard "
                                  "%u/%u (%s); the file was edited?", (unsigned long long)p, (unsigned long long)p,
                                  m.shard, m.nshards, pf.line[p]);
            else if (owner[p])
                rc = dv_error_set(err, DV_ERR_STATE, path, 0, 0, "point %llu is also in %s: the directories overlap "
                                  "(the same shard twice?)", (unsigned long long)p, dirs[owner[p] - 1]);
            else {
                owner[p] = i + 1;
                all.point[all.n] = p;
                all.line[all.n++] = rows.line[k];
                rows.line[k] = NULL;
            }
        }
        sw_rows_free(&rows);
    }
    if (rc != DV_OK)
        goto cleanup;

    /* the merged directory */
    snprintf(path, sizeof path, "%s/spec.yaml", dirs[0]);
    if ((rc = dv_read_file(path, "the spec copy", &spec, &spec_len, err)) != DV_OK ||
        (rc = sw_mkdirs(out, err)) != DV_OK)
        goto cleanup;
    snprintf(path, sizeof path, "%s/spec.yaml", out);
    if ((rc = sw_write_atomic(path, spec, spec_len, err)) != DV_OK)
        goto cleanup;
    snprintf(path, sizeof path, "%s/points.csv", dirs[0]);
    free(spec);
    if ((rc = dv_read_file(path, "the points", &spec, &spec_len, err)) != DV_OK)
        goto cleanup;
    snprintf(path, sizeof path, "%s/points.csv", out);
    m0.shard = m0.nshards = 1;
    if ((rc = sw_write_atomic(path, spec, spec_len, err)) != DV_OK || (rc = sw_rows_write_sorted(out, &all, err)) ||
        (rc = sw_manifest_write(out, &m0, err)) != DV_OK)
        goto cleanup;
    sum->rows = all.n;
    for (uint64_t p = 0; p < m0.points; p++)
        if (!owner[p]) {
            const size_t k = strlen(sum->missing_list);
            if (k + 24 < sizeof sum->missing_list)
                snprintf(sum->missing_list + k, sizeof sum->missing_list - k, "%s%llu", sum->missing ? ", " : "",
                         (unsigned long long)p);
            else if (!strstr(sum->missing_list, "..."))
                snprintf(sum->missing_list + k, sizeof sum->missing_list - k, ", ...");
            sum->missing++;
        }

cleanup:
    free(spec);
    free(owner);
    sw_rows_free(&all);
    points_free(&pf);
    return rc;
}
