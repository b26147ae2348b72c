/* acl/nnreduce.c - the first phases of the aclnn reductions and scans (acl/nnops.def, section
 * "reductions"): ReduceSum, Mean, MeanV2, Amax, Amin, Max, Min, Prod, ProdDim, Var, VarCorrection,
 * Std and LogSumExp onto the library's reduce_* operators (ops/colnorm.c), which reduce up to two runs of
 * adjacent axes.  The dims are checked as CANN checks them (each in [-ndims, ndims), none twice; an empty
 * list reduces every axis, but MeanV2 with noopWithEmptyAxes, which copies); out must have the
 * reduced shape, with the reduced axes kept as 1 when keepdim, and, for the reductions with a
 * dtype argument, that dtype (self's, or ACL_FLOAT from ACL_FLOAT16).  Cumsum and CumsumV2 (exclusive,
 * reverse) onto the library's cumsum along one dim, out in self's dtype.  (s20-norm2) ReduceNansum
 * (reduce_nansum, a dtype argument as ReduceSum's), ReduceLogSum (reduce_logsum; noopWithEmptyAxes with
 * no axes is MeanV2's copy, not run), VarMean and StdMeanCorrection (reduce_var_mean: the variance or
 * standard deviation and the mean, meanOut of out's shape and dtype); BatchNormStats (reduce_var_mean
 * --rstd over every axis but 1, correction 0: invstd = 1 / sqrt(var + eps) and mean, 1-D of C in
 * ACL_FLOAT); BatchNormReduce (reduce_sum_square over every axis but 1: sum and squareSum, 1-D of C in
 * ACL_FLOAT). */
#include "nn.h"

#include "dv/ops.h"

#include <stdio.h>
#include <string.h>

#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_batch_norm_reduce.h"
#include "aclnnop/aclnn_batch_norm_stats.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_min.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_reduce_log_sum.h"
#include "aclnnop/aclnn_reduce_nansum.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_std.h"
#include "aclnnop/aclnn_std_mean_correction.h"
#include "aclnnop/aclnn_var.h"
#include "aclnnop/aclnn_var_mean.h"

/* What one reduction asks of the library besides the axes. */
typedef struct rd_args {
    const aclIntArray *dims; /* NULL: every axis (Max, Min, Prod) */
    const int64_t *dim1;     /* one dim (ProdDim), instead of dims */
    bool keepdim, has_dtype;
    aclDataType dtype;       /* has_dtype: out's dtype as the call gives it */
    int64_t correction;      /* Var, Std: -1 for the others */
    bool sqrt;               /* Std */
    const char *out_what;    /* out's parameter name (NULL: "out") */
    bool with_mean;          /* VarMean, StdMeanCorrection: meanOut as well */
    aclTensor *mean;
    const int64_t *list;     /* BatchNormStats: the dims as a plain list of nlist (instead of dims) */
    uint64_t nlist;
    bool rstd;               /* BatchNormStats: out = 1 / sqrt(var + eps) */
    double eps;
    const char *mean_what;   /* the mean output's parameter name (NULL: "meanOut") */
} rd_args_t;

static aclnnStatus channel_stats(const char *gws, const aclTensor *input, const char *wi, aclTensor *a,
                                 const char *wa, aclTensor *b, const char *wb);

static aclnnStatus reduce(const char *api, const aclTensor *self, aclTensor *out, const rd_args_t *a,
                          uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    const char *ow = a->out_what ? a->out_what : "out", *mw = a->mean_what ? a->mean_what : "meanOut";
    dv_nn_call_init_row(&c, api);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, self, "self")) ||
        (rc = dv_nn_get_tensor(&c, out, ow)) || (a->with_mean && (rc = dv_nn_get_tensor(&c, a->mean, mw))))
        return rc;
    if ((rc = dv_nn_check_dtype(&c, self, "self", "dtype")) || (rc = dv_nn_check_plain(&c, self, "self")) ||
        (rc = dv_nn_check_plain(&c, out, ow)) || (a->with_mean && (rc = dv_nn_check_plain(&c, a->mean, mw))))
        return rc;
    if (a->with_mean && ((rc = dv_nn_check_same_shape(&c, out, ow, a->mean, mw, "")) ||
                    (rc = dv_nn_check_same_dtype(&c, out, ow, a->mean, mw))))
        return rc;
    const int nd = self->ndims;
    if (nd > DV_SHAPE_MAX)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: self has %d dimensions; dvsim's reductions take at most %d",
                           c.gws, nd, DV_SHAPE_MAX);
    /* the reduced axes, as a mask */
    unsigned mask = 0;
    uint64_t nlist = 0;
    const int64_t *list = NULL;
    if (a->dim1) {
        list = a->dim1;
        nlist = 1;
    } else if (a->list) {
        list = a->list;
        nlist = a->nlist;
    } else if (a->dims) {
        if (!dv_acl_handle_is(a->dims, DV_ACL_MAGIC_INT_ARRAY))
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dim is not a live aclIntArray", c.gws);
        list = a->dims->v;
        nlist = a->dims->size;
    }
    const int span = nd ? nd : 1; /* a 0-d tensor: its one element, as axis 0 */
    for (uint64_t i = 0; i < nlist; i++) {
        const int64_t d = list[i] < 0 ? list[i] + span : list[i];
        if (d < 0 || d >= span)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dim %lld is out of range for self's %d dimensions "
                               "([%d, %d])", c.gws, (long long)list[i], nd, -span, span - 1);
        if (mask >> d & 1)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dim %lld appears twice", c.gws, (long long)list[i]);
        mask |= 1u << d;
    }
    if (nlist == 0)
        mask = (1u << span) - 1;
    int runs = 0; /* runs of adjacent reduced axes: the library takes two */
    for (int d = 0; d < span; d++)
        runs += (mask >> d & 1) && (d == 0 || !(mask >> (d - 1) & 1));
    if (runs > 2) {
        char dl[96];
        size_t used = 0;
        dl[0] = '\0';
        for (int d = 0; d < span; d++)
            if (mask >> d & 1)
                used += (size_t)snprintf(dl + used, used < sizeof dl ? sizeof dl - used : 0, "%s%d", used ? ", " : "", d);
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dims (%s) are %d runs of adjacent axes; dvsim's reductions "
                           "take at most two", c.gws, dl, runs);
    }
    /* out: self's shape without the reduced axes (keepdim: as 1) */
    int64_t want[DV_SHAPE_MAX];
    int wn = 0;
    for (int d = 0; d < nd; d++)
        if (!(mask >> d & 1))
            want[wn++] = self->dims[d];
        else if (a->keepdim)
            want[wn++] = 1;
    bool same = out->ndims == wn || (wn == 0 && out->ndims == 1 && out->dims[0] == 1);
    for (int d = 0; same && d < wn && out->ndims == wn; d++)
        same = out->dims[d] == want[d];
    if (!same) {
        char so[128], sw[128] = "";
        size_t used = 0;
        dv_acl_dims_str(out, so, sizeof so);
        for (int d = 0; d < wn; d++)
            used += (size_t)snprintf(sw + used, sizeof sw - used, "%s%lld", d ? "," : "", (long long)want[d]);
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape [%s]; the reduction of self%s gives [%s]",
                           c.gws, ow, so, a->keepdim ? " with keepdim" : "", sw);
    }
    /* out's dtype */
    const bool widen = out->dtype == ACL_FLOAT && self->dtype == ACL_FLOAT16;
    if (a->has_dtype && a->dtype != out->dtype)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dtype is %s but %s has %s", c.gws,
                           dv_nn_dtype_name(a->dtype), ow, dv_nn_dtype_name(out->dtype));
    if (out->dtype != self->dtype && !(a->has_dtype && widen))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s, self %s; dvsim's %s gives self's dtype%s",
                           c.gws, ow, dv_nn_dtype_name(out->dtype), dv_nn_dtype_name(self->dtype), c.op,
                           a->has_dtype ? " or ACL_FLOAT from ACL_FLOAT16" : "");
    if (a->correction >= 0) {
        uint64_t n = 1;
        for (int d = 0; d < nd; d++)
            if (mask >> d & 1)
                n *= (uint64_t)self->dims[d];
        if ((uint64_t)a->correction >= n && n > 0)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: correction %lld leaves no divisor for %llu reduced "
                               "elements", c.gws, (long long)a->correction, (unsigned long long)n);
    }
    c.empty = dv_acl_tensor_elems(self) == 0;
    char shape[DV_SHAPE_MAX * 21] = "1";
    size_t used = 0;
    for (int i = 0; i < nd; i++)
        used += (size_t)snprintf(shape + used, sizeof shape - used, "%s%lld", i ? "x" : "", (long long)self->dims[i]);
    dv_nn_call_param(&c, "shape", "%s", shape);
    dv_nn_call_param(&c, "axes", "%u", mask);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    if (out->dtype != self->dtype)
        dv_nn_call_param(&c, "out-dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(out->dtype)->dv));
    if (a->correction >= 0)
        dv_nn_call_param(&c, "correction", "%lld", (long long)a->correction);
    if (a->sqrt)
        dv_nn_call_param(&c, "sqrt", "on");
    if (a->rstd) {
        dv_nn_call_param(&c, "rstd", "on");
        dv_nn_call_param(&c, "eps", "%.17g", a->eps);
    }
    dv_nn_call_tensor(&c, self, "self", "x", true);
    dv_nn_call_tensor(&c, out, ow, "y", false);
    if (a->with_mean)
        dv_nn_call_tensor(&c, a->mean, mw, "m", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor *self, const aclIntArray *dims, bool keepDims,
                                           aclDataType dtype, aclTensor *out, uint64_t *workspaceSize,
                                           aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (!dims)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "aclnnReduceSumGetWorkspaceSize: dims is NULL");
    rd_args_t a = {.dims = dims, .keepdim = keepDims, .has_dtype = true, .dtype = dtype, .correction = -1};
    return reduce("aclnnReduceSum", self, out, &a, workspaceSize, executor);
}

aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim, aclDataType dtype,
                                      aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (!dim)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "aclnnMeanGetWorkspaceSize: dim is NULL");
    rd_args_t a = {.dims = dim, .keepdim = keepDim, .has_dtype = true, .dtype = dtype, .correction = -1};
    return reduce("aclnnMean", self, out, &a, workspaceSize, executor);
}

aclnnStatus aclnnMeanV2GetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim,
                                        bool noopWithEmptyAxes, aclTensor *out, uint64_t *workspaceSize,
                                        aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (noopWithEmptyAxes && (!dim || dim->size == 0))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "aclnnMeanV2GetWorkspaceSize: noopWithEmptyAxes with no axes is "
                           "a copy, which dvsim's MeanV2 does not run: pass the axes");
    rd_args_t a = {.dims = dim, .keepdim = keepDim, .correction = -1};
    return reduce("aclnnMeanV2", self, out, &a, workspaceSize, executor);
}

aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim, aclTensor *out,
                                      uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (!dim)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "aclnnAmaxGetWorkspaceSize: dim is NULL");
    rd_args_t a = {.dims = dim, .keepdim = keepDim, .correction = -1};
    return reduce("aclnnAmax", self, out, &a, workspaceSize, executor);
}

aclnnStatus aclnnAminGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim, aclTensor *out,
                                      uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (!dim)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "aclnnAminGetWorkspaceSize: dim is NULL");
    rd_args_t a = {.dims = dim, .keepdim = keepDim, .correction = -1};
    return reduce("aclnnAmin", self, out, &a, workspaceSize, executor);
}

aclnnStatus aclnnMaxGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                     aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    rd_args_t a = {.correction = -1};
    return reduce("aclnnMax", self, out, &a, workspaceSize, executor);
}

aclnnStatus aclnnMinGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                     aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    rd_args_t a = {.correction = -1};
    return reduce("aclnnMin", self, out, &a, workspaceSize, executor);
}

aclnnStatus aclnnProdGetWorkspaceSize(const aclTensor *self, const aclDataType dtype, aclTensor *out,
                                      uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    rd_args_t a = {.has_dtype = true, .dtype = dtype, .correction = -1};
    return reduce("aclnnProd", self, out, &a, workspaceSize, executor);
}

aclnnStatus aclnnProdDimGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepDim, const aclDataType dtype,
                                         aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    rd_args_t a = {.dim1 = &dim, .keepdim = keepDim, .has_dtype = true, .dtype = dtype, .correction = -1};
    return reduce("aclnnProdDim", self, out, &a, workspaceSize, executor);
}

aclnnStatus aclnnVarGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool unbiased, bool keepdim,
                                     aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    rd_args_t a = {.dims = dim, .keepdim = keepdim, .correction = unbiased ? 1 : 0};
    return reduce("aclnnVar", self, out, &a, workspaceSize, executor);
}

aclnnStatus aclnnVarCorrectionGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, int64_t correction,
                                               bool keepdim, aclTensor *out, uint64_t *workspaceSize,
                                               aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (correction < 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "aclnnVarCorrectionGetWorkspaceSize: correction %lld is negative",
                           (long long)correction);
    rd_args_t a = {.dims = dim, .keepdim = keepdim, .correction = correction};
    return reduce("aclnnVarCorrection", self, out, &a, workspaceSize, executor);
}

aclnnStatus aclnnStdGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, const int64_t correction,
                                     bool keepdim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (correction < 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "aclnnStdGetWorkspaceSize: correction %lld is negative",
                           (long long)correction);
    rd_args_t a = {.dims = dim, .keepdim = keepdim, .correction = correction, .sqrt = true};
    return reduce("aclnnStd", self, out, &a, workspaceSize, executor);
}

aclnnStatus aclnnLogSumExpGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim,
                                           aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (!dim)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "aclnnLogSumExpGetWorkspaceSize: dim is NULL");
    rd_args_t a = {.dims = dim, .keepdim = keepDim, .correction = -1};
    return reduce("aclnnLogSumExp", self, out, &a, workspaceSize, executor);
}

/* (s20-norm2) */
aclnnStatus aclnnReduceNansumGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim,
                                              aclDataType dtype, aclTensor *out, uint64_t *workspaceSize,
                                              aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (!dim)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "aclnnReduceNansumGetWorkspaceSize: dim is NULL");
    rd_args_t a = {.dims = dim, .keepdim = keepDim, .has_dtype = true, .dtype = dtype, .correction = -1};
    return reduce("aclnnReduceNansum", self, out, &a, workspaceSize, executor);
}

aclnnStatus aclnnReduceLogSumGetWorkspaceSize(const aclTensor *data, const aclIntArray *axes, bool keepDims,
                                              bool noopWithEmptyAxes, aclTensor *reduce_, uint64_t *workspaceSize,
                                              aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (noopWithEmptyAxes && (!axes || axes->size == 0))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "aclnnReduceLogSumGetWorkspaceSize: noopWithEmptyAxes with no "
                           "axes is a copy, which dvsim's ReduceLogSum does not run: pass the axes");
    rd_args_t a = {.dims = axes, .keepdim = keepDims, .correction = -1, .out_what = "reduce"};
    return reduce("aclnnReduceLogSum", data, reduce_, &a, workspaceSize, executor);
}

aclnnStatus aclnnVarMeanGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, int64_t correction,
                                         bool keepdim, aclTensor *varOut, aclTensor *meanOut, uint64_t *workspaceSize,
                                         aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (correction < 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "aclnnVarMeanGetWorkspaceSize: correction %lld is negative",
                           (long long)correction);
    rd_args_t a = {.dims = dim, .keepdim = keepdim, .correction = correction, .out_what = "varOut", .with_mean = true,
                   .mean = meanOut};
    return reduce("aclnnVarMean", self, varOut, &a, workspaceSize, executor);
}

aclnnStatus aclnnStdMeanCorrectionGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, int64_t correction,
                                                   bool keepdim, aclTensor *stdOut, aclTensor *meanOut,
                                                   uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    if (correction < 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "aclnnStdMeanCorrectionGetWorkspaceSize: correction %lld is "
                           "negative", (long long)correction);
    rd_args_t a = {.dims = dim, .keepdim = keepdim, .correction = correction, .sqrt = true, .out_what = "stdOut",
                   .with_mean = true,
                   .mean = meanOut};
    return reduce("aclnnStdMeanCorrection", self, stdOut, &a, workspaceSize, executor);
}

aclnnStatus aclnnBatchNormStatsGetWorkspaceSize(const aclTensor *input, double eps, aclTensor *mean,
                                                aclTensor *invstd, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    aclnnStatus rc = channel_stats("aclnnBatchNormStatsGetWorkspaceSize", input, "input", mean, "mean", invstd, "invstd");
    if (rc)
        return rc;
    if (!(eps >= 0))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "aclnnBatchNormStatsGetWorkspaceSize: eps is %g; it is >= 0", eps);
    int64_t axes[DV_SHAPE_MAX];
    uint64_t na = 0;
    for (int d = 0; d < input->ndims; d++)
        if (d != 1)
            axes[na++] = d;
    rd_args_t a = {.list = axes, .nlist = na, .has_dtype = true, .dtype = ACL_FLOAT, .correction = 0,
                   .out_what = "invstd", .with_mean = true, .mean = mean, .mean_what = "mean", .rstd = true, .eps = eps};
    return reduce("aclnnBatchNormStats", input, invstd, &a, workspaceSize, executor);
}

/* The statistics reductions of BatchNormStats and BatchNormReduce: every axis of input but 1, into two
 * ACL_FLOAT vectors of C. */
static aclnnStatus channel_stats(const char *gws, const aclTensor *input, const char *wi, aclTensor *a,
                                 const char *wa, aclTensor *b, const char *wb)
{
    if (!input || !a || !b)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", gws, !input ? wi : !a ? wa : wb);
    if (!dv_acl_handle_is(input, DV_ACL_MAGIC_TENSOR))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is not a live aclTensor", gws, wi);
    if (input->ndims < 2 || input->ndims > DV_SHAPE_MAX)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %d dimensions; it is N x C x ... (2 to %d)", gws, wi,
                           input->ndims, DV_SHAPE_MAX);
    for (int i = 0; i < 2; i++) {
        const aclTensor *o = i ? b : a;
        if (dv_acl_handle_is(o, DV_ACL_MAGIC_TENSOR) && o->dtype != ACL_FLOAT)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s; it is ACL_FLOAT", gws, i ? wb : wa,
                               dv_nn_dtype_name(o->dtype));
    }
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnBatchNormReduceGetWorkspaceSize(const aclTensor *x, aclTensor *sum, aclTensor *squareSum,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    aclnnStatus rc = channel_stats("aclnnBatchNormReduceGetWorkspaceSize", x, "x", sum, "sum", squareSum, "squareSum");
    if (rc)
        return rc;
    int64_t axes[DV_SHAPE_MAX];
    uint64_t na = 0;
    for (int d = 0; d < x->ndims; d++)
        if (d != 1)
            axes[na++] = d;
    rd_args_t a = {.list = axes, .nlist = na, .has_dtype = true, .dtype = ACL_FLOAT, .correction = -1,
                   .out_what = "squareSum", .with_mean = true, .mean = sum, .mean_what = "sum"};
    return reduce("aclnnBatchNormReduce", x, squareSum, &a, workspaceSize, executor);
}

/* ---------------------------------------------------------------- cumsum (a scan along one dim) */

static aclnnStatus cumsum(const char *api, const aclTensor *self, int64_t dim, bool exclusive, bool reverse,
                          const aclDataType *dtype, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    dv_nn_call_t c;
    int rc;
    dv_nn_call_init_row(&c, api);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, self, "self")) ||
        (rc = dv_nn_get_tensor(&c, out, "out")))
        return rc;
    if ((rc = dv_nn_check_dtype(&c, self, "self", "dtype")) || (rc = dv_nn_check_plain(&c, self, "self")) ||
        (rc = dv_nn_check_plain(&c, out, "out")) || (rc = dv_nn_check_same_shape(&c, self, "self", out, "out", "")))
        return rc;
    if (dtype && *dtype != out->dtype)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dtype is %s but out has %s", c.gws, dv_nn_dtype_name(*dtype),
                           dv_nn_dtype_name(out->dtype));
    if ((rc = dv_nn_check_same_dtype(&c, self, "self", out, "out")))
        return rc;
    const int64_t nd = self->ndims ? self->ndims : 1;
    if (dim < -nd || dim >= nd)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dim is %lld; self has %lld dimensions (dim in [%lld, %lld])",
                           c.gws, (long long)dim, (long long)nd, (long long)-nd, (long long)(nd - 1));
    if (self->ndims > DV_SHAPE_MAX)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: self has %d dimensions; dvsim's cumsum takes at most %d",
                           c.gws, self->ndims, DV_SHAPE_MAX);
    c.empty = dv_acl_tensor_elems(self) == 0;
    char shape[DV_SHAPE_MAX * 21] = "1";
    size_t used = 0;
    for (int i = 0; i < self->ndims; i++)
        used += (size_t)snprintf(shape + used, sizeof shape - used, "%s%lld", i ? "x" : "", (long long)self->dims[i]);
    dv_nn_call_param(&c, "shape", "%s", shape);
    dv_nn_call_param(&c, "dim", "%lld", (long long)(dim < 0 ? dim + nd : dim));
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    if (exclusive)
        dv_nn_call_param(&c, "exclusive", "on");
    if (reverse)
        dv_nn_call_param(&c, "reverse", "on");
    dv_nn_call_tensor(&c, self, "self", "x", true);
    dv_nn_call_tensor(&c, out, "out", "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor *self, int64_t dim, aclDataType dtype, aclTensor *out,
                                        uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return cumsum("aclnnCumsum", self, dim, false, false, &dtype, out, workspaceSize, executor);
}

aclnnStatus aclnnCumsumV2GetWorkspaceSize(const aclTensor *self, int64_t dim, bool exclusive, bool reverse,
                                          aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return cumsum("aclnnCumsumV2", self, dim, exclusive, reverse, NULL, out, workspaceSize, executor);
}
