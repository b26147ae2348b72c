/* tests/check_aclnn_lists.c - the aclnn tensor and scalar lists, the shape getters, aclInitTensor,
 * the array and list sizes and aclSetTensorAddr and its list forms (acl/meta.c): results, and every
 * error with its aclnnStatus and message, including destroyed, foreign and NULL handles. */
#include <check.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "../acl/nn.h"
#include "aclnnop/aclnn_mul.h"
#include "support/nnt.h"

enum { NN_INNER_NULLPTR = 561103 };

/* The function types client code takes addresses of (a mismatch is a compile error). */
static aclnnStatus (*const destroy_list_fn)(const aclTensorList *) = aclDestroyTensorList;
static aclnnStatus (*const view_shape_fn)(const aclTensor *, int64_t **, uint64_t *) = aclGetViewShape;

/* Release a getter's array as its caller must: delete[] when the process has C++'s operator (the
 * library then allocated with new[]), free() otherwise. */
static void release_array(int64_t *a)
{
    void *self = dlopen(NULL, RTLD_LAZY);
    void (*del)(void *) = NULL;
    if (self) {
        *(void **)&del = dlsym(self, "_ZdaPv");
        dlclose(self);
    }
    if (del)
        del(a);
    else
        free(a);
}

/* The tensor is live: a property can be read. */
static bool tensor_live(const aclTensor *t)
{
    aclDataType dt;
    return aclGetDataType(t, &dt) == 0;
}

static aclTensor *mk2(int64_t a, int64_t b)
{
    const int64_t d[] = {a, b};
    aclTensor *t = aclCreateTensor(d, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 2, NULL);
    ck_assert_ptr_nonnull(t);
    return t;
}

/* ---------------------------------------------------------------- tensor lists */

START_TEST(test_aclnn_lists_tensor_list)
{
    aclTensor *m[3] = {mk2(2, 3), mk2(4, 5), mk2(1, 1)};
    aclTensorList *l = aclCreateTensorList((const aclTensor *const *)m, 3);
    ck_assert_ptr_nonnull(l);
    uint64_t n = 0;
    CK_OK(aclGetTensorListSize(l, &n));
    ck_assert_uint_eq(n, 3);
    CK_ERR(aclGetTensorListSize(l, NULL), NN_NULLPTR, "aclGetTensorListSize: size is NULL");
    CK_ERR(aclGetTensorListSize(NULL, &n), NN_NULLPTR, "aclGetTensorListSize: tensorList is NULL");
    /* the list owns its members: destroying it destroys them */
    CK_OK(destroy_list_fn(l));
    for (int i = 0; i < 3; i++)
        ck_assert(!tensor_live(m[i]));
    CK_ERR(aclDestroyTensorList(l), NN_INVALID, "aclDestroyTensorList: array is not a live aclTensorList");
    CK_ERR(aclGetTensorListSize(l, &n), NN_INVALID, "tensorList is not a live aclTensorList");
    CK_ERR(aclDestroyTensorList(NULL), NN_NULLPTR, "aclDestroyTensorList: array is NULL");

    /* an empty list */
    aclTensorList *e = aclCreateTensorList(NULL, 0);
    ck_assert_ptr_nonnull(e);
    CK_OK(aclGetTensorListSize(e, &n));
    ck_assert_uint_eq(n, 0);
    /* a list is not an array nor a scalar list, and the other way round */
    CK_ERR(aclDestroyIntArray((const aclIntArray *)e), NN_INVALID, "not a live aclIntArray");
    CK_ERR(aclDestroyScalarList((const aclScalarList *)e), NN_INVALID, "not a live aclScalarList");
    CK_OK(aclDestroyTensorList(e));
}
END_TEST

START_TEST(test_aclnn_lists_tensor_list_errors)
{
    aclTensor *a = mk2(2, 2), *gone = mk2(3, 3);
    CK_OK(aclDestroyTensor(gone));
    float v = 1;
    aclScalar *s = aclCreateScalar(&v, ACL_FLOAT);

    ck_assert_ptr_null(aclCreateTensorList(NULL, 2));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "aclCreateTensorList: value is NULL but size is 2"));
    const aclTensor *with_null[] = {a, NULL};
    ck_assert_ptr_null(aclCreateTensorList(with_null, 2));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "[161001]"));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "value[1] is NULL"));
    const aclTensor *with_gone[] = {a, gone};
    ck_assert_ptr_null(aclCreateTensorList(with_gone, 2));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "[161002]"));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "value[1] is not a live aclTensor"));
    const aclTensor *with_scalar[] = {(const aclTensor *)s};
    ck_assert_ptr_null(aclCreateTensorList(with_scalar, 1));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "value[0] is not a live aclTensor"));
    ck_assert(tensor_live(a)); /* failed creations take nothing */

    /* a member destroyed on its own: the list's destroy releases the rest and says so; a new
     * tensor made meanwhile (malloc usually hands back the same address) is not taken for it */
    aclTensor *b = mk2(2, 2), *c = mk2(5, 5);
    const aclTensor *abc[] = {a, b, c};
    aclTensorList *l = aclCreateTensorList(abc, 3);
    ck_assert_ptr_nonnull(l);
    CK_OK(aclDestroyTensor(b));
    aclTensor *fresh = mk2(2, 2);
    int rc;
    ck_assert_ptr_null(dv_acl_tensor_list_get(l, "aclnnTest", "tensors", &rc));
    ck_assert_int_eq(rc, NN_INVALID);
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "aclnnTest: tensors[1] was destroyed after the list was made"));
    CK_ERR(aclDestroyTensorList(l), NN_INVALID, "its member 1 was already destroyed");
    ck_assert(!tensor_live(a));
    ck_assert(!tensor_live(c));
    ck_assert(tensor_live(fresh));

    /* the same tensor twice: destroyed once, the second is reported */
    const aclTensor *twice[] = {fresh, fresh};
    l = aclCreateTensorList(twice, 2);
    ck_assert_ptr_nonnull(l);
    ck_assert_ptr_nonnull(dv_acl_tensor_list_get(l, "aclnnTest", "tensors", &rc));
    ck_assert_int_eq(rc, 0);
    CK_ERR(aclDestroyTensorList(l), NN_INVALID, "its member 1 was already destroyed");
    ck_assert(!tensor_live(fresh));
    ck_assert_ptr_null(dv_acl_tensor_list_get(NULL, "aclnnTest", "tensors", &rc));
    ck_assert_int_eq(rc, NN_NULLPTR);
    ck_assert_ptr_null(dv_acl_tensor_list_get(l, "aclnnTest", "tensors", &rc));
    ck_assert_int_eq(rc, NN_INVALID);
    CK_OK(aclDestroyScalar(s));
}
END_TEST

/* ---------------------------------------------------------------- scalar lists */

START_TEST(test_aclnn_lists_scalar_list)
{
    float f = 1.5f;
    int32_t i = -3;
    aclScalar *s[2] = {aclCreateScalar(&f, ACL_FLOAT), aclCreateScalar(&i, ACL_INT32)};
    aclScalarList *l = aclCreateScalarList((const aclScalar *const *)s, 2);
    ck_assert_ptr_nonnull(l);
    uint64_t n = 0;
    CK_OK(aclGetScalarListSize(l, &n));
    ck_assert_uint_eq(n, 2);
    int rc;
    const aclScalarList *got = dv_acl_scalar_list_get(l, "aclnnTest", "scalars", &rc);
    ck_assert_ptr_eq(got, l);
    ck_assert(got->v[0]->value == 1.5 && got->v[1]->value == -3);
    CK_OK(aclDestroyScalarList(l));
    CK_ERR(aclDestroyScalar(s[0]), NN_INVALID, "not a live aclScalar");
    CK_ERR(aclDestroyScalarList(l), NN_INVALID, "array is not a live aclScalarList");
    CK_ERR(aclGetScalarListSize(NULL, &n), NN_NULLPTR, "aclGetScalarListSize: scalarList is NULL");
    CK_ERR(aclDestroyScalarList(NULL), NN_NULLPTR, "aclDestroyScalarList: array is NULL");

    ck_assert_ptr_null(aclCreateScalarList(NULL, 1));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "aclCreateScalarList: value is NULL but size is 1"));
    aclTensor *t = mk2(1, 1);
    const aclScalar *wrong[] = {(const aclScalar *)t};
    ck_assert_ptr_null(aclCreateScalarList(wrong, 1));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "value[0] is not a live aclScalar"));
    CK_ERR(aclGetScalarListSize((const aclScalarList *)t, &n), NN_INVALID, "is not a live aclScalarList");

    /* a member destroyed on its own */
    aclScalar *a = aclCreateScalar(&f, ACL_FLOAT), *b = aclCreateScalar(&f, ACL_FLOAT);
    const aclScalar *ab[] = {a, b};
    l = aclCreateScalarList(ab, 2);
    CK_OK(aclDestroyScalar(a));
    ck_assert_ptr_null(dv_acl_scalar_list_get(l, "aclnnTest", "scalars", &rc));
    ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "scalars[0] was destroyed after the list was made"));
    CK_ERR(aclDestroyScalarList(l), NN_INVALID, "its member 0 was already destroyed");
    CK_ERR(aclDestroyScalar(b), NN_INVALID, "not a live aclScalar");
    CK_OK(aclDestroyTensor(t));
}
END_TEST

/* ---------------------------------------------------------------- getters */

START_TEST(test_aclnn_lists_getters)
{
    /* a [3,4] view with strides {1, 3} (the transpose of a [4,3] tensor) at offset 2 */
    const int64_t dims[] = {3, 4}, strides[] = {1, 3}, storage[] = {14};
    aclTensor *t = aclCreateTensor(dims, 2, ACL_FLOAT16, strides, 2, ACL_FORMAT_ND, storage, 1, NULL);
    ck_assert_ptr_nonnull(t);
    int64_t *v = NULL;
    uint64_t n = 99;
    CK_OK(view_shape_fn(t, &v, &n));
    ck_assert_uint_eq(n, 2);
    ck_assert(v[0] == 3 && v[1] == 4);
    release_array(v);
    CK_OK(aclGetViewStrides(t, &v, &n));
    ck_assert_uint_eq(n, 2);
    ck_assert(v[0] == 1 && v[1] == 3);
    release_array(v);
    CK_OK(aclGetStorageShape(t, &v, &n));
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(v[0], 14);
    release_array(v);

    /* contiguous strides when created with NULL; a 0-d tensor gives an empty array, not NULL */
    aclTensor *c = mk2(5, 7);
    CK_OK(aclGetViewStrides(c, &v, &n));
    ck_assert(n == 2 && v[0] == 7 && v[1] == 1);
    release_array(v);
    aclTensor *z = aclCreateTensor(NULL, 0, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, NULL);
    CK_OK(aclGetViewShape(z, &v, &n));
    ck_assert_uint_eq(n, 0);
    ck_assert_ptr_nonnull(v);
    release_array(v);

    CK_ERR(aclGetViewShape(NULL, &v, &n), NN_NULLPTR, "aclGetViewShape: tensor is NULL");
    CK_ERR(aclGetViewShape(t, NULL, &n), NN_NULLPTR, "aclGetViewShape: viewDims is NULL");
    CK_ERR(aclGetViewShape(t, &v, NULL), NN_NULLPTR, "aclGetViewShape: viewDimsNum is NULL");
    CK_ERR(aclGetViewStrides(t, NULL, &n), NN_NULLPTR, "aclGetViewStrides: stridesValue is NULL");
    CK_ERR(aclGetStorageShape(t, &v, NULL), NN_NULLPTR, "aclGetStorageShape: storageDimsNum is NULL");
    CK_OK(aclDestroyTensor(z));
    CK_ERR(aclGetViewShape(z, &v, &n), NN_INVALID, "aclGetViewShape: tensor is not a live aclTensor");
    CK_ERR(aclGetStorageShape(z, &v, &n), NN_INVALID, "aclGetStorageShape: tensor is not a live aclTensor");
    float f = 0;
    aclScalar *s = aclCreateScalar(&f, ACL_FLOAT);
    CK_ERR(aclGetViewStrides((const aclTensor *)s, &v, &n), NN_INVALID, "not a live aclTensor");
    CK_OK(aclDestroyScalar(s));
    CK_OK(aclDestroyTensor(t));
    CK_OK(aclDestroyTensor(c));
}
END_TEST

START_TEST(test_aclnn_lists_init_tensor)
{
    aclTensor *t = mk2(2, 3);
    const int64_t dims[] = {4, 2, 2}, neg[] = {4, -1, 2};
    void *addr = (void *)0x1000;
    CK_OK(aclInitTensor(t, dims, 3, ACL_INT32, NULL, 1, ACL_FORMAT_NCL, dims, 3, addr));
    int64_t *v;
    uint64_t n;
    CK_OK(aclGetViewStrides(t, &v, &n));
    ck_assert(n == 3 && v[0] == 4 && v[1] == 2 && v[2] == 1);
    release_array(v);
    aclDataType dt;
    aclFormat fmt;
    int64_t off;
    void *got;
    CK_OK(aclGetDataType(t, &dt));
    CK_OK(aclGetFormat(t, &fmt));
    CK_OK(aclGetViewOffset(t, &off));
    CK_OK(aclGetRawTensorAddr(t, &got));
    ck_assert(dt == ACL_INT32 && fmt == ACL_FORMAT_NCL && off == 1 && got == addr);

    /* a rejected description leaves the tensor as it was */
    CK_ERR(aclInitTensor(t, neg, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 3, NULL), NN_INVALID,
           "aclInitTensor: viewDims[1] is -1");
    CK_ERR(aclInitTensor(t, dims, 3, ACL_FLOAT, NULL, -2, ACL_FORMAT_ND, dims, 3, NULL), NN_INVALID,
           "aclInitTensor: offset is -2");
    CK_ERR(aclInitTensor(t, NULL, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 3, NULL), NN_NULLPTR,
           "aclInitTensor: viewDims is NULL but viewDimsNum is 3");
    CK_OK(aclGetDataType(t, &dt));
    CK_OK(aclGetViewShape(t, &v, &n));
    ck_assert(dt == ACL_INT32 && n == 3 && v[1] == 2);
    release_array(v);

    CK_ERR(aclInitTensor(NULL, dims, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 3, NULL), NN_NULLPTR,
           "aclInitTensor: tensor is NULL");
    /* a re-described tensor is still the same list member */
    const aclTensor *one[] = {t};
    aclTensorList *l = aclCreateTensorList(one, 1);
    CK_OK(aclInitTensor(t, dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 2, NULL));
    CK_OK(aclDestroyTensorList(l));
    CK_ERR(aclInitTensor(t, dims, 3, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 3, NULL), NN_INVALID,
           "aclInitTensor: tensor is not a live aclTensor");
}
END_TEST

START_TEST(test_aclnn_lists_array_sizes)
{
    const float fv[] = {1, 2, 3};
    const bool bv[] = {true, false};
    const int64_t iv[] = {7};
    aclFloatArray *fa = aclCreateFloatArray(fv, 3);
    aclBoolArray *ba = aclCreateBoolArray(bv, 2);
    aclIntArray *ia = aclCreateIntArray(iv, 1);
    uint64_t n;
    CK_OK(aclGetFloatArraySize(fa, &n));
    ck_assert_uint_eq(n, 3);
    CK_OK(aclGetBoolArraySize(ba, &n));
    ck_assert_uint_eq(n, 2);
    CK_OK(aclGetIntArraySize(ia, &n));
    ck_assert_uint_eq(n, 1);
    CK_ERR(aclGetFloatArraySize((const aclFloatArray *)ba, &n), NN_INVALID,
           "aclGetFloatArraySize: array is not a live aclFloatArray");
    CK_ERR(aclGetBoolArraySize(ba, NULL), NN_NULLPTR, "aclGetBoolArraySize: size is NULL");
    CK_ERR(aclGetBoolArraySize(NULL, &n), NN_NULLPTR, "aclGetBoolArraySize: array is NULL");
    CK_OK(aclDestroyFloatArray(fa));
    CK_ERR(aclGetFloatArraySize(fa, &n), NN_INVALID, "not a live aclFloatArray");
    CK_OK(aclDestroyBoolArray(ba));
    CK_OK(aclDestroyIntArray(ia));
}
END_TEST

/* ---------------------------------------------------------------- executor addresses */

START_TEST(test_aclnn_lists_set_tensor_addr)
{
    const int64_t d[] = {4, 16};
    float x[64], y[64], x2[64], z[64];
    nnt_fill(x, 64, 1, -2, 2);
    nnt_fill(y, 64, 2, -2, 2);
    nnt_fill(x2, 64, 3, -2, 2);
    nnt_dt_t a = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, x), b = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, y);
    nnt_dt_t a2 = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, x2), c = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    nnt_dt_t c2 = nnt_mk(d, 2, ACL_FLOAT, ACL_FORMAT_ND, NULL);
    uint64_t ws;
    aclOpExecutor *e;
    CK_OK(aclnnMulGetWorkspaceSize(a.t, b.t, c.t, &ws, &e));
    CK_OK(aclSetAclOpExecutorRepeatable(e));
    /* index 0 and 1 are self and other, 2 is out */
    CK_OK(aclSetTensorAddr(e, 0, a.t, a2.dev));
    CK_OK(AclSetTensorAddr(e, 2, c.t, c2.dev));
    CK_ERR(aclSetTensorAddr(e, 3, c.t, c2.dev), NN_INVALID, "index 3 is out of range: the aclnnMul executor has 3");
    CK_ERR(aclSetTensorAddr(NULL, 0, a.t, a2.dev), NN_INNER_NULLPTR, "aclSetTensorAddr: executor is NULL");
    CK_ERR(aclSetTensorAddr(e, 0, NULL, a2.dev), NN_INNER_NULLPTR, "aclSetTensorAddr: tensor is NULL");
    RUN(aclnnMul(NULL, ws, e, nnt_stream));
    nnt_rd(&c2, z);
    for (int i = 0; i < 64; i++)
        ck_assert(z[i] == x2[i] * y[i]);

    /* the list forms: the member's address is set; the executor has no list to rebind */
    aclTensor *m = mk2(4, 16);
    const aclTensor *one[] = {m};
    aclTensorList *l = aclCreateTensorList(one, 1);
    CK_ERR(aclSetDynamicInputTensorAddr(e, 0, 1, l, a.dev), NN_INVALID, "relativeIndex 1 is out of range");
    CK_ERR(aclSetDynamicTensorAddr(e, 0, 0, l, a.dev), NN_INVALID,
           "the aclnnMul executor has no tensor list parameter 0");
    void *got;
    CK_OK(aclGetRawTensorAddr(m, &got));
    ck_assert_ptr_eq(got, a.dev);
    CK_ERR(AclSetDynamicOutputTensorAddr(e, 0, 0, NULL, a.dev), NN_INNER_NULLPTR, "tensors is NULL");
    CK_ERR(aclSetDynamicOutputTensorAddr(NULL, 0, 0, l, a.dev), NN_INNER_NULLPTR, "executor is NULL");
    CK_ERR(aclSetDynamicInputTensorAddr(e, 0, 0, (aclTensorList *)m, a.dev), NN_INVALID,
           "tensors is not a live aclTensorList");

    /* a destroyed executor */
    CK_OK(aclDestroyAclOpExecutor(e));
    CK_ERR(aclSetTensorAddr(e, 0, a.t, a2.dev), NN_INVALID, "aclSetTensorAddr: executor is not a live aclOpExecutor");
    CK_ERR(aclSetDynamicTensorAddr(e, 0, 0, l, a.dev), NN_INVALID, "executor is not a live aclOpExecutor");
    CK_ERR(aclDestroyAclOpExecutor(e), NN_INVALID, "executor is not a live aclOpExecutor");
    CK_OK(aclDestroyTensorList(l));
    nnt_rm(&a);
    nnt_rm(&b);
    nnt_rm(&a2);
    nnt_rm(&c);
    nnt_rm(&c2);
}
END_TEST

Suite *dv_aclnn_lists_suite(void)
{
    Suite *s = suite_create("aclnn_lists");
    TCase *tc = tcase_create("aclnn_lists");
    tcase_add_checked_fixture(tc, nnt_setup, nnt_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_aclnn_lists_tensor_list);
    tcase_add_test(tc, test_aclnn_lists_tensor_list_errors);
    tcase_add_test(tc, test_aclnn_lists_scalar_list);
    tcase_add_test(tc, test_aclnn_lists_getters);
    tcase_add_test(tc, test_aclnn_lists_init_tensor);
    tcase_add_test(tc, test_aclnn_lists_array_sizes);
    tcase_add_test(tc, test_aclnn_lists_set_tensor_addr);
    suite_add_tcase(s, tc);
    return s;
}
