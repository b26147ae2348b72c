/* tests/check_acl_graph.c - operator graphs launched fused through the AscendCL shim
 * (dvsim/acl_graph.h): the outputs against a plain-C computation, the fused kernel in the
 * op_summary CSV, and the errors of each call. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "dv/semantics.h"
#include "dvsim/acl_graph.h"
#include "support/aclt.h"

enum { ROWS = 48, COLS = 200, N = ROWS * COLS };

/* z = relu(x + y) * x on exact small integers, so the fp16 result is exact. */
static const char graph_text[] = "name: add_relu_mul\n"
                                 "inputs:\n"
                                 "  x: {shape: [48, 200], dtype: fp16}\n"
                                 "  y: {shape: [48, 200], dtype: fp16}\n"
                                 "nodes:\n"
                                 "  - {name: s, op: add, inputs: [x, y]}\n"
                                 "  - {name: r, op: relu, inputs: [s]}\n"
                                 "  - {name: z, op: mul, inputs: [r, x]}\n"
                                 "outputs: [z]\n";

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(test_acl_graph_launches_the_fused_kernel)
{
    char dir[] = "/tmp/dvsim_graph_XXXXXX", path[128], csv[160], line[4096];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/g.yaml", dir);
    snprintf(csv, sizeof csv, "%s/op_summary.csv", dir);
    write_text(path, graph_text);
    setenv("DVSIM_PROFILE_OUT", dir, 1);
    up();
    dvsimGraph *g = NULL;
    uint64_t ws = 0, in_bytes[2], out_bytes[1];
    uint32_t nin = 0, nout = 0;
    OK(dvsimGraphCreate(path, &g, &ws));
    OK(dvsimGraphGetIo(g, &nin, in_bytes, &nout, out_bytes));
    ck_assert_uint_eq(nin, 2);
    ck_assert_uint_eq(nout, 1);
    ck_assert_uint_eq(in_bytes[0], N * 2);
    ck_assert_uint_eq(out_bytes[0], N * 2);
    ck_assert_uint_eq(ws, 0); /* one fused kernel: nothing is stored between kernels */
    uint16_t hx[N], hy[N], hz[N];
    for (int i = 0; i < N; i++) {
        hx[i] = dv_f32_to_f16((float)(i % 7 - 3));
        hy[i] = dv_f32_to_f16((float)(i % 5 - 2));
    }
    void *x, *y, *z;
    OK(aclrtMalloc(&x, N * 2, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&y, N * 2, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&z, N * 2, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemcpy(x, N * 2, hx, N * 2, ACL_MEMCPY_HOST_TO_DEVICE));
    OK(aclrtMemcpy(y, N * 2, hy, N * 2, ACL_MEMCPY_HOST_TO_DEVICE));
    void *ins[2] = {x, y}, *outs[1] = {z};
    FAILS(dvsimGraphLaunch(g, ins, 1, outs, 1, NULL, 0, NULL), ACL_ERROR_INVALID_PARAM, "has 2 inputs and 1 outputs");
    OK(dvsimGraphLaunch(g, ins, 2, outs, 1, NULL, 0, NULL));
    OK(aclrtSynchronizeDevice());
    OK(aclrtMemcpy(hz, N * 2, z, N * 2, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < N; i++) {
        const float a = (float)(i % 7 - 3), b = (float)(i % 5 - 2), s = a + b > 0 ? a + b : 0;
        ck_assert_msg(dv_f16_to_f32(hz[i]) == s * a, "z[%d] = %g, want %g", i, dv_f16_to_f32(hz[i]), s * a);
    }
    OK(dvsimGraphDestroy(g));
    FAILS(dvsimGraphDestroy(g), ACL_ERROR_INVALID_PARAM, "not a graph");
    down();
    unsetenv("DVSIM_PROFILE_OUT");
    /* the op_summary CSV has one row: the fused kernel */
    ck_assert_int_eq(count_lines(csv), 2);
    FILE *f = fopen(csv, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    fclose(f);
    ck_assert_msg(strstr(line, "fused:s+r+z") && strstr(line, "Fused"), "%s", line);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* A graph with a workspace: a conv whose weights the launch writes, then a ReLU it absorbs, then
 * a softmax in its own kernel; and the errors of every call. */
START_TEST(test_acl_graph_workspace_and_errors)
{
    char dir[] = "/tmp/dvsim_graph_XXXXXX", path[128];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/g.yaml", dir);
    write_text(path, "name: conv_relu_softmax\n"
                     "inputs:\n"
                     "  x: {shape: [1, 16, 12, 12], dtype: fp16}\n"
                     "nodes:\n"
                     "  - {name: c, op: conv2d, inputs: [x], params: {cout: 16, kh: 3, kw: 3, pad: 1}}\n"
                     "  - {name: r, op: relu, inputs: [c]}\n"
                     "  - {name: s, op: softmax, inputs: [r]}\n"
                     "outputs: [s]\n");
    dvsimGraph *g = NULL;
    uint64_t ws = 0;
    FAILS(dvsimGraphCreate(path, &g, &ws), ACL_ERROR_UNINITIALIZE, "dvsimGraphCreate");
    up();
    FAILS(dvsimGraphCreate(NULL, &g, &ws), ACL_ERROR_INVALID_PARAM, "NULL");
    FAILS(dvsimGraphCreate("/nonexistent.yaml", &g, &ws), ACL_ERROR_INVALID_FILE, "nonexistent");
    OK(dvsimGraphCreate(path, &g, &ws));
    ck_assert_uint_gt(ws, 16 * 16 * 9 * 2); /* at least the weights */
    void *x, *s, *w;
    OK(aclrtMalloc(&x, 16 * 144 * 2, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&s, 16 * 144 * 2, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemset(x, 16 * 144 * 2, 0, 16 * 144 * 2));
    void *ins[1] = {x}, *outs[1] = {s};
    FAILS(dvsimGraphLaunch(g, ins, 1, outs, 1, w, ws - 1, NULL), ACL_ERROR_INVALID_PARAM, "the workspace has");
    FAILS(dvsimGraphLaunch(g, ins, 1, outs, 1, (char *)w + 512, ws, NULL), ACL_ERROR_INVALID_PARAM,
          "the workspace needs");
    OK(dvsimGraphLaunch(g, ins, 1, outs, 1, w, ws, NULL));
    OK(dvsimGraphLaunch(g, ins, 1, outs, 1, w, ws, NULL)); /* again: the kernels run twice */
    OK(aclrtSynchronizeDevice());
    /* x = 0: the conv gives its bias-free zero, relu 0, softmax 1/12 along each row of 12 */
    uint16_t hs[16 * 144];
    OK(aclrtMemcpy(hs, sizeof hs, s, sizeof hs, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < 16 * 144; i++)
        ck_assert_float_eq_tol(dv_f16_to_f32(hs[i]), 1.0f / 12, 1e-4); /* rows of 12 */
    OK(dvsimGraphDestroy(g));
    down();
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *dv_acl_graph_suite(void)
{
    Suite *s = suite_create("acl_graph");
    TCase *t = tcase_create("graph");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_acl_graph_launches_the_fused_kernel);
    tcase_add_test(t, test_acl_graph_workspace_and_errors);
    suite_add_tcase(s, t);
    return s;
}
