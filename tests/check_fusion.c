/* tests/check_fusion.c - the fusion study (dv/fusion.h): the planner's groups and verdicts, the
 * composed kernels against the unfused runs (equal outputs, no hazards), and the traffic that
 * fusion removes, derived from the tensors' sizes. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <glob.h>
#include <string.h>

#include "dv/fusion.h"
#include "dv/graph.h"
#include "support/dvt.h"

/* Parse a graph given as text (the test fails on a parse error). */
static void graph_of(const char *text, dv_graph_t *g)
{
    dv_error_t e;
    memset(&e, 0, sizeof e);
    const int rc = dv_graph_parse(text, strlen(text), "test.yaml", g, &e);
    ck_assert_msg(rc == DV_OK, "graph: %s:%d: %s", e.file, e.line, e.msg);
}

/* Run the study of `text` on `profile` (with --set style overrides), with data. */
static dv_fusion_result_t *study(const char *text, const char *profile, const char *const *sets, bool data)
{
    static dv_graph_t g;
    dv_fusion_result_t *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    dv_config_t cfg;
    dvt_config(&cfg, profile, sets);
    graph_of(text, &g);
    dv_fusion_study_opts_t o;
    dv_fusion_study_opts_default(&o);
    o.data = data;
    dv_error_t e;
    memset(&e, 0, sizeof e);
    const int rc = dv_fusion_study(&g, &cfg, &o, r, &e);
    ck_assert_msg(rc == DV_OK, "study: %s:%d: %s", e.file, e.line, e.msg);
    return r;
}

static uint64_t gm_total(const dv_fsum_t *s) { return s->gm_read_bytes + s->gm_write_bytes; }

/* Fused outputs equal the unfused ones and no kernel had an unsynchronised access. */
static void assert_equal_outputs(const dv_fusion_result_t *r)
{
    ck_assert(r->checked);
    ck_assert_uint_gt(r->compared, 0);
    ck_assert_msg(r->mismatches == 0, "%llu mismatches (max abs err %g in %s)", (unsigned long long)r->mismatches,
                  r->check.max_abs_err, r->check.arg);
    ck_assert_uint_eq(r->unfused.total.hazards, 0);
    ck_assert_uint_eq(r->fused.total.hazards, 0);
}

static const char norm_chain[] =
    "name: norm_chain\n"
    "inputs:\n"
    "  x: {shape: [300, 700], dtype: fp16}\n"
    "nodes:\n"
    "  - {name: ln, op: layernorm, inputs: [x]}\n"
    "  - {name: rms, op: rmsnorm, inputs: [ln]}\n"
    "  - {name: sm, op: softmax, inputs: [rms]}\n"
    "outputs: [sm]\n";

/* Each intermediate kept in UB saves exactly one write and one read of its bytes: the row-wise
 * operators read their own parameters and the tensor once either way. */
START_TEST(test_fusion_removed_intermediates_save_their_bytes)
{
    static const char *const profiles[] = {"ascend910b2", "ascend310"};
    dv_fusion_result_t *r = study(norm_chain, profiles[_i], NULL, true);
    ck_assert_int_eq(r->plan.ngroups, 1);
    ck_assert(r->plan.g[0].fused);
    ck_assert_int_eq(r->plan.g[0].kind, DV_GROUP_VECTOR);
    ck_assert_uint_eq(r->unfused.total.kernels, 3);
    ck_assert_uint_eq(r->fused.total.kernels, 1);
    const uint64_t intermediate = 300 * 700 * 2; /* ln and rms, fp16 */
    ck_assert_uint_eq(gm_total(&r->unfused.total) - gm_total(&r->fused.total), 2 * 2 * intermediate);
    ck_assert_uint_eq(r->unfused.total.gm_write_bytes - r->fused.total.gm_write_bytes, 2 * intermediate);
    assert_equal_outputs(r);
    ck_assert_double_eq(r->check.max_abs_err, 0); /* the same instructions on the same elements */
    free(r);
}
END_TEST

/* A node with two users inside the group keeps its tensor in UB for both; a tensor read outside
 * the group (or a graph output) is stored. */
START_TEST(test_fusion_branches_share_the_tile)
{
    dv_fusion_result_t *r = study("name: branches\n"
                                  "inputs:\n"
                                  "  x: {shape: [64, 512], dtype: fp32}\n"
                                  "nodes:\n"
                                  "  - {name: ln, op: layernorm, inputs: [x]}\n"
                                  "  - {name: a, op: rmsnorm, inputs: [ln]}\n"
                                  "  - {name: b, op: softmax, inputs: [ln]}\n"
                                  "outputs: [a, b, ln]\n",
                                  "ascend910b2", NULL, true);
    ck_assert_int_eq(r->plan.ngroups, 1);
    ck_assert_int_eq(r->plan.g[0].nnodes, 3);
    ck_assert(r->plan.g[0].fused);
    /* unfused: ln written once and read twice; fused: ln written once (a graph output), read never */
    const uint64_t t = 64 * 512 * 4;
    ck_assert_uint_eq(gm_total(&r->unfused.total) - gm_total(&r->fused.total), 2 * t);
    assert_equal_outputs(r);
    ck_assert_uint_eq(r->compared, 3 * 64 * 512);
    free(r);
}
END_TEST

/* A group whose fused working set does not fit the UB is kept, and the reason names the bytes. */
START_TEST(test_fusion_refuses_a_tile_that_does_not_fit)
{
    static const char *const sets[] = {"core.ub_size_bytes=61440", NULL};
    dv_fusion_result_t *r = study("name: wide\n"
                                  "inputs:\n"
                                  "  x: {shape: [8, 2000], dtype: fp32}\n"
                                  "nodes:\n"
                                  "  - {name: sm, op: softmax, inputs: [x]}\n"
                                  "  - {name: ln, op: layernorm, inputs: [sm]}\n"
                                  "outputs: [ln]\n",
                                  "ascend910b2", sets, true);
    ck_assert_int_eq(r->plan.ngroups, 1);
    ck_assert(!r->plan.g[0].fused);
    ck_assert_msg(strstr(r->plan.g[0].reason, "one row of 2000 elements needs") &&
                      strstr(r->plan.g[0].reason, "core.ub_size_bytes is 61440"),
                  "%s", r->plan.g[0].reason);
    ck_assert_uint_eq(r->fused.total.kernels, 2);
    assert_equal_outputs(r);
    free(r);
}
END_TEST

/* The 30 % rule: when the intermediate is also a graph output, fusing saves only its read. */
START_TEST(test_fusion_keeps_a_group_below_the_traffic_rule)
{
    dv_fusion_result_t *r = study("name: low_saving\n"
                                  "inputs:\n"
                                  "  x: {shape: [64, 512], dtype: fp16}\n"
                                  "nodes:\n"
                                  "  - {name: ln, op: layernorm, inputs: [x]}\n"
                                  "  - {name: sm, op: softmax, inputs: [ln]}\n"
                                  "outputs: [ln, sm]\n",
                                  "ascend910b2", NULL, true);
    ck_assert_int_eq(r->plan.ngroups, 1);
    const dv_fgroup_t *g = &r->plan.g[0];
    ck_assert(!g->fused);
    /* unfused: x, gamma, beta, ln | ln, sm; fused: x, gamma, beta, ln, sm */
    const uint64_t t = 64 * 512 * 2, p = 512 * 2;
    ck_assert_uint_eq(g->est_unfused_bytes, 4 * t + 2 * p);
    ck_assert_uint_eq(g->est_fused_bytes, 3 * t + 2 * p);
    ck_assert_msg(strstr(g->reason, "below 30%"), "%s", g->reason);
    free(r);
}
END_TEST

/* A cube operator's own epilogue parameter: matmul -> relu becomes one matmul with FixPipe (910B)
 * or L0C -> UB (310) ReLU, and the ReLU kernel and its round trip disappear. */
START_TEST(test_fusion_relu_joins_the_matmul)
{
    static const char *const profiles[] = {"ascend910b2", "ascend310"};
    dv_fusion_result_t *r = study("name: mm_relu\n"
                                  "inputs:\n"
                                  "  a: {shape: [128, 256], dtype: fp16}\n"
                                  "  b: {shape: [256, 192], dtype: fp16}\n"
                                  "nodes:\n"
                                  "  - {name: mm, op: matmul, inputs: [a, b], params: {out-dtype: fp16}}\n"
                                  "  - {name: r, op: relu, inputs: [mm]}\n"
                                  "outputs: [r]\n",
                                  profiles[_i], NULL, true);
    ck_assert_int_eq(r->plan.ngroups, 1);
    ck_assert_int_eq(r->plan.g[0].kind, DV_GROUP_CUBE_EPILOGUE);
    ck_assert_str_eq(r->plan.g[0].epi_param, "relu");
    ck_assert_uint_eq(r->unfused.total.kernels, 2);
    ck_assert_uint_eq(r->fused.total.kernels, 1);
    /* the relu kernel read and wrote 128 x 192 fp16 */
    ck_assert_uint_eq(gm_total(&r->unfused.total) - gm_total(&r->fused.total), 2 * 128 * 192 * 2);
    ck_assert(r->fused.total.time_us < r->unfused.total.time_us);
    assert_equal_outputs(r);
    free(r);
}
END_TEST

/* A cube operator with a composed epilogue: matmul -> gelu -> relu as one kernel (910B: a mix kernel
 * handing tiles through the GM workspace ring; 310: L0C -> UB -> vector), equal to the unfused
 * bytes.  On the 310 both intermediates disappear from GM: each saves its write and its read. */
START_TEST(test_fusion_cube_epilogue_composes)
{
    static const char *const profiles[] = {"ascend910b2", "ascend310"};
    dv_fusion_result_t *r = study("name: mm_gelu_relu\n"
                                  "inputs:\n"
                                  "  a: {shape: [200, 160], dtype: fp16}\n"
                                  "  b: {shape: [160, 272], dtype: fp16}\n"
                                  "nodes:\n"
                                  "  - {name: mm, op: matmul, inputs: [a, b], params: {out-dtype: fp16}}\n"
                                  "  - {name: act, op: gelu, inputs: [mm]}\n"
                                  "  - {name: r, op: relu, inputs: [act]}\n"
                                  "outputs: [r]\n",
                                  profiles[_i], NULL, true);
    ck_assert_int_eq(r->plan.ngroups, 1);
    ck_assert_int_eq(r->plan.g[0].kind, DV_GROUP_CUBE_EPILOGUE);
    ck_assert(r->plan.g[0].fused);
    ck_assert_str_eq(r->plan.g[0].epi_param, "");
    ck_assert_uint_eq(r->unfused.total.kernels, 3);
    ck_assert_uint_eq(r->fused.total.kernels, 1);
    ck_assert_int_eq(r->fused.k[0].kind, _i == 0 ? DV_KIND_MIX : DV_KIND_CUBE);
    assert_equal_outputs(r);
    ck_assert_double_eq(r->check.max_abs_err, 0);
    const uint64_t c = 200 * 272 * 2;
    if (_i == 1)
        ck_assert_uint_eq(gm_total(&r->unfused.total) - gm_total(&r->fused.total), 2 * 2 * c);
    else /* the tile still goes AIC -> GM -> AIV: only act's round trip goes, mm's moves to the workspace */
        ck_assert_uint_eq(gm_total(&r->unfused.total) - gm_total(&r->fused.total), 2 * c);
    free(r);
}
END_TEST

/* Graph fusion and the conv's own epilogue: conv2d -> batchnorm -> relu is one conv2d with a
 * folded bias and --relu, faster than three kernels on the 310. */
START_TEST(test_fusion_conv_bn_relu_faster_on_310)
{
    dv_fusion_result_t *r = study("name: cbr\n"
                                  "inputs:\n"
                                  "  x: {shape: [1, 32, 28, 28], dtype: fp16}\n"
                                  "nodes:\n"
                                  "  - {name: conv, op: conv2d, inputs: [x], params: {cout: 48, kh: 3, kw: 3, pad: 1}}\n"
                                  "  - {name: bn, op: batchnorm, inputs: [conv]}\n"
                                  "  - {name: act, op: relu, inputs: [bn]}\n"
                                  "outputs: [act]\n",
                                  "ascend310", NULL, true);
    ck_assert_int_eq(r->folds.n, 1);
    ck_assert_int_eq(r->plan.ngroups, 1);
    ck_assert(r->plan.g[0].fused);
    ck_assert_str_eq(r->plan.g[0].epi_param, "relu");
    ck_assert_uint_eq(r->unfused.total.kernels, 3);
    ck_assert_uint_eq(r->fused.total.kernels, 1);
    ck_assert_msg(r->fused.total.time_us < r->unfused.total.time_us, "fused %.2f us, unfused %.2f us",
                  r->fused.total.time_us, r->unfused.total.time_us);
    assert_equal_outputs(r);
    free(r);
}
END_TEST

/* On the 910B a memory-bound element-wise chain gains more from fusion than a cube-bound
 * matmul + gelu, whose tile still travels through GM between the AIC and the AIVs. */
START_TEST(test_fusion_memory_bound_chain_gains_more_than_matmul_gelu)
{
    dv_fusion_result_t *chain = study("name: chain\n"
                                      "inputs:\n"
                                      "  x: {shape: [1024, 2048], dtype: fp16}\n"
                                      "  y: {shape: [1024, 2048], dtype: fp16}\n"
                                      "nodes:\n"
                                      "  - {name: s, op: add, inputs: [x, y]}\n"
                                      "  - {name: m, op: mul, inputs: [s, x]}\n"
                                      "  - {name: g, op: gelu, inputs: [m]}\n"
                                      "outputs: [g]\n",
                                      "ascend910b2", NULL, false);
    dv_fusion_result_t *mm = study("name: mm_gelu\n"
                                   "inputs:\n"
                                   "  a: {shape: [2048, 2048], dtype: fp16}\n"
                                   "  b: {shape: [2048, 2048], dtype: fp16}\n"
                                   "nodes:\n"
                                   "  - {name: mm, op: matmul, inputs: [a, b], params: {out-dtype: fp16}}\n"
                                   "  - {name: g, op: gelu, inputs: [mm]}\n"
                                   "outputs: [g]\n",
                                   "ascend910b2", NULL, false);
    ck_assert(chain->plan.g[0].fused && mm->plan.g[0].fused);
    const double s_chain = chain->unfused.total.time_us / chain->fused.total.time_us;
    const double s_mm = mm->unfused.total.time_us / mm->fused.total.time_us;
    ck_assert_msg(s_chain > s_mm && s_mm > 1.0, "chain %.3fx, matmul+gelu %.3fx", s_chain, s_mm);
    free(chain);
    free(mm);
}
END_TEST

/* Every shipped graph on both profiles: with data, fused equals unfused and no kernel has a
 * hazard (the 8192^3 graph only timing-only, in make bench: its data run takes hours). */
START_TEST(test_fusion_shipped_graphs)
{
    static const char *const profiles[] = {"ascend910b2", "ascend310"};
    char pattern[512];
    const char *root = getenv("DVSIM_ROOT") ? getenv("DVSIM_ROOT") : ".";
    snprintf(pattern, sizeof pattern, "%s/graphs/*.yaml", root);
    glob_t gl;
    ck_assert_int_eq(glob(pattern, 0, NULL, &gl), 0);
    ck_assert_uint_ge(gl.gl_pathc, 10);
    int ran = 0;
    for (size_t i = 0; i < gl.gl_pathc; i++) {
        if (strstr(gl.gl_pathv[i], "_8192"))
            continue;
        static dv_graph_t g;
        dv_error_t e;
        memset(&e, 0, sizeof e);
        ck_assert_msg(dv_graph_load(gl.gl_pathv[i], &g, &e) == DV_OK, "%s:%d: %s", e.file, e.line, e.msg);
        for (int p = 0; p < 2; p++) {
            dv_config_t cfg;
            dvt_config(&cfg, profiles[p], NULL);
            dv_fusion_study_opts_t o;
            dv_fusion_study_opts_default(&o);
            dv_fusion_result_t *r = calloc(1, sizeof *r);
            ck_assert_ptr_nonnull(r);
            ck_assert_msg(dv_fusion_study(&g, &cfg, &o, r, &e) == DV_OK, "%s on %s: %s", gl.gl_pathv[i], profiles[p],
                          e.msg);
            ck_assert_msg(r->checked && r->compared && !r->mismatches, "%s on %s: %llu mismatches", gl.gl_pathv[i],
                          profiles[p], (unsigned long long)r->mismatches);
            ck_assert_msg(!r->fused.total.hazards && !r->unfused.total.hazards, "%s on %s: hazards", gl.gl_pathv[i],
                          profiles[p]);
            free(r);
            ran++;
        }
    }
    globfree(&gl);
    ck_assert_int_ge(ran, 20);
}
END_TEST

static const char five[] = "name: five\n"
                          "inputs:\n"
                          "  a: {shape: [256, 256], dtype: fp16}\n"
                          "  b: {shape: [256, 256], dtype: fp16}\n"
                          "  c: {shape: [256, 256], dtype: fp16}\n"
                          "  d: {shape: [256, 256], dtype: fp16}\n"
                          "  e: {shape: [256, 256], dtype: fp16}\n"
                          "nodes:\n"
                          "  - {name: s1, op: add, inputs: [a, b]}\n"
                          "  - {name: s2, op: add, inputs: [s1, c]}\n"
                          "  - {name: s3, op: add, inputs: [s2, d]}\n"
                          "  - {name: s4, op: add, inputs: [s3, e]}\n"
                          "outputs: [s4]\n";

/* Every buffer of a queue takes an event id each way: with sync.event_ids = 4 three loaded tensors
 * are single-buffered, and five cannot be fused at all. */
START_TEST(test_fusion_event_ids_limit_the_queues)
{
    static const char *const sets[] = {"sync.event_ids=4", NULL};
    dv_fusion_result_t *r = study("name: three\n"
                                  "inputs:\n"
                                  "  x: {shape: [256, 256], dtype: fp16}\n"
                                  "  y: {shape: [256, 256], dtype: fp16}\n"
                                  "  z: {shape: [256, 256], dtype: fp16}\n"
                                  "nodes:\n"
                                  "  - {name: s, op: add, inputs: [x, y]}\n"
                                  "  - {name: m, op: mul, inputs: [s, z]}\n"
                                  "outputs: [m]\n",
                                  "ascend910b2", sets, true);
    ck_assert(r->plan.g[0].fused);
    ck_assert_uint_eq(r->plan.g[0].depth, 1);
    assert_equal_outputs(r);
    free(r);
    r = study(five, "ascend910b2", sets, true);
    ck_assert(!r->plan.g[0].fused);
    ck_assert_msg(strstr(r->plan.g[0].reason, "5 loaded and 1 stored tensors need 5 event ids") &&
                      strstr(r->plan.g[0].reason, "sync.event_ids is 4"),
                  "%s", r->plan.g[0].reason);
    assert_equal_outputs(r);
    free(r);
    r = study(five, "ascend910b2", NULL, true);
    ck_assert(r->plan.g[0].fused); /* the 910B2's 8 ids: one buffer each */
    ck_assert_uint_eq(r->plan.g[0].depth, 1);
    assert_equal_outputs(r);
    free(r);
}
END_TEST

Suite *dv_fusion_suite(void)
{
    Suite *s = suite_create("fusion");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_fusion_removed_intermediates_save_their_bytes, 0, 2);
    tcase_add_test(tc, test_fusion_branches_share_the_tile);
    tcase_add_test(tc, test_fusion_refuses_a_tile_that_does_not_fit);
    tcase_add_test(tc, test_fusion_keeps_a_group_below_the_traffic_rule);
    tcase_add_loop_test(tc, test_fusion_relu_joins_the_matmul, 0, 2);
    tcase_add_loop_test(tc, test_fusion_cube_epilogue_composes, 0, 2);
    tcase_add_test(tc, test_fusion_conv_bn_relu_faster_on_310);
    tcase_add_test(tc, test_fusion_memory_bound_chain_gains_more_than_matmul_gelu);
    tcase_add_test(tc, test_fusion_event_ids_limit_the_queues);
    suite_add_tcase(s, tc);
    TCase *shipped = tcase_create("shipped");
    tcase_set_timeout(shipped, 600);
    tcase_add_test(shipped, test_fusion_shipped_graphs);
    suite_add_tcase(s, shipped);
    return s;
}
