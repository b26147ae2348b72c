/* acl/nnlogic.c - the first phases of the aclnn logical, bitwise and select operators (acl/nnops.def,
 * section "logical, bitwise, where (s20-logic)") onto the library's ops/logic.c:
 *
 * - LogicalAnd / Or / Xor / Not (and the Inplace forms): inputs of ACL_BOOL (one byte, the library's
 *   uint8), ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_FLOAT16 or ACL_FLOAT, nonzero true; out 0 / 1
 *   as ACL_BOOL or in out's dtype (ACL_FLOAT16, ACL_FLOAT, ACL_INT32, ACL_UINT8); in place, in selfRef's.
 * - BitwiseAnd / Or / Xor Tensor and Scalar, BitwiseNot (and the Inplace forms CANN has): ACL_INT8,
 *   ACL_UINT8, ACL_INT16, ACL_INT32 and ACL_BOOL (as its bytes; BitwiseNot of a bool is logical not).
 *   ACL_INT64 is not a vector-unit type: 161002 with a message.
 * - IsFinite, IsInf, IsPosInf, IsNegInf, Signbit: ACL_FLOAT16 / ACL_FLOAT self, 0 / 1 out.
 * - SWhere: condition ACL_BOOL (or ACL_UINT8), self, other and out of one dtype (ACL_FLOAT16, ACL_FLOAT,
 *   ACL_INT16, ACL_INT32).  InplaceMaskedFillScalar / Tensor: selfRef of those dtypes, mask ACL_BOOL,
 *   the value an aclScalar or a one-element device tensor (read when the first phase runs, as the
 *   foreach V1 forms read theirs: a value written between the two phases is not seen).
 * - NanToNum, InplaceNanToNum: ACL_FLOAT16 / ACL_FLOAT; nan, posinf and neginf are clamped to the
 *   dtype's finite range (torch's default of the dtype's largest value is passed as FLT_MAX).
 * - LeftShift, RightShift (per-element counts) and LeftShifts (an aclScalar count): ACL_INT16, ACL_INT32
 *   (vshl / vshr shift 16- and 32-bit lanes), every tensor of one dtype; a count outside [0, width)
 *   gives 0 (left) or the sign fill (right).
 * - Equal: out (one element) = self and other have equal elements (ACL_FLOAT16, ACL_FLOAT, ACL_INT32,
 *   ACL_INT16, ACL_INT8, ACL_UINT8, ACL_BOOL); one block.
 *
 * Every tensor of a call has one shape (dvsim does not broadcast these: 161002 with a message); Equal
 * of tensors of different shapes is not implemented (161002). */
#include "nn.h"

#include "dv/ops.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "aclnnop/aclnn_bitwise_and_scalar.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwise_not.h"
#include "aclnnop/aclnn_bitwise_or_scalar.h"
#include "aclnnop/aclnn_bitwise_or_tensor.h"
#include "aclnnop/aclnn_bitwise_xor_scalar.h"
#include "aclnnop/aclnn_bitwise_xor_tensor.h"
#include "aclnnop/aclnn_equal.h"
#include "aclnnop/aclnn_is_inf.h"
#include "aclnnop/aclnn_isfinite.h"
#include "aclnnop/aclnn_isneginf.h"
#include "aclnnop/aclnn_isposinf.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_logical_or.h"
#include "aclnnop/aclnn_left_shift.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_masked_fill_tensor.h"
#include "aclnnop/aclnn_nan_to_num.h"
#include "aclnnop/aclnn_right_shift.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_signbit.h"

static const char nobc[] = "; dvsim does not broadcast these operators: the tensors must have the same shape";

/* The library dtype of a tensor: ACL_BOOL is its one byte (uint8). */
static int lg_dv(const aclTensor *t)
{
    const dv_acl_dtype_info_t *d = dv_acl_dtype_info(t->dtype);
    return t->dtype == ACL_BOOL ? DV_DT_U8 : d ? d->dv : -1;
}

/* t's dtype must be one the library's `param` takes (ACL_BOOL when it takes uint8). */
static int lg_check_dtype(const dv_nn_call_t *c, const aclTensor *t, const char *what, const char *param)
{
    if (t->dtype == ACL_BOOL) {
        const dv_opdesc_t *op = dv_ops_find(c->op);
        const int i = op ? dv_ops_param_index(op, param) : -1;
        if (i >= 0 && (op->params[i].dtypes & (1u << DV_DT_U8)))
            return ACLNN_SUCCESS;
    }
    return dv_nn_check_dtype(c, t, what, param);
}

/* A live tensor of the shape of `like`, in a plain format. */
static int lg_like(const dv_nn_call_t *c, const aclTensor *t, const char *what, const aclTensor *like,
                   const char *like_what)
{
    int rc;
    if ((rc = dv_nn_check_plain(c, t, what)) || (rc = dv_nn_check_same_shape(c, like, like_what, t, what, nobc)))
        return rc;
    return ACLNN_SUCCESS;
}

/* The common tail: shape, dtype and the executor. */
static int lg_build(dv_nn_call_t *c, const aclTensor *self, int dtype, uint64_t *workspaceSize,
                    aclOpExecutor **executor)
{
    const uint64_t n = dv_acl_tensor_elems(self);
    c->empty = n == 0;
    dv_nn_call_param(c, "shape", "%llu", (unsigned long long)(n ? n : 1));
    dv_nn_call_param(c, "dtype", "%s", dv_nn_param_dtype_name(dtype));
    return dv_nn_exec_build(c, workspaceSize, executor);
}

/* ---------------------------------------------------------------- logical */

/* out = self OP other (other NULL: not self) as 0 / 1 in out's dtype; inplace: out is self. */
static aclnnStatus logical(const char *api, const aclTensor *self, const aclTensor *other, const aclTensor *out,
                           bool inplace, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    const char *ws = inplace ? "selfRef" : "self";
    dv_nn_call_t call, *c = &call;
    int rc;
    dv_nn_call_init_row(c, api);
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(c, self, ws)) ||
        (other && (rc = dv_nn_get_tensor(c, other, "other"))) || (!inplace && (rc = dv_nn_get_tensor(c, out, "out"))))
        return rc;
    if ((rc = lg_check_dtype(c, self, ws, "dtype")) || (rc = dv_nn_check_plain(c, self, ws)))
        return rc;
    if (other && ((rc = lg_like(c, other, "other", self, ws)) || (rc = dv_nn_check_same_dtype(c, self, ws, other, "other"))))
        return rc;
    if (!inplace && (rc = lg_like(c, out, "out", self, ws)))
        return rc;
    const aclTensor *res = inplace ? self : out;
    if ((rc = lg_check_dtype(c, res, inplace ? ws : "out", "out-dtype")))
        return rc;
    dv_nn_call_param(c, "out-dtype", "%s", dv_nn_param_dtype_name(lg_dv(res)));
    dv_nn_call_tensor(c, self, ws, "x", true);
    if (other)
        dv_nn_call_tensor(c, other, "other", "y", true);
    dv_nn_call_tensor(c, res, inplace ? ws : "out", other ? "z" : "y", false);
    return lg_build(c, self, lg_dv(self), workspaceSize, executor);
}

aclnnStatus aclnnLogicalAndGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                            uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return logical("aclnnLogicalAnd", self, other, out, false, workspaceSize, executor);
}

aclnnStatus aclnnInplaceLogicalAndGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other, uint64_t *workspaceSize,
                                                   aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return logical("aclnnInplaceLogicalAnd", selfRef, other, selfRef, true, workspaceSize, executor);
}

aclnnStatus aclnnLogicalOrGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                           uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return logical("aclnnLogicalOr", self, other, out, false, workspaceSize, executor);
}

aclnnStatus aclnnInplaceLogicalOrGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other, uint64_t *workspaceSize,
                                                  aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return logical("aclnnInplaceLogicalOr", selfRef, other, selfRef, true, workspaceSize, executor);
}

aclnnStatus aclnnLogicalXorGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                            uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return logical("aclnnLogicalXor", self, other, out, false, workspaceSize, executor);
}

aclnnStatus aclnnLogicalNotGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                            aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return logical("aclnnLogicalNot", self, NULL, out, false, workspaceSize, executor);
}

aclnnStatus aclnnInplaceLogicalNotGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
                                                   aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return logical("aclnnInplaceLogicalNot", selfRef, NULL, selfRef, true, workspaceSize, executor);
}

/* ---------------------------------------------------------------- bitwise */

/* out = self OP (other | scalar), or ~self (neither); in self's dtype (a bool self: its bytes; the
 * not of a bool is the library's logical_not). */
static aclnnStatus bitwise(const char *api, const aclTensor *self, const aclTensor *other, const aclScalar *scalar,
                           bool has_scalar, const aclTensor *out, bool inplace, uint64_t *workspaceSize,
                           aclOpExecutor **executor)
{
    const char *ws = inplace ? "selfRef" : "self";
    dv_nn_call_t call, *c = &call;
    int rc;
    dv_nn_call_init_row(c, api);
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(c, self, ws)) ||
        (other && (rc = dv_nn_get_tensor(c, other, "other"))) || (!inplace && (rc = dv_nn_get_tensor(c, out, "out"))))
        return rc;
    if (has_scalar && !scalar)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: other is NULL", c->gws);
    if (has_scalar && !dv_acl_handle_is(scalar, DV_ACL_MAGIC_SCALAR))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: other is not a live aclScalar", c->gws);
    const bool bool_not = !other && !has_scalar && self->dtype == ACL_BOOL;
    if (bool_not)
        c->op = "logical_not"; /* ~ of a one-byte bool is its logical not */
    if ((rc = lg_check_dtype(c, self, ws, "dtype")) || (rc = dv_nn_check_plain(c, self, ws)))
        return rc;
    if (other && ((rc = lg_like(c, other, "other", self, ws)) || (rc = dv_nn_check_same_dtype(c, self, ws, other, "other"))))
        return rc;
    if (!inplace && ((rc = lg_like(c, out, "out", self, ws)) || (rc = dv_nn_check_same_dtype(c, self, ws, out, "out"))))
        return rc;
    if (has_scalar) {
        double s = scalar->value;
        if (self->dtype == ACL_BOOL)
            s = s != 0;
        else if (s != nearbyint(s))
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: other is %g; a bitwise operation takes an integer", c->gws,
                               s);
        dv_nn_call_param(c, "scalar", "%.17g", s);
    }
    if (bool_not)
        dv_nn_call_param(c, "out-dtype", "uint8");
    dv_nn_call_tensor(c, self, ws, "x", true);
    if (other)
        dv_nn_call_tensor(c, other, "other", "y", true);
    dv_nn_call_tensor(c, inplace ? self : out, inplace ? ws : "out", other ? "z" : "y", false);
    return lg_build(c, self, lg_dv(self), workspaceSize, executor);
}

#define LG_BITWISE(Name, name)                                                                                  \
    aclnnStatus aclnn##Name##TensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out, \
                                                    uint64_t *workspaceSize, aclOpExecutor **executor)          \
    {                                                                                                           \
        DV_ACL_LOCKED();                                                                                        \
        return bitwise("aclnn" #Name "Tensor", self, other, NULL, false, out, false, workspaceSize, executor);   \
    }                                                                                                           \
    aclnnStatus aclnn##Name##ScalarGetWorkspaceSize(const aclTensor *self, const aclScalar *other, aclTensor *out, \
                                                    uint64_t *workspaceSize, aclOpExecutor **executor)          \
    {                                                                                                           \
        DV_ACL_LOCKED();                                                                                        \
        return bitwise("aclnn" #Name "Scalar", self, NULL, other, true, out, false, workspaceSize, executor);   \
    }
LG_BITWISE(BitwiseAnd, bitwise_and)
LG_BITWISE(BitwiseOr, bitwise_or)
LG_BITWISE(BitwiseXor, bitwise_xor)

/* CANN's in-place bitwise headers are not uniform in their const qualifiers. */
aclnnStatus aclnnInplaceBitwiseAndTensorGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *other,
                                                         uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return bitwise("aclnnInplaceBitwiseAndTensor", selfRef, other, NULL, false, selfRef, true, workspaceSize, executor);
}

aclnnStatus aclnnInplaceBitwiseAndScalarGetWorkspaceSize(const aclTensor *selfRef, const aclScalar *other,
                                                         uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return bitwise("aclnnInplaceBitwiseAndScalar", selfRef, NULL, other, true, selfRef, true, workspaceSize, executor);
}

aclnnStatus aclnnInplaceBitwiseOrTensorGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other,
                                                        uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return bitwise("aclnnInplaceBitwiseOrTensor", selfRef, other, NULL, false, selfRef, true, workspaceSize, executor);
}

aclnnStatus aclnnInplaceBitwiseOrScalarGetWorkspaceSize(aclTensor *selfRef, const aclScalar *other,
                                                        uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return bitwise("aclnnInplaceBitwiseOrScalar", selfRef, NULL, other, true, selfRef, true, workspaceSize, executor);
}

aclnnStatus aclnnInplaceBitwiseXorTensorGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other,
                                                         uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return bitwise("aclnnInplaceBitwiseXorTensor", selfRef, other, NULL, false, selfRef, true, workspaceSize, executor);
}

aclnnStatus aclnnInplaceBitwiseXorScalarGetWorkspaceSize(aclTensor *selfRef, const aclScalar *other,
                                                         uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return bitwise("aclnnInplaceBitwiseXorScalar", selfRef, NULL, other, true, selfRef, true, workspaceSize, executor);
}

aclnnStatus aclnnBitwiseNotGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                            aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return bitwise("aclnnBitwiseNot", self, NULL, NULL, false, out, false, workspaceSize, executor);
}

/* ---------------------------------------------------------------- shifts */

/* out = self shifted by shiftBits (a tensor of self's dtype) or by count (shiftBits NULL). */
static aclnnStatus shift(const char *api, const char *ws, const aclTensor *self, const aclTensor *shiftBits,
                         const aclScalar *count, const aclTensor *out, uint64_t *workspaceSize,
                         aclOpExecutor **executor)
{
    dv_nn_call_t call, *c = &call;
    int rc;
    dv_nn_call_init_row(c, api);
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(c, self, ws)) ||
        (!count && (rc = dv_nn_get_tensor(c, shiftBits, "shiftBits"))) || (rc = dv_nn_get_tensor(c, out, "out")))
        return rc;
    if ((rc = dv_nn_check_dtype(c, self, ws, "dtype")) || (rc = dv_nn_check_plain(c, self, ws)) ||
        (rc = lg_like(c, out, "out", self, ws)) || (rc = dv_nn_check_same_dtype(c, self, ws, out, "out")))
        return rc;
    if (!count && ((rc = lg_like(c, shiftBits, "shiftBits", self, ws)) ||
                   (rc = dv_nn_check_same_dtype(c, self, ws, shiftBits, "shiftBits"))))
        return rc;
    if (count) {
        if (!isfinite(count->value) || count->value != nearbyint(count->value))
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: shiftBits is %g; a shift count is an integer", c->gws,
                               count->value);
        dv_nn_call_param(c, "scalar", "%.17g", count->value);
    }
    dv_nn_call_tensor(c, self, ws, "x", true);
    if (!count)
        dv_nn_call_tensor(c, shiftBits, "shiftBits", "y", true);
    dv_nn_call_tensor(c, out, "out", count ? "y" : "z", false);
    return lg_build(c, self, lg_dv(self), workspaceSize, executor);
}

aclnnStatus aclnnLeftShiftGetWorkspaceSize(const aclTensor *self, const aclTensor *shiftBits, aclTensor *out,
                                           uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return shift("aclnnLeftShift", "self", self, shiftBits, NULL, out, workspaceSize, executor);
}

aclnnStatus aclnnLeftShiftsGetWorkspaceSize(const aclTensor *self, const aclScalar *shiftBits, aclTensor *out,
                                            uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    const char *gws = "aclnnLeftShiftsGetWorkspaceSize";
    if (!shiftBits)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: shiftBits is NULL", gws);
    if (!dv_acl_handle_is(shiftBits, DV_ACL_MAGIC_SCALAR))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: shiftBits is not a live aclScalar", gws);
    return shift("aclnnLeftShifts", "self", self, NULL, shiftBits, out, workspaceSize, executor);
}

aclnnStatus aclnnRightShiftGetWorkspaceSize(const aclTensor *input, const aclTensor *shiftBits, aclTensor *out,
                                            uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return shift("aclnnRightShift", "input", input, shiftBits, NULL, out, workspaceSize, executor);
}

/* ---------------------------------------------------------------- predicates */

/* out = P(self) as 0 / 1 in out's dtype. */
static aclnnStatus predicate(const char *api, const aclTensor *self, const aclTensor *out, uint64_t *workspaceSize,
                             aclOpExecutor **executor)
{
    dv_nn_call_t call, *c = &call;
    int rc;
    dv_nn_call_init_row(c, api);
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(c, self, "self")) ||
        (rc = dv_nn_get_tensor(c, out, "out")))
        return rc;
    if ((rc = dv_nn_check_dtype(c, self, "self", "dtype")) || (rc = dv_nn_check_plain(c, self, "self")) ||
        (rc = lg_like(c, out, "out", self, "self")) || (rc = lg_check_dtype(c, out, "out", "out-dtype")))
        return rc;
    dv_nn_call_param(c, "out-dtype", "%s", dv_nn_param_dtype_name(lg_dv(out)));
    dv_nn_call_tensor(c, self, "self", "x", true);
    dv_nn_call_tensor(c, out, "out", "y", false);
    return lg_build(c, self, lg_dv(self), workspaceSize, executor);
}

aclnnStatus aclnnIsFiniteGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                          aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return predicate("aclnnIsFinite", self, out, workspaceSize, executor);
}

aclnnStatus aclnnIsInfGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                       aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return predicate("aclnnIsInf", self, out, workspaceSize, executor);
}

aclnnStatus aclnnIsPosInfGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                          aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return predicate("aclnnIsPosInf", self, out, workspaceSize, executor);
}

aclnnStatus aclnnIsNegInfGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                          aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return predicate("aclnnIsNegInf", self, out, workspaceSize, executor);
}

aclnnStatus aclnnSignbitGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                         aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return predicate("aclnnSignbit", self, out, workspaceSize, executor);
}

/* ---------------------------------------------------------------- select */

/* A one-byte condition / mask tensor of self's shape. */
static int lg_mask(const dv_nn_call_t *c, const aclTensor *m, const char *what, const aclTensor *like,
                   const char *like_what)
{
    int rc;
    if ((rc = lg_like(c, m, what, like, like_what)))
        return rc;
    if (m->dtype != ACL_BOOL && m->dtype != ACL_UINT8)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s; it must be ACL_BOOL (or ACL_UINT8)", c->gws,
                           what, dv_nn_dtype_name(m->dtype));
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnSWhereGetWorkspaceSize(const aclTensor *condition, const aclTensor *self, const aclTensor *other,
                                        aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t call, *c = &call;
    int rc;
    dv_nn_call_init_row(c, "aclnnSWhere");
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(c, condition, "condition")) ||
        (rc = dv_nn_get_tensor(c, self, "self")) || (rc = dv_nn_get_tensor(c, other, "other")) ||
        (rc = dv_nn_get_tensor(c, out, "out")))
        return rc;
    if ((rc = dv_nn_check_dtype(c, self, "self", "dtype")) || (rc = dv_nn_check_plain(c, self, "self")) ||
        (rc = lg_mask(c, condition, "condition", self, "self")) || (rc = lg_like(c, other, "other", self, "self")) ||
        (rc = dv_nn_check_same_dtype(c, self, "self", other, "other")) || (rc = lg_like(c, out, "out", self, "self")) ||
        (rc = dv_nn_check_same_dtype(c, self, "self", out, "out")))
        return rc;
    dv_nn_call_tensor(c, condition, "condition", "cond", true);
    dv_nn_call_tensor(c, self, "self", "x", true);
    dv_nn_call_tensor(c, other, "other", "y", true);
    dv_nn_call_tensor(c, out, "out", "z", false);
    return lg_build(c, self, lg_dv(self), workspaceSize, executor);
}

/* The value of a one-element device tensor, read now. */
static int lg_tensor_value(const char *gws, const aclTensor *t, const char *what, double *v)
{
    int rc;
    const struct aclTensor *st = dv_acl_tensor_get(t, gws, what, &rc);
    if (!st)
        return rc;
    const dv_acl_dtype_info_t *d = dv_acl_dtype_info(st->dtype);
    if (dv_acl_tensor_elems(st) != 1)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %llu elements; it must hold one value", gws, what,
                           (unsigned long long)dv_acl_tensor_elems(st));
    if (st->dtype != ACL_FLOAT && st->dtype != ACL_FLOAT16 && st->dtype != ACL_INT32 && st->dtype != ACL_INT16)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s; dvsim reads a value tensor of ACL_FLOAT, "
                           "ACL_FLOAT16, ACL_INT32 or ACL_INT16", gws, what, dv_nn_dtype_name(st->dtype));
    if (!st->data)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has no device address", gws, what);
    uint8_t *h;
    uint64_t avail = 0;
    char msg[160];
    snprintf(msg, sizeof msg, "%s: %s", gws, what);
    if (dv_acl_mem_find(st->data + (uint64_t)(st->offset * (int64_t)d->size), msg, &h, &avail) != ACL_SUCCESS)
        return dv_acl_recode(ACLNN_ERR_PARAM_INVALID);
    if (avail < d->size)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s ends outside its allocation", gws, what);
    *v = dv_ops_load(h, (dv_dtype_t)d->dv, 0);
    return ACLNN_SUCCESS;
}

static aclnnStatus masked_fill(const char *api, aclTensor *selfRef, const aclTensor *mask, double value,
                               uint64_t *workspaceSize, aclOpExecutor **executor)
{
    dv_nn_call_t call, *c = &call;
    int rc;
    dv_nn_call_init_row(c, api);
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(c, selfRef, "selfRef")) ||
        (rc = dv_nn_get_tensor(c, mask, "mask")))
        return rc;
    if ((rc = dv_nn_check_dtype(c, selfRef, "selfRef", "dtype")) || (rc = dv_nn_check_plain(c, selfRef, "selfRef")) ||
        (rc = lg_mask(c, mask, "mask", selfRef, "selfRef")))
        return rc;
    const int dt = lg_dv(selfRef);
    if (dt == DV_DT_S16 || dt == DV_DT_S32) { /* the value as the integer dtype holds it */
        const double lo = dt == DV_DT_S16 ? INT16_MIN : (double)INT32_MIN, hi = dt == DV_DT_S16 ? INT16_MAX
                                                                                             : (double)INT32_MAX;
        value = !isfinite(value) ? 0 : value < lo ? lo : value > hi ? hi : trunc(value);
    } else if (!isfinite(value) || fabs(dv_ops_round((dv_dtype_t)dt, value)) > (dt == DV_DT_F16 ? 65504.0 : FLT_MAX)) {
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: value %g is not a finite %s (dvsim's masked_fill holds a "
                           "finite fill value)", c->gws, value, dv_nn_dtype_name(selfRef->dtype));
    }
    dv_nn_call_param(c, "value", "%.17g", value);
    dv_nn_call_tensor(c, selfRef, "selfRef", "x", true);
    dv_nn_call_tensor(c, mask, "mask", "mask", true);
    dv_nn_call_tensor(c, selfRef, "selfRef", "y", false);
    return lg_build(c, selfRef, dt, workspaceSize, executor);
}

aclnnStatus aclnnInplaceMaskedFillScalarGetWorkspaceSize(aclTensor *selfRef, const aclTensor *mask,
                                                         const aclScalar *value, uint64_t *workspaceSize,
                                                         aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    const char *gws = "aclnnInplaceMaskedFillScalarGetWorkspaceSize";
    if (!value)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: value is NULL", gws);
    if (!dv_acl_handle_is(value, DV_ACL_MAGIC_SCALAR))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: value is not a live aclScalar", gws);
    return masked_fill("aclnnInplaceMaskedFillScalar", selfRef, mask, value->value, workspaceSize, executor);
}

aclnnStatus aclnnInplaceMaskedFillTensorGetWorkspaceSize(aclTensor *selfRef, const aclTensor *mask,
                                                         const aclTensor *value, uint64_t *workspaceSize,
                                                         aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    double v = 0;
    int rc = lg_tensor_value("aclnnInplaceMaskedFillTensorGetWorkspaceSize", value, "value", &v);
    if (rc != ACLNN_SUCCESS)
        return rc;
    return masked_fill("aclnnInplaceMaskedFillTensor", selfRef, mask, v, workspaceSize, executor);
}

/* ---------------------------------------------------------------- nan_to_num, equal */

static aclnnStatus nan_to_num(const char *api, const aclTensor *self, float nan, float posinf, float neginf,
                              const aclTensor *out, bool inplace, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    const char *ws = inplace ? "selfRef" : "self";
    dv_nn_call_t call, *c = &call;
    int rc;
    dv_nn_call_init_row(c, api);
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(c, self, ws)) ||
        (!inplace && (rc = dv_nn_get_tensor(c, out, "out"))))
        return rc;
    if ((rc = dv_nn_check_dtype(c, self, ws, "dtype")) || (rc = dv_nn_check_plain(c, self, ws)))
        return rc;
    if (!inplace && ((rc = lg_like(c, out, "out", self, ws)) || (rc = dv_nn_check_same_dtype(c, self, ws, out, "out"))))
        return rc;
    if (isnan(nan) || isnan(posinf) || isnan(neginf))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: nan, posinf and neginf must be numbers", c->gws);
    const double lim = self->dtype == ACL_FLOAT16 ? 65504.0 : FLT_MAX;
    const float v[3] = {nan, posinf, neginf};
    static const char *const names[3] = {"nan", "posinf", "neginf"};
    for (int i = 0; i < 3; i++) /* the dtype's finite range: its largest value for a larger one (torch's default) */
        dv_nn_call_param(c, names[i], "%.17g", v[i] > lim ? lim : v[i] < -lim ? -lim : (double)v[i]);
    dv_nn_call_tensor(c, self, ws, "x", true);
    dv_nn_call_tensor(c, inplace ? self : out, inplace ? ws : "out", "y", false);
    return lg_build(c, self, lg_dv(self), workspaceSize, executor);
}

aclnnStatus aclnnNanToNumGetWorkspaceSize(const aclTensor *self, float nan, float posinf, float neginf, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return nan_to_num("aclnnNanToNum", self, nan, posinf, neginf, out, false, workspaceSize, executor);
}

aclnnStatus aclnnInplaceNanToNumGetWorkspaceSize(aclTensor *selfRef, float nan, float posinf, float neginf,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    return nan_to_num("aclnnInplaceNanToNum", selfRef, nan, posinf, neginf, selfRef, true, workspaceSize, executor);
}

aclnnStatus aclnnEqualGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                       uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    dv_nn_call_t call, *c = &call;
    int rc;
    dv_nn_call_init_row(c, "aclnnEqual");
    if ((rc = dv_nn_call_start(c, workspaceSize, executor)) || (rc = dv_nn_get_tensor(c, self, "self")) ||
        (rc = dv_nn_get_tensor(c, other, "other")) || (rc = dv_nn_get_tensor(c, out, "out")))
        return rc;
    if ((rc = lg_check_dtype(c, self, "self", "dtype")) || (rc = dv_nn_check_plain(c, self, "self")) ||
        (rc = lg_like(c, other, "other", self, "self")) || (rc = dv_nn_check_same_dtype(c, self, "self", other, "other")) ||
        (rc = dv_nn_check_plain(c, out, "out")) || (rc = lg_check_dtype(c, out, "out", "out-dtype")))
        return rc;
    if (dv_acl_tensor_elems(out) != 1)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: out has %llu elements; it must hold one value", c->gws,
                           (unsigned long long)dv_acl_tensor_elems(out));
    if (dv_acl_tensor_elems(self) == 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: self has no elements; dvsim's tensor_equal compares at least "
                           "one", c->gws);
    dv_nn_call_param(c, "out-dtype", "%s", dv_nn_param_dtype_name(lg_dv(out)));
    dv_nn_call_tensor(c, self, "self", "x", true);
    dv_nn_call_tensor(c, other, "other", "y", true);
    dv_nn_call_tensor(c, out, "out", "z", false);
    return lg_build(c, self, lg_dv(self), workspaceSize, executor);
}
