/* acl/nncall.c - one aclnn operator call, the part every operator shares (acl/nnops.c describes the
 * two phases): the parameters and tensors a first phase collects, the checks of shapes, dtypes and
 * formats that report 161001 / 161002 naming the tensor, and the executor: planned from the library
 * operator, bound to the tensors' views and the workspace, launched on a stream by the second phase. */
#include "nn.h"

#include "dv/intmath.h"
#include "dv/sim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- one operator call */

void dv_nn_call_init(dv_nn_call_t *c, const char *api, const char *gws, const char *op, const char *op_type)
{
    memset(c, 0, sizeof *c);
    c->api = api;
    c->gws = gws;
    c->op = op;
    c->op_type = op_type;
}

/* Add "--name value" to the library parameters. */
void dv_nn_call_param(dv_nn_call_t *c, const char *name, const char *fmt, ...)
{
    if (c->argc + 2 > DV_NN_MAX_ARGV)
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

void dv_nn_call_tensor(dv_nn_call_t *c, const aclTensor *t, const char *what, const char *arg, bool input)
{
    if (c->ntensors < DV_ACL_MAX_XTENSORS)
        c->t[c->ntensors++] = (dv_nn_tensor_t){t, what, arg, input, false, false, 0, 0};
}

void dv_nn_call_ws_tensor(dv_nn_call_t *c, const aclTensor *shape, const char *what, const char *arg,
                          uint64_t ws_at)
{
    if (c->ntensors < DV_ACL_MAX_XTENSORS)
        c->t[c->ntensors++] = (dv_nn_tensor_t){shape, what, arg, true, false, true, ws_at, 0};
}

/* ---------------------------------------------------------------- checks */

int dv_nn_get_tensor(const dv_nn_call_t *c, const aclTensor *t, const char *what)
{
    int rc;
    dv_acl_tensor_get(t, c->gws, what, &rc);
    return rc;
}

const char *dv_nn_dtype_name(aclDataType t)
{
    const dv_acl_dtype_info_t *d = dv_acl_dtype_info(t);
    return d ? d->name : "an unknown dtype";
}

const char *dv_nn_param_dtype_name(int dv)
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

int dv_nn_check_dtype(const dv_nn_call_t *c, const aclTensor *t, const char *what, const char *param)
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
                       dv_nn_dtype_name(t->dtype), c->op, list);
}

int dv_nn_check_same_dtype(const dv_nn_call_t *c, const aclTensor *a, const char *wa, const aclTensor *b,
                           const char *wb)
{
    if (a->dtype == b->dtype)
        return ACLNN_SUCCESS;
    return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s but %s has %s; they must be the same", c->gws, wb,
                       dv_nn_dtype_name(b->dtype), wa, dv_nn_dtype_name(a->dtype));
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

int dv_nn_check_same_shape(const dv_nn_call_t *c, const aclTensor *a, const char *wa, const aclTensor *b,
                           const char *wb, const char *why)
{
    if (same_dims(a, b))
        return ACLNN_SUCCESS;
    char sa[128], sb[128];
    dv_acl_dims_str(a, sa, sizeof sa);
    dv_acl_dims_str(b, sb, sizeof sb);
    return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape [%s] but %s has [%s]%s", c->gws, wb, sb, wa, sa,
                       why);
}

int dv_nn_check_plain(const dv_nn_call_t *c, const aclTensor *t, const char *what)
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

int dv_nn_check_nchw(const dv_nn_call_t *c, const aclTensor *t, const char *what)
{
    if (t->format != ACL_FORMAT_NCHW && t->format != ACL_FORMAT_ND)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has format %s; dvsim's %s takes FORMAT_NCHW", c->gws, what,
                           dv_acl_format_name(t->format), c->op);
    if (t->ndims != 4)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has %d dimensions; NCHW needs 4", c->gws, what, t->ndims);
    return ACLNN_SUCCESS;
}

int dv_nn_check_vector(const dv_nn_call_t *c, const aclTensor *t, const char *what, uint64_t n, const char *of,
                        const aclTensor *like, const char *like_what)
{
    int rc;
    if ((rc = dv_nn_check_plain(c, t, what)) != ACLNN_SUCCESS)
        return rc;
    if (dv_acl_tensor_elems(t) != n) {
        char s[128];
        dv_acl_dims_str(t, s, sizeof s);
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has shape [%s] (%llu elements); it needs %llu (%s)", c->gws,
                           what, s, (unsigned long long)dv_acl_tensor_elems(t), (unsigned long long)n, of);
    }
    if (like && t->dtype != like->dtype)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID,
                           "%s: %s has dtype %s but %s has %s; dvsim's %s takes them in the "
                           "same dtype",
                           c->gws, what, dv_nn_dtype_name(t->dtype), like_what, dv_nn_dtype_name(like->dtype), c->op);
    return ACLNN_SUCCESS;
}

int dv_nn_float_param(dv_nn_call_t *c, const char *param, double v, double dflt, const char *what)
{
    if (v == dflt)
        return ACLNN_SUCCESS;
    const dv_opdesc_t *op = dv_ops_find(c->op);
    if (!op || dv_ops_param_index(op, param) < 0)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s %.17g is not supported: dvsim's %s only computes with %s "
                           "%g", c->gws, what, v, c->op, what, dflt);
    dv_nn_call_param(c, param, "%.17g", v);
    return ACLNN_SUCCESS;
}

int dv_nn_uniform_array(const dv_nn_call_t *c, const aclIntArray *a, const char *what, uint64_t maxn, int64_t *v)
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

int dv_nn_check_cube_math(const dv_nn_call_t *c, int8_t cubeMathType)
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
    return dv_round_up(bytes, DV_GM_ALIGN);
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

static void exec_prof(aclOpExecutor *e, const dv_nn_call_t *c)
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

/* The view the kernel argument gathers: the tensor's, or for `transpose` the view [..., b, a] of a
 * tensor [..., a, b] (the last two dims and strides swapped), so the staged buffer holds each
 * matrix's transpose row-major. */
static void exec_view(dv_acl_xtensor_t *x, const dv_nn_tensor_t *nt)
{
    const aclTensor *t = nt->t;
    const dv_acl_dtype_info_t *d = dv_acl_dtype_info(t->dtype);
    snprintf(x->arg, sizeof x->arg, "%s", nt->arg);
    x->what = nt->what;
    x->input = nt->input;
    x->ws = nt->ws;
    x->ws_at = nt->ws_at;
    x->pos = nt->pos;
    x->data = t->data;
    x->offset_bytes = t->offset * (int64_t)d->size;
    x->view.dev = t->data + (uint64_t)x->offset_bytes;
    x->view.dtype = t->dtype == ACL_BOOL ? DV_DT_U8 : (dv_dtype_t)d->dv; /* bool: one byte 0 / 1 */
    x->view.ndims = t->ndims;
    for (int i = 0; i < t->ndims; i++) {
        const int nd = t->ndims;
        const int j = !nt->transpose || nd < 2 || i < nd - 2 ? i : 2 * nd - 3 - i;
        x->view.dims[i] = t->dims[j];
        x->view.strides[i] = t->strides[j];
    }
}

/* Parse and plan the library operator of a checked call, bind the tensors to its arguments and
 * size the workspace. */
static int exec_plan(aclOpExecutor *e, const dv_nn_call_t *c)
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

int dv_nn_exec_build(const dv_nn_call_t *c, uint64_t *workspaceSize, aclOpExecutor **executor)
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
static int exec_launch(aclOpExecutor *e, const char *api, void *chain_ws, void *workspace, uint64_t workspaceSize,
                       aclrtStream stream)
{
    dv_op_plan_t plan;
    dv_acl_launch_t l;
    dv_error_t err = {0};
    char what[160];
    int rc;
    if (dv_acl_check_device(api) != ACL_SUCCESS)
        return dv_acl_recode(ACLNN_ERR_RUNTIME_ERROR);
    if (e->empty)
        return ACLNN_SUCCESS;
    /* 1. the tensors: an address, inside an allocation */
    for (int i = 0; i < e->ntensors; i++) {
        const dv_acl_xtensor_t *x = &e->t[i];
        if (x->ws)
            continue; /* written by an earlier kernel of the chain into the workspace */
        if (!x->data)
            return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has no device address (tensorData was NULL and no "
                               "address was set)", api, x->what);
        snprintf(what, sizeof what, "%s: %s", api, x->what);
        if (dv_acl_view_check(&x->view, what) != ACL_SUCCESS)
            return dv_acl_recode(ACLNN_ERR_PARAM_INVALID);
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
        if (x && x->ws) {
            a->dev = (uint64_t)(uintptr_t)chain_ws + x->ws_at;
        } else if (x) {
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
    return dv_acl_recode(rc == ACL_ERROR_INVALID_PARAM ? ACLNN_ERR_PARAM_INVALID : ACLNN_ERR_RUNTIME_ERROR);
}

aclnnStatus dv_nn_exec_run(const char *api, void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                            aclrtStream stream)
{
    int rc;
    if (!dv_acl_executor_get(executor, api, &rc))
        return rc;
    if (strcmp(executor->api, api) != 0)
        rc = dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: the executor was made by %sGetWorkspaceSize", api,
                         executor->api);
    else {
        /* a chain (foreach members, a composite's steps, expands before a broadcasting operator):
         * each in turn, each on its part of the workspace */
        uint64_t off = 0;
        rc = ACLNN_SUCCESS;
        for (aclOpExecutor *m = executor; m && rc == ACLNN_SUCCESS; m = m->next) {
            rc = exec_launch(m, api, workspace, workspace ? (char *)workspace + off : NULL,
                             workspaceSize > off ? workspaceSize - off : 0, stream);
            off += m->workspace;
        }
    }
    if (!executor->repeatable)
        dv_acl_executor_free(executor);
    return rc;
}

int dv_nn_call_start(const dv_nn_call_t *c, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    if (dv_acl_check_device(c->gws) != ACL_SUCCESS)
        return dv_acl_recode(ACLNN_ERR_RUNTIME_ERROR);
    if (!workspaceSize)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: workspaceSize is NULL", c->gws);
    if (!executor)
        return dv_acl_fail(ACLNN_ERR_PARAM_NULLPTR, "%s: executor is NULL", c->gws);
    return ACLNN_SUCCESS;
}

int dv_nn_tensor_element(const char *gws, const struct aclTensor *st, const char *what, uint64_t k, const uint8_t **h)
{
    if (!st->data)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s has no device address", gws, what);
    const unsigned size = dv_acl_dtype_info(st->dtype)->size;
    int64_t off = st->offset;
    for (int d = st->ndims - 1; d >= 0; d--) { /* element k's offset through the strides */
        const uint64_t dim = (uint64_t)st->dims[d];
        off += (int64_t)(k % dim) * st->strides[d];
        k /= dim;
    }
    char msg[160];
    snprintf(msg, sizeof msg, "%s: %s", gws, what);
    uint8_t *p;
    uint64_t avail = 0;
    if (dv_acl_mem_find(st->data + (uint64_t)(off * (int64_t)size), msg, &p, &avail) != ACL_SUCCESS)
        return dv_acl_recode(ACLNN_ERR_PARAM_INVALID);
    if (avail < size)
        return dv_acl_fail(ACLNN_ERR_PARAM_INVALID, "%s: %s ends outside its allocation", gws, what);
    *h = p;
    return ACLNN_SUCCESS;
}
