/* tests/check_aclnn_errors.c - every error path of the aclnn objects (acl/meta.c) and operators
 * (acl/nnops.c, acl/nncall.c), with its aclnnStatus and its aclGetRecentErrMsg text. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "../acl/nn.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_softmax.h"
#include "support/nnt.h"

/* The function types client code takes addresses of (a mismatch is a compile error). */
static aclnnStatus (*const destroy_tensor_fn)(const aclTensor *) = aclDestroyTensor;

/* ---------------------------------------------------------------- object errors */

START_TEST(test_aclnn_tensor_errors)
{
    const int64_t dims[] = {2, 3}, neg[] = {2, -1}, many[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    ck_assert_ptr_null(aclCreateTensor(NULL, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 2, NULL));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "viewDims is NULL but viewDimsNum is 2"));
    ck_assert_ptr_null(aclCreateTensor(many, 9, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, many, 9, NULL));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "at most 8 dimensions"));
    ck_assert_ptr_null(aclCreateTensor(neg, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 2, NULL));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "viewDims[1] is -1"));
    ck_assert_ptr_null(aclCreateTensor(dims, 2, ACL_FLOAT, neg, 0, ACL_FORMAT_ND, dims, 2, NULL));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "stride[1] is -1"));
    ck_assert_ptr_null(aclCreateTensor(dims, 2, ACL_FLOAT, NULL, -4, ACL_FORMAT_ND, dims, 2, NULL));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "offset is -4"));
    /* the furthest byte past 2^63, even when the offset alone is representable (UBSan: no signed
     * overflow on the way) */
    const int64_t one[] = {1};
    ck_assert_ptr_null(aclCreateTensor(one, 1, ACL_FLOAT, NULL, INT64_MAX, ACL_FORMAT_ND, one, 1, NULL));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "spans more than 2^63 bytes"));
    ck_assert_ptr_null(aclCreateTensor(dims, 2, ACL_FLOAT, NULL, INT64_MAX - 5, ACL_FORMAT_ND, dims, 2, NULL));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "spans more than 2^63 bytes"));
    ck_assert_ptr_null(aclCreateTensor(dims, 2, (aclDataType)5, NULL, 0, ACL_FORMAT_ND, dims, 2, NULL));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "dataType 5"));
    ck_assert_ptr_null(aclCreateTensor(dims, 2, ACL_INT4, NULL, 0, ACL_FORMAT_ND, dims, 2, NULL));
    ck_assert_ptr_null(aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, (aclFormat)7, dims, 2, NULL));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "format 7"));
    ck_assert_ptr_null(aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 2, NULL));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "storageDims is NULL"));

    /* a 0-d tensor, properties, and destroying NULL or the wrong kind of object */
    aclTensor *t = aclCreateTensor(NULL, 0, ACL_BF16, NULL, 0, ACL_FORMAT_NCHW, NULL, 0, NULL);
    ck_assert_ptr_nonnull(t);
    aclDataType dt;
    aclFormat fmt;
    CK_OK(aclGetDataType(t, &dt));
    CK_OK(aclGetFormat(t, &fmt));
    ck_assert_int_eq(dt, ACL_BF16);
    ck_assert_int_eq(fmt, ACL_FORMAT_NCHW);
    CK_ERR(aclGetDataType(t, NULL), NN_NULLPTR, "dataType is NULL");
    CK_ERR(aclGetFormat(NULL, &fmt), NN_NULLPTR, "tensor is NULL");
    CK_OK(aclSetRawTensorAddr(t, (void *)0x1234));
    void *addr;
    CK_OK(aclGetRawTensorAddr(t, &addr));
    ck_assert_ptr_eq(addr, (void *)0x1234);
    CK_OK(destroy_tensor_fn(t));
    CK_ERR(aclDestroyTensor(NULL), NN_NULLPTR, "aclDestroyTensor: tensor is NULL");
    float v = 1;
    aclScalar *s = aclCreateScalar(&v, ACL_FLOAT);
    CK_ERR(aclDestroyTensor((const aclTensor *)s), NN_INVALID, "not a live aclTensor");
    CK_ERR(aclDestroyIntArray((const aclIntArray *)s), NN_INVALID, "not a live aclIntArray");
    CK_OK(aclDestroyScalar(s));
}
END_TEST

START_TEST(test_aclnn_scalar_array_errors)
{
    ck_assert_ptr_null(aclCreateScalar(NULL, ACL_FLOAT));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "value is NULL"));
    int v = 3;
    ck_assert_ptr_null(aclCreateScalar(&v, ACL_STRING));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "not a scalar type"));
    CK_ERR(aclDestroyScalar(NULL), NN_NULLPTR, "scalar is NULL");
    /* a bool scalar from any byte: nonzero is true (a byte read as C bool was undefined behaviour: the
     * AscendCL call-sequence fuzzer, UBSan) */
    const uint8_t yes = 0x9c, no = 0;
    aclScalar *b1 = aclCreateScalar((void *)&yes, ACL_BOOL), *b0 = aclCreateScalar((void *)&no, ACL_BOOL);
    ck_assert_ptr_nonnull(b1);
    ck_assert_ptr_nonnull(b0);
    ck_assert(((struct aclScalar *)b1)->value == 1.0 && ((struct aclScalar *)b0)->value == 0.0);
    CK_OK(aclDestroyScalar(b1));
    CK_OK(aclDestroyScalar(b0));
    ck_assert_ptr_null(aclCreateIntArray(NULL, 3));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "aclCreateIntArray: value is NULL but size is 3"));
    ck_assert_ptr_null(aclCreateFloatArray(NULL, 1));
    ck_assert_ptr_null(aclCreateBoolArray(NULL, 1));
    aclIntArray *empty = aclCreateIntArray(NULL, 0);
    ck_assert_ptr_nonnull(empty);
    uint64_t n = 9;
    CK_OK(aclGetIntArraySize(empty, &n));
    ck_assert_uint_eq(n, 0);
    CK_OK(aclDestroyIntArray(empty));
    const float f[] = {1, 2};
    const bool b[] = {true};
    aclFloatArray *fa = aclCreateFloatArray(f, 2);
    aclBoolArray *ba = aclCreateBoolArray(b, 1);
    ck_assert(fa && ba);
    CK_ERR(aclDestroyBoolArray((const aclBoolArray *)fa), NN_INVALID, "not a live aclBoolArray");
    CK_OK(aclDestroyFloatArray(fa));
    CK_OK(aclDestroyBoolArray(ba));
    CK_ERR(aclDestroyFloatArray(NULL), NN_NULLPTR, "array is NULL");
    CK_ERR(aclDestroyAclOpExecutor(NULL), NN_NULLPTR, "executor is NULL");
    CK_ERR(aclSetAclOpExecutorRepeatable(NULL), NN_NULLPTR, "executor is NULL");
    CK_OK(aclnnInit(NULL));
    CK_OK(aclnnFinalize());
}
END_TEST

/* ---------------------------------------------------------------- operator errors */

/* Tensors for the element-wise checks: a, b [4, 8] fp32, i8 int8, bad [4, 7], h fp16, nz FRACTAL_NZ. */
typedef struct ew_set {
    nnt_dt_t a, b, c, bad, h, i8;
    aclTensor *nz, *nodata;
    aclScalar *one, *half;
} ew_set_t;

static void ew_make(ew_set_t *s)
{
    const int64_t d[] = {4, 8}, bd[] = {4, 7};
    s->a = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    s->b = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    s->c = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    s->bad = nnt_mk(bd, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    s->h = nnt_mk(d, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    s->i8 = nnt_mk(d, 2, ACL_INT8, ACL_FORMAT_ND, NULL);
    s->nz = aclCreateTensor(d, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_FRACTAL_NZ, d, 2, s->a.dev);
    s->nodata = aclCreateTensor(d, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 2, NULL);
    float one = 1.0f, half = 0.5f;
    s->one = aclCreateScalar(&one, ACL_FLOAT);
    s->half = aclCreateScalar(&half, ACL_FLOAT);
}

static void ew_free(ew_set_t *s)
{
    nnt_rm(&s->a);
    nnt_rm(&s->b);
    nnt_rm(&s->c);
    nnt_rm(&s->bad);
    nnt_rm(&s->h);
    nnt_rm(&s->i8);
    CK_OK(aclDestroyTensor(s->nz));
    CK_OK(aclDestroyTensor(s->nodata));
    CK_OK(aclDestroyScalar(s->one));
    CK_OK(aclDestroyScalar(s->half));
}

START_TEST(test_aclnn_elementwise_errors)
{
    ew_set_t s;
    ew_make(&s);
    uint64_t ws;
    aclOpExecutor *e;
    CK_ERR(aclnnAddGetWorkspaceSize(NULL, s.b.t, s.one, s.c.t, &ws, &e), NN_NULLPTR, "self is NULL");
    CK_ERR(aclnnAddGetWorkspaceSize(s.a.t, NULL, s.one, s.c.t, &ws, &e), NN_NULLPTR, "other is NULL");
    CK_ERR(aclnnAddGetWorkspaceSize(s.a.t, s.b.t, NULL, s.c.t, &ws, &e), NN_NULLPTR, "alpha is NULL");
    CK_ERR(aclnnAddGetWorkspaceSize(s.a.t, s.b.t, s.one, NULL, &ws, &e), NN_NULLPTR, "out is NULL");
    CK_ERR(aclnnAddGetWorkspaceSize(s.a.t, s.b.t, s.one, s.c.t, NULL, &e), NN_NULLPTR, "workspaceSize is NULL");
    CK_ERR(aclnnAddGetWorkspaceSize(s.a.t, s.b.t, s.one, s.c.t, &ws, NULL), NN_NULLPTR, "executor is NULL");
    CK_ERR(aclnnAddGetWorkspaceSize(s.a.t, s.bad.t, s.one, s.c.t, &ws, &e), NN_INVALID,
           "self [4,8] and other [4,7] do not broadcast");
    CK_ERR(aclnnMulGetWorkspaceSize(s.a.t, s.b.t, s.bad.t, &ws, &e), NN_INVALID, "out has shape [4,7]");
    CK_ERR(aclnnMulGetWorkspaceSize(s.a.t, s.h.t, s.h.t, &ws, &e), NN_INVALID,
           "out has dtype ACL_FLOAT16 but self (ACL_FLOAT) and other (ACL_FLOAT16) promote to ACL_FLOAT");
    CK_ERR(aclnnReluGetWorkspaceSize(s.i8.t, s.i8.t, &ws, &e), NN_INVALID,
           "self has dtype ACL_INT8; dvsim's relu takes ACL_FLOAT, ACL_FLOAT16, ACL_INT32");
    CK_ERR(aclnnGeluGetWorkspaceSize(s.nz, s.c.t, &ws, &e), NN_INVALID, "self has format FORMAT_FRACTAL_NZ");
    CK_ERR(aclnnGeluGetWorkspaceSize(s.a.t, (aclTensor *)s.one, &ws, &e), NN_INVALID, "out is not a live aclTensor");
    /* the library's own checks pass through: int32 add with a fractional alpha */
    const int64_t d[] = {4, 8};
    nnt_dt_t i32 = nnt_mk(d, 2, ACL_INT32, ACL_FORMAT_ND, NULL);
    CK_ERR(aclnnAddGetWorkspaceSize(i32.t, i32.t, s.half, i32.t, &ws, &e), NN_INVALID, "--alpha");
    nnt_rm(&i32);

    /* phase 2: NULL executor, a tensor without an address, an executor of another operator */
    CK_ERR(aclnnAdd(NULL, 0, NULL, nnt_stream), NN_NULLPTR, "aclnnAdd: executor is NULL");
    CK_OK(aclnnAddGetWorkspaceSize(s.nodata, s.b.t, s.one, s.c.t, &ws, &e));
    CK_ERR(aclnnAdd(NULL, ws, e, nnt_stream), NN_INVALID, "self has no device address");
    CK_OK(aclnnAddGetWorkspaceSize(s.a.t, s.b.t, s.one, s.c.t, &ws, &e));
    CK_ERR(aclnnMul(NULL, ws, e, nnt_stream), NN_INVALID, "made by aclnnAddGetWorkspaceSize");
    /* a view larger than its allocation */
    const int64_t big[] = {40, 80};
    aclTensor *over = aclCreateTensor(big, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, big, 2, s.a.dev);
    CK_OK(aclnnReluGetWorkspaceSize(over, over, &ws, &e));
    CK_ERR(aclnnRelu(NULL, ws, e, nnt_stream), NN_INVALID, "aclnnRelu: self spans 12800 bytes");
    CK_OK(aclDestroyTensor(over));
    ew_free(&s);
}
END_TEST

/* Before aclrtSetDevice every first phase is a runtime error. */
START_TEST(test_aclnn_no_device)
{
    nnt_teardown();
    nnt_env_clear();
    const int64_t d[] = {4};
    aclTensor *t = aclCreateTensor(d, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 1, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_ERR(aclnnReluGetWorkspaceSize(t, t, &ws, &e), NN_RUNTIME, "aclnnReluGetWorkspaceSize");
    CK_OK(aclInit(NULL));
    CK_ERR(aclnnReluGetWorkspaceSize(t, t, &ws, &e), NN_RUNTIME, "aclnnReluGetWorkspaceSize");
    CK_OK(aclDestroyTensor(t));
    aclFinalize();
    nnt_setup_profile(NULL);
}
END_TEST

START_TEST(test_aclnn_norm_errors)
{
    const int64_t d[] = {4, 8}, wd[] = {8}, sd[] = {4}, d3[] = {2, 3, 4}, nd[] = {2, 3, 4, 5}, cd[] = {3};
    const int64_t eight = 8, seven = 7;
    nnt_dt_t x = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL), y = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t w = nnt_mk(wd, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL), wh = nnt_mk(wd, 1, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    nnt_dt_t st = nnt_mk(sd, 1, ACL_FLOAT16, ACL_FORMAT_ND, NULL), x3 = nnt_mk(d3, 3, ACL_FLOAT, ACL_FORMAT_NCHW, NULL);
    aclIntArray *ns = aclCreateIntArray(&eight, 1), *bad = aclCreateIntArray(&seven, 1);
    uint64_t ws;
    aclOpExecutor *e;
    CK_ERR(aclnnSoftmaxGetWorkspaceSize(x.t, 2, y.t, &ws, &e), NN_INVALID, "dim is 2; self has 2 dimensions "
           "(dim in [-2, 1])");
    CK_ERR(aclnnSoftmaxGetWorkspaceSize(x.t, -3, y.t, &ws, &e), NN_INVALID, "dim is -3");
    CK_ERR(aclnnSoftmaxGetWorkspaceSize(x.t, -1, NULL, &ws, &e), NN_NULLPTR, "out is NULL");
    CK_ERR(aclnnLayerNormGetWorkspaceSize(x.t, ns, NULL, w.t, 1e-5, y.t, NULL, NULL, &ws, &e), NN_INVALID,
           "weight is NULL: layer norm without a weight is not supported by dvsim");
    CK_ERR(aclnnLayerNormGetWorkspaceSize(x.t, ns, w.t, NULL, 1e-5, y.t, NULL, NULL, &ws, &e), NN_INVALID,
           "bias is NULL");
    CK_ERR(aclnnLayerNormGetWorkspaceSize(x.t, NULL, w.t, w.t, 1e-5, y.t, NULL, NULL, &ws, &e), NN_NULLPTR,
           "normalizedShape is NULL");
    CK_ERR(aclnnLayerNormGetWorkspaceSize(x.t, bad, w.t, w.t, 1e-5, y.t, NULL, NULL, &ws, &e), NN_INVALID,
           "normalizedShape (1 values) must be the trailing dims of input [4,8]");
    CK_ERR(aclnnLayerNormGetWorkspaceSize(x.t, ns, wh.t, w.t, 1e-5, y.t, NULL, NULL, &ws, &e), NN_INVALID,
           "weight has dtype ACL_FLOAT16 but input has ACL_FLOAT");
    CK_ERR(aclnnLayerNormGetWorkspaceSize(x.t, ns, w.t, w.t, 1e-5, y.t, st.t, NULL, &ws, &e), NN_INVALID,
           "meanOut has dtype ACL_FLOAT16; dvsim gives the statistics in ACL_FLOAT");
    CK_ERR(aclnnLayerNormGetWorkspaceSize(x.t, ns, w.t, w.t, 2.0, y.t, NULL, NULL, &ws, &e), NN_INVALID, "--eps");
    /* a plan error from the library: a row that does not fit the UB */
    const int64_t wide[] = {2, 100000}, wided[] = {100000};
    const int64_t cols = 100000;
    nnt_dt_t xw = nnt_mk(wide, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL),
             ww = nnt_mk(wided, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    aclIntArray *nw = aclCreateIntArray(&cols, 1);
    CK_ERR(aclnnLayerNormGetWorkspaceSize(xw.t, nw, ww.t, ww.t, 1e-5, xw.t, NULL, NULL, &ws, &e), NN_INVALID,
           "the operator library rejects `layernorm --shape 2x100000 --dtype fp32`: --shape: a row of 100000");
    CK_OK(aclDestroyIntArray(nw));
    nnt_rm(&xw);
    nnt_rm(&ww);

    /* batch norm */
    nnt_dt_t bx = nnt_mk(nd, 4, ACL_FLOAT, ACL_FORMAT_NCHW, NULL), bc = nnt_mk(cd, 1, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t bxh = nnt_mk(nd, 4, ACL_FLOAT, ACL_FORMAT_NHWC, NULL);
    CK_ERR(aclnnBatchNormGetWorkspaceSize(bx.t, bc.t, bc.t, bc.t, bc.t, true, 0.1, 1e-5, bx.t, NULL, NULL, &ws, &e),
           NN_INVALID, "saveMean is NULL: training batch norm without saveMean is not supported by dvsim");
    CK_ERR(aclnnBatchNormGetWorkspaceSize(bx.t, bc.t, bc.t, bc.t, bc.t, true, 1.5, 1e-5, bx.t, bc.t, bc.t, &ws, &e),
           NN_INVALID, "momentum is 1.5; it must be in [0, 1]");
    CK_ERR(aclnnBatchNormGetWorkspaceSize(bx.t, bc.t, bc.t, NULL, bc.t, false, 0.1, 1e-5, bx.t, NULL, NULL, &ws, &e),
           NN_INVALID, "runningMean is NULL");
    CK_ERR(aclnnBatchNormGetWorkspaceSize(x3.t, bc.t, bc.t, bc.t, bc.t, false, 0.1, 1e-5, x3.t, NULL, NULL, &ws, &e),
           NN_INVALID, "input has 3 dimensions; NCHW needs 4");
    CK_ERR(aclnnBatchNormGetWorkspaceSize(bxh.t, bc.t, bc.t, bc.t, bc.t, false, 0.1, 1e-5, bxh.t, NULL, NULL, &ws,
                                          &e), NN_INVALID, "input has format FORMAT_NHWC");
    CK_ERR(aclnnBatchNormGetWorkspaceSize(bx.t, bc.t, bc.t, bc.t, w.t, false, 0.1, 1e-5, bx.t, NULL, NULL, &ws, &e),
           NN_INVALID, "runningVar has shape [8] (8 elements); it needs 3 (one per channel C)");
    nnt_rm(&bx);
    nnt_rm(&bc);
    nnt_rm(&bxh);
    CK_OK(aclDestroyIntArray(ns));
    CK_OK(aclDestroyIntArray(bad));
    nnt_rm(&x);
    nnt_rm(&y);
    nnt_rm(&w);
    nnt_rm(&wh);
    nnt_rm(&st);
    nnt_rm(&x3);
}
END_TEST

START_TEST(test_aclnn_cube_errors)
{
    const int64_t ad[] = {4, 8}, bd[] = {8, 16}, cd[] = {4, 16}, b3[] = {2, 8, 16}, wrong[] = {4, 15};
    nnt_dt_t a = nnt_mk(ad, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL), b = nnt_mk(bd, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    nnt_dt_t c = nnt_mk(cd, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL), c32 = nnt_mk(cd, 2, ACL_INT32, ACL_FORMAT_ND, NULL);
    nnt_dt_t bb = nnt_mk(b3, 3, ACL_FLOAT16, ACL_FORMAT_ND, NULL),
             cw = nnt_mk(wrong, 2, ACL_FLOAT16, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_ERR(aclnnMatmulGetWorkspaceSize(a.t, NULL, c.t, 0, &ws, &e), NN_NULLPTR, "mat2 is NULL");
    CK_ERR(aclnnMatmulGetWorkspaceSize(a.t, bb.t, c.t, 0, &ws, &e), NN_INVALID,
           "shapes do not match: self [4,8] x mat2 [2,8,16] -> out [4,16]");
    CK_ERR(aclnnMatmulGetWorkspaceSize(a.t, b.t, cw.t, 0, &ws, &e), NN_INVALID,
           "shapes do not match: self [4,8] x mat2 [8,16] -> out [4,15]");
    CK_ERR(aclnnMatmulGetWorkspaceSize(a.t, b.t, c.t, 7, &ws, &e), NN_INVALID, "cubeMathType 7");
    CK_ERR(aclnnMatmulGetWorkspaceSize(a.t, b.t, c32.t, 0, &ws, &e), NN_INVALID,
           "the operator library rejects `matmul --m 4 --n 16 --k 8 --dtype fp16 --out-dtype int32");

    /* convolution */
    const int64_t xd[] = {1, 2, 6, 6}, wd[] = {4, 2, 3, 3}, yd[] = {1, 4, 6, 6}, yb[] = {1, 4, 5, 5};
    const int64_t one = 1, two[] = {1, 2}, three = 3, four = 4;
    nnt_dt_t x = nnt_mk(xd, 4, ACL_FLOAT16, ACL_FORMAT_NCHW, NULL),
             w = nnt_mk(wd, 4, ACL_FLOAT16, ACL_FORMAT_NCHW, NULL);
    nnt_dt_t y = nnt_mk(yd, 4, ACL_FLOAT16, ACL_FORMAT_NCHW, NULL),
             ybad = nnt_mk(yb, 4, ACL_FLOAT16, ACL_FORMAT_NCHW, NULL);
    nnt_dt_t bias = nnt_mk(&four, 1, ACL_FLOAT16, ACL_FORMAT_ND, NULL), bias3 = nnt_mk(&three, 1, ACL_FLOAT16,
                                                                                     ACL_FORMAT_ND, NULL);
    aclIntArray *s1 = aclCreateIntArray(&one, 1), *s12 = aclCreateIntArray(two, 2);
    /* (s20-conv) bias, groups, transposed and a stride per axis are supported: their errors */
    CK_OK(aclnnConvolutionGetWorkspaceSize(x.t, w.t, bias.t, s1, s1, s1, false, s1, 1, y.t, 0, &ws, &e));
    CK_OK(aclDestroyAclOpExecutor(e));
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, bias3.t, s1, s1, s1, false, s1, 1, y.t, 0, &ws, &e), NN_INVALID,
           "bias has 3 elements in 1 dims; it takes one per output channel (4)");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s12, s1, s1, false, s1, 1, y.t, 0, &ws, &e), NN_INVALID,
           "output has shape [1,4,6,6]; the convolution gives [1,4,6,3]");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s1, s1, NULL, false, s1, 1, y.t, 0, &ws, &e), NN_NULLPTR,
           "dilation is NULL");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s1, s1, s1, false, s1, 2, y.t, 0, &ws, &e), NN_INVALID,
           "weight has dims 0 and 1 of 4 and 2; with 2 input channels and groups 2");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s1, s1, s1, true, s1, 1, y.t, 0, &ws, &e), NN_INVALID,
           "it takes [cin, cout/groups] (transposed)");
    CK_ERR(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s1, s1, s1, false, s1, 1, ybad.t, 0, &ws, &e),
           NN_INVALID, "output has shape [1,4,5,5]; the convolution gives [1,4,6,6]");
    /* phase 2: the workspace it needs */
    CK_OK(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s1, s1, s1, false, s1, 1, y.t, 0, &ws, &e));
    ck_assert_uint_gt(ws, 0);
    CK_ERR(aclnnConvolution(NULL, ws, e, nnt_stream), NN_INVALID, "workspace is NULL but the operator needs");
    CK_OK(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s1, s1, s1, false, s1, 1, y.t, 0, &ws, &e));
    void *wsp;
    CK_OK(aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST));
    CK_ERR(aclnnConvolution(wsp, ws - 1, e, nnt_stream), NN_INVALID, "workspaceSize is");
    CK_OK(aclrtFree(wsp));
    CK_OK(aclDestroyIntArray(s1));
    CK_OK(aclDestroyIntArray(s12));
    nnt_rm(&a);
    nnt_rm(&b);
    nnt_rm(&c);
    nnt_rm(&c32);
    nnt_rm(&bb);
    nnt_rm(&cw);
    nnt_rm(&x);
    nnt_rm(&w);
    nnt_rm(&y);
    nnt_rm(&ybad);
    nnt_rm(&bias);
}
END_TEST

Suite *dv_aclnn_errors_suite(void)
{
    Suite *s = suite_create("aclnn_errors");
    TCase *tc = tcase_create("aclnn_errors");
    tcase_add_checked_fixture(tc, nnt_setup, nnt_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_aclnn_tensor_errors);
    tcase_add_test(tc, test_aclnn_scalar_array_errors);
    tcase_add_test(tc, test_aclnn_elementwise_errors);
    tcase_add_test(tc, test_aclnn_no_device);
    tcase_add_test(tc, test_aclnn_norm_errors);
    tcase_add_test(tc, test_aclnn_cube_errors);
    suite_add_tcase(s, tc);
    return s;
}
