/* tests/check_timing.c - the model's timing rules (each run on a fresh model, with a cold L2,
 * unless a test says otherwise), with exact cycle counts derived by hand from the
 * profile's numbers (docs/MODEL.md states the rules).  t0 = chip.kernel_start_cycles +
 * chip.block_start_cycles is when a core's scalar unit reads its first instruction; issuing an
 * instruction into a pipe queue costs scalar.issue_cycles (I below). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/config.h"
#include "dv/intmath.h"
#include "dv/isa.h"
#include "dv/model.h"
#include "dv/trace.h"
#include "support/dvt.h"

#define GM0 0x100000000ull


/* The first AIV of a split chip, or core 0 of a coupled one. */
static const dv_core_counters_t *first_core(const dvt_run_t *r, dv_core_type_t type)
{
    for (uint32_t i = 0; i < r->cnt.ncores; i++)
        if (r->cnt.cores[i].type == type)
            return &r->cnt.cores[i];
    ck_abort_msg("no core of type %d", type);
    return NULL;
}

START_TEST(test_timing_single_mmad)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dvt_run_t r;
    const char *t = "dvtrace 1\nkernel mm kind=cube blocks=1\nblock 0\n"
                    "mmad c=l0c:0 a=l0a:0 b=l0b:0 dtype=f16 m=64 k=128 n=32 init=1\nend\n";
    ck_assert_msg(dvt_run_text(&r, &cfg, t, true, GM0) == DV_OK, "%s", r.err.msg);
    /* issue, then ceil(64/M0) * ceil(32/N0) * ceil(128/K0) cube cycles, then the cube's tail */
    const uint64_t occupy = dv_ceil_div(64, cfg.cube_m) * dv_ceil_div(32, cfg.cube_n) * dv_ceil_div(128, cfg.cube_k_f16);
    ck_assert_uint_eq(occupy, 64); /* 4 x 2 x 8 on the 16x16x16 cube */
    ck_assert_uint_eq(r.cnt.cycles, dvt_t0(&cfg) + cfg.scalar_issue_cycles + occupy + cfg.cube_latency_cycles);
    const dv_core_counters_t *c = first_core(&r, DV_CORE_AIC);
    ck_assert_uint_eq(c->pipe_busy[DV_PIPE_M], occupy + cfg.cube_latency_cycles);
    ck_assert_uint_eq(c->pipe_insns[DV_PIPE_M], 1);
    dvt_free(&r);
}
END_TEST

/* Set a field of an instruction by name (the test builds instructions from the ISA table). */
static void setf(dv_insn_t *in, const char *name, int64_t v)
{
    int k = dv_field_index((dv_op_t)in->op, name);
    if (k >= 0)
        in->f[k].i = v;
}
static void seta(dv_insn_t *in, const char *name, dv_space_t s, uint64_t off)
{
    int k = dv_field_index((dv_op_t)in->op, name);
    if (k >= 0)
        in->f[k].u = DV_ADDR(s, off);
}

/* One vector instruction of R repeats, for every vector opcode, dtype and R in {1, 37, 255}:
 *   cycles = t0 + I + ceil(R * repeat_bytes / bytes_per_cycle) + latency + pipeline_cycles
 * with the class's rate and latency for the element width.  Operands sit in distinct bank groups
 * (src0 at row 0, src1 at row 8, dst at row 16, moving 8 rows per repeat: no bank conflicts).
 * vbrcb reads one 8-element chunk per repeat (a whole row for 32-bit types), so its dst moves one
 * row per repeat as well (dst_rep=1) and never meets the chunk's bank; vtranspose has no repeat
 * field and always counts R = 2.  The group reductions (vcgadd, vcgmax, vcgmin, vcpadd) write whole
 * rows of results per repeat, which the model counts; moving, they would reach the banks of the
 * source rows 0..7 after 32 repeats, so they write every repeat at row 16 (dst_rep=0).  The gathers
 * (vgather, vgatherb) read their offsets at 0x10000 and a source of 256 bytes; vmrgsort4 merges lists
 * of 8 records each (256 bytes of output per repeat). */
START_TEST(test_timing_vector_repeats_per_class)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    const dv_kernel_info_t noargs = {0};
    const uint32_t reps[] = {1, 37, 255};
    int cases = 0;
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const dv_op_spec_t *os = dv_op_spec((dv_op_t)op);
        if (os->pipe != DV_PIPE_V || os->form == DV_FORM_FIXPIPE)
            continue;
        for (int dt = 0; dt < DV_DT_COUNT; dt++) {
            dv_dtype_t src = (dv_dtype_t)dt, dst = (dv_dtype_t)dt;
            for (int dt2 = 0; dt2 < (os->form == DV_FORM_VCONV ? DV_DT_COUNT : 1); dt2++) {
                if (os->form == DV_FORM_VCONV) {
                    dst = (dv_dtype_t)dt2;
                    if (!dv_conv_allowed(src, dst))
                        continue;
                } else if (!(os->dtypes & (1u << dt)))
                    continue;
                const unsigned width = dv_dtype_size(src) > dv_dtype_size(dst) ? dv_dtype_size(src) : dv_dtype_size(dst);
                uint64_t bpc = 0, lat = 0;
                int vc = (int)os->cost - DV_COST_V_ADD;
                const dv_param_spec_t *ps;
                char key[96];
                static const char *const names[] = {
#define DV_VCOST(id, name, d) name,
#include "isa.def"
                };
                snprintf(key, sizeof key, "vector.%s.%s", names[vc], width == 4 ? "b32_bytes_per_cycle" : "b16_bytes_per_cycle");
                ck_assert_ptr_nonnull(ps = dv_param_find(key));
                bpc = dv_param_u64(ps, &cfg);
                snprintf(key, sizeof key, "vector.%s.%s", names[vc], width == 4 ? "b32_latency_cycles" : "b16_latency_cycles");
                ck_assert_ptr_nonnull(ps = dv_param_find(key));
                lat = dv_param_u64(ps, &cfg);
                for (size_t ri = 0; ri < (os->form == DV_FORM_VTRANSPOSE ? 1 : sizeof reps / sizeof reps[0]); ri++) {
                    const uint64_t R = os->form == DV_FORM_VTRANSPOSE ? 2 : reps[ri];
                    dv_insn_t in;
                    dv_insn_init(&in, (dv_op_t)op);
                    seta(&in, "dst", DV_SPACE_UB, 0x200);
                    seta(&in, "src", DV_SPACE_UB, 0x0);
                    seta(&in, "src0", DV_SPACE_UB, 0x0);
                    seta(&in, "src1", DV_SPACE_UB, 0x100);
                    seta(&in, "sel", DV_SPACE_UB, 0x20000);
                    seta(&in, "offset", DV_SPACE_UB, 0x10000);
                    setf(&in, "src_len", 256);
                    seta(&in, "src2", DV_SPACE_UB, 0x8000);
                    seta(&in, "src3", DV_SPACE_UB, 0x8100);
                    for (int l = 0; l < 4; l++) {
                        char len[16];
                        snprintf(len, sizeof len, "len%d", l);
                        setf(&in, len, 8);
                    }
                    setf(&in, "dtype", src);
                    setf(&in, "src_type", src);
                    setf(&in, "dst_type", dst);
                    setf(&in, "repeat", reps[ri]);
                    const bool rows =
                        op == DV_OP_vcgadd || op == DV_OP_vcgmax || op == DV_OP_vcgmin || op == DV_OP_vcpadd;
                    setf(&in, "dst_rep", rows ? 0 : os->form == DV_FORM_VREDUCE || os->form == DV_FORM_VBRCB ? 1 : 8);
                    /* a reduction re-reads rows 0..7 so its results (row 16) never share a bank */
                    if (os->form == DV_FORM_VREDUCE)
                        setf(&in, "src_rep", 0);
                    char line[1024], text[2048];
                    ck_assert_int_gt(dv_trace_format_insn(&in, &noargs, line, sizeof line), 0);
                    snprintf(text, sizeof text, "dvtrace 1\nkernel v kind=vector blocks=1\nblock 0\n%s\nend\n", line);
                    dvt_run_t r;
                    ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0) == DV_OK, "%s: %s", line, r.err.msg);
                    const uint64_t occupy = dv_ceil_div(R * cfg.vector_repeat_bytes, bpc);
                    const uint64_t want = dvt_t0(&cfg) + cfg.scalar_issue_cycles + occupy + lat + cfg.vector_pipeline_cycles;
                    ck_assert_msg(r.cnt.cycles == want, "%s: %llu cycles, expected %llu", line,
                                  (unsigned long long)r.cnt.cycles, (unsigned long long)want);
                    ck_assert_uint_eq(first_core(&r, DV_CORE_AIV)->bank_conflict_cycles, 0);
                    dvt_free(&r);
                    cases++;
                }
            }
        }
    }
    ck_assert_int_gt(cases, 100);
}
END_TEST

/* Easy numbers for the DMA path: 64 B/cycle per core, 1 cycle per micro-op minimum, issue 10,
 * latency 100 (+50 on an L2 miss), and no bound on the requests in flight that these copies reach. */
static const char *const dma_sets[] = {
    "gm.core_read_bytes_per_cycle=64", "gm.core_write_bytes_per_cycle=64", "mte2.uop_cycles=1", "mte3.uop_cycles=1",
    "mte2.issue_cycles=10", "mte3.issue_cycles=10", "mte2.latency_cycles=100", "mte3.latency_cycles=80",
    "hbm.latency_cycles=50", "gm.burst_overhead_bytes=0", "mte2.outstanding_bursts=1000", NULL};

/* Cycles of a one-block kernel of instruction `copy` on model m. */
static uint64_t run_copy_on(dv_model_t *m, const char *copy, uint64_t base)
{
    char text[1024];
    snprintf(text, sizeof text,
             "dvtrace 1\nkernel c kind=vector blocks=1\narg x bytes=1048576 dtype=f16 dir=in\nblock 0\n%s\nend\n", copy);
    dvt_run_t r;
    ck_assert_msg(dvt_run_text_on(&r, m, text, false, base) == DV_OK, "%s", r.err.msg);
    uint64_t c = r.cnt.cycles;
    dvt_free(&r);
    return c;
}

/* The same on a fresh model of cfg (a cold L2). */
static uint64_t run_copy(const dv_config_t *cfg, const char *copy, uint64_t base)
{
    dv_model_t *m = dvt_model(cfg);
    const uint64_t c = run_copy_on(m, copy, base);
    dv_model_destroy(m);
    return c;
}

/* MTE2 copy: t0 + I + issue + sum over 512 B micro-ops of ceil(bytes / 64) + latency + miss latency
 * (a cold L2 misses).  The UB side (128 B/cycle) and HBM are faster than the engine here. */
START_TEST(test_timing_mte2_burst_size_and_count)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, dma_sets);
    const uint64_t fixed = dvt_t0(&cfg) + 1 + 10 + 100 + 50;
    /* one 2048 B burst: 4 micro-ops of 512 B at 8 cycles */
    ck_assert_uint_eq(run_copy(&cfg, "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=64", GM0), fixed + 32);
    /* four 512 B bursts back to back: the same 4 micro-ops */
    ck_assert_uint_eq(run_copy(&cfg, "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=4 len=16", GM0 + 0x1000000), fixed + 32);
    /* sixteen 64 B bursts, each in its own 512 B block: 16 micro-ops of 1 cycle */
    ck_assert_uint_eq(run_copy(&cfg, "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=16 len=2 src_gap=14", GM0 + 0x2000000), fixed + 16);
    /* a 512 B burst starting 32 B into a block splits into 480 B (8 cycles) + 32 B (1 cycle) */
    ck_assert_uint_eq(run_copy(&cfg, "copy_gm_to_ubuf dst=ub:0x0 src=x+0x20 nburst=1 len=16", GM0 + 0x3000000), fixed + 9);
    /* 16 bursts of 8 KB: 256 micro-ops of 8 cycles */
    ck_assert_uint_eq(run_copy(&cfg, "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=16 len=256 dst_gap=0", GM0 + 0x4000000),
                      fixed + 16 * 16 * 8);
}
END_TEST

/* gm.burst_overhead_bytes: each GM burst costs that many bytes of engine time at the per-core cap
 * before its micro-ops, all summed in bytes and rounded up once per instruction (docs/MODEL.md). */
START_TEST(test_timing_burst_overhead)
{
    static const char *const sets[] = {"gm.core_read_bytes_per_cycle=64", "mte2.uop_cycles=1", "mte2.issue_cycles=10",
                                       "mte2.latency_cycles=100", "hbm.latency_cycles=50", "gm.burst_overhead_bytes=64",
                                       "mte2.outstanding_bursts=1000", NULL};
    dv_config_t cfg;
    dvt_config(&cfg, NULL, sets);
    const uint64_t fixed = dvt_t0(&cfg) + 1 + 10 + 100 + 50;
    /* one 2048 B burst: (64 + 4 x 512) / 64 = 33 cycles */
    ck_assert_uint_eq(run_copy(&cfg, "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=64", GM0 + 0x30000000), fixed + 33);
    /* four 512 B bursts: 4 x (64 + 512) / 64 = 36: the same bytes cost 3 cycles more in more bursts */
    ck_assert_uint_eq(run_copy(&cfg, "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=4 len=16", GM0 + 0x31000000), fixed + 36);
    /* sixteen 64 B bursts: 16 x (64 + 64) / 64 = 32, twice the bytes' own 16 cycles */
    ck_assert_uint_eq(run_copy(&cfg, "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=16 len=2 src_gap=14", GM0 + 0x32000000),
                      fixed + 32);
    /* three 100 B bursts (DataCopyPad): (3 x 64 + 300) / 64 = 7.7 -> 8 */
    ck_assert_uint_eq(run_copy(&cfg, "copy_gm_to_ubuf_align dst=ub:0x0 src=x nburst=3 len=100 src_gap=412 dst_gap=5",
                               GM0 + 0x33000000),
                      fixed + 8);
}
END_TEST

/* A DMA engine remembers the burst cost of its last transfer whose bursts start alike (DmaEngine's
 * BurstMemo): copies of other lengths, offsets and burst counts in turn on one engine (one model, a
 * new GM range each, so every read misses) cost what each costs on a fresh model, as derived by hand
 * with gm.burst_overhead_bytes=64 at 64 B/cycle. */
START_TEST(test_timing_burst_cost_memo)
{
    static const char *const sets[] = {"gm.core_read_bytes_per_cycle=64", "mte2.uop_cycles=1", "mte2.issue_cycles=10",
                                       "mte2.latency_cycles=100", "hbm.latency_cycles=50", "gm.burst_overhead_bytes=64",
                                       "mte2.outstanding_bursts=1000", NULL};
    static const struct {
        const char *copy;
        uint64_t cycles;
    } seq[] = {
        {"copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=64", 33},      /* (64 + 2048) / 64 */
        {"copy_gm_to_ubuf dst=ub:0x0 src=x+0x20 nburst=1 len=64", 34}, /* (64 + 480 + 3 x 512 + 64) / 64 */
        {"copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=64", 33},
        {"copy_gm_to_ubuf dst=ub:0x0 src=x nburst=4 len=16", 36},      /* 4 x (64 + 512) / 64 */
        {"copy_gm_to_ubuf dst=ub:0x0 src=x nburst=4 len=16", 36},
        {"copy_gm_to_ubuf dst=ub:0x0 src=x+0x20 nburst=1 len=64", 34},
        {"copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=32", 17},      /* (64 + 1024) / 64 */
    };
    dv_config_t cfg;
    dvt_config(&cfg, NULL, sets);
    const uint64_t fixed = dvt_t0(&cfg) + 1 + 10 + 100 + 50;
    dv_model_t *m = dvt_model(&cfg);
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        const uint64_t base = GM0 + 0x38000000 + (uint64_t)i * 0x1000000;
        ck_assert_uint_eq(run_copy_on(m, seq[i].copy, base), fixed + seq[i].cycles);
        ck_assert_uint_eq(run_copy(&cfg, seq[i].copy, base), fixed + seq[i].cycles);
    }
    dv_model_destroy(m);
}
END_TEST

/* l2.write_through: a write's bytes reach HBM when written (and cost HBM bandwidth then); with
 * write-back they stay in L2.  HBM is made slow (8 B/cycle nominal x 50% = 4) so it binds: 4 KB
 * written at 4 B/cycle is 1024 cycles instead of the engine's 64. */
START_TEST(test_timing_write_through)
{
    {
        const int wt = _i;
        const char *const sets[] = {"gm.core_write_bytes_per_cycle=64", "mte3.uop_cycles=1", "mte3.issue_cycles=10",
                                    "mte3.latency_cycles=80", "gm.burst_overhead_bytes=0", "hbm.bytes_per_cycle=8",
                                    "hbm.efficiency_percent=50", wt ? "l2.write_through=true" : "l2.write_through=false",
                                    NULL};
        dv_config_t cfg;
        dvt_config(&cfg, NULL, sets);
        ck_assert_uint_eq(dv_hbm_sustained_bytes_per_cycle(&cfg), 4);
        dvt_run_t r;
        const char *t = "dvtrace 1\nkernel w kind=vector blocks=1\narg y bytes=4096 dtype=f16 dir=out\nblock 0\n"
                        "copy_ubuf_to_gm dst=y src=ub:0x0 nburst=1 len=128\nend\n";
        ck_assert_msg(dvt_run_text(&r, &cfg, t, false, GM0 + 0x34000000 + (uint64_t)wt * 0x1000000) == DV_OK, "%s",
                      r.err.msg);
        const uint64_t t0 = dvt_t0(&cfg) + cfg.scalar_issue_cycles;
        if (wt) {
            ck_assert_uint_eq(r.cnt.hbm_write_bytes, 4096);
            ck_assert_uint_eq(r.cnt.cycles, t0 + 10 + 4096 / 4 + cfg.mte3_latency_cycles); /* HBM from after the issue */
        } else {
            ck_assert_uint_eq(r.cnt.hbm_write_bytes, 0);
            ck_assert_uint_eq(r.cnt.cycles, t0 + 10 + 4096 / 64 + cfg.mte3_latency_cycles);
        }
        dvt_free(&r);
    }
}
END_TEST

/* DataCopyPad (copy_*_align) goes through the same DMA path with len bytes per GM run: t0 + I +
 * issue + sum over micro-ops (cut at gm.uop_bytes = 512 address multiples) of
 * max(uop_cycles, ceil(bytes / 64)) + latency (+ miss latency for reads).  The UB side moves the
 * same bytes at 128 B/cycle and never binds here. */
START_TEST(test_timing_dma_pad_bytes)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, dma_sets);
    ck_assert_uint_eq(cfg.gm_uop_bytes, 512);
    ck_assert_uint_eq(cfg.mte2_ub_bytes_per_cycle, 128);
    const uint64_t t0 = dvt_t0(&cfg), I = cfg.scalar_issue_cycles;
    const uint64_t read = t0 + I + cfg.mte2_issue_cycles + cfg.mte2_latency_cycles + cfg.hbm_latency_cycles;
    /* one 100 B burst: one micro-op of ceil(100/64) = 2 cycles; UB side ceil(100/128) = 1 */
    ck_assert_uint_eq(run_copy(&cfg, "copy_gm_to_ubuf_align dst=ub:0x0 src=x nburst=1 len=100", GM0 + 0x5000000),
                      t0 + 1 + 10 + 2 + 100 + 50);
    ck_assert_uint_eq(t0 + 1 + 10 + 2 + 100 + 50, read + dv_ceil_div(100, cfg.gm_core_read_bytes_per_cycle));
    /* 100 B from byte 496 of a 512 B block: 16 B (1 cycle) + 84 B (2 cycles) */
    ck_assert_uint_eq(run_copy(&cfg, "copy_gm_to_ubuf_align dst=ub:0x0 src=x+496 nburst=1 len=100", GM0 + 0x6000000),
                      read + 1 + 2);
    /* three 100 B bursts 512 B apart (src_gap 412 bytes), each its own micro-op: 300 bytes at 64 B/cycle,
     * summed before rounding: ceil(300/64) = 5; the UB side takes ceil(300/128) = 3 */
    ck_assert_uint_eq(run_copy(&cfg, "copy_gm_to_ubuf_align dst=ub:0x0 src=x nburst=3 len=100 src_gap=412 dst_gap=5",
                               GM0 + 0x7000000),
                      read + 5);
    /* UB -> GM: 100 B written, no miss latency: t0 + I + 10 + 2 + mte3 latency 80 */
    ck_assert_uint_eq(run_copy(&cfg, "copy_ubuf_to_gm_align dst=x src=ub:0x0 nburst=1 len=100", GM0 + 0x8000000),
                      t0 + I + cfg.mte3_issue_cycles + dv_ceil_div(100, cfg.gm_core_write_bytes_per_cycle) + cfg.mte3_latency_cycles);
}
END_TEST

/* With len a multiple of 32 (and gaps of whole blocks) a copy_*_align moves the same runs as the
 * 32 B-unit copy and takes exactly its cycles, on the real profile numbers. */
START_TEST(test_timing_dma_pad_equals_plain_copy)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    static const struct {
        uint64_t nburst, blocks, src_gap, dst_gap, src_off; /* gaps and len in 32 B blocks */
    } cases[] = {
        {1, 1, 0, 0, 0}, {1, 64, 0, 0, 32}, {4, 16, 0, 0, 0}, {16, 2, 14, 3, 0}, {3, 300, 5, 1, 96}, {2, 7, 0, 9, 480},
    };
    uint64_t base = GM0 + 0x20000000;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int dir = 0; dir < 2; dir++) {
            char plain[256], pad[256];
            const unsigned long long nb = cases[i].nburst, L = cases[i].blocks, sg = cases[i].src_gap,
                                     dg = cases[i].dst_gap, off = cases[i].src_off;
            if (dir == 0) { /* GM gap in bytes on the source side */
                snprintf(plain, sizeof plain, "copy_gm_to_ubuf dst=ub:0x0 src=x+%llu nburst=%llu len=%llu src_gap=%llu dst_gap=%llu",
                         off, nb, L, sg, dg);
                snprintf(pad, sizeof pad,
                         "copy_gm_to_ubuf_align dst=ub:0x0 src=x+%llu nburst=%llu len=%llu src_gap=%llu dst_gap=%llu", off,
                         nb, L * 32, sg * 32, dg);
            } else { /* GM gap in bytes on the destination side */
                snprintf(plain, sizeof plain, "copy_ubuf_to_gm dst=x+%llu src=ub:0x0 nburst=%llu len=%llu src_gap=%llu dst_gap=%llu",
                         off, nb, L, sg, dg);
                snprintf(pad, sizeof pad,
                         "copy_ubuf_to_gm_align dst=x+%llu src=ub:0x0 nburst=%llu len=%llu src_gap=%llu dst_gap=%llu", off,
                         nb, L * 32, sg, dg * 32);
            }
            const uint64_t a = run_copy(&cfg, plain, base += 0x1000000);
            const uint64_t b = run_copy(&cfg, pad, base += 0x1000000);
            ck_assert_msg(a == b, "%s: %llu cycles, %s: %llu", plain, (unsigned long long)a, pad, (unsigned long long)b);
            ck_assert_uint_gt(a, dvt_t0(&cfg) + cfg.scalar_issue_cycles);
        }
}
END_TEST

/* With the GM side fast, the local side binds: 2 KB into UB at 128 B/cycle, into L1 at 256. */
START_TEST(test_timing_mte2_local_side)
{
    static const char *const sets[] = {"gm.core_read_bytes_per_cycle=1024", "mte2.uop_cycles=1", "mte2.issue_cycles=10",
                                       "mte2.latency_cycles=100", "hbm.latency_cycles=50", NULL};
    dv_config_t cfg;
    dvt_config(&cfg, NULL, sets);
    const uint64_t fixed = dvt_t0(&cfg) + 1 + 10 + 100 + 50;
    ck_assert_uint_eq(run_copy(&cfg, "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=64", GM0), fixed + 2048 / cfg.mte2_ub_bytes_per_cycle);
    dvt_run_t r;
    const char *t = "dvtrace 1\nkernel c kind=cube blocks=1\narg x bytes=4096 dtype=f16 dir=in\nblock 0\n"
                    "copy_gm_to_cbuf dst=l1:0x0 src=x nburst=1 len=64\nend\n";
    ck_assert_msg(dvt_run_text(&r, &cfg, t, false, GM0 + 0x1000000) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, fixed + 2048 / cfg.mte2_l1_bytes_per_cycle);
    ck_assert_uint_ne(cfg.mte2_ub_bytes_per_cycle, cfg.mte2_l1_bytes_per_cycle); /* ref 4.3: 128 and 256 */
    dvt_free(&r);
}
END_TEST

/* A copy and an independent vector op overlap: the kernel ends when the later one does. */
START_TEST(test_timing_independent_pipes_overlap)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, dma_sets);
    dvt_run_t r;
    const char *t = "dvtrace 1\nkernel o kind=vector blocks=1\narg x bytes=65536 dtype=f16 dir=in\nblock 0\n"
                    "copy_gm_to_ubuf dst=ub:0x10000 src=x nburst=1 len=64\n"
                    "vadd dst=ub:0x200 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=200\nend\n";
    ck_assert_msg(dvt_run_text(&r, &cfg, t, false, GM0) == DV_OK, "%s", r.err.msg);
    const uint64_t t0 = dvt_t0(&cfg);
    const uint64_t mte2_end = t0 + 1 + 10 + 32 + 100 + 50;
    const uint64_t v_time = dv_ceil_div(200 * 256, cfg.vc_ADD_b16_bpc) + cfg.vc_ADD_b16_lat + cfg.vector_pipeline_cycles;
    const uint64_t v_end = t0 + 2 + v_time; /* issued one scalar cycle after the copy */
    ck_assert_uint_eq(r.cnt.cycles, mte2_end > v_end ? mte2_end : v_end);
    ck_assert_uint_lt(r.cnt.cycles, t0 + 2 + (10 + 32 + 150) + v_time);
    dvt_free(&r);
}
END_TEST

/* wait_flag holds V until MTE2's set_flag fires (after the copy completes) + flag latency. */
START_TEST(test_timing_wait_flag_holds_pipe)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, dma_sets);
    const uint64_t t0 = dvt_t0(&cfg);
    const uint64_t v_time = dv_ceil_div(8 * 256, cfg.vc_ADD_b16_bpc) + cfg.vc_ADD_b16_lat + cfg.vector_pipeline_cycles;
    const uint64_t copy_end = t0 + 1 + 10 + 32 + 150;
    dvt_run_t r;
    const char *synced = "dvtrace 1\nkernel w kind=vector blocks=1\narg x bytes=65536 dtype=f16 dir=in\nblock 0\n"
                         "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=64\n"
                         "set_flag src=MTE2 dst=V id=0\n"
                         "wait_flag src=MTE2 dst=V id=0\n"
                         "vadd dst=ub:0x1000 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=8\nend\n";
    ck_assert_msg(dvt_run_text(&r, &cfg, synced, false, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, copy_end + cfg.sync_flag_latency_cycles + v_time);
    ck_assert_uint_eq(first_core(&r, DV_CORE_AIV)->stall_flag_cycles, copy_end + cfg.sync_flag_latency_cycles - (t0 + 3));
    ck_assert_uint_eq(first_core(&r, DV_CORE_AIV)->pipe_wait_cycles[DV_PIPE_V],
                      copy_end + cfg.sync_flag_latency_cycles - (t0 + 3)); /* it is V that waited */
    ck_assert_uint_eq(r.cnt.hazards, 0);
    dvt_free(&r);
}
END_TEST

/* set, wait, set, wait on one event with nothing between the sets: in program order no set is
 * doubled, so the second set_flag waits for the first wait_flag to consume the flag (flag latency
 * later) instead of failing; each wait then adds the flag latency. */
START_TEST(test_timing_set_after_pending_wait)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, dma_sets);
    const uint64_t t0 = dvt_t0(&cfg), fl = cfg.sync_flag_latency_cycles;
    const uint64_t v_time = dv_ceil_div(8 * 256, cfg.vc_ADD_b16_bpc) + cfg.vc_ADD_b16_lat + cfg.vector_pipeline_cycles;
    const uint64_t copy_end = t0 + 1 + 10 + 32 + 150;
    dvt_run_t r;
    const char *twice = "dvtrace 1\nkernel w kind=vector blocks=1\narg x bytes=65536 dtype=f16 dir=in\nblock 0\n"
                        "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=64\n"
                        "set_flag src=MTE2 dst=V id=0\nwait_flag src=MTE2 dst=V id=0\n"
                        "set_flag src=MTE2 dst=V id=0\nwait_flag src=MTE2 dst=V id=0\n"
                        "vadd dst=ub:0x1000 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=8\nend\n";
    ck_assert_msg(dvt_run_text(&r, &cfg, twice, false, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, copy_end + 2 * fl + v_time);
    dvt_free(&r);
}
END_TEST

/* pipe_barrier(V): the second vadd starts after the first has completed, not after it issued. */
START_TEST(test_timing_pipe_barrier_drains)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    const uint64_t t0 = dvt_t0(&cfg), I = cfg.scalar_issue_cycles;
    const uint64_t occ = dv_ceil_div(8 * 256, cfg.vc_ADD_b16_bpc), lat = cfg.vc_ADD_b16_lat + cfg.vector_pipeline_cycles;
    const char *fmt = "dvtrace 1\nkernel b kind=vector blocks=1\nblock 0\n"
                      "vadd dst=ub:0x1000 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=8\n%s"
                      "vadd dst=ub:0x2000 src0=ub:0x1000 src1=ub:0x100 dtype=f16 repeat=8\nend\n";
    char text[1024];
    dvt_run_t r;
    snprintf(text, sizeof text, fmt, "pipe_barrier pipe=V\n");
    ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, t0 + I + occ + lat + occ + lat);
    dvt_free(&r);
    snprintf(text, sizeof text, fmt, "");
    ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0 + 0x10000000) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, t0 + I + occ + occ + lat); /* pipelined without the barrier */
    dvt_free(&r);
}
END_TEST

/* Two AIVs streaming from HBM at once share its bandwidth: each takes longer than alone. */
START_TEST(test_timing_hbm_contention)
{
    static const char *const sets[] = {"chip.ai_cores=1", "hbm.bytes_per_cycle=32", "gm.core_read_bytes_per_cycle=64",
                                       "l2.size_bytes=0", NULL};
    dv_config_t cfg;
    dvt_config(&cfg, NULL, sets);
    char text[4096], *p = text;
    for (int blocks = 1; blocks <= 2; blocks++) {
        p = text;
        p += sprintf(p, "dvtrace 1\nkernel h kind=vector blocks=%d\narg x bytes=1048576 dtype=f16 dir=in\n", blocks);
        for (int b = 0; b < blocks; b++) {
            p += sprintf(p, "block %d\n", b);
            for (int i = 0; i < 8; i++)
                p += sprintf(p, "copy_gm_to_ubuf dst=ub:0x0 src=x+%d nburst=1 len=512\n", (b * 8 + i) * 16384);
        }
        sprintf(p, "end\n");
        dvt_run_t r;
        ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0 + (uint64_t)blocks * 0x10000000) == DV_OK, "%s", r.err.msg);
        static uint64_t alone;
        if (blocks == 1) {
            alone = r.cnt.cycles;
            /* alone: HBM-bound, 8 x 16 KB at 32 B/cycle */
            ck_assert_uint_ge(alone, dvt_t0(&cfg) + 8 * 16384 / 32);
        } else {
            const dv_core_counters_t *a = first_core(&r, DV_CORE_AIV), *b = a + 1;
            ck_assert_uint_eq(a->blocks, 1);
            ck_assert_uint_eq(b->blocks, 1);
            ck_assert_uint_gt(a->last_cycle, alone);
            ck_assert_uint_gt(b->last_cycle, alone);
            ck_assert_uint_ge(r.cnt.cycles, dvt_t0(&cfg) + 2 * 8 * 16384 / 32); /* the pair is HBM-bound */
        }
        dvt_free(&r);
    }
}
END_TEST

/* The same read twice on one model: the second finds its lines in L2 and is faster by exactly the
 * miss latency (the engine is the bottleneck either way); a fresh model misses again. */
START_TEST(test_timing_l2_hit_faster_than_miss)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, dma_sets);
    const char *copy = "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=64";
    dv_model_t *m = dvt_model(&cfg);
    const uint64_t miss = run_copy_on(m, copy, GM0);
    const uint64_t hit = run_copy_on(m, copy, GM0);
    dv_model_destroy(m);
    ck_assert_uint_eq(miss - hit, cfg.hbm_latency_cycles);
    ck_assert_uint_eq(hit, dvt_t0(&cfg) + 1 + 10 + 32 + 100);
    ck_assert_uint_eq(run_copy(&cfg, copy, GM0), miss);
}
END_TEST

/* With a V queue of depth 2 the scalar unit stalls on the fourth vadd until the second starts. */
START_TEST(test_timing_queue_full_stalls_scalar)
{
    static const char *const sets[] = {"queue.v_depth=2", NULL};
    dv_config_t cfg;
    dvt_config(&cfg, NULL, sets);
    const uint64_t occ = dv_ceil_div(255 * 256, cfg.vc_ADD_b16_bpc);
    dvt_run_t r;
    char text[2048], *p = text;
    p += sprintf(p, "dvtrace 1\nkernel q kind=vector blocks=1\nblock 0\n");
    for (int i = 0; i < 4; i++)
        p += sprintf(p, "vadd dst=ub:0x10000 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=255\n");
    sprintf(p, "end\n");
    ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0) == DV_OK, "%s", r.err.msg);
    /* vadd0 starts at t0+1 and leaves the queue; vadd1, vadd2 fill it by t0+3; vadd3 waits for vadd1
     * to start at t0+1+occ */
    ck_assert_uint_eq(first_core(&r, DV_CORE_AIV)->stall_queue_full_cycles, occ - 2);
    ck_assert_uint_eq(r.cnt.cycles, dvt_t0(&cfg) + 1 + 4 * occ + cfg.vc_ADD_b16_lat + cfg.vector_pipeline_cycles);
    dvt_free(&r);
}
END_TEST

/* Queues of depth 1, 3 (a ring of four slots) and 8 wrap several times under twelve vadds of
 * twelve lengths: the V pipe is never idle after the first, so the kernel ends after every vadd's
 * own occupancy once (it fails when a queue slot runs another instruction's entry: one length
 * twice, another never). */
START_TEST(test_timing_queue_wraps_each_entry_once)
{
    static const char *const depths[] = {"queue.v_depth=1", "queue.v_depth=3", "queue.v_depth=8"};
    for (int d = 0; d < 3; d++) {
        const char *sets[] = {depths[d], NULL};
        dv_config_t cfg;
        dvt_config(&cfg, NULL, sets);
        uint64_t busy = 0;
        dvt_run_t r;
        char text[4096], *p = text;
        p += sprintf(p, "dvtrace 1\nkernel q kind=vector blocks=1\nblock 0\n");
        for (int i = 0; i < 12; i++) {
            const int repeat = (64 << (i % 2)) + i; /* twelve lengths */
            busy += dv_ceil_div((uint64_t)repeat * 256, cfg.vc_ADD_b16_bpc);
            p += sprintf(p, "vadd dst=ub:0x10000 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=%d\n", repeat);
        }
        sprintf(p, "end\n");
        ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0) == DV_OK, "%s", r.err.msg);
        ck_assert_uint_eq(r.cnt.cycles, dvt_t0(&cfg) + 1 + busy + cfg.vc_ADD_b16_lat + cfg.vector_pipeline_cycles);
        dvt_free(&r);
    }
}
END_TEST

/* Twice as many blocks as AIVs: every AIV runs two waves. */
START_TEST(test_timing_blocks_run_in_waves)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    const unsigned n = (unsigned)(cfg.chip_ai_cores * cfg.chip_aiv_per_core);
    char *text = malloc(200 + 2 * n * 120), *p = text;
    p += sprintf(p, "dvtrace 1\nkernel w kind=vector blocks=%u\n", 2 * n);
    for (unsigned b = 0; b < 2 * n; b++)
        p += sprintf(p, "block %u\nvadd dst=ub:0x200 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=8\n", b);
    sprintf(p, "end\n");
    dvt_run_t r;
    ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0) == DV_OK, "%s", r.err.msg);
    const uint64_t block = cfg.chip_block_start_cycles + 1 + dv_ceil_div(8 * 256, cfg.vc_ADD_b16_bpc) + cfg.vc_ADD_b16_lat +
                           cfg.vector_pipeline_cycles;
    ck_assert_uint_eq(r.cnt.cycles, cfg.chip_kernel_start_cycles + 2 * block);
    for (uint32_t i = 0; i < r.cnt.ncores; i++)
        ck_assert_uint_eq(r.cnt.cores[i].blocks, r.cnt.cores[i].type == DV_CORE_AIV ? 2 : 0);
    dvt_free(&r);
    free(text);
}
END_TEST

/* UB bank conflicts (ref 2.1 worked example): one repeat of vdup writing 8 blocks 16 rows apart
 * puts all 8 in one bank group (8 cycles: 7 conflict cycles); 8 rows apart, 4 per group (3). */
START_TEST(test_timing_ub_bank_conflicts)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    const int strides[] = {1, 8, 16};
    const uint64_t conflicts[] = {0, 3, 7};
    for (int i = 0; i < 3; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "dvtrace 1\nkernel b kind=vector blocks=1\nblock 0\nvdup dst=ub:0x0 dtype=f16 scalar=1 repeat=1 dst_blk=%d\nend\n",
                 strides[i]);
        dvt_run_t r;
        ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0) == DV_OK, "%s", r.err.msg);
        ck_assert_uint_eq(first_core(&r, DV_CORE_AIV)->bank_conflict_cycles, conflicts[i]);
        ck_assert_uint_eq(r.cnt.cycles, dvt_t0(&cfg) + 1 + dv_ceil_div(256, cfg.vc_DUP_b16_bpc) + conflicts[i] +
                                            cfg.vc_DUP_b16_lat + cfg.vector_pipeline_cycles);
        dvt_free(&r);
    }
}
END_TEST

/* vbrcb instructions of R repeats (256 dst bytes each) and one vtranspose (512 bytes, two repeats' worth)
 * in the copy class:
 *   cycles = t0 + I + ceil(R * 256 / copy bytes_per_cycle) + conflicts + copy latency + pipeline_cycles
 * Bank conflicts (banks of 32 B rows, bank k in group k % 16): dst_blk=16 puts vbrcb's 8 blocks in
 * one group, 7 conflict cycles per repeat.  vbrcb's source is one 8-element chunk per repeat: for
 * 32-bit types a whole row, which counts as a read (a write into its bank in the same repeat costs
 * a cycle); for 16-bit types half a row, which takes no part. */
START_TEST(test_timing_vbrcb_and_vtranspose)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    ck_assert_uint_eq(cfg.ub_bank_groups, 16);
    ck_assert_uint_eq(cfg.ub_banks % 16, 0);
    ck_assert_uint_ge(cfg.ub_banks, 48);
    const uint64_t t0 = dvt_t0(&cfg), I = cfg.scalar_issue_cycles, span = cfg.ub_banks * 32; /* rows of 32 B */
    const struct {
        const char *dtype;
        uint64_t repeat, dst, src, dst_blk, dst_rep, conflicts;
    } cases[] = {
        /* dst rows 256 + 8r + i: 8 consecutive banks, 8 groups; the 16-bit chunk takes no part */
        {"f16", 37, 0x2000, 0x0, 1, 8, 0},
        /* src row r, dst rows 256 + r + i: never the chunk's bank (16 + i rows ahead) */
        {"f32", 37, 0x2000, 0x0, 1, 1, 0},
        /* dst rows 16i + r: 8 rows in one group (7 cycles per repeat); src row 1 + r is in none of
         * their banks */
        {"s32", 37, 0x0, 0x20, 16, 1, 37 * 7},
        {"u16", 37, 0x0, 0x20, 16, 1, 37 * 7},
        /* src row 3 and dst one bank span later, bank 3 again: the 32-bit chunk is read from the
         * bank block 0 writes (1 cycle); the 16-bit half row is not counted */
        {"f32", 1, 3 * 32 + span, 3 * 32, 1, 8, 1},
        {"bf16", 1, 3 * 32 + span, 3 * 32, 1, 8, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const bool b32 = dv_dtype_size((dv_dtype_t)dv_dtype_lookup(cases[i].dtype, strlen(cases[i].dtype))) == 4;
        char text[512];
        snprintf(text, sizeof text,
                 "dvtrace 1\nkernel b kind=vector blocks=1\nblock 0\nvbrcb dst=ub:0x%llx src=ub:0x%llx dtype=%s repeat=%llu "
                 "dst_blk=%llu dst_rep=%llu\nend\n",
                 (unsigned long long)cases[i].dst, (unsigned long long)cases[i].src, cases[i].dtype,
                 (unsigned long long)cases[i].repeat, (unsigned long long)cases[i].dst_blk,
                 (unsigned long long)cases[i].dst_rep);
        dvt_run_t r;
        ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0) == DV_OK, "%s", r.err.msg);
        const uint64_t want = t0 + I + dv_ceil_div(cases[i].repeat * 256, b32 ? cfg.vc_COPY_b32_bpc : cfg.vc_COPY_b16_bpc) +
                              cases[i].conflicts + (b32 ? cfg.vc_COPY_b32_lat : cfg.vc_COPY_b16_lat) +
                              cfg.vector_pipeline_cycles;
        ck_assert_msg(r.cnt.cycles == want, "%s: %llu cycles, expected %llu", text, (unsigned long long)r.cnt.cycles,
                      (unsigned long long)want);
        ck_assert_uint_eq(first_core(&r, DV_CORE_AIV)->bank_conflict_cycles, cases[i].conflicts);
        ck_assert_uint_eq(first_core(&r, DV_CORE_AIV)->pipe_insns[DV_PIPE_V], 1);
        dvt_free(&r);
    }
    /* vtranspose: 512 B at the 16-bit copy rate, src rows 0..15 and dst rows 16..31 apart */
    dvt_run_t r;
    const char *t = "dvtrace 1\nkernel t kind=vector blocks=1\nblock 0\nvtranspose dst=ub:0x200 src=ub:0x0 dtype=f16\nend\n";
    ck_assert_msg(dvt_run_text(&r, &cfg, t, false, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, t0 + I + dv_ceil_div(512, cfg.vc_COPY_b16_bpc) + cfg.vc_COPY_b16_lat + cfg.vector_pipeline_cycles);
    ck_assert_uint_eq(first_core(&r, DV_CORE_AIV)->bank_conflict_cycles, 0);
    dvt_free(&r);
}
END_TEST

/* A mix kernel: the AIC signals its AIVs (mode 2) after 1000 cycles of scalar work; each AIV's
 * scalar unit waits, then issues a vadd. */
START_TEST(test_timing_cross_core_flag)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    const char *t = "dvtrace 1\nkernel x kind=mix blocks=1\n"
                    "block 0 aic\nscalar cycles=1000\nset_cross_flag pipe=S mode=2 id=1\n"
                    "block 0 aiv0\nwait_cross_flag id=1\nvadd dst=ub:0x200 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=8\n"
                    "block 0 aiv1\nwait_cross_flag id=1\nvadd dst=ub:0x200 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=8\n"
                    "end\n";
    dvt_run_t r;
    ck_assert_msg(dvt_run_text(&r, &cfg, t, false, GM0) == DV_OK, "%s", r.err.msg);
    const uint64_t t0 = dvt_t0(&cfg), I = cfg.scalar_issue_cycles;
    const uint64_t resume = t0 + 1000 + cfg.sync_cross_latency_cycles;
    const uint64_t v_end = resume + I + I + dv_ceil_div(8 * 256, cfg.vc_ADD_b16_bpc) + cfg.vc_ADD_b16_lat + cfg.vector_pipeline_cycles;
    const dv_core_counters_t *aiv = first_core(&r, DV_CORE_AIV);
    ck_assert_uint_eq(aiv[0].last_cycle, v_end);
    ck_assert_uint_eq(aiv[1].last_cycle, v_end);
    ck_assert_uint_eq(first_core(&r, DV_CORE_AIC)->last_cycle, t0 + 1000 + I);
    ck_assert_uint_eq(r.cnt.cycles, v_end);
    dvt_free(&r);
}
END_TEST

/* Mode 1: aiv0 signals aiv1 of its group after 500 cycles of scalar work. */
START_TEST(test_timing_cross_core_mode1)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    const char *t = "dvtrace 1\nkernel x kind=mix blocks=1\nblock 0 aic\nscalar cycles=1\n"
                    "block 0 aiv0\nscalar cycles=500\nset_cross_flag pipe=S mode=1 id=3\n"
                    "block 0 aiv1\nwait_cross_flag id=3\nscalar cycles=1\nend\n";
    dvt_run_t r;
    ck_assert_msg(dvt_run_text(&r, &cfg, t, false, GM0) == DV_OK, "%s", r.err.msg);
    const uint64_t t0 = dvt_t0(&cfg), I = cfg.scalar_issue_cycles;
    const dv_core_counters_t *aiv = first_core(&r, DV_CORE_AIV);
    ck_assert_uint_eq(aiv[0].last_cycle, t0 + 500 + I);
    ck_assert_uint_eq(aiv[1].last_cycle, t0 + 500 + cfg.sync_cross_latency_cycles + I + 1);
    dvt_free(&r);
}
END_TEST

/* Mode 0: a barrier across the AIVs that run the kernel (3 of 48): all leave it when the last one
 * (after 300 cycles) has set the flag. */
START_TEST(test_timing_cross_core_mode0_barrier)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    char text[1024], *p = text;
    p += sprintf(p, "dvtrace 1\nkernel x kind=vector blocks=3\n");
    for (int b = 0; b < 3; b++)
        p += sprintf(p, "block %d\nscalar cycles=%d\nset_cross_flag pipe=S mode=0 id=0\nwait_cross_flag id=0\nscalar cycles=1\n",
                     b, 100 * (b + 1));
    sprintf(p, "end\n");
    dvt_run_t r;
    ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0) == DV_OK, "%s", r.err.msg);
    const uint64_t t0 = dvt_t0(&cfg), I = cfg.scalar_issue_cycles;
    const uint64_t leave = t0 + 300 + cfg.sync_cross_latency_cycles + I + 1;
    const dv_core_counters_t *aiv = first_core(&r, DV_CORE_AIV);
    for (int b = 0; b < 3; b++)
        ck_assert_uint_eq(aiv[b].last_cycle, leave);
    ck_assert_uint_eq(r.cnt.cycles, leave);
    dvt_free(&r);
}
END_TEST

/* Occupancy: 2 KB is written into UB by a copy and read by a vadds, whose 2 KB result is read by a
 * copy out. */
START_TEST(test_timing_ub_occupancy)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, dma_sets);
    const char *t = "dvtrace 1\nkernel o kind=vector blocks=1\narg x bytes=4096 dtype=f16 dir=in\narg z bytes=4096 dtype=f16 dir=out\n"
                    "block 0\ncopy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=64\n"
                    "set_flag src=MTE2 dst=V id=0\nwait_flag src=MTE2 dst=V id=0\n"
                    "vadds dst=ub:0x1000 src=ub:0x0 dtype=f16 scalar=1 repeat=8\n"
                    "set_flag src=V dst=MTE3 id=0\nwait_flag src=V dst=MTE3 id=0\n"
                    "copy_ubuf_to_gm dst=z src=ub:0x1000 nburst=1 len=64\nend\n";
    dvt_run_t r;
    ck_assert_msg(dvt_run_text(&r, &cfg, t, true, GM0) == DV_OK, "%s", r.err.msg);
    const uint64_t t0 = dvt_t0(&cfg), fl = cfg.sync_flag_latency_cycles;
    const uint64_t copy_end = t0 + 1 + 10 + 32 + 150;
    const uint64_t v_end = copy_end + fl + dv_ceil_div(8 * 256, cfg.vc_ADD_b16_bpc) + cfg.vc_ADD_b16_lat + cfg.vector_pipeline_cycles;
    /* copy out: 4 micro-ops of 8 cycles; the UB read side (128 B/cycle) is faster */
    const uint64_t out_end = v_end + fl + 10 + 32 + 80;
    ck_assert_uint_eq(r.cnt.cycles, out_end);
    const dv_core_counters_t *c = first_core(&r, DV_CORE_AIV);
    /* the input is occupied from the copy's start until the vadd completes; the output from the
     * vadd's start until the copy out completes: both while the vadd runs */
    const uint64_t copy_start = t0 + 1, v_start = copy_end + fl;
    ck_assert_uint_eq(c->buf[DV_SPACE_UB].peak_bytes, 4096);
    ck_assert(c->buf[DV_SPACE_UB].byte_cycles ==
              2048.0 * (double)(v_end - copy_start) + 2048.0 * (double)(out_end - v_start));
    ck_assert_uint_eq(c->gm_read_bytes, 2048);
    ck_assert_uint_eq(c->gm_write_bytes, 2048);
    dvt_free(&r);
}
END_TEST

/* A long run (about a million cycles) that alternates two UB regions, each written by a copy and read by
 * the next vadds, with the next copy waiting for that vadds: the regions are never live at the same
 * time, so the peak is exactly one region, however long the run. */
START_TEST(test_timing_occupancy_peak_is_exact_on_long_runs)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    enum { ITER = 12000 };
    char *text = malloc((size_t)ITER * 400 + 200), *p = text;
    p += sprintf(p, "dvtrace 1\nkernel o kind=vector blocks=1\narg x bytes=4096 dtype=f16 dir=in\nblock 0\n");
    for (int i = 0; i < ITER; i++)
        p += sprintf(p,
                     "copy_gm_to_ubuf dst=ub:0x%x src=x nburst=1 len=64\nset_flag src=MTE2 dst=V id=0\n"
                     "wait_flag src=MTE2 dst=V id=0\nvadds dst=ub:0x4000 src=ub:0x%x dtype=f16 scalar=1 repeat=8\n"
                     "set_flag src=V dst=MTE2 id=0\nwait_flag src=V dst=MTE2 id=0\n",
                     (i % 2) * 0x800, (i % 2) * 0x800);
    sprintf(p, "end\n");
    dvt_run_t r;
    ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0) == DV_OK, "%s", r.err.msg);
    /* long enough that 4096 time buckets would each span more than one alternation */
    ck_assert_uint_gt(r.cnt.cycles / 4096, 2 * (r.cnt.cycles / ITER));
    const dv_core_counters_t *c = first_core(&r, DV_CORE_AIV);
    ck_assert_uint_eq(c->buf[DV_SPACE_UB].peak_bytes, 2048); /* the vadds results are never read */
    dvt_free(&r);
    free(text);
}
END_TEST

Suite *dv_timing_suite(void)
{
    Suite *s = suite_create("timing");
    TCase *tc = tcase_create("rules");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_timing_single_mmad);
    tcase_add_test(tc, test_timing_vector_repeats_per_class);
    tcase_add_test(tc, test_timing_mte2_burst_size_and_count);
    tcase_add_test(tc, test_timing_mte2_local_side);
    tcase_add_test(tc, test_timing_burst_overhead);
    tcase_add_test(tc, test_timing_burst_cost_memo);
    tcase_add_loop_test(tc, test_timing_write_through, 0, 2);
    tcase_add_test(tc, test_timing_dma_pad_bytes);
    tcase_add_test(tc, test_timing_dma_pad_equals_plain_copy);
    tcase_add_test(tc, test_timing_independent_pipes_overlap);
    tcase_add_test(tc, test_timing_wait_flag_holds_pipe);
    tcase_add_test(tc, test_timing_set_after_pending_wait);
    tcase_add_test(tc, test_timing_pipe_barrier_drains);
    tcase_add_test(tc, test_timing_hbm_contention);
    tcase_add_test(tc, test_timing_l2_hit_faster_than_miss);
    tcase_add_test(tc, test_timing_queue_full_stalls_scalar);
    tcase_add_test(tc, test_timing_queue_wraps_each_entry_once);
    tcase_add_test(tc, test_timing_blocks_run_in_waves);
    tcase_add_test(tc, test_timing_ub_bank_conflicts);
    tcase_add_test(tc, test_timing_vbrcb_and_vtranspose);
    tcase_add_test(tc, test_timing_cross_core_flag);
    tcase_add_test(tc, test_timing_cross_core_mode1);
    tcase_add_test(tc, test_timing_cross_core_mode0_barrier);
    tcase_add_test(tc, test_timing_ub_occupancy);
    tcase_add_test(tc, test_timing_occupancy_peak_is_exact_on_long_runs);
    suite_add_tcase(s, tc);
    return s;
}
