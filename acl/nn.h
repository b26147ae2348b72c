/* acl/nn.h - the aclnn layer's internal interface, shared by meta.c (the objects), nncall.c (one
 * operator call: its checks and its executor) and nnops.c (the operators): the aclnnStatus codes
 * under their documented names (the public headers do not have them), the layouts behind the opaque
 * aclnn types, the type and format tables, and the operator-call helpers.
 *
 * Every object is registered with its kind (dv_acl_handle_add) when it is made and unregistered
 * when it is destroyed; every call checks the registry before it reads an object, so a destroyed,
 * foreign or garbage handle is an error, never a read of freed memory. */
#ifndef DV_ACL_NN_H
#define DV_ACL_NN_H

#include <stdbool.h>
#include <stdint.h>

#include "internal.h"
#include "aclnn/aclnn_base.h"

/* aclnnStatus codes (documented values). */
enum {
    ACLNN_SUCCESS = 0,
    ACLNN_ERR_PARAM_NULLPTR = 161001,  /* a required pointer argument is NULL */
    ACLNN_ERR_PARAM_INVALID = 161002,  /* shapes, types, formats or values the operator does not accept */
    ACLNN_ERR_RUNTIME_ERROR = 361001,  /* the runtime failed (no device, a launch that cannot be queued) */
    ACLNN_ERR_INNER_NULLPTR = 561103   /* an internal allocation failed */
};

/* Object kinds, as registered with dv_acl_handle_add. */
enum {
    DV_ACL_MAGIC_TENSOR = 0x7e45a001u,
    DV_ACL_MAGIC_SCALAR = 0x7e45a002u,
    DV_ACL_MAGIC_INT_ARRAY = 0x7e45a003u,
    DV_ACL_MAGIC_FLOAT_ARRAY = 0x7e45a004u,
    DV_ACL_MAGIC_BOOL_ARRAY = 0x7e45a005u,
    DV_ACL_MAGIC_EXECUTOR = 0x7e45a006u,
    DV_ACL_MAGIC_TENSOR_LIST = 0x7e45a007u,
    DV_ACL_MAGIC_SCALAR_LIST = 0x7e45a008u
};

/* ---- element types and formats ---- */

/* What dvsim knows about one aclDataType. */
typedef struct dv_acl_dtype_info {
    aclDataType acl;
    const char *name;      /* "ACL_FLOAT16" */
    const char *prof;      /* msprof spelling: "DT_FLOAT16" */
    unsigned size;         /* bytes per element */
    int dv;                /* the simulator's dv_dtype_t, -1 when the simulator has none */
} dv_acl_dtype_info_t;

/* The entry of an aclDataType, NULL when dvsim does not know it (or it has no whole-byte size). */
const dv_acl_dtype_info_t *dv_acl_dtype_info(aclDataType t);
/* An aclFormat's msprof spelling ("FORMAT_ND"), NULL when unknown. */
const char *dv_acl_format_name(aclFormat f);

/* ---- objects ---- */

struct aclTensor {
    aclDataType dtype;
    aclFormat format;
    int ndims;
    int64_t dims[DV_ACL_MAX_DIMS];
    int64_t strides[DV_ACL_MAX_DIMS];    /* elements */
    int64_t offset;                      /* elements from data to the view's first element */
    int nstorage;
    int64_t storage[DV_ACL_MAX_DIMS];
    uint64_t data;                       /* device address, 0 when not set */
    uint64_t serial;                     /* unique per aclCreateTensor, for lists */
};

struct aclScalar {
    aclDataType dtype;
    double value;                        /* the value converted to double */
    uint64_t serial;                     /* unique per aclCreateScalar, for lists */
};

/* A list owns its members: aclDestroy{Tensor,Scalar}List destroys them.  A member is the object
 * with that address and serial number while it is live; one destroyed on its own (or through
 * another list) is gone from the list. */
struct aclTensorList {
    uint64_t size;
    aclTensor **v;
    uint64_t *serial;
};

struct aclScalarList {
    uint64_t size;
    aclScalar **v;
    uint64_t *serial;
};

struct aclIntArray {
    uint64_t size;
    int64_t *v;
};

struct aclFloatArray {
    uint64_t size;
    float *v;
};

struct aclBoolArray {
    uint64_t size;
    bool *v;
};

/* One user tensor of an executor, as captured by the first phase. */
typedef struct dv_acl_xtensor {
    char arg[DV_NAME_MAX];   /* the operator library's argument it is bound to ("x", "gamma", ...) */
    const char *what;        /* the aclnn parameter name, for messages ("self", "mat2") */
    bool input;              /* an input (else an output), for aclSet{Input,Output}TensorAddr */
    uint64_t data;           /* the tensor's device address (0: not set) */
    int64_t offset_bytes;    /* view offset in bytes */
    dv_acl_view_t view;      /* what the kernel argument gathers (view.dev = data + offset_bytes) */
    bool ws;                 /* no user tensor: an earlier kernel of the chain wrote it into the second
                              * phase's workspace at byte ws_at (acl/nnbcast.c); data and view unused */
    uint64_t ws_at;
    int pos;                 /* in a chain of kernels (acl/nnbcast.c): 1 + its index among the call's
                              * inputs or outputs, for aclSet{Input,Output}TensorAddr; 0: count in order */
} dv_acl_xtensor_t;

#define DV_ACL_MAX_XTENSORS 8

struct aclOpExecutor {
    bool repeatable;
    bool empty;                          /* zero elements: the second phase queues nothing */
    const char *api;                     /* "aclnnAdd" */
    const dv_opdesc_t *op;
    dv_opvals_t vals;
    char cmd[512];                       /* the library call as `dvsim op` spells it, for messages */
    uint64_t workspace;                  /* bytes the second phase needs */
    int ntensors;
    dv_acl_xtensor_t t[DV_ACL_MAX_XTENSORS];
    char op_type[64], op_name[128];
    char in_shapes[256], in_dtypes[128], in_formats[128];
    char out_shapes[256], out_dtypes[128], out_formats[128];
    struct aclOpExecutor *next;          /* the next kernel of the operator: a foreach operator's next list
                                          * member (nnforeach.c), a composite's next step (nnmm.c), else
                                          * NULL; the second phase runs the chain, freeing frees it */
};

/* The object behind a handle when it is live and of that kind, else NULL with an error recorded:
 * 161001 for NULL, 161002 otherwise (*rc receives the code).  `what` names the parameter. */
const struct aclTensor *dv_acl_tensor_get(const aclTensor *t, const char *api, const char *what, int *rc);
aclOpExecutor *dv_acl_executor_get(aclOpExecutor *e, const char *api, int *rc);
/* A live tensor list whose members are all live (for an operator that takes one); `what` names the
 * parameter.  161001 for NULL, 161002 for a list that is not live or has a destroyed member. */
const struct aclTensorList *dv_acl_tensor_list_get(const aclTensorList *l, const char *api, const char *what,
                                                   int *rc);
/* The same for scalar lists. */
const struct aclScalarList *dv_acl_scalar_list_get(const aclScalarList *l, const char *api, const char *what,
                                                   int *rc);
/* Release an executor (unregisters it first). */
void dv_acl_executor_free(aclOpExecutor *e);

/* Elements of a tensor's view (1 for a 0-d tensor). */
uint64_t dv_acl_tensor_elems(const aclTensor *t);
/* The tensor's dims as "4,2048" (msprof's spelling) into buf. */
void dv_acl_dims_str(const aclTensor *t, char *buf, size_t cap);


/* ---- one operator call (nncall.c), used by the operators (nnops.c) ---- */

#define DV_NN_MAX_ARGV 32

/* A tensor parameter of the call. */
typedef struct dv_nn_tensor {
    const aclTensor *t;
    const char *what;       /* the aclnn parameter name */
    const char *arg;        /* the library argument it becomes */
    bool input;
    bool transpose;         /* a 2-D view staged transposed (matmul's mat2 as B^T) */
    bool ws;                /* in the workspace at byte ws_at, written by an earlier kernel of the
                             * chain (t gives only its shape and dtype): dv_nn_call_ws_tensor */
    uint64_t ws_at;
    int pos;                /* dv_acl_xtensor_t.pos */
} dv_nn_tensor_t;

/* What the first phase collects before it builds the executor. */
typedef struct dv_nn_call {
    const char *api;        /* "aclnnAdd" */
    const char *gws;        /* "aclnnAddGetWorkspaceSize" */
    const char *op;         /* the library operator: "add" */
    const char *op_type;    /* msprof's OP Type: "Add" */
    bool empty;             /* a tensor has no elements: nothing to run */
    int argc;
    char *argv[DV_NN_MAX_ARGV];
    char text[DV_NN_MAX_ARGV][96]; /* a value: at most a 6-dim shape of 2^30 dims (65 chars) or a %.17g */
    int ntensors;
    dv_nn_tensor_t t[DV_ACL_MAX_XTENSORS];
} dv_nn_call_t;

/* Start a call: the aclnn API, its first phase, the library operator and msprof's OP Type. */
void dv_nn_call_init(dv_nn_call_t *c, const char *api, const char *gws, const char *op, const char *op_type);
/* Start the call of the acl/nnops.def row named api ("aclnnReduceSum"): its library operator and OP
 * Type as the table gives them (for first phases written outside acl/nnops.c). */
void dv_nn_call_init_row(dv_nn_call_t *c, const char *api);
/* Add "--name value" to the library parameters. */
void dv_nn_call_param(dv_nn_call_t *c, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Bind a tensor parameter (`what`, as aclnn names it) to library argument `arg`. */
void dv_nn_call_tensor(dv_nn_call_t *c, const aclTensor *t, const char *what, const char *arg, bool input);
/* Bind library input `arg` to bytes an earlier executor of the chain writes at byte ws_at of the
 * second phase's workspace; `shape` (read while the executor is built) gives its shape and dtype. */
void dv_nn_call_ws_tensor(dv_nn_call_t *c, const aclTensor *shape, const char *what, const char *arg,
                          uint64_t ws_at);
/* A tensor argument: live, or 161001 (NULL) / 161002 (not a tensor). */
int dv_nn_get_tensor(const dv_nn_call_t *c, const aclTensor *t, const char *what);
/* The aclDataType's name ("ACL_FLOAT16"), or "an unknown dtype". */
const char *dv_nn_dtype_name(aclDataType t);
/* The library's --dtype spelling of a simulator dtype. */
const char *dv_nn_param_dtype_name(int dv);
/* The tensor's dtype must be one the library operator's parameter `param` accepts. */
int dv_nn_check_dtype(const dv_nn_call_t *c, const aclTensor *t, const char *what, const char *param);
/* Two tensors of the same dtype. */
int dv_nn_check_same_dtype(const dv_nn_call_t *c, const aclTensor *a, const char *wa, const aclTensor *b,
                           const char *wb);
/* Two tensors of the same shape (the element-wise operators do not broadcast). */
int dv_nn_check_same_shape(const dv_nn_call_t *c, const aclTensor *a, const char *wa, const aclTensor *b,
                           const char *wb, const char *why);
/* A plain layout: dvsim does not implement the fractal / 5-D private formats. */
int dv_nn_check_plain(const dv_nn_call_t *c, const aclTensor *t, const char *what);
/* An NCHW tensor: format NCHW (or ND) and 4 dims. */
int dv_nn_check_nchw(const dv_nn_call_t *c, const aclTensor *t, const char *what);
/* A 1-D (or any shape) tensor of n elements and the given dtype, e.g. a per-channel statistic. */
int dv_nn_check_vector(const dv_nn_call_t *c, const aclTensor *t, const char *what, uint64_t n, const char *of,
                       const aclTensor *like, const char *like_what);
/* A float attribute that maps to an optional library parameter with a default: passed when it
 * differs from the default, an error when it does and the library lacks the parameter. */
int dv_nn_float_param(dv_nn_call_t *c, const char *param, double v, double dflt, const char *what);
/* The int array attribute `what` (size 1..maxn) whose values are all equal, in *v. */
int dv_nn_uniform_array(const dv_nn_call_t *c, const aclIntArray *a, const char *what, uint64_t maxn, int64_t *v);
/* cubeMathType 0 .. 3 (KEEP_DTYPE, ALLOW_FP32_DOWN_PRECISION, USE_FP16, USE_HF32), else 161002. */
int dv_nn_check_cube_math(const dv_nn_call_t *c, int8_t cubeMathType);
/* The executor of a checked call (an empty one when a tensor has no elements). */
int dv_nn_exec_build(const dv_nn_call_t *c, uint64_t *workspaceSize, aclOpExecutor **executor);
/* The second phase of every operator: run the executor, release it unless it is repeatable. */
aclnnStatus dv_nn_exec_run(const char *api, void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                           aclrtStream stream);
/* ---- broadcasting (nnbcast.c) ----
 * A binary first phase whose operands differ in shape chains expand kernels before its own: each
 * operand that is not the broadcast shape is expanded into the workspace, and the operator's kernel
 * reads it there. */
typedef struct dv_nn_bcast {
    aclOpExecutor *head, **tail;         /* the expand executors so far */
    uint64_t ws;                         /* their workspace */
    int n;
    int nin;                             /* user inputs bound so far */
    struct aclTensor shape[4];           /* the shape and dtype of what they write: a cast and an
                                          * expand for each of two operands */
} dv_nn_bcast_t;

/* The broadcast shape of a and b (numpy rules) into *o (dims only), else 161002 naming both shapes. */
int dv_nn_bcast_shape(const dv_nn_call_t *c, const aclTensor *a, const char *wa, const aclTensor *b,
                      const char *wb, struct aclTensor *o);
/* Input `arg` of call c is tensor t cast to dtype dt and broadcast to shape `to`: t itself when it
 * has both, else a cast and / or an expand executor (added to bc) write it into the workspace and c
 * reads it there. */
int dv_nn_bcast_input(dv_nn_call_t *c, dv_nn_bcast_t *bc, const aclTensor *t, const char *what, const char *arg,
                      const struct aclTensor *to, aclDataType dt);
/* torch's category of a dtype: 0 bool, 1 integers, 2 floats, -1 neither. */
int dv_nn_dtype_category(aclDataType t);
/* The dtype a and b promote to, torch's result_type for two tensors: the higher category (bool <
 * integer < float) wins, within one the wider type (fp16 with bf16: fp32; int8 with uint8: int16),
 * and a 0-d tensor against a tensor with dimensions counts only when its category is higher. */
int dv_nn_promote(const dv_nn_call_t *c, const aclTensor *a, const char *wa, const aclTensor *b, const char *wb,
                  aclDataType *out);
/* Add's common broadcast in one kernel, as CANN does it: other a vector along one axis of self (all
 * its other axes 1: [..., N] + [N], NCHW + [C,1,1]), alpha 1, one fp16 / fp32 dtype, self the result's
 * shape: the library's bias_add.  DV_NN_NO_BIAS when the call is not that case (or bias_add cannot
 * plan it); else the status of building its executor. */
#define DV_NN_NO_BIAS 1
int dv_nn_bcast_bias(dv_nn_call_t *c, const aclTensor *self, const char *ws, const aclTensor *other,
                     const aclTensor *out, const char *ow, uint64_t *workspaceSize, aclOpExecutor **executor);
/* Build c's executor after bc's expands (dv_nn_exec_build when there are none); frees bc's on error. */
int dv_nn_bcast_build(dv_nn_call_t *c, dv_nn_bcast_t *bc, uint64_t *workspaceSize, aclOpExecutor **executor);

/* The first phase's common start: a device, and the two output pointers. */
int dv_nn_call_start(const dv_nn_call_t *c, uint64_t *workspaceSize, aclOpExecutor **executor);
/* The host bytes of element k (row-major, through the strides) of a live device tensor's view, read
 * by a first phase that takes a value from device memory (a scalar or a seed given as a tensor):
 * 161002 with a message when it has no address or the element is outside its allocation. */
int dv_nn_tensor_element(const char *gws, const struct aclTensor *st, const char *what, uint64_t k, const uint8_t **h);

#endif
