/* ops/elementwise.c - element-wise operators on the vector unit, written like the Ascend C
 * add_high_performance sample: per block a contiguous range of the flattened tensor, walked in
 * tiles of --tile-elems elements through TQue-style queues (inputs MTE2 -> V, output V -> MTE3;
 * depth 2 with --double-buffer on), each tile CopyIn -> Compute -> CopyOut.  Plus copy, the
 * read-only GM -> UB bandwidth benchmark of the data_copy sample.
 *
 * Tiling decisions (all made in the plan, passed to the kernel as a tiling struct):
 * - Blocks split the tensor in units of EW_SPLIT_BYTES (512 B: GM addresses of every block start
 *   on a 512-B boundary, the alignment the DMA needs for full bandwidth, ref calibration C3), as
 *   evenly as whole units allow; --cores is capped at the number of units.
 * - A tile is copied as one burst of whole 32-B blocks.  The last tile of a block may be shorter;
 *   the last 32-B block of the tensor may run into the argument's padding (dv_ops_add_arg pads to
 *   32 B), and never into another block's range because ranges start on 512-B boundaries.
 * - Vector instructions cover whole repeats (256 B) in runs of at most 255 repeats; a partial last
 *   repeat is one more instruction under a mask of its first elements (normal mask mode), so no
 *   element past the tile is computed.
 * - The activations (gelu, sigmoid, silu, tanh) are step tables (ew_steps below: one vector
 *   instruction per step, in fp32).  On fp16 they compute in fp32 (vconv up, the steps, vconv
 *   down: the high-precision path of Ascend C's Gelu) in TBuf-like fp32 scratch buffers: one for
 *   the cast input, and a second work buffer only when a step after the first reads the input
 *   again (gelu, silu); on fp32 they compute in the output buffer.  Dependent vector steps are
 *   separated by pipe_barrier(V) as in Ascend C's activation code.  The references compute the
 *   same formulas in double and round once, which is within the dtype tolerance (no tol_scale).
 * - tanh(x) = 2 / (1 + exp(-2x)) - 1 (vmuls -2, vexp, vadds 1, vrec, vmuls 2, vadds -1): it
 *   saturates cleanly (exp overflowing to inf gives -1, underflowing to 0 gives 1), and near 0,
 *   where it cancels, its absolute error is a few fp32 ulps of 1 (~3e-7), far inside the fp16
 *   and fp32 tolerances (atol 1e-3, 1e-5) on the [-1, 1) inputs of --check.
 * - The activations and unary math of issue 19 (hardsigmoid ... atanh) are step tables too, with a
 *   second fp32 work buffer T where a formula needs two intermediate values (selu, celu, logsigmoid,
 *   asinh, atanh).  Each is an exact identity of the function built from vector instructions, so its
 *   error is the instructions' rounding (a few fp32 ulps of each step), not an approximation's:
 *   max(x, 0) = x - min(x, 0) (selu, celu); logsigmoid = min(x, 0) - ln(1 + exp(-|x|)) (no overflow);
 *   mish's tanh(ln(1 + e^x)) = 1 - 2 / ((1 + e^x)^2 + 1) with e^x of min(x, 20); sign saturates
 *   x * 2^100 * 2^100 into [-1, 1]; floor / ceil / round / trunc are one vconv f32 -> f32 with the
 *   rounding mode F / C / R / Z (exact, docs/SEMANTICS.md 2.1); acosh, asinh (on |x|, the sign put
 *   back), atanh are their logarithm forms.  expm1 and log1p are exp(x) - 1 and ln(1 + x): their
 *   absolute error near 0 is an fp32 ulp of 1 (~1.2e-7), inside the fp16 / fp32 tolerances.
 *   celu's alpha and softshrink's lambd are --scalar (steps marked S_MUL / S_DIV scale by it).
 * - The backward forms (sigmoid_backward ... softsign_backward) are binary step tables: X the
 *   gradient, Y self or the forward's output (on fp16 both cast to fp32 scratch).  A strict
 *   comparison c > 0 is computed without a select as min(max(c * 2^100 * 2^100, 0), 1), exactly 1 or
 *   0 for every finite fp32 c (the smallest subnormal times 2^200 exceeds 1), then multiplied in:
 *   threshold / shrink / hardsigmoid backward, hardshrink, and selu_backward's r > 0 branch.
 * - s20-ew2 adds two more fp32 work buffers (U, V), a third input w (addcmul, addcdiv, lerp: a fourth queue) and
 *   up to three attributes per operator (steps marked S_MUL2 / S_MUL3 scale by the second and third).  atan
 *   clamps to +-2^60, takes three half-angle steps u / (1 + sqrt(1 + u^2)) (exact identities) to |u| < 0.2,
 *   then Taylor to u^13 (truncation below 3e-10 relative); asin = atan(x / sqrt((1 - x)(1 + x))), acos =
 *   pi/2 - asin; tan = sin / cos and sinc = sin(pi x) / (pi x) with sin by an odd Taylor to x^19 on [-pi, pi]
 *   after rint reduction (truncation below 6e-10; near pi the fp32 sum of terms up to 5 costs ~1e-6 absolute).
 *   Comparisons and special values are branch-free indicators I(v > 0) as for the backward forms: atan2's
 *   axes and origin, sinc at 0, pow's sign for an odd whole exponent (m = y - 2 floor(y / 2)), its NaN for a
 *   negative base and a fractional exponent (sqrt of -|I (y - rint(y))|) and x^0 = 1, xlogy's 0 at x = 0,
 *   heaviside, threshold, softplus' linear part.  pows picks its steps from the exponent in the plan (x, x*x,
 *   sqrt, ... or exp(p ln|x|)).  Infinite inputs: an indicator times inf is NaN, so steps that multiply a
 *   possibly infinite value by one first clamp it to +-FLT_MAX where the other branch is taken (threshold,
 *   elu, softplus); log_add_exp of two equal infinities, atan2 of two infinities, xlogy(0, inf) and
 *   pow(inf, 0) are NaN.  softplus' ln(1 + exp(-|bx|)) is absolute (~1e-7), not relative, for very negative x.
 * - add and sub take --alpha (z = x +- alpha * y, aclnnAdd / aclnnSub).  At 1 the kernel is the
 *   plain vadd / vsub; otherwise each tile's alpha * y is first computed into the output buffer by
 *   vmuls with alpha rounded to the dtype (integers: a whole alpha), then pipe_barrier(V), then
 *   vadd / vsub of x and it; the inputs are never written, so a fused kernel may read y again.
 *   muls and adds (y = x * s, y = x + s) are one vmuls / vadds with --scalar held the same way.
 *   The references round each step as the kernel does, so fp32 and the integers match exactly.
 * - Per-tile work (dv/ops.h dv_tile_ops_t): the compute step works on a dv_tile_t, all
 *   rows x pitch elements of it as one flat range; the standalone kernel's tile is 1 x n, so a
 *   fused kernel issues the same instructions per element as the operator's own kernel.  The tile
 *   state holds the fp32 scratch addresses (setup allocates them for rows x pitch elements).
 * - copy: RxC tiles of a 2-D tensor, each one DMA (R bursts, src_gap skipping the rest of a row),
 *   contiguous runs of tiles per block.  --copies-per-buffer N puts N tiles into one queue buffer
 *   per synchronisation: with N = 1 a 128-B tile waits for the previous copy's latency (two copies
 *   in flight), with larger N many small copies are in flight, as when a kernel fills one UB tile
 *   with many small DataCopy calls.  The default tile 16x1024 double-buffers in UB for every
 *   dtype; the 910B UB holds 64x1024 fp16 (128 KB) only single-buffered.
 * - add / sub --scalar-loop: the tile is computed by the scalar unit, element by element, as the
 *   add_high_performance sample's scalar case (GetValue / SetValue through float): the queues
 *   hand the inputs MTE2 -> S and the output S -> MTE3, and per element two ld_ub, one scalar
 *   instruction of the loop body's ALU work (EW_LOOP_ALU_INSNS x scalar.alu_cycles) and one st_ub.
 *   Each load's value comes back from the model (a hand-off of the kernel thread), so the loop is
 *   slow to simulate: 20-70 us of host time per element on the development machine.  fp16 and
 *   --alpha 1 only; its tile code is the vector unit's, so it cannot join a fused kernel. */
#include "../kernel/kapi_emit.h" /* dvk_<mnemonic> write into the stream (before dv/kapi.h) */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/ops.h"

enum {
    EW_SPLIT_BYTES = 512,     /* block ranges are whole multiples of this */
    EW_TILE_AUTO_MAX = 16384, /* --tile-elems auto: the largest power of two up to this that fits */
    EW_REPEAT_BYTES = 256,    /* vector repeat and datablock (docs/SEMANTICS.md 3.1) */
    EW_BLOCK_BYTES = 32
};

/* ALU instructions per element of a scalar add loop (add --scalar-loop), as the add_high_performance
 * sample writes it: z[i] = (half)((float)x[i] + (float)y[i]) with GetValue / SetValue.  An estimate of
 * compiled code (no disassembly was available), counted from the source: two fp16 -> fp32
 * conversions, the fp32 add, one fp32 -> fp16 conversion (4); one address per access, base + the
 * element's byte offset (3); the loop's step, compare and branch (3).  The loads and the store are
 * ld_ub / st_ub (scalar.load_cycles, scalar.store_cycles). */
#define EW_LOOP_ALU_INSNS 10
#define EW_STR_(x) #x
#define EW_STR(x) EW_STR_(x)

/* gelu (tanh form) = x * sigmoid(2 * sqrt(2/pi) * (x + 0.044715 x^3)) */
#define GELU_CUBIC 0.044715
#define GELU_SCALE 1.5957691216057308 /* 2 * sqrt(2 / pi) */

/* ---- vector steps ---- */
typedef enum vop {
    V_ADD, V_SUB, V_MUL, V_DIV, V_MAX, V_MIN, V_RELU, V_EXP, V_LN, V_SQRT, V_RSQRT, V_REC, V_ABS, V_ADDS, V_MULS,
    V_LRELU, V_MAXS, V_MINS, V_F16_TO_F32, V_F32_TO_F16,
    V_FLOOR, V_CEIL, V_RINT, V_TRUNC /* vconv f32 -> f32 to an integral value, rounding F, C, R, Z */
} vop_t;

/* One step of an activation, in fp32: d = op(a[, b | s]) on the buffers X (the input), W (the
 * work buffer, which ends up holding the result) and T (a second work buffer, fp32 scratch). */
enum { EW_NONE, EW_X, EW_W, EW_T, EW_Y, EW_U, EW_V, EW_Z, EW_BUFS }; /* EW_Y: a binary operator's second input; EW_U,
                                                                     * EW_V a third and fourth work buffer, EW_Z a
                                                                     * ternary operator's third input (s20-ew2) */
enum { S_CONST, S_MUL, S_DIV, S_MUL2, S_MUL3, S_MUL12 }; /* the scalar: s, s * p, s / p, s * p2, s * p3 or s * p * p2
                                                          * (p the operator's --scalar attribute; p2, p3 its second
                                                          * and third, s20-ew2) */
typedef struct ew_step {
    vop_t op;
    uint8_t d, a, b; /* EW_X, EW_W or EW_T; b EW_NONE for a unary op */
    double s;        /* the scalar of V_ADDS / V_MULS / V_MAXS / V_MINS */
    uint8_t ps;      /* S_CONST, S_MUL, S_DIV */
} ew_step_t;

#define EW_BIN(op, d, a, b) {op, d, a, b, 0, S_CONST}
#define EW_UN(op, d, a, s) {op, d, a, EW_NONE, s, S_CONST}
#define EW_UNP(op, d, a, s, ps) {op, d, a, EW_NONE, s, ps}

/* gelu: W = X*X, W = W*X, W = W*c, W = W+X, W = W*-k, W = exp(W), W = W+1, W = X/W */
static const ew_step_t gelu_steps[] = {
    EW_BIN(V_MUL, EW_W, EW_X, EW_X), EW_BIN(V_MUL, EW_W, EW_W, EW_X), EW_UN(V_MULS, EW_W, EW_W, GELU_CUBIC),
    EW_BIN(V_ADD, EW_W, EW_W, EW_X), EW_UN(V_MULS, EW_W, EW_W, -GELU_SCALE), EW_UN(V_EXP, EW_W, EW_W, 0),
    EW_UN(V_ADDS, EW_W, EW_W, 1.0), EW_BIN(V_DIV, EW_W, EW_X, EW_W),
};
/* sigmoid: 1 / (1 + exp(-x)) */
static const ew_step_t sigmoid_steps[] = {
    EW_UN(V_MULS, EW_W, EW_X, -1.0), EW_UN(V_EXP, EW_W, EW_W, 0), EW_UN(V_ADDS, EW_W, EW_W, 1.0),
    EW_UN(V_REC, EW_W, EW_W, 0),
};
/* silu: x / (1 + exp(-x)) */
static const ew_step_t silu_steps[] = {
    EW_UN(V_MULS, EW_W, EW_X, -1.0), EW_UN(V_EXP, EW_W, EW_W, 0), EW_UN(V_ADDS, EW_W, EW_W, 1.0),
    EW_BIN(V_DIV, EW_W, EW_X, EW_W),
};
/* tanh: 2 / (1 + exp(-2x)) - 1 */
static const ew_step_t tanh_steps[] = {
    EW_UN(V_MULS, EW_W, EW_X, -2.0), EW_UN(V_EXP, EW_W, EW_W, 0), EW_UN(V_ADDS, EW_W, EW_W, 1.0),
    EW_UN(V_REC, EW_W, EW_W, 0), EW_UN(V_MULS, EW_W, EW_W, 2.0), EW_UN(V_ADDS, EW_W, EW_W, -1.0),
};

/* ---- activations and unary math (s19-act): step tables in fp32 ---- */
#define EW_LN2 0.69314718055994531
#define EW_LN10 2.3025850929940457
#define SELU_ALPHA 1.6732632423543772
#define SELU_SCALE 1.0507009873554805
#define EW_BIG 1.2676506002282294e30 /* 2^100: two vmuls by it take every nonzero fp32 to |v| >= 1 */
#define EW_MISH_CAP 20.0 /* mish: exp(min(x, 20)); (1 + e^20)^2 stays finite in fp32 and tanh(softplus) is 1 */
#define W EW_W
#define X EW_X
#define T EW_T
/* hardsigmoid (CANN: relu6(x + 3) / 6) = min(max(x / 6 + 0.5, 0), 1) */
static const ew_step_t hardsigmoid_steps[] = {
    EW_UN(V_MULS, W, X, 1.0 / 6), EW_UN(V_ADDS, W, W, 0.5), EW_UN(V_MAXS, W, W, 0), EW_UN(V_MINS, W, W, 1),
};
/* hardswish = x * hardsigmoid(x) */
static const ew_step_t hardswish_steps[] = {
    EW_UN(V_MULS, W, X, 1.0 / 6), EW_UN(V_ADDS, W, W, 0.5), EW_UN(V_MAXS, W, W, 0), EW_UN(V_MINS, W, W, 1),
    EW_BIN(V_MUL, W, W, X),
};
/* selu = scale * (x - m + alpha * (exp(m) - 1)), m = min(x, 0) (max(x, 0) = x - m) */
static const ew_step_t selu_steps[] = {
    EW_UN(V_MINS, T, X, 0), EW_UN(V_EXP, W, T, 0), EW_UN(V_ADDS, W, W, -1), EW_UN(V_MULS, W, W, SELU_ALPHA),
    EW_BIN(V_SUB, W, W, T), EW_BIN(V_ADD, W, W, X), EW_UN(V_MULS, W, W, SELU_SCALE),
};
/* celu(alpha) = x - m + alpha * (exp(m / alpha) - 1), m = min(x, 0) */
static const ew_step_t celu_steps[] = {
    EW_UN(V_MINS, T, X, 0), EW_UNP(V_MULS, W, T, 1, S_DIV), EW_UN(V_EXP, W, W, 0), EW_UN(V_ADDS, W, W, -1),
    EW_UNP(V_MULS, W, W, 1, S_MUL), EW_BIN(V_SUB, W, W, T), EW_BIN(V_ADD, W, W, X),
};
/* mish = x * tanh(ln(1 + e^x)) = x * (1 - 2 / ((1 + e^x)^2 + 1)), e^x of min(x, 20) */
static const ew_step_t mish_steps[] = {
    EW_UN(V_MINS, W, X, EW_MISH_CAP), EW_UN(V_EXP, W, W, 0), EW_UN(V_ADDS, W, W, 1), EW_BIN(V_MUL, W, W, W),
    EW_UN(V_ADDS, W, W, 1), EW_UN(V_REC, W, W, 0), EW_UN(V_MULS, W, W, -2), EW_UN(V_ADDS, W, W, 1),
    EW_BIN(V_MUL, W, W, X),
};
/* softsign = x / (1 + |x|) */
static const ew_step_t softsign_steps[] = {
    EW_UN(V_ABS, W, X, 0), EW_UN(V_ADDS, W, W, 1), EW_BIN(V_DIV, W, X, W),
};
/* logsigmoid = min(x, 0) - ln(1 + exp(-|x|)) (no overflow for any x) */
static const ew_step_t logsigmoid_steps[] = {
    EW_UN(V_ABS, W, X, 0), EW_UN(V_MULS, W, W, -1), EW_UN(V_EXP, W, W, 0), EW_UN(V_ADDS, W, W, 1),
    EW_UN(V_LN, W, W, 0), EW_UN(V_MINS, T, X, 0), EW_BIN(V_SUB, W, T, W),
};
/* softshrink(lambd) = x - clamp(x, -lambd, lambd) */
static const ew_step_t softshrink_steps[] = {
    EW_UNP(V_MAXS, W, X, -1, S_MUL), EW_UNP(V_MINS, W, W, 1, S_MUL), EW_BIN(V_SUB, W, X, W),
};
static const ew_step_t square_steps[] = {EW_BIN(V_MUL, W, X, X)};
static const ew_step_t expm1_steps[] = {EW_UN(V_EXP, W, X, 0), EW_UN(V_ADDS, W, W, -1)};
static const ew_step_t exp2_steps[] = {EW_UN(V_MULS, W, X, EW_LN2), EW_UN(V_EXP, W, W, 0)};
static const ew_step_t log1p_steps[] = {EW_UN(V_ADDS, W, X, 1), EW_UN(V_LN, W, W, 0)};
static const ew_step_t log2_steps[] = {EW_UN(V_LN, W, X, 0), EW_UN(V_MULS, W, W, 1 / EW_LN2)};
static const ew_step_t log10_steps[] = {EW_UN(V_LN, W, X, 0), EW_UN(V_MULS, W, W, 1 / EW_LN10)};
/* sign = min(max(x * 2^100 * 2^100, -1), 1): 0 stays 0, every other value saturates to +-1 */
static const ew_step_t sign_steps[] = {
    EW_UN(V_MULS, W, X, EW_BIG), EW_UN(V_MULS, W, W, EW_BIG), EW_UN(V_MAXS, W, W, -1), EW_UN(V_MINS, W, W, 1),
};
/* floor, ceil, round (half to even), trunc: one vconv f32 -> f32 with the rounding mode (exact) */
static const ew_step_t floor_steps[] = {EW_UN(V_FLOOR, W, X, 0)};
static const ew_step_t ceil_steps[] = {EW_UN(V_CEIL, W, X, 0)};
static const ew_step_t round_steps[] = {EW_UN(V_RINT, W, X, 0)};
static const ew_step_t trunc_steps[] = {EW_UN(V_TRUNC, W, X, 0)};
/* acosh = ln(x + sqrt(x^2 - 1)), x >= 1 */
static const ew_step_t acosh_steps[] = {
    EW_BIN(V_MUL, W, X, X), EW_UN(V_ADDS, W, W, -1), EW_UN(V_SQRT, W, W, 0), EW_BIN(V_ADD, W, W, X),
    EW_UN(V_LN, W, W, 0),
};
/* asinh = sign(x) * ln(|x| + sqrt(x^2 + 1)) (on |x|: no cancellation for negative x) */
static const ew_step_t asinh_steps[] = {
    EW_UN(V_ABS, T, X, 0), EW_BIN(V_MUL, W, T, T), EW_UN(V_ADDS, W, W, 1), EW_UN(V_SQRT, W, W, 0),
    EW_BIN(V_ADD, W, W, T), EW_UN(V_LN, W, W, 0), EW_UN(V_MULS, T, X, EW_BIG), EW_UN(V_MULS, T, T, EW_BIG),
    EW_UN(V_MAXS, T, T, -1), EW_UN(V_MINS, T, T, 1), EW_BIN(V_MUL, W, W, T),
};
/* atanh = 0.5 * ln((1 + x) / (1 - x)), |x| < 1 */
static const ew_step_t atanh_steps[] = {
    EW_UN(V_MULS, W, X, -1), EW_UN(V_ADDS, W, W, 1), EW_UN(V_ADDS, T, X, 1), EW_BIN(V_DIV, W, T, W),
    EW_UN(V_LN, W, W, 0), EW_UN(V_MULS, W, W, 0.5),
};
/* sinh, cosh = (exp(x) -+ exp(-x)) / 2 */
static const ew_step_t sinh_steps[] = {
    EW_UN(V_MULS, T, X, -1), EW_UN(V_EXP, T, T, 0), EW_UN(V_EXP, W, X, 0), EW_BIN(V_SUB, W, W, T),
    EW_UN(V_MULS, W, W, 0.5),
};
static const ew_step_t cosh_steps[] = {
    EW_UN(V_MULS, T, X, -1), EW_UN(V_EXP, T, T, 0), EW_UN(V_EXP, W, X, 0), EW_BIN(V_ADD, W, W, T),
    EW_UN(V_MULS, W, W, 0.5),
};
/* erf: Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7): t = 1 / (1 + p |x|), sign(x) (1 -
 * t (a1 + t (a2 + t (a3 + t (a4 + t a5)))) exp(-x^2)), sign(x) as sign's steps; erfc = 1 - erf */
#define ERF_STEPS                                                                                              \
    EW_UN(V_ABS, T, X, 0), EW_UN(V_MULS, T, T, 0.3275911), EW_UN(V_ADDS, T, T, 1), EW_UN(V_REC, T, T, 0),      \
        EW_UN(V_MULS, W, T, 1.061405429), EW_UN(V_ADDS, W, W, -1.453152027), EW_BIN(V_MUL, W, W, T),           \
        EW_UN(V_ADDS, W, W, 1.421413741), EW_BIN(V_MUL, W, W, T), EW_UN(V_ADDS, W, W, -0.284496736),           \
        EW_BIN(V_MUL, W, W, T), EW_UN(V_ADDS, W, W, 0.254829592), EW_BIN(V_MUL, W, W, T), EW_BIN(V_MUL, T, X, X), \
        EW_UN(V_MULS, T, T, -1), EW_UN(V_EXP, T, T, 0), EW_BIN(V_MUL, W, W, T), EW_UN(V_MULS, W, W, -1),       \
        EW_UN(V_ADDS, W, W, 1), EW_UN(V_MULS, T, X, EW_BIG), EW_UN(V_MULS, T, T, EW_BIG), EW_UN(V_MAXS, T, T, -1), \
        EW_UN(V_MINS, T, T, 1), EW_BIN(V_MUL, W, W, T)
static const ew_step_t erf_steps[] = {ERF_STEPS};
static const ew_step_t erfc_steps[] = {ERF_STEPS, EW_UN(V_MULS, W, W, -1), EW_UN(V_ADDS, W, W, 1)};
#undef ERF_STEPS
/* cos: r = x - 2 pi rint(x / 2 pi) in [-pi, pi], then sum_{j<=9} (-1)^j r^2j / (2j)! by Horner in r^2
 * (error below 4e-9 on [-pi, pi]; the reduction is exact only while 2 pi k is small); sin(x) = cos(x -
 * pi / 2), reduced the same way. */
#define EW_PI 3.14159265358979323846
#define COS_POLY                                                                                               \
    EW_BIN(V_MUL, W, T, T), EW_UN(V_MULS, T, W, -1.5619206968586225e-16), EW_UN(V_ADDS, T, T, 4.779477332387385e-14), \
        EW_BIN(V_MUL, T, T, W), EW_UN(V_ADDS, T, T, -1.1470745597729725e-11), EW_BIN(V_MUL, T, T, W),          \
        EW_UN(V_ADDS, T, T, 2.08767569878681e-09), EW_BIN(V_MUL, T, T, W),                                     \
        EW_UN(V_ADDS, T, T, -2.755731922398589e-07), EW_BIN(V_MUL, T, T, W),                                   \
        EW_UN(V_ADDS, T, T, 2.48015873015873e-05), EW_BIN(V_MUL, T, T, W),                                     \
        EW_UN(V_ADDS, T, T, -0.001388888888888889), EW_BIN(V_MUL, T, T, W),                                    \
        EW_UN(V_ADDS, T, T, 0.041666666666666664), EW_BIN(V_MUL, T, T, W), EW_UN(V_ADDS, T, T, -0.5),          \
        EW_BIN(V_MUL, T, T, W), EW_UN(V_ADDS, W, T, 1)
static const ew_step_t cos_steps[] = {
    EW_UN(V_MULS, T, X, 1 / (2 * EW_PI)), EW_UN(V_RINT, T, T, 0), EW_UN(V_MULS, T, T, -2 * EW_PI),
    EW_BIN(V_ADD, T, T, X), COS_POLY,
};
static const ew_step_t sin_steps[] = {
    EW_UN(V_MULS, T, X, 1 / (2 * EW_PI)), EW_UN(V_ADDS, T, T, -0.25), EW_UN(V_RINT, T, T, 0),
    EW_UN(V_MULS, T, T, -2 * EW_PI), EW_BIN(V_ADD, T, T, X), EW_UN(V_ADDS, T, T, -EW_PI / 2), COS_POLY,
};
/* The backward forms: X is gradOutput, Y self (or the forward's result); I(c) = min(max(v * 2^100 *
 * 2^100, 0), 1) is exactly 1 where v > 0 and 0 elsewhere. */
#define Y EW_Y
#define IND(buf) EW_UN(V_MULS, buf, buf, EW_BIG), EW_UN(V_MULS, buf, buf, EW_BIG), EW_UN(V_MAXS, buf, buf, 0), \
                 EW_UN(V_MINS, buf, buf, 1)
/* sigmoid_backward = g * y * (1 - y), y the forward's output */
static const ew_step_t sigmoid_bw_steps[] = {
    EW_UN(V_MULS, W, Y, -1), EW_UN(V_ADDS, W, W, 1), EW_BIN(V_MUL, W, W, Y), EW_BIN(V_MUL, W, W, X),
};
/* tanh_backward = g * (1 - y^2) */
static const ew_step_t tanh_bw_steps[] = {
    EW_BIN(V_MUL, W, Y, Y), EW_UN(V_MULS, W, W, -1), EW_UN(V_ADDS, W, W, 1), EW_BIN(V_MUL, W, W, X),
};
/* hardsigmoid_backward = g / 6 * I(3 - |x| > 0) */
static const ew_step_t hardsigmoid_bw_steps[] = {
    EW_UN(V_ABS, W, Y, 0), EW_UN(V_MULS, W, W, -1), EW_UN(V_ADDS, W, W, 3), IND(W), EW_BIN(V_MUL, W, W, X),
    EW_UN(V_MULS, W, W, 1.0 / 6),
};
/* threshold_backward(threshold) = g * I(x - threshold > 0) */
static const ew_step_t threshold_bw_steps[] = {
    EW_UNP(V_ADDS, W, Y, -1, S_MUL), IND(W), EW_BIN(V_MUL, W, W, X),
};
/* softshrink_backward(lambd), hardshrink_backward(lambd) = g * I(|x| - lambd > 0) */
static const ew_step_t shrink_bw_steps[] = {
    EW_UN(V_ABS, W, Y, 0), EW_UNP(V_ADDS, W, W, -1, S_MUL), IND(W), EW_BIN(V_MUL, W, W, X),
};
/* hardshrink(lambd) = x * I(|x| - lambd > 0) */
static const ew_step_t hardshrink_steps[] = {
    EW_UN(V_ABS, W, X, 0), EW_UNP(V_ADDS, W, W, -1, S_MUL), IND(W), EW_BIN(V_MUL, W, W, X),
};
/* selu_backward(g, r), r the forward's result: d = r > 0 ? scale : r + scale * alpha, as
 * (r + sa) + I(r) * (scale - r - sa) */
static const ew_step_t selu_bw_steps[] = {
    EW_UN(V_MULS, T, Y, 1), IND(T), EW_UN(V_MULS, W, Y, -1), EW_UN(V_ADDS, W, W, SELU_SCALE - SELU_SCALE * SELU_ALPHA),
    EW_BIN(V_MUL, W, W, T), EW_BIN(V_ADD, W, W, Y), EW_UN(V_ADDS, W, W, SELU_SCALE * SELU_ALPHA),
    EW_BIN(V_MUL, W, W, X),
};
/* silu_backward = g * s * (1 + x * (1 - s)), s = sigmoid(x) */
static const ew_step_t silu_bw_steps[] = {
    EW_UN(V_MULS, T, Y, -1), EW_UN(V_EXP, T, T, 0), EW_UN(V_ADDS, T, T, 1), EW_UN(V_REC, T, T, 0),
    EW_UN(V_MULS, W, T, -1), EW_UN(V_ADDS, W, W, 1), EW_BIN(V_MUL, W, W, Y), EW_UN(V_ADDS, W, W, 1),
    EW_BIN(V_MUL, W, W, T), EW_BIN(V_MUL, W, W, X),
};
/* softsign_backward = g / (1 + |x|)^2 */
static const ew_step_t softsign_bw_steps[] = {
    EW_UN(V_ABS, W, Y, 0), EW_UN(V_ADDS, W, W, 1), EW_BIN(V_MUL, W, W, W), EW_BIN(V_DIV, W, X, W),
};
/* ---- s20-ew2: trigonometry, pow, more activations and backward forms (U: a third work buffer) ---- */
#define U EW_U
#define V EW_V
#define EW_ATAN_CAP 1.152921504606846976e18 /* 2^60: atan(2^60) is pi/2 in fp32, and its square stays finite */
/* atan(v) of src into W: v clamped to [-2^60, 2^60], three halvings u -> u / (1 + sqrt(1 + u^2)) (atan(u) =
 * 2 atan(that), exact identities) leave |u| < tan(pi/16) < 0.2, then u (1 - u^2/3 + u^4/5 - ... + u^12/13)
 * by Horner in u^2 (truncation error below 3e-10 relative) and times 8.  Uses T and U. */
#define ATAN_HALVE EW_BIN(V_MUL, T, W, W), EW_UN(V_ADDS, T, T, 1), EW_UN(V_SQRT, T, T, 0), EW_UN(V_ADDS, T, T, 1), \
                   EW_BIN(V_DIV, W, W, T)
#define ATAN_OF(src)                                                                                            \
    EW_UN(V_MAXS, W, src, -EW_ATAN_CAP), EW_UN(V_MINS, W, W, EW_ATAN_CAP), ATAN_HALVE, ATAN_HALVE, ATAN_HALVE,  \
        EW_BIN(V_MUL, T, W, W), EW_UN(V_MULS, U, T, 1.0 / 13), EW_UN(V_ADDS, U, U, -1.0 / 11), EW_BIN(V_MUL, U, U, T), \
        EW_UN(V_ADDS, U, U, 1.0 / 9), EW_BIN(V_MUL, U, U, T), EW_UN(V_ADDS, U, U, -1.0 / 7), EW_BIN(V_MUL, U, U, T), \
        EW_UN(V_ADDS, U, U, 1.0 / 5), EW_BIN(V_MUL, U, U, T), EW_UN(V_ADDS, U, U, -1.0 / 3), EW_BIN(V_MUL, U, U, T), \
        EW_UN(V_ADDS, U, U, 1), EW_BIN(V_MUL, W, W, U), EW_UN(V_MULS, W, W, 8)
/* sin(v) of src into T, keeping its relative accuracy near 0: r = v - 2 pi rint(v / 2 pi) in [-pi, pi] (r = v
 * for |v| < pi), then r sum_{k<=9} (-1)^k r^2k / (2k + 1)! by Horner in r^2 (truncation below 6e-10 on
 * [-pi, pi]).  Uses W and V. */
#define SIN_OF(src)                                                                                             \
    EW_UN(V_MULS, T, src, 1 / (2 * EW_PI)), EW_UN(V_RINT, T, T, 0), EW_UN(V_MULS, T, T, -2 * EW_PI),            \
        EW_BIN(V_ADD, T, T, src), EW_BIN(V_MUL, W, T, T), EW_UN(V_MULS, V, W, -1.0 / 121645100408832000.0),     \
        EW_UN(V_ADDS, V, V, 1.0 / 355687428096000.0), EW_BIN(V_MUL, V, V, W),                                   \
        EW_UN(V_ADDS, V, V, -1.0 / 1307674368000.0), EW_BIN(V_MUL, V, V, W),                                    \
        EW_UN(V_ADDS, V, V, 1.0 / 6227020800.0), EW_BIN(V_MUL, V, V, W), EW_UN(V_ADDS, V, V, -1.0 / 39916800.0), \
        EW_BIN(V_MUL, V, V, W), EW_UN(V_ADDS, V, V, 1.0 / 362880.0), EW_BIN(V_MUL, V, V, W),                    \
        EW_UN(V_ADDS, V, V, -1.0 / 5040.0), EW_BIN(V_MUL, V, V, W), EW_UN(V_ADDS, V, V, 1.0 / 120.0),          \
        EW_BIN(V_MUL, V, V, W), EW_UN(V_ADDS, V, V, -1.0 / 6.0), EW_BIN(V_MUL, V, V, W), EW_UN(V_ADDS, V, V, 1), \
        EW_BIN(V_MUL, T, T, V)
static const ew_step_t atan_steps[] = {ATAN_OF(X)};
/* asin = atan(x / sqrt((1 - x)(1 + x))) (the product form keeps 1 - x^2 accurate near |x| = 1; +-1 gives
 * +-inf, clamped: +-pi/2); acos = pi/2 - asin */
#define ASIN_STEPS                                                                                              \
    EW_UN(V_MULS, T, X, -1), EW_UN(V_ADDS, T, T, 1), EW_UN(V_ADDS, U, X, 1), EW_BIN(V_MUL, T, T, U),            \
        EW_UN(V_SQRT, T, T, 0), EW_BIN(V_DIV, W, X, T), ATAN_OF(W)
static const ew_step_t asin_steps[] = {ASIN_STEPS};
static const ew_step_t acos_steps[] = {ASIN_STEPS, EW_UN(V_MULS, W, W, -1), EW_UN(V_ADDS, W, W, EW_PI / 2)};
#undef ASIN_STEPS
/* tan = sin / cos: cos's steps (kept in U), then SIN_OF (so tan keeps its relative accuracy near 0) */
static const ew_step_t tan_steps[] = {
    EW_UN(V_MULS, T, X, 1 / (2 * EW_PI)), EW_UN(V_RINT, T, T, 0), EW_UN(V_MULS, T, T, -2 * EW_PI),
    EW_BIN(V_ADD, T, T, X), COS_POLY, EW_UN(V_MULS, U, W, 1), SIN_OF(X), EW_BIN(V_DIV, W, T, U),
};
/* sinc = sin(pi x) / (pi x), 1 at 0: e = 1 - I(|x| > 0) is added to both (1 / 1 at x = 0, nothing elsewhere);
 * r / (pi x) is exactly 1 for |x| < 1/2, so sinc is as accurate near 0 as the polynomial */
static const ew_step_t sinc_steps[] = {
    EW_UN(V_MULS, U, X, EW_PI), SIN_OF(U), EW_UN(V_ABS, W, X, 0), IND(W), EW_UN(V_MULS, W, W, -1),
    EW_UN(V_ADDS, W, W, 1), EW_BIN(V_ADD, T, T, W), EW_BIN(V_ADD, U, U, W), EW_BIN(V_DIV, W, T, U),
};
/* fast_gelu = x / (1 + exp(-1.702 x)) (CANN's FastGelu) */
#define FAST_GELU_K 1.702
static const ew_step_t fast_gelu_steps[] = {
    EW_UN(V_MULS, W, X, -FAST_GELU_K), EW_UN(V_EXP, W, W, 0), EW_UN(V_ADDS, W, W, 1), EW_BIN(V_DIV, W, X, W),
};
/* swish(beta) = x / (1 + exp(-beta x)) */
static const ew_step_t swish_steps[] = {
    EW_UNP(V_MULS, W, X, -1, S_MUL), EW_UN(V_EXP, W, W, 0), EW_UN(V_ADDS, W, W, 1), EW_BIN(V_DIV, W, X, W),
};
/* pows (x^p, p the --scalar): the plan picks one of these by p (EW_POW_*); p = 0 fills 1 (vdup) */
enum { EW_POW_GENERIC, EW_POW_EVEN, EW_POW_ODD, EW_POW_ONE, EW_POW_TWO, EW_POW_THREE, EW_POW_HALF, EW_POW_MHALF,
       EW_POW_MONE, EW_POW_MTWO, EW_POW_ZERO, EW_POW_PROGS };
static const ew_step_t pows_generic_steps[] = { /* exp(p ln x): x < 0 is NaN (ln), 0 is 0 or inf */
    EW_UN(V_LN, W, X, 0), EW_UNP(V_MULS, W, W, 1, S_MUL), EW_UN(V_EXP, W, W, 0),
};
static const ew_step_t pows_even_steps[] = { /* a whole even p: exp(p ln |x|) */
    EW_UN(V_ABS, W, X, 0), EW_UN(V_LN, W, W, 0), EW_UNP(V_MULS, W, W, 1, S_MUL), EW_UN(V_EXP, W, W, 0),
};
static const ew_step_t pows_odd_steps[] = { /* a whole odd p: exp(p ln |x|) * (1 - 2 I(x < 0)) */
    EW_UN(V_ABS, W, X, 0), EW_UN(V_LN, W, W, 0), EW_UNP(V_MULS, W, W, 1, S_MUL), EW_UN(V_EXP, W, W, 0),
    EW_UN(V_MULS, T, X, -1), IND(T), EW_UN(V_MULS, T, T, -2), EW_UN(V_ADDS, T, T, 1), EW_BIN(V_MUL, W, W, T),
};
static const ew_step_t pows_one_steps[] = {EW_UN(V_MULS, W, X, 1)};
static const ew_step_t pows_two_steps[] = {EW_BIN(V_MUL, W, X, X)};
static const ew_step_t pows_three_steps[] = {EW_BIN(V_MUL, W, X, X), EW_BIN(V_MUL, W, W, X)};
static const ew_step_t pows_half_steps[] = {EW_UN(V_SQRT, W, X, 0)};
static const ew_step_t pows_mhalf_steps[] = {EW_UN(V_RSQRT, W, X, 0)};
static const ew_step_t pows_mone_steps[] = {EW_UN(V_REC, W, X, 0)};
static const ew_step_t pows_mtwo_steps[] = {EW_BIN(V_MUL, W, X, X), EW_UN(V_REC, W, W, 0)};
/* pow(x, y) (two tensors) = exp(y ln(|x| + (y == 0))) (x^0 = 1 for every finite x), times -1 where x < 0 and y
 * is odd (m = y - 2 floor(y / 2) is 1), plus sqrt(-|I(x < 0) (y - rint(y))|): NaN where x < 0 and y is not
 * whole, -0 (nothing) elsewhere */
static const ew_step_t pow_steps[] = {
    EW_UN(V_ABS, T, Y, 0), IND(T), EW_UN(V_MULS, T, T, -1), EW_UN(V_ADDS, T, T, 1), EW_UN(V_ABS, W, X, 0),
    EW_BIN(V_ADD, W, W, T), EW_UN(V_LN, W, W, 0), EW_BIN(V_MUL, W, W, Y), EW_UN(V_EXP, W, W, 0),
    EW_UN(V_MULS, T, Y, 0.5), EW_UN(V_FLOOR, T, T, 0), EW_UN(V_MULS, T, T, -2), EW_BIN(V_ADD, T, T, Y),
    EW_UN(V_MULS, U, X, -1), IND(U), EW_BIN(V_MUL, T, T, U), EW_UN(V_MULS, T, T, -2), EW_UN(V_ADDS, T, T, 1),
    EW_BIN(V_MUL, W, W, T), EW_UN(V_RINT, T, Y, 0), EW_BIN(V_SUB, T, Y, T), EW_BIN(V_MUL, T, T, U),
    EW_UN(V_ABS, T, T, 0), EW_UN(V_MULS, T, T, -1), EW_UN(V_SQRT, T, T, 0), EW_BIN(V_ADD, W, W, T),
};
/* atan2(self, other) = atan(n / d) + pi I(other < 0) s(self), with s = 1 - 2 I(self < 0) (+1 at 0); where other
 * is 0, e = 1: d = other + e = 1 and n = self * (1 + e 2^100)^2 (so +-pi/2 for any nonzero self, 0 at 0, 0) */
static const ew_step_t atan2_steps[] = {
    EW_UN(V_ABS, T, Y, 0), IND(T), EW_UN(V_MULS, T, T, -1), EW_UN(V_ADDS, T, T, 1), EW_BIN(V_ADD, U, Y, T),
    EW_UN(V_MULS, T, T, EW_BIG), EW_UN(V_ADDS, T, T, 1), EW_BIN(V_MUL, W, X, T), EW_BIN(V_MUL, W, W, T),
    EW_BIN(V_DIV, W, W, U), ATAN_OF(W), EW_UN(V_MULS, T, Y, -1), IND(T), EW_UN(V_MULS, U, X, -1), IND(U),
    EW_UN(V_MULS, U, U, -2), EW_UN(V_ADDS, U, U, 1), EW_BIN(V_MUL, T, T, U), EW_UN(V_MULS, T, T, EW_PI),
    EW_BIN(V_ADD, W, W, T),
};
/* gelu_backward (the tanh form's derivative) = g (s + x s (1 - s) k (1 + 3 c x^2)), s = sigmoid(k (x + c x^3)) */
static const ew_step_t gelu_bw_steps[] = {
    EW_BIN(V_MUL, T, Y, Y), EW_UN(V_MULS, T, T, GELU_CUBIC), EW_UN(V_ADDS, T, T, 1), EW_BIN(V_MUL, T, T, Y),
    EW_UN(V_MULS, T, T, -GELU_SCALE), EW_UN(V_EXP, T, T, 0), EW_UN(V_ADDS, T, T, 1), EW_UN(V_REC, T, T, 0),
    EW_UN(V_MULS, W, T, -1), EW_UN(V_ADDS, W, W, 1), EW_BIN(V_MUL, W, W, T), EW_BIN(V_MUL, U, Y, Y),
    EW_UN(V_MULS, U, U, 3 * GELU_CUBIC), EW_UN(V_ADDS, U, U, 1), EW_UN(V_MULS, U, U, GELU_SCALE),
    EW_BIN(V_MUL, U, U, Y), EW_BIN(V_MUL, W, W, U), EW_BIN(V_ADD, W, W, T), EW_BIN(V_MUL, W, W, X),
};
/* hardswish_backward = g * (x < -3 ? 0 : x > 3 ? 1 : x / 3 + 0.5): v (1 - b) + b with b = I(x > 3), times
 * a = 1 - I(x < -3) */
static const ew_step_t hardswish_bw_steps[] = {
    EW_UN(V_ADDS, U, Y, -3), IND(U), EW_UN(V_MULS, W, Y, 1.0 / 3), EW_UN(V_ADDS, W, W, 0.5), EW_BIN(V_MUL, T, W, U),
    EW_BIN(V_SUB, W, W, T), EW_BIN(V_ADD, W, W, U), EW_UN(V_MULS, T, Y, -1), EW_UN(V_ADDS, T, T, -3), IND(T),
    EW_UN(V_MULS, T, T, -1), EW_UN(V_ADDS, T, T, 1), EW_BIN(V_MUL, W, W, T), EW_BIN(V_MUL, W, W, X),
};
/* mish_backward = g (tanh(sp) + 4 x e (1 + e) / (q + 1)^2), e = exp(min(x, 20)), q = (1 + e)^2,
 * tanh(sp) = 1 - 2 / (q + 1) */
static const ew_step_t mish_bw_steps[] = {
    EW_UN(V_MINS, T, Y, EW_MISH_CAP), EW_UN(V_EXP, T, T, 0), EW_UN(V_ADDS, U, T, 1), EW_BIN(V_MUL, W, U, U),
    EW_UN(V_ADDS, W, W, 1), EW_BIN(V_MUL, U, U, T), EW_BIN(V_MUL, U, U, Y), EW_UN(V_MULS, U, U, 4),
    EW_BIN(V_MUL, T, W, W), EW_BIN(V_DIV, U, U, T), EW_UN(V_REC, W, W, 0), EW_UN(V_MULS, W, W, -2),
    EW_UN(V_ADDS, W, W, 1), EW_BIN(V_ADD, W, W, U), EW_BIN(V_MUL, W, W, X),
};
/* logsigmoid_backward = g / (1 + exp(x)) */
static const ew_step_t logsigmoid_bw_steps[] = {
    EW_UN(V_EXP, W, Y, 0), EW_UN(V_ADDS, W, W, 1), EW_BIN(V_DIV, W, X, W),
};
/* swish_backward(beta) = g (s + beta x s (1 - s)), s = sigmoid(beta x) */
static const ew_step_t swish_bw_steps[] = {
    EW_UNP(V_MULS, T, Y, -1, S_MUL), EW_UN(V_EXP, T, T, 0), EW_UN(V_ADDS, T, T, 1), EW_UN(V_REC, T, T, 0),
    EW_UN(V_MULS, W, T, -1), EW_UN(V_ADDS, W, W, 1), EW_BIN(V_MUL, W, W, T), EW_BIN(V_MUL, W, W, Y),
    EW_UNP(V_MULS, W, W, 1, S_MUL), EW_BIN(V_ADD, W, W, T), EW_BIN(V_MUL, W, W, X),
};
/* leaky_relu_backward(slope) = g I(x > 0) + g slope (1 - I(x > 0)) (one of the two terms is 0: exact) */
static const ew_step_t leaky_relu_bw_steps[] = {
    EW_UN(V_MULS, T, Y, 1), IND(T), EW_BIN(V_MUL, W, X, T), EW_UN(V_MULS, U, T, -1), EW_UN(V_ADDS, U, U, 1),
    EW_BIN(V_MUL, U, U, X), EW_UNP(V_MULS, U, U, 1, S_MUL), EW_BIN(V_ADD, W, W, U),
};
/* threshold(th, value) = I(x > th) max(x, -FLT_MAX) + (1 - I) value (one term is 0: exact; -inf gives value) */
static const ew_step_t threshold_steps[] = {
    EW_UNP(V_ADDS, T, X, -1, S_MUL), IND(T), EW_UN(V_MAXS, W, X, -FLT_MAX), EW_BIN(V_MUL, W, W, T),
    EW_UN(V_MULS, T, T, -1), EW_UN(V_ADDS, T, T, 1), EW_UNP(V_MULS, T, T, 1, S_MUL2), EW_BIN(V_ADD, W, W, T),
};
/* hardtanh_backward(min, max) = g I(x > min) I(max > x) */
static const ew_step_t hardtanh_bw_steps[] = {
    EW_UNP(V_ADDS, T, Y, -1, S_MUL), IND(T), EW_UN(V_MULS, W, Y, -1), EW_UNP(V_ADDS, W, W, 1, S_MUL2), IND(W),
    EW_BIN(V_MUL, W, W, T), EW_BIN(V_MUL, W, W, X),
};
/* elu(alpha, scale, input_scale) = scale (max(x, 0) + alpha (exp(input_scale m) - 1)), m = min(x, 0) held above
 * -FLT_MAX (so -inf gives -scale alpha) */
static const ew_step_t elu_steps[] = {
    EW_UN(V_MINS, T, X, 0), EW_UN(V_MAXS, T, T, -FLT_MAX), EW_UNP(V_MULS, W, T, 1, S_MUL3), EW_UN(V_EXP, W, W, 0),
    EW_UN(V_ADDS, W, W, -1), EW_UNP(V_MULS, W, W, 1, S_MUL), EW_UN(V_MAXS, U, X, 0), EW_BIN(V_ADD, W, W, U),
    EW_UNP(V_MULS, W, W, 1, S_MUL2),
};
/* softplus(beta, threshold) = I(beta x > threshold) x + (1 - I) sp, sp = (max(bx, 0) + ln(1 + exp(-|bx|))) / beta
 * (no overflow; held below FLT_MAX so that 0 * sp is 0) */
static const ew_step_t softplus_steps[] = {
    EW_UNP(V_MULS, T, X, 1, S_MUL), EW_UN(V_ABS, U, T, 0), EW_UN(V_MULS, U, U, -1), EW_UN(V_EXP, U, U, 0),
    EW_UN(V_ADDS, U, U, 1), EW_UN(V_LN, U, U, 0), EW_UN(V_MAXS, T, T, 0), EW_BIN(V_ADD, U, U, T),
    EW_UNP(V_MULS, U, U, 1, S_DIV), EW_UN(V_MINS, U, U, FLT_MAX), EW_UNP(V_MULS, T, X, 1, S_MUL),
    EW_UNP(V_ADDS, T, T, -1, S_MUL2), IND(T), EW_UN(V_MAXS, W, X, -FLT_MAX), EW_BIN(V_MUL, W, W, T),
    EW_UN(V_MULS, T, T, -1), EW_UN(V_ADDS, T, T, 1), EW_BIN(V_MUL, T, T, U), EW_BIN(V_ADD, W, W, T),
};
/* softplus_backward(beta, threshold) = g (I + (1 - I) sigmoid(beta x)), I = I(beta x > threshold) */
static const ew_step_t softplus_bw_steps[] = {
    EW_UNP(V_MULS, U, Y, -1, S_MUL), EW_UN(V_EXP, U, U, 0), EW_UN(V_ADDS, U, U, 1), EW_UN(V_REC, U, U, 0),
    EW_UNP(V_MULS, T, Y, 1, S_MUL), EW_UNP(V_ADDS, T, T, -1, S_MUL2), IND(T), EW_UN(V_MULS, W, T, -1),
    EW_UN(V_ADDS, W, W, 1), EW_BIN(V_MUL, W, W, U), EW_BIN(V_ADD, W, W, T), EW_BIN(V_MUL, W, W, X),
};
/* log_add_exp = max(a, b) + ln(1 + exp(-|a - b|)); log_add_exp2 the same in base 2 */
static const ew_step_t log_add_exp_steps[] = {
    EW_BIN(V_SUB, T, X, Y), EW_UN(V_ABS, T, T, 0), EW_UN(V_MULS, T, T, -1), EW_UN(V_EXP, T, T, 0),
    EW_UN(V_ADDS, T, T, 1), EW_UN(V_LN, T, T, 0), EW_BIN(V_MAX, W, X, Y), EW_BIN(V_ADD, W, W, T),
};
static const ew_step_t log_add_exp2_steps[] = {
    EW_BIN(V_SUB, T, X, Y), EW_UN(V_ABS, T, T, 0), EW_UN(V_MULS, T, T, -EW_LN2), EW_UN(V_EXP, T, T, 0),
    EW_UN(V_ADDS, T, T, 1), EW_UN(V_LN, T, T, 0), EW_UN(V_MULS, T, T, 1 / EW_LN2), EW_BIN(V_MAX, W, X, Y),
    EW_BIN(V_ADD, W, W, T),
};
/* xlogy = x ln(y), 0 where x is 0: ln(y I(x != 0) + (1 - I)) */
static const ew_step_t xlogy_steps[] = {
    EW_UN(V_ABS, T, X, 0), IND(T), EW_BIN(V_MUL, W, Y, T), EW_UN(V_MULS, U, T, -1), EW_UN(V_ADDS, U, U, 1),
    EW_BIN(V_ADD, W, W, U), EW_UN(V_LN, W, W, 0), EW_BIN(V_MUL, W, W, X),
};
/* heaviside(x, values) = I(x > 0) + (1 - I(x > 0) - I(x < 0)) values */
static const ew_step_t heaviside_steps[] = {
    EW_UN(V_MULS, W, X, 1), IND(W), EW_UN(V_MULS, T, X, -1), IND(T), EW_BIN(V_ADD, T, T, W), EW_UN(V_MULS, T, T, -1),
    EW_UN(V_ADDS, T, T, 1), EW_BIN(V_MUL, T, T, Y), EW_BIN(V_ADD, W, W, T),
};
/* addcmul(value) = x + value y w, addcdiv(value) = x + value y / w: three inputs (the kernel's third queue) */
/* xlogy_scalar_other(s) = x ln(s I(x != 0) + (1 - I)) (xlogy with y the scalar s); xlogy_scalar_self(s) = s ln(y),
 * and for s = 0 y * 0 (0, NaN for a NaN y) */
static const ew_step_t xlogy_so_steps[] = {
    EW_UN(V_ABS, T, X, 0), IND(T), EW_UNP(V_MULS, W, T, 1, S_MUL), EW_UN(V_MULS, U, T, -1), EW_UN(V_ADDS, U, U, 1),
    EW_BIN(V_ADD, W, W, U), EW_UN(V_LN, W, W, 0), EW_BIN(V_MUL, W, W, X),
};
static const ew_step_t xlogy_ss_steps[] = {EW_UN(V_LN, W, X, 0), EW_UNP(V_MULS, W, W, 1, S_MUL)};
static const ew_step_t xlogy_ss_zero_steps[] = {EW_UN(V_MULS, W, X, 0)};
/* erfinv: M. Giles' single-precision approximation ("Approximating the erfinv function", GPU Computing Gems,
 * 2011): w = -ln((1 - x)(1 + x)) (the product held above 2^-126), x p1(w - 2.5) for w < 5, x p2(sqrt(w) - 3)
 * otherwise, both computed and one selected by I(w > 5) (each term exact); |x| >= 1 adds x 2^100 2^100 (+-inf)
 * and |x| > 1 sqrt(-1) (NaN) */
#define EW_TINY 1.1754943508222875e-38 /* 2^-126 */
static const ew_step_t erfinv_steps[] = {
    EW_UN(V_MULS, T, X, -1), EW_UN(V_ADDS, T, T, 1), EW_UN(V_ADDS, U, X, 1), EW_BIN(V_MUL, T, T, U),
    EW_UN(V_MAXS, T, T, EW_TINY), EW_UN(V_LN, T, T, 0), EW_UN(V_MULS, T, T, -1),
    EW_UN(V_ADDS, V, T, -2.5), EW_UN(V_MULS, U, V, 2.81022636e-08), EW_UN(V_ADDS, U, U, 3.43273939e-07),
    EW_BIN(V_MUL, U, U, V), EW_UN(V_ADDS, U, U, -3.5233877e-06), EW_BIN(V_MUL, U, U, V),
    EW_UN(V_ADDS, U, U, -4.39150654e-06), EW_BIN(V_MUL, U, U, V), EW_UN(V_ADDS, U, U, 0.00021858087),
    EW_BIN(V_MUL, U, U, V), EW_UN(V_ADDS, U, U, -0.00125372503), EW_BIN(V_MUL, U, U, V),
    EW_UN(V_ADDS, U, U, -0.00417768164), EW_BIN(V_MUL, U, U, V), EW_UN(V_ADDS, U, U, 0.246640727),
    EW_BIN(V_MUL, U, U, V), EW_UN(V_ADDS, U, U, 1.50140941),
    EW_UN(V_SQRT, V, T, 0), EW_UN(V_ADDS, V, V, -3), EW_UN(V_MULS, W, V, -0.000200214257),
    EW_UN(V_ADDS, W, W, 0.000100950558), EW_BIN(V_MUL, W, W, V), EW_UN(V_ADDS, W, W, 0.00134934322),
    EW_BIN(V_MUL, W, W, V), EW_UN(V_ADDS, W, W, -0.00367342844), EW_BIN(V_MUL, W, W, V),
    EW_UN(V_ADDS, W, W, 0.00573950773), EW_BIN(V_MUL, W, W, V), EW_UN(V_ADDS, W, W, -0.0076224613),
    EW_BIN(V_MUL, W, W, V), EW_UN(V_ADDS, W, W, 0.00943887047), EW_BIN(V_MUL, W, W, V),
    EW_UN(V_ADDS, W, W, 1.00167406), EW_BIN(V_MUL, W, W, V), EW_UN(V_ADDS, W, W, 2.83297682),
    EW_UN(V_ADDS, V, T, -5), IND(V), EW_BIN(V_MUL, W, W, V), EW_UN(V_MULS, V, V, -1), EW_UN(V_ADDS, V, V, 1),
    EW_BIN(V_MUL, U, U, V), EW_BIN(V_ADD, W, W, U), EW_BIN(V_MUL, W, W, X),
    EW_UN(V_ABS, T, X, 0), EW_UN(V_MULS, T, T, -1), EW_UN(V_ADDS, T, T, 1), IND(T), EW_UN(V_MULS, T, T, -1),
    EW_UN(V_ADDS, T, T, 1), EW_UN(V_MULS, T, T, EW_BIG), EW_UN(V_MULS, T, T, EW_BIG), EW_BIN(V_MUL, T, T, X),
    EW_BIN(V_ADD, W, W, T), EW_UN(V_ABS, T, X, 0), EW_UN(V_ADDS, T, T, -1), IND(T), EW_UN(V_MULS, T, T, -1),
    EW_UN(V_SQRT, T, T, 0), EW_BIN(V_ADD, W, W, T),
};
#define Z EW_Z
static const ew_step_t addcmul_steps[] = {
    EW_BIN(V_MUL, W, Y, Z), EW_UNP(V_MULS, W, W, 1, S_MUL), EW_BIN(V_ADD, W, W, X),
};
static const ew_step_t addcdiv_steps[] = {
    EW_BIN(V_DIV, W, Y, Z), EW_UNP(V_MULS, W, W, 1, S_MUL), EW_BIN(V_ADD, W, W, X),
};
/* lerp = x + w (y - x) (x start, y end, w weight) */
static const ew_step_t lerp_steps[] = {EW_BIN(V_SUB, W, Y, X), EW_BIN(V_MUL, W, W, Z), EW_BIN(V_ADD, W, W, X)};
#undef Z
/* lerps(weight) = x + weight (y - x) */
static const ew_step_t lerps_steps[] = {EW_BIN(V_SUB, W, Y, X), EW_UNP(V_MULS, W, W, 1, S_MUL), EW_BIN(V_ADD, W, W, X)};
/* The inverse functions' backward forms (x the gradient dy, y as each names it): asin_backward = dy /
 * sqrt((1 - y)(1 + y)) (y asin's input), acos_backward its negative; acosh_backward = dy / sinh(y), asinh_backward
 * = dy / cosh(y) (y the forward's output); rsqrt_backward = dy * -0.5 y^3, sqrt_backward = dy * 0.5 / y (y the
 * output) */
static const ew_step_t asin_bw_steps[] = {
    EW_UN(V_MULS, T, Y, -1), EW_UN(V_ADDS, T, T, 1), EW_UN(V_ADDS, W, Y, 1), EW_BIN(V_MUL, T, T, W),
    EW_UN(V_SQRT, T, T, 0), EW_BIN(V_DIV, W, X, T),
};
static const ew_step_t acos_bw_steps[] = {
    EW_UN(V_MULS, T, Y, -1), EW_UN(V_ADDS, T, T, 1), EW_UN(V_ADDS, W, Y, 1), EW_BIN(V_MUL, T, T, W),
    EW_UN(V_SQRT, T, T, 0), EW_BIN(V_DIV, W, X, T), EW_UN(V_MULS, W, W, -1),
};
static const ew_step_t acosh_bw_steps[] = {
    EW_UN(V_MULS, T, Y, -1), EW_UN(V_EXP, T, T, 0), EW_UN(V_EXP, W, Y, 0), EW_BIN(V_SUB, W, W, T),
    EW_UN(V_MULS, W, W, 0.5), EW_BIN(V_DIV, W, X, W),
};
static const ew_step_t asinh_bw_steps[] = {
    EW_UN(V_MULS, T, Y, -1), EW_UN(V_EXP, T, T, 0), EW_UN(V_EXP, W, Y, 0), EW_BIN(V_ADD, W, W, T),
    EW_UN(V_MULS, W, W, 0.5), EW_BIN(V_DIV, W, X, W),
};
static const ew_step_t rsqrt_bw_steps[] = {
    EW_BIN(V_MUL, W, Y, Y), EW_BIN(V_MUL, W, W, Y), EW_UN(V_MULS, W, W, -0.5), EW_BIN(V_MUL, W, W, X),
};
static const ew_step_t sqrt_bw_steps[] = {EW_BIN(V_DIV, W, X, Y), EW_UN(V_MULS, W, W, 0.5)};
/* elu_backward(alpha, scale, input_scale) = g (I scale + (1 - I) scale alpha input_scale exp(input_scale m)),
 * I = I(x > 0), m = min(x, 0) held above -FLT_MAX; elu_backward_result (y the forward's result r) = g (I scale +
 * (1 - I) input_scale (r + scale alpha)), I = I(r > 0) */
static const ew_step_t elu_bw_steps[] = {
    EW_UN(V_MULS, T, Y, 1), IND(T), EW_UN(V_MINS, U, Y, 0), EW_UN(V_MAXS, U, U, -FLT_MAX),
    EW_UNP(V_MULS, U, U, 1, S_MUL3), EW_UN(V_EXP, U, U, 0), EW_UNP(V_MULS, U, U, 1, S_MUL12),
    EW_UNP(V_MULS, U, U, 1, S_MUL3), EW_UN(V_MULS, V, T, -1), EW_UN(V_ADDS, V, V, 1), EW_BIN(V_MUL, U, U, V),
    EW_UNP(V_MULS, W, T, 1, S_MUL2), EW_BIN(V_ADD, W, W, U), EW_BIN(V_MUL, W, W, X),
};
static const ew_step_t elu_bw_result_steps[] = {
    EW_UN(V_MULS, T, Y, 1), IND(T), EW_UNP(V_ADDS, U, Y, 1, S_MUL12), EW_UNP(V_MULS, U, U, 1, S_MUL3),
    EW_UN(V_MULS, V, T, -1), EW_UN(V_ADDS, V, V, 1), EW_BIN(V_MUL, U, U, V), EW_UNP(V_MULS, W, T, 1, S_MUL2),
    EW_BIN(V_ADD, W, W, U), EW_BIN(V_MUL, W, W, X),
};
/* add_relu(alpha) = max(x + alpha y, 0) */
static const ew_step_t add_relu_steps[] = {
    EW_UNP(V_MULS, W, Y, 1, S_MUL), EW_BIN(V_ADD, W, W, X), EW_UN(V_MAXS, W, W, 0),
};
#undef SIN_OF
#undef ATAN_OF
#undef ATAN_HALVE
#undef V
#undef U
#undef COS_POLY
#undef IND
#undef Y
#undef W
#undef X
#undef T

/* ---- the element-wise operators ---- */
typedef enum ew_kind {
    EW_ADD, EW_SUB, EW_MUL, EW_DIV, EW_MAX, EW_MIN, EW_MULS, EW_ADDS, EW_RELU, EW_GELU, EW_EXP, EW_SIGMOID, EW_SILU,
    EW_TANH, EW_ABS, EW_NEG, EW_LOG, EW_SQRT, EW_RSQRT, EW_RECIPROCAL, EW_LEAKY_RELU, EW_DIVS, EW_MAXS, EW_MINS, EW_CLAMP,
    /* s19-act */
    EW_HARDSIGMOID, EW_HARDSWISH, EW_SELU, EW_CELU, EW_MISH, EW_SOFTSIGN, EW_LOGSIGMOID, EW_SOFTSHRINK, EW_SQUARE,
    EW_EXPM1, EW_EXP2, EW_LOG1P, EW_LOG2, EW_LOG10, EW_SIGN, EW_FLOOR, EW_CEIL, EW_ROUND, EW_TRUNC, EW_ACOSH,
    EW_ASINH, EW_ATANH, EW_SINH, EW_COSH, EW_ERF, EW_ERFC, EW_SIN, EW_COS, EW_HARDSHRINK, EW_SIGMOID_BW, EW_TANH_BW, EW_HARDSIGMOID_BW, EW_THRESHOLD_BW, EW_SOFTSHRINK_BW,
    EW_HARDSHRINK_BW, EW_SELU_BW, EW_SILU_BW, EW_SOFTSIGN_BW,
    /* s20-ew2 (the first of them EW_S20; the reference computes them in ew2_ref) */
    EW_ATAN, EW_ASIN, EW_ACOS, EW_TAN, EW_SINC, EW_FAST_GELU, EW_SWISH, EW_POWS, EW_POW, EW_ATAN2, EW_GELU_BW,
    EW_HARDSWISH_BW, EW_MISH_BW, EW_LOGSIGMOID_BW, EW_SWISH_BW, EW_LEAKY_RELU_BW, EW_THRESHOLD, EW_HARDTANH_BW, EW_ELU,
    EW_SOFTPLUS, EW_SOFTPLUS_BW, EW_LOG_ADD_EXP, EW_LOG_ADD_EXP2, EW_XLOGY, EW_HEAVISIDE, EW_ADDCMUL, EW_ADDCDIV,
    EW_XLOGY_SO, EW_XLOGY_SS, EW_ERFINV, EW_LERP, EW_LERPS, EW_ASIN_BW, EW_ACOS_BW, EW_ACOSH_BW, EW_ASINH_BW,
    EW_RSQRT_BW, EW_SQRT_BW, EW_ADD_RELU, EW_ELU_BW, EW_ELU_BW_RESULT, EW_KINDS
} ew_kind_t;
#define EW_S20 EW_ATAN

#define STEPS(s) s, (unsigned)(sizeof s / sizeof s[0])
typedef struct ew_def {
    const char *name;
    bool binary;             /* z = f(x, y); else y = f(x) */
    vop_t op;                /* the instruction (activations: unused) */
    const ew_step_t *steps;  /* an activation: its fp32 steps */
    unsigned nsteps;
    double lo, hi;           /* --check's inputs (both 0: the default range) */
    bool ternary;            /* s20-ew2: binary with a third input w: z = f(x, y, w) */
} ew_def_t;

static const ew_def_t ew_defs[EW_KINDS] = {
    [EW_ADD] = {"add", true, V_ADD, NULL, 0},
    [EW_SUB] = {"sub", true, V_SUB, NULL, 0},
    [EW_MUL] = {"mul", true, V_MUL, NULL, 0},
    [EW_DIV] = {"div", true, V_DIV, NULL, 0},
    [EW_MAX] = {"max", true, V_MAX, NULL, 0},
    [EW_MULS] = {"muls", false, V_MULS, NULL, 0},
    [EW_ADDS] = {"adds", false, V_ADDS, NULL, 0},
    [EW_RELU] = {"relu", false, V_RELU, NULL, 0},
    [EW_GELU] = {"gelu", false, V_MUL, STEPS(gelu_steps)},
    [EW_EXP] = {"exp", false, V_EXP, NULL, 0},
    [EW_SIGMOID] = {"sigmoid", false, V_MUL, STEPS(sigmoid_steps)},
    [EW_SILU] = {"silu", false, V_MUL, STEPS(silu_steps)},
    [EW_TANH] = {"tanh", false, V_MUL, STEPS(tanh_steps)},
    [EW_MIN] = {"min", true, V_MIN, NULL, 0},
    [EW_ABS] = {"abs", false, V_ABS, NULL, 0},
    [EW_NEG] = {"neg", false, V_MULS, NULL, 0},
    [EW_LOG] = {"log", false, V_LN, NULL, 0},
    [EW_SQRT] = {"sqrt", false, V_SQRT, NULL, 0},
    [EW_RSQRT] = {"rsqrt", false, V_RSQRT, NULL, 0},
    [EW_RECIPROCAL] = {"reciprocal", false, V_REC, NULL, 0},
    [EW_LEAKY_RELU] = {"leaky_relu", false, V_LRELU, NULL, 0},
    [EW_DIVS] = {"divs", false, V_DIV, NULL, 0},
    [EW_MAXS] = {"maxs", false, V_MAXS, NULL, 0},
    [EW_MINS] = {"mins", false, V_MINS, NULL, 0},
    [EW_CLAMP] = {"clamp", false, V_MAXS, NULL, 0},
    [EW_HARDSIGMOID] = {"hardsigmoid", false, V_MUL, STEPS(hardsigmoid_steps), -4, 4},
    [EW_HARDSWISH] = {"hardswish", false, V_MUL, STEPS(hardswish_steps), -4, 4},
    [EW_SELU] = {"selu", false, V_MUL, STEPS(selu_steps), -4, 4},
    [EW_CELU] = {"celu", false, V_MUL, STEPS(celu_steps), -4, 4},
    [EW_MISH] = {"mish", false, V_MUL, STEPS(mish_steps), -4, 4},
    [EW_SOFTSIGN] = {"softsign", false, V_MUL, STEPS(softsign_steps), -4, 4},
    [EW_LOGSIGMOID] = {"logsigmoid", false, V_MUL, STEPS(logsigmoid_steps), -4, 4},
    [EW_SOFTSHRINK] = {"softshrink", false, V_MUL, STEPS(softshrink_steps), -2, 2},
    [EW_SQUARE] = {"square", false, V_MUL, STEPS(square_steps), -4, 4},
    [EW_EXPM1] = {"expm1", false, V_MUL, STEPS(expm1_steps), -2, 2},
    [EW_EXP2] = {"exp2", false, V_MUL, STEPS(exp2_steps), -4, 4},
    [EW_LOG1P] = {"log1p", false, V_MUL, STEPS(log1p_steps), -0.5, 4},
    [EW_LOG2] = {"log2", false, V_MUL, STEPS(log2_steps), 0.25, 4},
    [EW_LOG10] = {"log10", false, V_MUL, STEPS(log10_steps), 0.25, 4},
    [EW_SIGN] = {"sign", false, V_MUL, STEPS(sign_steps), -4, 4},
    [EW_FLOOR] = {"floor", false, V_MUL, STEPS(floor_steps), -8, 8},
    [EW_CEIL] = {"ceil", false, V_MUL, STEPS(ceil_steps), -8, 8},
    [EW_ROUND] = {"round", false, V_MUL, STEPS(round_steps), -8, 8},
    [EW_TRUNC] = {"trunc", false, V_MUL, STEPS(trunc_steps), -8, 8},
    [EW_ACOSH] = {"acosh", false, V_MUL, STEPS(acosh_steps), 1.25, 4},
    [EW_ASINH] = {"asinh", false, V_MUL, STEPS(asinh_steps), -4, 4},
    [EW_ATANH] = {"atanh", false, V_MUL, STEPS(atanh_steps), -0.9, 0.9},
    [EW_SINH] = {"sinh", false, V_MUL, STEPS(sinh_steps), -4, 4},
    [EW_COSH] = {"cosh", false, V_MUL, STEPS(cosh_steps), -4, 4},
    [EW_ERF] = {"erf", false, V_MUL, STEPS(erf_steps), -3, 3},
    [EW_ERFC] = {"erfc", false, V_MUL, STEPS(erfc_steps), -3, 3},
    [EW_SIN] = {"sin", false, V_MUL, STEPS(sin_steps), -10, 10},
    [EW_COS] = {"cos", false, V_MUL, STEPS(cos_steps), -10, 10},
    [EW_HARDSHRINK] = {"hardshrink", false, V_MUL, STEPS(hardshrink_steps), -2, 2},
    /* binary: x gradOutput (the default range), y self / the forward's output (lo, hi) */
    [EW_SIGMOID_BW] = {"sigmoid_backward", true, V_MUL, STEPS(sigmoid_bw_steps), 0, 1},
    [EW_TANH_BW] = {"tanh_backward", true, V_MUL, STEPS(tanh_bw_steps), -1, 1},
    [EW_HARDSIGMOID_BW] = {"hardsigmoid_backward", true, V_MUL, STEPS(hardsigmoid_bw_steps), -6, 6},
    [EW_THRESHOLD_BW] = {"threshold_backward", true, V_MUL, STEPS(threshold_bw_steps), -2, 2},
    [EW_SOFTSHRINK_BW] = {"softshrink_backward", true, V_MUL, STEPS(shrink_bw_steps), -2, 2},
    [EW_HARDSHRINK_BW] = {"hardshrink_backward", true, V_MUL, STEPS(shrink_bw_steps), -2, 2},
    [EW_SELU_BW] = {"selu_backward", true, V_MUL, STEPS(selu_bw_steps), -1.7, 4},
    [EW_SILU_BW] = {"silu_backward", true, V_MUL, STEPS(silu_bw_steps), -4, 4},
    [EW_SOFTSIGN_BW] = {"softsign_backward", true, V_MUL, STEPS(softsign_bw_steps), -4, 4},
    /* s20-ew2 */
    [EW_ATAN] = {"atan", false, V_MUL, STEPS(atan_steps), -8, 8},
    [EW_ASIN] = {"asin", false, V_MUL, STEPS(asin_steps), -1, 1},
    [EW_ACOS] = {"acos", false, V_MUL, STEPS(acos_steps), -1, 1},
    [EW_TAN] = {"tan", false, V_MUL, STEPS(tan_steps), -1.2, 1.2},
    [EW_SINC] = {"sinc", false, V_MUL, STEPS(sinc_steps), -4, 4},
    [EW_FAST_GELU] = {"fast_gelu", false, V_MUL, STEPS(fast_gelu_steps), -4, 4},
    [EW_SWISH] = {"swish", false, V_MUL, STEPS(swish_steps), -4, 4},
    [EW_POWS] = {"pows", false, V_MUL, STEPS(pows_generic_steps), 0.25, 4}, /* the plan picks the steps by p */
    [EW_POW] = {"pow", true, V_MUL, STEPS(pow_steps), -3, 3},               /* x in [0.25, 4) (ew_plan) */
    [EW_ATAN2] = {"atan2", true, V_MUL, STEPS(atan2_steps), -2, 2},
    [EW_GELU_BW] = {"gelu_backward", true, V_MUL, STEPS(gelu_bw_steps), -4, 4},
    [EW_HARDSWISH_BW] = {"hardswish_backward", true, V_MUL, STEPS(hardswish_bw_steps), -5, 5},
    [EW_MISH_BW] = {"mish_backward", true, V_MUL, STEPS(mish_bw_steps), -4, 4},
    [EW_LOGSIGMOID_BW] = {"logsigmoid_backward", true, V_MUL, STEPS(logsigmoid_bw_steps), -4, 4},
    [EW_SWISH_BW] = {"swish_backward", true, V_MUL, STEPS(swish_bw_steps), -4, 4},
    [EW_LEAKY_RELU_BW] = {"leaky_relu_backward", true, V_MUL, STEPS(leaky_relu_bw_steps), -2, 2},
    [EW_THRESHOLD] = {"threshold", false, V_MUL, STEPS(threshold_steps), -2, 2},
    [EW_HARDTANH_BW] = {"hardtanh_backward", true, V_MUL, STEPS(hardtanh_bw_steps), -2, 2},
    [EW_ELU] = {"elu", false, V_MUL, STEPS(elu_steps), -4, 4},
    [EW_SOFTPLUS] = {"softplus", false, V_MUL, STEPS(softplus_steps), -30, 30},
    [EW_SOFTPLUS_BW] = {"softplus_backward", true, V_MUL, STEPS(softplus_bw_steps), -30, 30},
    [EW_LOG_ADD_EXP] = {"log_add_exp", true, V_MUL, STEPS(log_add_exp_steps), -4, 4},
    [EW_LOG_ADD_EXP2] = {"log_add_exp2", true, V_MUL, STEPS(log_add_exp2_steps), -4, 4},
    [EW_XLOGY] = {"xlogy", true, V_MUL, STEPS(xlogy_steps), 0.25, 4},
    [EW_HEAVISIDE] = {"heaviside", true, V_MUL, STEPS(heaviside_steps), -2, 2},
    /* three inputs: x self, y tensor1, w tensor2 (addcdiv: w in [0.5, 2)) */
    [EW_ADDCMUL] = {"addcmul", true, V_MUL, STEPS(addcmul_steps), 0, 0, true},
    [EW_ADDCDIV] = {"addcdiv", true, V_MUL, STEPS(addcdiv_steps), 0, 0, true},
    [EW_XLOGY_SO] = {"xlogy_scalar_other", false, V_MUL, STEPS(xlogy_so_steps), -4, 4},
    [EW_XLOGY_SS] = {"xlogy_scalar_self", false, V_MUL, STEPS(xlogy_ss_steps), 0.25, 4},
    [EW_ERFINV] = {"erfinv", false, V_MUL, STEPS(erfinv_steps), -1, 1},
    [EW_LERP] = {"lerp", true, V_MUL, STEPS(lerp_steps), 0, 0, true},
    [EW_LERPS] = {"lerps", true, V_MUL, STEPS(lerps_steps)},
    [EW_ASIN_BW] = {"asin_backward", true, V_MUL, STEPS(asin_bw_steps), -0.95, 0.95},
    [EW_ACOS_BW] = {"acos_backward", true, V_MUL, STEPS(acos_bw_steps), -0.95, 0.95},
    [EW_ACOSH_BW] = {"acosh_backward", true, V_MUL, STEPS(acosh_bw_steps), 0.25, 4},
    [EW_ASINH_BW] = {"asinh_backward", true, V_MUL, STEPS(asinh_bw_steps), -4, 4},
    [EW_RSQRT_BW] = {"rsqrt_backward", true, V_MUL, STEPS(rsqrt_bw_steps), 0.25, 4},
    [EW_SQRT_BW] = {"sqrt_backward", true, V_MUL, STEPS(sqrt_bw_steps), 0.25, 4},
    [EW_ADD_RELU] = {"add_relu", true, V_MUL, STEPS(add_relu_steps)},
    [EW_ELU_BW] = {"elu_backward", true, V_MUL, STEPS(elu_bw_steps), -4, 4},
    [EW_ELU_BW_RESULT] = {"elu_backward_result", true, V_MUL, STEPS(elu_bw_result_steps), -0.9, 4},
};

/* pows: the steps for each exponent class (EW_POW_ZERO has none: the kernel fills 1) */
static const struct { const ew_step_t *steps; unsigned nsteps; } ew_pow_progs[EW_POW_PROGS] = {
    [EW_POW_GENERIC] = {STEPS(pows_generic_steps)}, [EW_POW_EVEN] = {STEPS(pows_even_steps)},
    [EW_POW_ODD] = {STEPS(pows_odd_steps)},         [EW_POW_ONE] = {STEPS(pows_one_steps)},
    [EW_POW_TWO] = {STEPS(pows_two_steps)},         [EW_POW_THREE] = {STEPS(pows_three_steps)},
    [EW_POW_HALF] = {STEPS(pows_half_steps)},       [EW_POW_MHALF] = {STEPS(pows_mhalf_steps)},
    [EW_POW_MONE] = {STEPS(pows_mone_steps)},       [EW_POW_MTWO] = {STEPS(pows_mtwo_steps)},
};

/* pows: the steps for exponent p (a whole |p| above 3 by parity; below 2^24 every fp32 is whole) */
static unsigned ew_pow_prog(double p)
{
    static const struct { double p; unsigned prog; } exact[] = {
        {0, EW_POW_ZERO}, {1, EW_POW_ONE}, {2, EW_POW_TWO}, {3, EW_POW_THREE}, {0.5, EW_POW_HALF},
        {-0.5, EW_POW_MHALF}, {-1, EW_POW_MONE}, {-2, EW_POW_MTWO}};
    for (unsigned i = 0; i < sizeof exact / sizeof exact[0]; i++)
        if (p == exact[i].p)
            return exact[i].prog;
    if (p != nearbyint(p))
        return EW_POW_GENERIC;
    return fmod(fabs(p), 2) == 1 ? EW_POW_ODD : EW_POW_EVEN;
}

/* An activation's steps use the work buffer buf (T or U). */
static bool ew_uses(const ew_def_t *d, int buf)
{
    for (unsigned i = 0; i < d->nsteps; i++)
        if (d->steps[i].d == buf)
            return true;
    return false;
}

/* The fp32 scratch buffers of an activation (their index in ew_state_t.tmp, or -1: not scratch).
 * On fp16: the cast input X, the cast second input Y (binary), W unless it can overwrite X (no
 * step after the first reads X), then T when the steps use it.  On fp32 X, Y and W are the queue
 * buffers and only T (and U, V) are scratch.  Returns the number of scratch buffers. */
static unsigned ew_layout(const ew_def_t *d, bool f16, int idx[EW_BUFS])
{
    unsigned n = 0;
    for (int b = 0; b < EW_BUFS; b++)
        idx[b] = -1;
    if (!d->steps)
        return 0;
    if (f16) {
        bool x_later = false;
        for (unsigned i = 1; i < d->nsteps; i++)
            x_later |= d->steps[i].a == EW_X || d->steps[i].b == EW_X;
        idx[EW_X] = (int)n++;
        if (d->binary)
            idx[EW_Y] = (int)n++;
        if (d->ternary)
            idx[EW_Z] = (int)n++;
        idx[EW_W] = x_later ? (int)n++ : idx[EW_X];
    }
    if (ew_uses(d, EW_T))
        idx[EW_T] = (int)n++;
    if (ew_uses(d, EW_U))
        idx[EW_U] = (int)n++;
    if (ew_uses(d, EW_V))
        idx[EW_V] = (int)n++;
    return n;
}


/* Parameters: the same table for every element-wise operator but for the dtypes accepted; add and
 * sub also take --alpha and --l2-inputs, muls and adds --scalar (the last entries, so the others stop
 * before them). */
enum { EP_SHAPE, EP_DTYPE, EP_CORES, EP_TILE_ELEMS, EP_DOUBLE_BUFFER, EP_SCALAR, EP_L2_INPUTS, EP_PAIR_INPUTS,
       EP_SCALAR_LOOP, EP_COUNT };

#define EW_COMMON(dtypes)                                                                                     \
        [EP_SHAPE] = {"shape", DV_OPT_SHAPE, "1024x1024", 1, INT64_C(1) << 40, 0,                             \
                      "tensor shape AxBx...; the operator works on the flattened elements"},                  \
        [EP_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, (dtypes), "element type of every tensor"},         \
        [EP_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0,                                               \
                      "blocks (auto: every vector core); at most one per 512 B of data"},                     \
        [EP_TILE_ELEMS] = {"tile-elems", DV_OPT_INT, "auto", 1, INT64_C(1) << 24, 0,                          \
                           "elements per copy, whole 32-B blocks (auto: the largest power of two up to 16384 " \
                           "whose queue buffers fit in UB)"},                                                 \
        [EP_DOUBLE_BUFFER] = {"double-buffer", DV_OPT_BOOL, "on", 0, 1, 0,                                    \
                              "two buffers per queue (on) so copies overlap the vector work, or one (off)"}

#define EW_ARITH_DTYPES (DT_F16 | DT_F32 | DT_S16 | DT_S32)
static const dv_oparam_spec_t ew_params_arith[EP_SCALAR] = {EW_COMMON(EW_ARITH_DTYPES)}; /* vmul vmax */
static const dv_oparam_spec_t ew_params_relu[EP_SCALAR] = {EW_COMMON(DT_F16 | DT_F32 | DT_S32)}; /* vrelu */
/* vdiv vexp and the activations */
static const dv_oparam_spec_t ew_params_float[EP_SCALAR] = {EW_COMMON(DT_F16 | DT_F32)};
/* vadd vsub, and vmuls for an alpha other than 1; the scalar register holds at most an fp32 */
static const dv_oparam_spec_t ew_params_alpha[EP_COUNT] = {
    EW_COMMON(EW_ARITH_DTYPES),
    [EP_SCALAR] = {"alpha", DV_OPT_FLOAT, "1", -FLT_MAX, FLT_MAX, 0,
                   "scale of y (aclnnAdd's, aclnnSub's alpha); other than 1 the kernel first scales y with vmuls "
                   "in --dtype (int16/int32: an integer in the dtype's range)"},
    [EP_L2_INPUTS] = {"l2-inputs", DV_OPT_BOOL, "on", 0, 1, 0,
                      "the inputs x and y are allocated in L2 (on) or bypass it (off: their arguments' L2 mode is "
                      "disable, Ascend C's SetL2CacheHint(CACHE_MODE_DISABLE) on read-once inputs)"},
    [EP_PAIR_INPUTS] = {"pair-inputs", DV_OPT_BOOL, "off", 0, 1, 0,
                        "UB layout of the input buffers: off, each queue's buffers together (x ping, x pong, y ping, "
                        "y pong: TPipe's InitBuffer order); on, x and y of each buffer index side by side (x ping, "
                        "y ping, x pong, y pong: the add_high_performance sample's hand layout)"},
    [EP_SCALAR_LOOP] = {"scalar-loop", DV_OPT_BOOL, "off", 0, 1, 0,
                        "compute on the scalar unit instead of the vector unit (fp16, --alpha 1): per element "
                        "two GetValue loads (ld_ub), the loop body's " EW_STR(EW_LOOP_ALU_INSNS) " ALU instructions "
                        "(scalar.alu_cycles each, an estimate of compiled code) and a SetValue store (st_ub): the "
                        "add_high_performance sample's scalar case"},
};
/* vmuls, vadds */
#define EW_SCALAR_SPEC(def, insn)                                                                             \
    [EP_SCALAR] = {"scalar", DV_OPT_FLOAT, def, -FLT_MAX, FLT_MAX, 0,                                         \
                   "s, the " insn " scalar, held in --dtype: rounded to fp16 / fp32; int16/int32: an integer in "  \
                   "the dtype's range"}
static const dv_oparam_spec_t ew_params_muls[EP_SCALAR + 1] = {EW_COMMON(EW_ARITH_DTYPES),
                                                               EW_SCALAR_SPEC("2", "vmuls")};
static const dv_oparam_spec_t ew_params_adds[EP_SCALAR + 1] = {EW_COMMON(EW_ARITH_DTYPES),
                                                               EW_SCALAR_SPEC("1", "vadds")};
/* vdup + vdiv */
static const dv_oparam_spec_t ew_params_divs[EP_SCALAR + 1] = {
    EW_COMMON(DT_F16 | DT_F32),
    [EP_SCALAR] = {"scalar", DV_OPT_FLOAT, "2", -FLT_MAX, FLT_MAX, 0,
                   "the divisor s, rounded to --dtype: each block fills one tile of it (vdup) once, then divides "
                   "every tile by it (vdiv), as Ascend C's Duplicate + Div"}};
/* vmaxs, vmins: the bound */
static const dv_oparam_spec_t ew_params_maxs[EP_SCALAR + 1] = {EW_COMMON(EW_ARITH_DTYPES),
                                                               EW_SCALAR_SPEC("0", "vmaxs")};
static const dv_oparam_spec_t ew_params_mins[EP_SCALAR + 1] = {EW_COMMON(EW_ARITH_DTYPES),
                                                               EW_SCALAR_SPEC("0", "vmins")};
/* clamp: vmaxs by --min, then vmins by --max (--max wins when min > max) */
enum { EP_CLAMP_MIN = EP_SCALAR, EP_CLAMP_MAX, EP_CLAMP_COUNT };
static const dv_oparam_spec_t ew_params_clamp[EP_CLAMP_COUNT] = {
    EW_COMMON(EW_ARITH_DTYPES),
    [EP_CLAMP_MIN] = {"min", DV_OPT_FLOAT, "-1", -FLT_MAX, FLT_MAX, 0,
                      "the lower bound (vmaxs), held in --dtype: rounded to fp16 / fp32; int16/int32: an integer in "
                      "the dtype's range"},
    [EP_CLAMP_MAX] = {"max", DV_OPT_FLOAT, "1", -FLT_MAX, FLT_MAX, 0,
                      "the upper bound (vmins, after the vmaxs), held like --min; when min > max every element is max"}};
/* vabs (and neg, a vmuls by -1) */
static const dv_oparam_spec_t ew_params_signed[EP_SCALAR] = {EW_COMMON(EW_ARITH_DTYPES)};
/* vlrelu: the negative slope */
static const dv_oparam_spec_t ew_params_lrelu[EP_SCALAR + 1] = {
    EW_COMMON(DT_F16 | DT_F32),
    [EP_SCALAR] = {"scalar", DV_OPT_FLOAT, "0.01", -FLT_MAX, FLT_MAX, 0,
                   "the negative slope s (y = x < 0 ? x * s : x; aclnnLeakyRelu's negativeSlope), the vlrelu scalar, "
                   "rounded to --dtype"}};

/* celu's alpha, softshrink's lambd: the scalar of the steps marked S_MUL / S_DIV */
static const dv_oparam_spec_t ew_params_celu[EP_SCALAR + 1] = {
    EW_COMMON(DT_F16 | DT_F32),
    [EP_SCALAR] = {"scalar", DV_OPT_FLOAT, "1", -FLT_MAX, FLT_MAX, 0,
                   "alpha (aclnnCelu's), not 0, rounded to --dtype"}};
static const dv_oparam_spec_t ew_params_softshrink[EP_SCALAR + 1] = {
    EW_COMMON(DT_F16 | DT_F32),
    [EP_SCALAR] = {"scalar", DV_OPT_FLOAT, "0.5", 0, FLT_MAX, 0,
                   "lambd (aclnnSoftshrink's), at least 0, rounded to --dtype"}};

static const dv_oparam_spec_t ew_params_shrink[EP_SCALAR + 1] = {
    EW_COMMON(DT_F16 | DT_F32),
    [EP_SCALAR] = {"scalar", DV_OPT_FLOAT, "0.5", 0, FLT_MAX, 0, "lambd, at least 0, rounded to --dtype"}};
static const dv_oparam_spec_t ew_params_threshold[EP_SCALAR + 1] = {
    EW_COMMON(DT_F16 | DT_F32),
    [EP_SCALAR] = {"scalar", DV_OPT_FLOAT, "0", -FLT_MAX, FLT_MAX, 0, "the threshold, rounded to --dtype"}};

/* s20-ew2: swish's beta, pows' exponent, leaky_relu_backward's slope */
static const dv_oparam_spec_t ew_params_beta[EP_SCALAR + 1] = {
    EW_COMMON(DT_F16 | DT_F32),
    [EP_SCALAR] = {"scalar", DV_OPT_FLOAT, "1", -FLT_MAX, FLT_MAX, 0, "beta (aclnnSwish's), rounded to --dtype"}};
static const dv_oparam_spec_t ew_params_pows[EP_SCALAR + 1] = {
    EW_COMMON(DT_F16 | DT_F32),
    [EP_SCALAR] = {"scalar", DV_OPT_FLOAT, "2", -FLT_MAX, FLT_MAX, 0,
                   "the exponent p, rounded to --dtype: 0 fills 1; 1, 2, 3, 0.5, -0.5, -1, -2 are x, x*x, x*x*x, "
                   "sqrt, rsqrt, 1/x, 1/(x*x); another whole p exp(p ln|x|) with the sign of x for an odd p; "
                   "any other exp(p ln x) (NaN for x < 0)"}};
static const dv_oparam_spec_t ew_params_slope[EP_SCALAR + 1] = {
    EW_COMMON(DT_F16 | DT_F32),
    [EP_SCALAR] = {"scalar", DV_OPT_FLOAT, "0.01", -FLT_MAX, FLT_MAX, 0,
                   "the negative slope (aclnnLeakyReluBackward's negativeSlope), rounded to --dtype"}};

/* threshold's threshold and value, hardtanh_backward's bounds, elu's three, softplus' beta and threshold */
static const dv_oparam_spec_t ew_params_thr[EP_SCALAR + 2] = {
    EW_COMMON(DT_F16 | DT_F32),
    [EP_SCALAR] = {"threshold", DV_OPT_FLOAT, "0", -FLT_MAX, FLT_MAX, 0, "the threshold, rounded to --dtype"},
    [EP_SCALAR + 1] = {"value", DV_OPT_FLOAT, "0", -FLT_MAX, FLT_MAX, 0,
                       "the value where x <= threshold, rounded to --dtype"}};
static const dv_oparam_spec_t ew_params_minmax[EP_SCALAR + 2] = {
    EW_COMMON(DT_F16 | DT_F32),
    [EP_SCALAR] = {"min", DV_OPT_FLOAT, "-1", -FLT_MAX, FLT_MAX, 0, "the lower bound, rounded to --dtype"},
    [EP_SCALAR + 1] = {"max", DV_OPT_FLOAT, "1", -FLT_MAX, FLT_MAX, 0, "the upper bound, rounded to --dtype"}};
static const dv_oparam_spec_t ew_params_elu[EP_SCALAR + 3] = {
    EW_COMMON(DT_F16 | DT_F32),
    [EP_SCALAR] = {"alpha", DV_OPT_FLOAT, "1", -FLT_MAX, FLT_MAX, 0, "alpha, rounded to --dtype"},
    [EP_SCALAR + 1] = {"scale", DV_OPT_FLOAT, "1", -FLT_MAX, FLT_MAX, 0, "scale, rounded to --dtype"},
    [EP_SCALAR + 2] = {"input-scale", DV_OPT_FLOAT, "1", -FLT_MAX, FLT_MAX, 0,
                       "inputScale (x's factor inside exp), rounded to --dtype"}};
static const dv_oparam_spec_t ew_params_softplus[EP_SCALAR + 2] = {
    EW_COMMON(DT_F16 | DT_F32),
    [EP_SCALAR] = {"beta", DV_OPT_FLOAT, "1", -FLT_MAX, FLT_MAX, 0, "beta, not 0, rounded to --dtype"},
    [EP_SCALAR + 1] = {"threshold", DV_OPT_FLOAT, "20", -FLT_MAX, FLT_MAX, 0,
                       "beta x above it is linear, rounded to --dtype"}};

/* xlogy's scalar */
static const dv_oparam_spec_t ew_params_xlogy[EP_SCALAR + 1] = {
    EW_COMMON(DT_F16 | DT_F32),
    [EP_SCALAR] = {"scalar", DV_OPT_FLOAT, "2", -FLT_MAX, FLT_MAX, 0, "the scalar operand, rounded to --dtype"}};
/* add_relu's alpha */
static const dv_oparam_spec_t ew_params_addrelu[EP_SCALAR + 1] = {
    EW_COMMON(DT_F16 | DT_F32),
    [EP_SCALAR] = {"scalar", DV_OPT_FLOAT, "1", -FLT_MAX, FLT_MAX, 0, "alpha, rounded to --dtype"}};
/* lerps' weight */
static const dv_oparam_spec_t ew_params_weight[EP_SCALAR + 1] = {
    EW_COMMON(DT_F16 | DT_F32),
    [EP_SCALAR] = {"scalar", DV_OPT_FLOAT, "0.5", -FLT_MAX, FLT_MAX, 0, "the weight, rounded to --dtype"}};
/* addcmul's, addcdiv's value */
static const dv_oparam_spec_t ew_params_value[EP_SCALAR + 1] = {
    EW_COMMON(DT_F16 | DT_F32),
    [EP_SCALAR] = {"scalar", DV_OPT_FLOAT, "1", -FLT_MAX, FLT_MAX, 0, "value, rounded to --dtype"}};

typedef struct ew_tiling {
    uint32_t kind;  /* ew_kind_t */
    uint32_t dtype; /* dv_dtype_t of every argument */
    uint32_t depth; /* buffers per queue */
    uint32_t ntmp;  /* fp32 scratch buffers of `tile` elements */
    uint64_t elems; /* elements of every argument */
    uint64_t unit;  /* elements per split unit */
    uint64_t tile;  /* elements per copy */
    uint32_t scale; /* add, sub: y is scaled by --alpha first (alpha != 1) */
    uint32_t pairs; /* add, sub --pair-inputs: x and y buffers of each index side by side */
    uint32_t sloop; /* add, sub --scalar-loop: the scalar unit computes, element by element */
    uint64_t sloop_alu_cycles; /* its ALU work per element: EW_LOOP_ALU_INSNS x scalar.alu_cycles */
    double scalar;  /* --alpha / --scalar (clamp: --min) rounded to the dtype (the value the vmuls / vadds scalar holds) */
    double scalar2; /* clamp: --max, held the same way; s20-ew2: the second attribute */
    double scalar3; /* s20-ew2: the third attribute (elu's --input-scale) */
    uint32_t prog;  /* pows: EW_POW_* (the steps for its exponent) */
} ew_tiling_t;

/* The operator's definition with the steps it runs (pows: those of its exponent). */
static ew_def_t ew_def_of(const ew_tiling_t *t)
{
    ew_def_t d = ew_defs[t->kind];
    if (t->kind == EW_POWS && t->prog < EW_POW_ZERO) {
        d.steps = ew_pow_progs[t->prog].steps;
        d.nsteps = ew_pow_progs[t->prog].nsteps;
    }
    if (t->kind == EW_XLOGY_SS && t->prog) { /* s = 0 */
        d.steps = xlogy_ss_zero_steps;
        d.nsteps = sizeof xlogy_ss_zero_steps / sizeof xlogy_ss_zero_steps[0];
    }
    return d;
}

/* The state of the tile code: the fp32 scratch buffers (setup allocates them). */
typedef struct ew_state {
    uint64_t tmp[7];
} ew_state_t;
_Static_assert(sizeof(ew_state_t) <= DV_TILE_STATE_BYTES, "ew_state_t exceeds the tile state");

static int ew_kind_of(const dv_opdesc_t *op)
{
    for (int i = 0; i < EW_KINDS; i++)
        if (strcmp(op->name, ew_defs[i].name) == 0)
            return i;
    return -1;
}

static int check_tensor_bytes(const dv_config_t *cfg, uint64_t elems, unsigned size, dv_error_t *err)
{
    uint64_t bytes;
    if (elems == 0 || __builtin_mul_overflow(elems, (uint64_t)size, &bytes))
        return dv_ops_param_error(err, "shape", "one tensor of this shape has more than 2^64 bytes, "
                                  "hbm.capacity_bytes is %llu", (unsigned long long)cfg->hbm_capacity_bytes);
    if (bytes > cfg->hbm_capacity_bytes)
        return dv_ops_param_error(err, "shape", "one tensor of this shape has %llu bytes, hbm.capacity_bytes is %llu",
                                  (unsigned long long)bytes, (unsigned long long)cfg->hbm_capacity_bytes);
    return DV_OK;
}

/* The element range [first, first + count) of block b of nb: whole split units, as even as possible. */
static void ew_range(const ew_tiling_t *t, uint32_t b, uint32_t nb, uint64_t *first, uint64_t *count)
{
    uint64_t units = dv_ceil_div(t->elems, t->unit), base = units / nb, rem = units % nb;
    uint64_t u0 = b * base + dv_min_u64(b, rem), nu = base + (b < rem);
    *first = u0 * t->unit;
    *count = *first >= t->elems ? 0 : dv_min_u64(nu * t->unit, t->elems - *first);
}

/* One instruction of `rep` repeats with contiguous operands (block stride 1, repeat stride 8
 * blocks; the f16 side of a conversion packs its 64 elements per repeat into 128 B). */
static void vinsn(dv_k_t *k, vop_t op, dv_dtype_t dt, uint64_t d, uint64_t a, uint64_t b, double s, unsigned rep)
{
    switch (op) {
    case V_ADD: dvk_vadd(k, d, a, b, dt, rep, 1, 1, 1, 8, 8, 8); break;
    case V_SUB: dvk_vsub(k, d, a, b, dt, rep, 1, 1, 1, 8, 8, 8); break;
    case V_MUL: dvk_vmul(k, d, a, b, dt, rep, 1, 1, 1, 8, 8, 8); break;
    case V_DIV: dvk_vdiv(k, d, a, b, dt, rep, 1, 1, 1, 8, 8, 8); break;
    case V_MAX: dvk_vmax(k, d, a, b, dt, rep, 1, 1, 1, 8, 8, 8); break;
    case V_MIN: dvk_vmin(k, d, a, b, dt, rep, 1, 1, 1, 8, 8, 8); break;
    case V_LN: dvk_vln(k, d, a, dt, rep, 1, 1, 8, 8); break;
    case V_SQRT: dvk_vsqrt(k, d, a, dt, rep, 1, 1, 8, 8); break;
    case V_RSQRT: dvk_vrsqrt(k, d, a, dt, rep, 1, 1, 8, 8); break;
    case V_ABS: dvk_vabs(k, d, a, dt, rep, 1, 1, 8, 8); break;
    case V_LRELU: dvk_vlrelu(k, d, a, dt, s, rep, 1, 1, 8, 8); break;
    case V_MAXS: dvk_vmaxs(k, d, a, dt, s, rep, 1, 1, 8, 8); break;
    case V_MINS: dvk_vmins(k, d, a, dt, s, rep, 1, 1, 8, 8); break;
    case V_RELU: dvk_vrelu(k, d, a, dt, rep, 1, 1, 8, 8); break;
    case V_EXP: dvk_vexp(k, d, a, dt, rep, 1, 1, 8, 8); break;
    case V_REC: dvk_vrec(k, d, a, dt, rep, 1, 1, 8, 8); break;
    case V_ADDS: dvk_vadds(k, d, a, dt, s, rep, 1, 1, 8, 8); break;
    case V_MULS: dvk_vmuls(k, d, a, dt, s, rep, 1, 1, 8, 8); break;
    case V_F16_TO_F32: dvk_vconv(k, d, a, DV_DT_F32, DV_DT_F16, DV_ROUND_R, rep, 1, 1, 8, 4); break;
    case V_F32_TO_F16: dvk_vconv(k, d, a, DV_DT_F16, DV_DT_F32, DV_ROUND_R, rep, 1, 1, 4, 8); break;
    case V_FLOOR: dvk_vconv(k, d, a, DV_DT_F32, DV_DT_F32, DV_ROUND_F, rep, 1, 1, 8, 8); break;
    case V_CEIL: dvk_vconv(k, d, a, DV_DT_F32, DV_DT_F32, DV_ROUND_C, rep, 1, 1, 8, 8); break;
    case V_RINT: dvk_vconv(k, d, a, DV_DT_F32, DV_DT_F32, DV_ROUND_R, rep, 1, 1, 8, 8); break;
    case V_TRUNC: dvk_vconv(k, d, a, DV_DT_F32, DV_DT_F32, DV_ROUND_Z, rep, 1, 1, 8, 8); break;
    }
}

/* dst = op(src0[, src1 | s]) over n elements of type dt (for conversions: the f32 side). */
static void vstep(dv_k_t *k, vop_t op, dv_dtype_t dt, uint64_t dst, uint64_t src0, uint64_t src1, double s,
                  uint64_t n)
{
    const bool conv = op == V_F16_TO_F32 || op == V_F32_TO_F16;
    const unsigned esize = conv ? 4 : dv_dtype_size(dt);
    const uint64_t per_rep = EW_REPEAT_BYTES / esize;
    const uint64_t dst_step = op == V_F32_TO_F16 ? EW_REPEAT_BYTES / 2 : EW_REPEAT_BYTES;
    const uint64_t src_step = op == V_F16_TO_F32 ? EW_REPEAT_BYTES / 2 : EW_REPEAT_BYTES;
    const uint64_t full = n / per_rep, rem = n % per_rep;
    for (uint64_t r = 0; r < full;) {
        unsigned rep = (unsigned)dv_min_u64(dv_ops_field_max(DV_FORM_VBIN, DV_FLD(VBIN, repeat)), full - r);
        vinsn(k, op, dt, dst + r * dst_step, src0 + r * src_step, src1 + r * EW_REPEAT_BYTES, s, rep);
        r += rep;
    }
    if (rem) {
        dvk_mask_first(k, conv ? DV_DT_F32 : dt, (uint32_t)rem);
        vinsn(k, op, dt, dst + full * dst_step, src0 + full * src_step, src1 + full * EW_REPEAT_BYTES, s, 1);
        dvk_mask_all(k);
    }
}

/* An activation of n elements at x into y, in fp32 (fp16 through the scratch buffers). */
static void ew_activation(dv_k_t *k, const ew_def_t *d, dv_dtype_t dt, uint64_t y, uint64_t x, uint64_t x2,
                          uint64_t x3, const uint64_t *tmp, uint64_t n, double p, double p2, double p3)
{
    const dv_dtype_t f = DV_DT_F32;
    const bool f16 = dt == DV_DT_F16;
    int idx[EW_BUFS];
    ew_layout(d, f16, idx);
    const uint64_t direct[EW_BUFS] = {[EW_X] = x, [EW_Y] = x2, [EW_Z] = x3, [EW_W] = y}; /* fp32: the queues' */
    uint64_t buf[EW_BUFS] = {0};
    for (int b = EW_X; b < EW_BUFS; b++)
        buf[b] = idx[b] >= 0 ? tmp[idx[b]] : direct[b];
    if (f16) {
        vstep(k, V_F16_TO_F32, f, buf[EW_X], x, 0, 0, n);
        if (d->binary)
            vstep(k, V_F16_TO_F32, f, buf[EW_Y], x2, 0, 0, n);
        if (d->ternary)
            vstep(k, V_F16_TO_F32, f, buf[EW_Z], x3, 0, 0, n);
        dvk_pipe_barrier(k, DV_PIPE_V);
    }
    for (unsigned i = 0; i < d->nsteps; i++) {
        const ew_step_t *s = &d->steps[i];
        if (i)
            dvk_pipe_barrier(k, DV_PIPE_V);
        const double sv = s->ps == S_MUL ? s->s * p : s->ps == S_DIV ? s->s / p : s->ps == S_MUL2 ? s->s * p2
                        : s->ps == S_MUL3 ? s->s * p3 : s->ps == S_MUL12 ? s->s * p * p2 : s->s;
        vstep(k, s->op, f, buf[s->d], buf[s->a], buf[s->b], sv, n);
    }
    if (f16) {
        dvk_pipe_barrier(k, DV_PIPE_V);
        vstep(k, V_F32_TO_F16, f, y, buf[EW_W], 0, 0, n);
    }
}

static void ew_dup(dv_k_t *k, dv_dtype_t dt, uint64_t addr, double v, uint64_t n);

/* Compute one tile: out = f(in[0][, in[1]]) over all its rows x pitch elements as one flat range
 * (the standalone kernel's tiles are 1 x n).  The inputs are only read. */
static void ew_compute(dv_k_t *k, const ew_tiling_t *t, const ew_state_t *st, const dv_tile_t *tile)
{
    const ew_def_t *d = &ew_defs[t->kind];
    const dv_dtype_t dt = (dv_dtype_t)t->dtype;
    const uint64_t n = tile->rows * tile->pitch, z = tile->out, x = tile->in[0], y = d->binary ? tile->in[1] : 0;
    if (t->kind == EW_SIGN && !dv_dtype_is_float(dt)) { /* integers: min(max(x, -1), 1) in the dtype */
        vstep(k, V_MAXS, dt, z, x, 0, -1, n);
        dvk_pipe_barrier(k, DV_PIPE_V);
        vstep(k, V_MINS, dt, z, z, 0, 1, n);
        return;
    }
    if (t->kind == EW_POWS && t->prog == EW_POW_ZERO) { /* x^0 = 1 for every x */
        ew_dup(k, dt, z, 1.0, n);
        return;
    }
    if (d->steps) {
        const ew_def_t dd = ew_def_of(t);
        ew_activation(k, &dd, dt, z, x, y, d->ternary ? tile->in[2] : 0, st->tmp, n, t->scalar, t->scalar2, t->scalar3);
        return;
    }
    if (t->kind == EW_DIVS) { /* z = x / s, s filled into tmp[0] by ew_alloc_scratch */
        vstep(k, V_DIV, dt, z, x, st->tmp[0], 0, n);
        return;
    }
    if (t->kind == EW_CLAMP) { /* z = min(max(x, lo), hi) */
        vstep(k, V_MAXS, dt, z, x, 0, t->scalar, n);
        dvk_pipe_barrier(k, DV_PIPE_V);
        vstep(k, V_MINS, dt, z, z, 0, t->scalar2, n);
        return;
    }
    if (t->kind == EW_MULS || t->kind == EW_ADDS || t->kind == EW_NEG || t->kind == EW_LEAKY_RELU ||
        t->kind == EW_MAXS || t->kind == EW_MINS) {
        vstep(k, d->op, dt, z, x, 0, t->scalar, n);
        return;
    }
    if (t->scale) { /* z = alpha * y, then z = x +- z (aclnnAdd: Muls, then Add) */
        vstep(k, V_MULS, dt, z, y, 0, t->scalar, n);
        dvk_pipe_barrier(k, DV_PIPE_V);
        vstep(k, d->op, dt, z, x, z, 0, n);
        return;
    }
    vstep(k, d->op, dt, z, x, y, 0, n);
}

/* n elements of dt at addr filled with v (vdup): whole repeats, a masked last one. */
static void ew_dup(dv_k_t *k, dv_dtype_t dt, uint64_t addr, double v, uint64_t n)
{
    const uint64_t per_rep = EW_REPEAT_BYTES / dv_dtype_size(dt), full = n / per_rep, rem = n % per_rep;
    for (uint64_t r = 0; r < full;) {
        const unsigned rep = (unsigned)dv_min_u64(dv_ops_field_max(DV_FORM_VDUP, DV_FLD(VDUP, repeat)), full - r);
        dvk_vdup(k, addr + r * EW_REPEAT_BYTES, dt, v, rep, 1, 8);
        r += rep;
    }
    if (rem) {
        dvk_mask_first(k, dt, (uint32_t)rem);
        dvk_vdup(k, addr + full * EW_REPEAT_BYTES, dt, v, 1, 1, 8);
        dvk_mask_all(k);
    }
}

/* The fp32 scratch of tiles of `elems` elements, in UB. */
static void ew_alloc_scratch(dv_k_t *k, const ew_tiling_t *t, uint64_t elems, ew_state_t *st)
{
    memset(st, 0, sizeof *st);
    for (uint32_t i = 0; i < t->ntmp; i++)
        st->tmp[i] = dvk_alloc(k, DV_SPACE_UB, elems * 4);
    if (t->kind == EW_DIVS) { /* the divisor, once per block */
        ew_dup(k, (dv_dtype_t)t->dtype, st->tmp[0], t->scalar, elems);
        dvk_pipe_barrier(k, DV_PIPE_V);
    }
}

/* z = x +- y over n fp16 elements on the scalar unit, element by element: two loads (their values
 * come back from the model), the loop body's ALU work, one store. */
static void ew_scalar_loop(dv_k_t *k, const ew_tiling_t *t, uint64_t z, uint64_t x, uint64_t y, uint64_t n)
{
    const dv_dtype_t f16 = DV_DT_F16;
    for (uint64_t i = 0; i < n; i++) {
        uint8_t b[2][2], out[2];
        const uint64_t xb = dvk_load_ub(k, x + 2 * i, f16), yb = dvk_load_ub(k, y + 2 * i, f16);
        b[0][0] = (uint8_t)xb, b[0][1] = (uint8_t)(xb >> 8), b[1][0] = (uint8_t)yb, b[1][1] = (uint8_t)(yb >> 8);
        const float xv = (float)dv_ops_load(b[0], f16, 0), yv = (float)dv_ops_load(b[1], f16, 0);
        if (t->sloop_alu_cycles) /* a scalar instruction costs at least one cycle */
            dvk_scalar(k, (int64_t)t->sloop_alu_cycles);
        dv_ops_store(out, f16, 0, t->kind == EW_SUB ? xv - yv : xv + yv); /* the sum in fp32, rounded to fp16 */
        dvk_st_ub(k, z + 2 * i, f16, (uint64_t)out[0] | (uint64_t)out[1] << 8);
    }
}

/* One block: its range in tiles, CopyIn -> Compute -> CopyOut through the queues (with
 * --scalar-loop the scalar unit, not V, reads the inputs and writes the output).  Arguments:
 * x, [y, [w,]] then the output. */
static void ew_kernel(dv_k_t *k, const void *params)
{
    const ew_tiling_t *t = params;
    const bool binary = ew_defs[t->kind].binary, ternary = ew_defs[t->kind].ternary;
    const unsigned size = dv_dtype_size((dv_dtype_t)t->dtype);
    const uint32_t out = ternary ? 3 : binary ? 2 : 1;
    uint64_t first, count;
    ew_range(t, dvk_block_idx(k), dvk_block_num(k), &first, &count);
    if (count == 0)
        return;

    dv_que_t in_x, in_y, in_w, out_z;
    const dv_pipe_t cp = t->sloop ? DV_PIPE_S : DV_PIPE_V; /* the compute pipe */
    if (t->pairs) { /* x0 y0 x1 y1 */
        const uint64_t b = t->tile * size, base = dvk_alloc(k, DV_SPACE_UB, 2 * t->depth * b);
        uint64_t bx[2], by[2];
        for (uint32_t i = 0; i < t->depth; i++) {
            bx[i] = base + 2 * i * b;
            by[i] = base + (2 * i + 1) * b;
        }
        dvk_que_init_bufs(k, &in_x, DV_SPACE_UB, DV_PIPE_MTE2, cp, t->depth, b, bx);
        dvk_que_init_bufs(k, &in_y, DV_SPACE_UB, DV_PIPE_MTE2, cp, t->depth, b, by);
    } else {
        dvk_que_init(k, &in_x, DV_SPACE_UB, DV_PIPE_MTE2, cp, t->depth, t->tile * size);
        if (binary)
            dvk_que_init(k, &in_y, DV_SPACE_UB, DV_PIPE_MTE2, cp, t->depth, t->tile * size);
        if (ternary)
            dvk_que_init(k, &in_w, DV_SPACE_UB, DV_PIPE_MTE2, cp, t->depth, t->tile * size);
    }
    dvk_que_init(k, &out_z, DV_SPACE_UB, cp, DV_PIPE_MTE3, t->depth, t->tile * size);
    ew_state_t st;
    ew_alloc_scratch(k, t, t->tile, &st);

    for (uint64_t off = first; off < first + count; off += t->tile) {
        const uint64_t n = dv_min_u64(t->tile, first + count - off);
        const uint64_t len = dv_ceil_div(n * size, EW_BLOCK_BYTES), gm = off * size;
        /* CopyIn */
        uint64_t bx = dvk_que_alloc(k, &in_x), by = binary ? dvk_que_alloc(k, &in_y) : 0;
        uint64_t bw = ternary ? dvk_que_alloc(k, &in_w) : 0;
        dvk_copy_gm_to_ubuf(k, bx, dvk_gm(k, 0, gm), 1, (int64_t)len, 0, 0);
        if (binary)
            dvk_copy_gm_to_ubuf(k, by, dvk_gm(k, 1, gm), 1, (int64_t)len, 0, 0);
        if (ternary)
            dvk_copy_gm_to_ubuf(k, bw, dvk_gm(k, 2, gm), 1, (int64_t)len, 0, 0);
        dvk_que_enque(k, &in_x, bx);
        if (binary)
            dvk_que_enque(k, &in_y, by);
        if (ternary)
            dvk_que_enque(k, &in_w, bw);
        /* Compute: a tile of 1 x n */
        bx = dvk_que_deque(k, &in_x);
        if (binary)
            by = dvk_que_deque(k, &in_y);
        if (ternary)
            bw = dvk_que_deque(k, &in_w);
        const dv_tile_t tile = {.rows = 1, .cols = n, .pitch = n, .row0 = 0, .col0 = off, .in = {bx, by, bw},
                                .out = dvk_que_alloc(k, &out_z)};
        if (t->sloop)
            ew_scalar_loop(k, t, tile.out, bx, by, n);
        else
            ew_compute(k, t, &st, &tile);
        dvk_que_enque(k, &out_z, tile.out);
        dvk_que_free(k, &in_x, bx);
        if (binary)
            dvk_que_free(k, &in_y, by);
        if (ternary)
            dvk_que_free(k, &in_w, bw);
        /* CopyOut */
        const uint64_t bz = dvk_que_deque(k, &out_z);
        dvk_copy_ubuf_to_gm(k, dvk_gm(k, out, gm), bz, 1, (int64_t)len, 0, 0);
        dvk_que_free(k, &out_z, bz);
    }
}

/* --alpha / --scalar (parameter `param`) as the vmuls / vadds scalar holds it in dtype dt: floats
 * round to the dtype (and must stay finite), integers must be whole and in the dtype's range (the
 * scalar would be truncated and saturated). */
static int ew_scalar(const char *param, double v, dv_dtype_t dt, ew_tiling_t *t, dv_error_t *err)
{
    const char *insn = t->kind == EW_ADDS ? "vadds" : t->kind == EW_LEAKY_RELU ? "vlrelu" : t->kind == EW_DIVS ? "vdup"
                     : t->kind == EW_MINS || strcmp(param, "max") == 0                      ? "vmins"
                     : t->kind == EW_MAXS || t->kind == EW_CLAMP                            ? "vmaxs"
                                                                                            : "vmuls";
    if (dv_dtype_is_float(dt)) {
        t->scalar = dv_ops_round(dt, v);
        if (!isfinite(t->scalar))
            return dv_ops_param_error(err, param, "%g overflows %s (the %s scalar is a --dtype value): |%s| "
                                      "must be at most %g", v, dv_ops_dtype_name(dt), insn, param,
                                      dt == DV_DT_F16 ? 65504.0 : FLT_MAX);
        return DV_OK;
    }
    const double lo = dt == DV_DT_S16 ? INT16_MIN : INT32_MIN, hi = dt == DV_DT_S16 ? INT16_MAX : INT32_MAX;
    if (v != nearbyint(v) || v < lo || v > hi)
        return dv_ops_param_error(err, param, "%.17g is not an integer in [%.0f, %.0f]: with --dtype %s the %s "
                                  "scalar is an integer in %s", v, lo, hi, dv_ops_dtype_name(dt), insn,
                                  dv_ops_dtype_name(dt));
    t->scalar = v;
    return DV_OK;
}

static int ew_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                   dv_error_t *err)
{
    const int kind = ew_kind_of(op);
    if (kind < 0)
        return dv_error_set(err, DV_ERR_UNKNOWN, NULL, 0, 0, "%s: not an element-wise operator", op->name);
    const ew_def_t *d = &ew_defs[kind];
    const dv_dtype_t dt = v->v[EP_DTYPE].dt;
    const unsigned size = dv_dtype_size(dt);
    const uint64_t n = dv_shape_elems(&v->v[EP_SHAPE].shape);
    int rc = check_tensor_bytes(cfg, n, size, err);
    if (rc)
        return rc;

    /* UB per tile element: the queues' buffers plus the fp32 scratch. */
    ew_tiling_t t = {.kind = (uint32_t)kind, .dtype = (uint32_t)dt, .elems = n, .unit = EW_SPLIT_BYTES / size,
                     .scalar = kind == EW_NEG ? -1.0 : 1.0};
    const bool alpha_params = kind == EW_ADD || kind == EW_SUB; /* --alpha and the parameters after it */
    if (kind == EW_CLAMP) { /* --max first into scalar2, then --min into scalar */
        if ((rc = ew_scalar("max", v->v[EP_CLAMP_MAX].f, dt, &t, err)) != DV_OK)
            return rc;
        t.scalar2 = t.scalar;
        if ((rc = ew_scalar("min", v->v[EP_CLAMP_MIN].f, dt, &t, err)) != DV_OK)
            return rc;
    } else if (op->nparams > EP_SCALAR) {
        const bool alpha = alpha_params;
        if (!alpha || v->v[EP_SCALAR].f != 1.0) {
            t.scale = alpha;
            if ((rc = ew_scalar(op->params[EP_SCALAR].name, v->v[EP_SCALAR].f, dt, &t, err)) != DV_OK)
                return rc;
        }
    }
    if (kind >= EW_S20) /* the second and third attributes (elu, threshold, softplus, ...) */
        for (int j = 1; j < 3 && op->nparams > EP_SCALAR + j; j++) {
            const double first = t.scalar;
            if ((rc = ew_scalar(op->params[EP_SCALAR + j].name, v->v[EP_SCALAR + j].f, dt, &t, err)) != DV_OK)
                return rc;
            *(j == 1 ? &t.scalar2 : &t.scalar3) = t.scalar;
            t.scalar = first;
        }
    if ((kind == EW_SOFTPLUS || kind == EW_SOFTPLUS_BW) && t.scalar == 0)
        return dv_ops_param_error(err, "beta", "softplus divides by beta: it must not be 0");
    if (alpha_params && v->v[EP_SCALAR_LOOP].i) {
        if (dt != DV_DT_F16)
            return dv_ops_param_error(err, "scalar-loop", "the scalar loop computes fp16 through fp32 (the "
                                      "add_high_performance sample's), not --dtype %s: use --dtype fp16",
                                      dv_ops_dtype_name(dt));
        if (t.scale)
            return dv_ops_param_error(err, "scalar-loop", "the scalar loop computes x %c y: --alpha must be 1, "
                                      "not %g", kind == EW_SUB ? '-' : '+', v->v[EP_SCALAR].f);
    }
    t.depth = v->v[EP_DOUBLE_BUFFER].i ? 2 : 1;
    /* divs: the tile of the divisor; fp32 activations: T */
    int idx[EW_BUFS];
    if (kind == EW_POWS)
        t.prog = ew_pow_prog(t.scalar);
    if (kind == EW_XLOGY_SS)
        t.prog = t.scalar == 0;
    const ew_def_t run = ew_def_of(&t);
    t.ntmp = kind == EW_DIVS ? 1 : ew_layout(&run, dt == DV_DT_F16, idx);
    if (kind == EW_CELU && t.scalar == 0)
        return dv_ops_param_error(err, "scalar", "celu divides by alpha: it must not be 0");
    const unsigned queues = d->ternary ? 4 : d->binary ? 3 : 2;
    const uint64_t per_elem = (uint64_t)queues * t.depth * size + (uint64_t)t.ntmp * 4;
    const uint64_t min_tile = EW_BLOCK_BYTES / size;
    if (v->v[EP_TILE_ELEMS].i == 0) {
        t.tile = EW_TILE_AUTO_MAX;
        while (t.tile > min_tile && t.tile * per_elem > cfg->ub_size_bytes)
            t.tile /= 2;
    } else {
        t.tile = (uint64_t)v->v[EP_TILE_ELEMS].i;
        if (t.tile % min_tile)
            return dv_ops_param_error(err, "tile-elems", "%llu %s elements are %llu bytes, not whole 32-B blocks "
                                      "(a copy moves 32-B blocks): use a multiple of %llu",
                                      (unsigned long long)t.tile, dv_ops_dtype_name(dt),
                                      (unsigned long long)(t.tile * size), (unsigned long long)min_tile);
    }
    if (t.tile * per_elem > cfg->ub_size_bytes) {
        char scratch[64] = "";
        if (t.ntmp)
            snprintf(scratch, sizeof scratch, " + %u fp32 scratch x %llu B", t.ntmp,
                     (unsigned long long)(t.tile * 4));
        return dv_ops_param_error(err, "tile-elems", "%llu elements need %llu bytes of UB (%u queues x %u buffers x "
                                  "%llu B%s), core.ub_size_bytes is %llu",
                                  (unsigned long long)t.tile, (unsigned long long)(t.tile * per_elem), queues,
                                  t.depth, (unsigned long long)(t.tile * size), scratch,
                                  (unsigned long long)cfg->ub_size_bytes);
    }

    const uint64_t units = dv_ceil_div(n, t.unit);
    uint64_t cores = v->v[EP_CORES].i ? (uint64_t)v->v[EP_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_min_u64(cores, units);
    plan->info.subs = 1;

    double lo = 0, hi = 0; /* the default range */
    if (kind == EW_DIV) {
        lo = 0.5; /* divisor away from zero: quotients stay within [-2, 2] */
        hi = 2.0;
    }
    double xlo = 0, xhi = 0; /* log, sqrt, rsqrt, reciprocal: inputs in their domain, away from 0 */
    if (kind == EW_LOG || kind == EW_SQRT || kind == EW_RSQRT || kind == EW_RECIPROCAL) {
        xlo = 0.25;
        xhi = 4.0;
    }
    if ((d->lo != 0 || d->hi != 0) && d->binary) { /* a backward form: y is self / the forward's output */
        lo = d->lo;
        hi = d->hi;
    } else if (d->lo != 0 || d->hi != 0) {
        xlo = d->lo;
        xhi = d->hi;
    }
    if (kind == EW_POW) { /* bases in [0.25, 4): exponents in [-3, 3) */
        xlo = 0.25;
        xhi = 4;
    } else if (kind == EW_POWS && (t.prog == EW_POW_ODD || t.prog == EW_POW_EVEN || t.prog == EW_POW_ONE ||
                                   t.prog == EW_POW_TWO || t.prog == EW_POW_THREE || t.prog == EW_POW_ZERO)) {
        xlo = -2; /* a whole exponent: negative bases too */
        xhi = 2;
    }
    if ((rc = dv_ops_add_arg(plan, "x", dt, n, DV_ARG_IN, xlo, xhi)) ||
        (d->binary && (rc = dv_ops_add_arg(plan, "y", dt, n, DV_ARG_IN, lo, hi))) ||
        (d->ternary && (rc = dv_ops_add_arg(plan, "w", dt, n, DV_ARG_IN, kind == EW_ADDCDIV ? 0.5 : 0,
                                            kind == EW_ADDCDIV ? 2 : 0))) ||
        (rc = dv_ops_add_arg(plan, d->binary ? "z" : "y", dt, n, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    if (alpha_params && !v->v[EP_L2_INPUTS].i)
        plan->args[0].l2 = plan->args[1].l2 = DV_L2_DISABLE; /* add, sub: x and y */
    t.pairs = alpha_params && v->v[EP_PAIR_INPUTS].i;
    t.sloop = alpha_params && v->v[EP_SCALAR_LOOP].i;
    t.sloop_alu_cycles = t.sloop ? EW_LOOP_ALU_INSNS * cfg->scalar_alu_cycles : 0;

    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = (uint64_t)(d->steps ? d->nsteps : 1 + t.scale) * n;
    plan->bytes = (uint64_t)queues * n * size;
    plan->tol_scale = 1.0;
    return DV_OK;
}

/* An integer result as the hardware stores it: vadd/vsub/vmul wrap (docs/SEMANTICS.md 2). */
static double wrap_int(dv_dtype_t t, int64_t v)
{
    return t == DV_DT_S16 ? (double)(int16_t)(uint16_t)v : (double)(int32_t)(uint32_t)v;
}

static int64_t ew_int(ew_kind_t kind, int64_t a, int64_t b)
{
    switch (kind) {
    case EW_ADD: case EW_ADDS: return a + b;
    case EW_SUB: return a - b;
    case EW_MUL: case EW_MULS: return a * b;
    case EW_MAX: return a >= b ? a : b;
    case EW_MIN: case EW_MINS: return a <= b ? a : b;
    case EW_MAXS: return a >= b ? a : b;
    case EW_RELU: return a > 0 ? a : 0;
    case EW_ABS: return a < 0 ? -a : a;
    case EW_NEG: return -a;
    case EW_SIGN: return (a > 0) - (a < 0);
    default: return 0; /* the plan accepts only float dtypes for the others */
    }
}

/* add, sub on floats, step by step as the kernel computes them: vmuls rounds alpha * y to the dtype,
 * vadd / vsub compute in fp32 and round to the dtype. */
static double ew_addsub_float(const ew_tiling_t *t, double a, double b)
{
    const dv_dtype_t dt = (dv_dtype_t)t->dtype;
    const float fa = (float)a;
    const float fb = t->scale ? (float)dv_ops_round(dt, t->scalar * b) : (float)b; /* a double product is exact */
    const float z = t->kind == EW_ADD ? fa + fb : fa - fb;
    return z;
}

/* The backward forms: g the gradient, v self or the forward's output, p the attribute. */
static double ew_backward(ew_kind_t kind, double g, double v, double p)
{
    switch (kind) {
    case EW_SIGMOID_BW: return g * v * (1 - v);
    case EW_TANH_BW: return g * (1 - v * v);
    case EW_HARDSIGMOID_BW: return v > -3 && v < 3 ? g / 6 : 0;
    case EW_THRESHOLD_BW: return v > p ? g : 0;
    case EW_SOFTSHRINK_BW: case EW_HARDSHRINK_BW: return fabs(v) > p ? g : 0;
    case EW_SELU_BW: return g * (v > 0 ? SELU_SCALE : v + SELU_SCALE * SELU_ALPHA);
    case EW_SILU_BW: { const double s = 1 / (1 + exp(-v)); return g * s * (1 + v * (1 - s)); }
    case EW_SOFTSIGN_BW: return g / ((1 + fabs(v)) * (1 + fabs(v)));
    default: return 0;
    }
}

static double ew_float(ew_kind_t kind, double a, double b)
{
    switch (kind) {
    case EW_ADD: case EW_ADDS: return a + b;
    case EW_SUB: return a - b;
    case EW_MUL: case EW_MULS: return a * b;
    case EW_DIV: case EW_DIVS: return a / b;
    case EW_MAX: return a >= b ? a : b;
    case EW_RELU: return a > 0 ? a : 0;
    case EW_EXP: return exp(a);
    case EW_SIGMOID: return 1 / (1 + exp(-a));
    case EW_SILU: return a / (1 + exp(-a));
    case EW_GELU: return a / (1 + exp(-GELU_SCALE * (a + GELU_CUBIC * a * a * a)));
    case EW_TANH: return 2 / (1 + exp(-2 * a)) - 1;
    case EW_MIN: case EW_MINS: return a <= b ? a : b;
    case EW_MAXS: return a >= b ? a : b;
    case EW_ABS: return fabs(a);
    case EW_NEG: return -a;
    case EW_LOG: return log(a);
    case EW_SQRT: return sqrt(a);
    case EW_RSQRT: return 1 / sqrt(a);
    case EW_RECIPROCAL: return 1 / a;
    case EW_LEAKY_RELU: return a >= 0 ? a : a * b;
    case EW_HARDSIGMOID: return fmin(fmax(a + 3, 0), 6) / 6;
    case EW_HARDSWISH: return a * fmin(fmax(a + 3, 0), 6) / 6;
    case EW_SELU: return SELU_SCALE * (a > 0 ? a : SELU_ALPHA * expm1(a));
    case EW_CELU: return a > 0 ? a : b * expm1(a / b);
    case EW_MISH: return a * tanh(log1p(exp(a)));
    case EW_SOFTSIGN: return a / (1 + fabs(a));
    case EW_LOGSIGMOID: return -log1p(exp(-a));
    case EW_SOFTSHRINK: return a > b ? a - b : a < -b ? a + b : 0;
    case EW_SQUARE: return a * a;
    case EW_EXPM1: return expm1(a);
    case EW_EXP2: return exp2(a);
    case EW_LOG1P: return log1p(a);
    case EW_LOG2: return log2(a);
    case EW_LOG10: return log10(a);
    case EW_SIGN: return a > 0 ? 1 : a < 0 ? -1 : 0;
    case EW_FLOOR: return floor(a);
    case EW_CEIL: return ceil(a);
    case EW_ROUND: return nearbyint(a); /* half to even, the default rounding mode */
    case EW_TRUNC: return trunc(a);
    case EW_ACOSH: return acosh(a);
    case EW_ASINH: return asinh(a);
    case EW_ATANH: return atanh(a);
    case EW_SINH: return sinh(a);
    case EW_COSH: return cosh(a);
    case EW_ERF: return erf(a);
    case EW_ERFC: return erfc(a);
    case EW_SIN: return sin(a);
    case EW_COS: return cos(a);
    case EW_HARDSHRINK: return fabs(a) > b ? a : 0;
    case EW_SIGMOID_BW: case EW_TANH_BW: case EW_HARDSIGMOID_BW: case EW_THRESHOLD_BW: case EW_SOFTSHRINK_BW:
    case EW_HARDSHRINK_BW: case EW_SELU_BW: case EW_SILU_BW: case EW_SOFTSIGN_BW: /* ew_backward */
    case EW_ATAN: case EW_ASIN: case EW_ACOS: case EW_TAN: case EW_SINC: case EW_FAST_GELU: case EW_SWISH:
    case EW_POWS: case EW_POW: case EW_ATAN2: case EW_GELU_BW: case EW_HARDSWISH_BW: case EW_MISH_BW:
    case EW_LOGSIGMOID_BW: case EW_SWISH_BW: case EW_LEAKY_RELU_BW: case EW_THRESHOLD: case EW_HARDTANH_BW:
    case EW_ELU: case EW_SOFTPLUS: case EW_SOFTPLUS_BW: case EW_LOG_ADD_EXP: case EW_LOG_ADD_EXP2: case EW_XLOGY:
    case EW_HEAVISIDE: case EW_ADDCMUL: case EW_ADDCDIV: case EW_XLOGY_SO: case EW_XLOGY_SS: case EW_ERFINV:
    case EW_LERP: case EW_LERPS: case EW_ASIN_BW: case EW_ACOS_BW: case EW_ACOSH_BW: case EW_ASINH_BW: case EW_RSQRT_BW:
    case EW_SQRT_BW: case EW_ADD_RELU: case EW_ELU_BW: case EW_ELU_BW_RESULT:
        /* ew2_ref, ew_reference */
    case EW_CLAMP: case EW_KINDS: break; /* clamp: ew_reference */
    }
    return 0;
}

/* erfinv in double: Newton's method on erf from a first guess (ln form), to double precision */
static double ew_erfinv(double y)
{
    if (!(fabs(y) <= 1))
        return NAN;
    if (fabs(y) == 1)
        return y * INFINITY;
    const double w = -log((1 - y) * (1 + y));
    double x = fabs(y) <= 0.7 ? y * sqrt(EW_PI) / 2 : copysign(sqrt(w - log(EW_PI * w) / 2), y);
    for (int i = 0; i < 60; i++) {
        const double step = (erf(x) - y) / (2 / sqrt(EW_PI) * exp(-x * x));
        x -= step;
        if (fabs(step) <= 1e-17 * fabs(x))
            break;
    }
    return x;
}

/* s20-ew2's operators in double: a (x, or the gradient), b (the second input), p (the --scalar) */
static double ew2_ref(ew_kind_t kind, double a, double b, double p, double p2, double p3)
{
    switch (kind) {
    case EW_ATAN: return atan(a);
    case EW_ASIN: return asin(a);
    case EW_ACOS: return acos(a);
    case EW_TAN: return tan(a);
    case EW_SINC: return a == 0 ? 1 : sin(EW_PI * a) / (EW_PI * a);
    case EW_FAST_GELU: return a / (1 + exp(-FAST_GELU_K * a));
    case EW_SWISH: return a / (1 + exp(-p * a));
    case EW_POWS: return pow(a, p);
    case EW_POW: return pow(a, b);
    case EW_ATAN2: return atan2(a, b);
    case EW_GELU_BW: {
        const double s = 1 / (1 + exp(-GELU_SCALE * (b + GELU_CUBIC * b * b * b)));
        return a * (s + b * s * (1 - s) * GELU_SCALE * (1 + 3 * GELU_CUBIC * b * b));
    }
    case EW_HARDSWISH_BW: return b < -3 ? 0 : b > 3 ? a : a * (b / 3 + 0.5);
    case EW_MISH_BW: {
        const double th = tanh(log1p(exp(b))), sg = 1 / (1 + exp(-b));
        return a * (th + b * (1 - th * th) * sg);
    }
    case EW_LOGSIGMOID_BW: return a / (1 + exp(b));
    case EW_SWISH_BW: {
        const double s = 1 / (1 + exp(-p * b));
        return a * (s + p * b * s * (1 - s));
    }
    case EW_LEAKY_RELU_BW: return b > 0 ? a : a * p;
    case EW_THRESHOLD: return a > p ? a : p2;
    case EW_HARDTANH_BW: return b > p && b < p2 ? a : 0;
    case EW_ELU: return a > 0 ? p2 * a : p2 * p * expm1(p3 * a);
    case EW_SOFTPLUS: return p * a > p2 ? a : log1p(exp(p * a)) / p;
    case EW_SOFTPLUS_BW: return p * b > p2 ? a : a / (1 + exp(-p * b));
    case EW_LOG_ADD_EXP: return fmax(a, b) + log1p(exp(-fabs(a - b)));
    case EW_LOG_ADD_EXP2: return fmax(a, b) + log2(1 + exp2(-fabs(a - b)));
    case EW_XLOGY: return a == 0 && !isnan(b) ? 0 : a * log(b);
    case EW_HEAVISIDE: return a > 0 ? 1 : a < 0 ? 0 : b;
    case EW_XLOGY_SO: return a == 0 && !isnan(p) ? 0 : a * log(p);
    case EW_XLOGY_SS: return p == 0 && !isnan(a) ? 0 : p * log(a);
    case EW_ERFINV: return ew_erfinv(a);
    case EW_LERPS: return a + p * (b - a);
    case EW_ASIN_BW: return a / sqrt(1 - b * b);
    case EW_ACOS_BW: return -a / sqrt(1 - b * b);
    case EW_ACOSH_BW: return a / sinh(b);
    case EW_ASINH_BW: return a / cosh(b);
    case EW_RSQRT_BW: return a * -0.5 * b * b * b;
    case EW_SQRT_BW: return a * 0.5 / b;
    case EW_ADD_RELU: return fmax(a + p * b, 0);
    case EW_ELU_BW: return a * (b > 0 ? p2 : p2 * p * p3 * exp(p3 * b));
    case EW_ELU_BW_RESULT: return a * (b > 0 ? p2 : p3 * (b + p2 * p));
    default: return 0;
    }
}

/* The formulas in double (integers in int64, wrapped like the hardware), rounded once on store; add
 * and sub round each step like the kernel (ew_addsub_float).  muls and adds take the scalar as the
 * kernel holds it (rounded to the dtype); one rounding of the double result is then exactly the
 * hardware's (a product of two fp16 or fp32 values is exact in double, and a double sum rounded to
 * fp16 / fp32 is the correctly rounded sum, docs/SEMANTICS.md 2). */
static int ew_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    ew_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t dt = (dv_dtype_t)t.dtype;
    const ew_kind_t kind = (ew_kind_t)t.kind;
    const bool binary = ew_defs[kind].binary, is_float = dv_dtype_is_float(dt);
    const bool with_scalar = kind == EW_MULS || kind == EW_ADDS || kind == EW_LEAKY_RELU || kind == EW_DIVS ||
                             kind == EW_MAXS || kind == EW_MINS || kind == EW_CELU || kind == EW_SOFTSHRINK ||
                             kind == EW_HARDSHRINK;
    uint8_t *out = expect[ew_defs[kind].ternary ? 3 : binary ? 2 : 1];
    for (uint64_t i = 0; i < t.elems; i++) {
        const double a = dv_ops_load(in[0], dt, i), b = binary ? dv_ops_load(in[1], dt, i) : with_scalar ? t.scalar : 0;
        if (kind == EW_CLAMP) { /* max then min, exact in every dtype */
            const double lo = a >= t.scalar ? a : t.scalar;
            dv_ops_store(out, dt, i, lo <= t.scalar2 ? lo : t.scalar2);
            continue;
        }
        if (ew_defs[kind].ternary) {
            const double c = dv_ops_load(in[2], dt, i);
            dv_ops_store(out, dt, i, kind == EW_ADDCMUL ? a + t.scalar * b * c : kind == EW_ADDCDIV ? a + t.scalar * b / c
                                                                              : a + c * (b - a));
            continue;
        }
        if (kind >= EW_S20) {
            dv_ops_store(out, dt, i, ew2_ref(kind, a, binary ? b : 0, t.scalar, t.scalar2, t.scalar3));
            continue;
        }
        if (kind >= EW_SIGMOID_BW) {
            dv_ops_store(out, dt, i, ew_backward(kind, a, b, t.scalar));
            continue;
        }
        if (kind == EW_ADD || kind == EW_SUB) {
            const int64_t sb =
                t.scale && !is_float ? (int64_t)wrap_int(dt, (int64_t)t.scalar * (int64_t)b) : (int64_t)b;
            dv_ops_store(out, dt, i, is_float ? ew_addsub_float(&t, a, b) : wrap_int(dt, ew_int(kind, (int64_t)a, sb)));
            continue;
        }
        dv_ops_store(out, dt, i,
                     is_float ? ew_float(kind, a, b) : wrap_int(dt, ew_int(kind, (int64_t)a, (int64_t)b)));
    }
    return DV_OK;
}

/* ---- per-tile work (dv/ops.h): the state is ew_state_t ---- */
static uint64_t ew_tile_ub_bytes(const dv_op_plan_t *plan, const dv_config_t *cfg, uint64_t rows, uint64_t pitch)
{
    ew_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    return t.ntmp * dv_round_up(rows * pitch * 4, cfg->ub_align_bytes);
}

static void ew_tile_setup(dv_k_t *k, const dv_op_plan_t *plan, const uint32_t *argmap, uint64_t rows, uint64_t pitch,
                          void *state)
{
    (void)argmap;
    ew_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    ew_state_t st;
    ew_alloc_scratch(k, &t, rows * pitch, &st);
    memcpy(state, &st, sizeof st);
}

static void ew_tile_emit(dv_k_t *k, const dv_op_plan_t *plan, const void *state, const dv_tile_t *tile)
{
    ew_tiling_t t;
    ew_state_t st;
    memcpy(&t, plan->tiling, sizeof t);
    memcpy(&st, state, sizeof st);
    if (t.sloop)
        dvk_fail(k, "%s --scalar-loop on cannot join a fused kernel (its tile work is the vector unit's)",
                 ew_defs[t.kind].name);
    ew_compute(k, &t, &st, tile);
}

/* Any view will do: the work is per element. */
static const dv_tile_ops_t ew_tile_ops = {.flags = 0, .view = NULL, .ub_bytes = ew_tile_ub_bytes,
                                          .setup = ew_tile_setup, .emit = ew_tile_emit};

/* As a graph node: one input (two for the binary operators), all of one shape and dtype. */
static int ew_bind(const dv_opdesc_t *op, const dv_tensor_desc_t *in, int nin, dv_opvals_t *v, dv_tensor_desc_t *out,
                   dv_error_t *err)
{
    const int kind = ew_kind_of(op), want = kind < 0 ? 1 : ew_defs[kind].ternary ? 3 : ew_defs[kind].binary ? 2 : 1;
    if (nin != want)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "%s takes %d input%s, %d given", op->name, want,
                            want == 1 ? "" : "s", nin);
    return dv_ops_bind_same(op, in, nin, v, out, err);
}

/* The element-wise operators (ops/ops.def rows). */
#define EW_OP(ident, ptab, what)                                                                                \
    const dv_opdesc_t dv_op_##ident = {.name = #ident, .desc = what, .params = ptab,                             \
                                       .nparams = (int)(sizeof ptab / sizeof ptab[0]), .plan = ew_plan,     \
                                       .kernel = ew_kernel, .reference = ew_reference,                       \
                                       .bind = ew_bind, .tile = &ew_tile_ops}

EW_OP(add, ew_params_alpha, "z = x + alpha * y, element-wise over the flattened --shape");
EW_OP(sub, ew_params_alpha, "z = x - alpha * y, element-wise");
EW_OP(mul, ew_params_arith, "z = x * y, element-wise");
EW_OP(div, ew_params_float, "z = x / y, element-wise (y random in [0.5, 2))");
EW_OP(max, ew_params_arith, "z = max(x, y), element-wise");
EW_OP(muls, ew_params_muls, "y = x * s, element-wise (vmuls, s in --dtype)");
EW_OP(adds, ew_params_adds, "y = x + s, element-wise (vadds, s in --dtype)");
EW_OP(relu, ew_params_relu, "y = max(x, 0)");
EW_OP(gelu, ew_params_float,
      "y = x * sigmoid(2 sqrt(2/pi) (x + 0.044715 x^3)) (tanh form); fp16 computes in fp32");
EW_OP(exp, ew_params_float, "y = exp(x)");
EW_OP(sigmoid, ew_params_float, "y = 1 / (1 + exp(-x)); fp16 computes in fp32");
EW_OP(silu, ew_params_float, "y = x * sigmoid(x); fp16 computes in fp32");
EW_OP(tanh, ew_params_float, "y = tanh(x), computed as 2 / (1 + exp(-2x)) - 1; fp16 computes in fp32");
EW_OP(min, ew_params_arith, "z = min(x, y), element-wise");
EW_OP(abs, ew_params_signed, "y = |x| (vabs; integers wrap: |INT_MIN| is INT_MIN)");
EW_OP(neg, ew_params_signed, "y = -x (vmuls by -1; integers wrap)");
EW_OP(log, ew_params_float, "y = ln(x) (vln; x random in [0.25, 4))");
EW_OP(sqrt, ew_params_float, "y = sqrt(x) (vsqrt; x random in [0.25, 4))");
EW_OP(rsqrt, ew_params_float, "y = 1 / sqrt(x) (vrsqrt; x random in [0.25, 4))");
EW_OP(reciprocal, ew_params_float, "y = 1 / x (vrec; x random in [0.25, 4))");
EW_OP(leaky_relu, ew_params_lrelu, "y = x < 0 ? x * s : x (vlrelu, s in --dtype)");
EW_OP(maxs, ew_params_maxs, "y = max(x, s) (vmaxs, s in --dtype)");
EW_OP(mins, ew_params_mins, "y = min(x, s) (vmins, s in --dtype)");
EW_OP(clamp, ew_params_clamp, "y = min(max(x, --min), --max) (vmaxs, then vmins)");
EW_OP(divs, ew_params_divs, "y = x / s (vdup of s once per block, then vdiv; s in --dtype)");
/* s19-act: step tables, fp16 computes in fp32 */
EW_OP(hardsigmoid, ew_params_float, "y = min(max(x / 6 + 0.5, 0), 1) (relu6(x + 3) / 6)");
EW_OP(hardswish, ew_params_float, "y = x * hardsigmoid(x)");
EW_OP(selu, ew_params_float, "y = 1.0507 * (x > 0 ? x : 1.6733 * (exp(x) - 1))");
EW_OP(celu, ew_params_celu, "y = max(x, 0) + min(0, s * (exp(x / s) - 1)) (s: alpha)");
EW_OP(mish, ew_params_float, "y = x * tanh(ln(1 + exp(x)))");
EW_OP(softsign, ew_params_float, "y = x / (1 + |x|)");
EW_OP(logsigmoid, ew_params_float, "y = ln(sigmoid(x)) = min(x, 0) - ln(1 + exp(-|x|))");
EW_OP(softshrink, ew_params_softshrink, "y = x - clamp(x, -s, s) (s: lambd)");
EW_OP(square, ew_params_float, "y = x * x");
EW_OP(expm1, ew_params_float, "y = exp(x) - 1");
EW_OP(exp2, ew_params_float, "y = 2^x = exp(x ln 2)");
EW_OP(log1p, ew_params_float, "y = ln(1 + x) (x random in [-0.5, 4))");
EW_OP(log2, ew_params_float, "y = ln(x) / ln 2 (x random in [0.25, 4))");
EW_OP(log10, ew_params_float, "y = ln(x) / ln 10 (x random in [0.25, 4))");
EW_OP(sign, ew_params_signed, "y = -1, 0 or 1 (floats: x * 2^100 * 2^100 clamped to [-1, 1] in fp32; integers: "
      "vmaxs -1, vmins 1)");
EW_OP(floor, ew_params_float, "y = floor(x) (vconv f32 -> f32, round F)");
EW_OP(ceil, ew_params_float, "y = ceil(x) (vconv f32 -> f32, round C)");
EW_OP(round, ew_params_float, "y = x rounded half to even (vconv f32 -> f32, round R)");
EW_OP(trunc, ew_params_float, "y = x rounded toward 0 (vconv f32 -> f32, round Z)");
EW_OP(acosh, ew_params_float, "y = ln(x + sqrt(x^2 - 1)) (x random in [1.25, 4))");
EW_OP(asinh, ew_params_float, "y = sign(x) ln(|x| + sqrt(x^2 + 1))");
EW_OP(atanh, ew_params_float, "y = ln((1 + x) / (1 - x)) / 2 (x random in [-0.9, 0.9))");
EW_OP(sinh, ew_params_float, "y = (exp(x) - exp(-x)) / 2 (x random in [-4, 4))");
EW_OP(cosh, ew_params_float, "y = (exp(x) + exp(-x)) / 2 (x random in [-4, 4))");
EW_OP(erf, ew_params_float, "y = erf(x), Abramowitz and Stegun 7.1.26 (error < 1.5e-7; x random in [-3, 3))");
EW_OP(erfc, ew_params_float, "y = 1 - erf(x) (erf's steps; x random in [-3, 3))");
EW_OP(sin, ew_params_float, "y = sin(x): reduced to [-pi, pi] by rint(x / 2 pi - 1/4) and cos's polynomial (x random in [-10, 10))");
EW_OP(cos, ew_params_float, "y = cos(x): reduced to [-pi, pi] by rint(x / 2 pi), Taylor to x^18 (x random in [-10, 10))");
EW_OP(hardshrink, ew_params_shrink, "y = |x| > s ? x : 0 (s: lambd)");
/* backward forms: x the gradient, y self or the forward's output */
EW_OP(sigmoid_backward, ew_params_float, "z = x * y * (1 - y), y the sigmoid's output");
EW_OP(tanh_backward, ew_params_float, "z = x * (1 - y^2), y the tanh's output");
EW_OP(hardsigmoid_backward, ew_params_float, "z = -3 < y < 3 ? x / 6 : 0");
EW_OP(threshold_backward, ew_params_threshold, "z = y > s ? x : 0 (s: threshold)");
EW_OP(softshrink_backward, ew_params_shrink, "z = |y| > s ? x : 0 (s: lambd)");
EW_OP(hardshrink_backward, ew_params_shrink, "z = |y| > s ? x : 0 (s: lambd)");
EW_OP(selu_backward, ew_params_float, "z = x * (y > 0 ? 1.0507 : y + 1.0507 * 1.6733), y the selu's result");
EW_OP(silu_backward, ew_params_float, "z = x * s * (1 + y (1 - s)), s = sigmoid(y)");
EW_OP(softsign_backward, ew_params_float, "z = x / (1 + |y|)^2");
/* s20-ew2 */
EW_OP(atan, ew_params_float, "y = atan(x): clamped to 2^60, three half-angle steps, Taylor to x^13 (x random in [-8, 8))");
EW_OP(asin, ew_params_float, "y = asin(x) = atan(x / sqrt((1 - x)(1 + x))) (x random in [-1, 1))");
EW_OP(acos, ew_params_float, "y = acos(x) = pi/2 - asin(x) (x random in [-1, 1))");
EW_OP(tan, ew_params_float, "y = tan(x) = sin(x) / cos(x): cos's steps, sin by Taylor to x^19 on [-pi, pi] (x "
      "random in [-1.2, 1.2))");
EW_OP(sinc, ew_params_float, "y = sin(pi x) / (pi x), 1 at 0: sin by Taylor to x^19 on [-pi, pi] (x random in [-4, 4))");
EW_OP(fast_gelu, ew_params_float, "y = x / (1 + exp(-1.702 x))");
EW_OP(swish, ew_params_beta, "y = x / (1 + exp(-s x)) (s: beta)");
EW_OP(pows, ew_params_pows, "y = x^s (s: the exponent; steps by its class, see --scalar)");
EW_OP(pow, ew_params_float, "z = x^y = exp(y ln|x|), the sign of x for an odd whole y, NaN for x < 0 and a "
      "fractional y, 1 for y = 0 (x random in [0.25, 4), y in [-3, 3))");
EW_OP(atan2, ew_params_float, "z = atan2(x, y), the angle of the point (y, x): atan(x / y) and the quadrant");
EW_OP(gelu_backward, ew_params_float, "z = x * gelu'(y), the tanh form's derivative");
EW_OP(hardswish_backward, ew_params_float, "z = y < -3 ? 0 : y > 3 ? x : x * (y / 3 + 0.5)");
EW_OP(mish_backward, ew_params_float, "z = x * (tanh(sp) + y sech^2(sp) sigmoid(y)), sp = ln(1 + exp(y))");
EW_OP(logsigmoid_backward, ew_params_float, "z = x / (1 + exp(y))");
EW_OP(swish_backward, ew_params_beta, "z = x * (s + b y s (1 - s)), s = sigmoid(b y) (b: beta)");
EW_OP(leaky_relu_backward, ew_params_slope, "z = y > 0 ? x : x * s (s: negative slope)");
EW_OP(threshold, ew_params_thr, "y = x > threshold ? x : value");
EW_OP(hardtanh_backward, ew_params_minmax, "z = min < y < max ? x : 0");
EW_OP(elu, ew_params_elu, "y = x > 0 ? scale x : scale alpha (exp(input-scale x) - 1)");
EW_OP(softplus, ew_params_softplus, "y = beta x > threshold ? x : ln(1 + exp(beta x)) / beta (x random in [-30, 30))");
EW_OP(softplus_backward, ew_params_softplus, "z = beta y > threshold ? x : x sigmoid(beta y)");
EW_OP(log_add_exp, ew_params_float, "z = ln(exp(x) + exp(y)) = max(x, y) + ln(1 + exp(-|x - y|))");
EW_OP(log_add_exp2, ew_params_float, "z = log2(2^x + 2^y) = max(x, y) + log2(1 + 2^-|x - y|)");
EW_OP(xlogy, ew_params_float, "z = x ln(y), 0 where x is 0 (y random in [0.25, 4))");
EW_OP(heaviside, ew_params_float, "z = x > 0 ? 1 : x < 0 ? 0 : y");
EW_OP(xlogy_scalar_other, ew_params_xlogy, "y = x ln(s), 0 where x is 0 (s: the scalar other)");
EW_OP(xlogy_scalar_self, ew_params_xlogy, "y = s ln(x), 0 for s = 0 (s: the scalar self; x random in [0.25, 4))");
EW_OP(erfinv, ew_params_float, "y = erfinv(x): Giles' two polynomials in ln((1 - x)(1 + x)) (x random in [-1, 1))");
EW_OP(lerp, ew_params_float, "z = x + w * (y - x) (three inputs: start, end, weight)");
EW_OP(lerps, ew_params_weight, "z = x + s * (y - x) (s: the weight)");
EW_OP(asin_backward, ew_params_float, "z = x / sqrt(1 - y^2), y asin's input");
EW_OP(acos_backward, ew_params_float, "z = -x / sqrt(1 - y^2), y acos' input");
EW_OP(acosh_backward, ew_params_float, "z = x / sinh(y), y acosh's output");
EW_OP(asinh_backward, ew_params_float, "z = x / cosh(y), y asinh's output");
EW_OP(rsqrt_backward, ew_params_float, "z = x * -0.5 * y^3, y rsqrt's output");
EW_OP(sqrt_backward, ew_params_float, "z = x * 0.5 / y, y sqrt's output (y random in [0.25, 4))");
EW_OP(add_relu, ew_params_addrelu, "z = max(x + s * y, 0) (s: alpha)");
EW_OP(elu_backward, ew_params_elu, "z = x * (y > 0 ? scale : scale alpha input-scale exp(input-scale y)), y elu's input");
EW_OP(elu_backward_result, ew_params_elu, "z = x * (y > 0 ? scale : input-scale (y + scale alpha)), y elu's result "
      "(y random in [-0.9, 4))");
EW_OP(addcmul, ew_params_value, "z = x + s * y * w (three inputs; s: value)");
EW_OP(addcdiv, ew_params_value, "z = x + s * y / w (three inputs; s: value; w random in [0.5, 2))");

/* ---- copy: the GM -> UB / L1 bandwidth benchmark ---- */
enum {
    CP_SHAPE, CP_DTYPE, CP_TILE, CP_COPIES_PER_BUFFER, CP_CORES, CP_DOUBLE_BUFFER, CP_WRITE, CP_L1, CP_REPEAT,
    CP_COL_SPLIT, CP_READ_ALL, CP_STAGGER, CP_L2_DISABLE, CP_SYNC, CP_COUNT
};

static const dv_oparam_spec_t copy_params[CP_COUNT] = {
    [CP_SHAPE] = {"shape", DV_OPT_SHAPE, "4096x4096", 1, INT64_C(1) << 32, 0,
                  "2-D tensor RxC (row-major) read from GM; rows that are not whole 32-B blocks are read "
                  "with DataCopyPad (copy_gm_to_ubuf_align, byte lengths) or, with --l1, ND2NZ"},
    [CP_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, DT_F16 | DT_BF16 | DT_F32 | DT_S8 | DT_S16 | DT_S32,
                  "element type (--l1: fp16, bf16, fp32 or int8, the ND2NZ types)"},
    [CP_TILE] = {"tile", DV_OPT_TILE, "16x1024", 1, INT64_C(1) << 32, 0,
                 "rows x cols per copy: one DMA of R bursts of C elements (C whole 32-B blocks when the rows are); "
                 "clipped to --shape"},
    [CP_COPIES_PER_BUFFER] = {"copies-per-buffer", DV_OPT_INT, "1", 1, 4096, 0,
                              "tiles copied into one queue buffer before it is handed on (one sync per buffer)"},
    [CP_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0,
                  "blocks (auto: every vector core, with --l1 every cube core); at most one per tile"},
    [CP_DOUBLE_BUFFER] = {"double-buffer", DV_OPT_BOOL, "on", 0, 1, 0, "two buffers (on) or one (off)"},
    [CP_WRITE] = {"write", DV_OPT_BOOL, "off", 0, 1, 0,
                  "also write every tile back to an output y (UB -> GM), so --check can compare (not with --l1)"},
    [CP_L1] = {"l1", DV_OPT_BOOL, "off", 0, 1, 0,
               "copy GM -> L1 on the cube cores, ND -> NZ (copy_gm_to_cbuf_nd2nz, Ascend C DataCopy with "
               "Nd2NzParams) instead of GM -> UB"},
    [CP_REPEAT] = {"repeat", DV_OPT_INT, "1", 1, 1024, 0,
                   "each block reads its tiles this many times in a row (L2 reuse)"},
    [CP_COL_SPLIT] = {"col-split", DV_OPT_INT, "1", 1, 1024, 0,
                      "split the columns into this many equal slices, read one after the other (each --repeat "
                      "times): the data_copy sample's L2 reuse study"},
    [CP_READ_ALL] = {"read-all", DV_OPT_BOOL, "off", 0, 1, 0,
                     "every block reads the whole tensor, one block's share (run) after another, all blocks in "
                     "the same order"},
    [CP_STAGGER] = {"stagger", DV_OPT_BOOL, "off", 0, 1, 0,
                    "with --read-all, block b reads run (j + b) mod blocks at step j (the sample's offset "
                    "addresses) instead of run j"},
    [CP_L2_DISABLE] = {"l2-disable", DV_OPT_BOOL, "off", 0, 1, 0,
                       "the input's L2 cache mode is disable (Ascend C SetL2CacheHint(CACHE_MODE_DISABLE)): its "
                       "lines are not allocated in L2"},
    [CP_SYNC] = {"sync", DV_OPT_BOOL, "on", 0, 1, 0,
                 "off: no queue, every copy lands in one local buffer and none waits for another (the data_copy "
                 "sample's loop; --copies-per-buffer and --double-buffer then do not apply)"},
};

typedef struct copy_tiling {
    uint32_t dtype, depth, write, l1, pad; /* pad: rows are not whole 32-B blocks (byte-length DMA) */
    uint32_t read_all, stagger, sync;
    uint64_t rows, cols;     /* the tensor */
    uint64_t trows, tcols;   /* a tile: one DMA */
    uint64_t per_buf;        /* tiles per queue buffer */
    uint64_t tile_bytes;     /* a tile's footprint in the local buffer */
    uint64_t repeat, slices; /* --repeat, --col-split */
    uint64_t scols;          /* columns per slice */
    uint64_t ntile_cols;     /* tiles per tile row of a slice */
    uint64_t tiles;          /* tiles per slice */
} copy_tiling_t;

/* One DMA: tile i (row-major within slice s) of the input into the local buffer buf, or (write) from
 * UB back to y.  A tile is R bursts of C elements (src_gap skips the rest of a tensor row); rows that
 * are not whole 32-B blocks go by byte lengths (DataCopyPad), the L1 path by ND2NZ. */
static void copy_tile(dv_k_t *k, const copy_tiling_t *t, uint64_t s, uint64_t i, uint64_t buf, bool write)
{
    const unsigned size = dv_dtype_size((dv_dtype_t)t->dtype);
    const uint64_t r0 = i / t->ntile_cols * t->trows, c0 = s * t->scols + i % t->ntile_cols * t->tcols;
    const uint64_t rr = dv_min_u64(t->trows, t->rows - r0);
    const uint64_t cc = dv_min_u64(t->tcols, (s + 1) * t->scols - c0);
    const uint64_t gm = (r0 * t->cols + c0) * size;
    if (t->l1) {
        dvk_copy_gm_to_cbuf_nd2nz(k, buf, dvk_gm(k, 0, gm), (dv_dtype_t)t->dtype, 1, (int64_t)rr, (int64_t)cc, 0,
                                  (int64_t)t->cols, (int64_t)dv_round_up(t->trows, 16), 1, 0);
    } else if (t->pad) {
        const int64_t row = (int64_t)(cc * size), gap = (int64_t)((t->cols - cc) * size);
        if (write)
            dvk_copy_ubuf_to_gm_align(k, dvk_gm(k, 1, gm), buf, (int64_t)rr, row, 0, gap);
        else
            dvk_copy_gm_to_ubuf_align(k, buf, dvk_gm(k, 0, gm), (int64_t)rr, row, gap, 0, 0, 0, size);
    } else {
        const uint64_t len = cc * size / EW_BLOCK_BYTES, gap = (t->cols - cc) * size / EW_BLOCK_BYTES;
        if (write)
            dvk_copy_ubuf_to_gm(k, dvk_gm(k, 1, gm), buf, (int64_t)rr, (int64_t)len, 0, (int64_t)gap);
        else
            dvk_copy_gm_to_ubuf(k, buf, dvk_gm(k, 0, gm), (int64_t)rr, (int64_t)len, (int64_t)gap, 0);
    }
}

/* Block b's run of the tiles of a slice: the tiles split into nb contiguous runs, as evenly as whole
 * tiles allow (rows split across the blocks when they divide evenly, as in the sample). */
static void copy_run(const copy_tiling_t *t, uint32_t b, uint32_t nb, uint64_t *first, uint64_t *end)
{
    const uint64_t base = t->tiles / nb, rem = t->tiles % nb;
    *first = b * base + dv_min_u64(b, rem);
    *end = *first + base + (b < rem);
}

/* Each block walks its runs: per slice, its own run --repeat times (or, with --read-all, every
 * block's run in turn, staggered by its index).  --copies-per-buffer consecutive tiles of a run fill
 * one queue buffer, which is then handed on once.  Without --write the queue goes MTE2 -> V (UB) or
 * MTE2 -> MTE1 (L1) and the consumer only frees the buffer; with --write it goes MTE2 -> MTE3 (a
 * bound VECIN/VECOUT queue) and MTE3 writes the tiles to y.  With --sync off there is no queue: every
 * copy overwrites one buffer and MTE2 streams them in order (the data_copy sample's read-only loop). */
static void copy_kernel(dv_k_t *k, const void *params)
{
    const copy_tiling_t *t = params;
    const uint32_t b = dvk_block_idx(k), nb = dvk_block_num(k);
    const uint64_t runs = t->read_all ? nb : 1;
    if (!t->sync) {
        const uint64_t buf = dvk_alloc(k, t->l1 ? DV_SPACE_L1 : DV_SPACE_UB, t->tile_bytes);
        for (uint64_t s = 0; s < t->slices; s++)
            for (uint64_t rep = 0; rep < t->repeat; rep++)
                for (uint64_t j = 0; j < runs; j++) {
                    uint64_t first, end;
                    copy_run(t, !t->read_all ? b : (uint32_t)(t->stagger ? (j + b) % nb : j), nb, &first, &end);
                    for (uint64_t i = first; i < end; i++)
                        copy_tile(k, t, s, i, buf, false);
                }
        return;
    }
    dv_que_t q;
    dvk_que_init(k, &q, t->l1 ? DV_SPACE_L1 : DV_SPACE_UB, DV_PIPE_MTE2,
                 t->write ? DV_PIPE_MTE3 : t->l1 ? DV_PIPE_MTE1 : DV_PIPE_V, t->depth, t->per_buf * t->tile_bytes);
    for (uint64_t s = 0; s < t->slices; s++)
        for (uint64_t rep = 0; rep < t->repeat; rep++)
            for (uint64_t j = 0; j < runs; j++) {
                const uint32_t who = !t->read_all ? b : (uint32_t)(t->stagger ? (j + b) % nb : j);
                uint64_t first, end;
                copy_run(t, who, nb, &first, &end);
                for (uint64_t i = first; i < end; i += t->per_buf) {
                    const uint64_t n = dv_min_u64(t->per_buf, end - i);
                    uint64_t buf = dvk_que_alloc(k, &q);
                    for (uint64_t m = 0; m < n; m++)
                        copy_tile(k, t, s, i + m, buf + m * t->tile_bytes, false);
                    dvk_que_enque(k, &q, buf);
                    buf = dvk_que_deque(k, &q);
                    for (uint64_t m = 0; t->write && m < n; m++)
                        copy_tile(k, t, s, i + m, buf + m * t->tile_bytes, true);
                    dvk_que_free(k, &q, buf);
                }
            }
}

/* The DMA field limits a tile must respect (isa/fields.def). */
static int copy_check_limits(const copy_tiling_t *t, unsigned size, dv_error_t *err)
{
    /* The widest gap comes with the narrowest tile: the last tile column of a slice when it is partial. */
    const uint64_t narrow = t->scols % t->tcols ? t->scols % t->tcols : t->tcols;
    if (t->l1) {
        const uint64_t max_n = dv_ops_field_max(DV_FORM_ND2NZ, DV_FLD(ND2NZ, n_value));
        const uint64_t max_d = dv_ops_field_max(DV_FORM_ND2NZ, DV_FLD(ND2NZ, d_value));
        const uint64_t max_s = dv_ops_field_max(DV_FORM_ND2NZ, DV_FLD(ND2NZ, src_d_stride));
        if (t->trows > max_n)
            return dv_ops_param_error(err, "tile", "%llu rows per ND2NZ copy, the limit is %llu (n_value)",
                                      (unsigned long long)t->trows, (unsigned long long)max_n);
        if (t->tcols > max_d)
            return dv_ops_param_error(err, "tile", "%llu columns per ND2NZ copy, the limit is %llu (d_value)",
                                      (unsigned long long)t->tcols, (unsigned long long)max_d);
        if (t->cols > max_s)
            return dv_ops_param_error(err, "shape", "rows of %llu elements, the ND2NZ source stride limit is %llu "
                                      "(src_d_stride)", (unsigned long long)t->cols, (unsigned long long)max_s);
        return DV_OK;
    }
    const dv_form_t f = t->pad ? DV_FORM_DMAPADIN : DV_FORM_DMA;
    const uint64_t unit = t->pad ? 1 : EW_BLOCK_BYTES; /* len and src_gap units */
    const uint64_t max_nburst = dv_ops_field_max(f, t->pad ? DV_FLD(DMAPADIN, nburst) : DV_FLD(DMA, nburst));
    const uint64_t max_len = dv_ops_field_max(f, t->pad ? DV_FLD(DMAPADIN, len) : DV_FLD(DMA, len));
    const uint64_t max_gap = dv_ops_field_max(f, t->pad ? DV_FLD(DMAPADIN, src_gap) : DV_FLD(DMA, src_gap));
    if (t->trows > max_nburst)
        return dv_ops_param_error(err, "tile", "%llu rows need %llu bursts in one copy, the DMA limit is %llu (nburst)",
                                  (unsigned long long)t->trows, (unsigned long long)t->trows,
                                  (unsigned long long)max_nburst);
    if (t->tcols * size / unit > max_len)
        return dv_ops_param_error(err, "tile", "a row of %llu bytes exceeds the DMA burst limit of %llu %s (len)",
                                  (unsigned long long)(t->tcols * size), (unsigned long long)max_len,
                                  t->pad ? "bytes" : "32-B blocks");
    const uint64_t gap = (t->cols - narrow) * size / unit;
    if (gap > max_gap)
        return dv_ops_param_error(err, "tile", "a tile of %llu columns skips %llu %s between its rows, the "
                                  "DMA gap limit is %llu (src_gap)", (unsigned long long)narrow,
                                  (unsigned long long)gap, t->pad ? "bytes" : "32-B blocks",
                                  (unsigned long long)max_gap);
    return DV_OK;
}

static int copy_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                     dv_error_t *err)
{
    const dv_shape_t *s = &v->v[CP_SHAPE].shape, *tile = &v->v[CP_TILE].shape;
    const dv_dtype_t dt = v->v[CP_DTYPE].dt;
    const unsigned size = dv_dtype_size(dt);
    if (s->ndims != 2)
        return dv_ops_param_error(err, "shape", "copy takes a 2-D shape RxC (%d dimensions given)", s->ndims);
    const uint64_t n = dv_shape_elems(s);
    int rc = check_tensor_bytes(cfg, n, size, err);
    if (rc)
        return rc;
    copy_tiling_t t = {.dtype = (uint32_t)dt, .depth = v->v[CP_DOUBLE_BUFFER].i ? 2 : 1,
                       .write = v->v[CP_WRITE].i ? 1 : 0, .l1 = v->v[CP_L1].i ? 1 : 0,
                       .read_all = v->v[CP_READ_ALL].i ? 1 : 0, .stagger = v->v[CP_STAGGER].i ? 1 : 0,
                       .rows = s->d[0], .cols = s->d[1], .repeat = (uint64_t)v->v[CP_REPEAT].i,
                       .slices = (uint64_t)v->v[CP_COL_SPLIT].i, .sync = v->v[CP_SYNC].i ? 1 : 0};
    if (!t.sync) {
        if (t.write)
            return dv_ops_param_error(err, "sync", "--write hands every tile from MTE2 to MTE3: it needs --sync on");
        t.depth = 1;
        t.per_buf = 1;
    }
    if (t.l1 && !cfg->l1_size_bytes)
        return dv_ops_param_error(err, "l1", "profile %s has no L1 (core.l1_size_bytes is 0)", cfg->chip_name);
    if (t.l1 && t.write)
        return dv_ops_param_error(err, "write", "--write copies UB back to GM; it cannot be used with --l1");
    if (t.l1 && !(dt == DV_DT_F16 || dt == DV_DT_BF16 || dt == DV_DT_F32 || dt == DV_DT_S8))
        return dv_ops_param_error(err, "dtype", "ND2NZ (--l1) moves fp16, bf16, fp32 or int8, not %s",
                                  dv_ops_dtype_name(dt));
    if (t.stagger && !t.read_all)
        return dv_ops_param_error(err, "stagger", "--stagger orders the runs of --read-all; it needs --read-all on");
    if (t.cols % t.slices)
        return dv_ops_param_error(err, "col-split", "%llu columns do not split into %llu equal slices",
                                  (unsigned long long)t.cols, (unsigned long long)t.slices);
    t.scols = t.cols / t.slices;
    t.pad = !t.l1 && (t.cols * size % EW_BLOCK_BYTES || t.scols * size % EW_BLOCK_BYTES);
    if (t.pad && !cfg->chip_dma_pad)
        return dv_ops_param_error(err, "shape", "rows of %llu %s elements are %llu bytes, not whole 32-B blocks, "
                                  "and profile %s has no byte-length DMA (chip.dma_pad)",
                                  (unsigned long long)t.scols, dv_ops_dtype_name(dt),
                                  (unsigned long long)(t.scols * size), cfg->chip_name);
    t.trows = dv_min_u64(tile->d[0], t.rows);
    t.tcols = dv_min_u64(tile->d[1], t.scols);
    if (!t.l1 && !t.pad && t.tcols * size % EW_BLOCK_BYTES)
        return dv_ops_param_error(err, "tile", "%llu columns of %s are %llu bytes, not whole 32-B blocks "
                                  "(a burst is whole 32-B blocks)",
                                  (unsigned long long)t.tcols, dv_ops_dtype_name(dt),
                                  (unsigned long long)(t.tcols * size));
    if ((rc = copy_check_limits(&t, size, err)))
        return rc;
    /* The local footprint: UB rows padded to 32 B; L1 in NZ, rows to 16, columns to whole C0 blocks. */
    t.tile_bytes = t.l1 ? dv_round_up(t.trows, 16) * dv_round_up(t.tcols * size, EW_BLOCK_BYTES)
                        : t.trows * dv_round_up(t.tcols * size, EW_BLOCK_BYTES);
    if (t.sync)
        t.per_buf = (uint64_t)v->v[CP_COPIES_PER_BUFFER].i;
    const uint64_t need = (uint64_t)t.depth * t.per_buf * t.tile_bytes;
    const uint64_t room = t.l1 ? cfg->l1_size_bytes : cfg->ub_size_bytes;
    if (need > room) {
        char parts[96];
        if (t.per_buf > 1)
            snprintf(parts, sizeof parts, "%u buffers x %llu copies x %llu B", t.depth,
                     (unsigned long long)t.per_buf, (unsigned long long)t.tile_bytes);
        else
            snprintf(parts, sizeof parts, "%u buffers x %llu B", t.depth, (unsigned long long)t.tile_bytes);
        return dv_ops_param_error(err, t.depth * t.tile_bytes <= room ? "copies-per-buffer" : "tile",
                                  "%llux%llu tiles need %llu bytes of %s (%s), core.%s is %llu%s",
                                  (unsigned long long)t.trows, (unsigned long long)t.tcols, (unsigned long long)need,
                                  t.l1 ? "L1" : "UB", parts, t.l1 ? "l1_size_bytes" : "ub_size_bytes",
                                  (unsigned long long)room, t.depth > 1 ? " (--double-buffer off halves it)" : "");
    }
    t.ntile_cols = dv_ceil_div(t.scols, t.tcols);
    t.tiles = dv_ceil_div(t.rows, t.trows) * t.ntile_cols;

    const dv_kind_t kind = t.l1 ? DV_KIND_CUBE : DV_KIND_VECTOR;
    const uint64_t cores = v->v[CP_CORES].i ? (uint64_t)v->v[CP_CORES].i : dv_ops_cores(cfg, kind);
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = kind;
    plan->info.blocks = (uint32_t)dv_min_u64(cores, t.tiles);
    plan->info.subs = 1;
    if ((rc = dv_ops_add_arg(plan, "x", dt, n, DV_ARG_IN, 0, 0)) ||
        (t.write && (rc = dv_ops_add_arg(plan, "y", dt, n, DV_ARG_OUT, 0, 0))))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    if (v->v[CP_L2_DISABLE].i)
        plan->args[0].l2 = DV_L2_DISABLE;
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 0;
    const uint64_t reads = t.repeat * (t.read_all ? plan->info.blocks : 1);
    plan->bytes = (reads + t.write) * n * size;
    plan->tol_scale = 1.0;
    return DV_OK;
}

static int copy_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    copy_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    if (t.write)
        memcpy(expect[1], in[0], t.rows * t.cols * dv_dtype_size((dv_dtype_t)t.dtype));
    return DV_OK;
}

/* copy (ops/ops.def row). */
const dv_opdesc_t dv_op_copy = {.name = "copy",
                                .desc = "read a 2-D tensor GM -> UB (or, --l1, GM -> L1 in NZ) in --tile copies "
                                        "(bandwidth benchmark); --write on also writes it back to y",
                                .params = copy_params, .nparams = CP_COUNT, .plan = copy_plan,
                                .kernel = copy_kernel, .reference = copy_reference};
