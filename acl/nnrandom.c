/* acl/nnrandom.c - the first phases of the aclnn random-number operators (acl/nnops.def, section
 * "random numbers"): InplaceUniform, InplaceRandom, Bernoulli, InplaceBernoulli, InplaceNormal and
 * NormalFloatFloat onto the library's uniform, random, bernoulli and normal (ops/random.c, dvsim's
 * counter-based generator: the values are not CANN's, their distribution is).  The seed and offset
 * are taken modulo 2^32 (the generator's counter has 32 bits); the tensor written is the kernel's
 * only argument. */
#include "nn.h"

#include "dv/ops.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "aclnnop/aclnn_bernoulli.h"
#include "aclnnop/aclnn_normal.h"
#include "aclnnop/aclnn_normal_out.h"
#include "aclnnop/aclnn_random.h"
#include "aclnnop/aclnn_uniform.h"

/* One call: out (the tensor written, any shape), the distribution's two parameters as the library
 * names them (b_name NULL: none). */
static aclnnStatus random_call(const char *api, const aclTensor *out, const char *what, const char *a_name, double a,
                               const char *b_name, double b, uint64_t seed, uint64_t offset, uint64_t *workspaceSize,
                               aclOpExecutor **executor)
{
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, api);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, out, what)))
        return rc;
    if ((rc = dv_nn_check_dtype(&c, out, what, "dtype")) || (rc = dv_nn_check_plain(&c, out, what)))
        return rc;
    c.empty = dv_acl_tensor_elems(out) == 0;
    dv_nn_call_param(&c, "shape", "%llu", (unsigned long long)(c.empty ? 1 : dv_acl_tensor_elems(out)));
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(out->dtype)->dv));
    dv_nn_call_param(&c, "seed", "%llu", (unsigned long long)(seed & 0xFFFFFFFFu));
    dv_nn_call_param(&c, "offset", "%llu", (unsigned long long)(offset & 0xFFFFFFFFu));
    dv_nn_call_param(&c, a_name, "%.17g", a);
    if (b_name)
        dv_nn_call_param(&c, b_name, "%.17g", b);
    dv_nn_call_tensor(&c, out, what, "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

aclnnStatus aclnnInplaceUniformGetWorkspaceSize(const aclTensor *selfRef, double from, double to, uint64_t seed,
                                                uint64_t offset, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (!(to > from) || !isfinite(from) || !isfinite(to))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "aclnnInplaceUniformGetWorkspaceSize: from %g must be below to %g",
                           from, to);
    return random_call("aclnnInplaceUniform", selfRef, "selfRef", "low", from, "high", to, seed, offset, workspaceSize,
                       executor);
}

aclnnStatus aclnnInplaceRandomGetWorkspaceSize(const aclTensor *selfRef, int64_t from, int64_t to, int64_t seed,
                                               int64_t offset, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (to <= from || from < -16777216 || to > 16777216)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "aclnnInplaceRandomGetWorkspaceSize: [from %lld, to %lld) must be "
                           "a non-empty range within +-2^24 (dvsim draws the integers in fp32)",
                           (long long)from, (long long)to);
    return random_call("aclnnInplaceRandom", selfRef, "selfRef", "low", (double)from, "high", (double)to,
                       (uint64_t)seed, (uint64_t)offset, workspaceSize, executor);
}

/* The probability of Bernoulli and InplaceBernoulli: a live scalar in [0, 1]. */
static int bernoulli_p(const char *gws, const aclScalar *prob, double *p)
{
    if (!prob)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: prob is NULL", gws);
    if (!dv_acl_handle_is(prob, DV_ACL_MAGIC_SCALAR))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: prob is not a live aclScalar", gws);
    *p = prob->value;
    if (!(*p >= 0 && *p <= 1))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: prob is %g; it must be in [0, 1]", gws, *p);
    return ACL_SUCCESS;
}

aclnnStatus aclnnBernoulliGetWorkspaceSize(const aclTensor *self, const aclScalar *prob, int64_t seed, int64_t offset,
                                           aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    double p;
    int rc = ACL_SUCCESS;
    if (!dv_acl_tensor_get(self, "aclnnBernoulliGetWorkspaceSize", "self", &rc))
        return rc;
    if ((rc = bernoulli_p("aclnnBernoulliGetWorkspaceSize", prob, &p)) != ACL_SUCCESS)
        return rc;
    if (out && dv_acl_tensor_elems(out) != dv_acl_tensor_elems(self))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "aclnnBernoulliGetWorkspaceSize: out has %llu elements, self %llu",
                           (unsigned long long)dv_acl_tensor_elems(out), (unsigned long long)dv_acl_tensor_elems(self));
    return random_call("aclnnBernoulli", out, "out", "p", p, NULL, 0, (uint64_t)seed, (uint64_t)offset, workspaceSize,
                       executor);
}

aclnnStatus aclnnInplaceBernoulliGetWorkspaceSize(const aclTensor *selfRef, const aclScalar *prob, int64_t seed,
                                                  int64_t offset, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    double p;
    int rc = bernoulli_p("aclnnInplaceBernoulliGetWorkspaceSize", prob, &p);
    if (rc != ACL_SUCCESS)
        return rc;
    return random_call("aclnnInplaceBernoulli", selfRef, "selfRef", "p", p, NULL, 0, (uint64_t)seed, (uint64_t)offset,
                       workspaceSize, executor);
}

aclnnStatus aclnnInplaceNormalGetWorkspaceSize(const aclTensor *selfRef, float mean, float std, int64_t seed,
                                               int64_t offset, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (!(std >= 0) || !isfinite(mean) || !isfinite(std))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "aclnnInplaceNormalGetWorkspaceSize: std %g must be finite and "
                           "not negative, mean %g finite", (double)std, (double)mean);
    return random_call("aclnnInplaceNormal", selfRef, "selfRef", "mean", mean, "std", std, (uint64_t)seed,
                       (uint64_t)offset, workspaceSize, executor);
}

aclnnStatus aclnnNormalFloatFloatGetWorkspaceSize(float mean, float std, int64_t seed, int64_t offset, aclTensor *out,
                                                  uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (!(std >= 0) || !isfinite(mean) || !isfinite(std))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "aclnnNormalFloatFloatGetWorkspaceSize: std %g must be finite and "
                           "not negative, mean %g finite", (double)std, (double)mean);
    return random_call("aclnnNormalFloatFloat", out, "out", "mean", mean, "std", std, (uint64_t)seed, (uint64_t)offset,
                       workspaceSize, executor);
}

/* ---- the seed and offset in device tensors; mean and std as tensors ---- */

/* The one value of an ACL_INT64 or ACL_INT32 device tensor, read when the first phase runs (CANN's
 * kernel reads it when it runs: a value written in between is not seen by dvsim). */
static int tensor_int(const char *gws, const aclTensor *t, const char *what, int64_t *v)
{
    int rc;
    const struct aclTensor *st = dv_acl_tensor_get(t, gws, what, &rc);
    if (!st)
        return rc;
    if (dv_acl_tensor_elems(st) != 1)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %llu elements; it must hold one value", gws, what,
                           (unsigned long long)dv_acl_tensor_elems(st));
    if (st->dtype != ACL_INT64 && st->dtype != ACL_INT32)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s; it must be ACL_INT64 or ACL_INT32", gws,
                           what, dv_nn_dtype_name(st->dtype));
    const uint8_t *h;
    if ((rc = dv_nn_tensor_element(gws, st, what, 0, &h)))
        return rc;
    if (st->dtype == ACL_INT64)
        memcpy(v, h, 8);
    else {
        int32_t i;
        memcpy(&i, h, 4);
        *v = i;
    }
    return ACL_SUCCESS;
}

/* seed = seedTensor's value, offset = offsetTensor's value + offset. */
static int seed_of(const char *gws, const aclTensor *seedTensor, const aclTensor *offsetTensor, int64_t offset,
                   uint64_t *seed, uint64_t *off)
{
    int64_t s, o;
    int rc;
    if ((rc = tensor_int(gws, seedTensor, "seedTensor", &s)) || (rc = tensor_int(gws, offsetTensor, "offsetTensor", &o)))
        return rc;
    *seed = (uint64_t)s;
    *off = (uint64_t)o + (uint64_t)offset;
    return ACL_SUCCESS;
}

aclnnStatus aclnnInplaceUniformTensorGetWorkspaceSize(const aclTensor *selfRef, double from, double to,
                                                      const aclTensor *seedTensor, const aclTensor *offsetTensor,
                                                      uint64_t offset, uint64_t *workspaceSize,
                                                      aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    const char *gws = "aclnnInplaceUniformTensorGetWorkspaceSize";
    uint64_t s, o;
    int rc;
    if ((rc = seed_of(gws, seedTensor, offsetTensor, (int64_t)offset, &s, &o)))
        return rc;
    if (!(to > from) || !isfinite(from) || !isfinite(to))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: from %g must be below to %g", gws, from, to);
    return random_call("aclnnInplaceUniformTensor", selfRef, "selfRef", "low", from, "high", to, s, o, workspaceSize,
                       executor);
}

aclnnStatus aclnnInplaceRandomTensorGetWorkspaceSize(const aclTensor *selfRef, int64_t from, int64_t to,
                                                     const aclTensor *seedTensor, const aclTensor *offsetTensor,
                                                     int64_t offset, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    const char *gws = "aclnnInplaceRandomTensorGetWorkspaceSize";
    uint64_t s, o;
    int rc;
    if ((rc = seed_of(gws, seedTensor, offsetTensor, offset, &s, &o)))
        return rc;
    if (to <= from || from < -16777216 || to > 16777216)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: [from %lld, to %lld) must be a non-empty range within "
                           "+-2^24 (dvsim draws the integers in fp32)", gws, (long long)from, (long long)to);
    return random_call("aclnnInplaceRandomTensor", selfRef, "selfRef", "low", (double)from, "high", (double)to, s, o,
                       workspaceSize, executor);
}

aclnnStatus aclnnInplaceNormalTensorGetWorkspaceSize(const aclTensor *selfRef, float mean, float std,
                                                     const aclTensor *seedTensor, const aclTensor *offsetTensor,
                                                     int64_t offset, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    const char *gws = "aclnnInplaceNormalTensorGetWorkspaceSize";
    uint64_t s, o;
    int rc;
    if ((rc = seed_of(gws, seedTensor, offsetTensor, offset, &s, &o)))
        return rc;
    if (!(std >= 0) || !isfinite(mean) || !isfinite(std))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: std %g must be finite and not negative, mean %g finite", gws,
                           (double)std, (double)mean);
    return random_call("aclnnInplaceNormalTensor", selfRef, "selfRef", "mean", mean, "std", std, s, o, workspaceSize,
                       executor);
}

/* out = mean + std * normal(0, 1) with mean and / or std a tensor of out's shape: the normal kernel
 * (with the float of each kind folded into it), then mul by std and add mean on the vector unit, a
 * chain of kernels with a profile row each (CANN's l0 operators). */
static aclnnStatus normal_tensors(const char *api, const char *gws, const aclTensor *mt, double mf,
                                  const aclTensor *st, double sf, int64_t seed, int64_t offset, aclTensor *out,
                                  uint64_t *workspaceSize, aclOpExecutor **executor)
{
    int rc;
    if ((mt && !dv_acl_tensor_get(mt, gws, "mean", &rc)) || (st && !dv_acl_tensor_get(st, gws, "std", &rc)) ||
        !dv_acl_tensor_get(out, gws, "out", &rc))
        return rc;
    if (!workspaceSize || !executor)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", gws, workspaceSize ? "executor" : "workspaceSize");
    const aclTensor *ts[2] = {mt, st};
    static const char *const tw[2] = {"mean", "std"};
    for (int i = 0; i < 2; i++) {
        if (!ts[i])
            continue;
        if (dv_acl_tensor_elems(ts[i]) != dv_acl_tensor_elems(out) || ts[i]->ndims != out->ndims ||
            memcmp(ts[i]->dims, out->dims, sizeof(int64_t) * (size_t)out->ndims) != 0)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s must have out's shape (dvsim does not broadcast it)",
                               gws, tw[i]);
        if (ts[i]->dtype != out->dtype)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s, out %s", gws, tw[i],
                               dv_nn_dtype_name(ts[i]->dtype), dv_nn_dtype_name(out->dtype));
    }
    if (!isfinite(mf) || !isfinite(sf) || sf < 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: std %g must be finite and not negative, mean %g finite", gws,
                           sf, mf);
    aclOpExecutor *head = NULL, *e = NULL;
    uint64_t ws = 0, w = 0;
    /* 1. out = (mean tensor ? 0 : mf) + (std tensor ? 1 : sf) * normal(0, 1) */
    if ((rc = random_call(api, out, "out", "mean", mt ? 0.0 : mf, "std", st ? 1.0 : sf, (uint64_t)seed,
                          (uint64_t)offset, &w, &head)))
        return rc;
    ws += w;
    aclOpExecutor **tail = &head->next;
    for (int i = 1; i >= 0; i--) { /* 2. out *= std, then 3. out += mean */
        if (!ts[i])
            continue;
        dv_nn_call_t c;
        dv_nn_call_init(&c, api, gws, i ? "mul" : "add", i ? "Mul" : "Add");
        c.empty = dv_acl_tensor_elems(out) == 0;
        dv_nn_call_param(&c, "shape", "%llu", (unsigned long long)(c.empty ? 1 : dv_acl_tensor_elems(out)));
        dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(out->dtype)->dv));
        dv_nn_call_tensor(&c, out, "out", "x", true);
        dv_nn_call_tensor(&c, ts[i], tw[i], "y", true);
        dv_nn_call_tensor(&c, out, "out", "z", false);
        if ((rc = dv_nn_exec_build(&c, &w, &e))) {
            dv_acl_executor_free(head);
            return rc;
        }
        ws += w;
        *tail = e;
        tail = &e->next;
    }
    *workspaceSize = ws;
    *executor = head;
    return ACL_SUCCESS;
}

aclnnStatus aclnnNormalTensorTensorGetWorkspaceSize(const aclTensor *mean, const aclTensor *std, int64_t seed,
                                                    int64_t offset, aclTensor *out, uint64_t *workspaceSize,
                                                    aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (!mean || !std)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "aclnnNormalTensorTensorGetWorkspaceSize: %s is NULL",
                           mean ? "std" : "mean");
    return normal_tensors("aclnnNormalTensorTensor", "aclnnNormalTensorTensorGetWorkspaceSize", mean, 0, std, 1, seed,
                          offset, out, workspaceSize, executor);
}

aclnnStatus aclnnNormalTensorFloatGetWorkspaceSize(const aclTensor *mean, float std, int64_t seed, int64_t offset,
                                                   aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (!mean)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "aclnnNormalTensorFloatGetWorkspaceSize: mean is NULL");
    return normal_tensors("aclnnNormalTensorFloat", "aclnnNormalTensorFloatGetWorkspaceSize", mean, 0, NULL, std, seed,
                          offset, out, workspaceSize, executor);
}

aclnnStatus aclnnNormalFloatTensorGetWorkspaceSize(float mean, const aclTensor *std, int64_t seed, int64_t offset,
                                                   aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (!std)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "aclnnNormalFloatTensorGetWorkspaceSize: std is NULL");
    return normal_tensors("aclnnNormalFloatTensor", "aclnnNormalFloatTensorGetWorkspaceSize", NULL, mean, std, 1, seed,
                          offset, out, workspaceSize, executor);
}

/* ---- dropout: the keep mask (dropout_mask) and its use (dropout_apply) ---- */

#include "aclnnop/aclnn_dropout.h"
#include "aclnnop/aclnn_dropout_backward.h"
#include "aclnnop/aclnn_dropout_do_mask.h"
#include "aclnnop/aclnn_dropout_gen_mask.h"
#include "aclnnop/aclnn_dropout_v3.h"
#include "aclnnop/aclnn_dropout_v3_grad.h"

/* The mask's bytes for n elements: whole 128-element groups, a bit each. */
static uint64_t mask_bytes(uint64_t n) { return (n + 127) / 128 * 16; }

/* The mask kernel into `mask` (ACL_UINT8, mask_bytes(n) elements) for n elements. */
static aclnnStatus mask_call(const char *api, const char *gws, uint64_t n, double p, uint64_t seed, uint64_t offset,
                             const aclTensor *mask, const char *what, uint64_t *workspaceSize,
                             aclOpExecutor **executor)
{
    int rc;
    const struct aclTensor *m = dv_acl_tensor_get(mask, gws, what, &rc);
    if (!m)
        return rc;
    if (m->dtype != ACL_UINT8 && m->dtype != ACL_BOOL)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s; the mask is ACL_UINT8", gws, what,
                           dv_nn_dtype_name(m->dtype));
    if (dv_acl_tensor_elems(m) != mask_bytes(n))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %llu elements; the mask of %llu elements has %llu "
                           "bytes (a bit each, whole groups of 128)", gws, what,
                           (unsigned long long)dv_acl_tensor_elems(m), (unsigned long long)n,
                           (unsigned long long)mask_bytes(n));
    if (!(p >= 0 && p <= 1))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: the probability %g is not in [0, 1]", gws, p);
    dv_nn_call_t c;
    dv_nn_call_init(&c, api, gws, "dropout_mask", "DropOutGenMask");
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_check_plain(&c, mask, what)))
        return rc;
    c.empty = n == 0;
    dv_nn_call_param(&c, "shape", "%llu", (unsigned long long)(n ? n : 1));
    dv_nn_call_param(&c, "p", "%.17g", p);
    dv_nn_call_param(&c, "seed", "%llu", (unsigned long long)(seed & 0xFFFFFFFFu));
    dv_nn_call_param(&c, "offset", "%llu", (unsigned long long)(offset & 0xFFFFFFFFu));
    dv_nn_call_tensor(&c, mask, what, "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

/* out = mask bit ? x * scale : 0 for x's elements. */
static aclnnStatus apply_call(const char *api, const char *gws, const aclTensor *x, const char *xw,
                              const aclTensor *mask, const char *mw, double scale, const aclTensor *out,
                              const char *ow, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init(&c, api, gws, "dropout_apply", "DropOutDoMask");
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, x, xw)) ||
        (rc = dv_nn_get_tensor(&c, mask, mw)) || (rc = dv_nn_get_tensor(&c, out, ow)))
        return rc;
    if ((rc = dv_nn_check_dtype(&c, x, xw, "dtype")) || (rc = dv_nn_check_same_dtype(&c, x, xw, out, ow)) ||
        (rc = dv_nn_check_same_shape(&c, x, xw, out, ow, "")))
        return rc;
    const uint64_t n = dv_acl_tensor_elems(x);
    if ((mask->dtype != ACL_UINT8 && mask->dtype != ACL_BOOL) || dv_acl_tensor_elems(mask) != mask_bytes(n))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s must be ACL_UINT8 of %llu elements (a bit for each of "
                           "%s's %llu, whole groups of 128)", gws, mw, (unsigned long long)mask_bytes(n), xw,
                           (unsigned long long)n);
    if (!isfinite(scale))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: the scale %g is not finite", gws, scale);
    c.empty = n == 0;
    dv_nn_call_param(&c, "shape", "%llu", (unsigned long long)(n ? n : 1));
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(x->dtype)->dv));
    dv_nn_call_param(&c, "scale", "%.17g", scale);
    dv_nn_call_tensor(&c, x, xw, "x", true);
    dv_nn_call_tensor(&c, mask, mw, "mask", true);
    dv_nn_call_tensor(&c, out, ow, "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

/* The elements of an aclIntArray shape. */
static int shape_elems(const char *gws, const aclIntArray *shape, uint64_t *n)
{
    if (!shape)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: shape is NULL", gws);
    if (!dv_acl_handle_is(shape, DV_ACL_MAGIC_INT_ARRAY))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: shape is not a live aclIntArray", gws);
    *n = 1;
    for (uint64_t i = 0; i < shape->size; i++) {
        if (shape->v[i] < 0 || (shape->v[i] && *n > (1ull << 40) / (uint64_t)shape->v[i]))
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: shape[%llu] is %lld", gws, (unsigned long long)i,
                               (long long)shape->v[i]);
        *n *= (uint64_t)shape->v[i];
    }
    return ACL_SUCCESS;
}

aclnnStatus aclnnDropoutGenMaskGetWorkspaceSize(const aclIntArray *shape, double prob, int64_t seed, int64_t offset,
                                                aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    const char *gws = "aclnnDropoutGenMaskGetWorkspaceSize";
    uint64_t n;
    int rc = shape_elems(gws, shape, &n);
    return rc ? rc : mask_call("aclnnDropoutGenMask", gws, n, prob, (uint64_t)seed, (uint64_t)offset, out, "out",
                               workspaceSize, executor);
}

/* probDataType only says in which type CANN holds prob; dvsim compares in fp32. */
static int prob_type(const char *gws, aclDataType t)
{
    if (t != ACL_FLOAT && t != ACL_FLOAT16 && t != ACL_BF16)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: probDataType is %s; it must be ACL_FLOAT, ACL_FLOAT16 or "
                           "ACL_BF16", gws, dv_nn_dtype_name(t));
    return ACL_SUCCESS;
}

aclnnStatus aclnnDropoutGenMaskV2GetWorkspaceSize(const aclIntArray *shape, double prob, int64_t seed, int64_t offset,
                                                  aclDataType probDataType, aclTensor *out, uint64_t *workspaceSize,
                                                  aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    const char *gws = "aclnnDropoutGenMaskV2GetWorkspaceSize";
    uint64_t n;
    int rc;
    if ((rc = shape_elems(gws, shape, &n)) || (rc = prob_type(gws, probDataType)))
        return rc;
    return mask_call("aclnnDropoutGenMaskV2", gws, n, prob, (uint64_t)seed, (uint64_t)offset, out, "out",
                     workspaceSize, executor);
}

aclnnStatus aclnnDropoutGenMaskV2TensorGetWorkspaceSize(const aclIntArray *shape, double prob,
                                                        const aclTensor *seedTensor, const aclTensor *offsetTensor,
                                                        int64_t offset, aclDataType probDataType, aclTensor *out,
                                                        uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    const char *gws = "aclnnDropoutGenMaskV2TensorGetWorkspaceSize";
    uint64_t n, s, o;
    int rc;
    if ((rc = shape_elems(gws, shape, &n)) || (rc = prob_type(gws, probDataType)) ||
        (rc = seed_of(gws, seedTensor, offsetTensor, offset, &s, &o)))
        return rc;
    return mask_call("aclnnDropoutGenMaskV2Tensor", gws, n, prob, s, o, out, "out", workspaceSize, executor);
}

aclnnStatus aclnnDropoutDoMaskGetWorkspaceSize(const aclTensor *self, const aclTensor *mask, double prob,
                                               aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    const char *gws = "aclnnDropoutDoMaskGetWorkspaceSize";
    if (!(prob >= 0 && prob <= 1))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: prob %g is not in [0, 1]", gws, prob);
    return apply_call("aclnnDropoutDoMask", gws, self, "self", mask, "mask", prob < 1 ? 1 / (1 - prob) : 0, out, "out",
                      workspaceSize, executor);
}

aclnnStatus aclnnDropoutBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *mask, double scale,
                                                 aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return apply_call("aclnnDropoutBackward", "aclnnDropoutBackwardGetWorkspaceSize", gradOutput, "gradOutput", mask,
                      "mask", scale, out, "out", workspaceSize, executor);
}

aclnnStatus aclnnDropoutV3GradGetWorkspaceSize(const aclTensor *gradY, const aclTensor *mask, double scale,
                                               aclTensor *gradX, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return apply_call("aclnnDropoutV3Grad", "aclnnDropoutV3GradGetWorkspaceSize", gradY, "gradY", mask, "mask", scale,
                      gradX, "gradX", workspaceSize, executor);
}

/* Dropout in training: the mask into maskOut, then out = input * mask / (1 - p): two kernels. */
static aclnnStatus dropout_chain(const char *api, const char *gws, const aclTensor *input, double p, uint64_t seed,
                                 uint64_t offset, const aclTensor *out, const aclTensor *maskOut,
                                 uint64_t *workspaceSize, aclOpExecutor **executor)
{
    int rc;
    if (!dv_acl_tensor_get(input, gws, "input", &rc))
        return rc;
    if (!(p >= 0 && p <= 1))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: p %g is not in [0, 1]", gws, p);
    aclOpExecutor *head = NULL, *e = NULL;
    uint64_t w1 = 0, w2 = 0;
    if ((rc = mask_call(api, gws, dv_acl_tensor_elems(input), p, seed, offset, maskOut, "maskOut", &w1, &head)))
        return rc;
    if ((rc = apply_call(api, gws, input, "input", maskOut, "maskOut", p < 1 ? 1 / (1 - p) : 0, out, "out", &w2,
                         &e))) {
        dv_acl_executor_free(head);
        return rc;
    }
    head->next = e;
    *workspaceSize = w1 + w2;
    *executor = head;
    return ACL_SUCCESS;
}

aclnnStatus aclnnDropoutV3GetWorkspaceSize(const aclTensor *input, const aclTensor *optionalNoiseShape, double p,
                                           int64_t seed, int64_t offset, aclTensor *out, aclTensor *maskOut,
                                           uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    const char *gws = "aclnnDropoutV3GetWorkspaceSize";
    if (optionalNoiseShape)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: optionalNoiseShape is not supported by dvsim (pass NULL: "
                           "one mask bit per element)", gws);
    return dropout_chain("aclnnDropoutV3", gws, input, p, (uint64_t)seed, (uint64_t)offset, out, maskOut,
                         workspaceSize, executor);
}

aclnnStatus aclnnDropoutGetWorkspaceSize(const aclTensor *input, double p, bool train, int64_t seed, int64_t offset,
                                         aclTensor *out, aclTensor *maskOut, uint64_t *workspaceSize,
                                         aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    const char *gws = "aclnnDropoutGetWorkspaceSize";
    /* evaluation: nothing is dropped (p 0: every mask bit 1, the scale 1) */
    return dropout_chain("aclnnDropout", gws, input, train ? p : 0, (uint64_t)seed, (uint64_t)offset, out, maskOut,
                         workspaceSize, executor);
}
