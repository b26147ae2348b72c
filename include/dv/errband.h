/* dv/errband.h - the error band of a time estimate (docs/FIDELITY.md, "Error band").
 *
 * A run is put in a kernel class by its own ratios (dv_kclass_of).  `make validate` runs every
 * calibration case of bench/calibration.def, classifies it with the same function and records its
 * class and signed error in bench/residuals.def (generated: `make validate UPDATE=1`), which is
 * compiled in as dv_residuals[].  The band of a class is the root mean square of its cases' errors
 * (dv_errband_of); a class with fewer than DV_ERRBAND_MIN_CASES cases has no band.  The report
 * (sim/report.c) and the profiler's op_summary.csv (acl/prof.c) print it. */
#ifndef DV_ERRBAND_H
#define DV_ERRBAND_H

#include <stdbool.h>
#include <stdint.h>

#include "dv/config.h"
#include "dv/isa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Kernel classes: X(enum suffix, name as printed). */
#define DV_KCLASSES(X) X(CUBE, "cube-bound") X(VECTOR, "vector-bound") X(SCALAR, "scalar-bound") \
    X(MEMORY, "memory-bound") X(LAUNCH, "launch-bound")

typedef enum dv_kclass {
#define DV_KCLASS_ENUM(id, name) DV_KCLASS_##id,
    DV_KCLASSES(DV_KCLASS_ENUM)
#undef DV_KCLASS_ENUM
    DV_KCLASS_COUNT
} dv_kclass_t;

/* A compute pipe (M, V) busy for at least this share of the core cycles makes its class. */
#define DV_KCLASS_COMPUTE_SHARE 0.5
/* A class needs this many calibration cases for a band. */
#define DV_ERRBAND_MIN_CASES 3

/* "cube-bound", ...; "?" out of range. */
const char *dv_kclass_name(dv_kclass_t c);
/* "CUBE", ... (the enum suffix, as bench/residuals.def spells the class); "?" out of range. */
const char *dv_kclass_id(dv_kclass_t c);

/* The fixed head of every kernel: chip.kernel_start_cycles + chip.block_start_cycles. */
uint64_t dv_kclass_start_cycles(const dv_config_t *cfg);

/* The class of a run of `cycles` (launch included) on profile cfg, from its kernel-level pipe
 * ratios (dv_report_t.ratio), first rule that holds:
 *   1. launch-bound: the start head (dv_kclass_start_cycles) is at least half of `cycles`;
 *   2. cube-bound / vector-bound: mac / vec ratio at least DV_KCLASS_COMPUTE_SHARE (the higher
 *      of the two when both are);
 *   3. the busiest pipe (first in pipe order on a tie): M cube-bound, V vector-bound, S
 *      scalar-bound, MTE1, MTE2, MTE3, FIX memory-bound; memory-bound when every ratio is 0. */
dv_kclass_t dv_kclass_of(const dv_config_t *cfg, uint64_t cycles, const double ratio[DV_PIPE_COUNT]);

/* A calibration residual: a case of bench/calibration.def, its class and its error
 * 100 * (simulated / measured - 1). */
typedef struct dv_residual {
    const char *id;
    dv_kclass_t cls;
    double error_pct;
} dv_residual_t;

/* bench/residuals.def, compiled in. */
extern const dv_residual_t dv_residuals[];
extern const int dv_nresiduals;

/* The band of a class. */
typedef struct dv_errband {
    dv_kclass_t cls;
    int cases;         /* residuals of the class */
    bool has_band;     /* cases >= DV_ERRBAND_MIN_CASES */
    double pct;        /* the band, +/- percent: root mean square of their error_pct (0 without a band) */
    double bias_pct;   /* their mean error_pct (signed; 0 when cases == 0) */
    double worst_pct;  /* their error_pct of the largest magnitude (0 when cases == 0) */
} dv_errband_t;

/* The band of class cls from the residuals table[0..n). */
dv_errband_t dv_errband_of(dv_kclass_t cls, const dv_residual_t *table, int n);

#ifdef __cplusplus
}
#endif
#endif
