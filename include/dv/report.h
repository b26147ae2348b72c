/* dv/report.h - the report step: every derived metric (ratios, bandwidths, occupancy %) is
 * computed once, by dv_report_derive, from the profile, the kernel header and the model's
 * counters.  The text and JSON writers only format what it computed.
 *
 * The report has the profile's shape: chip, cores, buffers, memory (then hazards).  The JSON
 * schema is documented in docs/REPORT.md. */
#ifndef DV_REPORT_H
#define DV_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dv/error.h"
#include "dv/config.h"
#include "dv/errband.h"
#include "dv/isa.h"
#include "dv/kernel.h"
#include "dv/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the JSON report's schema (docs/REPORT.md); bumped on incompatible changes. */
#define DV_REPORT_SCHEMA_VERSION 1

/* Buffers whose occupancy the report shows, in print order. */
#define DV_REPORT_NBUFS 5
extern const dv_space_t dv_report_bufs[DV_REPORT_NBUFS]; /* UB, L1, L0A, L0B, L0C */

/* Occupancy of one buffer ("bytes holding data that is still to be read").  avg = byte_cycles /
 * core cycles.  Chip level: peak = max over cores, avg = mean over cores that have the buffer and
 * ran work.  present is false when no such core exists (all fields are then 0). */
typedef struct dv_occupancy {
    bool present;
    uint64_t capacity;
    uint64_t peak_bytes;
    double peak_pct; /* of capacity */
    double avg_bytes;
    double avg_pct;
} dv_occupancy_t;

/* Stall attribution of one pipe (dv/stall.def, docs/REPORT.md): of one core, or summed over the
 * cores that ran work and own the pipe.  window = their core cycles, busy = pipe_busy,
 * idle = window - busy; the IDLE causes add up to idle exactly, the HELD ones are cycles of busy. */
typedef struct dv_stall_report {
    bool present;                      /* a core that owns the pipe is counted */
    uint64_t window, busy, idle;
    uint64_t cause[DV_STALL_COUNT];
} dv_stall_report_t;

/* A row of the critical path: an opcode (or DV_CRIT_BLOCK_START) on a pipe, its cycles on the
 * path and its steps (instructions, or block starts, on the path). */
typedef struct dv_crit_row {
    int op;
    dv_pipe_t pipe;
    uint64_t cycles, count;
} dv_crit_row_t;

/* A row of the instruction hot-spot table (--instr-csv): an opcode on the pipe that ran it, over
 * all cores.  cycles: what its instructions kept their unit for (docs/REPORT.md). */
typedef struct dv_instr_row {
    int op;
    dv_pipe_t pipe;
    uint64_t count, cycles;
    double avg_cycles;                 /* cycles / count */
    double time_us;                    /* cycles / chip.freq_mhz */
} dv_instr_row_t;

/* One core, derived. */
typedef struct dv_core_report {
    const dv_core_counters_t *c;
    bool ran;                          /* executed at least one instruction */
    uint64_t cycles;                   /* last_cycle - first_cycle */
    bool has_pipe[DV_PIPE_COUNT];      /* the core's type owns the pipe on this profile (dv_topo_has_pipe) */
    double ratio[DV_PIPE_COUNT];       /* pipe_busy / cycles (0 when the pipe is absent) */
    dv_occupancy_t buf[DV_SPACE_COUNT];
    dv_stall_report_t stall[DV_PIPE_COUNT]; /* the pipes the core owns (present) */
} dv_core_report_t;

/* An operator run (dvsim op): its name and parameters as typed, the tiling it used (and why that
 * differs from the request), its useful work, and the --check outcome.  Optional in a report. */
#define DV_REPORT_MAX_PARAMS 24
#define DV_REPORT_MAX_TILING 16
typedef struct dv_report_op {
    char name[DV_NAME_MAX];
    int nparams;
    char key[DV_REPORT_MAX_PARAMS][32];
    char val[DV_REPORT_MAX_PARAMS][64];
    uint64_t flops;                    /* 0: not meaningful */
    uint64_t bytes;                    /* compulsory GM traffic */
    int ntiling;                       /* the tiling used, as the plan lists it (0: none listed) */
    char tiling_key[DV_REPORT_MAX_TILING][32];
    char tiling_val[DV_REPORT_MAX_TILING][48];
    char tiling_why[DV_REPORT_MAX_TILING][200]; /* "": as requested; else why it differs */
    bool checked;
    uint64_t compared, mismatches;
    double max_abs_err, max_rel_err;
} dv_report_op_t;

/* The derived report.  It points into cfg, info and counters, which must outlive it. */
typedef struct dv_report {
    const dv_config_t *cfg;
    const dv_kernel_info_t *info;
    const dv_counters_t *cnt;
    double time_us;                    /* cycles / chip.freq_mhz */
    dv_errband_t band;                 /* the run's kernel class and its calibration band (dv/errband.h) */
    uint32_t cores_ran;
    /* Kernel level, per pipe: sum of busy over the cores that ran work and own the pipe
     * (dv_topo_has_pipe), divided by the sum of their core cycles; 0 when no such core ran.
     * has_pipe: some core type of the profile owns the pipe (else the ratio is shown as absent). */
    bool has_pipe[DV_PIPE_COUNT];
    double ratio[DV_PIPE_COUNT];
    int bound_by;                      /* pipe with the highest kernel-level ratio; -1 if all are 0 */
    uint64_t stall_queue_full_cycles, stall_flag_cycles, stall_cross_cycles; /* sums over cores */
    uint64_t pipe_wait_cycles[DV_PIPE_COUNT]; /* the same waits by pipe, summed over cores */
    uint64_t bank_conflict_cycles;     /* sum over cores */
    /* Per pipe, summed over the cores that ran work and own it (present: some did). */
    dv_stall_report_t stall[DV_PIPE_COUNT];
    /* The critical path: crit_cycles (= cycles - chip.kernel_start_cycles), ending on core
     * crit_end_core (-1: none); its rows with cycles, by cycles descending (they add up to
     * crit_cycles). */
    uint64_t crit_cycles;
    int crit_end_core;
    int ncrit;
    dv_crit_row_t crit[DV_CRIT_OPS * DV_PIPE_COUNT];
    /* The instruction hot-spot table: every (opcode, pipe) that ran, by cycles descending. */
    int ninstr;
    dv_instr_row_t instr[DV_OP_COUNT * DV_PIPE_COUNT];
    dv_occupancy_t buf[DV_SPACE_COUNT];
    double gm_read_gb_per_s, gm_write_gb_per_s; /* achieved over the kernel's time */
    bool l2_accessed;                  /* hits + misses > 0 */
    double l2_hit_rate;                /* hits / (hits + misses); 0 when !l2_accessed */
    uint32_t ncores;
    dv_core_report_t *cores;           /* owned */
    const dv_report_op_t *op;          /* NULL unless an operator run: set by dv_report_set_op */
    double op_tflops;                  /* op->flops over time_us */
    double op_gb_per_s;                /* op->bytes over time_us */
} dv_report_t;

/* Derive every metric.  Fails only on allocation (or inconsistent input: NULL counters). */
int dv_report_derive(dv_report_t *r, const dv_config_t *cfg, const dv_kernel_info_t *info,
                     const dv_counters_t *cnt, dv_error_t *err);
void dv_report_free(dv_report_t *r);
/* Attach an operator run (op must outlive r) and derive its rates. */
void dv_report_set_op(dv_report_t *r, const dv_report_op_t *op);

/* Chip-level occupancy of buffer s over time: out[i] (DV_OCC_SLICES of them) = the mean over the
 * cores that ran work and own the buffer (those behind r->buf[s].avg_bytes) of their
 * series[i], the mean occupancy in bytes over slice i of the run's cycles (dv_buf_counters_t).
 * Summed over slices times cycles / DV_OCC_SLICES it gives the mean of their byte_cycles; no
 * slice exceeds r->buf[s].peak_bytes.  All 0 when no such core exists. */
void dv_report_buf_series(const dv_report_t *r, dv_space_t s, double *out /* DV_OCC_SLICES */);

/* The name of a critical-path row's opcode: its mnemonic, "block_start" or "issue". */
const char *dv_report_crit_op_name(int op);

/* The human-readable report (sections chip, cores, stalls, critical path, buffers, memory,
 * hazards). */
int dv_report_print(const dv_report_t *r, FILE *out);
/* The JSON report (docs/REPORT.md), with the profile echoed under "config". */
int dv_report_write_json(const dv_report_t *r, FILE *out);
/* The instruction hot-spot table as CSV (--instr-csv; docs/REPORT.md): a header, then r->instr. */
int dv_report_write_instr_csv(const dv_report_t *r, FILE *out);

/* Write s as a JSON string literal (with quotes). */
void dv_json_string(FILE *out, const char *s);

#ifdef __cplusplus
}
#endif
#endif
