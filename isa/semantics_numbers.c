/* isa/semantics_numbers.c - number formats: fp16 / bf16 conversions, rounding into a float format
 * or an integer type, and the bits of trace scalars.  docs/SEMANTICS.md is the contract. */
#include "semantics_internal.h"

#include <math.h>

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

static const fpfmt_t fmt_f16 = {11, -14, 15, 5, 10};
static const fpfmt_t fmt_bf16 = {8, -126, 127, 8, 7};
static const fpfmt_t fmt_f32 = {24, -126, 127, 8, 23};

const fpfmt_t *dv_sem_fmt_of(dv_dtype_t t)
{
    return t == DV_DT_F16 ? &fmt_f16 : t == DV_DT_BF16 ? &fmt_bf16 : &fmt_f32;
}

uint32_t dv_sem_fp_round(double x, const fpfmt_t *f, int mode)
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

int64_t dv_sem_fp_to_int(double x, int mode, dv_dtype_t t)
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

/* (Element loads and stores are inline in semantics_internal.h.) */

void dv_sem_scalar_bits(dv_dtype_t t, double d, uint8_t out[4])
{
    if (dv_dtype_is_float(t)) {
        const uint32_t b = dv_sem_fp_round(d, dv_sem_fmt_of(t), DV_ROUND_R);
        const uint16_t h = (uint16_t)b;
        if (t == DV_DT_F32)
            memcpy(out, &b, 4);
        else
            memcpy(out, &h, 2);
    } else {
        dv_sem_st_i(t, out, dv_sem_fp_to_int(d, DV_ROUND_Z, t));
    }
}

