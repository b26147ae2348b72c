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
 * chip.dma_pad.  rmsnorm --stats on outputs rstd alone the same way (aclnnRmsNorm's rstdOut), right
 * behind y.  The references compute in double from the rounded inputs; the default per-dtype
 * tolerance holds (no tol_scale). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "norm_internal.h"

/* Parameters, in table order (the same indices in every table; softmax stops before P_EPS, rmsnorm
 * and batchnorm before P_STATS). */
enum { P_SHAPE, P_DTYPE, P_CORES, P_DB, P_TILE_ROWS, P_EPS, P_STATS, P_COUNT };

/* ================================================================ UB layout */

uint64_t dv_norm_red_q(uint64_t row_bytes, bool is_max)
{
    return row_bytes / BLK <= dv_ops_field_max(DV_FORM_VREDUCE, DV_FLD(VREDUCE, src_rep)) ? (is_max ? 2 : 1) : 8;
}

void dv_norm_ub_layout(const norm_tiling_t *t, uint64_t R, uint64_t cp, uint64_t align, norm_ub_t *u)
{
    const uint64_t size = dv_dtype_size(t->dt), f16 = t->dt == DV_DT_F16;
    memset(u, 0, sizeof *u);
    u->cp = cp ? cp : dv_round_up(t->seg, BLK / size);
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
        u->q = dv_norm_red_q(u->cp * 4, t->kind == NK_SOFTMAX);
        u->vals = dv_round_up(dv_ceil_div(R * u->q, LANES) * REP_BYTES, align);
        u->bc = dv_round_up(dv_ceil_div(R * u->q, 8) * 8 * BLK, align);
    }
    if (t->kind == NK_BATCHNORM)
        u->pbc = dv_round_up(dv_ceil_div(plen, 8) * 8 * BLK, align);
    u->st = t->stats ? u->vals : 0;
    u->total = t->depth * (u->in + u->out + 2 * u->st) + u->xf + u->tmp + u->vals + u->bc + t->nparams * u->par +
               2 * u->pbc;
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
static const dv_oparam_spec_t rms_params[P_COUNT] = {
    ROW_COMMON,
    [P_EPS] = EPS_PARAM("mean(x^2)"),
    [P_STATS] = {"stats", DV_OPT_BOOL, "off", 0, 1, 0,
                 "also output rstd = 1/sqrt(mean(x^2) + eps) of every row, fp32 (aclnnRmsNorm's rstdOut); needs "
                 "chip.dma_pad"},
};
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
        dv_norm_ub_layout(t, mid, 0, cfg->ub_align_bytes, &u);
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
    char why_db[200] = "";
    dv_norm_ub_layout(&t, 1, 0, cfg->ub_align_bytes, &u);
    if (u.total > cfg->ub_size_bytes && kind != NK_BATCHNORM && t.depth > 1 && !v->given[P_DB]) {
        norm_tiling_t t1 = t; /* the default double buffering falls back to one buffer when that fits a row */
        norm_ub_t u1;
        t1.depth = 1;
        dv_norm_ub_layout(&t1, 1, 0, cfg->ub_align_bytes, &u1);
        if (u1.total <= cfg->ub_size_bytes) {
            char a[32], b[32];
            snprintf(why_db, sizeof why_db, "auto 2 does not fit UB: %s > %s B",
                     dv_ops_thousands(u.total, a, sizeof a), dv_ops_thousands(cfg->ub_size_bytes, b, sizeof b));
            t.depth = 1;
            u = u1;
        }
    }
    if (u.total > cfg->ub_size_bytes) {
        if (kind != NK_BATCHNORM) {
            char hint[160] = "";
            norm_tiling_t t1 = t;
            norm_ub_t u1;
            t1.depth = 1;
            dv_norm_ub_layout(&t1, 1, 0, cfg->ub_align_bytes, &u1);
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
            dv_norm_ub_layout(&t, 1, 0, cfg->ub_align_bytes, &u);
            if (u.total <= cfg->ub_size_bytes)
                lo = mid;
            else
                hi = mid - 1;
        }
        if (lo == 0) {
            t.seg = LANES;
            dv_norm_ub_layout(&t, 1, 0, cfg->ub_align_bytes, &u);
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
        dv_norm_ub_layout(&t, t.tile_rows, 0, cfg->ub_align_bytes, &u);
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

    dv_ops_tiling_row(plan, "buffers", why_db, "%u", t.depth);
    dv_ops_tiling_row(plan, "tile-rows", "", "%llu", (unsigned long long)t.tile_rows);
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
        plan->own_args |= 1u << t.a_p[i];
        if ((rc = dv_ops_add_arg(plan, bn ? bn_names[i] : ln_names[i], t.dt, bn ? t.channels : t.cols, DV_ARG_IN,
                                 bn ? bn_lo[i] : ln_lo[i], bn ? bn_hi[i] : ln_hi[i])) != DV_OK)
            return rc;
    }
    t.a_y = a++;
    if ((rc = dv_ops_add_arg(plan, "y", t.dt, n, DV_ARG_OUT, 0, 0)) != DV_OK)
        return rc;
    if (t.stats && kind == NK_LAYERNORM) {
        t.a_mean = a++;
        if ((rc = dv_ops_add_arg(plan, "mean", DV_DT_F32, t.rows, DV_ARG_OUT, 0, 0)) != DV_OK)
            return rc;
    }
    if (t.stats) { /* layernorm and rmsnorm */
        t.a_rstd = a++;
        if ((rc = dv_ops_add_arg(plan, "rstd", DV_DT_F32, t.rows, DV_ARG_OUT, 0, 0)) != DV_OK)
            return rc;
    }

    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    /* useful arithmetic per element: softmax max, sub, exp, sum, mul; layernorm sum, sub, square,
     * sum, mul, mul, add; rmsnorm square, sum, mul, mul; batchnorm mul, add */
    static const uint64_t per_elem[] = {5, 7, 4, 2};
    plan->flops = per_elem[kind] * n;
    plan->bytes = 2 * n * size + (kind == NK_BATCHNORM ? 4 * t.channels : t.nparams * t.cols) * size +
                  (t.stats ? (kind == NK_LAYERNORM ? 2 : 1) * t.rows * 4 : 0);
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
            if (t.stats)
                dv_ops_store(expect[t.a_rstd], DV_DT_F32, r, b);
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

/* As a graph node: the tensor to normalise is the one input (the parameter vectors and statistics
 * are the operator's own arguments). */
static int norm_bind(const dv_opdesc_t *op, const dv_tensor_desc_t *in, int nin, dv_opvals_t *v, dv_tensor_desc_t *out,
                     dv_error_t *err)
{
    if (nin != 1)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "%s takes 1 input, %d given", op->name, nin);
    return dv_ops_bind_same(op, in, nin, v, out, err);
}

/* ================================================================ descriptors */

const dv_opdesc_t dv_op_softmax = {
    "softmax", "y = exp(x - max) / sum(exp(x - max)) over the last axis (fp32 arithmetic)",
    softmax_params, P_EPS, softmax_plan, dv_norm_kernel, norm_reference, norm_bind, &dv_norm_tile_ops, NULL,
};

const dv_opdesc_t dv_op_layernorm = {
    "layernorm", "y = (x - mean) / sqrt(var + eps) * gamma + beta over the last axis (fp32 arithmetic); "
    "--stats on also outputs mean and rstd",
    ln_params, P_COUNT, layernorm_plan, dv_norm_kernel, norm_reference, norm_bind, &dv_norm_tile_ops, NULL,
};

const dv_opdesc_t dv_op_rmsnorm = {
    "rmsnorm", "y = x / sqrt(mean(x^2) + eps) * gamma over the last axis (fp32 arithmetic)",
    rms_params, P_COUNT, rmsnorm_plan, dv_norm_kernel, norm_reference, norm_bind, &dv_norm_tile_ops, NULL,
};

const dv_opdesc_t dv_op_batchnorm = {
    "batchnorm", "inference y = (x - mean[c]) / sqrt(var[c] + eps) * gamma[c] + beta[c] on NCHW (fp32 arithmetic)",
    bn_params, P_STATS, batchnorm_plan, dv_norm_kernel, norm_reference, norm_bind, &dv_norm_tile_ops, NULL,
};
