/* tests/check_semantics_vector.c - every vector form run by dv_exec against a plain-C
 * reference of each repeat, masks and strides included, and the fixed-shape forms vbrcb / vtranspose
 * (docs/SEMANTICS.md; shared references in tests/support/semref.c). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/semref.h"

/* ------------------------------------------------------------------ vector reference */

typedef struct vcase {
    dv_op_t op;
    int dt, st;                /* dtype; vconv source type */
    int repeat;
    int blk[3], rep[3];        /* dst, src0 (or src), src1 in field units */
    int dst_rep;               /* VREDUCE */
    double scalar;
    int cmp, round;
    bool sel_fixed;            /* VSEL: every repeat reads the same mask chunk (sel_step 0) */
    dv_vstate_t vs;
} vcase_t;

static int ref_E(const vcase_t *c)
{
    const unsigned a = sr_sz(c->dt), b = sr_sz(c->st);
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
        return sr_h2f(sr_d2h(d));
    if (dt == DV_DT_F32)
        return (float)d;
    if (dt == DV_DT_BF16)
        return sr_b2f((uint16_t)sr_ref_to_float(d, DV_DT_BF16, DV_ROUND_R));
    return (double)sr_ref_f2i(d, DV_ROUND_Z, sr_tmin(dt), sr_tmax(dt));
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
    case DV_OP_vmin: case DV_OP_vmins: r = a <= b ? a : b; break;
    case DV_OP_vlrelu: r = a >= 0 ? a : a * b; break;
    case DV_OP_vexp: r = expf(a); break;
    case DV_OP_vln: r = logf(a); break;
    case DV_OP_vsqrt: r = sqrtf(a); break;
    case DV_OP_vrsqrt: r = sqrtf(a); r = 1.0f / r; break;
    case DV_OP_vrec: r = 1.0f / a; break;
    case DV_OP_vabs: r = fabsf(a); break;
    case DV_OP_vrelu: r = a > 0 ? a : 0.0f; break;
    case DV_OP_vaddrelu: r = a + b; r = r < 0 ? 0.0f : r; break;
    case DV_OP_vsubrelu: r = a - b; r = r < 0 ? 0.0f : r; break;
    default: r = a; break;
    }
    return r;
}

/* x as the dtype would hold it. */
static float ref_round(int dt, float x)
{
    uint8_t b[4];
    sr_rst_f(dt, b, x);
    return (float)sr_rld(dt, b);
}
static bool ref_reads_dst(dv_op_t op)
{
    return op == DV_OP_vmla || op == DV_OP_vmadd || op == DV_OP_vmaddrelu || op == DV_OP_vaxpy;
}
/* The multiply-adds: a = src0 (src), b = src1 (the scalar), d = dst, each operation rounded. */
static float ref_muladd(dv_op_t op, int dt, float a, float b, float d)
{
    if (op == DV_OP_vmla || op == DV_OP_vaxpy)
        return ref_round(dt, a * b) + d;
    const float r = ref_round(dt, a * d) + b;
    if (op == DV_OP_vmadd)
        return r;
    return ref_round(dt, r) <= 0 ? 0.0f : r;
}

static int64_t ref_iop(dv_op_t op, int64_t a, int64_t b)
{
    switch (op) {
    case DV_OP_vadd: case DV_OP_vadds: return a + b;
    case DV_OP_vsub: return a - b;
    case DV_OP_vmul: case DV_OP_vmuls: return (int64_t)((uint64_t)a * (uint64_t)b);
    case DV_OP_vmax: case DV_OP_vmaxs: return a > b ? a : b;
    case DV_OP_vmin: case DV_OP_vmins: return a < b ? a : b;
    case DV_OP_vabs: return a < 0 ? -a : a;
    case DV_OP_vrelu: return a > 0 ? a : 0;
    case DV_OP_vaddrelu: return a + b < 0 ? 0 : a + b;
    case DV_OP_vsubrelu: return a - b < 0 ? 0 : a - b;
    case DV_OP_vshl: return (uint64_t)b >= 32 ? 0 : (int64_t)(uint32_t)((uint32_t)a << b);
    case DV_OP_vshr: { /* a holds the element's value, so >> is arithmetic for signed, logical for unsigned */
        int64_t r = a;
        for (int64_t i = 0; i < b && i < 64; i++)
            r = r < 0 ? -((-r + 1) / 2) : r / 2; /* floor(r / 2) */
        return r;
    }
    default: return a;
    }
}

static void ref_conv(int dt, int st, int mode, const uint8_t *sp, uint8_t *dp)
{
    const double x = sr_rld(st, sp);
    if (st == DV_DT_F32 && dt == DV_DT_F32) { /* to an integral value by the mode: r f c z a */
        const double r = mode == 1 ? floor(x) : mode == 2 ? ceil(x) : mode == 3 ? trunc(x) : nearbyint(x);
        sr_rst_bits(dt, dp, sr_ref_to_float(mode == 4 ? round(x) : r, dt, 0));
    } else if (sr_isfl(st) && !sr_isfl(dt))
        sr_rst_i(dt, dp, sr_ref_f2i(x, mode, sr_tmin(dt), sr_tmax(dt)));
    else
        sr_rst_bits(dt, dp, sr_ref_to_float(x, dt, mode));
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

/* The group reductions: the selected elements of src[lo, lo+len) combined as a binary tree (each half
 * first, each sum rounded to dt; a missing element takes no part); false when none is selected. */
static bool ref_tree(const vcase_t *c, const uint8_t *u, int E, int r, int lo, int len, double *out)
{
    if (len == 1) {
        if (!ref_sel(c, E, r, lo))
            return false;
        *out = sr_rld(c->dt, u + ref_addr(B_S0, E, (int)sr_sz(c->dt), c->blk[1], c->rep[1], r, lo));
        return true;
    }
    double a, b;
    const bool ha = ref_tree(c, u, E, r, lo, len / 2, &a), hb = ref_tree(c, u, E, r, lo + len / 2, len / 2, &b);
    if (!ha || !hb) {
        *out = ha ? a : b;
        return ha || hb;
    }
    if (c->op == DV_OP_vcgmax)
        *out = a != a ? b : b != b ? a : (b > a ? b : a);
    else if (c->op == DV_OP_vcgmin)
        *out = a != a ? b : b != b ? a : (b < a ? b : a);
    else {
        uint8_t t[4];
        sr_rst_f(c->dt, t, (float)(a + b)); /* a + b is exact in double: one rounding to dt */
        *out = sr_rld(c->dt, t);
    }
    return true;
}

/* The whole vector instruction on memory u, from the definitions. */
static void ref_vec(const vcase_t *c, uint8_t *u)
{
    const dv_form_t form = dv_op_spec(c->op)->form;
    const int E = ref_E(c), R = ref_repeats(c, E), s = (int)sr_sz(c->dt), ss = (int)sr_sz(c->st);
    const int *bk = c->blk, *rp = c->rep;
    for (int r = 0; r < R; r++) {
        int nsel = 0;
        switch (form) {
        case DV_FORM_VBIN:
        case DV_FORM_VSCALAR:
        case DV_FORM_VUNARY:
            if (ref_reads_dst(c->op)) { /* every dst element of the repeat read before any is written */
                float dv[256];
                for (int e = 0; e < E; e++)
                    if (ref_sel(c, E, r, e))
                        dv[e] = (float)sr_rld(c->dt, u + ref_addr(B_DST, E, s, bk[0], rp[0], r, e));
                for (int e = 0; e < E; e++) {
                    if (!ref_sel(c, E, r, e))
                        continue;
                    const float x = (float)sr_rld(c->dt, u + ref_addr(B_S0, E, s, bk[1], rp[1], r, e));
                    const float y = form == DV_FORM_VBIN
                                        ? (float)sr_rld(c->dt, u + ref_addr(B_S1, E, s, bk[2], rp[2], r, e))
                                        : (float)ref_scalar(c->dt, c->scalar);
                    const float res = ref_muladd(c->op, c->dt, x, y, dv[e]);
                    sr_rst_f(c->dt, u + ref_addr(B_DST, E, s, bk[0], rp[0], r, e), res);
                }
                break;
            }
            for (int e = 0; e < E; e++) {
                if (!ref_sel(c, E, r, e))
                    continue;
                uint8_t *d = u + ref_addr(B_DST, E, s, bk[0], rp[0], r, e);
                const uint8_t *a = u + ref_addr(B_S0, E, s, bk[1], rp[1], r, e);
                if (c->op == DV_OP_vcopy) {
                    memcpy(d, a, (size_t)s);
                    continue;
                }
                if (c->op == DV_OP_vand || c->op == DV_OP_vor || c->op == DV_OP_vnot) { /* 16-bit words */
                    uint16_t wa, wb = 0;
                    memcpy(&wa, a, 2);
                    if (form == DV_FORM_VBIN)
                        memcpy(&wb, u + ref_addr(B_S1, E, s, bk[2], rp[2], r, e), 2);
                    const uint16_t w = c->op == DV_OP_vand ? (uint16_t)(wa & wb)
                                     : c->op == DV_OP_vor  ? (uint16_t)(wa | wb) : (uint16_t)~wa;
                    memcpy(d, &w, 2);
                    continue;
                }
                const double x = sr_rld(c->dt, a);
                const double y = form == DV_FORM_VBIN ? sr_rld(c->dt, u + ref_addr(B_S1, E, s, bk[2], rp[2], r, e))
                               : form == DV_FORM_VSCALAR ? ref_scalar(c->dt, c->scalar) : 0;
                if (sr_isfl(c->dt))
                    sr_rst_f(c->dt, d, ref_fop(c->op, (float)x, (float)y));
                else
                    sr_rst_i(c->dt, d, ref_iop(c->op, (int64_t)x, (int64_t)y));
            }
            break;
        case DV_FORM_VCONV:
            for (int e = 0; e < E; e++)
                if (ref_sel(c, E, r, e))
                    ref_conv(c->dt, c->st, c->round, u + ref_addr(B_S0, E, ss, bk[1], rp[1], r, e),
                             u + ref_addr(B_DST, E, s, bk[0], rp[0], r, e));
            break;
        case DV_FORM_VREDUCE: {
            if (c->op == DV_OP_vcadd_acc) { /* all repeats at once, below */
                r = R;
                break;
            }
            if (c->op == DV_OP_vcgadd || c->op == DV_OP_vcgmax || c->op == DV_OP_vcgmin || c->op == DV_OP_vcpadd) {
                const int g = c->op == DV_OP_vcpadd ? 2 : E / 8; /* a pair or a datablock per result */
                for (int j = 0; j < E / g; j++) {
                    double x;
                    const uint64_t at = (uint64_t)r * (uint64_t)c->dst_rep * (uint64_t)(E / g) + (uint64_t)j;
                    if (ref_tree(c, u, E, r, j * g, g, &x))
                        sr_rst_f(c->dt, u + B_DST + at * (uint64_t)s, (float)x);
                }
                break;
            }
            float acc = 0;
            double best = 0;
            int bi = -1;
            for (int e = 0; e < E; e++) {
                if (!ref_sel(c, E, r, e))
                    continue;
                const double x = sr_rld(c->dt, u + ref_addr(B_S0, E, s, bk[1], rp[1], r, e));
                acc += (float)x;
                nsel++;
                if (bi < 0 || (c->op == DV_OP_vcmax ? x > best : x < best)) {
                    best = x;
                    bi = e;
                }
            }
            if (c->op == DV_OP_vcadd) {
                sr_rst_f(c->dt, u + B_DST + (uint64_t)r * (uint64_t)c->dst_rep * (uint64_t)s, acc);
            } else if (bi >= 0) {
                uint8_t *d = u + B_DST + 2 * (uint64_t)r * (uint64_t)c->dst_rep * (uint64_t)s;
                memcpy(d, u + ref_addr(B_S0, E, s, bk[1], rp[1], r, bi), (size_t)s);
                sr_rst_i(s == 2 ? DV_DT_U16 : DV_DT_U32, d + s, bi);
            }
            break;
        }
        case DV_FORM_VDUP:
            for (int e = 0; e < E; e++)
                if (ref_sel(c, E, r, e)) {
                    uint8_t *d = u + ref_addr(B_DST, E, s, bk[0], rp[0], r, e);
                    if (sr_isfl(c->dt))
                        sr_rst_f(c->dt, d, (float)ref_scalar(c->dt, c->scalar));
                    else
                        sr_rst_i(c->dt, d, (int64_t)ref_scalar(c->dt, c->scalar));
                }
            break;
        case DV_FORM_VCMP: {
            uint8_t *d = u + B_DST + (uint64_t)r * (uint64_t)(E / 8);
            memset(d, 0, (size_t)E / 8);
            for (int e = 0; e < E; e++)
                if (ref_sel(c, E, r, e) && ref_cmp(c->cmp, sr_rld(c->dt, u + ref_addr(B_S0, E, s, bk[1], rp[1], r, e)),
                                                    sr_rld(c->dt, u + ref_addr(B_S1, E, s, bk[2], rp[2], r, e))))
                    d[e / 8] |= (uint8_t)(1 << (e % 8));
            break;
        }
        case DV_FORM_VCMPS: {
            uint8_t *d = u + B_DST + (uint64_t)r * (uint64_t)(E / 8);
            memset(d, 0, (size_t)E / 8);
            for (int e = 0; e < E; e++)
                if (ref_sel(c, E, r, e) && ref_cmp(c->cmp, sr_rld(c->dt, u + ref_addr(B_S0, E, s, bk[1], rp[1], r, e)),
                                                    ref_scalar(c->dt, c->scalar)))
                    d[e / 8] |= (uint8_t)(1 << (e % 8));
            break;
        }
        case DV_FORM_VSEL: {
            const uint8_t *m = u + B_SEL + (c->sel_fixed ? 0 : (uint64_t)r * (uint64_t)(E / 8));
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
    if (c->op == DV_OP_vcadd_acc && R > 0) { /* per-repeat f32 sums, added in repeat order, one rounding */
        float total = 0;
        for (int r = 0; r < R; r++) {
            float acc = 0;
            for (int e = 0; e < E; e++)
                if (ref_sel(c, E, r, e))
                    acc += (float)sr_rld(c->dt, u + ref_addr(B_S0, E, s, bk[1], rp[1], r, e));
            total += acc;
        }
        sr_rst_f(c->dt, u + B_DST, total);
    }
}

/* Typed random data in the first 128 KB of every operand region (the largest case needs 104 KB),
 * random bytes elsewhere. */
enum { REGION_USED = 128 << 10 };
static void fill_ub(sr_mem_t *t, int dt, int kind, bool nan_ok)
{
    const unsigned s = sr_sz(dt);
    uint8_t *ub = t->buf[DV_SPACE_UB];
    static const uint64_t bases[] = {B_DST, B_S0, B_S1, B_SEL};
    sr_fill_random(ub, UB_SIZE);
    for (int r = 0; r < 4; r++)
        for (uint64_t i = bases[r]; i + s <= bases[r] + REGION_USED; i += s)
            sr_rst_bits(dt, ub + i, sr_gen_elem(dt, kind, nan_ok));
    /* src1 often equals src0 at the same offset, so eq/ne and ties are exercised */
    for (uint64_t i = 0; i + s <= REGION_USED; i += s)
        if (sr_rndn(3) == 0)
            memcpy(ub + B_S1 + i, ub + B_S0 + i, s);
}

static dv_insn_t vcase_insn(const vcase_t *c)
{
    dv_insn_t in;
    const dv_form_t form = dv_op_spec(c->op)->form;
    dv_insn_init(&in, c->op);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
    sr_fset(&in, "repeat", c->repeat);
    switch (form) {
    case DV_FORM_VBIN:
    case DV_FORM_VCMP:
    case DV_FORM_VSEL:
        sr_fsetu(&in, "src0", DV_ADDR(DV_SPACE_UB, B_S0));
        sr_fsetu(&in, "src1", DV_ADDR(DV_SPACE_UB, B_S1));
        if (form != DV_FORM_VCMP) {
            sr_fset(&in, "dst_blk", c->blk[0]);
            sr_fset(&in, "dst_rep", c->rep[0]);
        } else {
            sr_fset(&in, "cmp", c->cmp);
        }
        if (form == DV_FORM_VSEL) {
            sr_fsetu(&in, "sel", DV_ADDR(DV_SPACE_UB, B_SEL));
            sr_fset(&in, "sel_step", !c->sel_fixed);
        }
        sr_fset(&in, "src0_blk", c->blk[1]);
        sr_fset(&in, "src0_rep", c->rep[1]);
        sr_fset(&in, "src1_blk", c->blk[2]);
        sr_fset(&in, "src1_rep", c->rep[2]);
        break;
    case DV_FORM_VDUP:
        sr_fset(&in, "dst_blk", c->blk[0]);
        sr_fset(&in, "dst_rep", c->rep[0]);
        break;
    case DV_FORM_VCMPS:
        sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, B_S0));
        sr_fset(&in, "cmp", c->cmp);
        sr_fset(&in, "src_blk", c->blk[1]);
        sr_fset(&in, "src_rep", c->rep[1]);
        break;
    case DV_FORM_VREDUCE:
        sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, B_S0));
        sr_fset(&in, "dst_rep", c->dst_rep);
        sr_fset(&in, "src_blk", c->blk[1]);
        sr_fset(&in, "src_rep", c->rep[1]);
        break;
    default:
        sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, B_S0));
        sr_fset(&in, "dst_blk", c->blk[0]);
        sr_fset(&in, "dst_rep", c->rep[0]);
        sr_fset(&in, "src_blk", c->blk[1]);
        sr_fset(&in, "src_rep", c->rep[1]);
        break;
    }
    if (form == DV_FORM_VCONV) {
        sr_fset(&in, "dst_type", c->dt);
        sr_fset(&in, "src_type", c->st);
        sr_fset(&in, "round", c->round);
    } else {
        sr_fset(&in, "dtype", c->dt);
    }
    if (form == DV_FORM_VSCALAR || form == DV_FORM_VDUP || form == DV_FORM_VCMPS)
        sr_fsetd(&in, "scalar", c->scalar);
    return in;
}

/* Run one case on random data and compare every byte of every memory with the reference. */
static void vcase_run(vcase_t *c, int kind)
{
    sr_mem_t got, want;
    sr_tmem_alloc(&got, false); /* only UB matters; the other memories just must not change */
    const dv_form_t form = dv_op_spec(c->op)->form;
    fill_ub(&got, form == DV_FORM_VCONV ? c->st : c->dt, kind, form == DV_FORM_VCONV && !sr_isfl(c->dt));
    if (c->op == DV_OP_vln || c->op == DV_OP_vsqrt || c->op == DV_OP_vrsqrt)
        for (uint64_t i = sr_sz(c->dt) - 1; i < UB_SIZE; i += sr_sz(c->dt))
            got.buf[DV_SPACE_UB][i] &= 0x7f;
    sr_tmem_clone(&want, &got);
    const dv_insn_t in = vcase_insn(c);
    sr_exec_ok(&in, &c->vs, &got);
    ref_vec(c, want.buf[DV_SPACE_UB]);
    char what[200];
    snprintf(what, sizeof what, "%s %s<-%s rep %d blk %d/%d/%d rep %d/%d/%d mask %s %llx:%llx round %d cmp %d",
             dv_op_spec(c->op)->mnemonic, dv_dtype_name((dv_dtype_t)c->dt), dv_dtype_name((dv_dtype_t)c->st), c->repeat,
             c->blk[0], c->blk[1], c->blk[2], c->rep[0], c->rep[1], c->rep[2], c->vs.count_mode ? "count" : "bits",
             (unsigned long long)c->vs.hi, (unsigned long long)c->vs.lo, c->round, c->cmp);
    sr_expect_same(&got, &want, what);
    sr_tmem_free(&got);
    sr_tmem_free(&want);
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
        c->vs.hi = sr_rnd();
        c->vs.lo = sr_rnd();
        break;
    case 2: /* random strides, including 0, random mask */
        c->repeat = 7;
        for (int i = 0; i < 3; i++) {
            c->blk[i] = sr_rndn(4) == 0 ? 0 : (int)sr_rndn(256);
            c->rep[i] = sr_rndn(4) == 0 ? 0 : (int)sr_rndn(256);
        }
        c->vs.hi = sr_rnd() & sr_rnd();
        c->vs.lo = sr_rnd() | sr_rnd();
        c->dst_rep = (int)sr_rndn(4);
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
        c->vs.lo = sr_rnd();
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
            vcase_config(&c, k, 256 / (int)sr_sz(dt));
            vcase_run(&c, kind);
        }
    }
}

START_TEST(test_semantics_vbin)
{
    sr_seed(1);
    const dv_op_t ops[] = {DV_OP_vadd, DV_OP_vsub,     DV_OP_vmul,     DV_OP_vdiv, DV_OP_vmax,  DV_OP_vmin,
                           DV_OP_vand, DV_OP_vor,      DV_OP_vaddrelu, DV_OP_vsubrelu, DV_OP_vmla, DV_OP_vmadd,
                           DV_OP_vmaddrelu};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        vop_all(ops[i], D_NORMAL, 0);
}
END_TEST

START_TEST(test_semantics_vscalar)
{
    sr_seed(2);
    vop_all(DV_OP_vadds, D_NORMAL, 1.3);
    vop_all(DV_OP_vmuls, D_NORMAL, -2.7);
    vop_all(DV_OP_vmaxs, D_NORMAL, 0.3);
    vop_all(DV_OP_vadds, D_NORMAL, 100000.75); /* saturates for s16 */
    vop_all(DV_OP_vmuls, D_NORMAL, -77.9);
    vop_all(DV_OP_vmins, D_NORMAL, 0.3);
    vop_all(DV_OP_vmins, D_NORMAL, -100000.75); /* saturates for s16 */
    vop_all(DV_OP_vlrelu, D_NORMAL, 0.01);
    vop_all(DV_OP_vlrelu, D_NORMAL, -1.5);
    vop_all(DV_OP_vaxpy, D_NORMAL, -2.7);
    vop_all(DV_OP_vaxpy, D_SMALL, 0.5);
    /* shifts: within the width, at it, past it */
    const double counts[] = {0, 1, 5, 15, 16, 17, 31, 32};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        vop_all(DV_OP_vshl, D_NORMAL, counts[i]);
        vop_all(DV_OP_vshr, D_NORMAL, counts[i]);
    }
}
END_TEST

START_TEST(test_semantics_vunary)
{
    sr_seed(3);
    const dv_op_t ops[] = {DV_OP_vexp, DV_OP_vln, DV_OP_vsqrt, DV_OP_vrsqrt, DV_OP_vrec,
                           DV_OP_vabs, DV_OP_vrelu, DV_OP_vcopy, DV_OP_vnot};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        vop_all(ops[i], D_NORMAL, 0);
}
END_TEST

START_TEST(test_semantics_vconv)
{
    sr_seed(4);
    static const int pairs[][2] = {
        {DV_DT_F32, DV_DT_F16}, {DV_DT_F16, DV_DT_F32}, {DV_DT_F32, DV_DT_BF16}, {DV_DT_BF16, DV_DT_F32},
        {DV_DT_F32, DV_DT_S32}, {DV_DT_S32, DV_DT_F32}, {DV_DT_F16, DV_DT_S32}, {DV_DT_F16, DV_DT_S16},
        {DV_DT_S16, DV_DT_F16}, {DV_DT_F16, DV_DT_S8},  {DV_DT_S8, DV_DT_F16},  {DV_DT_F16, DV_DT_U8},
        {DV_DT_U8, DV_DT_F16},  {DV_DT_S16, DV_DT_F32}, {DV_DT_BF16, DV_DT_S32}, {DV_DT_F32, DV_DT_S16},
        {DV_DT_F32, DV_DT_F32}};
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
    sr_seed(5);
    vop_all(DV_OP_vcadd, D_NORMAL, 0);
    vop_all(DV_OP_vcmax, D_SMALL, 0);
    vop_all(DV_OP_vcmin, D_SMALL, 0);
    vop_all(DV_OP_vcmax, D_NORMAL, 0);
    vop_all(DV_OP_vcmin, D_NORMAL, 0);
    vop_all(DV_OP_vcadd_acc, D_NORMAL, 0);
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

/* The group reductions: every datablock (vcgadd, vcgmax, vcgmin) or pair (vcpadd) of a repeat reduced
 * to one result, a group with nothing selected not written; sums in a pairwise tree rounded per step
 * (a mask that leaves out single elements and whole groups, and the overflow of f16 partial sums). */
START_TEST(test_semantics_vreduce_groups)
{
    sr_seed(15);
    const dv_op_t ops[] = {DV_OP_vcgadd, DV_OP_vcgmax, DV_OP_vcgmin, DV_OP_vcpadd};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        vop_all(ops[i], D_NORMAL, 0);
        vop_all(ops[i], D_SMALL, 0);
    }
    /* hand-checked: f16 block [60000, 60000, -30000, 100, 0...]: 60000+60000 = inf in the tree (no
     * saturation modelled), so the block sum is inf; a block left out keeps its old value */
    sr_mem_t m;
    sr_tmem_alloc(&m, false);
    uint8_t *ub = m.buf[DV_SPACE_UB];
    memset(ub, 0, UB_SIZE);
    const double vals[4] = {60000, 60000, -30000, 100};
    for (int k = 0; k < 4; k++)
        sr_rst_f(DV_DT_F16, ub + B_S0 + 2 * k, (float)vals[k]);
    for (int k = 0; k < 16; k++)
        sr_rst_f(DV_DT_F16, ub + B_S0 + 32 + 2 * k, (float)(k + 1));
    sr_rst_f(DV_DT_F16, ub + B_DST + 4, 7.0f);
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_vcgadd);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, B_S0));
    sr_fset(&in, "dtype", DV_DT_F16);
    sr_fset(&in, "repeat", 1);
    dv_vstate_t vs;
    dv_vstate_reset(&vs);
    vs.hi = 0;
    vs.lo = 0xffffffffull; /* blocks 0 and 1 */
    sr_exec_ok(&in, &vs, &m);
    ck_assert(isinf(sr_rld(DV_DT_F16, ub + B_DST)));
    ck_assert_double_eq(sr_rld(DV_DT_F16, ub + B_DST + 2), 136.0); /* 1 + ... + 16 */
    ck_assert_double_eq(sr_rld(DV_DT_F16, ub + B_DST + 4), 7.0);
    /* vcpadd: a pair with one element selected gives that element */
    dv_insn_init(&in, DV_OP_vcpadd);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, B_S0 + 32));
    sr_fset(&in, "dtype", DV_DT_F16);
    sr_fset(&in, "repeat", 1);
    vs.lo = 0x6; /* elements 1 and 2: pair 0 -> 2, pair 1 -> 3, pairs 2.. not written */
    sr_exec_ok(&in, &vs, &m);
    ck_assert_double_eq(sr_rld(DV_DT_F16, ub + B_DST), 2.0);
    ck_assert_double_eq(sr_rld(DV_DT_F16, ub + B_DST + 2), 3.0);
    ck_assert_double_eq(sr_rld(DV_DT_F16, ub + B_DST + 4), 7.0);
    sr_tmem_free(&m);
    /* the results' footprint and geometry: vcgadd f32, 3 repeats, dst_rep 2, only datablock 1 selected:
     * results at (16r + 1)*4 bytes; vcpadd f16: 128 bytes of results per repeat */
    dv_insn_init(&in, DV_OP_vcgadd);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0x100));
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 0x1000));
    sr_fset(&in, "dtype", DV_DT_F32);
    sr_fset(&in, "repeat", 3);
    sr_fset(&in, "dst_rep", 2);
    vs.lo = 0xff00;
    dv_range_t rg[DV_MAX_RANGES];
    ck_assert_int_eq(dv_footprint(&in, &vs, rg), 2);
    ck_assert_uint_eq(rg[0].lo, 0x100 + 4);
    ck_assert_uint_eq(rg[0].hi, 0x100 + 2 * 64 + 8);
    ck_assert(rg[0].write);
    dv_vgeom_t g;
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), 2);
    ck_assert_uint_eq(g.ops[0].blk_bytes, 4);
    ck_assert_uint_eq(g.ops[0].blk_stride, 4);
    ck_assert_uint_eq(g.ops[0].rep_stride, 64);
    vs.lo = 0;
    ck_assert_int_eq(dv_footprint(&in, &vs, rg), 0);
    dv_insn_init(&in, DV_OP_vcpadd);
    sr_fset(&in, "dtype", DV_DT_F16);
    sr_fset(&in, "repeat", 2);
    dv_vstate_reset(&vs);
    ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), 2);
    ck_assert_uint_eq(g.ops[0].blk_bytes, 16);
    ck_assert_uint_eq(g.ops[0].blk_stride, 16);
    ck_assert_uint_eq(g.ops[0].rep_stride, 128);
}
END_TEST

START_TEST(test_semantics_vdup)
{
    sr_seed(6);
    vop_all(DV_OP_vdup, D_NORMAL, 3.14159);
    vop_all(DV_OP_vdup, D_NORMAL, -70000.9);
}
END_TEST

START_TEST(test_semantics_vcmp)
{
    sr_seed(7);
    for (int cmp = 0; cmp < 6; cmp++)
        for (int dt = 0; dt < DV_DT_COUNT; dt++) {
            if (!(dv_op_spec(DV_OP_vcmp)->dtypes & (1u << dt)))
                continue;
            for (int k = 0; k < NCFG; k++) {
                vcase_t c = {.op = DV_OP_vcmp, .dt = dt, .st = dt, .cmp = cmp};
                vcase_config(&c, k, 256 / (int)sr_sz(dt));
                if (k != 2) /* same strides for both sources so equal values meet */
                    c.blk[2] = c.blk[1], c.rep[2] = c.rep[1];
                vcase_run(&c, k % 2 ? D_SMALL : D_NORMAL);
            }
        }
}
END_TEST

/* vcmps: src CMP scalar, every mode and dtype, the scalar among the values (D_SMALL) or not. */
START_TEST(test_semantics_vcmps)
{
    sr_seed(17);
    for (int cmp = 0; cmp < 6; cmp++)
        for (int dt = 0; dt < DV_DT_COUNT; dt++) {
            if (!(dv_op_spec(DV_OP_vcmps)->dtypes & (1u << dt)))
                continue;
            for (int k = 0; k < NCFG; k++) {
                vcase_t c = {.op = DV_OP_vcmps, .dt = dt, .st = dt, .cmp = cmp, .scalar = k % 2 ? 1.0 : 0.37};
                vcase_config(&c, k, 256 / (int)sr_sz(dt));
                vcase_run(&c, k % 2 ? D_SMALL : D_NORMAL);
            }
        }
}
END_TEST

/* vgather: element e of repeat r (selected) = the element at src + base + offset[rE + e]; vgatherb:
 * datablock i of repeat r = the 32 bytes at src + offset[8r + i]; an offset outside src_len or not
 * aligned is an error naming it, before anything is written. */
START_TEST(test_semantics_gather)
{
    sr_seed(18);
    const int dts[] = {DV_DT_F16, DV_DT_F32, DV_DT_U16, DV_DT_S32};
    for (size_t di = 0; di < sizeof dts / sizeof dts[0]; di++) {
        const int dt = dts[di], s = (int)sr_sz(dt), E = 256 / s;
        for (int k = 0; k < NCFG; k++) {
            vcase_t c = {.op = DV_OP_vgather, .dt = dt, .st = dt};
            vcase_config(&c, k, E);
            const int R = ref_repeats(&c, E), rep = c.rep[0] > 255 ? 255 : c.rep[0];
            const uint64_t len = 8192, base = (uint64_t)s * sr_rndn(8);
            sr_mem_t got, want;
            sr_tmem_alloc(&got, true);
            uint8_t *ub = got.buf[DV_SPACE_UB];
            for (int i = 0; i < 255 * E && (uint64_t)(i + 1) * 4 <= 0x40000 - 0x20000; i++) {
                const uint32_t off = (uint32_t)(s * sr_rndn((uint32_t)((len - base) / (uint64_t)s)));
                memcpy(ub + B_S1 + 4 * (uint64_t)i, &off, 4);
            }
            sr_tmem_clone(&want, &got);
            dv_insn_t in;
            dv_insn_init(&in, DV_OP_vgather);
            sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
            sr_fsetu(&in, "offset", DV_ADDR(DV_SPACE_UB, B_S1));
            sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, B_S0));
            sr_fset(&in, "src_len", (int64_t)len);
            sr_fset(&in, "base", (int64_t)base);
            sr_fset(&in, "dtype", dt);
            sr_fset(&in, "repeat", c.repeat);
            sr_fset(&in, "dst_rep", rep);
            sr_exec_ok(&in, &c.vs, &got);
            uint8_t *u = want.buf[DV_SPACE_UB];
            for (int r = 0; r < R; r++)
                for (int e = 0; e < E; e++)
                    if (ref_sel(&c, E, r, e)) {
                        uint32_t off;
                        memcpy(&off, u + B_S1 + 4 * ((uint64_t)r * (uint64_t)E + (uint64_t)e), 4);
                        memcpy(u + B_DST + (uint64_t)r * (uint64_t)rep * 32 + (uint64_t)e * (uint64_t)s,
                               u + B_S0 + base + off, (size_t)s);
                    }
            char what[80];
            snprintf(what, sizeof what, "vgather %s config %d", dv_dtype_name((dv_dtype_t)dt), k);
            sr_expect_same(&got, &want, what);
            sr_tmem_free(&got);
            sr_tmem_free(&want);
        }
    }
    /* vgatherb: 3 repeats, dst_blk 2, dst_rep 20 */
    sr_mem_t got, want;
    sr_tmem_alloc(&got, true);
    uint8_t *ub = got.buf[DV_SPACE_UB];
    for (int i = 0; i < 24; i++) {
        const uint32_t off = 32 * sr_rndn(64);
        memcpy(ub + B_S1 + 4 * i, &off, 4);
    }
    sr_tmem_clone(&want, &got);
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_vgatherb);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
    sr_fsetu(&in, "offset", DV_ADDR(DV_SPACE_UB, B_S1));
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, B_S0));
    sr_fset(&in, "src_len", 2048);
    sr_fset(&in, "dtype", DV_DT_U16);
    sr_fset(&in, "repeat", 3);
    sr_fset(&in, "dst_blk", 2);
    sr_fset(&in, "dst_rep", 20);
    dv_vstate_t vs;
    dv_vstate_reset(&vs);
    vs.lo = 1; /* the mask does not apply */
    sr_exec_ok(&in, &vs, &got);
    uint8_t *u = want.buf[DV_SPACE_UB];
    for (int r = 0; r < 3; r++)
        for (int i = 0; i < 8; i++) {
            uint32_t off;
            memcpy(&off, u + B_S1 + 4 * (8 * r + i), 4);
            memcpy(u + B_DST + 20 * 32 * r + 64 * i, u + B_S0 + off, 32);
        }
    sr_expect_same(&got, &want, "vgatherb");
    /* errors: an offset past src_len, a misaligned one; nothing written */
    const uint32_t bad = 2048;
    memcpy(ub + B_S1 + 4 * 5, &bad, 4);
    sr_tmem_free(&want);
    sr_tmem_clone(&want, &got);
    dv_error_t err = {0};
    ck_assert_int_eq(dv_exec(&in, &vs, &got.m, &err), DV_ERR_RANGE);
    ck_assert_str_eq(err.msg, "vgatherb: offset 2048 (element 5 of the offsets) reads bytes [2048, 2080) of the "
                              "source: past its src_len");
    sr_expect_same(&got, &want, "vgatherb error");
    dv_insn_init(&in, DV_OP_vgather);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
    sr_fsetu(&in, "offset", DV_ADDR(DV_SPACE_UB, B_S1));
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, B_S0));
    sr_fset(&in, "src_len", 4096);
    sr_fset(&in, "base", 2);
    sr_fset(&in, "dtype", DV_DT_F32);
    sr_fset(&in, "repeat", 1);
    dv_vstate_reset(&vs);
    vs.lo = 1ull << 5;
    ck_assert_int_eq(dv_exec(&in, &vs, &got.m, &err), DV_ERR_RANGE);
    ck_assert_str_eq(err.msg, "vgather: offset 2048 (element 5 of the offsets) reads bytes [2050, 2054) of the "
                              "source: not aligned to the element");
    sr_expect_same(&got, &want, "vgather error");
    sr_tmem_free(&got);
    sr_tmem_free(&want);
}
END_TEST

/* A record's score (f16 or f32 in its low bytes). */
static double rec_key(int dt, const uint8_t *r) { return sr_rld(dt, r); }

/* vbitsort: each group of 32 (score, index) pairs as 8-byte records by score descending, equal scores
 * in source order (selection of the first greatest remaining); f16 records hold 2 zero bytes. */
START_TEST(test_semantics_vbitsort)
{
    sr_seed(19);
    const int dts[] = {DV_DT_F16, DV_DT_F32};
    for (size_t di = 0; di < 2; di++)
        for (int kind = 0; kind < 2; kind++) {
            const int dt = dts[di], s = (int)sr_sz(dt), R = kind ? 7 : 255;
            sr_mem_t got, want;
            sr_tmem_alloc(&got, true);
            uint8_t *ub = got.buf[DV_SPACE_UB];
            for (int i = 0; i < 32 * R; i++) {
                const uint64_t bits = sr_gen_elem(dt, kind ? D_SMALL : D_NORMAL, false);
                sr_rst_bits(dt, ub + B_S0 + (uint64_t)i * (uint64_t)s, bits);
            }
            sr_tmem_clone(&want, &got);
            dv_insn_t in;
            dv_insn_init(&in, DV_OP_vbitsort);
            sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
            sr_fsetu(&in, "src0", DV_ADDR(DV_SPACE_UB, B_S0));
            sr_fsetu(&in, "src1", DV_ADDR(DV_SPACE_UB, B_S1));
            sr_fset(&in, "dtype", dt);
            sr_fset(&in, "repeat", R);
            dv_vstate_t vs;
            dv_vstate_reset(&vs);
            vs.lo = 3; /* the mask does not apply */
            sr_exec_ok(&in, &vs, &got);
            uint8_t *u = want.buf[DV_SPACE_UB];
            for (int r = 0; r < R; r++) {
                bool used[32] = {false};
                const uint8_t *sc = u + B_S0 + (uint64_t)(32 * r) * (uint64_t)s;
                for (int o = 0; o < 32; o++) {
                    int pick = -1;
                    for (int i = 0; i < 32; i++)
                        if (!used[i] && (pick < 0 || sr_rld(dt, sc + i * s) > sr_rld(dt, sc + pick * s)))
                            pick = i;
                    used[pick] = true;
                    uint8_t *d = u + B_DST + (uint64_t)(256 * r + 8 * o);
                    memset(d, 0, 8);
                    memcpy(d, u + B_S0 + (uint64_t)(32 * r + pick) * (uint64_t)s, (size_t)s);
                    memcpy(d + 4, u + B_S1 + (uint64_t)(32 * r + pick) * 4, 4);
                }
            }
            char what[48];
            snprintf(what, sizeof what, "vbitsort %s, %d repeats", dv_dtype_name((dv_dtype_t)dt), R);
            sr_expect_same(&got, &want, what);
            sr_tmem_free(&got);
            sr_tmem_free(&want);
        }
}
END_TEST

/* vmrgsort4: 2, 3 and 4 lists of given lengths (one of 0), sorted or not, over repeats, and the stop
 * when a list runs out: the greatest head first, the lower list on a tie. */
START_TEST(test_semantics_vmrgsort)
{
    sr_seed(20);
    const struct {
        int dt, lists, len[4], repeat, exhausted, kind;
    } cases[] = {
        {DV_DT_F32, 4, {32, 32, 32, 32}, 8, 0, D_NORMAL}, {DV_DT_F16, 4, {9, 40, 0, 17}, 3, 0, D_SMALL},
        {DV_DT_F32, 2, {100, 3, 77, 77}, 1, 0, D_SMALL},  {DV_DT_F16, 3, {30, 31, 5, 0}, 2, 0, D_NORMAL},
        {DV_DT_F32, 3, {20, 10, 30, 0}, 2, 1, D_NORMAL},  {DV_DT_F32, 4, {4095, 1, 2, 3}, 1, 0, D_NORMAL},
    };
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const int dt = cases[ci].dt, L = cases[ci].lists, R = cases[ci].repeat;
        int T = 0;
        for (int i = 0; i < L; i++)
            T += cases[ci].len[i];
        const uint64_t base[4] = {B_S0, B_S0 + 0x10000, B_S1, B_S1 + 0x10000};
        sr_mem_t got, want;
        sr_tmem_alloc(&got, true);
        uint8_t *ub = got.buf[DV_SPACE_UB];
        for (int i = 0; i < 4; i++) /* records whose scores descend within each list (some lists random) */
            for (int r = 0; r < R; r++) {
                double v = 1000;
                for (int k = 0; k < cases[ci].len[i]; k++) {
                    uint8_t *p = ub + base[i] + (uint64_t)(r * T + k) * 8;
                    if (ci % 2 == 0 || i != 1)
                        v -= (double)sr_rndn(cases[ci].kind == D_SMALL ? 2 : 50) / 8;
                    else
                        v = (double)sr_rndn(100);
                    sr_rst_f(dt, p, (float)v);
                }
            }
        sr_tmem_clone(&want, &got);
        dv_insn_t in;
        dv_insn_init(&in, DV_OP_vmrgsort4);
        sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, B_DST));
        static const char *const srcs[] = {"src0", "src1", "src2", "src3"};
        static const char *const lens[] = {"len0", "len1", "len2", "len3"};
        for (int i = 0; i < 4; i++) {
            sr_fsetu(&in, srcs[i], DV_ADDR(DV_SPACE_UB, base[i]));
            sr_fset(&in, lens[i], cases[ci].len[i]);
        }
        sr_fset(&in, "dtype", dt);
        sr_fset(&in, "lists", L);
        sr_fset(&in, "exhausted", cases[ci].exhausted);
        sr_fset(&in, "repeat", R);
        sr_exec_ok(&in, NULL, &got);
        uint8_t *u = want.buf[DV_SPACE_UB];
        for (int r = 0; r < R; r++) {
            int pos[4] = {0}, out = 0;
            bool done = false;
            while (!done) {
                int pick = -1;
                for (int i = 0; i < L; i++)
                    if (pos[i] < cases[ci].len[i] &&
                        (pick < 0 || rec_key(dt, u + base[i] + (uint64_t)(r * T + pos[i]) * 8) >
                                         rec_key(dt, u + base[pick] + (uint64_t)(r * T + pos[pick]) * 8)))
                        pick = i;
                if (pick < 0)
                    break;
                const uint8_t *from = u + base[pick] + (uint64_t)(r * T + pos[pick]) * 8;
                memcpy(u + B_DST + (uint64_t)(r * T + out++) * 8, from, 8);
                done = ++pos[pick] == cases[ci].len[pick] && cases[ci].exhausted;
            }
        }
        char what[48];
        snprintf(what, sizeof what, "vmrgsort4 case %zu", ci);
        sr_expect_same(&got, &want, what);
        sr_tmem_free(&got);
        sr_tmem_free(&want);
    }
}
END_TEST

START_TEST(test_semantics_vsel)
{
    sr_seed(8);
    vop_all(DV_OP_vsel, D_NORMAL, 0);
    /* sel_step 0 (the CMPMASK register): every repeat reads the chunk at sel */
    for (int dt = 0; dt < DV_DT_COUNT; dt++) {
        if (!(dv_op_spec(DV_OP_vsel)->dtypes & (1u << dt)))
            continue;
        for (int k = 0; k < NCFG; k++) {
            vcase_t c = {.op = DV_OP_vsel, .dt = dt, .st = dt, .sel_fixed = true};
            vcase_config(&c, k, 256 / (int)sr_sz(dt));
            vcase_run(&c, D_NORMAL);
        }
    }
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
    sr_seed(9);
    /* repeat, dst_blk, dst_rep, in place (src = dst) */
    const int shapes[][4] = {{1, 1, 8, 0}, {5, 1, 8, 0}, {4, 2, 16, 0}, {3, 0, 1, 0}, {6, 1, 0, 0},
                             {2, 3, 40, 0}, {0, 1, 8, 0}, {255, 1, 8, 0}, {3, 1, 8, 1}};
    int cases = 0;
    for (int dt = 0; dt < DV_DT_COUNT; dt++) {
        if (!(dv_op_spec(DV_OP_vbrcb)->dtypes & (1u << dt)))
            continue;
        for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
            const int *p = shapes[k];
            sr_mem_t got, want;
            sr_tmem_init(&got);
            sr_tmem_clone(&want, &got);
            const uint64_t doff = B_DST + 32 * sr_rndn(8), soff = p[3] ? doff : B_S0 + 32 * sr_rndn(8), s = sr_sz(dt);
            dv_insn_t in;
            dv_insn_init(&in, DV_OP_vbrcb);
            sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, doff));
            sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, soff));
            sr_fset(&in, "dtype", dt);
            sr_fset(&in, "repeat", p[0]);
            sr_fset(&in, "dst_blk", p[1]);
            sr_fset(&in, "dst_rep", p[2]);
            const dv_vstate_t vs = odd_mask((int)k);
            sr_exec_ok(&in, &vs, &got);
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
            sr_expect_same(&got, &want, what);
            sr_tmem_free(&got);
            sr_tmem_free(&want);
            cases++;
        }
    }
    ck_assert_int_eq(cases, 7 * 9); /* four 16-bit and three 32-bit types */
}
END_TEST

/* vtranspose (§3.3): dst[16j + i] = src[16i + j], 2-byte elements, including adjacent operands. */
START_TEST(test_semantics_vtranspose)
{
    sr_seed(10);
    int cases = 0;
    for (int dt = 0; dt < DV_DT_COUNT; dt++) {
        if (!(dv_op_spec(DV_OP_vtranspose)->dtypes & (1u << dt)))
            continue;
        ck_assert_uint_eq(sr_sz(dt), 2);
        for (int k = 0; k < 4; k++) {
            sr_mem_t got, want;
            sr_tmem_init(&got);
            sr_tmem_clone(&want, &got);
            uint64_t doff = B_DST + 32 * sr_rndn(64), soff = B_S0 + 32 * sr_rndn(64);
            if (k == 2)
                soff = doff + 512;
            if (k == 3)
                doff = soff + 512;
            dv_insn_t in;
            dv_insn_init(&in, DV_OP_vtranspose);
            sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, doff));
            sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, soff));
            sr_fset(&in, "dtype", dt);
            const dv_vstate_t vs = odd_mask(k);
            sr_exec_ok(&in, &vs, &got);
            uint8_t *ub = want.buf[DV_SPACE_UB];
            for (int i = 0; i < 16; i++)
                for (int j = 0; j < 16; j++)
                    memcpy(ub + doff + (uint64_t)(j * 16 + i) * 2, ub + soff + (uint64_t)(i * 16 + j) * 2, 2);
            char what[64];
            snprintf(what, sizeof what, "vtranspose %s case %d", dv_dtype_name((dv_dtype_t)dt), k);
            sr_expect_same(&got, &want, what);
            sr_tmem_free(&got);
            sr_tmem_free(&want);
            cases++;
        }
    }
    ck_assert_int_eq(cases, 4 * 4);
}
END_TEST

/* copy_ubuf_to_ubuf: burst i copies len*32 bytes from src + i*(len+src_gap)*32 to
 * dst + i*(len+dst_gap)*32, in burst order, the mask ignored; timed as ceil(bytes/256) repeats. */
START_TEST(test_semantics_copy_ubuf_to_ubuf)
{
    sr_seed(11);
    /* nburst, len, src_gap, dst_gap, overlapping (dst = src + 32) */
    const int shapes[][5] = {{1, 1, 0, 0, 0}, {1, 64, 0, 0, 0}, {4, 3, 1, 2, 0}, {7, 2, 0, 5, 0},
                             {3, 9, 4, 0, 0}, {2, 8, 0, 0, 1}, {100, 1, 1, 1, 0}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        const int *p = shapes[k];
        sr_mem_t got, want;
        sr_tmem_init(&got);
        sr_tmem_clone(&want, &got);
        const uint64_t soff = B_S0 + 32 * sr_rndn(16), doff = p[4] ? soff + 32 : B_DST + 32 * sr_rndn(16);
        dv_insn_t in;
        dv_insn_init(&in, DV_OP_copy_ubuf_to_ubuf);
        sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, doff));
        sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, soff));
        sr_fset(&in, "nburst", p[0]);
        sr_fset(&in, "len", p[1]);
        sr_fset(&in, "src_gap", p[2]);
        sr_fset(&in, "dst_gap", p[3]);
        const dv_vstate_t vs = odd_mask((int)k);
        sr_exec_ok(&in, &vs, &got);
        uint8_t *ub = want.buf[DV_SPACE_UB];
        for (uint64_t i = 0; i < (uint64_t)p[0]; i++)
            memmove(ub + doff + i * (uint64_t)(p[1] + p[3]) * 32, ub + soff + i * (uint64_t)(p[1] + p[2]) * 32,
                    (size_t)p[1] * 32);
        char what[64];
        snprintf(what, sizeof what, "copy_ubuf_to_ubuf shape %zu", k);
        sr_expect_same(&got, &want, what);
        dv_vgeom_t g;
        ck_assert_int_eq(dv_vec_geometry(&in, &vs, &g), 0);
        ck_assert_uint_eq(g.repeats, ((uint64_t)p[0] * (uint64_t)p[1] * 32 + 255) / 256);
        sr_tmem_free(&got);
        sr_tmem_free(&want);
    }
}
END_TEST

/* vcmax / vcmin's order (Order_t): value and index in either order, or one of them alone; with one
 * result per repeat the results of consecutive repeats are one element apart (dst_rep 1). */
START_TEST(test_semantics_vcmax_order)
{
    for (int order = 0; order < 4; order++)
        for (int mn = 0; mn < 2; mn++) {
            sr_mem_t got;
            sr_tmem_init(&got);
            float *src = (float *)(got.buf[DV_SPACE_UB] + 1024);
            /* repeat 0: max 90 at 3, min -7 at 40; repeat 1: max 5 at 70, min -50 at 100 */
            for (int e = 0; e < 128; e++)
                src[e] = e == 3 ? 90.0f : e == 40 ? -7.0f : e == 70 ? 5.0f : e == 100 ? -50.0f : e < 64 ? 1.0f : 0.5f;
            uint8_t *d = got.buf[DV_SPACE_UB];
            memset(d, 0xee, 64);
            dv_insn_t in;
            dv_insn_init(&in, mn ? DV_OP_vcmin : DV_OP_vcmax);
            sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0));
            sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 1024));
            sr_fset(&in, "dtype", DV_DT_F32);
            sr_fset(&in, "repeat", 2);
            sr_fset(&in, "order", order);
            dv_vstate_t vs;
            dv_vstate_reset(&vs);
            sr_exec_ok(&in, &vs, &got);
            const float val[2] = {mn ? -7.0f : 90.0f, mn ? -50.0f : 5.0f};
            const uint32_t idx[2] = {mn ? 40u : 3u, mn ? 36u : 6u};
            const int per = order < 2 ? 2 : 1;
            for (int r = 0; r < 2; r++) {
                float v;
                uint32_t i;
                const uint8_t *slot = d + r * per * 4;
                /* where the value and the index are in the slot (-1: absent) */
                const int voff = order == 0 || order == 2 ? 0 : order == 1 ? 4 : -1;
                const int ioff = order == 0 ? 4 : order == 2 ? -1 : 0;
                if (voff >= 0) {
                    memcpy(&v, slot + voff, 4);
                    ck_assert_float_eq(v, val[r]);
                }
                if (ioff >= 0) {
                    memcpy(&i, slot + ioff, 4);
                    ck_assert_uint_eq(i, idx[r]);
                }
            }
            ck_assert_uint_eq(d[2 * per * 4], 0xee); /* nothing past the two results */
            sr_tmem_free(&got);
        }
    /* order is for vcmax and vcmin only */
    dv_insn_t in;
    dv_error_t err;
    dv_insn_init(&in, DV_OP_vcadd);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0));
    sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_UB, 1024));
    sr_fset(&in, "dtype", DV_DT_F32);
    sr_fset(&in, "repeat", 1);
    sr_fset(&in, "order", 2);
    ck_assert_int_ne(dv_insn_check(&in, &err), DV_OK);
    ck_assert_ptr_nonnull(strstr(err.msg, "order is for vcmax and vcmin only"));
}
END_TEST

/* vreducev2's RSVD_CNT: the fixed patterns count without memory (a timing-only run), a pattern tensor
 * by its bits; count mode takes the mask's count per repeat. */
START_TEST(test_semantics_vreducev2_count)
{
    dv_insn_t in;
    dv_insn_init(&in, DV_OP_vreducev2);
    sr_fsetu(&in, "dst", DV_ADDR(DV_SPACE_UB, 0));
    sr_fsetu(&in, "src0", DV_ADDR(DV_SPACE_UB, 4096));
    sr_fsetu(&in, "src1", DV_ADDR(DV_SPACE_UB, 8192));
    sr_fset(&in, "dtype", DV_DT_F32);
    sr_fset(&in, "repeat", 3);
    dv_vstate_t vs;
    dv_vstate_reset(&vs);
    const uint64_t per_pattern[8] = {0, 32, 32, 16, 16, 16, 16, 64}; /* of a repeat's 64 elements */
    for (int p = 1; p <= 7; p++) {
        sr_fset(&in, "pattern", p);
        ck_assert_uint_eq(dv_rsvd_count(&in, &vs, NULL), 3 * per_pattern[p]);
    }
    vs.count_mode = true; /* 70 elements per repeat: 35 odd ones */
    vs.lo = 70;
    sr_fset(&in, "pattern", 2);
    ck_assert_uint_eq(dv_rsvd_count(&in, &vs, NULL), 3 * 35);
    dv_vstate_reset(&vs);
    uint8_t ub[16384] = {0};
    for (int r = 0; r < 3; r++) /* a pattern tensor, 8 bytes a repeat (src1_rep 0: the same 8 bytes) */
        ub[8192 + r] = 0x81;
    sr_fset(&in, "pattern", 0);
    ck_assert_uint_eq(dv_rsvd_count(&in, &vs, ub), 3 * 6);
    ck_assert_uint_eq(dv_rsvd_count(&in, &vs, NULL), 0);
}
END_TEST

Suite *dv_semantics_vector_suite(void)
{
    Suite *s = suite_create("semantics_vector");
    TCase *tc = sr_tcase(s, "vector");
    tcase_add_test(tc, test_semantics_vbin);
    tcase_add_test(tc, test_semantics_vcmax_order);
    tcase_add_test(tc, test_semantics_vreducev2_count);
    tcase_add_test(tc, test_semantics_vscalar);
    tcase_add_test(tc, test_semantics_vunary);
    tcase_add_test(tc, test_semantics_vconv);
    tcase_add_test(tc, test_semantics_vreduce);
    tcase_add_test(tc, test_semantics_vreduce_groups);
    tcase_add_test(tc, test_semantics_vdup);
    tcase_add_test(tc, test_semantics_vcmp);
    tcase_add_test(tc, test_semantics_vcmps);
    tcase_add_test(tc, test_semantics_gather);
    tcase_add_test(tc, test_semantics_vbitsort);
    tcase_add_test(tc, test_semantics_vmrgsort);
    tcase_add_test(tc, test_semantics_vsel);
    tcase_add_test(tc, test_semantics_vbrcb);
    tcase_add_test(tc, test_semantics_vtranspose);
    tcase_add_test(tc, test_semantics_copy_ubuf_to_ubuf);
    return s;
}
