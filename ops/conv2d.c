/* ops/conv2d.c - 2-D convolution y = conv(x, w): x NCHW [n, cin, h, w], w [cout, cin, kh, kw],
 * y NCHW [n, cout, oh, ow], all of --dtype (fp16 or bf16), accumulated in fp32 on the cube and
 * rounded once (FixPipe / L0C -> UB quantisation); optionally plus an fp32 bias per output channel
 * and a ReLU (below).  The cube sees it as the matmul
 *     C[positions, cout] = im2col(x)[positions, K] x W'[K, cout],   K = (c1, kh, kw, c0)
 * with the im2col matrix built by img2col_cbuf_to_ca from an NC1HWC0 feature map in L1.
 *
 * Layout transforms (the vector unit's part).  img2col needs the input as NC1HWC0 (16 channels
 * innermost), the weights must follow img2col's K order, and the cube's [positions, cout] result
 * is the transpose of NCHW.  All three are 16 x 16 block transposes (vtranspose):
 * - x -> x5hd [n][c1][h*w][16]: per unit 16 channel rows of up to P positions are read with one
 *   DataCopyPad (one long GM run per channel), gathered into contiguous 16x16 tiles by two vcopy
 *   (block stride = slab pitch; the pitch is an odd number of 32-B blocks so the 8 blocks of a
 *   repeat fall in different bank groups), transposed, and written back as one burst.  Channels
 *   past cin are zeros (vdup of the missing rows first).
 * - w -> wf [c1][kh*kw][cout/16][16 c0][16 co]: the weights as the matrix [cout][cin*kh*kw] go
 *   through the same transform (rows = 16 output channels); the transposed rows (ci, kh, kw) are
 *   regrouped by vcopy (block stride kh*kw) into the fractals (c1, tap) and stored as 512-B runs
 *   (row by row when 16 channels' taps do not fit one unit, kh*kw > P/16).  L1 -> L0B loads them
 *   with the 16x16 transpose into the ZN layout, so the AIC loads a K x N weight slice with one
 *   DMA and one load2d.  On 910B the weights are transformed once; on 310 by every block.
 * - y: FixPipe writes the L0C tile in NZ form, i.e. y5hd [n][cout/16][oh*ow][16] (NC1HWC0 of y);
 *   the vector unit transposes it back (tiles -> vtranspose -> scatter vcopy -> one DataCopyPad
 *   of 16 channel rows with GM stride oh*ow).
 * x5hd, wf (and y5hd on 910B) are GM workspace arguments: zero-initialised outputs whose exact
 * contents the reference computes too, so --check verifies every stage.
 *
 * 910B (split cores): one mix kernel, one block per AI core group.
 *   1. The 2*blocks AIVs share the x and w transforms (units dealt round-robin), then meet at a
 *      cross-core barrier (mode 0: every AIC reads bands and weights written by any AIV) and
 *      signal their own AIC (mode 2).
 *   2. The AIC runs its tasks (a contiguous range of (n, base-m positions, base-n channels)
 *      tiles): per task the L1 holds, per load, a band of input rows (the rows the tile's output
 *      positions reach, for ck channel groups) and the matching weight slice; img2col builds
 *      base-m x kl*16 of the im2col matrix in L0A (k_start/m_start select the slice, the band's
 *      own pad_t/pad_b stand for the rows outside it), load2d the kl*16 x base-n weights in L0B,
 *      mmad accumulates in L0C; FixPipe writes y5hd (quant f16/bf16) and signals the group's
 *      AIVs (mode 2), which turn the tile into NCHW rows of y (each AIV half of the positions).
 *      The AIVs answer each signal (mode 2 back); the AIC waits for the answer to task j - 8
 *      before signalling task j, so no flag counter passes sync.cross_flag_max.
 * 310 (coupled core, no FixPipe, no cross-core flags): a cube kernel whose blocks each do all of
 *   it on one core: the weight transform (every block writes the same wf bytes), then per task
 *   the band's x transform (MTE2 -> V -> MTE3 into x5hd, then GM -> L1: no UB -> L1 path is
 *   assumed), the same cube steps, and L0C -> UB (copy_matrix_cc_to_ubuf on V, quant, NZ) ->
 *   vtranspose -> y.  MTE3 -> MTE2 flags order the workspace writes before the L1 loads, and
 *   MTE2 -> MTE3 flags the reloads of a band before it is rewritten.
 *
 * Bias and ReLU (--bias, --relu; y = relu(conv(x, w) + b[co])).  b[cout] is fp32 whatever the
 * dtype, as Ascend's convolutions take it for fp16 / bf16 inputs, and, like w, an argument the
 * operator creates (plan->own_args: a graph node lists only x).  On the 910B the cube can add it:
 * L1 -> BiasTable, and mmad starts the L0C tile from BT (cmatrixSource, reference 6); isa/isa.def
 * has no L1 -> BT load and no mmad bias source, and the 310 has no BiasTable, so on both chips the
 * bias is added where the vector unit already holds the output as channel rows:
 * - 910B: each AIV item loads the fp32 biases of its 16 channels into its y5hd buffer behind the
 *   tile (the buffer has 16 x (P + 16) elements, the tile at most 16 x P), vbrcb makes one 32-B
 *   block per channel; 310: the same per channel group through the in queue, issued before the
 *   L0C -> UB copy so the load overlaps it.
 * - then, after the scatter into NCHW rows (channel = row), per 64 columns with the repeats
 *   walking the rows: vconv to fp32 (an fp32 copy of the unit's rows in UB), vadd of the row's
 *   bias block (block stride 0), vrelu with --relu, vconv back (round to nearest even).
 * So y = dtype(relu(fp32(dtype(acc)) + b)): the cube's result is rounded to the dtype by FixPipe /
 * L0C -> UB first (as y5hd holds it on the 910B), the add is fp32, and the reference rounds at the
 * same two places.  With --bias the UB holds two more unit-sized buffers (P is smaller).
 * --relu without --bias costs nothing: FixPipe's ReLU (910B, copy_matrix_cc_to_gm) or the L0C -> UB
 * copy's (310), before the quantisation; so y5hd holds max(acc, 0) then.
 *
 * Pipelining (Ascend C TQue style, depth 2 with --double-buffer on, 1 with off): UB in (MTE2 ->
 * V) and out (V -> MTE3) queues for the transforms, L1 (MTE2 -> MTE1), L0A and L0B (MTE1 -> M),
 * L0C (M -> FIX or V).  Loads are issued one unit ahead of the compute (CopyIn(i+1) before
 * Compute(i)).  Dependent vector steps are separated by pipe_barrier(V).
 *
 * Tiling (plan):
 * - --base-m output positions (multiple of 16) x --base-n output channels (multiple of 16) per
 *   L0C tile.  auto: base-n = cout rounded up to 16, at most 128; base-m up to 128, smaller when
 *   that evens out the work over the blocks.
 * - ck (channel groups per L1 load): the most whose band + weight slice fit L1 (twice with double
 *   buffering); kl (K blocks per L0 load): the most that fit L0A and L0B (twice) and one load2d.
 * - P (positions per transform unit): up to 1024, so that 6 UB buffers of 16 x (P + 16) elements
 *   fit (2 in, 2 out, gather scratch, weight / L0C staging).
 * Limits (errors name the parameter and the limit): the kernel's reach must fit the padded input
 * (--kh / --kw); a base-m x base-n tile must fit L0C, base-m x 16 L0A, base-n x 16 L0B, and one
 * channel group's band + weights L1 (core.*_size_bytes); kh*kw taps must fit one transform unit
 * (--kh); --cores on 910B at most chip.ai_cores (the barrier needs every block resident). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conv2d_internal.h"

enum {
    CP_N, CP_CIN, CP_H, CP_W, CP_COUT, CP_KH, CP_KW, CP_STRIDE, CP_PAD, CP_DILATION, CP_DTYPE, CP_BIAS, CP_RELU, CP_CORES,
    CP_BASE_M, CP_BASE_N, CP_DOUBLE_BUFFER, CP_COUNT
};

static const dv_oparam_spec_t conv_params[CP_COUNT] = {
    [CP_N] = {"n", DV_OPT_INT, "1", 1, 65535, 0, "batch size"},
    [CP_CIN] = {"cin", DV_OPT_INT, "64", 1, 65520, 0, "input channels (img2col: at most 4095 groups of 16)"},
    [CP_H] = {"h", DV_OPT_INT, "56", 1, 4095, 0, "input height (img2col fmap_h limit)"},
    [CP_W] = {"w", DV_OPT_INT, "56", 1, 4095, 0, "input width (img2col fmap_w limit)"},
    [CP_COUT] = {"cout", DV_OPT_INT, "64", 1, 65535, 0, "output channels"},
    [CP_KH] = {"kh", DV_OPT_INT, "3", 1, 255, 0, "kernel height"},
    [CP_KW] = {"kw", DV_OPT_INT, "3", 1, 255, 0, "kernel width"},
    [CP_STRIDE] = {"stride", DV_OPT_INT, "1", 1, 63, 0, "stride (both axes; img2col limit 63)"},
    [CP_PAD] = {"pad", DV_OPT_INT, "1", 0, 255, 0, "zero padding on every side"},
    [CP_DILATION] = {"dilation", DV_OPT_INT, "1", 1, 255, 0, "dilation (both axes)"},
    [CP_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, DT_F16 | DT_BF16,
                  "element type of x, w and y (fp32 accumulation)"},
    [CP_BIAS] = {"bias", DV_OPT_BOOL, "off", 0, 1, 0,
                 "add b[cout] (fp32, an argument of the operator) per output channel, in fp32 on the vector unit"},
    [CP_RELU] = {"relu", DV_OPT_BOOL, "off", 0, 1, 0,
                 "y = max(y, 0) on the way out (FixPipe / L0C -> UB ReLU; after the bias, on the vector unit)"},
    [CP_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0,
                  "blocks (auto: every AI core; 910B: AI core groups, at most chip.ai_cores)"},
    [CP_BASE_M] = {"base-m", DV_OPT_INT, "auto", 16, 4080, 0,
                   "output positions per L0C tile, a multiple of 16 (auto: up to 128, balanced over the blocks)"},
    [CP_BASE_N] = {"base-n", DV_OPT_INT, "auto", 16, 4080, 0,
                   "output channels per L0C tile, a multiple of 16 (auto: cout rounded up to 16, up to 128)"},
    [CP_DOUBLE_BUFFER] = {"double-buffer", DV_OPT_BOOL, "on", 0, 1, 0,
                          "two buffers per queue (UB, L1, L0A/L0B, L0C) so loads overlap compute, or one (off)"},
};

/* ---------------------------------------------------------------- geometry */

void dv_conv2d_band(const conv_tiling_t *t, uint64_t m0, uint64_t mc, conv_band_t *b)
{
    const int64_t s = t->stride, reach = (int64_t)(t->kh - 1) * t->dil;
    const int64_t oh_a = (int64_t)(m0 / t->ow), oh_b = (int64_t)((m0 + mc - 1) / t->ow);
    int64_t lo = oh_a * s - t->pad, hi = oh_b * s - t->pad + reach + 1;
    lo = lo < 0 ? 0 : lo > (int64_t)t->h - 1 ? (int64_t)t->h - 1 : lo;
    hi = hi < lo + 1 ? lo + 1 : hi > (int64_t)t->h ? (int64_t)t->h : hi;
    int64_t oh_r = (lo + t->pad) / s;
    oh_r = oh_r < oh_a ? oh_r : oh_a;
    const int64_t pad_t = lo + t->pad - oh_r * s, rows = hi - lo;
    const int64_t need = (oh_b - oh_r) * s + reach + 1;
    b->ih_lo = (uint32_t)lo;
    b->rows = (uint32_t)rows;
    b->oh_r = (uint32_t)oh_r;
    b->pad_t = (uint32_t)pad_t;
    b->pad_b = (uint32_t)(need > pad_t + rows ? need - pad_t - rows : 0);
}

void dv_conv2d_band_positions(const conv_tiling_t *t, const conv_band_t *b, uint64_t *q0, uint64_t *q1)
{
    const uint64_t hw = (uint64_t)t->h * t->w;
    *q0 = (uint64_t)b->ih_lo * t->w / C0 * C0;
    *q1 = dv_min_u64(hw, dv_round_up(((uint64_t)b->ih_lo + b->rows) * t->w, C0));
}

void dv_conv2d_task(const conv_tiling_t *t, uint64_t i, conv_task_t *c)
{
    const uint64_t ohw = (uint64_t)t->oh * t->ow;
    c->n = (uint32_t)(i / ((uint64_t)t->mtiles * t->ntiles));
    c->mt = i / t->ntiles % t->mtiles;
    const uint32_t nt = (uint32_t)(i % t->ntiles);
    c->m0 = c->mt * t->bm;
    c->mc = dv_min_u64(t->bm, ohw - c->m0);
    c->co0 = nt * t->bn;
    c->nc = (uint32_t)dv_min_u64(t->bn, t->cout - c->co0);
    c->nq = (uint32_t)dv_ceil_div(c->nc, C0);
}

void dv_conv2d_block_tasks(const conv_tiling_t *t, uint32_t b, uint32_t nb, uint64_t *first, uint64_t *end)
{
    *first = t->tasks * b / nb;
    *end = t->tasks * (b + 1) / nb;
}

/* ---------------------------------------------------------------- output size */

/* The output size of an h x w input under the kernel, stride, padding and dilation of v: the plan
 * and the graph bind both use it, so both say the same when the kernel reaches beyond the padded
 * input. */
static int conv_out_size(uint64_t h, uint64_t w, const dv_opvals_t *v, uint32_t *oh, uint32_t *ow, dv_error_t *err)
{
    const uint64_t kh = (uint64_t)v->v[CP_KH].i, kw = (uint64_t)v->v[CP_KW].i, s = (uint64_t)v->v[CP_STRIDE].i;
    const uint64_t pad = (uint64_t)v->v[CP_PAD].i, dil = (uint64_t)v->v[CP_DILATION].i;
    const uint64_t reach_h = dil * (kh - 1) + 1, reach_w = dil * (kw - 1) + 1;
    if (reach_h > h + 2 * pad)
        return dv_ops_param_error(err, "kh", "the kernel reaches %llu rows (dilation*(kh-1)+1), more than the padded "
                                  "input height h+2*pad = %llu", (unsigned long long)reach_h,
                                  (unsigned long long)(h + 2 * pad));
    if (reach_w > w + 2 * pad)
        return dv_ops_param_error(err, "kw", "the kernel reaches %llu columns (dilation*(kw-1)+1), more than the "
                                  "padded input width w+2*pad = %llu", (unsigned long long)reach_w,
                                  (unsigned long long)(w + 2 * pad));
    *oh = (uint32_t)((h + 2 * pad - reach_h) / s + 1);
    *ow = (uint32_t)((w + 2 * pad - reach_w) / s + 1);
    return DV_OK;
}

/* ---------------------------------------------------------------- plan */

static int conv_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                     dv_error_t *err)
{
    (void)op;
    conv_tiling_t t;
    memset(&t, 0, sizeof t);
    t.n = (uint32_t)v->v[CP_N].i;
    t.cin = (uint32_t)v->v[CP_CIN].i;
    t.h = (uint32_t)v->v[CP_H].i;
    t.w = (uint32_t)v->v[CP_W].i;
    t.cout = (uint32_t)v->v[CP_COUT].i;
    t.kh = (uint32_t)v->v[CP_KH].i;
    t.kw = (uint32_t)v->v[CP_KW].i;
    t.stride = (uint32_t)v->v[CP_STRIDE].i;
    t.pad = (uint32_t)v->v[CP_PAD].i;
    t.dil = (uint32_t)v->v[CP_DILATION].i;
    t.dtype = v->v[CP_DTYPE].dt;
    t.bias = (uint32_t)v->v[CP_BIAS].i;
    t.relu = (uint32_t)v->v[CP_RELU].i;
    t.split = cfg->chip_layout == DV_LAYOUT_SPLIT;
    t.depth = v->v[CP_DOUBLE_BUFFER].i ? 2 : 1;
    t.aiv = t.split ? (uint32_t)cfg->chip_aiv_per_core : 0;

    /* 1. output size */
    int rc = conv_out_size(t.h, t.w, v, &t.oh, &t.ow, err);
    if (rc != DV_OK)
        return rc;
    t.c1 = (uint32_t)dv_ceil_div(t.cin, C0);
    t.n1 = (uint32_t)dv_ceil_div(t.cout, C0);
    t.kk = t.kh * t.kw;
    const uint64_t ohw = (uint64_t)t.oh * t.ow, hw = (uint64_t)t.h * t.w;
    /* NCHW rows that are not whole 32-B blocks move with DataCopyPad */
    if (!cfg->chip_dma_pad && (hw % C0 || ohw % C0))
        return dv_ops_param_error(err, "w", "input rows of h*w = %llu and output rows of oh*ow = %llu elements must be "
                                  "whole 32-byte blocks (multiples of 16) without DataCopyPad, which profile %s "
                                  "lacks (chip.dma_pad is false)", (unsigned long long)hw, (unsigned long long)ohw,
                                  cfg->chip_name);
    if (!cfg->chip_dma_pad && (uint64_t)t.cin * t.kk % C0)
        return dv_ops_param_error(err, "cin", "weight rows of cin*kh*kw = %llu elements must be whole 32-byte blocks "
                                  "(multiples of 16) without DataCopyPad, which profile %s lacks (chip.dma_pad is "
                                  "false)", (unsigned long long)t.cin * t.kk, cfg->chip_name);
    if (hw * 2 > 16777215 || ohw * 2 > 16777215)
        return dv_ops_param_error(err, "h", "%llu input / %llu output positions per channel: a channel's stride "
                                  "exceeds the DataCopyPad gap limit of 16777215 bytes",
                                  (unsigned long long)hw, (unsigned long long)ohw);
    if ((uint64_t)t.cin * t.kk * 2 > 16777215)
        return dv_ops_param_error(err, "cin", "a weight row of cin*kh*kw = %llu elements exceeds the DataCopyPad gap "
                                  "limit of 16777215 bytes", (unsigned long long)t.cin * t.kk);

    /* 2. blocks */
    const uint32_t max_cores = (uint32_t)cfg->chip_ai_cores;
    uint32_t cores = v->v[CP_CORES].i ? (uint32_t)v->v[CP_CORES].i : max_cores;
    if (t.split && cores > max_cores)
        return dv_ops_param_error(err, "cores", "%u blocks, but the mix kernel's barrier needs every block resident: "
                                  "at most chip.ai_cores = %u", cores, max_cores);

    /* 3. the L0C tile, 4. L1; an automatic choice that leaves no channel group in L1 falls back
     * (docs/OPS.md, "Tilings that always fit"): the default double buffering to one buffer, then the
     * automatic base-m 16 positions smaller; explicit values that do not fit are errors */
    const bool bm_given = v->given[CP_BASE_M] && v->v[CP_BASE_M].i, bn_given = v->given[CP_BASE_N] && v->v[CP_BASE_N].i;
    const bool db_auto = !v->given[CP_DOUBLE_BUFFER];
    if (bm_given && v->v[CP_BASE_M].i % C0)
        return dv_ops_param_error(err, "base-m", "%lld is not a multiple of 16 (the fractal height)",
                                  (long long)v->v[CP_BASE_M].i);
    if (bn_given && v->v[CP_BASE_N].i % C0)
        return dv_ops_param_error(err, "base-n", "%lld is not a multiple of 16 (the fractal width)",
                                  (long long)v->v[CP_BASE_N].i);
    char why_db[200] = "", why_bm[200] = "";
    uint64_t bm_cap = AUTO_BM;
    for (;;) {
        const uint32_t nbuf = t.depth;
        t.bn = bn_given ? (uint32_t)v->v[CP_BASE_N].i : (uint32_t)dv_min_u64(dv_round_up(t.cout, C0), AUTO_BN);
        t.bn = (uint32_t)dv_min_u64(t.bn, dv_round_up(t.cout, C0));
        t.ntiles = (uint32_t)dv_ceil_div(t.cout, t.bn);
        if (bm_given)
            t.bm = (uint32_t)v->v[CP_BASE_M].i;
        else {
            /* up to AUTO_BM positions (fewer when L0C is small), and as many tiles as make whole waves */
            uint64_t cap = bm_cap;
            while (cap > C0 && cap * t.bn * 4 * nbuf > cfg->l0c_size_bytes)
                cap -= C0;
            uint64_t mt = dv_ceil_div(ohw, cap), total = (uint64_t)t.n * mt * t.ntiles;
            if (total < cores)
                mt = dv_min_u64(dv_ceil_div(ohw, C0), dv_ceil_div(cores, (uint64_t)t.n * t.ntiles));
            else
                mt = dv_min_u64(dv_ceil_div(ohw, C0),
                                dv_ceil_div(dv_ceil_div(total, cores) * cores, (uint64_t)t.n * t.ntiles));
            t.bm = (uint32_t)dv_round_up(dv_ceil_div(ohw, mt), C0);
        }
        t.bm = (uint32_t)dv_min_u64(t.bm, dv_round_up(ohw, C0));
        t.mtiles = (uint32_t)dv_ceil_div(ohw, t.bm);
        t.tasks = (uint64_t)t.n * t.mtiles * t.ntiles;
        const uint32_t nq = t.bn / C0;
        t.l0c_bytes = (uint64_t)t.bm * t.bn * 4;
        char a[32], b[32];
        const uint64_t l0[3] = {t.l0c_bytes * nbuf, (uint64_t)t.bm * C0 * 2 * nbuf, (uint64_t)t.bn * C0 * 2 * nbuf};
        const uint64_t cap0[3] = {cfg->l0c_size_bytes, cfg->l0a_size_bytes, cfg->l0b_size_bytes};
        int over = -1;
        for (int i = 2; i >= 0; i--)
            if (l0[i] > cap0[i])
                over = i;
        if (over >= 0 && db_auto && t.depth == 2) { /* the ping-pong that does not fit L0 goes first */
            static const char *const names[3] = {"L0C", "L0A", "L0B"};
            snprintf(why_db, sizeof why_db, "auto 2 does not fit %s: %s > %s B",
                     names[over], dv_ops_thousands(l0[over], a, sizeof a), dv_ops_thousands(cap0[over], b, sizeof b));
            t.depth = 1;
            continue;
        }
        if (t.l0c_bytes * nbuf > cfg->l0c_size_bytes)
            return dv_ops_param_error(err, (uint64_t)C0 * t.bn * 4 * nbuf > cfg->l0c_size_bytes ? "base-n"
                                                                                                 : "base-m",
                                      "a base-m x base-n = %u x %u f32 tile (x%u buffers) needs %llu bytes of L0C; "
                                      "core.l0c_size_bytes is %llu", t.bm, t.bn, nbuf,
                                      (unsigned long long)(t.l0c_bytes * nbuf),
                                      (unsigned long long)cfg->l0c_size_bytes);
        if ((uint64_t)t.bm * C0 * 2 * nbuf > cfg->l0a_size_bytes)
            return dv_ops_param_error(err, "base-m", "%u rows of one 16-column K block (x%u buffers) need %llu "
                                      "bytes of L0A; core.l0a_size_bytes is %llu", t.bm, nbuf,
                                      (unsigned long long)t.bm * C0 * 2 * nbuf,
                                      (unsigned long long)cfg->l0a_size_bytes);
        if ((uint64_t)t.bn * C0 * 2 * nbuf > cfg->l0b_size_bytes)
            return dv_ops_param_error(err, "base-n", "%u columns of one 16-row K block (x%u buffers) need %llu "
                                      "bytes of L0B; core.l0b_size_bytes is %llu", t.bn, nbuf,
                                      (unsigned long long)t.bn * C0 * 2 * nbuf,
                                      (unsigned long long)cfg->l0b_size_bytes);
        t.kl = (uint32_t)dv_min_u64(dv_min_u64(cfg->l0a_size_bytes / nbuf / ((uint64_t)t.bm * C0 * 2),
                                   cfg->l0b_size_bytes / nbuf / ((uint64_t)t.bn * C0 * 2)),
                              dv_min_u64(DV_REPEAT_MAX, (uint64_t)t.c1 * t.kk));
        t.l0a_bytes = (uint64_t)t.bm * t.kl * C0 * 2;
        t.l0b_bytes = (uint64_t)t.kl * nq * FRAC;

        /* 4. L1: the largest band, ck channel groups of it plus their weights per buffer */
        t.rmax = 0;
        for (uint64_t mt = 0; mt < t.mtiles; mt++) {
            conv_band_t b;
            dv_conv2d_band(&t, mt * t.bm, dv_min_u64(t.bm, ohw - mt * t.bm), &b);
            t.rmax = (uint32_t)dv_max_u64(t.rmax, b.rows);
            const uint64_t pad_max = dv_ops_field_max(DV_FORM_IMG2COL, DV_FLD(IMG2COL, pad_t));
            if (b.pad_t > pad_max || b.pad_b > pad_max)
                return dv_ops_param_error(err, "pad", "a band of input rows would need %u / %u rows of padding; "
                                          "img2col allows %llu", b.pad_t, b.pad_b, (unsigned long long)pad_max);
        }
        const uint64_t per_c1 = (uint64_t)t.rmax * t.w * BLK + (uint64_t)t.kk * nq * FRAC;
        const uint64_t ck = cfg->l1_size_bytes / nbuf / per_c1;
        if (ck > 0 && (uint64_t)t.rmax * t.w <= 65535) {
            t.ck = (uint32_t)dv_min_u64(ck, t.c1);
            break;
        }
        if (ck == 0 && db_auto && t.depth == 2) {
            snprintf(why_db, sizeof why_db, "auto 2 does not fit L1: %s > %s B",
                     dv_ops_thousands(per_c1 * nbuf, a, sizeof a), dv_ops_thousands(cfg->l1_size_bytes, b, sizeof b));
            t.depth = 1;
            continue;
        }
        if (!bm_given && t.bm > C0) {
            if (!why_bm[0])
                snprintf(why_bm, sizeof why_bm, "auto %u: its input band does not fit L1: %s > %s B", t.bm,
                         dv_ops_thousands(per_c1 * nbuf, a, sizeof a),
                         dv_ops_thousands(cfg->l1_size_bytes, b, sizeof b));
            bm_cap = t.bm - C0;
            continue;
        }
        const bool weights = (uint64_t)t.kk * nq * FRAC * nbuf >= cfg->l1_size_bytes; /* alone too many */
        return dv_ops_param_error(err, weights && bn_given ? "base-n" : bm_given ? "base-m"
                                       : t.depth == 2 ? "double-buffer" : weights ? "kh" : "w",
                                  "one channel group of the input band (%u rows x %u x 32 B) and its weights (%u "
                                  "taps x %u x 512 B), x%u buffers, need %llu bytes of L1; core.l1_size_bytes is %llu",
                                  t.rmax, t.w, t.kk, nq, nbuf, (unsigned long long)per_c1 * nbuf,
                                  (unsigned long long)cfg->l1_size_bytes);
    }
    dv_ops_tiling_row(plan, "base-m", why_bm, "%u", t.bm);
    dv_ops_tiling_row(plan, "base-n", "", "%u", t.bn);
    dv_ops_tiling_row(plan, "buffers", why_db, "%u", t.depth);
    dv_ops_tiling_row(plan, "l1-channel-groups", "", "%u", t.ck);
    dv_ops_tiling_row(plan, "l0-k-blocks", "", "%u", t.kl);
    t.l1_wofs = (uint64_t)t.ck * t.rmax * t.w * BLK;
    t.l1_bytes = t.l1_wofs + (uint64_t)t.ck * t.kk * (t.bn / C0) * FRAC;

    /* 5. UB: the transform unit (--bias: also its 16 rows in fp32 and the 16 channels' bias blocks) */
    const uint64_t ub_slots = UB_BUFS + (t.bias ? UB_BIAS_BUFS : 0), ub_fixed = t.bias ? C0 * BLK : 0;
    uint64_t p = XF_P_CAP;
    while (p >= 32 && ub_slots * 32 * (p + C0) + ub_fixed > cfg->ub_size_bytes)
        p -= 32;
    if (p < 32)
        return dv_ops_param_error(err, t.bias ? "bias" : "double-buffer", "the transform needs %llu bytes of UB; "
                                  "core.ub_size_bytes is %llu", (unsigned long long)(ub_slots * 32 * 48 + ub_fixed),
                                  (unsigned long long)cfg->ub_size_bytes);
    t.p = (uint32_t)p;
    t.pp = (uint32_t)(p + C0);
    t.ub_bytes = (uint64_t)C0 * t.pp * 2;
    if (t.kk > t.p)
        return dv_ops_param_error(err, "kh", "kh*kw = %u taps exceed the %u columns of one transform unit (UB, "
                                  "core.ub_size_bytes is %llu)", t.kk, t.p, (unsigned long long)cfg->ub_size_bytes);
    /* whole channel groups per weight unit when 16 channels' taps fit one unit (regrouped into
     * 512-B fractal rows in UB), else as many channels as fit (stored row by row) */
    t.wreorder = (uint64_t)C0 * t.kk <= t.p && t.kk <= DV_REPEAT_MAX;
    t.wcc = t.wreorder ? (uint32_t)dv_min_u64(dv_round_up(t.cin, C0), t.p / (C0 * t.kk) * C0)
                       : (uint32_t)dv_min_u64(t.cin, t.p / t.kk);
    while (!t.wreorder && !cfg->chip_dma_pad && t.wcc > 0 && (uint64_t)t.wcc * t.kk % C0 && t.wcc < t.cin)
        t.wcc--; /* whole 32-B rows per unit */
    if (t.wcc == 0)
        return dv_ops_param_error(err, "kh", "kh*kw = %u taps: no whole number of 32-byte weight rows fits the %u "
                                  "columns of one transform unit without DataCopyPad (chip.dma_pad is false)",
                                  t.kk, t.p);
    if (!t.split)
        cores = (uint32_t)dv_min_u64(cores, t.tasks);

    /* 6. the launch */
    plan->info.kind = t.split ? DV_KIND_MIX : DV_KIND_CUBE;
    plan->info.blocks = cores;
    const dv_dtype_t dt = (dv_dtype_t)t.dtype;
    const double wr = 1.0 / sqrt((double)t.cin * t.kk); /* keeps |y| of order 1 whatever cin*kh*kw */
    t.arg_x = plan->info.nargs;
    rc |= dv_ops_add_arg(plan, "x", dt, (uint64_t)t.n * t.cin * hw, DV_ARG_IN, -1.0, 1.0);
    t.arg_w = plan->info.nargs;
    rc |= dv_ops_add_arg(plan, "w", dt, (uint64_t)t.cout * t.cin * t.kk, DV_ARG_IN, -wr * 1.7, wr * 1.7);
    plan->own_args = 1u << t.arg_w;
    if (t.bias) {
        t.arg_b = plan->info.nargs;
        rc |= dv_ops_add_arg(plan, "b", DV_DT_F32, t.cout, DV_ARG_IN, -0.5, 0.5);
        plan->own_args |= 1u << t.arg_b;
    }
    t.arg_y = plan->info.nargs;
    rc |= dv_ops_add_arg(plan, "y", dt, (uint64_t)t.n * t.cout * ohw, DV_ARG_OUT, 0, 0);
    t.arg_x5 = plan->info.nargs;
    rc |= dv_ops_add_arg(plan, "x5hd", dt, (uint64_t)t.n * t.c1 * hw * C0, DV_ARG_OUT, 0, 0);
    t.arg_wf = plan->info.nargs;
    rc |= dv_ops_add_arg(plan, "wf", dt, (uint64_t)t.c1 * t.kk * t.n1 * C0 * C0, DV_ARG_OUT, 0, 0);
    if (t.split) {
        t.arg_y5 = plan->info.nargs;
        rc |= dv_ops_add_arg(plan, "y5hd", dt, (uint64_t)t.n * t.n1 * ohw * C0, DV_ARG_OUT, 0, 0);
    }
    if (rc != DV_OK)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "conv2d: tensor sizes overflow");
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = (2ull * t.cin * t.kk + t.bias + t.relu) * t.n * t.cout * ohw;
    plan->bytes = ((uint64_t)t.n * t.cin * hw + (uint64_t)t.cout * t.cin * t.kk + (uint64_t)t.n * t.cout * ohw) * 2 +
                  (t.bias ? (uint64_t)t.cout * 4 : 0);
    return DV_OK;
}

/* ---------------------------------------------------------------- reference */

/* Direct convolution in double, rounded once to the dtype (--relu without --bias: ReLU first), then
 * with --bias the fp32 add (and ReLU) of the vector unit, rounded as it rounds; the workspaces as the kernel lays
 * them out (zeros in the padding channels; on coupled cores x5hd only where a band was read). */
static int conv_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    conv_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t dt = (dv_dtype_t)t.dtype;
    const uint8_t *x = in[t.arg_x], *w = in[t.arg_w];
    const uint64_t hw = (uint64_t)t.h * t.w, ohw = (uint64_t)t.oh * t.ow;
    /* on coupled cores x5hd holds the positions of the bands the tiles read (see coupled_prepare) */
    uint8_t *used = calloc(hw, 1);
    if (!used)
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "conv2d: out of memory");
    for (uint64_t mt = 0; mt < t.mtiles; mt++) {
        conv_band_t b;
        uint64_t q0 = 0, q1 = hw;
        dv_conv2d_band(&t, mt * t.bm, dv_min_u64(t.bm, ohw - mt * t.bm), &b);
        if (!t.split)
            dv_conv2d_band_positions(&t, &b, &q0, &q1);
        memset(used + q0, 1, q1 - q0);
    }
    for (uint32_t n = 0; n < t.n; n++)
        for (uint32_t ci = 0; ci < t.cin; ci++)
            for (uint64_t p = 0; p < hw; p++)
                if (used[p])
                    dv_ops_store(expect[t.arg_x5], dt, (((uint64_t)n * t.c1 + ci / C0) * hw + p) * C0 + ci % C0,
                                 dv_ops_load(x, dt, ((uint64_t)n * t.cin + ci) * hw + p));
    free(used);
    for (uint32_t co = 0; co < t.cout; co++)
        for (uint32_t ci = 0; ci < t.cin; ci++)
            for (uint32_t tap = 0; tap < t.kk; tap++) {
                const uint64_t fr = ((uint64_t)(ci / C0) * t.kk + tap) * t.n1 + co / C0;
                dv_ops_store(expect[t.arg_wf], dt, (fr * C0 + ci % C0) * C0 + co % C0,
                             dv_ops_load(w, dt, ((uint64_t)co * t.cin + ci) * t.kk + tap));
            }
    for (uint32_t n = 0; n < t.n; n++)
        for (uint32_t co = 0; co < t.cout; co++)
            for (uint32_t oh = 0; oh < t.oh; oh++)
                for (uint32_t ow = 0; ow < t.ow; ow++) {
                    double acc = 0;
                    for (uint32_t ci = 0; ci < t.cin; ci++)
                        for (uint32_t i = 0; i < t.kh; i++) {
                            const int64_t ih = (int64_t)oh * t.stride - t.pad + (int64_t)i * t.dil;
                            if (ih < 0 || ih >= (int64_t)t.h)
                                continue;
                            for (uint32_t j = 0; j < t.kw; j++) {
                                const int64_t iw = (int64_t)ow * t.stride - t.pad + (int64_t)j * t.dil;
                                if (iw < 0 || iw >= (int64_t)t.w)
                                    continue;
                                acc += dv_ops_load(x, dt, (((uint64_t)n * t.cin + ci) * t.h + ih) * t.w + iw) *
                                       dv_ops_load(w, dt, (((uint64_t)co * t.cin + ci) * t.kh + i) * t.kw + j);
                            }
                        }
                    /* FixPipe / L0C -> UB: ReLU (when no bias follows) and the rounding to the dtype */
                    const uint64_t m = (uint64_t)oh * t.ow + ow;
                    double y = dv_ops_round(dt, t.relu && !t.bias ? fmax(acc, 0.0) : acc);
                    if (t.split)
                        dv_ops_store(expect[t.arg_y5], dt, (((uint64_t)n * t.n1 + co / C0) * ohw + m) * C0 + co % C0,
                                     y);
                    /* the vector unit: fp32 y + b[co], ReLU, rounded to the dtype by the store */
                    if (t.bias) {
                        y = dv_ops_round(DV_DT_F32, y + dv_ops_load(in[t.arg_b], DV_DT_F32, co));
                        y = t.relu ? fmax(y, 0.0) : y;
                    }
                    dv_ops_store(expect[t.arg_y], dt, ((uint64_t)n * t.cout + co) * ohw + m, y);
                }
    return DV_OK;
}

/* ---------------------------------------------------------------- graph bind */

/* As a graph node: x [N, Cin, H, W] sets --n, --cin, --h, --w and --dtype; y is [N, cout, OH, OW]
 * (w and b are the operator's own). */
static int conv_bind(const dv_opdesc_t *op, const dv_tensor_desc_t *in, int nin, dv_opvals_t *v,
                     dv_tensor_desc_t *out, dv_error_t *err)
{
    static const struct {
        int param;
        const char *what;
    } dims[4] = {{CP_N, "batch size"}, {CP_CIN, "channel count"}, {CP_H, "height"}, {CP_W, "width"}};
    char buf[96];
    if (nin != 1)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "%s takes one input (x, NxCinxHxW), not %d", op->name, nin);
    if (in[0].shape.ndims != 4) {
        dv_shape_format(&in[0].shape, buf, sizeof buf);
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input 1 has shape %s; %s takes x as NxCinxHxW (4 "
                            "dimensions), not %d", buf, op->name, in[0].shape.ndims);
    }
    const dv_oparam_spec_t *pd = &op->params[CP_DTYPE];
    if (in[0].dtype >= DV_DT_COUNT || !(pd->dtypes & (1u << in[0].dtype))) {
        size_t n = 0;
        buf[0] = 0;
        for (int t = 0; t < DV_DT_COUNT; t++)
            if (pd->dtypes & (1u << t))
                n += (size_t)snprintf(buf + n, n < sizeof buf ? sizeof buf - n : 0, "%s%s", n ? ", " : "",
                                      dv_ops_dtype_name((dv_dtype_t)t));
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input 1 is %s; %s takes %s", dv_ops_dtype_name(in[0].dtype),
                            op->name, buf);
    }
    for (int i = 0; i < 4; i++) {
        const dv_oparam_spec_t *s = &op->params[dims[i].param];
        if ((double)in[0].shape.d[i] < s->min || (double)in[0].shape.d[i] > s->max) {
            dv_ops_format_range(s, buf, sizeof buf);
            return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input 1 has %s %llu (dimension %d of NxCinxHxW); %s "
                                "--%s takes %s", dims[i].what, (unsigned long long)in[0].shape.d[i], i + 1, op->name,
                                s->name, buf);
        }
    }
    uint32_t oh, ow;
    int rc = conv_out_size(in[0].shape.d[2], in[0].shape.d[3], v, &oh, &ow, err);
    if (rc != DV_OK)
        return rc;
    for (int i = 0; i < 4; i++) {
        v->v[dims[i].param].i = (int64_t)in[0].shape.d[i];
        v->given[dims[i].param] = true;
    }
    v->v[CP_DTYPE].dt = in[0].dtype;
    v->given[CP_DTYPE] = true;
    out->shape.ndims = 4;
    out->shape.d[0] = in[0].shape.d[0];
    out->shape.d[1] = (uint64_t)v->v[CP_COUT].i;
    out->shape.d[2] = oh;
    out->shape.d[3] = ow;
    out->dtype = in[0].dtype;
    return DV_OK;
}

const dv_opdesc_t dv_op_conv2d = {
    .name = "conv2d",
    .desc = "2-D convolution, NCHW: vector transforms to NC1HWC0, img2col + mmad on the cube, back to NCHW",
    .params = conv_params,
    .nparams = CP_COUNT,
    .plan = conv_plan,
    .kernel = dv_conv2d_kernel,
    .reference = conv_reference,
    .bind = conv_bind,
};
