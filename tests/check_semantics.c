/* tests/check_semantics.c - dv_exec against plain-C references written from docs/SEMANTICS.md,
 * plus hand-computed footprints, geometries and transfer shapes.
 *
 * The references below never call the geometry helpers of isa/semantics.c: every address is
 * computed here from the layout definitions, and numbers are rounded with the compiler's
 * _Float16 conversions, the C library and neighbour searches instead of dv_f32_to_f16. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/semantics.h"

/* ------------------------------------------------------------------ random numbers */

static uint64_t rng;
static void seed(uint64_t s) { rng = s * 0x9E3779B97F4A7C15ull + 1; }
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
static uint32_t rndn(uint32_t n) { return (uint32_t)(rnd() % n); }

/* ------------------------------------------------------------------ reference numbers */

static float h2f(uint16_t h)
{
    _Float16 x;
    memcpy(&x, &h, 2);
    return (float)x;
}
static uint16_t d2h(double d) /* correctly rounded double -> binary16 (libgcc soft-fp) */
{
    _Float16 x = (_Float16)d;
    uint16_t h;
    memcpy(&h, &x, 2);
    return h;
}
static float b2f(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Magnitude value of a positive bit pattern; infinity counts as the next power of two. */
static double val_h(uint32_t b) { return (b & 0x7fff) == 0x7c00 ? 65536.0 : (double)h2f((uint16_t)b); }
static double val_b(uint32_t b) { return (b & 0x7fff) == 0x7f80 ? ldexp(1, 128) : (double)b2f((uint16_t)b); }
static double val_f(uint32_t b) { return (b & 0x7fffffff) == 0x7f800000 ? ldexp(1, 128) : (double)bitsf(b); }

/* bf16 nearest-even by comparing the two neighbours (mag finite, >= 0). */
static uint32_t rne_b(double mag)
{
    uint32_t lo = fbits((float)mag) >> 16; /* float of a float value: exact in our uses */
    if (val_b(lo) == mag)
        return lo;
    double dl = mag - val_b(lo), du = val_b(lo + 1) - mag;
    if (dl < du)
        return lo;
    if (du < dl)
        return lo + 1;
    return (lo & 1) ? lo + 1 : lo;
}

/* Round magnitude mag to a format given its nearest-even pattern: the "obvious method". */
static uint32_t round_mag(double mag, uint32_t rne, uint32_t inf, double (*val)(uint32_t), int mode, bool neg)
{
    uint32_t lo, hi;
    if (isinf(mag))
        return inf;
    if (rne == inf) {
        lo = inf - 1;
        hi = inf;
    } else {
        if (val(rne) == mag)
            return rne;
        if (val(rne) < mag) {
            lo = rne;
            hi = rne + 1;
        } else {
            lo = rne - 1;
            hi = rne;
        }
    }
    switch (mode) {
    case DV_ROUND_Z: return lo;
    case DV_ROUND_F: return neg ? hi : lo;
    case DV_ROUND_C: return neg ? lo : hi;
    case DV_ROUND_A: return mag - val(lo) == val(hi) - mag ? hi : rne;
    default: return rne;
    }
}

/* x exact in double -> f16 / bf16 / f32 bits with a mode. */
static uint32_t ref_to_float(double x, int dt, int mode)
{
    const bool neg = signbit(x);
    const double mag = fabs(x);
    switch (dt) {
    case DV_DT_F16: return (neg ? 0x8000u : 0) | round_mag(mag, d2h(mag), 0x7c00, val_h, mode, neg);
    case DV_DT_BF16: return (neg ? 0x8000u : 0) | round_mag(mag, rne_b(mag), 0x7f80, val_b, mode, neg);
    default: return (neg ? 0x80000000u : 0) | round_mag(mag, fbits((float)mag), 0x7f800000, val_f, mode, neg);
    }
}

static int64_t ref_f2i(double x, int mode, int64_t lo, int64_t hi)
{
    if (isnan(x))
        return 0;
    double r;
    switch (mode) {
    case DV_ROUND_F: r = floor(x); break;
    case DV_ROUND_C: r = ceil(x); break;
    case DV_ROUND_Z: r = trunc(x); break;
    case DV_ROUND_A: r = round(x); break;
    default: r = nearbyint(x); break;
    }
    return r < (double)lo ? lo : r > (double)hi ? hi : (int64_t)r;
}

static int64_t tmin(int dt)
{
    return dt == DV_DT_S8 ? -128 : dt == DV_DT_S16 ? -32768 : dt == DV_DT_S32 ? INT32_MIN : 0;
}
static int64_t tmax(int dt)
{
    return dt == DV_DT_S8 ? 127 : dt == DV_DT_U8 ? 255 : dt == DV_DT_S16 ? 32767 : dt == DV_DT_U16 ? 65535
         : dt == DV_DT_S32 ? INT32_MAX : (int64_t)UINT32_MAX;
}
static unsigned sz(int dt) { return dv_dtype_size((dv_dtype_t)dt); }
static bool isfl(int dt) { return dv_dtype_is_float((dv_dtype_t)dt); }

/* Element access (little-endian host). */
static double rld(int dt, const uint8_t *p)
{
    uint16_t h;
    float f;
    int8_t s8;
    int16_t s16;
    int32_t s32;
    uint32_t u32;
    switch (dt) {
    case DV_DT_F16: memcpy(&h, p, 2); return h2f(h);
    case DV_DT_BF16: memcpy(&h, p, 2); return b2f(h);
    case DV_DT_F32: memcpy(&f, p, 4); return f;
    case DV_DT_S8: memcpy(&s8, p, 1); return s8;
    case DV_DT_U8: return p[0];
    case DV_DT_S16: memcpy(&s16, p, 2); return s16;
    case DV_DT_U16: memcpy(&h, p, 2); return h;
    case DV_DT_S32: memcpy(&s32, p, 4); return s32;
    default: memcpy(&u32, p, 4); return u32;
    }
}
static void rst_bits(int dt, uint8_t *p, uint64_t bits) { memcpy(p, &bits, sz(dt)); }
/* A float result (already a float value) stored with nearest-even. */
static void rst_f(int dt, uint8_t *p, float f)
{
    if (dt == DV_DT_F16)
        rst_bits(dt, p, d2h(f));
    else if (dt == DV_DT_BF16)
        rst_bits(dt, p, ref_to_float(f, DV_DT_BF16, DV_ROUND_R));
    else
        rst_bits(dt, p, fbits(f));
}
static void rst_i(int dt, uint8_t *p, int64_t v) { rst_bits(dt, p, (uint64_t)v); }

/* ------------------------------------------------------------------ memories */

#define UB_SIZE (1u << 20)
#define L1_SIZE (1u << 20)
#define L0_SIZE (256u << 10)
#define L0C_SIZE (512u << 10)
#define GM_ARGS 4
#define GM_SIZE (1u << 20)

typedef struct tmem {
    uint8_t *buf[DV_SPACE_COUNT];
    uint64_t size[DV_SPACE_COUNT];
    uint8_t *gm[GM_ARGS];
    uint64_t gm_size[GM_ARGS];
    dv_mem_t m;
} tmem_t;

static void fill_random(uint8_t *b, uint64_t n)
{
    for (uint64_t i = 0; i + 8 <= n; i += 8) {
        const uint64_t v = rnd();
        memcpy(b + i, &v, 8);
    }
}

/* Freed buffers are kept for the next case (page-faulting megabytes per case is slow). */
static uint8_t *pool[16][DV_SPACE_COUNT + GM_ARGS];
static int npool;

static void tmem_alloc(tmem_t *t, bool fill)
{
    memset(t, 0, sizeof *t);
    const uint64_t sizes[DV_SPACE_COUNT] = {[DV_SPACE_UB] = UB_SIZE, [DV_SPACE_L1] = L1_SIZE, [DV_SPACE_L0A] = L0_SIZE,
                                            [DV_SPACE_L0B] = L0_SIZE, [DV_SPACE_L0C] = L0C_SIZE};
    uint8_t **p = npool > 0 ? pool[--npool] : NULL;
    for (int s = 1; s < DV_SPACE_COUNT; s++)
        if (sizes[s]) {
            t->buf[s] = p ? p[s] : malloc(sizes[s]);
            t->size[s] = sizes[s];
            if (fill)
                fill_random(t->buf[s], sizes[s]);
        }
    for (int a = 0; a < GM_ARGS; a++) {
        t->gm[a] = p ? p[DV_SPACE_COUNT + a] : malloc(GM_SIZE);
        t->gm_size[a] = GM_SIZE;
        if (fill)
            fill_random(t->gm[a], GM_SIZE);
    }
    for (int s = 0; s < DV_SPACE_COUNT; s++) {
        t->m.buf[s] = t->buf[s];
        t->m.size[s] = t->size[s];
    }
    t->m.ngm = GM_ARGS;
    t->m.gm = t->gm;
    t->m.gm_size = t->gm_size;
}

static void tmem_init(tmem_t *t) { tmem_alloc(t, true); }

/* d becomes a new copy of s. */
static void tmem_clone(tmem_t *d, const tmem_t *s)
{
    tmem_alloc(d, false);
    for (int i = 0; i < DV_SPACE_COUNT; i++)
        if (s->buf[i])
            memcpy(d->buf[i], s->buf[i], s->size[i]);
    for (int a = 0; a < GM_ARGS; a++)
        memcpy(d->gm[a], s->gm[a], GM_SIZE);
}

static void tmem_free(tmem_t *t)
{
    if (npool == 16) {
        for (int s = 0; s < DV_SPACE_COUNT; s++)
            free(t->buf[s]);
        for (int a = 0; a < GM_ARGS; a++)
            free(t->gm[a]);
        return;
    }
    for (int s = 0; s < DV_SPACE_COUNT; s++)
        pool[npool][s] = t->buf[s];
    for (int a = 0; a < GM_ARGS; a++)
        pool[npool][DV_SPACE_COUNT + a] = t->gm[a];
    npool++;
}

/* First differing byte of two memories, -1 when equal; names the space. */
static long tmem_diff(const tmem_t *a, const tmem_t *b, const char **where)
{
    for (int s = 0; s < DV_SPACE_COUNT; s++)
        if (a->buf[s] && memcmp(a->buf[s], b->buf[s], a->size[s]))
            for (uint64_t i = 0;; i++)
                if (a->buf[s][i] != b->buf[s][i]) {
                    *where = dv_space_name((dv_space_t)s);
                    return (long)i;
                }
    for (int g = 0; g < GM_ARGS; g++)
        if (memcmp(a->gm[g], b->gm[g], GM_SIZE))
            for (uint64_t i = 0;; i++)
                if (a->gm[g][i] != b->gm[g][i]) {
                    *where = "gm";
                    return (long)i;
                }
    return -1;
}

/* ------------------------------------------------------------------ instruction building */

static void fset(dv_insn_t *in, const char *name, int64_t v)
{
    const int i = dv_field_index((dv_op_t)in->op, name);
    ck_assert_msg(i >= 0, "no field %s in %s", name, dv_op_spec((dv_op_t)in->op)->mnemonic);
    in->f[i].i = v;
}
static void fsetu(dv_insn_t *in, const char *name, uint64_t v)
{
    const int i = dv_field_index((dv_op_t)in->op, name);
    ck_assert_msg(i >= 0, "no field %s", name);
    in->f[i].u = v;
}
static void fsetd(dv_insn_t *in, const char *name, double v)
{
    const int i = dv_field_index((dv_op_t)in->op, name);
    ck_assert_msg(i >= 0, "no field %s", name);
    in->f[i].d = v;
}

static void exec_ok(const dv_insn_t *in, const dv_vstate_t *vs, tmem_t *t)
{
    dv_error_t err = {0};
    int rc = dv_insn_check(in, &err);
    ck_assert_msg(rc == 0, "test built an invalid instruction: %s", err.msg);
    rc = dv_exec(in, vs, &t->m, &err);
    ck_assert_msg(rc == 0, "dv_exec failed: %s", err.msg);
}

static void expect_same(const tmem_t *got, const tmem_t *want, const char *what)
{
    const char *where = "";
    const long at = tmem_diff(got, want, &where);
    ck_assert_msg(at < 0, "%s: first difference at %s byte %ld", what, where, at);
}

/* ------------------------------------------------------------------ vector reference */

/* Operand bases in UB used by every vector case (regions do not overlap). */
enum { B_DST = 0x1000, B_S0 = 0x40000, B_S1 = 0x80000, B_SEL = 0xC0000 };

typedef struct vcase {
    dv_op_t op;
    int dt, st;                /* dtype; vconv source type */
    int repeat;
    int blk[3], rep[3];        /* dst, src0 (or src), src1 in field units */
    int dst_rep;               /* VREDUCE */
    double scalar;
    int cmp, round;
    dv_vstate_t vs;
} vcase_t;

static int ref_E(const vcase_t *c)
{
    const unsigned a = sz(c->dt), b = sz(c->st);
    return 256 / (a > b ? a : b);
}
static int ref_repeats(const vcase_t *c, int E)
{
    return c->vs.count_mode ? (int)((c->vs.lo + (uint64_t)E - 1) / (uint64_t)E) : c->repeat;
}
static bool ref_sel(const vcase_t *c, int E, int r, int e)
{
    if (c->vs.count_mode)
        return (uint64_t)r * (uint64_t)E + (uint64_t)e < c->vs.lo;
    if (E == 64)
        return (c->vs.lo >> e) & 1;
    const int b = E == 256 ? e / 2 : e;
    return b < 64 ? (c->vs.lo >> b) & 1 : (c->vs.hi >> (b - 64)) & 1;
}
/* Element e of repeat r: blocks of E/8 elements; block stride unit = block size. */
static uint64_t ref_addr(uint64_t base, int E, int s, int blk, int rep, int r, int e)
{
    const int epb = E / 8;
    return base + (uint64_t)r * (uint64_t)rep * 32 + (uint64_t)(e / epb) * (uint64_t)blk * (uint64_t)(epb * s) +
           (uint64_t)(e % epb) * (uint64_t)s;
}

static double ref_scalar(int dt, double d)
{
    if (dt == DV_DT_F16)
        return h2f(d2h(d));
    if (dt == DV_DT_F32)
        return (float)d;
    if (dt == DV_DT_BF16)
        return b2f((uint16_t)ref_to_float(d, DV_DT_BF16, DV_ROUND_R));
    return (double)ref_f2i(d, DV_ROUND_Z, tmin(dt), tmax(dt));
}

static float ref_fop(dv_op_t op, float a, float b)
{
    float r;
    switch (op) {
    case DV_OP_vadd: case DV_OP_vadds: r = a + b; break;
    case DV_OP_vsub: r = a - b; break;
    case DV_OP_vmul: case DV_OP_vmuls: r = a * b; break;
    case DV_OP_vdiv: r = a / b; break;
    case DV_OP_vmax: case DV_OP_vmaxs: r = a >= b ? a : b; break;
    case DV_OP_vmin: r = a <= b ? a : b; break;
    case DV_OP_vexp: r = expf(a); break;
    case DV_OP_vln: r = logf(a); break;
    case DV_OP_vsqrt: r = sqrtf(a); break;
    case DV_OP_vrsqrt: r = sqrtf(a); r = 1.0f / r; break;
    case DV_OP_vrec: r = 1.0f / a; break;
    case DV_OP_vabs: r = fabsf(a); break;
    case DV_OP_vrelu: r = a > 0 ? a : 0.0f; break;
    default: r = a; break;
    }
    return r;
}

static int64_t ref_iop(dv_op_t op, int64_t a, int64_t b)
{
    switch (op) {
    case DV_OP_vadd: case DV_OP_vadds: return a + b;
    case DV_OP_vsub: return a - b;
    case DV_OP_vmul: case DV_OP_vmuls: return (int64_t)((uint64_t)a * (uint64_t)b);
    case DV_OP_vmax: case DV_OP_vmaxs: return a > b ? a : b;
    case DV_OP_vmin: return a < b ? a : b;
    case DV_OP_vabs: return a < 0 ? -a : a;
    case DV_OP_vrelu: return a > 0 ? a : 0;
    default: return a;
    }
}

static void ref_conv(int dt, int st, int mode, const uint8_t *sp, uint8_t *dp)
{
    const double x = rld(st, sp);
    if (isfl(st) && !isfl(dt))
        rst_i(dt, dp, ref_f2i(x, mode, tmin(dt), tmax(dt)));
    else
        rst_bits(dt, dp, ref_to_float(x, dt, mode));
}

static bool ref_cmp(int c, double a, double b)
{
    switch (c) {
    case DV_CMP_EQ: return a == b;
    case DV_CMP_NE: return a != b;
    case DV_CMP_LT: return a < b;
    case DV_CMP_GT: return a > b;
    case DV_CMP_LE: return a <= b;
    default: return a >= b;
    }
}

/* The whole vector instruction on memory u, from the definitions. */
static void ref_vec(const vcase_t *c, uint8_t *u)
{
    const dv_form_t form = dv_op_spec(c->op)->form;
    const int E = ref_E(c), R = ref_repeats(c, E), s = (int)sz(c->dt), ss = (int)sz(c->st);
    const int *bk = c->blk, *rp = c->rep;
    for (int r = 0; r < R; r++) {
        int nsel = 0;
        switch (form) {
        case DV_FORM_VBIN:
        case DV_FORM_VSCALAR:
        case DV_FORM_VUNARY:
            for (int e = 0; e < E; e++) {
                if (!ref_sel(c, E, r, e))
                    continue;
                uint8_t *d = u + ref_addr(B_DST, E, s, bk[0], rp[0], r, e);
                const uint8_t *a = u + ref_addr(B_S0, E, s, bk[1], rp[1], r, e);
                if (c->op == DV_OP_vcopy) {
                    memcpy(d, a, (size_t)s);
                    continue;
                }
                const double x = rld(c->dt, a);
                const double y = form == DV_FORM_VBIN ? rld(c->dt, u + ref_addr(B_S1, E, s, bk[2], rp[2], r, e))
                               : form == DV_FORM_VSCALAR ? ref_scalar(c->dt, c->scalar) : 0;
                if (isfl(c->dt))
                    rst_f(c->dt, d, ref_fop(c->op, (float)x, (float)y));
                else
                    rst_i(c->dt, d, ref_iop(c->op, (int64_t)x, (int64_t)y));
            }
            break;
        case DV_FORM_VCONV:
            for (int e = 0; e < E; e++)
                if (ref_sel(c, E, r, e))
                    ref_conv(c->dt, c->st, c->round, u + ref_addr(B_S0, E, ss, bk[1], rp[1], r, e),
                             u + ref_addr(B_DST, E, s, bk[0], rp[0], r, e));
            break;
        case DV_FORM_VREDUCE: {
            float acc = 0;
            double best = 0;
            int bi = -1;
            for (int e = 0; e < E; e++) {
                if (!ref_sel(c, E, r, e))
                    continue;
                const double x = rld(c->dt, u + ref_addr(B_S0, E, s, bk[1], rp[1], r, e));
                acc += (float)x;
                nsel++;
                if (bi < 0 || (c->op == DV_OP_vcmax ? x > best : x < best)) {
                    best = x;
                    bi = e;
                }
            }
            if (c->op == DV_OP_vcadd) {
                rst_f(c->dt, u + B_DST + (uint64_t)r * (uint64_t)c->dst_rep * (uint64_t)s, acc);
            } else if (bi >= 0) {
                uint8_t *d = u + B_DST + 2 * (uint64_t)r * (uint64_t)c->dst_rep * (uint64_t)s;
                memcpy(d, u + ref_addr(B_S0, E, s, bk[1], rp[1], r, bi), (size_t)s);
                rst_i(s == 2 ? DV_DT_U16 : DV_DT_U32, d + s, bi);
            }
            break;
        }
        case DV_FORM_VDUP:
            for (int e = 0; e < E; e++)
                if (ref_sel(c, E, r, e)) {
                    uint8_t *d = u + ref_addr(B_DST, E, s, bk[0], rp[0], r, e);
                    if (isfl(c->dt))
                        rst_f(c->dt, d, (float)ref_scalar(c->dt, c->scalar));
                    else
                        rst_i(c->dt, d, (int64_t)ref_scalar(c->dt, c->scalar));
                }
            break;
        case DV_FORM_VCMP: {
            uint8_t *d = u + B_DST + (uint64_t)r * (uint64_t)(E / 8);
            memset(d, 0, (size_t)E / 8);
            for (int e = 0; e < E; e++)
                if (ref_sel(c, E, r, e) && ref_cmp(c->cmp, rld(c->dt, u + ref_addr(B_S0, E, s, bk[1], rp[1], r, e)),
                                                    rld(c->dt, u + ref_addr(B_S1, E, s, bk[2], rp[2], r, e))))
                    d[e / 8] |= (uint8_t)(1 << (e % 8));
            break;
        }
        case DV_FORM_VSEL: {
            const uint8_t *m = u + B_SEL + (uint64_t)r * (uint64_t)(E / 8);
            for (int e = 0; e < E; e++)
                if (ref_sel(c, E, r, e)) {
                    const bool one = (m[e / 8] >> (e % 8)) & 1;
                    memcpy(u + ref_addr(B_DST, E, s, bk[0], rp[0], r, e),
                           one ? u + ref_addr(B_S0, E, s, bk[1], rp[1], r, e) : u + ref_addr(B_S1, E, s, bk[2], rp[2], r, e),
                           (size_t)s);
                }
            break;
        }
        default:
            break;
        }
        (void)nsel;
    }
}

/* Data kinds for filling UB. */
enum { D_NORMAL, D_POSITIVE, D_SMALL, D_CONV };

/* One element of dtype dt as bits. */
static uint64_t gen_elem(int dt, int kind, bool nan_ok)
{
    const bool neg = kind != D_POSITIVE && (rnd() & 1);
    if (kind == D_SMALL) { /* few distinct values: ties in reductions and comparisons */
        const double v = (double)((int)rndn(5) - 2);
        return dt == DV_DT_F16 ? d2h(v) : dt == DV_DT_F32 ? fbits((float)v) : (uint64_t)(int64_t)v;
    }
    if (kind == D_CONV && isfl(dt)) {
        double v;
        switch (rndn(8)) {
        case 0: v = (double)((int)rndn(600) - 300) + 0.5; break;                 /* integer ties */
        case 1: v = ldexp((double)(rnd() & 0xffffff), (int)rndn(60) - 50); break; /* wide range */
        case 2: { /* f16 midpoint */
            const uint16_t h = (uint16_t)(rndn(0x7bff));
            v = ((double)h2f(h) + (double)h2f((uint16_t)(h + 1))) / 2;
            break;
        }
        case 3: { /* bf16 midpoint */
            const uint16_t h = (uint16_t)(rndn(0x7f7f));
            v = ((double)b2f(h) + (double)b2f((uint16_t)(h + 1))) / 2;
            break;
        }
        case 4: v = (double)(int64_t)(rnd() % 6000000000ull) - 3e9; break; /* saturation */
        case 5: v = rndn(4) ? 65504.0 + rndn(64) : INFINITY; break;       /* f16 overflow */
        case 6: v = nan_ok ? NAN : 1.0; break;
        default: v = (double)rndn(1000) / 7.0; break;
        }
        if (neg)
            v = -v;
        if (dt == DV_DT_F16)
            return d2h(v);
        if (dt == DV_DT_BF16)
            return ref_to_float((float)v, DV_DT_BF16, DV_ROUND_Z);
        return fbits((float)v);
    }
    switch (dt) {
    case DV_DT_F16: return (neg ? 0x8000u : 0) | (9u + rndn(11)) << 10 | (rnd() & 0x3ff);
    case DV_DT_BF16: return (neg ? 0x8000u : 0) | (120u + rndn(15)) << 7 | (rnd() & 0x7f);
    case DV_DT_F32: return (neg ? 0x80000000u : 0) | (64u + rndn(126)) << 23 | (rnd() & 0x7fffff);
    default: return rnd();
    }
}

/* Typed random data in the first 128 KB of every operand region (the largest case needs 104 KB),
 * random bytes elsewhere. */
enum { REGION_USED = 128 << 10 };
static void fill_ub(tmem_t *t, int dt, int kind, bool nan_ok)
{
    const unsigned s = sz(dt);
    uint8_t *ub = t->buf[DV_SPACE_UB];
    static const uint64_t bases[] = {B_DST, B_S0, B_S1, B_SEL};
    fill_random(ub, UB_SIZE);
    for (int r = 0; r < 4; r++)
        for (uint64_t i = bases[r]; i + s <= bases[r] + REGION_USED; i += s)
            rst_bits(dt, ub + i, gen_elem(dt, kind, nan_ok));
    /* src1 often equals src0 at the same offset, so eq/ne and ties are exercised */
    for (uint64_t i = 0; i + s <= REGION_USED; i += s)
        if (rndn(3) == 0)
            memcpy(ub + B_S1 + i, ub + B_S0 + i, s);
}

static dv_insn_t vcase_insn(const vcase_t *c)
{
    dv_insn_t in;
    const dv_form_t form = dv_op_spec(c->op)->form;
    dv_insn_init(&in, c->op);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
    fset(&in, "repeat", c->repeat);
    switch (form) {
    case DV_FORM_VBIN:
    case DV_FORM_VCMP:
    case DV_FORM_VSEL:
        fsetu(&in, "src0", DV_ADDR(DV_SPACE_UB, B_S0));
        fsetu(&in, "src1", DV_ADDR(DV_SPACE_UB, B_S1));
        if (form != DV_FORM_VCMP) {
            fset(&in, "dst_blk", c->blk[0]);
            fset(&in, "dst_rep", c->rep[0]);
        } else {
            fset(&in, "cmp", c->cmp);
        }
        if (form == DV_FORM_VSEL)
            fsetu(&in, "sel", DV_ADDR(DV_SPACE_UB, B_SEL));
        fset(&in, "src0_blk", c->blk[1]);
        fset(&in, "src0_rep", c->rep[1]);
        fset(&in, "src1_blk", c->blk[2]);
        fset(&in, "src1_rep", c->rep[2]);
        break;
    case DV_FORM_VDUP:
        fset(&in, "dst_blk", c->blk[0]);
        fset(&in, "dst_rep", c->rep[0]);
        break;
    case DV_FORM_VREDUCE:
        fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, B_S0));
        fset(&in, "dst_rep", c->dst_rep);
        fset(&in, "src_blk", c->blk[1]);
        fset(&in, "src_rep", c->rep[1]);
        break;
    default:
        fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, B_S0));
        fset(&in, "dst_blk", c->blk[0]);
        fset(&in, "dst_rep", c->rep[0]);
        fset(&in, "src_blk", c->blk[1]);
        fset(&in, "src_rep", c->rep[1]);
        break;
    }
    if (form == DV_FORM_VCONV) {
        fset(&in, "dst_type", c->dt);
        fset(&in, "src_type", c->st);
        fset(&in, "round", c->round);
    } else {
        fset(&in, "dtype", c->dt);
    }
    if (form == DV_FORM_VSCALAR || form == DV_FORM_VDUP)
        fsetd(&in, "scalar", c->scalar);
    return in;
}

/* Run one case on random data and compare every byte of every memory with the reference. */
static void vcase_run(vcase_t *c, int kind)
{
    tmem_t got, want;
    tmem_alloc(&got, false); /* only UB matters; the other memories just must not change */
    const dv_form_t form = dv_op_spec(c->op)->form;
    fill_ub(&got, form == DV_FORM_VCONV ? c->st : c->dt, kind, form == DV_FORM_VCONV && !isfl(c->dt));
    if (c->op == DV_OP_vln || c->op == DV_OP_vsqrt || c->op == DV_OP_vrsqrt)
        for (uint64_t i = sz(c->dt) - 1; i < UB_SIZE; i += sz(c->dt))
            got.buf[DV_SPACE_UB][i] &= 0x7f;
    tmem_clone(&want, &got);
    const dv_insn_t in = vcase_insn(c);
    exec_ok(&in, &c->vs, &got);
    ref_vec(c, want.buf[DV_SPACE_UB]);
    char what[200];
    snprintf(what, sizeof what, "%s %s<-%s rep %d blk %d/%d/%d rep %d/%d/%d mask %s %llx:%llx round %d cmp %d",
             dv_op_spec(c->op)->mnemonic, dv_dtype_name((dv_dtype_t)c->dt), dv_dtype_name((dv_dtype_t)c->st), c->repeat,
             c->blk[0], c->blk[1], c->blk[2], c->rep[0], c->rep[1], c->rep[2], c->vs.count_mode ? "count" : "bits",
             (unsigned long long)c->vs.hi, (unsigned long long)c->vs.lo, c->round, c->cmp);
    expect_same(&got, &want, what);
    tmem_free(&got);
    tmem_free(&want);
}

/* Geometry configurations every vector test runs through. */
enum { NCFG = 9 };
static void vcase_config(vcase_t *c, int k, int E)
{
    dv_vstate_reset(&c->vs);
    for (int i = 0; i < 3; i++) {
        c->blk[i] = 1;
        c->rep[i] = 8;
    }
    c->dst_rep = 1;
    switch (k) {
    case 0: c->repeat = 1; break;                                    /* defaults, full mask */
    case 1: /* 255 repeats, random bit mask */
        c->repeat = 255;
        c->vs.hi = rnd();
        c->vs.lo = rnd();
        break;
    case 2: /* random strides, including 0, random mask */
        c->repeat = 7;
        for (int i = 0; i < 3; i++) {
            c->blk[i] = rndn(4) == 0 ? 0 : (int)rndn(256);
            c->rep[i] = rndn(4) == 0 ? 0 : (int)rndn(256);
        }
        c->vs.hi = rnd() & rnd();
        c->vs.lo = rnd() | rnd();
        c->dst_rep = (int)rndn(4);
        break;
    case 3: /* count mode with a tail; the repeat field is ignored */
        c->repeat = 2;
        c->vs.count_mode = true;
        c->vs.lo = (uint64_t)E * 5 + 13;
        c->blk[0] = 2;
        c->rep[0] = 16;
        c->rep[1] = 9;
        c->dst_rep = 2;
        break;
    case 4: /* count mode, fewer elements than a block */
        c->repeat = 200;
        c->vs.count_mode = true;
        c->vs.lo = 3;
        break;
    case 5: /* broadcast sources (stride 0) */
        c->repeat = 13;
        c->blk[1] = 0;
        c->rep[1] = 0;
        c->rep[2] = 1;
        c->vs.lo = rnd();
        break;
    case 6: /* large strides, no overlap */
        c->repeat = 3;
        for (int i = 0; i < 3; i++) {
            c->blk[i] = 255;
            c->rep[i] = 255;
        }
        c->dst_rep = 255;
        break;
    case 7: /* zero repeats: nothing happens */
        c->repeat = 0;
        break;
    default: /* count mode over many repeats, packed */
        c->repeat = 1;
        c->vs.count_mode = true;
        c->vs.lo = (uint64_t)E * 254 + (uint64_t)E / 2 + 1;
        c->rep[0] = 4;
        c->dst_rep = 1;
        break;
    }
}

/* Every dtype an op accepts, each through every configuration. */
static void vop_all(dv_op_t op, int kind, double scalar)
{
    const uint32_t dts = dv_op_spec(op)->dtypes;
    for (int dt = 0; dt < DV_DT_COUNT; dt++) {
        if (!(dts & (1u << dt)))
            continue;
        for (int k = 0; k < NCFG; k++) {
            vcase_t c = {.op = op, .dt = dt, .st = dt, .scalar = scalar};
            vcase_config(&c, k, 256 / (int)sz(dt));
            vcase_run(&c, kind);
        }
    }
}

START_TEST(test_semantics_vbin)
{
    seed(1);
    const dv_op_t ops[] = {DV_OP_vadd, DV_OP_vsub, DV_OP_vmul, DV_OP_vdiv, DV_OP_vmax, DV_OP_vmin};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        vop_all(ops[i], D_NORMAL, 0);
}
END_TEST

START_TEST(test_semantics_vscalar)
{
    seed(2);
    vop_all(DV_OP_vadds, D_NORMAL, 1.3);
    vop_all(DV_OP_vmuls, D_NORMAL, -2.7);
    vop_all(DV_OP_vmaxs, D_NORMAL, 0.3);
    vop_all(DV_OP_vadds, D_NORMAL, 100000.75); /* saturates for s16 */
    vop_all(DV_OP_vmuls, D_NORMAL, -77.9);
}
END_TEST

START_TEST(test_semantics_vunary)
{
    seed(3);
    const dv_op_t ops[] = {DV_OP_vexp, DV_OP_vln, DV_OP_vsqrt, DV_OP_vrsqrt, DV_OP_vrec, DV_OP_vabs, DV_OP_vrelu, DV_OP_vcopy};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        vop_all(ops[i], D_NORMAL, 0);
}
END_TEST

START_TEST(test_semantics_vconv)
{
    seed(4);
    static const int pairs[][2] = {
        {DV_DT_F32, DV_DT_F16}, {DV_DT_F16, DV_DT_F32}, {DV_DT_F32, DV_DT_BF16}, {DV_DT_BF16, DV_DT_F32},
        {DV_DT_F32, DV_DT_S32}, {DV_DT_S32, DV_DT_F32}, {DV_DT_F16, DV_DT_S32}, {DV_DT_F16, DV_DT_S16},
        {DV_DT_S16, DV_DT_F16}, {DV_DT_F16, DV_DT_S8},  {DV_DT_S8, DV_DT_F16},  {DV_DT_F16, DV_DT_U8},
        {DV_DT_U8, DV_DT_F16}};
    const int cfgs[] = {0, 1, 2, 3, 5};
    int covered = 0;
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        ck_assert(dv_conv_allowed((dv_dtype_t)pairs[p][0], (dv_dtype_t)pairs[p][1]));
        for (int mode = 0; mode < 5; mode++)
            for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
                vcase_t c = {.op = DV_OP_vconv, .dt = pairs[p][1], .st = pairs[p][0], .round = mode};
                vcase_config(&c, cfgs[k], ref_E(&c));
                vcase_run(&c, D_CONV);
            }
        covered++;
    }
    /* the table has no pair this test does not know */
    int table = 0;
    for (int s = 0; s < DV_DT_COUNT; s++)
        for (int d = 0; d < DV_DT_COUNT; d++)
            table += dv_conv_allowed((dv_dtype_t)s, (dv_dtype_t)d);
    ck_assert_int_eq(table, covered);
    /* f32 -> f16 packing: dst_blk 1, dst_rep 4 writes 128 contiguous bytes per repeat */
    vcase_t c = {.op = DV_OP_vconv, .dt = DV_DT_F16, .st = DV_DT_F32, .repeat = 10, .blk = {1, 1, 1}, .rep = {4, 8, 8}};
    dv_vstate_reset(&c.vs);
    vcase_run(&c, D_CONV);
}
END_TEST

START_TEST(test_semantics_vreduce)
{
    seed(5);
    vop_all(DV_OP_vcadd, D_NORMAL, 0);
    vop_all(DV_OP_vcmax, D_SMALL, 0);
    vop_all(DV_OP_vcmin, D_SMALL, 0);
    vop_all(DV_OP_vcmax, D_NORMAL, 0);
    vop_all(DV_OP_vcmin, D_NORMAL, 0);
    /* a repeat with nothing selected: vcadd writes 0, vcmax writes nothing */
    vcase_t c = {.op = DV_OP_vcadd, .dt = DV_DT_F32, .st = DV_DT_F32, .repeat = 4, .blk = {1, 1, 1}, .rep = {8, 8, 8},
                 .dst_rep = 1};
    c.vs.count_mode = false;
    c.vs.hi = c.vs.lo = 0;
    vcase_run(&c, D_NORMAL);
    c.op = DV_OP_vcmax;
    vcase_run(&c, D_NORMAL);
}
END_TEST

START_TEST(test_semantics_vdup)
{
    seed(6);
    vop_all(DV_OP_vdup, D_NORMAL, 3.14159);
    vop_all(DV_OP_vdup, D_NORMAL, -70000.9);
}
END_TEST

START_TEST(test_semantics_vcmp)
{
    seed(7);
    for (int cmp = 0; cmp < 6; cmp++)
        for (int dt = 0; dt < DV_DT_COUNT; dt++) {
            if (!(dv_op_spec(DV_OP_vcmp)->dtypes & (1u << dt)))
                continue;
            for (int k = 0; k < NCFG; k++) {
                vcase_t c = {.op = DV_OP_vcmp, .dt = dt, .st = dt, .cmp = cmp};
                vcase_config(&c, k, 256 / (int)sz(dt));
                if (k != 2) /* same strides for both sources so equal values meet */
                    c.blk[2] = c.blk[1], c.rep[2] = c.rep[1];
                vcase_run(&c, k % 2 ? D_SMALL : D_NORMAL);
            }
        }
}
END_TEST

START_TEST(test_semantics_vsel)
{
    seed(8);
    vop_all(DV_OP_vsel, D_NORMAL, 0);
}
END_TEST

/* ------------------------------------------------------------------ fixed-shape vector forms */

/* A mask state that would select almost nothing: vbrcb and vtranspose must ignore it. */
static dv_vstate_t odd_mask(int k)
{
    dv_vstate_t vs = {.count_mode = k % 2 == 1, .hi = 0, .lo = k % 2 ? 3 : 0x5};
    return vs;
}

/* vbrcb (§3.3): for repeat r, block i of 32 B at dst + r*dst_rep*32 + i*dst_blk*32 is filled with
 * src[8r + i]; the 8 sources of a repeat are read before its blocks are written in ascending i. */
START_TEST(test_semantics_vbrcb)
{
    seed(9);
    /* repeat, dst_blk, dst_rep, in place (src = dst) */
    const int shapes[][4] = {{1, 1, 8, 0}, {5, 1, 8, 0}, {4, 2, 16, 0}, {3, 0, 1, 0}, {6, 1, 0, 0},
                             {2, 3, 40, 0}, {0, 1, 8, 0}, {255, 1, 8, 0}, {3, 1, 8, 1}};
    int cases = 0;
    for (int dt = 0; dt < DV_DT_COUNT; dt++) {
        if (!(dv_op_spec(DV_OP_vbrcb)->dtypes & (1u << dt)))
            continue;
        for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
            const int *p = shapes[k];
            tmem_t got, want;
            tmem_init(&got);
            tmem_clone(&want, &got);
            const uint64_t doff = B_DST + 32 * rndn(8), soff = p[3] ? doff : B_S0 + 32 * rndn(8), s = sz(dt);
            dv_insn_t in;
            dv_insn_init(&in, DV_OP_vbrcb);
            fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, doff));
            fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, soff));
            fset(&in, "dtype", dt);
            fset(&in, "repeat", p[0]);
            fset(&in, "dst_blk", p[1]);
            fset(&in, "dst_rep", p[2]);
            const dv_vstate_t vs = odd_mask((int)k);
            exec_ok(&in, &vs, &got);
            uint8_t *ub = want.buf[DV_SPACE_UB];
            for (uint64_t r = 0; r < (uint64_t)p[0]; r++) {
                uint8_t e[8][4];
                for (uint64_t i = 0; i < 8; i++)
                    memcpy(e[i], ub + soff + (8 * r + i) * s, s);
                for (uint64_t i = 0; i < 8; i++)
                    for (uint64_t b = 0; b < 32 / s; b++)
                        memcpy(ub + doff + r * (uint64_t)p[2] * 32 + i * (uint64_t)p[1] * 32 + b * s, e[i], s);
            }
            char what[64];
            snprintf(what, sizeof what, "vbrcb %s shape %zu", dv_dtype_name((dv_dtype_t)dt), k);
            expect_same(&got, &want, what);
            tmem_free(&got);
            tmem_free(&want);
            cases++;
        }
    }
    ck_assert_int_eq(cases, 7 * 9); /* four 16-bit and three 32-bit types */
}
END_TEST

/* vtranspose (§3.3): dst[16j + i] = src[16i + j], 2-byte elements, including adjacent operands. */
START_TEST(test_semantics_vtranspose)
{
    seed(10);
    int cases = 0;
    for (int dt = 0; dt < DV_DT_COUNT; dt++) {
        if (!(dv_op_spec(DV_OP_vtranspose)->dtypes & (1u << dt)))
            continue;
        ck_assert_uint_eq(sz(dt), 2);
        for (int k = 0; k < 4; k++) {
            tmem_t got, want;
            tmem_init(&got);
            tmem_clone(&want, &got);
            uint64_t doff = B_DST + 32 * rndn(64), soff = B_S0 + 32 * rndn(64);
            if (k == 2)
                soff = doff + 512;
            if (k == 3)
                doff = soff + 512;
            dv_insn_t in;
            dv_insn_init(&in, DV_OP_vtranspose);
            fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, doff));
            fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, soff));
            fset(&in, "dtype", dt);
            const dv_vstate_t vs = odd_mask(k);
            exec_ok(&in, &vs, &got);
            uint8_t *ub = want.buf[DV_SPACE_UB];
            for (int i = 0; i < 16; i++)
                for (int j = 0; j < 16; j++)
                    memcpy(ub + doff + (uint64_t)(j * 16 + i) * 2, ub + soff + (uint64_t)(i * 16 + j) * 2, 2);
            char what[64];
            snprintf(what, sizeof what, "vtranspose %s case %d", dv_dtype_name((dv_dtype_t)dt), k);
            expect_same(&got, &want, what);
            tmem_free(&got);
            tmem_free(&want);
            cases++;
        }
    }
    ck_assert_int_eq(cases, 4 * 4);
}
END_TEST

/* dv_exec on f32 is the IEEE single operation, bit for bit. */
START_TEST(test_semantics_f32_bit_exact)
{
    seed(9);
    tmem_t t;
    tmem_init(&t);
    uint8_t *ub = t.buf[DV_SPACE_UB];
    const int n = 64 * 255;
    for (int i = 0; i < 2 * n; i++) { /* wide exponents, subnormals, cancellations */
        uint32_t b = (uint32_t)rnd();
        if (rndn(4) == 0)
            b &= 0x807fffffu;
        if (rndn(4) == 0 && i >= n) { /* near-cancellation */
            uint32_t a;
            memcpy(&a, ub + B_S0 + 4 * (i - n), 4);
            b = fbits(-bitsf(a) * (1 + 0x1p-20f));
        }
        memcpy(ub + (i < n ? B_S0 + 4 * i : B_S1 + 4 * (i - n)), &b, 4);
    }
    const dv_op_t ops[] = {DV_OP_vadd, DV_OP_vsub, DV_OP_vmul, DV_OP_vdiv};
    for (int k = 0; k < 4; k++) {
        dv_insn_t in;
        dv_insn_init(&in, ops[k]);
        fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
        fsetu(&in, "src0", DV_ADDR(DV_SPACE_UB, B_S0));
        fsetu(&in, "src1", DV_ADDR(DV_SPACE_UB, B_S1));
        fset(&in, "dtype", DV_DT_F32);
        fset(&in, "repeat", 255);
        dv_vstate_t vs;
        dv_vstate_reset(&vs);
        exec_ok(&in, &vs, &t);
        for (int i = 0; i < n; i++) {
            volatile float a, b, r;
            float got;
            memcpy((void *)&a, ub + B_S0 + 4 * i, 4);
            memcpy((void *)&b, ub + B_S1 + 4 * i, 4);
            memcpy(&got, ub + B_DST + 4 * i, 4);
            r = k == 0 ? a + b : k == 1 ? a - b : k == 2 ? a * b : a / b;
            ck_assert_msg(fbits(got) == fbits(r) || (isnan(got) && isnan(r)), "%s %a %a: got %a want %a",
                          dv_op_spec(ops[k])->mnemonic, (double)a, (double)b, (double)got, (double)r);
        }
    }
    tmem_free(&t);
}
END_TEST

/* f16 + - * / sqrt are correctly rounded: compared with the exact double result rounded once. */
START_TEST(test_semantics_f16_correctly_rounded)
{
    seed(10);
    tmem_t t;
    tmem_init(&t);
    uint8_t *ub = t.buf[DV_SPACE_UB];
    const int n = 128 * 255;
    for (int i = 0; i < 2 * n; i++) {
        uint16_t h = (uint16_t)rnd();
        if ((h & 0x7c00) == 0x7c00)
            h &= 0xbfff; /* no inf/NaN inputs */
        memcpy(ub + (i < n ? B_S0 + 2 * i : B_S1 + 2 * (i - n)), &h, 2);
    }
    const dv_op_t ops[] = {DV_OP_vadd, DV_OP_vsub, DV_OP_vmul, DV_OP_vdiv, DV_OP_vsqrt};
    for (int k = 0; k < 5; k++) {
        dv_insn_t in;
        dv_insn_init(&in, ops[k]);
        fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
        fsetu(&in, k == 4 ? "src" : "src0", DV_ADDR(DV_SPACE_UB, B_S0));
        if (k < 4)
            fsetu(&in, "src1", DV_ADDR(DV_SPACE_UB, B_S1));
        fset(&in, "dtype", DV_DT_F16);
        fset(&in, "repeat", 255);
        dv_vstate_t vs;
        dv_vstate_reset(&vs);
        exec_ok(&in, &vs, &t);
        for (int i = 0; i < n; i++) {
            uint16_t ha, hb, got;
            memcpy(&ha, ub + B_S0 + 2 * i, 2);
            memcpy(&hb, ub + B_S1 + 2 * i, 2);
            memcpy(&got, ub + B_DST + 2 * i, 2);
            const double a = h2f(ha), b = h2f(hb);
            const double exact = k == 0 ? a + b : k == 1 ? a - b : k == 2 ? a * b : k == 3 ? a / b : sqrt(a);
            const uint16_t want = d2h(exact);
            ck_assert_msg(got == want || (isnan(h2f(got)) && isnan(h2f(want))), "%s %a %a: got %04x want %04x",
                          dv_op_spec(ops[k])->mnemonic, a, b, got, want);
        }
    }
    tmem_free(&t);
}
END_TEST

START_TEST(test_semantics_f16_conversion)
{
    for (uint32_t h = 0; h < 0x10000; h++) { /* exhaustive f16 -> f32 */
        const float got = dv_f16_to_f32((uint16_t)h), want = h2f((uint16_t)h);
        ck_assert_msg(fbits(got) == fbits(want) || (isnan(got) && isnan(want)), "f16 %04x", h);
        if (!isnan(want)) /* and back */
            ck_assert_int_eq(dv_f32_to_f16(want), h);
    }
    seed(11);
    for (uint64_t i = 0; i < 1500000; i++) { /* sweep of f32 -> f16 against the compiler's conversion */
        const uint32_t b = i < 1000000 ? (uint32_t)(i * 4294u + (i >> 3)) : (uint32_t)rnd();
        const float f = bitsf(b);
        const uint16_t got = dv_f32_to_f16(f);
        if (isnan(f))
            ck_assert(isnan(h2f(got)));
        else
            ck_assert_msg(got == d2h(f), "f32 %08x: got %04x want %04x", b, got, d2h(f));
    }
    /* boundaries: overflow threshold, smallest subnormal ties */
    ck_assert_int_eq(dv_f32_to_f16(65519.996f), 0x7bff);
    ck_assert_int_eq(dv_f32_to_f16(65520.0f), 0x7c00);
    ck_assert_int_eq(dv_f32_to_f16(0x1p-25f), 0x0000);
    ck_assert_int_eq(dv_f32_to_f16(0x1.000002p-25f), 0x0001);
    ck_assert_int_eq(dv_f32_to_f16(0x1.8p-24f), 0x0002);
    ck_assert_int_eq(dv_f32_to_f16(-0.0f), 0x8000);
}
END_TEST

START_TEST(test_semantics_bf16_conversion)
{
    for (uint32_t h = 0; h < 0x10000; h++) {
        const float got = dv_bf16_to_f32((uint16_t)h);
        ck_assert_uint_eq(fbits(got), h << 16);
    }
    seed(12);
    for (int i = 0; i < 1000000; i++) {
        const uint32_t b = (uint32_t)rnd();
        const float f = bitsf(b);
        const uint16_t got = dv_f32_to_bf16(f);
        if (isnan(f)) {
            ck_assert(isnan(dv_bf16_to_f32(got)));
            continue;
        }
        const uint16_t want = (uint16_t)ref_to_float(f, DV_DT_BF16, DV_ROUND_R);
        ck_assert_msg(got == want, "f32 %08x: got %04x want %04x", b, got, want);
    }
    ck_assert_int_eq(dv_f32_to_bf16(bitsf(0x3f808000u)), 0x3f80); /* tie to even */
    ck_assert_int_eq(dv_f32_to_bf16(bitsf(0x3f818000u)), 0x3f82);
}
END_TEST

/* Documented behaviour of special values. */
START_TEST(test_semantics_special_values)
{
    tmem_t t;
    tmem_init(&t);
    uint8_t *ub = t.buf[DV_SPACE_UB];
    dv_vstate_t vs;
    dv_vstate_reset(&vs);
    ck_assert(!vs.count_mode && vs.hi == ~0ull && vs.lo == ~0ull);
    const float a[4] = {NAN, 1.0f, -0.0f, -5.0f}, b[4] = {2.0f, NAN, 0.0f, NAN};
    memcpy(ub + B_S0, a, sizeof a);
    memcpy(ub + B_S1, b, sizeof b);
    vs.lo = 0xf;
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_vmax);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
    fsetu(&in, "src0", DV_ADDR(DV_SPACE_UB, B_S0));
    fsetu(&in, "src1", DV_ADDR(DV_SPACE_UB, B_S1));
    fset(&in, "dtype", DV_DT_F32);
    fset(&in, "repeat", 1);
    exec_ok(&in, &vs, &t);
    float r[4];
    memcpy(r, ub + B_DST, sizeof r);
    ck_assert(r[0] == 2.0f && r[1] == 1.0f && r[3] == -5.0f); /* NaN operands are ignored */
    ck_assert(r[2] == 0.0f && signbit(r[2]));                 /* equal: src0 */
    /* vrelu: NaN -> +0, -0 -> +0 */
    dv_insn_init(&in, DV_OP_vrelu);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
    fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, B_S0));
    fset(&in, "dtype", DV_DT_F32);
    fset(&in, "repeat", 1);
    exec_ok(&in, &vs, &t);
    memcpy(r, ub + B_DST, sizeof r);
    ck_assert(fbits(r[0]) == 0 && r[1] == 1.0f && fbits(r[2]) == 0 && fbits(r[3]) == 0);
    /* vconv f32 -> s32: NaN -> 0, +-inf saturate; f32 -> f16 overflow per mode */
    const float c[4] = {NAN, INFINITY, -INFINITY, 1e6f};
    memcpy(ub + B_S0, c, sizeof c);
    dv_insn_init(&in, DV_OP_vconv);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
    fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, B_S0));
    fset(&in, "dst_type", DV_DT_S32);
    fset(&in, "src_type", DV_DT_F32);
    fset(&in, "repeat", 1);
    exec_ok(&in, &vs, &t);
    int32_t ir[4];
    memcpy(ir, ub + B_DST, sizeof ir);
    ck_assert(ir[0] == 0 && ir[1] == INT32_MAX && ir[2] == INT32_MIN && ir[3] == 1000000);
    fset(&in, "dst_type", DV_DT_F16);
    const uint16_t over[5] = {0x7c00, 0x7bff, 0x7c00, 0x7bff, 0x7c00}; /* r f c z a for 1e6 */
    for (int mode = 0; mode < 5; mode++) {
        fset(&in, "round", mode);
        exec_ok(&in, &vs, &t);
        uint16_t h[4];
        memcpy(h, ub + B_DST, sizeof h);
        ck_assert(isnan(h2f(h[0])) && h[1] == 0x7c00 && h[2] == 0xfc00);
        ck_assert_msg(h[3] == over[mode], "mode %d: %04x", mode, h[3]);
    }
    /* 'a' is round-half-away (CAST_ROUND): 2.5 -> 3, -2.5 -> -3; 'r' is half-even: 2 and -2 */
    const float tie[2] = {2.5f, -2.5f};
    memcpy(ub + B_S0, tie, sizeof tie);
    fset(&in, "dst_type", DV_DT_S32);
    fset(&in, "round", DV_ROUND_A);
    exec_ok(&in, &vs, &t);
    memcpy(ir, ub + B_DST, 8);
    ck_assert(ir[0] == 3 && ir[1] == -3);
    fset(&in, "round", DV_ROUND_R);
    exec_ok(&in, &vs, &t);
    memcpy(ir, ub + B_DST, 8);
    ck_assert(ir[0] == 2 && ir[1] == -2);
    tmem_free(&t);
}
END_TEST

/* ------------------------------------------------------------------ DMA-like forms */

START_TEST(test_semantics_dma)
{
    seed(20);
    const dv_op_t ops[] = {DV_OP_copy_gm_to_ubuf, DV_OP_copy_gm_to_cbuf, DV_OP_copy_ubuf_to_gm};
    const int shapes[][4] = {{1, 1, 0, 0}, {3, 2, 1, 0}, {5, 3, 0, 4}, {17, 1, 7, 2}, {2, 40, 100, 3}};
    for (int o = 0; o < 3; o++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            tmem_t got, want;
            tmem_init(&got);
            tmem_clone(&want, &got);
            const dv_op_spec_t *os = dv_op_spec(ops[o]);
            const uint64_t soff = 96 + 32 * rndn(64), doff = 64 + 32 * rndn(64);
            const unsigned arg = 1 + rndn(3);
            const uint64_t sa = os->src_space == DV_SPACE_GM ? DV_GM_ADDR(arg, soff) : DV_ADDR(os->src_space, soff);
            const uint64_t da = os->dst_space == DV_SPACE_GM ? DV_GM_ADDR(arg, doff) : DV_ADDR(os->dst_space, doff);
            dv_insn_t in;
            dv_insn_init(&in, ops[o]);
            fsetu(&in, "dst", da);
            fsetu(&in, "src", sa);
            fset(&in, "nburst", shapes[s][0]);
            fset(&in, "len", shapes[s][1]);
            fset(&in, "src_gap", shapes[s][2]);
            fset(&in, "dst_gap", shapes[s][3]);
            exec_ok(&in, NULL, &got);
            uint8_t *sp = os->src_space == DV_SPACE_GM ? want.gm[arg] : want.buf[os->src_space];
            uint8_t *dp = os->dst_space == DV_SPACE_GM ? want.gm[arg] : want.buf[os->dst_space];
            for (int i = 0; i < shapes[s][0]; i++)
                for (int b = 0; b < shapes[s][1] * 32; b++)
                    dp[doff + (uint64_t)i * (uint64_t)(shapes[s][1] + shapes[s][3]) * 32 + (uint64_t)b] =
                        sp[soff + (uint64_t)i * (uint64_t)(shapes[s][1] + shapes[s][2]) * 32 + (uint64_t)b];
            expect_same(&got, &want, os->mnemonic);
            tmem_free(&got);
            tmem_free(&want);
        }
}
END_TEST

/* DataCopyPad: byte lengths; GM bursts packed with byte gaps, UB bursts 32 B aligned with block
 * gaps.  Only len bytes per burst are written: the UB tail up to the burst's 32 B boundary and
 * every GM byte outside the runs keep their old values. */
START_TEST(test_semantics_dma_pad)
{
    seed(21);
    const dv_op_t ops[] = {DV_OP_copy_gm_to_ubuf_align, DV_OP_copy_ubuf_to_gm_align};
    const uint64_t lens[] = {1, 31, 32, 33, 100};
    int cases = 0;
    for (int o = 0; o < 2; o++)
        for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++)
            for (uint64_t nb = 1; nb <= 3; nb++)
                for (int g = 0; g < 2; g++) {
                    const bool to_ub = ops[o] == DV_OP_copy_gm_to_ubuf_align;
                    const uint64_t len = lens[l], pad = (len + 31) / 32 * 32;
                    const uint64_t gm_gap = g ? 7 + len % 5 : 0, ub_gap = g ? 2 : 0; /* bytes / 32 B blocks */
                    const uint64_t gm_stride = len + gm_gap, ub_stride = pad + ub_gap * 32;
                    const unsigned arg = 1 + rndn(3);
                    const uint64_t gm_off = 1 + rndn(200), ub_off = 64 + 32 * (uint64_t)rndn(64);
                    tmem_t got, want, orig;
                    tmem_init(&got);
                    tmem_clone(&want, &got);
                    tmem_clone(&orig, &got);
                    dv_insn_t in;
                    dv_insn_init(&in, ops[o]);
                    fsetu(&in, "dst", to_ub ? DV_ADDR(DV_SPACE_UB, ub_off) : DV_GM_ADDR(arg, gm_off));
                    fsetu(&in, "src", to_ub ? DV_GM_ADDR(arg, gm_off) : DV_ADDR(DV_SPACE_UB, ub_off));
                    fset(&in, "nburst", (int64_t)nb);
                    fset(&in, "len", (int64_t)len);
                    fset(&in, "src_gap", (int64_t)(to_ub ? gm_gap : ub_gap));
                    fset(&in, "dst_gap", (int64_t)(to_ub ? ub_gap : gm_gap));
                    exec_ok(&in, NULL, &got);
                    uint8_t *ub = want.buf[DV_SPACE_UB], *gm = want.gm[arg];
                    for (uint64_t i = 0; i < nb; i++)
                        for (uint64_t b = 0; b < len; b++) {
                            if (to_ub)
                                ub[ub_off + i * ub_stride + b] = gm[gm_off + i * gm_stride + b];
                            else
                                gm[gm_off + i * gm_stride + b] = ub[ub_off + i * ub_stride + b];
                        }
                    char what[96];
                    snprintf(what, sizeof what, "%s len=%llu nburst=%llu gaps=%d", dv_op_spec(ops[o])->mnemonic,
                             (unsigned long long)len, (unsigned long long)nb, g);
                    expect_same(&got, &want, what);
                    /* spelled out: the padded UB tails and the GM bytes around the runs are untouched */
                    const uint8_t *gub = got.buf[DV_SPACE_UB], *oub = orig.buf[DV_SPACE_UB];
                    const uint8_t *ggm = got.gm[arg], *ogm = orig.gm[arg];
                    for (uint64_t i = 0; i < nb; i++) {
                        if (to_ub) {
                            for (uint64_t b = len; b < ub_stride; b++)
                                ck_assert_msg(gub[ub_off + i * ub_stride + b] == oub[ub_off + i * ub_stride + b],
                                              "%s: UB byte %llu of burst %llu changed", what, (unsigned long long)b,
                                              (unsigned long long)i);
                        } else {
                            for (uint64_t b = len; b < gm_stride; b++)
                                ck_assert(ggm[gm_off + i * gm_stride + b] == ogm[gm_off + i * gm_stride + b]);
                            ck_assert(ggm[gm_off - 1] == ogm[gm_off - 1]);
                        }
                    }
                    tmem_free(&got);
                    tmem_free(&want);
                    tmem_free(&orig);
                    cases++;
                }
    ck_assert_int_eq(cases, 2 * 5 * 3 * 2);
}
END_TEST

START_TEST(test_semantics_nd2nz)
{
    seed(21);
    const int dts[] = {DV_DT_F16, DV_DT_BF16, DV_DT_F32, DV_DT_S8};
    /* nd_num, n_value, d_value, src_nd_stride, src_d_stride, dst_c0_stride, dst_n_stride, dst_nd_stride */
    const int shapes[][8] = {{1, 16, 16, 0, 16, 16, 1, 0},   {2, 5, 20, 300, 24, 8, 1, 40},
                             {3, 17, 33, 700, 40, 20, 1, 80}, {1, 1, 1, 0, 1, 1, 1, 0},
                             {2, 9, 50, 500, 50, 3, 4, 120}};
    for (int d = 0; d < 4; d++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            tmem_t got, want;
            tmem_init(&got);
            tmem_clone(&want, &got);
            const int *p = shapes[s];
            const uint64_t size = sz(dts[d]), C0 = 32 / size, soff = 1000, doff = 4096;
            dv_insn_t in;
            dv_insn_init(&in, DV_OP_copy_gm_to_cbuf_nd2nz);
            fsetu(&in, "dst", DV_ADDR(DV_SPACE_L1, doff));
            fsetu(&in, "src", DV_GM_ADDR(2, soff));
            fset(&in, "dtype", dts[d]);
            fset(&in, "nd_num", p[0]);
            fset(&in, "n_value", p[1]);
            fset(&in, "d_value", p[2]);
            fset(&in, "src_nd_stride", p[3]);
            fset(&in, "src_d_stride", p[4]);
            fset(&in, "dst_c0_stride", p[5]);
            fset(&in, "dst_n_stride", p[6]);
            fset(&in, "dst_nd_stride", p[7]);
            exec_ok(&in, NULL, &got);
            const uint64_t cols = (uint64_t)(p[2] + (int)C0 - 1) / C0 * C0;
            for (uint64_t j = 0; j < (uint64_t)p[0]; j++)
                for (uint64_t i = 0; i < (uint64_t)p[1]; i++)
                    for (uint64_t c = 0; c < cols; c++) {
                        uint8_t *dst = want.buf[DV_SPACE_L1] + doff + j * (uint64_t)p[7] * 32 + (c / C0) * (uint64_t)p[5] * 32 +
                                       i * (uint64_t)p[6] * 32 + (c % C0) * size;
                        if (c < (uint64_t)p[2])
                            memcpy(dst, want.gm[2] + soff + (j * (uint64_t)p[3] + i * (uint64_t)p[4] + c) * size, size);
                        else
                            memset(dst, 0, size);
                    }
            char what[64];
            snprintf(what, sizeof what, "nd2nz %s shape %zu", dv_dtype_name((dv_dtype_t)dts[d]), s);
            expect_same(&got, &want, what);
            tmem_free(&got);
            tmem_free(&want);
        }
}
END_TEST

START_TEST(test_semantics_load2d)
{
    seed(22);
    const dv_op_t ops[] = {DV_OP_load_cbuf_to_ca, DV_OP_load_cbuf_to_cb, DV_OP_load_gm_to_ca, DV_OP_load_gm_to_cb};
    const int dts[] = {DV_DT_F16, DV_DT_BF16, DV_DT_F32, DV_DT_S8};
    const int shapes[][4] = {{0, 1, 1, 0}, {3, 5, 2, 1}, {1, 255, 1, 0}, {7, 4, 0, 3}}; /* base, repeat, stride, gap */
    for (int o = 0; o < 4; o++)
        for (int d = 0; d < 4; d++)
            for (int tr = 0; tr < (sz(dts[d]) == 2 ? 2 : 1); tr++)
                for (int s = 0; s < 4; s++) {
                    tmem_t got, want;
                    tmem_init(&got);
                    tmem_clone(&want, &got);
                    const dv_op_spec_t *os = dv_op_spec(ops[o]);
                    const int *p = shapes[s];
                    const uint64_t soff = 512, doff = 1024;
                    dv_insn_t in;
                    dv_insn_init(&in, ops[o]);
                    fsetu(&in, "dst", DV_ADDR(os->dst_space, doff));
                    fsetu(&in, "src", os->src_space == DV_SPACE_GM ? DV_GM_ADDR(0, soff) : DV_ADDR(os->src_space, soff));
                    fset(&in, "dtype", dts[d]);
                    fset(&in, "base_idx", p[0]);
                    fset(&in, "repeat", p[1]);
                    fset(&in, "src_stride", p[2]);
                    fset(&in, "dst_gap", p[3]);
                    fset(&in, "transpose", tr);
                    exec_ok(&in, NULL, &got);
                    const uint8_t *sp = os->src_space == DV_SPACE_GM ? want.gm[0] : want.buf[os->src_space];
                    uint8_t *dp = want.buf[os->dst_space];
                    for (uint64_t i = 0; i < (uint64_t)p[1]; i++) {
                        const uint8_t *sf = sp + soff + ((uint64_t)p[0] + i * (uint64_t)p[2]) * 512;
                        uint8_t *df = dp + doff + i * (uint64_t)(p[3] + 1) * 512;
                        for (int r = 0; r < 16; r++)
                            for (int c = 0; c < 16; c++) /* 16 x 32 B rows; transpose swaps 2-byte (r, c) */
                                memcpy(df + r * 32 + c * 2, tr ? sf + c * 32 + r * 2 : sf + r * 32 + c * 2, 2);
                    }
                    expect_same(&got, &want, os->mnemonic);
                    tmem_free(&got);
                    tmem_free(&want);
                }
}
END_TEST

START_TEST(test_semantics_img2col)
{
    seed(23);
    /* H W C1 kh kw sh sw pt pb pl pr dh dw m_start m_ext k_start k_ext */
    const int shapes[][17] = {
        {8, 8, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 0, 64, 0, 144},   /* same padding */
        {9, 7, 2, 3, 2, 2, 1, 0, 1, 2, 0, 1, 2, 5, 20, 32, 96},   /* stride, dilation, offsets */
        {6, 6, 3, 2, 2, 2, 2, 1, 0, 0, 1, 2, 1, 0, 30, 16, 208},  /* rows past Ho*Wo, cols past K */
        {5, 11, 1, 1, 1, 1, 3, 0, 0, 4, 4, 1, 1, 3, 7, 0, 16},    /* 1x1 kernel, wide pad */
        {4, 4, 2, 5, 5, 1, 1, 2, 2, 2, 2, 1, 1, 0, 16, 400, 240}, /* k window at the end */
    };
    for (int d = 0; d < 2; d++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            const int *p = shapes[s];
            tmem_t got, want;
            tmem_init(&got);
            tmem_clone(&want, &got);
            const uint64_t soff = 2048, doff = 512;
            static const char *names[] = {"fmap_h", "fmap_w", "c1", "kh", "kw", "stride_h", "stride_w", "pad_t", "pad_b",
                                          "pad_l", "pad_r", "dil_h", "dil_w", "m_start", "m_ext", "k_start", "k_ext"};
            dv_insn_t in;
            dv_insn_init(&in, DV_OP_img2col_cbuf_to_ca);
            fsetu(&in, "dst", DV_ADDR(DV_SPACE_L0A, doff));
            fsetu(&in, "src", DV_ADDR(DV_SPACE_L1, soff));
            fset(&in, "dtype", d ? DV_DT_BF16 : DV_DT_F16);
            for (int i = 0; i < 17; i++)
                fset(&in, names[i], p[i]);
            exec_ok(&in, NULL, &got);
            const int H = p[0], W = p[1], C1 = p[2], kh = p[3], kw = p[4];
            const int Ho = (H + p[7] + p[8] - p[11] * (kh - 1) - 1) / p[5] + 1;
            const int Wo = (W + p[9] + p[10] - p[12] * (kw - 1) - 1) / p[6] + 1;
            const int Ktot = C1 * kh * kw * 16, mext = p[14], kext = p[16], M1 = (mext + 15) / 16, K1 = kext / 16;
            const uint8_t *fm = want.buf[DV_SPACE_L1] + soff;
            for (int ml = 0; ml < M1 * 16; ml++)
                for (int kl = 0; kl < kext; kl++) {
                    const int m = p[13] + ml, k = p[15] + kl;
                    uint16_t v = 0;
                    if (ml < mext && m < Ho * Wo && k < Ktot) {
                        const int c0 = k % 16, kwi = (k / 16) % kw, khi = (k / 16 / kw) % kh, c1 = k / 16 / kw / kh;
                        const int ih = (m / Wo) * p[5] - p[7] + khi * p[11], iw = (m % Wo) * p[6] - p[9] + kwi * p[12];
                        if (ih >= 0 && ih < H && iw >= 0 && iw < W)
                            memcpy(&v, fm + ((((size_t)c1 * (size_t)H + (size_t)ih) * (size_t)W + (size_t)iw) * 16 + (size_t)c0) * 2, 2);
                    }
                    memcpy(want.buf[DV_SPACE_L0A] + doff + ((size_t)(ml / 16) * (size_t)K1 + (size_t)(kl / 16)) * 512 +
                               ((size_t)(ml % 16) * 16 + (size_t)(kl % 16)) * 2,
                           &v, 2);
                }
            char what[32];
            snprintf(what, sizeof what, "img2col shape %zu", s);
            expect_same(&got, &want, what);
            tmem_free(&got);
            tmem_free(&want);
        }
}
END_TEST

/* Reference layouts of the cube buffers. */
static uint64_t zz_off(int r, int c, int K, int size)
{
    const int K0 = 32 / size, K1 = (K + K0 - 1) / K0;
    return ((uint64_t)(r / 16) * (uint64_t)K1 + (uint64_t)(c / K0)) * 512 + (uint64_t)((r % 16) * K0 + c % K0) * (uint64_t)size;
}
static uint64_t zn_off(int k, int n, int N, int size)
{
    const int K0 = 32 / size, N1 = (N + 15) / 16;
    return ((uint64_t)(k / K0) * (uint64_t)N1 + (uint64_t)(n / 16)) * 512 + (uint64_t)((n % 16) * K0 + k % K0) * (uint64_t)size;
}
static uint64_t nz_off(int m, int n, int M)
{
    const int M1 = (M + 15) / 16;
    return ((uint64_t)(n / 16) * (uint64_t)M1 + (uint64_t)(m / 16)) * 1024 + (uint64_t)((m % 16) * 16 + n % 16) * 4;
}

/* Cube operands: moderate exponents so sums stay finite but rounding order still shows. */
static uint64_t gen_mm(int dt)
{
    if (dt == DV_DT_F32)
        return (rnd() & 0x80000000u) | (118u + rndn(16)) << 23 | (rnd() & 0x7fffff);
    return gen_elem(dt, D_NORMAL, false);
}

START_TEST(test_semantics_mmad)
{
    seed(24);
    const int dts[] = {DV_DT_F16, DV_DT_BF16, DV_DT_F32, DV_DT_S8};
    const int shapes[][3] = {{1, 1, 1}, {20, 40, 30}, {33, 70, 17}, {16, 16, 16}, {5, 100, 48}};
    for (int d = 0; d < 4; d++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            for (int init = 1; init >= 0; init--) {
                const int dt = dts[d], M = shapes[s][0], K = shapes[s][1], N = shapes[s][2], size = (int)sz(dt);
                tmem_t got, want;
                tmem_init(&got);
                /* operands: finite values; C: finite f32 (or any s32) */
                for (uint64_t i = 0; i < L0_SIZE; i += (uint64_t)size) {
                    rst_bits(dt, got.buf[DV_SPACE_L0A] + i, gen_mm(dt));
                    rst_bits(dt, got.buf[DV_SPACE_L0B] + i, gen_mm(dt));
                }
                for (uint64_t i = 0; i < L0C_SIZE; i += 4)
                    rst_bits(DV_DT_F32, got.buf[DV_SPACE_L0C] + i,
                             dt == DV_DT_S8 ? rnd() : fbits((float)((int)rndn(2001) - 1000) / 8));
                tmem_clone(&want, &got);
                const uint64_t ao = 1024, bo = 2048, co = 4096;
                dv_insn_t in;
                dv_insn_init(&in, DV_OP_mmad);
                fsetu(&in, "c", DV_ADDR(DV_SPACE_L0C, co));
                fsetu(&in, "a", DV_ADDR(DV_SPACE_L0A, ao));
                fsetu(&in, "b", DV_ADDR(DV_SPACE_L0B, bo));
                fset(&in, "dtype", dt);
                fset(&in, "m", M);
                fset(&in, "k", K);
                fset(&in, "n", N);
                fset(&in, "init", init);
                exec_ok(&in, NULL, &got);
                const uint8_t *A = want.buf[DV_SPACE_L0A] + ao, *B = want.buf[DV_SPACE_L0B] + bo;
                uint8_t *C = want.buf[DV_SPACE_L0C] + co;
                for (int m = 0; m < M; m++)
                    for (int n = 0; n < N; n++) {
                        uint8_t *cp = C + nz_off(m, n, M);
                        if (dt == DV_DT_S8) {
                            int64_t acc = init ? 0 : (int64_t)rld(DV_DT_S32, cp);
                            for (int k = 0; k < K; k++)
                                acc += (int64_t)rld(dt, A + zz_off(m, k, K, size)) * (int64_t)rld(dt, B + zn_off(k, n, N, size));
                            rst_i(DV_DT_S32, cp, acc);
                        } else {
                            float acc = init ? 0.0f : (float)rld(DV_DT_F32, cp);
                            for (int k = 0; k < K; k++) {
                                const float p = (float)rld(dt, A + zz_off(m, k, K, size)) * (float)rld(dt, B + zn_off(k, n, N, size));
                                acc = acc + p;
                            }
                            rst_f(DV_DT_F32, cp, acc);
                        }
                    }
                char what[64];
                snprintf(what, sizeof what, "mmad %s %dx%dx%d init %d", dv_dtype_name((dv_dtype_t)dt), M, K, N, init);
                expect_same(&got, &want, what);
                tmem_free(&got);
                tmem_free(&want);
            }
}
END_TEST

START_TEST(test_semantics_fixpipe)
{
    seed(25);
    const dv_op_t ops[] = {DV_OP_copy_matrix_cc_to_gm, DV_OP_copy_matrix_cc_to_cbuf, DV_OP_copy_matrix_cc_to_ubuf};
    const int shapes[][4] = {{20, 40, 32, 48}, {16, 16, 16, 16}, {3, 50, 7, 64}, {1, 1, 1, 1}}; /* m n src_stride dst_stride */
    for (int o = 0; o < 3; o++)
        for (int q = 0; q < 3; q++)
            for (int relu = 0; relu < 2; relu++)
                for (int nd = 0; nd < 2; nd++)
                    for (int s = 0; s < 4; s++) {
                        const int *p = shapes[s];
                        tmem_t got, want;
                        tmem_init(&got);
                        for (uint64_t i = 0; i < L0C_SIZE; i += 4)
                            rst_bits(DV_DT_F32, got.buf[DV_SPACE_L0C] + i,
                                     rndn(8) ? gen_elem(DV_DT_F32, D_CONV, false) : 0x80000000u); /* -0 */
                        tmem_clone(&want, &got);
                        const dv_op_spec_t *os = dv_op_spec(ops[o]);
                        const uint64_t so = 1024, doff = 96;
                        dv_insn_t in;
                        dv_insn_init(&in, ops[o]);
                        fsetu(&in, "dst", os->dst_space == DV_SPACE_GM ? DV_GM_ADDR(3, doff) : DV_ADDR(os->dst_space, doff));
                        fsetu(&in, "src", DV_ADDR(DV_SPACE_L0C, so));
                        fset(&in, "m_size", p[0]);
                        fset(&in, "n_size", p[1]);
                        fset(&in, "src_stride", p[2] > p[0] ? p[2] : p[0]);
                        fset(&in, "dst_stride", p[3]);
                        fset(&in, "quant", q);
                        fset(&in, "relu", relu);
                        fset(&in, "nz2nd", nd);
                        exec_ok(&in, NULL, &got);
                        const int ot = q == DV_QUANT_F16 ? DV_DT_F16 : q == DV_QUANT_BF16 ? DV_DT_BF16 : DV_DT_F32;
                        const uint64_t osz = sz(ot), ss = (uint64_t)(p[2] > p[0] ? p[2] : p[0]), ds = (uint64_t)p[3];
                        uint8_t *dp = (os->dst_space == DV_SPACE_GM ? want.gm[3] : want.buf[os->dst_space]) + doff;
                        for (uint64_t m = 0; m < (uint64_t)p[0]; m++)
                            for (uint64_t n = 0; n < (uint64_t)p[1]; n++) {
                                const uint8_t *sp = want.buf[DV_SPACE_L0C] + so + (((n / 16) * ss + m) * 16 + n % 16) * 4;
                                uint8_t *d = dp + (nd ? (m * ds + n) * osz : (((n / 16) * ds + m) * 16 + n % 16) * osz);
                                float x;
                                memcpy(&x, sp, 4);
                                if (relu && !(x > 0))
                                    x = 0.0f;
                                rst_f(ot, d, x);
                            }
                        char what[96];
                        snprintf(what, sizeof what, "%s quant %d relu %d nz2nd %d shape %d", os->mnemonic, q, relu, nd, s);
                        expect_same(&got, &want, what);
                        tmem_free(&got);
                        tmem_free(&want);
                    }
}
END_TEST

/* The layouts compose: ZZ A x ZN B through mmad and an ND fixpipe is the plain matrix product. */
START_TEST(test_semantics_matmul_end_to_end)
{
    seed(26);
    tmem_t t;
    tmem_init(&t);
    const int M = 37, K = 50, N = 29;
    static int a[37][50], b[50][29];
    for (int m = 0; m < M; m++)
        for (int k = 0; k < K; k++) {
            a[m][k] = (int)rndn(9) - 4;
            const uint16_t h = d2h(a[m][k]);
            memcpy(t.buf[DV_SPACE_L0A] + zz_off(m, k, K, 2), &h, 2);
        }
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++) {
            b[k][n] = (int)rndn(9) - 4;
            const uint16_t h = d2h(b[k][n]);
            memcpy(t.buf[DV_SPACE_L0B] + zn_off(k, n, N, 2), &h, 2);
        }
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_mmad);
    fsetu(&in, "c", DV_ADDR(DV_SPACE_L0C, 0));
    fsetu(&in, "a", DV_ADDR(DV_SPACE_L0A, 0));
    fsetu(&in, "b", DV_ADDR(DV_SPACE_L0B, 0));
    fset(&in, "dtype", DV_DT_F16);
    fset(&in, "m", M);
    fset(&in, "k", K);
    fset(&in, "n", N);
    exec_ok(&in, NULL, &t);
    dv_insn_init(&in, DV_OP_copy_matrix_cc_to_gm);
    fsetu(&in, "dst", DV_GM_ADDR(1, 0));
    fsetu(&in, "src", DV_ADDR(DV_SPACE_L0C, 0));
    fset(&in, "m_size", M);
    fset(&in, "n_size", N);
    fset(&in, "src_stride", (M + 15) / 16 * 16);
    fset(&in, "dst_stride", N);
    exec_ok(&in, NULL, &t);
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            int want = 0;
            for (int k = 0; k < K; k++)
                want += a[m][k] * b[k][n];
            float got;
            memcpy(&got, t.gm[1] + ((size_t)m * (size_t)N + (size_t)n) * 4, 4);
            ck_assert_msg(got == (float)want, "C[%d][%d] = %g, want %d", m, n, (double)got, want);
        }
    tmem_free(&t);
}
END_TEST

/* ------------------------------------------------------------------ footprints, geometry, shapes */

static dv_insn_t vadd_f32(uint64_t dst, int repeat, int dst_rep)
{
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_vadd);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, dst));
    fsetu(&in, "src0", DV_ADDR(DV_SPACE_UB, 0x10000));
    fsetu(&in, "src1", DV_ADDR(DV_SPACE_UB, 0x20000));
    fset(&in, "dtype", DV_DT_F32);
    fset(&in, "repeat", repeat);
    fset(&in, "dst_rep", dst_rep);
    return in;
}

static void expect_range(const dv_range_t *r, int space, int arg, uint64_t lo, uint64_t hi, int write)
{
    ck_assert_int_eq(r->space, space);
    ck_assert_int_eq(r->arg, arg);
    ck_assert_uint_eq(r->lo, lo);
    ck_assert_uint_eq(r->hi, hi);
    ck_assert_int_eq(r->write, write);
}

START_TEST(test_semantics_footprint_vector)
{
    dv_range_t r[DV_MAX_RANGES];
    dv_vstate_t vs;
    dv_vstate_reset(&vs);
    dv_insn_t in = vadd_f32(0x100, 2, 8);
    ck_assert_int_eq(dv_footprint(&in, &vs, r), 3);
    expect_range(&r[0], DV_SPACE_UB, 0, 0x100, 0x100 + 512, 1);
    expect_range(&r[1], DV_SPACE_UB, 0, 0x10000, 0x10000 + 512, 0);
    expect_range(&r[2], DV_SPACE_UB, 0, 0x20000, 0x20000 + 512, 0);
    in = vadd_f32(0x100, 2, 16);
    dv_footprint(&in, &vs, r);
    expect_range(&r[0], DV_SPACE_UB, 0, 0x100, 0x100 + 512 + 256, 1);
    /* bit mask: elements 8..11 of each repeat = block 1, positions 0..3 */
    vs.hi = 0;
    vs.lo = 0xF00;
    in = vadd_f32(0x100, 3, 8);
    dv_footprint(&in, &vs, r);
    expect_range(&r[0], DV_SPACE_UB, 0, 0x100 + 32, 0x100 + 2 * 256 + 32 + 16, 1);
    /* count mode: 70 f32 = one full repeat and 6 elements; the repeat field is ignored */
    vs.count_mode = true;
    vs.lo = 70;
    in = vadd_f32(0x100, 200, 8);
    dv_footprint(&in, &vs, r);
    expect_range(&r[0], DV_SPACE_UB, 0, 0x100, 0x100 + 256 + 24, 1);
    /* ... with a 32-byte repeat stride the full first repeat reaches further than the tail */
    in = vadd_f32(0x100, 200, 1);
    dv_footprint(&in, &vs, r);
    expect_range(&r[0], DV_SPACE_UB, 0, 0x100, 0x100 + 256, 1);
    vs.lo = 0;
    ck_assert_int_eq(dv_footprint(&in, &vs, r), 0);
    /* zero repeats, mask of zero */
    dv_vstate_reset(&vs);
    in = vadd_f32(0x100, 0, 8);
    ck_assert_int_eq(dv_footprint(&in, &vs, r), 0);
    /* vcmp f16: E = 128, 16 bytes of bits per repeat */
    dv_insn_init(&in, DV_OP_vcmp);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0x40));
    fsetu(&in, "src0", DV_ADDR(DV_SPACE_UB, 0x1000));
    fsetu(&in, "src1", DV_ADDR(DV_SPACE_UB, 0x2000));
    fset(&in, "dtype", DV_DT_F16);
    fset(&in, "repeat", 5);
    ck_assert_int_eq(dv_footprint(&in, &vs, r), 3);
    expect_range(&r[0], DV_SPACE_UB, 0, 0x40, 0x40 + 80, 1);
    /* vcmax f32, dst_rep 3: pair r at 2*r*3 elements */
    dv_insn_init(&in, DV_OP_vcmax);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0));
    fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 0x1000));
    fset(&in, "dtype", DV_DT_F32);
    fset(&in, "repeat", 4);
    fset(&in, "dst_rep", 3);
    dv_footprint(&in, &vs, r);
    expect_range(&r[0], DV_SPACE_UB, 0, 0, 3 * 24 + 8, 1);
    expect_range(&r[1], DV_SPACE_UB, 0, 0x1000, 0x1000 + 4 * 256, 0);
}
END_TEST

START_TEST(test_semantics_footprint_cube)
{
    dv_range_t r[DV_MAX_RANGES];
    dv_insn_t in;
    /* mmad f16 20x40x30: M1 2, K1 3, N1 2 */
    dv_insn_init(&in, DV_OP_mmad);
    fsetu(&in, "c", DV_ADDR(DV_SPACE_L0C, 0));
    fsetu(&in, "a", DV_ADDR(DV_SPACE_L0A, 512));
    fsetu(&in, "b", DV_ADDR(DV_SPACE_L0B, 0));
    fset(&in, "dtype", DV_DT_F16);
    fset(&in, "m", 20);
    fset(&in, "k", 40);
    fset(&in, "n", 30);
    fset(&in, "init", 0);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 4);
    expect_range(&r[0], DV_SPACE_L0C, 0, 0, 3320, 1);
    expect_range(&r[1], DV_SPACE_L0C, 0, 0, 3320, 0);
    expect_range(&r[2], DV_SPACE_L0A, 0, 512, 512 + 2672, 0);
    expect_range(&r[3], DV_SPACE_L0B, 0, 0, 2992, 0);
    fset(&in, "init", 1);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 3);
    /* load2d: base 2, repeat 3, src_stride 4, dst_gap 1 */
    dv_insn_init(&in, DV_OP_load_cbuf_to_ca);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_L0A, 0));
    fsetu(&in, "src", DV_ADDR(DV_SPACE_L1, 0));
    fset(&in, "dtype", DV_DT_F16);
    fset(&in, "base_idx", 2);
    fset(&in, "repeat", 3);
    fset(&in, "src_stride", 4);
    fset(&in, "dst_gap", 1);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    expect_range(&r[0], DV_SPACE_L0A, 0, 0, 2560, 1);
    expect_range(&r[1], DV_SPACE_L1, 0, 1024, 5632, 0);
    /* img2col 8x8x(c1 2), 3x3 kernel, pad 1: Ho = Wo = 8; rows 16..47 read ih 1..6 */
    dv_insn_init(&in, DV_OP_img2col_cbuf_to_ca);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_L0A, 0));
    fsetu(&in, "src", DV_ADDR(DV_SPACE_L1, 0));
    fset(&in, "dtype", DV_DT_F16);
    fset(&in, "fmap_h", 8);
    fset(&in, "fmap_w", 8);
    fset(&in, "c1", 2);
    fset(&in, "kh", 3);
    fset(&in, "kw", 3);
    fset(&in, "pad_t", 1);
    fset(&in, "pad_b", 1);
    fset(&in, "pad_l", 1);
    fset(&in, "pad_r", 1);
    fset(&in, "m_start", 16);
    fset(&in, "m_ext", 20);   /* M1 = 2 */
    fset(&in, "k_start", 160); /* C0 groups 10..17: c1 = 1 only */
    fset(&in, "k_ext", 128);   /* K1 = 8 */
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    expect_range(&r[0], DV_SPACE_L0A, 0, 0, 2 * 8 * 512, 1);
    /* rows 16..35: oh 2..4 -> ih 1..5; c1 = 1: bytes ((8+1)*8)*32 .. ((8+5)*8+8)*32 */
    expect_range(&r[1], DV_SPACE_L1, 0, 72 * 32, 112 * 32, 0);
}
END_TEST

START_TEST(test_semantics_footprint_and_xfer_dma)
{
    dv_range_t r[DV_MAX_RANGES];
    dv_xfer_t x;
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_copy_gm_to_ubuf);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 64));
    fsetu(&in, "src", DV_GM_ADDR(2, 100));
    fset(&in, "nburst", 3);
    fset(&in, "len", 2);
    fset(&in, "src_gap", 1);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    expect_range(&r[0], DV_SPACE_UB, 0, 64, 64 + 192, 1);
    expect_range(&r[1], DV_SPACE_GM, 2, 100, 356, 0);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_uint_eq(x.src_bytes, 192);
    ck_assert_uint_eq(x.dst_bytes, 192);
    ck_assert_uint_eq(x.bursts, 3);
    ck_assert_uint_eq(x.burst_bytes, 64);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 0), 100);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 2), 292);
    /* UB -> GM: the GM side is the destination */
    dv_insn_init(&in, DV_OP_copy_ubuf_to_gm);
    fsetu(&in, "dst", DV_GM_ADDR(0, 4096));
    fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 0));
    fset(&in, "nburst", 4);
    fset(&in, "len", 1);
    fset(&in, "dst_gap", 3);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_uint_eq(x.bursts, 4);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 3), 4096 + 3 * 128);
    /* nd2nz f16: 2 matrices of 3 rows x 20 columns */
    dv_insn_init(&in, DV_OP_copy_gm_to_cbuf_nd2nz);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_L1, 0));
    fsetu(&in, "src", DV_GM_ADDR(1, 10));
    fset(&in, "dtype", DV_DT_F16);
    fset(&in, "nd_num", 2);
    fset(&in, "n_value", 3);
    fset(&in, "d_value", 20);
    fset(&in, "src_nd_stride", 100);
    fset(&in, "src_d_stride", 24);
    fset(&in, "dst_c0_stride", 4);
    fset(&in, "dst_n_stride", 1);
    fset(&in, "dst_nd_stride", 10);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    expect_range(&r[0], DV_SPACE_L1, 0, 0, 544, 1);
    expect_range(&r[1], DV_SPACE_GM, 1, 10, 10 + 336, 0);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_uint_eq(x.src_bytes, 240);
    ck_assert_uint_eq(x.dst_bytes, 2 * 3 * 2 * 32);
    ck_assert_uint_eq(x.bursts, 6);
    ck_assert_uint_eq(x.burst_bytes, 40);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 4), 10 + 200 + 48);
    /* fixpipe to GM, f16 ND: 20 rows of 40 */
    dv_insn_init(&in, DV_OP_copy_matrix_cc_to_gm);
    fsetu(&in, "dst", DV_GM_ADDR(3, 0));
    fsetu(&in, "src", DV_ADDR(DV_SPACE_L0C, 0));
    fset(&in, "m_size", 20);
    fset(&in, "n_size", 40);
    fset(&in, "src_stride", 32);
    fset(&in, "dst_stride", 48);
    fset(&in, "quant", DV_QUANT_F16);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    expect_range(&r[0], DV_SPACE_GM, 3, 0, 1904, 1);
    expect_range(&r[1], DV_SPACE_L0C, 0, 0, 5344, 0);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_uint_eq(x.src_bytes, 3200);
    ck_assert_uint_eq(x.dst_bytes, 1600);
    ck_assert_uint_eq(x.bursts, 20);
    ck_assert_uint_eq(x.burst_bytes, 80);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 19), 19 * 96);
    /* NZ output with n a multiple of 16: one run per column block */
    fset(&in, "nz2nd", 0);
    fset(&in, "n_size", 32);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_uint_eq(x.bursts, 2);
    ck_assert_uint_eq(x.burst_bytes, 20 * 32);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 1), 48 * 32);
    /* load_gm_to_cb: fractal runs from base_idx */
    dv_insn_init(&in, DV_OP_load_gm_to_cb);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_L0B, 0));
    fsetu(&in, "src", DV_GM_ADDR(0, 0));
    fset(&in, "dtype", DV_DT_S8);
    fset(&in, "base_idx", 1);
    fset(&in, "repeat", 4);
    fset(&in, "src_stride", 3);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_uint_eq(x.bursts, 4);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 2), 512 + 2 * 3 * 512);
    /* local-only transfers have no GM runs; other forms are not transfers */
    dv_insn_init(&in, DV_OP_load_cbuf_to_ca);
    fset(&in, "dtype", DV_DT_F16);
    fset(&in, "repeat", 2);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_uint_eq(x.bursts, 0);
    ck_assert_uint_eq(x.dst_bytes, 1024);
    in = vadd_f32(0, 1, 8);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), -1);
    dv_insn_init(&in, DV_OP_set_flag);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 0);
}
END_TEST

/* copy_*_align footprints are exactly the bytes touched; transfer shapes count len bytes per run. */
START_TEST(test_semantics_footprint_and_xfer_dma_pad)
{
    dv_range_t r[DV_MAX_RANGES];
    dv_xfer_t x;
    dv_insn_t in;
    /* GM -> UB: 3 bursts of 33 B; GM stride 33 + 5 = 38, UB stride 64 + 1*32 = 96 */
    dv_insn_init(&in, DV_OP_copy_gm_to_ubuf_align);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 64));
    fsetu(&in, "src", DV_GM_ADDR(2, 103));
    fset(&in, "nburst", 3);
    fset(&in, "len", 33);
    fset(&in, "src_gap", 5);
    fset(&in, "dst_gap", 1);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    expect_range(&r[0], DV_SPACE_UB, 0, 64, 64 + 2 * 96 + 33, 1);
    expect_range(&r[1], DV_SPACE_GM, 2, 103, 103 + 2 * 38 + 33, 0);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_uint_eq(x.src_bytes, 99);
    ck_assert_uint_eq(x.dst_bytes, 99);
    ck_assert_uint_eq(x.bursts, 3);
    ck_assert_uint_eq(x.burst_bytes, 33);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 0), 103);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 2), 103 + 2 * 38);
    /* one burst: exactly len bytes on both sides */
    fset(&in, "nburst", 1);
    fset(&in, "len", 1);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    expect_range(&r[0], DV_SPACE_UB, 0, 64, 65, 1);
    expect_range(&r[1], DV_SPACE_GM, 2, 103, 104, 0);
    /* UB -> GM: 4 bursts of 100 B; UB stride 128 + 2*32 = 192, GM stride 100 + 7 = 107 */
    dv_insn_init(&in, DV_OP_copy_ubuf_to_gm_align);
    fsetu(&in, "dst", DV_GM_ADDR(0, 4097));
    fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 0));
    fset(&in, "nburst", 4);
    fset(&in, "len", 100);
    fset(&in, "src_gap", 2);
    fset(&in, "dst_gap", 7);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    expect_range(&r[0], DV_SPACE_GM, 0, 4097, 4097 + 3 * 107 + 100, 1);
    expect_range(&r[1], DV_SPACE_UB, 0, 0, 3 * 192 + 100, 0);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_uint_eq(x.src_bytes, 400);
    ck_assert_uint_eq(x.dst_bytes, 400);
    ck_assert_uint_eq(x.bursts, 4);
    ck_assert_uint_eq(x.burst_bytes, 100);
    ck_assert_uint_eq(x.gm_stride, 107);
    ck_assert_uint_eq(dv_xfer_run_offset(&x, 3), 4097 + 3 * 107);
    /* len a multiple of 32 with byte gaps of whole blocks: the same shape as the 32 B-unit copy */
    dv_insn_t plain;
    dv_xfer_t y;
    dv_range_t q[DV_MAX_RANGES];
    fset(&in, "len", 96);
    fset(&in, "dst_gap", 64);
    dv_insn_init(&plain, DV_OP_copy_ubuf_to_gm);
    plain.f[DV_FLD(DMA, dst)].u = DV_GM_ADDR(0, 4097);
    plain.f[DV_FLD(DMA, src)].u = DV_ADDR(DV_SPACE_UB, 0);
    plain.f[DV_FLD(DMA, nburst)].i = 4;
    plain.f[DV_FLD(DMA, len)].i = 3;
    plain.f[DV_FLD(DMA, src_gap)].i = 2;
    plain.f[DV_FLD(DMA, dst_gap)].i = 2;
    ck_assert_int_eq(dv_xfer_shape(&in, &x), 0);
    ck_assert_int_eq(dv_xfer_shape(&plain, &y), 0);
    ck_assert(memcmp(&x, &y, sizeof x) == 0);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    ck_assert_int_eq(dv_footprint(&plain, NULL, q), 2);
    for (int k = 0; k < 2; k++)
        expect_range(&r[k], q[k].space, q[k].arg, q[k].lo, q[k].hi, q[k].write);
}
END_TEST

START_TEST(test_semantics_vec_geometry)
{
    dv_vgeom_t g;
    dv_vstate_t vs;
    dv_vstate_reset(&vs);
    dv_insn_t in = vadd_f32(0, 10, 8);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), 3);
    ck_assert_uint_eq(g.repeats, 10);
    ck_assert_uint_eq(g.elems_per_repeat, 64);
    ck_assert_uint_eq(g.elems, 640);
    ck_assert_uint_eq(g.ops[0].blk_bytes, 32);
    ck_assert_uint_eq(g.ops[0].rep_stride, 256);
    ck_assert(g.ops[0].write && !g.ops[1].write);
    vs.count_mode = true;
    vs.lo = 100;
    dv_vec_geometry(&in, &vs, &g);
    ck_assert_uint_eq(g.repeats, 2);
    ck_assert_uint_eq(g.elems, 100);
    vs.count_mode = false;
    vs.hi = 0xff; /* ignored for 32-bit types */
    vs.lo = 0xf0f0;
    dv_vec_geometry(&in, &vs, &g);
    ck_assert_uint_eq(g.elems, 80);
    /* vconv f32 -> f16, dst_blk 1, dst_rep 4: 16 B blocks packed */
    dv_vstate_reset(&vs);
    dv_insn_init(&in, DV_OP_vconv);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0));
    fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 4096));
    fset(&in, "dst_type", DV_DT_F16);
    fset(&in, "src_type", DV_DT_F32);
    fset(&in, "repeat", 3);
    fset(&in, "dst_rep", 4);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), 2);
    ck_assert_uint_eq(g.elems_per_repeat, 64);
    ck_assert_uint_eq(g.ops[0].blk_bytes, 16);
    ck_assert_uint_eq(g.ops[0].blk_stride, 16);
    ck_assert_uint_eq(g.ops[0].rep_stride, 128);
    ck_assert_uint_eq(g.ops[1].base, 4096);
    ck_assert_uint_eq(g.ops[1].blk_bytes, 32);
    /* vsel f16: the mask operand is one 16-byte chunk per repeat */
    dv_insn_init(&in, DV_OP_vsel);
    fset(&in, "dtype", DV_DT_F16);
    fsetu(&in, "sel", DV_ADDR(DV_SPACE_UB, 512));
    fset(&in, "repeat", 2);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), 4);
    ck_assert_uint_eq(g.ops[3].base, 512);
    ck_assert_uint_eq(g.ops[3].blk_bytes, 16);
    ck_assert_uint_eq(g.ops[3].blk_stride, 0);
    ck_assert_uint_eq(g.ops[3].rep_stride, 16);
    ck_assert(!g.ops[3].write);
    /* copy_matrix_cc_to_ubuf: 20 x 40 f32 = 3200 B = 13 repeats, no UB-strided operands */
    dv_insn_init(&in, DV_OP_copy_matrix_cc_to_ubuf);
    fset(&in, "m_size", 20);
    fset(&in, "n_size", 40);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), 0);
    ck_assert_uint_eq(g.repeats, 13);
    ck_assert_int_eq(g.nops, 0);
    dv_insn_init(&in, DV_OP_mmad);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), -1);
}
END_TEST

/* vbrcb and vtranspose (§5, §6): fixed layouts, whatever the mask says. */
START_TEST(test_semantics_fixed_shape_footprint_and_geometry)
{
    dv_range_t r[DV_MAX_RANGES];
    dv_vgeom_t g;
    dv_xfer_t x;
    const dv_vstate_t vs = {.count_mode = true, .lo = 3}; /* would be one repeat of 3 elements */
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_vbrcb);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0x100));
    fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 0x2000));
    fset(&in, "dtype", DV_DT_F32);
    fset(&in, "repeat", 5);
    fset(&in, "dst_blk", 2);
    fset(&in, "dst_rep", 20);
    ck_assert_int_eq(dv_footprint(&in, &vs, r), 2);
    expect_range(&r[0], DV_SPACE_UB, 0, 0x100, 0x100 + 4 * 20 * 32 + 7 * 2 * 32 + 32, 1);
    expect_range(&r[1], DV_SPACE_UB, 0, 0x2000, 0x2000 + 5 * 8 * 4, 0);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), 2);
    ck_assert_uint_eq(g.repeats, 5);
    ck_assert_uint_eq(g.elems_per_repeat, 64);
    ck_assert_uint_eq(g.elems, 5 * 64);
    ck_assert_uint_eq(g.ops[0].base, 0x100);
    ck_assert_uint_eq(g.ops[0].blk_bytes, 32);
    ck_assert_uint_eq(g.ops[0].blk_stride, 64);
    ck_assert_uint_eq(g.ops[0].rep_stride, 640);
    ck_assert(g.ops[0].write);
    ck_assert_uint_eq(g.ops[1].base, 0x2000);
    ck_assert_uint_eq(g.ops[1].blk_bytes, 32); /* the 8-element chunk */
    ck_assert_uint_eq(g.ops[1].blk_stride, 0);
    ck_assert_uint_eq(g.ops[1].rep_stride, 32);
    ck_assert(!g.ops[1].write);
    ck_assert_int_eq(dv_xfer_shape(&in, &x), -1);
    /* 16-bit, all blocks and repeats on one block: 32 B written, 3 x 16 B read */
    fset(&in, "dtype", DV_DT_BF16);
    fset(&in, "repeat", 3);
    fset(&in, "dst_blk", 0);
    fset(&in, "dst_rep", 0);
    ck_assert_int_eq(dv_footprint(&in, NULL, r), 2);
    expect_range(&r[0], DV_SPACE_UB, 0, 0x100, 0x100 + 32, 1);
    expect_range(&r[1], DV_SPACE_UB, 0, 0x2000, 0x2000 + 3 * 16, 0);
    ck_assert_int_eq(dv_vec_geometry(&in, NULL, &g), 2);
    ck_assert_uint_eq(g.elems_per_repeat, 128);
    ck_assert_uint_eq(g.elems, 3 * 128);
    ck_assert_uint_eq(g.ops[1].blk_bytes, 16);
    ck_assert_uint_eq(g.ops[1].rep_stride, 16);
    /* no repeats: no ranges */
    fset(&in, "repeat", 0);
    ck_assert_int_eq(dv_footprint(&in, &vs, r), 0);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), 2);
    ck_assert_uint_eq(g.repeats, 0);
    /* an unsupported dtype has no footprint and no geometry */
    fset(&in, "dtype", DV_DT_S8);
    ck_assert_int_eq(dv_footprint(&in, &vs, r), 0);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), -1);

    dv_insn_init(&in, DV_OP_vtranspose);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0x400));
    fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 0x0));
    fset(&in, "dtype", DV_DT_F16);
    ck_assert_int_eq(dv_footprint(&in, &vs, r), 2);
    expect_range(&r[0], DV_SPACE_UB, 0, 0x400, 0x600, 1);
    expect_range(&r[1], DV_SPACE_UB, 0, 0x0, 0x200, 0);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), 2);
    ck_assert_uint_eq(g.repeats, 2);
    ck_assert_uint_eq(g.elems_per_repeat, 128);
    ck_assert_uint_eq(g.elems, 256);
    for (int k = 0; k < 2; k++) {
        ck_assert_uint_eq(g.ops[k].base, k ? 0x0 : 0x400);
        ck_assert_uint_eq(g.ops[k].blk_bytes, 32);
        ck_assert_uint_eq(g.ops[k].blk_stride, 32);
        ck_assert_uint_eq(g.ops[k].rep_stride, 256);
        ck_assert(g.ops[k].write == (k == 0));
    }
}
END_TEST

/* ------------------------------------------------------------------ safety */

START_TEST(test_semantics_exec_refuses_out_of_bounds)
{
    tmem_t t;
    tmem_init(&t);
    dv_error_t err = {0};
    dv_vstate_t vs;
    dv_vstate_reset(&vs);
    const uint8_t before = t.buf[DV_SPACE_UB][UB_SIZE - 1];
    dv_insn_t in = vadd_f32(UB_SIZE - 256, 2, 8); /* second repeat runs past the end */
    in.line = 42;
    int rc = dv_exec(&in, &vs, &t.m, &err);
    ck_assert_int_eq(rc, DV_ERR_RANGE);
    ck_assert_int_eq(err.line, 42);
    ck_assert_msg(strstr(err.msg, "vadd") && strstr(err.msg, "outside ub"), "%s", err.msg);
    ck_assert_int_eq(t.buf[DV_SPACE_UB][UB_SIZE - 1], before);
    /* GM argument past the end, and a GM argument that does not exist */
    dv_insn_init(&in, DV_OP_copy_gm_to_ubuf);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0));
    fsetu(&in, "src", DV_GM_ADDR(1, GM_SIZE - 32));
    fset(&in, "len", 2);
    rc = dv_exec(&in, &vs, &t.m, &err);
    ck_assert_int_eq(rc, DV_ERR_RANGE);
    ck_assert_msg(strstr(err.msg, "gm argument 1"), "%s", err.msg);
    fsetu(&in, "src", DV_GM_ADDR(7, 0));
    rc = dv_exec(&in, &vs, &t.m, &err);
    ck_assert_int_eq(rc, DV_ERR_RANGE);
    ck_assert_msg(strstr(err.msg, "argument 7 does not exist"), "%s", err.msg);
    /* mmad C past L0C */
    dv_insn_init(&in, DV_OP_mmad);
    fsetu(&in, "c", DV_ADDR(DV_SPACE_L0C, L0C_SIZE - 1024));
    fsetu(&in, "a", DV_ADDR(DV_SPACE_L0A, 0));
    fsetu(&in, "b", DV_ADDR(DV_SPACE_L0B, 0));
    fset(&in, "dtype", DV_DT_F16);
    fset(&in, "m", 32);
    fset(&in, "k", 16);
    fset(&in, "n", 16);
    ck_assert_int_eq(dv_exec(&in, &vs, &t.m, &err), DV_ERR_RANGE);
    /* a timing-only run (no buffer) does nothing and succeeds */
    t.m.buf[DV_SPACE_UB] = NULL;
    in = vadd_f32(UB_SIZE - 256, 2, 8);
    ck_assert_int_eq(dv_exec(&in, &vs, &t.m, &err), DV_OK);
    t.m.buf[DV_SPACE_UB] = t.buf[DV_SPACE_UB];
    t.m.gm = NULL;
    dv_insn_init(&in, DV_OP_copy_gm_to_ubuf);
    fsetu(&in, "src", DV_GM_ADDR(1, 0));
    fset(&in, "len", 1);
    memset(t.buf[DV_SPACE_UB], 0x5a, 32);
    ck_assert_int_eq(dv_exec(&in, &vs, &t.m, &err), DV_OK);
    ck_assert_int_eq(t.buf[DV_SPACE_UB][0], 0x5a);
    /* sync and scalar instructions are no-ops */
    dv_insn_init(&in, DV_OP_pipe_barrier);
    ck_assert_int_eq(dv_exec(&in, &vs, &t.m, &err), DV_OK);
    tmem_free(&t);
}
END_TEST

/* vtranspose with overlapping operands is refused with its line, before any byte changes; so are
 * unsupported dtypes and operands outside UB of the fixed-shape forms. */
START_TEST(test_semantics_fixed_shape_bad_input)
{
    tmem_t t;
    tmem_init(&t);
    uint8_t *keep = malloc(UB_SIZE);
    memcpy(keep, t.buf[DV_SPACE_UB], UB_SIZE);
    dv_error_t err = {0};
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_vtranspose);
    fset(&in, "dtype", DV_DT_F16);
    in.line = 17;
    /* src starts 480 B into dst, on dst itself, 32 B before it */
    const uint64_t srcs[] = {0x11e0, 0x1000, 0xfe0};
    const char *const msgs[] = {"vtranspose: dst [0x1000, 0x1200) and src [0x11e0, 0x13e0) overlap",
                                "vtranspose: dst [0x1000, 0x1200) and src [0x1000, 0x1200) overlap",
                                "vtranspose: dst [0x1000, 0x1200) and src [0xfe0, 0x11e0) overlap"};
    for (int k = 0; k < 3; k++) {
        fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0x1000));
        fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, srcs[k]));
        ck_assert_int_eq(dv_insn_check(&in, &err), DV_OK); /* a relation between addresses: checked on execution */
        err.line = 0;
        ck_assert_int_eq(dv_exec(&in, NULL, &t.m, &err), DV_ERR_RANGE);
        ck_assert_int_eq(err.line, 17);
        ck_assert_str_eq(err.msg, msgs[k]);
        ck_assert(memcmp(t.buf[DV_SPACE_UB], keep, UB_SIZE) == 0);
    }
    /* adjacent on either side is fine */
    fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 0x1200));
    ck_assert_int_eq(dv_exec(&in, NULL, &t.m, &err), DV_OK);
    fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 0xe00));
    ck_assert_int_eq(dv_exec(&in, NULL, &t.m, &err), DV_OK);
    /* a 4-byte type: refused by the table check and, defensively, by dv_exec */
    fset(&in, "dtype", DV_DT_F32);
    ck_assert_int_eq(dv_insn_check(&in, &err), DV_ERR_RANGE);
    ck_assert_int_eq(err.line, 17);
    ck_assert_str_eq(err.msg, "vtranspose: dtype f32 is not supported");
    ck_assert_int_eq(dv_exec(&in, NULL, &t.m, &err), DV_ERR_UNSUPPORTED);
    ck_assert_int_eq(err.line, 17);
    /* an operand outside UB (dv_insn_check names the field) */
    fset(&in, "dtype", DV_DT_F16);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_L1, 0));
    ck_assert_int_eq(dv_insn_check(&in, &err), DV_ERR_RANGE);
    ck_assert_str_eq(err.msg, "vtranspose: field 'dst' must address ub, not l1");
    ck_assert_int_eq(dv_exec(&in, NULL, &t.m, &err), DV_ERR_RANGE);
    ck_assert_msg(strstr(err.msg, "vtranspose: vector operand 0 is not in ub"), "%s", err.msg);
    /* vbrcb: 8-bit types are not supported; repeat is limited to 255 */
    dv_insn_init(&in, DV_OP_vbrcb);
    in.line = 23;
    fset(&in, "dtype", DV_DT_S8);
    fset(&in, "repeat", 1);
    ck_assert_int_eq(dv_insn_check(&in, &err), DV_ERR_RANGE);
    ck_assert_int_eq(err.line, 23);
    ck_assert_str_eq(err.msg, "vbrcb: dtype s8 is not supported");
    ck_assert_int_eq(dv_exec(&in, NULL, &t.m, &err), DV_ERR_UNSUPPORTED);
    ck_assert_str_eq(err.msg, "vbrcb: unsupported dtype");
    fset(&in, "dtype", DV_DT_U32);
    fset(&in, "repeat", 256);
    ck_assert_int_eq(dv_insn_check(&in, &err), DV_ERR_RANGE);
    ck_assert_str_eq(err.msg, "vbrcb: field 'repeat' = 256 is out of range [0, 255]");
    /* past the end of UB */
    fset(&in, "repeat", 2);
    fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, UB_SIZE - 256));
    ck_assert_int_eq(dv_exec(&in, NULL, &t.m, &err), DV_ERR_RANGE);
    ck_assert_msg(strstr(err.msg, "vbrcb: write of bytes"), "%s", err.msg);
    free(keep);
    tmem_free(&t);
}
END_TEST

/* Random instructions of every form on buffers exactly as large as their footprints: nothing is
 * touched outside (AddressSanitizer catches reads past the end) and nothing outside a write range
 * changes. */
START_TEST(test_semantics_footprint_covers_exec)
{
    seed(30);
    for (int iter = 0; iter < 600; iter++) {
        dv_insn_t in;
        dv_vstate_t vs;
        dv_vstate_reset(&vs);
        const dv_op_t op = (dv_op_t)rndn(DV_OP_COUNT);
        const dv_op_spec_t *os = dv_op_spec(op);
        const dv_form_spec_t *fs = dv_form_spec(os->form);
        dv_insn_init(&in, op);
        for (int i = 0; i < fs->nfields; i++) { /* random valid field values, small enough to run */
            const dv_field_spec_t *fd = &fs->fields[i];
            switch (fd->kind) {
            case DV_FK_ADDR: {
                const int sp = fd->space == DV_FS_DST ? (int)os->dst_space : fd->space == DV_FS_SRC ? (int)os->src_space : fd->space;
                in.f[i].u = sp == DV_SPACE_GM ? DV_GM_ADDR(rndn(2), 32 * rndn(8)) : DV_ADDR(sp, 32 * rndn(8));
                break;
            }
            case DV_FK_DTYPE: {
                int dt;
                do
                    dt = (int)rndn(DV_DT_COUNT);
                while (os->dtypes && !(os->dtypes & (1u << dt)));
                in.f[i].i = dt;
                break;
            }
            case DV_FK_F64: in.f[i].d = (double)rndn(100) / 3; break;
            case DV_FK_U64: in.f[i].u = rnd(); break;
            default: {
                const int64_t hi = fd->max < fd->min + 40 ? fd->max : fd->min + 40;
                in.f[i].i = fd->min + (int64_t)rndn((uint32_t)(hi - fd->min + 1));
            }
            }
        }
        if (os->form == DV_FORM_VCONV) { /* a valid pair */
            static const int pr[][2] = {{DV_DT_F16, DV_DT_F32}, {DV_DT_S8, DV_DT_F16}, {DV_DT_F32, DV_DT_S32}};
            const int k = (int)rndn(3);
            fset(&in, "dst_type", pr[k][0]);
            fset(&in, "src_type", pr[k][1]);
        }
        if (os->form == DV_FORM_LOAD2D && sz((int)in.f[dv_field_index(op, "dtype")].i) != 2)
            fset(&in, "transpose", 0);
        if (os->form == DV_FORM_IMG2COL) {
            fset(&in, "k_start", 16 * rndn(4));
            fset(&in, "k_ext", 16 * (1 + rndn(4)));
        }
        if (os->form == DV_FORM_VTRANSPOSE) /* operands must not overlap */
            fsetu(&in, "src", in.f[DV_FLD(VTRANSPOSE, dst)].u + 512 + 32 * rndn(8));
        if (rndn(3) == 0) {
            vs.count_mode = true;
            vs.lo = rndn(700);
        } else if (rndn(2)) {
            vs.hi = rnd() & rnd();
            vs.lo = rnd() & rnd();
        }
        dv_error_t err;
        ck_assert_msg(dv_insn_check(&in, &err) == 0, "%s", err.msg);
        dv_range_t r[DV_MAX_RANGES];
        const int n = dv_footprint(&in, &vs, r);
        /* exact-size buffers */
        uint64_t need[DV_SPACE_COUNT] = {0}, gneed[2] = {0};
        for (int i = 0; i < n; i++) {
            uint64_t *p = r[i].space == DV_SPACE_GM ? &gneed[r[i].arg] : &need[r[i].space];
            if (r[i].hi > *p)
                *p = r[i].hi;
        }
        dv_mem_t m = {0};
        uint8_t *keep[DV_SPACE_COUNT + 2] = {0};
        uint8_t *gm[2] = {0};
        uint64_t gsz[2];
        for (int s = 0; s < DV_SPACE_COUNT + 2; s++) {
            const uint64_t size = s < DV_SPACE_COUNT ? need[s] : gneed[s - DV_SPACE_COUNT];
            uint8_t *b = malloc(size ? size : 1);
            for (uint64_t i = 0; i < size; i++)
                b[i] = (uint8_t)rnd();
            keep[s] = malloc(size ? size : 1);
            memcpy(keep[s], b, size);
            if (s < DV_SPACE_COUNT) {
                m.buf[s] = b;
                m.size[s] = size;
            } else {
                gm[s - DV_SPACE_COUNT] = b;
                gsz[s - DV_SPACE_COUNT] = size;
            }
        }
        m.ngm = 2;
        m.gm = gm;
        m.gm_size = gsz;
        const int rc = dv_exec(&in, &vs, &m, &err);
        ck_assert_msg(rc == 0, "%s: %s", os->mnemonic, err.msg);
        for (int s = 0; s < DV_SPACE_COUNT + 2; s++) {
            const bool g = s >= DV_SPACE_COUNT;
            const uint8_t *b = g ? gm[s - DV_SPACE_COUNT] : m.buf[s];
            const uint64_t size = g ? gsz[s - DV_SPACE_COUNT] : m.size[s];
            for (uint64_t i = 0; i < size; i++) {
                if (b[i] == keep[s][i])
                    continue;
                bool inside = false;
                for (int k = 0; k < n; k++)
                    inside |= r[k].write && (g ? r[k].space == DV_SPACE_GM && r[k].arg == s - DV_SPACE_COUNT : r[k].space == s) &&
                              i >= r[k].lo && i < r[k].hi;
                ck_assert_msg(inside, "%s wrote byte %llu of space %d outside its write ranges", os->mnemonic,
                              (unsigned long long)i, s);
            }
            free(keep[s]);
            free((void *)b);
        }
    }
}
END_TEST

static TCase *tcase(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, 300);
    suite_add_tcase(s, tc);
    return tc;
}

Suite *dv_semantics_suite(void)
{
    Suite *s = suite_create("semantics");
    TCase *tc = tcase(s, "numbers");
    tcase_add_test(tc, test_semantics_f32_bit_exact);
    tcase_add_test(tc, test_semantics_f16_correctly_rounded);
    tcase_add_test(tc, test_semantics_f16_conversion);
    tcase_add_test(tc, test_semantics_bf16_conversion);
    tcase_add_test(tc, test_semantics_special_values);
    tc = tcase(s, "vector");
    tcase_add_test(tc, test_semantics_vbin);
    tcase_add_test(tc, test_semantics_vscalar);
    tcase_add_test(tc, test_semantics_vunary);
    tcase_add_test(tc, test_semantics_vconv);
    tcase_add_test(tc, test_semantics_vreduce);
    tcase_add_test(tc, test_semantics_vdup);
    tcase_add_test(tc, test_semantics_vcmp);
    tcase_add_test(tc, test_semantics_vsel);
    tcase_add_test(tc, test_semantics_vbrcb);
    tcase_add_test(tc, test_semantics_vtranspose);
    tc = tcase(s, "transfer");
    tcase_add_test(tc, test_semantics_dma);
    tcase_add_test(tc, test_semantics_dma_pad);
    tcase_add_test(tc, test_semantics_nd2nz);
    tcase_add_test(tc, test_semantics_load2d);
    tcase_add_test(tc, test_semantics_img2col);
    tcase_add_test(tc, test_semantics_fixpipe);
    tc = tcase(s, "cube");
    tcase_add_test(tc, test_semantics_mmad);
    tcase_add_test(tc, test_semantics_matmul_end_to_end);
    tc = tcase(s, "shape");
    tcase_add_test(tc, test_semantics_footprint_vector);
    tcase_add_test(tc, test_semantics_footprint_cube);
    tcase_add_test(tc, test_semantics_footprint_and_xfer_dma);
    tcase_add_test(tc, test_semantics_footprint_and_xfer_dma_pad);
    tcase_add_test(tc, test_semantics_vec_geometry);
    tcase_add_test(tc, test_semantics_fixed_shape_footprint_and_geometry);
    tc = tcase(s, "safety");
    tcase_add_test(tc, test_semantics_exec_refuses_out_of_bounds);
    tcase_add_test(tc, test_semantics_fixed_shape_bad_input);
    tcase_add_test(tc, test_semantics_footprint_covers_exec);
    return s;
}
