/* ops/layout.c - data-layout operators: slice (YOLOv5's Focus takes four of them), concat and
 * transpose, and (s20-move, at the end, each with its own comment) index_select, tile, trilu, roll,
 * flip, pad, eye, one_hot and gather_elements.  They move bytes and compute nothing, so every result
 * is bit-exact.
 *
 * Data paths.  The ISA has no GM -> GM copy and no element gather (no GatherMask / vreducev2), so:
 * - Rows move GM -> UB -> GM by DMA.  A row run whose length and gap are whole 32-B blocks uses
 *   copy_gm_to_ubuf / copy_ubuf_to_gm; any other uses DataCopyPad (copy_*_align: exact bytes on the
 *   GM side, every row 32-B aligned in UB), which the plans then require of the chip (chip.dma_pad:
 *   so the 910A runs crops, concat and transpose of whole-block rows, and no column step).  Row
 *   steps and row pitches are DMA gaps (slice's row step sh is a GM gap of (sh*W - span) elements).
 * - Element granularity comes from vtranspose.  Vector operands move in 32-B blocks (block and
 *   repeat strides); an element keeps its place within its block.  A 16x16 transpose of 16-bit
 *   units turns 16 columns of a 16-row slab into 16 blocks, which block strides then pick and
 *   reorder freely, and a second transpose turns them back into rows.  Every element moves as 16-bit units (fp32: two), with
 *   vcopy and vtranspose in u16, so any bits pass unchanged.  The steps are:
 *     gather    vcopy: a UB slab of 16 rows (any pitch) -> contiguous 16x16 matrices of 16-bit units
 *     transpose vtranspose each matrix (512 B each side; dst and src never overlap)
 *     pick      vcopy with block strides: the blocks (= columns) wanted, in the order wanted
 *     transpose again
 *     scatter   vcopy: matrices -> the rows of the output slab, which one DMA writes out.
 *   Dependent vector steps are separated by pipe_barrier(V), as in Ascend C.  Partial matrices
 *   (fewer than 16 rows or columns) carry stale UB bytes through the steps; they land in columns
 *   and rows the output DMA never writes.
 *
 * slice: y = x[..., h0::sh, w0::sw][:Ho, :Wo] on the last two axes.  A unit is 16 output rows (of
 * the flattened ...xHo rows, so a unit may span planes: one DMA per plane run) by a chunk of
 * output columns.  With sw = 1 no vector work is needed: the unit's rows go GM -> UB -> GM through
 * one MTE2 -> MTE3 queue, and a unit holds as many rows as fit half the UB (fewer when that spreads
 * the rows over more cores).  With sw > 1 each row's span (w0 + j*sw for the chunk's columns j) is
 * loaded, the 16x16 matrices put 16-bit column u of the span in block u, and the pick copies block
 * e*j*sw + i to block e*j + i (e = 16-bit units per element, i < e: one vcopy per i, 8 columns a
 * repeat; block stride e*sw is at most 255, the VUNARY field).  Chunks are as wide as the UB holds
 * (queues in and out double-buffered, two work buffers).
 *
 * concat: x1..xN (N = --inputs, 2 to 4) along --axis.  Seen as [outer, len_i] rows (len_i = the
 * input's axis length x the elements after the axis), input i's rows land at column off_i of the
 * [outer, sum len_i] output: units of whole rows (or, for rows longer than a unit, row chunks of
 * whole 32-B blocks) go GM -> UB -> GM through an MTE2 -> MTE3 queue; the output DMA's GM gap skips
 * the other inputs' columns.  Units are sized so that the whole output splits over the cores.
 *
 * transpose: [..., R, C] -> [..., C, R].  A unit is rr x cc of one plane: rr a multiple of 16 (up to
 * 128 first), cc of 16 (16-bit types) or 64 (32-bit types) as wide as six unit buffers fit the UB
 * (128 x 128 fp16 fills the 910B's 192 KB), then rr grown up to 240 if the columns ran out (the
 * output rows are the DMA bursts out).  16-bit types: gather, transpose, scatter.  32-bit types: a 16-bit unit index within 16 rows x
 * 64 columns has the bits r3 r2 r1 r0 | c5 c4 c3 | c2 c1 c0 h (h: which half), the target c | r3 | r2
 * r1 r0 h.  A transpose only swaps the low 4 bits (inside a block) with the next 4, and block copies
 * only move the bits above the low 4, so h, inside the block in both layouts, needs two transposes:
 * gather (blocks r3 c5 c4 c3 in matrices r2 r1 r0), transpose, regroup (blocks r2 r1 r0 h in
 * matrices c2 c1 c0), transpose, scatter.  The output DMA writes cc rows of the unit's rr elements.
 *
 * The references copy element by element in plain C. */
#include "../kernel/kapi_emit.h" /* dvk_<mnemonic> write into the stream (before dv/kapi.h) */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/ops.h"

enum {
    BLK = 32,        /* bytes of a DMA block and of a vector datablock */
    UNITS = 16,      /* 16-bit units per block: a 16x16 matrix is 16 blocks */
    MAT = 512,       /* bytes of one 16x16 matrix of 16-bit units (vtranspose) */
    MAT_ROWS = 16,
    MAX_INPUTS = 4,  /* concat */
    UB_BUFFERS = 6   /* slice (picking) and transpose: 2 in + 2 work + 2 out */
};

/* Element types that move as 16-bit units (slice, transpose); concat moves bytes. */
#define UNIT_DTYPES (DT_F16 | DT_BF16 | DT_F32 | DT_S16 | DT_S32)
#define BYTE_DTYPES (DT_F16 | DT_BF16 | DT_F32 | DT_S8 | DT_U8 | DT_S16 | DT_S32)

/* ================================================================ shared */

/* The elements of a shape, checked to fit HBM as one tensor. */
static int tensor_elems(const dv_config_t *cfg, const char *param, const char *what, const dv_shape_t *s,
                        unsigned size, uint64_t *elems, dv_error_t *err)
{
    uint64_t n = dv_shape_elems(s), bytes;
    if (n == 0 || __builtin_mul_overflow(n, (uint64_t)size, &bytes))
        return dv_ops_param_error(err, param, "%s has more than 2^64 bytes, hbm.capacity_bytes is %llu", what,
                                  (unsigned long long)cfg->hbm_capacity_bytes);
    if (bytes > cfg->hbm_capacity_bytes)
        return dv_ops_param_error(err, param, "%s has %llu bytes, hbm.capacity_bytes is %llu", what,
                                  (unsigned long long)bytes, (unsigned long long)cfg->hbm_capacity_bytes);
    *elems = n;
    return DV_OK;
}

/* Fail a plan whose DMA runs are not whole 32-B blocks on a chip without DataCopyPad. */
static int need_pad(const dv_config_t *cfg, const char *param, const char *what, uint64_t len, uint64_t stride,
                    dv_error_t *err)
{
    if (cfg->chip_dma_pad || (len % BLK == 0 && stride % BLK == 0))
        return DV_OK;
    return dv_ops_param_error(err, param, "%s: runs of %llu bytes every %llu bytes are not whole 32-byte blocks, and "
                              "profile %s has no DataCopyPad (chip.dma_pad is false)", what, (unsigned long long)len,
                              (unsigned long long)stride, cfg->chip_name);
}

/* A graph input's dtype must be one the operator's --dtype takes. */
static int bind_dtype(const dv_opdesc_t *op, int pd, const dv_tensor_desc_t *in, int i, dv_error_t *err)
{
    if (op->params[pd].dtypes & (1u << in->dtype))
        return DV_OK;
    char list[128];
    dv_ops_dtype_list(op->params[pd].dtypes, list, sizeof list);
    return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input %d is %s; %s takes %s", i + 1,
                        dv_ops_dtype_name(in->dtype), op->name, list);
}

/* Units [first, end) of this block: as even as whole units allow. */
static void block_units(dv_k_t *k, uint64_t units, uint64_t *first, uint64_t *end)
{
    const uint64_t b = dvk_block_idx(k), nb = dvk_block_num(k), base = units / nb, rem = units % nb;
    *first = b * base + dv_min_u64(b, rem);
    *end = *first + base + (b < rem);
}

static uint64_t ub_need(const dv_config_t *cfg, uint64_t bytes)
{
    return dv_round_up(bytes, cfg->ub_align_bytes ? cfg->ub_align_bytes : 1);
}


/* ---- vector block moves (16-bit units, so any bits pass unchanged) ---- */

/* For r < nrep and b < nblk (1..8): block r*dr + b*db of dst <- block r*sr + b*sb of src (strides
 * in 32-B blocks; block strides at most 255).  A repeat of fewer than 8 blocks runs under a mask of
 * its first blocks; repeat strides beyond the field take one instruction per repeat. */
static void bcopy(dv_k_t *k, uint64_t dst, uint64_t src, unsigned nblk, uint64_t db, uint64_t sb, uint64_t nrep,
                  uint64_t dr, uint64_t sr)
{
    const uint64_t max_rep = dv_ops_field_max(DV_FORM_VUNARY, DV_FLD(VUNARY, repeat));
    const uint64_t max_stride = dv_ops_field_max(DV_FORM_VUNARY, DV_FLD(VUNARY, dst_rep));
    if (nrep == 0 || nblk == 0)
        return;
    if (nblk == 1)
        db = sb = 1; /* unused */
    if (nblk < 8)
        dvk_mask_first(k, DV_DT_U16, nblk * UNITS);
    if (dr <= max_stride && sr <= max_stride) {
        for (uint64_t r = 0; r < nrep;) {
            const uint64_t n = dv_min_u64(max_rep, nrep - r);
            dvk_vcopy(k, dst + r * dr * BLK, src + r * sr * BLK, DV_DT_U16, (int64_t)n, (int64_t)db, (int64_t)sb,
                      (int64_t)dr, (int64_t)sr);
            r += n;
        }
    } else {
        for (uint64_t r = 0; r < nrep; r++)
            dvk_vcopy(k, dst + r * dr * BLK, src + r * sr * BLK, DV_DT_U16, 1, (int64_t)db, (int64_t)sb, 8, 8);
    }
    if (nblk < 8)
        dvk_mask_all(k);
}

/* Two nested walks: for i < n1, j < n2 and b < nblk, block i*d1 + j*d2 + b*db of dst <- block
 * i*s1 + j*s2 + b*sb of src.  The repeats take the walk with more steps whose strides fit the
 * repeat-stride field, one instruction per step of the other (fewer instructions to issue). */
static void bcopy2(dv_k_t *k, uint64_t dst, uint64_t src, unsigned nblk, uint64_t db, uint64_t sb, uint64_t n1,
                   uint64_t d1, uint64_t s1, uint64_t n2, uint64_t d2, uint64_t s2)
{
    const uint64_t max_stride = dv_ops_field_max(DV_FORM_VUNARY, DV_FLD(VUNARY, dst_rep));
    const bool fits1 = d1 <= max_stride && s1 <= max_stride, fits2 = d2 <= max_stride && s2 <= max_stride;
    if (fits1 && (!fits2 || n1 >= n2))
        for (uint64_t j = 0; j < n2; j++)
            bcopy(k, dst + j * d2 * BLK, src + j * s2 * BLK, nblk, db, sb, n1, d1, s1);
    else
        for (uint64_t i = 0; i < n1; i++)
            bcopy(k, dst + i * d1 * BLK, src + i * s1 * BLK, nblk, db, sb, n2, d2, s2);
}

/* n blocks in a line: block i*db of dst <- block i*sb of src, 8 a repeat and a masked tail. */
static void bcopy_line(dv_k_t *k, uint64_t dst, uint64_t src, uint64_t n, uint64_t db, uint64_t sb)
{
    const uint64_t full = n / 8;
    bcopy(k, dst, src, 8, db, sb, full, 8 * db, 8 * sb);
    if (n % 8)
        bcopy(k, dst + full * 8 * db * BLK, src + full * 8 * sb * BLK, (unsigned)(n % 8), db, sb, 1, 8, 8);
}

/* Transpose n consecutive 16x16 matrices of 16-bit units: matrix i of dst <- matrix i of src. */
static void transpose_mats(dv_k_t *k, uint64_t dst, uint64_t src, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        dvk_vtranspose(k, dst + i * MAT, src + i * MAT, DV_DT_U16);
}

/* 16 rows of a slab (pitch in blocks) -> n matrices: matrix m holds the rows' blocks m. */
static void rows_to_mats(dv_k_t *k, uint64_t mats, uint64_t slab, uint64_t pitch_blk, uint64_t n)
{
    for (unsigned h = 0; h < 2; h++)
        bcopy(k, mats + h * 8 * BLK, slab + h * 8 * pitch_blk * BLK, 8, 1, pitch_blk, n, MAT / BLK, 1);
}

/* n matrices -> 16 rows of a slab: block m of row r <- block r of matrix m. */
static void mats_to_rows(dv_k_t *k, uint64_t slab, uint64_t pitch_blk, uint64_t mats, uint64_t n)
{
    for (unsigned h = 0; h < 2; h++)
        bcopy(k, slab + h * 8 * pitch_blk * BLK, mats + h * 8 * BLK, 8, pitch_blk, 1, n, 1, MAT / BLK);
}

/* ================================================================ slice */

enum { SL_SHAPE, SL_DTYPE, SL_START, SL_STEP, SL_SIZE, SL_CORES, SL_COUNT };

static const dv_oparam_spec_t slice_params[SL_COUNT] = {
    [SL_SHAPE] = {"shape", DV_OPT_SHAPE, "1x3x640x640", 1, INT64_C(1) << 40, 0,
                  "input shape ...xHxW (2 to 6 dimensions); the slice is taken on the last two axes"},
    [SL_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, UNIT_DTYPES, "element type (moved as 16-bit units)"},
    [SL_START] = {"start", DV_OPT_TILE, "0x0", 0, INT64_C(1) << 40, 0, "first row x first column taken: h0 x w0"},
    [SL_STEP] = {"step", DV_OPT_TILE, "1x1", 1, INT64_C(1) << 40, 0,
                 "row step x column step: y = x[..., h0::sh, w0::sw]; the column step times the 16-bit units per "
                 "element is at most 255 (a vcopy block stride)"},
    [SL_SIZE] = {"size", DV_OPT_TILE, "auto", 1, INT64_C(1) << 40, 0,
                 "output rows x columns (auto: every row and column that start and step reach)"},
    [SL_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0, "blocks (auto: every vector core); at most one per unit"},
};

typedef struct slice_geom {
    uint64_t planes, h, w;  /* the input as planes x H x W */
    uint64_t h0, w0, sh, sw;
    uint64_t ho, wo;        /* the output planes are ho x wo */
} slice_geom_t;

typedef struct slice_tiling {
    slice_geom_t g;
    uint32_t dtype, size, e;    /* e: 16-bit units per element */
    uint32_t pick;              /* sw > 1: the vector unit picks the columns */
    uint64_t gr, wc;            /* a unit: output rows x output columns */
    uint64_t nchunks, units;
    uint64_t in_pitch;          /* UB bytes per row of an input buffer */
    uint64_t out_pitch;         /* pick: UB bytes per row of an output buffer */
    uint64_t mats;              /* pick: matrices per work buffer */
} slice_tiling_t;

/* The geometry of --start, --step, --size on an input shape. */
static int slice_geometry(const dv_opvals_t *v, const dv_shape_t *s, slice_geom_t *g, dv_error_t *err)
{
    memset(g, 0, sizeof *g);
    if (s->ndims < 2)
        return dv_ops_param_error(err, "shape", "slice works on the last two axes: give 2 to %d dimensions (%d given)",
                                  DV_SHAPE_MAX, s->ndims);
    const int nd = s->ndims;
    g->h = s->d[nd - 2];
    g->w = s->d[nd - 1];
    g->planes = 1;
    for (int i = 0; i < nd - 2; i++)
        g->planes *= s->d[i]; /* the caller checked the product */
    g->h0 = v->v[SL_START].shape.d[0];
    g->w0 = v->v[SL_START].shape.d[1];
    g->sh = v->v[SL_STEP].shape.d[0];
    g->sw = v->v[SL_STEP].shape.d[1];
    if (g->h0 >= g->h)
        return dv_ops_param_error(err, "start", "row %llu is outside the input's %llu rows",
                                  (unsigned long long)g->h0, (unsigned long long)g->h);
    if (g->w0 >= g->w)
        return dv_ops_param_error(err, "start", "column %llu is outside the input's %llu columns",
                                  (unsigned long long)g->w0, (unsigned long long)g->w);
    g->ho = (g->h - 1 - g->h0) / g->sh + 1;
    g->wo = (g->w - 1 - g->w0) / g->sw + 1;
    const dv_shape_t *sz = &v->v[SL_SIZE].shape;
    if (sz->ndims == 2) {
        static const char *const what[2] = {"rows", "columns"};
        const uint64_t got[2] = {g->ho, g->wo}, first[2] = {g->h0, g->w0}, step[2] = {g->sh, g->sw},
                       have[2] = {g->h, g->w};
        for (int i = 0; i < 2; i++)
            if (sz->d[i] > got[i])
                return dv_ops_param_error(err, "size", "%llu %s do not fit: from %llu with step %llu the input's %llu "
                                          "%s give at most %llu", (unsigned long long)sz->d[i], what[i],
                                          (unsigned long long)first[i], (unsigned long long)step[i],
                                          (unsigned long long)have[i], what[i], (unsigned long long)got[i]);
        g->ho = sz->d[0];
        g->wo = sz->d[1];
    }
    /* a single row or column takes no step (and a huge step then cannot overflow a GM stride) */
    if (g->ho == 1)
        g->sh = 1;
    if (g->wo == 1)
        g->sw = 1;
    return DV_OK;
}

/* Input elements of one output row's span of n columns. */
static uint64_t slice_span(const slice_geom_t *g, uint64_t n) { return (n - 1) * g->sw + 1; }

/* UB bytes of a picking unit wc columns wide (the six buffers). */
static uint64_t slice_pick_ub(const dv_config_t *cfg, const slice_tiling_t *t, uint64_t wc, uint64_t *in_pitch,
                              uint64_t *out_pitch)
{
    *in_pitch = dv_ceil_div(slice_span(&t->g, wc) * t->e, UNITS) * BLK;
    *out_pitch = dv_ceil_div(wc * t->e, UNITS) * BLK;
    return 4 * ub_need(cfg, MAT_ROWS * *in_pitch) + 2 * ub_need(cfg, MAT_ROWS * *out_pitch);
}

static int slice_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                      dv_error_t *err)
{
    const dv_shape_t *s = &v->v[SL_SHAPE].shape;
    const dv_dtype_t dt = v->v[SL_DTYPE].dt;
    slice_tiling_t t;
    memset(&t, 0, sizeof t);
    t.dtype = (uint32_t)dt;
    t.size = dv_dtype_size(dt);
    t.e = t.size / 2;
    uint64_t n_in;
    int rc = tensor_elems(cfg, "shape", "the input", s, t.size, &n_in, err);
    if (rc == DV_OK)
        rc = slice_geometry(v, s, &t.g, err);
    if (rc != DV_OK)
        return rc;
    const slice_geom_t *g = &t.g;
    const uint64_t rows = g->planes * g->ho, n_out = rows * g->wo;
    const uint64_t cores = v->v[SL_CORES].i ? (uint64_t)v->v[SL_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    t.pick = g->sw > 1;
    if (t.pick) {
        const uint64_t max_blk = dv_ops_field_max(DV_FORM_VUNARY, DV_FLD(VUNARY, src_blk));
        if ((uint64_t)t.e * g->sw > max_blk)
            return dv_ops_param_error(err, "step", "a column step of %llu %s elements is a vcopy block stride of %llu "
                                      "(%u 16-bit units each), the limit is %llu (src_blk)",
                                      (unsigned long long)g->sw, dv_ops_dtype_name(dt),
                                      (unsigned long long)(t.e * g->sw), t.e, (unsigned long long)max_blk);
        /* the widest chunk whose buffers fit and whose slab rows a gather can stride over */
        uint64_t lo = 1, hi = g->wo, ip, opch;
        if (slice_pick_ub(cfg, &t, 1, &ip, &opch) > cfg->ub_size_bytes)
            return dv_ops_param_error(err, "step", "one output column needs %llu bytes of UB (%d buffers of 16 rows), "
                                      "core.ub_size_bytes is %llu",
                                      (unsigned long long)slice_pick_ub(cfg, &t, 1, &ip, &opch), UB_BUFFERS,
                                      (unsigned long long)cfg->ub_size_bytes);
        while (lo < hi) {
            const uint64_t mid = hi - (hi - lo) / 2;
            if (slice_pick_ub(cfg, &t, mid, &ip, &opch) <= cfg->ub_size_bytes && ip / BLK <= max_blk)
                lo = mid;
            else
                hi = mid - 1;
        }
        t.wc = lo < g->wo && lo >= UNITS ? lo - lo % UNITS : lo;
        slice_pick_ub(cfg, &t, t.wc, &t.in_pitch, &t.out_pitch);
        t.mats = t.in_pitch / BLK;
        t.gr = MAT_ROWS;
    } else {
        const uint64_t half = cfg->ub_size_bytes / 2 / BLK * BLK;
        const uint64_t wmax = half / t.size;
        if (wmax == 0)
            return dv_ops_param_error(err, "shape", "core.ub_size_bytes %llu holds no double-buffered element",
                                      (unsigned long long)cfg->ub_size_bytes);
        t.wc = g->wo <= wmax ? g->wo : dv_max_u64(wmax - wmax % UNITS, 1);
        t.in_pitch = dv_round_up(t.wc * t.size, BLK);
    }
    t.nchunks = dv_ceil_div(g->wo, t.wc);
    if (!t.pick) {
        const uint64_t fit = dv_max_u64(1, cfg->ub_size_bytes / 2 / ub_need(cfg, t.in_pitch));
        t.gr = dv_min_u64(fit, dv_ceil_div(rows, dv_ceil_div(cores, t.nchunks)));
        if (2 * ub_need(cfg, t.gr * t.in_pitch) > cfg->ub_size_bytes)
            return dv_ops_param_error(err, "shape", "two buffers of one %llu-byte row need %llu bytes of UB, "
                                      "core.ub_size_bytes is %llu", (unsigned long long)t.in_pitch,
                                      (unsigned long long)(2 * ub_need(cfg, t.gr * t.in_pitch)),
                                      (unsigned long long)cfg->ub_size_bytes);
    }
    t.units = dv_ceil_div(rows, t.gr) * t.nchunks;

    /* GM runs: each chunk's span every sh input rows, and its columns of each output row */
    const uint64_t last = g->wo - (t.nchunks - 1) * t.wc;
    const uint64_t spans[2] = {slice_span(g, t.wc), slice_span(g, last)}, outs[2] = {t.wc, last};
    for (int i = 0; i < 2; i++) {
        if ((rc = need_pad(cfg, t.pick ? "step" : "shape", "input rows", spans[i] * t.size, g->sh * g->w * t.size,
                           err)) != DV_OK ||
            (rc = need_pad(cfg, "shape", "output rows", outs[i] * t.size, g->wo * t.size, err)) != DV_OK)
            return rc;
    }

    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_min_u64(cores, t.units);
    plan->info.subs = 1;
    if ((rc = dv_ops_add_arg(plan, "x", dt, n_in, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "y", dt, n_out, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 0;
    plan->bytes = rows * ((t.nchunks - 1) * spans[0] + spans[1]) * t.size + n_out * t.size;
    plan->tol_scale = 1.0;
    return DV_OK;
}

/* A unit's input rows (flattened output rows R0.., the chunk's span from input column c0) into
 * UB: one DMA per run of rows within a plane. */
static void slice_load(dv_k_t *k, const slice_tiling_t *t, uint64_t ub, uint64_t R0, uint64_t nr, uint64_t c0,
                       uint64_t span)
{
    const slice_geom_t *g = &t->g;
    for (uint64_t r = 0; r < nr;) {
        const uint64_t R = R0 + r, plane = R / g->ho, i = R % g->ho, run = dv_min_u64(nr - r, g->ho - i);
        const uint64_t row = plane * g->h + g->h0 + i * g->sh;
        dv_ops_rows_move(k, false, ub + r * t->in_pitch, t->in_pitch, 0, (row * g->w + c0) * t->size,
                         g->sh * g->w * t->size, run, span * t->size);
        r += run;
    }
}

/* The picking steps of one unit: input slab `in` (16 rows of the span) -> output slab `out`. */
static void slice_pick(dv_k_t *k, const slice_tiling_t *t, dv_que_t *inq, uint64_t in, uint64_t a, uint64_t b,
                       uint64_t out, uint64_t span, uint64_t nc)
{
    const uint64_t e = t->e, ntc = dv_ceil_div(span * e, UNITS), nq = dv_ceil_div(nc * e, UNITS);
    rows_to_mats(k, a, in, t->in_pitch / BLK, ntc);
    dvk_que_free(k, inq, in);
    dvk_pipe_barrier(k, DV_PIPE_V);
    transpose_mats(k, b, a, ntc); /* block u of b: 16-bit column u of the span */
    dvk_pipe_barrier(k, DV_PIPE_V);
    for (uint64_t i = 0; i < e; i++) /* block e*j + i <- block e*j*sw + i */
        bcopy_line(k, a + i * BLK, b + i * BLK, nc, e, e * t->g.sw);
    dvk_pipe_barrier(k, DV_PIPE_V);
    transpose_mats(k, b, a, nq); /* matrix q: the 16 rows' 16-bit columns 16q.. of the output */
    dvk_pipe_barrier(k, DV_PIPE_V);
    mats_to_rows(k, out, t->out_pitch / BLK, b, nq);
}

static void slice_kernel(dv_k_t *k, const void *params)
{
    const slice_tiling_t *t = params;
    const slice_geom_t *g = &t->g;
    uint64_t first, end;
    block_units(k, t->units, &first, &end);
    if (first == end)
        return;
    const uint64_t rows = g->planes * g->ho;
    dv_que_t inq, outq;
    uint64_t a = 0, b = 0;
    if (t->pick) {
        dvk_que_init(k, &inq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 2, MAT_ROWS * t->in_pitch);
        dvk_que_init(k, &outq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 2, MAT_ROWS * t->out_pitch);
        a = dvk_alloc(k, DV_SPACE_UB, t->mats * MAT);
        b = dvk_alloc(k, DV_SPACE_UB, t->mats * MAT);
    } else {
        dvk_que_init(k, &inq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_MTE3, 2, t->gr * t->in_pitch);
    }
    for (uint64_t u = first; u < end; u++) {
        const uint64_t R0 = u / t->nchunks * t->gr, nr = dv_min_u64(t->gr, rows - R0);
        const uint64_t j0 = u % t->nchunks * t->wc, nc = dv_min_u64(t->wc, g->wo - j0), span = slice_span(g, nc);
        uint64_t buf = dvk_que_alloc(k, &inq);
        slice_load(k, t, buf, R0, nr, g->w0 + j0 * g->sw, span);
        dvk_que_enque(k, &inq, buf);
        buf = dvk_que_deque(k, &inq);
        dv_que_t *q = &inq;
        uint64_t pitch = t->in_pitch;
        if (t->pick) {
            const uint64_t out = dvk_que_alloc(k, &outq);
            slice_pick(k, t, &inq, buf, a, b, out, span, nc);
            dvk_que_enque(k, &outq, out);
            buf = dvk_que_deque(k, &outq);
            q = &outq;
            pitch = t->out_pitch;
        }
        dv_ops_rows_move(k, true, buf, pitch, 1, (R0 * g->wo + j0) * t->size, g->wo * t->size, nr, nc * t->size);
        dvk_que_free(k, q, buf);
    }
}

static int slice_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    slice_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const slice_geom_t *g = &t.g;
    for (uint64_t p = 0; p < g->planes; p++)
        for (uint64_t i = 0; i < g->ho; i++)
            for (uint64_t j = 0; j < g->wo; j++)
                memcpy(expect[1] + ((p * g->ho + i) * g->wo + j) * t.size,
                       in[0] + ((p * g->h + g->h0 + i * g->sh) * g->w + g->w0 + j * g->sw) * t.size, t.size);
    return DV_OK;
}

static int slice_bind(const dv_opdesc_t *op, const dv_tensor_desc_t *in, int nin, dv_opvals_t *v,
                      dv_tensor_desc_t *out, dv_error_t *err)
{
    if (nin != 1)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "slice takes one input, the node has %d", nin);
    if (in[0].shape.ndims < 2)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input 1 has %d dimension%s; slice works on the last two "
                            "axes", in[0].shape.ndims, in[0].shape.ndims == 1 ? "" : "s");
    int rc = bind_dtype(op, SL_DTYPE, &in[0], 0, err);
    if (rc != DV_OK)
        return rc;
    slice_geom_t g;
    if ((rc = slice_geometry(v, &in[0].shape, &g, err)) != DV_OK)
        return rc;
    v->v[SL_SHAPE].shape = in[0].shape;
    v->given[SL_SHAPE] = true;
    v->v[SL_DTYPE].dt = in[0].dtype;
    v->given[SL_DTYPE] = true;
    *out = in[0];
    out->shape.d[out->shape.ndims - 2] = g.ho;
    out->shape.d[out->shape.ndims - 1] = g.wo;
    return DV_OK;
}

/* slice (ops/ops.def row). */
const dv_opdesc_t dv_op_slice = {
    .name = "slice",
    .desc = "y = x[..., h0::sh, w0::sw] on the last two axes (YOLOv5 Focus: four of them with --step 2x2); "
            "column steps pick through vtranspose",
    .params = slice_params, .nparams = SL_COUNT, .plan = slice_plan, .kernel = slice_kernel,
    .reference = slice_reference, .bind = slice_bind};

/* ================================================================ concat */

enum { CC_SHAPE, CC_DTYPE, CC_INPUTS, CC_AXIS, CC_SIZES, CC_CORES, CC_COUNT };

static const dv_oparam_spec_t concat_params[CC_COUNT] = {
    [CC_SHAPE] = {"shape", DV_OPT_SHAPE, "1x64x80x80", 1, INT64_C(1) << 40, 0,
                  "shape of input 1; every input has it but along --axis (--sizes)"},
    [CC_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, BYTE_DTYPES, "element type of every tensor"},
    [CC_INPUTS] = {"inputs", DV_OPT_INT, "2", 2, MAX_INPUTS, 0, "number of inputs x1..xN, concatenated in this order"},
    [CC_AXIS] = {"axis", DV_OPT_INT, "1", 0, DV_SHAPE_MAX - 1, 0, "axis to concatenate along, from 0 (1: C of NCHW)"},
    [CC_SIZES] = {"sizes", DV_OPT_SHAPE, "auto", 1, INT64_C(1) << 40, 0,
                  "each input's length along --axis, AxBx..., one per input, the first --shape's (auto: all "
                  "--shape's)"},
    [CC_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0, "blocks (auto: every vector core); at most one per unit"},
};

typedef struct concat_part {
    uint64_t len;    /* elements of one of its rows: axis length x the elements after the axis */
    uint64_t off;    /* its first column in an output row */
    uint64_t cc;     /* columns per unit: the row, or a whole number of 32-B blocks of it */
    uint64_t nch;    /* units across a row */
    uint64_t gr;     /* rows per unit */
    uint64_t units;  /* ceil(outer / gr) * nch */
} concat_part_t;

typedef struct concat_tiling {
    uint32_t dtype, size, n;
    uint64_t outer;             /* rows: the elements before the axis */
    uint64_t total;             /* elements of an output row */
    uint64_t buf;               /* UB bytes of a queue buffer */
    uint64_t units;
    concat_part_t p[MAX_INPUTS];
} concat_tiling_t;

static int concat_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                       dv_error_t *err)
{
    const dv_shape_t *s = &v->v[CC_SHAPE].shape, *sz = &v->v[CC_SIZES].shape;
    const dv_dtype_t dt = v->v[CC_DTYPE].dt;
    const int n = (int)v->v[CC_INPUTS].i, axis = (int)v->v[CC_AXIS].i;
    concat_tiling_t t;
    memset(&t, 0, sizeof t);
    t.dtype = (uint32_t)dt;
    t.size = dv_dtype_size(dt);
    t.n = (uint32_t)n;
    if (axis >= s->ndims)
        return dv_ops_param_error(err, "axis", "%d is not an axis of the %d-dimensional --shape (0 to %d)", axis,
                                  s->ndims, s->ndims - 1);
    uint64_t len[MAX_INPUTS];
    if (sz->ndims == 0) {
        for (int i = 0; i < n; i++)
            len[i] = s->d[axis];
    } else {
        if (sz->ndims != n)
            return dv_ops_param_error(err, "sizes", "%d lengths given for --inputs %d", sz->ndims, n);
        if (sz->d[0] != s->d[axis])
            return dv_ops_param_error(err, "sizes", "input 1's length %llu differs from --shape's %llu in axis %d",
                                      (unsigned long long)sz->d[0], (unsigned long long)s->d[axis], axis);
        for (int i = 0; i < n; i++)
            len[i] = sz->d[i];
    }
    /* every input, and the output, must fit HBM as a tensor */
    dv_shape_t os = *s;
    os.d[axis] = 0;
    uint64_t elems[MAX_INPUTS], n_out;
    int rc;
    for (int i = 0; i < n; i++) {
        dv_shape_t is = *s;
        is.d[axis] = len[i];
        char what[32];
        snprintf(what, sizeof what, "input %d", i + 1);
        if ((rc = tensor_elems(cfg, i == 0 ? "shape" : "sizes", what, &is, t.size, &elems[i], err)) != DV_OK)
            return rc;
        os.d[axis] += len[i];
    }
    if ((rc = tensor_elems(cfg, "sizes", "the output", &os, t.size, &n_out, err)) != DV_OK)
        return rc;
    t.outer = 1;
    uint64_t inner = 1;
    for (int d = 0; d < s->ndims; d++) {
        if (d < axis)
            t.outer *= s->d[d];
        else if (d > axis)
            inner *= s->d[d];
    }
    for (int i = 0; i < n; i++) {
        t.p[i].len = len[i] * inner;
        t.p[i].off = t.total;
        t.total += t.p[i].len;
    }
    for (int i = 0; i < n; i++) {
        char what[64];
        snprintf(what, sizeof what, "input %d's rows in the output", i + 1);
        if ((rc = need_pad(cfg, "shape", what, t.p[i].len * t.size, t.total * t.size, err)) != DV_OK)
            return rc;
    }

    /* units of about an even share of the output per core, at most half the UB (double-buffered) */
    const uint64_t cores = v->v[CC_CORES].i ? (uint64_t)v->v[CC_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    const uint64_t half = cfg->ub_size_bytes / 2 / BLK * BLK;
    if (half < BLK)
        return dv_ops_param_error(err, "shape", "core.ub_size_bytes %llu holds no double-buffered 32-B block",
                                  (unsigned long long)cfg->ub_size_bytes);
    const uint64_t target = dv_min_u64(half, dv_max_u64(BLK, dv_ceil_div(n_out * t.size, cores)));
    for (int i = 0; i < n; i++) {
        concat_part_t *p = &t.p[i];
        const uint64_t row = p->len * t.size;
        if (row <= target) {
            p->cc = p->len;
            p->gr = dv_min_u64(t.outer, dv_max_u64(1, target / dv_round_up(row, BLK)));
        } else {
            p->cc = dv_max_u64(1, target / BLK) * (BLK / t.size);
            p->gr = 1;
        }
        p->nch = dv_ceil_div(p->len, p->cc);
        p->units = dv_ceil_div(t.outer, p->gr) * p->nch;
        t.units += p->units;
        t.buf = dv_max_u64(t.buf, p->gr * dv_round_up(p->cc * t.size, BLK));
    }
    if (2 * ub_need(cfg, t.buf) > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "shape", "two %llu-byte buffers need %llu bytes of UB, core.ub_size_bytes is %llu",
                                  (unsigned long long)t.buf, (unsigned long long)(2 * ub_need(cfg, t.buf)),
                                  (unsigned long long)cfg->ub_size_bytes);

    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_min_u64(cores, t.units);
    plan->info.subs = 1;
    static const char *const names[MAX_INPUTS] = {"x1", "x2", "x3", "x4"};
    for (int i = 0; i < n; i++)
        if ((rc = dv_ops_add_arg(plan, names[i], dt, elems[i], DV_ARG_IN, 0, 0)) != DV_OK)
            return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    if ((rc = dv_ops_add_arg(plan, "y", dt, n_out, DV_ARG_OUT, 0, 0)) != DV_OK)
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 0;
    plan->bytes = 2 * n_out * t.size;
    plan->tol_scale = 1.0;
    return DV_OK;
}

static void concat_kernel(dv_k_t *k, const void *params)
{
    const concat_tiling_t *t = params;
    uint64_t first, end;
    block_units(k, t->units, &first, &end);
    if (first == end)
        return;
    dv_que_t q;
    dvk_que_init(k, &q, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_MTE3, 2, t->buf);
    uint32_t i = 0;
    uint64_t base = 0;
    for (uint64_t u = first; u < end; u++) {
        while (u >= base + t->p[i].units)
            base += t->p[i++].units;
        const concat_part_t *p = &t->p[i];
        const uint64_t local = u - base, r0 = local / p->nch * p->gr, nr = dv_min_u64(p->gr, t->outer - r0);
        const uint64_t c0 = local % p->nch * p->cc, nc = dv_min_u64(p->cc, p->len - c0);
        const uint64_t pitch = dv_round_up(p->cc * t->size, BLK);
        uint64_t buf = dvk_que_alloc(k, &q);
        dv_ops_rows_move(k, false, buf, pitch, i, (r0 * p->len + c0) * t->size, p->len * t->size, nr, nc * t->size);
        dvk_que_enque(k, &q, buf);
        buf = dvk_que_deque(k, &q);
        dv_ops_rows_move(k, true, buf, pitch, t->n, (r0 * t->total + p->off + c0) * t->size, t->total * t->size, nr,
                         nc * t->size);
        dvk_que_free(k, &q, buf);
    }
}

static int concat_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    concat_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    for (uint64_t r = 0; r < t.outer; r++)
        for (uint32_t i = 0; i < t.n; i++)
            memcpy(expect[t.n] + (r * t.total + t.p[i].off) * t.size, in[i] + r * t.p[i].len * t.size,
                   t.p[i].len * t.size);
    return DV_OK;
}

static int concat_bind(const dv_opdesc_t *op, const dv_tensor_desc_t *in, int nin, dv_opvals_t *v,
                       dv_tensor_desc_t *out, dv_error_t *err)
{
    if (nin < 2 || nin > MAX_INPUTS)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "concat takes 2 to %d inputs, the node has %d", MAX_INPUTS,
                            nin);
    if (v->given[CC_INPUTS] && v->v[CC_INPUTS].i != nin)
        return dv_ops_param_error(err, "inputs", "%lld given, the node has %d inputs", (long long)v->v[CC_INPUTS].i,
                                  nin);
    const int axis = (int)v->v[CC_AXIS].i, nd = in[0].shape.ndims;
    if (axis >= nd)
        return dv_ops_param_error(err, "axis", "%d is not an axis of input 1, which has %d dimensions (0 to %d)", axis,
                                  nd, nd - 1);
    *out = in[0];
    for (int i = 0; i < nin; i++) {
        int rc = bind_dtype(op, CC_DTYPE, &in[i], i, err);
        if (rc != DV_OK)
            return rc;
        if (i == 0)
            continue;
        if (in[i].dtype != in[0].dtype)
            return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input %d is %s, input 1 is %s: concat needs one dtype",
                                i + 1, dv_ops_dtype_name(in[i].dtype), dv_ops_dtype_name(in[0].dtype));
        if (in[i].shape.ndims != nd)
            return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input %d has %d dimensions, input 1 has %d", i + 1,
                                in[i].shape.ndims, nd);
        for (int d = 0; d < nd; d++)
            if (d != axis && in[i].shape.d[d] != in[0].shape.d[d])
                return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input %d has %llu in axis %d, input 1 has %llu: "
                                    "concat along axis %d needs every other axis equal", i + 1,
                                    (unsigned long long)in[i].shape.d[d], d, (unsigned long long)in[0].shape.d[d],
                                    axis);
        out->shape.d[axis] += in[i].shape.d[axis];
    }
    v->v[CC_SHAPE].shape = in[0].shape;
    v->given[CC_SHAPE] = true;
    v->v[CC_DTYPE].dt = in[0].dtype;
    v->given[CC_DTYPE] = true;
    v->v[CC_INPUTS].i = nin;
    v->given[CC_INPUTS] = true;
    v->v[CC_SIZES].shape.ndims = nin;
    for (int i = 0; i < nin; i++)
        v->v[CC_SIZES].shape.d[i] = in[i].shape.d[axis];
    v->given[CC_SIZES] = true;
    return DV_OK;
}

/* concat (ops/ops.def row). */
const dv_opdesc_t dv_op_concat = {
    .name = "concat",
    .desc = "y = the inputs x1..xN (2 to 4) joined along --axis; DMA GM -> UB -> GM by rows",
    .params = concat_params, .nparams = CC_COUNT, .plan = concat_plan, .kernel = concat_kernel,
    .reference = concat_reference, .bind = concat_bind};

/* ================================================================ transpose */

enum { TR_SHAPE, TR_DTYPE, TR_CORES, TR_COUNT };

enum {
    TR_MAX_RR = 240,   /* 15 row groups: the scatter's block stride (16 per group for fp32) stays <= 255 */
    TR_RR_START = 128, /* preferred rows per unit: output rows of 256 B (fp16) */
    TR_F32_COLS = 64   /* fp32 column granularity: 8 blocks of 8 elements (c5 c4 c3) */
};

static const dv_oparam_spec_t transpose_params[TR_COUNT] = {
    [TR_SHAPE] = {"shape", DV_OPT_SHAPE, "12x512x64", 1, INT64_C(1) << 40, 0,
                  "input shape ...xRxC (2 to 6 dimensions); the output is ...xCxR"},
    [TR_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, UNIT_DTYPES,
                  "element type (16-bit: one vtranspose pass; 32-bit: two)"},
    [TR_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0, "blocks (auto: every vector core); at most one per unit"},
};

typedef struct transpose_tiling {
    uint32_t dtype, size, e;
    uint64_t planes, r, c;
    uint64_t rr, cc;         /* a unit: rr rows x cc columns of the input */
    uint64_t nrt, nct;       /* units down and across a plane */
    uint64_t units;
} transpose_tiling_t;

static int transpose_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                          dv_error_t *err)
{
    const dv_shape_t *s = &v->v[TR_SHAPE].shape;
    const dv_dtype_t dt = v->v[TR_DTYPE].dt;
    transpose_tiling_t t;
    memset(&t, 0, sizeof t);
    t.dtype = (uint32_t)dt;
    t.size = dv_dtype_size(dt);
    t.e = t.size / 2;
    if (s->ndims < 2)
        return dv_ops_param_error(err, "shape", "transpose swaps the last two axes: give 2 to %d dimensions (%d given)",
                                  DV_SHAPE_MAX, s->ndims);
    uint64_t n;
    int rc = tensor_elems(cfg, "shape", "the input", s, t.size, &n, err);
    if (rc != DV_OK)
        return rc;
    t.r = s->d[s->ndims - 2];
    t.c = s->d[s->ndims - 1];
    t.planes = n / (t.r * t.c);
    if ((rc = need_pad(cfg, "shape", "input rows", t.c * t.size, t.c * t.size, err)) != DV_OK ||
        (rc = need_pad(cfg, "shape", "output rows", t.r * t.size, t.r * t.size, err)) != DV_OK)
        return rc;

    /* the unit: about square in bytes, six buffers in UB; the gather's block stride (16-bit: the
     * slab pitch) and repeat stride (32-bit: 8 blocks per 64 columns) stay within the fields */
    const uint64_t gc = t.e == 1 ? UNITS : TR_F32_COLS;
    const uint64_t max_stride = dv_ops_field_max(DV_FORM_VUNARY, DV_FLD(VUNARY, src_blk));
    const uint64_t max_cc = t.e == 1 ? max_stride * UNITS : max_stride / 8 * TR_F32_COLS;
    const uint64_t per_buf = cfg->ub_size_bytes / UB_BUFFERS / cfg->ub_align_bytes * cfg->ub_align_bytes;
    t.rr = dv_min_u64(dv_round_up(t.r, MAT_ROWS), TR_RR_START);
    for (;;) {
        const uint64_t fit = per_buf / (t.rr * t.size) / gc * gc;
        t.cc = dv_min_u64(dv_min_u64(dv_round_up(t.c, gc), max_cc), fit);
        if (t.cc >= gc || t.rr == MAT_ROWS)
            break;
        t.rr -= MAT_ROWS;
    }
    if (t.cc < gc)
        return dv_ops_param_error(err, "shape", "a unit of 16 rows x %llu columns needs %llu bytes of UB (%d buffers), "
                                  "core.ub_size_bytes is %llu", (unsigned long long)gc,
                                  (unsigned long long)(UB_BUFFERS * MAT_ROWS * gc * t.size), UB_BUFFERS,
                                  (unsigned long long)cfg->ub_size_bytes);
    t.rr = dv_min_u64(dv_min_u64(dv_round_up(t.r, MAT_ROWS), TR_MAX_RR),
                      per_buf / (t.cc * t.size) / MAT_ROWS * MAT_ROWS);
    t.nrt = dv_ceil_div(t.r, t.rr);
    t.nct = dv_ceil_div(t.c, t.cc);
    t.units = t.planes * t.nrt * t.nct;

    const uint64_t cores = v->v[TR_CORES].i ? (uint64_t)v->v[TR_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_min_u64(cores, t.units);
    plan->info.subs = 1;
    if ((rc = dv_ops_add_arg(plan, "x", dt, n, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "y", dt, n, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 0;
    plan->bytes = 2 * n * t.size;
    plan->tol_scale = 1.0;
    return DV_OK;
}

/* 16-bit: nr x nc of the input slab (pitch cc) -> the output slab (pitch rr): matrices (column
 * group cb, row group rb) in cb-major order, transposed, scattered to rows. */
static void transpose16(dv_k_t *k, const transpose_tiling_t *t, dv_que_t *inq, uint64_t in, uint64_t a, uint64_t b,
                        uint64_t out, uint64_t nr, uint64_t nc)
{
    const uint64_t nrb = dv_ceil_div(nr, MAT_ROWS), ncb = dv_ceil_div(nc, UNITS);
    const uint64_t in_blk = t->cc / UNITS, out_blk = t->rr / MAT_ROWS;
    for (unsigned h = 0; h < 2; h++) /* block (cb*nrb + rb)*16 + i <- block (rb*16 + i)*in_blk + cb */
        bcopy2(k, a + h * 8 * BLK, in + h * 8 * in_blk * BLK, 8, 1, in_blk, ncb, MAT_ROWS * nrb, 1, nrb, MAT_ROWS,
               MAT_ROWS * in_blk);
    dvk_que_free(k, inq, in);
    dvk_pipe_barrier(k, DV_PIPE_V);
    transpose_mats(k, b, a, nrb * ncb);
    dvk_pipe_barrier(k, DV_PIPE_V);
    for (unsigned h = 0; h < 2; h++) /* block (cb*16 + j)*out_blk + rb <- block (cb*nrb + rb)*16 + j */
        bcopy2(k, out + h * 8 * out_blk * BLK, b + h * 8 * BLK, 8, out_blk, 1, ncb, MAT_ROWS * out_blk,
               MAT_ROWS * nrb, nrb, 1, MAT_ROWS);
}

/* 32-bit (16-bit units r3 r2 r1 r0 | c5 c4 c3 | c2 c1 c0 h within 16 rows x 64 columns, group
 * g = rb*nq + cq): gather to matrices (g, r2 r1 r0) of blocks (r3 c5 c4 c3), transpose, regroup to
 * matrices (g, c2 c1 c0) of blocks (r2 r1 r0 h), transpose, scatter: output row c, block rb*2 + r3. */
static void transpose32(dv_k_t *k, const transpose_tiling_t *t, dv_que_t *inq, uint64_t in, uint64_t a, uint64_t b,
                        uint64_t out, uint64_t nr, uint64_t nc)
{
    const uint64_t nrb = dv_ceil_div(nr, MAT_ROWS), nq = dv_ceil_div(nc, TR_F32_COLS), groups = nrb * nq;
    const uint64_t in_blk = t->cc / 8, out_blk = t->rr / 8;  /* 8 elements per block */
    const uint64_t gmat = 8 * MAT / BLK;                      /* blocks of a group's 8 matrices */
    for (uint64_t rb = 0; rb < nrb; rb++)
        for (uint64_t r3 = 0; r3 < 2; r3++) /* walks r2 r1 r0 and cq; blocks c5 c4 c3 */
            bcopy2(k, a + (rb * nq * gmat + r3 * 8) * BLK, in + (rb * MAT_ROWS + r3 * 8) * in_blk * BLK, 8, 1, 1, 8,
                   MAT / BLK, in_blk, nq, gmat, 8);
    dvk_que_free(k, inq, in);
    dvk_pipe_barrier(k, DV_PIPE_V);
    transpose_mats(k, b, a, groups * 8);
    dvk_pipe_barrier(k, DV_PIPE_V);
    for (uint64_t h = 0; h < 2; h++) /* walks c2 c1 c0 and the groups; blocks r2 r1 r0 */
        bcopy2(k, a + h * BLK, b + h * BLK, 8, 2, MAT / BLK, 8, MAT / BLK, 2, groups, gmat, gmat);
    dvk_pipe_barrier(k, DV_PIPE_V);
    transpose_mats(k, b, a, groups * 8);
    dvk_pipe_barrier(k, DV_PIPE_V);
    for (uint64_t rb = 0; rb < nrb; rb++)
        for (uint64_t r3 = 0; r3 < 2; r3++) /* walks c2 c1 c0 and cq; blocks c5 c4 c3 */
            bcopy2(k, out + (rb * 2 + r3) * BLK, b + (rb * nq * gmat + r3 * 8) * BLK, 8, 8 * out_blk, 1, 8, out_blk,
                   MAT / BLK, nq, TR_F32_COLS * out_blk, gmat);
}

static void transpose_kernel(dv_k_t *k, const void *params)
{
    const transpose_tiling_t *t = params;
    uint64_t first, end;
    block_units(k, t->units, &first, &end);
    if (first == end)
        return;
    const uint64_t unit_bytes = t->rr * t->cc * t->size;
    dv_que_t inq, outq;
    dvk_que_init(k, &inq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 2, unit_bytes);
    dvk_que_init(k, &outq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 2, unit_bytes);
    const uint64_t a = dvk_alloc(k, DV_SPACE_UB, unit_bytes), b = dvk_alloc(k, DV_SPACE_UB, unit_bytes);
    for (uint64_t u = first; u < end; u++) {
        const uint64_t plane = u / (t->nrt * t->nct), r0 = u / t->nct % t->nrt * t->rr, c0 = u % t->nct * t->cc;
        const uint64_t nr = dv_min_u64(t->rr, t->r - r0), nc = dv_min_u64(t->cc, t->c - c0);
        uint64_t in = dvk_que_alloc(k, &inq);
        dv_ops_rows_move(k, false, in, t->cc * t->size, 0, ((plane * t->r + r0) * t->c + c0) * t->size, t->c * t->size,
                         nr, nc * t->size);
        dvk_que_enque(k, &inq, in);
        in = dvk_que_deque(k, &inq);
        uint64_t out = dvk_que_alloc(k, &outq);
        if (t->e == 1)
            transpose16(k, t, &inq, in, a, b, out, nr, nc);
        else
            transpose32(k, t, &inq, in, a, b, out, nr, nc);
        dvk_que_enque(k, &outq, out);
        out = dvk_que_deque(k, &outq);
        dv_ops_rows_move(k, true, out, t->rr * t->size, 1, ((plane * t->c + c0) * t->r + r0) * t->size, t->r * t->size,
                         nc, nr * t->size);
        dvk_que_free(k, &outq, out);
    }
}

static int transpose_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    transpose_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    for (uint64_t p = 0; p < t.planes; p++)
        for (uint64_t r = 0; r < t.r; r++)
            for (uint64_t c = 0; c < t.c; c++)
                memcpy(expect[1] + ((p * t.c + c) * t.r + r) * t.size, in[0] + ((p * t.r + r) * t.c + c) * t.size,
                       t.size);
    return DV_OK;
}

static int transpose_bind(const dv_opdesc_t *op, const dv_tensor_desc_t *in, int nin, dv_opvals_t *v,
                          dv_tensor_desc_t *out, dv_error_t *err)
{
    if (nin != 1)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "transpose takes one input, the node has %d", nin);
    const int nd = in[0].shape.ndims;
    if (nd < 2)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input 1 has %d dimension%s; transpose swaps the last two",
                            nd, nd == 1 ? "" : "s");
    int rc = bind_dtype(op, TR_DTYPE, &in[0], 0, err);
    if (rc != DV_OK)
        return rc;
    v->v[TR_SHAPE].shape = in[0].shape;
    v->given[TR_SHAPE] = true;
    v->v[TR_DTYPE].dt = in[0].dtype;
    v->given[TR_DTYPE] = true;
    *out = in[0];
    out->shape.d[nd - 2] = in[0].shape.d[nd - 1];
    out->shape.d[nd - 1] = in[0].shape.d[nd - 2];
    return DV_OK;
}

/* transpose (ops/ops.def row). */
const dv_opdesc_t dv_op_transpose = {
    .name = "transpose",
    .desc = "y[..., c, r] = x[..., r, c]: the last two axes swapped, by 16x16 vtranspose of 16-bit units (two passes for 32-bit types)",
    .params = transpose_params, .nparams = TR_COUNT, .plan = transpose_plan, .kernel = transpose_kernel,
    .reference = transpose_reference, .bind = transpose_bind};

/* ================================================================ index_select (s20-move)
 *
 * y[o, j, :] = x[o, index[j], :] of x as [outer, L, inner] (--shape), index N int32 (--index), a
 * negative index counting from the end (-L .. L-1).  --index64: the indices are int64, each read as
 * two 32-bit words (low word first): the scalar unit's GM load takes at most 32 bits, and the index
 * argument is then int32 with 2N words.  A unit is gr output rows (a chunk of cc columns when a row
 * is longer than a unit): for each row the scalar unit reads its index (ld_gm, once per index in a
 * unit), checks it, and one DMA brings the input row into the unit's UB buffer; one DMA writes the
 * unit's rows out.  An index outside [-L, L) fails the kernel with the index and its value.
 * --check draws the index words as every int32 input, in [-8, 8]: L must be at least 9 for them to be
 * in range, and --index64 words so drawn are not valid int64 indices (the kernel fails on them; the
 * aclnn tests give it real ones). */

enum { IS_SHAPE, IS_DTYPE, IS_INDEX, IS_INDEX64, IS_CORES, IS_COUNT };

static const dv_oparam_spec_t index_select_params[IS_COUNT] = {
    [IS_SHAPE] = {"shape", DV_OPT_SHAPE, "8x1024x256", 1, INT64_C(1) << 40, 0,
                  "input as [outer, L, inner] (up to 6 dims: the last but one is L, the ones before outer)"},
    [IS_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, BYTE_DTYPES, "element type of x and y"},
    [IS_INDEX] = {"index", DV_OPT_INT, "512", 1, INT64_C(1) << 40, 0, "number of indices N: y is [outer, N, inner]"},
    [IS_INDEX64] = {"index64", DV_OPT_BOOL, "off", 0, 0, 0,
                    "indices are int64: two 32-bit words each, low word first (the index argument is int32, 2N words)"},
    [IS_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0, "blocks (auto: every vector core); at most one per unit"},
};

typedef struct index_select_tiling {
    uint32_t dtype, size, words;  /* words: 32-bit words per index */
    uint64_t outer, len, inner, n;
    uint64_t cc, nch, gr;         /* a unit: gr rows x cc columns; nch chunks across a row */
    uint64_t units, pitch;
} index_select_tiling_t;

static int index_select_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v,
                             dv_op_plan_t *plan, dv_error_t *err)
{
    const dv_shape_t *s = &v->v[IS_SHAPE].shape;
    const dv_dtype_t dt = v->v[IS_DTYPE].dt;
    index_select_tiling_t t;
    memset(&t, 0, sizeof t);
    t.dtype = (uint32_t)dt;
    t.size = dv_dtype_size(dt);
    t.words = v->v[IS_INDEX64].i ? 2 : 1;
    t.n = (uint64_t)v->v[IS_INDEX].i;
    if (s->ndims < 2)
        return dv_ops_param_error(err, "shape", "give at least [L, inner] (%d dimension given)", s->ndims);
    t.outer = 1;
    for (int i = 0; i < s->ndims - 2; i++)
        t.outer *= s->d[i];
    t.len = s->d[s->ndims - 2];
    t.inner = s->d[s->ndims - 1];
    if (t.len > INT32_MAX)
        return dv_ops_param_error(err, "shape", "L is %llu; indices are read as int32, so L is at most %d",
                                  (unsigned long long)t.len, INT32_MAX);
    uint64_t n_in, n_out, n_idx;
    dv_shape_t os = {.ndims = 3, .d = {t.outer, t.n, t.inner}}, is = {.ndims = 1, .d = {t.n * t.words}};
    int rc;
    if ((rc = tensor_elems(cfg, "shape", "the input", s, t.size, &n_in, err)) != DV_OK ||
        (rc = tensor_elems(cfg, "index", "the output", &os, t.size, &n_out, err)) != DV_OK ||
        (rc = tensor_elems(cfg, "index", "the index", &is, 4, &n_idx, err)) != DV_OK)
        return rc;
    const uint64_t row = t.inner * t.size;
    if ((rc = need_pad(cfg, "shape", "input rows", row, row, err)) != DV_OK)
        return rc;

    /* units of about an even share of the output per core, at most half the UB (double-buffered) */
    const uint64_t cores = v->v[IS_CORES].i ? (uint64_t)v->v[IS_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    const uint64_t half = cfg->ub_size_bytes / 2 / BLK * BLK;
    if (half < BLK)
        return dv_ops_param_error(err, "shape", "core.ub_size_bytes %llu holds no double-buffered 32-B block",
                                  (unsigned long long)cfg->ub_size_bytes);
    const uint64_t target = dv_min_u64(half, dv_max_u64(BLK, dv_ceil_div(n_out * t.size, cores)));
    const uint64_t rows = t.outer * t.n;
    if (row <= target) {
        t.cc = t.inner;
        t.gr = dv_min_u64(rows, dv_max_u64(1, target / dv_round_up(row, BLK)));
    } else {
        t.cc = dv_max_u64(1, target / BLK) * (BLK / t.size);
        t.gr = 1;
    }
    t.nch = dv_ceil_div(t.inner, t.cc);
    t.units = dv_ceil_div(rows, t.gr) * t.nch;
    t.pitch = dv_round_up(t.cc * t.size, BLK);
    if (2 * ub_need(cfg, t.gr * t.pitch) > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "shape", "two %llu-byte buffers need %llu bytes of UB, core.ub_size_bytes is %llu",
                                  (unsigned long long)(t.gr * t.pitch),
                                  (unsigned long long)(2 * ub_need(cfg, t.gr * t.pitch)),
                                  (unsigned long long)cfg->ub_size_bytes);

    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_min_u64(cores, t.units);
    plan->info.subs = 1;
    if ((rc = dv_ops_add_arg(plan, "x", dt, n_in, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "index", DV_DT_S32, n_idx, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "y", dt, n_out, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 0;
    plan->bytes = 2 * n_out * t.size + n_idx * 4;
    plan->tol_scale = 1.0;
    return DV_OK;
}

/* Index j of the words w (1 or 2) read as a signed number, from its bits (low word first). */
static int64_t index_value(uint64_t lo, uint64_t hi, uint32_t words)
{
    if (words == 1)
        return (int64_t)(int32_t)(uint32_t)lo;
    return (int64_t)(((uint64_t)(uint32_t)hi << 32) | (uint32_t)lo);
}

static void index_select_kernel(dv_k_t *k, const void *params)
{
    const index_select_tiling_t *t = params;
    uint64_t first, end;
    block_units(k, t->units, &first, &end);
    if (first == end)
        return;
    dv_que_t q;
    dvk_que_init(k, &q, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_MTE3, 2, t->gr * t->pitch);
    const uint64_t rows = t->outer * t->n;
    for (uint64_t u = first; u < end; u++) {
        const uint64_t r0 = u / t->nch * t->gr, nr = dv_min_u64(t->gr, rows - r0);
        const uint64_t c0 = u % t->nch * t->cc, nc = dv_min_u64(t->cc, t->inner - c0);
        uint64_t buf = dvk_que_alloc(k, &q);
        for (uint64_t i = 0; i < nr; i++) {
            const uint64_t r = r0 + i, o = r / t->n, j = r % t->n;
            const uint64_t lo = dvk_load_gm(k, dvk_gm(k, 1, j * t->words * 4), DV_DT_S32);
            const uint64_t hi = t->words == 2 ? dvk_load_gm(k, dvk_gm(k, 1, j * 8 + 4), DV_DT_S32) : 0;
            int64_t v = index_value(lo, hi, t->words);
            if (v < -(int64_t)t->len || v >= (int64_t)t->len)
                dvk_fail(k, "index_select: index[%llu] is %lld, outside [-%llu, %llu)", (unsigned long long)j,
                         (long long)v, (unsigned long long)t->len, (unsigned long long)t->len);
            if (v < 0)
                v += (int64_t)t->len;
            dv_ops_rows_move(k, false, buf + i * t->pitch, t->pitch, 0,
                             ((o * t->len + (uint64_t)v) * t->inner + c0) * t->size, t->inner * t->size, 1,
                             nc * t->size);
        }
        dvk_que_enque(k, &q, buf);
        buf = dvk_que_deque(k, &q);
        dv_ops_rows_move(k, true, buf, t->pitch, 2, (r0 * t->inner + c0) * t->size, t->inner * t->size, nr,
                         nc * t->size);
        dvk_que_free(k, &q, buf);
    }
}

static int index_select_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect,
                                  dv_error_t *err)
{
    index_select_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    for (uint64_t j = 0; j < t.n; j++) {
        uint32_t w[2] = {0, 0};
        memcpy(w, in[1] + j * t.words * 4, t.words * 4);
        int64_t v = index_value(w[0], w[1], t.words);
        if (v < -(int64_t)t.len || v >= (int64_t)t.len)
            return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "index_select: index[%llu] is %lld, outside [-%llu, %llu)",
                                (unsigned long long)j, (long long)v, (unsigned long long)t.len,
                                (unsigned long long)t.len);
        if (v < 0)
            v += (int64_t)t.len;
        for (uint64_t o = 0; o < t.outer; o++)
            memcpy(expect[2] + (o * t.n + j) * t.inner * t.size, in[0] + (o * t.len + (uint64_t)v) * t.inner * t.size,
                   t.inner * t.size);
    }
    return DV_OK;
}

/* index_select (ops/ops.def row). */
const dv_opdesc_t dv_op_index_select = {
    .name = "index_select",
    .desc = "y[o, j, :] = x[o, index[j], :] of x as [outer, L, inner]: the scalar unit reads each index (ld_gm), "
            "one DMA per row in, one per unit out",
    .params = index_select_params, .nparams = IS_COUNT, .plan = index_select_plan, .kernel = index_select_kernel,
    .reference = index_select_reference};

/* ================================================================ tile (s20-move)
 *
 * y = x repeated --repeats times along each axis (numpy tile, torch repeat): x [d0, ..., dn-1], y
 * [r0*d0, ..., rn-1*dn-1], y[k0*d0 + i0, ...] = x[i0, ...].  x is rows of W = dn-1 elements in
 * planes of H = dn-2 rows.  A unit is gr rows of one plane (a chunk of cc columns when a row is
 * longer than a unit): one DMA brings them into UB, then one DMA per combination of the repeats
 * (prod r) writes them to their place in y: a strided run of gr rows.  repeat_interleave is a tile
 * of x viewed as [outer * L, inner] with repeats [1, r]. */

enum { TL_SHAPE, TL_DTYPE, TL_REPEATS, TL_CORES, TL_COUNT };

static const dv_oparam_spec_t tile_params[TL_COUNT] = {
    [TL_SHAPE] = {"shape", DV_OPT_SHAPE, "4x64x128", 1, INT64_C(1) << 40, 0, "input shape d0x...xdn-1"},
    [TL_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, BYTE_DTYPES, "element type of x and y"},
    [TL_REPEATS] = {"repeats", DV_OPT_SHAPE, "2x1x2", 1, INT64_C(1) << 40, 0,
                    "times each axis is repeated, one per --shape dimension: y is (r0*d0)x...x(rn-1*dn-1)"},
    [TL_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0, "blocks (auto: every vector core); at most one per unit"},
};

typedef struct tile_tiling {
    uint32_t dtype, size, n;            /* n >= 2 dims (a 1-D shape is [1, W]) */
    uint64_t d[DV_SHAPE_MAX], r[DV_SHAPE_MAX], ys[DV_SHAPE_MAX]; /* ys: y's strides, elements */
    uint64_t planes, h, w, combos;
    uint64_t gr, hb, cc, nch, units, pitch;
} tile_tiling_t;

static int tile_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                     dv_error_t *err)
{
    const dv_shape_t *s = &v->v[TL_SHAPE].shape, *rp = &v->v[TL_REPEATS].shape;
    const dv_dtype_t dt = v->v[TL_DTYPE].dt;
    tile_tiling_t t;
    memset(&t, 0, sizeof t);
    t.dtype = (uint32_t)dt;
    t.size = dv_dtype_size(dt);
    if (rp->ndims != s->ndims)
        return dv_ops_param_error(err, "repeats", "%d repeats given for the %d dimensions of --shape", rp->ndims,
                                  s->ndims);
    const int lead = s->ndims == 1;
    t.n = (uint32_t)(s->ndims + lead);
    if (t.n > DV_SHAPE_MAX)
        return dv_ops_param_error(err, "shape", "at most %d dimensions", DV_SHAPE_MAX);
    dv_shape_t ys = {.ndims = (int)t.n};
    t.combos = 1;
    for (uint32_t j = 0; j < t.n; j++) {
        t.d[j] = j < (uint32_t)lead ? 1 : s->d[j - (uint32_t)lead];
        t.r[j] = j < (uint32_t)lead ? 1 : rp->d[j - (uint32_t)lead];
        if (__builtin_mul_overflow(t.d[j], t.r[j], &ys.d[j]) || __builtin_mul_overflow(t.combos, t.r[j], &t.combos))
            return dv_ops_param_error(err, "repeats", "the output has more than 2^64 elements");
    }
    uint64_t n_in, n_out;
    int rc;
    if ((rc = tensor_elems(cfg, "shape", "the input", s, t.size, &n_in, err)) != DV_OK ||
        (rc = tensor_elems(cfg, "repeats", "the output", &ys, t.size, &n_out, err)) != DV_OK)
        return rc;
    t.ys[t.n - 1] = 1;
    for (int j = (int)t.n - 2; j >= 0; j--)
        t.ys[j] = t.ys[j + 1] * ys.d[j + 1];
    t.w = t.d[t.n - 1];
    t.h = t.d[t.n - 2];
    t.planes = n_in / (t.w * t.h);
    if ((rc = need_pad(cfg, "shape", "rows", t.w * t.size, t.w * t.size, err)) != DV_OK)
        return rc;

    /* units: an even share of the input rows per core, at most half the UB (double-buffered) */
    const uint64_t cores = v->v[TL_CORES].i ? (uint64_t)v->v[TL_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    const uint64_t half = cfg->ub_size_bytes / 2 / BLK * BLK;
    if (half < BLK)
        return dv_ops_param_error(err, "shape", "core.ub_size_bytes %llu holds no double-buffered 32-B block",
                                  (unsigned long long)cfg->ub_size_bytes);
    const uint64_t row = t.w * t.size;
    if (row <= half) {
        t.cc = t.w;
        const uint64_t fit = dv_max_u64(1, half / dv_round_up(row, BLK));
        t.gr = dv_min_u64(dv_min_u64(fit, t.h), dv_max_u64(1, dv_ceil_div(t.planes * t.h, cores)));
    } else {
        t.cc = dv_max_u64(1, half / BLK) * (BLK / t.size);
        t.gr = 1;
    }
    t.hb = dv_ceil_div(t.h, t.gr);
    t.nch = dv_ceil_div(t.w, t.cc);
    t.units = t.planes * t.hb * t.nch;
    t.pitch = dv_round_up(t.cc * t.size, BLK);

    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_min_u64(cores, t.units);
    plan->info.subs = 1;
    if ((rc = dv_ops_add_arg(plan, "x", dt, n_in, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "y", dt, n_out, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 0;
    plan->bytes = (n_in + n_out) * t.size;
    plan->tol_scale = 1.0;
    return DV_OK;
}

static void tile_kernel(dv_k_t *k, const void *params)
{
    const tile_tiling_t *t = params;
    uint64_t first, end;
    block_units(k, t->units, &first, &end);
    if (first == end)
        return;
    dv_que_t q;
    dvk_que_init(k, &q, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_MTE3, 2, t->gr * t->pitch);
    const uint32_t n = t->n;
    for (uint64_t u = first; u < end; u++) {
        const uint64_t p = u / (t->hb * t->nch), rem = u % (t->hb * t->nch);
        const uint64_t h0 = rem / t->nch * t->gr, nr = dv_min_u64(t->gr, t->h - h0);
        const uint64_t c0 = rem % t->nch * t->cc, nc = dv_min_u64(t->cc, t->w - c0);
        uint64_t buf = dvk_que_alloc(k, &q);
        dv_ops_rows_move(k, false, buf, t->pitch, 0, ((p * t->h + h0) * t->w + c0) * t->size, t->w * t->size, nr,
                         nc * t->size);
        dvk_que_enque(k, &q, buf);
        buf = dvk_que_deque(k, &q);
        /* the plane's coordinates i0..in-3, then every combination k0..kn-1 of the repeats */
        uint64_t base = h0 * t->ys[n - 2] + c0, pp = p;
        uint64_t i[DV_SHAPE_MAX] = {0};
        for (int j = (int)n - 3; j >= 0; j--) {
            i[j] = pp % t->d[j];
            pp /= t->d[j];
            base += i[j] * t->ys[j];
        }
        for (uint64_t c = 0; c < t->combos; c++) {
            uint64_t off = base, cc = c;
            for (int j = (int)n - 1; j >= 0; j--) {
                off += cc % t->r[j] * t->d[j] * t->ys[j];
                cc /= t->r[j];
            }
            dv_ops_rows_move(k, true, buf, t->pitch, 1, off * t->size, t->ys[n - 2] * t->size, nr, nc * t->size);
        }
        dvk_que_free(k, &q, buf);
    }
}

static int tile_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    tile_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    uint64_t total = t.ys[0] * t.d[0] * t.r[0];
    for (uint64_t e = 0; e < total; e++) {
        uint64_t src = 0, xs = 1, rest = e;
        for (int j = (int)t.n - 1; j >= 0; j--) {
            const uint64_t dj = t.d[j] * t.r[j], c = rest % dj;
            rest /= dj;
            src += (c % t.d[j]) * xs;
            xs *= t.d[j];
        }
        memcpy(expect[1] + e * t.size, in[0] + src * t.size, t.size);
    }
    return DV_OK;
}

/* tile (ops/ops.def row). */
const dv_opdesc_t dv_op_tile = {
    .name = "tile",
    .desc = "y = x repeated --repeats times along each axis (torch repeat; repeat_interleave on a view); a row "
            "group in by one DMA, out by one DMA per repeat",
    .params = tile_params, .nparams = TL_COUNT, .plan = tile_plan, .kernel = tile_kernel, .reference = tile_reference};

/* ================================================================ trilu (s20-move)
 *
 * y = the lower (tril) or upper (--upper on: triu) triangle of each HxW matrix of x, the rest 0:
 * tril keeps x[.., i, j] where j - i <= --diagonal, triu where j - i >= --diagonal.  A unit is gr
 * rows (a chunk of cc columns when a row is longer than a unit) in by one DMA and out by one; then
 * each row's dropped runs (before and after the kept one) are overwritten from a UB block the vector
 * unit set to 0 once (vdup; MTE3 runs its DMAs in order), so every bit pattern of x kept passes as it
 * is.  The kept run may start anywhere in a row, and UB addresses of DMAs are whole blocks: hence
 * writing the row and zeroing over it rather than writing the kept run alone. */

enum { TU_SHAPE, TU_DTYPE, TU_DIAGONAL, TU_UPPER, TU_CORES, TU_COUNT };

static const dv_oparam_spec_t trilu_params[TU_COUNT] = {
    [TU_SHAPE] = {"shape", DV_OPT_SHAPE, "8x256x256", 1, INT64_C(1) << 40, 0, "input ...xHxW (at least 2 dimensions)"},
    [TU_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, BYTE_DTYPES, "element type of x and y"},
    [TU_DIAGONAL] = {"diagonal", DV_OPT_INT, "0", -(double)(INT64_C(1) << 40), (double)(INT64_C(1) << 40), 0,
                     "the diagonal: 0 the main one, > 0 above it, < 0 below"},
    [TU_UPPER] = {"upper", DV_OPT_BOOL, "off", 0, 0, 0, "keep the upper triangle (triu) instead of the lower (tril)"},
    [TU_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0, "blocks (auto: every vector core); at most one per unit"},
};

typedef struct trilu_tiling {
    uint32_t dtype, size, upper;
    int64_t diag;
    uint64_t rows, h, w;       /* rows: every row of every matrix */
    uint64_t gr, cc, nch, units, pitch, zbytes;
} trilu_tiling_t;

/* The columns [*a, *b) row i keeps. */
static void trilu_keep(const trilu_tiling_t *t, uint64_t i, uint64_t *a, uint64_t *b)
{
    const int64_t w = (int64_t)t->w, e = (int64_t)i + t->diag; /* tril: j <= e; triu: j >= e */
    const int64_t lo = t->upper ? e : 0, hi = t->upper ? w : e + 1;
    *a = (uint64_t)(lo < 0 ? 0 : lo > w ? w : lo);
    *b = (uint64_t)(hi < (int64_t)*a ? (int64_t)*a : hi > w ? w : hi);
}

static int trilu_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                      dv_error_t *err)
{
    const dv_shape_t *s = &v->v[TU_SHAPE].shape;
    const dv_dtype_t dt = v->v[TU_DTYPE].dt;
    trilu_tiling_t t;
    memset(&t, 0, sizeof t);
    t.dtype = (uint32_t)dt;
    t.size = dv_dtype_size(dt);
    t.upper = v->v[TU_UPPER].i != 0;
    t.diag = v->v[TU_DIAGONAL].i;
    if (s->ndims < 2)
        return dv_ops_param_error(err, "shape", "give at least HxW (%d dimension given)", s->ndims);
    uint64_t n;
    int rc;
    if ((rc = tensor_elems(cfg, "shape", "the input", s, t.size, &n, err)) != DV_OK)
        return rc;
    t.w = s->d[s->ndims - 1];
    t.h = s->d[s->ndims - 2];
    t.rows = n / t.w;
    /* runs of any length at any column: DataCopyPad unless rows are single whole blocks */
    if ((rc = need_pad(cfg, "shape", "row runs", t.size, t.w * t.size, err)) != DV_OK)
        return rc;
    /* three buffers: two for the rows, one of zeros (a whole vdup repeat) */
    const uint64_t cores = v->v[TU_CORES].i ? (uint64_t)v->v[TU_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    const uint64_t third = cfg->ub_size_bytes / 3 / 256 * 256;
    if (third < 256)
        return dv_ops_param_error(err, "shape", "core.ub_size_bytes %llu holds no three 256-byte buffers",
                                  (unsigned long long)cfg->ub_size_bytes);
    const uint64_t row = t.w * t.size;
    if (row <= third) {
        t.cc = t.w;
        const uint64_t fit = dv_max_u64(1, third / dv_round_up(row, BLK));
        t.gr = dv_min_u64(fit, dv_max_u64(1, dv_ceil_div(t.rows, cores)));
    } else {
        t.cc = third / t.size;
        t.gr = 1;
    }
    t.nch = dv_ceil_div(t.w, t.cc);
    t.units = dv_ceil_div(t.rows, t.gr) * t.nch;
    t.pitch = dv_round_up(t.cc * t.size, BLK);
    t.zbytes = dv_round_up(t.cc * t.size, 256);

    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_min_u64(cores, t.units);
    plan->info.subs = 1;
    if ((rc = dv_ops_add_arg(plan, "x", dt, n, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "y", dt, n, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 0;
    plan->bytes = 2 * n * t.size;
    plan->tol_scale = 1.0;
    return DV_OK;
}

static void trilu_kernel(dv_k_t *k, const void *params)
{
    const trilu_tiling_t *t = params;
    uint64_t first, end;
    block_units(k, t->units, &first, &end);
    if (first == end)
        return;
    const uint64_t sz = t->size, stride = t->w * sz;
    dv_que_t zq, q;
    dvk_que_init(k, &zq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 1, t->zbytes);
    uint64_t zero = dvk_que_alloc(k, &zq);
    const uint64_t max_rep = dv_ops_field_max(DV_FORM_VDUP, DV_FLD(VDUP, repeat));
    for (uint64_t r = 0, reps = t->zbytes / 256; r < reps; r += max_rep)
        dvk_vdup(k, zero + r * 256, DV_DT_U16, 0.0, (int64_t)dv_min_u64(max_rep, reps - r), 1, 8);
    dvk_que_enque(k, &zq, zero);
    zero = dvk_que_deque(k, &zq);
    dvk_que_init(k, &q, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_MTE3, 2, t->gr * t->pitch);
    for (uint64_t u = first; u < end; u++) {
        const uint64_t r0 = u / t->nch * t->gr, nr = dv_min_u64(t->gr, t->rows - r0);
        const uint64_t c0 = u % t->nch * t->cc, nc = dv_min_u64(t->cc, t->w - c0), c1 = c0 + nc;
        uint64_t buf = dvk_que_alloc(k, &q);
        dv_ops_rows_move(k, false, buf, t->pitch, 0, (r0 * t->w + c0) * sz, stride, nr, nc * sz);
        dvk_que_enque(k, &q, buf);
        buf = dvk_que_deque(k, &q);
        /* the unit's rows as they are, then zeros over the runs they drop (MTE3 runs in order) */
        dv_ops_rows_move(k, true, buf, t->pitch, 1, (r0 * t->w + c0) * sz, stride, nr, nc * sz);
        for (uint64_t i = 0; i < nr; i++) {
            uint64_t a, b;
            trilu_keep(t, (r0 + i) % t->h, &a, &b);
            a = dv_min_u64(dv_max_u64(a, c0), c1);
            b = dv_min_u64(dv_max_u64(b, a), c1);
            const uint64_t gm = ((r0 + i) * t->w) * sz;
            if (a > c0)
                dv_ops_rows_move(k, true, zero, t->pitch, 1, gm + c0 * sz, stride, 1, (a - c0) * sz);
            if (c1 > b)
                dv_ops_rows_move(k, true, zero, t->pitch, 1, gm + b * sz, stride, 1, (c1 - b) * sz);
        }
        dvk_que_free(k, &q, buf);
    }
    dvk_que_free(k, &zq, zero);
}

static int trilu_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    trilu_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    for (uint64_t r = 0; r < t.rows; r++) {
        uint64_t a, b;
        trilu_keep(&t, r % t.h, &a, &b);
        memcpy(expect[1] + (r * t.w + a) * t.size, in[0] + (r * t.w + a) * t.size, (b - a) * t.size);
    }
    return DV_OK;
}

/* trilu (ops/ops.def row). */
const dv_opdesc_t dv_op_trilu = {
    .name = "trilu",
    .desc = "y = the lower (or --upper) triangle of each matrix of x from --diagonal, the rest 0; kept runs by "
            "DMA, zeros from one vdup block",
    .params = trilu_params, .nparams = TU_COUNT, .plan = trilu_plan, .kernel = trilu_kernel,
    .reference = trilu_reference};

/* ================================================================ roll, flip (s20-move)
 *
 * roll: y[o, (l + s) % L, :] = x[o, l, :] of x as [outer, L, inner] (--shape, --shift s in [0, L)).
 * Per plane, out rows [s, L) are in rows [0, L - s) and out rows [0, s) in rows [L - s, L): two
 * contiguous runs of elements each, cut into units of at most half the UB that one DMA brings in
 * and one writes out.
 *
 * flip: y = x with the axes --flip names (1) reversed.  x is rows of its last axis.  When the last
 * axis keeps its order, a unit is gr consecutive rows in by one DMA, each written by its own DMA to
 * its mirrored row.  When it is reversed, DMA runs cannot reverse and a DMA's UB side starts on a
 * 32-B block, so a unit is a chunk of one output row: each of its elements comes in by its own DMA
 * into its own UB block, in output order, and one DMA (a burst of one element per block) writes the
 * chunk out: slow for long rows, and said so (the vector unit is not used to reverse). */

enum { RL_SHAPE, RL_DTYPE, RL_SHIFT, RL_CORES, RL_COUNT };

static const dv_oparam_spec_t roll_params[RL_COUNT] = {
    [RL_SHAPE] = {"shape", DV_OPT_SHAPE, "8x1024x64", 1, INT64_C(1) << 40, 0, "input as [outer, L, inner] (3 dims)"},
    [RL_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, BYTE_DTYPES, "element type of x and y"},
    [RL_SHIFT] = {"shift", DV_OPT_INT, "1", 0, (double)(INT64_C(1) << 40), 0, "rows the L axis rolls by, below L"},
    [RL_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0, "blocks (auto: every vector core); at most one per unit"},
};

typedef struct roll_tiling {
    uint32_t dtype, size;
    uint64_t outer, len, inner, shift;
    uint64_t chunk;              /* elements per unit at most */
    uint64_t na, nb, units;      /* units of run A (out rows s..L-1) and run B (0..s-1) per plane */
} roll_tiling_t;

static int roll_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                     dv_error_t *err)
{
    const dv_shape_t *s = &v->v[RL_SHAPE].shape;
    const dv_dtype_t dt = v->v[RL_DTYPE].dt;
    roll_tiling_t t;
    memset(&t, 0, sizeof t);
    t.dtype = (uint32_t)dt;
    t.size = dv_dtype_size(dt);
    if (s->ndims != 3)
        return dv_ops_param_error(err, "shape", "give [outer, L, inner] (%d dimensions given)", s->ndims);
    t.outer = s->d[0];
    t.len = s->d[1];
    t.inner = s->d[2];
    t.shift = (uint64_t)v->v[RL_SHIFT].i;
    if (t.shift >= t.len)
        return dv_ops_param_error(err, "shift", "%llu is not below L %llu", (unsigned long long)t.shift,
                                  (unsigned long long)t.len);
    uint64_t n;
    int rc;
    if ((rc = tensor_elems(cfg, "shape", "the input", s, t.size, &n, err)) != DV_OK)
        return rc;
    if ((rc = need_pad(cfg, "shift", "runs", t.shift * t.inner * t.size, t.len * t.inner * t.size, err)) != DV_OK)
        return rc;
    const uint64_t cores = v->v[RL_CORES].i ? (uint64_t)v->v[RL_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    const uint64_t half = cfg->ub_size_bytes / 2 / BLK * BLK;
    if (half < BLK)
        return dv_ops_param_error(err, "shape", "core.ub_size_bytes %llu holds no double-buffered 32-B block",
                                  (unsigned long long)cfg->ub_size_bytes);
    /* an even share per core, in whole 32-B blocks */
    const uint64_t share = dv_round_up(dv_max_u64(BLK, dv_ceil_div(n * t.size, cores)), BLK);
    t.chunk = dv_min_u64(half, share) / t.size;
    t.na = dv_ceil_div((t.len - t.shift) * t.inner, t.chunk);
    t.nb = dv_ceil_div(t.shift * t.inner, t.chunk);
    t.units = t.outer * (t.na + t.nb);

    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_min_u64(cores, t.units);
    plan->info.subs = 1;
    if ((rc = dv_ops_add_arg(plan, "x", dt, n, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "y", dt, n, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 0;
    plan->bytes = 2 * n * t.size;
    plan->tol_scale = 1.0;
    return DV_OK;
}

static void roll_kernel(dv_k_t *k, const void *params)
{
    const roll_tiling_t *t = params;
    uint64_t first, end;
    block_units(k, t->units, &first, &end);
    if (first == end)
        return;
    dv_que_t q;
    const uint64_t pitch = dv_round_up(t->chunk * t->size, BLK), plane = t->len * t->inner;
    dvk_que_init(k, &q, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_MTE3, 2, pitch);
    for (uint64_t u = first; u < end; u++) {
        const uint64_t o = u / (t->na + t->nb), r = u % (t->na + t->nb);
        const bool a = r < t->na;
        const uint64_t c = (a ? r : r - t->na) * t->chunk;
        const uint64_t run = a ? (t->len - t->shift) * t->inner : t->shift * t->inner, nc = dv_min_u64(t->chunk, run - c);
        const uint64_t src = o * plane + (a ? 0 : (t->len - t->shift) * t->inner) + c;
        const uint64_t dst = o * plane + (a ? t->shift * t->inner : 0) + c;
        uint64_t buf = dvk_que_alloc(k, &q);
        dv_ops_rows_move(k, false, buf, pitch, 0, src * t->size, nc * t->size, 1, nc * t->size);
        dvk_que_enque(k, &q, buf);
        buf = dvk_que_deque(k, &q);
        dv_ops_rows_move(k, true, buf, pitch, 1, dst * t->size, nc * t->size, 1, nc * t->size);
        dvk_que_free(k, &q, buf);
    }
}

static int roll_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    roll_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const uint64_t row = t.inner * t.size;
    for (uint64_t o = 0; o < t.outer; o++)
        for (uint64_t l = 0; l < t.len; l++)
            memcpy(expect[1] + (o * t.len + (l + t.shift) % t.len) * row, in[0] + (o * t.len + l) * row, row);
    return DV_OK;
}

/* roll (ops/ops.def row). */
const dv_opdesc_t dv_op_roll = {
    .name = "roll",
    .desc = "y = x rolled by --shift along the middle axis of [outer, L, inner]: two contiguous runs per plane by DMA",
    .params = roll_params, .nparams = RL_COUNT, .plan = roll_plan, .kernel = roll_kernel,
    .reference = roll_reference};

enum { FL_SHAPE, FL_DTYPE, FL_FLIP, FL_CORES, FL_COUNT };

static const dv_oparam_spec_t flip_params[FL_COUNT] = {
    [FL_SHAPE] = {"shape", DV_OPT_SHAPE, "8x64x128", 1, INT64_C(1) << 40, 0, "input shape"},
    [FL_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, BYTE_DTYPES, "element type of x and y"},
    [FL_FLIP] = {"flip", DV_OPT_SHAPE, "0x1x0", 0, 1, 0, "one 0 or 1 per --shape axis: 1 reverses the axis"},
    [FL_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0, "blocks (auto: every vector core); at most one per unit"},
};

typedef struct flip_tiling {
    uint32_t dtype, size, n, last;     /* last: the last axis is reversed */
    uint64_t d[DV_SHAPE_MAX], f[DV_SHAPE_MAX];
    uint64_t rows, w, gr, cw, nch, units, pitch;  /* last: units of cw output columns of a row */
} flip_tiling_t;

/* The row of y that row r of x goes to (the mirror of its index over the axes before the last). */
static uint64_t flip_row(const flip_tiling_t *t, uint64_t r)
{
    uint64_t out = 0, scale = 1;
    for (int j = (int)t->n - 2; j >= 0; j--) {
        const uint64_t c = r % t->d[j];
        r /= t->d[j];
        out += (t->f[j] ? t->d[j] - 1 - c : c) * scale;
        scale *= t->d[j];
    }
    return out;
}

static int flip_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                     dv_error_t *err)
{
    const dv_shape_t *s = &v->v[FL_SHAPE].shape, *f = &v->v[FL_FLIP].shape;
    const dv_dtype_t dt = v->v[FL_DTYPE].dt;
    flip_tiling_t t;
    memset(&t, 0, sizeof t);
    t.dtype = (uint32_t)dt;
    t.size = dv_dtype_size(dt);
    if (f->ndims != s->ndims)
        return dv_ops_param_error(err, "flip", "%d flags given for the %d dimensions of --shape", f->ndims, s->ndims);
    t.n = (uint32_t)s->ndims;
    for (uint32_t j = 0; j < t.n; j++) {
        t.d[j] = s->d[j];
        t.f[j] = f->d[j];
    }
    t.last = t.f[t.n - 1] != 0;
    uint64_t n;
    int rc;
    if ((rc = tensor_elems(cfg, "shape", "the input", s, t.size, &n, err)) != DV_OK)
        return rc;
    t.w = t.d[t.n - 1];
    t.rows = n / t.w;
    if ((rc = need_pad(cfg, "shape", "rows", t.last ? t.size : t.w * t.size, t.w * t.size, err)) != DV_OK)
        return rc;
    const uint64_t cores = v->v[FL_CORES].i ? (uint64_t)v->v[FL_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    const uint64_t half = cfg->ub_size_bytes / 2 / BLK * BLK;
    if (half < BLK)
        return dv_ops_param_error(err, "shape", "core.ub_size_bytes %llu holds no double-buffered 32-B block",
                                  (unsigned long long)cfg->ub_size_bytes);
    if (t.last) {
        t.cw = dv_min_u64(t.w, half / BLK);
        t.nch = dv_ceil_div(t.w, t.cw);
        t.gr = 1;
        t.pitch = t.cw * BLK;
        t.units = t.rows * t.nch;
    } else {
        t.pitch = dv_round_up(t.w * t.size, BLK);
        if (t.pitch > half)
            return dv_ops_param_error(err, "shape", "a row of %llu bytes does not fit half of core.ub_size_bytes %llu",
                                      (unsigned long long)(t.w * t.size), (unsigned long long)cfg->ub_size_bytes);
        t.gr = dv_min_u64(half / t.pitch, dv_max_u64(1, dv_ceil_div(t.rows, cores)));
        t.nch = 1;
        t.units = dv_ceil_div(t.rows, t.gr);
    }

    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_min_u64(cores, t.units);
    plan->info.subs = 1;
    if ((rc = dv_ops_add_arg(plan, "x", dt, n, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "y", dt, n, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 0;
    plan->bytes = 2 * n * t.size;
    plan->tol_scale = 1.0;
    return DV_OK;
}

static void flip_kernel(dv_k_t *k, const void *params)
{
    const flip_tiling_t *t = params;
    uint64_t first, end;
    block_units(k, t->units, &first, &end);
    if (first == end)
        return;
    dv_que_t q;
    const uint64_t row = t->w * t->size, sz = t->size;
    dvk_que_init(k, &q, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_MTE3, 2, t->gr * t->pitch);
    for (uint64_t u = first; u < end; u++) {
        uint64_t buf = dvk_que_alloc(k, &q);
        if (t->last) {
            const uint64_t r = u / t->nch, c0 = u % t->nch * t->cw, nc = dv_min_u64(t->cw, t->w - c0);
            for (uint64_t j = 0; j < nc; j++)
                dv_ops_rows_move(k, false, buf + j * BLK, BLK, 0, r * row + (t->w - 1 - c0 - j) * sz, sz, 1, sz);
            dvk_que_enque(k, &q, buf);
            buf = dvk_que_deque(k, &q);
            dv_ops_rows_move(k, true, buf, BLK, 1, flip_row(t, r) * row + c0 * sz, sz, nc, sz);
        } else {
            const uint64_t r0 = u * t->gr, nr = dv_min_u64(t->gr, t->rows - r0);
            dv_ops_rows_move(k, false, buf, t->pitch, 0, r0 * row, row, nr, row);
            dvk_que_enque(k, &q, buf);
            buf = dvk_que_deque(k, &q);
            for (uint64_t i = 0; i < nr; i++)
                dv_ops_rows_move(k, true, buf + i * t->pitch, t->pitch, 1, flip_row(t, r0 + i) * row, row, 1, row);
        }
        dvk_que_free(k, &q, buf);
    }
}

static int flip_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    flip_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    for (uint64_t r = 0; r < t.rows; r++)
        for (uint64_t e = 0; e < t.w; e++)
            memcpy(expect[1] + (flip_row(&t, r) * t.w + (t.last ? t.w - 1 - e : e)) * t.size,
                   in[0] + (r * t.w + e) * t.size, t.size);
    return DV_OK;
}

/* flip (ops/ops.def row). */
const dv_opdesc_t dv_op_flip = {
    .name = "flip",
    .desc = "y = x with the axes --flip marks reversed: rows by DMA to their mirrored place (the last axis: one "
            "element a DMA)",
    .params = flip_params, .nparams = FL_COUNT, .plan = flip_plan, .kernel = flip_kernel,
    .reference = flip_reference};

/* ================================================================ pad (s20-move)
 *
 * y = x with --before and --after elements of --value on each axis (torch's constant pad, pad_v3):
 * y is (b0+d0+a0)x...  The value's bits in the dtype are set once by the vector unit into a UB block
 * one output row long (vdup of the 16- or 32-bit pattern, so any dtype's bits are exact).  A unit is
 * gr output rows (rows: the last axis); a row in the padding of an outer axis is one DMA of the
 * block, any other row one DMA of its x row in, then up to three out: the value run before it, the
 * row, the value run after it. */

enum { PD_SHAPE, PD_DTYPE, PD_BEFORE, PD_AFTER, PD_VALUE, PD_CORES, PD_COUNT };

static const dv_oparam_spec_t pad_params[PD_COUNT] = {
    [PD_SHAPE] = {"shape", DV_OPT_SHAPE, "1x3x224x224", 1, INT64_C(1) << 40, 0, "input shape"},
    [PD_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, BYTE_DTYPES, "element type of x and y"},
    [PD_BEFORE] = {"before", DV_OPT_SHAPE, "0x0x1x1", 0, INT64_C(1) << 40, 0,
                   "elements of --value before each axis, one per --shape axis"},
    [PD_AFTER] = {"after", DV_OPT_SHAPE, "0x0x1x1", 0, INT64_C(1) << 40, 0,
                  "elements of --value after each axis, one per --shape axis"},
    [PD_VALUE] = {"value", DV_OPT_FLOAT, "0", -1e300, 1e300, 0, "the padding value (rounded to --dtype)"},
    [PD_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0, "blocks (auto: every vector core); at most one per unit"},
};

typedef struct pad_tiling {
    uint32_t dtype, size, n;
    uint64_t d[DV_SHAPE_MAX], b[DV_SHAPE_MAX], o[DV_SHAPE_MAX];  /* x dims, before, y dims */
    uint64_t pattern;          /* the value's bits, as vdup of 16 (size <= 2) or 32 bits takes them */
    uint64_t rows, gr, units, pitch, vbytes;
} pad_tiling_t;

/* x's row for y's row r (over the axes before the last), or UINT64_MAX in the padding. */
static uint64_t pad_src_row(const pad_tiling_t *t, uint64_t r)
{
    uint64_t src = 0, scale = 1;
    for (int j = (int)t->n - 2; j >= 0; j--) {
        const uint64_t c = r % t->o[j];
        r /= t->o[j];
        if (c < t->b[j] || c >= t->b[j] + t->d[j])
            return UINT64_MAX;
        src += (c - t->b[j]) * scale;
        scale *= t->d[j];
    }
    return src;
}

static int pad_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                    dv_error_t *err)
{
    const dv_shape_t *s = &v->v[PD_SHAPE].shape, *bf = &v->v[PD_BEFORE].shape, *af = &v->v[PD_AFTER].shape;
    const dv_dtype_t dt = v->v[PD_DTYPE].dt;
    pad_tiling_t t;
    memset(&t, 0, sizeof t);
    t.dtype = (uint32_t)dt;
    t.size = dv_dtype_size(dt);
    if (bf->ndims != s->ndims || af->ndims != s->ndims)
        return dv_ops_param_error(err, bf->ndims != s->ndims ? "before" : "after",
                                  "%d values given for the %d dimensions of --shape",
                                  bf->ndims != s->ndims ? bf->ndims : af->ndims, s->ndims);
    const int lead = s->ndims == 1;
    t.n = (uint32_t)(s->ndims + lead);
    if (t.n > DV_SHAPE_MAX)
        return dv_ops_param_error(err, "shape", "at most %d dimensions", DV_SHAPE_MAX);
    dv_shape_t ys = {.ndims = (int)t.n};
    for (uint32_t j = 0; j < t.n; j++) {
        const int i = (int)j - lead;
        t.d[j] = i < 0 ? 1 : s->d[i];
        t.b[j] = i < 0 ? 0 : bf->d[i];
        t.o[j] = t.d[j] + t.b[j] + (i < 0 ? 0 : af->d[i]);
        ys.d[j] = t.o[j];
    }
    uint64_t n_in, n_out;
    int rc;
    if ((rc = tensor_elems(cfg, "shape", "the input", s, t.size, &n_in, err)) != DV_OK ||
        (rc = tensor_elems(cfg, "after", "the output", &ys, t.size, &n_out, err)) != DV_OK)
        return rc;
    uint8_t bits[4] = {0};
    dv_ops_store(bits, dt, 0, v->v[PD_VALUE].f);
    if (t.size == 1)
        t.pattern = (uint64_t)bits[0] * 0x101u;
    else if (t.size == 2)
        t.pattern = (uint64_t)bits[0] | (uint64_t)bits[1] << 8;
    else
        t.pattern = (uint64_t)bits[0] | (uint64_t)bits[1] << 8 | (uint64_t)bits[2] << 16 | (uint64_t)bits[3] << 24;
    const uint64_t wout = t.o[t.n - 1], w = t.d[t.n - 1];
    t.rows = n_out / wout;
    if ((rc = need_pad(cfg, "before", "runs", t.size, wout * t.size, err)) != DV_OK)
        return rc;
    const uint64_t cores = v->v[PD_CORES].i ? (uint64_t)v->v[PD_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    t.vbytes = dv_round_up(wout * t.size, 256);
    t.pitch = dv_round_up(w * t.size, BLK);
    if (t.vbytes + 2 * t.pitch > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "shape", "an output row of %llu bytes and two input rows need %llu bytes of UB, "
                                  "core.ub_size_bytes is %llu (rows this long are not supported)",
                                  (unsigned long long)(wout * t.size),
                                  (unsigned long long)(t.vbytes + 2 * t.pitch), (unsigned long long)cfg->ub_size_bytes);
    const uint64_t fit = (cfg->ub_size_bytes - t.vbytes) / 2 / t.pitch;
    t.gr = dv_min_u64(fit, dv_max_u64(1, dv_ceil_div(t.rows, cores)));
    t.units = dv_ceil_div(t.rows, t.gr);

    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_min_u64(cores, t.units);
    plan->info.subs = 1;
    if ((rc = dv_ops_add_arg(plan, "x", dt, n_in, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "y", dt, n_out, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 0;
    plan->bytes = (n_in + n_out) * t.size;
    plan->tol_scale = 1.0;
    return DV_OK;
}

static void pad_kernel(dv_k_t *k, const void *params)
{
    const pad_tiling_t *t = params;
    uint64_t first, end;
    block_units(k, t->units, &first, &end);
    if (first == end)
        return;
    const uint64_t sz = t->size, w = t->d[t->n - 1], wout = t->o[t->n - 1], bl = t->b[t->n - 1];
    dv_que_t vq, q;
    dvk_que_init(k, &vq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 1, t->vbytes);
    uint64_t val = dvk_que_alloc(k, &vq);
    const uint64_t max_rep = dv_ops_field_max(DV_FORM_VDUP, DV_FLD(VDUP, repeat));
    for (uint64_t r = 0, reps = t->vbytes / 256; r < reps; r += max_rep)
        dvk_vdup(k, val + r * 256, sz == 4 ? DV_DT_U32 : DV_DT_U16, (double)t->pattern,
                 (int64_t)dv_min_u64(max_rep, reps - r), 1, 8);
    dvk_que_enque(k, &vq, val);
    val = dvk_que_deque(k, &vq);
    dvk_que_init(k, &q, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_MTE3, 2, t->gr * t->pitch);
    for (uint64_t u = first; u < end; u++) {
        const uint64_t r0 = u * t->gr, nr = dv_min_u64(t->gr, t->rows - r0);
        uint64_t buf = dvk_que_alloc(k, &q);
        for (uint64_t i = 0; i < nr; i++) {
            const uint64_t src = pad_src_row(t, r0 + i);
            if (src != UINT64_MAX)
                dv_ops_rows_move(k, false, buf + i * t->pitch, t->pitch, 0, src * w * sz, w * sz, 1, w * sz);
        }
        dvk_que_enque(k, &q, buf);
        buf = dvk_que_deque(k, &q);
        for (uint64_t i = 0; i < nr; i++) {
            const uint64_t gm = (r0 + i) * wout * sz;
            if (pad_src_row(t, r0 + i) == UINT64_MAX) {
                dv_ops_rows_move(k, true, val, t->vbytes, 1, gm, wout * sz, 1, wout * sz);
                continue;
            }
            if (bl)
                dv_ops_rows_move(k, true, val, t->vbytes, 1, gm, wout * sz, 1, bl * sz);
            dv_ops_rows_move(k, true, buf + i * t->pitch, t->pitch, 1, gm + bl * sz, wout * sz, 1, w * sz);
            if (wout > bl + w)
                dv_ops_rows_move(k, true, val, t->vbytes, 1, gm + (bl + w) * sz, wout * sz, 1, (wout - bl - w) * sz);
        }
        dvk_que_free(k, &q, buf);
    }
    dvk_que_free(k, &vq, val);
}

static int pad_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    pad_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const uint64_t w = t.d[t.n - 1], wout = t.o[t.n - 1], bl = t.b[t.n - 1];
    uint8_t v[4];
    for (unsigned i = 0; i < t.size; i++)
        v[i] = (uint8_t)(t.pattern >> (8 * (i % (t.size == 1 ? 1 : t.size))));
    for (uint64_t r = 0; r < t.rows; r++) {
        const uint64_t src = pad_src_row(&t, r);
        for (uint64_t j = 0; j < wout; j++) {
            uint8_t *dst = expect[1] + (r * wout + j) * t.size;
            if (src == UINT64_MAX || j < bl || j >= bl + w)
                memcpy(dst, v, t.size);
            else
                memcpy(dst, in[0] + (src * w + j - bl) * t.size, t.size);
        }
    }
    return DV_OK;
}

/* pad (ops/ops.def row). */
const dv_opdesc_t dv_op_pad = {
    .name = "pad",
    .desc = "y = x with --before / --after elements of --value on each axis: rows by DMA, the value from one vdup "
            "block",
    .params = pad_params, .nparams = PD_COUNT, .plan = pad_plan, .kernel = pad_kernel, .reference = pad_reference};

/* ================================================================ eye (s20-move)
 *
 * y = the identity of each NxM matrix (...xNxM): 1 where the column is the row, 0 elsewhere; made
 * without an input.  Two UB blocks are set once by the vector unit (vdup of 0, and of the bits of 1
 * in the dtype); each row is up to three DMAs out: zeros before the diagonal, its one element, zeros
 * after.  A unit is gr rows. */

enum { EY_SHAPE, EY_DTYPE, EY_CORES, EY_COUNT };

static const dv_oparam_spec_t eye_params[EY_COUNT] = {
    [EY_SHAPE] = {"shape", DV_OPT_SHAPE, "256x256", 1, INT64_C(1) << 40, 0, "output ...xNxM (at least 2 dimensions)"},
    [EY_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, BYTE_DTYPES, "element type of y"},
    [EY_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0, "blocks (auto: every vector core); at most one per unit"},
};

typedef struct eye_tiling {
    uint32_t dtype, size;
    uint64_t one;              /* the bits of 1, as vdup of 16 (size <= 2) or 32 bits takes them */
    uint64_t rows, n, m, gr, units, zbytes;
} eye_tiling_t;

static int eye_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                    dv_error_t *err)
{
    const dv_shape_t *s = &v->v[EY_SHAPE].shape;
    const dv_dtype_t dt = v->v[EY_DTYPE].dt;
    eye_tiling_t t;
    memset(&t, 0, sizeof t);
    t.dtype = (uint32_t)dt;
    t.size = dv_dtype_size(dt);
    if (s->ndims < 2)
        return dv_ops_param_error(err, "shape", "give at least NxM (%d dimension given)", s->ndims);
    uint64_t n_out;
    int rc;
    if ((rc = tensor_elems(cfg, "shape", "the output", s, t.size, &n_out, err)) != DV_OK)
        return rc;
    t.m = s->d[s->ndims - 1];
    t.n = s->d[s->ndims - 2];
    t.rows = n_out / t.m;
    uint8_t bits[4] = {0};
    dv_ops_store(bits, dt, 0, 1.0);
    t.one = t.size == 1 ? (uint64_t)bits[0] * 0x101u
                        : (uint64_t)bits[0] | (uint64_t)bits[1] << 8 | (uint64_t)bits[2] << 16 | (uint64_t)bits[3] << 24;
    if ((rc = need_pad(cfg, "shape", "runs", t.size, t.m * t.size, err)) != DV_OK)
        return rc;
    t.zbytes = dv_round_up(t.m * t.size, 256);
    if (t.zbytes + 256 > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "shape", "a row of %llu bytes does not fit core.ub_size_bytes %llu",
                                  (unsigned long long)(t.m * t.size), (unsigned long long)cfg->ub_size_bytes);
    const uint64_t cores = v->v[EY_CORES].i ? (uint64_t)v->v[EY_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    t.gr = dv_max_u64(1, dv_ceil_div(t.rows, cores));
    t.units = dv_ceil_div(t.rows, t.gr);

    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_min_u64(cores, t.units);
    plan->info.subs = 1;
    if ((rc = dv_ops_add_arg(plan, "y", dt, n_out, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 0;
    plan->bytes = n_out * t.size;
    plan->tol_scale = 1.0;
    return DV_OK;
}

static void eye_kernel(dv_k_t *k, const void *params)
{
    const eye_tiling_t *t = params;
    uint64_t first, end;
    block_units(k, t->units, &first, &end);
    if (first == end)
        return;
    const uint64_t sz = t->size, row = t->m * sz;
    const dv_dtype_t vt = sz == 4 ? DV_DT_U32 : DV_DT_U16;
    dv_que_t vq;
    dvk_que_init(k, &vq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 1, t->zbytes + 256);
    uint64_t zero = dvk_que_alloc(k, &vq);
    const uint64_t max_rep = dv_ops_field_max(DV_FORM_VDUP, DV_FLD(VDUP, repeat));
    for (uint64_t r = 0, reps = t->zbytes / 256; r < reps; r += max_rep)
        dvk_vdup(k, zero + r * 256, vt, 0.0, (int64_t)dv_min_u64(max_rep, reps - r), 1, 8);
    const uint64_t one = zero + t->zbytes;
    dvk_vdup(k, one, vt, (double)t->one, 1, 1, 8);
    dvk_que_enque(k, &vq, zero);
    zero = dvk_que_deque(k, &vq);
    for (uint64_t u = first; u < end; u++) {
        const uint64_t r0 = u * t->gr, nr = dv_min_u64(t->gr, t->rows - r0);
        for (uint64_t i = 0; i < nr; i++) {
            const uint64_t r = r0 + i, c = r % t->n, gm = r * row;
            if (c >= t->m) {
                dv_ops_rows_move(k, true, zero, t->zbytes, 0, gm, row, 1, row);
                continue;
            }
            if (c > 0)
                dv_ops_rows_move(k, true, zero, t->zbytes, 0, gm, row, 1, c * sz);
            dv_ops_rows_move(k, true, one, BLK, 0, gm + c * sz, row, 1, sz);
            if (c + 1 < t->m)
                dv_ops_rows_move(k, true, zero, t->zbytes, 0, gm + (c + 1) * sz, row, 1, (t->m - c - 1) * sz);
        }
    }
    dvk_que_free(k, &vq, zero);
}

static int eye_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    (void)in;
    eye_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    for (uint64_t r = 0; r < t.rows; r++)
        if (r % t.n < t.m)
            dv_ops_store(expect[0], (dv_dtype_t)t.dtype, r * t.m + r % t.n, 1.0);
    return DV_OK;
}

/* eye (ops/ops.def row). */
const dv_opdesc_t dv_op_eye = {
    .name = "eye",
    .desc = "y = the identity of each NxM matrix, made without an input: zero runs and the one per row by DMA from "
            "vdup blocks",
    .params = eye_params, .nparams = EY_COUNT, .plan = eye_plan, .kernel = eye_kernel, .reference = eye_reference};

/* ================================================================ one_hot (s20-move)
 *
 * y[j, :] = off everywhere but on at column index[j] (C columns, --classes), for the N indices
 * (--index, int32; --index64: int64 as two words, as index_select reads them).  An index outside
 * [0, C) gives a row of off (TensorFlow's one_hot; CANN's OneHot follows it).  The scalar unit reads
 * on and off (ld_gm: both one-element arguments) and the vector unit sets a block of off and one of
 * on (vdup of their bits); each row is then up to three DMAs out, as eye's, at the column the scalar
 * unit read for it. */

enum { OH_INDEX, OH_CLASSES, OH_DTYPE, OH_INDEX64, OH_CORES, OH_COUNT };

static const dv_oparam_spec_t one_hot_params[OH_COUNT] = {
    [OH_INDEX] = {"index", DV_OPT_INT, "4096", 1, INT64_C(1) << 40, 0, "number of indices N: y is [N, C]"},
    [OH_CLASSES] = {"classes", DV_OPT_INT, "16", 1, INT32_MAX, 0, "number of classes C"},
    [OH_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, BYTE_DTYPES, "element type of on, off and y"},
    [OH_INDEX64] = {"index64", DV_OPT_BOOL, "off", 0, 0, 0,
                    "indices are int64: two 32-bit words each, low word first (the index argument is int32, 2N words)"},
    [OH_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0, "blocks (auto: every vector core); at most one per unit"},
};

typedef struct one_hot_tiling {
    uint32_t dtype, size, words;
    uint64_t n, c, gr, units, zbytes;
} one_hot_tiling_t;

static int one_hot_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                        dv_error_t *err)
{
    const dv_dtype_t dt = v->v[OH_DTYPE].dt;
    one_hot_tiling_t t;
    memset(&t, 0, sizeof t);
    t.dtype = (uint32_t)dt;
    t.size = dv_dtype_size(dt);
    t.words = v->v[OH_INDEX64].i ? 2 : 1;
    t.n = (uint64_t)v->v[OH_INDEX].i;
    t.c = (uint64_t)v->v[OH_CLASSES].i;
    dv_shape_t ys = {.ndims = 2, .d = {t.n, t.c}}, is = {.ndims = 1, .d = {t.n * t.words}};
    uint64_t n_out, n_idx;
    int rc;
    if ((rc = tensor_elems(cfg, "index", "the output", &ys, t.size, &n_out, err)) != DV_OK ||
        (rc = tensor_elems(cfg, "index", "the index", &is, 4, &n_idx, err)) != DV_OK)
        return rc;
    if ((rc = need_pad(cfg, "classes", "runs", t.size, t.c * t.size, err)) != DV_OK)
        return rc;
    t.zbytes = dv_round_up(t.c * t.size, 256);
    if (t.zbytes + 256 > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "classes", "a row of %llu bytes does not fit core.ub_size_bytes %llu",
                                  (unsigned long long)(t.c * t.size), (unsigned long long)cfg->ub_size_bytes);
    const uint64_t cores = v->v[OH_CORES].i ? (uint64_t)v->v[OH_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    t.gr = dv_max_u64(1, dv_ceil_div(t.n, cores));
    t.units = dv_ceil_div(t.n, t.gr);

    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_min_u64(cores, t.units);
    plan->info.subs = 1;
    if ((rc = dv_ops_add_arg(plan, "index", DV_DT_S32, n_idx, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "on", dt, 1, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "off", dt, 1, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "y", dt, n_out, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 0;
    plan->bytes = n_out * t.size + n_idx * 4;
    plan->tol_scale = 1.0;
    return DV_OK;
}

/* A value's bits as vdup of 16 bits (sizes 1 and 2; a byte twice) or 32 bits takes them. */
static uint64_t one_hot_pattern(uint64_t bits, uint32_t size)
{
    return size == 1 ? (bits & 0xffu) * 0x101u : size == 2 ? bits & 0xffffu : bits & 0xffffffffu;
}

static void one_hot_kernel(dv_k_t *k, const void *params)
{
    const one_hot_tiling_t *t = params;
    uint64_t first, end;
    block_units(k, t->units, &first, &end);
    if (first == end)
        return;
    const uint64_t sz = t->size, row = t->c * sz;
    const dv_dtype_t lt = sz == 1 ? DV_DT_U8 : sz == 2 ? DV_DT_U16 : DV_DT_U32, vt = sz == 4 ? DV_DT_U32 : DV_DT_U16;
    const uint64_t on = dvk_load_gm(k, dvk_gm(k, 1, 0), lt), off = dvk_load_gm(k, dvk_gm(k, 2, 0), lt);
    dv_que_t vq;
    dvk_que_init(k, &vq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 1, t->zbytes + 256);
    uint64_t offb = dvk_que_alloc(k, &vq);
    const uint64_t max_rep = dv_ops_field_max(DV_FORM_VDUP, DV_FLD(VDUP, repeat));
    for (uint64_t r = 0, reps = t->zbytes / 256; r < reps; r += max_rep)
        dvk_vdup(k, offb + r * 256, vt, (double)one_hot_pattern(off, t->size), (int64_t)dv_min_u64(max_rep, reps - r),
                 1, 8);
    const uint64_t onb = offb + t->zbytes;
    dvk_vdup(k, onb, vt, (double)one_hot_pattern(on, t->size), 1, 1, 8);
    dvk_que_enque(k, &vq, offb);
    offb = dvk_que_deque(k, &vq);
    for (uint64_t u = first; u < end; u++) {
        const uint64_t j0 = u * t->gr, nj = dv_min_u64(t->gr, t->n - j0);
        for (uint64_t j = j0; j < j0 + nj; j++) {
            const uint64_t lo = dvk_load_gm(k, dvk_gm(k, 0, j * t->words * 4), DV_DT_S32);
            const uint64_t hi = t->words == 2 ? dvk_load_gm(k, dvk_gm(k, 0, j * 8 + 4), DV_DT_S32) : 0;
            const int64_t c = index_value(lo, hi, t->words);
            const uint64_t gm = j * row;
            if (c < 0 || (uint64_t)c >= t->c) {
                dv_ops_rows_move(k, true, offb, t->zbytes, 3, gm, row, 1, row);
                continue;
            }
            if (c > 0)
                dv_ops_rows_move(k, true, offb, t->zbytes, 3, gm, row, 1, (uint64_t)c * sz);
            dv_ops_rows_move(k, true, onb, BLK, 3, gm + (uint64_t)c * sz, row, 1, sz);
            if ((uint64_t)c + 1 < t->c)
                dv_ops_rows_move(k, true, offb, t->zbytes, 3, gm + ((uint64_t)c + 1) * sz, row, 1,
                                 (t->c - (uint64_t)c - 1) * sz);
        }
    }
    dvk_que_free(k, &vq, offb);
}

static int one_hot_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    one_hot_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    for (uint64_t j = 0; j < t.n; j++) {
        uint32_t w[2] = {0, 0};
        memcpy(w, in[0] + j * t.words * 4, t.words * 4);
        const int64_t c = index_value(w[0], w[1], t.words);
        for (uint64_t e = 0; e < t.c; e++)
            memcpy(expect[3] + (j * t.c + e) * t.size, (int64_t)e == c ? in[1] : in[2], t.size);
    }
    return DV_OK;
}

/* one_hot (ops/ops.def row). */
const dv_opdesc_t dv_op_one_hot = {
    .name = "one_hot",
    .desc = "y[j, :] = off but on at column index[j] (outside [0, C): all off); the scalar unit reads each index, "
            "runs by DMA from vdup blocks",
    .params = one_hot_params, .nparams = OH_COUNT, .plan = one_hot_plan, .kernel = one_hot_kernel,
    .reference = one_hot_reference};

/* ================================================================ gather_elements (s20-move)
 *
 * y[o, j, i] = x[o, index[o, j, i], i] of x as [outer, L, inner] and index (and y) [outer, J,
 * inner] (torch.gather along the middle axis; --index J, int32 or --index64).  Every element is
 * its own: a unit is a chunk of cw output elements of one row [o, j, :]; for each the scalar unit
 * reads its index (ld_gm) and one DMA brings x's element into its own UB block (a DMA's UB side
 * starts on a block), then one DMA writes the chunk (a burst of one element per block).  An index
 * outside [-L, L) fails the kernel.  --check draws the index words in [-8, 8]: L at least 9. */

enum { GE_SHAPE, GE_DTYPE, GE_INDEX, GE_INDEX64, GE_CORES, GE_COUNT };

static const dv_oparam_spec_t gather_elements_params[GE_COUNT] = {
    [GE_SHAPE] = {"shape", DV_OPT_SHAPE, "8x64x32", 1, INT64_C(1) << 40, 0, "input as [outer, L, inner] (3 dims)"},
    [GE_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, BYTE_DTYPES, "element type of x and y"},
    [GE_INDEX] = {"index", DV_OPT_INT, "16", 1, INT64_C(1) << 40, 0, "J: index and y are [outer, J, inner]"},
    [GE_INDEX64] = {"index64", DV_OPT_BOOL, "off", 0, 0, 0,
                    "indices are int64: two 32-bit words each, low word first (the index argument is int32)"},
    [GE_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0, "blocks (auto: every vector core); at most one per unit"},
};

typedef struct gather_elements_tiling {
    uint32_t dtype, size, words;
    uint64_t outer, len, inner, j;
    uint64_t cw, nch, units;
} gather_elements_tiling_t;

static int gather_elements_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v,
                                dv_op_plan_t *plan, dv_error_t *err)
{
    const dv_shape_t *s = &v->v[GE_SHAPE].shape;
    const dv_dtype_t dt = v->v[GE_DTYPE].dt;
    gather_elements_tiling_t t;
    memset(&t, 0, sizeof t);
    t.dtype = (uint32_t)dt;
    t.size = dv_dtype_size(dt);
    t.words = v->v[GE_INDEX64].i ? 2 : 1;
    if (s->ndims != 3)
        return dv_ops_param_error(err, "shape", "give [outer, L, inner] (%d dimensions given)", s->ndims);
    t.outer = s->d[0];
    t.len = s->d[1];
    t.inner = s->d[2];
    t.j = (uint64_t)v->v[GE_INDEX].i;
    if (t.len > INT32_MAX)
        return dv_ops_param_error(err, "shape", "L is %llu; indices are read as int32, so L is at most %d",
                                  (unsigned long long)t.len, INT32_MAX);
    dv_shape_t ys = {.ndims = 3, .d = {t.outer, t.j, t.inner}}, is = {.ndims = 1, .d = {t.outer * t.j * t.inner * t.words}};
    uint64_t n_in, n_out, n_idx;
    int rc;
    if ((rc = tensor_elems(cfg, "shape", "the input", s, t.size, &n_in, err)) != DV_OK ||
        (rc = tensor_elems(cfg, "index", "the output", &ys, t.size, &n_out, err)) != DV_OK ||
        (rc = tensor_elems(cfg, "index", "the index", &is, 4, &n_idx, err)) != DV_OK)
        return rc;
    if ((rc = need_pad(cfg, "shape", "elements", t.size, t.inner * t.size, err)) != DV_OK)
        return rc;
    const uint64_t half = cfg->ub_size_bytes / 2 / BLK * BLK;
    if (half < BLK)
        return dv_ops_param_error(err, "shape", "core.ub_size_bytes %llu holds no double-buffered 32-B block",
                                  (unsigned long long)cfg->ub_size_bytes);
    t.cw = dv_min_u64(t.inner, half / BLK);
    t.nch = dv_ceil_div(t.inner, t.cw);
    t.units = t.outer * t.j * t.nch;
    const uint64_t cores = v->v[GE_CORES].i ? (uint64_t)v->v[GE_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);

    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_min_u64(cores, t.units);
    plan->info.subs = 1;
    if ((rc = dv_ops_add_arg(plan, "x", dt, n_in, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "index", DV_DT_S32, n_idx, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "y", dt, n_out, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 0;
    plan->bytes = 2 * n_out * t.size + n_idx * 4;
    plan->tol_scale = 1.0;
    return DV_OK;
}

static void gather_elements_kernel(dv_k_t *k, const void *params)
{
    const gather_elements_tiling_t *t = params;
    uint64_t first, end;
    block_units(k, t->units, &first, &end);
    if (first == end)
        return;
    const uint64_t sz = t->size;
    dv_que_t q;
    dvk_que_init(k, &q, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_MTE3, 2, t->cw * BLK);
    for (uint64_t u = first; u < end; u++) {
        const uint64_t row = u / t->nch, c0 = u % t->nch * t->cw, nc = dv_min_u64(t->cw, t->inner - c0);
        const uint64_t o = row / t->j;
        uint64_t buf = dvk_que_alloc(k, &q);
        for (uint64_t i = 0; i < nc; i++) {
            const uint64_t e = row * t->inner + c0 + i;
            const uint64_t lo = dvk_load_gm(k, dvk_gm(k, 1, e * t->words * 4), DV_DT_S32);
            const uint64_t hi = t->words == 2 ? dvk_load_gm(k, dvk_gm(k, 1, e * 8 + 4), DV_DT_S32) : 0;
            int64_t v = index_value(lo, hi, t->words);
            if (v < -(int64_t)t->len || v >= (int64_t)t->len)
                dvk_fail(k, "gather_elements: index element %llu is %lld, outside [-%llu, %llu)", (unsigned long long)e,
                         (long long)v, (unsigned long long)t->len, (unsigned long long)t->len);
            if (v < 0)
                v += (int64_t)t->len;
            dv_ops_rows_move(k, false, buf + i * BLK, BLK, 0, ((o * t->len + (uint64_t)v) * t->inner + c0 + i) * sz, sz,
                             1, sz);
        }
        dvk_que_enque(k, &q, buf);
        buf = dvk_que_deque(k, &q);
        dv_ops_rows_move(k, true, buf, BLK, 2, (row * t->inner + c0) * sz, sz, nc, sz);
        dvk_que_free(k, &q, buf);
    }
}

static int gather_elements_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect,
                                     dv_error_t *err)
{
    gather_elements_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const uint64_t n = t.outer * t.j * t.inner;
    for (uint64_t e = 0; e < n; e++) {
        uint32_t w[2] = {0, 0};
        memcpy(w, in[1] + e * t.words * 4, t.words * 4);
        int64_t v = index_value(w[0], w[1], t.words);
        if (v < -(int64_t)t.len || v >= (int64_t)t.len)
            return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "gather_elements: index element %llu is %lld, outside "
                                "[-%llu, %llu)", (unsigned long long)e, (long long)v, (unsigned long long)t.len,
                                (unsigned long long)t.len);
        if (v < 0)
            v += (int64_t)t.len;
        const uint64_t o = e / (t.j * t.inner), i = e % t.inner;
        memcpy(expect[2] + e * t.size, in[0] + ((o * t.len + (uint64_t)v) * t.inner + i) * t.size, t.size);
    }
    return DV_OK;
}

/* gather_elements (ops/ops.def row). */
const dv_opdesc_t dv_op_gather_elements = {
    .name = "gather_elements",
    .desc = "y[o, j, i] = x[o, index[o, j, i], i] (torch.gather): the scalar unit reads each index, one DMA per "
            "element in, one per chunk out",
    .params = gather_elements_params, .nparams = GE_COUNT, .plan = gather_elements_plan,
    .kernel = gather_elements_kernel, .reference = gather_elements_reference};
