/* isa/semantics_numbers.c - number formats: fp16 / bf16 conversions, rounding into a float format
 * or an integer type, and the bits of trace scalars.  docs/SEMANTICS.md is the contract. */
#include "semantics_internal.h"

#include <math.h>
#include <stdlib.h>

/* ======================================================================== numbers */

float dv_f16_to_f32(uint16_t h) { return dv_sem_f16_to_f32(h); }

void dv_sem_ld_f_row(dv_dtype_t t, const uint8_t *p, uint64_t n, float *out, uint64_t stride)
{
    uint16_t h;
    switch (t) {
    case DV_DT_F16:
        for (uint64_t k = 0; k < n; k++) {
            memcpy(&h, p + 2 * k, 2);
            out[k * stride] = dv_sem_f16_to_f32(h);
        }
        break;
    case DV_DT_BF16:
        for (uint64_t k = 0; k < n; k++) {
            memcpy(&h, p + 2 * k, 2);
            out[k * stride] = dv_bf16_to_f32(h);
        }
        break;
    default:
        for (uint64_t k = 0; k < n; k++)
            memcpy(&out[k * stride], p + 4 * k, 4);
        break;
    }
}

uint16_t dv_f32_to_f16(float f) { return dv_sem_f32_to_f16(f); }

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


/* ---------------------------------------------------------------- the cube's product (dv/semantics.h) */

void *dv_dot_alloc(uint64_t bytes)
{
    return aligned_alloc(DV_DOT_ALIGN, dv_round_up(bytes, DV_DOT_ALIGN) + DV_DOT_ALIGN);
}

/* GCC vector extensions: plain SSE on x86-64 (no fused multiply-add), NEON elsewhere. */
typedef float dot_f __attribute__((vector_size(DV_DOT_LANES * sizeof(float))));
typedef uint32_t dot_u __attribute__((vector_size(DV_DOT_LANES * sizeof(uint32_t))));
enum { DOT_VECS = 2 }; /* vectors per row and pass over k: independent additions in flight */

/* One function per element type: each block of columns (DOT_VECS vectors) over every row, four rows
 * at a time (one load of B feeds them all), so the block's k x columns of B stay in the host's cache
 * from row to row; on a host with AVX2 (chosen at load time) the same arithmetic runs 8 lanes per
 * instruction.  R rows and NV vectors are constants in each expansion, so the accumulators live in
 * registers.  Every lane adds its products in k order, whatever R and NV: the sums do not depend
 * on the blocking.  The block's B rows are bs elements apart from bp, its accumulator rows cs apart
 * from cp (memcpy: the cube's L0C, read in place by the fractal form, need not be vector-aligned). */
#define DOT_ROWS(vec_t, elem_t, R, NV)                                                                                 \
    {                                                                                                                  \
        vec_t v[R][NV];                                                                                                \
        for (uint64_t r = 0; r < R; r++)                                                                               \
            for (uint64_t q = 0; q < NV; q++)                                                                          \
                memcpy(&v[r][q], cp + (i + r) * cs + q * DV_DOT_LANES, sizeof(vec_t));                                 \
        for (uint64_t kk = 0; kk < k; kk++) {                                                                          \
            const vec_t *row = (const vec_t *)(bp + kk * bs);                                                          \
            _Pragma("GCC unroll 4") for (uint64_t r = 0; r < R; r++) {                                                 \
                const elem_t x = a[(i + r) * k + kk];                                                                  \
                _Pragma("GCC unroll 2") for (uint64_t q = 0; q < NV; q++) {                                            \
                    const vec_t prod = x * row[q];                                                                     \
                    v[r][q] += prod;                                                                                   \
                }                                                                                                      \
            }                                                                                                          \
        }                                                                                                              \
        for (uint64_t r = 0; r < R; r++)                                                                               \
            for (uint64_t q = 0; q < NV; q++)                                                                          \
                memcpy(cp + (i + r) * cs + q * DV_DOT_LANES, &v[r][q], sizeof(vec_t));                                 \
    }
#define DOT_BLOCK(vec_t, elem_t, NV)                                                                                   \
    {                                                                                                                  \
        uint64_t i = 0;                                                                                                \
        for (; i + 4 <= m; i += 4)                                                                                     \
            DOT_ROWS(vec_t, elem_t, 4, NV)                                                                             \
        for (; i < m; i++)                                                                                             \
            DOT_ROWS(vec_t, elem_t, 1, NV)                                                                             \
    }
/* B's block of columns is read down k, one row of it per step: rows np elements apart, which for a
 * power-of-two np (the cube's N = 256: 1 KB) fall on a few sets of the host's L1 cache and evict
 * each other before the next row group reads them again.  With rows to reuse it (m > 4), each block
 * is first copied to pk, its rows side by side; the sums are the same (only where B is read from
 * changes). */
#define DOT_BODY(vec_t, elem_t)                                                                                        \
    for (uint64_t j0 = 0; j0 < np; j0 += DV_DOT_LANES * DOT_VECS) {                                                    \
        const uint64_t w = np - j0 < DV_DOT_LANES * DOT_VECS ? np - j0 : DV_DOT_LANES * DOT_VECS;                      \
        const elem_t *bp = b + j0;                                                                                     \
        uint64_t bs = np;                                                                                              \
        elem_t *const cp = acc + j0;                                                                                   \
        const uint64_t cs = np;                                                                                        \
        if (pk) {                                                                                                      \
            for (uint64_t kk = 0; kk < k; kk++)                                                                        \
                memcpy(pk + kk * w, b + kk * np + j0, w * sizeof(elem_t));                                             \
            bp = pk, bs = w;                                                                                           \
        }                                                                                                              \
        if (w / DV_DOT_LANES >= DOT_VECS)                                                                              \
            DOT_BLOCK(vec_t, elem_t, DOT_VECS)                                                                         \
        else /* np is a multiple of DV_DOT_LANES: one vector left */                                                   \
            DOT_BLOCK(vec_t, elem_t, 1)                                                                                \
    }
/* The fractal form (dv_sem_dot_*_nz): B in blocks of 16 columns (k rows of 16 side by side), the
 * accumulators in blocks of 16 columns whose rows are 16 elements apart, as an mmad's C is in L0C. */
#define DOT_NZ_BODY(vec_t, elem_t)                                                                                     \
    for (uint64_t jb = 0; jb < nb; jb++) {                                                                             \
        const elem_t *const bp = b + jb * k * 16;                                                                      \
        const uint64_t bs = 16, cs = 16;                                                                               \
        elem_t *const cp = acc + jb * cblock;                                                                          \
        DOT_BLOCK(vec_t, elem_t, DOT_VECS)                                                                             \
    }
_Static_assert(DV_DOT_LANES * DOT_VECS == 16, "a pass over k covers one fractal's 16 columns");

/* Each form compiled twice on x86-64: for the baseline and for AVX2, chosen once by the host's CPU. */
#define DOT_FN(name, elem_t, vec_t, attr)                                                                              \
    attr static void name(const elem_t *a, const elem_t *b, uint64_t m, uint64_t k, uint64_t np, elem_t *acc)        \
    {                                                                                                                  \
        elem_t *const pk = m > 4 ? dv_dot_alloc(k * DV_DOT_LANES * DOT_VECS * sizeof(elem_t)) : NULL;                  \
        DOT_BODY(vec_t, elem_t)                                                                                        \
        free(pk);                                                                                                      \
    }                                                                                                                  \
    attr static void name##_nz(const elem_t *a, const elem_t *b, uint64_t m, uint64_t k, uint64_t nb, elem_t *acc,   \
                               uint64_t cblock)                                                                        \
    {                                                                                                                  \
        DOT_NZ_BODY(vec_t, elem_t)                                                                                     \
    }
DOT_FN(dot_f32_base, float, dot_f, )
DOT_FN(dot_u32_base, uint32_t, dot_u, )
#if defined(__x86_64__) && defined(__GNUC__)
DOT_FN(dot_f32_avx2, float, dot_f, __attribute__((target("avx2"))))
DOT_FN(dot_u32_avx2, uint32_t, dot_u, __attribute__((target("avx2"))))
static bool dot_avx2(void)
{
    __builtin_cpu_init(); /* idempotent: the CPU is read once per process */
    return __builtin_cpu_supports("avx2");
}
#else
#define dot_f32_avx2 dot_f32_base
#define dot_u32_avx2 dot_u32_base
#define dot_f32_avx2_nz dot_f32_base_nz
#define dot_u32_avx2_nz dot_u32_base_nz
static bool dot_avx2(void) { return false; }
#endif

void dv_dot_f32(const float *a, const float *b, uint64_t m, uint64_t k, uint64_t np, float *acc)
{
    (dot_avx2() ? dot_f32_avx2 : dot_f32_base)(a, b, m, k, np, acc);
}

void dv_dot_u32(const uint32_t *a, const uint32_t *b, uint64_t m, uint64_t k, uint64_t np, uint32_t *acc)
{
    (dot_avx2() ? dot_u32_avx2 : dot_u32_base)(a, b, m, k, np, acc);
}

void dv_sem_dot_f32_nz(const float *a, const float *b, uint64_t m, uint64_t k, uint64_t nb, float *c, uint64_t cblock)
{
    (dot_avx2() ? dot_f32_avx2_nz : dot_f32_base_nz)(a, b, m, k, nb, c, cblock);
}

void dv_sem_dot_u32_nz(const uint32_t *a, const uint32_t *b, uint64_t m, uint64_t k, uint64_t nb, uint32_t *c,
                       uint64_t cblock)
{
    (dot_avx2() ? dot_u32_avx2_nz : dot_u32_base_nz)(a, b, m, k, nb, c, cblock);
}
