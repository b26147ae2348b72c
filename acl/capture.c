/* acl/capture.c - stream capture into model runtime instances (aclmdlRI*), as CANN's runtime has
 * it: the tasks a capture records are a tape (stream.c); an aclmdlRI is its handle.  Executing an
 * instance queues its tasks again, so every replayed kernel runs on the model with the GM contents
 * it finds then, and appears in op_summary each time. */
#include <inttypes.h>
#include <stdio.h>

#include "internal.h"

/* The ended tape a handle names, else the error (recorded). */
static int ri_get(aclmdlRI modelRI, const char *api, dv_acl_tape_t **out)
{
    int rc = dv_acl_check_device(api);
    if (rc != ACL_SUCCESS)
        return rc;
    if (!modelRI)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: modelRI is NULL", api);
    if (!dv_acl_handle_is(modelRI, DV_ACL_MAGIC_RI))
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: %p is not a live model instance (destroyed, or not from "
                           "aclmdlRICaptureEnd)", api, modelRI);
    if (dv_acl_tape_capturing(modelRI))
        return dv_acl_fail(ACL_ERROR_RT_MODEL_CAPTURED, "%s: the model instance is still capturing "
                           "(aclmdlRICaptureEnd first)", api);
    *out = modelRI;
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode)
{
    DV_ACL_LOCKED();
    dv_acl_tape_t *tp = NULL;
    int rc = dv_acl_check_device("aclmdlRICaptureBegin");
    if (rc != ACL_SUCCESS)
        return rc;
    if ((unsigned)mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureBegin: mode %d is not an aclmdlRICaptureMode",
                           (int)mode);
    return dv_acl_tape_begin(stream, mode, "aclmdlRICaptureBegin", &tp);
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status, aclmdlRI *modelRI)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_device("aclmdlRICaptureGetInfo");
    if (rc == ACL_SUCCESS && (!status || !modelRI))
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureGetInfo: status or modelRI is NULL");
    if (rc != ACL_SUCCESS)
        return rc;
    dv_acl_tape_t *tp = dv_acl_tape_of(stream, "aclmdlRICaptureGetInfo", &rc);
    if (rc != ACL_SUCCESS)
        return rc;
    *status = tp ? ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE : ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    *modelRI = tp;
    return ACL_SUCCESS;
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI)
{
    DV_ACL_LOCKED();
    dv_acl_tape_t *tp = NULL;
    int rc = dv_acl_check_device("aclmdlRICaptureEnd");
    if (rc == ACL_SUCCESS && !modelRI)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclmdlRICaptureEnd: modelRI is NULL");
    if (rc == ACL_SUCCESS)
        rc = dv_acl_tape_end(stream, "aclmdlRICaptureEnd", &tp);
    if (rc == ACL_SUCCESS)
        *modelRI = tp;
    return rc;
}

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream)
{
    DV_ACL_LOCKED();
    dv_acl_tape_t *tp = NULL;
    int rc = ri_get(modelRI, "aclmdlRIExecuteAsync", &tp);
    return rc == ACL_SUCCESS ? dv_acl_tape_replay(tp, stream, "aclmdlRIExecuteAsync") : rc;
}

aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout)
{
    DV_ACL_LOCKED();
    dv_acl_tape_t *tp = NULL;
    int rc = ri_get(modelRI, "aclmdlRIExecute", &tp);
    if (rc == ACL_SUCCESS && timeout < -1)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIExecute: timeout %d ms is below -1", (int)timeout);
    if (rc == ACL_SUCCESS)
        rc = dv_acl_capture_forbids("aclmdlRIExecute");
    if (rc == ACL_SUCCESS) /* on the default stream, then wait; simulated work always completes */
        rc = dv_acl_tape_replay(tp, NULL, "aclmdlRIExecute");
    return rc == ACL_SUCCESS ? dv_acl_sync() : rc;
}

aclError aclmdlRIDestroy(aclmdlRI modelRI)
{
    DV_ACL_LOCKED();
    dv_acl_tape_t *tp = NULL;
    int rc = ri_get(modelRI, "aclmdlRIDestroy", &tp);
    if (rc != ACL_SUCCESS)
        return rc;
    /* replays of it may be queued: they run first (dv_acl_tape_free), and a host callback of theirs
     * may destroy it meanwhile */
    dv_acl_drain();
    if ((rc = ri_get(modelRI, "aclmdlRIDestroy", &tp)) != ACL_SUCCESS)
        return dv_acl_fail(rc, "aclmdlRIDestroy: %p was destroyed by a host callback while the queued work ran",
                           modelRI);
    dv_acl_tape_free(tp);
    return ACL_SUCCESS;
}

/* ---------------------------------------------------------------- aclmdlRIDebugJsonPrint */

typedef struct json_ctx {
    FILE *f;
    bool verbose;
} json_ctx_t;

static const char *copy_kind(const dv_acl_copy_t *c)
{
    static const char *const names[] = {"HOST_TO_HOST", "HOST_TO_DEVICE", "DEVICE_TO_HOST", "DEVICE_TO_DEVICE"};
    return (unsigned)c->kind < 4 ? names[c->kind] : "UNKNOWN";
}

static void json_task(void *ctx, const dv_acl_tape_item_t *it)
{
    json_ctx_t *j = ctx;
    fprintf(j->f, "%s\n    {\"task_id\": %u, \"stream_id\": %u, \"task_type\": \"%s\"", it->index ? "," : "",
            it->index, it->stream_id, it->kind);
    if (it->launch) {
        const dv_acl_launch_t *l = it->launch;
        fprintf(j->f, ", \"kernel\": \"%s\", \"block_dim\": %u", l->kernel->info.name, l->kernel->info.blocks);
        if (j->verbose) {
            fprintf(j->f, ", \"args\": [");
            for (uint32_t a = 0; a < l->nargs; a++)
                fprintf(j->f, "%s{\"addr\": \"0x%" PRIx64 "\", \"bytes\": %" PRIu64 "}", a ? ", " : "",
                        l->arg[a].staged ? l->arg[a].view.dev : l->arg[a].dev, l->arg[a].bytes);
            fprintf(j->f, "]");
        }
    }
    if (it->copy)
        fprintf(j->f, ", \"kind\": \"%s\", \"bytes\": %" PRIu64, it->copy->memset ? "MEMSET" : copy_kind(it->copy),
                it->copy->bytes);
    if (it->event)
        fprintf(j->f, ", \"event_id\": %u", it->event);
    fprintf(j->f, "}");
}

aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags)
{
    DV_ACL_LOCKED();
    dv_acl_tape_t *tp = NULL;
    int rc = ri_get(modelRI, "aclmdlRIDebugJsonPrint", &tp);
    if (rc == ACL_SUCCESS && !path)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclmdlRIDebugJsonPrint: path is NULL");
    if (rc == ACL_SUCCESS && flags > ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE)
        rc = dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                         "aclmdlRIDebugJsonPrint: flags 0x%x is not SUMMARY (0) or VERBOSE (1)", flags);
    if (rc != ACL_SUCCESS)
        return rc;
    json_ctx_t j = {fopen(path, "w"), flags == ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE};
    if (!j.f)
        return dv_acl_fail(ACL_ERROR_RT_FILE_OPEN, "aclmdlRIDebugJsonPrint: cannot open '%s' for writing", path);
    fprintf(j.f, "{\n  \"model_ri\": \"%p\",\n  \"tasks\": [", modelRI);
    dv_acl_tape_visit(tp, json_task, &j);
    fprintf(j.f, "\n  ]\n}\n");
    if (fclose(j.f) != 0)
        return dv_acl_fail(ACL_ERROR_RT_FILE_WRITE, "aclmdlRIDebugJsonPrint: cannot write '%s'", path);
    return ACL_SUCCESS;
}
