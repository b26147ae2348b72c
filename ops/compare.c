/* ops/compare.c - comparisons on the vector unit: z = (x CMP y) and y = (x CMP s) for CMP one of
 * eq ne lt gt le ge, the result 1 or 0 in --out-dtype (uint8: the one-byte bool of aclnn's ACL_BOOL
 * outputs; fp16, fp32, int32: the same 0 / 1 as a number, for outputs of another dtype).  Written
 * as Ascend C's Compare + Select:
 *
 * - per block a contiguous range of the flattened tensor (whole units of 512 B of the input dtype,
 *   so every block's output range starts on a 32-B boundary too), walked in tiles of --tile-elems
 *   elements (a multiple of 256, so that every tile but the tensor's last is whole 32-B blocks in
 *   every dtype) through TQue-style queues: x [and y] MTE2 -> V, z V -> MTE3, depth 2 with
 *   --double-buffer on;
 * - compute, per tile of n elements: vcmp (vcmps with the scalar) writes one mask bit per element,
 *   contiguously (repeat r's E/8 bytes at mask + r*E/8, E the input's elements per repeat); vsel in
 *   fp16 then reads the same bits at 16 bytes per repeat of 128 elements and picks 1.0 or 0.0 from
 *   two one-repeat constant buffers (repeat stride 0) filled by vdup once per block; a vconv from
 *   fp16 to the output dtype follows (none for fp16 outputs: vsel writes the output tile).  Each
 *   instruction covers whole repeats (the elements of a tile's last partial repeat past the tile's
 *   end are computed on and never stored) in runs of at most 252, so that every run's mask starts on
 *   a 32-B boundary; dependent steps are separated by pipe_barrier(V).
 * - the scalar of the scalar forms is held in the input dtype, as vcmps holds it (rounded to fp16 /
 *   fp32; with int32 input it must be a whole number in range).
 *
 * The reference compares the inputs (and the scalar as held) exactly and stores 1 or 0, so --check
 * compares bit for bit.  The operators take tensors of one shape: broadcasting (numpy rules) is not
 * implemented here yet, and the aclnn fronts reject shapes that differ with 161002. */
#include "../kernel/kapi_emit.h" /* dvk_<mnemonic> write into the stream (before dv/kapi.h) */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/ops.h"

enum { CMP_SPLIT_BYTES = 512, CMP_REPEAT_BYTES = 256, CMP_BLOCK_BYTES = 32, CMP_TILE_UNIT = 256,
       CMP_TILE_AUTO_MAX = 16384 };

#define CMP_IN_DTYPES (DT_F16 | DT_F32 | DT_S32)        /* what vcmp / vcmps compare */
#define CMP_OUT_DTYPES (DT_U8 | DT_F16 | DT_F32 | DT_S32) /* fp16 0 / 1 and its vconvs */

enum { CP_SHAPE, CP_DTYPE, CP_OUT_DTYPE, CP_CORES, CP_TILE_ELEMS, CP_DOUBLE_BUFFER, CP_SCALAR, CP_COUNT };

#define CMP_PARAMS                                                                                              \
    [CP_SHAPE] = {"shape", DV_OPT_SHAPE, "1024x1024", 1, INT64_C(1) << 40, 0,                                   \
                  "tensor shape AxBx...; the operator works on the flattened elements"},                        \
    [CP_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, CMP_IN_DTYPES, "element type of the inputs"},           \
    [CP_OUT_DTYPE] = {"out-dtype", DV_OPT_DTYPE, "uint8", 0, 0, CMP_OUT_DTYPES,                                 \
                      "element type of the 0 / 1 result (uint8: aclnn's one-byte bool)"},                      \
    [CP_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0,                                                     \
                  "blocks (auto: every vector core); at most one per 512 B of input"},                          \
    [CP_TILE_ELEMS] = {"tile-elems", DV_OPT_INT, "auto", 1, INT64_C(1) << 24, 0,                                \
                       "elements per tile, a multiple of 256 (auto: the largest power of two up to 16384 "      \
                       "whose buffers fit in UB)"},                                                             \
    [CP_DOUBLE_BUFFER] = {"double-buffer", DV_OPT_BOOL, "on", 0, 1, 0,                                          \
                          "two buffers per queue (on) so copies overlap the vector work, or one (off)"}

static const dv_oparam_spec_t cmp_params_tensor[CP_SCALAR] = {CMP_PARAMS};
static const dv_oparam_spec_t cmp_params_scalar[CP_COUNT] = {
    CMP_PARAMS,
    [CP_SCALAR] = {"scalar", DV_OPT_FLOAT, "0", -DBL_MAX, DBL_MAX, 0,
                   "the scalar s, held in --dtype as vcmps holds it"},
};

/* The tiling passed to the kernel. */
typedef struct cmp_tiling {
    uint32_t cmp;          /* DV_CMP_* */
    uint32_t scalar_form;  /* y = x CMP s */
    uint32_t dtype, out_dtype;
    uint32_t depth;
    uint64_t elems, unit, tile;
    double scalar;
} cmp_tiling_t;

static const struct {
    const char *name;
    int cmp;
} cmp_names[] = {{"eq", DV_CMP_EQ}, {"ne", DV_CMP_NE}, {"lt", DV_CMP_LT},
                 {"gt", DV_CMP_GT}, {"le", DV_CMP_LE}, {"ge", DV_CMP_GE}};

/* The comparison of an operator ("gt", "gts"), -1 when none. */
static int cmp_of(const dv_opdesc_t *op, bool *scalar_form)
{
    for (size_t i = 0; i < sizeof cmp_names / sizeof cmp_names[0]; i++) {
        const size_t n = strlen(cmp_names[i].name);
        if (strncmp(op->name, cmp_names[i].name, n) == 0 && (op->name[n] == 0 || strcmp(op->name + n, "s") == 0)) {
            *scalar_form = op->name[n] == 's';
            return cmp_names[i].cmp;
        }
    }
    return -1;
}

/* The element range [first, first + count) of block b of nb: whole split units, as even as possible. */
static void cmp_range(const cmp_tiling_t *t, uint32_t b, uint32_t nb, uint64_t *first, uint64_t *count)
{
    uint64_t units = dv_ceil_div(t->elems, t->unit), base = units / nb, rem = units % nb;
    uint64_t u0 = b * base + dv_min_u64(b, rem), nu = base + (b < rem);
    *first = u0 * t->unit;
    *count = *first >= t->elems ? 0 : dv_min_u64(nu * t->unit, t->elems - *first);
}

/* Which instruction a run of repeats issues. */
enum { S_CMP, S_CMPS, S_SEL, S_CONV };

/* One instruction of `rep` repeats starting at repeat r0 of a step over contiguous operands. */
static void cmp_insn(dv_k_t *k, const cmp_tiling_t *t, int step, uint64_t d, uint64_t a, uint64_t b, uint64_t mask,
                     uint64_t r0, unsigned rep, uint64_t ones, uint64_t zeros)
{
    const dv_dtype_t in = (dv_dtype_t)t->dtype, out = (dv_dtype_t)t->out_dtype;
    const uint64_t ipr = CMP_REPEAT_BYTES / dv_dtype_size(in); /* input elements per repeat */
    const uint64_t osz = dv_dtype_size(out), cpr = CMP_REPEAT_BYTES / (osz > 2 ? osz : 2); /* vconv's */
    switch (step) {
    case S_CMP:
        dvk_vcmp(k, mask + r0 * ipr / 8, a + r0 * CMP_REPEAT_BYTES, b + r0 * CMP_REPEAT_BYTES, in, (int)t->cmp, rep,
                 1, 1, 8, 8);
        break;
    case S_CMPS:
        dvk_vcmps(k, mask + r0 * ipr / 8, a + r0 * CMP_REPEAT_BYTES, in, t->scalar, (int)t->cmp, rep, 1, 8);
        break;
    case S_SEL: /* 128 fp16 elements per repeat, their mask 16 bytes on */
        dvk_vsel(k, d + r0 * CMP_REPEAT_BYTES, ones, zeros, mask + r0 * 16, DV_DT_F16, rep, 1, 1, 1, 8, 0, 0, 1);
        break;
    case S_CONV: /* fp16 -> out: a repeat is 256 B of the wider side */
        dvk_vconv(k, d + r0 * cpr * osz, a + r0 * cpr * 2, out, DV_DT_F16, DV_ROUND_R, rep, 1, 1,
                  (int64_t)(cpr * osz / CMP_BLOCK_BYTES), (int64_t)(cpr * 2 / CMP_BLOCK_BYTES));
        break;
    }
}

/* A step over the first n elements of a tile, as whole repeats of `epr` elements: the tile buffers
 * hold whole multiples of 256 elements, and the elements past n are computed on and never stored
 * (the copy out writes n elements rounded up to 32 B, which is n except at the tensor's end, where
 * it runs into the argument's padding).  Runs of at most 252 repeats keep every run's mask bytes
 * (E/8 per repeat) at a 32-B boundary. */
static void cmp_step(dv_k_t *k, const cmp_tiling_t *t, int step, uint64_t epr, uint64_t d, uint64_t a, uint64_t b,
                     uint64_t mask, uint64_t n, uint64_t ones, uint64_t zeros)
{
    const uint64_t reps = dv_ceil_div(n, epr);
    const uint64_t max_rep = step == S_CMP    ? dv_ops_field_max(DV_FORM_VCMP, DV_FLD(VCMP, repeat))
                           : step == S_CMPS ? dv_ops_field_max(DV_FORM_VCMPS, DV_FLD(VCMPS, repeat))
                           : step == S_SEL  ? dv_ops_field_max(DV_FORM_VSEL, DV_FLD(VSEL, repeat))
                                            : dv_ops_field_max(DV_FORM_VCONV, DV_FLD(VCONV, repeat));
    const uint64_t run = max_rep / 4 * 4;
    for (uint64_t r = 0; r < reps;) {
        const unsigned rep = (unsigned)dv_min_u64(run, reps - r);
        cmp_insn(k, t, step, d, a, b, mask, r, rep, ones, zeros);
        r += rep;
    }
}

/* One block: its range in tiles, CopyIn -> Compute -> CopyOut.  Arguments: x, [y,] z. */
static void cmp_kernel(dv_k_t *k, const void *params)
{
    const cmp_tiling_t *t = params;
    const bool binary = !t->scalar_form;
    const dv_dtype_t out = (dv_dtype_t)t->out_dtype;
    const unsigned isz = dv_dtype_size((dv_dtype_t)t->dtype), osz = dv_dtype_size(out);
    const uint32_t zarg = binary ? 2 : 1;
    uint64_t first, count;
    cmp_range(t, dvk_block_idx(k), dvk_block_num(k), &first, &count);
    if (count == 0)
        return;

    dv_que_t in_x, in_y, out_z;
    dvk_que_init(k, &in_x, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, t->depth, t->tile * isz);
    if (binary)
        dvk_que_init(k, &in_y, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, t->depth, t->tile * isz);
    dvk_que_init(k, &out_z, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, t->depth, t->tile * osz);
    /* the mask, the fp16 0 / 1 tile (not needed for fp16 outputs) and the two constant repeats */
    const uint64_t mask = dvk_alloc(k, DV_SPACE_UB, dv_round_up(t->tile / 8, CMP_BLOCK_BYTES));
    const uint64_t sel = out == DV_DT_F16 ? 0 : dvk_alloc(k, DV_SPACE_UB, t->tile * 2);
    const uint64_t ones = dvk_alloc(k, DV_SPACE_UB, CMP_REPEAT_BYTES), zeros = dvk_alloc(k, DV_SPACE_UB, CMP_REPEAT_BYTES);
    dvk_vdup(k, ones, DV_DT_F16, 1.0, 1, 1, 8);
    dvk_vdup(k, zeros, DV_DT_F16, 0.0, 1, 1, 8);

    for (uint64_t off = first; off < first + count; off += t->tile) {
        const uint64_t n = dv_min_u64(t->tile, first + count - off);
        const uint64_t ilen = dv_ceil_div(n * isz, CMP_BLOCK_BYTES), olen = dv_ceil_div(n * osz, CMP_BLOCK_BYTES);
        /* CopyIn */
        uint64_t bx = dvk_que_alloc(k, &in_x), by = binary ? dvk_que_alloc(k, &in_y) : 0;
        dvk_copy_gm_to_ubuf(k, bx, dvk_gm(k, 0, off * isz), 1, (int64_t)ilen, 0, 0);
        if (binary)
            dvk_copy_gm_to_ubuf(k, by, dvk_gm(k, 1, off * isz), 1, (int64_t)ilen, 0, 0);
        dvk_que_enque(k, &in_x, bx);
        if (binary)
            dvk_que_enque(k, &in_y, by);
        /* Compute */
        bx = dvk_que_deque(k, &in_x);
        if (binary)
            by = dvk_que_deque(k, &in_y);
        const uint64_t bz = dvk_que_alloc(k, &out_z);
        cmp_step(k, t, binary ? S_CMP : S_CMPS, CMP_REPEAT_BYTES / isz, 0, bx, by, mask, n, 0, 0);
        dvk_pipe_barrier(k, DV_PIPE_V);
        cmp_step(k, t, S_SEL, CMP_REPEAT_BYTES / 2, out == DV_DT_F16 ? bz : sel, 0, 0, mask, n, ones, zeros);
        if (out != DV_DT_F16) {
            dvk_pipe_barrier(k, DV_PIPE_V);
            cmp_step(k, t, S_CONV, CMP_REPEAT_BYTES / (osz > 2 ? osz : 2), bz, sel, 0, 0, n, 0, 0);
        }
        dvk_que_enque(k, &out_z, bz);
        dvk_que_free(k, &in_x, bx);
        if (binary)
            dvk_que_free(k, &in_y, by);
        /* CopyOut */
        const uint64_t oz = dvk_que_deque(k, &out_z);
        dvk_copy_ubuf_to_gm(k, dvk_gm(k, zarg, off * osz), oz, 1, (int64_t)olen, 0, 0);
        dvk_que_free(k, &out_z, oz);
    }
}

static int cmp_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                    dv_error_t *err)
{
    bool scalar_form = false;
    const int c = cmp_of(op, &scalar_form);
    if (c < 0)
        return dv_error_set(err, DV_ERR_UNKNOWN, NULL, 0, 0, "%s: not a comparison operator", op->name);
    const dv_dtype_t dt = v->v[CP_DTYPE].dt, odt = v->v[CP_OUT_DTYPE].dt;
    const unsigned isz = dv_dtype_size(dt), osz = dv_dtype_size(odt);
    const uint64_t n = dv_shape_elems(&v->v[CP_SHAPE].shape);
    uint64_t bytes;
    if (n == 0 || __builtin_mul_overflow(n, (uint64_t)(isz > osz ? isz : osz), &bytes) ||
        bytes > cfg->hbm_capacity_bytes)
        return dv_ops_param_error(err, "shape", "one tensor of this shape does not fit hbm.capacity_bytes (%llu)",
                                  (unsigned long long)cfg->hbm_capacity_bytes);
    cmp_tiling_t t = {.cmp = (uint32_t)c, .scalar_form = scalar_form, .dtype = (uint32_t)dt, .out_dtype = (uint32_t)odt,
                      .elems = n, .unit = CMP_SPLIT_BYTES / isz, .depth = v->v[CP_DOUBLE_BUFFER].i ? 2 : 1};
    if (scalar_form) {
        const double s = v->v[CP_SCALAR].f;
        if (dv_dtype_is_float(dt)) {
            t.scalar = dv_ops_round(dt, s);
            if (!isfinite(t.scalar))
                return dv_ops_param_error(err, "scalar", "%g overflows %s (vcmps holds the scalar in --dtype)", s,
                                          dv_ops_dtype_name(dt));
        } else {
            if (s != nearbyint(s) || s < INT32_MIN || s > INT32_MAX)
                return dv_ops_param_error(err, "scalar", "%.17g is not an integer in [%d, %d]: with --dtype int32 "
                                          "vcmps holds the scalar as an int32", s, INT32_MIN, INT32_MAX);
            t.scalar = s;
        }
    }
    /* UB: the queues, the fp16 0 / 1 tile, the mask; plus the two constant repeats */
    const unsigned queues_in = scalar_form ? 1 : 2;
    const uint64_t per_elem = (uint64_t)queues_in * t.depth * isz + (uint64_t)t.depth * osz + (odt == DV_DT_F16 ? 0 : 2);
    const uint64_t fixed = 2 * CMP_REPEAT_BYTES + CMP_BLOCK_BYTES;
    uint64_t need;
    if (v->v[CP_TILE_ELEMS].i == 0) {
        t.tile = CMP_TILE_AUTO_MAX;
        while (t.tile > CMP_TILE_UNIT && t.tile * per_elem + t.tile / 8 + fixed > cfg->ub_size_bytes)
            t.tile /= 2;
    } else {
        t.tile = (uint64_t)v->v[CP_TILE_ELEMS].i;
        if (t.tile % CMP_TILE_UNIT)
            return dv_ops_param_error(err, "tile-elems", "%llu is not a multiple of %d (a tile is whole fp16 "
                                      "repeats of the select and whole 32-B blocks of a uint8 output)",
                                      (unsigned long long)t.tile, CMP_TILE_UNIT);
    }
    need = t.tile * per_elem + t.tile / 8 + fixed;
    if (need > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "tile-elems", "%llu elements need %llu bytes of UB, core.ub_size_bytes is %llu",
                                  (unsigned long long)t.tile, (unsigned long long)need,
                                  (unsigned long long)cfg->ub_size_bytes);

    const uint64_t units = dv_ceil_div(n, t.unit);
    const uint64_t cores = v->v[CP_CORES].i ? (uint64_t)v->v[CP_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_min_u64(cores, units);
    plan->info.subs = 1;
    int rc;
    /* int32 inputs in a small range so that equal values occur; floats in the default range */
    const double lo = dt == DV_DT_S32 ? -4 : 0, hi = dt == DV_DT_S32 ? 4 : 0;
    if ((rc = dv_ops_add_arg(plan, "x", dt, n, DV_ARG_IN, lo, hi)) ||
        (!scalar_form && (rc = dv_ops_add_arg(plan, "y", dt, n, DV_ARG_IN, lo, hi))) ||
        (rc = dv_ops_add_arg(plan, scalar_form ? "y" : "z", odt, n, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    dv_ops_tiling_row(plan, "tile-elems", NULL, "%llu", (unsigned long long)t.tile);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = n;
    plan->bytes = (uint64_t)queues_in * n * isz + n * osz;
    plan->tol_scale = 1.0;
    return DV_OK;
}

/* The exact comparison, 1 or 0 (a NaN compares unequal to everything). */
static bool cmp_eval(int c, double a, double b)
{
    switch (c) {
    case DV_CMP_EQ: return a == b;
    case DV_CMP_NE: return a != b;
    case DV_CMP_LT: return a < b;
    case DV_CMP_GT: return a > b;
    case DV_CMP_LE: return a <= b;
    default: return a >= b;
    }
}

static int cmp_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    cmp_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t dt = (dv_dtype_t)t.dtype, odt = (dv_dtype_t)t.out_dtype;
    uint8_t *out = expect[t.scalar_form ? 1 : 2];
    for (uint64_t i = 0; i < t.elems; i++) {
        const double a = dv_ops_load(in[0], dt, i), b = t.scalar_form ? t.scalar : dv_ops_load(in[1], dt, i);
        dv_ops_store(out, odt, i, cmp_eval((int)t.cmp, a, b) ? 1.0 : 0.0);
    }
    return DV_OK;
}

#define CMP_OP(ident, ptab, what)                                                                               \
    const dv_opdesc_t dv_op_##ident = {.name = #ident, .desc = what, .params = ptab,                             \
                                       .nparams = (int)(sizeof ptab / sizeof ptab[0]), .plan = cmp_plan,    \
                                       .kernel = cmp_kernel, .reference = cmp_reference}

CMP_OP(eq, cmp_params_tensor, "z = (x == y) as 0 / 1 in --out-dtype (vcmp, vsel, vconv)");
CMP_OP(ne, cmp_params_tensor, "z = (x != y) as 0 / 1 in --out-dtype (vcmp, vsel, vconv)");
CMP_OP(lt, cmp_params_tensor, "z = (x < y) as 0 / 1 in --out-dtype (vcmp, vsel, vconv)");
CMP_OP(gt, cmp_params_tensor, "z = (x > y) as 0 / 1 in --out-dtype (vcmp, vsel, vconv)");
CMP_OP(le, cmp_params_tensor, "z = (x <= y) as 0 / 1 in --out-dtype (vcmp, vsel, vconv)");
CMP_OP(ge, cmp_params_tensor, "z = (x >= y) as 0 / 1 in --out-dtype (vcmp, vsel, vconv)");
CMP_OP(eqs, cmp_params_scalar, "y = (x == s) as 0 / 1 in --out-dtype (vcmps, vsel, vconv)");
CMP_OP(nes, cmp_params_scalar, "y = (x != s) as 0 / 1 in --out-dtype (vcmps, vsel, vconv)");
CMP_OP(lts, cmp_params_scalar, "y = (x < s) as 0 / 1 in --out-dtype (vcmps, vsel, vconv)");
CMP_OP(gts, cmp_params_scalar, "y = (x > s) as 0 / 1 in --out-dtype (vcmps, vsel, vconv)");
CMP_OP(les, cmp_params_scalar, "y = (x <= s) as 0 / 1 in --out-dtype (vcmps, vsel, vconv)");
CMP_OP(ges, cmp_params_scalar, "y = (x >= s) as 0 / 1 in --out-dtype (vcmps, vsel, vconv)");
