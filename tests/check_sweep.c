/* tests/check_sweep.c - what-if sweeps (dv/sweep.h): the spec's expansion into points, a run over
 * worker processes with metrics that move as the model says, resume after a kill or a torn last
 * row, shards and their merge, and every validation error with its line and point.  The program
 * runs are $DVSIM (else bin/dvsim) from $DVSIM_ROOT, as make test sets them. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dv/sweep.h"

static char tmp[64];

static const char *root(void)
{
    const char *r = getenv("DVSIM_ROOT");
    return r && r[0] ? r : ".";
}

static const char *program(void)
{
    const char *p = getenv("DVSIM");
    return p && p[0] ? p : "bin/dvsim";
}

/* Each test runs in the project root (traces/ and graphs/ paths), with a scratch directory. */
static void setup(void)
{
    ck_assert_int_eq(chdir(root()), 0);
    snprintf(tmp, sizeof tmp, "/tmp/dvsim-sweep-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmp));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
}

static const char *in_tmp(const char *name)
{
    static char path[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(path[k], sizeof path[k], "%s/%s", tmp, name);
    return path[k];
}

static const char *write_spec(const char *name, const char *text)
{
    const char *path = in_tmp(name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static dv_sweep_t *load(const char *path)
{
    dv_sweep_t *s = NULL;
    dv_error_t e;
    memset(&e, 0, sizeof e);
    const int rc = dv_sweep_load(path, &s, &e);
    ck_assert_msg(rc == DV_OK, "%s:%d: %s", e.file, e.line, e.msg);
    return s;
}

/* A whole file (the test fails when it cannot be read); free it. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    char *buf = malloc(1 << 22);
    ck_assert_ptr_nonnull(buf);
    const size_t n = fread(buf, 1, (1 << 22) - 1, f);
    buf[n] = '\0';
    fclose(f);
    if (len)
        *len = n;
    return buf;
}

static int count_lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* Field i (0-based) of CSV line `line` into buf. */
static const char *field(const char *line, int i, char *buf, size_t cap)
{
    for (; i > 0 && line; i--) {
        line = strchr(line, ',');
        line = line ? line + 1 : NULL;
    }
    ck_assert_ptr_nonnull(line);
    const size_t n = strcspn(line, ",\n");
    snprintf(buf, cap, "%.*s", (int)n, line);
    return buf;
}

/* The column index of `name` in a header line. */
static int column(const char *header, const char *name)
{
    int i = 0;
    for (const char *p = header;; i++) {
        const size_t n = strcspn(p, ",");
        if (strlen(name) == n && strncmp(p, name, n) == 0)
            return i;
        if (!p[n])
            break;
        p += n + 1;
    }
    ck_abort_msg("no column %s", name);
    return -1;
}

/* The lines of a CSV file: lines[0] the header. */
typedef struct csv {
    char *text;
    int n;
    char *line[2048];
} csv_t;

static void csv_read(csv_t *c, const char *path)
{
    c->text = slurp(path, NULL);
    c->n = 0;
    for (char *save = NULL, *ln = strtok_r(c->text, "\n", &save); ln && c->n < 2048; ln = strtok_r(NULL, "\n", &save))
        c->line[c->n++] = ln;
}

static double num(const csv_t *c, int row, const char *col)
{
    char buf[64];
    return strtod(field(c->line[row], column(c->line[0], col), buf, sizeof buf), NULL);
}

static const char *str(const csv_t *c, int row, const char *col)
{
    static char buf[4][64];
    static int k;
    k = (k + 1) % 4;
    return field(c->line[row], column(c->line[0], col), buf[k], sizeof buf[k]);
}

/* Run s into dir in this process (worker processes of its own), shard i of n. */
static int run(const dv_sweep_t *s, const char *dir, int jobs, uint32_t shard, uint32_t nshards,
               dv_sweep_summary_t *sum, dv_error_t *e)
{
    dv_sweep_opts_t o;
    dv_sweep_opts_default(&o);
    o.out = dir;
    o.jobs = jobs;
    o.shard = shard;
    o.nshards = nshards;
    memset(e, 0, sizeof *e);
    return dv_sweep_run(s, &o, sum, e);
}

static void run_ok(const dv_sweep_t *s, const char *dir, int jobs, uint32_t shard, uint32_t nshards)
{
    dv_sweep_summary_t sum;
    dv_error_t e;
    const int rc = run(s, dir, jobs, shard, nshards, &sum, &e);
    ck_assert_msg(rc == DV_OK, "%s:%d: %s", e.file, e.line, e.msg);
}

/* ---------------------------------------------------------------- the spec */

/* The minimum form, verbatim but for the graph's file name. */
static const char minimum[] =
    "profile: ascend910b2            # a preset or a profile file\n"
    "workloads:\n"
    "  - {name: add, op: \"add --shape 8192x8192 --dtype fp16\"}\n"
    "  - {name: mm,  op: \"matmul --m 4096 --n 4096 --k 4096\"}\n"
    "  - {name: t,   trace: traces/vadd_double_buffer.trace}\n"
    "  - {name: ffn, fusion: graphs/bert_ffn_s128.yaml}\n"
    "axes:                           # any key of the profile schema\n"
    "  hbm.bytes_per_cycle: [444, 888, 1776]\n"
    "  core.ub_size_bytes: {from: 131072, to: 524288, steps: 4}\n"
    "mode: cartesian                 # or zip\n";

START_TEST(test_sweep_minimum_spec_expands)
{
    dv_sweep_t *s = load(write_spec("min.yaml", minimum));
    char d[256];
    /* 4 workloads x 3 x 4 values */
    ck_assert_int_eq(s->nworkloads, 4);
    ck_assert_int_eq(s->naxes, 2);
    ck_assert(!s->zip);
    ck_assert_uint_eq(s->ncombos, 12);
    ck_assert_uint_eq(s->npoints, 48);
    ck_assert_int_eq(s->workload[0].kind, DV_SWEEP_OP);
    ck_assert_int_eq(s->workload[2].kind, DV_SWEEP_TRACE);
    ck_assert_int_eq(s->workload[3].kind, DV_SWEEP_FUSION);
    ck_assert_str_eq(s->workload[1].argv[0], "matmul");
    ck_assert_int_eq(s->workload[1].argc, 7);
    /* 131072 + i x 131072 rounded; on the 910B2 a UB is a whole number of rows of 48 banks x 32 B =
     * 1536 B, so each value moves to the nearest multiple of 1536 (393216 = 256 x 1536 stays) */
    static const char *const ub[4] = {"130560", "262656", "393216", "523776"};
    static const char *const hbm[3] = {"444", "888", "1776"}, *const names[4] = {"add", "mm", "t", "ffn"};
    for (uint64_t p = 0; p < 48; p++) {
        ck_assert_str_eq(dv_sweep_point_workload(s, p)->name, names[p / 12]);
        ck_assert_str_eq(dv_sweep_value(s, p, 0), hbm[p % 12 / 4]); /* the last axis varies fastest */
        ck_assert_str_eq(dv_sweep_value(s, p, 1), ub[p % 4]);
    }
    dv_sweep_describe(s, 29, d, sizeof d);
    ck_assert_str_eq(d, "workload t, hbm.bytes_per_cycle=888, core.ub_size_bytes=262656");
    ck_assert_ptr_nonnull(s->notes);
    ck_assert_ptr_nonnull(strstr(s->notes, ":9: axis core.ub_size_bytes: the range's value 131072 moved to 130560"));
    ck_assert_ptr_null(strstr(s->notes, "393216 moved"));
    dv_sweep_free(s);

    /* on a chip of 64 banks (2048-B rows) the same range is exact and nothing moves */
    s = load(write_spec("a.yaml", "profile: ascend910a\n"
                                  "workloads: [{name: add, op: \"add --shape 256x256\"}]\n"
                                  "axes:\n"
                                  "  core.ub_size_bytes: {from: 131072, to: 524288, steps: 4}\n"
                                  "  hbm.bytes_per_cycle: {from: 1000, to: 2000, steps: 4}\n"
                                  "  chip.freq_mhz: {from: 250, to: 2000, factor: 2}\n"));
    ck_assert_ptr_null(s->notes);
    ck_assert_uint_eq(s->npoints, 4 * 4 * 4);
    static const char *const exact[4] = {"131072", "262144", "393216", "524288"};
    static const char *const thirds[4] = {"1000", "1333", "1667", "2000"}; /* 1333.3 and 1666.7 rounded */
    static const char *const doubling[4] = {"250", "500", "1000", "2000"};
    for (int i = 0; i < 4; i++) {
        ck_assert_str_eq(dv_sweep_value(s, (uint64_t)i * 16, 0), exact[i]);
        ck_assert_str_eq(dv_sweep_value(s, (uint64_t)i * 4, 1), thirds[i]);
        ck_assert_str_eq(dv_sweep_value(s, (uint64_t)i, 2), doubling[i]);
    }
    dv_sweep_free(s);

    /* zip pairs the i-th values: 3 points per workload, not 9; values print as a profile does */
    s = load(write_spec("zip.yaml", "workloads: [{name: a, op: \"add --shape 256x256\"}, {name: b, op: \"add --shape "
                                    "512x256\"}]\n"
                                    "axes:\n"
                                    "  hbm.bytes_per_cycle: [0x100, 512, 1024]\n"
                                    "  chip.has_fix_pipe: [true, true, true]\n"
                                    "mode: zip\n"));
    ck_assert_uint_eq(s->npoints, 6);
    ck_assert_str_eq(dv_sweep_value(s, 3, 0), "256");
    ck_assert_str_eq(dv_sweep_value(s, 5, 0), "1024");
    ck_assert_str_eq(dv_sweep_value(s, 5, 1), "true");
    ck_assert_str_eq(s->profile, "ascend910b2"); /* no profile: the default preset */
    dv_sweep_free(s);
}
END_TEST

/* Each bad spec fails at its line, naming what and the point. */
START_TEST(test_sweep_errors_are_located)
{
    static const struct {
        const char *text;
        int line;
        const char *msg;
    } bad[] = {
        {"workloads: [{name: a, op: add}]\naxes:\n  hbm.bytes_per_cycel: [444]\n", 3,
         "axis 'hbm.bytes_per_cycel': not a key of the profile schema (did you mean 'hbm.bytes_per_cycle'?)"},
        {"workloads: [{name: a, op: add}]\naxes:\n  hbm.bytes_per_cycle: [444,\n    0]\n", 4,
         "axis hbm.bytes_per_cycle: value 2 ('0'): value 0 is out of range [1, 1048576] B/cycle"},
        {"workloads: [{name: a, op: add}]\naxes:\n  core.ub_size_bytes:\n    from: 1536\n    to: 2147483648\n"
         "    steps: 2\n", 5, "axis core.ub_size_bytes: value 2 ('2147483648'): value 2147483648 is out of range"},
        {"workloads: [{name: a, op: add}]\naxes:\n  hbm.bytes_per_cycle: []\n", 3,
         "axis hbm.bytes_per_cycle: the axis is empty"},
        {"workloads:\n  - {name: a, op: add}\n  - {name: g, graph: graphs/bert_ffn_s128.yaml}\n", 3,
         "workload 2: unknown workload kind 'graph'"},
        {"workloads:\n  - {name: a, op: \"add --shape 64x64 --dtyp fp16\"}\n", 2,
         "workload 'a': op: add has no parameter --dtyp"},
        {"workloads:\n  - {name: a, op: \"addd --shape 64x64\"}\n", 2,
         "workload 'a': op: unknown operator 'addd' (did you mean 'add'?)"},
        {"workloads:\n  - {name: a, op: add}\n  - {name: t, trace: traces/nope.trace}\n", 3,
         "workload 't': trace 'traces/nope.trace' not found"},
        {"workloads:\n  - {name: f, fusion: graphs/nope.yaml}\n", 2,
         "workload 'f': graph 'graphs/nope.yaml' not found"},
        {"workloads: [{name: a, op: add}]\naxes:\n  hbm.bytes_per_cycle: [444, 888]\n"
         "  chip.freq_mhz: [1000, 1500, 1800]\nmode: zip\n", 4,
         "axis chip.freq_mhz: 3 values, but axis hbm.bytes_per_cycle (line 3) has 2"},
        /* a listed value never moves: the point whose profile fails is rejected */
        {"workloads: [{name: a, op: add}]\naxes:\n  hbm.bytes_per_cycle: [444, 888]\n"
         "  core.ub_size_bytes: [196608, 131072]\n", 4,
         "axis core.ub_size_bytes: point 1 (workload a, hbm.bytes_per_cycle=444, core.ub_size_bytes=131072): invalid "
         "profile: core.ub_size_bytes = 131072 is not a whole number of rows"},
        /* the operator is planned for every point's profile */
        {"workloads:\n  - {name: a, op: \"add --shape 256x256\"}\n  - {name: w, op: \"add --shape 256x256 --tile-elems "
         "16384\"}\naxes:\n  core.ub_size_bytes: [196608, 49152]\n", 3,
         "workload 'w' (op add): point 3 (workload w, core.ub_size_bytes=49152): --tile-elems: 16384 elements need "
         "196608 bytes of UB"},
        {"workloads:\n  - {name: f, fusion: graphs/bert_ffn_s128.yaml}\naxes:\n  core.l1_size_bytes: [524288, 512]\n",
         2, "workload 'f' (fusion graphs/bert_ffn_s128.yaml): point 1 (workload f, core.l1_size_bytes=512): "
            "graphs/bert_ffn_s128.yaml:"},
        {"workloads:\n  - {name: t, trace: traces/matmul_relu_mix.trace}\naxes:\n  chip.aiv_per_core: [2, 1]\n", 2,
         "workload 't' (trace traces/matmul_relu_mix.trace): point 1 (workload t, chip.aiv_per_core=1): "
         "traces/matmul_relu_mix.trace:"},
        {"workloads: [{name: a, op: add}]\nmdoe: zip\n", 2, "unknown key 'mdoe' in the spec (did you mean 'mode'? the keys are"},
        {"workloads: [{name: a, op: add}]\nmode: cartesain\n", 2, "mode: 'cartesain' is not cartesian or zip (did you "
                                                                   "mean 'cartesian'?)"},
        {"profile: ascend910b9\nworkloads: [{name: a, op: add}]\n", 1,
         "profile: 'ascend910b9' is not a built-in preset (did you mean"},
        {"profile: nope/p.yaml\nworkloads: [{name: a, op: add}]\n", 1, "profile file 'nope/p.yaml' not found"},
        {"workloads:\n  - {name: a, op: add}\n  - {name: a, op: mul}\n", 3,
         "the name 'a' is already used by the workload at line 2"},
        {"workloads:\n  - {name: a, op: add, trace: traces/matmul_tile.trace}\n", 2, "a workload has one kind"},
        {"workloads: [{name: a, op: add}]\naxes:\n  hbm.bytes_per_cycle: [444, 888, 444]\n", 3,
         "values 1 and 3 are both 444"},
        {"workloads: [{name: a, op: add}]\naxes:\n  hbm.bytes_per_cycle: {from: 1, to: 2, steps: 3}\n", 3,
         "values 2 and 3 are both 2"},
        {"workloads: [{name: a, op: add}]\naxes:\n  hbm.bytes_per_cycle: 444\n", 3, "got a single value (write [444]"},
        {"workloads: [{name: a, op: add}]\naxes:\n  chip.layout: {from: 0, to: 1, steps: 2}\n", 3,
         "a range {from, to, steps} needs an integer key"},
        {"axes: {}\n", 1, "the spec has no 'workloads:'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "bad%zu.yaml", i);
        const char *path = write_spec(name, bad[i].text);
        dv_sweep_t *s = NULL;
        dv_error_t e;
        memset(&e, 0, sizeof e);
        const int rc = dv_sweep_load(path, &s, &e);
        ck_assert_msg(rc != DV_OK, "spec %zu was accepted", i);
        ck_assert_ptr_null(s);
        ck_assert_msg(strcmp(e.file, path) == 0 && e.line == bad[i].line && strstr(e.msg, bad[i].msg),
                      "spec %zu: got %s:%d: %s\nwanted %s:%d: ...%s...", i, e.file, e.line, e.msg, path, bad[i].line,
                      bad[i].msg);
    }

    /* through the program: the located message, status 1, and no directory */
    char cmd[1024];
    const char *path = write_spec("cli.yaml", bad[1].text);
    snprintf(cmd, sizeof cmd, "'%s' sweep '%s' --out '%s' 2>'%s'", program(), path, in_tmp("never"),
             in_tmp("stderr"));
    const int st = system(cmd);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
    char *err = slurp(in_tmp("stderr"), NULL);
    char want[512];
    snprintf(want, sizeof want, "%s:4:5: error: axis hbm.bytes_per_cycle: value 2 ('0')", path);
    ck_assert_msg(strstr(err, want), "stderr: %s", err);
    free(err);
    ck_assert_int_ne(access(in_tmp("never"), F_OK), 0);
}
END_TEST

/* ---------------------------------------------------------------- running */

/* 2 workloads x 3 HBM bandwidths x 2 efficiencies = 12 points. */
static const char twelve[] =
    "profile: ascend910b2\n"
    "workloads:\n"
    "  - {name: add, op: \"add --shape 1024x1024\"}\n"
    "  - {name: ffn, fusion: graphs/bert_ffn_s128.yaml}\n"
    "axes:\n"
    "  hbm.bytes_per_cycle: [111, 222, 444]\n"
    "  hbm.efficiency_percent: [50, 100]\n";

START_TEST(test_sweep_twelve_points_two_jobs)
{
    dv_sweep_t *s = load(write_spec("twelve.yaml", twelve));
    dv_sweep_summary_t sum;
    dv_error_t e;
    ck_assert_int_eq(run(s, in_tmp("out"), 2, 1, 1, &sum, &e), DV_OK);
    ck_assert_uint_eq(sum.points, 12);
    ck_assert_uint_eq(sum.ran, 12);
    ck_assert_uint_eq(sum.failed, 0);
    csv_t c;
    csv_read(&c, in_tmp("out/results.csv"));
    ck_assert_int_eq(c.n, 13);
    ck_assert(strncmp(c.line[0], "point,workload,hbm.bytes_per_cycle,hbm.efficiency_percent,time_us,cycles,", 72) == 0);
    static const int bpc[3] = {111, 222, 444}, eff[2] = {50, 100};
    for (int r = 1; r <= 12; r++) {
        const int p = r - 1;
        ck_assert_int_eq((int)num(&c, r, "point"), p);
        ck_assert_str_eq(str(&c, r, "workload"), p < 6 ? "add" : "ffn");
        ck_assert_int_eq((int)num(&c, r, "hbm.bytes_per_cycle"), bpc[p % 6 / 2]);
        ck_assert_int_eq((int)num(&c, r, "hbm.efficiency_percent"), eff[p % 2]);
        ck_assert_str_ne(str(&c, r, "bound_by"), "");
        /* the same bytes whatever the bandwidth */
        ck_assert_double_eq(num(&c, r, "gm_read_bytes"), num(&c, p < 6 ? 1 : 7, "gm_read_bytes"));
    }
    for (int w = 0; w < 2; w++) {
        const int r0 = 1 + 6 * w;
        /* the calendar carries bytes_per_cycle x efficiency_percent / 100: (111, 100) and (222, 50)
         * are one rate, so are (222, 100) and (444, 50), and give the same cycles */
        ck_assert_double_eq(num(&c, r0 + 1, "cycles"), num(&c, r0 + 2, "cycles"));
        ck_assert_double_eq(num(&c, r0 + 3, "cycles"), num(&c, r0 + 4, "cycles"));
        /* sustained rates 55, 111, 111, 222, 222, 444: more bandwidth is never slower */
        for (int k = 0; k < 5; k++)
            ck_assert_msg(num(&c, r0 + k + 1, "cycles") <= num(&c, r0 + k, "cycles"), "workload %d, point %d", w,
                          r0 + k);
    }
    for (int r = 1; r <= 6; r++) {
        /* the add streams its bytes through HBM: never faster than the sustained rate allows */
        const int bpc_eff = (int)num(&c, r, "hbm.bytes_per_cycle") * (int)num(&c, r, "hbm.efficiency_percent");
        const double bytes = num(&c, r, "hbm_read_bytes") + num(&c, r, "hbm_write_bytes");
        ck_assert_double_ge(num(&c, r, "cycles"), bytes / (double)(bpc_eff / 100));
        ck_assert_str_eq(str(&c, r, "bound_by"), "MTE2");
        ck_assert_int_eq((int)num(&c, r, "kernels"), 1);
        ck_assert_str_eq(str(&c, r, "speedup"), "");
        ck_assert_str_ne(str(&c, r, "stall_flag_cycles"), "");
    }
    for (int r = 7; r <= 12; r++) { /* the fused variant's totals, the study's figures; no stall counters */
        ck_assert_double_gt(num(&c, r, "speedup"), 1.0);
        ck_assert_double_gt(num(&c, r, "gm_traffic_reduction"), 0.0);
        ck_assert_str_eq(str(&c, r, "stall_flag_cycles"), "");
    }
    /* its JSON twin: one object per row, typed */
    char *js = slurp(in_tmp("out/results.jsonl"), NULL);
    ck_assert_int_eq(count_lines(js), 12);
    ck_assert(strncmp(js, "{\"point\":0,\"workload\":\"add\",\"hbm.bytes_per_cycle\":111,\"hbm.efficiency_percent\":50,"
                          "\"time_us\":", 92) == 0);
    ck_assert_ptr_nonnull(strstr(js, "\"bound_by\":\"MTE2\""));
    ck_assert_ptr_nonnull(strstr(js, "\"speedup\":null,\"gm_traffic_reduction\":null}\n"));
    free(js);

    /* a point run alone gives its row's cells */
    dv_sweep_row_t row;
    int n;
    const dv_sweep_metric_t *m = dv_sweep_metrics(&n);
    ck_assert_int_eq(dv_sweep_row_init(&row), DV_OK);
    ck_assert_int_eq(dv_sweep_point_run(s, 9, &row, &e), DV_OK);
    for (int i = 0; i < n; i++)
        ck_assert_str_eq(row.cell[i], str(&c, 10, m[i].name));
    dv_sweep_row_free(&row);

    /* run again: nothing to do, nothing duplicated */
    char *first = slurp(in_tmp("out/results.csv"), NULL);
    ck_assert_int_eq(run(s, in_tmp("out"), 2, 1, 1, &sum, &e), DV_OK);
    ck_assert_uint_eq(sum.done_before, 12);
    ck_assert_uint_eq(sum.ran, 0);
    char *again = slurp(in_tmp("out/results.csv"), NULL);
    ck_assert_str_eq(again, first);
    free(again);
    free(first);
    free(c.text);
    dv_sweep_free(s);
}
END_TEST

/* 2 workloads x 10 x 3 = 60 points, small. */
static const char sixty[] =
    "workloads:\n"
    "  - {name: add, op: \"add --shape 512x512\"}\n"
    "  - {name: t, trace: traces/vadd_double_buffer.trace}\n"
    "axes:\n"
    "  hbm.bytes_per_cycle: {from: 100, to: 1000, steps: 10}\n"
    "  chip.freq_mhz: [1000, 1500, 1800]\n";

/* results.csv has exactly points 0..n-1, each once, in order. */
static void assert_complete(const char *path, int n)
{
    csv_t c;
    csv_read(&c, path);
    ck_assert_int_eq(c.n, n + 1);
    for (int r = 1; r <= n; r++)
        ck_assert_int_eq((int)num(&c, r, "point"), r - 1);
    free(c.text);
}

START_TEST(test_sweep_resumes_after_a_kill)
{
    const char *spec = write_spec("sixty.yaml", sixty);
    char dir[256], csv[300], cmd[1024];
    snprintf(dir, sizeof dir, "%s", in_tmp("run"));
    snprintf(csv, sizeof csv, "%s/results.csv", dir);

    /* 1. dvsim killed (SIGKILL, its workers with it) once some rows are in */
    const pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        setpgid(0, 0);
        execl(program(), program(), "sweep", spec, "-j", "2", "--out", dir, "--quiet", (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    int st, rows_at_kill = -1;
    for (int i = 0; i < 20000 && rows_at_kill < 0; i++) {
        if (waitpid(pid, &st, WNOHANG) == pid)
            break;
        FILE *f = fopen(csv, "r");
        int lines = 0;
        for (int ch; f && (ch = fgetc(f)) != EOF;)
            lines += ch == '\n';
        if (f)
            fclose(f);
        if (lines > 15) {
            kill(-pid, SIGKILL);
            waitpid(pid, &st, 0);
            rows_at_kill = lines - 1;
        }
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    ck_assert_msg(rows_at_kill >= 15 && WIFSIGNALED(st), "dvsim finished before it could be killed");
    /* 2. and a row torn in the middle, as a write cut short leaves it */
    size_t len;
    char *text = slurp(csv, &len);
    ck_assert_int_gt(count_lines(text), 1);
    size_t end = len;
    while (end > 0 && text[end - 1] == '\n')
        end--;
    size_t start = end;
    while (start > 0 && text[start - 1] != '\n')
        start--;
    ck_assert_uint_gt(start, 0);
    const size_t cut = start + (end - start) / 2;
    FILE *f = fopen(csv, "w");
    fwrite(text, 1, cut, f);
    fclose(f);
    free(text);

    /* 3. the same command again: the torn row is dropped and rerun, nothing is duplicated */
    snprintf(cmd, sizeof cmd, "'%s' sweep '%s' -j 2 --out '%s' 2>'%s'", program(), spec, dir, in_tmp("stderr"));
    st = system(cmd);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    char *err = slurp(in_tmp("stderr"), NULL);
    ck_assert_msg(strstr(err, "an interrupted last row dropped"), "stderr: %s", err);
    free(err);
    assert_complete(csv, 60);
    char jsonl[300];
    snprintf(jsonl, sizeof jsonl, "%s/results.jsonl", dir);
    char *js = slurp(jsonl, NULL);
    ck_assert_int_eq(count_lines(js), 60);
    free(js);

    /* 4. the rows equal those of a run that was never interrupted */
    dv_sweep_t *s = load(spec);
    run_ok(s, in_tmp("clean"), 2, 1, 1);
    char *a = slurp(csv, NULL), *b = slurp(in_tmp("clean/results.csv"), NULL);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    dv_sweep_free(s);
}
END_TEST

/* A directory of another sweep, shard or version is refused before anything runs. */
START_TEST(test_sweep_refuses_another_sweep)
{
    dv_sweep_t *s = load(write_spec("s.yaml", "workloads: [{name: a, op: \"add --shape 256x256\"}]\n"
                                              "axes: {hbm.bytes_per_cycle: [444, 888]}\n"));
    dv_sweep_t *t = load(write_spec("t.yaml", "workloads: [{name: a, op: \"add --shape 256x256\"}]\n"
                                              "axes: {hbm.bytes_per_cycle: [444, 999]}\n"));
    dv_sweep_summary_t sum;
    dv_error_t e;
    run_ok(s, in_tmp("d"), 1, 1, 1);
    ck_assert_int_ne(run(t, in_tmp("d"), 1, 1, 1, &sum, &e), DV_OK);
    ck_assert_ptr_nonnull(strstr(e.msg, "holds the results of another sweep"));
    ck_assert_int_ne(run(s, in_tmp("d"), 1, 1, 2, &sum, &e), DV_OK);
    ck_assert_ptr_nonnull(strstr(e.msg, "holds shard 1/1 of this sweep, not 1/2"));
    /* a header of other columns */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "sed -i '1s/,time_us,/,time_ms,/' '%s'", in_tmp("d/results.csv"));
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_int_ne(run(s, in_tmp("d"), 1, 1, 1, &sum, &e), DV_OK);
    ck_assert_ptr_nonnull(strstr(e.msg, "its columns differ"));
    ck_assert_int_eq(e.line, 1);
    dv_sweep_free(s);
    dv_sweep_free(t);
}
END_TEST

START_TEST(test_sweep_shards_cover_and_merge)
{
    dv_sweep_t *s = load(write_spec("twelve.yaml", twelve));
    const char *dirs[3];
    char name[3][256];
    bool seen[12] = {false};
    for (uint32_t i = 1; i <= 3; i++) {
        snprintf(name[i - 1], sizeof name[i - 1], "%s/shard%u", tmp, i);
        dirs[i - 1] = name[i - 1];
        run_ok(s, dirs[i - 1], 2, i, 3);
        char path[300];
        snprintf(path, sizeof path, "%s/results.csv", dirs[i - 1]);
        csv_t c;
        csv_read(&c, path);
        ck_assert_int_eq(c.n, 1 + 4);
        for (int r = 1; r < c.n; r++) {
            const int p = (int)num(&c, r, "point");
            ck_assert_int_eq(p % 3, (int)i - 1); /* the shard's own points */
            ck_assert(!seen[p]);                  /* disjoint */
            seen[p] = true;
        }
        free(c.text);
    }
    for (int p = 0; p < 12; p++) /* and together all of them */
        ck_assert(seen[p]);
    run_ok(s, in_tmp("whole"), 2, 1, 1);

    dv_sweep_merge_summary_t ms;
    dv_error_t e;
    memset(&e, 0, sizeof e);
    ck_assert_int_eq(dv_sweep_merge(in_tmp("merged"), dirs, 3, &ms, &e), DV_OK);
    ck_assert_uint_eq(ms.rows, 12);
    ck_assert_uint_eq(ms.missing, 0);
    char *a = slurp(in_tmp("merged/results.csv"), NULL), *b = slurp(in_tmp("whole/results.csv"), NULL);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    a = slurp(in_tmp("merged/results.jsonl"), NULL);
    b = slurp(in_tmp("whole/results.jsonl"), NULL);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    /* the merged directory is a sweep directory: running the spec into it has nothing left to do */
    dv_sweep_summary_t sum;
    ck_assert_int_eq(run(s, in_tmp("merged"), 1, 1, 1, &sum, &e), DV_OK);
    ck_assert_uint_eq(sum.ran, 0);

    /* two shards of three: the points of the third are missing, and named */
    ck_assert_int_eq(dv_sweep_merge(in_tmp("part"), dirs, 2, &ms, &e), DV_OK);
    ck_assert_uint_eq(ms.rows, 8);
    ck_assert_uint_eq(ms.missing, 4);
    ck_assert_str_eq(ms.missing_list, "2, 5, 8, 11");
    /* through the program: status 1 and the list */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' sweep --merge '%s' '%s' '%s' 2>'%s'", program(), in_tmp("part2"), dirs[0],
             dirs[2], in_tmp("stderr"));
    int st = system(cmd);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
    char *err = slurp(in_tmp("stderr"), NULL);
    ck_assert_msg(strstr(err, "4 points are missing: 1, 4, 7, 10"), "stderr: %s", err);
    free(err);
    /* the same shard twice overlaps; a shard of another sweep is refused */
    const char *twice[2] = {dirs[0], dirs[0]};
    ck_assert_int_ne(dv_sweep_merge(in_tmp("x"), twice, 2, &ms, &e), DV_OK);
    ck_assert_ptr_nonnull(strstr(e.msg, "point 0 is also in"));
    dv_sweep_t *t = load(write_spec("other.yaml", "workloads: [{name: a, op: \"add --shape 256x256\"}]\n"));
    run_ok(t, in_tmp("other"), 1, 1, 1);
    const char *mixed[2] = {dirs[0], in_tmp("other")};
    ck_assert_int_ne(dv_sweep_merge(in_tmp("y"), mixed, 2, &ms, &e), DV_OK);
    ck_assert_ptr_nonnull(strstr(e.msg, "holds another sweep than"));
    dv_sweep_free(t);
    dv_sweep_free(s);
}
END_TEST

/* docs/SWEEP.md names every column of the metric table. */
START_TEST(test_sweep_columns_are_documented)
{
    int n;
    const dv_sweep_metric_t *m = dv_sweep_metrics(&n);
    char *doc = slurp("docs/SWEEP.md", NULL), want[80];
    ck_assert_int_gt(n, 20);
    ck_assert_str_eq(m[0].name, "time_us");
    for (int i = 0; i < n; i++) {
        snprintf(want, sizeof want, "`%s`", m[i].name);
        ck_assert_msg(strstr(doc, want), "docs/SWEEP.md does not name the column %s", m[i].name);
        ck_assert_ptr_eq(dv_sweep_metric_find(m[i].name), &m[i]);
    }
    free(doc);
}
END_TEST

Suite *dv_sweep_suite(void)
{
    Suite *s = suite_create("sweep");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_sweep_minimum_spec_expands);
    tcase_add_test(tc, test_sweep_errors_are_located);
    tcase_add_test(tc, test_sweep_twelve_points_two_jobs);
    tcase_add_test(tc, test_sweep_resumes_after_a_kill);
    tcase_add_test(tc, test_sweep_refuses_another_sweep);
    tcase_add_test(tc, test_sweep_shards_cover_and_merge);
    tcase_add_test(tc, test_sweep_columns_are_documented);
    suite_add_tcase(s, tc);
    return s;
}
