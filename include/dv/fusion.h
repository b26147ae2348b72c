/* dv/fusion.h - the fusion study: an operator graph (dv/graph.h) run unfused (one kernel per node)
 * and fused (graph rewrites, then one kernel per fusion group), with what each variant costs.
 * docs/FUSION.md explains the rules; `dvsim fusion GRAPH` is the command.
 *
 * The data path of a study is the one of a run, twice:
 *   1. graph     fusion/graph.c    the file, checked, shapes inferred
 *   2. rewrite   fusion/fold.c     graph fusion: algebraic rewrites (BatchNorm folded into a conv)
 *   3. plan      fusion/plan.c     UB fusion: groups, their tiles and the verdict of each
 *   4. kernels   fusion/kernel.c   one composed kernel per fused group (ops' tile code, dv/ops.h)
 *   5. run       fusion/run.c      both variants on one model each, kernel after kernel, L2 kept
 *   6. check     fusion/run.c      fused outputs against unfused outputs (dtype tolerance)
 *   7. report    fusion/report.c   text, JSON and SVG */
#ifndef DV_FUSION_H
#define DV_FUSION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dv/error.h"
#include "dv/config.h"
#include "dv/graph.h"
#include "dv/model.h"
#include "dv/ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- 2. graph fusion: algebraic rewrites ---- */
#define DV_FOLD_MAX 16

/* One rewrite: node `node` of the rewritten graph replaces nodes src[0..nsrc) of the original; its
 * own arguments (dv_op_plan_t.own_args) are computed from theirs, so a run with data gives the
 * rewritten graph the original's numbers (within the dtype tolerance). */
typedef struct dv_fold dv_fold_t;
struct dv_fold {
    char what[160];                /* "batchnorm 'bn1' folded into conv2d 'conv1': w' = w*s, b' = (b-mean)*s+beta" */
    int node;                      /* in the rewritten graph */
    int nsrc;
    int src[2];                    /* in the original graph */
    double eps;                    /* a batchnorm fold: the batchnorm's --eps (its arguments do not carry it) */
    /* Fill dst_args (the rewritten node's own arguments, plan order, zeroed, NULL for the others)
     * from the original nodes' arguments (src_args[s][i], plan order; own arguments filled). */
    int (*derive)(const dv_fold_t *f, const dv_op_plan_t *dst_plan, uint8_t *const *dst_args,
                  const dv_op_plan_t *const *src_plans, uint8_t *const *const *src_args, dv_error_t *err);
};

typedef struct dv_folds {
    int n;
    dv_fold_t f[DV_FOLD_MAX];
    int node_map[DV_GRAPH_MAX_NODES]; /* original node -> rewritten node that computes its value, or -1 */
} dv_folds_t;

/* Apply every rewrite that holds (docs/FUSION.md lists them): *out is the rewritten graph, folds
 * says what changed.  With no rewrite *out is a copy of g. */
int dv_fusion_fold(const dv_graph_t *g, const dv_config_t *cfg, dv_graph_t *out, dv_folds_t *folds, dv_error_t *err);

/* ---- 3. UB fusion: the plan ---- */
#define DV_FUSION_MAX_GROUPS DV_GRAPH_MAX_NODES
#define DV_GROUP_MAX_NODES 16

typedef enum dv_group_kind {
    DV_GROUP_SINGLE,               /* one node, its own kernel */
    DV_GROUP_VECTOR,               /* element-wise / row-wise nodes: one vector kernel */
    DV_GROUP_CUBE_EPILOGUE         /* a cube node and its vector epilogue: one mix (910B) or cube (310) kernel */
} dv_group_kind_t;

typedef struct dv_fgroup {
    dv_group_kind_t kind;
    bool fused;                    /* runs as one kernel (else each node alone) */
    int nnodes;
    int nodes[DV_GROUP_MAX_NODES]; /* graph nodes, topological order */
    char reason[256];              /* why fused or not, for the report */
    uint64_t rows, cols;           /* the group's [rows, cols] view (dv/ops.h tiles) */
    uint64_t tile_rows, tile_cols, pitch; /* the fused kernel's tile */
    uint32_t depth;                /* buffers per queue: 2 (double buffering) when the event ids allow */
    uint64_t ub_bytes;             /* the fused kernel's UB working set per core */
    uint64_t est_unfused_bytes;    /* compulsory GM traffic of its nodes one by one */
    uint64_t est_fused_bytes;      /* and of the fused kernel */
    char epi_param[32];            /* a cube group fused through its head's own parameter (conv2d / matmul
                                    * --relu: ReLU on the way out of L0C), else "" */
} dv_fgroup_t;

typedef struct dv_fusion_opts {
    double min_saving;             /* fuse when 1 - fused / unfused traffic >= this (CANN: 0.3) */
    bool fuse;                     /* false: every group unfused (the baseline) */
} dv_fusion_opts_t;

typedef struct dv_fplan {
    int ngroups;
    dv_fgroup_t g[DV_FUSION_MAX_GROUPS];
} dv_fplan_t;

void dv_fusion_opts_default(dv_fusion_opts_t *o);

/* Partition g into groups by the rules of docs/FUSION.md and decide each group's tiling. */
int dv_fusion_plan(const dv_graph_t *g, const dv_config_t *cfg, const dv_fusion_opts_t *o, dv_fplan_t *p,
                   dv_error_t *err);

/* ---- 5-7. the study ---- */
/* What one kernel launch cost (from its counters, through dv_report_derive). */
typedef struct dv_fkstat {
    char name[DV_NAME_MAX * 2];    /* the node, or "fused: a+b+c" */
    int group;                     /* its group in the plan */
    dv_kind_t kind;
    uint32_t blocks;
    uint64_t cycles;               /* launch to the end of its last block (chip.kernel_start_cycles included) */
    double time_us;
    uint64_t gm_read_bytes, gm_write_bytes, hbm_read_bytes, hbm_write_bytes, l2_hits, l2_misses;
    uint64_t ub_peak_bytes, l1_peak_bytes, l0c_peak_bytes; /* max over cores */
    double ub_avg_bytes;           /* mean over the cores that ran, over their active time */
    double ratio[DV_PIPE_COUNT];   /* kernel-level busy ratios */
    int bound_by;                  /* pipe with the highest ratio, -1 if none */
    uint64_t hazards;              /* unsynchronised accesses the hazard checker found (data runs) */
    double ub_series[DV_OCC_SLICES]; /* UB occupancy over the kernel's time (dv_report_buf_series) */
} dv_fkstat_t;

/* A sum of kernels: one variant, or one group of it. */
typedef struct dv_fsum {
    uint32_t kernels;
    uint64_t hazards;
    uint64_t cycles;
    double time_us;
    uint64_t gm_read_bytes, gm_write_bytes, hbm_read_bytes, hbm_write_bytes, l2_hits, l2_misses;
    uint64_t ub_peak_bytes, l1_peak_bytes, l0c_peak_bytes;
    double ub_avg_bytes;           /* time-weighted over the kernels */
    double ratio[DV_PIPE_COUNT];   /* time-weighted over the kernels */
} dv_fsum_t;

#define DV_FUSION_MAX_KERNELS (2 * DV_GRAPH_MAX_NODES)

typedef struct dv_fvariant {
    int nkernels;
    dv_fkstat_t k[DV_FUSION_MAX_KERNELS];
    dv_fsum_t total;
    dv_fsum_t group[DV_FUSION_MAX_GROUPS];
} dv_fvariant_t;

typedef struct dv_fusion_study_opts {
    dv_fusion_opts_t plan;
    bool data;                     /* false: timing only (--no-data) */
    bool fold;                     /* graph fusion rewrites (default on) */
} dv_fusion_study_opts_t;

typedef struct dv_fusion_result {
    dv_config_t cfg;
    dv_graph_t graph;              /* as read */
    dv_graph_t rewritten;          /* after graph fusion; the plan's groups are of its nodes */
    dv_folds_t folds;
    dv_fplan_t plan;
    dv_fvariant_t unfused, fused;
    bool checked;                  /* data runs: fused outputs compared with the unfused ones */
    uint64_t compared, mismatches;
    dv_check_result_t check;       /* the output with the largest error */
} dv_fusion_result_t;

void dv_fusion_study_opts_default(dv_fusion_study_opts_t *o);

/* Run graph g (read with dv_graph_load) on profile cfg unfused and fused (steps 2-6 of the file
 * comment) and fill *r.  Errors name the node and kernel that failed; nothing in *r is meaningful
 * then. */
int dv_fusion_study(const dv_graph_t *g, const dv_config_t *cfg, const dv_fusion_study_opts_t *o,
                    dv_fusion_result_t *r, dv_error_t *err);

/* ---- the fused variant as launches, for a host program (dvsim/acl_graph.h) ---- */
#define DV_FUSION_MAX_ARGS 64
#define DV_FUSION_MAX_BUFS (DV_GRAPH_MAX_VALUES + DV_GRAPH_MAX_NODES * 9)

/* A GM argument of a launch: a graph input or output (by position in the file's `inputs` /
 * `outputs`), or a buffer of the build's workspace. */
typedef enum dv_fbuf_kind { DV_FBUF_INPUT, DV_FBUF_OUTPUT, DV_FBUF_WORKSPACE } dv_fbuf_kind_t;
typedef struct dv_fbuf_ref {
    dv_fbuf_kind_t kind;
    int index;                     /* input / output position, or workspace buffer */
} dv_fbuf_ref_t;

typedef struct dv_flaunch {
    dv_kernel_t *kernel;           /* owned by the build; may run any number of times */
    char name[DV_NAME_MAX * 2];    /* the node, or "fused:a+b+c" */
    char op[DV_NAME_MAX];          /* the operator, or "Fused" */
    uint32_t nargs;
    dv_fbuf_ref_t arg[DV_FUSION_MAX_ARGS];
} dv_flaunch_t;

/* A buffer the launches need besides the graph's inputs and outputs: an intermediate stored between
 * kernels, an operator's own argument (init: its bytes, as a study initialises them), a workspace
 * (init NULL: no contents needed). */
typedef struct dv_fwsbuf {
    uint64_t offset, bytes;        /* in the workspace, DV_GM_ALIGN-aligned */
    const uint8_t *init;           /* owned by the build */
} dv_fwsbuf_t;

typedef struct dv_fbuild {
    int nlaunches;
    dv_flaunch_t launch[DV_FUSION_MAX_KERNELS];
    int ninputs, noutputs;
    uint64_t input_bytes[DV_GRAPH_MAX_VALUES], output_bytes[DV_GRAPH_MAX_OUTPUTS];
    int nbufs;
    dv_fwsbuf_t buf[DV_FUSION_MAX_BUFS];
    uint64_t workspace_bytes;
    dv_fplan_t plan;
    dv_folds_t folds;
    void *priv;
} dv_fbuild_t;

/* Steps 2-4 of a study for the fused variant only: the kernels a host program launches, in order,
 * with what each argument is.  Free with dv_fusion_build_free. */
int dv_fusion_build(const dv_graph_t *g, const dv_config_t *cfg, const dv_fusion_study_opts_t *o, dv_fbuild_t **out,
                    dv_error_t *err);
void dv_fusion_build_free(dv_fbuild_t *b);

/* The study's two headline figures, for the whole graph (r->unfused.total, r->fused.total) or a
 * group: unfused time / fused time (0 when the fused time is 0), and 1 - fused GM bytes / unfused
 * GM bytes (GM bytes: read + written by the DMA engines; 0 when the unfused moved none). */
double dv_fusion_speedup(const dv_fsum_t *unfused, const dv_fsum_t *fused);
double dv_fusion_traffic_reduction(const dv_fsum_t *unfused, const dv_fsum_t *fused);
/* L2 hits / accesses of a sum of kernels, 0 when nothing reached the L2. */
double dv_fusion_l2_hit_rate(const dv_fsum_t *s);
/* The whole graph's verdict, "fuse" or "keep", with its reason in why: fuse when a rewrite or a
 * fused group changes the graph and the fused variant is faster. */
const char *dv_fusion_verdict(const dv_fusion_result_t *r, char *why, size_t cap);

/* The report: text (per group and for the whole graph), JSON (docs/FUSION.md's schema), SVG. */
int dv_fusion_print(const dv_fusion_result_t *r, FILE *out);
int dv_fusion_write_json(const dv_fusion_result_t *r, FILE *out);
int dv_fusion_write_svg(const dv_fusion_result_t *r, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
