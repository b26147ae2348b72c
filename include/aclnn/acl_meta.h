/* aclnn/acl_meta.h - the objects aclnn operators take: tensors (a view of device memory), scalars,
 * integer / float / bool arrays, and the executor that the first phase of an operator builds and the
 * second phase runs.  Names, types and parameter order follow the public aclnn interface (libnnopbase)
 * so that unmodified aclnn programs compile; the implementation is dvsim's (acl/meta.c).
 *
 * Usable from C as well as C++ (the aclnn interface itself is C++-only: it uses constexpr). */
#ifndef ACLNN_ACL_META_H
#define ACLNN_ACL_META_H

#ifdef __cplusplus
#include <cstdint>
#else
#include <stdbool.h>
#include <stdint.h>
#endif

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ACLNN_META
#define ACLNN_META
/* Opaque aclnn objects; each is made by its aclCreate* function and released by aclDestroy*. */
typedef struct aclOpExecutor aclOpExecutor;   /* a planned operator launch */
typedef struct aclTensor aclTensor;           /* shape, strides, offset, type, format, device address */
typedef struct aclScalar aclScalar;           /* one value of a given type */
typedef struct aclIntArray aclIntArray;       /* int64 values */
typedef struct aclFloatArray aclFloatArray;   /* float values */
typedef struct aclBoolArray aclBoolArray;     /* bool values */
typedef struct aclTensorList aclTensorList;   /* tensors, owned by the list */
typedef struct aclScalarList aclScalarList;   /* scalars, owned by the list */

/* Status of every aclnn function: 0 on success, else 161xxx (bad arguments), 361xxx (runtime)
 * or 561xxx (internal). */
typedef int32_t aclnnStatus;
#endif

/* Tensor: viewDimsNum dims (viewDims may be NULL only when 0), per-dim strides in elements (NULL:
 * contiguous row-major), the view's first element at `offset` elements from tensorData, the
 * physical shape storageDims, and a device address from aclrtMalloc (may be NULL until set with
 * aclSetRawTensorAddr).  NULL on invalid arguments (aclGetRecentErrMsg says why). */
ACL_FUNC_VISIBILITY aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                                               const int64_t *stride, int64_t offset, aclFormat format,
                                               const int64_t *storageDims, uint64_t storageDimsNum, void *tensorData);
/* Scalar: copies the value of type dataType at `value`.  NULL on invalid arguments. */
ACL_FUNC_VISIBILITY aclScalar *aclCreateScalar(void *value, aclDataType dataType);
/* Arrays: copy `size` values (value may be NULL only when size is 0).  NULL on invalid arguments. */
ACL_FUNC_VISIBILITY aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size);
ACL_FUNC_VISIBILITY aclFloatArray *aclCreateFloatArray(const float *value, uint64_t size);
ACL_FUNC_VISIBILITY aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size);
/* Lists: keep the `size` objects of `value` (live ones, not NULL; value may be NULL only when size
 * is 0) and own them: destroying the list destroys them.  NULL on invalid arguments. */
ACL_FUNC_VISIBILITY aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size);
ACL_FUNC_VISIBILITY aclScalarList *aclCreateScalarList(const aclScalar *const *value, uint64_t size);
/* Re-describe a live tensor (the arguments as for aclCreateTensor); on an error it is unchanged. */
ACL_FUNC_VISIBILITY aclnnStatus aclInitTensor(aclTensor *tensor, const int64_t *viewDims, uint64_t viewDimsNum,
                                              aclDataType dataType, const int64_t *stride, int64_t offset,
                                              aclFormat format, const int64_t *storageDims, uint64_t storageDimsNum,
                                              void *tensorDataAddr);

/* Release an object.  A NULL object is 161001; an object that is not live (already destroyed,
 * or of another kind) is 161002 when it can be detected. */
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensor(const aclTensor *tensor);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalar(const aclScalar *scalar);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyIntArray(const aclIntArray *array);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyFloatArray(const aclFloatArray *array);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyBoolArray(const aclBoolArray *array);
/* Destroys the list and its members; a member destroyed before (on its own, through another list,
 * or listed twice) is 161002 after the rest is released. */
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensorList(const aclTensorList *array);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalarList(const aclScalarList *array);

/* Tensor properties. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType);
ACL_FUNC_VISIBILITY aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format);
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset);
/* The view's dims, the view's strides (elements) and the storage dims, as a new array the caller
 * releases: with delete[] in C++ (it comes from the program's operator new[]), free() in C. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue,
                                                  uint64_t *stridesNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims,
                                                   uint64_t *storageDimsNum);
/* The number of values of an array, of tensors or scalars of a list. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetIntArraySize(const aclIntArray *array, uint64_t *size);
ACL_FUNC_VISIBILITY aclnnStatus aclGetFloatArraySize(const aclFloatArray *array, uint64_t *size);
ACL_FUNC_VISIBILITY aclnnStatus aclGetBoolArraySize(const aclBoolArray *array, uint64_t *size);
ACL_FUNC_VISIBILITY aclnnStatus aclGetTensorListSize(const aclTensorList *tensorList, uint64_t *size);
ACL_FUNC_VISIBILITY aclnnStatus aclGetScalarListSize(const aclScalarList *scalarList, uint64_t *size);
/* The device address of a tensor (the address given at creation, not offset by the view). */
ACL_FUNC_VISIBILITY aclnnStatus aclSetRawTensorAddr(aclTensor *tensor, void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclGetRawTensorAddr(const aclTensor *tensor, void **addr);

/* Executors: by default the second phase (aclnnXxx) runs an executor once and releases it.  A
 * repeatable executor can run any number of times and is released by aclDestroyAclOpExecutor. */
ACL_FUNC_VISIBILITY aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor);
/* Rebind the device address of the executor's index-th input / output tensor (in the order of the
 * operator's parameters) for its next run; `tensor` (may be NULL) gets the address too. */
ACL_FUNC_VISIBILITY aclnnStatus aclSetInputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor,
                                                      void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor,
                                                       void *addr);
/* The same with `index` counting inputs and outputs together, in the operator's parameter order.
 * A NULL executor or tensor is 561103 (as CANN documents). */
ACL_FUNC_VISIBILITY aclnnStatus aclSetTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor,
                                                 void *addr);
/* Tensor list forms: the list's relativeIndex-th tensor gets addr; no dvsim operator takes a tensor
 * list, so rebinding the executor's list parameter irIndex is then 161002 with a message. */
ACL_FUNC_VISIBILITY aclnnStatus aclSetDynamicInputTensorAddr(aclOpExecutor *executor, size_t irIndex,
                                                             const size_t relativeIndex, aclTensorList *tensors,
                                                             void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetDynamicOutputTensorAddr(aclOpExecutor *executor, size_t irIndex,
                                                              const size_t relativeIndex, aclTensorList *tensors,
                                                              void *addr);
ACL_FUNC_VISIBILITY aclnnStatus aclSetDynamicTensorAddr(aclOpExecutor *executor, size_t irIndex,
                                                        const size_t relativeIndex, aclTensorList *tensors, void *addr);
/* The capitalised spellings CANN also exports. */
ACL_FUNC_VISIBILITY aclnnStatus AclSetInputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor,
                                                      void *addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor,
                                                       void *addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor,
                                                 void *addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetDynamicInputTensorAddr(aclOpExecutor *executor, size_t irIndex,
                                                             const size_t relativeIndex, aclTensorList *tensors,
                                                             void *addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetDynamicOutputTensorAddr(aclOpExecutor *executor, size_t irIndex,
                                                              const size_t relativeIndex, aclTensorList *tensors,
                                                              void *addr);
ACL_FUNC_VISIBILITY aclnnStatus AclSetDynamicTensorAddr(aclOpExecutor *executor, size_t irIndex,
                                                        const size_t relativeIndex, aclTensorList *tensors, void *addr);

#ifdef __cplusplus
}
#endif

/* The success status under its aclnn name (C++ only, as in the aclnn interface). */
#ifdef __cplusplus
#if __cplusplus >= 201103L
constexpr aclnnStatus OK = 0;
#else
static const aclnnStatus OK = 0;
#endif
#endif

#endif
