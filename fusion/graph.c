/* fusion/graph.c - operator graphs (dv/graph.h): the libyaml reader and the schema of
 * docs/GRAPHS.md.  A file is read in one pass over the YAML document, in the order the data flows:
 *   1. the top-level keys (name, description, inputs, nodes, outputs), unknown and duplicate keys
 *   2. the graph inputs: names, shapes, dtypes
 *   3. the nodes in file order: name, operator, inputs (graph inputs or earlier nodes; a later node
 *      is named as a forward reference, or as a cycle when it depends on this one), the file's
 *      parameters through the operator's own table (dv_ops_parse), then the operator's bind, which
 *      sets the parameters the input tensors determine and gives the output tensor
 *   4. the outputs
 * Every error carries the file, the line and column of the YAML node it concerns, and the node's
 * name (and operator) when it concerns a node. */
#include "dv/graph.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "dv/file.h"
#include "dv/yamldoc.h"

enum { MSG_MAX = 640, ARG_MAX = 512 };

typedef struct reader {
    dv_yaml_reader_t y;                          /* path, document, error; prefix of messages:
                                                  * "node 'mm' (matmul): " */
    const char *text;
    dv_graph_t *g;
    /* every entry of nodes: as written (name and inputs when they are there), for forward references */
    int nentries;
    const char *entry_name[DV_GRAPH_MAX_NODES];
    const yaml_node_t *entry_inputs[DV_GRAPH_MAX_NODES];
    int entry_line[DV_GRAPH_MAX_NODES];
} reader_t;

/* ---------------------------------------------------------------- YAML */

/* Exactly one YAML document of len bytes into doc (nothing to delete on failure). */
static int load_document(reader_t *rd, size_t len, yaml_document_t *doc)
{
    return dv_yaml_load(doc, rd->text, len, rd->y.path, "a graph file", rd->y.err);
}

/* The value of key `key` in mapping `map` as written (the first one), NULL when absent. */
static const yaml_node_t *peek(const reader_t *rd, const yaml_node_t *map, const char *key)
{
    if (map->type != YAML_MAPPING_NODE)
        return NULL;
    for (const yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = dv_yaml_node(&rd->y, p->key);
        if (k->type == YAML_SCALAR_NODE && strcmp((const char *)k->data.scalar.value, key) == 0)
            return dv_yaml_node(&rd->y, p->value);
    }
    return NULL;
}

/* A required key: an error at the mapping when it is missing. */
static int require(reader_t *rd, const yaml_node_t *map, const yaml_node_t *val, const char *key, const char *where)
{
    if (val)
        return DV_OK;
    return dv_yaml_error(&rd->y, DV_ERR_PARSE, map, "%s has no '%s:'", where, key);
}

/* A sequence of at least one and at most max items. */
static int check_seq(reader_t *rd, const yaml_node_t *n, const char *what, int max, const char *limit)
{
    if (n->type != YAML_SEQUENCE_NODE)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, n, "%s: expected a sequence [...], got %s", what, dv_yaml_kind(n));
    const long items = n->data.sequence.items.top - n->data.sequence.items.start;
    if (items == 0)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, n, "%s: the sequence is empty (at least one is needed)", what);
    if (items > max)
        return dv_yaml_error(&rd->y, DV_ERR_RANGE, n, "%s: %ld items, at most %d (%s)", what, items, max, limit);
    return DV_OK;
}

/* ---------------------------------------------------------------- names and values */

/* A name of the graph, a value or a node: [A-Za-z_][A-Za-z0-9_.-]*, shorter than DV_NAME_MAX. */
static bool valid_name(const char *s)
{
    bool ok = s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z');
    for (const char *p = s; ok && *p; p++)
        ok = *p == '_' || *p == '.' || *p == '-' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
             (*p >= '0' && *p <= '9');
    return ok && strlen(s) < DV_NAME_MAX;
}

static int check_name(reader_t *rd, const yaml_node_t *n, const char *what, const char **out)
{
    int rc;
    const char *s = dv_yaml_scalar(&rd->y, n, what, &rc);
    if (!s)
        return rc;
    if (!valid_name(s))
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, n,
                             "%s '%.80s' is not a valid name: a letter or '_', then letters, digits, "
                        "'_', '.' or '-', at most %d characters", what, s, DV_NAME_MAX - 1);
    *out = s;
    return DV_OK;
}

/* A new name must not be a value already (graph inputs and nodes share one namespace). */
static int check_unique(reader_t *rd, const yaml_node_t *n, const char *name)
{
    const int v = dv_graph_value(rd->g, name);
    if (v < 0)
        return DV_OK;
    const dv_gvalue_t *val = &rd->g->values[v];
    return dv_yaml_error(&rd->y, DV_ERR_PARSE, n, "the name '%s' is already used by %s at line %d", name,
                    val->producer < 0 ? "the graph input" : "the node", val->line);
}

static int add_value(reader_t *rd, const yaml_node_t *at, const char *name, const dv_tensor_desc_t *t, int producer)
{
    dv_graph_t *g = rd->g;
    if (g->nvalues == DV_GRAPH_MAX_VALUES)
        return dv_yaml_error(&rd->y, DV_ERR_RANGE, at,
                             "more than %d values (graph inputs and nodes; DV_GRAPH_MAX_VALUES)",
                        DV_GRAPH_MAX_VALUES);
    dv_gvalue_t *v = &g->values[g->nvalues++];
    snprintf(v->name, sizeof v->name, "%s", name);
    v->t = *t;
    v->producer = producer;
    v->line = (int)at->start_mark.line + 1;
    return DV_OK;
}

/* ---------------------------------------------------------------- graph inputs */

static int read_shape(reader_t *rd, const yaml_node_t *n, dv_shape_t *shape)
{
    int rc = check_seq(rd, n, "shape", DV_SHAPE_MAX, "DV_SHAPE_MAX dimensions");
    if (rc != DV_OK)
        return rc;
    memset(shape, 0, sizeof *shape);
    for (const yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        const yaml_node_t *d = dv_yaml_node(&rd->y, *it);
        const char *s = dv_yaml_scalar(&rd->y, d, "shape", &rc);
        if (!s)
            return rc;
        char *end;
        errno = 0;
        const unsigned long long x = strtoull(s, &end, 10);
        if (!(s[0] >= '1' && s[0] <= '9') || *end || errno)
            return dv_yaml_error(&rd->y, DV_ERR_PARSE, d, "shape: dimension %d is '%.40s', not a whole number >= 1",
                            shape->ndims + 1, s);
        shape->d[shape->ndims++] = x;
    }
    if (dv_shape_elems(shape) == 0)
        return dv_yaml_error(&rd->y, DV_ERR_RANGE, n, "shape: more than 2^64 elements");
    return DV_OK;
}

static int read_dtype(reader_t *rd, const yaml_node_t *n, dv_dtype_t *t)
{
    int rc;
    const char *s = dv_yaml_scalar(&rd->y, n, "dtype", &rc);
    if (!s)
        return rc;
    char all[160] = "";
    for (int i = 0; i < DV_DT_COUNT; i++) {
        const char *name = dv_ops_dtype_name((dv_dtype_t)i);
        if (strcmp(name, s) == 0) {
            *t = (dv_dtype_t)i;
            return DV_OK;
        }
        snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", i ? ", " : "", name);
    }
    return dv_yaml_error(&rd->y, DV_ERR_PARSE, n, "dtype: unknown dtype '%.40s' (the dtypes are %s)", s, all);
}

static int read_inputs(reader_t *rd, const yaml_node_t *map)
{
    static const char *const keys[] = {"shape", "dtype"};
    if (map->type != YAML_MAPPING_NODE)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, map,
                             "inputs: expected a mapping of input names to {shape: [...], dtype: ...}, "
                        "got %s", dv_yaml_kind(map));
    if (map->data.mapping.pairs.top == map->data.mapping.pairs.start)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, map, "inputs: the graph needs at least one input");
    for (const yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = dv_yaml_node(&rd->y, p->key), *v = dv_yaml_node(&rd->y, p->value), *kn[2], *val[2];
        const char *name;
        dv_tensor_desc_t t;
        int rc = check_name(rd, k, "input name", &name);
        if (rc == DV_OK)
            rc = check_unique(rd, k, name);
        if (rc != DV_OK)
            return rc;
        snprintf(rd->y.ctx, sizeof rd->y.ctx, "input '%s': ", name);
        if (v->type != YAML_MAPPING_NODE)
            return dv_yaml_error(&rd->y, DV_ERR_PARSE, v, "expected {shape: [...], dtype: ...}, got %s",
                                 dv_yaml_kind(v));
        if ((rc = dv_yaml_keys(&rd->y, v, "an input", keys, 2, kn, val)) != DV_OK ||
            (rc = require(rd, v, val[0], "shape", "the input")) != DV_OK ||
            (rc = require(rd, v, val[1], "dtype", "the input")) != DV_OK ||
            (rc = read_shape(rd, val[0], &t.shape)) != DV_OK || (rc = read_dtype(rd, val[1], &t.dtype)) != DV_OK ||
            (rc = add_value(rd, k, name, &t, -1)) != DV_OK)
            return rc;
        rd->y.ctx[0] = '\0';
    }
    return DV_OK;
}

/* ---------------------------------------------------------------- nodes */

/* The entry of nodes: named `name`, -1 when none is. */
static int entry_named(const reader_t *rd, const char *name)
{
    for (int j = 0; j < rd->nentries; j++)
        if (rd->entry_name[j] && strcmp(rd->entry_name[j], name) == 0)
            return j;
    return -1;
}

/* Is entry `target` reachable from entry j along the inputs as written?  path[0..*len) is then j, the
 * entry j reads, the one that one reads, ..., target. */
static bool reaches(const reader_t *rd, int j, int target, bool *seen, int *path, int *len)
{
    path[(*len)++] = j;
    if (j == target)
        return true;
    seen[j] = true;
    const yaml_node_t *ins = rd->entry_inputs[j];
    if (ins)
        for (const yaml_node_item_t *it = ins->data.sequence.items.start; it < ins->data.sequence.items.top; it++) {
            const yaml_node_t *n = dv_yaml_node(&rd->y, *it);
            if (n->type != YAML_SCALAR_NODE)
                continue;
            const int e = entry_named(rd, (const char *)n->data.scalar.value);
            if (e >= 0 && !seen[e] && reaches(rd, e, target, seen, path, len))
                return true;
        }
    (*len)--;
    return false;
}

/* Input `name` of node `self` (entry index) is not a value yet: say why. */
static int unresolved_input(reader_t *rd, const yaml_node_t *at, int self, const char *name)
{
    if (strcmp(name, rd->entry_name[self]) == 0)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, at,
                             "input '%s' is the node itself (a node cannot read its own output)", name);
    const int later = entry_named(rd, name);
    if (later > self) {
        bool seen[DV_GRAPH_MAX_NODES] = {false};
        int path[DV_GRAPH_MAX_NODES], len = 0;
        if (reaches(rd, later, self, seen, path, &len)) {
            /* data flows later -> self -> ... -> later: the path read backwards */
            char cyc[MSG_MAX / 2] = "";
            size_t n = (size_t)snprintf(cyc, sizeof cyc, "%s", rd->entry_name[later]);
            for (int i = len - 1; i >= 0 && n < sizeof cyc; i--)
                n += (size_t)snprintf(cyc + n, sizeof cyc - n, " -> %s", rd->entry_name[path[i]]);
            return dv_yaml_error(&rd->y, DV_ERR_PARSE, at,
                                 "input '%s' is a later node (line %d) that depends on this one: "
                            "cycle: %s", name, rd->entry_line[later], cyc);
        }
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, at,
                             "input '%s' is a later node (line %d): a node reads graph inputs and "
                        "earlier nodes only, so list '%s' before this node", name, rd->entry_line[later], name);
    }
    dv_hint_t c = DV_HINT_INIT;
    for (int v = 0; v < rd->g->nvalues; v++)
        dv_hint_consider(&c, name, rd->g->values[v].name);
    return dv_yaml_error(&rd->y, DV_ERR_UNKNOWN, at, "input '%s' is not a graph input or an earlier node%s%s%s", name,
                    c.n ? " (did you mean " : "", c.text, c.n ? "?)" : "");
}

/* One parameter of the file: key k, value v, through the operator's table into vals. */
static int read_param(reader_t *rd, const dv_opdesc_t *op, const yaml_node_t *k, const yaml_node_t *v,
                      dv_opvals_t *vals, const yaml_node_t **where)
{
    int rc;
    const char *key = dv_yaml_scalar(&rd->y, k, "a parameter name", &rc);
    if (!key)
        return rc;
    const int i = dv_ops_param_index(op, key);
    if (i < 0) {
        dv_hint_t c = DV_HINT_INIT;
        for (int j = 0; j < op->nparams; j++)
            dv_hint_consider(&c, key, op->params[j].name);
        return dv_yaml_error(&rd->y, DV_ERR_UNKNOWN, k,
                             "unknown parameter '%s' (%s%s%s%s's parameters are in dvsim op --list)",
                        key, c.n ? "did you mean " : "", c.text, c.n ? "? " : "", op->name);
    }
    if (where[i])
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, k, "parameter '%s' is given twice (first at line %d)", key,
                        (int)where[i]->start_mark.line + 1);
    const dv_oparam_spec_t *s = &op->params[i];
    char arg[ARG_MAX];
    size_t n = (size_t)snprintf(arg, sizeof arg, "--%s=", key);
    if (v->type == YAML_SEQUENCE_NODE && (s->type == DV_OPT_SHAPE || s->type == DV_OPT_TILE)) {
        int d = 0;
        for (const yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++, d++) {
            const yaml_node_t *e = dv_yaml_node(&rd->y, *it);
            const char *t = dv_yaml_scalar(&rd->y, e, key, &rc);
            if (!t)
                return rc;
            if (!t[0] || strspn(t, "0123456789") != strlen(t))
                return dv_yaml_error(&rd->y, DV_ERR_PARSE, e,
                                     "parameter '%s': item %d of the sequence is '%.40s', not a "
                                "whole number", key, d + 1, t);
            n += (size_t)snprintf(arg + n, n < sizeof arg ? sizeof arg - n : 0, "%s%s", d ? "x" : "", t);
        }
    } else if (v->type != YAML_SCALAR_NODE) {
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, v, "parameter '%s' takes a single value%s, got %s", key,
                        s->type == DV_OPT_SHAPE || s->type == DV_OPT_TILE ? " or a sequence [a, b, ...]" : "",
                        dv_yaml_kind(v));
    } else {
        const char *t = dv_yaml_scalar(&rd->y, v, key, &rc);
        if (!t)
            return rc;
        n += (size_t)snprintf(arg + n, sizeof arg - n, "%s", t);
    }
    if (n >= sizeof arg)
        return dv_yaml_error(&rd->y, DV_ERR_RANGE, v, "parameter '%s': the value is too long", key);
    dv_opvals_t one;
    dv_error_t e;
    char *argv[1] = {arg};
    rc = dv_ops_parse(op, 1, argv, &one, &e);
    if (rc != DV_OK)
        return dv_yaml_error(&rd->y, rc, v, "%s", e.msg);
    vals->v[i] = one.v[i];
    vals->given[i] = true;
    where[i] = k;
    return DV_OK;
}

/* The operator's bind on the node's input tensors: the parameters it sets must not be in the file,
 * and what it sets must be a value the parameter's own table accepts. */
static int bind_node(reader_t *rd, const yaml_node_t *ins_at, const yaml_node_t *const *where, dv_gnode_t *node,
                     dv_tensor_desc_t *out)
{
    const dv_opdesc_t *op = node->op;
    dv_tensor_desc_t in[DV_GNODE_MAX_IN];
    dv_opvals_t bound = node->vals;
    dv_error_t e;
    for (int i = 0; i < node->nin; i++)
        in[i] = rd->g->values[node->in[i]].t;
    memset(bound.given, 0, sizeof bound.given); /* what bind sets shows in `given` */
    memset(out, 0, sizeof *out);
    int rc = op->bind(op, in, node->nin, &bound, out, &e);
    if (rc != DV_OK)
        return dv_yaml_error(&rd->y, rc, ins_at, "%s", e.msg);
    for (int i = 0; i < op->nparams; i++) {
        if (!bound.given[i])
            continue;
        if (node->vals.given[i])
            return dv_yaml_error(&rd->y, DV_ERR_PARSE, where[i],
                                 "parameter '%s' comes from the node's inputs (do not give it)",
                            op->params[i].name);
        char text[ARG_MAX / 2], arg[ARG_MAX];
        dv_opvals_t check;
        dv_ops_format_val(&op->params[i], &bound.v[i], text, sizeof text);
        snprintf(arg, sizeof arg, "--%s=%s", op->params[i].name, text);
        char *argv[1] = {arg};
        rc = dv_ops_parse(op, 1, argv, &check, &e);
        if (rc != DV_OK)
            return dv_yaml_error(&rd->y, rc, ins_at, "from the inputs: %s", e.msg);
        node->vals.v[i] = bound.v[i];
        node->vals.given[i] = true;
    }
    if (out->shape.ndims < 1 || dv_shape_elems(&out->shape) == 0)
        return dv_yaml_error(&rd->y, DV_ERR_STATE, ins_at, "%s's bind gave an output without elements", op->name);
    return DV_OK;
}

/* Set the message prefix of entry idx from what it says (before checking it). */
static void node_prefix(reader_t *rd, int idx, const yaml_node_t *entry)
{
    const char *name = rd->entry_name[idx];
    const yaml_node_t *opn = peek(rd, entry, "op");
    const dv_opdesc_t *op = opn && opn->type == YAML_SCALAR_NODE ? dv_ops_find((const char *)opn->data.scalar.value)
                                                                 : NULL;
    int n;
    if (name && valid_name(name))
        n = snprintf(rd->y.ctx, sizeof rd->y.ctx, "node '%s'", name);
    else
        n = snprintf(rd->y.ctx, sizeof rd->y.ctx, "node %d", idx + 1);
    snprintf(rd->y.ctx + n, sizeof rd->y.ctx - (size_t)n, "%s%s%s: ", op ? " (" : "", op ? op->name : "",
             op ? ")" : "");
}

static int read_node(reader_t *rd, int idx, const yaml_node_t *entry)
{
    enum { K_NAME, K_OP, K_INPUTS, K_PARAMS, K_COUNT };
    static const char *const keys[K_COUNT] = {"name", "op", "inputs", "params"};
    dv_graph_t *g = rd->g;
    const yaml_node_t *kn[K_COUNT], *val[K_COUNT], *where[DV_OP_MAX_PARAMS] = {NULL};
    const char *name, *opname;
    dv_tensor_desc_t out;
    int rc;
    node_prefix(rd, idx, entry);
    if (entry->type != YAML_MAPPING_NODE)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, entry,
                             "expected a mapping {name: ..., op: ..., inputs: [...]}, got %s",
                        dv_yaml_kind(entry));
    if ((rc = dv_yaml_keys(&rd->y, entry, "a node", keys, K_COUNT, kn, val)) != DV_OK ||
        (rc = require(rd, entry, val[K_NAME], "name", "the node")) != DV_OK ||
        (rc = require(rd, entry, val[K_OP], "op", "the node")) != DV_OK ||
        (rc = require(rd, entry, val[K_INPUTS], "inputs", "the node")) != DV_OK)
        return rc;

    /* 1. name and operator */
    if ((rc = check_name(rd, val[K_NAME], "node name", &name)) != DV_OK || (rc = check_unique(rd, val[K_NAME], name)))
        return rc;
    if (!(opname = dv_yaml_scalar(&rd->y, val[K_OP], "op", &rc)))
        return rc;
    dv_gnode_t *node = &g->nodes[g->nnodes];
    memset(node, 0, sizeof *node);
    snprintf(node->name, sizeof node->name, "%s", name);
    node->line = (int)entry->start_mark.line + 1;
    node->op = dv_ops_find(opname);
    if (!node->op) {
        dv_hint_t c = DV_HINT_INIT;
        for (const dv_opdesc_t *const *o = dv_ops_all(); *o; o++)
            dv_hint_consider(&c, opname, (*o)->name);
        return dv_yaml_error(&rd->y, DV_ERR_UNKNOWN, val[K_OP],
                             "unknown operator '%.60s' (%s%s%sdvsim op --list lists the "
                        "operators)", opname, c.n ? "did you mean " : "", c.text, c.n ? "? " : "");
    }
    if (!node->op->bind)
        return dv_yaml_error(&rd->y, DV_ERR_UNSUPPORTED, val[K_OP],
                             "operator '%s' cannot be a graph node (it does not bind to "
                        "input tensors)", node->op->name);

    /* 2. inputs: graph inputs or earlier nodes */
    const yaml_node_t *ins = val[K_INPUTS];
    if ((rc = check_seq(rd, ins, "inputs", DV_GNODE_MAX_IN, "DV_GNODE_MAX_IN")) != DV_OK)
        return rc;
    for (const yaml_node_item_t *it = ins->data.sequence.items.start; it < ins->data.sequence.items.top; it++) {
        const yaml_node_t *n = dv_yaml_node(&rd->y, *it);
        const char *in = dv_yaml_scalar(&rd->y, n, "inputs", &rc);
        if (!in)
            return rc;
        const int v = dv_graph_value(g, in);
        if (v < 0)
            return unresolved_input(rd, n, idx, in);
        node->in[node->nin++] = v;
    }

    /* 3. the file's parameters, defaults for the rest, then what the inputs determine */
    dv_error_t e;
    char *no_args[1] = {NULL};
    if ((rc = dv_ops_parse(node->op, 0, no_args, &node->vals, &e)) != DV_OK)
        return dv_yaml_error(&rd->y, rc, val[K_OP], "%s", e.msg);
    if (val[K_PARAMS]) {
        const yaml_node_t *pm = val[K_PARAMS];
        if (pm->type != YAML_MAPPING_NODE)
            return dv_yaml_error(&rd->y, DV_ERR_PARSE, pm, "params: expected a mapping {name: value, ...}, got %s",
                                 dv_yaml_kind(pm));
        for (const yaml_node_pair_t *p = pm->data.mapping.pairs.start; p < pm->data.mapping.pairs.top; p++)
            if ((rc = read_param(rd, node->op, dv_yaml_node(&rd->y, p->key), dv_yaml_node(&rd->y, p->value),
                                                            &node->vals, where)))
                return rc;
    }
    if ((rc = bind_node(rd, ins, where, node, &out)) != DV_OK)
        return rc;

    /* 4. its value */
    if ((rc = add_value(rd, entry, name, &out, g->nnodes)) != DV_OK)
        return rc;
    node->out = g->nvalues - 1;
    g->nnodes++;
    rd->y.ctx[0] = '\0';
    return DV_OK;
}

static int read_nodes(reader_t *rd, const yaml_node_t *seq)
{
    int rc = check_seq(rd, seq, "nodes", DV_GRAPH_MAX_NODES, "DV_GRAPH_MAX_NODES");
    if (rc != DV_OK)
        return rc;
    /* every entry's name and inputs as written first: a later node is then named as such */
    for (const yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++) {
        const yaml_node_t *entry = dv_yaml_node(&rd->y, *it), *name = peek(rd, entry, "name"), *ins = peek(rd, entry,
                                                "inputs");
        const int j = rd->nentries++;
        rd->entry_name[j] = name && name->type == YAML_SCALAR_NODE ? (const char *)name->data.scalar.value : NULL;
        rd->entry_inputs[j] = ins && ins->type == YAML_SEQUENCE_NODE ? ins : NULL;
        rd->entry_line[j] = (int)entry->start_mark.line + 1;
    }
    int idx = 0;
    for (const yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++, idx++)
        if ((rc = read_node(rd, idx, dv_yaml_node(&rd->y, *it))) != DV_OK)
            return rc;
    return DV_OK;
}

/* ---------------------------------------------------------------- outputs and the top level */

static int read_outputs(reader_t *rd, const yaml_node_t *seq)
{
    dv_graph_t *g = rd->g;
    int rc = check_seq(rd, seq, "outputs", DV_GRAPH_MAX_OUTPUTS, "DV_GRAPH_MAX_OUTPUTS");
    if (rc != DV_OK)
        return rc;
    for (const yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++) {
        const yaml_node_t *n = dv_yaml_node(&rd->y, *it);
        const char *name = dv_yaml_scalar(&rd->y, n, "outputs", &rc);
        if (!name)
            return rc;
        const int v = dv_graph_value(g, name);
        if (v < 0) {
            dv_hint_t c = DV_HINT_INIT;
            for (int i = 0; i < g->nvalues; i++)
                dv_hint_consider(&c, name, g->values[i].name);
            return dv_yaml_error(&rd->y, DV_ERR_UNKNOWN, n, "output '%s' is not a node of the graph%s%s%s", name,
                            c.n ? " (did you mean " : "", c.text, c.n ? "?)" : "");
        }
        if (g->values[v].producer < 0)
            return dv_yaml_error(&rd->y, DV_ERR_PARSE, n,
                                 "output '%s' is a graph input; outputs are values the nodes compute",
                            name);
        if (dv_graph_is_output(g, v))
            return dv_yaml_error(&rd->y, DV_ERR_PARSE, n, "output '%s' is listed twice", name);
        g->outputs[g->noutputs++] = v;
    }
    return DV_OK;
}

static int read_graph(reader_t *rd)
{
    enum { T_NAME, T_DESC, T_INPUTS, T_NODES, T_OUTPUTS, T_COUNT };
    static const char *const keys[T_COUNT] = {"name", "description", "inputs", "nodes", "outputs"};
    const yaml_node_t *root = yaml_document_get_root_node(rd->y.doc), *kn[T_COUNT], *val[T_COUNT];
    const char *name;
    int rc;
    if (!root)
        return dv_error_set(rd->y.err, DV_ERR_PARSE, rd->y.path, 1, 1,
                            "empty graph file: expected name:, inputs:, nodes: and outputs:");
    if (root->type != YAML_MAPPING_NODE)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, root,
                             "a graph file is a mapping (name:, inputs:, nodes:, outputs:), got %s",
                        dv_yaml_kind(root));
    if ((rc = dv_yaml_keys(&rd->y, root, "the graph", keys, T_COUNT, kn, val)) != DV_OK)
        return rc;
    for (int i = 0; i < T_COUNT; i++)
        if (i != T_DESC && (rc = require(rd, root, val[i], keys[i], "the graph")) != DV_OK)
            return rc;
    if ((rc = check_name(rd, val[T_NAME], "graph name", &name)) != DV_OK)
        return rc;
    snprintf(rd->g->name, sizeof rd->g->name, "%s", name);
    if (val[T_DESC] && !dv_yaml_scalar(&rd->y, val[T_DESC], "description", &rc))
        return rc;
    if ((rc = read_inputs(rd, val[T_INPUTS])) != DV_OK || (rc = read_nodes(rd, val[T_NODES])) != DV_OK)
        return rc;
    return read_outputs(rd, val[T_OUTPUTS]);
}

/* ---------------------------------------------------------------- public */

int dv_graph_parse(const char *text, size_t len, const char *path, dv_graph_t *g, dv_error_t *err)
{
    yaml_document_t doc;
    reader_t *rd = calloc(1, sizeof *rd);
    dv_graph_t *tmp = calloc(1, sizeof *tmp);
    int rc;
    if (!rd || !tmp) {
        rc = dv_error_set(err, DV_ERR_NOMEM, path, 0, 0, "out of memory");
        goto cleanup;
    }
    rd->y.path = path ? path : "";
    rd->text = text;
    rd->y.doc = &doc;
    rd->g = tmp;
    rd->y.err = err;
    snprintf(tmp->path, sizeof tmp->path, "%s", rd->y.path);
    if ((rc = load_document(rd, len, &doc)) != DV_OK)
        goto cleanup;
    rc = read_graph(rd);
    yaml_document_delete(&doc);
    if (rc == DV_OK)
        memcpy(g, tmp, sizeof *g);
cleanup:
    free(tmp);
    free(rd);
    return rc;
}

int dv_graph_load(const char *path, dv_graph_t *g, dv_error_t *err)
{
    char *text;
    size_t len;
    int rc = dv_read_file(path, "the graph", &text, &len, err);
    if (rc == DV_OK)
        rc = dv_graph_parse(text, len, path, g, err);
    free(text);
    return rc;
}

int dv_graph_value(const dv_graph_t *g, const char *name)
{
    for (int v = 0; v < g->nvalues; v++)
        if (strcmp(g->values[v].name, name) == 0)
            return v;
    return -1;
}

int dv_graph_users(const dv_graph_t *g, int v, int *users, int cap)
{
    int n = 0;
    for (int i = 0; i < g->nnodes; i++)
        for (int j = 0; j < g->nodes[i].nin; j++)
            if (g->nodes[i].in[j] == v) {
                if (users && n < cap)
                    users[n] = i;
                n++;
                break;
            }
    return n;
}

bool dv_graph_is_output(const dv_graph_t *g, int v)
{
    for (int i = 0; i < g->noutputs; i++)
        if (g->outputs[i] == v)
            return true;
    return false;
}
