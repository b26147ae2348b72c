/* tests/check_graph.c - operator graphs (fusion/graph.c): the minimum form of issue 13 with its
 * inferred shapes and dtypes, matmul's bind, a graph with branches and its users, and every error a
 * graph file can have, each with its line and the node it concerns. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dv/graph.h"

Suite *dv_graph_suite(void);

/* Big (one dv_opvals_t per node): one per process, and Check forks per test. */
static dv_graph_t g;

#define ck_assert_has(haystack, needle) \
    ck_assert_msg(strstr((haystack), (needle)) != NULL, "'%s' does not contain '%s'", (haystack), (needle))

static int parse(const char *text, dv_error_t *err)
{
    memset(err, 0, sizeof *err);
    return dv_graph_parse(text, strlen(text), "g.yaml", &g, err);
}

static void parse_ok(const char *text)
{
    dv_error_t err;
    int rc = parse(text, &err);
    ck_assert_msg(rc == DV_OK, "rc %d: %s:%d: %s", rc, err.file, err.line, err.msg);
}

/* Parsing text fails with code at g.yaml:line with exactly msg. */
static void expect_error(const char *text, int code, int line, const char *msg)
{
    dv_error_t err;
    memset(&g, 0, sizeof g);
    int rc = parse(text, &err);
    ck_assert_msg(rc == code, "rc %d, want %d (%d: %s)", rc, code, err.line, err.msg);
    ck_assert_int_eq(err.code, code);
    ck_assert_str_eq(err.file, "g.yaml");
    ck_assert_msg(err.line == line, "line %d, want %d (%s)", err.line, line, err.msg);
    ck_assert_str_eq(err.msg, msg);
    ck_assert_int_eq(g.nnodes, 0); /* *g is filled only on success */
    ck_assert_int_eq(g.nvalues, 0);
}

static const dv_gnode_t *node(const char *name)
{
    for (int i = 0; i < g.nnodes; i++)
        if (strcmp(g.nodes[i].name, name) == 0)
            return &g.nodes[i];
    ck_abort_msg("no node %s", name);
    return NULL;
}

static const dv_gvalue_t *value(const char *name)
{
    int v = dv_graph_value(&g, name);
    ck_assert_msg(v >= 0, "no value %s", name);
    return &g.values[v];
}

static void expect_tensor(const char *name, const char *shape, dv_dtype_t dt)
{
    char s[96];
    dv_shape_format(&value(name)->t.shape, s, sizeof s);
    ck_assert_str_eq(s, shape);
    ck_assert_str_eq(dv_ops_dtype_name(value(name)->t.dtype), dv_ops_dtype_name(dt));
}

/* A parameter of a node as the command line spells it, and whether the file or bind set it. */
static void expect_param(const char *nodename, const char *param, const char *text, bool given)
{
    const dv_gnode_t *n = node(nodename);
    int i = dv_ops_param_index(n->op, param);
    char buf[96];
    ck_assert_msg(i >= 0, "%s has no parameter %s", n->op->name, param);
    dv_ops_format_val(&n->op->params[i], &n->vals.v[i], buf, sizeof buf);
    ck_assert_msg(strcmp(buf, text) == 0, "%s --%s is %s, want %s", nodename, param, buf, text);
    ck_assert_msg(n->vals.given[i] == given, "%s --%s given %d, want %d", nodename, param, n->vals.given[i], given);
}

/* The minimum form of issue 13, exactly. */
static const char minimum[] =
    "name: matmul_gelu\n"
    "inputs:\n"
    "  a: {shape: [1024, 768], dtype: fp16}\n"
    "  b: {shape: [768, 3072], dtype: fp16}\n"
    "nodes:\n"
    "  - name: mm\n"
    "    op: matmul                 # an operator of the library (dvsim op --list)\n"
    "    inputs: [a, b]             # graph inputs or earlier nodes\n"
    "    params: {out-dtype: fp32, base-m: 128, grid: 4x6}   # optional: the operator's own parameters, without the "
    "dashes\n"
    "  - {name: act, op: gelu, inputs: [mm]}\n"
    "outputs: [act]\n";

/* ---------------------------------------------------------------- accepted graphs */

START_TEST(test_graph_minimum_form)
{
    parse_ok(minimum);
    ck_assert_str_eq(g.name, "matmul_gelu");
    ck_assert_str_eq(g.path, "g.yaml");
    ck_assert_int_eq(g.nvalues, 4);
    ck_assert_int_eq(g.nnodes, 2);
    ck_assert_int_eq(g.noutputs, 1);
    /* values: the inputs in file order, then one per node */
    const char *names[] = {"a", "b", "mm", "act"};
    const int producers[] = {-1, -1, 0, 1}, lines[] = {3, 4, 6, 10};
    for (int v = 0; v < 4; v++) {
        ck_assert_str_eq(g.values[v].name, names[v]);
        ck_assert_int_eq(g.values[v].producer, producers[v]);
        ck_assert_int_eq(g.values[v].line, lines[v]);
    }
    expect_tensor("a", "1024x768", DV_DT_F16);
    expect_tensor("b", "768x3072", DV_DT_F16);
    expect_tensor("mm", "1024x3072", DV_DT_F32); /* out-dtype fp32 */
    expect_tensor("act", "1024x3072", DV_DT_F32);

    const dv_gnode_t *mm = node("mm"), *act = node("act");
    ck_assert_ptr_eq(mm->op, dv_ops_find("matmul"));
    ck_assert_int_eq(mm->line, 6);
    ck_assert_int_eq(mm->nin, 2);
    ck_assert_int_eq(mm->in[0], 0);
    ck_assert_int_eq(mm->in[1], 1);
    ck_assert_int_eq(mm->out, 2);
    ck_assert_ptr_eq(act->op, dv_ops_find("gelu"));
    ck_assert_int_eq(act->line, 10);
    ck_assert_int_eq(act->nin, 1);
    ck_assert_int_eq(act->in[0], 2);
    ck_assert_int_eq(act->out, 3);
    /* the file's parameters, what bind set, the defaults */
    expect_param("mm", "m", "1024", true);
    expect_param("mm", "n", "3072", true);
    expect_param("mm", "k", "768", true);
    expect_param("mm", "dtype", "fp16", true);
    expect_param("mm", "out-dtype", "fp32", true);
    expect_param("mm", "base-m", "128", true);
    expect_param("mm", "grid", "4x6", true);
    expect_param("mm", "base-n", "256", false);
    expect_param("mm", "b-transposed", "off", false);
    expect_param("act", "shape", "1024x3072", true);
    expect_param("act", "dtype", "fp32", true);
    expect_param("act", "tile-elems", "auto", false);

    ck_assert_int_eq(g.outputs[0], 3);
    ck_assert(dv_graph_is_output(&g, 3));
    ck_assert(!dv_graph_is_output(&g, 2));
    int users[4];
    ck_assert_int_eq(dv_graph_users(&g, 0, users, 4), 1);
    ck_assert_int_eq(users[0], 0);
    ck_assert_int_eq(dv_graph_users(&g, 2, users, 4), 1);
    ck_assert_int_eq(users[0], 1);
    ck_assert_int_eq(dv_graph_users(&g, 3, users, 4), 0);
    ck_assert_int_eq(dv_graph_value(&g, "nothing"), -1);
}
END_TEST

START_TEST(test_graph_load_file)
{
    char path[256];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/dvgraphXXXXXX", dir && dir[0] ? dir : "/tmp");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_ge(fputs(minimum, f), 0);
    ck_assert_int_eq(fclose(f), 0);
    dv_error_t err;
    int rc = dv_graph_load(path, &g, &err);
    ck_assert_msg(rc == DV_OK, "%s", err.msg);
    ck_assert_str_eq(g.path, path);
    ck_assert_int_eq(g.nnodes, 2);
    expect_tensor("act", "1024x3072", DV_DT_F32);

    /* errors name the file */
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_ge(fputs("name: x\ninputs: {a: {shape: [4], dtype: fp16}}\nnodes:\n  - {name: r, op: relu, "
                           "inputs: [b]}\noutputs: [r]\n", f), 0);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(dv_graph_load(path, &g, &err), DV_ERR_UNKNOWN);
    ck_assert_str_eq(err.file, path);
    ck_assert_int_eq(err.line, 4);
    ck_assert_str_eq(err.msg, "node 'r' (relu): input 'b' is not a graph input or an earlier node");
    unlink(path);

    ck_assert_int_eq(dv_graph_load(path, &g, &err), DV_ERR_IO);
    ck_assert_str_eq(err.file, path);
    ck_assert_has(err.msg, "cannot open the graph");
}
END_TEST

/* x, y -> s = add(x, y) -> n = layernorm(s), g = gelu(s) -> o = mul(n, g); s has two users, x is read
 * twice by one node. */
START_TEST(test_graph_branches_and_users)
{
    parse_ok("name: add_layernorm\n"
             "description: an Add + LayerNorm with a side branch\n"
             "inputs:\n"
             "  x: {shape: [128, 768], dtype: fp16}\n"
             "  y: {shape: [128, 768], dtype: fp16}\n"
             "nodes:\n"
             "  - {name: s, op: add, inputs: [x, y], params: {alpha: 0.5}}\n"
             "  - {name: n, op: layernorm, inputs: [s], params: {eps: 1e-6}}\n"
             "  - {name: act, op: gelu, inputs: [s]}\n"
             "  - {name: o, op: mul, inputs: [n, act]}\n"
             "  - {name: xx, op: add, inputs: [x, x]}\n"
             "outputs: [o, s, xx]\n");
    ck_assert_int_eq(g.nvalues, 7);
    ck_assert_int_eq(g.nnodes, 5);
    for (int v = 2; v < 7; v++)
        expect_tensor(g.values[v].name, "128x768", DV_DT_F16);
    expect_param("s", "alpha", "0.5", true);
    expect_param("n", "eps", "1e-06", true);
    expect_param("n", "shape", "128x768", true);
    ck_assert_int_eq(node("o")->in[0], dv_graph_value(&g, "n"));
    ck_assert_int_eq(node("o")->in[1], dv_graph_value(&g, "act"));

    int users[4] = {-1, -1, -1, -1};
    const int x = dv_graph_value(&g, "x"), s = dv_graph_value(&g, "s"), o = dv_graph_value(&g, "o");
    ck_assert_int_eq(dv_graph_users(&g, x, users, 4), 2); /* s and xx (which reads it twice) */
    ck_assert_int_eq(users[0], 0);
    ck_assert_int_eq(users[1], 4);
    ck_assert_int_eq(dv_graph_users(&g, s, users, 4), 2); /* n and act */
    ck_assert_int_eq(users[0], 1);
    ck_assert_int_eq(users[1], 2);
    users[1] = -1;
    ck_assert_int_eq(dv_graph_users(&g, s, users, 1), 2); /* the count beyond cap, the indices up to it */
    ck_assert_int_eq(users[0], 1);
    ck_assert_int_eq(users[1], -1);
    ck_assert_int_eq(dv_graph_users(&g, s, NULL, 0), 2);
    ck_assert_int_eq(dv_graph_users(&g, o, users, 4), 0);
    ck_assert(dv_graph_is_output(&g, o));
    ck_assert(dv_graph_is_output(&g, s));
    ck_assert(!dv_graph_is_output(&g, dv_graph_value(&g, "n")));
    ck_assert(!dv_graph_is_output(&g, x));
}
END_TEST

/* matmul's bind: B transposed, int8 -> int32, out-dtype given or auto. */
START_TEST(test_graph_matmul_bind)
{
    parse_ok("name: mm\n"
             "inputs:\n"
             "  a: {shape: [64, 32], dtype: int8}\n"
             "  bt: {shape: [128, 32], dtype: int8}\n"
             "  h: {shape: [48, 80], dtype: fp16}\n"
             "  w: {shape: [80, 16], dtype: fp16}\n"
             "nodes:\n"
             "  - {name: q, op: matmul, inputs: [a, bt], params: {b-transposed: true}}\n"
             "  - {name: p, op: matmul, inputs: [h, w]}\n"
             "  - {name: pb, op: matmul, inputs: [h, w], params: {out-dtype: bf16, relu: on}}\n"
             "outputs: [q, p, pb]\n");
    expect_tensor("q", "64x128", DV_DT_S32); /* int8 accumulates in int32 */
    expect_param("q", "m", "64", true);
    expect_param("q", "n", "128", true);
    expect_param("q", "k", "32", true);
    expect_param("q", "dtype", "int8", true);
    expect_param("q", "b-transposed", "on", true);
    expect_param("q", "out-dtype", "auto", false);
    expect_tensor("p", "48x16", DV_DT_F16);
    expect_param("p", "k", "80", true);
    expect_tensor("pb", "48x16", DV_DT_BF16);
    expect_param("pb", "relu", "on", true);
}
END_TEST

/* ---------------------------------------------------------------- errors */

/* A two-input graph head for the node errors below: a at line 3, b at line 4, nodes from line 6. */
#define HEAD                                                                                                    \
    "name: t\n"                                                                                                 \
    "inputs:\n"                                                                                                 \
    "  a: {shape: [1024, 768], dtype: fp16}\n"                                                                  \
    "  b: {shape: [768, 3072], dtype: fp16}\n"                                                                  \
    "nodes:\n"

START_TEST(test_graph_yaml_syntax_error)
{
    dv_error_t err;
    ck_assert_int_eq(parse("name: t\ninputs:\n  a: {shape: [4, 4], dtype: fp16\nnodes: []\n", &err), DV_ERR_PARSE);
    ck_assert_str_eq(err.file, "g.yaml");
    ck_assert_int_eq(err.line, 4);
    ck_assert_has(err.msg, "YAML syntax error: ");
    ck_assert_has(err.msg, "started at line 3");
    ck_assert_int_eq(parse("name: t\n  bad: indent\n", &err), DV_ERR_PARSE);
    ck_assert_int_eq(err.line, 2);
    ck_assert_has(err.msg, "YAML syntax error: ");
    expect_error("", DV_ERR_PARSE, 1, "empty graph file: expected name:, inputs:, nodes: and outputs:");
    expect_error("- a\n- b\n", DV_ERR_PARSE, 1,
                 "a graph file is a mapping (name:, inputs:, nodes:, outputs:), got a sequence");
    expect_error("name: t\n---\nname: u\n", DV_ERR_PARSE, 3,
                 "a graph file is one YAML document; a second one starts here");
}
END_TEST

START_TEST(test_graph_top_level_keys)
{
    expect_error(HEAD "  - {name: act, op: gelu, inputs: [a]}\nnode: [x]\noutputs: [act]\n", DV_ERR_UNKNOWN, 7,
                 "unknown key 'node' in the graph (did you mean 'nodes'? the keys are name, description, inputs, "
                 "nodes, outputs)");
    expect_error(HEAD "  - {name: act, op: gelu, inputs: [a]}\nversion: 2\noutputs: [act]\n", DV_ERR_UNKNOWN, 7,
                 "unknown key 'version' in the graph (the keys are name, description, inputs, nodes, outputs)");
    expect_error(HEAD "  - {name: act, op: gelu, inputs: [a]}\nname: u\noutputs: [act]\n", DV_ERR_PARSE, 7,
                 "duplicate key 'name' in the graph (first at line 1)");
    expect_error(HEAD "  - {name: act, op: gelu, inputs: [a]}\n", DV_ERR_PARSE, 1, "the graph has no 'outputs:'");
    expect_error("name: t\ninputs: {a: {shape: [4], dtype: fp16}}\noutputs: [a]\n", DV_ERR_PARSE, 1,
                 "the graph has no 'nodes:'");
    expect_error("name: 3d-graph\ninputs: {a: {shape: [4], dtype: fp16}}\nnodes: [{name: r, op: relu, inputs: [a]}]\n"
                 "outputs: [r]\n", DV_ERR_PARSE, 1,
                 "graph name '3d-graph' is not a valid name: a letter or '_', then letters, digits, '_', '.' or '-', "
                 "at most 63 characters");
    expect_error("name: t\ninputs: {}\nnodes: [{name: r, op: relu, inputs: [a]}]\noutputs: [r]\n", DV_ERR_PARSE, 2,
                 "inputs: the graph needs at least one input");
    expect_error("name: t\ninputs: {a: {shape: [4], dtype: fp16}}\nnodes: []\noutputs: [r]\n", DV_ERR_PARSE, 3,
                 "nodes: the sequence is empty (at least one is needed)");
    expect_error("name: t\ninputs: {a: {shape: [4], dtype: fp16}}\nnodes: {r: relu}\noutputs: [r]\n", DV_ERR_PARSE, 3,
                 "nodes: expected a sequence [...], got a mapping");
    expect_error("name: t\ninputs: {a: {shape: [4], dtype: fp16}}\nnodes: [{name: r, op: relu, inputs: [a]}]\n"
                 "outputs: []\n", DV_ERR_PARSE, 4, "outputs: the sequence is empty (at least one is needed)");
    expect_error("name: t\ndescription: [a, b]\ninputs: {a: {shape: [4], dtype: fp16}}\n"
                 "nodes: [{name: r, op: relu, inputs: [a]}]\noutputs: [r]\n", DV_ERR_PARSE, 2,
                 "description: expected a single value, got a sequence");
}
END_TEST

START_TEST(test_graph_bad_inputs)
{
    const char *tail = "nodes: [{name: r, op: relu, inputs: [a]}]\noutputs: [r]\n";
    char text[512];
    snprintf(text, sizeof text, "name: t\ninputs:\n  a: {shape: [1024, 768], dtype: fp64}\n%s", tail);
    expect_error(text, DV_ERR_PARSE, 3, "input 'a': dtype: unknown dtype 'fp64' (the dtypes are fp16, bf16, fp32, "
                 "int8, uint8, int16, uint16, int32, uint32)");
    snprintf(text, sizeof text, "name: t\ninputs:\n  a: {shape: [1024, 0], dtype: fp16}\n%s", tail);
    expect_error(text, DV_ERR_PARSE, 3, "input 'a': shape: dimension 2 is '0', not a whole number >= 1");
    snprintf(text, sizeof text, "name: t\ninputs:\n  a:\n    shape: [1024, -3]\n    dtype: fp16\n%s", tail);
    expect_error(text, DV_ERR_PARSE, 4, "input 'a': shape: dimension 2 is '-3', not a whole number >= 1");
    snprintf(text, sizeof text, "name: t\ninputs:\n  a: {shape: 1024x768, dtype: fp16}\n%s", tail);
    expect_error(text, DV_ERR_PARSE, 3, "input 'a': shape: expected a sequence [...], got a value");
    snprintf(text, sizeof text, "name: t\ninputs:\n  a: {shape: [1, 2, 3, 4, 5, 6, 7], dtype: fp16}\n%s", tail);
    expect_error(text, DV_ERR_RANGE, 3, "input 'a': shape: 7 items, at most 6 (DV_SHAPE_MAX dimensions)");
    snprintf(text, sizeof text, "name: t\ninputs:\n  a: {shape: [4294967296, 4294967296], dtype: fp16}\n%s", tail);
    expect_error(text, DV_ERR_RANGE, 3, "input 'a': shape: more than 2^64 elements");
    snprintf(text, sizeof text, "name: t\ninputs:\n  a: {shape: [4]}\n%s", tail);
    expect_error(text, DV_ERR_PARSE, 3, "input 'a': the input has no 'dtype:'");
    snprintf(text, sizeof text, "name: t\ninputs:\n  a: {shape: [4], dtype: fp16, layout: ND}\n%s", tail);
    expect_error(text, DV_ERR_UNKNOWN, 3, "input 'a': unknown key 'layout' in an input (the keys are shape, dtype)");
    snprintf(text, sizeof text, "name: t\ninputs:\n  a: [4]\n%s", tail);
    expect_error(text, DV_ERR_PARSE, 3, "input 'a': expected {shape: [...], dtype: ...}, got a sequence");
    snprintf(text, sizeof text, "name: t\ninputs:\n  a: {shape: [4], dtype: fp16}\n  a: {shape: [8], dtype: fp16}\n%s",
             tail);
    expect_error(text, DV_ERR_PARSE, 4, "the name 'a' is already used by the graph input at line 3");
    snprintf(text, sizeof text, "name: t\ninputs:\n  a b: {shape: [4], dtype: fp16}\n%s", tail);
    expect_error(text, DV_ERR_PARSE, 3, "input name 'a b' is not a valid name: a letter or '_', then letters, "
                 "digits, '_', '.' or '-', at most 63 characters");
}
END_TEST

START_TEST(test_graph_node_keys)
{
    expect_error(HEAD "  - {name: mm, op: matmul, inputs: [a, b]}\n  - {name: act, op: gelu, input: [mm]}\n"
                 "outputs: [act]\n", DV_ERR_UNKNOWN, 7,
                 "node 'act' (gelu): unknown key 'input' in a node (did you mean 'inputs'? the keys are name, op, "
                 "inputs, params)");
    expect_error(HEAD "  - name: mm\n    op: matmul\n    inputs: [a, b]\n    op: gelu\noutputs: [mm]\n",
                 DV_ERR_PARSE, 9, "node 'mm' (matmul): duplicate key 'op' in a node (first at line 7)");
    expect_error(HEAD "  - {name: mm, inputs: [a, b]}\noutputs: [mm]\n", DV_ERR_PARSE, 6,
                 "node 'mm': the node has no 'op:'");
    expect_error(HEAD "  - {op: gelu, inputs: [a]}\noutputs: [mm]\n", DV_ERR_PARSE, 6,
                 "node 1 (gelu): the node has no 'name:'");
    expect_error(HEAD "  - {name: act, op: gelu}\noutputs: [act]\n", DV_ERR_PARSE, 6,
                 "node 'act' (gelu): the node has no 'inputs:'");
    expect_error(HEAD "  - {name: r, op: relu, inputs: [a]}\n  - gelu\noutputs: [r]\n", DV_ERR_PARSE, 7,
                 "node 2: expected a mapping {name: ..., op: ..., inputs: [...]}, got a value");
    expect_error(HEAD "  - {name: act, op: gelu, inputs: a}\noutputs: [act]\n", DV_ERR_PARSE, 6,
                 "node 'act' (gelu): inputs: expected a sequence [...], got a value");
    expect_error(HEAD "  - {name: act, op: gelu, inputs: []}\noutputs: [act]\n", DV_ERR_PARSE, 6,
                 "node 'act' (gelu): inputs: the sequence is empty (at least one is needed)");
    expect_error(HEAD "  - {name: act, op: gelu, inputs: [a], params: [eps]}\noutputs: [act]\n", DV_ERR_PARSE, 6,
                 "node 'act' (gelu): params: expected a mapping {name: value, ...}, got a sequence");
    expect_error(HEAD "  - {name: act, op: [gelu], inputs: [a]}\noutputs: [act]\n", DV_ERR_PARSE, 6,
                 "node 'act': op: expected a single value, got a sequence");
}
END_TEST

START_TEST(test_graph_unknown_operator)
{
    expect_error(HEAD "  - {name: mm, op: matmul, inputs: [a, b]}\n  - {name: act, op: gelo, inputs: [mm]}\n"
                 "outputs: [act]\n", DV_ERR_UNKNOWN, 7,
                 "node 'act': unknown operator 'gelo' (did you mean 'gelu'? dvsim op --list lists the operators)");
    expect_error(HEAD "  - {name: act, op: frobnicate, inputs: [a]}\noutputs: [act]\n", DV_ERR_UNKNOWN, 6,
                 "node 'act': unknown operator 'frobnicate' (dvsim op --list lists the operators)");
    /* copy has no bind: it is a bandwidth benchmark, not a graph node */
    expect_error(HEAD "  - {name: c, op: copy, inputs: [a]}\noutputs: [c]\n", DV_ERR_UNSUPPORTED, 6,
                 "node 'c' (copy): operator 'copy' cannot be a graph node (it does not bind to input tensors)");
}
END_TEST

START_TEST(test_graph_parameters)
{
    expect_error(HEAD "  - name: mm\n    op: matmul\n    inputs: [a, b]\n    params: {bse-m: 64}\noutputs: [mm]\n",
                 DV_ERR_UNKNOWN, 9,
                 "node 'mm' (matmul): unknown parameter 'bse-m' (did you mean 'base-m'? matmul's parameters are in "
                 "dvsim op --list)");
    expect_error(HEAD "  - {name: act, op: gelu, inputs: [a], params: {speed: 2}}\noutputs: [act]\n", DV_ERR_UNKNOWN,
                 6, "node 'act' (gelu): unknown parameter 'speed' (gelu's parameters are in dvsim op --list)");
    /* bad values: dv_ops_parse's message, at the value's line */
    expect_error(HEAD "  - name: mm\n    op: matmul\n    inputs: [a, b]\n    params:\n      base-m: abc\n"
                 "outputs: [mm]\n", DV_ERR_RANGE, 10, "node 'mm' (matmul): --base-m: 'abc' is not a number");
    expect_error(HEAD "  - name: mm\n    op: matmul\n    inputs: [a, b]\n    params:\n      cores: 4\n"
                 "      base-m: 8\noutputs: [mm]\n", DV_ERR_RANGE, 11,
                 "node 'mm' (matmul): --base-m: 8 is out of range [16, 4080]");
    expect_error(HEAD "  - {name: mm, op: matmul, inputs: [a, b], params: {out-dtype: fp64}}\noutputs: [mm]\n",
                 DV_ERR_RANGE, 6,
                 "node 'mm' (matmul): --out-dtype: unknown dtype 'fp64' (this operator takes fp16|bf16|fp32|int32)");
    expect_error(HEAD "  - {name: mm, op: matmul, inputs: [a, b], params: {relu: maybe}}\noutputs: [mm]\n",
                 DV_ERR_RANGE, 6, "node 'mm' (matmul): --relu: 'maybe' is not on or off");
    expect_error(HEAD "  - {name: mm, op: matmul, inputs: [a, b], params: {grid: [4, 6, 2]}}\noutputs: [mm]\n",
                 DV_ERR_RANGE, 6, "node 'mm' (matmul): --grid: '4x6x2' is not a tile ROWSxCOLS");
    expect_error(HEAD "  - {name: mm, op: matmul, inputs: [a, b], params: {grid: [4, x]}}\noutputs: [mm]\n",
                 DV_ERR_PARSE, 6, "node 'mm' (matmul): parameter 'grid': item 2 of the sequence is 'x', not a whole "
                 "number");
    expect_error(HEAD "  - {name: mm, op: matmul, inputs: [a, b], params: {base-m: [64, 64]}}\noutputs: [mm]\n",
                 DV_ERR_PARSE, 6, "node 'mm' (matmul): parameter 'base-m' takes a single value, got a sequence");
    expect_error(HEAD "  - name: mm\n    op: matmul\n    inputs: [a, b]\n    params: {base-m: 64, base-m: 32}\n"
                 "outputs: [mm]\n", DV_ERR_PARSE, 9,
                 "node 'mm' (matmul): parameter 'base-m' is given twice (first at line 9)");
    /* a sequence for a TILE parameter is AxB */
    parse_ok(HEAD "  - {name: mm, op: matmul, inputs: [a, b], params: {grid: [4, 6], b-transposed: off}}\n"
             "outputs: [mm]\n");
    expect_param("mm", "grid", "4x6", true);
    expect_param("mm", "b-transposed", "off", true);
}
END_TEST

/* Parameters that the inputs determine must not be in the file. */
START_TEST(test_graph_bound_parameters)
{
    expect_error(HEAD "  - name: mm\n    op: matmul\n    inputs: [a, b]\n    params:\n      base-m: 64\n      m: 1024\n"
                 "outputs: [mm]\n", DV_ERR_PARSE, 11, "node 'mm' (matmul): parameter 'm' comes from the node's inputs "
                 "(do not give it)");
    expect_error(HEAD "  - {name: mm, op: matmul, inputs: [a, b], params: {dtype: fp16}}\noutputs: [mm]\n",
                 DV_ERR_PARSE, 6, "node 'mm' (matmul): parameter 'dtype' comes from the node's inputs (do not give it)");
    expect_error(HEAD "  - {name: act, op: gelu, inputs: [a], params: {shape: 1024x768}}\noutputs: [act]\n",
                 DV_ERR_PARSE, 6, "node 'act' (gelu): parameter 'shape' comes from the node's inputs (do not give it)");
    /* what bind sets must pass the parameter's own checks */
    expect_error("name: t\ninputs:\n  a: {shape: [20000000, 64], dtype: fp16}\n  b: {shape: [64, 64], dtype: fp16}\n"
                 "nodes:\n  - {name: mm, op: matmul, inputs: [a, b]}\noutputs: [mm]\n", DV_ERR_RANGE, 6,
                 "node 'mm' (matmul): from the inputs: --m: 20000000 is out of range [1, 16777216]");
}
END_TEST

START_TEST(test_graph_missing_and_later_inputs)
{
    /* the example of dv/graph.h */
    expect_error(HEAD "  - {name: mm, op: matmul, inputs: [a, b]}\n  - {name: act, op: gelu, inputs: [mm2]}\n"
                 "outputs: [act]\n", DV_ERR_UNKNOWN, 7,
                 "node 'act' (gelu): input 'mm2' is not a graph input or an earlier node (did you mean 'mm'?)");
    expect_error(HEAD "  - name: mm\n    op: matmul\n    inputs:\n      - a\n      - zzz\noutputs: [mm]\n",
                 DV_ERR_UNKNOWN, 10, "node 'mm' (matmul): input 'zzz' is not a graph input or an earlier node");
    /* a later node, with no cycle */
    expect_error(HEAD "  - {name: act, op: gelu, inputs: [mm]}\n  - {name: mm, op: matmul, inputs: [a, b]}\n"
                 "outputs: [act]\n", DV_ERR_PARSE, 6,
                 "node 'act' (gelu): input 'mm' is a later node (line 7): a node reads graph inputs and earlier nodes "
                 "only, so list 'mm' before this node");
    /* self-reference */
    expect_error(HEAD "  - {name: act, op: gelu, inputs: [act]}\noutputs: [act]\n", DV_ERR_PARSE, 6,
                 "node 'act' (gelu): input 'act' is the node itself (a node cannot read its own output)");
}
END_TEST

START_TEST(test_graph_cycles)
{
    expect_error(HEAD "  - name: mm\n    op: matmul\n    inputs: [act, b]\n  - {name: act, op: gelu, inputs: [mm]}\n"
                 "outputs: [act]\n", DV_ERR_PARSE, 8,
                 "node 'mm' (matmul): input 'act' is a later node (line 9) that depends on this one: cycle: act -> mm "
                 "-> act");
    /* p reads r, q reads p, r reads q (and a) */
    expect_error(HEAD "  - {name: p, op: relu, inputs: [r]}\n  - {name: q, op: exp, inputs: [p]}\n"
                 "  - {name: r, op: add, inputs: [a, q]}\noutputs: [r]\n", DV_ERR_PARSE, 6,
                 "node 'p' (relu): input 'r' is a later node (line 8) that depends on this one: cycle: r -> p -> q -> r");
}
END_TEST

START_TEST(test_graph_shape_mismatch)
{
    expect_error("name: t\ninputs:\n  a: {shape: [1024, 768], dtype: fp16}\n  b: {shape: [512, 3072], dtype: fp16}\n"
                 "nodes:\n  - {name: mm, op: matmul, inputs: [a, b]}\noutputs: [mm]\n", DV_ERR_RANGE, 6,
                 "node 'mm' (matmul): input 2 (b) has 512 rows, input 1 (a) has 768 columns: matmul needs a [M,K] x "
                 "b [K,N]");
    expect_error(HEAD "  - {name: mm, op: matmul, inputs: [a, b], params: {b-transposed: on}}\noutputs: [mm]\n",
                 DV_ERR_RANGE, 6, "node 'mm' (matmul): input 2 (b) has 3072 columns, input 1 (a) has 768 columns: "
                 "matmul needs a [M,K] x b [N,K] (b-transposed)");
    expect_error(HEAD "  - {name: mm, op: matmul, inputs: [a]}\noutputs: [mm]\n", DV_ERR_RANGE, 6,
                 "node 'mm' (matmul): matmul takes 2 inputs, a [M,K] and b [K,N]; 1 given");
    expect_error("name: t\ninputs:\n  a: {shape: [8, 16, 4], dtype: fp16}\n  b: {shape: [4, 8], dtype: fp16}\n"
                 "nodes:\n  - {name: mm, op: matmul, inputs: [a, b]}\noutputs: [mm]\n", DV_ERR_RANGE, 6,
                 "node 'mm' (matmul): input 1 (a) has shape 8x16x4: matmul needs 2-D a [M,K] and b [K,N]");
    expect_error("name: t\ninputs:\n  a: {shape: [8, 16], dtype: fp16}\n  b: {shape: [16, 8], dtype: fp32}\n"
                 "nodes:\n  - {name: mm, op: matmul, inputs: [a, b]}\noutputs: [mm]\n", DV_ERR_RANGE, 6,
                 "node 'mm' (matmul): input 2 (b) is fp32, input 1 (a) is fp16: matmul needs one dtype");
    expect_error("name: t\ninputs:\n  a: {shape: [8, 16], dtype: int16}\n  b: {shape: [16, 8], dtype: int16}\n"
                 "nodes:\n  - {name: mm, op: matmul, inputs: [a, b]}\noutputs: [mm]\n", DV_ERR_RANGE, 6,
                 "node 'mm' (matmul): input 1 (a) is int16: matmul takes fp16|bf16|fp32|int8");
    /* between nodes: the matmul's output against a graph input */
    expect_error(HEAD "  - {name: mm, op: matmul, inputs: [a, b]}\n  - {name: s, op: add, inputs: [mm, a]}\n"
                 "outputs: [s]\n", DV_ERR_RANGE, 7,
                 "node 's' (add): input 2 has shape 1024x768, input 1 has 1024x3072: add needs equal shapes");
    expect_error(HEAD "  - {name: mm, op: matmul, inputs: [a, b], params: {out-dtype: fp32}}\n"
                 "  - name: x\n    op: gelu\n    inputs: [mm]\n"
                 "  - name: s\n    op: mul\n    inputs: [x, mm2]\n  - {name: mm2, op: matmul, inputs: [a, b]}\n"
                 "outputs: [s]\n", DV_ERR_PARSE, 12,
                 "node 's' (mul): input 'mm2' is a later node (line 13): a node reads graph inputs and earlier nodes "
                 "only, so list 'mm2' before this node");
    expect_error(HEAD "  - {name: mm, op: matmul, inputs: [a, b], params: {out-dtype: fp32}}\n"
                 "  - {name: mm2, op: matmul, inputs: [a, b]}\n"
                 "  - name: s\n    op: mul\n    inputs: [mm, mm2]\noutputs: [s]\n", DV_ERR_RANGE, 10,
                 "node 's' (mul): input 2 is fp16, input 1 is fp32: mul needs one dtype");
    expect_error("name: t\ninputs:\n  a: {shape: [8, 16], dtype: int32}\n"
                 "nodes:\n  - {name: act, op: gelu, inputs: [a]}\noutputs: [act]\n", DV_ERR_RANGE, 5,
                 "node 'act' (gelu): input 1 is int32; gelu takes fp16|fp32");
}
END_TEST

START_TEST(test_graph_duplicate_names)
{
    expect_error(HEAD "  - {name: a, op: gelu, inputs: [b]}\noutputs: [a]\n", DV_ERR_PARSE, 6,
                 "node 'a' (gelu): the name 'a' is already used by the graph input at line 3");
    expect_error(HEAD "  - {name: r, op: relu, inputs: [a]}\n  - {name: r, op: gelu, inputs: [a]}\noutputs: [r]\n",
                 DV_ERR_PARSE, 7, "node 'r' (gelu): the name 'r' is already used by the node at line 6");
    expect_error(HEAD "  - {name: 2r, op: relu, inputs: [a]}\noutputs: [r]\n", DV_ERR_PARSE, 6,
                 "node 1 (relu): node name '2r' is not a valid name: a letter or '_', then letters, digits, '_', '.' "
                 "or '-', at most 63 characters");
}
END_TEST

START_TEST(test_graph_outputs)
{
    expect_error(HEAD "  - {name: act, op: gelu, inputs: [a]}\noutputs: [actt]\n", DV_ERR_UNKNOWN, 7,
                 "output 'actt' is not a node of the graph (did you mean 'act'?)");
    expect_error(HEAD "  - {name: act, op: gelu, inputs: [a]}\noutputs:\n  - act\n  - b\n", DV_ERR_PARSE, 9,
                 "output 'b' is a graph input; outputs are values the nodes compute");
    expect_error(HEAD "  - {name: act, op: gelu, inputs: [a]}\noutputs: [act, act]\n", DV_ERR_PARSE, 7,
                 "output 'act' is listed twice");
    expect_error(HEAD "  - {name: act, op: gelu, inputs: [a]}\noutputs: act\n", DV_ERR_PARSE, 7,
                 "outputs: expected a sequence [...], got a value");
}
END_TEST

/* The limits of dv/graph.h, each a located error. */
START_TEST(test_graph_limits)
{
    static char text[16384];
    size_t n = 0;
    /* 65 nodes */
    n = (size_t)snprintf(text, sizeof text, "name: t\ninputs: {a: {shape: [4], dtype: fp16}}\nnodes:\n");
    for (int i = 0; i <= DV_GRAPH_MAX_NODES; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "  - {name: r%d, op: relu, inputs: [a]}\n", i);
    snprintf(text + n, sizeof text - n, "outputs: [r0]\n");
    expect_error(text, DV_ERR_RANGE, 4, "nodes: 65 items, at most 64 (DV_GRAPH_MAX_NODES)");
    /* 64 nodes are fine */
    n = (size_t)snprintf(text, sizeof text, "name: t\ninputs: {a: {shape: [4], dtype: fp16}}\nnodes:\n");
    n += (size_t)snprintf(text + n, sizeof text - n, "  - {name: r0, op: relu, inputs: [a]}\n");
    for (int i = 1; i < DV_GRAPH_MAX_NODES; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "  - {name: r%d, op: relu, inputs: [r%d]}\n", i, i - 1);
    snprintf(text + n, sizeof text - n, "outputs: [r63]\n");
    parse_ok(text);
    ck_assert_int_eq(g.nnodes, DV_GRAPH_MAX_NODES);
    ck_assert_int_eq(g.nodes[63].in[0], g.nodes[62].out);
    /* 96 inputs and a node: 97 values */
    n = (size_t)snprintf(text, sizeof text, "name: t\ninputs:\n");
    for (int i = 0; i < DV_GRAPH_MAX_VALUES; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "  i%d: {shape: [4], dtype: fp16}\n", i);
    snprintf(text + n, sizeof text - n, "nodes:\n  - {name: r, op: relu, inputs: [i0]}\noutputs: [r]\n");
    expect_error(text, DV_ERR_RANGE, DV_GRAPH_MAX_VALUES + 4,
                 "node 'r' (relu): more than 96 values (graph inputs and nodes; DV_GRAPH_MAX_VALUES)");
    /* 17 outputs */
    n = (size_t)snprintf(text, sizeof text, "name: t\ninputs: {a: {shape: [4], dtype: fp16}}\nnodes:\n");
    for (int i = 0; i <= DV_GRAPH_MAX_OUTPUTS; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "  - {name: r%d, op: relu, inputs: [a]}\n", i);
    n += (size_t)snprintf(text + n, sizeof text - n, "outputs: [r0");
    for (int i = 1; i <= DV_GRAPH_MAX_OUTPUTS; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, ", r%d", i);
    snprintf(text + n, sizeof text - n, "]\n");
    expect_error(text, DV_ERR_RANGE, DV_GRAPH_MAX_OUTPUTS + 5, "outputs: 17 items, at most 16 (DV_GRAPH_MAX_OUTPUTS)");
    /* 5 inputs of a node */
    expect_error(HEAD "  - {name: s, op: add, inputs: [a, a, a, a, a]}\noutputs: [s]\n", DV_ERR_RANGE, 6,
                 "node 's' (add): inputs: 5 items, at most 4 (DV_GNODE_MAX_IN)");
    /* a 64-character name */
    char name[DV_NAME_MAX + 1];
    memset(name, 'x', DV_NAME_MAX);
    name[DV_NAME_MAX] = '\0';
    snprintf(text, sizeof text, HEAD "  - {name: %s, op: relu, inputs: [a]}\noutputs: [r]\n", name);
    char want[256];
    snprintf(want, sizeof want, "node 1 (relu): node name '%s' is not a valid name: a letter or '_', then letters, "
             "digits, '_', '.' or '-', at most 63 characters", name);
    expect_error(text, DV_ERR_PARSE, 6, want);
    name[DV_NAME_MAX - 1] = '\0'; /* 63 is fine */
    snprintf(text, sizeof text, HEAD "  - {name: %s, op: relu, inputs: [a]}\noutputs: [%s]\n", name, name);
    parse_ok(text);
}
END_TEST

Suite *dv_graph_suite(void)
{
    Suite *s = suite_create("graph");
    TCase *tc = tcase_create("graph");
    tcase_add_test(tc, test_graph_minimum_form);
    tcase_add_test(tc, test_graph_load_file);
    tcase_add_test(tc, test_graph_branches_and_users);
    tcase_add_test(tc, test_graph_matmul_bind);
    tcase_add_test(tc, test_graph_yaml_syntax_error);
    tcase_add_test(tc, test_graph_top_level_keys);
    tcase_add_test(tc, test_graph_bad_inputs);
    tcase_add_test(tc, test_graph_node_keys);
    tcase_add_test(tc, test_graph_unknown_operator);
    tcase_add_test(tc, test_graph_parameters);
    tcase_add_test(tc, test_graph_bound_parameters);
    tcase_add_test(tc, test_graph_missing_and_later_inputs);
    tcase_add_test(tc, test_graph_cycles);
    tcase_add_test(tc, test_graph_shape_mismatch);
    tcase_add_test(tc, test_graph_duplicate_names);
    tcase_add_test(tc, test_graph_outputs);
    tcase_add_test(tc, test_graph_limits);
    suite_add_tcase(s, tc);
    return s;
}
