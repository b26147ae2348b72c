/* tests/support/dvt.h - helpers shared by the test suites: run a trace given as text on a profile
 * with --set style overrides and get the model's counters back. */
#ifndef DVT_H
#define DVT_H

#include <stdbool.h>

#include "dv/config.h"
#include "dv/model.h"
#include "dv/trace.h"

typedef struct dvt_run {
    dv_config_t cfg;
    dv_kernel_t *kernel;
    dv_gm_t gm;
    dv_counters_t cnt;
    dv_error_t err;
    int rc;
} dvt_run_t;

/* Load `profile` (NULL = default) and apply the overrides in `sets` (NULL-terminated). */
void dvt_config(dv_config_t *cfg, const char *profile, const char *const *sets);
/* Open the trace text, set its GM arguments up as a run does (dv_sim_gm_setup) from device
 * address gm_base, and run it.  Returns the status; r->err says why on failure. */
int dvt_run_text(dvt_run_t *r, const dv_config_t *cfg, const char *trace, bool data, uint64_t gm_base);
void dvt_free(dvt_run_t *r);
/* Cycles from launch to the first instruction's issue on a core: kernel + block start overhead. */
uint64_t dvt_t0(const dv_config_t *cfg);

#endif
