/* ops/convolution.c - the general convolution: 1-D, 2-D and 3-D (x [n, cin, d, h, w]; 2-D has d = 1,
 * 1-D d = h = 1), per-axis stride, padding and dilation, groups, transposed (with output padding),
 * an optional bias, and fp16, bf16 or fp32 (fp32 is multiplied in fp32 on the cube at its fp32 rate,
 * cube.k_f32).  conv2d (ops/conv2d.c) is the NC1HWC0 / img2col path of the plain fp16 2-D case.
 *
 * The convolution as a matmul per image n and group g (G groups, cin_g = cin/G, cout_g = cout/G):
 *     y[n][g*cout_g + co][o] = sum_k A_g[co][k] * col[n][g][o][k],   k = (ci, tap), K = cin_g * taps
 * o runs over the output positions (od, oh, ow), tap over (td, th, tw).  Per axis:
 * - not transposed: col[o][(ci, t)] = x[ci][o*s - p + t*dil] (0 outside the input), A_g = w's rows of
 *   group g (w [cout][cin_g][taps] is A as it lies: [cout][K]);
 * - transposed (y[o] gets x[i] * w[t] for every o = i*s - p + t*dil): col[o][(ci, t)] = x[ci][i]
 *   with i = (o + p - t*dil) / s when that divides and i is inside the input, else 0; the input
 *   zero-inserted and padded, read with the taps in place.  A_g[co][(ci, t)] = w[g*cin_g + ci][co][t]
 *   (w is [cin][cout_g][taps]): the kernel permutes w into the workspace wa.
 * Output: od = (d + 2p - dil*(k-1) - 1)/s + 1, transposed (d-1)*s - 2p + dil*(k-1) + out_pad + 1.
 * --tbc (aclnnConvTbc, 1-D): x [w][n][cin], w [kw][cin][cout], y [ow][n][cout] as they lie: the
 * gather reads x with its strides (a channel 1, a position n*cin apart), w is permuted into wa, and
 * the product is turned round, y^T[o][co] = col x wa^T (A = col rows, B = wa rows), so that the
 * FixPipe writes rows of cout channels n*cout apart.
 *
 * The kernel (split 910B: a mix kernel, AIVs then AICs; coupled 310: a cube kernel whose blocks do both
 * steps for their own tasks):
 *   1. Vector, im2col into the GM workspace col [n][G][P][Kp] (Kp = K rounded up to 32 bytes, the
 *      padding columns 0): per unit (a chunk of pc positions of one (n, g)) the cin_g input planes
 *      of (n, g) are loaded into UB with one DMA (whole 32-byte blocks), a zero block behind them, and
 *      vgather picks every element of the pc x Kp chunk through a table of byte offsets (the zero
 *      block for padding, inserted zeros and the padding columns).  The scalar unit writes the table
 *      (st_ub) when the chunk's positions change; it depends on the positions only, so the units of
 *      one chunk run one after the other over (n, g).  Transposed: the same gather builds
 *      wa [G][cout_g][Kp] from w.  --bias: y is filled with b[co] per output channel (vbrcb of the
 *      biases, a vcopy of the channel's block along the row, one DMA per row).
 *      910B: units dealt to the 2*blocks AIVs in contiguous ranges, then a cross-core barrier (mode
 *      0, every AIC reads col rows any AIV wrote) and a signal to its AIC (mode 2).
 *   2. Cube, per task (n, g, base-m output channels, base-n positions), K in base-k slices:
 *      GM --nd2nz--> L1 (A rows, col rows: B given as [N, K], so L1 holds ZN fractals already)
 *      --load2d--> L0A (ZZ) / L0B --mmad--> L0C (fp32), then 910B: FixPipe to y (NZ -> ND, quantPre
 *      to the dtype); 310: L0C -> UB (V) and a DMA per chunk of rows.  --bias: the output is added to
 *      what y holds (set_atomic add): y = dtype(dtype(acc) + b).  On the 310 each task fills its own
 *      tile of y with the bias first (same MTE3 queue, so in order).
 * Pipelining: UB queues (planes MTE2 -> V, one buffer; the gathered chunk V -> MTE3, two), L1 (MTE2 ->
 * MTE1), L0A/L0B (MTE1 -> M) and L0C (M -> FIX or V) queues of two buffers.
 * When one group's planes do not fit UB, a unit gathers a chunk of cc channels (the columns
 * [c0*taps, (c0+cc)*taps) of col, written with DataCopyPad), the planes then at most half of UB.
 * Limits (errors name the parameter): one channel's plane and one table row must fit UB; without
 * DataCopyPad (chip.dma_pad false) the whole group's planes, and rows of y of whole 32-byte blocks. */
#include "../kernel/kapi_emit.h" /* dvk_<mnemonic> write into the stream (before dv/kapi.h) */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/ops.h"

enum {
    CV_N, CV_CIN, CV_D, CV_H, CV_W, CV_COUT, CV_GROUPS, CV_KERNEL, CV_STRIDE, CV_DILATION, CV_PAD, CV_TRANSPOSED,
    CV_OUT_PAD, CV_TBC, CV_DTYPE, CV_BIAS, CV_CORES, CV_COUNT
};

static const dv_oparam_spec_t cv_params[CV_COUNT] = {
    [CV_N] = {"n", DV_OPT_INT, "1", 1, 65535, 0, "batch size"},
    [CV_CIN] = {"cin", DV_OPT_INT, "16", 1, 65535, 0, "input channels (a multiple of --groups)"},
    [CV_D] = {"d", DV_OPT_INT, "1", 1, 65535, 0, "input depth (3-D; 1 for 2-D and 1-D)"},
    [CV_H] = {"h", DV_OPT_INT, "16", 1, 65535, 0, "input height (1 for 1-D)"},
    [CV_W] = {"w", DV_OPT_INT, "16", 1, 65535, 0, "input width"},
    [CV_COUT] = {"cout", DV_OPT_INT, "16", 1, 65535, 0, "output channels (a multiple of --groups)"},
    [CV_GROUPS] = {"groups", DV_OPT_INT, "1", 1, 65535, 0, "channel groups (input and output channels split alike)"},
    [CV_KERNEL] = {"kernel", DV_OPT_SHAPE, "1x3x3", 1, 255, 0, "kernel size DxHxW, each in [1, 255]"},
    [CV_STRIDE] = {"stride", DV_OPT_SHAPE, "1x1x1", 1, 255, 0, "stride DxHxW, each in [1, 255]"},
    [CV_DILATION] = {"dilation", DV_OPT_SHAPE, "1x1x1", 1, 255, 0, "dilation DxHxW, each in [1, 255]"},
    [CV_PAD] = {"pad", DV_OPT_SHAPE, "0x1x1", 0, 255, 0, "zero padding DxHxW on both sides of each axis"},
    [CV_TRANSPOSED] = {"transposed", DV_OPT_BOOL, "off", 0, 1, 0,
                       "transposed convolution (the gradient of a convolution by its input): w is [cin, cout/groups, "
                       "taps]"},
    [CV_OUT_PAD] = {"out-pad", DV_OPT_SHAPE, "0x0x0", 0, 255, 0,
                    "transposed: extra output positions DxHxW at the end of each axis (each less than the stride or "
                    "the dilation)"},
    [CV_TBC] = {"tbc", DV_OPT_BOOL, "off", 0, 1, 0,
                "1-D in aclnnConvTbc's layouts: x [w, n, cin], w [kw, cin, cout], y [ow, n, cout] (d = h = 1, groups 1, "
                "not transposed)"},
    [CV_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, DT_F16 | DT_BF16 | DT_F32,
                  "element type of x, w, b and y (fp32 accumulation; fp32 multiplies at the cube's fp32 rate)"},
    [CV_BIAS] = {"bias", DV_OPT_BOOL, "off", 0, 1, 0,
                 "add b[cout] (of --dtype, an argument of the operator): y is filled with it, the cube adds to it"},
    [CV_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0,
                  "blocks (auto: every AI core; 910B: AI core groups, at most chip.ai_cores)"},
};

enum {
    BLK = 32,
    FRAC = 512,
    CV_BM = 128,    /* output channels per L0C tile, at most */
    CV_BN = 128,    /* positions per L0C tile, at most */
    CV_READY = 0,   /* cross-core flags */
    CV_TO_AIC = 1,
    CV_TAB_MAX = 8192 /* table entries (u32) per gather unit, at most */
};

typedef struct cv_tiling {
    uint32_t n, cin, cout, g, cin_g, cout_g;
    uint32_t in[3], k[3], s[3], p[3], dil[3], op[3], out[3];
    uint32_t transposed, tbc, dtype, isz, bias, split, aiv, blocks;
    uint64_t xs_c, xs_p, xs_n;          /* x: element strides of a channel, a position, an image */
    uint64_t M, N;                      /* the product per (n, g): M x N, A's rows x B's rows */
    uint64_t taps, K, Kp, P, IN;        /* taps, reduction, padded row, output / input positions */
    uint64_t pc, punits;                /* positions per col unit, position chunks */
    uint64_t cc, ncc, rp;               /* input channels per col unit, channel chunks, UB row pitch (elements) */
    uint64_t wrows, wunits;             /* transposed: wa rows per unit, units per group */
    uint64_t plane_bytes;               /* UB buffer of the loaded planes (with alignment and zero block) */
    uint64_t row_bytes, tab_bytes;      /* UB: gathered chunk; table */
    uint64_t fill_p;                    /* --bias: positions per filled row chunk */
    uint32_t bm, bn, bk, mtiles, ntiles, ks;
    uint64_t tasks;
    uint32_t arg_x, arg_w, arg_b, arg_y, arg_col, arg_wa;
} cv_tiling_t;

/* ---------------------------------------------------------------- geometry */

/* Output size along one axis, 0 when the kernel does not fit. */
static int64_t cv_out_axis(bool tr, int64_t in, int64_t k, int64_t s, int64_t p, int64_t dil, int64_t op)
{
    if (tr)
        return (in - 1) * s - 2 * p + dil * (k - 1) + op + 1;
    const int64_t span = in + 2 * p - dil * (k - 1) - 1;
    return span < 0 ? 0 : span / s + 1;
}

/* The input index output o reads at tap t along one axis, -1 for a zero. */
static int64_t cv_src_axis(const cv_tiling_t *t, int a, int64_t o, int64_t tap)
{
    int64_t i;
    if (t->transposed) {
        const int64_t v = o + t->p[a] - tap * t->dil[a];
        if (v < 0 || v % t->s[a])
            return -1;
        i = v / t->s[a];
    } else
        i = o * t->s[a] - t->p[a] + tap * t->dil[a];
    return i >= 0 && i < t->in[a] ? i : -1;
}

/* The input position (within one channel plane) of col element (o, tap), -1 for a zero. */
static int64_t cv_src(const cv_tiling_t *t, uint64_t o, uint64_t tap)
{
    const int64_t ow = (int64_t)(o % t->out[2]), oh = (int64_t)(o / t->out[2] % t->out[1]),
                  od = (int64_t)(o / t->out[2] / t->out[1]);
    const int64_t tw = (int64_t)(tap % t->k[2]), th = (int64_t)(tap / t->k[2] % t->k[1]),
                  td = (int64_t)(tap / t->k[2] / t->k[1]);
    const int64_t id = cv_src_axis(t, 0, od, td), ih = cv_src_axis(t, 1, oh, th), iw = cv_src_axis(t, 2, ow, tw);
    if (id < 0 || ih < 0 || iw < 0)
        return -1;
    return (id * t->in[1] + ih) * t->in[2] + iw;
}

/* A_g[co][k] as an element index of w. */
static uint64_t cv_w_index(const cv_tiling_t *t, uint32_t g, uint64_t co, uint64_t k)
{
    const uint64_t ci = k / t->taps, tap = k % t->taps;
    if (t->tbc)
        return (tap * t->cin + ci) * t->cout + co;
    if (t->transposed)
        return (((uint64_t)g * t->cin_g + ci) * t->cout_g + co) * t->taps + tap;
    return ((uint64_t)g * t->cout_g + co) * t->K + k;
}

/* Task i: image n, group g, rows [m0, m0 + mt) of the product (output channels of the group; --tbc:
 * positions), columns [p0, p0 + nt) (positions; --tbc: output channels). */
typedef struct cv_task {
    uint32_t n, g;
    uint64_t m0, mt, p0, nt;
} cv_task_t;

static void cv_task(const cv_tiling_t *t, uint64_t i, cv_task_t *c)
{
    const uint64_t ni = i % t->ntiles, mi = i / t->ntiles % t->mtiles, ng = i / t->ntiles / t->mtiles;
    c->n = (uint32_t)(ng / t->g);
    c->g = (uint32_t)(ng % t->g);
    c->m0 = mi * t->bm;
    c->mt = dv_min_u64(t->bm, t->M - c->m0);
    c->p0 = ni * t->bn;
    c->nt = dv_min_u64(t->bn, t->N - c->p0);
}

/* ---------------------------------------------------------------- plan */

static int cv_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                   dv_error_t *err)
{
    (void)op;
    static const char *const axis[3] = {"d", "h", "w"};
    cv_tiling_t t;
    memset(&t, 0, sizeof t);
    t.n = (uint32_t)v->v[CV_N].i;
    t.cin = (uint32_t)v->v[CV_CIN].i;
    t.cout = (uint32_t)v->v[CV_COUT].i;
    t.g = (uint32_t)v->v[CV_GROUPS].i;
    t.transposed = (uint32_t)v->v[CV_TRANSPOSED].i;
    t.tbc = (uint32_t)v->v[CV_TBC].i;
    t.dtype = v->v[CV_DTYPE].dt;
    t.isz = (uint32_t)dv_dtype_size((dv_dtype_t)t.dtype);
    t.bias = (uint32_t)v->v[CV_BIAS].i;
    t.split = cfg->chip_layout == DV_LAYOUT_SPLIT;
    t.aiv = t.split ? (uint32_t)cfg->chip_aiv_per_core : 1;
    if (t.cin % t.g || t.cout % t.g)
        return dv_ops_param_error(err, "groups", "%u groups: cin = %u and cout = %u must both be multiples of it", t.g,
                                  t.cin, t.cout);
    t.cin_g = t.cin / t.g;
    t.cout_g = t.cout / t.g;
    t.taps = 1;
    t.P = t.IN = 1;
    static const int shp[5] = {CV_KERNEL, CV_STRIDE, CV_DILATION, CV_PAD, CV_OUT_PAD};
    for (int i = 0; i < 5; i++) {
        const dv_shape_t *sh = &v->v[shp[i]].shape;
        if (sh->ndims != 3 || sh->d[0] > 255 || sh->d[1] > 255 || sh->d[2] > 255)
            return dv_ops_param_error(err, cv_params[shp[i]].name, "takes three sizes DxHxW, each in [%d, 255] (a "
                                      "2-D convolution has D = 1, a 1-D one D = H = 1)", i < 3 ? 1 : 0);
    }
    for (int a = 0; a < 3; a++) {
        t.in[a] = (uint32_t)v->v[CV_D + a].i;
        t.k[a] = (uint32_t)v->v[CV_KERNEL].shape.d[a];
        t.s[a] = (uint32_t)v->v[CV_STRIDE].shape.d[a];
        t.p[a] = (uint32_t)v->v[CV_PAD].shape.d[a];
        t.dil[a] = (uint32_t)v->v[CV_DILATION].shape.d[a];
        t.op[a] = (uint32_t)v->v[CV_OUT_PAD].shape.d[a];
        if (t.op[a] && !t.transposed)
            return dv_ops_param_error(err, "out-pad", "%u along %s: output padding is for a transposed convolution "
                                      "only", t.op[a], axis[a]);
        if (t.transposed && t.op[a] >= t.s[a] && t.op[a] >= t.dil[a])
            return dv_ops_param_error(err, "out-pad",
                                      "%u along %s: output padding must be less than the stride (%u) or the dilation "
                                      "(%u)", t.op[a], axis[a], t.s[a], t.dil[a]);
        const int64_t o = cv_out_axis(t.transposed, t.in[a], t.k[a], t.s[a], t.p[a], t.dil[a], t.op[a]);
        if (o < 1 || o > 65535)
            return dv_ops_param_error(err, "kernel", "along %s the output has %lld positions (input %u, kernel %u, "
                                      "stride %u, padding %u, dilation %u%s): it must have 1 to 65535", axis[a],
                                      (long long)o, t.in[a], t.k[a], t.s[a], t.p[a], t.dil[a],
                                      t.transposed ? ", transposed" : "");
        t.out[a] = (uint32_t)o;
        t.taps *= t.k[a];
        t.P *= t.out[a];
        t.IN *= t.in[a];
    }
    if (t.tbc && (t.in[0] != 1 || t.in[1] != 1 || t.g != 1 || t.transposed))
        return dv_ops_param_error(err, "tbc", "is a 1-D layout: d = h = 1, groups 1, not transposed");
    /* x's strides: NCDHW, or TBC (x [w][n][cin]) */
    t.xs_c = t.tbc ? 1 : t.IN;
    t.xs_p = t.tbc ? (uint64_t)t.n * t.cin : 1;
    t.xs_n = t.tbc ? t.cin : (uint64_t)t.cin * t.IN;
    t.M = t.tbc ? t.P : t.cout_g;
    t.N = t.tbc ? t.cout_g : t.P;
    t.K = (uint64_t)t.cin_g * t.taps;
    t.Kp = dv_round_up(t.K, BLK / t.isz);
    if (t.K > 65535)
        return dv_ops_param_error(err, "cin", "cin/groups x taps = %llu exceeds 65535 (the nd2nz row length)",
                                  (unsigned long long)t.K);
    if (!cfg->chip_dma_pad && (t.tbc ? t.cout : t.P) * t.isz % BLK)
        return dv_ops_param_error(err, t.tbc ? "cout" : "w", "output rows of %llu elements (%s) must be whole 32-byte "
                                  "blocks without DataCopyPad, which profile %s lacks (chip.dma_pad is false)",
                                  (unsigned long long)(t.tbc ? t.cout : t.P), t.tbc ? "cout" : "od*oh*ow",
                                  cfg->chip_name);

    /* 1. blocks */
    const uint32_t max_cores = (uint32_t)cfg->chip_ai_cores;
    t.blocks = v->v[CV_CORES].i ? (uint32_t)v->v[CV_CORES].i : max_cores;
    if (t.split && t.blocks > max_cores)
        return dv_ops_param_error(err, "cores", "%u blocks, but the mix kernel's barrier needs every block resident: "
                                  "at most chip.ai_cores = %u", t.blocks, max_cores);

    /* 2. the L0C tile and the K slice */
    t.bm = (uint32_t)dv_min_u64(dv_round_up(t.M, 16), CV_BM);
    t.bn = (uint32_t)dv_min_u64(dv_round_up(t.N, 16), CV_BN);
    while ((uint64_t)t.bm * t.bn * 4 * 2 > cfg->l0c_size_bytes && t.bn > 16)
        t.bn -= 16;
    const uint64_t k0 = BLK / t.isz, kcap_a = cfg->l0a_size_bytes / 2 / ((uint64_t)t.bm * t.isz),
                   kcap_b = cfg->l0b_size_bytes / 2 / ((uint64_t)t.bn * t.isz);
    t.bk = (uint32_t)(dv_min_u64(dv_min_u64(kcap_a, kcap_b), dv_round_up(t.K, k0)) / k0 * k0);
    if (t.bk == 0 || (uint64_t)t.bm * t.bn * 4 * 2 > cfg->l0c_size_bytes)
        return dv_ops_param_error(err, "cout", "a %u x %u tile does not fit L0A / L0B / L0C twice", t.bm, t.bn);
    t.ks = (uint32_t)dv_ceil_div(t.K, t.bk);
    t.mtiles = (uint32_t)dv_ceil_div(t.M, t.bm);
    t.ntiles = (uint32_t)dv_ceil_div(t.N, t.bn);
    t.tasks = (uint64_t)t.n * t.g * t.mtiles * t.ntiles;
    if ((uint64_t)(t.bm + t.bn) * t.bk * t.isz * 2 > cfg->l1_size_bytes)
        return dv_ops_param_error(err, "cout", "two L1 buffers of a %u x %u slice need %llu bytes; "
                                  "core.l1_size_bytes is %llu", t.bm + t.bn, t.bk,
                                  (unsigned long long)(t.bm + t.bn) * t.bk * t.isz * 2,
                                  (unsigned long long)cfg->l1_size_bytes);
    if (!t.split)
        t.blocks = (uint32_t)dv_max_u64(1, dv_min_u64(t.blocks, t.tasks));

    /* 3. UB: the input planes of cc channels of one (n, g) (all cin_g when they fit, else chunks of
     * columns of col, written with DataCopyPad) or one group of w, two gathered chunks, the table */
    const bool wperm = t.transposed || t.tbc; /* A is w permuted into the workspace wa */
    const uint64_t epb = BLK / t.isz, per_row = 2 * t.isz + 4; /* UB bytes per gathered element */
    uint64_t fixed = 0, src_elems = 0;
    for (t.cc = t.cin_g; t.cc >= 1; t.cc--) {
        t.ncc = dv_ceil_div(t.cin_g, t.cc);
        t.rp = t.ncc == 1 ? t.Kp : dv_round_up(t.cc * t.taps, epb) + epb; /* the last chunk: up to Kp */
        const uint64_t span = (t.cc - 1) * t.xs_c + (t.IN - 1) * t.xs_p + 1;
        src_elems = wperm ? dv_max_u64(span, t.K * t.cout_g) : span;
        t.plane_bytes = dv_round_up(src_elems * t.isz, BLK) + 2 * BLK; /* a misaligned start, the zero block */
        fixed = t.plane_bytes + 3 * BLK + (t.bias ? dv_round_up((uint64_t)t.cout, 8) * BLK : 0) +
                (t.bias && t.tbc ? dv_round_up((uint64_t)t.cout * t.isz, BLK) + BLK : 0);
        /* when chunking, planes of at most half of UB leave room for the gathered positions */
        if (fixed + dv_max_u64(t.rp, wperm ? t.Kp : 0) * per_row <= cfg->ub_size_bytes &&
            (t.ncc == 1 || t.cc == 1 || fixed * 2 <= cfg->ub_size_bytes))
            break;
        if (!cfg->chip_dma_pad || t.cc == 1) { /* chunks need DataCopyPad; one channel is the least */
            t.cc = 0;
            break;
        }
    }
    if (t.cc == 0)
        return dv_ops_param_error(err, "cin", "the input planes of %s (%llu elements) and one row of the gather "
                                  "need %llu bytes of UB; core.ub_size_bytes is %llu",
                                  cfg->chip_dma_pad ? "one channel" : "one group", (unsigned long long)src_elems,
                                  (unsigned long long)(fixed + dv_max_u64(t.rp, wperm ? t.Kp : 0) * per_row),
                                  (unsigned long long)cfg->ub_size_bytes);
    const uint64_t budget = cfg->ub_size_bytes - fixed;
    t.pc = dv_min_u64(dv_min_u64(budget / (t.rp * per_row), dv_max_u64(1, CV_TAB_MAX / t.rp)), t.P);
    t.punits = dv_ceil_div(t.P, t.pc);
    t.wrows = dv_min_u64(dv_min_u64(budget / (t.Kp * per_row), dv_max_u64(1, CV_TAB_MAX / t.Kp)), t.cout_g);
    t.wunits = wperm ? dv_ceil_div(t.cout_g, t.wrows) : 0;
    const uint64_t gathered = dv_max_u64(t.pc * t.rp, wperm ? t.wrows * t.Kp : 0);
    t.row_bytes = dv_round_up(gathered * t.isz, BLK);
    t.tab_bytes = dv_round_up(gathered * 4, BLK);
    /* coupled cores drain L0C through the same buffers: at least one row of a tile */
    t.row_bytes = dv_max_u64(t.row_bytes, dv_round_up((uint64_t)t.bn * t.isz, BLK));
    if (fixed + 2 * t.row_bytes + t.tab_bytes > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "cin", "the gather buffers need %llu bytes of UB; core.ub_size_bytes is %llu",
                                  (unsigned long long)(fixed + 2 * t.row_bytes + t.tab_bytes),
                                  (unsigned long long)cfg->ub_size_bytes);
    if (t.bias) /* a filled row chunk: in the two gather buffers' place */
        t.fill_p = dv_max_u64(BLK / t.isz, t.row_bytes / t.isz / (BLK / t.isz) * (BLK / t.isz));
    dv_ops_tiling_row(plan, "base-m", "", "%u", t.bm);
    dv_ops_tiling_row(plan, "base-n", "", "%u", t.bn);
    dv_ops_tiling_row(plan, "base-k", "", "%u", t.bk);
    dv_ops_tiling_row(plan, "gather-positions", "", "%llu", (unsigned long long)t.pc);
    dv_ops_tiling_row(plan, "gather-channels", t.ncc > 1 ? "the group's planes do not fit UB" : "", "%llu",
                      (unsigned long long)t.cc);

    /* 4. the launch */
    plan->info.kind = t.split ? DV_KIND_MIX : DV_KIND_CUBE;
    plan->info.blocks = t.blocks;
    const dv_dtype_t dt = (dv_dtype_t)t.dtype;
    const double wr = 1.0 / sqrt((double)t.K);
    int rc = 0;
    t.arg_x = plan->info.nargs;
    rc |= dv_ops_add_arg(plan, "x", dt, (uint64_t)t.n * t.cin * t.IN, DV_ARG_IN, -1.0, 1.0);
    t.arg_w = plan->info.nargs;
    rc |= dv_ops_add_arg(plan, "w", dt, (uint64_t)t.cout * t.K, DV_ARG_IN, -wr * 1.7, wr * 1.7);
    plan->own_args = 1u << t.arg_w;
    if (t.bias) {
        t.arg_b = plan->info.nargs;
        rc |= dv_ops_add_arg(plan, "b", dt, t.cout, DV_ARG_IN, -0.5, 0.5);
        plan->own_args |= 1u << t.arg_b;
    }
    t.arg_y = plan->info.nargs;
    rc |= dv_ops_add_arg(plan, "y", dt, (uint64_t)t.n * t.cout * t.P, DV_ARG_OUT, 0, 0);
    t.arg_col = plan->info.nargs;
    rc |= dv_ops_add_arg(plan, "col", dt, (uint64_t)t.n * t.g * t.P * t.Kp, DV_ARG_OUT, 0, 0);
    if (wperm) {
        t.arg_wa = plan->info.nargs;
        rc |= dv_ops_add_arg(plan, "wa", dt, (uint64_t)t.cout * t.Kp, DV_ARG_OUT, 0, 0);
    }
    if (rc != DV_OK)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "convolution: tensor sizes overflow");
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = (2ull * t.K + t.bias) * t.n * t.cout * t.P;
    plan->bytes = ((uint64_t)t.n * t.cin * t.IN + (uint64_t)t.cout * t.K + (uint64_t)t.n * t.cout * t.P +
                   (t.bias ? t.cout : 0)) * t.isz;
    return DV_OK;
}

/* ---------------------------------------------------------------- reference */

/* The workspaces as the kernel lays them out, and y: the direct sum in double rounded to the dtype
 * once (the cube's fp32 accumulation), then with --bias rounded again after the add of b in GM. */
static int cv_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    cv_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t dt = (dv_dtype_t)t.dtype;
    const uint8_t *x = in[t.arg_x], *w = in[t.arg_w];
    for (uint32_t n = 0; n < t.n; n++)
        for (uint32_t g = 0; g < t.g; g++)
            for (uint64_t o = 0; o < t.P; o++)
                for (uint64_t kk = 0; kk < t.K; kk++) {
                    const int64_t s = cv_src(&t, o, kk % t.taps);
                    if (s < 0)
                        continue;
                    const uint64_t ci = (uint64_t)g * t.cin_g + kk / t.taps;
                    dv_ops_store(expect[t.arg_col], dt, (((uint64_t)n * t.g + g) * t.P + o) * t.Kp + kk,
                                 dv_ops_load(x, dt, n * t.xs_n + ci * t.xs_c + (uint64_t)s * t.xs_p));
                }
    if (t.transposed || t.tbc)
        for (uint32_t g = 0; g < t.g; g++)
            for (uint64_t co = 0; co < t.cout_g; co++)
                for (uint64_t kk = 0; kk < t.K; kk++)
                    dv_ops_store(expect[t.arg_wa], dt, ((uint64_t)g * t.cout_g + co) * t.Kp + kk,
                                 dv_ops_load(w, dt, cv_w_index(&t, g, co, kk)));
    for (uint32_t n = 0; n < t.n; n++)
        for (uint32_t g = 0; g < t.g; g++)
            for (uint64_t co = 0; co < t.cout_g; co++)
                for (uint64_t o = 0; o < t.P; o++) {
                    double acc = 0;
                    for (uint64_t kk = 0; kk < t.K; kk++) {
                        const int64_t s = cv_src(&t, o, kk % t.taps);
                        if (s < 0)
                            continue;
                        const uint64_t ci = (uint64_t)g * t.cin_g + kk / t.taps;
                        acc += dv_ops_load(x, dt, n * t.xs_n + ci * t.xs_c + (uint64_t)s * t.xs_p) *
                               dv_ops_load(w, dt, cv_w_index(&t, g, co, kk));
                    }
                    const uint64_t oc = (uint64_t)g * t.cout_g + co;
                    double y = dv_ops_round(dt, acc);
                    if (t.bias)
                        y = dv_ops_round(dt, y + dv_ops_load(in[t.arg_b], dt, oc));
                    dv_ops_store(expect[t.arg_y], dt,
                                 t.tbc ? (o * t.n + n) * t.cout + oc : ((uint64_t)n * t.cout + oc) * t.P + o, y);
                }
    return DV_OK;
}

/* ---------------------------------------------------------------- kernel: the gathers (vector) */

typedef struct cv_ctx {
    const cv_tiling_t *t;
    dv_dtype_t dt;
    dv_que_t inq, outq;
    uint64_t tab, bb;      /* UB: the gather table; --bias: one 32-B block per output channel */
    uint64_t braw;         /* UB, --bias --tbc: b as it lies (from braw + 32) */
    int ev_tab;            /* V -> S: the gathers are done with the table */
    int64_t tab_key;       /* which table is in UB (-1: none) */
    dv_que_t l1q, l0aq, l0bq, l0cq, ubq;
} cv_ctx_t;

/* GM bytes [src, src + bytes) of argument arg -> UB behind a zero element: whole blocks from the
 * block holding src, loaded at buf + 32, and the element before the first byte zeroed (the last of
 * a zero block at buf, or one in the loaded block).  Returns the gather base: the byte offset from
 * buf of that zero element, so element e of the span is at base + (e + 1) * size whatever the
 * alignment of src. */
static uint64_t cv_load_span(dv_k_t *k, const cv_ctx_t *c, uint64_t buf, uint32_t arg, uint64_t src, uint64_t bytes)
{
    const uint64_t lo = src / BLK * BLK, blocks = dv_ceil_div(src + bytes - lo, BLK), isz = c->t->isz;
    for (uint64_t b = 0; b < blocks; b += 65535)
        dvk_copy_gm_to_ubuf(k, buf + BLK + b * BLK, dvk_gm(k, arg, lo + b * BLK), 1,
                            (int64_t)dv_min_u64(65535, blocks - b), 0, 0);
    return BLK + (src - lo) - isz;
}

/* After the load (on V): zero the element at buf + base (see cv_load_span). */
static void cv_zero_elem(dv_k_t *k, const cv_ctx_t *c, uint64_t buf, uint64_t base)
{
    const uint64_t isz = c->t->isz, skip = (base + isz - BLK) / isz; /* elements of the block before the span */
    if (skip == 0) {
        dvk_mask_first(k, c->dt, (uint32_t)(BLK / isz));
        dvk_vdup(k, buf, c->dt, 0.0, 1, 1, 8);
    } else {
        dvk_set_vector_mask(k, 0, 1ull << (skip - 1));
        dvk_vdup(k, buf + BLK, c->dt, 0.0, 1, 1, 8);
    }
    dvk_mask_all(k);
    dvk_pipe_barrier(k, DV_PIPE_V);
}

/* The gather of `elems` elements into dst through the table (offsets from src + base). */
static void cv_gather(dv_k_t *k, const cv_ctx_t *c, uint64_t dst, uint64_t src, uint64_t src_len, uint64_t base,
                      uint64_t elems)
{
    const uint64_t per = 256 / c->t->isz, reps = dv_ceil_div(elems, per);
    for (uint64_t r = 0; r < reps; r += 255) {
        const uint64_t n = dv_min_u64(255, reps - r);
        const bool tail = r + n == reps && elems % per;
        if (tail && n > 1)
            dvk_vgather(k, dst + r * 256, c->tab + r * per * 4, src, (int64_t)src_len, (int64_t)base, c->dt,
                        (int64_t)n - 1, 8);
        if (tail) {
            dvk_mask_first(k, c->dt, (uint32_t)(elems % per));
            dvk_vgather(k, dst + (r + n - 1) * 256, c->tab + (r + n - 1) * per * 4, src, (int64_t)src_len,
                        (int64_t)base, c->dt, 1, 8);
            dvk_mask_all(k);
        } else
            dvk_vgather(k, dst + r * 256, c->tab + r * per * 4, src, (int64_t)src_len, (int64_t)base, c->dt,
                        (int64_t)n, 8);
    }
}

/* Before the scalar unit rewrites the table: the gathers that read it are done. */
static void cv_tab_begin(dv_k_t *k, cv_ctx_t *c, int64_t key)
{
    if (c->tab_key != -1) {
        dvk_set_flag(k, DV_PIPE_V, DV_PIPE_S, c->ev_tab);
        dvk_wait_flag(k, DV_PIPE_V, DV_PIPE_S, c->ev_tab);
    }
    c->tab_key = key;
}

/* col unit u: (positions chunk, channel chunk) u / (n*G), image and group u % (n*G). */
static void cv_col_unit(dv_k_t *k, cv_ctx_t *c, uint64_t u)
{
    const cv_tiling_t *t = c->t;
    const uint64_t ng = u % ((uint64_t)t->n * t->g), key = u / ((uint64_t)t->n * t->g);
    const uint64_t pi = key / t->ncc, cci = key % t->ncc;
    const uint64_t p0 = pi * t->pc, pc = dv_min_u64(t->pc, t->P - p0);
    /* channels [c0, c0 + ccur) of the group: col columns [k0, k0 + width), the last chunk up to Kp */
    const uint64_t c0 = cci * t->cc, ccur = dv_min_u64(t->cc, t->cin_g - c0), k0 = c0 * t->taps;
    const uint64_t width = cci == t->ncc - 1 ? t->Kp - k0 : ccur * t->taps;
    const uint64_t pitch = t->ncc == 1 ? t->Kp : dv_round_up(width, BLK / t->isz);
    const uint64_t span = ((ccur - 1) * t->xs_c + (t->IN - 1) * t->xs_p + 1) * t->isz, n = ng / t->g, g = ng % t->g;
    /* the elements of (n, g) these channels reach (NCDHW: contiguous planes) */
    const uint64_t buf = dvk_que_alloc(k, &c->inq);
    const uint64_t base = cv_load_span(k, c, buf, t->arg_x,
                                       (n * t->xs_n + ((uint64_t)g * t->cin_g + c0) * t->xs_c) * t->isz, span);
    dvk_que_enque(k, &c->inq, buf);
    if (c->tab_key != (int64_t)key) {
        cv_tab_begin(k, c, (int64_t)key);
        for (uint64_t o = 0; o < pc; o++)
            for (uint64_t j = 0; j < pitch; j++) {
                const uint64_t kk = k0 + j;
                const int64_t s = j < width && kk < t->K ? cv_src(t, p0 + o, kk % t->taps) : -1;
                const uint64_t off =
                    s < 0 ? 0 : ((kk / t->taps - c0) * t->xs_c + (uint64_t)s * t->xs_p + 1) * t->isz;
                dvk_st_ub(k, c->tab + (o * pitch + j) * 4, DV_DT_U32, off);
            }
    }
    const uint64_t src = dvk_que_deque(k, &c->inq);
    cv_zero_elem(k, c, src, base);
    const uint64_t out = dvk_que_alloc(k, &c->outq);
    cv_gather(k, c, out, src, base + span + t->isz, base, pc * pitch);
    dvk_que_free(k, &c->inq, src);
    dvk_que_enque(k, &c->outq, out);
    dvk_que_deque(k, &c->outq);
    const uint64_t dst = dvk_gm(k, t->arg_col, ((ng * t->P + p0) * t->Kp + k0) * t->isz);
    if (t->ncc == 1) /* whole rows: one burst */
        dvk_copy_ubuf_to_gm(k, dst, out, 1, (int64_t)(pc * t->Kp * t->isz / BLK), 0, 0);
    else /* the chunk's columns of pc rows (DataCopyPad: the plan checked chip.dma_pad) */
        dvk_copy_ubuf_to_gm_align(k, dst, out, (int64_t)pc, (int64_t)(width * t->isz), 0,
                                  (int64_t)((t->Kp - width) * t->isz));
    dvk_que_free(k, &c->outq, out);
}

/* transposed, wa unit u: group u / wunits, output channels chunk u % wunits. */
static void cv_wa_unit(dv_k_t *k, cv_ctx_t *c, uint64_t u)
{
    const cv_tiling_t *t = c->t;
    const uint32_t g = (uint32_t)(u / t->wunits);
    const uint64_t co0 = u % t->wunits * t->wrows, rows = dv_min_u64(t->wrows, t->cout_g - co0);
    const uint64_t span = t->K * t->cout_g * t->isz, w0 = (uint64_t)g * t->cin_g * t->cout_g * t->taps;
    const uint64_t buf = dvk_que_alloc(k, &c->inq);
    const uint64_t base = cv_load_span(k, c, buf, t->arg_w, w0 * t->isz, span);
    dvk_que_enque(k, &c->inq, buf);
    cv_tab_begin(k, c, -2 - (int64_t)u);
    for (uint64_t r = 0; r < rows; r++)
        for (uint64_t kk = 0; kk < t->Kp; kk++) {
            const uint64_t off = kk < t->K ? (cv_w_index(t, g, co0 + r, kk) - w0 + 1) * t->isz : 0;
            dvk_st_ub(k, c->tab + (r * t->Kp + kk) * 4, DV_DT_U32, off);
        }
    const uint64_t src = dvk_que_deque(k, &c->inq);
    cv_zero_elem(k, c, src, base);
    const uint64_t out = dvk_que_alloc(k, &c->outq);
    cv_gather(k, c, out, src, base + span + t->isz, base, rows * t->Kp);
    dvk_que_free(k, &c->inq, src);
    dvk_que_enque(k, &c->outq, out);
    dvk_que_deque(k, &c->outq);
    dvk_copy_ubuf_to_gm(k, dvk_gm(k, t->arg_wa, ((uint64_t)g * t->cout_g + co0) * t->Kp * t->isz), out, 1,
                        (int64_t)(rows * t->Kp * t->isz / BLK), 0, 0);
    dvk_que_free(k, &c->outq, out);
}

/* --bias: every b[co] as one 32-B block in c->bb (block co). */
static void cv_bias_blocks(dv_k_t *k, cv_ctx_t *c)
{
    const cv_tiling_t *t = c->t;
    const uint64_t buf = dvk_que_alloc(k, &c->inq);
    cv_load_span(k, c, buf, t->arg_b, 0, (uint64_t)t->cout * t->isz);
    dvk_que_enque(k, &c->inq, buf);
    const uint64_t src = dvk_que_deque(k, &c->inq);
    dvk_vbrcb(k, c->bb, src + BLK, c->dt, (int64_t)dv_ceil_div(t->cout, 8), 1, 8);
    dvk_que_free(k, &c->inq, src);
    dvk_pipe_barrier(k, DV_PIPE_V);
}

/* --bias: y rows [co0, co0 + nco) of image n, positions [p0, p0 + np), filled with b[co] (its block
 * in c->bb). */
static void cv_bias_fill(dv_k_t *k, cv_ctx_t *c, uint32_t n, uint64_t co0, uint64_t nco, uint64_t p0, uint64_t np)
{
    const cv_tiling_t *t = c->t;
    const uint64_t epb = BLK / t->isz;
    for (uint64_t co = co0; co < co0 + nco; co++)
        for (uint64_t q = p0; q < p0 + np; q += t->fill_p) {
            const uint64_t m = dv_min_u64(t->fill_p, p0 + np - q), blocks = dv_ceil_div(m, epb);
            const uint64_t out = dvk_que_alloc(k, &c->outq);
            for (uint64_t b = 0; b < blocks; b += 8 * 255) {
                const uint64_t nb = dv_min_u64(8 * 255, blocks - b), full = nb / 8;
                if (full)
                    dvk_vcopy(k, out + b * BLK, c->bb + co * BLK, c->dt, (int64_t)full, 1, 0, 8, 0);
                if (nb % 8) {
                    dvk_mask_first(k, c->dt, (uint32_t)(nb % 8 * epb));
                    dvk_vcopy(k, out + (b + full * 8) * BLK, c->bb + co * BLK, c->dt, 1, 1, 0, 8, 0);
                    dvk_mask_all(k);
                }
            }
            dvk_que_enque(k, &c->outq, out);
            dvk_que_deque(k, &c->outq);
            const uint64_t dst = (((uint64_t)n * t->cout + co) * t->P + q) * t->isz;
            if (m * t->isz % BLK == 0)
                dvk_copy_ubuf_to_gm(k, dvk_gm(k, t->arg_y, dst), out, 1, (int64_t)(m * t->isz / BLK), 0, 0);
            else
                dvk_copy_ubuf_to_gm_align(k, dvk_gm(k, t->arg_y, dst), out, 1, (int64_t)(m * t->isz), 0, 0);
            dvk_que_free(k, &c->outq, out);
        }
}

/* --bias --tbc: b into c->braw, ready for MTE3. */
static void cv_bias_tbc_load(dv_k_t *k, cv_ctx_t *c)
{
    cv_load_span(k, c, c->braw, c->t->arg_b, 0, (uint64_t)c->t->cout * c->t->isz);
    const int ev = dvk_event_alloc(k, DV_PIPE_MTE2, DV_PIPE_MTE3);
    dvk_set_flag(k, DV_PIPE_MTE2, DV_PIPE_MTE3, ev);
    dvk_wait_flag(k, DV_PIPE_MTE2, DV_PIPE_MTE3, ev);
    dvk_event_free(k, DV_PIPE_MTE2, DV_PIPE_MTE3, ev);
}

/* --bias --tbc: y rows (p, n) for p in [p0, p0 + np), channels [c0, c0 + nc), set to b (one DMA per
 * row: y's rows of cout channels lie n*cout apart). */
static void cv_bias_tbc_fill(dv_k_t *k, const cv_ctx_t *c, uint32_t n, uint64_t p0, uint64_t np, uint64_t c0,
                             uint64_t nc)
{
    const cv_tiling_t *t = c->t;
    const uint64_t len = nc * t->isz, src = c->braw + BLK + c0 * t->isz;
    for (uint64_t p = p0; p < p0 + np; p++) {
        const uint64_t dst = dvk_gm(k, t->arg_y, ((p * t->n + n) * t->cout + c0) * t->isz);
        if (len % BLK == 0)
            dvk_copy_ubuf_to_gm(k, dst, src, 1, (int64_t)(len / BLK), 0, 0);
        else
            dvk_copy_ubuf_to_gm_align(k, dst, src, 1, (int64_t)len, 0, 0);
    }
}

static void cv_ub_init(dv_k_t *k, cv_ctx_t *c)
{
    const cv_tiling_t *t = c->t;
    dvk_que_init(k, &c->inq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 1, t->plane_bytes);
    dvk_que_init(k, &c->outq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 2, t->row_bytes);
    c->tab = dvk_alloc(k, DV_SPACE_UB, t->tab_bytes);
    if (t->bias)
        c->bb = dvk_alloc(k, DV_SPACE_UB, dv_round_up(t->cout, 8) * BLK);
    if (t->bias && t->tbc)
        c->braw = dvk_alloc(k, DV_SPACE_UB, dv_round_up((uint64_t)t->cout * t->isz, BLK) + BLK);
    c->ev_tab = dvk_event_alloc(k, DV_PIPE_V, DV_PIPE_S);
    c->tab_key = -1;
}

/* ---------------------------------------------------------------- kernel: the cube */

static int cv_quant(dv_dtype_t dt)
{
    return dt == DV_DT_F16 ? DV_QUANT_F16 : dt == DV_DT_BF16 ? DV_QUANT_BF16 : DV_QUANT_NONE;
}

static void cv_cube_init(dv_k_t *k, cv_ctx_t *c)
{
    const cv_tiling_t *t = c->t;
    dvk_que_init(k, &c->l1q, DV_SPACE_L1, DV_PIPE_MTE2, DV_PIPE_MTE1, 2, (uint64_t)(t->bm + t->bn) * t->bk * t->isz);
    dvk_que_init(k, &c->l0aq, DV_SPACE_L0A, DV_PIPE_MTE1, DV_PIPE_M, 2, (uint64_t)t->bm * t->bk * t->isz);
    dvk_que_init(k, &c->l0bq, DV_SPACE_L0B, DV_PIPE_MTE1, DV_PIPE_M, 2, (uint64_t)t->bn * t->bk * t->isz);
    dvk_que_init(k, &c->l0cq, DV_SPACE_L0C, DV_PIPE_M, t->split ? DV_PIPE_FIX : DV_PIPE_V, 2,
                 (uint64_t)t->bm * t->bn * 4);
}

/* GM rows x cols (row stride `stride` elements) -> L1 NZ with rows_al rows per 32-byte column block. */
static void cv_nd2nz(dv_k_t *k, const cv_ctx_t *c, uint64_t dst, uint64_t src, uint64_t rows, uint64_t cols,
                     uint64_t stride, uint64_t rows_al)
{
    for (uint64_t r = 0; r < rows; r += 4095) /* one matrix per 4095 rows */
        dvk_copy_gm_to_cbuf_nd2nz(k, dst + r * BLK, src + r * stride * c->t->isz, c->dt, 1,
                                  (int64_t)dv_min_u64(4095, rows - r), (int64_t)cols, 0, (int64_t)stride,
                                  (int64_t)rows_al, 1, 0);
}

/* K slice s of a task into L1: A rows [m0, +mt), col rows [p0, +nt), columns [s*bk, +kb). */
static void cv_cube_load(dv_k_t *k, cv_ctx_t *c, const cv_task_t *tk, uint32_t s)
{
    const cv_tiling_t *t = c->t;
    const uint64_t k0 = (uint64_t)s * t->bk, kb = dv_min_u64(t->bk, t->K - k0);
    const uint64_t buf = dvk_que_alloc(k, &c->l1q);
    /* the weight rows (w as it lies, or wa) and the col rows: A and B, or B and A with --tbc */
    const uint64_t wrow = (uint64_t)tk->g * t->cout_g + (t->tbc ? tk->p0 : tk->m0), wn = t->tbc ? tk->nt : tk->mt;
    const uint64_t crow = ((uint64_t)tk->n * t->g + tk->g) * t->P + (t->tbc ? tk->m0 : tk->p0);
    const uint64_t cn = t->tbc ? tk->mt : tk->nt;
    const uint64_t wdst = t->tbc ? buf + (uint64_t)t->bm * t->bk * t->isz : buf;
    const uint64_t cdst = t->tbc ? buf : buf + (uint64_t)t->bm * t->bk * t->isz;
    if (t->transposed || t->tbc)
        cv_nd2nz(k, c, wdst, dvk_gm(k, t->arg_wa, (wrow * t->Kp + k0) * t->isz), wn, kb, t->Kp, dv_round_up(wn, 16));
    else
        cv_nd2nz(k, c, wdst, dvk_gm(k, t->arg_w, (wrow * t->K + k0) * t->isz), wn, kb, t->K, dv_round_up(wn, 16));
    cv_nd2nz(k, c, cdst, dvk_gm(k, t->arg_col, (crow * t->Kp + k0) * t->isz), cn, kb, t->Kp, dv_round_up(cn, 16));
    dvk_que_enque(k, &c->l1q, buf);
}

/* L1 -> L0A (NZ fractal (p, q) at q*M1 + p -> ZZ p*K1 + q) and L0B (already ZN), then mmad. */
static void cv_cube_compute(dv_k_t *k, cv_ctx_t *c, const cv_task_t *tk, uint32_t s, uint64_t l0c)
{
    const cv_tiling_t *t = c->t;
    const uint64_t kb = dv_min_u64(t->bk, t->K - (uint64_t)s * t->bk), K0 = BLK / t->isz;
    const uint64_t M1 = dv_ceil_div(tk->mt, 16), N1 = dv_ceil_div(tk->nt, 16), K1 = dv_ceil_div(kb, K0);
    const uint64_t buf = dvk_que_deque(k, &c->l1q);
    const uint64_t a = dvk_que_alloc(k, &c->l0aq);
    for (uint64_t p = 0; p < M1; p++)
        for (uint64_t q = 0; q < K1; q += 255)
            dvk_load_cbuf_to_ca(k, a + (p * K1 + q) * FRAC, buf, c->dt, (int64_t)(q * M1 + p),
                                (int64_t)dv_min_u64(255, K1 - q), (int64_t)M1, 0, 0);
    const uint64_t b = dvk_que_alloc(k, &c->l0bq), bsrc = buf + (uint64_t)t->bm * t->bk * t->isz;
    for (uint64_t f = 0; f < K1 * N1; f += 255)
        dvk_load_cbuf_to_cb(k, b + f * FRAC, bsrc, c->dt, (int64_t)f, (int64_t)dv_min_u64(255, K1 * N1 - f), 1, 0, 0);
    dvk_que_free(k, &c->l1q, buf);
    dvk_que_enque(k, &c->l0aq, a);
    dvk_que_enque(k, &c->l0bq, b);
    dvk_que_deque(k, &c->l0aq);
    dvk_que_deque(k, &c->l0bq);
    dvk_mmad(k, l0c, a, b, c->dt, (int64_t)tk->mt, (int64_t)kb, (int64_t)tk->nt, s == 0, 0, 0);
    dvk_que_free(k, &c->l0aq, a);
    dvk_que_free(k, &c->l0bq, b);
}

/* The tile out of L0C into y (added to y's bias with --bias: set_atomic add is on). */
static void cv_cube_out(dv_k_t *k, cv_ctx_t *c, const cv_task_t *tk, uint64_t l0c)
{
    const cv_tiling_t *t = c->t;
    /* y's row stride (elements) and the tile's first element */
    const uint64_t ld = t->tbc ? (uint64_t)t->n * t->cout : t->P;
    const uint64_t y0 = (t->tbc ? (tk->m0 * t->n + tk->n) * t->cout + tk->p0
                                : ((uint64_t)tk->n * t->cout + (uint64_t)tk->g * t->cout_g + tk->m0) * t->P + tk->p0) *
                        t->isz;
    if (t->split) {
        dvk_copy_matrix_cc_to_gm(k, dvk_gm(k, t->arg_y, y0), l0c, (int64_t)tk->nt, (int64_t)tk->mt,
                                 (int64_t)dv_round_up(tk->mt, 16), (int64_t)ld, cv_quant(c->dt), 0, 1, 0);
        return;
    }
    const uint64_t row_al = dv_round_up(tk->nt * t->isz, BLK), per = dv_max_u64(1, t->row_bytes / row_al);
    for (uint64_t r = 0; r < tk->mt; r += per) {
        const uint64_t rows = dv_min_u64(per, tk->mt - r);
        const uint64_t ub = dvk_que_alloc(k, &c->outq);
        dvk_copy_matrix_cc_to_ubuf(k, ub, l0c + r * 64, (int64_t)tk->nt, (int64_t)rows, (int64_t)dv_round_up(tk->mt, 16),
                                   (int64_t)(row_al / t->isz), cv_quant(c->dt), 0, 1, 0);
        dvk_que_enque(k, &c->outq, ub);
        dvk_que_deque(k, &c->outq);
        /* rows of nt elements, P apart in y (DataCopyPad unless whole blocks: the plan checked) */
        const uint64_t gm = dvk_gm(k, t->arg_y, y0 + r * ld * t->isz), len = tk->nt * t->isz,
                       gap = (ld - tk->nt) * t->isz;
        if (len % BLK == 0 && gap % BLK == 0)
            dvk_copy_ubuf_to_gm(k, gm, ub, (int64_t)rows, (int64_t)(len / BLK), 0, (int64_t)(gap / BLK));
        else
            dvk_copy_ubuf_to_gm_align(k, gm, ub, (int64_t)rows, (int64_t)len, 0, (int64_t)gap);
        dvk_que_free(k, &c->outq, ub);
    }
}

/* The block's tasks [t0, t1): L1 loads one slice ahead of the cube. */
static void cv_cube_run(dv_k_t *k, cv_ctx_t *c, uint64_t t0, uint64_t t1)
{
    const cv_tiling_t *t = c->t;
    const uint64_t items = (t1 - t0) * t->ks;
    if (items == 0)
        return;
    cv_task_t cur, nxt;
    cv_task(t, t0, &cur);
    cv_cube_load(k, c, &cur, 0);
    uint64_t l0c = 0;
    for (uint64_t i = 0; i < items; i++) {
        const uint64_t ti = t0 + i / t->ks;
        const uint32_t s = (uint32_t)(i % t->ks);
        cv_task(t, ti, &cur);
        if (i + 1 < items) {
            cv_task(t, t0 + (i + 1) / t->ks, &nxt);
            cv_cube_load(k, c, &nxt, (uint32_t)((i + 1) % t->ks));
        }
        if (s == 0)
            l0c = dvk_que_alloc(k, &c->l0cq);
        cv_cube_compute(k, c, &cur, s, l0c);
        if (s == t->ks - 1) {
            dvk_que_enque(k, &c->l0cq, l0c);
            const uint64_t o = dvk_que_deque(k, &c->l0cq);
            cv_cube_out(k, c, &cur, o);
            dvk_que_free(k, &c->l0cq, o);
        }
    }
}

/* ---------------------------------------------------------------- kernel: the streams */

static uint64_t cv_units(const cv_tiling_t *t)
{
    return t->punits * t->ncc * t->n * t->g + (uint64_t)t->g * t->wunits;
}

static void cv_unit(dv_k_t *k, cv_ctx_t *c, uint64_t u)
{
    const uint64_t ncol = c->t->punits * c->t->ncc * c->t->n * c->t->g;
    if (u < ncol)
        cv_col_unit(k, c, u);
    else
        cv_wa_unit(k, c, u - ncol);
}

/* 910B AIV: its contiguous range of units, its share of the bias rows, then the barrier. */
static void cv_aiv_main(dv_k_t *k, cv_ctx_t *c)
{
    const cv_tiling_t *t = c->t;
    const uint64_t na = (uint64_t)dvk_block_num(k) * t->aiv,
                   a = (uint64_t)dvk_block_idx(k) * t->aiv + (dvk_sub(k) - DV_SUB_AIV0);
    cv_ub_init(k, c);
    const uint64_t nu = cv_units(t);
    for (uint64_t u = nu * a / na; u < nu * (a + 1) / na; u++)
        cv_unit(k, c, u);
    if (t->bias && t->tbc) { /* rows r = p*n + image of y */
        const uint64_t rows = (uint64_t)t->n * t->P, r0 = rows * a / na, r1 = rows * (a + 1) / na;
        if (r1 > r0)
            cv_bias_tbc_load(k, c);
        for (uint64_t r = r0; r < r1; r++)
            cv_bias_tbc_fill(k, c, (uint32_t)(r % t->n), r / t->n, 1, 0, t->cout);
    } else if (t->bias) {
        const uint64_t rows = (uint64_t)t->n * t->cout, r0 = rows * a / na, r1 = rows * (a + 1) / na;
        if (r1 > r0)
            cv_bias_blocks(k, c);
        for (uint64_t r = r0; r < r1; r++)
            cv_bias_fill(k, c, (uint32_t)(r / t->cout), r % t->cout, 1, 0, t->P);
    }
    dvk_set_cross_flag(k, DV_PIPE_MTE3, 0, CV_READY);
    dvk_wait_cross_flag(k, DV_PIPE_MTE3, CV_READY);
    dvk_set_cross_flag(k, DV_PIPE_MTE3, 2, CV_TO_AIC);
}

static void cv_aic_main(dv_k_t *k, cv_ctx_t *c)
{
    const cv_tiling_t *t = c->t;
    const uint64_t b = dvk_block_idx(k), nb = dvk_block_num(k);
    cv_cube_init(k, c);
    dvk_wait_cross_flag(k, DV_PIPE_MTE2, CV_TO_AIC);
    if (t->bias)
        dvk_set_atomic(k, 1, c->dt);
    cv_cube_run(k, c, t->tasks * b / nb, t->tasks * (b + 1) / nb);
    if (t->bias)
        dvk_set_atomic(k, 0, c->dt);
}

/* 310: the units its tasks read (every block builds wa; the col units of its (n, g) pairs), the bias
 * of its tiles, then the cube.  MTE3 -> MTE2 orders the workspace writes before the L1 loads. */
static void cv_coupled_main(dv_k_t *k, cv_ctx_t *c)
{
    const cv_tiling_t *t = c->t;
    const uint64_t b = dvk_block_idx(k), nb = dvk_block_num(k);
    const uint64_t t0 = t->tasks * b / nb, t1 = t->tasks * (b + 1) / nb;
    if (t0 == t1)
        return;
    cv_ub_init(k, c);
    cv_cube_init(k, c);
    const uint64_t per_ng = (uint64_t)t->mtiles * t->ntiles, ng0 = t0 / per_ng, ng1 = (t1 - 1) / per_ng + 1;
    const uint64_t ncol = t->punits * t->ncc * t->n * t->g;
    for (uint64_t key = 0; key < t->punits * t->ncc; key++)
        for (uint64_t ng = ng0; ng < ng1; ng++)
            cv_col_unit(k, c, key * t->n * t->g + ng);
    for (uint64_t u = 0; u < (uint64_t)t->g * t->wunits; u++)
        cv_unit(k, c, ncol + u);
    if (t->bias && t->tbc) {
        cv_bias_tbc_load(k, c);
        for (uint64_t i = t0; i < t1; i++) {
            cv_task_t tk;
            cv_task(t, i, &tk);
            cv_bias_tbc_fill(k, c, tk.n, tk.m0, tk.mt, tk.p0, tk.nt);
        }
    } else if (t->bias) {
        cv_bias_blocks(k, c);
        for (uint64_t i = t0; i < t1; i++) {
            cv_task_t tk;
            cv_task(t, i, &tk);
            cv_bias_fill(k, c, tk.n, (uint64_t)tk.g * t->cout_g + tk.m0, tk.mt, tk.p0, tk.nt);
        }
    }
    const int ev = dvk_event_alloc(k, DV_PIPE_MTE3, DV_PIPE_MTE2);
    dvk_set_flag(k, DV_PIPE_MTE3, DV_PIPE_MTE2, ev);
    dvk_wait_flag(k, DV_PIPE_MTE3, DV_PIPE_MTE2, ev);
    if (t->bias)
        dvk_set_atomic(k, 1, c->dt);
    cv_cube_run(k, c, t0, t1);
    if (t->bias)
        dvk_set_atomic(k, 0, c->dt);
}

static void cv_kernel(dv_k_t *k, const void *params)
{
    cv_ctx_t c;
    memset(&c, 0, sizeof c);
    c.t = params;
    c.dt = (dv_dtype_t)c.t->dtype;
    c.tab_key = -1;
    if (!c.t->split)
        cv_coupled_main(k, &c);
    else if (dvk_sub(k) == DV_SUB_AIC)
        cv_aic_main(k, &c);
    else
        cv_aiv_main(k, &c);
}

/* ---------------------------------------------------------------- graph bind */

/* As a graph node: x [N, Cin, H, W] (2-D) sets --n, --cin, --h, --w (--d 1) and --dtype; y is
 * [N, cout, OH, OW] (w and b are the operator's own). */
static int cv_bind(const dv_opdesc_t *op, const dv_tensor_desc_t *in, int nin, dv_opvals_t *v, dv_tensor_desc_t *out,
                   dv_error_t *err)
{
    char buf[96];
    if (nin != 1)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "%s takes one input (x, NxCinxHxW), not %d", op->name, nin);
    if (in[0].shape.ndims != 4) {
        dv_shape_format(&in[0].shape, buf, sizeof buf);
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input 1 has shape %s; %s takes x as NxCinxHxW (4 "
                            "dimensions), not %d", buf, op->name, in[0].shape.ndims);
    }
    if (in[0].dtype >= DV_DT_COUNT || !(op->params[CV_DTYPE].dtypes & (1u << in[0].dtype)))
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input 1 is %s; %s takes fp16, bf16 or fp32",
                            dv_ops_dtype_name(in[0].dtype), op->name);
    static const int dims[4] = {CV_N, CV_CIN, CV_H, CV_W};
    for (int i = 0; i < 4; i++)
        if (in[0].shape.d[i] > 65535)
            return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input 1 has %llu in dimension %d of NxCinxHxW; %s "
                                "--%s takes [1, 65535]", (unsigned long long)in[0].shape.d[i], i + 1, op->name,
                                op->params[dims[i]].name);
    int64_t o[2];
    const dv_shape_t *ks = &v->v[CV_KERNEL].shape, *ss = &v->v[CV_STRIDE].shape, *ds = &v->v[CV_DILATION].shape,
                     *ps = &v->v[CV_PAD].shape, *os = &v->v[CV_OUT_PAD].shape;
    if (ks->ndims != 3 || ss->ndims != 3 || ds->ndims != 3 || ps->ndims != 3 || os->ndims != 3)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "%s: --kernel, --stride, --dilation, --pad and --out-pad "
                            "take DxHxW", op->name);
    for (int a = 1; a < 3; a++) {
        o[a - 1] = cv_out_axis(v->v[CV_TRANSPOSED].i, (int64_t)in[0].shape.d[a + 1], (int64_t)ks->d[a],
                               (int64_t)ss->d[a], (int64_t)ps->d[a], (int64_t)ds->d[a], (int64_t)os->d[a]);
        if (o[a - 1] < 1)
            return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "input 1: the kernel (%llu along %s) reaches beyond the "
                                "padded input (%llu)", (unsigned long long)ks->d[a], a == 1 ? "h" : "w",
                                (unsigned long long)in[0].shape.d[a + 1]);
    }
    for (int i = 0; i < 4; i++) {
        v->v[dims[i]].i = (int64_t)in[0].shape.d[i];
        v->given[dims[i]] = true;
    }
    v->v[CV_D].i = 1;
    v->v[CV_DTYPE].dt = in[0].dtype;
    v->given[CV_DTYPE] = true;
    out->shape.ndims = 4;
    out->shape.d[0] = in[0].shape.d[0];
    out->shape.d[1] = (uint64_t)v->v[CV_COUT].i;
    out->shape.d[2] = (uint64_t)o[0];
    out->shape.d[3] = (uint64_t)o[1];
    out->dtype = in[0].dtype;
    return DV_OK;
}

const dv_opdesc_t dv_op_convolution = {
    .name = "convolution",
    .desc = "1-D / 2-D / 3-D convolution, NCDHW (or 1-D TBC), groups, transposed, bias, fp16/bf16/fp32: vector "
            "im2col (vgather), matmul on the cube",
    .params = cv_params,
    .nparams = CV_COUNT,
    .plan = cv_plan,
    .kernel = cv_kernel,
    .reference = cv_reference,
    .bind = cv_bind,
};
