/* tests/check_stalls.c - stall attribution, the critical path and the instruction hot-spot table:
 * the idle causes of every pipe of every core add up to its idle cycles on every sample trace and
 * operator run; exact causes and path rows derived by hand on small kernels; the single-buffered
 * vector add names its flag wait; --instr-csv rows add up to the instruction count.  t0 =
 * chip.kernel_start_cycles + chip.block_start_cycles is when a core's scalar unit reads its first
 * instruction; issuing one costs scalar.issue_cycles (I). */
#define _GNU_SOURCE /* open_memstream */
#include <check.h>
#include <glob.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/intmath.h"
#include "dv/report.h"
#include "dv/sim.h"
#include "dv/topology.h"
#include "support/dvt.h"

#define GM0 0x100000000ull

static const char *root(void)
{
    const char *r = getenv("DVSIM_ROOT");
    return r && r[0] ? r : ".";
}

static uint64_t idle_sum(const dv_core_counters_t *k, int p)
{
    uint64_t s = 0;
    for (int c = 0; c < DV_STALL_COUNT; c++)
        if (dv_stall_spec((dv_stall_t)c)->kind == DV_STALL_KIND_IDLE)
            s += k->stall[p][c];
    return s;
}

/* Every invariant the counters promise, for a run of `what`. */
static void check_counters(const dv_config_t *cfg, const dv_counters_t *c, const char *what)
{
    uint64_t blocks = 0, crit_cores = 0, insns = 0;
    for (uint32_t i = 0; i < c->ncores; i++) {
        const dv_core_counters_t *k = &c->cores[i];
        const uint64_t window = k->last_cycle - k->first_cycle;
        for (int p = 0; p < DV_PIPE_COUNT; p++) {
            uint64_t held = 0;
            for (int s = 0; s < DV_STALL_COUNT; s++)
                if (dv_stall_spec((dv_stall_t)s)->kind == DV_STALL_KIND_HELD)
                    held += k->stall[p][s];
            if (!dv_topo_has_pipe(cfg, k->type, (dv_pipe_t)p)) {
                ck_assert_msg(idle_sum(k, p) == 0 && held == 0, "%s: %s has no %s but was charged", what, k->name,
                              dv_pipe_name((dv_pipe_t)p));
                continue;
            }
            ck_assert_msg(idle_sum(k, p) == window - k->pipe_busy[p],
                          "%s: %s %s: causes %" PRIu64 " != idle %" PRIu64 " (window %" PRIu64 ", busy %" PRIu64 ")",
                          what, k->name, dv_pipe_name((dv_pipe_t)p), idle_sum(k, p), window - k->pipe_busy[p], window,
                          k->pipe_busy[p]);
            ck_assert_msg(held <= k->pipe_busy[p], "%s: %s %s: held %" PRIu64 " > busy %" PRIu64, what, k->name,
                          dv_pipe_name((dv_pipe_t)p), held, k->pipe_busy[p]);
        }
        blocks += k->blocks;
        crit_cores += k->crit_cycles;
    }
    /* The critical path runs from the first blocks' start to the end of the last block. */
    ck_assert_uint_gt(blocks, 0);
    ck_assert_msg(c->crit_cycles == c->cycles - cfg->chip_kernel_start_cycles,
                  "%s: critical path %" PRIu64 " != cycles %" PRIu64 " - kernel start %" PRIu64, what, c->crit_cycles,
                  c->cycles, cfg->chip_kernel_start_cycles);
    ck_assert_uint_lt(c->crit_end_core, c->ncores);
    ck_assert_uint_eq(c->cores[c->crit_end_core].last_cycle, c->cycles);
    uint64_t crit_rows = 0;
    for (int op = 0; op < DV_CRIT_OPS; op++)
        for (int p = 0; p < DV_PIPE_COUNT; p++)
            crit_rows += c->crit_op_cycles[op][p];
    ck_assert_msg(crit_rows == c->crit_cycles, "%s: path rows %" PRIu64 " != %" PRIu64, what, crit_rows, c->crit_cycles);
    ck_assert_msg(crit_cores == c->crit_cycles, "%s: path by core %" PRIu64 " != %" PRIu64, what, crit_cores,
                  c->crit_cycles);
    /* Per opcode and pipe: the counts add up to the opcode's and to the run's. */
    for (int op = 0; op < DV_OP_COUNT; op++) {
        uint64_t n = 0;
        for (int p = 0; p < DV_PIPE_COUNT; p++)
            n += c->op_pipe_count[op][p];
        ck_assert_msg(n == c->op_count[op], "%s: %s by pipe %" PRIu64 " != %" PRIu64, what,
                      dv_op_spec((dv_op_t)op)->mnemonic, n, c->op_count[op]);
        insns += n;
    }
    ck_assert_uint_eq(insns, c->instructions);
}

/* The report derived from the counters: per pipe the causes add up to idle, idle + busy to the
 * summed core cycles. */
static void check_report(const dv_config_t *cfg, const dv_kernel_info_t *info, const dv_counters_t *c)
{
    dv_report_t r;
    dv_error_t err;
    ck_assert_int_eq(dv_report_derive(&r, cfg, info, c, &err), DV_OK);
    for (int p = 0; p < DV_PIPE_COUNT; p++) {
        const dv_stall_report_t *s = &r.stall[p];
        uint64_t sum = 0;
        for (int k = 0; k < DV_STALL_COUNT; k++)
            if (dv_stall_spec((dv_stall_t)k)->kind == DV_STALL_KIND_IDLE)
                sum += s->cause[k];
        ck_assert_uint_eq(sum, s->idle);
        ck_assert_uint_eq(s->idle + s->busy, s->window);
    }
    uint64_t rows = 0;
    for (int i = 0; i < r.ncrit; i++) {
        rows += r.crit[i].cycles;
        if (i)
            ck_assert_uint_ge(r.crit[i - 1].cycles, r.crit[i].cycles);
    }
    ck_assert_uint_eq(rows, r.crit_cycles);
    dv_report_free(&r);
}

/* A text being written: appending past cap fails the test. */
typedef struct text {
    char *buf;
    size_t len, cap;
} text_t;

static void put(text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text_t *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    ck_assert_msg(n >= 0 && (size_t)n < t->cap - t->len, "test text buffer too small");
    t->len += (size_t)n;
}

/* ---------------------------------------------------------------- the table */

/* dv/stall.def: names unique, flag:X and queue:X name their pipe, and docs/REPORT.md has each
 * cause's row with the table's kind and description. */
START_TEST(test_stalls_table_matches_docs)
{
    char path[512];
    snprintf(path, sizeof path, "%s/docs/REPORT.md", root());
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    static char doc[1 << 17];
    const size_t n = fread(doc, 1, sizeof doc - 1, f);
    doc[n] = '\0';
    fclose(f);
    for (int c = 0; c < DV_STALL_COUNT; c++) {
        const dv_stall_spec_t *s = dv_stall_spec((dv_stall_t)c);
        for (int d = 0; d < c; d++)
            ck_assert_str_ne(s->name, dv_stall_spec((dv_stall_t)d)->name);
        if (s->pipe >= 0) {
            char want[32];
            snprintf(want, sizeof want, "%s:%s", c >= DV_STALL_FLAG_S && c <= DV_STALL_FLAG_FIX ? "flag" : "queue",
                     dv_pipe_name((dv_pipe_t)s->pipe));
            ck_assert_str_eq(s->name, want);
        }
        char row[1024];
        snprintf(row, sizeof row, "| `%s` | %s | %s |", s->name, s->kind == DV_STALL_KIND_IDLE ? "idle" : "held",
                 s->description);
        ck_assert_msg(strstr(doc, row) != NULL, "docs/REPORT.md lacks the row\n%s", row);
    }
    for (int p = 0; p < DV_PIPE_COUNT; p++) {
        ck_assert_int_eq(dv_stall_spec((dv_stall_t)(DV_STALL_FLAG_S + p))->pipe, p);
        if (p != DV_PIPE_S)
            ck_assert_int_eq(dv_stall_spec((dv_stall_t)(DV_STALL_QUEUE_V + p - DV_PIPE_V))->pipe, p);
    }
    ck_assert_ptr_null(dv_stall_spec(DV_STALL_COUNT));
}
END_TEST

/* ---------------------------------------------------------------- hand-derived kernels */

static const char *const dma_sets[] = {
    "gm.core_read_bytes_per_cycle=64", "gm.core_write_bytes_per_cycle=64", "mte2.uop_cycles=1", "mte3.uop_cycles=1",
    "mte2.issue_cycles=10", "mte3.issue_cycles=10", "mte2.latency_cycles=100", "mte3.latency_cycles=80",
    "hbm.latency_cycles=50", "gm.burst_overhead_bytes=0", NULL};

static const dv_core_counters_t *first_aiv(const dv_counters_t *c, uint32_t *index)
{
    for (uint32_t i = 0; i < c->ncores; i++)
        if (c->cores[i].type == DV_CORE_AIV) {
            *index = i;
            return &c->cores[i];
        }
    ck_abort_msg("no AIV");
    return NULL;
}

/* copy (MTE2) -> set/wait MTE2->V -> vadd.  The copy is issued at t0 + I and done 10 + 32 cycles
 * (issue, 2 KB at 64 B/cycle) + 150 (latency, HBM miss) later; V takes the flag L later:
 *   S     busy 4I (four issues), block_start B, done for the rest
 *   MTE2  scalar I (until the copy is issued), busy until the copy is done, done after
 *   V     scalar 3I (until the wait_flag is issued), flag:MTE2 until the copy is done + L,
 *         busy for the vadd to the end
 *   MTE3  block_start, then done
 * The critical path: block start B, the copy's issue I, the copy, the flag latency L, the vadd. */
START_TEST(test_stalls_flag_wait_exact)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, dma_sets);
    const uint64_t K = cfg.chip_kernel_start_cycles, B = cfg.chip_block_start_cycles, t0 = K + B;
    const uint64_t I = cfg.scalar_issue_cycles, L = cfg.sync_flag_latency_cycles;
    const uint64_t copy_end = t0 + I + 10 + 32 + 150;
    const uint64_t v_time = dv_ceil_div(8 * 256, cfg.vc_ADD_b16_bpc) + cfg.vc_ADD_b16_lat + cfg.vector_pipeline_cycles;
    const uint64_t end = copy_end + L + v_time;
    dvt_run_t r;
    const char *t = "dvtrace 1\nkernel w kind=vector blocks=1\narg x bytes=65536 dtype=f16 dir=in\nblock 0\n"
                    "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=64\n"
                    "set_flag src=MTE2 dst=V id=0\n"
                    "wait_flag src=MTE2 dst=V id=0\n"
                    "vadd dst=ub:0x1000 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=8\nend\n";
    ck_assert_msg(dvt_run_text(&r, &cfg, t, false, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, end);
    check_counters(&cfg, &r.cnt, "flag wait");
    uint32_t core;
    const dv_core_counters_t *k = first_aiv(&r.cnt, &core);
    uint64_t want[DV_PIPE_COUNT][DV_STALL_COUNT] = {{0}};
    want[DV_PIPE_S][DV_STALL_BLOCK_START] = B;
    want[DV_PIPE_S][DV_STALL_DONE] = end - (t0 + 4 * I);
    want[DV_PIPE_MTE2][DV_STALL_BLOCK_START] = B;
    want[DV_PIPE_MTE2][DV_STALL_SCALAR] = I;
    want[DV_PIPE_MTE2][DV_STALL_DONE] = end - copy_end;
    want[DV_PIPE_V][DV_STALL_BLOCK_START] = B;
    want[DV_PIPE_V][DV_STALL_SCALAR] = 3 * I;
    want[DV_PIPE_V][DV_STALL_FLAG_MTE2] = copy_end + L - (t0 + 3 * I);
    want[DV_PIPE_MTE3][DV_STALL_BLOCK_START] = B;
    want[DV_PIPE_MTE3][DV_STALL_DONE] = end - t0;
    for (int p = 0; p < DV_PIPE_COUNT; p++)
        for (int c = 0; c < DV_STALL_COUNT; c++)
            ck_assert_msg(k->stall[p][c] == want[p][c], "%s %s: %" PRIu64 ", want %" PRIu64, dv_pipe_name((dv_pipe_t)p),
                          dv_stall_spec((dv_stall_t)c)->name, k->stall[p][c], want[p][c]);
    ck_assert_uint_eq(k->pipe_busy[DV_PIPE_S], 4 * I);
    ck_assert_uint_eq(k->pipe_busy[DV_PIPE_MTE2], copy_end - (t0 + I));
    ck_assert_uint_eq(k->pipe_busy[DV_PIPE_V], v_time);

    uint64_t want_path[DV_CRIT_OPS][DV_PIPE_COUNT] = {{0}};
    want_path[DV_CRIT_BLOCK_START][DV_PIPE_S] = B;
    want_path[DV_CRIT_ISSUE][DV_PIPE_S] = I;
    want_path[DV_OP_copy_gm_to_ubuf][DV_PIPE_MTE2] = copy_end - (t0 + I);
    want_path[DV_OP_wait_flag][DV_PIPE_V] = L;
    want_path[DV_OP_vadd][DV_PIPE_V] = v_time;
    for (int op = 0; op < DV_CRIT_OPS; op++)
        for (int p = 0; p < DV_PIPE_COUNT; p++) {
            ck_assert_msg(r.cnt.crit_op_cycles[op][p] == want_path[op][p], "path %d %s: %" PRIu64 ", want %" PRIu64, op,
                          dv_pipe_name((dv_pipe_t)p), r.cnt.crit_op_cycles[op][p], want_path[op][p]);
            ck_assert_uint_eq(r.cnt.crit_op_count[op][p], want_path[op][p] ? 1 : 0);
        }
    ck_assert_uint_eq(r.cnt.crit_end_core, core);
    ck_assert_uint_eq(k->crit_cycles, end - K);
    dvt_free(&r);
}
END_TEST

/* As test_stalls_flag_wait_exact with two flags set by the copy's completion (they share its path
 * node) and waited for in the other order: each wait starts when its flag arrives, the second at
 * the first's cycle (its node is the pipe's free node, made only when the vadd asks for it).  The
 * critical path is the same: block start B, the copy's issue I, the copy, one flag latency L (one
 * wait_flag step), the vadd. */
START_TEST(test_stalls_two_flags_one_completion_exact)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, dma_sets);
    const uint64_t K = cfg.chip_kernel_start_cycles, B = cfg.chip_block_start_cycles, t0 = K + B;
    const uint64_t I = cfg.scalar_issue_cycles, L = cfg.sync_flag_latency_cycles;
    const uint64_t copy_end = t0 + I + 10 + 32 + 150;
    const uint64_t v_time = dv_ceil_div(8 * 256, cfg.vc_ADD_b16_bpc) + cfg.vc_ADD_b16_lat + cfg.vector_pipeline_cycles;
    const uint64_t end = copy_end + L + v_time;
    dvt_run_t r;
    const char *t = "dvtrace 1\nkernel w kind=vector blocks=1\narg x bytes=65536 dtype=f16 dir=in\nblock 0\n"
                    "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=64\n"
                    "set_flag src=MTE2 dst=V id=0\n"
                    "set_flag src=MTE2 dst=V id=1\n"
                    "wait_flag src=MTE2 dst=V id=1\n"
                    "wait_flag src=MTE2 dst=V id=0\n"
                    "vadd dst=ub:0x1000 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=8\nend\n";
    ck_assert_msg(dvt_run_text(&r, &cfg, t, false, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, end);
    check_counters(&cfg, &r.cnt, "two flags");
    uint32_t core;
    const dv_core_counters_t *k = first_aiv(&r.cnt, &core);
    ck_assert_uint_eq(k->stall[DV_PIPE_V][DV_STALL_SCALAR], 4 * I);
    ck_assert_uint_eq(k->stall[DV_PIPE_V][DV_STALL_FLAG_MTE2], copy_end + L - (t0 + 4 * I));
    uint64_t want_path[DV_CRIT_OPS][DV_PIPE_COUNT] = {{0}};
    want_path[DV_CRIT_BLOCK_START][DV_PIPE_S] = B;
    want_path[DV_CRIT_ISSUE][DV_PIPE_S] = I;
    want_path[DV_OP_copy_gm_to_ubuf][DV_PIPE_MTE2] = copy_end - (t0 + I);
    want_path[DV_OP_wait_flag][DV_PIPE_V] = L;
    want_path[DV_OP_vadd][DV_PIPE_V] = v_time;
    for (int op = 0; op < DV_CRIT_OPS; op++)
        for (int p = 0; p < DV_PIPE_COUNT; p++) {
            ck_assert_msg(r.cnt.crit_op_cycles[op][p] == want_path[op][p], "path %d %s: %" PRIu64 ", want %" PRIu64, op,
                          dv_pipe_name((dv_pipe_t)p), r.cnt.crit_op_cycles[op][p], want_path[op][p]);
            ck_assert_uint_eq(r.cnt.crit_op_count[op][p], want_path[op][p] ? 1 : 0);
        }
    ck_assert_uint_eq(r.cnt.crit_end_core, core);
    ck_assert_uint_eq(k->crit_cycles, end - K);
    dvt_free(&r);
}
END_TEST

/* With a V queue of depth 2, four long vadds stall the scalar unit on the fourth (test_timing:
 * vadd1 starts at t0 + I + occ), then a copy to GM goes to MTE3.  S: queue:V for occ - 2I, busy
 * 5I.  MTE3, waiting for the scalar unit to issue its copy: scalar for the five issues (5I),
 * queue:V while the scalar unit waits.  V: scalar I before vadd0, then busy without a gap. */
START_TEST(test_stalls_queue_full_exact)
{
    static const char *const sets[] = {"queue.v_depth=2", NULL};
    dv_config_t cfg;
    dvt_config(&cfg, NULL, sets);
    ck_assert_uint_eq(cfg.scalar_issue_cycles, 1); /* test_timing_queue_full_stalls_scalar's numbers */
    const uint64_t B = cfg.chip_block_start_cycles, I = 1;
    const uint64_t occ = dv_ceil_div(255 * 256, cfg.vc_ADD_b16_bpc);
    char text[2048];
    text_t tx = {text, 0, sizeof text};
    put(&tx, "dvtrace 1\nkernel q kind=vector blocks=1\narg z bytes=4096 dtype=f16 dir=out\nblock 0\n");
    for (int i = 0; i < 4; i++)
        put(&tx, "vadd dst=ub:0x10000 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=255\n");
    put(&tx, "copy_ubuf_to_gm dst=z src=ub:0x10000 nburst=1 len=1\nend\n");
    dvt_run_t r;
    ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0) == DV_OK, "%s", r.err.msg);
    check_counters(&cfg, &r.cnt, "queue full");
    uint32_t core;
    const dv_core_counters_t *k = first_aiv(&r.cnt, &core);
    ck_assert_uint_eq(k->stall_queue_full_cycles, occ - 2 * I);
    ck_assert_uint_eq(k->stall[DV_PIPE_S][DV_STALL_QUEUE_V], occ - 2 * I);
    ck_assert_uint_eq(k->pipe_busy[DV_PIPE_S], 5 * I);
    ck_assert_uint_eq(k->stall[DV_PIPE_S][DV_STALL_BLOCK_START], B);
    ck_assert_uint_eq(k->stall[DV_PIPE_MTE3][DV_STALL_SCALAR], 5 * I);
    ck_assert_uint_eq(k->stall[DV_PIPE_MTE3][DV_STALL_QUEUE_V], occ - 2 * I);
    ck_assert_uint_eq(k->stall[DV_PIPE_MTE3][DV_STALL_BLOCK_START], B);
    ck_assert_uint_eq(k->stall[DV_PIPE_V][DV_STALL_SCALAR], I);
    ck_assert_uint_eq(k->stall[DV_PIPE_V][DV_STALL_BLOCK_START], B);
    ck_assert_uint_eq(k->stall[DV_PIPE_V][DV_STALL_QUEUE_V], 0);
    ck_assert_uint_eq(k->pipe_busy[DV_PIPE_V], 4 * occ + cfg.vc_ADD_b16_lat + cfg.vector_pipeline_cycles);
    /* The path: V's four vadds back to back (each waits for the last to free the pipe). */
    ck_assert_uint_eq(r.cnt.crit_op_count[DV_OP_vadd][DV_PIPE_V], 4);
    ck_assert_uint_eq(r.cnt.crit_op_cycles[DV_OP_vadd][DV_PIPE_V],
                      4 * occ + cfg.vc_ADD_b16_lat + cfg.vector_pipeline_cycles);
    dvt_free(&r);
}
END_TEST

/* Long chains on the path: 300 vadds back to back on V are one run of links with one key, which
 * the path keeps as one node; 300 alternating vadds and vmuls are 300 runs, more than a chain keeps
 * before it folds into a summary.  Either way every instruction's occupancy, and the last one's
 * latency, goes to its opcode, one link each (test_stalls_queue_full_exact's path, longer). */
START_TEST(test_stalls_path_long_runs_exact)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    const uint64_t add = dv_ceil_div(255 * 256, cfg.vc_ADD_b16_bpc), mul = dv_ceil_div(255 * 256, cfg.vc_MUL_b16_bpc);
    const int n = 300;
    for (int alt = 0; alt < 2; alt++) {
        static char text[300 * 80 + 512];
        text_t tx = {text, 0, sizeof text};
        put(&tx, "dvtrace 1\nkernel runs kind=vector blocks=1\narg z bytes=4096 dtype=f16 dir=out\nblock 0\n");
        for (int i = 0; i < n; i++)
            put(&tx, "%s dst=ub:0x10000 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=255\n", alt && i % 2 ? "vmul" : "vadd");
        put(&tx, "copy_ubuf_to_gm dst=z src=ub:0x10000 nburst=1 len=1\nend\n");
        dvt_run_t r;
        ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0) == DV_OK, "%s", r.err.msg);
        check_counters(&cfg, &r.cnt, alt ? "alternating" : "one run");
        if (!alt) {
            ck_assert_uint_eq(r.cnt.crit_op_count[DV_OP_vadd][DV_PIPE_V], n);
            ck_assert_uint_eq(r.cnt.crit_op_cycles[DV_OP_vadd][DV_PIPE_V],
                              n * add + cfg.vc_ADD_b16_lat + cfg.vector_pipeline_cycles);
        } else {
            ck_assert_uint_eq(r.cnt.crit_op_count[DV_OP_vadd][DV_PIPE_V], n / 2);
            ck_assert_uint_eq(r.cnt.crit_op_cycles[DV_OP_vadd][DV_PIPE_V], n / 2 * add);
            ck_assert_uint_eq(r.cnt.crit_op_count[DV_OP_vmul][DV_PIPE_V], n / 2);
            ck_assert_uint_eq(r.cnt.crit_op_cycles[DV_OP_vmul][DV_PIPE_V],
                              n / 2 * mul + cfg.vc_MUL_b16_lat + cfg.vector_pipeline_cycles);
        }
        dvt_free(&r);
    }
}
END_TEST

/* The vector add of traces/vadd_double_buffer.trace (8 blocks of 4 tiles of 8192 fp16 elements)
 * with one buffer: each tile's loads wait for the last vadd to have read the buffer, and V waits
 * for each load.  The report names flag:MTE2 as the main cause of V's idle time. */
static const char *single_buffer_trace(void)
{
    static char buf[1 << 16];
    text_t t = {buf, 0, sizeof buf};
    put(&t, "dvtrace 1\nkernel vadd_single_buffer kind=vector blocks=8\n"
            "arg x bytes=524288 dtype=f16 dir=in init=random:1\narg y bytes=524288 dtype=f16 dir=in init=random:2\n"
            "arg z bytes=524288 dtype=f16 dir=out init=zero\n");
    for (int b = 0; b < 8; b++) {
        put(&t, "block %d\n", b);
        for (int i = 0; i < 4; i++) {
            const int off = (b * 4 + i) * 0x4000;
            if (i)
                put(&t, "wait_flag src=V dst=MTE2 id=0\n");
            put(&t,
                "copy_gm_to_ubuf dst=ub:0x0 src=x+%d nburst=1 len=512\ncopy_gm_to_ubuf dst=ub:0x8000 src=y+%d "
                "nburst=1 len=512\nset_flag src=MTE2 dst=V id=0\nwait_flag src=MTE2 dst=V id=0\n",
                off, off);
            if (i)
                put(&t, "wait_flag src=MTE3 dst=V id=0\n");
            put(&t, "vadd dst=ub:0x10000 src0=ub:0x0 src1=ub:0x8000 dtype=f16 repeat=64\n");
            if (i < 3)
                put(&t, "set_flag src=V dst=MTE2 id=0\n");
            put(&t, "set_flag src=V dst=MTE3 id=0\nwait_flag src=V dst=MTE3 id=0\n"
                    "copy_ubuf_to_gm dst=z+%d src=ub:0x10000 nburst=1 len=512\n",
                off);
            if (i < 3)
                put(&t, "set_flag src=MTE3 dst=V id=0\n");
        }
    }
    put(&t, "end\n");
    return buf;
}

START_TEST(test_stalls_single_buffer_names_flag_wait)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    const char *text = single_buffer_trace();
    dvt_run_t r;
    ck_assert_msg(dvt_run_text(&r, &cfg, text, true, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.hazards, 0); /* the synchronisation is complete */
    check_counters(&cfg, &r.cnt, "single buffer");
    dv_report_t rep;
    dv_error_t err;
    ck_assert_int_eq(dv_report_derive(&rep, &cfg, &r.kernel->info, &r.cnt, &err), DV_OK);
    const dv_stall_report_t *v = &rep.stall[DV_PIPE_V];
    int top = -1;
    for (int c = 0; c < DV_STALL_COUNT; c++)
        if (dv_stall_spec((dv_stall_t)c)->kind == DV_STALL_KIND_IDLE && (top < 0 || v->cause[c] > v->cause[top]))
            top = c;
    ck_assert_str_eq(dv_stall_spec((dv_stall_t)top)->name, "flag:MTE2");
    ck_assert_uint_gt(2 * v->cause[DV_STALL_FLAG_MTE2], v->idle); /* the most, and most of it */
    /* ... and the text report says so first on V's line */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(dv_report_print(&rep, f), DV_OK);
    fclose(f);
    const char *line = strstr(buf, "\n  V      busy");
    ck_assert_msg(line != NULL, "no V line in\n%s", buf);
    const char *eol = strchr(line + 1, '\n');
    const char *first = strstr(line, "%  ");
    first = first ? strstr(first + 1, "%  ") : NULL; /* after "busy x%  idle y%  " */
    ck_assert_msg(first && first < eol && strncmp(first + 3, "flag:MTE2 ", 10) == 0, "V's line: %.*s",
                  (int)(eol - line - 1), line + 1);
    /* The critical path runs through the loads. */
    ck_assert_int_eq(rep.crit[0].op, DV_OP_copy_gm_to_ubuf);
    ck_assert_int_eq(rep.crit[0].pipe, DV_PIPE_MTE2);
    free(buf);
    dv_report_free(&rep);
    dvt_free(&r);
}
END_TEST

/* ---------------------------------------------------------------- sums everywhere */

static int run_file(const char *trace, const char *profile, dv_sim_result_t *res, dv_error_t *err)
{
    dv_profile_op_t pop = {DV_PROFILE_PRESET, profile};
    dv_sim_opts_t o;
    dv_sim_opts_default(&o);
    o.profile_ops = &pop;
    o.nprofile_ops = 1;
    o.trace = trace;
    return dv_sim_execute(&o, res, err);
}

/* Every sample trace on every preset it runs on (a mix trace needs a split chip with its AIV
 * count; the 310 conv tile uses V on a cube kernel): the causes add up everywhere. */
START_TEST(test_stalls_sum_on_sample_traces)
{
    char pattern[512];
    snprintf(pattern, sizeof pattern, "%s/traces/*.trace", root());
    glob_t gl;
    ck_assert_int_eq(glob(pattern, 0, NULL, &gl), 0);
    ck_assert_uint_ge(gl.gl_pathc, 5);
    int ran = 0;
    for (size_t i = 0; i < gl.gl_pathc; i++) {
        int ran_trace = 0;
        for (const char *const *p = dv_profile_names(); *p; p++) {
            static dv_sim_result_t res;
            dv_error_t err;
            if (run_file(gl.gl_pathv[i], *p, &res, &err) == DV_OK) {
                char what[600];
                snprintf(what, sizeof what, "%s on %s", gl.gl_pathv[i], *p);
                check_counters(&res.cfg, &res.cnt, what);
                check_report(&res.cfg, &res.kernel->info, &res.cnt);
                ran_trace++;
            }
            dv_sim_result_free(&res);
        }
        ck_assert_msg(ran_trace > 0, "%s ran on no preset", gl.gl_pathv[i]);
        ran += ran_trace;
    }
    ck_assert_int_ge(ran, 15);
    globfree(&gl);
}
END_TEST

/* Operators on the 910B2 (split: a cube kernel, a mix conv2d with cross-core flags) and the 310
 * (coupled), timing only; the conv2d's AIC streams end on a wait for the AIVs. */
/* Every operator of the library, small (test_stalls_every_operator_covered checks that none is
 * missing), the first five also at the sizes of the other tests. */
static const char *const op_cmds[] = {
    "add --shape 65536",        "add --shape 65536 --double-buffer off", "softmax --shape 64x512",
    "matmul --m 256 --n 256 --k 512", "conv2d --cin 16 --h 16 --w 16 --cout 32",
    "sub --shape 4096", "mul --shape 4096", "div --shape 4096", "max --shape 4096", "relu --shape 4096",
    "gelu --shape 4096", "exp --shape 4096", "sigmoid --shape 4096", "silu --shape 4096", "muls --shape 4096",
    "adds --shape 4096", "tanh --shape 4096", "bias_add --shape 64x96", "copy --shape 64x1024",
    "layernorm --shape 32x200", "rmsnorm --shape 32x200", "batchnorm --shape 2x8x12x12",
    "slice --shape 1x3x32x32 --step 2x2", "concat --shape 1x4x16x16", "transpose --shape 40x72",
    "min --shape 4096", "abs --shape 4096", "neg --shape 4096", "log --shape 4096", "sqrt --shape 4096",
    "rsqrt --shape 4096", "reciprocal --shape 4096", "leaky_relu --shape 4096", "divs --shape 4096",
    "maxs --shape 4096", "mins --shape 4096", "clamp --shape 4096",
    "softmax_dim --shape 8x64x16 --dim 1", "batchnorm_train --shape 4x8x100", "reduce_sum --shape 8x64x16 --axes 2",
    "reduce_mean --shape 8x64x16 --axes 2", "reduce_max --shape 8x64x16 --axes 5", "reduce_min --shape 8x64x16 --axes 1",
    "reduce_prod --shape 8x64x16 --axes 2", "reduce_var --shape 8x64x16 --axes 2",
    "reduce_logsumexp --shape 8x64x16 --axes 2", "cumsum --shape 8x64x16 --dim 1", "uniform --shape 8192",
    "random --shape 8192", "bernoulli --shape 8192", "normal --shape 8192", "floor_divide --shape 8192",
    "floor_divides --shape 8192", "fmod --shape 8192", "fmods --shape 8192", "remainder --shape 8192",
    "remainders --shape 8192", "l1_loss --shape 8192 --reduction 0", "mse_loss --shape 8192",
    "smooth_l1_loss --shape 8192 --reduction 2", "soft_margin_loss --shape 8192",
    "selu --shape 4096", "celu --shape 4096", "hardsigmoid --shape 4096", "hardswish --shape 4096", "mish --shape 4096", "softsign --shape 4096", "logsigmoid --shape 4096", "softshrink --shape 4096", "acosh --shape 4096", "asinh --shape 4096", "atanh --shape 4096", "sinh --shape 4096", "cosh --shape 4096", "erf --shape 4096", "erfc --shape 4096", "expm1 --shape 4096", "log1p --shape 4096", "log2 --shape 4096", "log10 --shape 4096", "exp2 --shape 4096", "square --shape 4096", "sign --shape 4096", "floor --shape 4096", "ceil --shape 4096", "round --shape 4096", "trunc --shape 4096", "sin --shape 4096", "cos --shape 4096",
    "fill --shape 8192", "arange --shape 8192", "dropout_mask --shape 8192", "dropout_apply --shape 8192",
    "hardshrink --shape 1024", "sigmoid_backward --shape 1024", "tanh_backward --shape 1024",
    "hardsigmoid_backward --shape 1024", "threshold_backward --shape 1024", "softshrink_backward --shape 1024",
    "hardshrink_backward --shape 1024", "selu_backward --shape 1024", "silu_backward --shape 1024",
    "softsign_backward --shape 1024",
    "eq --shape 4096", "ne --shape 4096 --dtype fp32", "lt --shape 4096 --out-dtype fp32", "gt --shape 4096",
    "le --shape 4096 --dtype int32", "ge --shape 4096 --out-dtype fp16", "eqs --shape 4096", "nes --shape 4096",
    "lts --shape 4096", "gts --shape 4096 --dtype fp32", "les --shape 4096", "ges --shape 4096",
    "lp_norm --shape 10000 --dtype fp16", "nonfinite_check --shape 10000", /* s20-each2 */
    /* ---- logical, bitwise, where (s20-logic) ---- */
    "logical_and --shape 2048", "logical_or --shape 2048 --dtype uint8", "logical_xor --shape 2048",
    "logical_not --shape 2048 --dtype int32", "isfinite --shape 2048", "isinf --shape 2048", "isposinf --shape 2048",
    "isneginf --shape 2048", "isnan --shape 2048", "signbit --shape 2048 --dtype fp32", "tensor_equal --shape 2048",
    "where --shape 2048", "masked_fill --shape 2048", "nan_to_num --shape 2048", "bitwise_and --shape 2048",
    "bitwise_or --shape 2048", "bitwise_xor --shape 2048", "bitwise_not --shape 2048", "bitwise_ands --shape 2048",
    "bitwise_ors --shape 2048", "bitwise_xors --shape 2048", "left_shift --shape 2048", "right_shift --shape 2048",
    "left_shifts --shape 2048",
    "convolution --cin 8 --h 8 --w 8 --cout 16 --groups 2 --bias" /* (s20-conv) */,
    /* ---- broadcast, expand, cast (s20-bcast) ---- */
    "expand --shape 1x64 --to 32x64", "expand --shape 48x1 --to 48x40", "cast --shape 8192",
    "cast --shape 8192 --dtype fp32 --to int8",
    /* s20-ew2 */
    "atan --shape 1024", "asin --shape 1024", "acos --shape 1024", "tan --shape 1024", "sinc --shape 1024",
    "fast_gelu --shape 1024", "swish --shape 1024", "pows --shape 1024 --scalar 2.5", "pow --shape 1024",
    "atan2 --shape 1024", "gelu_backward --shape 1024", "hardswish_backward --shape 1024",
    "mish_backward --shape 1024", "logsigmoid_backward --shape 1024", "swish_backward --shape 1024",
    "leaky_relu_backward --shape 1024", "threshold --shape 1024", "hardtanh_backward --shape 1024",
    "elu --shape 1024", "softplus --shape 1024", "softplus_backward --shape 1024", "log_add_exp --shape 1024",
    "log_add_exp2 --shape 1024", "xlogy --shape 1024", "heaviside --shape 1024", "addcmul --shape 1024",
    "addcdiv --shape 1024", "xlogy_scalar_other --shape 1024", "xlogy_scalar_self --shape 1024",
    "erfinv --shape 1024", "lerp --shape 1024", "lerps --shape 1024", "asin_backward --shape 1024",
    "acos_backward --shape 1024", "acosh_backward --shape 1024", "asinh_backward --shape 1024",
    "rsqrt_backward --shape 1024", "sqrt_backward --shape 1024", "add_relu --shape 1024",
    "elu_backward --shape 1024", "elu_backward_result --shape 1024",
    "index_select --shape 4x64x48 --index 20", "tile --shape 4x16x24 --repeats 2x1x3",
    "trilu --shape 2x24x40 --diagonal 3", "roll --shape 4x40x24 --shift 7", "flip --shape 6x10x16 --flip 1x0x1",
    "pad --shape 2x12x20 --before 0x1x2 --after 1x2x3", "eye --shape 40x24",
    "one_hot --index 64 --classes 24", "gather_elements --shape 4x16x24 --index 5" /* s20-move */,
    /* (s20-norm2) */ "reduce_nansum --shape 8x64x16 --axes 2", "reduce_logsum --shape 8x64x16 --axes 2",
    "reduce_var_mean --shape 8x64x16 --axes 2", "l1_loss_backward --shape 8192", "mse_loss_backward --shape 8192",
    "smooth_l1_loss_backward --shape 8192", "soft_margin_loss_backward --shape 8192",
    "softmax_backward --shape 8x64x16 --dim 1", "binary_cross_entropy --shape 8192 --weight on",
    "binary_cross_entropy_backward --shape 8192 --weight on",
    "bce_with_logits --shape 8192 --weight on --pos-weight on",
    "bce_with_logits_backward --shape 8192 --weight on --pos-weight on", "kl_div_backward --shape 8192",
    "kl_div_target_backward --shape 8192", "batchnorm_elemt --shape 4x8x256",
    "reduce_sum_square --shape 8x64x16 --axes 5", "bn_gather_stats --devices 4 --channels 256"};

START_TEST(test_stalls_sum_on_operators)
{
    static const char *const profiles[] = {"ascend910b2", "ascend310"};
    static const char *const small_queues[] = {"queue.v_depth=2", "queue.mte2_depth=2", NULL};
    for (int p = 0; p < 2; p++)
        for (size_t c = 0; c < sizeof op_cmds / sizeof op_cmds[0]; c++)
            for (int q = 0; q < 2; q++) {
                dvt_op_t r;
                ck_assert_msg(dvt_op(&r, profiles[p], q ? small_queues : NULL, op_cmds[c], false, false) == DV_OK,
                              "%s: %s", op_cmds[c], r.err.msg);
                char what[256];
                snprintf(what, sizeof what, "%s on %s%s", op_cmds[c], profiles[p], q ? " with queues of 2" : "");
                check_counters(&r.cfg, &r.cnt, what);
                check_report(&r.cfg, &r.plan.info, &r.cnt);
                dvt_op_free(&r);
            }
}
END_TEST

/* The operator list above names every operator of the library. */
START_TEST(test_stalls_every_operator_covered)
{
    const dv_opdesc_t *const *all = dv_ops_all();
    for (int i = 0; all[i]; i++) {
        const size_t n = strlen(all[i]->name);
        bool found = false;
        for (size_t j = 0; j < sizeof op_cmds / sizeof op_cmds[0] && !found; j++)
            found = strncmp(op_cmds[j], all[i]->name, n) == 0 && op_cmds[j][n] == ' ';
        ck_assert_msg(found, "operator %s is not in test_stalls_sum_on_operators", all[i]->name);
    }
}
END_TEST

/* The mix trace: the AIVs' MTE2 waits for the AICs' results through a cross-core flag, and the
 * critical path runs through an AIC into an AIV. */
START_TEST(test_stalls_cross_core)
{
    char path[512];
    snprintf(path, sizeof path, "%s/traces/matmul_relu_mix.trace", root());
    static dv_sim_result_t res;
    dv_error_t err;
    ck_assert_msg(run_file(path, "ascend910b2", &res, &err) == DV_OK, "%s", err.msg);
    uint64_t cross = 0, aic_path = 0, aiv_path = 0;
    for (uint32_t i = 0; i < res.cnt.ncores; i++) {
        const dv_core_counters_t *k = &res.cnt.cores[i];
        if (k->type == DV_CORE_AIV)
            cross += k->stall[DV_PIPE_MTE2][DV_STALL_CROSS];
        *(k->type == DV_CORE_AIC ? &aic_path : &aiv_path) += k->crit_cycles;
    }
    ck_assert_uint_gt(cross, 0);
    ck_assert_uint_gt(aic_path, 0);
    ck_assert_uint_gt(aiv_path, 0);
    ck_assert_uint_eq(res.cnt.cores[res.cnt.crit_end_core].type, DV_CORE_AIV);
    dv_sim_result_free(&res);
}
END_TEST

/* The path's memory does not grow with the kernel: one block of 1000 or of 4000 double-buffered
 * tiles keeps the same number of nodes alive at most. */
START_TEST(test_stalls_path_memory_is_bounded)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    uint64_t peak[2];
    for (int run = 0; run < 2; run++) {
        const int tiles = run ? 4000 : 1000;
        static char text[4000 * 600 + 512];
        text_t t = {text, 0, sizeof text};
        put(&t, "dvtrace 1\nkernel long kind=vector blocks=1\narg x bytes=65536 dtype=f16 dir=in\n"
                "arg z bytes=65536 dtype=f16 dir=out\nblock 0\n");
        for (int i = 0; i < tiles; i++) {
            const int b = i % 2;
            if (i >= 2)
                put(&t, "wait_flag src=V dst=MTE2 id=%d\n", b);
            put(&t, "copy_gm_to_ubuf dst=ub:0x%x src=x+%d nburst=1 len=64\nset_flag src=MTE2 dst=V id=%d\n"
                    "wait_flag src=MTE2 dst=V id=%d\n", b * 0x1000, b * 2048, b, b);
            if (i >= 2)
                put(&t, "wait_flag src=MTE3 dst=V id=%d\n", b);
            put(&t, "vadds dst=ub:0x%x src=ub:0x%x scalar=1 dtype=f16 repeat=8\n", 0x4000 + b * 0x1000, b * 0x1000);
            if (i + 2 < tiles)
                put(&t, "set_flag src=V dst=MTE2 id=%d\n", b);
            put(&t, "set_flag src=V dst=MTE3 id=%d\nwait_flag src=V dst=MTE3 id=%d\n"
                    "copy_ubuf_to_gm dst=z+%d src=ub:0x%x nburst=1 len=64\n", b, b, b * 2048, 0x4000 + b * 0x1000);
            if (i + 2 < tiles)
                put(&t, "set_flag src=MTE3 dst=V id=%d\n", b);
        }
        put(&t, "end\n");
        dvt_run_t r;
        ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0) == DV_OK, "%s", r.err.msg);
        check_counters(&cfg, &r.cnt, "long kernel");
        peak[run] = r.cnt.crit_peak_nodes;
        dvt_free(&r);
    }
    ck_assert_uint_gt(peak[0], 0);
    ck_assert_uint_eq(peak[1], peak[0]);
    ck_assert_uint_lt(peak[1], 1000); /* the 4000-tile kernel has 52,000 instructions */
}
END_TEST

/* ---------------------------------------------------------------- --instr-csv */

/* Sum of call_count over the rows of CSV text; checks the header. */
static uint64_t csv_calls(const char *csv, int *rows)
{
    ck_assert_msg(strncmp(csv, "instr,pipe,call_count,cycles,avg_cycles,running_time(us)\n", 57) == 0, "header: %.60s", csv);
    uint64_t sum = 0;
    *rows = 0;
    for (const char *l = strchr(csv, '\n') + 1; *l; l = strchr(l, '\n') + 1) {
        char instr[64], pipe[8];
        unsigned long long n, cy;
        double avg, us;
        ck_assert_msg(sscanf(l, "%63[^,],%7[^,],%llu,%llu,%lf,%lf", instr, pipe, &n, &cy, &avg, &us) == 6, "row: %.80s", l);
        ck_assert_int_ne(dv_op_lookup(instr, strlen(instr)), DV_OP_INVALID);
        ck_assert(n > 0);
        sum += n;
        (*rows)++;
    }
    return sum;
}

START_TEST(test_stalls_instr_csv_rows_sum_to_instructions)
{
    char path[512];
    snprintf(path, sizeof path, "%s/traces/vadd_double_buffer.trace", root());
    static dv_sim_result_t res;
    dv_error_t err;
    ck_assert_msg(run_file(path, "ascend910b2", &res, &err) == DV_OK, "%s", err.msg);
    dv_report_t rep;
    ck_assert_int_eq(dv_report_derive(&rep, &res.cfg, &res.kernel->info, &res.cnt, &err), DV_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(dv_report_write_instr_csv(&rep, f), DV_OK);
    fclose(f);
    int rows;
    ck_assert_uint_eq(csv_calls(buf, &rows), res.cnt.instructions);
    /* wait_flag runs on V, MTE2 and MTE3 here: one row per pipe; hottest first */
    ck_assert_int_eq(rows, rep.ninstr);
    ck_assert(strstr(buf, "\nwait_flag,V,") && strstr(buf, "\nwait_flag,MTE3,") && strstr(buf, "\nwait_flag,MTE2,"));
    for (int i = 1; i < rep.ninstr; i++)
        ck_assert_uint_ge(rep.instr[i - 1].cycles, rep.instr[i].cycles);
    /* vadd: 32 instructions of 64 repeats at the add rate, their latency, and their bank conflicts */
    const dv_config_t *cfg = &res.cfg;
    uint64_t conflicts = 0;
    for (uint32_t i = 0; i < res.cnt.ncores; i++)
        conflicts += res.cnt.cores[i].bank_conflict_cycles;
    int vadd = -1;
    for (int i = 0; i < rep.ninstr; i++)
        if (rep.instr[i].op == DV_OP_vadd)
            vadd = i;
    ck_assert_int_ge(vadd, 0);
    ck_assert_int_eq(rep.instr[vadd].pipe, DV_PIPE_V);
    ck_assert_uint_eq(rep.instr[vadd].count, 32);
    ck_assert_uint_eq(rep.instr[vadd].cycles,
                      32 * (dv_ceil_div(64 * 256, cfg->vc_ADD_b16_bpc) + cfg->vc_ADD_b16_lat + cfg->vector_pipeline_cycles) +
                          conflicts);
    free(buf);
    dv_report_free(&rep);
    dv_sim_result_free(&res);
}
END_TEST

/* The same through the program, for run and op: the CSV next to the JSON report's count. */
START_TEST(test_stalls_instr_csv_option)
{
    static const char *const cmds[] = {"run traces/vadd_double_buffer.trace", "op add --shape 4096 --cores 2"};
    const char *dvsim = getenv("DVSIM") && getenv("DVSIM")[0] ? getenv("DVSIM") : "bin/dvsim";
    for (int c = 0; c < 2; c++) {
        char dir[] = "/tmp/dvsim-stalls-XXXXXX", cmd[2048], csv_path[600], json_path[600];
        ck_assert_ptr_nonnull(mkdtemp(dir));
        snprintf(csv_path, sizeof csv_path, "%s/instr.csv", dir);
        snprintf(json_path, sizeof json_path, "%s/r.json", dir);
        snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s --quiet --instr-csv '%s' --json '%s'", root(), dvsim, cmds[c],
                 csv_path, json_path);
        ck_assert_msg(system(cmd) == 0, "%s", cmd);
        static char csv[1 << 16], json[1 << 20];
        FILE *f = fopen(csv_path, "rb");
        ck_assert_ptr_nonnull(f);
        csv[fread(csv, 1, sizeof csv - 1, f)] = '\0';
        fclose(f);
        ck_assert_ptr_nonnull(f = fopen(json_path, "rb"));
        json[fread(json, 1, sizeof json - 1, f)] = '\0';
        fclose(f);
        const char *n = strstr(json, "\"instructions\":");
        ck_assert_ptr_nonnull(n);
        int rows;
        ck_assert_uint_eq(csv_calls(csv, &rows), strtoull(n + 15, NULL, 10));
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        ck_assert_int_eq(system(cmd), 0);
    }
}
END_TEST

Suite *dv_stalls_suite(void)
{
    Suite *s = suite_create("stalls");
    TCase *tc = tcase_create("attribution");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_stalls_table_matches_docs);
    tcase_add_test(tc, test_stalls_flag_wait_exact);
    tcase_add_test(tc, test_stalls_two_flags_one_completion_exact);
    tcase_add_test(tc, test_stalls_queue_full_exact);
    tcase_add_test(tc, test_stalls_path_long_runs_exact);
    tcase_add_test(tc, test_stalls_single_buffer_names_flag_wait);
    tcase_add_test(tc, test_stalls_sum_on_sample_traces);
    tcase_add_test(tc, test_stalls_sum_on_operators);
    tcase_add_test(tc, test_stalls_every_operator_covered);
    tcase_add_test(tc, test_stalls_cross_core);
    tcase_add_test(tc, test_stalls_path_memory_is_bounded);
    tcase_add_test(tc, test_stalls_instr_csv_rows_sum_to_instructions);
    tcase_add_test(tc, test_stalls_instr_csv_option);
    suite_add_tcase(s, tc);
    return s;
}
