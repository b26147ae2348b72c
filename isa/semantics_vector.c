/* isa/semantics_vector.c - execution of the vector forms (arithmetic, conversions, reductions,
 * compares, selects) one repeat at a time.  docs/SEMANTICS.md is the contract. */
#include "semantics_internal.h"

#include <math.h>
#include <stdlib.h>

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
    case DV_OP_vmin: case DV_OP_vmins: r = fmin_rule(a, b); break;
    case DV_OP_vlrelu: r = a >= 0 ? a : a * b; break;
    case DV_OP_vexp: r = expf(a); break;
    case DV_OP_vln: r = logf(a); break;
    case DV_OP_vsqrt: r = sqrtf(a); break;
    case DV_OP_vrsqrt: r = sqrtf(a); r = 1.0f / r; break;
    case DV_OP_vrec: r = 1.0f / a; break;
    case DV_OP_vrelu: r = a > 0 ? a : 0.0f; break;
    case DV_OP_vaddrelu: r = a + b; r = r > 0 ? r : 0.0f; break;
    case DV_OP_vsubrelu: r = a - b; r = r > 0 ? r : 0.0f; break;
    default: r = a; break;
    }
    return r;
}

/* The multiply-adds, which also read dst (d): each operation rounded to the type t. */
static bool reads_dst(dv_op_t op)
{
    return op == DV_OP_vmla || op == DV_OP_vmadd || op == DV_OP_vmaddrelu || op == DV_OP_vaxpy;
}
static float round_to(dv_dtype_t t, float x);
static float fmuladd(dv_op_t op, dv_dtype_t t, float a, float b, float d)
{
    float p, r;
    switch (op) {
    case DV_OP_vmla: case DV_OP_vaxpy: p = round_to(t, a * b); return p + d;            /* src0*src1 + dst */
    case DV_OP_vmadd: p = round_to(t, a * d); return p + b;                             /* src0*dst + src1 */
    default: p = round_to(t, a * d); r = round_to(t, p + b); return r > 0 ? r : 0.0f; /* vmaddrelu */
    }
}

static int64_t iop(dv_op_t op, int64_t a, int64_t b)
{
    const uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    switch (op) {
    case DV_OP_vadd: case DV_OP_vadds: return (int64_t)(ua + ub);
    case DV_OP_vsub: return (int64_t)(ua - ub);
    case DV_OP_vmul: case DV_OP_vmuls: return (int64_t)(ua * ub);
    case DV_OP_vmax: case DV_OP_vmaxs: return a > b ? a : b;
    case DV_OP_vmin: case DV_OP_vmins: return a < b ? a : b;
    case DV_OP_vabs: return a < 0 ? (int64_t)(0u - ua) : a;
    case DV_OP_vrelu: return a > 0 ? a : 0;
    case DV_OP_vaddrelu: { const int64_t s = a + b; return s > 0 ? s : 0; }
    case DV_OP_vsubrelu: { const int64_t s = a - b; return s > 0 ? s : 0; }
    case DV_OP_vshl: return ub >= 32 ? 0 : (int64_t)(ua << ub);         /* the count as unsigned */
    case DV_OP_vshr: return a >> (ub > 63 ? 63 : ub); /* a is sign- or zero-extended by its type */
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

/* An f32 rounded to an integral value with a ROUND mode (f32 -> f32 vconv); exact, NaN and infinities
 * unchanged, the sign of zero kept. */
static float round_integral(float x, int mode)
{
    switch (mode) {
    case DV_ROUND_F: return floorf(x);
    case DV_ROUND_C: return ceilf(x);
    case DV_ROUND_Z: return truncf(x);
    case DV_ROUND_A: return roundf(x);
    default: return nearbyintf(x); /* the host's default rounding: nearest, ties to even */
    }
}

static void conv_elem(dv_dtype_t td, dv_dtype_t ts, int mode, const uint8_t *sp, uint8_t *dp)
{
    uint32_t bits;
    if (dv_dtype_is_float(ts)) {
        float x = dv_sem_ld_f(ts, sp);
        if (td == DV_DT_F32) {
            if (ts == DV_DT_F32)
                x = round_integral(x, mode);
            memcpy(dp, &x, 4);
            return;
        }
        if (!dv_dtype_is_float(td)) {
            dv_sem_st_i(td, dp, dv_sem_fp_to_int(x, mode, td));
            return;
        }
        if (mode == DV_ROUND_R)
            bits = td == DV_DT_F16 ? dv_f32_to_f16(x) : dv_f32_to_bf16(x);
        else
            bits = dv_sem_fp_round(x, dv_sem_fmt_of(td), mode);
    } else {
        const int64_t v = dv_sem_ld_i(ts, sp);
        bits = dv_sem_fp_round((double)v, dv_sem_fmt_of(td), mode);
    }
    const uint16_t h = (uint16_t)bits;
    if (td == DV_DT_F32)
        memcpy(dp, &bits, 4);
    else
        memcpy(dp, &h, 2);
}

/* x rounded to the element type t (a float type). */
static float round_to(dv_dtype_t t, float x)
{
    uint8_t b[4];
    dv_sem_st_f(t, b, x);
    return dv_sem_ld_f(t, b);
}

/* The group reductions (vcgadd, vcgmax, vcgmin, vcpadd) of one repeat: the selected elements of each
 * group of g are combined as a pairwise tree (neighbours first, each step rounded to the type; an
 * element that is not selected takes no part), and a group with none selected is not written. */
static void red_groups(const dv_insn_t *in, const vinfo_t *v, uint8_t *ub, uint64_t r, const uint32_t *sel,
                       uint32_t n, uint32_t g)
{
    const dv_op_t op = (dv_op_t)in->op;
    const vop_i_t *o = v->op;
    const uint8_t *p1 = ub + DV_ADDR_OFF(o[1].addr);
    float x[256];
    bool has[256] = {false};
    for (uint32_t k = 0; k < n; k++) {
        x[sel[k]] = dv_sem_ld_f(v->t, p1 + dv_sem_vop_off(&o[1], v->epb, r, sel[k]));
        has[sel[k]] = true;
    }
    for (uint32_t w = 1; w < g; w *= 2)
        for (uint32_t e = 0; e + w < v->E; e += 2 * w) {
            if (!has[e + w])
                continue;
            if (!has[e])
                x[e] = x[e + w];
            else if (op == DV_OP_vcgmax)
                x[e] = fmax_rule(x[e], x[e + w]);
            else if (op == DV_OP_vcgmin)
                x[e] = fmin_rule(x[e], x[e + w]);
            else
                x[e] = round_to(v->t, x[e] + x[e + w]);
            has[e] = true;
        }
    uint8_t *d = ub + DV_ADDR_OFF(o[0].addr) + r * o[0].rep;
    for (uint32_t e = 0; e < v->E; e += g)
        if (has[e])
            dv_sem_st_f(v->t, d + (e / g) * o[0].esize, x[e]);
}

/* ------------------------------------------------------------------ vreducev2 (GatherMask) */

bool dv_sem_vreducev2_keep(const dv_insn_t *in, const vinfo_t *v, const uint8_t *ub, uint64_t r, uint32_t e)
{
    switch (FI(VREDUCEV2, pattern)) {
    case 1: return e % 2 == 0;
    case 2: return e % 2 == 1;
    case 3: case 4: case 5: case 6: return e % 4 == (uint32_t)(FI(VREDUCEV2, pattern) - 3);
    case 7: return true;
    default: {
        if (!ub)
            return false;
        const uint8_t *bits = ub + DV_ADDR_OFF(v->op[2].addr) + r * v->op[2].rep;
        return bits[e / 8] >> (e % 8) & 1;
    }
    }
}

uint64_t dv_sem_vreducev2_run(const dv_insn_t *in, const vinfo_t *v, uint8_t *ub)
{
    const uint32_t s = dv_dtype_size(v->t);
    const vop_i_t *src = &v->op[1];
    /* read every kept element before writing any: dst may overlap the source */
    uint8_t *buf = malloc(v->op[0].span ? v->op[0].span : 1);
    uint64_t n = 0;
    for (uint64_t r = 0; r < v->R && v->any; r++) {
        for (uint32_t e = 0; e <= v->ehi; e++)
            if (dv_sem_vreducev2_keep(in, v, ub, r, e))
                memcpy(buf + (n++) * s, ub + DV_ADDR_OFF(src->addr) + dv_sem_vop_off(src, v->epb, r, e), s);
    }
    memcpy(ub + DV_ADDR_OFF(v->op[0].addr), buf, n * s);
    free(buf);
    return n;
}

/* One repeat: every source element is read before any destination element is written. */
void dv_sem_vec_repeat(const dv_insn_t *in, const vinfo_t *v, uint8_t *ub, uint64_t r)
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
    float fa[256], fb[256], fd[256];
    int64_t ia[256], ib[256];
    uint32_t raw[256];
    uint8_t sc[4] = {0};

    switch (v->form) {
    case DV_FORM_VBIN:
    case DV_FORM_VSCALAR:
    case DV_FORM_VUNARY: {
        const bool two = v->form == DV_FORM_VBIN;
        if (v->form == DV_FORM_VSCALAR)
            dv_sem_scalar_bits(t, in->f[DV_FLD(VSCALAR, scalar)].d, sc);
        if (op == DV_OP_vcopy || (op == DV_OP_vabs && fl) || op == DV_OP_vand || op == DV_OP_vor ||
            op == DV_OP_vnot) { /* bitwise */
            const uint32_t signbit = s == 2 ? 0x8000u : 0x80000000u;
            for (uint32_t k = 0; k < n; k++) {
                raw[k] = 0;
                memcpy(&raw[k], p1 + dv_sem_vop_off(&o[1], epb, r, sel[k]), s);
                uint32_t w = 0;
                if (two)
                    memcpy(&w, p2 + dv_sem_vop_off(&o[2], epb, r, sel[k]), s);
                if (op == DV_OP_vabs)
                    raw[k] &= ~signbit;
                else if (op == DV_OP_vand)
                    raw[k] &= w;
                else if (op == DV_OP_vor)
                    raw[k] |= w;
                else if (op == DV_OP_vnot)
                    raw[k] = ~raw[k];
            }
            for (uint32_t k = 0; k < n; k++)
                memcpy(p0 + dv_sem_vop_off(&o[0], epb, r, sel[k]), &raw[k], s);
            break;
        }
        for (uint32_t k = 0; k < n; k++) {
            const uint8_t *a = p1 + dv_sem_vop_off(&o[1], epb, r, sel[k]);
            const uint8_t *b = two ? p2 + dv_sem_vop_off(&o[2], epb, r, sel[k]) : sc;
            if (fl) {
                fa[k] = dv_sem_ld_f(t, a);
                fb[k] = dv_sem_ld_f(t, b);
                if (reads_dst(op))
                    fd[k] = dv_sem_ld_f(t, p0 + dv_sem_vop_off(&o[0], epb, r, sel[k]));
            } else {
                ia[k] = dv_sem_ld_i(t, a);
                ib[k] = dv_sem_ld_i(t, b);
            }
        }
        for (uint32_t k = 0; k < n; k++) {
            uint8_t *d = p0 + dv_sem_vop_off(&o[0], epb, r, sel[k]);
            if (fl)
                dv_sem_st_f(t, d, reads_dst(op) ? fmuladd(op, t, fa[k], fb[k], fd[k]) : fop(op, fa[k], fb[k]));
            else
                dv_sem_st_i(t, d, iop(op, ia[k], ib[k]));
        }
        break;
    }
    case DV_FORM_VCONV: {
        const int mode = (int)FI(VCONV, round);
        const uint32_t s2 = dv_dtype_size(v->t2);
        for (uint32_t k = 0; k < n; k++) {
            raw[k] = 0;
            memcpy(&raw[k], p1 + dv_sem_vop_off(&o[1], epb, r, sel[k]), s2);
        }
        for (uint32_t k = 0; k < n; k++)
            conv_elem(t, v->t2, mode, (const uint8_t *)&raw[k], p0 + dv_sem_vop_off(&o[0], epb, r, sel[k]));
        break;
    }
    case DV_FORM_VREDUCE: {
        const uint32_t g = dv_sem_red_group(op, epb);
        if (g) {
            red_groups(in, v, ub, r, sel, n, g);
            break;
        }
        uint8_t *d = p0 + r * o[0].rep;
        if (op == DV_OP_vcadd) {
            float acc = 0.0f;
            for (uint32_t k = 0; k < n; k++)
                acc += dv_sem_ld_f(t, p1 + dv_sem_vop_off(&o[1], epb, r, sel[k]));
            dv_sem_st_f(t, d, acc);
            break;
        }
        if (n == 0)
            break;
        uint32_t best = 0;
        float bv = dv_sem_ld_f(t, p1 + dv_sem_vop_off(&o[1], epb, r, sel[0]));
        for (uint32_t k = 1; k < n; k++) {
            const float x = dv_sem_ld_f(t, p1 + dv_sem_vop_off(&o[1], epb, r, sel[k]));
            if ((op == DV_OP_vcmax ? x > bv : x < bv) || (isnan(bv) && !isnan(x))) {
                bv = x;
                best = k;
            }
        }
        /* Order_t: 0 value, index; 1 index, value; 2 value; 3 index (in an element's bytes: u16 / u32) */
        const int64_t order = FI(VREDUCE, order);
        const dv_dtype_t it = t == DV_DT_F16 ? DV_DT_U16 : DV_DT_U32;
        memcpy(&raw[0], p1 + dv_sem_vop_off(&o[1], epb, r, sel[best]), s);
        if (order == 0 || order == 2)
            memcpy(d, &raw[0], s);
        if (order == 0)
            dv_sem_st_i(it, d + s, sel[best]);
        if (order == 1)
            memcpy(d + s, &raw[0], s);
        if (order == 1 || order == 3)
            dv_sem_st_i(it, d, sel[best]);
        break;
    }
    case DV_FORM_VDUP:
        dv_sem_scalar_bits(t, in->f[DV_FLD(VDUP, scalar)].d, sc);
        for (uint32_t k = 0; k < n; k++)
            memcpy(p0 + dv_sem_vop_off(&o[0], epb, r, sel[k]), sc, s);
        break;
    case DV_FORM_VCMP: {
        uint8_t bits[32] = {0};
        const int c = (int)FI(VCMP, cmp);
        for (uint32_t k = 0; k < n; k++) {
            const uint8_t *a = p1 + dv_sem_vop_off(&o[1], epb, r, sel[k]),
                          *b = p2 + dv_sem_vop_off(&o[2], epb, r, sel[k]);
            const bool hit = fl ? cmp_true(c, dv_sem_ld_f(t, a), dv_sem_ld_f(t, b))
                                : cmp_true(c, (double)dv_sem_ld_i(t, a), (double)dv_sem_ld_i(t, b));
            if (hit)
                bits[sel[k] / 8] |= (uint8_t)(1u << (sel[k] % 8));
        }
        memcpy(p0 + r * o[0].rep, bits, v->E / 8);
        break;
    }
    case DV_FORM_VCMPS: {
        uint8_t bits[32] = {0};
        const int c = (int)FI(VCMPS, cmp);
        dv_sem_scalar_bits(t, in->f[DV_FLD(VCMPS, scalar)].d, sc);
        for (uint32_t k = 0; k < n; k++) {
            const uint8_t *a = p1 + dv_sem_vop_off(&o[1], epb, r, sel[k]);
            const bool hit = fl ? cmp_true(c, dv_sem_ld_f(t, a), dv_sem_ld_f(t, sc))
                                : cmp_true(c, (double)dv_sem_ld_i(t, a), (double)dv_sem_ld_i(t, sc));
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
            memcpy(&raw[k],
                   first ? p1 + dv_sem_vop_off(&o[1], epb, r, sel[k]) : p2 + dv_sem_vop_off(&o[2], epb, r, sel[k]), s);
        }
        for (uint32_t k = 0; k < n; k++)
            memcpy(p0 + dv_sem_vop_off(&o[0], epb, r, sel[k]), &raw[k], s);
        break;
    }
    default:
        break;
    }
}

void dv_sem_vcadd_acc(const dv_insn_t *in, const vinfo_t *v, uint8_t *ub)
{
    (void)in;
    if (v->R == 0)
        return;
    const vop_i_t *o = v->op;
    const uint8_t *p1 = ub + DV_ADDR_OFF(o[1].addr);
    uint32_t sel[256];
    float total = 0.0f;
    for (uint64_t r = 0; r < v->R; r++) {
        const uint32_t n = vsel_list(v, r, sel);
        float acc = 0.0f;
        for (uint32_t k = 0; k < n; k++)
            acc += dv_sem_ld_f(v->t, p1 + dv_sem_vop_off(&o[1], v->epb, r, sel[k]));
        total += acc;
    }
    dv_sem_st_f(v->t, ub + DV_ADDR_OFF(o[0].addr), total);
}

int dv_sem_gather_run(const dv_insn_t *in, const vinfo_t *v, uint8_t *ub, dv_error_t *err)
{
    const bool blocks = in->op == DV_OP_vgatherb;
    const uint64_t len = blocks ? FI(VGATHERB, src_len) : FI(VGATHER, src_len);
    const uint64_t base = blocks ? 0 : FI(VGATHER, base);
    const uint64_t unit = blocks ? 32 : dv_dtype_size(v->t);
    const uint64_t R = blocks ? FI(VGATHERB, repeat) : v->R, per = blocks ? 8 : v->E;
    const uint8_t *offs = ub + DV_ADDR_OFF(blocks ? FA(VGATHERB, offset) : FA(VGATHER, offset));
    const uint8_t *src = ub + DV_ADDR_OFF(blocks ? FA(VGATHERB, src) : FA(VGATHER, src));
    uint8_t *dst = ub + DV_ADDR_OFF(blocks ? FA(VGATHERB, dst) : FA(VGATHER, dst));
    uint32_t *off = R ? malloc(R * per * sizeof *off) : NULL;
    uint32_t sel[256], n = 0;
    int rc = DV_OK;
    if (R && !off)
        return dv_error_set(err, DV_ERR_NOMEM, NULL, (int)in->line, 0, "%s: out of memory for %llu offsets",
                            blocks ? "vgatherb" : "vgather", (unsigned long long)(R * per));
    for (uint64_t r = 0; r < R; r++) { /* every offset used is read and checked before anything is written */
        n = blocks ? 8 : vsel_list(v, r, sel);
        for (uint32_t k = 0; k < n; k++) {
            const uint64_t i = r * per + (blocks ? k : sel[k]);
            memcpy(&off[i], offs + 4 * i, 4);
            const uint64_t a = base + off[i];
            if (a % unit || a + unit > len) {
                rc = dv_error_set(err, DV_ERR_RANGE, NULL, (int)in->line, 0,
                                  "%s: offset %u (element %llu of the offsets) reads bytes [%llu, %llu) of the "
                                  "source: %s",
                                  blocks ? "vgatherb" : "vgather", off[i], (unsigned long long)i,
                                  (unsigned long long)a, (unsigned long long)(a + unit),
                                  a % unit ? "not aligned to the element" : "past its src_len");
                goto cleanup;
            }
        }
    }
    for (uint64_t r = 0; r < R; r++) {
        uint8_t tmp[256];
        if (blocks) { /* datablock i of repeat r */
            const uint64_t blk = FI(VGATHERB, dst_blk) * 32, rs = FI(VGATHERB, dst_rep) * 32;
            for (uint32_t k = 0; k < 8; k++)
                memcpy(tmp + 32 * k, src + off[r * 8 + k], 32);
            for (uint32_t k = 0; k < 8; k++)
                memcpy(dst + r * rs + k * blk, tmp + 32 * k, 32);
            continue;
        }
        n = vsel_list(v, r, sel);
        for (uint32_t k = 0; k < n; k++)
            memcpy(tmp + k * unit, src + base + off[r * per + sel[k]], unit);
        for (uint32_t k = 0; k < n; k++)
            memcpy(dst + dv_sem_vop_off(&v->op[0], v->epb, r, sel[k]), tmp + k * unit, unit);
    }
cleanup:
    free(off);
    return rc;
}

/* Score of an 8-byte record (f16 or f32 in its low bytes). */
static float rec_score(dv_dtype_t t, const uint8_t *r) { return dv_sem_ld_f(t, r); }

void dv_sem_vbitsort(const dv_insn_t *in, uint8_t *ub)
{
    const dv_dtype_t t = FT(VBITSORT, dtype);
    const uint64_t s = dv_dtype_size(t), R = FI(VBITSORT, repeat);
    uint8_t *d = ub + DV_ADDR_OFF(FA(VBITSORT, dst));
    const uint8_t *sc = ub + DV_ADDR_OFF(FA(VBITSORT, src0)), *ix = ub + DV_ADDR_OFF(FA(VBITSORT, src1));
    for (uint64_t r = 0; r < R; r++) {
        uint8_t rec[32][8];
        float key[32];
        for (uint32_t i = 0; i < 32; i++) { /* every source element of the repeat read first */
            memset(rec[i], 0, 8);
            memcpy(rec[i], sc + (32 * r + i) * s, s);
            memcpy(rec[i] + 4, ix + (32 * r + i) * 4, 4);
            key[i] = rec_score(t, rec[i]);
        }
        for (uint32_t i = 1; i < 32; i++) { /* insertion sort, descending: equal scores keep their order */
            uint8_t cur[8];
            const float k = key[i];
            memcpy(cur, rec[i], 8);
            uint32_t j = i;
            for (; j > 0 && k > key[j - 1]; j--) {
                key[j] = key[j - 1];
                memcpy(rec[j], rec[j - 1], 8);
            }
            key[j] = k;
            memcpy(rec[j], cur, 8);
        }
        memcpy(d + 256 * r, rec, 256);
    }
}

int dv_sem_vmrgsort(const dv_insn_t *in, uint8_t *ub, dv_error_t *err)
{
    const dv_dtype_t t = FT(VMRGSORT, dtype);
    const uint64_t R = FI(VMRGSORT, repeat), lists = FI(VMRGSORT, lists), T = dv_sem_mrg_total(in);
    const bool stop = FI(VMRGSORT, exhausted);
    const uint64_t len[4] = {FI(VMRGSORT, len0), FI(VMRGSORT, len1), FI(VMRGSORT, len2), FI(VMRGSORT, len3)};
    const uint64_t a[4] = {FA(VMRGSORT, src0), FA(VMRGSORT, src1), FA(VMRGSORT, src2), FA(VMRGSORT, src3)};
    uint8_t *d = ub + DV_ADDR_OFF(FA(VMRGSORT, dst));
    uint8_t *tmp = T ? malloc(T * 8) : NULL;
    if (T && !tmp)
        return dv_error_set(err, DV_ERR_NOMEM, NULL, (int)in->line, 0, "vmrgsort4: out of memory for %llu records",
                            (unsigned long long)T);
    for (uint64_t r = 0; r < R; r++) {
        uint64_t pos[4] = {0}, out = 0;
        for (;;) {
            int best = -1;
            float bk = 0;
            for (uint64_t i = 0; i < lists; i++) {
                if (pos[i] >= len[i])
                    continue;
                const float k = rec_score(t, ub + DV_ADDR_OFF(a[i]) + (r * T + pos[i]) * 8);
                if (best < 0 || k > bk) {
                    best = (int)i;
                    bk = k;
                }
            }
            if (best < 0)
                break;
            memcpy(tmp + out * 8, ub + DV_ADDR_OFF(a[best]) + (r * T + pos[best]) * 8, 8);
            out++;
            if (++pos[best] == len[best] && stop)
                break;
        }
        memcpy(d + r * T * 8, tmp, out * 8); /* all of a repeat's sources read before it writes */
    }
    free(tmp);
    return DV_OK;
}
