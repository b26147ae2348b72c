/* ops/random.c - random numbers on the vector unit: uniform, random (integers), bernoulli, normal
 * (aclnnInplaceUniform, aclnnInplaceRandom, aclnnBernoulli, aclnnInplaceNormal, ...).
 *
 * Counter-based, so every element is a function of (--seed, --offset, its index) and blocks need no
 * state: element i gets the 32-bit counter c = i + key (key = the low 32 bits of seed * 0x9E3779B9 +
 * offset), hashed by xor-shift-multiply rounds (x ^= x >> 16; x *= 0x7FEB352D; x ^= x >> 15;
 * x *= 0x846CA68B; x ^= x >> 16), and u = (x >> 8) / 2^24, a uniform number in [0, 1) with 24
 * bits.  This is dvsim's generator, not CANN's Philox: the values differ from the hardware's (both
 * are uniform); the instruction mix is the point: per 64 elements the hash is vshr (u32), the xor as
 * (a | b) & ~(a & b) on 16-bit lanes (vor, vand, vnot, vand: the ISA has no vxor), vmuls (s32,
 * wrapping), then vshr, vconv s32 -> f32 and vmuls by 2^-24.  Then, in fp32:
 *   uniform    y = low + (high - low) * u                                   (vmuls, vadds)
 *   random     y = floor(low + (high - low) * u), integers in [low, high)   (vmuls, vadds, vconv floor)
 *   bernoulli  y = ceil(p - u): 1 with probability p, else 0                (vmuls, vadds, vconv ceil)
 *   normal     y = mean + std * sqrt(-2 ln(1 - u1)) * cos(2 pi u2 - pi)     (Box-Muller; u2 from a
 *              second key; cos as its Taylor polynomial to x^18 in x^2 by Horner, error < 4e-9 on
 *              [-pi, pi])
 * and cast to the dtype.  Block b takes whole 512-B units of the tensor (as the element-wise
 * operators), tiles of --tile-elems through the out queue (V -> MTE3).  A lane-index vector
 * 0 .. tile-1 is built once per block: 8 scalar stores, then doublings (vadds).  The reference
 * computes the same hash; uniform, random and bernoulli in the same fp32 steps (exact), normal in
 * double (the default tolerance). */
#include "../kernel/kapi_emit.h" /* dvk_<mnemonic> write into the stream (before dv/kapi.h) */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/ops.h"

enum { RN_UNIFORM, RN_RANDOM, RN_BERNOULLI, RN_NORMAL, RN_KINDS };
static const char *const rn_names[RN_KINDS] = {"uniform", "random", "bernoulli", "normal"};

enum { RP_SHAPE, RP_DTYPE, RP_SEED, RP_OFFSET, RP_CORES, RP_TILE, RP_A, RP_B, RP_COUNT };
#define RN_COMMON                                                                                               \
    [RP_SHAPE] = {"shape", DV_OPT_SHAPE, "1048576", 1, 1u << 30, 0, "tensor dimensions"},                         \
    [RP_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp32", 0, 0, DT_F16 | DT_F32, "element type (arithmetic in fp32)"},     \
    [RP_SEED] = {"seed", DV_OPT_INT, "0", 0, 4294967295.0, 0, "the generator's seed (32 bits)"},                   \
    [RP_OFFSET] = {"offset", DV_OPT_INT, "0", 0, 4294967295.0, 0, "added to every element's counter (32 bits)"}, \
    [RP_CORES] = {"cores", DV_OPT_INT, "auto", 1, 1024, 0, "blocks (auto: the chip's vector cores)"},           \
    [RP_TILE] = {"tile-elems", DV_OPT_INT, "4096", 64, 16384, 0, "elements per tile (a multiple of 64)"}
static const dv_oparam_spec_t uniform_params[RP_COUNT] = {
    RN_COMMON, [RP_A] = {"low", DV_OPT_FLOAT, "0", -3.4e38, 3.4e38, 0, "the lowest value"},
    [RP_B] = {"high", DV_OPT_FLOAT, "1", -3.4e38, 3.4e38, 0, "the values stay below it"}};
static const dv_oparam_spec_t random_params[RP_COUNT] = {
    RN_COMMON, [RP_A] = {"low", DV_OPT_FLOAT, "0", -16777216, 16777216, 0, "the lowest integer"},
    [RP_B] = {"high", DV_OPT_FLOAT, "2", -16777216, 16777216, 0, "the integers stay below it"}};
static const dv_oparam_spec_t bernoulli_params[RP_B] = {
    RN_COMMON, [RP_A] = {"p", DV_OPT_FLOAT, "0.5", 0, 1, 0, "the probability of a 1"}};
static const dv_oparam_spec_t normal_params[RP_COUNT] = {
    RN_COMMON, [RP_A] = {"mean", DV_OPT_FLOAT, "0", -3.4e38, 3.4e38, 0, "the mean"},
    [RP_B] = {"std", DV_OPT_FLOAT, "1", 0, 3.4e38, 0, "the standard deviation"}};

typedef struct rn_tiling {
    uint64_t elems, unit, tile;
    double a, b;
    uint32_t kind, dt, key, key2;
} rn_tiling_t;

enum { RN_REP = 256, RN_LANES = 64 };
#define RN_PI 3.14159265358979323846
static const uint32_t RN_M1 = 0x7FEB352Du, RN_M2 = 0x846CA68Bu, RN_GOLD = 0x9E3779B9u, RN_KEY2 = 0x5BD1E995u;

static uint32_t rn_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= RN_M1;
    x ^= x >> 15;
    x *= RN_M2;
    x ^= x >> 16;
    return x;
}

/* A 32-bit pattern as the int32 scalar vadds / vmuls take. */
static double rn_s32(uint32_t v) { return (double)(int32_t)v; }

/* dst = src0 ^ src1 over n 32-bit elements: (a | b) & ~(a & b) on 16-bit lanes, t a scratch. */
static void rn_xor(dv_k_t *k, uint64_t dst, uint64_t a, uint64_t b, uint64_t t, uint64_t n)
{
    const int64_t rep = (int64_t)(n / RN_LANES); /* 64 u32 = 256 B = one repeat */
    dvk_vand(k, t, a, b, DV_DT_U16, rep, 1, 1, 1, 8, 8, 8);
    dvk_vor(k, dst, a, b, DV_DT_U16, rep, 1, 1, 1, 8, 8, 8);
    dvk_pipe_barrier(k, DV_PIPE_V);
    dvk_vnot(k, t, t, DV_DT_U16, rep, 1, 1, 8, 8);
    dvk_pipe_barrier(k, DV_PIPE_V);
    dvk_vand(k, dst, dst, t, DV_DT_U16, rep, 1, 1, 1, 8, 8, 8);
}

/* x = hash(x) in place over n elements (t, s scratch). */
static void rn_hash_vec(dv_k_t *k, uint64_t x, uint64_t t, uint64_t s, uint64_t n)
{
    const int64_t rep = (int64_t)(n / RN_LANES);
    static const int shifts[3] = {16, 15, 16};
    for (int r = 0; r < 3; r++) {
        dvk_vshr(k, t, x, DV_DT_U32, (double)shifts[r], rep, 1, 1, 8, 8);
        dvk_pipe_barrier(k, DV_PIPE_V);
        rn_xor(k, x, x, t, s, n);
        if (r < 2) {
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vmuls(k, x, x, DV_DT_S32, rn_s32(r == 0 ? RN_M1 : RN_M2), rep, 1, 1, 8, 8);
        }
        dvk_pipe_barrier(k, DV_PIPE_V);
    }
}

/* f = u in [0, 1) from the counters iota + base (x, t, s scratch). */
static void rn_uniform_vec(dv_k_t *k, uint64_t f, uint64_t iota, uint32_t base, uint64_t x, uint64_t t, uint64_t s,
                           uint64_t n)
{
    const int64_t rep = (int64_t)(n / RN_LANES);
    dvk_vadds(k, x, iota, DV_DT_S32, rn_s32(base), rep, 1, 1, 8, 8);
    dvk_pipe_barrier(k, DV_PIPE_V);
    rn_hash_vec(k, x, t, s, n);
    dvk_vshr(k, t, x, DV_DT_U32, 8, rep, 1, 1, 8, 8);
    dvk_pipe_barrier(k, DV_PIPE_V);
    dvk_vconv(k, f, t, DV_DT_F32, DV_DT_S32, DV_ROUND_R, rep, 1, 1, 8, 8);
    dvk_pipe_barrier(k, DV_PIPE_V);
    dvk_vmuls(k, f, f, DV_DT_F32, 1.0 / 16777216.0, rep, 1, 1, 8, 8);
}

void dv_ops_iota_s32(dv_k_t *k, uint64_t ub, uint64_t n)
{
    for (uint32_t i = 0; i < 8 && i < n; i++) /* 0..7 by the scalar unit, then doubled */
        dvk_st_ub(k, ub + 4 * i, DV_DT_S32, i);
    for (uint64_t have = 8; have < n; have *= 2) {
        const uint64_t m = dv_min_u64(have, n - have);
        dvk_pipe_barrier(k, DV_PIPE_V); /* the previous doubling (or the stores, ordered by issue) */
        for (uint64_t r = 0; r < m; r += RN_LANES) {
            const uint64_t lanes = dv_min_u64(RN_LANES, m - r);
            if (lanes < RN_LANES)
                dvk_mask_first(k, DV_DT_S32, (uint32_t)lanes);
            dvk_vadds(k, ub + (have + r) * 4, ub + r * 4, DV_DT_S32, (double)have, 1, 1, 1, 8, 8);
            if (lanes < RN_LANES)
                dvk_mask_all(k);
        }
    }
    dvk_pipe_barrier(k, DV_PIPE_V);
}

/* cos(x) for x in [-pi, pi]: sum_{j<=9} (-1)^j x^(2j) / (2j)!, in x^2 by Horner. */
static double rn_cos_coef(int j)
{
    double c = 1;
    for (int i = 1; i <= 2 * j; i++)
        c /= i;
    return j % 2 ? -c : c;
}

static void rn_kernel(dv_k_t *k, const void *params)
{
    const rn_tiling_t *t = params;
    const dv_dtype_t dt = (dv_dtype_t)t->dt;
    const unsigned size = dv_dtype_size(dt);
    uint64_t first, last;
    dv_ops_block_span(k, t->elems, t->unit, &first, &last);
    if (first >= last)
        return;
    const uint64_t T = t->tile, bytes = T * 4;
    dv_que_t outq;
    dvk_que_init(k, &outq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 2, T * size);
    const uint64_t iota = dvk_alloc(k, DV_SPACE_UB, bytes), x = dvk_alloc(k, DV_SPACE_UB, bytes);
    const uint64_t tt = dvk_alloc(k, DV_SPACE_UB, bytes), s = dvk_alloc(k, DV_SPACE_UB, bytes);
    const uint64_t f = dvk_alloc(k, DV_SPACE_UB, bytes), f2 = t->kind == RN_NORMAL ? dvk_alloc(k, DV_SPACE_UB, bytes) : 0;
    dv_ops_iota_s32(k, iota, T);
    const int64_t rep = (int64_t)(T / RN_LANES);
    for (uint64_t off = first; off < last; off += T) {
        const uint64_t n = dv_min_u64(T, last - off);
        const uint64_t y = dvk_que_alloc(k, &outq), yf = size == 4 ? y : f;
        rn_uniform_vec(k, f, iota, t->key + (uint32_t)off, x, tt, s, T);
        dvk_pipe_barrier(k, DV_PIPE_V);
        switch (t->kind) {
        case RN_UNIFORM:
            dvk_vmuls(k, yf, f, DV_DT_F32, t->b - t->a, rep, 1, 1, 8, 8);
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vadds(k, yf, yf, DV_DT_F32, t->a, rep, 1, 1, 8, 8);
            break;
        case RN_RANDOM:
        case RN_BERNOULLI:
            if (t->kind == RN_RANDOM) {
                dvk_vmuls(k, f, f, DV_DT_F32, t->b - t->a, rep, 1, 1, 8, 8);
                dvk_pipe_barrier(k, DV_PIPE_V);
                dvk_vadds(k, f, f, DV_DT_F32, t->a, rep, 1, 1, 8, 8);
            } else {
                dvk_vmuls(k, f, f, DV_DT_F32, -1.0, rep, 1, 1, 8, 8);
                dvk_pipe_barrier(k, DV_PIPE_V);
                dvk_vadds(k, f, f, DV_DT_F32, t->a, rep, 1, 1, 8, 8);
            }
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vconv(k, x, f, DV_DT_S32, DV_DT_F32, t->kind == RN_RANDOM ? DV_ROUND_F : DV_ROUND_C, rep, 1, 1, 8, 8);
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vconv(k, yf, x, DV_DT_F32, DV_DT_S32, DV_ROUND_R, rep, 1, 1, 8, 8);
            break;
        default: { /* normal: f = u1, f2 = u2 */
            rn_uniform_vec(k, f2, iota, t->key2 + (uint32_t)off, x, tt, s, T);
            dvk_pipe_barrier(k, DV_PIPE_V);
            /* r = sqrt(-2 ln(1 - u1)) into f */
            dvk_vmuls(k, f, f, DV_DT_F32, -1.0, rep, 1, 1, 8, 8);
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vadds(k, f, f, DV_DT_F32, 1.0, rep, 1, 1, 8, 8);
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vln(k, f, f, DV_DT_F32, rep, 1, 1, 8, 8);
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vmuls(k, f, f, DV_DT_F32, -2.0, rep, 1, 1, 8, 8);
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vsqrt(k, f, f, DV_DT_F32, rep, 1, 1, 8, 8);
            /* theta = 2 pi u2 - pi into f2, its square into s (as f32), cos by Horner into tt */
            dvk_vmuls(k, f2, f2, DV_DT_F32, 2.0 * RN_PI, rep, 1, 1, 8, 8);
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vadds(k, f2, f2, DV_DT_F32, -RN_PI, rep, 1, 1, 8, 8);
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vmul(k, s, f2, f2, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vmuls(k, tt, s, DV_DT_F32, rn_cos_coef(9), rep, 1, 1, 8, 8);
            for (int j = 8; j >= 1; j--) {
                dvk_pipe_barrier(k, DV_PIPE_V);
                dvk_vadds(k, tt, tt, DV_DT_F32, rn_cos_coef(j), rep, 1, 1, 8, 8);
                dvk_pipe_barrier(k, DV_PIPE_V);
                dvk_vmul(k, tt, tt, s, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
            }
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vadds(k, tt, tt, DV_DT_F32, 1.0, rep, 1, 1, 8, 8);
            dvk_pipe_barrier(k, DV_PIPE_V);
            /* y = mean + std * r * cos */
            dvk_vmul(k, f, f, tt, DV_DT_F32, rep, 1, 1, 1, 8, 8, 8);
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vmuls(k, yf, f, DV_DT_F32, t->b, rep, 1, 1, 8, 8);
            dvk_pipe_barrier(k, DV_PIPE_V);
            dvk_vadds(k, yf, yf, DV_DT_F32, t->a, rep, 1, 1, 8, 8);
            break;
        }
        }
        if (size != 4) {
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

static int rn_kind_of(const dv_opdesc_t *op)
{
    for (int i = 0; i < RN_KINDS; i++)
        if (strcmp(op->name, rn_names[i]) == 0)
            return i;
    return -1;
}

static int rn_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                   dv_error_t *err)
{
    const int kind = rn_kind_of(op);
    if (kind < 0)
        return dv_error_set(err, DV_ERR_UNKNOWN, NULL, 0, 0, "%s: not a random operator", op->name);
    const dv_dtype_t dt = v->v[RP_DTYPE].dt;
    const unsigned size = dv_dtype_size(dt);
    const uint64_t elems = dv_shape_elems(&v->v[RP_SHAPE].shape);
    const int hbm_rc = dv_ops_check_hbm(cfg, elems, size, err);
    if (hbm_rc != DV_OK)
        return hbm_rc;
    rn_tiling_t t = {.elems = elems, .unit = 512 / size, .tile = (uint64_t)v->v[RP_TILE].i, .a = v->v[RP_A].f,
                     .b = op->nparams > RP_B ? v->v[RP_B].f : 0, .kind = (uint32_t)kind, .dt = (uint32_t)dt};
    if (t.tile % RN_LANES)
        return dv_ops_param_error(err, "tile-elems", "%llu is not a multiple of 64 (whole 256-B repeats of u32)",
                                  (unsigned long long)t.tile);
    if ((kind == RN_UNIFORM || kind == RN_RANDOM) && !(t.b > t.a))
        return dv_ops_param_error(err, "high", "%g is not above --low %g", t.b, t.a);
    if (kind == RN_RANDOM && (t.a != floor(t.a) || t.b != floor(t.b)))
        return dv_ops_param_error(err, "low", "random draws integers: --low %g and --high %g must be integers", t.a, t.b);
    const uint64_t ub = 6 * t.tile * 4 + 2 * t.tile * size;
    if (ub > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "tile-elems", "%llu elements need %llu bytes of UB, core.ub_size_bytes is %llu",
                                  (unsigned long long)t.tile, (unsigned long long)ub,
                                  (unsigned long long)cfg->ub_size_bytes);
    t.key = (uint32_t)((uint64_t)v->v[RP_SEED].i * RN_GOLD + (uint64_t)v->v[RP_OFFSET].i);
    t.key2 = t.key ^ RN_KEY2;
    const uint64_t units = dv_ceil_div(elems, t.unit);
    const uint64_t cores = v->v[RP_CORES].i ? (uint64_t)v->v[RP_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_max_u64(1, dv_min_u64(cores, units));
    plan->info.subs = 1;
    int rc;
    if ((rc = dv_ops_add_arg(plan, "y", dt, elems, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the argument", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 0;
    plan->bytes = elems * size;
    plan->tol_scale = kind == RN_NORMAL ? 4.0 : 1.0; /* normal: the fp32 ln, sqrt and polynomial */
    return DV_OK;
}

static int rn_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)in;
    (void)err;
    rn_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t dt = (dv_dtype_t)t.dt;
    for (uint64_t i = 0; i < t.elems; i++) {
        const float u = (float)(rn_hash((uint32_t)i + t.key) >> 8) * (1.0f / 16777216.0f);
        double y;
        switch (t.kind) {
        case RN_UNIFORM:
            y = (float)(u * (float)(t.b - t.a)) + (float)t.a;
            break;
        case RN_RANDOM:
            y = floorf((float)(u * (float)(t.b - t.a)) + (float)t.a);
            break;
        case RN_BERNOULLI:
            y = ceilf((float)(u * -1.0f) + (float)t.a);
            break;
        default: {
            const double u2 = (double)((float)(rn_hash((uint32_t)i + t.key2) >> 8) * (1.0f / 16777216.0f));
            y = t.a + t.b * sqrt(-2.0 * log(1.0 - (double)u)) * cos(2.0 * RN_PI * u2 - RN_PI);
        }
        }
        dv_ops_store(expect[0], dt, i, y);
    }
    return DV_OK;
}

/* The descriptor's name is the identifier (a constant initializer), rn_names[kind]'s spelling. */
#define RN_OP(kind, ident, params, what)                                                                      \
    const dv_opdesc_t dv_op_##ident = {#ident, what, params, (int)(sizeof params / sizeof params[0]), rn_plan, \
                                       rn_kernel, rn_reference, NULL, NULL, NULL}
RN_OP(RN_UNIFORM, uniform, uniform_params, "y = uniform random numbers in [--low, --high) (dvsim's counter-based "
      "generator)");
RN_OP(RN_RANDOM, random, random_params, "y = uniform random integers in [--low, --high)");
RN_OP(RN_BERNOULLI, bernoulli, bernoulli_params, "y = 1 with probability --p, else 0");
RN_OP(RN_NORMAL, normal, normal_params, "y = normal random numbers of --mean and --std (Box-Muller)");

/* ---------------------------------------------------------------- dropout */

/* dropout_mask: the keep mask of dropout as CANN packs it: bit i (byte i / 8, LSB first) is 1 when
 * element i is kept, u_i >= p with u_i the generator's uniform number of counter i, so an element is
 * kept with probability 1 - p; ceil(n / 128) * 16 bytes (the mask of whole 128-element groups).
 * Per tile: the uniform numbers (as uniform), then vcmps u >= p, which writes exactly this bit layout
 * (8 bytes per repeat of 64 fp32 lanes), and the bytes go out by MTE3.  Block b takes whole units of
 * 4096 elements (512 bytes of mask). */
enum { DM_SHAPE, DM_P, DM_SEED, DM_OFFSET, DM_CORES, DM_TILE, DM_COUNT };
static const dv_oparam_spec_t dmask_params[DM_COUNT] = {
    [DM_SHAPE] = {"shape", DV_OPT_SHAPE, "1048576", 1, 1u << 30, 0, "the shape of the tensor the mask is for"},
    [DM_P] = {"p", DV_OPT_FLOAT, "0.5", 0, 1, 0, "the probability that an element is dropped (its bit 0)"},
    [DM_SEED] = {"seed", DV_OPT_INT, "0", 0, 4294967295.0, 0, "the generator's seed (32 bits)"},
    [DM_OFFSET] = {"offset", DV_OPT_INT, "0", 0, 4294967295.0, 0, "added to every element's counter (32 bits)"},
    [DM_CORES] = {"cores", DV_OPT_INT, "auto", 1, 1024, 0, "blocks (auto: the chip's vector cores)"},
    [DM_TILE] = {"tile-elems", DV_OPT_INT, "4096", 256, 16384, 0, "elements per tile (a multiple of 256)"}};

typedef struct dm_tiling {
    uint64_t elems, bits, tile; /* bits: the elements the mask covers, a multiple of 128 */
    double p;
    uint32_t key;
} dm_tiling_t;

enum { DM_UNIT = 4096 };

static uint64_t dm_bytes(uint64_t elems) { return dv_ceil_div(elems, 128) * 16; }

static void dm_kernel(dv_k_t *k, const void *params)
{
    const dm_tiling_t *t = params;
    uint64_t first, last;
    dv_ops_block_span(k, t->bits, DM_UNIT, &first, &last);
    if (first >= last)
        return;
    const uint64_t T = t->tile, bytes = T * 4;
    dv_que_t outq;
    dvk_que_init(k, &outq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 2, T / 8);
    const uint64_t iota = dvk_alloc(k, DV_SPACE_UB, bytes), x = dvk_alloc(k, DV_SPACE_UB, bytes);
    const uint64_t tt = dvk_alloc(k, DV_SPACE_UB, bytes), s = dvk_alloc(k, DV_SPACE_UB, bytes);
    const uint64_t f = dvk_alloc(k, DV_SPACE_UB, bytes);
    dv_ops_iota_s32(k, iota, T);
    for (uint64_t off = first; off < last; off += T) {
        const uint64_t n = dv_min_u64(T, last - off); /* a multiple of 128 */
        const uint64_t m = dvk_que_alloc(k, &outq);
        rn_uniform_vec(k, f, iota, t->key + (uint32_t)off, x, tt, s, T);
        dvk_pipe_barrier(k, DV_PIPE_V);
        dvk_vcmps(k, m, f, DV_DT_F32, t->p, DV_CMP_GE, (int64_t)(n / RN_LANES), 1, 8);
        dvk_que_enque(k, &outq, m);
        const uint64_t bm = dvk_que_deque(k, &outq);
        dvk_copy_ubuf_to_gm(k, dvk_gm(k, 0, off / 8), bm, 1, (int64_t)dv_ceil_div(n / 8, 32), 0, 0);
        dvk_que_free(k, &outq, bm);
        dvk_pipe_barrier(k, DV_PIPE_V);
    }
}

static int dm_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                   dv_error_t *err)
{
    const uint64_t elems = dv_shape_elems(&v->v[DM_SHAPE].shape);
    dm_tiling_t t = {.elems = elems, .bits = dm_bytes(elems) * 8, .tile = (uint64_t)v->v[DM_TILE].i,
                     .p = v->v[DM_P].f};
    if (t.tile % 256)
        return dv_ops_param_error(err, "tile-elems", "%llu is not a multiple of 256 (32 bytes of mask)",
                                  (unsigned long long)t.tile);
    const uint64_t ub = 5 * t.tile * 4 + 2 * t.tile / 8;
    if (ub > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "tile-elems", "%llu elements need %llu bytes of UB, core.ub_size_bytes is %llu",
                                  (unsigned long long)t.tile, (unsigned long long)ub,
                                  (unsigned long long)cfg->ub_size_bytes);
    t.key = (uint32_t)((uint64_t)v->v[DM_SEED].i * RN_GOLD + (uint64_t)v->v[DM_OFFSET].i);
    const uint64_t cores = v->v[DM_CORES].i ? (uint64_t)v->v[DM_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_max_u64(1, dv_min_u64(cores, dv_ceil_div(t.bits, DM_UNIT)));
    plan->info.subs = 1;
    int rc;
    if ((rc = dv_ops_add_arg(plan, "y", DV_DT_U8, dm_bytes(elems), DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the argument", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = 0;
    plan->bytes = dm_bytes(elems);
    return DV_OK;
}

static int dm_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)in;
    (void)err;
    dm_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    memset(expect[0], 0, t.bits / 8);
    for (uint64_t i = 0; i < t.bits; i++) {
        const float u = (float)(rn_hash((uint32_t)i + t.key) >> 8) * (1.0f / 16777216.0f);
        if (u >= (float)t.p)
            expect[0][i / 8] |= (uint8_t)(1u << (i % 8));
    }
    return DV_OK;
}

const dv_opdesc_t dv_op_dropout_mask = {"dropout_mask",
                                        "y = dropout's keep mask, a bit per element (1: kept, probability 1 - --p), "
                                        "ceil(n / 128) * 16 bytes",
                                        dmask_params, DM_COUNT, dm_plan, dm_kernel, dm_reference, NULL, NULL, NULL};

/* dropout_apply: y = mask bit i ? x * scale : 0 (aclnnDropoutDoMask with scale 1 / (1 - p),
 * aclnnDropoutBackward).  Per tile: x and its mask bytes in by MTE2, vmuls by the scale (in the
 * dtype), vsel against a zero tile with the mask (a 16-byte chunk per fp16 repeat, 8 per fp32), out
 * by MTE3.  Block b takes whole units of 4096 elements. */
enum { DA_SHAPE, DA_DTYPE, DA_SCALE, DA_CORES, DA_TILE, DA_COUNT };
static const dv_oparam_spec_t dapply_params[DA_COUNT] = {
    [DA_SHAPE] = {"shape", DV_OPT_SHAPE, "1048576", 1, 1u << 30, 0, "tensor dimensions"},
    [DA_DTYPE] = {"dtype", DV_OPT_DTYPE, "fp32", 0, 0, DT_F16 | DT_F32, "element type of x and y"},
    [DA_SCALE] = {"scale", DV_OPT_FLOAT, "2", -3.4e38, 3.4e38, 0, "the factor of a kept element (in --dtype)"},
    [DA_CORES] = {"cores", DV_OPT_INT, "auto", 1, 1024, 0, "blocks (auto: the chip's vector cores)"},
    [DA_TILE] = {"tile-elems", DV_OPT_INT, "4096", 256, 16384, 0, "elements per tile (a multiple of 256)"}};

typedef struct da_tiling {
    uint64_t elems, tile;
    double scale;
    uint32_t dt;
} da_tiling_t;

static void da_kernel(dv_k_t *k, const void *params)
{
    const da_tiling_t *t = params;
    const dv_dtype_t dt = (dv_dtype_t)t->dt;
    const unsigned size = dv_dtype_size(dt);
    uint64_t first, last;
    dv_ops_block_span(k, t->elems, DM_UNIT, &first, &last);
    if (first >= last)
        return;
    const uint64_t T = t->tile, epr = 256 / size; /* elements per repeat */
    dv_que_t xq, mq, yq;
    dvk_que_init(k, &xq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 2, T * size);
    dvk_que_init(k, &mq, DV_SPACE_UB, DV_PIPE_MTE2, DV_PIPE_V, 2, T / 8);
    dvk_que_init(k, &yq, DV_SPACE_UB, DV_PIPE_V, DV_PIPE_MTE3, 2, T * size);
    const uint64_t zero = dvk_alloc(k, DV_SPACE_UB, 256);
    dvk_vdup(k, zero, dt, 0, 1, 1, 8);
    for (uint64_t off = first; off < last; off += T) {
        const uint64_t n = dv_min_u64(T, last - off), rep = dv_ceil_div(n, epr);
        const uint64_t xb = dvk_que_alloc(k, &xq), mb = dvk_que_alloc(k, &mq);
        dvk_copy_gm_to_ubuf(k, xb, dvk_gm(k, 0, off * size), 1, (int64_t)dv_ceil_div(n * size, 32), 0, 0);
        dvk_copy_gm_to_ubuf(k, mb, dvk_gm(k, 1, off / 8), 1, (int64_t)dv_ceil_div(dv_ceil_div(n, 8), 32), 0, 0);
        dvk_que_enque(k, &xq, xb);
        dvk_que_enque(k, &mq, mb);
        const uint64_t x = dvk_que_deque(k, &xq), m = dvk_que_deque(k, &mq), y = dvk_que_alloc(k, &yq);
        dvk_vmuls(k, x, x, dt, t->scale, (int64_t)rep, 1, 1, 8, 8);
        dvk_pipe_barrier(k, DV_PIPE_V);
        dvk_vsel(k, y, x, zero, m, dt, (int64_t)rep, 1, 1, 1, 8, 8, 0, 1);
        dvk_que_free(k, &xq, x);
        dvk_que_free(k, &mq, m);
        dvk_que_enque(k, &yq, y);
        const uint64_t by = dvk_que_deque(k, &yq);
        dvk_copy_ubuf_to_gm(k, dvk_gm(k, 2, off * size), by, 1, (int64_t)dv_ceil_div(n * size, 32), 0, 0);
        dvk_que_free(k, &yq, by);
    }
}

static int da_plan(const dv_opdesc_t *op, const dv_config_t *cfg, const dv_opvals_t *v, dv_op_plan_t *plan,
                   dv_error_t *err)
{
    const dv_dtype_t dt = v->v[DA_DTYPE].dt;
    const unsigned size = dv_dtype_size(dt);
    const uint64_t elems = dv_shape_elems(&v->v[DA_SHAPE].shape);
    da_tiling_t t = {.elems = elems, .tile = (uint64_t)v->v[DA_TILE].i, .scale = v->v[DA_SCALE].f, .dt = (uint32_t)dt};
    if (t.tile % 256)
        return dv_ops_param_error(err, "tile-elems", "%llu is not a multiple of 256 (32 bytes of mask)",
                                  (unsigned long long)t.tile);
    const uint64_t ub = 4 * t.tile * size + 2 * t.tile / 8 + 256;
    if (ub > cfg->ub_size_bytes)
        return dv_ops_param_error(err, "tile-elems", "%llu elements need %llu bytes of UB, core.ub_size_bytes is %llu",
                                  (unsigned long long)t.tile, (unsigned long long)ub,
                                  (unsigned long long)cfg->ub_size_bytes);
    const uint64_t cores = v->v[DA_CORES].i ? (uint64_t)v->v[DA_CORES].i : dv_ops_cores(cfg, DV_KIND_VECTOR);
    snprintf(plan->info.name, sizeof plan->info.name, "%s", op->name);
    plan->info.kind = DV_KIND_VECTOR;
    plan->info.blocks = (uint32_t)dv_max_u64(1, dv_min_u64(cores, dv_ceil_div(elems, DM_UNIT)));
    plan->info.subs = 1;
    int rc;
    if ((rc = dv_ops_add_arg(plan, "x", dt, elems, DV_ARG_IN, -2, 2)) ||
        (rc = dv_ops_add_arg(plan, "mask", DV_DT_U8, dm_bytes(elems), DV_ARG_IN, 0, 255)) ||
        (rc = dv_ops_add_arg(plan, "y", dt, elems, DV_ARG_OUT, 0, 0)))
        return dv_error_set(err, rc, NULL, 0, 0, "%s: cannot add the arguments", op->name);
    memcpy(plan->tiling, &t, sizeof t);
    plan->tiling_bytes = sizeof t;
    plan->flops = elems;
    plan->bytes = 2 * elems * size + dm_bytes(elems);
    return DV_OK;
}

static int da_reference(const dv_op_plan_t *plan, const uint8_t *const *in, uint8_t **expect, dv_error_t *err)
{
    (void)err;
    da_tiling_t t;
    memcpy(&t, plan->tiling, sizeof t);
    const dv_dtype_t dt = (dv_dtype_t)t.dt;
    uint8_t s[8];
    dv_ops_store(s, dt, 0, t.scale); /* the scale as vmuls holds it */
    const double scale = dv_ops_load(s, dt, 0);
    for (uint64_t i = 0; i < t.elems; i++) {
        const bool keep = in[1][i / 8] >> (i % 8) & 1;
        dv_ops_store(expect[2], dt, i, keep ? dv_ops_load(in[0], dt, i) * scale : 0.0);
    }
    return DV_OK;
}

const dv_opdesc_t dv_op_dropout_apply = {"dropout_apply",
                                         "y = bit i of --mask ? x * --scale : 0 (dropout with a given keep mask)",
                                         dapply_params, DA_COUNT, da_plan, da_kernel, da_reference, NULL, NULL, NULL};
