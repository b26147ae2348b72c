/* tests/check_model.c - the model's structure and its errors: every opcode runs on a core that has
 * its pipe, bad accesses and deadlocks are located errors, hazards are found. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dv/config.h"
#include "dv/isa.h"
#include "dv/model.h"
#include "dv/trace.h"
#include "support/dvt.h"

#define GM0 0x100000000ull

/* Run `trace`; expect status `code`, msg1 in the message, and msg2 in "file:line: message". */
static void expect_error(const char *profile, const char *trace, int code, const char *msg1, const char *msg2)
{
    dv_config_t cfg;
    dvt_config(&cfg, profile, NULL);
    dvt_run_t r;
    static uint64_t base = GM0;
    int rc = dvt_run_text(&r, &cfg, trace, true, base += 0x1000000);
    ck_assert_msg(rc == code, "status %d, expected %d (%s)", rc, code, r.err.msg);
    char located[1200];
    snprintf(located, sizeof located, "%s:%d: %s", r.err.file, r.err.line, r.err.msg);
    ck_assert_msg(strstr(r.err.msg, msg1), "'%s' not in '%s'", msg1, r.err.msg);
    if (msg2)
        ck_assert_msg(strstr(located, msg2), "'%s' not in '%s'", msg2, located);
    dvt_free(&r);
}

START_TEST(test_model_unpaired_wait_is_deadlock)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dvt_run_t r;
    const char *t = "dvtrace 1\nkernel d kind=vector blocks=1\nblock 0\n"
                    "vadd dst=ub:0x200 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=1\n"
                    "wait_flag src=MTE2 dst=V id=3\n"
                    "vadd dst=ub:0x200 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=1\nend\n";
    ck_assert_int_eq(dvt_run_text(&r, &cfg, t, true, GM0), DV_ERR_DEADLOCK);
    ck_assert_msg(strstr(r.err.msg, "pipe V waits for event MTE2->V id 3"), "%s", r.err.msg);
    ck_assert_msg(strstr(r.err.msg, "test.trace:5"), "%s", r.err.msg);
    ck_assert_msg(strstr(r.err.msg, "aiv0"), "%s", r.err.msg);
    dvt_free(&r);
}
END_TEST

START_TEST(test_model_scalar_wait_deadlock)
{
    expect_error(NULL,
                 "dvtrace 1\nkernel d kind=vector blocks=1\nblock 0\nwait_flag src=V dst=S id=0\nend\n",
                 DV_ERR_DEADLOCK, "scalar unit", "test.trace:4: deadlock on aiv0 in block 0: scalar unit pipe S waits for event V->S id 0");
}
END_TEST

START_TEST(test_model_cross_core_deadlock)
{
    expect_error(NULL,
                 "dvtrace 1\nkernel x kind=mix blocks=1\nblock 0 aic\nwait_cross_flag id=2\n"
                 "block 0 aiv0\nscalar cycles=5\nblock 0 aiv1\nscalar cycles=5\nend\n",
                 DV_ERR_DEADLOCK, "aic0 scalar unit pipe S waits for cross-core flag 2", "test.trace:4: deadlock");
}
END_TEST

START_TEST(test_model_access_past_buffer_end)
{
    /* 2 repeats of 256 B from 0x2ff00 end at 0x30100 > 196608 (0x30000) */
    expect_error(NULL,
                 "dvtrace 1\nkernel e kind=vector blocks=1\nblock 0\n"
                 "vadd dst=ub:0x2ff00 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=2\nend\n",
                 DV_ERR_RANGE, "access past the end of ub", "test.trace:4");
}
END_TEST

START_TEST(test_model_misaligned_address)
{
    expect_error(NULL,
                 "dvtrace 1\nkernel e kind=vector blocks=1\nblock 0\n"
                 "vadd dst=ub:0x210 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=1\nend\n",
                 DV_ERR_RANGE, "not aligned to 32 bytes", "test.trace:4");
    expect_error(NULL,
                 "dvtrace 1\nkernel e kind=cube blocks=1\nblock 0\n"
                 "load_cbuf_to_ca dst=l0a:0x100 src=l1:0x0 dtype=f16 repeat=1\nend\n",
                 DV_ERR_RANGE, "l0a address 0x100 is not aligned to 512 bytes", NULL);
}
END_TEST

START_TEST(test_model_gm_outside_argument)
{
    expect_error(NULL,
                 "dvtrace 1\nkernel e kind=vector blocks=1\narg x bytes=4096 dtype=f16 dir=in\nblock 0\n"
                 "copy_gm_to_ubuf dst=ub:0x0 src=x+0x800 nburst=1 len=128\nend\n",
                 DV_ERR_RANGE, "GM access outside argument 'x': bytes [2048, 6144) of 4096", "test.trace:5:");
}
END_TEST

START_TEST(test_model_wrong_core_type)
{
    expect_error(NULL,
                 "dvtrace 1\nkernel e kind=vector blocks=1\nblock 0\n"
                 "mmad c=l0c:0 a=l0a:0 b=l0b:0 dtype=f16 m=16 k=16 n=16\nend\n",
                 DV_ERR_RANGE, "pipe M does not exist on an AIV", NULL);
    expect_error(NULL,
                 "dvtrace 1\nkernel e kind=vector blocks=1\nblock 0\n"
                 "copy_matrix_cc_to_ubuf dst=ub:0 src=l0c:0 n_size=16 m_size=16 src_stride=16 dst_stride=16\nend\n",
                 DV_ERR_UNSUPPORTED, "L0C -> UB", NULL);
}
END_TEST

START_TEST(test_model_event_id_range)
{
    expect_error(NULL,
                 "dvtrace 1\nkernel e kind=vector blocks=1\nblock 0\nset_flag src=MTE2 dst=V id=9\nend\n",
                 DV_ERR_RANGE, "event id 9 is out of range: sync.event_ids is 8", NULL);
    expect_error(NULL,
                 "dvtrace 1\nkernel e kind=vector blocks=1\nblock 0\nset_flag src=MTE2 dst=V id=1\nset_flag src=MTE2 dst=V id=1\nend\n",
                 DV_ERR_STATE, "set twice without a wait", NULL);
}
END_TEST

START_TEST(test_model_mix_needs_split_chip)
{
    expect_error("ascend310",
                 "dvtrace 1\nkernel m kind=mix blocks=1\nblock 0 aic\nscalar cycles=1\nblock 0 aiv0\nscalar cycles=1\n"
                 "block 0 aiv1\nscalar cycles=1\nend\n",
                 DV_ERR_UNSUPPORTED, "needs a split", NULL);
}
END_TEST

START_TEST(test_model_no_fix_pipe_on_310)
{
    expect_error("ascend310",
                 "dvtrace 1\nkernel e kind=cube blocks=1\narg y bytes=4096 dtype=f32 dir=out\nblock 0\n"
                 "copy_matrix_cc_to_gm dst=y src=l0c:0 n_size=16 m_size=16 src_stride=16 dst_stride=16\nend\n",
                 DV_ERR_RANGE, "pipe FIX does not exist", "test.trace:5");
}
END_TEST

/* A missing wait_flag lets V read UB while MTE2 is still writing it: one RAW hazard, located. */
START_TEST(test_model_hazard_missing_wait)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dvt_run_t r;
    const char *t = "dvtrace 1\nkernel h kind=vector blocks=1\narg x bytes=4096 dtype=f16 dir=in\nblock 0\n"
                    "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=64\n"
                    "set_flag src=MTE2 dst=V id=0\n"
                    "vadd dst=ub:0x1000 src0=ub:0x0 src1=ub:0x800 dtype=f16 repeat=8\nend\n";
    ck_assert_msg(dvt_run_text(&r, &cfg, t, true, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.hazards, 1);
    const dv_hazard_t *h = &r.cnt.hazard[0];
    ck_assert_int_eq(h->kind, DV_HAZ_RAW);
    ck_assert_int_eq(h->pipe_first, DV_PIPE_MTE2);
    ck_assert_int_eq(h->pipe_second, DV_PIPE_V);
    ck_assert_uint_eq(h->insn_first, 0);
    ck_assert_uint_eq(h->insn_second, 2);
    ck_assert_uint_eq(h->line_first, 5);
    ck_assert_uint_eq(h->line_second, 7);
    ck_assert_int_eq(h->space, DV_SPACE_UB);
    ck_assert_uint_eq(h->lo, 0);
    ck_assert_uint_eq(h->hi, 2048);
    dvt_free(&r);
}
END_TEST

/* The same kernel with the wait, and with a write-after-read fixed by a V->MTE2 flag: no hazard. */
START_TEST(test_model_synchronised_kernel_has_no_hazard)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dvt_run_t r;
    const char *t = "dvtrace 1\nkernel h kind=vector blocks=1\narg x bytes=8192 dtype=f16 dir=in\nblock 0\n"
                    "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=64\n"
                    "set_flag src=MTE2 dst=V id=0\nwait_flag src=MTE2 dst=V id=0\n"
                    "vadd dst=ub:0x1000 src0=ub:0x0 src1=ub:0x0 dtype=f16 repeat=8\n"
                    "set_flag src=V dst=MTE2 id=0\nwait_flag src=V dst=MTE2 id=0\n"
                    "copy_gm_to_ubuf dst=ub:0x0 src=x+0x800 nburst=1 len=64\nend\n";
    ck_assert_msg(dvt_run_text(&r, &cfg, t, true, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.hazards, 0);
    dvt_free(&r);
    /* without the V->MTE2 pair the second copy and the vadd race on ub:0 */
    const char *war = "dvtrace 1\nkernel h kind=vector blocks=1\narg x bytes=8192 dtype=f16 dir=in\nblock 0\n"
                      "copy_gm_to_ubuf dst=ub:0x0 src=x nburst=1 len=64\n"
                      "set_flag src=MTE2 dst=V id=0\nwait_flag src=MTE2 dst=V id=0\n"
                      "vadd dst=ub:0x1000 src0=ub:0x0 src1=ub:0x0 dtype=f16 repeat=8\n"
                      "copy_gm_to_ubuf dst=ub:0x0 src=x+0x800 nburst=1 len=64\nend\n";
    ck_assert_msg(dvt_run_text(&r, &cfg, war, true, GM0 + 0x1000000) == DV_OK, "%s", r.err.msg);
    /* the second copy only waits for MTE2's engine, so it runs before the vadd (which waits for
     * the first copy's completion): the vadd then reads bytes the copy overwrote, unordered */
    ck_assert_uint_eq(r.cnt.hazards, 1);
    ck_assert_int_eq(r.cnt.hazard[0].kind, DV_HAZ_RAW);
    ck_assert_int_eq(r.cnt.hazard[0].pipe_first, DV_PIPE_MTE2);
    ck_assert_uint_eq(r.cnt.hazard[0].insn_first, 4);
    ck_assert_int_eq(r.cnt.hazard[0].pipe_second, DV_PIPE_V);
    ck_assert_uint_eq(r.cnt.hazard[0].insn_second, 3);
    dvt_free(&r);
}
END_TEST

/* copy_*_align on a chip without chip.dma_pad is a located error; the same trace runs with it.
 * _i: 0 = the default profile with --set chip.dma_pad=false, 1 = the 910A profile, 2 = the default
 * profile, which has it (one profile per process). */
START_TEST(test_model_dma_pad_gated)
{
    static const char *const off[] = {"chip.dma_pad=false", NULL};
    static const char *const lines[] = {"copy_gm_to_ubuf_align dst=ub:0x0 src=x+3 nburst=2 len=100 src_gap=1",
                                        "copy_ubuf_to_gm_align dst=x+1 src=ub:0x1000 nburst=1 len=33"};
    dv_config_t cfg;
    if (_i == 2) {
        dvt_config(&cfg, NULL, NULL);
        ck_assert(cfg.chip_dma_pad);
        char text[512];
        snprintf(text, sizeof text,
                 "dvtrace 1\nkernel p kind=vector blocks=1\narg x bytes=4096 dtype=f16 dir=inout\nblock 0\n%s\n%s\nend\n",
                 lines[0], lines[1]);
        dvt_run_t r;
        ck_assert_msg(dvt_run_text(&r, &cfg, text, true, GM0) == DV_OK, "%s", r.err.msg);
        ck_assert_uint_eq(r.cnt.op_count[DV_OP_copy_gm_to_ubuf_align], 1);
        ck_assert_uint_eq(r.cnt.op_count[DV_OP_copy_ubuf_to_gm_align], 1);
        dvt_free(&r);
        return;
    }
    dvt_config(&cfg, _i == 0 ? NULL : "ascend910a", _i == 0 ? off : NULL);
    ck_assert(!cfg.chip_dma_pad);
    for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++) {
        char text[512];
        snprintf(text, sizeof text,
                 "dvtrace 1\nkernel p kind=vector blocks=1\narg x bytes=4096 dtype=f16 dir=inout\nblock 0\n"
                 "scalar cycles=1\n%s\nend\n",
                 lines[k]);
        dvt_run_t r;
        ck_assert_int_eq(dvt_run_text(&r, &cfg, text, true, GM0 + 0x1000000 * (k + 1)), DV_ERR_UNSUPPORTED);
        char want[256];
        snprintf(want, sizeof want,
                 "byte-granular DMA (copy_*_align) is not available on this chip (chip.dma_pad) (%s, block 0, "
                 "instruction #1 %.21s)",
                 _i == 0 ? "aiv0" : "core0", lines[k]);
        ck_assert_str_eq(r.err.msg, want);
        ck_assert_str_eq(r.err.file, "test.trace");
        ck_assert_int_eq(r.err.line, 6);
        dvt_free(&r);
    }
}
END_TEST

/* Every opcode of the ISA table executes on a chip that has its pipe, is counted, and (apart from
 * sync work) keeps its pipe busy: every cost class is implemented.  _i selects the chip: coupled-only
 * opcodes run on the 310 (one profile per process). */
START_TEST(test_model_every_opcode_runs)
{
    const bool on_coupled = _i == 1;
    const dv_kernel_info_t info1 = {.nargs = 1,
                                    .args = (dv_arg_t[]){{.name = "x", .bytes = 1 << 20, .dtype = DV_DT_F16}}};
    for (int op = 0; op < DV_OP_COUNT; op++) {
        const dv_op_spec_t *os = dv_op_spec((dv_op_t)op);
        if (os->cost == DV_COST_SYNC)
            continue; /* flags, barriers and masks have their own tests */
        const bool coupled = op == DV_OP_copy_matrix_cc_to_ubuf;
        if (coupled != on_coupled)
            continue;
        const bool vector = os->pipe == DV_PIPE_V || os->dst_space == DV_SPACE_UB || os->src_space == DV_SPACE_UB ||
                            os->pipe == DV_PIPE_S;
        dv_insn_t in;
        dv_insn_init(&in, (dv_op_t)op);
        const dv_form_spec_t *fs = dv_form_spec(os->form);
        for (int k = 0; k < fs->nfields; k++) {
            const dv_field_spec_t *fd = &fs->fields[k];
            if (fd->kind == DV_FK_ADDR && DV_ADDR_SPACE(in.f[k].u) == DV_SPACE_GM)
                in.f[k].u = DV_GM_ADDR(0, 0);
            else if (fd->kind == DV_FK_ADDR)
                in.f[k].u = DV_ADDR(DV_ADDR_SPACE(in.f[k].u), (uint64_t)k * 0x1000);
            else if (fd->kind == DV_FK_INT && fd->required)
                in.f[k].i = fd->min > 16 ? fd->min : 16;
            else if (fd->kind == DV_FK_DTYPE)
                in.f[k].i = os->dtypes & DT_F16 ? DV_DT_F16 : DV_DT_F32;
        }
        if (os->form == DV_FORM_VCONV) {
            in.f[DV_FLD(VCONV, src_type)].i = DV_DT_F32;
            in.f[DV_FLD(VCONV, dst_type)].i = DV_DT_F16;
        }
        if (os->form == DV_FORM_IMG2COL) {
            in.f[DV_FLD(IMG2COL, fmap_h)].i = in.f[DV_FLD(IMG2COL, fmap_w)].i = 8;
            in.f[DV_FLD(IMG2COL, c1)].i = 1;
            in.f[DV_FLD(IMG2COL, kh)].i = in.f[DV_FLD(IMG2COL, kw)].i = 3;
        }
        if (os->form == DV_FORM_ND2NZ)
            in.f[DV_FLD(ND2NZ, src_d_stride)].i = 16;
        char line[1024], text[1400];
        ck_assert_int_gt(dv_trace_format_insn(&in, &info1, line, sizeof line), 0);
        snprintf(text, sizeof text,
                 "dvtrace 1\nkernel k kind=%s blocks=1\narg x bytes=1048576 dtype=f16 dir=inout\nblock 0\n%s\nend\n",
                 vector ? "vector" : "cube", line);
        dv_config_t cfg;
        dvt_config(&cfg, on_coupled ? "ascend310" : NULL, NULL);
        dvt_run_t r;
        ck_assert_msg(dvt_run_text(&r, &cfg, text, true, GM0 + (uint64_t)op * 0x1000000) == DV_OK, "%s: %s", line,
                      r.err.msg);
        ck_assert_uint_eq(r.cnt.op_count[op], 1);
        uint64_t busy = 0;
        for (uint32_t c = 0; c < r.cnt.ncores; c++)
            busy += r.cnt.cores[c].pipe_busy[os->pipe];
        ck_assert_msg(busy > 0, "%s kept no pipe busy", os->mnemonic);
        dvt_free(&r);
    }
}
END_TEST

/* The model runs several kernels in one process, continuing in simulated time. */
START_TEST(test_model_runs_kernels_back_to_back)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    const char *t = "dvtrace 1\nkernel a kind=vector blocks=4\nblock 0\nscalar cycles=10\nblock 1\nscalar cycles=10\n"
                    "block 2\nscalar cycles=10\nblock 3\nscalar cycles=10\nend\n";
    uint64_t first = 0;
    for (int i = 0; i < 3; i++) {
        dvt_run_t r;
        ck_assert_msg(dvt_run_text(&r, &cfg, t, true, GM0) == DV_OK, "%s", r.err.msg);
        if (i == 0)
            first = r.cnt.cycles;
        ck_assert_uint_eq(r.cnt.cycles, first);
        ck_assert_uint_eq(r.cnt.cycles, dvt_t0(&cfg) + 10);
        dvt_free(&r);
    }
    /* a failing kernel in between leaves the model usable */
    dvt_run_t r;
    ck_assert_int_eq(dvt_run_text(&r, &cfg, "dvtrace 1\nkernel d kind=vector blocks=1\nblock 0\nwait_flag src=V dst=S id=0\nend\n",
                                  true, GM0), DV_ERR_DEADLOCK);
    dvt_free(&r);
    ck_assert_msg(dvt_run_text(&r, &cfg, t, true, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, first);
    dvt_free(&r);
    dv_config_t other;
    dvt_config(&other, "ascend310", NULL);
    ck_assert_int_eq(dvt_run_text(&r, &other, t, true, GM0), DV_ERR_STATE);
    ck_assert_msg(strstr(r.err.msg, "one process simulates one profile"), "%s", r.err.msg);
    dvt_free(&r);
}
END_TEST

Suite *dv_model_suite(void)
{
    Suite *s = suite_create("model");
    TCase *tc = tcase_create("errors");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_model_unpaired_wait_is_deadlock);
    tcase_add_test(tc, test_model_scalar_wait_deadlock);
    tcase_add_test(tc, test_model_cross_core_deadlock);
    tcase_add_test(tc, test_model_access_past_buffer_end);
    tcase_add_test(tc, test_model_misaligned_address);
    tcase_add_test(tc, test_model_gm_outside_argument);
    tcase_add_test(tc, test_model_wrong_core_type);
    tcase_add_test(tc, test_model_event_id_range);
    tcase_add_test(tc, test_model_mix_needs_split_chip);
    tcase_add_test(tc, test_model_hazard_missing_wait);
    tcase_add_test(tc, test_model_synchronised_kernel_has_no_hazard);
    tcase_add_loop_test(tc, test_model_every_opcode_runs, 0, 2);
    tcase_add_loop_test(tc, test_model_dma_pad_gated, 0, 3);
    tcase_add_test(tc, test_model_no_fix_pipe_on_310);
    tcase_add_test(tc, test_model_runs_kernels_back_to_back);
    suite_add_tcase(s, tc);
    return s;
}
