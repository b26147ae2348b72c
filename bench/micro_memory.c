/* bench/micro_memory.c - the rows of bench/micro.def that measure the data paths: the GM read and
 * write engines (MTE2, MTE3), FixPipe, and the shared memory system (L2, HBM).  Each builds small
 * kernels with the harness (micro_internal.h). */
#include "micro_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/topology.h"

/* ================================================================ GM paths */

/* The GM side of a DMA instruction, as the model sees it: one engine that spends issue cycles, then,
 * per burst, burst_overhead bytes plus per micro-op max(uop x rate, bytes), and divides the byte sum
 * by its rate once, rounding up.  A copy of `rate` bursts of b bytes therefore costs exactly the
 * per-burst bytes in cycles, whatever the rounding: the studies below use that to read the overhead
 * and the micro-op minimum off whole cycle counts. */

/* The engine's bytes for one burst of b bytes at `cap` bytes per cycle, as the model sums them (one
 * micro-op, b at most gm.uop_bytes): the burst overhead plus max(micro-op minimum, b). */
static uint64_t engine_burst_bytes(const dv_config_t *g, uint64_t cap, uint64_t b)
{
    return g->gm_burst_overhead_bytes + dv_max_u64(g->mte2_uop_cycles * cap, b);
}

/* Read copies: one burst of d bytes (32 B multiple) at offset off. */
static void read_copy(micro_ctx_t *c, bool l1, uint64_t off, uint64_t d)
{
    micro_text_add(&c->b, "copy_gm_to_%s dst=%s:0x0 src=x+0x%llx nburst=1 len=%llu\n", l1 ? "cbuf" : "ubuf",
                   l1 ? "l1" : "ub", ull(off), ull(d / 32));
}

/* Read copies: n bursts of len bytes, stride bytes apart, from offset off (byte-granular where the chip
 * allows: ND2NZ of s8 rows into L1, DataCopyPad into UB). */
static void read_copy_rows(micro_ctx_t *c, bool l1, uint64_t off, unsigned n, unsigned len, unsigned stride)
{
    if (l1)
        micro_text_add(&c->b,
                       "copy_gm_to_cbuf_nd2nz dst=l1:0x0 src=x+0x%llx dtype=s8 nd_num=1 n_value=%u d_value=%u "
                       "src_d_stride=%u dst_c0_stride=%u dst_n_stride=1\n",
                       ull(off), n, len, stride, n);
    else if (c->cfg.chip_dma_pad)
        micro_text_add(&c->b, "copy_gm_to_ubuf_align dst=ub:0x0 src=x+0x%llx nburst=%u len=%u src_gap=%u dst_gap=0\n",
                       ull(off), n, len, stride - len);
    else
        micro_text_add(&c->b, "copy_gm_to_ubuf dst=ub:0x0 src=x+0x%llx nburst=%u len=%u src_gap=%u dst_gap=0\n",
                       ull(off), n, len / 32, (stride - len) / 32);
}

/* Write copies from UB. */
static void write_copy(micro_ctx_t *c, uint64_t off, uint64_t d)
{
    micro_text_add(&c->b, "copy_ubuf_to_gm dst=x+0x%llx src=ub:0x0 nburst=1 len=%llu\n", ull(off), ull(d / 32));
}

static void write_copy_rows(micro_ctx_t *c, uint64_t off, unsigned n, unsigned len, unsigned stride)
{
    if (c->cfg.chip_dma_pad)
        micro_text_add(&c->b, "copy_ubuf_to_gm_align dst=x+0x%llx src=ub:0x0 nburst=%u len=%u src_gap=0 dst_gap=%u\n",
                       ull(off), n, len, stride - len);
    else
        micro_text_add(&c->b, "copy_ubuf_to_gm dst=x+0x%llx src=ub:0x0 nburst=%u len=%u src_gap=0 dst_gap=%u\n",
                       ull(off), n, len / 32, (stride - len) / 32);
}

/* One path's instructions, for the shared study. */
typedef struct path {
    bool write, l1, cube;
    unsigned gran;         /* smallest burst length in bytes */
    unsigned max_rows;
    uint64_t local_size;   /* the local buffer's bytes */
} path_t;

static void path_copy(micro_ctx_t *c, const path_t *p, uint64_t off, uint64_t d)
{
    if (p->write)
        write_copy(c, off, d);
    else
        read_copy(c, p->l1, off, d);
}

static void path_copy_rows(micro_ctx_t *c, const path_t *p, uint64_t off, unsigned n, unsigned len, unsigned stride)
{
    if (p->write)
        write_copy_rows(c, off, n, len, stride);
    else
        read_copy_rows(c, p->l1, off, n, len, stride);
}

/* T of a kernel built by the caller into c->b. */
static int time_built(micro_ctx_t *c, outcome_t *m, const path_t *p, uint64_t bytes, uint64_t base, uint64_t *t)
{
    run_counts_t rr;
    if (micro_run_body(c, p->cube, bytes, base, &rr) != DV_OK)
        return FAIL(m, "kernel failed: %s [%.*s]", c->err.msg, (int)strcspn(c->b.s, "\n"), c->b.s);
    *t = rr.cycles;
    return MS_OK;
}

/* T of the kernel in c->b with its reads hitting in L2: run it twice on the same lines, time the
 * second run.  (A cold read fills whole lines from HBM, which for short bursts can outlast the
 * engine; hits cost only their bytes.)  Writes, and chips without a big enough L2, run once. */
static int time_built_l2_hit(micro_ctx_t *c, outcome_t *m, const path_t *p, uint64_t bytes, uint64_t *t)
{
    const uint64_t base = micro_fresh_region(c, bytes);
    if (!p->write && bytes * 2 <= c->cfg.l2_size_bytes && time_built(c, m, p, bytes, base, t) != MS_OK)
        return m->rc;
    return time_built(c, m, p, bytes, base, t);
}

/* The per-burst engine cost in bytes of bursts of `len` bytes at uop_bytes stride: T(2q) - T(q)
 * with q = the engine rate, so both byte sums are multiples of it. */
static int burst_bytes(micro_ctx_t *c, outcome_t *m, const path_t *p, unsigned q, unsigned len, uint64_t *out)
{
    const unsigned U = (unsigned)c->cfg.gm_uop_bytes;
    uint64_t t1, t2;
    micro_text_clear(&c->b);
    path_copy_rows(c, p, 0, q, len, U);
    if (time_built_l2_hit(c, m, p, (uint64_t)q * U, &t1) != MS_OK)
        return m->rc;
    micro_text_clear(&c->b);
    path_copy_rows(c, p, 0, 2 * q, len, U);
    if (time_built_l2_hit(c, m, p, 2ull * q * U, &t2) != MS_OK)
        return m->rc;
    *out = t2 - t1;
    return MS_OK;
}

/* The engine rows of one path: rate, burst overhead, micro-op minimum, issue, latencies. */
/* The shortest burst the uop study reads: the granularity, and for reads a whole multiple of
 * gm.align_bytes (a shorter read is unaligned and bypasses L2, whose bandwidth may then bind). */
static unsigned small_burst(const dv_config_t *g, const path_t *p)
{
    if (p->write)
        return p->gran;
    uint64_t a = g->gm_align_bytes, b = p->gran;
    while (b) {
        const uint64_t r = a % b;
        a = b;
        b = r;
    }
    return (unsigned)(p->gran / a * g->gm_align_bytes); /* lcm(gran, align) */
}

static int study_gm_path(micro_ctx_t *c, gm_study_t *s, const path_t *p)
{
    outcome_t *m = &s->m;
    const dv_config_t *g = &c->cfg;
    const unsigned U = (unsigned)g->gm_uop_bytes;
    uint64_t tm, t1, t2;
    if (micro_time_mask(c, p->cube, &tm, m) != MS_OK)
        return m->rc;
    /* 1. rate: one burst of 1/8 vs 7/8 of the local buffer */
    const uint64_t d1 = p->local_size / 8 / 32 * 32, d2 = p->local_size * 7 / 8 / 32 * 32;
    micro_text_clear(&c->b);
    path_copy(c, p, 0, d1);
    if (time_built_l2_hit(c, m, p, d1, &t1) != MS_OK)
        return m->rc;
    micro_text_clear(&c->b);
    path_copy(c, p, 0, d2);
    if (time_built_l2_hit(c, m, p, d2, &t2) != MS_OK)
        return m->rc;
    if (t2 <= t1)
        return FAIL(m, "T(%llu B) = %llu, T(%llu B) = %llu", ull(d1), ull(t1), ull(d2), ull(t2));
    s->rate = micro_ratio(d2 - d1, t2 - t1);
    snprintf(s->how_rate, sizeof s->how_rate, "T(%llu B) = %llu, T(%llu B) = %llu", ull(d1), ull(t1), ull(d2), ull(t2));
    if (!p->write) { /* the miss latency: the d1 burst on fresh lines (one burst: its requests in flight never bind) */
        uint64_t tc;
        micro_text_clear(&c->b);
        path_copy(c, p, 0, d1);
        if (time_built(c, m, p, d1, micro_fresh_region(c, d1), &tc) != MS_OK)
            return m->rc;
        if (tc < t1)
            return FAIL(m, "T(%llu B, fresh lines) = %llu < T(in L2) = %llu", ull(d1), ull(tc), ull(t1));
        s->miss_extra = tc - t1;
        snprintf(s->how_miss, sizeof s->how_miss, "one %llu B burst: T(fresh lines) = %llu, T(in L2) = %llu", ull(d1),
                 ull(tc), ull(t1));
    }
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
    const unsigned small = small_burst(g, p);
    if (small > len)
        return NA(m, "an aligned burst (gm.align_bytes = %llu) is longer than the %u B bursts that fit",
                  ull(g->gm_align_bytes), len);
    /* reads keep at most mte2.outstanding_bursts bursts in flight, each for mte2.latency_cycles on an L2 hit:
     * the q bursts must take longer in the engine than that, or the engine's costs are hidden */
    const uint64_t in_flight =
        p->write ? 0 : dv_ceil_div((uint64_t)q * g->mte2_latency_cycles, g->mte2_outstanding_bursts);
    if (in_flight >= engine_burst_bytes(g, q, len))
        return NA(m, "%u bursts in flight for mte2.latency_cycles = %llu each (mte2.outstanding_bursts = %llu) take "
                  "longer than the engine", q, ull(g->mte2_latency_cycles), ull(g->mte2_outstanding_bursts));
    s->uop_hidden = in_flight >= engine_burst_bytes(g, q, small);
    if (burst_bytes(c, m, p, q, len, &cb) != MS_OK || burst_bytes(c, m, p, q, small, &cg) != MS_OK)
        return m->rc;
    if (cb < len || (!s->uop_hidden && cg < cb - len + small))
        return FAIL(m, "per-burst bytes %llu (%u B bursts), %llu (%u B bursts) do not fit the engine model", ull(cb),
                    len, ull(cg), small);
    s->open = cb - len;
    s->uop = (cg - s->open) / q; /* uop x rate bytes when above the burst (exact when rate > the burst) */
    snprintf(s->how_burst, sizeof s->how_burst, "%u vs %u bursts of %u B: %llu B per burst", q, 2 * q, len, ull(cb));
    snprintf(s->how_uop, sizeof s->how_uop, "%u vs %u bursts of %u B: %llu B per burst, overhead %llu, rate %u", q,
             2 * q, small, ull(cg), ull(s->open), q);
    /* 3. issue and latency: occ of the q-burst copy C, as the cycles of a second copy C' after it
     * (both on lines in L2 when there is one); the miss latency from C on cold lines */
    const uint64_t bytes = (uint64_t)q * U, base = micro_fresh_region(c, bytes);
    uint64_t t, tt, th;
    micro_text_clear(&c->b);
    path_copy_rows(c, p, 0, q, len, U);
    if (time_built(c, m, p, bytes, base, &t) != MS_OK)
        return m->rc;
    s->have_hit = !p->write && g->l2_size_bytes >= 4 * bytes;
    th = t;
    if (s->have_hit &&
        time_built(c, m, p, bytes, base, &th) != MS_OK) /* the same copy again: its lines are in L2 now */
        return m->rc;
    micro_text_clear(&c->b);
    path_copy_rows(c, p, 0, q, len, U);
    path_copy_rows(c, p, bytes, q, len, U);
    if (time_built_l2_hit(c, m, p, 2 * bytes, &tt) != MS_OK)
        return m->rc;
    const uint64_t occ = tt - th;
    if (micro_occ_seen(c, m, occ, "the copy") != MS_OK)
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
    p.max_rows = p.l1 ? (unsigned)dv_min_u64(16384, g->l1_size_bytes / 32) : 4095;
    return p;
}

static int study_read(micro_ctx_t *c)
{
    gm_study_t *s = &c->rd;
    outcome_t *m = &s->m;
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
    return m->rc = study_gm_path(c, s, &p);
}

static int study_write(micro_ctx_t *c)
{
    gm_study_t *s = &c->wr;
    outcome_t *m = &s->m;
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
    return m->rc = study_gm_path(c, s, &p);
}

/* Whether n 2-byte bursts at 2-byte stride cost more from GM offset 1 than from offset 0. */
static int odd_start_costs_more(micro_ctx_t *c, outcome_t *m, const path_t *p, unsigned n, bool *x)
{
    uint64_t te, to;
    micro_text_clear(&c->b);
    path_copy_rows(c, p, 0, n, 2, 2);
    if (time_built(c, m, p, 2ull * n + 4, 0, &te) != MS_OK)
        return m->rc;
    micro_text_clear(&c->b);
    path_copy_rows(c, p, 1, n, 2, 2);
    if (time_built(c, m, p, 2ull * n + 4, 0, &to) != MS_OK)
        return m->rc;
    *x = to > te;
    return MS_OK;
}

/* gm.uop_bytes: n bursts of 2 bytes at 2-byte stride; from an odd address burst U/2 - 1 straddles a
 * micro-op boundary (two 1-byte micro-ops), from an even one none does (U even). */
void mb_read_uop_bytes(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    study_read(c);
    if (!micro_usable(&c->rd.m, r))
        return;
    if (c->rd.uop == 0) {
        micro_row_na(r, "mte2.uop_cycles is 0: a micro-op costs only its bytes, so where bursts are cut is invisible");
        return;
    }
    const path_t p = read_path(&c->cfg);
    if (p.gran != 1) {
        micro_row_na(r, "needs byte-granular reads");
        return;
    }
    /* the 2-byte bursts on fresh lines keep at most mte2.outstanding_bursts in flight, each for the read latency
     * with an L2 miss: that must take less than the engine, whose cycles show the boundary */
    const dv_config_t *g = &c->cfg;
    const uint64_t lat = g->mte2_latency_cycles + g->hbm_latency_cycles;
    if (lat * c->rd.rate >= g->mte2_outstanding_bursts * (c->rd.open + dv_max_u64(c->rd.uop * c->rd.rate, 2))) {
        micro_row_na(r, "2-byte bursts on fresh lines in flight for %llu cycles each (mte2.outstanding_bursts = %llu) "
                     "take longer than the engine", ull(lat), ull(g->mte2_outstanding_bursts));
        return;
    }
    outcome_t m = {0};
    bool x;
    unsigned lo = 0, hi = p.max_rows;
    if (odd_start_costs_more(c, &m, &p, hi, &x) != MS_OK)
        goto fail;
    if (!x) {
        micro_row_na(r, "no micro-op boundary within %u bytes", 2 * hi);
        return;
    }
    while (hi - lo > 1) {
        const unsigned mid = lo + (hi - lo) / 2;
        if (odd_start_costs_more(c, &m, &p, mid, &x) != MS_OK)
            goto fail;
        *(x ? &hi : &lo) = mid;
    }
    micro_figure(r, 2ull * hi, 2ull * hi, "%u bursts from an odd address cost more than from an even one, %u do not",
                 hi, lo);
    return;
fail:
    micro_usable(&m, r);
}

/* Whether a read of o bytes at offset o is aligned: kernel W reads it twice (the second read hits
 * the lines the first allocated, unless the burst bypasses L2), kernel C reads it and then the same
 * shape on other lines (both miss).  Same instructions, so T(W) < T(C) exactly when the second read
 * of W hit: the burst went through L2. */
static int probe_aligned(micro_ctx_t *c, outcome_t *m, const path_t *p, unsigned o, bool *aligned)
{
    const uint64_t other = 8192; /* a second region, line-aligned for any l2.line_bytes up to it */
    uint64_t tw, tc;
    micro_text_clear(&c->b);
    path_copy_rows(c, p, o, 1, o, o);
    path_copy_rows(c, p, o, 1, o, o);
    if (time_built(c, m, p, other + 2ull * o, 0, &tw) != MS_OK)
        return m->rc;
    micro_text_clear(&c->b);
    path_copy_rows(c, p, o, 1, o, o);
    path_copy_rows(c, p, other + o, 1, o, o);
    if (time_built(c, m, p, other + 2ull * o, 0, &tc) != MS_OK)
        return m->rc;
    *aligned = tw < tc;
    return MS_OK;
}

/* gm.align_bytes: the smallest o for which a burst of o bytes at offset o goes through L2 (its start
 * and end are then multiples of the alignment, and no smaller o has both). */
void mb_read_align(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    enum { CAP = 1024 };
    const path_t p = read_path(&c->cfg);
    if (p.gran != 1) {
        micro_row_na(r, "needs byte-granular reads");
        return;
    }
    if (c->cfg.l2_size_bytes < 2 * 8192 + 4ull * CAP) {
        micro_row_na(r, "needs an L2 that holds the probes' lines");
        return;
    }
    outcome_t m = {0};
    for (unsigned o = 1; o <= CAP && o <= p.max_rows; o++) {
        bool al = false;
        if (probe_aligned(c, &m, &p, o, &al) != MS_OK) {
            micro_usable(&m, r);
            return;
        }
        if (al) {
            micro_figure(r, o, o, "a burst of %u bytes at offset %u is the first to hit in L2 on a re-read "
                         "(smaller ones bypass it)", o, o);
            return;
        }
    }
    micro_row_na(r, "no burst of up to %u bytes hits in L2 on a re-read (an L2 hit costs no less than a miss, "
                 "or the alignment is larger)", (unsigned)CAP);
}

/* One figure of a GM path's study (arg: MX_GM_*, + MX_GM_WRITE for the write path).  Read latency
 * splits into the L2-hit part and the miss's extra (arg + 1 = the miss); writes see one latency. */
void mb_gm(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    const bool write = arg >= MX_GM_WRITE;
    gm_study_t *s = write ? &c->wr : &c->rd;
    if (write)
        study_write(c);
    else
        study_read(c);
    if (!micro_usable(&s->m, r))
        return;
    switch (arg % MX_GM_WRITE) {
    case MX_GM_RATE:
        micro_figure(r, s->rate, s->rate, "%s: %s", write ? "UB -> GM" : s->l1 ? "GM -> L1" : "GM -> UB", s->how_rate);
        return;
    case MX_GM_BURST:
        micro_figure(r, s->open, s->open, "%s", s->how_burst);
        return;
    case MX_GM_UOP:
        if (s->uop_hidden) {
            micro_row_na(r, "%llu bursts of the shortest aligned read in flight for mte2.latency_cycles each take "
                         "longer than the engine (mte2.outstanding_bursts = %llu)", ull(s->rate),
                         ull(c->cfg.mte2_outstanding_bursts));
            return;
        }
        if (!write && small_burst(&c->cfg, &(path_t){.gran = read_path(&c->cfg).gran}) >= s->rate && s->uop <= 1) {
            micro_row_na(r, "the shortest aligned read (gm.align_bytes = %llu) takes a cycle at the rate: a micro-op "
                         "minimum of one cycle is hidden", ull(c->cfg.gm_align_bytes));
            return;
        }
        micro_figure(r, s->uop, s->uop, "%s", s->how_uop);
        return;
    case MX_GM_ISSUE:
        micro_figure(r, s->issue, s->issue, "%s", s->how_issue);
        return;
    }
    if (write) {
        micro_figure(r, s->lat_miss, s->lat_miss, "%s", s->how_lat);
        return;
    }
    if (!s->have_hit) {
        micro_row_na(r, "no L2 (l2.size_bytes = 0): every read misses, so only the sum %llu is seen", ull(s->lat_miss));
        return;
    }
    const bool miss = arg % MX_GM_WRITE != MX_GM_LATENCY;
    if (miss && dv_hbm_sustained_bytes_per_cycle(&c->cfg) < c->cfg.gm_core_read_bytes_per_cycle) {
        micro_row_na(r,
                     "HBM's sustained rate (%llu B/cycle) is below one core's read engine (%llu B/cycle): a miss adds "
                     "transfer time to the latency",
                     ull(dv_hbm_sustained_bytes_per_cycle(&c->cfg)), ull(c->cfg.gm_core_read_bytes_per_cycle));
        return;
    }
    if (miss)
        micro_figure(r, s->miss_extra, s->miss_extra, "%s", s->how_miss);
    else
        micro_figure(r, s->lat_hit, s->lat_hit, "%s", s->how_lat);
}

/* A local side's rate, seen only when it is slower than the engine: one burst of 1/8 vs 7/8 of the
 * buffer.  arg: DV_SPACE_L1 / DV_SPACE_UB (reads), DV_SPACE_GM (writes from UB). */
void mb_local_rate(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    const dv_config_t *g = &c->cfg;
    const bool write = arg == DV_SPACE_GM, l1 = arg == DV_SPACE_L1;
    const uint64_t local = write ? g->mte3_local_bytes_per_cycle
                                 : l1 ? g->mte2_l1_bytes_per_cycle : g->mte2_ub_bytes_per_cycle;
    const uint64_t engine = write ? g->gm_core_write_bytes_per_cycle : g->gm_core_read_bytes_per_cycle;
    const uint64_t size = l1 ? g->l1_size_bytes : g->ub_size_bytes;
    if (local >= engine) {
        micro_row_na(r, "the %s engine (%llu B/cycle) binds before the local side (%llu B/cycle)",
                     write ? "write" : "read", ull(engine), ull(local));
        return;
    }
    if (size < 1024) {
        micro_row_na(r, "no %s on this chip", l1 ? "L1" : "UB");
        return;
    }
    const uint64_t d1 = size / 8 / 32 * 32, d2 = size * 7 / 8 / 32 * 32;
    /* the memory side: reads hit in L2 where it holds the copy twice over (tb_hit), writes go to L2
     * and, written through, to HBM */
    const uint64_t hbm = dv_hbm_sustained_bytes_per_cycle(g);
    uint64_t shared = g->l2_bytes_per_cycle;
    if ((write && g->l2_write_through) || (!write && 2 * d2 > g->l2_size_bytes))
        shared = dv_min_u64(shared, hbm);
    if (shared < local) {
        micro_row_na(r, "the memory side (%llu B/cycle from %s) binds before the local side (%llu B/cycle)",
                     ull(shared), shared == g->l2_bytes_per_cycle ? "L2" : "HBM", ull(local));
        return;
    }
    outcome_t m = {0};
    path_t p = {0};
    p.write = write;
    p.l1 = l1;
    p.cube = l1;
    uint64_t t1, t2;
    micro_text_clear(&c->b);
    path_copy(c, &p, 0, d1);
    if (time_built_l2_hit(c, &m, &p, d1, &t1) != MS_OK)
        goto fail;
    micro_text_clear(&c->b);
    path_copy(c, &p, 0, d2);
    if (time_built_l2_hit(c, &m, &p, d2, &t2) != MS_OK)
        goto fail;
    if (t2 <= t1) {
        FAIL(&m, "T(%llu B) = %llu, T(%llu B) = %llu", ull(d1), ull(t1), ull(d2), ull(t2));
        goto fail;
    }
    micro_figure(r, micro_ratio(d2 - d1, t2 - t1), micro_ratio(d2 - d1, t2 - t1), "T(%llu B) = %llu, T(%llu B) = %llu",
                 ull(d1), ull(t1), ull(d2), ull(t2));
    return;
fail:
    micro_usable(&m, r);
}

/* ================================================================ FixPipe */

/* FixPipe L0C -> L1 of 16 f32 columns x mm rows: 64 x mm bytes read from L0C. */
static void fixpipe_insn_text(unsigned mm, char *out, size_t cap)
{
    snprintf(out, cap,
             "copy_matrix_cc_to_cbuf dst=l1:0x0 src=l0c:0x0 n_size=16 m_size=%u src_stride=%u dst_stride=16\n", mm, mm);
}

static int study_fix(micro_ctx_t *c)
{
    outcome_t *m = &c->fix_m;
    if (m->done)
        return m->rc;
    m->done = true;
    const dv_config_t *g = &c->cfg;
    if (!g->chip_has_fix_pipe)
        return NA(m, "no FIX pipe on this chip");
    /* 16 columns x mm rows of f32: 64 x mm bytes read from L0C */
    const unsigned m2 = (unsigned)(dv_min_u64(g->l0c_size_bytes, g->l1_size_bytes) / 64 * 7 / 8), m1 = m2 / 7;
    uint64_t tm, t1, t2, t, tt;
    if (m1 < 1)
        return NA(m, "L0C too small");
    char l1[160], l2[160], lb[160];
    fixpipe_insn_text(m1, l1, sizeof l1);
    fixpipe_insn_text(m2, l2, sizeof l2);
    if (micro_time_mask(c, true, &tm, m) || micro_time_body(c, m, true, 0, 0, &t1, "%s", l1) ||
        micro_time_body(c, m, true, 0, 0, &t2, "%s", l2))
        return m->rc;
    if (t2 <= t1)
        return FAIL(m, "T(%u rows) = %llu, T(%u rows) = %llu", m1, ull(t1), m2, ull(t2));
    c->fix_rate = micro_ratio(64ull * (m2 - m1), t2 - t1);
    snprintf(c->fix_how[0], sizeof c->fix_how[0], "T(%llu B) = %llu, T(%llu B) = %llu", 64ull * m1, ull(t1), 64ull * m2,
             ull(t2));
    /* rate rows of 16 f32 columns: 64 x rate bytes, exactly 64 cycles at the rate */
    const unsigned mb = (unsigned)c->fix_rate;
    if (mb < 1 || mb > m2)
        return FAIL(m, "rate %u out of the measurable range", mb);
    fixpipe_insn_text(mb, lb, sizeof lb);
    if (micro_time_body(c, m, true, 0, 0, &t, "%s", lb) || micro_time_body(c, m, true, 0, 0, &tt, "%s%s", lb, lb))
        return m->rc;
    const uint64_t occ = tt - t;
    if (micro_occ_seen(c, m, occ, "the FixPipe copy") != MS_OK)
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

void mb_fix(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    study_fix(c);
    if (!micro_usable(&c->fix_m, r))
        return;
    const uint64_t v = arg == 0 ? c->fix_rate : arg == 1 ? c->fix_issue : c->fix_lat;
    micro_figure(r, v, v, "%s", c->fix_how[arg]);
}

/* ================================================================ shared memory system */

/* Every core of the kernel reads d bytes `reps` times back to back: from its own region of d bytes
 * (the same lines each time), or, with `fresh_lines`, from a new region each time.  A mix kernel runs
 * on every core of a split chip (AIC reads into L1, AIVs into UB). */
/* The streams of every core (each its own d bytes of x, reps times; fresh_lines: each copy on new
 * lines), x in L2 mode `l2` ("normal" or "disable"). */
static int stream_reads_l2(micro_ctx_t *c, outcome_t *m, bool mix, unsigned cores, uint64_t d, unsigned reps,
                           bool fresh_lines, uint64_t base, const char *l2, run_counts_t *out)
{
    const dv_kind_t kind = mix ? DV_KIND_MIX : DV_KIND_VECTOR;
    const unsigned blocks = mix ? dv_topo_kernel_cores(&c->cfg, kind) : cores;
    micro_kernel_header(c, mix ? "mix" : "vector", blocks, 0);
    micro_text_add(&c->k, "arg x bytes=%llu dtype=u8 dir=inout l2=%s\n",
                   ull((uint64_t)cores * d * (fresh_lines ? reps : 1)), l2);
    unsigned k = 0;
    for (unsigned b = 0; b < blocks; b++) {
        for (unsigned s = 0; s < dv_topo_kernel_subs(&c->cfg, kind); s++, k++) {
            char name[16];
            if (mix)
                micro_text_add(&c->k, "block %u %s\n", b, dv_topo_sub_name(s, name, sizeof name));
            else
                micro_text_add(&c->k, "block %u\n", b);
            /* a core without a UB (the AIC) reads into L1 */
            const bool l1 = !dv_topo_has_buffer(&c->cfg, dv_topo_stream_type(&c->cfg, kind, s), DV_SPACE_UB);
            for (unsigned i = 0; i < reps; i++)
                micro_text_add(&c->k, "copy_gm_to_%s dst=%s:0x0 src=x+0x%llx nburst=1 len=%llu\n", l1 ? "cbuf" : "ubuf",
                               l1 ? "l1" : "ub", ull(((fresh_lines ? i * cores : 0) + k) * d), ull(d / 32));
        }
    }
    micro_text_add(&c->k, "end\n");
    if (micro_run_text(c, base, out) != DV_OK)
        return FAIL(m, "%u-core stream failed: %s", cores, c->err.msg);
    if (out->finish_n != cores)
        return FAIL(m, "%u of %u cores ran", out->finish_n, cores);
    return MS_OK;
}

static int stream_reads(micro_ctx_t *c, outcome_t *m, bool mix, unsigned cores, uint64_t d, unsigned reps,
                        bool fresh_lines, uint64_t base, run_counts_t *out)
{
    return stream_reads_l2(c, m, mix, cores, d, reps, fresh_lines, base, "normal", out);
}

/* Steady-state streaming rate: SR1 vs SR2 copies per core, so the start cancels; timed by the cores'
 * mean finishing cycle, which fair sharing keeps steady where the last finisher varies. */
enum { SR1 = 9, SR2 = 33 };

static uint64_t stream_rate(unsigned cores, uint64_t d, const run_counts_t *r1, const run_counts_t *r2)
{
    const uint64_t bytes = (uint64_t)cores * (SR2 - SR1) * d; /* x cores / sum of finishing cycles */
    return micro_ratio(bytes * cores, r2->finish_sum - r1->finish_sum);
}

/* One core's read rate in a stream of whole micro-ops: the engine's, or the micro-op minimum's. */
static uint64_t stream_read_rate(const dv_config_t *g)
{
    const uint64_t rate = g->gm_core_read_bytes_per_cycle;
    return g->mte2_uop_cycles ? dv_min_u64(rate, g->gm_uop_bytes / g->mte2_uop_cycles) : rate;
}

/* Can every vector core reading at once show HBM's sustained rate?  False (the row marked not
 * observable, with the reason) when they cannot demand clearly more, or when L2 is slower. */
static bool hbm_can_bind(micro_ctx_t *c, dv_micro_result_t *r)
{
    const dv_config_t *g = &c->cfg;
    const uint64_t hbm = dv_hbm_sustained_bytes_per_cycle(g);
    const uint64_t demand = c->nvec * dv_min_u64(stream_read_rate(g), g->mte2_ub_bytes_per_cycle);
    if (demand * 4 < hbm * 5) {
        micro_row_na(r, "the %u vector cores together read %llu B/cycle, not clearly above HBM's %llu", c->nvec,
                     ull(demand), ull(hbm));
        return false;
    }
    if (g->l2_bytes_per_cycle < hbm) {
        micro_row_na(r, "L2 (l2.bytes_per_cycle = %llu) is slower than HBM's sustained %llu B/cycle: it binds",
                     ull(g->l2_bytes_per_cycle), ull(hbm));
        return false;
    }
    return true;
}

void mb_hbm_stream(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    const dv_config_t *g = &c->cfg;
    if (!hbm_can_bind(c, r))
        return;
    outcome_t m = {0};
    const uint64_t d = g->ub_size_bytes * 7 / 8 / 512 * 512, bytes = (uint64_t)c->nvec * d * SR2;
    run_counts_t r1, r2;
    if (stream_reads(c, &m, false, c->nvec, d, SR1, true, micro_fresh_region(c, bytes), &r1) ||
        stream_reads(c, &m, false, c->nvec, d, SR2, true, micro_fresh_region(c, bytes), &r2)) {
        micro_usable(&m, r);
        return;
    }
    const uint64_t v = stream_rate(c->nvec, d, &r1, &r2);
    micro_figure(r, v, v, "%u cores x %d vs %d copies of %llu B, all misses: mean finish %llu, %llu (T = %llu, %llu)",
                 c->nvec, SR1, SR2, ull(d), ull(r1.finish_sum / c->nvec), ull(r2.finish_sum / c->nvec), ull(r1.cycles),
                 ull(r2.cycles));
}

/* The L2 mode disable: every vector core reads its own 7/8 of UB once, then 9 vs 33 times again, x in
 * mode disable.  Its lines are never allocated, so every re-read comes from HBM: the rate is HBM's
 * sustained one (in mode normal the re-reads would hit L2). */
void mb_l2_disable(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    const dv_config_t *g = &c->cfg;
    const uint64_t d = g->ub_size_bytes * 7 / 8 / 512 * 512;
    if (g->l2_size_bytes < (uint64_t)c->nvec * d) {
        micro_row_na(r, "the %u cores' %llu B would not stay in L2 in mode normal either (l2.size_bytes = %llu)",
                     c->nvec, ull(d), ull(g->l2_size_bytes));
        return;
    }
    if (!hbm_can_bind(c, r))
        return;
    outcome_t m = {0};
    const uint64_t base = micro_fresh_region(c, (uint64_t)c->nvec * d);
    run_counts_t rw, r1, r2;
    if (stream_reads_l2(c, &m, false, c->nvec, d, 1, false, base, "disable", &rw) ||
        stream_reads_l2(c, &m, false, c->nvec, d, SR1, false, base, "disable", &r1) ||
        stream_reads_l2(c, &m, false, c->nvec, d, SR2, false, base, "disable", &r2)) {
        micro_usable(&m, r);
        return;
    }
    const uint64_t v = stream_rate(c->nvec, d, &r1, &r2);
    micro_figure(r, v, v, "%u cores re-read %d vs %d times %llu B in mode disable: mean finish %llu, %llu "
                 "(T = %llu, %llu)", c->nvec, SR1, SR2, ull(d), ull(r1.finish_sum / c->nvec),
                 ull(r2.finish_sum / c->nvec), ull(r1.cycles), ull(r2.cycles));
}

/* Every vector core re-reads its own region `reps` times in L2 mode disable: each copy n bursts of b
 * bytes, `stride` bytes apart (stride == b: one burst of n x b bytes). */
static int bypass_rows_on(micro_ctx_t *c, outcome_t *m, unsigned cores, bool shared, unsigned n, unsigned b,
                          unsigned stride, unsigned reps, uint64_t base, run_counts_t *out)
{
    const uint64_t region = (uint64_t)n * 2 * b; /* room for the strided copy */
    micro_kernel_header(c, "vector", cores, 0);
    micro_text_add(&c->k, "arg x bytes=%llu dtype=u8 dir=inout l2=disable\n", ull((shared ? 1 : cores) * region));
    for (unsigned k = 0; k < cores; k++) {
        const uint64_t off = shared ? 0 : k * region;
        micro_text_add(&c->k, "block %u\n", k);
        for (unsigned i = 0; i < reps; i++) {
            if (stride == b)
                micro_text_add(&c->k, "copy_gm_to_ubuf dst=ub:0x0 src=x+0x%llx nburst=1 len=%u\n", ull(off),
                               n * b / 32);
            else
                micro_text_add(&c->k, "copy_gm_to_ubuf dst=ub:0x0 src=x+0x%llx nburst=%u len=%u src_gap=%u dst_gap=0\n",
                               ull(off), n, b / 32, (stride - b) / 32);
        }
    }
    micro_text_add(&c->k, "end\n");
    if (micro_run_text(c, base, out) != DV_OK)
        return FAIL(m, "bypass copy failed: %s", c->err.msg);
    if (out->finish_n != cores)
        return FAIL(m, "%u of %u cores ran", out->finish_n, cores);
    return MS_OK;
}

/* Every vector core re-reads its own region (see bypass_rows_on). */
static int bypass_rows(micro_ctx_t *c, outcome_t *m, unsigned n, unsigned b, unsigned stride, unsigned reps,
                       uint64_t base, run_counts_t *out)
{
    return bypass_rows_on(c, m, c->nvec, false, n, b, stride, reps, base, out);
}

/* One core's read rate on bursts of b bytes that bypass L2: its engine's, its local side's, or what
 * mte2.outstanding_bursts requests in flight for a miss's latency each allow, whichever is lowest. */
static uint64_t bypass_core_rate(const dv_config_t *g, uint64_t b)
{
    const uint64_t cap = g->gm_core_read_bytes_per_cycle;
    const uint64_t per_burst = engine_burst_bytes(g, cap, b);
    const uint64_t lat = g->mte2_latency_cycles + g->hbm_latency_cycles;
    const uint64_t flight = lat ? b * g->mte2_outstanding_bursts / lat : UINT64_MAX;
    return dv_min_u64(dv_min_u64(b * cap / per_burst, g->mte2_ub_bytes_per_cycle), flight);
}

/* The shorter bursts (128 B, or gm.align_bytes if larger, or twice that) at which the vector cores,
 * reading in L2 mode disable, demand 1.9 times HBM's share of b / (b + request overhead): nearer,
 * the calendar's fair-share rounding moved the figures by up to 8% (a 310 of 4 cores); on longer
 * bursts the overhead is too small a part of the time to read to 3%.  0 when neither does. */
static unsigned bypass_burst(const micro_ctx_t *c)
{
    const dv_config_t *g = &c->cfg;
    const uint64_t hbm = dv_hbm_sustained_bytes_per_cycle(g);
    for (uint64_t b = dv_max_u64(128, g->gm_align_bytes); b <= 256; b *= 2)
        if ((uint64_t)c->nvec * bypass_core_rate(g, b) * (b + g->hbm_request_overhead_bytes) * 10 >= hbm * b * 19)
            return (unsigned)b;
    return 0;
}

/* The common conditions of the rows that read in L2 mode disable on every vector core: an L2 to
 * bypass, HBM that can bind, and a burst length (bypass_burst); false (the row marked not
 * observable) when one fails. */
static bool bypass_row_ready(micro_ctx_t *c, dv_micro_result_t *r, unsigned *b)
{
    if (c->cfg.l2_size_bytes == 0) {
        micro_row_na(r, "no L2 (l2.size_bytes = 0): no request bypasses it");
        return false;
    }
    if (!hbm_can_bind(c, r))
        return false;
    *b = bypass_burst(c);
    if (*b == 0) {
        micro_row_na(r, "the %u vector cores' bursts of up to 256 B do not demand 1.9 times HBM's share", c->nvec);
        return false;
    }
    return true;
}

/* hbm.request_overhead_bytes: the same bytes as n short bursts or as one long one, both bypassing
 * L2; the short ones take longer by the HBM capacity their requests cost beyond their bytes. */
void mb_hbm_request(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    const dv_config_t *g = &c->cfg;
    unsigned b;
    if (!bypass_row_ready(c, r, &b))
        return;
    const unsigned n = (unsigned)dv_min_u64(256, g->ub_size_bytes * 7 / 8 / b);
    outcome_t m = {0};
    const uint64_t base = micro_fresh_region(c, (uint64_t)c->nvec * n * 2 * b);
    run_counts_t s1, s2, l1, l2;
    if (bypass_rows(c, &m, n, b, 2 * b, SR1, base, &s1) || bypass_rows(c, &m, n, b, 2 * b, SR2, base, &s2) ||
        bypass_rows(c, &m, n, b, b, SR1, base, &l1) || bypass_rows(c, &m, n, b, b, SR2, base, &l2)) {
        micro_usable(&m, r);
        return;
    }
    const uint64_t ds = s2.cycles - s1.cycles, dl = l2.cycles - l1.cycles;
    if (ds < dl) {
        micro_figure(r, 0, 0, "short bursts faster than one long one: cycle difference %llu < %llu", ull(ds),
                     ull(dl));
        return;
    }
    const uint64_t v = micro_ratio((uint64_t)b * (ds - dl), dl);
    micro_figure(r, v, v, "%u cores x %d vs %d copies of %u x %u B bursts 2x apart vs one of %u B, L2 mode disable: "
                 "cycle difference %llu vs %llu", c->nvec, SR1, SR2, n, b, n * b, ull(ds), ull(dl));
}

/* hbm.same_address_overhead_bytes: every vector core reads the same region in step vs each its own, n
 * bursts of b bytes at a 2b pitch per copy, L2 mode disable; one burst of n x b bytes per copy (own
 * regions) gives HBM's time per byte.  The extra time of the shared region, in bytes, per read the
 * model counted as queued behind another core's at the same address. */
void mb_hbm_same_address(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    const dv_config_t *g = &c->cfg;
    if (c->nvec < 2) {
        micro_row_na(r, "one vector core: no other core reads the same address");
        return;
    }
    unsigned b;
    if (!bypass_row_ready(c, r, &b))
        return;
    b *= 2; /* longer bursts: more of the cores' reads overlap in time */
    const unsigned n = (unsigned)dv_min_u64(128, g->ub_size_bytes * 7 / 8 / b);
    outcome_t m = {0};
    const uint64_t base = micro_fresh_region(c, (uint64_t)c->nvec * n * 2 * b);
    run_counts_t s1, s2, o1, o2, l1, l2;
    if (bypass_rows_on(c, &m, c->nvec, true, n, b, 2 * b, SR1, base, &s1) ||
        bypass_rows_on(c, &m, c->nvec, true, n, b, 2 * b, SR2, base, &s2) ||
        bypass_rows(c, &m, n, b, 2 * b, SR1, base, &o1) || bypass_rows(c, &m, n, b, 2 * b, SR2, base, &o2) ||
        bypass_rows(c, &m, n, b, b, SR1, base, &l1) || bypass_rows(c, &m, n, b, b, SR2, base, &l2)) {
        micro_usable(&m, r);
        return;
    }
    const uint64_t ds = s2.cycles - s1.cycles, dow = o2.cycles - o1.cycles, dl = l2.cycles - l1.cycles;
    const uint64_t queued = s2.same_addr - s1.same_addr;
    if (queued == 0 || o2.same_addr != 0) {
        micro_row_na(r, "%llu reads queued at the same address in step, %llu on the cores' own regions: the cores "
                     "do not read in step", ull(queued), ull(o2.same_addr));
        return;
    }
    if (ds < dow) {
        micro_figure(r, 0, 0, "reading one region in step is faster than each its own: %llu < %llu cycles", ull(ds),
                     ull(dow));
        return;
    }
    /* dl cycles carry nvec x (SR2 - SR1) x n x b bytes */
    const uint64_t bytes = (uint64_t)c->nvec * (SR2 - SR1) * n * b;
    const uint64_t v = micro_ratio((ds - dow) * bytes, dl * queued);
    micro_figure(r, v, v, "%u cores x %d vs %d copies of %u x %u B bursts, one region in step vs own regions: cycle "
                 "difference %llu vs %llu, %llu reads queued; one %u B burst per copy: %llu", c->nvec, SR1, SR2, n, b,
                 ull(ds), ull(dow), ull(queued), n * b, ull(dl));
}

/* mte2.outstanding_bursts: one core reads copies of n short bursts in L2 mode disable, each burst in
 * flight for the read latency with a miss (mte2.latency + mte2.miss, as measured by those rows): SR1
 * vs SR2 copies; figure = bursts x latency / cycle difference. */
void mb_mte2_outstanding(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    const dv_config_t *g = &c->cfg;
    study_read(c);
    if (!micro_usable(&c->rd.m, r))
        return;
    if (!c->rd.have_hit) {
        micro_row_na(r, "no L2 (l2.size_bytes = 0): the read latency is measured only as a sum");
        return;
    }
    if (dv_hbm_sustained_bytes_per_cycle(g) < g->gm_core_read_bytes_per_cycle) {
        micro_row_na(r, "HBM's sustained rate is below one core's read engine: the miss latency (mte2.miss) is not "
                     "measured");
        return;
    }
    const uint64_t lat = c->rd.lat_hit + c->rd.miss_extra;
    const unsigned b = (unsigned)dv_max_u64(32, g->gm_align_bytes);
    /* n a multiple of the profile's figure, so that n x latency / outstanding_bursts is whole */
    const uint64_t q = g->mte2_outstanding_bursts;
    const uint64_t k = dv_max_u64(1, 256 / q);
    const uint64_t n = q * k;
    if (n > 4095 || n * b > g->ub_size_bytes) {
        micro_row_na(r, "%llu bursts of %u B do not fit one copy into UB", ull(n), b);
        return;
    }
    const uint64_t cap = g->gm_core_read_bytes_per_cycle, hbm = dv_hbm_sustained_bytes_per_cycle(g);
    const uint64_t engine = g->mte2_issue_cycles + dv_ceil_div(n * engine_burst_bytes(g, cap, b), cap);
    const uint64_t mem = dv_ceil_div(n * (b + g->hbm_request_overhead_bytes), hbm);
    if (k * lat <= dv_max_u64(engine, dv_max_u64(mem, dv_ceil_div(n * b, g->mte2_ub_bytes_per_cycle)))) {
        micro_row_na(r, "%llu bursts in flight for %llu cycles each take no longer than the engine (%llu cycles) or "
                     "HBM (%llu)", ull(n), ull(lat), ull(engine), ull(mem));
        return;
    }
    outcome_t m = {0};
    const uint64_t base = micro_fresh_region(c, n * 2 * b);
    run_counts_t r1, r2;
    if (bypass_rows_on(c, &m, 1, false, (unsigned)n, b, 2 * b, SR1, base, &r1) ||
        bypass_rows_on(c, &m, 1, false, (unsigned)n, b, 2 * b, SR2, base, &r2)) {
        micro_usable(&m, r);
        return;
    }
    const uint64_t d = r2.cycles - r1.cycles;
    const uint64_t v = micro_ratio((SR2 - SR1) * n * lat, d);
    micro_figure(r, v, v, "1 core x %d vs %d copies of %llu bursts of %u B in L2 mode disable, latency %llu: cycle "
                 "difference %llu", SR1, SR2, ull(n), b, ull(lat), ull(d));
}

void mb_l2_stream(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    const dv_config_t *g = &c->cfg;
    const bool mix = dv_topo_kernel_subs(g, DV_KIND_MIX) > 0; /* then every core of the chip reads */
    const unsigned cores = mix ? dv_topo_cores(g) : c->nvec;
    const uint64_t rate = stream_read_rate(g);
    const uint64_t demand = (mix ? g->chip_ai_cores * dv_min_u64(rate, g->mte2_l1_bytes_per_cycle) : 0) +
                            c->nvec * dv_min_u64(rate, g->mte2_ub_bytes_per_cycle);
    if (demand * 4 < g->l2_bytes_per_cycle * 5) {
        micro_row_na(r, "the %u cores together read %llu B/cycle, not clearly above L2's %llu", cores, ull(demand),
                     ull(g->l2_bytes_per_cycle));
        return;
    }
    const uint64_t size = mix ? dv_min_u64(g->ub_size_bytes, g->l1_size_bytes) : g->ub_size_bytes;
    const uint64_t d = size * 7 / 8 / 512 * 512;
    if (cores * d * 2 > g->l2_size_bytes) {
        micro_row_na(r, "%u cores x %llu B do not stay in L2", cores, ull(d));
        return;
    }
    outcome_t m = {0};
    const uint64_t base = micro_fresh_region(c, cores * d);
    run_counts_t rw, r1, r2;
    if (stream_reads(c, &m, mix, cores, d, 1, false, base, &rw) ||
        stream_reads(c, &m, mix, cores, d, SR1, false, base, &r1) ||
        stream_reads(c, &m, mix, cores, d, SR2, false, base, &r2)) {
        micro_usable(&m, r);
        return;
    }
    const uint64_t v = stream_rate(cores, d, &r1, &r2);
    micro_figure(r, v, v, "%u cores x %d vs %d copies of %llu B, all L2 hits: mean finish %llu, %llu (T = %llu, %llu)",
                 cores, SR1, SR2, ull(d), ull(r1.finish_sum / cores), ull(r2.finish_sum / cores), ull(r1.cycles),
                 ull(r2.cycles));
}

void mb_write_through(micro_ctx_t *c, int arg, dv_micro_result_t *r)
{
    (void)arg;
    if (c->cfg.l2_size_bytes == 0) {
        micro_row_na(r, "no L2: every write goes to HBM");
        return;
    }
    outcome_t m = {0};
    const uint64_t base = micro_fresh_base(c);
    run_counts_t rr;
    micro_text_clear(&c->b);
    micro_text_add(&c->b, "copy_gm_to_ubuf dst=ub:0x0 src=x+0x0 nburst=1 len=128\n");
    if (micro_run_body(c, false, 4096, base, &rr) != DV_OK) {
        FAIL(&m, "read failed: %s", c->err.msg);
        goto fail;
    }
    micro_text_clear(&c->b);
    micro_text_add(&c->b, "copy_ubuf_to_gm dst=x+0x0 src=ub:0x0 nburst=1 len=128\n");
    if (micro_run_body(c, false, 4096, base, &rr) != DV_OK) {
        FAIL(&m, "write failed: %s", c->err.msg);
        goto fail;
    }
    if (rr.hbm_wr != 0 && rr.hbm_wr != 4096) {
        FAIL(&m, "a 4096 B write sent %llu B to HBM", ull(rr.hbm_wr));
        goto fail;
    }
    micro_figure(r, rr.hbm_wr / 4096, rr.hbm_wr / 4096, "4096 B written over lines in L2: %llu B to HBM",
                 ull(rr.hbm_wr));
    return;
fail:
    micro_usable(&m, r);
}
