/* dv/sim.h - one simulation run, end to end: profile -> kernel -> GM arguments -> model ->
 * report.  sim/driver.c is the one driver; sim/main.c only turns the command line into
 * dv_sim_opts_t and the status into an exit code. */
#ifndef DV_SIM_H
#define DV_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "dv/error.h"
#include "dv/config.h"
#include "dv/kernel.h"
#include "dv/model.h"
#include "dv/ops.h"
#include "dv/report.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DV_SIM_VERSION "0.1.0"

/* One profile option, in command-line order. */
typedef enum dv_profile_op_kind {
    DV_PROFILE_PRESET, /* --profile NAME */
    DV_PROFILE_FILE,   /* --config FILE */
    DV_PROFILE_SET     /* --set section.key=value */
} dv_profile_op_kind_t;

typedef struct dv_profile_op {
    dv_profile_op_kind_t kind;
    const char *arg;
} dv_profile_op_t;

/* An argument whose final bytes are written to a file after the run (--dump ARG=FILE). */
typedef struct dv_dump {
    const char *arg;
    const char *path;
} dv_dump_t;

typedef struct dv_sim_opts {
    const dv_profile_op_t *profile_ops;
    int nprofile_ops;
    const char *trace;         /* trace file (dvsim run), or NULL with op */
    const char *op;            /* operator of the library (dvsim op / record), or NULL with trace */
    int op_argc;               /* its parameters: "--name value" pairs as typed */
    char **op_argv;
    bool check;                /* compare the operator's outputs with its reference (--check) */
    const char *record;        /* write the kernel as a trace to this file instead of running it */
    bool record_binary;        /* ... in the binary form (dvsim record --binary; traces/FORMAT.md section 10) */
    const char *json;          /* JSON report file, "-" = stdout, NULL = none */
    const char *timeline;      /* Chrome-trace file, "-" = stdout, NULL = none */
    const char *instr_csv;     /* instruction hot-spot table (--instr-csv), "-" = stdout, NULL = none */
    bool data;                 /* false: --no-data (timing only) */
    bool hazards;              /* false: --no-hazards */
    unsigned warm_up;          /* --warm-up: unmeasured runs of the kernel on the same chip before the measured one */
    uint64_t max_hazards;      /* --max-hazards (dv_run_opts_t.max_hazards) */
    uint64_t host_memory;      /* --host-memory: the bytes a run with data may hold for its GM arguments
                                * (outputs twice with --check); 0 = this machine's physical memory */
    bool quiet;                /* no text report */
    bool series;               /* keep the buffers' occupancy over time (dv_run_opts_t.series; default on):
                                * dvsim run / op ask for it only with --json, the report that shows it */
    const dv_dump_t *dumps;
    int ndumps;
} dv_sim_opts_t;

/* What a successful run found, for the exit code and --host-stats. */
typedef struct dv_sim_summary {
    uint64_t cycles;
    uint64_t instructions;
    uint64_t hazards;
    bool checked;              /* --check ran */
    uint64_t compared;         /* output elements compared */
    uint64_t mismatches;       /* elements outside the tolerance */
} dv_sim_summary_t;

/* Everything steps 1-5 of a run produce, for the report (and for tests). */
typedef struct dv_sim_result {
    dv_config_t cfg;
    dv_kernel_t *kernel;
    const dv_opdesc_t *op;     /* NULL for a trace */
    dv_op_plan_t plan;         /* op runs */
    dv_report_op_t op_report;  /* op runs: name, parameters, flops/bytes, check outcome */
    dv_check_result_t check;   /* op runs with check */
    dv_gm_t gm;
    dv_counters_t cnt;
    bool have_cnt;
} dv_sim_result_t;

void dv_sim_opts_default(dv_sim_opts_t *o);

/* Step 1 of a run, also used by --dump-config: the default preset, then every --profile /
 * --config in order, then every --set in order, then the cross-parameter checks. */
int dv_sim_profile(const dv_profile_op_t *ops, int nops, dv_config_t *cfg, dv_error_t *err);

/* Run one kernel and write its reports, in the steps that README's layout table numbers the same
 * way (each step lives in the directory named):
 *   1. profile       configs/   the chip profile: presets, --config, --set, checks
 *   2. kernel        traces/, kernel/, ops/; its instructions (isa/) are decoded as the model pulls them
 *   3. GM arguments  sim/       device addresses and initial contents (dv_sim_gm_setup)
 *   4. model         model/     the SystemC model runs the kernel and fills dv_counters_t
 *   5. check         ops/       the outputs against the operator's plain-C reference (--check)
 *   6. report        sim/       ratios, bandwidths, occupancy, stalls derived once from the counters
 *                              (text, --json, --instr-csv)
 *   7. dumps         sim/       the final bytes of arguments (--dump)
 * Every output file is opened before step 1 and written to a temporary that takes its place only
 * when the whole run succeeded.
 * On error nothing is reported, err says what and where, and the status is negative.  A --check mismatch is not an error: the report shows it and
 * sum->mismatches counts it. */
int dv_sim_run(const dv_sim_opts_t *o, dv_sim_summary_t *sum, dv_error_t *err);

/* How many of the outputs (--json, --timeline, --instr-csv, --dump) go to stdout ("-"): more than
 * one cannot be told apart (the command line refuses it), and with one the text report is not
 * printed. */
int dv_sim_stdout_outputs(const dv_sim_opts_t *o);

/* Steps 1 to 5 of dv_sim_run (profile, kernel, GM, model, check), writing nothing but the
 * timeline and the recorded trace.  Free *res with dv_sim_result_free whatever the status. */
int dv_sim_execute(const dv_sim_opts_t *o, dv_sim_result_t *res, dv_error_t *err);
void dv_sim_result_free(dv_sim_result_t *res);

/* Step 3 of a run: lay a kernel's GM arguments out from device address `base` (DV_GM_BASE for a
 * run), each DV_GM_ALIGN-aligned and within hbm.capacity_bytes, and, when `data`, allocate host
 * buffers initialised as the arguments say (zero, random:SEED, file:PATH relative to `trace`).
 * On error *gm may be partly filled: dv_sim_gm_free it either way. */
int dv_sim_gm_setup(const dv_config_t *cfg, const dv_kernel_info_t *info, bool data, const char *trace,
                    uint64_t base, dv_gm_t *gm, dv_error_t *err);
void dv_sim_gm_free(dv_gm_t *gm);

/* The random initial contents of an argument (DV_INIT_RANDOM): elements of type t from seed,
 * floats uniform in [lo, hi) ([-1, 1) when lo == hi), integers small. */
void dv_sim_fill_random(uint8_t *p, uint64_t bytes, dv_dtype_t t, uint64_t seed, double lo, double hi);

#ifdef __cplusplus
}
#endif
#endif
