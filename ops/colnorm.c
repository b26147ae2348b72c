/* ops/colnorm.c - normalisations whose reductions run across rows of a tile, element-wise between
 * the rows: softmax along any axis (softmax_dim) and training-mode batch normalisation
 * (batchnorm_train).  The row-wise normalisations over the last axis are ops/norm.c's.
 *
 * softmax_dim (aclnnSoftmax with a dim other than the last).  The tensor is viewed as [outer, n, inner] around the axis (n its length): each of the outer x
 * inner columns is normalised over its n elements, which lie inner elements apart.  The reduction
 * runs across rows, so it is element-wise between rows: a unit of work is one column tile, the n x
 * T elements [o, 0..n, c0..c0+T) (T = --tile-cols, auto: the widest that fits UB), and block b takes
 * units [units*b/B, units*(b+1)/B) through TQue-style queues (inQ MTE2 -> V, outQ V -> MTE3, depth
 * 2 when both buffers fit, else 1):
 *   CopyIn   MTE2: copy_gm_to_ubuf_align (DataCopyPad), one burst of T elements per row (GM gap:
 *                  the rest of the row), each UB row padded with zeros (MOV_PAD_VAL 0) to a 32 B
 *                  multiple, P elements: the tile is n x P in UB, every lane defined.
 *   Compute  V:    in fp32 (fp16 is cast up by vconv, the "fp32 accumulation" of ops/norm.c):
 *                  m = max over the rows, x -= m (vsub, repeats walking the rows with src1 repeat
 *                  stride 0: m is read for every row), e = exp(x) (vexp over the tile), s = sum over
 *                  the rows, y = e / s (vdiv as the vsub), fp16 cast back.  The reductions over the
 *                  rows are pairwise into a scratch of ceil(n/2) rows: the first half of the rows
 *                  with the second by one flat vmax / vadd run, then halves of the scratch,
 *                  ceil(log2 n) dependent levels (an odd row out folded into row 0).  Dependent steps
 *                  are separated by pipe_barrier(V).  The steps that apply a row to every row work
 *                  in 64-lane chunks (the last one masked); their repeat stride is P x 4 / 32
 *                  blocks, so P is at most 2040.
 *   CopyOut  MTE3: copy_ubuf_to_gm_align, T elements per row back into its column.
 * Needs chip.dma_pad.  n is at most what one column tile of one element (a row of 32 B) fits in
 * UB: a longer axis is an error naming the limit (it would need a two-pass kernel).  The reference
 * computes in double from the rounded inputs and rounds once; the default tolerance holds.
 *
 * batchnorm_train (aclnnBatchNorm with training true) on N x C x S... (2 to 5 dims; S the product
 * of the dims after C, 1 for 2-D): per channel c the batch statistics over its N x S elements,
 * mean = sum / M and the biased variance var = sum((x - mean)^2) / M (M = N x S), then
 * y = (x - mean) * invstd * gamma[c] + beta[c], invstd = 1 / sqrt(var + eps); saveMean = mean,
 * saveInvstd = invstd; runningMean = (1 - momentum) * runningMean + momentum * mean and
 * runningVar = (1 - momentum) * runningVar + momentum * var * M / (M - 1) (the unbiased variance;
 * var itself when M is 1), as PyTorch and CANN's BatchNormV3 update them.  x and y in the dtype,
 * gamma, beta, the running and saved statistics in fp32.  A unit is one channel: block b takes
 * channels [C*b/B, C*(b+1)/B).  Per channel:
 *   CopyIn   MTE2: the N runs of S elements, one DataCopyPad burst each (GM gap (C - 1) x S), each
 *                  UB row zero-padded to P elements (32 B multiple): N x P in UB.
 *   Compute  V:    fp32 (fp16 cast up).  The sum over the rows pairwise (as softmax_dim), then over
 *                  the row's first S lanes (adjacent 64-lane chunks folded with vadd, the last
 *                  masked; vcadd), so the padding never counts; vbrcb spreads the sum over a 32 B
 *                  block and vmuls 1/M makes the mean.  d = x - mean over the tile (vsub, the mean
 *                  block read with block and repeat stride 0), d^2 (vmul) summed the same way: var.
 *                  invstd (vadds eps, vrsqrt), scale = invstd * gamma[c] (gamma and beta spread to
 *                  one block per channel by vbrcb once per block), y = d * scale + beta[c].
 *   CopyOut  MTE3: the N runs of y back.
 * The channel's statistics stay in UB, one 32 B block per channel; after its last channel the block
 * reads its channels' running statistics (DataCopyPad, one 4-byte burst per channel into a block
 * each), updates them (vmuls, vaxpy) and writes the four statistics with one 4-byte burst per
 * channel.  A channel's N x P tile and its fp32 work must fit in UB (else an error naming the
 * limit: a larger channel would need the statistics in passes). */
#include "../kernel/kapi_emit.h" /* dvk_<mnemonic> write into the stream (before dv/kapi.h) */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/ops.h"

enum { SD_BLK = 32, SD_REP = 256, SD_LANES = 64, SD_MAX_PITCH = 2040 };
enum { SP_SHAPE, SP_DIM, SP_DTYPE, SP_LOG, SP_CORES, SP_DB, SP_TILE_COLS, SP_COUNT };

static const dv_oparam_spec_t sd_params[SP_COUNT] = {
    {"shape", DV_OPT_SHAPE, "8x1024x16", 1, 1u << 30, 0, "tensor dimensions"},
    {"dim", DV_OPT_INT, "1", 0, DV_SHAPE_MAX - 1, 0, "the axis normalised (0 .. dims - 1)"},
    {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, DT_F16 | DT_F32, "element type (arithmetic in fp32)"},
    {"log", DV_OPT_BOOL, "off", 0, 1, 0, "log softmax: y = x - max - ln(sum(exp(x - max)))"},
    {"cores", DV_OPT_INT, "auto", 1, 1024, 0, "blocks (auto: the chip's vector cores)"},
    {"double-buffer", DV_OPT_BOOL, "on", 0, 1, 0, "two buffers per queue when they fit UB"},
    {"tile-cols", DV_OPT_INT, "auto", 1, SD_MAX_PITCH, 0, "columns per tile (auto: the widest that fits UB)"},
};

typedef struct sd_tiling {
    uint64_t outer, n, inner, T;
    uint32_t dt, depth, blocks, log;
} sd_tiling_t;

/* UB bytes of a tile of n rows of P elements (P a multiple of 32 B in the dtype). */
static uint64_t sd_ub_bytes(uint64_t n, uint64_t P, unsigned size, uint32_t depth, uint64_t align, bool log)
{
    if (log) /* the exponentials' tile and the max row besides */
        return sd_ub_bytes(n, P, size, depth, align, false) + dv_round_up(n * P * 4, align) + dv_round_up(P * 4, align);
    const uint64_t io = dv_round_up(n * P * size, align), w = size == 4 ? 0 : dv_round_up(n * P * 4, align);
    return 2 * depth * io + w + dv_round_up(dv_ceil_div(n, 2) * P * 4, align);
}

/* The elements per row a tile of t columns occupies in UB: whole 32 B in the dtype. */
static uint64_t sd_pitch(uint64_t t, unsigned size) { return dv_round_up(t, SD_BLK / size); }

/* A column tile's n rows of tc elements between GM argument arg (row r at byte gm + r * inner * size)
 * and UB (row r at ub + r * pc elements): in zero-padded to the pitch pc (copy_gm_to_ubuf_align) or
 * out, in bursts of at most nburst_max rows. */
static void sd_rows(dv_k_t *k, bool out, uint32_t arg, uint64_t gm, uint64_t ub, uint64_t n, uint64_t inner,
                    uint64_t pc, uint64_t tc, unsigned size, uint64_t nburst_max)
{
    const int64_t len = (int64_t)(tc * size), gap = (int64_t)((inner - tc) * size);
    for (uint64_t r = 0; r < n; r += nburst_max) {
        const int64_t rows = (int64_t)dv_min_u64(nburst_max, n - r);
        const uint64_t g = dvk_gm(k, arg, gm + r * inner * size), u = ub + r * pc * size;
        if (out)
            dvk_copy_ubuf_to_gm_align(k, g, u, rows, len, 0, gap);
        else
            dvk_copy_gm_to_ubuf_align(k, u, g, rows, len, gap, 0, 0, (int64_t)(pc - tc), (int64_t)size);
    }
}

/* The split of a shape at axis dim into [outer, n, inner] for a column-tile operator `name`, checked:
 * dim an axis, DataCopyPad on the chip, a tensor within HBM. */
static int sd_axis(const char *name, const dv_config_t *cfg, const dv_shape_t *sh, int64_t dim, unsigned size,
                   uint64_t *outer, uint64_t *n, uint64_t *inner, dv_error_t *err)
{
    if (dim >= sh->ndims)
        return dv_ops_param_error(err, "dim", "%lld is not an axis of a %d-dimensional shape (0 .. %d)",
                                  (long long)dim, sh->ndims, sh->ndims - 1);
    if (!cfg->chip_dma_pad)
        return dv_ops_param_error(err, "dim", "%s copies column tiles with copy_gm_to_ubuf_align, and this profile "
                                  "has chip.dma_pad off", name);
    *outer = *inner = 1;
    *n = sh->d[dim];
    for (int i = 0; i < sh->ndims; i++) {
        if (i < dim)
            *outer *= sh->d[i];
        else if (i > dim)
            *inner *= sh->d[i];
    }
    const int hbm_rc = dv_ops_check_hbm(cfg, dv_shape_elems(sh), size, err);
    if (hbm_rc != DV_OK)
        return hbm_rc;
    return DV_OK;
}

/* dst = op(src0, src1) over e fp32 elements (contiguous, whole repeats, the last one masked). */
typedef void (*sd_vbin_t)(dv_k_t *, uint64_t, uint64_t, uint64_t, dv_dtype_t, int64_t, int64_t, int64_t, int64_t,
                          int64_t, int64_t, int64_t);
static void sd_bin(dv_k_t *k, sd_vbin_t op, uint64_t dst, uint64_t a, uint64_t b, uint64_t e)
{
    const uint64_t rep_max = dv_ops_field_max(DV_FORM_VBIN, DV_FLD(VBIN, repeat));
    const uint64_t full = e / SD_LANES, rem = e % SD_LANES;
    for (uint64_t r = 0, rep; r < full; r += rep) {
        rep = dv_min_u64(rep_max, full - r);
        op(k, dst + r * SD_REP, a + r * SD_REP, b + r * SD_REP, DV_DT_F32, (int64_t)rep, 1, 1, 1, 8, 8, 8);
    }
    if (rem) {
        dvk_mask_first(k, DV_DT_F32, (uint32_t)rem);
        op(k, dst + full * SD_REP, a + full * SD_REP, b + full * SD_REP, DV_DT_F32, 1, 1, 1, 1, 8, 8, 8);
        dvk_mask_all(k);
    }
}

/* Row 0 of r = op over the n rows of w (P fp32 elements each), pairwise: the first half of the rows
 * with the second half into r (one flat instruction run), then r's halves, ceil(log2 n) dependent
 * levels; an odd row out is folded into row 0.  r holds ceil(n / 2) rows (at least one). */
static void sd_reduce(dv_k_t *k, sd_vbin_t op, uint64_t r, uint64_t w, uint64_t n, uint64_t P)
{
    const uint64_t row = P * 4;
    if (n == 1) { /* the row itself: max(w, w), under the mask of its P elements */
        sd_bin(k, dvk_vmax, r, w, w, P);
        return;
    }
    uint64_t rows = n / 2;
    sd_bin(k, op, r, w, w + rows * row, rows * P);
    if (n % 2) {
        dvk_pipe_barrier(k, DV_PIPE_V);
        sd_bin(k, op, r, r, w + (n - 1) * row, P);
    }
    while (rows > 1) {
        const uint64_t h = rows / 2;
        dvk_pipe_barrier(k, DV_PIPE_V);
        sd_bin(k, op, r, r, r + h * row, h * P);
        if (rows % 2) {
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_bin(k, op, r, r, r + (rows - 1) * row, P);
        }
        rows = h;
    }
}

/* dst[r] = op(src[r], v) for the n rows of P fp32 elements: per 64-lane chunk, repeats walk the
 * rows (stride P x 4 bytes), v read with repeat stride 0. */
static void sd_rows_op(dv_k_t *k, sd_vbin_t op, uint64_t dst, uint64_t src, uint64_t v, uint64_t n, uint64_t P)
{
    const uint64_t rep_max = dv_ops_field_max(DV_FORM_VBIN, DV_FLD(VBIN, repeat)), stride = P * 4 / SD_BLK;
    for (uint64_t c = 0; c < P; c += SD_LANES) {
        const uint64_t lanes = dv_min_u64(SD_LANES, P - c);
        if (lanes < SD_LANES)
            dvk_mask_first(k, DV_DT_F32, (uint32_t)lanes);
        for (uint64_t r = 0; r < n; r += rep_max) {
            const uint64_t rows = dv_min_u64(rep_max, n - r), off = r * P * 4 + c * 4;
            op(k, dst + off, src + off, v + c * 4, DV_DT_F32, (int64_t)rows, 1, 1, 1, (int64_t)stride,
               (int64_t)stride, 0);
        }
        if (lanes < SD_LANES)
            dvk_mask_all(k);
    }
}

/* A flat step over e fp32 elements: what 0 is y = exp(x), 1 the fp16 -> fp32 cast, 2 fp32 -> fp16,
 * 3 y = ln(x), 4 y = sqrt(x). */
static void sd_flat_rep(dv_k_t *k, int what, uint64_t dst, uint64_t src, uint64_t r, uint64_t rep)
{
    if (what == 0)
        dvk_vexp(k, dst + r * SD_REP, src + r * SD_REP, DV_DT_F32, (int64_t)rep, 1, 1, 8, 8);
    else if (what == 1)
        dvk_vconv(k, dst + r * SD_REP, src + r * SD_REP / 2, DV_DT_F32, DV_DT_F16, DV_ROUND_R, (int64_t)rep, 1, 1, 8, 4);
    else if (what == 2)
        dvk_vconv(k, dst + r * SD_REP / 2, src + r * SD_REP, DV_DT_F16, DV_DT_F32, DV_ROUND_R, (int64_t)rep, 1, 1, 4, 8);
    else if (what == 3)
        dvk_vln(k, dst + r * SD_REP, src + r * SD_REP, DV_DT_F32, (int64_t)rep, 1, 1, 8, 8);
    else
        dvk_vsqrt(k, dst + r * SD_REP, src + r * SD_REP, DV_DT_F32, (int64_t)rep, 1, 1, 8, 8);
}

static void sd_flat(dv_k_t *k, int what, uint64_t dst, uint64_t src, uint64_t e)
{
    const uint64_t rep_max = dv_ops_field_max(DV_FORM_VBIN, DV_FLD(VBIN, repeat));
    const uint64_t full = e / SD_LANES, rem = e % SD_LANES;
    for (uint64_t r = 0, rep; r < full; r += rep) {
        rep = dv_min_u64(rep_max, full - r);
        sd_flat_rep(k, what, dst, src, r, rep);
    }
    if (rem) {
        dvk_mask_first(k, DV_DT_F32, (uint32_t)rem);
        sd_flat_rep(k, what, dst, src, full, 1);
        dvk_mask_all(k);
    }
}

/* The log softmax over the rows of the fp32 tile w (n x P, kept) into y: e (n x P) holds x - max and
 * its exponentials, m the max row; r as below. */
static void sd_log_compute(dv_k_t *k, uint64_t w, uint64_t y, uint64_t r, uint64_t e, uint64_t m, uint64_t n,
                           uint64_t P)
{
    sd_reduce(k, dvk_vmax, r, w, n, P);
    dvk_pipe_barrier(k, DV_PIPE_V);
    sd_bin(k, dvk_vmax, m, r, r, P); /* the max row kept */
    dvk_pipe_barrier(k, DV_PIPE_V);
    sd_rows_op(k, dvk_vsub, e, w, m, n, P);
    dvk_pipe_barrier(k, DV_PIPE_V);
    sd_flat(k, 0, e, e, n * P);
    dvk_pipe_barrier(k, DV_PIPE_V);
    sd_reduce(k, dvk_vadd, r, e, n, P);
    dvk_pipe_barrier(k, DV_PIPE_V);
    sd_flat(k, 3, r, r, P);
    dvk_pipe_barrier(k, DV_PIPE_V);
    sd_bin(k, dvk_vadd, r, r, m, P); /* max + ln(sum): the log of the normaliser */
    dvk_pipe_barrier(k, DV_PIPE_V);
    sd_rows_op(k, dvk_vsub, y, w, r, n, P);
}

/* The softmax over the rows of the fp32 tile w (n x P, which it overwrites) into y (fp32, n x P;
 * may be w); r is the reduction scratch (sd_reduce): its row 0 holds the max, then the sum. */
static void sd_compute(dv_k_t *k, uint64_t w, uint64_t y, uint64_t r, uint64_t n, uint64_t P)
{
    sd_reduce(k, dvk_vmax, r, w, n, P);
    dvk_pipe_barrier(k, DV_PIPE_V);
    sd_rows_op(k, dvk_vsub, w, w, r, n, P);
    dvk_pipe_barrier(k, DV_PIPE_V);
    sd_flat(k, 0, w, w, n * P);
    dvk_pipe_barrier(k, DV_PIPE_V);
    sd_reduce(k, dvk_vadd, r, w, n, P);
    dvk_pipe_barrier(k, DV_PIPE_V);
    sd_rows_op(k, dvk_vdiv, y, w, r, n, P);
}

static void sd_kernel(dv_k_t *k, const void *params)
{
    const sd_tiling_t *t = params;
    const dv_dtype_t dt = (dv_dtype_t)t->dt;
    const unsigned size = dv_dtype_size(dt);
    const uint64_t ctiles = dv_ceil_div(t->inner, t->T), units = t->outer * ctiles;
    const uint64_t nb = dvk_block_num(k), b = dvk_block_idx(k);
    const uint64_t u0 = units * b / nb, u1 = units * (b + 1) / nb;
    if (u0 == u1)
        return;
    const uint64_t P = sd_pitch(t->T, size), nburst_max = dv_ops_field_max(DV_FORM_DMAPADIN, DV_FLD(DMAPADIN, nburst));
    dv_que_t inq, outq;
    dvk_que_init(k, &inq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, t->depth, t->n * P * size);
    dvk_que_init(k, &outq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, t->depth, t->n * P * size);
    const uint64_t w32 = size == 4 ? 0 : dvk_alloc(k, DV_SPACE_UB, t->n * P * 4);
    const uint64_t red = dvk_alloc(k, DV_SPACE_UB, dv_ceil_div(t->n, 2) * P * 4);
    const uint64_t ex = t->log ? dvk_alloc(k, DV_SPACE_UB, t->n * P * 4) : 0, mx = t->log ? dvk_alloc(k, DV_SPACE_UB, P * 4) : 0;
    dvk_set_mov_pad_val(k, 0);
    for (uint64_t u = u0; u < u1; u++) {
        const uint64_t o = u / ctiles, c0 = (u % ctiles) * t->T, tc = dv_min_u64(t->T, t->inner - c0);
        const uint64_t pc = sd_pitch(tc, size), gm = ((o * t->n) * t->inner + c0) * size;
        /* CopyIn: row r of the tile at UB pitch pc, zero-padded */
        const uint64_t bx = dvk_que_alloc(k, &inq);
        sd_rows(k, false, 0, gm, bx, t->n, t->inner, pc, tc, size, nburst_max);
        dvk_que_enque(k, &inq, bx);
        /* Compute */
        const uint64_t x = dvk_que_deque(k, &inq), y = dvk_que_alloc(k, &outq);
        if (size == 4) {
            if (t->log)
                sd_log_compute(k, x, y, red, ex, mx, t->n, pc);
            else
                sd_compute(k, x, y, red, t->n, pc);
        } else {
            sd_flat(k, 1, w32, x, t->n * pc);
            dvk_pipe_barrier(k, DV_PIPE_V);
            if (t->log)
                sd_log_compute(k, w32, w32, red, ex, mx, t->n, pc);
            else
                sd_compute(k, w32, w32, red, t->n, pc);
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_flat(k, 2, y, w32, t->n * pc);
        }
        dvk_que_free(k, &inq, x);
        dvk_que_enque(k, &outq, y);
        /* CopyOut */
        const uint64_t by = dvk_que_deque(k, &outq);
        sd_rows(k, true, 1, gm, by, t->n, t->inner, pc, tc, size, nburst_max);
        dvk_que_free(k, &outq, by);
    }
}

/* The tiling: the axis and the column tile, checked against the profile. */
static int sd_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                   dv_error_t *err)
{
    const dv_shape_t *sh = &v->v[SP_SHAPE].shape;
    const int64_t dim = v->v[SP_DIM].i;
    const dv_dtype_t dt = v->v[SP_DTYPE].dt;
    const unsigned size = dv_dtype_size(dt);
    sd_tiling_t t = {.dt = (uint32_t)dt, .log = v->v[SP_LOG].i != 0};
    int arc = sd_axis("softmax_dim", cfg, sh, dim, size, &t.outer, &t.n, &t.inner, err);
    if (arc != DV_OK)
        return arc;
    const uint64_t elems = dv_shape_elems(sh);
    const uint64_t ub = cfg->ub_size_bytes, align = cfg->ub_align_bytes;
    t.depth = v->v[SP_DB].i ? 2 : 1;
    if (v->v[SP_TILE_COLS].i) {
        t.T = dv_min_u64((uint64_t)v->v[SP_TILE_COLS].i, t.inner);
        if (sd_ub_bytes(t.n, sd_pitch(t.T, size), size, 1, align, t.log) > ub)
            return dv_ops_param_error(err, "tile-cols", "%llu columns x %llu rows need %llu bytes of UB, "
                                      "core.ub_size_bytes is %llu", (unsigned long long)t.T,
                                      (unsigned long long)t.n,
                                      (unsigned long long)sd_ub_bytes(t.n, sd_pitch(t.T, size), size, 1, align, t.log),
                                      (unsigned long long)ub);
    } else {
        uint64_t c = dv_min_u64(t.inner, SD_MAX_PITCH); /* halved until the tile fits */
        while (c > 1 && sd_ub_bytes(t.n, sd_pitch(c, size), size, 1, align, t.log) > ub)
            c /= 2;
        t.T = c;
        if (sd_ub_bytes(t.n, sd_pitch(c, size), size, 1, align, t.log) > ub)
            return dv_ops_param_error(err, "shape", "the axis has %llu elements: one column of them (%llu bytes "
                                      "with its buffers) does not fit in UB (core.ub_size_bytes %llu); softmax_dim "
                                      "holds a whole column tile", (unsigned long long)t.n,
                                      (unsigned long long)sd_ub_bytes(t.n, sd_pitch(1, size), size, 1, align, t.log),
                                      (unsigned long long)ub);
    }
    if (t.depth == 2 && sd_ub_bytes(t.n, sd_pitch(t.T, size), size, 2, align, t.log) > ub)
        t.depth = 1;
    const uint64_t units = t.outer * dv_ceil_div(t.inner, t.T);
    const uint64_t cores = v->v[SP_CORES].i ? (uint64_t)v->v[SP_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    t.blocks = (uint32_t)dv_max_u64(1, dv_min_u64(cores, units));
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = t.blocks;
    plan->info.subs = 1;
    int rc;
    if ((rc = dv_ops_add_arg(plan, "x", dt, elems, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "y", dt, elems, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 5 * elems; /* max, sub, exp, sum, div */
    plan->bytes = 2 * elems * size;
    plan->tol_scale = 1.0;
    return DV_OK;
}

static int sd_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    sd_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t dt = (dv_dtype_t)t.dt;
    for (uint64_t o = 0; o < t.outer; o++)
        for (uint64_t c = 0; c < t.inner; c++) {
            const uint64_t base = o * t.n * t.inner + c;
            double m = -INFINITY, s = 0;
            for (uint64_t r = 0; r < t.n; r++)
                m = fmax(m, dv_ops_load(in[0], dt, base + r * t.inner));
            for (uint64_t r = 0; r < t.n; r++)
                s += exp(dv_ops_load(in[0], dt, base + r * t.inner) - m);
            for (uint64_t r = 0; r < t.n; r++)
                dv_ops_store(expect[1], dt, base + r * t.inner,
                             t.log ? dv_ops_load(in[0], dt, base + r * t.inner) - m - log(s)
                                   : exp(dv_ops_load(in[0], dt, base + r * t.inner) - m) / s);
        }
    return DV_OK;
}

const dv_opdesc_t dv_op_softmax_dim = {
    "softmax_dim", "y = exp(x - max) / sum(exp(x - max)) along axis --dim, or with --log its log (fp32 arithmetic)",
    sd_params, SP_COUNT, sd_plan, sd_kernel, sd_reference, NULL, NULL, NULL,
};

/* ================================================================ batchnorm_train */

enum { BP_SHAPE, BP_DTYPE, BP_EPS, BP_MOMENTUM, BP_CORES, BP_COUNT };
static const dv_oparam_spec_t bt_params[BP_COUNT] = {
    {"shape", DV_OPT_SHAPE, "8x16x28x28", 1, 1u << 30, 0, "N x C [x spatial dims] (2 to 5 dimensions)"},
    {"dtype", DV_OPT_DTYPE, "fp32", 0, 0, DT_F16 | DT_F32, "x and y (statistics and parameters in fp32)"},
    {"eps", DV_OPT_FLOAT, "1e-5", DV_FLOAT_ABOVE_0, 1, 0, "added to the variance"},
    {"momentum", DV_OPT_FLOAT, "0.1", 0, 1, 0, "weight of the batch statistics in the running ones"},
    {"cores", DV_OPT_INT, "auto", 1, 1024, 0, "blocks (auto: the chip's vector cores)"},
};

typedef struct bt_tiling {
    uint64_t N, C, S;
    double eps, momentum;
    uint32_t dt, blocks;
} bt_tiling_t;

/* Arguments, in order. */
enum { BA_X, BA_GAMMA, BA_BETA, BA_RMEAN, BA_RVAR, BA_Y, BA_SMEAN, BA_SINVSTD, BA_COUNT };

/* UB of one channel's work and the block's statistics (cb channels). */
static uint64_t bt_ub_bytes(uint64_t N, uint64_t P, unsigned size, uint64_t cb, uint64_t align)
{
    const uint64_t io = dv_round_up(N * P * size, align), f = dv_round_up(N * P * 4, align);
    const uint64_t blocks = dv_round_up(cb * SD_BLK, align), vec = dv_round_up(dv_round_up(cb, 8) * 4, align);
    return 2 * io + (size == 4 ? 1 : 2) * f + dv_round_up(dv_ceil_div(N, 2) * P * 4, align) + 4 * dv_round_up(SD_REP, align) +
           2 * vec + 2 * blocks /* gamma, beta spread */ + 4 * blocks /* statistics out */ + 2 * blocks /* running in */;
}

/* dst = op(src0, the 32 B block b repeated) over e fp32 elements. */
static void bt_bcast(dv_k_t *k, sd_vbin_t op, uint64_t dst, uint64_t src, uint64_t b, uint64_t e)
{
    const uint64_t rep_max = dv_ops_field_max(DV_FORM_VBIN, DV_FLD(VBIN, repeat));
    const uint64_t full = e / SD_LANES, rem = e % SD_LANES;
    for (uint64_t r = 0, rep; r < full; r += rep) {
        rep = dv_min_u64(rep_max, full - r);
        op(k, dst + r * SD_REP, src + r * SD_REP, b, DV_DT_F32, (int64_t)rep, 1, 1, 0, 8, 8, 0);
    }
    if (rem) {
        dvk_mask_first(k, DV_DT_F32, (uint32_t)rem);
        op(k, dst + full * SD_REP, src + full * SD_REP, b, DV_DT_F32, 1, 1, 1, 0, 8, 8, 0);
        dvk_mask_all(k);
    }
}

/* The sum of the first S lanes of the fp32 row r (folded in place) into lane 0 of tmp, spread over
 * the 8 blocks of out (vbrcb): block 0 of out holds it in every lane. */
static void bt_lane_sum(dv_k_t *k, uint64_t out, uint64_t tmp, uint64_t r, uint64_t S)
{
    uint64_t len = S;
    while (len > SD_LANES) {
        const uint64_t half = dv_ceil_div(dv_ceil_div(len, SD_LANES), 2) * SD_LANES;
        sd_bin(k, dvk_vadd, r, r, r + half * 4, len - half);
        dvk_pipe_barrier(k, DV_PIPE_V);
        len = half;
    }
    dvk_mask_first(k, DV_DT_F32, (uint32_t)len);
    dvk_vcadd(k, tmp, r, DV_DT_F32, 1, 1, 1, 8, 0);
    dvk_mask_all(k);
    dvk_pipe_barrier(k, DV_PIPE_V);
    dvk_vbrcb(k, out, tmp, DV_DT_F32, 1, 1, 8);
}

/* Over e fp32 elements: what 0 is dst = src * a (vmuls), 1 is dst += src * a (vaxpy). */
static void bt_scale_rep(dv_k_t *k, int what, uint64_t dst, uint64_t src, double a, uint64_t r, uint64_t rep)
{
    if (what == 0)
        dvk_vmuls(k, dst + r * SD_REP, src + r * SD_REP, DV_DT_F32, a, (int64_t)rep, 1, 1, 8, 8);
    else
        dvk_vaxpy(k, dst + r * SD_REP, src + r * SD_REP, DV_DT_F32, a, (int64_t)rep, 1, 1, 8, 8);
}

static void bt_scale(dv_k_t *k, int what, uint64_t dst, uint64_t src, double a, uint64_t e)
{
    const uint64_t rep_max = dv_ops_field_max(DV_FORM_VBIN, DV_FLD(VBIN, repeat));
    const uint64_t full = e / SD_LANES, rem = e % SD_LANES;
    for (uint64_t r = 0, rep; r < full; r += rep) {
        rep = dv_min_u64(rep_max, full - r);
        bt_scale_rep(k, what, dst, src, a, r, rep);
    }
    if (rem) {
        dvk_mask_first(k, DV_DT_F32, (uint32_t)rem);
        bt_scale_rep(k, what, dst, src, a, full, 1);
        dvk_mask_all(k);
    }
}

/* A one-block (8 lane) fp32 step. */
#define BT_BLOCK(call) do { dvk_mask_first(k, DV_DT_F32, 8); call; dvk_mask_all(k); } while (0)

static void bt_kernel(dv_k_t *k, const void *params)
{
    const bt_tiling_t *t = params;
    const dv_dtype_t dt = (dv_dtype_t)t->dt;
    const unsigned size = dv_dtype_size(dt);
    const uint64_t nb = dvk_block_num(k), b = dvk_block_idx(k);
    const uint64_t c0 = t->C * b / nb, c1 = t->C * (b + 1) / nb, cb = c1 - c0;
    if (cb == 0)
        return;
    const uint64_t P = sd_pitch(t->S, size), M = t->N * t->S, row = t->S * size;
    const uint64_t nburst_max = dv_ops_field_max(DV_FORM_DMAPADIN, DV_FLD(DMAPADIN, nburst));
    const double inv_m = 1.0 / (double)M, unbias = M > 1 ? (double)M / (double)(M - 1) : 1.0;
    dv_que_t inq, outq, parq, statq, runq;
    dvk_que_init(k, &inq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 1, t->N * P * size);
    dvk_que_init(k, &outq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 1, t->N * P * size);
    dvk_que_init(k, &parq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 1, 2 * dv_round_up(cb, 8) * 4);
    dvk_que_init(k, &runq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 1, 2 * cb * SD_BLK);
    dvk_que_init(k, &statq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 1, 4 * cb * SD_BLK);
    const uint64_t w32 = size == 4 ? 0 : dvk_alloc(k, DV_SPACE_UB, t->N * P * 4);
    const uint64_t sq = dvk_alloc(k, DV_SPACE_UB, t->N * P * 4);
    const uint64_t red = dvk_alloc(k, DV_SPACE_UB, dv_ceil_div(t->N, 2) * P * 4);
    const uint64_t tmp = dvk_alloc(k, DV_SPACE_UB, SD_REP), mean = dvk_alloc(k, DV_SPACE_UB, SD_REP);
    const uint64_t var = dvk_alloc(k, DV_SPACE_UB, SD_REP), sc = dvk_alloc(k, DV_SPACE_UB, SD_REP);
    const uint64_t gb = dvk_alloc(k, DV_SPACE_UB, dv_round_up(cb, 8) * SD_BLK);
    const uint64_t bb = dvk_alloc(k, DV_SPACE_UB, dv_round_up(cb, 8) * SD_BLK);
    dvk_set_mov_pad_val(k, 0);
    /* gamma and beta of the block's channels, spread to one block per channel */
    const uint64_t par = dvk_que_alloc(k, &parq), pv = dv_round_up(cb, 8) * 4;
    dvk_copy_gm_to_ubuf_align(k, par, dvk_gm(k, BA_GAMMA, c0 * 4), 1, (int64_t)(cb * 4), 0, 0, 0,
                              (int64_t)(sd_pitch(cb, 4) - cb), 4);
    dvk_copy_gm_to_ubuf_align(k, par + pv, dvk_gm(k, BA_BETA, c0 * 4), 1, (int64_t)(cb * 4), 0, 0, 0,
                              (int64_t)(sd_pitch(cb, 4) - cb), 4);
    dvk_que_enque(k, &parq, par);
    const uint64_t pd = dvk_que_deque(k, &parq);
    dvk_vbrcb(k, gb, pd, DV_DT_F32, (int64_t)dv_ceil_div(cb, 8), 1, 8);
    dvk_vbrcb(k, bb, pd + pv, DV_DT_F32, (int64_t)dv_ceil_div(cb, 8), 1, 8);
    dvk_que_free(k, &parq, pd);
    /* the statistics out: saveMean, saveInvstd, runningMean, runningVar, a block per channel */
    const uint64_t st = dvk_que_alloc(k, &statq), sm = st, si = st + cb * SD_BLK, rm = st + 2 * cb * SD_BLK,
                   rv = st + 3 * cb * SD_BLK;
    for (uint64_t c = c0; c < c1; c++) {
        const uint64_t j = c - c0, gm = c * row;
        const uint64_t bx = dvk_que_alloc(k, &inq);
        for (uint64_t r = 0; r < t->N; r += nburst_max) {
            const uint64_t rows = dv_min_u64(nburst_max, t->N - r);
            dvk_copy_gm_to_ubuf_align(k, bx + r * P * size, dvk_gm(k, BA_X, gm + r * t->C * row), (int64_t)rows,
                                      (int64_t)row, (int64_t)((t->C - 1) * row), 0, 0, (int64_t)(P - t->S),
                                      (int64_t)size);
        }
        dvk_que_enque(k, &inq, bx);
        const uint64_t x = dvk_que_deque(k, &inq), y = dvk_que_alloc(k, &outq), w = size == 4 ? x : w32;
        const uint64_t e = t->N * P, wy = size == 4 ? y : w32;
        if (size != 4) {
            sd_flat(k, 1, w32, x, e);
            dvk_pipe_barrier(k, DV_PIPE_V);
        }
        /* mean */
        sd_reduce(k, dvk_vadd, red, w, t->N, P);
        dvk_pipe_barrier(k, DV_PIPE_V);
        bt_lane_sum(k, mean, tmp, red, t->S);
        dvk_pipe_barrier(k, DV_PIPE_V);
        BT_BLOCK(dvk_vmuls(k, mean, mean, DV_DT_F32, inv_m, 1, 1, 1, 8, 8));
        dvk_pipe_barrier(k, DV_PIPE_V);
        /* d = x - mean, its square, the variance */
        bt_bcast(k, dvk_vsub, w, w, mean, e);
        dvk_pipe_barrier(k, DV_PIPE_V);
        sd_bin(k, dvk_vmul, sq, w, w, e);
        dvk_pipe_barrier(k, DV_PIPE_V);
        sd_reduce(k, dvk_vadd, red, sq, t->N, P);
        dvk_pipe_barrier(k, DV_PIPE_V);
        bt_lane_sum(k, var, tmp, red, t->S);
        dvk_pipe_barrier(k, DV_PIPE_V);
        BT_BLOCK(dvk_vmuls(k, var, var, DV_DT_F32, inv_m, 1, 1, 1, 8, 8));
        dvk_pipe_barrier(k, DV_PIPE_V);
        /* invstd, scale, the statistics kept */
        BT_BLOCK(dvk_vadds(k, sc, var, DV_DT_F32, t->eps, 1, 1, 1, 8, 8));
        BT_BLOCK(dvk_vadds(k, sm + j * SD_BLK, mean, DV_DT_F32, 0.0, 1, 1, 1, 8, 8));
        BT_BLOCK(dvk_vmuls(k, rv + j * SD_BLK, var, DV_DT_F32, unbias, 1, 1, 1, 8, 8));
        dvk_pipe_barrier(k, DV_PIPE_V);
        BT_BLOCK(dvk_vrsqrt(k, si + j * SD_BLK, sc, DV_DT_F32, 1, 1, 1, 8, 8));
        dvk_pipe_barrier(k, DV_PIPE_V);
        BT_BLOCK(dvk_vmul(k, sc, si + j * SD_BLK, gb + j * SD_BLK, DV_DT_F32, 1, 1, 1, 1, 8, 8, 8));
        dvk_pipe_barrier(k, DV_PIPE_V);
        /* y = d * scale + beta */
        bt_bcast(k, dvk_vmul, wy, w, sc, e);
        dvk_pipe_barrier(k, DV_PIPE_V);
        bt_bcast(k, dvk_vadd, wy, wy, bb + j * SD_BLK, e);
        if (size != 4) {
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_flat(k, 2, y, w32, e);
        }
        dvk_que_free(k, &inq, x);
        dvk_que_enque(k, &outq, y);
        const uint64_t by = dvk_que_deque(k, &outq);
        for (uint64_t r = 0; r < t->N; r += nburst_max) {
            const uint64_t rows = dv_min_u64(nburst_max, t->N - r);
            dvk_copy_ubuf_to_gm_align(k, dvk_gm(k, BA_Y, gm + r * t->C * row), by + r * P * size, (int64_t)rows,
                                      (int64_t)row, 0, (int64_t)((t->C - 1) * row));
        }
        dvk_que_free(k, &outq, by);
    }
    /* the running statistics: read (a 4-byte burst per channel, a block each), updated */
    const uint64_t run = dvk_que_alloc(k, &runq);
    dvk_copy_gm_to_ubuf_align(k, run, dvk_gm(k, BA_RMEAN, c0 * 4), (int64_t)cb, 4, 0, 0, 0, 7, 4);
    dvk_copy_gm_to_ubuf_align(k, run + cb * SD_BLK, dvk_gm(k, BA_RVAR, c0 * 4), (int64_t)cb, 4, 0, 0, 0, 7, 4);
    dvk_que_enque(k, &runq, run);
    const uint64_t rd = dvk_que_deque(k, &runq);
    /* rm = mean * momentum + running * (1 - momentum); rv = unbiased var * momentum + ... */
    dvk_pipe_barrier(k, DV_PIPE_V);
    sd_bin(k, dvk_vmax, rm, sm, sm, cb * 8); /* a copy of the means */
    dvk_pipe_barrier(k, DV_PIPE_V);
    for (int pass = 0; pass < 2; pass++) {
        const uint64_t dst = pass ? rv : rm, src = rd + (pass ? cb * SD_BLK : 0);
        bt_scale(k, 0, dst, dst, t->momentum, cb * 8);
        dvk_pipe_barrier(k, DV_PIPE_V);
        bt_scale(k, 1, dst, src, 1.0 - t->momentum, cb * 8);
    }
    dvk_pipe_barrier(k, DV_PIPE_V);
    dvk_que_free(k, &runq, rd);
    dvk_que_enque(k, &statq, st);
    const uint64_t so = dvk_que_deque(k, &statq);
    static const uint32_t arg_of[4] = {BA_SMEAN, BA_SINVSTD, BA_RMEAN, BA_RVAR};
    for (int i = 0; i < 4; i++)
        dvk_copy_ubuf_to_gm_align(k, dvk_gm(k, arg_of[i], c0 * 4), so + (uint64_t)i * cb * SD_BLK, (int64_t)cb, 4, 0,
                                  0);
    dvk_que_free(k, &statq, so);
}

static int bt_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                   dv_error_t *err)
{
    const dv_shape_t *sh = &v->v[BP_SHAPE].shape;
    const dv_dtype_t dt = v->v[BP_DTYPE].dt;
    const unsigned size = dv_dtype_size(dt);
    if (sh->ndims < 2 || sh->ndims > 5)
        return dv_ops_param_error(err, "shape", "batchnorm_train takes N x C [x up to 3 spatial dims] (2 to 5 "
                                  "dimensions), not %d", sh->ndims);
    if (!cfg->chip_dma_pad)
        return dv_ops_param_error(err, "shape", "batchnorm_train copies channel runs with copy_gm_to_ubuf_align, and "
                                  "this profile has chip.dma_pad off");
    bt_tiling_t t = {.N = sh->d[0], .C = sh->d[1], .S = 1, .eps = v->v[BP_EPS].f, .momentum = v->v[BP_MOMENTUM].f,
                     .dt = (uint32_t)dt};
    for (int i = 2; i < sh->ndims; i++)
        t.S *= sh->d[i];
    const uint64_t elems = dv_shape_elems(sh);
    const int hbm_rc = dv_ops_check_hbm(cfg, elems, size, err);
    if (hbm_rc != DV_OK)
        return hbm_rc;
    const uint64_t P = sd_pitch(t.S, size);
    if (P > SD_MAX_PITCH || t.S * size > dv_ops_field_max(DV_FORM_DMAPADIN, DV_FLD(DMAPADIN, len)))
        return dv_ops_param_error(err, "shape", "a channel's run of %llu elements is longer than batchnorm_train's "
                                  "row (at most %d elements)", (unsigned long long)t.S, SD_MAX_PITCH);
    const uint64_t cores = v->v[BP_CORES].i ? (uint64_t)v->v[BP_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    t.blocks = (uint32_t)dv_max_u64(1, dv_min_u64(cores, t.C));
    const uint64_t cb = dv_ceil_div(t.C, t.blocks), need = bt_ub_bytes(t.N, P, size, cb, cfg->ub_align_bytes);
    if (need > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "shape", "a channel of %llu x %llu elements and its fp32 work need %llu bytes "
                                  "of UB, core.ub_size_bytes is %llu (batchnorm_train holds one channel at a time)",
                                  (unsigned long long)t.N, (unsigned long long)t.S, (unsigned long long)need,
                                  (unsigned long long)cfg->ub_size_bytes);
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = t.blocks;
    plan->info.subs = 1;
    int rc;
    if ((rc = dv_ops_add_arg(plan, "x", dt, elems, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "gamma", DV_DT_F32, t.C, DV_ARG_IN, 0.5, 1.5)) ||
        (rc = dv_ops_add_arg(plan, "beta", DV_DT_F32, t.C, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "running_mean", DV_DT_F32, t.C, DV_ARG_INOUT, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "running_var", DV_DT_F32, t.C, DV_ARG_INOUT, 0.5, 1.5)) ||
        (rc = dv_ops_add_arg(plan, "y", dt, elems, DV_ARG_OUT, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "save_mean", DV_DT_F32, t.C, DV_ARG_OUT, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "save_invstd", DV_DT_F32, t.C, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    plan->own_args = 1u << BA_GAMMA | 1u << BA_BETA | 1u << BA_RMEAN | 1u << BA_RVAR;
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 7 * elems; /* sum, sub, square, sum, mul, add (and the cast) */
    plan->bytes = 2 * elems * size + 8 * t.C * 4;
    plan->tol_scale = 1.0;
    return DV_OK;
}

static int bt_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    bt_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t dt = (dv_dtype_t)t.dt;
    const uint64_t M = t.N * t.S;
    for (uint64_t c = 0; c < t.C; c++) {
        double s = 0, v = 0;
        for (uint64_t n = 0; n < t.N; n++)
            for (uint64_t i = 0; i < t.S; i++)
                s += dv_ops_load(in[BA_X], dt, (n * t.C + c) * t.S + i);
        const double mean = s / (double)M;
        for (uint64_t n = 0; n < t.N; n++)
            for (uint64_t i = 0; i < t.S; i++) {
                const double d = dv_ops_load(in[BA_X], dt, (n * t.C + c) * t.S + i) - mean;
                v += d * d;
            }
        const double var = v / (double)M, invstd = 1.0 / sqrt(var + t.eps);
        const double g = dv_ops_load(in[BA_GAMMA], DV_DT_F32, c), b = dv_ops_load(in[BA_BETA], DV_DT_F32, c);
        for (uint64_t n = 0; n < t.N; n++)
            for (uint64_t i = 0; i < t.S; i++) {
                const uint64_t at = (n * t.C + c) * t.S + i;
                dv_ops_store(expect[BA_Y], dt, at, (dv_ops_load(in[BA_X], dt, at) - mean) * invstd * g + b);
            }
        dv_ops_store(expect[BA_SMEAN], DV_DT_F32, c, mean);
        dv_ops_store(expect[BA_SINVSTD], DV_DT_F32, c, invstd);
        const double unbiased = M > 1 ? var * (double)M / (double)(M - 1) : var;
        dv_ops_store(expect[BA_RMEAN], DV_DT_F32, c,
                     (1 - t.momentum) * dv_ops_load(in[BA_RMEAN], DV_DT_F32, c) + t.momentum * mean);
        dv_ops_store(expect[BA_RVAR], DV_DT_F32, c,
                     (1 - t.momentum) * dv_ops_load(in[BA_RVAR], DV_DT_F32, c) + t.momentum * unbiased);
    }
    return DV_OK;
}

const dv_opdesc_t dv_op_batchnorm_train = {
    "batchnorm_train", "training y = (x - mean) / sqrt(var + eps) * gamma + beta with the batch statistics of each "
    "channel of N x C x ..., the running statistics updated (fp32 arithmetic)",
    bt_params, BP_COUNT, bt_plan, bt_kernel, bt_reference, NULL, NULL, NULL,
};

/* ================================================================ reductions (reduce_*) */

/* reduce_sum, reduce_mean, reduce_max, reduce_min, reduce_prod, reduce_var (with --correction and
 * --sqrt for the standard deviation) and reduce_logsumexp over the axes of --axes, at most two runs
 * of adjacent axes: x viewed as [k0, n1, k1, n2, k2] (kept, reduced, kept, reduced, kept), y =
 * [k0, k1, k2].  The column tiles of softmax_dim: the n1 x n2 rows of T columns of k2 in UB
 * (zero-padded, one DataCopyPad per row of n1), reduced pairwise across the rows into one row of T
 * results, written with one DataCopyPad burst.  In fp32 (fp16 cast up); y in x's dtype
 * or, for sum, mean and prod, --out-dtype fp32.  mean: the sum times 1/n (vmuls).  var: the mean
 * row, x - mean over the tile (the mean row applied to every row), squared, summed, times
 * 1/(n - correction); with --sqrt its square root.  logsumexp: m = max, sum(exp(x - m)), ln, + m.
 * (s20-norm2) nansum: the sum with every NaN taken as 0 (vcmp x == x, false for NaN, into a bit
 * mask; vsel x or a block of zeros, before the sum).  logsum: ln of the sum.  var_mean: var as above
 * and the mean row as a second output m (its buffer after y's in the out queue, one more burst).
 * sum_square: the sum row kept as m, then the squares (vmul) summed into y (aclnnBatchNormReduce). */
typedef enum rk { RK_SUM, RK_MEAN, RK_MAX, RK_MIN, RK_PROD, RK_VAR, RK_LSE, RK_NANSUM, RK_LOGSUM, RK_VARMEAN,
                  RK_SUMSQ, RK_KINDS } rk_t;
static const char *const rk_names[RK_KINDS] = {"reduce_sum", "reduce_mean", "reduce_max", "reduce_min",
                                               "reduce_prod", "reduce_var", "reduce_logsumexp", "reduce_nansum",
                                               "reduce_logsum", "reduce_var_mean", "reduce_sum_square"};
/* The kinds with a second output m (after y). */
#define RK_TWO(kind) ((kind) == RK_VARMEAN || (kind) == RK_SUMSQ)

enum { RP_SHAPE, RP_AXES, RP_DTYPE, RP_OUT_DTYPE, RP_CORRECTION, RP_SQRT, RP_CORES, RP_TILE_COLS, RP_COUNT };
/* reduce_var_mean's own two after them: --rstd, --eps */
enum { RP_RSTD = RP_COUNT, RP_EPS, RP_VM_COUNT };
#define RD_PARAMS                                                                                                 \
    {"shape", DV_OPT_SHAPE, "8x1024x16", 1, 1u << 30, 0, "tensor dimensions"},                                    \
    {"axes", DV_OPT_INT, "2", 1, (1u << DV_SHAPE_MAX) - 1, 0,                                                     \
     "the axes reduced, a bit each (5: axes 0 and 2); at most two runs of adjacent axes"},                        \
    {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, DT_F16 | DT_F32, "x (arithmetic in fp32)"},                             \
    {"out-dtype", DV_OPT_DTYPE, "auto", 0, 0, DT_F16 | DT_F32,                                                    \
     "y (auto: x's; fp32 for sum, mean, prod, nansum of fp16, and var_mean's, sum_square's y and m)"},                          \
    {"correction", DV_OPT_INT, "1", 0, 1u << 30, 0, "reduce_var, reduce_var_mean: the divisor is n - correction"}, \
    {"sqrt", DV_OPT_BOOL, "off", 0, 1, 0, "reduce_var, reduce_var_mean: the standard deviation"},                 \
    {"cores", DV_OPT_INT, "auto", 1, 1024, 0, "blocks (auto: the chip's vector cores)"},                          \
    {"tile-cols", DV_OPT_INT, "auto", 1, SD_MAX_PITCH, 0, "columns per tile (auto: the widest that fits UB)"}
static const dv_oparam_spec_t rd_vm_params[RP_VM_COUNT] = {
    RD_PARAMS,
    {"rstd", DV_OPT_BOOL, "off", 0, 1, 0, "y = 1 / sqrt(var + --eps) instead (aclnnBatchNormStats' invstd)"},
    {"eps", DV_OPT_FLOAT, "1e-5", 0, 1, 0, "--rstd: added to the variance (in fp32)"},
};
static const dv_oparam_spec_t rd_params[RP_COUNT] = {
    RD_PARAMS,
};

/* x viewed as [k0, n1, k1, n2, k2]: kept, reduced, kept, reduced, kept (any may be 1); y = [k0, k1,
 * k2].  A unit is (k0, k1, a tile of T columns of k2); its n = n1 x n2 rows are loaded by one DMA per
 * i1 < n1 (n2 rows k2 elements apart). */
typedef struct rd_tiling {
    uint64_t k0, n1, k1, n2, inner, n, T;
    double scale; /* mean: 1/n; var: 1/(n - correction) */
    double eps;   /* var_mean --rstd */
    uint32_t kind, dt, odt, depth, blocks, sqrt, rstd;
} rd_tiling_t;

static int rd_kind_of(const dv_opdesc_t *op)
{
    for (int i = 0; i < RK_KINDS; i++)
        if (strcmp(op->name, rk_names[i]) == 0)
            return i;
    return -1;
}

/* The bit mask of nansum's vcmp over e fp32 elements: 8 bytes per full 64-lane repeat, a run of them
 * rounded up to 32 B, then the last, partial repeat's 8 bytes at a 32 B boundary of their own. */
static uint64_t rd_mask_bytes(uint64_t e) { return (dv_round_up(e / SD_LANES, 4) + 4) * 8; }

static uint64_t rd_ub_bytes(int kind, uint64_t n, uint64_t P, unsigned size, unsigned osize, uint32_t depth,
                            uint64_t align)
{
    const uint64_t in = dv_round_up(n * P * size, align), w = size == 4 ? 0 : dv_round_up(n * P * 4, align);
    const uint64_t out = dv_round_up(P * osize, align) * (RK_TWO(kind) ? 2 : 1), row = dv_round_up(P * 4, align);
    const uint64_t nan = kind == RK_NANSUM ? dv_round_up(rd_mask_bytes(n * P), align) + dv_round_up(SD_REP, align) : 0;
    return depth * (in + out) + w + dv_round_up(dv_ceil_div(n, 2) * P * 4, align) + row + nan;
}

/* Every NaN of the e fp32 elements at w made 0: vcmp w == w (false only for NaN) into the bit mask,
 * then vsel w or the zeros block (read with repeat stride 0).  Runs of 252 repeats keep each run's
 * mask (8 bytes a repeat) at a 32 B boundary; the last repeat is masked to the e % 64 lanes and
 * keeps its mask at the next 32 B boundary (vcmp writes whole blocks there). */
static void rd_nan_zero(dv_k_t *k, uint64_t w, uint64_t mask, uint64_t zeros, uint64_t e)
{
    const uint64_t run = 252, full = e / SD_LANES, rem = e % SD_LANES, last = mask + dv_round_up(full, 4) * 8;
    for (int step = 0; step < 2; step++) {
        for (uint64_t r = 0, rep; r < full; r += rep) {
            rep = dv_min_u64(run, full - r);
            if (step == 0)
                dvk_vcmp(k, mask + r * 8, w + r * SD_REP, w + r * SD_REP, DV_DT_F32, DV_CMP_EQ, (int64_t)rep, 1, 1, 8, 8);
            else
                dvk_vsel(k, w + r * SD_REP, w + r * SD_REP, zeros, mask + r * 8, DV_DT_F32, (int64_t)rep, 1, 1, 1, 8, 8,
                         0, 1);
        }
        if (rem) {
            dvk_mask_first(k, DV_DT_F32, (uint32_t)rem);
            if (step == 0)
                dvk_vcmp(k, last, w + full * SD_REP, w + full * SD_REP, DV_DT_F32, DV_CMP_EQ, 1, 1, 1, 8, 8);
            else
                dvk_vsel(k, w + full * SD_REP, w + full * SD_REP, zeros, last, DV_DT_F32, 1, 1, 1, 1, 8, 8, 0,
                         1);
            dvk_mask_all(k);
        }
        dvk_pipe_barrier(k, DV_PIPE_V);
    }
}

/* r = 1 / sqrt(r + eps) over e fp32 elements (vadds, vrsqrt; the last repeat masked). */
static void rd_rstd(dv_k_t *k, uint64_t r, double eps, uint64_t e)
{
    const uint64_t rep_max = dv_ops_field_max(DV_FORM_VBIN, DV_FLD(VBIN, repeat));
    const uint64_t full = e / SD_LANES, rem = e % SD_LANES;
    for (int step = 0; step < 2; step++) {
        for (uint64_t i = 0, rep; i < full + (rem != 0); i += rep) {
            rep = i < full ? dv_min_u64(rep_max, full - i) : 1;
            if (i == full)
                dvk_mask_first(k, DV_DT_F32, (uint32_t)rem);
            if (step == 0)
                dvk_vadds(k, r + i * SD_REP, r + i * SD_REP, DV_DT_F32, eps, (int64_t)rep, 1, 1, 8, 8);
            else
                dvk_vrsqrt(k, r + i * SD_REP, r + i * SD_REP, DV_DT_F32, (int64_t)rep, 1, 1, 8, 8);
            if (i == full)
                dvk_mask_all(k);
        }
        if (step == 0)
            dvk_pipe_barrier(k, DV_PIPE_V);
    }
}

static void rd_kernel(dv_k_t *k, const void *params)
{
    const rd_tiling_t *t = params;
    const dv_dtype_t dt = (dv_dtype_t)t->dt, odt = (dv_dtype_t)t->odt;
    const unsigned size = dv_dtype_size(dt), osize = dv_dtype_size(odt);
    const uint64_t ctiles = dv_ceil_div(t->inner, t->T), units = t->k0 * t->k1 * ctiles;
    const uint64_t nb = dvk_block_num(k), b = dvk_block_idx(k);
    const uint64_t u0 = units * b / nb, u1 = units * (b + 1) / nb;
    if (u0 == u1)
        return;
    const uint64_t P = sd_pitch(t->T, size), nburst_max = dv_ops_field_max(DV_FORM_DMAPADIN, DV_FLD(DMAPADIN, nburst));
    dv_que_t inq, outq;
    dvk_que_init(k, &inq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, t->depth, t->n * P * size);
    /* var_mean: the mean row after y, P * osize bytes on (a 32 B multiple) */
    const uint64_t mo = RK_TWO(t->kind) ? P * osize : 0;
    dvk_que_init(k, &outq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, t->depth, P * osize + mo);
    const uint64_t w32 = size == 4 ? 0 : dvk_alloc(k, DV_SPACE_UB, t->n * P * 4);
    const uint64_t red = dvk_alloc(k, DV_SPACE_UB, dv_ceil_div(t->n, 2) * P * 4);
    const uint64_t row = dvk_alloc(k, DV_SPACE_UB, P * 4);
    const uint64_t nmask = t->kind == RK_NANSUM ? dvk_alloc(k, DV_SPACE_UB, rd_mask_bytes(t->n * P)) : 0;
    const uint64_t zeros = t->kind == RK_NANSUM ? dvk_alloc(k, DV_SPACE_UB, SD_REP) : 0;
    if (t->kind == RK_NANSUM)
        dvk_vdup(k, zeros, DV_DT_F32, 0.0, 1, 1, 8);
    dvk_set_mov_pad_val(k, 0);
    for (uint64_t u = u0; u < u1; u++) {
        const uint64_t o = u / ctiles, i0 = o / t->k1, i1k = o % t->k1, c0 = (u % ctiles) * t->T;
        const uint64_t tc = dv_min_u64(t->T, t->inner - c0), pc = sd_pitch(tc, size);
        const int64_t len = (int64_t)(tc * size), gap = (int64_t)((t->inner - tc) * size);
        const uint64_t bx = dvk_que_alloc(k, &inq);
        for (uint64_t j1 = 0; j1 < t->n1; j1++) {
            /* rows j1 * n2 .. : element (i0, j1, i1k, j2, c0) */
            const uint64_t gm = (((i0 * t->n1 + j1) * t->k1 + i1k) * t->n2 * t->inner + c0) * size;
            for (uint64_t r = 0; r < t->n2; r += nburst_max) {
                const uint64_t rows = dv_min_u64(nburst_max, t->n2 - r), at = (j1 * t->n2 + r) * pc * size;
                dvk_copy_gm_to_ubuf_align(k, bx + at, dvk_gm(k, 0, gm + r * t->inner * size), (int64_t)rows, len, gap, 0,
                                          0, (int64_t)(pc - tc), (int64_t)size);
            }
        }
        dvk_que_enque(k, &inq, bx);
        const uint64_t x = dvk_que_deque(k, &inq), y = dvk_que_alloc(k, &outq), w = size == 4 ? x : w32;
        const uint64_t e = t->n * pc;
        if (size != 4) {
            sd_flat(k, 1, w32, x, e);
            dvk_pipe_barrier(k, DV_PIPE_V);
        }
        switch ((rk_t)t->kind) {
        case RK_SUM:
        case RK_MEAN:
            sd_reduce(k, dvk_vadd, red, w, t->n, pc);
            if (t->kind == RK_MEAN) {
                dvk_pipe_barrier(k, DV_PIPE_V);
                bt_scale(k, 0, red, red, t->scale, pc);
            }
            break;
        case RK_MAX:
            sd_reduce(k, dvk_vmax, red, w, t->n, pc);
            break;
        case RK_MIN:
            sd_reduce(k, dvk_vmin, red, w, t->n, pc);
            break;
        case RK_PROD:
            sd_reduce(k, dvk_vmul, red, w, t->n, pc);
            break;
        case RK_NANSUM:
            rd_nan_zero(k, w, nmask, zeros, e);
            sd_reduce(k, dvk_vadd, red, w, t->n, pc);
            break;
        case RK_SUMSQ: /* m = the sum (kept in row), y = the sum of the squares */
            sd_reduce(k, dvk_vadd, red, w, t->n, pc);
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_bin(k, dvk_vmax, row, red, red, pc);
            sd_bin(k, dvk_vmul, w, w, w, e);
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_reduce(k, dvk_vadd, red, w, t->n, pc);
            break;
        case RK_LOGSUM:
            sd_reduce(k, dvk_vadd, red, w, t->n, pc);
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_flat(k, 3, red, red, pc);
            break;
        case RK_VAR:
        case RK_VARMEAN:
            sd_reduce(k, dvk_vadd, red, w, t->n, pc);
            dvk_pipe_barrier(k, DV_PIPE_V);
            bt_scale(k, 0, row, red, 1.0 / (double)t->n, pc); /* the mean row */
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_rows_op(k, dvk_vsub, w, w, row, t->n, pc);
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_bin(k, dvk_vmul, w, w, w, e);
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_reduce(k, dvk_vadd, red, w, t->n, pc);
            dvk_pipe_barrier(k, DV_PIPE_V);
            bt_scale(k, 0, red, red, t->scale, pc);
            if (t->sqrt) {
                dvk_pipe_barrier(k, DV_PIPE_V);
                sd_flat(k, 4, red, red, pc);
            }
            if (t->rstd) { /* 1 / sqrt(var + eps) */
                dvk_pipe_barrier(k, DV_PIPE_V);
                rd_rstd(k, red, t->eps, pc);
            }
            break;
        case RK_LSE:
            sd_reduce(k, dvk_vmax, red, w, t->n, pc);
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_bin(k, dvk_vmax, row, red, red, pc); /* the max row kept */
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_rows_op(k, dvk_vsub, w, w, row, t->n, pc);
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_flat(k, 0, w, w, e);
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_reduce(k, dvk_vadd, red, w, t->n, pc);
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_flat(k, 3, red, red, pc);
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_bin(k, dvk_vadd, red, red, row, pc);
            break;
        default:
            break;
        }
        dvk_pipe_barrier(k, DV_PIPE_V);
        if (osize == 4)
            sd_bin(k, dvk_vmax, y, red, red, pc); /* the result row into the out buffer */
        else
            sd_flat(k, 2, y, red, pc);
        if (mo) { /* var_mean: the mean row too */
            if (osize == 4)
                sd_bin(k, dvk_vmax, y + mo, row, row, pc);
            else
                sd_flat(k, 2, y + mo, row, pc);
        }
        dvk_que_free(k, &inq, x);
        dvk_que_enque(k, &outq, y);
        const uint64_t by = dvk_que_deque(k, &outq);
        dvk_copy_ubuf_to_gm_align(k, dvk_gm(k, 1, (o * t->inner + c0) * osize), by, 1, (int64_t)(tc * osize), 0, 0);
        if (mo)
            dvk_copy_ubuf_to_gm_align(k, dvk_gm(k, 2, (o * t->inner + c0) * osize), by + mo, 1, (int64_t)(tc * osize), 0,
                                      0);
        /* y is [k0, k1, k2]: o = i0 * k1 + i1k */
        dvk_que_free(k, &outq, by);
    }
}

static int rd_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                   dv_error_t *err)
{
    const int kind = rd_kind_of(op);
    if (kind < 0)
        return dv_error_set(err, DV_ERR_UNKNOWN, NULL, 0, 0, "%s: not a reduction", op->name);
    const dv_shape_t *sh = &v->v[RP_SHAPE].shape;
    const unsigned axes = (unsigned)v->v[RP_AXES].i;
    const dv_dtype_t dt = v->v[RP_DTYPE].dt;
    dv_dtype_t odt = v->v[RP_OUT_DTYPE].dt;
    if (odt == DV_DT_AUTO)
        odt = dt;
    if (odt != dt && kind != RK_SUM && kind != RK_MEAN && kind != RK_PROD && kind != RK_NANSUM && !RK_TWO(kind))
        return dv_ops_param_error(err, "out-dtype", "%s gives y in x's dtype (%s)", op->name, dv_ops_dtype_name(dt));
    if (odt != dt && odt != DV_DT_F32)
        return dv_ops_param_error(err, "out-dtype", "y is x's dtype or fp32, not %s", dv_ops_dtype_name(odt));
    if (axes >> sh->ndims)
        return dv_ops_param_error(err, "axes", "0x%x names an axis past the %d of the shape", axes, sh->ndims);
    if (!cfg->chip_dma_pad)
        return dv_ops_param_error(err, "axes", "%s copies column tiles with copy_gm_to_ubuf_align, and this profile "
                                  "has chip.dma_pad off", op->name);
    const unsigned size = dv_dtype_size(dt), osize = dv_dtype_size(odt);
    rd_tiling_t t = {.k0 = 1, .n1 = 1, .k1 = 1, .n2 = 1, .inner = 1, .kind = (uint32_t)kind, .dt = (uint32_t)dt,
                     .odt = (uint32_t)odt, .sqrt = (kind == RK_VAR || kind == RK_VARMEAN) && v->v[RP_SQRT].i,
                     .rstd = kind == RK_VARMEAN && v->v[RP_RSTD].i, .eps = kind == RK_VARMEAN ? v->v[RP_EPS].f : 0};
    if (t.sqrt && t.rstd)
        return dv_ops_param_error(err, "rstd", "is 1 / sqrt(var + eps): it does not go with --sqrt");
    /* the axes in runs: kept, reduced, kept, reduced, kept */
    uint64_t *group[5] = {&t.k0, &t.n1, &t.k1, &t.n2, &t.inner};
    int g = 0;
    for (int i = 0; i < sh->ndims; i++) {
        const bool red = axes >> i & 1;
        while (g < 5 && (g % 2 == 1) != red)
            g++;
        if (g == 5)
            return dv_ops_param_error(err, "axes", "0x%x reduces more than two runs of adjacent axes", axes);
        *group[g] *= sh->d[i];
    }
    t.n = t.n1 * t.n2;
    if (kind == RK_MEAN)
        t.scale = 1.0 / (double)t.n;
    if (kind == RK_VAR || kind == RK_VARMEAN) {
        const uint64_t c = (uint64_t)v->v[RP_CORRECTION].i;
        if (c >= t.n)
            return dv_ops_param_error(err, "correction", "%llu leaves no divisor: the %llu reduced elements minus it "
                                      "must be at least 1", (unsigned long long)c, (unsigned long long)t.n);
        t.scale = 1.0 / (double)(t.n - c);
    }
    const uint64_t elems = dv_shape_elems(sh);
    const int hbm_rc = dv_ops_check_hbm(cfg, elems, size, err);
    if (hbm_rc != DV_OK)
        return hbm_rc;
    const uint64_t ub = cfg->ub_size_bytes, align = cfg->ub_align_bytes;
    if (v->v[RP_TILE_COLS].i) {
        t.T = dv_min_u64((uint64_t)v->v[RP_TILE_COLS].i, t.inner);
        if (rd_ub_bytes(kind, t.n, sd_pitch(t.T, size), size, osize, 1, align) > ub)
            return dv_ops_param_error(err, "tile-cols", "%llu columns x %llu rows need %llu bytes of UB, "
                                      "core.ub_size_bytes is %llu", (unsigned long long)t.T, (unsigned long long)t.n,
                                      (unsigned long long)rd_ub_bytes(kind, t.n, sd_pitch(t.T, size), size, osize, 1, align),
                                      (unsigned long long)ub);
    } else {
        uint64_t c = dv_min_u64(t.inner, SD_MAX_PITCH);
        while (c > 1 && rd_ub_bytes(kind, t.n, sd_pitch(c, size), size, osize, 1, align) > ub)
            c /= 2;
        t.T = c;
        if (rd_ub_bytes(kind, t.n, sd_pitch(c, size), size, osize, 1, align) > ub)
            return dv_ops_param_error(err, "shape", "%llu reduced elements per result: one column of them (%llu "
                                      "bytes with the work buffers) does not fit in UB (core.ub_size_bytes %llu); %s "
                                      "holds a whole column tile", (unsigned long long)t.n,
                                      (unsigned long long)rd_ub_bytes(kind, t.n, sd_pitch(1, size), size, osize, 1, align),
                                      (unsigned long long)ub, op->name);
    }
    t.depth = rd_ub_bytes(kind, t.n, sd_pitch(t.T, size), size, osize, 2, align) <= ub ? 2 : 1;
    const uint64_t units = t.k0 * t.k1 * dv_ceil_div(t.inner, t.T);
    const uint64_t cores = v->v[RP_CORES].i ? (uint64_t)v->v[RP_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    t.blocks = (uint32_t)dv_max_u64(1, dv_min_u64(cores, units));
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = t.blocks;
    plan->info.subs = 1;
    /* prod of many elements: inputs near 1 keep it finite; logsumexp and var take any */
    /* logsum: positive inputs keep the sum's logarithm defined */
    const double lo = kind == RK_PROD ? 0.9 : kind == RK_LOGSUM ? 0.1 : 0, hi = kind == RK_PROD ? 1.1 : kind == RK_LOGSUM ? 1 : 0;
    int rc;
    if ((rc = dv_ops_add_arg(plan, "x", dt, elems, DV_ARG_IN, lo, hi)) ||
        (rc = dv_ops_add_arg(plan, "y", odt, t.k0 * t.k1 * t.inner, DV_ARG_OUT, 0, 0)) ||
        (RK_TWO(kind) && (rc = dv_ops_add_arg(plan, "m", odt, t.k0 * t.k1 * t.inner, DV_ARG_OUT, 0, 0))))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = (kind == RK_VAR || kind == RK_VARMEAN || kind == RK_LSE ? 4 : kind == RK_SUMSQ ? 3 : 1) * elems;
    plan->bytes = elems * size + (RK_TWO(kind) ? 2 : 1) * t.k0 * t.k1 * t.inner * osize;
    /* prod: every product rounds in fp32, n - 1 of them */
    plan->tol_scale = kind == RK_PROD ? (double)dv_max_u64(1, t.n / 8) : 1.0;
    return DV_OK;
}

static int rd_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    rd_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t dt = (dv_dtype_t)t.dt, odt = (dv_dtype_t)t.odt;
    for (uint64_t o = 0; o < t.k0 * t.k1; o++)
        for (uint64_t c = 0; c < t.inner; c++) {
            const uint64_t i0 = o / t.k1, i1 = o % t.k1;
            /* row r = j1 * n2 + j2 of the unit: element (i0, j1, i1, j2, c) */
#define RD_AT(r) ((((i0 * t.n1 + (r) / t.n2) * t.k1 + i1) * t.n2 + (r) % t.n2) * t.inner + c)
            double a = t.kind == RK_PROD ? 1 : t.kind == RK_MAX || t.kind == RK_LSE ? -INFINITY
                                               : t.kind == RK_MIN                  ? INFINITY
                                                                                   : 0;
            for (uint64_t r = 0; r < t.n; r++) {
                double x = dv_ops_load(in[0], dt, RD_AT(r));
                if (t.kind == RK_NANSUM && isnan(x))
                    x = 0;
                a = t.kind == RK_PROD ? a * x : t.kind == RK_MAX || t.kind == RK_LSE ? fmax(a, x)
                    : t.kind == RK_MIN                                             ? fmin(a, x)
                                                                                   : a + x;
            }
            if (t.kind == RK_MEAN)
                a /= (double)t.n;
            if (t.kind == RK_LOGSUM)
                a = log(a);
            if (t.kind == RK_SUMSQ) {
                double q = 0;
                for (uint64_t r = 0; r < t.n; r++) {
                    const double x = dv_ops_load(in[0], dt, RD_AT(r));
                    q += x * x;
                }
                dv_ops_store(expect[2], odt, o * t.inner + c, a);
                a = q;
            }
            const bool var = t.kind == RK_VAR || t.kind == RK_VARMEAN;
            if (var || t.kind == RK_LSE) {
                const double m = var ? a / (double)t.n : a;
                double s = 0;
                for (uint64_t r = 0; r < t.n; r++) {
                    const double d = dv_ops_load(in[0], dt, RD_AT(r)) - m;
                    s += var ? d * d : exp(d);
                }
                a = var ? s * t.scale : m + log(s);
                if (var && t.sqrt)
                    a = sqrt(a);
                if (t.rstd)
                    a = 1 / sqrt(a + t.eps);
                if (t.kind == RK_VARMEAN)
                    dv_ops_store(expect[2], odt, o * t.inner + c, m);
            }
            dv_ops_store(expect[1], odt, o * t.inner + c, a);
        }
#undef RD_AT
    return DV_OK;
}

/* The descriptor's name is the identifier (a constant initializer: clang takes no array element),
 * rk_names[kind]'s spelling. */
#define RD_OP_P(kind, ident, params, count, what)                                                                 \
    const dv_opdesc_t dv_op_##ident = {#ident, what, params, count, rd_plan, rd_kernel, rd_reference, NULL, NULL, \
                                       NULL}
#define RD_OP(kind, ident, what) RD_OP_P(kind, ident, rd_params, RP_COUNT, what)
RD_OP(RK_SUM, reduce_sum, "y = the sum over the --axes (fp32 arithmetic)");
RD_OP(RK_MEAN, reduce_mean, "y = the mean over the --axes (fp32 arithmetic)");
RD_OP(RK_MAX, reduce_max, "y = the largest element over the --axes");
RD_OP(RK_MIN, reduce_min, "y = the smallest element over the --axes");
RD_OP(RK_PROD, reduce_prod, "y = the product over the --axes (fp32 arithmetic)");
RD_OP(RK_VAR, reduce_var, "y = sum((x - mean)^2) / (n - --correction) over the --axes, its square root with --sqrt "
      "(fp32)");
RD_OP(RK_LSE, reduce_logsumexp, "y = max + ln(sum(exp(x - max))) over the --axes (fp32 arithmetic)");
/* (s20-norm2) */
RD_OP(RK_NANSUM, reduce_nansum, "y = the sum over the --axes with every NaN taken as 0 (fp32 arithmetic)");
RD_OP(RK_LOGSUM, reduce_logsum, "y = ln(the sum over the --axes) (fp32 arithmetic)");
RD_OP(RK_SUMSQ, reduce_sum_square, "y = the sum of the squares, m = the sum, over the --axes (fp32 arithmetic)");
RD_OP_P(RK_VARMEAN, reduce_var_mean, rd_vm_params, RP_VM_COUNT,
        "y = the variance as reduce_var (--correction, --sqrt; --rstd: 1 / sqrt(var + --eps)), m = the mean, over "
        "the --axes (fp32)");

/* ================================================================ cumsum */

/* cumsum along axis --dim: x viewed as [outer, n, inner], y[o, r, c] = the sum of x[o, 0..r, c]
 * (--exclusive: of 0..r-1; --reverse: of r..n-1, or r+1..n-1).  The column tiles of softmax_dim; the
 * running sum goes row by row, each row of y the previous row of y plus a row of x (n - 1 dependent
 * vadds of the tile's width), in fp32, then back to the dtype and out with one DataCopyPad burst
 * per row. */
enum { CP_SHAPE, CP_DIM, CP_DTYPE, CP_EXCLUSIVE, CP_REVERSE, CP_CORES, CP_TILE_COLS, CP_COUNT };
static const dv_oparam_spec_t cs_params[CP_COUNT] = {
    {"shape", DV_OPT_SHAPE, "8x1024x16", 1, 1u << 30, 0, "tensor dimensions"},
    {"dim", DV_OPT_INT, "1", 0, DV_SHAPE_MAX - 1, 0, "the axis summed along"},
    {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, DT_F16 | DT_F32, "element type (arithmetic in fp32)"},
    {"exclusive", DV_OPT_BOOL, "off", 0, 1, 0, "each sum leaves out its own element"},
    {"reverse", DV_OPT_BOOL, "off", 0, 1, 0, "sum from the end of the axis"},
    {"cores", DV_OPT_INT, "auto", 1, 1024, 0, "blocks (auto: the chip's vector cores)"},
    {"tile-cols", DV_OPT_INT, "auto", 1, SD_MAX_PITCH, 0, "columns per tile (auto: the widest that fits UB)"},
};

typedef struct cs_tiling {
    uint64_t outer, n, inner, T;
    uint32_t dt, blocks, exclusive, reverse;
} cs_tiling_t;

/* UB of a tile: x and y in the dtype, the fp32 x and y for fp16. */
static uint64_t cs_ub_bytes(uint64_t n, uint64_t P, unsigned size, uint64_t align)
{
    const uint64_t io = dv_round_up(n * P * size, align), f = dv_round_up(n * P * 4, align);
    return 2 * io + (size == 4 ? 0 : 2 * f);
}

static void cs_kernel(dv_k_t *k, const void *params)
{
    const cs_tiling_t *t = params;
    const dv_dtype_t dt = (dv_dtype_t)t->dt;
    const unsigned size = dv_dtype_size(dt);
    const uint64_t ctiles = dv_ceil_div(t->inner, t->T), units = t->outer * ctiles;
    const uint64_t nb = dvk_block_num(k), b = dvk_block_idx(k);
    const uint64_t u0 = units * b / nb, u1 = units * (b + 1) / nb;
    if (u0 == u1)
        return;
    const uint64_t P = sd_pitch(t->T, size), nburst_max = dv_ops_field_max(DV_FORM_DMAPADIN, DV_FLD(DMAPADIN, nburst));
    dv_que_t inq, outq;
    dvk_que_init(k, &inq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 1, t->n * P * size);
    dvk_que_init(k, &outq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 1, t->n * P * size);
    const uint64_t x32 = size == 4 ? 0 : dvk_alloc(k, DV_SPACE_UB, t->n * P * 4);
    const uint64_t y32 = size == 4 ? 0 : dvk_alloc(k, DV_SPACE_UB, t->n * P * 4);
    dvk_set_mov_pad_val(k, 0);
    for (uint64_t u = u0; u < u1; u++) {
        const uint64_t o = u / ctiles, c0 = (u % ctiles) * t->T, tc = dv_min_u64(t->T, t->inner - c0);
        const uint64_t pc = sd_pitch(tc, size), gm = (o * t->n * t->inner + c0) * size, row = pc * 4;
        const uint64_t bx = dvk_que_alloc(k, &inq);
        sd_rows(k, false, 0, gm, bx, t->n, t->inner, pc, tc, size, nburst_max);
        dvk_que_enque(k, &inq, bx);
        const uint64_t x = dvk_que_deque(k, &inq), y = dvk_que_alloc(k, &outq);
        const uint64_t xs = size == 4 ? x : x32, ys = size == 4 ? y : y32;
        if (size != 4) {
            sd_flat(k, 1, x32, x, t->n * pc);
            dvk_pipe_barrier(k, DV_PIPE_V);
        }
        /* row i of the walk: row r(i) of the tile, from the end with --reverse */
#define CS_ROW(i) ((t->reverse ? t->n - 1 - (i) : (i)) * row)
        if (t->exclusive)
            sd_bin(k, dvk_vsub, ys + CS_ROW(0), xs + CS_ROW(0), xs + CS_ROW(0), pc); /* zeros */
        else
            sd_bin(k, dvk_vmax, ys + CS_ROW(0), xs + CS_ROW(0), xs + CS_ROW(0), pc); /* the first row */
        for (uint64_t i = 1; i < t->n; i++) {
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_bin(k, dvk_vadd, ys + CS_ROW(i), ys + CS_ROW(i - 1), xs + CS_ROW(t->exclusive ? i - 1 : i), pc);
        }
#undef CS_ROW
        if (size != 4) {
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_flat(k, 2, y, y32, t->n * pc);
        }
        dvk_que_free(k, &inq, x);
        dvk_que_enque(k, &outq, y);
        const uint64_t by = dvk_que_deque(k, &outq);
        sd_rows(k, true, 1, gm, by, t->n, t->inner, pc, tc, size, nburst_max);
        dvk_que_free(k, &outq, by);
    }
}

static int cs_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                   dv_error_t *err)
{
    const dv_shape_t *sh = &v->v[CP_SHAPE].shape;
    const int64_t dim = v->v[CP_DIM].i;
    const dv_dtype_t dt = v->v[CP_DTYPE].dt;
    const unsigned size = dv_dtype_size(dt);
    cs_tiling_t t = {.dt = (uint32_t)dt, .exclusive = v->v[CP_EXCLUSIVE].i != 0, .reverse = v->v[CP_REVERSE].i != 0};
    int arc = sd_axis("cumsum", cfg, sh, dim, size, &t.outer, &t.n, &t.inner, err);
    if (arc != DV_OK)
        return arc;
    const uint64_t elems = dv_shape_elems(sh);
    const uint64_t ub = cfg->ub_size_bytes, align = cfg->ub_align_bytes;
    uint64_t c = v->v[CP_TILE_COLS].i ? dv_min_u64((uint64_t)v->v[CP_TILE_COLS].i, t.inner)
                                      : dv_min_u64(t.inner, SD_MAX_PITCH);
    while (!v->v[CP_TILE_COLS].i && c > 1 && cs_ub_bytes(t.n, sd_pitch(c, size), size, align) > ub)
        c /= 2;
    t.T = c;
    if (cs_ub_bytes(t.n, sd_pitch(c, size), size, align) > ub)
        return dv_ops_param_error(err, v->v[CP_TILE_COLS].i ? "tile-cols" : "shape",
                                  "%llu columns of the %llu-element axis need %llu bytes of UB, core.ub_size_bytes "
                                  "is %llu (cumsum holds a whole column tile)", (unsigned long long)c,
                                  (unsigned long long)t.n,
                                  (unsigned long long)cs_ub_bytes(t.n, sd_pitch(c, size), size, align),
                                  (unsigned long long)ub);
    const uint64_t units = t.outer * dv_ceil_div(t.inner, t.T);
    const uint64_t cores = v->v[CP_CORES].i ? (uint64_t)v->v[CP_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    t.blocks = (uint32_t)dv_max_u64(1, dv_min_u64(cores, units));
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = t.blocks;
    plan->info.subs = 1;
    int rc;
    if ((rc = dv_ops_add_arg(plan, "x", dt, elems, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "y", dt, elems, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = elems;
    plan->bytes = 2 * elems * size;
    /* each sum rounds in fp32 once per step: the error grows with the axis */
    plan->tol_scale = (double)dv_max_u64(1, t.n / 16);
    return DV_OK;
}

static int cs_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    cs_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t dt = (dv_dtype_t)t.dt;
    for (uint64_t o = 0; o < t.outer; o++)
        for (uint64_t c = 0; c < t.inner; c++) {
            double s = 0;
            for (uint64_t i = 0; i < t.n; i++) {
                const uint64_t r = t.reverse ? t.n - 1 - i : i, at = (o * t.n + r) * t.inner + c;
                const double x = dv_ops_load(in[0], dt, at);
                if (!t.exclusive)
                    s += x;
                dv_ops_store(expect[1], dt, at, s);
                if (t.exclusive)
                    s += x;
            }
        }
    return DV_OK;
}

const dv_opdesc_t dv_op_cumsum = {
    "cumsum", "y = the running sum of x along axis --dim (--exclusive, --reverse; fp32 arithmetic)",
    cs_params, CP_COUNT, cs_plan, cs_kernel, cs_reference, NULL, NULL, NULL,
};

/* ================================================================ softmax_backward (s20-norm2) */

/* softmax_backward along axis --dim, from the forward's output y and the gradient g:
 * z = y * (g - sum(g * y)) (aclnnSoftmaxBackward), or with --log z = g - exp(y) * sum(g)
 * (aclnnLogSoftmaxBackward, y the log softmax).  The column tiles of softmax_dim: per unit the n x T
 * elements of g and of y (one DataCopyPad burst per row each, zero-padded to P), in fp32 (fp16 cast
 * up): the product or exp(y) over the tile, its sum or g's over the rows (pairwise, as softmax_dim),
 * applied to every row (the row read with repeat stride 0), back to the dtype and out by rows.  A
 * last-axis dim is a tile of one column (inner 1): correct, though each row then moves one element. */
enum { SB_SHAPE, SB_DIM, SB_DTYPE, SB_LOG, SB_CORES, SB_TILE_COLS, SB_COUNT };
static const dv_oparam_spec_t sb_params[SB_COUNT] = {
    {"shape", DV_OPT_SHAPE, "8x256x16", 1, 1u << 30, 0, "tensor dimensions"},
    {"dim", DV_OPT_INT, "1", 0, DV_SHAPE_MAX - 1, 0, "the axis of the forward softmax (0 .. dims - 1)"},
    {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, DT_F16 | DT_F32, "element type (arithmetic in fp32)"},
    {"log", DV_OPT_BOOL, "off", 0, 1, 0, "the log softmax's backward: z = g - exp(y) * sum(g)"},
    {"cores", DV_OPT_INT, "auto", 1, 1024, 0, "blocks (auto: the chip's vector cores)"},
    {"tile-cols", DV_OPT_INT, "auto", 1, SD_MAX_PITCH, 0, "columns per tile (auto: the widest that fits UB)"},
};

/* UB of a tile: g, y and z in the dtype (depth each), their fp32 copies for fp16, the work tile and
 * the reduction scratch. */
static uint64_t sb_ub_bytes(uint64_t n, uint64_t P, unsigned size, uint32_t depth, uint64_t align)
{
    const uint64_t io = dv_round_up(n * P * size, align), f = dv_round_up(n * P * 4, align);
    return 3 * depth * io + (size == 4 ? 0 : 2 * f) + f + dv_round_up(dv_ceil_div(n, 2) * P * 4, align);
}

static void sb_kernel(dv_k_t *k, const void *params)
{
    const sd_tiling_t *t = params;
    const dv_dtype_t dt = (dv_dtype_t)t->dt;
    const unsigned size = dv_dtype_size(dt);
    const uint64_t ctiles = dv_ceil_div(t->inner, t->T), units = t->outer * ctiles;
    const uint64_t nb = dvk_block_num(k), b = dvk_block_idx(k);
    const uint64_t u0 = units * b / nb, u1 = units * (b + 1) / nb;
    if (u0 == u1)
        return;
    const uint64_t P = sd_pitch(t->T, size), nburst_max = dv_ops_field_max(DV_FORM_DMAPADIN, DV_FLD(DMAPADIN, nburst));
    dv_que_t gq, yq, zq;
    dvk_que_init(k, &gq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, t->depth, t->n * P * size);
    dvk_que_init(k, &yq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, t->depth, t->n * P * size);
    dvk_que_init(k, &zq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, t->depth, t->n * P * size);
    const uint64_t g32 = size == 4 ? 0 : dvk_alloc(k, DV_SPACE_UB, t->n * P * 4);
    const uint64_t y32 = size == 4 ? 0 : dvk_alloc(k, DV_SPACE_UB, t->n * P * 4);
    const uint64_t w = dvk_alloc(k, DV_SPACE_UB, t->n * P * 4);
    const uint64_t red = dvk_alloc(k, DV_SPACE_UB, dv_ceil_div(t->n, 2) * P * 4);
    dvk_set_mov_pad_val(k, 0);
    for (uint64_t u = u0; u < u1; u++) {
        const uint64_t o = u / ctiles, c0 = (u % ctiles) * t->T, tc = dv_min_u64(t->T, t->inner - c0);
        const uint64_t pc = sd_pitch(tc, size), gm = ((o * t->n) * t->inner + c0) * size, e = t->n * pc;
        const int64_t len = (int64_t)(tc * size), gap = (int64_t)((t->inner - tc) * size);
        const uint64_t bg = dvk_que_alloc(k, &gq), by = dvk_que_alloc(k, &yq);
        for (uint64_t r = 0; r < t->n; r += nburst_max) {
            const uint64_t rows = dv_min_u64(nburst_max, t->n - r);
            dvk_copy_gm_to_ubuf_align(k, bg + r * pc * size, dvk_gm(k, 0, gm + r * t->inner * size), (int64_t)rows,
                                      len, gap, 0, 0, (int64_t)(pc - tc), (int64_t)size);
            dvk_copy_gm_to_ubuf_align(k, by + r * pc * size, dvk_gm(k, 1, gm + r * t->inner * size), (int64_t)rows,
                                      len, gap, 0, 0, (int64_t)(pc - tc), (int64_t)size);
        }
        dvk_que_enque(k, &gq, bg);
        dvk_que_enque(k, &yq, by);
        const uint64_t g = dvk_que_deque(k, &gq), y = dvk_que_deque(k, &yq), z = dvk_que_alloc(k, &zq);
        const uint64_t gs = size == 4 ? g : g32, ys = size == 4 ? y : y32, zs = size == 4 ? z : w;
        if (size != 4) {
            sd_flat(k, 1, g32, g, e);
            sd_flat(k, 1, y32, y, e);
            dvk_pipe_barrier(k, DV_PIPE_V);
        }
        if (t->log) { /* g - exp(y) * sum(g) */
            sd_flat(k, 0, w, ys, e);
            sd_reduce(k, dvk_vadd, red, gs, t->n, pc);
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_rows_op(k, dvk_vmul, w, w, red, t->n, pc);
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_bin(k, dvk_vsub, zs, gs, w, e);
        } else { /* y * (g - sum(g * y)) */
            sd_bin(k, dvk_vmul, w, gs, ys, e);
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_reduce(k, dvk_vadd, red, w, t->n, pc);
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_rows_op(k, dvk_vsub, w, gs, red, t->n, pc);
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_bin(k, dvk_vmul, zs, w, ys, e);
        }
        if (size != 4) {
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_flat(k, 2, z, w, e);
        }
        dvk_que_free(k, &gq, g);
        dvk_que_free(k, &yq, y);
        dvk_que_enque(k, &zq, z);
        const uint64_t bz = dvk_que_deque(k, &zq);
        sd_rows(k, true, 2, gm, bz, t->n, t->inner, pc, tc, size, nburst_max);
        dvk_que_free(k, &zq, bz);
    }
}

static int sb_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                   dv_error_t *err)
{
    const dv_shape_t *sh = &v->v[SB_SHAPE].shape;
    const int64_t dim = v->v[SB_DIM].i;
    const dv_dtype_t dt = v->v[SB_DTYPE].dt;
    const unsigned size = dv_dtype_size(dt);
    sd_tiling_t t = {.dt = (uint32_t)dt, .log = v->v[SB_LOG].i != 0};
    int arc = sd_axis("softmax_backward", cfg, sh, dim, size, &t.outer, &t.n, &t.inner, err);
    if (arc != DV_OK)
        return arc;
    const uint64_t elems = dv_shape_elems(sh);
    const uint64_t ub = cfg->ub_size_bytes, align = cfg->ub_align_bytes;
    const bool fixed = v->v[SB_TILE_COLS].i != 0;
    uint64_t c = fixed ? dv_min_u64((uint64_t)v->v[SB_TILE_COLS].i, t.inner) : dv_min_u64(t.inner, SD_MAX_PITCH);
    while (!fixed && c > 1 && sb_ub_bytes(t.n, sd_pitch(c, size), size, 1, align) > ub)
        c /= 2;
    t.T = c;
    if (sb_ub_bytes(t.n, sd_pitch(c, size), size, 1, align) > ub)
        return dv_ops_param_error(err, fixed ? "tile-cols" : "shape",
                                  "%llu columns of the %llu-element axis need %llu bytes of UB, core.ub_size_bytes "
                                  "is %llu (softmax_backward holds a whole column tile)", (unsigned long long)c,
                                  (unsigned long long)t.n,
                                  (unsigned long long)sb_ub_bytes(t.n, sd_pitch(c, size), size, 1, align),
                                  (unsigned long long)ub);
    t.depth = sb_ub_bytes(t.n, sd_pitch(t.T, size), size, 2, align) <= ub ? 2 : 1;
    const uint64_t units = t.outer * dv_ceil_div(t.inner, t.T);
    const uint64_t cores = v->v[SB_CORES].i ? (uint64_t)v->v[SB_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    t.blocks = (uint32_t)dv_max_u64(1, dv_min_u64(cores, units));
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = t.blocks;
    plan->info.subs = 1;
    int rc;
    /* y as the forward gives it: a probability, or with --log its logarithm */
    if ((rc = dv_ops_add_arg(plan, "g", dt, elems, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "y", dt, elems, DV_ARG_IN, t.log ? -3 : 0, t.log ? 0 : 1)) ||
        (rc = dv_ops_add_arg(plan, "z", dt, elems, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 4 * elems;
    plan->bytes = 3 * elems * size;
    /* the sum over the axis rounds in fp32: its error grows with the axis */
    plan->tol_scale = (double)dv_max_u64(1, t.n / 64);
    return DV_OK;
}

static int sb_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    sd_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t dt = (dv_dtype_t)t.dt;
    for (uint64_t o = 0; o < t.outer; o++)
        for (uint64_t c = 0; c < t.inner; c++) {
            const uint64_t base = o * t.n * t.inner + c;
            double s = 0;
            for (uint64_t r = 0; r < t.n; r++) {
                const double g = dv_ops_load(in[0], dt, base + r * t.inner);
                s += t.log ? g : g * dv_ops_load(in[1], dt, base + r * t.inner);
            }
            for (uint64_t r = 0; r < t.n; r++) {
                const double g = dv_ops_load(in[0], dt, base + r * t.inner), y = dv_ops_load(in[1], dt, base + r * t.inner);
                dv_ops_store(expect[2], dt, base + r * t.inner, t.log ? g - exp(y) * s : y * (g - s));
            }
        }
    return DV_OK;
}

const dv_opdesc_t dv_op_softmax_backward = {
    "softmax_backward", "z = y * (g - sum(g * y)) along axis --dim, or with --log z = g - exp(y) * sum(g) (fp32)",
    sb_params, SB_COUNT, sb_plan, sb_kernel, sb_reference, NULL, NULL, NULL,
};

/* ================================================================ batchnorm_elemt (s20-norm2) */

/* batchnorm_elemt (aclnnBatchNormElemt): y = (x - mean[c]) * invstd[c] * weight[c] + bias[c] on
 * N x C x S... (2 to 8 dims, S the product of the dims after C), the statistics given: mean and
 * invstd fp32 of C, weight (--weight on, else 1) and bias (--bias on, else 0) fp32 of C; x and y in
 * the dtype.  Once per block the vectors come in by one DataCopyPad burst each and fold into
 * scale = invstd * weight and shift = bias - mean * scale, spread by vbrcb into one 32 B block per
 * channel.  A unit is a chunk of up to --tile-elems elements of one (n, c) plane: in by one
 * DataCopyPad burst (zero-padded to 32 B), fp32 (fp16 cast up), y = x * scale[c] + shift[c] with
 * the channel's block read at block and repeat stride 0, back and out by one burst. */
enum { BE_SHAPE, BE_DTYPE, BE_WEIGHT, BE_BIAS, BE_CORES, BE_TILE, BE_COUNT };
static const dv_oparam_spec_t be_params[BE_COUNT] = {
    {"shape", DV_OPT_SHAPE, "8x64x32x32", 1, 1u << 30, 0, "N x C x the rest (2 to 8 dimensions)"},
    {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, DT_F16 | DT_F32, "x and y (arithmetic in fp32)"},
    {"weight", DV_OPT_BOOL, "on", 0, 1, 0, "a weight of C (fp32), else 1"},
    {"bias", DV_OPT_BOOL, "on", 0, 1, 0, "a bias of C (fp32), else 0"},
    {"cores", DV_OPT_INT, "auto", 1, 1024, 0, "blocks (auto: the chip's vector cores)"},
    {"tile-elems", DV_OPT_INT, "4096", 64, 16384, 0, "elements of a plane per unit (a multiple of 64)"},
};

typedef struct be_tiling {
    uint64_t n, c, s, tile;
    uint32_t dt, weight, bias, blocks;
} be_tiling_t;

/* UB: the four vectors (C fp32, rounded to 8), the scale and shift blocks, the x and y queues
 * (depth 2) and the fp32 work tile for fp16. */
static uint64_t be_ub_bytes(uint64_t C, uint64_t T, unsigned size, uint64_t align)
{
    const uint64_t vec = dv_round_up(dv_round_up(C, 8) * 4, align), blocks = dv_round_up(dv_round_up(C, 8) * SD_BLK, align);
    return 4 * vec + 2 * blocks + 4 * dv_round_up(T * size, align) + (size == 4 ? 0 : dv_round_up(T * 4, align));
}

static void be_kernel(dv_k_t *k, const void *params)
{
    const be_tiling_t *t = params;
    const dv_dtype_t dt = (dv_dtype_t)t->dt;
    const unsigned size = dv_dtype_size(dt);
    const uint64_t chunks = dv_ceil_div(t->s, t->tile), units = t->n * t->c * chunks;
    const uint64_t nb = dvk_block_num(k), b = dvk_block_idx(k);
    const uint64_t u0 = units * b / nb, u1 = units * (b + 1) / nb;
    if (u0 == u1)
        return;
    const uint64_t C8 = dv_round_up(t->c, 8), rep_max = dv_ops_field_max(DV_FORM_VBRCB, DV_FLD(VBRCB, repeat));
    /* the vectors: mean, invstd, weight, bias (arguments 1 .. 4, those present) */
    dv_que_t pq, inq, outq;
    dvk_que_init(k, &pq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 1, 4 * C8 * 4);
    dvk_que_init(k, &inq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 2, t->tile * size);
    dvk_que_init(k, &outq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 2, t->tile * size);
    const uint64_t scb = dvk_alloc(k, DV_SPACE_UB, C8 * SD_BLK), shb = dvk_alloc(k, DV_SPACE_UB, C8 * SD_BLK);
    const uint64_t w32 = size == 4 ? 0 : dvk_alloc(k, DV_SPACE_UB, t->tile * 4);
    dvk_set_mov_pad_val(k, 0);
    const uint64_t bp = dvk_que_alloc(k, &pq);
    const unsigned nvec = 2 + t->weight + t->bias;
    for (unsigned i = 0; i < nvec; i++)
        dvk_copy_gm_to_ubuf_align(k, bp + i * C8 * 4, dvk_gm(k, 1 + i, 0), 1, (int64_t)(t->c * 4), 0, 0, 0,
                                  (int64_t)(C8 - t->c), 4);
    dvk_que_enque(k, &pq, bp);
    const uint64_t p = dvk_que_deque(k, &pq), mean = p, invstd = p + C8 * 4;
    const uint64_t weight = t->weight ? p + 2 * C8 * 4 : 0, bias = t->bias ? p + (2 + t->weight) * C8 * 4 : 0;
    /* scale = invstd * weight (into invstd), shift = bias - mean * scale (into mean) */
    if (t->weight) {
        sd_bin(k, dvk_vmul, invstd, invstd, weight, C8);
        dvk_pipe_barrier(k, DV_PIPE_V);
    }
    sd_bin(k, dvk_vmul, mean, mean, invstd, C8);
    dvk_pipe_barrier(k, DV_PIPE_V);
    if (t->bias)
        sd_bin(k, dvk_vsub, mean, bias, mean, C8);
    else
        bt_scale(k, 0, mean, mean, -1.0, C8);
    dvk_pipe_barrier(k, DV_PIPE_V);
    for (uint64_t r = 0; r < C8 / 8; r += rep_max) {
        const int64_t rep = (int64_t)dv_min_u64(rep_max, C8 / 8 - r);
        dvk_vbrcb(k, scb + r * 8 * SD_BLK, invstd + r * 8 * 4, DV_DT_F32, rep, 1, 8);
        dvk_vbrcb(k, shb + r * 8 * SD_BLK, mean + r * 8 * 4, DV_DT_F32, rep, 1, 8);
    }
    dvk_pipe_barrier(k, DV_PIPE_V);
    for (uint64_t u = u0; u < u1; u++) {
        const uint64_t plane = u / chunks, c = plane % t->c, c0 = (u % chunks) * t->tile;
        const uint64_t len = dv_min_u64(t->tile, t->s - c0), pl = sd_pitch(len, size), gm = (plane * t->s + c0) * size;
        const uint64_t bx = dvk_que_alloc(k, &inq);
        dvk_copy_gm_to_ubuf_align(k, bx, dvk_gm(k, 0, gm), 1, (int64_t)(len * size), 0, 0, 0, (int64_t)(pl - len),
                                  (int64_t)size);
        dvk_que_enque(k, &inq, bx);
        const uint64_t x = dvk_que_deque(k, &inq), y = dvk_que_alloc(k, &outq), w = size == 4 ? y : w32;
        if (size != 4) {
            sd_flat(k, 1, w32, x, pl);
            dvk_pipe_barrier(k, DV_PIPE_V);
        }
        bt_bcast(k, dvk_vmul, w, size == 4 ? x : w32, scb + c * SD_BLK, pl);
        dvk_pipe_barrier(k, DV_PIPE_V);
        bt_bcast(k, dvk_vadd, w, w, shb + c * SD_BLK, pl);
        if (size != 4) {
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_flat(k, 2, y, w32, pl);
        }
        dvk_que_free(k, &inq, x);
        dvk_que_enque(k, &outq, y);
        const uint64_t by = dvk_que_deque(k, &outq);
        dvk_copy_ubuf_to_gm_align(k, dvk_gm(k, 1 + nvec, gm), by, 1, (int64_t)(len * size), 0, 0);
        dvk_que_free(k, &outq, by);
    }
    dvk_que_free(k, &pq, p);
}

static int be_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                   dv_error_t *err)
{
    const dv_shape_t *sh = &v->v[BE_SHAPE].shape;
    const dv_dtype_t dt = v->v[BE_DTYPE].dt;
    const unsigned size = dv_dtype_size(dt);
    if (sh->ndims < 2)
        return dv_ops_param_error(err, "shape", "batchnorm_elemt takes N x C x ... (at least 2 dimensions), not %d",
                                  sh->ndims);
    if (!cfg->chip_dma_pad)
        return dv_ops_param_error(err, "shape", "batchnorm_elemt copies planes with copy_gm_to_ubuf_align, and this "
                                  "profile has chip.dma_pad off");
    be_tiling_t t = {.n = sh->d[0], .c = sh->d[1], .s = 1, .tile = (uint64_t)v->v[BE_TILE].i, .dt = (uint32_t)dt,
                     .weight = v->v[BE_WEIGHT].i != 0, .bias = v->v[BE_BIAS].i != 0};
    for (int i = 2; i < sh->ndims; i++)
        t.s *= sh->d[i];
    if (t.tile % SD_LANES)
        return dv_ops_param_error(err, "tile-elems", "%llu is not a multiple of 64", (unsigned long long)t.tile);
    t.tile = dv_min_u64(t.tile, dv_round_up(t.s, SD_LANES));
    const uint64_t elems = dv_shape_elems(sh);
    const int hbm_rc = dv_ops_check_hbm(cfg, elems, size, err);
    if (hbm_rc != DV_OK)
        return hbm_rc;
    const uint64_t ub = be_ub_bytes(t.c, t.tile, size, cfg->ub_align_bytes);
    if (ub > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "shape", "%llu channels with tiles of %llu elements need %llu bytes of UB, "
                                  "core.ub_size_bytes is %llu (the per-channel vectors and blocks stay in UB)",
                                  (unsigned long long)t.c, (unsigned long long)t.tile, (unsigned long long)ub,
                                  (unsigned long long)cfg->ub_size_bytes);
    const uint64_t units = t.n * t.c * dv_ceil_div(t.s, t.tile);
    const uint64_t cores = v->v[BE_CORES].i ? (uint64_t)v->v[BE_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    t.blocks = (uint32_t)dv_max_u64(1, dv_min_u64(cores, units));
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = t.blocks;
    plan->info.subs = 1;
    int rc;
    /* invstd as batch statistics give it: positive */
    if ((rc = dv_ops_add_arg(plan, "x", dt, elems, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "mean", DV_DT_F32, t.c, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "invstd", DV_DT_F32, t.c, DV_ARG_IN, 0.5, 2)) ||
        (t.weight && (rc = dv_ops_add_arg(plan, "weight", DV_DT_F32, t.c, DV_ARG_IN, 0, 0))) ||
        (t.bias && (rc = dv_ops_add_arg(plan, "bias", DV_DT_F32, t.c, DV_ARG_IN, 0, 0))) ||
        (rc = dv_ops_add_arg(plan, "y", dt, elems, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 2 * elems;
    plan->bytes = 2 * elems * size + (2 + t.weight + t.bias) * t.c * 4;
    return DV_OK;
}

static int be_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    be_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t dt = (dv_dtype_t)t.dt;
    const unsigned yi = 3 + t.weight + t.bias;
    for (uint64_t p = 0; p < t.n * t.c; p++) {
        const uint64_t c = p % t.c;
        const double m = dv_ops_load(in[1], DV_DT_F32, c), is = dv_ops_load(in[2], DV_DT_F32, c);
        const double w = t.weight ? dv_ops_load(in[3], DV_DT_F32, c) : 1;
        const double bb = t.bias ? dv_ops_load(in[3 + t.weight], DV_DT_F32, c) : 0;
        for (uint64_t i = 0; i < t.s; i++)
            dv_ops_store(expect[yi], dt, p * t.s + i, (dv_ops_load(in[0], dt, p * t.s + i) - m) * is * w + bb);
    }
    return DV_OK;
}

const dv_opdesc_t dv_op_batchnorm_elemt = {
    "batchnorm_elemt", "y = (x - mean[c]) * invstd[c] * weight[c] + bias[c] on N x C x ... (--weight, --bias; fp32)",
    be_params, BE_COUNT, be_plan, be_kernel, be_reference, NULL, NULL, NULL,
};

/* ================================================================ bn_gather_stats (s20-norm2) */

/* bn_gather_stats (aclnnSyncBatchNormGatherStats): the per-device sums of --devices devices gathered
 * into the batch statistics of C channels: count = sum(count[d]), mean = sum(total_sum[d]) / count,
 * var = sum(total_square_sum[d]) / count - mean^2, batch_invstd = 1 / sqrt(var + eps); the running
 * statistics updated in place, running_mean = (1 - momentum) running_mean + momentum mean and
 * running_var = (1 - momentum) running_var + momentum var count / (count - 1).  The sums, the running
 * statistics and the outputs in --dtype, the counts in --count-dtype.  One block: the D x C sums
 * come in by one DataCopyPad each (rows zero-padded to P), reduced pairwise across the rows (one fp32
 * work tile, the sums' and then the square sums'); the
 * count is summed over its lanes (vcadd) and spread into a 32 B block (vbrcb) that divides every
 * lane (block and repeat stride 0).  --from-stats on (aclnnBatchNormGatherStatsWithCounts): the
 * inputs are each device's mean and invstd instead, made into its sum mean * count and square sum
 * (1 / invstd^2 - eps + mean^2) * count first (vmul, vrec, vadds, vmla; each device's row times its
 * count's vbrcb block). */
enum { GS_DEVICES, GS_CHANNELS, GS_DTYPE, GS_COUNT_DTYPE, GS_MOMENTUM, GS_EPS, GS_FROM_STATS, GS_COUNT };
static const dv_oparam_spec_t gs_params[GS_COUNT] = {
    {"devices", DV_OPT_INT, "8", 1, 4095, 0, "D: the devices whose sums are gathered"},
    {"channels", DV_OPT_INT, "256", 1, 1u << 20, 0, "C: the channels"},
    {"dtype", DV_OPT_DTYPE, "fp32", 0, 0, DT_F16 | DT_F32, "the sums, the running statistics and the outputs"},
    {"count-dtype", DV_OPT_DTYPE, "int32", 0, 0, DT_S32 | DT_F16 | DT_F32, "the sample counts"},
    {"momentum", DV_OPT_FLOAT, "0.1", 0, 1, 0, "the running statistics' update weight"},
    {"eps", DV_OPT_FLOAT, "1e-5", 0, 1, 0, "added to the variance before 1/sqrt"},
    {"from-stats", DV_OPT_BOOL, "off", 0, 1, 0, "the inputs are each device's mean and invstd, not its sums"},
};

typedef struct gs_tiling {
    uint64_t d, c;
    double momentum, eps;
    uint32_t dt, cdt, from_stats;
} gs_tiling_t;

/* UB of the whole problem: the inputs in their dtypes, the fp32 work and the four outputs. */
static uint64_t gs_ub_bytes(uint64_t D, uint64_t C, unsigned size, unsigned csize, bool from_stats, uint64_t align)
{
    if (from_stats) /* the second fp32 tile and the devices' count blocks */
        return gs_ub_bytes(D, C, size, csize, false, align) + dv_round_up(D * sd_pitch(C, size) * 4, align) +
               dv_round_up(dv_round_up(D, 8) * SD_BLK, align);
    const uint64_t P = sd_pitch(C, size), m = dv_round_up(D * P * size, align), v = dv_round_up(P * size, align);
    const uint64_t f = dv_round_up(D * P * 4, align), r = dv_round_up(P * 4, align);
    const uint64_t cnt = dv_round_up(dv_round_up(D, SD_LANES) * 4, align) + dv_round_up(D * csize + SD_BLK, align);
    return 2 * m + 2 * v + cnt + f + dv_round_up(dv_ceil_div(D, 2) * P * 4, align) + 4 * r + 4 * v +
           3 * dv_round_up(SD_REP, align);
}

/* d = the fp32 of the e elements of s in dt (a copy for fp32; int32 and fp16 by vconv), the last repeat masked. */
static void gs_to_f32(dv_k_t *k, uint64_t d, uint64_t s, dv_dtype_t dt, uint64_t e)
{
    const uint64_t full = e / SD_LANES, rem = e % SD_LANES, ssz = dv_dtype_size(dt);
    for (uint64_t r = 0; r < full + (rem != 0); r++) {
        if (r == full)
            dvk_mask_first(k, DV_DT_F32, (uint32_t)rem);
        if (dt == DV_DT_F32)
            dvk_vmax(k, d + r * SD_REP, s + r * SD_REP, s + r * SD_REP, DV_DT_F32, 1, 1, 1, 1, 8, 8, 8);
        else
            dvk_vconv(k, d + r * SD_REP, s + r * SD_LANES * ssz, DV_DT_F32, dt, DV_ROUND_R, 1, 1, 1, 8,
                      (int64_t)(SD_LANES * ssz / SD_BLK));
        if (r == full)
            dvk_mask_all(k);
    }
}

/* r = 1 / r over e fp32 elements (vrec; the last repeat masked). */
static void sd_flat_rec(dv_k_t *k, uint64_t r, uint64_t e)
{
    const uint64_t rep_max = dv_ops_field_max(DV_FORM_VBIN, DV_FLD(VBIN, repeat));
    const uint64_t full = e / SD_LANES, rem = e % SD_LANES;
    for (uint64_t i = 0, rep; i < full; i += rep) {
        rep = dv_min_u64(rep_max, full - i);
        dvk_vrec(k, r + i * SD_REP, r + i * SD_REP, DV_DT_F32, (int64_t)rep, 1, 1, 8, 8);
    }
    if (rem) {
        dvk_mask_first(k, DV_DT_F32, (uint32_t)rem);
        dvk_vrec(k, r + full * SD_REP, r + full * SD_REP, DV_DT_F32, 1, 1, 1, 8, 8);
        dvk_mask_all(k);
    }
}

/* r += a over e fp32 elements (vadds; the last repeat masked). */
static void bt_scale_add(dv_k_t *k, uint64_t r, double a, uint64_t e)
{
    const uint64_t rep_max = dv_ops_field_max(DV_FORM_VBIN, DV_FLD(VBIN, repeat));
    const uint64_t full = e / SD_LANES, rem = e % SD_LANES;
    for (uint64_t i = 0, rep; i < full; i += rep) {
        rep = dv_min_u64(rep_max, full - i);
        dvk_vadds(k, r + i * SD_REP, r + i * SD_REP, DV_DT_F32, a, (int64_t)rep, 1, 1, 8, 8);
    }
    if (rem) {
        dvk_mask_first(k, DV_DT_F32, (uint32_t)rem);
        dvk_vadds(k, r + full * SD_REP, r + full * SD_REP, DV_DT_F32, a, 1, 1, 1, 8, 8);
        dvk_mask_all(k);
    }
}

static void gs_kernel(dv_k_t *k, const void *params)
{
    const gs_tiling_t *t = params;
    if (dvk_block_idx(k) != 0)
        return;
    const dv_dtype_t dt = (dv_dtype_t)t->dt, cdt = (dv_dtype_t)t->cdt;
    const unsigned size = dv_dtype_size(dt), csize = dv_dtype_size(cdt);
    const uint64_t D = t->d, C = t->c, P = sd_pitch(C, size), align = SD_BLK;
    const uint64_t mb = dv_round_up(D * P * size, align), vb = dv_round_up(P * size, align);
    const uint64_t cb = dv_round_up(D * csize + SD_BLK, align);
    /* in: sums, square sums, counts, running mean, running var */
    dv_que_t inq, outq;
    dvk_que_init(k, &inq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 1, 2 * mb + cb + 2 * vb);
    dvk_que_init(k, &outq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 1, 4 * vb);
    const uint64_t s32 = dvk_alloc(k, DV_SPACE_UB, D * P * 4); /* the sums, then the square sums, in fp32 */
    const uint64_t c32 = dvk_alloc(k, DV_SPACE_UB, dv_round_up(D, SD_LANES) * 4);
    const uint64_t red = dvk_alloc(k, DV_SPACE_UB, dv_ceil_div(D, 2) * P * 4);
    const uint64_t mean = dvk_alloc(k, DV_SPACE_UB, P * 4), var = dvk_alloc(k, DV_SPACE_UB, P * 4);
    const uint64_t rm = dvk_alloc(k, DV_SPACE_UB, P * 4), rv = dvk_alloc(k, DV_SPACE_UB, P * 4);
    const uint64_t tmp = dvk_alloc(k, DV_SPACE_UB, SD_REP), cblk = dvk_alloc(k, DV_SPACE_UB, SD_REP);
    const uint64_t fblk = dvk_alloc(k, DV_SPACE_UB, SD_REP);
    dvk_set_mov_pad_val(k, 0);
    const uint64_t bi = dvk_que_alloc(k, &inq), bs = bi, bq = bi + mb, bc = bi + 2 * mb, brm = bc + cb, brv = brm + vb;
    dvk_copy_gm_to_ubuf_align(k, bs, dvk_gm(k, 0, 0), (int64_t)D, (int64_t)(C * size), 0, 0, 0, (int64_t)(P - C),
                              (int64_t)size);
    dvk_copy_gm_to_ubuf_align(k, bq, dvk_gm(k, 1, 0), (int64_t)D, (int64_t)(C * size), 0, 0, 0, (int64_t)(P - C),
                              (int64_t)size);
    dvk_copy_gm_to_ubuf_align(k, bc, dvk_gm(k, 2, 0), 1, (int64_t)(D * csize), 0, 0, 0, 0, (int64_t)csize);
    dvk_copy_gm_to_ubuf_align(k, brm, dvk_gm(k, 3, 0), 1, (int64_t)(C * size), 0, 0, 0, (int64_t)(P - C), (int64_t)size);
    dvk_copy_gm_to_ubuf_align(k, brv, dvk_gm(k, 4, 0), 1, (int64_t)(C * size), 0, 0, 0, (int64_t)(P - C), (int64_t)size);
    dvk_que_enque(k, &inq, bi);
    const uint64_t in = dvk_que_deque(k, &inq);
    (void)in;
    dvk_vdup(k, c32, DV_DT_F32, 0.0, (int64_t)dv_ceil_div(D, SD_LANES), 1, 8); /* the lanes past D are 0 */
    dvk_pipe_barrier(k, DV_PIPE_V);
    gs_to_f32(k, s32, bs, dt, D * P);
    gs_to_f32(k, c32, bc, cdt, D);
    gs_to_f32(k, rm, brm, dt, P);
    gs_to_f32(k, rv, brv, dt, P);
    uint64_t q32 = s32; /* the square sums: after the sums in s32, or (--from-stats) their own tile */
    if (t->from_stats) {
        const uint64_t rep_max = dv_ops_field_max(DV_FORM_VBRCB, DV_FLD(VBRCB, repeat));
        const uint64_t D8 = dv_round_up(D, 8), dblk = dvk_alloc(k, DV_SPACE_UB, D8 * SD_BLK);
        q32 = dvk_alloc(k, DV_SPACE_UB, D * P * 4);
        gs_to_f32(k, q32, bq, dt, D * P);
        dvk_pipe_barrier(k, DV_PIPE_V);
        for (uint64_t r = 0; r < D8 / 8; r += rep_max) /* c32's lanes past D are 0 */
            dvk_vbrcb(k, dblk + r * 8 * SD_BLK, c32 + r * 8 * 4, DV_DT_F32, (int64_t)dv_min_u64(rep_max, D8 / 8 - r), 1,
                      8);
        sd_bin(k, dvk_vmul, q32, q32, q32, D * P);
        dvk_pipe_barrier(k, DV_PIPE_V);
        sd_flat_rec(k, q32, D * P);
        dvk_pipe_barrier(k, DV_PIPE_V);
        bt_scale_add(k, q32, -t->eps, D * P);
        dvk_pipe_barrier(k, DV_PIPE_V);
        sd_bin(k, dvk_vmla, q32, s32, s32, D * P); /* var + mean^2 */
        dvk_pipe_barrier(k, DV_PIPE_V);
        for (uint64_t d = 0; d < D; d++) {
            bt_bcast(k, dvk_vmul, s32 + d * P * 4, s32 + d * P * 4, dblk + d * SD_BLK, P);
            bt_bcast(k, dvk_vmul, q32 + d * P * 4, q32 + d * P * 4, dblk + d * SD_BLK, P);
        }
    }
    dvk_pipe_barrier(k, DV_PIPE_V);
    bt_lane_sum(k, cblk, tmp, c32, D); /* the total count, in every lane of cblk's first block */
    sd_reduce(k, dvk_vadd, red, s32, D, P);
    dvk_pipe_barrier(k, DV_PIPE_V);
    bt_bcast(k, dvk_vdiv, mean, red, cblk, P);
    if (!t->from_stats)
        gs_to_f32(k, s32, bq, dt, D * P);
    dvk_pipe_barrier(k, DV_PIPE_V);
    dvk_que_free(k, &inq, bi);
    sd_reduce(k, dvk_vadd, red, q32, D, P);
    dvk_pipe_barrier(k, DV_PIPE_V);
    bt_bcast(k, dvk_vdiv, var, red, cblk, P);
    sd_bin(k, dvk_vmul, s32, mean, mean, P);
    dvk_pipe_barrier(k, DV_PIPE_V);
    sd_bin(k, dvk_vsub, var, var, s32, P); /* the biased variance */
    dvk_pipe_barrier(k, DV_PIPE_V);
    sd_bin(k, dvk_vmax, red, var, var, P);
    dvk_pipe_barrier(k, DV_PIPE_V);
    rd_rstd(k, red, t->eps, P); /* batch_invstd in red's first row */
    /* count / (count - 1) in fblk; the running statistics */
    BT_BLOCK(dvk_vadds(k, fblk, cblk, DV_DT_F32, -1.0, 1, 1, 1, 8, 8));
    bt_scale(k, 0, rm, rm, 1 - t->momentum, P);
    bt_scale(k, 0, rv, rv, 1 - t->momentum, P);
    dvk_pipe_barrier(k, DV_PIPE_V);
    BT_BLOCK(dvk_vdiv(k, fblk, cblk, fblk, DV_DT_F32, 1, 1, 1, 1, 8, 8, 8));
    bt_scale(k, 1, rm, mean, t->momentum, P);
    dvk_pipe_barrier(k, DV_PIPE_V);
    bt_bcast(k, dvk_vmul, var, var, fblk, P);
    dvk_pipe_barrier(k, DV_PIPE_V);
    bt_scale(k, 1, rv, var, t->momentum, P);
    dvk_pipe_barrier(k, DV_PIPE_V);
    /* out: batch mean, batch invstd, running mean, running var, each in the dtype */
    const uint64_t bo = dvk_que_alloc(k, &outq), src[4] = {mean, red, rm, rv};
    for (int i = 0; i < 4; i++) {
        if (size == 4)
            sd_bin(k, dvk_vmax, bo + (uint64_t)i * vb, src[i], src[i], P);
        else
            sd_flat(k, 2, bo + (uint64_t)i * vb, src[i], P);
    }
    dvk_que_enque(k, &outq, bo);
    const uint64_t o = dvk_que_deque(k, &outq);
    static const unsigned arg[4] = {5, 6, 3, 4};
    for (int i = 0; i < 4; i++)
        dvk_copy_ubuf_to_gm_align(k, dvk_gm(k, arg[i], 0), o + (uint64_t)i * vb, 1, (int64_t)(C * size), 0, 0);
    dvk_que_free(k, &outq, o);
}

static int gs_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                   dv_error_t *err)
{
    gs_tiling_t t = {.d = (uint64_t)v->v[GS_DEVICES].i, .c = (uint64_t)v->v[GS_CHANNELS].i,
                     .momentum = v->v[GS_MOMENTUM].f, .eps = v->v[GS_EPS].f, .dt = (uint32_t)v->v[GS_DTYPE].dt,
                     .cdt = (uint32_t)v->v[GS_COUNT_DTYPE].dt, .from_stats = v->v[GS_FROM_STATS].i != 0};
    const unsigned size = dv_dtype_size((dv_dtype_t)t.dt), csize = dv_dtype_size((dv_dtype_t)t.cdt);
    if (!cfg->chip_dma_pad)
        return dv_ops_param_error(err, "channels", "bn_gather_stats copies rows with copy_gm_to_ubuf_align, and this "
                                  "profile has chip.dma_pad off");
    if (sd_pitch(t.c, size) > SD_MAX_PITCH * 4)
        return dv_ops_param_error(err, "channels", "%llu: a row of the sums is at most %d elements",
                                  (unsigned long long)t.c, SD_MAX_PITCH * 4);
    const uint64_t ub = gs_ub_bytes(t.d, t.c, size, csize, t.from_stats, cfg->ub_align_bytes);
    if (ub > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "channels", "%llu devices x %llu channels need %llu bytes of UB, "
                                  "core.ub_size_bytes is %llu (bn_gather_stats holds them all)",
                                  (unsigned long long)t.d, (unsigned long long)t.c, (unsigned long long)ub,
                                  (unsigned long long)cfg->ub_size_bytes);
    const dv_dtype_t dt = (dv_dtype_t)t.dt, cdt = (dv_dtype_t)t.cdt;
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = 1;
    plan->info.subs = 1;
    int rc;
    /* counts of samples, square sums large enough that every variance is positive */
    /* --from-stats: the devices' means and invstds (their variances 1/invstd^2 - eps positive) */
    if ((rc = dv_ops_add_arg(plan, t.from_stats ? "mean" : "total_sum", dt, t.d * t.c, DV_ARG_IN, -1, 1)) ||
        (rc = dv_ops_add_arg(plan, t.from_stats ? "invstd" : "total_square_sum", dt, t.d * t.c, DV_ARG_IN,
                             t.from_stats ? 0.5 : 4, t.from_stats ? 2 : 8)) ||
        (rc = dv_ops_add_arg(plan, "count", cdt, t.d, DV_ARG_IN, 2, 8)) ||
        (rc = dv_ops_add_arg(plan, "running_mean", dt, t.c, DV_ARG_INOUT, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "running_var", dt, t.c, DV_ARG_INOUT, 0.5, 1.5)) ||
        (rc = dv_ops_add_arg(plan, "batch_mean", dt, t.c, DV_ARG_OUT, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "batch_invstd", dt, t.c, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 2 * t.d * t.c + 10 * t.c;
    plan->bytes = (2 * t.d * t.c + 6 * t.c) * size + t.d * csize;
    return DV_OK;
}

static int gs_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    gs_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t dt = (dv_dtype_t)t.dt, cdt = (dv_dtype_t)t.cdt;
    double n = 0;
    for (uint64_t d = 0; d < t.d; d++)
        n += dv_ops_load(in[2], cdt, d);
    for (uint64_t c = 0; c < t.c; c++) {
        double s = 0, q = 0;
        for (uint64_t d = 0; d < t.d; d++) {
            const double a = dv_ops_load(in[0], dt, d * t.c + c), b = dv_ops_load(in[1], dt, d * t.c + c);
            const double nd = dv_ops_load(in[2], cdt, d);
            s += t.from_stats ? a * nd : a;
            q += t.from_stats ? (1 / (b * b) - t.eps + a * a) * nd : b;
        }
        const double mean = s / n, var = q / n - mean * mean;
        dv_ops_store(expect[5], dt, c, mean);
        dv_ops_store(expect[6], dt, c, 1 / sqrt(var + t.eps));
        dv_ops_store(expect[3], dt, c, (1 - t.momentum) * dv_ops_load(in[3], dt, c) + t.momentum * mean);
        dv_ops_store(expect[4], dt, c, (1 - t.momentum) * dv_ops_load(in[4], dt, c) + t.momentum * var * n / (n - 1));
    }
    return DV_OK;
}

const dv_opdesc_t dv_op_bn_gather_stats = {
    "bn_gather_stats", "the batch mean and invstd of C channels from D devices' sums, square sums and counts; the "
    "running statistics updated in place (fp32 arithmetic)",
    gs_params, GS_COUNT, gs_plan, gs_kernel, gs_reference, NULL, NULL, NULL,
};
