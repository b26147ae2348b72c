/* whatif/sweep_spec.c - step 1 of a sweep (dv/sweep.h): the spec file of docs/SWEEP.md, read in
 * one pass over the YAML document in the order the points are made:
 *   1. the top-level keys (profile, workloads, axes, mode, description), unknown and duplicate keys
 *   2. the base profile: a built-in preset, else a profile file (the spec's directory, then cwd)
 *   3. the workloads: an operator string (parsed by the operator's own parser), a trace or a graph
 *   4. the axes: keys of the profile schema, each a list of values or a range; every value checked
 *      against the schema on its own, then the combinations (cartesian or zip)
 *   5. every point, in index order: its profile built and validated, its workload planned on it
 * Every error carries the spec's file and line, the axis or workload, and the point. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#include "dv/trace.h"
#include "dv/yamldoc.h"
#include "dv/file.h"
#include "sweep_internal.h"

enum { MSG_MAX = 700 };

typedef struct reader {
    dv_yaml_reader_t y;               /* path, document, error, prefix of messages ("workload 'mm': ") */
    dv_sweep_t *s;
    char dir[DV_SWEEP_PATH_MAX];      /* the spec's directory, "" for the current one */
    int axes_line;                    /* of the `axes:` key */
} reader_t;

/* ---------------------------------------------------------------- shared helpers */

uint64_t sw_fnv(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t fnv_str(uint64_t h, const char *s) { return sw_fnv(h, s, strlen(s) + 1); }


/* ---------------------------------------------------------------- messages */

/* The same at a line (the points are checked after the YAML is gone). */
static int line_error(const reader_t *rd, int code, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int line_error(const reader_t *rd, int code, int line, const char *fmt, ...)
{
    char msg[MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return dv_error_set(rd->y.err, code, rd->y.path, line, 0, "%s", msg);
}

/* An inner error (a profile, trace or graph file, an operator's parser) as "file:line: msg". */
static void inner(const dv_error_t *e, char *buf, size_t cap)
{
    if (e->file[0] && e->line > 0)
        snprintf(buf, cap, "%.200s:%d: %.380s", e->file, e->line, e->msg);
    else if (e->file[0] && strcmp(e->file, "--set") != 0)
        snprintf(buf, cap, "%.200s: %.380s", e->file, e->msg);
    else
        snprintf(buf, cap, "%.590s", e->msg);
}

/* " (did you mean 'x'?)" for the candidate nearest to word, when near enough; else "". */
typedef struct hint {
    char text[160];
    size_t dist;
} hint_t;

static void hint_consider(hint_t *h, const char *word, const char *cand)
{
    const size_t len = strlen(word), limit = len <= 2 ? 0 : len <= 3 ? 1 : len / 4 + 1;
    const size_t d = dv_edit_distance(word, cand, limit);
    if (d <= limit && d < h->dist) {
        h->dist = d;
        snprintf(h->text, sizeof h->text, " (did you mean '%s'?)", cand);
    }
}

/* ---------------------------------------------------------------- YAML */

static bool quoted(const yaml_node_t *n)
{
    return n->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
           n->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
}

/* ---------------------------------------------------------------- files next to the spec */

static bool readable(const char *path) { return access(path, R_OK) == 0; }

/* A file named in the spec: relative to the spec's directory, else to the current directory. */
static int find_file(reader_t *rd, const yaml_node_t *at, const char *name, const char *what, char *out)
{
    char beside[2 * DV_SWEEP_PATH_MAX + 2];
    if (strlen(name) + strlen(rd->dir) + 2 > DV_SWEEP_PATH_MAX)
        return dv_yaml_error(&rd->y, DV_ERR_RANGE, at, "%s '%.80s...': the path is too long", what, name);
    if (name[0] == '/') {
        if (!readable(name))
            return dv_yaml_error(&rd->y, DV_ERR_IO, at, "%s '%s' cannot be read: %s", what, name, strerror(errno));
        snprintf(out, DV_SWEEP_PATH_MAX, "%s", name);
        return DV_OK;
    }
    snprintf(beside, sizeof beside, "%s%s%s", rd->dir, rd->dir[0] ? "/" : "", name);
    if (readable(beside)) {
        snprintf(out, DV_SWEEP_PATH_MAX, "%.*s", DV_SWEEP_PATH_MAX - 1, beside);
        return DV_OK;
    }
    if (rd->dir[0] && readable(name)) {
        snprintf(out, DV_SWEEP_PATH_MAX, "%s", name);
        return DV_OK;
    }
    if (rd->dir[0])
        return dv_yaml_error(&rd->y, DV_ERR_IO, at,
                             "%s '%s' not found (looked for %s, then %s in the current directory)", what,
                        name, beside, name);
    return dv_yaml_error(&rd->y, DV_ERR_IO, at, "%s '%s' not found in the current directory", what, name);
}

/* ---------------------------------------------------------------- 2. the profile */

static int read_profile(reader_t *rd, const yaml_node_t *n)
{
    dv_sweep_t *s = rd->s;
    const char *const *names = dv_profile_names();
    dv_error_t e;
    char msg[MSG_MAX - 100];
    int rc;
    if (!n) { /* the default preset */
        snprintf(s->profile, sizeof s->profile, "%s", names[0]);
        return dv_config_preset(&s->base, names[0], rd->y.err);
    }
    const char *name = dv_yaml_scalar(&rd->y, n, "profile", &rc);
    if (!name)
        return rc;
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0) {
            snprintf(s->profile, sizeof s->profile, "%s", name);
            return dv_config_preset(&s->base, name, rd->y.err);
        }
    char beside[2 * DV_SWEEP_PATH_MAX + 2];
    snprintf(beside, sizeof beside, "%s%s%s", rd->dir, rd->dir[0] ? "/" : "", name);
    if (strchr(name, '/') || strstr(name, ".yaml") || strstr(name, ".yml") || readable(beside) || readable(name)) {
        if ((rc = find_file(rd, n, name, "profile file", s->profile)) != DV_OK)
            return rc;
        s->profile_is_file = true;
        if (dv_config_load_file(&s->base, s->profile, &e) != DV_OK) {
            inner(&e, msg, sizeof msg);
            return dv_yaml_error(&rd->y, e.code, n, "profile: %s", msg);
        }
        return DV_OK;
    }
    hint_t h = {"", (size_t)-1};
    char list[256] = "";
    for (int i = 0; names[i]; i++) {
        hint_consider(&h, name, names[i]);
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
    }
    return dv_yaml_error(&rd->y, DV_ERR_UNKNOWN, n,
                         "profile: '%s' is not a built-in preset%s (the presets are %s; a profile "
                    "file is named by a path ending in .yaml)", name, h.text, list);
}

/* ---------------------------------------------------------------- 3. the workloads */

static const char *const kinds[] = {"op", "trace", "fusion"};

/* [A-Za-z_][A-Za-z0-9_.-]*: a name results.csv can hold without quoting. */
static bool valid_name(const char *s, size_t max)
{
    bool ok = s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z');
    for (const char *p = s; ok && *p; p++)
        ok = *p == '_' || *p == '.' || *p == '-' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
             (*p >= '0' && *p <= '9');
    return ok && strlen(s) < max;
}

/* Split an operator string at blanks: the operator's name, then its parameters as typed. */
static int split_op(reader_t *rd, const yaml_node_t *at, const char *text, dv_sweep_workload_t *w)
{
    size_t ntok = 0;
    for (const char *p = text; *p;) {
        p += strspn(p, " \t");
        if (*p) {
            ntok++;
            p += strcspn(p, " \t");
        }
    }
    if (ntok == 0)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, at,
                             "op: empty operator string (expected \"NAME --PARAM VALUE ...\")");
    if (!(w->argv = calloc(ntok, sizeof *w->argv)))
        return dv_yaml_error(&rd->y, DV_ERR_NOMEM, at, "out of memory");
    for (const char *p = text; *p;) {
        p += strspn(p, " \t");
        const size_t n = strcspn(p, " \t");
        if (n && !(w->argv[w->argc++] = strndup(p, n)))
            return dv_yaml_error(&rd->y, DV_ERR_NOMEM, at, "out of memory");
        p += n;
    }
    return DV_OK;
}

static int read_op(reader_t *rd, const yaml_node_t *n, const char *text, dv_sweep_workload_t *w)
{
    int rc = split_op(rd, n, text, w);
    if (rc != DV_OK)
        return rc;
    sw_op_t *o = calloc(1, sizeof *o);
    if (!(w->priv = o))
        return dv_yaml_error(&rd->y, DV_ERR_NOMEM, n, "out of memory");
    if (!(o->op = dv_ops_find(w->argv[0]))) {
        hint_t h = {"", (size_t)-1};
        for (const dv_opdesc_t *const *op = dv_ops_all(); *op; op++)
            hint_consider(&h, w->argv[0], (*op)->name);
        return dv_yaml_error(&rd->y, DV_ERR_UNKNOWN, n, "op: unknown operator '%s'%s (dvsim op --list lists them)",
                             w->argv[0],
                        h.text);
    }
    dv_error_t e;
    if (dv_ops_parse(o->op, w->argc - 1, w->argv + 1, &o->vals, &e) != DV_OK)
        return dv_yaml_error(&rd->y, e.code, n, "op: %s", e.msg);
    return DV_OK;
}

static int read_trace(reader_t *rd, const yaml_node_t *n, const char *text, dv_sweep_workload_t *w)
{
    char msg[MSG_MAX - 100];
    dv_error_t e;
    dv_kernel_t *k = NULL;
    int rc = find_file(rd, n, text, "trace", w->path);
    if (rc != DV_OK)
        return rc;
    if (dv_trace_open(w->path, &k, &e) != DV_OK) {
        inner(&e, msg, sizeof msg);
        return dv_yaml_error(&rd->y, e.code, n, "trace: %s", msg);
    }
    w->priv = k;
    return DV_OK;
}

static int read_fusion(reader_t *rd, const yaml_node_t *n, const char *text, dv_sweep_workload_t *w)
{
    char msg[MSG_MAX - 100];
    dv_error_t e;
    int rc = find_file(rd, n, text, "graph", w->path);
    if (rc != DV_OK)
        return rc;
    dv_graph_t *g = calloc(1, sizeof *g);
    if (!(w->priv = g))
        return dv_yaml_error(&rd->y, DV_ERR_NOMEM, n, "out of memory");
    if (dv_graph_load(w->path, g, &e) != DV_OK) {
        inner(&e, msg, sizeof msg);
        return dv_yaml_error(&rd->y, e.code, n, "fusion: %s", msg);
    }
    return DV_OK;
}

static int read_workload(reader_t *rd, int idx, const yaml_node_t *entry)
{
    dv_sweep_workload_t *w = &rd->s->workload[idx];
    const yaml_node_t *name = NULL, *kind = NULL, *kindkey = NULL;
    const char *text;
    int rc;
    snprintf(rd->y.ctx, sizeof rd->y.ctx, "workload %d: ", idx + 1);
    w->line = (int)entry->start_mark.line + 1;
    if (entry->type != YAML_MAPPING_NODE)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, entry,
                             "expected a mapping {name: N, op: \"...\"} (or trace: FILE, fusion: "
                        "GRAPH), got %s", dv_yaml_kind(entry));
    for (const yaml_node_pair_t *p = entry->data.mapping.pairs.start; p < entry->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = dv_yaml_node(&rd->y, p->key);
        const char *key = dv_yaml_scalar(&rd->y, k, "a key", &rc);
        if (!key)
            return rc;
        if (strcmp(key, "name") == 0) {
            if (name)
                return dv_yaml_error(&rd->y, DV_ERR_PARSE, k, "duplicate key 'name' (first at line %d)",
                                (int)name->start_mark.line + 1);
            name = dv_yaml_node(&rd->y, p->value);
            continue;
        }
        int i = 0;
        while (i < 3 && strcmp(kinds[i], key) != 0)
            i++;
        if (i == 3) {
            hint_t h = {"", (size_t)-1};
            for (int j = 0; j < 3; j++)
                hint_consider(&h, key, kinds[j]);
            hint_consider(&h, key, "name");
            return dv_yaml_error(&rd->y, DV_ERR_UNKNOWN, k,
                                 "unknown workload kind '%s'%s (a workload is {name: N, op: \"NAME "
                            "--PARAM VALUE ...\"}, {name: N, trace: FILE} or {name: N, fusion: GRAPH})", key, h.text);
        }
        if (kind)
            return dv_yaml_error(&rd->y, DV_ERR_PARSE, k,
                                 "a workload has one kind, this one has '%s' (line %d) and '%s'",
                            (const char *)kindkey->data.scalar.value, (int)kindkey->start_mark.line + 1, key);
        kindkey = k;
        kind = dv_yaml_node(&rd->y, p->value);
        w->kind = (dv_sweep_kind_t)i;
    }
    if (!name)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, entry, "the workload has no 'name:'");
    if (!(text = dv_yaml_scalar(&rd->y, name, "name", &rc)))
        return rc;
    if (!valid_name(text, sizeof w->name))
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, name,
                             "name '%.80s' is not a valid workload name: a letter or '_', then "
                        "letters, digits, '_', '.' or '-', at most %d characters", text, (int)sizeof w->name - 1);
    for (int j = 0; j < idx; j++)
        if (strcmp(rd->s->workload[j].name, text) == 0)
            return dv_yaml_error(&rd->y, DV_ERR_PARSE, name,
                                 "the name '%s' is already used by the workload at line %d", text,
                            rd->s->workload[j].line);
    snprintf(w->name, sizeof w->name, "%s", text);
    snprintf(rd->y.ctx, sizeof rd->y.ctx, "workload '%s': ", w->name);
    if (!kind)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, entry,
                             "the workload has no kind: add op: \"NAME --PARAM VALUE ...\", trace: "
                        "FILE or fusion: GRAPH");
    if (!(text = dv_yaml_scalar(&rd->y, kind, kinds[w->kind], &rc)))
        return rc;
    if (strlen(text) >= sizeof w->source)
        return dv_yaml_error(&rd->y, DV_ERR_RANGE, kind, "%s: the value is longer than %d characters", kinds[w->kind],
                        (int)sizeof w->source - 1);
    snprintf(w->source, sizeof w->source, "%s", text);
    rc = w->kind == DV_SWEEP_OP ? read_op(rd, kind, text, w)
       : w->kind == DV_SWEEP_TRACE ? read_trace(rd, kind, text, w) : read_fusion(rd, kind, text, w);
    if (rc == DV_OK)
        rd->y.ctx[0] = '\0';
    return rc;
}

static int read_workloads(reader_t *rd, const yaml_node_t *seq)
{
    if (seq->type != YAML_SEQUENCE_NODE)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, seq,
                             "workloads: expected a sequence of {name: N, op: \"...\"}, got %s",
                        dv_yaml_kind(seq));
    const long n = seq->data.sequence.items.top - seq->data.sequence.items.start;
    if (n == 0)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, seq,
                             "workloads: the sequence is empty (at least one workload is needed)");
    if (!(rd->s->workload = calloc((size_t)n, sizeof *rd->s->workload)))
        return dv_yaml_error(&rd->y, DV_ERR_NOMEM, seq, "out of memory");
    for (long i = 0; i < n; i++) {
        rd->s->nworkloads = (int)i + 1; /* freed up to here on error */
        int rc = read_workload(rd, (int)i, dv_yaml_node(&rd->y, seq->data.sequence.items.start[i]));
        if (rc != DV_OK)
            return rc;
    }
    return DV_OK;
}

/* ---------------------------------------------------------------- 4. the axes */

/* The schema's own message without its "section.key: " prefix. */
static const char *strip_key(const char *msg, const char *key)
{
    const size_t n = strlen(key);
    return strncmp(msg, key, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ' ? msg + n + 2 : msg;
}

/* Add one value to axis a (text as written; at: where), in the form a profile prints it. */
static int add_value(reader_t *rd, dv_sweep_axis_t *a, const yaml_node_t *at, const char *text, bool is_quoted)
{
    char set[DV_SWEEP_VALUE_MAX + 200];
    dv_config_t tmp = rd->s->base;
    dv_error_t e;
    const int i = a->nvalues;
    if (i >= DV_SWEEP_MAX_AXIS_VALUES)
        return dv_yaml_error(&rd->y, DV_ERR_RANGE, at, "more than %d values (DV_SWEEP_MAX_AXIS_VALUES)",
                        DV_SWEEP_MAX_AXIS_VALUES);
    if (is_quoted && a->param->type != DV_PT_STR)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, at,
                             "value %d is the quoted string '%.40s'; write it without quotes", i + 1,
                        text);
    if (strlen(text) >= DV_SWEEP_VALUE_MAX)
        return dv_yaml_error(&rd->y, DV_ERR_RANGE, at, "value %d '%.40s...' is longer than %d characters", i + 1, text,
                        DV_SWEEP_VALUE_MAX - 1);
    snprintf(set, sizeof set, "%s=%s", a->key, text);
    if (dv_config_set(&tmp, set, &e) != DV_OK)
        return dv_yaml_error(&rd->y, e.code, at, "value %d ('%s'): %s", i + 1, text, strip_key(e.msg, a->key));
    dv_param_format(a->param, &tmp, a->value[i], DV_SWEEP_VALUE_MAX);
    a->value_line[i] = (int)at->start_mark.line + 1;
    a->nvalues++;
    return DV_OK;
}

/* An unsigned integer of a range (from, to, steps): plain decimal digits. */
static int range_u64(reader_t *rd, const yaml_node_t *n, const char *what, uint64_t *out)
{
    int rc;
    const char *t = dv_yaml_scalar(&rd->y, n, what, &rc);
    if (!t)
        return rc;
    char *end;
    errno = 0;
    const unsigned long long v = strtoull(t, &end, 10);
    if (!(t[0] >= '0' && t[0] <= '9') || *end || errno)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, n, "%s: '%.40s' is not a whole number >= 0", what, t);
    *out = v;
    return DV_OK;
}

__extension__ typedef unsigned __int128 u128;

static uint64_t value_u64(const dv_sweep_axis_t *a, int i) { return strtoull(a->value[i], NULL, 10); }

/* How far each value of a range may move (snap_values): less than half the distance to its
 * neighbours, so the values stay distinct and in order, and at most SLACK_MAX (the search is linear). */
enum { SLACK_MAX = 16384 };

static void set_slack(dv_sweep_axis_t *a)
{
    for (int i = 0; i < a->nvalues; i++) {
        uint64_t gap = UINT64_MAX;
        const uint64_t v = value_u64(a, i);
        for (int j = i - 1; j <= i + 1; j += 2)
            if (j >= 0 && j < a->nvalues) {
                const uint64_t w = value_u64(a, j), d = v > w ? v - w : w - v;
                gap = d < gap ? d : gap;
            }
        a->slack[i] = gap == UINT64_MAX ? SLACK_MAX : gap ? (gap - 1) / 2 : 0;
        if (a->slack[i] > SLACK_MAX)
            a->slack[i] = SLACK_MAX;
    }
}

/* {from: A, to: B, steps: N}: N values evenly spaced from A to B inclusive, each rounded to the
 * nearest integer (halves up); {from: A, to: B, factor: F}: A, A*F, A*F^2, ... up to B, rounded. */
static int read_range(reader_t *rd, dv_sweep_axis_t *a, const yaml_node_t *map)
{
    enum { R_FROM, R_TO, R_STEPS, R_FACTOR, R_COUNT };
    static const char *const keys[R_COUNT] = {"from", "to", "steps", "factor"};
    const yaml_node_t *kn[R_COUNT], *val[R_COUNT];
    uint64_t from, to, steps = 0;
    char text[DV_SWEEP_VALUE_MAX];
    int rc = dv_yaml_keys(&rd->y, map, "a range", keys, R_COUNT, kn, val);
    if (rc != DV_OK)
        return rc;
    if (a->param->type != DV_PT_U64)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, map,
                             "a range {from, to, steps} needs an integer key; list the values "
                        "instead: [a, b, ...]");
    if (!val[R_FROM] || !val[R_TO] || !val[R_STEPS] == !val[R_FACTOR])
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, map,
                             "a range is {from: A, to: B, steps: N} or {from: A, to: B, factor: F}");
    if ((rc = range_u64(rd, val[R_FROM], "from", &from)) || (rc = range_u64(rd, val[R_TO], "to", &to)))
        return rc;
    if (val[R_STEPS]) {
        if ((rc = range_u64(rd, val[R_STEPS], "steps", &steps)) != DV_OK)
            return rc;
        if (steps < 1 || steps > DV_SWEEP_MAX_AXIS_VALUES || (steps == 1 && from != to))
            return dv_yaml_error(&rd->y, DV_ERR_RANGE, val[R_STEPS],
                                 "steps: %llu; the number of values is 2 to %d (1 when "
                            "from equals to)", (unsigned long long)steps, DV_SWEEP_MAX_AXIS_VALUES);
        for (uint64_t i = 0; i < steps; i++) {
            const uint64_t span = from <= to ? to - from : from - to, den = steps > 1 ? steps - 1 : 1;
            const uint64_t off = (uint64_t)(((u128)span * i * 2 + den) / ((u128)den * 2));
            snprintf(text, sizeof text, "%llu", (unsigned long long)(from <= to ? from + off : from - off));
            if ((rc = add_value(rd, a, i == 0 ? val[R_FROM] : i + 1 == steps ? val[R_TO] : val[R_STEPS], text,
                                false)) != DV_OK)
                return rc;
        }
        set_slack(a);
        return DV_OK;
    }
    const char *ft = dv_yaml_scalar(&rd->y, val[R_FACTOR], "factor", &rc);
    if (!ft)
        return rc;
    char *end;
    const double f = strtod(ft, &end);
    if (*end || end == ft || !isfinite(f) || f <= 0 || f == 1)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, val[R_FACTOR], "factor: '%.40s' is not a number > 0 other than 1",
                             ft);
    if (from == 0 || (from < to && f < 1) || (from > to && f > 1))
        return dv_yaml_error(&rd->y, DV_ERR_RANGE, val[R_FACTOR], "factor %g never reaches %llu from %llu", f,
                        (unsigned long long)to, (unsigned long long)from);
    const double lo = (double)(from < to ? from : to) * (1 - 1e-12), hi = (double)(from < to ? to : from) * (1 + 1e-12);
    for (int i = 0;; i++) {
        const double v = (double)from * pow(f, i);
        if (v < lo || v > hi || v >= 18446744073709551615.0)
            break;
        snprintf(text, sizeof text, "%llu", (unsigned long long)llround(v));
        if ((rc = add_value(rd, a, i == 0 ? val[R_FROM] : val[R_FACTOR], text, false)) != DV_OK)
            return rc;
    }
    set_slack(a);
    return DV_OK;
}

/* A value listed twice in an axis would give the same point twice. */
static int check_distinct(reader_t *rd, const dv_sweep_axis_t *a, const yaml_node_t *at)
{
    for (int i = 1; i < a->nvalues; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(a->value[i], a->value[j]) == 0)
                return dv_yaml_error(&rd->y, DV_ERR_PARSE, at,
                                     "values %d and %d are both %s (line %d%s): every point would "
                                "run twice", j + 1, i + 1, a->value[i], a->value_line[i],
                                a->value_line[i] == a->value_line[j] ? ", a range rounded to the same integer; use "
                                "fewer steps" : "");
    return DV_OK;
}

static void suggest_key(const char *word, hint_t *h)
{
    int n;
    const dv_param_spec_t *specs = dv_param_specs(&n);
    char path[160];
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s.%s", specs[i].section, specs[i].key);
        hint_consider(h, word, path);
    }
}

static int read_axis(reader_t *rd, dv_sweep_axis_t *a, const yaml_node_t *k, const yaml_node_t *v)
{
    int rc;
    const char *key = dv_yaml_scalar(&rd->y, k, "an axis key", &rc);
    if (!key)
        return rc;
    a->line = (int)k->start_mark.line + 1;
    if (!(a->param = dv_param_find(key))) {
        hint_t h = {"", (size_t)-1};
        suggest_key(key, &h);
        return dv_yaml_error(&rd->y, DV_ERR_UNKNOWN, k,
                             "axis '%.100s': not a key of the profile schema%s (configs/SCHEMA.md "
                        "lists them as section.key)", key, h.text);
    }
    snprintf(a->key, sizeof a->key, "%s", key);
    snprintf(rd->y.ctx, sizeof rd->y.ctx, "axis %s: ", a->key);
    const long n = v->type == YAML_SEQUENCE_NODE ? v->data.sequence.items.top - v->data.sequence.items.start
                                                 : DV_SWEEP_MAX_AXIS_VALUES;
    if (v->type == YAML_SEQUENCE_NODE && n == 0)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, v, "the axis is empty (give at least one value)");
    if (n > DV_SWEEP_MAX_AXIS_VALUES)
        return dv_yaml_error(&rd->y, DV_ERR_RANGE, v, "%ld values, at most %d", n, DV_SWEEP_MAX_AXIS_VALUES);
    a->value = calloc((size_t)n, sizeof *a->value);
    a->value_line = calloc((size_t)n, sizeof *a->value_line);
    a->slack = calloc((size_t)n, sizeof *a->slack);
    if (!a->value || !a->value_line || !a->slack)
        return dv_yaml_error(&rd->y, DV_ERR_NOMEM, v, "out of memory");
    if (v->type == YAML_MAPPING_NODE)
        rc = read_range(rd, a, v);
    else if (v->type == YAML_SEQUENCE_NODE)
        for (long i = 0; i < n && rc == DV_OK; i++) {
            const yaml_node_t *item = dv_yaml_node(&rd->y, v->data.sequence.items.start[i]);
            const char *t = dv_yaml_scalar(&rd->y, item, "a value", &rc);
            if (t)
                rc = add_value(rd, a, item, t, quoted(item));
        }
    else
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, v,
                             "expected a list of values [a, b, ...] or a range {from: A, to: B, "
                        "steps: N}, got a single value (write [%s] for one)", (const char *)v->data.scalar.value);
    if (rc == DV_OK && !rd->s->zip)
        rc = check_distinct(rd, a, k);
    if (rc == DV_OK)
        rd->y.ctx[0] = '\0';
    return rc;
}

static int read_axes(reader_t *rd, const yaml_node_t *map)
{
    dv_sweep_t *s = rd->s;
    if (map->type != YAML_MAPPING_NODE)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, map, "axes: expected a mapping of profile keys to values, got %s",
                        dv_yaml_kind(map));
    const long n = map->data.mapping.pairs.top - map->data.mapping.pairs.start;
    if (n && !(s->axis = calloc((size_t)n, sizeof *s->axis)))
        return dv_yaml_error(&rd->y, DV_ERR_NOMEM, map, "out of memory");
    for (long i = 0; i < n; i++) {
        const yaml_node_pair_t *p = &map->data.mapping.pairs.start[i];
        const yaml_node_t *k = dv_yaml_node(&rd->y, p->key);
        s->naxes = (int)i + 1; /* freed up to here on error */
        int rc = read_axis(rd, &s->axis[i], k, dv_yaml_node(&rd->y, p->value));
        if (rc != DV_OK)
            return rc;
        for (long j = 0; j < i; j++)
            if (strcmp(s->axis[j].key, s->axis[i].key) == 0)
                return dv_yaml_error(&rd->y, DV_ERR_PARSE, k, "duplicate axis '%s' (first at line %d)", s->axis[i].key,
                                s->axis[j].line);
    }
    return DV_OK;
}

/* The combinations: the product of the axes' lengths, or their common length (zip). */
static int count_points(reader_t *rd)
{
    dv_sweep_t *s = rd->s;
    s->ncombos = 1;
    for (int i = 0; i < s->naxes; i++) {
        const dv_sweep_axis_t *a = &s->axis[i];
        if (s->zip) {
            if (i > 0 && a->nvalues != s->axis[0].nvalues)
                return line_error(rd, DV_ERR_PARSE, a->line, "axis %s: %d values, but axis %s (line %d) has %d: mode "
                                  "zip pairs the i-th values of every axis, so they need as many values", a->key,
                                  a->nvalues, s->axis[0].key, s->axis[0].line, s->axis[0].nvalues);
            s->ncombos = (uint64_t)a->nvalues;
        } else if ((s->ncombos *= (uint64_t)a->nvalues) > DV_SWEEP_MAX_POINTS) {
            return line_error(rd, DV_ERR_RANGE, a->line, "axis %s: more than %u combinations (DV_SWEEP_MAX_POINTS)",
                              a->key, DV_SWEEP_MAX_POINTS);
        }
    }
    if (s->zip) /* the same point twice */
        for (uint64_t c = 1; c < s->ncombos; c++)
            for (uint64_t d = 0; d < c; d++) {
                int same = 1;
                for (int i = 0; i < s->naxes && same; i++)
                    same = strcmp(s->axis[i].value[c], s->axis[i].value[d]) == 0;
                if (same)
                    return line_error(rd, DV_ERR_PARSE, s->axis[0].value_line[c], "mode zip: combinations %llu and "
                                      "%llu are the same point", (unsigned long long)d + 1, (unsigned long long)c + 1);
            }
    s->npoints = s->ncombos * (uint64_t)s->nworkloads;
    if (s->npoints > DV_SWEEP_MAX_POINTS)
        return line_error(rd, DV_ERR_RANGE, rd->axes_line, "%llu points (%d workloads x %llu combinations), at most %u",
                          (unsigned long long)s->npoints, s->nworkloads, (unsigned long long)s->ncombos,
                          DV_SWEEP_MAX_POINTS);
    return DV_OK;
}

/* ---------------------------------------------------------------- points */

/* Index into axis a's values of combination c. */
static int value_index(const dv_sweep_t *s, uint64_t c, int a)
{
    if (s->zip)
        return (int)c;
    for (int i = s->naxes - 1; i > a; i--)
        c /= (uint64_t)s->axis[i].nvalues;
    return (int)(c % (uint64_t)s->axis[a].nvalues);
}

const char *dv_sweep_value(const dv_sweep_t *s, uint64_t p, int a)
{
    return s->axis[a].value[value_index(s, p % s->ncombos, a)];
}

const dv_sweep_workload_t *dv_sweep_point_workload(const dv_sweep_t *s, uint64_t p)
{
    return &s->workload[p / s->ncombos];
}

void dv_sweep_describe(const dv_sweep_t *s, uint64_t p, char *buf, size_t cap)
{
    size_t n = (size_t)snprintf(buf, cap, "workload %s", dv_sweep_point_workload(s, p)->name);
    for (int a = 0; a < s->naxes && n < cap; a++)
        n += (size_t)snprintf(buf + n, cap - n, ", %s=%s", s->axis[a].key, dv_sweep_value(s, p, a));
}

int dv_sweep_profile(const dv_sweep_t *s, uint64_t p, dv_config_t *cfg, dv_error_t *err)
{
    char set[256];
    *cfg = s->base;
    for (int a = 0; a < s->naxes; a++) {
        snprintf(set, sizeof set, "%s=%s", s->axis[a].key, dv_sweep_value(s, p, a));
        int rc = dv_config_set(cfg, set, err);
        if (rc != DV_OK)
            return rc;
    }
    return dv_config_validate(cfg, err);
}

/* The axis a profile message is about: the first whose key it names, else none (-1). */
static int axis_named(const dv_sweep_t *s, const char *msg)
{
    for (int a = 0; a < s->naxes; a++) {
        const char *at = strstr(msg, s->axis[a].key);
        const size_t n = strlen(s->axis[a].key);
        if (at && (at[n] == '\0' || at[n] == ' ' || at[n] == ','))
            return a;
    }
    return -1;
}

/* Plan point p's workload on its profile, as the run will (nothing runs). */
static int plan_point(const dv_sweep_workload_t *w, const dv_config_t *cfg, dv_error_t *e)
{
    static dv_op_plan_t plan;
    static dv_graph_t rewritten;
    static dv_folds_t folds;
    static dv_fplan_t fplan;
    switch (w->kind) {
    case DV_SWEEP_OP: {
        const sw_op_t *o = w->priv;
        return dv_ops_plan(o->op, cfg, &o->vals, &plan, e);
    }
    case DV_SWEEP_TRACE:
        return dv_trace_check_profile(w->priv, cfg, e);
    case DV_SWEEP_FUSION: {
        dv_fusion_opts_t fo;
        dv_fusion_opts_default(&fo);
        int rc = dv_fusion_fold(w->priv, cfg, &rewritten, &folds, e);
        if (rc == DV_OK)
            rc = dv_fusion_plan(w->priv, cfg, &fo, &fplan, e);
        if (rc == DV_OK)
            rc = dv_fusion_plan(&rewritten, cfg, &fo, &fplan, e);
        return rc;
    }
    }
    return dv_error_set(e, DV_ERR_STATE, NULL, 0, 0, "unknown workload kind");
}

/* Every combination in list[0..n) gives a valid profile?  The one that fails first moves to the
 * front, since the next candidate value most likely fails there too. */
static bool combos_valid(const dv_sweep_t *s, uint64_t *list, uint64_t n, dv_error_t *e)
{
    dv_config_t cfg;
    for (uint64_t k = 0; k < n; k++)
        if (dv_sweep_profile(s, list[k], &cfg, e) != DV_OK) {
            const uint64_t t = list[0];
            list[0] = list[k];
            list[k] = t;
            return false;
        }
    return true;
}

/* A value a range generated that makes a point's profile invalid (core.ub_size_bytes = 131072 on a
 * chip of 48 banks x 32 B rows) moves to the nearest integer within its slack for which every
 * point using it is valid (130560); ties go down.  A listed value never moves: its points fail in
 * check_points.  Each move is a note in s->notes. */
static int snap_values(reader_t *rd)
{
    dv_sweep_t *s = rd->s;
    char note[MSG_MAX + 200], orig[DV_SWEEP_VALUE_MAX];
    size_t used = s->notes ? strlen(s->notes) : 0;
    uint64_t *list = NULL;
    int rc = DV_OK;
    dv_error_t e;
    for (int a = 0; a < s->naxes && rc == DV_OK; a++) {
        dv_sweep_axis_t *ax = &s->axis[a];
        for (int i = 0; i < ax->nvalues && rc == DV_OK; i++) {
            if (!ax->slack[i])
                continue;
            uint64_t n = 0;
            free(list);
            if (!(list = malloc((s->ncombos ? s->ncombos : 1) * sizeof *list)))
                return line_error(rd, DV_ERR_NOMEM, ax->line, "out of memory");
            for (uint64_t c = 0; c < s->ncombos; c++)
                if (value_index(s, c, a) == i)
                    list[n++] = c;
            if (combos_valid(s, list, n, &e))
                continue;
            const dv_error_t why = e;
            const uint64_t v = value_u64(ax, i);
            bool found = false;
            snprintf(orig, sizeof orig, "%s", ax->value[i]);
            for (uint64_t d = 1; d <= ax->slack[i] && !found; d++)
                for (int up = 0; up < 2 && !found; up++) {
                    const uint64_t w = up ? v + d : v - d;
                    if ((up ? w < v : w > v) || w < ax->param->min || w > ax->param->max)
                        continue;
                    snprintf(ax->value[i], DV_SWEEP_VALUE_MAX, "%llu", (unsigned long long)w);
                    found = combos_valid(s, list, n, &e);
                }
            if (!found) {
                snprintf(ax->value[i], DV_SWEEP_VALUE_MAX, "%s", orig);
                continue;
            }
            int k = snprintf(note, sizeof note, "%.300s:%d: axis %s: the range's value %s moved to %s, the nearest "
                             "value for which every point's profile is valid (%.400s)\n", rd->y.path,
                             ax->value_line[i], ax->key, orig, ax->value[i], why.msg);
            if (k >= (int)sizeof note)
                k = (int)sizeof note - 1;
            char *grown = realloc(s->notes, used + (size_t)k + 1);
            if (!grown) {
                rc = line_error(rd, DV_ERR_NOMEM, ax->line, "out of memory");
                break;
            }
            s->notes = grown;
            memcpy(s->notes + used, note, (size_t)k + 1);
            used += (size_t)k;
        }
    }
    free(list);
    return rc;
}

static int check_points(reader_t *rd)
{
    const dv_sweep_t *s = rd->s;
    char where[MSG_MAX / 2], msg[MSG_MAX - 100];
    dv_config_t cfg;
    dv_error_t e;
    for (uint64_t p = 0; p < s->npoints; p++) {
        const dv_sweep_workload_t *w = dv_sweep_point_workload(s, p);
        memset(&e, 0, sizeof e);
        dv_sweep_describe(s, p, where, sizeof where);
        if (dv_sweep_profile(s, p, &cfg, &e) != DV_OK) {
            const int a = axis_named(s, e.msg);
            inner(&e, msg, sizeof msg);
            if (a >= 0)
                return line_error(rd, e.code, s->axis[a].line, "axis %s: point %llu (%s): %s", s->axis[a].key,
                                  (unsigned long long)p, where, msg);
            return line_error(rd, e.code, s->naxes ? rd->axes_line : w->line, "point %llu (%s): %s",
                              (unsigned long long)p, where, msg);
        }
        if (plan_point(w, &cfg, &e) != DV_OK) {
            inner(&e, msg, sizeof msg);
            return line_error(rd, e.code ? e.code : DV_ERR_RANGE, w->line, "workload '%s' (%s %s): point %llu (%s): %s",
                              w->name, kinds[w->kind], w->kind == DV_SWEEP_OP ? w->argv[0] : w->source,
                              (unsigned long long)p, where, msg);
        }
    }
    return DV_OK;
}

/* Everything that makes the points: the base profile's every value, the workloads (and the bytes of
 * their files), the mode and the axes' values.  A sweep directory keeps it to refuse another sweep. */
static int hash_points(reader_t *rd)
{
    dv_sweep_t *s = rd->s;
    uint64_t h = fnv_str(SW_FNV_OFFSET, "dvsim sweep points 1");
    int n;
    const dv_param_spec_t *specs = dv_param_specs(&n);
    char v[128];
    for (int i = 0; i < n; i++) {
        dv_param_format(&specs[i], &s->base, v, sizeof v);
        h = fnv_str(fnv_str(fnv_str(h, specs[i].section), specs[i].key), v);
    }
    for (int i = 0; i < s->nworkloads; i++) {
        const dv_sweep_workload_t *w = &s->workload[i];
        h = fnv_str(fnv_str(fnv_str(h, w->name), kinds[w->kind]), w->source);
        if (w->kind != DV_SWEEP_OP) {
            char *text;
            size_t len;
            int rc = dv_read_file(w->path, w->kind == DV_SWEEP_TRACE ? "the trace" : "the graph", &text, &len,
                                  rd->y.err);
            if (rc != DV_OK)
                return rc;
            h = sw_fnv(h, text, len);
            free(text);
        }
    }
    h = fnv_str(h, s->zip ? "zip" : "cartesian");
    for (int a = 0; a < s->naxes; a++) {
        h = fnv_str(h, s->axis[a].key);
        for (int i = 0; i < s->axis[a].nvalues; i++)
            h = fnv_str(h, s->axis[a].value[i]);
    }
    s->hash = h;
    return DV_OK;
}

/* ---------------------------------------------------------------- the top level */

static int read_spec(reader_t *rd)
{
    enum { T_PROFILE, T_WORKLOADS, T_AXES, T_MODE, T_DESC, T_COUNT };
    static const char *const keys[T_COUNT] = {"profile", "workloads", "axes", "mode", "description"};
    const yaml_node_t *root = yaml_document_get_root_node(rd->y.doc), *kn[T_COUNT], *val[T_COUNT];
    int rc;
    if (!root)
        return dv_error_set(rd->y.err, DV_ERR_PARSE, rd->y.path, 1, 1,
                            "empty sweep spec: expected profile:, workloads: and axes:");
    if (root->type != YAML_MAPPING_NODE)
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, root,
                             "a sweep spec is a mapping (profile:, workloads:, axes:, mode:), "
                        "got %s", dv_yaml_kind(root));
    if ((rc = dv_yaml_keys(&rd->y, root, "the spec", keys, T_COUNT, kn, val)) != DV_OK)
        return rc;
    if (!val[T_WORKLOADS])
        return dv_yaml_error(&rd->y, DV_ERR_PARSE, root, "the spec has no 'workloads:'");
    if (val[T_DESC] && !dv_yaml_scalar(&rd->y, val[T_DESC], "description", &rc))
        return rc;
    if (val[T_MODE]) {
        const char *m = dv_yaml_scalar(&rd->y, val[T_MODE], "mode", &rc);
        if (!m)
            return rc;
        if (strcmp(m, "cartesian") != 0 && strcmp(m, "zip") != 0) {
            hint_t h = {"", (size_t)-1};
            hint_consider(&h, m, "cartesian");
            hint_consider(&h, m, "zip");
            return dv_yaml_error(&rd->y, DV_ERR_UNKNOWN, val[T_MODE], "mode: '%s' is not cartesian or zip%s", m,
                                 h.text);
        }
        rd->s->zip = m[0] == 'z';
    }
    rd->axes_line = kn[T_AXES] ? (int)kn[T_AXES]->start_mark.line + 1 : 0;
    if ((rc = read_profile(rd, val[T_PROFILE])) != DV_OK || (rc = read_workloads(rd, val[T_WORKLOADS])) != DV_OK)
        return rc;
    if (val[T_AXES] && !(val[T_AXES]->type == YAML_SCALAR_NODE && val[T_AXES]->data.scalar.length == 0) &&
        (rc = read_axes(rd, val[T_AXES])) != DV_OK)
        return rc;
    return count_points(rd);
}

/* ---------------------------------------------------------------- public */

void dv_sweep_free(dv_sweep_t *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nworkloads; i++) {
        dv_sweep_workload_t *w = &s->workload[i];
        for (int j = 0; j < w->argc; j++)
            free(w->argv[j]);
        free(w->argv);
        if (w->kind == DV_SWEEP_TRACE && w->priv)
            dv_trace_close(w->priv);
        else
            free(w->priv);
    }
    free(s->workload);
    for (int a = 0; a < s->naxes; a++) {
        free(s->axis[a].value);
        free(s->axis[a].value_line);
        free(s->axis[a].slack);
    }
    free(s->notes);
    free(s->axis);
    free(s->text);
    free(s);
}

int dv_sweep_load(const char *path, dv_sweep_t **out, dv_error_t *err)
{
    yaml_document_t doc;
    reader_t rd;
    dv_sweep_t *s = calloc(1, sizeof *s);
    int rc;
    *out = NULL;
    if (!s)
        return dv_error_set(err, DV_ERR_NOMEM, path, 0, 0, "out of memory");
    const size_t plen = strlen(path);
    if (plen >= sizeof s->path) {
        rc = dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "the spec's path is longer than %d characters",
                          DV_SWEEP_PATH_MAX - 1);
        goto cleanup;
    }
    memcpy(s->path, path, plen + 1);
    memset(&rd, 0, sizeof rd);
    rd.y.path = s->path;
    rd.y.doc = &doc;
    rd.s = s;
    rd.y.err = err;
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(rd.dir, sizeof rd.dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    if ((rc = dv_read_file(path, "the sweep spec", &s->text, &s->len, err)) != DV_OK ||
        (rc = dv_yaml_load(&doc, s->text, s->len, path, "a sweep spec", err)) != DV_OK)
        goto cleanup;
    rc = read_spec(&rd);
    yaml_document_delete(&doc);
    /* 5. every point, before anything runs */
    if (rc == DV_OK && (rc = snap_values(&rd)) == DV_OK && (rc = check_points(&rd)) == DV_OK)
        rc = hash_points(&rd);
cleanup:
    if (rc == DV_OK)
        *out = s;
    else
        dv_sweep_free(s);
    return rc;
}
