/* kernel/trace_syntax.c - the text of a trace (traces/FORMAT.md) below the line structure: numbers,
 * names and their tables, one instruction line parsed (dv_trace_parse_insn) and written in canonical
 * form (dv_trace_format_insn).  The reader (trace_read.c) and the writer (trace_write.c) build on it
 * through trace_syntax.h. */
#include "trace_syntax.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OP_HASH_SIZE 256u

const char *const dv_trace_dir_names[3] = {"in", "out", "inout"};
const char *const dv_trace_l2_names[2] = {"normal", "disable"};
const char *const dv_trace_kind_names[3] = {"vector", "cube", "mix"};

const uint8_t dv_trace_byte_class[256] = {[' '] = 1, ['\t'] = 1, ['\r'] = 1, ['\v'] = 1, ['\f'] = 1, ['#'] = 2};

/* ---------------------------------------------------------------- numbers */

int dv_trace_parse_range(const char *s, size_t n, double *lo, double *hi)
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

/* An optional '-' then dv_trace_parse_u64. */
static int parse_i64(const char *s, size_t n, int64_t *out)
{
    bool neg = n > 0 && s[0] == '-';
    uint64_t v = 0;
    int rc = dv_trace_parse_u64(s + neg, n - neg, &v);
    if (rc)
        return rc;
    if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
        return -2;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 0;
}

bool dv_trace_is_ident(const char *s, size_t n)
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

bool dv_trace_is_kernel_name(const char *s, size_t n)
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


void dv_trace_names_init(void)
{
    if (names.ready)
        return;
    _Static_assert(DV_MAX_FIELDS <= 32, "field masks are 32 bits");
    _Static_assert(DV_OP_COUNT < OP_HASH_SIZE / 2, "grow OP_HASH_SIZE");
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const char *m = dv_op_spec((dv_op_t)op)->mnemonic;
        names.ops[op] = (name_entry_t){m, (uint8_t)strlen(m)};
        uint32_t h = dv_trace_name_hash(m, strlen(m)) & (OP_HASH_SIZE - 1);
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

dv_op_t dv_trace_op_find(const char *s, size_t n)
{
    uint32_t h = dv_trace_name_hash(s, n) & (OP_HASH_SIZE - 1);
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
        while (j < n && name[j] && name[j] == s[j]) /* name[j] first: s may hold a NUL byte */
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

int dv_trace_dtype_find(const char *s, size_t n) { return entry_find(names.dtypes, DV_DT_COUNT, s, n); }

const char *dv_trace_dtype_list(char *buf, size_t cap)
{
    return join_names(buf, cap, dtype_name_i, 0, DV_DT_COUNT - 1);
}

/* ---------------------------------------------------------------- instruction parser */

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
        int rc = dv_trace_parse_u64(offt.s, offt.n, &off);
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
        int rc = dv_trace_parse_u64(offt.s, offt.n, &off);
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
        rc = dv_trace_parse_u64(v.s, v.n, &out->u);
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
int dv_trace_parse_insn_fields(const char *line, size_t len, size_t pos, tok_t t, const dv_kernel_info_t *info,
                             where_t w, dv_insn_t *out, dv_error_t *err)
{
    int mcol = tok_col(line, t);
    dv_op_t op = dv_trace_op_find(t.s, t.n);
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
    dv_trace_names_init();
    if (!tok_next(line, len, &pos, &t))
        return dv_error_set(err, DV_ERR_PARSE, file, lineno, (int)len + 1, "expected an instruction");
    return dv_trace_parse_insn_fields(line, len, pos, t, info, w, out, err);
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
