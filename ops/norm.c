/* ops/norm.c - row-wise normalisation: softmax, layernorm and rmsnorm over the last axis, and
 * inference batchnorm over the H x W planes of an NCHW tensor.
 *
 * Every operator is a vector kernel.  A row (batchnorm: a plane, or a segment of a plane larger
 * than the UB) is one "unit"; block b takes units [units*b/B, units*(b+1)/B) and walks them in tiles
 * of --tile-rows units (auto: as many as fit the UB) through two TQue-style queues:
 *   CopyIn   MTE2: GM -> inQ.  Rows whose bytes are a 32 B multiple: one burst for the tile; other
 *                  rows: copy_gm_to_ubuf_align (DataCopyPad), one burst per row, so every row
 *                  starts 32 B aligned in UB (the UB row pitch is cp elements).
 *   Compute  V:    fp16 is cast to fp32 (vconv) and all arithmetic runs in fp32 ("fp32
 *                  accumulation"); the fp32 work ping-pongs between two tiles so no full-tile op
 *                  writes the UB rows it reads; fp16 results are cast back into outQ.
 *   CopyOut  MTE3: outQ -> GM, exactly the bytes of each row (copy_ubuf_to_gm_align when unaligned,
 *                  so blocks sharing a 32 B GM block never overwrite each other's rows).
 * With --double-buffer on the queues hold two buffers and CopyIn runs one tile ahead of Compute.
 * Parameter vectors (gamma, beta; batchnorm's mean, var, gamma, beta) are loaded once per block.
 *
 * Row reductions (max, sum): the 64-lane fp32 chunks of each row are folded pairwise, adjacent
 * chunks (which lie in different UB bank groups) with vadd/vmax, in ceil(log2(chunks)) dependent
 * levels into the row's first chunk of the scratch tile; the partial tail chunk is folded in under
 * a mask, so padding lanes never count.  vcadd/vcmax then reduce the 64 lanes to one value per row,
 * and vbrcb turns the values into one 32 B block per row, which the row-wise ops read with block
 * stride 0 (src1_blk=0): a per-row scalar is applied without any scalar-unit reads.  A 2-D op over
 * rows x chunks is issued row by row (repeats walk the chunks) or chunk column by chunk column
 * (repeats walk the rows at the row pitch, when it fits the 255-block repeat stride), whichever
 * takes fewer instructions.  Dependent vector steps are separated by pipe_barrier(V), as in Ascend C.
 *
 * batchnorm folds its statistics once per block into scale = gamma / sqrt(var + eps) and
 * shift = beta - mean * scale (vadds, vrsqrt, vmul, vsub), broadcasts both per channel with vbrcb,
 * and computes y = x * scale[c] + shift[c] per plane.
 *
 * --eps (layernorm, rmsnorm, batchnorm; default 1e-5, PyTorch's) is added in fp32 by vadds.
 * layernorm --stats on also outputs the row statistics of aclnnLayerNorm's meanOut / rstdOut: mean
 * and rstd = 1/sqrt(var + eps), fp32, one per row.  The vmuls that makes the mean and the vrsqrt that
 * makes rstd write them into the out queue's buffer behind y (instead of in place), so no vector
 * instruction is added; CopyOut then writes both with copy_ubuf_to_gm_align (one burst per tile, or
 * one 4-byte burst per row when the reduction left one value per 32 B slot), so --stats needs
 * chip.dma_pad.  The references compute in double from the rounded inputs; the default per-dtype
 * tolerance holds (no tol_scale). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/ops.h"

enum norm_kind { NK_SOFTMAX, NK_LAYERNORM, NK_RMSNORM, NK_BATCHNORM };

/* Parameters, in table order (the same indices in every table; softmax stops before P_EPS, rmsnorm
 * and batchnorm before P_STATS). */
enum { P_SHAPE, P_DTYPE, P_CORES, P_DB, P_TILE_ROWS, P_EPS, P_STATS, P_COUNT };

enum { LANES = 64, REP_BYTES = 256, BLK = 32 };

/* The tiling passed to the kernel. */
typedef struct norm_tiling {
    uint32_t kind;
    dv_dtype_t dt;
    uint64_t rows, cols;    /* rows of cols elements (batchnorm: N*C planes of H*W) */
    uint64_t channels;      /* batchnorm: C (plane p has channel p % C); 0 otherwise */
    uint64_t seg;           /* elements per unit: cols, or the segment length of a split plane */
    uint64_t nseg;          /* units per row: 1, or the segments of a split batchnorm plane */
    uint64_t units;         /* rows * nseg */
    uint64_t tile_rows;     /* units per tile (1 when planes are split) */
    uint32_t depth;         /* buffers per queue: 2 with --double-buffer on */
    uint32_t nparams;       /* parameter vectors (gamma, beta, mean, var) */
    uint32_t a_x, a_y, a_p[4];
    uint32_t stats;         /* layernorm --stats on: outputs a_mean and a_rstd */
    uint32_t a_mean, a_rstd;
    double eps;
} norm_tiling_t;

/* UB use of one tile of R units: every buffer the kernel allocates, each rounded to the alignment. */
typedef struct norm_ub {
    uint64_t cp;            /* padded elements per unit in UB: a 32 B multiple in the dtype */
    uint64_t in, out;       /* one queue buffer (dtype); out is y, followed by 2 x st with --stats */
    uint64_t st;            /* --stats: the mean (then the rstd) of each row, laid out as in vals */
    uint64_t xf, tmp;       /* fp32 work tiles: the cast input (fp16 only) and the scratch */
    uint64_t q;             /* reduction results per row in vals, at most (0: no reductions) */
    uint64_t vals, bc;      /* per-row results and their vbrcb blocks */
    uint64_t par, stage;    /* per parameter vector: fp32 copy, fp16 staging (inside tmp) */
    uint64_t pbc;           /* batchnorm: per-channel blocks of the scale (and of the shift) */
    uint64_t total;
} norm_ub_t;

/* Results per row of a reduction in vals: the rows' 64-lane partials have a pitch of row_bytes; a
 * batched vcadd (vcmax: value/index pairs) needs a repeat stride <= 255 blocks, else one
 * instruction per row writes each result to its own 32 B slot. */
static uint64_t red_q(uint64_t row_bytes, bool is_max)
{
    return row_bytes / BLK <= dv_ops_field_max(DV_FORM_VREDUCE, DV_FLD(VREDUCE, src_rep)) ? (is_max ? 2 : 1) : 8;
}

static void ub_layout(const norm_tiling_t *t, uint64_t R, uint64_t align, norm_ub_t *u)
{
    const uint64_t size = dv_dtype_size(t->dt), f16 = t->dt == DV_DT_F16;
    memset(u, 0, sizeof *u);
    u->cp = dv_round_up(t->seg, BLK / size);
    const uint64_t reps = dv_ceil_div(R * u->cp, LANES); /* flat ops run over whole fp32 repeats */
    u->in = u->out = dv_round_up(reps * LANES * size, align);
    u->xf = f16 ? dv_round_up(reps * REP_BYTES, align) : 0;
    u->tmp = dv_round_up(reps * REP_BYTES, align);
    const uint64_t plen = t->kind == NK_BATCHNORM ? t->channels : t->cols;
    if (t->nparams) {
        u->par = dv_round_up(dv_ceil_div(plen, LANES) * REP_BYTES, align);
        /* fp16 parameters are staged in the scratch tile (free until the first tile) */
        u->stage = f16 ? dv_round_up(dv_ceil_div(plen, LANES) * LANES * 2, align) : 0;
        if (u->tmp < t->nparams * u->stage)
            u->tmp = t->nparams * u->stage;
    }
    if (t->kind != NK_BATCHNORM) {
        u->q = red_q(u->cp * 4, t->kind == NK_SOFTMAX);
        u->vals = dv_round_up(dv_ceil_div(R * u->q, LANES) * REP_BYTES, align);
        u->bc = dv_round_up(dv_ceil_div(R * u->q, 8) * 8 * BLK, align);
    }
    if (t->kind == NK_BATCHNORM)
        u->pbc = dv_round_up(dv_ceil_div(plen, 8) * 8 * BLK, align);
    u->st = t->stats ? u->vals : 0;
    u->total = t->depth * (u->in + u->out + 2 * u->st) + u->xf + u->tmp + u->vals + u->bc + t->nparams * u->par +
               2 * u->pbc;
}

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
    const uint64_t q = red_q(v.rs, is_max);
    if (lanes < LANES)
        dvk_mask_first(k, DV_DT_F32, (uint32_t)lanes);
    if (q < 8) {
        /* all rows at once; pieces start at a multiple of 8 rows so each result slot is 32 B aligned */
        for (uint64_t r = 0; r < R; r += 248) {
            const int64_t nr = (int64_t)dv_min_u64(248, R - r);
            if (is_max)
                dvk_vcmax(k, vals + r * q * 4, v.a + r * v.rs, DV_DT_F32, nr, 1, 1, (int64_t)(v.rs / BLK));
            else
                dvk_vcadd(k, vals + r * q * 4, v.a + r * v.rs, DV_DT_F32, nr, 1, 1, (int64_t)(v.rs / BLK));
        }
    } else {
        for (uint64_t r = 0; r < R; r++) {
            if (is_max)
                dvk_vcmax(k, vals + r * BLK, v.a + r * v.rs, DV_DT_F32, 1, 1, 1, 8);
            else
                dvk_vcadd(k, vals + r * BLK, v.a + r * v.rs, DV_DT_F32, 1, 1, 1, 8);
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
                                  (int64_t)dv_min_u64(4095, rows - r), (int64_t)row_bytes, 0, 0);
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

/* Load the parameter vectors once per block (MTE2), wait for them on V and cast them to fp32;
 * batchnorm then folds them into a per-channel scale and shift and broadcasts both. */
static void load_params(dv_k_t *k, const norm_tiling_t *t, norm_bufs_t *b)
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
        dvk_copy_gm_to_ubuf(k, stage[i], dvk_gm(k, t->a_p[i], 0), 1, (int64_t)dv_ceil_div(plen * size, BLK), 0, 0);
    }
    const int ev = dvk_event_alloc(k, DV_PIPE_MTE2, DV_PIPE_V);
    dvk_set_flag(k, DV_PIPE_MTE2, DV_PIPE_V, ev);
    dvk_wait_flag(k, DV_PIPE_MTE2, DV_PIPE_V, ev);
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
        const opnd_t RMS = rstd_rows(k, t, b, B, R, cols, inv, b->vals);
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

static void norm_kernel(dv_k_t *k, const void *params)
{
    const norm_tiling_t *t = params;
    const uint64_t b = dvk_block_idx(k), nb = dvk_block_num(k);
    const uint64_t u0 = t->units * b / nb, u1 = t->units * (b + 1) / nb;
    if (u0 >= u1)
        return;
    const uint64_t size = dv_dtype_size(t->dt);
    norm_bufs_t bf;
    memset(&bf, 0, sizeof bf);
    ub_layout(t, t->tile_rows, dvk_config(k)->ub_align_bytes, &bf.u);

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
    load_params(k, t, &bf);

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
        if (t->stats) {
            copy_stats(k, t->a_mean, x.u, o + bf.u.out, x.n, bf.u.q);
            copy_stats(k, t->a_rstd, x.u, o + bf.u.out + bf.u.st, x.n, bf.u.q);
        }
        dvk_que_free(k, &outq, o);
    }
}

/* ================================================================ plan */

#define ROW_COMMON                                                                                             \
    [P_SHAPE] = {"shape", DV_OPT_SHAPE, "1024x1024", 1, INT64_C(1) << 32, 0,                                   \
                 "input shape; normalised over the last axis, every other axis is rows"},                      \
    [P_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, DT_F16 | DT_F32,                                         \
                 "element type of input and output (the arithmetic is fp32 either way)"},                      \
    [P_CORES] = {"cores", DV_OPT_INT, "auto", 1, 4096, 0,                                                      \
                 "blocks (auto: every vector core); rows are split evenly"},                                   \
    [P_DB] = {"double-buffer", DV_OPT_BOOL, "on", 0, 1, 0,                                                     \
              "two buffers per queue: the next tile loads while this one computes"},                           \
    [P_TILE_ROWS] = {"tile-rows", DV_OPT_INT, "auto", 1, 65535, 0,                                             \
                     "rows per tile (auto: as many as fit the UB, at most a block's rows)"}

#define EPS_PARAM(what)                                                                                        \
    {"eps", DV_OPT_FLOAT, "1e-5", DV_FLOAT_ABOVE_0, 1, 0, "added to " what " before 1/sqrt (in fp32)"}

static const dv_oparam_spec_t softmax_params[P_EPS] = {ROW_COMMON};
static const dv_oparam_spec_t rms_params[P_STATS] = {ROW_COMMON, [P_EPS] = EPS_PARAM("mean(x^2)")};
static const dv_oparam_spec_t ln_params[P_COUNT] = {
    ROW_COMMON,
    [P_EPS] = EPS_PARAM("the variance"),
    [P_STATS] = {"stats", DV_OPT_BOOL, "off", 0, 1, 0,
                 "also output mean and rstd = 1/sqrt(var + eps) of every row, fp32 (aclnnLayerNorm's meanOut, "
                 "rstdOut); needs chip.dma_pad"},
};

static const dv_oparam_spec_t bn_params[P_STATS] = {
    [P_SHAPE] = {"shape", DV_OPT_SHAPE, "8x64x56x56", 1, INT64_C(1) << 32, 0, "input shape NxCxHxW"},
    [P_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, DT_F16 | DT_F32,
                 "element type of the input, the statistics and the output (the arithmetic is fp32)"},
    [P_CORES] = {"cores", DV_OPT_INT, "auto", 1, 4096, 0, "blocks (auto: every vector core); planes are split evenly"},
    [P_DB] = {"double-buffer", DV_OPT_BOOL, "on", 0, 1, 0, "two buffers per queue: the next tile loads while this one computes"},
    [P_TILE_ROWS] = {"tile-rows", DV_OPT_INT, "auto", 1, 65535, 0,
                     "H x W planes per tile (auto: as many as fit the UB; a plane larger than the UB is split)"},
    [P_EPS] = EPS_PARAM("var[c]"),
};

static uint64_t fit_rows(const norm_tiling_t *t, const dv_config_t *cfg, uint64_t cap)
{
    norm_ub_t u;
    uint64_t lo = 0, hi = cap; /* largest R in [0, cap] with the layout fitting */
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        ub_layout(t, mid, cfg->ub_align_bytes, &u);
        if (u.total <= cfg->ub_size_bytes)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static int norm_plan(enum norm_kind kind, const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v,
                     dv_op_plan_t *plan, dv_error_t *err)
{
    const dv_shape_t *sh = &v->v[P_SHAPE].shape;
    norm_tiling_t t;
    memset(&t, 0, sizeof t);
    t.kind = kind;
    t.dt = v->v[P_DTYPE].dt;
    t.depth = v->v[P_DB].i ? 2 : 1;
    t.eps = op->nparams > P_EPS ? v->v[P_EPS].f : 0;
    t.stats = op->nparams > P_STATS && v->v[P_STATS].i;
    const unsigned size = dv_dtype_size(t.dt);
    if (t.stats && !cfg->chip_dma_pad)
        return dv_ops_param_error(err, "stats", "on writes one fp32 value per row with byte-granular DMA, and this "
                                  "chip has none (chip.dma_pad is false)");
    const char *dname = t.dt == DV_DT_F16 ? "fp16" : "fp32";
    if (kind == NK_BATCHNORM && sh->ndims != 4)
        return dv_ops_param_error(err, "shape", "batchnorm takes NxCxHxW (4 dimensions), not %d", sh->ndims);
    /* rows x cols = the element count, which must fit in device memory (checked here so that the
     * products cannot overflow) */
    const int split = kind == NK_BATCHNORM ? 2 : sh->ndims - 1; /* dims [split, ndims) form a row */
    double total = (double)size;
    t.rows = t.cols = 1;
    for (int i = 0; i < sh->ndims; i++) {
        total *= (double)sh->d[i];
        if (total > (double)cfg->hbm_capacity_bytes)
            return dv_ops_param_error(err, "shape", "the input alone needs more than hbm.capacity_bytes = %llu bytes",
                                      (unsigned long long)cfg->hbm_capacity_bytes);
        if (i < split)
            t.rows *= sh->d[i];
        else
            t.cols *= sh->d[i];
    }
    t.channels = kind == NK_BATCHNORM ? sh->d[1] : 0;
    t.seg = t.cols;
    t.nseg = 1;
    t.nparams = kind == NK_LAYERNORM ? 2 : kind == NK_RMSNORM ? 1 : kind == NK_BATCHNORM ? 4 : 0;
    if (t.cols * size % BLK && !cfg->chip_dma_pad)
        return dv_ops_param_error(err, "shape",
                                  "%s of %llu %s elements are %llu bytes, not a multiple of 32 B, and this chip has no "
                                  "byte-granular DMA (chip.dma_pad is false)",
                                  kind == NK_BATCHNORM ? "H x W planes" : "rows", (unsigned long long)t.cols, dname,
                                  (unsigned long long)(t.cols * size));

    /* One unit must fit.  Batchnorm splits a plane that does not; the others need whole rows. */
    norm_ub_t u;
    ub_layout(&t, 1, cfg->ub_align_bytes, &u);
    if (u.total > cfg->ub_size_bytes) {
        if (kind != NK_BATCHNORM) {
            char hint[160] = "";
            norm_tiling_t t1 = t;
            norm_ub_t u1;
            t1.depth = 1;
            ub_layout(&t1, 1, cfg->ub_align_bytes, &u1);
            if (t.depth > 1 && u1.total <= cfg->ub_size_bytes)
                snprintf(hint, sizeof hint, "; with --double-buffer off it needs %llu", (unsigned long long)u1.total);
            return dv_ops_param_error(err, "shape",
                                      "a row of %llu %s elements needs %llu bytes of UB with --tile-rows 1 "
                                      "(%u buffer%s per queue, two fp32 work tiles)%s; core.ub_size_bytes is %llu",
                                      (unsigned long long)t.cols, dname, (unsigned long long)u.total, t.depth,
                                      t.depth > 1 ? "s" : "", hint,
                                      (unsigned long long)cfg->ub_size_bytes);
        }
        if (v->given[P_TILE_ROWS] && v->v[P_TILE_ROWS].i > 1)
            return dv_ops_param_error(err, "tile-rows",
                                      "one H x W plane of %llu %s elements needs %llu bytes of UB, "
                                      "core.ub_size_bytes is %llu: planes are split, so --tile-rows must be 1",
                                      (unsigned long long)t.cols, dname, (unsigned long long)u.total,
                                      (unsigned long long)cfg->ub_size_bytes);
        /* the longest segment (a multiple of 64 elements) that fits */
        uint64_t lo = 0, hi = t.cols / LANES;
        while (lo < hi) {
            const uint64_t mid = lo + (hi - lo + 1) / 2;
            t.seg = mid * LANES;
            ub_layout(&t, 1, cfg->ub_align_bytes, &u);
            if (u.total <= cfg->ub_size_bytes)
                lo = mid;
            else
                hi = mid - 1;
        }
        if (lo == 0) {
            t.seg = LANES;
            ub_layout(&t, 1, cfg->ub_align_bytes, &u);
            return dv_ops_param_error(err, "shape",
                                      "%llu channels need %llu bytes of UB for their statistics and one tile, "
                                      "core.ub_size_bytes is %llu",
                                      (unsigned long long)t.channels, (unsigned long long)u.total,
                                      (unsigned long long)cfg->ub_size_bytes);
        }
        t.seg = lo * LANES;
        t.nseg = dv_ceil_div(t.cols, t.seg);
    }
    t.units = t.rows * t.nseg;

    const uint64_t cores = v->v[P_CORES].i ? (uint64_t)v->v[P_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    const uint32_t blocks = (uint32_t)dv_min_u64(cores, t.units);
    const uint64_t per_block = dv_ceil_div(t.units, blocks);
    if (t.nseg > 1) {
        t.tile_rows = 1;
    } else if (v->given[P_TILE_ROWS] && v->v[P_TILE_ROWS].i) {
        t.tile_rows = (uint64_t)v->v[P_TILE_ROWS].i;
        ub_layout(&t, t.tile_rows, cfg->ub_align_bytes, &u);
        if (u.total > cfg->ub_size_bytes)
            return dv_ops_param_error(err, "tile-rows",
                                      "%llu rows of %llu %s elements need %llu bytes of UB "
                                      "(%u buffers per queue), core.ub_size_bytes is %llu: at most %llu rows fit",
                                      (unsigned long long)t.tile_rows, (unsigned long long)t.cols, dname,
                                      (unsigned long long)u.total, t.depth, (unsigned long long)cfg->ub_size_bytes,
                                      (unsigned long long)fit_rows(&t, cfg, t.tile_rows));
        t.tile_rows = dv_min_u64(t.tile_rows, per_block);
    } else {
        t.tile_rows = fit_rows(&t, cfg, dv_min_u64(per_block, 65535));
    }

    /* arguments */
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = blocks;
    const uint64_t n = t.rows * t.cols;
    int rc;
    uint32_t a = 0;
    t.a_x = a++;
    if ((rc = dv_ops_add_arg(plan, "x", t.dt, n, DV_ARG_IN, kind == NK_SOFTMAX ? -4.0 : -1.0, kind == NK_SOFTMAX ? 4.0 : 1.0)) != DV_OK)
        return rc;
    static const char *const ln_names[] = {"gamma", "beta"};
    static const char *const bn_names[] = {"mean", "var", "gamma", "beta"};
    /* gamma in [0.5, 1.5), beta and mean in [-0.5, 0.5), var in [0.5, 2): well away from 0 */
    static const double ln_lo[] = {0.5, -0.5}, ln_hi[] = {1.5, 0.5};
    static const double bn_lo[] = {-0.5, 0.5, 0.5, -0.5}, bn_hi[] = {0.5, 2.0, 1.5, 0.5};
    for (uint32_t i = 0; i < t.nparams; i++) {
        const bool bn = kind == NK_BATCHNORM;
        t.a_p[i] = a++;
        if ((rc = dv_ops_add_arg(plan, bn ? bn_names[i] : ln_names[i], t.dt, bn ? t.channels : t.cols, DV_ARG_IN,
                                 bn ? bn_lo[i] : ln_lo[i], bn ? bn_hi[i] : ln_hi[i])) != DV_OK)
            return rc;
    }
    t.a_y = a++;
    if ((rc = dv_ops_add_arg(plan, "y", t.dt, n, DV_ARG_OUT, 0, 0)) != DV_OK)
        return rc;
    if (t.stats) {
        t.a_mean = a++;
        t.a_rstd = a++;
        if ((rc = dv_ops_add_arg(plan, "mean", DV_DT_F32, t.rows, DV_ARG_OUT, 0, 0)) != DV_OK ||
            (rc = dv_ops_add_arg(plan, "rstd", DV_DT_F32, t.rows, DV_ARG_OUT, 0, 0)) != DV_OK)
            return rc;
    }

    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    /* useful arithmetic per element: softmax max, sub, exp, sum, mul; layernorm sum, sub, square,
     * sum, mul, mul, add; rmsnorm square, sum, mul, mul; batchnorm mul, add */
    static const uint64_t per_elem[] = {5, 7, 4, 2};
    plan->flops = per_elem[kind] * n;
    plan->bytes = 2 * n * size + (kind == NK_BATCHNORM ? 4 * t.channels : t.nparams * t.cols) * size +
                  (t.stats ? 2 * t.rows * 4 : 0);
    plan->tol_scale = 1.0;
    return DV_OK;
}

static int softmax_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                        dv_error_t *err)
{
    return norm_plan(NK_SOFTMAX, op, cfg, v, plan, err);
}
static int layernorm_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                          dv_error_t *err)
{
    return norm_plan(NK_LAYERNORM, op, cfg, v, plan, err);
}
static int rmsnorm_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                        dv_error_t *err)
{
    return norm_plan(NK_RMSNORM, op, cfg, v, plan, err);
}
static int batchnorm_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                          dv_error_t *err)
{
    return norm_plan(NK_BATCHNORM, op, cfg, v, plan, err);
}

/* ================================================================ reference (double, from the rounded inputs) */

static int norm_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    norm_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const uint8_t *x = in[t.a_x];
    uint8_t *y = expect[t.a_y];
    const dv_dtype_t dt = t.dt;
    const uint64_t C = t.cols;
    for (uint64_t r = 0; r < t.rows; r++) {
        const uint64_t base = r * C;
        double a = 0, b = 0; /* y = (x - a) * b (* gamma + beta) */
        switch ((enum norm_kind)t.kind) {
        case NK_SOFTMAX: {
            double m = -INFINITY, s = 0;
            for (uint64_t c = 0; c < C; c++)
                m = fmax(m, dv_ops_load(x, dt, base + c));
            for (uint64_t c = 0; c < C; c++)
                s += exp(dv_ops_load(x, dt, base + c) - m);
            for (uint64_t c = 0; c < C; c++)
                dv_ops_store(y, dt, base + c, exp(dv_ops_load(x, dt, base + c) - m) / s);
            continue;
        }
        case NK_LAYERNORM: {
            double s = 0, v = 0;
            for (uint64_t c = 0; c < C; c++)
                s += dv_ops_load(x, dt, base + c);
            a = s / (double)C;
            for (uint64_t c = 0; c < C; c++) {
                const double d = dv_ops_load(x, dt, base + c) - a;
                v += d * d;
            }
            b = 1.0 / sqrt(v / (double)C + t.eps);
            if (t.stats) {
                dv_ops_store(expect[t.a_mean], DV_DT_F32, r, a);
                dv_ops_store(expect[t.a_rstd], DV_DT_F32, r, b);
            }
            for (uint64_t c = 0; c < C; c++)
                dv_ops_store(y, dt, base + c,
                             (dv_ops_load(x, dt, base + c) - a) * b * dv_ops_load(in[t.a_p[0]], dt, c) +
                                 dv_ops_load(in[t.a_p[1]], dt, c));
            continue;
        }
        case NK_RMSNORM: {
            double s = 0;
            for (uint64_t c = 0; c < C; c++) {
                const double d = dv_ops_load(x, dt, base + c);
                s += d * d;
            }
            b = 1.0 / sqrt(s / (double)C + t.eps);
            for (uint64_t c = 0; c < C; c++)
                dv_ops_store(y, dt, base + c, dv_ops_load(x, dt, base + c) * b * dv_ops_load(in[t.a_p[0]], dt, c));
            continue;
        }
        case NK_BATCHNORM: {
            const uint64_t ch = r % t.channels;
            const double mean = dv_ops_load(in[t.a_p[0]], dt, ch), var = dv_ops_load(in[t.a_p[1]], dt, ch);
            const double g = dv_ops_load(in[t.a_p[2]], dt, ch), be = dv_ops_load(in[t.a_p[3]], dt, ch);
            b = g / sqrt(var + t.eps);
            for (uint64_t c = 0; c < C; c++)
                dv_ops_store(y, dt, base + c, (dv_ops_load(x, dt, base + c) - mean) * b + be);
            continue;
        }
        }
    }
    return DV_OK;
}

/* ================================================================ descriptors */

const dv_opdesc_t dv_op_softmax = {
    "softmax", "y = exp(x - max) / sum(exp(x - max)) over the last axis (fp32 arithmetic)",
    softmax_params, P_EPS, softmax_plan, norm_kernel, norm_reference,
};

const dv_opdesc_t dv_op_layernorm = {
    "layernorm", "y = (x - mean) / sqrt(var + eps) * gamma + beta over the last axis (fp32 arithmetic); "
    "--stats on also outputs mean and rstd",
    ln_params, P_COUNT, layernorm_plan, norm_kernel, norm_reference,
};

const dv_opdesc_t dv_op_rmsnorm = {
    "rmsnorm", "y = x / sqrt(mean(x^2) + eps) * gamma over the last axis (fp32 arithmetic)",
    rms_params, P_STATS, rmsnorm_plan, norm_kernel, norm_reference,
};

const dv_opdesc_t dv_op_batchnorm = {
    "batchnorm", "inference y = (x - mean[c]) / sqrt(var[c] + eps) * gamma[c] + beta[c] on NCHW (fp32 arithmetic)",
    bn_params, P_STATS, batchnorm_plan, norm_kernel, norm_reference,
};
