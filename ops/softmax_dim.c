/* ops/softmax_dim.c - softmax along any axis of a tensor (aclnnSoftmax with a dim other than the
 * last; the last axis is ops/norm.c's softmax).
 *
 * The tensor is viewed as [outer, n, inner] around the axis (n its length): each of the outer x
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
 * computes in double from the rounded inputs and rounds once; the default tolerance holds. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/ops.h"

enum { SD_BLK = 32, SD_REP = 256, SD_LANES = 64, SD_MAX_PITCH = 2040 };
enum { SP_SHAPE, SP_DIM, SP_DTYPE, SP_CORES, SP_DB, SP_TILE_COLS, SP_COUNT };

static const dv_oparam_spec_t sd_params[SP_COUNT] = {
    {"shape", DV_OPT_SHAPE, "8x1024x16", 1, 1u << 30, 0, "tensor dimensions"},
    {"dim", DV_OPT_INT, "1", 0, DV_SHAPE_MAX - 1, 0, "the axis normalised (0 .. dims - 1)"},
    {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, DT_F16 | DT_F32, "element type (arithmetic in fp32)"},
    {"cores", DV_OPT_INT, "auto", 1, 1024, 0, "blocks (auto: the chip's vector cores)"},
    {"double-buffer", DV_OPT_BOOL, "on", 0, 1, 0, "two buffers per queue when they fit UB"},
    {"tile-cols", DV_OPT_INT, "auto", 1, SD_MAX_PITCH, 0, "columns per tile (auto: the widest that fits UB)"},
};

typedef struct sd_tiling {
    uint64_t outer, n, inner, T;
    uint32_t dt, depth, blocks;
} sd_tiling_t;

/* UB bytes of a tile of n rows of P elements (P a multiple of 32 B in the dtype). */
static uint64_t sd_ub_bytes(uint64_t n, uint64_t P, unsigned size, uint32_t depth, uint64_t align)
{
    const uint64_t io = dv_round_up(n * P * size, align), w = size == 4 ? 0 : dv_round_up(n * P * 4, align);
    return 2 * depth * io + w + dv_round_up(dv_ceil_div(n, 2) * P * 4, align);
}

/* The elements per row a tile of t columns occupies in UB: whole 32 B in the dtype. */
static uint64_t sd_pitch(uint64_t t, unsigned size) { return dv_round_up(t, SD_BLK / size); }

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

/* A flat step over e fp32 elements: what 0 is y = exp(x), 1 the fp16 -> fp32 cast, 2 fp32 -> fp16. */
static void sd_flat_rep(dv_k_t *k, int what, uint64_t dst, uint64_t src, uint64_t r, uint64_t rep)
{
    if (what == 0)
        dvk_vexp(k, dst + r * SD_REP, src + r * SD_REP, DV_DT_F32, (int64_t)rep, 1, 1, 8, 8);
    else if (what == 1)
        dvk_vconv(k, dst + r * SD_REP, src + r * SD_REP / 2, DV_DT_F32, DV_DT_F16, DV_ROUND_R, (int64_t)rep, 1, 1, 8, 4);
    else
        dvk_vconv(k, dst + r * SD_REP / 2, src + r * SD_REP, DV_DT_F16, DV_DT_F32, DV_ROUND_R, (int64_t)rep, 1, 1, 4, 8);
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
    dvk_set_mov_pad_val(k, 0);
    for (uint64_t u = u0; u < u1; u++) {
        const uint64_t o = u / ctiles, c0 = (u % ctiles) * t->T, tc = dv_min_u64(t->T, t->inner - c0);
        const uint64_t pc = sd_pitch(tc, size), gm = ((o * t->n) * t->inner + c0) * size;
        const int64_t len = (int64_t)(tc * size), gap = (int64_t)((t->inner - tc) * size);
        /* CopyIn: row r of the tile at UB pitch pc, zero-padded */
        const uint64_t bx = dvk_que_alloc(k, &inq);
        for (uint64_t r = 0; r < t->n; r += nburst_max) {
            const uint64_t rows = dv_min_u64(nburst_max, t->n - r);
            dvk_copy_gm_to_ubuf_align(k, bx + r * pc * size, dvk_gm(k, 0, gm + r * t->inner * size), (int64_t)rows,
                                      len, gap, 0, 0, (int64_t)(pc - tc), (int64_t)size);
        }
        dvk_que_enque(k, &inq, bx);
        /* Compute */
        const uint64_t x = dvk_que_deque(k, &inq), y = dvk_que_alloc(k, &outq);
        if (size == 4) {
            sd_compute(k, x, y, red, t->n, pc);
        } else {
            sd_flat(k, 1, w32, x, t->n * pc);
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_compute(k, w32, w32, red, t->n, pc);
            dvk_pipe_barrier(k, DV_PIPE_V);
            sd_flat(k, 2, y, w32, t->n * pc);
        }
        dvk_que_free(k, &inq, x);
        dvk_que_enque(k, &outq, y);
        /* CopyOut */
        const uint64_t by = dvk_que_deque(k, &outq);
        for (uint64_t r = 0; r < t->n; r += nburst_max) {
            const uint64_t rows = dv_min_u64(nburst_max, t->n - r);
            dvk_copy_ubuf_to_gm_align(k, dvk_gm(k, 1, gm + r * t->inner * size), by + r * pc * size, (int64_t)rows,
                                      len, 0, gap);
        }
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
    if (dim >= sh->ndims)
        return dv_ops_param_error(err, "dim", "%lld is not an axis of a %d-dimensional shape (0 .. %d)",
                                  (long long)dim, sh->ndims, sh->ndims - 1);
    if (!cfg->chip_dma_pad)
        return dv_ops_param_error(err, "dim", "softmax_dim copies column tiles with copy_gm_to_ubuf_align, and this "
                                  "profile has chip.dma_pad off");
    sd_tiling_t t = {.outer = 1, .n = sh->d[dim], .inner = 1, .dt = (uint32_t)dt};
    for (int i = 0; i < sh->ndims; i++) {
        if (i < dim)
            t.outer *= sh->d[i];
        else if (i > dim)
            t.inner *= sh->d[i];
    }
    const uint64_t elems = dv_shape_elems(sh);
    uint64_t bytes;
    if (__builtin_mul_overflow(elems, (uint64_t)size, &bytes) || bytes > cfg->hbm_capacity_bytes)
        return dv_ops_param_error(err, "shape", "one tensor of this shape has more bytes than hbm.capacity_bytes "
                                  "(%llu)", (unsigned long long)cfg->hbm_capacity_bytes);
    const uint64_t ub = cfg->ub_size_bytes, align = cfg->ub_align_bytes;
    t.depth = v->v[SP_DB].i ? 2 : 1;
    if (v->v[SP_TILE_COLS].i) {
        t.T = dv_min_u64((uint64_t)v->v[SP_TILE_COLS].i, t.inner);
        if (sd_ub_bytes(t.n, sd_pitch(t.T, size), size, 1, align) > ub)
            return dv_ops_param_error(err, "tile-cols", "%llu columns x %llu rows need %llu bytes of UB, "
                                      "core.ub_size_bytes is %llu", (unsigned long long)t.T,
                                      (unsigned long long)t.n,
                                      (unsigned long long)sd_ub_bytes(t.n, sd_pitch(t.T, size), size, 1, align),
                                      (unsigned long long)ub);
    } else {
        uint64_t c = dv_min_u64(t.inner, SD_MAX_PITCH); /* halved until the tile fits */
        while (c > 1 && sd_ub_bytes(t.n, sd_pitch(c, size), size, 1, align) > ub)
            c /= 2;
        t.T = c;
        if (sd_ub_bytes(t.n, sd_pitch(c, size), size, 1, align) > ub)
            return dv_ops_param_error(err, "shape", "the axis has %llu elements: one column of them (%llu bytes "
                                      "with its buffers) does not fit in UB (core.ub_size_bytes %llu); softmax_dim "
                                      "holds a whole column tile", (unsigned long long)t.n,
                                      (unsigned long long)sd_ub_bytes(t.n, sd_pitch(1, size), size, 1, align),
                                      (unsigned long long)ub);
    }
    if (t.depth == 2 && sd_ub_bytes(t.n, sd_pitch(t.T, size), size, 2, align) > ub)
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
                dv_ops_store(expect[1], dt, base + r * t.inner, exp(dv_ops_load(in[0], dt, base + r * t.inner) - m) / s);
        }
    return DV_OK;
}

const dv_opdesc_t dv_op_softmax_dim = {
    "softmax_dim", "y = exp(x - max) / sum(exp(x - max)) along axis --dim (fp32 arithmetic)",
    sd_params, SP_COUNT, sd_plan, sd_kernel, sd_reference, NULL, NULL, NULL,
};
