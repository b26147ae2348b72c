/* isa/semantics.c - functional semantics of every instruction form: number formats, vector
 * geometry, footprints, transfer shapes and execution.  docs/SEMANTICS.md is the contract. */

/* fp32 results must be single IEEE operations: never fuse a*b+c (GCC ignores the STDC pragma). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#else
#pragma STDC FP_CONTRACT OFF
#endif

#include "dv/semantics.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if FLT_EVAL_METHOD != 0
#error "isa/semantics.c needs FLT_EVAL_METHOD 0 (float arithmetic evaluated in float, e.g. SSE)"
#endif

/* ======================================================================== numbers */

float dv_f16_to_f32(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    uint32_t bits;
    float f;
    if (exp == 0) {
        f = (float)mant * 0x1p-24f; /* zero or subnormal: exact */
        return (h & 0x8000u) ? -f : f;
    }
    if (exp == 31)
        bits = sign | 0x7f800000u | mant << 13;
    else
        bits = sign | (exp + 112u) << 23 | mant << 13;
    memcpy(&f, &bits, 4);
    return f;
}

uint16_t dv_f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    const uint32_t ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u) /* inf stays inf; NaN stays a quiet NaN keeping the top payload bits */
        return (uint16_t)(sign | (ax > 0x7f800000u ? 0x7e00u | ((ax >> 13) & 0x3ffu) : 0x7c00u));
    if (ax >= 0x477ff000u) /* >= 65520 rounds to infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (ax >= 0x38800000u) { /* normal result */
        uint32_t h = ((ax >> 23) - 112u) << 10 | ((ax >> 13) & 0x3ffu);
        const uint32_t rest = ax & 0x1fffu;
        if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
            h++;
        return (uint16_t)(sign | h);
    }
    if (ax <= 0x33000000u) /* <= 2^-25: rounds to zero */
        return sign;
    const uint32_t m = (ax & 0x7fffffu) | 0x800000u, shift = 126u - (ax >> 23);
    uint32_t h = m >> shift;
    const uint32_t rest = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
    if (rest > half || (rest == half && (h & 1u)))
        h++;
    return (uint16_t)(sign | h);
}

float dv_bf16_to_f32(uint16_t h)
{
    const uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

uint16_t dv_f32_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u);
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

/* A binary floating-point format: precision p (with the hidden bit), exponent range, field widths. */
typedef struct fpfmt {
    int p, emin, emax, ebits, mbits;
} fpfmt_t;
static const fpfmt_t fmt_f16 = {11, -14, 15, 5, 10};
static const fpfmt_t fmt_bf16 = {8, -126, 127, 8, 7};
static const fpfmt_t fmt_f32 = {24, -126, 127, 8, 23};

static const fpfmt_t *fmt_of(dv_dtype_t t)
{
    return t == DV_DT_F16 ? &fmt_f16 : t == DV_DT_BF16 ? &fmt_bf16 : &fmt_f32;
}

/* Round x (any double, taken as exact) into format f with a ROUND mode; returns the bits.
 * r: nearest even, a: nearest ties away, f/c/z: directed (IEEE overflow rules). */
static uint32_t fp_round(double x, const fpfmt_t *f, int mode)
{
    const uint32_t sign = signbit(x) ? 1u << (f->ebits + f->mbits) : 0;
    const uint32_t expall = ((1u << f->ebits) - 1u) << f->mbits;
    if (isnan(x))
        return sign | expall | 1u << (f->mbits - 1);
    if (isinf(x))
        return sign | expall;
    const double a = fabs(x);
    if (a == 0)
        return sign;
    const bool trunc_mag = mode == DV_ROUND_Z || (mode == DV_ROUND_F && !sign) || (mode == DV_ROUND_C && sign);
    const uint32_t maxfin = sign | (expall - (1u << f->mbits)) | ((1u << f->mbits) - 1u);
    int ex;
    frexp(a, &ex);
    int e = ex - 1; /* a in [2^e, 2^(e+1)) */
    if (e > f->emax)
        return trunc_mag ? maxfin : sign | expall;
    if (e < f->emin)
        e = f->emin;
    const double q = ldexp(1.0, e - (f->p - 1)); /* one unit in the last place */
    const double t = a / q, i0 = floor(t), frac = t - i0;
    bool up;
    switch (mode) {
    case DV_ROUND_A: up = frac >= 0.5; break;
    case DV_ROUND_Z: up = false; break;
    case DV_ROUND_F: up = frac > 0 && sign; break;
    case DV_ROUND_C: up = frac > 0 && !sign; break;
    default: up = frac > 0.5 || (frac == 0.5 && fmod(i0, 2.0) != 0); break;
    }
    uint64_t i = (uint64_t)i0 + (up ? 1u : 0u);
    const uint64_t hidden = 1ull << (f->p - 1);
    if (i == 2 * hidden) {
        i = hidden;
        e++;
        if (e > f->emax)
            return sign | expall;
    }
    if (i < hidden) /* subnormal (e == emin) or zero */
        return sign | (uint32_t)i;
    return sign | (uint32_t)(e + f->emax) << f->mbits | (uint32_t)(i - hidden);
}

/* Round a float-format value to an integer value with a ROUND mode (the value has <= 24 significant
 * bits, so the fraction below is exact). */
static double round_int(double x, int mode)
{
    switch (mode) {
    case DV_ROUND_F: return floor(x);
    case DV_ROUND_C: return ceil(x);
    case DV_ROUND_Z: return trunc(x);
    default: break;
    }
    const double i = floor(x), frac = x - i;
    if (mode == DV_ROUND_A)
        return frac > 0.5 || (frac == 0.5 && x > 0) ? i + 1 : i;
    return frac > 0.5 || (frac == 0.5 && fmod(i, 2.0) != 0) ? i + 1 : i;
}

static int64_t int_min(dv_dtype_t t)
{
    switch (t) {
    case DV_DT_S8: return INT8_MIN;
    case DV_DT_S16: return INT16_MIN;
    case DV_DT_S32: return INT32_MIN;
    default: return 0;
    }
}

static int64_t int_max(dv_dtype_t t)
{
    switch (t) {
    case DV_DT_S8: return INT8_MAX;
    case DV_DT_U8: return UINT8_MAX;
    case DV_DT_S16: return INT16_MAX;
    case DV_DT_U16: return UINT16_MAX;
    case DV_DT_S32: return INT32_MAX;
    default: return UINT32_MAX;
    }
}

/* Float value to an integer type: rounded with mode, saturated, NaN -> 0. */
static int64_t fp_to_int(double x, int mode, dv_dtype_t t)
{
    if (isnan(x))
        return 0;
    const double r = round_int(x, mode);
    if (r <= (double)int_min(t))
        return int_min(t);
    if (r >= (double)int_max(t))
        return int_max(t);
    return (int64_t)r;
}

/* ======================================================================== elements */

static float ld_f(dv_dtype_t t, const uint8_t *p)
{
    uint16_t h;
    float f;
    switch (t) {
    case DV_DT_F16: memcpy(&h, p, 2); return dv_f16_to_f32(h);
    case DV_DT_BF16: memcpy(&h, p, 2); return dv_bf16_to_f32(h);
    default: memcpy(&f, p, 4); return f;
    }
}

static void st_f(dv_dtype_t t, uint8_t *p, float f)
{
    uint16_t h;
    switch (t) {
    case DV_DT_F16: h = dv_f32_to_f16(f); memcpy(p, &h, 2); break;
    case DV_DT_BF16: h = dv_f32_to_bf16(f); memcpy(p, &h, 2); break;
    default: memcpy(p, &f, 4); break;
    }
}

static int64_t ld_i(dv_dtype_t t, const uint8_t *p)
{
    int8_t s8;
    int16_t s16;
    uint16_t u16;
    int32_t s32;
    uint32_t u32;
    switch (t) {
    case DV_DT_S8: memcpy(&s8, p, 1); return s8;
    case DV_DT_U8: return p[0];
    case DV_DT_S16: memcpy(&s16, p, 2); return s16;
    case DV_DT_U16: memcpy(&u16, p, 2); return u16;
    case DV_DT_S32: memcpy(&s32, p, 4); return s32;
    default: memcpy(&u32, p, 4); return u32;
    }
}

/* Store the low bits of v (two's complement wrap). */
static void st_i(dv_dtype_t t, uint8_t *p, int64_t v)
{
    const uint32_t w = (uint32_t)(uint64_t)v;
    const uint16_t h = (uint16_t)w;
    switch (dv_dtype_size(t)) {
    case 1: p[0] = (uint8_t)w; break;
    case 2: memcpy(p, &h, 2); break;
    default: memcpy(p, &w, 4); break;
    }
}

/* The bits of a trace scalar in dtype t: floats round to nearest even, integers truncate toward
 * zero and saturate. */
static void scalar_bits(dv_dtype_t t, double d, uint8_t out[4])
{
    if (dv_dtype_is_float(t)) {
        const uint32_t b = fp_round(d, fmt_of(t), DV_ROUND_R);
        const uint16_t h = (uint16_t)b;
        if (t == DV_DT_F32)
            memcpy(out, &b, 4);
        else
            memcpy(out, &h, 2);
    } else {
        st_i(t, out, fp_to_int(d, DV_ROUND_Z, t));
    }
}

/* ======================================================================== fields */

/* Integer field idx of `form`, clamped to its table range so no product below can overflow. */
static uint64_t fint(const dv_insn_t *in, dv_form_t form, int idx)
{
    const dv_field_spec_t *fd = &dv_form_spec(form)->fields[idx];
    int64_t v = in->f[idx].i;
    if (v < fd->min)
        v = fd->min;
    if (v > fd->max)
        v = fd->max;
    return (uint64_t)v;
}
#define FI(form, name) fint(in, DV_FORM_##form, DV_FLD(form, name))
#define FA(form, name) (in->f[DV_FLD(form, name)].u)
#define FT(form, name) ((dv_dtype_t)in->f[DV_FLD(form, name)].i)

static bool dtype_ok(const dv_op_spec_t *os, dv_dtype_t t)
{
    return (unsigned)t < DV_DT_COUNT && (os->dtypes == 0 || (os->dtypes & (1u << t)));
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

static void range_set(dv_range_t *r, uint64_t addr, uint64_t lo, uint64_t hi, bool write)
{
    const dv_space_t s = DV_ADDR_SPACE(addr);
    r->space = (uint8_t)s;
    r->write = write;
    r->arg = s == DV_SPACE_GM ? (uint16_t)DV_ADDR_ARG(addr) : 0;
    r->lo = DV_ADDR_OFF(addr) + lo;
    r->hi = DV_ADDR_OFF(addr) + hi;
}

/* ======================================================================== burst copies */

/* The burst geometry of the DMA and DMAPAD forms: burst b moves `len` bytes from src + b*src_stride
 * to dst + b*dst_stride.  DMA counts everything in 32 B blocks; DMAPAD counts len in bytes, and its
 * gaps in bytes on the GM side and in 32 B blocks on the UB side, whose bursts start 32 B aligned. */
typedef struct dma_geom {
    uint64_t dst, src; /* addresses */
    uint64_t nburst, len, dst_stride, src_stride;
} dma_geom_t;

static bool dma_geom(const dv_insn_t *in, const dv_op_spec_t *os, dma_geom_t *g)
{
    if (os->form == DV_FORM_DMA) {
        g->dst = FA(DMA, dst);
        g->src = FA(DMA, src);
        g->nburst = FI(DMA, nburst);
        g->len = FI(DMA, len) * 32;
        g->dst_stride = g->len + FI(DMA, dst_gap) * 32;
        g->src_stride = g->len + FI(DMA, src_gap) * 32;
        return true;
    }
    if (os->form != DV_FORM_DMAPAD)
        return false;
    g->dst = FA(DMAPAD, dst);
    g->src = FA(DMAPAD, src);
    g->nburst = FI(DMAPAD, nburst);
    g->len = FI(DMAPAD, len);
    const uint64_t local = ceil_div(g->len, 32) * 32;
    g->dst_stride = os->dst_space == DV_SPACE_GM ? g->len + FI(DMAPAD, dst_gap) : local + FI(DMAPAD, dst_gap) * 32;
    g->src_stride = os->src_space == DV_SPACE_GM ? g->len + FI(DMAPAD, src_gap) : local + FI(DMAPAD, src_gap) * 32;
    return true;
}

/* ======================================================================== vector geometry */

/* Vector operand kinds: strided elements of the form's dtype (or of the vconv source type), a bit
 * mask chunk of E/8 bytes per repeat, a reduction result slot. */
enum { K_ELEM, K_ELEM2, K_BITS, K_RED };

typedef struct vform {
    int dtype, dtype2, repeat, nops;
    struct {
        int addr, blk, rep;
        bool write;
        int kind;
    } op[4];
} vform_t;

#define VOP(form, name, blk, rep, w, k) {DV_FLD(form, name), blk, rep, w, k}
#define VOPS(form, name, w) VOP(form, name, DV_FLD(form, name##_blk), DV_FLD(form, name##_rep), w, K_ELEM)

/* The UB operands of each vector form, in the order dv_vec_geometry reports them. */
static const vform_t vforms[DV_FORM_COUNT] = {
    [DV_FORM_VBIN] = {DV_FLD(VBIN, dtype), -1, DV_FLD(VBIN, repeat), 3,
                      {VOPS(VBIN, dst, true), VOPS(VBIN, src0, false), VOPS(VBIN, src1, false)}},
    [DV_FORM_VSCALAR] = {DV_FLD(VSCALAR, dtype), -1, DV_FLD(VSCALAR, repeat), 2,
                         {VOPS(VSCALAR, dst, true), VOPS(VSCALAR, src, false)}},
    [DV_FORM_VUNARY] = {DV_FLD(VUNARY, dtype), -1, DV_FLD(VUNARY, repeat), 2,
                        {VOPS(VUNARY, dst, true), VOPS(VUNARY, src, false)}},
    [DV_FORM_VCONV] = {DV_FLD(VCONV, dst_type), DV_FLD(VCONV, src_type), DV_FLD(VCONV, repeat), 2,
                       {VOPS(VCONV, dst, true),
                        VOP(VCONV, src, DV_FLD(VCONV, src_blk), DV_FLD(VCONV, src_rep), false, K_ELEM2)}},
    [DV_FORM_VREDUCE] = {DV_FLD(VREDUCE, dtype), -1, DV_FLD(VREDUCE, repeat), 2,
                         {VOP(VREDUCE, dst, -1, DV_FLD(VREDUCE, dst_rep), true, K_RED), VOPS(VREDUCE, src, false)}},
    [DV_FORM_VDUP] = {DV_FLD(VDUP, dtype), -1, DV_FLD(VDUP, repeat), 1, {VOPS(VDUP, dst, true)}},
    [DV_FORM_VCMP] = {DV_FLD(VCMP, dtype), -1, DV_FLD(VCMP, repeat), 3,
                      {VOP(VCMP, dst, -1, -1, true, K_BITS), VOPS(VCMP, src0, false), VOPS(VCMP, src1, false)}},
    [DV_FORM_VSEL] = {DV_FLD(VSEL, dtype), -1, DV_FLD(VSEL, repeat), 4,
                      {VOPS(VSEL, dst, true), VOPS(VSEL, src0, false), VOPS(VSEL, src1, false),
                       VOP(VSEL, sel, -1, -1, false, K_BITS)}},
};

/* Largest count-mode element count honoured (keeps every byte offset far below 2^64). */
#define DV_COUNT_MAX 0xFFFFFFFFull

typedef struct vop_i {
    uint64_t addr;     /* full address (space + offset) */
    uint32_t esize;    /* element bytes (0 for K_BITS) */
    uint32_t blk_bytes;
    uint64_t blk, rep; /* byte strides */
    bool write;
    int kind;
} vop_i_t;

typedef struct vinfo {
    dv_form_t form;
    dv_dtype_t t, t2; /* element type (vconv: destination) and vconv source type */
    uint32_t E, epb;  /* elements per repeat, per datablock */
    uint64_t R;       /* repeats */
    bool count;
    uint64_t N;       /* count mode: elements */
    uint64_t mlo, mhi;
    bool any;         /* some element of a (full) repeat is selected */
    uint32_t elo, ehi, ehi_last;
    int nops;
    vop_i_t op[4];
} vinfo_t;

static int lowest_bit(uint64_t lo, uint64_t hi) { return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(hi); }
static int highest_bit(uint64_t lo, uint64_t hi) { return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(lo); }

/* Decode a vector instruction; 1 = vector form, 0 = other form, -1 = bad dtype. */
static int vinfo_build(const dv_insn_t *in, const dv_vstate_t *vs, vinfo_t *v)
{
    const dv_op_spec_t *os = dv_op_spec((dv_op_t)in->op);
    if (!os || !vforms[os->form].nops)
        return 0;
    const vform_t *vf = &vforms[os->form];
    v->form = os->form;
    v->t = (dv_dtype_t)in->f[vf->dtype].i;
    v->t2 = vf->dtype2 >= 0 ? (dv_dtype_t)in->f[vf->dtype2].i : v->t;
    if (vf->dtype2 >= 0 ? !dv_conv_allowed(v->t2, v->t) : !dtype_ok(os, v->t))
        return -1;
    const uint32_t s1 = dv_dtype_size(v->t), s2 = dv_dtype_size(v->t2), smax = s1 > s2 ? s1 : s2;
    v->E = 256 / smax;
    v->epb = v->E / 8;
    v->count = vs && vs->count_mode;
    v->mlo = vs ? vs->lo : ~0ull;
    v->mhi = vs ? vs->hi : ~0ull;
    if (v->count) {
        v->N = v->mlo > DV_COUNT_MAX ? DV_COUNT_MAX : v->mlo;
        v->R = ceil_div(v->N, v->E);
        v->any = v->N > 0;
        v->elo = 0;
        v->ehi = v->E - 1;
        v->ehi_last = v->R ? (uint32_t)(v->N - (v->R - 1) * v->E - 1) : 0;
    } else {
        v->N = 0;
        v->R = fint(in, os->form, vf->repeat);
        const uint64_t lo = v->mlo, hi = v->E == 64 ? 0 : v->mhi;
        v->any = (lo | hi) != 0;
        if (v->any) {
            const int a = lowest_bit(lo, hi), b = highest_bit(lo, hi);
            v->elo = v->E == 256 ? 2u * (uint32_t)a : (uint32_t)a;
            v->ehi = v->E == 256 ? 2u * (uint32_t)b + 1 : (uint32_t)b;
        } else {
            v->elo = v->ehi = 0;
        }
        v->ehi_last = v->ehi;
    }
    v->nops = vf->nops;
    for (int k = 0; k < vf->nops; k++) {
        vop_i_t *o = &v->op[k];
        o->addr = in->f[vf->op[k].addr].u;
        o->write = vf->op[k].write;
        o->kind = vf->op[k].kind;
        switch (o->kind) {
        case K_ELEM:
        case K_ELEM2:
            o->esize = o->kind == K_ELEM ? s1 : s2;
            o->blk_bytes = v->epb * o->esize;
            o->blk = fint(in, os->form, vf->op[k].blk) * o->blk_bytes;
            o->rep = fint(in, os->form, vf->op[k].rep) * 32;
            break;
        case K_BITS:
            o->esize = 0;
            o->blk_bytes = v->E / 8;
            o->blk = 0;
            o->rep = v->E / 8;
            break;
        default: /* K_RED: vcadd writes one element per repeat, vcmax/vcmin a (value, index) pair */
            o->esize = s1;
            o->blk_bytes = (in->op == DV_OP_vcadd ? 1 : 2) * s1;
            o->blk = 0;
            o->rep = fint(in, os->form, vf->op[k].rep) * o->blk_bytes;
            break;
        }
    }
    return 1;
}

/* Byte offset (relative to the operand address) of element e of repeat r. */
static inline uint64_t vop_off(const vop_i_t *o, uint32_t epb, uint64_t r, uint32_t e)
{
    return r * o->rep + (e / epb) * o->blk + (e % epb) * o->esize;
}

/* Bounding range of one operand; false when it touches nothing. */
static bool vop_range(const vinfo_t *v, const vop_i_t *o, uint64_t *lo, uint64_t *hi)
{
    if (v->R == 0)
        return false;
    if (o->kind == K_BITS || o->kind == K_RED) {
        *lo = 0;
        *hi = (v->R - 1) * o->rep + o->blk_bytes;
        return true;
    }
    if (!v->any)
        return false;
    if (o->blk >= o->blk_bytes) { /* element offsets grow with e: the first and last selected bound it */
        *lo = vop_off(o, v->epb, 0, v->elo);
        *hi = vop_off(o, v->epb, v->R - 1, v->ehi_last) + o->esize;
        if (v->R >= 2) {
            const uint64_t h = vop_off(o, v->epb, v->R - 2, v->ehi) + o->esize;
            if (h > *hi)
                *hi = h;
        }
    } else {
        *lo = 0;
        *hi = (v->R - 1) * o->rep + 7 * o->blk + o->blk_bytes;
    }
    return true;
}

void dv_vstate_reset(dv_vstate_t *vs)
{
    vs->count_mode = false;
    vs->hi = vs->lo = ~0ull;
}

/* Output element type and size of a FIXPIPE form instruction. */
static dv_dtype_t fix_out_type(const dv_insn_t *in)
{
    const uint64_t q = FI(FIXPIPE, quant);
    return q == DV_QUANT_F16 ? DV_DT_F16 : q == DV_QUANT_BF16 ? DV_DT_BF16 : DV_DT_F32;
}

/* The fixed-shape vector forms (vbrcb, vtranspose): no mask, one operand layout each.  Fills g as
 * dv_vec_geometry reports it and addr[k] with the full address of operand k (dst, src); false for
 * other forms and bad dtypes. */
static bool vfixed_geometry(const dv_insn_t *in, dv_vgeom_t *g, uint64_t addr[2])
{
    const dv_op_spec_t *os = dv_op_spec((dv_op_t)in->op);
    if (!os)
        return false;
    switch (os->form) {
    case DV_FORM_VBRCB: {
        const dv_dtype_t t = FT(VBRCB, dtype);
        if (!dtype_ok(os, t))
            return false;
        const uint64_t s = dv_dtype_size(t), R = FI(VBRCB, repeat);
        addr[0] = FA(VBRCB, dst);
        addr[1] = FA(VBRCB, src);
        g->repeats = (uint32_t)R;
        g->elems_per_repeat = (uint32_t)(256 / s);
        g->elems = R * (256 / s);
        /* dst: 8 datablocks per repeat; src: one chunk of 8 elements per repeat, contiguous */
        g->ops[0] = (dv_vop_t){DV_ADDR_OFF(addr[0]), 32, FI(VBRCB, dst_blk) * 32, FI(VBRCB, dst_rep) * 32, true};
        g->ops[1] = (dv_vop_t){DV_ADDR_OFF(addr[1]), 8 * s, 0, 8 * s, false};
        break;
    }
    case DV_FORM_VTRANSPOSE:
        if (!dtype_ok(os, FT(VTRANSPOSE, dtype)))
            return false;
        addr[0] = FA(VTRANSPOSE, dst);
        addr[1] = FA(VTRANSPOSE, src);
        /* 512 contiguous bytes each side, counted as two full repeats */
        g->repeats = 2;
        g->elems_per_repeat = 128;
        g->elems = 256;
        g->ops[0] = (dv_vop_t){DV_ADDR_OFF(addr[0]), 32, 32, 256, true};
        g->ops[1] = (dv_vop_t){DV_ADDR_OFF(addr[1]), 32, 32, 256, false};
        break;
    default:
        return false;
    }
    g->nops = 2;
    return true;
}

int dv_vec_geometry(const dv_insn_t *in, const dv_vstate_t *vs, dv_vgeom_t *g)
{
    vinfo_t v;
    uint64_t addr[2];
    const int k = vinfo_build(in, vs, &v);
    g->nops = 0;
    g->repeats = 0;
    g->elems_per_repeat = 0;
    g->elems = 0;
    if (k == 0 && vfixed_geometry(in, g, addr))
        return g->nops;
    if (k == 0 && in->op == DV_OP_copy_matrix_cc_to_ubuf) { /* 64 f32 accumulators per repeat */
        const uint64_t n = FI(FIXPIPE, m_size) * FI(FIXPIPE, n_size);
        g->repeats = (uint32_t)ceil_div(n * 4, 256);
        g->elems_per_repeat = 64;
        g->elems = n;
        return 0;
    }
    if (k <= 0)
        return -1;
    g->repeats = v.R > UINT32_MAX ? UINT32_MAX : (uint32_t)v.R;
    g->elems_per_repeat = v.E;
    if (v.count) {
        g->elems = v.N;
    } else {
        uint64_t bits = (uint64_t)__builtin_popcountll(v.mlo) + (v.E == 64 ? 0 : __builtin_popcountll(v.mhi));
        g->elems = (v.E == 256 ? 2 * bits : bits) * v.R;
    }
    g->nops = v.nops;
    for (int i = 0; i < v.nops; i++) {
        g->ops[i].base = DV_ADDR_OFF(v.op[i].addr);
        g->ops[i].blk_bytes = v.op[i].blk_bytes;
        g->ops[i].blk_stride = v.op[i].blk;
        g->ops[i].rep_stride = v.op[i].rep;
        g->ops[i].write = v.op[i].write;
    }
    return v.nops;
}

/* ======================================================================== footprints */

/* Layout sizes used by the cube forms. */
static uint64_t k0_of(dv_dtype_t t) { return 32 / dv_dtype_size(t); }

/* Input rows/columns of the img2col output geometry. */
typedef struct i2c {
    uint64_t H, W, C1, kh, kw, sh, sw, pt, pl, dh, dw, Ho, Wo;
    uint64_t m0, mext, k0, kext, M1, K1;
} i2c_t;

static void i2c_get(const dv_insn_t *in, i2c_t *g)
{
    g->H = FI(IMG2COL, fmap_h);
    g->W = FI(IMG2COL, fmap_w);
    g->C1 = FI(IMG2COL, c1);
    g->kh = FI(IMG2COL, kh);
    g->kw = FI(IMG2COL, kw);
    g->sh = FI(IMG2COL, stride_h);
    g->sw = FI(IMG2COL, stride_w);
    g->pt = FI(IMG2COL, pad_t);
    g->pl = FI(IMG2COL, pad_l);
    g->dh = FI(IMG2COL, dil_h);
    g->dw = FI(IMG2COL, dil_w);
    const int64_t nh = (int64_t)(g->H + g->pt + FI(IMG2COL, pad_b)) - (int64_t)(g->dh * (g->kh - 1)) - 1;
    const int64_t nw = (int64_t)(g->W + g->pl + FI(IMG2COL, pad_r)) - (int64_t)(g->dw * (g->kw - 1)) - 1;
    g->Ho = nh < 0 ? 0 : (uint64_t)nh / g->sh + 1;
    g->Wo = nw < 0 ? 0 : (uint64_t)nw / g->sw + 1;
    g->m0 = FI(IMG2COL, m_start);
    g->mext = FI(IMG2COL, m_ext);
    g->k0 = FI(IMG2COL, k_start);
    g->kext = FI(IMG2COL, k_ext);
    g->M1 = ceil_div(g->mext, 16);
    g->K1 = ceil_div(g->kext, 16);
}

/* Bounding range of the feature-map bytes an img2col reads; false when it reads none. */
static bool i2c_src_range(const i2c_t *g, uint64_t *lo, uint64_t *hi)
{
    const uint64_t mend = g->m0 + g->mext < g->Ho * g->Wo ? g->m0 + g->mext : g->Ho * g->Wo;
    const uint64_t kblocks = g->C1 * g->kh * g->kw, kb0 = g->k0 / 16;
    const uint64_t kb1 = (g->k0 + g->kext + 15) / 16 < kblocks ? (g->k0 + g->kext + 15) / 16 : kblocks;
    if (g->m0 >= mend || kb0 >= kb1)
        return false;
    const uint64_t oh0 = g->m0 / g->Wo, oh1 = (mend - 1) / g->Wo;
    const int64_t ih0 = (int64_t)(oh0 * g->sh) - (int64_t)g->pt;
    const int64_t ih1 = (int64_t)(oh1 * g->sh + (g->kh - 1) * g->dh) - (int64_t)g->pt;
    const uint64_t a = ih0 < 0 ? 0 : (uint64_t)ih0;
    const uint64_t b = ih1 >= (int64_t)g->H ? g->H - 1 : (uint64_t)(ih1 < 0 ? 0 : ih1);
    if (ih1 < 0 || a >= g->H || a > b)
        return false;
    const uint64_t c0 = kb0 / (g->kh * g->kw), c1 = (kb1 - 1) / (g->kh * g->kw);
    *lo = (c0 * g->H + a) * g->W * 32;
    *hi = ((c1 * g->H + b) * g->W + g->W) * 32;
    return true;
}

int dv_footprint(const dv_insn_t *in, const dv_vstate_t *vs, dv_range_t out[DV_MAX_RANGES])
{
    const dv_op_spec_t *os = dv_op_spec((dv_op_t)in->op);
    if (!os)
        return 0;
    int n = 0;
    uint64_t lo, hi;
    dma_geom_t dg;
    if (dma_geom(in, os, &dg)) {
        range_set(&out[n++], dg.dst, 0, (dg.nburst - 1) * dg.dst_stride + dg.len, true);
        range_set(&out[n++], dg.src, 0, (dg.nburst - 1) * dg.src_stride + dg.len, false);
        return n;
    }
    switch (os->form) {
    case DV_FORM_ND2NZ: {
        const dv_dtype_t t = FT(ND2NZ, dtype);
        if (!dtype_ok(os, t))
            return 0;
        const uint64_t sz = dv_dtype_size(t), c1 = ceil_div(FI(ND2NZ, d_value), 32 / sz);
        const uint64_t nd = FI(ND2NZ, nd_num) - 1, nv = FI(ND2NZ, n_value) - 1;
        range_set(&out[n++], FA(ND2NZ, dst), 0,
                  (nd * FI(ND2NZ, dst_nd_stride) + (c1 - 1) * FI(ND2NZ, dst_c0_stride) + nv * FI(ND2NZ, dst_n_stride)) * 32 + 32,
                  true);
        range_set(&out[n++], FA(ND2NZ, src), 0,
                  (nd * FI(ND2NZ, src_nd_stride) + nv * FI(ND2NZ, src_d_stride) + FI(ND2NZ, d_value)) * sz, false);
        return n;
    }
    case DV_FORM_LOAD2D: {
        const uint64_t rep = FI(LOAD2D, repeat), base = FI(LOAD2D, base_idx);
        range_set(&out[n++], FA(LOAD2D, dst), 0, ((rep - 1) * (FI(LOAD2D, dst_gap) + 1) + 1) * 512, true);
        range_set(&out[n++], FA(LOAD2D, src), base * 512, (base + (rep - 1) * FI(LOAD2D, src_stride) + 1) * 512, false);
        return n;
    }
    case DV_FORM_IMG2COL: {
        i2c_t g;
        i2c_get(in, &g);
        range_set(&out[n++], FA(IMG2COL, dst), 0, g.M1 * g.K1 * 512, true);
        if (i2c_src_range(&g, &lo, &hi))
            range_set(&out[n++], FA(IMG2COL, src), lo, hi, false);
        return n;
    }
    case DV_FORM_MMAD: {
        const dv_dtype_t t = FT(MMAD, dtype);
        if (!dtype_ok(os, t))
            return 0;
        const uint64_t m = FI(MMAD, m), k = FI(MMAD, k), nn = FI(MMAD, n), sz = dv_dtype_size(t), K0 = k0_of(t);
        const uint64_t M1 = ceil_div(m, 16), K1 = ceil_div(k, K0), N1 = ceil_div(nn, 16);
        const uint64_t chi = (N1 * M1 - 1) * 1024 + (((m - 1) % 16) * 16 + (nn - 1) % 16) * 4 + 4;
        range_set(&out[n++], FA(MMAD, c), 0, chi, true);
        if (!FI(MMAD, init))
            range_set(&out[n++], FA(MMAD, c), 0, chi, false);
        range_set(&out[n++], FA(MMAD, a), 0, (M1 * K1 - 1) * 512 + (((m - 1) % 16) * K0 + (k - 1) % K0) * sz + sz, false);
        range_set(&out[n++], FA(MMAD, b), 0, (K1 * N1 - 1) * 512 + (((nn - 1) % 16) * K0 + (k - 1) % K0) * sz + sz, false);
        return n;
    }
    case DV_FORM_FIXPIPE: {
        const uint64_t ms = FI(FIXPIPE, m_size), ns = FI(FIXPIPE, n_size), N1 = ceil_div(ns, 16);
        const uint64_t osz = dv_dtype_size(fix_out_type(in)), ds = FI(FIXPIPE, dst_stride);
        if (FI(FIXPIPE, nz2nd))
            hi = ((ms - 1) * ds + ns) * osz;
        else
            hi = (((N1 - 1) * ds + ms - 1) * 16 + (ns - 1) % 16 + 1) * osz;
        range_set(&out[n++], FA(FIXPIPE, dst), 0, hi, true);
        range_set(&out[n++], FA(FIXPIPE, src), 0,
                  (((N1 - 1) * FI(FIXPIPE, src_stride) + ms - 1) * 16 + (ns - 1) % 16 + 1) * 4, false);
        return n;
    }
    case DV_FORM_VBRCB:
    case DV_FORM_VTRANSPOSE: {
        dv_vgeom_t g;
        uint64_t addr[2];
        if (!vfixed_geometry(in, &g, addr) || g.repeats == 0)
            return 0;
        for (int k = 0; k < g.nops; k++) {
            const dv_vop_t *o = &g.ops[k];
            range_set(&out[n++], addr[k], 0, (g.repeats - 1) * o->rep_stride + 7 * o->blk_stride + o->blk_bytes, o->write);
        }
        return n;
    }
    default:
        break;
    }
    vinfo_t v;
    if (vinfo_build(in, vs, &v) <= 0)
        return 0;
    for (int k = 0; k < v.nops; k++)
        if (vop_range(&v, &v.op[k], &lo, &hi))
            range_set(&out[n++], v.op[k].addr, lo, hi, v.op[k].write);
    return n;
}

/* ======================================================================== transfer shapes */

int dv_xfer_shape(const dv_insn_t *in, dv_xfer_t *x)
{
    const dv_op_spec_t *os = dv_op_spec((dv_op_t)in->op);
    memset(x, 0, sizeof *x);
    if (!os)
        return -1;
    const bool gm_src = os->src_space == DV_SPACE_GM, gm_dst = os->dst_space == DV_SPACE_GM;
    dma_geom_t dg;
    if (dma_geom(in, os, &dg)) {
        x->src_bytes = x->dst_bytes = dg.nburst * dg.len;
        if (gm_src || gm_dst) {
            x->bursts = dg.nburst;
            x->burst_bytes = dg.len;
            x->gm_lo = DV_ADDR_OFF(gm_src ? dg.src : dg.dst);
            x->gm_stride = gm_src ? dg.src_stride : dg.dst_stride;
        }
        return 0;
    }
    switch (os->form) {
    case DV_FORM_ND2NZ: {
        const uint64_t sz = dv_dtype_size(FT(ND2NZ, dtype)) ? dv_dtype_size(FT(ND2NZ, dtype)) : 1;
        const uint64_t nd = FI(ND2NZ, nd_num), nv = FI(ND2NZ, n_value), d = FI(ND2NZ, d_value);
        x->src_bytes = nd * nv * d * sz;
        x->dst_bytes = nd * nv * ceil_div(d, 32 / sz) * 32;
        x->bursts = nd * nv;
        x->burst_bytes = d * sz;
        x->gm_lo = DV_ADDR_OFF(FA(ND2NZ, src));
        x->gm_stride = FI(ND2NZ, src_d_stride) * sz;
        x->group = nv;
        x->group_stride = FI(ND2NZ, src_nd_stride) * sz;
        return 0;
    }
    case DV_FORM_LOAD2D: {
        const uint64_t rep = FI(LOAD2D, repeat);
        x->src_bytes = x->dst_bytes = rep * 512;
        if (gm_src) {
            x->bursts = rep;
            x->burst_bytes = 512;
            x->gm_lo = DV_ADDR_OFF(FA(LOAD2D, src)) + FI(LOAD2D, base_idx) * 512;
            x->gm_stride = FI(LOAD2D, src_stride) * 512;
        }
        return 0;
    }
    case DV_FORM_IMG2COL: {
        i2c_t g;
        i2c_get(in, &g);
        x->src_bytes = x->dst_bytes = g.M1 * g.K1 * 512;
        return 0;
    }
    case DV_FORM_FIXPIPE: {
        const uint64_t ms = FI(FIXPIPE, m_size), ns = FI(FIXPIPE, n_size), N1 = ceil_div(ns, 16);
        const uint64_t osz = dv_dtype_size(fix_out_type(in)), ds = FI(FIXPIPE, dst_stride);
        x->src_bytes = ms * ns * 4;
        x->dst_bytes = ms * ns * osz;
        if (!gm_dst)
            return 0;
        x->gm_lo = DV_ADDR_OFF(FA(FIXPIPE, dst));
        if (FI(FIXPIPE, nz2nd)) { /* one run per row */
            x->bursts = ms;
            x->burst_bytes = ns * osz;
            x->gm_stride = ds * osz;
        } else if (ns % 16 == 0) { /* one run per 16-column block */
            x->bursts = N1;
            x->burst_bytes = ms * 16 * osz;
            x->gm_stride = ds * 16 * osz;
        } else { /* one 16-element run per row of each block */
            x->bursts = N1 * ms;
            x->burst_bytes = 16 * osz;
            x->gm_stride = 16 * osz;
            x->group = ms;
            x->group_stride = ds * 16 * osz;
        }
        return 0;
    }
    default:
        return -1;
    }
}

/* ======================================================================== execution: vector */

/* Selected element positions of repeat r, ascending; returns their count. */
static uint32_t vsel_list(const vinfo_t *v, uint64_t r, uint32_t sel[256])
{
    uint32_t n = 0;
    if (v->count) {
        const uint64_t left = v->N - r * v->E;
        const uint32_t lim = left < v->E ? (uint32_t)left : v->E;
        for (uint32_t e = 0; e < lim; e++)
            sel[n++] = e;
        return n;
    }
    for (uint32_t e = 0; e < v->E; e++) {
        const uint32_t b = v->E == 256 ? e / 2 : e;
        if (b < 64 ? (v->mlo >> b) & 1 : (v->mhi >> (b - 64)) & 1)
            sel[n++] = e;
    }
    return n;
}

static float fmax_rule(float a, float b)
{
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    return b > a ? b : a;
}

static float fmin_rule(float a, float b)
{
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    return b < a ? b : a;
}

static float fop(dv_op_t op, float a, float b)
{
    float r;
    switch (op) {
    case DV_OP_vadd: case DV_OP_vadds: r = a + b; break;
    case DV_OP_vsub: r = a - b; break;
    case DV_OP_vmul: case DV_OP_vmuls: r = a * b; break;
    case DV_OP_vdiv: r = a / b; break;
    case DV_OP_vmax: case DV_OP_vmaxs: r = fmax_rule(a, b); break;
    case DV_OP_vmin: r = fmin_rule(a, b); break;
    case DV_OP_vexp: r = expf(a); break;
    case DV_OP_vln: r = logf(a); break;
    case DV_OP_vsqrt: r = sqrtf(a); break;
    case DV_OP_vrsqrt: r = sqrtf(a); r = 1.0f / r; break;
    case DV_OP_vrec: r = 1.0f / a; break;
    case DV_OP_vrelu: r = a > 0 ? a : 0.0f; break;
    default: r = a; break;
    }
    return r;
}

static int64_t iop(dv_op_t op, int64_t a, int64_t b)
{
    const uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    switch (op) {
    case DV_OP_vadd: case DV_OP_vadds: return (int64_t)(ua + ub);
    case DV_OP_vsub: return (int64_t)(ua - ub);
    case DV_OP_vmul: case DV_OP_vmuls: return (int64_t)(ua * ub);
    case DV_OP_vmax: case DV_OP_vmaxs: return a > b ? a : b;
    case DV_OP_vmin: return a < b ? a : b;
    case DV_OP_vabs: return a < 0 ? (int64_t)(0u - ua) : a;
    case DV_OP_vrelu: return a > 0 ? a : 0;
    default: return a;
    }
}

static bool cmp_true(int c, double a, double b)
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

static void conv_elem(dv_dtype_t td, dv_dtype_t ts, int mode, const uint8_t *sp, uint8_t *dp)
{
    uint32_t bits;
    if (dv_dtype_is_float(ts)) {
        const float x = ld_f(ts, sp);
        if (td == DV_DT_F32) {
            memcpy(dp, &x, 4);
            return;
        }
        if (!dv_dtype_is_float(td)) {
            st_i(td, dp, fp_to_int(x, mode, td));
            return;
        }
        if (mode == DV_ROUND_R)
            bits = td == DV_DT_F16 ? dv_f32_to_f16(x) : dv_f32_to_bf16(x);
        else
            bits = fp_round(x, fmt_of(td), mode);
    } else {
        const int64_t v = ld_i(ts, sp);
        bits = fp_round((double)v, fmt_of(td), mode);
    }
    const uint16_t h = (uint16_t)bits;
    if (td == DV_DT_F32)
        memcpy(dp, &bits, 4);
    else
        memcpy(dp, &h, 2);
}

/* One repeat: every source element is read before any destination element is written. */
static void vec_repeat(const dv_insn_t *in, const vinfo_t *v, uint8_t *ub, uint64_t r)
{
    uint32_t sel[256], n = vsel_list(v, r, sel);
    const dv_op_t op = (dv_op_t)in->op;
    const dv_dtype_t t = v->t;
    const uint32_t epb = v->epb, s = dv_dtype_size(t);
    const bool fl = dv_dtype_is_float(t);
    const vop_i_t *o = v->op;
    uint8_t *p0 = ub + DV_ADDR_OFF(o[0].addr);
    uint8_t *p1 = v->nops > 1 ? ub + DV_ADDR_OFF(o[1].addr) : NULL;
    uint8_t *p2 = v->nops > 2 ? ub + DV_ADDR_OFF(o[2].addr) : NULL;
    float fa[256], fb[256];
    int64_t ia[256], ib[256];
    uint32_t raw[256];
    uint8_t sc[4] = {0};

    switch (v->form) {
    case DV_FORM_VBIN:
    case DV_FORM_VSCALAR:
    case DV_FORM_VUNARY: {
        const bool two = v->form == DV_FORM_VBIN;
        if (v->form == DV_FORM_VSCALAR)
            scalar_bits(t, in->f[DV_FLD(VSCALAR, scalar)].d, sc);
        if (op == DV_OP_vcopy || (op == DV_OP_vabs && fl)) { /* bitwise */
            const uint32_t signbit = s == 2 ? 0x8000u : 0x80000000u;
            for (uint32_t k = 0; k < n; k++) {
                raw[k] = 0;
                memcpy(&raw[k], p1 + vop_off(&o[1], epb, r, sel[k]), s);
                if (op == DV_OP_vabs)
                    raw[k] &= ~signbit;
            }
            for (uint32_t k = 0; k < n; k++)
                memcpy(p0 + vop_off(&o[0], epb, r, sel[k]), &raw[k], s);
            break;
        }
        for (uint32_t k = 0; k < n; k++) {
            const uint8_t *a = p1 + vop_off(&o[1], epb, r, sel[k]);
            const uint8_t *b = two ? p2 + vop_off(&o[2], epb, r, sel[k]) : sc;
            if (fl) {
                fa[k] = ld_f(t, a);
                fb[k] = ld_f(t, b);
            } else {
                ia[k] = ld_i(t, a);
                ib[k] = ld_i(t, b);
            }
        }
        for (uint32_t k = 0; k < n; k++) {
            uint8_t *d = p0 + vop_off(&o[0], epb, r, sel[k]);
            if (fl)
                st_f(t, d, fop(op, fa[k], fb[k]));
            else
                st_i(t, d, iop(op, ia[k], ib[k]));
        }
        break;
    }
    case DV_FORM_VCONV: {
        const int mode = (int)FI(VCONV, round);
        const uint32_t s2 = dv_dtype_size(v->t2);
        for (uint32_t k = 0; k < n; k++) {
            raw[k] = 0;
            memcpy(&raw[k], p1 + vop_off(&o[1], epb, r, sel[k]), s2);
        }
        for (uint32_t k = 0; k < n; k++)
            conv_elem(t, v->t2, mode, (const uint8_t *)&raw[k], p0 + vop_off(&o[0], epb, r, sel[k]));
        break;
    }
    case DV_FORM_VREDUCE: {
        uint8_t *d = p0 + r * o[0].rep;
        if (op == DV_OP_vcadd) {
            float acc = 0.0f;
            for (uint32_t k = 0; k < n; k++)
                acc += ld_f(t, p1 + vop_off(&o[1], epb, r, sel[k]));
            st_f(t, d, acc);
            break;
        }
        if (n == 0)
            break;
        uint32_t best = 0;
        float bv = ld_f(t, p1 + vop_off(&o[1], epb, r, sel[0]));
        for (uint32_t k = 1; k < n; k++) {
            const float x = ld_f(t, p1 + vop_off(&o[1], epb, r, sel[k]));
            if ((op == DV_OP_vcmax ? x > bv : x < bv) || (isnan(bv) && !isnan(x))) {
                bv = x;
                best = k;
            }
        }
        memcpy(&raw[0], p1 + vop_off(&o[1], epb, r, sel[best]), s);
        memcpy(d, &raw[0], s);
        st_i(t == DV_DT_F16 ? DV_DT_U16 : DV_DT_U32, d + s, sel[best]);
        break;
    }
    case DV_FORM_VDUP:
        scalar_bits(t, in->f[DV_FLD(VDUP, scalar)].d, sc);
        for (uint32_t k = 0; k < n; k++)
            memcpy(p0 + vop_off(&o[0], epb, r, sel[k]), sc, s);
        break;
    case DV_FORM_VCMP: {
        uint8_t bits[32] = {0};
        const int c = (int)FI(VCMP, cmp);
        for (uint32_t k = 0; k < n; k++) {
            const uint8_t *a = p1 + vop_off(&o[1], epb, r, sel[k]), *b = p2 + vop_off(&o[2], epb, r, sel[k]);
            const bool hit = fl ? cmp_true(c, ld_f(t, a), ld_f(t, b)) : cmp_true(c, (double)ld_i(t, a), (double)ld_i(t, b));
            if (hit)
                bits[sel[k] / 8] |= (uint8_t)(1u << (sel[k] % 8));
        }
        memcpy(p0 + r * o[0].rep, bits, v->E / 8);
        break;
    }
    case DV_FORM_VSEL: {
        const uint8_t *m = ub + DV_ADDR_OFF(o[3].addr) + r * o[3].rep;
        for (uint32_t k = 0; k < n; k++) {
            const bool first = (m[sel[k] / 8] >> (sel[k] % 8)) & 1;
            raw[k] = 0;
            memcpy(&raw[k], first ? p1 + vop_off(&o[1], epb, r, sel[k]) : p2 + vop_off(&o[2], epb, r, sel[k]), s);
        }
        for (uint32_t k = 0; k < n; k++)
            memcpy(p0 + vop_off(&o[0], epb, r, sel[k]), &raw[k], s);
        break;
    }
    default:
        break;
    }
}

/* ======================================================================== execution: the rest */

/* Pointer to an address, given that its footprint has been checked. */
static uint8_t *mem_at(dv_mem_t *m, uint64_t addr)
{
    const dv_space_t s = DV_ADDR_SPACE(addr);
    uint8_t *base = s == DV_SPACE_GM ? m->gm[DV_ADDR_ARG(addr)] : m->buf[s];
    return base + DV_ADDR_OFF(addr);
}

/* DMA and DMAPAD: only the `len` bytes of each burst are written (DMAPAD leaves the UB bytes up to
 * the burst's 32 B boundary as they were). */
static void exec_dma(const dma_geom_t *g, dv_mem_t *m)
{
    uint8_t *d = mem_at(m, g->dst);
    const uint8_t *s = mem_at(m, g->src);
    for (uint64_t i = 0; i < g->nburst; i++)
        memmove(d + i * g->dst_stride, s + i * g->src_stride, g->len);
}

static void exec_nd2nz(const dv_insn_t *in, dv_mem_t *m)
{
    uint8_t *d = mem_at(m, FA(ND2NZ, dst));
    const uint8_t *s = mem_at(m, FA(ND2NZ, src));
    const uint64_t sz = dv_dtype_size(FT(ND2NZ, dtype)), C0 = 32 / sz;
    const uint64_t nd = FI(ND2NZ, nd_num), nv = FI(ND2NZ, n_value), dv = FI(ND2NZ, d_value), c1 = ceil_div(dv, C0);
    const uint64_t snd = FI(ND2NZ, src_nd_stride), sd = FI(ND2NZ, src_d_stride);
    const uint64_t dnd = FI(ND2NZ, dst_nd_stride) * 32, dc0 = FI(ND2NZ, dst_c0_stride) * 32, dn = FI(ND2NZ, dst_n_stride) * 32;
    for (uint64_t j = 0; j < nd; j++)
        for (uint64_t i = 0; i < nv; i++)
            for (uint64_t b = 0; b < c1; b++) {
                uint8_t *dp = d + j * dnd + b * dc0 + i * dn;
                const uint64_t cols = dv - b * C0 < C0 ? dv - b * C0 : C0;
                memmove(dp, s + (j * snd + i * sd + b * C0) * sz, cols * sz);
                memset(dp + cols * sz, 0, (C0 - cols) * sz);
            }
}

/* A 16x16 matrix of 2-byte elements, transposed: d(r, c) = s(c, r).  d and s must not overlap. */
static void transpose_16x16_b16(uint8_t *d, const uint8_t *s)
{
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++)
            memcpy(d + (r * 16 + c) * 2, s + (c * 16 + r) * 2, 2);
}

static void exec_load2d(const dv_insn_t *in, dv_mem_t *m)
{
    uint8_t *d = mem_at(m, FA(LOAD2D, dst));
    const uint8_t *s = mem_at(m, FA(LOAD2D, src));
    const uint64_t rep = FI(LOAD2D, repeat), base = FI(LOAD2D, base_idx), ss = FI(LOAD2D, src_stride);
    const uint64_t dstep = (FI(LOAD2D, dst_gap) + 1) * 512;
    const bool tr = FI(LOAD2D, transpose);
    uint8_t tmp[512];
    for (uint64_t i = 0; i < rep; i++) {
        const uint8_t *sp = s + (base + i * ss) * 512;
        if (tr)
            transpose_16x16_b16(tmp, sp);
        else
            memcpy(tmp, sp, 512);
        memcpy(d + i * dstep, tmp, 512);
    }
}

/* Repeat r: all 8 source elements are read, then datablocks 0..7 are written in order. */
static void exec_vbrcb(const dv_insn_t *in, dv_mem_t *m)
{
    uint8_t *d = mem_at(m, FA(VBRCB, dst));
    const uint8_t *s = mem_at(m, FA(VBRCB, src));
    const uint64_t sz = dv_dtype_size(FT(VBRCB, dtype)), rep = FI(VBRCB, repeat);
    const uint64_t blk = FI(VBRCB, dst_blk) * 32, rstride = FI(VBRCB, dst_rep) * 32;
    uint8_t e[8 * 4];
    for (uint64_t r = 0; r < rep; r++) {
        memcpy(e, s + r * 8 * sz, 8 * sz);
        for (uint64_t i = 0; i < 8; i++)
            for (uint64_t k = 0; k < 32; k += sz)
                memcpy(d + r * rstride + i * blk + k, e + i * sz, sz);
    }
}

static void exec_img2col(const dv_insn_t *in, dv_mem_t *m)
{
    i2c_t g;
    i2c_get(in, &g);
    uint8_t *d = mem_at(m, FA(IMG2COL, dst));
    const uint8_t *s = mem_at(m, FA(IMG2COL, src));
    const uint64_t kblocks = g.C1 * g.kh * g.kw, hw = g.Ho * g.Wo;
    for (uint64_t ml = 0; ml < g.M1 * 16; ml++) {
        const uint64_t mm = g.m0 + ml;
        const bool row = ml < g.mext && mm < hw;
        const int64_t oh = row ? (int64_t)(mm / g.Wo) : 0, ow = row ? (int64_t)(mm % g.Wo) : 0;
        for (uint64_t kb = 0; kb < g.K1; kb++) {
            uint8_t *dp = d + ((ml / 16) * g.K1 + kb) * 512 + (ml % 16) * 32;
            const uint64_t kk = g.k0 / 16 + kb; /* C0 group index (c1i, khi, kwi) */
            bool ok = row && kk < kblocks;
            int64_t ih = 0, iw = 0;
            uint64_t c1i = 0;
            if (ok) {
                const uint64_t kwi = kk % g.kw, khi = (kk / g.kw) % g.kh;
                c1i = kk / (g.kw * g.kh);
                ih = oh * (int64_t)g.sh - (int64_t)g.pt + (int64_t)(khi * g.dh);
                iw = ow * (int64_t)g.sw - (int64_t)g.pl + (int64_t)(kwi * g.dw);
                ok = ih >= 0 && ih < (int64_t)g.H && iw >= 0 && iw < (int64_t)g.W;
            }
            if (ok)
                memmove(dp, s + ((c1i * g.H + (uint64_t)ih) * g.W + (uint64_t)iw) * 32, 32);
            else
                memset(dp, 0, 32);
        }
    }
}

static int exec_mmad(const dv_insn_t *in, dv_mem_t *m, dv_error_t *err)
{
    const dv_dtype_t t = FT(MMAD, dtype);
    const uint64_t M = FI(MMAD, m), K = FI(MMAD, k), N = FI(MMAD, n), sz = dv_dtype_size(t), K0 = k0_of(t);
    const uint64_t M1 = ceil_div(M, 16), K1 = ceil_div(K, K0), N1 = ceil_div(N, 16);
    const bool init = FI(MMAD, init), ints = t == DV_DT_S8;
    uint8_t *c = mem_at(m, FA(MMAD, c));
    const uint8_t *a = mem_at(m, FA(MMAD, a)), *b = mem_at(m, FA(MMAD, b));
    int rc = DV_OK;
    /* Dense copies: A row-major m x k, B column-major (n x k), as float or int32. */
    float *fa = NULL, *fb = NULL;
    int32_t *ia = NULL, *ib = NULL;
    if (ints) {
        ia = malloc(M * K * sizeof *ia);
        ib = malloc(N * K * sizeof *ib);
    } else {
        fa = malloc(M * K * sizeof *fa);
        fb = malloc(N * K * sizeof *fb);
    }
    if (ints ? (!ia || !ib) : (!fa || !fb)) {
        rc = dv_error_set(err, DV_ERR_NOMEM, NULL, (int)in->line, 0, "mmad: out of memory for a %llux%llux%llu product",
                          (unsigned long long)M, (unsigned long long)K, (unsigned long long)N);
        goto cleanup;
    }
    for (uint64_t i = 0; i < M; i++)
        for (uint64_t k = 0; k < K; k++) {
            const uint8_t *p = a + (((i / 16) * K1 + k / K0) * 512 + ((i % 16) * K0 + k % K0) * sz);
            if (ints)
                ia[i * K + k] = (int8_t)p[0];
            else
                fa[i * K + k] = ld_f(t, p);
        }
    for (uint64_t j = 0; j < N; j++)
        for (uint64_t k = 0; k < K; k++) {
            const uint8_t *p = b + (((k / K0) * N1 + j / 16) * 512 + ((j % 16) * K0 + k % K0) * sz);
            if (ints)
                ib[j * K + k] = (int8_t)p[0];
            else
                fb[j * K + k] = ld_f(t, p);
        }
    for (uint64_t i = 0; i < M; i++)
        for (uint64_t j = 0; j < N; j++) {
            uint8_t *p = c + ((j / 16) * M1 + i / 16) * 1024 + ((i % 16) * 16 + j % 16) * 4;
            if (ints) {
                uint32_t acc = 0;
                if (!init)
                    memcpy(&acc, p, 4);
                for (uint64_t k = 0; k < K; k++)
                    acc += (uint32_t)(ia[i * K + k] * ib[j * K + k]);
                memcpy(p, &acc, 4);
            } else {
                float acc = 0.0f;
                if (!init)
                    memcpy(&acc, p, 4);
                for (uint64_t k = 0; k < K; k++) {
                    const float prod = fa[i * K + k] * fb[j * K + k];
                    acc += prod;
                }
                memcpy(p, &acc, 4);
            }
        }
cleanup:
    free(fa);
    free(fb);
    free(ia);
    free(ib);
    return rc;
}

static void exec_fixpipe(const dv_insn_t *in, dv_mem_t *m)
{
    uint8_t *d = mem_at(m, FA(FIXPIPE, dst));
    const uint8_t *s = mem_at(m, FA(FIXPIPE, src));
    const uint64_t ms = FI(FIXPIPE, m_size), ns = FI(FIXPIPE, n_size), ss = FI(FIXPIPE, src_stride);
    const uint64_t ds = FI(FIXPIPE, dst_stride);
    const dv_dtype_t ot = fix_out_type(in);
    const uint64_t osz = dv_dtype_size(ot);
    const bool relu = FI(FIXPIPE, relu), nd = FI(FIXPIPE, nz2nd);
    for (uint64_t n = 0; n < ns; n++)
        for (uint64_t i = 0; i < ms; i++) {
            const uint8_t *sp = s + (((n / 16) * ss + i) * 16 + n % 16) * 4;
            uint8_t *dp = d + (nd ? (i * ds + n) * osz : (((n / 16) * ds + i) * 16 + n % 16) * osz);
            if (ot == DV_DT_F32 && !relu) { /* bit-exact move (s32 accumulators too) */
                memmove(dp, sp, 4);
                continue;
            }
            float x = ld_f(DV_DT_F32, sp);
            if (relu)
                x = x > 0 ? x : 0.0f;
            st_f(ot, dp, x);
        }
}

/* Does the instruction's form/dtype make sense (defensive: dv_insn_check is the real gate). */
static int exec_check(const dv_insn_t *in, const dv_op_spec_t *os, dv_error_t *err)
{
    dv_dtype_t t = DV_DT_COUNT;
    switch (os->form) {
    case DV_FORM_ND2NZ: t = FT(ND2NZ, dtype); break;
    case DV_FORM_LOAD2D:
        t = FT(LOAD2D, dtype);
        if (dtype_ok(os, t) && FI(LOAD2D, transpose) && dv_dtype_size(t) != 2)
            return dv_error_set(err, DV_ERR_UNSUPPORTED, NULL, (int)in->line, 0,
                                "%s: transpose is only for 16-bit types", os->mnemonic);
        break;
    case DV_FORM_IMG2COL:
        t = FT(IMG2COL, dtype);
        if (FI(IMG2COL, k_start) % 16 || FI(IMG2COL, k_ext) % 16)
            return dv_error_set(err, DV_ERR_RANGE, NULL, (int)in->line, 0,
                                "%s: k_start and k_ext must be multiples of 16", os->mnemonic);
        break;
    case DV_FORM_MMAD: t = FT(MMAD, dtype); break;
    case DV_FORM_VBRCB:
    case DV_FORM_VTRANSPOSE: {
        dv_vgeom_t g;
        uint64_t a[2];
        if (!vfixed_geometry(in, &g, a))
            break;
        for (int k = 0; k < 2; k++)
            if (DV_ADDR_SPACE(a[k]) != DV_SPACE_UB)
                return dv_error_set(err, DV_ERR_RANGE, NULL, (int)in->line, 0, "%s: vector operand %d is not in ub",
                                    os->mnemonic, k);
        const uint64_t d = DV_ADDR_OFF(a[0]), s = DV_ADDR_OFF(a[1]);
        if (os->form == DV_FORM_VTRANSPOSE && d < s + 512 && s < d + 512)
            return dv_error_set(err, DV_ERR_RANGE, NULL, (int)in->line, 0,
                                "%s: dst [0x%llx, 0x%llx) and src [0x%llx, 0x%llx) overlap", os->mnemonic,
                                (unsigned long long)d, (unsigned long long)(d + 512), (unsigned long long)s,
                                (unsigned long long)(s + 512));
        return DV_OK;
    }
    default: return DV_OK;
    }
    if (!dtype_ok(os, t))
        return dv_error_set(err, DV_ERR_UNSUPPORTED, NULL, (int)in->line, 0, "%s: unsupported dtype", os->mnemonic);
    return DV_OK;
}

int dv_exec(const dv_insn_t *in, const dv_vstate_t *vs, dv_mem_t *m, dv_error_t *err)
{
    const dv_op_spec_t *os = dv_op_spec((dv_op_t)in->op);
    if (!os)
        return dv_error_set(err, DV_ERR_UNKNOWN, NULL, (int)in->line, 0, "invalid opcode %u", in->op);
    vinfo_t v;
    const int vk = vinfo_build(in, vs, &v);
    if (vk < 0)
        return dv_error_set(err, DV_ERR_UNSUPPORTED, NULL, (int)in->line, 0, "%s: unsupported dtype", os->mnemonic);
    for (int k = 0; k < (vk > 0 ? v.nops : 0); k++)
        if (DV_ADDR_SPACE(v.op[k].addr) != DV_SPACE_UB)
            return dv_error_set(err, DV_ERR_RANGE, NULL, (int)in->line, 0, "%s: vector operand %d is not in ub",
                                os->mnemonic, k);
    int rc = exec_check(in, os, err);
    if (rc)
        return rc;
    dv_range_t rg[DV_MAX_RANGES];
    const int nr = dv_footprint(in, vs, rg);
    if (nr == 0)
        return DV_OK;
    for (int i = 0; i < nr; i++) { /* a buffer we do not have: timing-only run */
        if (rg[i].space >= DV_SPACE_COUNT)
            return dv_error_set(err, DV_ERR_RANGE, NULL, (int)in->line, 0, "%s: bad address space %u", os->mnemonic,
                                rg[i].space);
        if (rg[i].space == DV_SPACE_GM ? !m->gm || (rg[i].arg < m->ngm && !m->gm[rg[i].arg]) : !m->buf[rg[i].space])
            return DV_OK;
    }
    for (int i = 0; i < nr; i++) {
        const bool gm = rg[i].space == DV_SPACE_GM;
        if (gm && rg[i].arg >= m->ngm)
            return dv_error_set(err, DV_ERR_RANGE, NULL, (int)in->line, 0, "%s: GM argument %u does not exist (%u arguments)",
                                os->mnemonic, rg[i].arg, m->ngm);
        const uint64_t size = gm ? (m->gm_size ? m->gm_size[rg[i].arg] : 0) : m->size[rg[i].space];
        if (rg[i].hi > size || rg[i].lo > rg[i].hi) {
            char where[32];
            if (gm)
                snprintf(where, sizeof where, "gm argument %u", rg[i].arg);
            else
                snprintf(where, sizeof where, "%s", dv_space_name((dv_space_t)rg[i].space));
            return dv_error_set(err, DV_ERR_RANGE, NULL, (int)in->line, 0,
                                "%s: %s of bytes [%llu, %llu) is outside %s (%llu bytes)", os->mnemonic,
                                rg[i].write ? "write" : "read", (unsigned long long)rg[i].lo,
                                (unsigned long long)rg[i].hi, where, (unsigned long long)size);
        }
    }
    dma_geom_t dg;
    if (dma_geom(in, os, &dg)) {
        exec_dma(&dg, m);
        return rc;
    }
    switch (os->form) {
    case DV_FORM_ND2NZ: exec_nd2nz(in, m); break;
    case DV_FORM_LOAD2D: exec_load2d(in, m); break;
    case DV_FORM_IMG2COL: exec_img2col(in, m); break;
    case DV_FORM_MMAD: rc = exec_mmad(in, m, err); break;
    case DV_FORM_FIXPIPE: exec_fixpipe(in, m); break;
    case DV_FORM_VBRCB: exec_vbrcb(in, m); break;
    case DV_FORM_VTRANSPOSE: transpose_16x16_b16(mem_at(m, FA(VTRANSPOSE, dst)), mem_at(m, FA(VTRANSPOSE, src))); break;
    default:
        if (vk > 0)
            for (uint64_t r = 0; r < v.R; r++)
                vec_repeat(in, &v, m->buf[DV_SPACE_UB], r);
        break;
    }
    return rc;
}
