/* tests/support/semref.c - the shared helpers of the semantics suites (see semref.h). */
#include "semref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ random numbers */

static uint64_t rng;
void sr_seed(uint64_t s) { rng = s * 0x9E3779B97F4A7C15ull + 1; }
uint64_t sr_rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
uint32_t sr_rndn(uint32_t n) { return (uint32_t)(sr_rnd() % n); }

/* ------------------------------------------------------------------ reference numbers */

float sr_h2f(uint16_t h)
{
    _Float16 x;
    memcpy(&x, &h, 2);
    return (float)x;
}
uint16_t sr_d2h(double d) /* correctly rounded double -> binary16 (libgcc soft-fp) */
{
    _Float16 x = (_Float16)d;
    uint16_t h;
    memcpy(&h, &x, 2);
    return h;
}
float sr_b2f(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
uint32_t sr_fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
float sr_bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Magnitude value of a positive bit pattern; infinity counts as the next power of two. */
static double val_h(uint32_t b) { return (b & 0x7fff) == 0x7c00 ? 65536.0 : (double)sr_h2f((uint16_t)b); }
static double val_b(uint32_t b) { return (b & 0x7fff) == 0x7f80 ? ldexp(1, 128) : (double)sr_b2f((uint16_t)b); }
static double val_f(uint32_t b) { return (b & 0x7fffffff) == 0x7f800000 ? ldexp(1, 128) : (double)sr_bitsf(b); }

/* bf16 nearest-even by comparing the two neighbours (mag finite, >= 0). */
static uint32_t rne_b(double mag)
{
    uint32_t lo = sr_fbits((float)mag) >> 16; /* float of a float value: exact in our uses */
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

uint32_t sr_ref_to_float(double x, int dt, int mode)
{
    const bool neg = signbit(x);
    const double mag = fabs(x);
    switch (dt) {
    case DV_DT_F16: return (neg ? 0x8000u : 0) | round_mag(mag, sr_d2h(mag), 0x7c00, val_h, mode, neg);
    case DV_DT_BF16: return (neg ? 0x8000u : 0) | round_mag(mag, rne_b(mag), 0x7f80, val_b, mode, neg);
    default: return (neg ? 0x80000000u : 0) | round_mag(mag, sr_fbits((float)mag), 0x7f800000, val_f, mode, neg);
    }
}

int64_t sr_ref_f2i(double x, int mode, int64_t lo, int64_t hi)
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

int64_t sr_tmin(int dt)
{
    return dt == DV_DT_S8 ? -128 : dt == DV_DT_S16 ? -32768 : dt == DV_DT_S32 ? INT32_MIN : 0;
}
int64_t sr_tmax(int dt)
{
    return dt == DV_DT_S8 ? 127 : dt == DV_DT_U8 ? 255 : dt == DV_DT_S16 ? 32767 : dt == DV_DT_U16 ? 65535
         : dt == DV_DT_S32 ? INT32_MAX : (int64_t)UINT32_MAX;
}
unsigned sr_sz(int dt) { return dv_dtype_size((dv_dtype_t)dt); }
bool sr_isfl(int dt) { return dv_dtype_is_float((dv_dtype_t)dt); }

double sr_rld(int dt, const uint8_t *p)
{
    uint16_t h;
    float f;
    int8_t s8;
    int16_t s16;
    int32_t s32;
    uint32_t u32;
    switch (dt) {
    case DV_DT_F16: memcpy(&h, p, 2); return sr_h2f(h);
    case DV_DT_BF16: memcpy(&h, p, 2); return sr_b2f(h);
    case DV_DT_F32: memcpy(&f, p, 4); return f;
    case DV_DT_S8: memcpy(&s8, p, 1); return s8;
    case DV_DT_U8: return p[0];
    case DV_DT_S16: memcpy(&s16, p, 2); return s16;
    case DV_DT_U16: memcpy(&h, p, 2); return h;
    case DV_DT_S32: memcpy(&s32, p, 4); return s32;
    default: memcpy(&u32, p, 4); return u32;
    }
}
void sr_rst_bits(int dt, uint8_t *p, uint64_t bits) { memcpy(p, &bits, sr_sz(dt)); }
void sr_rst_f(int dt, uint8_t *p, float f)
{
    if (dt == DV_DT_F16)
        sr_rst_bits(dt, p, sr_d2h(f));
    else if (dt == DV_DT_BF16)
        sr_rst_bits(dt, p, sr_ref_to_float(f, DV_DT_BF16, DV_ROUND_R));
    else
        sr_rst_bits(dt, p, sr_fbits(f));
}
void sr_rst_i(int dt, uint8_t *p, int64_t v) { sr_rst_bits(dt, p, (uint64_t)v); }

/* ------------------------------------------------------------------ memories */

void sr_fill_random(uint8_t *b, uint64_t n)
{
    for (uint64_t i = 0; i + 8 <= n; i += 8) {
        const uint64_t v = sr_rnd();
        memcpy(b + i, &v, 8);
    }
}

/* Freed buffers are kept for the next case (page-faulting megabytes per case is slow). */
static uint8_t *pool[16][DV_SPACE_COUNT + GM_ARGS];
static int npool;

void sr_tmem_alloc(sr_mem_t *t, bool fill)
{
    memset(t, 0, sizeof *t);
    const uint64_t sizes[DV_SPACE_COUNT] = {[DV_SPACE_UB] = UB_SIZE, [DV_SPACE_L1] = L1_SIZE, [DV_SPACE_L0A] = L0_SIZE,
                                            [DV_SPACE_L0B] = L0_SIZE, [DV_SPACE_L0C] = L0C_SIZE,
                                            [DV_SPACE_BT] = BT_SIZE};
    uint8_t **p = npool > 0 ? pool[--npool] : NULL;
    for (int s = 1; s < DV_SPACE_COUNT; s++)
        if (sizes[s]) {
            t->buf[s] = p ? p[s] : malloc(sizes[s]);
            t->size[s] = sizes[s];
            if (fill)
                sr_fill_random(t->buf[s], sizes[s]);
        }
    for (int a = 0; a < GM_ARGS; a++) {
        t->gm[a] = p ? p[DV_SPACE_COUNT + a] : malloc(GM_SIZE);
        t->gm_size[a] = GM_SIZE;
        if (fill)
            sr_fill_random(t->gm[a], GM_SIZE);
    }
    for (int s = 0; s < DV_SPACE_COUNT; s++) {
        t->m.buf[s] = t->buf[s];
        t->m.size[s] = t->size[s];
    }
    t->m.ngm = GM_ARGS;
    t->m.gm = t->gm;
    t->m.gm_size = t->gm_size;
}

void sr_tmem_init(sr_mem_t *t) { sr_tmem_alloc(t, true); }

void sr_tmem_clone(sr_mem_t *d, const sr_mem_t *s)
{
    sr_tmem_alloc(d, false);
    for (int i = 0; i < DV_SPACE_COUNT; i++)
        if (s->buf[i])
            memcpy(d->buf[i], s->buf[i], s->size[i]);
    for (int a = 0; a < GM_ARGS; a++)
        memcpy(d->gm[a], s->gm[a], GM_SIZE);
}

void sr_tmem_free(sr_mem_t *t)
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

long sr_tmem_diff(const sr_mem_t *a, const sr_mem_t *b, const char **where)
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

void sr_fset(dv_insn_t *in, const char *name, int64_t v)
{
    const int i = dv_field_index((dv_op_t)in->op, name);
    ck_assert_msg(i >= 0, "no field %s in %s", name, dv_op_spec((dv_op_t)in->op)->mnemonic);
    in->f[i].i = v;
}
void sr_fsetu(dv_insn_t *in, const char *name, uint64_t v)
{
    const int i = dv_field_index((dv_op_t)in->op, name);
    ck_assert_msg(i >= 0, "no field %s", name);
    in->f[i].u = v;
}
void sr_fsetd(dv_insn_t *in, const char *name, double v)
{
    const int i = dv_field_index((dv_op_t)in->op, name);
    ck_assert_msg(i >= 0, "no field %s", name);
    in->f[i].d = v;
}

void sr_exec_ok(const dv_insn_t *in, const dv_vstate_t *vs, sr_mem_t *t)
{
    dv_error_t err = {0};
    int rc = dv_insn_check(in, &err);
    ck_assert_msg(rc == 0, "test built an invalid instruction: %s", err.msg);
    rc = dv_exec(in, vs, &t->m, &err);
    ck_assert_msg(rc == 0, "dv_exec failed: %s", err.msg);
}

void sr_expect_same(const sr_mem_t *got, const sr_mem_t *want, const char *what)
{
    const char *where = "";
    const long at = sr_tmem_diff(got, want, &where);
    ck_assert_msg(at < 0, "%s: first difference at %s byte %ld", what, where, at);
}

/* ------------------------------------------------------------------ data */


uint64_t sr_gen_elem(int dt, int kind, bool nan_ok)
{
    const bool neg = kind != D_POSITIVE && (sr_rnd() & 1);
    if (kind == D_SMALL) { /* few distinct values: ties in reductions and comparisons */
        const double v = (double)((int)sr_rndn(5) - 2);
        return dt == DV_DT_F16 ? sr_d2h(v) : dt == DV_DT_F32 ? sr_fbits((float)v) : (uint64_t)(int64_t)v;
    }
    if (kind == D_CONV && sr_isfl(dt)) {
        double v;
        switch (sr_rndn(8)) {
        case 0: v = (double)((int)sr_rndn(600) - 300) + 0.5; break;                 /* integer ties */
        case 1: v = ldexp((double)(sr_rnd() & 0xffffff), (int)sr_rndn(60) - 50); break; /* wide range */
        case 2: { /* f16 midpoint */
            const uint16_t h = (uint16_t)(sr_rndn(0x7bff));
            v = ((double)sr_h2f(h) + (double)sr_h2f((uint16_t)(h + 1))) / 2;
            break;
        }
        case 3: { /* bf16 midpoint */
            const uint16_t h = (uint16_t)(sr_rndn(0x7f7f));
            v = ((double)sr_b2f(h) + (double)sr_b2f((uint16_t)(h + 1))) / 2;
            break;
        }
        case 4: v = (double)(int64_t)(sr_rnd() % 6000000000ull) - 3e9; break; /* saturation */
        case 5: v = sr_rndn(4) ? 65504.0 + sr_rndn(64) : INFINITY; break;       /* f16 overflow */
        case 6: v = nan_ok ? NAN : 1.0; break;
        default: v = (double)sr_rndn(1000) / 7.0; break;
        }
        if (neg)
            v = -v;
        if (dt == DV_DT_F16)
            return sr_d2h(v);
        if (dt == DV_DT_BF16)
            return sr_ref_to_float((float)v, DV_DT_BF16, DV_ROUND_Z);
        return sr_fbits((float)v);
    }
    switch (dt) {
    case DV_DT_F16: return (neg ? 0x8000u : 0) | (9u + sr_rndn(11)) << 10 | (sr_rnd() & 0x3ff);
    case DV_DT_BF16: return (neg ? 0x8000u : 0) | (120u + sr_rndn(15)) << 7 | (sr_rnd() & 0x7f);
    case DV_DT_F32: return (neg ? 0x80000000u : 0) | (64u + sr_rndn(126)) << 23 | (sr_rnd() & 0x7fffff);
    default: return sr_rnd();
    }
}

TCase *sr_tcase(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, 300);
    suite_add_tcase(s, tc);
    return tc;
}
