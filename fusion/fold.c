/* fusion/fold.c - graph fusion (dv/fusion.h, step 2 of a study): algebraic rewrites of an operator
 * graph, which change what the nodes compute, not how a node runs.
 *
 * The rewrite, the one CANN's graph fusion applies to every CNN:
 *   conv2d -> batchnorm  ==>  one conv2d with --bias on.
 *   Inference batchnorm is affine per channel, y = (x - mean) * s + beta with s = gamma / sqrt(var + eps),
 *   and a convolution is linear per output channel, so for every output channel co
 *       w'[co] = w[co] * s[co],   b'[co] = (b[co] - mean[co]) * s[co] + beta[co]   (b = 0 without --bias).
 *   w' and b' are computed in double from the original arguments and rounded to the folded conv's
 *   argument types (w': the conv's dtype; b': fp32, conv2d's bias type) when a run has data
 *   (dv_fold_t.derive).  It applies when
 *     - the batchnorm's input is the conv's output, nothing else reads that value and it is not a
 *       graph output (else the unnormalised value is still needed);
 *     - the conv has no --relu (a ReLU between them is not affine);
 *     - the two agree on the value's shape and dtype;
 *     - the folded conv (the conv's parameters with --bias on) plans on the chip: --bias takes UB
 *       for fp32 rows, so a conv whose transform unit only just fits stays unfolded.
 *   The folded node takes the conv's place, parameters and line, is named "<conv>+<bn>", and writes
 *   the batchnorm's value under its name, so the nodes and outputs that read it are unchanged; the
 *   conv's output value disappears.
 *
 * Not rewritten:
 *   - matmul -> batchnorm: a matmul's output is a matrix [M, N] and batchnorm takes N x C x H x W,
 *     so no graph connects them (and matmul has no bias to fold the shift into).
 *   - conv2d -> relu into conv2d --relu on: that is not algebra but running two operators as one
 *     kernel, which is UB fusion's business (the planner, fusion/plan.c), where its cost is shown. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dv/fusion.h"

/* ---------------------------------------------------------------- graph queries */

/* Nodes that read value v (each node once). */
static int value_users(const dv_graph_t *g, int v)
{
    int n = 0;
    for (int i = 0; i < g->nnodes; i++)
        for (int j = 0; j < g->nodes[i].nin; j++)
            if (g->nodes[i].in[j] == v) {
                n++;
                break;
            }
    return n;
}

static bool value_is_output(const dv_graph_t *g, int v)
{
    for (int i = 0; i < g->noutputs; i++)
        if (g->outputs[i] == v)
            return true;
    return false;
}

static bool desc_equal(const dv_tensor_desc_t *a, const dv_tensor_desc_t *b)
{
    return a->dtype == b->dtype && a->shape.ndims == b->shape.ndims &&
           memcmp(a->shape.d, b->shape.d, sizeof a->shape.d[0] * (size_t)a->shape.ndims) == 0;
}

/* Value of a parameter by name (NULL when the operator has none). */
static const dv_oparam_val_t *param(const dv_gnode_t *n, const char *name)
{
    const int i = dv_ops_param_index(n->op, name);
    return i < 0 ? NULL : &n->vals.v[i];
}

/* ---------------------------------------------------------------- conv2d -> batchnorm */

static int arg_named(const dv_op_plan_t *p, const char *name)
{
    for (uint32_t i = 0; i < p->info.nargs; i++)
        if (strcmp(p->args[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* w' = w * s and b' = (b - mean) * s + beta per output channel (dv_fold_t.derive). */
static int derive_conv_bn(const dv_fold_t *f, const dv_op_plan_t *dst, uint8_t *const *dst_args,
                          const dv_op_plan_t *const *src, uint8_t *const *const *src_args, dv_error_t *err)
{
    const dv_op_plan_t *cp = src[0], *bp = src[1];
    const int w = arg_named(cp, "w"), b = arg_named(cp, "b"), dw = arg_named(dst, "w"), db = arg_named(dst, "b");
    static const char *const stat_names[4] = {"mean", "var", "gamma", "beta"};
    int st[4];
    for (int i = 0; i < 4; i++)
        st[i] = arg_named(bp, stat_names[i]);
    if (w < 0 || dw < 0 || db < 0 || st[0] < 0 || st[1] < 0 || st[2] < 0 || st[3] < 0)
        return dv_error_set(err, DV_ERR_STATE, NULL, 0, 0, "%s: the plans lack an argument of the rewrite (conv2d w, "
                            "b; batchnorm mean, var, gamma, beta)", f->what);
    const uint64_t cout = dst->elems[db], wn = dst->elems[dw];
    bool ok = cout > 0 && cp->elems[w] == wn && wn % cout == 0 && dst_args[dw] && dst_args[db] && src_args[0][w] &&
              (b < 0 || (cp->elems[b] == cout && src_args[0][b]));
    for (int i = 0; i < 4; i++)
        ok = ok && bp->elems[st[i]] == cout && src_args[1][st[i]];
    if (!ok)
        return dv_error_set(err, DV_ERR_STATE, NULL, 0, 0, "%s: the plans' weights, biases and statistics do not "
                            "match %llu output channels, or their data is missing", f->what,
                            (unsigned long long)cout);
    const uint64_t per = wn / cout;
    const uint8_t *const *bn = (const uint8_t *const *)src_args[1];
    for (uint64_t co = 0; co < cout; co++) {
        const double mean = dv_ops_load(bn[st[0]], bp->args[st[0]].dtype, co);
        const double var = dv_ops_load(bn[st[1]], bp->args[st[1]].dtype, co);
        const double gamma = dv_ops_load(bn[st[2]], bp->args[st[2]].dtype, co);
        const double beta = dv_ops_load(bn[st[3]], bp->args[st[3]].dtype, co);
        const double s = gamma / sqrt(var + f->eps);
        for (uint64_t i = co * per; i < (co + 1) * per; i++)
            dv_ops_store(dst_args[dw], dst->args[dw].dtype, i, dv_ops_load(src_args[0][w], cp->args[w].dtype, i) * s);
        const double b0 = b < 0 ? 0.0 : dv_ops_load(src_args[0][b], cp->args[b].dtype, co);
        dv_ops_store(dst_args[db], dst->args[db].dtype, co, (b0 - mean) * s + beta);
    }
    return DV_OK;
}

/* The parameters of the folded conv: the conv's, with --bias on. */
static void conv_bn_vals(const dv_gnode_t *conv, dv_opvals_t *vals)
{
    const int pb = dv_ops_param_index(conv->op, "bias");
    *vals = conv->vals;
    vals->v[pb].i = 1;
    vals->given[pb] = true;
}

/* The conv node that batchnorm node `b` folds into, or -1. */
static int conv_bn_source(const dv_graph_t *g, const dv_config_t *cfg, int b)
{
    const dv_opdesc_t *conv_op = dv_ops_find("conv2d"), *bn_op = dv_ops_find("batchnorm");
    const dv_gnode_t *bn = &g->nodes[b];
    if (!conv_op || !bn_op || bn->op != bn_op || bn->nin != 1 || bn->in[0] < 0 || bn->in[0] >= g->nvalues)
        return -1;
    const int v = bn->in[0], c = g->values[v].producer;
    if (c < 0 || c >= b || g->nodes[c].op != conv_op || g->nodes[c].out != v)
        return -1;
    const dv_gnode_t *conv = &g->nodes[c];
    if (value_users(g, v) != 1 || value_is_output(g, v) || bn->out < 0 || bn->out >= g->nvalues)
        return -1;
    const dv_oparam_val_t *relu = param(conv, "relu"), *bias = param(conv, "bias"), *cdt = param(conv, "dtype");
    const dv_oparam_val_t *shape = param(bn, "shape"), *bdt = param(bn, "dtype"), *eps = param(bn, "eps");
    if (!relu || !bias || !cdt || !shape || !bdt || !eps || relu->i)
        return -1;
    const dv_tensor_desc_t *y = &g->values[v].t;
    const dv_tensor_desc_t bn_in = {shape->shape, bdt->dt};
    if (!desc_equal(y, &g->values[bn->out].t) || !desc_equal(y, &bn_in) || cdt->dt != y->dtype)
        return -1;
    dv_opvals_t vals;
    dv_op_plan_t plan;
    conv_bn_vals(conv, &vals);
    if (dv_ops_plan(conv_op, cfg, &vals, &plan, NULL) != DV_OK)
        return -1;
    return c;
}

/* ---------------------------------------------------------------- the pass */

/* The index in the rewritten graph of value v of g (-1: removed, or not a value). */
static int new_value(const dv_graph_t *g, const int *vmap, int v) { return v >= 0 && v < g->nvalues ? vmap[v] : -1; }

int dv_fusion_fold(const dv_graph_t *g, const dv_config_t *cfg, dv_graph_t *out, dv_folds_t *folds, dv_error_t *err)
{
    int bn_of[DV_GRAPH_MAX_NODES], conv_of[DV_GRAPH_MAX_NODES], vmap[DV_GRAPH_MAX_VALUES];
    if (!g || !cfg || !out || !folds || out == g)
        return dv_error_set(err, DV_ERR_STATE, NULL, 0, 0, "dv_fusion_fold: needs a graph, a profile and a separate "
                            "graph and record for the result");
    memset(folds, 0, sizeof *folds);
    if (g->nnodes < 0 || g->nnodes > DV_GRAPH_MAX_NODES || g->nvalues < 0 || g->nvalues > DV_GRAPH_MAX_VALUES ||
        g->noutputs < 0 || g->noutputs > DV_GRAPH_MAX_OUTPUTS)
        return dv_error_set(err, DV_ERR_RANGE, g->path, 0, 0, "graph '%s': %d nodes, %d values, %d outputs: beyond "
                            "dv/graph.h's limits", g->name, g->nnodes, g->nvalues, g->noutputs);
    for (int i = 0; i < DV_GRAPH_MAX_NODES; i++)
        folds->node_map[i] = -1;

    /* 1. which batchnorms fold into which convs */
    int nfold = 0;
    for (int i = 0; i < g->nnodes; i++)
        bn_of[i] = conv_of[i] = -1;
    for (int b = 0; b < g->nnodes && nfold < DV_FOLD_MAX; b++) {
        const int c = conv_bn_source(g, cfg, b);
        if (c < 0)
            continue;
        bn_of[c] = b;
        conv_of[b] = c;
        nfold++;
    }
    if (nfold == 0) {
        *out = *g;
        for (int i = 0; i < g->nnodes; i++)
            folds->node_map[i] = i;
        return DV_OK;
    }

    /* 2. the values, but the outputs of the folded convs */
    memset(out, 0, sizeof *out);
    memcpy(out->name, g->name, sizeof out->name);
    memcpy(out->path, g->path, sizeof out->path);
    for (int v = 0; v < g->nvalues; v++) {
        const int p = g->values[v].producer;
        vmap[v] = -1;
        if (p >= 0 && p < g->nnodes && bn_of[p] >= 0 && g->nodes[p].out == v)
            continue;
        vmap[v] = out->nvalues;
        out->values[out->nvalues++] = g->values[v];
    }

    /* 3. the nodes: a folded conv in the conv's place, writing the batchnorm's value */
    for (int i = 0; i < g->nnodes; i++) {
        if (conv_of[i] >= 0) {
            folds->node_map[i] = folds->node_map[conv_of[i]];
            continue;
        }
        const int n = out->nnodes++;
        dv_gnode_t *d = &out->nodes[n];
        *d = g->nodes[i];
        for (int j = 0; j < d->nin; j++)
            d->in[j] = new_value(g, vmap, d->in[j]);
        folds->node_map[i] = n;
        const int b = bn_of[i];
        if (b < 0) {
            d->out = new_value(g, vmap, g->nodes[i].out);
            continue;
        }
        const dv_gnode_t *conv = &g->nodes[i], *bn = &g->nodes[b];
        char name[2 * DV_NAME_MAX + 1];
        snprintf(name, sizeof name, "%s+%s", conv->name, bn->name);
        snprintf(d->name, sizeof d->name, "%.*s", (int)sizeof d->name - 1, name);
        conv_bn_vals(conv, &d->vals);
        d->out = vmap[bn->out];
        dv_fold_t *f = &folds->f[folds->n++];
        snprintf(f->what, sizeof f->what, "batchnorm '%.32s' folded into conv2d '%.32s': w' = w*s, b' = (b-mean)*s+beta, "
                 "s = gamma/sqrt(var+eps)", bn->name, conv->name);
        f->node = n;
        f->nsrc = 2;
        f->src[0] = i;
        f->src[1] = b;
        f->eps = param(bn, "eps")->f;
        f->derive = derive_conv_bn;
    }
    for (int v = 0; v < out->nvalues; v++)
        if (out->values[v].producer >= 0)
            out->values[v].producer = folds->node_map[out->values[v].producer];

    /* 4. the outputs (never a removed value: a folded conv's output is not a graph output) */
    out->noutputs = g->noutputs;
    for (int i = 0; i < g->noutputs; i++)
        out->outputs[i] = new_value(g, vmap, g->outputs[i]);
    return DV_OK;
}
