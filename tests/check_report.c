/* tests/check_report.c - the report step: derived metrics from hand-built counters, the text and
 * JSON formats, and the timeline writer. */
#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/report.h"
#include "dv/timeline.h"
#include "support/dvt.h"

/* A tiny split chip: 1 AIC + 2 AIVs at 1000 MHz (one cycle = 1 ns). */
static dv_config_t cfg;
static dv_kernel_info_t info;
static dv_arg_t args[2];
static dv_counters_t cnt;
static dv_core_counters_t cores[3];

static void setup(void)
{
    memset(&cfg, 0, sizeof cfg);
    snprintf(cfg.chip_name, sizeof cfg.chip_name, "tiny");
    cfg.chip_layout = DV_LAYOUT_SPLIT;
    cfg.chip_freq_mhz = 1000;
    cfg.chip_ai_cores = 1;
    cfg.chip_aiv_per_core = 2;
    cfg.chip_has_fix_pipe = true;
    cfg.ub_size_bytes = 196608; /* the buffers a core owns are those with a size (dv_topo_buffers) */
    cfg.l1_size_bytes = 524288;

    memset(&info, 0, sizeof info);
    snprintf(info.name, sizeof info.name, "tiny_kernel");
    info.kind = DV_KIND_VECTOR;
    info.blocks = 2;
    info.subs = 1;
    memset(args, 0, sizeof args);
    snprintf(args[0].name, sizeof args[0].name, "x");
    args[0].bytes = 4096;
    args[0].dtype = DV_DT_F16;
    snprintf(args[1].name, sizeof args[1].name, "z\"q"); /* needs escaping in JSON */
    args[1].bytes = 4096;
    args[1].dtype = DV_DT_F16;
    args[1].dir = DV_ARG_OUT;
    info.nargs = 2;
    info.args = args;

    memset(cores, 0, sizeof cores);
    /* aic0: 1000 cycles */
    snprintf(cores[0].name, sizeof cores[0].name, "aic0");
    cores[0].type = DV_CORE_AIC;
    cores[0].blocks = 1;
    cores[0].instructions = 10;
    cores[0].first_cycle = 0;
    cores[0].last_cycle = 1000;
    cores[0].pipe_busy[DV_PIPE_S] = 50;
    cores[0].pipe_busy[DV_PIPE_M] = 500;
    cores[0].pipe_busy[DV_PIPE_MTE1] = 200;
    cores[0].pipe_busy[DV_PIPE_MTE2] = 300;
    cores[0].pipe_busy[DV_PIPE_FIX] = 100;
    cores[0].buf[DV_SPACE_L1] = (dv_buf_counters_t){.capacity = 524288, .peak_bytes = 131072, .byte_cycles = 65536.0 * 1000};
    /* aiv0: 1000 cycles, UB peak 50 %, average 25 % */
    snprintf(cores[1].name, sizeof cores[1].name, "aiv0");
    cores[1].type = DV_CORE_AIV;
    cores[1].blocks = 1;
    cores[1].instructions = 20;
    cores[1].first_cycle = 100;
    cores[1].last_cycle = 1100;
    cores[1].pipe_busy[DV_PIPE_S] = 100;
    cores[1].pipe_busy[DV_PIPE_V] = 800;
    cores[1].pipe_busy[DV_PIPE_MTE2] = 600;
    cores[1].pipe_busy[DV_PIPE_MTE3] = 400;
    cores[1].stall_flag_cycles = 7;
    cores[1].bank_conflict_cycles = 3;
    cores[1].buf[DV_SPACE_UB] = (dv_buf_counters_t){.capacity = 196608, .peak_bytes = 98304, .byte_cycles = 49152.0 * 1000};
    /* aiv1: 2000 cycles, UB peak 25 %, average 12.5 % */
    snprintf(cores[2].name, sizeof cores[2].name, "aiv1");
    cores[2].type = DV_CORE_AIV;
    cores[2].blocks = 1;
    cores[2].instructions = 20;
    cores[2].first_cycle = 0;
    cores[2].last_cycle = 2000;
    cores[2].pipe_busy[DV_PIPE_S] = 100;
    cores[2].pipe_busy[DV_PIPE_V] = 400;
    cores[2].pipe_busy[DV_PIPE_MTE2] = 1000;
    cores[2].pipe_busy[DV_PIPE_MTE3] = 200;
    cores[2].stall_queue_full_cycles = 5;
    cores[2].buf[DV_SPACE_UB] = (dv_buf_counters_t){.capacity = 196608, .peak_bytes = 49152, .byte_cycles = 24576.0 * 2000};
    /* Over time (64 slices of 2000 / 64 = 31.25 cycles), each at its peak for a while, consistent
     * with byte_cycles: L1 of aic0 131072 B over slices 0-15 (500 cycles), UB of aiv0 98304 B over
     * slices 4-19, UB of aiv1 49152 B over slices 0-31 (1000 cycles). */
    for (int i = 0; i < DV_OCC_SLICES; i++) {
        cores[0].buf[DV_SPACE_L1].series[i] = i < 16 ? 131072 : 0;
        cores[1].buf[DV_SPACE_UB].series[i] = i >= 4 && i < 20 ? 98304 : 0;
        cores[2].buf[DV_SPACE_UB].series[i] = i < 32 ? 49152 : 0;
    }

    memset(&cnt, 0, sizeof cnt);
    cnt.cycles = 2000;
    cnt.instructions = 50;
    cnt.ncores = 3;
    cnt.cores = cores;
    cnt.gm_read_bytes = 4000;
    cnt.gm_write_bytes = 2000;
    cnt.l2_hits = 3;
    cnt.l2_misses = 1;
    cnt.l2_writebacks = 2;
    cnt.op_count[DV_OP_vadd] = 4;
    cnt.op_count[DV_OP_copy_gm_to_ubuf] = 8;
    cnt.hazards = 1;
    cnt.nhazard_records = 1;
    cnt.hazard[0] = (dv_hazard_t){.core = 1, .block = 0, .sub = 0, .kind = DV_HAZ_RAW,
                                  .pipe_first = DV_PIPE_MTE2, .pipe_second = DV_PIPE_V,
                                  .insn_first = 1, .insn_second = 3, .line_first = 6, .line_second = 9,
                                  .space = DV_SPACE_UB, .lo = 0, .hi = 0x4000};
}

/* Run a writer into memory and return the text (caller frees). */
static char *capture_report(int json)
{
    dv_report_t r;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(dv_report_derive(&r, &cfg, &info, &cnt, NULL), DV_OK);
    ck_assert_int_eq(json ? dv_report_write_json(&r, f) : dv_report_print(&r, f), DV_OK);
    dv_report_free(&r);
    fclose(f);
    return buf;
}

/* Brackets balanced outside strings, no trailing commas, strings closed: enough to catch a
 * writer that forgets a separator or a closing brace. */
static int json_balanced(const char *s)
{
    char stack[64];
    int depth = 0, in_str = 0;
    char last = 0; /* last non-space character outside strings */
    for (; *s; s++) {
        char ch = *s;
        if (in_str) {
            if (ch == '\\' && s[1])
                s++;
            else if (ch == '"')
                in_str = 0, last = '"';
            continue;
        }
        if (ch == ' ' || ch == '\n' || ch == '\t')
            continue;
        if (ch == '"')
            in_str = 1;
        else if (ch == '{' || ch == '[') {
            if (depth == 64)
                return 0;
            stack[depth++] = ch;
        } else if (ch == '}' || ch == ']') {
            if (depth == 0 || stack[--depth] != (ch == '}' ? '{' : '[') || last == ',')
                return 0;
        } else if (ch == ',' && (last == ',' || last == '{' || last == '['))
            return 0;
        last = ch;
    }
    return depth == 0 && !in_str;
}

static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

START_TEST(test_report_ratios)
{
    dv_report_t r;
    ck_assert_int_eq(dv_report_derive(&r, &cfg, &info, &cnt, NULL), DV_OK);
    /* per core: busy / (last - first) */
    ck_assert_double_eq_tol(r.cores[0].ratio[DV_PIPE_M], 0.5, 1e-12);
    ck_assert_double_eq_tol(r.cores[1].ratio[DV_PIPE_V], 0.8, 1e-12);
    ck_assert_double_eq_tol(r.cores[2].ratio[DV_PIPE_V], 0.2, 1e-12);
    ck_assert(!r.cores[0].has_pipe[DV_PIPE_V]);
    ck_assert(!r.cores[1].has_pipe[DV_PIPE_M]);
    ck_assert(r.cores[0].has_pipe[DV_PIPE_FIX]);
    ck_assert(r.cores[0].has_pipe[DV_PIPE_MTE3]); /* the AIC copies L1 -> GM on MTE3 */
    ck_assert(r.has_pipe[DV_PIPE_MTE3] && r.has_pipe[DV_PIPE_FIX]);
    /* kernel level: mac/mte1/fixpipe over the AIC, vec over AIVs, the rest (mte3 too: the AIC copies
     * L1 -> GM on it) over all cores */
    ck_assert_double_eq_tol(r.ratio[DV_PIPE_M], 0.5, 1e-12);
    ck_assert_double_eq_tol(r.ratio[DV_PIPE_MTE1], 0.2, 1e-12);
    ck_assert_double_eq_tol(r.ratio[DV_PIPE_FIX], 0.1, 1e-12);
    ck_assert_double_eq_tol(r.ratio[DV_PIPE_V], 1200.0 / 3000.0, 1e-12);
    ck_assert_double_eq_tol(r.ratio[DV_PIPE_MTE2], 1900.0 / 4000.0, 1e-12);
    ck_assert_double_eq_tol(r.ratio[DV_PIPE_MTE3], 600.0 / 4000.0, 1e-12);
    ck_assert_double_eq_tol(r.ratio[DV_PIPE_S], 250.0 / 4000.0, 1e-12);
    ck_assert_int_eq(r.bound_by, DV_PIPE_M);
    ck_assert_double_eq_tol(r.time_us, 2.0, 1e-12);
    ck_assert_double_eq_tol(r.gm_read_gb_per_s, 2.0, 1e-12);
    ck_assert_double_eq_tol(r.gm_write_gb_per_s, 1.0, 1e-12);
    ck_assert_double_eq_tol(r.l2_hit_rate, 0.75, 1e-12);
    ck_assert_uint_eq(r.stall_queue_full_cycles, 5);
    ck_assert_uint_eq(r.stall_flag_cycles, 7);
    ck_assert_uint_eq(r.bank_conflict_cycles, 3);
    ck_assert_uint_eq(r.cores_ran, 3);
    dv_report_free(&r);
}
END_TEST

START_TEST(test_report_bound_by_follows_highest_ratio)
{
    dv_report_t r;
    cores[1].pipe_busy[DV_PIPE_MTE2] = 1000; /* mte2: 2300 / 4000 = 0.575 > mac 0.5 */
    ck_assert_int_eq(dv_report_derive(&r, &cfg, &info, &cnt, NULL), DV_OK);
    ck_assert_int_eq(r.bound_by, DV_PIPE_MTE2);
    dv_report_free(&r);
    /* nothing busy anywhere */
    for (int i = 0; i < 3; i++)
        memset(cores[i].pipe_busy, 0, sizeof cores[i].pipe_busy);
    ck_assert_int_eq(dv_report_derive(&r, &cfg, &info, &cnt, NULL), DV_OK);
    ck_assert_int_eq(r.bound_by, -1);
    dv_report_free(&r);
}
END_TEST

START_TEST(test_report_idle_cores_excluded)
{
    dv_report_t r;
    cores[2].instructions = 0; /* aiv1 ran nothing: its cycles must not dilute the ratios */
    ck_assert_int_eq(dv_report_derive(&r, &cfg, &info, &cnt, NULL), DV_OK);
    ck_assert_double_eq_tol(r.ratio[DV_PIPE_V], 0.8, 1e-12);
    ck_assert_uint_eq(r.cores_ran, 2);
    ck_assert_double_eq_tol(r.buf[DV_SPACE_UB].avg_bytes, 49152.0, 1e-9);
    dv_report_free(&r);
}
END_TEST

START_TEST(test_report_occupancy)
{
    dv_report_t r;
    ck_assert_int_eq(dv_report_derive(&r, &cfg, &info, &cnt, NULL), DV_OK);
    ck_assert_double_eq_tol(r.cores[1].buf[DV_SPACE_UB].peak_pct, 50.0, 1e-9);
    ck_assert_double_eq_tol(r.cores[1].buf[DV_SPACE_UB].avg_pct, 25.0, 1e-9);
    ck_assert_double_eq_tol(r.cores[2].buf[DV_SPACE_UB].avg_bytes, 24576.0, 1e-9);
    ck_assert(!r.cores[0].buf[DV_SPACE_UB].present);
    /* chip: max of peaks, mean of averages over the cores with a UB */
    ck_assert(r.buf[DV_SPACE_UB].present);
    ck_assert_uint_eq(r.buf[DV_SPACE_UB].peak_bytes, 98304);
    ck_assert_double_eq_tol(r.buf[DV_SPACE_UB].peak_pct, 50.0, 1e-9);
    ck_assert_double_eq_tol(r.buf[DV_SPACE_UB].avg_bytes, 36864.0, 1e-9);
    ck_assert_double_eq_tol(r.buf[DV_SPACE_UB].avg_pct, 18.75, 1e-9);
    ck_assert_double_eq_tol(r.buf[DV_SPACE_L1].peak_pct, 25.0, 1e-9);
    ck_assert_double_eq_tol(r.buf[DV_SPACE_L1].avg_pct, 12.5, 1e-9);
    ck_assert(!r.buf[DV_SPACE_L0A].present);
    dv_report_free(&r);
}
END_TEST

/* The chip's series is the mean over the cores that ran and own the buffer: UB slices 0-3 and
 * 20-31 = 49152 / 2, 4-19 = (98304 + 49152) / 2, 32-63 = 0; L1 = aic0's; none for L0A or GM.
 * Without aiv1 (ran nothing) the UB series is aiv0's. */
START_TEST(test_report_buf_series)
{
    dv_report_t r;
    double s[DV_OCC_SLICES];
    ck_assert_int_eq(dv_report_derive(&r, &cfg, &info, &cnt, NULL), DV_OK);
    dv_report_buf_series(&r, DV_SPACE_UB, s);
    for (int i = 0; i < DV_OCC_SLICES; i++)
        ck_assert_double_eq(s[i], i < 4 || (i >= 20 && i < 32) ? 24576.0 : i < 20 ? 73728.0 : 0.0);
    dv_report_buf_series(&r, DV_SPACE_L1, s);
    for (int i = 0; i < DV_OCC_SLICES; i++)
        ck_assert_double_eq(s[i], i < 16 ? 131072.0 : 0.0);
    dv_report_buf_series(&r, DV_SPACE_L0A, s);
    for (int i = 0; i < DV_OCC_SLICES; i++)
        ck_assert_double_eq(s[i], 0.0);
    dv_report_buf_series(&r, DV_SPACE_GM, s);
    ck_assert_double_eq(s[0], 0.0);
    dv_report_free(&r);

    cores[2].instructions = 0;
    ck_assert_int_eq(dv_report_derive(&r, &cfg, &info, &cnt, NULL), DV_OK);
    dv_report_buf_series(&r, DV_SPACE_UB, s);
    for (int i = 0; i < DV_OCC_SLICES; i++)
        ck_assert_double_eq(s[i], i >= 4 && i < 20 ? 98304.0 : 0.0);
    dv_report_free(&r);
}
END_TEST

/* Every slice of every buffer in [0, peak], and the slices integrate to byte_cycles: per core, and
 * at chip level (mean over the cores that ran and own the buffer) to the mean byte_cycles. */
static void expect_series_consistent(const char *profile, const char *cmd)
{
    dvt_op_t o;
    ck_assert_msg(dvt_op(&o, profile, NULL, cmd, false, false) == DV_OK, "%s: %s", cmd, o.err.msg);
    const double len = (double)o.cnt.cycles / DV_OCC_SLICES;
    dv_report_t r;
    ck_assert_int_eq(dv_report_derive(&r, &o.cfg, &o.plan.info, &o.cnt, NULL), DV_OK);
    int checked = 0;
    for (int k = 0; k < DV_REPORT_NBUFS; k++) {
        const dv_space_t sp = dv_report_bufs[k];
        double mean_bc = 0, sum = 0, s[DV_OCC_SLICES];
        unsigned n = 0;
        for (uint32_t c = 0; c < o.cnt.ncores; c++) {
            const dv_buf_counters_t *b = &o.cnt.cores[c].buf[sp];
            double bc = 0;
            for (int i = 0; i < DV_OCC_SLICES; i++) {
                ck_assert_msg(b->series[i] >= 0 && b->series[i] <= (double)b->peak_bytes, "%s: core %u %s slice %d: %g > %" PRIu64,
                              cmd, c, dv_space_name(sp), i, b->series[i], b->peak_bytes);
                bc += b->series[i] * len;
            }
            ck_assert_msg(fabs(bc - b->byte_cycles) <= 1e-9 * b->byte_cycles, "%s: core %u %s: %.3f vs %.3f", cmd, c,
                          dv_space_name(sp), bc, b->byte_cycles);
            if (r.cores[c].ran && r.cores[c].buf[sp].present) {
                mean_bc += b->byte_cycles;
                n++;
            }
        }
        if (!n)
            continue;
        dv_report_buf_series(&r, sp, s);
        for (int i = 0; i < DV_OCC_SLICES; i++) {
            ck_assert(s[i] <= (double)r.buf[sp].peak_bytes);
            sum += s[i] * len;
        }
        mean_bc /= n;
        ck_assert_msg(mean_bc > 0, "%s: %s never occupied", cmd, dv_space_name(sp));
        ck_assert_msg(fabs(sum - mean_bc) <= 1e-9 * mean_bc, "%s: chip %s: %.3f vs %.3f", cmd, dv_space_name(sp), sum,
                      mean_bc);
        checked++;
    }
    ck_assert_int_gt(checked, 0);
    dv_report_free(&r);
    dvt_op_free(&o);
}

START_TEST(test_report_series_of_real_kernels)
{
    expect_series_consistent(NULL, "add --shape 1024x1024");
    expect_series_consistent(NULL, "matmul --m 256 --n 256 --k 256");
    expect_series_consistent("ascend310", "matmul --m 256 --n 256 --k 256");
}
END_TEST

START_TEST(test_report_text_sections)
{
    char *t = capture_report(0);
    const char *order[] = {"kernel        tiny_kernel (vector, 2 blocks)", "profile       tiny (split: 1 AIC + 2 AIV",
                           "[chip]", "cycles        2000", "time          2.000 us", "instructions  50",
                           "mac_ratio", "bound by      mac (mac_ratio 0.500)", "[cores]", "aiv1", "[buffers]",
                           "[memory]", "hit rate 75.00%", "[hazards]     1"};
    const char *at = t;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        const char *p = strstr(at, order[i]);
        ck_assert_msg(p != NULL, "missing (or out of order) '%s' in:\n%s", order[i], t);
        at = p;
    }
    ck_assert_ptr_nonnull(strstr(t, "RAW aiv0 block 0: insn 1 (line 6, MTE2) -> insn 3 (line 9, V) on ub[0x0, 0x4000)"));
    ck_assert_ptr_nonnull(strstr(t, "ub         196608      98304   50.00%      36864.0   18.75%"));
    ck_assert_ptr_nonnull(strstr(t, "gm read       4000 bytes  2.000 GB/s"));
    free(t);
}
END_TEST

START_TEST(test_report_json_fields)
{
    char *j = capture_report(1);
    const char *want[] = {"\"schema_version\":1", "\"profile\":\"tiny\"", "\"name\":\"tiny_kernel\"",
                          "\"kind\":\"vector\"", "\"cycles\":2000", "\"time_us\":2.000000", "\"instructions\":50",
                          "\"mac\":0.500000", "\"vec\":0.400000", "\"scalar\":0.062500", "\"mte1\":0.200000",
                          "\"mte2\":0.475000", "\"mte3\":0.150000", "\"fixpipe\":0.100000", "\"bound_by\":\"mac\"",
                          "\"ub_peak_bytes\":98304", "\"gm_read_bytes\":4000", "\"gm_write_bytes\":2000",
                          "\"l2_hit_rate\":0.750000", "\"op_counts\":{\"copy_gm_to_ubuf\":8,\"vadd\":4}",
                          "\"name\":\"z\\\"q\"", "\"hazard_count\":1",
                          "\"first\":{\"insn\":1,\"line\":6,\"pipe\":\"MTE2\"}",
                          "\"ratios\":{\"scalar\":0.050000,\"vec\":null,\"mac\":0.500000,\"mte1\":0.200000,"
                          "\"mte2\":0.300000,\"mte3\":0.000000,\"fixpipe\":0.100000}",
                          "\"config\":{\"chip\":{\"name\":\"tiny\",\"layout\":\"split\"",
                          "\"vector\":{\"repeat_bytes\":", "\"add\":{\"b16_bytes_per_cycle\":"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(j, want[i]) != NULL, "missing %s", want[i]);
    ck_assert_msg(json_balanced(j), "unbalanced JSON:\n%s", j);
    free(j);
}
END_TEST

START_TEST(test_report_json_without_l2_traffic)
{
    cnt.l2_hits = cnt.l2_misses = 0;
    cnt.nhazard_records = 0;
    cnt.hazards = 0;
    char *j = capture_report(1);
    ck_assert_ptr_nonnull(strstr(j, "\"l2_hit_rate\":null"));
    ck_assert_ptr_nonnull(strstr(j, "\"hazards\":[]"));
    ck_assert(json_balanced(j));
    free(j);
}
END_TEST

START_TEST(test_report_derive_rejects_missing_counters)
{
    dv_report_t r;
    dv_error_t e;
    ck_assert_int_eq(dv_report_derive(&r, &cfg, &info, NULL, &e), DV_ERR_STATE);
    ck_assert_ptr_nonnull(strstr(e.msg, "missing profile, kernel or counters"));
}
END_TEST

/* A pipe no core type of the profile owns (FIX without chip.has_fix_pipe) is absent at chip level
 * too: '-' in text, null in JSON, never a ratio of 0. */
START_TEST(test_report_pipe_absent_from_chip)
{
    dv_report_t r;
    cfg.chip_has_fix_pipe = false;
    cores[0].pipe_busy[DV_PIPE_FIX] = 0;
    ck_assert_int_eq(dv_report_derive(&r, &cfg, &info, &cnt, NULL), DV_OK);
    ck_assert(!r.has_pipe[DV_PIPE_FIX]);
    ck_assert(!r.cores[0].has_pipe[DV_PIPE_FIX]);
    ck_assert(r.has_pipe[DV_PIPE_M]);
    dv_report_free(&r);
    char *t = capture_report(0);
    ck_assert_msg(strstr(t, "  fixpipe_ratio  -\n") != NULL, "%s", t);
    ck_assert_ptr_nonnull(strstr(t, "  mac_ratio      0.500\n"));
    free(t);
    char *j = capture_report(1);
    ck_assert_msg(strstr(j, "\"mte3\":0.150000,\"fixpipe\":null},\n\"bound_by\"") != NULL, "%s", j);
    ck_assert(json_balanced(j));
    free(j);
}
END_TEST

START_TEST(test_report_timeline)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    dv_timeline_t *t;
    dv_insn_t in;
    ck_assert_int_eq(dv_timeline_open_stream(&t, f, &cfg, NULL), DV_OK);
    dv_insn_init(&in, DV_OP_copy_gm_to_ubuf);
    in.line = 7;
    dv_timeline_slice(t, 2, DV_PIPE_MTE2, &in, 1500, 2000);
    dv_insn_init(&in, DV_OP_vadd);
    dv_timeline_slice(t, 2, DV_PIPE_V, &in, 2000, 2001);
    dv_timeline_slice(t, 2, DV_PIPE_V, &in, 2001, 2003);
    dv_insn_init(&in, DV_OP_mmad);
    dv_timeline_slice(t, 0, DV_PIPE_M, &in, 10, 20);
    ck_assert_int_eq(dv_timeline_close(t, NULL), DV_OK);
    fclose(f);
    ck_assert_msg(json_balanced(buf), "unbalanced timeline:\n%s", buf);
    ck_assert_ptr_eq(strstr(buf, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":["), buf);
    ck_assert_ptr_nonnull(strstr(buf, "\"pid\":2,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"aiv1\"}"));
    ck_assert_ptr_nonnull(strstr(buf, "\"pid\":0,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"aic0\"}"));
    ck_assert_ptr_nonnull(strstr(buf, "\"pid\":2,\"tid\":4,\"name\":\"thread_name\",\"args\":{\"name\":\"MTE2\"}"));
    ck_assert_ptr_nonnull(strstr(buf, "\"pid\":2,\"tid\":4,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":4}"));
    ck_assert_ptr_nonnull(strstr(buf, "\"pid\":0,\"tid\":2,\"name\":\"thread_name\",\"args\":{\"name\":\"M\"}"));
    ck_assert_ptr_nonnull(
        strstr(buf, "{\"ph\":\"X\",\"name\":\"copy_gm_to_ubuf\",\"pid\":2,\"tid\":4,\"ts\":1.500000,\"dur\":0.500000,"
                    "\"args\":{\"line\":7}}"));
    ck_assert_ptr_nonnull(strstr(buf, "\"name\":\"vadd\",\"pid\":2,\"tid\":1,\"ts\":2.001000,\"dur\":0.002000}"));
    /* metadata once per process and per thread; one X event per slice */
    ck_assert_int_eq(count_of(buf, "\"process_name\""), 2);
    ck_assert_int_eq(count_of(buf, "\"thread_name\""), 3);
    ck_assert_int_eq(count_of(buf, "\"ph\":\"X\""), 4);
    free(buf);
}
END_TEST

START_TEST(test_report_timeline_empty)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    dv_timeline_t *t;
    ck_assert_int_eq(dv_timeline_open_stream(&t, f, &cfg, NULL), DV_OK);
    ck_assert_int_eq(dv_timeline_close(t, NULL), DV_OK);
    fclose(f);
    ck_assert_str_eq(buf, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n]}\n");
    free(buf);
}
END_TEST

START_TEST(test_report_timeline_bad_path)
{
    dv_timeline_t *t;
    dv_error_t e;
    ck_assert_int_eq(dv_timeline_open(&t, "/nonexistent-dir/tl.json", &cfg, &e), DV_ERR_IO);
    ck_assert_str_eq(e.file, "/nonexistent-dir/tl.json");
    ck_assert_ptr_nonnull(strstr(e.msg, "cannot write the timeline"));
}
END_TEST

Suite *dv_report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("report");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, test_report_ratios);
    tcase_add_test(tc, test_report_bound_by_follows_highest_ratio);
    tcase_add_test(tc, test_report_idle_cores_excluded);
    tcase_add_test(tc, test_report_occupancy);
    tcase_add_test(tc, test_report_buf_series);
    tcase_add_test(tc, test_report_series_of_real_kernels);
    tcase_add_test(tc, test_report_text_sections);
    tcase_add_test(tc, test_report_json_fields);
    tcase_add_test(tc, test_report_json_without_l2_traffic);
    tcase_add_test(tc, test_report_derive_rejects_missing_counters);
    tcase_add_test(tc, test_report_pipe_absent_from_chip);
    tcase_add_test(tc, test_report_timeline);
    tcase_add_test(tc, test_report_timeline_empty);
    tcase_add_test(tc, test_report_timeline_bad_path);
    suite_add_tcase(s, tc);
    return s;
}
