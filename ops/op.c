/* ops/op.c - the operator library's common part: the registry (ops/ops.def), parameter parsing,
 * the common plan checks, --check tolerances and comparison, and helpers for operator code. */
#include "dv/ops.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/semantics.h"
#include "dv/topology.h"

/* ---------------------------------------------------------------- registry */

/* Weak so that a library built without one operator's file still links; the ops test asserts
 * that every row of ops.def is present. */
#define DV_OPERATOR(ident) extern const dv_opdesc_t dv_op_##ident __attribute__((weak));
#include "ops.def"

static const dv_opdesc_t *const table_ops[] = {
#define DV_OPERATOR(ident) &dv_op_##ident,
#include "ops.def"
};
#define NTABLE (sizeof table_ops / sizeof table_ops[0])

const dv_opdesc_t *const *dv_ops_all(void)
{
    static const dv_opdesc_t *list[NTABLE + 1];
    size_t n = 0;
    for (size_t i = 0; i < NTABLE; i++)
        if (table_ops[i])
            list[n++] = table_ops[i];
    list[n] = NULL;
    return list;
}

const dv_opdesc_t *dv_ops_find(const char *name)
{
    const dv_opdesc_t *const *all = dv_ops_all();
    for (int i = 0; all[i]; i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}

/* Rows of ops.def, present or not (for the completeness test). */
size_t dv_ops_table_rows(void) { return NTABLE; }

int dv_ops_param_index(const dv_opdesc_t *op, const char *name)
{
    for (int i = 0; i < op->nparams; i++)
        if (strcmp(op->params[i].name, name) == 0)
            return i;
    return -1;
}

/* ---------------------------------------------------------------- dtype names */

/* Operator parameters spell dtypes the framework way; the ISA names are accepted too. */
static const struct {
    const char *name;
    dv_dtype_t t;
} dtype_names[] = {
    {"fp16", DV_DT_F16}, {"bf16", DV_DT_BF16}, {"fp32", DV_DT_F32}, {"int8", DV_DT_S8}, {"uint8", DV_DT_U8},
    {"int16", DV_DT_S16}, {"uint16", DV_DT_U16}, {"int32", DV_DT_S32}, {"uint32", DV_DT_U32},
    {"f16", DV_DT_F16}, {"f32", DV_DT_F32}, {"s8", DV_DT_S8}, {"u8", DV_DT_U8}, {"s16", DV_DT_S16},
    {"u16", DV_DT_U16}, {"s32", DV_DT_S32}, {"u32", DV_DT_U32}, {"float16", DV_DT_F16}, {"half", DV_DT_F16},
    {"float32", DV_DT_F32}, {"float", DV_DT_F32}, {"bfloat16", DV_DT_BF16},
};

static const char *dtype_param_name(dv_dtype_t t)
{
    for (size_t i = 0; i < sizeof dtype_names / sizeof dtype_names[0]; i++)
        if (dtype_names[i].t == t)
            return dtype_names[i].name;
    return "?";
}

void dv_ops_dtype_list(uint32_t mask, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (int t = 0; t < DV_DT_COUNT; t++)
        if (mask & (1u << t))
            n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%s", n ? "|" : "", dtype_param_name((dv_dtype_t)t));
}

const char *dv_ops_dtype_name(dv_dtype_t t) { return dtype_param_name(t); }

/* ---------------------------------------------------------------- shapes and graph binding */

uint64_t dv_shape_elems(const dv_shape_t *s)
{
    uint64_t n = 1;
    for (int i = 0; i < s->ndims; i++)
        if (__builtin_mul_overflow(n, s->d[i], &n))
            return 0;
    return s->ndims ? n : 0;
}

void dv_shape_format(const dv_shape_t *s, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < s->ndims; i++)
        n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%llu", i ? "x" : "", (unsigned long long)s->d[i]);
}

int dv_ops_bind_same(const dv_opdesc_t *op, const dv_tensor_desc_t *in, int nin, dv_opvals_t *v,
                     dv_tensor_desc_t *out, dv_error_t *err)
{
    const int ps = dv_ops_param_index(op, "shape"), pd = dv_ops_param_index(op, "dtype");
    if (ps < 0 || pd < 0)
        return dv_error_set(err, DV_ERR_STATE, NULL, 0, 0, "%s has no shape or dtype parameter", op->name);
    for (int i = 1; i < nin; i++) {
        if (in[i].shape.ndims != in[0].shape.ndims || memcmp(in[i].shape.d, in[0].shape.d,
                                                              sizeof in[0].shape.d[0] * (size_t)in[0].shape.ndims)) {
            char a[96], b[96];
            dv_shape_format(&in[0].shape, a, sizeof a);
            dv_shape_format(&in[i].shape, b, sizeof b);
            return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input %d has shape %s, input 1 has %s: %s needs equal "
                                "shapes", i + 1, b, a, op->name);
        }
        if (in[i].dtype != in[0].dtype)
            return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input %d is %s, input 1 is %s: %s needs one dtype",
                                i + 1, dtype_param_name(in[i].dtype), dtype_param_name(in[0].dtype), op->name);
    }
    if (!(op->params[pd].dtypes & (1u << in[0].dtype))) {
        char list[128];
        dv_ops_dtype_list(op->params[pd].dtypes, list, sizeof list);
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input 1 is %s; %s takes %s", dtype_param_name(in[0].dtype),
                            op->name, list);
    }
    v->v[ps].shape = in[0].shape;
    v->given[ps] = true;
    v->v[pd].dt = in[0].dtype;
    v->given[pd] = true;
    *out = in[0];
    return DV_OK;
}

static int dtype_parse(const char *s, dv_dtype_t *t)
{
    for (size_t i = 0; i < sizeof dtype_names / sizeof dtype_names[0]; i++)
        if (strcmp(dtype_names[i].name, s) == 0) {
            *t = dtype_names[i].t;
            return 0;
        }
    return -1;
}


/* ---------------------------------------------------------------- values */

/* The shortest %g spelling of x that strtod reads back as x (17 significant digits always do);
 * integers below 2^53 in plain digits (1000, not 1e+03). */
static void format_double(double x, char *buf, size_t cap)
{
    if (x == nearbyint(x) && fabs(x) < 9007199254740992.0) {
        snprintf(buf, cap, "%.0f", x);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, cap, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            return;
    }
}

void dv_ops_format_range(const dv_oparam_spec_t *s, char *buf, size_t cap)
{
    char lo[32], hi[32];
    format_double(s->min, lo, sizeof lo);
    format_double(s->max, hi, sizeof hi);
    if (s->min == DV_FLOAT_ABOVE_0)
        snprintf(buf, cap, "(0, %s]", hi);
    else
        snprintf(buf, cap, "[%s, %s]", lo, hi);
}

void dv_ops_format_val(const dv_oparam_spec_t *s, const dv_oparam_val_t *v, char *buf, size_t cap)
{
    switch (s->type) {
    case DV_OPT_FLOAT: format_double(v->f, buf, cap); break;
    case DV_OPT_INT:
        if (v->i == 0 && strcmp(s->def, "auto") == 0)
            snprintf(buf, cap, "auto");
        else
            snprintf(buf, cap, "%lld", (long long)v->i);
        break;
    case DV_OPT_BOOL: snprintf(buf, cap, "%s", v->i ? "on" : "off"); break;
    case DV_OPT_DTYPE: snprintf(buf, cap, "%s", v->dt == DV_DT_AUTO ? "auto" : dtype_param_name(v->dt)); break;
    default: {
        size_t n = 0;
        buf[0] = 0;
        if (v->shape.ndims == 0 && strcmp(s->def, "auto") == 0)
            snprintf(buf, cap, "auto");
        for (int i = 0; i < v->shape.ndims; i++)
            n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%llu", i ? "x" : "",
                                  (unsigned long long)v->shape.d[i]);
        break;
    }
    }
}

static int parse_u64(const char *s, uint64_t *out)
{
    if (!isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = x;
    return 0;
}

static int parse_val(const dv_oparam_spec_t *s, const char *text, dv_oparam_val_t *v, dv_error_t *err)
{
    char buf[256];
    memset(v, 0, sizeof *v);
    switch (s->type) {
    case DV_OPT_INT: {
        uint64_t x;
        if (strcmp(text, "auto") == 0 && strcmp(s->def, "auto") == 0) {
            v->i = 0;
            return DV_OK;
        }
        const bool neg = text[0] == '-' && s->min < 0; /* a sign only where the range has negatives */
        if (parse_u64(text + neg, &x) != 0)
            return dv_ops_param_error(err, s->name, "'%s' is not a number%s", text,
                                      strcmp(s->def, "auto") == 0 ? " (or auto)" : "");
        const double d = neg ? -(double)x : (double)x;
        if (d < s->min || d > s->max || x > (uint64_t)INT64_MAX)
            return dv_ops_param_error(err, s->name, "%s is out of range [%lld, %lld]", text, (long long)s->min,
                                      (long long)s->max);
        v->i = neg ? -(int64_t)x : (int64_t)x;
        return DV_OK;
    }
    case DV_OPT_FLOAT: {
        char *end;
        const double x = strtod(text, &end);
        if (!*text || isspace((unsigned char)*text) || end == text || *end)
            return dv_ops_param_error(err, s->name, "'%s' is not a number", text);
        if (!isfinite(x))
            return dv_ops_param_error(err, s->name, "'%s' is not a finite number", text);
        if (x < s->min || x > s->max) {
            dv_ops_format_range(s, buf, sizeof buf);
            return dv_ops_param_error(err, s->name, "%s is out of range %s", text, buf);
        }
        v->f = x;
        return DV_OK;
    }
    case DV_OPT_BOOL:
        if (!strcmp(text, "on") || !strcmp(text, "true") || !strcmp(text, "1"))
            v->i = 1;
        else if (!strcmp(text, "off") || !strcmp(text, "false") || !strcmp(text, "0"))
            v->i = 0;
        else
            return dv_ops_param_error(err, s->name, "'%s' is not on or off", text);
        return DV_OK;
    case DV_OPT_DTYPE:
        dv_ops_dtype_list(s->dtypes, buf, sizeof buf);
        if (strcmp(text, "auto") == 0 && strcmp(s->def, "auto") == 0) {
            v->dt = DV_DT_AUTO;
            return DV_OK;
        }
        if (dtype_parse(text, &v->dt) != 0)
            return dv_ops_param_error(err, s->name, "unknown dtype '%s' (this operator takes %s)", text, buf);
        if (!(s->dtypes & (1u << v->dt)))
            return dv_ops_param_error(err, s->name, "dtype %s is not supported (this operator takes %s)", text, buf);
        return DV_OK;
    case DV_OPT_SHAPE:
    case DV_OPT_TILE: {
        if (strcmp(text, "auto") == 0 && strcmp(s->def, "auto") == 0) {
            v->shape.ndims = 0; /* the operator chooses */
            return DV_OK;
        }
        const char *p = text;
        int maxd = s->type == DV_OPT_TILE ? 2 : DV_SHAPE_MAX;
        while (*p) {
            char *end;
            if (!isdigit((unsigned char)*p))
                break;
            errno = 0;
            unsigned long long x = strtoull(p, &end, 10);
            if (errno || v->shape.ndims == maxd)
                break;
            if ((double)x < s->min || (double)x > s->max)
                return dv_ops_param_error(err, s->name, "dimension %llu of '%s' is out of range [%lld, %lld]", x, text,
                                          (long long)s->min, (long long)s->max);
            v->shape.d[v->shape.ndims++] = x;
            p = end;
            if (*p == 'x' && isdigit((unsigned char)p[1]))
                p++;
            else
                break;
        }
        if (*p || v->shape.ndims == 0 || (s->type == DV_OPT_TILE && v->shape.ndims != 2))
            return dv_ops_param_error(err, s->name, "'%s' is not a %s", text,
                                      s->type == DV_OPT_TILE ? "tile ROWSxCOLS" : "shape like 64x1024 (1 to 6 dimensions)");
        return DV_OK;
    }
    }
    return DV_ERR_STATE;
}

int dv_ops_parse(const dv_opdesc_t *op, int argc, char **argv, dv_opvals_t *vals, dv_error_t *err)
{
    memset(vals, 0, sizeof *vals);
    if (op->nparams > DV_OP_MAX_PARAMS)
        return dv_error_set(err, DV_ERR_STATE, NULL, 0, 0, "operator %s has too many parameters", op->name);
    for (int i = 0; i < op->nparams; i++) {
        int rc = parse_val(&op->params[i], op->params[i].def, &vals->v[i], err);
        if (rc != DV_OK)
            return dv_error_set(err, DV_ERR_STATE, NULL, 0, 0, "operator %s: bad default of --%s", op->name,
                                op->params[i].name);
    }
    for (int a = 0; a < argc; a++) {
        const char *name = argv[a];
        if (strncmp(name, "--", 2) != 0)
            return dv_error_set(err, DV_ERR_PARSE, NULL, 0, 0, "%s: expected --PARAMETER, got '%s'", op->name, name);
        name += 2;
        char key[64];
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        snprintf(key, sizeof key, "%.*s", (int)len, name);
        int i = dv_ops_param_index(op, key);
        if (i < 0)
            return dv_error_set(err, DV_ERR_UNKNOWN, NULL, 0, 0,
                                "%s has no parameter --%s (dvsim op --list shows every operator's parameters)",
                                op->name, key);
        const char *text;
        if (eq)
            text = eq + 1;
        else if (op->params[i].type == DV_OPT_BOOL &&
                 (a + 1 >= argc || strncmp(argv[a + 1], "--", 2) == 0))
            text = "on"; /* a bare flag */
        else if (a + 1 < argc)
            text = argv[++a];
        else {
            dv_ops_param_error(err, key, "needs a value");
            if (err) /* a usage error, as an option of dvsim's own without its value */
                err->code = DV_ERR_USAGE;
            return DV_ERR_USAGE;
        }
        if (vals->given[i])
            return dv_ops_param_error(err, key, "given twice");
        int rc = parse_val(&op->params[i], text, &vals->v[i], err);
        if (rc != DV_OK)
            return rc;
        vals->given[i] = true;
    }
    return DV_OK;
}

void dv_ops_print_params(const dv_opdesc_t *op, FILE *out)
{
    fprintf(out, "%s - %s\n", op->name, op->desc);
    for (int i = 0; i < op->nparams; i++) {
        const dv_oparam_spec_t *s = &op->params[i];
        char kind[160];
        switch (s->type) {
        case DV_OPT_INT: snprintf(kind, sizeof kind, "N in [%lld, %lld]", (long long)s->min, (long long)s->max); break;
        case DV_OPT_BOOL: snprintf(kind, sizeof kind, "on|off"); break;
        case DV_OPT_DTYPE: dv_ops_dtype_list(s->dtypes, kind, sizeof kind); break;
        case DV_OPT_SHAPE: snprintf(kind, sizeof kind, "AxBx..."); break;
        case DV_OPT_TILE: snprintf(kind, sizeof kind, "RxC"); break;
        case DV_OPT_FLOAT: {
            char range[120];
            dv_ops_format_range(s, range, sizeof range);
            snprintf(kind, sizeof kind, "x in %s", range);
            break;
        }
        }
        fprintf(out, "  --%-14s %-22s default %-10s %s\n", s->name, kind, s->def, s->desc);
    }
}

int dv_ops_param_error(dv_error_t *err, const char *param, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "--%s: %s", param, msg);
}

void dv_ops_tiling_row(dv_op_plan_t *plan, const char *key, const char *why, const char *fmt, ...)
{
    assert(plan->ntiling_rows < DV_OP_MAX_TILING_ROWS);
    if (plan->ntiling_rows >= DV_OP_MAX_TILING_ROWS)
        return;
    dv_op_tiling_row_t *r = &plan->tiling_rows[plan->ntiling_rows++];
    snprintf(r->key, sizeof r->key, "%s", key);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->val, sizeof r->val, fmt, ap);
    va_end(ap);
    snprintf(r->why, sizeof r->why, "%s", why ? why : "");
}

const char *dv_ops_thousands(uint64_t n, char *buf, size_t cap)
{
    char digits[24];
    const int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n);
    size_t o = 0;
    for (int i = 0; i < len && o + 1 < cap; i++) {
        if (i && (len - i) % 3 == 0 && o + 2 < cap)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    if (cap)
        buf[o < cap ? o : cap - 1] = '\0';
    return buf;
}

/* ---------------------------------------------------------------- plans */

uint32_t dv_ops_cores(const dv_config_t *cfg, dv_kind_t kind) { return dv_topo_kernel_cores(cfg, kind); }

int dv_ops_add_arg(dv_op_plan_t *plan, const char *name, dv_dtype_t t, uint64_t elems, dv_arg_dir_t dir, double lo,
                   double hi)
{
    if (plan->info.nargs >= DV_OP_MAX_ARGS)
        return DV_ERR_RANGE;
    dv_arg_t *a = &plan->args[plan->info.nargs];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", name);
    uint64_t size = dv_dtype_size(t);
    if (elems > UINT64_MAX / 64 / size)
        return DV_ERR_RANGE;
    a->bytes = dv_round_up(elems * size, 32);
    a->dtype = t;
    a->dir = dir;
    a->init = dir == DV_ARG_OUT ? DV_INIT_ZERO : DV_INIT_RANDOM;
    a->seed = plan->info.nargs + 1;
    a->lo = lo;
    a->hi = hi;
    plan->elems[plan->info.nargs] = elems;
    plan->info.args = plan->args;
    plan->info.nargs++;
    return DV_OK;
}

int dv_ops_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                dv_error_t *err)
{
    memset(plan, 0, sizeof *plan);
    plan->tol_scale = 1.0;
    plan->info.args = plan->args;
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    int rc = op->plan(op, cfg, v, plan, err);
    if (rc != DV_OK)
        return rc;
    plan->info.args = plan->args;
    plan->info.subs = dv_topo_kernel_subs(cfg, plan->info.kind);
    if (plan->info.subs == 0)
        return dv_error_set(err, DV_ERR_UNSUPPORTED, NULL, 0, 0, "%s: a %s kernel needs a split (AIC/AIV) chip",
                            op->name, dv_kind_name(plan->info.kind));
    if (plan->info.blocks == 0 || plan->info.blocks > 65535)
        return dv_ops_param_error(err, "cores", "%u blocks is out of range [1, 65535]", plan->info.blocks);
    /* the arguments, laid out as a run lays them out (512-B aligned), must fit in device memory */
    uint64_t total = 0;
    for (uint32_t i = 0; i < plan->info.nargs; i++)
        total += dv_round_up(plan->args[i].bytes, DV_GM_ALIGN);
    if (total > cfg->hbm_capacity_bytes) {
        char shape[64] = "";
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0,
                            "%s: the tensors need %llu bytes of device memory, hbm.capacity_bytes is %llu%s", op->name,
                            (unsigned long long)total, (unsigned long long)cfg->hbm_capacity_bytes, shape);
    }
    if (plan->tiling_bytes > sizeof plan->tiling)
        return dv_error_set(err, DV_ERR_STATE, NULL, 0, 0, "%s: tiling struct too large", op->name);
    return DV_OK;
}

int dv_ops_kernel(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_op_plan_t *plan, dv_kernel_t **out,
                  dv_error_t *err)
{
    const int rc = dvk_kernel_create(cfg, &plan->info, op->kernel, plan->tiling, plan->tiling_bytes, out, err);
    if (rc == DV_OK)
        dvk_kernel_on_fibers(*out); /* (C functions of their stream and tiling alone) */
    return rc;
}

/* ---------------------------------------------------------------- element access */

double dv_ops_load(const uint8_t *p, dv_dtype_t t, uint64_t i)
{
    switch (t) {
    case DV_DT_F16: { uint16_t h; memcpy(&h, p + 2 * i, 2); return dv_f16_to_f32(h); }
    case DV_DT_BF16: { uint16_t h; memcpy(&h, p + 2 * i, 2); return dv_bf16_to_f32(h); }
    case DV_DT_F32: { float f; memcpy(&f, p + 4 * i, 4); return f; }
    case DV_DT_S8: return (int8_t)p[i];
    case DV_DT_U8: return p[i];
    case DV_DT_S16: { int16_t x; memcpy(&x, p + 2 * i, 2); return x; }
    case DV_DT_U16: { uint16_t x; memcpy(&x, p + 2 * i, 2); return x; }
    case DV_DT_S32: { int32_t x; memcpy(&x, p + 4 * i, 4); return x; }
    case DV_DT_U32: { uint32_t x; memcpy(&x, p + 4 * i, 4); return x; }
    default: return 0;
    }
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

void dv_ops_store(uint8_t *p, dv_dtype_t t, uint64_t i, double v)
{
    double r = isnan(v) ? 0 : nearbyint(v);
    switch (t) {
    case DV_DT_F16: { uint16_t h = dv_f32_to_f16((float)v); memcpy(p + 2 * i, &h, 2); break; }
    case DV_DT_BF16: { uint16_t h = dv_f32_to_bf16((float)v); memcpy(p + 2 * i, &h, 2); break; }
    case DV_DT_F32: { float f = (float)v; memcpy(p + 4 * i, &f, 4); break; }
    case DV_DT_S8: p[i] = (uint8_t)(int8_t)clampd(r, -128, 127); break;
    case DV_DT_U8: p[i] = (uint8_t)clampd(r, 0, 255); break;
    case DV_DT_S16: { int16_t x = (int16_t)clampd(r, -32768, 32767); memcpy(p + 2 * i, &x, 2); break; }
    case DV_DT_U16: { uint16_t x = (uint16_t)clampd(r, 0, 65535); memcpy(p + 2 * i, &x, 2); break; }
    case DV_DT_S32: { int32_t x = (int32_t)clampd(r, -2147483648.0, 2147483647.0); memcpy(p + 4 * i, &x, 4); break; }
    case DV_DT_U32: { uint32_t x = (uint32_t)clampd(r, 0, 4294967295.0); memcpy(p + 4 * i, &x, 4); break; }
    default: break;
    }
}

double dv_ops_round(dv_dtype_t t, double v)
{
    uint8_t b[8];
    dv_ops_store(b, t, 0, v);
    return dv_ops_load(b, t, 0);
}

/* ---------------------------------------------------------------- checking */

/* --check tolerances: a few units in the last place of the output type, since the kernels round
 * intermediate results to the type they compute in and the references compute in double.  One row
 * per type; docs/OPS.md is generated from it. */
static const struct {
    dv_dtype_t t;
    double atol, rtol;
} tolerances[] = {
    {DV_DT_F16, 1e-3, 4e-3},  /* 2^-10 = 9.8e-4 is one ulp at 1.0 */
    {DV_DT_BF16, 8e-3, 3e-2}, /* 2^-7 = 7.8e-3 */
    {DV_DT_F32, 1e-5, 1e-4},
};

void dv_ops_tolerance(dv_dtype_t t, double *atol, double *rtol)
{
    *atol = *rtol = 0; /* integers: exact */
    for (size_t i = 0; i < sizeof tolerances / sizeof tolerances[0]; i++)
        if (tolerances[i].t == t) {
            *atol = tolerances[i].atol;
            *rtol = tolerances[i].rtol;
        }
}

void dv_ops_compare(dv_dtype_t t, uint64_t elems, const uint8_t *got, const uint8_t *want, double scale,
                    dv_check_result_t *r)
{
    double atol, rtol;
    dv_ops_tolerance(t, &atol, &rtol);
    atol *= scale;
    rtol *= scale;
    for (uint64_t i = 0; i < elems; i++) {
        double g = dv_ops_load(got, t, i), w = dv_ops_load(want, t, i);
        double d = fabs(g - w);
        bool bad;
        if (isnan(g) || isnan(w))
            bad = !(isnan(g) && isnan(w));
        else if (isinf(g) || isinf(w))
            bad = g != w;
        else
            bad = d > atol + rtol * fabs(w);
        if (!isnan(d) && !isinf(d)) {
            if (d > r->max_abs_err)
                r->max_abs_err = d;
            if (w != 0 && d / fabs(w) > r->max_rel_err)
                r->max_rel_err = d / fabs(w);
        }
        if (bad) {
            if (r->mismatches == 0) {
                r->first_bad = i;
                r->first_got = g;
                r->first_want = w;
            }
            r->mismatches++;
        }
    }
    r->compared += elems;
}

/* ---------------------------------------------------------------- kernel helpers */

void dv_ops_rows_move(dv_k_t *k, bool to_gm, uint64_t ub, uint64_t pitch, uint32_t arg, uint64_t off, uint64_t stride,
                      uint64_t n, uint64_t len)
{
    const uint64_t gap = stride - len, ub_gap = (pitch - dv_round_up(len, 32)) / 32;
    const bool pad = len % 32 != 0 || gap % 32 != 0;
    const dv_form_t form = pad ? DV_FORM_DMAPAD : DV_FORM_DMA;
    const uint64_t max_n = dv_ops_field_max(form, pad ? DV_FLD(DMAPAD, nburst) : DV_FLD(DMA, nburst));
    const uint64_t max_gap = dv_ops_field_max(form, pad ? DV_FLD(DMAPAD, src_gap) : DV_FLD(DMA, src_gap));
    const uint64_t max_ub_gap = dv_ops_field_max(form, pad ? DV_FLD(DMAPAD, dst_gap) : DV_FLD(DMA, dst_gap));
    const uint64_t gm_gap = pad ? gap : gap / 32, flen = pad ? len : len / 32;
    const bool batch = gm_gap <= max_gap && ub_gap <= max_ub_gap;
    for (uint64_t i = 0; i < n;) {
        const uint64_t nb = batch ? dv_min_u64(max_n, n - i) : 1;
        const int64_t g = nb > 1 ? (int64_t)gm_gap : 0, u = nb > 1 ? (int64_t)ub_gap : 0;
        const uint64_t a = ub + i * pitch, m = dvk_gm(k, arg, off + i * stride);
        if (to_gm && pad)
            dvk_copy_ubuf_to_gm_align(k, m, a, (int64_t)nb, (int64_t)flen, u, g);
        else if (to_gm)
            dvk_copy_ubuf_to_gm(k, m, a, (int64_t)nb, (int64_t)flen, u, g);
        else if (pad)
            dvk_copy_gm_to_ubuf_align(k, a, m, (int64_t)nb, (int64_t)flen, g, u, 0, 0, 1);
        else
            dvk_copy_gm_to_ubuf(k, a, m, (int64_t)nb, (int64_t)flen, g, u);
        i += nb;
    }
}

void dv_ops_block_span(dv_k_t *k, uint64_t elems, uint64_t unit, uint64_t *first, uint64_t *last)
{
    const uint64_t units = dv_ceil_div(elems, unit), nb = dvk_block_num(k), b = dvk_block_idx(k);
    *first = units * b / nb * unit;
    *last = dv_min_u64(units * (b + 1) / nb * unit, elems);
}

int dv_ops_check_hbm(const dv_config_t *cfg, uint64_t elems, unsigned size, dv_error_t *err)
{
    uint64_t bytes;
    if (__builtin_mul_overflow(elems, (uint64_t)size, &bytes) || bytes > cfg->hbm_capacity_bytes)
        return dv_ops_param_error(err, "shape", "one tensor of this shape has more bytes than hbm.capacity_bytes "
                                  "(%llu)", (unsigned long long)cfg->hbm_capacity_bytes);
    return DV_OK;
}
