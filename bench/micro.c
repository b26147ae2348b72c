/* bench/micro.c - the microbenchmarks of bench/micro.def (include/dv/micro.h).
 *
 * Every row builds small dvtrace kernels, runs them on the model (timing only, no hazard checks) and
 * derives its figure from their cycle counts.  The profile is read for two things only: to size the
 * kernels so that they fit and isolate what they measure, and, in dv_micro_run, to form the value the
 * figure is compared with.  Measurements that several rows share (the GM read and write paths, the
 * vector classes, ...) are studies run once per dv_micro_run and kept in the context.
 *
 * Notation in the comments: T(K) is the cycle count of kernel K; mask is a kernel of one
 * set_vector_mask (one scalar issue, nothing else); occ(C) is the number of cycles instruction C
 * holds its pipe, measured as T(C; C') - T(C) where C' is a second C (on fresh GM lines when it
 * touches GM): C' starts when C frees the pipe and completes occ(C') + latency later. */
#include "dv/micro.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dv/isa.h"
#include "dv/model.h"
#include "dv/sim.h"
#include "dv/topology.h"
#include "dv/trace.h"

/* ================================================================ the table */

typedef enum { MX_SUM, MX_HBM } mx_expect_t;

/* The argument of the gm rows: which figure of the GM read path (or, + MX_GM_WRITE, write path). */
enum { MX_GM_RATE, MX_GM_BURST, MX_GM_UOP, MX_GM_ISSUE, MX_GM_LATENCY, MX_GM_WRITE = 8 };

static const dv_micro_spec_t specs[] = {
#define DV_MICRO(name, fn, arg, expect, tol, params, method) {name, params, method, tol},
#include "micro.def"
};

static const dv_micro_skip_t skips[] = {
#define DV_MICRO_SKIP(params, reason) {params, reason},
#include "micro.def"
};

typedef struct mctx mctx_t;
typedef void (*mb_fn)(mctx_t *c, int arg, dv_micro_result_t *r);

#define DV_MICRO(name, fn, arg, expect, tol, params, method) static void mb_##fn(mctx_t *, int, dv_micro_result_t *);
#include "micro.def"

static const struct {
    mb_fn fn;
    int arg;
    mx_expect_t expect;
} rows[] = {
#define DV_MICRO(name, fn, arg, expect, tol, params, method) {mb_##fn, arg, MX_##expect},
#include "micro.def"
};

#define NROWS ((int)(sizeof specs / sizeof specs[0]))
#define NSKIPS ((int)(sizeof skips / sizeof skips[0]))

int dv_micro_count(void) { return NROWS; }
const dv_micro_spec_t *dv_micro_spec(int i) { return i >= 0 && i < NROWS ? &specs[i] : NULL; }
int dv_micro_skip_count(void) { return NSKIPS; }
const dv_micro_skip_t *dv_micro_skip(int i) { return i >= 0 && i < NSKIPS ? &skips[i] : NULL; }

/* ================================================================ kernel text */

typedef struct text {
    char *s;
    size_t n, cap;
    bool oom;
} text_t;

static void tx(text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tx(text_t *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = t->cap - t->n;
        va_start(ap, fmt);
        int k = t->s ? vsnprintf(t->s + t->n, room, fmt, ap) : -1;
        va_end(ap);
        if (k >= 0 && (size_t)k < room) {
            t->n += (size_t)k;
            return;
        }
        size_t cap = t->cap ? t->cap * 2 : 4096;
        while (k >= 0 && cap - t->n <= (size_t)k)
            cap *= 2;
        char *s = realloc(t->s, cap);
        if (!s) {
            t->oom = true;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
}

static void tx_clear(text_t *t)
{
    t->n = 0;
    if (t->s)
        t->s[0] = '\0';
}

/* ================================================================ context */

enum { MS_OK, MS_NA, MS_FAIL };

/* A memoised study: run once, then its outcome (and why, when not MS_OK) is reused. */
typedef struct memo {
    bool done;
    int rc;
    char why[240];
} memo_t;

/* A vector class at one element width. */
typedef struct vstudy {
    memo_t m;
    char insn[512];        /* the instruction as measured (repeat 0; l0c: 255 repeats) */
    uint64_t lo, hi;       /* rates consistent with the occupancies */
    uint64_t lat;          /* latency + pipeline */
    char how[200];
} vstudy_t;

/* A GM path (reads or writes): what the engine rows derive. */
typedef struct gmstudy {
    memo_t m;
    bool l1;               /* reads: GM -> L1 on the cube-capable core; else GM -> UB */
    uint64_t rate;         /* bytes per cycle of the engine */
    uint64_t open;         /* burst overhead, bytes */
    uint64_t uop;          /* minimum cycles per micro-op */
    uint64_t issue;
    uint64_t lat_miss, lat_hit;
    bool have_hit;
    char how_rate[160], how_burst[160], how_uop[160], how_issue[160], how_lat[160];
} gmstudy_t;

struct mctx {
    dv_config_t cfg;
    dv_model_t *model;     /* every kernel of one dv_micro_run runs on it */
    uint64_t next_base;
    unsigned nvec;         /* vector-capable cores */
    dv_error_t err;
    text_t k, b;           /* scratch: kernel text, body text */
    memo_t mask_m[2];
    uint64_t mask_t[2];    /* T(mask) on a vector / cube core */
    memo_t start_m;
    uint64_t ks, bs;
    char start_how[160];
    vstudy_t vec[DV_VC_COUNT][2];
    gmstudy_t rd, wr;
    memo_t mte1_m[2];      /* L0A, L0B */
    uint64_t mte1_lo[2], mte1_hi[2], mte1_occ1[2];
    char mte1_how[2][200];
    memo_t fix_m;
    uint64_t fix_rate, fix_issue, fix_lat;
    char fix_how[3][160];
};

#define REGION (1ull << 26) /* GM address space per run: every run gets fresh lines */

static uint64_t fresh_n(mctx_t *c, uint64_t bytes)
{
    const uint64_t b = c->next_base;
    c->next_base += (bytes / REGION + 1) * REGION;
    return b;
}

static uint64_t fresh(mctx_t *c) { return fresh_n(c, 0); }

static uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static unsigned long long ull(uint64_t v) { return (unsigned long long)v; }

static int say(char *why, size_t n, int rc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int say(char *why, size_t n, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return rc;
}
/* Record why a measurement is not possible (NA) or went wrong (FAIL) in memo m; both give its rc. */
#define NA(m, ...) ((m)->rc = say((m)->why, sizeof (m)->why, MS_NA, __VA_ARGS__))
#define FAIL(m, ...) ((m)->rc = say((m)->why, sizeof (m)->why, MS_FAIL, __VA_ARGS__))

/* What one run counted. */
typedef struct mrun {
    uint64_t cycles;
    uint64_t conflicts;    /* UB bank-conflict cycles, all cores */
    uint64_t qstall;       /* scalar queue-full stall cycles, all cores */
    uint64_t hbm_wr;       /* HBM write bytes */
    uint64_t finish_sum;   /* sum over the cores that ran a block of their last cycle */
    unsigned finish_n;     /* how many cores that is */
} mrun_t;

/* Run the kernel text in c->k with its GM arguments from device address base. */
static int exec(mctx_t *c, uint64_t base, mrun_t *out)
{
    dv_kernel_t *k = NULL;
    dv_gm_t gm;
    dv_counters_t cnt;
    dv_run_opts_t o;
    int rc;

    memset(&gm, 0, sizeof gm);
    memset(out, 0, sizeof *out);
    if (c->k.oom) {
        rc = dv_error_set(&c->err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory for a kernel text");
        goto cleanup;
    }
    if ((rc = dv_trace_open_string(c->k.s, "micro", &k, &c->err)) != DV_OK)
        goto cleanup;
    if ((rc = dv_sim_gm_setup(&c->cfg, &k->info, false, "micro", base, &gm, &c->err)) != DV_OK)
        goto cleanup;
    dv_run_opts_default(&o);
    o.data = false;
    o.hazards = false;
    if ((rc = dv_model_run(c->model, k, &gm, &o, &cnt, &c->err)) != DV_OK)
        goto cleanup;
    out->cycles = cnt.cycles;
    out->hbm_wr = cnt.hbm_write_bytes;
    for (uint32_t i = 0; i < cnt.ncores; i++) {
        out->conflicts += cnt.cores[i].bank_conflict_cycles;
        out->qstall += cnt.cores[i].stall_queue_full_cycles;
        if (cnt.cores[i].blocks) {
            out->finish_sum += cnt.cores[i].last_cycle;
            out->finish_n++;
        }
    }
    dv_counters_free(&cnt);
cleanup:
    dv_sim_gm_free(&gm);
    if (k)
        dv_trace_close(k);
    return rc;
}

/* Kernel header: one GM argument x of `bytes` bytes when bytes > 0. */
static void head(mctx_t *c, const char *kind, unsigned blocks, uint64_t bytes)
{
    tx_clear(&c->k);
    tx(&c->k, "dvtrace 1\nkernel micro kind=%s blocks=%u\n", kind, blocks);
    if (bytes)
        tx(&c->k, "arg x bytes=%llu dtype=u8 dir=inout\n", ull(bytes));
}

/* Run a one-block kernel whose body is c->b, from `base` (0: fresh lines). */
static int run_body(mctx_t *c, bool cube, uint64_t bytes, uint64_t base, mrun_t *out)
{
    head(c, cube ? "cube" : "vector", 1, bytes);
    tx(&c->k, "block 0\n%s", c->b.s ? c->b.s : "");
    tx(&c->k, "end\n");
    if (c->b.oom)
        c->k.oom = true;
    return exec(c, base ? base : fresh(c), out);
}

/* T of a one-block kernel of the formatted body; on failure m says why. */
static int tk(mctx_t *c, memo_t *m, bool cube, uint64_t bytes, uint64_t base, uint64_t *t, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
static int tk(mctx_t *c, memo_t *m, bool cube, uint64_t bytes, uint64_t base, uint64_t *t, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    tx_clear(&c->b);
    tx(&c->b, "%s", line);
    mrun_t r;
    if (run_body(c, cube, bytes, base, &r) != DV_OK)
        return FAIL(m, "kernel failed: %s [%.*s]", c->err.msg, (int)strcspn(line, "\n"), line);
    *t = r.cycles;
    return MS_OK;
}

#define MASK "set_vector_mask hi=0xffffffffffffffff lo=0xffffffffffffffff\n"

/* T(mask) on a vector (cube = 0) or cube (1) core. */
static int t_mask(mctx_t *c, bool cube, uint64_t *t, memo_t *why)
{
    memo_t *m = &c->mask_m[cube];
    if (!m->done) {
        m->done = true;
        m->rc = tk(c, m, cube, 0, 0, &c->mask_t[cube], MASK);
    }
    if (m->rc != MS_OK) {
        *why = *m;
        return m->rc;
    }
    *t = c->mask_t[cube];
    return MS_OK;
}

/* Copy a study's outcome into a row; true when the row can go on. */
static bool usable(const memo_t *m, dv_micro_result_t *r)
{
    if (m->rc == MS_OK)
        return true;
    r->status = m->rc == MS_NA ? DV_MICRO_NA : DV_MICRO_FAIL;
    snprintf(r->detail, sizeof r->detail, "%s", m->why);
    return false;
}

/* A measured figure: [lo, hi] (one value when lo == hi); dv_micro_run compares it. */
static void figure(dv_micro_result_t *r, uint64_t lo, uint64_t hi, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void figure(dv_micro_result_t *r, uint64_t lo, uint64_t hi, const char *fmt, ...)
{
    va_list ap;
    r->status = DV_MICRO_PASS;
    r->measured = lo;
    r->measured_hi = hi;
    va_start(ap, fmt);
    vsnprintf(r->detail, sizeof r->detail, fmt, ap);
    va_end(ap);
}

static void row_na(dv_micro_result_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void row_na(dv_micro_result_t *r, const char *fmt, ...)
{
    va_list ap;
    r->status = DV_MICRO_NA;
    va_start(ap, fmt);
    vsnprintf(r->detail, sizeof r->detail, fmt, ap);
    va_end(ap);
}

/* occ(C) measured as T(C; C') - T(C) is C's occupancy only when the scalar unit issues C' before C
 * frees its pipe, that is when the difference exceeds scalar.issue_cycles; otherwise the issue rate
 * hides it (NA). */
static int occ_seen(mctx_t *c, memo_t *m, uint64_t occ, const char *what)
{
    if (occ > c->cfg.scalar_issue_cycles)
        return MS_OK;
    return NA(m, "the scalar unit's issue (scalar.issue_cycles = %llu) hides the occupancy of %s (%llu cycles seen)",
              ull(c->cfg.scalar_issue_cycles), what, ull(occ));
}

/* A latency T(C) - T(mask) - occ(C) as the row's figure, or a failure when the cycles do not allow
 * one (a kernel faster than its parts). */
static void latency_figure(dv_micro_result_t *r, uint64_t t, uint64_t tm, uint64_t occ, const char *what)
{
    if (t < tm + occ) {
        r->status = DV_MICRO_FAIL;
        snprintf(r->detail, sizeof r->detail, "T(%s) = %llu is below T(mask) = %llu + occ = %llu", what, ull(t), ull(tm),
                 ull(occ));
        return;
    }
    figure(r, t - tm - occ, t - tm - occ, "T(%s) = %llu, T(mask) = %llu, occ = %llu", what, ull(t), ull(tm), ull(occ));
}

/* The integer rates b with ceil(x[i] / b) == cyc[i] for every i: [lo, hi] (hi = UINT64_MAX when
 * unbounded, lo > hi when no rate fits). */
static void rate_range(const uint64_t *x, const uint64_t *cyc, int n, uint64_t *lo, uint64_t *hi)
{
    *lo = 1;
    *hi = UINT64_MAX;
    for (int i = 0; i < n; i++) {
        if (cyc[i] == 0) {
            *lo = 1;
            *hi = 0;
            return;
        }
        *lo = max64(*lo, cdiv(x[i], cyc[i]));
        if (cyc[i] > 1)
            *hi = min64(*hi, cdiv(x[i], cyc[i] - 1) - 1);
    }
}

/* (a + b/2) / b: a ratio of two large measured differences, rounded to the nearest integer. */
static uint64_t ratio(uint64_t a, uint64_t b) { return b ? (a + b / 2) / b : 0; }

/* ================================================================ launch, scalar, sync */

static int study_start(mctx_t *c)
{
    memo_t *m = &c->start_m;
    if (m->done)
        return m->rc;
    m->done = true;
    mrun_t r1, r2;
    head(c, "vector", 1, 0);
    tx(&c->k, "block 0\nend\n");
    if (exec(c, fresh(c), &r1) != DV_OK)
        return FAIL(m, "empty kernel failed: %s", c->err.msg);
    head(c, "vector", c->nvec + 1, 0);
    for (unsigned b = 0; b <= c->nvec; b++)
        tx(&c->k, "block %u\n", b);
    tx(&c->k, "end\n");
    if (exec(c, fresh(c), &r2) != DV_OK)
        return FAIL(m, "empty kernel of %u blocks failed: %s", c->nvec + 1, c->err.msg);
    if (r2.cycles < r1.cycles || r1.cycles < r2.cycles - r1.cycles)
        return FAIL(m, "T(1 block) = %llu, T(%u blocks) = %llu: not one more block start", ull(r1.cycles),
                    c->nvec + 1, ull(r2.cycles));
    c->bs = r2.cycles - r1.cycles;
    c->ks = r1.cycles - c->bs;
    snprintf(c->start_how, sizeof c->start_how, "T(1 block) = %llu, T(%u blocks) = %llu", ull(r1.cycles),
             c->nvec + 1, ull(r2.cycles));
    return m->rc = MS_OK;
}

static void mb_block_start(mctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    study_start(c);
    if (usable(&c->start_m, r))
        figure(r, c->bs, c->bs, "%s", c->start_how);
}

static void mb_kernel_start(mctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    study_start(c);
    if (usable(&c->start_m, r))
        figure(r, c->ks, c->ks, "%s; T(1 block) - %llu", c->start_how, ull(c->bs));
}

static void mb_scalar_issue(mctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    memo_t m = {0};
    uint64_t t1, t65;
    if (tk(c, &m, false, 0, 0, &t1, MASK) != MS_OK)
        goto fail;
    tx_clear(&c->b);
    for (int i = 0; i < 65; i++)
        tx(&c->b, MASK);
    mrun_t rr;
    if (run_body(c, false, 0, 0, &rr) != DV_OK) {
        FAIL(&m, "kernel failed: %s", c->err.msg);
        goto fail;
    }
    t65 = rr.cycles;
    if (t65 < t1 || (t65 - t1) % 64) {
        FAIL(&m, "T(65) - T(1) = %lld is not a multiple of 64", (long long)(t65 - t1));
        goto fail;
    }
    figure(r, (t65 - t1) / 64, (t65 - t1) / 64, "T(1) = %llu, T(65) = %llu", ull(t1), ull(t65));
    return;
fail:
    usable(&m, r);
}

/* The vector instruction of a flag round trip. */
static const char *const vop = "vadds dst=ub:0x200 src=ub:0x0 dtype=f16 scalar=1 repeat=1\n";

/* N flag round trips S -> V -> S around a vadds (flags), or the same with the flags replaced. */
static int flag_rounds(mctx_t *c, memo_t *m, unsigned n, bool flags, uint64_t *t)
{
    tx_clear(&c->b);
    for (unsigned i = 0; i < n; i++) {
        if (flags)
            tx(&c->b, "wait_flag src=S dst=V id=0\n%sset_flag src=V dst=S id=0\nset_flag src=S dst=V id=0\n"
                      "wait_flag src=V dst=S id=0\n", vop);
        else /* the vadds issued third: it starts one hop earlier than in the flag version; a barrier waits */
            tx(&c->b, MASK MASK "%s" MASK "pipe_barrier pipe=ALL\n", vop);
    }
    mrun_t rr;
    if (run_body(c, false, 0, 0, &rr) != DV_OK)
        return FAIL(m, "kernel failed: %s", c->err.msg);
    *t = rr.cycles;
    return MS_OK;
}

typedef int (*rounds_fn)(mctx_t *c, memo_t *m, unsigned n, bool flags, uint64_t *t);

/* A flag latency from round trips of two hops each: the difference between lo and hi round trips,
 * minus the same difference of the control kernels, over the hops it adds. */
static void rounds_figure(mctx_t *c, dv_micro_result_t *r, rounds_fn fn, unsigned lo, unsigned hi)
{
    memo_t m = {0};
    uint64_t f1 = 0, f2 = 0, c1 = 0, c2 = 0;
    if (fn(c, &m, lo, true, &f1) || fn(c, &m, hi, true, &f2) || fn(c, &m, lo, false, &c1) ||
        fn(c, &m, hi, false, &c2)) {
        usable(&m, r);
        return;
    }
    const unsigned hops = 2 * (hi - lo);
    const long long d = (long long)(f2 - f1) - (long long)(c2 - c1);
    if (d < 0 || d % hops) {
        FAIL(&m, "round trips %llu, %llu; control %llu, %llu: difference %lld is not %u hops' worth", ull(f1), ull(f2),
             ull(c1), ull(c2), d, hops);
        usable(&m, r);
        return;
    }
    figure(r, (uint64_t)d / hops, (uint64_t)d / hops, "T(%u, %u round trips) = %llu, %llu; control %llu, %llu", lo, hi,
           ull(f1), ull(f2), ull(c1), ull(c2));
}

static void mb_flag_latency(mctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    /* the control takes the flags' hops out only while the vadds outlasts one scalar issue */
    memo_t m = {0};
    uint64_t tm, tv;
    if (t_mask(c, false, &tm, &m) != MS_OK ||
        tk(c, &m, false, 0, 0, &tv, "%s", vop) != MS_OK) {
        usable(&m, r);
        return;
    }
    if (tv < tm + c->cfg.scalar_issue_cycles) {
        row_na(r, "the vadds of a round trip (%llu cycles) is shorter than one scalar issue (scalar.issue_cycles = %llu)",
               ull(tv - tm), ull(c->cfg.scalar_issue_cycles));
        return;
    }
    rounds_figure(c, r, flag_rounds, 1, 9);
}

/* A mix kernel of n cross-core round trips AIC -> AIVs -> AIC, or the control. */
static int cross_rounds(mctx_t *c, memo_t *m, unsigned n, bool flags, uint64_t *t)
{
    head(c, "mix", 1, 0);
    tx(&c->k, "block 0 aic\n");
    for (unsigned i = 0; i < n; i++)
        tx(&c->k, flags ? "set_cross_flag pipe=S mode=2 id=0\nwait_cross_flag pipe=S id=1\n" : MASK MASK);
    for (uint32_t sub = DV_SUB_AIV0; sub < dv_topo_kernel_subs(&c->cfg, DV_KIND_MIX); sub++) {
        char name[16];
        tx(&c->k, "block 0 %s\n", dv_topo_sub_name(sub, name, sizeof name));
        for (unsigned i = 0; i < n; i++)
            tx(&c->k, flags ? "wait_cross_flag pipe=S id=0\nset_cross_flag pipe=S mode=2 id=1\n" : MASK MASK);
    }
    tx(&c->k, "end\n");
    mrun_t rr;
    if (exec(c, fresh(c), &rr) != DV_OK)
        return FAIL(m, "mix kernel failed: %s", c->err.msg);
    *t = rr.cycles;
    return MS_OK;
}

static void mb_cross_latency(mctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    if (dv_topo_kernel_subs(&c->cfg, DV_KIND_MIX) == 0 || c->cfg.sync_cross_flag_ids < 2) {
        row_na(r, "cross-core flags need a split chip (AIC + AIVs) and 2 flag ids");
        return;
    }
    rounds_figure(c, r, cross_rounds, 1, 5);
}

/* ================================================================ queues */

/* Whether K back-to-back slow instructions on pipe p stall the scalar unit (queue full), and the
 * kernel's cycles. */
static int queue_stalls(mctx_t *c, memo_t *m, dv_pipe_t p, unsigned k, bool *stall, uint64_t *t)
{
    char line[256];
    bool cube = false;
    uint64_t bytes = 0;
    const dv_config_t *g = &c->cfg;
    switch (p) {
    case DV_PIPE_V:
        snprintf(line, sizeof line, "vdiv dst=ub:0x200 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=255\n");
        break;
    case DV_PIPE_M:
        snprintf(line, sizeof line, "mmad c=l0c:0x0 a=l0a:0x0 b=l0b:0x0 dtype=f32 m=64 k=128 n=64 init=1\n");
        cube = true;
        break;
    case DV_PIPE_MTE1:
        snprintf(line, sizeof line, "load_cbuf_to_ca dst=l0a:0x0 src=l1:0x0 dtype=f16 repeat=%llu\n",
                 ull(min64(255, g->l0a_size_bytes / 512)));
        cube = true;
        break;
    case DV_PIPE_MTE2:
        snprintf(line, sizeof line, "copy_gm_to_ubuf dst=ub:0x0 src=x+0x0 nburst=1 len=2048\n");
        bytes = 65536;
        break;
    case DV_PIPE_MTE3:
        snprintf(line, sizeof line, "copy_ubuf_to_gm dst=x+0x0 src=ub:0x0 nburst=1 len=2048\n");
        bytes = 65536;
        break;
    default:
        snprintf(line, sizeof line,
                 "copy_matrix_cc_to_cbuf dst=l1:0x0 src=l0c:0x0 n_size=16 m_size=1024 src_stride=1024 dst_stride=16\n");
        cube = true;
        break;
    }
    tx_clear(&c->b);
    for (unsigned i = 0; i < k; i++)
        tx(&c->b, "%s", line);
    mrun_t rr;
    if (run_body(c, cube, bytes, 0, &rr) != DV_OK)
        return FAIL(m, "%u x %.60s failed: %s", k, line, c->err.msg);
    *stall = rr.qstall > 0;
    *t = rr.cycles;
    return MS_OK;
}

static void mb_queue_depth(mctx_t *c, int arg, dv_micro_result_t *r)
{
    const dv_pipe_t p = (dv_pipe_t)arg;
    const dv_config_t *g = &c->cfg;
    if (p == DV_PIPE_FIX && !g->chip_has_fix_pipe) {
        row_na(r, "no FIX pipe on this chip");
        return;
    }
    if ((p == DV_PIPE_M || p == DV_PIPE_MTE1) && g->l0a_size_bytes < 32768) {
        row_na(r, "L0A too small for the slow instruction");
        return;
    }
    memo_t m = {0};
    bool stall, stall2;
    uint64_t t1, t2, t;
    unsigned lo = 1, hi = 1026; /* K = depth + 1 never stalls, depth + 2 does (depth <= 1024) */
    if (queue_stalls(c, &m, p, lo, &stall, &t1) != MS_OK || queue_stalls(c, &m, p, 2, &stall2, &t2) != MS_OK)
        goto fail;
    if (stall) {
        FAIL(&m, "one instruction already stalls the scalar unit");
        goto fail;
    }
    /* The queue fills only while the first instruction holds the pipe: the scalar unit must issue
     * depth + 2 of them within its occupancy occ = T(2) - T(1). */
    const uint64_t depth = p == DV_PIPE_V ? g->queue_v_depth : p == DV_PIPE_M ? g->queue_m_depth
                         : p == DV_PIPE_MTE1 ? g->queue_mte1_depth : p == DV_PIPE_MTE2 ? g->queue_mte2_depth
                         : p == DV_PIPE_MTE3 ? g->queue_mte3_depth : g->queue_fix_depth;
    if (t2 <= t1 || t2 - t1 <= (depth + 2) * (g->scalar_issue_cycles ? g->scalar_issue_cycles : 1)) {
        row_na(r, "the slow %s instruction holds its pipe %lld cycles, too few for the scalar unit to fill a queue "
               "of %llu", dv_pipe_name(p), (long long)(t2 - t1), ull(depth));
        return;
    }
    if (queue_stalls(c, &m, p, hi, &stall, &t) != MS_OK)
        goto fail;
    if (!stall) {
        FAIL(&m, "%u instructions do not stall the scalar unit", hi);
        goto fail;
    }
    while (hi - lo > 1) {
        const unsigned mid = lo + (hi - lo) / 2;
        if (queue_stalls(c, &m, p, mid, &stall, &t) != MS_OK)
            goto fail;
        *(stall ? &hi : &lo) = mid;
    }
    figure(r, lo - 1, lo - 1, "%u %s instructions issue without a stall, %u stall", lo, dv_pipe_name(p), hi);
    return;
fail:
    usable(&m, r);
}

/* ================================================================ vector classes */

static void setf(dv_insn_t *in, const char *name, int64_t v)
{
    const int k = dv_field_index((dv_op_t)in->op, name);
    if (k >= 0)
        in->f[k].i = v;
}

static void seta(dv_insn_t *in, const char *name, uint64_t off)
{
    const int k = dv_field_index((dv_op_t)in->op, name);
    if (k >= 0)
        in->f[k].u = DV_ADDR(DV_SPACE_UB, off);
}

/* The first instruction of vector class vc that takes a repeat count and elements of `width` bytes
 * (the widest element decides the rate), as canonical text at repeat R.  Operands as in
 * tests/check_timing.c: src0 at row 0, src1 at row 8, dst at row 16, each moving 8 rows per repeat,
 * so no two rows of one repeat meet in a bank group; reductions re-read rows 0..7. */
static bool vec_text(const dv_config_t *cfg, int vc, unsigned width, unsigned R, char *out, size_t cap)
{
    static const dv_dtype_t pref16[] = {DV_DT_F16, DV_DT_BF16, DV_DT_S16, DV_DT_U16};
    static const dv_dtype_t pref32[] = {DV_DT_F32, DV_DT_S32, DV_DT_U32};
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const dv_op_spec_t *os = dv_op_spec((dv_op_t)op);
        if (os->pipe != DV_PIPE_V || (int)os->cost != DV_COST_V_ADD + vc || dv_field_index((dv_op_t)op, "repeat") < 0)
            continue;
        dv_dtype_t src = DV_DT_COUNT, dst = DV_DT_COUNT;
        if (os->form == DV_FORM_VCONV) {
            for (int s = 0; s < DV_DT_COUNT && src == DV_DT_COUNT; s++)
                for (int d = 0; d < DV_DT_COUNT; d++) {
                    const unsigned w = dv_dtype_size((dv_dtype_t)s) > dv_dtype_size((dv_dtype_t)d)
                                           ? dv_dtype_size((dv_dtype_t)s) : dv_dtype_size((dv_dtype_t)d);
                    if (dv_conv_allowed((dv_dtype_t)s, (dv_dtype_t)d) && w == width) {
                        src = (dv_dtype_t)s;
                        dst = (dv_dtype_t)d;
                        break;
                    }
                }
        } else {
            const dv_dtype_t *pref = width == 2 ? pref16 : pref32;
            const int np = width == 2 ? 4 : 3;
            for (int i = 0; i < np && src == DV_DT_COUNT; i++)
                if (os->dtypes & (1u << pref[i]))
                    src = dst = pref[i];
        }
        if (src == DV_DT_COUNT)
            continue;
        dv_insn_t in;
        dv_insn_init(&in, (dv_op_t)op);
        seta(&in, "dst", 0x200);
        seta(&in, "src", 0x0);
        seta(&in, "src0", 0x0);
        seta(&in, "src1", 0x100);
        seta(&in, "sel", cfg->ub_size_bytes / 2 / 32 * 32);
        setf(&in, "dtype", src);
        setf(&in, "src_type", src);
        setf(&in, "dst_type", dst);
        setf(&in, "repeat", R);
        setf(&in, "dst_rep", os->form == DV_FORM_VREDUCE ? 1 : 8);
        if (os->form == DV_FORM_VREDUCE)
            setf(&in, "src_rep", 0);
        const dv_kernel_info_t noargs = {0};
        return dv_trace_format_insn(&in, &noargs, out, cap) > 0;
    }
    return false;
}

/* copy_matrix_cc_to_ubuf, the l0c class: 16 columns x 4R rows of f32 are R repeats of 256 B. */
static void l0c_text(unsigned R, char *out, size_t cap)
{
    snprintf(out, cap, "copy_matrix_cc_to_ubuf dst=ub:0x0 src=l0c:0x0 n_size=16 m_size=%u src_stride=%u dst_stride=16",
             4 * R, 4 * R);
}

static const char *const vc_names[] = {
#define DV_VCOST(id, name, d) name,
#include "isa.def"
};

static const unsigned vreps[] = {1, 8, 37, 200, 255};
#define NVREPS ((int)(sizeof vreps / sizeof vreps[0]))

static int study_vec(mctx_t *c, int vc, unsigned width)
{
    vstudy_t *v = &c->vec[vc][width == 4];
    memo_t *m = &v->m;
    if (m->done)
        return m->rc;
    m->done = true;
    const uint64_t rb = c->cfg.vector_repeat_bytes;
    uint64_t x[NVREPS], occ[NVREPS], tm, t0;
    char line[512];
    mrun_t rr;
    if (t_mask(c, false, &tm, m) != MS_OK)
        return m->rc;
    if (vc == DV_VC_L0C) {
        if (width == 2)
            return NA(m, "copy_matrix_cc_to_ubuf, the only l0c-class instruction, always reads 32-bit accumulators");
        if (!c->cfg.chip_l0c_to_ub)
            return NA(m, "no L0C -> UB path on this chip (chip.l0c_to_ub)");
        /* occ(R) = T(B; C_R) - T(B) with B = C_255: R = 0 is not expressible */
        char big[256];
        uint64_t tbig, t1 = 0;
        l0c_text(255, big, sizeof big);
        snprintf(v->insn, sizeof v->insn, "%s", big);
        if (tk(c, m, false, 0, 0, &tbig, "%s\n", big) != MS_OK)
            return m->rc;
        for (int i = 0; i < NVREPS; i++) {
            uint64_t t;
            l0c_text(vreps[i], line, sizeof line);
            if (tk(c, m, false, 0, 0, &t, "%s\n%s\n", big, line) != MS_OK)
                return m->rc;
            x[i] = vreps[i] * rb;
            occ[i] = t - tbig;
            if (i == 0 && tk(c, m, false, 0, 0, &t1, "%s\n", line) != MS_OK)
                return m->rc;
        }
        rate_range(x, occ, NVREPS, &v->lo, &v->hi);
        v->lat = t1 - tm - occ[0];
        snprintf(v->how, sizeof v->how,
                 "occ(1, 8, 37, 200, 255 repeats) = %llu, %llu, %llu, %llu, %llu after a 255-repeat copy",
                 ull(occ[0]), ull(occ[1]), ull(occ[2]), ull(occ[3]), ull(occ[4]));
        return m->rc = MS_OK;
    }
    if (!vec_text(&c->cfg, vc, width, 0, line, sizeof line))
        return NA(m, "no %s-class instruction takes %u-bit elements", vc_names[vc], width * 8);
    snprintf(v->insn, sizeof v->insn, "%s", line);
    tx_clear(&c->b);
    tx(&c->b, "%s\n", line);
    if (run_body(c, false, 0, 0, &rr) != DV_OK)
        return FAIL(m, "%s failed: %s", line, c->err.msg);
    t0 = rr.cycles;
    /* The operands are laid out in distinct banks; where the bank geometry makes conflicts
     * unavoidable (fewer bank groups than rows a repeat reads), the conflict cycles the model
     * counted are taken off each occupancy (docs/MODEL.md adds them to the rate's cycles). */
    uint64_t conflicts = 0;
    for (int i = 0; i < NVREPS; i++) {
        vec_text(&c->cfg, vc, width, vreps[i], line, sizeof line);
        tx_clear(&c->b);
        tx(&c->b, "%s\n", line);
        if (run_body(c, false, 0, 0, &rr) != DV_OK)
            return FAIL(m, "%s failed: %s", line, c->err.msg);
        if (rr.cycles < t0 + rr.conflicts)
            return FAIL(m, "%s: T = %llu with %llu bank-conflict cycles, below T(repeat 0) = %llu", line,
                        ull(rr.cycles), ull(rr.conflicts), ull(t0));
        x[i] = vreps[i] * rb;
        occ[i] = rr.cycles - t0 - rr.conflicts;
        conflicts += rr.conflicts;
    }
    rate_range(x, occ, NVREPS, &v->lo, &v->hi);
    v->lat = t0 - tm;
    snprintf(v->how, sizeof v->how, "occ(1, 8, 37, 200, 255 repeats) = %llu, %llu, %llu, %llu, %llu%s", ull(occ[0]),
             ull(occ[1]), ull(occ[2]), ull(occ[3]), ull(occ[4]),
             conflicts ? ", less the bank-conflict cycles counted" : "");
    return m->rc = MS_OK;
}

/* The schema's largest value of a parameter: the top of a rate range no cycle count bounds. */
static uint64_t schema_max(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static uint64_t schema_max(const char *fmt, ...)
{
    char path[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    const dv_param_spec_t *sp = dv_param_find(path);
    return sp ? sp->max : UINT64_MAX;
}

/* The study of the row's vector class and width (arg = DV_MICRO_VARG), with its mnemonic in insn;
 * NULL when it is not usable (r says why). */
static const vstudy_t *vec_row(mctx_t *c, int arg, dv_micro_result_t *r, char insn[48])
{
    const int vc = arg / 8;
    const unsigned width = (unsigned)(arg % 8);
    study_vec(c, vc, width);
    const vstudy_t *v = &c->vec[vc][width == 4];
    if (!usable(&v->m, r))
        return NULL;
    snprintf(insn, 48, "%s", v->insn);
    insn[strcspn(insn, " ")] = '\0';
    return v;
}

static void mb_vec_rate(mctx_t *c, int arg, dv_micro_result_t *r)
{
    char insn[48];
    const vstudy_t *v = vec_row(c, arg, r, insn);
    if (v)
        figure(r, v->lo,
               v->hi != UINT64_MAX ? v->hi
                                   : schema_max("vector.%s.b%d_bytes_per_cycle", vc_names[arg / 8], 8 * (arg % 8)),
               "%s: %s", insn, v->how);
}

static void mb_vec_latency(mctx_t *c, int arg, dv_micro_result_t *r)
{
    char insn[48];
    const vstudy_t *v = vec_row(c, arg, r, insn);
    if (v)
        figure(r, v->lat, v->lat, "%s: %s = %llu", insn,
               arg / 8 == DV_VC_L0C ? "T(1 repeat) - T(mask) - occ(1 repeat)" : "T(repeat 0) - T(mask)", ull(v->lat));
}

/* ================================================================ cube */

static int t_mmad(mctx_t *c, memo_t *m, dv_dtype_t dt, unsigned mm, unsigned k, unsigned n, uint64_t *t)
{
    return tk(c, m, true, 0, 0, t, "mmad c=l0c:0x0 a=l0a:0x0 b=l0b:0x0 dtype=%s m=%u k=%u n=%u init=1\n",
              dv_dtype_name(dt), mm, k, n);
}

static void mb_cube_mnk(mctx_t *c, int arg, dv_micro_result_t *r)
{
    const dv_dtype_t dt = arg < 2 ? DV_DT_F16 : (dv_dtype_t)(arg - 2);
    memo_t m = {0};
    uint64_t t1, t;
#define MMAD_AT(v, out) t_mmad(c, &m, dt, arg == 0 ? (v) : 1, arg >= 2 ? (v) : 1, arg == 1 ? (v) : 1, out)
    if (MMAD_AT(1, &t1) != MS_OK)
        goto fail;
    /* ceil(v / V0) does not decrease with v: the largest v costing what v = 1 costs is V0 */
    unsigned lo = 1, hi = 256;
    if (MMAD_AT(256, &t) != MS_OK)
        goto fail;
    if (t == t1)
        lo = 256;
    while (hi - lo > 1 && lo < 256) {
        const unsigned mid = lo + (hi - lo) / 2;
        if (MMAD_AT(mid, &t) != MS_OK)
            goto fail;
        *(t == t1 ? &lo : &hi) = mid;
    }
#undef MMAD_AT
    figure(r, lo, lo, "%s: %s = 1..%u cost %llu cycles, %s = %u more", dv_dtype_name(dt),
           arg == 0 ? "m" : arg == 1 ? "n" : "k", lo, ull(t1), arg == 0 ? "m" : arg == 1 ? "n" : "k", lo + 1);
    return;
fail:
    usable(&m, r);
}

static void mb_cube_latency(mctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    memo_t m = {0};
    uint64_t tm, t1, tb, tbb;
    static const char *const big = "mmad c=l0c:0x0 a=l0a:0x0 b=l0b:0x0 dtype=f16 m=64 k=64 n=64 init=1\n";
    static const char *const one = "mmad c=l0c:0x0 a=l0a:0x0 b=l0b:0x0 dtype=f16 m=1 k=1 n=1 init=1\n";
    uint64_t t2;
    if (t_mask(c, true, &tm, &m) || tk(c, &m, true, 0, 0, &t1, "%s", one) || tk(c, &m, true, 0, 0, &tb, "%s", big) ||
        tk(c, &m, true, 0, 0, &tbb, "%s%s", big, one) || tk(c, &m, true, 0, 0, &t2, "%s%s", big, big) ||
        occ_seen(c, &m, t2 - tb, "a 64 x 64 x 64 mmad")) {
        usable(&m, r);
        return;
    }
    latency_figure(r, t1, tm, tbb - tb, "1x1x1");
}

/* ================================================================ MTE1 */

static int study_mte1(mctx_t *c, int b)
{
    memo_t *m = &c->mte1_m[b];
    if (m->done)
        return m->rc;
    m->done = true;
    const uint64_t size = b ? c->cfg.l0b_size_bytes : c->cfg.l0a_size_bytes;
    const char *mn = b ? "load_cbuf_to_cb dst=l0b" : "load_cbuf_to_ca dst=l0a";
    const unsigned rmax = (unsigned)min64(255, min64(size, c->cfg.l1_size_bytes) / 512);
    if (rmax < 2)
        return NA(m, "L0%c holds fewer than 2 fractals", b ? 'B' : 'A');
    unsigned reps[4] = {1, 3, 37, rmax};
    uint64_t x[4], occ[4], tb, t;
    int n = 0;
    if (tk(c, m, true, 0, 0, &tb, "%s:0x0 src=l1:0x0 dtype=f16 repeat=%u\n", mn, rmax) != MS_OK ||
        tk(c, m, true, 0, 0, &t, "%s:0x0 src=l1:0x0 dtype=f16 repeat=%u\n%s:0x0 src=l1:0x0 dtype=f16 repeat=%u\n", mn,
           rmax, mn, rmax) != MS_OK ||
        occ_seen(c, m, t - tb, "the full-size load") != MS_OK)
        return m->rc;
    for (int i = 0; i < 4; i++) {
        if (reps[i] > rmax || (i > 0 && reps[i] <= reps[i - 1]))
            continue;
        if (tk(c, m, true, 0, 0, &t, "%s:0x0 src=l1:0x0 dtype=f16 repeat=%u\n%s:0x0 src=l1:0x0 dtype=f16 repeat=%u\n",
               mn, rmax, mn, reps[i]) != MS_OK)
            return m->rc;
        x[n] = 512ull * reps[i];
        occ[n++] = t - tb;
    }
    rate_range(x, occ, n, &c->mte1_lo[b], &c->mte1_hi[b]);
    c->mte1_occ1[b] = occ[0];
    snprintf(c->mte1_how[b], sizeof c->mte1_how[b],
             "occ(1, 3, 37, %u fractals) = %llu, %llu, %llu, %llu after a %u-fractal load",
             rmax, ull(occ[0]), ull(n > 1 ? occ[1] : 0), ull(n > 2 ? occ[2] : 0), ull(n > 3 ? occ[3] : 0), rmax);
    return m->rc = MS_OK;
}

static void mb_mte1_rate(mctx_t *c, int arg, dv_micro_result_t *r)
{
    const int b = arg == DV_SPACE_L0B;
    study_mte1(c, b);
    if (usable(&c->mte1_m[b], r))
        figure(r, c->mte1_lo[b],
               c->mte1_hi[b] != UINT64_MAX ? c->mte1_hi[b] : schema_max("mte1.l0%c_bytes_per_cycle", b ? 'b' : 'a'),
               "%s", c->mte1_how[b]);
}

static void mb_mte1_latency(mctx_t *c, int arg, dv_micro_result_t *r)
{
    memo_t m = {0};
    uint64_t tm, t, tt;
    if (t_mask(c, true, &tm, &m) != MS_OK) {
        usable(&m, r);
        return;
    }
    if (arg == 0) {
        study_mte1(c, 0);
        if (!usable(&c->mte1_m[0], r))
            return;
        if (tk(c, &m, true, 0, 0, &t, "load_cbuf_to_ca dst=l0a:0x0 src=l1:0x0 dtype=f16 repeat=1\n") != MS_OK) {
            usable(&m, r);
            return;
        }
        latency_figure(r, t, tm, c->mte1_occ1[0], "1 fractal");
        return;
    }
    static const char *const i2c = "img2col_cbuf_to_ca dst=l0a:0x0 src=l1:0x0 dtype=f16 fmap_h=16 fmap_w=16 c1=1 kh=1 "
                                   "kw=1 m_ext=256 k_ext=16\n";
    if (tk(c, &m, true, 0, 0, &t, "%s", i2c) || tk(c, &m, true, 0, 0, &tt, "%s%s", i2c, i2c) ||
        occ_seen(c, &m, tt - t, "img2col")) {
        usable(&m, r);
        return;
    }
    latency_figure(r, t, tm, tt - t, "img2col");
}

/* ================================================================ GM paths */

/* The GM side of a DMA instruction, as the model sees it: one engine that spends issue cycles, then,
 * per burst, burst_overhead bytes plus per micro-op max(uop x rate, bytes), and divides the byte sum
 * by its rate once, rounding up.  A copy of `rate` bursts of b bytes therefore costs exactly the
 * per-burst bytes in cycles, whatever the rounding: the studies below use that to read the overhead
 * and the micro-op minimum off whole cycle counts. */

/* Read copies: one burst of d bytes (32 B multiple) at offset off. */
static void rd_one(mctx_t *c, bool l1, uint64_t off, uint64_t d)
{
    tx(&c->b, "copy_gm_to_%s dst=%s:0x0 src=x+0x%llx nburst=1 len=%llu\n", l1 ? "cbuf" : "ubuf", l1 ? "l1" : "ub",
       ull(off), ull(d / 32));
}

/* Read copies: n bursts of len bytes, stride bytes apart, from offset off (byte-granular where the chip
 * allows: ND2NZ of s8 rows into L1, DataCopyPad into UB). */
static void rd_rows(mctx_t *c, bool l1, uint64_t off, unsigned n, unsigned len, unsigned stride)
{
    if (l1)
        tx(&c->b, "copy_gm_to_cbuf_nd2nz dst=l1:0x0 src=x+0x%llx dtype=s8 nd_num=1 n_value=%u d_value=%u "
                  "src_d_stride=%u dst_c0_stride=%u dst_n_stride=1\n", ull(off), n, len, stride, n);
    else if (c->cfg.chip_dma_pad)
        tx(&c->b, "copy_gm_to_ubuf_align dst=ub:0x0 src=x+0x%llx nburst=%u len=%u src_gap=%u dst_gap=0\n", ull(off), n,
           len, stride - len);
    else
        tx(&c->b, "copy_gm_to_ubuf dst=ub:0x0 src=x+0x%llx nburst=%u len=%u src_gap=%u dst_gap=0\n", ull(off), n,
           len / 32, (stride - len) / 32);
}

/* Write copies from UB. */
static void wr_one(mctx_t *c, uint64_t off, uint64_t d)
{
    tx(&c->b, "copy_ubuf_to_gm dst=x+0x%llx src=ub:0x0 nburst=1 len=%llu\n", ull(off), ull(d / 32));
}

static void wr_rows(mctx_t *c, uint64_t off, unsigned n, unsigned len, unsigned stride)
{
    if (c->cfg.chip_dma_pad)
        tx(&c->b, "copy_ubuf_to_gm_align dst=x+0x%llx src=ub:0x0 nburst=%u len=%u src_gap=0 dst_gap=%u\n", ull(off), n,
           len, stride - len);
    else
        tx(&c->b, "copy_ubuf_to_gm dst=x+0x%llx src=ub:0x0 nburst=%u len=%u src_gap=0 dst_gap=%u\n", ull(off), n,
           len / 32, (stride - len) / 32);
}

/* One path's instructions, for the shared study. */
typedef struct path {
    bool write, l1, cube;
    unsigned gran;         /* smallest burst length in bytes */
    unsigned max_rows;
    uint64_t local_size;   /* the local buffer's bytes */
} path_t;

static void p_one(mctx_t *c, const path_t *p, uint64_t off, uint64_t d)
{
    if (p->write)
        wr_one(c, off, d);
    else
        rd_one(c, p->l1, off, d);
}

static void p_rows(mctx_t *c, const path_t *p, uint64_t off, unsigned n, unsigned len, unsigned stride)
{
    if (p->write)
        wr_rows(c, off, n, len, stride);
    else
        rd_rows(c, p->l1, off, n, len, stride);
}

/* T of a kernel built by the caller into c->b. */
static int tb(mctx_t *c, memo_t *m, const path_t *p, uint64_t bytes, uint64_t base, uint64_t *t)
{
    mrun_t rr;
    if (run_body(c, p->cube, bytes, base, &rr) != DV_OK)
        return FAIL(m, "kernel failed: %s [%.*s]", c->err.msg, (int)strcspn(c->b.s, "\n"), c->b.s);
    *t = rr.cycles;
    return MS_OK;
}

/* T of the kernel in c->b with its reads hitting in L2: run it twice on the same lines, time the
 * second run.  (A cold read fills whole lines from HBM, which for short bursts can outlast the
 * engine; hits cost only their bytes.)  Writes, and chips without a big enough L2, run once. */
static int tb_hit(mctx_t *c, memo_t *m, const path_t *p, uint64_t bytes, uint64_t *t)
{
    const uint64_t base = fresh_n(c, bytes);
    if (!p->write && bytes * 2 <= c->cfg.l2_size_bytes && tb(c, m, p, bytes, base, t) != MS_OK)
        return m->rc;
    return tb(c, m, p, bytes, base, t);
}

/* The per-burst engine cost in bytes of bursts of `len` bytes at uop_bytes stride: T(2q) - T(q)
 * with q = the engine rate, so both byte sums are multiples of it. */
static int burst_bytes(mctx_t *c, memo_t *m, const path_t *p, unsigned q, unsigned len, uint64_t *out)
{
    const unsigned U = (unsigned)c->cfg.gm_uop_bytes;
    uint64_t t1, t2;
    tx_clear(&c->b);
    p_rows(c, p, 0, q, len, U);
    if (tb_hit(c, m, p, (uint64_t)q * U, &t1) != MS_OK)
        return m->rc;
    tx_clear(&c->b);
    p_rows(c, p, 0, 2 * q, len, U);
    if (tb_hit(c, m, p, 2ull * q * U, &t2) != MS_OK)
        return m->rc;
    *out = t2 - t1;
    return MS_OK;
}

/* The engine rows of one path: rate, burst overhead, micro-op minimum, issue, latencies. */
static int gm_study(mctx_t *c, gmstudy_t *s, const path_t *p)
{
    memo_t *m = &s->m;
    const dv_config_t *g = &c->cfg;
    const unsigned U = (unsigned)g->gm_uop_bytes;
    uint64_t tm, t1, t2;
    if (t_mask(c, p->cube, &tm, m) != MS_OK)
        return m->rc;
    /* 1. rate: one burst of 1/8 vs 7/8 of the local buffer */
    const uint64_t d1 = p->local_size / 8 / 32 * 32, d2 = p->local_size * 7 / 8 / 32 * 32;
    tx_clear(&c->b);
    p_one(c, p, 0, d1);
    if (tb_hit(c, m, p, d1, &t1) != MS_OK)
        return m->rc;
    tx_clear(&c->b);
    p_one(c, p, 0, d2);
    if (tb_hit(c, m, p, d2, &t2) != MS_OK)
        return m->rc;
    if (t2 <= t1)
        return FAIL(m, "T(%llu B) = %llu, T(%llu B) = %llu", ull(d1), ull(t1), ull(d2), ull(t2));
    s->rate = ratio(d2 - d1, t2 - t1);
    snprintf(s->how_rate, sizeof s->how_rate, "T(%llu B) = %llu, T(%llu B) = %llu", ull(d1), ull(t1), ull(d2), ull(t2));
    /* 2. per-burst bytes of one-micro-op bursts (len = uop_bytes, or less if the local buffer is small) */
    const unsigned q = (unsigned)s->rate;
    if (q == 0 || 2 * q > p->max_rows)
        return FAIL(m, "rate %u: %u bursts do not fit one instruction", q, 2 * q);
    unsigned len = U;
    while (len > 32 && 2ull * q * len > p->local_size * 3 / 4)
        len /= 2;
    if (2ull * q * len > p->local_size || len > 65535 || U > 65535)
        return NA(m, "%u bursts of %u B do not fit the local buffer", 2 * q, len);
    uint64_t cb, cg;
    if (burst_bytes(c, m, p, q, len, &cb) != MS_OK || burst_bytes(c, m, p, q, p->gran, &cg) != MS_OK)
        return m->rc;
    if (cb < len || cg < cb - len + p->gran)
        return FAIL(m, "per-burst bytes %llu (%u B bursts), %llu (%u B bursts) do not fit the engine model", ull(cb),
                    len, ull(cg), p->gran);
    s->open = cb - len;
    s->uop = (cg - s->open) / q; /* uop x rate bytes when above the burst (exact when rate > the burst) */
    snprintf(s->how_burst, sizeof s->how_burst, "%u vs %u bursts of %u B: %llu B per burst", q, 2 * q, len, ull(cb));
    snprintf(s->how_uop, sizeof s->how_uop, "%u vs %u bursts of %u B: %llu B per burst, overhead %llu, rate %u", q,
             2 * q, p->gran, ull(cg), ull(s->open), q);
    /* 3. issue and latency: occ of the q-burst copy C, as the cycles of a second copy C' after it
     * (both on lines in L2 when there is one); the miss latency from C on cold lines */
    const uint64_t bytes = (uint64_t)q * U, base = fresh_n(c, bytes);
    uint64_t t, tt, th;
    tx_clear(&c->b);
    p_rows(c, p, 0, q, len, U);
    if (tb(c, m, p, bytes, base, &t) != MS_OK)
        return m->rc;
    s->have_hit = !p->write && g->l2_size_bytes >= 4 * bytes;
    th = t;
    if (s->have_hit && tb(c, m, p, bytes, base, &th) != MS_OK) /* the same copy again: its lines are in L2 now */
        return m->rc;
    tx_clear(&c->b);
    p_rows(c, p, 0, q, len, U);
    p_rows(c, p, bytes, q, len, U);
    if (tb_hit(c, m, p, 2 * bytes, &tt) != MS_OK)
        return m->rc;
    const uint64_t occ = tt - th;
    if (occ_seen(c, m, occ, "the copy") != MS_OK)
        return m->rc;
    if (occ < cb || th < tm + occ || th > t)
        return FAIL(m, "occ %llu of %u bursts (engine bytes %llu); T(cold) = %llu, T(in L2) = %llu", ull(occ), q,
                    ull(cb), ull(t), ull(th));
    s->issue = occ - cb;
    s->lat_miss = t - tm - occ;
    s->lat_hit = th - tm - occ;
    snprintf(s->how_issue, sizeof s->how_issue, "occ(%u bursts of %u B) = %llu, engine %llu", q, len, ull(occ),
             ull(cb));
    if (s->have_hit)
        snprintf(s->how_lat, sizeof s->how_lat, "T(miss) = %llu, T(hit) = %llu, T(mask) = %llu, occ = %llu", ull(t),
                 ull(th), ull(tm), ull(occ));
    else
        snprintf(s->how_lat, sizeof s->how_lat, "T = %llu, T(mask) = %llu, occ = %llu", ull(t), ull(tm), ull(occ));
    return MS_OK;
}

static path_t read_path(const dv_config_t *g)
{
    path_t p = {0};
    p.l1 = g->mte2_l1_bytes_per_cycle >= g->mte2_ub_bytes_per_cycle || !g->ub_size_bytes;
    p.cube = p.l1;
    p.gran = p.l1 || g->chip_dma_pad ? 1 : 32;
    p.local_size = p.l1 ? g->l1_size_bytes : g->ub_size_bytes;
    p.max_rows = p.l1 ? (unsigned)min64(16384, g->l1_size_bytes / 32) : 4095;
    return p;
}

static int study_read(mctx_t *c)
{
    gmstudy_t *s = &c->rd;
    memo_t *m = &s->m;
    if (m->done)
        return m->rc;
    m->done = true;
    const dv_config_t *g = &c->cfg;
    const path_t p = read_path(g);
    s->l1 = p.l1;
    const uint64_t local = p.l1 ? g->mte2_l1_bytes_per_cycle : g->mte2_ub_bytes_per_cycle;
    if (local < g->gm_core_read_bytes_per_cycle)
        return NA(m, "both local sides (mte2.%s_bytes_per_cycle = %llu) are slower than the read engine: they bind",
                          p.l1 ? "l1" : "ub", ull(local));
    if (g->l2_bytes_per_cycle < g->gm_core_read_bytes_per_cycle)
        return NA(m, "L2 (l2.bytes_per_cycle = %llu) is slower than one core's read engine (%llu B/cycle): it binds",
                  ull(g->l2_bytes_per_cycle), ull(g->gm_core_read_bytes_per_cycle));
    if (g->mte2_uop_cycles * g->gm_core_read_bytes_per_cycle > g->gm_uop_bytes)
        return NA(m, "a whole micro-op (gm.uop_bytes = %llu) costs the micro-op minimum (mte2.uop_cycles = %llu), "
                  "not its bytes at the read rate: the rate is hidden", ull(g->gm_uop_bytes), ull(g->mte2_uop_cycles));
    return m->rc = gm_study(c, s, &p);
}

static int study_write(mctx_t *c)
{
    gmstudy_t *s = &c->wr;
    memo_t *m = &s->m;
    if (m->done)
        return m->rc;
    m->done = true;
    const dv_config_t *g = &c->cfg;
    path_t p = {0};
    p.write = true;
    p.gran = g->chip_dma_pad ? 1 : 32;
    p.local_size = g->ub_size_bytes;
    p.max_rows = 4095;
    if (g->mte3_local_bytes_per_cycle < g->gm_core_write_bytes_per_cycle)
        return NA(m, "the UB side (mte3.local_bytes_per_cycle = %llu) is slower than the write engine: it binds",
                          ull(g->mte3_local_bytes_per_cycle));
    if (g->l2_bytes_per_cycle < g->gm_core_write_bytes_per_cycle)
        return NA(m, "L2 (l2.bytes_per_cycle = %llu) is slower than one core's write engine (%llu B/cycle): it binds",
                  ull(g->l2_bytes_per_cycle), ull(g->gm_core_write_bytes_per_cycle));
    if (g->mte3_uop_cycles * g->gm_core_write_bytes_per_cycle > g->gm_uop_bytes)
        return NA(m, "a whole micro-op (gm.uop_bytes = %llu) costs the micro-op minimum (mte3.uop_cycles = %llu), "
                  "not its bytes at the write rate: the rate is hidden", ull(g->gm_uop_bytes), ull(g->mte3_uop_cycles));
    if (g->l2_write_through && dv_hbm_sustained_bytes_per_cycle(g) < g->gm_core_write_bytes_per_cycle)
        return NA(m, "writes go through L2 to HBM, whose sustained rate (%llu B/cycle) is below one core's write "
                  "engine (%llu B/cycle): it binds", ull(dv_hbm_sustained_bytes_per_cycle(g)),
                  ull(g->gm_core_write_bytes_per_cycle));
    return m->rc = gm_study(c, s, &p);
}

/* Whether n 2-byte bursts at 2-byte stride cost more from GM offset 1 than from offset 0. */
static int crosses(mctx_t *c, memo_t *m, const path_t *p, unsigned n, bool *x)
{
    uint64_t te, to;
    tx_clear(&c->b);
    p_rows(c, p, 0, n, 2, 2);
    if (tb(c, m, p, 2ull * n + 4, 0, &te) != MS_OK)
        return m->rc;
    tx_clear(&c->b);
    p_rows(c, p, 1, n, 2, 2);
    if (tb(c, m, p, 2ull * n + 4, 0, &to) != MS_OK)
        return m->rc;
    *x = to > te;
    return MS_OK;
}

/* gm.uop_bytes: n bursts of 2 bytes at 2-byte stride; from an odd address burst U/2 - 1 straddles a
 * micro-op boundary (two 1-byte micro-ops), from an even one none does (U even). */
static void mb_read_uop_bytes(mctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    study_read(c);
    if (!usable(&c->rd.m, r))
        return;
    if (c->rd.uop == 0) {
        row_na(r, "mte2.uop_cycles is 0: a micro-op costs only its bytes, so where bursts are cut is invisible");
        return;
    }
    const path_t p = read_path(&c->cfg);
    if (p.gran != 1) {
        row_na(r, "needs byte-granular reads");
        return;
    }
    memo_t m = {0};
    bool x;
    unsigned lo = 0, hi = p.max_rows;
    if (crosses(c, &m, &p, hi, &x) != MS_OK)
        goto fail;
    if (!x) {
        row_na(r, "no micro-op boundary within %u bytes", 2 * hi);
        return;
    }
    while (hi - lo > 1) {
        const unsigned mid = lo + (hi - lo) / 2;
        if (crosses(c, &m, &p, mid, &x) != MS_OK)
            goto fail;
        *(x ? &hi : &lo) = mid;
    }
    figure(r, 2ull * hi, 2ull * hi, "%u bursts from an odd address cost more than from an even one, %u do not", hi, lo);
    return;
fail:
    usable(&m, r);
}

/* One figure of a GM path's study (arg: MX_GM_*, + MX_GM_WRITE for the write path).  Read latency
 * splits into the L2-hit part and the miss's extra (arg + 1 = the miss); writes see one latency. */
static void mb_gm(mctx_t *c, int arg, dv_micro_result_t *r)
{
    const bool write = arg >= MX_GM_WRITE;
    gmstudy_t *s = write ? &c->wr : &c->rd;
    if (write)
        study_write(c);
    else
        study_read(c);
    if (!usable(&s->m, r))
        return;
    switch (arg % MX_GM_WRITE) {
    case MX_GM_RATE:
        figure(r, s->rate, s->rate, "%s: %s", write ? "UB -> GM" : s->l1 ? "GM -> L1" : "GM -> UB", s->how_rate);
        return;
    case MX_GM_BURST:
        figure(r, s->open, s->open, "%s", s->how_burst);
        return;
    case MX_GM_UOP:
        figure(r, s->uop, s->uop, "%s", s->how_uop);
        return;
    case MX_GM_ISSUE:
        figure(r, s->issue, s->issue, "%s", s->how_issue);
        return;
    }
    if (write) {
        figure(r, s->lat_miss, s->lat_miss, "%s", s->how_lat);
        return;
    }
    if (!s->have_hit) {
        row_na(r, "no L2 (l2.size_bytes = 0): every read misses, so only the sum %llu is seen", ull(s->lat_miss));
        return;
    }
    const bool miss = arg % MX_GM_WRITE != MX_GM_LATENCY;
    if (miss && dv_hbm_sustained_bytes_per_cycle(&c->cfg) < c->cfg.gm_core_read_bytes_per_cycle) {
        row_na(r, "HBM's sustained rate (%llu B/cycle) is below one core's read engine (%llu B/cycle): a miss adds "
               "transfer time to the latency", ull(dv_hbm_sustained_bytes_per_cycle(&c->cfg)),
               ull(c->cfg.gm_core_read_bytes_per_cycle));
        return;
    }
    const uint64_t v = miss ? s->lat_miss - s->lat_hit : s->lat_hit;
    figure(r, v, v, "%s", s->how_lat);
}

/* A local side's rate, seen only when it is slower than the engine: one burst of 1/8 vs 7/8 of the
 * buffer.  arg: DV_SPACE_L1 / DV_SPACE_UB (reads), DV_SPACE_GM (writes from UB). */
static void mb_local_rate(mctx_t *c, int arg, dv_micro_result_t *r)
{
    const dv_config_t *g = &c->cfg;
    const bool write = arg == DV_SPACE_GM, l1 = arg == DV_SPACE_L1;
    const uint64_t local = write ? g->mte3_local_bytes_per_cycle
                                 : l1 ? g->mte2_l1_bytes_per_cycle : g->mte2_ub_bytes_per_cycle;
    const uint64_t engine = write ? g->gm_core_write_bytes_per_cycle : g->gm_core_read_bytes_per_cycle;
    const uint64_t size = l1 ? g->l1_size_bytes : g->ub_size_bytes;
    if (local >= engine) {
        row_na(r, "the %s engine (%llu B/cycle) binds before the local side (%llu B/cycle)", write ? "write" : "read",
               ull(engine), ull(local));
        return;
    }
    if (size < 1024) {
        row_na(r, "no %s on this chip", l1 ? "L1" : "UB");
        return;
    }
    const uint64_t d1 = size / 8 / 32 * 32, d2 = size * 7 / 8 / 32 * 32;
    /* the memory side: reads hit in L2 where it holds the copy twice over (tb_hit), writes go to L2
     * and, written through, to HBM */
    const uint64_t hbm = dv_hbm_sustained_bytes_per_cycle(g);
    uint64_t shared = g->l2_bytes_per_cycle;
    if ((write && g->l2_write_through) || (!write && 2 * d2 > g->l2_size_bytes))
        shared = min64(shared, hbm);
    if (shared < local) {
        row_na(r, "the memory side (%llu B/cycle from %s) binds before the local side (%llu B/cycle)", ull(shared),
               shared == g->l2_bytes_per_cycle ? "L2" : "HBM", ull(local));
        return;
    }
    memo_t m = {0};
    path_t p = {0};
    p.write = write;
    p.l1 = l1;
    p.cube = l1;
    uint64_t t1, t2;
    tx_clear(&c->b);
    p_one(c, &p, 0, d1);
    if (tb_hit(c, &m, &p, d1, &t1) != MS_OK)
        goto fail;
    tx_clear(&c->b);
    p_one(c, &p, 0, d2);
    if (tb_hit(c, &m, &p, d2, &t2) != MS_OK)
        goto fail;
    if (t2 <= t1) {
        FAIL(&m, "T(%llu B) = %llu, T(%llu B) = %llu", ull(d1), ull(t1), ull(d2), ull(t2));
        goto fail;
    }
    figure(r, ratio(d2 - d1, t2 - t1), ratio(d2 - d1, t2 - t1), "T(%llu B) = %llu, T(%llu B) = %llu", ull(d1), ull(t1),
           ull(d2), ull(t2));
    return;
fail:
    usable(&m, r);
}

/* ================================================================ FixPipe */

/* FixPipe L0C -> L1 of 16 f32 columns x mm rows: 64 x mm bytes read from L0C. */
static void fix_text(unsigned mm, char *out, size_t cap)
{
    snprintf(out, cap,
             "copy_matrix_cc_to_cbuf dst=l1:0x0 src=l0c:0x0 n_size=16 m_size=%u src_stride=%u dst_stride=16\n", mm, mm);
}

static int study_fix(mctx_t *c)
{
    memo_t *m = &c->fix_m;
    if (m->done)
        return m->rc;
    m->done = true;
    const dv_config_t *g = &c->cfg;
    if (!g->chip_has_fix_pipe)
        return NA(m, "no FIX pipe on this chip");
    /* 16 columns x mm rows of f32: 64 x mm bytes read from L0C */
    const unsigned m2 = (unsigned)(min64(g->l0c_size_bytes, g->l1_size_bytes) / 64 * 7 / 8), m1 = m2 / 7;
    uint64_t tm, t1, t2, t, tt;
    if (m1 < 1)
        return NA(m, "L0C too small");
    char l1[160], l2[160], lb[160];
    fix_text(m1, l1, sizeof l1);
    fix_text(m2, l2, sizeof l2);
    if (t_mask(c, true, &tm, m) || tk(c, m, true, 0, 0, &t1, "%s", l1) || tk(c, m, true, 0, 0, &t2, "%s", l2))
        return m->rc;
    if (t2 <= t1)
        return FAIL(m, "T(%u rows) = %llu, T(%u rows) = %llu", m1, ull(t1), m2, ull(t2));
    c->fix_rate = ratio(64ull * (m2 - m1), t2 - t1);
    snprintf(c->fix_how[0], sizeof c->fix_how[0], "T(%llu B) = %llu, T(%llu B) = %llu", 64ull * m1, ull(t1), 64ull * m2,
             ull(t2));
    /* rate rows of 16 f32 columns: 64 x rate bytes, exactly 64 cycles at the rate */
    const unsigned mb = (unsigned)c->fix_rate;
    if (mb < 1 || mb > m2)
        return FAIL(m, "rate %u out of the measurable range", mb);
    fix_text(mb, lb, sizeof lb);
    if (tk(c, m, true, 0, 0, &t, "%s", lb) || tk(c, m, true, 0, 0, &tt, "%s%s", lb, lb))
        return m->rc;
    const uint64_t occ = tt - t;
    if (occ_seen(c, m, occ, "the FixPipe copy") != MS_OK)
        return m->rc;
    if (occ < 64 || t < tm + occ)
        return FAIL(m, "occ %llu of a 64-cycle copy", ull(occ));
    c->fix_issue = occ - 64;
    c->fix_lat = t - tm - occ;
    snprintf(c->fix_how[1], sizeof c->fix_how[1], "occ(%llu B) = %llu", 64ull * mb, ull(occ));
    snprintf(c->fix_how[2], sizeof c->fix_how[2], "T(%llu B) = %llu, T(mask) = %llu, occ = %llu", 64ull * mb, ull(t),
             ull(tm), ull(occ));
    return m->rc = MS_OK;
}

static void mb_fix(mctx_t *c, int arg, dv_micro_result_t *r)
{
    study_fix(c);
    if (!usable(&c->fix_m, r))
        return;
    const uint64_t v = arg == 0 ? c->fix_rate : arg == 1 ? c->fix_issue : c->fix_lat;
    figure(r, v, v, "%s", c->fix_how[arg]);
}

/* ================================================================ shared memory system */

/* Every core of the kernel reads d bytes `reps` times back to back: from its own region of d bytes
 * (the same lines each time), or, with `fresh_lines`, from a new region each time.  A mix kernel runs
 * on every core of a split chip (AIC reads into L1, AIVs into UB). */
static int stream(mctx_t *c, memo_t *m, bool mix, unsigned cores, uint64_t d, unsigned reps, bool fresh_lines,
                  uint64_t base, mrun_t *out)
{
    const dv_kind_t kind = mix ? DV_KIND_MIX : DV_KIND_VECTOR;
    const unsigned blocks = mix ? dv_topo_kernel_cores(&c->cfg, kind) : cores;
    head(c, mix ? "mix" : "vector", blocks, (uint64_t)cores * d * (fresh_lines ? reps : 1));
    unsigned k = 0;
    for (unsigned b = 0; b < blocks; b++) {
        for (unsigned s = 0; s < dv_topo_kernel_subs(&c->cfg, kind); s++, k++) {
            char name[16];
            if (mix)
                tx(&c->k, "block %u %s\n", b, dv_topo_sub_name(s, name, sizeof name));
            else
                tx(&c->k, "block %u\n", b);
            /* a core without a UB (the AIC) reads into L1 */
            const bool l1 = !dv_topo_has_buffer(&c->cfg, dv_topo_stream_type(&c->cfg, kind, s), DV_SPACE_UB);
            for (unsigned i = 0; i < reps; i++)
                tx(&c->k, "copy_gm_to_%s dst=%s:0x0 src=x+0x%llx nburst=1 len=%llu\n", l1 ? "cbuf" : "ubuf",
                   l1 ? "l1" : "ub", ull(((fresh_lines ? i * cores : 0) + k) * d), ull(d / 32));
        }
    }
    tx(&c->k, "end\n");
    if (exec(c, base, out) != DV_OK)
        return FAIL(m, "%u-core stream failed: %s", cores, c->err.msg);
    if (out->finish_n != cores)
        return FAIL(m, "%u of %u cores ran", out->finish_n, cores);
    return MS_OK;
}

/* Steady-state streaming rate: SR1 vs SR2 copies per core, so the start cancels; timed by the cores'
 * mean finishing cycle, which fair sharing keeps steady where the last finisher varies. */
enum { SR1 = 9, SR2 = 33 };

static uint64_t stream_rate(unsigned cores, uint64_t d, const mrun_t *r1, const mrun_t *r2)
{
    const uint64_t bytes = (uint64_t)cores * (SR2 - SR1) * d; /* x cores / sum of finishing cycles */
    return ratio(bytes * cores, r2->finish_sum - r1->finish_sum);
}

/* One core's read rate in a stream of whole micro-ops: the engine's, or the micro-op minimum's. */
static uint64_t stream_read_rate(const dv_config_t *g)
{
    const uint64_t rate = g->gm_core_read_bytes_per_cycle;
    return g->mte2_uop_cycles ? min64(rate, g->gm_uop_bytes / g->mte2_uop_cycles) : rate;
}

static void mb_hbm_stream(mctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    const dv_config_t *g = &c->cfg;
    const uint64_t hbm = dv_hbm_sustained_bytes_per_cycle(g);
    const uint64_t demand = c->nvec * min64(stream_read_rate(g), g->mte2_ub_bytes_per_cycle);
    if (demand * 4 < hbm * 5) {
        row_na(r, "the %u vector cores together read %llu B/cycle, not clearly above HBM's %llu", c->nvec, ull(demand),
               ull(hbm));
        return;
    }
    if (g->l2_bytes_per_cycle < hbm) {
        row_na(r, "L2 (l2.bytes_per_cycle = %llu) is slower than HBM's sustained %llu B/cycle: it binds",
               ull(g->l2_bytes_per_cycle), ull(hbm));
        return;
    }
    memo_t m = {0};
    const uint64_t d = g->ub_size_bytes * 7 / 8 / 512 * 512, bytes = (uint64_t)c->nvec * d * SR2;
    mrun_t r1, r2;
    if (stream(c, &m, false, c->nvec, d, SR1, true, fresh_n(c, bytes), &r1) ||
        stream(c, &m, false, c->nvec, d, SR2, true, fresh_n(c, bytes), &r2)) {
        usable(&m, r);
        return;
    }
    const uint64_t v = stream_rate(c->nvec, d, &r1, &r2);
    figure(r, v, v, "%u cores x %d vs %d copies of %llu B, all misses: mean finish %llu, %llu (T = %llu, %llu)",
           c->nvec, SR1, SR2, ull(d), ull(r1.finish_sum / c->nvec), ull(r2.finish_sum / c->nvec), ull(r1.cycles),
           ull(r2.cycles));
}

static void mb_l2_stream(mctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    const dv_config_t *g = &c->cfg;
    const bool mix = dv_topo_kernel_subs(g, DV_KIND_MIX) > 0; /* then every core of the chip reads */
    const unsigned cores = mix ? dv_topo_cores(g) : c->nvec;
    const uint64_t rate = stream_read_rate(g);
    const uint64_t demand = (mix ? g->chip_ai_cores * min64(rate, g->mte2_l1_bytes_per_cycle) : 0) +
                            c->nvec * min64(rate, g->mte2_ub_bytes_per_cycle);
    if (demand * 4 < g->l2_bytes_per_cycle * 5) {
        row_na(r, "the %u cores together read %llu B/cycle, not clearly above L2's %llu", cores, ull(demand),
               ull(g->l2_bytes_per_cycle));
        return;
    }
    const uint64_t size = mix ? min64(g->ub_size_bytes, g->l1_size_bytes) : g->ub_size_bytes;
    const uint64_t d = size * 7 / 8 / 512 * 512;
    if (cores * d * 2 > g->l2_size_bytes) {
        row_na(r, "%u cores x %llu B do not stay in L2", cores, ull(d));
        return;
    }
    memo_t m = {0};
    const uint64_t base = fresh_n(c, cores * d);
    mrun_t rw, r1, r2;
    if (stream(c, &m, mix, cores, d, 1, false, base, &rw) || stream(c, &m, mix, cores, d, SR1, false, base, &r1) ||
        stream(c, &m, mix, cores, d, SR2, false, base, &r2)) {
        usable(&m, r);
        return;
    }
    const uint64_t v = stream_rate(cores, d, &r1, &r2);
    figure(r, v, v, "%u cores x %d vs %d copies of %llu B, all L2 hits: mean finish %llu, %llu (T = %llu, %llu)", cores,
           SR1, SR2, ull(d), ull(r1.finish_sum / cores), ull(r2.finish_sum / cores), ull(r1.cycles), ull(r2.cycles));
}

static void mb_write_through(mctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    if (c->cfg.l2_size_bytes == 0) {
        row_na(r, "no L2: every write goes to HBM");
        return;
    }
    memo_t m = {0};
    const uint64_t base = fresh(c);
    mrun_t rr;
    tx_clear(&c->b);
    tx(&c->b, "copy_gm_to_ubuf dst=ub:0x0 src=x+0x0 nburst=1 len=128\n");
    if (run_body(c, false, 4096, base, &rr) != DV_OK) {
        FAIL(&m, "read failed: %s", c->err.msg);
        goto fail;
    }
    tx_clear(&c->b);
    tx(&c->b, "copy_ubuf_to_gm dst=x+0x0 src=ub:0x0 nburst=1 len=128\n");
    if (run_body(c, false, 4096, base, &rr) != DV_OK) {
        FAIL(&m, "write failed: %s", c->err.msg);
        goto fail;
    }
    if (rr.hbm_wr != 0 && rr.hbm_wr != 4096) {
        FAIL(&m, "a 4096 B write sent %llu B to HBM", ull(rr.hbm_wr));
        goto fail;
    }
    figure(r, rr.hbm_wr / 4096, rr.hbm_wr / 4096, "4096 B written over lines in L2: %llu B to HBM", ull(rr.hbm_wr));
    return;
fail:
    usable(&m, r);
}

/* ================================================================ running and printing */

/* The profile value a row compares with: the sum of its parameters, or the sustained HBM rate. */
static uint64_t expected(const dv_config_t *cfg, int i)
{
    if (rows[i].expect == MX_HBM)
        return dv_hbm_sustained_bytes_per_cycle(cfg);
    uint64_t sum = 0;
    const char *p = specs[i].params;
    while (*p) {
        char name[96];
        size_t n = strcspn(p, " +");
        snprintf(name, sizeof name, "%.*s", (int)n, p);
        const dv_param_spec_t *s = dv_param_find(name);
        if (s)
            sum += dv_param_u64(s, cfg);
        p += n;
        p += strspn(p, " +");
    }
    return sum;
}

static bool selected(const char *only, int i) { return !only || strncmp(specs[i].name, only, strlen(only)) == 0; }

int dv_micro_selected(const char *only)
{
    int n = 0;
    for (int i = 0; i < NROWS; i++)
        n += selected(only, i);
    return n;
}

int dv_micro_run(const dv_config_t *cfg, const char *only, dv_micro_result_t *res, dv_error_t *err)
{
    mctx_t *c = calloc(1, sizeof *c);
    int failed = 0, rc;
    mrun_t probe;
    if (!c)
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    c->cfg = *cfg;
    c->next_base = DV_GM_BASE;
    c->nvec = dv_topo_kernel_cores(cfg, DV_KIND_VECTOR);
    for (int i = 0; i < NROWS; i++) {
        memset(&res[i], 0, sizeof res[i]);
        res[i].status = DV_MICRO_NOT_RUN;
    }
    /* a first kernel: the model must accept this profile at all */
    head(c, "vector", 1, 0);
    tx(&c->k, "block 0\nend\n");
    if ((rc = dv_model_create(cfg, &c->model, &c->err)) != DV_OK || (rc = exec(c, fresh(c), &probe)) != DV_OK) {
        if (err)
            *err = c->err;
        failed = rc;
        goto cleanup;
    }
    for (int i = 0; i < NROWS; i++) {
        if (!selected(only, i))
            continue;
        dv_micro_result_t *r = &res[i];
        r->status = DV_MICRO_FAIL;
        rows[i].fn(c, rows[i].arg, r);
        r->expected = expected(cfg, i);
        if (r->status != DV_MICRO_PASS)
            goto count;
        if (specs[i].tol_percent) {
            const uint64_t d = r->measured > r->expected ? r->measured - r->expected : r->expected - r->measured;
            if (d * 100 > (uint64_t)specs[i].tol_percent * r->expected)
                r->status = DV_MICRO_FAIL;
        } else if (r->expected < r->measured || r->expected > r->measured_hi) {
            r->status = DV_MICRO_FAIL;
        }
count:
        failed += r->status == DV_MICRO_FAIL;
    }
cleanup:
    dv_model_destroy(c->model);
    free(c->k.s);
    free(c->b.s);
    free(c);
    return failed;
}

int dv_micro_print(FILE *out, const dv_config_t *cfg, const dv_micro_result_t *res)
{
    int n[4] = {0};
    for (int i = 0; i < NROWS; i++)
        n[res[i].status]++;
    fprintf(out, "microbenchmarks on %s: %d pass, %d fail, %d not observable on this profile\n", cfg->chip_name,
            n[DV_MICRO_PASS], n[DV_MICRO_FAIL], n[DV_MICRO_NA]);
    fprintf(out, "%-28s %12s %10s  %-6s %s\n", "row", "measured", "profile", "result", "parameter(s): how");
    for (int i = 0; i < NROWS; i++) {
        const dv_micro_result_t *r = &res[i];
        char meas[48];
        if (r->status == DV_MICRO_NOT_RUN)
            continue;
        if (r->status == DV_MICRO_NA || (r->status == DV_MICRO_FAIL && !r->measured && !r->measured_hi))
            snprintf(meas, sizeof meas, "-");
        else if (r->measured_hi != r->measured)
            snprintf(meas, sizeof meas, "%llu..%llu", ull(r->measured), ull(r->measured_hi));
        else
            snprintf(meas, sizeof meas, "%llu", ull(r->measured));
        fprintf(out, "%-28s %12s %10llu  %-6s %s: %s\n", specs[i].name, meas, ull(r->expected),
                r->status == DV_MICRO_PASS ? "pass" : r->status == DV_MICRO_FAIL ? "FAIL" : "n/a", specs[i].params,
                r->detail);
    }
    return n[DV_MICRO_FAIL];
}

int dv_micro_main(FILE *out, const dv_config_t *cfg, const char *only, dv_error_t *err)
{
    dv_micro_result_t *res = calloc((size_t)NROWS, sizeof *res);
    if (!res)
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    int rc = dv_micro_run(cfg, only, res, err);
    if (rc >= 0)
        rc = dv_micro_print(out, cfg, res);
    free(res);
    return rc;
}

void dv_micro_doc(FILE *out)
{
    fprintf(out,
            "# Microbenchmarks\n\n"
            "Generated by `tools/gendoc micro` from `bench/micro.def`; do not edit.\n\n"
            "Each row runs small generated kernels (dvtrace text, `traces/FORMAT.md`) on the model and derives one\n"
            "figure from their cycle counts, usually by differencing two runs that differ only in the count of the\n"
            "thing measured, in the manner of lmbench.  The figure is compared with the profile parameter(s) the row\n"
            "isolates: it must be equal, or, where the model rounds a cost up to whole cycles, the row says what it\n"
            "derives (the range of rates that give the same cycle counts, or a ratio of large differences rounded\n"
            "to the nearest integer, exact while the rate squared is below half the difference in bytes).  The\n"
            "profile is read only to size the kernels and to compare.  Together the rows are the self-consistency\n"
            "check that the model does what the profile says.\n\n"
            "Run them with `dvsim micro` (any `--profile`, `--config`, `--set`); `tests/check_micro.c` runs every\n"
            "row on every preset and on perturbed profiles.  A row is *not observable* (n/a) on a profile where no\n"
            "kernel can see its parameter, for instance a local-side bandwidth that the DMA engine always hides,\n"
            "or where another cost binds before it: a scalar issue longer than the occupancy a row differences, a\n"
            "queue deeper than its slow instruction can fill, HBM slower than one core's DMA engine.  Each row\n"
            "checks its premise and its detail says why it cannot measure.  `make validate` checks that on every\n"
            "preset, and on each preset with any one parameter halved, doubled or raised by one, every row\n"
            "passes or is not observable.\n\n"
            "Notation: T(K) is the cycle count of kernel K; *mask* is a kernel of one `set_vector_mask` (one\n"
            "scalar issue, nothing else); occ(C) is the number of cycles instruction C holds its pipe, measured as\n"
            "T(C; C') - T(C) where C' is a second C, on fresh GM lines when it touches GM (C' starts when C frees\n"
            "the pipe).  Every run uses fresh GM addresses unless it is meant to hit in L2.\n\n"
            "The GM rows use the DMA engine's rule (`model/DmaEngine.cpp`): issue cycles, then per burst\n"
            "`gm.burst_overhead_bytes` plus, per micro-op, max(`uop_cycles` x rate, bytes), the byte sum divided by\n"
            "the per-core rate once and rounded up.  A copy of *rate* bursts therefore costs the per-burst bytes in\n"
            "whole cycles, which is how the overhead and the micro-op minimum are read off exactly.  They\n"
            "need one core's engine to bind: where the profile makes L2 slower than it (or, for misses and\n"
            "written-through writes, HBM's sustained rate), the rows that depend on it are not observable.\n\n"
            "The vector rows time the first instruction of each class in `isa/isa.def` that takes a repeat count,\n"
            "with operands in distinct UB banks.  Where the bank geometry makes conflicts unavoidable (fewer\n"
            "bank groups than rows a repeat reads), the conflict cycles the model counted are taken off each\n"
            "occupancy, as the model adds them to the rate's cycles.  The l0c class\n"
            "(`copy_matrix_cc_to_ubuf`, coupled chips) cannot express repeat 0: its occ(R) is measured after a\n"
            "255-repeat copy and its latency as T(1 repeat) - T(mask) - occ(1 repeat).\n\n"
            "## Rows\n\n"
            "| Row | Parameter(s) | Method |\n|---|---|---|\n");
    for (int i = 0; i < NROWS; i++)
        if (specs[i].tol_percent)
            fprintf(out, "| `%s` | `%s` (within %u%%) | %s |\n", specs[i].name, specs[i].params, specs[i].tol_percent,
                    specs[i].method);
        else
            fprintf(out, "| `%s` | `%s` | %s |\n", specs[i].name, specs[i].params, specs[i].method);
    fprintf(out, "\n## Parameters no kernel isolates\n\n| Parameter | Why |\n|---|---|\n");
    for (int i = 0; i < NSKIPS; i++)
        fprintf(out, "| `%s` | %s |\n", skips[i].params, skips[i].reason);
}
