/* tests/check_acl_config.c - aclInit's configuration: the JSON file (its errors located, the
 * dvsim profile and --set overrides it names, the environment winning over it, the profiling
 * directory), and what the chosen profile then allows (a trace written for another core layout). */
#define _DEFAULT_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "dvsim/acl_launch.h"
#include "support/aclt.h"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* A trace written for another core layout (a mix kernel for 2 AIVs per AI core, on a profile with
 * 1) is refused at its kind= field, with the located message dvsim run gives. */
START_TEST(test_acl_launch_trace_other_layout)
{
    char dir[] = "/tmp/dvsim_cfg_XXXXXX", path[128], trace[1024];
    const char *root = getenv("DVSIM_ROOT");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/acl.json", dir);
    snprintf(trace, sizeof trace, "%s/traces/matmul_relu_mix.trace", root ? root : ".");
    write_file(path, "{\"dvsim\": {\"set\": [\"chip.aiv_per_core=1\"]}}");
    OK(aclInit(path));
    OK(aclrtSetDevice(0));
    FAILS(dvsimLaunchTrace(trace, NULL, NULL, 0), ACL_ERROR_INVALID_PARAM, "matmul_relu_mix.trace:4:29: ");
    FAILS(dvsimLaunchTrace(trace, NULL, NULL, 0), ACL_ERROR_INVALID_PARAM,
          "has 2 AIV sub-streams per block (aiv0 .. aiv1); profile 'ascend910b2' has chip.aiv_per_core = 1");
    down();
    unlink(path);
    rmdir(dir);
}
END_TEST

START_TEST(test_acl_init_config)
{
    char dir[] = "/tmp/dvsim_cfg_XXXXXX", path[128], prof[128];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/acl.json", dir);
    FAILS(aclInit(path), ACL_ERROR_INVALID_FILE, "cannot open config file");
    /* not a regular file: refused before it is read (/dev/zero has no end, a FIFO blocks) */
    FAILS(aclInit("/dev/zero"), ACL_ERROR_INVALID_FILE, "not a regular file (a character device)");
    FAILS(aclInit(dir), ACL_ERROR_INVALID_FILE, "not a regular file (a directory)");
    /* nesting deeper than a configuration needs is refused where it starts */
    char deep[300];
    memset(deep, '[', 200);
    deep[200] = 0;
    write_file(path, deep);
    FAILS(aclInit(path), ACL_ERROR_PARSE_FILE, "acl.json:1:65: YAML nested deeper than 64 levels");
    /* a name with a NUL character inside is not cut short there and accepted */
    write_file(path, "{\"dvsim\": {\"profile\": \"ascend910b2\\u0000x\"}}");
    FAILS(aclInit(path), ACL_ERROR_PARSE_FILE, "acl.json:1:23: a value holds a NUL character");
    write_file(path, "{\n  \"dump\": {\n    \"dump_list\": [ ]\n  ,,\n}\n");
    FAILS(aclInit(path), ACL_ERROR_PARSE_FILE, "acl.json:4:");
    write_file(path, "{\"dvsim\": {\"profile\": \"ascend999\"}}");
    FAILS(aclInit(path), ACL_ERROR_INVALID_PARAM, "ascend999");
    write_file(path, "{\"dvsim\": {\"profile\": \"ascend310\", \"set\": [\"hbm.capacity_bytes=4096\"]},"
                     " \"dump\": {\"dump_path\": \"x\"}}");
    OK(aclInit(path));
    ck_assert_str_eq(aclrtGetSocName(), "Ascend310");
    OK(aclrtSetDevice(0));
    size_t fr, total;
    OK(aclrtGetMemInfo(ACL_HBM_MEM, &fr, &total));
    ck_assert_uint_eq(total, 4096);
    down();
    /* the environment wins over the file */
    setenv("DVSIM_PROFILE", "ascend910b1", 1);
    OK(aclInit(path));
    ck_assert_str_eq(aclrtGetSocName(), "Ascend910B1");
    OK(aclFinalize());
    unsetenv("DVSIM_PROFILE");
    /* a profiling directory that cannot be made fails aclInit, which can then be retried */
    char blocker[160], plain[160];
    snprintf(plain, sizeof plain, "%s/file", dir);
    snprintf(blocker, sizeof blocker, "%s/file/prof", dir);
    write_file(plain, "not a directory");
    setenv("DVSIM_PROFILE_OUT", blocker, 1);
    FAILS(aclInit(NULL), ACL_ERROR_INVALID_FILE, "cannot create directory");
    unsetenv("DVSIM_PROFILE_OUT");
    FAILS(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE, "is not initialized");
    OK(aclInit(NULL));
    OK(aclFinalize());
    /* a profile YAML named relative to the JSON file */
    char yaml[160];
    snprintf(yaml, sizeof yaml, "%s/p.yaml", dir);
    write_file(yaml, "preset: ascend910b3\n");
    write_file(path, "{\"dvsim\": {\"config\": \"p.yaml\"}}");
    OK(aclInit(path));
    ck_assert_str_eq(aclrtGetSocName(), "Ascend910B3");
    OK(aclFinalize());
    /* the CANN profiler switch */
    snprintf(prof, sizeof prof, "%s/prof", dir);
    char text[512];
    snprintf(text, sizeof text, "{\"profiler\": {\"switch\": \"on\", \"output\": \"%s\"}}", prof);
    write_file(path, text);
    OK(aclInit(path));
    OK(aclrtSetDevice(0));
    OK(aclFinalize()); /* finalize with the device still set releases it */
    snprintf(text, sizeof text, "%s/op_summary.csv", prof);
    ck_assert_int_eq(count_lines(text), 1);
}
END_TEST

Suite *dv_acl_config_suite(void)
{
    Suite *s = suite_create("acl_config");
    TCase *t = tcase_create("config");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_acl_init_config);
    tcase_add_test(t, test_acl_launch_trace_other_layout);
    suite_add_tcase(s, t);
    return s;
}
