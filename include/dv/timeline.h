/* dv/timeline.h - a streaming Chrome-trace (Perfetto) writer for the model's per-instruction
 * slices: one "X" event per executed instruction, pid = core, tid = pipe, times in microseconds.
 * Events are written as they arrive, so memory does not grow with the run. */
#ifndef DV_TIMELINE_H
#define DV_TIMELINE_H

#include <stdint.h>
#include <stdio.h>

#include "dv/error.h"
#include "dv/config.h"
#include "dv/isa.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dv_timeline dv_timeline_t;

/* Start a timeline on an open stream (not closed by the writer) or on a file path ("-" = stdout).
 * cfg supplies the clock and the core names (dv_topo_core_name); it must outlive the writer. */
int dv_timeline_open_stream(dv_timeline_t **out, FILE *f, const dv_config_t *cfg, dv_error_t *err);
int dv_timeline_open(dv_timeline_t **out, const char *path, const dv_config_t *cfg, dv_error_t *err);

/* A dv_slice_fn: pass it as dv_run_opts_t.on_slice with the writer as slice_ctx. */
void dv_timeline_slice(void *ctx, uint32_t core, dv_pipe_t pipe, const dv_insn_t *insn, uint64_t start,
                       uint64_t end);

/* Finish the JSON, close the file (when opened by path) and free the writer; reports any write
 * error seen on the way.  Accepts NULL. */
int dv_timeline_close(dv_timeline_t *t, dv_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
