/* whatif/sweep_internal.h - what the files of the sweep share and nobody else needs. */
#ifndef DV_SWEEP_INTERNAL_H
#define DV_SWEEP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dv/fusion.h"
#include "dv/graph.h"
#include "dv/ops.h"
#include "dv/report.h"
#include "dv/sweep.h"

/* ---- whatif/sweep_spec.c ---- */
/* What an op workload keeps from its string: the operator and its parsed parameters. */
typedef struct sw_op {
    const dv_opdesc_t *op;
    dv_opvals_t vals;
} sw_op_t;

/* FNV-1a, 64 bits: the points hash and the file contents in it. */
#define SW_FNV_OFFSET 0xcbf29ce484222325ull
uint64_t sw_fnv(uint64_t h, const void *data, size_t len);

/* ---- whatif/sweep_metrics.c ---- */
/* Fill a row from a run's derived report (an op or a trace). */
void sw_metrics_from_report(const dv_report_t *r, dv_sweep_row_t *row);
/* Fill a row from a fusion study: the fused variant's totals, speedup and traffic reduction. */
void sw_metrics_from_fusion(const dv_fusion_result_t *f, dv_sweep_row_t *row);

/* ---- whatif/sweep_dir.c: the sweep directory ---- */
/* The header of results.csv: point, workload, the axis keys, the metric columns. */
int sw_header(const dv_sweep_t *s, char **out, dv_error_t *err);

/* Column kinds of a results.csv header, for the JSON twin. */
typedef enum sw_json_kind { SW_JSON_NUMBER, SW_JSON_STRING, SW_JSON_BOOL } sw_json_kind_t;

/* A sweep directory's manifest (DIR/sweep.txt). */
typedef struct sw_manifest {
    uint64_t hash;                    /* dv_sweep_t.hash */
    uint64_t points;                  /* of the whole sweep */
    uint32_t shard, nshards;
    char spec[DV_SWEEP_PATH_MAX];     /* the spec file the sweep was run from */
} sw_manifest_t;

/* Rows of a results.csv, keyed by point. */
typedef struct sw_rows {
    char *header;                     /* the first line, without its newline (owned) */
    uint64_t n, cap;
    uint64_t *point;
    char **line;                      /* each row without its newline (owned) */
    uint64_t dropped_partial;         /* an incomplete last line was dropped */
    size_t good_bytes;                /* the file's bytes up to the end of the last complete line */
} sw_rows_t;

void sw_rows_free(sw_rows_t *r);
/* Read DIR/results.csv (absent: no rows, header NULL).  A last line without its newline (an
 * interrupted write) is dropped and counted; any other malformed line, a point >= npoints or a point
 * twice is an error at file:line. */
int sw_rows_read(const char *path, uint64_t npoints, int ncols, sw_rows_t *r, dv_error_t *err);
/* The JSON line of a CSV row under header (column kinds from the schema and the metric table). */
int sw_json_line(const char *header, const char *row, char **out, dv_error_t *err);

int sw_manifest_read(const char *dir, sw_manifest_t *m, bool *exists, dv_error_t *err);
int sw_manifest_write(const char *dir, const sw_manifest_t *m, dv_error_t *err);
/* Write path atomically (a temporary file renamed over it). */
int sw_write_atomic(const char *path, const char *text, size_t len, dv_error_t *err);
/* Rewrite DIR/results.csv and DIR/results.jsonl from rows, sorted by point. */
int sw_rows_write_sorted(const char *dir, sw_rows_t *rows, dv_error_t *err);
/* mkdir -p */
int sw_mkdirs(const char *dir, dv_error_t *err);
/* DIR/points.csv: every point of the sweep (point, workload, the axis values). */
int sw_points_write(const char *dir, const dv_sweep_t *s, dv_error_t *err);
/* Count the fields of a CSV line (no quoting: dvsim never writes a comma inside a field). */
int sw_csv_fields(const char *line);

#endif
