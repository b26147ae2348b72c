/* ops/conv2d.c - 2-D convolution y = conv(x, w): x NCHW [n, cin, h, w], w [cout, cin, kh, kw],
 * y NCHW [n, cout, oh, ow], all of --dtype (fp16 or bf16), accumulated in fp32 on the cube and
 * rounded once (FixPipe / L0C -> UB quantisation).  The cube sees it as the matmul
 *     C[positions, cout] = im2col(x)[positions, K] x W'[K, cout],   K = (c1, kh, kw, c0)
 * with the im2col matrix built by img2col_cbuf_to_ca from an NC1HWC0 feature map in L1.
 *
 * Layout transforms (the vector unit's part).  img2col needs the input as NC1HWC0 (16 channels
 * innermost), the weights must follow img2col's K order, and the cube's [positions, cout] result
 * is the transpose of NCHW.  All three are 16 x 16 block transposes (vtranspose):
 * - x -> x5hd [n][c1][h*w][16]: per unit 16 channel rows of up to P positions are read with one
 *   DataCopyPad (one long GM run per channel), gathered into contiguous 16x16 tiles by two vcopy
 *   (block stride = slab pitch; the pitch is an odd number of 32-B blocks so the 8 blocks of a
 *   repeat fall in different bank groups), transposed, and written back as one burst.  Channels
 *   past cin are zeros (vdup of the missing rows first).
 * - w -> wf [c1][kh*kw][cout/16][16 c0][16 co]: the weights as the matrix [cout][cin*kh*kw] go
 *   through the same transform (rows = 16 output channels); the transposed rows (ci, kh, kw) are
 *   regrouped by vcopy (block stride kh*kw) into the fractals (c1, tap) and stored as 512-B runs
 *   (row by row when 16 channels' taps do not fit one unit, kh*kw > P/16).  L1 -> L0B loads them
 *   with the 16x16 transpose into the ZN layout, so the AIC loads a K x N weight slice with one
 *   DMA and one load2d.  On 910B the weights are transformed once; on 310 by every block.
 * - y: FixPipe writes the L0C tile in NZ form, i.e. y5hd [n][cout/16][oh*ow][16] (NC1HWC0 of y);
 *   the vector unit transposes it back (tiles -> vtranspose -> scatter vcopy -> one DataCopyPad
 *   of 16 channel rows with GM stride oh*ow).
 * x5hd, wf (and y5hd on 910B) are GM workspace arguments: zero-initialised outputs whose exact
 * contents the reference computes too, so --check verifies every stage.
 *
 * 910B (split cores): one mix kernel, one block per AI core group.
 *   1. The 2*blocks AIVs share the x and w transforms (units dealt round-robin), then meet at a
 *      cross-core barrier (mode 0: every AIC reads bands and weights written by any AIV) and
 *      signal their own AIC (mode 2).
 *   2. The AIC runs its tasks (a contiguous range of (n, base-m positions, base-n channels)
 *      tiles): per task the L1 holds, per load, a band of input rows (the rows the tile's output
 *      positions reach, for ck channel groups) and the matching weight slice; img2col builds
 *      base-m x kl*16 of the im2col matrix in L0A (k_start/m_start select the slice, the band's
 *      own pad_t/pad_b stand for the rows outside it), load2d the kl*16 x base-n weights in L0B,
 *      mmad accumulates in L0C; FixPipe writes y5hd (quant f16/bf16) and signals the group's
 *      AIVs (mode 2), which turn the tile into NCHW rows of y (each AIV half of the positions).
 *      The AIVs answer each signal (mode 2 back); the AIC waits for the answer to task j - 8
 *      before signalling task j, so no flag counter passes sync.cross_flag_max.
 * 310 (coupled core, no FixPipe, no cross-core flags): a cube kernel whose blocks each do all of
 *   it on one core: the weight transform (every block writes the same wf bytes), then per task
 *   the band's x transform (MTE2 -> V -> MTE3 into x5hd, then GM -> L1: no UB -> L1 path is
 *   assumed), the same cube steps, and L0C -> UB (copy_matrix_cc_to_ubuf on V, quant, NZ) ->
 *   vtranspose -> y.  MTE3 -> MTE2 flags order the workspace writes before the L1 loads, and
 *   MTE2 -> MTE3 flags the reloads of a band before it is rewritten.
 *
 * Pipelining (Ascend C TQue style, depth 2 with --double-buffer on, 1 with off): UB in (MTE2 ->
 * V) and out (V -> MTE3) queues for the transforms, L1 (MTE2 -> MTE1), L0A and L0B (MTE1 -> M),
 * L0C (M -> FIX or V).  Loads are issued one unit ahead of the compute (CopyIn(i+1) before
 * Compute(i)).  Dependent vector steps are separated by pipe_barrier(V).
 *
 * Tiling (plan):
 * - --base-m output positions (multiple of 16) x --base-n output channels (multiple of 16) per
 *   L0C tile.  auto: base-n = cout rounded up to 16, at most 128; base-m up to 128, smaller when
 *   that evens out the work over the blocks.
 * - ck (channel groups per L1 load): the most whose band + weight slice fit L1 (twice with double
 *   buffering); kl (K blocks per L0 load): the most that fit L0A and L0B (twice) and one load2d.
 * - P (positions per transform unit): up to 1024, so that 6 UB buffers of 16 x (P + 16) elements
 *   fit (2 in, 2 out, gather scratch, weight / L0C staging).
 * Limits (errors name the parameter and the limit): the kernel's reach must fit the padded input
 * (--kh / --kw); a base-m x base-n tile must fit L0C, base-m x 16 L0A, base-n x 16 L0B, and one
 * channel group's band + weights L1 (core.*_size_bytes); kh*kw taps must fit one transform unit
 * (--kh); --cores on 910B at most chip.ai_cores (the barrier needs every block resident). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/ops.h"

enum {
    C0 = 16,               /* channels per NC1HWC0 group; side of a 16x16 fractal */
    FRAC = 512,            /* bytes of a 16x16 2-byte fractal */
    BLK = 32,              /* DMA / UB block */
    XF_P_CAP = 1024,       /* positions per transform unit, at most */
    UB_BUFS = 6,           /* UB buffers of one transform unit's size */
    AUTO_BM = 128,         /* --base-m auto, at most */
    AUTO_BN = 128,         /* --base-n auto, at most */
    ACK_WINDOW = 8,        /* AIC signals ahead of the AIVs' answers (< sync.cross_flag_max) */
    MAX_REPEAT = 255,
    XF_READY = 0,          /* cross-core flag ids */
    XF_TO_AIC = 1,
    TILE_DONE = 2,
    TILE_ACK = 3
};

enum {
    CP_N, CP_CIN, CP_H, CP_W, CP_COUT, CP_KH, CP_KW, CP_STRIDE, CP_PAD, CP_DILATION, CP_DTYPE, CP_CORES,
    CP_BASE_M, CP_BASE_N, CP_DOUBLE_BUFFER, CP_COUNT
};

static const dv_oparam_spec_t conv_params[CP_COUNT] = {
    [CP_N] = {"n", DV_OPT_INT, "1", 1, 65535, 0, "batch size"},
    [CP_CIN] = {"cin", DV_OPT_INT, "64", 1, 65520, 0, "input channels (img2col: at most 4095 groups of 16)"},
    [CP_H] = {"h", DV_OPT_INT, "56", 1, 4095, 0, "input height (img2col fmap_h limit)"},
    [CP_W] = {"w", DV_OPT_INT, "56", 1, 4095, 0, "input width (img2col fmap_w limit)"},
    [CP_COUT] = {"cout", DV_OPT_INT, "64", 1, 65535, 0, "output channels"},
    [CP_KH] = {"kh", DV_OPT_INT, "3", 1, 255, 0, "kernel height"},
    [CP_KW] = {"kw", DV_OPT_INT, "3", 1, 255, 0, "kernel width"},
    [CP_STRIDE] = {"stride", DV_OPT_INT, "1", 1, 63, 0, "stride (both axes; img2col limit 63)"},
    [CP_PAD] = {"pad", DV_OPT_INT, "1", 0, 255, 0, "zero padding on every side"},
    [CP_DILATION] = {"dilation", DV_OPT_INT, "1", 1, 255, 0, "dilation (both axes)"},
    [CP_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, DT_F16 | DT_BF16,
                  "element type of x, w and y (fp32 accumulation)"},
    [CP_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0,
                  "blocks (auto: every AI core; 910B: AI core groups, at most chip.ai_cores)"},
    [CP_BASE_M] = {"base-m", DV_OPT_INT, "auto", 16, 4080, 0,
                   "output positions per L0C tile, a multiple of 16 (auto: up to 128, balanced over the blocks)"},
    [CP_BASE_N] = {"base-n", DV_OPT_INT, "auto", 16, 4080, 0,
                   "output channels per L0C tile, a multiple of 16 (auto: cout rounded up to 16, up to 128)"},
    [CP_DOUBLE_BUFFER] = {"double-buffer", DV_OPT_BOOL, "on", 0, 1, 0,
                          "two buffers per queue (UB, L1, L0A/L0B, L0C) so loads overlap compute, or one (off)"},
};

typedef struct conv_tiling {
    uint32_t n, cin, h, w, cout, kh, kw, stride, pad, dil;
    uint32_t oh, ow, c1, n1, kk; /* output size, channel groups of x and y, taps */
    uint32_t dtype;              /* dv_dtype_t */
    uint32_t split;              /* 910B mix kernel */
    uint32_t depth;              /* buffers per queue */
    uint32_t bm, bn;             /* L0C tile */
    uint32_t mtiles, ntiles;
    uint32_t ck;                 /* channel groups per L1 load */
    uint32_t kl;                 /* K blocks (16 columns) per L0 load */
    uint32_t rmax;               /* input rows of the largest band */
    uint32_t p, pp;              /* positions per transform unit; slab pitch (elements) */
    uint32_t wcc;                /* input channels per weight-transform unit */
    uint32_t wreorder;           /* weight rows regrouped in UB (wcc a multiple of 16) */
    uint32_t aiv;                /* AIVs per group */
    uint64_t tasks;
    uint64_t l1_wofs, l1_bytes;  /* weight offset in an L1 buffer; buffer size */
    uint64_t l0a_bytes, l0b_bytes, l0c_bytes, ub_bytes;
    uint32_t arg_x, arg_w, arg_y, arg_x5, arg_wf, arg_y5;
} conv_tiling_t;

static uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
static uint64_t umin(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t umax(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t up16(uint64_t a) { return cdiv(a, C0) * C0; }

/* ---------------------------------------------------------------- geometry */

/* The input rows one tile of output positions reaches, as img2col sees them: `rows` rows of x
 * from ih_lo; output row oh_r is the band's row 0 (m_start counts from it); pad_t / pad_b are the
 * band's own zero rows (real padding, or rows outside the map) so that img2col's Ho covers every
 * output row of the tile. */
typedef struct conv_band {
    uint32_t ih_lo, rows, oh_r, pad_t, pad_b;
} conv_band_t;

static void conv_band(const conv_tiling_t *t, uint64_t m0, uint64_t mc, conv_band_t *b)
{
    const int64_t s = t->stride, reach = (int64_t)(t->kh - 1) * t->dil;
    const int64_t oh_a = (int64_t)(m0 / t->ow), oh_b = (int64_t)((m0 + mc - 1) / t->ow);
    int64_t lo = oh_a * s - t->pad, hi = oh_b * s - t->pad + reach + 1;
    lo = lo < 0 ? 0 : lo > (int64_t)t->h - 1 ? (int64_t)t->h - 1 : lo;
    hi = hi < lo + 1 ? lo + 1 : hi > (int64_t)t->h ? (int64_t)t->h : hi;
    int64_t oh_r = (lo + t->pad) / s;
    oh_r = oh_r < oh_a ? oh_r : oh_a;
    const int64_t pad_t = lo + t->pad - oh_r * s, rows = hi - lo;
    const int64_t need = (oh_b - oh_r) * s + reach + 1;
    b->ih_lo = (uint32_t)lo;
    b->rows = (uint32_t)rows;
    b->oh_r = (uint32_t)oh_r;
    b->pad_t = (uint32_t)pad_t;
    b->pad_b = (uint32_t)(need > pad_t + rows ? need - pad_t - rows : 0);
}

/* Coupled cores: the positions of x5hd the x transform of a band writes, widened to whole
 * 16-position tiles (32-B rows for the DMA). */
static void conv_band_positions(const conv_tiling_t *t, const conv_band_t *b, uint64_t *q0, uint64_t *q1)
{
    const uint64_t hw = (uint64_t)t->h * t->w;
    *q0 = (uint64_t)b->ih_lo * t->w / C0 * C0;
    *q1 = umin(hw, up16(((uint64_t)b->ih_lo + b->rows) * t->w));
}

/* One L0C tile: image n, output positions [m0, m0 + mc), output channels [co0, co0 + nc). */
typedef struct conv_task {
    uint32_t n, co0, nc, nq;
    uint64_t mt, m0, mc;
} conv_task_t;

static void conv_task(const conv_tiling_t *t, uint64_t i, conv_task_t *c)
{
    const uint64_t ohw = (uint64_t)t->oh * t->ow;
    c->n = (uint32_t)(i / ((uint64_t)t->mtiles * t->ntiles));
    c->mt = i / t->ntiles % t->mtiles;
    const uint32_t nt = (uint32_t)(i % t->ntiles);
    c->m0 = c->mt * t->bm;
    c->mc = umin(t->bm, ohw - c->m0);
    c->co0 = nt * t->bn;
    c->nc = (uint32_t)umin(t->bn, t->cout - c->co0);
    c->nq = (uint32_t)cdiv(c->nc, C0);
}

/* The tasks of block b of nb: a contiguous range. */
static void conv_block_tasks(const conv_tiling_t *t, uint32_t b, uint32_t nb, uint64_t *first, uint64_t *end)
{
    *first = t->tasks * b / nb;
    *end = t->tasks * (b + 1) / nb;
}

/* ---------------------------------------------------------------- kernel: context */

typedef struct conv_ctx {
    const conv_tiling_t *t;
    dv_dtype_t dt;
    dv_que_t inq, outq;     /* UB: MTE2 -> V, V -> MTE3 */
    uint64_t g;             /* UB: gathered / transposed tiles (V only) */
    uint64_t stage;         /* UB: weight rows before regrouping; L0C -> UB staging (coupled; V only) */
    dv_que_t l1q, l0aq, l0bq, l0cq;
    int ev_st_ld, ev_ld_st; /* coupled: MTE3 -> MTE2 and MTE2 -> MTE3 */
    bool have_band;
    uint32_t band_n;
    uint64_t band_mt;
    uint32_t acks_pending;  /* 910B AIC: TILE_DONE signals not yet answered */
} conv_ctx_t;

static void ctx_ub(dv_k_t *k, conv_ctx_t *c)
{
    dvk_que_init(k, &c->inq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, c->t->depth, c->t->ub_bytes);
    dvk_que_init(k, &c->outq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, c->t->depth, c->t->ub_bytes);
    c->g = dvk_alloc(k, DV_SPACE_UB, c->t->ub_bytes);
    c->stage = dvk_alloc(k, DV_SPACE_UB, c->t->ub_bytes);
}

static void ctx_cube(dv_k_t *k, conv_ctx_t *c, dv_pipe_t out_pipe)
{
    const conv_tiling_t *t = c->t;
    dvk_que_init(k, &c->l1q, DV_SPACE_L1, DV_PIPE_MTE2, DV_PIPE_MTE1, t->depth, t->l1_bytes);
    dvk_que_init(k, &c->l0aq, DV_SPACE_L0A, DV_PIPE_MTE1, DV_PIPE_M, t->depth, t->l0a_bytes);
    dvk_que_init(k, &c->l0bq, DV_SPACE_L0B, DV_PIPE_MTE1, DV_PIPE_M, t->depth, t->l0b_bytes);
    dvk_que_init(k, &c->l0cq, DV_SPACE_L0C, DV_PIPE_M, out_pipe, t->depth, t->l0c_bytes);
}

/* ---------------------------------------------------------------- kernel: vector steps */

/* Zero `elems` (a multiple of 16) elements of UB at dst. */
static void ub_zero(dv_k_t *k, dv_dtype_t dt, uint64_t dst, uint64_t elems)
{
    const uint64_t per = 128, full = elems / per, rem = elems % per;
    for (uint64_t r = 0; r < full;) {
        uint64_t n = umin(MAX_REPEAT, full - r);
        dvk_vdup(k, dst + r * 256, dt, 0.0, (int64_t)n, 1, 8);
        r += n;
    }
    if (rem) {
        dvk_mask_first(k, dt, (uint32_t)rem);
        dvk_vdup(k, dst + full * 256, dt, 0.0, 1, 1, 8);
        dvk_mask_all(k);
    }
}

/* Slab [16 rows][pitch] -> tt contiguous 16x16 tiles (tile i = columns 16i..16i+15), and back. */
static void tiles_gather(dv_k_t *k, const conv_ctx_t *c, uint64_t tiles, uint64_t slab, uint32_t tt)
{
    const uint32_t pitch_blk = c->t->pp / C0;
    for (uint32_t h = 0; h < 2; h++)
        dvk_vcopy(k, tiles + h * 256, slab + (uint64_t)h * 8 * c->t->pp * 2, c->dt, tt, 1, pitch_blk, 16, 1);
}

static void tiles_scatter(dv_k_t *k, const conv_ctx_t *c, uint64_t slab, uint64_t tiles, uint32_t tt)
{
    const uint32_t pitch_blk = c->t->pp / C0;
    for (uint32_t h = 0; h < 2; h++)
        dvk_vcopy(k, slab + (uint64_t)h * 8 * c->t->pp * 2, tiles + h * 256, c->dt, tt, pitch_blk, 1, 1, 16);
}

static void tiles_transpose(dv_k_t *k, const conv_ctx_t *c, uint64_t dst, uint64_t src, uint32_t tt)
{
    for (uint32_t i = 0; i < tt; i++)
        dvk_vtranspose(k, dst + (uint64_t)i * FRAC, src + (uint64_t)i * FRAC, c->dt);
}

/* UB gap (32-B blocks) after a row of p elements in a slab of pitch pp. */
static uint32_t slab_gap(const conv_ctx_t *c, uint64_t p)
{
    return (uint32_t)((c->t->pp * 2 - cdiv(p * 2, BLK) * BLK) / BLK);
}

/* ---------------------------------------------------------------- kernel: NCHW -> 16-wide rows */

/* A transform unit: rows [0, nr) (nr <= 16) x columns [0, p) of a row-major GM matrix (row stride
 * ld elements) starting at byte `src` of argument `arg`, written transposed (p rows of 16).
 * x units (w == false): image n, channel group c1, positions from p0, into x5hd.  w units: output
 * channel group q, input channels from ci0 (p = channels * kh*kw), into wf. */
typedef struct xf_unit {
    bool wt;
    uint32_t arg, nr;
    uint64_t src, ld, p;
    uint32_t n, c1, q, ci0;
    uint64_t p0;
} xf_unit_t;

static uint64_t xf_wunits(const conv_tiling_t *t) { return (uint64_t)t->n1 * cdiv(t->cin, t->wcc); }

static void xf_wunit(const conv_tiling_t *t, uint64_t i, xf_unit_t *u)
{
    const uint64_t per = cdiv(t->cin, t->wcc), row = (uint64_t)t->cin * t->kk;
    memset(u, 0, sizeof *u);
    u->wt = true;
    u->arg = t->arg_w;
    u->q = (uint32_t)(i / per);
    u->ci0 = (uint32_t)(i % per * t->wcc);
    u->nr = (uint32_t)umin(C0, t->cout - u->q * C0);
    u->ld = row;
    u->p = umin(t->wcc, t->cin - u->ci0) * t->kk;
    u->src = ((uint64_t)u->q * C0 * row + (uint64_t)u->ci0 * t->kk) * 2;
}

/* x unit: image n, channel group c1, positions [p0, p0 + p). */
static void xf_xunit(const conv_tiling_t *t, uint32_t n, uint32_t c1, uint64_t p0, uint64_t p, xf_unit_t *u)
{
    const uint64_t hw = (uint64_t)t->h * t->w;
    memset(u, 0, sizeof *u);
    u->arg = t->arg_x;
    u->n = n;
    u->c1 = c1;
    u->p0 = p0;
    u->p = p;
    u->nr = (uint32_t)umin(C0, t->cin - c1 * C0);
    u->ld = hw;
    u->src = (((uint64_t)n * t->cin + (uint64_t)c1 * C0) * hw + p0) * 2;
}

/* CopyIn: the unit's rows into a slab (rows past nr zeroed first). */
static void xf_load(dv_k_t *k, conv_ctx_t *c, const xf_unit_t *u)
{
    const uint64_t slab = dvk_que_alloc(k, &c->inq);
    if (u->nr < C0)
        ub_zero(k, c->dt, slab + (uint64_t)u->nr * c->t->pp * 2, (uint64_t)(C0 - u->nr) * c->t->pp);
    const uint64_t row = u->p * 2, gap = (u->ld - u->p) * 2;
    if (row % BLK || gap % BLK) /* rows that are not whole 32-B blocks: DataCopyPad (the plan checked) */
        dvk_copy_gm_to_ubuf_align(k, slab, dvk_gm(k, u->arg, u->src), u->nr, (int64_t)row, (int64_t)gap,
                                  slab_gap(c, u->p));
    else if (gap / BLK <= 65535)
        dvk_copy_gm_to_ubuf(k, slab, dvk_gm(k, u->arg, u->src), u->nr, (int64_t)(row / BLK), (int64_t)(gap / BLK),
                            slab_gap(c, u->p));
    else
        for (uint32_t i = 0; i < u->nr; i++)
            dvk_copy_gm_to_ubuf(k, slab + (uint64_t)i * c->t->pp * 2, dvk_gm(k, u->arg, u->src + i * u->ld * 2), 1,
                                (int64_t)(row / BLK), 0, 0);
    dvk_que_enque(k, &c->inq, slab);
}

/* Weights: the transposed rows (ci - ci0) * kk + tap (in c->stage) -> out as the wf fractals of
 * this unit, [channel group][tap][16 rows], so that each group goes out as kk bursts of 512 B. */
static void w_reorder(dv_k_t *k, const conv_ctx_t *c, const xf_unit_t *u, uint64_t out)
{
    const conv_tiling_t *t = c->t;
    const uint64_t cc = u->p / t->kk;
    for (uint64_t g = 0; g * C0 < cc; g++) {
        const uint64_t run = umin(C0, cc - g * C0);
        for (uint32_t tap = 0; tap < t->kk; tap++)
            for (uint64_t h = 0; h * 8 < run; h++) {
                const uint64_t r = umin(8, run - h * 8);
                if (r < 8)
                    dvk_mask_first(k, c->dt, (uint32_t)(r * C0));
                dvk_vcopy(k, out + ((g * t->kk + tap) * C0 + h * 8) * BLK,
                          c->stage + ((g * C0 + h * 8) * t->kk + tap) * BLK, c->dt, 1, 1, t->kk, 8, 8);
                if (r < 8)
                    dvk_mask_all(k);
            }
    }
}

/* Compute + CopyOut: gather, transpose, store into the workspace. */
static void xf_compute(dv_k_t *k, conv_ctx_t *c, const xf_unit_t *u)
{
    const conv_tiling_t *t = c->t;
    const uint32_t tt = (uint32_t)cdiv(u->p, C0);
    const uint64_t slab = dvk_que_deque(k, &c->inq);
    tiles_gather(k, c, c->g, slab, tt);
    dvk_que_free(k, &c->inq, slab);
    dvk_pipe_barrier(k, DV_PIPE_V);
    const bool reorder = u->wt && t->wreorder;
    if (reorder) {
        tiles_transpose(k, c, c->stage, c->g, tt);
        dvk_pipe_barrier(k, DV_PIPE_V);
    }
    const uint64_t out = dvk_que_alloc(k, &c->outq);
    if (reorder)
        w_reorder(k, c, u, out);
    else
        tiles_transpose(k, c, out, c->g, tt);
    dvk_que_enque(k, &c->outq, out);
    dvk_que_deque(k, &c->outq);
    if (!u->wt) {
        const uint64_t dst = (((uint64_t)u->n * t->c1 + u->c1) * t->h * t->w + u->p0) * BLK;
        dvk_copy_ubuf_to_gm(k, dvk_gm(k, t->arg_x5, dst), out, 1, (int64_t)u->p, 0, 0);
    } else if (reorder) {
        /* per channel group: its kk fractals of this q, rows [0, run) of each */
        const uint64_t cc = u->p / t->kk, g0 = u->ci0 / C0;
        for (uint64_t g = 0; g * C0 < cc; g++) {
            const uint64_t run = umin(C0, cc - g * C0);
            const uint64_t dst = ((g0 + g) * t->kk * t->n1 + u->q) * FRAC, src = out + g * t->kk * FRAC;
            if (run == C0 && t->n1 == 1)
                dvk_copy_ubuf_to_gm(k, dvk_gm(k, t->arg_wf, dst), src, 1, (int64_t)t->kk * C0, 0, 0);
            else
                dvk_copy_ubuf_to_gm(k, dvk_gm(k, t->arg_wf, dst), src, t->kk, (int64_t)run, (int64_t)(C0 - run),
                                    (int64_t)(t->n1 * C0 - run));
        }
    } else {
        /* row (ci - ci0) * kk + tap of the result -> row ci % 16 of fractal ((c1*kk + tap)*n1 + q) */
        const uint64_t ci_end = u->ci0 + u->p / t->kk;
        for (uint64_t ci = u->ci0; ci < ci_end;) {
            const uint64_t c1 = ci / C0, run = umin(ci_end, (c1 + 1) * C0) - ci;
            for (uint32_t tap = 0; tap < t->kk; tap++) {
                const uint64_t dst = (((c1 * t->kk + tap) * t->n1 + u->q) * C0 + ci % C0) * BLK;
                const uint64_t src = out + ((ci - u->ci0) * t->kk + tap) * BLK;
                dvk_copy_ubuf_to_gm(k, dvk_gm(k, t->arg_wf, dst), src, (int64_t)run, 1, t->kk - 1, 0);
            }
            ci += run;
        }
    }
    dvk_que_free(k, &c->outq, out);
}

/* Run units [0, count) of a list (unit i from get(i)), CopyIn one ahead with double buffering. */
typedef void (*xf_get_fn)(const conv_tiling_t *t, const void *arg, uint64_t i, xf_unit_t *u);

static void xf_run(dv_k_t *k, conv_ctx_t *c, uint64_t count, xf_get_fn get, const void *arg)
{
    xf_unit_t cur, next;
    if (count == 0)
        return;
    get(c->t, arg, 0, &cur);
    xf_load(k, c, &cur);
    for (uint64_t i = 0; i < count; i++) {
        const bool more = i + 1 < count;
        if (more)
            get(c->t, arg, i + 1, &next);
        if (more && c->t->depth > 1)
            xf_load(k, c, &next);
        xf_compute(k, c, &cur);
        if (more && c->t->depth == 1)
            xf_load(k, c, &next);
        cur = next;
    }
}

/* 910B phase 1: the units of AIV a of na (weights first, then x), dealt round-robin. */
typedef struct xf_deal {
    uint64_t a, na;
} xf_deal_t;

static void xf_get_all(const conv_tiling_t *t, const void *arg, uint64_t i, xf_unit_t *u)
{
    const xf_deal_t *d = arg;
    uint64_t g = d->a + i * d->na;
    const uint64_t nw = xf_wunits(t);
    if (g < nw) {
        xf_wunit(t, g, u);
        return;
    }
    g -= nw;
    const uint64_t hw = (uint64_t)t->h * t->w, per = cdiv(hw, t->p);
    const uint64_t chunk = g % per, nc = g / per;
    const uint64_t p0 = chunk * t->p;
    xf_xunit(t, (uint32_t)(nc / t->c1), (uint32_t)(nc % t->c1), p0, umin(t->p, hw - p0), u);
}

static uint64_t xf_count_all(const conv_tiling_t *t, uint64_t a, uint64_t na)
{
    const uint64_t total = xf_wunits(t) + (uint64_t)t->n * t->c1 * cdiv((uint64_t)t->h * t->w, t->p);
    return total > a ? cdiv(total - a, na) : 0;
}

static void xf_get_w(const conv_tiling_t *t, const void *arg, uint64_t i, xf_unit_t *u)
{
    (void)arg;
    xf_wunit(t, i, u);
}

/* Coupled cores: the x units of one band (image n, input rows [ih_lo, ih_lo + rows)). */
typedef struct xf_band {
    uint32_t n;
    uint64_t q0, q1; /* positions */
} xf_band_t;

static uint64_t xf_band_count(const conv_tiling_t *t, const xf_band_t *b)
{
    return t->c1 * cdiv(b->q1 - b->q0, t->p);
}

static void xf_get_band(const conv_tiling_t *t, const void *arg, uint64_t i, xf_unit_t *u)
{
    const xf_band_t *b = arg;
    const uint64_t per = cdiv(b->q1 - b->q0, t->p);
    const uint64_t p0 = b->q0 + i % per * t->p;
    xf_xunit(t, b->n, (uint32_t)(i / per), p0, umin(t->p, b->q1 - p0), u);
}

/* ---------------------------------------------------------------- kernel: back to NCHW */

/* The transposed tiles in c->g (tile i = 16 channels x positions 16i..16i+15) -> y rows
 * [co, co + nco) of image n, positions [m, m + p). */
static void y_store(dv_k_t *k, conv_ctx_t *c, uint32_t n, uint32_t co, uint32_t nco, uint64_t m, uint64_t p)
{
    const conv_tiling_t *t = c->t;
    const uint64_t ohw = (uint64_t)t->oh * t->ow;
    const uint64_t out = dvk_que_alloc(k, &c->outq);
    tiles_scatter(k, c, out, c->g, (uint32_t)cdiv(p, C0));
    dvk_que_enque(k, &c->outq, out);
    dvk_que_deque(k, &c->outq);
    const uint64_t dst = (((uint64_t)n * t->cout + co) * ohw + m) * 2, row = p * 2, gap = (ohw - p) * 2;
    if (row % BLK || gap % BLK) /* DataCopyPad (the plan checked) */
        dvk_copy_ubuf_to_gm_align(k, dvk_gm(k, t->arg_y, dst), out, nco, (int64_t)row, slab_gap(c, p), (int64_t)gap);
    else if (gap / BLK <= 65535)
        dvk_copy_ubuf_to_gm(k, dvk_gm(k, t->arg_y, dst), out, nco, (int64_t)(row / BLK), slab_gap(c, p),
                            (int64_t)(gap / BLK));
    else
        for (uint32_t i = 0; i < nco; i++)
            dvk_copy_ubuf_to_gm(k, dvk_gm(k, t->arg_y, dst + i * ohw * 2), out + (uint64_t)i * t->pp * 2, 1,
                                (int64_t)(row / BLK), 0, 0);
    dvk_que_free(k, &c->outq, out);
}

/* ---------------------------------------------------------------- kernel: cube steps */

/* One L1 load of a task: channel groups [c1a, c1a + ckc). */
typedef struct cube_item {
    uint64_t task;
    uint32_t c1a, ckc;
    bool first, last;
} cube_item_t;

static uint64_t cube_items_per_task(const conv_tiling_t *t) { return cdiv(t->c1, t->ck); }

static void cube_item(const conv_tiling_t *t, uint64_t task0, uint64_t i, cube_item_t *it)
{
    const uint64_t per = cube_items_per_task(t);
    it->task = task0 + i / per;
    it->c1a = (uint32_t)(i % per * t->ck);
    it->ckc = (uint32_t)umin(t->ck, t->c1 - it->c1a);
    it->first = i % per == 0;
    it->last = i % per == per - 1;
}

/* CopyIn to L1: the band rows of ckc channel groups (x5hd) and the K x N weight slice (wf). */
static void cube_load(dv_k_t *k, conv_ctx_t *c, const cube_item_t *it)
{
    const conv_tiling_t *t = c->t;
    conv_task_t tk;
    conv_band_t b;
    conv_task(t, it->task, &tk);
    conv_band(t, tk.m0, tk.mc, &b);
    const uint64_t buf = dvk_que_alloc(k, &c->l1q);
    const uint64_t plane = (uint64_t)t->h * t->w, band = (uint64_t)b.rows * t->w;
    const uint64_t src = (((uint64_t)tk.n * t->c1 + it->c1a) * plane + (uint64_t)b.ih_lo * t->w) * BLK;
    if ((plane - band) <= 65535)
        dvk_copy_gm_to_cbuf(k, buf, dvk_gm(k, t->arg_x5, src), it->ckc, (int64_t)band, (int64_t)(plane - band), 0);
    else
        for (uint32_t i = 0; i < it->ckc; i++)
            dvk_copy_gm_to_cbuf(k, buf + i * band * BLK, dvk_gm(k, t->arg_x5, src + i * plane * BLK), 1,
                                (int64_t)band, 0, 0);
    /* K blocks [c1a*kk, (c1a + ckc)*kk) x channel groups [co0/16, +nq) of wf, in bursts of nq fractals */
    const uint64_t nkb = (uint64_t)it->ckc * t->kk;
    for (uint64_t kb = 0; kb < nkb; kb += 4095) {
        const uint64_t nb = umin(4095, nkb - kb);
        const uint64_t wsrc = (((uint64_t)it->c1a * t->kk + kb) * t->n1 + tk.co0 / C0) * FRAC;
        dvk_copy_gm_to_cbuf(k, buf + t->l1_wofs + kb * tk.nq * FRAC, dvk_gm(k, t->arg_wf, wsrc), (int64_t)nb,
                            (int64_t)tk.nq * (FRAC / BLK), (int64_t)(t->n1 - tk.nq) * (FRAC / BLK), 0);
    }
    dvk_que_enque(k, &c->l1q, buf);
}

/* L1 -> L0A (img2col) / L0B (load2d with transpose) -> mmad, kl K blocks at a time. */
static void cube_compute(dv_k_t *k, conv_ctx_t *c, const cube_item_t *it, uint64_t *l0c)
{
    const conv_tiling_t *t = c->t;
    conv_task_t tk;
    conv_band_t b;
    conv_task(t, it->task, &tk);
    conv_band(t, tk.m0, tk.mc, &b);
    const uint64_t buf = dvk_que_deque(k, &c->l1q);
    const uint32_t kb_all = it->ckc * t->kk;
    const uint64_t m_start = tk.m0 - (uint64_t)b.oh_r * t->ow;
    for (uint32_t kb = 0; kb < kb_all; kb += t->kl) {
        const uint32_t klc = (uint32_t)umin(t->kl, kb_all - kb);
        const uint64_t a = dvk_que_alloc(k, &c->l0aq);
        dvk_img2col_cbuf_to_ca(k, a, buf, c->dt, b.rows, t->w, it->ckc, t->kh, t->kw, t->stride, t->stride, b.pad_t,
                               b.pad_b, t->pad, t->pad, t->dil, t->dil, (int64_t)m_start, (int64_t)tk.mc,
                               (int64_t)kb * C0, (int64_t)klc * C0);
        const uint64_t bb = dvk_que_alloc(k, &c->l0bq);
        const uint32_t nfr = klc * tk.nq;
        for (uint32_t f = 0; f < nfr; f += MAX_REPEAT) {
            const uint32_t r = (uint32_t)umin(MAX_REPEAT, nfr - f);
            dvk_load_cbuf_to_cb(k, bb + (uint64_t)f * FRAC, buf + t->l1_wofs, c->dt, (int64_t)kb * tk.nq + f, r, 1, 0,
                                1);
        }
        dvk_que_enque(k, &c->l0aq, a);
        dvk_que_enque(k, &c->l0bq, bb);
        if (it->first && kb == 0)
            *l0c = dvk_que_alloc(k, &c->l0cq);
        dvk_que_deque(k, &c->l0aq);
        dvk_que_deque(k, &c->l0bq);
        dvk_mmad(k, *l0c, a, bb, c->dt, (int64_t)tk.mc, (int64_t)klc * C0, tk.nc, it->first && kb == 0);
        dvk_que_free(k, &c->l0aq, a);
        dvk_que_free(k, &c->l0bq, bb);
    }
    dvk_que_free(k, &c->l1q, buf);
    if (it->last)
        dvk_que_enque(k, &c->l0cq, *l0c);
}

static int quant_of(dv_dtype_t dt) { return dt == DV_DT_BF16 ? DV_QUANT_BF16 : DV_QUANT_F16; }

/* 910B AIC: FixPipe the tile into y5hd (NZ = NC1HWC0) and tell the group's AIVs. */
static void cube_out_split(dv_k_t *k, conv_ctx_t *c, uint64_t task)
{
    const conv_tiling_t *t = c->t;
    const uint64_t ohw = (uint64_t)t->oh * t->ow;
    conv_task_t tk;
    conv_task(t, task, &tk);
    const uint64_t l0c = dvk_que_deque(k, &c->l0cq);
    const uint64_t dst = (((uint64_t)tk.n * t->n1 + tk.co0 / C0) * ohw + tk.m0) * BLK;
    dvk_copy_matrix_cc_to_gm(k, dvk_gm(k, t->arg_y5, dst), l0c, tk.nc, (int64_t)tk.mc, (int64_t)up16(tk.mc),
                             (int64_t)ohw, quant_of(c->dt), 0, 0);
    dvk_que_free(k, &c->l0cq, l0c);
    if (c->acks_pending >= ACK_WINDOW) {
        dvk_wait_cross_flag(k, DV_PIPE_FIX, TILE_ACK);
        c->acks_pending--;
    }
    dvk_set_cross_flag(k, DV_PIPE_FIX, 2, TILE_DONE);
    c->acks_pending++;
}

/* Coupled core: L0C -> UB (quantised, NZ) per 16 channels and P positions -> transpose -> y. */
static void cube_out_coupled(dv_k_t *k, conv_ctx_t *c, uint64_t task)
{
    const conv_tiling_t *t = c->t;
    conv_task_t tk;
    conv_task(t, task, &tk);
    const uint64_t l0c = dvk_que_deque(k, &c->l0cq);
    const uint64_t rows = up16(tk.mc);
    for (uint32_t q = 0; q < tk.nq; q++) {
        const uint32_t nco = (uint32_t)umin(C0, tk.nc - q * C0);
        for (uint64_t ms = 0; ms < tk.mc; ms += t->p) {
            const uint64_t pc = umin(t->p, tk.mc - ms);
            dvk_copy_matrix_cc_to_ubuf(k, c->stage, l0c + ((uint64_t)q * rows + ms) * C0 * 4, nco, (int64_t)pc,
                                       (int64_t)rows, (int64_t)up16(pc), quant_of(c->dt), 0, 0);
            dvk_pipe_barrier(k, DV_PIPE_V);
            tiles_transpose(k, c, c->g, c->stage, (uint32_t)cdiv(pc, C0));
            dvk_pipe_barrier(k, DV_PIPE_V);
            y_store(k, c, tk.n, tk.co0 + q * C0, nco, tk.m0 + ms, pc);
        }
    }
    dvk_que_free(k, &c->l0cq, l0c);
}

/* Coupled core: before loading a task's first chunk, make sure x5hd holds its band. */
static void coupled_prepare(dv_k_t *k, conv_ctx_t *c, const cube_item_t *it)
{
    const conv_tiling_t *t = c->t;
    conv_task_t tk;
    conv_band_t b;
    if (!it->first)
        return;
    conv_task(t, it->task, &tk);
    if (c->have_band && c->band_n == tk.n && c->band_mt == tk.mt)
        return;
    conv_band(t, tk.m0, tk.mc, &b);
    if (c->have_band) { /* earlier L1 loads read x5hd rows this band rewrites */
        dvk_set_flag(k, DV_PIPE_MTE2, DV_PIPE_MTE3, c->ev_ld_st);
        dvk_wait_flag(k, DV_PIPE_MTE2, DV_PIPE_MTE3, c->ev_ld_st);
    }
    xf_band_t xb = {tk.n, 0, 0};
    conv_band_positions(t, &b, &xb.q0, &xb.q1);
    xf_run(k, c, xf_band_count(t, &xb), xf_get_band, &xb);
    dvk_set_flag(k, DV_PIPE_MTE3, DV_PIPE_MTE2, c->ev_st_ld);
    dvk_wait_flag(k, DV_PIPE_MTE3, DV_PIPE_MTE2, c->ev_st_ld);
    c->have_band = true;
    c->band_n = tk.n;
    c->band_mt = tk.mt;
}

/* The cube part of a block: its tasks' L1 chunks, CopyIn one ahead with double buffering. */
static void cube_run(dv_k_t *k, conv_ctx_t *c, uint64_t task0, uint64_t task1)
{
    const conv_tiling_t *t = c->t;
    const uint64_t count = (task1 - task0) * cube_items_per_task(t);
    cube_item_t cur, next;
    uint64_t l0c = 0;
    if (count == 0)
        return;
    cube_item(t, task0, 0, &cur);
    if (!t->split)
        coupled_prepare(k, c, &cur);
    cube_load(k, c, &cur);
    for (uint64_t i = 0; i < count; i++) {
        const bool more = i + 1 < count;
        if (more)
            cube_item(t, task0, i + 1, &next);
        if (more && t->depth > 1) {
            if (!t->split)
                coupled_prepare(k, c, &next);
            cube_load(k, c, &next);
        }
        cube_compute(k, c, &cur, &l0c);
        if (cur.last) {
            if (t->split)
                cube_out_split(k, c, cur.task);
            else
                cube_out_coupled(k, c, cur.task);
        }
        if (more && t->depth == 1) {
            if (!t->split)
                coupled_prepare(k, c, &next);
            cube_load(k, c, &next);
        }
        cur = next;
    }
}

/* ---------------------------------------------------------------- kernel: the streams */

/* 910B AIV, phase 2: per task of its block, its half of the tile's positions (16-aligned), per
 * 16 channels and up to P positions: y5hd -> UB -> transpose -> y.  An item with p == 0 only
 * takes the task's signal (this AIV has no positions of it). */
typedef struct yb_item {
    uint64_t task, m, p;
    uint32_t q;          /* channel group within the task */
    bool sync;           /* first item of its task: wait for the AIC's signal first */
} yb_item_t;

/* AIV v's positions of a task: [lo, hi) relative to m0, whole 16-position tiles but the last. */
static void yb_range(const conv_tiling_t *t, const conv_task_t *tk, uint32_t v, uint64_t *lo, uint64_t *hi)
{
    const uint64_t tt = cdiv(tk->mc, C0);
    *lo = umin(tk->mc, tt * v / t->aiv * C0);
    *hi = umin(tk->mc, tt * (v + 1) / t->aiv * C0);
}

static uint64_t yb_count(const conv_tiling_t *t, uint64_t task, uint32_t v)
{
    conv_task_t tk;
    uint64_t lo, hi;
    conv_task(t, task, &tk);
    yb_range(t, &tk, v, &lo, &hi);
    return hi > lo ? tk.nq * cdiv(hi - lo, t->p) : 1;
}

static void yb_item(const conv_tiling_t *t, uint64_t task, uint32_t v, uint64_t i, yb_item_t *it)
{
    conv_task_t tk;
    uint64_t lo, hi;
    conv_task(t, task, &tk);
    yb_range(t, &tk, v, &lo, &hi);
    memset(it, 0, sizeof *it);
    it->task = task;
    it->sync = i == 0;
    if (hi <= lo)
        return;
    const uint64_t per = cdiv(hi - lo, t->p), m = lo + i % per * t->p;
    it->q = (uint32_t)(i / per);
    it->m = tk.m0 + m;
    it->p = umin(t->p, hi - m);
}

static void yb_load(dv_k_t *k, conv_ctx_t *c, const yb_item_t *it)
{
    const conv_tiling_t *t = c->t;
    if (it->sync) {
        dvk_wait_cross_flag(k, DV_PIPE_MTE2, TILE_DONE);
        dvk_set_cross_flag(k, DV_PIPE_MTE2, 2, TILE_ACK);
    }
    if (it->p == 0)
        return;
    conv_task_t tk;
    conv_task(t, it->task, &tk);
    const uint64_t ohw = (uint64_t)t->oh * t->ow;
    const uint64_t buf = dvk_que_alloc(k, &c->inq);
    const uint64_t src = (((uint64_t)tk.n * t->n1 + tk.co0 / C0 + it->q) * ohw + it->m) * BLK;
    dvk_copy_gm_to_ubuf(k, buf, dvk_gm(k, t->arg_y5, src), 1, (int64_t)it->p, 0, 0);
    dvk_que_enque(k, &c->inq, buf);
}

static void yb_compute(dv_k_t *k, conv_ctx_t *c, const yb_item_t *it)
{
    if (it->p == 0)
        return;
    conv_task_t tk;
    conv_task(c->t, it->task, &tk);
    const uint64_t buf = dvk_que_deque(k, &c->inq);
    tiles_transpose(k, c, c->g, buf, (uint32_t)cdiv(it->p, C0));
    dvk_que_free(k, &c->inq, buf);
    dvk_pipe_barrier(k, DV_PIPE_V);
    y_store(k, c, tk.n, tk.co0 + it->q * C0, (uint32_t)umin(C0, tk.nc - it->q * C0), it->m, it->p);
}

static void aiv_main(dv_k_t *k, conv_ctx_t *c)
{
    const conv_tiling_t *t = c->t;
    const uint32_t v = dvk_sub(k) - DV_SUB_AIV0;
    const uint64_t na = (uint64_t)dvk_block_num(k) * t->aiv, a = (uint64_t)dvk_block_idx(k) * t->aiv + v;
    ctx_ub(k, c);
    const xf_deal_t deal = {a, na};
    xf_run(k, c, xf_count_all(t, a, na), xf_get_all, &deal);
    /* every AIV's workspace writes are done: tell the group's AIC */
    dvk_set_cross_flag(k, DV_PIPE_MTE3, 0, XF_READY);
    dvk_wait_cross_flag(k, DV_PIPE_MTE3, XF_READY);
    dvk_set_cross_flag(k, DV_PIPE_MTE3, 2, XF_TO_AIC);

    uint64_t task0, task1;
    conv_block_tasks(t, dvk_block_idx(k), dvk_block_num(k), &task0, &task1);
    if (task0 == task1)
        return;
    /* items (task, i), CopyIn one ahead */
    uint64_t task = task0, i = 0, count = yb_count(t, task, v);
    yb_item_t cur, next;
    yb_item(t, task, v, 0, &cur);
    yb_load(k, c, &cur);
    for (;;) {
        bool more = true;
        if (i + 1 < count)
            yb_item(t, task, v, i + 1, &next);
        else if (task + 1 < task1)
            yb_item(t, task + 1, v, 0, &next);
        else
            more = false;
        if (more && t->depth > 1)
            yb_load(k, c, &next);
        yb_compute(k, c, &cur);
        if (more && t->depth == 1)
            yb_load(k, c, &next);
        if (!more)
            break;
        if (++i == count) {
            task++;
            i = 0;
            count = yb_count(t, task, v);
        }
        cur = next;
    }
}

static void aic_main(dv_k_t *k, conv_ctx_t *c)
{
    const conv_tiling_t *t = c->t;
    uint64_t task0, task1;
    ctx_cube(k, c, DV_PIPE_FIX);
    conv_block_tasks(t, dvk_block_idx(k), dvk_block_num(k), &task0, &task1);
    dvk_wait_cross_flag(k, DV_PIPE_MTE2, XF_TO_AIC);
    cube_run(k, c, task0, task1);
    while (c->acks_pending > 0) {
        dvk_wait_cross_flag(k, DV_PIPE_FIX, TILE_ACK);
        c->acks_pending--;
    }
}

static void coupled_main(dv_k_t *k, conv_ctx_t *c)
{
    const conv_tiling_t *t = c->t;
    uint64_t task0, task1;
    conv_block_tasks(t, dvk_block_idx(k), dvk_block_num(k), &task0, &task1);
    if (task0 == task1)
        return;
    ctx_ub(k, c);
    ctx_cube(k, c, DV_PIPE_V);
    c->ev_st_ld = dvk_event_alloc(k, DV_PIPE_MTE3, DV_PIPE_MTE2);
    c->ev_ld_st = dvk_event_alloc(k, DV_PIPE_MTE2, DV_PIPE_MTE3);
    xf_run(k, c, xf_wunits(t), xf_get_w, NULL); /* ordered before the first L1 load by coupled_prepare */
    cube_run(k, c, task0, task1);
}

static void conv_kernel(dv_k_t *k, const void *params)
{
    conv_ctx_t c;
    memset(&c, 0, sizeof c);
    c.t = params;
    c.dt = (dv_dtype_t)c.t->dtype;
    if (!c.t->split)
        coupled_main(k, &c);
    else if (dvk_sub(k) == DV_SUB_AIC)
        aic_main(k, &c);
    else
        aiv_main(k, &c);
}

/* ---------------------------------------------------------------- plan */

static int conv_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                     dv_error_t *err)
{
    (void)op;
    conv_tiling_t t;
    memset(&t, 0, sizeof t);
    t.n = (uint32_t)v->v[CP_N].i;
    t.cin = (uint32_t)v->v[CP_CIN].i;
    t.h = (uint32_t)v->v[CP_H].i;
    t.w = (uint32_t)v->v[CP_W].i;
    t.cout = (uint32_t)v->v[CP_COUT].i;
    t.kh = (uint32_t)v->v[CP_KH].i;
    t.kw = (uint32_t)v->v[CP_KW].i;
    t.stride = (uint32_t)v->v[CP_STRIDE].i;
    t.pad = (uint32_t)v->v[CP_PAD].i;
    t.dil = (uint32_t)v->v[CP_DILATION].i;
    t.dtype = v->v[CP_DTYPE].dt;
    t.split = cfg->chip_layout == DV_LAYOUT_SPLIT;
    t.depth = v->v[CP_DOUBLE_BUFFER].i ? 2 : 1;
    t.aiv = t.split ? (uint32_t)cfg->chip_aiv_per_core : 0;

    /* 1. output size */
    const uint64_t reach_h = (uint64_t)t.dil * (t.kh - 1) + 1, reach_w = (uint64_t)t.dil * (t.kw - 1) + 1;
    if (reach_h > (uint64_t)t.h + 2 * t.pad)
        return dv_ops_param_error(err, "kh", "the kernel reaches %llu rows (dilation*(kh-1)+1), more than the padded "
                                  "input height h+2*pad = %llu", (unsigned long long)reach_h,
                                  (unsigned long long)t.h + 2 * t.pad);
    if (reach_w > (uint64_t)t.w + 2 * t.pad)
        return dv_ops_param_error(err, "kw", "the kernel reaches %llu columns (dilation*(kw-1)+1), more than the "
                                  "padded input width w+2*pad = %llu", (unsigned long long)reach_w,
                                  (unsigned long long)t.w + 2 * t.pad);
    t.oh = (uint32_t)((t.h + 2 * t.pad - reach_h) / t.stride + 1);
    t.ow = (uint32_t)((t.w + 2 * t.pad - reach_w) / t.stride + 1);
    t.c1 = (uint32_t)cdiv(t.cin, C0);
    t.n1 = (uint32_t)cdiv(t.cout, C0);
    t.kk = t.kh * t.kw;
    const uint64_t ohw = (uint64_t)t.oh * t.ow, hw = (uint64_t)t.h * t.w;
    /* NCHW rows that are not whole 32-B blocks move with DataCopyPad */
    if (!cfg->chip_dma_pad && (hw % C0 || ohw % C0))
        return dv_ops_param_error(err, "w", "input rows of h*w = %llu and output rows of oh*ow = %llu elements must be "
                                  "whole 32-byte blocks (multiples of 16) without DataCopyPad, which profile %s "
                                  "lacks (chip.dma_pad is false)", (unsigned long long)hw, (unsigned long long)ohw,
                                  cfg->chip_name);
    if (!cfg->chip_dma_pad && (uint64_t)t.cin * t.kk % C0)
        return dv_ops_param_error(err, "cin", "weight rows of cin*kh*kw = %llu elements must be whole 32-byte blocks "
                                  "(multiples of 16) without DataCopyPad, which profile %s lacks (chip.dma_pad is "
                                  "false)", (unsigned long long)t.cin * t.kk, cfg->chip_name);
    if (hw * 2 > 16777215 || ohw * 2 > 16777215)
        return dv_ops_param_error(err, "h", "%llu input / %llu output positions per channel: a channel's stride "
                                  "exceeds the DataCopyPad gap limit of 16777215 bytes",
                                  (unsigned long long)hw, (unsigned long long)ohw);
    if ((uint64_t)t.cin * t.kk * 2 > 16777215)
        return dv_ops_param_error(err, "cin", "a weight row of cin*kh*kw = %llu elements exceeds the DataCopyPad gap "
                                  "limit of 16777215 bytes", (unsigned long long)t.cin * t.kk);

    /* 2. blocks */
    const uint32_t max_cores = (uint32_t)cfg->chip_ai_cores;
    uint32_t cores = v->v[CP_CORES].i ? (uint32_t)v->v[CP_CORES].i : max_cores;
    if (t.split && cores > max_cores)
        return dv_ops_param_error(err, "cores", "%u blocks, but the mix kernel's barrier needs every block resident: "
                                  "at most chip.ai_cores = %u", cores, max_cores);

    /* 3. the L0C tile */
    const uint32_t nbuf = t.depth;
    const bool bm_given = v->given[CP_BASE_M] && v->v[CP_BASE_M].i, bn_given = v->given[CP_BASE_N] && v->v[CP_BASE_N].i;
    if (bm_given && v->v[CP_BASE_M].i % C0)
        return dv_ops_param_error(err, "base-m", "%lld is not a multiple of 16 (the fractal height)",
                                  (long long)v->v[CP_BASE_M].i);
    if (bn_given && v->v[CP_BASE_N].i % C0)
        return dv_ops_param_error(err, "base-n", "%lld is not a multiple of 16 (the fractal width)",
                                  (long long)v->v[CP_BASE_N].i);
    t.bn = bn_given ? (uint32_t)v->v[CP_BASE_N].i : (uint32_t)umin(up16(t.cout), AUTO_BN);
    t.bn = (uint32_t)umin(t.bn, up16(t.cout));
    t.ntiles = (uint32_t)cdiv(t.cout, t.bn);
    if (bm_given)
        t.bm = (uint32_t)v->v[CP_BASE_M].i;
    else {
        /* up to AUTO_BM positions (fewer when L0C is small), and as many tiles as make whole waves */
        uint64_t cap = AUTO_BM;
        while (cap > C0 && cap * t.bn * 4 * nbuf > cfg->l0c_size_bytes)
            cap -= C0;
        uint64_t mt = cdiv(ohw, cap), total = (uint64_t)t.n * mt * t.ntiles;
        if (total < cores)
            mt = umin(cdiv(ohw, C0), cdiv(cores, (uint64_t)t.n * t.ntiles));
        else
            mt = umin(cdiv(ohw, C0), cdiv(cdiv(total, cores) * cores, (uint64_t)t.n * t.ntiles));
        t.bm = (uint32_t)up16(cdiv(ohw, mt));
    }
    t.bm = (uint32_t)umin(t.bm, up16(ohw));
    t.mtiles = (uint32_t)cdiv(ohw, t.bm);
    t.tasks = (uint64_t)t.n * t.mtiles * t.ntiles;
    const uint32_t nq = t.bn / C0;
    t.l0c_bytes = (uint64_t)t.bm * t.bn * 4;
    if (t.l0c_bytes * nbuf > cfg->l0c_size_bytes)
        return dv_ops_param_error(err, (uint64_t)C0 * t.bn * 4 * nbuf > cfg->l0c_size_bytes ? "base-n" : "base-m",
                                  "a base-m x base-n = %u x %u f32 tile (x%u buffers) needs %llu bytes of L0C; "
                                  "core.l0c_size_bytes is %llu", t.bm, t.bn, nbuf,
                                  (unsigned long long)(t.l0c_bytes * nbuf), (unsigned long long)cfg->l0c_size_bytes);
    if ((uint64_t)t.bm * C0 * 2 * nbuf > cfg->l0a_size_bytes)
        return dv_ops_param_error(err, "base-m", "%u rows of one 16-column K block (x%u buffers) need %llu bytes of "
                                  "L0A; core.l0a_size_bytes is %llu", t.bm, nbuf,
                                  (unsigned long long)t.bm * C0 * 2 * nbuf, (unsigned long long)cfg->l0a_size_bytes);
    if ((uint64_t)t.bn * C0 * 2 * nbuf > cfg->l0b_size_bytes)
        return dv_ops_param_error(err, "base-n", "%u columns of one 16-row K block (x%u buffers) need %llu bytes of "
                                  "L0B; core.l0b_size_bytes is %llu", t.bn, nbuf,
                                  (unsigned long long)t.bn * C0 * 2 * nbuf, (unsigned long long)cfg->l0b_size_bytes);
    t.kl = (uint32_t)umin(umin(cfg->l0a_size_bytes / nbuf / ((uint64_t)t.bm * C0 * 2),
                               cfg->l0b_size_bytes / nbuf / ((uint64_t)t.bn * C0 * 2)),
                          umin(MAX_REPEAT, (uint64_t)t.c1 * t.kk));
    t.l0a_bytes = (uint64_t)t.bm * t.kl * C0 * 2;
    t.l0b_bytes = (uint64_t)t.kl * nq * FRAC;

    /* 4. L1: the largest band, ck channel groups of it plus their weights per buffer */
    for (uint64_t mt = 0; mt < t.mtiles; mt++) {
        conv_band_t b;
        conv_band(&t, mt * t.bm, umin(t.bm, ohw - mt * t.bm), &b);
        t.rmax = (uint32_t)umax(t.rmax, b.rows);
        if (b.pad_t > 255 || b.pad_b > 255)
            return dv_ops_param_error(err, "pad", "a band of input rows would need %u / %u rows of padding; img2col "
                                      "allows 255", b.pad_t, b.pad_b);
    }
    const uint64_t per_c1 = (uint64_t)t.rmax * t.w * BLK + (uint64_t)t.kk * nq * FRAC;
    const uint64_t ck = cfg->l1_size_bytes / nbuf / per_c1;
    if (ck == 0 || (uint64_t)t.rmax * t.w > 65535)
        return dv_ops_param_error(err, "base-m", "one channel group of the input band (%u rows x %u x 32 B) and its "
                                  "weights (%u taps x %u x 512 B), x%u buffers, need %llu bytes of L1; "
                                  "core.l1_size_bytes is %llu", t.rmax, t.w, t.kk, nq, nbuf,
                                  (unsigned long long)per_c1 * nbuf, (unsigned long long)cfg->l1_size_bytes);
    t.ck = (uint32_t)umin(ck, t.c1);
    t.l1_wofs = (uint64_t)t.ck * t.rmax * t.w * BLK;
    t.l1_bytes = t.l1_wofs + (uint64_t)t.ck * t.kk * nq * FRAC;

    /* 5. UB: the transform unit */
    const uint64_t ub_slots = UB_BUFS;
    uint64_t p = XF_P_CAP;
    while (p >= 32 && ub_slots * 32 * (p + C0) > cfg->ub_size_bytes)
        p -= 32;
    if (p < 32)
        return dv_ops_param_error(err, "double-buffer", "the transform needs %llu bytes of UB; core.ub_size_bytes is "
                                  "%llu", (unsigned long long)ub_slots * 32 * 48,
                                  (unsigned long long)cfg->ub_size_bytes);
    t.p = (uint32_t)p;
    t.pp = (uint32_t)(p + C0);
    t.ub_bytes = (uint64_t)C0 * t.pp * 2;
    if (t.kk > t.p)
        return dv_ops_param_error(err, "kh", "kh*kw = %u taps exceed the %u columns of one transform unit (UB, "
                                  "core.ub_size_bytes is %llu)", t.kk, t.p, (unsigned long long)cfg->ub_size_bytes);
    /* whole channel groups per weight unit when 16 channels' taps fit one unit (regrouped into
     * 512-B fractal rows in UB), else as many channels as fit (stored row by row) */
    t.wreorder = (uint64_t)C0 * t.kk <= t.p && t.kk <= MAX_REPEAT;
    t.wcc = t.wreorder ? (uint32_t)umin(up16(t.cin), t.p / (C0 * t.kk) * C0) : (uint32_t)umin(t.cin, t.p / t.kk);
    while (!t.wreorder && !cfg->chip_dma_pad && t.wcc > 0 && (uint64_t)t.wcc * t.kk % C0 && t.wcc < t.cin)
        t.wcc--; /* whole 32-B rows per unit */
    if (t.wcc == 0)
        return dv_ops_param_error(err, "kh", "kh*kw = %u taps: no whole number of 32-byte weight rows fits the %u "
                                  "columns of one transform unit without DataCopyPad (chip.dma_pad is false)",
                                  t.kk, t.p);
    if (!t.split)
        cores = (uint32_t)umin(cores, t.tasks);

    /* 6. the launch */
    plan->info.kind = t.split ? DV_KIND_MIX : DV_KIND_CUBE;
    plan->info.blocks = cores;
    const dv_dtype_t dt = (dv_dtype_t)t.dtype;
    const double wr = 1.0 / sqrt((double)t.cin * t.kk); /* keeps |y| of order 1 whatever cin*kh*kw */
    int rc = DV_OK;
    t.arg_x = plan->info.nargs;
    rc |= dv_ops_add_arg(plan, "x", dt, (uint64_t)t.n * t.cin * hw, DV_ARG_IN, -1.0, 1.0);
    t.arg_w = plan->info.nargs;
    rc |= dv_ops_add_arg(plan, "w", dt, (uint64_t)t.cout * t.cin * t.kk, DV_ARG_IN, -wr * 1.7, wr * 1.7);
    t.arg_y = plan->info.nargs;
    rc |= dv_ops_add_arg(plan, "y", dt, (uint64_t)t.n * t.cout * ohw, DV_ARG_OUT, 0, 0);
    t.arg_x5 = plan->info.nargs;
    rc |= dv_ops_add_arg(plan, "x5hd", dt, (uint64_t)t.n * t.c1 * hw * C0, DV_ARG_OUT, 0, 0);
    t.arg_wf = plan->info.nargs;
    rc |= dv_ops_add_arg(plan, "wf", dt, (uint64_t)t.c1 * t.kk * t.n1 * C0 * C0, DV_ARG_OUT, 0, 0);
    if (t.split) {
        t.arg_y5 = plan->info.nargs;
        rc |= dv_ops_add_arg(plan, "y5hd", dt, (uint64_t)t.n * t.n1 * ohw * C0, DV_ARG_OUT, 0, 0);
    }
    if (rc != DV_OK)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "conv2d: tensor sizes overflow");
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 2ull * t.n * t.cout * ohw * t.cin * t.kk;
    plan->bytes = ((uint64_t)t.n * t.cin * hw + (uint64_t)t.cout * t.cin * t.kk + (uint64_t)t.n * t.cout * ohw) * 2;
    return DV_OK;
}

/* ---------------------------------------------------------------- reference */

/* Direct convolution in double, rounded once to the dtype; the workspaces as the kernel lays
 * them out (zeros in the padding channels; on coupled cores x5hd only where a band was read). */
static int conv_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    conv_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t dt = (dv_dtype_t)t.dtype;
    const uint8_t *x = in[t.arg_x], *w = in[t.arg_w];
    const uint64_t hw = (uint64_t)t.h * t.w, ohw = (uint64_t)t.oh * t.ow;
    /* on coupled cores x5hd holds the positions of the bands the tiles read (see coupled_prepare) */
    uint8_t *used = calloc(hw, 1);
    if (!used)
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "conv2d: out of memory");
    for (uint64_t mt = 0; mt < t.mtiles; mt++) {
        conv_band_t b;
        uint64_t q0 = 0, q1 = hw;
        conv_band(&t, mt * t.bm, umin(t.bm, ohw - mt * t.bm), &b);
        if (!t.split)
            conv_band_positions(&t, &b, &q0, &q1);
        memset(used + q0, 1, q1 - q0);
    }
    for (uint32_t n = 0; n < t.n; n++)
        for (uint32_t ci = 0; ci < t.cin; ci++)
            for (uint64_t p = 0; p < hw; p++)
                if (used[p])
                    dv_ops_store(expect[t.arg_x5], dt, (((uint64_t)n * t.c1 + ci / C0) * hw + p) * C0 + ci % C0,
                                 dv_ops_load(x, dt, ((uint64_t)n * t.cin + ci) * hw + p));
    free(used);
    for (uint32_t co = 0; co < t.cout; co++)
        for (uint32_t ci = 0; ci < t.cin; ci++)
            for (uint32_t tap = 0; tap < t.kk; tap++) {
                const uint64_t fr = ((uint64_t)(ci / C0) * t.kk + tap) * t.n1 + co / C0;
                dv_ops_store(expect[t.arg_wf], dt, (fr * C0 + ci % C0) * C0 + co % C0,
                             dv_ops_load(w, dt, ((uint64_t)co * t.cin + ci) * t.kk + tap));
            }
    for (uint32_t n = 0; n < t.n; n++)
        for (uint32_t co = 0; co < t.cout; co++)
            for (uint32_t oh = 0; oh < t.oh; oh++)
                for (uint32_t ow = 0; ow < t.ow; ow++) {
                    double acc = 0;
                    for (uint32_t ci = 0; ci < t.cin; ci++)
                        for (uint32_t i = 0; i < t.kh; i++) {
                            const int64_t ih = (int64_t)oh * t.stride - t.pad + (int64_t)i * t.dil;
                            if (ih < 0 || ih >= (int64_t)t.h)
                                continue;
                            for (uint32_t j = 0; j < t.kw; j++) {
                                const int64_t iw = (int64_t)ow * t.stride - t.pad + (int64_t)j * t.dil;
                                if (iw < 0 || iw >= (int64_t)t.w)
                                    continue;
                                acc += dv_ops_load(x, dt, (((uint64_t)n * t.cin + ci) * t.h + ih) * t.w + iw) *
                                       dv_ops_load(w, dt, (((uint64_t)co * t.cin + ci) * t.kh + i) * t.kw + j);
                            }
                        }
                    const uint64_t m = (uint64_t)oh * t.ow + ow;
                    dv_ops_store(expect[t.arg_y], dt, ((uint64_t)n * t.cout + co) * ohw + m, acc);
                    if (t.split)
                        dv_ops_store(expect[t.arg_y5], dt, (((uint64_t)n * t.n1 + co / C0) * ohw + m) * C0 + co % C0,
                                     acc);
                }
    return DV_OK;
}

const dv_opdesc_t dv_op_conv2d = {
    .name = "conv2d",
    .desc = "2-D convolution, NCHW: vector transforms to NC1HWC0, img2col + mmad on the cube, back to NCHW",
    .params = conv_params,
    .nparams = CP_COUNT,
    .plan = conv_plan,
    .kernel = conv_kernel,
    .reference = conv_reference,
};
