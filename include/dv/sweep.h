/* dv/sweep.h - architecture what-if sweeps: one spec file (docs/SWEEP.md) names a base profile,
 * workloads (operators, traces, fusion graphs) and axes over keys of the profile schema; every
 * point (workload x combination of axis values) runs timing-only, and its metrics become one row of
 * DIR/results.csv and one line of DIR/results.jsonl.  `dvsim sweep` is the command.
 *
 * The data path of a sweep:
 *   1. spec      whatif/sweep_spec.c     the file, checked; the points expanded; every point's
 *                                        profile and workload validated before anything runs
 *   2. run       whatif/sweep_run.c      worker processes run the points in-process through the
 *                                        driver (dv_sim_execute, dv_fusion_study) and report to
 *                                        the parent through pipes; resume, shards, progress
 *   3. metrics   whatif/sweep_metrics.c  one table: the report's metrics as the columns of a row
 *   4. files     whatif/sweep_dir.c      the sweep directory: results.csv / .jsonl, the manifest,
 *                                        reading it back (resume) and merging shard directories */
#ifndef DV_SWEEP_H
#define DV_SWEEP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dv/error.h"
#include "dv/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- 1. the spec ---- */
#define DV_SWEEP_MAX_POINTS 1000000u   /* workloads x combinations */
#define DV_SWEEP_MAX_AXIS_VALUES 10000
#define DV_SWEEP_VALUE_MAX 40          /* an axis value as text ("524288", "true", "split") */
#define DV_SWEEP_PATH_MAX 1024

typedef enum dv_sweep_kind { DV_SWEEP_OP, DV_SWEEP_TRACE, DV_SWEEP_FUSION } dv_sweep_kind_t;

typedef struct dv_sweep_workload {
    char name[64];
    dv_sweep_kind_t kind;
    char source[512];                 /* as written: the op string, or the trace / graph path */
    char path[DV_SWEEP_PATH_MAX];     /* trace / graph: the file found (spec's directory, else cwd) */
    int line;                         /* of the workload's entry in the spec */
    int argc;                         /* op: the string split at blanks: argv[0] the operator's name, */
    char **argv;                      /*     then its parameters as typed (owned) */
    void *priv;                       /* the operator, or the loaded graph (owned) */
} dv_sweep_workload_t;

typedef struct dv_sweep_axis {
    char key[128];                    /* "section.key" of configs/params.def */
    const dv_param_spec_t *param;
    int line;                         /* of the key in the spec */
    int nvalues;
    char (*value)[DV_SWEEP_VALUE_MAX]; /* each value as a profile spells it (dv_param_format) */
    int *value_line;                  /* where each value was written (a range: its from:, steps: or to:) */
    uint64_t *slack;                  /* how far a range's value may move to make its points' profiles
                                       * valid (docs/SWEEP.md); 0 for a listed value */
} dv_sweep_axis_t;

typedef struct dv_sweep {
    char path[DV_SWEEP_PATH_MAX];     /* the spec file */
    char *text;                       /* its bytes (copied to DIR/spec.yaml) */
    size_t len;
    char profile[DV_SWEEP_PATH_MAX];  /* a preset name, or the profile file found */
    bool profile_is_file;
    dv_config_t base;                 /* the profile before the axes */
    int nworkloads;
    dv_sweep_workload_t *workload;
    int naxes;
    dv_sweep_axis_t *axis;
    bool zip;                         /* mode: zip (else cartesian) */
    uint64_t ncombos;                 /* combinations of axis values (1 without axes) */
    uint64_t npoints;                 /* nworkloads x ncombos */
    uint64_t hash;                    /* of everything that makes the points (docs/SWEEP.md) */
    char *notes;                      /* range values moved to valid ones, one line each, or NULL */
} dv_sweep_t;

/* Read, expand and validate a spec: the YAML, the keys, every workload (the operator string parsed
 * and planned, the trace or graph read) and every point (its profile built and validated, its
 * workload planned on it).  Every error is located at spec:line and names the axis or workload and
 * the point.  Free *out with dv_sweep_free (NULL on error). */
int dv_sweep_load(const char *path, dv_sweep_t **out, dv_error_t *err);
void dv_sweep_free(dv_sweep_t *s);

/* Point p (0 <= p < npoints) is workload p / ncombos with combination p % ncombos.  The value of
 * axis a at point p: */
const char *dv_sweep_value(const dv_sweep_t *s, uint64_t p, int a);
const dv_sweep_workload_t *dv_sweep_point_workload(const dv_sweep_t *s, uint64_t p);
/* "workload add, hbm.bytes_per_cycle=444, core.ub_size_bytes=131072" (for messages). */
void dv_sweep_describe(const dv_sweep_t *s, uint64_t p, char *buf, size_t cap);
/* The profile of point p: the base profile with the point's axis values, validated. */
int dv_sweep_profile(const dv_sweep_t *s, uint64_t p, dv_config_t *cfg, dv_error_t *err);

/* ---- 3. metrics: the columns after point, workload and the axes ---- */
typedef enum dv_sweep_type { DV_SWEEP_U64, DV_SWEEP_F64, DV_SWEEP_PIPE, DV_SWEEP_STALL } dv_sweep_type_t;

typedef struct dv_sweep_metric {
    const char *name;                 /* column name: "time_us", "ratio_MTE2" */
    dv_sweep_type_t type;             /* PIPE: a pipe name ("MTE2"); STALL: a cause of dv/stall.def ("flag:MTE2") */
    const char *unit;                 /* "us", "cycles", "bytes", "fraction", ... */
    const char *desc;
} dv_sweep_metric_t;

/* The metric columns in results.csv order (per-pipe rows expanded in the ISA's pipe order). */
const dv_sweep_metric_t *dv_sweep_metrics(int *count);
/* A metric column by name, NULL when none. */
const dv_sweep_metric_t *dv_sweep_metric_find(const char *name);

#define DV_SWEEP_CELL_MAX 32
/* One point's metric cells, as results.csv spells them ("" = does not apply to this workload). */
typedef struct dv_sweep_row {
    char (*cell)[DV_SWEEP_CELL_MAX];  /* dv_sweep_metrics' count of them */
} dv_sweep_row_t;

int dv_sweep_row_init(dv_sweep_row_t *r);
void dv_sweep_row_free(dv_sweep_row_t *r);

/* Run point p in this process, timing only, and fill its cells.  Errors name the point. */
int dv_sweep_point_run(const dv_sweep_t *s, uint64_t p, dv_sweep_row_t *row, dv_error_t *err);

/* ---- 2. running ---- */
typedef struct dv_sweep_opts {
    const char *out;                  /* the sweep directory; NULL: dv_sweep_default_dir */
    int jobs;                         /* worker processes; 0: the online CPUs */
    uint32_t shard, nshards;          /* run the points p with p % nshards == shard - 1 (1-based; 1/1 all) */
    FILE *progress;                   /* progress bar (a terminal) or lines; NULL: none */
} dv_sweep_opts_t;

typedef struct dv_sweep_summary {
    uint64_t points;                  /* in this shard */
    uint64_t done_before;             /* found finished in the directory */
    uint64_t ran;                     /* run now, successfully */
    uint64_t failed;                  /* run now, failed (reported on progress; rerun on resume) */
    uint64_t dropped_partial;         /* incomplete last rows dropped from results.csv */
} dv_sweep_summary_t;

void dv_sweep_opts_default(dv_sweep_opts_t *o);
/* "<spec file name without .yaml>_sweep" in the current directory, with "_shard<I>of<N>" for a
 * shard. */
void dv_sweep_default_dir(const dv_sweep_t *s, uint32_t shard, uint32_t nshards, char *buf, size_t cap);

/* Run every point of the shard that the directory does not hold yet, o->jobs at a time, appending
 * each row as it completes; at the end results.csv / .jsonl are rewritten sorted by point.  A
 * directory of another sweep (other points, another shard, other columns) is refused before
 * anything runs.  Points that fail are reported on o->progress and counted in sum->failed (the
 * status is then DV_ERR_STATE with the first failure in err); a rerun retries them. */
int dv_sweep_run(const dv_sweep_t *s, const dv_sweep_opts_t *o, dv_sweep_summary_t *sum, dv_error_t *err);

/* ---- 4. merging shard directories ---- */
typedef struct dv_sweep_merge_summary {
    uint64_t points;                  /* of the sweep */
    uint64_t rows;                    /* written to out */
    uint64_t missing;                 /* points no directory holds */
    char missing_list[256];           /* the first of them: "3, 7, 12, ..." */
} dv_sweep_merge_summary_t;

/* Merge the sweep directories dirs[0..n) (shards of one sweep: same points hash and columns, no
 * point twice) into the new sweep directory out (shard 1/1, rows sorted by point).  Missing points
 * are not an error: sum says which (running the spec with --out out then runs just those). */
int dv_sweep_merge(const char *out, const char *const *dirs, int n, dv_sweep_merge_summary_t *sum, dv_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
