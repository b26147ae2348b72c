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
 * executor (aclSetInputTensorAddr / aclSetOutputTensorAddr rebind its addresses). */
#include "nn.h"

#include "dv/sim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_softmax.h"

#define NN_MAX_ARGV 32

/* ---------------------------------------------------------------- one operator call */

/* A tensor parameter of the call. */
typedef struct nn_tensor {
    const aclTensor *t;
    const char *what;       /* the aclnn parameter name */
    const char *arg;        /* the library argument it becomes */
    bool input;
    bool transpose;         /* a 2-D view staged transposed (matmul's mat2 as B^T) */
} nn_tensor_t;

/* What the first phase collects before it builds the executor. */
typedef struct nn_call {
    const char *api;        /* "aclnnAdd" */
    const char *gws;        /* "aclnnAddGetWorkspaceSize" */
    const char *op;         /* the library operator: "add" */
    const char *op_type;    /* msprof's OP Type: "Add" */
    bool empty;             /* a tensor has no elements: nothing to run */
    int argc;
    char *argv[NN_MAX_ARGV];
    char text[NN_MAX_ARGV][48];
    int ntensors;
    nn_tensor_t t[DV_ACL_MAX_XTENSORS];
} nn_call_t;

static void call_init(nn_call_t *c, const char *api, const char *gws, const char *op, const char *op_type)
{
    memset(c, 0, sizeof *c);
    c->api = api;
    c->gws = gws;
    c->op = op;
    c->op_type = op_type;
}

/* Add "--name value" to the library parameters. */
static void call_param(nn_call_t *c, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void call_param(nn_call_t *c, const char *name, const char *fmt, ...)
{
    if (c->argc + 2 > NN_MAX_ARGV)
        return; /* never: the operators pass at most a dozen */
    snprintf(c->text[c->argc], sizeof c->text[0], "--%s", name);
    c->argv[c->argc] = c->text[c->argc];
    c->argc++;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->text[c->argc], sizeof c->text[0], fmt, ap);
    va_end(ap);
    c->argv[c->argc] = c->text[c->argc];
    c->argc++;
}

static void call_tensor(nn_call_t *c, const aclTensor *t, const char *what, const char *arg, bool input)
{
    if (c->ntensors < DV_ACL_MAX_XTENSORS)
        c->t[c->ntensors++] = (nn_tensor_t){t, what, arg, input, false};
}

/* ---------------------------------------------------------------- checks */

/* A tensor argument: live, or 161001 (NULL) / 161002 (not a tensor). */
static int get_tensor(const nn_call_t *c, const aclTensor *t, const char *what)
{
    int rc;
    dv_acl_tensor_get(t, c->gws, what, &rc);
    return rc;
}

static const char *dtype_name(aclDataType t)
{
    const dv_acl_dtype_info_t *d = dv_acl_dtype_info(t);
    return d ? d->name : "an unknown dtype";
}

/* The library's --dtype spelling of a simulator dtype. */
static const char *dv_param_name(int dv)
{
    switch (dv) {
    case DV_DT_F16: return "fp16";
    case DV_DT_BF16: return "bf16";
    case DV_DT_F32: return "fp32";
    case DV_DT_S8: return "int8";
    case DV_DT_U8: return "uint8";
    case DV_DT_S16: return "int16";
    case DV_DT_U16: return "uint16";
    case DV_DT_S32: return "int32";
    case DV_DT_U32: return "uint32";
    default: return "?";
    }
}

/* The aclDataTypes a library DTYPE parameter accepts, as "ACL_FLOAT16, ACL_FLOAT". */
static void accepted_list(uint32_t mask, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (aclDataType t = ACL_FLOAT; t <= ACL_BF16; t++) {
        const dv_acl_dtype_info_t *d = dv_acl_dtype_info(t);
        if (d && d->dv >= 0 && (mask & (1u << d->dv)))
            n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, "%s%s", n ? ", " : "", d->name);
    }
}

/* The tensor's dtype must be one the library operator's parameter `param` accepts. */
static int check_dtype(const nn_call_t *c, const aclTensor *t, const char *what, const char *param)
{
    const dv_opdesc_t *op = dv_ops_find(c->op);
    int i = op ? dv_ops_param_index(op, param) : -1;
    if (i < 0)
        return dv_acl_fail(ACLNN_ERR_RUNTIME_ERROR, "%s: the operator library has no %s --%s", c->gws, c->op, param);
    const dv_acl_dtype_info_t *d = dv_acl_dtype_info(t->dtype);
    if (d && d->dv >= 0 && (op->params[i].dtypes & (1u << d->dv)))
        return ACLNN_SUCCESS;
    char list[256];
    accepted_list(op->params[i].dtypes, list, sizeof list);
    return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s; dvsim's %s takes %s", c->gws, what,
                       dtype_name(t->dtype), c->op, list);
}

/* Two tensors of the same dtype. */
static int check_same_dtype(const nn_call_t *c, const aclTensor *a, const char *wa, const aclTensor *b, const char *wb)
{
    if (a->dtype == b->dtype)
        return ACLNN_SUCCESS;
    return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s but %s has %s; they must be the same", c->gws, wb,
                       dtype_name(b->dtype), wa, dtype_name(a->dtype));
}

static bool same_dims(const aclTensor *a, const aclTensor *b)
{
    if (a->ndims != b->ndims)
        return false;
    for (int i = 0; i < a->ndims; i++)
        if (a->dims[i] != b->dims[i])
            return false;
    return true;
}

/* Two tensors of the same shape (the element-wise operators do not broadcast). */
static int check_same_shape(const nn_call_t *c, const aclTensor *a, const char *wa, const aclTensor *b, const char *wb,
                            const char *why)
{
    if (same_dims(a, b))
        return ACLNN_SUCCESS;
    char sa[128], sb[128];
    dv_acl_dims_str(a, sa, sizeof sa);
    dv_acl_dims_str(b, sb, sizeof sb);
    return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape [%s] but %s has [%s]%s", c->gws, wb, sb, wa, sa,
                       why);
}

/* A plain layout: dvsim does not implement the fractal / 5-D private formats. */
static int check_plain(const nn_call_t *c, const aclTensor *t, const char *what)
{
    switch (t->format) {
    case ACL_FORMAT_NC1HWC0: case ACL_FORMAT_FRACTAL_Z: case ACL_FORMAT_NC1HWC0_C04: case ACL_FORMAT_FRACTAL_NZ:
    case ACL_FORMAT_NDC1HWC0: case ACL_FRACTAL_Z_3D: case ACL_FORMAT_FRACTAL_NZ_C0_16: case ACL_FORMAT_FRACTAL_NZ_C0_32:
    case ACL_FORMAT_FRACTAL_NZ_C0_2: case ACL_FORMAT_FRACTAL_NZ_C0_4: case ACL_FORMAT_FRACTAL_NZ_C0_8:
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has format %s; dvsim takes plain layouts (ND, NCHW, ...), "
                           "not the private fractal or 5-D formats", c->gws, what, dv_acl_format_name(t->format));
    default: return ACLNN_SUCCESS;
    }
}

/* An NCHW tensor: format NCHW (or ND) and 4 dims. */
static int check_nchw(const nn_call_t *c, const aclTensor *t, const char *what)
{
    if (t->format != ACL_FORMAT_NCHW && t->format != ACL_FORMAT_ND)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has format %s; dvsim's %s takes FORMAT_NCHW", c->gws, what,
                           dv_acl_format_name(t->format), c->op);
    if (t->ndims != 4)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %d dimensions; NCHW needs 4", c->gws, what, t->ndims);
    return ACLNN_SUCCESS;
}

/* A 1-D (or any shape) tensor of n elements and the given dtype, e.g. a per-channel statistic. */
static int check_vector(const nn_call_t *c, const aclTensor *t, const char *what, uint64_t n, const char *of,
                        const aclTensor *like, const char *like_what)
{
    int rc;
    if ((rc = check_plain(c, t, what)) != ACLNN_SUCCESS)
        return rc;
    if (dv_acl_tensor_elems(t) != n) {
        char s[128];
        dv_acl_dims_str(t, s, sizeof s);
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape [%s] (%llu elements); it needs %llu (%s)", c->gws,
                           what, s, (unsigned long long)dv_acl_tensor_elems(t), (unsigned long long)n, of);
    }
    if (like && t->dtype != like->dtype)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s but %s has %s; dvsim's %s takes them in the "
                           "same dtype", c->gws, what, dtype_name(t->dtype), like_what, dtype_name(like->dtype), c->op);
    return ACLNN_SUCCESS;
}

/* A float attribute that maps to an optional library parameter with a default: passed when it
 * differs from the default, an error when it does and the library lacks the parameter. */
static int float_param(nn_call_t *c, const char *param, double v, double dflt, const char *what)
{
    if (v == dflt)
        return ACLNN_SUCCESS;
    const dv_opdesc_t *op = dv_ops_find(c->op);
    if (!op || dv_ops_param_index(op, param) < 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s %.17g is not supported: dvsim's %s only computes with %s "
                           "%g", c->gws, what, v, c->op, what, dflt);
    call_param(c, param, "%.17g", v);
    return ACLNN_SUCCESS;
}

/* The int array attribute `what` (size 1..maxn) whose values are all equal, in *v. */
static int uniform_array(const nn_call_t *c, const aclIntArray *a, const char *what, uint64_t maxn, int64_t *v)
{
    if (!a)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: %s is NULL", c->gws, what);
    if (!dv_acl_handle_is(a, DV_ACL_MAGIC_INT_ARRAY))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is not a live aclIntArray", c->gws, what);
    if (a->size == 0 || a->size > maxn)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %llu values; a 2-D convolution takes 1 to %llu",
                           c->gws, what, (unsigned long long)a->size, (unsigned long long)maxn);
    for (uint64_t i = 1; i < a->size; i++)
        if (a->v[i] != a->v[0])
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is (%lld, %lld%s): dvsim's conv2d takes the same value "
                               "on every axis", c->gws, what, (long long)a->v[0], (long long)a->v[1],
                               a->size > 2 ? ", ..." : "");
    *v = a->v[0];
    return ACLNN_SUCCESS;
}

static int check_cube_math(const nn_call_t *c, int8_t cubeMathType)
{
    if (cubeMathType >= 0 && cubeMathType <= 3)
        return ACLNN_SUCCESS;
    return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: cubeMathType %d is not 0 (KEEP_DTYPE), 1 "
                       "(ALLOW_FP32_DOWN_PRECISION), 2 (USE_FP16) or 3 (USE_HF32)", c->gws, (int)cubeMathType);
}

/* ---------------------------------------------------------------- the executor */

/* The plan argument a user tensor is bound to, -1 when the plan has none of that name. */
static int plan_arg(const dv_op_plan_t *plan, const char *name)
{
    for (uint32_t i = 0; i < plan->info.nargs; i++)
        if (strcmp(plan->args[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* The executor tensor bound to plan argument i, NULL for a workspace argument. */
static dv_acl_xtensor_t *bound(aclOpExecutor *e, const dv_op_plan_t *plan, uint32_t i)
{
    for (int k = 0; k < e->ntensors; k++)
        if (strcmp(e->t[k].arg, plan->args[i].name) == 0)
            return &e->t[k];
    return NULL;
}

/* Workspace bytes of one argument: each starts on a DV_GM_ALIGN boundary, as every GM argument. */
static uint64_t ws_bytes(uint64_t bytes)
{
    return (bytes + DV_GM_ALIGN - 1) / DV_GM_ALIGN * DV_GM_ALIGN;
}

/* The workspace a plan needs: its arguments that are no user tensor. */
static uint64_t ws_needed(aclOpExecutor *e, const dv_op_plan_t *plan)
{
    uint64_t need = 0;
    for (uint32_t i = 0; i < plan->info.nargs; i++)
        if (!bound(e, plan, i))
            need += ws_bytes(plan->args[i].bytes);
    return need;
}

/* Plan the executor's operator on the current profile; 161002 with the library's message. */
static int replan(aclOpExecutor *e, const char *api, dv_op_plan_t *plan)
{
    dv_error_t err = {0};
    if (dv_ops_plan(e->op, dv_acl_config(), &e->vals, plan, &err) != DV_OK)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: the operator library rejects `%s`: %s", api, e->cmd, err.msg);
    return ACLNN_SUCCESS;
}

/* Append "a;b" style profile columns of one tensor. */
static void prof_append(char *buf, size_t cap, const char *s)
{
    size_t n = strlen(buf);
    snprintf(buf + n, n < cap ? cap - n : 0, "%s%s", n ? ";" : "", s);
}

static void exec_prof(aclOpExecutor *e, const nn_call_t *c)
{
    snprintf(e->op_type, sizeof e->op_type, "%s", c->op_type);
    snprintf(e->op_name, sizeof e->op_name, "%s_%sAiCore_%s", c->api, c->op_type, c->op_type);
    for (int i = 0; i < c->ntensors; i++) {
        const aclTensor *t = c->t[i].t;
        char dims[128];
        dv_acl_dims_str(t, dims, sizeof dims);
        const dv_acl_dtype_info_t *d = dv_acl_dtype_info(t->dtype);
        const char *dt = d ? d->prof : "DT_UNDEFINED", *fmt = dv_acl_format_name(t->format);
        if (c->t[i].input) {
            prof_append(e->in_shapes, sizeof e->in_shapes, dims);
            prof_append(e->in_dtypes, sizeof e->in_dtypes, dt);
            prof_append(e->in_formats, sizeof e->in_formats, fmt);
        } else {
            prof_append(e->out_shapes, sizeof e->out_shapes, dims);
            prof_append(e->out_dtypes, sizeof e->out_dtypes, dt);
            prof_append(e->out_formats, sizeof e->out_formats, fmt);
        }
    }
}

/* The view the kernel argument gathers: the tensor's, or for `transpose` the 2-D view [b, a] of a
 * tensor [a, b] (dims and strides swapped), so the staged buffer holds its transpose row-major. */
static void exec_view(dv_acl_xtensor_t *x, const nn_tensor_t *nt)
{
    const aclTensor *t = nt->t;
    const dv_acl_dtype_info_t *d = dv_acl_dtype_info(t->dtype);
    snprintf(x->arg, sizeof x->arg, "%s", nt->arg);
    x->what = nt->what;
    x->input = nt->input;
    x->data = t->data;
    x->offset_bytes = t->offset * (int64_t)d->size;
    x->view.dev = t->data + (uint64_t)x->offset_bytes;
    x->view.dtype = (dv_dtype_t)d->dv;
    x->view.ndims = t->ndims;
    for (int i = 0; i < t->ndims; i++) {
        int j = nt->transpose ? t->ndims - 1 - i : i;
        x->view.dims[i] = t->dims[j];
        x->view.strides[i] = t->strides[j];
    }
}

/* Parse and plan the library operator of a checked call, bind the tensors to its arguments and
 * size the workspace. */
static int exec_plan(aclOpExecutor *e, const nn_call_t *c)
{
    dv_op_plan_t plan;
    dv_error_t err = {0};
    int rc;
    if (!(e->op = dv_ops_find(c->op)))
        return dv_acl_fail(ACLNN_ERR_RUNTIME_ERROR, "%s: the operator library has no operator '%s'", c->gws, c->op);
    size_t n = (size_t)snprintf(e->cmd, sizeof e->cmd, "%s", c->op);
    for (int i = 0; i < c->argc; i++)
        n += (size_t)snprintf(e->cmd + n, n < sizeof e->cmd ? sizeof e->cmd - n : 0, " %s", c->argv[i]);
    if (dv_ops_parse(e->op, c->argc, (char **)c->argv, &e->vals, &err) != DV_OK)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: the operator library rejects `%s`: %s", c->gws, e->cmd,
                           err.msg);
    if ((rc = replan(e, c->gws, &plan)) != ACLNN_SUCCESS)
        return rc;
    e->ntensors = c->ntensors;
    for (int i = 0; i < c->ntensors; i++) {
        dv_acl_xtensor_t *x = &e->t[i];
        exec_view(x, &c->t[i]);
        int a = plan_arg(&plan, x->arg);
        uint64_t elems = dv_acl_tensor_elems(c->t[i].t);
        if (a < 0 || plan.elems[a] != elems || plan.args[a].dtype != x->view.dtype)
            return dv_acl_fail(ACLNN_ERR_RUNTIME_ERROR, "%s: internal error: %s (%llu elements) does not match "
                               "argument '%s' of `%s`", c->gws, x->what, (unsigned long long)elems, x->arg, e->cmd);
    }
    e->workspace = ws_needed(e, &plan);
    exec_prof(e, c);
    return ACLNN_SUCCESS;
}

/* The executor of a checked call (an empty one when a tensor has no elements). */
static int exec_build(const nn_call_t *c, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    int rc;
    aclOpExecutor *e = calloc(1, sizeof *e);
    if (!e)
        return dv_acl_fail(ACLNN_ERR_INNER_NULLPTR, "%s: out of host memory", c->gws);
    if ((rc = dv_acl_handle_add(e, DV_ACL_MAGIC_EXECUTOR)) != ACL_SUCCESS) {
        free(e);
        return ACLNN_ERR_INNER_NULLPTR;
    }
    e->api = c->api;
    e->empty = c->empty;
    if (!c->empty && (rc = exec_plan(e, c)) != ACLNN_SUCCESS) {
        dv_acl_executor_free(e);
        return rc;
    }
    *workspaceSize = e->workspace;
    *executor = e;
    return ACLNN_SUCCESS;
}

/* Everything the second phase checks and does once the executor is known to be live. */
static int exec_launch(aclOpExecutor *e, const char *api, void *workspace, uint64_t workspaceSize,
                       aclrtStream stream)
{
    dv_op_plan_t plan;
    dv_acl_launch_t l;
    dv_error_t err = {0};
    char what[160];
    int rc;
    if (dv_acl_check_device(api) != ACL_SUCCESS)
        return ACLNN_ERR_RUNTIME_ERROR;
    if (e->empty)
        return ACLNN_SUCCESS;
    /* 1. the tensors: an address, inside an allocation */
    for (int i = 0; i < e->ntensors; i++) {
        const dv_acl_xtensor_t *x = &e->t[i];
        if (!x->data)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has no device address (tensorData was NULL and no "
                               "address was set)", api, x->what);
        snprintf(what, sizeof what, "%s: %s", api, x->what);
        if (dv_acl_view_check(&x->view, what) != ACL_SUCCESS)
            return ACLNN_ERR_PARAM_INVALID;
    }
    /* 2. the plan again (on the profile of now), and the workspace it needs */
    if ((rc = replan(e, api, &plan)) != ACLNN_SUCCESS)
        return rc;
    uint64_t need = ws_needed(e, &plan);
    if (need && !workspace)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: workspace is NULL but the operator needs %llu bytes of it",
                           api, (unsigned long long)need);
    if (workspaceSize < need)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: workspaceSize is %llu but the operator needs %llu bytes", api,
                           (unsigned long long)workspaceSize, (unsigned long long)need);
    /* 3. the kernel and the launch: user tensors staged, workspace arguments raw */
    memset(&l, 0, sizeof l);
    if (plan.info.nargs > DV_ACL_MAX_KARGS)
        return dv_acl_fail(ACLNN_ERR_RUNTIME_ERROR, "%s: `%s` has %u arguments; a launch takes at most %d", api, e->cmd,
                           plan.info.nargs, DV_ACL_MAX_KARGS);
    uint64_t ws = (uint64_t)(uintptr_t)workspace;
    for (uint32_t i = 0; i < plan.info.nargs; i++) {
        dv_acl_karg_t *a = &l.arg[i];
        const dv_acl_xtensor_t *x = bound(e, &plan, i);
        a->dir = plan.args[i].dir;
        a->bytes = plan.args[i].bytes;
        if (x) {
            a->staged = true;
            a->view = x->view;
        } else {
            a->dev = ws;
            ws += ws_bytes(plan.args[i].bytes);
        }
    }
    l.nargs = plan.info.nargs;
    snprintf(l.op_type, sizeof l.op_type, "%s", e->op_type);
    snprintf(l.op_name, sizeof l.op_name, "%s", e->op_name);
    snprintf(l.in_shapes, sizeof l.in_shapes, "%s", e->in_shapes);
    snprintf(l.in_dtypes, sizeof l.in_dtypes, "%s", e->in_dtypes);
    snprintf(l.in_formats, sizeof l.in_formats, "%s", e->in_formats);
    snprintf(l.out_shapes, sizeof l.out_shapes, "%s", e->out_shapes);
    snprintf(l.out_dtypes, sizeof l.out_dtypes, "%s", e->out_dtypes);
    snprintf(l.out_formats, sizeof l.out_formats, "%s", e->out_formats);
    l.flops = plan.flops;
    if (dv_ops_kernel(e->op, dv_acl_config(), &plan, &l.kernel, &err) != DV_OK)
        return dv_acl_fail(ACLNN_ERR_RUNTIME_ERROR, "%s: cannot build the kernel of `%s`: %s", api, e->cmd, err.msg);
    l.kernel_destroy = dvk_kernel_destroy;
    rc = dv_acl_enqueue_launch(stream, &l);
    if (rc == ACL_SUCCESS)
        return ACLNN_SUCCESS;
    return rc == ACL_ERROR_INVALID_PARAM ? ACLNN_ERR_PARAM_INVALID : ACLNN_ERR_RUNTIME_ERROR;
}

/* The second phase of every operator: run the executor, release it unless it is repeatable. */
static aclnnStatus exec_run(const char *api, void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                            aclrtStream stream)
{
    int rc;
    if (!dv_acl_executor_get(executor, api, &rc))
        return rc;
    if (strcmp(executor->api, api) != 0)
        rc = dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: the executor was made by %sGetWorkspaceSize", api,
                         executor->api);
    else
        rc = exec_launch(executor, api, workspace, workspaceSize, stream);
    if (!executor->repeatable)
        dv_acl_executor_free(executor);
    return rc;
}

/* The first phase's common start: a device, and the two output pointers. */
static int call_start(const nn_call_t *c, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    if (dv_acl_check_device(c->gws) != ACL_SUCCESS)
        return ACLNN_ERR_RUNTIME_ERROR;
    if (!workspaceSize)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: workspaceSize is NULL", c->gws);
    if (!executor)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: executor is NULL", c->gws);
    return ACLNN_SUCCESS;
}

/* ---------------------------------------------------------------- element-wise */

/* out = f(self[, other]): same shape and dtype everywhere, the flattened element count as --shape. */
static int elementwise(nn_call_t *c, const aclTensor *self, const aclTensor *other, const aclTensor *out,
                       uint64_t *workspaceSize, aclOpExecutor **executor)
{
    static const char nobc[] = "; dvsim does not broadcast: the tensors must have the same shape";
    int rc;
    if ((rc = get_tensor(c, self, "self")) || (other && (rc = get_tensor(c, other, "other"))) ||
        (rc = get_tensor(c, out, "out")))
        return rc;
    if ((rc = check_dtype(c, self, "self", "dtype")) || (rc = check_plain(c, self, "self")) ||
        (rc = check_plain(c, out, "out")) || (rc = check_same_shape(c, self, "self", out, "out", nobc)) ||
        (rc = check_same_dtype(c, self, "self", out, "out")))
        return rc;
    if (other && ((rc = check_plain(c, other, "other")) ||
                  (rc = check_same_shape(c, self, "self", other, "other", nobc)) ||
                  (rc = check_same_dtype(c, self, "self", other, "other"))))
        return rc;
    const dv_acl_dtype_info_t *d = dv_acl_dtype_info(self->dtype);
    uint64_t n = dv_acl_tensor_elems(self);
    c->empty = n == 0;
    call_param(c, "shape", "%llu", (unsigned long long)n);
    call_param(c, "dtype", "%s", dv_param_name(d->dv));
    call_tensor(c, self, "self", "x", true);
    if (other)
        call_tensor(c, other, "other", "y", true);
    call_tensor(c, out, "out", other ? "z" : "y", false);
    return exec_build(c, workspaceSize, executor);
}

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor *self, const aclTensor *other, const aclScalar *alpha,
                                     aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    nn_call_t c;
    int rc;
    call_init(&c, "aclnnAdd", "aclnnAddGetWorkspaceSize", "add", "Add");
    if ((rc = call_start(&c, workspaceSize, executor)) || (rc = get_tensor(&c, self, "self")) ||
        (rc = get_tensor(&c, other, "other")))
        return rc;
    if (!alpha)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: alpha is NULL", c.gws);
    if (!dv_acl_handle_is(alpha, DV_ACL_MAGIC_SCALAR))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: alpha is not a live aclScalar", c.gws);
    if ((rc = get_tensor(&c, out, "out")) || (rc = float_param(&c, "alpha", alpha->value, 1.0, "alpha")))
        return rc;
    return elementwise(&c, self, other, out, workspaceSize, executor);
}

aclnnStatus aclnnAdd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)
{
    DV_ACL_LOCKED();
    return exec_run("aclnnAdd", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                     uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    nn_call_t c;
    int rc;
    call_init(&c, "aclnnMul", "aclnnMulGetWorkspaceSize", "mul", "Mul");
    if ((rc = call_start(&c, workspaceSize, executor)) || (rc = get_tensor(&c, self, "self")) ||
        (rc = get_tensor(&c, other, "other")))
        return rc;
    return elementwise(&c, self, other, out, workspaceSize, executor);
}

aclnnStatus aclnnMul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)
{
    DV_ACL_LOCKED();
    return exec_run("aclnnMul", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnReluGetWorkspaceSize(const aclTensor *self, const aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    nn_call_t c;
    int rc;
    call_init(&c, "aclnnRelu", "aclnnReluGetWorkspaceSize", "relu", "Relu");
    if ((rc = call_start(&c, workspaceSize, executor)))
        return rc;
    return elementwise(&c, self, NULL, out, workspaceSize, executor);
}

aclnnStatus aclnnRelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, const aclrtStream stream)
{
    DV_ACL_LOCKED();
    return exec_run("aclnnRelu", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    nn_call_t c;
    int rc;
    call_init(&c, "aclnnGelu", "aclnnGeluGetWorkspaceSize", "gelu", "Gelu");
    if ((rc = call_start(&c, workspaceSize, executor)))
        return rc;
    return elementwise(&c, self, NULL, out, workspaceSize, executor);
}

aclnnStatus aclnnGelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, const aclrtStream stream)
{
    DV_ACL_LOCKED();
    return exec_run("aclnnGelu", workspace, workspaceSize, executor, stream);
}

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
    nn_call_t c;
    int rc;
    call_init(&c, "aclnnSoftmax", "aclnnSoftmaxGetWorkspaceSize", "softmax", "SoftmaxV2");
    if ((rc = call_start(&c, workspaceSize, executor)) || (rc = get_tensor(&c, self, "self")) ||
        (rc = get_tensor(&c, out, "out")))
        return rc;
    if ((rc = check_dtype(&c, self, "self", "dtype")) || (rc = check_plain(&c, self, "self")) ||
        (rc = check_plain(&c, out, "out")) || (rc = check_same_shape(&c, self, "self", out, "out", "")) ||
        (rc = check_same_dtype(&c, self, "self", out, "out")))
        return rc;
    int64_t last = self->ndims ? self->ndims - 1 : 0;
    if (dim != -1 && dim != last)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: dim is %lld; dvsim's softmax normalises the last axis only "
                           "(dim -1 or %lld)", c.gws, (long long)dim, (long long)last);
    uint64_t rows, cols;
    rows_cols(self, 1, &rows, &cols);
    c.empty = rows * cols == 0;
    call_param(&c, "shape", "%llux%llu", (unsigned long long)rows, (unsigned long long)cols);
    call_param(&c, "dtype", "%s", dv_param_name(dv_acl_dtype_info(self->dtype)->dv));
    call_tensor(&c, self, "self", "x", true);
    call_tensor(&c, out, "out", "y", false);
    return exec_build(&c, workspaceSize, executor);
}

aclnnStatus aclnnSoftmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)
{
    DV_ACL_LOCKED();
    return exec_run("aclnnSoftmax", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor *input, const aclIntArray *normalizedShape,
                                           const aclTensor *weightOptional, const aclTensor *biasOptional, double eps,
                                           aclTensor *out, aclTensor *meanOutOptional, aclTensor *rstdOutOptional,
                                           uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    nn_call_t c;
    int rc;
    call_init(&c, "aclnnLayerNorm", "aclnnLayerNormGetWorkspaceSize", "layernorm", "LayerNormV4");
    if ((rc = call_start(&c, workspaceSize, executor)) || (rc = get_tensor(&c, input, "input")))
        return rc;
    if (!normalizedShape)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: normalizedShape is NULL", c.gws);
    if (!dv_acl_handle_is(normalizedShape, DV_ACL_MAGIC_INT_ARRAY))
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: normalizedShape is not a live aclIntArray", c.gws);
    if ((rc = get_tensor(&c, out, "out")) || (meanOutOptional && (rc = get_tensor(&c, meanOutOptional, "meanOut"))) ||
        (rstdOutOptional && (rc = get_tensor(&c, rstdOutOptional, "rstdOut"))))
        return rc;
    if (!weightOptional || !biasOptional)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is NULL: layer norm without %s is not supported by dvsim "
                           "(pass a tensor of %s)", c.gws, !weightOptional ? "weight" : "bias",
                           !weightOptional ? "a weight" : "a bias", !weightOptional ? "ones" : "zeros");
    if ((rc = get_tensor(&c, weightOptional, "weight")) || (rc = get_tensor(&c, biasOptional, "bias")))
        return rc;
    if ((rc = check_dtype(&c, input, "input", "dtype")) || (rc = check_plain(&c, input, "input")) ||
        (rc = check_plain(&c, out, "out")) || (rc = check_same_shape(&c, input, "input", out, "out", "")) ||
        (rc = check_same_dtype(&c, input, "input", out, "out")))
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
    if ((rc = check_vector(&c, weightOptional, "weight", cols, "the normalised elements", input, "input")) ||
        (rc = check_vector(&c, biasOptional, "bias", cols, "the normalised elements", input, "input")))
        return rc;
    aclTensor *stats[2] = {meanOutOptional, rstdOutOptional};
    static const char *const stat_what[2] = {"meanOut", "rstdOut"};
    for (int i = 0; i < 2; i++) {
        if (!stats[i])
            continue;
        if ((rc = check_vector(&c, stats[i], stat_what[i], rows, "one per normalised row", NULL, NULL)))
            return rc;
        if (stats[i]->dtype != ACL_FLOAT)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s; dvsim gives the statistics in ACL_FLOAT",
                               c.gws, stat_what[i], dtype_name(stats[i]->dtype));
    }
    c.empty = rows * cols == 0;
    call_param(&c, "shape", "%llux%llu", (unsigned long long)rows, (unsigned long long)cols);
    call_param(&c, "dtype", "%s", dv_param_name(dv_acl_dtype_info(input->dtype)->dv));
    if ((rc = float_param(&c, "eps", eps, 1e-5, "eps")))
        return rc;
    if (meanOutOptional || rstdOutOptional) {
        const dv_opdesc_t *op = dv_ops_find(c.op);
        if (!op || dv_ops_param_index(op, "stats") < 0)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s is not supported by this dvsim build (its layernorm "
                               "has no --stats): pass NULL", c.gws, meanOutOptional ? "meanOut" : "rstdOut");
        call_param(&c, "stats", "on");
    }
    call_tensor(&c, input, "input", "x", true);
    call_tensor(&c, weightOptional, "weight", "gamma", true);
    call_tensor(&c, biasOptional, "bias", "beta", true);
    call_tensor(&c, out, "out", "y", false);
    if (meanOutOptional)
        call_tensor(&c, meanOutOptional, "meanOut", "mean", false);
    if (rstdOutOptional)
        call_tensor(&c, rstdOutOptional, "rstdOut", "rstd", false);
    return exec_build(&c, workspaceSize, executor);
}

aclnnStatus aclnnLayerNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)
{
    DV_ACL_LOCKED();
    return exec_run("aclnnLayerNorm", workspace, workspaceSize, executor, stream);
}

/* ---------------------------------------------------------------- batch norm */

aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor *input, const aclTensor *weight, const aclTensor *bias,
                                           aclTensor *runningMean, aclTensor *runningVar, bool training,
                                           double momentum, double eps, aclTensor *output, aclTensor *saveMean,
                                           aclTensor *saveInvstd, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    nn_call_t c;
    int rc;
    (void)momentum;
    (void)saveMean;
    (void)saveInvstd;
    call_init(&c, "aclnnBatchNorm", "aclnnBatchNormGetWorkspaceSize", "batchnorm", "BatchNormV3");
    if ((rc = call_start(&c, workspaceSize, executor)) || (rc = get_tensor(&c, input, "input")) ||
        (rc = get_tensor(&c, output, "output")))
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
        if ((rc = get_tensor(&c, par[i], par_what[i])))
            return rc;
    }
    if ((rc = check_dtype(&c, input, "input", "dtype")) || (rc = check_nchw(&c, input, "input")) ||
        (rc = check_nchw(&c, output, "output")) || (rc = check_same_shape(&c, input, "input", output, "output", "")) ||
        (rc = check_same_dtype(&c, input, "input", output, "output")))
        return rc;
    for (int i = 0; i < 4; i++)
        if ((rc = check_vector(&c, par[i], par_what[i], (uint64_t)input->dims[1], "one per channel C", input,
                               "input")))
            return rc;
    c.empty = dv_acl_tensor_elems(input) == 0;
    call_param(&c, "shape", "%lldx%lldx%lldx%lld", (long long)input->dims[0], (long long)input->dims[1],
               (long long)input->dims[2], (long long)input->dims[3]);
    call_param(&c, "dtype", "%s", dv_param_name(dv_acl_dtype_info(input->dtype)->dv));
    if ((rc = float_param(&c, "eps", eps, 1e-5, "eps")))
        return rc;
    call_tensor(&c, input, "input", "x", true);
    for (int i = 0; i < 4; i++)
        call_tensor(&c, par[i], par_what[i], par_arg[i], true);
    call_tensor(&c, output, "output", "y", false);
    return exec_build(&c, workspaceSize, executor);
}

aclnnStatus aclnnBatchNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)
{
    DV_ACL_LOCKED();
    return exec_run("aclnnBatchNorm", workspace, workspaceSize, executor, stream);
}

/* ---------------------------------------------------------------- matmul */

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out,
                                        int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    nn_call_t c;
    int rc;
    call_init(&c, "aclnnMatmul", "aclnnMatmulGetWorkspaceSize", "matmul", "MatMulV3");
    if ((rc = call_start(&c, workspaceSize, executor)) || (rc = get_tensor(&c, self, "self")) ||
        (rc = get_tensor(&c, mat2, "mat2")) || (rc = get_tensor(&c, out, "out")))
        return rc;
    if ((rc = check_cube_math(&c, cubeMathType)))
        return rc;
    const aclTensor *ts[3] = {self, mat2, out};
    static const char *const tw[3] = {"self", "mat2", "out"};
    for (int i = 0; i < 3; i++) {
        if ((rc = check_plain(&c, ts[i], tw[i])))
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
    if ((rc = check_dtype(&c, self, "self", "dtype")) || (rc = check_same_dtype(&c, self, "self", mat2, "mat2")) ||
        (rc = check_dtype(&c, out, "out", "out-dtype")))
        return rc;
    if (K == 0 && M * N != 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: K is 0 (an all-zero result): not supported by dvsim", c.gws);
    /* B as the cube reads it: [K,N] row-major, or [N,K] row-major (--b-transposed).  A mat2 stored
     * column-major (the transposed view of an [N,K] tensor) is the second without any reordering;
     * fp32 and int8 need the second, so other layouts are staged transposed. */
    const unsigned isz = dv_acl_dtype_info(self->dtype)->size;
    const bool colmajor = mat2->strides[0] == 1 && mat2->strides[1] == K && K > 1;
    const bool bt = colmajor || isz != 2;
    c.empty = M * N == 0;
    call_param(&c, "m", "%lld", (long long)M);
    call_param(&c, "n", "%lld", (long long)N);
    call_param(&c, "k", "%lld", (long long)K);
    call_param(&c, "dtype", "%s", dv_param_name(dv_acl_dtype_info(self->dtype)->dv));
    call_param(&c, "out-dtype", "%s", dv_param_name(dv_acl_dtype_info(out->dtype)->dv));
    call_param(&c, "b-transposed", "%s", bt ? "on" : "off");
    call_tensor(&c, self, "self", "a", true);
    call_tensor(&c, mat2, "mat2", "b", true);
    c.t[c.ntensors - 1].transpose = bt;
    call_tensor(&c, out, "out", "c", false);
    return exec_build(&c, workspaceSize, executor);
}

aclnnStatus aclnnMatmul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)
{
    DV_ACL_LOCKED();
    return exec_run("aclnnMatmul", workspace, workspaceSize, executor, stream);
}

/* ---------------------------------------------------------------- convolution */

aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor *input, const aclTensor *weight, const aclTensor *bias,
                                             const aclIntArray *stride, const aclIntArray *padding,
                                             const aclIntArray *dilation, bool transposed,
                                             const aclIntArray *outputPadding, const int64_t groups, aclTensor *output,
                                             int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    DV_ACL_LOCKED();
    nn_call_t c;
    int rc;
    int64_t s, p, d;
    (void)outputPadding; /* only meaningful for a transposed convolution */
    call_init(&c, "aclnnConvolution", "aclnnConvolutionGetWorkspaceSize", "conv2d", "Conv2D");
    if ((rc = call_start(&c, workspaceSize, executor)) || (rc = get_tensor(&c, input, "input")) ||
        (rc = get_tensor(&c, weight, "weight")) || (rc = get_tensor(&c, output, "output")))
        return rc;
    if ((rc = uniform_array(&c, stride, "stride", 2, &s)) || (rc = uniform_array(&c, padding, "padding", 4, &p)) ||
        (rc = uniform_array(&c, dilation, "dilation", 2, &d)))
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
    if ((rc = check_cube_math(&c, cubeMathType)) || (rc = check_dtype(&c, input, "input", "dtype")) ||
        (rc = check_nchw(&c, input, "input")) || (rc = check_nchw(&c, weight, "weight")) ||
        (rc = check_nchw(&c, output, "output")) || (rc = check_same_dtype(&c, input, "input", weight, "weight")) ||
        (rc = check_same_dtype(&c, input, "input", output, "output")))
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
    call_param(&c, "n", "%lld", (long long)x[0]);
    call_param(&c, "cin", "%lld", (long long)x[1]);
    call_param(&c, "h", "%lld", (long long)x[2]);
    call_param(&c, "w", "%lld", (long long)x[3]);
    call_param(&c, "cout", "%lld", (long long)w[0]);
    call_param(&c, "kh", "%lld", (long long)w[2]);
    call_param(&c, "kw", "%lld", (long long)w[3]);
    call_param(&c, "stride", "%lld", (long long)s);
    call_param(&c, "pad", "%lld", (long long)p);
    call_param(&c, "dilation", "%lld", (long long)d);
    call_param(&c, "dtype", "%s", dv_param_name(dv_acl_dtype_info(input->dtype)->dv));
    call_tensor(&c, input, "input", "x", true);
    call_tensor(&c, weight, "weight", "w", true);
    call_tensor(&c, output, "output", "y", false);
    return exec_build(&c, workspaceSize, executor);
}

aclnnStatus aclnnConvolution(void *workspace, const uint64_t workspaceSize, aclOpExecutor *executor,
                             aclrtStream stream)
{
    DV_ACL_LOCKED();
    return exec_run("aclnnConvolution", workspace, workspaceSize, executor, stream);
}
