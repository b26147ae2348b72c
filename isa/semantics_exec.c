/* isa/semantics_exec.c - execution of the data-movement and cube forms (DMA, ND2NZ, load2d,
 * img2col, mmad, FixPipe, vbrcb, vtranspose) and dv_exec, which checks an instruction and runs it.
 * docs/SEMANTICS.md is the contract. */
#include "semantics_internal.h"

#include <stdio.h>
#include <stdlib.h>

/* ======================================================================== execution: the rest */

/* Pointer to an address, given that its footprint has been checked. */
static uint8_t *mem_at(dv_mem_t *m, uint64_t addr)
{
    const dv_space_t s = DV_ADDR_SPACE(addr);
    uint8_t *base = s == DV_SPACE_GM ? m->gm[DV_ADDR_ARG(addr)] : m->buf[s];
    return base + DV_ADDR_OFF(addr);
}

/* A GM write under set_atomic: each vs->atomic_dtype element of src combined into dst (floats in
 * float then rounded to the type, integers wrapping). */
static void atomic_combine(uint8_t *d, const uint8_t *s, uint64_t bytes, const dv_vstate_t *vs)
{
    const dv_dtype_t t = (dv_dtype_t)vs->atomic_dtype;
    const uint64_t sz = dv_dtype_size(t);
    const bool fl = dv_dtype_is_float(t);
    for (uint64_t o = 0; sz && o + sz <= bytes; o += sz) {
        if (fl) {
            const float a = dv_sem_ld_f(t, d + o), b = dv_sem_ld_f(t, s + o);
            dv_sem_st_f(t, d + o, vs->atomic == DV_ATOMIC_ADD ? a + b : vs->atomic == DV_ATOMIC_MAX ? (a > b ? a : b)
                                                                                            : (a < b ? a : b));
        } else {
            const int64_t a = dv_sem_ld_i(t, d + o), b = dv_sem_ld_i(t, s + o);
            const int64_t r = vs->atomic == DV_ATOMIC_ADD ? a + b : vs->atomic == DV_ATOMIC_MAX ? (a > b ? a : b)
                                                                                          : (a < b ? a : b);
            memcpy(d + o, &r, sz); /* little-endian: the low bytes */
        }
    }
}

static bool atomic_to(uint64_t dst, const dv_vstate_t *vs)
{
    return vs && vs->atomic != DV_ATOMIC_NONE && DV_ADDR_SPACE(dst) == DV_SPACE_GM;
}

/* DMA, DMAPAD and DMAPADIN: only the `len` bytes of each burst are written (DMAPAD leaves the UB bytes
 * up to the burst's 32 B boundary as they were), except that a padded DMAPADIN writes its pads and the
 * fill to the boundary with MOV_PAD_VAL's value, element by element. */
static void exec_dma(const dma_geom_t *g, const dv_vstate_t *vs, dv_mem_t *m)
{
    uint8_t *d = mem_at(m, g->dst);
    const uint8_t *s = mem_at(m, g->src);
    const bool atomic = atomic_to(g->dst, vs);
    for (uint64_t i = 0; i < g->nburst; i++)
        if (g->fill) {
            uint8_t *b = d + i * g->dst_stride;
            const uint64_t v = vs ? vs->pad_val : 0;
            for (uint64_t o = 0; o < g->fill; o++)
                b[o] = (uint8_t)(v >> (8 * (o % g->esize)));
            memmove(b + g->pre, s + i * g->src_stride, g->len);
        } else if (atomic)
            atomic_combine(d + i * g->dst_stride, s + i * g->src_stride, g->len, vs);
        else
            memmove(d + i * g->dst_stride, s + i * g->src_stride, g->len);
}

static void exec_nd2nz(const dv_insn_t *in, dv_mem_t *m)
{
    uint8_t *d = mem_at(m, FA(ND2NZ, dst));
    const uint8_t *s = mem_at(m, FA(ND2NZ, src));
    const uint64_t sz = dv_dtype_size(FT(ND2NZ, dtype)), C0 = 32 / sz;
    const uint64_t nd = FI(ND2NZ, nd_num), nv = FI(ND2NZ, n_value), dv = FI(ND2NZ, d_value), c1 = dv_ceil_div(dv, C0);
    const uint64_t snd = FI(ND2NZ, src_nd_stride), sd = FI(ND2NZ, src_d_stride);
    const uint64_t dnd = FI(ND2NZ, dst_nd_stride) * 32, dc0 = FI(ND2NZ, dst_c0_stride) * 32, dn = FI(ND2NZ, dst_n_stride) * 32;
    for (uint64_t j = 0; j < nd; j++)
        for (uint64_t i = 0; i < nv; i++)
            for (uint64_t b = 0; b < c1; b++) {
                uint8_t *dp = d + j * dnd + b * dc0 + i * dn;
                const uint64_t cols = dv_min_u64(dv - b * C0, C0);
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

/* load_cbuf_to_c{a,b}_transpose (asc-devkit's LoadDataWithTranspose pseudo-code): per repeat one
 * square of the source, transposed, split into its fractals.  8-bit: the square is 2 fractals of
 * 16 rows x 32 bytes stacked (32 x 32); fractal j of the result holds its columns 16j..16j+15 as
 * rows.  32-bit: 2 fractals of 16 rows x 8 side by side (16 x 16); result fractal j holds its rows
 * 8j..8j+7 as columns.  16-bit: 1 fractal, transposed. */
static void transpose_square(uint8_t *f0, uint8_t *f1, const uint8_t *s, uint64_t sz)
{
    if (sz == 2) {
        transpose_16x16_b16(f0, s);
        return;
    }
    for (int j = 0; j < 2; j++) {
        uint8_t *d = j ? f1 : f0;
        if (sz == 1) /* d[k][c] = S[c][16j + k], S 32 rows of 32 bytes */
            for (int k = 0; k < 16; k++)
                for (int c = 0; c < 32; c++)
                    d[k * 32 + c] = s[c * 32 + 16 * j + k];
        else /* d[r][c] = S[8j + c][r], S[i][r] = fractal r / 8, row i, column r % 8 */
            for (int r = 0; r < 16; r++)
                for (int c = 0; c < 8; c++)
                    memcpy(d + (r * 8 + c) * 4, s + (r / 8) * 512 + ((8 * j + c) * 8 + r % 8) * 4, 4);
    }
}

static void exec_load2dt(const dv_insn_t *in, dv_mem_t *m)
{
    uint8_t *d = mem_at(m, FA(LOAD2DT, dst));
    const uint8_t *s = mem_at(m, FA(LOAD2DT, src));
    const uint64_t sz = dv_dtype_size(FT(LOAD2DT, dtype)), nf = sz == 2 ? 1 : 2, sq = nf * 512;
    const uint64_t rep = FI(LOAD2DT, repeat), base = FI(LOAD2DT, base_idx), ss = FI(LOAD2DT, src_stride);
    const uint64_t step = (FI(LOAD2DT, dst_gap) + 1) * 512, fstep = (FI(LOAD2DT, dst_frac_gap) + 1) * 512;
    uint8_t f[2][512];
    for (uint64_t i = 0; i < rep; i++) {
        transpose_square(f[0], f[1], s + (base + i * ss) * sq, sz);
        for (uint64_t j = 0; j < nf; j++)
            memcpy(d + i * step + j * fstep, f[j], 512);
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

static void exec_fill(const dv_insn_t *in, dv_mem_t *m)
{
    uint8_t *d = mem_at(m, FA(FILL, dst));
    const uint64_t e = dv_dtype_size(FT(FILL, dtype)), v = FI(FILL, value), bl = FI(FILL, blocks);
    uint8_t blk[512];
    for (uint64_t i = 0; i < 512; i++)
        blk[i] = (uint8_t)(v >> (8 * (i % e)));
    for (uint64_t r = 0; r < FI(FILL, rows); r++)
        for (uint64_t b = 0; b < bl; b++)
            memcpy(d + (r * (bl + FI(FILL, dst_gap)) + b) * 512, blk, 512);
}

static void exec_img2col(const dv_insn_t *in, dv_mem_t *m)
{
    i2c_t g;
    dv_sem_i2c_get(in, &g);
    uint8_t *d = mem_at(m, FA(IMG2COL, dst));
    const uint64_t s0 = DV_ADDR_OFF(FA(IMG2COL, src));
    const uint8_t *l1 = mem_at(m, FA(IMG2COL, src) - s0);
    const uint64_t kblocks = g.C1 * g.kh * g.kw, hw = g.Ho * g.Wo, e = g.esize;
    uint8_t padv[32], zero[32] = {0};
    for (uint64_t i = 0; i < 32; i++)
        padv[i] = (uint8_t)(g.padv >> (8 * (i % e)));
    for (uint64_t ml = 0; ml < g.M1 * 16; ml++) {
        const uint64_t mm = g.m0 + ml;
        const bool row = ml < g.mext && mm < hw;
        const int64_t oh = row ? (int64_t)(mm / g.Wo) : 0, ow = row ? (int64_t)(mm % g.Wo) : 0;
        for (uint64_t kb = 0; kb < g.K1; kb++) {
            const uint64_t kk = g.k0 / g.C0 + kb; /* C0 group index (c1i, khi, kwi) */
            /* a window position outside the map reads the pad value; rows past m_ext or the output
             * and columns past the kernel read zero */
            const uint8_t *v = zero;
            if (row && kk < kblocks) {
                const uint64_t kwi = kk % g.kw, khi = (kk / g.kw) % g.kh, c1i = kk / (g.kw * g.kh);
                const int64_t ih = oh * (int64_t)g.sh - (int64_t)g.pt + (int64_t)(khi * g.dh);
                const int64_t iw = ow * (int64_t)g.sw - (int64_t)g.pl + (int64_t)(kwi * g.dw);
                if (ih >= 0 && ih < (int64_t)g.H && iw >= 0 && iw < (int64_t)g.W) {
                    uint64_t a = s0 + ((c1i * g.H + (uint64_t)ih) * g.W + (uint64_t)iw) * 32;
                    if (g.bound && a >= g.bound) /* SetLoadDataBoundary: wrap to L1's start */
                        a %= g.bound;
                    v = l1 + a;
                } else {
                    v = padv;
                }
            }
            if (!g.trans)
                memmove(d + dv_sem_i2c_dst_off(&g, ml, kb * g.C0), v, 32);
            else
                for (uint64_t c = 0; c < g.C0; c++)
                    memmove(d + dv_sem_i2c_dst_off(&g, ml, kb * g.C0 + c), v + c * e, e);
        }
    }
}

/* MMADB is MMAD with the accumulator's start in the BiasTable: the shared fields sit at the same
 * positions, so one function runs both. */
_Static_assert(DV_FLD(MMADB, c) == DV_FLD(MMAD, c) && DV_FLD(MMADB, a) == DV_FLD(MMAD, a) &&
                   DV_FLD(MMADB, b) == DV_FLD(MMAD, b) && DV_FLD(MMADB, dtype) == DV_FLD(MMAD, dtype) &&
                   DV_FLD(MMADB, m) == DV_FLD(MMAD, m) && DV_FLD(MMADB, k) == DV_FLD(MMAD, k) &&
                   DV_FLD(MMADB, n) == DV_FLD(MMAD, n),
               "mmad_bias shares mmad's field positions (the cube's cost reads them as MMAD's)");

static int exec_mmad(const dv_insn_t *in, dv_mem_t *m, dv_error_t *err)
{
    const dv_dtype_t t = FT(MMAD, dtype);
    const uint64_t M = FI(MMAD, m), K = FI(MMAD, k), N = FI(MMAD, n), sz = dv_dtype_size(t), K0 = dv_sem_k0_of(t);
    const uint64_t M1 = dv_ceil_div(M, 16), K1 = dv_ceil_div(K, K0), N1 = dv_ceil_div(N, 16);
    const uint64_t NP = dv_round_up(N, DV_DOT_LANES); /* columns of the packed B, zeros past N */
    const bool from_bias = dv_op_spec(in->op)->form == DV_FORM_MMADB;
    const bool init = from_bias || FI(MMAD, init), ints = t == DV_DT_S8;
    const bool gemv = !from_bias && M == 1 && FI(MMAD, gemv);
    const uint8_t *bias = from_bias ? mem_at(m, FA(MMADB, bias)) : NULL;
    uint8_t *c = mem_at(m, FA(MMAD, c));
    const uint8_t *a = mem_at(m, FA(MMAD, a)), *b = mem_at(m, FA(MMAD, b));
    /* Dense copies as float or uint32 (int8 products fit): A row-major m x k, B packed k-major
     * (dv_dot_*), and the accumulators m x NP.  When N fills whole fractals (nz), B is packed in
     * blocks of 16 columns and C's fractals in L0C are the accumulators, summed in place
     * (dv_sem_dot_*_nz): the same sums without copying C out and back. */
    const bool nz = N % 16 == 0;
    uint32_t *pa = malloc(M * K * 4 + 4), *pb = dv_dot_alloc(K * NP * 4), *acc = nz ? NULL : dv_dot_alloc(M * NP * 4);
    if (!pa || !pb || (!nz && !acc)) {
        free(pa), free(pb), free(acc);
        return dv_error_set(err, DV_ERR_NOMEM, NULL, (int)in->line, 0,
                            "mmad: out of memory for a %llux%llux%llu product", (unsigned long long)M,
                            (unsigned long long)K, (unsigned long long)N);
    }
    float *fa = (float *)pa, *fb = (float *)pb;
    if (!nz)
        memset(pb, 0, K * NP * 4);
    /* Fractal by fractal: a row of K0 elements of one fractal is contiguous in A (ZZ) and in B (ZN),
     * as 16 accumulators of one row are in C (NZ). */
    for (uint64_t i = 0; i < M; i++)
        for (uint64_t q = 0; q < K1; q++) {
            /* GEMV (asc-devkit's GEMV page; m = 1 with gemv): A is k contiguous elements */
            const uint8_t *p = gemv ? a + q * K0 * sz : a + ((i / 16) * K1 + q) * 512 + (i % 16) * K0 * sz;
            const uint64_t k0 = q * K0, kn = K - k0 < K0 ? K - k0 : K0;
            if (ints)
                for (uint64_t k = 0; k < kn; k++)
                    pa[i * K + k0 + k] = (uint32_t)(int32_t)(int8_t)p[k];
            else
                dv_sem_ld_f_row(t, p, kn, &fa[i * K + k0], 1);
        }
    for (uint64_t q = 0; q < K1; q++)
        for (uint64_t j = 0; j < N; j++) {
            const uint8_t *p = b + (q * N1 + j / 16) * 512 + (j % 16) * K0 * sz;
            const uint64_t k0 = q * K0, kn = K - k0 < K0 ? K - k0 : K0;
            /* element (k0 + k, j) of B and the distance between its rows */
            const uint64_t at = nz ? (j / 16) * K * 16 + k0 * 16 + j % 16 : k0 * NP + j, step = nz ? 16 : NP;
            if (ints)
                for (uint64_t k = 0; k < kn; k++)
                    pb[at + k * step] = (uint32_t)(int32_t)(int8_t)p[k];
            else
                dv_sem_ld_f_row(t, p, kn, &fb[at], step);
        }
    if (nz) {
        /* row i of C's column block jb: c + (jb * M1 + i / 16) * 1024 + (i % 16) * 64 = c + jb * M1 * 1024 + i * 64 */
        if (init)
            for (uint64_t jb = 0; jb < N1; jb++)
                for (uint64_t i = 0; i < M; i++) {
                    uint8_t *row = c + jb * M1 * 1024 + i * 64;
                    if (bias)
                        memcpy(row, bias + jb * 64, 64);
                    else
                        memset(row, 0, 64);
                }
        if (ints)
            dv_sem_dot_u32_nz(pa, pb, M, K, N1, (uint32_t *)c, M1 * 256);
        else
            dv_sem_dot_f32_nz(fa, fb, M, K, N1, (float *)c, M1 * 256);
    } else {
        memset(acc, 0, M * NP * 4);
        for (uint64_t i = 0; i < M; i++)
            for (uint64_t j = 0; j < N; j += 16) {
                const uint64_t n = N - j < 16 ? N - j : 16;
                if (!init)
                    memcpy(&acc[i * NP + j], c + ((j / 16) * M1 + i / 16) * 1024 + (i % 16) * 64, n * 4);
                else if (bias)
                    memcpy(&acc[i * NP + j], bias + j * 4, n * 4);
            }
        if (ints)
            dv_dot_u32(pa, pb, M, K, NP, acc);
        else
            dv_dot_f32(fa, fb, M, K, NP, (float *)acc);
        for (uint64_t i = 0; i < M; i++)
            for (uint64_t j = 0; j < N; j += 16)
                memcpy(c + ((j / 16) * M1 + i / 16) * 1024 + (i % 16) * 64, &acc[i * NP + j],
                       (N - j < 16 ? N - j : 16) * 4);
    }
    free(pa);
    free(pb);
    free(acc);
    return DV_OK;
}

static void exec_fixpipe(const dv_insn_t *in, const dv_vstate_t *vs, dv_mem_t *m)
{
    const bool atomic = atomic_to(FA(FIXPIPE, dst), vs);
    uint8_t *d = mem_at(m, FA(FIXPIPE, dst));
    const uint8_t *s = mem_at(m, FA(FIXPIPE, src));
    const uint64_t ms = FI(FIXPIPE, m_size), ns = FI(FIXPIPE, n_size), ss = FI(FIXPIPE, src_stride);
    const uint64_t ds = FI(FIXPIPE, dst_stride);
    const dv_dtype_t ot = dv_sem_fix_out_type(in);
    const uint64_t osz = dv_dtype_size(ot);
    const bool relu = FI(FIXPIPE, relu), nd = FI(FIXPIPE, nz2nd);
    for (uint64_t n = 0; n < ns; n++)
        for (uint64_t i = 0; i < ms; i++) {
            const uint8_t *sp = s + (((n / 16) * ss + i) * 16 + n % 16) * 4;
            uint8_t *dp = d + (nd ? (i * ds + n) * osz : (((n / 16) * ds + i) * 16 + n % 16) * osz);
            uint8_t out[4];
            if (ot == DV_DT_F32 && !relu) { /* bit-exact move (s32 accumulators too) */
                memcpy(out, sp, 4);
            } else {
                float x = dv_sem_ld_f(DV_DT_F32, sp);
                if (relu)
                    x = x > 0 ? x : 0.0f;
                dv_sem_st_f(ot, out, x);
            }
            if (atomic)
                atomic_combine(dp, out, osz, vs);
            else
                memcpy(dp, out, osz);
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
        if (dv_sem_dtype_ok(os, t) && FI(LOAD2D, transpose) && dv_dtype_size(t) != 2)
            return dv_error_set(err, DV_ERR_UNSUPPORTED, NULL, (int)in->line, 0,
                                "%s: transpose is only for 16-bit types", os->mnemonic);
        break;
    case DV_FORM_LOAD2DT: t = FT(LOAD2DT, dtype); break;
    case DV_FORM_IMG2COL:
        t = FT(IMG2COL, dtype);
        if (dv_sem_dtype_ok(os, t)) {
            const uint64_t c0 = 32 / dv_dtype_size(t);
            if (FI(IMG2COL, k_start) % c0 || FI(IMG2COL, k_ext) % c0)
                return dv_error_set(err, DV_ERR_RANGE, NULL, (int)in->line, 0,
                                    "%s: k_start and k_ext must be multiples of C0 (%llu)", os->mnemonic,
                                    (unsigned long long)c0);
            if (dv_dtype_size(t) == 1 && FI(IMG2COL, transpose))
                return dv_error_set(err, DV_ERR_UNSUPPORTED, NULL, (int)in->line, 0,
                                    "%s: transpose is for 16- and 32-bit types", os->mnemonic);
        }
        break;
    case DV_FORM_MMAD:
    case DV_FORM_MMADB: t = FT(MMAD, dtype); break;
    case DV_FORM_FILL: t = FT(FILL, dtype); break;
    case DV_FORM_VBRCB:
    case DV_FORM_VTRANSPOSE:
    case DV_FORM_VGATHERB:
    case DV_FORM_VBITSORT:
    case DV_FORM_VMRGSORT: {
        dv_vgeom_t g;
        uint64_t a[DV_VFIXED_ADDRS];
        if (!dv_sem_vfixed_geometry(in, &g, a))
            break;
        for (int k = 0; k < dv_sem_vfixed_naddr(os->form); k++)
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
    if (!dv_sem_dtype_ok(os, t))
        return dv_error_set(err, DV_ERR_UNSUPPORTED, NULL, (int)in->line, 0, "%s: unsupported dtype", os->mnemonic);
    return DV_OK;
}

uint64_t dv_rsvd_count(const dv_insn_t *in, const dv_vstate_t *vs, const uint8_t *ub)
{
    vinfo_t v;
    if (in->op != DV_OP_vreducev2 || dv_sem_vinfo_build(in, vs, &v) <= 0)
        return 0;
    uint64_t n = 0;
    for (uint64_t r = 0; r < v.R && v.any; r++)
        for (uint32_t e = 0; e <= v.ehi; e++)
            n += dv_sem_vreducev2_keep(in, &v, ub, r, e);
    return n;
}

int dv_exec(const dv_insn_t *in, const dv_vstate_t *vs, dv_mem_t *m, dv_error_t *err)
{
    const dv_op_spec_t *os = dv_op_spec((dv_op_t)in->op);
    if (!os)
        return dv_error_set(err, DV_ERR_UNKNOWN, NULL, (int)in->line, 0, "invalid opcode %u", in->op);
    vinfo_t v;
    const int vk = dv_sem_vinfo_build(in, vs, &v);
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
    if (os->form == DV_FORM_VGATHER || os->form == DV_FORM_VGATHERB)
        return dv_sem_gather_run(in, &v, m->buf[DV_SPACE_UB], err);
    if (os->form == DV_FORM_VREDUCEV2) {
        dv_sem_vreducev2_run(in, &v, m->buf[DV_SPACE_UB]);
        return rc;
    }
    dma_geom_t dg;
    if (dv_sem_dma_geom(in, os, &dg)) {
        exec_dma(&dg, vs, m);
        return rc;
    }
    switch (os->form) {
    case DV_FORM_ND2NZ: exec_nd2nz(in, m); break;
    case DV_FORM_LOAD2D: exec_load2d(in, m); break;
    case DV_FORM_LOAD2DT: exec_load2dt(in, m); break;
    case DV_FORM_IMG2COL: exec_img2col(in, m); break;
    case DV_FORM_FILL: exec_fill(in, m); break;
    case DV_FORM_MMAD:
    case DV_FORM_MMADB: rc = exec_mmad(in, m, err); break;
    case DV_FORM_FIXPIPE: exec_fixpipe(in, vs, m); break;
    case DV_FORM_VBRCB: exec_vbrcb(in, m); break;
    case DV_FORM_VBITSORT: dv_sem_vbitsort(in, m->buf[DV_SPACE_UB]); break;
    case DV_FORM_VMRGSORT: rc = dv_sem_vmrgsort(in, m->buf[DV_SPACE_UB], err); break;
    case DV_FORM_VTRANSPOSE: transpose_16x16_b16(mem_at(m, FA(VTRANSPOSE, dst)), mem_at(m, FA(VTRANSPOSE, src))); break;
    default:
        if (vk > 0 && in->op == DV_OP_vcadd_acc)
            dv_sem_vcadd_acc(in, &v, m->buf[DV_SPACE_UB]);
        else if (vk > 0)
            for (uint64_t r = 0; r < v.R; r++)
                dv_sem_vec_repeat(in, &v, m->buf[DV_SPACE_UB], r);
        break;
    }
    return rc;
}
