/* dv/graph.h - operator graphs: a YAML file of named inputs, nodes (operators of the library with
 * their parameters) and outputs, checked and with every intermediate's shape and dtype inferred.
 * docs/GRAPHS.md documents the file format; graphs/ holds the shipped graphs.
 *
 * Every error names the file and line and, when it concerns a node, the node:
 *     graphs/x.yaml:12: node 'act' (gelu): input 'mm' is not a graph input or an earlier node */
#ifndef DV_GRAPH_H
#define DV_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "dv/error.h"
#include "dv/config.h"
#include "dv/ops.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DV_GRAPH_MAX_VALUES 96
#define DV_GRAPH_MAX_NODES 64
#define DV_GRAPH_MAX_OUTPUTS 16
#define DV_GNODE_MAX_IN DV_TILE_MAX_IN

/* A tensor of the graph: a graph input or the output of a node. */
typedef struct dv_gvalue {
    char name[DV_NAME_MAX];
    dv_tensor_desc_t t;
    int producer;                  /* node index, -1 for a graph input */
    int line;                      /* where it is defined */
} dv_gvalue_t;

typedef struct dv_gnode {
    char name[DV_NAME_MAX];
    const dv_opdesc_t *op;
    int nin;
    int in[DV_GNODE_MAX_IN];       /* value indices, in the order of the node's `inputs:` */
    int out;                       /* value index of its output (named as the node) */
    dv_opvals_t vals;              /* parameters: the file's params, then what bind set, defaults for the rest */
    int line;                      /* of the node's entry */
} dv_gnode_t;

typedef struct dv_graph {
    char name[DV_NAME_MAX];
    char path[256];                /* the file, for messages */
    int nvalues, nnodes, noutputs;
    dv_gvalue_t values[DV_GRAPH_MAX_VALUES];
    dv_gnode_t nodes[DV_GRAPH_MAX_NODES]; /* in file order, which is a topological order */
    int outputs[DV_GRAPH_MAX_OUTPUTS];    /* value indices */
} dv_graph_t;

/* Read and check a graph file: the YAML syntax, the schema (docs/GRAPHS.md), every node's operator,
 * parameters and inputs (graph inputs or earlier nodes: a cycle or a forward reference is an
 * error), and the shapes, which are inferred node by node through the operators' bind functions.
 * *g is filled only on success. */
int dv_graph_load(const char *path, dv_graph_t *g, dv_error_t *err);

/* The same from a string (path names it in messages). */
int dv_graph_parse(const char *text, size_t len, const char *path, dv_graph_t *g, dv_error_t *err);

/* Index of a value by name, -1 when absent. */
int dv_graph_value(const dv_graph_t *g, const char *name);

/* Nodes that read value v (count; their indices into users[] when users is not NULL). */
int dv_graph_users(const dv_graph_t *g, int v, int *users, int cap);

/* True when value v is one of the graph's outputs. */
bool dv_graph_is_output(const dv_graph_t *g, int v);

#ifdef __cplusplus
}
#endif
#endif
