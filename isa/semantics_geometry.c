/* isa/semantics_geometry.c - which bytes each instruction touches: field access, burst copies,
 * vector geometry, footprints and transfer shapes.  docs/SEMANTICS.md is the contract. */
#include "semantics_internal.h"

#include <stddef.h>

/* ======================================================================== fields */

bool dv_sem_dtype_ok(const dv_op_spec_t *os, dv_dtype_t t)
{
    return (unsigned)t < DV_DT_COUNT && (os->dtypes == 0 || (os->dtypes & (1u << t)));
}

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

bool dv_sem_dma_geom(const dv_insn_t *in, const dv_op_spec_t *os, dma_geom_t *g)
{
    g->pre = 0;
    g->fill = 0;
    g->esize = 1;
    if (os->form == DV_FORM_DMA) {
        g->dst = FA(DMA, dst);
        g->src = FA(DMA, src);
        g->nburst = FI(DMA, nburst);
        g->len = FI(DMA, len) * 32;
        g->dst_stride = g->len + FI(DMA, dst_gap) * 32;
        g->src_stride = g->len + FI(DMA, src_gap) * 32;
        return true;
    }
    if (os->form == DV_FORM_DMAPADIN) {
        g->dst = FA(DMAPADIN, dst);
        g->src = FA(DMAPADIN, src);
        g->nburst = FI(DMAPADIN, nburst);
        g->len = FI(DMAPADIN, len);
        g->esize = FI(DMAPADIN, esize);
        g->pre = FI(DMAPADIN, lpad) * g->esize;
        const uint64_t post = FI(DMAPADIN, rpad) * g->esize;
        const uint64_t local = dv_ceil_div(g->pre + g->len + post, 32) * 32;
        if (g->pre || post)
            g->fill = local;
        g->dst_stride = local + FI(DMAPADIN, dst_gap) * 32;
        g->src_stride = g->len + FI(DMAPADIN, src_gap);
        return true;
    }
    if (os->form != DV_FORM_DMAPAD)
        return false;
    g->dst = FA(DMAPAD, dst);
    g->src = FA(DMAPAD, src);
    g->nburst = FI(DMAPAD, nburst);
    g->len = FI(DMAPAD, len);
    const uint64_t local = dv_ceil_div(g->len, 32) * 32;
    g->dst_stride = os->dst_space == DV_SPACE_GM ? g->len + FI(DMAPAD, dst_gap) : local + FI(DMAPAD, dst_gap) * 32;
    g->src_stride = os->src_space == DV_SPACE_GM ? g->len + FI(DMAPAD, src_gap) : local + FI(DMAPAD, src_gap) * 32;
    return true;
}

/* ======================================================================== vector geometry */

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
    [DV_FORM_VCMPS] = {DV_FLD(VCMPS, dtype), -1, DV_FLD(VCMPS, repeat), 2,
                       {VOP(VCMPS, dst, -1, -1, true, K_BITS), VOPS(VCMPS, src, false)}},
    [DV_FORM_VGATHER] = {DV_FLD(VGATHER, dtype), -1, DV_FLD(VGATHER, repeat), 3,
                         {VOP(VGATHER, dst, -1, DV_FLD(VGATHER, dst_rep), true, K_ELEM),
                          VOP(VGATHER, offset, -1, -1, false, K_IDX), VOP(VGATHER, src, -1, -1, false, K_GSRC)}},
    [DV_FORM_VREDUCEV2] = {DV_FLD(VREDUCEV2, dtype), -1, DV_FLD(VREDUCEV2, repeat), 3,
                           {VOP(VREDUCEV2, dst, -1, -1, true, K_PACK),
                            VOP(VREDUCEV2, src0, DV_FLD(VREDUCEV2, src0_blk), DV_FLD(VREDUCEV2, src0_rep), false, K_ELEM),
                            VOP(VREDUCEV2, src1, -1, -1, false, K_BITS)}},
    [DV_FORM_VSEL] = {DV_FLD(VSEL, dtype), -1, DV_FLD(VSEL, repeat), 4,
                      {VOPS(VSEL, dst, true), VOPS(VSEL, src0, false), VOPS(VSEL, src1, false),
                       VOP(VSEL, sel, -1, -1, false, K_BITS)}},
};

/* The global id (enum dv_field_gid) of each form's first field: a field index of a vforms row, known
 * only at run time, clamps through dv_sem_fint_gid without the form table. */
static const int form_gid0[DV_FORM_COUNT] = {
#define DV_FORM(form, desc) DV_G_FORMSTART_##form + 1,
#include "fields.def"
};
#define FI_AT(form, idx) dv_sem_fint_gid(in, form_gid0[form] + (idx), (idx))

/* dv_dtype_size for a dtype known to be valid, from the table, inline */
static const uint8_t dtype_bytes[DV_DT_COUNT] = {
#define DV_DTYPE(id, name, bytes, is_float, desc) bytes,
#include "isa.def"
};

/* Elements of a 256-byte repeat (256 / dtype_bytes), for a valid dtype */
static const uint16_t dtype_per_repeat[DV_DT_COUNT] = {
#define DV_DTYPE(id, name, bytes, is_float, desc) 256 / (bytes),
#include "isa.def"
};

/* Largest count-mode element count honoured (keeps every byte offset far below 2^64). */
#define DV_COUNT_MAX 0xFFFFFFFFull

static int lowest_bit(uint64_t lo, uint64_t hi) { return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(hi); }
static int highest_bit(uint64_t lo, uint64_t hi) { return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(lo); }

/* dv_sem_vinfo_build of a vector form (os's form is `form`).  Inlined where form is a constant: its
 * vforms row, the kinds of its operands and its fields' ranges fold, so the common forms' decode is
 * straight-line code (vinfo_build, dv_vec_footprint). */
static inline __attribute__((always_inline)) int vinfo_form(const dv_insn_t *in, const dv_op_spec_t *os, dv_form_t form,
                                                            const dv_vstate_t *vs, vinfo_t *v)
{
    const vform_t *vf = &vforms[form];
    v->form = form;
    v->t = (dv_dtype_t)in->f[vf->dtype].i;
    v->t2 = vf->dtype2 >= 0 ? (dv_dtype_t)in->f[vf->dtype2].i : v->t;
    if (vf->dtype2 >= 0 ? !dv_conv_allowed(v->t2, v->t) : !dv_sem_dtype_ok(os, v->t))
        return -1;
    const uint32_t s1 = dtype_bytes[v->t], s2 = dtype_bytes[v->t2], smax = s1 > s2 ? s1 : s2; /* valid: checked above */
    v->E = 256 / smax;
    v->epb = v->E / 8;
    v->count = vs && vs->count_mode;
    v->mlo = vs ? vs->lo : ~0ull;
    v->mhi = vs ? vs->hi : ~0ull;
    if (v->count) {
        v->N = v->mlo > DV_COUNT_MAX ? DV_COUNT_MAX : v->mlo;
        v->R = dv_ceil_div(v->N, v->E);
        v->any = v->N > 0;
        v->elo = 0;
        v->ehi = v->E - 1;
        v->ehi_last = v->R ? (uint32_t)(v->N - (v->R - 1) * v->E - 1) : 0;
    } else {
        v->N = 0;
        v->R = FI_AT(form, vf->repeat);
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
    if (v->form == DV_FORM_VREDUCEV2) { /* REPEAT repeats of E elements (normal mode: the mask does not apply)
                                          * or of the mask's count (count mode, as CANN's dav-2201 samples use it) */
        const uint64_t per = v->count ? v->N : v->E;
        v->R = FI(VREDUCEV2, repeat);
        v->any = v->R > 0 && per > 0;
        v->elo = 0;
        v->ehi = v->ehi_last = per ? (uint32_t)(per - 1) : 0;
    }
    v->nops = vf->nops;
    if (v->form == DV_FORM_VREDUCEV2 && FI(VREDUCEV2, pattern)) /* a fixed pattern: src1 is not read */
        v->nops = 2;
#pragma GCC unroll 4
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
            o->blk = (vf->op[k].blk < 0 ? 1 : FI_AT(form, vf->op[k].blk)) * o->blk_bytes;
            o->rep = FI_AT(form, vf->op[k].rep) * 32;
            break;
        case K_IDX: /* one u32 per element, repeat after repeat */
            o->esize = 4;
            o->blk_bytes = o->blk = v->epb * 4;
            o->rep = (uint64_t)v->E * 4;
            break;
        case K_GSRC: /* no geometry: reads anywhere in [0, src_len) as the offsets say */
            o->esize = s1;
            o->blk_bytes = s1;
            o->blk = o->rep = 0;
            o->span = FI(VGATHER, src_len);
            break;
        case K_BITS: /* vsel with sel_step 0 reads the same chunk every repeat */
            o->esize = 0;
            o->blk_bytes = v->E / 8;
            o->blk = 0;
            o->rep = form == DV_FORM_VSEL && !o->write && !FI(VSEL, sel_step) ? 0 : v->E / 8;
            if (form == DV_FORM_VREDUCEV2) { /* a bit per element of a repeat */
                o->blk_bytes = v->ehi / 8 + 1;
                o->rep = FI(VREDUCEV2, src1_rep) * 32;
            }
            break;
        case K_PACK: /* kept elements packed one after the other: at most every element */
            o->esize = s1;
            o->blk_bytes = v->epb * s1;
            o->blk = o->blk_bytes;
            o->rep = (uint64_t)v->E * s1;
            o->span = v->any ? v->R * (v->ehi + 1) * s1 : 0;
            break;
        default: { /* K_RED: vcadd writes one element per repeat, vcmax/vcmin a (value, index) pair
                    * (in ORDER; one element when ORDER keeps only one of them),
                    * vcadd_acc one element in all (its dst_rep is ignored); the group reductions one
                    * element per group, contiguous: blocks of the results of one source datablock */
            const uint32_t g = dv_sem_red_group(in->op, v->epb);
            o->esize = s1;
            if (g) {
                o->blk_bytes = v->epb / g * s1;
                o->blk = o->blk_bytes;
                o->rep = FI_AT(form, vf->op[k].rep) * 8 * o->blk_bytes;
                break;
            }
            const bool pair = (in->op == DV_OP_vcmax || in->op == DV_OP_vcmin) && FI(VREDUCE, order) < 2;
            o->blk_bytes = (pair ? 2 : 1) * s1;
            o->blk = 0;
            o->rep = in->op == DV_OP_vcadd_acc ? 0 : FI_AT(form, vf->op[k].rep) * o->blk_bytes;
            break;
        }
        }
    }
    return 1;
}

int dv_sem_vinfo_build(const dv_insn_t *in, const dv_vstate_t *vs, vinfo_t *v)
{
    const dv_op_spec_t *os = dv_op_spec((dv_op_t)in->op);
    if (!os || !vforms[os->form].nops)
        return 0;
    return vinfo_form(in, os, os->form, vs, v);
}

/* Bounding range of one operand; false when it touches nothing. */
static inline __attribute__((always_inline)) bool vop_range(const vinfo_t *v, const vop_i_t *o, uint64_t *lo, uint64_t *hi)
{
    if (v->R == 0)
        return false;
    if (o->kind == K_GSRC || o->kind == K_PACK) {
        if (!v->any || o->span == 0)
            return false;
        *lo = 0;
        *hi = o->span;
        return true;
    }
    if (o->kind == K_RED && o->blk) { /* group results: the result of element e is at r*rep + (e / group)*esize */
        if (!v->any)
            return false;
        const uint32_t per = o->blk_bytes / o->esize, g = v->epb / per;
        *lo = (v->elo / g) * o->esize;
        *hi = (v->R - 1) * o->rep + (v->ehi_last / g + 1) * o->esize;
        if (v->R >= 2) {
            const uint64_t h = (v->R - 2) * o->rep + (v->ehi / g + 1) * o->esize;
            if (h > *hi)
                *hi = h;
        }
        return true;
    }
    if (o->kind == K_BITS || o->kind == K_RED) {
        *lo = 0;
        *hi = (v->R - 1) * o->rep + o->blk_bytes;
        return true;
    }
    if (!v->any)
        return false;
    if (o->blk >= o->blk_bytes) { /* element offsets grow with e: the first and last selected bound it */
        *lo = dv_sem_vop_off(o, v->epb, 0, v->elo);
        *hi = dv_sem_vop_off(o, v->epb, v->R - 1, v->ehi_last) + o->esize;
        if (v->R >= 2 && v->ehi != v->ehi_last) { /* the same last element one repeat lower is lower */
            const uint64_t h = dv_sem_vop_off(o, v->epb, v->R - 2, v->ehi) + o->esize;
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
    vs->atomic = DV_ATOMIC_NONE;
    vs->atomic_dtype = 0;
    vs->pad_val = 0;
}

/* Output element type and size of a FIXPIPE form instruction. */
dv_dtype_t dv_sem_fix_out_type(const dv_insn_t *in)
{
    const uint64_t q = FI(FIXPIPE, quant);
    return q == DV_QUANT_F16 ? DV_DT_F16 : q == DV_QUANT_BF16 ? DV_DT_BF16 : DV_DT_F32;
}

int dv_sem_vfixed_naddr(dv_form_t form)
{
    switch (form) {
    case DV_FORM_VBRCB:
    case DV_FORM_VTRANSPOSE: return 2;
    case DV_FORM_VGATHERB:
    case DV_FORM_VBITSORT: return 3;
    case DV_FORM_VMRGSORT: return 5;
    default: return 0;
    }
}

uint64_t dv_sem_mrg_total(const dv_insn_t *in)
{
    const uint64_t lists = FI(VMRGSORT, lists);
    return FI(VMRGSORT, len0) + FI(VMRGSORT, len1) + (lists > 2 ? FI(VMRGSORT, len2) : 0) +
           (lists > 3 ? FI(VMRGSORT, len3) : 0);
}

bool dv_sem_vfixed_geometry(const dv_insn_t *in, dv_vgeom_t *g, uint64_t addr[DV_VFIXED_ADDRS])
{
    const dv_op_spec_t *os = dv_op_spec((dv_op_t)in->op);
    if (!os)
        return false;
    switch (os->form) {
    case DV_FORM_VBRCB: {
        const dv_dtype_t t = FT(VBRCB, dtype);
        if (!dv_sem_dtype_ok(os, t))
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
        if (!dv_sem_dtype_ok(os, FT(VTRANSPOSE, dtype)))
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
    case DV_FORM_VGATHERB: {
        const dv_dtype_t t = FT(VGATHERB, dtype);
        if (!dv_sem_dtype_ok(os, t))
            return false;
        const uint64_t s = dv_dtype_size(t), R = FI(VGATHERB, repeat);
        addr[0] = FA(VGATHERB, dst);
        addr[1] = FA(VGATHERB, offset);
        addr[2] = FA(VGATHERB, src);
        g->repeats = (uint32_t)R;
        g->elems_per_repeat = (uint32_t)(256 / s);
        g->elems = R * (256 / s);
        /* dst: 8 datablocks per repeat; the offsets: 8 u32 per repeat, contiguous, reported as an index
         * stream (4-byte chunks, block stride 0), which a bank model does not count */
        g->ops[0] = (dv_vop_t){DV_ADDR_OFF(addr[0]), 32, FI(VGATHERB, dst_blk) * 32, FI(VGATHERB, dst_rep) * 32, true};
        g->ops[1] = (dv_vop_t){DV_ADDR_OFF(addr[1]), 4, 0, 32, false};
        break;
    }
    case DV_FORM_VBITSORT: {
        const dv_dtype_t t = FT(VBITSORT, dtype);
        if (!dv_sem_dtype_ok(os, t))
            return false;
        const uint64_t R = FI(VBITSORT, repeat);
        addr[0] = FA(VBITSORT, dst);
        addr[1] = FA(VBITSORT, src0);
        addr[2] = FA(VBITSORT, src1);
        g->repeats = (uint32_t)R;
        g->elems_per_repeat = 32;
        g->elems = 32 * R;
        /* dst: 256 bytes of records per repeat; the scores a stream read in order, not counted for banks */
        g->ops[0] = (dv_vop_t){DV_ADDR_OFF(addr[0]), 32, 32, 256, true};
        g->ops[1] = (dv_vop_t){DV_ADDR_OFF(addr[1]), 4, 0, 32 * dv_dtype_size(t), false};
        break;
    }
    case DV_FORM_VMRGSORT: {
        if (!dv_sem_dtype_ok(os, FT(VMRGSORT, dtype)))
            return false;
        const uint64_t R = FI(VMRGSORT, repeat), T = dv_sem_mrg_total(in);
        addr[0] = FA(VMRGSORT, dst);
        addr[1] = FA(VMRGSORT, src0);
        addr[2] = FA(VMRGSORT, src1);
        addr[3] = FA(VMRGSORT, src2);
        addr[4] = FA(VMRGSORT, src3);
        /* timed as the records written, 32 (256 bytes) per repeat of the timing model */
        g->repeats = (uint32_t)dv_ceil_div(R * T * 8, 256);
        g->elems_per_repeat = 32;
        g->elems = R * T;
        g->ops[0] = (dv_vop_t){DV_ADDR_OFF(addr[0]), 32, 32, 256, true};
        g->ops[1] = (dv_vop_t){DV_ADDR_OFF(addr[1]), 4, 0, 256, false};
        break;
    }
    default:
        return false;
    }
    g->nops = 2;
    return true;
}

/* A geometry of no operands and no elements (what a bad or address-less instruction has). */
static inline void vgeom_none(dv_vgeom_t *g)
{
    g->nops = 0;
    g->repeats = 0;
    g->elems_per_repeat = 0;
    g->elems = 0;
}

/* dv_vec_geometry of a strided vector form, from its decoded v */
static inline __attribute__((always_inline)) int vgeom_of(const vinfo_t *v, dv_vgeom_t *g)
{
    g->repeats = v->R > UINT32_MAX ? UINT32_MAX : (uint32_t)v->R;
    g->elems_per_repeat = v->E;
    if (v->count) {
        g->elems = v->N;
    } else {
        uint64_t bits = dv_popcount64(v->mlo) + (v->E == 64 ? 0 : dv_popcount64(v->mhi));
        g->elems = (v->E == 256 ? 2 * bits : bits) * v->R;
    }
    g->nops = v->nops;
    for (int i = 0; i < v->nops; i++) {
        const bool idx = v->op[i].kind == K_IDX; /* an index stream: 4-byte chunks, block stride 0 */
        g->ops[i].base = DV_ADDR_OFF(v->op[i].addr);
        g->ops[i].blk_bytes = idx ? 4 : v->op[i].blk_bytes;
        g->ops[i].blk_stride = idx ? 0 : v->op[i].blk;
        g->ops[i].rep_stride = v->op[i].rep;
        g->ops[i].write = v->op[i].write;
    }
    return v->nops;
}

int dv_vec_geometry(const dv_insn_t *in, const dv_vstate_t *vs, dv_vgeom_t *g)
{
    vinfo_t v;
    uint64_t addr[DV_VFIXED_ADDRS];
    const int k = dv_sem_vinfo_build(in, vs, &v);
    if (k > 0)
        return vgeom_of(&v, g);
    vgeom_none(g);
    if (k == 0 && dv_sem_vfixed_geometry(in, g, addr))
        return g->nops;
    if (k == 0 && in->op == DV_OP_copy_matrix_cc_to_ubuf) { /* 64 f32 accumulators per repeat */
        const uint64_t n = FI(FIXPIPE, m_size) * FI(FIXPIPE, n_size);
        g->repeats = (uint32_t)dv_ceil_div(n * 4, 256);
        g->elems_per_repeat = 64;
        g->elems = n;
        return 0;
    }
    if (k == 0 && in->op == DV_OP_copy_ubuf_to_ubuf) { /* timed as a copy of its bytes, 256 B per repeat */
        const uint64_t bytes = FI(DMA, nburst) * FI(DMA, len) * 32;
        g->repeats = (uint32_t)dv_ceil_div(bytes, 256);
        g->elems_per_repeat = 256;
        g->elems = bytes;
        return 0;
    }
    return -1;
}

/* ======================================================================== footprints */

void dv_sem_i2c_get(const dv_insn_t *in, i2c_t *g)
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
    const dv_dtype_t t = FT(IMG2COL, dtype);
    g->esize = t < DV_DT_COUNT ? dv_dtype_size(t) : 2;
    g->C0 = 32 / g->esize;
    g->M1 = dv_ceil_div(g->mext, 16);
    g->K1 = dv_ceil_div(g->kext, g->C0);
    g->padv = FI(IMG2COL, pad_value);
    g->bound = FI(IMG2COL, boundary);
    g->l0b = dv_op_spec((dv_op_t)in->op)->dst_space == DV_SPACE_L0B;
    g->trans = g->l0b || FI(IMG2COL, transpose);
}

/* ZZ: fractals (row block of 16, C0 group), rows of C0 elements.  Transposed: fractals of 16
 * columns x C0 rows, each stored column by column (element (r, c) at (c % 16) * C0 + r % C0);
 * into L0A the fractals go column block by column block (the matrix transposed), into L0B row group
 * by row group (ZN, as mmad reads B).  The rows are padded to 16 and the columns to 16. */
uint64_t dv_sem_i2c_dst_off(const i2c_t *g, uint64_t ml, uint64_t kl)
{
    const uint64_t C0 = g->C0, e = g->esize;
    if (!g->trans)
        return ((ml / 16) * g->K1 + kl / C0) * 512 + ((ml % 16) * C0 + kl % C0) * e;
    const uint64_t in = ((kl % 16) * C0 + ml % C0) * e;
    if (g->l0b)
        return ((ml / C0) * dv_ceil_div(g->kext, 16) + kl / 16) * 512 + in;
    return ((kl / 16) * (g->M1 * 16 / C0) + ml / C0) * 512 + in;
}

uint64_t dv_sem_i2c_dst_bytes(const i2c_t *g)
{
    /* the last row's last column is the highest element written in every layout */
    return dv_sem_i2c_dst_off(g, g->M1 * 16 - 1, g->K1 * g->C0 - 1) + g->esize;
}

/* Bounding range of the feature-map bytes an img2col reads; false when it reads none. */
static bool i2c_src_range(const i2c_t *g, uint64_t *lo, uint64_t *hi)
{
    const uint64_t mend = dv_min_u64(g->m0 + g->mext, g->Ho * g->Wo);
    const uint64_t kblocks = g->C1 * g->kh * g->kw, kb0 = g->k0 / g->C0;
    const uint64_t kb1 = dv_min_u64(dv_ceil_div(g->k0 + g->kext, g->C0), kblocks);
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

/* dv_footprint of a strided vector form, from its decoded v */
static inline __attribute__((always_inline)) int vfootprint_of(const vinfo_t *v, dv_range_t out[DV_MAX_RANGES])
{
    int n = 0;
    uint64_t lo, hi;
#pragma GCC unroll 4
    for (int k = 0; k < v->nops; k++)
        if (vop_range(v, &v->op[k], &lo, &hi))
            range_set(&out[n++], v->op[k].addr, lo, hi, v->op[k].write);
    return n;
}

/* Field idx of form is inside its table range: FI_AT would read it unchanged. */
#define FIN_AT(form, idx) \
    ((uint64_t)in->f[idx].i - (uint64_t)dv_sem_fmin_[form_gid0[form] + (idx)] <= \
     (uint64_t)dv_sem_fmax_[form_gid0[form] + (idx)] - (uint64_t)dv_sem_fmin_[form_gid0[form] + (idx)])

/* range_set's three header fields in one store (the hot transfers' ranges): a GM address's bits 63..40
 * are its space (0) and argument, so its argument is those bits. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
_Static_assert(DV_SPACE_GM == 0 && offsetof(dv_range_t, space) == 0 && offsetof(dv_range_t, write) == 1 &&
                   offsetof(dv_range_t, arg) == 2,
               "range_put packs space, write and arg into the range's first 4 bytes");
static inline __attribute__((always_inline)) void range_put(dv_range_t *r, uint64_t addr, uint64_t lo, uint64_t hi,
                                                            bool write)
{
    const uint32_t s = (uint32_t)(addr >> 56);
    const uint32_t head = s | (uint32_t)write << 8 | (s == DV_SPACE_GM ? (uint32_t)(addr >> 40) << 16 : 0);
    memcpy(r, &head, sizeof head);
    r->lo = DV_ADDR_OFF(addr) + lo;
    r->hi = DV_ADDR_OFF(addr) + hi;
}
#else
#define range_put range_set
#endif

/* dv_footprint's ranges (and with g, dv_vec_geometry's g) of a strided form whose operands are all
 * elements of its one dtype (VBIN, VUNARY, VSCALAR, VDUP: vinfo_form's K_ELEM case only), in the
 * common case: normal mode with every mask bit set, a valid dtype, and its repeat, block and
 * repeat-stride fields inside their table ranges.  There every repeat selects all E elements, a
 * datablock is 32 bytes (E / 8 elements of 256 / E bytes), and an operand spans
 * [0, (R - 1) * rep + 7 * blk + 32) from its address (vop_range's bound with elo = 0, ehi = E - 1,
 * which is also its bound for a block stride below 32); elems = E * R.  Returns the range count, or
 * -1 (nothing written) when the case does not apply. */
static inline __attribute__((always_inline)) int vec_full_form(const dv_insn_t *in, const dv_op_spec_t *os, dv_form_t form,
                                                               const dv_vstate_t *vs, dv_range_t out[DV_MAX_RANGES],
                                                               dv_vgeom_t *g)
{
    const vform_t *vf = &vforms[form];
    if (!vs || vs->count_mode || (vs->lo & vs->hi) != ~0ull)
        return -1;
    bool in_range = FIN_AT(form, vf->repeat);
#pragma GCC unroll 4
    for (int k = 0; k < vf->nops; k++)
        in_range &= FIN_AT(form, vf->op[k].blk) & FIN_AT(form, vf->op[k].rep);
    const dv_dtype_t t = (dv_dtype_t)in->f[vf->dtype].i;
    if (!in_range || !dv_sem_dtype_ok(os, t))
        return -1;
    const uint64_t R = (uint64_t)in->f[vf->repeat].i, E = dtype_per_repeat[t];
    if (g) {
        g->repeats = (uint32_t)R;
        g->elems_per_repeat = (uint32_t)E;
        g->elems = E * R;
        g->nops = vf->nops;
    }
#pragma GCC unroll 4
    for (int k = 0; k < vf->nops; k++) {
        const uint64_t addr = in->f[vf->op[k].addr].u;
        const uint64_t blk = (uint64_t)in->f[vf->op[k].blk].i * 32, rep = (uint64_t)in->f[vf->op[k].rep].i * 32;
        if (g)
            g->ops[k] = (dv_vop_t){DV_ADDR_OFF(addr), 32, blk, rep, vf->op[k].write};
        if (R)
            range_put(&out[k], addr, 0, (R - 1) * rep + 7 * blk + 32, vf->op[k].write);
    }
    return R ? vf->nops : 0;
}

/* dv_footprint of an instruction whose form has address fields. */
static __attribute__((noinline)) int footprint(const dv_insn_t *in, const dv_op_spec_t *os, const dv_vstate_t *vs,
                                               dv_range_t out[DV_MAX_RANGES])
{
    int n = 0;
    uint64_t lo, hi;
    dma_geom_t dg;
    if (dv_sem_dma_geom(in, os, &dg)) {
        range_set(&out[n++], dg.dst, 0, (dg.nburst - 1) * dg.dst_stride + (dg.fill ? dg.fill : dg.pre + dg.len), true);
        range_set(&out[n++], dg.src, 0, (dg.nburst - 1) * dg.src_stride + dg.len, false);
        return n;
    }
    switch (os->form) {
    case DV_FORM_ND2NZ: {
        const dv_dtype_t t = FT(ND2NZ, dtype);
        if (!dv_sem_dtype_ok(os, t))
            return 0;
        const uint64_t sz = dv_dtype_size(t), c1 = dv_ceil_div(FI(ND2NZ, d_value), 32 / sz);
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
    case DV_FORM_LOAD2DT: {
        const uint64_t rep = FI(LOAD2DT, repeat), base = FI(LOAD2DT, base_idx);
        const uint64_t nf = dv_dtype_size(FT(LOAD2DT, dtype)) == 2 ? 1 : 2;
        range_set(&out[n++], FA(LOAD2DT, dst), 0,
                  ((rep - 1) * (FI(LOAD2DT, dst_gap) + 1) + (nf - 1) * (FI(LOAD2DT, dst_frac_gap) + 1) + 1) * 512, true);
        range_set(&out[n++], FA(LOAD2DT, src), base * nf * 512,
                  (base + (rep - 1) * FI(LOAD2DT, src_stride) + 1) * nf * 512, false);
        return n;
    }
    case DV_FORM_FILL: {
        const uint64_t rep = FI(FILL, rows), bl = FI(FILL, blocks);
        range_set(&out[n++], FA(FILL, dst), 0, ((rep - 1) * (bl + FI(FILL, dst_gap)) + bl) * 512, true);
        return n;
    }
    case DV_FORM_IMG2COL: {
        i2c_t g;
        dv_sem_i2c_get(in, &g);
        range_set(&out[n++], FA(IMG2COL, dst), 0, dv_sem_i2c_dst_bytes(&g), true);
        if (i2c_src_range(&g, &lo, &hi)) {
            const uint64_t s0 = DV_ADDR_OFF(FA(IMG2COL, src));
            if (g.bound && s0 + hi > g.bound) /* some reads wrap: all of them land below the boundary */
                range_set(&out[n++], FA(IMG2COL, src) - s0, 0, g.bound, false);
            else
                range_set(&out[n++], FA(IMG2COL, src), lo, hi, false);
        }
        return n;
    }
    case DV_FORM_MMAD:
    case DV_FORM_MMADB: { /* MMADB: MMAD's fields at the same positions (semantics_exec.c), and the bias */
        const dv_dtype_t t = FT(MMAD, dtype);
        if (!dv_sem_dtype_ok(os, t))
            return 0;
        const uint64_t m = FI(MMAD, m), k = FI(MMAD, k), nn = FI(MMAD, n), sz = dv_dtype_size(t), K0 = dv_sem_k0_of(t);
        const uint64_t M1 = dv_ceil_div(m, 16), K1 = dv_ceil_div(k, K0), N1 = dv_ceil_div(nn, 16);
        const uint64_t chi = (N1 * M1 - 1) * 1024 + (((m - 1) % 16) * 16 + (nn - 1) % 16) * 4 + 4;
        range_set(&out[n++], FA(MMAD, c), 0, chi, true);
        if (os->form == DV_FORM_MMADB)
            range_set(&out[n++], FA(MMADB, bias), 0, nn * 4, false);
        else if (!FI(MMAD, init))
            range_set(&out[n++], FA(MMAD, c), 0, chi, false);
        /* GEMV (m = 1 with gemv): A is k contiguous elements */
        const bool gemv = os->form == DV_FORM_MMAD && m == 1 && FI(MMAD, gemv);
        range_set(&out[n++], FA(MMAD, a), 0,
                  gemv ? k * sz : (M1 * K1 - 1) * 512 + (((m - 1) % 16) * K0 + (k - 1) % K0) * sz + sz, false);
        range_set(&out[n++], FA(MMAD, b), 0, (K1 * N1 - 1) * 512 + (((nn - 1) % 16) * K0 + (k - 1) % K0) * sz + sz, false);
        return n;
    }
    case DV_FORM_FIXPIPE: {
        const uint64_t ms = FI(FIXPIPE, m_size), ns = FI(FIXPIPE, n_size), N1 = dv_ceil_div(ns, 16);
        const uint64_t osz = dv_dtype_size(dv_sem_fix_out_type(in)), ds = FI(FIXPIPE, dst_stride);
        if (FI(FIXPIPE, nz2nd))
            hi = ((ms - 1) * ds + ns) * osz;
        else
            hi = (((N1 - 1) * ds + ms - 1) * 16 + (ns - 1) % 16 + 1) * osz;
        range_set(&out[n++], FA(FIXPIPE, dst), 0, hi, true);
        range_set(&out[n++], FA(FIXPIPE, src), 0,
                  (((N1 - 1) * FI(FIXPIPE, src_stride) + ms - 1) * 16 + (ns - 1) % 16 + 1) * 4, false);
        return n;
    }
    case DV_FORM_SLD:
        range_set(&out[n++], FA(SLD, src), 0, dv_dtype_size(FT(SLD, dtype)), false);
        return n;
    case DV_FORM_SST:
        range_set(&out[n++], FA(SST, dst), 0, dv_dtype_size(FT(SST, dtype)), true);
        return n;
    case DV_FORM_VBITSORT: {
        const dv_dtype_t t = FT(VBITSORT, dtype);
        const uint64_t R = FI(VBITSORT, repeat);
        if (!dv_sem_dtype_ok(os, t) || R == 0)
            return 0;
        range_set(&out[n++], FA(VBITSORT, dst), 0, R * 256, true);
        range_set(&out[n++], FA(VBITSORT, src0), 0, R * 32 * dv_dtype_size(t), false);
        range_set(&out[n++], FA(VBITSORT, src1), 0, R * 128, false);
        return n;
    }
    case DV_FORM_VMRGSORT: { /* with four lists the last two share one bounding range (DV_MAX_RANGES) */
        const uint64_t R = FI(VMRGSORT, repeat), T = dv_sem_mrg_total(in), lists = FI(VMRGSORT, lists);
        if (!dv_sem_dtype_ok(os, FT(VMRGSORT, dtype)) || R == 0 || T == 0)
            return 0;
        range_set(&out[n++], FA(VMRGSORT, dst), 0, R * T * 8, true);
        const uint64_t a[4] = {FA(VMRGSORT, src0), FA(VMRGSORT, src1), FA(VMRGSORT, src2), FA(VMRGSORT, src3)};
        const uint64_t len[4] = {FI(VMRGSORT, len0), FI(VMRGSORT, len1), FI(VMRGSORT, len2), FI(VMRGSORT, len3)};
        for (uint64_t i = 0; i < lists; i++) {
            if (!len[i])
                continue;
            const uint64_t lo = DV_ADDR_OFF(a[i]), hi = lo + (R - 1) * T * 8 + len[i] * 8;
            if (n == DV_MAX_RANGES) { /* widen the last range to cover this list too */
                dv_range_t *last = &out[n - 1];
                last->lo = lo < last->lo ? lo : last->lo;
                last->hi = hi > last->hi ? hi : last->hi;
                continue;
            }
            range_set(&out[n++], a[i], 0, hi - lo, false);
        }
        return n;
    }
    case DV_FORM_VBRCB:
    case DV_FORM_VTRANSPOSE:
    case DV_FORM_VGATHERB: {
        dv_vgeom_t g;
        uint64_t addr[DV_VFIXED_ADDRS];
        if (!dv_sem_vfixed_geometry(in, &g, addr) || g.repeats == 0)
            return 0;
        for (int k = 0; k < g.nops; k++) {
            const dv_vop_t *o = &g.ops[k];
            range_set(&out[n++], addr[k], 0, (g.repeats - 1) * o->rep_stride + 7 * o->blk_stride + o->blk_bytes, o->write);
        }
        if (os->form == DV_FORM_VGATHERB) { /* all 8 offsets of every repeat; the source where they point */
            out[1].hi = out[1].lo + (uint64_t)g.repeats * 32;
            range_set(&out[n++], addr[2], 0, FI(VGATHERB, src_len), false);
        }
        return n;
    }
    default:
        break;
    }
    vinfo_t v;
    if (dv_sem_vinfo_build(in, vs, &v) <= 0)
        return 0;
    return vfootprint_of(&v, out);
}

/* dv_footprint of the element-strided forms: their full-mask closed form, else footprint(). */
static __attribute__((noinline)) int vec_footprint_full(const dv_insn_t *in, const dv_op_spec_t *os, const dv_vstate_t *vs,
                                                        dv_range_t out[DV_MAX_RANGES])
{
    int n = -1;
    switch (os->form) {
    case DV_FORM_VBIN: n = vec_full_form(in, os, DV_FORM_VBIN, vs, out, NULL); break;
    case DV_FORM_VUNARY: n = vec_full_form(in, os, DV_FORM_VUNARY, vs, out, NULL); break;
    case DV_FORM_VSCALAR: n = vec_full_form(in, os, DV_FORM_VSCALAR, vs, out, NULL); break;
    case DV_FORM_VDUP: n = vec_full_form(in, os, DV_FORM_VDUP, vs, out, NULL); break;
    default: break;
    }
    return n >= 0 ? n : footprint(in, os, vs, out);
}

#define FIN(form, name) FIN_AT(DV_FORM_##form, DV_FLD(form, name))

/* dv_footprint of a DMA form instruction: dv_sem_dma_geom's DMA case (no pads), else footprint(). */
static __attribute__((noinline)) int dma_footprint(const dv_insn_t *in, const dv_op_spec_t *os, const dv_vstate_t *vs,
                                                   dv_range_t out[DV_MAX_RANGES])
{
    if (!(FIN(DMA, nburst) & FIN(DMA, len) & FIN(DMA, dst_gap) & FIN(DMA, src_gap)))
        return footprint(in, os, vs, out);
    const uint64_t nb1 = FA(DMA, nburst) - 1, len = FA(DMA, len) * 32;
    range_set(&out[0], FA(DMA, dst), 0, nb1 * (len + FA(DMA, dst_gap) * 32) + len, true);
    range_set(&out[1], FA(DMA, src), 0, nb1 * (len + FA(DMA, src_gap) * 32) + len, false);
    return 2;
}

/* dv_footprint of an MMAD form instruction: footprint()'s case with its sizes as shifts (K0 = 32 /
 * size is 8, 16 or 32 for a valid dtype), else footprint(). */
static __attribute__((noinline)) int mmad_footprint(const dv_insn_t *in, const dv_op_spec_t *os, const dv_vstate_t *vs,
                                                    dv_range_t out[DV_MAX_RANGES])
{
    const dv_dtype_t t = FT(MMAD, dtype);
    if (!(FIN(MMAD, m) & FIN(MMAD, k) & FIN(MMAD, n) & FIN(MMAD, init) & FIN(MMAD, gemv)) || !dv_sem_dtype_ok(os, t))
        return footprint(in, os, vs, out);
    const uint64_t m = FA(MMAD, m), k = FA(MMAD, k), nn = FA(MMAD, n), sz = dtype_bytes[t];
    const unsigned ksh = 5 - (unsigned)__builtin_ctz((unsigned)sz); /* log2(K0) */
    const uint64_t K0 = 1ull << ksh, kr = ((k - 1) & (K0 - 1)) * sz + sz;
    const uint64_t M1 = (m + 15) >> 4, K1 = (k + K0 - 1) >> ksh, N1 = (nn + 15) >> 4;
    const uint64_t chi = (N1 * M1 - 1) * 1024 + (((m - 1) & 15) * 16 + ((nn - 1) & 15)) * 4 + 4;
    int n = 0;
    range_set(&out[n++], FA(MMAD, c), 0, chi, true);
    if (!FA(MMAD, init))
        range_set(&out[n++], FA(MMAD, c), 0, chi, false);
    range_set(&out[n++], FA(MMAD, a), 0,
              m == 1 && FA(MMAD, gemv) ? k * sz : (M1 * K1 - 1) * 512 + ((m - 1) & 15) * K0 * sz + kr, false);
    range_set(&out[n++], FA(MMAD, b), 0, (K1 * N1 - 1) * 512 + ((nn - 1) & 15) * K0 * sz + kr, false);
    return n;
}

/* dv_footprint of a LOAD2D form instruction: footprint()'s case, else footprint(). */
static __attribute__((noinline)) int load2d_footprint(const dv_insn_t *in, const dv_op_spec_t *os,
                                                      const dv_vstate_t *vs, dv_range_t out[DV_MAX_RANGES])
{
    if (!(FIN(LOAD2D, repeat) & FIN(LOAD2D, base_idx) & FIN(LOAD2D, dst_gap) & FIN(LOAD2D, src_stride)))
        return footprint(in, os, vs, out);
    const uint64_t rep1 = FA(LOAD2D, repeat) - 1, base = FA(LOAD2D, base_idx);
    range_set(&out[0], FA(LOAD2D, dst), 0, (rep1 * (FA(LOAD2D, dst_gap) + 1) + 1) * 512, true);
    range_set(&out[1], FA(LOAD2D, src), base * 512, (base + rep1 * FA(LOAD2D, src_stride) + 1) * 512, false);
    return 2;
}

/* The forms without address fields (flags, barriers, scalar work: most of a kernel's instructions)
 * leave here, and the commonest with them (DMA, LOAD2D, MMAD, the element-strided vector forms) take their
 * closed forms when every field they use is inside its table range (FI would read them unchanged),
 * all before the frame footprint() needs. */
int dv_footprint(const dv_insn_t *in, const dv_vstate_t *vs, dv_range_t out[DV_MAX_RANGES])
{
    const dv_op_spec_t *os = dv_op_spec((dv_op_t)in->op);
    if (!os)
        return 0;
    const dv_form_t form = os->form;
    if (form == DV_FORM_DMA)
        return dma_footprint(in, os, vs, out);
    if (form == DV_FORM_LOAD2D)
        return load2d_footprint(in, os, vs, out);
    if (form == DV_FORM_MMAD)
        return mmad_footprint(in, os, vs, out);
    if (form == DV_FORM_VBIN || form == DV_FORM_VUNARY || form == DV_FORM_VSCALAR || form == DV_FORM_VDUP)
        return vec_footprint_full(in, os, vs, out);
    if (dv_form_spec(form)->naddr == 0)
        return 0; /* every range is at an address field */
    return footprint(in, os, vs, out);
}

/* dv_vec_footprint of a strided vector form (os's form is `form`): inlined per form like vinfo_form */
static inline __attribute__((always_inline)) int vec_footprint_form(const dv_insn_t *in, const dv_op_spec_t *os,
                                                                    dv_form_t form, const dv_vstate_t *vs,
                                                                    dv_range_t out[DV_MAX_RANGES], dv_vgeom_t *g)
{
    vinfo_t v;
    if (vinfo_form(in, os, form, vs, &v) < 0) { /* a bad dtype: no footprint, no geometry */
        vgeom_none(g);
        return 0;
    }
    vgeom_of(&v, g);
    return vfootprint_of(&v, out);
}

/* dv_vec_footprint of everything but the full-mask closed forms (vec_full_form): out of line, so the
 * closed forms' path needs neither its frame (a vinfo_t) nor its saved registers. */
static __attribute__((noinline)) int vec_footprint_general(const dv_insn_t *in, const dv_op_spec_t *os,
                                                           const dv_vstate_t *vs, dv_range_t out[DV_MAX_RANGES],
                                                           dv_vgeom_t *g)
{
    if (dv_form_spec(os->form)->naddr == 0) { /* flags, barriers: nothing either way */
        vgeom_none(g);
        return 0;
    }
    switch (os->form) { /* the strided forms: one decode for both, the common ones' inlined for their form */
    case DV_FORM_VBIN: return vec_footprint_form(in, os, DV_FORM_VBIN, vs, out, g);
    case DV_FORM_VUNARY: return vec_footprint_form(in, os, DV_FORM_VUNARY, vs, out, g);
    case DV_FORM_VSCALAR: return vec_footprint_form(in, os, DV_FORM_VSCALAR, vs, out, g);
    case DV_FORM_VDUP: return vec_footprint_form(in, os, DV_FORM_VDUP, vs, out, g);
    default:
        if (vforms[os->form].nops)
            return vec_footprint_form(in, os, os->form, vs, out, g);
    }
    dv_vec_geometry(in, vs, g);
    return footprint(in, os, vs, out);
}

/* dv_vec_footprint of an op of no element-strided form (os NULL: an invalid op, nothing). */
static __attribute__((noinline)) int vec_footprint_other(const dv_insn_t *in, const dv_vstate_t *vs,
                                                         dv_range_t out[DV_MAX_RANGES], dv_vgeom_t *g)
{
    const dv_op_spec_t *os = dv_op_spec((dv_op_t)in->op);
    if (!os) {
        vgeom_none(g);
        return 0;
    }
    return vec_footprint_general(in, os, vs, out, g);
}

/* dv_vec_footprint of an op of each element-strided form: vec_full_form's closed form (a full mask in
 * normal mode) for its form, which writes nothing when it does not apply, else vec_footprint_general.
 * One function per form, so each has its form's constants and the registers its case needs. */
#define VEC_FULL_FN(F)                                                                                                \
    static __attribute__((noinline)) int vec_footprint_##F(const dv_insn_t *in, const dv_vstate_t *vs,               \
                                                           dv_range_t out[DV_MAX_RANGES], dv_vgeom_t *g)             \
    {                                                                                                                 \
        const dv_op_spec_t *os = &dv_isa_ops_[in->op];                                                                \
        if (!g) /* (dv_vec_footprint's g is required) */                                                              \
            __builtin_unreachable();                                                                                  \
        const int n = vec_full_form(in, os, DV_FORM_##F, vs, out, g);                                                 \
        return n >= 0 ? n : vec_footprint_general(in, os, vs, out, g);                                              \
    }
VEC_FULL_FN(VBIN)
VEC_FULL_FN(VUNARY)
VEC_FULL_FN(VSCALAR)
VEC_FULL_FN(VDUP)
#undef VEC_FULL_FN

/* dv_vec_footprint of each op by its isa.def row's form: one load and an indirect jump choose it. */
typedef int vec_fn_t(const dv_insn_t *in, const dv_vstate_t *vs, dv_range_t out[DV_MAX_RANGES], dv_vgeom_t *g);
static vec_fn_t *const vec_fn[DV_OP_COUNT] = {
#define DV_INSN(mn, pipe, form, cost, dst, src, dtypes, desc)                                                         \
    DV_FORM_##form == DV_FORM_VBIN      ? vec_footprint_VBIN                                                         \
    : DV_FORM_##form == DV_FORM_VUNARY  ? vec_footprint_VUNARY                                                       \
    : DV_FORM_##form == DV_FORM_VSCALAR ? vec_footprint_VSCALAR                                                      \
    : DV_FORM_##form == DV_FORM_VDUP    ? vec_footprint_VDUP                                                         \
                                        : vec_footprint_other,
#include "isa.def"
};

/* The element-strided forms try vec_full_form's closed form first; everything else is
 * vec_footprint_general's. */
int dv_vec_footprint(const dv_insn_t *in, const dv_vstate_t *vs, dv_range_t out[DV_MAX_RANGES], dv_vgeom_t *g)
{
    return (in->op < DV_OP_COUNT ? vec_fn[in->op] : vec_footprint_other)(in, vs, out, g);
}

/* ======================================================================== transfer shapes */

/* dv_xfer_shape of any form (x cleared, os valid). */
static __attribute__((noinline)) int xfer_shape(const dv_insn_t *in, const dv_op_spec_t *os, dv_xfer_t *x)
{
    const bool gm_src = os->src_space == DV_SPACE_GM, gm_dst = os->dst_space == DV_SPACE_GM;
    dma_geom_t dg;
    if (dv_sem_dma_geom(in, os, &dg)) {
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
        x->dst_bytes = nd * nv * dv_ceil_div(d, 32 / sz) * 32;
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
    case DV_FORM_LOAD2DT: /* whole squares: 2 fractals each (8-, 32-bit), 1 (16-bit) */
        x->src_bytes = x->dst_bytes =
            FI(LOAD2DT, repeat) * (dv_dtype_size(FT(LOAD2DT, dtype)) == 2 ? 1 : 2) * 512;
        return 0;
    case DV_FORM_FILL: /* the blocks written; nothing is read */
        x->src_bytes = 0;
        x->dst_bytes = FI(FILL, rows) * FI(FILL, blocks) * 512;
        return 0;
    case DV_FORM_IMG2COL: {
        i2c_t g;
        dv_sem_i2c_get(in, &g);
        x->src_bytes = x->dst_bytes = dv_sem_i2c_dst_bytes(&g);
        return 0;
    }
    case DV_FORM_FIXPIPE: {
        const uint64_t ms = FI(FIXPIPE, m_size), ns = FI(FIXPIPE, n_size), N1 = dv_ceil_div(ns, 16);
        const uint64_t osz = dv_dtype_size(dv_sem_fix_out_type(in)), ds = FI(FIXPIPE, dst_stride);
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

/* The commonest forms (DMA, LOAD2D) take their closed forms when every field they use is inside its
 * table range (FI would read them unchanged), before the frame xfer_shape() needs. */
int dv_xfer_shape(const dv_insn_t *in, dv_xfer_t *x)
{
    const dv_op_spec_t *os = dv_op_spec((dv_op_t)in->op);
    memset(x, 0, sizeof *x);
    if (!os)
        return -1;
    const bool gm_src = os->src_space == DV_SPACE_GM, gm_dst = os->dst_space == DV_SPACE_GM;
    if (os->form == DV_FORM_DMA && FIN(DMA, nburst) & FIN(DMA, len) & FIN(DMA, dst_gap) & FIN(DMA, src_gap)) {
        /* dv_sem_dma_geom's DMA case */
        const uint64_t nb = FA(DMA, nburst), len = FA(DMA, len) * 32;
        x->src_bytes = x->dst_bytes = nb * len;
        if (gm_src || gm_dst) {
            x->bursts = nb;
            x->burst_bytes = len;
            x->gm_lo = DV_ADDR_OFF(gm_src ? FA(DMA, src) : FA(DMA, dst));
            x->gm_stride = len + (gm_src ? FA(DMA, src_gap) : FA(DMA, dst_gap)) * 32;
        }
        return 0;
    }
    if (os->form == DV_FORM_LOAD2D && FIN(LOAD2D, repeat) & FIN(LOAD2D, base_idx) & FIN(LOAD2D, src_stride)) {
        const uint64_t rep = FA(LOAD2D, repeat); /* as xfer_shape() has it */
        x->src_bytes = x->dst_bytes = rep * 512;
        if (gm_src) {
            x->bursts = rep;
            x->burst_bytes = 512;
            x->gm_lo = DV_ADDR_OFF(FA(LOAD2D, src)) + FA(LOAD2D, base_idx) * 512;
            x->gm_stride = FA(LOAD2D, src_stride) * 512;
        }
        return 0;
    }
    return xfer_shape(in, os, x);
}

/* dv_xfer_footprint of everything but its closed forms: the shape and the footprint decoded apart.
 * Out of line, so the closed forms' path needs no frame (its tail call is a jump). */
static __attribute__((noinline)) int xfer_footprint_apart(const dv_insn_t *in, const dv_vstate_t *vs,
                                                          dv_range_t out[DV_MAX_RANGES], dv_xfer_t *x)
{
    dv_xfer_shape(in, x);
    return dv_footprint(in, vs, out);
}

/* dv_xfer_footprint's DMA closed form (gm_src, gm: the op's GM side, constants where it is inlined). */
static inline __attribute__((always_inline)) int xfer_dma(const dv_insn_t *in, const dv_vstate_t *vs,
                                                          dv_range_t out[DV_MAX_RANGES], dv_xfer_t *x, bool gm_src,
                                                          bool gm)
{
    if (!(FIN(DMA, nburst) & FIN(DMA, len) & FIN(DMA, dst_gap) & FIN(DMA, src_gap)))
        return xfer_footprint_apart(in, vs, out, x);
    const uint64_t nb = FA(DMA, nburst), len = FA(DMA, len) * 32;
    const uint64_t dst = FA(DMA, dst), src = FA(DMA, src);
    const uint64_t dst_stride = len + FA(DMA, dst_gap) * 32, src_stride = len + FA(DMA, src_gap) * 32;
    range_put(&out[0], dst, 0, (nb - 1) * dst_stride + len, true);
    range_put(&out[1], src, 0, (nb - 1) * src_stride + len, false);
    x->src_bytes = x->dst_bytes = nb * len;
    x->bursts = gm ? nb : 0;
    x->burst_bytes = gm ? len : 0;
    x->gm_lo = gm ? DV_ADDR_OFF(gm_src ? src : dst) : 0;
    x->gm_stride = gm ? (gm_src ? src_stride : dst_stride) : 0;
    x->group = x->group_stride = 0;
    return 2;
}

/* dv_xfer_footprint's LOAD2D closed form (gm: the op reads GM). */
static inline __attribute__((always_inline)) int xfer_load2d(const dv_insn_t *in, const dv_vstate_t *vs,
                                                             dv_range_t out[DV_MAX_RANGES], dv_xfer_t *x, bool gm)
{
    if (!(FIN(LOAD2D, repeat) & FIN(LOAD2D, base_idx) & FIN(LOAD2D, dst_gap) & FIN(LOAD2D, src_stride)))
        return xfer_footprint_apart(in, vs, out, x);
    const uint64_t rep = FA(LOAD2D, repeat), base = FA(LOAD2D, base_idx), src = FA(LOAD2D, src);
    const uint64_t stride = FA(LOAD2D, src_stride);
    range_put(&out[0], FA(LOAD2D, dst), 0, ((rep - 1) * (FA(LOAD2D, dst_gap) + 1) + 1) * 512, true);
    range_put(&out[1], src, base * 512, (base + (rep - 1) * stride + 1) * 512, false);
    x->src_bytes = x->dst_bytes = rep * 512;
    x->bursts = gm ? rep : 0;
    x->burst_bytes = gm ? 512 : 0;
    x->gm_lo = gm ? DV_ADDR_OFF(src) + base * 512 : 0;
    x->gm_stride = gm ? stride * 512 : 0;
    x->group = x->group_stride = 0;
    return 2;
}

/* dv_xfer_footprint's ND2NZ closed form, else the two decoded apart. */
static __attribute__((noinline)) int xfer_nd2nz(const dv_insn_t *in, const dv_vstate_t *vs,
                                                dv_range_t out[DV_MAX_RANGES], dv_xfer_t *x)
{
    const dv_op_spec_t *os = dv_op_spec((dv_op_t)in->op);
    const dv_dtype_t t = FT(ND2NZ, dtype);
    if (dv_sem_dtype_ok(os, t) && FIN(ND2NZ, nd_num) & FIN(ND2NZ, n_value) & FIN(ND2NZ, d_value) &
                                      FIN(ND2NZ, src_nd_stride) & FIN(ND2NZ, src_d_stride) &
                                      FIN(ND2NZ, dst_c0_stride) & FIN(ND2NZ, dst_n_stride) &
                                      FIN(ND2NZ, dst_nd_stride)) {
        /* footprint()'s and xfer_shape()'s cases: a row's d elements fill c1 32-byte groups of
         * 32 / sz (sz divides 32, so that is d * sz bytes rounded up to 32) */
        const uint64_t sz = dtype_bytes[t], nd = FA(ND2NZ, nd_num), nv = FA(ND2NZ, n_value);
        const uint64_t d = FA(ND2NZ, d_value), c1 = (d * sz + 31) / 32, src = FA(ND2NZ, src);
        const uint64_t src_nd = FA(ND2NZ, src_nd_stride) * sz, src_d = FA(ND2NZ, src_d_stride) * sz;
        range_set(&out[0], FA(ND2NZ, dst), 0,
                  ((nd - 1) * FA(ND2NZ, dst_nd_stride) + (c1 - 1) * FA(ND2NZ, dst_c0_stride) +
                   (nv - 1) * FA(ND2NZ, dst_n_stride)) * 32 + 32,
                  true);
        range_set(&out[1], src, 0, (nd - 1) * src_nd + (nv - 1) * src_d + d * sz, false);
        *x = (dv_xfer_t){.src_bytes = nd * nv * d * sz,
                         .dst_bytes = nd * nv * c1 * 32,
                         .bursts = nd * nv,
                         .burst_bytes = d * sz,
                         .gm_lo = DV_ADDR_OFF(src),
                         .gm_stride = src_d,
                         .group = nv,
                         .group_stride = src_nd};
        return 2;
    }
    return xfer_footprint_apart(in, vs, out, x);
}

/* One function per closed form, each with its spaces constant: each uses the registers its own case
 * needs, where one function for all saved and restored those of the largest. */
static __attribute__((noinline)) int xfer_dma_gm_src(const dv_insn_t *in, const dv_vstate_t *vs,
                                                     dv_range_t out[DV_MAX_RANGES], dv_xfer_t *x)
{
    return xfer_dma(in, vs, out, x, true, true);
}
static __attribute__((noinline)) int xfer_dma_gm_dst(const dv_insn_t *in, const dv_vstate_t *vs,
                                                     dv_range_t out[DV_MAX_RANGES], dv_xfer_t *x)
{
    return xfer_dma(in, vs, out, x, false, true);
}
static __attribute__((noinline)) int xfer_dma_local(const dv_insn_t *in, const dv_vstate_t *vs,
                                                    dv_range_t out[DV_MAX_RANGES], dv_xfer_t *x)
{
    return xfer_dma(in, vs, out, x, false, false);
}
static __attribute__((noinline)) int xfer_l2d_gm(const dv_insn_t *in, const dv_vstate_t *vs,
                                                 dv_range_t out[DV_MAX_RANGES], dv_xfer_t *x)
{
    return xfer_load2d(in, vs, out, x, true);
}
static __attribute__((noinline)) int xfer_l2d_local(const dv_insn_t *in, const dv_vstate_t *vs,
                                                    dv_range_t out[DV_MAX_RANGES], dv_xfer_t *x)
{
    return xfer_load2d(in, vs, out, x, false);
}

/* dv_xfer_footprint of each op: its form's closed form, with the op's GM side, or the two decoded apart
 * (its isa.def row: one load and an indirect jump choose the case). */
typedef int xfer_fn_t(const dv_insn_t *in, const dv_vstate_t *vs, dv_range_t out[DV_MAX_RANGES], dv_xfer_t *x);
static xfer_fn_t *const xfer_fn[DV_OP_COUNT] = {
#define DV_INSN(mn, pipe, form, cost, dst, src, dtypes, desc)                                                         \
    DV_FORM_##form == DV_FORM_DMA      ? (DV_SPACE_##src == DV_SPACE_GM   ? xfer_dma_gm_src                          \
                                          : DV_SPACE_##dst == DV_SPACE_GM ? xfer_dma_gm_dst                          \
                                                                          : xfer_dma_local)                          \
    : DV_FORM_##form == DV_FORM_LOAD2D ? (DV_SPACE_##src == DV_SPACE_GM ? xfer_l2d_gm : xfer_l2d_local)              \
    : DV_FORM_##form == DV_FORM_ND2NZ  ? xfer_nd2nz                                                                  \
                                       : xfer_footprint_apart,
#include "isa.def"
};

/* The commonest transfers (DMA, LOAD2D, ND2NZ) take closed forms of footprint()'s and xfer_shape()'s cases
 * from one read of their fields when every field either uses is inside its table range (footprint's
 * fields include the shape's) and, for ND2NZ, its dtype is valid; everything else is the two decoded
 * apart.  Every field of x is stored once (no clearing first), and a transfer without a GM side stores
 * zeros for the GM runs, as dv_xfer_shape leaves them. */
int dv_xfer_footprint(const dv_insn_t *in, const dv_vstate_t *vs, dv_range_t out[DV_MAX_RANGES], dv_xfer_t *x)
{
    return (in->op < DV_OP_COUNT ? xfer_fn[in->op] : xfer_footprint_apart)(in, vs, out, x);
}
