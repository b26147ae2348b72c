/* fusion/plan.c - UB fusion: partition a graph into fusion groups and decide each group's tiling.
 *
 * The rules (docs/FUSION.md states them for users):
 * 1. Candidates.  A node can join a vector group when its operator has tile code (dv_tile_ops_t),
 *    its kernel is a vector kernel and it writes one tensor (no workspace, no extra outputs).  A
 *    cube node (matmul, conv2d) heads a cube-epilogue group when its operator can take the
 *    following node as an epilogue (cube_epilogue_ok below).
 * 2. Growth.  Groups are formed in the graph's order: a group starts at the first unassigned node
 *    and takes every later unassigned node that is a candidate, has the group's element count and
 *    view (operators that fix a view must agree on [rows, cols]), and whose inputs are graph
 *    inputs, tensors of the group, or tensors of groups formed before (so the group's kernel can
 *    run where it starts).  Any graph, not only a chain: a node with two users inside the group
 *    keeps its tensor in UB for both; a tensor read outside the group or a graph output is stored.
 * 3. The 30 % rule.  A group of two or more nodes is fused when its compulsory GM traffic fused
 *    (inputs read once, its operators' own arguments, tensors stored) is at least min_saving below
 *    the nodes' own compulsory traffic one by one (CANN's rule of thumb, 30 %).
 * 4. The tile.  The UB must hold the group's working set: every input and stored tensor in a queue
 *    of `depth` buffers, every intermediate in one buffer, every operator's own scratch.  A view
 *    with rows tiles whole rows (the most rows that fit, at most a block's share); a flat view
 *    tiles the largest power of two of elements up to 16384 that fits.  When not even one row fits,
 *    the group is kept unfused and the reason names the bytes. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/topology.h"
#include "internal.h"

enum { FLAT_TILE_MAX = 16384, SPLIT_BYTES = 512 };

void dv_fusion_opts_default(dv_fusion_opts_t *o)
{
    o->min_saving = 0.3;
    o->fuse = true;
}

int dv_fusion_plan_nodes(const dv_graph_t *g, const dv_config_t *cfg, dv_op_plan_t *plans, dv_error_t *err)
{
    for (int n = 0; n < g->nnodes; n++) {
        const dv_gnode_t *nd = &g->nodes[n];
        dv_error_t e;
        memset(&e, 0, sizeof e);
        if (dv_ops_plan(nd->op, cfg, &nd->vals, &plans[n], &e) != DV_OK)
            return dv_error_set(err, e.code ? e.code : DV_ERR_RANGE, g->path, nd->line, 0, "node '%s' (%s): %s",
                                nd->name, nd->op->name, e.msg);
    }
    return DV_OK;
}

int dv_fusion_out_arg(const dv_op_plan_t *p)
{
    for (uint32_t i = 0; i < p->info.nargs; i++)
        if (p->args[i].dir != DV_ARG_IN)
            return (int)i;
    return -1;
}

static int out_args(const dv_op_plan_t *p)
{
    int n = 0;
    for (uint32_t i = 0; i < p->info.nargs; i++)
        n += p->args[i].dir != DV_ARG_IN;
    return n;
}

/* Why node n cannot join a vector group ("" when it can). */
static const char *vector_candidate(const dv_graph_t *g, const dv_op_plan_t *plans, int n)
{
    const dv_gnode_t *nd = &g->nodes[n];
    if (!nd->op->tile)
        return "has no tile code";
    if (plans[n].info.kind != DV_KIND_VECTOR)
        return "is not a vector kernel";
    if (out_args(&plans[n]) != 1)
        return "writes more than one tensor";
    return "";
}

/* The view a vector node imposes (rows, cols), or the flat view of its element count. */
static bool node_view(const dv_graph_t *g, const dv_op_plan_t *plans, int n, uint64_t *rows, uint64_t *cols)
{
    const dv_gnode_t *nd = &g->nodes[n];
    if (nd->op->tile && (nd->op->tile->flags & DV_TILE_VIEW) && nd->op->tile->view) {
        nd->op->tile->view(&plans[n], rows, cols);
        return true;
    }
    *rows = 1;
    *cols = dv_shape_elems(&g->values[nd->out].t.shape);
    return false;
}

static uint64_t value_bytes(const dv_graph_t *g, int v)
{
    const dv_tensor_desc_t *t = &g->values[v].t;
    return dv_shape_elems(&t->shape) * dv_dtype_size(t->dtype);
}

static bool in_group(const dv_fgroup_t *gr, int n)
{
    for (int i = 0; i < gr->nnodes; i++)
        if (gr->nodes[i] == n)
            return true;
    return false;
}

/* True when value v must be stored by the group: a graph output or read by a node outside it. */
bool dv_fusion_value_escapes(const dv_graph_t *g, const dv_fgroup_t *gr, int v)
{
    if (dv_graph_is_output(g, v))
        return true;
    int users[DV_GRAPH_MAX_NODES];
    const int nu = dv_graph_users(g, v, users, DV_GRAPH_MAX_NODES);
    for (int i = 0; i < nu; i++)
        if (!in_group(gr, users[i]))
            return true;
    return false;
}

/* Compulsory GM traffic of the group's nodes one by one, and fused. */
static void traffic(const dv_graph_t *g, const dv_op_plan_t *plans, dv_fgroup_t *gr)
{
    uint64_t unfused = 0, fused = 0;
    bool seen[DV_GRAPH_MAX_VALUES] = {false};
    for (int i = 0; i < gr->nnodes; i++) {
        const int n = gr->nodes[i];
        const dv_gnode_t *nd = &g->nodes[n];
        unfused += plans[n].bytes;
        for (int j = 0; j < nd->nin; j++) {
            const int v = nd->in[j];
            const int p = g->values[v].producer;
            if ((p < 0 || !in_group(gr, p)) && !seen[v]) {
                seen[v] = true;
                fused += value_bytes(g, v);
            }
        }
        for (uint32_t a = 0; a < plans[n].info.nargs; a++)
            if (plans[n].own_args & (1u << a))
                fused += plans[n].elems[a] * dv_dtype_size(plans[n].args[a].dtype);
        if (dv_fusion_value_escapes(g, gr, nd->out))
            fused += value_bytes(g, nd->out);
    }
    gr->est_unfused_bytes = unfused;
    gr->est_fused_bytes = fused;
}

/* Set the group's reason; returns true, so `return !reason(...)` gives up with the reason. */
static bool reason(dv_fgroup_t *gr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool reason(dv_fgroup_t *gr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(gr->reason, sizeof gr->reason, fmt, ap);
    va_end(ap);
    return true;
}

/* Fill the composed kernel of a vector group (slots, nodes, argument numbering) for a tile of
 * tile_rows x pitch; GM arguments are numbered: inputs of the group, then every node's other
 * plan arguments in node order, then the stored tensors.  Returns the argument count. */
uint32_t dv_fusion_fkernel(const dv_graph_t *g, const dv_config_t *cfg, const dv_op_plan_t *plans, const dv_fgroup_t *gr,
                           uint32_t depth, dv_fkernel_t *f, dv_fusion_argref_t *refs)
{
    memset(f, 0, sizeof *f);
    int slot_of[DV_GRAPH_MAX_VALUES];
    for (int v = 0; v < DV_GRAPH_MAX_VALUES; v++)
        slot_of[v] = -1;
    uint32_t nargs = 0;
    const uint64_t elems = gr->rows * gr->cols;
    const int cube = gr->kind == DV_GROUP_CUBE_EPILOGUE;
    if (cube) { /* the head: its inputs are matrices the cube reads whole; its output is the head slot */
        const int n = gr->nodes[0];
        const dv_gnode_t *nd = &g->nodes[n];
        fk_node_t *fn = &f->node[f->nnodes++];
        fn->plan = plans[n];
        f->cube = 1;
        f->cube_ops = nd->op->cube;
        f->cube_ops->shape(&plans[n], &f->bm, &f->bn, &f->rows, &f->cols);
        int in_i = 0;
        for (uint32_t a = 0; a < plans[n].info.nargs; a++) {
            if (plans[n].args[a].dir != DV_ARG_IN)
                continue;
            fn->argmap[a] = nargs;
            if (plans[n].own_args & (1u << a))
                refs[nargs++] = (dv_fusion_argref_t){.kind = DV_FARG_OWN, .node = n, .arg = (int)a};
            else
                refs[nargs++] = (dv_fusion_argref_t){.kind = DV_FARG_VALUE, .value = nd->in[in_i++]};
        }
        slot_of[nd->out] = (int)f->nslots;
        f->head_slot = (int)f->nslots;
        fn->out_slot = f->head_slot;
        f->slot[f->nslots++] = (fk_slot_t){.dtype = g->values[nd->out].t.dtype, .gm_in = -1, .gm_out = -1};
    }
    /* inputs of the group that are tiled: their own slot and argument */
    for (int i = cube; i < gr->nnodes; i++) {
        const dv_gnode_t *nd = &g->nodes[gr->nodes[i]];
        for (int j = 0; j < nd->nin; j++) {
            const int v = nd->in[j], p = g->values[v].producer;
            if ((p >= 0 && in_group(gr, p)) || slot_of[v] >= 0 || dv_shape_elems(&g->values[v].t.shape) != elems)
                continue;
            slot_of[v] = (int)f->nslots;
            f->slot[f->nslots++] = (fk_slot_t){.dtype = g->values[v].t.dtype, .gm_in = (int32_t)nargs, .gm_out = -1};
            refs[nargs++] = (dv_fusion_argref_t){.kind = DV_FARG_VALUE, .value = v};
        }
    }
    /* each node: its output slot, and the GM arguments of everything else it reads */
    for (int i = cube; i < gr->nnodes; i++) {
        const int n = gr->nodes[i];
        const dv_gnode_t *nd = &g->nodes[n];
        fk_node_t *fn = &f->node[f->nnodes++];
        fn->tile = nd->op->tile;
        fn->plan = plans[n];
        fn->nin = nd->nin;
        slot_of[nd->out] = (int)f->nslots;
        fn->out_slot = (int)f->nslots;
        f->slot[f->nslots++] = (fk_slot_t){.dtype = g->values[nd->out].t.dtype, .gm_in = -1, .gm_out = -1};
        int in_i = 0;
        for (uint32_t a = 0; a < plans[n].info.nargs; a++) {
            const dv_arg_t *pa = &plans[n].args[a];
            if (pa->dir != DV_ARG_IN)
                continue; /* the output is a slot; plans of candidates have no other output */
            if (plans[n].own_args & (1u << a)) {
                fn->argmap[a] = nargs;
                refs[nargs++] = (dv_fusion_argref_t){.kind = DV_FARG_OWN, .node = n, .arg = (int)a};
                continue;
            }
            const int v = nd->in[in_i];
            fn->in_slot[in_i] = slot_of[v];
            if (slot_of[v] >= 0 && f->slot[slot_of[v]].gm_in >= 0)
                fn->argmap[a] = (uint32_t)f->slot[slot_of[v]].gm_in;
            else if (slot_of[v] < 0) { /* read whole by the operator's setup (a bias vector) */
                fn->argmap[a] = nargs;
                refs[nargs++] = (dv_fusion_argref_t){.kind = DV_FARG_VALUE, .value = v};
            }
            in_i++;
        }
    }
    /* stored tensors */
    for (int i = cube; i < gr->nnodes; i++) {
        const int v = g->nodes[gr->nodes[i]].out;
        if (dv_fusion_value_escapes(g, gr, v)) {
            f->slot[slot_of[v]].gm_out = (int32_t)nargs;
            refs[nargs++] = (dv_fusion_argref_t){.kind = DV_FARG_VALUE, .value = v, .out = true};
        }
    }
    if (cube) {
        f->split = cfg->chip_has_fix_pipe;
        f->aiv = f->split ? dv_topo_kernel_subs(cfg, DV_KIND_MIX) - 1 : 1;
        f->slots = FK_WS_SLOTS;
        if (f->split) {
            f->ws_arg = nargs;
            refs[nargs++] = (dv_fusion_argref_t){.kind = DV_FARG_WS, .node = gr->nodes[0]};
        }
    }
    f->rows = gr->rows;
    f->cols = gr->cols;
    f->tile_rows = gr->tile_rows;
    f->tile_cols = gr->tile_cols;
    f->pitch = gr->pitch;
    f->depth = depth;
    uint64_t minsz = 8;
    for (uint32_t s = 0; s < f->nslots; s++)
        minsz = dv_min_u64(minsz, dv_dtype_size((dv_dtype_t)f->slot[s].dtype));
    f->align_elems = 32 / minsz;
    f->unit = SPLIT_BYTES / minsz;
    return nargs;
}

/* Buffers per queue: two when every queue's ids fit sync.event_ids twice over, else one; 0 (with
 * the reason) when not even single buffering has the event ids. */
static uint32_t choose_depth(const dv_fkernel_t *f, const dv_config_t *cfg, dv_fgroup_t *gr)
{
    uint32_t in, out;
    dv_fkernel_queues(f, &in, &out);
    const uint64_t most = in > out ? in : out;
    if (2 * most <= cfg->sync_event_ids)
        return 2;
    if (most <= cfg->sync_event_ids)
        return 1;
    reason(gr, "kept: %u loaded and %u stored tensors need %llu event ids per pipe pair even single-buffered, "
           "sync.event_ids is %llu", in, out, (unsigned long long)most, (unsigned long long)cfg->sync_event_ids);
    return 0;
}

/* The most rows (at most cap) whose tile of `pitch` elements per row fits the UB with the kernel's
 * whole working set; 0 when not even one does. */
static uint64_t rows_that_fit(const dv_fkernel_t *f, const dv_config_t *cfg, uint64_t cap, uint64_t pitch)
{
    uint64_t lo = 0, hi = cap;
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        if (dv_fkernel_ub_bytes(f, cfg, mid, pitch) <= cfg->ub_size_bytes)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Choose the tile of a vector group that passed the traffic rule; false (with the reason) when
 * not even the smallest tile fits the UB or the DMA cannot move its rows. */
static bool choose_tile(const dv_graph_t *g, const dv_op_plan_t *plans, const dv_config_t *cfg, dv_fgroup_t *gr,
                        dv_fkernel_t *f)
{
    static dv_fusion_argref_t refs[DV_FUSION_MAX_ARGS];
    gr->tile_rows = 1;
    gr->tile_cols = gr->cols;
    gr->pitch = 1;
    dv_fusion_fkernel(g, cfg, plans, gr, 2, f, refs);
    if (!(f->depth = gr->depth = choose_depth(f, cfg, gr)))
        return false;
    const uint64_t ae = f->align_elems;
    if (gr->rows == 1) { /* flat */
        uint64_t t = FLAT_TILE_MAX;
        while (t > ae && dv_fkernel_ub_bytes(f, cfg, 1, t) > cfg->ub_size_bytes)
            t /= 2;
        if (dv_fkernel_ub_bytes(f, cfg, 1, t) > cfg->ub_size_bytes)
            return !reason(gr, "kept: a tile of %llu elements needs %llu bytes of UB, core.ub_size_bytes is %llu",
                           (unsigned long long)t, (unsigned long long)dv_fkernel_ub_bytes(f, cfg, 1, t),
                           (unsigned long long)cfg->ub_size_bytes);
        gr->tile_cols = dv_min_u64(t, dv_round_up(gr->cols, ae));
        gr->pitch = gr->tile_cols;
        gr->ub_bytes = dv_fkernel_ub_bytes(f, cfg, 1, gr->pitch);
        return true;
    }
    const uint64_t pitch = dv_round_up(gr->cols, ae);
    for (uint32_t s = 0; s < f->nslots; s++)
        if ((gr->cols * dv_dtype_size((dv_dtype_t)f->slot[s].dtype)) % 32 && !cfg->chip_dma_pad)
            return !reason(gr, "kept: rows of %llu elements are not whole 32-B blocks and the chip has no "
                           "DataCopyPad (chip.dma_pad is false)", (unsigned long long)gr->cols);
    const uint64_t cap = dv_ceil_div(gr->rows, dv_ops_cores(cfg, DV_KIND_VECTOR));
    const uint64_t lo = rows_that_fit(f, cfg, dv_min_u64(cap, 65535), pitch);
    if (lo == 0)
        return !reason(gr, "kept: one row of %llu elements needs %llu bytes of UB for the fused working set "
                       "(%u tensors and the operators' scratch), core.ub_size_bytes is %llu",
                       (unsigned long long)gr->cols, (unsigned long long)dv_fkernel_ub_bytes(f, cfg, 1, pitch),
                       f->nslots, (unsigned long long)cfg->ub_size_bytes);
    gr->tile_rows = lo;
    gr->pitch = pitch;
    gr->ub_bytes = dv_fkernel_ub_bytes(f, cfg, lo, pitch);
    return true;
}

/* Why the cube node n cannot head an epilogue group ("" when it can): its output must go to
 * exactly one node and nowhere else, and the chip must have a way from L0C to the vector unit that
 * the composed kernel knows (a split chip with FixPipe and cross-core flags, or a coupled core). */
static const char *cube_head(const dv_graph_t *g, const dv_op_plan_t *plans, const dv_config_t *cfg, int n)
{
    const dv_gnode_t *nd = &g->nodes[n];
    if (plans[n].info.kind != DV_KIND_CUBE && plans[n].info.kind != DV_KIND_MIX)
        return "is not a cube operator";
    if (dv_graph_is_output(g, nd->out) || dv_graph_users(g, nd->out, NULL, 0) != 1)
        return "has an output that is a graph output or read by more than one node";
    if (nd->op->cube && cfg->chip_has_fix_pipe && dv_topo_kernel_subs(cfg, DV_KIND_MIX) == 0)
        return "runs on a chip with FixPipe but no AIC/AIV split";
    return "";
}

/* The one relu node that reads n's output, if n's operator can apply it itself (a BOOL parameter
 * named relu: ReLU on the way out of L0C), else -1. */
static int relu_epilogue(const dv_graph_t *g, int n)
{
    const int p = dv_ops_param_index(g->nodes[n].op, "relu");
    int user;
    if (p < 0 || g->nodes[n].op->params[p].type != DV_OPT_BOOL || g->nodes[n].vals.v[p].i ||
        dv_graph_users(g, g->nodes[n].out, &user, 1) != 1 || strcmp(g->nodes[user].op->name, "relu") != 0)
        return -1;
    return user;
}

/* Try to form a cube-epilogue group headed by gr->nodes[0]; false when it heads nothing (gr is
 * then left for the caller to finish as a single node). */
static bool plan_cube_group(const dv_graph_t *g, const dv_op_plan_t *plans, const dv_config_t *cfg,
                            const dv_fusion_opts_t *o, dv_fgroup_t *gr, bool *done)
{
    static dv_fkernel_t fk;
    static dv_fusion_argref_t refs[DV_FUSION_MAX_ARGS];
    const int n = gr->nodes[0];
    if (*cube_head(g, plans, cfg, n))
        return false;
    const int relu = relu_epilogue(g, n);
    if (relu >= 0 && !done[relu]) { /* the head's own epilogue */
        gr->kind = DV_GROUP_CUBE_EPILOGUE;
        gr->nodes[gr->nnodes++] = relu;
        done[relu] = true;
        traffic(g, plans, gr);
        snprintf(gr->epi_param, sizeof gr->epi_param, "relu");
        gr->fused = o->fuse;
        if (o->fuse)
            reason(gr, "fused: %s --relu on (ReLU on the way out of L0C: no kernel and no GM round trip for the "
                   "ReLU)", g->nodes[n].op->name);
        else
            reason(gr, "kept: fusion off");
        return true;
    }
    if (!g->nodes[n].op->cube)
        return false;
    uint64_t bm, bn, rows, cols;
    g->nodes[n].op->cube->shape(&plans[n], &bm, &bn, &rows, &cols);
    gr->rows = rows;
    gr->cols = cols;
    for (int m = n + 1; m < g->nnodes && gr->nnodes < DV_GROUP_MAX_NODES; m++) {
        if (done[m] || *vector_candidate(g, plans, m) || (g->nodes[m].op->tile->flags & DV_TILE_WHOLE_ROWS))
            continue;
        uint64_t r, c;
        const bool mf = node_view(g, plans, m, &r, &c);
        if (r * c != rows * cols || (mf && (r != rows || c != cols)))
            continue;
        bool ready = true, linked = false;
        for (int j = 0; j < g->nodes[m].nin; j++) {
            const int prod = g->values[g->nodes[m].in[j]].producer;
            ready = ready && (prod < 0 || in_group(gr, prod) || done[prod]);
            linked = linked || (prod >= 0 && in_group(gr, prod));
        }
        if (!ready || !linked)
            continue;
        gr->nodes[gr->nnodes++] = m;
        done[m] = true;
    }
    if (gr->nnodes == 1)
        return false;
    gr->kind = DV_GROUP_CUBE_EPILOGUE;
    traffic(g, plans, gr);
    const double saving = 1.0 - (double)gr->est_fused_bytes / (double)gr->est_unfused_bytes;
    if (!o->fuse) {
        reason(gr, "kept: fusion off");
        return true;
    }
    if (saving < o->min_saving) {
        reason(gr, "kept: fusing saves %.0f%% of the compulsory GM traffic (%llu -> %llu bytes), below %.0f%%",
               saving * 100, (unsigned long long)gr->est_unfused_bytes, (unsigned long long)gr->est_fused_bytes,
               o->min_saving * 100);
        return true;
    }
    /* the tile: chunks of a cube tile's rows (an AIV's share on a split chip) that fit the UB */
    gr->tile_rows = 1;
    gr->tile_cols = bn;
    dv_fusion_fkernel(g, cfg, plans, gr, 2, &fk, refs);
    if (!(fk.depth = gr->depth = choose_depth(&fk, cfg, gr)))
        return true;
    const uint64_t pitch = dv_round_up(bn, fk.align_elems);
    const uint64_t cap = dv_ceil_div(bm, fk.aiv);
    const uint64_t lo = rows_that_fit(&fk, cfg, cap, pitch);
    if (lo == 0) {
        reason(gr, "kept: one row of the %llu-column cube tile needs %llu bytes of UB for the epilogue (%u tensors "
               "and the operators' scratch), core.ub_size_bytes is %llu", (unsigned long long)bn,
               (unsigned long long)dv_fkernel_ub_bytes(&fk, cfg, 1, pitch), fk.nslots,
               (unsigned long long)cfg->ub_size_bytes);
        return true;
    }
    gr->tile_rows = lo;
    gr->pitch = pitch;
    gr->ub_bytes = dv_fkernel_ub_bytes(&fk, cfg, lo, pitch);
    gr->fused = true;
    reason(gr, "fused: saves %.0f%% of the compulsory GM traffic (%llu -> %llu bytes); %s; epilogue "
                    "chunks of %llux%llu, %llu bytes of UB", saving * 100, (unsigned long long)gr->est_unfused_bytes,
                    (unsigned long long)gr->est_fused_bytes,
                    fk.split ? "the AIC hands each tile to its AIVs through a GM workspace ring (L2)"
                             : "L0C -> UB -> vector on the same core",
                    (unsigned long long)lo, (unsigned long long)bn, (unsigned long long)gr->ub_bytes);
    return true;
}

int dv_fusion_plan(const dv_graph_t *g, const dv_config_t *cfg, const dv_fusion_opts_t *o, dv_fplan_t *p,
                   dv_error_t *err)
{
    static dv_op_plan_t plans[DV_GRAPH_MAX_NODES];
    static dv_fkernel_t fk;
    memset(p, 0, sizeof *p);
    int rc = dv_fusion_plan_nodes(g, cfg, plans, err);
    if (rc)
        return rc;
    bool done[DV_GRAPH_MAX_NODES] = {false};
    for (int n = 0; n < g->nnodes; n++) {
        if (done[n])
            continue;
        dv_fgroup_t *gr = &p->g[p->ngroups++];
        memset(gr, 0, sizeof *gr);
        gr->nodes[gr->nnodes++] = n;
        done[n] = true;
        const char *why = vector_candidate(g, plans, n);
        bool fixed = node_view(g, plans, n, &gr->rows, &gr->cols);
        if (*why && plan_cube_group(g, plans, cfg, o, gr, done))
            continue;
        if (*why) {
            gr->kind = DV_GROUP_SINGLE;
            const char *head = cube_head(g, plans, cfg, n);
            if (g->nodes[n].op->cube && !*head)
                reason(gr, "alone: no node after it can be its epilogue (element-wise on its whole output, with every "
                       "input ready when it runs)");
            else if (g->nodes[n].op->cube)
                reason(gr, "alone: %s %s", g->nodes[n].op->name, head);
            else
                reason(gr, "alone: %s %s", g->nodes[n].op->name, why);
            traffic(g, plans, gr);
            continue;
        }
        /* grow */
        for (int m = n + 1; m < g->nnodes && gr->nnodes < DV_GROUP_MAX_NODES; m++) {
            if (done[m] || *vector_candidate(g, plans, m))
                continue;
            uint64_t r, c;
            const bool mf = node_view(g, plans, m, &r, &c);
            if (r * c != gr->rows * gr->cols || (mf && fixed && (r != gr->rows || c != gr->cols)))
                continue;
            bool ready = true;
            for (int j = 0; j < g->nodes[m].nin && ready; j++) {
                const int prod = g->values[g->nodes[m].in[j]].producer;
                ready = prod < 0 || in_group(gr, prod) || (done[prod] && !in_group(gr, prod));
            }
            if (!ready)
                continue;
            /* a fused node must read at least one tensor of the group (else it is unrelated work) */
            bool linked = false;
            for (int j = 0; j < g->nodes[m].nin; j++) {
                const int prod = g->values[g->nodes[m].in[j]].producer;
                linked = linked || (prod >= 0 && in_group(gr, prod));
            }
            if (!linked)
                continue;
            if (mf && !fixed) {
                gr->rows = r;
                gr->cols = c;
                fixed = true;
            }
            gr->nodes[gr->nnodes++] = m;
            done[m] = true;
        }
        traffic(g, plans, gr);
        if (gr->nnodes == 1) {
            gr->kind = DV_GROUP_SINGLE;
            reason(gr, "alone: no fusible neighbour");
            continue;
        }
        gr->kind = DV_GROUP_VECTOR;
        const double saving = 1.0 - (double)gr->est_fused_bytes / (double)gr->est_unfused_bytes;
        if (!o->fuse) {
            reason(gr, "kept: fusion off");
            continue;
        }
        if (saving < o->min_saving) {
            reason(gr, "kept: fusing saves %.0f%% of the compulsory GM traffic (%llu -> %llu bytes), below %.0f%%",
                   saving * 100, (unsigned long long)gr->est_unfused_bytes,
                   (unsigned long long)gr->est_fused_bytes, o->min_saving * 100);
            continue;
        }
        if (!choose_tile(g, plans, cfg, gr, &fk))
            continue;
        gr->fused = true;
        reason(gr, "fused: saves %.0f%% of the compulsory GM traffic (%llu -> %llu bytes); tile %llux%llu, "
               "%llu bytes of UB", saving * 100, (unsigned long long)gr->est_unfused_bytes,
               (unsigned long long)gr->est_fused_bytes, (unsigned long long)gr->tile_rows,
               (unsigned long long)gr->tile_cols, (unsigned long long)gr->ub_bytes);
    }
    return DV_OK;
}
