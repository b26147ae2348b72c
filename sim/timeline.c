/* sim/timeline.c - streaming Chrome-trace JSON writer (see dv/timeline.h). */
#include "dv/timeline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dv/topology.h"

struct dv_timeline {
    FILE *f;
    int owned;          /* f was opened by path */
    const dv_config_t *cfg;
    double freq_mhz;
    int first;          /* no event written yet */
    uint32_t ncores;
    uint8_t *seen;      /* per core: bit p = thread of pipe p named, bit 7 = process named */
};

static void event_sep(dv_timeline_t *t)
{
    fputs(t->first ? "\n" : ",\n", t->f);
    t->first = 0;
}

int dv_timeline_open_stream(dv_timeline_t **out, FILE *f, const dv_config_t *cfg, dv_error_t *err)
{
    dv_timeline_t *t = calloc(1, sizeof *t);
    if (!t)
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory for the timeline");
    t->f = f;
    t->cfg = cfg;
    t->freq_mhz = cfg->chip_freq_mhz ? (double)cfg->chip_freq_mhz : 1.0;
    t->first = 1;
    t->ncores = dv_topo_cores(cfg);
    t->seen = calloc(t->ncores ? t->ncores : 1, 1);
    if (!t->seen) {
        free(t);
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory for the timeline");
    }
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", f);
    *out = t;
    return DV_OK;
}

int dv_timeline_open(dv_timeline_t **out, const char *path, const dv_config_t *cfg, dv_error_t *err)
{
    int use_stdout = strcmp(path, "-") == 0;
    FILE *f = use_stdout ? stdout : fopen(path, "w");
    if (!f)
        return dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot write the timeline: %s", strerror(errno));
    int rc = dv_timeline_open_stream(out, f, cfg, err);
    if (rc != DV_OK) {
        if (!use_stdout)
            fclose(f);
        return rc;
    }
    (*out)->owned = !use_stdout;
    return DV_OK;
}

/* Name the process of a core and the thread of a pipe the first time they appear. */
static void name_once(dv_timeline_t *t, uint32_t core, dv_pipe_t pipe)
{
    if (core >= t->ncores) { /* a core outside the profile: grow (bounded by core ids, not events) */
        uint8_t *s = realloc(t->seen, core + 1u);
        if (!s)
            return;
        memset(s + t->ncores, 0, core + 1u - t->ncores);
        t->seen = s;
        t->ncores = core + 1u;
    }
    uint8_t *seen = &t->seen[core];
    if (!(*seen & 0x80)) {
        char name[32];
        dv_topo_core_name(t->cfg, core, name, sizeof name);
        event_sep(t);
        fprintf(t->f, "{\"ph\":\"M\",\"pid\":%u,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"%s\"}}",
                core, name);
        event_sep(t);
        fprintf(t->f, "{\"ph\":\"M\",\"pid\":%u,\"tid\":0,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%u}}",
                core, core);
        *seen |= 0x80;
    }
    if ((unsigned)pipe < DV_PIPE_COUNT && !(*seen & (1u << pipe))) {
        event_sep(t);
        fprintf(t->f, "{\"ph\":\"M\",\"pid\":%u,\"tid\":%d,\"name\":\"thread_name\",\"args\":{\"name\":\"%s\"}}", core,
                (int)pipe, dv_pipe_name(pipe));
        event_sep(t);
        fprintf(t->f,
                "{\"ph\":\"M\",\"pid\":%u,\"tid\":%d,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%d}}",
                core, (int)pipe, (int)pipe);
        *seen |= (uint8_t)(1u << pipe);
    }
}

void dv_timeline_slice(void *ctx, uint32_t core, dv_pipe_t pipe, const dv_insn_t *insn, uint64_t start, uint64_t end)
{
    dv_timeline_t *t = ctx;
    const dv_op_spec_t *os = insn ? dv_op_spec((dv_op_t)insn->op) : NULL;
    name_once(t, core, pipe);
    event_sep(t);
    fprintf(t->f, "{\"ph\":\"X\",\"name\":\"%s\",\"pid\":%u,\"tid\":%d,\"ts\":%.6f,\"dur\":%.6f",
            os ? os->mnemonic : "?", core, (int)pipe, (double)start / t->freq_mhz,
            (double)(end > start ? end - start : 0) / t->freq_mhz);
    if (insn && insn->line)
        fprintf(t->f, ",\"args\":{\"line\":%u}", insn->line);
    fputc('}', t->f);
}

int dv_timeline_close(dv_timeline_t *t, dv_error_t *err)
{
    int rc = DV_OK;
    if (!t)
        return DV_OK;
    fputs("\n]}\n", t->f);
    if (fflush(t->f) != 0 || ferror(t->f))
        rc = dv_error_set(err, DV_ERR_IO, NULL, 0, 0, "writing the timeline failed: %s", strerror(errno));
    if (t->owned && fclose(t->f) != 0 && rc == DV_OK)
        rc = dv_error_set(err, DV_ERR_IO, NULL, 0, 0, "writing the timeline failed: %s", strerror(errno));
    free(t->seen);
    free(t);
    return rc;
}
