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

/* Parse len bytes of text into doc: exactly one YAML document.  Syntax errors are located
 * (file:line:column); a second document is an error saying that `what` ("a profile", "a graph
 * file") is one document.  On error doc holds nothing to delete. */
int dv_yaml_load(yaml_document_t *doc, const char *text, size_t len, const char *file, const char *what,
                 dv_error_t *err);

/* "a mapping", "a sequence" or "a value", for messages. */
const char *dv_yaml_kind(const yaml_node_t *n);

/* Levenshtein distance between two names of at most DV_EDIT_MAX characters ((size_t)-1 beyond). */
#define DV_EDIT_MAX 255
size_t dv_edit_distance(const char *a, const char *b);

#ifdef __cplusplus
}
#endif
#endif
