/* fusion/kernel.c - the composed vector kernel of a fused group: the Ascend C CopyIn -> Compute ->
 * CopyOut loop of one operator, with Compute being every operator of the group in turn.
 *
 * Per block a range of the group's [rows, cols] view (whole rows; a flat element-wise view has one
 * row and blocks take ranges of `unit` columns, 512 B as the element-wise operators split), walked
 * in tiles of tile_rows x tile_cols.  Each tensor of the group is a slot:
 *   - an input of the group (read from GM): a TQue-style queue MTE2 -> V of `depth` buffers;
 *   - a tensor needed outside the group (a graph output or read by another group): a queue
 *     V -> MTE3 of `depth` buffers, stored after the tile's Compute;
 *   - an intermediate that never leaves the group: one UB buffer, written and read on V only, so
 *     it needs no flag (the V pipe runs in order; pipe_barrier(V) separates the operators).
 * With depth 2 CopyIn runs one tile ahead of Compute, as the operators' own kernels do.  Every
 * operator's own buffers (fp32 scratch, parameter vectors) come from its tile code's setup, once
 * per block.  Rows are `pitch` elements apart in UB (32 B of every dtype); GM rows are `cols`
 * apart.  Rows whose bytes are not whole 32-B blocks use DataCopyPad (the plan checks
 * chip.dma_pad).
 *
 * A cube epilogue group puts the cube operator in front (node 0, dv_cube_ops_t):
 *   - split chip (910B): a mix kernel.  The AIC runs the cube operator's own loop, but FixPipe
 *     writes each finished tile into a ring of FK_WS_SLOTS tile slots of a GM workspace (which the
 *     L2 keeps) and signals the group's AIVs (cross flag FK_DONE_FLAG, mode 2); each AIV takes its
 *     share of the tile's rows in chunks, waits for the signal before loading its first chunk and
 *     acknowledges (FK_ACK_FLAG, mode 2, set on MTE2 after its last load from the slot) so the AIC
 *     may overwrite the slot, then runs the epilogue and stores.
 *   - coupled core (310, 910A): a cube kernel.  For each chunk of a finished tile the cube
 *     operator calls back (dv_cube_sink_t.chunk): the chunk moves L0C -> UB on V (quantised as the
 *     operator's plan says) into the head slot and the epilogue runs on it in the same core. */
#include <string.h>

#include "dv/intmath.h"
#include "internal.h"

enum { BLK = 32 };

/* rows x row_bytes between GM (rows gm_stride bytes apart) and UB (rows ub_pitch bytes apart). */
static void fk_copy(dv_k_t *k, bool to_ub, uint64_t ub, uint64_t gm, uint64_t rows, uint64_t row_bytes,
                    uint64_t gm_stride, uint64_t ub_pitch)
{
    const uint64_t max_nburst = dv_ops_field_max(DV_FORM_DMA, DV_FLD(DMA, nburst));
    const uint64_t max_len = dv_ops_field_max(DV_FORM_DMA, DV_FLD(DMA, len));
    const uint64_t max_gap = dv_ops_field_max(DV_FORM_DMA, DV_FLD(DMA, src_gap));
    if (rows == 1) /* one run: the strides do not matter */
        gm_stride = ub_pitch = row_bytes;
    if (row_bytes % BLK == 0 && gm_stride % BLK == 0 && ub_pitch % BLK == 0) {
        if (gm_stride == row_bytes && ub_pitch == row_bytes) { /* one run of whole blocks */
            const uint64_t blocks = rows * row_bytes / BLK;
            for (uint64_t b = 0; b < blocks; b += max_len) {
                const uint64_t n = dv_min_u64(max_len, blocks - b);
                if (to_ub)
                    dvk_copy_gm_to_ubuf(k, ub + b * BLK, gm + b * BLK, 1, (int64_t)n, 0, 0);
                else
                    dvk_copy_ubuf_to_gm(k, gm + b * BLK, ub + b * BLK, 1, (int64_t)n, 0, 0);
            }
            return;
        }
        const uint64_t gg = (gm_stride - row_bytes) / BLK, ug = (ub_pitch - row_bytes) / BLK;
        if (row_bytes / BLK <= max_len && gg <= max_gap && ug <= max_gap) {
            for (uint64_t r = 0; r < rows; r += max_nburst) {
                const int64_t n = (int64_t)dv_min_u64(max_nburst, rows - r);
                if (to_ub)
                    dvk_copy_gm_to_ubuf(k, ub + r * ub_pitch, gm + r * gm_stride, n, (int64_t)(row_bytes / BLK),
                                        (int64_t)gg, (int64_t)ug);
                else
                    dvk_copy_ubuf_to_gm(k, gm + r * gm_stride, ub + r * ub_pitch, n, (int64_t)(row_bytes / BLK),
                                        (int64_t)ug, (int64_t)gg);
            }
            return;
        }
    }
    /* DataCopyPad: byte rows, each UB row 32 B aligned; UB gap in blocks after ceil32(row) */
    const uint64_t ug = (ub_pitch - dv_round_up(row_bytes, BLK)) / BLK, gg = gm_stride - row_bytes;
    const uint64_t max_pn = dv_ops_field_max(DV_FORM_DMAPAD, DV_FLD(DMAPAD, nburst));
    for (uint64_t r = 0; r < rows; r += max_pn) {
        const int64_t n = (int64_t)dv_min_u64(max_pn, rows - r);
        if (to_ub)
            dvk_copy_gm_to_ubuf_align(k, ub + r * ub_pitch, gm + r * gm_stride, n, (int64_t)row_bytes, (int64_t)gg,
                                      (int64_t)ug, 0, 0, 1);
        else
            dvk_copy_ubuf_to_gm_align(k, gm + r * gm_stride, ub + r * ub_pitch, n, (int64_t)row_bytes, (int64_t)ug,
                                      (int64_t)gg);
    }
}

typedef enum slot_kind { SLOT_IN, SLOT_OUT, SLOT_LOCAL } slot_kind_t;

/* The head slot of a split cube group is loaded (from the workspace); on a coupled core it is
 * written on V by the L0C -> UB move. */
static slot_kind_t slot_kind(const dv_fkernel_t *f, int i)
{
    if (f->cube && i == f->head_slot)
        return f->split ? SLOT_IN : SLOT_LOCAL;
    const fk_slot_t *s = &f->slot[i];
    return s->gm_in >= 0 ? SLOT_IN : s->gm_out >= 0 ? SLOT_OUT : SLOT_LOCAL;
}

static uint64_t slot_bytes(const dv_fkernel_t *f, int i, uint64_t tile_rows, uint64_t pitch, uint64_t align)
{
    return dv_round_up(tile_rows * pitch * dv_dtype_size((dv_dtype_t)f->slot[i].dtype), align);
}

uint64_t dv_fkernel_ub_bytes(const dv_fkernel_t *f, const dv_config_t *cfg, uint64_t tile_rows, uint64_t pitch)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < f->nslots; i++)
        total += (slot_kind(f, (int)i) == SLOT_LOCAL ? 1 : f->depth) *
                 slot_bytes(f, (int)i, tile_rows, pitch, cfg->ub_align_bytes);
    for (uint32_t n = f->cube; n < f->nnodes; n++)
        if (f->node[n].tile->ub_bytes)
            total += f->node[n].tile->ub_bytes(&f->node[n].plan, cfg, tile_rows, pitch);
    return total;
}

void dv_fkernel_queues(const dv_fkernel_t *f, uint32_t *in, uint32_t *out)
{
    *in = *out = 0;
    for (uint32_t i = 0; i < f->nslots; i++) {
        *in += slot_kind(f, (int)i) == SLOT_IN;
        *out += slot_kind(f, (int)i) == SLOT_OUT;
    }
}

uint64_t dv_fkernel_ws_bytes(const dv_fkernel_t *f, uint32_t blocks)
{
    if (!f->cube || !f->split)
        return 0;
    return (uint64_t)blocks * f->slots * f->bm * f->bn * dv_dtype_size((dv_dtype_t)f->slot[f->head_slot].dtype);
}

/* One piece of work: rows [r, r + nr) x columns [c, c + nc) of the view, at `pitch` in UB.  In a
 * split cube group it is a chunk of tile `tile` (its rows from row `tr` of the tile), the first
 * (wait) and/or last (ack) chunk this AIV loads from the tile's workspace slot. */
typedef struct fk_item {
    uint64_t r, nr, c, nc, pitch;
    uint64_t tile, tr;
    bool wait, ack;
} fk_item_t;

/* A block's state: the slots' queues and buffers, the operators' tile state. */
typedef struct fk_rt {
    const dv_fkernel_t *f;
    dv_que_t que[FK_MAX_SLOTS];
    uint64_t local[FK_MAX_SLOTS], cur[FK_MAX_SLOTS];
    _Alignas(16) unsigned char state[DV_GROUP_MAX_NODES][DV_TILE_STATE_BYTES];
} fk_rt_t;

static void rt_init(dv_k_t *k, fk_rt_t *rt, const dv_fkernel_t *f)
{
    rt->f = f;
    const uint64_t align = dvk_config(k)->ub_align_bytes;
    for (uint32_t s = 0; s < f->nslots; s++) {
        const uint64_t bytes = slot_bytes(f, (int)s, f->tile_rows, f->pitch, align);
        switch (slot_kind(f, (int)s)) {
        case SLOT_IN: dvk_que_init(k, &rt->que[s], DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, f->depth, bytes); break;
        case SLOT_OUT: dvk_que_init(k, &rt->que[s], DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, f->depth, bytes); break;
        case SLOT_LOCAL: rt->local[s] = dvk_alloc(k, DV_SPACE_UB, bytes); break;
        }
    }
    for (uint32_t n = f->cube; n < f->nnodes; n++)
        if (f->node[n].tile->setup)
            f->node[n].tile->setup(k, &f->node[n].plan, f->node[n].argmap, f->tile_rows, f->pitch, rt->state[n]);
}

/* GM <-> UB of one slot's part of an item: a tensor of the view, or the head's workspace slot. */
static void slot_copy(dv_k_t *k, const dv_fkernel_t *f, int s, bool to_ub, uint64_t ub, const fk_item_t *it)
{
    const uint64_t size = dv_dtype_size((dv_dtype_t)f->slot[s].dtype);
    if (f->cube && s == f->head_slot) {
        const uint64_t ring = (uint64_t)dvk_block_idx(k) * f->slots + it->tile % f->slots;
        fk_copy(k, true, ub, dvk_gm(k, f->ws_arg, (ring * f->bm * f->bn + it->tr * f->bn) * size), it->nr,
                it->nc * size, f->bn * size, it->pitch * size);
        return;
    }
    const uint32_t arg = (uint32_t)(to_ub ? f->slot[s].gm_in : f->slot[s].gm_out);
    /* a flat view moves whole 32-B blocks, as the element-wise operators do: a block's range ends on a
     * 512-B boundary or at the tensor's end, whose last block is the argument's padding */
    const uint64_t bytes = f->rows == 1 ? dv_round_up(it->nc * size, BLK) : it->nc * size;
    fk_copy(k, to_ub, ub, dvk_gm(k, arg, (it->r * f->cols + it->c) * size), it->nr, bytes, f->cols * size,
            it->pitch * size);
}

static void copy_in(dv_k_t *k, fk_rt_t *rt, const fk_item_t *it)
{
    const dv_fkernel_t *f = rt->f;
    if (it->wait)
        dvk_wait_cross_flag(k, DV_PIPE_MTE2, FK_DONE_FLAG);
    for (uint32_t s = 0; s < f->nslots && it->nr; s++)
        if (slot_kind(f, (int)s) == SLOT_IN) {
            const uint64_t buf = dvk_que_alloc(k, &rt->que[s]);
            slot_copy(k, f, (int)s, true, buf, it);
            dvk_que_enque(k, &rt->que[s], buf);
        }
    if (it->ack)
        dvk_set_cross_flag(k, DV_PIPE_MTE2, 2, FK_ACK_FLAG);
}

/* Every epilogue / group operator on the item, then its stored tensors out.  On a coupled cube
 * group the head slot was filled on V just before (pre_barrier). */
static void compute_out(dv_k_t *k, fk_rt_t *rt, const fk_item_t *it, bool pre_barrier)
{
    const dv_fkernel_t *f = rt->f;
    if (!it->nr)
        return;
    for (uint32_t s = 0; s < f->nslots; s++)
        switch (slot_kind(f, (int)s)) {
        case SLOT_IN: rt->cur[s] = dvk_que_deque(k, &rt->que[s]); break;
        case SLOT_OUT: rt->cur[s] = dvk_que_alloc(k, &rt->que[s]); break;
        case SLOT_LOCAL: rt->cur[s] = rt->local[s]; break;
        }
    for (uint32_t n = f->cube; n < f->nnodes; n++) {
        const fk_node_t *nd = &f->node[n];
        dv_tile_t tile = {.rows = it->nr, .cols = it->nc, .pitch = it->pitch, .row0 = it->r, .col0 = it->c,
                          .out = rt->cur[nd->out_slot]};
        for (int j = 0; j < nd->nin; j++)
            tile.in[j] = nd->in_slot[j] >= 0 ? rt->cur[nd->in_slot[j]] : 0;
        if (n > f->cube || pre_barrier)
            dvk_pipe_barrier(k, DV_PIPE_V);
        nd->tile->emit(k, &nd->plan, rt->state[n], &tile);
    }
    for (uint32_t s = 0; s < f->nslots; s++)
        if (slot_kind(f, (int)s) == SLOT_OUT)
            dvk_que_enque(k, &rt->que[s], rt->cur[s]);
        else if (slot_kind(f, (int)s) == SLOT_IN)
            dvk_que_free(k, &rt->que[s], rt->cur[s]);
    for (uint32_t s = 0; s < f->nslots; s++)
        if (slot_kind(f, (int)s) == SLOT_OUT) {
            const uint64_t buf = dvk_que_deque(k, &rt->que[s]);
            slot_copy(k, f, (int)s, false, buf, it);
            dvk_que_free(k, &rt->que[s], buf);
        }
}

/* The items of a block, CopyIn running one ahead of Compute with two buffers per queue. */
typedef bool (*item_fn)(const dv_fkernel_t *f, const void *ctx, uint64_t i, fk_item_t *it);

static void run_items(dv_k_t *k, fk_rt_t *rt, item_fn next, const void *ctx, uint64_t n)
{
    const uint64_t ahead = rt->f->depth > 1 ? 1 : 0;
    fk_item_t it;
    for (uint64_t i = 0; i < n + ahead; i++) {
        if (i < n && next(rt->f, ctx, i, &it))
            copy_in(k, rt, &it);
        if (i >= ahead && next(rt->f, ctx, i - ahead, &it))
            compute_out(k, rt, &it, false);
    }
}

/* ---- vector groups: the block's range of the view in tiles ---- */

typedef struct vec_range {
    uint64_t r0, r1, c0, c1, per_row;
} vec_range_t;

static bool vec_item(const dv_fkernel_t *f, const void *ctx, uint64_t i, fk_item_t *it)
{
    const vec_range_t *v = ctx;
    memset(it, 0, sizeof *it);
    it->r = v->r0 + i / v->per_row * f->tile_rows;
    it->nr = dv_min_u64(f->tile_rows, v->r1 - it->r);
    it->c = v->c0 + i % v->per_row * f->tile_cols;
    it->nc = dv_min_u64(f->tile_cols, v->c1 - it->c);
    it->pitch = it->nr == 1 ? dv_round_up(it->nc, f->align_elems) : f->pitch;
    return true;
}

static void vector_body(dv_k_t *k, const dv_fkernel_t *f)
{
    vec_range_t v;
    const uint32_t b = dvk_block_idx(k), nb = dvk_block_num(k);
    if (f->rows == 1 && f->tile_cols < f->cols) { /* flat: column ranges of whole units */
        const uint64_t units = dv_ceil_div(f->cols, f->unit), base = units / nb, rem = units % nb;
        const uint64_t u0 = b * base + dv_min_u64(b, rem), nu = base + (b < rem);
        v.r0 = 0;
        v.r1 = 1;
        v.c0 = dv_min_u64(u0 * f->unit, f->cols);
        v.c1 = dv_min_u64((u0 + nu) * f->unit, f->cols);
    } else {
        v.r0 = f->rows * b / nb;
        v.r1 = f->rows * (b + 1) / nb;
        v.c0 = 0;
        v.c1 = f->cols;
    }
    if (v.r0 >= v.r1 || v.c0 >= v.c1)
        return;
    v.per_row = dv_ceil_div(v.c1 - v.c0, f->tile_cols);
    fk_rt_t rt;
    rt_init(k, &rt, f);
    run_items(k, &rt, vec_item, &v, dv_ceil_div(v.r1 - v.r0, f->tile_rows) * v.per_row);
}

/* ---- split cube groups: the AIVs' chunks of the AIC's tiles ---- */

typedef struct aiv_walk {
    const dv_op_plan_t *plan;
    uint32_t block, aiv;
    uint64_t tiles;
    uint64_t *first;   /* first item of each tile (tiles + 1 entries) */
} aiv_walk_t;

/* This AIV's rows of a tile of mt rows: [lo, hi). */
static void aiv_rows(const dv_fkernel_t *f, uint32_t aiv, uint64_t mt, uint64_t *lo, uint64_t *hi)
{
    const uint64_t share = dv_ceil_div(mt, f->aiv);
    *lo = dv_min_u64(aiv * share, mt);
    *hi = dv_min_u64(*lo + share, mt);
}

static bool aiv_item(const dv_fkernel_t *f, const void *ctx, uint64_t i, fk_item_t *it)
{
    const aiv_walk_t *w = ctx;
    uint64_t lo = 0, hi = w->tiles; /* the tile whose items include i */
    while (hi - lo > 1) {
        const uint64_t mid = (lo + hi) / 2;
        if (w->first[mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    uint64_t m0, mt, n0, nt, a, b;
    f->cube_ops->tile(w->plan, w->block, lo, &m0, &mt, &n0, &nt);
    aiv_rows(f, w->aiv, mt, &a, &b);
    const uint64_t j = i - w->first[lo], n = w->first[lo + 1] - w->first[lo];
    memset(it, 0, sizeof *it);
    it->tile = lo;
    it->tr = dv_min_u64(a + j * f->tile_rows, b);
    it->nr = dv_min_u64(f->tile_rows, b - it->tr);
    it->r = m0 + it->tr;
    it->c = n0;
    it->nc = nt;
    it->pitch = f->pitch;
    it->wait = j == 0;
    it->ack = j == n - 1;
    return true;
}

static void aiv_body(dv_k_t *k, const dv_fkernel_t *f)
{
    aiv_walk_t w = {.plan = &f->node[0].plan, .block = dvk_block_idx(k), .aiv = dvk_sub(k) - DV_SUB_AIV0};
    w.tiles = f->cube_ops->tiles(w.plan, w.block);
    if (!w.tiles)
        return;
    uint64_t first[4097];
    if (w.tiles > 4096)
        dvk_fail(k, "fused kernel: %llu tiles in one block, at most 4096", (unsigned long long)w.tiles);
    w.first = first;
    first[0] = 0;
    for (uint64_t t = 0; t < w.tiles; t++) {
        uint64_t m0, mt, n0, nt, a, b;
        f->cube_ops->tile(w.plan, w.block, t, &m0, &mt, &n0, &nt);
        aiv_rows(f, w.aiv, mt, &a, &b);
        first[t + 1] = first[t] + dv_max_u64(1, dv_ceil_div(b - a, f->tile_rows)); /* an empty share still syncs */
    }
    fk_rt_t rt;
    rt_init(k, &rt, f);
    run_items(k, &rt, aiv_item, &w, first[w.tiles]);
}

/* ---- coupled cube groups: the epilogue called back for each chunk of a tile in L0C ---- */

static void coupled_chunk(dv_k_t *k, const void *ctx, uint64_t l0c, uint64_t m_al, uint64_t r, uint64_t rows,
                          uint64_t m0, uint64_t n0, uint64_t nt)
{
    fk_rt_t *rt = (fk_rt_t *)ctx;
    const dv_fkernel_t *f = rt->f;
    const fk_item_t it = {.r = m0 + r, .nr = rows, .c = n0, .nc = nt, .pitch = f->pitch};
    copy_in(k, rt, &it);
    f->cube_ops->l0c_to_ub(k, &f->node[0].plan, rt->local[f->head_slot], l0c, m_al, r, rows, nt, f->pitch);
    compute_out(k, rt, &it, true);
}

void dv_fkernel_body(dv_k_t *k, const void *params)
{
    const dv_fkernel_t *f = params;
    if (!f->cube) {
        vector_body(k, f);
        return;
    }
    if (f->split) {
        if (dvk_sub(k) != DV_SUB_AIC) {
            aiv_body(k, f);
            return;
        }
        const dv_cube_sink_t sink = {.ws_arg = f->ws_arg, .slots = f->slots, .done_flag = FK_DONE_FLAG,
                                     .ack_flag = FK_ACK_FLAG};
        f->cube_ops->run(k, &f->node[0].plan, f->node[0].argmap, &sink);
        return;
    }
    fk_rt_t rt;
    rt_init(k, &rt, f);
    const dv_cube_sink_t sink = {.chunk = coupled_chunk, .ctx = &rt, .chunk_rows = f->tile_rows};
    f->cube_ops->run(k, &f->node[0].plan, f->node[0].argmap, &sink);
}
