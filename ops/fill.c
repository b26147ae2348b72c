/* ops/fill.c - tensors made without an input: fill (every element --value: aclnnInplaceZero,
 * aclnnInplaceOne, aclnnInplaceFillScalar) and arange (y[i] = --start + i --step: aclnnArange,
 * aclnnRange, aclnnLinspace).
 *
 * As the element-wise operators: block b takes whole 512-B units of the output, in tiles of
 * --tile-elems through the out queue (V -> MTE3).  fill: vdup of the value (in fp32, cast once to
 * the dtype) into the tile.  arange: the lane indices 0 .. tile-1 once per block (dv_ops_iota_s32,
 * cast to fp32), then per tile y = lane * step (vmuls) + (start + first * step) (vadds; the tile's
 * first index folded into the scalar, in double, rounded once to fp32), cast to the dtype.  So
 * arange's value is the fp32 of lane * step plus the fp32 of the tile's start, rounded: the
 * reference computes exactly these steps. */
#include "../kernel/kapi_emit.h" /* dvk_<mnemonic> write into the stream (before dv/kapi.h) */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/ops.h"

enum { FK_FILL, FK_ARANGE };
enum { FP_SHAPE, FP_DTYPE, FP_CORES, FP_TILE, FP_A, FP_B, FP_COUNT };
#define FILL_COMMON                                                                                            \
    [FP_SHAPE] = {"shape", DV_OPT_SHAPE, "1048576", 1, 1u << 30, 0, "tensor dimensions"},                       \
    [FP_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp32", 0, 0, DT_F16 | DT_F32, "element type"},                        \
    [FP_CORES] = {"cores", DV_OPT_INT, "auto", 1, 1024, 0, "blocks (auto: the chip's vector cores)"},         \
    [FP_TILE] = {"tile-elems", DV_OPT_INT, "4096", 64, 16384, 0, "elements per tile (a multiple of 64)"}
static const dv_oparam_spec_t fill_params[FP_B] = {
    FILL_COMMON, [FP_A] = {"value", DV_OPT_FLOAT, "0", -3.4e38, 3.4e38, 0, "the value of every element"}};
static const dv_oparam_spec_t arange_params[FP_COUNT] = {
    FILL_COMMON, [FP_A] = {"start", DV_OPT_FLOAT, "0", -3.4e38, 3.4e38, 0, "the first value"},
    [FP_B] = {"step", DV_OPT_FLOAT, "1", -3.4e38, 3.4e38, 0, "the difference of consecutive values"}};

typedef struct fill_tiling {
    uint64_t elems, unit, tile;
    double a, b;
    uint32_t kind, dt;
} fill_tiling_t;

enum { FL_REP = 256, FL_LANES = 64 };

static void fill_kernel(dv_k_t *k, const void *params)
{
    const fill_tiling_t *t = params;
    const dv_dtype_t dt = (dv_dtype_t)t->dt;
    const unsigned size = dv_dtype_size(dt);
    uint64_t first, last;
    dv_ops_block_span(k, t->elems, t->unit, &first, &last);
    if (first >= last)
        return;
    const uint64_t T = t->tile;
    const int64_t rep = (int64_t)(T / FL_LANES);
    dv_que_t outq;
    dvk_que_init(k, &outq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 2, T * size);
    const uint64_t lane = dvk_alloc(k, DV_SPACE_UB, T * 4), f = dvk_alloc(k, DV_SPACE_UB, T * 4);
    if (t->kind == FK_ARANGE) {
        dv_ops_iota_s32(k, lane, T);
        dvk_vconv(k, lane, lane, DV_DT_F32, DV_DT_S32, DV_ROUND_R, rep, 1, 1, 8, 8); /* in place, lane by lane */
    } else {
        dvk_vdup(k, f, DV_DT_F32, t->a, rep, 1, 8);
    }
    dvk_pipe_barrier(k, DV_PIPE_V);
    for (uint64_t off = first; off < last; off += T) {
        const uint64_t n = dv_min_u64(T, last - off);
        const uint64_t y = dvk_que_alloc(k, &outq), yf = size == 4 ? y : f;
        if (t->kind == FK_ARANGE) {
            dvk_vmuls(k, yf, lane, DV_DT_F32, t->b, rep, 1, 1, 8, 8);
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vadds(k, yf, yf, DV_DT_F32, t->a + (double)off * t->b, rep, 1, 1, 8, 8);
        } else if (size == 4) {
            dvk_vadds(k, y, f, DV_DT_F32, 0.0, rep, 1, 1, 8, 8);
        }
        if (size == 2) {
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vconv(k, y, f, DV_DT_F16, DV_DT_F32, DV_ROUND_R, rep, 1, 1, 4, 8);
        }
        dvk_que_enque(k, &outq, y);
        const uint64_t by = dvk_que_deque(k, &outq);
        dvk_copy_ubuf_to_gm(k, dvk_gm(k, 0, off * size), by, 1, (int64_t)dv_ceil_div(n * size, 32), 0, 0);
        dvk_que_free(k, &outq, by);
        dvk_pipe_barrier(k, DV_PIPE_V);
    }
}

static int fill_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                     dv_error_t *err)
{
    const int kind = strcmp(op->name, "arange") == 0 ? FK_ARANGE : FK_FILL;
    const dv_dtype_t dt = v->v[FP_DTYPE].dt;
    const unsigned size = dv_dtype_size(dt);
    const uint64_t elems = dv_shape_elems(&v->v[FP_SHAPE].shape);
    const int hbm_rc = dv_ops_check_hbm(cfg, elems, size, err);
    if (hbm_rc != DV_OK)
        return hbm_rc;
    fill_tiling_t t = {.elems = elems, .unit = 512 / size, .tile = (uint64_t)v->v[FP_TILE].i, .a = v->v[FP_A].f,
                       .b = op->nparams > FP_B ? v->v[FP_B].f : 0, .kind = (uint32_t)kind, .dt = (uint32_t)dt};
    if (t.tile % FL_LANES)
        return dv_ops_param_error(err, "tile-elems", "%llu is not a multiple of 64", (unsigned long long)t.tile);
    if (kind == FK_ARANGE && t.tile > 16777216)
        return dv_ops_param_error(err, "tile-elems", "lane indices must stay exact in fp32");
    const uint64_t ub = 2 * t.tile * size + 2 * t.tile * 4;
    if (ub > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "tile-elems", "%llu elements need %llu bytes of UB, core.ub_size_bytes is %llu",
                                  (unsigned long long)t.tile, (unsigned long long)ub,
                                  (unsigned long long)cfg->ub_size_bytes);
    const uint64_t units = dv_ceil_div(elems, t.unit);
    const uint64_t cores = v->v[FP_CORES].i ? (uint64_t)v->v[FP_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_max_u64(1, dv_min_u64(cores, units));
    plan->info.subs = 1;
    int rc;
    if ((rc = dv_ops_add_arg(plan, "y", dt, elems, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the argument", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = kind == FK_ARANGE ? 2 * elems : 0;
    plan->bytes = elems * size;
    plan->tol_scale = 1.0;
    return DV_OK;
}

static int fill_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)in;
    (void)err;
    fill_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const uint64_t units = dv_ceil_div(t.elems, t.unit);
    for (uint64_t i = 0; i < t.elems; i++) {
        double y = (float)t.a;
        if (t.kind == FK_ARANGE) {
            /* the kernel's tile of element i: tiles start at its block's first element (whole units) */
            const uint32_t nb = plan->info.blocks;
            uint64_t first = 0;
            for (uint32_t b = 0; b < nb; b++) {
                const uint64_t f = units * b / nb * t.unit;
                if (f <= i)
                    first = f;
            }
            const uint64_t off = first + (i - first) / t.tile * t.tile;
            y = (float)((float)(double)(i - off) * (float)t.b) + (float)(t.a + (double)off * t.b);
        }
        dv_ops_store(expect[0], (dv_dtype_t)t.dt, i, y);
    }
    return DV_OK;
}

const dv_opdesc_t dv_op_fill = {"fill", "y = --value in every element", fill_params, FP_B, fill_plan, fill_kernel,
                                fill_reference, NULL, NULL, NULL};
const dv_opdesc_t dv_op_arange = {"arange", "y[i] = --start + i --step (fp32 steps)", arange_params, FP_COUNT,
                                  fill_plan, fill_kernel, fill_reference, NULL, NULL, NULL};
