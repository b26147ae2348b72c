/* tests/check_fold.c - graph fusion (fusion/fold.c): BatchNorm folded into the preceding conv2d.
 * The graphs are built in C (values, nodes, the operators' bind) so that the pass is tested on its
 * own.  The rewritten graph's structure is checked, then both graphs run with data on the 910B2 and
 * the 310: the folded conv's output must equal conv -> batchnorm within the fp16 tolerance.  And
 * what must not fold: a conv output with a second user or that is a graph output, a batchnorm not
 * after a conv, a conv with --relu, disagreeing dtypes, a folded conv that does not plan. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/fusion.h"
#include "dv/graph.h"
#include "dv/sim.h"
#include "support/dvt.h"

static const char *const profiles[] = {NULL /* ascend910b2 */, "ascend310"};

/* ---------------------------------------------------------------- building graphs */

static dv_graph_t *g_new(const char *name)
{
    dv_graph_t *g = calloc(1, sizeof *g);
    ck_assert_ptr_nonnull(g);
    snprintf(g->name, sizeof g->name, "%s", name);
    snprintf(g->path, sizeof g->path, "%s.yaml", name);
    return g;
}

static int g_find(const dv_graph_t *g, const char *name)
{
    for (int i = 0; i < g->nvalues; i++)
        if (strcmp(g->values[i].name, name) == 0)
            return i;
    return -1;
}

static int g_value(dv_graph_t *g, const char *name, dv_tensor_desc_t t, int producer)
{
    ck_assert_int_lt(g->nvalues, DV_GRAPH_MAX_VALUES);
    dv_gvalue_t *v = &g->values[g->nvalues];
    snprintf(v->name, sizeof v->name, "%s", name);
    v->t = t;
    v->producer = producer;
    v->line = g->nvalues + 1;
    return g->nvalues++;
}

static void g_input(dv_graph_t *g, const char *name, uint64_t n, uint64_t c, uint64_t h, uint64_t w)
{
    const dv_tensor_desc_t t = {{4, {n, c, h, w}}, DV_DT_F16};
    g_value(g, name, t, -1);
}

/* A node: op's parameters from `params` ("--cout 24 --kh 3"), inputs by value name (spaces
 * between), shapes through the operator's bind; its output value is named as the node. */
static void g_node(dv_graph_t *g, const char *name, const char *opname, const char *inputs, const char *params)
{
    ck_assert_int_lt(g->nnodes, DV_GRAPH_MAX_NODES);
    dv_gnode_t *n = &g->nodes[g->nnodes];
    dv_error_t err = {0};
    char buf[256], *argv[32];
    int argc = 0;
    snprintf(n->name, sizeof n->name, "%s", name);
    n->op = dv_ops_find(opname);
    ck_assert_msg(n->op && n->op->bind, "%s: no graph operator %s", name, opname);
    snprintf(buf, sizeof buf, "%s", params);
    for (char *tok = strtok(buf, " "); tok && argc < 32; tok = strtok(NULL, " "))
        argv[argc++] = tok;
    ck_assert_msg(dv_ops_parse(n->op, argc, argv, &n->vals, &err) == DV_OK, "%s: %s", name, err.msg);
    dv_tensor_desc_t in[DV_GNODE_MAX_IN], out;
    snprintf(buf, sizeof buf, "%s", inputs);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        ck_assert_int_lt(n->nin, DV_GNODE_MAX_IN);
        const int v = g_find(g, tok);
        ck_assert_msg(v >= 0, "%s: no value %s", name, tok);
        in[n->nin] = g->values[v].t;
        n->in[n->nin++] = v;
    }
    ck_assert_msg(n->op->bind(n->op, in, n->nin, &n->vals, &out, &err) == DV_OK, "%s: %s", name, err.msg);
    n->line = 100 + g->nnodes;
    n->out = g_value(g, name, out, g->nnodes);
    g->nnodes++;
}

static void g_output(dv_graph_t *g, const char *name)
{
    const int v = g_find(g, name);
    ck_assert_int_ge(v, 0);
    g->outputs[g->noutputs++] = v;
}

static int param_i(const dv_gnode_t *n, const char *name)
{
    const int i = dv_ops_param_index(n->op, name);
    ck_assert_int_ge(i, 0);
    return (int)n->vals.v[i].i;
}

/* conv2d (24 output channels, 3x3, padding 1) -> batchnorm -> relu on x [n, cin, h, w]; the
 * batchnorm's eps (0.25) is far from the default so that a fold using the wrong one shows. */
static dv_graph_t *conv_bn_relu(uint64_t n, uint64_t cin, uint64_t h, uint64_t w, const char *conv_params)
{
    dv_graph_t *g = g_new("conv_bn_relu");
    char params[160];
    snprintf(params, sizeof params, "--cout 24 --kh 3 --kw 3 --pad 1 %s", conv_params);
    g_input(g, "x", n, cin, h, w);
    g_node(g, "conv", "conv2d", "x", params);
    g_node(g, "bn", "batchnorm", "conv", "--eps 0.25");
    g_node(g, "act", "relu", "bn", "");
    g_output(g, "act");
    return g;
}

static void fold(const dv_graph_t *g, const char *profile, dv_graph_t *out, dv_folds_t *folds)
{
    dv_config_t cfg;
    dv_error_t err = {0};
    dvt_config(&cfg, profile, NULL);
    ck_assert_msg(dv_fusion_fold(g, &cfg, out, folds, &err) == DV_OK, "%s", err.msg);
}

/* Not folded: *out is a copy of g and every node maps to itself. */
static void check_unfolded(const dv_graph_t *g, const char *profile, const char *why)
{
    dv_graph_t *out = g_new("out");
    dv_folds_t folds;
    fold(g, profile, out, &folds);
    ck_assert_msg(folds.n == 0, "%s: folded (%s)", why, folds.n ? folds.f[0].what : "");
    ck_assert_msg(memcmp(out, g, sizeof *g) == 0, "%s: the graph changed", why);
    for (int i = 0; i < g->nnodes; i++)
        ck_assert_int_eq(folds.node_map[i], i);
    free(out);
}

/* ---------------------------------------------------------------- structure */

START_TEST(test_fold_conv_bn_structure)
{
    dv_graph_t *g = conv_bn_relu(1, 16, 8, 8, ""), *out = g_new("out");
    dv_folds_t folds;
    fold(g, NULL, out, &folds);
    ck_assert_int_eq(folds.n, 1);
    const dv_fold_t *f = &folds.f[0];
    ck_assert_int_eq(f->node, 0);
    ck_assert(f->nsrc == 2 && f->src[0] == 0 && f->src[1] == 1);
    ck_assert(f->derive != NULL);
    ck_assert_double_eq(f->eps, 0.25);
    ck_assert_msg(strstr(f->what, "batchnorm 'bn'") && strstr(f->what, "conv2d 'conv'") && strstr(f->what, "w*s"),
                  "%s", f->what);
    /* nodes: conv+bn (a conv2d with --bias on, the conv's other parameters), act */
    ck_assert_int_eq(out->nnodes, 2);
    const dv_gnode_t *c = &out->nodes[0], *a = &out->nodes[1];
    ck_assert_str_eq(c->name, "conv+bn");
    ck_assert_ptr_eq(c->op, dv_ops_find("conv2d"));
    ck_assert_int_eq(param_i(c, "bias"), 1);
    ck_assert_int_eq(param_i(c, "relu"), 0);
    ck_assert(param_i(c, "cout") == 24 && param_i(c, "cin") == 16 && param_i(c, "kh") == 3 && param_i(c, "pad") == 1);
    ck_assert_int_eq(c->line, g->nodes[0].line);
    ck_assert_str_eq(a->name, "act");
    ck_assert_ptr_eq(a->op, dv_ops_find("relu"));
    /* values: x, bn (written by the folded conv), act; the conv's output is gone */
    ck_assert_int_eq(out->nvalues, 3);
    ck_assert_int_eq(g_find(out, "conv"), -1);
    const int x = g_find(out, "x"), bn = g_find(out, "bn"), act = g_find(out, "act");
    ck_assert(x == 0 && bn == 1 && act == 2);
    ck_assert(c->nin == 1 && c->in[0] == x && c->out == bn);
    ck_assert(a->nin == 1 && a->in[0] == bn && a->out == act);
    ck_assert(out->values[x].producer == -1 && out->values[bn].producer == 0 && out->values[act].producer == 1);
    ck_assert(memcmp(&out->values[bn].t, &g->values[g_find(g, "bn")].t, sizeof(dv_tensor_desc_t)) == 0);
    ck_assert(out->noutputs == 1 && out->outputs[0] == act);
    ck_assert(folds.node_map[0] == 0 && folds.node_map[1] == 0 && folds.node_map[2] == 1);
    ck_assert_str_eq(out->name, g->name);
    ck_assert_str_eq(out->path, g->path);
    free(g);
    free(out);
}
END_TEST

/* Two conv -> batchnorm pairs in a row (the second conv reads the first batchnorm's value, which
 * the first folded conv now writes) and a conv that already has a bias: both fold. */
START_TEST(test_fold_two_pairs)
{
    dv_graph_t *g = g_new("two"), *out = g_new("out");
    dv_folds_t folds;
    g_input(g, "x", 1, 16, 8, 8);
    g_node(g, "c1", "conv2d", "x", "--cout 32 --bias on");
    g_node(g, "b1", "batchnorm", "c1", "");
    g_node(g, "c2", "conv2d", "b1", "--cout 16 --kh 1 --kw 1 --pad 0");
    g_node(g, "b2", "batchnorm", "c2", "");
    g_output(g, "b2");
    fold(g, NULL, out, &folds);
    ck_assert_int_eq(folds.n, 2);
    ck_assert_int_eq(out->nnodes, 2);
    ck_assert_str_eq(out->nodes[0].name, "c1+b1");
    ck_assert_str_eq(out->nodes[1].name, "c2+b2");
    ck_assert(folds.f[0].node == 0 && folds.f[0].src[0] == 0 && folds.f[0].src[1] == 1);
    ck_assert(folds.f[1].node == 1 && folds.f[1].src[0] == 2 && folds.f[1].src[1] == 3);
    ck_assert(folds.node_map[0] == 0 && folds.node_map[1] == 0 && folds.node_map[2] == 1 && folds.node_map[3] == 1);
    const int b1 = g_find(out, "b1"), b2 = g_find(out, "b2");
    ck_assert(out->nvalues == 3 && g_find(out, "c1") < 0 && g_find(out, "c2") < 0);
    ck_assert(out->nodes[1].in[0] == b1 && out->nodes[0].out == b1 && out->nodes[1].out == b2);
    ck_assert(out->outputs[0] == b2);
    ck_assert_int_eq(param_i(&out->nodes[1], "cout"), 16);
    ck_assert_int_eq(param_i(&out->nodes[1], "kh"), 1);
    free(g);
    free(out);
}
END_TEST

START_TEST(test_fold_refused)
{
    dv_graph_t *g;
    /* the conv's output has a second user */
    g = g_new("two_users");
    g_input(g, "x", 1, 16, 8, 8);
    g_node(g, "conv", "conv2d", "x", "--cout 16");
    g_node(g, "bn", "batchnorm", "conv", "");
    g_node(g, "side", "relu", "conv", "");
    g_output(g, "bn");
    g_output(g, "side");
    check_unfolded(g, NULL, "a conv output read by a batchnorm and a relu");
    free(g);
    /* the conv's output is a graph output */
    g = g_new("conv_out");
    g_input(g, "x", 1, 16, 8, 8);
    g_node(g, "conv", "conv2d", "x", "--cout 16");
    g_node(g, "bn", "batchnorm", "conv", "");
    g_output(g, "conv");
    g_output(g, "bn");
    check_unfolded(g, NULL, "a conv output that is a graph output");
    free(g);
    /* batchnorms not after a conv: after a relu, on a graph input */
    g = g_new("no_conv");
    g_input(g, "x", 1, 16, 8, 8);
    g_node(g, "act", "relu", "x", "");
    g_node(g, "bn", "batchnorm", "act", "");
    g_node(g, "bn0", "batchnorm", "x", "");
    g_output(g, "bn");
    g_output(g, "bn0");
    check_unfolded(g, NULL, "batchnorms after a relu and on a graph input");
    free(g);
    /* a ReLU inside the conv */
    g = conv_bn_relu(1, 16, 8, 8, "--relu on");
    check_unfolded(g, NULL, "a conv with --relu");
    free(g);
    /* the batchnorm's dtype disagrees with the value's */
    g = conv_bn_relu(1, 16, 8, 8, "");
    g->nodes[1].vals.v[dv_ops_param_index(g->nodes[1].op, "dtype")].dt = DV_DT_F32;
    check_unfolded(g, NULL, "a batchnorm whose dtype is not the conv's");
    free(g);
    /* 28 x 28 taps fit the 910B's transform unit without --bias (P = 992) but not with it (two more
     * fp32 buffers: P = 736): the folded conv would not plan */
    g = g_new("big_kernel");
    g_input(g, "x", 1, 16, 28, 28);
    g_node(g, "conv", "conv2d", "x", "--cout 16 --kh 28 --kw 28 --pad 0 --double-buffer off");
    g_node(g, "bn", "batchnorm", "conv", "");
    g_output(g, "bn");
    dv_config_t cfg;
    dv_op_plan_t plan;
    dv_error_t err = {0};
    dvt_config(&cfg, NULL, NULL);
    ck_assert_msg(dv_ops_plan(g->nodes[0].op, &cfg, &g->nodes[0].vals, &plan, &err) == DV_OK, "%s", err.msg);
    check_unfolded(g, NULL, "a folded conv that does not fit the UB");
    free(g);
}
END_TEST

/* ---------------------------------------------------------------- numbers */

/* One node's launch: its plan and its GM arguments with their random init (as `dvsim op` makes
 * them), graph inputs in[0..nin) copied over the node's input arguments. */
typedef struct node_run {
    dv_op_plan_t plan;
    dv_gm_t gm;
} node_run_t;

static void node_setup(node_run_t *r, const dv_config_t *cfg, const dv_gnode_t *n, const uint8_t *const *in, int nin)
{
    dv_error_t err = {0};
    memset(r, 0, sizeof *r);
    ck_assert_msg(dv_ops_plan(n->op, cfg, &n->vals, &r->plan, &err) == DV_OK, "%s: %s", n->name, err.msg);
    ck_assert_msg(dv_sim_gm_setup(cfg, &r->plan.info, true, "", DV_GM_BASE, &r->gm, &err) == DV_OK, "%s: %s",
                  n->name, err.msg);
    int k = 0;
    for (uint32_t i = 0; i < r->plan.info.nargs && k < nin; i++)
        if (r->plan.args[i].dir == DV_ARG_IN && !(r->plan.own_args & (1u << i)))
            memcpy(r->gm.data[i], in[k++], r->gm.bytes[i]);
    ck_assert_int_eq(k, nin);
}

static void node_exec(node_run_t *r, dv_model_t *m, const dv_config_t *cfg, const dv_gnode_t *n)
{
    dv_error_t err = {0};
    dv_kernel_t *k = NULL;
    dv_run_opts_t o;
    dv_counters_t cnt;
    dv_run_opts_default(&o);
    o.data = true;
    ck_assert_msg(dv_ops_kernel(n->op, cfg, &r->plan, &k, &err) == DV_OK, "%s: %s", n->name, err.msg);
    ck_assert_msg(dv_model_run(m, k, &r->gm, &o, &cnt, &err) == DV_OK, "%s: %s", n->name, err.msg);
    ck_assert_msg(cnt.hazards == 0, "%s: %llu hazards", n->name, (unsigned long long)cnt.hazards);
    dv_counters_free(&cnt);
    dvk_kernel_destroy(k);
}

/* The node's output: its first DV_ARG_OUT argument. */
static uint32_t out_arg(const dv_op_plan_t *p)
{
    for (uint32_t i = 0; i < p->info.nargs; i++)
        if (p->args[i].dir == DV_ARG_OUT)
            return i;
    ck_abort_msg("%s has no output", p->info.name);
    return 0;
}

/* conv -> batchnorm against the folded conv, on data: x [2, 20, 9, 11] (a partial channel group,
 * odd positions), the batchnorm's own statistics from its random init. */
START_TEST(test_fold_conv_bn_numbers)
{
    const char *profile = profiles[_i];
    dv_config_t cfg;
    dvt_config(&cfg, profile, NULL);
    dv_graph_t *g = conv_bn_relu(2, 20, 9, 11, "--cores 3"), *out = g_new("out");
    dv_folds_t folds;
    dv_error_t err = {0};
    ck_assert_msg(dv_fusion_fold(g, &cfg, out, &folds, &err) == DV_OK, "%s", err.msg);
    ck_assert_int_eq(folds.n, 1);
    dv_model_t *m = dvt_model(&cfg);

    /* the original: conv, then batchnorm on its output */
    node_run_t conv, bn, fc;
    const uint8_t *x;
    node_setup(&conv, &cfg, &g->nodes[0], NULL, 0);
    x = conv.gm.data[0];
    node_exec(&conv, m, &cfg, &g->nodes[0]);
    const uint32_t cy = out_arg(&conv.plan);
    const uint8_t *conv_y = conv.gm.data[cy];
    node_setup(&bn, &cfg, &g->nodes[1], &conv_y, 1);
    node_exec(&bn, m, &cfg, &g->nodes[1]);
    const uint32_t by = out_arg(&bn.plan);

    /* the folded conv: the same x, w' and b' derived from the originals' bytes */
    const dv_fold_t *f = &folds.f[0];
    const dv_gnode_t *fn = &out->nodes[f->node];
    node_setup(&fc, &cfg, fn, &x, 1);
    uint8_t *dst[DV_OP_MAX_ARGS] = {0};
    for (uint32_t i = 0; i < fc.plan.info.nargs; i++)
        if (fc.plan.own_args & (1u << i)) {
            memset(fc.gm.data[i], 0, fc.gm.bytes[i]);
            dst[i] = fc.gm.data[i];
        }
    const dv_op_plan_t *src_plans[2] = {&conv.plan, &bn.plan};
    uint8_t *const *src_args[2] = {conv.gm.data, bn.gm.data};
    ck_assert_msg(f->derive(f, &fc.plan, dst, src_plans, src_args, &err) == DV_OK, "%s", err.msg);
    node_exec(&fc, m, &cfg, fn);
    const uint32_t fy = out_arg(&fc.plan);

    /* equal within the fp16 tolerance; and the batchnorm did change the conv's output */
    const uint64_t elems = bn.plan.elems[by];
    ck_assert_uint_eq(fc.plan.elems[fy], elems);
    ck_assert_uint_eq(elems, 2 * 24 * 9 * 11);
    dv_check_result_t r, raw;
    memset(&r, 0, sizeof r);
    memset(&raw, 0, sizeof raw);
    dv_ops_compare(DV_DT_F16, elems, fc.gm.data[fy], bn.gm.data[by], 1.0, &r);
    ck_assert_msg(r.compared == elems && r.mismatches == 0,
                  "%s: folded vs unfolded: %llu of %llu outside the fp16 tolerance, first [%llu] %g vs %g; max abs err "
                  "%g", profile ? profile : "ascend910b2", (unsigned long long)r.mismatches,
                  (unsigned long long)r.compared, (unsigned long long)r.first_bad, r.first_got, r.first_want,
                  r.max_abs_err);
    dv_ops_compare(DV_DT_F16, elems, conv.gm.data[cy], bn.gm.data[by], 1.0, &raw);
    ck_assert_msg(raw.mismatches > elems / 2, "the batchnorm left %llu of %llu elements as they were",
                  (unsigned long long)(elems - raw.mismatches), (unsigned long long)elems);
    dv_sim_gm_free(&conv.gm);
    dv_sim_gm_free(&bn.gm);
    dv_sim_gm_free(&fc.gm);
    dv_model_destroy(m);
    free(g);
    free(out);
}
END_TEST

/* The derivation by hand: one output channel, 1x1 kernel, one input channel. */
START_TEST(test_fold_derive_by_hand)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dv_graph_t *g = g_new("tiny"), *out = g_new("out");
    g_input(g, "x", 1, 1, 16, 16);
    g_node(g, "conv", "conv2d", "x", "--cout 1 --kh 1 --kw 1 --pad 0 --bias on");
    g_node(g, "bn", "batchnorm", "conv", "--eps 0.5");
    g_output(g, "bn");
    dv_folds_t folds;
    dv_error_t err = {0};
    ck_assert_msg(dv_fusion_fold(g, &cfg, out, &folds, &err) == DV_OK, "%s", err.msg);
    ck_assert_int_eq(folds.n, 1);
    dv_op_plan_t cp, bp, fp;
    ck_assert(dv_ops_plan(g->nodes[0].op, &cfg, &g->nodes[0].vals, &cp, &err) == DV_OK);
    ck_assert(dv_ops_plan(g->nodes[1].op, &cfg, &g->nodes[1].vals, &bp, &err) == DV_OK);
    ck_assert(dv_ops_plan(out->nodes[0].op, &cfg, &out->nodes[0].vals, &fp, &err) == DV_OK);
    /* w = 0.75, b = 0.25; mean = 0.5, var = 1.5, gamma = 2, beta = -1, eps 0.5: s = 2 / sqrt(2),
     * w' = 0.75 * sqrt(2) = 1.0606... (fp16 1.0605469), b' = (0.25 - 0.5) * sqrt(2) - 1 = -1.3535534 */
    uint8_t cw[64] = {0}, cb[64] = {0}, st[4][64] = {{0}}, fw[64] = {0}, fb[64] = {0};
    uint8_t *csrc[DV_OP_MAX_ARGS] = {0}, *bsrc[DV_OP_MAX_ARGS] = {0}, *dst[DV_OP_MAX_ARGS] = {0};
    static const char *const names[4] = {"mean", "var", "gamma", "beta"};
    static const double stv[4] = {0.5, 1.5, 2.0, -1.0};
    for (uint32_t i = 0; i < cp.info.nargs; i++) {
        if (strcmp(cp.args[i].name, "w") == 0)
            dv_ops_store(csrc[i] = cw, cp.args[i].dtype, 0, 0.75);
        if (strcmp(cp.args[i].name, "b") == 0)
            dv_ops_store(csrc[i] = cb, cp.args[i].dtype, 0, 0.25);
    }
    for (uint32_t i = 0; i < bp.info.nargs; i++)
        for (int j = 0; j < 4; j++)
            if (strcmp(bp.args[i].name, names[j]) == 0)
                dv_ops_store(bsrc[i] = st[j], bp.args[i].dtype, 0, stv[j]);
    int iw = -1, ib = -1;
    for (uint32_t i = 0; i < fp.info.nargs; i++) {
        if (strcmp(fp.args[i].name, "w") == 0)
            dst[iw = (int)i] = fw;
        if (strcmp(fp.args[i].name, "b") == 0)
            dst[ib = (int)i] = fb;
    }
    ck_assert(iw >= 0 && ib >= 0);
    const dv_op_plan_t *sp[2] = {&cp, &bp};
    uint8_t *const *sa[2] = {csrc, bsrc};
    ck_assert_msg(folds.f[0].derive(&folds.f[0], &fp, dst, sp, sa, &err) == DV_OK, "%s", err.msg);
    ck_assert_double_eq(dv_ops_load(fw, DV_DT_F16, 0), dv_ops_round(DV_DT_F16, 0.75 * 1.4142135623730951));
    ck_assert_double_eq(dv_ops_load(fb, DV_DT_F32, 0), dv_ops_round(DV_DT_F32, -0.25 * 1.4142135623730951 - 1.0));
    ck_assert_double_eq_tol(dv_ops_load(fw, DV_DT_F16, 0), 1.0605469, 1e-7);
    /* a missing statistic is an error naming the rewrite, not a crash */
    bsrc[2] = NULL;
    ck_assert_int_ne(folds.f[0].derive(&folds.f[0], &fp, dst, sp, sa, &err), DV_OK);
    ck_assert_msg(strstr(err.msg, "batchnorm 'bn' folded into conv2d 'conv'"), "%s", err.msg);
    free(g);
    free(out);
}
END_TEST

Suite *dv_fold_suite(void)
{
    Suite *s = suite_create("fold");
    TCase *tc = tcase_create("conv_bn");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_fold_conv_bn_structure);
    tcase_add_test(tc, test_fold_two_pairs);
    tcase_add_test(tc, test_fold_refused);
    tcase_add_test(tc, test_fold_derive_by_hand);
    tcase_add_loop_test(tc, test_fold_conv_bn_numbers, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
