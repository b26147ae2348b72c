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
#include <string.h>

#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_exp.h"
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
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_tanh.h"
/* s19-act */
#include "aclnnop/aclnn_acosh.h"
#include "aclnnop/aclnn_asinh.h"
#include "aclnnop/aclnn_atanh.h"
#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_celu.h"
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
#include "aclnnop/aclnn_softshrink.h"
#include "aclnnop/aclnn_softsign.h"
#include "aclnnop/aclnn_square.h"
#include "aclnnop/aclnn_trunc.h"
#include "aclnnop/aclnn_hardshrink.h"
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "aclnnop/aclnn_selu_backward.h"
#include "aclnnop/aclnn_sigmoid_backward.h"
#include "aclnnop/aclnn_silu_backward.h"
#include "aclnnop/aclnn_softshrink_backward.h"
#include "aclnnop/aclnn_tanh_backward.h"
#include "aclnnop/aclnn_threshold_backward.h"

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

/* The tensors of a live element-wise call: plain formats, one shape and one dtype, self's dtype one
 * the library operator takes. */
static int ew_check(dv_nn_call_t *c, unsigned has, const aclTensor *self, const aclTensor *other, const aclTensor *out)
{
    static const char nobc[] = "; dvsim does not broadcast yet: the tensors must have the same shape";
    const char *ws = (has & NN_INPLACE) ? "selfRef" : "self";
    int rc;
    if ((rc = dv_nn_check_dtype(c, self, ws, "dtype")) || (rc = dv_nn_check_plain(c, self, ws)))
        return rc;
    if (!(has & NN_INPLACE) && ((rc = dv_nn_check_plain(c, out, "out")) ||
                                (rc = dv_nn_check_same_shape(c, self, ws, out, "out", nobc)) ||
                                (rc = dv_nn_check_same_dtype(c, self, ws, out, "out"))))
        return rc;
    if ((has & NN_OTHER) && ((rc = dv_nn_check_plain(c, other, "other")) ||
                             (rc = dv_nn_check_same_shape(c, self, ws, other, "other", nobc)) ||
                             (rc = dv_nn_check_same_dtype(c, self, ws, other, "other"))))
        return rc;
    return ACLNN_SUCCESS;
}

/* The executor of a checked element-wise call: the flattened element count as --shape. */
static int ew_build(dv_nn_call_t *c, unsigned has, const aclTensor *self, const aclTensor *other,
                    const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    const bool inplace = has & NN_INPLACE;
    const char *ws = inplace ? "selfRef" : "self";
    const dv_acl_dtype_info_t *d = dv_acl_dtype_info(self->dtype);
    uint64_t n = dv_acl_tensor_elems(self);
    c->empty = n == 0;
    dv_nn_call_param(c, "shape", "%llu", (unsigned long long)n);
    dv_nn_call_param(c, "dtype", "%s", dv_nn_param_dtype_name(d->dv));
    dv_nn_call_tensor(c, self, ws, "x", true);
    if (has & NN_OTHER)
        dv_nn_call_tensor(c, other, "other", "y", true);
    dv_nn_call_tensor(c, inplace ? self : out, inplace ? ws : "out", (has & NN_OTHER) ? "z" : "y", false);
    return dv_nn_exec_build(c, workspaceSize, executor);
}

static int elementwise(int row, unsigned has, const aclTensor *self, const aclTensor *other, const aclScalar *scalar,
                       const char *scalar_what, const aclScalar *alpha, const aclTensor *out,
                       uint64_t *workspaceSize, aclOpExecutor **executor)
{
    const bool inplace = has & NN_INPLACE;
    dv_nn_call_t call, *c = &call;
    int rc;
    nn_init(c, row);
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) ||
        (rc = dv_nn_get_tensor(c, self, inplace ? "selfRef" : "self")) ||
        ((has & NN_OTHER) && (rc = dv_nn_get_tensor(c, other, "other"))) ||
        (scalar_what && (rc = get_scalar(c, scalar, scalar_what))) ||
        ((has & NN_ALPHA) && (rc = get_scalar(c, alpha, "alpha"))) ||
        (!inplace && (rc = dv_nn_get_tensor(c, out, "out"))) || (rc = ew_check(c, has, self, other, out)))
        return rc;
    if (scalar_what)
        dv_nn_call_param(c, "scalar", "%.17g", nn_rows[row].factor * scalar->value * (alpha ? alpha->value : 1.0));
    else if ((has & NN_ALPHA) && (rc = dv_nn_float_param(c, "alpha", alpha->value, 1.0, "alpha")))
        return rc;
    return ew_build(c, has, self, other, out, workspaceSize, executor);
}

/* Clamp and Hardtanh: out = min(max(self, clipValueMin), clipValueMax), the library's clamp.  Either
 * bound may be NULL (not both): it is then the dtype's lowest or highest finite value. */
static int clamp(int row, unsigned has, const aclTensor *self, const aclScalar *lo, const aclScalar *hi,
                 const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    const bool inplace = has & NN_INPLACE;
    dv_nn_call_t call, *c = &call;
    int rc;
    nn_init(c, row);
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) ||
        (rc = dv_nn_get_tensor(c, self, inplace ? "selfRef" : "self")))
        return rc;
    if (!lo && !hi)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: clipValueMin and clipValueMax are both NULL", c->gws);
    if ((lo && (rc = get_scalar(c, lo, "clipValueMin"))) || (hi && (rc = get_scalar(c, hi, "clipValueMax"))) ||
        (!inplace && (rc = dv_nn_get_tensor(c, out, "out"))) || (rc = ew_check(c, has, self, NULL, out)))
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
    return ew_build(c, has, self, NULL, out, workspaceSize, executor);
}

/* The first phase of each signature class, in the names of the row's parameter list. */
#define DV_NN_BODY_UNARY(row) elementwise(row, 0, self, NULL, NULL, NULL, NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_UNARY(row) \
    elementwise(row, NN_INPLACE, selfRef, NULL, NULL, NULL, NULL, selfRef, workspaceSize, executor)
#define DV_NN_BODY_UNARY_SCALAR(row) \
    elementwise(row, 0, self, NULL, negativeSlope, "negativeSlope", NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_UNARY_SCALAR(row) \
    elementwise(row, NN_INPLACE, selfRef, NULL, negativeSlope, "negativeSlope", NULL, selfRef, workspaceSize, executor)
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
/* s19-act: the same first phases under CANN's other parameter names */
#define DV_NN_BODY_UNARY_RESULT(row) elementwise(row, 0, self, NULL, NULL, NULL, NULL, result, workspaceSize, executor)
#define DV_NN_BODY_UNARY_INPUT(row) elementwise(row, 0, input, NULL, NULL, NULL, NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_UNARY_INPUT(row) \
    elementwise(row, NN_INPLACE, inputRef, NULL, NULL, NULL, NULL, inputRef, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_UNARY_SELF(row) \
    elementwise(row, NN_INPLACE, self, NULL, NULL, NULL, NULL, self, workspaceSize, executor)
#define DV_NN_BODY_UNARY_ALPHA(row) \
    elementwise(row, 0, self, NULL, alpha, "alpha", NULL, out, workspaceSize, executor)
#define DV_NN_BODY_INPLACE_UNARY_ALPHA(row) \
    elementwise(row, NN_INPLACE, selfRef, NULL, alpha, "alpha", NULL, selfRef, workspaceSize, executor)
#define DV_NN_BODY_UNARY_LAMBD(row) \
    elementwise(row, 0, self, NULL, lambd, "lambd", NULL, out, workspaceSize, executor)
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

#define DV_NN_UNPAREN(...) __VA_ARGS__
/* The first phases of the table's rows but CUSTOM (written out below). */
#define DV_NN_GWS_CUSTOM(api, params)
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
#define DV_NN_GWS_UNARY_ALPHA(api, params) DV_NN_GWS(api, UNARY_ALPHA, params)
#define DV_NN_GWS_INPLACE_UNARY_ALPHA(api, params) DV_NN_GWS(api, INPLACE_UNARY_ALPHA, params)
#define DV_NN_GWS_UNARY_LAMBD(api, params) DV_NN_GWS(api, UNARY_LAMBD, params)
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
#define DV_ACLNN(api, header, sig, libop, optype, factor, params, ws_q, stream_q, doc) DV_NN_GWS_##sig(api, params)
#include "nnops.def"

/* The second phase of every row: run the executor its first phase made. */
#define DV_ACLNN(api, header, sig, libop, optype, factor, params, ws_q, stream_q, doc)                             \
    aclnnStatus aclnn##api(void *workspace, ws_q uint64_t workspaceSize, aclOpExecutor *executor,                \
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

aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim, aclTensor *out, uint64_t *workspaceSize,
                                         aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    nn_init(&c, NN_ROW_Softmax);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, self, "self")) ||
        (rc = dv_nn_get_tensor(&c, out, "out")))
        return rc;
    if ((rc = dv_nn_check_dtype(&c, self, "self", "dtype")) || (rc = dv_nn_check_plain(&c, self, "self")) ||
        (rc = dv_nn_check_plain(&c, out, "out")) || (rc = dv_nn_check_same_shape(&c, self, "self", out, "out", "")) ||
        (rc = dv_nn_check_same_dtype(&c, self, "self", out, "out")))
        return rc;
    int64_t last = self->ndims ? self->ndims - 1 : 0;
    if (dim != -1 && dim != last)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dim is %lld; dvsim's softmax normalises the last axis only "
                           "(dim -1 or %lld)", c.gws, (long long)dim, (long long)last);
    uint64_t rows, cols;
    rows_cols(self, 1, &rows, &cols);
    c.empty = rows * cols == 0;
    dv_nn_call_param(&c, "shape", "%llux%llu", (unsigned long long)rows, (unsigned long long)cols);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    dv_nn_call_tensor(&c, self, "self", "x", true);
    dv_nn_call_tensor(&c, out, "out", "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
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


/* ---------------------------------------------------------------- batch norm */

aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor *input, const aclTensor *weight, const aclTensor *bias,
                                           aclTensor *runningMean, aclTensor *runningVar, bool training,
                                           double momentum, double eps, aclTensor *output, aclTensor *saveMean,
                                           aclTensor *saveInvstd, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    (void)momentum;
    (void)saveMean;
    (void)saveInvstd;
    nn_init(&c, NN_ROW_BatchNorm);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, input, "input")) ||
        (rc = dv_nn_get_tensor(&c, output, "output")))
        return rc;
    if (training)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: training is true; dvsim's batchnorm is inference only "
                           "(normalises with runningMean and runningVar)", c.gws);
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

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out,
                                        int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    nn_init(&c, NN_ROW_Matmul);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, self, "self")) ||
        (rc = dv_nn_get_tensor(&c, mat2, "mat2")) || (rc = dv_nn_get_tensor(&c, out, "out")))
        return rc;
    if ((rc = dv_nn_check_cube_math(&c, cubeMathType)))
        return rc;
    const aclTensor *ts[3] = {self, mat2, out};
    static const char *const tw[3] = {"self", "mat2", "out"};
    for (int i = 0; i < 3; i++) {
        if ((rc = dv_nn_check_plain(&c, ts[i], tw[i])))
            return rc;
        if (ts[i]->ndims != 2)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %d dimensions; dvsim's aclnnMatmul takes 2-D "
                               "tensors only", c.gws, tw[i], ts[i]->ndims);
    }
    const int64_t M = self->dims[0], K = self->dims[1], N = mat2->dims[1];
    if (mat2->dims[0] != K || out->dims[0] != M || out->dims[1] != N) {
        char a[64], b[64], o[64];
        dv_acl_dims_str(self, a, sizeof a);
        dv_acl_dims_str(mat2, b, sizeof b);
        dv_acl_dims_str(out, o, sizeof o);
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: shapes do not match: self [%s] x mat2 [%s] -> out [%s]; "
                           "needed self [M,K], mat2 [K,N], out [M,N]", c.gws, a, b, o);
    }
    if ((rc = dv_nn_check_dtype(&c, self, "self", "dtype")) ||
        (rc = dv_nn_check_same_dtype(&c, self, "self", mat2, "mat2")) ||
        (rc = dv_nn_check_dtype(&c, out, "out", "out-dtype")))
        return rc;
    if (K == 0 && M * N != 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: K is 0 (an all-zero result): not supported by dvsim", c.gws);
    /* B as the cube reads it: [K,N] row-major, or [N,K] row-major (--b-transposed).  A mat2 stored
     * column-major (the transposed view of an [N,K] tensor) is the second without any reordering;
     * a row-major one the first: the kernel transposes it into L0B (fp32 and int8 with
     * load_cbuf_to_cb_transpose).  Only a chip without that load (chip.load_transpose) has fp32 and
     * int8 staged transposed on the host. */
    const unsigned isz = dv_acl_dtype_info(self->dtype)->size;
    const bool colmajor = mat2->strides[0] == 1 && mat2->strides[1] == K && K > 1;
    const bool bt = colmajor || (isz != 2 && !dv_acl_config()->chip_load_transpose);
    c.empty = M * N == 0;
    dv_nn_call_param(&c, "m", "%lld", (long long)M);
    dv_nn_call_param(&c, "n", "%lld", (long long)N);
    dv_nn_call_param(&c, "k", "%lld", (long long)K);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(self->dtype)->dv));
    dv_nn_call_param(&c, "out-dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(out->dtype)->dv));
    dv_nn_call_param(&c, "b-transposed", "%s", bt ? "on" : "off");
    dv_nn_call_tensor(&c, self, "self", "a", true);
    dv_nn_call_tensor(&c, mat2, "mat2", "b", true);
    c.t[c.ntensors - 1].transpose = bt;
    dv_nn_call_tensor(&c, out, "out", "c", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}


/* ---------------------------------------------------------------- convolution */

aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor *input, const aclTensor *weight, const aclTensor *bias,
                                             const aclIntArray *stride, const aclIntArray *padding,
                                             const aclIntArray *dilation, bool transposed,
                                             const aclIntArray *outputPadding, const int64_t groups, aclTensor *output,
                                             int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t c;
    int rc;
    int64_t s, p, d;
    (void)outputPadding; /* only meaningful for a transposed convolution */
    nn_init(&c, NN_ROW_Convolution);
    if ((rc = dv_nn_call_start(&c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(&c, input, "input")) ||
        (rc = dv_nn_get_tensor(&c, weight, "weight")) || (rc = dv_nn_get_tensor(&c, output, "output")))
        return rc;
    if ((rc = dv_nn_uniform_array(&c, stride, "stride", 2, &s)) ||
        (rc = dv_nn_uniform_array(&c, padding, "padding", 4, &p)) ||
        (rc = dv_nn_uniform_array(&c, dilation, "dilation", 2, &d)))
        return rc;
    if (bias)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: bias is not supported by dvsim's convolution: pass NULL and "
                           "add the bias separately", c.gws);
    if (transposed)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: transposed is true; dvsim's convolution is not transposed",
                           c.gws);
    if (groups != 1)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: groups is %lld; dvsim's convolution takes groups 1", c.gws,
                           (long long)groups);
    if ((rc = dv_nn_check_cube_math(&c, cubeMathType)) || (rc = dv_nn_check_dtype(&c, input, "input", "dtype")) ||
        (rc = dv_nn_check_nchw(&c, input, "input")) || (rc = dv_nn_check_nchw(&c, weight, "weight")) ||
        (rc = dv_nn_check_nchw(&c, output, "output")) ||
        (rc = dv_nn_check_same_dtype(&c, input, "input", weight, "weight")) ||
        (rc = dv_nn_check_same_dtype(&c, input, "input", output, "output")))
        return rc;
    const int64_t *x = input->dims, *w = weight->dims, *y = output->dims;
    if (w[1] != x[1])
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: weight has %lld input channels (dim 1) but input has %lld",
                           c.gws, (long long)w[1], (long long)x[1]);
    if (s < 1 || d < 1 || p < 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: stride %lld, padding %lld, dilation %lld: stride and "
                           "dilation must be at least 1, padding at least 0", c.gws, (long long)s, (long long)p,
                           (long long)d);
    int64_t oh = (x[2] + 2 * p - d * (w[2] - 1) - 1) / s + 1, ow = (x[3] + 2 * p - d * (w[3] - 1) - 1) / s + 1;
    if (x[2] + 2 * p - d * (w[2] - 1) - 1 < 0 || x[3] + 2 * p - d * (w[3] - 1) - 1 < 0)
        oh = ow = 0;
    if (y[0] != x[0] || y[1] != w[0] || y[2] != oh || y[3] != ow || oh < 1 || ow < 1) {
        char sy[64];
        dv_acl_dims_str(output, sy, sizeof sy);
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: output has shape [%s]; the convolution gives [%lld,%lld,%lld,"
                           "%lld]", c.gws, sy, (long long)x[0], (long long)w[0], (long long)oh, (long long)ow);
    }
    c.empty = dv_acl_tensor_elems(input) == 0 || dv_acl_tensor_elems(weight) == 0;
    dv_nn_call_param(&c, "n", "%lld", (long long)x[0]);
    dv_nn_call_param(&c, "cin", "%lld", (long long)x[1]);
    dv_nn_call_param(&c, "h", "%lld", (long long)x[2]);
    dv_nn_call_param(&c, "w", "%lld", (long long)x[3]);
    dv_nn_call_param(&c, "cout", "%lld", (long long)w[0]);
    dv_nn_call_param(&c, "kh", "%lld", (long long)w[2]);
    dv_nn_call_param(&c, "kw", "%lld", (long long)w[3]);
    dv_nn_call_param(&c, "stride", "%lld", (long long)s);
    dv_nn_call_param(&c, "pad", "%lld", (long long)p);
    dv_nn_call_param(&c, "dilation", "%lld", (long long)d);
    dv_nn_call_param(&c, "dtype", "%s", dv_nn_param_dtype_name(dv_acl_dtype_info(input->dtype)->dv));
    dv_nn_call_tensor(&c, input, "input", "x", true);
    dv_nn_call_tensor(&c, weight, "weight", "w", true);
    dv_nn_call_tensor(&c, output, "output", "y", false);
    return dv_nn_exec_build(&c, workspaceSize, executor);
}

