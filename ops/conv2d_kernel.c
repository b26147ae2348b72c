/* ops/conv2d_kernel.c - the kernel of the conv2d operator: the vector layout transforms, the cube
 * steps and the streams of each core kind.  The design (layouts, synchronisation, pipelining) is
 * described at the top of ops/conv2d.c; the tiling and tile geometry come from conv2d_internal.h. */
#include "../kernel/kapi_emit.h" /* dvk_<mnemonic> write into the stream (before dv/kapi.h) */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "conv2d_internal.h"

/* ---------------------------------------------------------------- kernel: context */

typedef struct conv_ctx {
    const conv_tiling_t *t;
    dv_dtype_t dt;
    dv_que_t inq, outq;     /* UB: MTE2 -> V, V -> MTE3 */
    uint64_t g;             /* UB: gathered / transposed tiles (V only) */
    uint64_t stage;         /* UB: weight rows before regrouping; L0C -> UB staging (coupled; V only) */
    uint64_t work, bb;      /* UB, --bias: a unit's rows in fp32; 16 channels' bias blocks (V only) */
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
    if (c->t->bias) {
        c->work = dvk_alloc(k, DV_SPACE_UB, UB_BIAS_BUFS * c->t->ub_bytes);
        c->bb = dvk_alloc(k, DV_SPACE_UB, C0 * BLK);
    }
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
        uint64_t n = dv_min_u64(DV_REPEAT_MAX, full - r);
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
    return (uint32_t)((c->t->pp * 2 - dv_ceil_div(p * 2, BLK) * BLK) / BLK);
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

static uint64_t xf_wunits(const conv_tiling_t *t) { return (uint64_t)t->n1 * dv_ceil_div(t->cin, t->wcc); }

static void xf_wunit(const conv_tiling_t *t, uint64_t i, xf_unit_t *u)
{
    const uint64_t per = dv_ceil_div(t->cin, t->wcc), row = (uint64_t)t->cin * t->kk;
    memset(u, 0, sizeof *u);
    u->wt = true;
    u->arg = t->arg_w;
    u->q = (uint32_t)(i / per);
    u->ci0 = (uint32_t)(i % per * t->wcc);
    u->nr = (uint32_t)dv_min_u64(C0, t->cout - u->q * C0);
    u->ld = row;
    u->p = dv_min_u64(t->wcc, t->cin - u->ci0) * t->kk;
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
    u->nr = (uint32_t)dv_min_u64(C0, t->cin - c1 * C0);
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
                                  slab_gap(c, u->p), 0, 0, 1);
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
        const uint64_t run = dv_min_u64(C0, cc - g * C0);
        for (uint32_t tap = 0; tap < t->kk; tap++)
            for (uint64_t h = 0; h * 8 < run; h++) {
                const uint64_t r = dv_min_u64(8, run - h * 8);
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
    const uint32_t tt = (uint32_t)dv_ceil_div(u->p, C0);
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
            const uint64_t run = dv_min_u64(C0, cc - g * C0);
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
            const uint64_t c1 = ci / C0, run = dv_min_u64(ci_end, (c1 + 1) * C0) - ci;
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
    const uint64_t hw = (uint64_t)t->h * t->w, per = dv_ceil_div(hw, t->p);
    const uint64_t chunk = g % per, nc = g / per;
    const uint64_t p0 = chunk * t->p;
    xf_xunit(t, (uint32_t)(nc / t->c1), (uint32_t)(nc % t->c1), p0, dv_min_u64(t->p, hw - p0), u);
}

static uint64_t xf_count_all(const conv_tiling_t *t, uint64_t a, uint64_t na)
{
    const uint64_t total = xf_wunits(t) + (uint64_t)t->n * t->c1 * dv_ceil_div((uint64_t)t->h * t->w, t->p);
    return total > a ? dv_ceil_div(total - a, na) : 0;
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
    return t->c1 * dv_ceil_div(b->q1 - b->q0, t->p);
}

static void xf_get_band(const conv_tiling_t *t, const void *arg, uint64_t i, xf_unit_t *u)
{
    const xf_band_t *b = arg;
    const uint64_t per = dv_ceil_div(b->q1 - b->q0, t->p);
    const uint64_t p0 = b->q0 + i % per * t->p;
    xf_xunit(t, b->n, (uint32_t)(i / per), p0, dv_min_u64(t->p, b->q1 - p0), u);
}

/* ---------------------------------------------------------------- kernel: back to NCHW */

/* --bias: GM -> UB (at dst) of the fp32 biases of the up to 16 channels [co, co + nco). */
static void bias_load(dv_k_t *k, const conv_ctx_t *c, uint64_t dst, uint32_t co, uint32_t nco)
{
    dvk_copy_gm_to_ubuf(k, dst, dvk_gm(k, c->t->arg_b, (uint64_t)co * 4), 1, (int64_t)dv_ceil_div(nco * 4, BLK), 0, 0);
}

/* --bias: the loaded biases (at src) -> one 32-B block per channel in c->bb. */
static void bias_broadcast(dv_k_t *k, const conv_ctx_t *c, uint64_t src, uint32_t nco)
{
    dvk_vbrcb(k, c->bb, src, DV_DT_F32, (int64_t)dv_ceil_div(nco, 8), 1, 8);
}

/* --bias: rows [0, nco) (channels) x columns [0, p) (positions) of the slab `slab` become
 * dtype(relu(fp32(y) + b[row])): cast into c->work (same pitch, fp32), add the row's bias block
 * (block stride 0), ReLU with --relu, cast back.  The repeats walk the rows, one instruction per
 * 64 columns (the last under a mask). */
static void y_bias(dv_k_t *k, const conv_ctx_t *c, uint64_t slab, uint32_t nco, uint64_t p)
{
    const conv_tiling_t *t = c->t;
    const int64_t rep_h = t->pp * 2 / BLK, rep_f = t->pp * 4 / BLK; /* row pitch in blocks: dtype, fp32 */
    for (int step = 0; step < 4; step++) {
        if (step == 2 && !t->relu)
            continue;
        for (uint64_t c0 = 0; c0 < p; c0 += BIAS_LANES) {
            const uint64_t n = dv_min_u64(BIAS_LANES, p - c0), w = c->work + c0 * 4, h = slab + c0 * 2;
            if (n < BIAS_LANES)
                dvk_mask_first(k, DV_DT_F32, (uint32_t)n);
            if (step == 0)
                dvk_vconv(k, w, h, DV_DT_F32, c->dt, DV_ROUND_R, nco, 1, 1, rep_f, rep_h);
            else if (step == 1)
                dvk_vadd(k, w, w, c->bb, DV_DT_F32, nco, 1, 1, 0, rep_f, rep_f, 1);
            else if (step == 2)
                dvk_vrelu(k, w, w, DV_DT_F32, nco, 1, 1, rep_f, rep_f);
            else
                dvk_vconv(k, h, w, c->dt, DV_DT_F32, DV_ROUND_R, nco, 1, 1, rep_h, rep_f);
            if (n < BIAS_LANES)
                dvk_mask_all(k);
        }
        if (step < 3)
            dvk_pipe_barrier(k, DV_PIPE_V);
    }
}

/* The transposed tiles in c->g (tile i = 16 channels x positions 16i..16i+15) -> y rows
 * [co, co + nco) of image n, positions [m, m + p). */
static void y_store(dv_k_t *k, conv_ctx_t *c, uint32_t n, uint32_t co, uint32_t nco, uint64_t m, uint64_t p)
{
    const conv_tiling_t *t = c->t;
    const uint64_t ohw = (uint64_t)t->oh * t->ow;
    const uint64_t out = dvk_que_alloc(k, &c->outq);
    tiles_scatter(k, c, out, c->g, (uint32_t)dv_ceil_div(p, C0));
    if (t->bias) {
        dvk_pipe_barrier(k, DV_PIPE_V);
        y_bias(k, c, out, nco, p);
    }
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

static uint64_t cube_items_per_task(const conv_tiling_t *t) { return dv_ceil_div(t->c1, t->ck); }

static void cube_item(const conv_tiling_t *t, uint64_t task0, uint64_t i, cube_item_t *it)
{
    const uint64_t per = cube_items_per_task(t);
    it->task = task0 + i / per;
    it->c1a = (uint32_t)(i % per * t->ck);
    it->ckc = (uint32_t)dv_min_u64(t->ck, t->c1 - it->c1a);
    it->first = i % per == 0;
    it->last = i % per == per - 1;
}

/* CopyIn to L1: the band rows of ckc channel groups (x5hd) and the K x N weight slice (wf). */
static void cube_load(dv_k_t *k, conv_ctx_t *c, const cube_item_t *it)
{
    const conv_tiling_t *t = c->t;
    conv_task_t tk;
    conv_band_t b;
    dv_conv2d_task(t, it->task, &tk);
    dv_conv2d_band(t, tk.m0, tk.mc, &b);
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
        const uint64_t nb = dv_min_u64(4095, nkb - kb);
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
    dv_conv2d_task(t, it->task, &tk);
    dv_conv2d_band(t, tk.m0, tk.mc, &b);
    const uint64_t buf = dvk_que_deque(k, &c->l1q);
    const uint32_t kb_all = it->ckc * t->kk;
    const uint64_t m_start = tk.m0 - (uint64_t)b.oh_r * t->ow;
    for (uint32_t kb = 0; kb < kb_all; kb += t->kl) {
        const uint32_t klc = (uint32_t)dv_min_u64(t->kl, kb_all - kb);
        const uint64_t a = dvk_que_alloc(k, &c->l0aq);
        dvk_img2col_cbuf_to_ca(k, a, buf, c->dt, b.rows, t->w, it->ckc, t->kh, t->kw, t->stride, t->stride, b.pad_t,
                               b.pad_b, t->pad, t->pad, t->dil, t->dil, (int64_t)m_start, (int64_t)tk.mc,
                               (int64_t)kb * C0, (int64_t)klc * C0, 0, 0, 0);
        const uint64_t bb = dvk_que_alloc(k, &c->l0bq);
        const uint32_t nfr = klc * tk.nq;
        for (uint32_t f = 0; f < nfr; f += DV_REPEAT_MAX) {
            const uint32_t r = (uint32_t)dv_min_u64(DV_REPEAT_MAX, nfr - f);
            dvk_load_cbuf_to_cb(k, bb + (uint64_t)f * FRAC, buf + t->l1_wofs, c->dt, (int64_t)kb * tk.nq + f, r, 1, 0,
                                1);
        }
        dvk_que_enque(k, &c->l0aq, a);
        dvk_que_enque(k, &c->l0bq, bb);
        if (it->first && kb == 0)
            *l0c = dvk_que_alloc(k, &c->l0cq);
        dvk_que_deque(k, &c->l0aq);
        dvk_que_deque(k, &c->l0bq);
        dvk_mmad(k, *l0c, a, bb, c->dt, (int64_t)tk.mc, (int64_t)klc * C0, tk.nc, it->first && kb == 0, 0, 0);
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
    dv_conv2d_task(t, task, &tk);
    const uint64_t l0c = dvk_que_deque(k, &c->l0cq);
    const uint64_t dst = (((uint64_t)tk.n * t->n1 + tk.co0 / C0) * ohw + tk.m0) * BLK;
    dvk_copy_matrix_cc_to_gm(k, dvk_gm(k, t->arg_y5, dst), l0c, tk.nc, (int64_t)tk.mc, (int64_t)dv_round_up(tk.mc, C0),
                             (int64_t)ohw, quant_of(c->dt), t->relu && !t->bias, 0, 0);
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
    dv_conv2d_task(t, task, &tk);
    const uint64_t l0c = dvk_que_deque(k, &c->l0cq);
    const uint64_t rows = dv_round_up(tk.mc, C0);
    for (uint32_t q = 0; q < tk.nq; q++) {
        const uint32_t nco = (uint32_t)dv_min_u64(C0, tk.nc - q * C0);
        if (t->bias) { /* through the in queue, so that the load overlaps the L0C -> UB copy */
            const uint64_t b = dvk_que_alloc(k, &c->inq);
            bias_load(k, c, b, tk.co0 + q * C0, nco);
            dvk_que_enque(k, &c->inq, b);
        }
        for (uint64_t ms = 0; ms < tk.mc; ms += t->p) {
            const uint64_t pc = dv_min_u64(t->p, tk.mc - ms);
            dvk_copy_matrix_cc_to_ubuf(k, c->stage, l0c + ((uint64_t)q * rows + ms) * C0 * 4, nco, (int64_t)pc,
                                       (int64_t)rows, (int64_t)dv_round_up(pc, C0), quant_of(c->dt),
                                       t->relu && !t->bias, 0, 0);
            if (t->bias && ms == 0) {
                const uint64_t b = dvk_que_deque(k, &c->inq);
                bias_broadcast(k, c, b, nco);
                dvk_que_free(k, &c->inq, b);
            }
            dvk_pipe_barrier(k, DV_PIPE_V);
            tiles_transpose(k, c, c->g, c->stage, (uint32_t)dv_ceil_div(pc, C0));
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
    dv_conv2d_task(t, it->task, &tk);
    if (c->have_band && c->band_n == tk.n && c->band_mt == tk.mt)
        return;
    dv_conv2d_band(t, tk.m0, tk.mc, &b);
    if (c->have_band) { /* earlier L1 loads read x5hd rows this band rewrites */
        dvk_set_flag(k, DV_PIPE_MTE2, DV_PIPE_MTE3, c->ev_ld_st);
        dvk_wait_flag(k, DV_PIPE_MTE2, DV_PIPE_MTE3, c->ev_ld_st);
    }
    xf_band_t xb = {tk.n, 0, 0};
    dv_conv2d_band_positions(t, &b, &xb.q0, &xb.q1);
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
    const uint64_t tt = dv_ceil_div(tk->mc, C0);
    *lo = dv_min_u64(tk->mc, tt * v / t->aiv * C0);
    *hi = dv_min_u64(tk->mc, tt * (v + 1) / t->aiv * C0);
}

static uint64_t yb_count(const conv_tiling_t *t, uint64_t task, uint32_t v)
{
    conv_task_t tk;
    uint64_t lo, hi;
    dv_conv2d_task(t, task, &tk);
    yb_range(t, &tk, v, &lo, &hi);
    return hi > lo ? tk.nq * dv_ceil_div(hi - lo, t->p) : 1;
}

static void yb_item(const conv_tiling_t *t, uint64_t task, uint32_t v, uint64_t i, yb_item_t *it)
{
    conv_task_t tk;
    uint64_t lo, hi;
    dv_conv2d_task(t, task, &tk);
    yb_range(t, &tk, v, &lo, &hi);
    memset(it, 0, sizeof *it);
    it->task = task;
    it->sync = i == 0;
    if (hi <= lo)
        return;
    const uint64_t per = dv_ceil_div(hi - lo, t->p), m = lo + i % per * t->p;
    it->q = (uint32_t)(i / per);
    it->m = tk.m0 + m;
    it->p = dv_min_u64(t->p, hi - m);
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
    dv_conv2d_task(t, it->task, &tk);
    const uint64_t ohw = (uint64_t)t->oh * t->ow;
    const uint64_t buf = dvk_que_alloc(k, &c->inq);
    const uint64_t src = (((uint64_t)tk.n * t->n1 + tk.co0 / C0 + it->q) * ohw + it->m) * BLK;
    dvk_copy_gm_to_ubuf(k, buf, dvk_gm(k, t->arg_y5, src), 1, (int64_t)it->p, 0, 0);
    if (t->bias) /* behind the largest tile: the buffer is 16 x (P + 16) elements */
        bias_load(k, c, buf + (uint64_t)t->p * BLK, tk.co0 + it->q * C0, (uint32_t)dv_min_u64(C0, tk.nc - it->q * C0));
    dvk_que_enque(k, &c->inq, buf);
}

static void yb_compute(dv_k_t *k, conv_ctx_t *c, const yb_item_t *it)
{
    if (it->p == 0)
        return;
    conv_task_t tk;
    dv_conv2d_task(c->t, it->task, &tk);
    const uint32_t nco = (uint32_t)dv_min_u64(C0, tk.nc - it->q * C0);
    const uint64_t buf = dvk_que_deque(k, &c->inq);
    tiles_transpose(k, c, c->g, buf, (uint32_t)dv_ceil_div(it->p, C0));
    if (c->t->bias)
        bias_broadcast(k, c, buf + (uint64_t)c->t->p * BLK, nco);
    dvk_que_free(k, &c->inq, buf);
    dvk_pipe_barrier(k, DV_PIPE_V);
    y_store(k, c, tk.n, tk.co0 + it->q * C0, nco, it->m, it->p);
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
    dv_conv2d_block_tasks(t, dvk_block_idx(k), dvk_block_num(k), &task0, &task1);
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
    dv_conv2d_block_tasks(t, dvk_block_idx(k), dvk_block_num(k), &task0, &task1);
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
    dv_conv2d_block_tasks(t, dvk_block_idx(k), dvk_block_num(k), &task0, &task1);
    if (task0 == task1)
        return;
    ctx_ub(k, c);
    ctx_cube(k, c, DV_PIPE_V);
    c->ev_st_ld = dvk_event_alloc(k, DV_PIPE_MTE3, DV_PIPE_MTE2);
    c->ev_ld_st = dvk_event_alloc(k, DV_PIPE_MTE2, DV_PIPE_MTE3);
    xf_run(k, c, xf_wunits(t), xf_get_w, NULL); /* ordered before the first L1 load by coupled_prepare */
    cube_run(k, c, task0, task1);
}

void dv_conv2d_kernel(dv_k_t *k, const void *params)
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
