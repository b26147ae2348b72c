/* tests/check_cli.c - the dvsim program: every error a user can reach from the command line, with
 * its exit code, its message and its location.  Runs $DVSIM, else $DVSIM_ROOT/bin/dvsim (set by
 * make test). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/clit.h"

static void setup(void) { clit_setup_named("dvsim-cli"); }
static void teardown(void) { clit_teardown(); }

/* stderr holds "<...>FILE:LINE:<col>: error: <...>MSG" */
static void assert_located(const char *file, int line, const char *msg)
{
    char head[256];
    snprintf(head, sizeof head, "%s:%d:", file, line);
    const char *p = strstr(clit_err, head);
    ck_assert_msg(p != NULL, "no location '%s' in: %s", head, clit_err);
    p += strlen(head);
    ck_assert_msg(*p >= '1' && *p <= '9', "no column after '%s' in: %s", head, clit_err);
    while (*p >= '0' && *p <= '9')
        p++;
    ck_assert_msg(strncmp(p, ": error: ", 9) == 0, "malformed location in: %s", clit_err);
    ck_assert_msg(strstr(p, msg) != NULL, "message '%s' missing in: %s", msg, clit_err);
}

static double json_number(const char *text, const char *key);

#define ASSERT_ERR(s) ck_assert_msg(strstr(clit_err, s) != NULL, "expected '%s' in stderr: %s", s, clit_err)

static const char *const vadd = "traces/vadd_double_buffer.trace";

START_TEST(test_cli_unknown_option)
{
    char a[256];
    snprintf(a, sizeof a, "run --bogus %s", vadd);
    ck_assert_int_eq(clit_dvsim(a), 2);
    ASSERT_ERR("unknown option '--bogus'");
    ck_assert_str_eq(clit_out, "");
}
END_TEST

START_TEST(test_cli_unknown_command)
{
    ck_assert_int_eq(clit_dvsim("frobnicate"), 2);
    ASSERT_ERR("unknown command 'frobnicate'");
}
END_TEST

START_TEST(test_cli_missing_trace)
{
    ck_assert_int_eq(clit_dvsim("run --quiet"), 2);
    ASSERT_ERR("missing TRACE");
}
END_TEST

START_TEST(test_cli_missing_value)
{
    ck_assert_int_eq(clit_dvsim("run traces/missing_wait.trace --json"), 2);
    ASSERT_ERR("option '--json' needs a value");
}
END_TEST

START_TEST(test_cli_two_traces)
{
    ck_assert_int_eq(clit_dvsim("run traces/missing_wait.trace traces/matmul_tile.trace"), 2);
    ASSERT_ERR("only one TRACE");
}
END_TEST

START_TEST(test_cli_dump_needs_data)
{
    char a[256];
    snprintf(a, sizeof a, "run --no-data --dump z=$T/z.bin %s", vadd);
    ck_assert_int_eq(clit_dvsim(a), 2);
    ASSERT_ERR("'--dump' cannot be used with '--no-data'");
}
END_TEST

START_TEST(test_cli_dump_malformed)
{
    char a[256];
    snprintf(a, sizeof a, "run --dump z %s", vadd);
    ck_assert_int_eq(clit_dvsim(a), 2);
    ASSERT_ERR("needs ARG=FILE");
}
END_TEST

START_TEST(test_cli_unexpected_argument)
{
    ck_assert_int_eq(clit_dvsim("profiles extra"), 2);
    ASSERT_ERR("unexpected argument 'extra'");
    ck_assert_int_eq(clit_dvsim("--dump-config traces/matmul_tile.trace"), 2);
    ASSERT_ERR("unexpected argument 'traces/matmul_tile.trace'");
}
END_TEST

START_TEST(test_cli_nonexistent_trace)
{
    ck_assert_int_eq(clit_dvsim("run $T/no-such.trace"), 1);
    ASSERT_ERR("no-such.trace: error:");
    ck_assert_str_eq(clit_out, "");
}
END_TEST

START_TEST(test_cli_bad_set_key)
{
    char a[256];
    snprintf(a, sizeof a, "run --set chip.bogus_key=1 %s", vadd);
    ck_assert_int_eq(clit_dvsim(a), 1);
    ASSERT_ERR("chip.bogus_key");
    ck_assert_str_eq(clit_out, "");
}
END_TEST

START_TEST(test_cli_bad_set_value)
{
    ck_assert_int_eq(clit_dvsim("--dump-config --set chip.freq_mhz=0"), 1);
    ASSERT_ERR("chip.freq_mhz");
}
END_TEST

START_TEST(test_cli_bad_profile)
{
    char a[256];
    snprintf(a, sizeof a, "run --profile no_such_chip %s", vadd);
    ck_assert_int_eq(clit_dvsim(a), 1);
    ASSERT_ERR("no_such_chip");
    ck_assert_str_eq(clit_out, "");
}
END_TEST

START_TEST(test_cli_bad_yaml_key)
{
    clit_write("bad.yaml", "preset: ascend910b2\nchip:\n  bogus_key: 1\n");
    ck_assert_int_eq(clit_dvsim("--dump-config --config $T/bad.yaml"), 1);
    assert_located("bad.yaml", 3, "bogus_key");
}
END_TEST

START_TEST(test_cli_bad_yaml_syntax)
{
    clit_write("broken.yaml", "preset: ascend910b2\nchip: {freq_mhz: 1000\n");
    ck_assert_int_eq(clit_dvsim("--dump-config --config $T/broken.yaml"), 1);
    ck_assert_msg(strstr(clit_err, "broken.yaml:") != NULL, "no file in: %s", clit_err);
    /* libyaml reports the position where it gave up: line 3, column 1 (end of input) */
    ck_assert_msg(strstr(clit_err, "broken.yaml:2:") || strstr(clit_err, "broken.yaml:3:"), "no line in: %s",
                  clit_err);
}
END_TEST

START_TEST(test_cli_malformed_trace_line)
{
    clit_write("bad.trace", "dvtrace 1\n"
                            "kernel k kind=vector blocks=1\n"
                            "arg x bytes=1024 dtype=f16 dir=in init=zero\n"
                            "block 0\n"
                            "vadd dst=ub:0x0 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=1\n"
                            "vadd dst=ub:0x0 src0=ub:0x0 bogus=3 dtype=f16 repeat=1\n"
                            "end\n");
    ck_assert_int_eq(clit_dvsim("run $T/bad.trace"), 1);
    assert_located("bad.trace", 6, "bogus");
    ck_assert_str_eq(clit_out, "");
}
END_TEST

/* Errors the model finds while running name the trace line (no column: the whole instruction),
 * exit with 1 and print no report. */
static const struct {
    const char *body;
    int line;
    const char *msg;
} model_errors[] = {
    {"vadd dst=ub:0x0 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=1\nwait_flag src=MTE2 dst=V id=0\n"
     "vadd dst=ub:0x0 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=1\n",
     6, "pipe V waits for event MTE2->V id 0"},
    {"vadd dst=ub:0x10 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=1\n", 5, "not aligned to 32 bytes"},
    {"vadd dst=ub:0x2ff00 src0=ub:0x0 src1=ub:0x100 dtype=f16 repeat=2\n", 5, "access past the end of ub"},
    {"copy_gm_to_ubuf dst=ub:0x0 src=x+0x200 nburst=1 len=32\n", 5, "GM access outside argument 'x'"},
};

START_TEST(test_cli_model_errors_are_located)
{
    char text[1024];
    snprintf(text, sizeof text,
             "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=1024 dtype=f16 dir=in init=zero\nblock 0\n%send\n",
             model_errors[_i].body);
    clit_write("m.trace", text);
    ck_assert_int_eq(clit_dvsim("run $T/m.trace"), 1);
    char head[64];
    snprintf(head, sizeof head, "m.trace:%d: error: ", model_errors[_i].line);
    ck_assert_msg(strstr(clit_err, head) != NULL, "no '%s' in: %s", head, clit_err);
    ASSERT_ERR(model_errors[_i].msg);
    ck_assert_str_eq(clit_out, "");
}
END_TEST

START_TEST(test_cli_unknown_mnemonic)
{
    clit_write("op.trace", "dvtrace 1\n"
                           "kernel k kind=vector blocks=1\n"
                           "block 0\n"
                           "vfrobnicate dst=ub:0x0\n"
                           "end\n");
    ck_assert_int_eq(clit_dvsim("run $T/op.trace"), 1);
    assert_located("op.trace", 4, "vfrobnicate");
}
END_TEST

START_TEST(test_cli_dump_config_round_trip)
{
    ck_assert_int_eq(clit_dvsim("--dump-config --profile ascend310 --set chip.freq_mhz=700 >$T/a.yaml"), 0);
    ck_assert_int_eq(clit_dvsim("dump-config --config $T/a.yaml >$T/b.yaml"), 0);
    ck_assert_int_eq(clit_dvsim("--dump-config --config $T/a.yaml"), 0);
    ck_assert_msg(strstr(clit_out, "freq_mhz: 700") != NULL, "override lost: %s", clit_out);
    ck_assert_int_eq(clit_dvsim("--dump-config --config $T/a.yaml >$T/c.yaml && cmp $T/a.yaml $T/c.yaml"), 0);
}
END_TEST

START_TEST(test_cli_profiles_and_version)
{
    ck_assert_int_eq(clit_dvsim("profiles"), 0);
    ck_assert_msg(strstr(clit_out, "ascend910b2 (default)\n") == clit_out, "default first: %s", clit_out);
    ck_assert_ptr_nonnull(strstr(clit_out, "ascend310\n"));
    ck_assert_int_eq(clit_dvsim("--version"), 0);
    ck_assert_ptr_nonnull(strstr(clit_out, "dvsim "));
    ck_assert_int_eq(clit_dvsim("--help"), 0);
    ck_assert_ptr_nonnull(strstr(clit_out, "usage: dvsim run"));
}
END_TEST

/* ---- runs that need the model ---- */

START_TEST(test_cli_run_sample)
{
    char a[256];
    snprintf(a, sizeof a, "run %s", vadd);
    ck_assert_int_eq(clit_dvsim(a), 0);
    ck_assert_msg(strstr(clit_out, "[chip]") && strstr(clit_out, "[cores]") && strstr(clit_out, "[buffers]") &&
                      strstr(clit_out, "[memory]"),
                  "report sections missing: %s", clit_out);
    ck_assert_str_eq(clit_err, "");
}
END_TEST

START_TEST(test_cli_json_and_timeline)
{
    char a[256];
    snprintf(a, sizeof a, "run --quiet --json $T/r.json --timeline $T/t.json %s && cat $T/r.json $T/t.json", vadd);
    ck_assert_int_eq(clit_dvsim(a), 0);
    ck_assert_ptr_nonnull(strstr(clit_out, "\"schema_version\":"));
    ck_assert_ptr_nonnull(strstr(clit_out, "\"profile\":\"ascend910b2\""));
    ck_assert_ptr_nonnull(strstr(clit_out, "\"traceEvents\":["));
    ck_assert_ptr_nonnull(strstr(clit_out, "\"args\":{\"name\":\"aiv0\"}"));
}
END_TEST

START_TEST(test_cli_unwritable_json_prints_no_report)
{
    char a[256];
    snprintf(a, sizeof a, "run --json $T/no/such/dir/r.json %s", vadd);
    ck_assert_int_eq(clit_dvsim(a), 1);
    ASSERT_ERR("r.json: error: cannot write");
    ck_assert_str_eq(clit_out, "");
}
END_TEST

/* Outputs are opened before the run (a bad path costs no simulation: the trace's own error, later,
 * is not reached), written to a temporary and renamed over the file only when the run succeeded, and
 * a failed write names the file and the reason. */
START_TEST(test_cli_outputs_whole_or_not_at_all)
{
    char a[512];
    clit_write("bad.trace", "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=512\nblock 0\n"
                            "copy_gm_to_ubuf dst=ub:0x2ffff0 src=x len=1\nend\n");
    ck_assert_int_eq(clit_dvsim("run --json $T/no/such/dir/r.json $T/bad.trace"), 1);
    ASSERT_ERR("r.json: error: cannot write the JSON report");
    ck_assert_ptr_null(strstr(clit_err, "bad.trace"));
    /* a run that fails leaves an existing output as it was, and no temporary */
    clit_write("keep.json", "old\n");
    ck_assert_int_eq(clit_dvsim("run --json $T/keep.json --timeline $T/t.json $T/bad.trace"), 1);
    ASSERT_ERR("bad.trace:5:");
    ck_assert_int_eq(clit_dvsim("--version >/dev/null && cat $T/keep.json && ls $T | grep -c tmp; test ! -e $T/t.json"), 0);
    ck_assert_str_eq(clit_out, "old\n0\n");
    /* a full device: the file and the reason; the text report was printed */
    snprintf(a, sizeof a, "run --json /dev/full %s", vadd);
    ck_assert_int_eq(clit_dvsim(a), 1);
    ASSERT_ERR("/dev/full: error: writing the JSON report failed: No space left on device");
    ck_assert_ptr_nonnull(strstr(clit_out, "[chip]"));
    /* a successful run replaces the file whole */
    snprintf(a, sizeof a, "run --quiet --json $T/keep.json %s && head -c 1 $T/keep.json && { ls $T | grep -c tmp; true; }", vadd);
    ck_assert_int_eq(clit_dvsim(a), 0);
    ck_assert_str_eq(clit_out, "{0\n");
    /* one output on stdout at most; with one there, no text report mixed into it */
    snprintf(a, sizeof a, "run --json - --timeline - %s", vadd);
    ck_assert_int_eq(clit_dvsim(a), 2);
    ASSERT_ERR("only one of --json, --timeline, --instr-csv and --dump can write to stdout");
    snprintf(a, sizeof a, "run --timeline - %s", vadd);
    ck_assert_int_eq(clit_dvsim(a), 0);
    ck_assert_ptr_null(strstr(clit_out, "[chip]"));
    ck_assert_ptr_nonnull(strstr(clit_out, "traceEvents"));
}
END_TEST

/* --max-hazards: the checker stops once it has found that many (the instruction that reaches the
 * cap may add a few), and the report says so; 0 = no limit. */
START_TEST(test_cli_max_hazards)
{
    char text[20000], *p = text;
    p += sprintf(p, "dvtrace 1\nkernel k kind=vector blocks=1\narg x bytes=65536 dtype=f16\nblock 0\n");
    for (int i = 0; i < 100; i++) /* a load and an add on the same bytes, never synchronised */
        p += sprintf(p, "copy_gm_to_ubuf dst=ub:0x0 src=x len=16\n"
                        "vadds dst=ub:0x0 src=ub:0x0 dtype=f16 scalar=1 repeat=2\n");
    sprintf(p, "end\n");
    clit_write("racy.trace", text);
    ck_assert_int_eq(clit_dvsim("run --no-data --max-hazards 10 --json - $T/racy.trace"), 0);
    ck_assert_ptr_nonnull(strstr(clit_out, "\"hazards_capped\":true"));
    const double n = json_number(clit_out, "hazard_count");
    ck_assert_msg(n >= 10 && n < 20, "hazard_count %g", n);
    ck_assert_int_eq(clit_dvsim("run --no-data --max-hazards 10 $T/racy.trace"), 0);
    ck_assert_ptr_nonnull(strstr(clit_out, "(the checker stopped there: --max-hazards; there may be more)"));
    ck_assert_int_eq(clit_dvsim("run --no-data --max-hazards 0 --json - $T/racy.trace"), 0);
    ck_assert_ptr_nonnull(strstr(clit_out, "\"hazards_capped\":false"));
    ck_assert_double_gt(json_number(clit_out, "hazard_count"), 1000);
    ck_assert_int_eq(clit_dvsim("run --max-hazards lots $T/racy.trace"), 2);
    ASSERT_ERR("--max-hazards: 'lots' is not a number");
}
END_TEST

START_TEST(test_cli_dump_unknown_argument)
{
    char a[256];
    snprintf(a, sizeof a, "run --dump nope=$T/n.bin %s", vadd);
    ck_assert_int_eq(clit_dvsim(a), 1);
    ASSERT_ERR("has no argument 'nope'");
}
END_TEST

START_TEST(test_cli_dump_writes_bytes)
{
    char a[256];
    snprintf(a, sizeof a, "run --quiet --dump z=$T/z.bin %s && wc -c < $T/z.bin", vadd);
    ck_assert_int_eq(clit_dvsim(a), 0);
    ck_assert_int_eq(atoi(clit_out), 524288);
}
END_TEST

START_TEST(test_cli_warm_up_keeps_l2)
{
    /* 256 x 1024 fp16 = 512 KB read by one core, 1,024 lines of 512 B: cold, every read misses and
     * comes from HBM; after one unmeasured run on the same chip every line is in L2 */
    const char *cmd = "op copy --shape 256x1024 --dtype fp16 --cores 1 --no-data --profile ascend910b2 --json -";
    char a[256];
    snprintf(a, sizeof a, "%s", cmd);
    ck_assert_int_eq(clit_dvsim(a), 0);
    ck_assert_msg(strstr(clit_out, "\"l2_hits\":0,") && strstr(clit_out, "\"hbm_read_bytes\":524288,"),
                  "cold run: %s", clit_out);
    snprintf(a, sizeof a, "%s --warm-up 1", cmd);
    ck_assert_int_eq(clit_dvsim(a), 0);
    ck_assert_msg(strstr(clit_out, "\"l2_hits\":1024,") && strstr(clit_out, "\"hbm_read_bytes\":0,"),
                  "warm run: %s", clit_out);
    ck_assert_int_eq(clit_dvsim("op copy --shape 16x16 --warm-up 101"), 2);
    ASSERT_ERR("--warm-up: '101' is not a number of runs from 0 to 100");
}
END_TEST

START_TEST(test_cli_hbm_capacity)
{
    char a[256];
    snprintf(a, sizeof a, "run --set hbm.capacity_bytes=1000000 %s", vadd);
    ck_assert_int_eq(clit_dvsim(a), 1);
    ASSERT_ERR("argument 'y' (524288 bytes) does not fit in device memory");
    ASSERT_ERR("hbm.capacity_bytes is 1000000");
    ck_assert_str_eq(clit_out, "");
}
END_TEST

START_TEST(test_cli_init_file_size_mismatch)
{
    clit_write("small.bin", "0123456789");
    clit_write("f.trace", "dvtrace 1\n"
                          "kernel k kind=vector blocks=1\n"
                          "arg x bytes=1024 dtype=f16 dir=in init=file:small.bin\n"
                          "block 0\n"
                          "end\n");
    ck_assert_int_eq(clit_dvsim("run $T/f.trace"), 1);
    ASSERT_ERR("f.trace:3: error: argument 'x': file '"); /* the line that declares it */
    ASSERT_ERR("has 10 bytes, the argument has 1024");
}
END_TEST

START_TEST(test_cli_init_file_missing)
{
    clit_write("g.trace", "dvtrace 1\n"
                          "kernel k kind=vector blocks=1\n"
                          "arg x bytes=1024 dtype=f16 dir=in init=file:absent.bin\n"
                          "block 0\n"
                          "end\n");
    ck_assert_int_eq(clit_dvsim("run $T/g.trace"), 1);
    ASSERT_ERR("g.trace:3: error: argument 'x': cannot read '");
    ASSERT_ERR("absent.bin'");
    ck_assert_str_eq(clit_out, "");
}
END_TEST

/* Inputs that are not regular files are refused before they are read: /dev/zero would be read
 * until memory runs out, a FIFO without a writer would block for ever. */
START_TEST(test_cli_special_files_refused)
{
    char fifo[128];
    snprintf(fifo, sizeof fifo, "%s/fifo", clit_tmp);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(clit_dvsim("op add --shape 64 --config /dev/zero"), 1);
    ASSERT_ERR("/dev/zero: error: cannot read profile: it is not a regular file (a character device)");
    ck_assert_int_eq(clit_dvsim("op add --shape 64 --config $T/fifo"), 1);
    ASSERT_ERR("cannot read profile: it is not a regular file (a FIFO)");
    ck_assert_int_eq(clit_dvsim("run $T/fifo"), 1);
    ASSERT_ERR("fifo: error: cannot read: it is not a regular file (a FIFO)");
    clit_write("h.trace", "dvtrace 1\n"
                          "kernel k kind=vector blocks=1\n"
                          "arg x bytes=1024 dtype=f16 dir=in init=file:fifo\n"
                          "arg y bytes=1024 dtype=f16 dir=in init=file:.\n"
                          "block 0\n"
                          "end\n");
    ck_assert_int_eq(clit_dvsim("run $T/h.trace"), 1);
    ASSERT_ERR("h.trace:3: error: argument 'x': cannot read '");
    ASSERT_ERR("fifo': it is not a regular file (a FIFO)");
    ck_assert_str_eq(clit_out, "");
}
END_TEST

/* A profile nested deeper than DV_YAML_MAX_DEPTH (64) is refused where the 65th level starts,
 * at once (libyaml's loader takes time quadratic in the depth). */
START_TEST(test_cli_deep_yaml_refused)
{
    static char deep[100002];
    memset(deep, '[', 100000);
    deep[100000] = '\n';
    clit_write("deep.yaml", deep);
    ck_assert_int_eq(clit_dvsim("op add --shape 64 --config $T/deep.yaml"), 1);
    assert_located("deep.yaml", 1, "YAML nested deeper than 64 levels");
    ck_assert_ptr_nonnull(strstr(clit_err, "deep.yaml:1:65:"));
    clit_write("nul.yaml", "chip:\n  freq_mhz: \"18\\u000000\"\n");
    ck_assert_int_eq(clit_dvsim("op add --shape 64 --config $T/nul.yaml"), 1);
    assert_located("nul.yaml", 2, "a value holds a NUL character");
    clit_write("tag.yaml", "chip:\n  freq_mhz: !!str 1800\n");
    ck_assert_int_eq(clit_dvsim("op add --shape 64 --config $T/tag.yaml"), 1);
    assert_located("tag.yaml", 2, "YAML tags ('!!str', '!x') are not read");
}
END_TEST

START_TEST(test_cli_unwritable_timeline)
{
    ck_assert_int_eq(clit_dvsim("run --timeline $T/no/dir/t.json traces/matmul_tile.trace"), 1);
    ASSERT_ERR("t.json: error: cannot write the timeline");
    ck_assert_str_eq(clit_out, "");
}
END_TEST

START_TEST(test_cli_fail_on_hazard)
{
    ck_assert_int_eq(clit_dvsim("run --quiet traces/missing_wait.trace"), 0);
    ck_assert_int_eq(clit_dvsim("run --fail-on-hazard traces/missing_wait.trace"), 3);
    ck_assert_ptr_nonnull(strstr(clit_out, "RAW"));
    ck_assert_int_eq(clit_dvsim("run --no-hazards --fail-on-hazard --quiet traces/missing_wait.trace"), 0);
}
END_TEST

START_TEST(test_cli_host_stats)
{
    ck_assert_int_eq(clit_dvsim("run --no-data --quiet --host-stats traces/matmul_tile.trace"), 0);
    ck_assert_str_eq(clit_out, "");
    ASSERT_ERR("insns_per_second=");
    ASSERT_ERR("peak_rss_kb=");
    const char *faults = strstr(clit_err, "page_faults=");
    ck_assert_ptr_nonnull(faults);
    ck_assert_int_gt(atol(faults + strlen("page_faults=")), 0); /* a process touches pages to run at all */
}
END_TEST


/* ---- dvsim op / record ---- */

/* The value of "key" (a number) in JSON text, -1 when absent. */
static double json_number(const char *text, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\n\"%s\":", key); /* a top-level key: the report starts each on a line */
    const char *p = strstr(text, pat);
    return p ? strtod(p + strlen(pat), NULL) : -1;
}

START_TEST(test_cli_op_list_names_every_operator_and_default)
{
    ck_assert_int_eq(clit_dvsim("op --list"), 0);
    const char *const ops[] = {"add", "sub", "mul", "div", "max", "relu", "gelu", "exp", "sigmoid", "silu", "copy",
                               "softmax", "layernorm", "rmsnorm", "batchnorm", "matmul", "conv2d"};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        char line[32];
        snprintf(line, sizeof line, "\n%s - ", ops[i]);
        ck_assert_msg(strstr(clit_out, line) || strncmp(clit_out, line + 1, strlen(line + 1)) == 0,
                      "operator %s missing from --list", ops[i]);
    }
    ck_assert_msg(strstr(clit_out, "--tile-elems") && strstr(clit_out, "--base-k") && strstr(clit_out, "--dilation"),
                  "parameters missing: %s", clit_out);
}
END_TEST

START_TEST(test_cli_op_check_passes_and_reports_op_in_json)
{
    ck_assert_int_eq(clit_dvsim("op add --shape 1000 --dtype fp32 --cores 3 --check --json $T/r.json --quiet"), 0);
    ASSERT_ERR("--check passed");
    char json[65536];
    char path[128];
    snprintf(path, sizeof path, "%s/r.json", clit_tmp);
    clit_slurp(path, json, sizeof json);
    ck_assert_msg(strstr(json, "\"op\":\"add\""), "%s", json);
    ck_assert_msg(strstr(json, "\"shape\":\"1000\""), "%s", json);
    ck_assert_msg(strstr(json, "\"passed\":true"), "%s", json);
    ck_assert_double_eq(json_number(json, "bytes"), 3 * 1000 * 4); /* x and y read, z written, once */
    ck_assert_msg(strstr(json, "\"compared\":1000,\"mismatches\":0"), "%s", json);
}
END_TEST

START_TEST(test_cli_op_errors_name_the_parameter)
{
    ck_assert_int_eq(clit_dvsim("op nosuchop"), 1);
    ASSERT_ERR("unknown operator 'nosuchop'");
    ck_assert_int_eq(clit_dvsim("op add --bogus 3"), 1);
    ASSERT_ERR("add has no parameter --bogus");
    ck_assert_int_eq(clit_dvsim("op add --shape 12xq"), 1);
    ASSERT_ERR("--shape: '12xq' is not a shape");
    ck_assert_int_eq(clit_dvsim("op add --dtype int8"), 1);
    ASSERT_ERR("--dtype: dtype int8 is not supported");
    ck_assert_int_eq(clit_dvsim("op add --shape 100000x100000x100"), 1);
    ASSERT_ERR("hbm.capacity_bytes");
    ck_assert_int_eq(clit_dvsim("op add --no-data --check"), 1);
    ASSERT_ERR("--check needs data");
    ck_assert_int_eq(clit_dvsim("op"), 2);
    ASSERT_ERR("missing operator NAME");
    /* a 1 GiB UB on each of 48 AIVs costs the host only the pages a kernel touches (was: 16.8 GB) */
    ck_assert_int_eq(clit_dvsim("op add --shape 4096 --set core.ub_size_bytes=1073741824 --set core.ub_banks=64 "
                                "--quiet --check --host-stats"), 0);
    const char *rss = strstr(clit_err, "peak_rss_kb=");
    ck_assert_ptr_nonnull(rss);
    ck_assert_int_lt(atol(rss + strlen("peak_rss_kb=")), 400000);
    /* with data, GM arguments beyond the host's memory are refused before any is allocated (6.6 TB) */
    ck_assert_int_eq(clit_dvsim("op mul --dtype fp32 --shape 549755813888 --set hbm.capacity_bytes=17592186044416"), 1);
    ASSERT_ERR("a run with data holds the GM arguments in host memory: 6597069766656 bytes, more than this machine's");
    /* the budget is --host-memory when given; --check keeps the outputs twice (2 MB x 3 + 2 MB) */
    ck_assert_int_eq(clit_dvsim("op add --shape 1000000 --host-memory 8000000 --check --quiet"), 0);
    ck_assert_int_eq(clit_dvsim("op add --shape 1000000 --host-memory 7999999 --check"), 1);
    ASSERT_ERR("8000000 bytes, more than --host-memory 7999999");
    ck_assert_int_eq(clit_dvsim("op add --shape 1000000 --host-memory 0"), 2);
    ASSERT_ERR("--host-memory: '0' is not a number of bytes");
    ck_assert_int_eq(clit_dvsim("op add --dtype"), 2); /* a missing value is a usage error (README) */
    ASSERT_ERR("--dtype: needs a value");
    ck_assert_str_eq(clit_out, "");
}
END_TEST

/* Replay equality: dvsim op and dvsim run of the trace dvsim record wrote give the same cycles and
 * the same output bytes (two processes each, so each starts with a cold L2). */
static void replay_equal(const char *profile, const char *opline, const char *out_arg)
{
    char a[1024];
    snprintf(a, sizeof a, "record %s %s -o $T/k.trace", opline, profile);
    ck_assert_msg(clit_dvsim(a) == 0, "%s: %s", a, clit_err);
    snprintf(a, sizeof a, "op %s %s --json $T/op.json --quiet --dump %s=$T/op.bin", opline, profile, out_arg);
    ck_assert_msg(clit_dvsim(a) == 0, "%s: %s", a, clit_err);
    snprintf(a, sizeof a,
             "run %s $T/k.trace --json $T/run.json --quiet --dump %s=$T/run.bin && cmp $T/op.bin $T/run.bin", profile,
             out_arg);
    ck_assert_msg(clit_dvsim(a) == 0, "%s: %s %s", a, clit_out, clit_err);
    char j1[65536], j2[65536], path[128];
    snprintf(path, sizeof path, "%s/op.json", clit_tmp);
    clit_slurp(path, j1, sizeof j1);
    snprintf(path, sizeof path, "%s/run.json", clit_tmp);
    clit_slurp(path, j2, sizeof j2);
    ck_assert_double_gt(json_number(j1, "cycles"), 0);
    ck_assert_msg(json_number(j1, "cycles") == json_number(j2, "cycles"), "%s: op %g cycles, replay %g", opline,
                  json_number(j1, "cycles"), json_number(j2, "cycles"));
    ck_assert_double_eq(json_number(j1, "instructions"), json_number(j2, "instructions"));
}

START_TEST(test_cli_record_replay_add) { replay_equal("", "add --shape 3000 --dtype fp16 --cores 4 --tile-elems 512", "z"); }
END_TEST
START_TEST(test_cli_record_replay_softmax) { replay_equal("", "softmax --shape 37x100 --dtype fp16 --cores 3", "y"); }
END_TEST
START_TEST(test_cli_record_replay_matmul) { replay_equal("", "matmul --m 100 --n 70 --k 90 --cores 2", "c"); }
END_TEST
START_TEST(test_cli_record_replay_matmul_310)
{
    replay_equal("--profile ascend310", "matmul --m 64 --n 48 --k 40", "c");
}
END_TEST

START_TEST(test_cli_record_replay_conv2d_mix)
{
    replay_equal("", "conv2d --n 1 --cin 16 --h 9 --w 9 --cout 16 --kh 3 --kw 3 --pad 1", "y");
}
END_TEST

START_TEST(test_cli_record_needs_output)
{
    ck_assert_int_eq(clit_dvsim("record add --shape 100"), 2);
    ASSERT_ERR("record: missing -o FILE");
    ck_assert_int_eq(clit_dvsim("record add --shape 100 -o /nonexistent-dir/x.trace"), 1);
    ASSERT_ERR("cannot write");
}
END_TEST

/* dvsim micro: the rows selected by --only run on the profile given and pass; a prefix no row has is
 * a usage error, a bad profile an input error (and no table). */
START_TEST(test_cli_micro)
{
    ck_assert_int_eq(clit_dvsim("micro --profile ascend310 --only cube."), 0);
    ck_assert_msg(strstr(clit_out, "microbenchmarks on ascend310: 7 pass, 0 fail") != NULL, "%s", clit_out);
    ck_assert_ptr_nonnull(strstr(clit_out, "cube.k.f32"));
    ck_assert_ptr_null(strstr(clit_out, "scalar.issue"));
    ck_assert_int_eq(clit_dvsim("micro --set scalar.issue_cycles=5 --only=scalar."), 0);
    ck_assert_msg(strstr(clit_out, "scalar.issue                            5          5  pass") != NULL, "%s",
                  clit_out);
    ck_assert_int_eq(clit_dvsim("micro --only nosuchrow"), 2);
    ASSERT_ERR("no microbenchmark row starts with 'nosuchrow'");
    ck_assert_int_eq(clit_dvsim("micro --only"), 2);
    ck_assert_int_eq(clit_dvsim("micro extra"), 2);
    ck_assert_int_eq(clit_dvsim("micro --set scalar.nosuch=1"), 1);
    ck_assert_msg(clit_out[0] == '\0', "a table was printed: %s", clit_out);
}
END_TEST

/* ---------------------------------------------------------------- dvsim fusion */

START_TEST(test_cli_fusion_reports_json_and_svg)
{
    ck_assert_int_eq(clit_dvsim("fusion graphs/bert_add_layernorm.yaml --json $T/f.json --svg $T/f.svg"), 0);
    ck_assert_msg(strstr(clit_out, "UB fusion groups") && strstr(clit_out, "speedup"), "%s", clit_out);
    char json[65536], svg[65536];
    char path[256];
    snprintf(path, sizeof path, "%s/f.json", clit_tmp);
    clit_slurp(path, json, sizeof json);
    for (const char *const *k = (const char *const[]){"\"unfused\": {\"time_us\"", "\"fused\": {\"time_us\"",
                                                      "\"speedup\"", "\"gm_traffic_reduction\"", "\"verdict\": \"fuse\"",
                                                      "\"groups\": [", "\"kernels\": 2", "\"kernels\": 1",
                                                      "\"gm_read_bytes\"", "\"gm_write_bytes\"", "\"ub_peak_bytes\"", NULL};
         *k; k++)
        ck_assert_msg(strstr(json, *k), "'%s' missing in %s", *k, json);
    snprintf(path, sizeof path, "%s/f.svg", clit_tmp);
    clit_slurp(path, svg, sizeof svg);
    ck_assert_msg(strncmp(svg, "<?xml", 5) == 0 && strstr(svg, "</svg>"), "%.200s", svg);
    /* the JSON on stdout replaces the text report */
    ck_assert_int_eq(clit_dvsim("fusion graphs/bert_add_layernorm.yaml --no-data --json -"), 0);
    ck_assert_msg(clit_out[0] == '{' && strstr(clit_out, "\"check\": null"), "%.200s", clit_out);
}
END_TEST

/* A bad graph: a located message naming the node, status 1, nothing on stdout. */
START_TEST(test_cli_fusion_bad_graph)
{
    static const struct {
        const char *text;
        int line;
        const char *msg;
    } cases[] = {
        {"name: g\ninputs:\n  x: {shape: [4, 8], dtype: fp16}\nnodes:\n  - {name: a, op: nosuch, inputs: [x]}\n"
         "outputs: [a]\n", 5, "node 'a': unknown operator 'nosuch'"},
        {"name: g\ninputs:\n  x: {shape: [4, 8], dtype: fp16}\n  y: {shape: [4, 9], dtype: fp16}\nnodes:\n"
         "  - {name: a, op: add, inputs: [x, y]}\noutputs: [a]\n", 6, "node 'a' (add)"},
        {"name: g\ninputs:\n  x: {shape: [4, 8], dtype: fp16}\nnodes:\n  - {name: a, op: relu, inputs: [b]}\n"
         "  - {name: b, op: relu, inputs: [a]}\noutputs: [b]\n", 5, "cycle"},
        {"name: g\ninputs:\n  x: {shape: [4, 8], dtype: fp16}\nnodes:\n  - {name: a, op: relu, inputs: [nope]}\n"
         "outputs: [a]\n", 5, "node 'a' (relu)"},
        {"name: g\ninputs:\n  x: {shape: [4, 8], dtype: fp16}\nnodes:\n"
         "  - {name: a, op: relu, inputs: [x], params: {bogus: 1}}\noutputs: [a]\n", 5, "bogus"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        clit_write("bad.yaml", cases[i].text);
        ck_assert_int_eq(clit_dvsim("fusion $T/bad.yaml"), 1);
        ck_assert_msg(clit_out[0] == '\0', "case %zu printed a result: %s", i, clit_out);
        char file[128];
        snprintf(file, sizeof file, "%s/bad.yaml", clit_tmp);
        assert_located(file, cases[i].line, cases[i].msg);
    }
    ck_assert_int_eq(clit_dvsim("fusion"), 2);
    ck_assert_int_eq(clit_dvsim("fusion graphs/bert_add_layernorm.yaml --min-saving 2"), 2);
    ck_assert_int_eq(clit_dvsim("fusion graphs/bert_add_layernorm.yaml --svg /nonexistent/x.svg"), 1);
    ck_assert_msg(clit_out[0] == '\0', "a report was printed: %s", clit_out);
}
END_TEST

Suite *dv_cli_suite(void)
{
    Suite *s = suite_create("cli");
    TCase *usage = tcase_create("usage");
    tcase_add_checked_fixture(usage, setup, teardown);
    tcase_add_test(usage, test_cli_unknown_option);
    tcase_add_test(usage, test_cli_unknown_command);
    tcase_add_test(usage, test_cli_missing_trace);
    tcase_add_test(usage, test_cli_missing_value);
    tcase_add_test(usage, test_cli_two_traces);
    tcase_add_test(usage, test_cli_dump_needs_data);
    tcase_add_test(usage, test_cli_dump_malformed);
    tcase_add_test(usage, test_cli_unexpected_argument);
    suite_add_tcase(s, usage);

    TCase *input = tcase_create("input");
    tcase_add_checked_fixture(input, setup, teardown);
    tcase_add_test(input, test_cli_nonexistent_trace);
    tcase_add_test(input, test_cli_bad_set_key);
    tcase_add_test(input, test_cli_bad_set_value);
    tcase_add_test(input, test_cli_bad_profile);
    tcase_add_test(input, test_cli_bad_yaml_key);
    tcase_add_test(input, test_cli_bad_yaml_syntax);
    tcase_add_test(input, test_cli_malformed_trace_line);
    tcase_add_test(input, test_cli_unknown_mnemonic);
    tcase_add_loop_test(input, test_cli_model_errors_are_located, 0,
                        (int)(sizeof model_errors / sizeof model_errors[0]));
    tcase_add_test(input, test_cli_dump_config_round_trip);
    tcase_add_test(input, test_cli_profiles_and_version);
    suite_add_tcase(s, input);

    TCase *run = tcase_create("run");
    tcase_add_checked_fixture(run, setup, teardown);
    tcase_set_timeout(run, 60);
    tcase_add_test(run, test_cli_run_sample);
    tcase_add_test(run, test_cli_json_and_timeline);
    tcase_add_test(run, test_cli_unwritable_json_prints_no_report);
    tcase_add_test(run, test_cli_dump_unknown_argument);
    tcase_add_test(run, test_cli_dump_writes_bytes);
    tcase_add_test(run, test_cli_hbm_capacity);
    tcase_add_test(run, test_cli_init_file_size_mismatch);
    tcase_add_test(run, test_cli_init_file_missing);
    tcase_add_test(run, test_cli_unwritable_timeline);
    tcase_add_test(run, test_cli_special_files_refused);
    tcase_add_test(run, test_cli_outputs_whole_or_not_at_all);
    tcase_add_test(run, test_cli_max_hazards);
    tcase_add_test(run, test_cli_deep_yaml_refused);
    tcase_add_test(run, test_cli_fail_on_hazard);
    tcase_add_test(run, test_cli_host_stats);
    tcase_add_test(run, test_cli_micro);
    suite_add_tcase(s, run);

    TCase *op = tcase_create("op");
    tcase_add_checked_fixture(op, setup, teardown);
    tcase_set_timeout(op, 120);
    tcase_add_test(op, test_cli_op_list_names_every_operator_and_default);
    tcase_add_test(op, test_cli_op_check_passes_and_reports_op_in_json);
    tcase_add_test(op, test_cli_op_errors_name_the_parameter);
    tcase_add_test(op, test_cli_record_replay_add);
    tcase_add_test(op, test_cli_record_replay_softmax);
    tcase_add_test(op, test_cli_record_replay_matmul);
    tcase_add_test(op, test_cli_record_replay_matmul_310);
    tcase_add_test(op, test_cli_record_replay_conv2d_mix);
    tcase_add_test(op, test_cli_record_needs_output);
    tcase_add_test(op, test_cli_fusion_reports_json_and_svg);
    tcase_add_test(op, test_cli_fusion_bad_graph);
    tcase_add_test(op, test_cli_warm_up_keeps_l2);
    suite_add_tcase(s, op);
    return s;
}
