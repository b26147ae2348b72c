/* acl/prof.c - profiling: aclprof* and the DVSIM_PROFILE_OUT switch.
 *
 * While profiling is on, every kernel that runs adds one row to DIR/op_summary.csv in the column
 * scheme of msprof's op_summary (A2 "stars" header, PipeUtilization metrics), followed by dvsim's
 * UB occupancy columns; at the end (aclprofFinalize, or aclFinalize for DVSIM_PROFILE_OUT) the
 * tasks of the whole run go to DIR/timeline.json (Chrome trace: one row per stream).  Every figure
 * is derived from the model's counters by the report step (dv_report_derive); docs/ACL.md lists the
 * columns. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "dv/report.h"

struct aclprofConfig {
    uint64_t data_types;
};
#define PROFCFG_MAGIC 0x9F0C0Fu

typedef struct slice {
    char name[128];
    const char *kind;
    uint32_t stream;
    uint64_t start, end;
} slice_t;

static struct {
    bool inited;         /* aclprofInit (or the environment switch) gave a directory */
    bool running;        /* between aclprofStart and aclprofStop */
    bool from_env;
    char dir[1024];
    FILE *csv;
    uint64_t task_id;
    slice_t *slices;
    size_t nslices, cap;
} g_prof;

static const char csv_header[] =
    "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,Task Start Time(us),"
    "Task Duration(us),Task Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,"
    "Input Formats,Output Shapes,Output Data Types,Output Formats,Context ID,aicore_time(us),aic_total_cycles,"
    "aic_mac_time(us),aic_mac_ratio,aic_scalar_time(us),aic_scalar_ratio,aic_mte1_time(us),aic_mte1_ratio,"
    "aic_mte2_time(us),aic_mte2_ratio,aic_fixpipe_time(us),aic_fixpipe_ratio,aic_icache_miss_rate,aiv_time(us),"
    "aiv_total_cycles,aiv_vec_time(us),aiv_vec_ratio,aiv_scalar_time(us),aiv_scalar_ratio,aiv_mte2_time(us),"
    "aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio,aiv_icache_miss_rate,cube_utilization(%),"
    "ub_capacity_bytes,ub_peak_bytes,ub_peak(%),ub_avg_bytes,ub_avg(%)\n";

static int mkdirs(const char *dir)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(buf, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

static int prof_open(const char *dir, const char *api)
{
    if (strlen(dir) >= sizeof g_prof.dir - 32)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: result path is too long", api);
    if (mkdirs(dir) != 0)
        return dv_acl_fail(ACL_ERROR_INVALID_FILE, "%s: cannot create directory '%s': %s", api, dir, strerror(errno));
    snprintf(g_prof.dir, sizeof g_prof.dir, "%s", dir);
    char path[1100];
    snprintf(path, sizeof path, "%s/op_summary.csv", dir);
    if (!(g_prof.csv = fopen(path, "w")))
        return dv_acl_fail(ACL_ERROR_WRITE_FILE, "%s: cannot write '%s': %s", api, path, strerror(errno));
    fputs(csv_header, g_prof.csv);
    fflush(g_prof.csv);
    g_prof.inited = true;
    g_prof.task_id = 0;
    return ACL_SUCCESS;
}

/* ---------------------------------------------------------------- rows */

/* Busy ratio of one pipe and the cycles over the cores of one side (AIC or AIV; coupled cores are
 * both sides). */
typedef struct side {
    bool present;
    uint64_t cycles;
    uint64_t busy[DV_PIPE_COUNT];
} side_t;

static void side_sum(const dv_report_t *rep, bool aic, side_t *s)
{
    memset(s, 0, sizeof *s);
    for (uint32_t i = 0; i < rep->ncores; i++) {
        const dv_core_report_t *c = &rep->cores[i];
        bool mine = c->c->type == DV_CORE_COUPLED || (aic ? c->c->type == DV_CORE_AIC : c->c->type == DV_CORE_AIV);
        if (!mine || !c->ran)
            continue;
        s->present = true;
        s->cycles += c->cycles;
        for (int p = 0; p < DV_PIPE_COUNT; p++)
            s->busy[p] += c->c->pipe_busy[p];
    }
}

static void put_ratio(FILE *f, const side_t *s, int pipe, double time_us)
{
    if (!s->present || !s->cycles) {
        fputs(",N/A,N/A", f);
        return;
    }
    double r = (double)s->busy[pipe] / (double)s->cycles;
    fprintf(f, ",%.3f,%.6f", r * time_us, r);
}

static void put_quoted(FILE *f, const char *s)
{
    fprintf(f, ",\"%s\"", s && *s ? s : "N/A");
}

static void csv_row(const dv_acl_task_record_t *r)
{
    const dv_config_t *cfg = dv_acl_config();
    const dv_kernel_info_t *info = &r->launch->kernel->info;
    dv_report_t rep;
    dv_error_t err;
    if (dv_report_derive(&rep, cfg, info, r->cnt, &err) != DV_OK)
        return;
    double mhz = (double)cfg->chip_freq_mhz;
    double t_us = (double)(r->end_cycle - r->start_cycle) / mhz;
    bool split = cfg->chip_layout == DV_LAYOUT_SPLIT;
    const char *type = !split ? "AI_CORE"
                       : info->kind == DV_KIND_MIX ? "MIX_AIC"
                       : info->kind == DV_KIND_VECTOR ? "AI_VECTOR_CORE"
                                                      : "AI_CORE";
    uint32_t mix_dim = split && info->kind == DV_KIND_MIX ? info->blocks * (uint32_t)cfg->chip_aiv_per_core : 0;
    side_t aic, aiv;
    side_sum(&rep, true, &aic);
    side_sum(&rep, false, &aiv);
    if (split && info->kind == DV_KIND_VECTOR)
        aic.present = false;
    if (split && info->kind == DV_KIND_CUBE)
        aiv.present = false;
    FILE *f = g_prof.csv;
    fprintf(f, "0,4294967295,%llu,%u", (unsigned long long)++g_prof.task_id, r->stream_id);
    put_quoted(f, r->launch->op_name);
    put_quoted(f, r->launch->op_type);
    fprintf(f, ",dynamic,%s,%.3f,%.3f,%.3f,%u,%u,NO", type, (double)r->start_cycle / mhz, t_us,
            (double)r->wait_cycles / mhz, info->blocks, mix_dim);
    put_quoted(f, r->launch->in_shapes);
    put_quoted(f, r->launch->in_dtypes);
    put_quoted(f, r->launch->in_formats);
    put_quoted(f, r->launch->out_shapes);
    put_quoted(f, r->launch->out_dtypes);
    put_quoted(f, r->launch->out_formats);
    fprintf(f, ",N/A,%.3f", t_us);
    if (aic.present)
        fprintf(f, ",%llu", (unsigned long long)aic.cycles);
    else
        fputs(",N/A", f);
    put_ratio(f, &aic, DV_PIPE_M, t_us);
    put_ratio(f, &aic, DV_PIPE_S, t_us);
    put_ratio(f, &aic, DV_PIPE_MTE1, t_us);
    put_ratio(f, &aic, DV_PIPE_MTE2, t_us);
    put_ratio(f, &aic, DV_PIPE_FIX, t_us);
    fputs(",N/A", f); /* icache: not modelled */
    if (aiv.present)
        fprintf(f, ",%.3f,%llu", t_us, (unsigned long long)aiv.cycles);
    else
        fputs(",N/A,N/A", f);
    put_ratio(f, &aiv, DV_PIPE_V, t_us);
    put_ratio(f, &aiv, DV_PIPE_S, t_us);
    put_ratio(f, &aiv, DV_PIPE_MTE2, t_us);
    put_ratio(f, &aiv, DV_PIPE_MTE3, t_us);
    fputs(",N/A", f);
    /* cube utilisation: cube busy cycles over the cube capacity of the whole chip for the task */
    double cube_cap = (double)(r->end_cycle - r->start_cycle) * (double)cfg->chip_ai_cores;
    fprintf(f, ",%.3f", cube_cap > 0 ? 100.0 * (double)aic.busy[DV_PIPE_M] / cube_cap : 0.0);
    const dv_occupancy_t *ub = &rep.buf[DV_SPACE_UB];
    if (ub->present)
        fprintf(f, ",%llu,%llu,%.2f,%.1f,%.2f\n", (unsigned long long)ub->capacity, (unsigned long long)ub->peak_bytes,
                ub->peak_pct, ub->avg_bytes, ub->avg_pct);
    else
        fputs(",0,0,0.00,0.0,0.00\n", f);
    fflush(f);
    dv_report_free(&rep);
}

void dv_acl_prof_task(const dv_acl_task_record_t *r)
{
    if (!g_prof.running)
        return;
    if (r->launch && r->cnt && g_prof.csv)
        csv_row(r);
    if (g_prof.nslices == g_prof.cap) {
        size_t cap = g_prof.cap ? 2 * g_prof.cap : 256;
        slice_t *s = realloc(g_prof.slices, cap * sizeof *s);
        if (!s)
            return;
        g_prof.slices = s;
        g_prof.cap = cap;
    }
    slice_t *s = &g_prof.slices[g_prof.nslices++];
    snprintf(s->name, sizeof s->name, "%s", r->name ? r->name : r->kind);
    s->kind = r->kind;
    s->stream = r->stream_id;
    s->start = r->start_cycle;
    s->end = r->end_cycle;
}

/* The timeline of every task profiled, then the files are closed. */
static void prof_close(void)
{
    if (!g_prof.inited)
        return;
    char path[1100];
    snprintf(path, sizeof path, "%s/timeline.json", g_prof.dir);
    FILE *f = fopen(path, "w");
    const dv_config_t *cfg = dv_acl_config();
    double mhz = cfg ? (double)cfg->chip_freq_mhz : 1.0;
    if (f) {
        fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", f);
        fputs("{\"ph\":\"M\",\"pid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"device 0 (dvsim)\"}}", f);
        uint32_t max_stream = 0;
        for (size_t i = 0; i < g_prof.nslices; i++)
            max_stream = g_prof.slices[i].stream > max_stream ? g_prof.slices[i].stream : max_stream;
        for (uint32_t id = 0; g_prof.nslices && id <= max_stream; id++)
            fprintf(f, ",\n{\"ph\":\"M\",\"pid\":0,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"%s %u\"}}", id,
                    id ? "stream" : "default stream", id);
        for (size_t i = 0; i < g_prof.nslices; i++) {
            const slice_t *s = &g_prof.slices[i];
            fputs(",\n{\"ph\":\"X\",\"pid\":0,\"tid\":", f);
            fprintf(f, "%u,\"cat\":\"%s\",\"name\":", s->stream, s->kind);
            dv_json_string(f, s->name);
            fprintf(f, ",\"ts\":%.3f,\"dur\":%.3f}", (double)s->start / mhz, (double)(s->end - s->start) / mhz);
        }
        fputs("\n]}\n", f);
        fclose(f);
    }
    if (g_prof.csv)
        fclose(g_prof.csv);
    free(g_prof.slices);
    memset(&g_prof, 0, sizeof g_prof);
}

int dv_acl_prof_env_start(const char *dir)
{
    int rc = prof_open(dir, "DVSIM_PROFILE_OUT");
    if (rc == ACL_SUCCESS) {
        g_prof.running = true;
        g_prof.from_env = true;
    }
    return rc;
}

void dv_acl_prof_shutdown(void)
{
    prof_close();
}

/* ---------------------------------------------------------------- aclprof* */

aclError aclprofInit(const char *profilerResultPath, size_t length)
{
    DV_ACL_LOCKED();
    int rc = dv_acl_check_init("aclprofInit");
    if (rc != ACL_SUCCESS)
        return rc;
    if (!profilerResultPath || length == 0 || strnlen(profilerResultPath, length + 1) != length)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofInit: profilerResultPath is NULL or length %zu is not its "
                                                    "length",
                           length);
    if (g_prof.inited && !g_prof.from_env)
        return dv_acl_fail(ACL_ERROR_REPEAT_INITIALIZE, "aclprofInit: profiling is already initialized");
    prof_close(); /* the API takes over from the environment switch */
    return prof_open(profilerResultPath, "aclprofInit");
}

aclError aclprofFinalize(void)
{
    DV_ACL_LOCKED();
    if (!g_prof.inited || g_prof.from_env)
        return dv_acl_fail(ACL_ERROR_PROF_NOT_RUN, "aclprofFinalize: aclprofInit was not called");
    prof_close();
    return ACL_SUCCESS;
}

aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList, uint32_t deviceNums, aclprofAicoreMetrics aicoreMetrics,
                                   const aclprofAicoreEvents *aicoreEvents, uint64_t dataTypeConfig)
{
    DV_ACL_LOCKED();
    (void)aicoreMetrics; /* dvsim always reports the pipe utilisation set */
    (void)aicoreEvents;
    if (!deviceIdList || deviceNums == 0) {
        dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofCreateConfig: no device list");
        return NULL;
    }
    for (uint32_t i = 0; i < deviceNums; i++)
        if (deviceIdList[i] != 0) {
            dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofCreateConfig: device %u does not exist", deviceIdList[i]);
            return NULL;
        }
    aclprofConfig *c = malloc(sizeof *c);
    if (!c) {
        dv_acl_fail(ACL_ERROR_BAD_ALLOC, "aclprofCreateConfig: out of memory");
        return NULL;
    }
    c->data_types = dataTypeConfig;
    if (dv_acl_handle_add(c, PROFCFG_MAGIC) != ACL_SUCCESS) {
        free(c);
        return NULL;
    }
    return c;
}

aclError aclprofDestroyConfig(const aclprofConfig *profilerConfig)
{
    DV_ACL_LOCKED();
    if (!dv_acl_handle_is(profilerConfig, PROFCFG_MAGIC))
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofDestroyConfig: not a live profiling config");
    dv_acl_handle_del(profilerConfig);
    free((void *)profilerConfig);
    return ACL_SUCCESS;
}

aclError aclprofStart(const aclprofConfig *profilerConfig)
{
    DV_ACL_LOCKED();
    if (!dv_acl_handle_is(profilerConfig, PROFCFG_MAGIC))
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofStart: not a live profiling config");
    if (!g_prof.inited || g_prof.from_env)
        return dv_acl_fail(ACL_ERROR_INVALID_PROFILING_CONFIG, "aclprofStart: call aclprofInit first");
    if (g_prof.running)
        return dv_acl_fail(ACL_ERROR_PROF_ALREADY_RUN, "aclprofStart: profiling is already running");
    g_prof.running = true;
    return ACL_SUCCESS;
}

aclError aclprofStop(const aclprofConfig *profilerConfig)
{
    DV_ACL_LOCKED();
    if (!dv_acl_handle_is(profilerConfig, PROFCFG_MAGIC))
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofStop: not a live profiling config");
    if (!g_prof.running || g_prof.from_env)
        return dv_acl_fail(ACL_ERROR_PROF_NOT_RUN, "aclprofStop: profiling is not running");
    dv_acl_drain(); /* the work queued so far belongs to this profiling window */
    g_prof.running = false;
    return ACL_SUCCESS;
}
