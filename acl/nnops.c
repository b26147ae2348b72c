/* acl/nnops.c - the aclnn operators, each a thin front for one operator of the library (dv/ops.h):
 *
 *   aclnnXxxGetWorkspaceSize  1. device set?  2. NULL arguments (161001)  3. shapes, dtypes, formats
 *                             (161002, naming the tensor)  4. the library's parameters, as `dvsim op`
 *                             spells them, parsed and planned now so that every plan error (a tile
 *                             that does not fit, HBM capacity) is reported here  5. the executor: the
 *                             parsed values, the tensors' views, the workspace size
 *   aclnnXxx                  1. the executor and its tensors' addresses  2. the plan made again and
 *                             the workspace it needs  3. its kernel built and queued on the stream as a
 *                             launch (dv_acl_enqueue_launch); the executor released unless repeatable
 *
 * Library arguments that are no user tensor (conv2d's layout-transform buffers on 910B, a layernorm
 * statistic nobody asked for) live in the workspace, each at a 512-byte boundary.  User tensors are
 * staged: the launch gathers each view into a contiguous argument, so any strides and offsets work.
 * The executor keeps copies of the views: changing a tensor after the first phase does not change the
 * executor (aclSetInputTensorAddr / aclSetOutputTensorAddr rebind its addresses).  The steps every
 * operator shares (the call, its checks, the executor) are in nncall.c. */
#include "nn.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_ge_scalar.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_le_scalar.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_lt_scalar.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_hardtanh.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_tanh.h"
/* the reductions (their first phases: acl/nnreduce.c; the second phases are generated below) */
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_linspace.h"
#include "aclnnop/aclnn_ones.h"
#include "aclnnop/aclnn_range.h"
#include "aclnnop/aclnn_zero.h"
#include "aclnnop/aclnn_acosh.h"
#include "aclnnop/aclnn_asinh.h"
#include "aclnnop/aclnn_atanh.h"
#include "aclnnop/aclnn_celu.h"
#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_cosh.h"
#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_erfc.h"
#include "aclnnop/aclnn_exp2.h"
#include "aclnnop/aclnn_expm1.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_log10.h"
#include "aclnnop/aclnn_log1p.h"
#include "aclnnop/aclnn_log2.h"
#include "aclnnop/aclnn_logsigmoid.h"
#include "aclnnop/aclnn_mish.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_selu.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_sinh.h"
#include "aclnnop/aclnn_softshrink.h"
#include "aclnnop/aclnn_softsign.h"
#include "aclnnop/aclnn_square.h"
#include "aclnnop/aclnn_trunc.h"
#include "aclnnop/aclnn_l1_loss.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_soft_margin_loss.h"
#include "aclnnop/aclnn_floor_divide.h"
#include "aclnnop/aclnn_fmod_scalar.h"
#include "aclnnop/aclnn_fmod_tensor.h"
#include "aclnnop/aclnn_remainder.h"
#include "aclnnop/aclnn_bernoulli.h"
#include "aclnnop/aclnn_normal.h"
#include "aclnnop/aclnn_normal_out.h"
#include "aclnnop/aclnn_random.h"
#include "aclnnop/aclnn_uniform.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_min.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_std.h"
#include "aclnnop/aclnn_var.h"
#include "aclnnop/aclnn_hardshrink.h"
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "aclnnop/aclnn_selu_backward.h"
#include "aclnnop/aclnn_sigmoid_backward.h"
#include "aclnnop/aclnn_silu_backward.h"
#include "aclnnop/aclnn_softshrink_backward.h"
#include "aclnnop/aclnn_tanh_backward.h"
#include "aclnnop/aclnn_threshold_backward.h"
/* s20-ew2 */
#include "aclnnop/aclnn_tan.h"
#include "aclnnop/aclnn_asin.h"
#include "aclnnop/aclnn_acos.h"
#include "aclnnop/aclnn_atan.h"
#include "aclnnop/aclnn_atan2.h"
#include "aclnnop/aclnn_sinc.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_fast_gelu.h"
#include "aclnnop/aclnn_swish.h"
#include "aclnnop/aclnn_swish_backward.h"
#include "aclnnop/aclnn_gelu_backward.h"
#include "aclnnop/aclnn_hardswish_backward.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "aclnnop/aclnn_logsigmoid_backward.h"
#include "aclnnop/aclnn_leaky_relu_backward.h"
#include "aclnnop/aclnn_threshold.h"
#include "aclnnop/aclnn_hardtanh_backward.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "aclnnop/aclnn_logaddexp.h"
#include "aclnnop/aclnn_logaddexp2.h"
#include "aclnnop/aclnn_x_log_y_tensor.h"
#include "aclnnop/aclnn_heaviside.h"
#include "aclnnop/aclnn_tan_v2.h"
#include "aclnnop/aclnn_tan_v3.h"
#include "aclnnop/aclnn_acos_v2.h"
#include "aclnnop/aclnn_elu_v2.h"
#include "aclnnop/aclnn_addcmul.h"
#include "aclnnop/aclnn_addcdiv.h"
#include "aclnnop/aclnn_x_log_y_scalar_other.h"
#include "aclnnop/aclnn_x_log_y_scalar_self.h"
#include "aclnnop/aclnn_erfinv.h"
#include "aclnnop/aclnn_erf_inv.h"
#include "aclnnop/aclnn_celu_v2.h"
#include "aclnnop/aclnn_celu_v3.h"
#include "aclnnop/aclnn_hardsigmoid_v2.h"
#include "aclnnop/aclnn_hard_swish_v2.h"
#include "aclnnop/aclnn_leakyrelu_v2.h"
#include "aclnnop/aclnn_logsigmoid_v2.h"
#include "aclnnop/aclnn_softsign_backward.h"
#include "aclnnop/aclnn_tanh_grad.h"
#include "aclnnop/aclnn_hard_shrink.h"
#include "aclnnop/aclnn_hard_shrink_grad.h"
#include "aclnnop/aclnn_hard_sigmoid_grad_v2.h"
#include "aclnnop/aclnn_lerp_tensor.h"
#include "aclnnop/aclnn_lerp_scalar.h"
#include "aclnnop/aclnn_asin_grad.h"
#include "aclnnop/aclnn_acos_grad.h"
#include "aclnnop/aclnn_acos_grad_v2.h"
#include "aclnnop/aclnn_acosh_grad.h"
#include "aclnnop/aclnn_asinh_grad.h"
#include "aclnnop/aclnn_rsqrt_grad.h"
#include "aclnnop/aclnn_sqrt_backward.h"
#include "aclnnop/aclnn_asinh_v2.h"
#include "aclnnop/aclnn_ceil_v2.h"
#include "aclnnop/aclnn_cosh_v2.h"
#include "aclnnop/aclnn_sinh_v2.h"
#include "aclnnop/aclnn_square_v2.h"
#include "aclnnop/aclnn_trunc_v2.h"
#include "aclnnop/aclnn_log1p_v2.h"
#include "aclnnop/aclnn_inv.h"
#include "aclnnop/aclnn_add_relu.h"
#include "aclnnop/aclnn_elu_backward.h"
#include "aclnnop/aclnn_elu_grad.h"

/* ---------------------------------------------------------------- the table (acl/nnops.def) */

/* One row of the table, as the first phases use it. */
typedef struct nn_row {
    const char *api, *gws, *libop, *optype;
    double factor;
} nn_row_t;

enum {
#define DV_ACLNN(api, header, sig, libop, optype, factor, params, ws_q, stream_q, doc) NN_ROW_##api,
#include "nnops.def"
    NN_ROWS
};

static const nn_row_t nn_rows[NN_ROWS] = {
#define DV_ACLNN(api, header, sig, libop, optype, factor, params, ws_q, stream_q, doc) \
    [NN_ROW_##api] = {"aclnn" #api, "aclnn" #api "GetWorkspaceSize", #libop, optype, factor},
#include "nnops.def"
};

/* Start the call of a row. */
static void nn_init(dv_nn_call_t *c, int row)
{
    const nn_row_t *r = &nn_rows[row];
    dv_nn_call_init(c, r->api, r->gws, r->libop, r->optype);
}

void dv_nn_call_init_row(dv_nn_call_t *c, const char *api)
{
    for (int r = 0; r < NN_ROWS; r++)
        if (strcmp(nn_rows[r].api, api) == 0) {
            nn_init(c, r);
            return;
        }
    dv_nn_call_init(c, api, api, "", ""); /* never: every caller names a row of the table */
}

/* ---------------------------------------------------------------- element-wise */

/* An aclScalar argument: live, or 161001 (NULL) / 161002 (not a scalar). */
static int get_scalar(const dv_nn_call_t *c, const aclScalar *s, const char *what)
{
    if (!s)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", c->gws, what);
    if (!dv_acl_handle_is(s, DV_ACL_MAGIC_SCALAR))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is not a live aclScalar", c->gws, what);
    return ACLNN_SUCCESS;
}

/* The element-wise rows: out = f(self[, other | scalar]) with alpha scaling other (or the scalar).
 * `inplace`: out is self (selfRef).  Every tensor has the same shape and dtype; the library works on
 * the flattened element count as --shape.  The scalar classes pass factor * scalar * alpha as the
 * library's --scalar; the tensor classes pass alpha as --alpha (when it is not 1). */
enum { NN_OTHER = 1, NN_ALPHA = 2, NN_INPLACE = 4 }; /* the class's arguments */

/* The tensors of a live element-wise call: plain formats; other broadcasts with self and their
 * dtypes promote (acl/nnbcast.c) into *bs (shape and compute dtype), which must be one the library
 * operator takes and out's (in place: selfRef's shape, so only other broadcasts; a promotion to a
 * wider type of selfRef's category is computed in selfRef's dtype). */
static int ew_check(dv_nn_call_t *c, unsigned has, const aclTensor *self, const aclTensor *other, const aclTensor *out,
                    struct aclTensor *bs, aclDataType promote_to)
{
    const bool inplace = has & NN_INPLACE;
    const char *ws = inplace ? "selfRef" : "self";
    int rc;
    if ((rc = dv_nn_check_plain(c, self, ws)))
        return rc;
    *bs = *self;
    if ((has & NN_OTHER) && ((rc = dv_nn_check_plain(c, other, "other")) ||
                             (rc = dv_nn_bcast_shape(c, self, ws, other, "other", bs)) ||
                             (rc = dv_nn_promote(c, self, ws, other, "other", &bs->dtype))))
        return rc;
    if (promote_to != ACL_DT_UNDEFINED)
        bs->dtype = promote_to;
    const char *on = other ? dv_nn_dtype_name(other->dtype) : "a floating-point scalar";
    if (inplace && bs->dtype != self->dtype) {
        if (dv_nn_dtype_category(bs->dtype) != dv_nn_dtype_category(self->dtype))
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: selfRef has dtype %s and other %s: their result type %s "
                               "cannot be written to selfRef", c->gws, dv_nn_dtype_name(self->dtype), on,
                               dv_nn_dtype_name(bs->dtype));
        bs->dtype = self->dtype;
    }
    const bool promoted = bs->dtype != self->dtype;
    if ((rc = dv_nn_check_dtype(c, bs, promoted ? "the promotion of self and other" : ws, "dtype")))
        return rc;
    if (inplace &&
        (rc = dv_nn_check_same_shape(c, bs, "the broadcast of selfRef and other", self, ws,
                                     "; in place, only other may broadcast")))
        return rc;
    if (!inplace && ((rc = dv_nn_check_plain(c, out, "out")) ||
                     (rc = dv_nn_check_same_shape(c, bs, (has & NN_OTHER) ? "the broadcast of self and other" : ws,
                                                  out, "out", ""))))
        return rc;
    if (inplace || out->dtype == bs->dtype)
        return ACLNN_SUCCESS;
    if (bs->dtype != self->dtype || ((has & NN_OTHER) && other->dtype != self->dtype))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: out has dtype %s but self (%s) and other (%s) promote to %s",
                           c->gws, dv_nn_dtype_name(out->dtype), dv_nn_dtype_name(self->dtype), on,
                           dv_nn_dtype_name(bs->dtype));
    return dv_nn_check_same_dtype(c, self, ws, out, "out");
}

/* The executor of a checked element-wise call: the flattened element count of the broadcast shape
 * bs as --shape, after the expands of the operands that are not that shape. */
static int ew_build(dv_nn_call_t *c, unsigned has, const aclTensor *self, const aclTensor *other,
                    const aclTensor *out, const struct aclTensor *bs, uint64_t *workspaceSize,
                    aclOpExecutor **executor)
{
    const bool inplace = has & NN_INPLACE;
    const char *ws = inplace ? "selfRef" : "self";
    const dv_acl_dtype_info_t *d = dv_acl_dtype_info(bs->dtype);
    uint64_t n = dv_acl_tensor_elems(bs);
    dv_nn_bcast_t bc = {0};
    int rc;
    c->empty = n == 0;
    dv_nn_call_param(c, "shape", "%llu", (unsigned long long)n);
    dv_nn_call_param(c, "dtype", "%s", dv_nn_param_dtype_name(d->dv));
    if ((has & NN_OTHER) && (rc = dv_nn_bcast_bias(c, self, ws, other, inplace ? self : out, inplace ? ws : "out",
                                                   workspaceSize, executor)) != DV_NN_NO_BIAS)
        return rc;
    if ((rc = dv_nn_bcast_input(c, &bc, self, ws, "x", bs, bs->dtype)))
        return rc;
    if ((has & NN_OTHER) && (rc = dv_nn_bcast_input(c, &bc, other, "other", "y", bs, bs->dtype)))
        return rc;
    dv_nn_call_tensor(c, inplace ? self : out, inplace ? ws : "out", (has & NN_OTHER) ? "z" : "y", false);
    return dv_nn_bcast_build(c, &bc, workspaceSize, executor);
}

static int elementwise(int row, unsigned has, const aclTensor *self, const aclTensor *other, const aclScalar *scalar,
                       const char *scalar_what, const aclScalar *alpha, const aclTensor *out,
                       uint64_t *workspaceSize, aclOpExecutor **executor)
{
    const bool inplace = has & NN_INPLACE;
    dv_nn_call_t call, *c = &call;
    struct aclTensor bs;
    int rc;
    nn_init(c, row);
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) ||
        (rc = dv_nn_get_tensor(c, self, inplace ? "selfRef" : "self")) ||
        ((has & NN_OTHER) && (rc = dv_nn_get_tensor(c, other, "other"))) ||
        (scalar_what && (rc = get_scalar(c, scalar, scalar_what))) ||
        ((has & NN_ALPHA) && (rc = get_scalar(c, alpha, "alpha"))) ||
        (!inplace && (rc = dv_nn_get_tensor(c, out, "out"))))
        return rc;
    /* a floating-point other of an integer (or bool) tensor: computed in fp32, torch's default dtype */
    const aclDataType promote_to = scalar_what && strcmp(scalar_what, "other") == 0 &&
                                           dv_nn_dtype_category(scalar->dtype) == 2 &&
                                           dv_nn_dtype_category(self->dtype) >= 0 &&
                                           dv_nn_dtype_category(self->dtype) < 2
                                       ? ACL_FLOAT
                                       : ACL_DT_UNDEFINED;
    if ((rc = ew_check(c, has, self, other, out, &bs, promote_to)))
        return rc;
    if (scalar_what)
        dv_nn_call_param(c, "scalar", "%.17g", nn_rows[row].factor * scalar->value * (alpha ? alpha->value : 1.0));
    else if ((has & NN_ALPHA) && (rc = dv_nn_float_param(c, "alpha", alpha->value, 1.0, "alpha")))
        return rc;
    return ew_build(c, has, self, other, out, &bs, workspaceSize, executor);
}

/* Clamp and Hardtanh: out = min(max(self, clipValueMin), clipValueMax), the library's clamp.  Either
 * bound may be NULL (not both): it is then the dtype's lowest or highest finite value. */
static int clamp(int row, unsigned has, const aclTensor *self, const aclScalar *lo, const aclScalar *hi,
                 const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    const bool inplace = has & NN_INPLACE;
    struct aclTensor bs;
    dv_nn_call_t call, *c = &call;
    int rc;
    nn_init(c, row);
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) ||
        (rc = dv_nn_get_tensor(c, self, inplace ? "selfRef" : "self")))
        return rc;
    if (!lo && !hi)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: clipValueMin and clipValueMax are both NULL", c->gws);
    if ((lo && (rc = get_scalar(c, lo, "clipValueMin"))) || (hi && (rc = get_scalar(c, hi, "clipValueMax"))) ||
        (!inplace && (rc = dv_nn_get_tensor(c, out, "out"))) || (rc = ew_check(c, has, self, NULL, out, &bs, ACL_DT_UNDEFINED)))
        return rc;
    double lowest, highest;
    switch (self->dtype) {
    case ACL_FLOAT16: highest = 65504.0; break;
    case ACL_INT16: highest = INT16_MAX; break;
    case ACL_INT32: highest = INT32_MAX; break;
    default: highest = FLT_MAX; break;
    }
    lowest = self->dtype == ACL_INT16 ? INT16_MIN : self->dtype == ACL_INT32 ? (double)INT32_MIN : -highest;
    dv_nn_call_param(c, "min", "%.17g", lo ? lo->value : lowest);
    dv_nn_call_param(c, "max", "%.17g", hi ? hi->value : highest);
    return ew_build(c, has, self, NULL, out, &bs, workspaceSize, executor);
}

/* The comparisons (ops/compare.c): out = (self CMP other | scalar) as a bool (the library's uint8 0 / 1),
 * or as 0 / 1 in out's dtype when out is fp16, fp32 or int32; the in-place forms write 0 / 1 in
 * selfRef's dtype.  self and other broadcast and their dtypes promote (acl/nnbcast.c: a cast and / or
 * an expand kernel per operand that is not the compared dtype and shape; in place only other
 * broadcasts); the scalar is passed as the library's --scalar, which holds it in self's
 * dtype as vcmps does. */
static int compare(int row, unsigned has, const aclTensor *self, const aclTensor *other, const aclScalar *scalar,
                   const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    const bool inplace = has & NN_INPLACE;
    const char *ws = inplace ? "selfRef" : "self";
    dv_nn_call_t call, *c = &call;
    struct aclTensor bs;
    int rc;
    nn_init(c, row);
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(c, self, ws)) ||
        ((has & NN_OTHER) && (rc = dv_nn_get_tensor(c, other, "other"))) ||
        (!(has & NN_OTHER) && (rc = get_scalar(c, scalar, "other"))) ||
        (!inplace && (rc = dv_nn_get_tensor(c, out, "out"))))
        return rc;
    if ((rc = dv_nn_check_plain(c, self, ws)))
        return rc;
    bs = *self;
    if ((has & NN_OTHER) && ((rc = dv_nn_check_plain(c, other, "other")) ||
                             (rc = dv_nn_bcast_shape(c, self, ws, other, "other", &bs)) ||
                             (rc = dv_nn_promote(c, self, ws, other, "other", &bs.dtype))))
        return rc;
    if ((rc = dv_nn_check_dtype(c, &bs, bs.dtype != self->dtype ? "the promotion of self and other" : ws, "dtype")))
        return rc;
    const aclTensor *res = inplace ? self : out;
    const char *bw = !(has & NN_OTHER) ? ws : inplace ? "the broadcast of selfRef and other"
                                                      : "the broadcast of self and other";
    if (inplace && (rc = dv_nn_check_same_shape(c, &bs, bw, self, ws, "; in place, only other may broadcast")))
        return rc;
    if (!inplace && ((rc = dv_nn_check_plain(c, out, "out")) || (rc = dv_nn_check_same_shape(c, &bs, bw, out, "out", ""))))
        return rc;
    if (res->dtype != ACL_BOOL && (rc = dv_nn_check_dtype(c, res, inplace ? ws : "out", "out-dtype")))
        return rc;
    const int odv = res->dtype == ACL_BOOL ? DV_DT_U8 : dv_acl_dtype_info(res->dtype)->dv;
    if (!(has & NN_OTHER))
        dv_nn_call_param(c, "scalar", "%.17g", scalar->value);
    const uint64_t n = dv_acl_tensor_elems(&bs);
    dv_nn_bcast_t bc = {0};
    c->empty = n == 0;
    dv_nn_call_param(c, "shape", "%llu", (unsigned long long)n);
    dv_nn_call_param(c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(bs.dtype)->dv));
    dv_nn_call_param(c, "out-dtype", "%s", dv_nn_param_dtype_name(odv));
    if ((rc = dv_nn_bcast_input(c, &bc, self, ws, "x", &bs, bs.dtype)))
        return rc;
    if ((has & NN_OTHER) && (rc = dv_nn_bcast_input(c, &bc, other, "other", "y", &bs, bs.dtype)))
        return rc;
    dv_nn_call_tensor(c, res, inplace ? ws : "out", (has & NN_OTHER) ? "z" : "y", false);
    return dv_nn_bcast_build(c, &bc, workspaceSize, executor);
}

/* The first phase of each signature class, in the names of the row's parameter list. */
#define DV_NN_BODY_UNARY(row) elementwise(row, 0, self, NULL, NULL, NULL, NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_UNARY(row) \
    elementwise(row, NN_INPLACE, selfRef, NULL, NULL, NULL, NULL, selfRef, workspaceSize, executor)
#define DV_NN_BODY_UNARY_SCALAR(row) \
    elementwise(row, 0, self, NULL, negativeSlope, "negativeSlope", NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_UNARY_SCALAR(row) \
    elementwise(row, NN_INPLACE, selfRef, NULL, negativeSlope, "negativeSlope", NULL, selfRef, workspaceSize, executor)
#define DV_NN_BODY_UNARY_ALPHA(row) elementwise(row, 0, self, NULL, alpha, "alpha", NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_UNARY_ALPHA(row) \
    elementwise(row, NN_INPLACE, selfRef, NULL, alpha, "alpha", NULL, selfRef, workspaceSize, executor)
#define DV_NN_BODY_UNARY_LAMBD(row) elementwise(row, 0, self, NULL, lambd, "lambd", NULL, out, workspaceSize, executor)
#define DV_NN_BODY_BINARY(row) \
    elementwise(row, NN_OTHER, self, other, NULL, NULL, NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_BINARY(row) \
    elementwise(row, NN_OTHER | NN_INPLACE, selfRef, other, NULL, NULL, NULL, selfRef, workspaceSize, executor)
#define DV_NN_BODY_BINARY_ALPHA(row) \
    elementwise(row, NN_OTHER | NN_ALPHA, self, other, NULL, NULL, alpha, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_BINARY_ALPHA(row) \
    elementwise(row, NN_OTHER | NN_ALPHA | NN_INPLACE, selfRef, other, NULL, NULL, alpha, selfRef, workspaceSize, \
                executor)
#define DV_NN_BODY_SCALAR(row) elementwise(row, 0, self, NULL, other, "other", NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_SCALAR(row) \
    elementwise(row, NN_INPLACE, selfRef, NULL, other, "other", NULL, selfRef, workspaceSize, executor)
#define DV_NN_BODY_SCALAR_ALPHA(row) \
    elementwise(row, NN_ALPHA, self, NULL, other, "other", alpha, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_SCALAR_ALPHA(row) \
    elementwise(row, NN_ALPHA | NN_INPLACE, selfRef, NULL, other, "other", alpha, selfRef, workspaceSize, executor)
/* the same first phases under CANN's other parameter names */
#define DV_NN_BODY_UNARY_RESULT(row) elementwise(row, 0, self, NULL, NULL, NULL, NULL, result, workspaceSize, executor)
#define DV_NN_BODY_UNARY_INPUT(row) elementwise(row, 0, input, NULL, NULL, NULL, NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_UNARY_INPUT(row) \
    elementwise(row, NN_INPLACE, inputRef, NULL, NULL, NULL, NULL, inputRef, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_UNARY_SELF(row) \
    elementwise(row, NN_INPLACE, self, NULL, NULL, NULL, NULL, self, workspaceSize, executor)
#define DV_NN_BODY_BACKWARD(row) \
    elementwise(row, NN_OTHER, gradOutput, self, NULL, NULL, NULL, out, workspaceSize, executor)
#define DV_NN_BODY_BACKWARD_GI(row) \
    elementwise(row, NN_OTHER, gradOutput, self, NULL, NULL, NULL, gradInput, workspaceSize, executor)
#define DV_NN_BODY_BACKWARD_OUTPUT(row) \
    elementwise(row, NN_OTHER, gradOutput, output, NULL, NULL, NULL, gradInput, workspaceSize, executor)
#define DV_NN_BODY_BACKWARD_RESULT(row) \
    elementwise(row, NN_OTHER, gradOutput, result, NULL, NULL, NULL, gradInput, workspaceSize, executor)
#define DV_NN_BODY_BACKWARD_THRESHOLD(row) \
    elementwise(row, NN_OTHER, gradOutput, self, threshold, "threshold", NULL, out, workspaceSize, executor)
#define DV_NN_BODY_BACKWARD_LAMBDA(row) \
    elementwise(row, NN_OTHER, gradOutput, self, lambda, "lambda", NULL, gradInput, workspaceSize, executor)
#define DV_NN_BODY_BACKWARD_LAMBD(row) \
    elementwise(row, NN_OTHER, gradOutput, self, lambd, "lambd", NULL, gradInput, workspaceSize, executor)

#define DV_NN_BODY_CLAMP(row) clamp(row, 0, self, clipValueMin, clipValueMax, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_CLAMP(row) \
    clamp(row, NN_INPLACE, selfRef, clipValueMin, clipValueMax, selfRef, workspaceSize, executor)
#define DV_NN_BODY_CLAMP_MIN(row) \
    elementwise(row, 0, self, NULL, clipValueMin, "clipValueMin", NULL, out, workspaceSize, executor)
#define DV_NN_BODY_CLAMP_MAX(row) \
    elementwise(row, 0, self, NULL, clipValueMax, "clipValueMax", NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_CLAMP_MAX(row) \
    elementwise(row, NN_INPLACE, selfRef, NULL, clipValueMax, "clipValueMax", NULL, selfRef, workspaceSize, executor)

/* clamp by tensors: max / min with CANN's parameter names (ClampTensor: acl/nnops.c clamp_tensor) */
#define DV_NN_BODY_CLAMP_MIN_T(row) \
    elementwise(row, NN_OTHER, self, clipValueMin, NULL, NULL, NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_CLAMP_MIN_T(row) \
    elementwise(row, NN_OTHER | NN_INPLACE, selfRef, clipValueMin, NULL, NULL, NULL, selfRef, workspaceSize, executor)
#define DV_NN_BODY_CLAMP_MAX_T(row) elementwise(row, NN_OTHER, self, max, NULL, NULL, NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_CLAMP_MAX_T(row) \
    elementwise(row, NN_OTHER | NN_INPLACE, selfRef, max, NULL, NULL, NULL, selfRef, workspaceSize, executor)
#define DV_NN_BODY_CMP_TENSOR(row) compare(row, NN_OTHER, self, other, NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_CMP_TENSOR(row) \
    compare(row, NN_OTHER | NN_INPLACE, selfRef, other, NULL, selfRef, workspaceSize, executor)
#define DV_NN_BODY_CMP_SCALAR(row) compare(row, 0, self, NULL, other, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_CMP_SCALAR(row) \
    compare(row, NN_INPLACE, selfRef, NULL, other, selfRef, workspaceSize, executor)

/* s20-ew2: the classes of its rows */
/* LogSigmoidBackward's buffer: a live tensor (CANN's forward output buffer; the gradient needs only self). */
static int ew2_buffer(int row, const aclTensor *gradOutput, const aclTensor *self, const aclTensor *buffer,
                      aclTensor *gradInput, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    dv_nn_call_t call;
    int rc;
    nn_init(&call, row);
    if ((rc = dv_nn_call_start(&call, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&call, buffer, "buffer")))
        return rc;
    return elementwise(row, NN_OTHER, gradOutput, self, NULL, NULL, NULL, gradInput, workspaceSize, executor);
}
/* LeakyReluBackward: with selfIsResult self is the forward's result, whose sign is self's only for a slope of at
 * least 0 (the formula is then the same). */
static int ew2_leaky(int row, const aclTensor *gradOutput, const aclTensor *self, const aclScalar *negativeSlope,
                     bool selfIsResult, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    if (selfIsResult && negativeSlope && dv_acl_handle_is(negativeSlope, DV_ACL_MAGIC_SCALAR) &&
        negativeSlope->value < 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: selfIsResult is true and negativeSlope is %g: with a "
                           "negative slope the result's sign does not tell where self was positive",
                           nn_rows[row].gws, negativeSlope->value);
    return elementwise(row, NN_OTHER, gradOutput, self, negativeSlope, "negativeSlope", NULL, out, workspaceSize,
                       executor);
}
/* The rows with attributes: ns aclScalars (sc, checked like get_scalar; what their names) or, sc NULL, ns
 * doubles (val: a custom operator's attributes), each the library parameter of the same index in `param`. */
static int ew2_scalars(int row, unsigned has, const aclTensor *self, const aclTensor *other, int ns,
                       const aclScalar *const *sc, const char *const *what, const char *const *param, const aclTensor *out,
                       uint64_t *workspaceSize, aclOpExecutor **executor)
{
    const bool inplace = has & NN_INPLACE;
    dv_nn_call_t call, *c = &call;
    struct aclTensor bs;
    int rc;
    nn_init(c, row);
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) ||
        (rc = dv_nn_get_tensor(c, self, inplace ? "selfRef" : "self")) ||
        ((has & NN_OTHER) && (rc = dv_nn_get_tensor(c, other, "other"))))
        return rc;
    for (int i = 0; i < ns; i++)
        if ((rc = get_scalar(c, sc[i], what[i])))
            return rc;
    if ((!inplace && (rc = dv_nn_get_tensor(c, out, "out"))) || (rc = ew_check(c, has, self, other, out, &bs, ACL_DT_UNDEFINED)))
        return rc;
    for (int i = 0; i < ns; i++)
        dv_nn_call_param(c, param[i], "%.17g", sc[i]->value);
    return ew_build(c, has, self, other, out, &bs, workspaceSize, executor);
}
/* EluBackward: selfOrResult is elu's input (the library's elu_backward) or, isResult, its result
 * (elu_backward_result, whose sign is the input's only for alpha >= 0). */
static int ew2_elu_bw(int row, const aclTensor *gradOutput, const aclScalar *alpha, const aclScalar *scale,
                      const aclScalar *inputScale, bool isResult, const aclTensor *selfOrResult, aclTensor *gradInput,
                      uint64_t *workspaceSize, aclOpExecutor **executor)
{
    static const char *const what[3] = {"alpha", "scale", "inputScale"}, *const param[3] = {"alpha", "scale", "input-scale"};
    const aclScalar *const sc[3] = {alpha, scale, inputScale};
    dv_nn_call_t call, *c = &call;
    struct aclTensor bs;
    int rc;
    nn_init(c, row);
    if (isResult)
        c->op = "elu_backward_result";
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(c, gradOutput, "gradOutput")) ||
        (rc = dv_nn_get_tensor(c, selfOrResult, "selfOrResult")))
        return rc;
    for (int i = 0; i < 3; i++)
        if ((rc = get_scalar(c, sc[i], what[i])))
            return rc;
    if (isResult && alpha->value < 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: isResult is true and alpha is %g: with a negative alpha the "
                           "result's sign does not tell where self was positive", c->gws, alpha->value);
    if ((rc = dv_nn_get_tensor(c, gradInput, "gradInput")) ||
        (rc = ew_check(c, NN_OTHER, gradOutput, selfOrResult, gradInput, &bs, ACL_DT_UNDEFINED)))
        return rc;
    for (int i = 0; i < 3; i++)
        dv_nn_call_param(c, param[i], "%.17g", sc[i]->value);
    return ew_build(c, NN_OTHER, gradOutput, selfOrResult, gradInput, &bs, workspaceSize, executor);
}
#define DV_NN_BODY_ELU_BW(row) \
    ew2_elu_bw(row, gradOutput, alpha, scale, inputScale, isResult, selfOrResult, gradInput, workspaceSize, executor)
#define DV_NN_BODY_ELU_GRAD(row) \
    elementwise(row, NN_OTHER, grads, activations, NULL, NULL, NULL, y, workspaceSize, executor)
/* A custom operator's double attribute as the library parameter `param`. */
static int ew2_attr(int row, unsigned has, const aclTensor *self, const aclTensor *other, double val, const char *param,
                    const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    const bool inplace = has & NN_INPLACE;
    dv_nn_call_t call, *c = &call;
    struct aclTensor bs;
    int rc;
    nn_init(c, row);
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) ||
        (rc = dv_nn_get_tensor(c, self, inplace ? "selfRef" : "self")) ||
        ((has & NN_OTHER) && (rc = dv_nn_get_tensor(c, other, "other"))) ||
        (!inplace && (rc = dv_nn_get_tensor(c, out, "out"))) || (rc = ew_check(c, has, self, other, out, &bs, ACL_DT_UNDEFINED)))
        return rc;
    dv_nn_call_param(c, param, "%.17g", val);
    return ew_build(c, has, self, other, out, &bs, workspaceSize, executor);
}
#define DV_NN_BODY_ATTR_XY_ALPHA(row) ew2_attr(row, 0, x, NULL, alpha, "scalar", y, workspaceSize, executor)
#define DV_NN_BODY_ATTR_ALPHA(row) ew2_attr(row, 0, self, NULL, alpha, "scalar", out, workspaceSize, executor)
#define DV_NN_BODY_ATTR_LAMBD(row) ew2_attr(row, 0, self, NULL, lambd, "scalar", out, workspaceSize, executor)
#define DV_NN_BODY_ATTR_XY_SLOPE(row) ew2_attr(row, 0, x, NULL, negativeSlope, "scalar", y, workspaceSize, executor)
#define DV_NN_BODY_ATTR_BACKWARD_LAMBD(row) \
    ew2_attr(row, NN_OTHER, gradOutput, self, lambd, "scalar", output, workspaceSize, executor)
#define DV_NN_BODY_UNARY_XZ(row) elementwise(row, 0, x, NULL, NULL, NULL, NULL, z, workspaceSize, executor)
#define DV_NN_BODY_BACKWARD_GF(row) \
    elementwise(row, NN_OTHER, gradients, features, NULL, NULL, NULL, out, workspaceSize, executor)
#define DV_NN_BODY_TANH_GRAD(row) elementwise(row, NN_OTHER, dy, y, NULL, NULL, NULL, dx, workspaceSize, executor)
#define EW2_SC(...) (const aclScalar *const[]){__VA_ARGS__}
#define EW2_NM(...) (const char *const[]){__VA_ARGS__}
#define DV_NN_BODY_THRESHOLD(row) \
    ew2_scalars(row, 0, self, NULL, 2, EW2_SC(threshold, value), EW2_NM("threshold", "value"), \
                EW2_NM("threshold", "value"), out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_THRESHOLD(row) \
    ew2_scalars(row, NN_INPLACE, selfRef, NULL, 2, EW2_SC(threshold, value), EW2_NM("threshold", "value"), \
                EW2_NM("threshold", "value"), selfRef, workspaceSize, executor)
#define DV_NN_BODY_BACKWARD_MINMAX(row) \
    ew2_scalars(row, NN_OTHER, gradOutput, self, 2, EW2_SC(min, max), EW2_NM("min", "max"), EW2_NM("min", "max"), \
                out, workspaceSize, executor)
#define DV_NN_BODY_ELU(row) \
    ew2_scalars(row, 0, self, NULL, 3, EW2_SC(alpha, scale, inputScale), EW2_NM("alpha", "scale", "inputScale"), \
                EW2_NM("alpha", "scale", "input-scale"), out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_ELU(row) \
    ew2_scalars(row, NN_INPLACE, selfRef, NULL, 3, EW2_SC(alpha, scale, inputScale), \
                EW2_NM("alpha", "scale", "inputScale"), EW2_NM("alpha", "scale", "input-scale"), selfRef, \
                workspaceSize, executor)
#define DV_NN_BODY_SOFTPLUS(row) \
    ew2_scalars(row, 0, self, NULL, 2, EW2_SC(beta, threshold), EW2_NM("beta", "threshold"), \
                EW2_NM("beta", "threshold"), out, workspaceSize, executor)
#define DV_NN_BODY_BACKWARD_SOFTPLUS(row) \
    ew2_scalars(row, NN_OTHER, gradOutput, self, 2, EW2_SC(beta, threshold), EW2_NM("beta", "threshold"), \
                EW2_NM("beta", "threshold"), gradInput, workspaceSize, executor)
/* Addcmul, Addcdiv, Lerp: self, tensor1, tensor2 (one shape, one dtype; n1, n2 their names) and, unless NULL,
 * the aclScalar value as --scalar. */
static int ew2_ternary(int row, unsigned has, const aclTensor *self, const aclTensor *tensor1, const char *n1,
                       const aclTensor *tensor2, const char *n2, const aclScalar *value, const aclTensor *out,
                       uint64_t *workspaceSize, aclOpExecutor **executor)
{
    const bool inplace = has & NN_INPLACE;
    const char *ws = inplace ? "selfRef" : "self";
    dv_nn_call_t call, *c = &call;
    struct aclTensor bs, b1;
    int rc;
    nn_init(c, row);
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(c, self, ws)) ||
        (rc = dv_nn_get_tensor(c, tensor1, n1)) || (rc = dv_nn_get_tensor(c, tensor2, n2)) ||
        (strcmp(n1, "tensor1") == 0 && (rc = get_scalar(c, value, "value"))) ||
        (!inplace && (rc = dv_nn_get_tensor(c, out, "out"))) || (rc = dv_nn_check_plain(c, self, ws)) ||
        (rc = dv_nn_check_dtype(c, self, ws, "dtype")) ||
        (!inplace && ((rc = dv_nn_check_plain(c, out, "out")) || (rc = dv_nn_check_same_dtype(c, self, ws, out, "out")))))
        return rc;
    const aclTensor *const t[2] = {tensor1, tensor2};
    const char *const tn[2] = {n1, n2};
    for (int i = 0; i < 2; i++)
        if ((rc = dv_nn_check_plain(c, t[i], tn[i])) || (rc = dv_nn_check_same_dtype(c, self, ws, t[i], tn[i])))
            return rc;
    /* the three broadcast together (numpy rules); in place the result is selfRef's shape */
    if ((rc = dv_nn_bcast_shape(c, self, ws, tensor1, n1, &b1)) ||
        (rc = dv_nn_bcast_shape(c, &b1, "their broadcast", tensor2, n2, &bs)))
        return rc;
    bs.dtype = self->dtype;
    if ((rc = dv_nn_check_same_shape(c, &bs, "the broadcast of the three", inplace ? self : out, inplace ? ws : "out",
                                     inplace ? "; in place, only the other two may broadcast" : "")))
        return rc;
    const uint64_t n = dv_acl_tensor_elems(&bs);
    dv_nn_bcast_t bc = {0};
    c->empty = n == 0;
    dv_nn_call_param(c, "shape", "%llu", (unsigned long long)n);
    dv_nn_call_param(c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    if (value)
        dv_nn_call_param(c, "scalar", "%.17g", value->value);
    if ((rc = dv_nn_bcast_input(c, &bc, self, ws, "x", &bs, bs.dtype)) ||
        (rc = dv_nn_bcast_input(c, &bc, tensor1, n1, "y", &bs, bs.dtype)) ||
        (rc = dv_nn_bcast_input(c, &bc, tensor2, n2, "w", &bs, bs.dtype)))
        return rc;
    dv_nn_call_tensor(c, inplace ? self : out, inplace ? ws : "out", "z", false);
    return dv_nn_bcast_build(c, &bc, workspaceSize, executor);
}
#define DV_NN_BODY_ADDC(row) \
    ew2_ternary(row, 0, self, tensor1, "tensor1", tensor2, "tensor2", value, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_ADDC(row) \
    ew2_ternary(row, NN_INPLACE, selfRef, tensor1, "tensor1", tensor2, "tensor2", value, selfRef, workspaceSize, executor)
#define DV_NN_BODY_LERP(row) ew2_ternary(row, 0, self, end, "end", weight, "weight", NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_LERP(row) \
    ew2_ternary(row, NN_INPLACE, selfRef, end, "end", weight, "weight", NULL, selfRef, workspaceSize, executor)
#define DV_NN_BODY_LERPS(row) \
    elementwise(row, NN_OTHER, self, end, weight, "weight", NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_LERPS(row) \
    elementwise(row, NN_OTHER | NN_INPLACE, selfRef, end, weight, "weight", NULL, selfRef, workspaceSize, executor)
#define DV_NN_BODY_Y_DY_Z(row) elementwise(row, NN_OTHER, dy, y, NULL, NULL, NULL, z, workspaceSize, executor)
#define DV_NN_BODY_YGRAD_X(row) elementwise(row, NN_OTHER, y_grad, x, NULL, NULL, NULL, x_grad, workspaceSize, executor)
#define DV_NN_BODY_UNARY_XOUT(row) elementwise(row, 0, x, NULL, NULL, NULL, NULL, out, workspaceSize, executor)
#define DV_NN_BODY_BINARY_ALPHA_S(row) \
    elementwise(row, NN_OTHER, self, other, alpha, "alpha", NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_BINARY_ALPHA_S(row) \
    elementwise(row, NN_OTHER | NN_INPLACE, selfRef, other, alpha, "alpha", NULL, selfRef, workspaceSize, executor)
#define DV_NN_BODY_POW_XE(row) elementwise(row, NN_OTHER, x, exponent, NULL, NULL, NULL, y, workspaceSize, executor)
#define DV_NN_BODY_XLOGY_SO(row) elementwise(row, 0, self, NULL, other, "other", NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_XLOGY_SO(row) \
    elementwise(row, NN_INPLACE, selfRef, NULL, other, "other", NULL, selfRef, workspaceSize, executor)
/* XLogYScalarSelf: the tensor is other (the library's x), the scalar self (its --scalar) */
#define DV_NN_BODY_XLOGY_SS(row) elementwise(row, 0, other, NULL, self, "self", NULL, out, workspaceSize, executor)
#define DV_NN_BODY_UNARY_XY(row) elementwise(row, 0, x, NULL, NULL, NULL, NULL, y, workspaceSize, executor)
#define DV_NN_BODY_HEAVISIDE(row) \
    elementwise(row, NN_OTHER, input, values, NULL, NULL, NULL, out, workspaceSize, executor)
#define DV_NN_BODY_UNARY_BETA(row) \
    elementwise(row, 0, self, NULL, betaOptional, betaOptional ? "betaOptional" : NULL, NULL, out, workspaceSize, \
                executor)
#define DV_NN_BODY_BACKWARD_BETA(row) \
    elementwise(row, NN_OTHER, gradOutput, self, betaOptional, betaOptional ? "betaOptional" : NULL, NULL, \
                gradInput, workspaceSize, executor)
#define DV_NN_BODY_BACKWARD_BUFFER(row) \
    ew2_buffer(row, gradOutput, self, buffer, gradInput, workspaceSize, executor)
#define DV_NN_BODY_BACKWARD_LEAKY(row) \
    ew2_leaky(row, gradOutput, self, negativeSlope, selfIsResult, out, workspaceSize, executor)
#define DV_NN_BODY_POW_TS(row) \
    elementwise(row, 0, self, NULL, exponent, "exponent", NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_POW_TS(row) \
    elementwise(row, NN_INPLACE, self, NULL, exponent, "exponent", NULL, self, workspaceSize, executor)
#define DV_NN_BODY_POW_TT(row) elementwise(row, NN_OTHER, self, exponent, NULL, NULL, NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_POW_TT(row) \
    elementwise(row, NN_OTHER | NN_INPLACE, self, exponent, NULL, NULL, NULL, self, workspaceSize, executor)

#define DV_NN_UNPAREN(...) __VA_ARGS__
/* The first phases of the table's rows but CUSTOM (written out below). */
#define DV_NN_GWS_CUSTOM(api, params)
/* The foreach classes' first phases are acl/nnforeach.c's. */
#define DV_NN_GWS_FOREACH_UNARY(api, params)
#define DV_NN_GWS_FOREACH_COPY(api, params)
#define DV_NN_GWS_FOREACH_LIST(api, params)
#define DV_NN_GWS_FOREACH_LIST_ALPHA(api, params)
#define DV_NN_GWS_FOREACH_SCALAR(api, params)
#define DV_NN_GWS_FOREACH_SCALAR_LIST(api, params)
#define DV_NN_GWS_FOREACH_LIST_ALPHA_T(api, params)
#define DV_NN_GWS_FOREACH_SCALAR_T(api, params)
/* (s20-each2) */
#define DV_NN_GWS_FOREACH_INPLACE_UNARY(api, params)
#define DV_NN_GWS_FOREACH_INPLACE_LIST(api, params)
#define DV_NN_GWS_FOREACH_INPLACE_LIST_ALPHA_T(api, params)
#define DV_NN_GWS_FOREACH_INPLACE_SCALAR_T(api, params)
#define DV_NN_GWS_FOREACH_ZERO(api, params)
#define DV_NN_GWS_FOREACH_ROUND(api, params)
#define DV_NN_GWS_FOREACH_ROUND_T(api, params)
#define DV_NN_GWS_FOREACH_NORM(api, params)
#define DV_NN_GWS_FOREACH_UNSCALE(api, params)
#define DV_NN_GWS_FOREACH_ADDC_S(api, params)
#define DV_NN_GWS_FOREACH_ADDC_T(api, params)
#define DV_NN_GWS_FOREACH_ADDC_TL(api, params)
#define DV_NN_GWS_FOREACH_LERP_LIST(api, params)
#define DV_NN_GWS_FOREACH_LERP_SCALAR(api, params)
#define DV_NN_GWS(api, sig, params)                                                                              \
    aclnnStatus aclnn##api##GetWorkspaceSize(DV_NN_UNPAREN params, uint64_t *workspaceSize,                       \
                                             aclOpExecutor **executor)                                             \
    {                                                                                                              \
        DV_ACL_LOCKED();                                                                                           \
        return DV_NN_BODY_##sig(NN_ROW_##api);                                                                     \
    }
#define DV_NN_GWS_UNARY(api, params) DV_NN_GWS(api, UNARY, params)
#define DV_NN_GWS_INPLACE_UNARY(api, params) DV_NN_GWS(api, INPLACE_UNARY, params)
#define DV_NN_GWS_UNARY_SCALAR(api, params) DV_NN_GWS(api, UNARY_SCALAR, params)
#define DV_NN_GWS_INPLACE_UNARY_SCALAR(api, params) DV_NN_GWS(api, INPLACE_UNARY_SCALAR, params)
#define DV_NN_GWS_UNARY_ALPHA(api, params) DV_NN_GWS(api, UNARY_ALPHA, params)
#define DV_NN_GWS_INPLACE_UNARY_ALPHA(api, params) DV_NN_GWS(api, INPLACE_UNARY_ALPHA, params)
#define DV_NN_GWS_UNARY_LAMBD(api, params) DV_NN_GWS(api, UNARY_LAMBD, params)
#define DV_NN_GWS_BINARY(api, params) DV_NN_GWS(api, BINARY, params)
#define DV_NN_GWS_INPLACE_BINARY(api, params) DV_NN_GWS(api, INPLACE_BINARY, params)
#define DV_NN_GWS_BINARY_ALPHA(api, params) DV_NN_GWS(api, BINARY_ALPHA, params)
#define DV_NN_GWS_INPLACE_BINARY_ALPHA(api, params) DV_NN_GWS(api, INPLACE_BINARY_ALPHA, params)
#define DV_NN_GWS_SCALAR(api, params) DV_NN_GWS(api, SCALAR, params)
#define DV_NN_GWS_INPLACE_SCALAR(api, params) DV_NN_GWS(api, INPLACE_SCALAR, params)
#define DV_NN_GWS_SCALAR_ALPHA(api, params) DV_NN_GWS(api, SCALAR_ALPHA, params)
#define DV_NN_GWS_INPLACE_SCALAR_ALPHA(api, params) DV_NN_GWS(api, INPLACE_SCALAR_ALPHA, params)
#define DV_NN_GWS_UNARY_RESULT(api, params) DV_NN_GWS(api, UNARY_RESULT, params)
#define DV_NN_GWS_UNARY_INPUT(api, params) DV_NN_GWS(api, UNARY_INPUT, params)
#define DV_NN_GWS_INPLACE_UNARY_INPUT(api, params) DV_NN_GWS(api, INPLACE_UNARY_INPUT, params)
#define DV_NN_GWS_INPLACE_UNARY_SELF(api, params) DV_NN_GWS(api, INPLACE_UNARY_SELF, params)
#define DV_NN_GWS_BACKWARD(api, params) DV_NN_GWS(api, BACKWARD, params)
#define DV_NN_GWS_BACKWARD_GI(api, params) DV_NN_GWS(api, BACKWARD_GI, params)
#define DV_NN_GWS_BACKWARD_OUTPUT(api, params) DV_NN_GWS(api, BACKWARD_OUTPUT, params)
#define DV_NN_GWS_BACKWARD_RESULT(api, params) DV_NN_GWS(api, BACKWARD_RESULT, params)
#define DV_NN_GWS_BACKWARD_THRESHOLD(api, params) DV_NN_GWS(api, BACKWARD_THRESHOLD, params)
#define DV_NN_GWS_BACKWARD_LAMBDA(api, params) DV_NN_GWS(api, BACKWARD_LAMBDA, params)
#define DV_NN_GWS_BACKWARD_LAMBD(api, params) DV_NN_GWS(api, BACKWARD_LAMBD, params)
#define DV_NN_GWS_CLAMP(api, params) DV_NN_GWS(api, CLAMP, params)
#define DV_NN_GWS_INPLACE_CLAMP(api, params) DV_NN_GWS(api, INPLACE_CLAMP, params)
#define DV_NN_GWS_CLAMP_MIN(api, params) DV_NN_GWS(api, CLAMP_MIN, params)
#define DV_NN_GWS_CLAMP_MAX(api, params) DV_NN_GWS(api, CLAMP_MAX, params)
#define DV_NN_GWS_INPLACE_CLAMP_MAX(api, params) DV_NN_GWS(api, INPLACE_CLAMP_MAX, params)
#define DV_NN_GWS_CMP_TENSOR(api, params) DV_NN_GWS(api, CMP_TENSOR, params)
#define DV_NN_GWS_CLAMP_MIN_T(api, params) DV_NN_GWS(api, CLAMP_MIN_T, params)
#define DV_NN_GWS_INPLACE_CLAMP_MIN_T(api, params) DV_NN_GWS(api, INPLACE_CLAMP_MIN_T, params)
#define DV_NN_GWS_CLAMP_MAX_T(api, params) DV_NN_GWS(api, CLAMP_MAX_T, params)
#define DV_NN_GWS_INPLACE_CLAMP_MAX_T(api, params) DV_NN_GWS(api, INPLACE_CLAMP_MAX_T, params)
#define DV_NN_GWS_INPLACE_CMP_TENSOR(api, params) DV_NN_GWS(api, INPLACE_CMP_TENSOR, params)
#define DV_NN_GWS_CMP_SCALAR(api, params) DV_NN_GWS(api, CMP_SCALAR, params)
#define DV_NN_GWS_INPLACE_CMP_SCALAR(api, params) DV_NN_GWS(api, INPLACE_CMP_SCALAR, params)
/* s20-ew2 */
#define DV_NN_GWS_UNARY_BETA(api, params) DV_NN_GWS(api, UNARY_BETA, params)
#define DV_NN_GWS_BACKWARD_BETA(api, params) DV_NN_GWS(api, BACKWARD_BETA, params)
#define DV_NN_GWS_BACKWARD_BUFFER(api, params) DV_NN_GWS(api, BACKWARD_BUFFER, params)
#define DV_NN_GWS_BACKWARD_LEAKY(api, params) DV_NN_GWS(api, BACKWARD_LEAKY, params)
#define DV_NN_GWS_POW_TS(api, params) DV_NN_GWS(api, POW_TS, params)
#define DV_NN_GWS_INPLACE_POW_TS(api, params) DV_NN_GWS(api, INPLACE_POW_TS, params)
#define DV_NN_GWS_POW_TT(api, params) DV_NN_GWS(api, POW_TT, params)
#define DV_NN_GWS_INPLACE_POW_TT(api, params) DV_NN_GWS(api, INPLACE_POW_TT, params)
#define DV_NN_GWS_THRESHOLD(api, params) DV_NN_GWS(api, THRESHOLD, params)
#define DV_NN_GWS_INPLACE_THRESHOLD(api, params) DV_NN_GWS(api, INPLACE_THRESHOLD, params)
#define DV_NN_GWS_BACKWARD_MINMAX(api, params) DV_NN_GWS(api, BACKWARD_MINMAX, params)
#define DV_NN_GWS_ELU(api, params) DV_NN_GWS(api, ELU, params)
#define DV_NN_GWS_INPLACE_ELU(api, params) DV_NN_GWS(api, INPLACE_ELU, params)
#define DV_NN_GWS_SOFTPLUS(api, params) DV_NN_GWS(api, SOFTPLUS, params)
#define DV_NN_GWS_BACKWARD_SOFTPLUS(api, params) DV_NN_GWS(api, BACKWARD_SOFTPLUS, params)
#define DV_NN_GWS_HEAVISIDE(api, params) DV_NN_GWS(api, HEAVISIDE, params)
#define DV_NN_GWS_UNARY_XY(api, params) DV_NN_GWS(api, UNARY_XY, params)
#define DV_NN_GWS_ATTR_XY_ALPHA(api, params) DV_NN_GWS(api, ATTR_XY_ALPHA, params)
#define DV_NN_GWS_ATTR_ALPHA(api, params) DV_NN_GWS(api, ATTR_ALPHA, params)
#define DV_NN_GWS_ATTR_LAMBD(api, params) DV_NN_GWS(api, ATTR_LAMBD, params)
#define DV_NN_GWS_ATTR_XY_SLOPE(api, params) DV_NN_GWS(api, ATTR_XY_SLOPE, params)
#define DV_NN_GWS_ATTR_BACKWARD_LAMBD(api, params) DV_NN_GWS(api, ATTR_BACKWARD_LAMBD, params)
#define DV_NN_GWS_UNARY_XZ(api, params) DV_NN_GWS(api, UNARY_XZ, params)
#define DV_NN_GWS_BACKWARD_GF(api, params) DV_NN_GWS(api, BACKWARD_GF, params)
#define DV_NN_GWS_TANH_GRAD(api, params) DV_NN_GWS(api, TANH_GRAD, params)
#define DV_NN_GWS_ADDC(api, params) DV_NN_GWS(api, ADDC, params)
#define DV_NN_GWS_ELU_BW(api, params) DV_NN_GWS(api, ELU_BW, params)
#define DV_NN_GWS_ELU_GRAD(api, params) DV_NN_GWS(api, ELU_GRAD, params)
#define DV_NN_GWS_BINARY_ALPHA_S(api, params) DV_NN_GWS(api, BINARY_ALPHA_S, params)
#define DV_NN_GWS_INPLACE_BINARY_ALPHA_S(api, params) DV_NN_GWS(api, INPLACE_BINARY_ALPHA_S, params)
#define DV_NN_GWS_LERP(api, params) DV_NN_GWS(api, LERP, params)
#define DV_NN_GWS_INPLACE_LERP(api, params) DV_NN_GWS(api, INPLACE_LERP, params)
#define DV_NN_GWS_LERPS(api, params) DV_NN_GWS(api, LERPS, params)
#define DV_NN_GWS_INPLACE_LERPS(api, params) DV_NN_GWS(api, INPLACE_LERPS, params)
#define DV_NN_GWS_Y_DY_Z(api, params) DV_NN_GWS(api, Y_DY_Z, params)
#define DV_NN_GWS_YGRAD_X(api, params) DV_NN_GWS(api, YGRAD_X, params)
#define DV_NN_GWS_UNARY_XOUT(api, params) DV_NN_GWS(api, UNARY_XOUT, params)
#define DV_NN_GWS_POW_XE(api, params) DV_NN_GWS(api, POW_XE, params)
#define DV_NN_GWS_XLOGY_SO(api, params) DV_NN_GWS(api, XLOGY_SO, params)
#define DV_NN_GWS_INPLACE_XLOGY_SO(api, params) DV_NN_GWS(api, INPLACE_XLOGY_SO, params)
#define DV_NN_GWS_XLOGY_SS(api, params) DV_NN_GWS(api, XLOGY_SS, params)
#define DV_NN_GWS_INPLACE_ADDC(api, params) DV_NN_GWS(api, INPLACE_ADDC, params)
#define DV_ACLNN(api, header, sig, libop, optype, factor, params, ws_q, stream_q, doc) DV_NN_GWS_##sig(api, params)
#include "nnops.def"

/* The second phase of every row: run the executor its first phase made. */
#define DV_ACLNN(api, header, sig, libop, optype, factor, params, ws_q, stream_q, doc)                             \
    ACLNN_API aclnnStatus aclnn##api(void *workspace, ws_q uint64_t workspaceSize, aclOpExecutor *executor,      \
                           stream_q aclrtStream stream)                                                          \
    {                                                                                                            \
        DV_ACL_LOCKED();                                                                                         \
        return dv_nn_exec_run("aclnn" #api, workspace, workspaceSize, executor, stream);                         \
    }
#include "nnops.def"

/* ---------------------------------------------------------------- row-wise: softmax, layernorm */

/* rows x cols of a tensor whose last `k` dims form a row (a 0-d tensor is one row of one). */
static void rows_cols(const aclTensor *t, int k, uint64_t *rows, uint64_t *cols)
{
    *rows = *cols = 1;
    for (int i = 0; i < t->ndims; i++) {
        if (i < t->ndims - k)
            *rows *= (uint64_t)t->dims[i];
        else
            *cols *= (uint64_t)t->dims[i];
    }
}

/* Softmax and LogSoftmax: the last axis on the library's softmax (not LogSoftmax), any other (and
 * every log softmax) on softmax_dim. */
static aclnnStatus softmax_call(int row, bool log, const aclTensor *self, int64_t dim, aclTensor *out,
                                uint64_t *workspaceSize, aclOpExecutor **executor)
{
    dv_nn_call_t c;
    int rc;
    nn_init(&c, row);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, self, "self")) ||
        (rc = dv_nn_get_tensor(&c, out, "out")))
        return rc;
    if ((rc = dv_nn_check_dtype(&c, self, "self", "dtype")) || (rc = dv_nn_check_plain(&c, self, "self")) ||
        (rc = dv_nn_check_plain(&c, out, "out")) || (rc = dv_nn_check_same_shape(&c, self, "self", out, "out", "")) ||
        (rc = dv_nn_check_same_dtype(&c, self, "self", out, "out")))
        return rc;
    const int64_t nd = self->ndims ? self->ndims : 1, last = nd - 1;
    if (dim < -nd || dim > last)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dim is %lld; self has %lld dimensions (dim in [%lld, %lld])",
                           c.gws, (long long)dim, (long long)nd, (long long)-nd, (long long)last);
    const int64_t d = dim < 0 ? dim + nd : dim;
    if (d != last || log) { /* another axis, or the log: the library's softmax_dim (ops/colnorm.c) */
        if (self->ndims > DV_SHAPE_MAX)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: self has %d dimensions; dvsim's softmax along an axis "
                               "other than the last takes at most %d", c.gws, self->ndims, DV_SHAPE_MAX);
        c.op = "softmax_dim";
        c.empty = dv_acl_tensor_elems(self) == 0;
        char shape[DV_SHAPE_MAX * 21] = "1"; /* a 0-d tensor: one element */
        size_t used = 0;
        for (int i = 0; i < self->ndims; i++)
            used += (size_t)snprintf(shape + used, sizeof shape - used, "%s%lld", i ? "x" : "", (long long)self->dims[i]);
        dv_nn_call_param(&c, "shape", "%s", shape);
        dv_nn_call_param(&c, "dim", "%lld", (long long)d);
        if (log)
            dv_nn_call_param(&c, "log", "on");
    } else {
        uint64_t rows, cols;
        rows_cols(self, 1, &rows, &cols);
        c.empty = rows * cols == 0;
        dv_nn_call_param(&c, "shape", "%llux%llu", (unsigned long long)rows, (unsigned long long)cols);
    }
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    dv_nn_call_tensor(&c, self, "self", "x", true);
    dv_nn_call_tensor(&c, out, "out", "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim, aclTensor *out, uint64_t *workspaceSize,
                                         aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return softmax_call(NN_ROW_Softmax, false, self, dim, out, workspaceSize, executor);
}

aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim, aclTensor *out, uint64_t *workspaceSize,
                                            aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return softmax_call(NN_ROW_LogSoftmax, true, self, dim, out, workspaceSize, executor);
}


aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor *input, const aclIntArray *normalizedShape,
                                           const aclTensor *weightOptional, const aclTensor *biasOptional, double eps,
                                           aclTensor *out, aclTensor *meanOutOptional, aclTensor *rstdOutOptional,
                                           uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    nn_init(&c, NN_ROW_LayerNorm);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, input, "input")))
        return rc;
    if (!normalizedShape)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: normalizedShape is NULL", c.gws);
    if (!dv_acl_handle_is(normalizedShape, DV_ACL_MAGIC_INT_ARRAY))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: normalizedShape is not a live aclIntArray", c.gws);
    if ((rc = dv_nn_get_tensor(&c, out, "out")) ||
        (meanOutOptional && (rc = dv_nn_get_tensor(&c, meanOutOptional, "meanOut"))) ||
        (rstdOutOptional && (rc = dv_nn_get_tensor(&c, rstdOutOptional, "rstdOut"))))
        return rc;
    if (!weightOptional || !biasOptional)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is NULL: layer norm without %s is not supported by dvsim "
                           "(pass a tensor of %s)", c.gws, !weightOptional ? "weight" : "bias",
                           !weightOptional ? "a weight" : "a bias", !weightOptional ? "ones" : "zeros");
    if ((rc = dv_nn_get_tensor(&c, weightOptional, "weight")) || (rc = dv_nn_get_tensor(&c, biasOptional, "bias")))
        return rc;
    if ((rc = dv_nn_check_dtype(&c, input, "input", "dtype")) || (rc = dv_nn_check_plain(&c, input, "input")) ||
        (rc = dv_nn_check_plain(&c, out, "out")) || (rc = dv_nn_check_same_shape(&c, input, "input", out, "out", "")) ||
        (rc = dv_nn_check_same_dtype(&c, input, "input", out, "out")))
        return rc;
    /* normalizedShape: the trailing dims of input */
    uint64_t k = normalizedShape->size;
    bool match = k >= 1 && k <= (uint64_t)input->ndims;
    for (uint64_t i = 0; match && i < k; i++)
        match = normalizedShape->v[i] == input->dims[input->ndims - (int)k + (int)i];
    if (!match) {
        char s[128];
        dv_acl_dims_str(input, s, sizeof s);
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: normalizedShape (%llu values) must be the trailing dims of "
                           "input [%s], e.g. [%lld]", c.gws, (unsigned long long)k, s,
                           (long long)(input->ndims ? input->dims[input->ndims - 1] : 1));
    }
    uint64_t rows, cols;
    rows_cols(input, (int)k, &rows, &cols);
    if ((rc = dv_nn_check_vector(&c, weightOptional, "weight", cols, "the normalised elements", input, "input")) ||
        (rc = dv_nn_check_vector(&c, biasOptional, "bias", cols, "the normalised elements", input, "input")))
        return rc;
    aclTensor *stats[2] = {meanOutOptional, rstdOutOptional};
    static const char *const stat_what[2] = {"meanOut", "rstdOut"};
    for (int i = 0; i < 2; i++) {
        if (!stats[i])
            continue;
        if ((rc = dv_nn_check_vector(&c, stats[i], stat_what[i], rows, "one per normalised row", NULL, NULL)))
            return rc;
        if (stats[i]->dtype != ACL_FLOAT)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s; dvsim gives the statistics in ACL_FLOAT",
                               c.gws, stat_what[i], dv_nn_dtype_name(stats[i]->dtype));
    }
    c.empty = rows * cols == 0;
    dv_nn_call_param(&c, "shape", "%llux%llu", (unsigned long long)rows, (unsigned long long)cols);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(input->dtype)->dv));
    if ((rc = dv_nn_float_param(&c, "eps", eps, 1e-5, "eps")))
        return rc;
    if (meanOutOptional || rstdOutOptional) {
        const dv_opdesc_t *op = dv_ops_find(c.op);
        if (!op || dv_ops_param_index(op, "stats") < 0)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is not supported by this dvsim build (its layernorm "
                               "has no --stats): pass NULL", c.gws, meanOutOptional ? "meanOut" : "rstdOut");
        dv_nn_call_param(&c, "stats", "on");
    }
    dv_nn_call_tensor(&c, input, "input", "x", true);
    dv_nn_call_tensor(&c, weightOptional, "weight", "gamma", true);
    dv_nn_call_tensor(&c, biasOptional, "bias", "beta", true);
    dv_nn_call_tensor(&c, out, "out", "y", false);
    if (meanOutOptional)
        dv_nn_call_tensor(&c, meanOutOptional, "meanOut", "mean", false);
    if (rstdOutOptional)
        dv_nn_call_tensor(&c, rstdOutOptional, "rstdOut", "rstd", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}


/* ---------------------------------------------------------------- rms norm */

/* aclnnRmsNorm(x, gamma, epsilon, yOut, rstdOut) as the official example calls it: y = x / sqrt(mean(x^2)
 * + epsilon) * gamma over the trailing dims gamma has, rstdOut (optional: NULL) the fp32 rstd of each
 * row with those dims as 1. */
aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor *x, const aclTensor *gamma, double epsilon,
                                         const aclTensor *yOut, const aclTensor *rstdOut, uint64_t *workspaceSize,
                                         aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    nn_init(&c, NN_ROW_RmsNorm);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, x, "x")) ||
        (rc = dv_nn_get_tensor(&c, gamma, "gamma")) || (rc = dv_nn_get_tensor(&c, yOut, "yOut")) ||
        (rstdOut && (rc = dv_nn_get_tensor(&c, rstdOut, "rstdOut"))))
        return rc;
    if ((rc = dv_nn_check_dtype(&c, x, "x", "dtype")) || (rc = dv_nn_check_plain(&c, x, "x")) ||
        (rc = dv_nn_check_plain(&c, yOut, "yOut")) || (rc = dv_nn_check_same_shape(&c, x, "x", yOut, "yOut", "")) ||
        (rc = dv_nn_check_same_dtype(&c, x, "x", yOut, "yOut")) || (rc = dv_nn_check_same_dtype(&c, x, "x", gamma, "gamma")))
        return rc;
    /* gamma: the trailing dims of x */
    const int k = gamma->ndims;
    bool match = k >= 1 && k <= x->ndims;
    for (int i = 0; match && i < k; i++)
        match = gamma->dims[i] == x->dims[x->ndims - k + i];
    if (!match) {
        char sx[128], sg[128];
        dv_acl_dims_str(x, sx, sizeof sx);
        dv_acl_dims_str(gamma, sg, sizeof sg);
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: gamma has shape [%s]; it must be the trailing dims of x [%s]",
                           c.gws, sg, sx);
    }
    uint64_t rows, cols;
    rows_cols(x, k, &rows, &cols);
    if (rstdOut) {
        if ((rc = dv_nn_check_vector(&c, rstdOut, "rstdOut", rows, "one per normalised row", NULL, NULL)))
            return rc;
        if (rstdOut->dtype != ACL_FLOAT)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: rstdOut has dtype %s; dvsim gives rstd in ACL_FLOAT", c.gws,
                               dv_nn_dtype_name(rstdOut->dtype));
    }
    c.empty = rows * cols == 0;
    dv_nn_call_param(&c, "shape", "%llux%llu", (unsigned long long)rows, (unsigned long long)cols);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(x->dtype)->dv));
    if ((rc = dv_nn_float_param(&c, "eps", epsilon, 1e-5, "epsilon")))
        return rc;
    if (rstdOut)
        dv_nn_call_param(&c, "stats", "on");
    dv_nn_call_tensor(&c, x, "x", "x", true);
    dv_nn_call_tensor(&c, gamma, "gamma", "gamma", true);
    dv_nn_call_tensor(&c, yOut, "yOut", "y", false);
    if (rstdOut)
        dv_nn_call_tensor(&c, rstdOut, "rstdOut", "rstd", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}


/* ---------------------------------------------------------------- batch norm */

/* aclnnBatchNorm with training true: the library's batchnorm_train (ops/colnorm.c) on N x C x ...
 * (2 to 5 dims), weight, bias and the running and saved statistics one ACL_FLOAT per channel. */
static aclnnStatus batch_norm_training(dv_nn_call_t *c, const aclTensor *input, const aclTensor *weight,
                                       const aclTensor *bias, aclTensor *runningMean, aclTensor *runningVar,
                                       double momentum, double eps, aclTensor *output, aclTensor *saveMean,
                                       aclTensor *saveInvstd, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    int rc;
    c->op = "batchnorm_train";
    const aclTensor *par[6] = {weight, bias, runningMean, runningVar, saveMean, saveInvstd};
    static const char *const par_what[6] = {"weight", "bias", "runningMean", "runningVar", "saveMean", "saveInvstd"};
    static const char *const par_arg[6] = {"gamma", "beta", "running_mean", "running_var", "save_mean",
                                           "save_invstd"};
    for (int i = 0; i < 6; i++) {
        if (!par[i])
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is NULL: training batch norm without %s is not "
                               "supported by dvsim", c->gws, par_what[i], par_what[i]);
        if ((rc = dv_nn_get_tensor(c, par[i], par_what[i])))
            return rc;
    }
    if ((rc = dv_nn_check_dtype(c, input, "input", "dtype")) ||
        (rc = dv_nn_check_same_shape(c, input, "input", output, "output", "")) ||
        (rc = dv_nn_check_same_dtype(c, input, "input", output, "output")))
        return rc;
    if (input->ndims < 2 || input->ndims > 5) {
        char sh[128];
        dv_acl_dims_str(input, sh, sizeof sh);
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: input has shape [%s]; training batch norm takes N x C and "
                           "up to 3 more dims (2 to 5 dimensions)", c->gws, sh);
    }
    for (int i = 0; i < 6; i++) {
        if ((rc = dv_nn_check_vector(c, par[i], par_what[i], (uint64_t)input->dims[1], "one per channel C", NULL,
                                     NULL)))
            return rc;
        if (par[i]->dtype != ACL_FLOAT)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s; dvsim's training batch norm takes the "
                               "parameters and statistics in ACL_FLOAT", c->gws, par_what[i],
                               dv_nn_dtype_name(par[i]->dtype));
    }
    if (!(momentum >= 0 && momentum <= 1))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: momentum is %g; it must be in [0, 1]", c->gws, momentum);
    c->empty = dv_acl_tensor_elems(input) == 0;
    char shape[6 * 21];
    size_t used = 0;
    for (int i = 0; i < input->ndims; i++)
        used += (size_t)snprintf(shape + used, sizeof shape - used, "%s%lld", i ? "x" : "", (long long)input->dims[i]);
    dv_nn_call_param(c, "shape", "%s", shape);
    dv_nn_call_param(c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(input->dtype)->dv));
    dv_nn_call_param(c, "momentum", "%.17g", momentum);
    if ((rc = dv_nn_float_param(c, "eps", eps, 1e-5, "eps")))
        return rc;
    dv_nn_call_tensor(c, input, "input", "x", true);
    for (int i = 0; i < 4; i++) /* the running statistics are read and written */
        dv_nn_call_tensor(c, par[i], par_what[i], par_arg[i], true);
    dv_nn_call_tensor(c, output, "output", "y", false);
    dv_nn_call_tensor(c, saveMean, "saveMean", "save_mean", false);
    dv_nn_call_tensor(c, saveInvstd, "saveInvstd", "save_invstd", false);
    return dv_nn_exec_build(c, workspaceSize, executor);
}

aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor *input, const aclTensor *weight, const aclTensor *bias,
                                           aclTensor *runningMean, aclTensor *runningVar, bool training,
                                           double momentum, double eps, aclTensor *output, aclTensor *saveMean,
                                           aclTensor *saveInvstd, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    nn_init(&c, NN_ROW_BatchNorm);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, input, "input")) ||
        (rc = dv_nn_get_tensor(&c, output, "output")))
        return rc;
    if (training)
        return batch_norm_training(&c, input, weight, bias, runningMean, runningVar, momentum, eps, output, saveMean,
                                   saveInvstd, workspaceSize, executor);
    const aclTensor *par[4] = {weight, bias, runningMean, runningVar};
    static const char *const par_what[4] = {"weight", "bias", "runningMean", "runningVar"};
    static const char *const par_arg[4] = {"gamma", "beta", "mean", "var"};
    for (int i = 0; i < 4; i++) {
        if (!par[i])
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is NULL: batch norm without %s is not supported by "
                               "dvsim", c.gws, par_what[i], par_what[i]);
        if ((rc = dv_nn_get_tensor(&c, par[i], par_what[i])))
            return rc;
    }
    if ((rc = dv_nn_check_dtype(&c, input, "input", "dtype")) || (rc = dv_nn_check_nchw(&c, input, "input")) ||
        (rc = dv_nn_check_nchw(&c, output, "output")) ||
        (rc = dv_nn_check_same_shape(&c, input, "input", output, "output", "")) ||
        (rc = dv_nn_check_same_dtype(&c, input, "input", output, "output")))
        return rc;
    for (int i = 0; i < 4; i++)
        if ((rc = dv_nn_check_vector(&c, par[i], par_what[i], (uint64_t)input->dims[1], "one per channel C", input,
                               "input")))
            return rc;
    c.empty = dv_acl_tensor_elems(input) == 0;
    dv_nn_call_param(&c, "shape", "%lldx%lldx%lldx%lld", (long long)input->dims[0], (long long)input->dims[1],
               (long long)input->dims[2], (long long)input->dims[3]);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(input->dtype)->dv));
    if ((rc = dv_nn_float_param(&c, "eps", eps, 1e-5, "eps")))
        return rc;
    dv_nn_call_tensor(&c, input, "input", "x", true);
    for (int i = 0; i < 4; i++)
        dv_nn_call_tensor(&c, par[i], par_what[i], par_arg[i], true);
    dv_nn_call_tensor(&c, output, "output", "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}


/* ---------------------------------------------------------------- matmul */

/* The first phase of the matrix products on the cube: out = self x mat2 over the last two axes.
 * Leading (batch) axes of self against one mat2 are folded into the rows of self: self [..., M, K]
 * x mat2 [K, N] (or with mat2's leading axes all 1) is the 2-D product [prod(...) * M, K] x [K, N],
 * the rows gathered row-major from self's view.  A batch of distinct mat2 matrices is the library's
 * --batch (self with the same batch axes, or none: --shared-a); batch axes that broadcast against
 * each other are 161002.  NN_MM_2D (aclnnMm): 2-D only; NN_MM_BATCH (aclnnBatchMatMul): 3-D self,
 * mat2 and out; NN_MM_ANY (aclnnMatmul): 1-D to 6-D as torch.matmul (a 1-D self is one row, a 1-D
 * mat2 one column; those axes are not in out); NN_MM_MV (aclnnMv): 2-D self, 1-D mat2; NN_MM_DOT
 * (aclnnDot): both 1-D, out 0-D; NN_MM_OUTER (aclnnGer): both 1-D, out [M, N], the product with
 * K = 1.  w2 names mat2 as the operator's header does.  A composite (mm_composite below) passes
 * its temporary as out (temp_out: not a user object, not bound: the product lands in the kernel's
 * own workspace, where the next kernel of the chain reads it). */
enum { NN_MM_2D, NN_MM_BATCH, NN_MM_ANY, NN_MM_MV, NN_MM_DOT, NN_MM_OUTER };

static aclnnStatus nn_mm_to(int row, int mode, const aclTensor *self, const char *w1, const aclTensor *mat2,
                            const char *w2, const aclTensor *out, bool temp_out, int8_t cubeMathType,
                            uint64_t *workspaceSize, aclOpExecutor **executor)
{
    dv_nn_call_t c;
    int rc;
    nn_init(&c, row);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, self, w1)) ||
        (rc = dv_nn_get_tensor(&c, mat2, w2)) || (!temp_out && (rc = dv_nn_get_tensor(&c, out, "out"))))
        return rc;
    if ((rc = dv_nn_check_cube_math(&c, cubeMathType)))
        return rc;
    const aclTensor *ts[3] = {self, mat2, out};
    const char *const tw[3] = {w1, w2, "out"};
    static const int mv_nd[3] = {2, 1, 1}, dot_nd[3] = {1, 1, 0}, outer_nd[3] = {1, 1, 2};
    for (int i = 0; i < 3; i++) {
        if ((rc = dv_nn_check_plain(&c, ts[i], tw[i])))
            return rc;
        const int nd = ts[i]->ndims;
        if (mode == NN_MM_2D && nd != 2)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %d dimensions; dvsim's %s takes 2-D "
                               "tensors only", c.gws, tw[i], nd, c.api);
        if (mode == NN_MM_BATCH && nd != 3)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %d dimensions; %s takes 3-D tensors "
                               "[batch, rows, columns]", c.gws, tw[i], nd, c.api);
        const int want_nd = mode == NN_MM_MV ? mv_nd[i] : mode == NN_MM_DOT ? dot_nd[i] : outer_nd[i];
        if ((mode == NN_MM_MV || mode == NN_MM_DOT || mode == NN_MM_OUTER) && nd != want_nd)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %d dimensions; %s takes %d", c.gws, tw[i], nd,
                               c.api, want_nd);
        if (mode == NN_MM_ANY && i < 2 && (nd < 1 || nd > 6))
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %d dimensions; %s takes 1 to 6", c.gws, tw[i],
                               nd, c.api);
    }
    const int sd = self->ndims, md = mat2->ndims;
    const bool outer = mode == NN_MM_OUTER;
    const int64_t M = outer ? self->dims[0] : sd > 1 ? self->dims[sd - 2] : 1, K = outer ? 1 : self->dims[sd - 1];
    const int64_t K2 = outer ? 1 : md > 1 ? mat2->dims[md - 2] : mat2->dims[0];
    const int64_t N = outer ? mat2->dims[0] : md > 1 ? mat2->dims[md - 1] : 1;
    int64_t mbatch = 1, sbatch = 1;
    for (int i = 0; i < md - 2; i++)
        mbatch *= mat2->dims[i];
    for (int i = 0; i < sd - 2; i++)
        sbatch *= self->dims[i];
    /* out: the batch axes of the longer operand (mat2's are all 1 here), then M and N */
    int64_t want[DV_ACL_MAX_DIMS];
    int wn = 0;
    const int nb = (sd > md ? sd : md) - 2;
    for (int i = 0; i < nb; i++) {
        const int si = i - (nb - (sd - 2)), mi = i - (nb - (md - 2));
        const int64_t sv = si >= 0 ? self->dims[si] : 1, mv = mi >= 0 ? mat2->dims[mi] : 1;
        want[wn++] = sv > mv ? sv : mv;
    }
    if (sd > 1 || outer)
        want[wn++] = M;
    if (md > 1 || outer)
        want[wn++] = N;
    bool ok = K2 == K && out->ndims == wn;
    for (int i = 0; ok && i < wn; i++)
        ok = out->dims[i] == want[i];
    if (!ok) {
        char a[64], b[64], o[64];
        dv_acl_dims_str(self, a, sizeof a);
        dv_acl_dims_str(mat2, b, sizeof b);
        dv_acl_dims_str(out, o, sizeof o);
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: shapes do not match: %s [%s] x %s [%s] -> out [%s]; "
                           "needed %s", c.gws, w1, a, w2, b, o,
                           outer ? "1-D operands [M] and [N], out [M,N]" : "[...,M,K] x [...,K,N] -> out [...,M,N]");
    }
    /* a batch of mat2: one product per batch (--batch), self's batch axes the same as mat2's (after
     * leading 1s) or none (--shared-a); a batch of self against one mat2 is folded into the rows */
    bool same_batch = mbatch > 1;
    for (int i = 0; same_batch && i < nb; i++) {
        const int si = i - (nb - (sd - 2)), mi = i - (nb - (md - 2));
        same_batch = (si >= 0 ? self->dims[si] : 1) == (mi >= 0 ? mat2->dims[mi] : 1);
    }
    if (mbatch > 1 && sbatch > 1 && !same_batch) {
        char a[64], b[64];
        dv_acl_dims_str(self, a, sizeof a);
        dv_acl_dims_str(mat2, b, sizeof b);
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: self [%s] and %s [%s] broadcast their batch axes against "
                           "each other: not supported by dvsim (the batch axes must be equal, or one side has none)",
                           c.gws, a, w2, b);
    }
    const bool batched = mbatch > 1;
    if ((rc = dv_nn_check_dtype(&c, self, w1, "dtype")) ||
        (rc = dv_nn_check_same_dtype(&c, self, w1, mat2, w2)) ||
        (rc = dv_nn_check_dtype(&c, out, "out", "out-dtype")))
        return rc;
    const int64_t rows = batched ? M : sbatch * M;
    if (K == 0 && rows * N != 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: K is 0 (an all-zero result): not supported by dvsim", c.gws);
    /* B as the cube reads it: [K,N] row-major, or [N,K] row-major (--b-transposed).  A mat2 stored
     * column-major (the transposed view of an [N,K] tensor) is the second without any reordering;
     * a row-major one the first: the kernel transposes it into L0B (fp32 and int8 with
     * load_cbuf_to_cb_transpose).  Only a chip without that load (chip.load_transpose) has fp32 and
     * int8 staged transposed on the host.  A 1-D mat2 is the column [K,1]: both at once. */
    const unsigned isz = dv_acl_dtype_info(self->dtype)->size;
    const bool colmajor = md > 1 && mat2->strides[md - 2] == 1 && mat2->strides[md - 1] == K && K > 1 &&
                          (md < 3 || mat2->strides[md - 3] == K * N);
    const bool bt = colmajor || (isz != 2 && !dv_acl_config()->chip_load_transpose);
    c.empty = rows * N * mbatch == 0;
    dv_nn_call_param(&c, "m", "%lld", (long long)rows);
    if (batched) {
        dv_nn_call_param(&c, "batch", "%lld", (long long)mbatch);
        if (sbatch == 1)
            dv_nn_call_param(&c, "shared-a", "on");
    }
    dv_nn_call_param(&c, "n", "%lld", (long long)N);
    dv_nn_call_param(&c, "k", "%lld", (long long)K);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    dv_nn_call_param(&c, "out-dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(out->dtype)->dv));
    dv_nn_call_param(&c, "b-transposed", "%s", bt ? "on" : "off");
    dv_nn_call_tensor(&c, self, w1, "a", true);
    dv_nn_call_tensor(&c, mat2, w2, "b", true);
    c.t[c.ntensors - 1].transpose = bt;
    if (!temp_out)
        dv_nn_call_tensor(&c, out, "out", "c", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

static aclnnStatus nn_mm(int row, int mode, const aclTensor *self, const aclTensor *mat2, const char *w2,
                         aclTensor *out, int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    return nn_mm_to(row, mode, self, "self", mat2, w2, out, false, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out,
                                        int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return nn_mm(NN_ROW_Matmul, NN_MM_ANY, self, mat2, "mat2", out, cubeMathType, workspaceSize, executor);
}


/* convolution: its first phase is in acl/nnconv.c */

/* ---------------------------------------------------------------- cast, layout, matmul family (s19-mm) */

#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_dot.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mv.h"
#include "aclnnop/aclnn_permute.h"

aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out,
                                    int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return nn_mm(NN_ROW_Mm, NN_MM_2D, self, mat2, "mat2", out, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out,
                                             int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return nn_mm(NN_ROW_BatchMatMul, NN_MM_BATCH, self, mat2, "mat2", out, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnMvGetWorkspaceSize(const aclTensor *self, const aclTensor *vec, aclTensor *out, int8_t cubeMathType,
                                    uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return nn_mm(NN_ROW_Mv, NN_MM_MV, self, vec, "vec", out, cubeMathType, workspaceSize, executor);
}

/* aclnnDot: the 1 x K by K x 1 product on the cube (CANN runs Dot on the vector unit: the time here is
 * the cube's). */
aclnnStatus aclnnDotGetWorkspaceSize(const aclTensor *self, const aclTensor *tensor, aclTensor *out,
                                     uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return nn_mm(NN_ROW_Dot, NN_MM_DOT, self, tensor, "tensor", out, 0, workspaceSize, executor);
}

/* aclnnPermute: out = self with its axes in the order dims.  The library's transpose swaps the last
 * two axes of ...xRxC; a permutation that keeps a leading run of axes in place and exchanges the two
 * blocks of axes after it, (0..j-1, k..n-1, j..k-1), is that transpose of the row-major view
 * [prod(0..j-1)] x [prod(j..k-1)] x [prod(k..n-1)] (NCHW <-> NHWC, the 2-D transpose, a batch of
 * them).  Other permutations need more than one pass: not supported. */
aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor *self, const aclIntArray *dims, aclTensor *out,
                                         uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    nn_init(&c, NN_ROW_Permute);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, self, "self")) ||
        (rc = dv_nn_get_tensor(&c, out, "out")))
        return rc;
    if (!dims)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: dims is NULL", c.gws);
    if (!dv_acl_handle_is(dims, DV_ACL_MAGIC_INT_ARRAY))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dims is not a live aclIntArray", c.gws);
    if ((rc = dv_nn_check_plain(&c, self, "self")) || (rc = dv_nn_check_plain(&c, out, "out")) ||
        (rc = dv_nn_check_same_dtype(&c, self, "self", out, "out")))
        return rc;
    const int n = self->ndims;
    if ((int64_t)dims->size != n)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dims has %llu entries but self has %d dimensions", c.gws,
                           (unsigned long long)dims->size, n);
    int perm[DV_ACL_MAX_DIMS];
    bool seen[DV_ACL_MAX_DIMS] = {false};
    for (int i = 0; i < n; i++) {
        int64_t d = dims->v[i];
        if (d < -n || d >= n)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dims[%d] is %lld, outside [%d, %d]", c.gws, i,
                               (long long)d, -n, n - 1);
        perm[i] = (int)(d < 0 ? d + n : d);
        if (seen[perm[i]])
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dims names axis %d twice", c.gws, perm[i]);
        seen[perm[i]] = true;
    }
    if (out->ndims != n)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: out has %d dimensions, self %d", c.gws, out->ndims, n);
    for (int i = 0; i < n; i++)
        if (out->dims[i] != self->dims[perm[i]]) {
            char a[64], o[64];
            dv_acl_dims_str(self, a, sizeof a);
            dv_acl_dims_str(out, o, sizeof o);
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: out has shape [%s]; self [%s] permuted needs %lld in "
                               "dim %d", c.gws, o, a, (long long)self->dims[perm[i]], i);
        }
    /* j: the leading axes in place; then perm[j..] must be (k..n-1, j..k-1). */
    int j = 0;
    while (j < n && perm[j] == j)
        j++;
    const int k = j < n ? perm[j] : n;
    for (int i = j; i < n; i++) {
        const int want = i - j < n - k ? k + (i - j) : j + (i - j - (n - k));
        if (perm[i] != want)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: this axis order is not supported by dvsim: it permutes "
                               "by one transpose of two blocks of axes after a leading run kept in place (as "
                               "(0,2,3,1) or (1,0)); dims[%d] is %d, that form needs %d", c.gws, i, perm[i], want);
    }
    c.empty = dv_acl_tensor_elems(self) == 0;
    int64_t b = 1, r = 1, col = 1;
    for (int i = 0; i < n; i++)
        *(i < j ? &b : i < k ? &r : &col) *= self->dims[i];
    /* the identity moves the data once too: the transpose of the column [elements]x1 */
    if (j == n)
        b = 1, r = (int64_t)dv_acl_tensor_elems(self), col = 1;
    if (b == 1)
        dv_nn_call_param(&c, "shape", "%lldx%lld", (long long)r, (long long)col);
    else
        dv_nn_call_param(&c, "shape", "%lldx%lldx%lld", (long long)b, (long long)r, (long long)col);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    dv_nn_call_tensor(&c, self, "self", "x", true);
    dv_nn_call_tensor(&c, out, "out", "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

/* ---------------------------------------------------------------- products with an added term */

/* Addmm, Baddbmm, Addbmm, Addmv, Addr, Ger and Gemm are chains of library kernels, as CANN composes
 * them from its l0 operators: the product on the cube into a temporary in the workspace (or straight
 * into out when nothing is added), Addbmm's sum over the batch (reduce_sum), then out = beta * self
 * + alpha * product on the vector unit (muls and add --alpha; beta 0 never reads self).  Each kernel
 * is a launch with its own profile row.  self must have out's shape (it is not broadcast). */

/* A scalar's value, `dflt` when it is NULL and optional. */
static int mmx_scalar(const char *gws, const aclScalar *s, const char *what, bool optional, double dflt, double *v)
{
    if (!s) {
        if (!optional)
            return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", gws, what);
        *v = dflt;
        return ACL_SUCCESS;
    }
    if (!dv_acl_handle_is(s, DV_ACL_MAGIC_SCALAR))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is not a live aclScalar", gws, what);
    *v = s->value;
    return ACL_SUCCESS;
}

/* One element-wise step of the chain: y = x * s (muls, y NULL) or z = x + s * y (add).  The
 * product is read from the workspace at byte p_at (its shape and dtype `p`): x when px, else y. */
static int mmx_ew(const char *api, const char *gws, const aclTensor *out, const aclTensor *x, const aclTensor *y,
                  double s, const aclTensor *p, bool px, uint64_t p_at, aclOpExecutor **e)
{
    dv_nn_call_t c;
    dv_nn_call_init(&c, api, gws, y || !px ? "add" : "muls", y || !px ? "Add" : "Muls");
    c.empty = dv_acl_tensor_elems(out) == 0;
    dv_nn_call_param(&c, "shape", "%llu", (unsigned long long)(c.empty ? 1 : dv_acl_tensor_elems(out)));
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(out->dtype)->dv));
    dv_nn_call_param(&c, px ? "scalar" : "alpha", "%.17g", s);
    if (px)
        dv_nn_call_ws_tensor(&c, p, "product", "x", p_at);
    else {
        dv_nn_call_tensor(&c, x, "self", "x", true);
        dv_nn_call_ws_tensor(&c, p, "product", "y", p_at);
    }
    dv_nn_call_tensor(&c, out, "out", px ? "y" : "z", false);
    uint64_t ws;
    return dv_nn_exec_build(&c, &ws, e);
}

enum { MMX_SUM = 1 };  /* Addbmm: the products summed over the batch */

/* The chain: out = beta * self + alpha * (m1 x m2) (mode: nn_mm_to's), self NULL for Ger. */
static aclnnStatus mm_composite(int row, int mode, unsigned flags, const aclTensor *self, const char *wself,
                                const aclTensor *m1, const char *w1, const aclTensor *m2, const char *w2, double beta,
                                double alpha, const aclTensor *out, int8_t cubeMathType, uint64_t *workspaceSize,
                                aclOpExecutor **executor)
{
    dv_nn_call_t c;
    int rc;
    nn_init(&c, row);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, out, "out")) ||
        (self && (rc = dv_nn_get_tensor(&c, self, wself))) || (rc = dv_nn_get_tensor(&c, m1, w1)) ||
        (rc = dv_nn_get_tensor(&c, m2, w2)))
        return rc;
    if (!isfinite(alpha) || !isfinite(beta))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: alpha %g and beta %g must be finite", c.gws, alpha, beta);
    if ((rc = dv_nn_check_plain(&c, out, "out")))
        return rc;
    if (self && beta != 0) {
        if ((rc = dv_nn_check_same_shape(&c, self, wself, out, "out", "; dvsim does not broadcast it")))
            return rc;
        if ((rc = dv_nn_check_same_dtype(&c, self, wself, out, "out")))
            return rc;
    }
    /* the product's temporary: out's dtype, contiguous; Addbmm's [batch, M, N] before the sum */
    const bool direct = !(flags & MMX_SUM) && (beta == 0 || !self) && alpha == 1;
    struct aclTensor prod = *out, sum = *out;
    prod.offset = 0;
    prod.data = 0;
    if (flags & MMX_SUM) { /* batch1 [B, M, K] x batch2 [B, K, N] -> [B, M, N] */
        if (m1->ndims != 3 || m2->ndims != 3 || out->ndims != 2)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s and %s are 3-D [batch, rows, columns] and out 2-D",
                               c.gws, w1, w2);
        prod.ndims = 3;
        prod.dims[0] = m1->dims[0];
        prod.dims[1] = out->dims[0];
        prod.dims[2] = out->dims[1];
    }
    prod.nstorage = prod.ndims;
    for (int i = prod.ndims - 1, st = 1; i >= 0; st *= (int)prod.dims[i], i--) {
        prod.strides[i] = st;
        prod.storage[i] = prod.dims[i];
    }
    sum.offset = 0;
    sum.data = 0;
    sum.nstorage = sum.ndims;
    for (int i = sum.ndims - 1, st = 1; i >= 0; st *= (int)sum.dims[i], i--) {
        sum.strides[i] = st;
        sum.storage[i] = sum.dims[i];
    }
    aclOpExecutor *head = NULL, **tail = &head, *e = NULL;
    uint64_t ws = 0, p_at = 0; /* the chain's workspace so far; where the product is in it */
#define MMX_LINK(x)                                                                                                   \
    do {                                                                                                              \
        if ((rc = (x)) != ACLNN_SUCCESS) {                                                                            \
            dv_acl_executor_free(head);                                                                               \
            return rc;                                                                                                \
        }                                                                                                             \
        ws += e->workspace;                                                                                           \
        *tail = e;                                                                                                    \
        tail = &e->next;                                                                                              \
    } while (0)
    uint64_t w;
    MMX_LINK(nn_mm_to(row, mode, m1, w1, m2, w2, direct ? out : &prod, !direct, cubeMathType, &w, &e));
    const aclTensor *p = &prod; /* the product as the vector steps read it */
    if (flags & MMX_SUM) {
        dv_nn_call_t r;
        dv_nn_call_init(&r, c.api, c.gws, "reduce_sum", "ReduceSum");
        r.empty = dv_acl_tensor_elems(out) == 0;
        dv_nn_call_param(&r, "shape", "%lldx%lld", (long long)prod.dims[0],
                         (long long)(prod.dims[1] * prod.dims[2]));
        dv_nn_call_param(&r, "axes", "1");
        dv_nn_call_param(&r, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(out->dtype)->dv));
        dv_nn_call_param(&r, "out-dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(out->dtype)->dv));
        dv_nn_call_ws_tensor(&r, &prod, "product", "x", p_at);
        p_at = ws; /* the sum: reduce_sum's y, unbound, at the start of its own workspace */
        MMX_LINK(dv_nn_exec_build(&r, &w, &e));
        p = &sum;
    }
    if (!direct) {
        if (!self || beta == 0) /* out = alpha * product */
            MMX_LINK(mmx_ew(c.api, c.gws, out, NULL, NULL, alpha, p, true, p_at, &e));
        else {
            const aclTensor *x = self;
            if (beta != 1) { /* out = beta * self (in place when self is out) */
                dv_nn_call_t m;
                dv_nn_call_init(&m, c.api, c.gws, "muls", "Muls");
                m.empty = dv_acl_tensor_elems(out) == 0;
                dv_nn_call_param(&m, "shape", "%llu", (unsigned long long)(m.empty ? 1 : dv_acl_tensor_elems(out)));
                dv_nn_call_param(&m, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(out->dtype)->dv));
                dv_nn_call_param(&m, "scalar", "%.17g", beta);
                dv_nn_call_tensor(&m, self, wself, "x", true);
                dv_nn_call_tensor(&m, out, "out", "y", false);
                MMX_LINK(dv_nn_exec_build(&m, &w, &e));
                x = out;
            }
            MMX_LINK(mmx_ew(c.api, c.gws, out, x, p, alpha, p, false, p_at, &e)); /* out = x + alpha * product */
        }
    }
#undef MMX_LINK
    *workspaceSize = ws;
    *executor = head;
    return ACLNN_SUCCESS;
}

#include "aclnnop/aclnn_addbmm.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_addmv.h"
#include "aclnnop/aclnn_addr.h"
#include "aclnnop/aclnn_baddbmm.h"
#include "aclnnop/aclnn_gemm.h"
#include "aclnnop/aclnn_ger.h"

/* The scalars of a call: beta, alpha (NULL: 1 when optional). */
#define MMX_SCALARS(gws, optional)                                                                                    \
    double b = 1, a = 1;                                                                                              \
    int rc;                                                                                                           \
    if ((rc = mmx_scalar(gws, beta, optional ? "betaOptional" : "beta", optional, 1, &b)) ||                          \
        (rc = mmx_scalar(gws, alpha, optional ? "alphaOptional" : "alpha", optional, 1, &a)))                         \
        return rc

aclnnStatus aclnnAddmmGetWorkspaceSize(const aclTensor *self, const aclTensor *mat1, const aclTensor *mat2,
                                       const aclScalar *beta, const aclScalar *alpha, aclTensor *out,
                                       int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    MMX_SCALARS("aclnnAddmmGetWorkspaceSize", false);
    return mm_composite(NN_ROW_Addmm, NN_MM_2D, 0, self, "self", mat1, "mat1", mat2, "mat2", b, a, out, cubeMathType,
                        workspaceSize, executor);
}

aclnnStatus aclnnInplaceAddmmGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *mat1, const aclTensor *mat2,
                                              const aclScalar *beta, const aclScalar *alpha, int8_t cubeMathType,
                                              uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    MMX_SCALARS("aclnnInplaceAddmmGetWorkspaceSize", false);
    return mm_composite(NN_ROW_InplaceAddmm, NN_MM_2D, 0, selfRef, "selfRef", mat1, "mat1", mat2, "mat2", b, a,
                        selfRef, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnBaddbmmGetWorkspaceSize(const aclTensor *self, const aclTensor *batch1, const aclTensor *batch2,
                                         const aclScalar *beta, const aclScalar *alpha, aclTensor *out,
                                         int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    MMX_SCALARS("aclnnBaddbmmGetWorkspaceSize", false);
    return mm_composite(NN_ROW_Baddbmm, NN_MM_BATCH, 0, self, "self", batch1, "batch1", batch2, "batch2", b, a, out,
                        cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnInplaceBaddbmmGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *batch1,
                                                const aclTensor *batch2, const aclScalar *beta, const aclScalar *alpha,
                                                int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    MMX_SCALARS("aclnnInplaceBaddbmmGetWorkspaceSize", false);
    return mm_composite(NN_ROW_InplaceBaddbmm, NN_MM_BATCH, 0, selfRef, "selfRef", batch1, "batch1", batch2, "batch2",
                        b, a, selfRef, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnAddbmmGetWorkspaceSize(const aclTensor *self, const aclTensor *batch1, const aclTensor *batch2,
                                        const aclScalar *beta, const aclScalar *alpha, aclTensor *out,
                                        int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    MMX_SCALARS("aclnnAddbmmGetWorkspaceSize", false);
    return mm_composite(NN_ROW_Addbmm, NN_MM_BATCH, MMX_SUM, self, "self", batch1, "batch1", batch2, "batch2", b, a,
                        out, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnInplaceAddbmmGetWorkspaceSize(aclTensor *selfRef, const aclTensor *batch1, const aclTensor *batch2,
                                               const aclScalar *beta, const aclScalar *alpha, int8_t cubeMathType,
                                               uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    MMX_SCALARS("aclnnInplaceAddbmmGetWorkspaceSize", false);
    return mm_composite(NN_ROW_InplaceAddbmm, NN_MM_BATCH, MMX_SUM, selfRef, "selfRef", batch1, "batch1", batch2,
                        "batch2", b, a, selfRef, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnAddmvGetWorkspaceSize(const aclTensor *self, const aclTensor *mat, const aclTensor *vec,
                                       const aclScalar *alpha, const aclScalar *beta, aclTensor *out,
                                       int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    MMX_SCALARS("aclnnAddmvGetWorkspaceSize", false);
    return mm_composite(NN_ROW_Addmv, NN_MM_MV, 0, self, "self", mat, "mat", vec, "vec", b, a, out, cubeMathType,
                        workspaceSize, executor);
}

aclnnStatus aclnnGerGetWorkspaceSize(const aclTensor *self, const aclTensor *vec2, aclTensor *out,
                                     uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return mm_composite(NN_ROW_Ger, NN_MM_OUTER, 0, NULL, NULL, self, "self", vec2, "vec2", 0, 1, out, 0,
                        workspaceSize, executor);
}

aclnnStatus aclnnAddrGetWorkspaceSize(const aclTensor *self, const aclTensor *vec1, const aclTensor *vec2,
                                      const aclScalar *betaOptional, const aclScalar *alphaOptional, aclTensor *out,
                                      uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    const aclScalar *beta = betaOptional, *alpha = alphaOptional;
    MMX_SCALARS("aclnnAddrGetWorkspaceSize", true);
    return mm_composite(NN_ROW_Addr, NN_MM_OUTER, 0, self, "self", vec1, "vec1", vec2, "vec2", b, a, out, 0,
                        workspaceSize, executor);
}

aclnnStatus aclnnInplaceAddrGetWorkspaceSize(aclTensor *selfRef, const aclTensor *vec1, const aclTensor *vec2,
                                             const aclScalar *betaOptional, const aclScalar *alphaOptional,
                                             uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    const aclScalar *beta = betaOptional, *alpha = alphaOptional;
    MMX_SCALARS("aclnnInplaceAddrGetWorkspaceSize", true);
    return mm_composite(NN_ROW_InplaceAddr, NN_MM_OUTER, 0, selfRef, "selfRef", vec1, "vec1", vec2, "vec2", b, a,
                        selfRef, 0, workspaceSize, executor);
}

/* Gemm: out = alpha * op(A) x op(B) + beta * C; a transposed operand is its transposed view (B^T
 * reaches the cube as it is stored; A^T is gathered row-major before the launch, as any strided
 * view is). */
aclnnStatus aclnnGemmGetWorkspaceSize(const aclTensor *A, const aclTensor *B, const aclTensor *C, float alpha,
                                      float beta, int64_t transA, int64_t transB, aclTensor *out, int8_t cubeMathType,
                                      uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    const char *gws = "aclnnGemmGetWorkspaceSize";
    int rc;
    const struct aclTensor *ta = dv_acl_tensor_get(A, gws, "A", &rc), *tb;
    if (!ta || !(tb = dv_acl_tensor_get(B, gws, "B", &rc)))
        return rc;
    if (ta->ndims != 2 || tb->ndims != 2)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: A and B must be 2-D", gws);
    if ((transA != 0 && transA != 1) || (transB != 0 && transB != 1))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: transA %lld and transB %lld must be 0 or 1", gws,
                           (long long)transA, (long long)transB);
    aclTensor *va = NULL, *vb = NULL;
    const aclTensor *ua = A, *ub = B;
    for (int i = 0; i < 2; i++) {
        const struct aclTensor *t = i ? tb : ta;
        if (!(i ? transB : transA))
            continue;
        const int64_t d[2] = {t->dims[1], t->dims[0]}, st[2] = {t->strides[1], t->strides[0]};
        aclTensor *v = aclCreateTensor(d, 2, t->dtype, st, t->offset, t->format, t->storage, (uint64_t)t->nstorage,
                                       (void *)(uintptr_t)t->data);
        if (!v) {
            if (va)
                aclDestroyTensor(va);
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: the transposed view of %s", gws, i ? "B" : "A");
        }
        *(i ? &vb : &va) = v;
        *(i ? &ub : &ua) = v;
    }
    rc = mm_composite(NN_ROW_Gemm, NN_MM_2D, 0, C, "C", ua, "A", ub, "B", beta, alpha, out, cubeMathType,
                      workspaceSize, executor);
    if (va)
        aclDestroyTensor(va);
    if (vb)
        aclDestroyTensor(vb);
    return rc;
}

/* ---------------------------------------------------------------- clamp by tensors */

#include "aclnnop/aclnn_clamp.h"

/* ClampTensor: out = min(max(self, clipValueMin), clipValueMax), two kernels (max, then min in
 * place on out), a profile row each. */
aclnnStatus aclnnClampTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *clipValueMin,
                                             const aclTensor *clipValueMax, aclTensor *out, uint64_t *workspaceSize,
                                             aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    aclOpExecutor *head = NULL, *e = NULL;
    uint64_t w1 = 0, w2 = 0;
    int rc;
    if (!workspaceSize || !executor)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "aclnnClampTensorGetWorkspaceSize: %s is NULL",
                           workspaceSize ? "executor" : "workspaceSize");
    if ((rc = elementwise(NN_ROW_ClampTensor, NN_OTHER, self, clipValueMin, NULL, NULL, NULL, out, &w1, &head)))
        return rc;
    if ((rc = elementwise(NN_ROW_ClampMaxTensor, NN_OTHER, out, clipValueMax, NULL, NULL, NULL, out, &w2, &e))) {
        dv_acl_executor_free(head);
        return rc;
    }
    head->next = e;
    *workspaceSize = w1 + w2;
    *executor = head;
    return ACLNN_SUCCESS;
}
