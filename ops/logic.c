/* ops/logic.c - logical, bitwise and select operators on the vector unit, built on the machinery of
 * ops/compare.c (vcmp / vcmps write one mask bit per element, contiguously; vsel picks by those bits):
 *
 * - logical_and, logical_or, logical_xor (x, y -> z) and logical_not (x -> y): each input's mask is
 *   vcmps(x != 0) (a NaN is true); uint8 / int8 / int16 inputs (aclnn's one-byte bool among them) are
 *   first converted to fp16 by vconv, which keeps every nonzero value nonzero.  The masks combine as
 *   16-bit words: vand, vor, xor as (a | b) & ~(a & b), not as vnot.  The result is 1 or 0 in
 *   --out-dtype, as compare.c writes it: vsel in fp16 between two constant repeats, then vconv.
 * - isfinite, isinf, isposinf, isneginf, isnan, signbit (x -> y, 0 / 1 in --out-dtype): vcmps(|x| < inf),
 *   vcmps(|x| == inf), vcmps(x == +inf), vcmps(x == -inf), vcmp(x != x), and the sign bit as vcmps(bits < 0)
 *   on the fp32 read as int32 (an fp16 read as int16 and converted to fp16, which keeps the sign).
 * - tensor_equal (x, y -> one z): one block; every tile's mask of (x != y) (the lanes of the last partial
 *   repeat set to 0 in both inputs first, by vdup under a vector mask) ORed into one mask, whose words
 *   are converted to fp16, made positive and summed by vcadd_acc; z = (sum == 0).
 * - where (cond, x, y -> z): z = cond ? x : y, cond one byte per element (nonzero: true) converted
 *   to fp16 and compared with 0; vsel in --dtype.  masked_fill (x, mask -> y): y = mask ? value : x,
 *   value a constant repeat written by vdup.  nan_to_num (x -> y): NaN, +inf and -inf replaced by
 *   --nan, --posinf, --neginf (three masks, three vsel).
 * - bitwise_and, bitwise_or, bitwise_xor (x, y -> z), bitwise_not (x -> y) and the scalar forms
 *   bitwise_ands, bitwise_ors, bitwise_xors (x, s -> y): the vector unit's vand / vor / vnot work on
 *   16-bit words, and bitwise operations do not mix bits, so int8, uint8, int16 and int32 tensors are
 *   processed as their byte stream in 16-bit words (xor as (a | b) & ~(a & b)); the scalar is a
 *   constant repeat of its bit pattern (vdup of the uint16 or uint32 word).
 * - left_shift, right_shift (x, s -> z, int16 / int32): vshl / vshr take one count per instruction, so
 *   per count c of the width: x shifted by c, vcmps(s == c), vsel into z, which starts as 0 (left) or
 *   the sign fill x >> (width - 1) (right), what a count outside [0, width) gives.  left_shifts
 *   (x -> y, --scalar s): one vshl.
 *
 * Every operator walks a contiguous range of the flattened tensors per block (whole units of 512
 * elements, so every argument's range starts on a 32-B boundary), in tiles of --tile-elems elements
 * (a multiple of 256: whole repeats and whole 32-B blocks in every dtype) through TQue-style queues,
 * depth 2 with --double-buffer on.  Instructions cover whole repeats (the elements of a tile's last
 * partial repeat past the tile's end are computed on and never stored) in runs of at most 252
 * repeats, so that every run's mask starts on a 32-B boundary.  The references are exact, so --check
 * compares bit for bit.  The operators take tensors of one shape (no broadcasting). */
#include "../kernel/kapi_emit.h" /* dvk_<mnemonic> write into the stream (before dv/kapi.h) */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/ops.h"

enum { LG_SPLIT_ELEMS = 512, LG_REPEAT_BYTES = 256, LG_BLOCK_BYTES = 32, LG_TILE_UNIT = 256,
       LG_TILE_AUTO_MAX = 16384, LG_RUN = 252, LG_MAX_IN = 3 };

/* The operators of this file. */
typedef enum lg_kind {
    K_AND, K_OR, K_XOR, K_NOT,
    K_ISFINITE, K_ISINF, K_ISPOSINF, K_ISNEGINF, K_ISNAN, K_SIGNBIT, K_TEQUAL,
    K_WHERE, K_MFILL, K_NAN2NUM,
    K_BAND, K_BOR, K_BXOR, K_BNOT, K_BANDS, K_BORS, K_BXORS,
    K_SHL, K_SHR, K_SHLS
} lg_kind_t;

#define LG_LOGIC_DTYPES (DT_F16 | DT_F32 | DT_S32 | DT_S16 | DT_S8 | DT_U8) /* nonzero is true */
#define LG_OUT_DTYPES (DT_U8 | DT_F16 | DT_F32 | DT_S32)                      /* fp16 0 / 1 and its vconvs */
#define LG_FLOAT_DTYPES (DT_F16 | DT_F32)
#define LG_SEL_DTYPES (DT_F16 | DT_F32 | DT_S16 | DT_S32)                     /* what vsel selects */
#define LG_BIT_DTYPES (DT_S8 | DT_U8 | DT_S16 | DT_S32)                       /* as 16-bit words */
#define LG_SHIFT_DTYPES (DT_S16 | DT_S32)                                     /* what vshl / vshr shift */

#define P_SHAPE {"shape", DV_OPT_SHAPE, "1024x1024", 1, INT64_C(1) << 40, 0, \
                 "tensor shape AxBx...; the operator works on the flattened elements"}
#define P_OUT {"out-dtype", DV_OPT_DTYPE, "uint8", 0, 0, LG_OUT_DTYPES, \
               "element type of the 0 / 1 result (uint8: aclnn's one-byte bool)"}
#define P_TAIL                                                                                                 \
    {"cores", DV_OPT_INT, "auto", 1, 65535, 0, "blocks (auto: every vector core); at most one per 512 elements"}, \
    {"tile-elems", DV_OPT_INT, "auto", 1, INT64_C(1) << 24, 0,                                                  \
     "elements per tile, a multiple of 256 (auto: the largest power of two up to 16384 whose buffers fit in UB)"}, \
    {"double-buffer", DV_OPT_BOOL, "on", 0, 1, 0,                                                              \
     "two buffers per queue (on) so copies overlap the vector work, or one (off)"}

static const dv_oparam_spec_t lg_params_logic[] = {
    P_SHAPE, {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, LG_LOGIC_DTYPES, "element type of the inputs (nonzero is true)"},
    P_OUT, P_TAIL};
static const dv_oparam_spec_t lg_params_pred[] = {
    P_SHAPE, {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, LG_FLOAT_DTYPES, "element type of the input"}, P_OUT, P_TAIL};
static const dv_oparam_spec_t lg_params_teq[] = {
    P_SHAPE, {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, DT_F16 | DT_F32 | DT_S32 | DT_S16 | DT_S8 | DT_U8,
              "element type of x and y"},
    {"out-dtype", DV_OPT_DTYPE, "uint8", 0, 0, LG_OUT_DTYPES, "element type of the one 0 / 1 result"},
    {"cores", DV_OPT_INT, "1", 1, 1, 0, "blocks: one (the result is one value; no cross-core reduction)"},
    {"tile-elems", DV_OPT_INT, "auto", 1, INT64_C(1) << 24, 0,
     "elements per tile, a multiple of 256 (auto: the largest power of two up to 16384 whose buffers fit in UB)"},
    {"double-buffer", DV_OPT_BOOL, "on", 0, 1, 0,
     "two buffers per queue (on) so copies overlap the vector work, or one (off)"}};
static const dv_oparam_spec_t lg_params_where[] = {
    P_SHAPE, {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, LG_SEL_DTYPES, "element type of x, y and z (cond is uint8)"},
    P_TAIL};
static const dv_oparam_spec_t lg_params_mfill[] = {
    P_SHAPE, {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, LG_SEL_DTYPES, "element type of x and y (mask is uint8)"},
    {"value", DV_OPT_FLOAT, "0", -DBL_MAX, DBL_MAX, 0, "the fill value, held in --dtype"}, P_TAIL};
static const dv_oparam_spec_t lg_params_n2n[] = {
    P_SHAPE, {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, LG_FLOAT_DTYPES, "element type of x and y"},
    {"nan", DV_OPT_FLOAT, "0", -DBL_MAX, DBL_MAX, 0, "what a NaN becomes, held in --dtype"},
    {"posinf", DV_OPT_FLOAT, "65504", -DBL_MAX, DBL_MAX, 0, "what +inf becomes, held in --dtype"},
    {"neginf", DV_OPT_FLOAT, "-65504", -DBL_MAX, DBL_MAX, 0, "what -inf becomes, held in --dtype"},
    P_TAIL};
static const dv_oparam_spec_t lg_params_bits[] = {
    P_SHAPE, {"dtype", DV_OPT_DTYPE, "int32", 0, 0, LG_BIT_DTYPES, "element type of the tensors"}, P_TAIL};
static const dv_oparam_spec_t lg_params_shift[] = {
    P_SHAPE, {"dtype", DV_OPT_DTYPE, "int32", 0, 0, LG_SHIFT_DTYPES, "element type of x, s and z"}, P_TAIL};
static const dv_oparam_spec_t lg_params_shift_s[] = {
    P_SHAPE, {"dtype", DV_OPT_DTYPE, "int32", 0, 0, LG_SHIFT_DTYPES, "element type of x and y"},
    {"scalar", DV_OPT_FLOAT, "1", -DBL_MAX, DBL_MAX, 0, "the shift s, an integer (outside [0, width): y = 0)"},
    P_TAIL};
static const dv_oparam_spec_t lg_params_bits_s[] = {
    P_SHAPE, {"dtype", DV_OPT_DTYPE, "int32", 0, 0, LG_BIT_DTYPES, "element type of the tensors"},
    {"scalar", DV_OPT_FLOAT, "0", -DBL_MAX, DBL_MAX, 0, "the integer s, in --dtype's range"}, P_TAIL};

/* The tiling passed to the kernel. */
typedef struct lg_tiling {
    uint32_t kind;
    uint32_t dtype, out_dtype;        /* the data dtype; the result's (logic, predicates) */
    uint32_t nin;                     /* tensor inputs */
    uint32_t in_dt[LG_MAX_IN];        /* their dtypes */
    uint32_t depth;
    uint64_t elems, tile;
    double val[3];                    /* masked_fill's value; nan_to_num's nan, posinf, neginf */
    uint32_t bits;                    /* the bitwise scalar forms: the uint32 pattern of the scalar */
    uint32_t bits_dt;                 /* its vdup dtype (uint16 or uint32) */
} lg_tiling_t;

static const struct {
    const char *name;
    lg_kind_t kind;
} lg_names[] = {
    {"logical_and", K_AND},       {"logical_or", K_OR},         {"logical_xor", K_XOR},
    {"logical_not", K_NOT},       {"isfinite", K_ISFINITE},     {"isinf", K_ISINF},
    {"isposinf", K_ISPOSINF},     {"isneginf", K_ISNEGINF},     {"isnan", K_ISNAN},
    {"signbit", K_SIGNBIT},       {"tensor_equal", K_TEQUAL},
    {"where", K_WHERE},           {"masked_fill", K_MFILL},     {"nan_to_num", K_NAN2NUM},
    {"bitwise_and", K_BAND},      {"bitwise_or", K_BOR},        {"bitwise_xor", K_BXOR},
    {"bitwise_not", K_BNOT},      {"bitwise_ands", K_BANDS},    {"bitwise_ors", K_BORS},
    {"bitwise_xors", K_BXORS},    {"left_shift", K_SHL},        {"right_shift", K_SHR},
    {"left_shifts", K_SHLS},
};

static bool lg_bitwise(lg_kind_t k) { return k >= K_BAND && k <= K_BXORS; }
static bool lg_bool_out(lg_kind_t k) { return k <= K_TEQUAL; }

/* The value of parameter `name` (every table of this file has shape, dtype and the tail). */
static const dv_oparam_val_t *lg_val(const dv_opdesc_t *op, const dv_opvals_t *v, const char *name)
{
    const int i = dv_ops_param_index(op, name);
    return i < 0 ? NULL : &v->v[i];
}

/* ---------------------------------------------------------------- kernel helpers */

/* One vector operation over the first n elements of a tile, as whole repeats, in runs of LG_RUN. */
typedef enum { I_CMP, I_CMPS, I_SEL, I_CONV, I_ABS, I_DUP, I_SHL, I_SHR, I_AND, I_OR, I_NOT } lg_insn_t;

typedef struct lg_step {
    lg_insn_t insn;
    dv_dtype_t dt, src_dt;    /* I_CONV: dt is the destination's */
    uint64_t d, a, b, m;      /* destination, sources, mask */
    bool a_const, b_const;    /* a one-repeat constant source (repeat stride 0) */
    double s;
    int cmp;
} lg_step_t;

static void lg_issue(dv_k_t *k, const lg_step_t *st, uint64_t n)
{
    const unsigned sz = dv_dtype_size(st->dt);
    const uint64_t epr = st->insn == I_CONV ? LG_REPEAT_BYTES / dv_max_u64(sz, dv_dtype_size(st->src_dt))
                       : st->insn >= I_AND   ? LG_REPEAT_BYTES / 2
                                             : LG_REPEAT_BYTES / sz;
    const uint64_t reps = dv_ceil_div(n, epr), mpr = epr / 8; /* mask bytes per repeat */
    for (uint64_t r = 0; r < reps; r += LG_RUN) {
        const int64_t rep = (int64_t)dv_min_u64(LG_RUN, reps - r);
        const uint64_t off = r * LG_REPEAT_BYTES, a = st->a + (st->a_const ? 0 : off), b = st->b + (st->b_const ? 0 : off);
        const int64_t ar = st->a_const ? 0 : 8, br = st->b_const ? 0 : 8;
        switch (st->insn) {
        case I_CMP:
            dvk_vcmp(k, st->m + r * mpr, a, b, st->dt, st->cmp, rep, 1, 1, 8, 8);
            break;
        case I_CMPS:
            dvk_vcmps(k, st->m + r * mpr, a, st->dt, st->s, st->cmp, rep, 1, 8);
            break;
        case I_SEL:
            dvk_vsel(k, st->d + off, a, b, st->m + r * mpr, st->dt, rep, 1, 1, 1, 8, ar, br, 1);
            break;
        case I_CONV: {
            const uint64_t ds = sz, ss = dv_dtype_size(st->src_dt);
            dvk_vconv(k, st->d + r * epr * ds, st->a + r * epr * ss, st->dt, st->src_dt, DV_ROUND_R, rep, 1, 1,
                      (int64_t)(epr * ds / LG_BLOCK_BYTES), (int64_t)(epr * ss / LG_BLOCK_BYTES));
            break;
        }
        case I_ABS:
            dvk_vabs(k, st->d + off, a, st->dt, rep, 1, 1, 8, 8);
            break;
        case I_DUP:
            dvk_vdup(k, st->d + off, st->dt, st->s, rep, 1, 8);
            break;
        case I_SHL:
            dvk_vshl(k, st->d + off, a, st->dt, st->s, rep, 1, 1, 8, 8);
            break;
        case I_SHR:
            dvk_vshr(k, st->d + off, a, st->dt, st->s, rep, 1, 1, 8, 8);
            break;
        case I_AND:
            dvk_vand(k, st->d + off, a, b, DV_DT_U16, rep, 1, 1, 1, 8, ar, br);
            break;
        case I_OR:
            dvk_vor(k, st->d + off, a, b, DV_DT_U16, rep, 1, 1, 1, 8, ar, br);
            break;
        case I_NOT:
            dvk_vnot(k, st->d + off, a, DV_DT_U16, rep, 1, 1, 8, 8);
            break;
        }
    }
}

/* The UB scratch of one block. */
typedef struct lg_ub {
    uint64_t h;           /* a tile of up to 4-byte elements: fp16 conversions, |x|, the fp16 0 / 1 */
    uint64_t m[3];        /* masks, whole 256-B repeats */
    uint64_t c[3];        /* one-repeat constants */
} lg_ub_t;

static uint64_t lg_mask_bytes(uint64_t tile) { return dv_round_up(dv_ceil_div(tile, 8), LG_REPEAT_BYTES); }

/* vsel by mask m between a (constant or tile) and b (constant or tile) into d, n elements of dt. */
static void lg_sel(dv_k_t *k, dv_dtype_t dt, uint64_t d, uint64_t a, bool ac, uint64_t b, bool bc, uint64_t m, uint64_t n)
{
    lg_issue(k, &(lg_step_t){.insn = I_SEL, .dt = dt, .d = d, .a = a, .b = b, .a_const = ac, .b_const = bc, .m = m}, n);
}

/* The mask of (x != 0) for n elements of x in dtype dt (converted to fp16 in h first when vcmps
 * cannot compare dt). */
static void lg_nonzero(dv_k_t *k, const lg_ub_t *u, uint64_t x, dv_dtype_t dt, uint64_t m, uint64_t n)
{
    if (dt == DV_DT_U8 || dt == DV_DT_S8 || dt == DV_DT_S16) {
        lg_issue(k, &(lg_step_t){.insn = I_CONV, .dt = DV_DT_F16, .src_dt = dt, .d = u->h, .a = x}, n);
        dvk_pipe_barrier(k, DV_PIPE_V);
        x = u->h;
        dt = DV_DT_F16;
    }
    lg_issue(k, &(lg_step_t){.insn = I_CMPS, .dt = dt, .a = x, .m = m, .s = 0, .cmp = DV_CMP_NE}, n);
}

/* Mask words: d = a OP b over the masks of n elements (OP I_AND, I_OR, I_NOT; b unused for I_NOT). */
static void lg_words(dv_k_t *k, lg_insn_t op, uint64_t d, uint64_t a, uint64_t b, uint64_t nbits)
{
    lg_issue(k, &(lg_step_t){.insn = op, .dt = DV_DT_U16, .d = d, .a = a, .b = b}, dv_ceil_div(nbits, 16));
}

/* Words d = a ^ b, as (a | b) & ~(a & b), t a scratch of the same size (b constant when bc). */
static void lg_xor_words(dv_k_t *k, uint64_t d, uint64_t a, uint64_t b, bool bc, uint64_t t, uint64_t words)
{
    lg_issue(k, &(lg_step_t){.insn = I_AND, .dt = DV_DT_U16, .d = t, .a = a, .b = b, .b_const = bc}, words);
    lg_issue(k, &(lg_step_t){.insn = I_OR, .dt = DV_DT_U16, .d = d, .a = a, .b = b, .b_const = bc}, words);
    dvk_pipe_barrier(k, DV_PIPE_V);
    lg_issue(k, &(lg_step_t){.insn = I_NOT, .dt = DV_DT_U16, .d = t, .a = t}, words);
    dvk_pipe_barrier(k, DV_PIPE_V);
    lg_issue(k, &(lg_step_t){.insn = I_AND, .dt = DV_DT_U16, .d = d, .a = d, .b = t}, words);
}

/* 1 / 0 by mask m into z (n elements of out): vsel in fp16 between the constants c[0] (1) and c[1]
 * (0), then a vconv to out. */
static void lg_ones(dv_k_t *k, const lg_ub_t *u, dv_dtype_t out, uint64_t z, uint64_t m, uint64_t n)
{
    lg_sel(k, DV_DT_F16, out == DV_DT_F16 ? z : u->h, u->c[0], true, u->c[1], true, m, n);
    if (out != DV_DT_F16) {
        dvk_pipe_barrier(k, DV_PIPE_V);
        lg_issue(k, &(lg_step_t){.insn = I_CONV, .dt = out, .src_dt = DV_DT_F16, .d = z, .a = u->h}, n);
    }
}

/* The block's constants, once. */
static void lg_constants(dv_k_t *k, const lg_tiling_t *t, const lg_ub_t *u)
{
    const lg_kind_t kind = (lg_kind_t)t->kind;
    const dv_dtype_t dt = (dv_dtype_t)t->dtype;
    if (lg_bool_out(kind)) {
        dvk_vdup(k, u->c[0], DV_DT_F16, 1.0, 1, 1, 8);
        dvk_vdup(k, u->c[1], DV_DT_F16, 0.0, 1, 1, 8);
    } else if (kind == K_MFILL) {
        dvk_vdup(k, u->c[0], dt, t->val[0], 1, 1, 8);
    } else if (kind == K_NAN2NUM) {
        for (int i = 0; i < 3; i++)
            dvk_vdup(k, u->c[i], dt, t->val[i], 1, 1, 8);
    } else if (kind >= K_BANDS && kind <= K_BXORS) {
        dvk_vdup(k, u->c[0], (dv_dtype_t)t->bits_dt, (double)t->bits, 1, 1, 8);
    }
}

/* Set the lanes [n % E, E) of the last repeat of n elements of dt at buf to 0 (vdup under a vector mask),
 * so that a reduction over whole repeats sees equal zeros there; then a barrier. */
static void lg_zero_tail(dv_k_t *k, uint64_t buf, dv_dtype_t dt, uint64_t n)
{
    const uint64_t epr = LG_REPEAT_BYTES / dv_dtype_size(dt), whole = n / epr * epr, tail = n - whole;
    if (!tail)
        return;
    const uint64_t lo = tail >= 64 ? ~0ull : (1ull << tail) - 1, hi = tail <= 64 ? 0 : (1ull << (tail - 64)) - 1;
    const uint64_t flo = epr >= 64 ? ~0ull : (1ull << epr) - 1, fhi = epr >= 128 ? ~0ull : 0;
    dvk_set_vector_mask(k, fhi & ~hi, flo & ~lo);
    dvk_vdup(k, buf + whole / epr * LG_REPEAT_BYTES, dt, 0, 1, 1, 8);
    dvk_mask_all(k);
    dvk_pipe_barrier(k, DV_PIPE_V);
}

/* Compute one tile: in[] the input tiles, z the output tile, n elements. */
static void lg_compute(dv_k_t *k, const lg_tiling_t *t, const lg_ub_t *u, const uint64_t *in, uint64_t z, uint64_t n)
{
    const lg_kind_t kind = (lg_kind_t)t->kind;
    const dv_dtype_t dt = (dv_dtype_t)t->dtype, out = (dv_dtype_t)t->out_dtype;
    const uint64_t words = dv_ceil_div(n * dv_dtype_size(dt), 2);
    switch (kind) {
    case K_AND: case K_OR: case K_XOR: case K_NOT:
        lg_nonzero(k, u, in[0], dt, u->m[0], n);
        if (kind != K_NOT) {
            dvk_pipe_barrier(k, DV_PIPE_V);
            lg_nonzero(k, u, in[1], dt, u->m[1], n);
        }
        dvk_pipe_barrier(k, DV_PIPE_V);
        if (kind == K_XOR)
            lg_xor_words(k, u->m[0], u->m[0], u->m[1], false, u->m[2], dv_ceil_div(n, 16));
        else
            lg_words(k, kind == K_AND ? I_AND : kind == K_OR ? I_OR : I_NOT, u->m[0], u->m[0], u->m[1], n);
        dvk_pipe_barrier(k, DV_PIPE_V);
        lg_ones(k, u, out, z, u->m[0], n);
        break;
    case K_ISFINITE: case K_ISINF:
        lg_issue(k, &(lg_step_t){.insn = I_ABS, .dt = dt, .d = u->h, .a = in[0]}, n);
        dvk_pipe_barrier(k, DV_PIPE_V);
        lg_issue(k, &(lg_step_t){.insn = I_CMPS, .dt = dt, .a = u->h, .m = u->m[0], .s = INFINITY,
                                 .cmp = kind == K_ISFINITE ? DV_CMP_LT : DV_CMP_EQ}, n);
        dvk_pipe_barrier(k, DV_PIPE_V);
        lg_ones(k, u, out, z, u->m[0], n);
        break;
    case K_ISPOSINF: case K_ISNEGINF:
        lg_issue(k, &(lg_step_t){.insn = I_CMPS, .dt = dt, .a = in[0], .m = u->m[0],
                                 .s = kind == K_ISPOSINF ? INFINITY : -INFINITY, .cmp = DV_CMP_EQ}, n);
        dvk_pipe_barrier(k, DV_PIPE_V);
        lg_ones(k, u, out, z, u->m[0], n);
        break;
    case K_ISNAN:
        lg_issue(k, &(lg_step_t){.insn = I_CMP, .dt = dt, .a = in[0], .b = in[0], .m = u->m[0], .cmp = DV_CMP_NE}, n);
        dvk_pipe_barrier(k, DV_PIPE_V);
        lg_ones(k, u, out, z, u->m[0], n);
        break;
    case K_SIGNBIT: /* the sign bit: an fp32 read as int32, an fp16 read as int16 (converted) is negative */
        if (dt == DV_DT_F32) {
            lg_issue(k, &(lg_step_t){.insn = I_CMPS, .dt = DV_DT_S32, .a = in[0], .m = u->m[0], .s = 0, .cmp = DV_CMP_LT}, n);
        } else {
            lg_issue(k, &(lg_step_t){.insn = I_CONV, .dt = DV_DT_F16, .src_dt = DV_DT_S16, .d = u->h, .a = in[0]}, n);
            dvk_pipe_barrier(k, DV_PIPE_V);
            lg_issue(k, &(lg_step_t){.insn = I_CMPS, .dt = DV_DT_F16, .a = u->h, .m = u->m[0], .s = 0, .cmp = DV_CMP_LT}, n);
        }
        dvk_pipe_barrier(k, DV_PIPE_V);
        lg_ones(k, u, out, z, u->m[0], n);
        break;
    case K_TEQUAL: { /* m[1] |= the mask of (x != y): fp16, fp32, int32 by vcmp; int8 / uint8 converted to fp16
                      * (exact) first; int16 as the words x ^ y converted to fp16 (nonzero stays nonzero) != 0 */
        dv_dtype_t cdt = dt;
        uint64_t a = in[0], b = in[1];
        const uint64_t h2 = u->h + t->tile * 2;
        if (dt == DV_DT_S16) {
            lg_zero_tail(k, in[0], dt, n);
            lg_zero_tail(k, in[1], dt, n);
            lg_xor_words(k, u->h, in[0], in[1], false, h2, n);
            dvk_pipe_barrier(k, DV_PIPE_V);
            lg_issue(k, &(lg_step_t){.insn = I_CONV, .dt = DV_DT_F16, .src_dt = DV_DT_S16, .d = h2, .a = u->h}, n);
            dvk_pipe_barrier(k, DV_PIPE_V);
            lg_issue(k, &(lg_step_t){.insn = I_CMPS, .dt = DV_DT_F16, .a = h2, .m = u->m[0], .s = 0, .cmp = DV_CMP_NE}, n);
        } else {
            if (dt == DV_DT_S8 || dt == DV_DT_U8) {
                lg_issue(k, &(lg_step_t){.insn = I_CONV, .dt = DV_DT_F16, .src_dt = dt, .d = u->h, .a = in[0]}, n);
                lg_issue(k, &(lg_step_t){.insn = I_CONV, .dt = DV_DT_F16, .src_dt = dt, .d = h2, .a = in[1]}, n);
                dvk_pipe_barrier(k, DV_PIPE_V);
                a = u->h, b = h2, cdt = DV_DT_F16;
            }
            lg_zero_tail(k, a, cdt, n);
            lg_zero_tail(k, b, cdt, n);
            lg_issue(k, &(lg_step_t){.insn = I_CMP, .dt = cdt, .a = a, .b = b, .m = u->m[0], .cmp = DV_CMP_NE}, n);
        }
        dvk_pipe_barrier(k, DV_PIPE_V);
        lg_words(k, I_OR, u->m[1], u->m[1], u->m[0], n);
        dvk_pipe_barrier(k, DV_PIPE_V);
        break;
    }
    case K_WHERE: /* cond, x, y */
        lg_nonzero(k, u, in[0], DV_DT_U8, u->m[0], n);
        dvk_pipe_barrier(k, DV_PIPE_V);
        lg_sel(k, dt, z, in[1], false, in[2], false, u->m[0], n);
        break;
    case K_MFILL: /* x, mask */
        lg_nonzero(k, u, in[1], DV_DT_U8, u->m[0], n);
        dvk_pipe_barrier(k, DV_PIPE_V);
        lg_sel(k, dt, z, u->c[0], true, in[0], false, u->m[0], n);
        break;
    case K_NAN2NUM:
        lg_issue(k, &(lg_step_t){.insn = I_CMP, .dt = dt, .a = in[0], .b = in[0], .m = u->m[0], .cmp = DV_CMP_NE}, n);
        lg_issue(k, &(lg_step_t){.insn = I_CMPS, .dt = dt, .a = in[0], .m = u->m[1], .s = INFINITY, .cmp = DV_CMP_EQ}, n);
        lg_issue(k, &(lg_step_t){.insn = I_CMPS, .dt = dt, .a = in[0], .m = u->m[2], .s = -INFINITY, .cmp = DV_CMP_EQ}, n);
        dvk_pipe_barrier(k, DV_PIPE_V);
        lg_sel(k, dt, z, u->c[0], true, in[0], false, u->m[0], n);
        dvk_pipe_barrier(k, DV_PIPE_V);
        lg_sel(k, dt, z, u->c[1], true, z, false, u->m[1], n);
        dvk_pipe_barrier(k, DV_PIPE_V);
        lg_sel(k, dt, z, u->c[2], true, z, false, u->m[2], n);
        break;
    case K_BAND: case K_BOR:
        lg_issue(k, &(lg_step_t){.insn = kind == K_BAND ? I_AND : I_OR, .d = z, .a = in[0], .b = in[1]}, words);
        break;
    case K_BANDS: case K_BORS:
        lg_issue(k, &(lg_step_t){.insn = kind == K_BANDS ? I_AND : I_OR, .d = z, .a = in[0], .b = u->c[0],
                                 .b_const = true}, words);
        break;
    case K_BXOR:
        lg_xor_words(k, z, in[0], in[1], false, u->h, words);
        break;
    case K_BXORS:
        lg_xor_words(k, z, in[0], u->c[0], true, u->h, words);
        break;
    case K_BNOT:
        lg_issue(k, &(lg_step_t){.insn = I_NOT, .d = z, .a = in[0]}, words);
        break;
    case K_SHLS: /* one vshl (a count outside [0, width): 0) */
        if (t->val[0] >= 0 && t->val[0] < 8.0 * dv_dtype_size(dt))
            lg_issue(k, &(lg_step_t){.insn = I_SHL, .dt = dt, .d = z, .a = in[0], .s = t->val[0]}, n);
        else
            lg_issue(k, &(lg_step_t){.insn = I_DUP, .dt = dt, .d = z, .s = 0}, n);
        break;
    case K_SHL: case K_SHR: { /* per count c of the width: z = (s == c) ? x shifted by c : z */
        const unsigned width = 8 * dv_dtype_size(dt);
        uint64_t cnt = in[1];
        dv_dtype_t cdt = dt;
        if (dt == DV_DT_S16) { /* vcmps compares no int16: the counts as fp16 (exact to 2048; larger are out of range) */
            cnt = u->h + t->tile * 2, cdt = DV_DT_F16;
            lg_issue(k, &(lg_step_t){.insn = I_CONV, .dt = DV_DT_F16, .src_dt = DV_DT_S16, .d = cnt, .a = in[1]}, n);
        }
        /* a count outside [0, width): 0 (left), the sign fill (right) */
        if (kind == K_SHL)
            lg_issue(k, &(lg_step_t){.insn = I_DUP, .dt = dt, .d = z, .s = 0}, n);
        else
            lg_issue(k, &(lg_step_t){.insn = I_SHR, .dt = dt, .d = z, .a = in[0], .s = width - 1}, n);
        for (unsigned c = 0; c < width; c++) {
            lg_issue(k, &(lg_step_t){.insn = kind == K_SHL ? I_SHL : I_SHR, .dt = dt, .d = u->h, .a = in[0], .s = c}, n);
            lg_issue(k, &(lg_step_t){.insn = I_CMPS, .dt = cdt, .a = cnt, .m = u->m[0], .s = c, .cmp = DV_CMP_EQ}, n);
            dvk_pipe_barrier(k, DV_PIPE_V);
            lg_sel(k, dt, z, u->h, false, z, false, u->m[0], n);
            dvk_pipe_barrier(k, DV_PIPE_V);
        }
        break;
    }
    }
}

/* The element range [first, first + count) of block b of nb: whole split units, as even as possible. */
static void lg_range(const lg_tiling_t *t, uint32_t b, uint32_t nb, uint64_t *first, uint64_t *count)
{
    const uint64_t units = dv_ceil_div(t->elems, LG_SPLIT_ELEMS), base = units / nb, rem = units % nb;
    const uint64_t u0 = b * base + dv_min_u64(b, rem), nu = base + (b < rem);
    *first = u0 * LG_SPLIT_ELEMS;
    *count = *first >= t->elems ? 0 : dv_min_u64(nu * LG_SPLIT_ELEMS, t->elems - *first);
}

/* tensor_equal, one block: the mask of (x != y) of every tile ORed into m[1] (zeroed first, so the
 * bytes past a tile's mask hold bits already counted), then "no bit set" as one value: the words
 * converted to fp16 (int16 -> fp16 keeps nonzero nonzero), |.|, summed by vcadd_acc, compared with 0. */
static void lg_teq_kernel(dv_k_t *k, const lg_tiling_t *t, const lg_ub_t *u)
{
    const dv_dtype_t dt = (dv_dtype_t)t->dtype, out = (dv_dtype_t)t->out_dtype;
    const unsigned isz = dv_dtype_size(dt);
    const uint64_t mrep = lg_mask_bytes(t->tile) / LG_REPEAT_BYTES, words = mrep * LG_REPEAT_BYTES / 2;
    dv_que_t qx, qy, qz;
    dvk_que_init(k, &qx, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, t->depth, t->tile * isz);
    dvk_que_init(k, &qy, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, t->depth, t->tile * isz);
    dvk_que_init(k, &qz, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 1, 2 * LG_REPEAT_BYTES);
    dvk_vdup(k, u->m[0], DV_DT_U16, 0, (int64_t)mrep, 1, 8);
    dvk_vdup(k, u->m[1], DV_DT_U16, 0, (int64_t)mrep, 1, 8);
    dvk_pipe_barrier(k, DV_PIPE_V);
    for (uint64_t off = 0; off < t->elems; off += t->tile) {
        const uint64_t n = dv_min_u64(t->tile, t->elems - off), len = dv_ceil_div(n * isz, LG_BLOCK_BYTES);
        uint64_t b[2] = {dvk_que_alloc(k, &qx), dvk_que_alloc(k, &qy)};
        dvk_copy_gm_to_ubuf(k, b[0], dvk_gm(k, 0, off * isz), 1, (int64_t)len, 0, 0);
        dvk_copy_gm_to_ubuf(k, b[1], dvk_gm(k, 1, off * isz), 1, (int64_t)len, 0, 0);
        dvk_que_enque(k, &qx, b[0]);
        dvk_que_enque(k, &qy, b[1]);
        b[0] = dvk_que_deque(k, &qx);
        b[1] = dvk_que_deque(k, &qy);
        lg_compute(k, t, u, b, 0, n);
        dvk_que_free(k, &qx, b[0]);
        dvk_que_free(k, &qy, b[1]);
    }
    lg_issue(k, &(lg_step_t){.insn = I_CONV, .dt = DV_DT_F16, .src_dt = DV_DT_S16, .d = u->h, .a = u->m[1]}, words);
    dvk_pipe_barrier(k, DV_PIPE_V);
    lg_issue(k, &(lg_step_t){.insn = I_ABS, .dt = DV_DT_F16, .d = u->h, .a = u->h}, words);
    dvk_pipe_barrier(k, DV_PIPE_V);
    dvk_vcadd_acc(k, u->m[2], u->h, DV_DT_F16, (int64_t)(words / (LG_REPEAT_BYTES / 2)), 1, 1, 8, 0);
    dvk_pipe_barrier(k, DV_PIPE_V);
    lg_issue(k, &(lg_step_t){.insn = I_CMPS, .dt = DV_DT_F16, .a = u->m[2], .m = u->m[0], .s = 0, .cmp = DV_CMP_EQ}, 1);
    dvk_pipe_barrier(k, DV_PIPE_V);
    const uint64_t z = dvk_que_alloc(k, &qz);
    lg_ones(k, u, out, z, u->m[0], 1);
    dvk_que_enque(k, &qz, z);
    const uint64_t oz = dvk_que_deque(k, &qz);
    dvk_copy_ubuf_to_gm(k, dvk_gm(k, 2, 0), oz, 1, 1, 0, 0);
    dvk_que_free(k, &qz, oz);
}

/* One block: its range in tiles, CopyIn -> Compute -> CopyOut.  Arguments: the inputs, then the output. */
static void lg_kernel(dv_k_t *k, const void *params)
{
    const lg_tiling_t *t = params;
    const unsigned osz = dv_dtype_size((dv_dtype_t)t->out_dtype);
    uint64_t first, count;
    lg_range(t, dvk_block_idx(k), dvk_block_num(k), &first, &count);
    if (count == 0)
        return;
    lg_ub_t u;
    u.h = dvk_alloc(k, DV_SPACE_UB, t->tile * 4);
    for (int i = 0; i < 3; i++) {
        u.m[i] = dvk_alloc(k, DV_SPACE_UB, lg_mask_bytes(t->tile));
        u.c[i] = dvk_alloc(k, DV_SPACE_UB, LG_REPEAT_BYTES);
    }
    lg_constants(k, t, &u);
    if (t->kind == K_TEQUAL) {
        lg_teq_kernel(k, t, &u);
        return;
    }
    dv_que_t qin[LG_MAX_IN], qout;
    for (uint32_t i = 0; i < t->nin; i++)
        dvk_que_init(k, &qin[i], DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, t->depth,
                     t->tile * dv_dtype_size((dv_dtype_t)t->in_dt[i]));
    dvk_que_init(k, &qout, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, t->depth, t->tile * osz);

    for (uint64_t off = first; off < first + count; off += t->tile) {
        const uint64_t n = dv_min_u64(t->tile, first + count - off);
        uint64_t b[LG_MAX_IN];
        for (uint32_t i = 0; i < t->nin; i++) { /* CopyIn */
            const unsigned isz = dv_dtype_size((dv_dtype_t)t->in_dt[i]);
            b[i] = dvk_que_alloc(k, &qin[i]);
            dvk_copy_gm_to_ubuf(k, b[i], dvk_gm(k, i, off * isz), 1, (int64_t)dv_ceil_div(n * isz, LG_BLOCK_BYTES), 0,
                                0);
            dvk_que_enque(k, &qin[i], b[i]);
        }
        for (uint32_t i = 0; i < t->nin; i++) /* Compute */
            b[i] = dvk_que_deque(k, &qin[i]);
        const uint64_t z = dvk_que_alloc(k, &qout);
        lg_compute(k, t, &u, b, z, n);
        dvk_que_enque(k, &qout, z);
        for (uint32_t i = 0; i < t->nin; i++)
            dvk_que_free(k, &qin[i], b[i]);
        const uint64_t oz = dvk_que_deque(k, &qout); /* CopyOut */
        dvk_copy_ubuf_to_gm(k, dvk_gm(k, t->nin, off * osz), oz, 1, (int64_t)dv_ceil_div(n * osz, LG_BLOCK_BYTES), 0,
                            0);
        dvk_que_free(k, &qout, oz);
    }
}

/* ---------------------------------------------------------------- plan */

/* The bitwise scalar as its pattern: a uint16 word (int8 / uint8 bytes twice, int16) or a uint32. */
static int lg_bits_of(dv_dtype_t dt, double s, lg_tiling_t *t, dv_error_t *err)
{
    const double lo = dt == DV_DT_U8 ? 0 : dt == DV_DT_S8 ? INT8_MIN : dt == DV_DT_S16 ? INT16_MIN : (double)INT32_MIN;
    const double hi = dt == DV_DT_U8 ? UINT8_MAX : dt == DV_DT_S8 ? INT8_MAX : dt == DV_DT_S16 ? INT16_MAX
                                                                                               : (double)INT32_MAX;
    if (s != nearbyint(s) || s < lo || s > hi)
        return dv_ops_param_error(err, "scalar", "%.17g is not an integer in [%.0f, %.0f] (--dtype %s)", s, lo, hi,
                                  dv_ops_dtype_name(dt));
    const int64_t i = (int64_t)s;
    if (dt == DV_DT_U8 || dt == DV_DT_S8) {
        const uint32_t b = (uint32_t)(uint8_t)i;
        t->bits = b | b << 8;
        t->bits_dt = DV_DT_U16;
    } else if (dt == DV_DT_S16) {
        t->bits = (uint16_t)i;
        t->bits_dt = DV_DT_U16;
    } else {
        t->bits = (uint32_t)i;
        t->bits_dt = DV_DT_U32;
    }
    return DV_OK;
}

static int lg_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                   dv_error_t *err)
{
    int kind = -1;
    for (size_t i = 0; i < sizeof lg_names / sizeof lg_names[0]; i++)
        if (strcmp(op->name, lg_names[i].name) == 0)
            kind = (int)lg_names[i].kind;
    if (kind < 0)
        return dv_error_set(err, DV_ERR_UNKNOWN, NULL, 0, 0, "%s: not an operator of ops/logic.c", op->name);
    const dv_dtype_t dt = lg_val(op, v, "dtype")->dt;
    const dv_oparam_val_t *ov = lg_val(op, v, "out-dtype");
    const dv_dtype_t odt = ov ? ov->dt : dt;
    const uint64_t n = dv_shape_elems(&lg_val(op, v, "shape")->shape);
    lg_tiling_t t = {.kind = (uint32_t)kind, .dtype = (uint32_t)dt, .out_dtype = (uint32_t)odt, .elems = n,
                     .depth = lg_val(op, v, "double-buffer")->i ? 2 : 1};
    /* the inputs, in argument order */
    static const char *const names3[] = {"cond", "x", "y"}, *const names2[] = {"x", "y"},
                             *const names_mf[] = {"x", "mask"};
    const char *const *in_names = names2;
    switch ((lg_kind_t)kind) {
    case K_AND: case K_OR: case K_XOR: case K_BAND: case K_BOR: case K_BXOR: case K_TEQUAL: case K_SHL: case K_SHR:
        t.nin = 2, t.in_dt[0] = t.in_dt[1] = (uint32_t)dt;
        break;
    case K_WHERE:
        t.nin = 3, t.in_dt[0] = DV_DT_U8, t.in_dt[1] = t.in_dt[2] = (uint32_t)dt, in_names = names3;
        break;
    case K_MFILL:
        t.nin = 2, t.in_dt[0] = (uint32_t)dt, t.in_dt[1] = DV_DT_U8, in_names = names_mf;
        break;
    default:
        t.nin = 1, t.in_dt[0] = (uint32_t)dt;
        break;
    }
    /* the values held in the dtype */
    if (kind == K_MFILL || kind == K_NAN2NUM) {
        static const char *const vn[2][3] = {{"value"}, {"nan", "posinf", "neginf"}};
        const double lim = dt == DV_DT_F16 ? 65504.0 : dt == DV_DT_F32 ? FLT_MAX : dt == DV_DT_S16 ? INT16_MAX
                                                                                                  : (double)INT32_MAX;
        for (int i = 0; i < (kind == K_MFILL ? 1 : 3); i++) {
            const char *name = vn[kind == K_NAN2NUM][i];
            const int pi = dv_ops_param_index(op, name);
            double x = v->v[pi].f;
            if (dv_dtype_is_float(dt)) {
                x = dv_ops_round(dt, x);
                if (!isfinite(x))
                    return dv_ops_param_error(err, name, "%g overflows %s", v->v[pi].f, dv_ops_dtype_name(dt));
            } else if (x != nearbyint(x) || x < -lim - 1 || x > lim) {
                return dv_ops_param_error(err, name, "%.17g is not an integer in the range of %s", x,
                                          dv_ops_dtype_name(dt));
            }
            t.val[i] = x;
        }
    }
    if (kind == K_SHLS) {
        const double c = lg_val(op, v, "scalar")->f;
        if (c != nearbyint(c))
            return dv_ops_param_error(err, "scalar", "%.17g is not an integer shift count", c);
        t.val[0] = c;
    } else if (kind >= K_BANDS && kind <= K_BXORS) {
        int rc = lg_bits_of(dt, lg_val(op, v, "scalar")->f, &t, err);
        if (rc)
            return rc;
    }
    /* UB: the queues, the 4-byte scratch tile, three masks, three constant repeats */
    uint64_t per_elem = (kind == K_TEQUAL ? 0 : (uint64_t)t.depth * dv_dtype_size(odt)) + 4, bytes_in = 0;
    for (uint32_t i = 0; i < t.nin; i++) {
        per_elem += (uint64_t)t.depth * dv_dtype_size((dv_dtype_t)t.in_dt[i]);
        bytes_in += n * dv_dtype_size((dv_dtype_t)t.in_dt[i]);
    }
    uint64_t total;
    if (n == 0 || __builtin_mul_overflow(n, (uint64_t)4, &total) || total > cfg->hbm_capacity_bytes)
        return dv_ops_param_error(err, "shape", "one tensor of this shape does not fit hbm.capacity_bytes (%llu)",
                                  (unsigned long long)cfg->hbm_capacity_bytes);
    const uint64_t on = kind == K_TEQUAL ? 1 : n; /* output elements */
    const uint64_t fixed = 3 * LG_REPEAT_BYTES + (kind == K_TEQUAL ? 2 * LG_REPEAT_BYTES : 0);
    const int64_t req = lg_val(op, v, "tile-elems")->i;
    if (req == 0) {
        t.tile = LG_TILE_AUTO_MAX;
        while (t.tile > LG_TILE_UNIT && t.tile * per_elem + 3 * lg_mask_bytes(t.tile) + fixed > cfg->ub_size_bytes)
            t.tile /= 2;
    } else {
        t.tile = (uint64_t)req;
        if (t.tile % LG_TILE_UNIT)
            return dv_ops_param_error(err, "tile-elems", "%llu is not a multiple of %d (a tile is whole repeats "
                                      "and whole 32-B blocks in every dtype)", (unsigned long long)t.tile,
                                      LG_TILE_UNIT);
    }
    const uint64_t need = t.tile * per_elem + 3 * lg_mask_bytes(t.tile) + fixed;
    if (need > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "tile-elems", "%llu elements need %llu bytes of UB, core.ub_size_bytes is %llu",
                                  (unsigned long long)t.tile, (unsigned long long)need,
                                  (unsigned long long)cfg->ub_size_bytes);

    const uint64_t cores_req = (uint64_t)lg_val(op, v, "cores")->i;
    const uint64_t cores = cores_req ? cores_req : dv_ops_cores(cfg, DV_KIND_VECTOR);
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_min_u64(cores, dv_ceil_div(n, LG_SPLIT_ELEMS));
    plan->info.subs = 1;
    int rc = 0;
    for (uint32_t i = 0; i < t.nin && !rc; i++) {
        const dv_dtype_t it = (dv_dtype_t)t.in_dt[i];
        /* masks and integer inputs in a small range, so that zeros (false) occur */
        const bool small = !dv_dtype_is_float(it) && !lg_bitwise((lg_kind_t)kind);
        const bool mask01 = (kind == K_WHERE && i == 0) || (kind == K_MFILL && i == 1);
        const bool counts = (kind == K_SHL || kind == K_SHR) && i == 1; /* some outside [0, width) */
        const double lo = mask01 ? 0 : counts ? -2 : small && kind < K_SHL ? -2 : 0;
        const double hi = mask01 ? 2 : counts ? 8.0 * dv_dtype_size(it) + 3 : small && kind < K_SHL ? 3 : 0;
        rc = dv_ops_add_arg(plan, in_names[i], it, n, DV_ARG_IN, lo, hi);
    }
    if (rc || (rc = dv_ops_add_arg(plan, t.nin == 1 || kind == K_MFILL ? "y" : "z", odt, on, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    dv_ops_tiling_row(plan, "tile-elems", NULL, "%llu", (unsigned long long)t.tile);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = n;
    plan->bytes = bytes_in + on * dv_dtype_size(odt);
    plan->tol_scale = 1.0;
    return DV_OK;
}

/* ---------------------------------------------------------------- reference */

/* Element i's bytes as an unsigned integer of its width. */
static uint32_t lg_raw(const uint8_t *p, unsigned sz, uint64_t i)
{
    uint32_t x = 0;
    memcpy(&x, p + i * sz, sz);
    return x;
}

static int lg_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    lg_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const lg_kind_t kind = (lg_kind_t)t.kind;
    const dv_dtype_t dt = (dv_dtype_t)t.dtype, odt = (dv_dtype_t)t.out_dtype;
    const unsigned sz = dv_dtype_size(dt);
    uint8_t *out = expect[t.nin];
    if (kind == K_TEQUAL) {
        bool eq = true;
        for (uint64_t i = 0; i < t.elems && eq; i++) /* (integers: the bits; floats: the values, -0 == 0) */
            eq = dv_ops_load(in[0], dt, i) == dv_ops_load(in[1], dt, i);
        dv_ops_store(out, odt, 0, eq);
        return DV_OK;
    }
    for (uint64_t i = 0; i < t.elems; i++) {
        if (kind >= K_SHL) {
            const int64_t x = (int64_t)dv_ops_load(in[0], dt, i);
            const double c = kind == K_SHLS ? t.val[0] : dv_ops_load(in[1], dt, i);
            const unsigned width = 8 * sz;
            const bool inside = c >= 0 && c < width;
            const uint64_t mask = width == 32 ? 0xffffffffu : 0xffffu;
            const int64_t r = kind == K_SHR ? (inside ? x >> (int)c : x < 0 ? -1 : 0)
                            : inside ? (int64_t)(((uint64_t)x << (int)c) & mask) : 0;
            const uint32_t bits = (uint32_t)r;
            memcpy(out + i * sz, &bits, sz); /* the low bytes (little-endian) */
            continue;
        }
        if (lg_bitwise(kind)) {
            const uint32_t a = lg_raw(in[0], sz, i);
            const uint32_t b = kind == K_BAND || kind == K_BOR || kind == K_BXOR ? lg_raw(in[1], sz, i) : t.bits;
            uint32_t r = kind == K_BAND || kind == K_BANDS ? a & b : kind == K_BOR || kind == K_BORS ? a | b
                       : kind == K_BNOT                    ? ~a
                                                           : a ^ b;
            memcpy(out + i * sz, &r, sz);
            continue;
        }
        const double x = dv_ops_load(in[0], t.in_dt[0] == (uint32_t)dt ? dt : DV_DT_U8, i);
        double r;
        switch (kind) {
        case K_AND: r = x != 0 && dv_ops_load(in[1], dt, i) != 0; break;
        case K_OR: r = x != 0 || dv_ops_load(in[1], dt, i) != 0; break;
        case K_XOR: r = (x != 0) != (dv_ops_load(in[1], dt, i) != 0); break;
        case K_NOT: r = x == 0; break;
        case K_ISFINITE: r = isfinite(x); break;
        case K_ISINF: r = isinf(x) != 0; break;
        case K_ISPOSINF: r = x == INFINITY; break;
        case K_ISNEGINF: r = x == -INFINITY; break;
        case K_ISNAN: r = isnan(x); break;
        case K_SIGNBIT: r = signbit(x) != 0; break;
        case K_WHERE: r = dv_ops_load(in[x != 0 ? 1 : 2], dt, i); break;
        case K_MFILL: r = dv_ops_load(in[1], DV_DT_U8, i) != 0 ? t.val[0] : x; break;
        default: r = isnan(x) ? t.val[0] : x == INFINITY ? t.val[1] : x == -INFINITY ? t.val[2] : x; break;
        }
        /* a selected element keeps its bits (NaN payloads, -0), as vsel copies them */
        const uint8_t *keep = kind == K_WHERE                      ? in[x != 0 ? 1 : 2] + i * sz
                            : kind == K_MFILL && !in[1][i]         ? in[0] + i * sz
                            : kind == K_NAN2NUM && !isnan(x) && !isinf(x) ? in[0] + i * sz
                                                                   : NULL;
        if (keep) {
            memcpy(out + i * sz, keep, sz);
            continue;
        }
        dv_ops_store(out, lg_bool_out(kind) ? odt : dt, i, r);
    }
    return DV_OK;
}

#define LG_OP(ident, ptab, what)                                                                                \
    const dv_opdesc_t dv_op_##ident = {.name = #ident, .desc = what, .params = ptab,                             \
                                       .nparams = (int)(sizeof ptab / sizeof ptab[0]), .plan = lg_plan,      \
                                       .kernel = lg_kernel, .reference = lg_reference}

LG_OP(logical_and, lg_params_logic, "z = (x != 0) and (y != 0) as 0 / 1 in --out-dtype (vcmps, vand, vsel, vconv)");
LG_OP(logical_or, lg_params_logic, "z = (x != 0) or (y != 0) as 0 / 1 in --out-dtype (vcmps, vor, vsel, vconv)");
LG_OP(logical_xor, lg_params_logic,
      "z = (x != 0) xor (y != 0) as 0 / 1 in --out-dtype (vcmps, vand, vor, vnot, vsel, vconv)");
LG_OP(logical_not, lg_params_logic, "y = (x == 0) as 0 / 1 in --out-dtype (vcmps, vnot, vsel, vconv)");
LG_OP(isfinite, lg_params_pred, "y = x is finite (not inf, not NaN) as 0 / 1 (vabs, vcmps, vsel, vconv)");
LG_OP(isinf, lg_params_pred, "y = x is +inf or -inf as 0 / 1 (vabs, vcmps, vsel, vconv)");
LG_OP(isposinf, lg_params_pred, "y = x is +inf as 0 / 1 (vcmps, vsel, vconv)");
LG_OP(isneginf, lg_params_pred, "y = x is -inf as 0 / 1 (vcmps, vsel, vconv)");
LG_OP(isnan, lg_params_pred, "y = x is NaN as 0 / 1 (vcmp x != x, vsel, vconv)");
LG_OP(signbit, lg_params_pred, "y = the sign bit of x as 0 / 1 (vcmps on the bits as int32 / int16, vsel, vconv)");
LG_OP(tensor_equal, lg_params_teq,
      "z (one value) = every x == y as 0 / 1, one block (vcmp, vor, vconv, vabs, vcadd_acc, vcmps, vsel)");
LG_OP(where, lg_params_where, "z = cond ? x : y, cond one byte per element (vconv, vcmps, vsel)");
LG_OP(masked_fill, lg_params_mfill, "y = mask ? value : x, mask one byte per element (vconv, vcmps, vdup, vsel)");
LG_OP(nan_to_num, lg_params_n2n, "y = x with NaN, +inf, -inf replaced by --nan, --posinf, --neginf (vcmp, vcmps, vsel)");
LG_OP(bitwise_and, lg_params_bits, "z = x & y on the bytes as 16-bit words (vand)");
LG_OP(bitwise_or, lg_params_bits, "z = x | y on the bytes as 16-bit words (vor)");
LG_OP(bitwise_xor, lg_params_bits, "z = x ^ y as (x | y) & ~(x & y) on 16-bit words (vand, vor, vnot)");
LG_OP(bitwise_not, lg_params_bits, "y = ~x on the bytes as 16-bit words (vnot)");
LG_OP(bitwise_ands, lg_params_bits_s, "y = x & s, s a constant repeat of its bit pattern (vdup, vand)");
LG_OP(bitwise_ors, lg_params_bits_s, "y = x | s, s a constant repeat of its bit pattern (vdup, vor)");
LG_OP(bitwise_xors, lg_params_bits_s, "y = x ^ s as (x | s) & ~(x & s) (vdup, vand, vor, vnot)");
LG_OP(left_shift, lg_params_shift,
      "z = x << s per element (a count outside [0, width): 0), one vshl + vcmps + vsel per count");
LG_OP(right_shift, lg_params_shift,
      "z = x >> s per element, arithmetic (a count outside [0, width): the sign fill), vshr + vcmps + vsel per count");
LG_OP(left_shifts, lg_params_shift_s, "y = x << s (vshl; a count outside [0, width): 0)");
