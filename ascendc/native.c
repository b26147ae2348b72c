/* ascendc/native.c - count the native instructions an Ascend C kernel runs (native.h).
 *
 * What is counted.  The kernel's own code between Ascend C calls (arithmetic on values read with
 * GetValue, conversions, loop control, address arithmetic) runs natively on the host and emits no
 * instruction; on the AI Core the scalar unit runs it.  dvcc compiles the source to assembly with line
 * information and charges every machine instruction whose .loc names a file of the user's (not
 * dvsim's headers under the install prefix, not the system's headers, not a name in <> such as
 * dvcc's own appended code): one instruction of the kernel's source, one scalar ALU instruction.
 *
 * How.  The assembly is cut into regions of straight-line code: a region starts at a label that can
 * be a jump target (GCC's .L<digits>, or a symbol), after a conditional jump (the fall-through), after
 * an unconditional jump or return (unreachable unless labelled), and at a change of section; it is
 * entered only at its top.  A region holding counted instructions gets, before its first instruction
 * (after an endbr64), `addq $N, dvcc_native_ops(%rip)`: N is its count, the counter a local symbol of
 * the translation unit.  The add writes the flags, so where they may be live at that point (an
 * instruction reading them comes before one that writes them all, a call or a return) the add is
 * wrapped in pushfq / popfq below the red zone.  It writes no register. */
#include "native.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *p;
    size_t n, cap;
} nbuf_t;

static bool nb_add(nbuf_t *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->n + n + 1 > cap)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p)
            return false;
        b->p = p, b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
    return true;
}

/* One line of the assembly: where it is and what it is. */
typedef enum { LN_OTHER, LN_LEADER, LN_INSN, LN_SECTION } ln_kind_t;
typedef struct {
    size_t at, len;   /* the line in the text, without its newline */
    ln_kind_t kind;
    bool exec;        /* in an executable section */
    bool counted;     /* an instruction of the user's source */
    char mn[24];      /* an instruction's mnemonic (after prefixes) */
} line_t;

static bool is_sp(char c) { return c == ' ' || c == '\t'; }

/* The next whitespace-separated token of s[*i..n) into tok (truncated to cap - 1); false at the end. */
static bool token(const char *s, size_t n, size_t *i, char *tok, size_t cap)
{
    while (*i < n && (is_sp(s[*i]) || s[*i] == ','))
        (*i)++;
    if (*i >= n)
        return false;
    size_t k = 0;
    while (*i < n && !is_sp(s[*i]) && s[*i] != ',') {
        if (k + 1 < cap)
            tok[k++] = s[*i];
        (*i)++;
    }
    tok[k] = '\0';
    return true;
}

/* A quoted string of s[*i..n) (GCC's escapes: \" \\ \NNN) into out; false when there is none. */
static bool quoted(const char *s, size_t n, size_t *i, char *out, size_t cap)
{
    while (*i < n && is_sp(s[*i]))
        (*i)++;
    if (*i >= n || s[*i] != '"')
        return false;
    size_t k = 0;
    for ((*i)++; *i < n && s[*i] != '"'; (*i)++) {
        char c = s[*i];
        if (c == '\\' && *i + 1 < n) {
            (*i)++;
            c = s[*i];
            if (c >= '0' && c <= '7') {
                int v = 0;
                for (int d = 0; d < 3 && *i < n && s[*i] >= '0' && s[*i] <= '7'; d++, (*i)++)
                    v = v * 8 + (s[*i] - '0');
                (*i)--;
                c = (char)v;
            }
        }
        if (k + 1 < cap)
            out[k++] = c;
    }
    if (*i < n)
        (*i)++;
    out[k] = '\0';
    return true;
}

/* Is a source file dvsim's or the system's (not counted)? */
static bool library_file(const char *path, const char *lib_prefix)
{
    static const char *const sys[] = {"/usr/include/", "/usr/lib/", "/usr/lib64/", "/usr/local/include/"};
    if (path[0] == '<')
        return true;
    for (size_t i = 0; i < sizeof sys / sizeof *sys; i++)
        if (!strncmp(path, sys[i], strlen(sys[i])))
            return true;
    size_t pl = lib_prefix ? strlen(lib_prefix) : 0;
    while (pl > 1 && lib_prefix[pl - 1] == '/')
        pl--;
    return pl && !strncmp(path, lib_prefix, pl) && !strncmp(path + pl, "/include/", 9);
}

static bool has_size_suffix(const char *mn, const char *base)
{
    size_t b = strlen(base);
    return !strncmp(mn, base, b) && (mn[b] == '\0' || (strchr("bwlq", mn[b]) && mn[b + 1] == '\0'));
}

static bool cond_jump(const char *mn) { return mn[0] == 'j' && strcmp(mn, "jmp") != 0; }

static bool ends_flow(const char *mn)
{
    return !strcmp(mn, "jmp") || !strncmp(mn, "ret", 3) || !strcmp(mn, "ud2") || !strcmp(mn, "hlt");
}

static bool reads_flags(const char *mn)
{
    if (cond_jump(mn))
        return strcmp(mn, "jrcxz") && strcmp(mn, "jecxz") && strcmp(mn, "jcxz");
    static const char *const pre[] = {"set", "cmov", "fcmov", "adc", "sbb", "rcl", "rcr", "pushf", "lahf"};
    for (size_t i = 0; i < sizeof pre / sizeof *pre; i++)
        if (!strncmp(mn, pre[i], strlen(pre[i])))
            return true;
    return false;
}

/* Writes every status flag, whatever it read. */
static bool writes_flags(const char *mn)
{
    static const char *const all[] = {"add", "sub", "and", "or", "xor", "cmp", "test", "neg"};
    static const char *const fp[] = {"ucomiss", "ucomisd", "comiss", "comisd", "vucomiss", "vucomisd",
                                     "vcomiss", "vcomisd"};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        if (has_size_suffix(mn, all[i]))
            return true;
    for (size_t i = 0; i < sizeof fp / sizeof *fp; i++)
        if (!strcmp(mn, fp[i]))
            return true;
    return false;
}

/* Not an operation of the kernel's: padding, a branch-target marker, or a move of a value between
 * registers and the stack (mov*, push, pop): where the host keeps a value is the host's register
 * allocation around dvsim's calls, not the AI Core scalar unit's. */
static bool not_work(const char *mn)
{
    static const char *const pre[] = {"nop", "endbr", "mov", "vmov", "push", "pop"};
    for (size_t i = 0; i < sizeof pre / sizeof *pre; i++)
        if (!strncmp(mn, pre[i], strlen(pre[i])))
            return true;
    return false;
}

static void set_why(char *why, size_t why_n, const char *fmt, ...)
{
    if (!why || !why_n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_n, fmt, ap);
    va_end(ap);
}

/* Pass 1: every line's kind, section and attribution. */
static line_t *classify(const char *text, size_t n, const char *lib_prefix, size_t *nlines, bool *gcc)
{
    size_t cap = 1024, nl = 0;
    line_t *ln = malloc(cap * sizeof *ln);
    bool *user = NULL; /* by .file number */
    size_t nuser = 0;
    bool exec = true, prev_exec = false, cur_user = false;
    bool stack[64];
    size_t depth = 0;
    char tok[256], dir[2048], name[2048], path[4200];
    *gcc = false;
    for (size_t at = 0; ln && at < n;) {
        const char *e = memchr(text + at, '\n', n - at);
        size_t len = e ? (size_t)(e - (text + at)) : n - at;
        if (nl == cap) {
            line_t *g = realloc(ln, (cap *= 2) * sizeof *ln);
            if (!g) {
                free(ln);
                ln = NULL;
                break;
            }
            ln = g;
        }
        line_t *l = &ln[nl++];
        memset(l, 0, sizeof *l);
        l->at = at, l->len = len, l->kind = LN_OTHER;
        const char *s = text + at;
        size_t i = 0;
        at += len + (e ? 1 : 0);
        if (!token(s, len, &i, tok, sizeof tok) || tok[0] == '#') {
            l->exec = exec;
            continue;
        }
        size_t tl = strlen(tok);
        if (tok[tl - 1] == ':') { /* a label */
            l->exec = exec;
            bool target = tok[0] != '.' || (tok[1] == 'L' && tok[2] >= '0' && tok[2] <= '9');
            l->kind = exec && target ? LN_LEADER : LN_OTHER;
            continue;
        }
        if (tok[0] == '.') { /* a directive */
            bool sect = true, was = exec;
            if (!strcmp(tok, ".text")) {
                exec = true;
            } else if (!strcmp(tok, ".data") || !strcmp(tok, ".bss")) {
                exec = false;
            } else if (!strcmp(tok, ".section") || !strcmp(tok, ".pushsection")) {
                if (!strcmp(tok, ".pushsection") && depth < sizeof stack / sizeof *stack)
                    stack[depth++] = exec;
                char sname[256] = "", flags[64] = "";
                token(s, len, &i, sname, sizeof sname);
                size_t j = i;
                while (j < len && (is_sp(s[j]) || s[j] == ','))
                    j++;
                if (j < len && s[j] == '"')
                    quoted(s, len, &j, flags, sizeof flags);
                exec = !strncmp(sname, ".text", 5) || strchr(flags, 'x') != NULL;
            } else if (!strcmp(tok, ".popsection")) {
                exec = depth ? stack[--depth] : true;
            } else if (!strcmp(tok, ".previous")) {
                exec = prev_exec;
            } else {
                sect = false;
            }
            if (sect) {
                prev_exec = was;
                l->kind = LN_SECTION;
            } else if (!strcmp(tok, ".file")) {
                char num[32];
                size_t j = i;
                if (token(s, len, &j, num, sizeof num) && num[0] >= '0' && num[0] <= '9') {
                    size_t f = strtoul(num, NULL, 10);
                    if (quoted(s, len, &j, dir, sizeof dir)) { /* "name" or "dir" "name" */
                        if (!quoted(s, len, &j, name, sizeof name))
                            snprintf(path, sizeof path, "%s", dir);
                        else if (name[0] == '/')
                            snprintf(path, sizeof path, "%s", name);
                        else
                            snprintf(path, sizeof path, "%s/%s", dir, name);
                        if (f < (1u << 20)) {
                            if (f >= nuser) {
                                bool *g = realloc(user, (f + 64) * sizeof *user);
                                if (!g) { /* no attribution, no count: out of memory */
                                    free(ln);
                                    ln = NULL;
                                    break;
                                }
                                user = g;
                                memset(user + nuser, 0, (f + 64 - nuser) * sizeof *user);
                                nuser = f + 64;
                            }
                            user[f] = !library_file(path, lib_prefix);
                        }
                    }
                }
            } else if (!strcmp(tok, ".loc")) {
                char num[32];
                size_t f = token(s, len, &i, num, sizeof num) ? strtoul(num, NULL, 10) : (size_t)-1;
                cur_user = f < nuser && user[f];
            } else if (!strcmp(tok, ".ident")) {
                char id[64];
                *gcc = *gcc || (quoted(s, len, &i, id, sizeof id) && !strncmp(id, "GCC:", 4));
            }
            l->exec = exec;
            continue;
        }
        /* an instruction: its mnemonic after any prefixes */
        static const char *const prefixes[] = {"lock", "rep", "repe", "repz", "repne", "repnz", "notrack",
                                               "bnd", "data16", "addr32", "rex64", "cs", "ds"};
        for (bool again = true; again;) {
            again = false;
            for (size_t p = 0; p < sizeof prefixes / sizeof *prefixes; p++)
                if (!strcmp(tok, prefixes[p])) {
                    size_t j = i;
                    if (token(s, len, &j, tok, sizeof tok))
                        i = j, again = true;
                    break;
                }
        }
        l->exec = exec;
        l->kind = LN_INSN;
        snprintf(l->mn, sizeof l->mn, "%.*s", (int)sizeof l->mn - 1, tok); /* a mnemonic: longer tokens are cut */
        l->counted = exec && cur_user && !not_work(l->mn);
    }
    free(user);
    *nlines = nl;
    return ln;
}

char *dvcc_native_instrument(const char *text, size_t n, const char *lib_prefix, size_t *out_n, size_t *blocks,
                             char *why, size_t why_n)
{
    size_t nl = 0;
    bool gcc = false;
    *blocks = 0;
    line_t *ln = classify(text, n, lib_prefix, &nl, &gcc);
    if (!ln) {
        set_why(why, why_n, "out of memory");
        return NULL;
    }
    if (!gcc) {
        free(ln);
        set_why(why, why_n, "the assembly is not GCC's (no .ident \"GCC: ...\")");
        return NULL;
    }
    /* insert[k]: the text to put before line k (0: nothing) as count and flags-live */
    size_t *count = calloc(nl + 1, sizeof *count);
    bool *live = calloc(nl + 1, sizeof *live);
    if (!count || !live) {
        free(ln), free(count), free(live);
        set_why(why, why_n, "out of memory");
        return NULL;
    }
    /* Pass 2: regions */
    size_t first = (size_t)-1, sum = 0; /* the region's first instruction and count */
    bool open = false;
    for (size_t k = 0; k <= nl; k++) {
        bool boundary = k == nl || ln[k].kind == LN_LEADER || ln[k].kind == LN_SECTION || !ln[k].exec;
        if (boundary && open) {
            if (sum && first != (size_t)-1)
                count[first] = sum;
            open = false;
        }
        if (k == nl || !ln[k].exec)
            continue;
        if (ln[k].kind == LN_LEADER || ln[k].kind == LN_SECTION) {
            open = true, first = (size_t)-1, sum = 0;
            continue;
        }
        if (ln[k].kind != LN_INSN)
            continue;
        if (!open)
            open = true, first = (size_t)-1, sum = 0;
        if (first == (size_t)-1)
            first = strncmp(ln[k].mn, "endbr", 5) ? k : k + 1;
        sum += ln[k].counted;
        if (cond_jump(ln[k].mn) || ends_flow(ln[k].mn)) { /* first <= k: an endbr is neither */
            if (sum)
                count[first] = sum;
            open = false;
        }
    }
    /* flags at each insertion point: live unless something writes them all before anything reads them */
    for (size_t k = 0; k < nl; k++) {
        if (!count[k])
            continue;
        live[k] = true;
        for (size_t j = k; j < nl; j++) {
            if (ln[j].kind == LN_LEADER || ln[j].kind == LN_SECTION)
                break;
            if (ln[j].kind != LN_INSN)
                continue;
            const char *mn = ln[j].mn;
            if (reads_flags(mn))
                break;
            if (writes_flags(mn) || !strncmp(mn, "call", 4) || !strncmp(mn, "ret", 3)) {
                live[k] = false;
                break;
            }
            if (cond_jump(mn) || ends_flow(mn))
                break;
        }
    }
    nbuf_t out = {0};
    bool ok = true;
    char ins[256];
    for (size_t k = 0; k < nl && ok; k++) {
        if (count[k]) {
            int m = live[k] ? snprintf(ins, sizeof ins,
                                       "\tleaq\t-128(%%rsp), %%rsp\n\tpushfq\n\taddq\t$%zu, " DVCC_NATIVE_SYM
                                       "(%%rip)\n\tpopfq\n\tleaq\t128(%%rsp), %%rsp\n",
                                       count[k])
                            : snprintf(ins, sizeof ins, "\taddq\t$%zu, " DVCC_NATIVE_SYM "(%%rip)\n", count[k]);
            ok = nb_add(&out, ins, (size_t)m);
            (*blocks)++;
        }
        ok = ok && nb_add(&out, text + ln[k].at, ln[k].len) && nb_add(&out, "\n", 1);
    }
    free(ln), free(count), free(live);
    if (!ok) {
        free(out.p);
        set_why(why, why_n, "out of memory");
        return NULL;
    }
    *out_n = out.n;
    return out.p ? out.p : calloc(1, 1);
}
