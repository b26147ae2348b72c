/* fusion/internal.h - private to fusion/: the description of a composed kernel, which the planner
 * fills (fusion/plan.c, fusion/run.c) and the kernel reads (fusion/kernel.c). */
#ifndef DV_FUSION_INTERNAL_H
#define DV_FUSION_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "dv/fusion.h"
#include "dv/kapi.h"
#include "dv/ops.h"

#define FK_MAX_SLOTS (DV_GROUP_MAX_NODES * 2 + DV_TILE_MAX_IN)

/* A tensor of the group as the kernel holds it: one tile at a time in UB. */
typedef struct fk_slot {
    uint32_t dtype;          /* dv_dtype_t */
    int32_t gm_in;           /* GM argument its tiles are loaded from (an input of the group), or -1 */
    int32_t gm_out;          /* GM argument its tiles are stored to (needed outside the group), or -1 */
} fk_slot_t;

/* One operator of the group: its plan (as it would run alone) and where its tensors are. */
typedef struct fk_node {
    const dv_tile_ops_t *tile;
    dv_op_plan_t plan;
    uint32_t argmap[DV_OP_MAX_ARGS]; /* plan argument -> GM argument of the fused kernel */
    int nin;
    int in_slot[DV_TILE_MAX_IN];
    int out_slot;
} fk_node_t;

/* A composed vector kernel: the group's operators applied tile by tile to the [rows, cols] view.
 * Blocks take whole rows (a flat view, rows = 1, takes column ranges of `unit` columns). */
typedef struct dv_fkernel {
    uint32_t nnodes, nslots;
    fk_node_t node[DV_GROUP_MAX_NODES];
    fk_slot_t slot[FK_MAX_SLOTS];
    uint64_t rows, cols;             /* the view */
    uint64_t tile_rows, tile_cols;   /* per tile (tile_cols == cols unless the view is flat) */
    uint64_t pitch;                  /* elements per UB row */
    uint64_t align_elems;            /* pitch granule: 32 B of the group's narrowest dtype */
    uint64_t unit;                   /* flat view: block ranges are whole multiples of this */
    uint32_t depth;                  /* buffers per queue */
    /* A cube epilogue group: node[0] is the cube operator (its op->cube), head_slot its output,
     * which reaches the epilogue through a GM workspace ring on a split chip (ws_arg, `slots` tiles
     * per block, read by `aiv` AIVs that split each tile's rows) or straight from L0C on a coupled
     * core. */
    uint32_t cube;
    const dv_cube_ops_t *cube_ops;
    int head_slot;
    uint32_t split, aiv, ws_arg, slots;
    uint64_t bm, bn;                 /* the cube's largest tile */
} dv_fkernel_t;

enum { FK_DONE_FLAG = 0, FK_ACK_FLAG = 1, FK_WS_SLOTS = 4 };

/* The queues the kernel sets up: loaded (MTE2 -> V) and stored (V -> MTE3) tensors.  Each buffer
 * of a queue takes one event id of its pipe pair each way (sync.event_ids per pair). */
void dv_fkernel_queues(const dv_fkernel_t *f, uint32_t *in, uint32_t *out);

/* Bytes of the workspace ring of a split cube group with `blocks` blocks. */
uint64_t dv_fkernel_ws_bytes(const dv_fkernel_t *f, uint32_t blocks);

/* What a GM argument of a fused kernel is bound to. */
typedef enum dv_farg_kind { DV_FARG_VALUE, DV_FARG_OWN, DV_FARG_WS } dv_farg_kind_t;
typedef struct dv_fusion_argref {
    dv_farg_kind_t kind;
    int value;               /* DV_FARG_VALUE: the graph value */
    int node, arg;           /* DV_FARG_OWN: plan argument `arg` of graph node `node`; DV_FARG_WS: the
                              * workspace ring of the group headed by `node` */
    bool out;                /* written by the kernel */
} dv_fusion_argref_t;

/* Plan every node of g as it would run alone (errors name the node and line). */
int dv_fusion_plan_nodes(const dv_graph_t *g, const dv_config_t *cfg, dv_op_plan_t *plans, dv_error_t *err);
/* The plan argument that is a node's output (the first that is not DV_ARG_IN), -1 if none. */
int dv_fusion_out_arg(const dv_op_plan_t *p);
/* True when value v must be stored by group gr: a graph output or read by a node outside it. */
bool dv_fusion_value_escapes(const dv_graph_t *g, const dv_fgroup_t *gr, int v);
/* Fill the composed kernel of vector group gr (from its tiling) and the binding of each of its GM
 * arguments (refs[i]); returns the argument count. */
uint32_t dv_fusion_fkernel(const dv_graph_t *g, const dv_config_t *cfg, const dv_op_plan_t *plans, const dv_fgroup_t *gr,
                           uint32_t depth, dv_fkernel_t *f, dv_fusion_argref_t *refs);

/* UB bytes of the composed kernel for tiles of tile_rows x pitch (queues, scratch, every
 * operator's own buffers), each allocation rounded to core.ub_align_bytes. */
uint64_t dv_fkernel_ub_bytes(const dv_fkernel_t *f, const dv_config_t *cfg, uint64_t tile_rows, uint64_t pitch);

/* The kernel body (dv_kernel_fn); params is a dv_fkernel_t. */
void dv_fkernel_body(dv_k_t *k, const void *params);

#endif
