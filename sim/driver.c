/* sim/driver.c - the one driver: profile -> kernel (a trace, or an operator's C kernel) -> GM
 * arguments -> model -> check -> report. */
#include "dv/sim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dv/file.h"
#include "dv/intmath.h"
#include "dv/kapi.h"
#include "dv/model.h"
#include "dv/ops.h"
#include "dv/report.h"
#include "dv/semantics.h"
#include "dv/timeline.h"
#include "dv/trace.h"

void dv_sim_opts_default(dv_sim_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->data = true;
    o->hazards = true;
    o->max_hazards = DV_MAX_HAZARDS_DEFAULT;
    o->series = true;
}

/* ---------------------------------------------------------------- step 1: profile */

int dv_sim_profile(const dv_profile_op_t *ops, int nops, dv_config_t *cfg, dv_error_t *err)
{
    int rc = dv_config_preset(cfg, dv_profile_names()[0], err);
    for (int i = 0; i < nops && rc == DV_OK; i++) {
        if (ops[i].kind == DV_PROFILE_PRESET)
            rc = dv_config_preset(cfg, ops[i].arg, err);
        else if (ops[i].kind == DV_PROFILE_FILE)
            rc = dv_config_load_file(cfg, ops[i].arg, err);
    }
    for (int i = 0; i < nops && rc == DV_OK; i++)
        if (ops[i].kind == DV_PROFILE_SET)
            rc = dv_config_set(cfg, ops[i].arg, err);
    return rc == DV_OK ? dv_config_validate(cfg, err) : rc;
}

/* ---------------------------------------------------------------- step 3: GM arguments */

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Floats uniform in [lo, hi) ([-1, 1) when lo == hi); signed integers in [-8, 8]; unsigned
 * integers in [0, 8]. */
static void fill_random(uint8_t *p, uint64_t bytes, dv_dtype_t t, uint64_t seed, double lo, double hi)
{
    uint64_t st = seed;
    if (lo == hi) {
        lo = -1.0;
        hi = 1.0;
    }
    const double span = hi - lo;
    const unsigned size = dv_dtype_size(t) ? dv_dtype_size(t) : 1;
    const uint64_t n = bytes / size;
    /* one loop per type: each element takes one number of the sequence, whatever the type */
#define DV_FILL(expr, T)                                                                                  \
    for (uint64_t i = 0; i < n; i++) {                                                                    \
        const uint64_t x = splitmix64(&st);                                                               \
        const T v = (expr);                                                                               \
        memcpy(p + i * sizeof(T), &v, sizeof(T));                                                         \
    }                                                                                                     \
    break
#define DV_FLOAT ((float)(lo + (double)(x >> 11) * 0x1.0p-53 * span))
    switch (t) {
    case DV_DT_F16: DV_FILL(dv_f32_to_f16(DV_FLOAT), uint16_t);
    case DV_DT_BF16: DV_FILL(dv_f32_to_bf16(DV_FLOAT), uint16_t);
    case DV_DT_F32: DV_FILL(DV_FLOAT, float);
    case DV_DT_S8: DV_FILL((int8_t)((int32_t)(x % 17) - 8), int8_t);
    case DV_DT_U8: DV_FILL((uint8_t)(x % 9), uint8_t);
    case DV_DT_S16: DV_FILL((int16_t)((int32_t)(x % 17) - 8), int16_t);
    case DV_DT_U16: DV_FILL((uint16_t)(x % 9), uint16_t);
    case DV_DT_S32: DV_FILL((int32_t)(x % 17) - 8, int32_t);
    default: DV_FILL((uint32_t)(x % 9), uint32_t);
    }
#undef DV_FLOAT
#undef DV_FILL
}

void dv_sim_fill_random(uint8_t *p, uint64_t bytes, dv_dtype_t t, uint64_t seed, double lo, double hi)
{
    fill_random(p, bytes, t, seed, lo, hi);
}

/* A relative init file is found next to the trace. */
static void resolve_path(const char *trace, const char *path, char *buf, size_t cap)
{
    const char *slash = strrchr(trace, '/');
    if (path[0] == '/' || !slash)
        snprintf(buf, cap, "%s", path);
    else
        snprintf(buf, cap, "%.*s/%s", (int)(slash - trace), trace, path);
}

static int fill_file(uint8_t *p, const dv_arg_t *a, const char *trace, dv_error_t *err)
{
    char path[1024];
    int rc = DV_OK;
    resolve_path(trace, a->path, path, sizeof path);
    dv_error_t open_err;
    FILE *f;
    if (dv_open_regular(path, NULL, &f, &open_err) != DV_OK)
        return dv_error_set(err, open_err.code, trace, (int)a->line, 0, "argument '%s': cannot read '%s': %s", a->name,
                            path, dv_open_reason(&open_err));
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size < 0 || (uint64_t)size != a->bytes) {
        rc = dv_error_set(err, DV_ERR_RANGE, trace, (int)a->line, 0, "argument '%s': file '%s' has %ld bytes, the argument has %llu",
                          a->name, path, size, (unsigned long long)a->bytes);
        goto cleanup;
    }
    rewind(f);
    if (fread(p, 1, a->bytes, f) != a->bytes)
        rc = dv_error_set(err, DV_ERR_IO, trace, (int)a->line, 0, "argument '%s': reading '%s' failed", a->name, path);
cleanup:
    fclose(f);
    return rc;
}

void dv_sim_gm_free(dv_gm_t *gm)
{
    for (uint32_t i = 0; gm->data && i < gm->nargs; i++)
        free(gm->data[i]);
    free(gm->data);
    free(gm->bytes);
    free(gm->addr);
    memset(gm, 0, sizeof *gm);
}

static int arg_find(const dv_kernel_info_t *info, const char *name)
{
    for (uint32_t i = 0; i < info->nargs; i++)
        if (strcmp(info->args[i].name, name) == 0)
            return (int)i;
    return -1;
}

int dv_sim_gm_setup(const dv_config_t *cfg, const dv_kernel_info_t *info, bool data, const char *trace,
                    uint64_t base, dv_gm_t *gm, dv_error_t *err)
{
    uint32_t n = info->nargs;
    memset(gm, 0, sizeof *gm);
    gm->nargs = n;
    gm->data = calloc(n ? n : 1, sizeof *gm->data);
    gm->bytes = calloc(n ? n : 1, sizeof *gm->bytes);
    gm->addr = calloc(n ? n : 1, sizeof *gm->addr);
    if (!gm->data || !gm->bytes || !gm->addr)
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory for the GM arguments");
    uint64_t next = base;
    for (uint32_t i = 0; i < n; i++) {
        const dv_arg_t *a = &info->args[i];
        gm->bytes[i] = a->bytes;
        gm->addr[i] = next;
        uint64_t end = next + a->bytes;
        if (a->bytes > cfg->hbm_capacity_bytes || end - base > cfg->hbm_capacity_bytes)
            return dv_error_set(err, DV_ERR_RANGE, trace, (int)a->line, 0,
                                "argument '%s' (%llu bytes) does not fit in device memory: the arguments need %llu "
                                "bytes, hbm.capacity_bytes is %llu",
                                a->name, (unsigned long long)a->bytes, (unsigned long long)(end - base),
                                (unsigned long long)cfg->hbm_capacity_bytes);
        next = dv_round_up(end, DV_GM_ALIGN);
    }
    for (uint32_t i = 0; data && i < n; i++) {
        const dv_arg_t *a = &info->args[i];
        if (a->bytes > SIZE_MAX || !(gm->data[i] = calloc(a->bytes ? a->bytes : 1, 1)))
            return dv_error_set(err, DV_ERR_NOMEM, trace, (int)a->line, 0,
                                "argument '%s': cannot allocate %llu bytes on the host (try --no-data)", a->name,
                                (unsigned long long)a->bytes);
        if (a->init == DV_INIT_RANDOM)
            fill_random(gm->data[i], a->bytes, a->dtype, a->seed, a->lo, a->hi);
        else if (a->init == DV_INIT_FILE) {
            int rc = fill_file(gm->data[i], a, trace, err);
            if (rc != DV_OK)
                return rc;
        }
    }
    return DV_OK;
}

/* The host-memory budget of a run (--host-memory; 0: this machine's physical memory). */
static uint64_t host_budget(uint64_t asked)
{
    if (asked)
        return asked;
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
}

/* With data every GM argument is a host buffer (and --check keeps a second copy of each output):
 * refuse up front what the budget cannot hold.  Local buffers and the L2's arrays take pages only
 * as they are touched (model/Buffer.cpp, model/Zeros.h), so the arguments are the estimate. */
static int host_memory_check(const dv_sim_opts_t *o, const dv_kernel_info_t *info, dv_error_t *err)
{
    uint64_t need = 0;
    for (uint32_t i = 0; o->data && i < info->nargs; i++)
        need += info->args[i].bytes * (o->check && info->args[i].dir != DV_ARG_IN ? 2 : 1);
    const uint64_t budget = host_budget(o->host_memory);
    if (need > budget)
        return dv_error_set(err, DV_ERR_RANGE, o->op ? NULL : o->trace, 0, 0,
                            "a run with data holds the GM arguments in host memory: %llu bytes, more than %s %llu "
                            "(run timing only with --no-data, make them smaller, or raise --host-memory)",
                            (unsigned long long)need, o->host_memory ? "--host-memory" : "this machine's",
                            (unsigned long long)budget);
    return DV_OK;
}

/* ---------------------------------------------------------------- steps 6 and 7: outputs */

int dv_sim_stdout_outputs(const dv_sim_opts_t *o)
{
    int n = (o->json && !strcmp(o->json, "-")) + (o->timeline && !strcmp(o->timeline, "-")) +
            (o->instr_csv && !strcmp(o->instr_csv, "-"));
    for (int i = 0; i < o->ndumps; i++)
        n += !strcmp(o->dumps[i].path, "-");
    return n;
}

typedef struct outputs {
    dv_out_t json;
    dv_out_t csv; /* --instr-csv */
    dv_out_t *dump;
} outputs_t;

/* Open every output before the run, so a bad path fails before any time is spent (each is written
 * to a temporary and takes its place only when the whole run succeeded: dv_out_t). */
static int outputs_open(const dv_sim_opts_t *o, outputs_t *out, dv_error_t *err)
{
    int rc = DV_OK;
    out->dump = calloc(o->ndumps ? (size_t)o->ndumps : 1, sizeof *out->dump);
    if (!out->dump)
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    if (o->json)
        rc = dv_out_open(&out->json, o->json, "the JSON report", err);
    if (o->instr_csv && rc == DV_OK)
        rc = dv_out_open(&out->csv, o->instr_csv, "the instruction table", err);
    for (int i = 0; i < o->ndumps && rc == DV_OK; i++)
        rc = dv_out_open(&out->dump[i], o->dumps[i].path, "the dump", err);
    return rc;
}

static int outputs_close(const dv_sim_opts_t *o, outputs_t *out, int rc, dv_error_t *err)
{
    rc = dv_out_close(&out->json, rc, err);
    rc = dv_out_close(&out->csv, rc, err);
    for (int i = 0; out->dump && i < o->ndumps; i++)
        rc = dv_out_close(&out->dump[i], rc, err);
    free(out->dump);
    out->dump = NULL;
    return rc;
}

/* A failed write of an output, located at its path. */
static int write_failed(const dv_out_t *f, dv_error_t *err)
{
    return dv_error_set(err, DV_ERR_IO, f->path, 0, 0, "writing %s failed: %s", f->what,
                        errno ? strerror(errno) : "write error");
}

static int report_write(const dv_sim_result_t *res, const dv_sim_opts_t *o, outputs_t *out, dv_error_t *err)
{
    dv_report_t rep;
    int rc = dv_report_derive(&rep, &res->cfg, &res->kernel->info, &res->cnt, err);
    if (rc != DV_OK)
        return rc;
    if (res->op)
        dv_report_set_op(&rep, &res->op_report);
    errno = 0;
    if (!o->quiet && dv_sim_stdout_outputs(o) == 0 && dv_report_print(&rep, stdout) != DV_OK)
        rc = dv_error_set(err, DV_ERR_IO, NULL, 0, 0, "writing the report to stdout failed: %s",
                          errno ? strerror(errno) : "write error");
    if (rc == DV_OK && out->json.f && dv_report_write_json(&rep, out->json.f) != DV_OK)
        rc = write_failed(&out->json, err);
    if (rc == DV_OK && out->csv.f && dv_report_write_instr_csv(&rep, out->csv.f) != DV_OK)
        rc = write_failed(&out->csv, err);
    dv_report_free(&rep);
    return rc;
}

static int dumps_write(const dv_kernel_info_t *info, const dv_gm_t *gm, const dv_sim_opts_t *o, outputs_t *out,
                       dv_error_t *err)
{
    for (int i = 0; i < o->ndumps; i++) {
        int a = arg_find(info, o->dumps[i].arg);
        errno = 0;
        if (fwrite(gm->data[a], 1, gm->bytes[a], out->dump[i].f) != gm->bytes[a])
            return write_failed(&out->dump[i], err);
    }
    return DV_OK;
}

/* ---------------------------------------------------------------- step 2: the kernel */

/* An operator's kernel: parameters -> plan (tiling, arguments) -> C kernel. */
static int op_open(const dv_sim_opts_t *o, dv_sim_result_t *res, dv_error_t *err)
{
    dv_opvals_t vals;
    int rc;
    if (!(res->op = dv_ops_find(o->op)))
        return dv_error_set(err, DV_ERR_UNKNOWN, NULL, 0, 0, "unknown operator '%s' (dvsim op --list shows them)", o->op);
    if ((rc = dv_ops_parse(res->op, o->op_argc, o->op_argv, &vals, err)) != DV_OK)
        return rc;
    if ((rc = dv_ops_plan(res->op, &res->cfg, &vals, &res->plan, err)) != DV_OK)
        return rc;
    dv_report_op_t *r = &res->op_report;
    snprintf(r->name, sizeof r->name, "%s", res->op->name);
    for (int i = 0; i < res->op->nparams && i < DV_REPORT_MAX_PARAMS; i++) {
        snprintf(r->key[i], sizeof r->key[i], "%s", res->op->params[i].name);
        dv_ops_format_val(&res->op->params[i], &vals.v[i], r->val[i], sizeof r->val[i]);
        r->nparams++;
    }
    for (int i = 0; i < res->plan.ntiling_rows && i < DV_REPORT_MAX_TILING; i++, r->ntiling++) {
        const dv_op_tiling_row_t *row = &res->plan.tiling_rows[i];
        snprintf(r->tiling_key[i], sizeof r->tiling_key[i], "%s", row->key);
        snprintf(r->tiling_val[i], sizeof r->tiling_val[i], "%s", row->val);
        snprintf(r->tiling_why[i], sizeof r->tiling_why[i], "%s", row->why);
    }
    r->flops = res->plan.flops;
    r->bytes = res->plan.bytes;
    return dv_ops_kernel(res->op, &res->cfg, &res->plan, &res->kernel, err);
}

static void kernel_close(dv_sim_result_t *res)
{
    if (res->kernel && res->op)
        dvk_kernel_destroy(res->kernel);
    else if (res->kernel)
        dv_trace_close(res->kernel);
    res->kernel = NULL;
}

/* ---------------------------------------------------------------- step 5: check */

/* The expected outputs, computed by the operator's reference from the initial inputs. */
static int expect_compute(const dv_sim_result_t *res, uint8_t ***expect, dv_error_t *err)
{
    const dv_op_plan_t *plan = &res->plan;
    uint32_t n = plan->info.nargs;
    uint8_t **e = calloc(n ? n : 1, sizeof *e);
    const uint8_t **in = calloc(n ? n : 1, sizeof *in);
    int rc = DV_OK;
    *expect = e;
    if (!e || !in) {
        free(in);
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory for the reference");
    }
    for (uint32_t i = 0; i < n && rc == DV_OK; i++) {
        in[i] = plan->args[i].dir == DV_ARG_OUT ? NULL : res->gm.data[i];
        if (plan->args[i].dir != DV_ARG_IN && !(e[i] = calloc(plan->args[i].bytes ? plan->args[i].bytes : 1, 1)))
            rc = dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory for the reference");
    }
    if (rc == DV_OK)
        rc = res->op->reference(plan, in, e, err);
    free((void *)in);
    return rc;
}

static void expect_free(uint8_t **e, uint32_t n)
{
    for (uint32_t i = 0; e && i < n; i++)
        free(e[i]);
    free(e);
}

static void check_outputs(dv_sim_result_t *res, uint8_t **expect)
{
    const dv_op_plan_t *plan = &res->plan;
    dv_check_result_t *c = &res->check;
    for (uint32_t i = 0; i < plan->info.nargs; i++) {
        if (!expect[i])
            continue;
        uint64_t before = c->mismatches;
        dv_ops_compare(plan->args[i].dtype, plan->elems[i], res->gm.data[i], expect[i], plan->tol_scale, c);
        if (before == 0 && c->mismatches)
            snprintf(c->arg, sizeof c->arg, "%s", plan->args[i].name);
    }
    res->op_report.checked = true;
    res->op_report.compared = c->compared;
    res->op_report.mismatches = c->mismatches;
    res->op_report.max_abs_err = c->max_abs_err;
    res->op_report.max_rel_err = c->max_rel_err;
}

/* ---------------------------------------------------------------- the driver */

int dv_sim_execute(const dv_sim_opts_t *o, dv_sim_result_t *res, dv_error_t *err)
{
    const char *source = o->op ? o->op : o->trace;
    dv_run_opts_t ro;
    dv_timeline_t *tl = NULL;
    dv_out_t tlo = {0};
    dv_model_t *model = NULL;
    uint8_t **expect = NULL;
    int rc;
    memset(res, 0, sizeof *res);

    /* 1. profile: default preset, --profile / --config, --set, validate */
    if ((rc = dv_sim_profile(o->profile_ops, o->nprofile_ops, &res->cfg, err)) != DV_OK)
        goto cleanup;
    /* 2. kernel: a trace's header now and its instructions lazily as the model reads them, or an
     *    operator's plan and its C kernel, run block by block as the model reads it */
    if ((rc = o->op ? op_open(o, res, err) : dv_trace_open(o->trace, &res->kernel, err)) != DV_OK)
        goto cleanup;
    if (!o->op && (rc = dv_trace_check_profile(res->kernel, &res->cfg, err)) != DV_OK)
        goto cleanup;
    if (o->record) {
        rc = o->record_binary ? dv_trace_save(res->kernel, o->record, DV_TRACE_BINARY, err)
                              : dvk_kernel_record(res->kernel, o->record, err);
        goto cleanup;
    }
    /* 3. GM arguments: device addresses and initial contents; the reference's expected outputs */
    for (int i = 0; i < o->ndumps; i++)
        if (arg_find(&res->kernel->info, o->dumps[i].arg) < 0) {
            rc = dv_error_set(err, DV_ERR_UNKNOWN, source, 0, 0, "--dump: kernel '%s' has no argument '%s'",
                              res->kernel->info.name, o->dumps[i].arg);
            goto cleanup;
        }
    if (!o->data && (o->ndumps || o->check)) {
        rc = dv_error_set(err, DV_ERR_STATE, NULL, 0, 0, "%s needs data; it cannot be used with --no-data",
                          o->check ? "--check" : "--dump");
        goto cleanup;
    }
    if ((rc = host_memory_check(o, &res->kernel->info, err)) != DV_OK)
        goto cleanup;
    if ((rc = dv_sim_gm_setup(&res->cfg, &res->kernel->info, o->data, o->op ? "" : o->trace, DV_GM_BASE, &res->gm,
                              err)) != DV_OK)
        goto cleanup;
    if (o->check && (rc = expect_compute(res, &expect, err)) != DV_OK)
        goto cleanup;
    /* 4. model: build the chip of the profile, run the kernel on it, streaming the timeline, and
     *    collect the counters */
    dv_run_opts_default(&ro);
    ro.data = o->data;
    ro.hazards = o->hazards;
    ro.warm_up = o->warm_up; /* --warm-up: the model runs the kernel that many times first */
    ro.max_hazards = o->max_hazards;
    ro.series = o->series;
    if (o->timeline) {
        if ((rc = dv_out_open(&tlo, o->timeline, "the timeline", err)) != DV_OK ||
            (rc = dv_timeline_open_stream(&tl, tlo.f, &res->cfg, err)) != DV_OK)
            goto cleanup;
        ro.on_slice = dv_timeline_slice;
        ro.slice_ctx = tl;
    }
    if ((rc = dv_model_create_for(&res->cfg, &res->kernel->info, &model, err)) != DV_OK) /* its cores only */
        goto cleanup;
    if ((rc = dv_model_run(model, res->kernel, &res->gm, &ro, &res->cnt, err)) != DV_OK)
        goto cleanup;
    res->have_cnt = true;
    errno = 0;
    if (dv_timeline_close(tl, NULL) != DV_OK)
        rc = write_failed(&tlo, err);
    tl = NULL;
    rc = dv_out_close(&tlo, rc, err);
    /* 5. check: the outputs against the reference */
    if (rc == DV_OK && o->check)
        check_outputs(res, expect);

cleanup:
    if (tl)
        dv_timeline_close(tl, NULL);
    dv_out_close(&tlo, rc != DV_OK ? rc : DV_ERR_STATE, NULL); /* a run that failed leaves no timeline */
    dv_model_destroy(model);
    expect_free(expect, res->plan.info.nargs);
    return rc;
}

void dv_sim_result_free(dv_sim_result_t *res)
{
    if (res->have_cnt)
        dv_counters_free(&res->cnt);
    res->have_cnt = false;
    dv_sim_gm_free(&res->gm);
    kernel_close(res);
}

int dv_sim_run(const dv_sim_opts_t *o, dv_sim_summary_t *sum, dv_error_t *err)
{
    dv_sim_result_t res;
    outputs_t out = {0};
    int rc;

    memset(&res, 0, sizeof res);
    /* 0. outputs: opened first, so that a bad path fails before the run */
    if (!o->record && (rc = outputs_open(o, &out, err)) != DV_OK)
        goto cleanup;
    /* 1-5. profile, kernel, GM arguments, model, check */
    if ((rc = dv_sim_execute(o, &res, err)) != DV_OK || o->record)
        goto cleanup;
    /* 6. report: derived once from the counters; text to stdout, JSON, the instruction table */
    if ((rc = report_write(&res, o, &out, err)) != DV_OK)
        goto cleanup;
    /* 7. dumps: final bytes of the requested arguments */
    if ((rc = dumps_write(&res.kernel->info, &res.gm, o, &out, err)) != DV_OK)
        goto cleanup;
    if (sum) {
        sum->cycles = res.cnt.cycles;
        sum->instructions = res.cnt.instructions;
        sum->hazards = res.cnt.hazards;
        sum->checked = res.op_report.checked;
        sum->compared = res.check.compared;
        sum->mismatches = res.check.mismatches;
    }

cleanup:
    rc = outputs_close(o, &out, rc, err);
    dv_sim_result_free(&res);
    return rc;
}
