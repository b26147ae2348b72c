/* kernel/trace.c - the text trace format of traces/FORMAT.md: a streaming reader and a writer.
 *
 * dv_trace_open scans the file once: it parses the header, checks the block structure and the
 * first token of every instruction line, and records where each block/sub stream starts.  The
 * instructions themselves are parsed when a stream is read, one line at a time, with a
 * hand-written tokenizer: memory stays O(blocks + args) whatever the length of the trace. */
#include "dv/trace.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "dv/topology.h"

#define READ_BUF_BYTES 16384u            /* per stream; a line must fit (FORMAT.md "Limits") */
#define BLOCKS_MAX 65535u
#define ARGS_MAX 65536u                  /* the GM argument index has 16 bits */
#define OFF_LIMIT (1ull << 40)           /* offsets have 40 bits (DV_ADDR) */
#define QUOTE_MAX 64                     /* longest token echoed in a message */
#define OP_HASH_SIZE 256u

static const char *const dir_names[] = {"in", "out", "inout"};
static const char *const kind_names[] = {"vector", "cube", "mix"};

/* ---------------------------------------------------------------- tokens and numbers */

typedef struct tok {
    const char *s;
    size_t n;
} tok_t;

/* printf arguments quoting a token: "'%.*s'" */
#define TOKQ(t) (int)((t).n > QUOTE_MAX ? QUOTE_MAX : (t).n), (t).s

static inline bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The next whitespace-separated token of line[*pos, len); a '#' starts a comment.  false at the end. */
static inline bool tok_next(const char *line, size_t len, size_t *pos, tok_t *t)
{
    size_t i = *pos;
    while (i < len && is_space(line[i]))
        i++;
    if (i == len || line[i] == '#') {
        *pos = len;
        return false;
    }
    size_t b = i;
    while (i < len && !is_space(line[i]) && line[i] != '#')
        i++;
    t->s = line + b;
    t->n = i - b;
    *pos = i;
    return true;
}

static inline int tok_col(const char *line, tok_t t)
{
    return (int)(t.s - line) + 1;
}

/* The column just past a token: where a missing token should have been. */
static inline int tok_end_col(const char *line, tok_t t)
{
    return (int)(t.s + t.n - line) + 1;
}

static inline bool tok_is(tok_t t, const char *word)
{
    size_t i = 0;
    while (i < t.n && word[i] && word[i] == t.s[i])
        i++;
    return i == t.n && word[i] == '\0';
}

/* Decimal or 0x hex digits: 0, -1 when not a number, -2 when it does not fit in 64 bits. */
/* "LO:HI" of a random initialisation: two finite numbers, LO < HI. */
static int parse_range(const char *s, size_t n, double *lo, double *hi)
{
    char buf[128], *end;
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *colon = strchr(buf, ':');
    if (!colon)
        return -1;
    *colon = 0;
    *lo = strtod(buf, &end);
    if (end == buf || *end)
        return -1;
    *hi = strtod(colon + 1, &end);
    if (end == colon + 1 || *end || !isfinite(*lo) || !isfinite(*hi) || !(*lo < *hi))
        return -1;
    return 0;
}

static int parse_u64(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        for (size_t i = 2; i < n; i++) {
            char c = s[i];
            unsigned d;
            if (c >= '0' && c <= '9')
                d = (unsigned)(c - '0');
            else if (c >= 'a' && c <= 'f')
                d = (unsigned)(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                d = (unsigned)(c - 'A' + 10);
            else
                return -1;
            if (v >> 60)
                return -2;
            v = v << 4 | d;
        }
    } else {
        if (n == 0)
            return -1;
        for (size_t i = 0; i < n; i++) {
            char c = s[i];
            if (c < '0' || c > '9')
                return -1;
            unsigned d = (unsigned)(c - '0');
            if (v > (UINT64_MAX - d) / 10)
                return -2;
            v = v * 10 + d;
        }
    }
    *out = v;
    return 0;
}

/* An optional '-' then parse_u64. */
static int parse_i64(const char *s, size_t n, int64_t *out)
{
    bool neg = n > 0 && s[0] == '-';
    uint64_t v;
    int rc = parse_u64(s + neg, n - neg, &v);
    if (rc)
        return rc;
    if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
        return -2;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 0;
}

static bool is_ident(const char *s, size_t n)
{
    if (n == 0 || n >= DV_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!alpha && !(i > 0 && c >= '0' && c <= '9'))
            return false;
    }
    return true;
}

static bool is_kernel_name(const char *s, size_t n)
{
    if (n == 0 || n >= DV_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
              c == '.' || c == '-'))
            return false;
    }
    return true;
}

/* ---------------------------------------------------------------- name tables, built once */

/* Built on first use, like isa.c's form table: the reader is used from one thread. */

typedef struct name_entry {
    const char *s;
    uint8_t n;
} name_entry_t;

static struct {
    bool ready;
    uint16_t op_hash[OP_HASH_SIZE]; /* op + 1; 0 = empty slot */
    name_entry_t ops[DV_OP_COUNT];
    name_entry_t spaces[DV_SPACE_COUNT];
    name_entry_t dtypes[DV_DT_COUNT];
    name_entry_t pipes[DV_PIPE_ALL + 1];
    uint32_t form_required[DV_FORM_COUNT]; /* bit i: field i is required */
} names;

static inline uint32_t name_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

static void names_init(void)
{
    _Static_assert(DV_MAX_FIELDS <= 32, "field masks are 32 bits");
    _Static_assert(DV_OP_COUNT < OP_HASH_SIZE / 2, "grow OP_HASH_SIZE");
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const char *m = dv_op_spec((dv_op_t)op)->mnemonic;
        names.ops[op] = (name_entry_t){m, (uint8_t)strlen(m)};
        uint32_t h = name_hash(m, strlen(m)) & (OP_HASH_SIZE - 1);
        while (names.op_hash[h])
            h = (h + 1) & (OP_HASH_SIZE - 1);
        names.op_hash[h] = (uint16_t)(op + 1);
    }
    for (int i = 0; i < DV_SPACE_COUNT; i++)
        names.spaces[i] = (name_entry_t){dv_space_name((dv_space_t)i), (uint8_t)strlen(dv_space_name((dv_space_t)i))};
    for (int i = 0; i < DV_DT_COUNT; i++)
        names.dtypes[i] = (name_entry_t){dv_dtype_name((dv_dtype_t)i), (uint8_t)strlen(dv_dtype_name((dv_dtype_t)i))};
    for (int i = 0; i <= DV_PIPE_ALL; i++)
        names.pipes[i] = (name_entry_t){dv_pipe_name((dv_pipe_t)i), (uint8_t)strlen(dv_pipe_name((dv_pipe_t)i))};
    for (int f = 0; f < DV_FORM_COUNT; f++) {
        const dv_form_spec_t *fs = dv_form_spec((dv_form_t)f);
        for (int i = 0; i < fs->nfields; i++)
            if (fs->fields[i].required)
                names.form_required[f] |= 1u << i;
    }
    names.ready = true;
}

static inline dv_op_t op_find(const char *s, size_t n)
{
    uint32_t h = name_hash(s, n) & (OP_HASH_SIZE - 1);
    for (uint16_t e; (e = names.op_hash[h]) != 0; h = (h + 1) & (OP_HASH_SIZE - 1)) {
        const name_entry_t *m = &names.ops[e - 1];
        if (m->n == n && memcmp(m->s, s, n) == 0)
            return (dv_op_t)(e - 1);
    }
    return DV_OP_INVALID;
}

static inline int entry_find(const name_entry_t *tab, int count, const char *s, size_t n)
{
    for (int i = 0; i < count; i++)
        if (tab[i].n == n && memcmp(tab[i].s, s, n) == 0)
            return i;
    return -1;
}

/* Field of a form by name, searching from `hint` (canonical text has the fields in table order). */
static inline int field_find(const dv_form_spec_t *fs, const char *s, size_t n, int hint)
{
    for (int k = 0; k < fs->nfields; k++) {
        int i = hint + k;
        if (i >= fs->nfields)
            i -= fs->nfields;
        const char *name = fs->fields[i].name;
        size_t j = 0;
        while (j < n && name[j] == s[j])
            j++;
        if (j == n && name[j] == '\0')
            return i;
    }
    return -1;
}

/* "a, b, c" into buf. */
static const char *join_names(char *buf, size_t cap, const char *(*name)(int), int lo, int hi)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = lo; i <= hi && used < cap; i++)
        used += (size_t)snprintf(buf + used, cap - used, "%s%s", i > lo ? ", " : "", name(i));
    return buf;
}

static const char *pipe_name_i(int i) { return dv_pipe_name((dv_pipe_t)i); }
static const char *space_name_i(int i) { return dv_space_name((dv_space_t)i); }
static const char *dtype_name_i(int i) { return dv_dtype_name((dv_dtype_t)i); }

/* ---------------------------------------------------------------- instruction parser */

typedef struct where {
    const char *file;
    int line;
} where_t;

static int parse_addr(const dv_field_spec_t *fd, tok_t v, int col, const dv_kernel_info_t *info, where_t w,
                      dv_val_t *out, dv_error_t *err)
{
    const char *colon = memchr(v.s, ':', v.n);
    uint64_t off = 0;
    if (colon) {
        size_t sn = (size_t)(colon - v.s);
        tok_t offt = {colon + 1, v.n - sn - 1};
        int sp = entry_find(names.spaces, DV_SPACE_COUNT, v.s, sn);
        char list[128];
        if (sp < 0)
            return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, col,
                                "field '%s': unknown address space '%.*s' (expected one of %s)", fd->name,
                                (int)(sn > QUOTE_MAX ? QUOTE_MAX : sn), v.s,
                                join_names(list, sizeof list, space_name_i, 1, DV_SPACE_COUNT - 1));
        if (sp == DV_SPACE_GM)
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, col,
                                "field '%s': GM addresses are written ARG+OFFSET with a declared argument name, not gm:OFFSET",
                                fd->name);
        int rc = parse_u64(offt.s, offt.n, &off);
        if (rc == -1)
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, col + (int)sn + 1,
                                "field '%s': expected an offset (decimal or 0x hex) after '%s:', got '%.*s'", fd->name,
                                dv_space_name((dv_space_t)sp), TOKQ(offt));
        if (rc == -2 || off >= OFF_LIMIT)
            return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, col + (int)sn + 1,
                                "field '%s': offset '%.*s' does not fit in 40 bits", fd->name, TOKQ(offt));
        out->u = DV_ADDR(sp, off);
        return DV_OK;
    }
    const char *plus = memchr(v.s, '+', v.n);
    size_t an = plus ? (size_t)(plus - v.s) : v.n;
    if (an == 0)
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, col,
                            "field '%s': expected an address (SPACE:OFFSET or ARG+OFFSET), got '%.*s'", fd->name, TOKQ(v));
    uint32_t a = 0, nargs = info ? info->nargs : 0;
    while (a < nargs && !(strlen(info->args[a].name) == an && memcmp(info->args[a].name, v.s, an) == 0))
        a++;
    if (a == nargs)
        return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, col,
                            "field '%s': unknown GM argument '%.*s' (addresses are SPACE:OFFSET or ARG+OFFSET)",
                            fd->name, (int)(an > QUOTE_MAX ? QUOTE_MAX : an), v.s);
    if (plus) {
        tok_t offt = {plus + 1, v.n - an - 1};
        int ocol = col + (int)an + 1;
        int rc = parse_u64(offt.s, offt.n, &off);
        if (rc == -1)
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, ocol,
                                "field '%s': GM offset must be a decimal or 0x hex number after '%s+', got '%.*s'",
                                fd->name, info->args[a].name, TOKQ(offt));
        if (rc == -2 || off >= info->args[a].bytes)
            return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, ocol,
                                "field '%s': GM offset %.*s must be less than the size of argument '%s' (%llu bytes)",
                                fd->name, TOKQ(offt), info->args[a].name, (unsigned long long)info->args[a].bytes);
    }
    out->u = DV_GM_ADDR(a, off);
    return DV_OK;
}

/* Convert one value token; range, space and dtype-set checks are dv_insn_check's. */
static int parse_value(const dv_field_spec_t *fd, tok_t v, int col,
                       const dv_kernel_info_t *info, where_t w, dv_val_t *out, dv_error_t *err)
{
    char list[160];
    int rc, idx;
    switch (fd->kind) {
    case DV_FK_ADDR:
        return parse_addr(fd, v, col, info, w, out, err);
    case DV_FK_INT:
    case DV_FK_BOOL:
        rc = parse_i64(v.s, v.n, &out->i);
        if (rc == -1)
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, col,
                                "field '%s': expected an integer (decimal or 0x hex), got '%.*s'", fd->name, TOKQ(v));
        if (rc == -2)
            return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, col, "field '%s' = %.*s does not fit in 64 bits",
                                fd->name, TOKQ(v));
        return DV_OK;
    case DV_FK_U64:
        rc = parse_u64(v.s, v.n, &out->u);
        if (rc == -1)
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, col,
                                "field '%s': expected a 64-bit word (0x hex or decimal), got '%.*s'", fd->name, TOKQ(v));
        if (rc == -2)
            return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, col, "field '%s' = %.*s does not fit in 64 bits",
                                fd->name, TOKQ(v));
        return DV_OK;
    case DV_FK_F64: {
        char buf[80];
        if (v.n == 0 || v.n >= sizeof buf)
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, col, "field '%s': expected a number, got '%.*s'",
                                fd->name, TOKQ(v));
        memcpy(buf, v.s, v.n);
        buf[v.n] = '\0';
        char *end;
        errno = 0;
        double d = strtod(buf, &end);
        if (end != buf + v.n)
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, col,
                                "field '%s': expected a number (C floating constant, inf or nan), got '%.*s'", fd->name,
                                TOKQ(v));
        if (errno == ERANGE && isinf(d))
            return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, col, "field '%s' = %.*s does not fit in a double",
                                fd->name, TOKQ(v));
        out->d = d;
        return DV_OK;
    }
    case DV_FK_DTYPE:
        idx = entry_find(names.dtypes, DV_DT_COUNT, v.s, v.n);
        if (idx < 0)
            return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, col,
                                "field '%s': unknown dtype '%.*s' (expected one of %s)", fd->name, TOKQ(v),
                                join_names(list, sizeof list, dtype_name_i, 0, DV_DT_COUNT - 1));
        out->i = idx;
        return DV_OK;
    case DV_FK_PIPE:
        idx = entry_find(names.pipes, DV_PIPE_ALL + 1, v.s, v.n);
        if (idx < 0)
            return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, col, "field '%s': unknown pipe '%.*s' (expected one of %s)",
                                fd->name, TOKQ(v), join_names(list, sizeof list, pipe_name_i, (int)fd->min, (int)fd->max));
        if (idx < fd->min || idx > fd->max)
            return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, col,
                                "field '%s': pipe '%.*s' is not allowed here (expected one of %s)", fd->name, TOKQ(v),
                                join_names(list, sizeof list, pipe_name_i, (int)fd->min, (int)fd->max));
        out->i = idx;
        return DV_OK;
    case DV_FK_QUANT:
    case DV_FK_CMP:
    case DV_FK_ROUND: {
        const char *(*name)(int) = fd->kind == DV_FK_QUANT ? dv_quant_name
                                   : fd->kind == DV_FK_CMP ? dv_cmp_name
                                                           : dv_round_name;
        for (int i = (int)fd->min; i <= (int)fd->max; i++) {
            const char *s = name(i);
            if (strlen(s) == v.n && memcmp(s, v.s, v.n) == 0) {
                out->i = i;
                return DV_OK;
            }
        }
        return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, col, "field '%s': unknown value '%.*s' (expected one of %s)",
                            fd->name, TOKQ(v), join_names(list, sizeof list, name, (int)fd->min, (int)fd->max));
    }
    }
    return dv_error_set(err, DV_ERR_STATE, w.file, w.line, col, "field '%s': unhandled field kind", fd->name);
}

/* Does `word` occur in msg as a whole identifier? */
static bool has_word(const char *msg, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(msg, word); p; p = strstr(p + 1, word)) {
        bool left = p == msg || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= '0' && p[-1] <= '9'));
        char r = p[n];
        bool right = !(r == '_' || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9'));
        if (left && right)
            return true;
    }
    return false;
}

/* Run dv_insn_check and place its message on the field it names (quoted, or as a word). */
static int check_located(const dv_insn_t *insn, const dv_form_spec_t *fs, const int *vcol, int mcol, where_t w,
                         dv_error_t *err)
{
    dv_error_t e;
    int rc = dv_insn_check(insn, &e);
    if (rc == DV_OK)
        return DV_OK;
    int fi = -1;
    const char *body = strstr(e.msg, ": ");
    body = body ? body + 2 : e.msg;
    const char *q = strchr(body, '\'');
    const char *q2 = q ? strchr(q + 1, '\'') : NULL;
    if (q2)
        fi = field_find(fs, q + 1, (size_t)(q2 - q - 1), 0);
    for (int i = 0; fi < 0 && i < fs->nfields; i++)
        if (has_word(body, fs->fields[i].name))
            fi = i;
    return dv_error_set(err, rc, w.file, w.line, fi >= 0 && vcol[fi] ? vcol[fi] : mcol, "%s", e.msg);
}

/* Parse the instruction whose mnemonic token `t` has been read; the fields follow at *pos. */
static int parse_insn_fields(const char *line, size_t len, size_t pos, tok_t t, const dv_kernel_info_t *info,
                             where_t w, dv_insn_t *out, dv_error_t *err)
{
    int mcol = tok_col(line, t);
    dv_op_t op = op_find(t.s, t.n);
    if (op == DV_OP_INVALID)
        return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, mcol, "unknown mnemonic '%.*s'", TOKQ(t));
    const dv_op_spec_t *os = dv_op_spec(op);
    const dv_form_spec_t *fs = dv_form_spec(os->form);
    int vcol[DV_MAX_FIELDS] = {0};
    uint32_t seen = 0;
    int hint = 0;

    dv_insn_init(out, op);
    out->line = (uint32_t)w.line;
    while (tok_next(line, len, &pos, &t)) {
        const char *eq = memchr(t.s, '=', t.n);
        if (!eq || eq == t.s)
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t), "expected 'name=value', got '%.*s'",
                                TOKQ(t));
        size_t nn = (size_t)(eq - t.s);
        int fi = field_find(fs, t.s, nn, hint);
        if (fi < 0) {
            char list[256];
            size_t used = 0;
            list[0] = '\0';
            for (int i = 0; i < fs->nfields && used < sizeof list; i++)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", fs->fields[i].name);
            return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, tok_col(line, t),
                                "unknown field '%.*s' for %s (fields: %s)", (int)(nn > QUOTE_MAX ? QUOTE_MAX : nn), t.s,
                                os->mnemonic, fs->nfields ? list : "none");
        }
        if (seen & (1u << fi))
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t), "duplicate field '%s'",
                                fs->fields[fi].name);
        seen |= 1u << fi;
        hint = fi + 1;
        tok_t v = {eq + 1, t.n - nn - 1};
        vcol[fi] = tok_col(line, v);
        int rc = parse_value(&fs->fields[fi], v, vcol[fi], info, w, &out->f[fi], err);
        if (rc)
            return rc;
    }
    uint32_t missing = names.form_required[os->form] & ~seen;
    if (missing) {
        int fi = __builtin_ctz(missing);
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, mcol, "%s: missing required field '%s'", os->mnemonic,
                            fs->fields[fi].name);
    }
    if (dv_insn_check(out, NULL) != DV_OK)
        return check_located(out, fs, vcol, mcol, w, err);
    return DV_OK;
}

int dv_trace_parse_insn(const char *line, size_t len, const dv_kernel_info_t *info, const char *file, int lineno,
                        dv_insn_t *out, dv_error_t *err)
{
    size_t pos = 0;
    tok_t t;
    where_t w = {file, lineno};
    if (!names.ready)
        names_init();
    if (!tok_next(line, len, &pos, &t))
        return dv_error_set(err, DV_ERR_PARSE, file, lineno, (int)len + 1, "expected an instruction");
    return parse_insn_fields(line, len, pos, t, info, w, out, err);
}

/* ---------------------------------------------------------------- canonical text */

typedef struct outbuf {
    char *p;
    size_t n, cap;
    bool full;
} outbuf_t;

static void ob_put(outbuf_t *o, const char *s, size_t n)
{
    if (o->full || o->n + n >= o->cap) {
        o->full = true;
        return;
    }
    memcpy(o->p + o->n, s, n);
    o->n += n;
}

static void ob_str(outbuf_t *o, const char *s) { ob_put(o, s, strlen(s)); }

static void ob_dec(outbuf_t *o, int64_t v)
{
    char tmp[24];
    int i = sizeof tmp;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        tmp[--i] = '-';
    ob_put(o, tmp + i, sizeof tmp - (size_t)i);
}

static void ob_hex(outbuf_t *o, uint64_t u)
{
    char tmp[20];
    int i = sizeof tmp;
    do {
        tmp[--i] = "0123456789abcdef"[u & 15];
        u >>= 4;
    } while (u);
    tmp[--i] = 'x';
    tmp[--i] = '0';
    ob_put(o, tmp + i, sizeof tmp - (size_t)i);
}

static void ob_f64(outbuf_t *o, double d)
{
    char tmp[40];
    if (isnan(d))
        ob_str(o, "nan");
    else if (isinf(d))
        ob_str(o, d < 0 ? "-inf" : "inf");
    else {
        snprintf(tmp, sizeof tmp, "%.17g", d);
        ob_str(o, tmp);
    }
}

/* An argument index the header lacks prints as ?N, which no reader accepts. */
static void ob_addr(outbuf_t *o, uint64_t a, const dv_kernel_info_t *info)
{
    dv_space_t sp = DV_ADDR_SPACE(a);
    if (sp == DV_SPACE_GM) {
        unsigned arg = DV_ADDR_ARG(a);
        if (info && arg < info->nargs)
            ob_str(o, info->args[arg].name);
        else {
            ob_str(o, "?");
            ob_dec(o, arg);
        }
        ob_str(o, "+");
    } else {
        ob_str(o, dv_space_name(sp));
        ob_str(o, ":");
    }
    ob_hex(o, DV_ADDR_OFF(a));
}

int dv_trace_format_insn(const dv_insn_t *insn, const dv_kernel_info_t *info, char *buf, size_t cap)
{
    const dv_op_spec_t *os = dv_op_spec((dv_op_t)insn->op);
    outbuf_t o = {buf, 0, cap, false};
    if (!os)
        return -1;
    const dv_form_spec_t *fs = dv_form_spec(os->form);
    ob_str(&o, os->mnemonic);
    for (int i = 0; i < fs->nfields; i++) {
        const dv_field_spec_t *fd = &fs->fields[i];
        const dv_val_t v = insn->f[i];
        ob_str(&o, " ");
        ob_str(&o, fd->name);
        ob_str(&o, "=");
        switch (fd->kind) {
        case DV_FK_ADDR: ob_addr(&o, v.u, info); break;
        case DV_FK_INT:
        case DV_FK_BOOL: ob_dec(&o, v.i); break;
        case DV_FK_U64: ob_hex(&o, v.u); break;
        case DV_FK_F64: ob_f64(&o, v.d); break;
        case DV_FK_DTYPE: ob_str(&o, dv_dtype_name((dv_dtype_t)v.i)); break;
        case DV_FK_PIPE: ob_str(&o, dv_pipe_name((dv_pipe_t)v.i)); break;
        case DV_FK_QUANT: ob_str(&o, dv_quant_name((int)v.i)); break;
        case DV_FK_CMP: ob_str(&o, dv_cmp_name((int)v.i)); break;
        case DV_FK_ROUND: ob_str(&o, dv_round_name((int)v.i)); break;
        }
    }
    if (o.full)
        return -1;
    buf[o.n] = '\0';
    return (int)o.n;
}

/* ---------------------------------------------------------------- line reader */

/* Lines of a file (own buffer) or of text in memory (fp NULL). */
typedef struct reader {
    FILE *fp;
    char *buf;
    const char *cur, *lim; /* unread bytes */
    uint64_t off;          /* offset of cur in the file or text */
    uint32_t line;         /* number of the last line returned */
    bool eof;
} reader_t;

/* 1 and the line (without its newline or a trailing CR), 0 at the end, or a negative status. */
static int reader_next(reader_t *r, const char **s, size_t *n)
{
    for (;;) {
        const char *nl = r->cur < r->lim ? memchr(r->cur, '\n', (size_t)(r->lim - r->cur)) : NULL;
        if (nl || r->eof || !r->fp) {
            if (!nl) {
                if (r->cur == r->lim)
                    return 0;
                nl = r->lim;
            }
            if ((size_t)(nl - r->cur) >= READ_BUF_BYTES) /* only text in memory gets here: same limit */
                return DV_ERR_PARSE;
            size_t adv = (size_t)(nl - r->cur) + (nl < r->lim);
            *s = r->cur;
            *n = (size_t)(nl - r->cur);
            if (*n && (*s)[*n - 1] == '\r')
                (*n)--;
            r->cur += adv;
            r->off += adv;
            r->line++;
            return 1;
        }
        size_t keep = (size_t)(r->lim - r->cur);
        if (keep == READ_BUF_BYTES)
            return DV_ERR_PARSE;
        memmove(r->buf, r->cur, keep);
        size_t got = fread(r->buf + keep, 1, READ_BUF_BYTES - keep, r->fp);
        if (got == 0) {
            if (ferror(r->fp))
                return DV_ERR_IO;
            r->eof = true;
        }
        r->cur = r->buf;
        r->lim = r->buf + keep + got;
    }
}

static int reader_error(const reader_t *r, int rc, const char *file, dv_error_t *err)
{
    if (rc == DV_ERR_IO)
        return dv_error_set(err, DV_ERR_IO, file, (int)r->line + 1, 0, "read error: %s", strerror(errno));
    return dv_error_set(err, DV_ERR_PARSE, file, (int)r->line + 1, 1, "line is longer than %u bytes",
                        READ_BUF_BYTES - 1);
}

/* ---------------------------------------------------------------- kernels and streams */

typedef struct block_pos {
    uint64_t off;  /* first byte after the block line */
    uint32_t line; /* number of the block line; 0 = not seen */
} block_pos_t;

typedef struct trace_kernel {
    dv_kernel_t k;
    char *source;      /* file name for messages */
    char *text;        /* dv_trace_open_string: the copied text; NULL for a file */
    size_t text_len;
    block_pos_t *pos;  /* blocks * stride */
    uint32_t stride;   /* 1, or DV_SUB_MAX for a mix kernel (info.subs is known after the scan) */
    int kind_line, kind_col; /* where the kernel line gives kind=, for dv_trace_check_profile */
    unsigned refs;     /* the kernel itself plus one per open stream */
    uint32_t args_cap;
} trace_kernel_t;

typedef struct trace_stream {
    dv_stream_t s;
    trace_kernel_t *tk;
    reader_t r;
    bool done;
} trace_stream_t;

static void kernel_unref(trace_kernel_t *tk)
{
    if (--tk->refs)
        return;
    free(tk->k.info.args);
    free(tk->pos);
    free(tk->text);
    free(tk->source);
    free(tk);
}

void dv_trace_close(dv_kernel_t *k)
{
    if (k)
        kernel_unref(k->impl);
}

static int trace_stream_open(dv_kernel_t *k, uint32_t block, uint32_t sub, dv_stream_t **out, dv_error_t *err);

int dv_trace_check_profile(const dv_kernel_t *k, const dv_config_t *cfg, dv_error_t *err)
{
    int rc = dv_topo_check_kernel(cfg, &k->info, err);
    if (rc != DV_OK && err && k->open == trace_stream_open) {
        const trace_kernel_t *tk = k->impl;
        snprintf(err->file, sizeof err->file, "%s", tk->source);
        err->line = tk->kind_line;
        err->col = tk->kind_col;
    }
    return rc;
}

static int stream_next(dv_stream_t *s, dv_insn_t *out, dv_error_t *err)
{
    trace_stream_t *ts = (trace_stream_t *)s;
    const char *line;
    size_t len;
    while (!ts->done) {
        int rc = reader_next(&ts->r, &line, &len);
        if (rc <= 0) {
            ts->done = true;
            return rc == 0 ? 0 : reader_error(&ts->r, rc, ts->tk->source, err);
        }
        size_t pos = 0;
        tok_t t;
        if (!tok_next(line, len, &pos, &t))
            continue;
        if (tok_is(t, "block") || tok_is(t, "end")) {
            ts->done = true;
            return 0;
        }
        where_t w = {ts->tk->source, (int)ts->r.line};
        rc = parse_insn_fields(line, len, pos, t, &ts->tk->k.info, w, out, err);
        return rc == DV_OK ? 1 : rc;
    }
    return 0;
}

static void stream_close(dv_stream_t *s)
{
    trace_stream_t *ts = (trace_stream_t *)s;
    if (!ts)
        return;
    if (ts->r.fp)
        fclose(ts->r.fp);
    free(ts->r.buf);
    kernel_unref(ts->tk);
    free(ts);
}

static int trace_stream_open(dv_kernel_t *k, uint32_t block, uint32_t sub, dv_stream_t **out, dv_error_t *err)
{
    trace_kernel_t *tk = k->impl;
    trace_stream_t *ts = NULL;
    int rc = DV_OK;
    *out = NULL;
    if (block >= k->info.blocks || sub >= k->info.subs)
        return dv_error_set(err, DV_ERR_RANGE, tk->source, 0, 0, "no stream for block %u sub %u (blocks=%u, subs=%u)",
                            block, sub, k->info.blocks, k->info.subs);
    const block_pos_t *bp = &tk->pos[(size_t)block * tk->stride + sub];
    ts = calloc(1, sizeof *ts);
    if (!ts)
        return dv_error_set(err, DV_ERR_NOMEM, tk->source, 0, 0, "out of memory");
    ts->tk = tk;
    tk->refs++;
    ts->r.off = bp->off;
    ts->r.line = bp->line;
    if (tk->text) {
        ts->r.cur = tk->text + bp->off;
        ts->r.lim = tk->text + tk->text_len;
    } else {
        ts->r.buf = malloc(READ_BUF_BYTES);
        if (!ts->r.buf) {
            rc = dv_error_set(err, DV_ERR_NOMEM, tk->source, 0, 0, "out of memory");
            goto cleanup;
        }
        ts->r.cur = ts->r.lim = ts->r.buf;
        ts->r.fp = fopen(tk->source, "rb");
        if (!ts->r.fp) {
            rc = dv_error_set(err, DV_ERR_IO, tk->source, 0, 0, "cannot open: %s", strerror(errno));
            goto cleanup;
        }
        setvbuf(ts->r.fp, NULL, _IONBF, 0); /* the reader buffers */
        if (fseeko(ts->r.fp, (off_t)bp->off, SEEK_SET) != 0) {
            rc = dv_error_set(err, DV_ERR_IO, tk->source, (int)bp->line, 0, "cannot seek: %s", strerror(errno));
            goto cleanup;
        }
    }
    ts->s.next = stream_next;
    ts->s.close = stream_close;
    ts->s.source = tk->source;
    *out = &ts->s;
    ts = NULL;
cleanup:
    if (ts)
        stream_close(&ts->s);
    return rc;
}

/* ---------------------------------------------------------------- header and structure scan */

/* name=value fields of a header line: vals[i]/cols[i] for names[i]; cols[i] = 0 when absent. */
static int header_fields(const char *line, size_t len, size_t pos, const char *what, const char *const *fnames, int n,
                         tok_t *vals, int *cols, where_t w, dv_error_t *err)
{
    tok_t t;
    for (int i = 0; i < n; i++)
        cols[i] = 0;
    while (tok_next(line, len, &pos, &t)) {
        const char *eq = memchr(t.s, '=', t.n);
        if (!eq || eq == t.s)
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t),
                                "expected 'name=value' in the %s line, got '%.*s'", what, TOKQ(t));
        size_t nn = (size_t)(eq - t.s);
        int i = 0;
        while (i < n && !(strlen(fnames[i]) == nn && memcmp(fnames[i], t.s, nn) == 0))
            i++;
        if (i == n) {
            char list[128];
            size_t used = 0;
            for (int j = 0; j < n && used < sizeof list; j++)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", j ? ", " : "", fnames[j]);
            return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, tok_col(line, t),
                                "unknown field '%.*s' in the %s line (fields: %s)", (int)(nn > QUOTE_MAX ? QUOTE_MAX : nn),
                                t.s, what, list);
        }
        if (cols[i])
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t), "duplicate field '%s'", fnames[i]);
        vals[i] = (tok_t){eq + 1, t.n - nn - 1};
        cols[i] = tok_col(line, vals[i]);
    }
    return DV_OK;
}

static int find_name(const char *const *tab, int n, tok_t t)
{
    for (int i = 0; i < n; i++)
        if (tok_is(t, tab[i]))
            return i;
    return -1;
}

static int scan_kernel_line(trace_kernel_t *tk, const char *line, size_t len, size_t pos, tok_t kw, where_t w,
                            dv_error_t *err)
{
    static const char *const fnames[] = {"kind", "blocks"};
    dv_kernel_info_t *info = &tk->k.info;
    tok_t name, vals[2];
    int cols[2];
    if (!tok_next(line, len, &pos, &name))
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_end_col(line, kw),
                            "expected a kernel name after 'kernel'");
    if (!is_kernel_name(name.s, name.n))
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, name),
                            "expected a kernel name (letters, digits, '_', '.', '-'; at most %d characters), got '%.*s'",
                            DV_NAME_MAX - 1, TOKQ(name));
    memcpy(info->name, name.s, name.n);
    info->name[name.n] = '\0';
    int rc = header_fields(line, len, pos, "kernel", fnames, 2, vals, cols, w, err);
    if (rc)
        return rc;
    for (int i = 0; i < 2; i++)
        if (!cols[i])
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, kw), "kernel: missing required field '%s'",
                                fnames[i]);
    int kind = find_name(kind_names, 3, vals[0]);
    if (kind < 0)
        return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, cols[0],
                            "unknown kernel kind '%.*s' (expected vector, cube or mix)", TOKQ(vals[0]));
    uint64_t blocks;
    rc = parse_u64(vals[1].s, vals[1].n, &blocks);
    if (rc == -1)
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, cols[1], "field 'blocks': expected an integer, got '%.*s'",
                            TOKQ(vals[1]));
    if (rc == -2 || blocks < 1 || blocks > BLOCKS_MAX)
        return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, cols[1], "field 'blocks' = %.*s is out of range [1, %u]",
                            TOKQ(vals[1]), BLOCKS_MAX);
    info->kind = (dv_kind_t)kind;
    info->blocks = (uint32_t)blocks;
    info->subs = 1; /* a mix kernel's count is the sub-streams its blocks have, known at 'end' */
    tk->stride = kind == DV_KIND_MIX ? DV_SUB_MAX : 1;
    tk->kind_line = w.line;
    tk->kind_col = cols[0];
    tk->pos = calloc((size_t)info->blocks * tk->stride, sizeof *tk->pos);
    if (!tk->pos)
        return dv_error_set(err, DV_ERR_NOMEM, w.file, w.line, 0, "out of memory");
    return DV_OK;
}

static int scan_arg_line(trace_kernel_t *tk, const char *line, size_t len, size_t pos, tok_t kw, where_t w,
                         dv_error_t *err)
{
    static const char *const fnames[] = {"bytes", "dtype", "dir", "init"};
    dv_kernel_info_t *info = &tk->k.info;
    tok_t name, vals[4];
    int cols[4];
    if (!tok_next(line, len, &pos, &name))
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_end_col(line, kw),
                            "expected an argument name after 'arg'");
    if (!is_ident(name.s, name.n))
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, name),
                            "expected an argument name (letter or '_', then letters, digits, '_'; at most %d characters), got '%.*s'",
                            DV_NAME_MAX - 1, TOKQ(name));
    for (uint32_t a = 0; a < info->nargs; a++)
        if (tok_is(name, info->args[a].name))
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, name), "duplicate argument '%.*s'",
                                TOKQ(name));
    if (info->nargs == ARGS_MAX)
        return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, tok_col(line, kw), "more than %u arguments", ARGS_MAX);
    int rc = header_fields(line, len, pos, "arg", fnames, 4, vals, cols, w, err);
    if (rc)
        return rc;
    if (!cols[0])
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, kw), "arg: missing required field 'bytes'");
    dv_arg_t a = {.dtype = DV_DT_U8, .dir = DV_ARG_INOUT, .init = DV_INIT_ZERO};
    memcpy(a.name, name.s, name.n);
    rc = parse_u64(vals[0].s, vals[0].n, &a.bytes);
    if (rc == -1)
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, cols[0], "field 'bytes': expected an integer, got '%.*s'",
                            TOKQ(vals[0]));
    if (rc == -2 || a.bytes < 1 || a.bytes > OFF_LIMIT)
        return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, cols[0], "field 'bytes' = %.*s is out of range [1, %llu]",
                            TOKQ(vals[0]), (unsigned long long)OFF_LIMIT);
    if (cols[1]) {
        int dt = entry_find(names.dtypes, DV_DT_COUNT, vals[1].s, vals[1].n);
        char list[160];
        if (dt < 0)
            return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, cols[1],
                                "field 'dtype': unknown dtype '%.*s' (expected one of %s)", TOKQ(vals[1]),
                                join_names(list, sizeof list, dtype_name_i, 0, DV_DT_COUNT - 1));
        a.dtype = (dv_dtype_t)dt;
    }
    if (cols[2]) {
        int dir = find_name(dir_names, 3, vals[2]);
        if (dir < 0)
            return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, cols[2],
                                "field 'dir': unknown direction '%.*s' (expected in, out or inout)", TOKQ(vals[2]));
        a.dir = (dv_arg_dir_t)dir;
    }
    if (cols[3]) {
        tok_t v = vals[3];
        if (tok_is(v, "zero")) {
            a.init = DV_INIT_ZERO;
        } else if (v.n > 7 && memcmp(v.s, "random:", 7) == 0) {
            a.init = DV_INIT_RANDOM;
            const char *range = memchr(v.s + 7, ':', v.n - 7);
            size_t seed_n = range ? (size_t)(range - v.s) - 7 : v.n - 7;
            if (parse_u64(v.s + 7, seed_n, &a.seed) != 0)
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, cols[3] + 7,
                                    "field 'init': expected a 64-bit seed after 'random:', got '%.*s'",
                                    (int)(seed_n > QUOTE_MAX ? QUOTE_MAX : seed_n), v.s + 7);
            if (range && parse_range(range + 1, (size_t)(v.s + v.n - range - 1), &a.lo, &a.hi) != 0)
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, cols[3] + (int)(range - v.s) + 1,
                                    "field 'init': expected LO:HI (finite numbers, LO < HI) after the seed, got '%.*s'",
                                    (int)(v.s + v.n - range - 1 > QUOTE_MAX ? QUOTE_MAX : v.s + v.n - range - 1),
                                    range + 1);
        } else if (v.n > 5 && memcmp(v.s, "file:", 5) == 0) {
            if (v.n - 5 >= sizeof a.path)
                return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, cols[3] + 5,
                                    "field 'init': the path is longer than %zu bytes", sizeof a.path - 1);
            a.init = DV_INIT_FILE;
            memcpy(a.path, v.s + 5, v.n - 5);
        } else {
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, cols[3],
                                "field 'init': expected zero, random:SEED or file:PATH, got '%.*s'", TOKQ(v));
        }
    }
    if (info->nargs == tk->args_cap) {
        uint32_t cap = tk->args_cap ? tk->args_cap * 2 : 4;
        dv_arg_t *args = realloc(info->args, (size_t)cap * sizeof *args);
        if (!args)
            return dv_error_set(err, DV_ERR_NOMEM, w.file, w.line, 0, "out of memory");
        info->args = args;
        tk->args_cap = cap;
    }
    info->args[info->nargs++] = a;
    return DV_OK;
}

static int scan_block_line(trace_kernel_t *tk, const char *line, size_t len, size_t pos, tok_t kw, const reader_t *r,
                           where_t w, dv_error_t *err)
{
    dv_kernel_info_t *info = &tk->k.info;
    tok_t num, sub, extra;
    char sub_name[16] = "";
    uint64_t b;
    int s = 0;
    if (!tok_next(line, len, &pos, &num))
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_end_col(line, kw),
                            "expected a block number after 'block'");
    int rc = parse_u64(num.s, num.n, &b);
    if (rc == -1)
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, num), "expected a block number, got '%.*s'",
                            TOKQ(num));
    if (rc == -2 || b >= info->blocks)
        return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, tok_col(line, num),
                            "block %.*s is out of range [0, %u] (the kernel declares blocks=%u)", TOKQ(num),
                            info->blocks - 1, info->blocks);
    bool has_sub = tok_next(line, len, &pos, &sub);
    if (info->kind == DV_KIND_MIX) {
        if (!has_sub)
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_end_col(line, num),
                                "a kind=mix kernel needs a sub-stream after the block number: aic, or aivN for N "
                                "in [0, %d]", DV_TOPO_AIV_MAX - 1);
        s = dv_topo_sub_lookup(sub.s, sub.n);
        if (s < 0)
            return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, tok_col(line, sub),
                                "unknown sub-stream '%.*s' (expected aic, or aivN for N in [0, %d])", TOKQ(sub),
                                DV_TOPO_AIV_MAX - 1);
        if (s >= DV_SUB_MAX)
            return dv_error_set(err, DV_ERR_RANGE, w.file, w.line, tok_col(line, sub),
                                "sub-stream '%.*s' is beyond the limit: an AI core has at most %d AIVs (aiv0 .. aiv%d)",
                                TOKQ(sub), DV_TOPO_AIV_MAX, DV_TOPO_AIV_MAX - 1);
        dv_topo_sub_name((uint32_t)s, sub_name, sizeof sub_name);
        if (tok_next(line, len, &pos, &extra))
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, extra),
                                "unexpected '%.*s' after 'block %.*s %s'", TOKQ(extra), TOKQ(num), sub_name);
        if ((uint32_t)s + 1 > info->subs)
            info->subs = (uint32_t)s + 1;
    } else if (has_sub) {
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, sub),
                            "unexpected '%.*s': a kind=%s kernel has one stream per block, written 'block B'", TOKQ(sub),
                            kind_names[info->kind]);
    }
    block_pos_t *bp = &tk->pos[(size_t)b * tk->stride + (size_t)s];
    if (bp->line) {
        tok_t at = info->kind == DV_KIND_MIX ? sub : num;
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, at), "duplicate block %llu%s%s (first at line %u)",
                            (unsigned long long)b, *sub_name ? " " : "", sub_name, bp->line);
    }
    bp->line = (uint32_t)w.line;
    bp->off = r->off;
    return DV_OK;
}

static int scan_end_line(trace_kernel_t *tk, const char *line, size_t len, size_t pos, tok_t kw, where_t w,
                         dv_error_t *err)
{
    const dv_kernel_info_t *info = &tk->k.info;
    tok_t extra;
    if (tok_next(line, len, &pos, &extra))
        return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, extra), "unexpected '%.*s' after 'end'",
                            TOKQ(extra));
    for (uint32_t b = 0; b < info->blocks; b++)
        for (uint32_t s = 0; s < info->subs; s++)
            if (!tk->pos[(size_t)b * tk->stride + s].line) {
                char sub_name[16] = "";
                if (info->kind == DV_KIND_MIX)
                    dv_topo_sub_name(s, sub_name, sizeof sub_name);
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, kw),
                                    "missing block %u%s%s (the kernel declares blocks=%u; each must appear once%s)", b,
                                    *sub_name ? " " : "", sub_name, info->blocks,
                                    info->kind == DV_KIND_MIX ? ", with every sub-stream up to the last one used" : "");
            }
    return DV_OK;
}

enum scan_state { SCAN_VERSION, SCAN_KERNEL, SCAN_ARGS, SCAN_BLOCKS, SCAN_DONE };

/* Read the whole trace once: header, block index, first token of every instruction. */
static int trace_scan(trace_kernel_t *tk, reader_t *r, dv_error_t *err)
{
    enum scan_state st = SCAN_VERSION;
    const char *line;
    size_t len;
    int rc;
    while ((rc = reader_next(r, &line, &len)) > 0) {
        size_t pos = 0;
        tok_t t, v;
        where_t w = {tk->source, (int)r->line};
        bool any = tok_next(line, len, &pos, &t);
        if (st == SCAN_VERSION) {
            if (!any)
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, 1,
                                    "expected 'dvtrace %d' on the first line, got an empty line", DV_TRACE_VERSION);
            if (!tok_is(t, "dvtrace"))
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t),
                                    "expected 'dvtrace %d' on the first line, got '%.*s'", DV_TRACE_VERSION, TOKQ(t));
            if (!tok_next(line, len, &pos, &v))
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_end_col(line, t),
                                    "expected a version number after 'dvtrace'");
            uint64_t ver;
            if (parse_u64(v.s, v.n, &ver) != 0)
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, v),
                                    "expected a version number, got '%.*s'", TOKQ(v));
            if (ver != DV_TRACE_VERSION)
                return dv_error_set(err, DV_ERR_UNSUPPORTED, w.file, w.line, tok_col(line, v),
                                    "unsupported trace version %.*s (this reader reads version %d)", TOKQ(v),
                                    DV_TRACE_VERSION);
            if (tok_next(line, len, &pos, &v))
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, v), "unexpected '%.*s' after the version",
                                    TOKQ(v));
            st = SCAN_KERNEL;
            continue;
        }
        if (!any)
            continue;
        switch (st) {
        case SCAN_KERNEL:
            if (!tok_is(t, "kernel"))
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t),
                                    "expected 'kernel NAME kind=vector|cube|mix blocks=N', got '%.*s'", TOKQ(t));
            if ((rc = scan_kernel_line(tk, line, len, pos, t, w, err)))
                return rc;
            st = SCAN_ARGS;
            break;
        case SCAN_ARGS:
            if (tok_is(t, "arg")) {
                if ((rc = scan_arg_line(tk, line, len, pos, t, w, err)))
                    return rc;
                break;
            }
            if (tok_is(t, "block")) {
                if ((rc = scan_block_line(tk, line, len, pos, t, r, w, err)))
                    return rc;
                st = SCAN_BLOCKS;
                break;
            }
            if (op_find(t.s, t.n) != DV_OP_INVALID)
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t),
                                    "instruction '%.*s' before the first block (expected 'block 0')", TOKQ(t));
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t),
                                "expected 'arg NAME bytes=N ...' or 'block B', got '%.*s'", TOKQ(t));
        case SCAN_BLOCKS:
            if (tok_is(t, "block")) {
                if ((rc = scan_block_line(tk, line, len, pos, t, r, w, err)))
                    return rc;
            } else if (tok_is(t, "end")) {
                if ((rc = scan_end_line(tk, line, len, pos, t, w, err)))
                    return rc;
                st = SCAN_DONE;
            } else if (tok_is(t, "arg") || tok_is(t, "kernel") || tok_is(t, "dvtrace")) {
                return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t),
                                    "'%.*s' belongs to the header, before the first block", TOKQ(t));
            } else if (op_find(t.s, t.n) == DV_OP_INVALID) {
                return dv_error_set(err, DV_ERR_UNKNOWN, w.file, w.line, tok_col(line, t), "unknown mnemonic '%.*s'",
                                    TOKQ(t));
            }
            break;
        case SCAN_DONE:
            return dv_error_set(err, DV_ERR_PARSE, w.file, w.line, tok_col(line, t), "unexpected '%.*s' after 'end'",
                                TOKQ(t));
        case SCAN_VERSION:
            break;
        }
    }
    if (rc < 0)
        return reader_error(r, rc, tk->source, err);
    static const char *const expected[] = {"'dvtrace 1'", "'kernel NAME kind=... blocks=N'", "'block 0'", "'end'"};
    if (st != SCAN_DONE)
        return dv_error_set(err, DV_ERR_PARSE, tk->source, (int)r->line + 1, 1, "expected %s, got end of file",
                            expected[st]);
    return DV_OK;
}

static trace_kernel_t *kernel_new(const char *source)
{
    trace_kernel_t *tk = calloc(1, sizeof *tk);
    if (!tk)
        return NULL;
    tk->source = malloc(strlen(source) + 1);
    if (!tk->source) {
        free(tk);
        return NULL;
    }
    strcpy(tk->source, source);
    tk->refs = 1;
    tk->k.open = trace_stream_open;
    tk->k.impl = tk;
    return tk;
}

int dv_trace_open(const char *path, dv_kernel_t **out, dv_error_t *err)
{
    trace_kernel_t *tk = NULL;
    reader_t r = {0};
    int rc = DV_OK;
    *out = NULL;
    if (!names.ready)
        names_init();
    r.fp = fopen(path, "rb");
    if (!r.fp)
        return dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
    setvbuf(r.fp, NULL, _IONBF, 0);
    r.buf = malloc(READ_BUF_BYTES);
    tk = kernel_new(path);
    if (!r.buf || !tk) {
        rc = dv_error_set(err, DV_ERR_NOMEM, path, 0, 0, "out of memory");
        goto cleanup;
    }
    r.cur = r.lim = r.buf;
    rc = trace_scan(tk, &r, err);
    if (rc)
        goto cleanup;
    *out = &tk->k;
    tk = NULL;
cleanup:
    if (tk)
        kernel_unref(tk);
    free(r.buf);
    fclose(r.fp);
    return rc;
}

int dv_trace_open_string(const char *text, const char *name, dv_kernel_t **out, dv_error_t *err)
{
    trace_kernel_t *tk = NULL;
    reader_t r = {0};
    int rc = DV_OK;
    *out = NULL;
    if (!names.ready)
        names_init();
    if (!name)
        name = "<string>";
    tk = kernel_new(name);
    if (!tk)
        return dv_error_set(err, DV_ERR_NOMEM, name, 0, 0, "out of memory");
    tk->text_len = strlen(text);
    tk->text = malloc(tk->text_len + 1);
    if (!tk->text) {
        rc = dv_error_set(err, DV_ERR_NOMEM, name, 0, 0, "out of memory");
        goto cleanup;
    }
    memcpy(tk->text, text, tk->text_len + 1);
    r.cur = tk->text;
    r.lim = tk->text + tk->text_len;
    rc = trace_scan(tk, &r, err);
    if (rc)
        goto cleanup;
    *out = &tk->k;
    tk = NULL;
cleanup:
    if (tk)
        kernel_unref(tk);
    return rc;
}

/* ---------------------------------------------------------------- writer */

static bool info_valid(const dv_kernel_info_t *info)
{
    if (!is_kernel_name(info->name, strlen(info->name)) || (unsigned)info->kind > DV_KIND_MIX || info->blocks < 1 ||
        info->blocks > BLOCKS_MAX || info->nargs > ARGS_MAX || (info->nargs && !info->args))
        return false;
    for (uint32_t a = 0; a < info->nargs; a++) {
        const dv_arg_t *g = &info->args[a];
        if (!is_ident(g->name, strlen(g->name)) || g->bytes < 1 || g->bytes > OFF_LIMIT ||
            (unsigned)g->dtype >= DV_DT_COUNT || (unsigned)g->dir > DV_ARG_INOUT || (unsigned)g->init > DV_INIT_FILE)
            return false;
        if (g->init == DV_INIT_FILE) {
            size_t n = strlen(g->path);
            if (n == 0 || n >= sizeof g->path)
                return false;
            for (size_t i = 0; i < n; i++)
                if (is_space(g->path[i]) || g->path[i] == '#' || g->path[i] == '\n')
                    return false;
        }
        for (uint32_t b = 0; b < a; b++)
            if (strcmp(info->args[b].name, g->name) == 0)
                return false;
    }
    return true;
}

int dv_trace_write_header(FILE *out, const dv_kernel_info_t *info)
{
    if (!info_valid(info))
        return DV_ERR_RANGE;
    fprintf(out, "dvtrace %d\nkernel %s kind=%s blocks=%u\n", DV_TRACE_VERSION, info->name, kind_names[info->kind],
            info->blocks);
    for (uint32_t a = 0; a < info->nargs; a++) {
        const dv_arg_t *g = &info->args[a];
        fprintf(out, "arg %s bytes=%llu dtype=%s dir=%s init=", g->name, (unsigned long long)g->bytes,
                dv_dtype_name(g->dtype), dir_names[g->dir]);
        if (g->init == DV_INIT_RANDOM)
        {
            fprintf(out, "random:%llu", (unsigned long long)g->seed);
            if (g->lo != g->hi)
                fprintf(out, ":%.17g:%.17g", g->lo, g->hi);
            fputc('\n', out);
        }
        else if (g->init == DV_INIT_FILE)
            fprintf(out, "file:%s\n", g->path);
        else
            fputs("zero\n", out);
    }
    return ferror(out) ? DV_ERR_IO : DV_OK;
}

int dv_trace_write_block(FILE *out, const dv_kernel_info_t *info, uint32_t block, uint32_t sub)
{
    const uint32_t subs = info->kind == DV_KIND_MIX ? info->subs : 1;
    if (block >= info->blocks || sub >= subs || sub >= DV_SUB_MAX)
        return DV_ERR_RANGE;
    char name[16];
    if (info->kind == DV_KIND_MIX)
        fprintf(out, "block %u %s\n", block, dv_topo_sub_name(sub, name, sizeof name));
    else
        fprintf(out, "block %u\n", block);
    return ferror(out) ? DV_ERR_IO : DV_OK;
}

int dv_trace_write_insn(FILE *out, const dv_kernel_info_t *info, const dv_insn_t *insn)
{
    char buf[1024];
    int n = dv_trace_format_insn(insn, info, buf, sizeof buf);
    if (n < 0)
        return DV_ERR_RANGE;
    buf[n] = '\n';
    return fwrite(buf, 1, (size_t)n + 1, out) == (size_t)n + 1 ? DV_OK : DV_ERR_IO;
}

int dv_trace_write_end(FILE *out)
{
    fputs("end\n", out);
    return ferror(out) ? DV_ERR_IO : DV_OK;
}
