/* ops/binmath.c - integer-part division on the vector unit: floor_divide (floor(x / y)), fmod
 * (x - y * trunc(x / y), the sign of x) and remainder (x - y * floor(x / y), the sign of y), with y a
 * tensor or, for floor_divides / fmods / remainders, --scalar (aclnnFloorDivide(s), aclnnFmod*,
 * aclnnRemainderTensor*).
 *
 * As the element-wise operators (ops/elementwise.c): block b takes whole 512-B units of the flattened
 * tensor, in tiles of --tile-elems through TQue-style queues (x, y: MTE2 -> V; z: V -> MTE3, depth 2).
 * Per tile, in fp32 (fp16 cast up by vconv): q = x / y (vdiv; the scalar's tile is filled once per
 * block by vdup), its integer part by vconv f32 -> s32 rounding toward minus infinity (floor) or
 * zero (trunc) and back to f32, then for fmod and remainder y * q' (vmul) and x minus it (vsub); fp16
 * cast back.  So the results are those of these fp32 steps: the quotient is rounded before its
 * integer part is taken, and |x / y| must stay below 2^31 (the s32 conversion saturates).  The
 * reference computes the same fp32 steps, so --check is exact. */
#include "../kernel/kapi_emit.h" /* dvk_<mnemonic> write into the stream (before dv/kapi.h) */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/ops.h"

enum { BM_FLOORDIV, BM_FMOD, BM_REMAINDER, BM_KINDS };
enum { BP_SHAPE, BP_DTYPE, BP_CORES, BP_TILE, BP_SCALAR, BP_COUNT };
#define BM_COMMON                                                                                              \
    [BP_SHAPE] = {"shape", DV_OPT_SHAPE, "1048576", 1, 1u << 30, 0, "tensor dimensions"},                       \
    [BP_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp16", 0, 0, DT_F16 | DT_F32, "element type (arithmetic in fp32)"},   \
    [BP_CORES] = {"cores", DV_OPT_INT, "auto", 1, 1024, 0, "blocks (auto: the chip's vector cores)"},         \
    [BP_TILE] = {"tile-elems", DV_OPT_INT, "4096", 64, 8192, 0, "elements per tile (a multiple of 64)"}
static const dv_oparam_spec_t bm_tensor_params[BP_SCALAR] = {BM_COMMON};
static const dv_oparam_spec_t bm_scalar_params[BP_COUNT] = {
    BM_COMMON, [BP_SCALAR] = {"scalar", DV_OPT_FLOAT, "3", -3.4e38, 3.4e38, 0, "the divisor y (not 0)"}};

typedef struct bm_tiling {
    uint64_t elems, unit, tile;
    double scalar;
    uint32_t kind, dt, has_scalar;
} bm_tiling_t;

static const struct {
    const char *name, *sname;
} bm_names[BM_KINDS] = {{"floor_divide", "floor_divides"}, {"fmod", "fmods"}, {"remainder", "remainders"}};

enum { BM_REP = 256, BM_LANES = 64 };

/* One flat step of rep repeats (64 fp32 elements each; the f16 side of a cast packs 128 B). */
static void bm_kernel(dv_k_t *k, const void *params)
{
    const bm_tiling_t *t = params;
    const dv_dtype_t dt = (dv_dtype_t)t->dt;
    const unsigned size = dv_dtype_size(dt);
    uint64_t first, last;
    dv_ops_block_span(k, t->elems, t->unit, &first, &last);
    if (first >= last)
        return;
    const uint64_t T = t->tile;
    const int64_t rep = (int64_t)(T / BM_LANES);
    const uint32_t zarg = t->has_scalar ? 1 : 2;
    dv_que_t xq, yq, zq;
    dvk_que_init(k, &xq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 2, T * size);
    if (!t->has_scalar)
        dvk_que_init(k, &yq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 2, T * size);
    dvk_que_init(k, &zq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 2, T * size);
    const uint64_t x32 = dvk_alloc(k, DV_SPACE_UB, T * 4), y32 = dvk_alloc(k, DV_SPACE_UB, T * 4);
    const uint64_t q32 = dvk_alloc(k, DV_SPACE_UB, T * 4), qi = dvk_alloc(k, DV_SPACE_UB, T * 4);
    if (t->has_scalar) /* the divisor's tile, once */
        dvk_vdup(k, y32, DV_DT_F32, t->scalar, rep, 1, 8);
    for (uint64_t off = first; off < last; off += T) {
        const uint64_t n = dv_min_u64(T, last - off), len = dv_ceil_div(n * size, 32);
        const uint64_t bx = dvk_que_alloc(k, &xq);
        dvk_copy_gm_to_ubuf(k, bx, dvk_gm(k, 0, off * size), 1, (int64_t)len, 0, 0);
        dvk_que_enque(k, &xq, bx);
        uint64_t by = 0;
        if (!t->has_scalar) {
            by = dvk_que_alloc(k, &yq);
            dvk_copy_gm_to_ubuf(k, by, dvk_gm(k, 1, off * size), 1, (int64_t)len, 0, 0);
            dvk_que_enque(k, &yq, by);
        }
        const uint64_t x = dvk_que_deque(k, &xq), y = t->has_scalar ? 0 : dvk_que_deque(k, &yq);
        const uint64_t z = dvk_que_alloc(k, &zq);
        /* x, y in fp32 (fp32: the tiles themselves, read only) */
        uint64_t xs = x, ys = t->has_scalar ? y32 : y;
        if (size == 2) {
            dvk_vconv(k, x32, x, DV_DT_F32, DV_DT_F16, DV_ROUND_R, rep, 1, 1, 8, 4);
            if (!t->has_scalar)
                dvk_vconv(k, y32, y, DV_DT_F32, DV_DT_F16, DV_ROUND_R, rep, 1, 1, 8, 4);
            xs = x32;
            ys = y32;
        }
        dvk_pipe_barrier(k, DV_PIPE_V);
        dvk_vdiv(k, q32, xs, ys, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        dvk_pipe_barrier(k, DV_PIPE_V);
        dvk_vconv(k, qi, q32, DV_DT_S32, DV_DT_F32, t->kind == BM_FMOD ? DV_ROUND_Z : DV_ROUND_F, rep, 1, 1, 8, 8);
        dvk_pipe_barrier(k, DV_PIPE_V);
        const uint64_t r32 = size == 4 ? z : q32; /* the fp32 result */
        dvk_vconv(k, t->kind == BM_FLOORDIV ? r32 : q32, qi, DV_DT_F32, DV_DT_S32, DV_ROUND_R, rep, 1, 1, 8, 8);
        if (t->kind != BM_FLOORDIV) {
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vmul(k, q32, q32, ys, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vsub(k, r32, xs, q32, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        }
        if (size == 2) {
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vconv(k, z, q32, DV_DT_F16, DV_DT_F32, DV_ROUND_R, rep, 1, 1, 4, 8);
        }
        dvk_que_free(k, &xq, x);
        if (!t->has_scalar)
            dvk_que_free(k, &yq, y);
        dvk_que_enque(k, &zq, z);
        const uint64_t bz = dvk_que_deque(k, &zq);
        dvk_copy_ubuf_to_gm(k, dvk_gm(k, zarg, off * size), bz, 1, (int64_t)len, 0, 0);
        dvk_que_free(k, &zq, bz);
        dvk_pipe_barrier(k, DV_PIPE_V); /* the next tile's fp32 work reuses the scratch */
    }
}

static int bm_kind_of(const dv_opdesc_t *op, bool *scalar)
{
    for (int i = 0; i < BM_KINDS; i++)
        if (strcmp(op->name, bm_names[i].name) == 0 || strcmp(op->name, bm_names[i].sname) == 0) {
            *scalar = strcmp(op->name, bm_names[i].sname) == 0;
            return i;
        }
    return -1;
}

static int bm_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                   dv_error_t *err)
{
    bool scalar = false;
    const int kind = bm_kind_of(op, &scalar);
    if (kind < 0)
        return dv_error_set(err, DV_ERR_UNKNOWN, NULL, 0, 0, "%s: not an integer-part division", op->name);
    const dv_dtype_t dt = v->v[BP_DTYPE].dt;
    const unsigned size = dv_dtype_size(dt);
    const uint64_t elems = dv_shape_elems(&v->v[BP_SHAPE].shape);
    const int hbm_rc = dv_ops_check_hbm(cfg, elems, size, err);
    if (hbm_rc != DV_OK)
        return hbm_rc;
    bm_tiling_t t = {.elems = elems, .unit = 512 / size, .tile = (uint64_t)v->v[BP_TILE].i, .kind = (uint32_t)kind,
                     .dt = (uint32_t)dt, .has_scalar = scalar};
    if (t.tile % BM_LANES)
        return dv_ops_param_error(err, "tile-elems", "%llu is not a multiple of 64 (whole fp32 repeats)",
                                  (unsigned long long)t.tile);
    if (scalar) {
        t.scalar = dv_ops_round(dt, v->v[BP_SCALAR].f);
        if (t.scalar == 0 || !isfinite(t.scalar))
            return dv_ops_param_error(err, "scalar", "%g is not a finite divisor other than 0 in %s",
                                      v->v[BP_SCALAR].f, dv_ops_dtype_name(dt));
    }
    const uint64_t ub = (scalar ? 4 : 6) * t.tile * size + 4 * t.tile * 4;
    if (ub > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "tile-elems", "%llu elements need %llu bytes of UB, core.ub_size_bytes is %llu",
                                  (unsigned long long)t.tile, (unsigned long long)ub,
                                  (unsigned long long)cfg->ub_size_bytes);
    const uint64_t units = dv_ceil_div(elems, t.unit);
    const uint64_t cores = v->v[BP_CORES].i ? (uint64_t)v->v[BP_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_max_u64(1, dv_min_u64(cores, units));
    plan->info.subs = 1;
    int rc;
    if ((rc = dv_ops_add_arg(plan, "x", dt, elems, DV_ARG_IN, -8, 8)) ||
        (!scalar && (rc = dv_ops_add_arg(plan, "y", dt, elems, DV_ARG_IN, 0.5, 2))) ||
        (rc = dv_ops_add_arg(plan, scalar ? "y" : "z", dt, elems, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = (kind == BM_FLOORDIV ? 1 : 3) * elems;
    plan->bytes = (scalar ? 2 : 3) * elems * size;
    plan->tol_scale = 1.0;
    return DV_OK;
}

/* The kernel's fp32 steps. */
static double bm_value(int kind, float x, float y)
{
    const float q = x / y;
    const float qi = kind == BM_FMOD ? truncf(q) : floorf(q);
    if (kind == BM_FLOORDIV)
        return qi;
    const float p = qi * y;
    return (float)(x - p);
}

static int bm_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    bm_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t dt = (dv_dtype_t)t.dt;
    for (uint64_t i = 0; i < t.elems; i++) {
        const float x = (float)dv_ops_load(in[0], dt, i);
        const float y = t.has_scalar ? (float)t.scalar : (float)dv_ops_load(in[1], dt, i);
        dv_ops_store(expect[t.has_scalar ? 1 : 2], dt, i, bm_value((int)t.kind, x, y));
    }
    return DV_OK;
}

#define BM_OP(ident, name, params, what)                                                                       \
    const dv_opdesc_t dv_op_##ident = {name, what, params, (int)(sizeof params / sizeof params[0]), bm_plan,    \
                                       bm_kernel, bm_reference, NULL, NULL, NULL}
BM_OP(floor_divide, "floor_divide", bm_tensor_params, "z = floor(x / y) (fp32 steps)");
BM_OP(floor_divides, "floor_divides", bm_scalar_params, "y = floor(x / --scalar) (fp32 steps)");
BM_OP(fmod, "fmod", bm_tensor_params, "z = x - y * trunc(x / y), the sign of x (fp32 steps)");
BM_OP(fmods, "fmods", bm_scalar_params, "y = x - s * trunc(x / s), s = --scalar (fp32 steps)");
BM_OP(remainder, "remainder", bm_tensor_params, "z = x - y * floor(x / y), the sign of y (fp32 steps)");
BM_OP(remainders, "remainders", bm_scalar_params, "y = x - s * floor(x / s), s = --scalar (fp32 steps)");
