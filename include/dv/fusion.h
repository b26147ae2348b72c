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
    uint64_t ub_bytes;             /* the fused kernel's UB working set per core */
    uint64_t est_unfused_bytes;    /* compulsory GM traffic of its nodes one by one */
    uint64_t est_fused_bytes;      /* and of the fused kernel */
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

#ifdef __cplusplus
}
#endif
#endif
