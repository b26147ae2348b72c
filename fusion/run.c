/* fusion/run.c - steps 2 to 6 of a fusion study (dv/fusion.h): rewrite, plan, then run both
 * variants, each on its own model of the profile so each starts with a cold L2 and keeps its L2
 * from one kernel to the next, as one stream on a device would.
 *
 * Tensors live in a store per variant: one GM buffer per graph tensor and one per operator-owned
 * argument (weights, statistics) or workspace, laid out from DV_GM_BASE in the order they are
 * first needed, each DV_GM_ALIGN-aligned.  Both variants start from the same bytes: the graph's
 * inputs are random (seeded by their position), the operators' own arguments are initialised as
 * `dvsim op` initialises them, and the own arguments of a rewritten node are derived from the
 * original nodes' (dv_fold_t.derive).  The unfused variant runs the graph as read, one kernel per
 * node; the fused variant runs the rewritten graph group by group: a fused group as one composed
 * kernel (fusion/kernel.c), any other node alone.  With data, every graph output of the fused
 * variant is compared with the unfused one within the dtype tolerance (dv_ops_compare). */
#include <stdlib.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/report.h"
#include "dv/sim.h"
#include "dv/topology.h"
#include "internal.h"

typedef struct fz_buf {
    uint64_t bytes, addr;
    uint8_t *data;
} fz_buf_t;

typedef struct fz_store {
    const dv_config_t *cfg;
    bool data;
    uint64_t next;
    fz_buf_t value[DV_GRAPH_MAX_VALUES];
    fz_buf_t arg[DV_GRAPH_MAX_NODES][DV_OP_MAX_ARGS]; /* own arguments and workspaces, by plan argument */
    fz_buf_t ws[DV_GRAPH_MAX_NODES];                  /* the workspace ring of a cube group, by head node */
} fz_store_t;

void dv_fusion_study_opts_default(dv_fusion_study_opts_t *o)
{
    memset(o, 0, sizeof *o);
    dv_fusion_opts_default(&o->plan);
    o->data = true;
    o->fold = true;
}

static void store_free(fz_store_t *s)
{
    for (int i = 0; i < DV_GRAPH_MAX_VALUES; i++)
        free(s->value[i].data);
    for (int n = 0; n < DV_GRAPH_MAX_NODES; n++) {
        for (int a = 0; a < DV_OP_MAX_ARGS; a++)
            free(s->arg[n][a].data);
        free(s->ws[n].data);
    }
    memset(s, 0, sizeof *s);
}

/* Give b its device address and (with data) zeroed host bytes, once. */
static int buf_place(fz_store_t *s, fz_buf_t *b, uint64_t bytes, const char *what, dv_error_t *err)
{
    if (b->bytes)
        return DV_OK;
    b->bytes = dv_round_up(bytes ? bytes : 1, 32);
    b->addr = s->next;
    s->next = dv_round_up(b->addr + b->bytes, DV_GM_ALIGN);
    if (s->next - DV_GM_BASE > s->cfg->hbm_capacity_bytes)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "%s: the graph's tensors need %llu bytes of device memory, "
                            "hbm.capacity_bytes is %llu", what, (unsigned long long)(s->next - DV_GM_BASE),
                            (unsigned long long)s->cfg->hbm_capacity_bytes);
    if (s->data && !(b->data = calloc(1, b->bytes)))
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "%s: cannot allocate %llu bytes on the host (try --no-data)",
                            what, (unsigned long long)b->bytes);
    return DV_OK;
}

static uint64_t value_bytes(const dv_graph_t *g, int v)
{
    return dv_round_up(dv_shape_elems(&g->values[v].t.shape) * dv_dtype_size(g->values[v].t.dtype), 32);
}

/* The graph's inputs: random bytes seeded by the input's position. */
static int place_inputs(const dv_graph_t *g, fz_store_t *s, dv_error_t *err)
{
    int rc = DV_OK;
    for (int v = 0; v < g->nvalues && rc == DV_OK; v++) {
        if (g->values[v].producer >= 0)
            continue;
        rc = buf_place(s, &s->value[v], value_bytes(g, v), g->values[v].name, err);
        if (rc == DV_OK && s->data)
            dv_sim_fill_random(s->value[v].data, s->value[v].bytes, g->values[v].t.dtype, 1000 + (uint64_t)v, 0, 0);
    }
    return rc;
}

/* Where plan argument a of node n is, in store s. */
static fz_buf_t *node_arg(const dv_graph_t *g, const dv_op_plan_t *plan, fz_store_t *s, int n, uint32_t a)
{
    const dv_gnode_t *nd = &g->nodes[n];
    const dv_arg_t *pa = &plan->args[a];
    if (pa->dir == DV_ARG_IN && !(plan->own_args & (1u << a))) {
        int idx = 0;
        for (uint32_t i = 0; i < a; i++)
            idx += plan->args[i].dir == DV_ARG_IN && !(plan->own_args & (1u << i));
        return &s->value[nd->in[idx]];
    }
    if (pa->dir != DV_ARG_IN && (int)a == dv_fusion_out_arg(plan))
        return &s->value[nd->out];
    return &s->arg[n][a];
}

/* Place every argument of node n; own arguments get their random initial bytes unless `own` is
 * false (a rewritten node's, which are derived or copied). */
static int place_node(const dv_graph_t *g, const dv_op_plan_t *plan, fz_store_t *s, int n, bool own, dv_error_t *err)
{
    for (uint32_t a = 0; a < plan->info.nargs; a++) {
        fz_buf_t *b = node_arg(g, plan, s, n, a);
        const bool fresh = b->bytes == 0;
        char what[DV_NAME_MAX * 2 + 8];
        snprintf(what, sizeof what, "node '%s' (%s)", g->nodes[n].name, plan->args[a].name);
        int rc = buf_place(s, b, plan->args[a].bytes, what, err);
        if (rc)
            return rc;
        if (b->bytes < plan->args[a].bytes)
            return dv_error_set(err, DV_ERR_STATE, g->path, g->nodes[n].line, 0, "node '%s': argument %s needs %llu "
                                "bytes, its tensor has %llu", g->nodes[n].name, plan->args[a].name,
                                (unsigned long long)plan->args[a].bytes, (unsigned long long)b->bytes);
        if (fresh && own && s->data && (plan->own_args & (1u << a)))
            dv_sim_fill_random(b->data, b->bytes, plan->args[a].dtype, plan->args[a].seed, plan->args[a].lo,
                               plan->args[a].hi);
    }
    return DV_OK;
}

static void sum_add(dv_fsum_t *t, const dv_fkstat_t *k)
{
    const double w0 = t->time_us, w1 = k->time_us, w = w0 + w1;
    t->kernels++;
    t->hazards += k->hazards;
    t->cycles += k->cycles;
    t->time_us += k->time_us;
    t->gm_read_bytes += k->gm_read_bytes;
    t->gm_write_bytes += k->gm_write_bytes;
    t->hbm_read_bytes += k->hbm_read_bytes;
    t->hbm_write_bytes += k->hbm_write_bytes;
    t->l2_hits += k->l2_hits;
    t->l2_misses += k->l2_misses;
    t->ub_peak_bytes = dv_max_u64(t->ub_peak_bytes, k->ub_peak_bytes);
    t->l1_peak_bytes = dv_max_u64(t->l1_peak_bytes, k->l1_peak_bytes);
    t->l0c_peak_bytes = dv_max_u64(t->l0c_peak_bytes, k->l0c_peak_bytes);
    if (w > 0) {
        t->ub_avg_bytes = (t->ub_avg_bytes * w0 + k->ub_avg_bytes * w1) / w;
        for (int p = 0; p < DV_PIPE_COUNT; p++)
            t->ratio[p] = (t->ratio[p] * w0 + k->ratio[p] * w1) / w;
    }
}

/* What becomes of each kernel of a variant: the study runs it on the variant's model and records
 * what it cost; dv_fusion_build keeps it with its buffers.  exec takes ownership of k. */
typedef struct fz_exec {
    int (*exec)(const struct fz_exec *x, dv_kernel_t *k, fz_buf_t *const *bufs, const char *name, int group,
                dv_error_t *err);
    dv_model_t *m;
    const dv_config_t *cfg;
    dv_fvariant_t *v;
    void *ctx;
} fz_exec_t;

/* Run one kernel on the variant's model with the given buffers and record what it cost. */
static int run_kernel(dv_model_t *m, const dv_config_t *cfg, dv_kernel_t *k, fz_buf_t *const *bufs, const char *name,
                      int group, dv_fvariant_t *v, dv_error_t *err)
{
    const uint32_t n = k->info.nargs;
    uint8_t *data[DV_FUSION_MAX_ARGS];
    uint64_t bytes[DV_FUSION_MAX_ARGS], addr[DV_FUSION_MAX_ARGS];
    for (uint32_t i = 0; i < n; i++) {
        data[i] = bufs[i]->data;
        bytes[i] = bufs[i]->bytes;
        addr[i] = bufs[i]->addr;
    }
    dv_gm_t gm = {.nargs = n, .data = data, .bytes = bytes, .addr = addr};
    dv_run_opts_t ro;
    dv_run_opts_default(&ro);
    for (uint32_t i = 0; i < n; i++)
        if (!data[i])
            ro.data = false;
    ro.hazards = ro.data; /* an unsynchronised access in a composed kernel would be a bug: count them */
    dv_counters_t cnt;
    memset(&cnt, 0, sizeof cnt);
    dv_error_t e;
    memset(&e, 0, sizeof e);
    int rc = dv_model_run(m, k, &gm, &ro, &cnt, &e);
    if (rc != DV_OK)
        return dv_error_set(err, rc, e.file, e.line, e.col, "kernel '%s': %s", name, e.msg);
    if (v->nkernels >= DV_FUSION_MAX_KERNELS) {
        dv_counters_free(&cnt);
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "more than %d kernels", DV_FUSION_MAX_KERNELS);
    }
    dv_report_t rep;
    if ((rc = dv_report_derive(&rep, cfg, &k->info, &cnt, err)) != DV_OK) {
        dv_counters_free(&cnt);
        return rc;
    }
    dv_fkstat_t *s = &v->k[v->nkernels++];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->group = group;
    s->kind = k->info.kind;
    s->blocks = k->info.blocks;
    s->cycles = cnt.cycles;
    s->time_us = rep.time_us;
    s->gm_read_bytes = cnt.gm_read_bytes;
    s->gm_write_bytes = cnt.gm_write_bytes;
    s->hbm_read_bytes = cnt.hbm_read_bytes;
    s->hbm_write_bytes = cnt.hbm_write_bytes;
    s->l2_hits = cnt.l2_hits;
    s->l2_misses = cnt.l2_misses;
    s->ub_peak_bytes = rep.buf[DV_SPACE_UB].peak_bytes;
    s->ub_avg_bytes = rep.buf[DV_SPACE_UB].avg_bytes;
    s->l1_peak_bytes = rep.buf[DV_SPACE_L1].peak_bytes;
    s->l0c_peak_bytes = rep.buf[DV_SPACE_L0C].peak_bytes;
    for (int p = 0; p < DV_PIPE_COUNT; p++)
        s->ratio[p] = rep.ratio[p];
    s->bound_by = rep.bound_by;
    s->hazards = cnt.hazards;
    dv_report_buf_series(&rep, DV_SPACE_UB, s->ub_series);
    dv_report_free(&rep);
    dv_counters_free(&cnt);
    sum_add(&v->total, s);
    if (group >= 0 && group < DV_FUSION_MAX_GROUPS)
        sum_add(&v->group[group], s);
    return DV_OK;
}

static int exec_run(const fz_exec_t *x, dv_kernel_t *k, fz_buf_t *const *bufs, const char *name, int group,
                    dv_error_t *err)
{
    const int rc = run_kernel(x->m, x->cfg, k, bufs, name, group, x->v, err);
    dvk_kernel_destroy(k);
    return rc;
}

/* Node n alone: its own kernel over its tensors in store s. */
static int run_node(const fz_exec_t *x, const dv_config_t *cfg, const dv_graph_t *g, const dv_op_plan_t *plan,
                    fz_store_t *s, int n, int group, dv_error_t *err)
{
    const dv_gnode_t *nd = &g->nodes[n];
    fz_buf_t *bufs[DV_OP_MAX_ARGS];
    for (uint32_t a = 0; a < plan->info.nargs; a++) {
        bufs[a] = node_arg(g, plan, s, n, a);
        if (s->data && !(plan->own_args & (1u << a)) && plan->args[a].dir != DV_ARG_IN && bufs[a]->data)
            memset(bufs[a]->data, 0, bufs[a]->bytes); /* outputs start zeroed, as in a run of the operator */
    }
    dv_kernel_t *k = NULL;
    dv_error_t e;
    memset(&e, 0, sizeof e);
    int rc = dv_ops_kernel(nd->op, cfg, plan, &k, &e);
    if (rc != DV_OK)
        return dv_error_set(err, rc, g->path, nd->line, 0, "node '%s' (%s): %s", nd->name, nd->op->name, e.msg);
    return x->exec(x, k, bufs, nd->name, group, err);
}

/* A fused group: the composed kernel over the group's tensors in store s. */
static int run_group(const fz_exec_t *x, const dv_config_t *cfg, const dv_graph_t *g, const dv_op_plan_t *plans,
                     fz_store_t *s, const dv_fgroup_t *gr, int group, dv_error_t *err)
{
    static dv_fkernel_t f;
    static dv_fusion_argref_t refs[DV_FUSION_MAX_ARGS];
    const uint32_t nargs = dv_fusion_fkernel(g, cfg, plans, gr, gr->depth, &f, refs);
    const dv_op_plan_t *head = &plans[gr->nodes[0]];
    dv_arg_t args[DV_FUSION_MAX_ARGS];
    fz_buf_t *bufs[DV_FUSION_MAX_ARGS];
    char name[DV_NAME_MAX * 2] = "fused:";
    for (int i = 0; i < gr->nnodes; i++) {
        const size_t len = strlen(name);
        snprintf(name + len, sizeof name - len, "%s%s", i ? "+" : "", g->nodes[gr->nodes[i]].name);
    }
    for (uint32_t i = 0; i < nargs; i++) {
        dv_arg_t *a = &args[i];
        memset(a, 0, sizeof *a);
        if (refs[i].kind == DV_FARG_VALUE) {
            bufs[i] = &s->value[refs[i].value];
            snprintf(a->name, sizeof a->name, "%s", g->values[refs[i].value].name);
            a->dtype = g->values[refs[i].value].t.dtype;
            a->dir = refs[i].out ? DV_ARG_OUT : DV_ARG_IN;
        } else if (refs[i].kind == DV_FARG_WS) {
            char what[DV_NAME_MAX * 2 + 16];
            snprintf(what, sizeof what, "node '%s' (workspace)", g->nodes[refs[i].node].name);
            bufs[i] = &s->ws[refs[i].node];
            int rc = buf_place(s, bufs[i], dv_fkernel_ws_bytes(&f, head->info.blocks), what, err);
            if (rc)
                return rc;
            snprintf(a->name, sizeof a->name, "%s.workspace", g->nodes[refs[i].node].name);
            a->dtype = f.slot[f.head_slot].dtype;
            a->dir = DV_ARG_OUT;
        } else {
            const dv_arg_t *pa = &plans[refs[i].node].args[refs[i].arg];
            bufs[i] = node_arg(g, &plans[refs[i].node], s, refs[i].node, (uint32_t)refs[i].arg);
            snprintf(a->name, sizeof a->name, "%s.%s", g->nodes[refs[i].node].name, pa->name);
            a->dtype = pa->dtype;
            a->dir = DV_ARG_IN;
        }
        a->bytes = bufs[i]->bytes;
    }
    const uint64_t work = f.rows == 1 && f.tile_cols < f.cols ? dv_ceil_div(f.cols, f.unit) : f.rows;
    dv_kernel_info_t info = {.kind = DV_KIND_VECTOR, .nargs = nargs, .args = args,
                             .blocks = (uint32_t)dv_min_u64(dv_ops_cores(cfg, DV_KIND_VECTOR), work), .subs = 1};
    if (f.cube) { /* the cube operator's blocks: a mix kernel on a split chip, a cube kernel on a coupled one */
        info.kind = f.split ? DV_KIND_MIX : DV_KIND_CUBE;
        info.blocks = head->info.blocks;
        info.subs = dv_topo_kernel_subs(cfg, info.kind);
    }
    snprintf(info.name, sizeof info.name, "%.*s", (int)sizeof info.name - 1, name);
    dv_kernel_t *k = NULL;
    int rc = dvk_kernel_create(cfg, &info, dv_fkernel_body, &f, sizeof f, &k, err);
    if (rc != DV_OK)
        return rc;
    dvk_kernel_on_fibers(k);
    return x->exec(x, k, bufs, name, group, err);
}

/* A cube group fused through its head's own parameter: the head runs with it on and writes the
 * epilogue node's output directly. */
static int run_param_epilogue(const fz_exec_t *x, const dv_config_t *cfg, const dv_graph_t *g, fz_store_t *s,
                              const dv_fgroup_t *gr, int group, dv_error_t *err)
{
    static dv_graph_t gg;
    static dv_op_plan_t plan;
    const int n = gr->nodes[0], e = gr->nodes[1];
    gg = *g;
    dv_gnode_t *nd = &gg.nodes[n];
    const int p = dv_ops_param_index(nd->op, gr->epi_param);
    nd->vals.v[p].i = 1;
    nd->vals.given[p] = true;
    nd->out = g->nodes[e].out;
    snprintf(nd->name, sizeof nd->name, "%s+%s", g->nodes[n].name, g->nodes[e].name);
    dv_error_t e2;
    memset(&e2, 0, sizeof e2);
    int rc = dv_ops_plan(nd->op, cfg, &nd->vals, &plan, &e2);
    if (rc)
        return dv_error_set(err, rc, g->path, nd->line, 0, "node '%s' (%s --%s on): %s", g->nodes[n].name, nd->op->name,
                            gr->epi_param, e2.msg);
    return run_node(x, cfg, &gg, &plan, s, n, group, err);
}

/* Own arguments of the rewritten graph's nodes: derived for a rewrite's node, else the bytes of
 * the original node of the same name (same operator, same parameters, same plan). */
static int own_args_rewritten(const dv_graph_t *g, const dv_op_plan_t *po, fz_store_t *so, const dv_graph_t *r,
                              const dv_op_plan_t *pr, fz_store_t *sr, const dv_folds_t *folds, dv_error_t *err)
{
    for (int n = 0; n < r->nnodes; n++) {
        int rc = place_node(r, &pr[n], sr, n, false, err);
        if (rc)
            return rc;
        if (!sr->data)
            continue;
        const dv_fold_t *f = NULL;
        for (int i = 0; i < folds->n; i++)
            if (folds->f[i].node == n)
                f = &folds->f[i];
        if (f) {
            uint8_t *dst[DV_OP_MAX_ARGS] = {NULL};
            for (uint32_t a = 0; a < pr[n].info.nargs; a++)
                if (pr[n].own_args & (1u << a))
                    dst[a] = sr->arg[n][a].data;
            const dv_op_plan_t *sp[2];
            uint8_t *sa[2][DV_OP_MAX_ARGS];
            uint8_t *const *spa[2];
            for (int j = 0; j < f->nsrc; j++) {
                sp[j] = &po[f->src[j]];
                for (uint32_t a = 0; a < po[f->src[j]].info.nargs; a++)
                    sa[j][a] = node_arg(g, &po[f->src[j]], so, f->src[j], a)->data;
                spa[j] = sa[j];
            }
            rc = f->derive(f, &pr[n], dst, sp, spa, err);
            if (rc)
                return rc;
            continue;
        }
        int o = -1;
        for (int i = 0; i < g->nnodes; i++)
            if (strcmp(g->nodes[i].name, r->nodes[n].name) == 0)
                o = i;
        if (o < 0)
            return dv_error_set(err, DV_ERR_STATE, r->path, r->nodes[n].line, 0, "node '%s': no original node",
                                r->nodes[n].name);
        for (uint32_t a = 0; a < pr[n].info.nargs; a++)
            if (pr[n].own_args & (1u << a))
                memcpy(sr->arg[n][a].data, so->arg[o][a].data, dv_min_u64(sr->arg[n][a].bytes, so->arg[o][a].bytes));
    }
    return DV_OK;
}

/* The fused variant, group by group. */
static int run_fused(const fz_exec_t *x, const dv_config_t *cfg, const dv_graph_t *r, const dv_op_plan_t *pr,
                     const dv_fplan_t *plan, fz_store_t *s, dv_error_t *err)
{
    int rc = DV_OK;
    for (int i = 0; i < plan->ngroups && rc == DV_OK; i++) {
        const dv_fgroup_t *gr = &plan->g[i];
        if (gr->fused && gr->epi_param[0])
            rc = run_param_epilogue(x, cfg, r, s, gr, i, err);
        else if (gr->fused)
            rc = run_group(x, cfg, r, pr, s, gr, i, err);
        else
            for (int j = 0; j < gr->nnodes && rc == DV_OK; j++)
                rc = run_node(x, cfg, r, &pr[gr->nodes[j]], s, gr->nodes[j], i, err);
    }
    return rc;
}

static void compare_outputs(const dv_graph_t *g, const fz_store_t *su, const dv_graph_t *r, const fz_store_t *sf,
                            dv_fusion_result_t *res)
{
    res->checked = true;
    for (int i = 0; i < g->noutputs; i++) {
        const int vo = g->outputs[i], vr = dv_graph_value(r, g->values[vo].name);
        if (vr < 0 || !su->value[vo].data || !sf->value[vr].data)
            continue;
        dv_check_result_t c;
        memset(&c, 0, sizeof c); /* dv_ops_compare accumulates */
        const dv_dtype_t t = g->values[vo].t.dtype;
        dv_ops_compare(t, dv_shape_elems(&g->values[vo].t.shape), sf->value[vr].data, su->value[vo].data, 1.0, &c);
        res->compared += c.compared;
        res->mismatches += c.mismatches;
        if (c.max_abs_err >= res->check.max_abs_err || (c.mismatches && !res->check.mismatches)) {
            res->check = c;
            snprintf(res->check.arg, sizeof res->check.arg, "%s", g->values[vo].name);
        }
    }
}

int dv_fusion_study(const dv_graph_t *g, const dv_config_t *cfg, const dv_fusion_study_opts_t *o,
                    dv_fusion_result_t *r, dv_error_t *err)
{
    static dv_op_plan_t po[DV_GRAPH_MAX_NODES], pr[DV_GRAPH_MAX_NODES];
    fz_store_t *su = calloc(1, sizeof *su), *sf = calloc(1, sizeof *sf);
    dv_model_t *mu = NULL, *mf = NULL;
    int rc = DV_OK;
    memset(r, 0, sizeof *r);
    if (!su || !sf) {
        rc = dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
        goto cleanup;
    }
    r->cfg = *cfg;
    r->graph = *g;
    /* 2. rewrite, 3. plan */
    if (o->fold)
        rc = dv_fusion_fold(g, cfg, &r->rewritten, &r->folds, err);
    else {
        r->rewritten = *g;
        for (int n = 0; n < DV_GRAPH_MAX_NODES; n++)
            r->folds.node_map[n] = n < g->nnodes ? n : -1;
    }
    if (rc || (rc = dv_fusion_plan_nodes(g, cfg, po, err)) || (rc = dv_fusion_plan_nodes(&r->rewritten, cfg, pr, err)) ||
        (rc = dv_fusion_plan(&r->rewritten, cfg, &o->plan, &r->plan, err)))
        goto cleanup;
    int group_of[DV_GRAPH_MAX_NODES];
    for (int i = 0; i < r->plan.ngroups; i++)
        for (int j = 0; j < r->plan.g[i].nnodes; j++)
            group_of[r->plan.g[i].nodes[j]] = i;

    /* the tensors: same inputs and own arguments for both variants */
    su->cfg = sf->cfg = cfg;
    su->data = sf->data = o->data;
    su->next = sf->next = DV_GM_BASE;
    if ((rc = place_inputs(g, su, err)) || (rc = place_inputs(&r->rewritten, sf, err)))
        goto cleanup;
    for (int v = 0; o->data && v < g->nvalues; v++)
        if (g->values[v].producer < 0) {
            const int vr = dv_graph_value(&r->rewritten, g->values[v].name);
            if (vr >= 0)
                memcpy(sf->value[vr].data, su->value[v].data, dv_min_u64(su->value[v].bytes, sf->value[vr].bytes));
        }
    for (int n = 0; n < g->nnodes; n++)
        if ((rc = place_node(g, &po[n], su, n, true, err)))
            goto cleanup;
    if ((rc = own_args_rewritten(g, po, su, &r->rewritten, pr, sf, &r->folds, err)))
        goto cleanup;

    /* 5. run: unfused, one kernel per node of the graph as read */
    if ((rc = dv_model_create(cfg, &mu, err)) || (rc = dv_model_create(cfg, &mf, err)))
        goto cleanup;
    const fz_exec_t xu = {.exec = exec_run, .m = mu, .cfg = cfg, .v = &r->unfused};
    const fz_exec_t xf = {.exec = exec_run, .m = mf, .cfg = cfg, .v = &r->fused};
    for (int n = 0; n < g->nnodes; n++) {
        const int rn = r->folds.node_map[n];
        if ((rc = run_node(&xu, cfg, g, &po[n], su, n, rn >= 0 ? group_of[rn] : -1, err)))
            goto cleanup;
    }
    /* fused: group by group */
    if ((rc = run_fused(&xf, cfg, &r->rewritten, pr, &r->plan, sf, err)))
        goto cleanup;
    /* 6. check */
    if (o->data)
        compare_outputs(g, su, &r->rewritten, sf, r);
cleanup:
    dv_model_destroy(mu);
    dv_model_destroy(mf);
    if (su)
        store_free(su);
    if (sf)
        store_free(sf);
    free(su);
    free(sf);
    return rc;
}

/* ---------------------------------------------------------------- the fused variant as launches */

typedef struct fz_build_ctx {
    const dv_graph_t *g, *r;   /* the graph as read, rewritten */
    fz_store_t *s;
    dv_fbuild_t *b;
    const fz_buf_t *ws[DV_FUSION_MAX_BUFS]; /* the store buffer of each workspace buffer */
} fz_build_ctx_t;

/* The position of value v of the rewritten graph among the graph's inputs or outputs (by name). */
static int io_index(const dv_graph_t *g, const dv_graph_t *r, int v, bool output)
{
    const int vo = dv_graph_value(g, r->values[v].name);
    if (vo < 0)
        return -1;
    if (output) {
        for (int i = 0; i < g->noutputs; i++)
            if (g->outputs[i] == vo)
                return i;
        return -1;
    }
    if (g->values[vo].producer >= 0)
        return -1;
    int idx = 0;
    for (int i = 0; i < vo; i++)
        idx += g->values[i].producer < 0;
    return idx;
}

static int exec_keep(const fz_exec_t *x, dv_kernel_t *k, fz_buf_t *const *bufs, const char *name, int group,
                     dv_error_t *err)
{
    (void)group;
    fz_build_ctx_t *c = x->ctx;
    dv_fbuild_t *b = c->b;
    if (b->nlaunches >= DV_FUSION_MAX_KERNELS) {
        dvk_kernel_destroy(k);
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "more than %d kernels", DV_FUSION_MAX_KERNELS);
    }
    dv_flaunch_t *l = &b->launch[b->nlaunches++];
    memset(l, 0, sizeof *l);
    l->kernel = k;
    snprintf(l->name, sizeof l->name, "%s", name);
    l->nargs = k->info.nargs;
    for (uint32_t i = 0; i < l->nargs; i++) {
        const fz_buf_t *fb = bufs[i];
        int v = -1;
        for (int j = 0; j < c->r->nvalues; j++)
            if (fb == &c->s->value[j])
                v = j;
        const int in = v >= 0 ? io_index(c->g, c->r, v, false) : -1, out = v >= 0 ? io_index(c->g, c->r, v, true) : -1;
        if (in >= 0) {
            l->arg[i] = (dv_fbuf_ref_t){DV_FBUF_INPUT, in};
            continue;
        }
        if (out >= 0) {
            l->arg[i] = (dv_fbuf_ref_t){DV_FBUF_OUTPUT, out};
            continue;
        }
        int w = -1;
        for (int j = 0; j < b->nbufs; j++)
            if (c->ws[j] == fb)
                w = j;
        if (w < 0) {
            if (b->nbufs >= DV_FUSION_MAX_BUFS)
                return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "more than %d workspace buffers", DV_FUSION_MAX_BUFS);
            w = b->nbufs++;
            c->ws[w] = fb;
            b->buf[w] = (dv_fwsbuf_t){.offset = b->workspace_bytes, .bytes = fb->bytes,
                                      .init = v < 0 ? fb->data : NULL}; /* own arguments carry their bytes */
            b->workspace_bytes = dv_round_up(b->workspace_bytes + fb->bytes, DV_GM_ALIGN);
        }
        l->arg[i] = (dv_fbuf_ref_t){DV_FBUF_WORKSPACE, w};
    }
    return DV_OK;
}

typedef struct fz_build_priv {
    fz_store_t so, sf;
    dv_graph_t r;
    dv_op_plan_t po[DV_GRAPH_MAX_NODES], pr[DV_GRAPH_MAX_NODES];
} fz_build_priv_t;

int dv_fusion_build(const dv_graph_t *g, const dv_config_t *cfg, const dv_fusion_study_opts_t *o, dv_fbuild_t **out,
                    dv_error_t *err)
{
    *out = NULL;
    dv_fbuild_t *b = calloc(1, sizeof *b);
    fz_build_priv_t *p = calloc(1, sizeof *p);
    int rc = DV_OK;
    if (!b || !p) {
        free(b);
        free(p);
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    b->priv = p;
    if (o->fold)
        rc = dv_fusion_fold(g, cfg, &p->r, &b->folds, err);
    else {
        p->r = *g;
        for (int n = 0; n < DV_GRAPH_MAX_NODES; n++)
            b->folds.node_map[n] = n < g->nnodes ? n : -1;
    }
    if (rc || (rc = dv_fusion_plan_nodes(g, cfg, p->po, err)) || (rc = dv_fusion_plan_nodes(&p->r, cfg, p->pr, err)) ||
        (rc = dv_fusion_plan(&p->r, cfg, &o->plan, &b->plan, err)))
        goto fail;
    /* the original's own arguments, then the rewritten graph's (derived or copied) */
    p->so = (fz_store_t){.cfg = cfg, .data = true, .next = DV_GM_BASE};
    p->sf = (fz_store_t){.cfg = cfg, .data = true, .next = DV_GM_BASE};
    for (int n = 0; n < g->nnodes; n++)
        if ((rc = place_node(g, &p->po[n], &p->so, n, true, err)))
            goto fail;
    if ((rc = place_inputs(&p->r, &p->sf, err)) ||
        (rc = own_args_rewritten(g, p->po, &p->so, &p->r, p->pr, &p->sf, &b->folds, err)))
        goto fail;
    for (int v = 0; v < g->nvalues; v++)
        if (g->values[v].producer < 0)
            b->input_bytes[b->ninputs++] = value_bytes(g, v);
    for (int i = 0; i < g->noutputs; i++)
        b->output_bytes[b->noutputs++] = value_bytes(g, g->outputs[i]);
    fz_build_ctx_t ctx = {.g = g, .r = &p->r, .s = &p->sf, .b = b};
    const fz_exec_t x = {.exec = exec_keep, .cfg = cfg, .ctx = &ctx};
    if ((rc = run_fused(&x, cfg, &p->r, p->pr, &b->plan, &p->sf, err)))
        goto fail;
    for (int i = 0; i < b->nlaunches; i++) {
        const char *name = b->launch[i].name;
        int n = -1;
        for (int j = 0; j < p->r.nnodes; j++)
            if (strcmp(p->r.nodes[j].name, name) == 0)
                n = j;
        snprintf(b->launch[i].op, sizeof b->launch[i].op, "%s", n >= 0 ? p->r.nodes[n].op->name : "Fused");
    }
    *out = b;
    return DV_OK;
fail:
    dv_fusion_build_free(b);
    return rc;
}

void dv_fusion_build_free(dv_fbuild_t *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->nlaunches; i++)
        dvk_kernel_destroy(b->launch[i].kernel);
    fz_build_priv_t *p = b->priv;
    if (p) {
        store_free(&p->so);
        store_free(&p->sf);
    }
    free(p);
    free(b);
}
