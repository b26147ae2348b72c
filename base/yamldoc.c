/* base/yamldoc.c - one YAML document with located errors, and the edit distance of name hints
 * (dv/yamldoc.h). */
#include "dv/yamldoc.h"

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

int dv_yaml_load(yaml_document_t *doc, const char *text, size_t len, const char *file, const char *what,
                 dv_error_t *err)
{
    yaml_parser_t parser;
    yaml_document_t extra;
    bool have_doc = false, have_extra = false;
    int rc = yaml_status(yaml_parser_initialize(&parser), &parser, file, text, err);
    if (rc != DV_OK)
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

size_t dv_edit_distance(const char *a, const char *b)
{
    const size_t la = strlen(a), lb = strlen(b);
    size_t row[DV_EDIT_MAX + 1];
    if (la > DV_EDIT_MAX || lb > DV_EDIT_MAX)
        return (size_t)-1;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            const size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}
