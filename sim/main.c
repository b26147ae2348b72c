/* sim/main.c - the dvsim command line: turns arguments into dv_sim_opts_t, calls the driver and
 * maps the outcome to an exit code (0 ok, 1 input or simulation error, 2 usage, 3 hazards with
 * --fail-on-hazard, 4 --check mismatch). */
#define _DEFAULT_SOURCE /* sbrk */
#include <limits.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "dv/config.h"
#include "dv/fusion.h"
#include "dv/graph.h"
#include "dv/hostmem.h"
#include "dv/micro.h"
#include "dv/ops.h"
#include "dv/plot.h"
#include "dv/sim.h"
#include "dv/sweep.h"
#include "dv/trace.h"

enum { EXIT_OK = 0, EXIT_ERROR = 1, EXIT_USAGE = 2, EXIT_HAZARD = 3, EXIT_MISMATCH = 4 };

static const char usage_text[] =
    "usage: dvsim run [options] TRACE     simulate a kernel trace and print its report\n"
    "       dvsim op NAME [--PARAM VALUE]... [options] [--check]\n"
    "                                     run an operator of the library on random inputs\n"
    "       dvsim op --list               list the operators with their parameters and defaults\n"
    "       dvsim record NAME [--PARAM VALUE]... [profile options] -o FILE [--binary]\n"
    "                                     write an operator's kernel as a trace file (--binary: in the\n"
    "                                     compact binary form, traces/FORMAT.md section 10)\n"
    "       dvsim convert TRACE -o FILE [--binary]\n"
    "                                     write a trace (text or binary) as canonical text, or with\n"
    "                                     --binary in the binary form; run and every reader of a trace\n"
    "                                     take either form\n"
    "       dvsim micro [--only PREFIX] [profile options]\n"
    "                                     run the microbenchmarks (docs/MICRO.md): each checks that\n"
    "                                     the model's cycles give back the profile parameter it isolates\n"
    "       dvsim fusion GRAPH [profile options] [--json FILE|-] [--svg FILE] [--no-data]\n"
    "                                     run an operator graph (docs/GRAPHS.md) unfused and fused and\n"
    "                                     compare time, GM traffic and UB use (docs/FUSION.md)\n"
    "       dvsim sweep SPEC.yaml [-j N] [--out DIR] [--shard I/N] [--quiet]\n"
    "                                     run every point of a what-if sweep (docs/SWEEP.md): workloads x\n"
    "                                     profile axes, timing only, into DIR/results.csv and .jsonl;\n"
    "                                     run again to resume\n"
    "       dvsim sweep --merge OUT DIR...  merge the shard directories of one sweep into OUT\n"
    "       dvsim plot DIR|CSV --x KEY --y METRIC [--by KEY|workload] [--heatmap] -o FILE.svg\n"
    "                                     chart a sweep's results.csv as SVG (docs/PLOT.md)\n"
    "       dvsim profiles                list the built-in chip profiles\n"
    "       dvsim --dump-config [profile options]   print the profile as YAML\n"
    "       dvsim --help | --version\n"
    "\n"
    "profile options (the default is the first preset; --set applies after --profile/--config):\n"
    "  --profile NAME            a built-in preset (see dvsim profiles)\n"
    "  --config FILE             a YAML profile, complete or 'preset: NAME' plus overrides\n"
    "  --set SECTION.KEY=VALUE   override one parameter (repeatable)\n"
    "\n"
    "run options:\n"
    "  --json FILE|-             also write the JSON report (docs/REPORT.md); '-' = stdout\n"
    "                            instead of the text report\n"
    "  --timeline FILE           write a Chrome-trace / Perfetto timeline\n"
    "  --warm-up N               run the kernel N times on the same chip before the measured run,\n"
    "                            so L2 holds what a profiler's replay finds (msopprof warms up\n"
    "                            and replays on the same memory; between runs the chip idles for\n"
    "                            chip.replay_gap_cycles, writing dirty L2 lines back); 0-100,\n"
    "                            default 0\n"
    "  --instr-csv FILE|-        write the instruction hot-spot table (instr, pipe, call_count,\n"
    "                            cycles, ...; docs/REPORT.md) as CSV; '-' = stdout\n"
    "  --no-data                 timing only: no GM data, instructions are not executed\n"
    "  --no-hazards              do not run the hazard checker\n"
    "  --host-memory BYTES       what a run with data may hold for its GM arguments (default: this\n"
    "                            machine's physical memory; outputs count twice with --check)\n"
    "  --max-hazards N           stop the hazard checker once N hazards are found (default 1000000;\n"
    "                            0 = no limit); the report says it stopped\n"
    "  --fail-on-hazard          exit with status 3 when hazards were found\n"
    "  --dump ARG=FILE           write argument ARG's final bytes to FILE (repeatable)\n"
    "  --quiet                   no text report\n"
    "  --host-stats              print host seconds, instructions/s, peak RSS and page faults to stderr\n"
    "\n"
    "op options (besides the run options; operator parameters are in dvsim op --list):\n"
    "  --check                   compare the outputs with the operator's plain-C reference\n"
    "                            (tolerances in docs/OPS.md); exit 4 on a mismatch\n"
    "\n"
    "fusion options (besides --json, --no-data, --quiet):\n"
    "  --svg FILE                write the kernels of both variants and their UB occupancy as SVG\n"
    "  --no-fold                 no graph fusion rewrites (BatchNorm folding)\n"
    "  --min-saving F            fuse a group when it saves at least this fraction of its\n"
    "                            compulsory GM traffic (default 0.3, CANN's rule of thumb)\n"
    "\n"
    "sweep options:\n"
    "  -j, --jobs N              worker processes (default: the online CPUs)\n"
    "  --out DIR                 the sweep directory (default: SPEC's name without .yaml + _sweep,\n"
    "                            in the current directory; _shardIofN added for a shard)\n"
    "  --shard I/N               run only the points p with p % N == I - 1 (1 <= I <= N)\n"
    "  --quiet                   no progress on stderr\n"
    "plot options (columns are named as in the CSV's header):\n"
    "  --where KEY=VALUE         keep the rows where column KEY holds VALUE (repeatable); a swept\n"
    "                            key that varies but is on no axis must be fixed this way\n"
    "  --log-x, --log-y          log scale (default: when the values are positive and span 100x)\n"
    "  --linear-x, --linear-y    linear scale\n"
    "  --title TEXT              the chart's title (default: METRIC vs KEY)\n"
    "\n"
    "micro options:\n"
    "  --only PREFIX             run only the rows whose name starts with PREFIX (e.g. mte2.)\n"
    "\n"
    "exit status: 0 ok, 1 input or simulation error (micro: a row failed; sweep: a point failed;\n"
    "sweep --merge: points are missing), 2 usage error,\n"
    "3 hazards (--fail-on-hazard), 4 --check (fusion: the fused outputs) found a mismatch\n";

typedef enum { CMD_RUN, CMD_OP, CMD_RECORD, CMD_CONFIG, CMD_MICRO, CMD_FUSION } cmd_t;

typedef struct cli {
    dv_sim_opts_t so;
    dv_profile_op_t *ops;
    dv_dump_t *dumps;
    char **op_argv;
    const char *only; /* micro --only */
    const char *svg;  /* fusion --svg */
    bool no_fold;     /* fusion --no-fold */
    double min_saving;
    int nops, ndumps;
    int fail_on_hazard, host_stats;
} cli_t;

static int usage_error(const char *fmt, const char *what)
{
    dv_error_t e;
    dv_error_set(&e, DV_ERR_PARSE, "dvsim", 0, 0, fmt, what);
    dv_error_print(&e, stderr);
    fputs("Try 'dvsim --help'.\n", stderr);
    return EXIT_USAGE;
}

/* Options with a value accept "--opt VALUE" and "--opt=VALUE". */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

static int option_is(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

/* An operator parameter and its value (if it takes one) go to the operator's own parser. */
static int take_op_param(int argc, char **argv, int *i, cli_t *c)
{
    const char *a = argv[*i];
    c->op_argv[c->so.op_argc++] = argv[*i];
    if (strchr(a, '='))
        return 1;
    const dv_opdesc_t *op = dv_ops_find(c->so.op);
    char key[64];
    snprintf(key, sizeof key, "%s", a + 2);
    int p = op ? dv_ops_param_index(op, key) : -1;
    int is_bool = p >= 0 && op->params[p].type == DV_OPT_BOOL;
    if (*i + 1 < argc && !(is_bool && strncmp(argv[*i + 1], "--", 2) == 0))
        c->op_argv[c->so.op_argc++] = argv[++*i];
    return 1;
}

/* Parse the options after the command: run takes run options and TRACE, op takes run options,
 * NAME and operator parameters, record NAME, parameters and -o FILE, dump-config profile options. */
static int parse(int argc, char **argv, int first, cmd_t cmd, cli_t *c)
{
    static const char *const profile_opts[] = {"--profile", "--config", "--set"};
    const int run_opts = cmd == CMD_RUN || cmd == CMD_OP || cmd == CMD_FUSION;
    int only_positional = 0;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (only_positional || a[0] != '-' || strcmp(a, "-") == 0) {
            if (cmd == CMD_OP || cmd == CMD_RECORD) {
                if (c->so.op)
                    return usage_error("only one operator may be given ('%s')", a);
                c->so.op = a;
                continue;
            }
            if (!run_opts)
                return usage_error("unexpected argument '%s'", a);
            if (c->so.trace)
                return usage_error("only one TRACE may be given ('%s')", a);
            c->so.trace = a;
            continue;
        }
        if (cmd == CMD_RECORD && (strcmp(a, "-o") == 0 || option_is(a, "--output"))) {
            const char *v = a[1] == 'o' ? (i + 1 < argc ? argv[++i] : NULL) : option_value(argc, argv, &i, "--output");
            if (!v || !v[0])
                return usage_error("option '%s' needs a FILE", a);
            c->so.record = v;
            continue;
        }
        if (cmd == CMD_RECORD && strcmp(a, "--binary") == 0) {
            c->so.record_binary = true;
            continue;
        }
        if (cmd == CMD_MICRO && option_is(a, "--only")) {
            const char *v = option_value(argc, argv, &i, "--only");
            if (!v || !v[0])
                return usage_error("option '%s' needs a PREFIX", "--only");
            c->only = v;
            continue;
        }
        if (cmd == CMD_FUSION && (option_is(a, "--svg") || option_is(a, "--min-saving"))) {
            const char *name = option_is(a, "--svg") ? "--svg" : "--min-saving";
            const char *v = option_value(argc, argv, &i, name);
            if (!v || !v[0])
                return usage_error("option '%s' needs a value", name);
            if (name[2] == 's')
                c->svg = v;
            else {
                char *end;
                c->min_saving = strtod(v, &end);
                if (*end || !(c->min_saving >= 0 && c->min_saving <= 1))
                    return usage_error("--min-saving: '%s' is not a fraction in [0, 1]", v);
            }
            continue;
        }
        if (cmd == CMD_FUSION && strcmp(a, "--no-fold") == 0) {
            c->no_fold = true;
            continue;
        }
        if (cmd == CMD_OP && strcmp(a, "--check") == 0) {
            c->so.check = true;
            continue;
        }
        if ((cmd == CMD_RUN || cmd == CMD_OP) && option_is(a, "--warm-up")) {
            const char *v = option_value(argc, argv, &i, "--warm-up");
            char *end = NULL;
            const unsigned long n = v && v[0] >= '0' && v[0] <= '9' ? strtoul(v, &end, 10) : 0;
            if (!v || !end || *end || n > 100)
                return usage_error("--warm-up: '%s' is not a number of runs from 0 to 100", v ? v : "");
            c->so.warm_up = (unsigned)n;
            continue;
        }
        if ((cmd == CMD_RUN || cmd == CMD_OP) && option_is(a, "--host-memory")) {
            const char *v = option_value(argc, argv, &i, "--host-memory");
            char *end = NULL;
            const unsigned long long n = v && v[0] >= '1' && v[0] <= '9' ? strtoull(v, &end, 10) : 0;
            if (!v || !end || *end || n == 0 || n == ULLONG_MAX)
                return usage_error("--host-memory: '%s' is not a number of bytes (at least 1)", v ? v : "");
            c->so.host_memory = n;
            continue;
        }
        if ((cmd == CMD_RUN || cmd == CMD_OP) && option_is(a, "--max-hazards")) {
            const char *v = option_value(argc, argv, &i, "--max-hazards");
            char *end = NULL;
            const unsigned long long n = v && v[0] >= '0' && v[0] <= '9' ? strtoull(v, &end, 10) : 0;
            if (!v || !end || *end || n > 1000000000000ull)
                return usage_error("--max-hazards: '%s' is not a number from 0 (no limit) to 10^12", v ? v : "");
            c->so.max_hazards = n;
            continue;
        }
        if ((cmd == CMD_RUN || cmd == CMD_OP) && option_is(a, "--instr-csv")) {
            const char *v = option_value(argc, argv, &i, "--instr-csv");
            if (!v || !v[0])
                return usage_error("option '%s' needs a value", "--instr-csv");
            c->so.instr_csv = v;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_positional = 1;
            continue;
        }
        int handled = 0;
        for (int p = 0; p < 3 && !handled; p++) {
            if (!option_is(a, profile_opts[p]))
                continue;
            const char *v = option_value(argc, argv, &i, profile_opts[p]);
            if (!v)
                return usage_error("option '%s' needs a value", profile_opts[p]);
            c->ops[c->nops].kind = p == 0 ? DV_PROFILE_PRESET : p == 1 ? DV_PROFILE_FILE : DV_PROFILE_SET;
            c->ops[c->nops++].arg = v;
            handled = 1;
        }
        if (handled)
            continue;
        if ((cmd == CMD_OP || cmd == CMD_RECORD) && c->so.op && strncmp(a, "--", 2) == 0 && a[2] &&
            strcmp(a, "--binary") != 0 &&
            !option_is(a, "--json") && !option_is(a, "--timeline") && !option_is(a, "--dump") &&
            strcmp(a, "--no-data") && strcmp(a, "--no-hazards") && strcmp(a, "--fail-on-hazard") &&
            strcmp(a, "--quiet") && strcmp(a, "--host-stats")) {
            take_op_param(argc, argv, &i, c);
            continue;
        }
        if (!run_opts)
            return usage_error("unknown option '%s'", a);
        if (option_is(a, "--json") || option_is(a, "--timeline") || option_is(a, "--dump")) {
            const char *name = option_is(a, "--json") ? "--json" : option_is(a, "--timeline") ? "--timeline" : "--dump";
            const char *v = option_value(argc, argv, &i, name);
            if (!v || !v[0])
                return usage_error("option '%s' needs a value", name);
            if (name[2] == 'j')
                c->so.json = v;
            else if (name[2] == 't')
                c->so.timeline = v;
            else {
                const char *eq = strchr(v, '=');
                if (!eq || eq == v || !eq[1])
                    return usage_error("option '--dump' needs ARG=FILE, not '%s'", v);
                /* split in place: argv strings are writable */
                argv[i][eq - argv[i]] = '\0';
                c->dumps[c->ndumps].arg = v;
                c->dumps[c->ndumps++].path = eq + 1;
            }
        } else if (strcmp(a, "--no-data") == 0)
            c->so.data = false;
        else if (strcmp(a, "--no-hazards") == 0)
            c->so.hazards = false;
        else if (strcmp(a, "--fail-on-hazard") == 0)
            c->fail_on_hazard = 1;
        else if (strcmp(a, "--quiet") == 0)
            c->so.quiet = true;
        else if (strcmp(a, "--host-stats") == 0)
            c->host_stats = 1;
        else
            return usage_error("unknown option '%s'", a);
    }
    if (cmd == CMD_RUN && !c->so.trace)
        return usage_error("%s", "run: missing TRACE (dvsim run [options] TRACE)");
    if (cmd == CMD_FUSION && !c->so.trace)
        return usage_error("%s", "fusion: missing GRAPH (dvsim fusion [options] GRAPH)");
    if (cmd == CMD_FUSION && (c->so.timeline || c->ndumps || c->fail_on_hazard || !c->so.hazards))
        return usage_error("%s", "fusion takes --json, --svg, --no-data, --no-fold, --min-saving, --quiet, "
                           "--host-stats and profile options");
    if ((cmd == CMD_OP || cmd == CMD_RECORD) && !c->so.op)
        return usage_error("%s", "missing operator NAME (dvsim op --list shows them)");
    if (cmd == CMD_RECORD && !c->so.record)
        return usage_error("%s", "record: missing -o FILE");
    if (c->ndumps && !c->so.data)
        return usage_error("%s", "option '--dump' cannot be used with '--no-data'");
    c->so.dumps = c->dumps;
    c->so.ndumps = c->ndumps;
    if (dv_sim_stdout_outputs(&c->so) > 1)
        return usage_error("%s", "only one of --json, --timeline, --instr-csv and --dump can write to stdout ('-')");
    return EXIT_OK;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmd_run(cli_t *c)
{
    dv_error_t err;
    dv_sim_summary_t sum = {0};
    double t0 = now_seconds();
    c->so.profile_ops = c->ops;
    c->so.nprofile_ops = c->nops;
    c->so.dumps = c->dumps;
    c->so.ndumps = c->ndumps;
    c->so.op_argv = c->op_argv;
    c->so.series = c->so.json != NULL; /* the occupancy over time: only the JSON report shows it */
    if (dv_sim_run(&c->so, &sum, &err) != DV_OK) {
        dv_error_print(&err, stderr);
        if (err.code == DV_ERR_USAGE) {
            fputs("Try 'dvsim --help'.\n", stderr);
            return EXIT_USAGE;
        }
        return EXIT_ERROR;
    }
    if (sum.checked && sum.mismatches) {
        fprintf(stderr, "dvsim: error: --check: %llu elements differ from the reference beyond the tolerance\n",
                (unsigned long long)sum.mismatches);
        return EXIT_MISMATCH;
    }
    if (sum.checked)
        fprintf(stderr, "dvsim: --check passed%s\n", sum.compared ? "" : " (nothing to compare: no outputs)");
    if (c->host_stats) {
        double secs = now_seconds() - t0;
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        fprintf(stderr, "host_seconds=%.3f instructions=%llu insns_per_second=%.0f peak_rss_kb=%ld page_faults=%ld\n",
                secs, (unsigned long long)sum.instructions, secs > 0 ? (double)sum.instructions / secs : 0.0,
                (long)ru.ru_maxrss, (long)ru.ru_minflt + (long)ru.ru_majflt);
    }
    return c->fail_on_hazard && sum.hazards ? EXIT_HAZARD : EXIT_OK;
}

static int open_file(const char *path, FILE **f)
{
    *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (!*f) {
        dv_error_t e;
        dv_error_set(&e, DV_ERR_IO, path, 0, 0, "cannot write");
        dv_error_print(&e, stderr);
        return EXIT_ERROR;
    }
    return EXIT_OK;
}

static int close_file(FILE *f, int rc)
{
    if (!f)
        return rc;
    const int bad = fflush(f) != 0 || ferror(f) || (f != stdout && fclose(f) != 0);
    return rc == EXIT_OK && bad ? EXIT_ERROR : rc;
}

/* dvsim fusion: profile -> graph -> study (dv/fusion.h) -> reports.  The output files are opened
 * first, so a bad path fails before anything is printed. */
static int cmd_fusion(cli_t *c)
{
    static dv_graph_t g;
    static dv_fusion_result_t res;
    dv_error_t err;
    dv_config_t cfg;
    FILE *json = NULL, *svg = NULL;
    int rc = EXIT_OK;
    double t0 = now_seconds();
    dv_fusion_study_opts_t o;
    dv_fusion_study_opts_default(&o);
    o.data = c->so.data;
    o.fold = !c->no_fold;
    if (c->min_saving > 0)
        o.plan.min_saving = c->min_saving;
    if (dv_sim_profile(c->ops, c->nops, &cfg, &err) != DV_OK || dv_graph_load(c->so.trace, &g, &err) != DV_OK) {
        dv_error_print(&err, stderr);
        return EXIT_ERROR;
    }
    if ((c->so.json && (rc = open_file(c->so.json, &json)) != EXIT_OK) ||
        (c->svg && (rc = open_file(c->svg, &svg)) != EXIT_OK))
        goto cleanup;
    if (dv_fusion_study(&g, &cfg, &o, &res, &err) != DV_OK) {
        dv_error_print(&err, stderr);
        rc = EXIT_ERROR;
        goto cleanup;
    }
    if ((!c->so.quiet && json != stdout && dv_fusion_print(&res, stdout) != DV_OK) ||
        (json && dv_fusion_write_json(&res, json) != DV_OK) || (svg && dv_fusion_write_svg(&res, svg) != DV_OK))
        rc = EXIT_ERROR;
    if (rc == EXIT_OK && res.checked && res.mismatches) {
        fprintf(stderr, "dvsim: error: fusion: %llu output elements of the fused graph differ from the unfused "
                "ones beyond the dtype tolerance (first in '%s')\n", (unsigned long long)res.mismatches,
                res.check.arg);
        rc = EXIT_MISMATCH;
    }
    if (c->host_stats)
        fprintf(stderr, "host_seconds=%.3f\n", now_seconds() - t0);
cleanup:
    rc = close_file(json, rc);
    return close_file(svg, rc);
}

/* A positive integer option value, or 0. */
static unsigned long positive(const char *v)
{
    char *end;
    const unsigned long n = v && v[0] >= '1' && v[0] <= '9' ? strtoul(v, &end, 10) : 0;
    return n && !*end && n <= 1000000 ? n : 0;
}

/* dvsim convert TRACE -o FILE [--binary]: open the trace (either form), write it in the other
 * (dv_trace_save); no profile is involved. */
static int cmd_convert(int argc, char **argv, int first)
{
    const char *in = NULL, *out = NULL;
    dv_trace_form_t form = DV_TRACE_TEXT;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-o") == 0 || option_is(a, "--output")) {
            const char *v = a[1] == 'o' ? (i + 1 < argc ? argv[++i] : NULL) : option_value(argc, argv, &i, "--output");
            if (!v || !v[0])
                return usage_error("option '%s' needs a FILE", a);
            out = v;
        } else if (strcmp(a, "--binary") == 0) {
            form = DV_TRACE_BINARY;
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unknown convert option '%s'", a);
        } else if (in) {
            return usage_error("only one TRACE may be given ('%s')", a);
        } else {
            in = a;
        }
    }
    if (!in)
        return usage_error("%s", "convert: missing TRACE (dvsim convert TRACE -o FILE [--binary])");
    if (!out)
        return usage_error("%s", "convert: missing -o FILE");
    dv_kernel_t *k = NULL;
    dv_error_t err;
    if (dv_trace_open(in, &k, &err) != DV_OK || dv_trace_save(k, out, form, &err) != DV_OK) {
        dv_error_print(&err, stderr);
        dv_trace_close(k);
        return EXIT_ERROR;
    }
    dv_trace_close(k);
    return EXIT_OK;
}

/* dvsim sweep --merge OUT DIR... */
static int cmd_sweep_merge(int argc, char **argv, int first)
{
    dv_error_t err;
    dv_sweep_merge_summary_t sum;
    if (argc - first < 2)
        return usage_error("%s", "sweep --merge: expected OUT and at least one DIR");
    for (int i = first; i < argc; i++)
        if (argv[i][0] == '-')
            return usage_error("sweep --merge takes directories only, not '%s'", argv[i]);
    if (dv_sweep_merge(argv[first], (const char *const *)argv + first + 1, argc - first - 1, &sum, &err) != DV_OK) {
        dv_error_print(&err, stderr);
        return EXIT_ERROR;
    }
    fprintf(stderr, "sweep: merged %d director%s into %s: %llu of %llu points\n", argc - first - 1,
            argc - first - 1 == 1 ? "y" : "ies", argv[first], (unsigned long long)sum.rows,
            (unsigned long long)sum.points);
    if (sum.missing) {
        fprintf(stderr, "dvsim: error: sweep --merge: %llu point%s missing: %s (dvsim sweep SPEC --out %s runs "
                "them)\n", (unsigned long long)sum.missing, sum.missing == 1 ? " is" : "s are", sum.missing_list,
                argv[first]);
        return EXIT_ERROR;
    }
    return EXIT_OK;
}

/* dvsim sweep SPEC [-j N] [--out DIR] [--shard I/N] [--quiet]: the spec is read and every point
 * validated before anything runs (dv/sweep.h). */
static int cmd_sweep(int argc, char **argv, int first)
{
    dv_sweep_opts_t o;
    dv_sweep_summary_t sum;
    dv_sweep_t *s = NULL;
    dv_error_t err;
    const char *spec = NULL;
    bool quiet = false;
    dv_sweep_opts_default(&o);
    if (first < argc && strcmp(argv[first], "--merge") == 0)
        return cmd_sweep_merge(argc, argv, first + 1);
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-j") == 0 || option_is(a, "--jobs") || (a[0] == '-' && a[1] == 'j' && a[2])) {
            const char *v = a[1] == 'j' ? (a[2] ? a + 2 : i + 1 < argc ? argv[++i] : NULL)
                                        : option_value(argc, argv, &i, "--jobs");
            if (!(o.jobs = (int)positive(v)))
                return usage_error("-j: '%s' is not a number of workers >= 1", v ? v : "");
        } else if (option_is(a, "--out")) {
            const char *v = option_value(argc, argv, &i, "--out");
            if (!v || !v[0])
                return usage_error("option '%s' needs a DIR", "--out");
            o.out = v;
        } else if (option_is(a, "--shard")) {
            const char *v = option_value(argc, argv, &i, "--shard");
            const char *slash = v ? strchr(v, '/') : NULL;
            char num[32];
            snprintf(num, sizeof num, "%.*s", slash ? (int)(slash - v) : 0, v ? v : "");
            o.shard = (uint32_t)positive(num);
            o.nshards = slash ? (uint32_t)positive(slash + 1) : 0;
            if (!o.shard || !o.nshards || o.shard > o.nshards)
                return usage_error("--shard: '%s' is not I/N with 1 <= I <= N", v ? v : "");
        } else if (strcmp(a, "--quiet") == 0) {
            quiet = true;
        } else if (a[0] == '-') {
            return usage_error("unknown sweep option '%s'", a);
        } else if (spec) {
            return usage_error("only one SPEC may be given ('%s')", a);
        } else {
            spec = a;
        }
    }
    if (!spec)
        return usage_error("%s", "sweep: missing SPEC (dvsim sweep SPEC.yaml [-j N] [--out DIR] [--shard I/N])");
    o.progress = quiet ? NULL : stderr;
    int rc = dv_sweep_load(spec, &s, &err) == DV_OK && dv_sweep_run(s, &o, &sum, &err) == DV_OK ? EXIT_OK : EXIT_ERROR;
    if (rc != EXIT_OK)
        dv_error_print(&err, stderr);
    dv_sweep_free(s);
    return rc;
}

static int cmd_dump_config(cli_t *c)
{
    dv_error_t err;
    dv_config_t cfg;
    if (dv_sim_profile(c->ops, c->nops, &cfg, &err) != DV_OK) {
        dv_error_print(&err, stderr);
        return EXIT_ERROR;
    }
    dv_config_dump(&cfg, stdout);
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_ERROR;
}

/* Microbenchmarks: 0 when every row passes (or is not observable on this profile), 1 when one
 * fails or nothing could run. */
static int cmd_micro(cli_t *c)
{
    dv_error_t err;
    dv_config_t cfg;
    if (dv_micro_selected(c->only) == 0)
        return usage_error("--only: no microbenchmark row starts with '%s' (docs/MICRO.md lists them)", c->only);
    if (dv_sim_profile(c->ops, c->nops, &cfg, &err) != DV_OK) {
        dv_error_print(&err, stderr);
        return EXIT_ERROR;
    }
    int failed = dv_micro_main(stdout, &cfg, c->only, &err);
    if (failed < 0) {
        dv_error_print(&err, stderr);
        return EXIT_ERROR;
    }
    if (fflush(stdout) != 0)
        return EXIT_ERROR;
    if (failed > 0) {
        fprintf(stderr, "dvsim: error: micro: %d row%s did not give back the profile value\n", failed,
                failed == 1 ? "" : "s");
        return EXIT_ERROR;
    }
    return EXIT_OK;
}

/* dvsim plot: its own options (dv/plot.h), a chart of a sweep's table. */
static int cmd_plot(int argc, char **argv)
{
    dv_plot_opts_t o;
    dv_error_t err;
    if (dv_plot_parse_args(&o, argc, argv, &err) != DV_OK) {
        dv_error_print(&err, stderr);
        fputs("Try 'dvsim --help'.\n", stderr);
        return EXIT_USAGE;
    }
    if (dv_plot_run(&o, stderr, &err) != DV_OK) {
        dv_error_print(&err, stderr);
        return EXIT_ERROR;
    }
    return EXIT_OK;
}

static int cmd_list(void)
{
    const dv_opdesc_t *const *all = dv_ops_all();
    for (int i = 0; all[i]; i++) {
        dv_ops_print_params(all[i], stdout);
        fputc('\n', stdout);
    }
    printf("dtypes are spelled fp16 bf16 fp32 int8 int16 int32 (or f16 f32 s8 s16 s32); a shape is\n"
           "AxBx...; on|off parameters may be given bare (--double-buffer means on).\n");
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_ERROR;
}

static int cmd_profiles(void)
{
    const char *const *names = dv_profile_names();
    for (int i = 0; names[i]; i++)
        printf("%s%s\n", names[i], i == 0 ? " (default)" : "");
    return EXIT_OK;
}

/* The heap, set up before any library initialises (an entry of the program's .preinit_array, which
 * runs first; environ is not set yet, so this reads nothing from it).
 *
 * Freed memory stays with the process for the next allocation, rather than going back to the system
 * and being faulted in again: blocks up to 32 MB come from the heap (glibc's default maps each from
 * 128 KB on, and unmaps it when freed), and the heap's free top is kept up to 256 MB.  A sweep builds
 * a model per point: its page faults -30%, CPU -20%; 8192^3's peak RSS 86 -> 101 MB (what it freed
 * is not returned), its page faults -18%.
 *
 * And the heap's first HUGE_HEAP_MB megabytes may be backed by transparent huge pages (dv/hostmem.h),
 * as the heap is written densely - libsystemc's
 * initialisation clears a 3 MB scratch heap (sc_temp_heap, 768 faults), then come the model's cores,
 * queues, hazard rings and tables.  The heap is made here with that much room at its top (M_TOP_PAD,
 * address space only until written), which is advised; it grows by as much again each time later,
 * not advised.  Not under AddressSanitizer, whose allocator is its own.  Measured on such a VM (11
 * alternating runs, median task-clock): `dvsim --version` 21.3 -> 11.9 ms (page faults 1,030 ->
 * 373), the 24-core matmul 2048^3 90.1 -> 44.9 ms (4,150 -> 1,181), the bench's vector trace 591 ->
 * 444 ms (7 runs; 7,539 -> 2,449); peak RSS 22.0 -> 33.4 MB and 35.4 -> 48.6 MB. */
enum { HUGE_HEAP_MB = 128 };
static void early_heap(int argc, char **argv, char **envp)
{
    (void)argc, (void)argv, (void)envp;
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#if !defined(DV_ASAN)
    mallopt(M_TOP_PAD, HUGE_HEAP_MB << 20);
    char *const first = malloc(1), *const top = sbrk(0); /* the heap, made with the room at its top */
    const size_t room = (uintptr_t)top - (uintptr_t)first; /* (wraps to a huge size when top is below) */
    if (first && top != (void *)-1 && room <= ((size_t)HUGE_HEAP_MB << 20) + DV_HUGE_PAGE_BYTES)
        dv_advise_huge(first, top);
    free(first);
#endif
}
__attribute__((section(".preinit_array"), used)) static void (*const early_heap_entry)(int, char **,
                                                                                        char **) = early_heap;

int main(int argc, char **argv)
{
    cli_t c;
    int rc;
    memset(&c, 0, sizeof c);
    dv_sim_opts_default(&c.so);
    c.ops = calloc((size_t)argc, sizeof *c.ops);
    c.dumps = calloc((size_t)argc, sizeof *c.dumps);
    c.op_argv = calloc((size_t)argc, sizeof *c.op_argv);
    if (!c.ops || !c.dumps || !c.op_argv) {
        fputs("dvsim: error: out of memory\n", stderr);
        return EXIT_ERROR;
    }
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_text, stdout);
            rc = EXIT_OK;
            goto cleanup;
        }
    const char *cmd = argc > 1 ? argv[1] : "";
    if (argc < 2) {
        fputs(usage_text, stderr);
        rc = EXIT_USAGE;
    } else if (strcmp(cmd, "--version") == 0) {
        printf("dvsim %s (trace format %d)\n", DV_SIM_VERSION, DV_TRACE_VERSION);
        rc = EXIT_OK;
    } else if (strcmp(cmd, "profiles") == 0) {
        rc = argc > 2 ? usage_error("unexpected argument '%s'", argv[2]) : cmd_profiles();
    } else if (strcmp(cmd, "--dump-config") == 0 || strcmp(cmd, "dump-config") == 0) {
        rc = parse(argc, argv, 2, CMD_CONFIG, &c);
        if (rc == EXIT_OK)
            rc = cmd_dump_config(&c);
    } else if (strcmp(cmd, "fusion") == 0) {
        rc = parse(argc, argv, 2, CMD_FUSION, &c);
        if (rc == EXIT_OK)
            rc = cmd_fusion(&c);
    } else if (strcmp(cmd, "sweep") == 0) {
        rc = cmd_sweep(argc, argv, 2);
    } else if (strcmp(cmd, "convert") == 0) {
        rc = cmd_convert(argc, argv, 2);
    } else if (strcmp(cmd, "plot") == 0) {
        rc = cmd_plot(argc - 2, argv + 2);
    } else if (strcmp(cmd, "micro") == 0) {
        rc = parse(argc, argv, 2, CMD_MICRO, &c);
        if (rc == EXIT_OK)
            rc = cmd_micro(&c);
    } else if (strcmp(cmd, "run") == 0 || strcmp(cmd, "op") == 0 || strcmp(cmd, "record") == 0) {
        if (strcmp(cmd, "op") == 0 && argc == 3 && strcmp(argv[2], "--list") == 0) {
            rc = cmd_list();
            goto cleanup;
        }
        rc = parse(argc, argv, 2, cmd[0] == 'r' && cmd[1] == 'u' ? CMD_RUN : cmd[0] == 'o' ? CMD_OP : CMD_RECORD, &c);
        if (rc == EXIT_OK)
            rc = cmd_run(&c);
    } else {
        rc = usage_error(cmd[0] == '-' ? "unknown option '%s'" : "unknown command '%s'", cmd);
    }
cleanup:
    free(c.ops);
    free(c.dumps);
    free(c.op_argv);
    return rc;
}
