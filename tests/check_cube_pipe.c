/* tests/check_cube_pipe.c - the cube pipeline's timing rules (docs/MODEL.md, "One core"), with
 * exact cycle counts derived by hand from the profile's numbers.  t0 = chip.kernel_start_cycles +
 * chip.block_start_cycles is when the scalar unit reads the first instruction; issuing one into a
 * pipe queue costs I = scalar.issue_cycles. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "dv/config.h"
#include "dv/intmath.h"
#include "dv/micro.h"
#include "dv/model.h"
#include "support/dvt.h"
#include "support/semref.h"

#define GM0 0x100000000ull

static const dv_core_counters_t *aic(const dvt_run_t *r)
{
    for (uint32_t i = 0; i < r->cnt.ncores; i++)
        if (r->cnt.cores[i].type == DV_CORE_AIC)
            return &r->cnt.cores[i];
    ck_abort_msg("no AIC");
    return NULL;
}

/* set_flag does not block its pipe (ref 4.2): MTE1 loads A (16 KB), sets MTE1->M, loads again.
 * The second load starts when the first frees the pipe (L = 16384 / l0a_bytes_per_cycle after its
 * start), not when it completes (L + load2d latency D); the flag fires at the first load's
 * completion.  Issue: load at t0 + I, set at t0 + 2I, load at t0 + 3I (I <= L).
 *   load 1: [t0+I, t0+I+L+D);  load 2: [t0+I+L, t0+I+2L+D)
 * The M side waits for the flag and runs a 128^3 mmad (C = 8 x 8 x 8 cube cycles, tail T):
 *   mmad: starts t0+I+L+D + flag latency F, ends + C + T.  The kernel ends at the later one. */
START_TEST(test_cube_set_flag_does_not_block)
{
    dv_config_t cfg;
    dvt_config(&cfg, "ascend910b1", NULL);
    const char *tr = "dvtrace 1\nkernel k kind=cube blocks=1\nblock 0\n"
                     "load_cbuf_to_ca dst=l0a:0 src=l1:0 dtype=f16 repeat=32\n"
                     "set_flag src=MTE1 dst=M id=0\n"
                     "load_cbuf_to_ca dst=l0a:16384 src=l1:16384 dtype=f16 repeat=32\n"
                     "wait_flag src=MTE1 dst=M id=0\n"
                     "%s"
                     "end\n";
    const uint64_t t0 = dvt_t0(&cfg), I = cfg.scalar_issue_cycles, L = 16384 / cfg.mte1_l0a_bytes_per_cycle;
    const uint64_t D = cfg.mte1_load2d_latency_cycles, F = cfg.sync_flag_latency_cycles, T = cfg.cube_latency_cycles;
    ck_assert_uint_le(3 * I, L);
    char text[1024];
    /* without the mmad: the second load's completion ends the kernel */
    snprintf(text, sizeof text, tr, "");
    dvt_run_t r;
    ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, t0 + I + 2 * L + D);                /* 9350 + 1 + 128 + 25 */
    ck_assert_uint_eq(aic(&r)->pipe_busy[DV_PIPE_MTE1], 2 * L + D);     /* the union of the two */
    dvt_free(&r);
    /* with it: the mmad starts at the flag, which fired at load 1's completion */
    snprintf(text, sizeof text, tr, "mmad c=l0c:0 a=l0a:0 b=l0b:0 dtype=f16 m=128 k=128 n=128 init=1\n");
    ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0) == DV_OK, "%s", r.err.msg);
    const uint64_t C = dv_ceil_div(128, cfg.cube_m) * dv_ceil_div(128, cfg.cube_n) * dv_ceil_div(128, cfg.cube_k_f16);
    ck_assert_uint_eq(r.cnt.cycles, t0 + I + L + D + F + C + T); /* 9350 + 1 + 64 + 25 + 2 + 512 + 20 */
    dvt_free(&r);
}
END_TEST

/* An mmad that accumulates (init=0) onto the L0C bytes the previous mmad writes starts at that
 * mmad's completion; one onto other bytes starts when the cube is free.  64^3 mmads: C = 4 x 4 x 4
 * cube cycles each, tail T; issued at t0 + I, + 2I, + 3I (all before the cube is free):
 *   1 init    c=0:     [t0+I, t0+I+C+T)
 *   2 acc     c=0:     [t0+I+C+T, t0+I+2C+2T)   (reads 1's tile)
 *   3 acc     c=16384: [t0+I+2C+T, t0+I+3C+2T)  (another tile: starts when 2 frees the cube)
 * The kernel ends at t0+I+3C+2T (3's completion); the M pipe is busy from t0+I to that end. */
START_TEST(test_cube_accumulate_waits_for_tile)
{
    dv_config_t cfg;
    dvt_config(&cfg, "ascend910b1", NULL);
    const char *tr = "dvtrace 1\nkernel k kind=cube blocks=1\nblock 0\n"
                     "mmad c=l0c:0 a=l0a:0 b=l0b:0 dtype=f16 m=64 k=64 n=64 init=1\n"
                     "mmad c=l0c:0 a=l0a:8192 b=l0b:8192 dtype=f16 m=64 k=64 n=64 init=0\n"
                     "mmad c=l0c:16384 a=l0a:0 b=l0b:0 dtype=f16 m=64 k=64 n=64 init=0\n"
                     "end\n";
    dvt_run_t r;
    ck_assert_msg(dvt_run_text(&r, &cfg, tr, false, GM0) == DV_OK, "%s", r.err.msg);
    const uint64_t t0 = dvt_t0(&cfg), I = cfg.scalar_issue_cycles, T = cfg.cube_latency_cycles;
    const uint64_t C = dv_ceil_div(64, cfg.cube_m) * dv_ceil_div(64, cfg.cube_n) * dv_ceil_div(64, cfg.cube_k_f16);
    ck_assert_uint_eq(C, 64);
    ck_assert_uint_eq(r.cnt.cycles, t0 + I + 3 * C + 2 * T); /* 9350 + 1 + 192 + 40 */
    ck_assert_uint_eq(aic(&r)->pipe_busy[DV_PIPE_M], 3 * C + 2 * T);
    dvt_free(&r);
    /* the same with T = 60: the accumulation wait follows the tail */
    const char *sets[] = {"cube.latency_cycles=60", NULL};
    dvt_config(&cfg, "ascend910b1", sets);
    ck_assert_msg(dvt_run_text(&r, &cfg, tr, false, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, t0 + I + 3 * C + 2 * 60);
    dvt_free(&r);
}
END_TEST

/* load_cbuf_to_ca/cb_transpose against a plain-C reference written from asc-devkit's
 * LoadDataWithTranspose pseudo-code (load_data_with_transpose.py), element by element: a square is
 * nf fractals (2 for 8- and 32-bit, 1 for 16-bit) of nf * 512 bytes; repeat i reads square
 * base + i * src_stride and writes fractal j at (i * (dst_gap + 1) + j * (dst_frac_gap + 1)) * 512.
 *   b8:  dst fractal j, row k (16), byte c (32)  = square byte j*16 + k + 32*c
 *   b16: dst element (r, c) (16 x 16)            = square element (c, r)
 *   b32: dst fractal 0 rows 0-7 / 8-15 and fractal 1 rows 0-7 / 8-15, row k, element c (8) =
 *        square element k + 8c of its first 64 / of elements 128.. / of 64.. / of 192.. */
static void ref_load2dt(uint8_t *d, const uint8_t *s, int sz, int base, int rep, int ss, int gap, int fgap)
{
    const int nf = sz == 2 ? 1 : 2, sq = nf * 512;
    for (int i = 0; i < rep; i++) {
        const uint8_t *q = s + (base + i * ss) * sq;
        for (int j = 0; j < nf; j++) {
            uint8_t *f = d + (i * (gap + 1) + j * (fgap + 1)) * 512;
            if (sz == 1)
                for (int k = 0; k < 16; k++)
                    for (int c = 0; c < 32; c++)
                        f[k * 32 + c] = q[j * 16 + k + 32 * c];
            else if (sz == 2)
                for (int r = 0; r < 16; r++)
                    for (int c = 0; c < 16; c++)
                        memcpy(f + (r * 16 + c) * 2, q + (c * 16 + r) * 2, 2);
            else
                for (int half = 0; half < 2; half++) /* rows 0-7, 8-15 of dst fractal j */
                    for (int k = 0; k < 8; k++)
                        for (int c = 0; c < 8; c++) {
                            const int src_el = (j ? 64 : 0) + (half ? 128 : 0) + k + 8 * c;
                            memcpy(f + ((half * 8 + k) * 8 + c) * 4, q + src_el * 4, 4);
                        }
        }
    }
}

START_TEST(test_cube_load_transpose_semantics)
{
    sr_seed(16);
    const dv_op_t ops[] = {DV_OP_load_cbuf_to_ca_transpose, DV_OP_load_cbuf_to_cb_transpose};
    const int dts[] = {DV_DT_S8, DV_DT_F16, DV_DT_BF16, DV_DT_F32};
    /* base, repeat, src_stride, dst_gap, dst_frac_gap */
    const int shapes[][5] = {{0, 1, 1, 0, 0}, {2, 5, 3, 1, 0}, {1, 4, 1, 0, 4}, {0, 120, 1, 1, 0}, {3, 3, 0, 2, 1}};
    for (int o = 0; o < 2; o++)
        for (int d = 0; d < 4; d++)
            for (int s = 0; s < 5; s++) {
                sr_mem_t got, want;
                sr_tmem_init(&got);
                sr_tmem_clone(&want, &got);
                const dv_op_spec_t *os = dv_op_spec(ops[o]);
                const int *p = shapes[s];
                const uint64_t soff = 1024, doff = 2048;
                dv_insn_t in;
                dv_insn_init(&in, ops[o]);
                sr_fsetu(&in, "dst", DV_ADDR(os->dst_space, doff));
                sr_fsetu(&in, "src", DV_ADDR(DV_SPACE_L1, soff));
                sr_fset(&in, "dtype", dts[d]);
                sr_fset(&in, "base_idx", p[0]);
                sr_fset(&in, "repeat", p[1]);
                sr_fset(&in, "src_stride", p[2]);
                sr_fset(&in, "dst_gap", p[3]);
                sr_fset(&in, "dst_frac_gap", p[4]);
                sr_exec_ok(&in, NULL, &got);
                ref_load2dt(want.buf[os->dst_space] + doff, want.buf[DV_SPACE_L1] + soff, (int)sr_sz(dts[d]), p[0], p[1],
                            p[2], p[3], p[4]);
                sr_expect_same(&got, &want, os->mnemonic);
                sr_tmem_free(&got);
                sr_tmem_free(&want);
            }
}
END_TEST

/* Its cost is a load2d's: the squares' bytes at the L0B path rate plus mte1.load2d_latency_cycles.
 * int8, 4 squares (4 KB) into L0B: t0 + I + 4096 / l0b_bytes_per_cycle + D. */
START_TEST(test_cube_load_transpose_timing)
{
    dv_config_t cfg;
    dvt_config(&cfg, "ascend910b1", NULL);
    const char *tr = "dvtrace 1\nkernel k kind=cube blocks=1\nblock 0\n"
                     "load_cbuf_to_cb_transpose dst=l0b:0 src=l1:0 dtype=s8 repeat=4 src_stride=1 dst_gap=1\nend\n";
    dvt_run_t r;
    ck_assert_msg(dvt_run_text(&r, &cfg, tr, false, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, dvt_t0(&cfg) + cfg.scalar_issue_cycles +
                                        dv_ceil_div(4096, cfg.mte1_l0b_bytes_per_cycle) + cfg.mte1_load2d_latency_cycles);
    dvt_free(&r);
    /* a chip without it (chip.load_transpose false) refuses the instruction, located */
    dvt_config(&cfg, "ascend310", NULL);
    ck_assert_int_eq(dvt_run_text(&r, &cfg, tr, false, GM0), DV_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(r.err.msg, "chip.load_transpose") != NULL, "%s", r.err.msg);
    dvt_free(&r);
}
END_TEST

/* The matmul operator runs int8 and fp32 with B in either layout, bit-exact against its reference
 * (tails in M, N and K, several tiles and blocks); on a chip without the transposing load B[K,N] of
 * those types is a parameter error. */
START_TEST(test_cube_matmul_b_layouts)
{
    const char *shapes[] = {"--m 100 --n 200 --k 300", "--m 33 --n 17 --k 9",
                            "--m 200 --n 560 --k 700 --base-n 256 --step-kb 2 --cores 3"};
    const char *types[] = {"int8", "fp32"};
    for (int t = 0; t < 2; t++)
        for (int s = 0; s < 3; s++)
            for (int bt = 0; bt < 2; bt++) {
                char cmd[256];
                snprintf(cmd, sizeof cmd, "matmul %s --dtype %s --b-transposed %s", shapes[s], types[t],
                         bt ? "on" : "off");
                dvt_op_t r;
                ck_assert_msg(dvt_op(&r, "ascend910b1", NULL, cmd, true, true) == DV_OK, "%s: %s", cmd, r.err.msg);
                dvt_op_free(&r);
            }
    dvt_op_t r;
    ck_assert_int_ne(dvt_op(&r, "ascend310", NULL, "matmul --m 64 --n 64 --k 64 --dtype int8", false, false), DV_OK);
    ck_assert_msg(strstr(r.err.msg, "chip.load_transpose") != NULL, "%s", r.err.msg);
    dvt_op_free(&r);
}
END_TEST

/* Unit flags (docs/MODEL.md): a FixPipe of unit_flag 2/3 after an mmad of unit_flag 3 on the same
 * L0C tile starts once the mmad's first output fractal is done (its cube cycles C over its F = 16
 * fractals, plus the tail T) and ends no earlier than one fractal's read (1024 B at
 * fixpipe.l0c_bytes_per_cycle, R) after the mmad's completion; an mmad of unit_flag 2/3 after a
 * FixPipe of unit_flag 3 starts once that FixPipe has read one fractal and ends no earlier than one
 * of its own fractals after the FixPipe's completion.  L0C -> L1 FixPipes (copy_matrix_cc_to_cbuf)
 * take fixpipe.issue_cycles (P) + bytes / fixpipe.l0c_bytes_per_cycle (X), then fixpipe.latency (Q). */
START_TEST(test_cube_unit_flag)
{
    dv_config_t cfg;
    dvt_config(&cfg, "ascend910b1", NULL);
    const uint64_t t0 = dvt_t0(&cfg), I = cfg.scalar_issue_cycles, T = cfg.cube_latency_cycles;
    const uint64_t C = 4 * 4 * dv_ceil_div(256, cfg.cube_k_f16), R = dv_ceil_div(1024, cfg.fix_l0c_bytes_per_cycle);
    const uint64_t P = cfg.fix_issue_cycles, X = dv_ceil_div(64 * 64 * 4, cfg.fix_l0c_bytes_per_cycle);
    const uint64_t Q = cfg.fix_latency_cycles;
    ck_assert_uint_eq(C, 256);
    const char *mm = "mmad c=l0c:0 a=l0a:0 b=l0b:0 dtype=f16 m=64 k=256 n=64 init=1 unit_flag=%d\n";
    const char *fix = "copy_matrix_cc_to_cbuf dst=l1:0 src=l0c:0 n_size=64 m_size=64 src_stride=64 dst_stride=64 "
                      "quant=f16 unit_flag=%d\n";
    char a[256], b[256], text[1024];
    dvt_run_t r;
    /* mmad (3), FixPipe (3): the drain ends R after the mmad: t0 + I + C + T + R */
    snprintf(a, sizeof a, mm, 3);
    snprintf(b, sizeof b, fix, 3);
    snprintf(text, sizeof text, "dvtrace 1\nkernel k kind=cube blocks=1\nblock 0\n%s%send\n", a, b);
    ck_assert_uint_le(C / 16 + T + P + X + Q, C + T + R); /* the FixPipe's own time is hidden */
    ck_assert_msg(dvt_run_text(&r, &cfg, text, true, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, t0 + I + C + T + R); /* 9350 + 1 + 256 + 20 + 8 */
    ck_assert_uint_eq(r.cnt.hazards, 0);
    dvt_free(&r);
    /* the same with events (set_flag M->FIX, wait_flag): the FixPipe starts after the mmad completes
     * and the flag latency F: t0 + I + C + T + F + P + X + Q */
    snprintf(a, sizeof a, mm, 0);
    snprintf(b, sizeof b, fix, 0);
    snprintf(text, sizeof text, "dvtrace 1\nkernel k kind=cube blocks=1\nblock 0\n%sset_flag src=M dst=FIX id=0\n"
             "wait_flag src=M dst=FIX id=0\n%send\n", a, b);
    ck_assert_msg(dvt_run_text(&r, &cfg, text, true, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, t0 + I + C + T + cfg.sync_flag_latency_cycles + P + X + Q);
    dvt_free(&r);
    /* FixPipe (3), then a 16 x 16 x 16 mmad (2) onto its tile: the mmad starts after one fractal's read
     * (t0 + I + R) and stretches to end one cube cycle after the FixPipe: t0 + I + P + X + Q + 1 */
    snprintf(b, sizeof b, fix, 3);
    snprintf(text, sizeof text, "dvtrace 1\nkernel k kind=cube blocks=1\nblock 0\n%s"
             "mmad c=l0c:0 a=l0a:0 b=l0b:0 dtype=f16 m=16 k=16 n=16 init=1 unit_flag=2\nend\n", b);
    ck_assert_msg(dvt_run_text(&r, &cfg, text, true, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, t0 + I + P + X + Q + 1);
    ck_assert_uint_eq(r.cnt.hazards, 0);
    dvt_free(&r);
    /* unit_flag 1 (2'b01) has the enable bit clear: off, as 0 (the mmad alone, C + T) */
    snprintf(a, sizeof a, mm, 1);
    snprintf(b, sizeof b, fix, 1);
    snprintf(text, sizeof text, "dvtrace 1\nkernel k kind=cube blocks=1\nblock 0\n%s%send\n", a, b);
    ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, t0 + I + C + T); /* the FixPipe runs unordered, beside the mmad */
    dvt_free(&r);
}
END_TEST

/* The microbenchmark rows of these mechanisms (bench/micro.def: order.*, mte1.transpose*) follow the
 * parameters they isolate on a profile moved off its defaults (coarser cube, slower issue), and say
 * n/a, with the reason, where the chip has no FIX pipe and no transposing loads. */
static const dv_micro_result_t *micro_row(const dv_micro_result_t *res, const char *name)
{
    for (int i = 0; i < dv_micro_count(); i++)
        if (strcmp(dv_micro_spec(i)->name, name) == 0)
            return &res[i];
    ck_abort_msg("no microbenchmark row '%s'", name);
    return NULL;
}

START_TEST(test_cube_micro_rows_follow_parameters)
{
    static const char *const sets[] = {"cube.latency_cycles=33", "mte1.load2d_latency_cycles=11",
                                       "mte1.l0b_bytes_per_cycle=96", "cube.m=32", "cube.n=8", "cube.k_f16=32",
                                       "scalar.issue_cycles=3", "fixpipe.l0c_bytes_per_cycle=100", NULL};
    static const struct {
        const char *row;
        uint64_t v;
    } want[] = {{"order.set_flag", 11}, {"order.accumulate", 33}, {"order.unit_flag", 33},
                {"mte1.transpose", 96}, {"mte1.transpose.latency", 11}};
    dv_config_t cfg;
    dv_error_t err = {0};
    static dv_micro_result_t res[512];
    ck_assert_int_le(dv_micro_count(), 512);
    dvt_config(&cfg, "ascend910b1", sets);
    ck_assert_int_eq(dv_micro_run(&cfg, NULL, res, &err), 0);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const dv_micro_result_t *r = micro_row(res, want[i].row);
        ck_assert_msg(r->status == DV_MICRO_PASS && r->measured == want[i].v && r->measured_hi == want[i].v,
                      "%s: status %d, measured %llu..%llu, want %llu (%s)", want[i].row, r->status,
                      (unsigned long long)r->measured, (unsigned long long)r->measured_hi,
                      (unsigned long long)want[i].v, r->detail);
    }
    dvt_config(&cfg, "ascend310", NULL);
    memset(res, 0, sizeof res);
    ck_assert_int_eq(dv_micro_run(&cfg, NULL, res, &err), 0);
    ck_assert_int_eq(micro_row(res, "order.unit_flag")->status, DV_MICRO_NA);
    ck_assert_ptr_nonnull(strstr(micro_row(res, "order.unit_flag")->detail, "no FIX pipe"));
    ck_assert_int_eq(micro_row(res, "mte1.transpose")->status, DV_MICRO_NA);
    ck_assert_ptr_nonnull(strstr(micro_row(res, "mte1.transpose.latency")->detail, "chip.load_transpose"));
    ck_assert_int_eq(micro_row(res, "order.set_flag")->status, DV_MICRO_PASS);
    ck_assert_uint_eq(micro_row(res, "order.accumulate")->measured, cfg.cube_latency_cycles);
}
END_TEST

Suite *dv_cube_pipe_suite(void)
{
    Suite *s = suite_create("cube_pipe");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_cube_set_flag_does_not_block);
    tcase_add_test(tc, test_cube_accumulate_waits_for_tile);
    tcase_add_test(tc, test_cube_load_transpose_semantics);
    tcase_add_test(tc, test_cube_load_transpose_timing);
    tcase_add_test(tc, test_cube_matmul_b_layouts);
    tcase_add_test(tc, test_cube_unit_flag);
    tcase_add_test(tc, test_cube_micro_rows_follow_parameters);
    suite_add_tcase(s, tc);
    return s;
}
