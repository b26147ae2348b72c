/* tests/support/dvt.h - helpers shared by the test suites: run a trace given as text on a profile
 * with --set style overrides and get the model's counters back. */
#ifndef DVT_H
#define DVT_H

#include <stdbool.h>

#include "dv/config.h"
#include "dv/model.h"
#include "dv/ops.h"
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
 * address gm_base, and run it on a fresh model of cfg (as a fresh process would).  Returns the
 * status; r->err says why on failure. */
int dvt_run_text(dvt_run_t *r, const dv_config_t *cfg, const char *trace, bool data, uint64_t gm_base);
/* The same on model m, whose L2 contents and time carry over from its earlier runs. */
int dvt_run_text_on(dvt_run_t *r, dv_model_t *m, const char *trace, bool data, uint64_t gm_base);
/* A new model of cfg (the test fails when it cannot be built). */
dv_model_t *dvt_model(const dv_config_t *cfg);
void dvt_free(dvt_run_t *r);
/* Cycles from launch to the first instruction's issue on a core: kernel + block start overhead. */
uint64_t dvt_t0(const dv_config_t *cfg);


/* One operator run, in-process, as `dvsim op` does it (sim/driver.c dv_sim_op). */
typedef struct dvt_op {
    dv_config_t cfg;
    dv_op_plan_t plan;
    dv_counters_t cnt;         /* valid when rc == DV_OK */
    dv_check_result_t check;   /* valid when rc == DV_OK and check was asked for */
    dv_error_t err;
    int rc;
} dvt_op_t;

/* Run the operator command line `cmd` ("add --shape 1000 --dtype fp16 --cores 3", split on
 * spaces) on `profile` (NULL = default) with --set overrides `sets` (NULL-terminated or NULL).
 * data: execute on data (else timing only); check: compare with the reference (r->check; a
 * mismatch makes rc DV_ERR_RANGE).  Returns r->rc. */
int dvt_op(dvt_op_t *r, const char *profile, const char *const *sets, const char *cmd, bool data, bool check);
void dvt_op_free(dvt_op_t *r);
/* A step-table element-wise operator (ops/elementwise.c) with --check: `op` ("selu", or with
 * parameters) on 1000 elements of fp32 / fp16 over 2 cores on `profile` compares all 1000 equal,
 * issues instruction `key` (its defining step) and, on fp16, computes in fp32 through vconv. */
void dvt_check_step_op(const char *profile, const char *op, bool f32, int key);
/* Busy ratio of pipe p over the cores of one type: sum of busy cycles / sum of active cycles
 * (the report's <pipe>_ratio). */
double dvt_ratio(const dv_counters_t *c, dv_core_type_t type, dv_pipe_t p);

#endif
