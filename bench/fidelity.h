/* bench/fidelity.h - the fidelity suite shared by `make validate` (bench/validate.c) and the tests
 * (tests/check_fidelity.c): the calibration set (bench/calibration.def), the roofline checks
 * (bench/roofline.def), and operator runs, each on a model of its own (which starts with a cold L2;
 * calibration cases add DV_FID_PROTOCOL's warm-up run), in a few worker processes. */
#ifndef DV_FIDELITY_H
#define DV_FIDELITY_H

#include <stdbool.h>
#include <stdint.h>

#include "dv/config.h"
#include "dv/isa.h"

/* A calibration case (a row of bench/calibration.def). */
typedef struct dv_fid_case {
    const char *id, *profile, *cmd;
    double scale;                              /* the command runs 1 / scale of the measured work (DV_CAL_SCALED) */
    double measured_us;
    double mac, mte2, scalar;                  /* ratios the source states; < 0: not given */
    double busy_vec_us, busy_mte2_us, busy_mte3_us; /* busy times the source gives; < 0: not given */
    const char *note;
} dv_fid_case_t;

extern const dv_fid_case_t dv_fid_cases[];
extern const int dv_fid_ncases;

typedef enum dv_fid_kind { DV_FID_CUBE, DV_FID_STREAM, DV_FID_START } dv_fid_kind_t;

/* A roofline check (a row of bench/roofline.def). */
typedef struct dv_fid_roof {
    const char *id, *profiles; /* profiles: a preset-name prefix, "" = every preset */
    dv_fid_kind_t kind;
    const char *cmd, *why;
} dv_fid_roof_t;

extern const dv_fid_roof_t dv_fid_roofs[];
extern const int dv_fid_nroofs;

/* Does roofline row r run on preset `profile`? */
bool dv_fid_roof_applies(const dv_fid_roof_t *r, const char *profile);

/* What one timing-only operator run gave. */
typedef struct dv_fid_run {
    int rc;                        /* DV_OK, or the run's error (msg says what) */
    char msg[800];
    dv_config_t cfg;               /* the profile it ran on */
    uint64_t cycles;
    double time_us;
    double ratio[DV_PIPE_COUNT];   /* kernel-level busy ratios, as the report derives them */
    uint32_t cores_ran;
    uint64_t flops, bytes;         /* the operator's useful work and compulsory GM traffic */
    uint64_t copies;               /* copy_gm_to_ubuf instructions (for the stream bound) */
    int micro[3];                  /* DV_FID_MICRO: rows per dv_micro_status_t (pass, fail, not observable; msg names the failed) */
    double host_s;                 /* host seconds the child took */
} dv_fid_run_t;

/* The command that runs the microbenchmarks (bench/micro.def) instead of an operator; it may be
 * followed by "--set SECTION.KEY=VALUE" overrides of the preset. */
#define DV_FID_MICRO "micro"

/* How every calibration case is measured: as Huawei's msopprof measured the published Task Durations,
 * which warms a kernel up and replays it on the same GM memory, so the measured run finds the L2 its
 * previous run left (docs/FIDELITY.md, Method).  Appended to each case's command by `make validate`. */
#define DV_FID_PROTOCOL "--warm-up 1"

/* The simulated time of case k from its run r, in us: r->time_us, or for a scaled case (scale > 1)
 * the fixed head of the kernel (dv_kclass_start_cycles: launch and block start) once plus scale
 * times the rest, the time of the whole work when it is one core looping over identical copies. */
double dv_fid_case_time_us(const dv_fid_case_t *k, const dv_fid_run_t *r);

/* Run operator command line `cmd` ("add --shape 1024 ...") timing-only, without the hazard
 * checker, on preset `profile`, in this process; or, for DV_FID_MICRO, every microbenchmark row.
 * `--warm-up N` among its words is the run option of that name, not an operator parameter.
 * Returns out->rc. */
int dv_fid_run_here(const char *profile, const char *cmd, dv_fid_run_t *out);

/* One run of a batch: preset and command line (as for dv_fid_run_here); skip: leave it out (run.rc
 * stays 0 and run is untouched). */
typedef struct dv_fid_job {
    const char *profile, *cmd;
    bool skip;
    dv_fid_run_t run;
} dv_fid_job_t;

/* Run every job of jobs[0..n) with dv_fid_run_here in `par` worker processes (1 to 64), each forked
 * once and running one job after another: every run builds a model of its own, so one worker runs
 * any profile.  The processes are there for parallelism (SystemC's kernel is not thread-safe) and
 * to isolate crashes: a run that kills its worker is reported in its run.msg (the signal or exit
 * status) and a fresh worker takes over.  done(job, ctx), when not NULL, is called for each job
 * that ran, in job order. */
void dv_fid_run_all(dv_fid_job_t *jobs, int n, int par, void (*done)(const dv_fid_job_t *job, void *ctx), void *ctx);

/* Judge a roofline run: the bound the profile allows and the achieved figure, in the row's unit
 * (CUBE: TFLOP/s; STREAM: GB/s; START: % of the time that is start overhead), and a one-line
 * verdict in `why`.  Returns true when the check passes. */
bool dv_fid_roof_judge(const dv_fid_roof_t *r, const dv_fid_run_t *run, double *bound, double *achieved,
                       char *why, size_t whylen);

#endif
