/* acl/graph.c - operator graphs launched fused (dvsim/acl_graph.h): dv_fusion_build gives the
 * fused variant's kernels with what each argument is; a launch binds them to the caller's device
 * buffers and its workspace and queues them like any other kernel (dv_acl_enqueue_launch). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "dv/fusion.h"
#include "dv/graph.h"
#include "dvsim/acl_graph.h"

enum { DV_ACL_MAGIC_GRAPH = 0x7e45a101u };

struct dvsimGraph {
    dv_graph_t g;
    dv_fbuild_t *b;
};

aclError dvsimGraphCreate(const char *path, dvsimGraph **graph, uint64_t *workspaceSize)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("dvsimGraphCreate");
    if (rc != ACL_SUCCESS)
        return rc;
    if (!path || !graph || !workspaceSize)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "dvsimGraphCreate: path, graph or workspaceSize is NULL");
    dvsimGraph *h = calloc(1, sizeof *h);
    if (!h)
        return dv_acl_fail(ACL_ERROR_BAD_ALLOC, "dvsimGraphCreate: out of memory");
    dv_error_t err;
    dv_fusion_study_opts_t o;
    dv_fusion_study_opts_default(&o);
    if (dv_graph_load(path, &h->g, &err) != DV_OK) {
        free(h);
        return dv_acl_fail_err(ACL_ERROR_INVALID_FILE, "dvsimGraphCreate", &err);
    }
    if (dv_fusion_build(&h->g, dv_acl_config(), &o, &h->b, &err) != DV_OK) {
        free(h);
        return dv_acl_fail_err(ACL_ERROR_INVALID_PARAM, "dvsimGraphCreate", &err);
    }
    if ((rc = dv_acl_handle_add(h, DV_ACL_MAGIC_GRAPH)) != ACL_SUCCESS) {
        dv_fusion_build_free(h->b);
        free(h);
        return rc;
    }
    *graph = h;
    *workspaceSize = h->b->workspace_bytes;
    return ACL_SUCCESS;
}

aclError dvsimGraphGetIo(const dvsimGraph *graph, uint32_t *nInputs, uint64_t *inputBytes, uint32_t *nOutputs,
                         uint64_t *outputBytes)
{
    DV_ACL_LOCKED();
    if (!dv_acl_handle_is(graph, DV_ACL_MAGIC_GRAPH))
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "dvsimGraphGetIo: not a graph from dvsimGraphCreate");
    if (nInputs)
        *nInputs = (uint32_t)graph->b->ninputs;
    if (nOutputs)
        *nOutputs = (uint32_t)graph->b->noutputs;
    for (int i = 0; inputBytes && i < graph->b->ninputs; i++)
        inputBytes[i] = graph->b->input_bytes[i];
    for (int i = 0; outputBytes && i < graph->b->noutputs; i++)
        outputBytes[i] = graph->b->output_bytes[i];
    return ACL_SUCCESS;
}

/* A device buffer of at least `bytes`: ACL_SUCCESS or the recorded error naming `what`. */
static int device_buffer(void *p, uint64_t bytes, const char *what, uint8_t **host)
{
    uint64_t avail;
    if (!p)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "dvsimGraphLaunch: %s is NULL", what);
    int rc = dv_acl_mem_find((uint64_t)(uintptr_t)p, what, host, &avail);
    if (rc != ACL_SUCCESS)
        return rc;
    if (avail < bytes)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "dvsimGraphLaunch: %s needs %llu bytes, its allocation has %llu "
                           "from there", what, (unsigned long long)bytes, (unsigned long long)avail);
    return ACL_SUCCESS;
}

static void keep_kernel(dv_kernel_t *k) { (void)k; /* the graph owns its kernels */ }

aclError dvsimGraphLaunch(dvsimGraph *graph, void *const *inputs, uint32_t nInputs, void *const *outputs,
                          uint32_t nOutputs, void *workspace, uint64_t workspaceSize, aclrtStream stream)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("dvsimGraphLaunch");
    if (rc != ACL_SUCCESS)
        return rc;
    if (!dv_acl_handle_is(graph, DV_ACL_MAGIC_GRAPH))
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "dvsimGraphLaunch: not a graph from dvsimGraphCreate");
    const dv_fbuild_t *b = graph->b;
    if (nInputs != (uint32_t)b->ninputs || nOutputs != (uint32_t)b->noutputs || (nInputs && !inputs) ||
        (nOutputs && !outputs))
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "dvsimGraphLaunch: graph '%s' has %d inputs and %d outputs, %u and "
                           "%u were given", graph->g.name, b->ninputs, b->noutputs, nInputs, nOutputs);
    if (workspaceSize < b->workspace_bytes)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "dvsimGraphLaunch: the workspace has %llu bytes, the graph needs "
                           "%llu (dvsimGraphCreate's workspaceSize)", (unsigned long long)workspaceSize,
                           (unsigned long long)b->workspace_bytes);
    char what[96];
    uint8_t *ws_host = NULL;
    for (uint32_t i = 0; i < nInputs; i++) {
        snprintf(what, sizeof what, "input %u", i);
        if ((rc = device_buffer(inputs[i], b->input_bytes[i], what, NULL)) != ACL_SUCCESS)
            return rc;
    }
    for (uint32_t i = 0; i < nOutputs; i++) {
        snprintf(what, sizeof what, "output %u", i);
        if ((rc = device_buffer(outputs[i], b->output_bytes[i], what, NULL)) != ACL_SUCCESS)
            return rc;
    }
    if (b->workspace_bytes && (rc = device_buffer(workspace, b->workspace_bytes, "the workspace", &ws_host)) != ACL_SUCCESS)
        return rc;
    /* the operators' own arguments, as a study initialises them */
    for (int i = 0; i < b->nbufs; i++)
        if (b->buf[i].init && ws_host)
            memcpy(ws_host + b->buf[i].offset, b->buf[i].init, b->buf[i].bytes);
    for (int i = 0; i < b->nlaunches; i++) {
        const dv_flaunch_t *fl = &b->launch[i];
        dv_acl_launch_t l;
        memset(&l, 0, sizeof l);
        if (fl->nargs > DV_ACL_MAX_KARGS)
            return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "dvsimGraphLaunch: kernel '%s' has %u GM arguments, the shim "
                               "takes at most %d", fl->name, fl->nargs, DV_ACL_MAX_KARGS);
        l.kernel = fl->kernel;
        l.kernel_destroy = keep_kernel;
        l.nargs = fl->nargs;
        for (uint32_t a = 0; a < fl->nargs; a++) {
            const dv_fbuf_ref_t *r = &fl->arg[a];
            uint64_t dev;
            if (r->kind == DV_FBUF_INPUT)
                dev = (uint64_t)(uintptr_t)inputs[r->index];
            else if (r->kind == DV_FBUF_OUTPUT)
                dev = (uint64_t)(uintptr_t)outputs[r->index];
            else
                dev = (uint64_t)(uintptr_t)workspace + b->buf[r->index].offset;
            l.arg[a] = (dv_acl_karg_t){.dir = fl->kernel->info.args[a].dir, .dev = dev,
                                       .bytes = fl->kernel->info.args[a].bytes};
        }
        snprintf(l.op_type, sizeof l.op_type, "%s", fl->op);
        snprintf(l.op_name, sizeof l.op_name, "%s", fl->name);
        if ((rc = dv_acl_enqueue_launch(stream, &l)) != ACL_SUCCESS)
            return rc;
    }
    return ACL_SUCCESS;
}

aclError dvsimGraphDestroy(dvsimGraph *graph)
{
    DV_ACL_LOCKED();
    if (!dv_acl_handle_is(graph, DV_ACL_MAGIC_GRAPH))
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "dvsimGraphDestroy: not a graph from dvsimGraphCreate");
    const int rc = dv_acl_drain(); /* its kernels may still be queued */
    if (!dv_acl_handle_is(graph, DV_ACL_MAGIC_GRAPH)) /* a host callback of that work destroyed it */
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "dvsimGraphDestroy: the graph was destroyed by a host callback while the queued work ran");
    dv_acl_handle_del(graph);
    dv_fusion_build_free(graph->b);
    free(graph);
    return rc;
}
