/* base/yamldoc.c - one YAML document with located errors, and the edit distance of name hints
 * (dv/yamldoc.h). */
#include "dv/yamldoc.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* libyaml's result (1 = success) as a dvsim status: the only place that reads its convention. */
static int yaml_status(int libyaml_ok, const yaml_parser_t *p, const char *file, const char *text, dv_error_t *err)
{
    if (libyaml_ok)
        return DV_OK;
    if (p->error == YAML_MEMORY_ERROR || p->error == YAML_NO_ERROR)
        return dv_error_set(err, DV_ERR_NOMEM, file, 0, 0, "out of memory while parsing YAML");
    if (p->error == YAML_READER_ERROR) { /* bad encoding: a byte offset, not a mark */
        int line = 1, col = 1;
        for (size_t i = 0; i < p->problem_offset && text[i]; i++, col++)
            if (text[i] == '\n')
                line++, col = 0;
        return dv_error_set(err, DV_ERR_PARSE, file, line, col, "YAML syntax error: %s",
                            p->problem ? p->problem : "unreadable input");
    }
    char where[64] = "";
    if (p->context)
        snprintf(where, sizeof where, " started at line %d, column %d", (int)p->context_mark.line + 1,
                 (int)p->context_mark.column + 1);
    return dv_error_set(err, DV_ERR_PARSE, file, (int)p->problem_mark.line + 1, (int)p->problem_mark.column + 1,
                        "YAML syntax error: %s%s%s%s", p->problem ? p->problem : "malformed YAML",
                        p->context ? " " : "", p->context ? p->context : "", where);
}

int dv_yaml_depth_check(const char *text, size_t len, const char *file, dv_error_t *err)
{
    yaml_parser_t parser;
    yaml_event_t ev;
    int rc = yaml_status(yaml_parser_initialize(&parser), &parser, file, text, err), depth = 0;
    if (rc != DV_OK)
        return rc;
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    while (yaml_parser_parse(&parser, &ev)) { /* a syntax error ends the scan: the loader reports it */
        const yaml_event_type_t type = ev.type;
        if ((type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT) && ++depth > DV_YAML_MAX_DEPTH)
            rc = dv_error_set(err, DV_ERR_PARSE, file, (int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1,
                              "YAML nested deeper than %d levels", DV_YAML_MAX_DEPTH);
        else if (type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT)
            depth--;
        else if (type == YAML_SCALAR_EVENT && memchr(ev.data.scalar.value, 0, ev.data.scalar.length))
            rc = dv_error_set(err, DV_ERR_PARSE, file, (int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1,
                              "a value holds a NUL character (\\0)");
        if (rc == DV_OK && ((type == YAML_SCALAR_EVENT && ev.data.scalar.tag) ||
                            (type == YAML_SEQUENCE_START_EVENT && ev.data.sequence_start.tag) ||
                            (type == YAML_MAPPING_START_EVENT && ev.data.mapping_start.tag)))
            rc = dv_error_set(err, DV_ERR_PARSE, file, (int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1,
                              "YAML tags ('!!str', '!x') are not read: write the value without one");
        yaml_event_delete(&ev);
        if (rc != DV_OK || type == YAML_STREAM_END_EVENT)
            break;
    }
    yaml_parser_delete(&parser);
    return rc;
}

int dv_yaml_load(yaml_document_t *doc, const char *text, size_t len, const char *file, const char *what,
                 dv_error_t *err)
{
    yaml_parser_t parser;
    yaml_document_t extra;
    bool have_doc = false, have_extra = false;
    int rc = dv_yaml_depth_check(text, len, file, err);
    if (rc != DV_OK)
        return rc;
    if ((rc = yaml_status(yaml_parser_initialize(&parser), &parser, file, text, err)) != DV_OK)
        return rc;
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    rc = yaml_status(yaml_parser_load(&parser, doc), &parser, file, text, err);
    if (rc != DV_OK)
        goto cleanup;
    have_doc = true;
    rc = yaml_status(yaml_parser_load(&parser, &extra), &parser, file, text, err);
    if (rc != DV_OK)
        goto cleanup;
    have_extra = true;
    const yaml_node_t *second = yaml_document_get_root_node(&extra);
    if (second)
        rc = dv_error_set(err, DV_ERR_PARSE, file, (int)second->start_mark.line + 1,
                          (int)second->start_mark.column + 1, "%s is one YAML document; a second one starts here",
                          what);
cleanup:
    if (have_extra)
        yaml_document_delete(&extra);
    if (rc != DV_OK && have_doc)
        yaml_document_delete(doc);
    yaml_parser_delete(&parser);
    return rc;
}

const char *dv_yaml_kind(const yaml_node_t *n)
{
    return n->type == YAML_MAPPING_NODE ? "a mapping" : n->type == YAML_SEQUENCE_NODE ? "a sequence" : "a value";
}

size_t dv_edit_distance(const char *a, const char *b, size_t max)
{
    const size_t la = strlen(a), lb = strlen(b);
    size_t row[DV_EDIT_MAX + 1];
    if (la > DV_EDIT_MAX || lb > DV_EDIT_MAX || (la > lb ? la - lb : lb - la) > max)
        return max + 1;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        size_t low = row[0]; /* the row's least entry: no later row has a smaller one */
        for (size_t j = 1; j <= lb; j++) {
            const size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
            low = best < low ? best : low;
        }
        if (low > max)
            return max + 1;
    }
    return row[lb] <= max ? row[lb] : max + 1;
}

/* ---------------------------------------------------------------- reading mappings */

int dv_yaml_error(dv_yaml_reader_t *rd, int code, const yaml_node_t *at, const char *fmt, ...)
{
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return dv_error_set(rd->err, code, rd->path, at ? (int)at->start_mark.line + 1 : 0,
                        at ? (int)at->start_mark.column + 1 : 0, "%s%s", rd->ctx, msg);
}

const yaml_node_t *dv_yaml_node(const dv_yaml_reader_t *rd, int index) { return yaml_document_get_node(rd->doc,
                                index); }

const char *dv_yaml_scalar(dv_yaml_reader_t *rd, const yaml_node_t *n, const char *what, int *rc)
{
    if (n->type != YAML_SCALAR_NODE) {
        *rc = dv_yaml_error(rd, DV_ERR_PARSE, n, "%s: expected a single value, got %s", what, dv_yaml_kind(n));
        return NULL;
    }
    const char *s = (const char *)n->data.scalar.value;
    if (strlen(s) != n->data.scalar.length) {
        *rc = dv_yaml_error(rd, DV_ERR_PARSE, n, "%s: the value contains a NUL character", what);
        return NULL;
    }
    *rc = DV_OK;
    return s;
}

int dv_yaml_keys(dv_yaml_reader_t *rd, const yaml_node_t *map, const char *where, const char *const *keys, int nkeys,
                 const yaml_node_t **kn, const yaml_node_t **val)
{
    char all[128] = "";
    for (int i = 0; i < nkeys; i++) {
        kn[i] = val[i] = NULL;
        snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", i ? ", " : "", keys[i]);
    }
    for (const yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = dv_yaml_node(rd, p->key);
        int rc;
        const char *name = dv_yaml_scalar(rd, k, "a key", &rc);
        if (!name)
            return rc;
        int i = 0;
        while (i < nkeys && strcmp(keys[i], name) != 0)
            i++;
        if (i == nkeys) {
            dv_hint_t h = DV_HINT_INIT;
            for (int j = 0; j < nkeys; j++)
                dv_hint_consider(&h, name, keys[j]);
            return dv_yaml_error(rd, DV_ERR_UNKNOWN, k, "unknown key '%s' in %s (%s%s%sthe keys are %s)", name, where,
                                 h.n ? "did you mean " : "", h.text, h.n ? "? " : "", all);
        }
        if (kn[i])
            return dv_yaml_error(rd, DV_ERR_PARSE, k, "duplicate key '%s' in %s (first at line %d)", name, where,
                                 (int)kn[i]->start_mark.line + 1);
        kn[i] = k;
        val[i] = dv_yaml_node(rd, p->value);
    }
    return DV_OK;
}

void dv_hint_consider(dv_hint_t *h, const char *word, const char *cand)
{
    const size_t len = strlen(word), limit = len <= 2 ? 0 : len <= 3 ? 1 : len / 4 + 1;
    const size_t d = dv_edit_distance(word, cand, limit);
    if (d > limit || d > h->dist)
        return;
    if (d < h->dist) {
        h->text[0] = '\0';
        h->n = 0;
        h->dist = d;
    }
    const size_t used = strlen(h->text);
    if (h->n < 4)
        snprintf(h->text + used, sizeof h->text - used, "%s'%s'", h->n ? " or " : "", cand);
    h->n++;
}
