/* sim/driver.c - the one driver: profile -> kernel -> GM arguments -> model -> report. */
#include "dv/sim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dv/model.h"
#include "dv/report.h"
#include "dv/semantics.h"
#include "dv/timeline.h"
#include "dv/trace.h"

void dv_sim_opts_default(dv_sim_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->data = true;
    o->hazards = true;
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

/* Floats uniform in [-1, 1); signed integers in [-8, 8]; unsigned integers in [0, 8]. */
static void fill_random(uint8_t *p, uint64_t bytes, dv_dtype_t t, uint64_t seed)
{
    uint64_t st = seed;
    unsigned size = dv_dtype_size(t) ? dv_dtype_size(t) : 1;
    for (uint64_t off = 0; off + size <= bytes; off += size) {
        uint64_t x = splitmix64(&st);
        float f = (float)((double)(x >> 11) * 0x1.0p-53 * 2.0 - 1.0);
        int32_t s = (int32_t)(x % 17) - 8;
        uint32_t u = (uint32_t)(x % 9);
        uint16_t h;
        switch (t) {
        case DV_DT_F16: h = dv_f32_to_f16(f); memcpy(p + off, &h, 2); break;
        case DV_DT_BF16: h = dv_f32_to_bf16(f); memcpy(p + off, &h, 2); break;
        case DV_DT_F32: memcpy(p + off, &f, 4); break;
        case DV_DT_S8: p[off] = (uint8_t)(int8_t)s; break;
        case DV_DT_U8: p[off] = (uint8_t)u; break;
        case DV_DT_S16: { int16_t v = (int16_t)s; memcpy(p + off, &v, 2); break; }
        case DV_DT_U16: { uint16_t v = (uint16_t)u; memcpy(p + off, &v, 2); break; }
        case DV_DT_S32: memcpy(p + off, &s, 4); break;
        default: memcpy(p + off, &u, 4); break;
        }
    }
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
    FILE *f = fopen(path, "rb");
    if (!f)
        return dv_error_set(err, DV_ERR_IO, trace, 0, 0, "argument '%s': cannot read '%s': %s", a->name, path,
                            strerror(errno));
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size < 0 || (uint64_t)size != a->bytes) {
        rc = dv_error_set(err, DV_ERR_RANGE, trace, 0, 0, "argument '%s': file '%s' has %ld bytes, the argument has %llu",
                          a->name, path, size, (unsigned long long)a->bytes);
        goto cleanup;
    }
    rewind(f);
    if (fread(p, 1, a->bytes, f) != a->bytes)
        rc = dv_error_set(err, DV_ERR_IO, trace, 0, 0, "argument '%s': reading '%s' failed", a->name, path);
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
            return dv_error_set(err, DV_ERR_RANGE, trace, 0, 0,
                                "argument '%s' (%llu bytes) does not fit in device memory: the arguments need %llu "
                                "bytes, hbm.capacity_bytes is %llu",
                                a->name, (unsigned long long)a->bytes, (unsigned long long)(end - base),
                                (unsigned long long)cfg->hbm_capacity_bytes);
        next = (end + DV_GM_ALIGN - 1) / DV_GM_ALIGN * DV_GM_ALIGN;
    }
    for (uint32_t i = 0; data && i < n; i++) {
        const dv_arg_t *a = &info->args[i];
        if (a->bytes > SIZE_MAX || !(gm->data[i] = calloc(a->bytes ? a->bytes : 1, 1)))
            return dv_error_set(err, DV_ERR_NOMEM, trace, 0, 0,
                                "argument '%s': cannot allocate %llu bytes on the host (try --no-data)", a->name,
                                (unsigned long long)a->bytes);
        if (a->init == DV_INIT_RANDOM)
            fill_random(gm->data[i], a->bytes, a->dtype, a->seed);
        else if (a->init == DV_INIT_FILE) {
            int rc = fill_file(gm->data[i], a, trace, err);
            if (rc != DV_OK)
                return rc;
        }
    }
    return DV_OK;
}

/* ---------------------------------------------------------------- steps 5 and 6: outputs */

typedef struct outputs {
    FILE *json;
    FILE **dump;
} outputs_t;

static int open_out(const char *path, FILE **f, dv_error_t *err)
{
    *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
    if (!*f)
        return dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot write: %s", strerror(errno));
    return DV_OK;
}

static int close_out(FILE *f, const char *path, int rc, dv_error_t *err)
{
    if (!f)
        return rc;
    int bad = fflush(f) != 0 || ferror(f);
    if (f != stdout && fclose(f) != 0)
        bad = 1;
    if (bad && rc == DV_OK)
        rc = dv_error_set(err, DV_ERR_IO, path, 0, 0, "write failed: %s", strerror(errno));
    return rc;
}

/* Open every output before writing any, so a bad path fails before a report is printed. */
static int outputs_open(const dv_sim_opts_t *o, outputs_t *out, dv_error_t *err)
{
    int rc = DV_OK;
    out->dump = calloc(o->ndumps ? (size_t)o->ndumps : 1, sizeof *out->dump);
    if (!out->dump)
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    if (o->json)
        rc = open_out(o->json, &out->json, err);
    for (int i = 0; i < o->ndumps && rc == DV_OK; i++)
        rc = open_out(o->dumps[i].path, &out->dump[i], err);
    return rc;
}

static int report_write(const dv_config_t *cfg, const dv_kernel_info_t *info, const dv_counters_t *cnt,
                        const dv_sim_opts_t *o, outputs_t *out, dv_error_t *err)
{
    dv_report_t rep;
    int rc = dv_report_derive(&rep, cfg, info, cnt, err);
    if (rc != DV_OK)
        return rc;
    if (!o->quiet && out->json != stdout)
        rc = dv_report_print(&rep, stdout);
    if (rc == DV_OK && out->json)
        rc = dv_report_write_json(&rep, out->json);
    if (rc != DV_OK)
        rc = dv_error_set(err, rc, NULL, 0, 0, "writing the report failed");
    dv_report_free(&rep);
    return rc;
}

static int dumps_write(const dv_kernel_info_t *info, const dv_gm_t *gm, const dv_sim_opts_t *o, outputs_t *out,
                       dv_error_t *err)
{
    for (int i = 0; i < o->ndumps; i++) {
        int a = arg_find(info, o->dumps[i].arg);
        if (fwrite(gm->data[a], 1, gm->bytes[a], out->dump[i]) != gm->bytes[a])
            return dv_error_set(err, DV_ERR_IO, o->dumps[i].path, 0, 0, "write failed: %s", strerror(errno));
    }
    return DV_OK;
}

/* ---------------------------------------------------------------- the driver */

int dv_sim_run(const dv_sim_opts_t *o, dv_sim_summary_t *sum, dv_error_t *err)
{
    dv_config_t cfg;
    dv_kernel_t *k = NULL;
    dv_gm_t gm = {0};
    dv_run_opts_t ro;
    dv_timeline_t *tl = NULL;
    dv_counters_t cnt;
    int have_cnt = 0;
    outputs_t out = {0};
    int rc;

    /* 1. profile: default preset, --profile / --config, --set, validate */
    if ((rc = dv_sim_profile(o->profile_ops, o->nprofile_ops, &cfg, err)) != DV_OK)
        goto cleanup;
    /* 2. kernel: the trace header now, the instructions lazily as the model reads them */
    if ((rc = dv_trace_open(o->trace, &k, err)) != DV_OK)
        goto cleanup;
    /* 3. GM arguments: device addresses and initial contents */
    for (int i = 0; i < o->ndumps; i++) {
        if (arg_find(&k->info, o->dumps[i].arg) < 0) {
            rc = dv_error_set(err, DV_ERR_UNKNOWN, o->trace, 0, 0, "--dump: kernel '%s' has no argument '%s'",
                              k->info.name, o->dumps[i].arg);
            goto cleanup;
        }
        if (!o->data) {
            rc = dv_error_set(err, DV_ERR_STATE, NULL, 0, 0, "--dump needs data; it cannot be used with --no-data");
            goto cleanup;
        }
    }
    if ((rc = dv_sim_gm_setup(&cfg, &k->info, o->data, o->trace, DV_GM_BASE, &gm, err)) != DV_OK)
        goto cleanup;
    /* 4. model: run the kernel, streaming the timeline, and collect the counters */
    dv_run_opts_default(&ro);
    ro.data = o->data;
    ro.hazards = o->hazards;
    if (o->timeline) {
        if ((rc = dv_timeline_open(&tl, o->timeline, &cfg, err)) != DV_OK)
            goto cleanup;
        ro.on_slice = dv_timeline_slice;
        ro.slice_ctx = tl;
    }
    if ((rc = dv_model_run(&cfg, k, &gm, &ro, &cnt, err)) != DV_OK)
        goto cleanup;
    have_cnt = 1;
    rc = dv_timeline_close(tl, err);
    tl = NULL;
    if (rc != DV_OK)
        goto cleanup;
    /* 5. report: derived once from the counters; text to stdout, JSON */
    if ((rc = outputs_open(o, &out, err)) != DV_OK)
        goto cleanup;
    if ((rc = report_write(&cfg, &k->info, &cnt, o, &out, err)) != DV_OK)
        goto cleanup;
    /* 6. dumps: final bytes of the requested arguments */
    if ((rc = dumps_write(&k->info, &gm, o, &out, err)) != DV_OK)
        goto cleanup;
    if (sum) {
        sum->cycles = cnt.cycles;
        sum->instructions = cnt.instructions;
        sum->hazards = cnt.hazards;
    }

cleanup:
    rc = close_out(out.json, o->json, rc, err);
    for (int i = 0; out.dump && i < o->ndumps; i++)
        rc = close_out(out.dump[i], o->dumps[i].path, rc, err);
    free(out.dump);
    if (tl)
        dv_timeline_close(tl, NULL);
    if (have_cnt)
        dv_counters_free(&cnt);
    dv_sim_gm_free(&gm);
    if (k)
        dv_trace_close(k);
    return rc;
}
