/* ops/expand.c - expand: y = x broadcast from --shape to --to (numpy / torch rules: the shapes are
 * aligned at their last axes, --shape gets leading 1s, and every axis of --shape is either --to's
 * length or 1, which is stretched).  It moves bytes and computes nothing, so it is bit-exact.
 *
 * Geometry.  Axes of length 1 in --to are dropped and neighbouring axes of the same kind (copied:
 * --shape has the length; stretched: --shape has 1) merge, so --to becomes alternating runs.  The
 * last two runs decide the data path, the runs before them ("outer") only move the addresses (an
 * outer index reads the source at the copied runs' strides, 0 along stretched runs):
 * - rows: the last run is copied (L elements) and the one before it stretched (B, or 1): one source
 *   row of L elements becomes B equal output rows, which are contiguous in y.  A unit loads a chunk
 *   of the row (MTE2), replicates it into up to B rows of a UB tile with vcopy in 16-bit units (block
 *   stride 1, source repeat stride 0, destination repeat stride the row pitch: one instruction per
 *   256-B column of the tile; any bits pass unchanged) and writes the tile as one DMA (MTE3).  With
 *   nothing stretched (B = 1: a plain copy) the row chunks go GM -> UB -> GM with no vector work.
 * - elements: the last run is stretched (B) and the one before it copied (L, or 1): every source
 *   element becomes a row of B equal elements.  A unit loads up to ne source elements, vbrcb turns
 *   each into one 32-B block of copies (16- and 32-bit types), and one vcopy per 256-B column of the
 *   tile reads the element's block with block stride 0 into its row.  The 1-byte types have no vbrcb:
 *   the scalar unit reads each element from GM (ld_gm) and vdup fills its row with it (as two bytes
 *   of a u16), one row at a time.
 * Unit rows are at most 255 blocks (8,160 B: the vcopy repeat-stride field), chunked along the run
 * when longer.  Units are (outer index, chunk of the copied run, chunk of the stretched run) and
 * blocks take an even share of them; MTE2 -> V and V -> MTE3 go through two-buffer queues.  Rows
 * whose bytes are not whole 32-B blocks move with DataCopyPad (chip.dma_pad).
 *
 * The reference maps every output index back to its source index in plain C. */
#include "../kernel/kapi_emit.h" /* dvk_<mnemonic> write into the stream (before dv/kapi.h) */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/ops.h"

enum { BLK = 32, REP_BLKS = 8, MAX_ROW_BLKS = 255 };

#define EXPAND_DTYPES (DT_F16 | DT_BF16 | DT_F32 | DT_S8 | DT_U8 | DT_S16 | DT_S32)

enum { EX_SHAPE, EX_TO, EX_DTYPE, EX_CORES, EX_COUNT };

static const dv_oparam_spec_t expand_params[EX_COUNT] = {
    [EX_SHAPE] = {"shape", DV_OPT_SHAPE, "1x64", 1, INT64_C(1) << 40, 0,
                  "shape of x: aligned at the last axis with --to, each axis --to's length or 1"},
    [EX_TO] = {"to", DV_OPT_SHAPE, "32x64", 1, INT64_C(1) << 40, 0,
               "shape of y (at least as many axes as --shape)"},
    [EX_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, EXPAND_DTYPES, "element type of x and y"},
    [EX_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0, "blocks (auto: every vector core); at most one per unit"},
};

enum { MODE_ROWS, MODE_ELEMS };

typedef struct expand_tiling {
    uint32_t dtype, size, mode, nouter;
    uint64_t outer_len[DV_SHAPE_MAX];    /* the outer runs, outermost first */
    uint64_t outer_src[DV_SHAPE_MAX];    /* x elements per step along it (0: stretched) */
    uint64_t outer;                      /* product of outer_len */
    uint64_t L, B;                       /* the copied and the stretched last runs */
    uint64_t lc, bc;                     /* elements per unit along L and along B */
    uint64_t nl, nb;                     /* chunks along L and B */
    uint64_t units;
    uint64_t in_bytes, out_bytes;        /* UB bytes of a queue buffer */
    uint64_t brc_bytes;                  /* elements: the vbrcb blocks */
} expand_tiling_t;

/* Align x's shape to y's and check that it broadcasts; a[] receives x's aligned lengths. */
static int expand_align(const dv_shape_t *s, const dv_shape_t *t, uint64_t *a, dv_error_t *err)
{
    char sb[128], tb[128];
    dv_shape_format(s, sb, sizeof sb);
    dv_shape_format(t, tb, sizeof tb);
    if (s->ndims > t->ndims)
        return dv_ops_param_error(err, "shape", "%s has %d axes, more than --to %s (%d)", sb, s->ndims, tb, t->ndims);
    const int lead = t->ndims - s->ndims;
    for (int d = 0; d < t->ndims; d++) {
        a[d] = d < lead ? 1 : s->d[d - lead];
        if (a[d] != t->d[d] && a[d] != 1)
            return dv_ops_param_error(err, "shape", "%s does not broadcast to --to %s: axis %d has %llu, not 1 or %llu",
                                      sb, tb, d, (unsigned long long)a[d], (unsigned long long)t->d[d]);
    }
    return DV_OK;
}

static uint64_t ub_need(const dv_config_t *cfg, uint64_t bytes)
{
    return dv_round_up(bytes, cfg->ub_align_bytes ? cfg->ub_align_bytes : 1);
}

static int expand_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                       dv_error_t *err)
{
    const dv_shape_t *s = &v->v[EX_SHAPE].shape, *to = &v->v[EX_TO].shape;
    const dv_dtype_t dt = v->v[EX_DTYPE].dt;
    expand_tiling_t t;
    memset(&t, 0, sizeof t);
    t.dtype = (uint32_t)dt;
    t.size = dv_dtype_size(dt);
    uint64_t a[DV_SHAPE_MAX];
    int rc;
    if ((rc = expand_align(s, to, a, err)) != DV_OK)
        return rc;
    const uint64_t n_in = dv_shape_elems(s), n_out = dv_shape_elems(to);
    uint64_t bytes;
    if (n_out == 0 || __builtin_mul_overflow(n_out, (uint64_t)t.size, &bytes) || bytes > cfg->hbm_capacity_bytes)
        return dv_ops_param_error(err, "to", "y has more bytes than hbm.capacity_bytes (%llu)",
                                  (unsigned long long)cfg->hbm_capacity_bytes);

    /* the runs: axes of length 1 dropped, neighbours of one kind merged */
    uint64_t run[DV_SHAPE_MAX];
    bool str[DV_SHAPE_MAX];
    int nr = 0;
    for (int d = 0; d < to->ndims; d++) {
        if (to->d[d] == 1)
            continue;
        const bool st = a[d] == 1;
        if (nr > 0 && str[nr - 1] == st)
            run[nr - 1] *= to->d[d];
        else {
            run[nr] = to->d[d];
            str[nr++] = st;
        }
    }
    if (nr == 0) {
        run[0] = 1;
        str[0] = false;
        nr = 1;
    }
    int last = nr - 1;
    t.mode = str[last] ? MODE_ELEMS : MODE_ROWS;
    if (t.mode == MODE_ROWS) {
        t.L = run[last];
        t.B = last > 0 ? run[--last] : 1;
    } else {
        t.B = run[last];
        t.L = last > 0 && !str[last - 1] ? run[--last] : 1;
    }
    t.nouter = (uint32_t)last;
    uint64_t src = t.L;
    t.outer = 1;
    for (int i = last - 1; i >= 0; i--) {
        t.outer_len[i] = run[i];
        t.outer_src[i] = str[i] ? 0 : src;
        if (!str[i])
            src *= run[i];
        t.outer *= run[i];
    }

    /* chunks: rows of at most 255 blocks (a plain copy: half the UB) */
    const uint64_t ub = cfg->ub_size_bytes, epb = BLK / t.size;
    const uint64_t row_cap = t.mode == MODE_ROWS && t.B == 1 ? ub / 2 / BLK * BLK - BLK : MAX_ROW_BLKS * BLK;
    if (row_cap < BLK || ub < 8 * BLK)
        return dv_ops_param_error(err, "to", "core.ub_size_bytes %llu is too small for the unit buffers",
                                  (unsigned long long)ub);
    const uint64_t run_cap = row_cap / BLK * epb; /* whole blocks, so chunk offsets stay block-aligned */
    if (t.mode == MODE_ROWS) {
        t.lc = dv_min_u64(t.L, run_cap);
        const uint64_t pitch = dv_round_up(t.lc * t.size, BLK);
        t.in_bytes = pitch;
        if (t.B == 1) {
            t.bc = 1;
        } else {
            const uint64_t left = ub - 2 * ub_need(cfg, pitch);
            t.bc = dv_max_u64(1, dv_min_u64(t.B, left / 2 / pitch));
            t.out_bytes = t.bc * pitch;
        }
    } else {
        t.bc = dv_min_u64(t.B, run_cap);
        const uint64_t pitch = dv_round_up(t.bc * t.size, BLK);
        const uint64_t per = 2 * pitch + (t.size == 1 ? 0 : BLK + 2 * t.size);
        uint64_t ne = dv_max_u64(1, dv_min_u64(t.L, (ub - 4 * BLK - 4 * cfg->ub_align_bytes) / per));
        if (t.size > 1)
            ne = dv_min_u64(ne, (uint64_t)255 * REP_BLKS); /* one vbrcb */
        t.lc = ne;
        t.in_bytes = t.size == 1 ? 0 : dv_round_up(ne * t.size, BLK);
        t.brc_bytes = t.size == 1 ? 0 : dv_round_up(ne, REP_BLKS) * BLK;
        t.out_bytes = ne * pitch;
    }
    const uint64_t need = 2 * ub_need(cfg, t.in_bytes) + 2 * ub_need(cfg, t.out_bytes) + ub_need(cfg, t.brc_bytes);
    if (need > ub)
        return dv_ops_param_error(err, "to", "the unit buffers need %llu bytes of UB, core.ub_size_bytes is %llu",
                                  (unsigned long long)need, (unsigned long long)ub);
    const uint64_t row_bytes = (t.mode == MODE_ROWS ? t.L : t.B) * t.size;
    if (!cfg->chip_dma_pad && row_bytes % BLK != 0)
        return dv_ops_param_error(err, "to", "rows of %llu bytes are not whole 32-byte blocks, and profile %s has no "
                                  "DataCopyPad (chip.dma_pad is false)", (unsigned long long)row_bytes,
                                  cfg->chip_name);
    t.nl = dv_ceil_div(t.L, t.lc);
    t.nb = dv_ceil_div(t.B, t.bc);
    t.units = t.outer * t.nl * t.nb;

    const uint64_t cores = v->v[EX_CORES].i ? (uint64_t)v->v[EX_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_min_u64(cores, t.units);
    plan->info.subs = 1;
    if ((rc = dv_ops_add_arg(plan, "x", dt, n_in, DV_ARG_IN, 0, 0)) != DV_OK ||
        (rc = dv_ops_add_arg(plan, "y", dt, n_out, DV_ARG_OUT, 0, 0)) != DV_OK)
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 0;
    plan->bytes = (n_in + n_out) * t.size;
    plan->tol_scale = 1.0;
    dv_ops_tiling_row(plan, "path", NULL, "%s", t.mode == MODE_ELEMS ? "elements" : t.B == 1 ? "copy" : "rows");
    dv_ops_tiling_row(plan, "units", NULL, "%llu", (unsigned long long)t.units);
    return DV_OK;
}

/* ---- kernel ---- */


/* rows x nblk blocks at dst (row pitch dpitch blocks) <- the blocks of src, row r starting at block
 * r*srep with block stride sblk (0: one block repeated): one vcopy per 8-block column, in u16. */
static void fill_rows(dv_k_t *k, uint64_t dst, uint64_t src, uint64_t rows, uint64_t nblk, uint64_t dpitch,
                      int64_t sblk, int64_t srep)
{
    const uint64_t max_rep = dv_ops_field_max(DV_FORM_VUNARY, DV_FLD(VUNARY, repeat));
    for (uint64_t j = 0; j < nblk; j += REP_BLKS) {
        const uint64_t w = dv_min_u64(REP_BLKS, nblk - j);
        if (w < REP_BLKS)
            dvk_mask_first(k, DV_DT_U16, (uint32_t)(w * (BLK / 2)));
        for (uint64_t r = 0; r < rows;) {
            const uint64_t n = dv_min_u64(max_rep, rows - r);
            dvk_vcopy(k, dst + (r * dpitch + j) * BLK, src + (r * (uint64_t)srep + j * (uint64_t)sblk) * BLK,
                      DV_DT_U16, (int64_t)n, 1, sblk, (int64_t)dpitch, srep);
            r += n;
        }
        if (w < REP_BLKS)
            dvk_mask_all(k);
    }
}

/* x's element offset of outer index o. */
static uint64_t outer_src(const expand_tiling_t *t, uint64_t o)
{
    uint64_t off = 0;
    for (int i = (int)t->nouter - 1; i >= 0; i--) {
        off += o % t->outer_len[i] * t->outer_src[i];
        o /= t->outer_len[i];
    }
    return off;
}

static void expand_kernel(dv_k_t *k, const void *params)
{
    const expand_tiling_t *t = params;
    const uint64_t b = dvk_block_idx(k), nbk = dvk_block_num(k), base = t->units / nbk, rem = t->units % nbk;
    const uint64_t first = b * base + dv_min_u64(b, rem), end = first + base + (b < rem);
    if (first == end)
        return;
    const uint64_t sz = t->size;
    const bool copy = t->mode == MODE_ROWS && t->B == 1, bytes1 = sz == 1;
    dv_que_t inq, outq;
    if (t->in_bytes)
        dvk_que_init(k, &inq, DV_SPACE_UB, DV_PIPE_MTE2, copy ? DV_PIPE_MTE3 : DV_PIPE_V, 2, t->in_bytes);
    if (t->out_bytes)
        dvk_que_init(k, &outq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 2, t->out_bytes);
    const uint64_t brc = t->brc_bytes ? dvk_alloc(k, DV_SPACE_UB, t->brc_bytes) : 0;
    for (uint64_t u = first; u < end; u++) {
        const uint64_t o = u / (t->nl * t->nb), lk = u / t->nb % t->nl, bk = u % t->nb;
        const uint64_t l0 = lk * t->lc, ln = dv_min_u64(t->lc, t->L - l0);
        const uint64_t b0 = bk * t->bc, bn = dv_min_u64(t->bc, t->B - b0);
        const uint64_t src = outer_src(t, o) + l0, dst0 = o * t->B * t->L;
        if (t->mode == MODE_ROWS) {
            const uint64_t pitch = dv_round_up(t->lc * sz, BLK);
            uint64_t in = dvk_que_alloc(k, &inq);
            dv_ops_rows_move(k, false, in, pitch, 0, src * sz, ln * sz, 1, ln * sz);
            dvk_que_enque(k, &inq, in);
            in = dvk_que_deque(k, &inq);
            const uint64_t dst = (dst0 + b0 * t->L + l0) * sz;
            if (copy) {
                dv_ops_rows_move(k, true, in, pitch, 1, dst, ln * sz, 1, ln * sz);
                dvk_que_free(k, &inq, in);
                continue;
            }
            uint64_t out = dvk_que_alloc(k, &outq);
            fill_rows(k, out, in, bn, dv_ceil_div(ln * sz, BLK), pitch / BLK, 1, 0);
            dvk_que_free(k, &inq, in);
            dvk_que_enque(k, &outq, out);
            out = dvk_que_deque(k, &outq);
            dv_ops_rows_move(k, true, out, pitch, 1, dst, t->L * sz, bn, ln * sz);
            dvk_que_free(k, &outq, out);
        } else {
            const uint64_t pitch = dv_round_up(t->bc * sz, BLK), nblk = dv_ceil_div(bn * sz, BLK);
            uint64_t out;
            if (bytes1) {
                out = dvk_que_alloc(k, &outq);
                for (uint64_t e = 0; e < ln; e++) {
                    const uint64_t bits = dvk_load_gm(k, dvk_gm(k, 0, src + e), DV_DT_U8) & 0xff;
                    const uint64_t row = out + e * pitch, full = nblk / REP_BLKS, part = nblk % REP_BLKS;
                    if (full)
                        dvk_vdup(k, row, DV_DT_U16, (double)(bits * 0x101), (int64_t)full, 1, REP_BLKS);
                    if (part) {
                        dvk_mask_first(k, DV_DT_U16, (uint32_t)(part * (BLK / 2)));
                        dvk_vdup(k, row + full * REP_BLKS * BLK, DV_DT_U16, (double)(bits * 0x101), 1, 1, REP_BLKS);
                        dvk_mask_all(k);
                    }
                }
            } else {
                uint64_t in = dvk_que_alloc(k, &inq);
                dv_ops_rows_move(k, false, in, t->in_bytes, 0, src * sz, ln * sz, 1, ln * sz);
                dvk_que_enque(k, &inq, in);
                in = dvk_que_deque(k, &inq);
                dvk_vbrcb(k, brc, in, sz == 2 ? DV_DT_U16 : DV_DT_U32, (int64_t)dv_ceil_div(ln, REP_BLKS), 1,
                          REP_BLKS);
                dvk_que_free(k, &inq, in);
                out = dvk_que_alloc(k, &outq);
                dvk_pipe_barrier(k, DV_PIPE_V);
                fill_rows(k, out, brc, ln, nblk, pitch / BLK, 0, 1);
                dvk_pipe_barrier(k, DV_PIPE_V); /* the next unit's vbrcb overwrites brc */
            }
            dvk_que_enque(k, &outq, out);
            out = dvk_que_deque(k, &outq);
            dv_ops_rows_move(k, true, out, pitch, 1, (dst0 + l0 * t->B + b0) * sz, t->B * sz, ln, bn * sz);
            dvk_que_free(k, &outq, out);
        }
    }
}

static int expand_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    expand_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const uint64_t n = plan->elems[1];
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t inner = i % (t.B * t.L), o = i / (t.B * t.L);
        const uint64_t l = t.mode == MODE_ROWS ? inner % t.L : inner / t.B;
        memcpy(expect[1] + i * t.size, in[0] + (outer_src(&t, o) + l) * t.size, t.size);
    }
    return DV_OK;
}

static int expand_bind(const dv_opdesc_t *op, const dv_tensor_desc_t *in, int nin, dv_opvals_t *v,
                       dv_tensor_desc_t *out, dv_error_t *err)
{
    if (nin != 1)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "expand takes 1 input, the node has %d", nin);
    if (!(op->params[EX_DTYPE].dtypes & (1u << in[0].dtype))) {
        char list[128];
        dv_ops_dtype_list(op->params[EX_DTYPE].dtypes, list, sizeof list);
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input 1 is %s; expand takes %s",
                            dv_ops_dtype_name(in[0].dtype), list);
    }
    uint64_t a[DV_SHAPE_MAX];
    int rc = expand_align(&in[0].shape, &v->v[EX_TO].shape, a, err);
    if (rc != DV_OK)
        return rc;
    v->v[EX_SHAPE].shape = in[0].shape;
    v->given[EX_SHAPE] = true;
    v->v[EX_DTYPE].dt = in[0].dtype;
    v->given[EX_DTYPE] = true;
    out->shape = v->v[EX_TO].shape;
    out->dtype = in[0].dtype;
    return DV_OK;
}

/* expand (ops/ops.def row). */
const dv_opdesc_t dv_op_expand = {
    .name = "expand",
    .desc = "y = x broadcast from --shape to --to (axes of length 1 stretched); DMA rows replicated by vcopy, "
            "elements by vbrcb",
    .params = expand_params, .nparams = EX_COUNT, .plan = expand_plan, .kernel = expand_kernel,
    .reference = expand_reference, .bind = expand_bind};
