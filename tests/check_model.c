/* tests/check_model.c - the model's structure and its errors: every opcode runs on a core that has
 * its pipe, bad accesses and deadlocks are located errors, hazards are found; several models, of
 * one profile or of several, live in one process without touching each other. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
    /* a vector operand's base counts, not the first element the mask selects */
    expect_error(NULL,
                 "dvtrace 1\nkernel e kind=vector blocks=1\nblock 0\n"
                 "vadd dst=ub:0x200 src0=ub:0x8 src1=ub:0x100 dtype=f16 repeat=1\nend\n",
                 DV_ERR_RANGE, "ub operand src0 at 0x8 is not aligned to 32 bytes", "test.trace:4");
}
END_TEST

/* The core passes most instructions by check_access's common way (plain_access) and leaves anything
 * it doubts to the full checks: each bad operand below, of a vector op (the VREDUCE dst aligned to
 * its element), a DMA into UB and out to GM, is reported as the full checks word it, located, on a
 * split and a coupled chip (a common way that passed any of them fails this). */
static const struct {
    const char *body, *msg;
} plain_access_errors[] = {
    {"vadd dst=ub:0x0 src0=ub:0x0 src1=ub:0x110 dtype=f16 repeat=1", "ub operand src1 at 0x110 is not aligned to 32 bytes"},
    {"vcadd dst=ub:0x401 src=ub:0x0 dtype=f16 repeat=1", "ub operand dst at 0x401 is not aligned to 2 bytes"},
    {"copy_gm_to_ubuf dst=ub:0x10 src=x nburst=1 len=1", "ub address 0x10 is not aligned to 32 bytes"},
    {"copy_gm_to_ubuf dst=ub:0x3ff00 src=x nburst=1 len=16", "access past the end of ub: bytes [261888, 262400) of "},
    {"copy_ubuf_to_gm dst=x+0x3f0 src=ub:0x0 nburst=1 len=1", "GM access outside argument 'x': bytes [1008, 1040) of 1024"},
};

START_TEST(test_model_plain_access_errors)
{
    for (int p = 0; p < 2; p++) {
        char text[512], where[64];
        snprintf(text, sizeof text,
                 "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=1024 dtype=f16 dir=in init=zero\nblock 0\n"
                 "vadd dst=ub:0x200 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=1\n%s\nend\n",
                 plain_access_errors[_i].body);
        snprintf(where, sizeof where, "test.trace:6: %s", plain_access_errors[_i].msg);
        expect_error(p ? "ascend310" : NULL, text, DV_ERR_RANGE, plain_access_errors[_i].msg, where);
    }
}
END_TEST

/* The common way's edges: an access that ends on a buffer's last byte passes and one past it does
 * not; a larger alignment (128) passes its multiples, and other offsets, multiples of 64, are the
 * full checks' errors, in a vector op's operand and a DMA's UB range alike. */
static const struct {
    const char *align, *body, *msg; /* msg NULL: the run succeeds */
} plain_access_edges[] = {
    {"core.ub_align_bytes=32", "copy_gm_to_ubuf dst=ub:0x2ff00 src=x nburst=1 len=8", NULL},
    {"core.ub_align_bytes=32", "copy_gm_to_ubuf dst=ub:0x2ff20 src=x nburst=1 len=8",
     "access past the end of ub: bytes [196384, 196640) of "},
    {"core.ub_align_bytes=128", "vadd dst=ub:0x80 src0=ub:0x100 src1=ub:0x300 dtype=f16 repeat=1", NULL},
    {"core.ub_align_bytes=128", "vadd dst=ub:0x80 src0=ub:0x140 src1=ub:0x300 dtype=f16 repeat=1",
     "ub operand src0 at 0x140 is not aligned to 128 bytes"},
    {"core.ub_align_bytes=128", "copy_gm_to_ubuf dst=ub:0x180 src=x nburst=1 len=1", NULL},
    {"core.ub_align_bytes=128", "copy_gm_to_ubuf dst=ub:0x1c0 src=x nburst=1 len=1",
     "ub address 0x1c0 is not aligned to 128 bytes"},
};

START_TEST(test_model_plain_access_edges)
{
    const char *sets[] = {plain_access_edges[_i].align, NULL};
    char text[512], where[128];
    snprintf(text, sizeof text,
             "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=1024 dtype=f16 dir=in init=zero\nblock 0\n"
             "vadd dst=ub:0x0 src0=ub:0x0 src1=ub:0x300 dtype=f16 repeat=1\n%s\nend\n",
             plain_access_edges[_i].body);
    dv_config_t cfg;
    dvt_config(&cfg, NULL, sets);
    dvt_run_t r;
    if (plain_access_edges[_i].msg) {
        ck_assert_int_eq(dvt_run_text(&r, &cfg, text, true, GM0), DV_ERR_RANGE);
        snprintf(where, sizeof where, "test.trace:6: %s", plain_access_edges[_i].msg);
        char located[1200];
        snprintf(located, sizeof located, "%s:%d: %s", r.err.file, r.err.line, r.err.msg);
        ck_assert_msg(strstr(located, where), "'%s' not in '%s'", where, located);
        dvt_free(&r);
    } else {
        ck_assert_msg(dvt_run_text(&r, &cfg, text, true, GM0) == DV_OK, "%s", r.err.msg);
        dvt_free(&r);
    }
}
END_TEST

/* A mask that skips the first elements leaves the operands' bases where they are: legal; and a
 * reduction's results need only their element's alignment. */
START_TEST(test_model_masked_base_aligned)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dvt_run_t r;
    int rc = dvt_run_text(&r, &cfg,
                          "dvtrace 1\nkernel e kind=vector blocks=1\nblock 0\n"
                          "set_vector_mask hi=0x0 lo=0xff00\n"
                          "vadd dst=ub:0x200 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=1\n"
                          "vcadd dst=ub:0x402 src=ub:0x0 dtype=f16 repeat=1\nend\n",
                          true, DV_GM_BASE);
    ck_assert_msg(rc == DV_OK, "%s", r.err.msg);
    dvt_free(&r);
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

/* The reader keeps the instruction lines it decoded (kernel/trace_read.c): a line whose text it has
 * seen is not parsed again, but it is still its own line, the one an error names. */
START_TEST(test_model_repeated_line_is_located)
{
    expect_error(NULL,
                 "dvtrace 1\nkernel e kind=vector blocks=1\nblock 0\nset_flag src=MTE2 dst=V id=1\nscalar cycles=3\n"
                 "set_flag src=MTE2 dst=V id=1\nend\n",
                 DV_ERR_STATE, "set twice without a wait", "test.trace:6:");
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
 * profile, which has it. */
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

/* The instructions only some chips have are refused, located, on a chip without their feature and
 * run on one with it, whichever way of the core's access check (its common pass or check_access)
 * takes them: the common pass learns the chip's features from check_access. */
#define CHIP_GATED 5 /* its instructions (its table is inside it, so that docs/ERRORS.md names it) */
START_TEST(test_model_chip_features_gated)
{
    static const struct {
        const char *line, *msg;
    } chip_gated[CHIP_GATED] = {
        {"load_cbuf_to_ca_transpose dst=l0a:0x0 src=l1:0x0 dtype=f16 repeat=1",
         "transposing L1 -> L0 loads are not available on this chip (chip.load_transpose)"},
        {"load_cbuf_to_cb_transpose dst=l0b:0x0 src=l1:0x0 dtype=f16 repeat=1",
         "transposing L1 -> L0 loads are not available on this chip (chip.load_transpose)"},
        {"load_gm_to_ca dst=l0a:0x0 src=x dtype=f16 repeat=1", "GM -> L0 loads are not available on this chip (chip.gm_to_l0)"},
        {"load_gm_to_cb dst=l0b:0x0 src=x dtype=f16 repeat=1", "GM -> L0 loads are not available on this chip (chip.gm_to_l0)"},
        {"get_sys_cnt", "this chip has no system counter a kernel can read (chip.sys_counter_mhz is 0)"},
    };
    char text[512], want[400];
    snprintf(text, sizeof text,
             "dvtrace 1\nkernel k kind=cube blocks=1\narg x bytes=4096 dtype=f16 dir=in init=zero\nblock 0\n"
             "scalar cycles=1\n%s\nend\n",
             chip_gated[_i].line);
    for (int chip = 0; chip < 2; chip++) { /* the 310 lacks all of them, the 910B2 has them */
        dv_config_t cfg;
        dvt_config(&cfg, chip ? NULL : "ascend310", NULL);
        dvt_run_t r;
        const int rc = dvt_run_text(&r, &cfg, text, true, GM0 + 0x1000000 * (uint64_t)(2 * _i + chip + 1));
        if (chip) {
            ck_assert_msg(rc == DV_OK, "%s", r.err.msg);
        } else {
            ck_assert_int_eq(rc, DV_ERR_UNSUPPORTED);
            snprintf(want, sizeof want, "%s (core0, block 0, instruction #1 %.*s)", chip_gated[_i].msg,
                     (int)strcspn(chip_gated[_i].line, " "), chip_gated[_i].line); /* its mnemonic */
            ck_assert_str_eq(r.err.msg, want);
            ck_assert_int_eq(r.err.line, 6);
        }
        dvt_free(&r);
    }
}
END_TEST

/* Every opcode of the ISA table executes on a chip that has its pipe, is counted, and (apart from
 * sync work) keeps its pipe busy: every cost class is implemented.  _i selects the chip: coupled-only
 * opcodes run on the 310. */
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
            else if (fd->kind == DV_FK_DTYPE) /* f16, else f32, else the row's first type */
                in.f[k].i = os->dtypes & DT_F16 ? DV_DT_F16 : os->dtypes & DT_F32 || !os->dtypes ? DV_DT_F32
                                                                                              : __builtin_ctz(os->dtypes);
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
        if (os->form == DV_FORM_FILL) /* 16 x 16 blocks would be 128 KB */
            in.f[DV_FLD(FILL, rows)].i = 4;
        if (os->form == DV_FORM_MMADB) /* the BiasTable holds 1 KB */
            in.f[DV_FLD(MMADB, bias)].u = DV_ADDR(DV_SPACE_BT, 0);
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

/* A race is found however much work one pipe did before the other pipe's first instruction: 70
 * copies on MTE2, then a V read of the first copy's bytes with no flag between them (the checker
 * once forgot MTE2's accesses while V had not run yet). */
START_TEST(test_model_hazard_after_many_copies)
{
    char text[8192];
    size_t n = (size_t)snprintf(text, sizeof text,
                                "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=1048576 dtype=f32 dir=in\nblock 0\n");
    for (int i = 0; i < 70; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "copy_gm_to_ubuf dst=ub:0x%x src=x+%d nburst=1 len=8\n", i * 256,
                              i * 256);
    snprintf(text + n, sizeof text - n, "vrelu dst=ub:0x10000 src=ub:0x0 dtype=f32 repeat=1\nend\n");
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dvt_run_t r;
    ck_assert_msg(dvt_run_text(&r, &cfg, text, false, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.hazards, 1);
    ck_assert_int_eq(r.cnt.hazard[0].kind, DV_HAZ_RAW);
    ck_assert_uint_eq(r.cnt.hazard[0].insn_first, 0);
    ck_assert_uint_eq(r.cnt.hazard[0].insn_second, 70);
    ck_assert_uint_eq(r.cnt.hazard[0].lo, 0);
    ck_assert_uint_eq(r.cnt.hazard[0].hi, 256);
    dvt_free(&r);
}
END_TEST

/* A kernel fails on one core while another waits for a cross-core flag and a third for time (the
 * chip's scheduler abandons both mid-block): the error is the failing core's, and the model then
 * runs a kernel with cross-core flags exactly as a fresh model does. */
START_TEST(test_model_failure_while_cores_wait)
{
    dv_config_t cfg;
    dvt_config(&cfg, "ascend910b2", NULL);
    dv_model_t *m = dvt_model(&cfg);
    dvt_run_t r;
    ck_assert_int_eq(dvt_run_text_on(&r, m,
                                     "dvtrace 1\nkernel f kind=mix blocks=1\nblock 0 aic\nscalar cycles=100000\n"
                                     "block 0 aiv0\nwait_cross_flag id=2\nscalar cycles=5\n"
                                     "block 0 aiv1\nscalar cycles=50\n"
                                     "vadd dst=ub:0x2ff00 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=2\n"
                                     "set_cross_flag pipe=S mode=1 id=2\nend\n",
                                     false, GM0),
                     DV_ERR_RANGE);
    ck_assert_msg(strstr(r.err.msg, "access past the end of ub") && strstr(r.err.msg, "aiv1"), "%s", r.err.msg);
    ck_assert_int_eq(r.err.line, 10);
    dvt_free(&r);
    const char *t = "dvtrace 1\nkernel x kind=mix blocks=2\n"
                    "block 0 aic\nscalar cycles=1000\nset_cross_flag pipe=S mode=2 id=1\n"
                    "block 0 aiv0\nwait_cross_flag id=1\nvadd dst=ub:0x200 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=8\n"
                    "block 0 aiv1\nwait_cross_flag id=1\nvadd dst=ub:0x200 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=8\n"
                    "block 1 aic\nscalar cycles=10\nset_cross_flag pipe=S mode=2 id=1\n"
                    "block 1 aiv0\nwait_cross_flag id=1\nscalar cycles=3\n"
                    "block 1 aiv1\nwait_cross_flag id=1\nscalar cycles=4\nend\n";
    ck_assert_msg(dvt_run_text_on(&r, m, t, false, GM0) == DV_OK, "%s", r.err.msg);
    dvt_run_t fresh;
    ck_assert_msg(dvt_run_text(&fresh, &cfg, t, false, GM0) == DV_OK, "%s", fresh.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, fresh.cnt.cycles);
    ck_assert_uint_gt(r.cnt.cycles, dvt_t0(&cfg) + 1000 + cfg.sync_cross_latency_cycles);
    for (uint32_t i = 0; i < r.cnt.ncores; i++) {
        ck_assert_uint_eq(r.cnt.cores[i].first_cycle, fresh.cnt.cores[i].first_cycle);
        ck_assert_uint_eq(r.cnt.cores[i].last_cycle, fresh.cnt.cores[i].last_cycle);
        ck_assert_uint_eq(r.cnt.cores[i].instructions, fresh.cnt.cores[i].instructions);
    }
    dvt_free(&fresh);
    dvt_free(&r);
    dv_model_destroy(m);
}
END_TEST

/* A model runs several kernels, continuing in simulated time; another model, of another profile,
 * runs beside it. */
START_TEST(test_model_runs_kernels_back_to_back)
{
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dv_model_t *m = dvt_model(&cfg);
    const char *t = "dvtrace 1\nkernel a kind=vector blocks=4\nblock 0\nscalar cycles=10\nblock 1\nscalar cycles=10\n"
                    "block 2\nscalar cycles=10\nblock 3\nscalar cycles=10\nend\n";
    for (int i = 0; i < 3; i++) {
        dvt_run_t r;
        ck_assert_msg(dvt_run_text_on(&r, m, t, true, GM0) == DV_OK, "%s", r.err.msg);
        ck_assert_uint_eq(r.cnt.cycles, dvt_t0(&cfg) + 10);
        dvt_free(&r);
    }
    /* a failing kernel in between leaves the model usable */
    dvt_run_t r;
    ck_assert_int_eq(dvt_run_text_on(&r, m, "dvtrace 1\nkernel d kind=vector blocks=1\nblock 0\nwait_flag src=V dst=S id=0\nend\n",
                                     true, GM0), DV_ERR_DEADLOCK);
    dvt_free(&r);
    ck_assert_msg(dvt_run_text_on(&r, m, t, true, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, dvt_t0(&cfg) + 10);
    dvt_free(&r);
    /* a model of another profile: its own numbers; then the first goes on */
    dv_config_t other;
    dvt_config(&other, "ascend310", NULL);
    ck_assert_uint_ne(dvt_t0(&other), dvt_t0(&cfg));
    ck_assert_msg(dvt_run_text(&r, &other, t, true, GM0) == DV_OK, "%s", r.err.msg);
    /* the 310's two cores run the four blocks in two waves: blocks 2 and 3 start after 0 and 1 */
    ck_assert_uint_eq(other.chip_ai_cores, 2);
    ck_assert_uint_eq(r.cnt.cycles, dvt_t0(&other) + 10 + other.chip_block_start_cycles + 10);
    ck_assert_str_eq(r.cnt.cores[0].name, "core0");
    dvt_free(&r);
    ck_assert_msg(dvt_run_text_on(&r, m, t, true, GM0) == DV_OK, "%s", r.err.msg);
    ck_assert_uint_eq(r.cnt.cycles, dvt_t0(&cfg) + 10);
    ck_assert_str_eq(r.cnt.cores[0].name, "aic0");
    dvt_free(&r);
    dv_model_destroy(m);
}
END_TEST

/* ---- several models in one process ---- */

/* Three blocks that each copy 8 KB in from GM and back out to another place: the L2 and HBM
 * counters, the cores' busy times and the occupancy of their UB all take part. */
static void copy_kernel(char *text, size_t n)
{
    size_t k = (size_t)snprintf(text, n, "dvtrace 1\nkernel k kind=vector blocks=3\narg x bytes=262144 dtype=f16 dir=inout\n");
    for (int b = 0; b < 3; b++)
        k += (size_t)snprintf(text + k, n - k,
                              "block %d\ncopy_gm_to_ubuf dst=ub:0x0 src=x+%d nburst=4 len=64\n"
                              "set_flag src=MTE2 dst=MTE3 id=0\nwait_flag src=MTE2 dst=MTE3 id=0\n"
                              "copy_ubuf_to_gm dst=x+%d src=ub:0x0 nburst=4 len=64\n",
                              b, b * 0x2000, 0x20000 + b * 0x2000);
    snprintf(text + k, n - k, "end\n");
}

/* Every counter of a and b is the same (what names the comparison). */
static void same_counters(const dv_counters_t *a, const dv_counters_t *b, const char *what)
{
#define SAME(f) ck_assert_msg(a->f == b->f, "%s: " #f " %llu != %llu", what, (unsigned long long)a->f, (unsigned long long)b->f)
    SAME(cycles);
    SAME(instructions);
    SAME(ncores);
    SAME(gm_read_bytes);
    SAME(gm_write_bytes);
    SAME(l2_hits);
    SAME(l2_misses);
    SAME(l2_writebacks);
    SAME(hbm_read_bytes);
    SAME(hbm_write_bytes);
    SAME(hazards);
    SAME(nhazard_records);
    for (int op = 0; op < DV_OP_COUNT; op++)
        SAME(op_count[op]);
    for (uint32_t c = 0; c < a->ncores; c++) {
        SAME(cores[c].type);
        SAME(cores[c].blocks);
        SAME(cores[c].first_cycle);
        SAME(cores[c].last_cycle);
        SAME(cores[c].instructions);
        SAME(cores[c].stall_queue_full_cycles);
        SAME(cores[c].stall_flag_cycles);
        SAME(cores[c].stall_cross_cycles);
        SAME(cores[c].bank_conflict_cycles);
        SAME(cores[c].gm_read_bytes);
        SAME(cores[c].gm_write_bytes);
        for (int p = 0; p < DV_PIPE_COUNT; p++) {
            SAME(cores[c].pipe_busy[p]);
            SAME(cores[c].pipe_insns[p]);
            SAME(cores[c].pipe_wait_cycles[p]);
        }
        for (int sp = 0; sp < DV_SPACE_COUNT; sp++) {
            SAME(cores[c].buf[sp].capacity);
            SAME(cores[c].buf[sp].peak_bytes);
            ck_assert_msg(a->cores[c].buf[sp].byte_cycles == b->cores[c].buf[sp].byte_cycles, "%s: byte_cycles", what);
        }
        ck_assert_str_eq(a->cores[c].name, b->cores[c].name);
    }
#undef SAME
}

/* Run copy_kernel on m (timing only) into *out. */
static void run_copy_kernel(dv_model_t *m, dv_counters_t *out)
{
    char text[2048];
    copy_kernel(text, sizeof text);
    dvt_run_t r;
    ck_assert_msg(dvt_run_text_on(&r, m, text, false, GM0) == DV_OK, "%s", r.err.msg);
    *out = r.cnt;
    r.rc = DV_ERR_STATE; /* the counters move to *out */
    dvt_free(&r);
}

/* copy_kernel on a fresh model of `profile`, as a fresh process would run it first. */
static void fresh_copy_kernel(const char *profile, dv_counters_t *out)
{
    dv_config_t cfg;
    dvt_config(&cfg, profile, NULL);
    dv_model_t *m = dvt_model(&cfg);
    run_copy_kernel(m, out);
    dv_model_destroy(m);
}

/* Two profiles in one process, back to back and interleaved (A, B, A), give exactly the counters
 * of fresh models; A's second run finds A's first run's lines in its L2 (the models do not share
 * one), and equals a second run on a model of A alone. */
START_TEST(test_model_two_profiles_interleaved)
{
    dv_counters_t fresh_a, fresh_b, twice_a[2], a1, b1, a2;
    fresh_copy_kernel("ascend910b2", &fresh_a);
    fresh_copy_kernel("ascend310", &fresh_b);
    ck_assert_uint_ne(fresh_a.cycles, fresh_b.cycles);
    ck_assert_uint_eq(fresh_a.l2_hits, 0);
    dv_config_t ca, cb;
    dvt_config(&ca, "ascend910b2", NULL);
    dvt_config(&cb, "ascend310", NULL);
    dv_model_t *alone = dvt_model(&ca);
    run_copy_kernel(alone, &twice_a[0]);
    run_copy_kernel(alone, &twice_a[1]);
    dv_model_destroy(alone);
    ck_assert_uint_gt(twice_a[1].l2_hits, 0);

    dv_model_t *a = dvt_model(&ca), *b = dvt_model(&cb);
    run_copy_kernel(a, &a1);
    run_copy_kernel(b, &b1);
    run_copy_kernel(a, &a2);
    same_counters(&a1, &fresh_a, "A first");
    same_counters(&b1, &fresh_b, "B after A");
    same_counters(&a2, &twice_a[1], "A again after B");
    same_counters(&twice_a[0], &fresh_a, "A alone, first run");
    dv_model_destroy(b);
    dv_model_destroy(a);
    dv_counters_t *all[] = {&fresh_a, &fresh_b, &twice_a[0], &twice_a[1], &a1, &b1, &a2};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        dv_counters_free(all[i]);
}
END_TEST

/* The counters of a run in a child process, sent whole through a pipe (cores included). */
static void child_copy_kernel(const char *profile, dv_counters_t *out)
{
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    fflush(NULL);
    const pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(fd[0]);
        dv_counters_t c;
        fresh_copy_kernel(profile, &c);
        const size_t n = c.ncores * sizeof c.cores[0];
        const bool ok = write(fd[1], &c, sizeof c) == (ssize_t)sizeof c && write(fd[1], c.cores, n) == (ssize_t)n;
        _exit(ok ? 0 : 1);
    }
    close(fd[1]);
    ck_assert_int_eq(read(fd[0], out, sizeof *out), (ssize_t)sizeof *out);
    const size_t n = out->ncores * sizeof out->cores[0];
    out->cores = malloc(n);
    size_t got = 0;
    for (ssize_t k; got < n && (k = read(fd[0], (char *)out->cores + got, n - got)) > 0;)
        got += (size_t)k;
    ck_assert_uint_eq(got, n);
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* One process running profile A then profile B gets exactly what two processes get. */
START_TEST(test_model_two_profiles_match_two_processes)
{
    dv_counters_t here_a, here_b, proc_a, proc_b;
    fresh_copy_kernel("ascend910b2", &here_a);
    fresh_copy_kernel("ascend910a", &here_b);
    child_copy_kernel("ascend910b2", &proc_a);
    child_copy_kernel("ascend910a", &proc_b);
    same_counters(&here_a, &proc_a, "ascend910b2: this process / a process of its own");
    same_counters(&here_b, &proc_b, "ascend910a after ascend910b2 / a process of its own");
    dv_counters_free(&here_a);
    dv_counters_free(&here_b);
    dv_counters_free(&proc_a);
    dv_counters_free(&proc_b);
}
END_TEST

/* A model destroyed and built again gives the same result, however many times; building and
 * destroying models in any order leaves the others intact. */
START_TEST(test_model_rebuilt_gives_same_result)
{
    dv_counters_t first, again;
    fresh_copy_kernel(NULL, &first);
    dv_config_t cfg, other;
    dvt_config(&cfg, NULL, NULL);
    dvt_config(&other, "ascend310", NULL);
    dv_model_t *keep = dvt_model(&other);
    for (int i = 0; i < 20; i++) {
        dv_model_t *m = dvt_model(i % 2 ? &cfg : &other);
        dv_model_destroy(m);
    }
    for (int i = 0; i < 3; i++) {
        fresh_copy_kernel(NULL, &again);
        same_counters(&again, &first, "rebuilt");
        dv_counters_free(&again);
    }
    dv_counters_t k;
    run_copy_kernel(keep, &k);
    dv_model_destroy(keep);
    dv_counters_t ref;
    fresh_copy_kernel("ascend310", &ref);
    same_counters(&k, &ref, "a model that outlived others");
    dv_counters_free(&k);
    dv_counters_free(&ref);
    dv_counters_free(&first);
    ck_assert_ptr_null(dv_model_config(NULL));
    dv_model_destroy(NULL);
    dv_error_t err = {0};
    dv_model_t *none = (dv_model_t *)&err;
    ck_assert_int_eq(dv_model_create(NULL, &none, &err), DV_ERR_STATE);
    ck_assert_ptr_null(none);
    ck_assert_str_eq(err.msg, "dv_model_create: NULL argument");
}
END_TEST

/* A model built for one kernel (dv_model_create_for: only the cores it runs on) gives exactly the
 * counters of a model with every core, run after run (the cores it lacks are named as before); a
 * kernel that needs a core it was not built with is an error and leaves it usable. */
START_TEST(test_model_built_for_one_kernel)
{
    char text[2048];
    copy_kernel(text, sizeof text);
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    dv_kernel_t *k;
    dv_error_t err = {0};
    ck_assert_msg(dv_trace_open_string(text, "test.trace", &k, &err) == DV_OK, "%s", err.msg);
    dv_model_t *full = dvt_model(&cfg), *only = NULL;
    ck_assert_msg(dv_model_create_for(&cfg, &k->info, &only, &err) == DV_OK, "%s", err.msg);
    dv_trace_close(k);
    for (int i = 0; i < 2; i++) {
        dv_counters_t a, b;
        run_copy_kernel(full, &a);
        run_copy_kernel(only, &b);
        same_counters(&b, &a, i ? "built for the kernel, second run" : "built for the kernel");
        ck_assert_uint_eq(b.ncores, 72);
        ck_assert_str_eq(b.cores[0].name, "aic0");
        ck_assert_str_eq(b.cores[71].name, "aiv47");
        dv_counters_free(&a);
        dv_counters_free(&b);
    }
    dvt_run_t r;
    ck_assert_int_eq(dvt_run_text_on(&r, only, "dvtrace 1\nkernel c kind=cube blocks=1\nblock 0\nscalar cycles=10\nend\n",
                                     false, GM0), DV_ERR_STATE);
    ck_assert_str_eq(r.err.msg, "kernel 'c' runs on core aic0, which this model was not built with "
                                "(dv_model_create_for builds the cores of one kernel)");
    dvt_free(&r);
    ck_assert_int_eq(dvt_run_text_on(&r, only, "dvtrace 1\nkernel v kind=vector blocks=4\nblock 0\nscalar cycles=1\n"
                                     "block 1\nscalar cycles=1\nblock 2\nscalar cycles=1\nblock 3\nscalar cycles=1\nend\n",
                                     false, GM0), DV_ERR_STATE);
    ck_assert_msg(strstr(r.err.msg, "runs on core aiv3,"), "%s", r.err.msg);
    dvt_free(&r);
    dv_counters_t c;
    run_copy_kernel(only, &c);
    ck_assert_uint_eq(c.instructions, 12);
    dv_counters_free(&c);
    dv_model_destroy(only);
    dv_model_destroy(full);
    dv_model_t *none = (dv_model_t *)&err;
    ck_assert_int_eq(dv_model_create_for(&cfg, NULL, &none, &err), DV_ERR_STATE);
    ck_assert_str_eq(err.msg, "dv_model_create: NULL argument");
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
    tcase_add_loop_test(tc, test_model_plain_access_errors, 0,
                        (int)(sizeof plain_access_errors / sizeof plain_access_errors[0]));
    tcase_add_loop_test(tc, test_model_plain_access_edges, 0,
                        (int)(sizeof plain_access_edges / sizeof plain_access_edges[0]));
    tcase_add_test(tc, test_model_masked_base_aligned);
    tcase_add_test(tc, test_model_gm_outside_argument);
    tcase_add_test(tc, test_model_wrong_core_type);
    tcase_add_test(tc, test_model_event_id_range);
    tcase_add_test(tc, test_model_repeated_line_is_located);
    tcase_add_test(tc, test_model_mix_needs_split_chip);
    tcase_add_test(tc, test_model_hazard_missing_wait);
    tcase_add_test(tc, test_model_synchronised_kernel_has_no_hazard);
    tcase_add_test(tc, test_model_hazard_after_many_copies);
    tcase_add_test(tc, test_model_built_for_one_kernel);
    tcase_add_loop_test(tc, test_model_every_opcode_runs, 0, 2);
    tcase_add_loop_test(tc, test_model_dma_pad_gated, 0, 3);
    tcase_add_loop_test(tc, test_model_chip_features_gated, 0, CHIP_GATED);
    tcase_add_test(tc, test_model_no_fix_pipe_on_310);
    tcase_add_test(tc, test_model_runs_kernels_back_to_back);
    tcase_add_test(tc, test_model_failure_while_cores_wait);
    tcase_add_test(tc, test_model_two_profiles_interleaved);
    tcase_add_test(tc, test_model_two_profiles_match_two_processes);
    tcase_add_test(tc, test_model_rebuilt_gives_same_result);
    suite_add_tcase(s, tc);
    return s;
}
