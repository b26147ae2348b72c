/* dv/micro.h - microbenchmarks: the self-consistency check that the model does what the profile says.
 *
 * Each row of bench/micro.def runs small generated kernels (dvtrace text) on the model and derives one
 * figure from their cycle counts, usually by differencing two runs that differ only in the count of
 * the thing measured; the figure is compared with the profile parameter(s) the row isolates.
 * docs/MICRO.md (tools/gendoc micro) lists the rows, their methods and what is skipped. */
#ifndef DV_MICRO_H
#define DV_MICRO_H

#include <stdint.h>
#include <stdio.h>

#include "dv/error.h"
#include "dv/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One row of bench/micro.def. */
typedef struct dv_micro_spec {
    const char *name;      /* "vector.add.b16.rate" */
    const char *params;    /* the parameter(s) isolated: "a" or "a + b" */
    const char *method;    /* one line */
    unsigned tol_percent;  /* 0: the figure must equal the profile value */
} dv_micro_spec_t;

/* A parameter no kernel can isolate, and why. */
typedef struct dv_micro_skip {
    const char *params;    /* "section.key" or "section.*" */
    const char *reason;
} dv_micro_skip_t;

typedef enum dv_micro_status {
    DV_MICRO_PASS,         /* the figure equals the profile value (within the row's rounding / tolerance) */
    DV_MICRO_FAIL,         /* it does not, or a kernel failed to run (detail says which) */
    DV_MICRO_NA,           /* no kernel can observe it on this profile (detail says why) */
    DV_MICRO_NOT_RUN       /* not selected */
} dv_micro_status_t;

/* What one row found. */
typedef struct dv_micro_result {
    dv_micro_status_t status;
    uint64_t measured;     /* the figure; with measured_hi, the range of values consistent with the */
    uint64_t measured_hi;  /* cycle counts when the model's rounding cannot tell them apart */
    uint64_t expected;     /* the profile value, formed as the row says */
    char detail[320];
} dv_micro_result_t;

/* The rows, in table order. */
int dv_micro_count(void);
const dv_micro_spec_t *dv_micro_spec(int i);
/* The skipped parameters, in table order. */
int dv_micro_skip_count(void);
const dv_micro_skip_t *dv_micro_skip(int i);

/* The number of rows `only` selects (their names start with it; NULL selects every row). */
int dv_micro_selected(const char *only);

/* Run every row (or, when `only` is not NULL, the rows whose name starts with it) on cfg, in this
 * process, on a model of its own (built for cfg, destroyed before the call returns).  res holds
 * dv_micro_count() results.  Returns the number of failed rows, or a negative status when nothing
 * could run (err says why). */
int dv_micro_run(const dv_config_t *cfg, const char *only, dv_micro_result_t *res, dv_error_t *err);

/* Print the results as a table (rows not run are left out); returns the number of failed rows. */
int dv_micro_print(FILE *out, const dv_config_t *cfg, const dv_micro_result_t *res);

/* `dvsim micro`: run and print; returns the number of failed rows, or a negative status (err). */
int dv_micro_main(FILE *out, const dv_config_t *cfg, const char *only, dv_error_t *err);

/* docs/MICRO.md from the table. */
void dv_micro_doc(FILE *out);

#ifdef __cplusplus
}
#endif
#endif
