/* tests/check_topology.c - the core topology (configs/topology.def, dv/topology.h): the table's
 * invariants, the cores, pipes, buffers and sub-streams of every preset, and every sample trace run
 * on every preset plus the 910B's aiv_per_core 1 and 3 variants. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glob.h>
#include <unistd.h>

#include "dv/sim.h"
#include "dv/topology.h"
#include "dv/trace.h"
#include "support/dvt.h"

#define BIT(x) (1u << (x))

/* ---------------------------------------------------------------- the table */

START_TEST(test_topology_table_invariants)
{
    for (int t = 0; t < DV_CORE_TYPE_COUNT; t++) {
        const dv_core_type_spec_t *s = dv_topo_type_spec((dv_core_type_t)t);
        ck_assert_ptr_nonnull(s);
        ck_assert(s->type[0] && s->prefix[0] && s->desc[0]);
        ck_assert(s->layout == DV_LAYOUT_COUPLED || s->layout == DV_LAYOUT_SPLIT);
        ck_assert_msg((s->pipes & ~(BIT(DV_PIPE_COUNT) - 1)) == 0, "%s: a pipe outside the ISA's pipes", s->type);
        ck_assert_msg(s->pipes & BIT(DV_PIPE_S), "%s: every core has the scalar unit", s->type);
        ck_assert_msg((s->buffers & ~(BIT(DV_SPACE_COUNT) - 1)) == 0, "%s: a buffer outside the spaces", s->type);
        ck_assert_msg(!(s->buffers & BIT(DV_SPACE_GM)), "%s: GM is not a local buffer", s->type);
        ck_assert_msg(s->kinds && (s->kinds & ~(BIT(DV_KIND_MIX + 1) - 1)) == 0, "%s: kinds", s->type);
        ck_assert_msg(!(s->kinds & BIT(DV_KIND_MIX)) || s->layout == DV_LAYOUT_SPLIT, "%s: mix only on split", s->type);
        for (int u = 0; u < t; u++) {
            const dv_core_type_spec_t *o = dv_topo_type_spec((dv_core_type_t)u);
            ck_assert_msg(strcmp(s->type, o->type) != 0, "duplicate type name %s", s->type);
            ck_assert_msg(strcmp(s->prefix, o->prefix) != 0, "duplicate core name prefix %s", s->prefix);
        }
    }
    ck_assert_ptr_null(dv_topo_type_spec(DV_CORE_TYPE_COUNT));
    /* per layout: vector and cube kernels have a core type, and every pipe and buffer an owner */
    for (int layout = DV_LAYOUT_COUPLED; layout <= DV_LAYOUT_SPLIT; layout++) {
        unsigned kinds = 0, pipes = 0, bufs = 0, per_aiv = 0;
        for (int t = 0; t < DV_CORE_TYPE_COUNT; t++) {
            const dv_core_type_spec_t *s = dv_topo_type_spec((dv_core_type_t)t);
            if (s->layout != layout)
                continue;
            kinds |= s->kinds, pipes |= s->pipes, bufs |= s->buffers;
            per_aiv += s->per_aiv;
            /* the per-AIV type is the last mix type: sub-stream names do not depend on the profile */
            if (per_aiv)
                for (int u = t + 1; u < DV_CORE_TYPE_COUNT; u++)
                    ck_assert(!(dv_topo_type_spec((dv_core_type_t)u)->kinds & BIT(DV_KIND_MIX)));
        }
        ck_assert(kinds & BIT(DV_KIND_VECTOR) && kinds & BIT(DV_KIND_CUBE));
        ck_assert_uint_eq(pipes, BIT(DV_PIPE_COUNT) - 1);
        ck_assert_uint_eq(bufs, BIT(DV_SPACE_COUNT) - 1 - BIT(DV_SPACE_GM));
        ck_assert_uint_eq(per_aiv, layout == DV_LAYOUT_SPLIT ? 1 : 0);
    }
    /* every local buffer reads its own profile keys: core.<buf>_size_bytes and core.<buf>_align_bytes */
    dv_config_t cfg;
    dvt_config(&cfg, NULL, NULL);
    for (int s = 0; s < DV_SPACE_COUNT; s++) {
        char size_key[40], align_key[40];
        if (s == DV_SPACE_GM) {
            ck_assert_str_eq(dv_topo_buffer_key(DV_SPACE_GM), "gm");
            ck_assert_uint_eq(dv_topo_buffer_size(&cfg, DV_SPACE_GM), 0);
            continue;
        }
        snprintf(size_key, sizeof size_key, "core.%s_size_bytes", dv_space_name((dv_space_t)s));
        snprintf(align_key, sizeof align_key, "core.%s_align_bytes", dv_space_name((dv_space_t)s));
        ck_assert_str_eq(dv_topo_buffer_key((dv_space_t)s), size_key);
        ck_assert_ptr_nonnull(dv_param_find(size_key));
        ck_assert_ptr_nonnull(dv_param_find(align_key));
        ck_assert_uint_eq(dv_topo_buffer_size(&cfg, (dv_space_t)s), dv_param_u64(dv_param_find(size_key), &cfg));
        ck_assert_uint_eq(dv_topo_buffer_align(&cfg, (dv_space_t)s), dv_param_u64(dv_param_find(align_key), &cfg));
    }
    /* the AIV limit is the schema's maximum and fits the sub-stream numbering */
    ck_assert_uint_eq(dv_param_find("chip.aiv_per_core")->max, DV_TOPO_AIV_MAX);
    ck_assert_int_eq(DV_SUB_MAX, 1 + DV_TOPO_AIV_MAX);
    ck_assert_int_eq(DV_SUB_AIC, 0);
    ck_assert_int_eq(DV_SUB_AIV0, 1);
}
END_TEST

START_TEST(test_topology_sub_names_round_trip)
{
    char a[16], b[16];
    ck_assert_str_eq(dv_topo_sub_name(DV_SUB_AIC, a, sizeof a), "aic");
    ck_assert_str_eq(dv_topo_sub_name(DV_SUB_AIV0 + 3, a, sizeof a), "aiv3");
    for (uint32_t s = 0; s < DV_SUB_MAX + 3; s++) {
        dv_topo_sub_name(s, a, sizeof a);
        ck_assert_int_eq(dv_topo_sub_lookup(a, strlen(a)), (int)s);
        for (uint32_t t = 0; t < s; t++)
            ck_assert_str_ne(a, dv_topo_sub_name(t, b, sizeof b));
    }
    ck_assert_int_eq(dv_topo_sub_lookup("aiv4", 4), DV_SUB_MAX); /* named, beyond the limit: the caller says so */
    const char *bad[] = {"", "aiv", "aiv01", "aivx", "aiv-1", "aicc", "AIC", "aiv1 ", "core0", "aiv1234567"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(dv_topo_sub_lookup(bad[i], strlen(bad[i])) == -1, "'%s' is no sub-stream", bad[i]);
    ck_assert_int_eq(dv_topo_sub_lookup("aiv0x", 4), DV_SUB_AIV0); /* only len bytes are read */
}
END_TEST

/* ---------------------------------------------------------------- every profile */

static const struct {
    const char *profile, *set;
} profiles[] = {
    {"ascend910b2", NULL}, {"ascend910b1", NULL}, {"ascend910b3", NULL}, {"ascend910a", NULL}, {"ascend310", NULL},
    {"ascend910b2", "chip.aiv_per_core=1"}, {"ascend910b2", "chip.aiv_per_core=3"},
    {"ascend910b1", "chip.aiv_per_core=1"}, {"ascend910b1", "chip.aiv_per_core=3"},
    {"ascend910b3", "chip.aiv_per_core=1"}, {"ascend910b3", "chip.aiv_per_core=3"},
};
#define NPROFILES (int)(sizeof profiles / sizeof profiles[0])

static void profile_config(dv_config_t *cfg, int i)
{
    const char *sets[] = {profiles[i].set, NULL};
    dvt_config(cfg, profiles[i].profile, profiles[i].set ? sets : NULL);
}

START_TEST(test_topology_cores_of_every_profile)
{
    for (int i = 0; i < NPROFILES; i++) {
        dv_config_t cfg;
        profile_config(&cfg, i);
        const bool split = cfg.chip_layout == DV_LAYOUT_SPLIT;
        const uint32_t n = (uint32_t)cfg.chip_ai_cores, m = (uint32_t)cfg.chip_aiv_per_core;
        dv_core_type_t types[DV_CORE_TYPE_COUNT];
        const int nt = dv_topo_types(&cfg, types);
        ck_assert_int_eq(nt, split ? 2 : 1);
        ck_assert_int_eq(types[0], split ? DV_CORE_AIC : DV_CORE_COUPLED);
        ck_assert_uint_eq(dv_topo_cores(&cfg), split ? n + n * m : n);
        ck_assert_uint_eq(dv_topo_type_cores(&cfg, DV_CORE_AIV), split ? n * m : 0);
        ck_assert_uint_eq(dv_topo_type_cores(&cfg, DV_CORE_COUPLED), split ? 0 : n);
        ck_assert_uint_eq(dv_topo_kernel_subs(&cfg, DV_KIND_MIX), split ? 1 + m : 0);
        ck_assert_uint_eq(dv_topo_kernel_subs(&cfg, DV_KIND_VECTOR), 1);
        ck_assert_uint_eq(dv_topo_kernel_cores(&cfg, DV_KIND_VECTOR), split ? n * m : n);
        ck_assert_uint_eq(dv_topo_kernel_cores(&cfg, DV_KIND_CUBE), n);
        ck_assert_uint_eq(dv_topo_kernel_cores(&cfg, DV_KIND_MIX), split ? n : 0);
        for (uint32_t c = 0; c < dv_topo_cores(&cfg); c++) {
            char name[16], want[16];
            const dv_core_type_t t = dv_topo_core_type(&cfg, c);
            const uint32_t g = dv_topo_core_group(&cfg, c), r = dv_topo_core_rank(&cfg, c);
            if (!split)
                snprintf(want, sizeof want, "core%u", c);
            else if (c < n)
                snprintf(want, sizeof want, "aic%u", c);
            else
                snprintf(want, sizeof want, "aiv%u", c - n);
            ck_assert_str_eq(dv_topo_core_name(&cfg, c, name, sizeof name), want);
            ck_assert_int_eq(t, !split ? DV_CORE_COUPLED : c < n ? DV_CORE_AIC : DV_CORE_AIV);
            ck_assert_uint_eq(g, !split || c < n ? c : (c - n) / m);
            ck_assert_uint_eq(r, !split || c < n ? 0 : (c - n) % m);
            ck_assert_uint_eq(dv_topo_group_core(&cfg, t, g, r), c);
            ck_assert_uint_eq(dv_topo_core_sub(&cfg, c, DV_KIND_VECTOR), DV_SUB_MAIN);
            if (split) {
                const uint32_t sub = dv_topo_core_sub(&cfg, c, DV_KIND_MIX);
                ck_assert_uint_eq(sub, t == DV_CORE_AIC ? DV_SUB_AIC : DV_SUB_AIV0 + r);
                ck_assert_int_eq(dv_topo_stream_type(&cfg, DV_KIND_MIX, sub), t);
            }
            /* pipes: the AIC has no V (it writes GM through FixPipe, and L1 -> GM on MTE3); an AIV no M, MTE1, FIX;
             * FIX only with chip.has_fix_pipe */
            for (int p = 0; p < DV_PIPE_COUNT; p++) {
                bool want_pipe = true;
                if (p == DV_PIPE_FIX && !cfg.chip_has_fix_pipe)
                    want_pipe = false;
                if (t == DV_CORE_AIC && p == DV_PIPE_V)
                    want_pipe = false;
                if (t == DV_CORE_AIV && (p == DV_PIPE_M || p == DV_PIPE_MTE1 || p == DV_PIPE_FIX))
                    want_pipe = false;
                ck_assert_msg(dv_topo_has_pipe(&cfg, t, (dv_pipe_t)p) == want_pipe, "%s %s pipe %s", profiles[i].profile,
                              want, dv_pipe_name((dv_pipe_t)p));
            }
            /* buffers: the UB is an AIV's, the rest the AIC's; only those with a size */
            for (int s = 0; s < DV_SPACE_COUNT; s++) {
                bool mine = s != DV_SPACE_GM && dv_topo_buffer_size(&cfg, (dv_space_t)s) > 0;
                if (t == DV_CORE_AIC && s == DV_SPACE_UB)
                    mine = false;
                if (t == DV_CORE_AIV && s != DV_SPACE_UB)
                    mine = false;
                ck_assert_msg(dv_topo_has_buffer(&cfg, t, (dv_space_t)s) == mine, "%s %s buffer %s", profiles[i].profile,
                              want, dv_space_name((dv_space_t)s));
            }
        }
    }
    /* hand-checked points of the default preset */
    dv_config_t cfg;
    char b[16];
    dvt_config(&cfg, NULL, NULL);
    ck_assert_str_eq(dv_topo_core_name(&cfg, 24, b, sizeof b), "aiv0");
    ck_assert_str_eq(dv_topo_core_name(&cfg, 71, b, sizeof b), "aiv47");
    ck_assert_uint_eq(dv_topo_core_group(&cfg, 71), 23);
    ck_assert_uint_eq(dv_topo_group_core(&cfg, DV_CORE_AIV, 5, 1), 24 + 11);
    ck_assert(!dv_topo_has_buffer(&cfg, DV_CORE_AIC, DV_SPACE_UB));
    ck_assert(dv_topo_chip_has_pipe(&cfg, DV_PIPE_FIX));
    dvt_config(&cfg, "ascend310", NULL);
    ck_assert(!dv_topo_chip_has_pipe(&cfg, DV_PIPE_FIX));
    ck_assert(!dv_topo_has_buffer(&cfg, DV_CORE_COUPLED, DV_SPACE_BT)); /* core.bt_size_bytes is 0 */
    ck_assert(dv_topo_has_buffer(&cfg, DV_CORE_COUPLED, DV_SPACE_UB));
}
END_TEST

START_TEST(test_topology_check_kernel)
{
    dv_config_t cfg;
    dv_error_t e;
    dv_kernel_info_t info = {.name = "k", .kind = DV_KIND_MIX, .blocks = 1, .subs = 3};
    dvt_config(&cfg, NULL, NULL);
    ck_assert_int_eq(dv_topo_check_kernel(&cfg, &info, &e), DV_OK);
    dvt_config(&cfg, NULL, (const char *const[]){"chip.aiv_per_core=1", NULL});
    ck_assert_int_eq(dv_topo_check_kernel(&cfg, &info, &e), DV_ERR_RANGE);
    ck_assert_str_eq(e.msg, "mix kernel 'k' has 2 AIV sub-streams per block (aiv0 .. aiv1); profile 'ascend910b2' has "
                            "chip.aiv_per_core = 1: a mix kernel runs on the AIV count it was written for");
    info.subs = 2;
    ck_assert_int_eq(dv_topo_check_kernel(&cfg, &info, &e), DV_OK);
    dvt_config(&cfg, "ascend310", NULL);
    ck_assert_int_eq(dv_topo_check_kernel(&cfg, &info, &e), DV_ERR_UNSUPPORTED);
    ck_assert_str_eq(e.msg, "kernel 'k' is a mix kernel, which needs a split (AIC + AIV) chip; profile 'ascend310' is "
                            "coupled (chip.layout)");
    info.kind = DV_KIND_CUBE;
    info.subs = 1;
    ck_assert_int_eq(dv_topo_check_kernel(&cfg, &info, &e), DV_OK);
}
END_TEST

/* ---------------------------------------------------------------- every sample on every profile */

/* What a sample does on a profile: runs (msg NULL), or fails with this message at this place. */
typedef struct expect {
    int line, col;    /* trace line and column of the error (column 0: the model's, at a line) */
    const char *msg;  /* the start of the message */
} expect_t;

static expect_t expected(const char *trace, const dv_config_t *cfg)
{
    const bool split = cfg->chip_layout == DV_LAYOUT_SPLIT;
    expect_t e = {0, 0, NULL};
    static char msg[256];
    if (strcmp(trace, "matmul_relu_mix.trace") == 0 && !split) { /* a mix kernel needs AICs and AIVs */
        snprintf(msg, sizeof msg, "kernel 'matmul_relu_mix' is a mix kernel, which needs a split (AIC + AIV) chip; "
                                  "profile '%s' is coupled (chip.layout)", cfg->chip_name);
        e = (expect_t){4, 29, msg};
    } else if (strcmp(trace, "matmul_relu_mix.trace") == 0 && cfg->chip_aiv_per_core != 2) { /* written for 2 AIVs */
        snprintf(msg, sizeof msg, "mix kernel 'matmul_relu_mix' has 2 AIV sub-streams per block (aiv0 .. aiv1); "
                                  "profile '%s' has chip.aiv_per_core = %u: a mix kernel runs on the AIV count it was "
                                  "written for", cfg->chip_name, (unsigned)cfg->chip_aiv_per_core);
        e = (expect_t){4, 29, msg};
    } else if (strcmp(trace, "matmul_tile.trace") == 0 && !cfg->chip_has_fix_pipe) { /* it writes GM through FixPipe */
        e = (expect_t){26, 0, "pipe FIX does not exist on this core (core0, block 0, instruction #15 set_flag)"};
    } else if (strcmp(trace, "conv_tile_310.trace") == 0 && split) { /* L0C -> UB on a coupled core's vector unit */
        e = (expect_t){20, 0, "pipe V does not exist on this core (aic0, block 0, instruction #9 set_flag)"};
    }
    return e;
}

START_TEST(test_topology_every_sample_on_every_profile)
{
    static const char *const traces[] = {"conv_tile_310.trace", "matmul_relu_mix.trace", "matmul_tile.trace",
                                         "missing_wait.trace", "vadd_double_buffer.trace"};
    const int ntraces = (int)(sizeof traces / sizeof traces[0]);
    const char *root = getenv("DVSIM_ROOT") && getenv("DVSIM_ROOT")[0] ? getenv("DVSIM_ROOT") : ".";
    char path[1024];
    /* the list above is every sample: a new trace must be added with its expected outcomes */
    glob_t g;
    snprintf(path, sizeof path, "%s/traces/*.trace", root);
    ck_assert_int_eq(glob(path, 0, NULL, &g), 0);
    ck_assert_msg(g.gl_pathc == (size_t)ntraces, "traces/ has %zu samples, this test lists %d", g.gl_pathc, ntraces);
    globfree(&g);
    for (int t = 0; t < ntraces; t++)
        for (int i = 0; i < NPROFILES; i++) {
            const dv_profile_op_t ops[] = {{DV_PROFILE_PRESET, profiles[i].profile},
                                           {DV_PROFILE_SET, profiles[i].set}};
            dv_sim_opts_t o;
            dv_sim_opts_default(&o);
            o.profile_ops = ops;
            o.nprofile_ops = profiles[i].set ? 2 : 1;
            snprintf(path, sizeof path, "%s/traces/%s", root, traces[t]);
            o.trace = path;
            dv_sim_result_t res;
            dv_error_t err = {0};
            const int rc = dv_sim_execute(&o, &res, &err);
            const expect_t e = expected(traces[t], &res.cfg);
            const char *where = profiles[i].set ? profiles[i].set : "";
            if (!e.msg) {
                ck_assert_msg(rc == DV_OK, "%s on %s %s: %s", traces[t], profiles[i].profile, where, err.msg);
            } else {
                ck_assert_msg(rc != DV_OK, "%s on %s %s ran", traces[t], profiles[i].profile, where);
                ck_assert_str_eq(err.file, path);
                ck_assert_msg(err.line == e.line && err.col == e.col && strcmp(err.msg, e.msg) == 0,
                              "%s on %s %s: expected %d:%d '%s', got %d:%d '%s'", traces[t], profiles[i].profile, where,
                              e.line, e.col, e.msg, err.line, err.col, err.msg);
            }
            dv_sim_result_free(&res);
        }
}
END_TEST

/* A mix C kernel follows chip.aiv_per_core; recorded as a trace it names every AIV (aiv0 .. aiv{N-1})
 * and replays with the same cycles and output on the profile it was written for. */
START_TEST(test_topology_mix_kernel_records_and_replays_any_aiv_count)
{
    char *argv[] = {"--n", "1", "--cin", "16", "--h", "14", "--w", "14", "--cout", "32"};
    for (unsigned aivs = 1; aivs <= DV_TOPO_AIV_MAX; aivs++) {
        char set[32], path[] = "/tmp/dvsim-topo-XXXXXX";
        snprintf(set, sizeof set, "chip.aiv_per_core=%u", aivs);
        const dv_profile_op_t ops[] = {{DV_PROFILE_SET, set}};
        dv_sim_opts_t o;
        dv_sim_result_t op, replay;
        dv_error_t err;
        const int fd = mkstemp(path);
        ck_assert_int_ge(fd, 0);
        close(fd);
        dv_sim_opts_default(&o);
        o.profile_ops = ops;
        o.nprofile_ops = 1;
        o.op = "conv2d"; /* a mix kernel on the 910B */
        o.op_argc = (int)(sizeof argv / sizeof argv[0]);
        o.op_argv = argv;
        ck_assert_msg(dv_sim_execute(&o, &op, &err) == DV_OK, "%s", err.msg);
        ck_assert_int_eq(op.kernel->info.kind, DV_KIND_MIX);
        ck_assert_uint_eq(op.kernel->info.subs, 1 + aivs);
        o.record = path;
        dv_sim_result_t rec;
        ck_assert_msg(dv_sim_execute(&o, &rec, &err) == DV_OK, "%s", err.msg);
        dv_sim_result_free(&rec);
        o.record = NULL;
        o.op = NULL;
        o.trace = path;
        ck_assert_msg(dv_sim_execute(&o, &replay, &err) == DV_OK, "%u AIVs: %s", aivs, err.msg);
        ck_assert_uint_eq(replay.kernel->info.subs, 1 + aivs);
        ck_assert_uint_eq(replay.cnt.cycles, op.cnt.cycles);
        ck_assert_uint_eq(replay.cnt.instructions, op.cnt.instructions);
        const uint32_t out = op.kernel->info.nargs - 1;
        ck_assert_uint_eq(replay.gm.bytes[out], op.gm.bytes[out]);
        ck_assert(memcmp(replay.gm.data[out], op.gm.data[out], op.gm.bytes[out]) == 0);
        /* the AIVs of every AI core ran: aiv_per_core x blocks of AIV sub-streams */
        uint64_t aiv_blocks = 0;
        for (uint32_t c = 0; c < replay.cnt.ncores; c++)
            if (replay.cnt.cores[c].type == DV_CORE_AIV)
                aiv_blocks += replay.cnt.cores[c].blocks;
        ck_assert_uint_eq(aiv_blocks, (uint64_t)aivs * replay.kernel->info.blocks);
        dv_sim_result_free(&op);
        dv_sim_result_free(&replay);
        unlink(path);
    }
}
END_TEST

Suite *dv_topology_suite(void)
{
    Suite *s = suite_create("topology");
    TCase *tc = tcase_create("topology");
    tcase_add_test(tc, test_topology_table_invariants);
    tcase_add_test(tc, test_topology_sub_names_round_trip);
    tcase_add_test(tc, test_topology_cores_of_every_profile);
    tcase_add_test(tc, test_topology_check_kernel);
    tcase_add_test(tc, test_topology_every_sample_on_every_profile);
    tcase_add_test(tc, test_topology_mix_kernel_records_and_replays_any_aiv_count);
    suite_add_tcase(s, tc);
    return s;
}
