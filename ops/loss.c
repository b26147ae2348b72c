/* ops/loss.c - element-wise losses of x against a target y, reduced or not: l1_loss |x - y|,
 * mse_loss (x - y)^2, smooth_l1_loss (|d| < beta ? d^2 / (2 beta) : |d| - beta / 2, computed as
 * min(|d|, beta)^2 / (2 beta) + max(|d| - beta, 0)) and soft_margin_loss ln(1 + exp(-y x))
 * (aclnnL1Loss, aclnnMseLoss, aclnnSmoothL1Loss, aclnnSoftMarginLoss).  --reduction 0 (none) gives
 * the loss of every element, 1 (mean) and 2 (sum) one value.
 *
 * Flat tiles of --tile-elems as the element-wise operators (x, y: MTE2 -> V, depth 2; fp16 cast up,
 * the loss in fp32).  none: every block takes whole 512-B units and writes its tiles (V -> MTE3).
 * mean and sum: one block walks the whole tensor, adding each tile's losses into an fp32 tile of
 * partial sums (vadd; the last tile's under a mask of its elements), then folds it pairwise to 64
 * lanes, vcadd, times 1/n for the mean, and writes the one value (a 32-B block into the output's
 * padding).  One block for the reduction is dvsim's choice (no cross-core reduction yet): a large
 * reduced loss is slower here than a multi-core kernel would be.
 *
 * (s20-norm2) The backward forms l1_loss_backward, mse_loss_backward, smooth_l1_loss_backward and
 * soft_margin_loss_backward (aclnnL1LossBackward ... aclnnSoftMarginLossBackward): z = f(x, y) * g * s
 * element-wise, g the gradient of the loss (gradOutput) of x's shape, s 1/n for --reduction 1 (mean),
 * else 1.  f: l1 sign(x - y) (sign's saturation: (x - y) * 2^100 * 2^100 clamped to [-1, 1]), mse
 * 2 (x - y), smooth l1 clamp((x - y) / beta, -1, 1), soft margin -y / (1 + exp(x y)).  The flat
 * tiles of --reduction 0 with a third input queue (g); every block writes its own tiles.
 *
 * binary_cross_entropy z = -w (y ln x + (1 - y) ln(1 - x)), each logarithm clamped to >= -100 as
 * PyTorch and CANN clamp it, computed as -(y (ln x - ln(1 - x)) + ln(1 - x)); and its backward
 * binary_cross_entropy_backward z = g w (x - y) / max(x (1 - x), 1e-12) (/ n for the mean).  With
 * --weight on the weight w is one more input of x's shape (one more queue), else 1.
 *
 * bce_with_logits z = w ((1 - y) x + c (ln(1 + exp(-|x|)) + max(-x, 0))), c = 1 + (p - 1) y with the
 * positive weight p (--pos-weight on: one more input of x's shape, else c = 1); its backward
 * bce_with_logits_backward z = g w (sigmoid(x) c - p y) (p 1 without --pos-weight), sigmoid(x) =
 * 1 / (1 + exp(-x)).
 *
 * kl_div_backward (aclnnKlDivBackward, the gradient for self, the log-probabilities x against the
 * target y): z = -g y, or -g exp(y) with --log-target; kl_div_target_backward (aclnnKlDivTargetBackward,
 * the gradient for the target): z = g (ln y + 1 - x) where y > 0, else 0 (vcmps y > 0 into a bit mask,
 * vsel with a block of zeros), or g exp(y) (y + 1 - x) with --log-target.  --reduction 0 none,
 * 1 mean (1/n), 2 sum, 3 batchmean (1 / --batch, the first dimension). */
#include "../kernel/kapi_emit.h" /* dvk_<mnemonic> write into the stream (before dv/kapi.h) */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/ops.h"

enum { LK_L1, LK_MSE, LK_SMOOTH_L1, LK_SOFT_MARGIN, LK_BCE, LK_BCEWL, LK_L1_BW, LK_MSE_BW, LK_SMOOTH_L1_BW,
       LK_SOFT_MARGIN_BW, LK_BCE_BW, LK_BCEWL_BW, LK_KL_BW, LK_KL_TGT_BW, LK_KINDS };
static const char *const lk_names[LK_KINDS] = {"l1_loss", "mse_loss", "smooth_l1_loss", "soft_margin_loss",
                                               "binary_cross_entropy", "bce_with_logits", "l1_loss_backward",
                                               "mse_loss_backward", "smooth_l1_loss_backward",
                                               "soft_margin_loss_backward", "binary_cross_entropy_backward",
                                               "bce_with_logits_backward", "kl_div_backward",
                                               "kl_div_target_backward"};
/* The forward loss of a kind (a backward kind's own loss; -1: none in the library). */
#define LK_FWD(kind) ((kind) >= LK_KL_BW ? -1 : (kind) >= LK_L1_BW ? (kind) - LK_L1_BW : (kind))

enum { LP_SHAPE, LP_DTYPE, LP_REDUCTION, LP_CORES, LP_TILE, LP_BETA, LP_COUNT };
#define LOSS_COMMON_TILE(tile)                                                                                 \
    [LP_SHAPE] = {"shape", DV_OPT_SHAPE, "1048576", 1, 1u << 30, 0, "tensor dimensions"},                       \
    [LP_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp32", 0, 0, DT_F16 | DT_F32, "element type (arithmetic in fp32)"},   \
    [LP_REDUCTION] = {"reduction", DV_OPT_INT, "1", 0, 2, 0, "0 none, 1 mean, 2 sum"},                          \
    [LP_CORES] = {"cores", DV_OPT_INT, "auto", 1, 1024, 0, "blocks of --reduction 0 (auto: the vector cores)"}, \
    [LP_TILE] = {"tile-elems", DV_OPT_INT, tile, 64, 8192, 0, "elements per tile (a multiple of 64)"}
#define LOSS_COMMON LOSS_COMMON_TILE("4096")
static const dv_oparam_spec_t loss_params[LP_BETA] = {LOSS_COMMON};
static const dv_oparam_spec_t smooth_params[LP_COUNT] = {
    LOSS_COMMON, [LP_BETA] = {"beta", DV_OPT_FLOAT, "1", DV_FLOAT_ABOVE_0, 3.4e38, 0, "the L1 / L2 threshold"}};
/* the backward forms: three inputs, a smaller default tile */
#define LOSS_BW_COMMON                                                                                         \
    [LP_SHAPE] = {"shape", DV_OPT_SHAPE, "1048576", 1, 1u << 30, 0, "tensor dimensions"},                       \
    [LP_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp32", 0, 0, DT_F16 | DT_F32, "element type (arithmetic in fp32)"},   \
    [LP_REDUCTION] = {"reduction", DV_OPT_INT, "1", 0, 2, 0, "the forward's: 1 (mean) scales by 1/n"},           \
    [LP_CORES] = {"cores", DV_OPT_INT, "auto", 1, 1024, 0, "blocks (auto: the vector cores)"},                  \
    [LP_TILE] = {"tile-elems", DV_OPT_INT, "2048", 64, 8192, 0, "elements per tile (a multiple of 64)"}
static const dv_oparam_spec_t loss_bw_params[LP_BETA] = {LOSS_BW_COMMON};
static const dv_oparam_spec_t smooth_bw_params[LP_COUNT] = {
    LOSS_BW_COMMON, [LP_BETA] = {"beta", DV_OPT_FLOAT, "1", DV_FLOAT_ABOVE_0, 3.4e38, 0, "the L1 / L2 threshold"}};
/* binary cross entropy: --weight in the place of --beta */
#define LP_WEIGHT LP_BETA
#define BCE_WEIGHT [LP_WEIGHT] = {"weight", DV_OPT_BOOL, "off", 0, 1, 0, "a weight w of x's shape, one more input"}
static const dv_oparam_spec_t bce_params[LP_COUNT] = {LOSS_COMMON, BCE_WEIGHT};
static const dv_oparam_spec_t bce_bw_params[LP_COUNT] = {LOSS_BW_COMMON, BCE_WEIGHT};
/* with logits: --pos-weight after --weight */
#define LP_POS_WEIGHT LP_COUNT
#define BCE_POS_WEIGHT [LP_POS_WEIGHT] = {"pos-weight", DV_OPT_BOOL, "off", 0, 1, 0, "a positive-class weight p of x's shape, one more input"}
/* KL divergence: --reduction up to 3 (batchmean), --log-target in --weight's place, --batch after it */
#define LP_LOG_TARGET LP_WEIGHT
#define LP_BATCH LP_COUNT
static const dv_oparam_spec_t kl_bw_params[LP_COUNT + 1] = {
    [LP_SHAPE] = {"shape", DV_OPT_SHAPE, "1048576", 1, 1u << 30, 0, "tensor dimensions"},
    [LP_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp32", 0, 0, DT_F16 | DT_F32, "element type (arithmetic in fp32)"},
    [LP_REDUCTION] = {"reduction", DV_OPT_INT, "1", 0, 3, 0, "the forward's: 1 (mean) scales by 1/n, 3 (batchmean) by 1/--batch"},
    [LP_CORES] = {"cores", DV_OPT_INT, "auto", 1, 1024, 0, "blocks (auto: the vector cores)"},
    [LP_TILE] = {"tile-elems", DV_OPT_INT, "2048", 64, 8192, 0, "elements per tile (a multiple of 64)"},
    [LP_LOG_TARGET] = {"log-target", DV_OPT_BOOL, "off", 0, 1, 0, "the target is given as its logarithm"},
    [LP_BATCH] = {"batch", DV_OPT_INT, "1", 1, 1u << 30, 0, "--reduction 3: the divisor (the first dimension)"}};
static const dv_oparam_spec_t bcewl_params[LP_COUNT + 1] = {LOSS_COMMON_TILE("2048"), BCE_WEIGHT, BCE_POS_WEIGHT};
static const dv_oparam_spec_t bcewl_bw_params[LP_COUNT + 1] = {LOSS_BW_COMMON, BCE_WEIGHT, BCE_POS_WEIGHT};

typedef struct loss_tiling {
    uint64_t elems, unit, tile;
    double beta;
    uint32_t kind, dt, reduction, weight, pos; /* pos: the positive weight input (bce_with_logits) */
    uint32_t log_target;                       /* kl_div: the target as its logarithm */
    uint64_t batch;                            /* kl_div --reduction 3: the divisor */
} loss_tiling_t;

enum { LS_REP = 256, LS_LANES = 64 };

/* Over e fp32 elements (whole repeats of 64; the last masked). */
typedef void (*ls_vbin_t)(dv_k_t *, uint64_t, uint64_t, uint64_t, dv_dtype_t, int64_t, int64_t, int64_t, int64_t,
                          int64_t, int64_t, int64_t);
static void ls_bin(dv_k_t *k, ls_vbin_t op, uint64_t d, uint64_t a, uint64_t b, uint64_t e)
{
    const uint64_t full = e / LS_LANES, rem = e % LS_LANES;
    if (full)
        op(k, d, a, b, DV_DT_F32, (int64_t)full, 1, 1, 1, 8, 8, 8); /* tiles are at most 128 repeats */
    if (rem) {
        dvk_mask_first(k, DV_DT_F32, (uint32_t)rem);
        op(k, d + full * LS_REP, a + full * LS_REP, b + full * LS_REP, DV_DT_F32, 1, 1, 1, 1, 8, 8, 8);
        dvk_mask_all(k);
    }
}

/* The loss of the T elements of x32 and y32 (fp32) into l (fp32); w scratch; p the positive weight
 * (fp32; bce_with_logits with --pos-weight). */
static void ls_loss(dv_k_t *k, const loss_tiling_t *t, uint64_t l, uint64_t x, uint64_t y, uint64_t p, uint64_t w,
                    uint64_t T)
{
    const int64_t rep = (int64_t)(T / LS_LANES);
#define BAR() dvk_pipe_barrier(k, DV_PIPE_V)
    if (t->kind == LK_BCEWL) { /* w = ln(1 + exp(-|x|)) + max(-x, 0); l = c w + x - x y */
        dvk_vabs(k, w, x, DV_DT_F32, rep, 1, 1, 8, 8);
        dvk_vmuls(k, l, x, DV_DT_F32, -1.0, rep, 1, 1, 8, 8);
        BAR();
        dvk_vmuls(k, w, w, DV_DT_F32, -1.0, rep, 1, 1, 8, 8);
        dvk_vrelu(k, l, l, DV_DT_F32, rep, 1, 1, 8, 8);
        BAR();
        dvk_vexp(k, w, w, DV_DT_F32, rep, 1, 1, 8, 8);
        BAR();
        dvk_vadds(k, w, w, DV_DT_F32, 1.0, rep, 1, 1, 8, 8);
        BAR();
        dvk_vln(k, w, w, DV_DT_F32, rep, 1, 1, 8, 8);
        BAR();
        dvk_vadd(k, w, w, l, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        BAR();
        if (t->pos) { /* c = (p - 1) y + 1 in l */
            dvk_vadds(k, l, p, DV_DT_F32, -1.0, rep, 1, 1, 8, 8);
            BAR();
            dvk_vmul(k, l, l, y, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
            BAR();
            dvk_vadds(k, l, l, DV_DT_F32, 1.0, rep, 1, 1, 8, 8);
            BAR();
            dvk_vmul(k, l, l, w, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        } else {
            dvk_vadds(k, l, w, DV_DT_F32, 0.0, rep, 1, 1, 8, 8);
        }
        dvk_vmul(k, w, x, y, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        BAR();
        dvk_vsub(k, w, x, w, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        BAR();
        dvk_vadd(k, l, l, w, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        return;
    }
    if (t->kind == LK_BCE) { /* y (ln x - ln(1 - x)) + ln(1 - x), each ln >= -100; negated with the weight */
        dvk_vln(k, l, x, DV_DT_F32, rep, 1, 1, 8, 8);
        dvk_vmuls(k, w, x, DV_DT_F32, -1.0, rep, 1, 1, 8, 8);
        BAR();
        dvk_vmaxs(k, l, l, DV_DT_F32, -100.0, rep, 1, 1, 8, 8);
        dvk_vadds(k, w, w, DV_DT_F32, 1.0, rep, 1, 1, 8, 8);
        BAR();
        dvk_vln(k, w, w, DV_DT_F32, rep, 1, 1, 8, 8);
        BAR();
        dvk_vmaxs(k, w, w, DV_DT_F32, -100.0, rep, 1, 1, 8, 8);
        BAR();
        dvk_vsub(k, l, l, w, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        BAR();
        dvk_vmul(k, l, l, y, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        BAR();
        dvk_vadd(k, l, l, w, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        BAR();
        dvk_vmuls(k, l, l, DV_DT_F32, -1.0, rep, 1, 1, 8, 8);
        return;
    }
    if (t->kind == LK_SOFT_MARGIN) { /* ln(1 + exp(-(y x))) */
        dvk_vmul(k, w, x, y, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        BAR();
        dvk_vmuls(k, w, w, DV_DT_F32, -1.0, rep, 1, 1, 8, 8);
        BAR();
        dvk_vexp(k, w, w, DV_DT_F32, rep, 1, 1, 8, 8);
        BAR();
        dvk_vadds(k, w, w, DV_DT_F32, 1.0, rep, 1, 1, 8, 8);
        BAR();
        dvk_vln(k, l, w, DV_DT_F32, rep, 1, 1, 8, 8);
        return;
    }
    dvk_vsub(k, w, x, y, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
    BAR();
    switch (t->kind) {
    case LK_L1:
        dvk_vabs(k, l, w, DV_DT_F32, rep, 1, 1, 8, 8);
        break;
    case LK_MSE:
        dvk_vmul(k, l, w, w, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        break;
    default: /* smooth l1: min(a, beta)^2 / (2 beta) + relu(a - beta), a = |d| */
        dvk_vabs(k, w, w, DV_DT_F32, rep, 1, 1, 8, 8);
        BAR();
        dvk_vmins(k, l, w, DV_DT_F32, t->beta, rep, 1, 1, 8, 8);
        dvk_vadds(k, w, w, DV_DT_F32, -t->beta, rep, 1, 1, 8, 8);
        BAR();
        dvk_vmul(k, l, l, l, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        dvk_vrelu(k, w, w, DV_DT_F32, rep, 1, 1, 8, 8);
        BAR();
        dvk_vmuls(k, l, l, DV_DT_F32, 0.5 / t->beta, rep, 1, 1, 8, 8);
        BAR();
        dvk_vadd(k, l, l, w, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
    }
#undef BAR
}

static void loss_kernel(dv_k_t *k, const void *params)
{
    const loss_tiling_t *t = params;
    const dv_dtype_t dt = (dv_dtype_t)t->dt;
    const unsigned size = dv_dtype_size(dt);
    uint64_t first, last;
    dv_ops_block_span(k, t->elems, t->unit, &first, &last);
    if (first >= last)
        return;
    const uint64_t T = t->tile;
    const int64_t rep = (int64_t)(T / LS_LANES);
    dv_que_t xq, yq, wq, pq, zq;
    const unsigned pi = t->weight ? 3 : 2, zi = pi + (t->pos ? 1 : 0); /* the arguments after y: w, p, z */
    if (t->pos)
        dvk_que_init(k, &pq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 2, T * size);
    const uint64_t p32 = t->pos && size == 2 ? dvk_alloc(k, DV_SPACE_UB, T * 4) : 0;
    dvk_que_init(k, &xq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 2, T * size);
    dvk_que_init(k, &yq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 2, T * size);
    if (t->weight)
        dvk_que_init(k, &wq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 2, T * size);
    dvk_que_init(k, &zq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, t->reduction ? 1 : 2, t->reduction ? LS_REP : T * size);
    const uint64_t x32 = dvk_alloc(k, DV_SPACE_UB, T * 4), y32 = dvk_alloc(k, DV_SPACE_UB, T * 4);
    const uint64_t w32 = t->weight && size == 2 ? dvk_alloc(k, DV_SPACE_UB, T * 4) : 0;
    const uint64_t w = dvk_alloc(k, DV_SPACE_UB, T * 4), l = dvk_alloc(k, DV_SPACE_UB, T * 4);
    const uint64_t acc = t->reduction ? dvk_alloc(k, DV_SPACE_UB, T * 4) : 0;
    if (t->reduction)
        dvk_vdup(k, acc, DV_DT_F32, 0.0, rep, 1, 8);
    for (uint64_t off = first; off < last; off += T) {
        const uint64_t n = dv_min_u64(T, last - off), len = dv_ceil_div(n * size, 32);
        const uint64_t bx = dvk_que_alloc(k, &xq), by = dvk_que_alloc(k, &yq);
        dvk_copy_gm_to_ubuf(k, bx, dvk_gm(k, 0, off * size), 1, (int64_t)len, 0, 0);
        dvk_copy_gm_to_ubuf(k, by, dvk_gm(k, 1, off * size), 1, (int64_t)len, 0, 0);
        dvk_que_enque(k, &xq, bx);
        dvk_que_enque(k, &yq, by);
        uint64_t wt = 0, ws = 0;
        if (t->weight) {
            const uint64_t bw = dvk_que_alloc(k, &wq);
            dvk_copy_gm_to_ubuf(k, bw, dvk_gm(k, 2, off * size), 1, (int64_t)len, 0, 0);
            dvk_que_enque(k, &wq, bw);
            wt = ws = dvk_que_deque(k, &wq);
        }
        uint64_t pt = 0, ps = 0;
        if (t->pos) {
            const uint64_t bp = dvk_que_alloc(k, &pq);
            dvk_copy_gm_to_ubuf(k, bp, dvk_gm(k, pi, off * size), 1, (int64_t)len, 0, 0);
            dvk_que_enque(k, &pq, bp);
            pt = ps = dvk_que_deque(k, &pq);
        }
        const uint64_t x = dvk_que_deque(k, &xq), y = dvk_que_deque(k, &yq);
        uint64_t xs = x, ys = y;
        if (size == 2) {
            dvk_vconv(k, x32, x, DV_DT_F32, DV_DT_F16, DV_ROUND_R, rep, 1, 1, 8, 4);
            dvk_vconv(k, y32, y, DV_DT_F32, DV_DT_F16, DV_ROUND_R, rep, 1, 1, 8, 4);
            if (t->pos) {
                dvk_vconv(k, p32, pt, DV_DT_F32, DV_DT_F16, DV_ROUND_R, rep, 1, 1, 8, 4);
                ps = p32;
            }
            if (t->weight) {
                dvk_vconv(k, w32, wt, DV_DT_F32, DV_DT_F16, DV_ROUND_R, rep, 1, 1, 8, 4);
                ws = w32;
            }
            xs = x32;
            ys = y32;
            dvk_pipe_barrier(k, DV_PIPE_V);
        }
        ls_loss(k, t, l, xs, ys, ps, w, T);
        dvk_pipe_barrier(k, DV_PIPE_V);
        if (t->weight) {
            dvk_vmul(k, l, l, ws, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_que_free(k, &wq, wt);
        }
        if (t->pos)
            dvk_que_free(k, &pq, pt);
        dvk_que_free(k, &xq, x);
        dvk_que_free(k, &yq, y);
        if (t->reduction) { /* the tile's n losses into the partial sums */
            ls_bin(k, dvk_vadd, acc, acc, l, n);
            dvk_pipe_barrier(k, DV_PIPE_V);
            continue;
        }
        const uint64_t z = dvk_que_alloc(k, &zq);
        if (size == 2)
            dvk_vconv(k, z, l, DV_DT_F16, DV_DT_F32, DV_ROUND_R, rep, 1, 1, 4, 8);
        else
            dvk_vadds(k, z, l, DV_DT_F32, 0.0, rep, 1, 1, 8, 8);
        dvk_que_enque(k, &zq, z);
        const uint64_t bz = dvk_que_deque(k, &zq);
        dvk_copy_ubuf_to_gm(k, dvk_gm(k, zi, off * size), bz, 1, (int64_t)len, 0, 0);
        dvk_que_free(k, &zq, bz);
    }
    if (!t->reduction)
        return;
    /* fold the partial sums to 64 lanes, then one value */
    for (uint64_t e = T; e > LS_LANES; e /= 2) {
        ls_bin(k, dvk_vadd, acc, acc, acc + e / 2 * 4, e / 2);
        dvk_pipe_barrier(k, DV_PIPE_V);
    }
    const uint64_t z = dvk_que_alloc(k, &zq);
    dvk_vcadd(k, w, acc, DV_DT_F32, 1, 1, 1, 8, 0);
    dvk_pipe_barrier(k, DV_PIPE_V);
    if (t->reduction == 1) {
        dvk_mask_first(k, DV_DT_F32, 8);
        dvk_vmuls(k, w, w, DV_DT_F32, 1.0 / (double)t->elems, 1, 1, 1, 8, 8);
        dvk_mask_all(k);
        dvk_pipe_barrier(k, DV_PIPE_V);
    }
    dvk_mask_first(k, DV_DT_F32, 8);
    if (size == 2)
        dvk_vconv(k, z, w, DV_DT_F16, DV_DT_F32, DV_ROUND_R, 1, 1, 1, 4, 8);
    else
        dvk_vadds(k, z, w, DV_DT_F32, 0.0, 1, 1, 1, 8, 8);
    dvk_mask_all(k);
    dvk_que_enque(k, &zq, z);
    const uint64_t bz = dvk_que_deque(k, &zq);
    dvk_copy_ubuf_to_gm(k, dvk_gm(k, zi, 0), bz, 1, 1, 0, 0);
    dvk_que_free(k, &zq, bz);
}

/* The backward factor f(x, y) of the T elements of x and y (fp32) into l; w scratch; p the positive
 * weight (fp32, bce_with_logits with --pos-weight) (see the top). */
static void lb_factor(dv_k_t *k, const loss_tiling_t *t, uint64_t l, uint64_t x, uint64_t y, uint64_t p, uint64_t w,
                      uint64_t mask, uint64_t zeros, uint64_t T)
{
    const int64_t rep = (int64_t)(T / LS_LANES);
#define BAR() dvk_pipe_barrier(k, DV_PIPE_V)
    if (t->kind == LK_KL_BW) { /* y, or exp(y); the sign in the scale */
        if (t->log_target)
            dvk_vexp(k, l, y, DV_DT_F32, rep, 1, 1, 8, 8);
        else
            dvk_vadds(k, l, y, DV_DT_F32, 0.0, rep, 1, 1, 8, 8);
        return;
    }
    if (t->kind == LK_KL_TGT_BW) { /* y + 1 - x times exp(y); or ln y + 1 - x where y > 0 */
        if (t->log_target) {
            dvk_vsub(k, w, y, x, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
            dvk_vexp(k, l, y, DV_DT_F32, rep, 1, 1, 8, 8);
            BAR();
            dvk_vadds(k, w, w, DV_DT_F32, 1.0, rep, 1, 1, 8, 8);
            BAR();
            dvk_vmul(k, l, l, w, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
            return;
        }
        dvk_vln(k, l, y, DV_DT_F32, rep, 1, 1, 8, 8);
        dvk_vcmps(k, mask, y, DV_DT_F32, 0.0, DV_CMP_GT, rep, 1, 8);
        BAR();
        dvk_vsub(k, l, l, x, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        BAR();
        dvk_vadds(k, l, l, DV_DT_F32, 1.0, rep, 1, 1, 8, 8);
        BAR();
        dvk_vsel(k, l, l, zeros, mask, DV_DT_F32, rep, 1, 1, 0, 8, 8, 0, 1);
        return;
    }
    if (t->kind == LK_BCEWL_BW) { /* sigmoid(x) c - p y */
        dvk_vmuls(k, w, x, DV_DT_F32, -1.0, rep, 1, 1, 8, 8);
        BAR();
        dvk_vexp(k, w, w, DV_DT_F32, rep, 1, 1, 8, 8);
        BAR();
        dvk_vadds(k, w, w, DV_DT_F32, 1.0, rep, 1, 1, 8, 8);
        BAR();
        dvk_vrec(k, l, w, DV_DT_F32, rep, 1, 1, 8, 8);
        if (t->pos) {
            dvk_vadds(k, w, p, DV_DT_F32, -1.0, rep, 1, 1, 8, 8);
            BAR();
            dvk_vmul(k, w, w, y, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
            BAR();
            dvk_vadds(k, w, w, DV_DT_F32, 1.0, rep, 1, 1, 8, 8);
            BAR();
            dvk_vmul(k, l, l, w, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
            dvk_vmul(k, w, p, y, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
            BAR();
            dvk_vsub(k, l, l, w, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        } else {
            BAR();
            dvk_vsub(k, l, l, y, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        }
        return;
    }
    if (t->kind == LK_BCE_BW) { /* (x - y) / max(x (1 - x), 1e-12) */
        dvk_vmuls(k, w, x, DV_DT_F32, -1.0, rep, 1, 1, 8, 8);
        dvk_vsub(k, l, x, y, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        BAR();
        dvk_vadds(k, w, w, DV_DT_F32, 1.0, rep, 1, 1, 8, 8);
        BAR();
        dvk_vmul(k, w, w, x, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        BAR();
        dvk_vmaxs(k, w, w, DV_DT_F32, 1e-12, rep, 1, 1, 8, 8);
        BAR();
        dvk_vdiv(k, l, l, w, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        return;
    }
    if (t->kind == LK_SOFT_MARGIN_BW) { /* y / (1 + exp(x y)); the sign in the scale */
        dvk_vmul(k, w, x, y, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        BAR();
        dvk_vexp(k, w, w, DV_DT_F32, rep, 1, 1, 8, 8);
        BAR();
        dvk_vadds(k, w, w, DV_DT_F32, 1.0, rep, 1, 1, 8, 8);
        BAR();
        dvk_vdiv(k, l, y, w, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        return;
    }
    dvk_vsub(k, t->kind == LK_MSE_BW ? l : w, x, y, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
    if (t->kind == LK_MSE_BW) /* d; the 2 in the scale */
        return;
    BAR();
    if (t->kind == LK_L1_BW) { /* sign(d) */
        dvk_vmuls(k, w, w, DV_DT_F32, 0x1p100, rep, 1, 1, 8, 8);
        BAR();
        dvk_vmuls(k, w, w, DV_DT_F32, 0x1p100, rep, 1, 1, 8, 8);
    } else { /* d / beta */
        dvk_vmuls(k, w, w, DV_DT_F32, 1.0 / t->beta, rep, 1, 1, 8, 8);
    }
    BAR();
    dvk_vmaxs(k, w, w, DV_DT_F32, -1.0, rep, 1, 1, 8, 8);
    BAR();
    dvk_vmins(k, l, w, DV_DT_F32, 1.0, rep, 1, 1, 8, 8);
#undef BAR
}

/* The constant the backward factor times g is scaled by: 1/n for the mean, 2 for mse, -1 for soft margin. */
static double lb_scale(const loss_tiling_t *t)
{
    const double s = t->reduction == 1 ? 1.0 / (double)t->elems : t->reduction == 3 ? 1.0 / (double)t->batch : 1.0;
    return t->kind == LK_MSE_BW ? 2 * s : t->kind == LK_SOFT_MARGIN_BW || t->kind == LK_KL_BW ? -s : s;
}

static void lb_kernel(dv_k_t *k, const void *params)
{
    const loss_tiling_t *t = params;
    const dv_dtype_t dt = (dv_dtype_t)t->dt;
    const unsigned size = dv_dtype_size(dt);
    uint64_t first, last;
    dv_ops_block_span(k, t->elems, t->unit, &first, &last);
    if (first >= last)
        return;
    const uint64_t T = t->tile;
    const int64_t rep = (int64_t)(T / LS_LANES);
    const double scale = lb_scale(t);
    dv_que_t gq, xq, yq, wq, pq, zq;
    const unsigned pi = t->weight ? 4 : 3, zi = pi + (t->pos ? 1 : 0); /* the arguments after y: w, p, z */
    /* five input queues: the weights single-buffered, within the MTE2 -> V event ids */
    const uint32_t wdepth = t->weight && t->pos ? 1 : 2;
    if (t->pos)
        dvk_que_init(k, &pq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, wdepth, T * size);
    const uint64_t p32 = t->pos && size == 2 ? dvk_alloc(k, DV_SPACE_UB, T * 4) : 0;
    if (t->weight)
        dvk_que_init(k, &wq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, wdepth, T * size);
    dvk_que_init(k, &gq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 2, T * size);
    dvk_que_init(k, &xq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 2, T * size);
    dvk_que_init(k, &yq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 2, T * size);
    dvk_que_init(k, &zq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 2, T * size);
    const uint64_t g32 = dvk_alloc(k, DV_SPACE_UB, T * 4), x32 = dvk_alloc(k, DV_SPACE_UB, T * 4);
    const uint64_t y32 = dvk_alloc(k, DV_SPACE_UB, T * 4), w = dvk_alloc(k, DV_SPACE_UB, T * 4);
    const uint64_t l = dvk_alloc(k, DV_SPACE_UB, T * 4);
    /* kl_div_target_backward: the y > 0 bit mask (8 bytes a repeat) and a block of zeros */
    const bool klt = t->kind == LK_KL_TGT_BW && !t->log_target;
    const uint64_t kmask = klt ? dvk_alloc(k, DV_SPACE_UB, dv_round_up(T / 8, 32)) : 0;
    const uint64_t kzeros = klt ? dvk_alloc(k, DV_SPACE_UB, LS_REP) : 0;
    if (klt)
        dvk_vdup(k, kzeros, DV_DT_F32, 0.0, 1, 1, 8);
    for (uint64_t off = first; off < last; off += T) {
        const uint64_t n = dv_min_u64(T, last - off), len = dv_ceil_div(n * size, 32);
        const uint64_t bg = dvk_que_alloc(k, &gq), bx = dvk_que_alloc(k, &xq), by = dvk_que_alloc(k, &yq);
        dvk_copy_gm_to_ubuf(k, bg, dvk_gm(k, 0, off * size), 1, (int64_t)len, 0, 0);
        dvk_copy_gm_to_ubuf(k, bx, dvk_gm(k, 1, off * size), 1, (int64_t)len, 0, 0);
        dvk_copy_gm_to_ubuf(k, by, dvk_gm(k, 2, off * size), 1, (int64_t)len, 0, 0);
        dvk_que_enque(k, &gq, bg);
        dvk_que_enque(k, &xq, bx);
        dvk_que_enque(k, &yq, by);
        const uint64_t g = dvk_que_deque(k, &gq), x = dvk_que_deque(k, &xq), y = dvk_que_deque(k, &yq);
        uint64_t gs = g, xs = x, ys = y, pt = 0, ps = 0;
        if (t->pos) {
            const uint64_t bp = dvk_que_alloc(k, &pq);
            dvk_copy_gm_to_ubuf(k, bp, dvk_gm(k, pi, off * size), 1, (int64_t)len, 0, 0);
            dvk_que_enque(k, &pq, bp);
            pt = ps = dvk_que_deque(k, &pq);
            if (size == 2) {
                dvk_vconv(k, p32, pt, DV_DT_F32, DV_DT_F16, DV_ROUND_R, rep, 1, 1, 8, 4);
                ps = p32;
            }
        }
        if (t->weight) { /* g * w, in place in g's buffer (fp32) or its fp32 copy */
            const uint64_t bw = dvk_que_alloc(k, &wq);
            dvk_copy_gm_to_ubuf(k, bw, dvk_gm(k, 3, off * size), 1, (int64_t)len, 0, 0);
            dvk_que_enque(k, &wq, bw);
            const uint64_t wt = dvk_que_deque(k, &wq);
            if (size == 2) {
                dvk_vconv(k, g32, g, DV_DT_F32, DV_DT_F16, DV_ROUND_R, rep, 1, 1, 8, 4);
                dvk_vconv(k, w, wt, DV_DT_F32, DV_DT_F16, DV_ROUND_R, rep, 1, 1, 8, 4);
                gs = g32;
                dvk_pipe_barrier(k, DV_PIPE_V);
                dvk_vmul(k, g32, g32, w, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
            } else {
                dvk_vmul(k, g, g, wt, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
            }
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_que_free(k, &wq, wt);
        }
        if (size == 2) {
            if (!t->weight)
                dvk_vconv(k, g32, g, DV_DT_F32, DV_DT_F16, DV_ROUND_R, rep, 1, 1, 8, 4);
            dvk_vconv(k, x32, x, DV_DT_F32, DV_DT_F16, DV_ROUND_R, rep, 1, 1, 8, 4);
            dvk_vconv(k, y32, y, DV_DT_F32, DV_DT_F16, DV_ROUND_R, rep, 1, 1, 8, 4);
            gs = g32;
            xs = x32;
            ys = y32;
            dvk_pipe_barrier(k, DV_PIPE_V);
        }
        lb_factor(k, t, l, xs, ys, ps, w, kmask, kzeros, T);
        dvk_pipe_barrier(k, DV_PIPE_V);
        dvk_vmul(k, l, l, gs, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        dvk_pipe_barrier(k, DV_PIPE_V);
        dvk_que_free(k, &gq, g);
        dvk_que_free(k, &xq, x);
        dvk_que_free(k, &yq, y);
        if (t->pos)
            dvk_que_free(k, &pq, pt);
        const uint64_t z = dvk_que_alloc(k, &zq);
        if (size == 2) {
            if (scale != 1.0) {
                dvk_vmuls(k, l, l, DV_DT_F32, scale, rep, 1, 1, 8, 8);
                dvk_pipe_barrier(k, DV_PIPE_V);
            }
            dvk_vconv(k, z, l, DV_DT_F16, DV_DT_F32, DV_ROUND_R, rep, 1, 1, 4, 8);
        } else {
            dvk_vmuls(k, z, l, DV_DT_F32, scale, rep, 1, 1, 8, 8);
        }
        dvk_que_enque(k, &zq, z);
        const uint64_t bz = dvk_que_deque(k, &zq);
        dvk_copy_ubuf_to_gm(k, dvk_gm(k, zi, off * size), bz, 1, (int64_t)len, 0, 0);
        dvk_que_free(k, &zq, bz);
    }
}

static int loss_kind_of(const dv_opdesc_t *op)
{
    for (int i = 0; i < LK_KINDS; i++)
        if (strcmp(op->name, lk_names[i]) == 0)
            return i;
    return -1;
}

static int loss_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                     dv_error_t *err)
{
    const int kind = loss_kind_of(op);
    if (kind < 0)
        return dv_error_set(err, DV_ERR_UNKNOWN, NULL, 0, 0, "%s: not a loss", op->name);
    const dv_dtype_t dt = v->v[LP_DTYPE].dt;
    const unsigned size = dv_dtype_size(dt);
    const uint64_t elems = dv_shape_elems(&v->v[LP_SHAPE].shape);
    const int hbm_rc = dv_ops_check_hbm(cfg, elems, size, err);
    if (hbm_rc != DV_OK)
        return hbm_rc;
    loss_tiling_t t = {.elems = elems, .unit = 512 / size, .tile = (uint64_t)v->v[LP_TILE].i, .kind = (uint32_t)kind,
                       .dt = (uint32_t)dt, .reduction = (uint32_t)v->v[LP_REDUCTION].i,
                       .beta = LK_FWD(kind) == LK_SMOOTH_L1 ? v->v[LP_BETA].f : 1,
                       .weight = (LK_FWD(kind) == LK_BCE || LK_FWD(kind) == LK_BCEWL) && v->v[LP_WEIGHT].i,
                       .pos = LK_FWD(kind) == LK_BCEWL && v->v[LP_POS_WEIGHT].i,
                       .log_target = kind >= LK_KL_BW && v->v[LP_LOG_TARGET].i,
                       .batch = kind >= LK_KL_BW ? (uint64_t)v->v[LP_BATCH].i : 1};
    if (t.reduction == 3 && elems % t.batch)
        return dv_ops_param_error(err, "batch", "%llu does not divide the %llu elements (it is the first dimension)",
                                  (unsigned long long)t.batch, (unsigned long long)elems);
    const bool bw = kind >= LK_L1_BW;
    if (t.tile % LS_LANES || (t.reduction && !bw && (t.tile & (t.tile - 1))))
        return dv_ops_param_error(err, "tile-elems", "%llu is not a multiple of 64%s", (unsigned long long)t.tile,
                                  t.reduction && !bw ? " and a power of two (the partial sums fold in halves)" : "");
    const uint64_t wb = (t.weight ? 2 * t.tile * size + (bw || size == 4 ? 0 : t.tile * 4) : 0) + /* the weight's */
                        (t.pos ? 2 * t.tile * size + (size == 4 ? 0 : t.tile * 4) : 0);    /* the positive weight's */
    const uint64_t kb = kind == LK_KL_TGT_BW ? dv_round_up(t.tile / 8, 32) + LS_REP : 0; /* its mask, zeros */
    const uint64_t ub = wb + kb + (bw ? 8 * t.tile * size + 5 * t.tile * 4
                                 : 4 * t.tile * size + (t.reduction ? LS_REP : 2 * t.tile * size) +
                                       (t.reduction ? 5 : 4) * t.tile * 4);
    if (ub > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "tile-elems", "%llu elements need %llu bytes of UB, core.ub_size_bytes is %llu",
                                  (unsigned long long)t.tile, (unsigned long long)ub,
                                  (unsigned long long)cfg->ub_size_bytes);
    const uint64_t units = dv_ceil_div(elems, t.unit);
    const uint64_t cores = v->v[LP_CORES].i ? (uint64_t)v->v[LP_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = t.reduction && !bw ? 1 : (uint32_t)dv_max_u64(1, dv_min_u64(cores, units));
    plan->info.subs = 1;
    int rc;
    /* soft margin: targets in [-1, 1]; binary cross entropy: probabilities x and targets in (0, 1) */
    const bool bce = LK_FWD(kind) == LK_BCE, logits = LK_FWD(kind) == LK_BCEWL;
    const double lo = LK_FWD(kind) == LK_SOFT_MARGIN ? -1 : bce || logits ? 0.01 : 0,
                 hi = LK_FWD(kind) == LK_SOFT_MARGIN || bce || logits ? 1 : 0;
    const double xlo = bce ? 0.01 : 0, xhi = bce ? 0.99 : 0;
    const bool kl = kind >= LK_KL_BW; /* x log-probabilities, y probabilities (or their logarithms) */
    if (bw) {
        if ((rc = dv_ops_add_arg(plan, "g", dt, elems, DV_ARG_IN, 0, 0)) ||
            (rc = dv_ops_add_arg(plan, "x", dt, elems, DV_ARG_IN, kl ? -3 : xlo, kl ? 0 : xhi)) ||
            (rc = dv_ops_add_arg(plan, "y", dt, elems, DV_ARG_IN, kl ? (t.log_target ? -3 : 0) : lo,
                                 kl ? (t.log_target ? 0 : 1) : hi)) ||
            (t.weight && (rc = dv_ops_add_arg(plan, "w", dt, elems, DV_ARG_IN, 0, 0))) ||
            (t.pos && (rc = dv_ops_add_arg(plan, "p", dt, elems, DV_ARG_IN, 0.5, 2))) ||
            (rc = dv_ops_add_arg(plan, "z", dt, elems, DV_ARG_OUT, 0, 0)))
            return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
        memcpy(plan->tiling, &t, sizeof t);
        plan->tiling_bytes = sizeof t;
        plan->flops = 5 * elems;
        plan->bytes = (4 + t.weight + t.pos) * elems * size;
        return DV_OK;
    }
    if ((rc = dv_ops_add_arg(plan, "x", dt, elems, DV_ARG_IN, xlo, xhi)) ||
        (rc = dv_ops_add_arg(plan, "y", dt, elems, DV_ARG_IN, lo, hi)) ||
        (t.weight && (rc = dv_ops_add_arg(plan, "w", dt, elems, DV_ARG_IN, 0, 0))) ||
        (t.pos && (rc = dv_ops_add_arg(plan, "p", dt, elems, DV_ARG_IN, 0.5, 2))) ||
        (rc = dv_ops_add_arg(plan, "z", dt, t.reduction ? 1 : elems, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 3 * elems;
    plan->bytes = (2 + t.weight + t.pos) * elems * size + (t.reduction ? 1 : elems) * size;
    /* the sum of n fp32 terms: its rounding error grows with n */
    plan->tol_scale = t.reduction ? (double)dv_max_u64(1, elems / 256) : 1.0;
    return DV_OK;
}

static double loss_value(const loss_tiling_t *t, double x, double y, double p)
{
    if (t->kind == LK_BCEWL)
        return (1 - y) * x + (1 + (p - 1) * y) * (log1p(exp(-fabs(x))) + fmax(-x, 0));
    const double d = x - y, a = fabs(d);
    switch (t->kind) {
    case LK_L1: return a;
    case LK_MSE: return d * d;
    case LK_SMOOTH_L1: return a < t->beta ? 0.5 * d * d / t->beta : a - 0.5 * t->beta;
    case LK_BCE: return -(y * fmax(log(x), -100) + (1 - y) * fmax(log(1 - x), -100));
    default: return log1p(exp(-y * x));
    }
}

/* The backward factor f(x, y) times the scale (see the top). */
static double loss_grad_value(const loss_tiling_t *t, double x, double y, double p)
{
    const double d = x - y, s = t->reduction == 1 ? 1.0 / (double)t->elems : t->reduction == 3 ? 1.0 / (double)t->batch : 1.0;
    switch (t->kind) {
    case LK_KL_BW: return -(t->log_target ? exp(y) : y) * s;
    case LK_KL_TGT_BW: return (t->log_target ? exp(y) * (y + 1 - x) : y > 0 ? log(y) + 1 - x : 0) * s;
    case LK_BCEWL_BW: return ((1 + (p - 1) * y) / (1 + exp(-x)) - p * y) * s;
    case LK_L1_BW: return (d > 0 ? 1 : d < 0 ? -1 : 0) * s;
    case LK_MSE_BW: return 2 * d * s;
    case LK_SMOOTH_L1_BW: return fmin(fmax(d / t->beta, -1), 1) * s;
    case LK_BCE_BW: return d / fmax(x * (1 - x), 1e-12) * s;
    default: return -y / (1 + exp(x * y)) * s;
    }
}

static int loss_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    loss_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t dt = (dv_dtype_t)t.dt;
    if (t.kind >= LK_L1_BW) {
        const unsigned pi = t.weight ? 4 : 3;
        for (uint64_t i = 0; i < t.elems; i++)
            dv_ops_store(expect[pi + t.pos], dt, i,
                         dv_ops_load(in[0], dt, i) * (t.weight ? dv_ops_load(in[3], dt, i) : 1) *
                             loss_grad_value(&t, dv_ops_load(in[1], dt, i), dv_ops_load(in[2], dt, i),
                                             t.pos ? dv_ops_load(in[pi], dt, i) : 1));
        return DV_OK;
    }
    const unsigned pi = t.weight ? 3 : 2, zi = pi + t.pos;
    double s = 0;
    for (uint64_t i = 0; i < t.elems; i++) {
        const double v = loss_value(&t, dv_ops_load(in[0], dt, i), dv_ops_load(in[1], dt, i),
                                    t.pos ? dv_ops_load(in[pi], dt, i) : 1) *
                         (t.weight ? dv_ops_load(in[2], dt, i) : 1);
        if (t.reduction)
            s += v;
        else
            dv_ops_store(expect[zi], dt, i, v);
    }
    if (t.reduction)
        dv_ops_store(expect[zi], dt, 0, t.reduction == 1 ? s / (double)t.elems : s);
    return DV_OK;
}

#define LOSS_OP(ident, params, what)                                                                            \
    const dv_opdesc_t dv_op_##ident = {#ident, what, params, (int)(sizeof params / sizeof params[0]), loss_plan, \
                                       loss_kernel, loss_reference, NULL, NULL, NULL}
LOSS_OP(l1_loss, loss_params, "z = |x - y|, or its mean (--reduction 1) or sum (2)");
LOSS_OP(mse_loss, loss_params, "z = (x - y)^2, or its mean (--reduction 1) or sum (2)");
LOSS_OP(smooth_l1_loss, smooth_params, "z = the smooth L1 loss of x - y with --beta, or its mean or sum");
LOSS_OP(soft_margin_loss, loss_params, "z = ln(1 + exp(-y x)), or its mean (--reduction 1) or sum (2)");
/* (s20-norm2) */
#define LOSS_BW_OP(ident, params, what)                                                                         \
    const dv_opdesc_t dv_op_##ident = {#ident, what, params, (int)(sizeof params / sizeof params[0]), loss_plan, \
                                       lb_kernel, loss_reference, NULL, NULL, NULL}
LOSS_BW_OP(l1_loss_backward, loss_bw_params, "z = g * sign(x - y), over n with --reduction 1");
LOSS_BW_OP(mse_loss_backward, loss_bw_params, "z = g * 2 (x - y), over n with --reduction 1");
LOSS_BW_OP(smooth_l1_loss_backward, smooth_bw_params, "z = g * clamp((x - y) / beta, -1, 1), over n with --reduction 1");
LOSS_BW_OP(soft_margin_loss_backward, loss_bw_params, "z = -g y / (1 + exp(x y)), over n with --reduction 1");
LOSS_OP(binary_cross_entropy, bce_params,
        "z = -w (y ln x + (1 - y) ln(1 - x)) (each ln >= -100; w with --weight, else 1), or its mean or sum");
LOSS_BW_OP(binary_cross_entropy_backward, bce_bw_params,
           "z = g w (x - y) / max(x (1 - x), 1e-12) (w with --weight), over n with --reduction 1");
LOSS_OP(bce_with_logits, bcewl_params,
        "z = w ((1 - y) x + (1 + (p - 1) y) ln(1 + exp(-x))) (w, p with --weight, --pos-weight), or its mean or sum");
LOSS_BW_OP(kl_div_backward, kl_bw_params, "z = -g y, or -g exp(y) with --log-target (x the log-probabilities)");
LOSS_BW_OP(kl_div_target_backward, kl_bw_params,
           "z = g (ln y + 1 - x) where y > 0, else 0; g exp(y) (y + 1 - x) with --log-target");
LOSS_BW_OP(bce_with_logits_backward, bcewl_bw_params,
           "z = g w (sigmoid(x) (1 + (p - 1) y) - p y) (w, p with --weight, --pos-weight), over n with --reduction 1");
