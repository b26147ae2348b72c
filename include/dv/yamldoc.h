/* dv/yamldoc.h - what the YAML readers share (configs/config.c for profiles, fusion/graph.c for
 * graphs): one document read with located errors, the one place that reads libyaml's
 * 1-means-success convention; and the edit distance behind their "did you mean" hints. */
#ifndef DV_YAMLDOC_H
#define DV_YAMLDOC_H

#include <stddef.h>
#include <yaml.h>

#include "dv/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The deepest nesting of sequences and mappings a document may have: every reader needs 4 or fewer,
 * and libyaml's loader takes time quadratic in the depth. */
#define DV_YAML_MAX_DEPTH 64

/* Parse len bytes of text into doc: exactly one YAML document.  Syntax errors are located
 * (file:line:column), as is nesting deeper than DV_YAML_MAX_DEPTH (found before the document is
 * built); a second document is an error saying that `what` ("a profile", "a graph file") is one
 * document.  On error doc holds nothing to delete. */
int dv_yaml_load(yaml_document_t *doc, const char *text, size_t len, const char *file, const char *what,
                 dv_error_t *err);

/* DV_OK, or the located error of the first collection nested deeper than DV_YAML_MAX_DEPTH in the
 * text, of the first value holding a NUL character (which every reader would cut short), or of the
 * first tag ('!!str 1000': no reader gives tags a meaning, so none is silently ignored); syntax
 * errors are left to the loader. */
int dv_yaml_depth_check(const char *text, size_t len, const char *file, dv_error_t *err);

/* "a mapping", "a sequence" or "a value", for messages. */
const char *dv_yaml_kind(const yaml_node_t *n);

/* ---- reading a document's mappings with located errors ---- */
/* A document being read: errors are located at a node and start with ctx (the reader's current
 * context, e.g. "node 'mm' (matmul): "). */
typedef struct dv_yaml_reader {
    const char *path;
    yaml_document_t *doc;
    dv_error_t *err;
    char ctx[160];
} dv_yaml_reader_t;

/* Fail at node `at` (NULL: no position): "path:line:col: <ctx><message>"; returns code. */
int dv_yaml_error(dv_yaml_reader_t *rd, int code, const yaml_node_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The node of an index of the document. */
const yaml_node_t *dv_yaml_node(const dv_yaml_reader_t *rd, int index);
/* A scalar's text ("what" names it in messages); NULL, with *rc set, when n is not a scalar or
 * holds a NUL. */
const char *dv_yaml_scalar(dv_yaml_reader_t *rd, const yaml_node_t *n, const char *what, int *rc);
/* The pairs of mapping `map` by key: val[i] is the value of keys[i] and kn[i] its key node (NULL
 * when absent).  A key that is not a plain name, is unknown (with the nearest keys) or comes twice
 * is an error ("where": "the graph", "a node", "the spec", ...). */
int dv_yaml_keys(dv_yaml_reader_t *rd, const yaml_node_t *map, const char *where, const char *const *keys, int nkeys,
                 const yaml_node_t **kn, const yaml_node_t **val);

/* The candidates nearest to a word, when near enough, built one at a time: text lists up to four
 * ("'gelu' or 'relu'"), n counts them. */
typedef struct dv_hint {
    char text[160];
    int n;
    size_t dist;
} dv_hint_t;
#define DV_HINT_INIT {"", 0, (size_t)-1}
void dv_hint_consider(dv_hint_t *h, const char *word, const char *cand);

/* Levenshtein distance between two names of at most DV_EDIT_MAX characters, when it is at most max;
 * max + 1 when it is more, or when a name is longer (the callers want a near name, not how far a far
 * one is: the work stops as soon as the distance must exceed max). */
#define DV_EDIT_MAX 255
size_t dv_edit_distance(const char *a, const char *b, size_t max);

#ifdef __cplusplus
}
#endif
#endif
