/* ops/norm_kernel.c - the kernel of the row-wise normalisation operators (softmax, layernorm,
 * rmsnorm, batchnorm): the vector steps and the tile loop.  The design is described at the top of
 * ops/norm.c; the tiling and the UB layout come from norm_internal.h. */
#include "../kernel/kapi_emit.h" /* dvk_<mnemonic> write into the stream (before dv/kapi.h) */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "norm_internal.h"

/* ================================================================ kernel helpers */

/* A 2-D vector operand: repeat (row r, chunk c) starts at a + r*rs + c*cs; blk is the block stride
 * inside a repeat (1: contiguous 256 B; 0: one 32 B block read 8 times, a per-row broadcast). */
typedef struct opnd {
    uint64_t a, rs, cs, blk;
} opnd_t;

static opnd_t tile_op(uint64_t a, uint64_t pitch) { return (opnd_t){a, pitch, REP_BYTES, 1}; }
static opnd_t at_chunk(opnd_t o, uint64_t c) { o.a += c * o.cs; return o; }

typedef void (*vbin_fn)(dv_k_t *, uint64_t, uint64_t, uint64_t, dv_dtype_t, int64_t, int64_t, int64_t, int64_t,
                        int64_t, int64_t, int64_t);
typedef void (*vun_fn)(dv_k_t *, uint64_t, uint64_t, dv_dtype_t, int64_t, int64_t, int64_t, int64_t, int64_t);
typedef void (*vsc_fn)(dv_k_t *, uint64_t, uint64_t, dv_dtype_t, double, int64_t, int64_t, int64_t, int64_t,
                       int64_t);

static void bar(dv_k_t *k) { dvk_pipe_barrier(k, DV_PIPE_V); }

static bool rep_ok(uint64_t stride)
{
    return stride % BLK == 0 && stride / BLK <= dv_ops_field_max(DV_FORM_VBIN, DV_FLD(VBIN, dst_rep));
}

/* Column-major issue (repeats walk the rows) when every row pitch fits a repeat stride and it takes
 * fewer instructions than row-major issue (repeats walk the chunks). */
static bool by_column(const opnd_t *o, int n, uint64_t R, uint64_t N)
{
    for (int i = 0; i < n; i++)
        if (!rep_ok(o[i].rs))
            return false;
    return N * dv_ceil_div(R, DV_REPEAT_MAX) < R * dv_ceil_div(N, DV_REPEAT_MAX);
}

/* dst = fn(s0, s1) over R rows x N chunks of 64 fp32 lanes, under the current mask. */
static void bin2d(dv_k_t *k, vbin_fn fn, opnd_t d, opnd_t s0, opnd_t s1, uint64_t R, uint64_t N)
{
    if (!R || !N)
        return;
    const opnd_t o[3] = {d, s0, s1};
    if (by_column(o, 3, R, N)) {
        for (uint64_t c = 0; c < N; c++)
            for (uint64_t r = 0; r < R; r += DV_REPEAT_MAX)
                fn(k, d.a + c * d.cs + r * d.rs, s0.a + c * s0.cs + r * s0.rs, s1.a + c * s1.cs + r * s1.rs, DV_DT_F32,
                   (int64_t)dv_min_u64(DV_REPEAT_MAX, R - r), d.blk, s0.blk, s1.blk, d.rs / BLK, s0.rs / BLK,
                   s1.rs / BLK);
    } else {
        for (uint64_t r = 0; r < R; r++)
            for (uint64_t c = 0; c < N; c += DV_REPEAT_MAX)
                fn(k, d.a + r * d.rs + c * d.cs, s0.a + r * s0.rs + c * s0.cs, s1.a + r * s1.rs + c * s1.cs, DV_DT_F32,
                   (int64_t)dv_min_u64(DV_REPEAT_MAX, N - c), d.blk, s0.blk, s1.blk, d.cs / BLK, s0.cs / BLK,
                   s1.cs / BLK);
    }
}

static void un2d(dv_k_t *k, vun_fn fn, opnd_t d, opnd_t s, uint64_t R, uint64_t N)
{
    if (!R || !N)
        return;
    const opnd_t o[2] = {d, s};
    if (by_column(o, 2, R, N)) {
        for (uint64_t c = 0; c < N; c++)
            for (uint64_t r = 0; r < R; r += DV_REPEAT_MAX)
                fn(k, d.a + c * d.cs + r * d.rs, s.a + c * s.cs + r * s.rs, DV_DT_F32,
                   (int64_t)dv_min_u64(DV_REPEAT_MAX, R - r), d.blk, s.blk, d.rs / BLK, s.rs / BLK);
    } else {
        for (uint64_t r = 0; r < R; r++)
            for (uint64_t c = 0; c < N; c += DV_REPEAT_MAX)
                fn(k, d.a + r * d.rs + c * d.cs, s.a + r * s.rs + c * s.cs, DV_DT_F32,
                   (int64_t)dv_min_u64(DV_REPEAT_MAX, N - c), d.blk, s.blk, d.cs / BLK, s.cs / BLK);
    }
}

/* dst = fn(s0, s1) over R rows of `cols` elements: whole chunks, then the tail chunk under a mask. */
static void rowop(dv_k_t *k, vbin_fn fn, opnd_t d, opnd_t s0, opnd_t s1, uint64_t R, uint64_t cols)
{
    const uint64_t n = cols / LANES, t = cols % LANES;
    bin2d(k, fn, d, s0, s1, R, n);
    if (t) {
        dvk_mask_first(k, DV_DT_F32, (uint32_t)t);
        bin2d(k, fn, at_chunk(d, n), at_chunk(s0, n), at_chunk(s1, n), R, 1);
        dvk_mask_all(k);
    }
}

/* Flat fp32 ops over `elems` contiguous elements (whole repeats: buffers are sized for them). */
static void flat_un(dv_k_t *k, vun_fn fn, uint64_t d, uint64_t s, uint64_t elems)
{
    const uint64_t reps = dv_ceil_div(elems, LANES);
    for (uint64_t r = 0; r < reps; r += DV_REPEAT_MAX)
        fn(k, d + r * REP_BYTES, s + r * REP_BYTES, DV_DT_F32, (int64_t)dv_min_u64(DV_REPEAT_MAX, reps - r), 1, 1, 8,
           8);
}

static void flat_bin(dv_k_t *k, vbin_fn fn, uint64_t d, uint64_t s0, uint64_t s1, uint64_t elems)
{
    const uint64_t reps = dv_ceil_div(elems, LANES);
    for (uint64_t r = 0; r < reps; r += DV_REPEAT_MAX)
        fn(k, d + r * REP_BYTES, s0 + r * REP_BYTES, s1 + r * REP_BYTES, DV_DT_F32,
           (int64_t)dv_min_u64(DV_REPEAT_MAX, reps - r), 1, 1, 1, 8, 8, 8);
}

static void flat_sc(dv_k_t *k, vsc_fn fn, uint64_t d, uint64_t s, double v, uint64_t elems)
{
    const uint64_t reps = dv_ceil_div(elems, LANES);
    for (uint64_t r = 0; r < reps; r += DV_REPEAT_MAX)
        fn(k, d + r * REP_BYTES, s + r * REP_BYTES, DV_DT_F32, v, (int64_t)dv_min_u64(DV_REPEAT_MAX, reps - r), 1, 1, 8,
           8);
}

/* fp16 <-> fp32 casts over `elems` elements: 64 per repeat, 128 B on the fp16 side. */
static void flat_cast(dv_k_t *k, uint64_t d, dv_dtype_t dt, uint64_t s, dv_dtype_t st, uint64_t elems)
{
    const uint64_t reps = dv_ceil_div(elems, LANES);
    const uint64_t dstep = dv_dtype_size(dt) * LANES, sstep = dv_dtype_size(st) * LANES;
    for (uint64_t r = 0; r < reps; r += DV_REPEAT_MAX)
        dvk_vconv(k, d + r * dstep, s + r * sstep, dt, st, DV_ROUND_R, (int64_t)dv_min_u64(DV_REPEAT_MAX, reps - r), 1,
                  1, (int64_t)(dstep / BLK), (int64_t)(sstep / BLK));
}

/* Reduce each of R rows of `cols` elements (src, fp32) to one value.  The 64-lane chunks are
 * folded pairwise, a tree of ceil(log2(chunks)) levels, into work (same pitch as src; may be src
 * itself), the tail chunk under a mask; then vcadd / vcmax of each row's first chunk go to vals.
 * Returns q: the value of row r is element r*q of vals (vcmax writes value/index pairs; a
 * row-by-row reduction writes one 32 B slot per row). */
static uint64_t reduce_rows(dv_k_t *k, bool is_max, opnd_t src, opnd_t work, uint64_t R, uint64_t cols, uint64_t vals)
{
    const vbin_fn fn = is_max ? dvk_vmax : dvk_vadd;
    const uint64_t n = cols / LANES, t = cols % LANES;
    opnd_t v = src;
    if (n >= 1) {
        /* each level: work[i] = s[2i] op s[2i+1]; an odd last chunk moves to work[m/2].  Adjacent
         * chunks are 256 B apart, so the two sources of a repeat sit in different UB bank groups. */
        opnd_t s = src;
        for (uint64_t m = n, level = 0; m > 1 || level == 0; m = (m + 1) / 2, level++) {
            if (level)
                bar(k);
            const opnd_t even = {s.a, s.rs, 2 * s.cs, 1}, odd = {s.a + s.cs, s.rs, 2 * s.cs, 1};
            bin2d(k, fn, work, even, odd, R, m / 2);
            if (m % 2 && (s.a != work.a || m > 1))
                un2d(k, dvk_vcopy, at_chunk(work, m / 2), at_chunk(s, m - 1), R, 1);
            if (level == 0 && t) {
                bar(k);
                dvk_mask_first(k, DV_DT_F32, (uint32_t)t);
                bin2d(k, fn, work, work, at_chunk(src, n), R, 1);
                dvk_mask_all(k);
            }
            s = work;
        }
        bar(k);
        v = work;
    }
    const uint64_t lanes = n ? LANES : t;
    const uint64_t q = dv_norm_red_q(v.rs, is_max);
    if (lanes < LANES)
        dvk_mask_first(k, DV_DT_F32, (uint32_t)lanes);
    if (q < 8) {
        /* all rows at once; pieces start at a multiple of 8 rows so each result slot is 32 B aligned */
        for (uint64_t r = 0; r < R; r += 248) {
            const int64_t nr = (int64_t)dv_min_u64(248, R - r);
            if (is_max)
                dvk_vcmax(k, vals + r * q * 4, v.a + r * v.rs, DV_DT_F32, nr, 1, 1, (int64_t)(v.rs / BLK), 0);
            else
                dvk_vcadd(k, vals + r * q * 4, v.a + r * v.rs, DV_DT_F32, nr, 1, 1, (int64_t)(v.rs / BLK), 0);
        }
    } else {
        for (uint64_t r = 0; r < R; r++) {
            if (is_max)
                dvk_vcmax(k, vals + r * BLK, v.a + r * v.rs, DV_DT_F32, 1, 1, 1, 8, 0);
            else
                dvk_vcadd(k, vals + r * BLK, v.a + r * v.rs, DV_DT_F32, 1, 1, 1, 8, 0);
        }
    }
    if (lanes < LANES)
        dvk_mask_all(k);
    return q;
}

/* vals -> one 32 B block per value: the value of row r (element r*q) fills block r*q of bc. */
static opnd_t broadcast(dv_k_t *k, uint64_t vals, uint64_t bc, uint64_t R, uint64_t q)
{
    const uint64_t reps = dv_ceil_div(R * q, 8);
    for (uint64_t r = 0; r < reps; r += DV_REPEAT_MAX)
        dvk_vbrcb(k, bc + r * 8 * BLK, vals + r * 8 * 4, DV_DT_F32, (int64_t)dv_min_u64(DV_REPEAT_MAX, reps - r), 1, 8);
    return (opnd_t){bc, q * BLK, 0, 0};
}

/* ---- GM <-> UB: `rows` rows of row_bytes, contiguous in GM, at a pitch of ceil32(row_bytes) in UB */

static void copy_in(dv_k_t *k, uint64_t ub, uint32_t arg, uint64_t off, uint64_t rows, uint64_t row_bytes)
{
    if (row_bytes % BLK == 0) {
        const uint64_t blocks = rows * row_bytes / BLK;
        if (blocks <= 65535) {
            dvk_copy_gm_to_ubuf(k, ub, dvk_gm(k, arg, off), 1, (int64_t)blocks, 0, 0);
            return;
        }
        for (uint64_t r = 0; r < rows; r += 4095)
            dvk_copy_gm_to_ubuf(k, ub + r * row_bytes, dvk_gm(k, arg, off + r * row_bytes),
                                (int64_t)dv_min_u64(4095, rows - r), (int64_t)(row_bytes / BLK), 0, 0);
        return;
    }
    const uint64_t pitch = dv_round_up(row_bytes, BLK);
    for (uint64_t r = 0; r < rows; r += 4095)
        dvk_copy_gm_to_ubuf_align(k, ub + r * pitch, dvk_gm(k, arg, off + r * row_bytes),
                                  (int64_t)dv_min_u64(4095, rows - r), (int64_t)row_bytes, 0, 0, 0, 0, 1);
}

static void copy_out(dv_k_t *k, uint32_t arg, uint64_t off, uint64_t ub, uint64_t rows, uint64_t row_bytes)
{
    if (row_bytes % BLK == 0) {
        const uint64_t blocks = rows * row_bytes / BLK;
        if (blocks <= 65535) {
            dvk_copy_ubuf_to_gm(k, dvk_gm(k, arg, off), ub, 1, (int64_t)blocks, 0, 0);
            return;
        }
        for (uint64_t r = 0; r < rows; r += 4095)
            dvk_copy_ubuf_to_gm(k, dvk_gm(k, arg, off + r * row_bytes), ub + r * row_bytes,
                                (int64_t)dv_min_u64(4095, rows - r), (int64_t)(row_bytes / BLK), 0, 0);
        return;
    }
    const uint64_t pitch = dv_round_up(row_bytes, BLK);
    for (uint64_t r = 0; r < rows; r += 4095)
        dvk_copy_ubuf_to_gm_align(k, dvk_gm(k, arg, off + r * row_bytes), ub + r * pitch,
                                  (int64_t)dv_min_u64(4095, rows - r), (int64_t)row_bytes, 0, 0);
}

/* --stats: the fp32 values of rows [row, row + rows) to GM, from UB where row r's value is element r*q:
 * one burst of all of them (q = 1), or one 4-byte burst per row, each from its own 32 B slot (q = 8). */
static void copy_stats(dv_k_t *k, uint32_t arg, uint64_t row, uint64_t ub, uint64_t rows, uint64_t q)
{
    if (q == 1) {
        dvk_copy_ubuf_to_gm_align(k, dvk_gm(k, arg, row * 4), ub, 1, (int64_t)(rows * 4), 0, 0);
        return;
    }
    for (uint64_t r = 0; r < rows; r += 4095)
        dvk_copy_ubuf_to_gm_align(k, dvk_gm(k, arg, (row + r) * 4), ub + r * BLK, (int64_t)dv_min_u64(4095, rows - r),
                                  4, 0, 0);
}

/* ================================================================ the kernel */

typedef struct norm_bufs {
    norm_ub_t u;
    uint64_t xf, tmp, vals, bc, par[4], pbc_scale, pbc_shift;
} norm_bufs_t;

/* Load the parameter vectors once per block (MTE2), wait for them on V (an event; a fused kernel's
 * tile code uses pipe_barrier(ALL), which takes no event id from the kernel's queues) and cast them to fp32;
 * batchnorm then folds them into a per-channel scale and shift and broadcasts both. */
static void load_params(dv_k_t *k, const norm_tiling_t *t, const uint32_t *argmap, bool barrier, norm_bufs_t *b)
{
    if (!t->nparams)
        return;
    const bool f16 = t->dt == DV_DT_F16;
    const uint64_t plen = t->kind == NK_BATCHNORM ? t->channels : t->cols, size = dv_dtype_size(t->dt);
    uint64_t stage[4];
    for (uint32_t i = 0; i < t->nparams; i++) {
        b->par[i] = dvk_alloc(k, DV_SPACE_UB, b->u.par);
        stage[i] = f16 ? b->tmp + i * b->u.stage : b->par[i];
        /* whole 32 B blocks: the argument is padded to them, and the padding is never used */
        dvk_copy_gm_to_ubuf(k, stage[i], dvk_gm(k, argmap[t->a_p[i]], 0), 1, (int64_t)dv_ceil_div(plen * size, BLK), 0, 0);
    }
    if (barrier) { /* a fused kernel's: once per block, and no event id taken from its queues */
        dvk_pipe_barrier(k, DV_PIPE_ALL);
    } else {
        const int ev = dvk_event_alloc(k, DV_PIPE_MTE2, DV_PIPE_V);
        dvk_set_flag(k, DV_PIPE_MTE2, DV_PIPE_V, ev);
        dvk_wait_flag(k, DV_PIPE_MTE2, DV_PIPE_V, ev);
    }
    if (f16) {
        for (uint32_t i = 0; i < t->nparams; i++)
            flat_cast(k, b->par[i], DV_DT_F32, stage[i], DV_DT_F16, plen);
        bar(k);
    }
    if (t->kind != NK_BATCHNORM)
        return;
    /* scale = gamma / sqrt(var + eps) (into gamma), shift = beta - mean * scale (into beta) */
    const uint64_t mean = b->par[0], var = b->par[1], gamma = b->par[2], beta = b->par[3];
    flat_sc(k, dvk_vadds, var, var, t->eps, plen);
    bar(k);
    flat_un(k, dvk_vrsqrt, var, var, plen);
    bar(k);
    flat_bin(k, dvk_vmul, gamma, gamma, var, plen);
    bar(k);
    flat_bin(k, dvk_vmul, mean, mean, gamma, plen);
    bar(k);
    flat_bin(k, dvk_vsub, beta, beta, mean, plen);
    b->pbc_scale = dvk_alloc(k, DV_SPACE_UB, b->u.pbc);
    b->pbc_shift = dvk_alloc(k, DV_SPACE_UB, b->u.pbc);
    bar(k);
    broadcast(k, gamma, b->pbc_scale, plen, 1);
    broadcast(k, beta, b->pbc_shift, plen, 1);
    bar(k);
}

/* Batchnorm: d = fn(s, per-channel block) for R units starting at unit u0, split into runs of
 * consecutive channels so the blocks are read at a repeat stride of one block per row. */
static void bn_apply(dv_k_t *k, const norm_tiling_t *t, vbin_fn fn, opnd_t d, opnd_t s, uint64_t pbc, uint64_t u0,
                     uint64_t R, uint64_t cols)
{
    for (uint64_t r = 0; r < R;) {
        const uint64_t ch = (u0 + r) / t->nseg % t->channels;
        const uint64_t n = t->nseg > 1 ? 1 : t->channels == 1 ? R - r : dv_min_u64(R - r, t->channels - ch);
        const opnd_t blk = {pbc + ch * BLK, t->channels == 1 ? 0 : BLK, 0, 0};
        opnd_t dd = d, ss = s;
        dd.a += r * d.rs;
        ss.a += r * s.rs;
        rowop(k, fn, dd, ss, blk, n, cols);
        r += n;
    }
}

/* 1 / sqrt(mean + eps) per row of the squares in `sq` (reduced in place) into dst (vals, or the
 * --stats output), broadcast into 32 B blocks: the last steps of layernorm and rmsnorm. */
static opnd_t rstd_rows(dv_k_t *k, const norm_tiling_t *t, const norm_bufs_t *b, opnd_t sq, uint64_t R,
                        uint64_t cols, double inv, uint64_t dst)
{
    const uint64_t q = reduce_rows(k, false, sq, sq, R, cols, b->vals);
    bar(k);
    flat_sc(k, dvk_vmuls, b->vals, b->vals, inv, R * q);
    bar(k);
    flat_sc(k, dvk_vadds, b->vals, b->vals, t->eps, R * q);
    bar(k);
    flat_un(k, dvk_vrsqrt, dst, b->vals, R * q);
    bar(k);
    const opnd_t rstd = broadcast(k, dst, b->bc, R, q);
    bar(k);
    return rstd;
}

/* One tile: R units of `cols` elements in `in` (dtype), result in `out` (dtype).  The fp32 work
 * ping-pongs between two tiles, A (the cast input for fp16; the input buffer itself for fp32) and
 * B (scratch), so no full-tile op writes the rows it reads (a UB bank read/write conflict). */
static void compute(dv_k_t *k, const norm_tiling_t *t, const norm_bufs_t *b, uint64_t in, uint64_t out, uint64_t u0,
                    uint64_t R, uint64_t cols)
{
    const bool f16 = t->dt == DV_DT_F16;
    const uint64_t pitch = b->u.cp * 4, elems = R * b->u.cp;
    const opnd_t A = tile_op(f16 ? b->xf : in, pitch), B = tile_op(b->tmp, pitch);
    const opnd_t G = {b->par[0], 0, REP_BYTES, 1}, H = {b->par[1], 0, REP_BYTES, 1}; /* per-column vectors */
    const double inv = 1.0 / (double)t->cols;
    /* the fp32 result: out itself for fp32, else the tile cast into out at the end */
    const opnd_t Y = !f16 ? tile_op(out, pitch) : t->kind == NK_SOFTMAX ? B : A;
    uint64_t q;
    if (f16) {
        flat_cast(k, A.a, DV_DT_F32, in, DV_DT_F16, elems);
        bar(k);
    }
    switch ((enum norm_kind)t->kind) {
    case NK_SOFTMAX: { /* B = A - max; A = exp(B); Y = A / sum(A) */
        q = reduce_rows(k, true, A, B, R, cols, b->vals);
        bar(k);
        const opnd_t M = broadcast(k, b->vals, b->bc, R, q);
        bar(k);
        rowop(k, dvk_vsub, B, A, M, R, cols);
        bar(k);
        flat_un(k, dvk_vexp, A.a, B.a, elems);
        bar(k);
        q = reduce_rows(k, false, A, B, R, cols, b->vals);
        bar(k);
        flat_un(k, dvk_vrec, b->vals, b->vals, R * q);
        bar(k);
        const opnd_t S = broadcast(k, b->vals, b->bc, R, q);
        bar(k);
        rowop(k, dvk_vmul, Y, A, S, R, cols);
        break;
    }
    case NK_LAYERNORM: { /* B = A - mean; A = B * B; A = B * rstd; B = A * gamma; Y = B + beta */
        /* --stats: mean and rstd go to the out buffer behind y, else they stay in vals */
        const uint64_t mean = t->stats ? out + b->u.out : b->vals, rstd = t->stats ? mean + b->u.st : b->vals;
        q = reduce_rows(k, false, A, B, R, cols, b->vals);
        bar(k);
        flat_sc(k, dvk_vmuls, mean, b->vals, inv, R * q);
        bar(k);
        const opnd_t MEAN = broadcast(k, mean, b->bc, R, q);
        bar(k);
        rowop(k, dvk_vsub, B, A, MEAN, R, cols);
        bar(k);
        flat_bin(k, dvk_vmul, A.a, B.a, B.a, elems);
        bar(k);
        const opnd_t RSTD = rstd_rows(k, t, b, A, R, cols, inv, rstd);
        rowop(k, dvk_vmul, A, B, RSTD, R, cols);
        bar(k);
        rowop(k, dvk_vmul, B, A, G, R, cols);
        bar(k);
        rowop(k, dvk_vadd, Y, B, H, R, cols);
        break;
    }
    case NK_RMSNORM: { /* B = A * A; B = A * rstd; Y = B * gamma */
        flat_bin(k, dvk_vmul, B.a, A.a, A.a, elems);
        bar(k);
        /* --stats: rstd goes to the out buffer behind y */
        const opnd_t RMS = rstd_rows(k, t, b, B, R, cols, inv, t->stats ? out + b->u.out : b->vals);
        rowop(k, dvk_vmul, B, A, RMS, R, cols);
        bar(k);
        rowop(k, dvk_vmul, Y, B, G, R, cols);
        break;
    }
    case NK_BATCHNORM: { /* B = A * scale[c]; Y = B + shift[c] */
        bn_apply(k, t, dvk_vmul, B, A, b->pbc_scale, u0, R, cols);
        bar(k);
        bn_apply(k, t, dvk_vadd, Y, B, b->pbc_shift, u0, R, cols);
        break;
    }
    }
    if (f16) {
        bar(k);
        flat_cast(k, out, DV_DT_F16, Y.a, DV_DT_F32, elems);
    }
}

/* Tile i of the block's units [u0, u1): first unit, unit count, elements per unit and GM offset. */
typedef struct tile {
    uint64_t u, n, cols, off;
} tile_t;

static tile_t tile_at(const norm_tiling_t *t, uint64_t u0, uint64_t u1, uint64_t i)
{
    tile_t x;
    x.u = u0 + i * t->tile_rows;
    x.n = dv_min_u64(t->tile_rows, u1 - x.u);
    const uint64_t row = x.u / t->nseg, c0 = x.u % t->nseg * t->seg;
    x.cols = dv_min_u64(t->seg, t->cols - c0);
    x.off = (row * t->cols + c0) * dv_dtype_size(t->dt);
    return x;
}

void dv_norm_kernel(dv_k_t *k, const void *params)
{
    const norm_tiling_t *t = params;
    const uint64_t b = dvk_block_idx(k), nb = dvk_block_num(k);
    const uint64_t u0 = t->units * b / nb, u1 = t->units * (b + 1) / nb;
    if (u0 >= u1)
        return;
    const uint64_t size = dv_dtype_size(t->dt);
    norm_bufs_t bf;
    memset(&bf, 0, sizeof bf);
    dv_norm_ub_layout(t, t->tile_rows, 0, dvk_config(k)->ub_align_bytes, &bf.u);

    dv_que_t inq, outq;
    dvk_que_init(k, &inq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, t->depth, bf.u.in);
    dvk_que_init(k, &outq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, t->depth, bf.u.out + 2 * bf.u.st);
    if (bf.u.xf)
        bf.xf = dvk_alloc(k, DV_SPACE_UB, bf.u.xf);
    bf.tmp = dvk_alloc(k, DV_SPACE_UB, bf.u.tmp);
    if (bf.u.vals) {
        bf.vals = dvk_alloc(k, DV_SPACE_UB, bf.u.vals);
        bf.bc = dvk_alloc(k, DV_SPACE_UB, bf.u.bc);
    }
    static const uint32_t identity[DV_OP_MAX_ARGS] = {0, 1, 2, 3, 4, 5, 6, 7};
    load_params(k, t, identity, false, &bf);

    const uint64_t ntiles = dv_ceil_div(u1 - u0, t->tile_rows);
    const uint64_t ahead = t->depth > 1 ? 1 : 0; /* CopyIn runs this many tiles ahead of Compute */
    for (uint64_t i = 0; i < ntiles + ahead; i++) {
        if (i < ntiles) { /* CopyIn(i) */
            const tile_t x = tile_at(t, u0, u1, i);
            const uint64_t buf = dvk_que_alloc(k, &inq);
            copy_in(k, buf, t->a_x, x.off, x.n, x.cols * size);
            dvk_que_enque(k, &inq, buf);
        }
        if (i < ahead)
            continue;
        const tile_t x = tile_at(t, u0, u1, i - ahead);
        /* Compute(i - ahead) */
        const uint64_t in = dvk_que_deque(k, &inq);
        const uint64_t out = dvk_que_alloc(k, &outq);
        compute(k, t, &bf, in, out, x.u, x.n, x.cols);
        dvk_que_enque(k, &outq, out);
        dvk_que_free(k, &inq, in);
        /* CopyOut(i - ahead) */
        const uint64_t o = dvk_que_deque(k, &outq);
        copy_out(k, t->a_y, x.off, o, x.n, x.cols * size);
        if (t->stats && t->kind == NK_LAYERNORM) {
            copy_stats(k, t->a_mean, x.u, o + bf.u.out, x.n, bf.u.q);
            copy_stats(k, t->a_rstd, x.u, o + bf.u.out + bf.u.st, x.n, bf.u.q);
        } else if (t->stats) { /* rmsnorm: rstd alone */
            copy_stats(k, t->a_rstd, x.u, o + bf.u.out, x.n, bf.u.q);
        }
        dvk_que_free(k, &outq, o);
    }
}

/* ================================================================ tile code for fused kernels */

/* A fused kernel's tile is whole rows (batchnorm: whole planes) of the operator's [rows, cols] view
 * at the group's pitch.  The in and out tiles are the fused kernel's; the operator brings its own
 * fp32 scratch (the layout above without the queues) and its parameter vectors.  An fp32 input is
 * first copied (vmuls by 1, exact) into a private tile because the arithmetic works in place on A
 * and the fused kernel's input tile may be read by other operators of the group. */
typedef struct norm_tile_state {
    norm_tiling_t t;  /* the plan's, as one unit per row (a tile holds whole planes) */
    norm_bufs_t b;
    uint64_t xcopy;   /* fp32: the private copy of the input tile */
} norm_tile_state_t;

_Static_assert(sizeof(norm_tile_state_t) <= DV_TILE_STATE_BYTES, "norm tile state");

static void tile_tiling(const dv_op_plan_t *plan, norm_tiling_t *t)
{
    memcpy(t, plan->tiling, sizeof *t);
    t->seg = t->cols;
    t->nseg = 1;
    t->units = t->rows;
}

static void norm_tile_view(const dv_op_plan_t *plan, uint64_t *rows, uint64_t *cols)
{
    norm_tiling_t t;
    tile_tiling(plan, &t);
    *rows = t.rows;
    *cols = t.cols;
}

static uint64_t xcopy_bytes(const norm_tiling_t *t, uint64_t rows, uint64_t pitch, uint64_t align)
{
    return t->dt == DV_DT_F16 ? 0 : dv_round_up(dv_ceil_div(rows * pitch, LANES) * REP_BYTES, align);
}

static uint64_t norm_tile_ub(const dv_op_plan_t *plan, const dv_config_t *cfg, uint64_t rows, uint64_t pitch)
{
    norm_tiling_t t;
    norm_ub_t u;
    tile_tiling(plan, &t);
    dv_norm_ub_layout(&t, rows, pitch, cfg->ub_align_bytes, &u);
    return u.xf + u.tmp + u.vals + u.bc + t.nparams * u.par + 2 * u.pbc +
           xcopy_bytes(&t, rows, pitch, cfg->ub_align_bytes);
}

static void norm_tile_setup(dv_k_t *k, const dv_op_plan_t *plan, const uint32_t *argmap, uint64_t rows,
                            uint64_t pitch, void *state)
{
    norm_tile_state_t *s = state;
    memset(s, 0, sizeof *s);
    tile_tiling(plan, &s->t);
    const uint64_t align = dvk_config(k)->ub_align_bytes;
    dv_norm_ub_layout(&s->t, rows, pitch, align, &s->b.u);
    if (s->b.u.xf)
        s->b.xf = dvk_alloc(k, DV_SPACE_UB, s->b.u.xf);
    s->b.tmp = dvk_alloc(k, DV_SPACE_UB, s->b.u.tmp);
    if (s->b.u.vals) {
        s->b.vals = dvk_alloc(k, DV_SPACE_UB, s->b.u.vals);
        s->b.bc = dvk_alloc(k, DV_SPACE_UB, s->b.u.bc);
    }
    const uint64_t xc = xcopy_bytes(&s->t, rows, pitch, align);
    if (xc)
        s->xcopy = dvk_alloc(k, DV_SPACE_UB, xc);
    load_params(k, &s->t, argmap, true, &s->b);
}

static void norm_tile_emit(dv_k_t *k, const dv_op_plan_t *plan, const void *state, const dv_tile_t *tile)
{
    (void)plan;
    const norm_tile_state_t *s = state;
    uint64_t in = tile->in[0];
    if (s->xcopy) {
        flat_sc(k, dvk_vmuls, s->xcopy, in, 1.0, tile->rows * tile->pitch);
        bar(k);
        in = s->xcopy;
    }
    compute(k, &s->t, &s->b, in, tile->out, tile->row0, tile->rows, s->t.cols);
}

const dv_tile_ops_t dv_norm_tile_ops = {
    .flags = DV_TILE_WHOLE_ROWS | DV_TILE_VIEW,
    .view = norm_tile_view,
    .ub_bytes = norm_tile_ub,
    .setup = norm_tile_setup,
    .emit = norm_tile_emit,
};
