/* ops/matmul.c - C[M,N] = A[M,K] x B[K,N] (or x B^T with B given as [N,K]) on the cube.
 *
 * The data path is the one an Ascend C matmul (MDL template) takes:
 *
 *   GM --copy_gm_to_cbuf_nd2nz--> L1 (A1, B1: NZ, step-ka / step-kb base-K slices per load)
 *      --load_cbuf_to_ca/cb------> L0A (ZZ) / L0B (ZN; 16-bit B[K,N] transposed per fractal)
 *      --mmad--------------------> L0C (f32/s32 NZ; init on the first K slice, accumulate after)
 *      910B: --copy_matrix_cc_to_gm (FixPipe: quantPre, ReLU, NZ -> ND)--> GM
 *      310:  --copy_matrix_cc_to_ubuf (V: quantPre, ReLU, NZ -> ND)--> UB --copy_ubuf_to_gm--> GM
 *
 * Tiling.  C is split over a gm x gn grid of blocks (Ascend C's singleCoreM x singleCoreN): block b
 * owns rows [gi * scm, +scm) and columns [gj * scn, +scn) of C (gi = b / gn, gj = b % gn; the last
 * block of a side takes what is left), cuts its part into base-m x base-n tiles (the last ones
 * partial) and walks them row by row, so consecutive tiles share their A rows in L2.  The split is
 * in whole base tiles: scm = M / R rounded up to base-m (so a grid may use fewer blocks than R x C).
 * --grid RxC asks for R x C; otherwise the grid of at most --cores blocks minimises the largest
 * per-block tile count, then the
 * per-block rows-plus-columns (GM traffic), then the number of blocks; 8192^3 with 128 x 256 tiles
 * on 24 cores gives 6 x 4.  --single-m / --single-n set scm / scn as given (Ascend C's
 * SetSingleShape, e.g. 683 columns: blocks need not start on a tile or 512-byte boundary).
 * --m-rounds R splits M into R parts processed one after the other (the L2 split of the matmul
 * samples): the grid splits one part, and block b walks its rows of part 0, then of part 1, ...
 * Fit (docs/OPS.md, "Tilings that always fit"): automatic values fall back to what the profile's
 * L0C, L0A/L0B, event ids and L1 hold, in a fixed order, and the plan lists the tiling used and why
 * it differs from the request; explicit values that cannot fit are errors.
 * Per tile the K axis is walked in base-k slices; A and B reach L1 in groups of step-ka / step-kb
 * slices (A1 / B1 queues MTE2 -> MTE1 of depth-a1 / step-ka and depth-b1 / step-kb buffers).  When
 * one group of A holds the whole K, it stays in L1 while the block walks its row of tiles (A is
 * loaded once per row).  Each slice goes to one of two
 * L0A/L0B ping-pong buffers (MTE1 <-> M events), and the L0C tile (CO1 queue M -> FIX, or M -> V on
 * coupled cores; two buffers when two tiles fit in L0C) is drained once per tile.  GM loads run one
 * L1 group ahead of the cube, across tile boundaries.
 *
 * Tails need no padding: nd2nz copies element-granular rows and zero-fills the K columns of the last
 * 32 B block; mmad is issued with the exact m, k, n of the tile, so the unwritten rows of a partial
 * fractal in L1/L0 are never read (docs/SEMANTICS.md, MMAD); the FixPipe writes exactly m x n. */

/* Instructions are written straight into the stream (kernel/kapi_emit.h: before dv/kapi.h). */
#include "../kernel/kapi_emit.h"

/* The reference sums in f32 exactly as the cube does (dv/fpexact.h). */
#include "dv/fpexact.h"

#include "dv/intmath.h"
#include "dv/ops.h"
#include "dv/semantics.h"

#include <stdlib.h>
#include <string.h>

enum { P_M, P_N, P_K, P_DTYPE, P_OUT_DTYPE, P_BT, P_BASE_M, P_BASE_N, P_BASE_K, P_STEP_KA, P_STEP_KB, P_DEPTH_A1,
       P_DEPTH_B1, P_CORES, P_GRID, P_SINGLE_M, P_SINGLE_N, P_M_ROUNDS, P_DB, P_RELU,
       P_UNIT_FLAG, P_BATCH, P_SHARED_A, P_COUNT };

static const dv_oparam_spec_t params[] = {
    {"m", DV_OPT_INT, "1024", 1, 16777216, 0, "rows of A and C"},
    {"n", DV_OPT_INT, "1024", 1, 16777216, 0, "columns of B and C"},
    {"k", DV_OPT_INT, "1024", 1, 16777216, 0, "columns of A, rows of B (the reduction)"},
    {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, DT_F16 | DT_BF16 | DT_S8 | DT_F32, "type of A and B"},
    {"out-dtype", DV_OPT_DTYPE, "auto", 0, 0, DT_F16 | DT_BF16 | DT_F32 | DT_S32,
     "type of C; auto: the input's own (int8: int32); float inputs may give fp16|bf16|fp32 (quantPre)"},
    {"b-transposed", DV_OPT_BOOL, "off", 0, 1, 0,
     "B is given as [N,K]: C = A x B^T; off: B[K,N], transposed into L0B (int8 and fp32 need "
     "chip.load_transpose, base-n a multiple of 32 for int8, base-k of 16 for fp32)"},
    {"base-m", DV_OPT_INT, "128", 16, 4080, 0, "rows of the L0 tile (L0A, L0C); a multiple of 16"},
    {"base-n", DV_OPT_INT, "256", 16, 4080, 0, "columns of the L0 tile (L0B, L0C); a multiple of 16"},
    {"base-k", DV_OPT_INT, "auto", 1, 4095, 0,
     "K of the L0 tile, a multiple of 32 bytes of K; auto = 128 bytes: fp16/bf16 64, int8 128, fp32 32"},
    {"step-ka", DV_OPT_INT, "4", 1, 4095, 0, "base-k slices of A per GM -> L1 load (stepKa)"},
    {"step-kb", DV_OPT_INT, "4", 1, 4095, 0, "base-k slices of B per GM -> L1 load (stepKb)"},
    {"depth-a1", DV_OPT_INT, "auto", 1, 65535, 0,
     "base-k slices of A that L1 holds (depthA1), a multiple of step-ka: depth-a1 / step-ka loads in flight; "
     "auto = 2 x step-ka with --double-buffer, else step-ka"},
    {"depth-b1", DV_OPT_INT, "auto", 1, 65535, 0,
     "base-k slices of B that L1 holds (depthB1), a multiple of step-kb; auto = 2 x step-kb with --double-buffer, "
     "else step-kb"},
    {"cores", DV_OPT_INT, "auto", 1, 65535, 0,
     "blocks (AICs when split, AI cores when coupled); auto = all; fewer when there are fewer tiles"},
    {"grid", DV_OPT_TILE, "auto", 1, 65535, 0,
     "blocks along M x along N (singleCoreM = M / rows, singleCoreN = N / cols, rounded up to whole base "
     "tiles); auto = the split of at most --cores blocks with the fewest tiles per block"},
    {"single-m", DV_OPT_INT, "auto", 1, 16777216, 0,
     "rows of C per block (singleCoreM), as given: not rounded to base-m; auto = from the grid"},
    {"single-n", DV_OPT_INT, "auto", 1, 16777216, 0,
     "columns of C per block (singleCoreN), as given: not rounded to base-n (so a block's columns may start "
     "at any byte); auto = from the grid"},
    {"m-rounds", DV_OPT_INT, "1", 1, 4096, 0,
     "M split into this many parts processed one after the other, every block taking its share of each part "
     "(the L2 split: B is read once per part while the part's A stays small); grids and single-m split one part"},
    {"double-buffer", DV_OPT_BOOL, "on", 0, 1, 0,
     "ping-pong L0A/L0B, L0C too when two tiles fit, and the auto depth-a1 / depth-b1"},
    {"relu", DV_OPT_BOOL, "off", 0, 1, 0, "ReLU on the way out of L0C (FixPipe, or the V-pipe move when coupled)"},
    {"unit-flag", DV_OPT_BOOL, "off", 0, 1, 0,
     "hand each C tile from the cube to the FixPipe with unit flags (mmad / FixPipe unit_flag 2 and 3: the FixPipe "
     "drains L0C while the tile's last mmad runs) instead of events; needs a FixPipe (chip.has_fix_pipe)"},
    {"batch", DV_OPT_INT, "1", 1, 65535, 0,
     "independent products C[b] = A[b] x B[b], A [batch,M,K], B [batch,K,N] (or [batch,N,K]), C [batch,M,N]: every "
     "block takes its grid cell of a run of consecutive batches; with fewer grid cells than --cores the batches are "
     "split over the rest (aclnnBatchMatMul)"},
    {"shared-a", DV_OPT_BOOL, "off", 0, 1, 0,
     "with --batch: one A [M,K] for every batch (C[b] = A x B[b], torch.matmul of a matrix and a batch)"},
};

enum { ARG_A, ARG_B, ARG_C };

typedef struct mm_tiling {
    uint64_t M, N, K;
    uint32_t bm, bn, bk;         /* the L0 tile, clamped to the (aligned) shape */
    uint32_t ska, skb;           /* base-k slices per L1 group, clamped to the slices of K */
    uint32_t ks;                 /* base-k slices along K */
    uint32_t gm, gn;             /* block grid: blocks along M and N */
    uint64_t scm, scn;           /* rows and columns of C per block and round (singleCoreM, singleCoreN) */
    uint32_t rounds;             /* parts of M processed one after the other (--m-rounds) */
    uint64_t mr;                 /* rows of M per part (the last part takes what is left) */
    uint32_t l1a_bufs, l1b_bufs, l0_depth, l0c_depth, ub_depth, ub_rows;
    uint8_t it, ot, bt, relu, quant, coupled;
    uint8_t unit_flag;           /* --unit-flag: the L0C hand-over by unit flags, not events */
    uint8_t shared_a;            /* --shared-a: A has no batch axis */
    uint32_t batch;              /* --batch: products, each M x N x K */
    uint32_t gb;                 /* blocks along the batch (runs of consecutive batches) */
} mm_tiling_t;

/* Rows of C per block when M is split `parts` ways (Ascend C's singleCoreM), a multiple of `unit`. */
static uint64_t split_of(uint64_t M, uint64_t parts, uint64_t unit) { return dv_round_up(dv_ceil_div(M, parts), unit); }

/* The automatic block grid: gm x gn <= cores blocks of whole base tiles (see the file comment). */
static void choose_grid(uint32_t cores, uint64_t M, uint64_t N, uint64_t bm, uint64_t bn, uint32_t *gm,
                        uint32_t *gn)
{
    uint64_t best_tiles = UINT64_MAX, best_load = UINT64_MAX, best_blocks = UINT64_MAX;
    *gm = *gn = 1;
    for (uint64_t a = 1; a <= cores && a <= dv_ceil_div(M, bm); a++) {
        const uint64_t b = dv_min_u64(cores / a, dv_ceil_div(N, bn));
        const uint64_t sm = split_of(M, a, bm), sn = split_of(N, b, bn);
        const uint64_t tiles = dv_ceil_div(sm, bm) * dv_ceil_div(sn, bn), load = sm + sn;
        const uint64_t blocks = dv_ceil_div(M, sm) * dv_ceil_div(N, sn);
        const bool tie = tiles == best_tiles;
        if (tiles < best_tiles || (tie && load < best_load) || (tie && load == best_load && blocks < best_blocks)) {
            best_tiles = tiles;
            best_load = load;
            best_blocks = blocks;
            *gm = (uint32_t)a;
            *gn = (uint32_t)b;
        }
    }
}

/* The plan's fitting state: the values tried, what they need, and why each differs from the request. */
typedef struct mm_fit {
    const dv_config_t *cfg;
    dv_op_plan_t *plan;
    uint64_t isz, K0, M, N, K;
    uint64_t bm, bn, bk, l0, ska, skb, bufa, bufb; /* as requested, then as fallen back */
    char why_bm[200], why_bn[200], why_bk[200], why_l0[200], why_ska[200], why_skb[200], why_da1[200],
        why_db1[200];
} mm_fit_t;

/* A base size as the kernel allocates it: no larger than the shape rounded up to `unit`. */
static uint64_t fit_clamp(uint64_t b, uint64_t x, uint64_t unit) { return dv_min_u64(b, dv_round_up(x, unit)); }
static uint64_t fit_rows(uint64_t b, uint64_t x) { return fit_clamp(b, x, 16); }
static uint64_t fit_ks(const mm_fit_t *f) { return dv_ceil_div(f->K, fit_clamp(f->bk, f->K, f->K0)); }
/* The step of side 0 (A) / 1 (B) as the kernel uses it: no more slices than K has. */
static uint64_t fit_steps(const mm_fit_t *f, int side) { return dv_min_u64(side ? f->skb : f->ska, fit_ks(f)); }
static uint64_t fit_l0c(const mm_fit_t *f) { return fit_rows(f->bm, f->M) * fit_rows(f->bn, f->N) * 4; }
static uint64_t fit_l0a(const mm_fit_t *f)
{
    return f->l0 * fit_rows(f->bm, f->M) * fit_clamp(f->bk, f->K, f->K0) * f->isz;
}
static uint64_t fit_l0b(const mm_fit_t *f)
{
    return f->l0 * fit_clamp(f->bk, f->K, f->K0) * fit_rows(f->bn, f->N) * f->isz;
}
static uint64_t fit_l1a(const mm_fit_t *f)
{
    return f->bufa * fit_rows(f->bm, f->M) * fit_steps(f, 0) * fit_clamp(f->bk, f->K, f->K0) * f->isz;
}
static uint64_t fit_l1b(const mm_fit_t *f)
{
    return f->bufb * fit_rows(f->bn, f->N) * fit_steps(f, 1) * fit_clamp(f->bk, f->K, f->K0) * f->isz;
}

/* Halve an automatic value (from `cur`, the value in effect) to a multiple of `unit`, saying why
 * the first time: "auto 256 does not fit L0C: 262,144 > 131,072 B". */
static void fit_halve(uint64_t *p, uint64_t cur, uint64_t unit, char *why, const char *buf, uint64_t need,
                      uint64_t cap)
{
    if (!why[0]) {
        char a[32], b[32];
        snprintf(why, 200, "auto %llu does not fit %s: %s > %s B", (unsigned long long)*p, buf,
                 dv_ops_thousands(need, a, sizeof a), dv_ops_thousands(cap, b, sizeof b));
    }
    *p = dv_max_u64(unit, dv_round_up(dv_ceil_div(cur, 2), unit));
}

/* "M is 100: no larger than the shape needs" when a base was clamped to the shape, else "". */
static const char *clamp_why(char *why, uint64_t used, uint64_t want, const char *axis, uint64_t n)
{
    if (used >= want)
        return "";
    snprintf(why, 200, "%s is %llu: the tile is no larger than the shape needs", axis, (unsigned long long)n);
    return why;
}

/* The plan's tiling rows (the report's operator section): the values the kernel uses and, where
 * they differ from the request, why. */
static void mm_tiling_rows(dv_op_plan_t *plan, const mm_tiling_t *t, const mm_fit_t *f, const dv_opvals_t *v)
{
    char why[200];
    dv_ops_tiling_row(plan, "base-m", f->why_bm[0] ? f->why_bm : clamp_why(why, t->bm, f->bm, "M", t->M), "%u", t->bm);
    dv_ops_tiling_row(plan, "base-n", f->why_bn[0] ? f->why_bn : clamp_why(why, t->bn, f->bn, "N", t->N), "%u", t->bn);
    dv_ops_tiling_row(plan, "base-k", f->why_bk[0] ? f->why_bk : clamp_why(why, t->bk, f->bk, "K", t->K), "%u", t->bk);
    snprintf(why, sizeof why, "K has %u slices of base-k", t->ks);
    dv_ops_tiling_row(plan, "step-ka", f->why_ska[0] ? f->why_ska : t->ska < f->ska ? why : "", "%u", t->ska);
    dv_ops_tiling_row(plan, "step-kb", f->why_skb[0] ? f->why_skb : t->skb < f->skb ? why : "", "%u", t->skb);
    dv_ops_tiling_row(plan, "depth-a1", f->why_da1, "%u", t->l1a_bufs * t->ska);
    dv_ops_tiling_row(plan, "depth-b1", f->why_db1, "%u", t->l1b_bufs * t->skb);
    dv_ops_tiling_row(plan, "l0ab-buffers", f->why_l0, "%u", t->l0_depth);
    if (v->v[P_DB].i && t->l0c_depth == 1) {
        char a[32], b[32];
        snprintf(why, sizeof why, "two C tiles do not fit L0C: %s > %s B",
                 dv_ops_thousands(2ull * t->bm * t->bn * 4, a, sizeof a),
                 dv_ops_thousands(f->cfg->l0c_size_bytes, b, sizeof b));
    } else
        why[0] = '\0';
    dv_ops_tiling_row(plan, "l0c-buffers", why, "%u", t->l0c_depth);
    if (t->coupled) {
        snprintf(why, sizeof why, "two output rows of %u do not fit UB", t->bn);
        dv_ops_tiling_row(plan, "ub-buffers", v->v[P_DB].i && t->ub_depth == 1 ? why : "", "%u", t->ub_depth);
    }
    dv_ops_tiling_row(plan, "grid", "", "%ux%u", t->gm, t->gn);
    dv_ops_tiling_row(plan, "single-m", "", "%llu", (unsigned long long)t->scm);
    dv_ops_tiling_row(plan, "single-n", "", "%llu", (unsigned long long)t->scn);
    dv_ops_tiling_row(plan, "m-rounds", "", "%u", t->rounds);
    if (t->batch > 1)
        dv_ops_tiling_row(plan, "batch-blocks", "", "%u", t->gb);
}

static int mm_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                   dv_error_t *err)
{
    (void)op;
    mm_tiling_t t;
    memset(&t, 0, sizeof t);
    const uint64_t M = (uint64_t)v->v[P_M].i, N = (uint64_t)v->v[P_N].i, K = (uint64_t)v->v[P_K].i;
    const dv_dtype_t it = v->v[P_DTYPE].dt;
    const dv_dtype_t natural = it == DV_DT_S8 ? DV_DT_S32 : it;
    const dv_dtype_t ot = v->v[P_OUT_DTYPE].dt == DV_DT_AUTO ? natural : v->v[P_OUT_DTYPE].dt;
    const bool db = v->v[P_DB].i != 0, bt = v->v[P_BT].i != 0;

    /* 1. types: the cube gives f32 (float inputs) or s32 (int8); quantPre converts f32 to f16/bf16 */
    if (it == DV_DT_S8 ? ot != DV_DT_S32 : ot == DV_DT_S32)
        return dv_ops_param_error(err, "out-dtype",
                                  "--dtype %s with --out-dtype %s is not supported: %s", dv_ops_dtype_name(it),
                                  dv_ops_dtype_name(ot),
                                  it == DV_DT_S8 ? "int8 accumulates in int32 and the output is int32"
                                                 : "float inputs accumulate in fp32 and give fp16, bf16 or fp32");
    const uint64_t isz = dv_dtype_size(it), osz = dv_dtype_size(ot), K0 = 32 / isz;
    if (!bt && isz != 2 && !cfg->chip_load_transpose)
        return dv_ops_param_error(err, "b-transposed",
                                  "--dtype %s with B given as [K,N] needs the transposing L1 -> L0B load "
                                  "(load_cbuf_to_cb_transpose), which profile %s lacks (chip.load_transpose is "
                                  "false): give B as [N,K] (--b-transposed on)", dv_ops_dtype_name(it), cfg->chip_name);
    if (!cfg->chip_has_fix_pipe && !cfg->chip_l0c_to_ub)
        return dv_error_set(err, DV_ERR_UNSUPPORTED, NULL, 0, 0,
                            "matmul: profile %s has neither a FIX pipe (chip.has_fix_pipe) nor an L0C -> UB path "
                            "(chip.l0c_to_ub): the result cannot leave L0C", cfg->chip_name);

    /* 2. the explicit values' own rules (automatic ones meet them by construction) */
    const uint64_t req_bm = (uint64_t)v->v[P_BASE_M].i, req_bn = (uint64_t)v->v[P_BASE_N].i;
    const uint64_t req_bk = v->v[P_BASE_K].i ? (uint64_t)v->v[P_BASE_K].i : 128 / isz;
    const uint64_t req_ska = (uint64_t)v->v[P_STEP_KA].i, req_skb = (uint64_t)v->v[P_STEP_KB].i;
    const uint64_t req_l0 = db ? 2 : 1;
    const uint64_t req_da1 = v->v[P_DEPTH_A1].i ? (uint64_t)v->v[P_DEPTH_A1].i : req_l0 * req_ska;
    const uint64_t req_db1 = v->v[P_DEPTH_B1].i ? (uint64_t)v->v[P_DEPTH_B1].i : req_l0 * req_skb;
    const bool auto_bm = !v->given[P_BASE_M], auto_bn = !v->given[P_BASE_N], auto_bk = v->v[P_BASE_K].i == 0;
    const bool auto_ska = !v->given[P_STEP_KA], auto_skb = !v->given[P_STEP_KB], auto_l0 = !v->given[P_DB];
    const bool auto_da1 = v->v[P_DEPTH_A1].i == 0, auto_db1 = v->v[P_DEPTH_B1].i == 0;
    if (req_da1 % req_ska)
        return dv_ops_param_error(err, "depth-a1", "%llu is not a multiple of --step-ka %llu (L1 holds whole loads)",
                                  (unsigned long long)req_da1, (unsigned long long)req_ska);
    if (req_db1 % req_skb)
        return dv_ops_param_error(err, "depth-b1", "%llu is not a multiple of --step-kb %llu (L1 holds whole loads)",
                                  (unsigned long long)req_db1, (unsigned long long)req_skb);
    if (req_bm % 16)
        return dv_ops_param_error(err, "base-m", "%llu is not a multiple of 16 (the rows of a cube fractal)",
                                  (unsigned long long)req_bm);
    if (req_bn % 16)
        return dv_ops_param_error(err, "base-n", "%llu is not a multiple of 16 (the columns of a cube fractal)",
                                  (unsigned long long)req_bn);
    if (req_bk % K0)
        return dv_ops_param_error(err, "base-k", "%llu is not a multiple of %llu (32 bytes of %s, a fractal's K)",
                                  (unsigned long long)req_bk, (unsigned long long)K0, dv_ops_dtype_name(it));
    /* B[K,N] of 8- and 32-bit types goes to L0B in squares of two fractals (load_cbuf_to_cb_transpose):
     * 32 columns of N (int8) or 16 rows of K (fp32) at a time */
    if (!bt && isz == 1 && req_bn % 32)
        return dv_ops_param_error(err, "base-n", "%llu is not a multiple of 32: int8 B[K,N] reaches L0B in 32 x 32 "
                                  "squares (32 columns of N each)", (unsigned long long)req_bn);
    if (!bt && isz == 4 && req_bk % 16)
        return dv_ops_param_error(err, "base-k", "%llu is not a multiple of 16: fp32 B[K,N] reaches L0B in 16 x 16 "
                                  "squares (16 rows of K each)", (unsigned long long)req_bk);
    const uint64_t rounds = (uint64_t)v->v[P_M_ROUNDS].i;

    /* 3. fit the buffers (docs/OPS.md, "Tilings that always fit"): every size is what the kernel
     * allocates (tiles clamped to the shape); an automatic choice that does not fit falls back, in
     * this order, and the plan records why; an explicit value that does not fit is an error. */
    mm_fit_t f = {.cfg = cfg, .isz = isz, .K0 = K0, .M = M, .N = N, .K = K, .plan = plan};
    f.bm = req_bm, f.bn = req_bn, f.bk = req_bk, f.l0 = req_l0;
    f.ska = req_ska, f.skb = req_skb, f.bufa = req_da1 / req_ska, f.bufb = req_db1 / req_skb;
    /* L0C: one accumulator tile; base-n, then base-m halve while automatic */
    while (fit_l0c(&f) > cfg->l0c_size_bytes) {
        const uint64_t need = fit_l0c(&f);
        if (auto_bn && f.bn > 16)
            fit_halve(&f.bn, fit_rows(f.bn, N), 16, f.why_bn, "L0C", need, cfg->l0c_size_bytes);
        else if (auto_bm && f.bm > 16)
            fit_halve(&f.bm, fit_rows(f.bm, M), 16, f.why_bm, "L0C", need, cfg->l0c_size_bytes);
        else
            return dv_ops_param_error(err, auto_bm ? "base-n" : "base-m",
                                      "the C tile does not fit in L0C: --base-m %llu x --base-n %llu x 4-byte "
                                      "accumulators = %llu bytes, core.l0c_size_bytes is %llu",
                                      (unsigned long long)f.bm, (unsigned long long)f.bn, (unsigned long long)need,
                                      (unsigned long long)cfg->l0c_size_bytes);
    }
    /* L0A / L0B: the ping-pong first, then base-k, then the side's base */
    for (int side = 0; side < 2; side++)
        for (;;) {
            const uint64_t need = side ? fit_l0b(&f) : fit_l0a(&f);
            const uint64_t cap = side ? cfg->l0b_size_bytes : cfg->l0a_size_bytes;
            const char *buf = side ? "L0B" : "L0A";
            if (need <= cap)
                break;
            if (auto_l0 && f.l0 == 2) {
                char a[32], b[32], why[200];
                snprintf(why, sizeof why, "auto 2 does not fit %s: %s > %s B", buf,
                         dv_ops_thousands(need, a, sizeof a), dv_ops_thousands(cap, b, sizeof b));
                f.l0 = 1;
                snprintf(f.why_l0, sizeof f.why_l0, "%s", why);
            } else if (auto_bk && f.bk > K0)
                fit_halve(&f.bk, fit_clamp(f.bk, K, K0), K0, f.why_bk, buf, need, cap);
            else if (side ? auto_bn && f.bn > 16 : auto_bm && f.bm > 16)
                fit_halve(side ? &f.bn : &f.bm, side ? fit_rows(f.bn, N) : fit_rows(f.bm, M), 16,
                          side ? f.why_bn : f.why_bm, buf, need, cap);
            else
                return dv_ops_param_error(err, !auto_bk && (side ? auto_bn : auto_bm) ? "base-k"
                                               : side ? "base-n" : "base-m",
                                          "the %s tile does not fit in %s: %llu x (--base-%s %llu x --base-%s %llu) "
                                          "%s = %llu bytes, core.%s_size_bytes is %llu", side ? "B" : "A", buf,
                                          (unsigned long long)f.l0, side ? "k" : "m",
                                          (unsigned long long)(side ? f.bk : f.bm), side ? "n" : "k",
                                          (unsigned long long)(side ? f.bn : f.bk), dv_ops_dtype_name(it),
                                          (unsigned long long)need, side ? "l0b" : "l0a", (unsigned long long)cap);
        }
    /* events: each L1 buffer of A and B takes an MTE2 -> MTE1 event id (and one back); an automatic
     * depth falls back to one load (the side with more buffers first) */
    while (f.bufa + f.bufb > cfg->sync_event_ids || dv_max_u64(f.bufa, f.bufb) > DVK_QUE_MAX) {
        int side = f.bufb > f.bufa;
        if (!((side ? auto_db1 : auto_da1) && (side ? f.bufb : f.bufa) > 1))
            side = !side;
        uint64_t *bufs = side ? &f.bufb : &f.bufa;
        if ((side ? auto_db1 : auto_da1) && *bufs > 1) {
            snprintf(side ? f.why_db1 : f.why_da1, sizeof f.why_da1,
                     "auto %llu: %llu loads of A and %llu of B in flight need more MTE2 -> MTE1 event ids than "
                     "sync.event_ids %llu", (unsigned long long)(*bufs * (side ? f.skb : f.ska)),
                     (unsigned long long)f.bufa, (unsigned long long)f.bufb,
                     (unsigned long long)cfg->sync_event_ids);
            *bufs = 1;
        } else
            return dv_ops_param_error(err, f.bufb > f.bufa ? "depth-b1" : "depth-a1",
                                      "%llu loads of A (depth-a1 / step-ka) and %llu of B in flight need %llu "
                                      "MTE2 -> MTE1 event ids (at most %d per queue), sync.event_ids is %llu",
                                      (unsigned long long)f.bufa, (unsigned long long)f.bufb,
                                      (unsigned long long)(f.bufa + f.bufb), DVK_QUE_MAX,
                                      (unsigned long long)cfg->sync_event_ids);
    }
    /* L1: the larger side first, its automatic depth to one load (depth = step), then its
     * automatic step halves (an explicit depth fixes the side's bytes whatever the step) */
    while (fit_l1a(&f) + fit_l1b(&f) > cfg->l1_size_bytes) {
        const uint64_t need = fit_l1a(&f) + fit_l1b(&f), cap = cfg->l1_size_bytes;
        const int first = fit_l1b(&f) > fit_l1a(&f);
        bool done = false;
        for (int i = 0; i < 2 && !done; i++) {
            const int side = i ? !first : first;
            uint64_t *bufs = side ? &f.bufb : &f.bufa;
            if ((side ? auto_db1 : auto_da1) && *bufs > 1) {
                char a[32], b[32];
                snprintf(side ? f.why_db1 : f.why_da1, sizeof f.why_da1, "auto %llu does not fit L1: %s > %s B",
                         (unsigned long long)(*bufs * (side ? f.skb : f.ska)), dv_ops_thousands(need, a, sizeof a),
                         dv_ops_thousands(cap, b, sizeof b));
                *bufs = 1;
                done = true;
            }
        }
        for (int i = 0; i < 2 && !done; i++) {
            const int side = i ? !first : first;
            uint64_t *step = side ? &f.skb : &f.ska;
            if ((side ? auto_skb : auto_ska) && (side ? auto_db1 : auto_da1) && fit_steps(&f, side) > 1) {
                fit_halve(step, fit_steps(&f, side), 1, side ? f.why_skb : f.why_ska, "L1", need, cap);
                done = true;
            }
        }
        if (!done && auto_bk && fit_clamp(f.bk, K, K0) > K0) {
            fit_halve(&f.bk, fit_clamp(f.bk, K, K0), K0, f.why_bk, "L1", need, cap);
            done = true;
        }
        for (int i = 0; i < 2 && !done; i++) {
            const int side = i ? !first : first;
            if (side ? auto_bn && fit_rows(f.bn, N) > 16 : auto_bm && fit_rows(f.bm, M) > 16) {
                fit_halve(side ? &f.bn : &f.bm, side ? fit_rows(f.bn, N) : fit_rows(f.bm, M), 16,
                          side ? f.why_bn : f.why_bm, "L1", need, cap);
                done = true;
            }
        }
        if (!done) { /* name an explicit value, the larger side's first: its depth, step, then base */
            const char *p = NULL;
            for (int i = 0; i < 2 && !p; i++) {
                const int side = i ? !first : first;
                p = !(side ? auto_db1 : auto_da1)   ? (side ? "depth-b1" : "depth-a1")
                    : !(side ? auto_skb : auto_ska) ? (side ? "step-kb" : "step-ka")
                    : !(side ? auto_bn : auto_bm)   ? (side ? "base-n" : "base-m")
                                                    : NULL;
            }
            return dv_ops_param_error(err, p ? p : "base-k",
                                      "A and B do not fit in L1: A %llu x (depth-a1 %llu x %llu) + B %llu x "
                                      "(depth-b1 %llu x %llu) %s = %llu bytes, core.l1_size_bytes is %llu",
                                      (unsigned long long)fit_rows(f.bm, M),
                                      (unsigned long long)(f.bufa * fit_steps(&f, 0)),
                                      (unsigned long long)fit_clamp(f.bk, K, K0), (unsigned long long)fit_rows(f.bn, N),
                                      (unsigned long long)(f.bufb * fit_steps(&f, 1)),
                                      (unsigned long long)fit_clamp(f.bk, K, K0), dv_ops_dtype_name(it),
                                      (unsigned long long)need, (unsigned long long)cap);
        }
    }

    /* 4. the tiling of this shape: tiles no larger than the shape needs */
    t.M = M;
    t.N = N;
    t.K = K;
    if ((!bt && isz == 1 && f.bn % 32) || (!bt && isz == 4 && f.bk % 16))
        return dv_ops_param_error(err, !bt && isz == 1 ? "base-n" : "base-k",
                                  "the tiling that fits (base-n %llu, base-k %llu) cannot hold whole B[K,N] squares of "
                                  "%s: give smaller values of the other tiling parameters",
                                  (unsigned long long)f.bn, (unsigned long long)f.bk, dv_ops_dtype_name(it));
    t.bm = (uint32_t)fit_clamp(f.bm, M, 16);
    /* B[K,N] squares (8-, 32-bit): whole ones in a full tile */
    t.bn = (uint32_t)fit_clamp(f.bn, N, !bt && isz == 1 ? 32 : 16);
    t.bk = (uint32_t)fit_clamp(f.bk, K, !bt && isz == 4 ? 16 : K0);
    t.ks = (uint32_t)dv_ceil_div(K, t.bk);
    t.ska = (uint32_t)dv_min_u64(f.ska, t.ks);
    t.skb = (uint32_t)dv_min_u64(f.skb, t.ks);
    t.l1a_bufs = (uint32_t)f.bufa;
    t.l1b_bufs = (uint32_t)f.bufb;
    t.l0_depth = (uint32_t)f.l0;
    t.l0c_depth = db && 2ull * t.bm * t.bn * 4 <= cfg->l0c_size_bytes ? 2 : 1;
    t.it = (uint8_t)it;
    t.ot = (uint8_t)ot;
    t.bt = bt;
    t.relu = v->v[P_RELU].i != 0;
    t.unit_flag = v->v[P_UNIT_FLAG].i != 0;
    if (t.unit_flag && !cfg->chip_has_fix_pipe)
        return dv_ops_param_error(err, "unit-flag", "needs a FixPipe: profile %s has none (chip.has_fix_pipe)",
                                  cfg->chip_name);
    t.quant = (uint8_t)(ot == DV_DT_F16 ? DV_QUANT_F16 : ot == DV_DT_BF16 ? DV_QUANT_BF16 : DV_QUANT_NONE);
    t.coupled = !cfg->chip_has_fix_pipe;
    if (t.coupled && (N * osz) % 32 && !cfg->chip_dma_pad)
        return dv_ops_param_error(err, "n",
                                  "rows of C are %llu x %s = %llu bytes, not whole 32-byte blocks, and UB -> GM needs "
                                  "DataCopyPad for them, which profile %s lacks (chip.dma_pad is false)",
                                  (unsigned long long)N, dv_ops_dtype_name(ot), (unsigned long long)(N * osz),
                                  cfg->chip_name);
    if (t.coupled) { /* L0C -> UB in row chunks of the tile, as many rows as the UB buffers hold */
        const uint64_t row = dv_round_up((uint64_t)t.bn * osz, 32);
        t.ub_depth = (uint32_t)req_l0;
        if (auto_l0 && t.ub_depth == 2 && 2 * row > cfg->ub_size_bytes)
            t.ub_depth = 1; /* the row fits once: single buffering (listed as ub-buffers) */
        uint64_t rows = cfg->ub_size_bytes / (t.ub_depth * row);
        if (rows == 0)
            return dv_ops_param_error(err, "base-n",
                                      "one output row of --base-n %u %s (%llu bytes) x %u buffers does not fit in "
                                      "UB, core.ub_size_bytes is %llu", t.bn, dv_ops_dtype_name(ot),
                                      (unsigned long long)row,
                                      t.ub_depth, (unsigned long long)cfg->ub_size_bytes);
        rows = dv_min_u64(rows, t.bm);
        t.ub_rows = (uint32_t)dv_ceil_div(t.bm, dv_ceil_div(t.bm, rows)); /* equal chunks */
    }
    /* the blocks: one round's part of M (--m-rounds) split gm x gn ways */
    t.rounds = (uint32_t)rounds;
    t.mr = dv_ceil_div(M, rounds);
    if ((rounds - 1) * t.mr >= M)
        return dv_ops_param_error(err, "m-rounds", "M %llu in parts of %llu rows leaves fewer than %llu parts",
                                  (unsigned long long)M, (unsigned long long)t.mr, (unsigned long long)rounds);
    const dv_shape_t *grid = &v->v[P_GRID].shape;
    if (grid->ndims) {
        if (v->v[P_CORES].i)
            return dv_ops_param_error(err, "grid", "give --grid or --cores, not both (the grid fixes the blocks)");
        if (grid->d[0] * grid->d[1] > 65535)
            return dv_ops_param_error(err, "grid", "%llu x %llu blocks is more than 65535",
                                      (unsigned long long)grid->d[0], (unsigned long long)grid->d[1]);
        t.scm = split_of(t.mr, grid->d[0], t.bm); /* whole base tiles, as Ascend C's tiling rounds them */
        t.scn = split_of(N, grid->d[1], t.bn);
    } else {
        const uint32_t cores = v->v[P_CORES].i ? (uint32_t)v->v[P_CORES].i : dv_ops_cores(cfg, DV_KIND_CUBE);
        uint32_t a, b;
        choose_grid(cores, t.mr, N, t.bm, t.bn, &a, &b);
        t.scm = split_of(t.mr, a, t.bm);
        t.scn = split_of(N, b, t.bn);
    }
    if (v->v[P_SINGLE_M].i) /* singleCoreM / singleCoreN as given, in elements (Ascend C's SetSingleShape) */
        t.scm = (uint64_t)v->v[P_SINGLE_M].i;
    if (v->v[P_SINGLE_N].i)
        t.scn = (uint64_t)v->v[P_SINGLE_N].i;
    t.gm = (uint32_t)dv_ceil_div(t.mr, t.scm);
    t.gn = (uint32_t)dv_ceil_div(N, t.scn);
    if ((uint64_t)t.gm * t.gn > 65535)
        return dv_ops_param_error(err, v->v[P_SINGLE_M].i ? "single-m" : "single-n",
                                  "%u x %u blocks is more than 65535", t.gm, t.gn);
    /* the batches: runs of consecutive products over the blocks the grid leaves free */
    t.batch = (uint32_t)v->v[P_BATCH].i;
    t.shared_a = v->v[P_SHARED_A].i != 0;
    if (t.shared_a && t.batch == 1)
        return dv_ops_param_error(err, "shared-a", "needs --batch above 1 (one A shared by the batches)");
    t.gb = 1;
    if (t.batch > 1) {
        const uint32_t cores = grid->ndims ? t.gm * t.gn
                               : v->v[P_CORES].i ? (uint32_t)v->v[P_CORES].i : dv_ops_cores(cfg, DV_KIND_CUBE);
        t.gb = (uint32_t)dv_min_u64(t.batch, dv_max_u64(1, cores / ((uint64_t)t.gm * t.gn)));
    }
    mm_tiling_rows(plan, &t, &f, v);

    /* 5. the launch */
    plan->info.kind = DV_KIND_CUBE;
    plan->info.blocks = t.gb * t.gm * t.gn;
    if (plan->info.blocks > 65535)
        return dv_ops_param_error(err, "batch", "%u x %u x %u blocks is more than 65535", t.gb, t.gm, t.gn);
    const uint64_t nb = t.batch, na = t.shared_a ? 1 : nb;
    int rc;
    if ((rc = dv_ops_add_arg(plan, "a", it, na * M * K, DV_ARG_IN, 0, 0)) != DV_OK ||
        (rc = dv_ops_add_arg(plan, "b", it, nb * K * N, DV_ARG_IN, 0, 0)) != DV_OK ||
        (rc = dv_ops_add_arg(plan, "c", ot, nb * M * N, DV_ARG_OUT, 0, 0)) != DV_OK)
        return dv_error_set(err, rc, NULL, 0, 0, "matmul: the tensors are too large");
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 2 * M * N * K * nb;
    plan->bytes = (na * M * K + nb * K * N) * isz + nb * M * N * osz;
    return DV_OK;
}

/* ---------------------------------------------------------------- kernel */

/* One block's walk over its tiles, and the L1 load streams that run ahead of it. */
typedef struct mm_walk {
    const mm_tiling_t *t;
    uint64_t m_lo, n_lo, n_hi;       /* the block's part of C: rows from m_lo in every round, columns */
    uint32_t nmi, nnj;               /* its tiles along M (over all rounds) and N */
    uint32_t nmi_part;               /* its rows of tiles in each round but the last */
    uint64_t per;                    /* its tiles in one product (nmi x nnj) */
    uint64_t b_lo, nbat;             /* its run of products: [b_lo, b_lo + nbat) */
    uint32_t ga, gb;             /* L1 groups of A / B per tile */
    bool keep_a;                 /* one A group holds the whole K: it stays in L1 along a row of tiles */
    uint64_t na, nb;             /* groups issued so far, over the whole block */
    dv_que_t qa1, qb1;
    uint64_t isz, K0;
    const uint32_t *argmap;      /* plan argument -> GM argument */
} mm_walk_t;

/* The block's rows of C in round r: [*lo, *hi) (empty when the round's part has none for it). */
static void rows_of_round(const mm_walk_t *w, uint64_t r, uint64_t *lo, uint64_t *hi)
{
    const mm_tiling_t *t = w->t;
    const uint64_t part_hi = dv_min_u64(t->M, (r + 1) * t->mr);
    *lo = dv_min_u64(part_hi, r * t->mr + w->m_lo);
    *hi = dv_min_u64(part_hi, *lo + t->scm);
}

/* Tile `i` of the block (row-major in its rectangle, round after round): first row and column,
 * and the extents. */
static void tile_at(const mm_walk_t *w, uint64_t i, uint64_t *m0, uint64_t *mt, uint64_t *n0, uint64_t *nt)
{
    const mm_tiling_t *t = w->t;
    i %= w->per; /* the tile within its product (mm_batch_of gives the product) */
    const uint64_t row = i / w->nnj, full = (uint64_t)(t->rounds - 1) * w->nmi_part;
    const uint64_t r = row < full ? row / w->nmi_part : t->rounds - 1u, j = row < full ? row % w->nmi_part : row - full;
    uint64_t lo, hi;
    rows_of_round(w, r, &lo, &hi);
    *m0 = lo + j * t->bm;
    *n0 = w->n_lo + i % w->nnj * t->bn;
    *mt = dv_min_u64(t->bm, hi - *m0);
    *nt = dv_min_u64(t->bn, w->n_hi - *n0);
}

/* The product (batch index) of the block's tile `i`. */
static uint64_t mm_batch_of(const mm_walk_t *w, uint64_t i) { return w->b_lo + i / w->per; }

/* GM rows x cols (row stride `stride` elements) -> L1 NZ: 32-byte column blocks of `rows_al` rows.
 * One instruction unless a field limit (n_value, the GM row stride) forces one-row matrices. */
static void nd2nz(dv_k_t *k, uint64_t dst, uint64_t src, dv_dtype_t t, uint64_t rows, uint64_t cols, uint64_t stride,
                  uint64_t rows_al)
{
    if (rows <= 16384 && stride <= 65535) {
        dvk_copy_gm_to_cbuf_nd2nz(k, dst, src, t, 1, (int64_t)rows, (int64_t)cols, 0, (int64_t)stride,
                                  (int64_t)rows_al, 1, 0);
        return;
    }
    const uint64_t sz = dv_dtype_size(t);
    for (uint64_t r = 0; r < rows; r += 4095) { /* each row its own matrix: nd_num rows, src_nd_stride = row stride */
        const uint64_t n = dv_min_u64(4095, rows - r);
        dvk_copy_gm_to_cbuf_nd2nz(k, dst + r * 32, src + r * stride * sz, t, (int64_t)n, 1, (int64_t)cols,
                                  (int64_t)stride, 1, (int64_t)rows_al, 1, 1);
    }
}

/* fp32 B[K,N] (rows x cols, row stride `stride` elements) -> L1 as blocks of 16 rows: block g holds its
 * 8-column fractals side by side (2 x ceil(cols / 16) of them), so each 16 x 16 square of B is two
 * adjacent fractals, as load_cbuf_to_cb_transpose reads 32-bit squares.  One 16-row matrix per block
 * (nd_num of them per instruction); one-row matrices when the GM row stride exceeds its field. */
static void nd2nz_k16(dv_k_t *k, uint64_t dst, uint64_t src, uint64_t rows, uint64_t cols, uint64_t stride)
{
    const uint64_t blk = 2 * dv_ceil_div(cols, 16) * 512; /* bytes of one 16-row block */
    const uint64_t full = rows / 16, tail = rows % 16;
    if (stride <= 65535) {
        for (uint64_t g = 0; g < full; g += 4095) {
            const uint64_t n = dv_min_u64(4095, full - g);
            dvk_copy_gm_to_cbuf_nd2nz(k, dst + g * blk, src + g * 16 * stride * 4, DV_DT_F32, (int64_t)n, 16,
                                      (int64_t)cols, (int64_t)(16 * stride), (int64_t)stride, 16, 1,
                                      (int64_t)(blk / 32));
        }
        if (tail)
            dvk_copy_gm_to_cbuf_nd2nz(k, dst + full * blk, src + full * 16 * stride * 4, DV_DT_F32, 1, (int64_t)tail,
                                      (int64_t)cols, 0, (int64_t)stride, 16, 1, 0);
        return;
    }
    for (uint64_t g = 0; g * 16 < rows; g++) { /* each row its own matrix, 32 bytes after the last */
        const uint64_t n = dv_min_u64(16, rows - g * 16);
        dvk_copy_gm_to_cbuf_nd2nz(k, dst + g * blk, src + g * 16 * stride * 4, DV_DT_F32, (int64_t)n, 1,
                                  (int64_t)cols, (int64_t)stride, 1, 16, 1, 1);
    }
}

/* load2d of more than DV_REPEAT_MAX fractals (load2d). */
static __attribute__((noinline)) void load2d_split(dv_k_t *k, bool to_b, uint64_t dst, uint64_t src, dv_dtype_t t,
                                                   uint64_t base, uint64_t repeat, uint64_t stride, uint64_t gap,
                                                   bool transpose)
{
    for (uint64_t i = 0; i < repeat; i += DV_REPEAT_MAX) {
        const uint64_t n = dv_min_u64(DV_REPEAT_MAX, repeat - i);
        (to_b ? dvk_load_cbuf_to_cb : dvk_load_cbuf_to_ca)(k, dst + i * (gap + 1) * 512, src, t,
                                                          (int64_t)(base + i * stride), (int64_t)n, (int64_t)stride,
                                                          (int64_t)gap, transpose);
    }
}

/* load2d of `repeat` fractals, split at the repeat field's limit (DV_REPEAT_MAX fractals).  A slice
 * of a matmul is one instruction per call (repeat <= DV_REPEAT_MAX, one per row or column of
 * fractals, each emitted inline where to_b is a constant); load2d_split splits the rest. */
static inline void load2d(dv_k_t *k, bool to_b, uint64_t dst, uint64_t src, dv_dtype_t t, uint64_t base,
                          uint64_t repeat, uint64_t stride, uint64_t gap, bool transpose)
{
    if (repeat - 1 >= DV_REPEAT_MAX) /* (none at all, or more than one instruction) */
        load2d_split(k, to_b, dst, src, t, base, repeat, stride, gap, transpose);
    else if (to_b)
        dvk_load_cbuf_to_cb(k, dst, src, t, (int64_t)base, (int64_t)repeat, (int64_t)stride, (int64_t)gap, transpose);
    else
        dvk_load_cbuf_to_ca(k, dst, src, t, (int64_t)base, (int64_t)repeat, (int64_t)stride, (int64_t)gap, transpose);
}

/* n load2ds (each of `repeat` fractals) whose destination and first fractal step by dst_step and
 * base_step: the i-th is load2d(k, to_b, dst + i*dst_step, src, t, base + i*base_step, ...).  One
 * run (kapi_emit.h: checked at its first and last) when each is one instruction. */
static inline __attribute__((always_inline)) void load2d_run(dv_k_t *k, bool to_b, uint64_t n, uint64_t dst,
                                                             uint64_t dst_step, uint64_t src, dv_dtype_t t,
                                                             uint64_t base, uint64_t base_step, uint64_t repeat,
                                                             uint64_t stride, uint64_t gap, bool transpose)
{
    if (repeat - 1 >= DV_REPEAT_MAX || n > DVK_BUF_INSNS) {
        for (uint64_t i = 0; i < n; i++)
            load2d(k, to_b, dst + i * dst_step, src, t, base + i * base_step, repeat, stride, gap, transpose);
    } else if (to_b)
        dvk_load_cbuf_to_cb_run(k, (uint32_t)n, dst, dst_step, src, t, base, base_step, (int64_t)repeat,
                                (int64_t)stride, (int64_t)gap, transpose);
    else
        dvk_load_cbuf_to_ca_run(k, (uint32_t)n, dst, dst_step, src, t, base, base_step, (int64_t)repeat,
                                (int64_t)stride, (int64_t)gap, transpose);
}

/* Issue (MTE2) the L1 groups of A up to global group `upto`. */
static void issue_a(dv_k_t *k, mm_walk_t *w, uint64_t upto)
{
    const mm_tiling_t *t = w->t;
    for (; w->na <= upto; w->na++) {
        uint64_t m0, mt, n0, nt;
        tile_at(w, w->keep_a ? w->na * w->nnj : w->na / w->ga, &m0, &mt, &n0, &nt);
        const uint64_t k0 = w->keep_a ? 0 : (w->na % w->ga) * t->ska * t->bk;
        const uint64_t kn = dv_min_u64((uint64_t)t->ska * t->bk, t->K - k0);
        const uint64_t buf = dvk_que_alloc(k, &w->qa1);
        const uint64_t ab = t->shared_a ? 0 : mm_batch_of(w, w->keep_a ? w->na * w->nnj : w->na / w->ga) * t->M * t->K;
        nd2nz(k, buf, dvk_gm(k, w->argmap[ARG_A], (ab + m0 * t->K + k0) * w->isz), (dv_dtype_t)t->it, mt, kn, t->K,
              dv_round_up(mt, 16));
        dvk_que_enque(k, &w->qa1, buf);
    }
}

/* Issue the L1 groups of B up to `upto`: B[K,N] as K rows of N (16-column blocks of K rows), or
 * B^T[N,K] as N rows of K (K0-column blocks of N rows, already ZN fractals). */
static void issue_b(dv_k_t *k, mm_walk_t *w, uint64_t upto)
{
    const mm_tiling_t *t = w->t;
    for (; w->nb <= upto; w->nb++) {
        uint64_t m0, mt, n0, nt;
        tile_at(w, w->nb / w->gb, &m0, &mt, &n0, &nt);
        const uint64_t k0 = (w->nb % w->gb) * t->skb * t->bk, kn = dv_min_u64((uint64_t)t->skb * t->bk, t->K - k0);
        const uint64_t buf = dvk_que_alloc(k, &w->qb1);
        const uint64_t bb = mm_batch_of(w, w->nb / w->gb) * t->K * t->N;
        if (t->bt)
            nd2nz(k, buf, dvk_gm(k, w->argmap[ARG_B], (bb + n0 * t->K + k0) * w->isz), (dv_dtype_t)t->it, nt, kn, t->K,
                  dv_round_up(nt, 16));
        else if (w->isz == 4)
            nd2nz_k16(k, buf, dvk_gm(k, w->argmap[ARG_B], (bb + k0 * t->N + n0) * 4), kn, nt, t->N);
        else /* 16-bit: 16-row fractals; int8: whole 32 x 32 squares */
            nd2nz(k, buf, dvk_gm(k, w->argmap[ARG_B], (bb + k0 * t->N + n0) * w->isz), (dv_dtype_t)t->it, kn, nt, t->N,
                  dv_round_up(kn, w->isz == 1 ? 32 : 16));
        dvk_que_enque(k, &w->qb1, buf);
    }
}

/* L1 -> L0A: the slice's M1 x K1 fractals from A1 (NZ: fractal (p, q) at q*M1 + p) into ZZ order
 * (p*K1 + q), one instruction per K column or per row of fractals, whichever is fewer. */
static void load_a(dv_k_t *k, const mm_walk_t *w, uint64_t dst, uint64_t a1, uint64_t q0, uint64_t mt, uint64_t kb)
{
    const dv_dtype_t t = (dv_dtype_t)w->t->it;
    const uint64_t M1 = dv_ceil_div(mt, 16), K1 = dv_ceil_div(kb, w->K0);
    if (K1 <= M1) /* (fractal q: dst + q*512, base (q0 + q)*M1) */
        load2d_run(k, false, K1, dst, 512, a1, t, q0 * M1, M1, M1, 1, K1 - 1, false);
    else /* (row p: dst + p*K1*512, base q0*M1 + p) */
        load2d_run(k, false, M1, dst, K1 * 512, a1, t, q0 * M1, 1, K1, M1, 0, false);
}

/* L1 -> L0B: the slice's K1 x N1 fractals into ZN order (kb*N1 + nb).  B^T in L1 is already in that
 * order (one run); B[K,N] in L1 has fractal (kb, nb) at nb*KL1 + kb and each is transposed (16-bit).
 * 8- and 32-bit B[K,N] go in squares of two fractals (load_cbuf_to_cb_transpose):
 *   int8: L1 square (k32, n32) at n32 * KL1 + k32 (KL1 in 32-row units) gives fractals (k32, 2 n32)
 *         and (k32, 2 n32 + 1): one instruction per K row of fractals.  With N1 odd the last square's
 *         second fractal lands on the next row's first, which the next instruction writes after it
 *         (the plan keeps a full tile's N1 even, so a tail tile has room for the last row's).
 *   fp32: L1 square (k16, m) at k16 * N1 + m (nd2nz_k16) gives fractals (2 k16, m), (2 k16 + 1, m):
 *         one instruction per 16 rows of K (the plan keeps a full slice's K1 even). */
static void load_b(dv_k_t *k, const mm_walk_t *w, uint64_t dst, uint64_t b1, uint64_t kq0, uint64_t kl1, uint64_t nt,
                   uint64_t kb)
{
    const dv_dtype_t t = (dv_dtype_t)w->t->it;
    const uint64_t N1 = dv_ceil_div(nt, 16), K1 = dv_ceil_div(kb, w->K0);
    if (!w->t->bt && w->isz == 1) {
        for (uint64_t q = 0; q < K1; q++)
            dvk_load_cbuf_to_cb_transpose(k, dst + q * N1 * 512, b1, t, (int64_t)(kq0 + q),
                                          (int64_t)dv_ceil_div(N1, 2), (int64_t)kl1, 1, 0);
    } else if (!w->t->bt && w->isz == 4) {
        for (uint64_t q = 0; q < dv_ceil_div(K1, 2); q++)
            dvk_load_cbuf_to_cb_transpose(k, dst + 2 * q * N1 * 512, b1, t, (int64_t)((kq0 / 2 + q) * N1),
                                          (int64_t)N1, 1, 0, (int64_t)(N1 - 1));
    } else if (w->t->bt)
        load2d(k, true, dst, b1, t, kq0 * N1, K1 * N1, 1, 0, false);
    else if (K1 <= N1) /* (row q: dst + q*N1*512, base kq0 + q) */
        load2d_run(k, true, K1, dst, N1 * 512, b1, t, kq0, 1, N1, kl1, 0, true);
    else /* (column n: dst + n*512, base n*kl1 + kq0) */
        load2d_run(k, true, N1, dst, 512, b1, t, kq0, kl1, K1, 1, N1 - 1, true);
}

/* Coupled cores: L0C -> UB (V, with quantPre / ReLU / NZ -> ND) in row chunks, UB -> GM (MTE3). */
static void drain_ub(dv_k_t *k, const mm_tiling_t *t, dv_que_t *qub, uint32_t arg_c, uint64_t co, uint64_t m0,
                     uint64_t mt, uint64_t n0, uint64_t nt)
{
    const uint64_t osz = dv_dtype_size((dv_dtype_t)t->ot), row = nt * osz, row_al = dv_round_up(row, 32);
    for (uint64_t r = 0; r < mt; r += t->ub_rows) {
        const uint64_t rows = dv_min_u64(t->ub_rows, mt - r);
        uint64_t ub = dvk_que_alloc(k, qub);
        dvk_copy_matrix_cc_to_ubuf(k, ub, co + r * 64, (int64_t)nt, (int64_t)rows, (int64_t)dv_round_up(mt, 16),
                                   (int64_t)(row_al / osz), t->quant, t->relu, 1, 0);
        dvk_que_enque(k, qub, ub);
        ub = dvk_que_deque(k, qub);
        const uint64_t gm = dvk_gm(k, arg_c, ((m0 + r) * t->N + n0) * osz), gap = (t->N - nt) * osz;
        const bool whole = row % 32 == 0 && gap % 32 == 0; /* else DataCopyPad (the plan checked chip.dma_pad) */
        if (whole ? gap / 32 <= 65535 : gap <= 16777215) { /* one burst per row, the gap to the next row of C */
            if (whole)
                dvk_copy_ubuf_to_gm(k, gm, ub, (int64_t)rows, (int64_t)(row / 32), 0, (int64_t)(gap / 32));
            else
                dvk_copy_ubuf_to_gm_align(k, gm, ub, (int64_t)rows, (int64_t)row, 0, (int64_t)gap);
        } else /* a gap beyond the field: one instruction per row */
            for (uint64_t i = 0; i < rows; i++) {
                const uint64_t g = gm + i * t->N * osz, u = ub + i * row_al;
                if (whole)
                    dvk_copy_ubuf_to_gm(k, g, u, 1, (int64_t)(row / 32), 0, 0);
                else
                    dvk_copy_ubuf_to_gm_align(k, g, u, 1, (int64_t)row, 0, 0);
            }
        dvk_que_free(k, qub, ub);
    }
}

/* The block's part of C and its tiles (no buffers yet). */
static void walk_init(mm_walk_t *w, const mm_tiling_t *t, uint32_t b)
{
    const uint32_t cells = t->gm * t->gn, cell = b % cells, bi = b / cells;
    const uint32_t gi = cell / t->gn, gj = cell % t->gn;
    memset(w, 0, sizeof *w);
    w->t = t;
    w->b_lo = (uint64_t)t->batch * bi / t->gb;
    w->nbat = (uint64_t)t->batch * (bi + 1) / t->gb - w->b_lo;
    w->m_lo = gi * t->scm;
    w->n_lo = dv_min_u64(t->N, gj * t->scn);
    w->n_hi = dv_min_u64(t->N, w->n_lo + t->scn);
    w->nnj = (uint32_t)dv_ceil_div(w->n_hi - w->n_lo, t->bn);
    uint64_t lo, hi;
    rows_of_round(w, 0, &lo, &hi);
    w->nmi_part = (uint32_t)dv_ceil_div(hi - lo, t->bm);
    rows_of_round(w, t->rounds - 1u, &lo, &hi);
    w->nmi = (t->rounds - 1u) * w->nmi_part + (uint32_t)dv_ceil_div(hi - lo, t->bm);
    if (w->nnj == 0)
        w->nmi = 0;
    w->per = (uint64_t)w->nmi * w->nnj;
}

/* The tile's way out of L0C when an epilogue takes it (dv_cube_sink_t). */
static void sink_tile(dv_k_t *k, const mm_tiling_t *t, const dv_cube_sink_t *sink, uint64_t ti, uint64_t c,
                      uint64_t m0, uint64_t mt, uint64_t n0, uint64_t nt)
{
    if (t->coupled) {
        for (uint64_t r = 0; r < mt; r += sink->chunk_rows)
            sink->chunk(k, sink->ctx, c, dv_round_up(mt, 16), r, dv_min_u64(sink->chunk_rows, mt - r), m0, n0, nt);
        return;
    }
    const uint64_t osz = dv_dtype_size((dv_dtype_t)t->ot), slot = (uint64_t)t->bm * t->bn * osz;
    const uint64_t off = ((uint64_t)dvk_block_idx(k) * sink->slots + ti % sink->slots) * slot;
    if (ti >= sink->slots) /* the AIVs have read this slot's previous tile */
        dvk_wait_cross_flag(k, DV_PIPE_FIX, sink->ack_flag);
    dvk_copy_matrix_cc_to_gm(k, dvk_gm(k, sink->ws_arg, off), c, (int64_t)nt, (int64_t)mt, (int64_t)dv_round_up(mt, 16),
                             (int64_t)t->bn, t->quant, t->relu, 1, 0);
    dvk_set_cross_flag(k, DV_PIPE_FIX, 2, sink->done_flag);
}

static void mm_body(dv_k_t *k, const mm_tiling_t *t, const uint32_t *argmap, const dv_cube_sink_t *sink)
{
    const dv_dtype_t it = (dv_dtype_t)t->it;
    mm_walk_t w;
    walk_init(&w, t, dvk_block_idx(k));
    w.argmap = argmap;
    w.ga = (uint32_t)dv_ceil_div(t->ks, t->ska);
    w.gb = (uint32_t)dv_ceil_div(t->ks, t->skb);
    w.isz = dv_dtype_size(it);
    w.K0 = 32 / w.isz;
    const uint64_t tiles = w.per * w.nbat;
    if (tiles == 0)
        return;

    /* buffers: A1/B1 queues in L1, L0A/L0B ping-pong with their own events, the CO1 queue in L0C */
    dvk_que_init(k, &w.qa1, DV_SPACE_L1, DV_PIPE_MTE2, DV_PIPE_MTE1, t->l1a_bufs,
                 dv_round_up(t->bm, 16) * t->ska * t->bk * w.isz);
    dvk_que_init(k, &w.qb1, DV_SPACE_L1, DV_PIPE_MTE2, DV_PIPE_MTE1, t->l1b_bufs,
                 dv_round_up(t->bn, 16) * t->skb * t->bk * w.isz);
    uint64_t a2[2], b2[2];
    int ev_ready[2], ev_free[2];
    for (uint32_t d = 0; d < t->l0_depth; d++) {
        a2[d] = dvk_alloc(k, DV_SPACE_L0A, (uint64_t)t->bm * t->bk * w.isz);
        b2[d] = dvk_alloc(k, DV_SPACE_L0B, (uint64_t)t->bk * t->bn * w.isz);
        ev_ready[d] = dvk_event_alloc(k, DV_PIPE_MTE1, DV_PIPE_M);
        ev_free[d] = dvk_event_alloc(k, DV_PIPE_M, DV_PIPE_MTE1);
    }
    const dv_pipe_t out_pipe = t->coupled ? DV_PIPE_V : DV_PIPE_FIX;
    dv_que_t qc1, qub;
    /* unit flags (not in a fused kernel, whose epilogue takes the tile): the L0C tiles without events */
    const bool uf = t->unit_flag && !sink;
    uint64_t ucbuf[2] = {0, 0};
    if (uf)
        for (uint32_t d = 0; d < t->l0c_depth; d++)
            ucbuf[d] = dvk_alloc(k, DV_SPACE_L0C, (uint64_t)t->bm * t->bn * 4);
    else
        dvk_que_init(k, &qc1, DV_SPACE_L0C, DV_PIPE_M, out_pipe, t->l0c_depth, (uint64_t)t->bm * t->bn * 4);
    if (t->coupled && !sink)
        dvk_que_init(k, &qub, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, t->ub_depth,
                     (uint64_t)t->ub_rows * dv_round_up((uint64_t)t->bn * dv_dtype_size((dv_dtype_t)t->ot), 32));
    for (uint32_t d = 0; d < t->l0_depth; d++) /* both L0 buffers start free */
        dvk_set_flag(k, DV_PIPE_M, DV_PIPE_MTE1, ev_free[d]);

    w.keep_a = w.ga == 1 && w.nnj > 1;
    const uint64_t total_a = w.keep_a ? w.nmi * w.nbat : tiles * w.ga, total_b = tiles * w.gb;
    uint64_t slice = 0, a1 = 0, b1 = 0, kl1_b = 0;
    for (uint64_t ti = 0; ti < tiles; ti++) {
        uint64_t m0, mt, n0, nt;
        tile_at(&w, ti, &m0, &mt, &n0, &nt);
        const uint64_t co = uf ? ucbuf[ti % t->l0c_depth] : dvk_que_alloc(k, &qc1);
        for (uint64_t s = 0; s < t->ks; s++, slice++) {
            const uint64_t k0 = s * t->bk, kb = dv_min_u64(t->bk, t->K - k0);
            const uint64_t sa = s % t->ska, sb = s % t->skb;
            if (sa == 0 && (!w.keep_a || ti % w.nnj == 0)) { /* the next A group: loads run ahead, take it */
                const uint64_t j = w.keep_a ? ti / w.nnj : ti * w.ga + s / t->ska;
                issue_a(k, &w, dv_min_u64(j + t->l1a_bufs - 1, total_a - 1));
                a1 = dvk_que_deque(k, &w.qa1);
            }
            if (sb == 0) {
                const uint64_t j = ti * w.gb + s / t->skb;
                issue_b(k, &w, dv_min_u64(j + t->l1b_bufs - 1, total_b - 1));
                b1 = dvk_que_deque(k, &w.qb1);
                /* B[K,N]: K rows of the group, in fractal rows (16-bit) or squares (int8: 32 rows) */
                kl1_b = dv_ceil_div(dv_min_u64((uint64_t)t->skb * t->bk, t->K - k0), w.isz == 1 ? 32 : 16);
            }
            const uint32_t d = (uint32_t)(slice % t->l0_depth);
            /* MTE1: this slice into L0A/L0B buffer d once the cube is done with it */
            dvk_wait_flag(k, DV_PIPE_M, DV_PIPE_MTE1, ev_free[d]);
            load_a(k, &w, a2[d], a1, sa * t->bk / w.K0, mt, kb);
            load_b(k, &w, b2[d], b1, sb * t->bk / w.K0, kl1_b, nt, kb);
            dvk_set_flag(k, DV_PIPE_MTE1, DV_PIPE_M, ev_ready[d]);
            if ((sa == t->ska - 1u || s == t->ks - 1) && (!w.keep_a || ti % w.nnj == w.nnj - 1u))
                dvk_que_free(k, &w.qa1, a1);
            if (sb == t->skb - 1u || s == t->ks - 1)
                dvk_que_free(k, &w.qb1, b1);
            /* M: accumulate the slice */
            dvk_wait_flag(k, DV_PIPE_MTE1, DV_PIPE_M, ev_ready[d]);
            dvk_mmad(k, co, a2[d], b2[d], it, (int64_t)mt, (int64_t)kb, (int64_t)nt, s == 0, 0,
                     uf ? (s == t->ks - 1 ? 3 : 2) : 0);
            dvk_set_flag(k, DV_PIPE_M, DV_PIPE_MTE1, ev_free[d]);
        }
        /* out of L0C: after the M -> FIX event of the queue, or with unit flags as the last mmad writes it */
        uint64_t c = co;
        if (!uf) {
            dvk_que_enque(k, &qc1, co);
            c = dvk_que_deque(k, &qc1);
        }
        const uint64_t cb = mm_batch_of(&w, ti) * t->M; /* the product's first row of C */
        if (sink)
            sink_tile(k, t, sink, ti, c, m0, mt, n0, nt);
        else if (t->coupled)
            drain_ub(k, t, &qub, argmap[ARG_C], c, cb + m0, mt, n0, nt);
        else
            dvk_copy_matrix_cc_to_gm(k, dvk_gm(k, argmap[ARG_C], ((cb + m0) * t->N + n0) * dv_dtype_size((dv_dtype_t)t->ot)), c,
                                     (int64_t)nt, (int64_t)mt, (int64_t)dv_round_up(mt, 16), (int64_t)t->N, t->quant,
                                     t->relu, 1, uf ? 3 : 0);
        if (!uf)
            dvk_que_free(k, &qc1, c);
    }
    for (uint32_t d = 0; d < t->l0_depth; d++) /* consume the last frees */
        dvk_wait_flag(k, DV_PIPE_M, DV_PIPE_MTE1, ev_free[d]);
    if (sink && !t->coupled) /* the acknowledgements still pending */
        for (uint64_t i = tiles > sink->slots ? tiles - sink->slots : 0; i < tiles; i++)
            dvk_wait_cross_flag(k, DV_PIPE_FIX, sink->ack_flag);
}

static const uint32_t mm_identity[DV_OP_MAX_ARGS] = {0, 1, 2, 3, 4, 5, 6, 7};

static void mm_kernel(dv_k_t *k, const void *params) { mm_body(k, params, mm_identity, NULL); }

/* ---------------------------------------------------------------- as the head of a fused kernel */

static uint64_t mm_cube_tiles(const dv_op_plan_t *plan, uint32_t block)
{
    mm_walk_t w;
    walk_init(&w, (const mm_tiling_t *)plan->tiling, block);
    return (uint64_t)w.nmi * w.nnj;
}

static void mm_cube_tile(const dv_op_plan_t *plan, uint32_t block, uint64_t i, uint64_t *m0, uint64_t *mt, uint64_t *n0,
                         uint64_t *nt)
{
    mm_walk_t w;
    walk_init(&w, (const mm_tiling_t *)plan->tiling, block);
    tile_at(&w, i, m0, mt, n0, nt);
}

static void mm_cube_shape(const dv_op_plan_t *plan, uint64_t *bm, uint64_t *bn, uint64_t *rows, uint64_t *cols)
{
    const mm_tiling_t *t = (const mm_tiling_t *)plan->tiling;
    *bm = t->bm;
    *bn = t->bn;
    *rows = t->M;
    *cols = t->N;
}

static void mm_cube_l0c_to_ub(dv_k_t *k, const dv_op_plan_t *plan, uint64_t ub, uint64_t l0c, uint64_t m_al,
                              uint64_t r, uint64_t rows, uint64_t nt, uint64_t pitch)
{
    const mm_tiling_t *t = (const mm_tiling_t *)plan->tiling;
    dvk_copy_matrix_cc_to_ubuf(k, ub, l0c + r * 64, (int64_t)nt, (int64_t)rows, (int64_t)m_al, (int64_t)pitch,
                               t->quant, t->relu, 1, 0);
}

static void mm_cube_run(dv_k_t *k, const dv_op_plan_t *plan, const uint32_t *argmap, const dv_cube_sink_t *sink)
{
    mm_body(k, (const mm_tiling_t *)plan->tiling, argmap, sink);
}

static const dv_cube_ops_t mm_cube = {
    .tiles = mm_cube_tiles,
    .tile = mm_cube_tile,
    .shape = mm_cube_shape,
    .l0c_to_ub = mm_cube_l0c_to_ub,
    .run = mm_cube_run,
};

/* ---------------------------------------------------------------- reference */

/* C as the cube computes it (docs/SEMANTICS.md, MMAD): per element one f32 sum in ascending k of
 * products exact in f32 (f16/bf16) or rounded to f32 (fp32), or an int32 sum that wraps (int8);
 * then ReLU and the conversion to the output type.  The slices' order of accumulation in L0C is
 * the same ascending k, so the result is bit-exact and the dtype tolerance is not needed. */
static int mm_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    const mm_tiling_t *t = (const mm_tiling_t *)plan->tiling;
    const dv_dtype_t it = (dv_dtype_t)t->it, ot = (dv_dtype_t)t->ot;
    const uint64_t M = t->M, N = t->N, K = t->K, NP = dv_round_up(N, DV_DOT_LANES);
    const bool ints = it == DV_DT_S8;
    /* A row-major [M][K] and B packed k-major [K][NP] (dv_dot_*), widened once, as float or as
     * uint32 (int8 products fit), and the sums [M][NP] */
    uint32_t *pa = malloc(M * K * 4 + 4), *pb = dv_dot_alloc(K * NP * 4), *acc = dv_dot_alloc(M * NP * 4);
    if (!pa || !pb || !acc) {
        free(pa), free(pb), free(acc);
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "matmul reference: out of memory");
    }
    float *fa = (float *)pa, *fb = (float *)pb;
    for (uint64_t bi = 0; bi < t->batch; bi++) { /* product bi: A at ab, B at bb, C at cb elements */
    const uint64_t ab = t->shared_a ? 0 : bi * M * K, bb = bi * K * N, cb = bi * M * N;
    memset(pb, 0, K * NP * 4);
    for (uint64_t i = 0; i < M * K; i++) {
        const double x = dv_ops_load(in[ARG_A], it, ab + i);
        if (ints)
            pa[i] = (uint32_t)(int32_t)x;
        else
            fa[i] = (float)x;
    }
    for (uint64_t kk = 0; kk < K; kk++)
        for (uint64_t j = 0; j < N; j++) {
            const double x = dv_ops_load(in[ARG_B], it, bb + (t->bt ? j * K + kk : kk * N + j));
            if (ints)
                pb[kk * NP + j] = (uint32_t)(int32_t)x;
            else
                fb[kk * NP + j] = (float)x;
        }
    memset(acc, 0, M * NP * 4);
    if (ints)
        dv_dot_u32(pa, pb, M, K, NP, acc);
    else
        dv_dot_f32(fa, fb, M, K, NP, (float *)acc);
    for (uint64_t i = 0; i < M; i++)
        for (uint64_t j = 0; j < N; j++) {
            double out;
            if (ints) {
                const int32_t x = (int32_t)acc[i * NP + j];
                out = t->relu && x < 0 ? 0 : x;
            } else {
                float sum;
                memcpy(&sum, &acc[i * NP + j], 4);
                out = t->relu && !(sum > 0) ? 0.0 : sum;
            }
            dv_ops_store(expect[ARG_C], ot, cb + i * N + j, out);
        }
    }
    free(pa);
    free(pb);
    free(acc);
    return DV_OK;
}

/* ---------------------------------------------------------------- graph bind */

/* As a graph node: a [M,K] and b [K,N] (b [N,K] with --b-transposed on), one dtype; sets m, n, k
 * and dtype; the output is [M,N] in --out-dtype, or the plan's natural type when it is auto. */
static int mm_bind(const dv_opdesc_t *op, const dv_tensor_desc_t *in, int nin, dv_opvals_t *v, dv_tensor_desc_t *out,
                   dv_error_t *err)
{
    static const char *const names[2] = {"a", "b"};
    const bool bt = v->v[P_BT].i != 0;
    if (v->v[P_BATCH].i > 1)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "a graph's matmul is one 2-D product: --batch %lld is "
                            "not supported in a graph", (long long)v->v[P_BATCH].i);
    if (nin != 2)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "matmul takes 2 inputs, a [M,K] and b %s; %d given",
                            bt ? "[N,K]" : "[K,N]", nin);
    for (int i = 0; i < 2; i++)
        if (in[i].shape.ndims != 2) {
            char s[96];
            dv_shape_format(&in[i].shape, s, sizeof s);
            return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input %d (%s) has shape %s: matmul needs 2-D a [M,K] "
                                "and b %s", i + 1, names[i], s, bt ? "[N,K]" : "[K,N]");
        }
    if (in[1].dtype != in[0].dtype)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input 2 (b) is %s, input 1 (a) is %s: matmul needs one dtype",
                            dv_ops_dtype_name(in[1].dtype), dv_ops_dtype_name(in[0].dtype));
    if (!(op->params[P_DTYPE].dtypes & (1u << in[0].dtype))) {
        char list[96];
        dv_ops_dtype_list(op->params[P_DTYPE].dtypes, list, sizeof list);
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input 1 (a) is %s: matmul takes %s", dv_ops_dtype_name(in[0].dtype),
                            list);
    }
    const uint64_t M = in[0].shape.d[0], K = in[0].shape.d[1];
    const uint64_t N = in[1].shape.d[bt ? 0 : 1], Kb = in[1].shape.d[bt ? 1 : 0];
    if (Kb != K)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input 2 (b) has %llu %s, input 1 (a) has %llu columns: "
                            "matmul needs a [M,K] x b %s", (unsigned long long)Kb, bt ? "columns" : "rows",
                            (unsigned long long)K, bt ? "[N,K] (b-transposed)" : "[K,N]");
    const dv_dtype_t it = in[0].dtype, natural = it == DV_DT_S8 ? DV_DT_S32 : it;
    v->v[P_M].i = (int64_t)M;
    v->v[P_N].i = (int64_t)N;
    v->v[P_K].i = (int64_t)K;
    v->v[P_DTYPE].dt = it;
    v->given[P_M] = v->given[P_N] = v->given[P_K] = v->given[P_DTYPE] = true;
    memset(out, 0, sizeof *out);
    out->shape.ndims = 2;
    out->shape.d[0] = M;
    out->shape.d[1] = N;
    out->dtype = v->v[P_OUT_DTYPE].dt == DV_DT_AUTO ? natural : v->v[P_OUT_DTYPE].dt;
    return DV_OK;
}

const dv_opdesc_t dv_op_matmul = {
    .name = "matmul",
    .desc = "C = A x B (or A x B^T) on the cube: GM -> L1 (nd2nz) -> L0A/L0B -> mmad -> L0C -> FixPipe (910B) or "
            "V + MTE3 (310) -> GM",
    .params = params,
    .nparams = P_COUNT,
    .plan = mm_plan,
    .kernel = mm_kernel,
    .reference = mm_reference,
    .bind = mm_bind,
    .cube = &mm_cube,
};
