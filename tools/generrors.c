/* tools/generrors.c - docs/ERRORS.md: every error message a user can meet, read from the calls that
 * report them, with its status or AscendCL code and the test that checks it.
 *
 *   generrors SOURCE... --tests TEST...
 *
 * The messages are not in one table: each is written once, at the call that reports it.  The table
 * below names the reporting functions (where their code and format arguments are); this program reads
 * every call of one in the SOURCE files, takes its format (adjacent string literals joined, <inttypes.h>
 * macros read as their conversions) and its code, and looks for the longest literal piece of the
 * format in the TEST files: a test that checks the message names the function (START_TEST) or the
 * script it is in.  Formats that are only conversions ("%s": a message made elsewhere) are left out. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banner.h"

/* The reporting functions: the argument (from 0) that is the format, and the one that is the code
 * (-1: the code is fixed, `code`). */
static const struct reporter {
    const char *name;
    int fmt, code_arg;
    const char *code;
} reporters[] = {
    {"dv_error_set", 5, 1, NULL},       {"dv_acl_fail", 1, 0, NULL},
    {"dv_yaml_error", 3, 1, NULL},      {"loader_error", 3, 1, NULL},
    {"line_error", 3, 1, NULL},         {"locate", 4, 1, NULL},
    {"bad", 1, -1, "DV_ERR_RANGE"},     {"dvk_fail", 1, -1, "DV_ERR_RANGE"},
    {"dv_ops_param_error", 2, -1, "DV_ERR_RANGE"},
    {"usage_error", 0, -1, "exit 2 (usage)"},
    {"fail_at", 2, -1, "kernel error"}, {"die", 1, 0, NULL},
    {"scan_die", 2, -1, "exit 1"},
};
enum { NREP = sizeof reporters / sizeof reporters[0], MAXMSG = 4000 };

typedef struct text {
    char *s;
    size_t n;
    const char *name;
} text_t;

static int read_text(const char *path, text_t *t)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    t->s = malloc((size_t)n + 1);
    if (!t->s || fread(t->s, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        return -1;
    }
    fclose(f);
    t->s[n] = 0;
    t->n = (size_t)n;
    t->name = path;
    return 0;
}

static bool ident(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Past a string or character literal starting at p (at its quote). */
static const char *skip_literal(const char *p)
{
    const char q = *p++;
    while (*p && *p != q) {
        if (*p == '\\' && p[1])
            p++;
        p++;
    }
    return *p ? p + 1 : p;
}

/* The arguments of the call whose '(' is at p: their [start, end) ranges, at most cap. */
static int split_args(const char *p, const char **lo, const char **hi, int cap)
{
    int n = 0, depth = 0;
    const char *start = ++p;
    for (; *p; p++) {
        if (*p == '"' || *p == '\'') {
            p = skip_literal(p) - 1;
        } else if (*p == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            p = e ? e + 1 : p + strlen(p) - 1;
        } else if (*p == '(' || *p == '[' || *p == '{') {
            depth++;
        } else if ((*p == ')' || *p == ']' || *p == '}') && depth > 0) {
            depth--;
        } else if ((*p == ',' && depth == 0) || (*p == ')' && depth == 0)) {
            if (n < cap)
                lo[n] = start, hi[n] = p;
            n++;
            start = p + 1;
            if (*p == ')')
                return n;
        }
    }
    return -1;
}

/* The format of argument [lo, hi) when it is made of string literals (and PRI macros): true, in out. */
static bool format_of(const char *lo, const char *hi, char *out, size_t cap)
{
    size_t k = 0;
    bool any = false;
    for (const char *p = lo; p < hi;) {
        if (isspace((unsigned char)*p)) {
            p++;
        } else if (*p == '"') {
            const char *e = skip_literal(p);
            for (const char *c = p + 1; c < e - 1 && k + 1 < cap; c++)
                out[k++] = *c;
            p = e;
            any = true;
        } else if (strncmp(p, "PRI", 3) == 0) { /* PRIu64 and kin: the conversion's letters */
            const char *e = p + 3;
            while (e < hi && ident(*e))
                e++;
            if (k + 3 < cap)
                out[k++] = 'l', out[k++] = 'l', out[k++] = p[3];
            p = e;
        } else {
            return false;
        }
    }
    out[k] = 0;
    return any;
}

/* The format as a reader sees it: conversions as "…", escapes as their characters, '|' escaped. */
static void render(const char *f, char *out, size_t cap)
{
    size_t k = 0;
    for (const char *p = f; *p && k + 8 < cap; p++) {
        if (*p == '%' && p[1] == '%') {
            out[k++] = '%';
            p++;
        } else if (*p == '%') {
            p++;
            while (*p && strchr("-+ #0123456789.*lhzjt", *p))
                p++;
            memcpy(out + k, "\xe2\x80\xa6", 3); /* … */
            k += 3;
            if (!*p)
                break;
        } else if (*p == '\\' && p[1]) {
            p++;
            out[k++] = *p == 'n' ? ' ' : *p;
        } else if (*p == '|') {
            out[k++] = '\\', out[k++] = '|';
        } else if (*p == '`') {
            out[k++] = '\'';
        } else {
            out[k++] = *p;
        }
    }
    out[k] = 0;
}

/* A literal of a test: a string it checks a message against, and where it is. */
typedef struct probe {
    const char *s;
    size_t n;
    const text_t *file;
} probe_t;

/* The literals of the tests ("..." and '...') of at least kMinProbe characters, with a space in them
 * (a piece of a sentence, not an identifier). */
enum { kMinProbe = 12 };
static int collect_probes(const text_t *tests, int ntests, probe_t **out)
{
    int n = 0, cap = 1024;
    probe_t *v = malloc((size_t)cap * sizeof *v);
    for (int i = 0; v && i < ntests; i++) {
        const char *dot = strrchr(tests[i].name, '.');
        const bool shell = dot && strcmp(dot, ".sh") == 0;
        for (const char *p = tests[i].s; *p; p++) {
            /* comments first: their apostrophes are not quotes */
            if ((shell && *p == '#' && (p == tests[i].s || isspace((unsigned char)p[-1]))) ||
                (!shell && *p == '/' && p[1] == '/')) {
                p += strcspn(p, "\n");
                if (!*p)
                    break;
                continue;
            }
            if (!shell && *p == '/' && p[1] == '*') {
                const char *e = strstr(p + 2, "*/");
                if (!e)
                    break;
                p = e + 1;
                continue;
            }
            if (*p != '"' && *p != '\'')
                continue;
            const char *e = skip_literal(p);
            const size_t len = (size_t)(e - p) - 2;
            if (len >= kMinProbe && memchr(p + 1, ' ', len) && !memchr(p + 1, '\n', len)) {
                if (n == cap) {
                    probe_t *w = realloc(v, (size_t)(cap *= 2) * sizeof *v);
                    if (!w)
                        break;
                    v = w;
                }
                v[n++] = (probe_t){p + 1, len, &tests[i]};
            }
            p = e - 1;
        }
    }
    *out = v;
    return v ? n : 0;
}

/* The test that checks a piece of f (a probe found between two of its conversions): "test_name
 * (file)" or "file"; NULL if none. */
static const char *covered_by(const char *f, const probe_t *probes, int nprobes, char *out, size_t cap)
{
    char piece[MAXMSG];
    for (const char *start = f;;) {
        size_t n = 0;
        while (start[n] && start[n] != '%')
            n++;
        memcpy(piece, start, n);
        piece[n] = 0;
        for (int i = 0; n >= kMinProbe && i < nprobes; i++) {
            char probe[MAXMSG];
            if (probes[i].n > n)
                continue;
            memcpy(probe, probes[i].s, probes[i].n);
            probe[probes[i].n] = 0;
            if (!strstr(piece, probe))
                continue;
            const text_t *t = probes[i].file;
            const char *base = strrchr(t->name, '/') ? strrchr(t->name, '/') + 1 : t->name, *name = NULL;
            for (const char *q = t->s; (q = strstr(q, "START_TEST(")) && q < probes[i].s; q++)
                name = q + 11;
            if (name)
                snprintf(out, cap, "`%.*s` (%s)", (int)strcspn(name, ")"), name, base);
            else
                snprintf(out, cap, "%s", base);
            return out;
        }
        if (!start[n])
            return NULL;
        start += n + 1; /* past the '%' and the conversion */
        while (*start && strchr("-+ #0123456789.*lhzjt", *start))
            start++;
        if (*start)
            start++;
    }
}

int main(int argc, char **argv)
{
    int tests_at = argc;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--tests") == 0)
            tests_at = i;
    if (tests_at == argc || tests_at == 1) {
        fprintf(stderr, "usage: generrors SOURCE... --tests TEST...\n");
        return 2;
    }
    const int ntests = argc - tests_at - 1;
    text_t *tests = calloc((size_t)ntests + 1, sizeof *tests);
    for (int i = 0; i < ntests; i++)
        if (read_text(argv[tests_at + 1 + i], &tests[i]) != 0) {
            fprintf(stderr, "generrors: cannot read %s\n", argv[tests_at + 1 + i]);
            return 1;
        }
    probe_t *probes;
    const int nprobes = collect_probes(tests, ntests, &probes);
    printf("%s\n\n", DV_BANNER_MD("make docs", "the error-reporting calls of the sources and the tests",
                                  "tools/generrors.c"));
    printf("# Errors\n\n"
           "Every message dvsim, its AscendCL shim, the operator library and the Ascend C headers can report, "
           "read from the call that reports it: the status (`DV_ERR_*`, include/dv/error.h) or the AscendCL / "
           "aclnn code it comes with, the file that writes it, and a test that checks it (one whose source holds "
           "a piece of the message, a string of 12 characters or more). `…` stands for a value the message fills in.\n\n"
           "`dvsim` exits with 0 when it succeeds, 1 on an input or simulation error, 2 on a usage error, 3 "
           "when `--fail-on-hazard` found a hazard and 4 when `--check` found a mismatch (`dvsim --help`). "
           "A message from a file carries its location as `file:line:column: error: message`. AscendCL calls "
           "return the code; `aclGetRecentErrMsg` gives the message (docs/ACL.md).\n\n");
    int total = 0, covered = 0;
    for (int a = 1; a < tests_at; a++) {
        text_t src;
        if (read_text(argv[a], &src) != 0) {
            fprintf(stderr, "generrors: cannot read %s\n", argv[a]);
            return 1;
        }
        bool header = false;
        for (const char *p = src.s; *p; p++) {
            if (*p == '"' || *p == '\'') {
                p = skip_literal(p) - 1;
                continue;
            }
            if (*p == '/' && p[1] == '/') {
                p += strcspn(p, "\n");
                if (!*p)
                    break;
                continue;
            }
            if (*p == '/' && p[1] == '*') {
                const char *e = strstr(p + 2, "*/");
                if (!e)
                    break;
                p = e + 1;
                continue;
            }
            if (!ident(*p) || (p > src.s && ident(p[-1])))
                continue;
            const char *e = p;
            while (ident(*e))
                e++;
            const struct reporter *r = NULL;
            for (int i = 0; i < NREP; i++)
                if ((size_t)(e - p) == strlen(reporters[i].name) && strncmp(p, reporters[i].name, (size_t)(e - p)) == 0)
                    r = &reporters[i];
            const char *q = e;
            while (*q == ' ')
                q++;
            if (!r || *q != '(') {
                p = e - 1;
                continue;
            }
            const char *lo[12], *hi[12];
            const int n = split_args(q, lo, hi, 12);
            char fmt[MAXMSG], shown[MAXMSG], code[128], test[256];
            if (n <= r->fmt || n > 12 || !format_of(lo[r->fmt], hi[r->fmt], fmt, sizeof fmt)) {
                p = e - 1;
                continue;
            }
            bool words = false; /* leave out a format of conversions only */
            for (const char *c = fmt; *c; c++)
                if (isalpha((unsigned char)*c) && !(c > fmt && (c[-1] == '%' || c[-1] == 'l')))
                    words = true;
            render(fmt, shown, sizeof shown);
            if (!words || strlen(shown) < 8) {
                p = e - 1;
                continue;
            }
            if (r->code_arg >= 0) {
                const char *c0 = lo[r->code_arg], *c1 = hi[r->code_arg];
                while (c0 < c1 && isspace((unsigned char)*c0))
                    c0++;
                while (c1 > c0 && isspace((unsigned char)c1[-1]))
                    c1--;
                snprintf(code, sizeof code, "%.*s", (int)(c1 - c0), c0);
                if (strpbrk(code, "|\n"))
                    snprintf(code, sizeof code, "(computed)");
            } else {
                snprintf(code, sizeof code, "%s", r->code);
            }
            const char *by = covered_by(fmt, probes, nprobes, test, sizeof test);
            if (!header) {
                printf("## %s\n\n| Code | Message | Test |\n|---|---|---|\n", argv[a]);
                header = true;
            }
            printf("| %s | %s | %s |\n", code, shown, by ? by : "");
            total++;
            covered += by != NULL;
            p = e - 1;
        }
        if (header)
            printf("\n");
        free(src.s);
    }
    printf("%d messages; %d of them checked by a test.\n", total, covered);
    for (int i = 0; i < ntests; i++)
        free(tests[i].s);
    free(tests);
    free(probes);
    return ferror(stdout) ? 1 : 0;
}
