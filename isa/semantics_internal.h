/* isa/semantics_internal.h - what the pieces of the instruction semantics share, private to isa/:
 * number formats and element access (semantics_numbers.c), field access and the decoded geometry of
 * burst, vector and cube forms (semantics_geometry.c), vector execution (semantics_vector.c); the
 * rest of the execution and dv_exec are in semantics_exec.c.  The public face is dv/semantics.h;
 * docs/SEMANTICS.md is the contract. */
#ifndef DV_ISA_SEMANTICS_INTERNAL_H
#define DV_ISA_SEMANTICS_INTERNAL_H

/* fp32 results must be single IEEE operations (dv/fpexact.h).  Every semantics_*.c includes this
 * header first, so the rule holds in all of them. */
#include "dv/fpexact.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/semantics.h"

/* ---------------------------------------------------------------- numbers (semantics_numbers.c) */

/* A binary floating-point format: precision p (with the hidden bit), exponent range, field widths. */
typedef struct fpfmt {
    int p, emin, emax, ebits, mbits;
} fpfmt_t;
/* The format of a float dtype (fp16, bf16; anything else is fp32). */
const fpfmt_t *dv_sem_fmt_of(dv_dtype_t t);
/* Round x (any double, taken as exact) into format f with a ROUND mode; returns the bits.
 * r: nearest even, a: nearest ties away, f/c/z: directed (IEEE overflow rules). */
uint32_t dv_sem_fp_round(double x, const fpfmt_t *f, int mode);
/* Float value to an integer type: rounded with mode, saturated, NaN -> 0. */
int64_t dv_sem_fp_to_int(double x, int mode, dv_dtype_t t);
/* The bits of a trace scalar in dtype t: floats round to nearest even, integers truncate toward
 * zero and saturate. */
void dv_sem_scalar_bits(dv_dtype_t t, double d, uint8_t out[4]);

/* ---------------------------------------------------------------- elements
 * (inline: the execution loops call them per element) */

/* dv_f16_to_f32, inline for the loops of isa/ */
static inline float dv_sem_f16_to_f32(uint16_t h)
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

/* dv_f32_to_f16 (round to nearest even), inline for the loops of isa/ */
static inline uint16_t dv_sem_f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    const uint32_t ax = x & 0x7fffffffu;
    /* A normal result (2^-14 <= |f| < 65520): the exponent rebiased (- 112 << 23) and the 13 bits
     * below the half's mantissa rounded off, ties to the even one (+ 0xfff, + 1 when the kept last
     * bit is odd); a carry out of the mantissa steps the exponent. */
    if (ax - 0x38800000u < 0x477ff000u - 0x38800000u)
        return (uint16_t)(sign | (ax - 0x38000000u + 0xfffu + ((ax >> 13) & 1u)) >> 13);
    if (ax >= 0x7f800000u) /* inf stays inf; NaN stays a quiet NaN keeping the top payload bits */
        return (uint16_t)(sign | (ax > 0x7f800000u ? 0x7e00u | ((ax >> 13) & 0x3ffu) : 0x7c00u));
    if (ax >= 0x477ff000u) /* >= 65520 rounds to infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (ax <= 0x33000000u) /* <= 2^-25: rounds to zero */
        return sign;
    const uint32_t m = (ax & 0x7fffffu) | 0x800000u, shift = 126u - (ax >> 23);
    uint32_t h = m >> shift;
    const uint32_t rest = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
    if (rest > half || (rest == half && (h & 1u)))
        h++;
    return (uint16_t)(sign | h);
}

static inline float dv_sem_ld_f(dv_dtype_t t, const uint8_t *p)
{
    uint16_t h;
    float f;
    switch (t) {
    case DV_DT_F16: memcpy(&h, p, 2); return dv_sem_f16_to_f32(h);
    case DV_DT_BF16: memcpy(&h, p, 2); return dv_bf16_to_f32(h);
    default: memcpy(&f, p, 4); return f;
    }
}

/* dv_dot_f32 / dv_dot_u32 on the cube's fractal layouts (the same sums, bit for bit): B as nb blocks of
 * 16 columns, each k rows of 16 side by side (b + jb * k * 16, DV_DOT_ALIGN-aligned); the accumulators
 * as nb blocks of 16 columns, c + jb * cblock, whose m rows are 16 elements apart (an mmad's C in L0C:
 * read and written in place, any alignment). */
void dv_sem_dot_f32_nz(const float *a, const float *b, uint64_t m, uint64_t k, uint64_t nb, float *c, uint64_t cblock);
void dv_sem_dot_u32_nz(const uint32_t *a, const uint32_t *b, uint64_t m, uint64_t k, uint64_t nb, uint32_t *c,
                       uint64_t cblock);

/* n contiguous elements of float type t at p as floats at out[0], out[stride], ... */
void dv_sem_ld_f_row(dv_dtype_t t, const uint8_t *p, uint64_t n, float *out, uint64_t stride);

static inline void dv_sem_st_f(dv_dtype_t t, uint8_t *p, float f)
{
    uint16_t h;
    switch (t) {
    case DV_DT_F16: h = dv_sem_f32_to_f16(f); memcpy(p, &h, 2); break;
    case DV_DT_BF16: h = dv_f32_to_bf16(f); memcpy(p, &h, 2); break;
    default: memcpy(p, &f, 4); break;
    }
}

static inline int64_t dv_sem_ld_i(dv_dtype_t t, const uint8_t *p)
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
static inline void dv_sem_st_i(dv_dtype_t t, uint8_t *p, int64_t v)
{
    const uint32_t w = (uint32_t)(uint64_t)v;
    const uint16_t h = (uint16_t)w;
    switch (dv_dtype_size(t)) {
    case 1: p[0] = (uint8_t)w; break;
    case 2: memcpy(p, &h, 2); break;
    default: memcpy(p, &w, 4); break;
    }
}

/* ---------------------------------------------------------------- fields (semantics_geometry.c) */

/* The ranges of the fields table by global field id (enum dv_field_gid): constants where the id is
 * one, so FI's clamps fold to two compares. */
static const int64_t dv_sem_fmin_[DV_G_COUNT] = {
#define DV_FORM(form, desc) 0,
#define DV_FIELD(form, name, kind, space, min, max, def) (int64_t)(min),
#include "fields.def"
};
static const int64_t dv_sem_fmax_[DV_G_COUNT] = {
#define DV_FORM(form, desc) 0,
#define DV_FIELD(form, name, kind, space, min, max, def) (int64_t)(max),
#include "fields.def"
};
/* Integer field idx, whose global id is gid, clamped to its table range so no product below can
 * overflow. */
static inline uint64_t dv_sem_fint_gid(const dv_insn_t *in, int gid, int idx)
{
    int64_t v = in->f[idx].i;
    if (v < dv_sem_fmin_[gid])
        v = dv_sem_fmin_[gid];
    if (v > dv_sem_fmax_[gid])
        v = dv_sem_fmax_[gid];
    return (uint64_t)v;
}
#define FI(form, name) dv_sem_fint_gid(in, DV_G_##form##_##name, DV_FLD(form, name))
#define FA(form, name) (in->f[DV_FLD(form, name)].u)
#define FT(form, name) ((dv_dtype_t)in->f[DV_FLD(form, name)].i)

/* t is one of the instruction's dtypes. */
bool dv_sem_dtype_ok(const dv_op_spec_t *os, dv_dtype_t t);

/* ---------------------------------------------------------------- burst copies */

/* The burst geometry of the DMA, DMAPAD and DMAPADIN forms: burst b moves `len` bytes from src + b*src_stride
 * to dst + b*dst_stride.  DMA counts everything in 32 B blocks; DMAPAD counts len in bytes, and its
 * gaps in bytes on the GM side and in 32 B blocks on the UB side, whose bursts start 32 B aligned. */
typedef struct dma_geom {
    uint64_t dst, src; /* addresses */
    uint64_t nburst, len, dst_stride, src_stride;
    /* DMAPADIN: the data lands `pre` bytes into each destination burst; a padded copy writes `fill`
     * bytes of it (pads and fill in MOV_PAD_VAL's low `esize` bytes), an unpadded one (fill 0) just len */
    uint64_t pre, fill, esize;
} dma_geom_t;

/* The burst geometry of a DMA or DMAPAD form instruction; false for other forms. */
bool dv_sem_dma_geom(const dv_insn_t *in, const dv_op_spec_t *os, dma_geom_t *g);

/* ---------------------------------------------------------------- vector geometry */

/* Vector operand kinds: strided elements of the form's dtype (or of the vconv source type), a bit
 * mask chunk of E/8 bytes per repeat, a reduction result slot, the u32 byte offsets of a gather (one
 * per element, contiguous over the repeats), the source a gather reads where its offsets say, the
 * packed output of a vreducev2 (at most `span` bytes from its address). */
enum { K_ELEM, K_ELEM2, K_BITS, K_RED, K_IDX, K_GSRC, K_PACK };

typedef struct vop_i {
    uint64_t addr;     /* full address (space + offset) */
    uint32_t esize;    /* element bytes (0 for K_BITS) */
    uint32_t blk_bytes;
    uint64_t blk, rep; /* byte strides */
    uint64_t span;     /* K_GSRC: the bytes from addr the offsets may reach; K_PACK: the most written */
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

/* Decode a vector instruction; 1 = vector form, 0 = other form, -1 = bad dtype. */
int dv_sem_vinfo_build(const dv_insn_t *in, const dv_vstate_t *vs, vinfo_t *v);

/* vreducev2: whether element e of repeat r is kept (its pattern bit); ub NULL answers for the fixed
 * patterns only (a pattern tensor reads as all zero). */
bool dv_sem_vreducev2_keep(const dv_insn_t *in, const vinfo_t *v, const uint8_t *ub, uint64_t r, uint32_t e);
/* vreducev2: pack the kept elements at dst; returns their number. */
uint64_t dv_sem_vreducev2_run(const dv_insn_t *in, const vinfo_t *v, uint8_t *ub);

/* Source elements one result of a VREDUCE instruction reduces: a datablock (vcgadd, vcgmax, vcgmin),
 * a pair (vcpadd); 0 when one result covers the whole repeat (vcadd, vcmax, vcmin, vcadd_acc). */
static inline uint32_t dv_sem_red_group(uint32_t op, uint32_t epb)
{
    return op == DV_OP_vcgadd || op == DV_OP_vcgmax || op == DV_OP_vcgmin ? epb : op == DV_OP_vcpadd ? 2 : 0;
}

/* Byte offset (relative to the operand address) of element e of repeat r. */
static inline uint64_t dv_sem_vop_off(const vop_i_t *o, uint32_t epb, uint64_t r, uint32_t e)
{
    if ((epb & (epb - 1)) == 0) { /* 32 B blocks of 1, 2 or 4-byte elements: a shift, not a division */
        const unsigned sh = (unsigned)__builtin_ctz(epb);
        return r * o->rep + (uint64_t)(e >> sh) * o->blk + (uint64_t)(e & (epb - 1)) * o->esize;
    }
    return r * o->rep + (e / epb) * o->blk + (e % epb) * o->esize;
}

/* Output element type of a FIXPIPE form instruction. */
dv_dtype_t dv_sem_fix_out_type(const dv_insn_t *in);

/* The fixed-shape vector forms (vbrcb, vtranspose, vgatherb, vbitsort, vmrgsort4): no mask, one
 * operand layout each.  Fills g as dv_vec_geometry reports it and addr[k] with the full address of
 * memory operand k in field order (vbrcb, vtranspose: dst, src; vgatherb: dst, offset, src; vbitsort:
 * dst, src0, src1; vmrgsort4: dst, src0..src3); the geometry operands are the first g->nops of them,
 * the rest are read where the data or the lengths say; false for other forms and bad dtypes. */
#define DV_VFIXED_ADDRS 5
bool dv_sem_vfixed_geometry(const dv_insn_t *in, dv_vgeom_t *g, uint64_t addr[DV_VFIXED_ADDRS]);
/* Memory operands of a fixed-shape form (0 for other forms). */
int dv_sem_vfixed_naddr(dv_form_t form);

/* ---------------------------------------------------------------- footprints */

/* Layout sizes used by the cube forms. */
static inline uint64_t dv_sem_k0_of(dv_dtype_t t) { return 32 / dv_dtype_size(t); }

/* Input rows/columns of the img2col output geometry.  A C0 group is 32 bytes: C0 = 32 / esize
 * elements (16 for 16-bit types, 8 for 32-bit, 32 for 8-bit); K1 counts the C0 groups of k_ext. */
typedef struct i2c {
    uint64_t H, W, C1, kh, kw, sh, sw, pt, pl, dh, dw, Ho, Wo;
    uint64_t m0, mext, k0, kext, M1, K1, esize, C0;
    uint64_t padv;   /* the pad value's bits (esize bytes) */
    uint64_t bound;  /* L1 bytes past which reads wrap to L1's start (0: none) */
    bool trans, l0b; /* transposed fractals (TRANSPOSE, or always into L0B); into L0B */
} i2c_t;

/* Byte offset in the destination of im2col element (ml, kl) (local row and column). */
uint64_t dv_sem_i2c_dst_off(const i2c_t *g, uint64_t ml, uint64_t kl);

/* Bytes of the destination an img2col spans. */
uint64_t dv_sem_i2c_dst_bytes(const i2c_t *g);

/* Decode an IMG2COL form instruction. */
void dv_sem_i2c_get(const dv_insn_t *in, i2c_t *g);

/* ---------------------------------------------------------------- execution: vector (semantics_vector.c) */

/* Execute repeat r of a vector instruction on ub: every source element is read before any
 * destination element is written. */
void dv_sem_vec_repeat(const dv_insn_t *in, const vinfo_t *v, uint8_t *ub, uint64_t r);

/* The gathers (vgather with its decoded v, vgatherb) on ub: every offset the run uses is read first
 * and must point at a whole element (vgather) or datablock (vgatherb) inside the source's src_len
 * bytes, else DV_ERR_RANGE names the first that does not and nothing is written; then the repeats
 * run in order (so a dst that overlaps the offsets does not change the offsets used). */
int dv_sem_gather_run(const dv_insn_t *in, const vinfo_t *v, uint8_t *ub, dv_error_t *err);

/* vbitsort and vmrgsort4 on ub (their operands checked): docs/SEMANTICS.md 3.3; vmrgsort4 returns
 * DV_ERR_NOMEM when it cannot allocate a repeat's output. */
void dv_sem_vbitsort(const dv_insn_t *in, uint8_t *ub);
int dv_sem_vmrgsort(const dv_insn_t *in, uint8_t *ub, dv_error_t *err);
/* The records vmrgsort4 reads per repeat (the first LISTS lengths summed). */
uint64_t dv_sem_mrg_total(const dv_insn_t *in);

/* vcadd_acc: every repeat's selected elements summed in f32 (ascending e from +0.0, as vcadd), the
 * repeat sums added in repeat order in f32, the total rounded to the dtype once and written at dst.
 * Nothing is written when there are no repeats. */
void dv_sem_vcadd_acc(const dv_insn_t *in, const vinfo_t *v, uint8_t *ub);

#endif
