/* acl/prof.c - profiling: aclprof* and the DVSIM_PROFILE_OUT switch.
 *
 * While profiling is on, every kernel that runs adds one row to DIR/op_summary.csv in the column
 * scheme of msprof's op_summary (A2 "stars" header, PipeUtilization metrics), followed by dvsim's
 * UB occupancy, hazard and error-band columns: the table acl/op_summary.def (docs/OP_SUMMARY.md is generated from
 * it), and up to 10 rows to DIR/op_hotspot.csv: the kernel's hottest source lines.  At the end (aclprofFinalize, or aclFinalize for DVSIM_PROFILE_OUT) the tasks of the whole run
 * go to DIR/timeline.json (Chrome trace: one row per stream).  Every figure is derived from the
 * model's counters by the report step (dv_report_derive). */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "dv/report.h"
#include "dv/timeline.h"
#include "dv/topology.h"

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
    FILE *hot;           /* op_hotspot.csv */
    uint64_t task_id;
    slice_t *slices;
    size_t nslices, cap;
} g_prof;

typedef enum opsum_col {
#define DV_OPSUM(id, header, meaning) COL_##id,
#include "op_summary.def"
    COL_COUNT
} opsum_col_t;

static const char *const col_header[COL_COUNT] = {
#define DV_OPSUM(id, header, meaning) header,
#include "op_summary.def"
};

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
    for (int c = 0; c < COL_COUNT; c++)
        fprintf(g_prof.csv, "%s%s", c ? "," : "", col_header[c]);
    fputc('\n', g_prof.csv);
    fflush(g_prof.csv);
    snprintf(path, sizeof path, "%s/op_hotspot.csv", dir);
    if (!(g_prof.hot = fopen(path, "w"))) {
        fclose(g_prof.csv);
        g_prof.csv = NULL;
        return dv_acl_fail(ACL_ERROR_WRITE_FILE, "%s: cannot write '%s': %s", api, path, strerror(errno));
    }
    fputs("Task ID,Op Name,Source Line,Instruction,Count,Cycles,Share(%),Running Time(us)\n", g_prof.hot);
    fflush(g_prof.hot);
    g_prof.inited = true;
    g_prof.task_id = 0;
    return ACL_SUCCESS;
}

/* ---------------------------------------------------------------- rows */

/* The cycles and pipe busy cycles of one side (AICs or AIVs; coupled cores are both sides). */
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

/* What one row is made from. */
typedef struct row {
    const dv_acl_task_record_t *r;
    const dv_config_t *cfg;
    const dv_kernel_info_t *info;
    const dv_report_t *rep;
    double us;          /* the task's duration */
    side_t aic, aiv;
} row_t;

static void put_text(FILE *f, const char *s)
{
    fprintf(f, "\"%s\"", s && *s ? s : "N/A");
}

/* A side's pipe ratio (time: ratio x duration), N/A when the side did not run. */
static void put_ratio(FILE *f, const side_t *s, int pipe, double time_us, bool as_time)
{
    if (!s->present || !s->cycles) {
        fputs("N/A", f);
        return;
    }
    double r = (double)s->busy[pipe] / (double)s->cycles;
    if (as_time)
        fprintf(f, "%.3f", r * time_us);
    else
        fprintf(f, "%.6f", r);
}

static void put_col(FILE *f, const row_t *w, opsum_col_t c)
{
    const dv_acl_task_record_t *r = w->r;
    const dv_acl_launch_t *l = r->launch;
    double mhz = (double)w->cfg->chip_freq_mhz;
    bool split = w->cfg->chip_layout == DV_LAYOUT_SPLIT;
    const dv_occupancy_t *ub = &w->rep->buf[DV_SPACE_UB];
    switch (c) {
    case COL_DEVICE: fputs("0", f); break;
    case COL_MODEL: fputs("4294967295", f); break;
    case COL_TASK: fprintf(f, "%llu", (unsigned long long)g_prof.task_id); break;
    case COL_STREAM: fprintf(f, "%u", r->stream_id); break;
    case COL_OP_NAME: put_text(f, l->op_name); break;
    case COL_OP_TYPE: put_text(f, l->op_type); break;
    case COL_OP_STATE: fputs("dynamic", f); break;
    case COL_TASK_TYPE:
        fputs(!split ? "AI_CORE" : w->info->kind == DV_KIND_MIX ? "MIX_AIC"
              : w->info->kind == DV_KIND_VECTOR ? "AI_VECTOR_CORE" : "AI_CORE", f);
        break;
    case COL_START: fprintf(f, "%.3f", (double)r->start_cycle / mhz); break;
    case COL_DURATION: case COL_AICORE_TIME: fprintf(f, "%.3f", w->us); break;
    case COL_WAIT: fprintf(f, "%.3f", (double)r->wait_cycles / mhz); break;
    case COL_BLOCK_DIM: fprintf(f, "%u", w->info->blocks); break;
    case COL_MIX_BLOCK_DIM:
        fprintf(f, "%u", split && w->info->kind == DV_KIND_MIX ? w->info->blocks * dv_topo_per_group(w->cfg, DV_CORE_AIV) : 0);
        break;
    case COL_HF32: fputs("NO", f); break;
    case COL_IN_SHAPES: put_text(f, l->in_shapes); break;
    case COL_IN_DTYPES: put_text(f, l->in_dtypes); break;
    case COL_IN_FORMATS: put_text(f, l->in_formats); break;
    case COL_OUT_SHAPES: put_text(f, l->out_shapes); break;
    case COL_OUT_DTYPES: put_text(f, l->out_dtypes); break;
    case COL_OUT_FORMATS: put_text(f, l->out_formats); break;
    case COL_CONTEXT: case COL_AIC_ICACHE: case COL_AIV_ICACHE: fputs("N/A", f); break;
    case COL_AIC_CYCLES:
        if (w->aic.present)
            fprintf(f, "%llu", (unsigned long long)w->aic.cycles);
        else
            fputs("N/A", f);
        break;
    case COL_AIC_MAC_TIME: case COL_AIC_MAC: put_ratio(f, &w->aic, DV_PIPE_M, w->us, c == COL_AIC_MAC_TIME); break;
    case COL_AIC_S_TIME: case COL_AIC_S: put_ratio(f, &w->aic, DV_PIPE_S, w->us, c == COL_AIC_S_TIME); break;
    case COL_AIC_MTE1_TIME: case COL_AIC_MTE1: put_ratio(f, &w->aic, DV_PIPE_MTE1, w->us, c == COL_AIC_MTE1_TIME); break;
    case COL_AIC_MTE2_TIME: case COL_AIC_MTE2: put_ratio(f, &w->aic, DV_PIPE_MTE2, w->us, c == COL_AIC_MTE2_TIME); break;
    case COL_AIC_FIX_TIME: case COL_AIC_FIX: put_ratio(f, &w->aic, DV_PIPE_FIX, w->us, c == COL_AIC_FIX_TIME); break;
    case COL_AIV_TIME:
        if (w->aiv.present)
            fprintf(f, "%.3f", w->us);
        else
            fputs("N/A", f);
        break;
    case COL_AIV_CYCLES:
        if (w->aiv.present)
            fprintf(f, "%llu", (unsigned long long)w->aiv.cycles);
        else
            fputs("N/A", f);
        break;
    case COL_AIV_V_TIME: case COL_AIV_V: put_ratio(f, &w->aiv, DV_PIPE_V, w->us, c == COL_AIV_V_TIME); break;
    case COL_AIV_S_TIME: case COL_AIV_S: put_ratio(f, &w->aiv, DV_PIPE_S, w->us, c == COL_AIV_S_TIME); break;
    case COL_AIV_MTE2_TIME: case COL_AIV_MTE2: put_ratio(f, &w->aiv, DV_PIPE_MTE2, w->us, c == COL_AIV_MTE2_TIME); break;
    case COL_AIV_MTE3_TIME: case COL_AIV_MTE3: put_ratio(f, &w->aiv, DV_PIPE_MTE3, w->us, c == COL_AIV_MTE3_TIME); break;
    case COL_CUBE_UTIL: {
        double cap = (double)(r->end_cycle - r->start_cycle) * (double)w->cfg->chip_ai_cores;
        fprintf(f, "%.3f", cap > 0 ? 100.0 * (double)w->aic.busy[DV_PIPE_M] / cap : 0.0);
        break;
    }
    case COL_UB_CAP: fprintf(f, "%llu", (unsigned long long)(ub->present ? ub->capacity : 0)); break;
    case COL_UB_PEAK: fprintf(f, "%llu", (unsigned long long)(ub->present ? ub->peak_bytes : 0)); break;
    case COL_UB_PEAK_PCT: fprintf(f, "%.2f", ub->present ? ub->peak_pct : 0.0); break;
    case COL_UB_AVG: fprintf(f, "%.1f", ub->present ? ub->avg_bytes : 0.0); break;
    case COL_UB_AVG_PCT: fprintf(f, "%.2f", ub->present ? ub->avg_pct : 0.0); break;
    case COL_HAZARDS: fprintf(f, "%llu", (unsigned long long)r->cnt->hazards); break;
    case COL_TIME_CLASS: fputs(dv_kclass_name(w->rep->band.cls), f); break;
    case COL_TIME_ERR:
        if (w->rep->band.has_band)
            fprintf(f, "%.1f", w->rep->band.pct);
        else
            fputs("N/A", f);
        break;
    case COL_TIME_ERR_N: fprintf(f, "%d", w->rep->band.cases); break;
    case COL_COUNT: break;
    }
}

static void csv_row(const dv_acl_task_record_t *r)
{
    row_t w = {r, dv_acl_config(), &r->launch->kernel->info, NULL, 0, {0}, {0}};
    dv_report_t rep;
    dv_error_t err;
    if (dv_report_derive(&rep, w.cfg, w.info, r->cnt, &err) != DV_OK)
        return;
    w.rep = &rep;
    w.us = (double)(r->end_cycle - r->start_cycle) / (double)w.cfg->chip_freq_mhz;
    side_sum(&rep, true, &w.aic);
    side_sum(&rep, false, &w.aiv);
    bool split = w.cfg->chip_layout == DV_LAYOUT_SPLIT;
    w.aic.present = w.aic.present && !(split && w.info->kind == DV_KIND_VECTOR);
    w.aiv.present = w.aiv.present && !(split && w.info->kind == DV_KIND_CUBE);
    g_prof.task_id++;
    for (int c = 0; c < COL_COUNT; c++) {
        if (c)
            fputc(',', g_prof.csv);
        put_col(g_prof.csv, &w, (opsum_col_t)c);
    }
    fputc('\n', g_prof.csv);
    fflush(g_prof.csv);
    dv_report_free(&rep);
}

bool dv_acl_prof_running(void) { return g_prof.running; }

void dv_acl_hot_slice(void *ctx, uint32_t core, dv_pipe_t pipe, const dv_insn_t *insn, uint64_t start, uint64_t end)
{
    dv_acl_hot_t *h = ctx;
    const uint64_t c = end - start;
    if (h->pipes)
        dv_timeline_slice(h->pipes, core, pipe, insn, start, end);
    uint32_t i = (uint32_t)((insn->line * 2654435761u) % DV_ACL_HOT_SLOTS), k;
    for (k = 0; k < DV_ACL_HOT_SLOTS; k++, i = (i + 1) % DV_ACL_HOT_SLOTS) {
        if (h->e[i].count == 0) { /* a free slot: the line's first instruction */
            h->e[i].line = insn->line;
            h->n++;
            break;
        }
        if (h->e[i].line == insn->line)
            break;
    }
    if (k == DV_ACL_HOT_SLOTS) {
        h->other_count++;
        h->other_cycles += c;
        return;
    }
    h->e[i].count++;
    h->e[i].cycles += c;
    if (c >= h->e[i].longest) {
        h->e[i].longest = c;
        h->e[i].op = (uint16_t)insn->op;
    }
}

aclError dv_acl_prof_pipes_open(dv_acl_hot_t *h, const char *name, const char *what)
{
    const char *env = getenv("DVSIM_PIPE_TIMELINE");
    if (!g_prof.running || !env || !*env || strcmp(env, "0") == 0)
        return ACL_SUCCESS;
    if (strcmp(env, "1") != 0)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "%s: DVSIM_PIPE_TIMELINE='%s': expected 0 or 1", what, env);
    /* The name as a file name: characters other than letters, digits, '-' and '_' become '_'. */
    char base[64];
    size_t n = 0;
    for (const char *p = name ? name : "kernel"; *p && n < sizeof base - 1; p++)
        base[n++] = (char)((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                                   *p == '-' || *p == '_'
                               ? *p
                               : '_');
    base[n] = 0;
    snprintf(h->pipes_path, sizeof h->pipes_path, "%s/pipes_%llu_%s.json", g_prof.dir,
             (unsigned long long)g_prof.task_id + 1, base);
    dv_error_t err;
    if (dv_out_open(&h->pipes_file, h->pipes_path, "the pipe timeline", &err) != DV_OK)
        return dv_acl_fail_err(ACL_ERROR_WRITE_FILE, what, &err);
    if (dv_timeline_open_stream(&h->pipes, h->pipes_file.f, dv_acl_config(), &err) != DV_OK) {
        dv_out_close(&h->pipes_file, err.code, NULL);
        return dv_acl_fail_err(ACL_ERROR_WRITE_FILE, what, &err);
    }
    return ACL_SUCCESS;
}

aclError dv_acl_prof_pipes_close(dv_acl_hot_t *h, bool keep, const char *what)
{
    if (!h || !h->pipes)
        return ACL_SUCCESS;
    dv_error_t err;
    int rc = dv_timeline_close(h->pipes, &err);
    h->pipes = NULL;
    /* never half a timeline: the file takes its place only when the run and every write succeeded */
    rc = dv_out_close(&h->pipes_file, rc != DV_OK ? rc : keep ? DV_OK : DV_ERR_STATE, &err);
    return rc == DV_OK || !keep ? ACL_SUCCESS : dv_acl_fail_err(ACL_ERROR_WRITE_FILE, what, &err);
}

static int hot_cmp(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The kernel's hottest source lines (at most 10), hottest first, into op_hotspot.csv. */
#define HOT_ROWS 10
static void hot_rows(const dv_acl_task_record_t *r)
{
    const dv_acl_hot_t *h = r->hot;
    uint64_t key[DV_ACL_HOT_SLOTS][2], total = h->other_cycles;
    uint32_t n = 0;
    for (uint32_t i = 0; i < DV_ACL_HOT_SLOTS; i++)
        if (h->e[i].count) {
            key[n][0] = h->e[i].cycles;
            key[n][1] = i;
            total += h->e[i].cycles;
            n++;
        }
    qsort(key, n, sizeof key[0], hot_cmp);
    const double mhz = (double)dv_acl_config()->chip_freq_mhz;
    for (uint32_t k = 0; k < n && k < HOT_ROWS; k++) {
        const uint32_t i = (uint32_t)key[k][1];
        fprintf(g_prof.hot, "%llu,\"%s\",%u,%s,%llu,%llu,%.2f,%.6f\n", (unsigned long long)g_prof.task_id, r->name,
                h->e[i].line, dv_op_spec((dv_op_t)h->e[i].op)->mnemonic, (unsigned long long)h->e[i].count,
                (unsigned long long)h->e[i].cycles, total ? 100.0 * (double)h->e[i].cycles / (double)total : 0.0,
                (double)h->e[i].cycles / mhz);
    }
    fflush(g_prof.hot);
}

void dv_acl_prof_task(const dv_acl_task_record_t *r)
{
    if (!g_prof.running)
        return;
    if (r->launch && r->cnt && g_prof.csv)
        csv_row(r);
    if (r->launch && r->cnt && r->hot && g_prof.hot)
        hot_rows(r); /* with the Task ID of its op_summary row */
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
    if (g_prof.hot)
        fclose(g_prof.hot);
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

aclError aclprofSetConfig(aclprofConfigType configType, const char *config, size_t configLength)
{
    DV_ACL_LOCKED();
    if (configType <= ACL_PROF_ARGS_MIN || configType >= ACL_PROF_ARGS_MAX || configType == 2)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM, "aclprofSetConfig: config type %d is not one of aclprofConfigType",
                           (int)configType);
    if (!config || configLength == 0 || strnlen(config, configLength + 1) != configLength)
        return dv_acl_fail(ACL_ERROR_INVALID_PARAM,
                           "aclprofSetConfig: config must be a string of configLength (%zu) characters", configLength);
    if (g_prof.running)
        return dv_acl_fail(ACL_ERROR_PROF_ALREADY_RUN, "aclprofSetConfig: profiling is running (call it before aclprofStart)");
    return ACL_SUCCESS; /* system-level sampling that dvsim does not produce (include/acl/acl_prof.h) */
}
