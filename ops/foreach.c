/* ops/foreach.c - the whole-tensor reductions of the foreach family (one launch per list member):
 *
 * lp_norm (aclnnForeachNorm): y = the p-norm of all the elements of x, one value: --p 1 the sum of |x|, 2
 * the square root of the sum of x^2, 0 the largest |x| (p = inf).
 * nonfinite_check (aclnnForeachNonFiniteCheckAndUnscale): y = 1 if an element of x is inf or NaN, else
 * found (the flag so far, fp32, kept as it is: CANN and PyTorch leave clearing it to the caller).
 *
 * lp_norm as the reduced losses (ops/loss.c): one block walks the whole tensor in flat tiles of --tile-elems
 * (MTE2 -> V, depth 2; fp16 cast up, the arithmetic in fp32), each tile's |x| (vabs) or x^2 (vmul)
 * added (vadd; max: vmax) into an fp32 tile of partials, the last tile's under a mask of its elements;
 * the partials folded pairwise to 64 lanes, then vcadd (max: vcmax) to one value, vsqrt for p = 2, cast
 * to the dtype and written as one 32-B block into the output's padding.  One block is dvsim's choice
 * (no cross-core reduction yet): a large member is slower here than in CANN's kernel, which splits
 * members over the cores and combines the partial sums in a second pass. */
#include "../kernel/kapi_emit.h" /* dvk_<mnemonic> write into the stream (before dv/kapi.h) */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/ops.h"

enum { NP_SHAPE, NP_DTYPE, NP_P, NP_TILE, NP_COUNT };
static const dv_oparam_spec_t np_params[NP_COUNT] = {
    [NP_SHAPE] = {"shape", DV_OPT_SHAPE, "1048576", 1, 1u << 30, 0, "tensor dimensions"},
    [NP_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp32", 0, 0, DT_F16 | DT_F32, "element type (arithmetic in fp32)"},
    [NP_P] = {"p", DV_OPT_INT, "2", 0, 2, 0, "the order: 1 sum of |x|, 2 sqrt of the sum of x^2, 0 max |x| (inf)"},
    [NP_TILE] = {"tile-elems", DV_OPT_INT, "4096", 64, 8192, 0, "elements per tile (a multiple of 64, a power of 2)"},
};

typedef struct np_tiling {
    uint64_t elems, tile;
    uint32_t dt, p;
} np_tiling_t;

enum { NP_REP = 256, NP_LANES = 64 };

typedef void (*np_vbin_t)(dv_k_t *, uint64_t, uint64_t, uint64_t, dv_dtype_t, int64_t, int64_t, int64_t, int64_t,
                          int64_t, int64_t, int64_t);

/* d = op(a, b) over e fp32 elements (whole repeats of 64; the last masked). */
static void np_bin(dv_k_t *k, np_vbin_t op, uint64_t d, uint64_t a, uint64_t b, uint64_t e)
{
    const uint64_t full = e / NP_LANES, rem = e % NP_LANES;
    if (full)
        op(k, d, a, b, DV_DT_F32, (int64_t)full, 1, 1, 1, 8, 8, 8); /* tiles are at most 128 repeats */
    if (rem) {
        dvk_mask_first(k, DV_DT_F32, (uint32_t)rem);
        op(k, d + full * NP_REP, a + full * NP_REP, b + full * NP_REP, DV_DT_F32, 1, 1, 1, 1, 8, 8, 8);
        dvk_mask_all(k);
    }
}

static void np_kernel(dv_k_t *k, const void *params)
{
    const np_tiling_t *t = params;
    const dv_dtype_t dt = (dv_dtype_t)t->dt;
    const unsigned size = dv_dtype_size(dt);
    if (dvk_block_idx(k) != 0)
        return;
    const uint64_t T = t->tile;
    const int64_t rep = (int64_t)(T / NP_LANES);
    const np_vbin_t acc_op = t->p == 0 ? dvk_vmax : dvk_vadd;
    dv_que_t xq, zq;
    dvk_que_init(k, &xq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 2, T * size);
    dvk_que_init(k, &zq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 1, NP_REP);
    const uint64_t x32 = dvk_alloc(k, DV_SPACE_UB, T * 4), l = dvk_alloc(k, DV_SPACE_UB, T * 4);
    const uint64_t acc = dvk_alloc(k, DV_SPACE_UB, T * 4), w = dvk_alloc(k, DV_SPACE_UB, NP_REP);
    dvk_vdup(k, acc, DV_DT_F32, 0.0, rep, 1, 8); /* every term is >= 0: 0 is the identity of max too */
    for (uint64_t off = 0; off < t->elems; off += T) {
        const uint64_t n = dv_min_u64(T, t->elems - off);
        const uint64_t bx = dvk_que_alloc(k, &xq);
        dvk_copy_gm_to_ubuf(k, bx, dvk_gm(k, 0, off * size), 1, (int64_t)dv_ceil_div(n * size, 32), 0, 0);
        dvk_que_enque(k, &xq, bx);
        const uint64_t x = dvk_que_deque(k, &xq);
        uint64_t xs = x;
        if (size == 2) {
            dvk_vconv(k, x32, x, DV_DT_F32, DV_DT_F16, DV_ROUND_R, rep, 1, 1, 8, 4);
            xs = x32;
            dvk_pipe_barrier(k, DV_PIPE_V);
        }
        if (t->p == 2)
            dvk_vmul(k, l, xs, xs, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        else
            dvk_vabs(k, l, xs, DV_DT_F32, rep, 1, 1, 8, 8);
        dvk_pipe_barrier(k, DV_PIPE_V);
        dvk_que_free(k, &xq, x);
        np_bin(k, acc_op, acc, acc, l, n); /* the tile's n terms into the partials */
        dvk_pipe_barrier(k, DV_PIPE_V);
    }
    for (uint64_t e = T; e > NP_LANES; e /= 2) {
        np_bin(k, acc_op, acc, acc, acc + e / 2 * 4, e / 2);
        dvk_pipe_barrier(k, DV_PIPE_V);
    }
    if (t->p == 0)
        dvk_vcmax(k, w, acc, DV_DT_F32, 1, 1, 1, 8, 0);
    else
        dvk_vcadd(k, w, acc, DV_DT_F32, 1, 1, 1, 8, 0);
    dvk_pipe_barrier(k, DV_PIPE_V);
    dvk_mask_first(k, DV_DT_F32, 8);
    if (t->p == 2) {
        dvk_vsqrt(k, w, w, DV_DT_F32, 1, 1, 1, 8, 8);
        dvk_pipe_barrier(k, DV_PIPE_V);
    }
    const uint64_t z = dvk_que_alloc(k, &zq);
    if (size == 2)
        dvk_vconv(k, z, w, DV_DT_F16, DV_DT_F32, DV_ROUND_R, 1, 1, 1, 4, 8);
    else
        dvk_vadds(k, z, w, DV_DT_F32, 0.0, 1, 1, 1, 8, 8);
    dvk_mask_all(k);
    dvk_que_enque(k, &zq, z);
    const uint64_t bz = dvk_que_deque(k, &zq);
    dvk_copy_ubuf_to_gm(k, dvk_gm(k, 1, 0), bz, 1, 1, 0, 0);
    dvk_que_free(k, &zq, bz);
}

static int np_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                   dv_error_t *err)
{
    const dv_dtype_t dt = v->v[NP_DTYPE].dt;
    const unsigned size = dv_dtype_size(dt);
    const uint64_t elems = dv_shape_elems(&v->v[NP_SHAPE].shape);
    const int hbm_rc = dv_ops_check_hbm(cfg, elems, size, err);
    if (hbm_rc != DV_OK)
        return hbm_rc;
    np_tiling_t t = {.elems = elems, .tile = (uint64_t)v->v[NP_TILE].i, .dt = (uint32_t)dt,
                     .p = (uint32_t)v->v[NP_P].i};
    if (t.tile % NP_LANES || (t.tile & (t.tile - 1)))
        return dv_ops_param_error(err, "tile-elems", "%llu is not a multiple of 64 and a power of two (the partials "
                                  "fold in halves)", (unsigned long long)t.tile);
    const uint64_t ub = 2 * t.tile * size + NP_REP + 3 * t.tile * 4 + NP_REP;
    if (ub > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "tile-elems", "%llu elements need %llu bytes of UB, core.ub_size_bytes is %llu",
                                  (unsigned long long)t.tile, (unsigned long long)ub,
                                  (unsigned long long)cfg->ub_size_bytes);
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = 1;
    plan->info.subs = 1;
    int rc;
    if ((rc = dv_ops_add_arg(plan, "x", dt, elems, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "y", dt, 1, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 2 * elems;
    plan->bytes = elems * size + size;
    /* the sum of n fp32 terms: its rounding error grows with n */
    plan->tol_scale = t.p ? (double)dv_max_u64(1, elems / 256) : 1.0;
    return DV_OK;
}

static int np_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    np_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t dt = (dv_dtype_t)t.dt;
    double s = 0;
    for (uint64_t i = 0; i < t.elems; i++) {
        const double a = fabs(dv_ops_load(in[0], dt, i));
        s = t.p == 0 ? fmax(s, a) : t.p == 1 ? s + a : s + a * a;
    }
    dv_ops_store(expect[1], dt, 0, t.p == 2 ? sqrt(s) : s);
    return DV_OK;
}

/* ---------------------------------------------------------------- nonfinite_check
 * One block, the tiles of lp_norm: the partials are sums of x - x (vsub: 0 for a finite element, NaN for
 * inf and NaN; vadd keeps a NaN), folded and vcadd'ed to one value s; vcmps s == 0 gives one mask bit,
 * vsel picks found (loaded by MTE2; bit set) or 1 (clear, from a constant repeat) into y. */
enum { NF_SHAPE, NF_DTYPE, NF_TILE, NF_COUNT };
static const dv_oparam_spec_t nf_params[NF_COUNT] = {
    [NF_SHAPE] = {"shape", DV_OPT_SHAPE, "1048576", 1, 1u << 30, 0, "tensor dimensions"},
    [NF_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp32", 0, 0, DT_F16 | DT_F32, "x (arithmetic in fp32; found and y fp32)"},
    [NF_TILE] = {"tile-elems", DV_OPT_INT, "4096", 64, 8192, 0, "elements per tile (a multiple of 64, a power of 2)"},
};

static void nf_kernel(dv_k_t *k, const void *params)
{
    const np_tiling_t *t = params;
    const dv_dtype_t dt = (dv_dtype_t)t->dt;
    const unsigned size = dv_dtype_size(dt);
    if (dvk_block_idx(k) != 0)
        return;
    const uint64_t T = t->tile;
    const int64_t rep = (int64_t)(T / NP_LANES);
    dv_que_t xq, fq, zq;
    dvk_que_init(k, &xq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 2, T * size);
    dvk_que_init(k, &fq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 1, NP_REP);
    dvk_que_init(k, &zq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 1, NP_REP);
    const uint64_t x32 = dvk_alloc(k, DV_SPACE_UB, T * 4), d = dvk_alloc(k, DV_SPACE_UB, T * 4);
    const uint64_t acc = dvk_alloc(k, DV_SPACE_UB, T * 4), w = dvk_alloc(k, DV_SPACE_UB, NP_REP);
    const uint64_t mask = dvk_alloc(k, DV_SPACE_UB, NP_REP), ones = dvk_alloc(k, DV_SPACE_UB, NP_REP);
    dvk_vdup(k, acc, DV_DT_F32, 0.0, rep, 1, 8);
    dvk_vdup(k, ones, DV_DT_F32, 1.0, 1, 1, 8);
    const uint64_t bf = dvk_que_alloc(k, &fq);
    dvk_copy_gm_to_ubuf(k, bf, dvk_gm(k, 1, 0), 1, 1, 0, 0);
    dvk_que_enque(k, &fq, bf);
    for (uint64_t off = 0; off < t->elems; off += T) {
        const uint64_t n = dv_min_u64(T, t->elems - off);
        const uint64_t bx = dvk_que_alloc(k, &xq);
        dvk_copy_gm_to_ubuf(k, bx, dvk_gm(k, 0, off * size), 1, (int64_t)dv_ceil_div(n * size, 32), 0, 0);
        dvk_que_enque(k, &xq, bx);
        const uint64_t x = dvk_que_deque(k, &xq);
        uint64_t xs = x;
        if (size == 2) {
            dvk_vconv(k, x32, x, DV_DT_F32, DV_DT_F16, DV_ROUND_R, rep, 1, 1, 8, 4);
            xs = x32;
            dvk_pipe_barrier(k, DV_PIPE_V);
        }
        dvk_vsub(k, d, xs, xs, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
        dvk_pipe_barrier(k, DV_PIPE_V);
        dvk_que_free(k, &xq, x);
        np_bin(k, dvk_vadd, acc, acc, d, n);
        dvk_pipe_barrier(k, DV_PIPE_V);
    }
    for (uint64_t e = T; e > NP_LANES; e /= 2) {
        np_bin(k, dvk_vadd, acc, acc, acc + e / 2 * 4, e / 2);
        dvk_pipe_barrier(k, DV_PIPE_V);
    }
    dvk_vcadd(k, w, acc, DV_DT_F32, 1, 1, 1, 8, 0);
    dvk_pipe_barrier(k, DV_PIPE_V);
    dvk_vcmps(k, mask, w, DV_DT_F32, 0.0, DV_CMP_EQ, 1, 1, 8); /* bit 0: every element finite */
    dvk_pipe_barrier(k, DV_PIPE_V);
    const uint64_t f = dvk_que_deque(k, &fq), z = dvk_que_alloc(k, &zq);
    dvk_mask_first(k, DV_DT_F32, 8);
    dvk_vsel(k, z, f, ones, mask, DV_DT_F32, 1, 1, 1, 1, 8, 0, 0, 1);
    dvk_mask_all(k);
    dvk_que_free(k, &fq, f);
    dvk_que_enque(k, &zq, z);
    const uint64_t bz = dvk_que_deque(k, &zq);
    dvk_copy_ubuf_to_gm(k, dvk_gm(k, 2, 0), bz, 1, 1, 0, 0);
    dvk_que_free(k, &zq, bz);
}

static int nf_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                   dv_error_t *err)
{
    const dv_dtype_t dt = v->v[NF_DTYPE].dt;
    const unsigned size = dv_dtype_size(dt);
    const uint64_t elems = dv_shape_elems(&v->v[NF_SHAPE].shape);
    const int hbm_rc = dv_ops_check_hbm(cfg, elems, size, err);
    if (hbm_rc != DV_OK)
        return hbm_rc;
    np_tiling_t t = {.elems = elems, .tile = (uint64_t)v->v[NF_TILE].i, .dt = (uint32_t)dt};
    if (t.tile % NP_LANES || (t.tile & (t.tile - 1)))
        return dv_ops_param_error(err, "tile-elems", "%llu is not a multiple of 64 and a power of two (the partials "
                                  "fold in halves)", (unsigned long long)t.tile);
    const uint64_t ub = 2 * t.tile * size + 2 * NP_REP + 3 * t.tile * 4 + 3 * NP_REP;
    if (ub > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "tile-elems", "%llu elements need %llu bytes of UB, core.ub_size_bytes is %llu",
                                  (unsigned long long)t.tile, (unsigned long long)ub,
                                  (unsigned long long)cfg->ub_size_bytes);
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = 1;
    plan->info.subs = 1;
    int rc;
    if ((rc = dv_ops_add_arg(plan, "x", dt, elems, DV_ARG_IN, 0, 0)) ||
        (rc = dv_ops_add_arg(plan, "found", DV_DT_F32, 1, DV_ARG_IN, -1, 1)) ||
        (rc = dv_ops_add_arg(plan, "y", DV_DT_F32, 1, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 2 * elems;
    plan->bytes = elems * size + 8;
    plan->tol_scale = 1.0;
    return DV_OK;
}

static int nf_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    np_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    bool bad = false;
    for (uint64_t i = 0; i < t.elems && !bad; i++)
        bad = !isfinite(dv_ops_load(in[0], (dv_dtype_t)t.dt, i));
    dv_ops_store(expect[2], DV_DT_F32, 0, bad ? 1.0 : dv_ops_load(in[1], DV_DT_F32, 0));
    return DV_OK;
}

const dv_opdesc_t dv_op_nonfinite_check = {"nonfinite_check", "y = 1 if x has an inf or NaN, else found",
                                           nf_params, NF_COUNT, nf_plan, nf_kernel, nf_reference, NULL, NULL, NULL};

const dv_opdesc_t dv_op_lp_norm = {"lp_norm", "y = the p-norm of x: --p 1 sum |x|, 2 sqrt(sum x^2), 0 max |x|",
                                   np_params, NP_COUNT, np_plan, np_kernel, np_reference, NULL, NULL, NULL};
