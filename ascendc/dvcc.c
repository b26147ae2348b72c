/* ascendc/dvcc.c - dvcc, dvsim's compiler driver for Ascend C (docs/ASCENDC.md, "Building and running").
 *
 * dvcc stands where CANN's bisheng stands: it compiles .asc files and Ascend C .cpp kernels and links
 * host programs, with g++ doing the compiling.  An Ascend C source goes through one text rewrite,
 * without preprocessing, before g++ sees it:
 *
 *     EXPR<<<A, B, C>>>(ARGS)   ->   ::dvac::launch(EXPR, "EXPR", A, B, C)(ARGS)
 *
 * (EXPR: a kernel name, possibly qualified and with template arguments; string and character literals
 * and comments are left alone), and every non-template __global__ kernel defined in it gets an
 * extern "C" entry dvsim_kernel_entry_NAME (under the #if conditions of its definition), the symbol
 * aclrtBinaryGetFunction looks up in a library built with `dvcc -shared` (acl/binary.c).  The rewritten text goes to a temporary file that starts
 * with a #line directive and keeps every line where it was, so g++'s messages, __FILE__ and the
 * kernel API's source locations name the user's file and line; a dependency file g++ writes names the
 * user's file too.  Linking adds the installed shim: -L PREFIX/lib -Wl,-rpath,PREFIX/lib -lascendcl.
 *
 * `dvcc --gen-launch-header OUTDIR SOURCE...` writes, for every kernel defined in the sources,
 * OUTDIR/aclrtlaunch_NAME.h (what CANN's build generates for ACLRT_LAUNCH_KERNEL) and
 * OUTDIR/aclrtlaunch_NAME.cpp (its definition, to compile and link with the kernel's object).
 *
 * A run goes: 1. options -> 2. the install prefix -> 3. each Ascend C source rewritten, compiled to
 * assembly, its native code counted (native.c: docs/KERNEL.md, the scalar cost rule, rule 4) and
 * assembled -> 4. the link.  g++'s exit status is dvcc's; a usage error exits with 2. */
#define _DEFAULT_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "native.h"

#define DVCC_VERSION "1.0"
/* The one architecture the headers implement (Atlas A2, the 910B profiles) and its __NPU_ARCH__. */
#define DVCC_ARCH "dav-2201"
#define DVCC_ARCH_NUM "2201"

/* ---------------------------------------------------------------- small helpers */

static const char *g_prog = "dvcc";

__attribute__((noreturn, format(printf, 2, 3))) static void die(int code, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: error: ", g_prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(code);
}

__attribute__((format(printf, 1, 2))) static void warn(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: warning: ", g_prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        die(1, "out of memory");
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xrealloc(NULL, n), s, n);
}

/* A growable text buffer, always NUL-terminated. */
typedef struct {
    char *p;
    size_t n, cap;
} buf_t;

static void buf_add(buf_t *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->p = xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void buf_str(buf_t *b, const char *s)
{
    buf_add(b, s, strlen(s));
}

__attribute__((format(printf, 2, 3))) static void buf_fmt(buf_t *b, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        die(1, "formatting failed");
    if ((size_t)n < sizeof small) {
        buf_add(b, small, (size_t)n);
        return;
    }
    char *tmp = xrealloc(NULL, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(tmp, (size_t)n + 1, fmt, ap);
    va_end(ap);
    buf_add(b, tmp, (size_t)n);
    free(tmp);
}

/* A NULL-terminated vector of owned strings (a command line). */
typedef struct {
    char **v;
    size_t n, cap;
} strv_t;

static void strv_add(strv_t *a, const char *s)
{
    if (a->n + 2 > a->cap) {
        a->cap = (a->n + 2) * 2;
        a->v = xrealloc(a->v, a->cap * sizeof *a->v);
    }
    a->v[a->n++] = xstrdup(s);
    a->v[a->n] = NULL;
}

static void strv_cat(strv_t *a, const strv_t *b)
{
    for (size_t i = 0; i < b->n; i++)
        strv_add(a, b->v[i]);
}

static void strv_free(strv_t *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof *a);
}

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    buf_t b = {0};
    char chunk[65536];
    size_t n;
    if (!f)
        die(1, "cannot read %s: %s", path, strerror(errno));
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_add(&b, chunk, n);
    bool bad = ferror(f);
    fclose(f);
    if (bad)
        die(1, "cannot read %s", path);
    if (!b.p)
        buf_add(&b, "", 0);
    *len = b.n;
    return b.p;
}

static void write_file(const char *path, const char *text, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, n, f) != n || fclose(f) != 0)
        die(1, "cannot write %s: %s", path, strerror(errno));
}

/* The directory part of path ("." when it has none). */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    char *d = xstrdup(path);
    d[slash - path] = '\0';
    return d;
}

static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* path's file name with its extension replaced by ext (".o", ".d"). */
static char *with_ext(const char *path, const char *ext, bool keep_dir)
{
    const char *name = keep_dir ? path : base_of(path);
    const char *dot = strrchr(name, '.');
    const char *slash = strrchr(name, '/');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - name) : strlen(name);
    buf_t b = {0};
    buf_add(&b, name, stem);
    buf_str(&b, ext);
    return b.p;
}

/* ---------------------------------------------------------------- running g++ */

static bool g_verbose;

/* Print a command as a shell would read it. */
static void print_cmd(const strv_t *cmd)
{
    for (size_t i = 0; i < cmd->n; i++) {
        const char *a = cmd->v[i];
        bool plain = *a != '\0';
        for (const char *c = a; *c; c++)
            plain = plain && (isalnum((unsigned char)*c) || strchr("-_./=,:+@%", *c));
        if (plain) {
            fprintf(stderr, "%s%s", i ? " " : "", a);
        } else {
            fprintf(stderr, "%s'", i ? " " : "");
            for (const char *c = a; *c; c++)
                fputs(*c == '\'' ? "'\\''" : (char[]){*c, 0}, stderr);
            fputc('\'', stderr);
        }
    }
    fputc('\n', stderr);
}

/* Run cmd and return its exit status (128 + signal when killed). */
static int run(const strv_t *cmd)
{
    if (g_verbose)
        print_cmd(cmd);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        die(1, "cannot start %s: %s", cmd->v[0], strerror(errno));
    if (pid == 0) {
        execvp(cmd->v[0], cmd->v);
        fprintf(stderr, "%s: error: cannot run %s: %s\n", g_prog, cmd->v[0], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            die(1, "waiting for %s: %s", cmd->v[0], strerror(errno));
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
}

/* ---------------------------------------------------------------- temporary files */

static char g_tmpdir[PATH_MAX];
static strv_t g_tmpfiles;

static void tmp_cleanup(void)
{
    for (size_t i = 0; i < g_tmpfiles.n; i++)
        unlink(g_tmpfiles.v[i]);
    if (g_tmpdir[0])
        rmdir(g_tmpdir);
}

/* A new path in dvcc's private temporary directory (removed when dvcc exits). */
static char *tmp_path(const char *name)
{
    static unsigned serial;
    if (!g_tmpdir[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(g_tmpdir, sizeof g_tmpdir, "%s/dvcc.XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(g_tmpdir))
            die(1, "cannot create a temporary directory %s: %s", g_tmpdir, strerror(errno));
        atexit(tmp_cleanup);
    }
    buf_t b = {0};
    buf_fmt(&b, "%s/%u-%s", g_tmpdir, serial++, name);
    strv_add(&g_tmpfiles, b.p);
    return b.p;
}

/* ---------------------------------------------------------------- the scan of an Ascend C source
 *
 * One pass over the text that skips comments, string and character literals, rewrites the kernel
 * calls and records the kernels defined at namespace scope. */

typedef struct {
    char *name;      /* as written */
    char *qname;     /* with its namespaces, for use from the end of the file */
    char *params;    /* the parameter list's text, without the parentheses */
    bool extern_c;   /* declared extern "C" (or inside an extern "C" block) */
    bool internal;   /* static or in an anonymous namespace: not callable from another file */
    bool templated;
    char *cond;      /* the #if conditions it is defined under (NULL: none), as one expression */
    unsigned line;
} kernel_t;

typedef struct {
    const char *path;  /* for messages */
    const char *s;
    size_t n;
    buf_t out;         /* the rewritten text */
    kernel_t *k;
    size_t nk;
} scan_t;

enum { FRAME_OTHER, FRAME_NS, FRAME_EXTERN_C };
#define MAX_DEPTH 512

static unsigned line_at(const scan_t *sc, size_t pos)
{
    unsigned line = 1;
    for (size_t i = 0; i < pos && i < sc->n; i++)
        line += sc->s[i] == '\n';
    return line;
}

__attribute__((noreturn, format(printf, 3, 4))) static void scan_die(const scan_t *sc, size_t pos, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%u: error: ", sc->path, line_at(sc, pos));
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static bool is_ident_start(int c)
{
    return isalpha(c) || c == '_' || c == '$';
}

static bool is_ident(int c)
{
    return isalnum(c) || c == '_' || c == '$';
}

/* The end of the comment, literal or blank run at i (i itself when there is none there). */
static size_t skip_literal(const char *s, size_t n, size_t i)
{
    if (i + 1 < n && s[i] == '/' && s[i + 1] == '/') {
        for (i += 2; i < n && s[i] != '\n'; i++)
            if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n')
                i++;
        return i;
    }
    if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
        for (i += 2; i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'); i++)
            ;
        return i + 2 <= n ? i + 2 : n;
    }
    if (s[i] == '"' || s[i] == '\'') {
        char q = s[i];
        for (i++; i < n && s[i] != q && s[i] != '\n'; i++)
            if (s[i] == '\\')
                i++;
        return i < n ? i + 1 : n;
    }
    return i;
}

/* Whether the identifier s[0..n) makes the string literal right after it a raw one. */
static bool is_raw_prefix(const char *s, size_t n)
{
    static const char *const raw[] = {"R", "LR", "uR", "UR", "u8R"};
    for (size_t i = 0; i < sizeof raw / sizeof *raw; i++)
        if (n == strlen(raw[i]) && strncmp(s, raw[i], n) == 0)
            return true;
    return false;
}

/* The end of the raw string literal whose opening quote is at i (R"delim( ... )delim"). */
static size_t skip_raw_string(const scan_t *sc, size_t i)
{
    const char *s = sc->s;
    size_t d = i + 1;
    while (d < sc->n && s[d] != '(' && d - i <= 17)
        d++;
    if (d >= sc->n || s[d] != '(')
        scan_die(sc, i, "malformed raw string literal");
    size_t dlen = d - i - 1;
    for (size_t j = d + 1; j + dlen < sc->n; j++)
        if (s[j] == ')' && strncmp(s + j + 1, s + i + 1, dlen) == 0 && s[j + 1 + dlen] == '"')
            return j + dlen + 2;
    scan_die(sc, i, "unterminated raw string literal");
}

/* Skip blanks and comments from i. */
static size_t skip_ws(const char *s, size_t n, size_t i)
{
    for (;;) {
        while (i < n && isspace((unsigned char)s[i]))
            i++;
        if (i + 1 < n && s[i] == '/' && (s[i + 1] == '/' || s[i + 1] == '*'))
            i = skip_literal(s, n, i);
        else
            return i;
    }
}

/* Skip blanks, comments and preprocessor directive lines from i (a kernel's header may be split
 * between #if branches that share its body). */
static size_t skip_ws_pp(const char *s, size_t n, size_t i)
{
    for (;;) {
        i = skip_ws(s, n, i);
        size_t b = i;
        while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '\t'))
            b--;
        if (i >= n || s[i] != '#' || (b > 0 && s[b - 1] != '\n'))
            return i;
        while (i < n && s[i] != '\n')
            i += s[i] == '\\' && i + 1 < n && s[i + 1] == '\n' ? 2 : 1;
    }
}

/* Whether a directive line starts at i (its '#'); kw gets its keyword ("if", "else", ...). */
static bool pp_keyword(const char *s, size_t n, size_t i, char kw[16])
{
    kw[0] = '\0';
    size_t b = i;
    while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '\t'))
        b--;
    if (i >= n || s[i] != '#' || (b > 0 && s[b - 1] != '\n'))
        return false;
    i++;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    size_t k = 0;
    while (i < n && is_ident(s[i]) && k < 15)
        kw[k++] = s[i++];
    kw[k] = '\0';
    return true;
}

/* The index after the logical line (with its continuations) that holds i. */
static size_t line_end(const char *s, size_t n, size_t i)
{
    while (i < n && s[i] != '\n')
        i += s[i] == '\\' && i + 1 < n && s[i + 1] == '\n' ? 2 : 1;
    return i < n ? i + 1 : n;
}

/* From just after a kernel's parameter list: where its body should start.  Blanks, comments and
 * directives are skipped, and a #else / #elif branch (another header for the same body) up to the
 * #endif that closes it. */
static size_t skip_body_start(const char *s, size_t n, size_t i)
{
    char kw[16];
    for (;;) {
        i = skip_ws(s, n, i);
        if (!pp_keyword(s, n, i, kw))
            return i;
        i = line_end(s, n, i);
        if (strcmp(kw, "else") != 0 && strncmp(kw, "elif", 4) != 0)
            continue;
        for (int depth = 1; depth > 0 && i < n;) {
            size_t j = skip_ws(s, n, i);
            if (pp_keyword(s, n, j, kw))
                depth += !strncmp(kw, "if", 2) ? 1 : !strcmp(kw, "endif") ? -1 : 0;
            i = line_end(s, n, j);
        }
    }
}

/* The index after the bracket matching the one at i ('(' or '<'), or n. */
static size_t match_forward(const char *s, size_t n, size_t i)
{
    char open = s[i], close = open == '(' ? ')' : '>';
    int depth = 0;
    while (i < n) {
        size_t j = skip_literal(s, n, i);
        if (j != i) {
            i = j;
            continue;
        }
        if (s[i] == open)
            depth++;
        else if (s[i] == close && --depth == 0)
            return i + 1;
        else if (open == '<' && s[i] == '(')
            i = match_forward(s, n, i) - 1;
        i++;
    }
    return n;
}

/* The start of the kernel expression that ends just before index end (the "<<<"): an identifier,
 * possibly qualified (a::b, ::b, A<T>::b) and with template arguments (k<T, 2>).  `end` when there
 * is none. */
static size_t launch_expr_start(const char *s, size_t end)
{
    size_t j = end;
    while (j > 0 && isspace((unsigned char)s[j - 1]))
        j--;
    size_t start = end;
    for (;;) {
        if (j > 0 && s[j - 1] == '>') { /* template arguments: back to the matching '<' */
            int depth = 0;
            while (j > 0) {
                char c = s[--j];
                if (c == '>' || c == ')')
                    depth++;
                else if ((c == '<' || c == '(') && --depth == 0)
                    break;
            }
            if (depth != 0)
                return end;
            while (j > 0 && isspace((unsigned char)s[j - 1]))
                j--;
        }
        size_t id_end = j;
        while (j > 0 && is_ident(s[j - 1]))
            j--;
        if (j == id_end || !is_ident_start(s[j]))
            return start;
        start = j;
        size_t k = j;
        while (k > 0 && isspace((unsigned char)s[k - 1]))
            k--;
        if (k >= 2 && s[k - 1] == ':' && s[k - 2] == ':') {
            start = k - 2;
            j = k - 2;
            while (j > 0 && isspace((unsigned char)s[j - 1]))
                j--;
            if (j == 0 || !(is_ident(s[j - 1]) || s[j - 1] == '>'))
                return start;
            continue;
        }
        return start;
    }
}

/* text without blanks, but one space between two word characters ("ns::k<T,2>"). */
static char *squeeze(const char *s, size_t n)
{
    buf_t b = {0};
    for (size_t i = 0; i < n; i++) {
        if (isspace((unsigned char)s[i])) {
            size_t j = i;
            while (j < n && isspace((unsigned char)s[j]))
                j++;
            if (b.n && j < n && is_ident(b.p[b.n - 1]) && is_ident(s[j]))
                buf_add(&b, " ", 1);
            i = j - 1;
            continue;
        }
        buf_add(&b, s + i, 1);
    }
    if (!b.p)
        buf_add(&b, "", 0);
    return b.p;
}

/* text with each run of blanks made one space, and none at the ends. */
static char *collapse(const char *s, size_t n)
{
    buf_t b = {0};
    buf_add(&b, "", 0);
    for (size_t i = 0; i < n; i++) {
        if (!isspace((unsigned char)s[i]))
            buf_add(&b, s + i, 1);
        else if (b.n && !isspace((unsigned char)b.p[b.n - 1]))
            buf_add(&b, " ", 1);
    }
    while (b.n && b.p[b.n - 1] == ' ')
        b.p[--b.n] = '\0';
    return b.p;
}

/* A C string literal's body for text. */
static void buf_cstr(buf_t *b, const char *text)
{
    for (const char *c = text; *c; c++) {
        if (*c == '"' || *c == '\\')
            buf_add(b, "\\", 1);
        buf_add(b, c, 1);
    }
}

/* The #if / #ifdef / #elif / #else / #endif nesting at a point of the text, so that what dvcc appends
 * for a kernel is compiled under the conditions the kernel is: frame k holds `prior`, the negations of
 * the branches before the current one, and `cur`, the current branch's condition. */
#define MAX_PP 64
typedef struct {
    buf_t prior[MAX_PP], cur[MAX_PP];
    size_t n;
} ppcond_t;

/* The conditions in force, as one expression (NULL when there are none). */
static char *pp_expr(const ppcond_t *pp)
{
    if (!pp->n)
        return NULL;
    buf_t b = {0};
    for (size_t k = 0; k < pp->n && k < MAX_PP; k++)
        buf_fmt(&b, "%s%s%s%s", k ? " && " : "", pp->prior[k].n ? pp->prior[k].p : "", pp->prior[k].n ? " && " : "",
                pp->cur[k].p);
    return b.p;
}

/* If a preprocessor directive starts at i (the start of a line), follow it. */
static void pp_line(ppcond_t *pp, const char *s, size_t n, size_t i)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i >= n || s[i] != '#')
        return;
    for (i++; i < n && (s[i] == ' ' || s[i] == '\t');)
        i++;
    size_t kb = i;
    while (i < n && is_ident(s[i]))
        i++;
    char kw[16];
    snprintf(kw, sizeof kw, "%.*s", (int)(i - kb < 15 ? i - kb : 15), s + kb);
    /* the rest of the logical line, without comments and line continuations */
    buf_t arg = {0};
    buf_add(&arg, "", 0);
    while (i < n && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {
            i += 2;
            continue;
        }
        if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
            i = skip_literal(s, n, i);
            buf_add(&arg, " ", 1);
            continue;
        }
        if (s[i] == '/' && i + 1 < n && s[i + 1] == '/')
            break;
        buf_add(&arg, s + i, 1);
        i++;
    }
    char *text = collapse(arg.p, arg.n);
    free(arg.p);
    size_t k = pp->n - 1;
    if (!strcmp(kw, "if") || !strcmp(kw, "ifdef") || !strcmp(kw, "ifndef")) {
        k = pp->n++;
        if (k < MAX_PP) {
            pp->prior[k].n = 0;
            buf_add(&pp->prior[k], "", 0);
            pp->cur[k].n = 0;
            buf_fmt(&pp->cur[k], !strcmp(kw, "if") ? "(%s)" : !strcmp(kw, "ifdef") ? "defined(%s)" : "!defined(%s)",
                    text);
        }
    } else if (pp->n && (!strcmp(kw, "elif") || !strcmp(kw, "else") || !strcmp(kw, "elifdef") ||
                         !strcmp(kw, "elifndef"))) {
        if (k < MAX_PP) {
            buf_fmt(&pp->prior[k], "%s!%s", pp->prior[k].n ? " && " : "", pp->cur[k].p);
            pp->cur[k].n = 0;
            buf_fmt(&pp->cur[k], !strcmp(kw, "elif") ? "(%s)" : !strcmp(kw, "elifdef") ? "defined(%s)"
                                 : !strcmp(kw, "elifndef")                       ? "!defined(%s)"
                                                                                 : "1%.0s",
                    text);
        }
    } else if (pp->n && !strcmp(kw, "endif")) {
        pp->n--;
    }
    free(text);
}

/* At i just after `__global__`: the kernel definition that follows, if one does (qualifiers, void,
 * the name, the parameters and then a body).  Returns false for a declaration or anything else. */
static bool parse_kernel(const scan_t *sc, size_t i, kernel_t *k)
{
    const char *s = sc->s;
    size_t n = sc->n;
    memset(k, 0, sizeof *k);
    for (;;) {
        i = skip_ws_pp(s, n, i);
        if (i < n && s[i] == '"') { /* extern "C" */
            k->extern_c = k->extern_c || (i + 2 < n && s[i + 1] == 'C' && s[i + 2] == '"');
            i = skip_literal(s, n, i);
            continue;
        }
        if (i >= n || !is_ident_start(s[i]))
            return false;
        size_t b = i;
        while (i < n && is_ident(s[i]))
            i++;
        size_t len = i - b;
#define IS(word) (len == sizeof(word) - 1 && strncmp(s + b, word, len) == 0)
        if (IS("__aicore__") || IS("__vector__") || IS("__cube__") || IS("inline") || IS("__inline__") ||
            IS("extern") || IS("__global__"))
            continue;
        if (IS("static")) {
            k->internal = true;
            continue;
        }
        if (IS("__mix__") || IS("__attribute__") || IS("__launch_bounds__")) {
            i = skip_ws_pp(s, n, i);
            if (i < n && s[i] == '(')
                i = match_forward(s, n, i);
            continue;
        }
        if (!IS("void"))
            return false;
#undef IS
        break;
    }
    i = skip_ws_pp(s, n, i);
    size_t nb = i;
    while (i < n && is_ident(s[i]))
        i++;
    if (i == nb)
        return false;
    size_t ne = i;
    i = skip_ws_pp(s, n, i);
    if (i >= n || s[i] != '(')
        return false;
    size_t pe = match_forward(s, n, i);
    if (pe >= n)
        return false;
    size_t after = skip_body_start(s, n, pe);
    if (after >= n || s[after] != '{')
        return false;
    k->name = squeeze(s + nb, ne - nb);
    k->params = collapse(s + i + 1, pe - i - 2);
    k->line = line_at(sc, nb);
    return true;
}

/* Rewrite sc->s into sc->out and collect its kernels. */
static void scan(scan_t *sc)
{
    const char *s = sc->s;
    const size_t n = sc->n;
    unsigned char frame[MAX_DEPTH];    /* what each open brace is */
    char *frame_ns[MAX_DEPTH] = {0};   /* a namespace's name ("" for an anonymous one) */
    size_t launch_depth[MAX_DEPTH];    /* the bracket depth of each open <<< */
    size_t launch_pos[MAX_DEPTH];
    size_t depth = 0, nlaunch = 0, nbrace = 0;
    /* the declaration being read: since the last ';', '{' or '}' */
    bool decl_template = false, decl_extern = false, decl_extern_c = false, decl_static = false;
    /* after `namespace`: its name so far, until '{' */
    bool in_namespace = false;
    buf_t ns_name = {0};
    size_t last_ident_b = 0, last_ident_e = 0;
    size_t extern_c_end = (size_t)-1; /* just after the last `extern "C"`: a '{' there opens a block */
    ppcond_t pp = {0};

    while (n > 0 && s[0] == '\xef' && n >= 3 && s[1] == '\xbb' && s[2] == '\xbf') /* a UTF-8 byte order mark */
        s += 3, sc->s = s, sc->n -= 3;

    for (size_t i = 0; i < sc->n;) {
        const char c = s[i];
        if (i == 0 || s[i - 1] == '\n')
            pp_line(&pp, s, sc->n, i);
        /* comments, string and character literals: copied untouched */
        if (c == '"' && last_ident_e == i && is_raw_prefix(s + last_ident_b, last_ident_e - last_ident_b)) {
            size_t e = skip_raw_string(sc, i);
            buf_add(&sc->out, s + i, e - i);
            i = e;
            continue;
        }
        size_t e = skip_literal(s, sc->n, i);
        if (e != i) {
            if (c == '"' && decl_extern && e - i == 3 && s[i + 1] == 'C') {
                decl_extern_c = true;
                extern_c_end = e;
            }
            buf_add(&sc->out, s + i, e - i);
            i = e;
            continue;
        }
        /* numbers, with C++14 digit separators */
        if (isdigit((unsigned char)c) || (c == '.' && i + 1 < sc->n && isdigit((unsigned char)s[i + 1]))) {
            size_t j = i + 1;
            while (j < sc->n && (is_ident(s[j]) || s[j] == '.' ||
                                 (s[j] == '\'' && j + 1 < sc->n && isalnum((unsigned char)s[j + 1])) ||
                                 ((s[j] == '+' || s[j] == '-') && strchr("eEpP", s[j - 1]))))
                j++;
            buf_add(&sc->out, s + i, j - i);
            i = j;
            continue;
        }
        if (is_ident_start(c)) {
            size_t j = i;
            while (j < sc->n && is_ident(s[j]))
                j++;
            size_t len = j - i;
#define IS(word) (len == sizeof(word) - 1 && strncmp(s + i, word, len) == 0)
            if (in_namespace) {
                buf_add(&ns_name, s + i, len);
            } else if (IS("namespace")) {
                in_namespace = true;
                ns_name.n = 0;
                buf_add(&ns_name, "", 0);
            } else if (IS("template")) {
                decl_template = true;
            } else if (IS("extern")) {
                decl_extern = true;
            } else if (IS("static")) {
                decl_static = true;
            } else if (IS("__global__")) {
                bool ns_scope = true, anon = false, in_extern_c = false;
                for (size_t f = 0; f < nbrace; f++) {
                    ns_scope = ns_scope && frame[f] != FRAME_OTHER;
                    anon = anon || (frame[f] == FRAME_NS && !frame_ns[f][0]);
                    in_extern_c = in_extern_c || frame[f] == FRAME_EXTERN_C;
                }
                kernel_t k;
                if (ns_scope && parse_kernel(sc, j, &k)) {
                    buf_t q = {0};
                    for (size_t f = 0; f < nbrace; f++)
                        if (frame[f] == FRAME_NS && frame_ns[f][0])
                            buf_fmt(&q, "%s::", frame_ns[f]);
                    buf_str(&q, k.name);
                    k.qname = q.p;
                    k.extern_c = k.extern_c || decl_extern_c || in_extern_c;
                    k.internal = k.internal || decl_static || anon;
                    k.templated = decl_template;
                    k.cond = pp_expr(&pp);
                    sc->k = xrealloc(sc->k, (sc->nk + 1) * sizeof *sc->k);
                    sc->k[sc->nk++] = k;
                }
            }
#undef IS
            buf_add(&sc->out, s + i, len);
            last_ident_b = i;
            last_ident_e = j;
            i = j;
            continue;
        }
        if (in_namespace && c == ':' && i + 1 < sc->n && s[i + 1] == ':') {
            buf_str(&ns_name, "::");
            buf_add(&sc->out, "::", 2);
            i += 2;
            continue;
        }
        /* a kernel call */
        if (c == '<' && i + 2 < sc->n && s[i + 1] == '<' && s[i + 2] == '<') {
            size_t es = launch_expr_start(s, i);
            size_t id = es;
            while (id < i && !is_ident_start(s[id]))
                id++;
            if (es == i || (i - id >= 8 && strncmp(s + id, "operator", 8) == 0 && !is_ident(s[id + 8])))
                scan_die(sc, i, "a kernel call needs the kernel's name before '<<<' (kernel<<<blockDim, l2ctrl, "
                                "stream>>>(args...))");
            if (nlaunch == MAX_DEPTH)
                scan_die(sc, i, "kernel calls nested too deeply");
            char *name = squeeze(s + es, i - es);
            sc->out.n -= i - es; /* the expression was copied verbatim: take it back */
            buf_str(&sc->out, "::dvac::launch(");
            buf_add(&sc->out, s + es, i - es);
            buf_str(&sc->out, ", \"");
            buf_cstr(&sc->out, name + (starts(name, "::") ? 2 : 0));
            buf_str(&sc->out, "\", ");
            free(name);
            launch_depth[nlaunch] = depth;
            launch_pos[nlaunch++] = i;
            i += 3;
            continue;
        }
        if (c == '>' && nlaunch && launch_depth[nlaunch - 1] == depth && i + 2 < sc->n && s[i + 1] == '>' &&
            s[i + 2] == '>') {
            buf_add(&sc->out, ")", 1);
            nlaunch--;
            i += 3;
            continue;
        }
        if (nlaunch && launch_depth[nlaunch - 1] == depth && (c == ';' || c == ')' || c == ']' || c == '}'))
            scan_die(sc, launch_pos[nlaunch - 1], "'<<<' without its '>>>' (kernel<<<blockDim, l2ctrl, stream>>>)");
        if (c == '(' || c == '[' || c == '{') {
            if (++depth >= MAX_DEPTH)
                scan_die(sc, i, "brackets nested too deeply");
        } else if (c == ')' || c == ']' || c == '}') {
            if (depth > 0)
                depth--;
        }
        if (c == '{') {
            if (nbrace < MAX_DEPTH) {
                bool block = extern_c_end != (size_t)-1 && skip_ws(s, sc->n, extern_c_end) == i;
                frame[nbrace] = in_namespace ? FRAME_NS : block ? FRAME_EXTERN_C : FRAME_OTHER;
                frame_ns[nbrace] = in_namespace ? xstrdup(ns_name.p) : NULL;
                nbrace++;
            }
            in_namespace = false;
        } else if (c == '}' && nbrace > 0) {
            nbrace--;
            free(frame_ns[nbrace]);
            frame_ns[nbrace] = NULL;
        } else if (in_namespace && !isspace((unsigned char)c)) {
            in_namespace = false; /* a namespace alias (namespace a = b;) or something else */
        }
        if (c == ';' || c == '{' || c == '}')
            decl_template = decl_extern = decl_extern_c = decl_static = false;
        buf_add(&sc->out, s + i, 1);
        i++;
    }
    if (nlaunch)
        scan_die(sc, launch_pos[nlaunch - 1], "'<<<' without its '>>>' (kernel<<<blockDim, l2ctrl, stream>>>)");
    for (size_t f = 0; f < nbrace; f++)
        free(frame_ns[f]);
    for (size_t k = 0; k < MAX_PP; k++) {
        free(pp.prior[k].p);
        free(pp.cur[k].p);
    }
    free(ns_name.p);
    if (!sc->out.p)
        buf_add(&sc->out, "", 0);
}

static bool same_cond(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* The kernels that get an entry (or launch files): not templates, and defined once under their
 * conditions (a kernel defined once per #if branch gets one entry per branch, under its branch's
 * conditions). */
static bool kernel_unique(const scan_t *sc, size_t i)
{
    if (sc->k[i].templated)
        return false;
    for (size_t j = 0; j < sc->nk; j++)
        if (j != i && strcmp(sc->k[j].name, sc->k[i].name) == 0 && same_cond(sc->k[j].cond, sc->k[i].cond))
            return false;
    return true;
}

/* ---------------------------------------------------------------- one source file */

/* A #line directive's file name for path. */
static void buf_line(buf_t *b, unsigned line, const char *path)
{
    buf_fmt(b, "#line %u \"", line);
    buf_cstr(b, path);
    buf_str(b, "\"\n");
}

/* The rewritten translation unit of source `path`: a #line directive, the rewritten text and the
 * kernels' entries for aclrtBinaryGetFunction (acl/binary.c). */
static char *translate(const char *path, size_t *len)
{
    scan_t sc = {.path = path};
    char *text = read_file(path, &sc.n);
    sc.s = text;
    scan(&sc);
    buf_t tu = {0};
    buf_line(&tu, 1, path);
    buf_add(&tu, sc.out.p, sc.out.n);
    bool any = false;
    for (size_t i = 0; i < sc.nk; i++) {
        if (!kernel_unique(&sc, i))
            continue;
        if (!any) {
            if (sc.out.n && sc.out.p[sc.out.n - 1] != '\n')
                buf_str(&tu, "\n");
            buf_str(&tu, "#line 1 \"<dvcc: kernel entries for aclrtBinaryGetFunction>\"\n");
            buf_str(&tu, "#include <cstddef>\n#include <cstdint>\n");
            any = true;
        }
        if (sc.k[i].cond)
            buf_fmt(&tu, "#if %s\n", sc.k[i].cond);
        buf_fmt(&tu,
                "extern \"C\" __attribute__((weak, visibility(\"default\"))) uint32_t dvsim_kernel_entry_%s("
                "uint32_t blockDim, void *stream, const void *args, size_t argsSize)\n"
                "{\n    return ::dvac::launch_packed(%s, \"%s\", blockDim, stream, args, argsSize);\n}\n",
                sc.k[i].name, sc.k[i].qname, sc.k[i].name);
        if (sc.k[i].cond)
            buf_str(&tu, "#endif\n");
    }
    /* the counter of the user's machine instructions run (native.h), known to the kernel API */
    if (tu.n && tu.p[tu.n - 1] != '\n')
        buf_str(&tu, "\n");
    buf_str(&tu, "#line 1 \"<dvcc: the native-code counter>\"\n"
                 "#include <cstdint>\n"
                 "static uint64_t dvcc_native_ops_ __asm__(\"" DVCC_NATIVE_SYM "\") __attribute__((used)) = 0;\n"
                 "extern \"C\" void dvcc_native_register_(uint64_t *, bool) __asm__(\"dvk_native_register\")\n"
                 "    __attribute__((weak));\n"
                 "namespace {\n"
                 "struct dvcc_native_t {\n"
                 "    static void reg(bool on)\n"
                 "    {\n"
                 "        if (dvcc_native_register_)\n"
                 "            dvcc_native_register_(&dvcc_native_ops_, on);\n"
                 "    }\n"
                 "    dvcc_native_t() { reg(true); }\n"
                 "    ~dvcc_native_t() { reg(false); }\n"
                 "} dvcc_native_;\n"
                 "}\n");
    for (size_t i = 0; i < sc.nk; i++) {
        free(sc.k[i].cond);
        free(sc.k[i].name);
        free(sc.k[i].qname);
        free(sc.k[i].params);
    }
    free(sc.k);
    free(sc.out.p);
    free(text);
    *len = tu.n;
    return tu.p;
}

/* g++ names the file it compiled in a dependency file: put the user's source there instead. */
static void fix_depfile(const char *depfile, const char *tmp, const char *src)
{
    size_t n;
    FILE *probe = fopen(depfile, "rb");
    if (!probe)
        return;
    fclose(probe);
    char *text = read_file(depfile, &n);
    buf_t esc = {0}, out = {0};
    for (const char *c = src; *c; c++) {
        if (*c == ' ' || *c == '#')
            buf_add(&esc, "\\", 1);
        if (*c == '$')
            buf_add(&esc, "$", 1);
        buf_add(&esc, c, 1);
    }
    size_t tl = strlen(tmp);
    for (size_t i = 0; i < n;) {
        if (i + tl <= n && memcmp(text + i, tmp, tl) == 0) {
            buf_add(&out, esc.p, esc.n);
            i += tl;
        } else {
            buf_add(&out, text + i, 1);
            i++;
        }
    }
    write_file(depfile, out.p ? out.p : "", out.n);
    free(text);
    free(esc.p);
    free(out.p);
}

/* ---------------------------------------------------------------- --gen-launch-header */

/* One parameter of a kernel: its type and name as written, and whether it is a GM pointer. */
typedef struct {
    char type[512], name[512];
    bool pointer;
} param_t;

/* Split a parameter list into params (at most max); returns the count. */
static size_t split_params(const char *list, param_t *p, size_t max, const char *kernel)
{
    size_t np = 0, n = strlen(list);
    if (n == 0 || strcmp(list, "void") == 0)
        return 0;
    for (size_t b = 0; b <= n && np < max;) {
        size_t e = b;
        int depth = 0;
        while (e < n && !(depth == 0 && list[e] == ',')) {
            if (list[e] == '(' || list[e] == '<' || list[e] == '[')
                depth++;
            else if (list[e] == ')' || list[e] == '>' || list[e] == ']')
                depth--;
            e++;
        }
        char one[512];
        size_t len = e - b < sizeof one - 1 ? e - b : sizeof one - 1;
        memcpy(one, list + b, len);
        one[len] = '\0';
        char *eq = strchr(one, '=');
        if (eq)
            *eq = '\0';
        len = strlen(one);
        while (len && isspace((unsigned char)one[len - 1]))
            one[--len] = '\0';
        /* the name: the last identifier, unless the parameter is a bare type (one word or ends in '*') */
        size_t ne = len, nb = len;
        while (nb > 0 && is_ident(one[nb - 1]))
            nb--;
        bool named = nb < ne && nb > 0;
        if (named) { /* "uint32_t" alone or "const T": the last word is a type keyword or the whole type */
            size_t k = nb;
            while (k > 0 && isspace((unsigned char)one[k - 1]))
                k--;
            named = k > 0 && (is_ident(one[k - 1]) || one[k - 1] == '*' || one[k - 1] == '&' || one[k - 1] == '>');
            if (named && (strcmp(one + nb, "int") == 0 || strcmp(one + nb, "long") == 0 ||
                          strcmp(one + nb, "char") == 0 || strcmp(one + nb, "short") == 0))
                named = false;
        }
        param_t *q = &p[np];
        memset(q, 0, sizeof *q);
        if (named) {
            snprintf(q->name, sizeof q->name, "%s", one + nb);
            one[nb] = '\0';
        } else {
            snprintf(q->name, sizeof q->name, "arg%zu", np);
        }
        len = strlen(one);
        while (len && isspace((unsigned char)one[len - 1]))
            one[--len] = '\0';
        snprintf(q->type, sizeof q->type, "%s", one);
        q->pointer = strchr(q->type, '*') || strstr(q->type, "GM_ADDR") || strstr(q->type, "__gm__");
        if (strchr(q->type, '&'))
            die(1, "kernel %s: parameter '%s %s' is a reference; kernel parameters are values or GM pointers", kernel,
                q->type, q->name);
        np++;
        b = e + 1;
    }
    return np;
}

static void gen_launch_files(const char *outdir, const char *src)
{
    scan_t sc = {.path = src};
    char *text = read_file(src, &sc.n);
    sc.s = text;
    scan(&sc);
    size_t made = 0;
    for (size_t i = 0; i < sc.nk; i++) {
        const kernel_t *k = &sc.k[i];
        bool once = true, first = true;
        for (size_t j = 0; j < sc.nk; j++) {
            once = once && (j == i || strcmp(sc.k[j].name, k->name) != 0);
            first = first && (j >= i || strcmp(sc.k[j].name, k->name) != 0);
        }
        if (!first)
            continue;
        if (k->templated || !once) {
            warn("%s:%u: kernel %s: %s; no aclrtlaunch_%s", src, k->line, k->name,
                 k->templated ? "a template (launch it with <<<>>> and its template arguments)"
                             : "defined more than once (in #if branches or overloaded)",
                 k->name);
            continue;
        }
        if (k->internal) {
            warn("%s:%u: kernel %s is static or in an anonymous namespace: another file cannot launch it; no "
                 "aclrtlaunch_%s", src, k->line, k->name, k->name);
            continue;
        }
        param_t p[64];
        size_t np = split_params(k->params, p, 64, k->name);
        buf_t h = {0}, cpp = {0}, decl = {0}, call = {0};
        buf_fmt(&decl, "uint32_t aclrtlaunch_%s(uint32_t blockDim, aclrtStream stream", k->name);
        for (size_t j = 0; j < np; j++) {
            if (p[j].pointer)
                buf_fmt(&decl, ", void *%s", p[j].name);
            else
                buf_fmt(&decl, ", %s %s", p[j].type, p[j].name);
            if (p[j].pointer)
                buf_fmt(&call, "%s(%s)%s", j ? ", " : "", p[j].type, p[j].name);
            else
                buf_fmt(&call, "%s%s", j ? ", " : "", p[j].name);
        }
        buf_str(&decl, ")");
        char guard[160];
        snprintf(guard, sizeof guard, "ACLRTLAUNCH_%s_H", k->name);
        for (char *g = guard; *g; g++)
            *g = (char)toupper((unsigned char)*g);
        buf_fmt(&h,
                "/* aclrtlaunch_%s.h - generated by dvcc --gen-launch-header from %s; do not edit.\n"
                " * ACLRT_LAUNCH_KERNEL(%s)(blockDim, stream, ...) launches the kernel on the stream. */\n"
                "#ifndef %s\n#define %s\n\n#include <stdint.h>\n\n"
                "#include \"acl/acl_base.h\"\n\n#ifndef ACLRT_LAUNCH_KERNEL\n"
                "#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func\n#endif\n\n"
                "#ifdef __cplusplus\nextern \"C\" {\n#endif\n%s;\n#ifdef __cplusplus\n}\n#endif\n#endif\n",
                k->name, src, k->name, guard, guard, decl.p);
        buf_fmt(&cpp,
                "/* aclrtlaunch_%s.cpp - generated by dvcc --gen-launch-header from %s; do not edit.\n"
                " * Compile it with dvcc and link it with the kernel's object. */\n"
                "#include \"kernel_operator.h\"\n#include \"aclrtlaunch_%s.h\"\n\n",
                k->name, src, k->name);
        if (k->cond) /* defined when the kernel is */
            buf_fmt(&cpp, "#if %s\n", k->cond);
        /* the kernel's declaration, in its namespaces */
        const char *q = k->qname;
        int opened = 0;
        for (const char *sep; (sep = strstr(q, "::")) != NULL; q = sep + 2, opened++)
            buf_fmt(&cpp, "namespace %.*s {\n", (int)(sep - q), q);
        buf_fmt(&cpp, "%s__global__ __aicore__ void %s(%s);\n", k->extern_c ? "extern \"C\" " : "", k->name,
                k->params);
        for (int j = 0; j < opened; j++)
            buf_str(&cpp, "}\n");
        buf_fmt(&cpp, "\nextern \"C\" %s\n{\n", decl.p);
        buf_fmt(&cpp, "    return ::dvac::launch(::%s, \"%s\", blockDim, nullptr, stream)(%s);\n}\n", k->qname, k->name,
                call.p ? call.p : "");
        if (k->cond)
            buf_str(&cpp, "#endif\n");
        buf_t path = {0};
        buf_fmt(&path, "%s/aclrtlaunch_%s.h", outdir, k->name);
        write_file(path.p, h.p, h.n);
        path.n = 0;
        buf_fmt(&path, "%s/aclrtlaunch_%s.cpp", outdir, k->name);
        write_file(path.p, cpp.p, cpp.n);
        if (g_verbose)
            fprintf(stderr, "%s: wrote %s/aclrtlaunch_%s.h and .cpp\n", g_prog, outdir, k->name);
        free(path.p);
        free(h.p);
        free(cpp.p);
        free(decl.p);
        free(call.p);
        made++;
    }
    if (made == 0)
        warn("%s: no __global__ kernel definition found", src);
    for (size_t i = 0; i < sc.nk; i++) {
        free(sc.k[i].cond);
        free(sc.k[i].name);
        free(sc.k[i].qname);
        free(sc.k[i].params);
    }
    free(sc.k);
    free(sc.out.p);
    free(text);
}

/* ---------------------------------------------------------------- 1. options */

/* Where a g++ option goes: the compile commands, the link command (in command-line order with the
 * inputs), or both. */
enum { TO_COMPILE = 1, TO_LINK = 2, TO_BOTH = 3 };
/* How it is matched: exactly, as a prefix (-O2, -fno-x), or with a value joined or in the next
 * argument (-Idir, -I dir). */
enum { M_EXACT, M_PREFIX, M_VALUE };

/* The g++ options dvcc passes on.  Anything else starting with '-' is an error, but the bisheng
 * options of CANN's own flow (--cce-*, --asc-*, --sanitizer), which mean nothing on the model, are
 * ignored with a warning. */
static const struct {
    const char *name;
    unsigned match, to;
} PASS[] = {
    {"-I", M_VALUE, TO_COMPILE},        {"-D", M_VALUE, TO_COMPILE},         {"-U", M_VALUE, TO_COMPILE},
    {"-iquote", M_VALUE, TO_COMPILE},   {"-isystem", M_VALUE, TO_COMPILE},   {"-idirafter", M_VALUE, TO_COMPILE},
    {"-include", M_VALUE, TO_COMPILE},  {"-imacros", M_VALUE, TO_COMPILE},   {"-MT", M_VALUE, TO_COMPILE},
    {"-MQ", M_VALUE, TO_COMPILE},       {"-MF", M_VALUE, TO_COMPILE},        {"-MD", M_EXACT, TO_COMPILE},
    {"-MMD", M_EXACT, TO_COMPILE},      {"-MP", M_EXACT, TO_COMPILE},        {"-MG", M_EXACT, TO_COMPILE},
    {"-std=", M_PREFIX, TO_COMPILE},    {"-w", M_EXACT, TO_COMPILE},         {"-pedantic", M_PREFIX, TO_COMPILE},
    {"-Wa,", M_PREFIX, TO_COMPILE},     {"-Wp,", M_PREFIX, TO_COMPILE},      {"-Wl,", M_PREFIX, TO_LINK},
    {"-W", M_PREFIX, TO_BOTH},          {"-O", M_PREFIX, TO_BOTH},           {"-g", M_PREFIX, TO_BOTH},
    {"-f", M_PREFIX, TO_BOTH},          {"-m", M_PREFIX, TO_BOTH},           {"-pthread", M_EXACT, TO_BOTH},
    {"-pipe", M_EXACT, TO_BOTH},        {"-L", M_VALUE, TO_LINK},            {"-l", M_VALUE, TO_LINK},
    {"-Xlinker", M_VALUE, TO_LINK},     {"-u", M_VALUE, TO_LINK},            {"-shared", M_EXACT, TO_LINK},
    {"-static", M_PREFIX, TO_LINK},     {"-rdynamic", M_EXACT, TO_LINK},     {"-s", M_EXACT, TO_LINK},
    {"-pie", M_EXACT, TO_LINK},         {"-no-pie", M_EXACT, TO_LINK},       {"-nostdlib", M_EXACT, TO_LINK},
    {"-nodefaultlibs", M_EXACT, TO_LINK}, {"-shared-libgcc", M_EXACT, TO_LINK},
};

/* What an input is: an Ascend C source (rewritten), another source g++ compiles as it is, or a
 * file for the link (objects, archives, libraries). */
enum { IN_ASC, IN_SOURCE, IN_LINK };

typedef struct {
    char stage;            /* 'c', 'S', 'E' or 0 (link) */
    const char *out;       /* -o */
    const char *arch;      /* --npu-arch */
    bool user_std;         /* -std= given */
    bool shared, pic;
    bool depfile;          /* -MD / -MMD */
    const char *mf;        /* -MF */
    strv_t compile;        /* options for every compile command */
    strv_t both;           /* options for compile and link commands */
    strv_t link;           /* the link command's options and inputs, in order (sources: "\1<index>") */
    struct input { const char *path; int kind; const char *lang; } *in;
    size_t nin, nsrc;
} opts_t;

static int kind_of(const char *path, const char *lang)
{
    if (lang) {
        if (!strcmp(lang, "asc") || !strcmp(lang, "cce") || !strcmp(lang, "c++"))
            return IN_ASC;
        return IN_SOURCE;
    }
    static const char *const asc[] = {".asc", ".cpp", ".cc", ".cxx", ".c++", ".cp", ".CPP", ".C"};
    static const char *const other[] = {".c", ".s", ".S", ".i", ".ii"};
    for (size_t i = 0; i < sizeof asc / sizeof *asc; i++)
        if (has_suffix(path, asc[i]))
            return IN_ASC;
    for (size_t i = 0; i < sizeof other / sizeof *other; i++)
        if (has_suffix(path, other[i]))
            return IN_SOURCE;
    return IN_LINK;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dvcc [options] file...          compile Ascend C (.asc, .cpp) for dvsim and link with its "
            "AscendCL shim\n"
            "       dvcc --gen-launch-header OUTDIR SOURCE...   write OUTDIR/aclrtlaunch_<kernel>.h and .cpp\n"
            "\n"
            "  -c | -S | -E            compile, assemble or preprocess only\n"
            "  -o FILE                 output file\n"
            "  -x asc|c++|none         language of the inputs that follow (asc: Ascend C)\n"
            "  --npu-arch=" DVCC_ARCH "     the target architecture (the only one: Atlas A2, the 910B profiles)\n"
            "  --npu-soc=NAME          accepted; DVSIM_PROFILE chooses the 910B profile at run time\n"
            "  -shared -fPIC -I -D -U -L -l -O -g -std= -W -f -m -Wl, -MD -MMD -MF -MT ...   as for g++\n"
            "  -v                      print the g++ commands\n"
            "  --cce-* --asc-* --sanitizer   bisheng options: ignored with a warning\n"
            "\n"
            "Environment: DVSIM_PREFIX (the dvsim install; default: the directory above dvcc's own), DVCC_CXX\n"
            "(the C++ compiler, default g++).\n");
}

static void parse_options(int argc, char **argv, opts_t *o)
{
    const char *lang = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
#define VALUE(opt)                                                                                                     \
    (a[strlen(opt)] == '=' ? a + strlen(opt) + 1                                                                      \
     : a[strlen(opt)]      ? a + strlen(opt)                                                                          \
     : i + 1 < argc        ? argv[++i]                                                                                \
                           : (die(2, "option %s needs a value", opt), ""))
        if (a[0] != '-' || a[1] == '\0') {
            int kind = kind_of(a, lang);
            o->in = xrealloc(o->in, (o->nin + 1) * sizeof *o->in);
            o->in[o->nin++] = (struct input){a, kind, lang};
            if (kind == IN_LINK) {
                strv_add(&o->link, a);
            } else {
                char ref[32];
                snprintf(ref, sizeof ref, "\1%zu", o->nin - 1);
                strv_add(&o->link, ref);
                o->nsrc++;
            }
            continue;
        }
        if (!strcmp(a, "-c") || !strcmp(a, "-S") || !strcmp(a, "-E")) {
            o->stage = a[1];
        } else if (starts(a, "-o")) {
            o->out = a[2] ? a + 2 : i + 1 < argc ? argv[++i] : (die(2, "option -o needs a file name"), "");
        } else if (!strcmp(a, "-v")) {
            g_verbose = true;
        } else if (starts(a, "-x")) {
            val = a[2] ? a + 2 : i + 1 < argc ? argv[++i] : (die(2, "option -x needs a language"), "");
            lang = strcmp(val, "none") ? val : NULL;
        } else if (starts(a, "--npu-arch")) {
            val = VALUE("--npu-arch");
            if (strcmp(val, DVCC_ARCH) != 0)
                die(2, "--npu-arch=%s: dvsim models " DVCC_ARCH " (Atlas A2, the 910B profiles) only", val);
            o->arch = val;
        } else if (starts(a, "--npu-soc")) {
            (void)VALUE("--npu-soc");
        } else if (!strcmp(a, "-dc")) {
            /* CANN's separate-compilation switch: g++ objects always link across files */
        } else if (starts(a, "--cce-") || starts(a, "--asc-")) {
            warn("ignoring %s (a bisheng option with no meaning on the model)", a);
        } else if (!strcmp(a, "--sanitizer")) {
            warn("ignoring --sanitizer: the model checks every access and reports races (hazards) without it");
        } else if (!strcmp(a, "-M") || !strcmp(a, "-MM")) {
            die(2, "%s: dvcc writes dependencies with -MD or -MMD (and -MF FILE)", a);
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--version")) {
            printf("dvcc " DVCC_VERSION " (dvsim's Ascend C driver, " DVCC_ARCH ")\n");
            exit(0);
        } else {
            size_t k = 0, nk = sizeof PASS / sizeof *PASS;
            for (; k < nk; k++) {
                const char *name = PASS[k].name;
                if (PASS[k].match == M_EXACT ? !strcmp(a, name) : starts(a, name))
                    break;
            }
            if (k == nk)
                die(2, "unknown option '%s' (dvcc --help lists what it accepts)", a);
            strv_t *to = PASS[k].to == TO_COMPILE ? &o->compile : PASS[k].to == TO_LINK ? &o->link : &o->both;
            strv_add(to, a);
            if (PASS[k].match == M_VALUE && a[strlen(PASS[k].name)] == '\0') {
                if (i + 1 >= argc)
                    die(2, "option %s needs a value", a);
                strv_add(to, argv[++i]);
                if (!strcmp(a, "-MF"))
                    o->mf = argv[i];
            } else if (starts(a, "-MF")) {
                o->mf = a + 3;
            }
            o->user_std = o->user_std || starts(a, "-std=");
            o->shared = o->shared || !strcmp(a, "-shared");
            o->pic = o->pic || !strcmp(a, "-fPIC") || !strcmp(a, "-fpic");
            o->depfile = o->depfile || !strcmp(a, "-MD") || !strcmp(a, "-MMD");
        }
#undef VALUE
    }
    if (o->nin == 0)
        die(2, "no input files (dvcc --help)");
    if (o->stage && o->out && o->nsrc > 1)
        die(2, "-o with -%c and %zu source files: give one source per output", o->stage, o->nsrc);
    if (o->stage && o->nsrc == 0)
        die(2, "-%c: no source files among the inputs", o->stage);
    for (size_t i = 0; i < o->nin; i++)
        if (access(o->in[i].path, R_OK) != 0 && o->in[i].kind != IN_LINK)
            die(1, "%s: %s", o->in[i].path, strerror(errno));
}

/* ---------------------------------------------------------------- 2. the install prefix */

/* The dvsim install: DVSIM_PREFIX, else ASCEND_HOME_PATH when it holds dvcc (set_env.sh sets it), else
 * the directory above the one dvcc runs from. */
static char *find_prefix(void)
{
    const char *env = getenv("DVSIM_PREFIX");
    if (env && *env)
        return xstrdup(env);
    env = getenv("ASCEND_HOME_PATH");
    if (env && *env) {
        buf_t b = {0};
        buf_fmt(&b, "%s/bin/dvcc", env);
        bool ours = access(b.p, X_OK) == 0;
        free(b.p);
        if (ours)
            return xstrdup(env);
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        die(1, "cannot find dvcc's own location (/proc/self/exe); set DVSIM_PREFIX to the dvsim install");
    self[n] = '\0';
    char *bin = dir_of(self);
    char *prefix = dir_of(bin);
    free(bin);
    return prefix;
}

/* ---------------------------------------------------------------- 3. compile, 4. link */

static const char *cxx(void)
{
    const char *c = getenv("DVCC_CXX");
    return c && *c ? c : "g++";
}

/* The last option of v starting with opt (NULL: none). */
static const char *last_opt(const strv_t *v, const char *opt)
{
    const char *last = NULL;
    for (size_t i = 0; i < v->n; i++)
        if (starts(v->v[i], opt))
            last = v->v[i];
    return last;
}

/* Whether dvcc can count the native code of an Ascend C source (docs/KERNEL.md, rule 4): its
 * rewrite is of GNU x86-64 assembly, and an LTO object holds no machine code yet. */
static bool can_count(const opts_t *o)
{
    static bool warned;
    const char *why = NULL;
#if !defined(__x86_64__)
    why = "dvcc counts native code in x86-64 assembly only";
#endif
    bool lto = false;
    for (size_t i = 0; i < o->both.n; i++)
        if (!strcmp(o->both.v[i], "-fno-lto"))
            lto = false;
        else if (starts(o->both.v[i], "-flto") && !starts(o->both.v[i], "-flto-"))
            lto = true;
    if (lto)
        why = "-flto leaves no machine code to count in a compiled object";
    if (why && !warned) {
        warned = true;
        warn("the native code of the kernels is not charged to the scalar unit: %s", why);
    }
    return !why;
}

/* Count the native code of asm_in into asm_out (native.h); assembly it cannot read is copied as it is,
 * with a warning. */
static void instrument(const char *asm_in, const char *asm_out, const char *prefix, const char *src)
{
    size_t n, out_n = 0, blocks = 0;
    char *text = read_file(asm_in, &n), why[256];
    char *out = dvcc_native_instrument(text, n, prefix, &out_n, &blocks, why, sizeof why);
    if (!out) {
        warn("%s: its native code is not charged to the scalar unit: %s", src, why);
        write_file(asm_out, text, n);
    } else {
        if (g_verbose)
            fprintf(stderr, "%s: %s: %zu blocks of native code counted\n", g_prog, src, blocks);
        write_file(asm_out, out, out_n);
    }
    free(out);
    free(text);
}

/* Compile source i to obj (or per the stage, to out or stdout); returns g++'s status.  An Ascend C
 * source is rewritten (translate), compiled to assembly, its native code counted (instrument), and
 * assembled; without -O it is optimised (-O2), as CANN's compiler optimises kernels, and it gets
 * line information (-g1) when it has none: the count needs each instruction's source file. */
static int compile_one(const opts_t *o, const char *prefix, size_t i, const char *obj)
{
    const char *src = o->in[i].path;
    const bool asc = o->in[i].kind == IN_ASC;
    const bool count = asc && o->stage != 'E' && can_count(o);
    strv_t cmd = {0};
    char *tmp = NULL, *asm_raw = NULL, *asm_counted = NULL;
    strv_add(&cmd, cxx());
    if (asc && !o->user_std)
        strv_add(&cmd, "-std=c++17");
    if (asc && !last_opt(&o->both, "-O"))
        strv_add(&cmd, "-O2");
    if (o->arch)
        strv_add(&cmd, "-D__NPU_ARCH__=" DVCC_ARCH_NUM);
    if (asc) { /* the rewritten file lives elsewhere: its quote includes start here */
        char *dir = dir_of(src);
        strv_add(&cmd, "-iquote");
        strv_add(&cmd, dir);
        free(dir);
    }
    strv_cat(&cmd, &o->both);
    strv_cat(&cmd, &o->compile);
    if (count) {
        const char *g = last_opt(&o->both, "-g");
        if (!g || !strcmp(g, "-g0"))
            strv_add(&cmd, "-g1");
    }
    if (o->shared && !o->pic && !o->stage)
        strv_add(&cmd, "-fPIC");
    buf_t inc = {0};
    buf_fmt(&inc, "-I%s/include/ascendc", prefix);
    strv_add(&cmd, inc.p);
    inc.n = 0;
    buf_fmt(&inc, "-I%s/include", prefix);
    strv_add(&cmd, inc.p);
    free(inc.p);
    if (count) { /* g++ -S to a temporary file; the dependency file keeps the object's names */
        asm_raw = tmp_path("raw.s");
        strv_add(&cmd, "-S");
        strv_add(&cmd, "-o");
        strv_add(&cmd, asm_raw);
        if (o->depfile && !o->mf && obj) {
            char *dep = with_ext(obj, ".d", true);
            strv_add(&cmd, "-MF");
            strv_add(&cmd, dep);
            free(dep);
        }
        if (o->depfile && obj && !last_opt(&o->compile, "-MT") && !last_opt(&o->compile, "-MQ")) {
            strv_add(&cmd, "-MT");
            strv_add(&cmd, obj);
        }
    } else {
        strv_add(&cmd, o->stage == 'E' ? "-E" : o->stage == 'S' ? "-S" : "-c");
        if (obj) {
            strv_add(&cmd, "-o");
            strv_add(&cmd, obj);
        }
    }
    if (asc) {
        size_t len;
        char *tu = translate(src, &len);
        buf_t name = {0};
        buf_fmt(&name, "%s.cpp", base_of(src));
        tmp = tmp_path(name.p);
        free(name.p);
        write_file(tmp, tu, len);
        free(tu);
        strv_add(&cmd, "-x");
        strv_add(&cmd, "c++");
        strv_add(&cmd, tmp);
    } else {
        strv_add(&cmd, "-x");
        strv_add(&cmd, o->in[i].lang ? o->in[i].lang : "none");
        strv_add(&cmd, src);
    }
    int rc = run(&cmd);
    strv_free(&cmd);
    if (rc == 0 && count) { /* count, then assemble (with the assembler's and the target's options) */
        const char *s_out = o->stage == 'S' && obj ? obj : (asm_counted = tmp_path("counted.s"));
        instrument(asm_raw, s_out, prefix, src);
        if (o->stage != 'S') {
            strv_add(&cmd, cxx());
            for (size_t j = 0; j < o->both.n; j++)
                if (starts(o->both.v[j], "-m"))
                    strv_add(&cmd, o->both.v[j]);
            for (size_t j = 0; j < o->compile.n; j++)
                if (starts(o->compile.v[j], "-Wa,"))
                    strv_add(&cmd, o->compile.v[j]);
            strv_add(&cmd, "-c");
            if (obj) {
                strv_add(&cmd, "-o");
                strv_add(&cmd, obj);
            }
            strv_add(&cmd, "-x");
            strv_add(&cmd, "assembler");
            strv_add(&cmd, asm_counted);
            rc = run(&cmd);
            strv_free(&cmd);
        }
    }
    if (rc == 0 && tmp && (o->depfile || o->mf) && o->stage != 'E') {
        char *dep = o->mf ? xstrdup(o->mf) : with_ext(obj, ".d", true);
        fix_depfile(dep, tmp, src);
        free(dep);
    }
    free(tmp);
    free(asm_raw);
    free(asm_counted);
    return rc;
}

static int build(opts_t *o, const char *prefix)
{
    char **objs = xrealloc(NULL, o->nin * sizeof *objs);
    int rc = 0;
    for (size_t i = 0; i < o->nin && rc == 0; i++) {
        objs[i] = NULL;
        if (o->in[i].kind == IN_LINK)
            continue;
        if (o->stage == 'E')
            objs[i] = o->out ? xstrdup(o->out) : NULL;
        else if (o->stage)
            objs[i] = o->out ? xstrdup(o->out) : with_ext(o->in[i].path, o->stage == 'S' ? ".s" : ".o", false);
        else {
            char *name = with_ext(o->in[i].path, ".o", false);
            objs[i] = tmp_path(name);
            free(name);
        }
        rc = compile_one(o, prefix, i, objs[i]);
    }
    if (rc == 0 && !o->stage) {
        strv_t cmd = {0};
        buf_t b = {0};
        strv_add(&cmd, cxx());
        strv_cat(&cmd, &o->both);
        strv_add(&cmd, "-o");
        strv_add(&cmd, o->out ? o->out : "a.out");
        for (size_t i = 0; i < o->link.n; i++) {
            const char *a = o->link.v[i];
            strv_add(&cmd, a[0] == '\1' ? objs[strtoul(a + 1, NULL, 10)] : a);
        }
        buf_fmt(&b, "-L%s/lib", prefix);
        strv_add(&cmd, b.p);
        b.n = 0;
        buf_fmt(&b, "-Wl,-rpath,%s/lib", prefix);
        strv_add(&cmd, b.p);
        free(b.p);
        strv_add(&cmd, "-lascendcl");
        rc = run(&cmd);
        strv_free(&cmd);
    }
    for (size_t i = 0; i < o->nin; i++)
        if (o->in[i].kind != IN_LINK)
            free(objs[i]);
    free(objs);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--gen-launch-header")) {
        int first = 2;
        if (argc >= 3 && !strcmp(argv[2], "-v"))
            g_verbose = true, first = 3;
        if (argc < first + 2)
            die(2, "usage: dvcc --gen-launch-header OUTDIR SOURCE...");
        struct stat st;
        if (stat(argv[first], &st) != 0 || !S_ISDIR(st.st_mode))
            die(1, "--gen-launch-header: %s is not a directory", argv[first]);
        for (int i = first + 1; i < argc; i++)
            gen_launch_files(argv[first], argv[i]);
        return 0;
    }
    /* 1. options */
    opts_t o = {0};
    parse_options(argc, argv, &o);
    /* 2. the install prefix */
    char *prefix = find_prefix();
    /* 3, 4. compile each source, then link */
    int rc = build(&o, prefix);
    free(prefix);
    strv_free(&o.compile);
    strv_free(&o.both);
    strv_free(&o.link);
    free(o.in);
    return rc;
}
