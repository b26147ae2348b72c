/* acl/meta.c - the aclnn objects: tensors, scalars, int / float / bool arrays, tensor and scalar
 * lists and executors (creation, checks, properties, release), the aclDataType and aclFormat
 * tables, and the optional aclnnInit / aclnnFinalize.  The operators that use them are in nnops.c. */
#include "nn.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/semantics.h"

/* ---------------------------------------------------------------- types and formats */

/* Element types with a whole-byte size; the sub-byte ones (int4, uint1, fp6, fp4) and strings are
 * not tensor element types dvsim can lay out. */
static const dv_acl_dtype_info_t dtypes[] = {
    {ACL_FLOAT, "ACL_FLOAT", "DT_FLOAT", 4, DV_DT_F32},
    {ACL_FLOAT16, "ACL_FLOAT16", "DT_FLOAT16", 2, DV_DT_F16},
    {ACL_INT8, "ACL_INT8", "DT_INT8", 1, DV_DT_S8},
    {ACL_INT32, "ACL_INT32", "DT_INT32", 4, DV_DT_S32},
    {ACL_UINT8, "ACL_UINT8", "DT_UINT8", 1, DV_DT_U8},
    {ACL_INT16, "ACL_INT16", "DT_INT16", 2, DV_DT_S16},
    {ACL_UINT16, "ACL_UINT16", "DT_UINT16", 2, DV_DT_U16},
    {ACL_UINT32, "ACL_UINT32", "DT_UINT32", 4, DV_DT_U32},
    {ACL_INT64, "ACL_INT64", "DT_INT64", 8, -1},
    {ACL_UINT64, "ACL_UINT64", "DT_UINT64", 8, -1},
    {ACL_DOUBLE, "ACL_DOUBLE", "DT_DOUBLE", 8, -1},
    {ACL_BOOL, "ACL_BOOL", "DT_BOOL", 1, -1},
    {ACL_COMPLEX64, "ACL_COMPLEX64", "DT_COMPLEX64", 8, -1},
    {ACL_COMPLEX128, "ACL_COMPLEX128", "DT_COMPLEX128", 16, -1},
    {ACL_BF16, "ACL_BF16", "DT_BF16", 2, DV_DT_BF16},
    {ACL_COMPLEX32, "ACL_COMPLEX32", "DT_COMPLEX32", 4, -1},
    {ACL_HIFLOAT8, "ACL_HIFLOAT8", "DT_HIFLOAT8", 1, -1},
    {ACL_FLOAT8_E5M2, "ACL_FLOAT8_E5M2", "DT_FLOAT8_E5M2", 1, -1},
    {ACL_FLOAT8_E4M3FN, "ACL_FLOAT8_E4M3FN", "DT_FLOAT8_E4M3FN", 1, -1},
    {ACL_FLOAT8_E8M0, "ACL_FLOAT8_E8M0", "DT_FLOAT8_E8M0", 1, -1},
};

const dv_acl_dtype_info_t *dv_acl_dtype_info(aclDataType t)
{
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
        if (dtypes[i].acl == t)
            return &dtypes[i];
    return NULL;
}

static const struct {
    aclFormat f;
    const char *name;
} formats[] = {
    {ACL_FORMAT_UNDEFINED, "FORMAT_RESERVED"}, {ACL_FORMAT_NCHW, "FORMAT_NCHW"},
    {ACL_FORMAT_NHWC, "FORMAT_NHWC"},          {ACL_FORMAT_ND, "FORMAT_ND"},
    {ACL_FORMAT_NC1HWC0, "FORMAT_NC1HWC0"},    {ACL_FORMAT_FRACTAL_Z, "FORMAT_FRACTAL_Z"},
    {ACL_FORMAT_NC1HWC0_C04, "FORMAT_NC1HWC0_C04"}, {ACL_FORMAT_HWCN, "FORMAT_HWCN"},
    {ACL_FORMAT_NDHWC, "FORMAT_NDHWC"},        {ACL_FORMAT_FRACTAL_NZ, "FORMAT_FRACTAL_NZ"},
    {ACL_FORMAT_NCDHW, "FORMAT_NCDHW"},        {ACL_FORMAT_NDC1HWC0, "FORMAT_NDC1HWC0"},
    {ACL_FRACTAL_Z_3D, "FORMAT_FRACTAL_Z_3D"}, {ACL_FORMAT_NC, "FORMAT_NC"},
    {ACL_FORMAT_NCL, "FORMAT_NCL"},            {ACL_FORMAT_FRACTAL_NZ_C0_16, "FORMAT_FRACTAL_NZ_C0_16"},
    {ACL_FORMAT_FRACTAL_NZ_C0_32, "FORMAT_FRACTAL_NZ_C0_32"}, {ACL_FORMAT_FRACTAL_NZ_C0_2, "FORMAT_FRACTAL_NZ_C0_2"},
    {ACL_FORMAT_FRACTAL_NZ_C0_4, "FORMAT_FRACTAL_NZ_C0_4"}, {ACL_FORMAT_FRACTAL_NZ_C0_8, "FORMAT_FRACTAL_NZ_C0_8"},
};

const char *dv_acl_format_name(aclFormat f)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].f == f)
            return formats[i].name;
    return NULL;
}

/* ---------------------------------------------------------------- tensors */

/* Check a dims (or strides) list: NULL only when empty, at most DV_ACL_MAX_DIMS, none negative. */
static int dims_check(const char *api, const int64_t *v, uint64_t n, bool allow_null, const char *what,
                      const char *count)
{
    if (n > DV_ACL_MAX_DIMS)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is %llu; dvsim supports at most %d dimensions", api,
                           count, (unsigned long long)n, DV_ACL_MAX_DIMS);
    if (!v)
        return n == 0 || allow_null ? ACLNN_SUCCESS
                                    : dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL but %s is %llu", api,
                                                  what, count, (unsigned long long)n);
    for (uint64_t i = 0; i < n; i++)
        if (v[i] < 0)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s[%llu] is %lld; it must not be negative", api,
                               what, (unsigned long long)i, (long long)v[i]);
    return ACLNN_SUCCESS;
}

/* Check a tensor description and write it into *t: aclCreateTensor and aclInitTensor. */
static int tensor_set(const char *api, aclTensor *t, const int64_t *viewDims, uint64_t viewDimsNum,
                      aclDataType dataType, const int64_t *stride, int64_t offset, aclFormat format,
                      const int64_t *storageDims, uint64_t storageDimsNum, void *tensorData)
{
    const dv_acl_dtype_info_t *dt = dv_acl_dtype_info(dataType);
    int rc;
    if (!dt)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dataType %d is not an element type dvsim supports "
                           "(unknown, or narrower than a byte)", api, (int)dataType);
    if (!dv_acl_format_name(format))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: format %d is not an aclFormat", api, (int)format);
    if ((rc = dims_check(api, viewDims, viewDimsNum, false, "viewDims", "viewDimsNum")) != ACLNN_SUCCESS ||
        (rc = dims_check(api, stride, viewDimsNum, true, "stride", "viewDimsNum")) != ACLNN_SUCCESS ||
        (rc = dims_check(api, storageDims, storageDimsNum, false, "storageDims", "storageDimsNum")) != ACLNN_SUCCESS)
        return rc;
    if (offset < 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: offset is %lld; it must not be negative", api,
                           (long long)offset);
    /* the furthest element the view reaches, in bytes, must be representable */
    int64_t reach = offset, run = 1;
    bool overflow = false;
    for (int i = (int)viewDimsNum - 1; i >= 0; i--) {
        int64_t s = stride ? stride[i] : run, step;
        overflow |= __builtin_mul_overflow(viewDims[i] > 0 ? viewDims[i] - 1 : 0, s, &step) ||
                    __builtin_add_overflow(reach, step, &reach) || __builtin_mul_overflow(run, viewDims[i], &run);
    }
    overflow |= __builtin_add_overflow(reach, 1, &reach) || __builtin_mul_overflow(reach, (int64_t)dt->size, &reach);
    if (overflow)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: the view (dims, strides and offset) spans more than "
                           "2^63 bytes", api);

    t->dtype = dataType;
    t->format = format;
    t->ndims = (int)viewDimsNum;
    int64_t contiguous = 1;
    for (int i = t->ndims - 1; i >= 0; i--) {
        t->dims[i] = viewDims[i];
        t->strides[i] = stride ? stride[i] : contiguous;
        contiguous *= viewDims[i];
    }
    t->offset = offset;
    t->nstorage = (int)storageDimsNum;
    for (int i = 0; i < t->nstorage; i++)
        t->storage[i] = storageDims[i];
    t->data = (uint64_t)(uintptr_t)tensorData;
    return ACLNN_SUCCESS;
}

/* Serial numbers of tensors and scalars: a list remembers its members' numbers, so a member
 * destroyed on its own is recognised even when a new object is made at the same address. */
static uint64_t g_serial;

aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t *stride,
                           int64_t offset, aclFormat format, const int64_t *storageDims, uint64_t storageDimsNum,
                           void *tensorData)
{
    DV_ACL_LOCKED();
    aclTensor tmp = {0};
    if (tensor_set("aclCreateTensor", &tmp, viewDims, viewDimsNum, dataType, stride, offset, format, storageDims,
                   storageDimsNum, tensorData) != ACLNN_SUCCESS)
        return NULL;
    aclTensor *t = calloc(1, sizeof *t);
    if (!t) {
        dv_acl_fail(ACLNN_ERR_INNER_NULLPTR, "aclCreateTensor: out of host memory");
        return NULL;
    }
    if (dv_acl_handle_add(t, DV_ACL_MAGIC_TENSOR) != ACL_SUCCESS) {
        free(t);
        return NULL;
    }
    *t = tmp;
    t->serial = ++g_serial;
    return t;
}

aclnnStatus aclInitTensor(aclTensor *tensor, const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                          const int64_t *stride, int64_t offset, aclFormat format, const int64_t *storageDims,
                          uint64_t storageDimsNum, void *tensorDataAddr)
{
    DV_ACL_LOCKED();
    int rc;
    if (!dv_acl_tensor_get(tensor, "aclInitTensor", "tensor", &rc))
        return rc;
    aclTensor tmp = {0};
    if ((rc = tensor_set("aclInitTensor", &tmp, viewDims, viewDimsNum, dataType, stride, offset, format, storageDims,
                         storageDimsNum, tensorDataAddr)) != ACLNN_SUCCESS)
        return rc;
    tmp.serial = tensor->serial;
    *tensor = tmp;
    return ACLNN_SUCCESS;
}

const struct aclTensor *dv_acl_tensor_get(const aclTensor *t, const char *api, const char *what, int *rc)
{
    if (!t) {
        *rc = dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", api, what);
        return NULL;
    }
    if (!dv_acl_handle_is(t, DV_ACL_MAGIC_TENSOR)) {
        *rc = dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is not a live aclTensor (destroyed, or not made by "
                          "aclCreateTensor)", api, what);
        return NULL;
    }
    *rc = ACLNN_SUCCESS;
    return t;
}

aclnnStatus aclDestroyTensor(const aclTensor *tensor)
{
    DV_ACL_LOCKED();
    int rc;
    if (!dv_acl_tensor_get(tensor, "aclDestroyTensor", "tensor", &rc))
        return rc;
    aclTensor *t = (aclTensor *)tensor;
    dv_acl_handle_del(t);
    free(t);
    return ACLNN_SUCCESS;
}

uint64_t dv_acl_tensor_elems(const aclTensor *t)
{
    uint64_t n = 1;
    for (int i = 0; i < t->ndims; i++)
        n *= (uint64_t)t->dims[i];
    return n;
}

void dv_acl_dims_str(const aclTensor *t, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < t->ndims; i++)
        n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%lld", i ? "," : "", (long long)t->dims[i]);
}

aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType)
{
    DV_ACL_LOCKED();
    int rc;
    if (!dv_acl_tensor_get(tensor, "aclGetDataType", "tensor", &rc))
        return rc;
    if (!dataType)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "aclGetDataType: dataType is NULL");
    *dataType = tensor->dtype;
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format)
{
    DV_ACL_LOCKED();
    int rc;
    if (!dv_acl_tensor_get(tensor, "aclGetFormat", "tensor", &rc))
        return rc;
    if (!format)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "aclGetFormat: format is NULL");
    *format = tensor->format;
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset)
{
    DV_ACL_LOCKED();
    int rc;
    if (!dv_acl_tensor_get(tensor, "aclGetViewOffset", "tensor", &rc))
        return rc;
    if (!offset)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "aclGetViewOffset: offset is NULL");
    *offset = tensor->offset;
    return ACLNN_SUCCESS;
}

aclnnStatus aclSetRawTensorAddr(aclTensor *tensor, void *addr)
{
    DV_ACL_LOCKED();
    int rc;
    if (!dv_acl_tensor_get(tensor, "aclSetRawTensorAddr", "tensor", &rc))
        return rc;
    tensor->data = (uint64_t)(uintptr_t)addr;
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetRawTensorAddr(const aclTensor *tensor, void **addr)
{
    DV_ACL_LOCKED();
    int rc;
    if (!dv_acl_tensor_get(tensor, "aclGetRawTensorAddr", "tensor", &rc))
        return rc;
    if (!addr)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "aclGetRawTensorAddr: addr is NULL");
    *addr = (void *)(uintptr_t)tensor->data;
    return ACLNN_SUCCESS;
}

/* The arrays the shape getters hand back are released by the caller with delete[] (as CANN
 * documents): they come from the program's own operator new[] (nothrow form) when the program has
 * one, so the two match (ASan checks that), and from malloc for a C program, which frees them. */
static int64_t *caller_array(uint64_t n)
{
    static void *(*new_array)(size_t, const void *);
    static const void *nothrow;
    static bool looked;
    if (!looked) {
        void *self = dlopen(NULL, RTLD_LAZY);
        if (self) {
            *(void **)&new_array = dlsym(self, "_ZnamRKSt9nothrow_t");
            nothrow = dlsym(self, "_ZSt7nothrow");
            dlclose(self);
        }
        looked = true;
    }
    size_t bytes = (n ? (size_t)n : 1) * sizeof(int64_t);
    return new_array && nothrow ? new_array(bytes, nothrow) : malloc(bytes);
}

/* *out = a new array of the n values v (the shape getters). */
static aclnnStatus hand_back(const char *api, const int64_t *v, int n, int64_t **out, uint64_t *num)
{
    int64_t *a = caller_array((uint64_t)n);
    if (!a)
        return dv_acl_fail(ACLNN_ERR_INNER_NULLPTR, "%s: out of host memory", api);
    for (int i = 0; i < n; i++)
        a[i] = v[i];
    *out = a;
    *num = (uint64_t)n;
    return ACLNN_SUCCESS;
}

/* The common start of the getters: a live tensor and two non-NULL outputs. */
static aclnnStatus getter_args(const char *api, const aclTensor *tensor, const void *out, const char *out_name,
                               const void *num, const char *num_name)
{
    int rc;
    if (!dv_acl_tensor_get(tensor, api, "tensor", &rc))
        return rc;
    if (!out || !num)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", api, out ? num_name : out_name);
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum)
{
    DV_ACL_LOCKED();
    int rc = getter_args("aclGetViewShape", tensor, viewDims, "viewDims", viewDimsNum, "viewDimsNum");
    return rc ? rc : hand_back("aclGetViewShape", tensor->dims, tensor->ndims, viewDims, viewDimsNum);
}

aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue, uint64_t *stridesNum)
{
    DV_ACL_LOCKED();
    int rc = getter_args("aclGetViewStrides", tensor, stridesValue, "stridesValue", stridesNum, "stridesNum");
    return rc ? rc : hand_back("aclGetViewStrides", tensor->strides, tensor->ndims, stridesValue, stridesNum);
}

aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims, uint64_t *storageDimsNum)
{
    DV_ACL_LOCKED();
    int rc = getter_args("aclGetStorageShape", tensor, storageDims, "storageDims", storageDimsNum, "storageDimsNum");
    return rc ? rc : hand_back("aclGetStorageShape", tensor->storage, tensor->nstorage, storageDims, storageDimsNum);
}

/* ---------------------------------------------------------------- scalars */

aclScalar *aclCreateScalar(void *value, aclDataType dataType)
{
    DV_ACL_LOCKED();
    if (!value) {
        dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "aclCreateScalar: value is NULL");
        return NULL;
    }
    double v;
    switch (dataType) {
    case ACL_FLOAT: { float x; memcpy(&x, value, sizeof x); v = x; break; }
    case ACL_FLOAT16: { uint16_t h; memcpy(&h, value, sizeof h); v = dv_f16_to_f32(h); break; }
    case ACL_BF16: { uint16_t h; memcpy(&h, value, sizeof h); v = dv_bf16_to_f32(h); break; }
    case ACL_DOUBLE: memcpy(&v, value, sizeof v); break;
    case ACL_INT8: { int8_t x; memcpy(&x, value, sizeof x); v = x; break; }
    case ACL_INT16: { int16_t x; memcpy(&x, value, sizeof x); v = x; break; }
    case ACL_INT32: { int32_t x; memcpy(&x, value, sizeof x); v = x; break; }
    case ACL_INT64: { int64_t x; memcpy(&x, value, sizeof x); v = (double)x; break; }
    case ACL_UINT8: { uint8_t x; memcpy(&x, value, sizeof x); v = x; break; }
    case ACL_UINT16: { uint16_t x; memcpy(&x, value, sizeof x); v = x; break; }
    case ACL_UINT32: { uint32_t x; memcpy(&x, value, sizeof x); v = x; break; }
    case ACL_UINT64: { uint64_t x; memcpy(&x, value, sizeof x); v = (double)x; break; }
    case ACL_BOOL: { uint8_t x; memcpy(&x, value, sizeof x); v = x != 0; break; } /* any byte: nonzero is true */
    default:
        dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "aclCreateScalar: dataType %d is not a scalar type dvsim supports "
                    "(float, float16, bf16, double, integers, bool)", (int)dataType);
        return NULL;
    }
    aclScalar *s = calloc(1, sizeof *s);
    if (!s) {
        dv_acl_fail(ACLNN_ERR_INNER_NULLPTR, "aclCreateScalar: out of host memory");
        return NULL;
    }
    if (dv_acl_handle_add(s, DV_ACL_MAGIC_SCALAR) != ACL_SUCCESS) {
        free(s);
        return NULL;
    }
    s->dtype = dataType;
    s->value = v;
    s->serial = ++g_serial;
    return s;
}

aclnnStatus aclDestroyScalar(const aclScalar *scalar)
{
    DV_ACL_LOCKED();
    if (!scalar)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "aclDestroyScalar: scalar is NULL");
    if (!dv_acl_handle_is(scalar, DV_ACL_MAGIC_SCALAR))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "aclDestroyScalar: scalar is not a live aclScalar");
    aclScalar *s = (aclScalar *)scalar;
    dv_acl_handle_del(s);
    free(s);
    return ACLNN_SUCCESS;
}

/* ---------------------------------------------------------------- arrays */

/* The three array kinds differ only in their element type: one definition for each pair of
 * create / destroy functions.  A copy of the values is kept. */
#define DV_ACL_ARRAY(type, elem, kind, create, destroy)                                                            \
    type *create(const elem *value, uint64_t size)                                                                 \
    {                                                                                                              \
        if (!value && size) {                                                                                      \
            dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, #create ": value is NULL but size is %llu",                      \
                        (unsigned long long)size);                                                                 \
            return NULL;                                                                                           \
        }                                                                                                          \
        if (size > SIZE_MAX / sizeof(elem) / 2) {                                                                  \
            dv_acl_fail(ACLNN_ERR_PARAM_INVALID, #create ": size %llu is too large", (unsigned long long)size);    \
            return NULL;                                                                                           \
        }                                                                                                          \
        type *a = calloc(1, sizeof *a);                                                                            \
        elem *v = malloc(size ? size * sizeof(elem) : 1);                                                          \
        if (!a || !v) {                                                                                            \
            free(a);                                                                                               \
            free(v);                                                                                               \
            dv_acl_fail(ACLNN_ERR_INNER_NULLPTR, #create ": out of host memory");                                  \
            return NULL;                                                                                           \
        }                                                                                                          \
        if (size)                                                                                                  \
            memcpy(v, value, size * sizeof(elem));                                                                 \
        if (dv_acl_handle_add(a, kind) != ACL_SUCCESS) {                                                           \
            free(a);                                                                                               \
            free(v);                                                                                               \
            return NULL;                                                                                           \
        }                                                                                                          \
        a->size = size;                                                                                            \
        a->v = v;                                                                                                  \
        return a;                                                                                                  \
    }                                                                                                              \
    aclnnStatus destroy(const type *array)                                                                         \
    {                                                                                                              \
        if (!array)                                                                                                \
            return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, #destroy ": array is NULL");                               \
        if (!dv_acl_handle_is(array, kind))                                                                                  \
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, #destroy ": array is not a live " #type);                  \
        type *w = (type *)array;                                                                                   \
        dv_acl_handle_del(w);                                                                                      \
        free(w->v);                                                                                                \
        free(w);                                                                                                   \
        return ACLNN_SUCCESS;                                                                                      \
    }

DV_ACL_ARRAY(aclIntArray, int64_t, DV_ACL_MAGIC_INT_ARRAY, aclCreateIntArray, aclDestroyIntArray)
DV_ACL_ARRAY(aclFloatArray, float, DV_ACL_MAGIC_FLOAT_ARRAY, aclCreateFloatArray, aclDestroyFloatArray)
DV_ACL_ARRAY(aclBoolArray, bool, DV_ACL_MAGIC_BOOL_ARRAY, aclCreateBoolArray, aclDestroyBoolArray)

/* The number of values of an array or list: one definition for the five getters. */
#define DV_ACL_SIZE_GETTER(fn, type, param, kind)                                                                   \
    aclnnStatus fn(const type *param, uint64_t *size)                                                              \
    {                                                                                                              \
        DV_ACL_LOCKED();                                                                                           \
        if (!param || !size)                                                                                       \
            return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, #fn ": %s is NULL", param ? "size" : #param);              \
        if (!dv_acl_handle_is(param, kind))                                                                        \
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, #fn ": " #param " is not a live " #type);                  \
        *size = param->size;                                                                                       \
        return ACLNN_SUCCESS;                                                                                      \
    }

DV_ACL_SIZE_GETTER(aclGetIntArraySize, aclIntArray, array, DV_ACL_MAGIC_INT_ARRAY)
DV_ACL_SIZE_GETTER(aclGetFloatArraySize, aclFloatArray, array, DV_ACL_MAGIC_FLOAT_ARRAY)
DV_ACL_SIZE_GETTER(aclGetBoolArraySize, aclBoolArray, array, DV_ACL_MAGIC_BOOL_ARRAY)
DV_ACL_SIZE_GETTER(aclGetTensorListSize, aclTensorList, tensorList, DV_ACL_MAGIC_TENSOR_LIST)
DV_ACL_SIZE_GETTER(aclGetScalarListSize, aclScalarList, scalarList, DV_ACL_MAGIC_SCALAR_LIST)

/* ---------------------------------------------------------------- tensor and scalar lists */

/* The two list kinds differ in their member type: one definition for create, destroy and the
 * checked access.  A list keeps the member pointers (not copies) and owns them, as in CANN; a
 * member must be live at creation.  Destroying the list destroys the members still live; a member
 * already gone (destroyed on its own, through another list, or listed twice: each a double free in
 * CANN) makes the destroy return 161002 after releasing the rest. */
#define DV_ACL_LIST(list, elem, kind, elem_kind, create, destroy, elem_destroy, get)                                \
    static bool get##_member_live(const list *l, uint64_t i)                                                       \
    {                                                                                                              \
        return dv_acl_handle_is(l->v[i], elem_kind) && l->v[i]->serial == l->serial[i];                            \
    }                                                                                                              \
    list *create(const elem *const *value, uint64_t size)                                                          \
    {                                                                                                              \
        DV_ACL_LOCKED();                                                                                           \
        if (!value && size) {                                                                                      \
            dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, #create ": value is NULL but size is %llu",                      \
                        (unsigned long long)size);                                                                 \
            return NULL;                                                                                           \
        }                                                                                                          \
        if (size > SIZE_MAX / sizeof(elem *) / 2) {                                                                \
            dv_acl_fail(ACLNN_ERR_PARAM_INVALID, #create ": size %llu is too large", (unsigned long long)size);    \
            return NULL;                                                                                           \
        }                                                                                                          \
        for (uint64_t i = 0; i < size; i++)                                                                        \
            if (!value[i] || !dv_acl_handle_is(value[i], elem_kind)) {                                             \
                dv_acl_fail(value[i] ? ACLNN_ERR_PARAM_INVALID : ACLNN_ERR_PARAM_NULLPTR,                          \
                            #create ": value[%llu] is %s", (unsigned long long)i,                                  \
                            value[i] ? "not a live " #elem " (destroyed, or not made by aclCreate*)" : "NULL");    \
                return NULL;                                                                                       \
            }                                                                                                      \
        list *l = calloc(1, sizeof *l);                                                                            \
        elem **v = malloc((size ? size : 1) * sizeof *v);                                                          \
        uint64_t *serial = malloc((size ? size : 1) * sizeof *serial);                                             \
        if (!l || !v || !serial || dv_acl_handle_add(l, kind) != ACL_SUCCESS) {                                    \
            if (!l || !v || !serial)                                                                               \
                dv_acl_fail(ACLNN_ERR_INNER_NULLPTR, #create ": out of host memory");                              \
            free(l);                                                                                               \
            free(v);                                                                                               \
            free(serial);                                                                                          \
            return NULL;                                                                                           \
        }                                                                                                          \
        for (uint64_t i = 0; i < size; i++) {                                                                      \
            v[i] = (elem *)value[i];                                                                               \
            serial[i] = value[i]->serial;                                                                          \
        }                                                                                                          \
        l->size = size;                                                                                            \
        l->v = v;                                                                                                  \
        l->serial = serial;                                                                                        \
        return l;                                                                                                  \
    }                                                                                                              \
    aclnnStatus destroy(const list *array)                                                                         \
    {                                                                                                              \
        DV_ACL_LOCKED();                                                                                           \
        if (!array)                                                                                                \
            return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, #destroy ": array is NULL");                               \
        if (!dv_acl_handle_is(array, kind))                                                                        \
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, #destroy ": array is not a live " #list);                  \
        list *l = (list *)array;                                                                                   \
        uint64_t n = l->size, gone = n;                                                                            \
        for (uint64_t i = 0; i < n; i++) {                                                                         \
            if (get##_member_live(l, i))                                                                           \
                elem_destroy(l->v[i]);                                                                             \
            else if (gone == n)                                                                                    \
                gone = i;                                                                                          \
        }                                                                                                          \
        dv_acl_handle_del(l);                                                                                      \
        free(l->v);                                                                                                \
        free(l->serial);                                                                                           \
        free(l);                                                                                                   \
        if (gone < n)                                                                                              \
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, #destroy ": the list is released, but its member %llu "    \
                               "was already destroyed (on its own, through another list, or listed twice); CANN " \
                               "destroys a list's members with the list, so that is a double free there",         \
                               (unsigned long long)gone);                                                          \
        return ACLNN_SUCCESS;                                                                                      \
    }                                                                                                              \
    const list *get(const list *l, const char *api, const char *what, int *rc)                                     \
    {                                                                                                              \
        if (!l) {                                                                                                  \
            *rc = dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", api, what);                               \
            return NULL;                                                                                           \
        }                                                                                                          \
        if (!dv_acl_handle_is(l, kind)) {                                                                          \
            *rc = dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is not a live " #list " (destroyed, or not made "   \
                              "by " #create ")", api, what);                                                       \
            return NULL;                                                                                           \
        }                                                                                                          \
        for (uint64_t i = 0; i < l->size; i++)                                                                     \
            if (!get##_member_live(l, i)) {                                                                        \
                *rc = dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s[%llu] was destroyed after the list was made",   \
                                  api, what, (unsigned long long)i);                                               \
                return NULL;                                                                                       \
            }                                                                                                      \
        *rc = ACLNN_SUCCESS;                                                                                       \
        return l;                                                                                                  \
    }

/* the member destroyers, without the lock (the list's destroy holds it) */
static void tensor_free(aclTensor *t)
{
    dv_acl_handle_del(t);
    free(t);
}

static void scalar_free(aclScalar *s)
{
    dv_acl_handle_del(s);
    free(s);
}

DV_ACL_LIST(aclTensorList, aclTensor, DV_ACL_MAGIC_TENSOR_LIST, DV_ACL_MAGIC_TENSOR, aclCreateTensorList,
            aclDestroyTensorList, tensor_free, dv_acl_tensor_list_get)
DV_ACL_LIST(aclScalarList, aclScalar, DV_ACL_MAGIC_SCALAR_LIST, DV_ACL_MAGIC_SCALAR, aclCreateScalarList,
            aclDestroyScalarList, scalar_free, dv_acl_scalar_list_get)

/* ---------------------------------------------------------------- executors */

aclOpExecutor *dv_acl_executor_get(aclOpExecutor *e, const char *api, int *rc)
{
    if (!e) {
        *rc = dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: executor is NULL", api);
        return NULL;
    }
    if (!dv_acl_handle_is(e, DV_ACL_MAGIC_EXECUTOR)) {
        *rc = dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: executor is not a live aclOpExecutor (already run and "
                          "released, destroyed, or not made by an aclnn*GetWorkspaceSize call)", api);
        return NULL;
    }
    *rc = ACLNN_SUCCESS;
    return e;
}

void dv_acl_executor_free(aclOpExecutor *e)
{
    while (e) {
        aclOpExecutor *next = e->next;
        dv_acl_handle_del(e);
        free(e);
        e = next;
    }
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor)
{
    DV_ACL_LOCKED();
    int rc;
    if (!dv_acl_executor_get(executor, "aclSetAclOpExecutorRepeatable", &rc))
        return rc;
    executor->repeatable = true;
    return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor)
{
    DV_ACL_LOCKED();
    int rc;
    if (!dv_acl_executor_get(executor, "aclDestroyAclOpExecutor", &rc))
        return rc;
    dv_acl_executor_free(executor);
    return ACLNN_SUCCESS;
}

/* The index-th input (or output) tensor of an executor gets device address addr. */
static aclnnStatus set_tensor_addr(const char *api, bool input, aclOpExecutor *executor, size_t index,
                                   aclTensor *tensor, void *addr)
{
    int rc;
    if (!dv_acl_executor_get(executor, api, &rc))
        return rc;
    if (tensor && !dv_acl_tensor_get(tensor, api, "tensor", &rc))
        return rc;
    size_t seen = 0;
    for (aclOpExecutor *m = executor; m; m = m->next) /* a chain that numbers its tensors (acl/nnbcast.c) */
        for (int i = 0; i < m->ntensors; i++) {
            dv_acl_xtensor_t *x = &m->t[i];
            if (x->pos == 0 || x->ws || x->input != input)
                continue;
            seen = (size_t)x->pos > seen ? (size_t)x->pos : seen;
            if ((size_t)x->pos != index + 1)
                continue;
            x->data = (uint64_t)(uintptr_t)addr;
            x->view.dev = x->data + (uint64_t)x->offset_bytes;
            if (tensor)
                tensor->data = x->data;
            return ACLNN_SUCCESS;
        }
    if (seen)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: index %zu is out of range: the %s executor has %zu %s "
                           "tensor%s", api, index, executor->api, seen, input ? "input" : "output",
                           seen == 1 ? "" : "s");
    for (int i = 0; i < executor->ntensors; i++) {
        dv_acl_xtensor_t *x = &executor->t[i];
        if (x->input != input || seen++ != index)
            continue;
        x->data = (uint64_t)(uintptr_t)addr;
        x->view.dev = x->data + (uint64_t)x->offset_bytes;
        if (tensor)
            tensor->data = x->data;
        return ACLNN_SUCCESS;
    }
    return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: index %zu is out of range: the %s executor has %zu %s tensor%s",
                       api, index, executor->api, seen, input ? "input" : "output", seen == 1 ? "" : "s");
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr)
{
    DV_ACL_LOCKED();
    return set_tensor_addr("aclSetInputTensorAddr", true, executor, index, tensor, addr);
}

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr)
{
    DV_ACL_LOCKED();
    return set_tensor_addr("aclSetOutputTensorAddr", false, executor, index, tensor, addr);
}

/* aclSetTensorAddr and the list forms: CANN documents 561103 for a NULL executor or tensor. */
static aclnnStatus null_handle(const char *api, const void *executor, const void *tensor, const char *what)
{
    if (!executor || !tensor)
        return dv_acl_fail(ACLNN_ERR_INNER_NULLPTR, "%s: %s is NULL", api, executor ? what : "executor");
    return ACLNN_SUCCESS;
}

aclnnStatus aclSetTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr)
{
    DV_ACL_LOCKED();
    const char *api = "aclSetTensorAddr";
    int rc = null_handle(api, executor, tensor, "tensor");
    if (rc || !dv_acl_executor_get(executor, api, &rc) || !dv_acl_tensor_get(tensor, api, "tensor", &rc))
        return rc;
    /* a chain that numbers its tensors (acl/nnbcast.c): the inputs, then the outputs */
    size_t nin = 0, nout = 0;
    for (aclOpExecutor *m = executor; m; m = m->next)
        for (int i = 0; i < m->ntensors; i++)
            if (m->t[i].pos && !m->t[i].ws) {
                size_t *n = m->t[i].input ? &nin : &nout;
                *n = (size_t)m->t[i].pos > *n ? (size_t)m->t[i].pos : *n;
            }
    if (nin + nout) {
        if (index >= nin + nout)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: index %zu is out of range: the %s executor has %zu "
                               "tensors", api, index, executor->api, nin + nout);
        return index < nin ? set_tensor_addr(api, true, executor, index, tensor, addr)
                           : set_tensor_addr(api, false, executor, index - nin, tensor, addr);
    }
    if (index >= (size_t)executor->ntensors)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: index %zu is out of range: the %s executor has %d tensors",
                           api, index, executor->api, executor->ntensors);
    bool input = executor->t[index].input;
    size_t nth = 0;
    for (size_t i = 0; i < index; i++)
        nth += executor->t[i].input == input;
    return set_tensor_addr(api, input, executor, nth, tensor, addr);
}

/* The list forms: the member's address is set; the executor's tensor bound from that list member
 * is rebound, and no dvsim operator takes a tensor list yet, so that part is 161002 with a message. */
static aclnnStatus set_dynamic_addr(const char *api, aclOpExecutor *executor, size_t irIndex, size_t relativeIndex,
                                    aclTensorList *tensors, void *addr)
{
    int rc = null_handle(api, executor, tensors, "tensors");
    if (rc || !dv_acl_tensor_list_get(tensors, api, "tensors", &rc) || !dv_acl_executor_get(executor, api, &rc))
        return rc;
    if (relativeIndex >= tensors->size)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: relativeIndex %zu is out of range: the list has %llu "
                           "tensors", api, relativeIndex, (unsigned long long)tensors->size);
    tensors->v[relativeIndex]->data = (uint64_t)(uintptr_t)addr;
    return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: the %s executor has no tensor list parameter %zu (no aclnn "
                       "operator of dvsim takes a tensor list)", api, executor->api, irIndex);
}

aclnnStatus aclSetDynamicInputTensorAddr(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
                                         aclTensorList *tensors, void *addr)
{
    DV_ACL_LOCKED();
    return set_dynamic_addr("aclSetDynamicInputTensorAddr", executor, irIndex, relativeIndex, tensors, addr);
}

aclnnStatus aclSetDynamicOutputTensorAddr(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
                                          aclTensorList *tensors, void *addr)
{
    DV_ACL_LOCKED();
    return set_dynamic_addr("aclSetDynamicOutputTensorAddr", executor, irIndex, relativeIndex, tensors, addr);
}

aclnnStatus aclSetDynamicTensorAddr(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
                                    aclTensorList *tensors, void *addr)
{
    DV_ACL_LOCKED();
    return set_dynamic_addr("aclSetDynamicTensorAddr", executor, irIndex, relativeIndex, tensors, addr);
}

/* The capitalised spellings CANN exports as well. */
aclnnStatus AclSetInputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr)
{
    return aclSetInputTensorAddr(executor, index, tensor, addr);
}

aclnnStatus AclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr)
{
    return aclSetOutputTensorAddr(executor, index, tensor, addr);
}

aclnnStatus AclSetTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr)
{
    return aclSetTensorAddr(executor, index, tensor, addr);
}

aclnnStatus AclSetDynamicInputTensorAddr(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
                                         aclTensorList *tensors, void *addr)
{
    return aclSetDynamicInputTensorAddr(executor, irIndex, relativeIndex, tensors, addr);
}

aclnnStatus AclSetDynamicOutputTensorAddr(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
                                          aclTensorList *tensors, void *addr)
{
    return aclSetDynamicOutputTensorAddr(executor, irIndex, relativeIndex, tensors, addr);
}

aclnnStatus AclSetDynamicTensorAddr(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
                                    aclTensorList *tensors, void *addr)
{
    return aclSetDynamicTensorAddr(executor, irIndex, relativeIndex, tensors, addr);
}

/* ---------------------------------------------------------------- library set-up */

aclnnStatus aclnnInit(const char *configPath)
{
    DV_ACL_LOCKED();
    (void)configPath;
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnFinalize(void)
{
    DV_ACL_LOCKED();
    return ACLNN_SUCCESS;
}
