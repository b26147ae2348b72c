/* bench/micro_internal.h - private to the microbenchmarks (bench/micro*.c): the context a run of
 * dv_micro_run keeps, the outcome of a measurement, and the harness (bench/micro_harness.c) the rows
 * (bench/micro_core.c, bench/micro_memory.c) build their kernels and figures with.
 *
 * Notation in the comments: T(K) is the cycle count of kernel K; mask is a kernel of one
 * set_vector_mask (one scalar issue, nothing else); occ(C) is the number of cycles instruction C
 * holds its pipe, measured as T(C; C') - T(C) where C' is a second C (on fresh GM lines when it
 * touches GM): C' starts when C frees the pipe and completes occ(C') + latency later. */
#ifndef DV_MICRO_INTERNAL_H
#define DV_MICRO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dv/config.h"
#include "dv/intmath.h"
#include "dv/isa.h"
#include "dv/micro.h"
#include "dv/model.h"

/* ---------------------------------------------------------------- the table */

typedef enum { MX_SUM, MX_HBM } row_expect_t;

/* The argument of the gm rows: which figure of the GM read path (or, + MX_GM_WRITE, write path). */
enum { MX_GM_RATE, MX_GM_BURST, MX_GM_UOP, MX_GM_ISSUE, MX_GM_LATENCY, MX_GM_WRITE = 8 };

typedef struct micro_ctx micro_ctx_t;
typedef void (*row_fn)(micro_ctx_t *c, int arg, dv_micro_result_t *r);

#define DV_MICRO(name, fn, arg, expect, tol, params, method) void mb_##fn(micro_ctx_t *, int, dv_micro_result_t *);
#include "micro.def"

/* ---------------------------------------------------------------- kernel text */

typedef struct text {
    char *s;
    size_t n, cap;
    bool oom;
} text_t;

/* ---------------------------------------------------------------- the context */

enum { MS_OK, MS_NA, MS_FAIL };

/* A memoised study: run once, then its outcome (and why, when not MS_OK) is reused. */
typedef struct outcome {
    bool done;
    int rc;
    char why[240];
} outcome_t;

/* A vector class at one element width. */
typedef struct vector_study {
    outcome_t m;
    char insn[512];        /* the instruction as measured (repeat 0; l0c: 255 repeats) */
    uint64_t lo, hi;       /* rates consistent with the occupancies */
    uint64_t lat;          /* latency + pipeline */
    char how[200];
} vector_study_t;

/* A GM path (reads or writes): what the engine rows derive. */
typedef struct gm_study {
    outcome_t m;
    bool l1;               /* reads: GM -> L1 on the cube-capable core; else GM -> UB */
    uint64_t rate;         /* bytes per cycle of the engine */
    uint64_t open;         /* burst overhead, bytes */
    uint64_t uop;          /* minimum cycles per micro-op */
    uint64_t issue;
    uint64_t lat_miss, lat_hit;
    uint64_t miss_extra;   /* reads: T(one burst on fresh lines) - T(the same in L2) */
    bool have_hit;
    bool uop_hidden;       /* reads: the shortest bursts' requests in flight outlast the engine */
    char how_rate[160], how_burst[160], how_uop[160], how_issue[160], how_lat[160], how_miss[160];
} gm_study_t;

struct micro_ctx {
    dv_config_t cfg;
    dv_model_t *model;     /* every kernel of one dv_micro_run runs on it */
    uint64_t next_base;
    unsigned nvec;         /* vector-capable cores */
    dv_error_t err;
    text_t k, b;           /* scratch: kernel text, body text */
    outcome_t mask_m[2];
    uint64_t mask_t[2];    /* T(mask) on a vector / cube core */
    outcome_t start_m;
    uint64_t ks, bs;
    char start_how[160];
    vector_study_t vec[DV_VC_COUNT][2];
    gm_study_t rd, wr;
    outcome_t mte1_m[3];      /* L0A, L0B, L0B transposing (load_cbuf_to_cb_transpose) */
    uint64_t mte1_lo[3], mte1_hi[3], mte1_occ1[3];
    char mte1_how[3][200];
    outcome_t fix_m;
    uint64_t fix_rate, fix_issue, fix_lat;
    char fix_how[3][160];
};

#define REGION (1ull << 26) /* GM address space per run: every run gets fresh lines */

static inline unsigned long long ull(uint64_t v) { return (unsigned long long)v; }

/* What one run counted. */
typedef struct run_counts {
    uint64_t cycles;
    uint64_t conflicts;    /* UB bank-conflict cycles, all cores */
    uint64_t qstall;       /* scalar queue-full stall cycles, all cores */
    uint64_t hbm_wr;       /* HBM write bytes */
    uint64_t same_addr;    /* reads bypassing L2 that queued behind another core's at one address */
    uint64_t finish_sum;   /* sum over the cores that ran a block of their last cycle */
    unsigned finish_n;     /* how many cores that is */
} run_counts_t;

/* Record why a measurement is not possible (NA) or went wrong (FAIL) in outcome m; both give its rc. */
#define NA(m, ...) ((m)->rc = micro_format_reason((m)->why, sizeof (m)->why, MS_NA, __VA_ARGS__))
#define FAIL(m, ...) ((m)->rc = micro_format_reason((m)->why, sizeof (m)->why, MS_FAIL, __VA_ARGS__))

/* One scalar issue and nothing else: the kernel T(mask) times. */
#define MASK "set_vector_mask hi=0xffffffffffffffff lo=0xffffffffffffffff\n"

/* ---------------------------------------------------------------- the harness (micro_harness.c) */

/* Append printf-formatted text (on allocation failure the text is marked oom; the run then fails). */
void micro_text_add(text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void micro_text_clear(text_t *t);

/* A device address with `bytes` of lines no earlier run touched (every run gets fresh lines). */
uint64_t micro_fresh_region(micro_ctx_t *c, uint64_t bytes);
uint64_t micro_fresh_base(micro_ctx_t *c);
/* Format why into why[n] and return rc (NA and FAIL above use it). */
int micro_format_reason(char *why, size_t n, int rc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Run the kernel text in c->k with its GM arguments from device address base. */
int micro_run_text(micro_ctx_t *c, uint64_t base, run_counts_t *out);
/* Start c->k with a kernel header: one GM argument x of `bytes` bytes when bytes > 0. */
void micro_kernel_header(micro_ctx_t *c, const char *kind, unsigned blocks, uint64_t bytes);
/* Run a one-block kernel whose body is c->b, from `base` (0: fresh lines). */
int micro_run_body(micro_ctx_t *c, bool cube, uint64_t bytes, uint64_t base, run_counts_t *out);
/* T of a one-block kernel of the formatted body; on failure m says why. */
int micro_time_body(micro_ctx_t *c, outcome_t *m, bool cube, uint64_t bytes, uint64_t base, uint64_t *t,
                    const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* T(mask) on a vector (cube = 0) or cube (1) core, measured once. */
int micro_time_mask(micro_ctx_t *c, bool cube, uint64_t *t, outcome_t *why);

/* Copy a study's outcome into a row; true when the row can go on. */
bool micro_usable(const outcome_t *m, dv_micro_result_t *r);
/* A measured figure: [lo, hi] (one value when lo == hi); dv_micro_run compares it. */
void micro_figure(dv_micro_result_t *r, uint64_t lo, uint64_t hi, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The row is not observable on this profile, and why. */
void micro_row_na(dv_micro_result_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* MS_OK when an occupancy `occ` of `what` shows above the scalar issue, else NA in m. */
int micro_occ_seen(micro_ctx_t *c, outcome_t *m, uint64_t occ, const char *what);
/* A latency T(C) - T(mask) - occ(C) as the row's figure, or a failure when the cycles do not allow one. */
void micro_latency_figure(dv_micro_result_t *r, uint64_t t, uint64_t tm, uint64_t occ, const char *what);
/* The integer rates b with ceil(x[i] / b) == cyc[i] for every i: [lo, hi] (hi = UINT64_MAX when
 * unbounded, lo > hi when no rate fits). */
void micro_rate_range(const uint64_t *x, const uint64_t *cyc, int n, uint64_t *lo, uint64_t *hi);
/* (a + b/2) / b: a ratio of two large measured differences, rounded to the nearest integer. */
uint64_t micro_ratio(uint64_t a, uint64_t b);

#endif
