/* tools/genaclnn.c - the aclnn operator headers from acl/nnops.def: one include/aclnnop/aclnn_<header>.h
 * per header of the table, declaring each of its rows' two phases with CANN's parameter lists.
 *
 *   genaclnn DIR    write DIR/aclnn_<header>.h for every header (the Makefile: $(B)/include/aclnnop)
 *
 * A file is rewritten only when its text changes, so a build does not recompile what includes it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banner.h"

typedef struct row {
    const char *api, *header, *sig, *params, *ws_q, *stream_q, *doc;
} row_t;

static const row_t rows[] = {
#define DV_ACLNN(api, header, sig, libop, optype, factor, params, ws_q, stream_q, doc) \
    {#api, #header, #sig, #params, #ws_q, #stream_q, doc},
#include "../acl/nnops.def"
};
#define NROWS (sizeof rows / sizeof rows[0])

/* The parameter list without its parentheses. */
static void put_params(FILE *f, const char *p)
{
    size_t n = strlen(p);
    fprintf(f, "%.*s", (int)(n - 2), p + 1);
}

/* Write the text to path unless it already holds it.  Returns 0 or 1 (an error, reported). */
static int write_if_changed(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "rb");
    if (f) {
        char *old = malloc(len + 1);
        size_t got = old ? fread(old, 1, len + 1, f) : 0;
        int same = old && got == len && memcmp(old, text, len) == 0;
        free(old);
        fclose(f);
        if (same)
            return 0;
    }
    f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "genaclnn: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

static int write_header(const char *dir, const char *header)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return 1;
    char guard[128];
    size_t g = 0;
    for (const char *c = header; *c && g + 1 < sizeof guard; c++)
        guard[g++] = (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
    guard[g] = 0;
    fprintf(f, "%s\n/* aclnnop/aclnn_%s.h - ", DV_BANNER_C("make", "acl/nnops.def", "tools/genaclnn.c"), header);
    int first = 1;
    for (size_t i = 0; i < NROWS; i++)
        if (strcmp(rows[i].header, header) == 0) {
            fprintf(f, "%saclnn%s", first ? "" : ", ", rows[i].api);
            first = 0;
        }
    fprintf(f, " (docs/ACLNN.md). */\n#ifndef ACLNNOP_ACLNN_%s_H\n#define ACLNNOP_ACLNN_%s_H\n\n"
               "#include \"aclnn/aclnn_base.h\"\n#include \"aclnn_util.h\"\n\n"
               "#ifdef __cplusplus\nextern \"C\" {\n#endif\n", guard, guard);
    for (size_t i = 0; i < NROWS; i++) {
        const row_t *r = &rows[i];
        if (strcmp(r->header, header) != 0)
            continue;
        fprintf(f, "\n/* aclnn%s: %s.\n * Phase 1 checks the arguments (161001 a NULL pointer, 161002 a shape, dtype or value dvsim does "
                   "not take)\n * and plans the kernel; phase 2 queues it on stream. */\n", r->api, r->doc);
        fprintf(f, "ACLNN_API aclnnStatus aclnn%sGetWorkspaceSize(", r->api);
        put_params(f, r->params);
        fputs(", uint64_t *workspaceSize, aclOpExecutor **executor);\n", f);
        fprintf(f, "ACLNN_API aclnnStatus aclnn%s(void *workspace, %s%suint64_t workspaceSize, aclOpExecutor *executor, "
                   "%s%saclrtStream stream);\n", r->api, r->ws_q, *r->ws_q ? " " : "", r->stream_q,
                *r->stream_q ? " " : "");
    }
    fputs("\n#ifdef __cplusplus\n}\n#endif\n#endif\n", f);
    if (fclose(f) != 0) {
        free(text);
        return 1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/aclnn_%s.h", dir, header);
    int rc = write_if_changed(path, text, len);
    free(text);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: genaclnn DIR\n");
        return 2;
    }
    int rc = 0;
    for (size_t i = 0; i < NROWS; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(rows[j].header, rows[i].header) == 0;
        if (!seen)
            rc |= write_header(argv[1], rows[i].header);
    }
    return rc;
}
