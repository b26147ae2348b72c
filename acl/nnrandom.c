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
