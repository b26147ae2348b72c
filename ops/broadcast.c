/* ops/broadcast.c - bias_add: z = x + b, the 1-D b broadcast along one axis of x (the bias of a
 * linear layer or of a convolution's channels).
 *
 * The kernel sees x as a 2-D view [rows, cols] and walks it in tiles of whole rows:
 * - last axis (--axis -1, the default): the view is [prod(shape[:-1]), shape[-1]] and b is added to
 *   every row: z[r, c] = x[r, c] + b[c];
 * - any other axis a: the view is [prod(shape[:a+1]), prod(shape[a+1:])] and row r gets one value,
 *   z[r, c] = x[r, c] + b[r % shape[a]] (the per-row kind).
 * b is loaded once per block (MTE2, then pipe_barrier(ALL): once per block before any tile is in
 * flight, and it takes no event id from the kernel's queues).  The per-row kind then turns b into
 * one 32 B block per value with vbrcb, as batchnorm does with its per-channel scale, and reads a
 * row's block with block stride 0 (and repeat stride 0 along the row, or 1 block from row to row):
 * a per-row scalar without any scalar-unit reads.
 *
 * Block b takes units [units*b/B, units*(b+1)/B), where a unit is a row, or a segment of a row too
 * long for the UB (segments are whole 256-B repeats, so every segment of the last-axis kind reads
 * b at a 32-B aligned column); tiles of --tile-rows rows (auto: as many as fit) go through two
 * TQue-style queues, CopyIn -> Compute -> CopyOut, CopyIn one tile ahead with --double-buffer on.
 * Rows whose bytes are a 32 B multiple are copied as one burst per tile, others row by row with
 * DataCopyPad (UB rows at a pitch of whole 32-B blocks; needs chip.dma_pad), which also writes
 * exactly each row's bytes back so blocks never overwrite each other's rows.
 *
 * Compute: one vadd per (row, 256-B chunk) range, issued row by row (repeats walk the chunks) or
 * chunk column by chunk column (repeats walk the rows at the UB row pitch, when it fits the
 * 255-block repeat stride), whichever takes fewer instructions, the partial last chunk of every
 * row under a mask.  The columns past `cols` in a tile's pitch are not computed.
 *
 * The reference adds in double and rounds once, which is what vadd gives (fp16 / fp32 addition is
 * correctly rounded, docs/SEMANTICS.md 2), so the output matches it bit for bit.
 *
 * Per-tile work (dv/ops.h): the view is the one above (DV_TILE_VIEW); a tile may hold any rows
 * and columns of it (no DV_TILE_WHOLE_ROWS): the last-axis kind adds b[col0 + c] and needs col0 at
 * a 32-B boundary of b, the per-row kind adds the block of channel (row0 + r) % len.  b is not a
 * tiled input: tile.in[0] is x, and setup loads b from GM argument argmap[1] (plan argument 1). */
#include "../kernel/kapi_emit.h" /* dvk_<mnemonic> write into the stream (before dv/kapi.h) */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/ops.h"

enum { BLK = 32, REP_BYTES = 256, SEG_BYTES = REP_BYTES };
enum { A_X, A_B, A_Z }; /* plan arguments */

enum { BP_SHAPE, BP_AXIS, BP_DTYPE, BP_CORES, BP_DB, BP_TILE_ROWS, BP_COUNT };

static const dv_oparam_spec_t bias_params[BP_COUNT] = {
    [BP_SHAPE] = {"shape", DV_OPT_SHAPE, "1024x1024", 1, INT64_C(1) << 32, 0, "shape of x (and z)"},
    [BP_AXIS] = {"axis", DV_OPT_INT, "-1", -DV_SHAPE_MAX, DV_SHAPE_MAX - 1, 0,
                 "the axis of x that b runs along (negative: counted from the end); b has shape[axis] elements"},
    [BP_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, DT_F16 | DT_F32, "element type of x, b and z"},
    [BP_CORES] = {"cores", DV_OPT_INT, "auto", 1, 4096, 0, "blocks (auto: every vector core); rows are split evenly"},
    [BP_DB] = {"double-buffer", DV_OPT_BOOL, "on", 0, 1, 0,
               "two buffers per queue: the next tile loads while this one computes"},
    [BP_TILE_ROWS] = {"tile-rows", DV_OPT_INT, "auto", 1, 65535, 0,
                      "rows of the [rows, cols] view per tile (auto: as many as fit the UB, at most a block's rows)"},
};

/* The tiling passed to the kernel. */
typedef struct bias_tiling {
    uint32_t dt;           /* dv_dtype_t of x, b and z */
    uint32_t per_row;      /* the axis is not the last: row r gets b[r % len] */
    uint32_t depth;        /* buffers per queue */
    uint64_t rows, cols;   /* the view */
    uint64_t len;          /* elements of b */
    uint64_t seg, nseg;    /* elements per unit, units per row (1, or the segments of a long row) */
    uint64_t units;        /* rows * nseg */
    uint64_t tile_rows;    /* units per tile (1 when rows are split) */
} bias_tiling_t;

/* The state of the tile code. */
typedef struct bias_state {
    uint64_t b;            /* b in UB (whole 32 B blocks) */
    uint64_t bc;           /* the per-row kind: one 32 B block per element of b (vbrcb) */
} bias_state_t;
_Static_assert(sizeof(bias_state_t) <= DV_TILE_STATE_BYTES, "bias_state_t exceeds the tile state");

/* ---- the view ---- */

/* The axis as an index into a shape of `ndims` dimensions, -1 when out of range. */
static int axis_index(int64_t axis, int ndims)
{
    const int64_t a = axis < 0 ? axis + ndims : axis;
    return a >= 0 && a < ndims ? (int)a : -1;
}

static void bias_view(const dv_op_plan_t *plan, uint64_t *rows, uint64_t *cols)
{
    bias_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    *rows = t.rows;
    *cols = t.cols;
}

/* ---- UB ---- */

/* b, and for the per-row kind its blocks (vbrcb writes 8 blocks per repeat). */
static uint64_t bias_b_bytes(const bias_tiling_t *t, uint64_t align)
{
    const uint64_t size = dv_dtype_size((dv_dtype_t)t->dt);
    return dv_round_up(dv_round_up(t->len * size, BLK), align) +
           (t->per_row ? dv_round_up(dv_round_up(t->len, 8) * BLK, align) : 0);
}

static uint64_t bias_tile_ub_bytes(const dv_op_plan_t *plan, const dv_config_t *cfg, uint64_t rows, uint64_t pitch)
{
    (void)rows;
    (void)pitch;
    bias_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    return bias_b_bytes(&t, cfg->ub_align_bytes);
}

/* The standalone kernel's UB: two queues of `depth` tiles of R units, and b. */
static uint64_t bias_ub_total(const bias_tiling_t *t, uint64_t R, uint64_t align)
{
    const uint64_t size = dv_dtype_size((dv_dtype_t)t->dt), cp = dv_round_up(t->seg, BLK / size);
    return 2 * t->depth * dv_round_up(R * cp * size, align) + bias_b_bytes(t, align);
}

/* ---- vector work ---- */

/* A 2-D vadd operand: chunk c of row r is at a + r*rs + c*cs; blk is the block stride inside a
 * repeat (1: 256 contiguous bytes; 0: one 32 B block read 8 times). */
typedef struct opnd {
    uint64_t a, rs, cs, blk;
} opnd_t;

static bool rep_ok(uint64_t stride)
{
    return stride % BLK == 0 && stride / BLK <= dv_ops_field_max(DV_FORM_VBIN, DV_FLD(VBIN, dst_rep));
}

/* d = s0 + s1 over R rows x N chunks, under the current mask: repeats walk the rows when every row
 * stride fits a repeat stride and that takes fewer instructions, else they walk the chunks. */
static void vadd2d(dv_k_t *k, dv_dtype_t dt, opnd_t d, opnd_t s0, opnd_t s1, uint64_t R, uint64_t N)
{
    if (!R || !N)
        return;
    const uint64_t max = dv_ops_field_max(DV_FORM_VBIN, DV_FLD(VBIN, repeat));
    if (rep_ok(d.rs) && rep_ok(s0.rs) && rep_ok(s1.rs) && N * dv_ceil_div(R, max) < R * dv_ceil_div(N, max)) {
        for (uint64_t c = 0; c < N; c++)
            for (uint64_t r = 0; r < R; r += max)
                dvk_vadd(k, d.a + c * d.cs + r * d.rs, s0.a + c * s0.cs + r * s0.rs, s1.a + c * s1.cs + r * s1.rs, dt,
                         (int64_t)dv_min_u64(max, R - r), (int64_t)d.blk, (int64_t)s0.blk, (int64_t)s1.blk,
                         (int64_t)(d.rs / BLK), (int64_t)(s0.rs / BLK), (int64_t)(s1.rs / BLK));
    } else {
        for (uint64_t r = 0; r < R; r++)
            for (uint64_t c = 0; c < N; c += max)
                dvk_vadd(k, d.a + r * d.rs + c * d.cs, s0.a + r * s0.rs + c * s0.cs, s1.a + r * s1.rs + c * s1.cs, dt,
                         (int64_t)dv_min_u64(max, N - c), (int64_t)d.blk, (int64_t)s0.blk, (int64_t)s1.blk,
                         (int64_t)(d.cs / BLK), (int64_t)(s0.cs / BLK), (int64_t)(s1.cs / BLK));
    }
}

/* Chunks [c0, c0 + N) of every row of the tile.  The per-row kind goes in runs of consecutive
 * channels, so a run's blocks are one block apart from row to row. */
static void bias_chunks(dv_k_t *k, const bias_tiling_t *t, const bias_state_t *st, const dv_tile_t *tile, uint64_t c0,
                        uint64_t N)
{
    const dv_dtype_t dt = (dv_dtype_t)t->dt;
    const uint64_t size = dv_dtype_size(dt), rs = tile->pitch * size;
    const opnd_t d = {tile->out + c0 * REP_BYTES, rs, REP_BYTES, 1};
    const opnd_t s0 = {tile->in[0] + c0 * REP_BYTES, rs, REP_BYTES, 1};
    if (!t->per_row) {
        const opnd_t b = {st->b + tile->col0 * size + c0 * REP_BYTES, 0, REP_BYTES, 1};
        vadd2d(k, dt, d, s0, b, tile->rows, N);
        return;
    }
    for (uint64_t r = 0; r < tile->rows;) {
        const uint64_t ch = (tile->row0 + r) % t->len;
        const uint64_t n = t->len == 1 ? tile->rows - r : dv_min_u64(tile->rows - r, t->len - ch);
        const opnd_t b = {st->bc + ch * BLK, t->len == 1 ? 0 : BLK, 0, 0};
        opnd_t dr = d, sr = s0;
        dr.a += r * rs;
        sr.a += r * rs;
        vadd2d(k, dt, dr, sr, b, n, N);
        r += n;
    }
}

/* One tile: out = in[0] + b over its rows x cols (whole chunks, then the partial chunk under a mask). */
static void bias_compute(dv_k_t *k, const bias_tiling_t *t, const bias_state_t *st, const dv_tile_t *tile)
{
    const dv_dtype_t dt = (dv_dtype_t)t->dt;
    const uint64_t size = dv_dtype_size(dt), per_rep = REP_BYTES / size;
    if (!t->per_row && tile->col0 * size % BLK)
        dvk_fail(k, "bias_add: a tile starting at column %llu reads b at byte %llu, not on a 32-B boundary (column "
                 "tiles of the last-axis kind must start at multiples of %llu)", (unsigned long long)tile->col0,
                 (unsigned long long)(tile->col0 * size), (unsigned long long)(BLK / size));
    const uint64_t full = tile->cols / per_rep, rem = tile->cols % per_rep;
    bias_chunks(k, t, st, tile, 0, full);
    if (rem) {
        dvk_mask_first(k, dt, (uint32_t)rem);
        bias_chunks(k, t, st, tile, full, 1);
        dvk_mask_all(k);
    }
}

/* Allocate b (and its blocks), load it from GM argument `arg` and broadcast it: once per block. */
static void bias_load(dv_k_t *k, const bias_tiling_t *t, uint32_t arg, bias_state_t *st)
{
    const dv_dtype_t dt = (dv_dtype_t)t->dt;
    const uint64_t bytes = dv_round_up(t->len * dv_dtype_size(dt), BLK);
    memset(st, 0, sizeof *st);
    st->b = dvk_alloc(k, DV_SPACE_UB, bytes);
    /* whole 32 B blocks: the argument is padded to them, and the padding is never added */
    dvk_copy_gm_to_ubuf(k, st->b, dvk_gm(k, arg, 0), 1, (int64_t)(bytes / BLK), 0, 0);
    dvk_pipe_barrier(k, DV_PIPE_ALL);
    if (!t->per_row)
        return;
    const uint64_t reps = dv_ceil_div(t->len, 8), max = dv_ops_field_max(DV_FORM_VBRCB, DV_FLD(VBRCB, repeat));
    st->bc = dvk_alloc(k, DV_SPACE_UB, reps * 8 * BLK);
    for (uint64_t r = 0; r < reps; r += max)
        dvk_vbrcb(k, st->bc + r * 8 * BLK, st->b + r * 8 * dv_dtype_size(dt), dt, (int64_t)dv_min_u64(max, reps - r), 1,
                  8);
    dvk_pipe_barrier(k, DV_PIPE_V);
}

/* ---- per-tile work (dv/ops.h): the state is bias_state_t ---- */

static void bias_tile_setup(dv_k_t *k, const dv_op_plan_t *plan, const uint32_t *argmap, uint64_t rows, uint64_t pitch,
                            void *state)
{
    (void)rows;
    (void)pitch;
    bias_tiling_t t;
    bias_state_t st;
    memcpy(&t, plan->tiling, sizeof t);
    bias_load(k, &t, argmap[A_B], &st);
    memcpy(state, &st, sizeof st);
}

static void bias_tile_emit(dv_k_t *k, const dv_op_plan_t *plan, const void *state, const dv_tile_t *tile)
{
    bias_tiling_t t;
    bias_state_t st;
    memcpy(&t, plan->tiling, sizeof t);
    memcpy(&st, state, sizeof st);
    bias_compute(k, &t, &st, tile);
}

static const dv_tile_ops_t bias_tile_ops = {.flags = DV_TILE_VIEW, .view = bias_view, .ub_bytes = bias_tile_ub_bytes,
                                            .setup = bias_tile_setup, .emit = bias_tile_emit};

/* ---- the kernel ---- */

/* `rows` rows of row_bytes, contiguous in GM at off, at a pitch of ceil32(row_bytes) in UB. */
static void copy_in(dv_k_t *k, uint64_t ub, uint64_t off, uint64_t rows, uint64_t row_bytes)
{
    const uint64_t max_burst = dv_ops_field_max(DV_FORM_DMA, DV_FLD(DMA, nburst));
    if (row_bytes % BLK == 0) {
        const uint64_t blocks = rows * row_bytes / BLK;
        if (blocks <= dv_ops_field_max(DV_FORM_DMA, DV_FLD(DMA, len))) {
            dvk_copy_gm_to_ubuf(k, ub, dvk_gm(k, A_X, off), 1, (int64_t)blocks, 0, 0);
            return;
        }
        for (uint64_t r = 0; r < rows; r += max_burst)
            dvk_copy_gm_to_ubuf(k, ub + r * row_bytes, dvk_gm(k, A_X, off + r * row_bytes),
                                (int64_t)dv_min_u64(max_burst, rows - r), (int64_t)(row_bytes / BLK), 0, 0);
        return;
    }
    const uint64_t pitch = dv_round_up(row_bytes, BLK);
    for (uint64_t r = 0; r < rows; r += max_burst)
        dvk_copy_gm_to_ubuf_align(k, ub + r * pitch, dvk_gm(k, A_X, off + r * row_bytes),
                                  (int64_t)dv_min_u64(max_burst, rows - r), (int64_t)row_bytes, 0, 0, 0, 0, 1);
}

static void copy_out(dv_k_t *k, uint64_t off, uint64_t ub, uint64_t rows, uint64_t row_bytes)
{
    const uint64_t max_burst = dv_ops_field_max(DV_FORM_DMA, DV_FLD(DMA, nburst));
    if (row_bytes % BLK == 0) {
        const uint64_t blocks = rows * row_bytes / BLK;
        if (blocks <= dv_ops_field_max(DV_FORM_DMA, DV_FLD(DMA, len))) {
            dvk_copy_ubuf_to_gm(k, dvk_gm(k, A_Z, off), ub, 1, (int64_t)blocks, 0, 0);
            return;
        }
        for (uint64_t r = 0; r < rows; r += max_burst)
            dvk_copy_ubuf_to_gm(k, dvk_gm(k, A_Z, off + r * row_bytes), ub + r * row_bytes,
                                (int64_t)dv_min_u64(max_burst, rows - r), (int64_t)(row_bytes / BLK), 0, 0);
        return;
    }
    const uint64_t pitch = dv_round_up(row_bytes, BLK);
    for (uint64_t r = 0; r < rows; r += max_burst)
        dvk_copy_ubuf_to_gm_align(k, dvk_gm(k, A_Z, off + r * row_bytes), ub + r * pitch,
                                  (int64_t)dv_min_u64(max_burst, rows - r), (int64_t)row_bytes, 0, 0);
}

/* Tile i of the block's units [u0, u1), as the tile code sees it (addresses left to the caller),
 * and its GM offset. */
static dv_tile_t tile_at(const bias_tiling_t *t, uint64_t u0, uint64_t u1, uint64_t i, uint64_t *off)
{
    const uint64_t u = u0 + i * t->tile_rows, size = dv_dtype_size((dv_dtype_t)t->dt);
    dv_tile_t x;
    memset(&x, 0, sizeof x);
    x.rows = dv_min_u64(t->tile_rows, u1 - u);
    x.row0 = u / t->nseg;
    x.col0 = u % t->nseg * t->seg;
    x.cols = dv_min_u64(t->seg, t->cols - x.col0);
    x.pitch = dv_round_up(t->seg, BLK / size);
    *off = (x.row0 * t->cols + x.col0) * size;
    return x;
}

static void bias_kernel(dv_k_t *k, const void *params)
{
    const bias_tiling_t *t = params;
    const uint64_t b = dvk_block_idx(k), nb = dvk_block_num(k);
    const uint64_t u0 = t->units * b / nb, u1 = t->units * (b + 1) / nb;
    if (u0 >= u1)
        return;
    const uint64_t size = dv_dtype_size((dv_dtype_t)t->dt), cp = dv_round_up(t->seg, BLK / size);
    dv_que_t inq, outq;
    dvk_que_init(k, &inq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, t->depth, t->tile_rows * cp * size);
    dvk_que_init(k, &outq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, t->depth, t->tile_rows * cp * size);
    bias_state_t st;
    bias_load(k, t, A_B, &st);

    const uint64_t ntiles = dv_ceil_div(u1 - u0, t->tile_rows);
    const uint64_t ahead = t->depth > 1 ? 1 : 0; /* CopyIn runs this many tiles ahead of Compute */
    for (uint64_t i = 0; i < ntiles + ahead; i++) {
        uint64_t off;
        if (i < ntiles) { /* CopyIn(i) */
            const dv_tile_t x = tile_at(t, u0, u1, i, &off);
            const uint64_t buf = dvk_que_alloc(k, &inq);
            copy_in(k, buf, off, x.rows, x.cols * size);
            dvk_que_enque(k, &inq, buf);
        }
        if (i < ahead)
            continue;
        /* Compute(i - ahead) */
        dv_tile_t x = tile_at(t, u0, u1, i - ahead, &off);
        x.in[0] = dvk_que_deque(k, &inq);
        x.out = dvk_que_alloc(k, &outq);
        bias_compute(k, t, &st, &x);
        dvk_que_enque(k, &outq, x.out);
        dvk_que_free(k, &inq, x.in[0]);
        /* CopyOut(i - ahead) */
        const uint64_t o = dvk_que_deque(k, &outq);
        copy_out(k, off, o, x.rows, x.cols * size);
        dvk_que_free(k, &outq, o);
    }
}

/* ---- plan ---- */

/* The largest R in [0, cap] whose tiles fit the UB. */
static uint64_t fit_rows(const bias_tiling_t *t, const dv_config_t *cfg, uint64_t cap)
{
    uint64_t lo = 0, hi = cap;
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        if (bias_ub_total(t, mid, cfg->ub_align_bytes) <= cfg->ub_size_bytes)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static int bias_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                     dv_error_t *err)
{
    const dv_shape_t *sh = &v->v[BP_SHAPE].shape;
    const dv_dtype_t dt = v->v[BP_DTYPE].dt;
    const uint64_t size = dv_dtype_size(dt);
    const char *dname = dv_ops_dtype_name(dt);
    const int axis = axis_index(v->v[BP_AXIS].i, sh->ndims);
    char shape[96];
    dv_shape_format(sh, shape, sizeof shape);
    if (axis < 0)
        return dv_ops_param_error(err, "axis", "%lld is not an axis of the %d-D --shape %s (%d..%d)",
                                  (long long)v->v[BP_AXIS].i, sh->ndims, shape, -sh->ndims, sh->ndims - 1);
    const uint64_t n = dv_shape_elems(sh);
    if (n == 0 || (double)n * (double)size > (double)cfg->hbm_capacity_bytes)
        return dv_ops_param_error(err, "shape", "x alone needs more than hbm.capacity_bytes = %llu bytes",
                                  (unsigned long long)cfg->hbm_capacity_bytes);
    bias_tiling_t t;
    memset(&t, 0, sizeof t);
    t.dt = (uint32_t)dt;
    t.per_row = axis != sh->ndims - 1;
    t.depth = v->v[BP_DB].i ? 2 : 1;
    t.len = sh->d[axis];
    const int split = t.per_row ? axis + 1 : axis; /* dims [split, ndims) form a row */
    t.rows = t.cols = 1;
    for (int i = 0; i < sh->ndims; i++) {
        if (i < split)
            t.rows *= sh->d[i];
        else
            t.cols *= sh->d[i];
    }
    if (t.cols * size % BLK && !cfg->chip_dma_pad)
        return dv_ops_param_error(err, "shape", "rows of the [%llu, %llu] view are %llu %s elements, %llu bytes, not a "
                                  "multiple of 32 B, and this chip has no byte-granular DMA (chip.dma_pad is false)",
                                  (unsigned long long)t.rows, (unsigned long long)t.cols, (unsigned long long)t.cols,
                                  dname, (unsigned long long)(t.cols * size));
    t.seg = t.cols;
    t.nseg = 1;
    if (bias_ub_total(&t, 1, cfg->ub_align_bytes) > cfg->ub_size_bytes) {
        /* a row does not fit: split it into the longest segments of whole repeats that do */
        const uint64_t per_seg = SEG_BYTES / size;
        uint64_t lo = 0, hi = t.cols / per_seg;
        while (lo < hi) {
            const uint64_t mid = lo + (hi - lo + 1) / 2;
            t.seg = mid * per_seg;
            if (bias_ub_total(&t, 1, cfg->ub_align_bytes) <= cfg->ub_size_bytes)
                lo = mid;
            else
                hi = mid - 1;
        }
        if (lo == 0) {
            t.seg = per_seg;
            return dv_ops_param_error(err, "shape", "b of %llu %s elements needs %llu bytes of UB%s, and with one tile "
                                      "of %llu elements the kernel needs %llu, core.ub_size_bytes is %llu",
                                      (unsigned long long)t.len, dname,
                                      (unsigned long long)bias_b_bytes(&t, cfg->ub_align_bytes),
                                      t.per_row ? " (with its 32-B block per element)" : "",
                                      (unsigned long long)t.seg,
                                      (unsigned long long)bias_ub_total(&t, 1, cfg->ub_align_bytes),
                                      (unsigned long long)cfg->ub_size_bytes);
        }
        if (v->given[BP_TILE_ROWS] && v->v[BP_TILE_ROWS].i > 1)
            return dv_ops_param_error(err, "tile-rows", "one row of %llu %s elements does not fit the UB "
                                      "(core.ub_size_bytes is %llu): rows are split, so --tile-rows must be 1",
                                      (unsigned long long)t.cols, dname, (unsigned long long)cfg->ub_size_bytes);
        t.seg = lo * per_seg;
        t.nseg = dv_ceil_div(t.cols, t.seg);
    }
    t.units = t.rows * t.nseg;

    const uint64_t cores = v->v[BP_CORES].i ? (uint64_t)v->v[BP_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    const uint32_t blocks = (uint32_t)dv_min_u64(cores, t.units);
    const uint64_t per_block = dv_ceil_div(t.units, blocks);
    if (t.nseg > 1) {
        t.tile_rows = 1;
    } else if (v->v[BP_TILE_ROWS].i) {
        t.tile_rows = (uint64_t)v->v[BP_TILE_ROWS].i;
        const uint64_t need = bias_ub_total(&t, t.tile_rows, cfg->ub_align_bytes);
        if (need > cfg->ub_size_bytes)
            return dv_ops_param_error(err, "tile-rows",
                                      "%llu rows of %llu %s elements need %llu bytes of UB (%u buffers "
                                      "per queue, and b), core.ub_size_bytes is %llu: at most %llu rows fit",
                                      (unsigned long long)t.tile_rows, (unsigned long long)t.cols, dname,
                                      (unsigned long long)need, t.depth, (unsigned long long)cfg->ub_size_bytes,
                                      (unsigned long long)fit_rows(&t, cfg, t.tile_rows));
        t.tile_rows = dv_min_u64(t.tile_rows, per_block);
    } else {
        t.tile_rows = fit_rows(&t, cfg, dv_min_u64(per_block, 65535));
    }

    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = blocks;
    int rc;
    if ((rc = dv_ops_add_arg(plan, "x", dt, n, DV_ARG_IN, 0, 0)) != DV_OK ||
        (rc = dv_ops_add_arg(plan, "b", dt, t.len, DV_ARG_IN, 0, 0)) != DV_OK ||
        (rc = dv_ops_add_arg(plan, "z", dt, n, DV_ARG_OUT, 0, 0)) != DV_OK)
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = n;
    plan->bytes = (2 * n + t.len) * size;
    plan->tol_scale = 1.0;
    plan->own_args = 0; /* b is the node's second input */
    return DV_OK;
}

/* ---- reference and graph binding ---- */

static int bias_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    bias_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t dt = (dv_dtype_t)t.dt;
    for (uint64_t r = 0; r < t.rows; r++)
        for (uint64_t c = 0; c < t.cols; c++) {
            const uint64_t i = r * t.cols + c;
            const double b = dv_ops_load(in[A_B], dt, t.per_row ? r % t.len : c);
            dv_ops_store(expect[A_Z], dt, i, dv_ops_load(in[A_X], dt, i) + b);
        }
    return DV_OK;
}

/* Inputs x (any shape) and b (1-D, x's length along --axis, x's dtype); the output is x's. */
static int bias_bind(const dv_opdesc_t *op, const dv_tensor_desc_t *in, int nin, dv_opvals_t *v, dv_tensor_desc_t *out,
                     dv_error_t *err)
{
    if (nin != 2)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "%s takes 2 inputs (x, b), %d given", op->name, nin);
    const dv_shape_t *xs = &in[0].shape, *bs = &in[1].shape;
    const int axis = axis_index(v->v[BP_AXIS].i, xs->ndims);
    char a[96], b[96];
    dv_shape_format(xs, a, sizeof a);
    dv_shape_format(bs, b, sizeof b);
    if (axis < 0)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0,
                            "--axis %lld is not an axis of input 1 (x, shape %s: %d..%d)",
                            (long long)v->v[BP_AXIS].i, a, -xs->ndims, xs->ndims - 1);
    if (bs->ndims != 1 || bs->d[0] != xs->d[axis])
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0,
                            "input 2 (b) has shape %s; %s needs a 1-D b of %llu elements, "
                            "the length of axis %d of input 1 (x, shape %s)", b, op->name,
                            (unsigned long long)xs->d[axis], axis, a);
    if (in[1].dtype != in[0].dtype)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input 2 (b) is %s, input 1 (x) is %s: %s needs one dtype",
                            dv_ops_dtype_name(in[1].dtype), dv_ops_dtype_name(in[0].dtype), op->name);
    if (!(bias_params[BP_DTYPE].dtypes & (1u << in[0].dtype)))
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input 1 (x) is %s; %s takes fp16|fp32",
                            dv_ops_dtype_name(in[0].dtype), op->name);
    v->v[BP_SHAPE].shape = *xs;
    v->given[BP_SHAPE] = true;
    v->v[BP_DTYPE].dt = in[0].dtype;
    v->given[BP_DTYPE] = true;
    *out = in[0];
    return DV_OK;
}

/* bias_add (ops/ops.def row). */
const dv_opdesc_t dv_op_bias_add = {
    .name = "bias_add",
    .desc = "z = x + b, the 1-D b broadcast along --axis of x (the last: b[c] added to every row; another: "
            "b[i] added to every element whose index along the axis is i)",
    .params = bias_params, .nparams = BP_COUNT, .plan = bias_plan, .kernel = bias_kernel,
    .reference = bias_reference, .bind = bias_bind, .tile = &bias_tile_ops,
};
