/* ops/cast.c - cast: y = x converted from --dtype to --to, element by element, by a chain of vconv
 * steps over the ISA's conversion pairs (isa/isa.def, DV_CONV).
 *
 * Rounding, as CANN's Cast does it for torch: float -> integer truncates toward zero (vconv mode Z);
 * float -> narrower float and int32 -> float round to nearest even (mode R); widening is exact.
 * Integers out of the target's range saturate (vconv's behaviour).  Pairs without one vconv go
 * through fp32 or fp16, on paths that round once:
 *   fp32 -> int8 / uint8:   f32 -> f32 (Z, integral) -> f16 (exact below 2048) -> s8 / u8
 *   int8 / uint8 -> fp32, int32, bf16:  -> f16 (exact) -> f32 (exact) [-> s32 / bf16]
 *   fp16 -> bf16:          f16 -> f32 -> bf16 (R)
 *   int32 -> fp16 / bf16:  s32 -> f32 (R; exact below 2^24) -> f16 / bf16 (R)
 *   bf16 -> anything but fp32 and int32: through f32
 * Narrowing between integer types (int32 -> int8 / uint8, int8 <-> uint8) wraps in torch and has no
 * vconv: the plan rejects it.
 *
 * The flattened tensor is cut in tiles of a multiple of 256 elements (every buffer holds whole 32-B
 * blocks in every dtype of the chain); blocks take an even share of the tiles; MTE2 -> V -> MTE3
 * through two-buffer queues, the intermediate steps in two UB work buffers.  The last tile's tail
 * runs into the arguments' 32-B padding, as the element-wise operators do.
 *
 * The reference converts each element through double: trunc for an integer target, then the
 * target's store (round to nearest even, integers saturate). */
#include "../kernel/kapi_emit.h" /* dvk_<mnemonic> write into the stream (before dv/kapi.h) */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/ops.h"

enum { BLK = 32, REP = 256, TILE_QUANTUM = 256, MAX_STEPS = 4 };

#define CAST_DTYPES (DT_F16 | DT_BF16 | DT_F32 | DT_S8 | DT_U8 | DT_S32)

enum { CA_SHAPE, CA_DTYPE, CA_TO, CA_CORES, CA_COUNT };

static const dv_oparam_spec_t cast_params[CA_COUNT] = {
    [CA_SHAPE] = {"shape", DV_OPT_SHAPE, "65536", 1, INT64_C(1) << 40, 0, "shape of x and y (flattened)"},
    [CA_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp32", 0, 0, CAST_DTYPES, "element type of x"},
    [CA_TO] = {"to", DV_OPT_DTYPE, "fp16", 0, 0, CAST_DTYPES, "element type of y"},
    [CA_CORES] = {"cores", DV_OPT_INT, "auto", 1, 65535, 0, "blocks (auto: every vector core); at most one per tile"},
};

typedef struct cast_step {
    uint32_t src, dst, round;
} cast_step_t;

typedef struct cast_tiling {
    uint32_t from, to, nsteps;
    cast_step_t step[MAX_STEPS];
    uint64_t n, tile, tiles;
} cast_tiling_t;

static bool is_float(dv_dtype_t t)
{
    return t == DV_DT_F16 || t == DV_DT_BF16 || t == DV_DT_F32;
}

/* The vconv chain of a pair, 0 steps when there is none. */
static uint32_t cast_path(dv_dtype_t from, dv_dtype_t to, cast_step_t *s)
{
    int a = (int)from;
    const int b = (int)to;
    enum { F16 = DV_DT_F16, F32 = DV_DT_F32, B16 = DV_DT_BF16, S32 = DV_DT_S32, S8 = DV_DT_S8, U8 = DV_DT_U8 };
    enum { R = DV_ROUND_R, Z = DV_ROUND_Z };
    uint32_t n = 0;
#define STEP(x, y, r) (s[n++] = (cast_step_t){(uint32_t)(x), (uint32_t)(y), (uint32_t)(r)})
    const bool small_int = a == S8 || a == U8;
    if (small_int) { /* -> f16 exactly, then on from fp16 */
        STEP(a, F16, R);
        if (b == F16)
            return n;
        if (b == S8 || b == U8)
            return 0;
        STEP(F16, F32, R);
        if (b == S32)
            STEP(F32, S32, Z);
        else if (b == B16)
            STEP(F32, B16, R);
        return n;
    }
    if (a == B16 && b != F32 && b != S32) {
        STEP(B16, F32, R);
        a = F32;
    }
    switch (a * 16 + b) {
    case F16 * 16 + F32: STEP(F16, F32, R); break;
    case F16 * 16 + B16: STEP(F16, F32, R); STEP(F32, B16, R); break;
    case F16 * 16 + S32: STEP(F16, S32, Z); break;
    case F16 * 16 + S8: STEP(F16, S8, Z); break;
    case F16 * 16 + U8: STEP(F16, U8, Z); break;
    case F32 * 16 + F16: STEP(F32, F16, R); break;
    case F32 * 16 + B16: STEP(F32, B16, R); break;
    case F32 * 16 + S32: STEP(F32, S32, Z); break;
    case F32 * 16 + S8: STEP(F32, F32, Z); STEP(F32, F16, R); STEP(F16, S8, Z); break;
    case F32 * 16 + U8: STEP(F32, F32, Z); STEP(F32, F16, R); STEP(F16, U8, Z); break;
    case B16 * 16 + F32: STEP(B16, F32, R); break;
    case B16 * 16 + S32: STEP(B16, S32, Z); break;
    case S32 * 16 + F32: STEP(S32, F32, R); break;
    case S32 * 16 + F16: STEP(S32, F32, R); STEP(F32, F16, R); break;
    case S32 * 16 + B16: STEP(S32, F32, R); STEP(F32, B16, R); break;
    default: return 0;
    }
#undef STEP
    return n;
}

static int cast_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                     dv_error_t *err)
{
    const dv_dtype_t from = v->v[CA_DTYPE].dt, to = v->v[CA_TO].dt;
    cast_tiling_t t;
    memset(&t, 0, sizeof t);
    t.from = (uint32_t)from;
    t.to = (uint32_t)to;
    if (from == to)
        return dv_ops_param_error(err, "to", "%s is --dtype: nothing to convert", dv_ops_dtype_name(to));
    if (!(t.nsteps = cast_path(from, to, t.step)))
        return dv_ops_param_error(err, "to", "%s -> %s narrows one integer type to another, which wraps (torch) and "
                                  "has no vconv: not supported", dv_ops_dtype_name(from), dv_ops_dtype_name(to));
    t.n = dv_shape_elems(&v->v[CA_SHAPE].shape);
    uint64_t bytes;
    if (t.n == 0 || __builtin_mul_overflow(t.n, (uint64_t)4, &bytes) || bytes > cfg->hbm_capacity_bytes)
        return dv_ops_param_error(err, "shape", "the tensors have more bytes than hbm.capacity_bytes (%llu)",
                                  (unsigned long long)cfg->hbm_capacity_bytes);
    /* UB: two input and two output buffers, two fp32-wide work buffers (a chain of 2+ steps) */
    const uint64_t ssz = dv_dtype_size(from), dsz = dv_dtype_size(to), align = cfg->ub_align_bytes ? cfg->ub_align_bytes : 1;
    const uint64_t per = 2 * ssz + 2 * dsz + (t.nsteps > 1 ? 2 * 4 : 0);
    uint64_t tile = (cfg->ub_size_bytes - 6 * align) / per / TILE_QUANTUM * TILE_QUANTUM;
    if (tile == 0)
        return dv_ops_param_error(err, "shape", "core.ub_size_bytes %llu holds no tile of %d elements",
                                  (unsigned long long)cfg->ub_size_bytes, TILE_QUANTUM);
    const uint64_t cores = v->v[CA_CORES].i ? (uint64_t)v->v[CA_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    /* at least one tile per core when the tensor is large enough */
    tile = dv_min_u64(tile, dv_max_u64(TILE_QUANTUM, dv_round_up(dv_ceil_div(t.n, cores), TILE_QUANTUM)));
    t.tile = tile;
    t.tiles = dv_ceil_div(t.n, tile);
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_min_u64(cores, t.tiles);
    plan->info.subs = 1;
    /* inputs inside every target's range (so the check compares conversions, not saturation) */
    double lo = -100, hi = 100;
    if (from == DV_DT_U8 || to == DV_DT_U8)
        lo = 0, hi = 200;
    int rc;
    if ((rc = dv_ops_add_arg(plan, "x", from, t.n, DV_ARG_IN, lo, hi)) != DV_OK ||
        (rc = dv_ops_add_arg(plan, "y", to, t.n, DV_ARG_OUT, 0, 0)) != DV_OK)
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 0;
    plan->bytes = t.n * (ssz + dsz);
    plan->tol_scale = 1.0;
    char path[96] = "";
    size_t m = 0;
    for (uint32_t i = 0; i < t.nsteps; i++)
        m += (size_t)snprintf(path + m, m < sizeof path ? sizeof path - m : 0, "%s%s", i ? "-" : "",
                              dv_ops_dtype_name((dv_dtype_t)t.step[i].src));
    snprintf(path + m, m < sizeof path ? sizeof path - m : 0, "-%s", dv_ops_dtype_name(to));
    dv_ops_tiling_row(plan, "path", NULL, "%s", path);
    dv_ops_tiling_row(plan, "tile", NULL, "%llu", (unsigned long long)t.tile);
    return DV_OK;
}

/* One vconv step over n elements (whole repeats): a repeat is 256 B of the wider side. */
static void conv_step(dv_k_t *k, const cast_step_t *s, uint64_t dst, uint64_t src, uint64_t n)
{
    const uint64_t ss = dv_dtype_size((dv_dtype_t)s->src), ds = dv_dtype_size((dv_dtype_t)s->dst);
    const uint64_t epr = REP / (ss > ds ? ss : ds), reps = dv_ceil_div(n, epr);
    const uint64_t max_rep = dv_ops_field_max(DV_FORM_VCONV, DV_FLD(VCONV, repeat));
    for (uint64_t r = 0; r < reps;) {
        const uint64_t c = dv_min_u64(max_rep, reps - r);
        dvk_vconv(k, dst + r * epr * ds, src + r * epr * ss, (dv_dtype_t)s->dst, (dv_dtype_t)s->src, (int)s->round,
                  (int64_t)c, 1, 1, (int64_t)(epr * ds / BLK), (int64_t)(epr * ss / BLK));
        r += c;
    }
}

static void cast_kernel(dv_k_t *k, const void *params)
{
    const cast_tiling_t *t = params;
    const uint64_t b = dvk_block_idx(k), nb = dvk_block_num(k), base = t->tiles / nb, rem = t->tiles % nb;
    const uint64_t first = b * base + dv_min_u64(b, rem), end = first + base + (b < rem);
    if (first == end)
        return;
    const uint64_t ssz = dv_dtype_size((dv_dtype_t)t->from), dsz = dv_dtype_size((dv_dtype_t)t->to);
    dv_que_t inq, outq;
    dvk_que_init(k, &inq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 2, t->tile * ssz);
    dvk_que_init(k, &outq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 2, t->tile * dsz);
    uint64_t work[2] = {0, 0};
    if (t->nsteps > 1) {
        work[0] = dvk_alloc(k, DV_SPACE_UB, t->tile * 4);
        work[1] = dvk_alloc(k, DV_SPACE_UB, t->tile * 4);
    }
    for (uint64_t i = first; i < end; i++) {
        const uint64_t e0 = i * t->tile, n = dv_min_u64(t->tile, t->n - e0);
        const uint64_t nin = dv_ceil_div(n * ssz, BLK), nout = dv_ceil_div(n * dsz, BLK);
        uint64_t in = dvk_que_alloc(k, &inq);
        dvk_copy_gm_to_ubuf(k, in, dvk_gm(k, 0, e0 * ssz), 1, (int64_t)nin, 0, 0);
        dvk_que_enque(k, &inq, in);
        in = dvk_que_deque(k, &inq);
        uint64_t out = dvk_que_alloc(k, &outq);
        const uint64_t nv = dv_round_up(n, TILE_QUANTUM);
        uint64_t src = in;
        for (uint32_t s = 0; s < t->nsteps; s++) {
            const uint64_t dst = s + 1 == t->nsteps ? out : work[s % 2];
            if (s > 0)
                dvk_pipe_barrier(k, DV_PIPE_V);
            conv_step(k, &t->step[s], dst, src, nv);
            src = dst;
        }
        dvk_que_free(k, &inq, in);
        dvk_que_enque(k, &outq, out);
        out = dvk_que_deque(k, &outq);
        dvk_copy_ubuf_to_gm(k, dvk_gm(k, 1, e0 * dsz), out, 1, (int64_t)nout, 0, 0);
        dvk_que_free(k, &outq, out);
        if (t->nsteps > 2)
            dvk_pipe_barrier(k, DV_PIPE_V); /* the next tile's first steps reuse the work buffers */
    }
}

static int cast_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    cast_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t to = (dv_dtype_t)t.to;
    for (uint64_t i = 0; i < t.n; i++) {
        double v = dv_ops_load(in[0], (dv_dtype_t)t.from, i);
        if (!is_float(to))
            v = trunc(v);
        dv_ops_store(expect[1], to, i, v);
    }
    return DV_OK;
}

/* cast (ops/ops.def row). */
const dv_opdesc_t dv_op_cast = {
    .name = "cast",
    .desc = "y = x converted from --dtype to --to (vconv: floats to integers truncated, narrower floats rounded "
            "to nearest even, through fp32 / fp16 when no one vconv does it)",
    .params = cast_params, .nparams = CA_COUNT, .plan = cast_plan, .kernel = cast_kernel,
    .reference = cast_reference};
